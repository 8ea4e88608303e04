-- 85_install.sql: comments of 0.3.0 objects shortened to a line or two in 0.4.0 (issue 33: the install script under 200 KB), as a fresh install sets them; the detail is in docs/.

COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component (compute, checkpoint, storage, egress, energy, spot_buffer, total), unrounded USD, each with the numbers it used (docs/functions.md)';

COMMENT ON FUNCTION llm_econ.checkpoint_plan(llm_econ.run_spec, interval, interval) IS
  'checkpoint interval sqrt(2 · write · cluster MTBF) under independent node failures (Young 1974; Daly 2006), its overhead and the run''s interruptions (docs/functions.md)';

COMMENT ON VIEW llm_econ.plan_vs_actual IS
  'per tenant and run: planned (frozen) vs billed and effective USD, price and usage variance, GPU-hours; unplanned and untagged spend too (docs/finance.md)';

COMMENT ON COLUMN llm_econ.run_spec.gpu_generation IS
  'GPU generation choosing the step-time model''s efficiency curves (from gpu_sku.generation); NULL = unknown, refused by the step-time model';

COMMENT ON VIEW llm_econ.price_series_spans IS
  'one row per price in effect: a series'' observation, from valid_from until the series'' next observation (valid_to NULL = still in effect)';

COMMENT ON COLUMN llm_econ.spend.row_hash IS
  'the charge identity: md5 of the FOCUS fields as values, not of the raw line; with occurrence, what makes re-imports idempotent';

COMMENT ON COLUMN llm_econ.price_snapshot.suspect IS
  'NULL = passed the import checks; else why the price looks wrong; cheapest_offers leaves suspect rows out unless asked';

COMMENT ON FUNCTION llm_econ.step_breakdown(llm_econ.run_spec, boolean) IS
  'one optimizer step of the spec''s layout in seconds by phase, total last; needs the model shape and global_batch (docs/step-model.md)';

COMMENT ON VIEW llm_econ.cheapest_provider_monthly IS
  'per UTC month, SKU and pricing: each provider''s time-weighted $/GPU-hour (of its cheapest series each day) and its rank, 1 = cheapest';

COMMENT ON TABLE llm_econ.price_import IS
  'when catalogs of a provider (and source) were imported; the next one after a backfilled catalog decides which of its series were withdrawn';

COMMENT ON FUNCTION llm_econ.memory_per_gpu(llm_econ.run_spec) IS
  'training memory per GPU in bytes on the heaviest pipeline stage, by part, with the GPU''s HBM (docs/model.md)';

COMMENT ON TABLE llm_econ.spend IS
  'billed lines (FOCUS cost-and-usage rows), every line kept: typed columns, the other columns in record; GPU lines carry sku and gpu_hours';

COMMENT ON TABLE llm_econ.price_daily_summary IS
  'derived: per UTC day and (sku, provider, pricing), the prices of the series in effect at the end of the day; maintained by trigger';

COMMENT ON TABLE llm_econ.focus_staging IS
  'staging for load_focus(): one line of a FOCUS file per row, verbatim; each writer sees and loads only its own; roles \copy into focus_stage';

COMMENT ON FUNCTION llm_econ.plan_parallelism(llm_econ.run_spec) IS
  'every valid (tp, pp, dp, zero_stage, recompute) for the spec''s GPUs, with memory per GPU, fit, communication and step time; best first';

COMMENT ON FUNCTION llm_econ.carbon_kg(llm_econ.run_spec, float8, float8) IS
  'operational emissions, kg CO2e: energy_kwh(spec, pue) · kg_co2_per_kwh (in [0, 2]); NULL when the spec''s tdp_watts is NULL';

COMMENT ON VIEW llm_econ.spend_daily IS
  'billed and effective USD, GPU-hours, lines and runs per UTC day, tenant, provider and service category';

COMMENT ON TABLE llm_econ.run_plan IS
  'planned runs, keyed by (tenant, run_id): the spec and the price in effect at planned_at, GPU-hours and USD frozen when planned';

COMMENT ON COLUMN llm_econ.spend.record IS
  'the line''s other columns that have a value: header name -> text as written';

COMMENT ON FUNCTION llm_econ.comm_breakdown(llm_econ.run_spec) IS
  'one row per collective of an optimizer step: parallelism, collective, link, bytes sent per GPU and seconds';

COMMENT ON TABLE llm_econ.fx_rate IS
  'exchange rates into USD, each in effect from valid_from until the currency''s next row; USD needs none';

COMMENT ON VIEW llm_econ.price_daily_by_provider IS
  'per ended UTC day, SKU, provider and pricing: cheapest and median $/GPU-hour, and how many series';

COMMENT ON VIEW llm_econ.focus_stage IS
  'where roles \copy a FOCUS file for load_focus() (docs/finance.md); lines go into focus_staging; reading it gives none';

COMMENT ON FUNCTION llm_econ._sku_map(text[]) IS
  'internal: for each name that means a SKU, its gpu_sku key and the GPUs per machine gpu_sku_alias knows (NULL: unknown)';

COMMENT ON FUNCTION llm_econ._focus_stage_line() IS
  'internal: INSTEAD OF INSERT trigger of focus_stage: the line into focus_staging as the inserting role';

COMMENT ON FUNCTION llm_econ._series_id(text, text, text, text, text) IS
  'internal: the id of a price series (sku, provider, pricing, region, instance_type), a stable 64-bit hash';

COMMENT ON FUNCTION llm_econ._csv_records(text, text) IS
  'internal: the data lines of a CSV text as (line, jsonb by header name); 22023 naming the line of malformed CSV';

COMMENT ON FUNCTION llm_econ._focus_charge_key(jsonb) IS
  'internal: the charge identity (row_hash) of a whole original line given as jsonb, as an import computes it';

COMMENT ON COLUMN llm_econ.gpu_sku.generation IS
  'architecture family choosing the step-time model''s efficiency curves: ampere, hopper, blackwell, cdna2, cdna3, other (conservative figures)';
