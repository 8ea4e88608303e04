-- Predicted MFU and the cheapest plan (0.3.0): step_breakdown, predicted_mfu, predicted_time against the
-- published runs of data/mfu_validation.csv, and cheapest_plan's plans reproduced through the public functions.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- ---- the validation table, through the public functions -------------------------------------------
-- Every row of data/mfu_validation.csv as a run_spec built by the constructor.  The hardware is the
-- shipped SKU's (A100 80GB SXM4, H100 SXM5); the network is the papers': Selene has one 200 Gbit/s HDR
-- port per GPU (Narayanan et al. 2021, §5), Llama 3's cluster one 400 Gbit/s RoCE port per GPU
-- (Dubey et al. 2024, §3.3.1).
CREATE TEMP TABLE val (
  "row" text, source text, model text, n_params float8, n_layers int, d_model int, n_heads int,
  n_kv_heads int, ffn_hidden int, swiglu int, vocab_size int, seq_len int, global_batch int,
  micro_batch int, gpu text, n_gpus int, tp int, pp int, cp int, vpp int, recompute text,
  sequence_parallel int, flash int, zero_stage int, grad_bytes int, dp_overlap int,
  flop_convention text, published_tflops_per_gpu float8, published_fraction_of_peak float8,
  tolerance float8, note text);
\copy val FROM 'data/mfu_validation.csv' CSV HEADER
CREATE TEMP TABLE val_spec AS
SELECT v.*, run_spec(v.n_params, 1e12, v.n_gpus,
                     CASE v.gpu WHEN 'A100-SXM4-80GB' THEN 'A100-80GB' WHEN 'H100-SXM5-80GB' THEN 'H100-SXM5' END,
                     n_layers => v.n_layers, d_model => v.d_model, n_heads => v.n_heads, seq_len => v.seq_len,
                     micro_batch => v.micro_batch, global_batch => v.global_batch, tp => v.tp, pp => v.pp,
                     cp => v.cp, vpp => v.vpp, zero_stage => v.zero_stage, recompute => v.recompute,
                     n_kv_heads => nullif(v.n_kv_heads, 0), ffn_hidden => nullif(v.ffn_hidden, 0),
                     ffn_act => CASE WHEN v.swiglu = 1 THEN 'swiglu' ELSE 'gelu' END, vocab_size => v.vocab_size,
                     sequence_parallel => v.sequence_parallel = 1,
                     attention => CASE WHEN v.flash = 1 THEN 'flash' ELSE 'eager' END,
                     grad_dtype => CASE WHEN v.grad_bytes = 4 THEN 'fp32' ELSE 'bf16' END,
                     inter_node_gbit_per_s => CASE WHEN v.gpu LIKE 'A100%' THEN 200 ELSE 400 END) AS spec
  FROM val v;
-- FLOPs per step in each paper's convention, so that like is compared with like:
-- narayanan_eq3 96·B·s·l·h²·(1 + s/6h + V/16lh) (hardware FLOPs with full recompute, Narayanan et al.
-- 2021 eq. 3); korthikanti_mfu 72·B·s·l·h²·(1 + s/6h + V/12lh) (Korthikanti et al. 2022 §6.3);
-- palm_attention (6N + 12·l·h·s) per token (Chowdhery et al. 2022 App. B, Llama 3's convention).
CREATE TEMP TABLE val_result AS
SELECT v."row", v.model, v.n_gpus, v.tp, v.pp, v.cp, v.published_tflops_per_gpu AS published, v.tolerance,
       CASE v.flop_convention
         WHEN 'narayanan_eq3' THEN 96.0 * v.global_batch * v.seq_len * v.n_layers * v.d_model::float8 ^ 2
                                   * (1 + v.seq_len / (6.0 * v.d_model) + v.vocab_size / (16.0 * v.n_layers * v.d_model))
         WHEN 'korthikanti_mfu' THEN 72.0 * v.global_batch * v.seq_len * v.n_layers * v.d_model::float8 ^ 2
                                   * (1 + v.seq_len / (6.0 * v.d_model) + v.vocab_size / (12.0 * v.n_layers * v.d_model))
         WHEN 'palm_attention' THEN v.global_batch::float8 * v.seq_len * (6 * v.n_params + 12.0 * v.n_layers * v.d_model * v.seq_len)
       END / (v.n_gpus * b.seconds) / 1e12 AS predicted,
       b.seconds AS step_seconds, v.spec, v.dp_overlap = 1 AS dp_overlap
  FROM val_spec v
 CROSS JOIN LATERAL step_breakdown(v.spec, dp_overlap => v.dp_overlap = 1) AS b
 WHERE b.phase = 'total';
-- Published vs predicted TFLOP/s per GPU; every row within its tolerance (0.15; 0.20 and 0.30 for the
-- stated misses L2 and L3, see README).
SELECT "row", model, n_gpus, tp, pp, cp, published, round(predicted::numeric, 1) AS predicted,
       round((100 * (predicted / published - 1))::numeric, 1) AS error_pct,
       abs(predicted / published - 1) <= tolerance AS within_tolerance
  FROM val_result ORDER BY substr("row", 1, 1) DESC, length("row"), "row";
SELECT count(*) AS rows, count(*) FILTER (WHERE abs(predicted / published - 1) <= tolerance) AS within,
       round((avg(abs(predicted / published - 1)) * 100)::numeric, 1) AS mean_abs_error_pct
  FROM val_result;

-- ---- what the three functions say about one step ----------------------------------------------------
-- Korthikanti's 175B on 64 A100s (K2): the phases in order, and the total is their sum.
SELECT phase, round(seconds::numeric, 3) AS seconds
  FROM step_breakdown((SELECT spec FROM val_result WHERE "row" = 'K2'), dp_overlap => false);
SELECT abs(sum(seconds) FILTER (WHERE phase <> 'total') / max(seconds) FILTER (WHERE phase = 'total') - 1) < 1e-12 AS total_is_the_sum
  FROM step_breakdown((SELECT spec FROM val_result WHERE "row" = 'K2'), false);
-- The 1F1B bubble is (pp - 1)/(m · vpp) of the busy time: K2 has pp 8 and m = 64 micro-batches.  Since
-- 0.4.0 pp_bubble also holds the stage-to-stage exchanges, which lengthen the busy time too: each
-- micro-batch sends b·s·h bf16 activations forward and as many gradients backward, 1/t from each
-- tensor-parallel rank (Narayanan et al. 2021 §3.2, §4.1): 2 · 2048 · 12288 · 2 / 8 bytes at 0.8 of
-- 25 GB/s = 0.629 ms per micro-batch.
SELECT round(((max(seconds) FILTER (WHERE phase = 'pp_bubble') - 64 * 0.000629146)
              / (sum(seconds) FILTER (WHERE phase IN ('compute', 'memory_bound_ops', 'tp_comm', 'cp_comm', 'ep_comm')) + 64 * 0.000629146))::numeric, 6) AS bubble_share,
       round(7 / 64.0, 6) AS expected
  FROM step_breakdown((SELECT spec FROM val_result WHERE "row" = 'K2'), false);
-- Interleaving (vpp) divides the bubble: Llama 3 (L1) runs vpp 2; the same layout without it.
SELECT v AS vpp, round(seconds::numeric, 3) AS pp_bubble
  FROM unnest(ARRAY[1, 2]) AS v,
       LATERAL step_breakdown(run_spec(405e9, 15e12, 8192, 'H100-SXM5', n_layers => 126, d_model => 16384,
                                       n_heads => 128, n_kv_heads => 8, ffn_hidden => 53248, ffn_act => 'swiglu',
                                       vocab_size => 128256, seq_len => 8192, global_batch => 2048, tp => 8,
                                       pp => 16, vpp => v, zero_stage => 2, grad_dtype => 'fp32'))
 WHERE phase = 'pp_bubble' ORDER BY v;
-- predicted_mfu = 6·N·tokens per step / (n_gpus · peak · step); predicted_time = steps · step seconds.
SELECT "row",
       abs(predicted_mfu(spec, dp_overlap) * (spec).n_gpus * (spec).peak_flops * step_seconds
           / (6 * (spec).n_params * (spec).global_batch * (spec).seq_len) - 1) < 1e-12 AS mfu_formula,
       abs(extract(epoch FROM predicted_time(spec, dp_overlap))
           / ((spec).n_tokens / ((spec).global_batch::float8 * (spec).seq_len) * step_seconds) - 1) < 1e-9 AS time_formula
  FROM val_result WHERE "row" IN ('N1', 'K2', 'L1') ORDER BY "row";
-- Gradient reduction overlapped with the backward pass (the default) exposes less than after it.
SELECT dp_overlap, round(seconds::numeric, 3) AS dp_comm_exposed
  FROM unnest(ARRAY[false, true]) AS dp_overlap,
       LATERAL step_breakdown((SELECT spec FROM val_result WHERE "row" = 'N5'), dp_overlap)
 WHERE phase = 'dp_comm_exposed' ORDER BY dp_overlap;
-- The generation chooses the efficiency curve: the same layout on an H100 frozen as 'other'.
SELECT g AS gpu_generation, round(predicted_mfu(s)::numeric, 3) AS predicted_mfu
  FROM (SELECT run_spec(7e9, 1e12, 8, 'H100-SXM5', n_layers => 32, d_model => 4096, n_heads => 32,
                        seq_len => 4096, global_batch => 256, tp => 2) AS s0) x,
       unnest(ARRAY['hopper', 'other']) AS g,
       LATERAL (SELECT ROW((s0).n_params, (s0).n_tokens, (s0).sku, (s0).n_gpus, (s0).gpus_per_node, (s0).mfu,
                           (s0).dtype, (s0).peak_flops, (s0).hbm_bytes, (s0).intra_node_bytes_per_s,
                           (s0).inter_node_bytes_per_s, (s0).tdp_watts, (s0).n_layers, (s0).d_model, (s0).n_heads,
                           (s0).seq_len, (s0).micro_batch, (s0).global_batch, (s0).tp, (s0).pp, (s0).zero_stage,
                           (s0).recompute, (s0).optimizer, (s0).n_active_params, (s0).n_experts, (s0).top_k,
                           (s0).ep, (s0).cp, (s0).vpp, (s0).n_kv_heads, (s0).ffn_hidden, (s0).ffn_act,
                           (s0).vocab_size, (s0).sequence_parallel, (s0).attention, (s0).grad_dtype,
                           (s0).hbm_bytes_per_s, g, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec AS s) y
 ORDER BY g;
-- The constructor freezes the two fields the step model needs from gpu_sku.
SELECT k AS sku, (s).hbm_bytes_per_s, (s).gpu_generation
  FROM unnest(ARRAY['A100-80GB', 'H100-SXM5', 'B200', 'MI300X', 'L4']) AS k,
       LATERAL run_spec(7e9, 1e12, 8, k) AS s ORDER BY k;

-- ---- bad input --------------------------------------------------------------------------------------
-- No shape: 22023 naming every missing field.
SELECT predicted_mfu(run_spec(7e9, 1e12, 8, 'H100'));
SELECT * FROM step_breakdown(run_spec(7e9, 1e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096));
-- A value built before 0.3.0 or by hand without the frozen hardware fields.
SELECT predicted_time(ROW(7e9, 1e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          32, 4096, 32, 4096, 1, 256, 1, 1, 0, 'none', 'adamw',
                          NULL, NULL, NULL, 1, 1, 1, NULL, NULL, 'gelu', NULL, true, 'flash', 'bf16', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT predicted_time(ROW(7e9, 1e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          32, 4096, 32, 4096, 1, 256, 1, 1, 0, 'none', 'adamw',
                          NULL, NULL, NULL, 1, 1, 1, NULL, NULL, 'gelu', NULL, true, 'flash', 'bf16', 3.35e12, 'volta', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT predicted_time(ROW(7e9, 1e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          32, 4096, 32, 4096, 1, 256, 1, 1, 0, 'none', 'adamw',
                          NULL, NULL, NULL, 1, 1, 1, NULL, NULL, 'gelu', NULL, true, 'flash', 'bf16', 'NaN', 'hopper', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
-- A layout the step model cannot run: the global batch is not a multiple of dp · micro_batch.
SELECT predicted_mfu(run_spec(7e9, 1e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                              seq_len => 4096, global_batch => 3));
-- STRICT: a NULL spec is NULL.
SELECT predicted_mfu(NULL) IS NULL AS null_in_null_out;

-- ---- cheapest_plan ----------------------------------------------------------------------------------
-- A 1.3B GPT on 26B tokens.
CREATE TEMP TABLE m AS
SELECT run_spec(1.3e9, 26e9, 8, 'H100', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048,
                global_batch => 512, vocab_size => 50257) AS model;
-- Offers of a test cloud observed on 2030-01-01 (rolled back at the end of this part, so that the
-- tests after this one see the shipped prices only); max_age => '1 day' leaves out every shipped
-- price (the shipped series are still in effect in 2030, but their observations are years old).
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source) VALUES
  ('2027-06-01', 'testcloud', 'H100-SXM5', 'r1', 'on_demand', 2.50, 'h100x8', 8, 'test'),
  ('2027-06-01', 'testcloud', 'A100-80GB', 'r1', 'on_demand', 1.20, 'a100x8', 8, 'test'),
  ('2027-06-01', 'testcloud', 'A100-80GB', 'r1', 'spot', 0.70, 'a100x8', 8, 'test'),
  ('2027-06-01', 'testcloud', 'L4', 'r1', 'on_demand', 0.40, 'l4x4', 4, 'test'),
  ('2025-01-01', 'testcloud', 'B200', 'r1', 'on_demand', 3.00, 'b200x8', 8, 'test'),
  ('2027-06-01', 'testcloud', 'Trainium2', 'r1', 'spot', 1.00, NULL, NULL, 'test');
-- Their instance types, with 400 Gbit/s per GPU (the run_spec default) between instances; the
-- Trainium2 offer names none, so its network is unknown and it serves single-instance plans only
-- (at most one 16-chip node).
INSERT INTO instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source) VALUES
  ('testcloud', 'h100x8', 'H100-SXM5', 8, 3200, 8, 'test'), ('testcloud', 'a100x8', 'A100-80GB', 8, 3200, 8, 'test'),
  ('testcloud', 'l4x4', 'L4', 4, 400, NULL, 'test'), ('testcloud', 'b200x8', 'B200', 8, 3200, 8, 'test');
-- Within 2 days.
CREATE TEMP TABLE plans AS
SELECT row_number() OVER () AS rank, p.*
  FROM m, cheapest_plan(m.model, interval '2 days', at => '2027-06-02', max_age => interval '1 day') AS p;
SELECT rank, sku, provider, instance_type, pricing, n_gpus, tp, pp, cp, ep, dp, zero_stage, recompute,
       round(predicted_mfu::numeric, 3) AS mfu, date_trunc('second', wall_time) AS wall_time,
       usd_per_gpu_hour, round(cost_usd, 2) AS cost_usd
  FROM plans WHERE rank <= 5 ORDER BY rank;
-- pricing as price_at and cheapest_offers read it: any case, blanks around (22023 before)
SELECT (SELECT count(*) FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', ' On_Demand ', max_age => interval '1 day'))
         AS spelled_freely,
       (SELECT count(*) FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', 'on_demand', max_age => interval '1 day'))
         AS on_demand;
-- Every plan: its spec reproduces its wall time, MFU and cost through the public functions, fits in
-- HBM, meets the deadline, is priced by an offer of its SKU, and the rows are cheapest first.
SELECT count(*) AS plans,
       count(*) FILTER (WHERE predicted_time(spec) = wall_time) AS time_reproduced,
       count(*) FILTER (WHERE predicted_mfu(spec) = predicted_mfu) AS mfu_reproduced,
       count(*) FILTER (WHERE estimate_cost(spec, usd_per_gpu_hour) = cost_usd) AS cost_reproduced,
       count(*) FILTER (WHERE mfu_time(spec) = wall_time) AS mfu_time_agrees,
       count(*) FILTER (WHERE fits_hbm(spec)) AS fit,
       count(*) FILTER (WHERE wall_time <= interval '2 days') AS meet_deadline,
       count(*) FILTER (WHERE (spec).sku = sku AND (spec).n_gpus = n_gpus AND (spec).tp = tp AND (spec).pp = pp
                          AND (spec).cp = cp AND (spec).ep = ep AND (spec).zero_stage = zero_stage
                          AND (spec).recompute = recompute AND n_gpus = tp * pp * cp * dp) AS layout_in_spec,
       count(*) FILTER (WHERE (spec).n_params = 1.3e9 AND (spec).n_tokens = 26e9 AND (spec).global_batch = 512
                          AND (spec).seq_len = 2048 AND (spec).vocab_size = 50257) AS model_in_spec,
       count(*) FILTER (WHERE _check_spec(spec)) AS valid_specs,
       bool_and(cost_usd >= coalesce(prev, 0)) AS cheapest_first
  FROM (SELECT *, lag(cost_usd) OVER (ORDER BY rank) AS prev FROM plans) p;
-- Which offers were used: only those in effect and fresh (the B200 offer is five years old).
SELECT sku, pricing, count(*) AS plans, min(n_gpus) AS min_gpus, max(n_gpus) AS max_gpus
  FROM plans GROUP BY sku, pricing ORDER BY sku, pricing;
-- L4 is sold four GPUs per instance: a run bigger than one instance needs instances of whole nodes
-- (gpus_per_node 8), which this offer is not, so its plans run on one instance (too slow for 2 days).
SELECT sku, count(*) AS plans, max(n_gpus) AS max_gpus, min(wall_time) > interval '2 days' AS slower_than_2_days
  FROM m, cheapest_plan(m.model, interval '100 years', '2027-06-02', max_age => interval '1 day')
 WHERE sku = 'L4' GROUP BY sku;
-- An offer of unknown instance size is kept for any GPU count (as cheapest_offers keeps it); a part
-- whose power is not published (Trainium2) gives specs with tdp_watts NULL, so their energy is unknown.
SELECT sku, count(*) AS plans, min(n_gpus) AS min_gpus, max(n_gpus) AS max_gpus,
       bool_and((spec).tdp_watts IS NULL AND energy_kwh(spec) IS NULL) AS energy_unknown
  FROM m, cheapest_plan(m.model, interval '100 years', '2027-06-02', max_age => interval '1 day')
 WHERE sku = 'Trainium2' GROUP BY sku;
-- pricing and max_gpus narrow the search.
SELECT count(*) AS spot_plans, bool_and(pricing = 'spot') AS all_spot
  FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', 'spot', max_age => interval '1 day');
SELECT count(*) AS plans, max(n_gpus) AS max_gpus
  FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', max_gpus => 8, max_age => interval '1 day');
-- Without max_age the B200 offer of 2025 is still in effect.
SELECT count(*) FILTER (WHERE sku = 'B200') > 0 AS b200_offered
  FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', max_gpus => 64) AS p
 WHERE provider = 'testcloud';
-- A deadline no plan meets: no rows.  The fastest plan anyway: a long deadline, ordered by wall time.
SELECT count(*) AS plans_in_1_minute
  FROM m, cheapest_plan(m.model, interval '1 minute', '2027-06-02', max_age => interval '1 day');
SELECT sku, n_gpus, tp, pp, dp, date_trunc('second', wall_time) AS fastest_wall_time, round(cost_usd, 2) AS cost_usd
  FROM m, cheapest_plan(m.model, interval '100 years', '2027-06-02', max_age => interval '1 day')
 ORDER BY wall_time, cost_usd LIMIT 1;
-- Nothing in effect yet (before every observation): no rows.
SELECT count(*) AS plans_in_2000 FROM m, cheapest_plan(m.model, interval '100 years', '2000-01-01');
ROLLBACK;

-- Bad input: 22023 naming the argument and its range.
SELECT * FROM m, cheapest_plan(m.model, interval '0 seconds', '2027-06-02');
SELECT * FROM m, cheapest_plan(m.model, interval '-1 day', '2027-06-02');
SELECT * FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', max_gpus => 0);
SELECT * FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', max_gpus => 2000000);
SELECT * FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', 'cheap');
SELECT * FROM m, cheapest_plan(m.model, interval '2 days', '2027-06-02', max_age => interval '-1 hour');
SELECT * FROM cheapest_plan(NULL, interval '2 days', '2027-06-02');
SELECT * FROM m, cheapest_plan(m.model, NULL, '2027-06-02');
SELECT * FROM m, cheapest_plan(m.model, interval '2 days', NULL);
-- A model without its shape or global batch: the step model cannot time it.
SELECT * FROM cheapest_plan(run_spec(70e9, 15e12, 8, 'H100'), interval '30 days', '2027-06-02');
SELECT * FROM cheapest_plan(run_spec(70e9, 15e12, 8, 'H100', n_layers => 80, d_model => 8192, n_heads => 64,
                                     seq_len => 8192), interval '30 days', '2027-06-02');
-- A spec built by hand (a field replaced, not through run_spec) that breaks a rule run_spec enforces: an error
-- naming the rule, as memory_per_gpu gives, not an empty result (plan_parallelism and
-- cheapest_plan returned no rows).  n_heads 3 does not divide d_model 4096.
CREATE TEMP TABLE bad AS
  SELECT jsonb_populate_record(r, '{"n_heads": 3}') AS spec
    FROM (SELECT run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 4096,
                          global_batch => 512) AS r) AS x;
SELECT count(*) FROM bad, plan_parallelism(bad.spec);
SELECT count(*) FROM bad, cheapest_plan(bad.spec, interval '30 days', '2027-06-02');
SELECT count(*) FROM bad, memory_per_gpu(bad.spec);
