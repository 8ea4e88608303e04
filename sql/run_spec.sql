-- The run_spec constructor: SKU lookup by key or alias, frozen hardware figures, defaults.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- All fields of a default spec; hardware figures frozen from gpu_sku (HBM as nvidia-smi reports it:
-- A100 80GB = 81,920 MiB = 85,899,345,920 bytes; NVLink 600 GB/s both ways -> 300e9 B/s one way;
-- network 400 Gbit/s default = 50e9 B/s); the 0.3.0 fields at their defaults.
SELECT (s).* FROM run_spec(5e7, 4.3e10, 1, 'A100-80GB') AS s;

-- Keys and aliases are case-insensitive; the stored sku is always the key.
SELECT name, (run_spec(1e9, 1e10, 8, name)).sku
  FROM unnest(ARRAY['H100-SXM5', 'h100-sxm5', 'H100', 'h100', 'A100', 'a100-80gb']) AS name
 ORDER BY name COLLATE "C";

-- dtype picks the dense peak: A100 fp32 19.5, tf32 156, bf16 312; H100 fp8 1979.
SELECT sku, dtype, (run_spec(1e9, 1e10, 8, sku, dtype => dtype)).peak_flops / 1e12 AS peak_tflops
  FROM (VALUES ('A100-80GB', 'fp32'), ('A100-80GB', 'tf32'), ('A100-80GB', 'bf16'),
               ('H100-SXM5', 'bf16'), ('H100-SXM5', 'fp8'), ('B200', 'fp8')) AS t(sku, dtype)
 ORDER BY sku, peak_tflops;

-- Every argument lands in its field.
SELECT (s).n_layers, (s).d_model, (s).n_heads, (s).seq_len, (s).micro_batch, (s).global_batch,
       (s).tp, (s).pp, (s).zero_stage, (s).recompute, (s).optimizer, (s).gpus_per_node,
       (s).inter_node_bytes_per_s
  FROM run_spec(7e10, 2e12, 1024, 'H100-SXM5', mfu => 0.4, n_layers => 80, d_model => 8192,
                n_heads => 64, seq_len => 4096, micro_batch => 1, global_batch => 1024,
                tp => 8, pp => 8, zero_stage => 1, recompute => 'selective',
                optimizer => 'adamw_8bit', gpus_per_node => 8, inter_node_gbit_per_s => 200) AS s;

-- A part without NVLink uses its PCIe link inside the node.
SELECT sku, (run_spec(1e9, 1e10, 1, sku)).intra_node_bytes_per_s / 1e9 AS intra_gb_per_s
  FROM (VALUES ('L4'), ('H100-SXM5')) AS t(sku) ORDER BY sku;

-- The hardware is frozen into the value: editing gpu_sku later does not change a stored spec.
CREATE TEMP TABLE plans AS SELECT 1 AS id, run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45) AS spec;
BEGIN;
UPDATE gpu_sku SET bf16_tflops = 500 WHERE sku = 'H100-SXM5';
SELECT (spec).peak_flops / 1e12 AS stored_tflops,
       (run_spec(7e9, 1.4e12, 1024, 'H100-SXM5')).peak_flops / 1e12 AS new_tflops,
       round((extract(epoch FROM mfu_time(spec)) / 3600)::numeric, 1) AS stored_hours
  FROM plans;
ROLLBACK;

-- A user-added SKU and alias work like shipped ones.
BEGIN;
INSERT INTO gpu_sku (sku, vendor, name, hbm_gb, bf16_tflops, pcie_gb_per_s, gpus_per_node, tdp_watts, source)
VALUES ('MY-ACCEL', 'Acme', 'Acme One', 96, 500, 128, 4, 600, 'vendor sheet');
INSERT INTO gpu_sku_alias (alias, sku) VALUES ('acme1', 'MY-ACCEL');
SELECT (s).sku, (s).peak_flops, (s).gpus_per_node, (s).hbm_bytes FROM run_spec(1e9, 1e10, 4, 'ACME1') AS s;
ROLLBACK;

-- The constructor is STABLE and looks each SKU up once per query; many rows, few SKUs.
SELECT (s).sku, count(*), round(sum(gpu_hours(s))::numeric) AS gpu_hours
  FROM generate_series(1, 3000) AS i,
       LATERAL run_spec(1e9, 2e10, 8, (ARRAY['H100', 'A100-80GB', 'l4'])[1 + i % 3]) AS s
 GROUP BY 1 ORDER BY 1;

-- A spec can be stored, dumped as text and read back.
SELECT run_spec(1e9, 1e10, 8, 'H100')::text::run_spec = run_spec(1e9, 1e10, 8, 'H100') AS round_trips;

-- 0.5.0 (issue 46): the software stack.  'megatron' is the default; the other two are PyTorch's; anything
-- else is 22023 naming the allowed values.  A value stored before 0.5.0 has stack NULL, which reads as
-- 'megatron': every function answers for it as for the stored 'megatron' value.
SELECT st, (run_spec(1e9, 1e10, 8, 'H100', stack => st)).stack
  FROM unnest(ARRAY['megatron', 'torch_compile', 'torch_eager']) AS st;
\i sql/include/error_report.sql
SELECT pg_temp.error_report($$SELECT run_spec(1e9, 1e10, 8, 'H100', stack => 'deepspeed')$$);
SELECT pg_temp.error_report($$SELECT run_spec(1e9, 1e10, 8, 'H100', stack => 'TORCH_EAGER')$$);
-- An explicit NULL stores NULL, which every function reads as 'megatron' (as a value stored before 0.5.0).
SELECT (run_spec(1e9, 1e10, 8, 'H100', stack => NULL)).stack IS NULL AS stored_null;
SELECT (s).stack, (s).fp8_attention, (s).fsdp_reshard,
       predicted_mfu(s) = predicted_mfu(s2) AS same_mfu, memory_per_gpu(s) = memory_per_gpu(s2) AS same_memory
  FROM run_spec(8e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 8192,
                global_batch => 128, zero_stage => 3, pp => 4, n_kv_heads => 8, ffn_hidden => 14336,
                ffn_act => 'swiglu', vocab_size => 128256) AS s,
       LATERAL (SELECT ROW((s).n_params, (s).n_tokens, (s).sku, (s).n_gpus, (s).gpus_per_node, (s).mfu, (s).dtype,
                           (s).peak_flops, (s).hbm_bytes, (s).intra_node_bytes_per_s, (s).inter_node_bytes_per_s,
                           (s).tdp_watts, (s).n_layers, (s).d_model, (s).n_heads, (s).seq_len, (s).micro_batch,
                           (s).global_batch, (s).tp, (s).pp, (s).zero_stage, (s).recompute, (s).optimizer,
                           (s).n_active_params, (s).n_experts, (s).top_k, (s).ep, (s).cp, (s).vpp, (s).n_kv_heads,
                           (s).ffn_hidden, (s).ffn_act, (s).vocab_size, (s).sequence_parallel, (s).attention,
                           (s).grad_dtype, (s).hbm_bytes_per_s, (s).gpu_generation, (s).q_lora_rank,
                           (s).kv_lora_rank, (s).qk_nope_head_dim, (s).qk_rope_head_dim, (s).v_head_dim,
                           (s).dropout, NULL, NULL, NULL)::run_spec AS s2) AS old;
-- ZeRO-3 on pp 4: the torch stacks keep a stage's weights unsharded between micro-batches (FSDP2 under a
-- pipeline): 8e9/4 parameters x 2 bytes = 4 GB of weights per GPU, plus the first stage's 128,256 x 4096
-- embedding (1.05 GB): 5.05 GB, gathered once per step (4.74 GB sent).  'megatron' and fsdp_reshard =>
-- true shard them over dp 16 (0.316 GB) and gather them twice per micro-batch: 2 x 8 x 4.74 = 75.8 GB.
SELECT st, r AS fsdp_reshard, round(((memory_per_gpu(s)).weights_bytes / 1e9)::numeric, 3) AS weights_gb,
       round((SELECT sum(bytes) FROM comm_breakdown(s) WHERE collective = 'all_gather')::numeric / 1e9, 2) AS gathered_gb
  FROM (VALUES ('megatron', NULL::boolean), ('torch_eager', NULL), ('torch_compile', NULL), ('torch_eager', true),
               ('torch_eager', false)) AS t(st, r),
       LATERAL run_spec(8e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32, seq_len => 8192,
                        global_batch => 128, zero_stage => 3, pp => 4, n_kv_heads => 8, ffn_hidden => 14336,
                        ffn_act => 'swiglu', vocab_size => 128256, stack => st, fsdp_reshard => r) AS s;
