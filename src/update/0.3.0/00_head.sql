-- llm_econ 0.2.0 -> 0.3.0 update script, part 00: the guard against \i.  The parts that follow
-- (NN_topic.sql, in name order) each carry one concern's changes.
\echo Use "ALTER EXTENSION llm_econ UPDATE TO '0.3.0'" to load this file. \quit
