-- Modern runs (0.3.0): mixture of experts, GQA, FlashAttention, sequence/context/uneven pipeline
-- parallelism, fp32 gradients, driver-reported HBM, the network in Gbit/s; against published runs.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- ---- units ---------------------------------------------------------------------------------------
-- inter_node_gbit_per_s is Gbit/s, as NICs are sold: one NDR400 port per GPU = 400 Gbit/s = 50e9 B/s.
-- (0.2.0's inter_node_gbps => 400 meant 400 GB/s, 8x too fast.)
SELECT g AS inter_node_gbit_per_s, (run_spec(7e9, 1e12, 64, 'H100', inter_node_gbit_per_s => g)).inter_node_bytes_per_s
  FROM unnest(ARRAY[400, 200, 3200]) AS g ORDER BY g;
-- HBM as the driver reports it (nvidia-smi memory.total, MiB x 2^20); hbm_gb x 1e9 where not published.
SELECT sku, hbm_gb, hbm_bytes, (run_spec(1e9, 1e10, 1, sku)).hbm_bytes AS frozen_bytes,
       round(((run_spec(1e9, 1e10, 1, sku)).hbm_bytes / 2^20)::numeric) AS mib
  FROM gpu_sku WHERE sku IN ('H100-SXM5', 'H800', 'H200-SXM5', 'B200', 'A100-80GB', 'L4') ORDER BY sku;
-- B200 as HGX systems sell it: 180 GB, dense FP32 75, TF32 1.1 PF (0.2.0: 192 GB, 80, no TF32).
SELECT sku, hbm_gb, fp32_tflops, tf32_tflops, bf16_tflops, fp8_tflops, nvlink_gb_per_s, gpus_per_node
  FROM gpu_sku WHERE sku IN ('B200', 'GB200', 'H800', 'H100-SXM5') ORDER BY sku;
-- A user's SKU need not know its host link: pcie_gb_per_s defaults to 64 (PCIe 4.0 x16).
BEGIN;
INSERT INTO gpu_sku (sku, vendor, name, hbm_gb, bf16_tflops, gpus_per_node, tdp_watts, source)
VALUES ('MY-NPU', 'Acme', 'Acme NPU', 64, 400, 8, 500, 'vendor sheet');
SELECT pcie_gb_per_s, hbm_bytes IS NULL AS hbm_bytes_unpublished,
       (run_spec(1e9, 1e10, 8, 'MY-NPU')).intra_node_bytes_per_s AS intra, (run_spec(1e9, 1e10, 8, 'MY-NPU')).hbm_bytes AS hbm
  FROM gpu_sku WHERE sku = 'MY-NPU';
ROLLBACK;
-- Every shipped part cites a source and has a dense peak at some precision.
SELECT count(*) AS skus, count(*) FILTER (WHERE source = '') AS unsourced,
       count(*) FILTER (WHERE num_nonnulls(fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops) = 0) AS no_peak
  FROM gpu_sku WHERE builtin;

-- ---- FLOPs: active parameters, attention FLOPs -----------------------------------------------------
-- DeepSeek-V3 (arXiv 2412.19437): 671B parameters, 37B active per token, 14.8T tokens.
-- 6 x 37e9 x 14.8e12 = 3.29e24; as a dense 671B model it would be 18x that.
SELECT training_flops(run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8)) AS moe_flops,
       round((training_flops(run_spec(671e9, 14.8e12, 2048, 'H800'))
              / training_flops(run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8)))::numeric, 1) AS dense_over_moe;
-- Its published 2,664K H800-hours of pre-training at $2 per GPU-hour ($5.328M; $5.576M with the
-- later stages' 124K hours): the implied MFU against the BF16 peak, and the cost back at that MFU.
SELECT round(achieved_mfu(s, make_interval(hours => 2664000 / 2048))::numeric, 3) AS implied_mfu,
       round(gpu_hours(run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8,
                                mfu => achieved_mfu(s, make_interval(hours => 2664000 / 2048))))::numeric) AS gpu_hours,
       round(estimate_cost(run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8,
                                    mfu => achieved_mfu(s, make_interval(hours => 2664000 / 2048))), 2.00)) AS usd
  FROM run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8) AS s;
-- PaLM's convention (App. B): 6N + 12·L·d_model·seq_len per token.  Llama-3-8B's shape at 8K context:
-- attention is 12·32·4096·8192 = 12.9e9 FLOPs per token, 27% of the 6N = 48e9 (issue 14).
SELECT training_flops(s) AS six_nd, training_flops(s, attention_flops => true) AS with_attention,
       round((training_flops(s, true) / training_flops(s) - 1)::numeric, 3) AS attention_share
  FROM run_spec(8e9, 15e12, 1024, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 8192) AS s;
SELECT training_flops(run_spec(8e9, 15e12, 1024, 'H100'), attention_flops => true);

-- ---- activations (Korthikanti et al. 2022, Table 2; GPT-3 175B's layer: s 2048, h 12288, a 96, t 8) --
-- One layer, one micro-batch (n_layers 1).  sbh = 25,165,824; 5as/h = 80.
--   tensor parallel only, eager:  sbh(10 + 24/t + 5as/(ht)) = sbh x 23 = 578,813,952
--   sequence parallel, eager:     sbh(34 + 5as/h)/t         = sbh x 14.25 = 358,612,992
--   sequence parallel, flash:     34·sbh/t + 4·a·s·b/t (fp32 softmax statistics) = 106,954,752 + 98,304
--   tensor parallel only, flash:  sbh(10 + 24/t) + 4·a·s·b/t = 327,155,712 + 98,304
--   full recompute, SP:           2·sbh/t + the recomputed layer; without SP 2·sbh + the layer
-- (n_params 1.8e9: what one layer of this shape holds, 12·h²; a spec's counts must match its shape;
-- dropout => true: Korthikanti's GPT models train with dropout, whose masks the 34 and the 5 include)
SELECT sp, attention, recompute, (m).activation_bytes
  FROM (VALUES (false, 'eager', 'none'), (true, 'eager', 'none'), (true, 'flash', 'none'), (false, 'flash', 'none'),
               (true, 'eager', 'full'), (false, 'eager', 'full')) AS t(sp, attention, recompute),
       LATERAL memory_per_gpu(run_spec(1.8e9, 300e9, 8, 'A100-80GB', n_layers => 1, d_model => 12288, n_heads => 96,
                                       seq_len => 2048, tp => 8, sequence_parallel => sp, attention => attention,
                                       recompute => recompute, dropout => true)) AS m
 ORDER BY sp, attention, recompute;
-- GPT-3 at TP8 without sequence parallelism: 96 layers x 8 micro-batches... on one stage (pp 1) the
-- 96 layers need sbh(10 + 24/8) = 13·sbh each with FlashAttention: 31.4 GB (issue 14: "about 31 GB";
-- 0.2.0 forced sequence parallelism on and said 10 GB).
SELECT round(((m).activation_bytes / 1e9)::numeric, 1) AS activation_gb
  FROM memory_per_gpu(run_spec(175e9, 300e9, 8, 'A100-80GB', n_layers => 96, d_model => 12288, n_heads => 96,
                               seq_len => 2048, tp => 8, sequence_parallel => false, dropout => true)) AS m;
-- GQA keeps K and V at n_kv_heads/n_heads; SwiGLU keeps 6·f/h instead of GELU's 4·f/h; context
-- parallelism halves the sequence per GPU; fp8 keeps GEMM inputs in one byte.  Llama-3-8B's layer
-- (h 4096, a 32, kv 8, f 14336, s 8192), one micro-batch, bytes per layer (n_params 2e8: about one
-- layer's 176M-218M parameters, as the shape check asks).  Llama trains without dropout (the default
-- since 0.4.0): no masks, so MHA with GELU 4h keeps 32·sbh = 1,073,741,824 (+ 1,048,576 of softmax
-- statistics), 2·sbh = 67,108,864 less than 0.3.0 counted:
SELECT label, (m).activation_bytes
  FROM (VALUES
    ('1 MHA, GELU 4h',        run_spec(2e8, 1e12, 8, 'H100', n_layers => 1, d_model => 4096, n_heads => 32, seq_len => 8192)),
    ('2 GQA kv 8, GELU 4h',   run_spec(2e8, 1e12, 8, 'H100', n_layers => 1, d_model => 4096, n_heads => 32, seq_len => 8192, n_kv_heads => 8)),
    ('3 GQA, SwiGLU 14336',   run_spec(2e8, 1e12, 8, 'H100', n_layers => 1, d_model => 4096, n_heads => 32, seq_len => 8192, n_kv_heads => 8,
                                       ffn_hidden => 14336, ffn_act => 'swiglu')),
    ('4 same, cp 2',          run_spec(2e8, 1e12, 8, 'H100', n_layers => 1, d_model => 4096, n_heads => 32, seq_len => 8192, n_kv_heads => 8,
                                       ffn_hidden => 14336, ffn_act => 'swiglu', cp => 2)),
    ('5 same, fp8',           run_spec(2e8, 1e12, 8, 'H100', n_layers => 1, d_model => 4096, n_heads => 32, seq_len => 8192, n_kv_heads => 8,
                                       ffn_hidden => 14336, ffn_act => 'swiglu', dtype => 'fp8'))
  ) AS t(label, s), LATERAL memory_per_gpu(s) AS m
 ORDER BY label;
-- The logits of a 128,256-token vocabulary at 8K: 4·s·b·V = 4.2 GB on the last stage; the embedding
-- and output layer add 2·V·h parameters' states.  Unknown vocab_size leaves them out.
SELECT label, round(((m).activation_bytes / 1e9)::numeric, 2) AS activation_gb,
       round(((m).weights_bytes / 2 / 1e9)::numeric, 3) AS params_billion
  FROM (VALUES
    ('vocab unknown', run_spec(7.5e9, 15e12, 1, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 8192)),
    ('vocab 128256',  run_spec(7.5e9, 15e12, 1, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 8192,
                               vocab_size => 128256))
  ) AS t(label, s), LATERAL memory_per_gpu(s) AS m
 ORDER BY label;

-- ---- pipelines ---------------------------------------------------------------------------------------
-- Llama 3 405B: 126 layers on 16 stages (0.2.0: "pp must divide n_layers").  Stages hold 7, 8 x 14, 7
-- (the extra layers on the middle stages, as Llama 3 did); the heaviest is stage 1: 8 layers, 15
-- micro-batches in flight.
SELECT (run_spec(405e9, 15.6e12, 16384, 'H100', n_layers => 126, tp => 8, pp => 16)).pp AS pp,
       round(((m).weights_bytes / 2)::numeric) AS params_per_gpu, round(405e9 * 8 / 126 / 8) AS eight_layers_over_tp
  FROM memory_per_gpu(run_spec(405e9, 15.6e12, 16384, 'H100', n_layers => 126, tp => 8, pp => 16)) AS m;
-- Interleaved 1F1B (vpp virtual stages) keeps L·(1 + (p−1)/(p·v)) on the first stage: p 8, v 2 -> 1.4375, v 5 -> 1.175.
SELECT v AS vpp, (m).activation_bytes / first_value((m).activation_bytes) OVER (ORDER BY v) AS vs_plain_1f1b
  FROM unnest(ARRAY[1, 2, 5]) AS v,
       LATERAL memory_per_gpu(run_spec(70e9, 2e12, 512, 'H100', n_layers => 80, d_model => 8192, n_heads => 64,
                                       seq_len => 4096, tp => 8, pp => 8, vpp => v)) AS m
 ORDER BY v;
-- Pipeline traffic is on NVLink where neighbouring stages share a node: all of it for 8 stages on one
-- 8-GPU node; for 16 stages on two nodes 1 sender in 8 crosses to the other node; with dp 8 between
-- stages (stride 8) every stage boundary is a node boundary.
SELECT n_gpus, pp, link, round((bytes / sum(bytes) OVER (PARTITION BY n_gpus))::numeric, 3) AS share
  FROM (VALUES (8, 8), (16, 16), (128, 16)) AS t(n_gpus, pp),
       LATERAL comm_breakdown(run_spec(7e9, 1e12, n_gpus, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                                       seq_len => 4096, global_batch => 64, pp => pp)) AS b
 WHERE parallelism = 'pp' ORDER BY n_gpus, link;

-- ---- framework conventions: fp32 gradients ------------------------------------------------------------
-- Megatron-LM's default keeps fp32 main gradients: 2 + 4 + 12 = 18 bytes per parameter, and the
-- data-parallel gradient collectives move fp32, twice the bytes (weights are still gathered in bf16).
SELECT z AS zero_stage, gd AS grad_dtype,
       ((m).weights_bytes + (m).grads_bytes + (m).optimizer_bytes) / 7e9 AS state_bytes_per_param,
       b.collective, b.bytes
  FROM unnest(ARRAY[0, 1]) AS z, unnest(ARRAY['bf16', 'fp32']) AS gd,
       LATERAL memory_per_gpu(run_spec(7e9, 1e12, 64, 'H100', zero_stage => z, grad_dtype => gd)) AS m,
       LATERAL comm_breakdown(run_spec(7e9, 1e12, 64, 'H100', zero_stage => z, grad_dtype => gd)) AS b
 ORDER BY z, gd, b.collective;

-- ---- mixture of experts: memory and traffic -------------------------------------------------------------
-- DeepSeek-V3's published layout: 2048 H800, PP16, EP64, ZeRO-1 data parallelism, no TP; 61 layers,
-- h 7168, 128 heads, 256 routed experts (top 8) of inner size 2048, vocabulary 129,280, 4K sequences,
-- FP8 training.  Expert parameters (654e9) are sharded over pp·ep, their optimizer over dp/ep = 2.
SELECT round(((m).weights_bytes / 1e9)::numeric, 2) AS weights_gb, round(((m).grads_bytes / 1e9)::numeric, 2) AS grads_gb,
       round(((m).optimizer_bytes / 1e9)::numeric, 2) AS optimizer_gb, round(((m).activation_bytes / 1e9)::numeric, 1) AS activation_gb,
       round(((m).total_bytes / 1e9)::numeric, 1) AS total_gb, round(((m).hbm_bytes / 1e9)::numeric, 1) AS hbm_gb, fits_hbm(s) AS fits
  FROM run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8, ep => 64, pp => 16,
                zero_stage => 1, n_layers => 61, d_model => 7168, n_heads => 128, seq_len => 4096, ffn_hidden => 2048,
                ffn_act => 'swiglu', vocab_size => 129280, global_batch => 15360, dtype => 'fp8') AS s,
       LATERAL memory_per_gpu(s) AS m;
-- As one 671B dense model its states alone would not fit (issue 14: 0.2.0 called the layout impossible).
SELECT fits_hbm(run_spec(671e9, 14.8e12, 2048, 'H800', pp => 16, zero_stage => 1, n_layers => 61)) AS dense_671b_fits;
-- Its traffic: four all-to-alls per MoE layer and micro-batch (dispatch + combine, forward + backward),
-- b·s·h·top_k bytes each, (ep−1)/ep of it sent; EP64 spans 8 nodes, so it is on the network.  (The
-- published expert size, ffn_hidden 2048 SwiGLU, is given: without it the shape would hold 6.4T.)
SELECT parallelism, collective, link, round((bytes / 1e9)::numeric, 1) AS gb_per_step
  FROM comm_breakdown(run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8, ep => 64,
                               pp => 16, zero_stage => 1, n_layers => 61, d_model => 7168, n_heads => 128, seq_len => 4096,
                               ffn_hidden => 2048, ffn_act => 'swiglu', global_batch => 15360, dtype => 'fp8'))
 ORDER BY parallelism, collective;
-- ... the formula: 4 all-to-alls x 4 layers (stage 1) x 120 micro-batches x 63/64 x b·s·h·top_k x 2 bytes.
SELECT bytes = 4 * 4 * 120 * (63.0 / 64) * 4096 * 7168 * 8 * 2 AS all_to_all_as_formula
  FROM comm_breakdown(run_spec(671e9, 14.8e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8, ep => 64,
                               pp => 16, zero_stage => 1, n_layers => 61, d_model => 7168, n_heads => 128, seq_len => 4096,
                               ffn_hidden => 2048, ffn_act => 'swiglu', global_batch => 15360, dtype => 'fp8'))
 WHERE parallelism = 'ep';
-- Context parallelism passes K/V chunks round the ring: 3(cp−1) chunks per layer and micro-batch,
-- each 2·(s/cp)·b·h·(kv/a)·2 bytes: cp 2 -> 3 x 1 x 32 layers x 2 x 65536·4096·2 x 8/32 = 25,769,803,776.
SELECT cp, parallelism, collective, link, bytes
  FROM unnest(ARRAY[2, 4]) AS cp,
       LATERAL comm_breakdown(run_spec(8e9, 1e12, 8, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, n_kv_heads => 8,
                                       seq_len => 131072, global_batch => 8 / cp, cp => cp)) AS b
 WHERE parallelism = 'cp' ORDER BY cp;

-- ---- published vs computed ----------------------------------------------------------------------------
-- Twelve published runs, each with its published layout (or, where none is published, the one
-- noted), as the README's table shows them: FLOPs (6·N_active·D), the published GPU-hours, the MFU they
-- imply, memory per GPU of the layout and whether it fits.  N is the non-embedding count from the
-- shape (L·(2h²(1 + kv/a) + c·h·f), c = 3 for SwiGLU, 2 for GELU) for dense models, the published
-- totals for the two mixtures of experts.
CREATE TEMP TABLE published (run text, sku text, n_gpus int, n_params float8, n_active float8, n_experts int, top_k int,
                             n_tokens float8, gpu_hours float8, tp int, pp int, ep int, zero int, recompute text,
                             sp boolean, attention text, grad_dtype text, dtype text,
                             n_layers int, d_model int, n_heads int, n_kv int, ffn int, act text, vocab int, seq int, gbatch int);
INSERT INTO published VALUES
  -- Touvron et al. 2023 (Llama 2), Table 2 / model card: A100-80GB hours; layout not published: ZeRO-3 (FSDP) assumed
  ('Llama 2 7B',    'A100-80GB', 1024, NULL, NULL, NULL, NULL, 2e12,  184320, 1, 1, 1, 3, 'none', true, 'flash', 'bf16', 'bf16', 32, 4096, 32, 32, 11008, 'swiglu', 32000, 4096, 1024),
  ('Llama 2 13B',   'A100-80GB', 1024, NULL, NULL, NULL, NULL, 2e12,  368640, 1, 1, 1, 3, 'none', true, 'flash', 'bf16', 'bf16', 40, 5120, 40, 40, 13824, 'swiglu', 32000, 4096, 1024),
  ('Llama 2 70B',   'A100-80GB', 2048, NULL, NULL, NULL, NULL, 2e12, 1720320, 8, 1, 1, 3, 'none', true, 'flash', 'bf16', 'bf16', 80, 8192, 64, 8, 28672, 'swiglu', 32000, 4096, 1024),
  -- Llama 3.1 model card (H100-80GB hours); 405B: Llama 3 report Table 4 (TP8 PP16 DP128, 16M-token batches,
  -- FSDP sharding gradients and optimizer: ZeRO-2, fp32 gradient reduction); 8B and 70B layouts assumed
  ('Llama 3.1 8B',  'H100-SXM5', 1024, NULL, NULL, NULL, NULL, 15e12,  1460000, 1, 1, 1, 3, 'none', true, 'flash', 'bf16', 'bf16', 32, 4096, 32, 8, 14336, 'swiglu', 128256, 8192, 1024),
  ('Llama 3.1 70B', 'H100-SXM5', 2048, NULL, NULL, NULL, NULL, 15e12,  7000000, 8, 4, 1, 1, 'none', true, 'flash', 'bf16', 'bf16', 80, 8192, 64, 8, 28672, 'swiglu', 128256, 8192, 512),
  ('Llama 3.1 405B','H100-SXM5', 16384, NULL, NULL, NULL, NULL, 15.6e12, 30840000, 8, 16, 1, 2, 'none', true, 'flash', 'fp32', 'bf16', 126, 16384, 128, 8, 53248, 'swiglu', 128256, 8192, 2048),
  -- DeepSeek-V3 report: 2,664K H800-hours of pre-training, 2048 H800, PP16, EP64, ZeRO-1, FP8
  ('DeepSeek-V3',   'H800', 2048, 671e9, 37e9, 256, 8, 14.8e12, 2664000, 1, 16, 64, 1, 'none', true, 'flash', 'bf16', 'fp8', 61, 7168, 128, 128, 2048, 'swiglu', 129280, 4096, 15360),
  -- DeepSeek-V2 report (arXiv 2405.04434): 172.8K H800-hours per trillion tokens, 8.1T tokens, PP16, EP8,
  -- ZeRO-1, BF16; GPU count not published: 1024 assumed
  ('DeepSeek-V2',   'H800', 1024, 236e9, 21e9, 160, 6, 8.1e12, 1399680, 1, 16, 8, 1, 'none', true, 'flash', 'bf16', 'bf16', 60, 5120, 128, 128, 1536, 'swiglu', 102400, 4096, 9216),
  -- GPT-3 175B (Brown et al. 2020 shape, 300B tokens) as Narayanan et al. 2021 §5.1 estimate it: 34 days on
  -- 1024 A100 (TP8 PP8, full recomputation, no sequence parallelism, no FlashAttention)
  ('GPT-3 175B',    'A100-80GB', 1024, NULL, NULL, NULL, NULL, 300e9, 835584, 8, 8, 1, 0, 'full', false, 'eager', 'bf16', 'bf16', 96, 12288, 96, 96, 49152, 'gelu', 51200, 2048, 1536),
  -- BLOOM (BigScience 2022, arXiv 2211.05100): 1,082,990 A100-80GB hours, 366B tokens, 384 GPUs, TP4 PP12
  -- DP8, ZeRO-1, activation checkpointing
  ('BLOOM 176B',    'A100-80GB', 384, NULL, NULL, NULL, NULL, 366e9, 1082990, 4, 12, 1, 1, 'full', false, 'eager', 'bf16', 'bf16', 70, 14336, 112, 112, 57344, 'gelu', 250880, 2048, 2048),
  -- OPT-175B (Zhang et al. 2022): 992 A100-80GB, FSDP (ZeRO-3) with TP8, 180B tokens, 147 TFLOP/s per GPU
  -- reported: GPU-hours = 6ND / 147e12 / 3600
  ('OPT-175B',      'A100-80GB', 992, NULL, NULL, NULL, NULL, 180e9, 6 * 173.9e9 * 180e9 / 147e12 / 3600, 8, 1, 1, 3, 'full', false, 'eager', 'bf16', 'bf16', 96, 12288, 96, 96, 49152, 'gelu', 50272, 2048, NULL),
  -- Megatron-LM 1T (Narayanan et al. 2021): 3072 A100, TP8 PP64 DP6, 450B tokens in an estimated 84 days
  ('Megatron 1T',   'A100-80GB', 3072, NULL, NULL, NULL, NULL, 450e9, 84 * 24 * 3072, 8, 64, 1, 0, 'full', false, 'eager', 'bf16', 'bf16', 128, 25600, 160, 160, 102400, 'gelu', 51200, 2048, 3072);
-- Attention and dropout as published: DeepSeek-V2 (arXiv 2405.04434 §3.1.2) and V3 (arXiv 2412.19437
-- §4.2, config.json) use latent attention with d_c 512, d_c' 1536, d_h 128, d_h^R 64 (value heads 128);
-- GPT-3 and Megatron 1T ran Megatron-LM with its default dropout 0.1, OPT used dropout 0.1 (Zhang et al.
-- 2022 §2.2); the Llama and DeepSeek models train without.  (BLOOM: left at the default.)
ALTER TABLE published ADD COLUMN q_rank int, ADD COLUMN kv_rank int, ADD COLUMN d_nope int, ADD COLUMN d_rope int,
                      ADD COLUMN d_v int, ADD COLUMN dropout boolean NOT NULL DEFAULT false;
-- DeepSeek-V3 recomputes the MLA up projections in the backward (§3.2.3): recompute 'selective', which
-- with latent attention keeps the latents and not Q, K, V.  DeepSeek-V2's report does not say; the same
-- is assumed.  (Keeping Q, K and V neither published layout fits in 80 GB.)
UPDATE published SET q_rank = 1536, kv_rank = 512, d_nope = 128, d_rope = 64, d_v = 128, recompute = 'selective'
 WHERE run LIKE 'DeepSeek%';
UPDATE published SET dropout = true WHERE run IN ('GPT-3 175B', 'Megatron 1T', 'OPT-175B');
CREATE TEMP TABLE published_spec AS
  SELECT p.run, run_spec(coalesce(p.n_params, p.n_layers * (2.0 * p.d_model ^ 2 * (1 + p.n_kv::float8 / p.n_heads)
                                                         + (CASE p.act WHEN 'swiglu' THEN 3 ELSE 2 END) * p.d_model::float8 * p.ffn)),
                         p.n_tokens, p.n_gpus, p.sku, dtype => p.dtype, n_layers => p.n_layers, d_model => p.d_model,
                         n_heads => p.n_heads, seq_len => p.seq, global_batch => p.gbatch, tp => p.tp, pp => p.pp,
                         zero_stage => p.zero, recompute => p.recompute, n_active_params => p.n_active,
                         n_experts => p.n_experts, top_k => p.top_k, ep => p.ep, n_kv_heads => p.n_kv, ffn_hidden => p.ffn,
                         ffn_act => p.act, vocab_size => p.vocab, sequence_parallel => p.sp, attention => p.attention,
                         grad_dtype => p.grad_dtype, q_lora_rank => p.q_rank, kv_lora_rank => p.kv_rank,
                         qk_nope_head_dim => p.d_nope, qk_rope_head_dim => p.d_rope, v_head_dim => p.d_v,
                         dropout => p.dropout) AS spec, p.gpu_hours
    FROM published p;
SELECT run, (spec).sku, (spec).n_gpus AS gpus,
       format('tp%s pp%s%s zero%s %s', (spec).tp, (spec).pp, CASE WHEN (spec).ep > 1 THEN ' ep' || (spec).ep ELSE '' END,
              (spec).zero_stage, (spec).recompute) AS layout,
       to_char(training_flops(spec), '9.99EEEE') AS flops,
       round(gpu_hours::numeric) AS published_gpu_hours,
       round(achieved_mfu(spec, make_interval(secs => gpu_hours / (spec).n_gpus * 3600))::numeric, 3) AS implied_mfu,
       (spec).dtype,
       round(((m).total_bytes / 1e9)::numeric, 1) AS gb_per_gpu, round(((spec).hbm_bytes / 1e9)::numeric, 1) AS hbm_gb,
       fits_hbm(spec) AS fits
  FROM published_spec, LATERAL memory_per_gpu(spec) AS m
 ORDER BY run;
-- every published layout fits
SELECT bool_and(fits_hbm(spec)) AS all_published_layouts_fit, count(*) AS runs FROM published_spec;

-- ---- bad input: 22023 naming the field(s) and the range -----------------------------------------------
SELECT run_spec(671e9, 1e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256, top_k => 8, ep => 48);
SELECT run_spec(671e9, 1e12, 2048, 'H800', n_active_params => 37e9, n_experts => 8, top_k => 9);
SELECT run_spec(671e9, 1e12, 2048, 'H800', n_active_params => 37e9, n_experts => 256);
SELECT run_spec(671e9, 1e12, 2048, 'H800', n_active_params => 37e9);
SELECT run_spec(37e9, 1e12, 2048, 'H800', n_active_params => 671e9);
SELECT run_spec(671e9, 1e12, 2048, 'H800', n_experts => 256, top_k => 8);
SELECT run_spec(7e9, 1e12, 64, 'H100', ep => 8);
SELECT run_spec(671e9, 1e12, 2048, 'H800', n_active_params => 37e9, n_experts => 100, top_k => 8, ep => 64);
SELECT run_spec(7e9, 1e12, 64, 'H100', cp => 3);
SELECT run_spec(7e9, 1e12, 64, 'H100', cp => 4, seq_len => 4100);
SELECT run_spec(7e9, 1e12, 64, 'H100', vpp => 2);
-- uneven virtual stages are allowed (Llama 3: 126 layers on 16 x 2); fewer layers than virtual stages are not
SELECT (run_spec(7e9, 1e12, 64, 'H100', vpp => 2, pp => 4, n_layers => 30)).vpp AS uneven_virtual_stages;
SELECT run_spec(7e9, 1e12, 64, 'H100', vpp => 2, pp => 4, n_layers => 6);
SELECT run_spec(7e9, 1e12, 64, 'H100', n_heads => 32, n_kv_heads => 6);
SELECT run_spec(7e9, 1e12, 64, 'H100', ffn_act => 'relu');
SELECT run_spec(7e9, 1e12, 64, 'H100', attention => 'sdpa');
SELECT run_spec(7e9, 1e12, 64, 'H100', grad_dtype => 'fp16');
SELECT run_spec(7e9, 1e12, 64, 'H100', ep => 0);
SELECT run_spec(7e9, 1e12, 64, 'H100', vocab_size => -1);
SELECT run_spec(7e9, 1e12, 64, 'H100', ffn_hidden => 0);
SELECT run_spec(7e9, 1e12, 64, 'H100', n_active_params => 'NaN');
SELECT run_spec(7e9, 1e12, 64, 'H100', inter_node_gbit_per_s => 'Infinity');
SELECT training_flops(run_spec(7e9, 1e12, 64, 'H100', n_layers => 32), attention_flops => true);
-- a hand-built spec (the composite bypasses the constructor) is checked the same way
SELECT memory_per_gpu(ROW(7e9, 2e12, 'H100-SXM5', 64, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw',
                          NULL, NULL, NULL, 3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT training_flops(ROW(7e9, 2e12, 'H100-SXM5', 64, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw',
                          8e9, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT fits_hbm(ROW(7e9, 2e12, 'H100-SXM5', 64, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw',
                    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'geglu', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
-- stored before 0.3.0 (new fields NULL): read as their defaults, the same answers as a fresh spec
SELECT memory_per_gpu(ROW(7e9, 2e12, 'H100-SXM5', 64, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          32, 4096, 32, 4096, 1, 64, 1, 1, 1, 'none', 'adamw',
                          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)
     = memory_per_gpu(ROW(7e9, 2e12, 'H100-SXM5', 64, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          32, 4096, 32, 4096, 1, 64, 1, 1, 1, 'none', 'adamw',
                          NULL, NULL, NULL, 1, 1, 1, NULL, NULL, 'gelu', NULL, true, 'flash', 'bf16', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec) AS null_means_default;
