/* search.c: the cheapest plan that meets a deadline: SKUs x GPU counts x layouts that fit, priced by offer, cheapest first. */
#include "step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The search.  For each SKU, every layout (tp within the NVLink domain, pp,
 * cp, ep, ZeRO stage, recompute) and every data-parallel degree dp that
 * divides the global batch gives a GPU count n = tp·pp·cp·dp; counts that are
 * not whole nodes (or a divisor of one node) or exceed max_gpus are skipped.
 * The layouts that fit in HBM are timed by the step model, and the fastest
 * per (SKU, n) is kept: for one SKU and n the price per GPU-hour is a
 * constant, so the fastest layout is also the cheapest.  Then every offer of
 * the SKU prices the kept plans whose wall time meets the deadline.
 *
 * Pruning: memory per GPU depends on the layout and, through ZeRO sharding,
 * on dp, never on the SKU's price; a fit answer is asked once per (SKU,
 * layout) when ZeRO is off (dp does not change the per-GPU load), and, with
 * ZeRO on, dp rises until the layout first fits, after which larger dp (less
 * per GPU) is taken as fitting without asking again.  So a layout that does
 * not fit at n GPUs is never re-tried at the same per-GPU load.
 */

/* Memory for the search's work arrays comes from the caller (palloc in the server). */
static void *
xalloc(const le_search_in *in, size_t n)
{
	return in->alloc(in->alloc_ctx, NULL, n);
}

static void
xfree(const le_search_in *in, void *p)
{
	if (p)
		in->alloc(in->alloc_ctx, p, 0);
}

/* Candidate ordering: cost, then wall time, then fewer GPUs, then offer index (deterministic). */
static int
row_cmp(const void *pa, const void *pb)
{
	const le_plan_row *a = pa,
			   *b = pb;

	if (a->cost_usd != b->cost_usd)
		return a->cost_usd < b->cost_usd ? -1 : 1;
	if (a->wall_s != b->wall_s)
		return a->wall_s < b->wall_s ? -1 : 1;
	if (a->n_gpus != b->n_gpus)
		return a->n_gpus < b->n_gpus ? -1 : 1;
	if (a->offer != b->offer)
		return a->offer < b->offer ? -1 : 1;
	return 0;
}

/*
 * The cap cheapest candidates are kept in a max-heap on row_cmp (its root is
 * the dearest kept), in the caller's output array: a candidate enters while
 * the heap has room, or in place of the root when it sorts before it.  row_cmp
 * is a total order on candidates (one per offer and GPU count), so the kept
 * rows, sorted at the end, are exactly the first cap rows of all candidates
 * sorted (a bounded heap selection: Knuth, TAOCP vol. 3, 5.2.3 and 5.3.3).
 */
static void
row_swap(le_plan_row *a, le_plan_row *b)
{
	le_plan_row t = *a;

	*a = *b;
	*b = t;
}

static void
heap_push(le_plan_row *h, int *n, int cap, const le_plan_row *r)
{
	int			i;

	if (*n < cap)
	{
		i = (*n)++;
		h[i] = *r;
		while (i > 0 && row_cmp(&h[i], &h[(i - 1) / 2]) > 0)
		{
			row_swap(&h[i], &h[(i - 1) / 2]);
			i = (i - 1) / 2;
		}
		return;
	}
	if (cap == 0 || row_cmp(r, &h[0]) >= 0)
		return;					/* no dearer than the dearest kept: not among the cap cheapest */
	h[0] = *r;
	for (i = 0;;)
	{
		int			l = 2 * i + 1,
					m = i;

		if (l < *n && row_cmp(&h[l], &h[m]) > 0)
			m = l;
		if (l + 1 < *n && row_cmp(&h[l + 1], &h[m]) > 0)
			m = l + 1;
		if (m == i)
			break;
		row_swap(&h[i], &h[m]);
		i = m;
	}
}

/* Ask the interrupt callback every 4096 units of work; nonzero: canceled. */
static int
poll_interrupt(const le_search_in *in, long *work, long units, le_search_stats *stats)
{
	*work += units;
	if (*work < 4096)
		return 0;
	*work = 0;
	if (in->interrupt && in->interrupt(in->interrupt_ctx))
		stats->canceled = 1;
	return stats->canceled;
}

/*
 * How a run of n_gpus GPUs rents machines of gpus_per_instance GPUs (0 = size unknown) of a
 * SKU whose NVLink domain is gpus_per_node GPUs: whole instances, idle GPUs paid, and a run
 * beyond one instance only on node-sized instances (a smaller machine has no NVLink to the
 * next).  The one rule of cheapest_plan (below), cheapest_offers, estimate_cost(spec,
 * provider, ...) and run_plan's frozen price (SQL llm_econ._billed_gpus).  Returns the GPUs
 * billed, ceil(n / g) * g (n for an unknown size), or 0 when such machines cannot carry the
 * run (also for n_gpus < 1 or a negative size).
 */
int
le_billed_gpus(int n_gpus, int gpus_per_instance, int gpus_per_node)
{
	long		instances;

	if (n_gpus < 1 || gpus_per_instance < 0)
		return 0;
	if (gpus_per_instance == 0)
		return n_gpus;
	if (n_gpus > gpus_per_instance && gpus_per_instance < gpus_per_node)
		return 0;
	instances = ((long) n_gpus + gpus_per_instance - 1) / gpus_per_instance;
	if (instances * gpus_per_instance > 2147483647L)
		return 0;
	return (int) (instances * gpus_per_instance);
}

/* Slot of a GPU count in the per-SKU table: counts below a node by value, whole nodes after. */
static long
slot_of(int n, int node)
{
	return n < node ? n : (long) node + n / node;
}

/* The step input of a plan: the model, its SKU's hardware, its layout. */
void
le_plan_step_in(const le_search_in *in, const le_plan_row *row, le_step_in *out)
{
	const le_sku_hw *hw = &in->skus[row->sku];

	*out = in->model;
	out->peak_flops = hw->peak_flops;
	out->hbm_bw = hw->hbm_bw;
	out->nvlink_bw = hw->nvlink_bw;
	out->net_bw = hw->net_bw;
	out->gpus_per_node = hw->gpus_per_node;
	out->gen = hw->gen;
	out->n_gpus = row->n_gpus;
	out->tp = row->tp;
	out->pp = row->pp;
	out->cp = row->cp;
	out->ep = row->ep;
	out->vpp = row->vpp;
	out->zero_stage = row->zero_stage;
	out->recompute = row->recompute;
	out->micro_batch = row->micro_batch;
}

/* Validates the search's own inputs (the model through le_step_check at a trivial layout); a cancel sets stats->canceled. */
static le_status
check_search(const le_search_in *in, le_search_stats *stats, le_error *err)
{
	le_step_in	probe = in->model;

	if (in->alloc == NULL || in->fits == NULL)
		return le_set_error(err, LE_ERR_VALUE, NULL, "the search needs an allocator and a fits callback");
	if (le_check_range("n_tokens", in->n_tokens, 0, 1, 1e18, 0, err) != LE_OK ||
		le_check_range("deadline", in->deadline_s, 0, 1, 1e10, 0, err) != LE_OK ||
		le_check_range("max_gpus", in->max_gpus, 1, 0, LE_SEARCH_MAX_GPUS, 0, err) != LE_OK ||
		le_check_range("n_skus", in->n_skus, 0, 0, 100000, 0, err) != LE_OK ||
		le_check_range("n_offers", in->n_offers, 0, 0, 10000000, 0, err) != LE_OK ||
		le_check_range("max_evals", (double) in->max_evals, 0, 0, 1e12, 0, err) != LE_OK)
		return err->status;
	if ((in->n_skus > 0 && in->skus == NULL) || (in->n_offers > 0 && in->offers == NULL))
		return le_set_error(err, LE_ERR_VALUE, NULL, "skus and offers must not be NULL");
	for (int k = 0; k < in->n_skus; k++)
	{
		const le_sku_hw *hw = &in->skus[k];

		if (le_check_range("sku peak_flops", hw->peak_flops, 0, 1, 1e18, 0, err) != LE_OK ||
			le_check_range("sku hbm_bytes", hw->hbm_bytes, 0, 1, 1e15, 0, err) != LE_OK ||
			le_check_range("sku hbm_bw", hw->hbm_bw, 0, 1, 1e15, 0, err) != LE_OK ||
			le_check_range("sku nvlink_bw", hw->nvlink_bw, 0, 1, 1e15, 0, err) != LE_OK ||
			le_check_range("sku net_bw", hw->net_bw, 0, 1, 1e15, 0, err) != LE_OK ||
			le_check_range("sku gpus_per_node", hw->gpus_per_node, 1, 0, 65536, 0, err) != LE_OK)
			return err->status;
		if (hw->gen < 0 || hw->gen >= LE_GEN__COUNT)
			return le_set_error(err, LE_ERR_VALUE, NULL, "sku generation must be in [0, %d], got %d",
								LE_GEN__COUNT - 1, (int) hw->gen);
	}
	for (int o = 0; o < in->n_offers; o++)
	{
		const le_offer *of = &in->offers[o];

		if ((o & 65535) == 65535 && in->interrupt && in->interrupt(in->interrupt_ctx))
		{
			stats->canceled = 1;
			return LE_OK;
		}
		if (of->sku < 0 || of->sku >= in->n_skus)
			return le_set_error(err, LE_ERR_VALUE, NULL, "offer %d: sku must be in [0, %d], got %d",
								o, in->n_skus - 1, of->sku);
		if (le_check_range("offer usd_per_gpu_hour", of->usd_per_gpu_hour, 0, 1, 1e6, 0, err) != LE_OK ||
			le_check_range("offer gpus_per_instance", of->gpus_per_instance, 0, 0, 65536, 0, err) != LE_OK ||
			le_check_range("offer mfu_factor", of->mfu_factor, 0, 0, 100, 0, err) != LE_OK)
			return err->status;
	}
	/* the model: checked as a one-GPU layout on nominal hardware */
	probe.peak_flops = probe.hbm_bw = probe.nvlink_bw = probe.net_bw = 1e12;
	probe.gpus_per_node = 1;
	probe.gen = LE_GEN_OTHER;
	probe.n_gpus = 1;
	probe.tp = probe.pp = probe.cp = probe.ep = probe.vpp = 1;
	probe.zero_stage = 0;
	probe.recompute = LE_RC_NONE;
	probe.micro_batch = 1;
	if (le_step_check(&probe, err) != LE_OK)
		return err->status;
	if (in->model.global_batch != floor(in->model.global_batch) || in->model.global_batch > 1e7)
		return le_set_error(err, LE_ERR_VALUE, NULL, "global_batch must be a whole number in [1, 10000000], got %g",
							in->model.global_batch);
	return LE_OK;
}

/* Candidate degrees. */
#define MAX_DEG 64

static int
powers_of_two(int limit, int must_divide, int *out)
{
	int			n = 0;

	for (int v = 1; v <= limit && n < MAX_DEG; v *= 2)
		if (must_divide % v == 0)
			out[n++] = v;
	return n;
}

/*
 * Pipeline degrees: every 1..min(L, MAX_PP) (uneven stages allowed), so that
 * every whole-node GPU count tp·pp·cp·dp is reached: with dp dividing a
 * batch of powers of two, an odd factor of the node count (96 GPUs = 12
 * nodes = 3 · 4) can only come from pp.  Until 0.4.0 only divisors of L and
 * powers of two were tried, which skipped such counts even when cheaper.
 */
#define MAX_PP 256

static int
pp_degrees(int L, int *out)
{
	int			n = 0;

	for (int v = 1; v <= L && v <= MAX_PP; v++)
		out[n++] = v;
	return n;
}

le_status
le_cheapest_plans(const le_search_in *in, le_plan_row *out, int cap, int *n_out,
				  le_search_stats *stats, le_error *err)
{
	long		max_evals = in->max_evals > 0 ? in->max_evals : LE_SEARCH_MAX_EVALS;
	long	   *dps = NULL;
	int			n_dp = 0;
	long		gbatch;
	int		   *slot_ix = NULL;	/* per GPU-count slot of the current SKU: its row in best, or -1 */
	le_plan_row *best = NULL;	/* the fastest plan of each filled slot, in the order filled */
	int			n_best = 0,
				best_cap = 0;
	int		   *by_sku = NULL;	/* offer indexes grouped by SKU, in offer order within one */
	int		   *sku_start = NULL;	/* the offers of SKU k: by_sku[sku_start[k] .. sku_start[k + 1]) */
	long		n_cand = 0;
	long		work = 0;
	int			n_kept = 0;
	long		slots_per_sku = 0;
	le_status	st = LE_OK;

	memset(stats, 0, sizeof(*stats));
	*n_out = 0;
	err->status = LE_OK;
	if (check_search(in, stats, err) != LE_OK || stats->canceled)
		return err->status;
	if (cap < 0)
		return le_set_error(err, LE_ERR_VALUE, NULL, "cap must be >= 0, got %d", cap);

	/* dp candidates: divisors of the global batch (micro-batch 1), ascending */
	gbatch = (long) in->model.global_batch;
	dps = xalloc(in, sizeof(long) * 4096);
	sku_start = xalloc(in, sizeof(int) * ((size_t) in->n_skus + 1));
	by_sku = xalloc(in, sizeof(int) * ((size_t) in->n_offers + 1));
	if (!dps || !sku_start || !by_sku)
	{
		st = le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
		goto done;
	}
	for (long d = 1; d <= gbatch && d <= in->max_gpus && n_dp < 4096; d++)
	{
		if (gbatch % d == 0)
			dps[n_dp++] = d;
		if (poll_interrupt(in, &work, 1, stats))
			goto done;
	}

	/* the offers of each SKU, in offer order (a counting sort: count, then place) */
	memset(sku_start, 0, sizeof(int) * ((size_t) in->n_skus + 1));
	for (int o = 0; o < in->n_offers; o++)
		sku_start[in->offers[o].sku + 1]++;
	for (int k = 0; k < in->n_skus; k++)
		sku_start[k + 1] += sku_start[k];
	for (int o = 0; o < in->n_offers; o++)
	{
		by_sku[sku_start[in->offers[o].sku]++] = o;
		if (poll_interrupt(in, &work, 1, stats))
			goto done;
	}
	/* placing moved each SKU's start to the next one's: shift back */
	for (int k = in->n_skus; k > 0; k--)
		sku_start[k] = sku_start[k - 1];
	sku_start[0] = 0;

	for (int k = 0; k < in->n_skus && !stats->canceled && !stats->truncated; k++)
	{
		const le_sku_hw *hw = &in->skus[k];
		int			node = hw->gpus_per_node;
		int			has_offer = 0;
		int			tps[MAX_DEG],
					pps[MAX_PP],
					cps[MAX_DEG],
					eps[MAX_DEG];
		int			n_tp,
					n_pp,
					n_cp,
					n_ep;
		const le_step_in *mdl = &in->model;

		has_offer = sku_start[k + 1] > sku_start[k];
		if (!has_offer)
			continue;

		/* slots: counts below a node by value, whole nodes after (at most 1,114,113 ints) */
		slots_per_sku = (long) node + in->max_gpus / node + 1;
		xfree(in, slot_ix);
		slot_ix = xalloc(in, sizeof(int) * slots_per_sku);
		if (!slot_ix)
		{
			st = le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
			goto done;
		}
		memset(slot_ix, 0xff, sizeof(int) * slots_per_sku);	/* -1: empty */
		n_best = 0;

		n_tp = powers_of_two(node, mdl->n_heads, tps);
		n_pp = pp_degrees(mdl->n_layers, pps);
		/* context parallelism only for long sequences: chunks of at least 4096 tokens */
		n_cp = 0;
		for (int v = 1; v <= 64 && n_cp < MAX_DEG; v *= 2)
			if (mdl->seq_len % v == 0 && (v == 1 || mdl->seq_len / v >= 4096))
				cps[n_cp++] = v;
		if (mdl->n_experts > 0)
			n_ep = powers_of_two(64, mdl->n_experts, eps);
		else
		{
			eps[0] = 1;
			n_ep = 1;
		}

		for (int it = 0; it < n_tp; it++)
			for (int ip = 0; ip < n_pp; ip++)
				for (int ic = 0; ic < n_cp; ic++)
					for (int ie = 0; ie < n_ep; ie++)
						for (int z = 0; z <= 3; z++)
							for (int rc = LE_RC_NONE; rc <= LE_RC_FULL; rc++)
							{
								le_step_in s = *mdl;
								int			known_fit = 0;	/* ZeRO: fits at a smaller dp */
								long		mp = (long) tps[it] * pps[ip] * cps[ic];

								/* with FlashAttention selective recompute stores and does what none does */
								if (rc == LE_RC_SELECTIVE && mdl->flash)
									continue;
								if (mp > in->max_gpus)
									continue;
								s.peak_flops = hw->peak_flops;
								s.hbm_bw = hw->hbm_bw;
								s.nvlink_bw = hw->nvlink_bw;
								s.net_bw = hw->net_bw;
								s.gpus_per_node = node;
								s.gen = hw->gen;
								s.tp = tps[it];
								s.pp = pps[ip];
								s.cp = cps[ic];
								s.ep = eps[ie];
								s.vpp = 1;
								s.zero_stage = z;
								s.recompute = rc;
								s.micro_batch = 1;

								for (int id = 0; id < n_dp; id++)
								{
									long		n = mp * dps[id];
									long		slot;
									le_step_out so;
									int			fit;

									if (n > in->max_gpus)
										break;
									if (n % node != 0 && node % n != 0)
										continue;	/* not whole nodes */
									if (eps[ie] > 1 && dps[id] % eps[ie] != 0)
										continue;
									s.n_gpus = (int) n;

									/* fit in HBM, asked once per per-GPU load */
									if (known_fit)
									{
										fit = 1;
										stats->fit_cache_hits++;
									}
									else
									{
										/* a model that fits nowhere asks this without end: cancel reaches it too */
										if ((stats->fit_calls & 1023) == 0 && in->interrupt &&
											in->interrupt(in->interrupt_ctx))
										{
											stats->canceled = 1;
											goto sku_done;
										}
										fit = in->fits(in->fits_ctx, &s, hw) ? 1 : 0;
										stats->fit_calls++;
										/* ZeRO off: dp does not change the load; on: more dp, less load */
										if (fit)
											known_fit = 1;
									}
									if (!fit)
									{
										if (z == 0)
											break;	/* no dp changes the per-GPU load */
										continue;
									}

									if (stats->evals >= max_evals)
									{
										stats->truncated = 1;
										goto sku_done;
									}
									if ((stats->evals & 255) == 0 && in->interrupt &&
										in->interrupt(in->interrupt_ctx))
									{
										stats->canceled = 1;
										goto sku_done;
									}
									stats->evals++;
									le_step_eval(&s, &so);
									if (!(so.phase[LE_PH_TOTAL] > 0) || !isfinite(so.phase[LE_PH_TOTAL]))
										continue;

									slot = slot_of((int) n, node);
									if (slot_ix[slot] < 0)
									{
										/* a new slot: one more filled row (at most slots_per_sku) */
										if (n_best == best_cap)
										{
											int			ncap = best_cap ? best_cap * 2 : 64;
											le_plan_row *nb = xalloc(in, sizeof(le_plan_row) * ncap);

											if (!nb)
											{
												st = le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
												goto done;
											}
											if (best)
												memcpy(nb, best, sizeof(le_plan_row) * n_best);
											xfree(in, best);
											best = nb;
											best_cap = ncap;
										}
										slot_ix[slot] = n_best++;
										best[slot_ix[slot]].n_gpus = 0;
									}
									if (best[slot_ix[slot]].n_gpus == 0 || so.phase[LE_PH_TOTAL] < best[slot_ix[slot]].step_s)
									{
										le_plan_row *r = &best[slot_ix[slot]];

										r->offer = -1;
										r->sku = k;
										r->n_gpus = (int) n;
										r->tp = s.tp;
										r->pp = s.pp;
										r->cp = s.cp;
										r->ep = s.ep;
										r->dp = so.dp;
										r->vpp = 1;
										r->zero_stage = z;
										r->recompute = rc;
										r->micro_batch = 1;
										r->step_s = so.phase[LE_PH_TOTAL];
										r->mfu = so.mfu;
										r->wall_s = in->n_tokens / so.tokens * r->step_s;
										r->gpu_hours = r->wall_s * n / 3600.0;
									}
								}
							}
sku_done:
		if (stats->canceled)
			break;

		/* price the kept plans with every offer of this SKU: only filled slots, only the cap cheapest kept */
		for (int j = sku_start[k]; j < sku_start[k + 1]; j++)
		{
			int			o = by_sku[j];
			const le_offer *of = &in->offers[o];

			if (poll_interrupt(in, &work, 1 + n_best, stats))
				goto done;
			for (int i = 0; i < n_best; i++)
			{
				const le_plan_row *r = &best[i];
				le_plan_row c;

				/* a calibrated offer runs at factor x the predicted MFU (at most MFU 1): time and GPU-hours / factor */
				double		f = of->mfu_factor > 0 ? fmin(of->mfu_factor, 1.0 / r->mfu) : 1.0;

				if (r->wall_s / f > in->deadline_s)
					continue;
				/*
				 * whole instances (le_billed_gpus); the search chooses the GPU count, so it
				 * keeps the counts that fill their instances (idle GPUs would only add cost)
				 */
				if (le_billed_gpus(r->n_gpus, of->gpus_per_instance, node) != r->n_gpus)
					continue;
				/* an instance of unknown network: single-instance plans only */
				if (of->single_instance &&
					r->n_gpus > (of->gpus_per_instance > 0 ? of->gpus_per_instance : node))
					continue;
				c = *r;
				c.offer = o;
				c.mfu = r->mfu * f;
				c.wall_s = r->wall_s / f;
				c.gpu_hours = r->gpu_hours / f;
				c.cost_usd = c.gpu_hours * of->usd_per_gpu_hour;
				n_cand++;
				heap_push(out, &n_kept, cap, &c);
			}
		}
	}

	stats->feasible = n_cand;
	if (!stats->canceled && n_kept > 0)
	{
		qsort(out, (size_t) n_kept, sizeof(le_plan_row), row_cmp);
		*n_out = n_kept;
	}

done:
	xfree(in, best);
	xfree(in, slot_ix);
	xfree(in, by_sku);
	xfree(in, sku_start);
	xfree(in, dps);
	return st;
}
