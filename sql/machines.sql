-- Runs rent whole machines (issue 45): per (provider, region, pricing) the machine that makes the run
-- cheapest, idle GPUs paid, in cheapest_offers, estimate_cost(spec, provider, ...) and run_plan's
-- frozen price; one price lookup (issue 42): suspect prices out of lookups and views alike; regions
-- compared ASCII case-insensitively.  Expected figures computed by hand (comments).
SET search_path = llm_econ, public;
SET TimeZone = 'UTC';
BEGIN;
-- Lambda's H100 SXM5 machines as its catalog lists them (issue 45): 1, 2, 4 and 8 GPUs, per GPU-hour
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source) VALUES
  ('2024-01-01', 'lambda', 'H100-SXM5', 'us-rent-1', 'on_demand', 3.29, 'gpu_1x_h100_sxm5', 1, 'machines test'),
  ('2024-01-01', 'lambda', 'H100-SXM5', 'us-rent-1', 'on_demand', 3.19, 'gpu_2x_h100_sxm5', 2, 'machines test'),
  ('2024-01-01', 'lambda', 'H100-SXM5', 'us-rent-1', 'on_demand', 3.09, 'gpu_4x_h100_sxm5', 4, 'machines test'),
  ('2024-01-01', 'lambda', 'H100-SXM5', 'us-rent-1', 'on_demand', 2.99, 'gpu_8x_h100_sxm5', 8, 'machines test'),
-- Hyperbolic: a 1-GPU VM at 1.29 and an 8-GPU machine at 1.39
  ('2024-01-01', 'hyperbolic', 'H100-SXM5', 'us-rent-1', 'on_demand', 1.29, '1x-H100-SXM5', 1, 'machines test'),
  ('2024-01-01', 'hyperbolic', 'H100-SXM5', 'us-rent-1', 'on_demand', 1.39, '8x-H100-SXM5', 8, 'machines test');

-- The rule (_billed_gpus, le_billed_gpus in C): ceil(n / g) * g, NULL when a machine smaller than a
-- node (8 H100) would have to span; unknown size bills the run's GPUs
SELECT n, g, _billed_gpus(n, g, 8) AS billed
  FROM (VALUES (1, 1), (1, 8), (3, 2), (3, 4), (12, 8), (64, 1), (64, 8), (12, NULL)) AS t(n, g);

-- One run of 6 · 7e9 · 1e11 FLOPs at MFU 0.5 on H100 SXM5 (989 TFLOPS BF16):
-- 4.2e21 / (989e12 · 0.5) / 3600 = 2359.285 GPU-hours whatever its GPU count
SELECT round(gpu_hours(run_spec(7e9, 1e11, 1, 'H100', mfu => 0.5))::numeric, 3) AS gpu_hours;

-- 1 GPU: the 1-GPU machine, 3.29 (the 8-GPU machine bills 8 · 2.99 = 23.92 an hour):
-- 2359.285 · 3.29 = 7762.05; 3 GPUs: one 4-GPU machine (1- and 2-GPU machines cannot span),
-- 4 · 3.09 = 12.36 an hour against 8 · 2.99 = 23.92: 2359.285 · 3.09 · 4 / 3 = 9720.26;
-- 12 GPUs: two 8-GPU machines, 16 GPUs billed: 2359.285 · 2.99 · 16 / 12 = 9405.68;
-- 64 GPUs: eight 8-GPU machines, 64 billed: 2359.285 · 2.99 = 7054.26
SELECT n, o.instance_type, o.usd_per_gpu_hour, o.instances, o.billed_gpus, round(o.cost_usd, 2) AS cost_usd
  FROM unnest(ARRAY[1, 3, 12, 64]) AS n,
       LATERAL cheapest_offers(run_spec(7e9, 1e11, n, 'H100', mfu => 0.5), '2024-02-01') AS o
 WHERE o.provider = 'lambda' AND o.region = 'us-rent-1'
 ORDER BY n;

-- estimate_cost(spec, provider, ...) rents the same machine: the same figures
SELECT n, round(estimate_cost(run_spec(7e9, 1e11, n, 'H100', mfu => 0.5), 'lambda', 'on_demand', '2024-02-01', 'us-rent-1'), 2) AS cost_usd
  FROM unnest(ARRAY[1, 3, 12, 64]) AS n ORDER BY n;

-- Hyperbolic, 64 GPUs: the 8-GPU machine at 1.39 (the 1-GPU VM cannot carry a multi-node run);
-- 1 GPU: the VM at 1.29
SELECT n, o.instance_type, o.usd_per_gpu_hour, o.instances, o.billed_gpus
  FROM unnest(ARRAY[1, 64]) AS n,
       LATERAL cheapest_offers(run_spec(7e9, 1e11, n, 'H100', mfu => 0.5), '2024-02-01') AS o
 WHERE o.provider = 'hyperbolic' AND o.region = 'us-rent-1' ORDER BY n;

-- run_plan freezes what the run pays per GPU-hour of its GPUs: 1.39 for 64 GPUs at Hyperbolic
-- (2359.285 · 1.39 = 3279.41); 2.99 · 16 / 12 = 3.986667 for 12 GPUs at Lambda (= 9405.68 above)
INSERT INTO run_plan (run_id, spec, provider, pricing, region, planned_at) VALUES
  ('machines-64', run_spec(7e9, 1e11, 64, 'H100', mfu => 0.5), 'hyperbolic', 'on_demand', 'us-rent-1', '2024-02-01'),
  ('machines-12', run_spec(7e9, 1e11, 12, 'H100', mfu => 0.5), 'lambda', 'on_demand', 'us-rent-1', '2024-02-01');
SELECT run_id, round(usd_per_gpu_hour, 6) AS usd_per_gpu_hour, round(planned_usd, 2) AS planned_usd
  FROM run_plan WHERE run_id LIKE 'machines-%' ORDER BY run_id;
-- a run no machine of the provider can carry has no price: 12 GPUs at a provider with 1-GPU VMs
-- only is 22023 saying why (price_at still answers 1.10 per GPU-hour of the VM)
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source) VALUES
  ('2024-01-01', 'vmonly', 'H100-SXM5', 'us-rent-1', 'on_demand', 1.10, 'vm-1x', 1, 'machines test');
SELECT price_at('H100', 'vmonly', 'on_demand', '2024-02-01') AS price_at;
SAVEPOINT s;
SELECT estimate_cost(run_spec(7e9, 1e11, 12, 'H100', mfu => 0.5), 'vmonly', 'on_demand', '2024-02-01');
ROLLBACK TO s;
SAVEPOINT s;
INSERT INTO run_plan (run_id, spec, provider, pricing, planned_at)
  VALUES ('machines-vm', run_spec(7e9, 1e11, 12, 'H100', mfu => 0.5), 'vmonly', 'on_demand', '2024-02-01');
ROLLBACK TO s;

-- Regions compare case-insensitively, by ASCII only: 'East Coast (NY2)' asked as 'east coast (ny2)'
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source) VALUES
  ('2024-01-01', 'mixedcase', 'H100-SXM5', 'East Coast (NY2)', 'on_demand', 2.50, 'h100x8', 8, 'machines test');
SELECT price_at('H100', 'mixedcase', 'on_demand', '2024-02-01', 'east coast (ny2)') AS price_at,
       price_at('H100', 'mixedcase', 'on_demand', '2024-02-01', 'EAST COAST (NY2)') AS upper_case,
       round(estimate_cost(run_spec(7e9, 1e11, 8, 'H100', mfu => 0.5), 'mixedcase', 'on_demand', '2024-02-01', 'east coast (ny2)'), 2) AS cost_usd,
       price_twap('H100', 'mixedcase', 'on_demand', tstzrange('2024-01-15', '2024-02-01'), 'east coast (ny2)') AS twap;
SAVEPOINT s;
SELECT price_at('H100', 'mixedcase', 'on_demand', '2024-02-01', 'east coast (ny3)');
ROLLBACK TO s;

-- A decimal slip (issue 45): 13.52 an 8-GPU machine read as 1.352, 0.169 per GPU, flagged suspect.
-- Lookups and views agree: neither counts it; both keep 1.69, the price before it.
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source, suspect) VALUES
  ('2024-03-01', 'sliptest', 'H100-SXM5', 'r1', 'on_demand', 1.69, 'h100x8', 8, 'machines test', NULL),
  ('2024-03-10', 'sliptest', 'H100-SXM5', 'r1', 'on_demand', 0.169, 'h100x8', 8, 'machines test', 'decimal slip: 13.52 read as 1.352');
SELECT price_at('H100', 'sliptest', 'on_demand', '2024-03-15') AS price_at,
       price_twap('H100', 'sliptest', 'on_demand', tstzrange('2024-03-02', '2024-04-01')) AS twap,
       (SELECT o.usd_per_gpu_hour FROM cheapest_offers(run_spec(7e9, 1e11, 8, 'H100', mfu => 0.5), '2024-03-15') o
         WHERE o.provider = 'sliptest') AS cheapest_offers,
       (SELECT o.usd_per_gpu_hour FROM cheapest_offers(run_spec(7e9, 1e11, 8, 'H100', mfu => 0.5), '2024-03-15', include_suspect => true) o
         WHERE o.provider = 'sliptest') AS with_suspect;
SELECT min(min_usd_per_gpu_hour) AS daily_min, max(min_usd_per_gpu_hour) AS daily_max
  FROM price_daily_by_provider WHERE provider = 'sliptest' AND "time" >= '2024-03-01' AND "time" < '2024-04-01';
SELECT "time", usd_per_gpu_hour FROM cheapest_provider_monthly WHERE provider = 'sliptest' AND "time" = '2024-03-01';
SELECT count(*) FILTER (WHERE usd_per_gpu_hour < 1) AS suspect_spans FROM price_series_spans WHERE provider = 'sliptest';
ROLLBACK;
