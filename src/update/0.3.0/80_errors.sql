-- 80_errors.sql: messages in the server's error style (SQLSTATE by kind, names quoted, line numbers in a DETAIL sentence) and comments citing real sources: the SQL functions and comments that changed, as a fresh install has them.
COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component in this order, unrounded numeric USD, each with the numbers it used in words: '
  'compute = gpu_hours · usd_per_gpu_hour; '
  'checkpoint = compute · checkpoint_write / checkpoint_every (throughput lost writing; the defaults, 90 s every 30 min, give 5%); '
  'storage = (checkpoints_kept · checkpoint_gb + dataset_gb) · storage_usd_per_gb_month · storage_months, GB = 10^9 bytes, '
  'checkpoint_gb NULL = weights + optimizer state per parameter · n_params (14 bytes for bf16 AdamW: 7B = 98 GB), dataset_gb NULL = 4 bytes per token · n_tokens; '
  'egress = egress_gb · egress_usd_per_gb (cross-region; 0 when co-located); '
  'energy = energy_kwh(spec, pue) · usd_per_kwh when owned, else 0 (in the cloud price; for an owned cluster pass an hourly price without energy, e.g. tco_per_gpu_hour(sku, years, utilization, 0, pue)); '
  'owned with the spec''s tdp_watts NULL (power not published): energy and total usd are NULL, the assumption says why; '
  'spot_buffer = compute · spot_buffer (an allowance for spot reclaims and ablations; the default 10% is an assumption to replace with your own); total = the sum. '
  'Prices >= 0 and finite, spot_buffer in [0, 1], intervals > 0 with checkpoint_write < checkpoint_every, counts and GB >= 0, pue in [1, 5]. '
  'Not STRICT: only checkpoint_gb and dataset_gb may be NULL; another NULL is an error';
COMMENT ON TABLE llm_econ.mfu_reference IS 'published model FLOPs utilisation of real training runs (each row''s source names the paper or report it is from)';
