-- The run_spec type and its validating constructor.

CREATE TYPE llm_econ.run_spec AS (
    n_params                float8,
    n_tokens                float8,
    sku                     text,
    n_gpus                  int4,
    gpus_per_node           int4,
    mfu                     float8,
    dtype                   text,
    peak_flops              float8,
    hbm_bytes               float8,
    intra_node_bytes_per_s  float8,
    inter_node_bytes_per_s  float8,
    tdp_watts               float8,
    n_layers                int4,
    d_model                 int4,
    n_heads                 int4,
    seq_len                 int4,
    micro_batch             int4,
    global_batch            int4,
    tp                      int4,
    pp                      int4,
    zero_stage              int4,
    recompute               text,
    optimizer               text
);

COMMENT ON TYPE llm_econ.run_spec IS
  'one training run: workload, cluster, efficiency, the hardware figures frozen from gpu_sku when built, model shape and parallel strategy';
COMMENT ON COLUMN llm_econ.run_spec.n_params IS 'N, non-embedding parameters';
COMMENT ON COLUMN llm_econ.run_spec.n_tokens IS 'D, training tokens';
COMMENT ON COLUMN llm_econ.run_spec.sku IS 'gpu_sku key the hardware figures were frozen from';
COMMENT ON COLUMN llm_econ.run_spec.n_gpus IS 'G, GPUs in the run';
COMMENT ON COLUMN llm_econ.run_spec.gpus_per_node IS 'GPUs sharing one NVLink domain (node)';
COMMENT ON COLUMN llm_econ.run_spec.mfu IS 'model FLOPs utilisation, (0, 1]';
COMMENT ON COLUMN llm_econ.run_spec.dtype IS 'compute precision: fp32, tf32, bf16, fp16, fp8';
COMMENT ON COLUMN llm_econ.run_spec.peak_flops IS 'dense peak FLOP/s per GPU at dtype (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.hbm_bytes IS 'HBM per GPU, bytes (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.intra_node_bytes_per_s IS 'NVLink (or PCIe when none) per GPU, one direction, bytes/s (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.inter_node_bytes_per_s IS 'network per GPU, one direction, bytes/s';
COMMENT ON COLUMN llm_econ.run_spec.tdp_watts IS 'board power per GPU, W (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.n_layers IS 'transformer layers; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.d_model IS 'hidden size; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.n_heads IS 'attention heads; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.seq_len IS 'sequence length, tokens; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.micro_batch IS 'sequences per micro-batch';
COMMENT ON COLUMN llm_econ.run_spec.global_batch IS 'sequences per optimizer step; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.tp IS 'tensor-parallel degree';
COMMENT ON COLUMN llm_econ.run_spec.pp IS 'pipeline-parallel degree';
COMMENT ON COLUMN llm_econ.run_spec.zero_stage IS 'ZeRO/FSDP stage over dp, 0-3';
COMMENT ON COLUMN llm_econ.run_spec.recompute IS 'activation recomputation: none, selective, full';
COMMENT ON COLUMN llm_econ.run_spec.optimizer IS 'adamw, adamw_8bit, sgd';

CREATE FUNCTION llm_econ.run_spec(
    n_params float8, n_tokens float8, n_gpus int4, sku text,
    mfu float8 DEFAULT 0.40, dtype text DEFAULT 'bf16',
    n_layers int4 DEFAULT NULL, d_model int4 DEFAULT NULL,
    n_heads int4 DEFAULT NULL, seq_len int4 DEFAULT NULL,
    micro_batch int4 DEFAULT 1, global_batch int4 DEFAULT NULL,
    tp int4 DEFAULT 1, pp int4 DEFAULT 1, zero_stage int4 DEFAULT 0,
    recompute text DEFAULT 'none', optimizer text DEFAULT 'adamw',
    gpus_per_node int4 DEFAULT NULL,
    inter_node_gbps float8 DEFAULT 50)
RETURNS llm_econ.run_spec
AS 'MODULE_PATHNAME', 'le_run_spec'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8) IS
  'validating run_spec constructor: looks the SKU up by key or alias (case-insensitive) and freezes its peak at dtype, HBM, links and TDP into the value; inter_node_gbps is GB/s per GPU per direction';
