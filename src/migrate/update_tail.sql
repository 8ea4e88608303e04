-- update_tail.sql: the end of every built update script: drops the migration's helpers (src/migrate/update_head.sql) and restores Citus's DDL propagation.
DROP FUNCTION llm_econ._update_drop_check(text, text);
DROP FUNCTION llm_econ._update_ddl(text);
DROP FUNCTION llm_econ._update_local_tables(regclass);
SELECT pg_catalog.set_config('citus.enable_ddl_propagation', 'on', true),
       pg_catalog.set_config('llm_econ_update.citus_ddl_propagation', '', true)
 WHERE pg_catalog.current_setting('llm_econ_update.citus_ddl_propagation', true) OPERATOR(pg_catalog.=) 'on';
