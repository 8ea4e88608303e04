/* econ.h: the plain-C calculation core of llm_econ (no PostgreSQL headers): spec, validation, time/cost/energy. */
#ifndef LLM_ECON_CORE_H
#define LLM_ECON_CORE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Fields of a run_spec, in the order of the SQL composite type.  The SQL layer
 * maps attribute names to these ids once per query (le_field_name), so the
 * composite may grow or be reordered without touching the core.
 */
typedef enum le_field
{
	LE_F_N_PARAMS,
	LE_F_N_TOKENS,
	LE_F_SKU,
	LE_F_N_GPUS,
	LE_F_GPUS_PER_NODE,
	LE_F_MFU,
	LE_F_DTYPE,
	LE_F_PEAK_FLOPS,
	LE_F_HBM_BYTES,
	LE_F_INTRA_BW,
	LE_F_INTER_BW,
	LE_F_TDP_WATTS,
	LE_F_N_LAYERS,
	LE_F_D_MODEL,
	LE_F_N_HEADS,
	LE_F_SEQ_LEN,
	LE_F_MICRO_BATCH,
	LE_F_GLOBAL_BATCH,
	LE_F_TP,
	LE_F_PP,
	LE_F_ZERO_STAGE,
	LE_F_RECOMPUTE,
	LE_F_OPTIMIZER,
	/* 0.3.0: modern runs (appended to the composite) */
	LE_F_N_ACTIVE_PARAMS,
	LE_F_N_EXPERTS,
	LE_F_TOP_K,
	LE_F_EP,
	LE_F_CP,
	LE_F_VPP,
	LE_F_N_KV_HEADS,
	LE_F_FFN_HIDDEN,
	LE_F_FFN_ACT,
	LE_F_VOCAB_SIZE,
	LE_F_SEQUENCE_PARALLEL,
	LE_F_ATTENTION,
	LE_F_GRAD_DTYPE,
	/* 0.3.0: hardware the step-time model needs, frozen by the constructor (appended) */
	LE_F_HBM_BW,
	LE_F_GPU_GEN,
	/* 0.4.0: multi-head latent attention (DeepSeek-V2/V3) and dropout (appended) */
	LE_F_Q_LORA_RANK,
	LE_F_KV_LORA_RANK,
	LE_F_QK_NOPE_HEAD_DIM,
	LE_F_QK_ROPE_HEAD_DIM,
	LE_F_V_HEAD_DIM,
	LE_F_DROPOUT,
	/* 0.5.0: the software stack that runs the step, FP8 attention, FSDP's resharding (appended) */
	LE_F_STACK,
	LE_F_FP8_ATTENTION,
	LE_F_FSDP_RESHARD,
	LE_F__COUNT
} le_field;

/* Field sets are bit masks; 64 bits leave room for the composite to grow. */
typedef uint64_t le_fieldset;

#define LE_BIT(f) ((le_fieldset) 1 << (f))

/* How a field is stored in the composite. */
typedef enum le_kind
{
	LE_K_FLOAT8,
	LE_K_INT4,
	LE_K_TEXT,					/* free text (sku) */
	LE_K_ENUM,					/* text limited to a list of names */
	LE_K_BOOL					/* boolean, held as 0 or 1 */
} le_kind;

/* Closed lists of names, shared by the spec's text fields and SQL arguments. */
typedef enum le_enum
{
	LE_E_DTYPE,
	LE_E_RECOMPUTE,
	LE_E_OPTIMIZER,
	LE_E_PRICING,
	LE_E_FFN_ACT,
	LE_E_ATTENTION,
	LE_E_GRAD_DTYPE,
	LE_E_GPU_GEN,
	LE_E_SOURCE_KIND,			/* price_snapshot.source_kind (cheapest_offers' source_kinds) */
	LE_E_STACK,
	LE_E__COUNT
} le_enum;

typedef enum le_dtype
{
	LE_DT_FP32, LE_DT_TF32, LE_DT_BF16, LE_DT_FP16, LE_DT_FP8
} le_dtype;
#define LE_DTYPE__COUNT (LE_DT_FP8 + 1)	/* peak figures a SKU has, one per dtype */

typedef enum le_recompute
{
	LE_RC_NONE, LE_RC_SELECTIVE, LE_RC_FULL
} le_recompute;

typedef enum le_optimizer
{
	LE_OPT_ADAMW, LE_OPT_ADAMW_8BIT, LE_OPT_SGD
} le_optimizer;

typedef enum le_pricing
{
	LE_PR_ON_DEMAND, LE_PR_SPOT, LE_PR_RESERVED
} le_pricing;

typedef enum le_ffn_act
{
	LE_ACT_GELU, LE_ACT_SWIGLU
} le_ffn_act;

typedef enum le_attention
{
	LE_ATT_FLASH, LE_ATT_EAGER
} le_attention;

typedef enum le_grad_dtype
{
	LE_GD_BF16, LE_GD_FP32
} le_grad_dtype;

/* run_spec.stack (API.md 0.5.0): Megatron-LM/NeMo with Transformer Engine; PyTorch native, compiled or eager */
typedef enum le_stack
{
	LE_STACK_MEGATRON, LE_STACK_TORCH_COMPILE, LE_STACK_TORCH_EAGER
} le_stack;

/*
 * One run, as read from a run_spec value.  Numbers are held as double (int4
 * fields are exact in a double), so one range check serves every field.
 * Enum fields hold their code, or -1 with the raw text kept for the message.
 * A field whose bit is clear in "present" was SQL NULL.
 */
typedef struct le_spec
{
	double		num[LE_F__COUNT];	/* numeric fields and enum codes */
	const char *text[LE_F__COUNT];	/* sku and enum fields: the raw text */
	size_t		textlen[LE_F__COUNT];
	le_fieldset present;
} le_spec;

/* Outcome of a check or a calculation. */
typedef enum le_status
{
	LE_OK = 0,
	LE_ERR_VALUE,				/* out of range, NULL, unknown name: SQLSTATE 22023 */
	LE_ERR_OVERFLOW,			/* a result does not fit: SQLSTATE 22003 */
	LE_ERR_TOO_LONG,			/* an input beyond a documented size limit: SQLSTATE 54000 */
	LE_ERR_MALFORMED,			/* a file's content cannot be read (CSV structure, a field): SQLSTATE 22P04 */
	LE_ERR_NO_MEMORY			/* an allocation failed: SQLSTATE 53200 */
} le_status;

/*
 * An error's text, in the server's style: message lower-case without a final
 * period, detail a whole sentence (or empty), context where in an input the
 * problem is ("catalog_csv line 40, column \"Price\"", or empty), which the
 * fmgr layer reports as the error's CONTEXT.  Names quoted in it are at most
 * LE_NAME_MAX bytes (guard.h) and other quoted text is clipped, so it fits;
 * le_set_error and le_set_context cut anything longer at a character
 * boundary, never inside a UTF-8 sequence.
 */
typedef struct le_error
{
	le_status	status;
	char		message[1024];
	char		detail[1024];
	char		context[512];
} le_error;

/* ---- fields and names (spec.c) ---- */
extern const char *le_field_name(le_field f);
extern le_kind le_field_kind(le_field f);
extern le_enum le_field_enum(le_field f);
extern int	le_enum_parse(le_enum e, const char *s, size_t len);
extern const char *le_enum_label(le_enum e, int code);
extern const char *le_enum_choices(le_enum e);
extern void le_spec_clear(le_spec *s);
extern void le_spec_set_num(le_spec *s, le_field f, double v);
extern void le_spec_set_text(le_spec *s, le_field f, const char *txt, size_t len);
extern double le_dp(const le_spec *s);
extern double le_micro_batches(const le_spec *s);
extern int	le_is_fp32(const le_spec *s);
extern int	le_shape_known(const le_spec *s);
/* Fields with a default: NULL in a stored value (e.g. one built before 0.3.0) means the default. */
extern double le_num_or(const le_spec *s, le_field f, double dflt);
extern double le_active_params(const le_spec *s);
extern double le_expert_params(const le_spec *s);
extern int	le_shape_params(const le_spec *s, double *total, double *active);

/*
 * One layer's attention as the model counts it (spec.c): plain multi-head
 * attention (grouped-query when kv_heads < heads) with head size h/heads, or
 * multi-head latent attention (DeepSeek-V2 arXiv 2405.04434 §2.1, DeepSeek-V3
 * arXiv 2412.19437 §2.1.1) when kv_rank > 0: queries through a rank-q_rank
 * down/up projection (q_rank 0: projected directly, as DeepSeek-V2-Lite),
 * keys and values through a shared rank-kv_rank latent plus one shared
 * rope key of d_rope; per head a (d_nope + d_rope) query/key and a d_v value.
 */
typedef struct le_attn_shape
{
	double		h;				/* d_model */
	double		heads;
	double		kv_heads;		/* plain attention: n_kv_heads (= heads without GQA) */
	double		q_rank;			/* MLA: q_lora_rank, 0 = none */
	double		kv_rank;		/* MLA: kv_lora_rank; 0 = plain attention */
	double		d_qk;			/* query/key size per head: h/heads, or d_nope + d_rope */
	double		d_rope;			/* MLA: the shared rope key's size */
	double		d_v;			/* value size per head: h/heads, or v_head_dim */
} le_attn_shape;

extern void le_attn_of(double h, double heads, double kv_heads, double q_rank, double kv_rank,
					   double d_nope, double d_rope, double d_v, le_attn_shape *a);
extern void le_attn_of_spec(const le_spec *s, le_attn_shape *a);
extern double le_attn_params(const le_attn_shape *a);
extern double le_attn_score_flops(const le_attn_shape *a, double seq);
extern double le_attn_kv_width(const le_attn_shape *a);
extern double le_attn_sharded_units(const le_attn_shape *a, double gi);
extern double le_attn_latent_units(const le_attn_shape *a, double gi);

/*
 * Consistency of a spec's parameter counts with its shape (API.md, "Plans use
 * the network the instance has"): n_params (and n_active_params) within
 * [0.5, 1.5] times what the shape holds, so that 6·N per token and the step
 * time from the shape describe one model and predicted MFU stays at most 1.
 */
#define LE_SHAPE_PARAMS_LO 0.5
#define LE_SHAPE_PARAMS_HI 1.5

/* Largest vocab_size: one bound for run_spec (validate.c) and the step model (step.c). */
#define LE_VOCAB_MAX 100000000
extern double le_stage_layers(const le_spec *s);
extern double le_layers_on_stage(const le_spec *s, int i);
extern double le_stage_share(const le_spec *s);
/* fsdp_reshard as the step model holds it: 0 = the stack's default, 1 = reshard, 2 = keep unsharded */
#define LE_RESHARD_DEFAULT 0
#define LE_RESHARD_YES 1
#define LE_RESHARD_NO 2
extern int	le_fsdp_keeps(int stack, int reshard, int zero_stage, int pp);
extern int	le_spec_fsdp_keeps(const le_spec *s);
extern void le_dp_slice(double dense, double experts, double emb, double L, double pp, double tp, double ep,
						double *dense_out, double *expert_out);
extern double le_dp_ring_bw(double ranks, double stride, double gpus_per_node, double nvlink_bw, double net_bw);

/*
 * Catalog units to the SI units the model computes in (spec.c): gpu_sku lists
 * peaks in TFLOPS, HBM and links in GB/s (NVLink marketed as both directions
 * summed, so half each way; without NVLink the host link, also summed), and
 * the network is given in Gbit/s per direction as NICs are sold (NDR400 =
 * 400 Gbit/s = 50e9 bytes/s).  NaN in, NaN out.
 */
extern double le_flops_of_tflops(double tflops);
extern double le_bytes_of_gb_per_s(double gb_per_s);
extern double le_link_bytes_per_s(double nvlink_gb_per_s, double pcie_gb_per_s);
extern double le_net_bytes_per_s(double gbit_per_s);

/* ---- validation (validate.c) ---- */

/* Fields each calculation reads. */
#define LE_NEED_FLOPS  (LE_BIT(LE_F_N_PARAMS) | LE_BIT(LE_F_N_TOKENS) | LE_BIT(LE_F_N_ACTIVE_PARAMS) | \
						LE_BIT(LE_F_N_LAYERS) | LE_BIT(LE_F_D_MODEL) | LE_BIT(LE_F_N_HEADS) | \
						LE_BIT(LE_F_SEQ_LEN) | LE_MLA)
#define LE_NEED_TIME   (LE_NEED_FLOPS | LE_BIT(LE_F_N_GPUS) | LE_BIT(LE_F_MFU) | LE_BIT(LE_F_PEAK_FLOPS))
#define LE_NEED_ENERGY (LE_NEED_TIME | LE_BIT(LE_F_TDP_WATTS))
#define LE_NEED_ACHIEVED (LE_NEED_FLOPS | LE_BIT(LE_F_N_GPUS) | LE_BIT(LE_F_PEAK_FLOPS))
/* Everything: what the constructor checks. */
#define LE_NEED_ALL    (LE_BIT(LE_F__COUNT) - 1)
/* 0.4.0: multi-head latent attention (NULL: plain attention) */
#define LE_MLA         (LE_BIT(LE_F_Q_LORA_RANK) | LE_BIT(LE_F_KV_LORA_RANK) | LE_BIT(LE_F_QK_NOPE_HEAD_DIM) | \
						LE_BIT(LE_F_QK_ROPE_HEAD_DIM) | LE_BIT(LE_F_V_HEAD_DIM))
/*
 * Fields of the 0.3.0 modern-run group and the 0.4.0 attention fields (each
 * may be NULL: unknown, dense, plain attention, or the default).
 */
#define LE_MODERN      (LE_MLA | LE_BIT(LE_F_DROPOUT) | LE_BIT(LE_F_STACK) | LE_BIT(LE_F_FP8_ATTENTION) | LE_BIT(LE_F_FSDP_RESHARD) | LE_BIT(LE_F_N_ACTIVE_PARAMS) | LE_BIT(LE_F_N_EXPERTS) | LE_BIT(LE_F_TOP_K) | \
						LE_BIT(LE_F_EP) | LE_BIT(LE_F_CP) | LE_BIT(LE_F_VPP) | LE_BIT(LE_F_N_KV_HEADS) | \
						LE_BIT(LE_F_FFN_HIDDEN) | LE_BIT(LE_F_FFN_ACT) | LE_BIT(LE_F_VOCAB_SIZE) | \
						LE_BIT(LE_F_SEQUENCE_PARALLEL) | LE_BIT(LE_F_ATTENTION) | LE_BIT(LE_F_GRAD_DTYPE))
/* Hardware of the step-time model (NULL in values built before 0.3.0 or by hand: the step model then errs) */
#define LE_STEP_HW     (LE_BIT(LE_F_HBM_BW) | LE_BIT(LE_F_GPU_GEN))
/*
 * Fields that may be NULL (shape unknown; modern fields: dense, unknown or the
 * default; tdp_watts: the part's power is not published, so energy is unknown)
 */
#define LE_OPTIONAL    (LE_SHAPE | LE_BIT(LE_F_TDP_WATTS) | LE_MODERN | LE_STEP_HW)

extern le_status le_check_fields(const le_spec *s, le_fieldset need, le_error *err);
extern le_status le_check_relations(const le_spec *s, le_error *err);
extern le_status le_check_spec(const le_spec *s, le_error *err);
extern le_status le_check_range(const char *name, double v, double lo, int lo_open,
								double hi, int hi_open, le_error *err);
extern le_status le_check_enum(const char *name, le_enum e, const char *s, size_t len,
							   int *code, le_error *err);
extern le_status le_set_error(le_error *err, le_status st, const char *detail,
							  const char *fmt,...)
#ifdef __GNUC__
			__attribute__((format(printf, 4, 5)))
#endif
			;
/* Set err's context (le_set_error clears it); returns err->status. */
extern le_status le_set_context(le_error *err, const char *fmt,...)
#ifdef __GNUC__
			__attribute__((format(printf, 2, 3)))
#endif
			;

/* ---- time, cost, energy (model.c) ---- */
extern le_status le_training_flops(const le_spec *s, double *flops, le_error *err);
extern le_status le_training_flops_attn(const le_spec *s, int attention_flops, double *flops, le_error *err);
extern le_status le_train_seconds(const le_spec *s, double *seconds, le_error *err);
extern le_status le_gpu_hours(const le_spec *s, double *hours, le_error *err);
/* *kwh is NaN (unknown: SQL NULL) when tdp_watts is NULL; every other field is still checked. */
extern le_status le_energy_kwh(const le_spec *s, double pue, double *kwh, le_error *err);
extern le_status le_achieved_mfu(const le_spec *s, double wall_seconds, double *mfu, le_error *err);

/* Limits shared by the checks (documented in README). */
#define LE_PUE_MIN 1.0
#define LE_PUE_MAX 5.0

/* ---- memory per GPU (memory.c) ---- */

/* The model's shape: checked when present, and may be NULL (memory and the step model need it). */
#define LE_SHAPE       (LE_BIT(LE_F_N_LAYERS) | LE_BIT(LE_F_D_MODEL) | LE_BIT(LE_F_N_HEADS) | \
						LE_BIT(LE_F_SEQ_LEN) | LE_BIT(LE_F_GLOBAL_BATCH))
#define LE_NEED_LAYOUT (LE_BIT(LE_F_N_PARAMS) | LE_BIT(LE_F_N_GPUS) | LE_BIT(LE_F_GPUS_PER_NODE) | \
						LE_BIT(LE_F_DTYPE) | LE_BIT(LE_F_MICRO_BATCH) | LE_BIT(LE_F_TP) | \
						LE_BIT(LE_F_PP) | LE_BIT(LE_F_ZERO_STAGE) | LE_BIT(LE_F_RECOMPUTE) | \
						LE_BIT(LE_F_OPTIMIZER) | LE_SHAPE | LE_MODERN)
#define LE_NEED_MEMORY (LE_NEED_LAYOUT | LE_BIT(LE_F_HBM_BYTES))
#define LE_NEED_COMM   (LE_NEED_LAYOUT | LE_BIT(LE_F_INTRA_BW) | LE_BIT(LE_F_INTER_BW))

/*
 * Allowance for what is on the GPU besides model states and activations:
 * the CUDA context with cuBLAS/cuDNN workspaces and NCCL's communication
 * buffers (a fixed amount), and allocator fragmentation (a share of the model
 * states).  See memory.c for the sources.
 */
#define LE_OVERHEAD_FIXED_BYTES 1.5e9
#define LE_OVERHEAD_FRAGMENTATION 0.05

typedef struct le_memory
{
	double		weights;
	double		grads;
	double		optimizer;
	double		activations;	/* NaN when the shape is unknown */
	double		overhead;
	double		total;			/* NaN when activations are unknown */
	double		hbm;
} le_memory;

/* Three-valued answers. */
typedef enum le_tribool
{
	LE_FALSE = 0, LE_TRUE = 1, LE_UNKNOWN = 2
} le_tribool;

extern le_status le_memory_per_gpu(const le_spec *s, le_memory *m, le_error *err);
extern le_tribool le_fits(const le_memory *m);

/* ---- communication per optimizer step (comm.c) ---- */

#define LE_COMM_MAX_ROWS 8

typedef struct le_comm_row
{
	const char *parallelism;	/* dp, tp, pp, cp, ep */
	const char *collective;		/* all_reduce, reduce_scatter, all_gather, send_recv, all_to_all */
	const char *link;			/* nvlink, network */
	double		bytes;			/* sent per GPU per step; NaN when unknown */
	double		seconds;		/* bytes / link bandwidth; NaN when unknown */
} le_comm_row;

extern le_status le_comm_breakdown(const le_spec *s, le_comm_row *rows, int *nrows, le_error *err);
extern le_status le_comm_total(const le_spec *s, double *bytes, double *seconds, le_error *err);

/* ---- layout search (plan.c) ---- */

typedef struct le_plan
{
	int			tp,
				pp,
				dp,
				zero_stage,
				recompute;
	double		total_bytes;	/* NaN when unknown */
	le_tribool	fits;
	double		comm_seconds;	/* per step; NaN when unknown */
	double		step_seconds;	/* estimated step time; NaN when unknown */
	double		states_bytes;	/* model states + overhead, for ranking what does not fit */
} le_plan;

#define LE_PLAN_MAX 200000

extern le_status le_plan_parallelism(const le_spec *s, le_plan *buf, long cap, long *n, le_error *err);
extern void le_plan_sort(le_plan *plans, long n);

#endif							/* LLM_ECON_CORE_H */
