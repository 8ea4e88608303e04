/* memory.c: training memory per GPU on the heaviest pipeline stage: model states under TP/PP/EP and ZeRO, activations (Korthikanti et al. 2022), overhead. */
#include "econ.h"

#include <math.h>

/*
 * Bytes per parameter of weights, gradients and optimizer state.
 * Mixed precision (bf16/fp16/fp8 compute): 16-bit weights and gradients plus
 * an fp32 master copy in the optimizer state.  AdamW: master 4 + m 4 + v 4 =
 * 12, so 2 + 2 + 12 = 16 (Rajbhandari et al. 2019, "ZeRO", §3.1, K = 12).
 * 8-bit Adam keeps m and v in one byte each (Dettmers et al. 2022, "8-bit
 * Optimizers via Block-wise Quantization"): master 4 + 1 + 1 = 6.  SGD with
 * momentum: master 4 + momentum 4 = 8.
 * fp32/tf32 compute: weights and gradients are fp32 and are the master copy,
 * so the optimizer holds only its moments: AdamW 8, 8-bit Adam 2, SGD 4.
 * grad_dtype fp32 makes mixed-precision gradients 4 bytes (le_memory_per_gpu).
 */
static const double state_bytes[2][3][3] = {
	/* mixed precision: weights, grads, optimizer */
	{{2, 2, 12}, {2, 2, 6}, {2, 2, 8}},
	/* fp32 / tf32 */
	{{4, 4, 8}, {4, 4, 2}, {4, 4, 4}},
};

/* The widths a layer's activations are built from (Korthikanti et al. 2022's notation). */
typedef struct layer_shape
{
	double		sbh;			/* s·b·h with s the GPU's share of the sequence (s/cp) */
	double		score;			/* eager attention: 5·a·s·(s/cp)·b bytes of score tensors */
	double		stats;			/* flash attention: fp32 softmax statistics, 4·a·(s/cp)·b bytes */
	double		kv;				/* n_kv_heads / n_heads: GQA's share of K and V */
	double		mlp;			/* the FFN's inner tensors, in units of sbh */
	double		gi;				/* bytes per element of a GEMM-only input: 2, or 1 in fp8 */
	double		t;				/* tp */
	int			sp;				/* sequence parallelism on (when tp > 1) */
	int			flash;
	double		width;			/* 2 for fp32/tf32 activations, else 1 */
	double		masks;			/* dropout masks, in units of sbh: 2 (after attention and after the MLP), 0 without dropout */
	int			mla;			/* multi-head latent attention */
	double		mla_sharded;	/* MLA: Q, K, V and the output projection's input, in units of sbh */
	double		mla_latent;		/* MLA: the query and key/value latents, in units of sbh */
	double		mla_out;		/* MLA: the output projection's input alone, in units of sbh */
} layer_shape;

/*
 * Bytes per element of a tensor kept only as the input of a matrix multiply:
 * 2 (16-bit), but 1 when the run computes in fp8, since FP8 training keeps
 * the FP8 copy it made for the forward GEMM for the weight-gradient GEMM of
 * the backward (NVIDIA Transformer Engine; DeepSeek-V3 report §3.3.2 caches
 * these activations in FP8).  fp32 runs double everything (the width).
 */
static double
gemm_input_units(const le_spec *s)
{
	return (int) s->num[LE_F_DTYPE] == LE_DT_FP8 ? 1.0 : 2.0;
}

/*
 * The FFN's stored tensors, in units of s·b·h bytes, with f = ffn_hidden
 * and gi = gemm_input_units: a GELU FFN keeps the first linear's output (the
 * GELU input, 2·f/h) and the GELU output that feeds the second linear
 * (gi·f/h): with f = 4h and gi = 2 the 16 of Korthikanti's 19·sbh MLP term.
 * SwiGLU (Shazeer 2020) keeps its two input projections (2·2·f/h; Megatron-
 * LM's fused bias-SwiGLU saves its input and recomputes the activation) and
 * the product fed to the output projection (gi·f/h).  A mixture of experts
 * sends each token to top_k experts of inner size f: top_k copies of the
 * dispatched input (gi each, the experts' first GEMM input) and of the
 * expert's inner tensors.
 */
static double
mlp_units(const le_spec *s)
{
	double		h = s->num[LE_F_D_MODEL];
	double		f = le_num_or(s, LE_F_FFN_HIDDEN, 4.0 * h);
	double		gi = gemm_input_units(s);
	double		per = (((int) le_num_or(s, LE_F_FFN_ACT, LE_ACT_GELU) == LE_ACT_SWIGLU ? 4.0 : 2.0) + gi) * f / h;

	if (s->present & LE_BIT(LE_F_N_EXPERTS))
		return s->num[LE_F_TOP_K] * (gi + per);
	return per;
}

static layer_shape
shape_of(const le_spec *s)
{
	layer_shape x;
	double		sq = s->num[LE_F_SEQ_LEN];
	double		sl = sq / le_num_or(s, LE_F_CP, 1);	/* context parallelism: each GPU holds s/cp tokens */
	double		b = s->num[LE_F_MICRO_BATCH];
	double		a = s->num[LE_F_N_HEADS];
	int			dropout = le_num_or(s, LE_F_DROPOUT, 0) != 0;
	le_attn_shape at;

	x.sbh = sl * b * s->num[LE_F_D_MODEL];
	/* softmax output 2, its dropout mask 1 and the dropout output 2; without dropout the softmax output only */
	x.score = (dropout ? 5.0 : 2.0) * a * sq * sl * b;
	x.stats = 4.0 * a * sl * b;
	x.kv = le_num_or(s, LE_F_N_KV_HEADS, a) / a;
	x.mlp = mlp_units(s);
	x.gi = gemm_input_units(s);
	x.t = s->num[LE_F_TP];
	x.sp = x.t > 1 && le_num_or(s, LE_F_SEQUENCE_PARALLEL, 1) != 0;
	x.flash = (int) le_num_or(s, LE_F_ATTENTION, LE_ATT_FLASH) == LE_ATT_FLASH;
	x.width = le_is_fp32(s) ? 2.0 : 1.0;
	x.masks = dropout ? 2.0 : 0.0;
	le_attn_of_spec(s, &at);
	x.mla = at.kv_rank > 0;
	x.mla_sharded = le_attn_sharded_units(&at, x.gi) / s->num[LE_F_D_MODEL];
	x.mla_latent = le_attn_latent_units(&at, x.gi) / s->num[LE_F_D_MODEL];
	x.mla_out = x.gi * at.heads * at.d_v / s->num[LE_F_D_MODEL];
	return x;
}

/*
 * Activation bytes of one transformer layer for one micro-batch on one GPU,
 * after Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models", §4 and Table 2 (16-bit activations; fp32 doubles them).
 * Their 34·s·b·h + 5·a·s²·b splits into
 *   10·sbh that tensor parallelism alone leaves whole on every rank (the two
 *     layer-norm inputs 4, the attention and MLP inputs 2 + 2, the two
 *     dropout masks 1 + 1); sequence parallelism shards them over t too;
 *   24·sbh inside the tensor-parallel region, sharded over t: Q 2, K 2, V 2,
 *     the output projection's input 2, and the MLP's 16 (mlp_units);
 *   5·a·s²·b of attention scores (softmax output 2, its dropout mask 1 and
 *     output 2), sharded over t.
 * Generalised here: the dropout masks (the 1 + 1 and the score mask) only
 * when the model has dropout (GPT-3-era Megatron models do, with
 * Megatron-LM's default hidden and attention dropout 0.1; Llama 2/3 and
 * DeepSeek-V3 train without: then 32·sbh + 2·a·s²·b); K and V shrink to
 * n_kv_heads/n_heads (GQA, Ainslie et al. 2023); multi-head latent attention
 * keeps its per-head Q, K (d_nope + d_rope), V and output-projection input
 * (d_v) in the tensor-parallel region and its two latents whole
 * (le_attn_sharded_units, le_attn_latent_units); tensors kept only as GEMM inputs take 1 byte in fp8 runs; FlashAttention (Dao et al. 2022) keeps no score tensor, only
 * fp32 softmax statistics per head and query; context parallelism divides
 * the sequence (Llama 3 report §3.3.2), so the scores become 5·a·s·(s/cp)·b.
 * With t = tp: tensor-parallel only, sbh·(10 + 24/t + 5·a·s/(h·t)); with
 * sequence parallelism, sbh·(34 + 5·a·s/h)/t (both Table 2).
 * Selective recomputation recomputes the attention core (the score term),
 * and with latent attention its up projections (Q, K, V from the latents);
 * full recomputation keeps each layer's input, 2·sbh, sharded over t under
 * sequence parallelism (Korthikanti §4.2.2).
 */
static double
layer_activation_bytes(const le_spec *s, int recompute)
{
	layer_shape x = shape_of(s);
	/* layer-norm inputs 4, attention and MLP inputs gi + gi, dropout masks 1 + 1 (when the model has dropout); MLA's latents */
	double		whole = (4.0 + x.masks + 2.0 * x.gi + (x.mla ? x.mla_latent : 0)) * x.sbh;
	/* Q 2, K and V 2 each scaled by GQA, the output projection's input gi (MLA: its own head sizes), the MLP */
	double		sharded = ((x.mla ? x.mla_sharded : 2.0 + 4.0 * x.kv + x.gi) + x.mlp) * x.sbh;
	double		scores = x.flash ? x.stats : x.score * x.width;

	if (recompute == LE_RC_FULL)
		return x.width * 2.0 * x.sbh / (x.sp ? x.t : 1.0);
	if (recompute == LE_RC_SELECTIVE)
		scores = 0;
	/*
	 * Latent attention: selective recomputation also recomputes the up
	 * projections from the latents, as DeepSeek-V3 does (arXiv 2412.19437
	 * §3.2.3, "Recomputation of RMSNorm and MLA Up-Projection"): Q, K and V
	 * are not kept, the latents and the output projection's input are.
	 */
	if (recompute == LE_RC_SELECTIVE && x.mla)
		sharded = (x.mla_out + x.mlp) * x.sbh;
	return x.width * (whole / (x.sp ? x.t : 1.0) + sharded / x.t) + scores / x.t;
}

/*
 * Activations held at the peak on pipeline stage i (of pp), which holds
 * le_layers_on_stage layers.  With 1F1B scheduling stage i keeps
 * min(pp − i, m) micro-batches in flight (the first stage pp: about L
 * layers' worth; Korthikanti et al. 2022 §4.2.3, Narayanan et al. 2021
 * §2.2.1); the interleaved schedule with vpp virtual stages keeps
 * L·(1 + (pp−1)/(pp·vpp)) on the first stage (Korthikanti §4.2.3).  Full
 * recomputation also needs one layer's complete activations while that
 * layer's backward runs.  The last stage adds the logits, 4·s·b·V bytes
 * (fp32, vocabulary sharded over tp by Megatron-LM's vocab-parallel
 * cross-entropy), when vocab_size is known.
 */
static double
activation_bytes(const le_spec *s, int i)
{
	double		layers = le_layers_on_stage(s, i);
	double		pp = s->num[LE_F_PP];
	double		v = le_num_or(s, LE_F_VPP, 1);
	double		m = le_micro_batches(s);
	double		in_flight;
	int			rc = (int) s->num[LE_F_RECOMPUTE];
	double		bytes;

	if (v > 1 && i == 0)
		in_flight = pp * (1.0 + (pp - 1.0) / (pp * v));
	else
		in_flight = pp - i;
	if (m > 0 && m < in_flight)
		in_flight = m;
	bytes = layer_activation_bytes(s, rc) * layers * in_flight;
	if (rc == LE_RC_FULL)
		bytes += layer_activation_bytes(s, LE_RC_NONE);
	if (i == pp - 1 && (s->present & LE_BIT(LE_F_VOCAB_SIZE)))
		bytes += 4.0 * s->num[LE_F_SEQ_LEN] / le_num_or(s, LE_F_CP, 1) * s->num[LE_F_MICRO_BATCH] *
			s->num[LE_F_VOCAB_SIZE] / s->num[LE_F_TP];
	return bytes;
}

/*
 * Model states of stage i.  Dense parameters (and the embedding on the
 * first stage, the output layer on the last, V·h each when vocab_size is
 * known, sharded over tp by Megatron-LM's vocab-parallel embedding) are
 * divided by tp, expert parameters by tp·ep (expert parallelism places
 * n_experts/ep experts per rank; Lepikhin et al. 2020, "GShard";
 * DeepSpeed-MoE), both for the stage's share of the layers (1/pp when
 * n_layers is unknown).  ZeRO (Rajbhandari et al. 2019, Figure 1) shards
 * what its stage says over the dp·cp ranks that hold the same weights
 * (context-parallel ranks hold the same parameters: Megatron-LM's
 * distributed optimizer and FSDP2 shard over the combined dp·cp group) for
 * dense parameters and over dp·cp/ep, the expert data-parallel group, for
 * expert parameters (Megatron-LM's distributed optimizer does the same for
 * stage 1).  step.c's optimizer phase shards the same way.
 */
static void
stage_states(const le_spec *s, const double *per_param, int i, le_memory *m)
{
	double		tp = s->num[LE_F_TP];
	double		pp = s->num[LE_F_PP];
	double		ep = le_num_or(s, LE_F_EP, 1);
	double		dp = le_dp(s) * le_num_or(s, LE_F_CP, 1);	/* the sharding group: dp·cp */
	int			zero = (int) s->num[LE_F_ZERO_STAGE];
	double		share = (s->present & LE_BIT(LE_F_N_LAYERS)) ?
		le_layers_on_stage(s, i) / s->num[LE_F_N_LAYERS] : 1.0 / pp;
	double		experts = le_expert_params(s);
	double		dense = (s->num[LE_F_N_PARAMS] - experts) * share / tp;
	double		expert = experts * share / (tp * ep);
	/* ZeRO-3 under a pipeline on the torch stacks: parameters held unsharded between micro-batches (le_spec_fsdp_keeps) */
	int			shard_w = zero >= 3 && !le_spec_fsdp_keeps(s);

	if ((s->present & LE_BIT(LE_F_VOCAB_SIZE)) && (s->present & LE_BIT(LE_F_D_MODEL)))
		dense += ((i == 0) + (i == pp - 1)) * s->num[LE_F_VOCAB_SIZE] * s->num[LE_F_D_MODEL] / tp;

	m->weights = per_param[0] * (dense / (shard_w ? dp : 1) + expert / (shard_w ? dp / ep : 1));
	m->grads = per_param[1] * (dense / (zero >= 2 ? dp : 1) + expert / (zero >= 2 ? dp / ep : 1));
	m->optimizer = per_param[2] * (dense / (zero >= 1 ? dp : 1) + expert / (zero >= 1 ? dp / ep : 1));
}

/* Stage i's memory: states, activations (NaN when the shape is unknown), overhead, total. */
static void
stage_memory(const le_spec *s, const double *per_param, int i, le_memory *m)
{
	stage_states(s, per_param, i, m);
	m->activations = le_shape_known(s) ? activation_bytes(s, i) : NAN;
	m->overhead = LE_OVERHEAD_FIXED_BYTES +
		LE_OVERHEAD_FRAGMENTATION * (m->weights + m->grads + m->optimizer);
	m->total = m->weights + m->grads + m->optimizer + m->activations + m->overhead;
	m->hbm = s->num[LE_F_HBM_BYTES];
}

/*
 * Memory per GPU on the heaviest pipeline stage.  Model states are divided
 * by tp and by the stage's share of the layers, then ZeRO shards them over
 * dp·cp (Rajbhandari et al. 2019, Figure 1): stage 1 the optimizer state,
 * stage 2 also the gradients, stage 3 also the weights.  The candidates for
 * the heaviest stage are the first (embedding, most micro-batches in
 * flight), the second (the first with an extra layer when the split is
 * uneven) and the last (output layer, logits); the largest total is
 * reported (by model states when activations are unknown).
 *
 * Gradients: grad_dtype fp32 keeps 4-byte main gradients in mixed precision
 * (Megatron-LM's default, 18 bytes per parameter with Adam).
 *
 * Overhead: a fixed LE_OVERHEAD_FIXED_BYTES for the CUDA context (about
 * 0.3-1 GB with cuBLAS/cuDNN loaded; PyTorch "CUDA semantics" notes that the
 * context is not counted by its allocator) and NCCL buffers (NCCL_BUFFSIZE
 * 4 MiB per channel and peer, NCCL environment-variable docs), plus
 * LE_OVERHEAD_FRAGMENTATION of the model states for the caching allocator's
 * fragmentation (ZeRO §3.2 names fragmentation among the "residual states").
 */
le_status
le_memory_per_gpu(const le_spec *s, le_memory *m, le_error *err)
{
	double		per_param[3];
	int			fp32,
				pp,
				cand[3],
				nc = 0;

	if (le_check_fields(s, LE_NEED_MEMORY, err) != LE_OK ||
		le_check_relations(s, err) != LE_OK)
		return err->status;

	fp32 = le_is_fp32(s);
	for (int i = 0; i < 3; i++)
		per_param[i] = state_bytes[fp32][(int) s->num[LE_F_OPTIMIZER]][i];
	if (!fp32 && (int) le_num_or(s, LE_F_GRAD_DTYPE, LE_GD_BF16) == LE_GD_FP32)
		per_param[1] = 4;

	pp = (int) s->num[LE_F_PP];
	cand[nc++] = 0;
	if (pp > 2)
		cand[nc++] = 1;
	if (pp > 1)
		cand[nc++] = pp - 1;
	for (int c = 0; c < nc; c++)
	{
		le_memory	x;

		stage_memory(s, per_param, cand[c], &x);
		if (c == 0 ||
			(isnan(x.total) || isnan(m->total) ?
			 x.weights + x.grads + x.optimizer > m->weights + m->grads + m->optimizer :
			 x.total > m->total))
			*m = x;
	}

	if (!isfinite(m->weights + m->grads + m->optimizer + m->overhead) ||
		(le_shape_known(s) && !isfinite(m->total)))
		return le_set_error(err, LE_ERR_OVERFLOW, NULL, "memory_per_gpu is out of range");
	return LE_OK;
}

/*
 * Does it fit?  False when model states and overhead alone exceed HBM,
 * unknown when they fit but activations are unknown, else total <= HBM.
 */
le_tribool
le_fits(const le_memory *m)
{
	if (m->weights + m->grads + m->optimizer + m->overhead > m->hbm)
		return LE_FALSE;
	if (isnan(m->total))
		return LE_UNKNOWN;
	return m->total <= m->hbm ? LE_TRUE : LE_FALSE;
}
