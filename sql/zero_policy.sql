-- zero_policy: one ZeRO policy in plan_parallelism, cheapest_plan, comm_breakdown, comm_bytes and step_breakdown; the DP slice of uneven pipelines; full recompute's TP traffic; every whole-node GPU count in the plan search.
SET search_path = llm_econ, public;
SET extra_float_digits = 0;

-- 70B (Llama 2 shape) on 64 H100, tp4 pp2 dp8, global batch 512 = 64 micro-batches, one layout per
-- ZeRO stage.  Side by side: comm_bytes is the sum of comm_breakdown; step_breakdown's
-- dp_comm_exposed without overlap is exactly comm_breakdown's dp rows at the link efficiency 0.8
-- (ZeRO-2/3 counted the same way: once per step for the gradients); plan_parallelism lists the
-- layout (ZeRO-2/3 with pp > 1 is offered) with comm_breakdown's seconds.  Before 0.4.0:
-- comm_breakdown counted a ZeRO-2 reduce-scatter per micro-batch (987.7 GB), step_breakdown one
-- per step, and plan_parallelism left ZeRO-2/3 with pp > 1 out.
CREATE TEMP TABLE z AS
SELECT zs, run_spec(70e9, 2e12, 64, 'H100', n_layers => 80, d_model => 8192, n_heads => 64, n_kv_heads => 8,
                    ffn_hidden => 28672, ffn_act => 'swiglu', vocab_size => 32000, seq_len => 4096,
                    global_batch => 512, tp => 4, pp => 2, zero_stage => zs) AS s
  FROM generate_series(0, 3) AS zs;
SELECT zs AS zero_stage,
       round((SELECT sum(bytes) FROM comm_breakdown(s) WHERE parallelism = 'dp')::numeric / 1e9, 1) AS dp_gb,
       (SELECT string_agg(collective || ' ' || round(bytes::numeric / 1e9, 1), ', ' ORDER BY collective)
          FROM comm_breakdown(s) WHERE parallelism = 'dp') AS dp_collectives,
       abs(comm_bytes(s) / (SELECT sum(bytes) FROM comm_breakdown(s)) - 1) < 1e-12 AS comm_bytes_is_the_sum,
       abs((SELECT seconds FROM step_breakdown(s, dp_overlap => false) WHERE phase = 'dp_comm_exposed')
           * 0.8 / (SELECT sum(seconds) FROM comm_breakdown(s) WHERE parallelism = 'dp') - 1) < 1e-9 AS step_counts_the_same,
       (SELECT count(*) FROM plan_parallelism(s) p
         WHERE p.tp = 4 AND p.pp = 2 AND p.zero_stage = zs AND p.recompute = 'none'
           AND abs(p.comm_seconds_per_step / (SELECT sum(seconds) FROM comm_breakdown(s)) - 1) < 1e-12) AS plan_lists_it
  FROM z ORDER BY zs;
-- ZeRO-1 and ZeRO-2 move the same bytes; ZeRO-3 adds 2·64 weight gathers.
SELECT round(((SELECT sum(bytes) FROM comm_breakdown(s) WHERE parallelism = 'dp')
       / (SELECT sum(bytes) FROM comm_breakdown((SELECT s FROM z WHERE zs = 1)) WHERE parallelism = 'dp'))::numeric, 3) AS vs_zero1
  FROM z ORDER BY zs;

-- cheapest_plan: its plans (ZeRO-2/3 with pp > 1 among them) agree with the four other functions.
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source) VALUES
  ('2027-06-01', 'testcloud', 'H100-SXM5', 'r1', 'on_demand', 2.50, 'h100x8', 8, 'test'),
  ('2027-06-01', 'testcloud', 'H200-SXM5', 'r1', 'on_demand', 3.00, 'h200x8', 8, 'test');
-- the machines' network, so that plans may span them (an unknown network: one instance only)
INSERT INTO instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source) VALUES
  ('testcloud', 'h100x8', 'H100-SXM5', 8, 3200, 8, 'test'), ('testcloud', 'h200x8', 'H200-SXM5', 8, 3200, 8, 'test');
CREATE TEMP TABLE cp AS
SELECT p.* FROM cheapest_plan((SELECT s FROM z WHERE zs = 0), interval '100 years', '2027-06-02',
                              max_gpus => 1024, max_age => interval '1 day') AS p;
SELECT count(*) > 0 AS some_plans,
       count(*) FILTER (WHERE zero_stage >= 2 AND pp > 1) > 0 AS zero23_with_pp_offered,
       count(*) FILTER (WHERE predicted_mfu(spec) = predicted_mfu) = count(*) AS step_agrees,
       count(*) FILTER (WHERE abs(comm_bytes(spec) / (SELECT sum(bytes) FROM comm_breakdown(spec)) - 1) < 1e-12)
         = count(*) AS comm_agrees,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM plan_parallelism(spec) q
                                       WHERE q.tp = cp.tp AND q.pp = cp.pp AND q.zero_stage = cp.zero_stage
                                         AND q.recompute = cp.recompute)) = count(*) AS plan_parallelism_lists_them
  FROM cp;
-- Every whole-node GPU count is tried, whatever pp it needs: 96 H200 (12 nodes) needs a pp with a
-- factor 3, which neither divides 80 layers nor is a power of two (before 0.4.0: skipped).
SELECT count(*) FILTER (WHERE n_gpus = 96) AS plans_on_96,
       count(DISTINCT n_gpus) FILTER (WHERE sku = 'H200-SXM5') AS h200_counts,
       count(DISTINCT n_gpus) FILTER (WHERE sku = 'H200-SXM5' AND n_gpus % 8 = 0) AS h200_whole_node_counts
  FROM cp;
ROLLBACK;

-- Pipelines that do not divide the layers: 126 layers on 16 stages hold 7, 8 x 14, 7.  The DP slice is
-- the heaviest stage's own parameters: 8 layers' share, the embedding (first stage) or output layer
-- (last stage, 7 layers + V·h) when heavier; before 0.4.0 it was ceil(126/16) = 8 layers plus the
-- embedding, which no stage holds together.
SELECT round((sum(bytes) FILTER (WHERE collective = 'reduce_scatter'))::numeric) AS grad_rs_bytes,
       round((405e9 / 126 * 8 / 8 * 2 * 63 / 64)::numeric) AS eight_layers_slice,
       round(((405e9 / 126 * 7 + 128256 * 16384.0) / 8 * 2 * 63 / 64)::numeric) AS last_stage_slice
  FROM comm_breakdown(run_spec(405e9, 15e12, 8192, 'H100', n_layers => 126, d_model => 16384, n_heads => 128,
                               n_kv_heads => 8, ffn_hidden => 53248, ffn_act => 'swiglu', vocab_size => 128256,
                               seq_len => 8192, global_batch => 2048, tp => 8, pp => 16, zero_stage => 1))
 WHERE parallelism = 'dp';

-- Full recompute runs the forward's tensor-parallel collectives again: 6 all-reduce equivalents per
-- layer instead of 4 (before 0.4.0 comm_bytes counted 4 with any recompute: 33% low).
SELECT r AS recompute, round((bytes / 1e9)::numeric, 3) AS tp_gb
  FROM unnest(ARRAY['none', 'full']) AS r,
       LATERAL comm_breakdown(run_spec(7e9, 1e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                                       seq_len => 4096, global_batch => 8, tp => 8, recompute => r))
 WHERE parallelism = 'tp' ORDER BY r DESC;
