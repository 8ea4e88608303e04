-- bench_plan.sql: cheapest_plan over 30 SKUs x 100 offers each, up to 16,384 GPUs, a 70B model on 15T tokens in 30 days.
\ir harness.sql

\echo == 30 SKUs (five shipped parts in six variants of network-free figures: memory, bandwidth, node size) x 100 offers each
-- The variants are user rows of gpu_sku (copies of A100-80GB, H100-SXM5, H200-SXM5, B200, MI300X with
-- HBM, HBM bandwidth and node size changed), each offered by 100 (provider, region) series observed
-- on 2026-11-01 at different prices (after the shipped history ends; max_age keeps the shipped prices
-- out), on machine types whose network is known (instance_type), so plans may span machines.
INSERT INTO gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops,
                     fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, source, generation)
SELECT g.sku || '-v' || v, g.vendor, g.name || ' variant ' || v, g.hbm_gb * (1 + v % 3 * 0.25),
       coalesce(g.hbm_bytes, g.hbm_gb * 1e9) * (1 + v % 3 * 0.25), g.hbm_gb_per_s * (1 + v % 2 * 0.2),
       g.fp32_tflops, g.tf32_tflops, g.bf16_tflops, g.fp16_tflops, g.fp8_tflops, g.nvlink_gb_per_s,
       g.pcie_gb_per_s, CASE WHEN v < 3 THEN 8 ELSE 4 END, g.tdp_watts, 'benchmark variant', g.generation
  FROM gpu_sku g, generate_series(0, 5) AS v
 WHERE g.sku IN ('A100-80GB', 'H100-SXM5', 'H200-SXM5', 'B200', 'MI300X');
INSERT INTO instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source)
SELECT 'bench' || p, lower(g.sku) || '-x' || g.gpus_per_node, g.sku, g.gpus_per_node, 400 * g.gpus_per_node,
       g.gpus_per_node, 'benchmark machine'
  FROM gpu_sku g, generate_series(0, 9) AS p
 WHERE g.source = 'benchmark variant';
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source)
SELECT '2026-11-01', 'bench' || (o % 10), g.sku, 'r' || (o / 10), 'on_demand',
       round((1 + g.bf16_tflops / 400 * (0.8 + (o * 37 % 100) / 250.0))::numeric, 4), lower(g.sku) || '-x' || g.gpus_per_node,
       g.gpus_per_node, 'benchmark'
  FROM gpu_sku g, generate_series(0, 99) AS o
 WHERE g.source = 'benchmark variant';
ANALYZE gpu_sku;
ANALYZE instance_type;
ANALYZE price_snapshot;
ANALYZE price_series;
SELECT count(DISTINCT sku) AS skus, count(*) AS offers FROM llm_econ._plan_offers('2026-11-02', NULL, '1 day');

-- Llama-3-70B's shape (Dubey et al. 2024, Table 3) on 15T tokens, 16M-token batches.
CREATE TEMP TABLE model AS
SELECT run_spec(70e9, 15e12, 8, 'H100', n_layers => 80, d_model => 8192, n_heads => 64, n_kv_heads => 8,
                ffn_hidden => 28672, ffn_act => 'swiglu', vocab_size => 128256, seq_len => 8192,
                global_batch => 2048) AS m;
SELECT pg_temp.bench('cheapest_plan: 30 SKUs x 100 offers, max_gpus 16384',
  $$SELECT count(*) FROM model, llm_econ.cheapest_plan(m, '30 days', '2026-11-02', max_age => '1 day')$$, 1, :reps);
SELECT pg_temp.bench('cheapest_plan: the cheapest row only (LIMIT 1)',
  $$SELECT * FROM model, llm_econ.cheapest_plan(m, '30 days', '2026-11-02', max_age => '1 day') LIMIT 1$$, 1, :reps,
  'cheapest_plan: 30 SKUs x 100 offers, max_gpus 16384');
SELECT pg_temp.bench('cheapest_plan: max_gpus 1024',
  $$SELECT count(*) FROM model, llm_econ.cheapest_plan(m, '300 days', '2026-11-02', max_gpus => 1024, max_age => '1 day')$$, 1, :reps,
  'cheapest_plan: 30 SKUs x 100 offers, max_gpus 16384');
SELECT count(*) AS plans, min(cost_usd) AS cheapest_usd FROM model, llm_econ.cheapest_plan(m, '30 days', '2026-11-02', max_age => '1 day');

\echo == results (median of :reps runs after one warm-up)
SELECT label, round(median_ms::numeric, 1) AS median_ms, ratio, vs FROM report ORDER BY n;
