-- Memory per GPU, communication per step and the parallel-layout search (C functions over run_spec).

CREATE OR REPLACE FUNCTION llm_econ.memory_per_gpu(spec llm_econ.run_spec,
    OUT weights_bytes float8, OUT grads_bytes float8, OUT optimizer_bytes float8,
    OUT activation_bytes float8, OUT overhead_bytes float8, OUT total_bytes float8,
    OUT hbm_bytes float8)
AS 'MODULE_PATHNAME', 'le_memory_per_gpu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.memory_per_gpu(llm_econ.run_spec) IS
  'training memory per GPU in bytes on the heaviest pipeline stage, by part, with the GPU''s HBM (docs/model.md)';

CREATE OR REPLACE FUNCTION llm_econ.fits_hbm(spec llm_econ.run_spec) RETURNS boolean
AS 'MODULE_PATHNAME', 'le_fits_hbm_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.fits_hbm(llm_econ.run_spec) IS
  'false if model states and overhead alone exceed HBM; NULL if they fit but activations are unknown; else whether the total fits';

CREATE OR REPLACE FUNCTION llm_econ.comm_bytes(spec llm_econ.run_spec) RETURNS float8
AS 'MODULE_PATHNAME', 'le_comm_bytes_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.comm_bytes(llm_econ.run_spec) IS
  'bytes each GPU sends per optimizer step over all collectives (nccl-tests conventions); NULL when a collective depends on an unknown shape or batch';

CREATE OR REPLACE FUNCTION llm_econ.comm_breakdown(spec llm_econ.run_spec,
    OUT parallelism text, OUT collective text, OUT link text, OUT bytes float8, OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_comm_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION llm_econ.comm_breakdown(llm_econ.run_spec) IS
  'one row per collective of an optimizer step: parallelism, collective, link, bytes sent per GPU and seconds';

CREATE OR REPLACE FUNCTION llm_econ.plan_parallelism(spec llm_econ.run_spec,
    OUT tp int4, OUT pp int4, OUT dp int4, OUT zero_stage int4, OUT recompute text,
    OUT total_bytes float8, OUT fits boolean, OUT comm_seconds_per_step float8,
    OUT step_seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_plan_parallelism_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION llm_econ.plan_parallelism(llm_econ.run_spec) IS
  'every valid (tp, pp, dp, zero_stage, recompute) for the spec''s GPUs, with memory per GPU, fit, communication and step time; best first';
