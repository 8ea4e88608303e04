-- llm_econ update script head (0.1.0 -> 0.2.0): changed functions (CREATE OR REPLACE, the one way an update
-- script can give an existing function a new body; the schema is the extension's own) and the parts new in 0.2.0 follow.
\echo Use "ALTER EXTENSION llm_econ UPDATE TO '0.2.0'" to load this file. \quit
