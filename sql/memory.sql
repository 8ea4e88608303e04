-- Memory per GPU, fits_hbm, communication per step and the layout search, against published numbers.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- Rajbhandari et al. 2019 (ZeRO), Figure 1: 7.5B parameters, dp = 64, mixed-precision Adam (K = 12):
-- model states per GPU 120 GB (baseline), 31.4 GB (P_os), 16.6 GB (P_os+g), 1.88 GB (P_os+g+p).
SELECT z AS zero_stage,
       round(((m).weights_bytes + (m).grads_bytes + (m).optimizer_bytes)::numeric / 1e9, 2) AS model_states_gb,
       (m).activation_bytes IS NULL AS activations_unknown,
       (m).total_bytes IS NULL AS total_unknown,
       fits_hbm(s) AS fits
  FROM generate_series(0, 3) AS z,
       LATERAL run_spec(7.5e9, 1e12, 64, 'A100-80GB', zero_stage => z) AS s,
       LATERAL (SELECT memory_per_gpu(s) AS m) AS x
 ORDER BY z;

-- Bytes per parameter by precision and optimizer (weights + grads + optimizer state):
-- mixed AdamW 2+2+12 = 16, 8-bit Adam 2+2+6 = 10, SGD+momentum 2+2+8 = 12; fp32 AdamW 4+4+8 = 16.
SELECT dtype, optimizer, (m).weights_bytes / 1e9 AS w, (m).grads_bytes / 1e9 AS g, (m).optimizer_bytes / 1e9 AS o
  FROM (VALUES ('bf16', 'adamw'), ('bf16', 'adamw_8bit'), ('bf16', 'sgd'),
               ('fp32', 'adamw'), ('fp32', 'adamw_8bit'), ('fp32', 'sgd')) AS t(dtype, optimizer),
       LATERAL memory_per_gpu(run_spec(1e9, 1e10, 1, 'A100-80GB', dtype => dtype, optimizer => optimizer)) AS m
 ORDER BY dtype, optimizer;

-- tp and pp divide the model states: 70B on tp 8 x pp 8 holds 70e9/64 parameters per GPU.
SELECT (m).weights_bytes / 2 AS params_per_gpu
  FROM memory_per_gpu(run_spec(70e9, 2e12, 64, 'H100', tp => 8, pp => 8)) AS m;

-- Korthikanti et al. 2022, Table 2: activation bytes per layer for GPT-3 175B's shape
-- (s 2048, h 12288, a 96, b 1), tp 8 with sequence parallelism, eager attention (the score tensors
-- stored; FlashAttention, the 0.3.0 default, keeps none of them), with dropout as their GPT models
-- train (its masks are in the 34 and the 5; dropout => false is the default since 0.4.0):
--   none       s·b·h·(34 + 5·a·s/h)/t = 2048·12288·114/8 = 358,612,992
--   selective  34·s·b·h/t                               = 106,954,752
--   full       2·s·b·h/t (+ one layer recomputed)        =   6,291,456 (+358,612,992)
-- (0.2.0 kept 2·s·b·h for full recomputation, not sharded over t: 50,331,648 per layer, 8x too much
-- under sequence parallelism, Korthikanti §4.2.2.)
-- With 1F1B the first of 8 stages holds 96/8 layers x 8 micro-batches = 96 layers' worth.
SELECT r AS recompute,
       (m).activation_bytes AS activation_bytes,
       round(((m).activation_bytes / 96)::numeric) AS per_layer_bytes
  FROM unnest(ARRAY['none', 'selective', 'full']) AS r,
       LATERAL memory_per_gpu(run_spec(175e9, 300e9, 1024, 'A100-80GB', n_layers => 96, d_model => 12288,
                                       n_heads => 96, seq_len => 2048, tp => 8, pp => 8, recompute => r,
                                       attention => 'eager', dropout => true)) AS m
 ORDER BY (m).activation_bytes DESC;
-- Without dropout (Llama 2/3, DeepSeek-V3; the default) no masks are stored: the two s·b·h masks
-- after attention and MLP go, and of the 5·a·s²·b scores only the softmax output (2·a·s²·b) stays
-- (Korthikanti §4.1 lists each tensor; 0.3.0 counted the masks for every model):
--   none       s·b·h·(32 + 2·a·s/h)/t = 2048·12288·64/8 = 201,326,592
--   selective  32·s·b·h/t                             = 100,663,296
--   full       2·s·b·h/t = 6,291,456 per layer (+ one layer recomputed: 201,326,592)
SELECT r AS recompute,
       (m).activation_bytes AS activation_bytes,
       round(((m).activation_bytes / 96)::numeric) AS per_layer_bytes
  FROM unnest(ARRAY['none', 'selective', 'full']) AS r,
       LATERAL memory_per_gpu(run_spec(175e9, 300e9, 1024, 'A100-80GB', n_layers => 96, d_model => 12288,
                                       n_heads => 96, seq_len => 2048, tp => 8, pp => 8, recompute => r,
                                       attention => 'eager')) AS m
 ORDER BY (m).activation_bytes DESC;
-- ... whatever pp is (L/pp layers x pp micro-batches), and fewer when fewer micro-batches are in flight.
SELECT pp, global_batch, (m).activation_bytes / 358612992 AS layers_worth
  FROM (VALUES (1, NULL), (4, NULL), (8, NULL), (8, 256), (8, 32), (8, 16)) AS t(pp, global_batch),
       LATERAL memory_per_gpu(run_spec(175e9, 300e9, 1024, 'A100-80GB', n_layers => 96, d_model => 12288,
                                       n_heads => 96, seq_len => 2048, tp => 8, pp => pp,
                                       global_batch => global_batch, attention => 'eager', dropout => true)) AS m
 ORDER BY pp, global_batch DESC NULLS FIRST;
-- fp32 activations take twice the bytes (eager attention: FlashAttention's softmax statistics are fp32 either way)
SELECT (a).activation_bytes / (b).activation_bytes AS fp32_over_bf16
  FROM memory_per_gpu(run_spec(1e9, 1e10, 1, 'A100-80GB', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048, dtype => 'fp32', attention => 'eager')) AS a,
       memory_per_gpu(run_spec(1e9, 1e10, 1, 'A100-80GB', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048, attention => 'eager')) AS b;

-- Overhead allowance: 1.5 GB (CUDA context, NCCL buffers) + 5% of model states.
SELECT (m).overhead_bytes, (m).total_bytes = (m).weights_bytes + (m).grads_bytes + (m).optimizer_bytes
                                              + (m).activation_bytes + (m).overhead_bytes AS total_adds_up
  FROM memory_per_gpu(run_spec(1e9, 1e10, 1, 'A100-80GB', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048)) AS m;

-- fits_hbm is three-valued: false when model states alone do not fit, NULL when they fit but the
-- shape is unknown, else true or false.
SELECT label, fits_hbm(s) AS fits
  FROM (VALUES
    ('7B, 1 GPU: 112 GB of states',               run_spec(7e9, 2e12, 1, 'H100')),
    ('1B, 1 GPU, shape unknown',                  run_spec(1e9, 2e10, 1, 'H100')),
    ('1B, 1 GPU, GPT-2-XL-like shape',            run_spec(1e9, 2e10, 1, 'H100', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048)),
    ('1B, 1 GPU, micro-batch 64',                 run_spec(1e9, 2e10, 1, 'H100', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048, micro_batch => 64)),
    ('1B, 1 GPU, micro-batch 64, full recompute', run_spec(1e9, 2e10, 1, 'H100', n_layers => 24, d_model => 2048, n_heads => 16, seq_len => 2048, micro_batch => 64, recompute => 'full'))
  ) AS t(label, s)
 ORDER BY label;

-- Seed cross-check: "at ~10B parameters one 80 GB GPU runs out". Largest N whose model states and
-- overhead fit one H100 80GB, by optimizer: even 8-bit Adam (10 B/param) stops below 10B.
-- (Since 0.3.0 the H100's HBM is what the driver reports, 81,559 MiB = 85.5e9 bytes, not 80e9:
-- 5.0B, 8.0B and 6.6B where 0.2.0 said 4.6B, 7.4B and 6.2B.)
SELECT optimizer,
       max(n) / 1e9 AS largest_billion_params_that_fit
  FROM unnest(ARRAY['adamw', 'adamw_8bit', 'sgd']) AS optimizer,
       generate_series(0.5e9::numeric, 12e9, 0.1e9) AS n
 WHERE fits_hbm(run_spec(n::float8, 2e12, 1, 'H100', optimizer => optimizer)) IS DISTINCT FROM false
 GROUP BY optimizer ORDER BY optimizer;
SELECT bool_or(fits_hbm(run_spec(10e9, 2e12, 1, 'H100', optimizer => o)) IS DISTINCT FROM false) AS any_10b_fits
  FROM unnest(ARRAY['adamw', 'adamw_8bit', 'sgd']) AS o;

-- Communication, nccl-tests conventions. Errata: DDP's all-reduce sends 2(p-1)/p of the 2N-byte
-- gradient buffer per GPU, about 4N bytes (the seed said 2N). 7B on 64 GPUs:
SELECT comm_bytes(s) AS wire_bytes, round((comm_bytes(s) / 7e9)::numeric, 3) AS bytes_per_param
  FROM run_spec(7e9, 1e12, 64, 'H100') AS s;
-- ZeRO 1 moves what DDP moves; ZeRO-3 moves 1.5x DDP (one micro-batch per step here).
SELECT z AS zero_stage, comm_bytes(s) AS bytes, round((comm_bytes(s) / comm_bytes(run_spec(7e9, 1e12, 64, 'H100', global_batch => 64)))::numeric, 3) AS vs_ddp
  FROM generate_series(0, 3) AS z, LATERAL run_spec(7e9, 1e12, 64, 'H100', zero_stage => z, global_batch => 64) AS s
 ORDER BY z;
-- With 4 micro-batches per step: ZeRO 3 gathers the weights for every micro-batch's forward and
-- backward; gradients are reduce-scattered once per step at every stage (0.4.0; 4 times before).
SELECT z AS zero_stage, b.collective, b.bytes
  FROM generate_series(2, 3) AS z,
       LATERAL comm_breakdown(run_spec(7e9, 1e12, 64, 'H100', zero_stage => z, global_batch => 256)) AS b
 ORDER BY z, b.collective;

-- 3D parallelism for the seed's Llama-2 70B on 1024 A100 (TP 8 in the node, PP 8 across nodes, DP 16):
-- per GPU per step, one row per collective; TP on NVLink, DP and PP on the network.
SELECT parallelism, collective, link, bytes, round(seconds::numeric, 4) AS seconds
  FROM comm_breakdown(run_spec(70e9, 2e12, 1024, 'A100-80GB', n_layers => 80, d_model => 8192, n_heads => 64,
                               seq_len => 4096, global_batch => 1024, tp => 8, pp => 8, zero_stage => 1))
 ORDER BY parallelism, collective;
-- Seed cross-check: "TP belongs inside the NVLink domain". The same TP traffic over the network
-- (tp 16 on 8-GPU nodes) takes 9x as long: NVLink 300 GB/s one way vs 50 GB/s.
SELECT tp, link, round((seconds / bytes * 1e9)::numeric, 4) AS seconds_per_gb
  FROM unnest(ARRAY[8, 16]) AS tp,
       LATERAL comm_breakdown(run_spec(70e9, 2e12, 1024, 'A100-80GB', n_layers => 80, d_model => 8192, n_heads => 64,
                                       seq_len => 4096, global_batch => 1024, tp => tp)) AS b
 WHERE parallelism = 'tp' ORDER BY tp;
-- Unknown shape or batch: the collectives that depend on them are NULL, and so is the total.
SELECT parallelism, collective, bytes IS NULL AS unknown
  FROM comm_breakdown(run_spec(70e9, 2e12, 64, 'H100', tp => 8, pp => 2)) ORDER BY 1, 2;
SELECT comm_bytes(run_spec(70e9, 2e12, 64, 'H100', tp => 8, pp => 2)) IS NULL AS total_unknown,
       comm_bytes(run_spec(7e9, 2e12, 1, 'H100')) AS single_gpu;

-- Layout search for 70B on 1024 A100 80GB: every layout keeps tp within the node, ZeRO 2-3 also
-- with pp (offered since 0.4.0: docs/model.md, "ZeRO and pipeline parallelism"), and the best fitting
-- layout comes first.  (Since 0.3.0 pp need not divide the 80 layers,
-- so pp 16, 32 and 64 are listed too, and FlashAttention is the default: more layouts fit.)
SELECT count(*) AS layouts, count(*) FILTER (WHERE fits) AS fitting,
       bool_and(tp <= 8 AND 8 % tp = 0) AS tp_in_node,
       bool_and(tp * pp * dp = 1024) AS uses_all_gpus,
       bool_or(pp > 1 AND zero_stage >= 2) AS zero23_with_pp
  FROM plan_parallelism(run_spec(70e9, 2e12, 1024, 'A100-80GB', n_layers => 80, d_model => 8192,
                                 n_heads => 64, seq_len => 4096, global_batch => 1024));
SELECT tp, pp, dp, zero_stage, recompute, round((total_bytes / 1e9)::numeric, 1) AS total_gb, fits,
       round(comm_seconds_per_step::numeric, 3) AS comm_s, round(step_seconds::numeric, 2) AS step_s
  FROM plan_parallelism(run_spec(70e9, 2e12, 1024, 'A100-80GB', n_layers => 80, d_model => 8192,
                                 n_heads => 64, seq_len => 4096, global_batch => 1024))
 LIMIT 6;
-- The seed's layout (TP 8, PP 8, ZeRO-1) is among the fitting ones; with eager attention, dropout
-- and no recomputation pp=1 does not fit; without dropout (Llama 2 has none) or with FlashAttention it does.
SELECT attention, dropout, tp, pp, dp, zero_stage, recompute, fits
  FROM (VALUES ('eager', true), ('eager', false), ('flash', false)) AS v(attention, dropout),
       LATERAL plan_parallelism(run_spec(70e9, 2e12, 1024, 'A100-80GB', n_layers => 80, d_model => 8192,
                                         n_heads => 64, seq_len => 4096, global_batch => 1024, attention => attention,
                                         dropout => dropout))
 WHERE (tp, pp, zero_stage) IN ((8, 8, 1), (8, 1, 1)) AND recompute = 'none'
 ORDER BY attention, dropout DESC, pp;
-- ">10B -> TP+PP+ZeRO-1": a 20B model on 64 H100 cannot train as plain DDP, the best layout shards
-- (since 0.4.0 ZeRO-2 over all 64 ranks, whose ring leaves each node through its eight ports).
SELECT tp, pp, dp, zero_stage, recompute, fits
  FROM plan_parallelism(run_spec(20e9, 4e11, 64, 'H100', n_layers => 44, d_model => 6144, n_heads => 64,
                                 seq_len => 2048, global_batch => 512))
 WHERE fits LIMIT 1;
SELECT fits_hbm(run_spec(20e9, 4e11, 64, 'H100', n_layers => 44, d_model => 6144, n_heads => 64,
                         seq_len => 2048, global_batch => 512)) AS plain_ddp_fits;
-- Shape unknown: fits is NULL where states fit, and the ranking still puts those first.
SELECT tp, pp, dp, zero_stage, recompute, fits, total_bytes IS NULL AS total_unknown
  FROM plan_parallelism(run_spec(7e9, 2e12, 8, 'H100')) LIMIT 3;

-- Bad input: a clear 22023, from the constructor and from a hand-built composite alike.
SELECT memory_per_gpu(run_spec(7e9, 2e12, 8, 'H100', tp => 3));
SELECT run_spec(7e9, 2e12, 8, 'H100', zero_stage => 4);
SELECT run_spec(7e9, 2e12, 8, 'H100', n_layers => -32);
SELECT run_spec(7e9, 2e12, 8, 'H100', micro_batch => 0);
SELECT (run_spec(7e9, 2e12, 8, 'H100', n_heads => 32, d_model => 4096, tp => 8, pp => 1, n_layers => 30, global_batch => 8)).tp AS valid_tp;
SELECT run_spec(7e9, 2e12, 16, 'H100', n_heads => 12, d_model => 4096);
SELECT run_spec(7e9, 2e12, 16, 'H100', n_heads => 12, d_model => 4092, tp => 8);
-- pp need not divide n_layers since 0.3.0 (stages of 8 or 7 layers), but cannot exceed it.
SELECT (run_spec(7e9, 2e12, 16, 'H100', n_layers => 30, pp => 4)).pp AS uneven_pp;
SELECT run_spec(7e9, 2e12, 16, 'H100', n_layers => 3, pp => 4);
SELECT memory_per_gpu(ROW(7e9, 2e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          NULL, NULL, NULL, NULL, 1, NULL, 3, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT fits_hbm(ROW(7e9, 2e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                    NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 4, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT comm_bytes(ROW(7e9, 2e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                      -32, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT * FROM comm_breakdown(ROW(7e9, 2e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                                 NULL, NULL, NULL, NULL, 0, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT * FROM plan_parallelism(ROW(7e9, 2e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 'NaN', 450e9, 50e9, 700,
                                   NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT memory_per_gpu(ROW(7e9, 2e12, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                          NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'partial', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);

-- Issue 46: context-parallel ranks hold the same weights.  ZeRO/FSDP state is sharded over dp·cp and the
-- gradients are reduced over dp·cp.  8B on 8 GPUs at cp 8, dp 1, ZeRO-3: the optimizer state is 12·8e9/8 =
-- 12 GB per GPU (before 0.5.0 96 GB: sharded over dp = 1 only), and comm_breakdown has dp rows with 7/8 of
-- the slice (before: no dp row at all).  At cp 2, dp 4 the group is 8: 7/8 · 8e9 · 2 bytes = 14 GB.
SELECT (m).optimizer_bytes / 1e9 AS optimizer_gb, (m).grads_bytes / 1e9 AS grads_gb, (m).weights_bytes / 1e9 AS weights_gb
  FROM memory_per_gpu(run_spec(8e9, 1e12, 8, 'H100', cp => 8, zero_stage => 3)) AS m;
SELECT c AS cp, parallelism, collective, bytes / 1e9 AS gb
  FROM unnest(ARRAY[8, 2]) AS c,
       LATERAL comm_breakdown(run_spec(8e9, 1e12, 8, 'H100', cp => c, zero_stage => 1))
 WHERE parallelism = 'dp'
 ORDER BY c DESC, collective;
