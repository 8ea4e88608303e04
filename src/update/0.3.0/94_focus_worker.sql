-- 94_focus_worker.sql: large staged FOCUS files typed in a background worker (llm_econ.focus_typing_worker).
CREATE FUNCTION llm_econ._focus_worker_lines() RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_worker_lines_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_worker_lines() IS
  'internal: how many lines of this session''s last staged FOCUS load a background worker typed (llm_econ.focus_typing_worker); 0 when the session typed them all';
