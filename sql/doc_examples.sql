-- doc_examples: the model-dependent worked examples of README.md, docs/step-model.md and docs/model.md, run as the docs show them.
-- test/check_docs.sh then fails if a result line the docs print (a psql table row, or a "-- a | b" comment
-- in an SQL block) appears in no expected/*.out: a doc showing what the code no longer answers (issue 46:
-- the cheapest plan "in 100 years" and the calibration example still showed figures from before 0.5.0's
-- changes to the step model).  Examples whose figures other tests already print (prices, finance) are
-- checked against those tests' outputs; this file holds the ones no other test runs as shown.
SET search_path = llm_econ, public;
-- as psql shows them with the server's defaults (pg_regress sets other styles)
SET IntervalStyle = postgres;
SET DateStyle = ISO;

-- README.md, the first example
SELECT mfu_time(s), estimate_cost(s, 1.10)
  FROM run_spec(n_params => 5e7, n_tokens => 4.3e10, n_gpus => 1, sku => 'A100-80GB', mfu => 0.40) AS s;

-- README.md and docs/model.md: plan_parallelism's best layout for a 20B model on 64 H100
SELECT tp, pp, dp, zero_stage, recompute, fits
  FROM plan_parallelism(run_spec(20e9, 4e11, 64, 'H100', n_layers => 44, d_model => 6144,
                                 n_heads => 64, seq_len => 2048, global_batch => 512))
 LIMIT 1;

-- README.md and docs/step-model.md: Korthikanti's 175B (row K2), the phases on the two lines the docs print
WITH b AS (SELECT phase, CASE WHEN seconds = 0 THEN '0' ELSE round(seconds::numeric, 3)::text END AS s, n
             FROM step_breakdown(run_spec(175e9, 3e11, 64, 'A100-80GB', n_layers => 96, d_model => 12288, n_heads => 96,
                                          seq_len => 2048, global_batch => 64, tp => 8, pp => 8, recompute => 'selective',
                                          attention => 'eager', vocab_size => 51200, inter_node_gbit_per_s => 200),
                                 dp_overlap => false) WITH ORDINALITY AS x(phase, seconds, n))
SELECT string_agg(phase || ' ' || s, ' | ' ORDER BY n) AS line FROM b WHERE n <= 7
UNION ALL
SELECT '| ' || string_agg(phase || ' ' || s, ' | ' ORDER BY n) FROM b WHERE n > 7;

-- README.md and docs/step-model.md: the cheapest way to train a 70B model on 15T tokens in 30 days
CREATE TEMP TABLE llama AS
SELECT run_spec(70e9, 15e12, 8, 'H100', n_layers => 80, d_model => 8192, n_heads => 64, n_kv_heads => 8,
                ffn_hidden => 28672, ffn_act => 'swiglu', vocab_size => 128256, seq_len => 8192,
                global_batch => 2048) AS m;
SELECT DISTINCT ON (sku) sku, provider, pricing, n_gpus, tp, pp, dp, round(predicted_mfu::numeric, 3) AS mfu,
       justify_hours(date_trunc('hour', wall_time)) AS wall_time, usd_per_gpu_hour, round(cost_usd) AS cost_usd
  FROM llama, cheapest_plan(m, interval '30 days', at => '2026-07-01')
 ORDER BY sku, cost_usd;
SELECT sku, provider, region, instance_type, pricing, n_gpus, tp, pp, dp, zero_stage,
       round(predicted_mfu::numeric, 3) AS mfu, justify_hours(date_trunc('hour', wall_time)) AS wall_time,
       usd_per_gpu_hour, round(cost_usd) AS cost_usd
  FROM llama, cheapest_plan(m, interval '30 days', at => '2026-07-01')
 LIMIT 5;
SELECT count(*) FROM llama, cheapest_plan(m, interval '10 days', at => '2026-07-01');
SELECT sku, provider, pricing, n_gpus, tp, pp, dp, round(predicted_mfu::numeric, 3) AS mfu,
       justify_hours(date_trunc('hour', wall_time)) AS wall_time, round(cost_usd) AS cost_usd
  FROM llama, cheapest_plan(m, interval '100 years', at => '2026-07-01')
 ORDER BY wall_time, cost_usd LIMIT 1;

-- README.md: calibration from the team's own runs (in a transaction: nothing stays behind)
BEGIN;
CREATE TEMP TABLE ours AS
SELECT run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096,
                global_batch => 512, tp => 2) AS s;
SELECT round(predicted_mfu(s)::numeric, 3) AS predicted_mfu, predicted_time(s) FROM ours;
INSERT INTO observed_run (run_id, spec, provider, tokens_per_second, step_seconds, source)
SELECT r.run_id, ours.s, 'lambda', r.tps, r.step, 'training log'
  FROM ours, (VALUES ('run-1', 6.0e5, NULL::float8), ('run-2', 5.7e5, NULL), ('run-3', NULL, 3.3)) AS r(run_id, tps, step);
SELECT sku, provider, stack, dtype, runs, round(median_observed_mfu::numeric, 3) AS observed,
       round(median_predicted_mfu::numeric, 3) AS predicted, round(median_mfu_ratio::numeric, 3) AS factor
  FROM mfu_calibration ORDER BY provider NULLS FIRST, stack NULLS FIRST;
SELECT round(predicted_mfu(s, calibrated => true)::numeric, 3) AS calibrated_mfu,
       predicted_time(s, calibrated => true) FROM ours;
ROLLBACK;
