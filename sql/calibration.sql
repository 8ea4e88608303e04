-- calibration: observed_run, mfu_calibration and predicted_mfu / predicted_time / cheapest_plan with calibrated => true (API 0.4.0, "Calibration from the runs a team has done").
SET search_path = llm_econ, public;
SET extra_float_digits = 0;

-- A 7B model on 64 H100 (tp 2, dp 32), as a team runs it.
CREATE TEMP TABLE t AS
SELECT run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096,
                global_batch => 512, tp => 2) AS s;
-- Nothing recorded yet: the factor is 1, with a NOTICE saying so.
SELECT round(predicted_mfu(s)::numeric, 4) AS predicted,
       round(predicted_mfu(s, calibrated => true)::numeric, 4) AS calibrated,
       predicted_time(s, calibrated => true) = predicted_time(s) AS same_time
  FROM t;

-- Role-level tenants, as run_plan and spend have them.
CREATE ROLE regress_cal_team;
CREATE ROLE regress_cal_other;
CREATE ROLE regress_cal_alice IN ROLE regress_cal_team;
CREATE ROLE regress_cal_bob IN ROLE regress_cal_other;
GRANT SELECT, INSERT, UPDATE, DELETE ON observed_run TO regress_cal_team, regress_cal_other;
GRANT SELECT ON t TO PUBLIC;

-- The team records three runs from its training logs: two at the cloud's tokens per second, one
-- as seconds per step.  Measured MFU = 6 · 7e9 · tokens/s / (64 · 989e12):
-- 6.0e5 -> 0.3981, 5.7e5 -> 0.3782, 512 · 4096 / 3.3 s = 635,500 tokens/s -> 0.4217.
SET ROLE regress_cal_alice;
INSERT INTO observed_run (tenant, run_id, spec, provider, tokens_per_second, step_seconds, observed_at, source)
SELECT 'regress_cal_team', v.run_id, t.s, v.provider, v.tps, v.step, v.at::timestamptz, 'training log'
  FROM t, (VALUES ('run-1', 'testcloud', 6.0e5, NULL::float8, '2027-05-01'),
                  ('run-2', 'testcloud', 5.7e5, NULL, '2027-05-08'),
                  ('run-3', NULL, NULL, 3.3, '2027-05-15')) AS v(run_id, provider, tps, step, at);
SELECT run_id, provider, round(_observed_mfu(spec, tokens_per_second, step_seconds)::numeric, 4) AS observed_mfu
  FROM observed_run ORDER BY run_id;
-- Per SKU (provider NULL: all three runs), per SKU and provider (the two testcloud runs), and per SKU,
-- stack and dtype (0.5.0: the three runs are megatron bf16).
SELECT sku, provider, stack, dtype, runs, round(median_observed_mfu::numeric, 4) AS observed,
       round(median_predicted_mfu::numeric, 4) AS predicted, round(median_mfu_ratio::numeric, 4) AS factor, "time"
  FROM mfu_calibration ORDER BY sku, provider NULLS FIRST, stack NULLS FIRST;
-- The predictions move: MFU times the SKU's factor, time divided by it.
SELECT round(predicted_mfu(s, calibrated => true)::numeric, 4) AS calibrated_mfu,
       abs(predicted_mfu(s, calibrated => true) / predicted_mfu(s)
           - (SELECT median_mfu_ratio FROM mfu_calibration WHERE provider IS NULL AND stack IS NULL)) < 1e-12 AS mfu_times_factor,
       abs(extract(epoch FROM predicted_time(s)) / extract(epoch FROM predicted_time(s, true, true))
           - (SELECT median_mfu_ratio FROM mfu_calibration WHERE provider IS NULL AND stack IS NULL)) < 1e-6 AS time_over_factor,
       predicted_time(s) AS predicted_time, predicted_time(s, calibrated => true) AS calibrated_time
  FROM t;
-- 0.5.0 (issue 46): calibration follows the stack and dtype.  The team also records one FP8 run on
-- torch_compile (5.0e5 tokens/s: measured MFU 6 · 7e9 · 5e5 / (64 · 1979e12) = 0.1658).  An FP8
-- torch_compile prediction takes that run's factor, not the BF16 megatron runs'; the BF16 megatron
-- prediction keeps the factor of its own three runs (before: the median of all four runs for both).
BEGIN;
INSERT INTO observed_run (tenant, run_id, spec, provider, tokens_per_second, observed_at, source)
SELECT 'regress_cal_team', 'run-fp8', run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                                                seq_len => 4096, global_batch => 512, tp => 2, dtype => 'fp8',
                                                stack => 'torch_compile'), NULL, 5.0e5, '2027-05-20', 'training log';
SELECT stack, dtype, runs, round(median_observed_mfu::numeric, 4) AS observed, round(median_mfu_ratio::numeric, 4) AS factor
  FROM mfu_calibration WHERE provider IS NULL ORDER BY stack NULLS FIRST, dtype;
SELECT x.stack, x.dtype, round((predicted_mfu(x.s, calibrated => true) / predicted_mfu(x.s))::numeric, 4) AS factor_used,
       abs(predicted_mfu(x.s, calibrated => true) / predicted_mfu(x.s)
           - (SELECT median_mfu_ratio FROM mfu_calibration c
               WHERE c.provider IS NULL AND c.stack = x.stack AND c.dtype = x.dtype)) < 1e-12 AS its_own_stack_and_dtype
  FROM (SELECT st AS stack, dt AS dtype,
               run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096,
                        global_batch => 512, tp => 2, dtype => dt, stack => st) AS s
          FROM (VALUES ('megatron', 'bf16'), ('torch_compile', 'fp8')) AS v(st, dt)) AS x
 ORDER BY 1;
ROLLBACK;
RESET ROLE;

-- Another tenant sees none of it, and its predictions stay uncalibrated (with the NOTICE).
SET ROLE regress_cal_bob;
SELECT count(*) AS runs_seen FROM observed_run;
SELECT count(*) AS calibration_rows FROM mfu_calibration;
SELECT predicted_mfu(s, calibrated => true) = predicted_mfu(s) AS uncalibrated FROM t;
-- and cannot record runs for the team
INSERT INTO observed_run (tenant, run_id, spec, tokens_per_second, source)
SELECT 'regress_cal_team', 'forged', s, 6e5, 'x' FROM t;
RESET ROLE;
-- A role with no access to observed_run at all: no factor (a NOTICE), not an error.
CREATE ROLE regress_cal_nobody;
SET ROLE regress_cal_nobody;
SELECT predicted_mfu(s, calibrated => true) = predicted_mfu(s) AS uncalibrated FROM t;
RESET ROLE;
DROP ROLE regress_cal_nobody;

-- Bad observations: a 22023 naming what is wrong (or the CHECK that says it).
\set VERBOSITY terse
INSERT INTO observed_run (run_id, spec, tokens_per_second, source) SELECT 'too-fast', s, 3e6, 'x' FROM t;
INSERT INTO observed_run (run_id, spec, tokens_per_second, step_seconds, source) SELECT 'both', s, 6e5, 3.3, 'x' FROM t;
INSERT INTO observed_run (run_id, spec, tokens_per_second, source) SELECT 'nan', s, 'NaN', 'x' FROM t;
INSERT INTO observed_run (run_id, spec, tokens_per_second, source)
VALUES ('no-shape', run_spec(7e9, 1e12, 8, 'H100'), 1e5, 'x');
\set VERBOSITY default

-- cheapest_plan(..., calibrated => true): the testcloud offer takes the testcloud factor (two runs),
-- the othercloud offer the SKU's (three runs), an A100 offer none (factor 1, NOTICE).
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source) VALUES
  ('2027-06-01', 'testcloud', 'H100-SXM5', 'r1', 'on_demand', 2.50, 'h100x8', 8, 'test'),
  ('2027-06-01', 'othercloud', 'H100-SXM5', 'r1', 'on_demand', 2.60, 'h100x8', 8, 'test'),
  ('2027-06-01', 'testcloud', 'A100-80GB', 'r1', 'on_demand', 1.20, 'a100x8', 8, 'test');
-- the machines' network, so that plans may span them (an unknown network: one instance only)
INSERT INTO instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source) VALUES
  ('testcloud', 'h100x8', 'H100-SXM5', 8, 3200, 8, 'test'), ('othercloud', 'h100x8', 'H100-SXM5', 8, 3200, 8, 'test'),
  ('testcloud', 'a100x8', 'A100-80GB', 8, 3200, 8, 'test');
GRANT SELECT ON price_snapshot TO regress_cal_alice;
SET ROLE regress_cal_alice;
CREATE TEMP TABLE raw AS
SELECT * FROM t, cheapest_plan(t.s, interval '100 years', '2027-06-02', max_gpus => 64, max_age => interval '1 day');
CREATE TEMP TABLE cal AS
SELECT * FROM t, cheapest_plan(t.s, interval '100 years', '2027-06-02', max_gpus => 64, max_age => interval '1 day',
                               calibrated => true);
SELECT c.sku, c.provider, count(*) AS plans,
       round(max(c.predicted_mfu / r.predicted_mfu)::numeric, 4) AS mfu_factor,
       max(c.predicted_mfu / r.predicted_mfu) - min(c.predicted_mfu / r.predicted_mfu) < 1e-12 AS one_factor,
       bool_and(abs(extract(epoch FROM r.wall_time) / extract(epoch FROM c.wall_time) * r.predicted_mfu / c.predicted_mfu - 1) < 1e-6) AS time_over_factor,
       bool_and(mfu_time(c.spec) = c.wall_time AND estimate_cost(c.spec, c.usd_per_gpu_hour) = c.cost_usd) AS spec_reproduces
  FROM cal c JOIN raw r USING (sku, provider, n_gpus)
 GROUP BY c.sku, c.provider ORDER BY c.sku, c.provider;
RESET ROLE;
ROLLBACK;

DELETE FROM observed_run;
REVOKE ALL ON observed_run FROM regress_cal_team, regress_cal_other;
REVOKE ALL ON t FROM PUBLIC;
DROP ROLE regress_cal_alice, regress_cal_bob, regress_cal_team, regress_cal_other;
