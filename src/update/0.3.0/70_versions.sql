-- 70_versions.sql: PostgreSQL 18 names NOT NULL constraints (<table>_<column>_not_null) and a column rename keeps the old name; give them the names a fresh install has.
DO $$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT con.conrelid::regclass AS rel, con.conname, cl.relname || '_' || a.attname || '_not_null' AS fresh
      FROM pg_catalog.pg_constraint con
      JOIN pg_catalog.pg_class cl ON cl.oid OPERATOR(pg_catalog.=) con.conrelid
      JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) con.conrelid
                                     AND a.attnum OPERATOR(pg_catalog.=) con.conkey[1]
     WHERE con.contype OPERATOR(pg_catalog.=) 'n'
       AND cl.relnamespace OPERATOR(pg_catalog.=) 'llm_econ'::regnamespace
       AND con.conname OPERATOR(pg_catalog.<>) (cl.relname || '_' || a.attname || '_not_null')
  LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', c.rel, c.conname, c.fresh);
  END LOOP;
END $$;
