-- Time, cost and energy of a run (C functions over run_spec).

CREATE OR REPLACE FUNCTION llm_econ.training_flops(spec llm_econ.run_spec, attention_flops boolean DEFAULT false) RETURNS float8
AS 'MODULE_PATHNAME', 'le_training_flops_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.training_flops(llm_econ.run_spec, boolean) IS
  'model FLOPs of the run, 6·N_active·D (Kaplan et al. 2020); attention_flops adds attention (PaLM, App. B; docs/functions.md)';

CREATE OR REPLACE FUNCTION llm_econ.mfu_time(spec llm_econ.run_spec) RETURNS interval
AS 'MODULE_PATHNAME', 'le_mfu_time_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.mfu_time(llm_econ.run_spec) IS
  'wall-clock time 6·N_active·D / (mfu · n_gpus · peak_flops), as an interval in hours:minutes:seconds';

CREATE OR REPLACE FUNCTION llm_econ.gpu_hours(spec llm_econ.run_spec) RETURNS float8
AS 'MODULE_PATHNAME', 'le_gpu_hours_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.gpu_hours(llm_econ.run_spec) IS
  'GPU-hours: wall hours · n_gpus (independent of n_gpus under ideal scaling)';

CREATE OR REPLACE FUNCTION llm_econ.energy_kwh(spec llm_econ.run_spec, pue float8 DEFAULT 1.0) RETURNS float8
AS 'MODULE_PATHNAME', 'le_energy_kwh_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.energy_kwh(llm_econ.run_spec, float8) IS
  'energy in kWh: tdp_watts · n_gpus · hours · pue / 1000; pue in [1, 5]; NULL when the spec''s tdp_watts is NULL (the part''s power is not published)';

CREATE OR REPLACE FUNCTION llm_econ.achieved_mfu(spec llm_econ.run_spec, wall interval) RETURNS float8
AS 'MODULE_PATHNAME', 'le_achieved_mfu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.achieved_mfu(llm_econ.run_spec, interval) IS
  'the MFU a run of spec that took wall really had: 6ND / (n_gpus · peak_flops · seconds(wall)); months count as 30 days, as in extract(epoch)';

CREATE OR REPLACE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec, usd_per_gpu_hour numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'le_estimate_cost_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec, numeric) IS
  'compute cost in USD: gpu_hours · usd_per_gpu_hour (unrounded numeric)';

-- Cost per million training tokens: offers and runs of different sizes compare on one figure.
CREATE OR REPLACE FUNCTION llm_econ.usd_per_million_tokens(spec llm_econ.run_spec, usd_per_gpu_hour numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT llm_econ.estimate_cost(spec, usd_per_gpu_hour) OPERATOR(pg_catalog./) (spec).n_tokens::numeric
         OPERATOR(pg_catalog.*) 1000000;
END;
COMMENT ON FUNCTION llm_econ.usd_per_million_tokens(llm_econ.run_spec, numeric) IS
  'compute cost in USD per million training tokens: estimate_cost(spec, usd_per_gpu_hour) · 10⁶ / n_tokens (unrounded numeric)';
