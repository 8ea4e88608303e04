/* spec.c: the run_spec field table, the closed name lists (dtype, recompute, optimizer, pricing, ffn_act, attention, grad_dtype) and derived quantities. */
#include "econ.h"

#include <math.h>
#include <string.h>

/* What the core knows about each field: its SQL name and how it is stored. */
typedef struct field_info
{
	const char *name;
	le_kind		kind;
	le_enum		list;			/* for LE_K_ENUM */
} field_info;

static const field_info fields[LE_F__COUNT] = {
	[LE_F_N_PARAMS] = {"n_params", LE_K_FLOAT8, 0},
	[LE_F_N_TOKENS] = {"n_tokens", LE_K_FLOAT8, 0},
	[LE_F_SKU] = {"sku", LE_K_TEXT, 0},
	[LE_F_N_GPUS] = {"n_gpus", LE_K_INT4, 0},
	[LE_F_GPUS_PER_NODE] = {"gpus_per_node", LE_K_INT4, 0},
	[LE_F_MFU] = {"mfu", LE_K_FLOAT8, 0},
	[LE_F_DTYPE] = {"dtype", LE_K_ENUM, LE_E_DTYPE},
	[LE_F_PEAK_FLOPS] = {"peak_flops", LE_K_FLOAT8, 0},
	[LE_F_HBM_BYTES] = {"hbm_bytes", LE_K_FLOAT8, 0},
	[LE_F_INTRA_BW] = {"intra_node_bytes_per_s", LE_K_FLOAT8, 0},
	[LE_F_INTER_BW] = {"inter_node_bytes_per_s", LE_K_FLOAT8, 0},
	[LE_F_TDP_WATTS] = {"tdp_watts", LE_K_FLOAT8, 0},
	[LE_F_N_LAYERS] = {"n_layers", LE_K_INT4, 0},
	[LE_F_D_MODEL] = {"d_model", LE_K_INT4, 0},
	[LE_F_N_HEADS] = {"n_heads", LE_K_INT4, 0},
	[LE_F_SEQ_LEN] = {"seq_len", LE_K_INT4, 0},
	[LE_F_MICRO_BATCH] = {"micro_batch", LE_K_INT4, 0},
	[LE_F_GLOBAL_BATCH] = {"global_batch", LE_K_INT4, 0},
	[LE_F_TP] = {"tp", LE_K_INT4, 0},
	[LE_F_PP] = {"pp", LE_K_INT4, 0},
	[LE_F_ZERO_STAGE] = {"zero_stage", LE_K_INT4, 0},
	[LE_F_RECOMPUTE] = {"recompute", LE_K_ENUM, LE_E_RECOMPUTE},
	[LE_F_OPTIMIZER] = {"optimizer", LE_K_ENUM, LE_E_OPTIMIZER},
	[LE_F_N_ACTIVE_PARAMS] = {"n_active_params", LE_K_FLOAT8, 0},
	[LE_F_N_EXPERTS] = {"n_experts", LE_K_INT4, 0},
	[LE_F_TOP_K] = {"top_k", LE_K_INT4, 0},
	[LE_F_EP] = {"ep", LE_K_INT4, 0},
	[LE_F_CP] = {"cp", LE_K_INT4, 0},
	[LE_F_VPP] = {"vpp", LE_K_INT4, 0},
	[LE_F_N_KV_HEADS] = {"n_kv_heads", LE_K_INT4, 0},
	[LE_F_FFN_HIDDEN] = {"ffn_hidden", LE_K_INT4, 0},
	[LE_F_FFN_ACT] = {"ffn_act", LE_K_ENUM, LE_E_FFN_ACT},
	[LE_F_VOCAB_SIZE] = {"vocab_size", LE_K_INT4, 0},
	[LE_F_SEQUENCE_PARALLEL] = {"sequence_parallel", LE_K_BOOL, 0},
	[LE_F_ATTENTION] = {"attention", LE_K_ENUM, LE_E_ATTENTION},
	[LE_F_GRAD_DTYPE] = {"grad_dtype", LE_K_ENUM, LE_E_GRAD_DTYPE},
	[LE_F_HBM_BW] = {"hbm_bytes_per_s", LE_K_FLOAT8, 0},
	[LE_F_GPU_GEN] = {"gpu_generation", LE_K_ENUM, LE_E_GPU_GEN},
	[LE_F_Q_LORA_RANK] = {"q_lora_rank", LE_K_INT4, 0},
	[LE_F_KV_LORA_RANK] = {"kv_lora_rank", LE_K_INT4, 0},
	[LE_F_QK_NOPE_HEAD_DIM] = {"qk_nope_head_dim", LE_K_INT4, 0},
	[LE_F_QK_ROPE_HEAD_DIM] = {"qk_rope_head_dim", LE_K_INT4, 0},
	[LE_F_V_HEAD_DIM] = {"v_head_dim", LE_K_INT4, 0},
	[LE_F_DROPOUT] = {"dropout", LE_K_BOOL, 0},
	[LE_F_STACK] = {"stack", LE_K_ENUM, LE_E_STACK},
	[LE_F_FP8_ATTENTION] = {"fp8_attention", LE_K_BOOL, 0},
	[LE_F_FSDP_RESHARD] = {"fsdp_reshard", LE_K_BOOL, 0},
};

/* Name lists, indexed by the enum codes in econ.h; NULL-terminated. */
static const char *const dtype_names[] = {"fp32", "tf32", "bf16", "fp16", "fp8", NULL};
static const char *const recompute_names[] = {"none", "selective", "full", NULL};
static const char *const optimizer_names[] = {"adamw", "adamw_8bit", "sgd", NULL};
static const char *const pricing_names[] = {"on_demand", "spot", "reserved", NULL};
static const char *const ffn_act_names[] = {"gelu", "swiglu", NULL};
static const char *const attention_names[] = {"flash", "eager", NULL};
static const char *const grad_dtype_names[] = {"bf16", "fp32", NULL};
/* in the order of econ.h's le_stack */
static const char *const stack_names[] = {"megatron", "torch_compile", "torch_eager", NULL};
/* in the order of step.h's le_gpu_gen (the codes are the same) */
static const char *const gpu_gen_names[] = {"ampere", "hopper", "blackwell", "cdna2", "cdna3", "other", NULL};
static const char *const source_kind_names[] = {"catalog", "history", "seed", "manual", NULL};

static const char *const *const enum_names[LE_E__COUNT] = {
	[LE_E_DTYPE] = dtype_names,
	[LE_E_RECOMPUTE] = recompute_names,
	[LE_E_OPTIMIZER] = optimizer_names,
	[LE_E_PRICING] = pricing_names,
	[LE_E_FFN_ACT] = ffn_act_names,
	[LE_E_ATTENTION] = attention_names,
	[LE_E_GRAD_DTYPE] = grad_dtype_names,
	[LE_E_STACK] = stack_names,
	[LE_E_GPU_GEN] = gpu_gen_names,
	[LE_E_SOURCE_KIND] = source_kind_names,
};

/* Printable lists for error messages. */
static const char *const enum_choices[LE_E__COUNT] = {
	[LE_E_DTYPE] = "fp32, tf32, bf16, fp16, fp8",
	[LE_E_RECOMPUTE] = "none, selective, full",
	[LE_E_OPTIMIZER] = "adamw, adamw_8bit, sgd",
	[LE_E_PRICING] = "on_demand, spot, reserved",
	[LE_E_FFN_ACT] = "gelu, swiglu",
	[LE_E_ATTENTION] = "flash, eager",
	[LE_E_GRAD_DTYPE] = "bf16, fp32",
	[LE_E_GPU_GEN] = "ampere, hopper, blackwell, cdna2, cdna3, other",
	[LE_E_SOURCE_KIND] = "catalog, history, seed, manual",
	[LE_E_STACK] = "megatron, torch_compile, torch_eager",
};

const char *
le_field_name(le_field f)
{
	return (f >= 0 && f < LE_F__COUNT) ? fields[f].name : "?";
}

le_kind
le_field_kind(le_field f)
{
	return fields[f].kind;
}

le_enum
le_field_enum(le_field f)
{
	return fields[f].list;
}

/* The code of name s (exact, case-sensitive, as stored), or -1. */
int
le_enum_parse(le_enum e, const char *s, size_t len)
{
	const char *const *names = enum_names[e];

	for (int i = 0; names[i] != NULL; i++)
	{
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return i;
	}
	return -1;
}

const char *
le_enum_label(le_enum e, int code)
{
	const char *const *names = enum_names[e];

	for (int i = 0; names[i] != NULL; i++)
		if (i == code)
			return names[i];
	return "?";
}

const char *
le_enum_choices(le_enum e)
{
	return enum_choices[e];
}

/* An empty spec: every field NULL. */
void
le_spec_clear(le_spec *s)
{
	memset(s, 0, sizeof(*s));
}

void
le_spec_set_num(le_spec *s, le_field f, double v)
{
	s->num[f] = v;
	s->present |= LE_BIT(f);
}

/* Set a text field; enum fields are parsed here (-1 when the name is unknown). */
void
le_spec_set_text(le_spec *s, le_field f, const char *txt, size_t len)
{
	s->text[f] = txt;
	s->textlen[f] = len;
	s->num[f] = (fields[f].kind == LE_K_ENUM) ? le_enum_parse(fields[f].list, txt, len) : 0;
	s->present |= LE_BIT(f);
}

/* A field's value, or dflt when it is NULL (fields with a default: ep, cp, vpp, sequence_parallel, ...). */
double
le_num_or(const le_spec *s, le_field f, double dflt)
{
	return (s->present & LE_BIT(f)) ? s->num[f] : dflt;
}

/* Data-parallel degree dp = n_gpus / (tp · pp · cp) (Megatron-LM's rank grid; cp = 1 before 0.3.0). */
double
le_dp(const le_spec *s)
{
	return s->num[LE_F_N_GPUS] /
		(s->num[LE_F_TP] * s->num[LE_F_PP] * le_num_or(s, LE_F_CP, 1));
}

/* Parameters active per token: n_active_params for a mixture of experts, else n_params. */
double
le_active_params(const le_spec *s)
{
	return le_num_or(s, LE_F_N_ACTIVE_PARAMS, s->num[LE_F_N_PARAMS]);
}

/*
 * Parameters held in experts, from the totals: with N = dense + experts and
 * N_active = dense + experts · top_k / n_experts (each token uses top_k of
 * the n_experts of a layer; Fedus et al. 2021, "Switch Transformers", §2),
 * experts = (N − N_active) / (1 − top_k / n_experts).  0 for a dense model,
 * and when top_k = n_experts (every expert active: nothing to tell apart).
 * DeepSeek-V3: (671e9 − 37e9) / (1 − 8/256) = 654e9, against 58 MoE layers ·
 * 256 experts · 3 · 7168 · 2048 = 654e9 in its report (arXiv 2412.19437 §4.2).
 */
double
le_expert_params(const le_spec *s)
{
	double		e,
				k,
				n = s->num[LE_F_N_PARAMS];

	if (!(s->present & LE_BIT(LE_F_N_EXPERTS)) || !(s->present & LE_BIT(LE_F_TOP_K)))
		return 0;
	e = s->num[LE_F_N_EXPERTS];
	k = s->num[LE_F_TOP_K];
	if (k >= e)
		return 0;
	e = (n - le_active_params(s)) / (1.0 - k / e);
	return e > n ? n : (e < 0 ? 0 : e);
}

/*
 * One layer's attention (econ.h, le_attn_shape).  Plain attention: head size
 * h/heads for queries, keys and values, kv_heads key/value heads.  Multi-head
 * latent attention when kv_rank > 0 (DeepSeek-V2 arXiv 2405.04434 §2.1.2-2.1.3;
 * DeepSeek-V3 arXiv 2412.19437 §2.1.1 and its config.json): d_qk = d_nope +
 * d_rope per head, d_v per head.
 */
void
le_attn_of(double h, double heads, double kv_heads, double q_rank, double kv_rank,
		   double d_nope, double d_rope, double d_v, le_attn_shape *a)
{
	a->h = h;
	a->heads = heads;
	a->kv_heads = kv_heads > 0 ? kv_heads : heads;
	a->q_rank = kv_rank > 0 ? q_rank : 0;
	a->kv_rank = kv_rank > 0 ? kv_rank : 0;
	a->d_qk = kv_rank > 0 ? d_nope + d_rope : h / heads;
	a->d_rope = kv_rank > 0 ? d_rope : 0;
	a->d_v = kv_rank > 0 ? d_v : h / heads;
}

/* The attention of a spec (n_layers, d_model, n_heads must be known; MLA when kv_lora_rank is given). */
void
le_attn_of_spec(const le_spec *s, le_attn_shape *a)
{
	le_attn_of(s->num[LE_F_D_MODEL], s->num[LE_F_N_HEADS],
			   le_num_or(s, LE_F_N_KV_HEADS, s->num[LE_F_N_HEADS]),
			   le_num_or(s, LE_F_Q_LORA_RANK, 0), le_num_or(s, LE_F_KV_LORA_RANK, 0),
			   le_num_or(s, LE_F_QK_NOPE_HEAD_DIM, 0), le_num_or(s, LE_F_QK_ROPE_HEAD_DIM, 0),
			   le_num_or(s, LE_F_V_HEAD_DIM, 0), a);
}

/*
 * Weights of one layer's attention (biases and norms, O(h), left out).
 * Plain: QKV (h + 2·h_kv)·h with h_kv = kv_heads·h/heads (grouped-query
 * attention, Ainslie et al. 2023) and the output h·h (Vaswani et al. 2017;
 * Narayanan et al. 2021 §5.1 counts 4·h² of the 12·l·h² per layer).
 * MLA, as DeepSeek-V3's inference/model.py builds it: wq_a h·q_rank and
 * wq_b q_rank·heads·d_qk (or wq h·heads·d_qk without q_rank), wkv_a
 * h·(kv_rank + d_rope), wkv_b kv_rank·heads·(d_nope + d_v), wo heads·d_v·h.
 * DeepSeek-V3: 7168·1536 + 1536·128·192 + 7168·576 + 512·128·256 +
 * 128·128·7168 = 187,105,280 per layer.
 */
double
le_attn_params(const le_attn_shape *a)
{
	double		hkv = a->kv_heads * a->h / a->heads;
	double		q;

	if (a->kv_rank <= 0)
		return (a->h + 2.0 * hkv) * a->h + a->h * a->h;
	q = a->q_rank > 0 ? a->h * a->q_rank + a->q_rank * a->heads * a->d_qk : a->h * a->heads * a->d_qk;
	return q + a->h * (a->kv_rank + a->d_rope) +
		a->kv_rank * a->heads * (a->d_qk - a->d_rope + a->d_v) + a->heads * a->d_v * a->h;
}

/*
 * Forward FLOPs per token and layer of the attention core over a context
 * of seq tokens: Q·K^T 2·seq·heads·d_qk and the weighted sum of the values
 * 2·seq·heads·d_v, no causal discount (Chowdhery et al. 2022, "PaLM",
 * App. B: 4·seq·h forward for plain attention, 12·seq·h with the backward).
 */
double
le_attn_score_flops(const le_attn_shape *a, double seq)
{
	return 2.0 * seq * a->heads * (a->d_qk + a->d_v);
}

/*
 * Elements per token of the keys and values a context-parallel ring passes:
 * 2·h_kv plain, heads·(d_qk + d_v) for MLA (the keys with the shared rope
 * part broadcast to every head, as DeepSeek-V3's attention consumes them).
 */
double
le_attn_kv_width(const le_attn_shape *a)
{
	if (a->kv_rank <= 0)
		return 2.0 * a->kv_heads * a->h / a->heads;
	return a->heads * (a->d_qk + a->d_v);
}

/*
 * Bytes per token of a layer's attention tensors kept for the backward
 * inside the tensor-parallel region (Korthikanti et al. 2022 §4.1: Q 2, K 2,
 * V 2 and the output projection's input 2 bytes per element, 8·h plain; K
 * and V scaled by GQA; gi for a GEMM-only input, 1 byte in fp8 runs).  MLA:
 * the per-head Q and K (d_qk), V and the output projection's input (d_v).
 */
double
le_attn_sharded_units(const le_attn_shape *a, double gi)
{
	if (a->kv_rank <= 0)
		return (2.0 + 4.0 * a->kv_heads / a->heads + gi) * a->h;
	return a->heads * (4.0 * a->d_qk + (2.0 + gi) * a->d_v);
}

/*
 * MLA's latents per token, kept whole on every tensor-parallel rank (wq_a and
 * wkv_a are replicated, not split, in DeepSeek-V3's inference/model.py): each
 * latent's norm input (2 bytes) and the norm output that feeds the up
 * projection (gi).  0 for plain attention.
 */
double
le_attn_latent_units(const le_attn_shape *a, double gi)
{
	return (2.0 + gi) * (a->q_rank + a->kv_rank);
}

/*
 * Parameters the shape holds, as the step model's GEMMs (step.c) and the
 * memory model's embedding (memory.c) count them: per layer the attention
 * (le_attn_params: plain, grouped-query or latent), the FFN fmats·h·f
 * (fmats 2 for GELU, 3 for SwiGLU, Shazeer 2020; f = ffn_hidden, else 4h),
 * times n_experts plus a router n_experts·h for a mixture of experts (top_k
 * of them active per token; Fedus et al. 2021).  The input embedding and
 * the output layer (V·h each) are left out: n_params is the non-embedding
 * count (API.md; Kaplan et al. 2020 §2.1 count N without embeddings), and
 * the consistency rule (validate.c) compares like with like.  Biases and
 * norms (O(L·h)) are left out too.  Returns 0 (and leaves the counts alone)
 * unless n_layers, d_model and n_heads are given.
 */
int
le_shape_params(const le_spec *s, double *total, double *active)
{
	le_fieldset need = LE_BIT(LE_F_N_LAYERS) | LE_BIT(LE_F_D_MODEL) | LE_BIT(LE_F_N_HEADS);
	le_attn_shape at;
	double		L,
				h,
				f,
				fmats,
				attn,
				ffn,
				e,
				k;

	if ((s->present & need) != need)
		return 0;
	L = s->num[LE_F_N_LAYERS];
	h = s->num[LE_F_D_MODEL];
	le_attn_of_spec(s, &at);
	f = le_num_or(s, LE_F_FFN_HIDDEN, 4.0 * h);
	fmats = le_num_or(s, LE_F_FFN_ACT, LE_ACT_GELU) == LE_ACT_SWIGLU ? 3.0 : 2.0;
	attn = le_attn_params(&at);
	ffn = fmats * h * f;
	e = le_num_or(s, LE_F_N_EXPERTS, 0);
	k = e > 0 ? le_num_or(s, LE_F_TOP_K, e) : 0;
	if (e > 0)
	{
		*total = L * (attn + e * ffn + e * h);
		*active = L * (attn + k * ffn + e * h);
	}
	else
		*total = *active = L * (attn + ffn);
	return 1;
}

/*
 * Layers on the heaviest pipeline stage: ⌈L/pp⌉ (stages hold ⌈L/pp⌉ or
 * ⌊L/pp⌋ layers, e.g. Llama 3 405B's 126 layers on 16 stages; Llama 3
 * report §3.3.2).  NaN when n_layers is unknown.
 */
double
le_stage_layers(const le_spec *s)
{
	if (!(s->present & LE_BIT(LE_F_N_LAYERS)))
		return NAN;
	return ceil(s->num[LE_F_N_LAYERS] / s->num[LE_F_PP]);
}

/*
 * Layers on pipeline stage i of pp when n_layers = q·pp + r: the r extra
 * layers go to stages 1..r, so the first stage, which keeps the most
 * micro-batches in flight, and (unless r = pp − 1) the last, which holds the
 * output layer and the logits, get q.  This is Llama 3 405B's split of 126
 * layers on 16 stages (7, 8 × 14, 7; Llama 3 report §3.3.2, "one Transformer
 * layer fewer on the first and the last stages").  NaN when n_layers is
 * unknown.
 */
double
le_layers_on_stage(const le_spec *s, int i)
{
	double		L,
				pp = s->num[LE_F_PP],
				q,
				r;

	if (!(s->present & LE_BIT(LE_F_N_LAYERS)))
		return NAN;
	L = s->num[LE_F_N_LAYERS];
	q = floor(L / pp);
	r = L - q * pp;
	return q + ((i >= 1 && i <= r) ? 1.0 : 0.0);
}

/*
 * The parameters one GPU holds on the pipeline stage that holds the most,
 * the data-parallel slice its gradients and weights are reduced over: stage
 * i of pp holds its own layers' share of the dense and expert parameters
 * (L = q·pp + r: q + 1 layers on stages 1..r, q on the rest, as
 * le_layers_on_stage), the input embedding on the first stage and the output
 * layer on the last (Megatron-LM; both on the one stage when pp = 1), each
 * emb = vocab_size·d_model parameters (0 when unknown), dense and embedding
 * over tp, experts over tp·ep.  L = 0: layers unknown, each stage 1/pp.
 * Candidates: the first, the second and the last stage.
 */
/*
 * Whether ZeRO-3/FSDP keeps the parameters unsharded between micro-batches.
 * Under a pipeline schedule PyTorch's FSDP2 does not reshard after the
 * forward (torchtitan sets reshard_after_forward False when pp > 1, so a
 * stage's weights are gathered once per step and held until the last
 * backward: torchtitan parallelize_llama.py, "reshard_after_forward_policy"
 * "default"); without a pipeline it reshards after every forward.
 * Megatron keeps 0.4.0's model (reshard: two gathers per micro-batch).
 * reshard: LE_RESHARD_DEFAULT (NULL), LE_RESHARD_YES, LE_RESHARD_NO.
 */
int
le_fsdp_keeps(int stack, int reshard, int zero_stage, int pp)
{
	if (zero_stage < 3 || pp < 2)
		return 0;
	if (reshard == LE_RESHARD_NO)
		return 1;
	if (reshard == LE_RESHARD_YES)
		return 0;
	return stack == LE_STACK_TORCH_COMPILE || stack == LE_STACK_TORCH_EAGER;
}

/* le_fsdp_keeps for a run_spec: stack NULL = megatron, fsdp_reshard NULL = the stack's default. */
int
le_spec_fsdp_keeps(const le_spec *s)
{
	int			reshard = !(s->present & LE_BIT(LE_F_FSDP_RESHARD)) ? LE_RESHARD_DEFAULT :
		s->num[LE_F_FSDP_RESHARD] != 0 ? LE_RESHARD_YES : LE_RESHARD_NO;

	return le_fsdp_keeps((int) le_num_or(s, LE_F_STACK, LE_STACK_MEGATRON), reshard,
						 (int) le_num_or(s, LE_F_ZERO_STAGE, 0), (int) le_num_or(s, LE_F_PP, 1));
}

void
le_dp_slice(double dense, double experts, double emb, double L, double pp, double tp, double ep,
			double *dense_out, double *expert_out)
{
	double		q = L > 0 ? floor(L / pp) : 0,
				r = L > 0 ? L - q * pp : 0;
	int			cand[3] = {0, 1, (int) pp - 1};

	*dense_out = -1;
	*expert_out = 0;
	for (int c = 0; c < 3; c++)
	{
		int			i = cand[c];
		double		share = L > 0 ? (q + ((i >= 1 && i <= r) ? 1.0 : 0.0)) / L : 1.0 / pp;
		double		d = dense * share / tp + ((i == 0) + (i == (int) pp - 1)) * emb / tp;
		double		e = experts * share / (tp * ep);

		if (i >= (int) pp)
			continue;
		if (d + e > *dense_out + *expert_out)
		{
			*dense_out = d;
			*expert_out = e;
		}
	}
}

/*
 * Share of the (non-embedding) parameters on the heaviest stage:
 * ⌈L/pp⌉ / L when n_layers is known, else 1/pp.
 */
double
le_stage_share(const le_spec *s)
{
	if (!(s->present & LE_BIT(LE_F_N_LAYERS)))
		return 1.0 / s->num[LE_F_PP];
	return le_stage_layers(s) / s->num[LE_F_N_LAYERS];
}

/* Micro-batches per optimizer step, global_batch / (micro_batch · dp); 0 when global_batch is unknown. */
double
le_micro_batches(const le_spec *s)
{
	if (!(s->present & LE_BIT(LE_F_GLOBAL_BATCH)))
		return 0;
	return s->num[LE_F_GLOBAL_BATCH] / (s->num[LE_F_MICRO_BATCH] * le_dp(s));
}

/* 1 when the run computes in fp32 or tf32: 4-byte weights, gradients and activations. */
int
le_is_fp32(const le_spec *s)
{
	int			d = (int) s->num[LE_F_DTYPE];

	return d == LE_DT_FP32 || d == LE_DT_TF32;
}

/* Whether the shape that activation memory needs (layers, width, heads, sequence) is known. */
int
le_shape_known(const le_spec *s)
{
	le_fieldset need = LE_BIT(LE_F_N_LAYERS) | LE_BIT(LE_F_D_MODEL) |
		LE_BIT(LE_F_N_HEADS) | LE_BIT(LE_F_SEQ_LEN);

	return (s->present & need) == need;
}

/* Catalog units to SI (econ.h says which unit each catalog figure is in). */
double
le_flops_of_tflops(double tflops)
{
	return tflops * 1e12;
}

double
le_bytes_of_gb_per_s(double gb_per_s)
{
	return gb_per_s * 1e9;
}

/* One direction of the GPU-to-GPU link: NVLink when the part has it, else the host link; both sold as the two directions summed. */
double
le_link_bytes_per_s(double nvlink_gb_per_s, double pcie_gb_per_s)
{
	return (isnan(nvlink_gb_per_s) ? pcie_gb_per_s : nvlink_gb_per_s) / 2.0 * 1e9;
}

double
le_net_bytes_per_s(double gbit_per_s)
{
	return gbit_per_s * 1e9 / 8.0;
}

/*
 * Per-rank bandwidth of a data-parallel ring over `ranks` GPUs spaced
 * `stride` ranks apart (tp·cp: ranks are numbered tp fastest, then cp, then
 * dp).  Inside a node: NVLink.  Across nodes the ring's traffic leaves each
 * node through the network ports of the ring's GPUs on that node: rail-
 * optimised GPU nodes give every GPU its own port (DOMAIN.md §2; Selene's
 * DGX A100 nodes 8 HDR HCAs for 8 GPUs, Narayanan et al. 2021 §5; Llama 3's
 * one 400 Gbit/s port per GPU, §3.3.1), and NCCL spreads its rings (channels)
 * over them.  A ring with r = min(ranks, gpus_per_node / stride) GPUs per
 * node therefore moves each rank's 2(p-1)/p·S through r ports: r·net_bw per
 * rank, at most the NVLink rate.  With tp = 8 on 8-GPU nodes r = 1 (one port,
 * as before 0.4.0); pure data parallelism or FSDP (tp = 1) has r = 8.
 */
double
le_dp_ring_bw(double ranks, double stride, double gpus_per_node, double nvlink_bw, double net_bw)
{
	double		r;

	if (ranks * stride <= gpus_per_node)
		return nvlink_bw;
	r = fmax(1.0, fmin(ranks, floor(gpus_per_node / stride)));
	return fmin(nvlink_bw, r * net_bw);
}
