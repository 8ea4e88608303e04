/* step.c: the step-time model: one optimizer step of a layout, phase by phase, from shapes, hardware and framework conventions. */
#include "step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Per-generation kernel rates: the achieved share of the dense peak of each
 * kernel family, from published kernel benchmarks.  data/kernel_rates.csv is
 * the cited source of every number (one row per generation, dtype and
 * kernel, with its source); test/unit/test_step.c reads it and fails if this
 * table and the file disagree.  Nothing here is fitted to an end-to-end
 * training run (data/mfu_validation.csv and the holdout rows only validate).
 *
 * gemm: the share of the dense peak a matmul sustains on the part.  A
 *   training step is one long saturated run: a dense matmul that fills the
 *   SMs draws the part's full power limit and its clock settles below the
 *   boost clock the peak is quoted at.  So the rate is the "Maximum
 *   Sustainable Matmul FLOPS" where it is published (S. Bekman, Machine
 *   Learning Engineering, compute/accelerator/README.md, MAMF/MSMF table,
 *   mamf-finder.py v4: the highest rate a shape holds over a 2 s window at the
 *   power limit, measured with the node's other GPUs running matmuls too;
 *   its own advice: "use MSMF for training throughput").  H200 SXM (the
 *   GH100 die and 700 W of the H100; HBM differs): bf16 755 of 989, fp8
 *   1354 of 1979; B200 SXM: bf16 1439 of 2250, fp8 2788 of 4500; MI300X:
 *   bf16 659 of 1300, fp8 1187 of 2600.  Where no sustained figure is
 *   published, the short-burst "Maximum Achievable Matmul FLOPS" (MAMF) of
 *   the same table: A100 SXM 271.2 of 312, MI250X 147.0 of 191.5 per GCD.
 * attn_fa2 / attn_fa3: share over forward + backward (counting, as the
 *   authors do, the backward at 2.5x the forward's FLOPs) of FlashAttention-2
 *   (Dao 2023, arXiv 2307.08691) and of the fused attention Transformer
 *   Engine runs (assumed at FlashAttention-3's share where no figure of the
 *   fused kernel is published; Shah et al. 2024, arXiv 2407.08608);
 *   attn_fp8: FlashAttention-3's FP8 forward (share of the fp8 peak; no FP8
 *   backward is published).  0 = no figure: the stack's other kernel is used.
 */
/*
 * Hopper's bf16 attention by sequence length: Shah et al. 2024
 * (FlashAttention-3, arXiv 2407.08608), the H100 80GB SXM5 speed figures for
 * head dim 128: forward with the causal mask and backward, at 512 to 16k
 * tokens, of FlashAttention-2 (the torch stacks' SDPA flash backend) and of
 * cuDNN's fused attention (the kernel Transformer Engine prefers on Hopper
 * when both apply: NeMo's documentation, "Memory Optimizations", flash
 * attention section; so Megatron-LM/NeMo with Transformer Engine runs it).
 * Each share is forward + backward (backward 2.5x the forward's FLOPs, as the
 * paper counts) over the 989 TFLOP/s peak: 3.5 / (1/fwd + 2.5/bwd) / 989.
 * Between two lengths the share is interpolated in log2(length); below 512
 * and above 16k it is the end value.  data/kernel_rates.csv, kernels
 * "attn_fa2@N" and "attn_cudnn@N".  A generation with a curve uses it in
 * place of its single share.
 */
#define LE_ATTN_LENS 6
static const double le_attn_len[LE_ATTN_LENS] = {512, 1024, 2048, 4096, 8192, 16384};
static const double le_hopper_fa2[LE_ATTN_LENS] = {0.209, 0.263, 0.296, 0.316, 0.326, 0.329};
static const double le_hopper_cudnn[LE_ATTN_LENS] = {0.311, 0.413, 0.476, 0.510, 0.527, 0.528};

/* A curve at a length, interpolated in log2(length) and clamped at its ends. */
static double
attn_curve_at(const double *c, double len)
{
	if (!(len > le_attn_len[0]))
		return c[0];
	for (int i = 1; i < LE_ATTN_LENS; i++)
		if (len <= le_attn_len[i])
		{
			double		t = log2(len / le_attn_len[i - 1]) / log2(le_attn_len[i] / le_attn_len[i - 1]);

			return c[i - 1] + t * (c[i] - c[i - 1]);
		}
	return c[LE_ATTN_LENS - 1];
}

typedef struct le_gen_figures
{
	const char *name;
	double		mamf;			/* gemm, bf16: sustained (MSMF) where published, else MAMF */
	double		mamf_fp8;		/* gemm, fp8 (share of the fp8 peak), likewise */
	double		attn_fa2;		/* FlashAttention-2, bf16 */
	double		attn_fa3;		/* the fused attention (Transformer Engine's), bf16; 0 = none */
	double		attn_fp8;		/* FlashAttention-3 FP8 forward; 0 = none */
	const double *fa2_by_len;	/* attn_fa2 by sequence length (le_attn_len); NULL = the single share */
	const double *cudnn_by_len;	/* the fused attention (cuDNN) by length, in place of attn_fa3 */
} le_gen_figures;

static const le_gen_figures le_gen_table[LE_GEN__COUNT] = {
	{"ampere", 0.869, 0, 0.58, 0, 0, NULL, NULL},
	{"hopper", 0.763, 0.684, 0, 0, 0.61, le_hopper_fa2, le_hopper_cudnn},
	{"blackwell", 0.640, 0.620, 0.35, 0.55, 0, NULL, NULL},
	{"cdna2", 0.767, 0, 0.40, 0, 0, NULL, NULL},
	{"cdna3", 0.507, 0.457, 0.40, 0, 0, NULL, NULL},
	{"other", 0.600, 0.600, 0.40, 0, 0, NULL, NULL},
};

/*
 * Share of the HBM bandwidth that streaming kernels reach: copy/triad
 * benchmarks (BabelStream, STREAM) reach 80-90 % of the datasheet bandwidth on
 * A100 and H100; 0.85 is the middle.  Used for memory-bound operations
 * (normalisation, activation functions, dropout, softmax, residual adds, the
 * optimizer) and for the memory side of a GEMM.
 */
#define LE_HBM_EFF 0.85

/*
 * Contention of overlapped communication: a compute kernel that runs while a
 * collective runs beside it (the collective's kernels hold SMs and HBM
 * bandwidth) is slower than alone.  Lee et al. 2025, "Characterizing
 * Compute-Communication Overlap in GPU-Accelerated Distributed Deep
 * Learning" (arXiv 2507.03114), abstract: compute overlapped with NCCL
 * collectives on A100, H100, MI250 and MI210 runs 18.9 % slower on average
 * (40.0 % at most) than the same compute alone.  Kernel-level measurement;
 * the average is used for every part.  data/kernel_rates.csv, kernel
 * "overlap_contention".
 */
#define LE_OVERLAP_SLOWDOWN 0.189

/*
 * Share of the link rate that NCCL collectives reach as "bus bandwidth"
 * (nccl-tests, doc/PERFORMANCE.md defines busbw so that it is comparable with
 * the link rate; large all-reduces on DGX A100 / H100 report about 75-85 % of
 * the NVLink rate, and InfiniBand collectives a similar share of the NIC rate).
 * An assumption of this model, not fitted.
 */
#define LE_LINK_EFF 0.80

/*
 * Data-parallel gradient buckets: Megatron-LM's DDP reduces gradients in
 * buckets of max(40M, 1M * dp) parameters (DistributedDataParallelConfig,
 * bucket_size); PyTorch DDP uses 25 MB buckets (bucket_cap_mb).  The last
 * bucket cannot overlap with anything.
 */
#define LE_DP_BUCKET_PARAMS 40e6

/*
 * Bytes moved per stored activation byte by the memory-bound operations of a
 * layer: written once and read once by the next operation forward (2), read,
 * and its gradient written and read, backward (3).  Model assumption; the
 * stored bytes are Korthikanti et al. 2022, Table 2 (arXiv 2205.05198).
 */
#define LE_ELEM_FWD 2.0
#define LE_ELEM_BWD 3.0

/* FlashAttention's backward executes 2.5x the forward's FLOPs (Dao 2023, §3.1 and §4.1). */
#define LE_FLASH_BWD 2.5

/*
 * What production runs lose that the benchmarks above do not (issue 34, item 4).
 * Each constant is a published measurement; none is fitted to a row of
 * data/mfu_validation.csv or data/mfu_holdout.csv.
 *
 * LE_KERNEL_GAP_S: the time between two kernels launched back to back on one
 *   stream.  A. Gray, "Getting Started with CUDA Graphs", NVIDIA Technical
 *   Blog (2019): a kernel that runs 2.9 us takes 3.8 us per kernel when
 *   launched back to back without synchronisation (V100; 3.4 us with a CUDA
 *   graph): 0.9 us per kernel.  Charged once per GEMM kernel (le_gemm_seconds:
 *   one forward, two backward) and per fused-attention kernel; the element-wise
 *   kernels are not counted (how many a framework fuses is not published).
 *
 * LE_GPU_SPREAD, LE_GPU_SPREAD_POP: GPUs of one SKU do not run at one speed.
 *   Sinha et al. 2022, "Not All GPUs Are Created Equal" (SC22, arXiv
 *   2208.11035), abstract: 8 % (max 22 %) average performance variation across
 *   the GPUs of a cluster, measured on over 90 % of the GPUs of Summit (27,648
 *   V100), Vortex, Frontera, Longhorn and Corona, from power management and
 *   manufacturing variability.  Read here as the range (slowest to fastest) of
 *   normally distributed speeds over Summit's 27,648 GPUs, the largest
 *   population measured: sigma = 0.08 / (2 * z(27,648)) = 0.98 % of the step's
 *   GPU work.  (Read over one of the smaller clusters, ~300 GPUs, the same 8 %
 *   would mean sigma 1.4 %: this reading is the smaller slowdown.)  A
 *   synchronous step waits for its slowest GPU (MegaScale, Jiang et al. NSDI
 *   2024, §6: the computational stragglers it found in production; the Llama 3
 *   report, Dubey et al. 2024, §3.3.4: a 1-2 % diurnal throughput swing from
 *   GPU dynamic voltage and frequency scaling): its GPU work is stretched by
 *   sigma * z(n_gpus), z(N) the expected largest of N standard normal draws.
 *   Neither report publishes a spread per GPU count to build the term from.
 */
#define LE_KERNEL_GAP_S 0.9e-6
#define LE_GPU_SPREAD 0.08
#define LE_GPU_SPREAD_POP 27648.0
#define LE_GPU_SPREAD_Z 4.0790977866881	/* le_expected_max_normal(27648) */

static const char *const le_phase_names[LE_PH__COUNT] = {
	"compute", "memory_bound_ops", "tp_comm", "cp_comm", "ep_comm", "pp_bubble", "dp_comm_exposed", "optimizer", "comm_contention", "total"
};

/* Name of a phase (the row label of step_breakdown). */
const char *
le_step_phase_name(le_step_phase p)
{
	return (p >= 0 && p < LE_PH__COUNT) ? le_phase_names[p] : "?";
}

/* Generation by name (ampere, hopper, ...); LE_GEN_OTHER for anything else. */
le_gpu_gen
le_gpu_gen_parse(const char *name)
{
	for (int g = 0; g < LE_GEN__COUNT; g++)
		if (name && strcmp(name, le_gen_table[g].name) == 0)
			return (le_gpu_gen) g;
	return LE_GEN_OTHER;
}

/* Name of a generation. */
const char *
le_gpu_gen_name(le_gpu_gen g)
{
	return (g >= 0 && g < LE_GEN__COUNT) ? le_gen_table[g].name : "other";
}

/*
 * A kernel rate of the table above by the names data/kernel_rates.csv uses
 * (generation, dtype, kernel): the share, or -1 when the table has none.
 * "any", "any", "hbm_stream" is the streaming share of HBM bandwidth.
 */
double
le_kernel_rate(const char *gen, const char *dtype, const char *kernel)
{
	const le_gen_figures *g = NULL;
	int			fp8 = strcmp(dtype, "fp8") == 0;
	double		v;

	if (strcmp(kernel, "hbm_stream") == 0)
		return strcmp(gen, "any") == 0 && strcmp(dtype, "any") == 0 ? LE_HBM_EFF : -1;
	if (strcmp(kernel, "overlap_contention") == 0)
		return strcmp(gen, "any") == 0 && strcmp(dtype, "any") == 0 ? LE_OVERLAP_SLOWDOWN : -1;
	for (int i = 0; i < LE_GEN__COUNT; i++)
		if (strcmp(gen, le_gen_table[i].name) == 0)
			g = &le_gen_table[i];
	if (g == NULL || (!fp8 && strcmp(dtype, "bf16") != 0))
		return -1;
	if (!fp8 && (strncmp(kernel, "attn_fa2@", 9) == 0 || strncmp(kernel, "attn_cudnn@", 11) == 0))
	{
		const double *c = kernel[5] == 'c' ? g->cudnn_by_len : g->fa2_by_len;
		long		n = strtol(strchr(kernel, '@') + 1, NULL, 10);

		v = 0;
		for (int i = 0; c != NULL && i < LE_ATTN_LENS; i++)
			if (n == (long) le_attn_len[i])
				v = c[i];
	}
	else if (strcmp(kernel, "gemm") == 0)
		v = fp8 ? g->mamf_fp8 : g->mamf;
	else if (strcmp(kernel, "attn_fa2") == 0)
		v = fp8 ? 0 : g->attn_fa2;
	else if (strcmp(kernel, "attn_fa3") == 0)
		v = fp8 ? g->attn_fp8 : g->attn_fa3;
	else
		v = 0;
	return v > 0 ? v : -1;
}

/*
 * Share of the bf16 peak of the attention kernel a stack runs: Megatron-LM
 * with Transformer Engine runs its fused attention where the part has a
 * figure for it (on Hopper cuDNN's, by length), FlashAttention-2 elsewhere.
 */
static double
attn_share(const le_gen_figures *g, int stack, double len)
{
	/*
	 * The torch stacks call scaled_dot_product_attention, whose flash backend
	 * is FlashAttention-2 since PyTorch 2.2 (its release notes: SDPA "via
	 * FlashAttention-v2 integration"); FlashAttention-3 is not one of its
	 * backends.
	 */
	if (stack == LE_STACK_MEGATRON && g->cudnn_by_len != NULL)
		return attn_curve_at(g->cudnn_by_len, len);
	if (stack == LE_STACK_MEGATRON && g->attn_fa3 > 0)
		return g->attn_fa3;
	return g->fa2_by_len != NULL ? attn_curve_at(g->fa2_by_len, len) : g->attn_fa2;
}

/*
 * One GEMM (m x k) by (k x n), batch times: the FLOPs at the part's best
 * matmul rate plus the operand and result traffic at the streaming HBM rate.
 * Summing the two sides (rather than taking the larger, as a roofline does;
 * Williams et al. 2009) gives the gradual approach to the ceiling that
 * measured cuBLAS curves show as the dimensions grow (NVIDIA, "Matrix
 * Multiplication Background User's Guide", arithmetic intensity section).
 * So the efficiency depends on the shapes per GPU: d_model/tp, ffn/tp and the
 * tokens per micro-batch.  elem_bytes: 2 for bf16/fp16 operands (the MAMF
 * figures are bf16; for fp8 the same share of the fp8 peak is assumed).
 */
static double
gemm_time(double share, double peak, double hbm_bw, double elem_bytes,
		  double m, double n, double k, double batch)
{
	double		flops = 2.0 * m * n * k * batch;
	double		bytes = elem_bytes * (m * k + k * n + m * n) * batch;

	if (m <= 0 || n <= 0 || k <= 0 || batch <= 0)
		return 0;
	return flops / (peak * share) + bytes / (hbm_bw * LE_HBM_EFF) + LE_KERNEL_GAP_S;
}

double
le_gemm_seconds(le_gpu_gen gen, double peak, double hbm_bw, double elem_bytes,
				double m, double n, double k, double batch)
{
	if (gen < 0 || gen >= LE_GEN__COUNT)
		gen = LE_GEN_OTHER;
	return gemm_time(le_gen_table[gen].mamf, peak, hbm_bw, elem_bytes, m, n, k, batch);
}

/*
 * Expected largest of n standard normal draws, by Blom's approximation
 * (G. Blom, Statistical Estimates and Transformed Beta-Variables, 1958):
 * z = Phi^-1((n - 0.375) / (n + 0.25)); 0 for n = 1, about 1.43 for 8, 3.96
 * for 16,384.  Phi^-1 by P. J. Acklam's rational approximation (relative error
 * below 1.2e-9), from the upper tail 0.625 / (n + 0.25) to keep its digits:
 * a logarithm and a square root, cheap enough for every step the plan search
 * evaluates (a bisection on erfc made the search 40x slower).
 */
double
le_expected_max_normal(double n)
{
	static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
	1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
	6.680131188771972e+01, -1.328068155288572e+01};
	static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
	-2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
	static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
	3.754408661907416e+00};
	double		tail,
				q,
				r;

	if (!(n > 1))
		return 0;
	tail = 0.625 / (n + 0.25);	/* 1 - (n - 0.375) / (n + 0.25) */
	if (tail < 0.02425)
	{
		q = sqrt(-2.0 * log(tail));
		return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
			((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
	}
	q = 0.5 - tail;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		(((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

/*
 * The slowest of n_gpus GPUs paces a synchronous step: its GPU work takes
 * 1 + sigma * z(n_gpus) of the median GPU's (LE_GPU_SPREAD above);
 * LE_GPU_SPREAD_Z = z(LE_GPU_SPREAD_POP), written out so that the search
 * does not recompute it (test_step.c checks the two agree).
 */
double
le_straggler_factor(double n_gpus)
{
	return 1.0 + LE_GPU_SPREAD / (2.0 * LE_GPU_SPREAD_Z) * le_expected_max_normal(n_gpus);
}

/*
 * The GEMMs of the linear layers: with fp8 (issue 46, "FP8 as trained") on
 * the fp8 peak at the part's fp8 matmul share with 1-byte operands, else at
 * the training dtype's peak and the bf16 matmul share (MAMF).
 */
static double
lin(const le_step_in *in, double m, double n, double k, double batch)
{
	const le_gen_figures *g = &le_gen_table[(in->gen >= 0 && in->gen < LE_GEN__COUNT) ? in->gen : LE_GEN_OTHER];

	if (in->fp8)
		return gemm_time(g->mamf_fp8 > 0 ? g->mamf_fp8 : g->mamf, in->peak_flops, in->hbm_bw, 1.0, m, n, k, batch);
	return gemm_time(g->mamf, in->peak_flops, in->hbm_bw, in->param_bytes > 0 ? in->param_bytes : 2.0, m, n, k, batch);
}

/*
 * GEMMs that stay in 16 bits under fp8 (the output layer, eager attention's
 * batched GEMMs): the bf16 peak, half the fp8 peak (H100 SXM 989 / 1979,
 * B200 2250 / 4500, MI300X 1307 / 2615 dense TFLOP/s: NVIDIA and AMD
 * datasheets), 2-byte operands.  Without fp8 the same as lin().
 */
static double
hi(const le_step_in *in, double m, double n, double k, double batch)
{
	const le_gen_figures *g = &le_gen_table[(in->gen >= 0 && in->gen < LE_GEN__COUNT) ? in->gen : LE_GEN_OTHER];

	if (in->fp8)
		return gemm_time(g->mamf, in->peak_flops / 2.0, in->hbm_bw, 2.0, m, n, k, batch);
	return gemm_time(g->mamf, in->peak_flops, in->hbm_bw, in->param_bytes > 0 ? in->param_bytes : 2.0, m, n, k, batch);
}

/* Forward + backward (dX and dW) of one GEMM: backward runs two GEMMs with the shapes swapped. */
static double
gemm_fwd(const le_step_in *in, double m, double n, double k, double batch)
{
	return lin(in, m, n, k, batch);
}

static double
gemm_bwd(const le_step_in *in, double m, double n, double k, double batch)
{
	return lin(in, m, k, n, batch) + lin(in, k, n, m, batch);
}

static double
hi_fwd(const le_step_in *in, double m, double n, double k, double batch)
{
	return hi(in, m, n, k, batch);
}

static double
hi_bwd(const le_step_in *in, double m, double n, double k, double batch)
{
	return hi(in, m, k, n, batch) + hi(in, k, n, m, batch);
}

static int
or1(int v)
{
	return v > 0 ? v : 1;
}

/* Checks one integer field against [lo, hi]. */
static le_status
check_int(const char *name, int v, int lo, int hi, le_error *err)
{
	return le_check_range(name, (double) v, lo, 0, hi, 0, err);
}

/* Validates what the step model reads, naming the field and the allowed range. */
le_status
le_step_check(const le_step_in *in, le_error *err)
{
	int			tp = or1(in->tp),
				pp = or1(in->pp),
				cp = or1(in->cp),
				ep = or1(in->ep),
				vpp = or1(in->vpp);
	long		mp;
	double		dp,
				m;

#define TRY(x) do { if ((x) != LE_OK) return err->status; } while (0)
	TRY(le_check_range("n_params", in->n_params, 0, 1, 1e16, 0, err));
	if (in->n_active_params != 0)
		TRY(le_check_range("n_active_params", in->n_active_params, 0, 1, in->n_params, 0, err));
	TRY(check_int("n_layers", in->n_layers, 1, LE_STEP_MAX_LAYERS, err));
	TRY(check_int("d_model", in->d_model, 1, LE_STEP_MAX_DIM, err));
	TRY(check_int("n_heads", in->n_heads, 1, in->kv_lora_rank > 0 ? LE_STEP_MAX_DIM : in->d_model, err));
	TRY(check_int("q_lora_rank", in->q_lora_rank, 0, LE_STEP_MAX_DIM, err));
	TRY(check_int("kv_lora_rank", in->kv_lora_rank, 0, LE_STEP_MAX_DIM, err));
	if (in->kv_lora_rank > 0)
	{
		TRY(check_int("qk_nope_head_dim", in->qk_nope_head_dim, 1, LE_STEP_MAX_DIM, err));
		TRY(check_int("qk_rope_head_dim", in->qk_rope_head_dim, 1, LE_STEP_MAX_DIM, err));
		TRY(check_int("v_head_dim", in->v_head_dim, 1, LE_STEP_MAX_DIM, err));
	}
	else if (in->q_lora_rank > 0)
		return le_set_error(err, LE_ERR_VALUE, NULL, "q_lora_rank needs kv_lora_rank (multi-head latent attention), got kv_lora_rank 0");
	if (in->kv_lora_rank == 0 && in->d_model % in->n_heads != 0)
		return le_set_error(err, LE_ERR_VALUE, NULL, "n_heads must divide d_model, got n_heads %d and d_model %d",
							in->n_heads, in->d_model);
	if (in->n_kv_heads != 0)
	{
		TRY(check_int("n_kv_heads", in->n_kv_heads, 1, in->n_heads, err));
		if (in->n_heads % in->n_kv_heads != 0)
			return le_set_error(err, LE_ERR_VALUE, NULL, "n_kv_heads must divide n_heads, got n_kv_heads %d and n_heads %d",
								in->n_kv_heads, in->n_heads);
	}
	TRY(check_int("ffn_hidden", in->ffn_hidden, 0, LE_STEP_MAX_DIM, err));
	TRY(check_int("swiglu", in->swiglu, 0, 1, err));
	TRY(check_int("vocab_size", in->vocab_size, 0, LE_VOCAB_MAX, err));
	TRY(check_int("n_experts", in->n_experts, 0, LE_STEP_MAX_EXPERTS, err));
	if (in->n_experts > 0)
		TRY(check_int("top_k", in->top_k, 1, in->n_experts, err));
	TRY(check_int("seq_len", in->seq_len, 1, LE_STEP_MAX_SEQ, err));
	TRY(le_check_range("global_batch", in->global_batch, 1, 0, 1e9, 0, err));
	TRY(check_int("micro_batch", in->micro_batch, 1, 1000000, err));
	TRY(le_check_range("peak_flops", in->peak_flops, 0, 1, 1e18, 0, err));
	TRY(le_check_range("hbm_bw", in->hbm_bw, 0, 1, 1e15, 0, err));
	TRY(le_check_range("nvlink_bw", in->nvlink_bw, 0, 1, 1e15, 0, err));
	TRY(le_check_range("net_bw", in->net_bw, 0, 1, 1e15, 0, err));
	TRY(check_int("gpus_per_node", in->gpus_per_node, 1, 65536, err));
	if (in->gen < 0 || in->gen >= LE_GEN__COUNT)
		return le_set_error(err, LE_ERR_VALUE, NULL, "gpu generation must be in [0, %d], got %d",
							LE_GEN__COUNT - 1, (int) in->gen);
	TRY(check_int("n_gpus", in->n_gpus, 1, LE_STEP_MAX_GPUS, err));
	TRY(check_int("tp", in->tp, 0, LE_STEP_MAX_GPUS, err));
	TRY(check_int("pp", in->pp, 0, in->n_layers, err));
	TRY(check_int("cp", in->cp, 0, LE_STEP_MAX_GPUS, err));
	TRY(check_int("ep", in->ep, 0, LE_STEP_MAX_GPUS, err));
	TRY(check_int("vpp", in->vpp, 0, LE_STEP_MAX_LAYERS, err));
	TRY(check_int("zero_stage", in->zero_stage, 0, 3, err));
	TRY(check_int("recompute", in->recompute, LE_RC_NONE, LE_RC_FULL, err));
	TRY(check_int("sequence_parallel", in->sequence_parallel, 0, 1, err));
	TRY(check_int("flash", in->flash, 0, 1, err));
	TRY(check_int("fp8", in->fp8, 0, 1, err));
	TRY(check_int("fp8_attention", in->fp8_attention, 0, 1, err));
	TRY(check_int("dropout", in->dropout, 0, 1, err));
	TRY(check_int("stack", in->stack, LE_STACK_MEGATRON, LE_STACK_TORCH_EAGER, err));
	if (in->grad_bytes != 0)
		TRY(le_check_range("grad_bytes", in->grad_bytes, 1, 0, 8, 0, err));
	if (in->param_bytes != 0)
		TRY(le_check_range("param_bytes", in->param_bytes, 1, 0, 8, 0, err));
	TRY(check_int("dp_overlap", in->dp_overlap, 0, 1, err));
	TRY(le_check_range("tp_hidden", in->tp_hidden, 0, 0, 1, 0, err));
	TRY(le_check_range("ep_hidden", in->ep_hidden, 0, 0, 1, 0, err));
#undef TRY

	if (in->n_heads % tp != 0)
		return le_set_error(err, LE_ERR_VALUE, NULL, "tp must divide n_heads, got tp %d and n_heads %d", tp, in->n_heads);
	if (in->seq_len % cp != 0)
		return le_set_error(err, LE_ERR_VALUE, NULL, "cp must divide seq_len, got cp %d and seq_len %d", cp, in->seq_len);
	if (vpp > 1 && vpp * pp > in->n_layers)
		return le_set_error(err, LE_ERR_VALUE, NULL, "vpp * pp must not exceed n_layers, got vpp %d, pp %d and n_layers %d",
							vpp, pp, in->n_layers);
	mp = (long) tp * pp * cp;
	if (in->n_gpus % mp != 0)
		return le_set_error(err, LE_ERR_VALUE, NULL, "tp * pp * cp must divide n_gpus, got tp %d, pp %d, cp %d and n_gpus %d",
							tp, pp, cp, in->n_gpus);
	dp = in->n_gpus / mp;
	if (ep > 1 && (in->n_experts == 0 || ((long) dp) % ep != 0 || in->n_experts % ep != 0))
		return le_set_error(err, LE_ERR_VALUE, NULL,
							"ep must divide dp and n_experts, got ep %d, dp %.0f and n_experts %d", ep, dp, in->n_experts);
	m = in->global_batch / (dp * in->micro_batch);
	if (m < 1 || m != floor(m))
		return le_set_error(err, LE_ERR_VALUE, NULL,
							"global_batch must be a multiple of dp * micro_batch, got global_batch %.0f, dp %.0f and micro_batch %d",
							in->global_batch, dp, in->micro_batch);
	return LE_OK;
}

/* Collective seconds for 'bytes' sent per GPU over a link of bandwidth bw. */
static double
link_seconds(double bytes, double bw)
{
	return bytes / (bw * LE_LINK_EFF);
}

/*
 * Memory-bound ops of the torch stacks, op by op (issue 46): per layer and
 * micro-batch, forward and backward seconds at the streaming share of HBM
 * (roofline: these ops execute a few FLOPs per byte, far below any part's
 * ridge point, so bytes / bandwidth is their time).  Per token, in bytes
 * (bf16 activations, 2 bytes; fp32 intermediates 4), with hn the width the
 * norms and residual adds run on (h/tp with sequence parallelism, which
 * torchtitan applies to them, else h), q and k the rotary widths and fl the
 * FFN's inner width on this GPU (× top_k for MoE).  A SwiGLU shape is taken
 * as Llama's block (RMSNorm, rotary), a GELU shape as GPT's (LayerNorm,
 * learned positions); dropout after attention and MLP when the spec has it.
 *
 * torch_eager, one kernel per op, each reading its inputs from HBM and
 *   writing its output (the Llama reference model's code, as torchtitan runs
 *   it):
 *   RMSNorm x.float(), pow(2), mean, x·rsqrt, type_as, ·weight: 6 + 8 + 4 +
 *     8 + 6 + 4 = 36 B per element, twice per layer; LayerNorm one native
 *     kernel, 4 B;
 *   rotary q.float(), view_as_complex · freqs, type_as: 6 + 8 + 6 = 20 B per
 *     element of q and k;
 *   two residual adds, 6 B each (read two, write one);
 *   SwiGLU silu (4 B) and the product (6 B) per element of fl, GELU 4 B;
 *   dropout 5 B per element (read, write, a 1-byte mask), twice.
 * torch_compile: Inductor fuses each chain of pointwise ops and reductions
 *   between two GEMMs or attention calls into one kernel that reads its
 *   inputs once and writes its outputs once: residual add + the next norm
 *   read 4 and write 4 B (twice per layer); rotary 4 B; SwiGLU 6 B (read
 *   two, write one), GELU 4 B; dropout fused into the add, its mask 1 B.
 * Backward: each op's backward reads the output gradient and the saved
 *   input and writes the input gradient: twice the forward's bytes (a stated
 *   assumption).  Eager attention's score tensors are counted as for
 *   Megatron (5·a·s²·b/t, moved 2x forward and 3x backward).
 */
static void
torch_ops(const le_step_in *in, const le_attn_shape *at, double M, double tp, double f, double topk,
		  double act_scores, double hbm, double *mem_f, double *mem_b)
{
	double		h = in->d_model;
	double		hn = (in->sequence_parallel || tp == 1) ? h / tp : h;
	double		fl = topk * f / tp;
	double		qk = at->kv_rank > 0 ? (at->heads * at->d_rope + at->d_rope) / tp :
		(at->heads + at->kv_heads) * at->d_qk / tp;
	int			llama = in->swiglu;
	double		fwd;

	if (in->stack == LE_STACK_TORCH_EAGER)
		fwd = 2.0 * (llama ? 36.0 : 4.0) * hn + (llama ? 20.0 * qk : 0) + 2.0 * 6.0 * hn +
			(llama ? 10.0 : 4.0) * fl + (in->dropout ? 2.0 * 5.0 * hn : 0);
	else
		fwd = 2.0 * 8.0 * hn + (llama ? 4.0 * qk : 0) + (llama ? 6.0 : 4.0) * fl +
			(in->dropout ? 2.0 * 1.0 * hn : 0);
	*mem_f = (M * fwd + LE_ELEM_FWD * act_scores) / hbm;
	*mem_b = (M * 2.0 * fwd + LE_ELEM_BWD * act_scores) / hbm;
}

/*
 * FP8 scaling and casts of the linear layers (issue 46, "FP8 as trained";
 * tensorwise dynamic scaling as torchao's Float8Linear and Transformer
 * Engine's delayed/current scaling do it): every GEMM input is cast to fp8
 * forward (with a transposed copy for the weight-gradient GEMM) and every
 * output gradient backward; the weights once per micro-batch (torch) or once
 * per step (Transformer Engine caches them across micro-batches,
 * is_first_microbatch).  Bytes per element: torch_eager 7 (amax: read 2;
 * cast: read 2, write 1; transpose: read 1, write 1), torch_compile 4 (one
 * fused kernel: read 2, write the two fp8 copies), megatron 2 (the cast
 * fused into the kernel producing the input, which writes the two fp8 copies)
 * for activations and 4 for gradients and weights.  GEMM inputs per token:
 * QKV and FC1 read h, the attention output projection h/tp, FC2 fl;
 * output gradients (h + 2·h_kv)/tp, h, (ffn matrices - 1)·fl, h.
 */
static void
fp8_casts(const le_step_in *in, const le_attn_shape *at, double M, double tp, double f, double topk,
		  double hkv, double m, double hbm, double *mem_f, double *mem_b)
{
	double		h = in->d_model;
	double		fl = topk * f / tp;
	double		fmats = in->swiglu ? 3.0 : 2.0;
	double		x_in = 2.0 * h + h / tp + fl;
	double		x_g = (h + 2.0 * hkv) / tp + 2.0 * h + (fmats - 1.0) * fl;
	double		experts = in->n_experts > 0 ? in->n_experts / (double) (in->ep > 0 ? in->ep : 1) : 1.0;
	double		w = ((at->kv_rank > 0 ? le_attn_params(at) : h * (h + 2.0 * hkv) + h * h) + fmats * h * f * experts) / tp;
	double		ca,
				cg,
				cw;

	if (in->stack == LE_STACK_TORCH_EAGER)
		ca = cg = cw = 7.0;
	else if (in->stack == LE_STACK_TORCH_COMPILE)
		ca = cg = cw = 4.0;
	else
	{
		ca = 2.0;
		cg = cw = 4.0;
	}
	if (in->stack == LE_STACK_MEGATRON)
		cw /= m;				/* once per step */
	*mem_f += (M * ca * x_in + cw * w) / hbm;
	*mem_b += M * cg * x_g / hbm;
}

/*
 * Selective recomputation as the torch stacks run it: torchtitan's op-level
 * selective activation checkpointing (torchtitan, parallelize_llama.py,
 * _apply_ac_to_transformer_block with selective_ac_option "op", unchanged from
 * its first version to 2025): inside each transformer block the outputs of
 * aten.mm, of scaled_dot_product_attention and of the reduce-scatter are
 * saved, except every second mm of the block (the policy counts the block's
 * mm calls from 1 and recomputes the even ones); every other op (norms,
 * rotary, activations, products, residual adds, casts) is recomputed in the
 * backward.  So the recomputation is the forward of the even-numbered GEMMs
 * plus the forward's memory-bound work.  The GEMMs in the order the block
 * calls them: Llama's attention wq, wk, wv, wo, then its FFN w1, w3, w2 (the
 * reference model's w2(silu(w1(x)) * w3(x))), so wk, wo and w3 are
 * recomputed; a GELU block's fc1, fc2 (wk, wo, fc2); latent attention as
 * DeepSeek-V3's model calls it (wq_a, wq_b or wq, wkv_a, wkv_b, wo); an MoE
 * block its router, then the experts' w1, w3, w2 (counted as three mm calls,
 * an assumption: their grouped GEMM is not in the policy's list).  Eager
 * attention's batched GEMMs are not saved either: with attention 'eager'
 * the attention core is recomputed too.  *flops: the recomputed GEMM FLOPs
 * per micro-batch and layer.
 */
static double
torch_sac_gemms(const le_step_in *in, const le_attn_shape *at, double M, double tp, double h,
				double hkv, double f, double fmats, double topk, double ep, double *flops)
{
	double		t[9],
				fl[9],
				r = 0;
	int			n = 0;

#define MM(m_, n_, k_, b_) do { t[n] = gemm_fwd(in, (m_), (n_), (k_), (b_)); fl[n] = 2.0 * (m_) * (n_) * (k_) * (b_); n++; } while (0)
	if (at->kv_rank > 0)
	{
		double		nq = at->heads * at->d_qk / tp,
					nkv = at->heads * (at->d_qk - at->d_rope + at->d_v) / tp;

		if (at->q_rank > 0)
		{
			MM(M, at->q_rank, h, 1);
			MM(M, nq, at->q_rank, 1);
		}
		else
			MM(M, nq, h, 1);
		MM(M, at->kv_rank + at->d_rope, h, 1);
		MM(M, nkv, at->kv_rank, 1);
		MM(M, h, at->heads * at->d_v / tp, 1);
	}
	else
	{
		MM(M, h / tp, h, 1);	/* wq */
		MM(M, hkv / tp, h, 1);	/* wk */
		MM(M, hkv / tp, h, 1);	/* wv */
		MM(M, h, h / tp, 1);	/* wo */
	}
	if (in->n_experts > 0)
	{
		double		per_expert = M * topk * ep / in->n_experts,
					local = in->n_experts / ep;

		MM(M, in->n_experts, h, 1);	/* router */
		MM(per_expert, f / tp, h, local);
		if (fmats > 2)
			MM(per_expert, f / tp, h, local);
		MM(per_expert, h, f / tp, local);
	}
	else
	{
		MM(M, f / tp, h, 1);	/* w1 (fc1) */
		if (fmats > 2)
			MM(M, f / tp, h, 1);	/* w3 */
		MM(M, h, f / tp, 1);	/* w2 (fc2) */
	}
#undef MM
	*flops = 0;
	for (int i = 1; i < n; i += 2)
	{
		r += t[i];
		*flops += fl[i];
	}
	return r;
}

/*
 * The model.  Per micro-batch and layer on one GPU: the GEMMs of attention
 * and FFN at the shapes the GPU sees, the attention core, the memory-bound
 * element-wise work, and the tensor-, context- and expert-parallel traffic;
 * the pipeline runs at the pace of its heaviest stage (ceil(L/pp) layers, the
 * last one with the logits); the bubble of 1F1B is (pp-1)/(m*vpp) of the busy
 * time (Narayanan et al. 2021, §2.2); data-parallel traffic and the optimizer
 * follow the last micro-batch.
 */
void
le_step_eval(const le_step_in *in, le_step_out *out)
{
	const le_gen_figures *g = &le_gen_table[(in->gen >= 0 && in->gen < LE_GEN__COUNT) ? in->gen : LE_GEN_OTHER];
	double		tp = or1(in->tp),
				pp = or1(in->pp),
				cp = or1(in->cp),
				ep = or1(in->ep),
				vpp = or1(in->vpp);
	double		h = in->d_model,
				a = in->n_heads,
				hd = h / a,
				hkv = (in->n_kv_heads > 0 ? in->n_kv_heads : in->n_heads) * hd,
				f = in->ffn_hidden > 0 ? in->ffn_hidden : 4.0 * h,
				fmats = in->swiglu ? 3.0 : 2.0,
				s = in->seq_len,
				b = in->micro_batch,
				V = in->vocab_size,
				L = in->n_layers;
	double		pb = in->param_bytes > 0 ? in->param_bytes : 2.0;
	double		gb = in->grad_bytes > 0 ? in->grad_bytes : 2.0;
	double		dp = in->n_gpus / (tp * pp * cp);
	double		m = in->global_batch / (dp * b);
	double		M = b * s / cp;		/* tokens of a micro-batch on this GPU's GEMMs */
	int			moe = in->n_experts > 0;
	le_attn_shape at;
	int			mla;
	double		t_up_f = 0;
	double		topk = moe ? in->top_k : 1;
	double		hbm = in->hbm_bw * LE_HBM_EFF;
	double		t_f = 0,
				t_b = 0,
				t_r = 0,
				t_attn_f = 0,
				t_attn_b = 0,
				mem_f = 0,
				mem_b = 0,
				mem_r = 0,
				mem_logits = 0,
				mem_phase,
				attn_fwd_flops,
				act,
				act_scores,
				layer_stage,
				layer_scale,
				t_logits = 0,
				t_tp = 0,
				t_cp = 0,
				t_ep = 0,
				t_p2p = 0,
				busy_mb,
				compute,
				n_expert_params = 0,
				n_dense_params,
				local_params,
				opt_params,
				dpg,
				dp_bw,
				t_dp,
				t_bucket,
				hidden_cp = 0,	/* per layer and micro-batch: ring transfers under attention */
				hidden = 0,		/* per step: collectives running beside compute */
				sac_flops = 0;

	memset(out, 0, sizeof(*out));
	out->dp = (int) dp;
	out->micro_batches = m;
	out->tokens = in->global_batch * s;

	le_attn_of(h, a, in->n_kv_heads > 0 ? in->n_kv_heads : a, in->q_lora_rank, in->kv_lora_rank,
			   in->qk_nope_head_dim, in->qk_rope_head_dim, in->v_head_dim, &at);
	mla = at.kv_rank > 0;

	/* GEMMs of a layer (Megatron's column/row split over tp; Shoeybi et al. 2019, §3) */
	if (mla)
	{
		/*
		 * Latent attention as DeepSeek-V3's inference/model.py splits it: the
		 * down projections wq_a (h -> q_rank) and wkv_a (h -> kv_rank + d_rope)
		 * whole on every tensor-parallel rank, the up projections wq_b (or wq)
		 * and wkv_b column-parallel, wo row-parallel.
		 */
		double		nq = a * at.d_qk / tp,
					nkv = a * (at.d_qk - at.d_rope + at.d_v) / tp;

		/* the up projections alone, forward: what selective recomputation runs again (below) */
		t_up_f = (at.q_rank > 0 ? gemm_fwd(in, M, nq, at.q_rank, 1) : gemm_fwd(in, M, nq, h, 1)) +
			gemm_fwd(in, M, nkv, at.kv_rank, 1);
		if (at.q_rank > 0)
		{
			t_f += gemm_fwd(in, M, at.q_rank, h, 1) + gemm_fwd(in, M, nq, at.q_rank, 1);
			t_b += gemm_bwd(in, M, at.q_rank, h, 1) + gemm_bwd(in, M, nq, at.q_rank, 1);
		}
		else
		{
			t_f += gemm_fwd(in, M, nq, h, 1);
			t_b += gemm_bwd(in, M, nq, h, 1);
		}
		t_f += gemm_fwd(in, M, at.kv_rank + at.d_rope, h, 1) + gemm_fwd(in, M, nkv, at.kv_rank, 1);
		t_b += gemm_bwd(in, M, at.kv_rank + at.d_rope, h, 1) + gemm_bwd(in, M, nkv, at.kv_rank, 1);
		t_f += gemm_fwd(in, M, h, a * at.d_v / tp, 1);	/* wo */
		t_b += gemm_bwd(in, M, h, a * at.d_v / tp, 1);
	}
	else
	{
		t_f += gemm_fwd(in, M, (h + 2 * hkv) / tp, h, 1);	/* QKV */
		t_b += gemm_bwd(in, M, (h + 2 * hkv) / tp, h, 1);
		t_f += gemm_fwd(in, M, h, h / tp, 1);	/* attention output */
		t_b += gemm_bwd(in, M, h, h / tp, 1);
	}
	if (moe)
	{
		/* grouped GEMM: each of the n_experts/ep local experts gets M*top_k*ep/n_experts tokens */
		double		per_expert = M * topk * ep / in->n_experts;
		double		local = in->n_experts / ep;

		t_f += gemm_fwd(in, per_expert, (fmats - 1) * f / tp, h, local) + gemm_fwd(in, per_expert, h, f / tp, local);
		t_b += gemm_bwd(in, per_expert, (fmats - 1) * f / tp, h, local) + gemm_bwd(in, per_expert, h, f / tp, local);
		t_f += gemm_fwd(in, M, in->n_experts, h, 1);	/* router */
		t_b += gemm_bwd(in, M, in->n_experts, h, 1);
	}
	else
	{
		t_f += gemm_fwd(in, M, (fmats - 1) * f / tp, h, 1) + gemm_fwd(in, M, h, f / tp, 1);
		t_b += gemm_bwd(in, M, (fmats - 1) * f / tp, h, 1) + gemm_bwd(in, M, h, f / tp, 1);
	}

	/*
	 * Attention core: Q·K^T and scores·V, 4·b·s_q·s·h FLOPs forward over the
	 * heads (Narayanan et al. 2021, eq. 3's s/6h term).  FlashAttention skips
	 * the masked half of causal attention and runs at its own rate; eager
	 * attention runs batched GEMMs of (s/cp x hd) by (hd x s) over every score.
	 * Latent attention: 2·s·n_h·(d_qk + d_v) per token (le_attn_score_flops).
	 */
	attn_fwd_flops = mla ? b * (s / cp) * le_attn_score_flops(&at, s) / tp : 4.0 * b * (s / cp) * s * h / tp;
	if (in->flash)
	{
		/*
		 * With fp8 attention stays in bf16 (peak / 2) unless fp8_attention:
		 * then the forward runs FlashAttention-3's FP8 kernel where the part
		 * has a published rate; the backward stays bf16 (no FP8 backward is
		 * published; data/kernel_rates.csv).
		 */
		double		p16 = in->fp8 ? in->peak_flops / 2.0 : in->peak_flops;
		double		share = attn_share(g, in->stack, s / cp);	/* each GPU's query block */

		t_attn_f = 0.5 * attn_fwd_flops / (p16 * share);
		t_attn_b = LE_FLASH_BWD * t_attn_f + LE_KERNEL_GAP_S;
		if (in->fp8 && in->fp8_attention && g->attn_fp8 > 0)
			t_attn_f = 0.5 * attn_fwd_flops / (in->peak_flops * g->attn_fp8);
		t_attn_f += LE_KERNEL_GAP_S;	/* one fused kernel each way */
	}
	else
	{
		double		batch = b * a / tp;

		if (mla)				/* Q·K^T over d_qk, then the scores times V of d_v */
		{
			t_attn_f = hi_fwd(in, s / cp, s, at.d_qk, batch) + hi_fwd(in, s / cp, at.d_v, s, batch);
			t_attn_b = hi_bwd(in, s / cp, s, at.d_qk, batch) + hi_bwd(in, s / cp, at.d_v, s, batch);
		}
		else
		{
			t_attn_f = 2 * hi_fwd(in, s / cp, s, hd, batch);
			t_attn_b = 2 * hi_bwd(in, s / cp, s, hd, batch);
		}
	}
	t_f += t_attn_f;
	t_b += t_attn_b;

	/*
	 * Memory-bound work: the activations a layer stores (Korthikanti et al.
	 * 2022, Table 2: 34·s·b·h/t with sequence parallelism, (10 + 24/t)·s·b·h
	 * without; the 5·a·s²·b score tensors only for eager attention), moved
	 * LE_ELEM_FWD times forward and LE_ELEM_BWD times backward.
	 */
	if (mla)
	{
		/* latent attention's own tensors in place of Q, K, V and the output input (8·h): memory.c's counts */
		double		whole = 10.0 * h + le_attn_latent_units(&at, 2.0),
					sharded = 16.0 * h + le_attn_sharded_units(&at, 2.0);

		act = (in->sequence_parallel || tp == 1 ? (whole + sharded) / tp : whole + sharded / tp) * (s / cp) * b;
	}
	else if (in->sequence_parallel || tp == 1)
		act = 34.0 * (s / cp) * b * h / tp;
	else
		act = (10.0 + 24.0 / tp) * (s / cp) * b * h;
	act_scores = in->flash ? 0 : 5.0 * a * (s / cp) * s * b / tp;
	if (in->stack == LE_STACK_MEGATRON)
	{
		/*
		 * Megatron-LM with Transformer Engine: fused kernels (norm into the
		 * GEMM's input, bias + activation, bias + dropout + residual add,
		 * fused rotary, fused attention) each write what the layer stores and
		 * read it back: 0.4.0's count above, kept.
		 */
		mem_f = LE_ELEM_FWD * (act + act_scores) / hbm;
		mem_b = LE_ELEM_BWD * (act + act_scores) / hbm;
	}
	else
		torch_ops(in, &at, M, tp, f, topk, act_scores, hbm, &mem_f, &mem_b);
	if (in->fp8)
		fp8_casts(in, &at, M, tp, f, topk, hkv, m, hbm, &mem_f, &mem_b);
	t_f += mem_f;
	t_b += mem_b;

	/*
	 * Recomputation: a whole forward again (full) or the attention core and
	 * its scores (selective); with latent attention selective recomputation
	 * also runs the up projections again (DeepSeek-V3 §3.2.3; memory.c).
	 */
	if (in->recompute == LE_RC_FULL)
	{
		t_r = t_f;
		mem_r = mem_f;
	}
	else if (in->recompute == LE_RC_SELECTIVE && in->stack != LE_STACK_MEGATRON)
	{
		/* op-level: the even-numbered GEMMs and every memory-bound op (torch_sac_gemms) */
		t_r = torch_sac_gemms(in, &at, M, tp, h, hkv, f, fmats, topk, ep, &sac_flops) + mem_f +
			(in->flash ? 0 : t_attn_f);
		mem_r = mem_f;
	}
	else if (in->recompute == LE_RC_SELECTIVE && !in->flash)
	{
		t_r = t_attn_f + LE_ELEM_FWD * act_scores / hbm;
		mem_r = LE_ELEM_FWD * act_scores / hbm;
	}
	if (in->recompute == LE_RC_SELECTIVE && mla && in->stack == LE_STACK_MEGATRON)
		t_r += t_up_f;

	/*
	 * Tensor parallelism: two all-reduces of b·s·h activations forward and two
	 * backward per layer (Shoeybi et al. 2019, Fig. 4); with sequence
	 * parallelism all-gathers and reduce-scatters of the same volume
	 * (Korthikanti et al. 2022, §4.2.2); full recompute repeats the forward's.
	 * A ring all-reduce sends 2(t-1)/t of the buffer (nccl-tests PERFORMANCE.md).
	 */
	if (tp > 1)
	{
		double		S = b * (s / cp) * h * pb;
		double		per = 2.0 * (tp - 1) / tp * S;
		double		n_coll = 4 + (in->recompute == LE_RC_FULL ? 2 : 0);
		double		bw = tp <= in->gpus_per_node ? in->nvlink_bw : in->net_bw;

		t_tp = n_coll * link_seconds(per, bw) * (1.0 - in->tp_hidden);
	}

	/*
	 * Context parallelism: a ring passes each rank's K and V chunk cp-1 times
	 * forward; backward passes K, V and their gradients (Liu et al. 2023, Ring
	 * Attention; Llama 3 report §3.3.2).  Chunk by chunk: each of the cp-1
	 * transfers runs under the attention of the chunk the rank holds, and only
	 * its excess is exposed (issue 46; 0.4.0 compared the whole ring with the
	 * whole attention, which hid a transfer longer than its chunk's attention
	 * behind the others).  With causal load balancing, as Megatron-LM/TE and
	 * torchtitan cut the sequence (2·cp chunks, rank i holding chunks i and
	 * 2cp-1-i: Llama 3 report §3.3.2), every ring step computes the same
	 * share of the rank's causal attention, 1/cp of it.
	 */
	if (cp > 1)
	{
		double		kv = (mla ? b * (s / cp) * le_attn_kv_width(&at) : 2.0 * b * (s / cp) * hkv) / tp * pb;
		double		bw = tp * cp <= in->gpus_per_node ? in->nvlink_bw : in->net_bw;
		double		c1 = link_seconds(kv, bw);	/* one chunk's K and V */
		double		x_f = (cp - 1) * fmax(0, c1 - t_attn_f / cp),
					x_b = (cp - 1) * fmax(0, 2.0 * c1 - t_attn_b / cp);

		t_cp = x_f + x_b;
		hidden_cp = (cp - 1) * (fmin(c1, t_attn_f / cp) + fmin(2.0 * c1, t_attn_b / cp));
		if (in->recompute == LE_RC_FULL)
		{
			t_cp += x_f;
			hidden_cp += (cp - 1) * fmin(c1, t_attn_f / cp);
		}
	}

	/*
	 * Expert parallelism: dispatch and combine all-to-alls forward and
	 * backward, each carrying the micro-batch's tokens (sharded over tp by
	 * sequence parallelism) times top_k hidden states; an all-to-all over ep
	 * ranks sends (ep-1)/ep of it (nccl-tests PERFORMANCE.md).  Every layer is
	 * taken as an MoE layer.
	 */
	if (moe && ep > 1)
	{
		/*
		 * fp8: the dispatches (forward, and the gradients' backward) carry fp8
		 * activations, the combines bf16 (DeepSeek-V3 report, arXiv
		 * 2412.19437, §3.3.2 "Low-Precision Communication"): 1.5 bytes on average
		 */
		double		S = (M / tp) * topk * h * (in->fp8 ? 1.5 : pb);
		double		n_coll = 4 + (in->recompute == LE_RC_FULL ? 2 : 0);
		double		bw = tp * cp * ep <= in->gpus_per_node ? in->nvlink_bw : in->net_bw;

		t_ep = n_coll * link_seconds((ep - 1) / ep * S, bw) * (1.0 - in->ep_hidden);
	}

	/* The last stage also runs the output layer and the loss over the vocabulary (fp32 logits). */
	if (V > 0)
	{
		/* in 16 bits under fp8 too (torchao and Transformer Engine leave the output layer out of fp8) */
		mem_logits = (LE_ELEM_FWD + LE_ELEM_BWD) * 4.0 * M * V / tp / hbm;
		t_logits = hi_fwd(in, M, V / tp, h, 1) + hi_bwd(in, M, V / tp, h, 1) + mem_logits;
	}

	/*
	 * A count the shape does not compute.  MFU credits 6·N_active per token,
	 * while the GEMMs above run the shape's L·P per-layer parameters and the
	 * output layer's V·h (the input embedding is a lookup).  The consistency
	 * band (validate.c) lets N exceed them by up to 1.5x (before 0.5.0 it
	 * also counted the embeddings), so 6·N could exceed what the step executes: an MFU above 1
	 * (a 1-layer, d_model 4096, 256k-vocabulary spec of 2.3e9 parameters gave
	 * 1.07).  When N·mamf exceeds what the shape executes, the layers are taken
	 * to hold the rest: their compute time grows by r, so that the credited
	 * FLOPs never exceed the executed ones at the part's best matmul
	 * efficiency (mamf), and MFU stays below 1.  Published runs described as
	 * they ran have r = 1 (N·mamf is below L·P + V·h for every row of
	 * data/mfu_validation.csv).
	 */
	{
		double		n_act = in->n_active_params > 0 ? in->n_active_params : in->n_params;
		double		layer_params = (mla ? le_attn_params(&at) : h * (h + 2 * hkv) + h * h) + fmats * h * f * topk;

		layer_scale = fmax(1.0, (n_act * g->mamf - h * V) / (L * layer_params));
		t_f *= layer_scale;
		t_b *= layer_scale;
		t_r *= layer_scale;
		mem_f *= layer_scale;
		mem_b *= layer_scale;
		mem_r *= layer_scale;
	}

	/*
	 * Stragglers: the GPU work of every micro-batch runs at the pace of the
	 * slowest of the n_gpus GPUs (le_straggler_factor; Sinha et al. 2022).
	 * Communication is left as it is: link rates do not follow a GPU's clock.
	 */
	{
		double		slow = le_straggler_factor(in->n_gpus);

		t_f *= slow;
		t_b *= slow;
		t_r *= slow;
		t_logits *= slow;
		mem_f *= slow;
		mem_b *= slow;
		mem_r *= slow;
		mem_logits *= slow;
	}

	/*
	 * Pipeline point-to-point traffic.  Between consecutive stages each
	 * micro-batch sends b·s·h activations forward and as many gradients
	 * backward (Narayanan et al. 2021, §3.2, "the amount of communication ...
	 * between every pair of consecutive devices ... is bsh"); Megatron's
	 * scatter/gather (ibid. §4.1; with sequence parallelism the tensor is
	 * sharded anyway) sends 1/t of it from each tensor-parallel rank over its
	 * own port.  Interleaving sends it vpp times (ibid. §2.2.2).  Megatron's
	 * 1F1B waits for each exchange (send the output, receive the gradient, in
	 * both directions at once): exposed, as the 11 % that scatter/gather alone
	 * gained for GPT-3 175B shows (ibid. §5, Fig. 18).  Pipeline neighbours
	 * are tp·cp·dp ranks apart (Megatron's rank order): over the network once
	 * the job leaves one NVLink domain.
	 */
	if (pp > 1)
	{
		double		x = b * (s / cp) * h * pb / tp;

		t_p2p = 2.0 * vpp * link_seconds(x, in->n_gpus > in->gpus_per_node ? in->net_bw : in->nvlink_bw);
	}

	/* The heaviest stage holds ceil(L/pp) layers (uneven splits allowed). */
	layer_stage = ceil(L / pp);
	busy_mb = layer_stage * (t_f + t_b + t_r + t_tp + t_cp + t_ep) + t_logits + t_p2p;
	compute = m * (layer_stage * (t_f + t_b + t_r) + t_logits);
	/*
	 * The memory-bound ops are part of the GPU work above (the pipeline and
	 * the overlaps see them as compute); step_breakdown shows them apart.
	 */
	mem_phase = m * (layer_stage * (mem_f + mem_b + mem_r) + mem_logits);
	out->phase[LE_PH_COMPUTE] = compute - mem_phase;
	out->phase[LE_PH_MEMORY_BOUND] = mem_phase;
	out->phase[LE_PH_TP_COMM] = m * layer_stage * t_tp;
	out->phase[LE_PH_CP_COMM] = m * layer_stage * t_cp;
	out->phase[LE_PH_EP_COMM] = m * layer_stage * t_ep;
	/*
	 * 1F1B: (pp-1)/(m*vpp) of the m micro-batches' busy time (Narayanan et al.
	 * 2021, §2.2.1-2.2.2), plus the stage-to-stage exchanges of the m
	 * micro-batches: the pipeline's own cost.
	 */
	out->phase[LE_PH_PP_BUBBLE] = (pp - 1) / vpp * busy_mb + m * t_p2p;

	/*
	 * Data parallelism.  Expert weights (L·n_experts·fmats·h·f) are sharded over
	 * ep and reduced over the remaining dp·cp/ep ranks; the rest over dp·cp
	 * (context-parallel ranks hold the same weights).  S = the GPU's slice.
	 * The traffic is comm_breakdown's (comm.c), collective by collective.
	 * Gradients are accumulated over the micro-batches and reduced once per
	 * step at every ZeRO stage, as Megatron-LM's distributed optimizer and
	 * FSDP under a pipeline schedule do (Llama 3 report §3.3.2: gradients
	 * accumulated in fp32 across micro-batches, then reduce-scattered):
	 * ZeRO-0 one all-reduce of the gradients, 2(p-1)/p·S;
	 * ZeRO-1 and 2 one reduce-scatter of the gradients plus one all-gather of
	 *   the updated weights;
	 * ZeRO-3 the reduce-scatter, and the weights gathered for the forward and
	 *   again for the backward of every micro-batch (Rajbhandari et al. 2019,
	 *   §7.2.2), prefetched under the compute they feed: only the excess is
	 *   exposed.
	 * The reduction follows the last micro-batch's backward (overlapped bucket
	 * by bucket with it under dp_overlap).  Over the network when the group
	 * leaves the NVLink domain, through the ports of its GPUs on each node
	 * (le_dp_ring_bw).
	 */
	if (moe)
		n_expert_params = fmin(in->n_params, L * in->n_experts * fmats * h * f);
	n_dense_params = in->n_params - n_expert_params;
	{
		/* the heaviest stage's slice: its own layers, the embeddings only on the stages holding them */
		double		ld,
					le;

		le_dp_slice(n_dense_params, n_expert_params, V * h, L, pp, tp, ep, &ld, &le);
		local_params = ld + le;
	}
	dpg = dp * cp;
	dp_bw = le_dp_ring_bw(dpg, tp, in->gpus_per_node, in->nvlink_bw, in->net_bw);
	if (dpg > 1)
	{
		double		share = (dpg - 1) / dpg;
		double		t_rs = link_seconds(share * local_params * gb, dp_bw);	/* one gradient reduce-scatter */
		double		t_ag = link_seconds(share * local_params * pb, dp_bw);	/* one weight all-gather */
		double		stage_compute = layer_stage * (t_f + t_b + t_r);
		double		exposed;

		if (in->zero_stage == 0)
			t_dp = 2.0 * t_rs;	/* all-reduce = reduce-scatter + all-gather of the gradients */
		else if (in->zero_stage <= 2)
			t_dp = t_rs + t_ag;
		else
			t_dp = t_rs;
		t_bucket = t_dp * fmin(1.0, LE_DP_BUCKET_PARAMS / local_params);
		/* under the backward of the last micro-batch on this stage, bucket by bucket */
		exposed = in->dp_overlap ? fmax(t_bucket, t_dp - layer_stage * t_b) : t_dp;
		if (in->dp_overlap)
			hidden += t_dp - exposed;
		if (in->zero_stage == 3 && le_fsdp_keeps(in->stack, in->fsdp_reshard, in->zero_stage, pp))
		{
			/* parameters kept unsharded between micro-batches: one gather per step, before the first forward */
			exposed += in->dp_overlap ? fmax(0, t_ag - stage_compute) : t_ag;
			if (in->dp_overlap)
				hidden += fmin(t_ag, stage_compute);
		}
		else if (in->zero_stage == 3)	/* two gathers per micro-batch, prefetched under compute */
		{
			exposed += m * (in->dp_overlap ? fmax(0, 2.0 * t_ag - stage_compute) : 2.0 * t_ag);
			if (in->dp_overlap)
				hidden += m * fmin(2.0 * t_ag, stage_compute);
		}
		out->phase[LE_PH_DP_COMM_EXPOSED] = exposed;
	}

	/*
	 * Optimizer (Adam; Kingma & Ba 2015): reads and writes the fp32 master
	 * weights and both moments (24 bytes), reads the gradient, writes the
	 * compute copy: memory-bound.  ZeRO 1-3 shard it over the dp·cp ranks.
	 */
	opt_params = in->zero_stage >= 1 ? local_params / dpg : local_params;
	out->phase[LE_PH_OPTIMIZER] = opt_params * (24.0 + gb + pb) / hbm;

	/*
	 * Contention: the compute that a hidden collective runs beside is slowed
	 * by LE_OVERLAP_SLOWDOWN for as long as the collective runs (Lee et al.
	 * 2025; at most the whole compute).  Hidden: the context-parallel ring
	 * transfers under each chunk's attention, and with dp_overlap the
	 * gradient reduction under the backward and FSDP's prefetched gathers.
	 * An exposed collective has nothing beside it.
	 */
	hidden += m * layer_stage * hidden_cp;
	out->phase[LE_PH_COMM_CONTENTION] = LE_OVERLAP_SLOWDOWN * fmin(hidden, compute);

	/* summed as before 0.5.0 (compute whole, then the other phases in order), so that totals keep their digits */
	out->phase[LE_PH_TOTAL] = compute;
	for (int p = LE_PH_TP_COMM; p < LE_PH_TOTAL; p++)
		out->phase[LE_PH_TOTAL] += out->phase[p];

	/*
	 * FLOPs.  Model FLOPs: 6·N_active per token (Kaplan et al. 2020), the API's
	 * MFU convention.  Hardware FLOPs: what the GEMMs and attention execute
	 * (forward, twice that backward, recompute), from the shapes.
	 */
	{
		double		n_act = in->n_active_params > 0 ? in->n_active_params : in->n_params;
		double		per_tok_layer = 2.0 * ((mla ? le_attn_params(&at) : h * (h + 2 * hkv) + h * h) + fmats * h * f * topk);
		double		attn_tok_layer = (mla ? le_attn_score_flops(&at, s) : 4.0 * s * h) * (in->flash ? 0.5 : 1.0);
		double		fwd = L * (per_tok_layer + attn_tok_layer);
		double		rec = 0;

		if (in->recompute == LE_RC_FULL)
			rec = fwd;
		else if (in->recompute == LE_RC_SELECTIVE && in->stack != LE_STACK_MEGATRON)
			rec = L * (sac_flops * tp / M + (in->flash ? 0 : attn_tok_layer));	/* per token, the layer's whole width */
		else if (in->recompute == LE_RC_SELECTIVE && !in->flash)
			rec = L * attn_tok_layer;
		if (in->recompute == LE_RC_SELECTIVE && mla && in->stack == LE_STACK_MEGATRON)	/* the up projections, forward */
			rec += L * 2.0 * ((at.q_rank > 0 ? at.q_rank : h) * a * at.d_qk + at.kv_rank * a * (at.d_qk - at.d_rope + at.d_v));
		out->model_flops = 6.0 * n_act * out->tokens;
		out->hw_flops = out->tokens * (layer_scale * (3.0 * fwd + rec) + 6.0 * h * V);
		out->mfu = out->model_flops / (in->n_gpus * in->peak_flops * out->phase[LE_PH_TOTAL]);
		out->hfu = out->hw_flops / (in->n_gpus * in->peak_flops * out->phase[LE_PH_TOTAL]);
	}
}

/* One optimizer step of a validated layout. */
le_status
le_step_time(const le_step_in *in, le_step_out *out, le_error *err)
{
	if (le_step_check(in, err) != LE_OK)
		return err->status;
	le_step_eval(in, out);
	if (!isfinite(out->phase[LE_PH_TOTAL]) || out->phase[LE_PH_TOTAL] <= 0)
		return le_set_error(err, LE_ERR_OVERFLOW, NULL, "step time is out of range");
	err->status = LE_OK;
	return LE_OK;
}
