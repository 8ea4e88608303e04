/* test_step.c: unit tests of the step-time model against published runs (data/mfu_validation.csv) and of the cheapest-plan search. */
#include "unit.h"
#include "core/csv.h"
#include "core/step.h"

#include <stdlib.h>

/* Hardware of the validation rows' GPUs (datasheets; network per GPU as the papers describe the clusters). */
typedef struct hw_row
{
	const char *name;
	double		peak,
				hbm_bw,
				nvlink,
				net;
	le_gpu_gen	gen;
} hw_row;

static const hw_row hw_rows[] = {
	/*
	 * A100 SXM4 80 GB: 312 TFLOP/s bf16 dense, 2039 GB/s HBM2e, NVLink 600 GB/s
	 * both directions (NVIDIA A100 datasheet); Selene nodes have eight 200 Gb/s
	 * HDR InfiniBand adapters for 8 GPUs, 25 GB/s per GPU (Narayanan et al. 2021, §5).
	 */
	{"A100-SXM4-80GB", 312e12, 2.039e12, 300e9, 25e9, LE_GEN_AMPERE},
	/*
	 * H100 SXM5 80 GB: 989 TFLOP/s bf16 dense, 3.35 TB/s HBM3, NVLink 900 GB/s
	 * both directions (NVIDIA H100 datasheet); Llama 3's cluster has one
	 * 400 Gb/s RoCE port per GPU (Dubey et al. 2024, §3.3.1): 50 GB/s.
	 */
	{"H100-SXM5-80GB", 989e12, 3.35e12, 450e9, 50e9, LE_GEN_HOPPER},
};

static void *
unit_alloc(void *ctx, void *p, size_t n)
{
	(void) ctx;
	if (n == 0)
	{
		free(p);
		return NULL;
	}
	return realloc(p, n);
}

/* Index of a column by header name, or -1. */
static int
col(const le_csv_field *hdr, int nh, const char *name)
{
	for (int i = 0; i < nh; i++)
		if (hdr[i].len == strlen(name) && memcmp(hdr[i].ptr, name, hdr[i].len) == 0)
			return i;
	return -1;
}

static double
fnum(const le_csv_field *f)
{
	char		buf[64];
	size_t		n = f->len < sizeof(buf) - 1 ? f->len : sizeof(buf) - 1;

	memcpy(buf, f->ptr, n);
	buf[n] = 0;
	return strtod(buf, NULL);
}

static int
feq(const le_csv_field *f, const char *s)
{
	return f->len == strlen(s) && memcmp(f->ptr, s, f->len) == 0;
}

/* A file read whole (NULL if it cannot be read). */
static char *
slurp(const char *path, size_t *len)
{
	FILE	   *fp = fopen(path, "rb");
	char	   *buf;
	long		n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	if (buf && fread(buf, 1, (size_t) n, fp) != (size_t) n)
	{
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	if (buf)
		buf[n] = 0;
	*len = (size_t) n;
	return buf;
}

/*
 * A file of data/ opened for reading by record: the whole file, its parser
 * and its header (at most 64 columns).  0 (and a failed check) if the file
 * cannot be read; run from the repository root.
 */
typedef struct data_csv
{
	char	   *buf;
	le_csv		r;
	le_csv_field hdr[64];
	int			nh;
} data_csv;

static int
data_csv_open(data_csv *d, const char *path)
{
	size_t		len;

	d->buf = slurp(path, &len);
	d->nh = 0;
	CHECK(d->buf != NULL, "%s readable (run from the repository root)", path);
	if (!d->buf)
		return 0;
	le_csv_init(&d->r, d->buf, len, unit_alloc, NULL);
	if (le_csv_next(&d->r) == LE_CSV_RECORD)
	{
		d->nh = d->r.nfields < 64 ? d->r.nfields : 64;
		memcpy(d->hdr, d->r.fields, sizeof(le_csv_field) * d->nh);
	}
	return 1;
}

static void
data_csv_close(data_csv *d)
{
	le_csv_free(&d->r);
	free(d->buf);
}

/*
 * FLOPs per step in the convention each paper reports, so that the
 * prediction is compared like with like:
 * - narayanan_eq3: 96·B·s·l·h²·(1 + s/6h + V/16lh), hardware FLOPs with full
 *   recompute (Narayanan et al. 2021, eq. 3);
 * - korthikanti_mfu: 72·B·s·l·h²·(1 + s/6h + V/12hl), model FLOPs
 *   (Korthikanti et al. 2022, §6.3);
 * - palm_attention: (6N + 12·l·h·s) per token (Chowdhery et al. 2022, App. B),
 *   Llama 3's MFU convention.
 */
static double
paper_flops(const le_csv_field *conv, const le_step_in *in)
{
	double		B = in->global_batch,
				s = in->seq_len,
				l = in->n_layers,
				h = in->d_model,
				V = in->vocab_size;

	if (feq(conv, "narayanan_eq3"))
		return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
	if (feq(conv, "korthikanti_mfu"))
		return 72.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * h * l));
	if (feq(conv, "palm_attention"))
		return B * s * (6.0 * in->n_params + 12.0 * l * h * s);
	return NAN;
}

/* The validation table: every row of data/mfu_validation.csv within its tolerance. */
static void
test_validation_rows(void)
{
	data_csv	csv;
	int			rows = 0,
				within = 0;
	double		sum_abs = 0;

	if (!data_csv_open(&csv, "data/mfu_validation.csv"))
		return;
	printf("\nPredicted vs published (data/mfu_validation.csv), each in the paper's FLOP convention:\n");
	printf("%-4s %-20s %6s %3s %3s %3s %8s %8s %7s %8s  | %7s %7s %7s %7s %7s %7s %7s\n",
		   "row", "model", "gpus", "tp", "pp", "cp", "publ", "pred", "err", "pred_mfu",
		   "compute", "tp", "cp", "bubble", "dp", "optim", "total");
	while (le_csv_next(&csv.r) == LE_CSV_RECORD)
	{
		le_step_in	in;
		le_step_out out;
		le_error	e;
		const le_csv_field *F = csv.r.fields;
		const hw_row *hw = NULL;
		double		pub,
					pred,
					tol,
					rel;
		le_csv_field gpu,
					name,
					row,
					rc,
					conv;

#define C(nm) (F[col(csv.hdr, csv.nh, nm)])
		memset(&in, 0, sizeof(in));
		row = C("row");
		name = C("model");
		gpu = C("gpu");
		rc = C("recompute");
		conv = C("flop_convention");
		in.n_params = fnum(&C("n_params"));
		in.n_layers = (int) fnum(&C("n_layers"));
		in.d_model = (int) fnum(&C("d_model"));
		in.n_heads = (int) fnum(&C("n_heads"));
		in.n_kv_heads = (int) fnum(&C("n_kv_heads"));
		in.ffn_hidden = (int) fnum(&C("ffn_hidden"));
		in.swiglu = (int) fnum(&C("swiglu"));
		in.vocab_size = (int) fnum(&C("vocab_size"));
		in.seq_len = (int) fnum(&C("seq_len"));
		in.global_batch = fnum(&C("global_batch"));
		in.micro_batch = (int) fnum(&C("micro_batch"));
		in.n_gpus = (int) fnum(&C("n_gpus"));
		in.tp = (int) fnum(&C("tp"));
		in.pp = (int) fnum(&C("pp"));
		in.cp = (int) fnum(&C("cp"));
		in.vpp = (int) fnum(&C("vpp"));
		in.recompute = feq(&rc, "full") ? LE_RC_FULL : feq(&rc, "selective") ? LE_RC_SELECTIVE : LE_RC_NONE;
		in.sequence_parallel = (int) fnum(&C("sequence_parallel"));
		in.flash = (int) fnum(&C("flash"));
		in.zero_stage = (int) fnum(&C("zero_stage"));
		in.grad_bytes = fnum(&C("grad_bytes"));
		in.dp_overlap = (int) fnum(&C("dp_overlap"));
		pub = fnum(&C("published_tflops_per_gpu"));
		tol = fnum(&C("tolerance"));
#undef C
		for (size_t i = 0; i < sizeof(hw_rows) / sizeof(hw_rows[0]); i++)
			if (feq(&gpu, hw_rows[i].name))
				hw = &hw_rows[i];
		CHECK(hw != NULL, "row %.*s: known gpu", (int) row.len, row.ptr);
		if (!hw)
			continue;
		in.peak_flops = hw->peak;
		in.hbm_bw = hw->hbm_bw;
		in.nvlink_bw = hw->nvlink;
		in.net_bw = hw->net;
		in.gen = hw->gen;
		in.gpus_per_node = 8;

		if (le_step_time(&in, &out, &e) != LE_OK)
		{
			CHECK(0, "row %.*s: %s", (int) row.len, row.ptr, e.message);
			continue;
		}
		pred = paper_flops(&conv, &in) / (in.n_gpus * out.phase[LE_PH_TOTAL]) / 1e12;
		rel = pred / pub - 1.0;
		rows++;
		sum_abs += fabs(rel);
		if (fabs(rel) <= tol)
			within++;
		printf("%-4.*s %-20.*s %6d %3d %3d %3d %8.1f %8.1f %+6.1f%% %8.3f  | %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f\n",
			   (int) row.len, row.ptr, (int) name.len, name.ptr, in.n_gpus, in.tp, in.pp, in.cp,
			   pub, pred, 100 * rel, out.mfu,
			   out.phase[LE_PH_COMPUTE], out.phase[LE_PH_TP_COMM], out.phase[LE_PH_CP_COMM],
			   out.phase[LE_PH_PP_BUBBLE], out.phase[LE_PH_DP_COMM_EXPOSED], out.phase[LE_PH_OPTIMIZER],
			   out.phase[LE_PH_TOTAL]);
		CHECK(fabs(rel) <= tol, "row %.*s (%.*s): predicted %.1f TFLOP/s per GPU, published %.1f, error %+.1f%% beyond %.0f%%",
			  (int) row.len, row.ptr, (int) name.len, name.ptr, pred, pub, 100 * rel, 100 * tol);
	}
	printf("%d rows, %d within tolerance, mean |error| %.1f%%\n\n", rows, within, rows ? 100 * sum_abs / rows : 0);
	CHECK(rows >= 21, "validation rows read: %d", rows);
	data_csv_close(&csv);
}

/*
 * data/kernel_rates.csv is the cited source of the compiled kernel rates
 * (step.c): every row has a source and its share equals the compiled one, and
 * every compiled rate has a row (le_kernel_rate over every generation, dtype
 * and kernel).
 */
static void
test_kernel_rates(void)
{
	static const char *const gens[] = {"ampere", "hopper", "blackwell", "cdna2", "cdna3", "other"};
	static const char *const dts[] = {"bf16", "fp8"};
	static const char *const ks[] = {"gemm", "attn_fa2", "attn_fa3"};
	data_csv	csv;
	int			rows = 0,
				compiled = 2;	/* any/any/hbm_stream, any/any/overlap_contention */

	if (!data_csv_open(&csv, "data/kernel_rates.csv"))
		return;
	while (le_csv_next(&csv.r) == LE_CSV_RECORD)
	{
		const le_csv_field *F = csv.r.fields;
		char		g[32],
					d[16],
					k[32];
		double		share,
					have;

#define C(nm) (F[col(csv.hdr, csv.nh, nm)])
		snprintf(g, sizeof(g), "%.*s", (int) C("generation").len, C("generation").ptr);
		snprintf(d, sizeof(d), "%.*s", (int) C("dtype").len, C("dtype").ptr);
		snprintf(k, sizeof(k), "%.*s", (int) C("kernel").len, C("kernel").ptr);
		share = fnum(&C("share"));
		CHECK(C("source").len > 10, "kernel_rates %s/%s/%s: a source", g, d, k);
#undef C
		have = le_kernel_rate(g, d, k);
		CHECK(have > 0 && fabs(have - share) < 1e-12, "kernel_rates %s/%s/%s: csv %g, compiled %g", g, d, k, share, have);
		rows++;
	}
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		for (size_t j = 0; j < 2; j++)
		{
			for (size_t x = 0; x < 3; x++)
				compiled += le_kernel_rate(gens[i], dts[j], ks[x]) > 0;
			/* attention by sequence length: attn_fa2@512 ... attn_cudnn@16384 */
			for (int fa = 0; fa < 2; fa++)
				for (int n = 512; n <= 16384; n *= 2)
				{
					char		kn[32];

					snprintf(kn, sizeof(kn), "attn_%s@%d", fa ? "cudnn" : "fa2", n);
					compiled += le_kernel_rate(gens[i], dts[j], kn) > 0;
				}
		}
	CHECK(rows == compiled, "kernel_rates.csv has %d rows, the compiled table %d rates", rows, compiled);
	CHECK(le_kernel_rate("hopper", "bf16", "nothing") < 0 && le_kernel_rate("nowhere", "bf16", "gemm") < 0,
		  "unknown kernel or generation: -1");
	data_csv_close(&csv);
}

/*
 * Memory-bound ops by stack (issue 46), one layer of a small Llama-style
 * block on one H100 (no straggler, no pipeline, no logits): the phase is the
 * bytes of docs/step-model.md's op list at 0.85 of 3.35 TB/s, computed by
 * hand (python): torch_eager (2·36·1024 + 20·2048 + 12·1024 + 10·4096) B per
 * token, compile (16·1024 + 4·2048 + 6·4096) B, both × 1024 tokens × 3
 * (forward + twice backward); megatron Korthikanti's 34·s·b·h × (2 + 3).
 */
static le_step_out eval_ok(const le_step_in *in);

static le_step_in
small_llama(int stack)
{
	le_step_in	in;

	memset(&in, 0, sizeof(in));
	in.n_params = 16777216;		/* the layer's own weights: layer scale 1 */
	in.n_layers = 1;
	in.d_model = 1024;
	in.n_heads = 8;
	in.ffn_hidden = 4096;
	in.swiglu = 1;
	in.seq_len = 1024;
	in.global_batch = 1;
	in.micro_batch = 1;
	in.peak_flops = 989e12;
	in.hbm_bw = 3.35e12;
	in.nvlink_bw = 450e9;
	in.net_bw = 50e9;
	in.gpus_per_node = 8;
	in.gen = LE_GEN_HOPPER;
	in.n_gpus = 1;
	in.sequence_parallel = 1;
	in.flash = 1;
	in.stack = stack;
	return in;
}

static void
test_memory_bound_ops(void)
{
	le_step_in	e = small_llama(LE_STACK_TORCH_EAGER),
				c = small_llama(LE_STACK_TORCH_COMPILE),
				m = small_llama(LE_STACK_MEGATRON);
	le_step_out oe = eval_ok(&e),
				oc = eval_ok(&c),
				om = eval_ok(&m);
	double		sum = 0;

	NEAR(oe.phase[LE_PH_MEMORY_BOUND], 0.00018117625706760317, 1e-9, "torch_eager memory-bound ops, op by op");
	NEAR(oc.phase[LE_PH_MEMORY_BOUND], 5.3027197190517996e-05, 1e-9, "torch_compile: Inductor's fused chains");
	NEAR(om.phase[LE_PH_MEMORY_BOUND], 6.260155223880597e-05, 1e-9, "megatron: Korthikanti's stored activations moved 2 + 3 times");
	CHECK(strcmp(le_step_phase_name(LE_PH_MEMORY_BOUND), "memory_bound_ops") == 0, "row name memory_bound_ops");
	for (int p = 0; p < LE_PH_TOTAL; p++)
		sum += oe.phase[p];
	NEAR(oe.phase[LE_PH_TOTAL], sum, 1e-12, "the rows still sum to the total");
	/* the GEMMs are the same; attention is FlashAttention-2 on the torch stacks (0.35 of an H100, not 0.55) */
	NEAR(oe.phase[LE_PH_COMPUTE], oc.phase[LE_PH_COMPUTE], 1e-9, "the torch stacks run the same GEMMs and attention");
	CHECK(oc.phase[LE_PH_COMPUTE] > om.phase[LE_PH_COMPUTE],
		  "torch stacks' attention slower: %g vs %g", oc.phase[LE_PH_COMPUTE], om.phase[LE_PH_COMPUTE]);
	e.dropout = 1;
	NEAR(eval_ok(&e).phase[LE_PH_MEMORY_BOUND], 0.00018117625706760317 * (167936.0 + 10240) / 167936, 1e-9,
		 "eager dropout: 2 x 5 bytes per element of h");
	e.stack = 3;
	{
		le_error	err;
		le_step_out o;

		CHECK(le_step_time(&e, &o, &err) == LE_ERR_VALUE && strstr(err.message, "stack") != NULL, "bad stack refused: %s",
			  err.message);
	}
}

/*
 * torchtitan's op-level selective checkpointing (issue 46): with
 * recompute 'selective' on a torch stack the backward recomputes the
 * block's even-numbered GEMMs (Llama: wk, wo, w3) and its memory-bound
 * forward, and nothing of flash attention.  On small_llama (h 1024, 8 heads
 * without GQA, ffn 4096, 1024 tokens) those GEMMs are wk (1024 x 1024), wo
 * (1024 x 1024) and w3 (4096 x 1024), each timed as le_gemm_seconds times it;
 * Megatron's selective recomputes nothing with flash attention.  Before this
 * term the torch stacks' 'selective' cost nothing either (torchtitan's own
 * A100 table: 13B no checkpointing 2,162, selective op 1,904 tokens/s).
 */
static void
test_torch_op_sac(void)
{
	for (int st = LE_STACK_TORCH_COMPILE; st <= LE_STACK_TORCH_EAGER; st++)
	{
		le_step_in	n = small_llama(st),
					r = small_llama(st);
		le_step_out on,
					or_;
		double		gemms = 2 * le_gemm_seconds(LE_GEN_HOPPER, 989e12, 3.35e12, 2, 1024, 1024, 1024, 1) +
			le_gemm_seconds(LE_GEN_HOPPER, 989e12, 3.35e12, 2, 1024, 4096, 1024, 1);
		double		mem_fwd;

		r.recompute = LE_RC_SELECTIVE;
		on = eval_ok(&n);
		or_ = eval_ok(&r);
		/* the memory-bound phase grows by the forward's share: 1 of the 3 (forward, twice that backward) */
		mem_fwd = on.phase[LE_PH_MEMORY_BOUND] / 3.0;
		CHECK(fabs(or_.phase[LE_PH_MEMORY_BOUND] - (on.phase[LE_PH_MEMORY_BOUND] + mem_fwd)) < 1e-12,
			  "stack %d: selective recomputes the memory-bound forward", st);
		CHECK(fabs(or_.phase[LE_PH_TOTAL] - on.phase[LE_PH_TOTAL] - (gemms + mem_fwd)) < 1e-12,
			  "stack %d: selective recomputes wk, wo and w3 (%g s, expected %g)", st,
			  or_.phase[LE_PH_TOTAL] - on.phase[LE_PH_TOTAL], gemms + mem_fwd);
		/* 1024 tokens x 2 x (1024 x 1024 + 1024 x 1024 + 4096 x 1024) FLOPs */
		NEAR(or_.hw_flops - on.hw_flops, 1024.0 * 2 * (2 * 1024.0 * 1024 + 4096.0 * 1024), 1e-12,
			 "the recomputed GEMMs are hardware FLOPs");
	}
	{
		le_step_in	n = small_llama(LE_STACK_MEGATRON),
					r = small_llama(LE_STACK_MEGATRON);

		r.recompute = LE_RC_SELECTIVE;
		NEAR(eval_ok(&r).phase[LE_PH_TOTAL], eval_ok(&n).phase[LE_PH_TOTAL], 1e-15,
			 "megatron: selective with flash attention recomputes nothing");
	}
}

/*
 * FP8 as trained (issue 46): the linear layers' GEMMs on the fp8 peak,
 * attention and the output layer in bf16, the casts timed as memory-bound
 * ops.  Llama-3-8B-like on 8 H100 with FSDP: the FP8/BF16 step-time ratio
 * within 1.1-1.6x on every stack (published 1.28-1.36x; before 0.5.0 the
 * model put every GEMM and attention on the doubled peak: 1.8-1.96x).
 */
static void
test_fp8_as_trained(void)
{
	for (int st = LE_STACK_MEGATRON; st <= LE_STACK_TORCH_EAGER; st++)
	{
		le_step_in	in;
		le_step_out b,
					f,
					fa;
		double		ratio;

		memset(&in, 0, sizeof(in));
		in.n_params = 7.5e9;
		in.n_layers = 32;
		in.d_model = 4096;
		in.n_heads = 32;
		in.n_kv_heads = 8;
		in.ffn_hidden = 14336;
		in.swiglu = 1;
		in.vocab_size = 128256;
		in.seq_len = 8192;
		in.global_batch = 8;
		in.micro_batch = 1;
		in.peak_flops = 989e12;
		in.hbm_bw = 3.35e12;
		in.nvlink_bw = 450e9;
		in.net_bw = 50e9;
		in.gpus_per_node = 8;
		in.gen = LE_GEN_HOPPER;
		in.n_gpus = 8;
		in.zero_stage = 3;
		in.stack = st;
		in.sequence_parallel = 1;
		in.flash = 1;
		in.dp_overlap = 1;
		b = eval_ok(&in);
		in.fp8 = 1;
		in.peak_flops = 1979e12;
		f = eval_ok(&in);
		ratio = b.phase[LE_PH_TOTAL] / f.phase[LE_PH_TOTAL];
		CHECK(ratio > 1.1 && ratio < 1.6, "stack %d: fp8/bf16 speed-up %.3f within 1.1-1.6", st, ratio);
		CHECK(f.phase[LE_PH_MEMORY_BOUND] > b.phase[LE_PH_MEMORY_BOUND], "stack %d: the casts are memory-bound ops", st);
		in.fp8_attention = 1;
		fa = eval_ok(&in);
		CHECK(fa.phase[LE_PH_TOTAL] < f.phase[LE_PH_TOTAL], "stack %d: fp8_attention runs the forward on FA3's FP8 rate", st);
	}
}

/* A GPT-3-like layout on A100 used by the behaviour tests. */
static le_step_in
base_in(void)
{
	le_step_in	in;

	memset(&in, 0, sizeof(in));
	in.n_params = 175e9;
	in.n_layers = 96;
	in.d_model = 12288;
	in.n_heads = 96;
	in.vocab_size = 51200;
	in.seq_len = 2048;
	in.global_batch = 1536;
	in.micro_batch = 1;
	in.peak_flops = 312e12;
	in.hbm_bw = 2.039e12;
	in.nvlink_bw = 300e9;
	in.net_bw = 25e9;
	in.gpus_per_node = 8;
	in.gen = LE_GEN_AMPERE;
	in.n_gpus = 1024;
	in.tp = 8;
	in.pp = 8;
	in.recompute = LE_RC_SELECTIVE;
	in.sequence_parallel = 1;
	in.flash = 1;
	in.zero_stage = 1;
	in.dp_overlap = 1;
	return in;
}

static le_step_out
eval_ok(const le_step_in *in)
{
	le_step_out o;
	le_error	e;

	if (le_step_time(in, &o, &e) != LE_OK)
	{
		CHECK(0, "step time failed: %s", e.message);
		memset(&o, 0, sizeof(o));
	}
	return o;
}

/* The phases add up, the bubble is (pp-1)/(m·vpp) of the busy time, MFU is its definition. */
static void
test_step_phases(void)
{
	le_step_in	in = base_in(),
				in2;
	le_step_out o = eval_ok(&in),
				o2;
	double		sum = 0,
				busy;

	for (int p = 0; p < LE_PH_TOTAL; p++)
	{
		CHECK(o.phase[p] >= 0, "phase %s non-negative", le_step_phase_name((le_step_phase) p));
		sum += o.phase[p];
	}
	NEAR(o.phase[LE_PH_TOTAL], sum, 1e-12, "total = sum of phases");
	CHECK(strcmp(le_step_phase_name(LE_PH_DP_COMM_EXPOSED), "dp_comm_exposed") == 0, "phase names");
	CHECK(o.dp == 16 && o.micro_batches == 96, "dp %d, m %g", o.dp, o.micro_batches);
	NEAR(o.model_flops, 6.0 * 175e9 * 1536 * 2048, 1e-12, "model FLOPs = 6 N tokens");
	NEAR(o.mfu, o.model_flops / (1024 * 312e12 * o.phase[LE_PH_TOTAL]), 1e-12, "MFU definition");
	/*
	 * busy time per micro-batch is (compute + tp + cp + ep) / m plus the
	 * stage-to-stage exchanges p2p; pp_bubble = (pp-1)/(m·vpp) of m·busy plus
	 * the m exchanges.  p2p: b·s·h bf16 activations over tp = 8 ports, forward
	 * and backward, at 0.8 of 25 GB/s (Narayanan et al. 2021 §3.2, §4.1):
	 * 2 x 6.29 MB / 20 GB/s = 0.629 ms.
	 */
	busy = o.phase[LE_PH_COMPUTE] + o.phase[LE_PH_MEMORY_BOUND] + o.phase[LE_PH_TP_COMM] + o.phase[LE_PH_CP_COMM] + o.phase[LE_PH_EP_COMM];
	{
		double		p2p = 2.0 * (2048.0 * 12288 * 2 / 8) / (25e9 * 0.8);

		NEAR(p2p, 0.000629146, 1e-6, "one micro-batch's pipeline exchanges");
		NEAR(o.phase[LE_PH_PP_BUBBLE], 7.0 / 96.0 * (busy + 96 * p2p) + 96 * p2p, 1e-9, "bubble (pp-1)/m and the exchanges");
		CHECK(o.phase[LE_PH_PP_BUBBLE] > 7.0 / 96.0 * busy * 1.05, "the exchanges are counted: %g vs bubble alone %g",
			  o.phase[LE_PH_PP_BUBBLE], 7.0 / 96.0 * busy);
		in2 = in;
		in2.vpp = 2;
		o2 = eval_ok(&in2);
		/* interleaving halves the bubble and sends every micro-batch across vpp = 2 boundaries per stage */
		NEAR(o2.phase[LE_PH_PP_BUBBLE], 7.0 / 192.0 * (busy + 96 * 2 * p2p) + 96 * 2 * p2p, 1e-9,
			 "interleaving halves the bubble, doubles the exchanges");
		/* the whole pipeline inside one NVLink domain: the exchanges at NVLink's rate */
		in2 = in;
		in2.n_gpus = 8;
		in2.tp = 1;
		in2.global_batch = 16;
		o2 = eval_ok(&in2);
		busy = o2.phase[LE_PH_COMPUTE] + o2.phase[LE_PH_MEMORY_BOUND] + o2.phase[LE_PH_TP_COMM] + o2.phase[LE_PH_CP_COMM] + o2.phase[LE_PH_EP_COMM];
		p2p = 2.0 * (2048.0 * 12288 * 2) / (300e9 * 0.8);
		NEAR(o2.phase[LE_PH_PP_BUBBLE], 7.0 / 16.0 * (busy + 16 * p2p) + 16 * p2p, 1e-9, "exchanges over NVLink");
	}
	in2 = in;
	in2.pp = 1;
	in2.n_gpus = 128;
	o2 = eval_ok(&in2);
	CHECK(o2.phase[LE_PH_PP_BUBBLE] == 0, "no pipeline, no bubble");

	/* full recompute costs about a third more compute than none (one more forward) */
	in2 = in;
	in2.recompute = LE_RC_FULL;
	o2 = eval_ok(&in2);
	{
		le_step_in	in3 = in;
		le_step_out o3;

		in3.recompute = LE_RC_NONE;
		o3 = eval_ok(&in3);
		CHECK(o2.phase[LE_PH_COMPUTE] > 1.25 * o3.phase[LE_PH_COMPUTE] &&
			  o2.phase[LE_PH_COMPUTE] < 1.40 * o3.phase[LE_PH_COMPUTE],
			  "full recompute adds about a third: %g vs %g", o2.phase[LE_PH_COMPUTE], o3.phase[LE_PH_COMPUTE]);
		CHECK(o3.phase[LE_PH_COMPUTE] == o.phase[LE_PH_COMPUTE], "selective recompute is free with flash attention");
		NEAR(o2.hw_flops / o3.hw_flops, 4.0 / 3.0, 0.02, "full recompute: 4/3 of the hardware FLOPs");
	}

	/* overlapping the data-parallel reduction hides all but the last bucket */
	in2 = in;
	in2.dp_overlap = 0;
	o2 = eval_ok(&in2);
	CHECK(o2.phase[LE_PH_DP_COMM_EXPOSED] > o.phase[LE_PH_DP_COMM_EXPOSED] && o.phase[LE_PH_DP_COMM_EXPOSED] > 0,
		  "dp overlap: %g exposed vs %g", o.phase[LE_PH_DP_COMM_EXPOSED], o2.phase[LE_PH_DP_COMM_EXPOSED]);
	/* fp32 gradients double the ZeRO-0 all-reduce */
	in2.zero_stage = 0;
	o = eval_ok(&in2);
	in2.grad_bytes = 4;
	o2 = eval_ok(&in2);
	NEAR(o2.phase[LE_PH_DP_COMM_EXPOSED], 2 * o.phase[LE_PH_DP_COMM_EXPOSED], 1e-9, "fp32 gradients double the all-reduce");
	/* ZeRO-1 shards the optimizer step over dp */
	in2 = in;
	in2.zero_stage = 0;
	o2 = eval_ok(&in2);
	o = eval_ok(&in);
	NEAR(o2.phase[LE_PH_OPTIMIZER], 16 * o.phase[LE_PH_OPTIMIZER], 1e-9, "ZeRO-1: optimizer over dp = 16");
}

/*
 * What runs at scale lose (issue 34, item 4): each term on its own.
 * Launch gaps: a GEMM costs at least the 0.9 us between kernels (A. Gray,
 * NVIDIA blog 2019), so a tiny GEMM is never free.  Stragglers: the GPU work
 * of a step is stretched by 1 + sigma·z(n_gpus), sigma = 8 % / (2·z(27,648))
 * (Sinha et al. 2022); z by Blom's formula.
 */
static void
test_scale_losses(void)
{
	le_step_in	in = base_in(),
				in2;
	le_step_out o,
				o2;
	double		sigma;

	/* launch gap: a 1x1x1 GEMM takes at least 0.9 us; a large one hardly notices it */
	CHECK(le_gemm_seconds(LE_GEN_HOPPER, 989e12, 3.35e12, 2, 1, 1, 1, 1) >= 0.9e-6,
		  "a tiny GEMM costs the launch gap: %g s", le_gemm_seconds(LE_GEN_HOPPER, 989e12, 3.35e12, 2, 1, 1, 1, 1));
	NEAR(le_gemm_seconds(LE_GEN_AMPERE, 312e12, 2.039e12, 2, 8, 8, 8, 1), 2.0 * 512 / (312e12 * 0.869) +
		 2.0 * 192 / (2.039e12 * 0.85) + 0.9e-6, 1e-9, "8x8x8 GEMM: FLOPs + bytes + 0.9 us");
	/* expected largest of n standard normals: Blom's Phi^-1((n - 0.375)/(n + 0.25)) */
	NEAR(le_expected_max_normal(1), 0, 1e-12, "z(1) = 0");
	NEAR(le_expected_max_normal(2), 0.589456, 1e-5, "z(2) = Phi^-1(0.7222)");
	NEAR(le_expected_max_normal(1000), 3.22729, 1e-4, "z(1000) = Phi^-1(0.999375)");
	NEAR(le_expected_max_normal(27648), 4.0790977866881, 1e-9, "z(27,648), written out in step.c as LE_GPU_SPREAD_Z");
	NEAR(le_expected_max_normal(8), 1.434200, 1e-5, "z(8) = Phi^-1(0.92424), central branch");
	NEAR(le_expected_max_normal(30), 2.040281, 1e-5, "z(30) = Phi^-1(0.97934), tail branch");
	sigma = 0.08 / (2 * le_expected_max_normal(27648));
	CHECK(sigma > 0.0096 && sigma < 0.0100, "sigma from 8 %% over Summit's 27,648 GPUs: %g", sigma);
	NEAR(le_straggler_factor(1), 1.0, 1e-12, "one GPU waits for nobody");
	NEAR(le_straggler_factor(16384), 1.0 + sigma * le_expected_max_normal(16384), 1e-8, "16,384 GPUs");
	CHECK(le_straggler_factor(16384) > 1.035 && le_straggler_factor(16384) < 1.04,
		  "16,384 GPUs: the slowest about 3.8 %% slower: %g", le_straggler_factor(16384));
	CHECK(le_straggler_factor(256) < le_straggler_factor(12288), "grows with the GPUs");

	/*
	 * In the step: the same layout on 1,024 and 8,192 GPUs (dp 16 -> 128, the
	 * same micro-batches per GPU): each micro-batch's compute differs by the
	 * ratio of the straggler factors, and nothing else.
	 */
	o = eval_ok(&in);
	in2 = in;
	in2.n_gpus = 8192;
	in2.global_batch = 8 * in.global_batch;
	o2 = eval_ok(&in2);
	CHECK(o.micro_batches == o2.micro_batches, "same micro-batches: %g %g", o.micro_batches, o2.micro_batches);
	NEAR(o2.phase[LE_PH_COMPUTE] / o.phase[LE_PH_COMPUTE], le_straggler_factor(8192) / le_straggler_factor(1024), 1e-9,
		 "compute stretched by the straggler factor");
	CHECK(o2.phase[LE_PH_COMPUTE] > o.phase[LE_PH_COMPUTE] * 1.005, "8,192 GPUs wait longer for their slowest: %g vs %g",
		  o2.phase[LE_PH_COMPUTE], o.phase[LE_PH_COMPUTE]);
	/* and the time per step still falls as GPUs are added at a fixed batch (8x the GPUs, far under 1/4 the time) */
	in2.global_batch = in.global_batch;
	in2.micro_batch = 1;
	o2 = eval_ok(&in2);
	CHECK(o2.phase[LE_PH_TOTAL] < o.phase[LE_PH_TOTAL] / 4, "more GPUs, less time: %g vs %g",
		  o2.phase[LE_PH_TOTAL], o.phase[LE_PH_TOTAL]);
}

/* The matmul curve: efficiency grows with the dimensions and stays under the measured ceiling. */
static void
test_gemm_curve(void)
{
	double		prev = 0;

	for (int d = 256; d <= 32768; d *= 2)
	{
		double		t = le_gemm_seconds(LE_GEN_AMPERE, 312e12, 2.039e12, 2, 4096, d, d, 1);
		double		eff = 2.0 * 4096 * d * d / t / 312e12;

		CHECK(eff > prev && eff < 0.869, "A100 GEMM 4096x%dx%d efficiency %.3f rises below 0.869", d, d, eff);
		prev = eff;
	}
	CHECK(prev > 0.80, "large A100 GEMM near the MAMF ceiling: %.3f", prev);
	CHECK(le_gemm_seconds(LE_GEN_HOPPER, 989e12, 3.35e12, 2, 4096, 8192, 8192, 1) <
		  le_gemm_seconds(LE_GEN_AMPERE, 312e12, 2.039e12, 2, 4096, 8192, 8192, 1) / 2.5, "H100 faster than A100");
	CHECK(le_gpu_gen_parse("hopper") == LE_GEN_HOPPER && le_gpu_gen_parse("nope") == LE_GEN_OTHER &&
		  strcmp(le_gpu_gen_name(LE_GEN_BLACKWELL), "blackwell") == 0, "generation names");
}

/*
 * The matmul curve against a published per-shape measurement: OpenXLA's default
 * matmul performance table for sm_90 (data/gemm_measured.csv, 375 bf16 shapes,
 * batch 1-4 and m, n, k from 256 to 4,096; the part is an H100 SXM: its best
 * figure, 809 TFLOP/s, is above the PCIe part's 756 peak).  Each shape is timed
 * by le_gemm_seconds on the H100 SXM (989 TFLOP/s, 3.35 TB/s) and compared with
 * the measured time.  What the comparison shows (docs/step-model.md, "GEMMs by
 * shape"): the curve is faster than measured for small GEMMs, which the launch
 * and setup costs of the measurement dominate, and slower than measured (x1.17
 * to x1.92) for every GEMM of 2^34 FLOPs (17 GFLOP) and more, the sizes of a training
 * step's GEMMs.  The check is the second fact: the model never times a large
 * GEMM faster than it was measured to run (a change that made the curve
 * optimistic there would fail here).
 */
static void
test_gemm_measured(void)
{
	data_csv	csv;
	int			rows = 0,
				large = 0,
				large_faster = 0;
	double		min_large = 1e300,
				max_large = 0,
				log_small = 0,
				log_large = 0;

	if (!data_csv_open(&csv, "data/gemm_measured.csv"))
		return;
	while (le_csv_next(&csv.r) == LE_CSV_RECORD)
	{
		const le_csv_field *F = csv.r.fields;
		double		b = fnum(&F[col(csv.hdr, csv.nh, "b")]),
					m = fnum(&F[col(csv.hdr, csv.nh, "m")]),
					n = fnum(&F[col(csv.hdr, csv.nh, "n")]),
					k = fnum(&F[col(csv.hdr, csv.nh, "k")]),
					rate = fnum(&F[col(csv.hdr, csv.nh, "flops_per_s")]),
					flops = 2.0 * b * m * n * k,
					ratio;

		CHECK(F[col(csv.hdr, csv.nh, "source")].len > 10 && rate > 0, "gemm_measured row %d: a source and a rate", rows + 1);
		ratio = le_gemm_seconds(LE_GEN_HOPPER, 989e12, 3.35e12, 2, m, n, k, b) / (flops / rate);
		if (flops >= 17179869184.0)	/* 2^34 */
		{
			large++;
			large_faster += ratio < 1;
			min_large = ratio < min_large ? ratio : min_large;
			max_large = ratio > max_large ? ratio : max_large;
			log_large += log(ratio);
		}
		else
			log_small += log(ratio);
		rows++;
	}
	printf("GEMM curve vs OpenXLA's measured sm_90 table: %d shapes; model time / measured time, geometric mean "
		   "%.2f below 2^34 FLOPs, %.2f at or above (%d shapes, %.2f to %.2f)\n\n", rows,
		   rows > large ? exp(log_small / (rows - large)) : 0, large ? exp(log_large / large) : 0, large,
		   min_large, max_large);
	CHECK(rows == 375, "gemm_measured.csv: 375 bf16 shapes, read %d", rows);
	CHECK(large > 100 && large_faster == 0, "no GEMM of 2^34 FLOPs or more timed faster than measured: %d of %d",
		  large_faster, large);
	data_csv_close(&csv);
}

/* Bad input: each check names its field. */
static void
test_step_errors(void)
{
	le_step_in	in;
	le_step_out o;
	le_error	e;

#define BAD(stmt, want) do { \
		in = base_in(); stmt; \
		CHECK(le_step_time(&in, &o, &e) == LE_ERR_VALUE && strstr(e.message, want) != NULL, \
			  "%s: got \"%s\"", #stmt, e.message); \
	} while (0)
	BAD(in.n_layers = 0, "n_layers must be in");
	BAD(in.global_batch = 1000, "global_batch must be a multiple of dp * micro_batch");
	BAD(in.tp = 7, "tp must divide n_heads");
	BAD(in.n_gpus = 1000, "tp * pp * cp must divide n_gpus");
	BAD(in.ep = 2, "ep must divide dp and n_experts");
	BAD((in.n_experts = 8, in.top_k = 9), "top_k must be in");
	BAD((in.n_experts = 8, in.top_k = 2, in.ep = 3), "ep must divide dp and n_experts");
	BAD(in.cp = 3, "cp must divide seq_len");
	BAD(in.n_kv_heads = 7, "n_kv_heads must divide n_heads");
	BAD(in.zero_stage = 4, "zero_stage must be in");
	BAD(in.peak_flops = 0, "peak_flops must be in");
	BAD(in.tp_hidden = 1.5, "tp_hidden must be in");
	BAD(in.vpp = 96, "vpp * pp must not exceed n_layers");
	BAD(in.n_active_params = 2 * in.n_params, "n_active_params must be in");
#undef BAD
	/* an MoE layout that is valid: expert parallelism adds all-to-all time */
	in = base_in();
	in.n_experts = 64;
	in.top_k = 2;
	in.ffn_hidden = 4096;
	in.n_active_params = 40e9;
	in.ep = 8;
	o = eval_ok(&in);
	CHECK(o.phase[LE_PH_EP_COMM] > 0 && o.model_flops == 6.0 * 40e9 * o.tokens, "MoE: ep traffic, active-parameter FLOPs");
	/* context parallelism on a long sequence */
	in = base_in();
	in.seq_len = 131072;
	in.global_batch = 32;
	in.cp = 16;
	in.n_gpus = 1024;
	in.pp = 8;
	in.tp = 8;
	o = eval_ok(&in);
	CHECK(o.phase[LE_PH_CP_COMM] >= 0 && o.dp == 1, "cp layout evaluates (dp %d)", o.dp);
}

/* ---- search ---- */

/*
 * Stand-in memory model for the search tests (the real one, memory.c, is
 * plugged in by the fmgr layer): weights + gradients 4 bytes, Adam states 12
 * bytes sharded by ZeRO over dp·cp, over tp·pp; activations of L layers in
 * flight on the first stage (Korthikanti et al. 2022: 34·s·h/t per layer, or
 * 2·s·h/t with full recompute) over cp; 2 GB of overhead.
 */
static long stand_in_calls;

static int
stand_in_fits(void *ctx, const le_step_in *s, const le_sku_hw *hw)
{
	double		dpg = (double) s->n_gpus / (s->tp * s->pp);
	double		states = s->n_params / (s->tp * s->pp) * (4.0 + 12.0 / (s->zero_stage >= 1 ? dpg : 1));
	double		per_layer = (s->recompute == LE_RC_FULL ? 2.0 : 34.0) * s->seq_len * s->d_model / (s->tp * (s->cp ? s->cp : 1));
	double		total = states + s->n_layers * per_layer + 2e9;

	(void) ctx;
	stand_in_calls++;
	return total <= hw->hbm_bytes;
}

static int	interrupt_after;
static int	interrupt_calls;
static int
count_interrupt(void *ctx)
{
	(void) ctx;
	interrupt_calls++;
	return --interrupt_after <= 0;
}

/* A 70B dense model (Llama-2-70B-like shape) on 15T tokens. */
static le_search_in
search_in(le_sku_hw *skus, int n_skus, le_offer *offers, int n_offers)
{
	le_search_in in;

	memset(&in, 0, sizeof(in));
	in.model.n_params = 70e9;
	in.model.n_layers = 80;
	in.model.d_model = 8192;
	in.model.n_heads = 64;
	in.model.n_kv_heads = 8;
	in.model.ffn_hidden = 28672;
	in.model.swiglu = 1;
	in.model.vocab_size = 128256;
	in.model.seq_len = 8192;
	in.model.global_batch = 1024;
	in.model.micro_batch = 1;
	in.model.sequence_parallel = 1;
	in.model.flash = 1;
	in.model.grad_bytes = 4;
	in.model.dp_overlap = 1;
	in.n_tokens = 15e12;
	in.skus = skus;
	in.n_skus = n_skus;
	in.offers = offers;
	in.n_offers = n_offers;
	in.deadline_s = 30 * 86400.0;
	in.max_gpus = 16384;
	in.fits = stand_in_fits;
	in.alloc = unit_alloc;
	return in;
}

static void
test_search(void)
{
	le_sku_hw	skus[2] = {
		{312e12, 85.9e9, 2.039e12, 300e9, 25e9, 8, LE_GEN_AMPERE},
		{989e12, 85.5e9, 3.35e12, 450e9, 50e9, 8, LE_GEN_HOPPER},
	};
	le_offer	offers[3] = {
		{0, 1.50, 8, 0, 0},
		{1, 2.50, 8, 0, 0},
		{1, 3.00, 8, 0, 0},
	};
	le_search_in in = search_in(skus, 2, offers, 3);
	le_plan_row rows[50];
	le_search_stats st;
	le_error	e;
	int			n = 0,
				bad = 0;

	stand_in_calls = 0;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_OK, "search runs: %s", e.message);
	CHECK(n > 0 && st.feasible >= n, "plans found: %d of %ld", n, st.feasible);
	CHECK(st.fit_calls == stand_in_calls && st.fit_cache_hits > 0, "fit answers reused: %ld calls, %ld reused",
		  st.fit_calls, st.fit_cache_hits);
	for (int i = 0; i < n; i++)
	{
		le_step_in	s;
		le_step_out o;
		le_error	e2;

		if (i > 0 && rows[i].cost_usd < rows[i - 1].cost_usd)
			bad++;
		if (rows[i].wall_s > in.deadline_s || rows[i].n_gpus % 8 != 0 || rows[i].n_gpus > in.max_gpus)
			bad++;
		/* a plan reproduces its own time and cost through the public step model */
		le_plan_step_in(&in, &rows[i], &s);
		if (le_step_time(&s, &o, &e2) != LE_OK ||
			fabs(o.phase[LE_PH_TOTAL] - rows[i].step_s) > 1e-9 * rows[i].step_s ||
			fabs(in.n_tokens / o.tokens * o.phase[LE_PH_TOTAL] * s.n_gpus / 3600 *
				 offers[rows[i].offer].usd_per_gpu_hour - rows[i].cost_usd) > 1e-6 * rows[i].cost_usd ||
			!stand_in_fits(NULL, &s, &skus[rows[i].sku]))
			bad++;
	}
	CHECK(bad == 0, "plans ordered by cost, within deadline and max_gpus, reproducible: %d bad", bad);
	if (n > 0)
		printf("cheapest plan for 70B x 15T tokens in 30 days: offer %d, %d GPUs, tp %d pp %d cp %d dp %d zero %d rc %d, "
			   "MFU %.3f, %.1f days, $%.0f\n", rows[0].offer, rows[0].n_gpus, rows[0].tp, rows[0].pp, rows[0].cp,
			   rows[0].dp, rows[0].zero_stage, rows[0].recompute, rows[0].mfu, rows[0].wall_s / 86400, rows[0].cost_usd);
	/* the $2.50 H100 offer beats the $3.00 one for the same plan */
	{
		int			first25 = -1,
					first30 = -1;

		for (int i = 0; i < n; i++)
		{
			if (rows[i].offer == 1 && first25 < 0)
				first25 = i;
			if (rows[i].offer == 2 && first30 < 0)
				first30 = i;
		}
		CHECK(first25 >= 0 && (first30 < 0 || first25 < first30), "cheaper offer first");
	}

	/* a deadline no plan meets: no rows */
	in.deadline_s = 3600;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_OK && n == 0 && st.feasible == 0,
		  "impossible deadline: %d rows", n);
	in.deadline_s = 30 * 86400.0;

	/* cancel: the interrupt callback stops the search */
	in.interrupt = count_interrupt;
	interrupt_after = 3;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_OK && st.canceled && n == 0, "canceled search returns nothing");
	in.interrupt = NULL;

	/* a model that fits nowhere never reaches an evaluation: cancel reaches its fit checks too */
	{
		double		hbm0 = skus[0].hbm_bytes,
					hbm1 = skus[1].hbm_bytes;

		skus[0].hbm_bytes = skus[1].hbm_bytes = 1e6;
		in.interrupt = count_interrupt;
		interrupt_after = 3;
		CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_OK && st.canceled && st.evals == 0 &&
			  st.fit_calls > 0 && st.fit_calls <= 3 * 1024,
			  "a model that fits nowhere is canceled after %ld fit checks", st.fit_calls);
		in.interrupt = NULL;
		skus[0].hbm_bytes = hbm0;
		skus[1].hbm_bytes = hbm1;
	}

	/*
	 * The bounded heap keeps exactly the first cap rows of the full order: 600
	 * offers over both SKUs (prices repeating, so many plans tie on cost and
	 * go by wall time, GPUs, then offer), every cap against the uncapped list.
	 */
	{
		enum
		{
			N_OFF = 600, ALL = 200000
		};
		le_offer   *many = calloc(N_OFF, sizeof(le_offer));
		le_plan_row *all = malloc(sizeof(le_plan_row) * ALL);
		le_plan_row *some = malloc(sizeof(le_plan_row) * ALL);
		int			n_all = 0,
					n_some = 0,
					caps[] = {0, 1, 2, 7, 50, 1000, 5000},
					diff = 0;
		le_search_in in2;

		for (int i = 0; i < N_OFF; i++)
		{
			many[i].sku = (i * 7) % 2;
			many[i].usd_per_gpu_hour = 1.0 + (i % 13) * 0.25;
			many[i].gpus_per_instance = i % 5 == 0 ? 0 : 8;
			many[i].single_instance = 0;
		}
		in2 = search_in(skus, 2, many, N_OFF);
		in2.deadline_s = 1e9;	/* every plan that fits */
		CHECK(le_cheapest_plans(&in2, all, ALL, &n_all, &st, &e) == LE_OK && n_all == st.feasible && n_all > 5000,
			  "uncapped: %d rows of %ld", n_all, st.feasible);
		for (int i = 1; i < n_all; i++)
			if (all[i].cost_usd < all[i - 1].cost_usd ||
				(all[i].cost_usd == all[i - 1].cost_usd && all[i].wall_s == all[i - 1].wall_s &&
				 all[i].n_gpus == all[i - 1].n_gpus && all[i].offer <= all[i - 1].offer))
				diff++;
		CHECK(diff == 0, "uncapped rows in order, ties by offer: %d out of order", diff);
		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
		{
			diff = 0;
			CHECK(le_cheapest_plans(&in2, some, caps[c], &n_some, &st, &e) == LE_OK && st.feasible == n_all &&
				  n_some == (caps[c] < n_all ? caps[c] : n_all), "cap %d: %d rows", caps[c], n_some);
			for (int i = 0; i < n_some; i++)
				if (memcmp(&some[i], &all[i], sizeof(le_plan_row)) != 0)
					diff++;
			CHECK(diff == 0, "cap %d: the first %d rows of the full order, %d differ", caps[c], n_some, diff);
		}
		/* the pricing loop over offers reaches the interrupt callback */
		in2.interrupt = count_interrupt;
		interrupt_after = 1000000;
		interrupt_calls = 0;
		CHECK(le_cheapest_plans(&in2, some, 10, &n_some, &st, &e) == LE_OK && !st.canceled &&
			  interrupt_calls > st.feasible / 4096, "%d interrupt polls for %ld priced plans", interrupt_calls, st.feasible);
		free(many);
		free(all);
		free(some);
	}

	/* bounded work */
	in.max_evals = 10;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_OK && st.truncated && st.evals == 10, "evaluations bounded");
	in.max_evals = 0;

	/* bad input names the field */
	in.max_gpus = 0;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_ERR_VALUE && strstr(e.message, "max_gpus") != NULL,
		  "max_gpus checked: %s", e.message);
	in.max_gpus = 16384;
	offers[0].sku = 5;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_ERR_VALUE && strstr(e.message, "sku") != NULL,
		  "offer sku checked: %s", e.message);
	offers[0].sku = 0;
	in.model.seq_len = 0;
	CHECK(le_cheapest_plans(&in, rows, 50, &n, &st, &e) == LE_ERR_VALUE && strstr(e.message, "seq_len") != NULL,
		  "model shape checked: %s", e.message);
}

/*
 * DeepSeek-V3 as it trained (arXiv 2412.19437 §3.2: 2048 H800, PP16, EP64,
 * no TP; 61 layers, d_model 7168, 128 heads, 256 experts of 2048 (SwiGLU),
 * top 8, vocabulary 129,280, 4096 tokens; batch 15,360 sequences at the end
 * of its ramp, §4.2).  With latent attention the step model's hardware FLOPs
 * per token are, by hand (test_core.c's test_mla has the per-layer figures):
 * 3·61·[2·(187,105,280 + 8·3·7168·2048) + 0.5·335,544,320] + 6·7168·129,280
 * (causal FlashAttention executes half the scores); the attention core's
 * FLOPs are 2.857 times those of plain attention with 56-wide heads.
 */
static void
test_step_mla(void)
{
	le_step_in	in;
	le_step_out plain,
				mla;
	le_error	e;
	double		per_tok;

	memset(&in, 0, sizeof(in));
	in.n_params = 671e9;
	in.n_active_params = 37e9;
	in.n_layers = 61;
	in.d_model = 7168;
	in.n_heads = 128;
	in.ffn_hidden = 2048;
	in.swiglu = 1;
	in.vocab_size = 129280;
	in.n_experts = 256;
	in.top_k = 8;
	in.seq_len = 4096;
	in.global_batch = 15360;
	in.micro_batch = 1;
	in.peak_flops = 989e12;
	in.hbm_bw = 3.35e12;
	in.nvlink_bw = 200e9;
	in.net_bw = 50e9;
	in.gpus_per_node = 8;
	in.gen = LE_GEN_HOPPER;
	in.n_gpus = 2048;
	in.pp = 16;
	in.ep = 64;
	in.zero_stage = 1;
	in.flash = 1;
	in.dp_overlap = 1;
	CHECK(le_step_time(&in, &plain, &e) == LE_OK, "plain ok: %s", e.message);
	in.q_lora_rank = 1536;
	in.kv_lora_rank = 512;
	in.qk_nope_head_dim = 128;
	in.qk_rope_head_dim = 64;
	in.v_head_dim = 128;
	CHECK(le_step_time(&in, &mla, &e) == LE_OK, "mla ok: %s", e.message);
	per_tok = 3.0 * 61 * (2.0 * (187105280.0 + 8.0 * 3 * 7168 * 2048) + 0.5 * 335544320.0) + 6.0 * 7168 * 129280;
	NEAR(mla.hw_flops / mla.tokens, per_tok, 1e-12, "hardware FLOPs per token with latent attention");
	CHECK(mla.phase[LE_PH_COMPUTE] > plain.phase[LE_PH_COMPUTE], "latent attention's core costs more: %g vs %g s",
		  mla.phase[LE_PH_COMPUTE], plain.phase[LE_PH_COMPUTE]);
	printf("DeepSeek-V3 step: plain %.3f s (MFU %.3f), latent %.3f s (MFU %.3f)\n",
		   plain.phase[LE_PH_TOTAL], plain.mfu, mla.phase[LE_PH_TOTAL], mla.mfu);
	in.qk_rope_head_dim = 0;
	CHECK(le_step_check(&in, &e) == LE_ERR_VALUE && strstr(e.message, "qk_rope_head_dim"), "rope head dim checked: %s", e.message);
	in.qk_rope_head_dim = 64;
	in.kv_lora_rank = 0;
	CHECK(le_step_check(&in, &e) == LE_ERR_VALUE && strstr(e.message, "q_lora_rank"), "q_lora_rank alone: %s", e.message);
}

/* Entry point, called from test_core.c's main. */
void
test_step(void)
{
	test_kernel_rates();
	test_memory_bound_ops();
	test_torch_op_sac();
	test_fp8_as_trained();
	test_gemm_curve();
	test_gemm_measured();
	test_step_phases();
	test_scale_losses();
	test_step_errors();
	test_step_mla();
	test_search();
	test_validation_rows();
}
