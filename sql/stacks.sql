-- Published runs per software stack (issue 46): data/mfu_stacks.csv (torchtitan eager / compile / Float8 on H100 and A100, TinyLlama) predicted through the public functions, with their errors.
SET search_path = llm_econ, public;

-- ---- the table, built as sql/holdout.sql builds its rows ----------------------------------------------
-- Each row as a run_spec from the shipped SKU with the row's stack, dtype, layout and network per GPU.
-- Where the source ran another part than the shipped SKU (torchtitan's H100 rows: HBM2e at 2.4 TB/s and
-- 500 W, peak "between SXM and NVL"), the row's gpu_* columns give the part as the source states it: the
-- spec's frozen HBM bandwidth and peak are replaced (jsonb_populate_record, as a user describes a part
-- gpu_sku lacks), the peak at the middle of the stated range, and both ends are predicted too.
-- Compared in tokens per second per GPU, which every source publishes and which needs no FLOP convention:
-- predicted = global_batch · seq_len / (n_gpus · step seconds).
CREATE TEMP TABLE stk (
  "row" text, stack text, dtype text, framework text, source text, model text, n_params float8, n_layers int,
  d_model int, n_heads int, n_kv_heads int, ffn_hidden int, swiglu int, vocab_size int, seq_len int,
  global_batch int, micro_batch int, gpu text, n_gpus int, inter_node_gbit_per_s float8, tp int, pp int, cp int,
  vpp int, recompute text, zero_stage int, published_tokens_per_s_per_gpu float8, note text,
  gpu_peak_bf16_tflops_low float8, gpu_peak_bf16_tflops_high float8, gpu_hbm_gb_per_s float8, gpu_source text);
\copy stk FROM 'data/mfu_stacks.csv' CSV HEADER
CREATE TEMP TABLE stk_spec AS
SELECT s.*, run_spec(s.n_params, 1e12, s.n_gpus, s.gpu, dtype => s.dtype, stack => s.stack,
                     n_layers => s.n_layers, d_model => s.d_model, n_heads => s.n_heads, seq_len => s.seq_len,
                     micro_batch => s.micro_batch, global_batch => s.global_batch, tp => s.tp, pp => s.pp,
                     cp => s.cp, vpp => s.vpp, zero_stage => s.zero_stage, recompute => s.recompute,
                     n_kv_heads => nullif(s.n_kv_heads, 0), ffn_hidden => nullif(s.ffn_hidden, 0),
                     ffn_act => CASE WHEN s.swiglu = 1 THEN 'swiglu' ELSE 'gelu' END, vocab_size => s.vocab_size,
                     inter_node_gbit_per_s => s.inter_node_gbit_per_s) AS sku_spec
  FROM stk s;
-- the part as the source states it: peak (fp8 twice bf16, as both datasheets give it) and HBM bandwidth
CREATE FUNCTION pg_temp.as_run(spec run_spec, tflops float8, hbm_gb_per_s float8, dtype text) RETURNS run_spec
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN tflops IS NULL THEN spec
              ELSE jsonb_populate_record(spec, jsonb_build_object(
                     'peak_flops', tflops * 1e12 * CASE WHEN dtype = 'fp8' THEN 2 ELSE 1 END,
                     'hbm_bytes_per_s', hbm_gb_per_s * 1e9)) END $$;
CREATE TEMP TABLE stk_result AS
SELECT s."row", s.stack, s.dtype, s.framework, s.model, s.n_gpus, s.seq_len, s.cp,
       s.published_tokens_per_s_per_gpu AS published, s.gpu_peak_bf16_tflops_low IS NOT NULL AS stated_part,
       s.global_batch::float8 * s.seq_len / (s.n_gpus * b.seconds) AS predicted,
       s.global_batch::float8 * s.seq_len / (s.n_gpus * lo.seconds) AS predicted_low_peak,
       s.global_batch::float8 * s.seq_len / (s.n_gpus * hi.seconds) AS predicted_high_peak, x.spec
  FROM stk_spec s
 CROSS JOIN LATERAL (SELECT pg_temp.as_run(s.sku_spec, (s.gpu_peak_bf16_tflops_low + s.gpu_peak_bf16_tflops_high) / 2,
                                           s.gpu_hbm_gb_per_s, s.dtype) AS spec) x
 CROSS JOIN LATERAL step_breakdown(x.spec) AS b
 CROSS JOIN LATERAL step_breakdown(pg_temp.as_run(s.sku_spec, s.gpu_peak_bf16_tflops_low, s.gpu_hbm_gb_per_s, s.dtype)) AS lo
 CROSS JOIN LATERAL step_breakdown(pg_temp.as_run(s.sku_spec, s.gpu_peak_bf16_tflops_high, s.gpu_hbm_gb_per_s, s.dtype)) AS hi
 WHERE b.phase = 'total' AND lo.phase = 'total' AND hi.phase = 'total';

-- Published vs predicted tokens/s per GPU, every row with its error (reported, not asserted: no term of the
-- model was fitted to these runs; docs/step-model.md discusses them).
-- The H100 rows' peak is known only as a range: predicted at its middle (error_pct), and at its two ends.
SELECT "row", stack, dtype, model, n_gpus, seq_len, cp, published, round(predicted::numeric) AS predicted,
       round((100 * (predicted / published - 1))::numeric, 1) AS error_pct,
       CASE WHEN stated_part THEN round(predicted_low_peak::numeric) || '-' || round(predicted_high_peak::numeric) END
         AS over_stated_peak_range
  FROM stk_result ORDER BY substr("row", 1, 2), length("row"), "row";
-- Per stack and dtype, and overall: mean and worst error, the share within ±20 % and the rows off by more
-- than 1.5× (issue 46's "done when": at least 70 % within ±20 %, none beyond 1.5×).
SELECT coalesce(sd, 'all') AS stack, count(*) AS rows,
       round((avg(abs(predicted / published - 1)) * 100)::numeric, 1) AS mean_abs_error_pct,
       round((avg(predicted / published - 1) * 100)::numeric, 1) AS mean_error_pct,
       round((max(abs(predicted / published - 1)) * 100)::numeric, 1) AS worst_abs_error_pct,
       round(avg((abs(predicted / published - 1) <= 0.20)::int)::numeric, 2) AS share_within_20pct,
       count(*) FILTER (WHERE predicted / published > 1.5 OR published / predicted > 1.5) AS off_by_more_than_1_5x
  FROM (SELECT stack || ' ' || dtype AS sd, * FROM stk_result) r GROUP BY ROLLUP (sd) ORDER BY sd IS NULL, sd;

-- FP8 as trained: the same spec in bf16 and fp8 (TT2 and TT3, TT4 and TT6): the model's speed-up against the
-- published one (8,532 / 6,667 = 1.28; 8,380 / 6,514 = 1.29).  Before 0.5.0 the model said 1.8-1.96.
SELECT f."row" AS fp8_row, b."row" AS bf16_row, round((f.published / b.published)::numeric, 3) AS published_speedup,
       round((f.predicted / b.predicted)::numeric, 3) AS predicted_speedup,
       f.predicted / b.predicted BETWEEN 1.1 AND 1.6 AS within_1_1_to_1_6
  FROM stk_result f JOIN stk_result b ON b."row" IN ('TT2', 'TT4') AND f."row" = CASE b."row" WHEN 'TT2' THEN 'TT3' ELSE 'TT6' END
 ORDER BY f."row";

-- Op-level selective checkpointing as torchtitan runs it (every second GEMM of a block and every memory-bound
-- op recomputed): the same 13B run on 64 A100 without checkpointing (TA3) and with it (TA4), published
-- 2,162 / 1,904 = 1.135.  Before 0.5.0's term the model said 1.000 (selective recomputed nothing).
SELECT n."row" AS without_row, r."row" AS selective_row, round((n.published / r.published)::numeric, 3) AS published_cost,
       round((n.predicted / r.predicted)::numeric, 3) AS predicted_cost
  FROM stk_result n JOIN stk_result r ON n."row" = 'TA3' AND r."row" = 'TA4';

-- The stack decides the memory-bound ops: the same 8B spec on the three stacks (bf16), op by op.
SELECT s.stack, b.phase, round(b.seconds::numeric, 4) AS seconds
  FROM (VALUES ('megatron'), ('torch_compile'), ('torch_eager')) AS s(stack)
 CROSS JOIN LATERAL step_breakdown((SELECT run_spec(x.n_params, 1e12, x.n_gpus, x.gpu, stack => s.stack,
                     n_layers => x.n_layers, d_model => x.d_model, n_heads => x.n_heads, seq_len => x.seq_len,
                     micro_batch => x.micro_batch, global_batch => x.global_batch, zero_stage => x.zero_stage,
                     recompute => x.recompute, n_kv_heads => x.n_kv_heads, ffn_hidden => x.ffn_hidden,
                     ffn_act => 'swiglu', vocab_size => x.vocab_size) FROM stk x WHERE x."row" = 'TT1')) AS b
 WHERE b.phase IN ('compute', 'memory_bound_ops', 'total')
 ORDER BY s.stack, b.phase;

-- ---- structural facts that can fail -------------------------------------------------------------------
SELECT (SELECT count(*) FROM stk) AS csv_rows, count(*) AS timed_rows,
       count(DISTINCT stack || ' ' || dtype) AS stack_dtypes,
       bool_and((spec).stack = stack) AS spec_keeps_stack,
       bool_and(predicted > 0) AS all_predicted,
       bool_and(NOT stated_part OR ((spec).hbm_bytes_per_s = 2.4e12 AND predicted_low_peak < predicted
                                    AND predicted < predicted_high_peak)) AS stated_parts_applied,
       count(*) FILTER (WHERE stated_part) AS rows_on_stated_parts
  FROM stk_result;
SELECT count(*) FILTER (WHERE coalesce(source, '') = '' OR coalesce(note, '') = '') AS rows_without_source_or_note
  FROM stk;
