-- update_tail.sql: the end of every built update script: drops the migration's check (src/migrate/update_head.sql).
DROP FUNCTION llm_econ._update_drop_check(text, text);
