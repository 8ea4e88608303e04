-- llm_econ update script head (0.1.0 -> 0.2.0): the parts new in 0.2.0 follow.
\echo Use "ALTER EXTENSION llm_econ UPDATE TO '0.2.0'" to load this file. \quit
