-- The rest of the bill: carbon_kg, checkpoint_plan, cost_breakdown and tco_per_gpu_hour against the seed and published figures.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- ---------------------------------------------------------------- carbon_kg

-- Llama 2 model card (Touvron et al. 2023, Table 2, "Carbon Footprint"): 7B, 2T tokens,
-- 184,320 A100-80GB hours at 400 W "peak power capacity per GPU adjusted for power usage
-- efficiency" (so pue 1 here), 31.22 tCO2e.  Intensity 31.22e3 / (184,320 x 0.4) = 0.423448 kg/kWh
-- (DOMAIN.md rounds it to 0.4235).
-- MFU chosen so that gpu_hours is 184,320: 6ND / (312e12 x 184,320 h x 3600) = 0.406.
WITH llama2 AS (SELECT run_spec(7e9, 2e12, 1, 'A100-80GB',
                                mfu => 6 * 7e9 * 2e12 / (312e12 * 184320 * 3600)) AS s)
SELECT round((s).mfu::numeric, 4) AS mfu,                                     -- 0.4057
       round(gpu_hours(s)::numeric, 6) AS gpu_hours,                          -- 184320
       round(energy_kwh(s)::numeric, 6) AS kwh,                               -- 184,320 x 0.4 = 73,728
       round((31.22e3 / 73728)::numeric, 6) AS kg_per_kwh,                    -- 0.423448
       round(carbon_kg(s, 31.22e3 / 73728)::numeric, 6) AS carbon_kg,         -- 31,220 (31.22 t)
       round(carbon_kg(s, 31.22e3 / 73728, 1.1)::numeric, 1) AS carbon_kg_pue -- x 1.1 = 34,342
  FROM llama2;

-- The seed's A100 for 24 h = 9.6 kWh (DOMAIN.md §5): at 0.4235 kg/kWh 4.07 kg, at 0 (a fully
-- renewable supply) 0; the bounds of the intensity, 0 and 2, are accepted.
SELECT round(carbon_kg(s, 0.4235)::numeric, 4) AS kg,                         -- 9.6 x 0.4235 = 4.0656
       carbon_kg(s, 0) AS kg_at_zero,                                          -- 0
       round(carbon_kg(s, 2)::numeric, 6) AS kg_at_two                         -- 19.2
  FROM run_spec(1e6, 24 * 3600 * 0.4 * 312e12 / 6e6, 1, 'A100-80GB', mfu => 0.4) AS s;

-- ---------------------------------------------------------------- checkpoint_plan

-- Seed: "checkpoint every 30 min (cost: ~5% of throughput)".  A 90 s write every 30 min is
-- 90 / 1800 = 5%.  Young's optimum is 30 min when the cluster MTBF is tau^2 / (2 delta) =
-- 1800^2 / 180 = 18,000 s = 5 h: one 8-GPU node with a 5 h MTBF.  Overhead at the optimum
-- = sqrt(2 delta / M) = sqrt(180 / 18000) = 0.10: 5% writing + 5% expected rework.
SELECT p."interval",                                                          -- 00:30:00
       round(p.overhead_fraction::numeric, 6) AS overhead_fraction,           -- 0.1
       round((90 / extract(epoch FROM p."interval"))::numeric, 4) AS writing, -- 0.05
       p.cluster_mtbf, p.nodes                                                -- 05:00:00, 1
  FROM checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5', mfu => 0.45),
                       interval '90 seconds', interval '5 hours') AS p;

-- Chinchilla 7B on 1024 H100 (128 nodes of 8, 35.8 h) with a node MTBF of 30 days:
-- M = 2,592,000 s / 128 = 20,250 s = 05:37:30; tau = sqrt(2 x 90 x 20250) = 1909.19 s = 00:31:49.19;
-- overhead sqrt(180 / 20250) = 0.0943; T / M = 129,023.4 / 20,250 = 6.37 interruptions expected;
-- P(at least one) = 1 - exp(-6.37) = 0.9983: the seed's "approaches 1 for multi-day multi-node runs".
SELECT p."interval", round(p.overhead_fraction::numeric, 4) AS overhead_fraction,   -- 00:31:49.188309, 0.0943
       round(p.p_interrupted::numeric, 4) AS p_interrupted,                          -- 0.9983
       round(p.expected_interruptions::numeric, 2) AS expected_interruptions,        -- 6.37
       p.cluster_mtbf, p.nodes                                                       -- 05:37:30, 128
  FROM checkpoint_plan(run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45),
                       interval '90 seconds', interval '30 days') AS p;

-- The seed's lab 00 on one GPU (28.7 h) with the same node MTBF: 1 - exp(-28.71 / 720) = 0.0391.
SELECT round(p.p_interrupted::numeric, 4) AS p_interrupted,                   -- 0.0391
       round(p.expected_interruptions::numeric, 4) AS expected_interruptions, -- 28.7126 / 720 = 0.0399
       p."interval", p.cluster_mtbf, p.nodes                                  -- sqrt(2 x 90 x 2,592,000) = 21600 s = 06:00:00; 720:00:00; 1
  FROM checkpoint_plan(run_spec(5e7, 4.3e10, 1, 'A100-80GB', mfu => 0.40),
                       interval '90 seconds', interval '30 days') AS p;

-- Intervals count months and days as extract(epoch) does: '1 mon' = 30 days, '1 year' = 365.25
-- days, so '1 mon' and '720 hours' give the same plan; nodes round up (9 GPUs on 8-GPU nodes = 2).
SELECT label, p."interval", p.cluster_mtbf, p.nodes
  FROM (VALUES ('1 mon',     run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), interval '1 mon'),      -- 06:00:00, 720:00:00, 1
               ('720 hours', run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), interval '720 hours'),  -- the same
               ('1 year',    run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), interval '1 year'),     -- sqrt(180 x 31,557,600) = 75368.2 s = 20:56:08.2; 8766:00:00
               ('9 GPUs',    run_spec(7e9, 1.4e12, 9, 'H100-SXM5'), interval '1 mon')       -- M = 360 h; tau = sqrt(180 x 1,296,000) = 15273.5 s = 04:14:33.5; 2 nodes
       ) AS t(label, s, mtbf),
       LATERAL checkpoint_plan(s, interval '90 seconds', mtbf) AS p
 ORDER BY label;

-- A write as long as the MTBF breaks the first-order model (it assumes delta << M); at
-- delta >= 2M it follows Daly 2006 and checkpoints once per MTBF: tau = M, overhead
-- delta/M + 1/2.  1 node, M = 100 s: delta 199 s -> tau = sqrt(2 x 199 x 100) = 199.5 s,
-- overhead 199/199.5 + 199.5/200 = 1.9950; delta 200 s -> tau = 100 s, overhead 2.5.
SELECT w AS checkpoint_write, p."interval", round(p.overhead_fraction::numeric, 4) AS overhead_fraction
  FROM unnest(ARRAY[interval '199 seconds', interval '200 seconds', interval '1 hour']) AS w,
       LATERAL checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), w, interval '100 seconds') AS p
 ORDER BY w;                                           -- 1 hour: tau = 100 s, overhead 36 + 0.5 = 36.5

-- ---------------------------------------------------------------- cost_breakdown

-- The seed's lab 00: 50M params, 43B tokens, 1x A100 80GB at MFU 0.40, $1.10/h, all defaults.
-- compute 28.7126 GPU-h x 1.10 = 31.58 (seed: $31.6); checkpoint 5% = 1.58;
-- storage (10 x 0.7 GB + 172 GB) x 0.02 x 1 month = 3.58 (seed: "storage ~$3" for its 205 GB;
-- $0.02/GB-month makes that 205 x 0.02 = $4.1 a month, so the seed's figure is about a month's);
-- egress 0; energy 0 (cloud); spot buffer 10% = 3.16; total 39.90.
SELECT b.component, round(b.usd, 2) AS usd, b.assumption
  FROM cost_breakdown(run_spec(5e7, 4.3e10, 1, 'A100-80GB', mfu => 0.40), 1.10) WITH ORDINALITY AS b
 ORDER BY b.ordinality;

-- Chinchilla 7B on 1024 H100 at $2.49 (seed worked example 2): compute 36,700 GPU-h x 2.49 = 91,383
-- (README); checkpoint 5% = 4,569; storage 10 x 98 GB (14 B/param x 7e9) + 5,600 GB (4 B/token x 1.4e12)
-- = 6,580 GB x $0.02 = 131.60; spot buffer 10% = 9,138; total 105,222 (seed: "add a 10% buffer for
-- spot reclaims and ablations = ~$100k", which leaves out the checkpoint time and storage).
SELECT b.component, round(b.usd) AS usd, b.assumption
  FROM cost_breakdown(run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45), 2.49) WITH ORDINALITY AS b
 ORDER BY b.ordinality;

-- Exact money: compute equals estimate_cost; checkpoint is exactly 5% of it (90 / 1800 in numeric),
-- spot_buffer exactly 10%, storage exactly 131.6, and the total is the sum of the rows.
WITH s AS (SELECT run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45) AS s),
     b AS (SELECT c.* FROM s, cost_breakdown(s.s, 2.49) AS c)
SELECT (SELECT usd FROM b WHERE component = 'compute') = estimate_cost(s.s, 2.49) AS compute_is_estimate_cost,
       (SELECT usd FROM b WHERE component = 'checkpoint') = (SELECT usd FROM b WHERE component = 'compute') * 0.05 AS checkpoint_is_5pct,
       (SELECT usd FROM b WHERE component = 'spot_buffer') = (SELECT usd FROM b WHERE component = 'compute') * 0.10 AS spot_is_10pct,
       (SELECT usd FROM b WHERE component = 'storage') = 131.6 AS storage_exact,
       (SELECT usd FROM b WHERE component = 'total') = (SELECT sum(usd) FROM b WHERE component <> 'total') AS total_is_sum
  FROM s;

-- Given sizes and every assumption set: the seed's "10 checkpoints x 100 GB = 1 TB ... $20" and
-- "10 TB-month = $200" (checkpoint_gb 100, dataset_gb 9000: 10 TB x 0.02 = 200), egress of the
-- 9 TB once cross-region at $0.08 = 720, checkpoint every hour with a 2-minute write (3.33%),
-- no spot buffer (reserved capacity).
SELECT b.component, round(b.usd, 2) AS usd, b.assumption
  FROM cost_breakdown(run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45), 1.00,
                      checkpoint_every => '1 hour', checkpoint_write => '2 minutes',
                      checkpoint_gb => 100, dataset_gb => 9000, storage_months => 1,
                      egress_gb => 9000, egress_usd_per_gb => 0.08, spot_buffer => 0) WITH ORDINALITY AS b
 ORDER BY b.ordinality;
-- compute 36,700 x 1.00 = 36,700.00; checkpoint 120 / 3600 = 1/30 of it = 1,223.33;
-- storage 10,000 GB x 0.02 = 200.00; egress 9,000 x 0.08 = 720.00; total 38,843.33

-- An owned cluster: the seed's "1024 H100 for a month = 700 W x 1024 x 720 h = 516 MWh, ~$50k at
-- $0.10/kWh, 5-10% of the compute bill".  n_tokens chosen so that MFU 0.45 lasts 30 days.
-- Compute priced at the GPUs' own cost without energy, tco_per_gpu_hour(H100, 4 years, 70%,
-- $0/kWh) = 32,500 / (4 x 8766 x 0.7) = $1.3241/GPU-h: 737,280 GPU-h x 1.3241 = 976,239;
-- energy 516,096 kWh x $0.10 = 51,609.60 (5.3% of compute); checkpoint 5% = 48,811.97;
-- storage (10 x 98 + 4 x 28.125e12 / 1e9 = 112,500.50 GB) x 0.02 = 2,269.61; no spot buffer;
-- total 976,239.37 + 48,811.97 + 2,269.61 + 51,609.60 = 1,078,930.54 (exactly ...930.5447).
WITH s AS (SELECT run_spec(7e9, 2592000e0 * 1024 * 0.45 * 989e12 / (6 * 7e9), 1024, 'H100-SXM5', mfu => 0.45) AS s)
SELECT mfu_time(s.s) AS wall, round(energy_kwh(s.s)::numeric, 3) AS kwh    -- 720:00:00, 516096
  FROM s;
WITH s AS (SELECT run_spec(7e9, 2592000e0 * 1024 * 0.45 * 989e12 / (6 * 7e9), 1024, 'H100-SXM5', mfu => 0.45) AS s)
SELECT b.component, round(b.usd, 2) AS usd, b.assumption
  FROM s, cost_breakdown(s.s, tco_per_gpu_hour('H100-SXM5', 4, 0.70, 0, 1.0),
                         owned => true, usd_per_kwh => 0.10, spot_buffer => 0) WITH ORDINALITY AS b
 ORDER BY b.ordinality;
-- with a PUE of 1.2 the energy row grows by 20%: 61,931.52
SELECT round(b.usd, 2) AS energy_usd, b.assumption
  FROM cost_breakdown(run_spec(7e9, 2592000e0 * 1024 * 0.45 * 989e12 / (6 * 7e9), 1024, 'H100-SXM5', mfu => 0.45),
                      1.00, owned => true, pue => 1.2) AS b
 WHERE b.component = 'energy';

-- The checkpoint size follows the spec's optimizer and precision (weights + optimizer state per
-- parameter, as memory_per_gpu counts them): bf16 AdamW 2 + 12 = 14, 8-bit Adam 2 + 6 = 8,
-- SGD 2 + 8 = 10, fp32 AdamW 4 + 8 = 12; for 7B: 98, 56, 70, 84 GB per checkpoint.
SELECT dtype, optimizer, round((b.usd / 0.02 - 5600) / 10, 1) AS checkpoint_gb
  FROM (VALUES ('bf16', 'adamw'), ('bf16', 'adamw_8bit'), ('bf16', 'sgd'), ('fp32', 'adamw')) AS t(dtype, optimizer),
       LATERAL cost_breakdown(run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', dtype => dtype, optimizer => optimizer), 2.49) AS b
 WHERE b.component = 'storage'
 ORDER BY dtype, optimizer;

-- Free things cost nothing: price 0, no checkpoints kept, no data stored.
SELECT b.component, round(b.usd, 2) AS usd
  FROM cost_breakdown(run_spec(5e7, 4.3e10, 1, 'A100-80GB'), 0, checkpoints_kept => 0, dataset_gb => 0,
                      spot_buffer => 0) WITH ORDINALITY AS b
 ORDER BY b.ordinality;

-- ---------------------------------------------------------------- tco_per_gpu_hour

-- The seed's H100 SXM5 list price $25-40k -> midpoint $32.5k, over 4 years at 70% utilization:
-- 32,500 / (4 x 8766 x 0.70) = 1.3241 $/used GPU-h; energy 0.7 kW x 1.2 x $0.10 = 0.0840;
-- total 1.4081 $/GPU-h, against the seed's Lambda on-demand $3.29 (price_at, 2024-07-01) and
-- spot $2.49: owning the GPU alone is 43% of the on-demand price.  The alias 'h100' resolves
-- to H100-SXM5, any case.
SELECT round(tco_per_gpu_hour('H100-SXM5', 4, 0.70, 0.10, 1.2), 4) AS tco,                  -- 1.4081
       round(tco_per_gpu_hour('h100', 4, 0.70, 0, 1.2), 4) AS hardware_only,                 -- 1.3241
       price_at('H100-SXM5', 'lambda', 'on_demand', '2024-07-01') AS lambda_on_demand,       -- 3.29
       price_at('H100-SXM5', 'lambda', 'spot', '2024-07-01') AS lambda_spot,                 -- 2.49
       round(tco_per_gpu_hour('H100-SXM5', 4, 0.70, 0.10, 1.2)
             / price_at('H100-SXM5', 'lambda', 'on_demand', '2024-07-01'), 2) AS tco_share;  -- 0.43

-- The seed's other list prices: A100 80GB $10-15k (used), H200 $30-45k, B200 $40-60k, at 4 years,
-- 70%, $0.10/kWh, PUE 1.2.  A100: 12,500 / 24,544.8 + 0.4 x 1.2 x 0.1 = 0.5093 + 0.0480 = 0.5573;
-- H200: 37,500 / 24,544.8 + 0.0840 = 1.6118; B200: 50,000 / 24,544.8 + 1.0 x 1.2 x 0.1 = 2.1571.
SELECT sku, round(tco_per_gpu_hour(sku, 4, 0.70, 0.10, 1.2), 4) AS tco
  FROM unnest(ARRAY['A100-80GB', 'H200-SXM5', 'B200']) AS sku
 ORDER BY sku;

-- Utilization matters most: at 100% the hardware share falls to 32,500 / 35,064 = 0.9269 (+0.0840);
-- over 1 year at 10% it is 32,500 / 876.6 = 37.0751 (+0.0840).
SELECT round(tco_per_gpu_hour('H100-SXM5', 4, 1.0, 0.10, 1.2), 4) AS full_use,       -- 1.0109
       round(tco_per_gpu_hour('H100-SXM5', 1, 0.1, 0.10, 1.2), 4) AS one_year_10pct; -- 37.1591

-- ---------------------------------------------------------------- bad arguments (22023, 22003)

-- carbon_kg: intensity in [0, 2], pue in [1, 5], NaN rejected
SELECT carbon_kg(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.5);
SELECT carbon_kg(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), -0.1);
SELECT carbon_kg(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'NaN');
SELECT carbon_kg(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 0.4, 0.9);
SELECT carbon_kg(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 0.4, 'Infinity');
-- a hand-built spec is checked too
SELECT carbon_kg(ROW(7e9, 1.4e12, 'H100-SXM5', 8, 8, 1.5, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                     NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, 0.4);
-- checkpoint_plan: both intervals > 0 and at most 1e12 s
SELECT * FROM checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '0 seconds', '30 days');
SELECT * FROM checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '-90 seconds', '30 days');
SELECT * FROM checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '90 seconds', '0 days');
SELECT * FROM checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '90 seconds', '-30 days');
SELECT * FROM checkpoint_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '90 seconds', '100000 years');
-- a run so long that T / M overflows: 22003
SELECT * FROM checkpoint_plan(ROW(1e18, 1e18, 'H100-SXM5', 1, 1, 1e-270, 'bf16', 1, 80e9, 450e9, 50e9, 700,
                                  NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec,
                              '90 seconds', '1 microsecond');
-- cost_breakdown: every argument named with its range
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), -2.49);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 'NaN');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoint_every => '0 seconds');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoint_write => '-1 second');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoint_write => '30 minutes');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoints_kept => -1);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoint_gb => -100);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoint_gb => 'NaN');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, dataset_gb => 'Infinity');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, storage_usd_per_gb_month => -0.02);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, storage_months => -1);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, egress_gb => -1);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, egress_usd_per_gb => 'Infinity');
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, usd_per_kwh => -0.10);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, pue => 0.9);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, spot_buffer => 1.5);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, spot_buffer => -0.1);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoints_kept => 2000000000,
                             checkpoint_gb => 1e300);
-- only checkpoint_gb and dataset_gb may be NULL (they mean "derive from the spec")
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), NULL);
SELECT * FROM cost_breakdown(NULL, 2.49);
SELECT * FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, owned => NULL);
SELECT count(*) FROM cost_breakdown(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), 2.49, checkpoint_gb => NULL, dataset_gb => NULL);
-- tco_per_gpu_hour (PL/pgSQL: its CONTEXT lines are left out)
\set SHOW_CONTEXT never
SELECT tco_per_gpu_hour('H100-SXM5', 0, 0.7, 0.10, 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 25, 0.7, 0.10, 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 'NaN', 0.7, 0.10, 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 0, 0.10, 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 1.5, 0.10, 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 0.7, -0.10, 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 0.7, 'Infinity', 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 0.7, 'NaN', 1.2);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 0.7, 0.10, 0.9);
SELECT tco_per_gpu_hour('H100-SXM5', 4, 0.7, 0.10, 'NaN');
SELECT tco_per_gpu_hour('H100-SXMS', 4, 0.7, 0.10, 1.2);
SELECT tco_per_gpu_hour('A100-40GB', 4, 0.7, 0.10, 1.2);
SELECT tco_per_gpu_hour(NULL, 4, 0.7, 0.10, 1.2) IS NULL AS strict_null;
\set SHOW_CONTEXT errors

-- Volatility and comments: pure functions IMMUTABLE, the table reader STABLE; every one commented.
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel, d.description IS NOT NULL AS commented
  FROM pg_proc p
  LEFT JOIN pg_description d ON d.objoid = p.oid AND d.classoid = 'pg_proc'::regclass
 WHERE p.pronamespace = 'llm_econ'::regnamespace
   AND p.proname IN ('carbon_kg', 'checkpoint_plan', 'cost_breakdown', 'tco_per_gpu_hour')
 ORDER BY p.proname;
