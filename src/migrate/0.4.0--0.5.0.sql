-- 0.4.0 -> 0.5.0 migration of stateful objects (tables, types, shipped rows): hand-written, run before all replaceable code.

-- issue 43: FOCUS loads serialise on a row only the tenant's writers can lock, not an advisory key.
CREATE TABLE llm_econ.focus_statement_lock (
    tenant               text NOT NULL,
    provider             text,
    billing_account_id   text,
    billing_period_start timestamptz,
    CONSTRAINT focus_statement_lock_key UNIQUE NULLS NOT DISTINCT (tenant, provider, billing_account_id, billing_period_start)
);
COMMENT ON TABLE llm_econ.focus_statement_lock IS
  'internal: one row per statement FOCUS loads stored; a load locks its statements'' rows (only the tenant''s writers can)';
ALTER TABLE llm_econ.focus_statement_lock ENABLE ROW LEVEL SECURITY;
CREATE POLICY focus_statement_lock_writer ON llm_econ.focus_statement_lock
    USING (llm_econ._is_tenant_member(tenant) AND pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT'))
    WITH CHECK (llm_econ._is_tenant_member(tenant) AND pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT'));
GRANT SELECT, INSERT, UPDATE ON llm_econ.focus_statement_lock TO PUBLIC;

