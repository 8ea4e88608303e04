/* step.h: the step-time model (one optimizer step of a layout, phase by phase) and the cheapest-plan search, plain C. */
#ifndef LLM_ECON_STEP_H
#define LLM_ECON_STEP_H

#include "econ.h"
#include "csv.h"				/* le_alloc_fn */

/*
 * GPU generation: selects the matmul and attention-kernel efficiency curve
 * (step.c, le_gen_table).  Codes are stable: the SQL layer maps gpu_sku rows
 * onto them.
 */
typedef enum le_gpu_gen
{
	LE_GEN_AMPERE = 0,			/* A100, A800, A10, A40 */
	LE_GEN_HOPPER,				/* H100, H800, H200, H20, GH200 */
	LE_GEN_BLACKWELL,			/* B100, B200, B300, GB200, GB300 */
	LE_GEN_CDNA2,				/* MI250X */
	LE_GEN_CDNA3,				/* MI300X, MI325X */
	LE_GEN_OTHER,				/* anything else: conservative figures */
	LE_GEN__COUNT
} le_gpu_gen;

/* recompute codes are econ.h's le_recompute: LE_RC_NONE, LE_RC_SELECTIVE, LE_RC_FULL */

/*
 * Everything the step model reads, as plain numbers (no run_spec).  Units: SI
 * (bytes, bytes/s, FLOP/s, seconds).  Fields marked "0 = ..." take a default
 * when 0.  le_step_check validates every field and names the bad one.
 */
typedef struct le_step_in
{
	/* model */
	double		n_params;		/* total parameters (memory, gradients, optimizer) */
	double		n_active_params;	/* active per token; 0 = n_params (MFU numerator) */
	int			n_layers;
	int			d_model;
	int			n_heads;
	int			n_kv_heads;		/* 0 = n_heads (grouped-query attention otherwise) */
	int			ffn_hidden;		/* 0 = 4 * d_model; for MoE, one expert's inner size */
	int			swiglu;			/* 1: three FFN matrices, 0: two (GELU) */
	int			vocab_size;		/* 0 = unknown: no logits layer counted */
	int			q_lora_rank;	/* multi-head latent attention (econ.h, le_attn_shape): 0 = queries projected directly */
	int			kv_lora_rank;	/* 0 = plain attention; > 0: the next three are its head sizes */
	int			qk_nope_head_dim;
	int			qk_rope_head_dim;
	int			v_head_dim;
	int			n_experts;		/* 0 = dense */
	int			top_k;			/* experts per token (MoE only) */
	int			seq_len;
	double		global_batch;	/* sequences per optimizer step */
	int			micro_batch;	/* sequences per micro-batch */

	/* hardware (per GPU) */
	double		peak_flops;		/* dense peak at the training dtype */
	double		hbm_bw;			/* HBM bandwidth, bytes/s */
	double		nvlink_bw;		/* NVLink (scale-up) bandwidth per direction, bytes/s */
	double		net_bw;			/* network (scale-out) bandwidth per direction, bytes/s */
	int			gpus_per_node;	/* GPUs per NVLink domain */
	le_gpu_gen	gen;

	/* layout */
	int			n_gpus;
	int			tp,
				pp,
				cp,
				ep,
				vpp;			/* 0 = 1 for each */
	int			zero_stage;		/* 0..3; 1 = Megatron's distributed optimizer */
	int			stack;			/* le_stack; 0 = megatron */
	int			fsdp_reshard;	/* LE_RESHARD_DEFAULT (0), _YES or _NO (econ.h) */
	int			recompute;		/* le_recompute */
	int			sequence_parallel;	/* 1: Megatron sequence parallelism (tp > 1) */
	int			flash;			/* 1: FlashAttention kernels, 0: eager attention */
	int			fp8;			/* 1: dtype fp8: the linear layers' GEMMs on the fp8 peak (peak_flops),
								 * attention and the rest on the bf16 peak, peak_flops / 2 */
	int			fp8_attention;	/* 1: with fp8, the attention forward in FP8 too */
	int			dropout;		/* 1: dropout after attention and MLP (the torch stacks time it) */
	double		grad_bytes;		/* 2 (bf16) or 4 (fp32 main grads); 0 = 2 */
	double		param_bytes;	/* bytes of a weight/activation as computed with
								 * (GEMM operands, tp/cp/ep traffic); 0 = 2 */

	/* what the framework overlaps (framework conventions, not hardware) */
	int			dp_overlap;		/* 1: gradient reduction runs under the last
								 * micro-batch's backward, bucket by bucket;
								 * 0: after the backward pass (Megatron 2021-22) */
	double		tp_hidden;		/* share of tensor-parallel traffic hidden under
								 * GEMMs, 0..1 (0: Megatron 2021-22) */
	double		ep_hidden;		/* share of expert all-to-all hidden, 0..1 */
} le_step_in;

/* Phases of one step, in the order step_breakdown(spec) returns them. */
typedef enum le_step_phase
{
	LE_PH_COMPUTE,
	LE_PH_MEMORY_BOUND,			/* 0.5.0: norms, activations, rotary, residual adds, dropout, casts */
	LE_PH_TP_COMM,
	LE_PH_CP_COMM,
	LE_PH_EP_COMM,
	LE_PH_PP_BUBBLE,
	LE_PH_DP_COMM_EXPOSED,
	LE_PH_OPTIMIZER,
	LE_PH_COMM_CONTENTION,		/* 0.5.0: compute slowed while a collective runs beside it */
	LE_PH_TOTAL,
	LE_PH__COUNT
} le_step_phase;

typedef struct le_step_out
{
	double		phase[LE_PH__COUNT];	/* seconds per optimizer step */
	double		micro_batches;	/* m = global_batch / (dp * micro_batch) */
	int			dp;
	double		tokens;			/* tokens per step */
	double		model_flops;	/* 6 * n_active * tokens (the API's MFU numerator) */
	double		hw_flops;		/* FLOPs the GPUs execute per step (recompute,
								 * attention, logits; causal flash halves the scores) */
	double		mfu;			/* model_flops / (n_gpus * peak * total) */
	double		hfu;			/* hw_flops / (n_gpus * peak * total) */
} le_step_out;

/* Upper bounds of the inputs (keep the arithmetic finite and the search bounded). */
#define LE_STEP_MAX_GPUS     1048576
#define LE_STEP_MAX_LAYERS   100000
#define LE_STEP_MAX_DIM      1048576
#define LE_STEP_MAX_SEQ      16777216
#define LE_STEP_MAX_EXPERTS  65536

extern const char *le_step_phase_name(le_step_phase p);
extern le_gpu_gen le_gpu_gen_parse(const char *name);
extern const char *le_gpu_gen_name(le_gpu_gen g);

/* Validates every field (22023-style message naming the field and range). */
extern le_status le_step_check(const le_step_in *in, le_error *err);

/* One optimizer step; validates first. */
extern le_status le_step_time(const le_step_in *in, le_step_out *out, le_error *err);

/* Same, without validation (the search calls it on layouts it built itself). */
extern void le_step_eval(const le_step_in *in, le_step_out *out);

/*
 * Seconds for one GEMM of (m x k) by (k x n), 'batch' times, on generation gen
 * with the given peak, HBM bandwidth and operand size: the curve of step.c.
 */
extern double le_gemm_seconds(le_gpu_gen gen, double peak, double hbm_bw, double elem_bytes,
							  double m, double n, double k, double batch);

/*
 * A kernel rate of the compiled table (step.c) by data/kernel_rates.csv's
 * names: generation, dtype (bf16, fp8, any), kernel (gemm, attn_fa2,
 * attn_fa3, hbm_stream); the achieved share, or -1 when there is none.
 */
extern double le_kernel_rate(const char *gen, const char *dtype, const char *kernel);

/* Expected largest of n standard normal draws (Blom 1958); 0 for n <= 1. */
extern double le_expected_max_normal(double n);

/* 1 + sigma * z(n_gpus): how much longer the slowest of n_gpus GPUs takes (step.c, Sinha et al. 2022). */
extern double le_straggler_factor(double n_gpus);

/* ---- cheapest-plan search (search.c) ---- */

/* Hardware of one SKU, as the search needs it. */
typedef struct le_sku_hw
{
	double		peak_flops;
	double		hbm_bytes;		/* device memory as the driver reports it */
	double		hbm_bw;
	double		nvlink_bw;
	double		net_bw;
	int			gpus_per_node;	/* NVLink domain */
	le_gpu_gen	gen;
} le_sku_hw;

/* One offer: a SKU (index into the SKU array) at a price, sold in instances. */
typedef struct le_offer
{
	int			sku;
	double		usd_per_gpu_hour;
	int			gpus_per_instance;	/* 0 = unknown: any GPU count (as cheapest_offers keeps such offers) */
	int			single_instance;	/* 1: the instance's network is unknown, so no plan spans instances
									 * (0 GPUs per instance: none beyond one node) */
	double		mfu_factor;		/* calibration of this offer's SKU and provider (observed / predicted
								 * MFU, mfu_calibration); 0 = none, as 1 */
} le_offer;

/*
 * Does this layout (model + layout fields of *layout, on hardware *hw) fit in
 * HBM?  Returns 1 (fits) or 0.  The search takes the memory model as a callback:
 * the fmgr layer plugs in econ.h's memory model (le_memory_per_gpu) at wiring
 * time; the unit tests use a stand-in.
 */
typedef int (*le_fits_fn) (void *ctx, const le_step_in *layout, const le_sku_hw *hw);

/* Called every few hundred evaluations; nonzero stops the search (cancel). */
typedef int (*le_interrupt_fn) (void *ctx);

typedef struct le_search_in
{
	le_step_in	model;			/* model fields, dtype conventions, overlap flags;
								 * hardware and layout fields are ignored */
	double		n_tokens;		/* tokens of the whole run */
	const le_sku_hw *skus;
	int			n_skus;
	const le_offer *offers;
	int			n_offers;
	double		deadline_s;		/* wall time bound */
	int			max_gpus;
	le_fits_fn	fits;
	void	   *fits_ctx;
	le_interrupt_fn interrupt;	/* may be NULL */
	void	   *interrupt_ctx;
	long		max_evals;		/* bound on step evaluations; 0 = LE_SEARCH_MAX_EVALS */
	le_alloc_fn alloc;			/* work arrays (palloc in the server: freed on error) */
	void	   *alloc_ctx;
} le_search_in;

#define LE_SEARCH_MAX_EVALS 20000000L
#define LE_SEARCH_MAX_GPUS  1048576

typedef struct le_plan_row
{
	int			offer;			/* index into offers */
	int			sku;
	int			n_gpus,
				tp,
				pp,
				cp,
				ep,
				dp,
				vpp,
				zero_stage,
				recompute,
				micro_batch;
	double		step_s;
	double		wall_s;
	double		mfu;
	double		gpu_hours;
	double		cost_usd;
} le_plan_row;

typedef struct le_search_stats
{
	long		evals;			/* step evaluations */
	long		fit_calls;		/* calls of the fits callback */
	long		fit_cache_hits; /* fits answers reused (same per-GPU load) */
	int			canceled;		/* the interrupt callback asked to stop */
	int			truncated;		/* max_evals reached: plans may be missing */
	long		feasible;		/* plans meeting the deadline (before cap) */
} le_search_stats;

/*
 * The cheapest plans that meet the deadline, cheapest first (ties: faster,
 * then fewer GPUs), at most cap of them into out; *n_out = how many.
 */
extern le_status le_cheapest_plans(const le_search_in *in, le_plan_row *out, int cap,
								   int *n_out, le_search_stats *stats, le_error *err);

/* GPUs a run of n_gpus bills on machines of gpus_per_instance (0 = unknown); 0 = cannot carry it. */
extern int	le_billed_gpus(int n_gpus, int gpus_per_instance, int gpus_per_node);

/* The step input of a plan row (model of in + hardware of its SKU + its layout). */
extern void le_plan_step_in(const le_search_in *in, const le_plan_row *row, le_step_in *out);

/* ---- a run_spec as the step model's input (step_spec.c) ---- */

/*
 * The model part of a spec (shape, batch, MoE, attention and precision
 * conventions) into *in; hardware and layout fields are left 0.  The shape
 * fields and global_batch must be known: 22023 naming every missing one.
 * dp_overlap: 1 = gradient reduction overlapped with the backward pass.
 */
extern le_status le_step_model_from_spec(const le_spec *s, int dp_overlap, le_step_in *in, le_error *err);

/*
 * The whole step input of a spec: the model, the frozen hardware
 * (hbm_bytes_per_s and gpu_generation must be known) and the layout.
 * Validates the spec's fields and relations first.
 */
extern le_status le_step_from_spec(const le_spec *s, int dp_overlap, le_step_in *in, le_error *err);

/*
 * A spec for one layout of the search: the model spec with the SKU's frozen
 * hardware and the layout of *layout (micro_batch, tp, pp, cp, ep, vpp,
 * zero_stage, recompute, n_gpus).  Other fields (sku, mfu, tdp) are the
 * caller's to set.
 */
extern void le_spec_of_layout(const le_spec *model, const le_step_in *layout, const le_sku_hw *hw,
							  le_spec *out);

/*
 * Predicted step and run: the step of le_step_from_spec, and the run's wall
 * seconds n_tokens / tokens per step · step seconds.  What step_breakdown,
 * predicted_mfu, predicted_time and cheapest_plan all report.
 */
extern le_status le_predict(const le_spec *s, int dp_overlap, le_step_out *out, double *run_seconds,
							le_error *err);

/* Whether the layout's memory per GPU fits in HBM (le_memory_per_gpu, le_fits == LE_TRUE). */
extern int	le_layout_fits(const le_spec *model, const le_step_in *layout, const le_sku_hw *hw);

#endif							/* LLM_ECON_STEP_H */
