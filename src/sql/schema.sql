-- schema.sql: the schema's comment (src/schema/schema.sql creates the schema).
COMMENT ON SCHEMA llm_econ IS 'llm_econ: the economics of LLM training runs (cost, time, memory, prices, spend)';
