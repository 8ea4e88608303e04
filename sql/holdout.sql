-- Runs the step model was not built from: data/mfu_holdout.csv (OPT, BLOOM, MT-NLG, MegaScale, MPT, PyTorch FSDP, NeMo) predicted through the public functions and reported with their errors, no tolerance.
SET search_path = llm_econ, public;

-- ---- the holdout table, exactly as sql/predicted.sql builds the validation table --------------------
-- Each row as a run_spec built by the public constructor from the shipped SKU; the network per GPU, the
-- compute precision and the software stack are the row's (the sources' clusters differ: 50 to 400 Gbit/s
-- per GPU; llm-foundry's Composer FSDP and IBM's fms-fsdp ran PyTorch without torch.compile: torch_eager).
CREATE TEMP TABLE hold (
  "row" text, framework text, source text, model text, n_params float8, n_layers int, d_model int, n_heads int,
  n_kv_heads int, ffn_hidden int, swiglu int, vocab_size int, seq_len int, global_batch int,
  micro_batch int, gpu text, n_gpus int, inter_node_gbit_per_s float8, tp int, pp int, cp int, vpp int,
  recompute text, sequence_parallel int, flash int, zero_stage int, grad_bytes int, dp_overlap int, dtype text,
  flop_convention text, published_tflops_per_gpu float8, published_fraction_of_peak float8, note text, stack text);
\copy hold FROM 'data/mfu_holdout.csv' CSV HEADER
CREATE TEMP TABLE hold_spec AS
SELECT h.*, run_spec(h.n_params, 1e12, h.n_gpus,
                     CASE h.gpu WHEN 'A100-SXM4-80GB' THEN 'A100-80GB' WHEN 'H100-SXM5-80GB' THEN 'H100-SXM5' END,
                     dtype => h.dtype,
                     n_layers => h.n_layers, d_model => h.d_model, n_heads => h.n_heads, seq_len => h.seq_len,
                     micro_batch => h.micro_batch, global_batch => h.global_batch, tp => h.tp, pp => h.pp,
                     cp => h.cp, vpp => h.vpp, zero_stage => h.zero_stage, recompute => h.recompute,
                     n_kv_heads => nullif(h.n_kv_heads, 0), ffn_hidden => nullif(h.ffn_hidden, 0),
                     ffn_act => CASE WHEN h.swiglu = 1 THEN 'swiglu' ELSE 'gelu' END, vocab_size => h.vocab_size,
                     sequence_parallel => h.sequence_parallel = 1,
                     attention => CASE WHEN h.flash = 1 THEN 'flash' ELSE 'eager' END,
                     grad_dtype => CASE WHEN h.grad_bytes = 4 THEN 'fp32' ELSE 'bf16' END,
                     inter_node_gbit_per_s => h.inter_node_gbit_per_s, stack => h.stack) AS spec
  FROM hold h;
-- FLOPs per step in each source's convention (as sql/predicted.sql): narayanan_eq3 96·B·s·l·h²·(1 + s/6h
-- + V/16lh) (Narayanan et al. 2021 eq. 3, recompute counted: Megatron-DeepSpeed's count); korthikanti_mfu
-- 72·B·s·l·h²·(1 + s/6h + V/12lh) (Korthikanti et al. 2022 §6.3; NeMo's GPT-3 count); palm_attention
-- (6N + 12·l·h·s) per token (Chowdhery et al. 2022 App. B; llm-foundry's and NanoGPT's MFU).
CREATE TEMP TABLE hold_result AS
SELECT h."row", h.framework, h.model, h.n_gpus, h.published_tflops_per_gpu AS published, h.published_fraction_of_peak,
       CASE h.flop_convention
         WHEN 'narayanan_eq3' THEN 96.0 * h.global_batch * h.seq_len * h.n_layers * h.d_model::float8 ^ 2
                                   * (1 + h.seq_len / (6.0 * h.d_model) + h.vocab_size / (16.0 * h.n_layers * h.d_model))
         WHEN 'korthikanti_mfu' THEN 72.0 * h.global_batch * h.seq_len * h.n_layers * h.d_model::float8 ^ 2
                                   * (1 + h.seq_len / (6.0 * h.d_model) + h.vocab_size / (12.0 * h.n_layers * h.d_model))
         WHEN 'palm_attention' THEN h.global_batch::float8 * h.seq_len * (6 * h.n_params + 12.0 * h.n_layers * h.d_model * h.seq_len)
       END / (h.n_gpus * b.seconds) / 1e12 AS predicted,
       predicted_mfu(h.spec, h.dp_overlap = 1) AS predicted_mfu, h.spec
  FROM hold_spec h
 CROSS JOIN LATERAL step_breakdown(h.spec, dp_overlap => h.dp_overlap = 1) AS b
 WHERE b.phase = 'total';

-- Published vs predicted TFLOP/s per GPU, every row with its error.  Reported, not asserted: no term of the
-- model was fitted to these runs, and no tolerance is claimed for them (docs/step-model.md discusses them).
SELECT "row", framework, model, n_gpus, published, round(predicted::numeric, 1) AS predicted,
       round((100 * (predicted / published - 1))::numeric, 1) AS error_pct
  FROM hold_result ORDER BY substr("row", 1, 1), length("row"), "row";
-- Per framework and overall: mean |error| and the share of rows within ±20 %.
SELECT coalesce(framework, 'all') AS framework, count(*) AS rows,
       round((avg(abs(predicted / published - 1)) * 100)::numeric, 1) AS mean_abs_error_pct,
       round((avg(predicted / published - 1) * 100)::numeric, 1) AS mean_error_pct,
       round(avg((abs(predicted / published - 1) <= 0.20)::int)::numeric, 2) AS share_within_20pct
  FROM hold_result GROUP BY ROLLUP (framework) ORDER BY framework IS NULL, framework;

-- ---- structural facts that can fail -------------------------------------------------------------------
-- Every row of the file builds a spec the step model can time (a row that does not would have failed
-- above); every predicted MFU is in (0, 1]; at least four frameworks besides Megatron-LM.
SELECT (SELECT count(*) FROM hold) AS csv_rows,
       count(*) AS timed_rows,
       count(*) FILTER (WHERE NOT (spec IS NULL) AND (spec).n_gpus = n_gpus AND predicted > 0) AS specs_built,
       bool_and(predicted_mfu > 0 AND predicted_mfu <= 1) AS mfu_in_0_1,
       count(DISTINCT framework) FILTER (WHERE framework <> 'Megatron-LM') >= 4 AS four_frameworks_beyond_megatron
  FROM hold_result;
-- None of them is a run the model was built from: no row repeats a row of data/mfu_validation.csv (same
-- shape, GPU count and published figure).
CREATE TEMP TABLE val (
  "row" text, source text, model text, n_params float8, n_layers int, d_model int, n_heads int,
  n_kv_heads int, ffn_hidden int, swiglu int, vocab_size int, seq_len int, global_batch int,
  micro_batch int, gpu text, n_gpus int, tp int, pp int, cp int, vpp int, recompute text,
  sequence_parallel int, flash int, zero_stage int, grad_bytes int, dp_overlap int,
  flop_convention text, published_tflops_per_gpu float8, published_fraction_of_peak float8,
  tolerance float8, note text);
\copy val FROM 'data/mfu_validation.csv' CSV HEADER
SELECT count(*) AS holdout_rows_in_validation
  FROM hold h JOIN val v USING (n_layers, d_model, n_gpus, published_tflops_per_gpu);
-- Every row names its source and says what it assumed.
SELECT count(*) FILTER (WHERE coalesce(source, '') = '' OR coalesce(note, '') = '') AS rows_without_source_or_note
  FROM hold;

-- ---- what the fully sharded rows depend on ------------------------------------------------------------
-- IBM gives 400 Gbit/s (A100) and 800 Gbit/s (H100) for its clusters, read in the file as per node.  Read
-- per GPU instead (8x), the model's MFU (6N convention) against the published MFU (PaLM convention):
SELECT h."row", h.model, h.n_gpus, h.published_fraction_of_peak AS published_mfu,
       round(predicted_mfu(h.spec)::numeric, 3) AS predicted_mfu_per_node_reading,
       round(predicted_mfu(run_spec(h.n_params, 1e12, h.n_gpus, (h.spec).sku, n_layers => h.n_layers,
                                    d_model => h.d_model, n_heads => h.n_heads, n_kv_heads => nullif(h.n_kv_heads, 0),
                                    ffn_hidden => h.ffn_hidden, ffn_act => 'swiglu', vocab_size => h.vocab_size,
                                    seq_len => h.seq_len, micro_batch => h.micro_batch, global_batch => h.global_batch,
                                    zero_stage => h.zero_stage, recompute => h.recompute, sequence_parallel => false,
                                    inter_node_gbit_per_s => 8 * h.inter_node_gbit_per_s, stack => h.stack))::numeric, 3)
         AS predicted_mfu_per_gpu_reading
  FROM hold_spec h WHERE h.framework LIKE 'PyTorch FSDP%' ORDER BY length(h."row"), h."row";
