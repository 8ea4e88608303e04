-- llm_econ 0.3.0 -> 0.4.0 update script, part 75: run_spec's multi-head latent attention fields and dropout.

-- ---- run_spec: new fields, appended (stored values get NULL: plain attention, no dropout) ----
ALTER TYPE llm_econ.run_spec
    ADD ATTRIBUTE q_lora_rank int4 CASCADE,
    ADD ATTRIBUTE kv_lora_rank int4 CASCADE,
    ADD ATTRIBUTE qk_nope_head_dim int4 CASCADE,
    ADD ATTRIBUTE qk_rope_head_dim int4 CASCADE,
    ADD ATTRIBUTE v_head_dim int4 CASCADE,
    ADD ATTRIBUTE dropout boolean CASCADE;
COMMENT ON COLUMN llm_econ.run_spec.q_lora_rank IS 'multi-head latent attention (DeepSeek-V2/V3): rank of the query down/up projection; NULL = queries projected directly (or plain attention)';
COMMENT ON COLUMN llm_econ.run_spec.kv_lora_rank IS 'multi-head latent attention: rank of the shared key/value latent; NULL = plain attention (with qk_nope_head_dim, qk_rope_head_dim and v_head_dim: all or none)';
COMMENT ON COLUMN llm_econ.run_spec.qk_nope_head_dim IS 'multi-head latent attention: query/key size per head without rotary embedding; NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.qk_rope_head_dim IS 'multi-head latent attention: query/key size per head with rotary embedding (the key part shared by all heads); NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.v_head_dim IS 'multi-head latent attention: value size per head; NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.dropout IS 'whether the model trains with dropout: its masks are stored as activations (Korthikanti et al. 2022); NULL = false (Llama 2/3, DeepSeek-V3 train without)';

-- ---- the constructor: the new arguments ----
DROP FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8,
                                float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text);
CREATE FUNCTION llm_econ.run_spec(
    n_params float8, n_tokens float8, n_gpus int4, sku text,
    mfu float8 DEFAULT 0.40, dtype text DEFAULT 'bf16',
    n_layers int4 DEFAULT NULL, d_model int4 DEFAULT NULL,
    n_heads int4 DEFAULT NULL, seq_len int4 DEFAULT NULL,
    micro_batch int4 DEFAULT 1, global_batch int4 DEFAULT NULL,
    tp int4 DEFAULT 1, pp int4 DEFAULT 1, zero_stage int4 DEFAULT 0,
    recompute text DEFAULT 'none', optimizer text DEFAULT 'adamw',
    gpus_per_node int4 DEFAULT NULL,
    inter_node_gbit_per_s float8 DEFAULT 400,
    n_active_params float8 DEFAULT NULL, n_experts int4 DEFAULT NULL, top_k int4 DEFAULT NULL,
    ep int4 DEFAULT 1, cp int4 DEFAULT 1, vpp int4 DEFAULT 1,
    n_kv_heads int4 DEFAULT NULL, ffn_hidden int4 DEFAULT NULL, ffn_act text DEFAULT 'gelu',
    vocab_size int4 DEFAULT NULL, sequence_parallel boolean DEFAULT true,
    attention text DEFAULT 'flash', grad_dtype text DEFAULT 'bf16',
    q_lora_rank int4 DEFAULT NULL, kv_lora_rank int4 DEFAULT NULL,
    qk_nope_head_dim int4 DEFAULT NULL, qk_rope_head_dim int4 DEFAULT NULL,
    v_head_dim int4 DEFAULT NULL, dropout boolean DEFAULT false)
RETURNS llm_econ.run_spec
AS 'MODULE_PATHNAME', 'le_run_spec'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8,
                                      float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text,
                                      int4, int4, int4, int4, int4, boolean) IS
  'validating run_spec constructor: looks the SKU up by key or alias (any case) and freezes its figures into the value (docs/types.md)';

-- ---- stored plans ------------------------------------------------------------------------------------
-- run_plan holds specs built by the 0.3.0 constructor.  Give them the value the 0.4.0 constructor writes
-- for dropout (its default, false: what NULL means anyway); the attention fields stay NULL (plain
-- attention).  Nothing priced changes: GPU-hours and USD depend on neither.  As in the 0.3.0 step, the
-- freeze trigger is bypassed: it would re-check each plan's SKU and price.
DO $$
DECLARE
  role text := pg_catalog.current_setting('session_replication_role');
BEGIN
  PERFORM pg_catalog.set_config('session_replication_role', 'replica', true);
  UPDATE llm_econ.run_plan SET spec.dropout = COALESCE((spec).dropout, false);
  PERFORM pg_catalog.set_config('session_replication_role', role, true);
END
$$;

-- ---- training_flops: latent attention's own head sizes with attention_flops ----
COMMENT ON FUNCTION llm_econ.training_flops(llm_econ.run_spec, boolean) IS
  'model FLOPs of the run, 6·N_active·D (Kaplan et al. 2020); attention_flops adds attention (PaLM, App. B; docs/functions.md)';
