-- schema.sql (stateful): the schema llm_econ; run once, at install (the update scripts start from an existing one).
\echo Use "CREATE EXTENSION llm_econ" to load this file. \quit

-- Plain CREATE: if somebody created a schema of this name first, installation stops here.
CREATE SCHEMA llm_econ;
