-- llm_econ 0.2.0 -> 0.3.0, part 40 (modern runs): gpu_sku's renamed bandwidth columns and hbm_bytes,
-- run_spec's new fields, the constructor's inter_node_gbit_per_s, training_flops(spec, attention_flops),
-- new and corrected gpu_sku / mfu_reference rows, and the stored plans brought in line.  After it, an
-- updated database equals a fresh 0.3.0 install (test/t/002_upgrade.pl).

-- ---- gpu_sku: units that say what they are ------------------------------------------------------
ALTER TABLE llm_econ.gpu_sku RENAME COLUMN hbm_bandwidth_gbps TO hbm_gb_per_s;
ALTER TABLE llm_econ.gpu_sku RENAME COLUMN nvlink_gbps TO nvlink_gb_per_s;
ALTER TABLE llm_econ.gpu_sku RENAME COLUMN pcie_gbps TO pcie_gb_per_s;
-- the CHECKs keep their expressions (by column number) but are named after the old columns
ALTER TABLE llm_econ.gpu_sku RENAME CONSTRAINT gpu_sku_hbm_bandwidth_gbps_check TO gpu_sku_hbm_gb_per_s_check;
ALTER TABLE llm_econ.gpu_sku RENAME CONSTRAINT gpu_sku_nvlink_gbps_check TO gpu_sku_nvlink_gb_per_s_check;
ALTER TABLE llm_econ.gpu_sku RENAME CONSTRAINT gpu_sku_pcie_gbps_check TO gpu_sku_pcie_gb_per_s_check;
ALTER TABLE llm_econ.gpu_sku ALTER COLUMN pcie_gb_per_s SET DEFAULT 64;
ALTER TABLE llm_econ.gpu_sku ADD COLUMN hbm_bytes float8 CHECK (hbm_bytes > 0::float8 AND hbm_bytes < 'Infinity');
COMMENT ON COLUMN llm_econ.gpu_sku.nvlink_gb_per_s IS 'NVLink bandwidth per GPU, GB/s, both directions summed as marketed (or the vendor''s scale-up link: AMD Infinity Fabric, Intel Gaudi RoCE, Google ICI); NULL = none';
COMMENT ON COLUMN llm_econ.gpu_sku.pcie_gb_per_s IS 'host link per GPU, GB/s, both directions summed (default 64 = PCIe 4.0 x16); used inside a node when there is no NVLink';
COMMENT ON COLUMN llm_econ.gpu_sku.gpus_per_node IS 'GPUs in the usual server of this part (the NVLink domain when it has one: 72 for GB200/GB300 NVL72, the ICI pod for TPUs)';
COMMENT ON COLUMN llm_econ.gpu_sku.hbm_bytes IS 'device memory per GPU in bytes as the driver reports it (nvidia-smi memory.total MiB x 2^20), where published; NULL = not published, hbm_gb x 10^9 is used';

-- ---- run_spec: new fields, appended (stored values get NULL, which every function reads as the default) ----
ALTER TYPE llm_econ.run_spec
    ADD ATTRIBUTE n_active_params float8 CASCADE,
    ADD ATTRIBUTE n_experts int4 CASCADE,
    ADD ATTRIBUTE top_k int4 CASCADE,
    ADD ATTRIBUTE ep int4 CASCADE,
    ADD ATTRIBUTE cp int4 CASCADE,
    ADD ATTRIBUTE vpp int4 CASCADE,
    ADD ATTRIBUTE n_kv_heads int4 CASCADE,
    ADD ATTRIBUTE ffn_hidden int4 CASCADE,
    ADD ATTRIBUTE ffn_act text CASCADE,
    ADD ATTRIBUTE vocab_size int4 CASCADE,
    ADD ATTRIBUTE sequence_parallel boolean CASCADE,
    ADD ATTRIBUTE attention text CASCADE,
    ADD ATTRIBUTE grad_dtype text CASCADE;
COMMENT ON COLUMN llm_econ.run_spec.n_active_params IS 'parameters active per token (mixture of experts); FLOPs, time and cost use it, memory and communication use n_params; NULL = n_params';
COMMENT ON COLUMN llm_econ.run_spec.n_experts IS 'experts per MoE layer; NULL = dense';
COMMENT ON COLUMN llm_econ.run_spec.top_k IS 'experts each token is routed to; NULL = dense';
COMMENT ON COLUMN llm_econ.run_spec.ep IS 'expert-parallel degree, divides dp and n_experts; NULL = 1';
COMMENT ON COLUMN llm_econ.run_spec.cp IS 'context-parallel degree, dp = n_gpus / (tp * pp * cp); NULL = 1';
COMMENT ON COLUMN llm_econ.run_spec.vpp IS 'virtual pipeline stages per rank (interleaved 1F1B); NULL = 1';
COMMENT ON COLUMN llm_econ.run_spec.n_kv_heads IS 'key/value heads (grouped-query attention); NULL = n_heads';
COMMENT ON COLUMN llm_econ.run_spec.ffn_hidden IS 'FFN inner size (per expert for a mixture of experts); NULL = 4 * d_model';
COMMENT ON COLUMN llm_econ.run_spec.ffn_act IS 'gelu (2 matrices) or swiglu (3 matrices); NULL = gelu';
COMMENT ON COLUMN llm_econ.run_spec.vocab_size IS 'vocabulary: embedding, output layer and logits memory; NULL = unknown, left out';
COMMENT ON COLUMN llm_econ.run_spec.sequence_parallel IS 'Megatron sequence parallelism when tp > 1; NULL = true';
COMMENT ON COLUMN llm_econ.run_spec.attention IS 'flash (no s^2 score tensors stored) or eager (Korthikanti''s 5as/h term); NULL = flash';
COMMENT ON COLUMN llm_econ.run_spec.grad_dtype IS 'gradient precision: bf16 (2 bytes) or fp32 (4 bytes, Megatron''s main grads; doubles data-parallel gradient traffic); NULL = bf16';

-- ---- the constructor: inter_node_gbit_per_s (Gbit/s, default 400) and the new arguments ----------
DROP FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8);
CREATE FUNCTION llm_econ.run_spec(
    n_params float8, n_tokens float8, n_gpus int4, sku text,
    mfu float8 DEFAULT 0.40, dtype text DEFAULT 'bf16',
    n_layers int4 DEFAULT NULL, d_model int4 DEFAULT NULL,
    n_heads int4 DEFAULT NULL, seq_len int4 DEFAULT NULL,
    micro_batch int4 DEFAULT 1, global_batch int4 DEFAULT NULL,
    tp int4 DEFAULT 1, pp int4 DEFAULT 1, zero_stage int4 DEFAULT 0,
    recompute text DEFAULT 'none', optimizer text DEFAULT 'adamw',
    gpus_per_node int4 DEFAULT NULL,
    inter_node_gbit_per_s float8 DEFAULT 400,
    n_active_params float8 DEFAULT NULL, n_experts int4 DEFAULT NULL, top_k int4 DEFAULT NULL,
    ep int4 DEFAULT 1, cp int4 DEFAULT 1, vpp int4 DEFAULT 1,
    n_kv_heads int4 DEFAULT NULL, ffn_hidden int4 DEFAULT NULL, ffn_act text DEFAULT 'gelu',
    vocab_size int4 DEFAULT NULL, sequence_parallel boolean DEFAULT true,
    attention text DEFAULT 'flash', grad_dtype text DEFAULT 'bf16')
RETURNS llm_econ.run_spec
AS 'MODULE_PATHNAME', 'le_run_spec'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8,
                                      float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text) IS
  'validating run_spec constructor: looks the SKU up by key or alias (case-insensitive) and freezes its peak at dtype, HBM (as the driver reports it), links and TDP into the value; inter_node_gbit_per_s is Gbit/s per GPU per direction (400 = one NDR400 port = 50e9 bytes/s)';

-- ---- training_flops(spec, attention_flops) ----------------------------------------------------------
DROP FUNCTION llm_econ.training_flops(llm_econ.run_spec);
CREATE FUNCTION llm_econ.training_flops(spec llm_econ.run_spec, attention_flops boolean DEFAULT false) RETURNS float8
AS 'MODULE_PATHNAME', 'le_training_flops_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.training_flops(llm_econ.run_spec, boolean) IS
  'model FLOPs of the run, 6·N_active·D (Kaplan et al. 2020; N_active = n_active_params, else n_params); attention_flops adds 12·n_layers·d_model·seq_len per token (PaLM, App. B), the convention of published MFU figures';
COMMENT ON FUNCTION llm_econ.mfu_time(llm_econ.run_spec) IS
  'wall-clock time 6·N_active·D / (mfu · n_gpus · peak_flops), as an interval in hours:minutes:seconds';
COMMENT ON FUNCTION llm_econ.memory_per_gpu(llm_econ.run_spec) IS
  'training memory per GPU in bytes on the heaviest pipeline stage: model states after tp, pp, ep and ZeRO sharding (Rajbhandari et al. 2019), activations (Korthikanti et al. 2022 with sequence parallelism, FlashAttention, GQA, context parallelism and the logits; NULL when the shape is unknown), overhead allowance, total (NULL when activations are unknown) and the GPU''s HBM as the driver reports it';
COMMENT ON FUNCTION llm_econ.comm_breakdown(llm_econ.run_spec) IS
  'one row per collective of an optimizer step: dp/tp/cp/ep/pp, all_reduce/reduce_scatter/all_gather/send_recv/all_to_all, nvlink/network, bytes sent per GPU and seconds at the link''s one-way bandwidth';

-- ---- shipped data --------------------------------------------------------------------------------
-- Shipped rows changed in 0.3.0, with the values of data/gpu_sku.csv (user rows, builtin = false, are left alone).
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('A100-80GB', 'NVIDIA', 'NVIDIA A100 80GB SXM4', 80, 85899345920, 2039, 19.5, 156, 312, 312, NULL, 600, 64, 8, 400, 10000, 15000, '2020-11-01', 'seed table (mid-2024 SKU table: A100 80GB, 80 GB HBM2e, FP32 19.5, BF16 312, no FP8, NVLink 600 GB/s, 400 W, list price $10-15k used); 2,039 GB/s, TF32 156 and FP16 312 dense from NVIDIA A100 datasheet r4; 80GB SXM4 announced SC20 2020-11; 8 per HGX A100 / AWS p4de.24xlarge / GCP a2-ultragpu-8g; hbm_bytes = 81,920 MiB, nvidia-smi memory.total of an A100/A800-SXM4-80GB (public nvidia-smi output, e.g. dexmal/dexbotic issue #41)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'A100-80GB' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('H100-SXM5', 'NVIDIA', 'NVIDIA H100 SXM5 80GB', 80, 85520809984, 3350, 67, 494.5, 989, 989, 1979, 900, 128, 8, 700, 25000, 40000, '2022-03-01', 'seed table (H100 SXM5: 80 GB HBM3, FP32 67, BF16 989, FP8 1979, NVLink 900 GB/s, 700 W, list price $25-40k; NVIDIA H100 datasheet); NVIDIA H100 Tensor Core GPU datasheet: 3,350 GB/s, PCIe Gen5 128 GB/s, TF32 989 and FP16 1,979 with sparsity halved to dense; announced GTC 2022-03; 8 per HGX H100 / AWS p5.48xlarge / GCP a3-highgpu-8g; hbm_bytes = 81,559 MiB, nvidia-smi memory.total of ''NVIDIA H100 80GB HBM3'' (public nvidia-smi output in many GitHub issues)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'H100-SXM5' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('H100-PCIe', 'NVIDIA', 'NVIDIA H100 PCIe 80GB', 80, 85520809984, 2000, 51, 378, 756, 756, 1513, NULL, 128, 8, 350, NULL, NULL, '2022-03-01', 'NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe: 2,000 GB/s HBM2e, FP32 51, TF32 756*, BF16/FP16 1,513*, FP8 3,026* with sparsity halved to dense, 300-350 W, PCIe Gen5 128 GB/s; NVLink bridge 600 GB/s between pairs is not an NVLink domain and is not counted) and H100 PCIe product brief PB-11133-001 (max TDP 350 W); seed: H100 PCIe ~70% of SXM5 throughput; announced GTC 2022-03; RunPod H100 = NVIDIA H100 PCIe, up to 8 per pod; hbm_bytes = 81,559 MiB, nvidia-smi memory.total of ''NVIDIA H100 PCIe'' (public nvidia-smi output)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'H100-PCIe' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('H200-SXM5', 'NVIDIA', 'NVIDIA H200 SXM 141GB', 141, 150754820096, 4800, 67, 494.5, 989, 989, 1979, 900, 128, 8, 700, 30000, 45000, '2023-11-01', 'seed table (H200 SXM5: 141 GB HBM3e, FP32 67, BF16 989, FP8 1979, NVLink 900 GB/s, 700 W, list price $30-45k; NVIDIA H200 announcement 2023-11); 4.8 TB/s from NVIDIA H200 datasheet; same GH100 compute as H100 SXM so TF32/FP16 as H100 SXM5; announced SC23 2023-11-13; 8 per HGX H200 / AWS p5e.48xlarge; hbm_bytes = 143,771 MiB, nvidia-smi memory.total of ''NVIDIA H200'' (public nvidia-smi output)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'H200-SXM5' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('B200', 'NVIDIA', 'NVIDIA B200 (HGX B200)', 180, 192265846784, 8000, 75, 1100, 2250, 2250, 4500, 1800, 128, 8, 1000, 40000, 60000, '2024-03-01', 'NVIDIA HGX B200 / DGX B200 figures per GPU (HGX B200 datasheet: 8 GPUs, 1,440 GB HBM3e, FP32 600 TFLOPS, TF32 18 PFLOPS, BF16/FP16 36 PFLOPS, FP8 72 PFLOPS with sparsity, so per GPU dense FP32 75, TF32 1,125 rounded to 1.1 PF as NVIDIA quotes, BF16/FP16 2,250, FP8 4,500 TFLOPS), 180 GB per GPU as sold in HGX systems (the seed''s 192 GB is the die stack, not what HGX exposes), 8 TB/s, NVLink 5 1,800 GB/s, up to 1,000 W; hbm_bytes = 183,359 MiB, nvidia-smi memory.total of ''NVIDIA B200'' (NVIDIA/TensorRT-LLM issue #10278); seed: list price $40-60k; host link PCIe Gen5 x16 (DGX B200 user guide); announced GTC 2024-03', true)
 WHERE sku OPERATOR(pg_catalog.=) 'B200' AND builtin;
-- New shipped parts.  A user row that already holds one of these names (ignoring case) is kept
-- and the shipped row is not added.
INSERT INTO llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) VALUES
  ('H800', 'NVIDIA', 'NVIDIA H800 SXM5 80GB', 80, 85520809984, 3350, 67, 494.5, 989, 989, 1979, 400, 128, 8, 700, NULL, NULL, '2023-03-01', 'NVIDIA H800: export variant of the H100 SXM5 with the same GH100 compute (dense FP32 67, TF32 494.5, BF16/FP16 989, FP8 1,979 TFLOPS, 80 GB HBM3 3.35 TB/s, 700 W, as the H100 SXM5 datasheet) and NVLink cut to 400 GB/s; DeepSeek-V3 technical report (arXiv 2412.19437, section 3.1-3.2): 2,048 H800 in nodes of 8, NVLink and NVSwitch inside a node, InfiniBand 50 GB/s between nodes, 160 GB/s achieved on NVLink; hbm_bytes = 81,559 MiB as the H100 80GB HBM3 (nvidia-smi memory.total); available 2023-03', true),
  ('A800', 'NVIDIA', 'NVIDIA A800 SXM4 80GB', 80, 85899345920, 2039, 19.5, 156, 312, 312, NULL, 400, 64, 8, 400, NULL, NULL, '2022-11-01', 'NVIDIA A800 40GB/80GB datasheet: export variant of the A100 SXM4 80GB with the same compute (dense FP32 19.5, TF32 156, BF16/FP16 312 TFLOPS), 80 GB HBM2e 2,039 GB/s, 400 W, NVLink 400 GB/s instead of 600; hbm_bytes = 81,920 MiB, nvidia-smi memory.total of NVIDIA A800-SXM4-80GB (public nvidia-smi output, dexmal/dexbotic issue #41); announced 2022-11', true),
  ('H20', 'NVIDIA', 'NVIDIA H20 96GB', 96, NULL, 4000, 44, 74, 148, 148, 296, 900, 128, 8, 400, NULL, NULL, '2024-01-01', 'NVIDIA HGX H20 product specifications (per GPU): 96 GB HBM3, 4.0 TB/s, dense FP32 44, TF32 74, BF16/FP16 148, FP8 296 TFLOPS, NVLink 900 GB/s, 400 W, 8 per HGX board; export variant of Hopper shipping 2024; a measured 142 TFLOPS BF16 matmul (zzc0721/torch-performance-test-data issue #77) agrees with the 148 dense peak', true),
  ('H100-NVL', 'NVIDIA', 'NVIDIA H100 NVL 94GB', 94, NULL, 3900, 60, 417.5, 835.5, 835.5, 1670.5, NULL, 128, 8, 400, NULL, NULL, '2023-03-01', 'NVIDIA H100 Tensor Core GPU datasheet, H100 NVL column: 94 GB HBM3, 3.9 TB/s, FP32 60, TF32 835*, BF16/FP16 1,671*, FP8 3,341* TFLOPS (* with sparsity, halved to dense here), 350-400 W, PCIe Gen5 128 GB/s; its 600 GB/s NVLink bridge joins pairs of cards and is not counted as a node-wide NVLink domain (as for H100-PCIe); announced GTC 2023-03', true),
  ('H200-NVL', 'NVIDIA', 'NVIDIA H200 NVL 141GB', 141, NULL, 4800, 60, 417.5, 835.5, 835.5, 1670.5, NULL, 128, 8, 600, NULL, NULL, '2024-11-01', 'NVIDIA H200 Tensor Core GPU datasheet, H200 NVL column: 141 GB HBM3e, 4.8 TB/s, FP32 60, TF32 835*, BF16/FP16 1,671*, FP8 3,341* TFLOPS (* with sparsity, halved to dense here), up to 600 W, PCIe Gen5 128 GB/s; the 2- or 4-way NVLink bridge (900 GB/s) joins at most 4 cards and is not counted as a node-wide domain; generally available 2024-11 (SC24)', true),
  ('GH200', 'NVIDIA', 'NVIDIA GH200 Grace Hopper Superchip 96GB', 96, NULL, 4000, 67, 494.5, 989, 989, 1979, 900, 128, 4, 1000, NULL, NULL, '2023-05-01', 'NVIDIA GH200 Grace Hopper Superchip datasheet: the H100 GPU with 96 GB HBM3 at 4 TB/s (a later version has 144 GB HBM3e), dense FP32 67, TF32 494.5, BF16/FP16 989, FP8 1,979 TFLOPS (datasheet figures with sparsity halved), NVLink 900 GB/s, module power 450-1,000 W including the Grace CPU (1,000 W taken); 4 per node as in quad-GH200 blades (CSCS Alps, HPE Cray EX254n); host link counted as PCIe Gen5 x16 (the CPU is attached by NVLink-C2C); announced Computex 2023-05', true),
  ('GB200', 'NVIDIA', 'NVIDIA Blackwell GPU in GB200 NVL72', 186, NULL, 8000, 80, 1250, 2500, 2500, 5000, 1800, 128, 72, 1200, NULL, NULL, '2024-03-01', 'NVIDIA GB200 NVL72 datasheet, rack figures divided by its 72 GPUs: 13.4 TB HBM3e (186 GB per GPU), 576 TB/s (8 TB/s), FP32 5,760 TFLOPS (80), TF32 180, FP16/BF16 360, FP8 720 PFLOPS with sparsity (dense 1,250, 2,500, 5,000 TFLOPS per GPU); NVLink 5 1,800 GB/s per GPU, all 72 GPUs one NVLink domain; GB200 superchip (2 GPUs + 1 Grace CPU) up to 2,700 W, about 1,200 W per GPU taken; announced GTC 2024-03', true),
  ('GB300', 'NVIDIA', 'NVIDIA Blackwell Ultra GPU in GB300 NVL72', 288, NULL, 8000, NULL, 1250, 2500, 2500, 5000, 1800, 128, 72, 1400, NULL, NULL, '2025-03-01', 'NVIDIA GB300 NVL72 datasheet, rack figures divided by its 72 GPUs: up to 288 GB HBM3e per GPU, 8 TB/s, TF32 180, FP16/BF16 360, FP8 720 PFLOPS with sparsity (dense 1,250, 2,500, 5,000 TFLOPS per GPU; Blackwell Ultra raises FP4 only), NVLink 5 1,800 GB/s per GPU, 72 GPUs one NVLink domain, about 1,400 W per GPU; FP32 not confirmed, left empty; announced GTC 2025-03', true),
  ('B100', 'NVIDIA', 'NVIDIA B100 (HGX B100)', 192, NULL, 8000, 60, 900, 1750, 1750, 3500, 1800, 128, 8, 700, NULL, NULL, '2024-03-01', 'NVIDIA Blackwell datasheet, HGX B100 column per GPU: 192 GB HBM3e (1.5 TB per 8), 8 TB/s, FP32 60, TF32 1.8, FP16/BF16 3.5, FP8 7 PFLOPS with sparsity (dense 900, 1,750, 3,500 TFLOPS), NVLink 5 1,800 GB/s, 700 W (drop-in for HGX H100 power); announced GTC 2024-03', true),
  ('B300', 'NVIDIA', 'NVIDIA B300 (HGX B300)', 288, NULL, 8000, 75, 1100, 2250, 2250, 4500, 1800, 128, 8, 1100, NULL, NULL, '2025-03-01', 'NVIDIA HGX B300 datasheet, 8-GPU figures per GPU: 2.3 TB HBM3e (288 GB per GPU), 8 TB/s, FP32 600 TFLOPS (75), TF32 18, FP16/BF16 36, FP8 72 PFLOPS with sparsity (dense 1,125 quoted as 1.1 PF, 2,250, 4,500 TFLOPS per GPU), NVLink 5 1,800 GB/s, about 1,100 W per GPU; announced GTC 2025-03', true),
  ('MI250X', 'AMD', 'AMD Instinct MI250X', 128, NULL, 3276.8, 47.9, NULL, 383, 383, NULL, 800, 64, 4, 560, NULL, NULL, '2021-11-01', 'AMD Instinct MI250X datasheet: 128 GB HBM2e, 3.2768 TB/s, FP32 vector 47.9 (matrix 95.7), FP16/BF16 383 TFLOPS (no sparsity: dense), no TF32 or FP8, 500-560 W OAM, Infinity Fabric up to 800 GB/s peer bandwidth (8 links; held in nvlink_gb_per_s), PCIe Gen4 x16; one package is two GCDs that software sees as two 64 GB GPUs, here counted as one; 4 per node (Frontier, HPE Cray EX235a); launched 2021-11-08', true),
  ('MI325X', 'AMD', 'AMD Instinct MI325X', 256, NULL, 6000, 163.4, NULL, 1307.4, 1307.4, 2614.9, 896, 128, 8, 1000, NULL, NULL, '2024-10-01', 'AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s, dense FP32 163.4, FP16/BF16 1,307.4, FP8 2,614.9 TFLOPS (CDNA 3 compute as MI300X), 1,000 W, Infinity Fabric 896 GB/s per GPU in the 8-GPU platform (held in nvlink_gb_per_s), PCIe Gen5 x16; launched 2024-10-10', true),
  ('MI355X', 'AMD', 'AMD Instinct MI355X', 288, NULL, 8000, 157.3, NULL, 2516.6, 2516.6, 5033.2, 1075.2, 128, 8, 1400, NULL, NULL, '2025-06-01', 'AMD Instinct MI355X datasheet: 288 GB HBM3E, 8 TB/s, FP32 157.3, FP16/BF16 2,516.6 (5,033.2 with sparsity), FP8 5,033.2 (10,066.4 with sparsity) TFLOPS, 1,400 W (liquid cooled), Infinity Fabric 7 links x 153.6 GB/s = 1,075.2 GB/s (held in nvlink_gb_per_s), PCIe Gen5 x16, 8 per platform; launched 2025-06-12', true),
  ('Gaudi2', 'Intel', 'Intel Gaudi 2', 96, NULL, 2460, NULL, NULL, 432, 432, 865, 525, 64, 8, 600, NULL, NULL, '2022-05-01', 'Intel Gaudi 2 product brief and white paper: 96 GB HBM2E, 2.46 TB/s, matrix-engine BF16 432 and FP8 865 TFLOPS (no sparsity mode: dense), 600 W OAM; 24 x 100 GbE RoCE ports on chip, 21 of them to the other 7 cards of an 8-card server: 21 x 100 Gbit/s = 262.5 GB/s each way, 525 GB/s both directions (held in nvlink_gb_per_s); host PCIe Gen4 x16; launched Intel Vision 2022-05', true),
  ('Gaudi3', 'Intel', 'Intel Gaudi 3', 128, NULL, 3700, NULL, NULL, 1835, 1835, 1835, 1050, 128, 8, 900, NULL, NULL, '2024-04-01', 'Intel Gaudi 3 AI accelerator white paper: 128 GB HBM2e, 3.7 TB/s, matrix-engine BF16 and FP8 1,835 TFLOPS (dense), 900 W OAM (HL-325L); 24 x 200 GbE RoCE ports on chip, 21 to the other 7 cards of an 8-card server: 525 GB/s each way, 1,050 GB/s both directions (held in nvlink_gb_per_s); host PCIe Gen5 x16; announced Intel Vision 2024-04', true),
  ('TPU-v4', 'Google', 'Google Cloud TPU v4', 32, NULL, 1200, NULL, NULL, 275, NULL, NULL, 300, 32, 4096, 192, NULL, NULL, '2021-05-01', 'Google Cloud TPU v4 documentation (system architecture): 32 GB HBM2, 1,200 GB/s, BF16 275 TFLOPS (no sparsity), 192 W maximum, PCIe Gen3 x16; chips are linked by the inter-chip interconnect (ICI, 2,400 Gbit/s per chip = 300 GB/s, held in nvlink_gb_per_s) into pods of 4,096 (Jouppi et al. 2023, ISCA, ''TPU v4: An Optically Reconfigurable Supercomputer''), so gpus_per_node is the ICI domain, 4,096; announced Google I/O 2021-05', true),
  ('RTX-5090', 'NVIDIA', 'NVIDIA GeForce RTX 5090', 32, NULL, 1792, 104.8, NULL, 209.5, 209.5, 419, NULL, 128, 8, 575, NULL, NULL, '2025-01-01', 'NVIDIA RTX Blackwell GPU architecture figures for the GeForce RTX 5090: 32 GB GDDR7, 1,792 GB/s, FP32 104.8 TFLOPS, 575 W, PCIe 5.0 x16; FP16 tensor 838.4 TFLOPS with sparsity and FP16 accumulate, so 419 dense, and GeForce runs FP32 accumulate at half rate: BF16/FP16 209.5 and FP8 419 dense with FP32 accumulate (as the RTX-4090 row); TF32 not confirmed, left empty; launched 2025-01-30', true),
  ('RTX-PRO-6000', 'NVIDIA', 'NVIDIA RTX PRO 6000 Blackwell', 96, NULL, 1792, 125, NULL, 500, 500, 1000, NULL, 128, 8, 600, NULL, NULL, '2025-03-01', 'NVIDIA RTX PRO 6000 Blackwell Workstation/Server Edition figures (GTC 2025-03): 96 GB GDDR7 ECC, 1,792 GB/s, FP32 125 TFLOPS, 4,000 AI TOPS (FP4 with sparsity), 600 W (Max-Q 300 W, Server Edition up to 600 W), PCIe 5.0 x16; dense tensor peaks derived from the 4,000 FP4 TOPS: FP8 1,000 and FP16/BF16 500 TFLOPS (professional cards run FP32 accumulate at full rate); TF32 not confirmed, left empty', true)
ON CONFLICT DO NOTHING;

-- mfu_reference: Narayanan et al. 2021's 52% counts recomputation (hardware FLOPs); as MFU it is 0.39.
UPDATE llm_econ.mfu_reference SET (config, hardware, mfu, year, source, builtin) =
  ('Megatron-LM GPT 1T (3072 GPUs)', 'NVIDIA A100 (Selene) + Megatron-LM', 0.39, 2021, 'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21): 1T parameters at 502 petaFLOP/s on 3072 GPUs, 52% of peak; that count includes the extra forward pass of full activation recomputation (its FLOPs formula 96BslH^2(1 + s/6H + V/16lH) has 4 passes where model FLOPs have 3), so it is hardware FLOPs utilisation; MFU = 0.52 x 3/4 = 0.39 (0.2.0 listed 0.52, which made planned runs 25% short)', true)
 WHERE config OPERATOR(pg_catalog.=) 'Megatron-LM GPT 1T (3072 GPUs)' AND builtin;
-- Size-dependent references: Megatron-LM 2022 (22B-1T), Llama 3.1 8B/70B/405B, DeepSeek-V3.
INSERT INTO llm_econ.mfu_reference (config, hardware, mfu, year, source, builtin) VALUES
  ('Megatron-LM GPT 22B (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.415, 2022, 'Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models (arXiv 2205.05198), as tabulated in the NVIDIA/Megatron-LM README: 22B MFU 41.5%, HFU 43.7% (benchmark runs, data-parallel size 1)', true),
  ('Megatron-LM GPT 175B (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.514, 2022, 'Korthikanti et al. 2022 (arXiv 2205.05198) via the NVIDIA/Megatron-LM README table: 175B MFU 51.4%, HFU 52.8%', true),
  ('Megatron-LM GPT 530B (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.560, 2022, 'Korthikanti et al. 2022 (arXiv 2205.05198) via the NVIDIA/Megatron-LM README table: 530B MFU 56.0%, HFU 57.0%', true),
  ('Megatron-LM GPT 1T (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.563, 2022, 'Korthikanti et al. 2022 (arXiv 2205.05198) via the NVIDIA/Megatron-LM README table: 1T MFU 56.3%, HFU 57.0%', true),
  ('Llama 3.1 405B (8192 GPUs)', 'NVIDIA H100 80GB (TP8 PP16 DP64)', 0.43, 2024, 'Llama Team 2024, The Llama 3 Herd of Models (arXiv 2407.21783), Table 4: 8,192 GPUs, TP 8, CP 1, PP 16, DP 64, 8,192-token sequences, 430 TFLOPs/GPU, BF16 MFU 43% (38% at 16,384 GPUs with CP 16 and 131,072-token sequences); MFU there counts attention FLOPs', true),
  ('Llama 3.1 405B (model card GPU-hours)', 'NVIDIA H100 80GB', 0.35, 2024, 'Llama 3.1 model card: 30.84M H100-80GB GPU-hours for 405B on about 15.6T tokens (Llama 3 report section 3.1); 6ND / (GPU-hours x 989 TFLOP/s) = 3.79e25 / 1.10e26 = 0.35: everything the published hours include (restarts, evaluation), 6ND convention', true),
  ('Llama 3.1 70B (model card GPU-hours)', 'NVIDIA H100 80GB', 0.25, 2024, 'Llama 3.1 model card: 7.0M H100-80GB GPU-hours for 70B on about 15T tokens; 6ND / (GPU-hours x 989 TFLOP/s) = 6.3e24 / 2.49e25 = 0.25 (6ND convention, all published hours)', true),
  ('Llama 3.1 8B (model card GPU-hours)', 'NVIDIA H100 80GB', 0.14, 2024, 'Llama 3.1 model card: 1.46M H100-80GB GPU-hours for 8B on about 15T tokens; 6ND / (GPU-hours x 989 TFLOP/s) = 7.2e23 / 5.20e24 = 0.14 (6ND convention, all published hours: small models run far below the large ones)', true),
  ('DeepSeek-V3 671B MoE (37B active)', 'NVIDIA H800 (FP8 mixed precision)', 0.35, 2024, 'DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv 2412.19437), Table 1: 2,664K H800 GPU-hours of pre-training on 14.8T tokens, 2,048 H800; 6 x 37e9 active x 14.8e12 / (2.664e6 h x 3600 s x 989e12 BF16 dense FLOP/s) = 0.35 against the BF16 peak (0.17 against the FP8 peak the GEMMs mostly ran at)', true)
ON CONFLICT DO NOTHING;

-- ---- stored plans ------------------------------------------------------------------------------------
-- run_plan holds specs built by the 0.1.0/0.2.0 constructor.  Give them the values the 0.3.0 constructor
-- writes for the new fields (their defaults: what NULL means anyway), and re-freeze the HBM of shipped
-- SKUs whose driver-reported size is now known, where the plan still holds the decimal-GB figure 0.2.0
-- froze (a hand-edited figure is kept).  Nothing priced changes: GPU-hours and USD depend on neither.
-- The freeze trigger is bypassed: it would re-check each plan's SKU and price, which a restore-like
-- rewrite of a field the price does not depend on must not do (a plan whose SKU was deleted since stays).
DO $$
DECLARE
  role text := pg_catalog.current_setting('session_replication_role');
BEGIN
  PERFORM pg_catalog.set_config('session_replication_role', 'replica', true);
  UPDATE llm_econ.run_plan
     SET spec.ep = COALESCE((spec).ep, 1),
         spec.cp = COALESCE((spec).cp, 1),
         spec.vpp = COALESCE((spec).vpp, 1),
         spec.ffn_act = COALESCE((spec).ffn_act, 'gelu'),
         spec.sequence_parallel = COALESCE((spec).sequence_parallel, true),
         spec.attention = COALESCE((spec).attention, 'flash'),
         spec.grad_dtype = COALESCE((spec).grad_dtype, 'bf16');
  UPDATE llm_econ.run_plan p
     SET spec.hbm_bytes = g.hbm_bytes
    FROM llm_econ.gpu_sku g,
         (VALUES ('A100-80GB', 80e9::float8), ('H100-SXM5', 80e9::float8), ('H100-PCIe', 80e9::float8),
                 ('H200-SXM5', 141e9::float8), ('B200', 192e9::float8)) AS old(sku, hbm_bytes)
   WHERE g.sku OPERATOR(pg_catalog.=) old.sku AND g.builtin AND g.hbm_bytes IS NOT NULL
     AND (p.spec).sku OPERATOR(pg_catalog.=) old.sku
     AND (p.spec).hbm_bytes OPERATOR(pg_catalog.=) old.hbm_bytes;
  PERFORM pg_catalog.set_config('session_replication_role', role, true);
END
$$;
