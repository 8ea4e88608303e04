-- llm_econ install script head: guards against \i and creates the schema (failing if it already exists).
\echo Use "CREATE EXTENSION llm_econ" to load this file. \quit

-- Plain CREATE: if somebody created a schema of this name first, installation stops here.
CREATE SCHEMA llm_econ;
COMMENT ON SCHEMA llm_econ IS 'llm_econ: the economics of LLM training runs (cost, time, memory, prices, spend)';
