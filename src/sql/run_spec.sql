-- The run_spec type and its validating constructor.

COMMENT ON TYPE llm_econ.run_spec IS
  'one training run: workload, cluster, efficiency, the hardware figures frozen from gpu_sku when built, model shape and parallel strategy';
COMMENT ON COLUMN llm_econ.run_spec.n_params IS 'N, non-embedding parameters';
COMMENT ON COLUMN llm_econ.run_spec.n_tokens IS 'D, training tokens';
COMMENT ON COLUMN llm_econ.run_spec.sku IS 'gpu_sku key the hardware figures were frozen from';
COMMENT ON COLUMN llm_econ.run_spec.n_gpus IS 'G, GPUs in the run';
COMMENT ON COLUMN llm_econ.run_spec.gpus_per_node IS 'GPUs sharing one NVLink domain (node)';
COMMENT ON COLUMN llm_econ.run_spec.mfu IS 'model FLOPs utilisation, (0, 1]';
COMMENT ON COLUMN llm_econ.run_spec.dtype IS 'compute precision: fp32, tf32, bf16, fp16, fp8';
COMMENT ON COLUMN llm_econ.run_spec.peak_flops IS 'dense peak FLOP/s per GPU at dtype (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.hbm_bytes IS 'HBM per GPU, bytes (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.intra_node_bytes_per_s IS 'NVLink (or PCIe when none) per GPU, one direction, bytes/s (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.inter_node_bytes_per_s IS 'network per GPU, one direction, bytes/s';
COMMENT ON COLUMN llm_econ.run_spec.tdp_watts IS 'board power per GPU, W (frozen); NULL = not published, energy and carbon are then NULL';
COMMENT ON COLUMN llm_econ.run_spec.n_layers IS 'transformer layers; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.d_model IS 'hidden size; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.n_heads IS 'attention heads; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.seq_len IS 'sequence length, tokens; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.micro_batch IS 'sequences per micro-batch';
COMMENT ON COLUMN llm_econ.run_spec.global_batch IS 'sequences per optimizer step; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.tp IS 'tensor-parallel degree';
COMMENT ON COLUMN llm_econ.run_spec.pp IS 'pipeline-parallel degree';
COMMENT ON COLUMN llm_econ.run_spec.zero_stage IS 'ZeRO/FSDP stage over dp, 0-3';
COMMENT ON COLUMN llm_econ.run_spec.recompute IS 'activation recomputation: none, selective, full';
COMMENT ON COLUMN llm_econ.run_spec.optimizer IS 'adamw, adamw_8bit, sgd';
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
COMMENT ON COLUMN llm_econ.run_spec.hbm_bytes_per_s IS 'HBM bandwidth per GPU, bytes/s (frozen from gpu_sku.hbm_gb_per_s); NULL = unknown, the step-time model then refuses the value';
COMMENT ON COLUMN llm_econ.run_spec.gpu_generation IS
  'GPU generation choosing the step-time model''s efficiency curves (from gpu_sku.generation); NULL = unknown, refused by the step-time model';

COMMENT ON COLUMN llm_econ.run_spec.q_lora_rank IS 'multi-head latent attention (DeepSeek-V2/V3): rank of the query down/up projection; NULL = queries projected directly (or plain attention)';
COMMENT ON COLUMN llm_econ.run_spec.kv_lora_rank IS 'multi-head latent attention: rank of the shared key/value latent; NULL = plain attention (with qk_nope_head_dim, qk_rope_head_dim and v_head_dim: all or none)';
COMMENT ON COLUMN llm_econ.run_spec.qk_nope_head_dim IS 'multi-head latent attention: query/key size per head without rotary embedding; NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.qk_rope_head_dim IS 'multi-head latent attention: query/key size per head with rotary embedding (the key part shared by all heads); NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.v_head_dim IS 'multi-head latent attention: value size per head; NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.stack IS 'software that runs the step: megatron (Megatron-LM/NeMo, Transformer Engine), torch_compile, torch_eager; NULL = megatron';
COMMENT ON COLUMN llm_econ.run_spec.fp8_attention IS 'with dtype fp8, whether attention also runs in FP8; NULL = false (the linear layers'' GEMMs only)';
COMMENT ON COLUMN llm_econ.run_spec.fsdp_reshard IS 'ZeRO-3/FSDP: whether parameters are resharded between micro-batches; NULL = the stack''s default (torch stacks with pp > 1 keep them unsharded)';
COMMENT ON COLUMN llm_econ.run_spec.dropout IS 'whether the model trains with dropout: its masks are stored as activations (Korthikanti et al. 2022); NULL = false (Llama 2/3, DeepSeek-V3 train without)';

CREATE OR REPLACE FUNCTION llm_econ.run_spec(
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
    attention text DEFAULT 'flash', grad_dtype text DEFAULT 'bf16',
    q_lora_rank int4 DEFAULT NULL, kv_lora_rank int4 DEFAULT NULL,
    qk_nope_head_dim int4 DEFAULT NULL, qk_rope_head_dim int4 DEFAULT NULL,
    v_head_dim int4 DEFAULT NULL, dropout boolean DEFAULT false,
    stack text DEFAULT 'megatron', fp8_attention boolean DEFAULT false, fsdp_reshard boolean DEFAULT NULL)
RETURNS llm_econ.run_spec
AS 'MODULE_PATHNAME', 'le_run_spec'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8,
                                      float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text,
                                      int4, int4, int4, int4, int4, boolean, text, boolean, boolean) IS
  'validating run_spec constructor: looks the SKU up by key or alias (any case) and freezes its figures into the value (docs/types.md)';
