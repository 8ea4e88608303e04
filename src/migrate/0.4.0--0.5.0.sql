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


-- issue 46: run_spec gains stack, fp8_attention and fsdp_reshard, appended (stored values read NULL: megatron,
-- attention in BF16, the stack's default resharding: what 0.4.0 computed).  The constructor's signature changes.
ALTER TYPE llm_econ.run_spec
    ADD ATTRIBUTE stack text CASCADE,
    ADD ATTRIBUTE fp8_attention boolean CASCADE,
    ADD ATTRIBUTE fsdp_reshard boolean CASCADE;
COMMENT ON COLUMN llm_econ.run_spec.stack IS 'software that runs the step: megatron (Megatron-LM/NeMo, Transformer Engine), torch_compile, torch_eager; NULL = megatron';
COMMENT ON COLUMN llm_econ.run_spec.fp8_attention IS 'with dtype fp8, whether attention also runs in FP8; NULL = false (the linear layers'' GEMMs only)';
COMMENT ON COLUMN llm_econ.run_spec.fsdp_reshard IS 'ZeRO-3/FSDP: whether parameters are resharded between micro-batches; NULL = the stack''s default (torch stacks with pp > 1 keep them unsharded)';
DROP FUNCTION IF EXISTS llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4,
                                          text, text, int4, float8, float8, int4, int4, int4, int4, int4, int4, int4, text, int4,
                                          boolean, text, text, int4, int4, int4, int4, int4, boolean);
