/* search_bench.c: times the cheapest-plan search core on 30 SKUs x 100 offers each x up to 16,384 GPUs; prints medians (a benchmark, not a test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/step.h"

#define N_SKUS 30
#define OFFERS_PER_SKU 100
#define RUNS 7

static void *
bench_alloc(void *ctx, void *p, size_t n)
{
	(void) ctx;
	if (n == 0)
	{
		free(p);
		return NULL;
	}
	return realloc(p, n);
}

/*
 * Stand-in memory model (the server plugs in memory.c's): 4 bytes of weights and
 * gradients plus 12 of Adam per parameter over tp·pp (Adam over dp with ZeRO),
 * Korthikanti's 34·s·h/t (2·s·h/t with full recompute) per layer in flight, 2 GB.
 */
static int
bench_fits(void *ctx, const le_step_in *s, const le_sku_hw *hw)
{
	double		dpg = (double) s->n_gpus / (s->tp * s->pp);
	double		states = s->n_params / (s->tp * s->pp) * (4.0 + 12.0 / (s->zero_stage >= 1 ? dpg : 1));
	double		act = s->n_layers * (s->recompute == LE_RC_FULL ? 2.0 : 34.0) * s->seq_len * s->d_model /
		(s->tp * (s->cp ? s->cp : 1));

	(void) ctx;
	return states + act + 2e9 <= hw->hbm_bytes;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

int
main(void)
{
	/* five real parts (datasheet figures), each in six variants of memory, network and node size */
	static const le_sku_hw base[5] = {
		{312e12, 85.9e9, 2.039e12, 300e9, 25e9, 8, LE_GEN_AMPERE},	/* A100 80GB */
		{989e12, 85.5e9, 3.35e12, 450e9, 50e9, 8, LE_GEN_HOPPER},	/* H100 SXM */
		{989e12, 150e9, 4.8e12, 450e9, 50e9, 8, LE_GEN_HOPPER},	/* H200 */
		{2250e12, 180e9, 8.0e12, 900e9, 50e9, 8, LE_GEN_BLACKWELL},	/* B200 */
		{1307e12, 206e9, 5.3e12, 448e9, 50e9, 8, LE_GEN_CDNA3},	/* MI300X */
	};
	le_sku_hw	skus[N_SKUS];
	le_offer   *offers = calloc((size_t) N_SKUS * OFFERS_PER_SKU, sizeof(le_offer));
	le_plan_row rows[100];
	le_search_in in;
	le_search_stats st;
	le_error	e;
	double		times[RUNS];
	int			n = 0;

	for (int k = 0; k < N_SKUS; k++)
	{
		skus[k] = base[k % 5];
		skus[k].net_bw *= 0.5 + 0.25 * (k / 5 % 3);
		skus[k].hbm_bytes *= 1.0 + 0.1 * (k / 15);
		if (k / 5 == 5)
			skus[k].gpus_per_node = 4;
	}
	for (int o = 0; o < N_SKUS * OFFERS_PER_SKU; o++)
	{
		offers[o].sku = o / OFFERS_PER_SKU;
		offers[o].usd_per_gpu_hour = 1.0 + 0.037 * (o % 97);
		offers[o].gpus_per_instance = (o % 10 == 0) ? 1 : skus[o / OFFERS_PER_SKU].gpus_per_node;
	}

	/* the README's worked example: a 70B model (Llama-2/3-70B shape) on 15T tokens in 30 days */
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
	in.n_skus = N_SKUS;
	in.offers = offers;
	in.n_offers = N_SKUS * OFFERS_PER_SKU;
	in.deadline_s = 30 * 86400.0;
	in.max_gpus = 16384;
	in.fits = bench_fits;
	in.alloc = bench_alloc;

	for (int r = 0; r < RUNS; r++)
	{
		double		t0 = now_s();

		if (le_cheapest_plans(&in, rows, 100, &n, &st, &e) != LE_OK)
		{
			fprintf(stderr, "search failed: %s\n", e.message);
			return 1;
		}
		times[r] = now_s() - t0;
	}
	qsort(times, RUNS, sizeof(double), cmp_double);
	printf("cheapest_plan core: %d SKUs x %d offers each, max_gpus %d, 70B x 15T tokens, deadline 30 days\n",
		   N_SKUS, OFFERS_PER_SKU, in.max_gpus);
	printf("  step evaluations %ld, fit calls %ld, fit answers reused %ld, feasible plans %ld\n",
		   st.evals, st.fit_calls, st.fit_cache_hits, st.feasible);
	printf("  median %.3f s over %d runs (min %.3f, max %.3f)\n", times[RUNS / 2], RUNS, times[0], times[RUNS - 1]);
	if (n > 0)
		printf("  cheapest: sku %d offer %d, %d GPUs, tp %d pp %d cp %d dp %d zero %d, MFU %.3f, %.1f days, $%.0f\n",
			   rows[0].sku, rows[0].offer, rows[0].n_gpus, rows[0].tp, rows[0].pp, rows[0].cp, rows[0].dp,
			   rows[0].zero_stage, rows[0].mfu, rows[0].wall_s / 86400, rows[0].cost_usd);
	free(offers);
	return 0;
}
