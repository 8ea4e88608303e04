-- update_before_use.sql: the library serves the SQL of its own version; a C entry point reached through an older declaration (a database not yet updated) refuses with 55000 before it reads an argument or column that is not there.
SET search_path = llm_econ, public;
\set VERBOSITY default
CREATE SCHEMA old_decl;
-- 0.1.0's constructor: 19 arguments (its 19th, inter_node_gbps, was GB/s)
CREATE FUNCTION old_decl.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4,
                                  int4, int4, text, text, int4, float8) RETURNS llm_econ.run_spec
AS 'llm_econ', 'le_run_spec' LANGUAGE C STABLE;
SELECT old_decl.run_spec(7e9, 1e12, 64, 'H100', 0.4, 'bf16', NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, 50);
-- 0.2.0's training_flops(spec), 0.3.0's predicted_mfu(spec, dp_overlap), 0.1.0's price_at without max_age
CREATE FUNCTION old_decl.training_flops(llm_econ.run_spec) RETURNS float8
AS 'llm_econ', 'le_training_flops_fn' LANGUAGE C IMMUTABLE STRICT;
SELECT old_decl.training_flops(run_spec(7e9, 1e12, 64, 'H100'));
CREATE FUNCTION old_decl.predicted_mfu(llm_econ.run_spec, boolean) RETURNS float8
AS 'llm_econ', 'le_predicted_mfu_fn' LANGUAGE C STABLE STRICT;
SELECT old_decl.predicted_mfu(run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096, global_batch => 256), true);
CREATE FUNCTION old_decl.price_at(text, text, text, timestamptz, text) RETURNS numeric
AS 'llm_econ', 'le_price_at_fn' LANGUAGE C STABLE;
SELECT old_decl.price_at('H100-SXM5', 'gcp', 'on_demand', '2025-01-01', NULL);
-- 0.3.0's cheapest_plan: no calibrated argument
CREATE FUNCTION old_decl.cheapest_plan(llm_econ.run_spec, interval, timestamptz, text, int4, interval)
RETURNS SETOF record AS 'llm_econ', 'le_cheapest_plan_fn' LANGUAGE C STABLE;
SELECT * FROM old_decl.cheapest_plan(run_spec(7e9, 1e12, 64, 'H100'), '30 days', '2025-01-01', NULL, 64, NULL)
  AS t(sku text, provider text, region text, instance_type text, pricing text, n_gpus int4, tp int4, pp int4, cp int4,
       ep int4, dp int4, zero_stage int4, recompute text, predicted_mfu float8, wall_time interval,
       usd_per_gpu_hour numeric, cost_usd numeric, spec llm_econ.run_spec);
-- 0.4.0's _skypilot_offers: 11 result columns (0.5.0 adds gpu_mib)
CREATE FUNCTION old_decl.offers(cloud text, catalog_csv text,
    OUT accelerator text, OUT variant text, OUT instance_type text, OUT region text, OUT pricing text,
    OUT usd_per_gpu_hour numeric, OUT gpus_per_instance int4, OUT catalog_rows int4, OUT usd_per_hour numeric,
    OUT vcpus text, OUT memory_gib text) RETURNS SETOF record
AS 'llm_econ', 'le_skypilot_offers' LANGUAGE C STABLE STRICT;
SELECT * FROM old_decl.offers('lambda', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_h100_pcie,H100,1,2.49,us-east-1\n');
-- the current declarations answer
SELECT training_flops(run_spec(7e9, 1e12, 64, 'H100')) > 0 AS current_answers;
DROP SCHEMA old_decl CASCADE;
