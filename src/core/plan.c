/* plan.c: enumerates the valid (tp, pp, dp, zero_stage, recompute) layouts of a run's GPUs and ranks them, best first. */
#include "econ.h"
#include "guard.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fields the search reads: everything but the layout it chooses itself. */
#define LE_NEED_PLAN ((LE_NEED_MEMORY | LE_NEED_COMM | LE_NEED_TIME) & \
					  ~(LE_BIT(LE_F_TP) | LE_BIT(LE_F_PP) | LE_BIT(LE_F_ZERO_STAGE) | LE_BIT(LE_F_RECOMPUTE)))

/*
 * Compute-time overhead of recomputation, as a share of a step's FLOPs.
 * A layer's forward+backward is 72·b·s·h²·(1 + s/6h) FLOPs; selective
 * recomputation redoes the attention core (4·b·s²·h), full recomputation a
 * whole forward pass, a third (Korthikanti et al. 2022, §5 and Appendix A).
 */
static double
recompute_overhead(const le_spec *s, int rc)
{
	double		ratio;

	if (rc == LE_RC_FULL)
		return 1.0 / 3.0;
	if (rc == LE_RC_NONE)
		return 0;
	ratio = s->num[LE_F_SEQ_LEN] / s->num[LE_F_D_MODEL];
	return ratio / (18.0 * (1.0 + ratio / 6.0));
}

/*
 * Estimated step time: compute at the spec's MFU, slowed by recomputation
 * and the 1F1B pipeline bubble (pp-1)/m (Narayanan et al. 2021, §2.2.1),
 * plus communication with no overlap.  NaN unless global_batch, seq_len and
 * d_model are known.
 */
static double
step_seconds(const le_spec *c, double comm_seconds)
{
	le_fieldset need = LE_BIT(LE_F_GLOBAL_BATCH) | LE_BIT(LE_F_SEQ_LEN) | LE_BIT(LE_F_D_MODEL);
	double		tokens,
				compute,
				m;

	if ((c->present & need) != need)
		return NAN;
	tokens = c->num[LE_F_GLOBAL_BATCH] * c->num[LE_F_SEQ_LEN];
	compute = 6.0 * le_active_params(c) * tokens /
		(c->num[LE_F_N_GPUS] * c->num[LE_F_PEAK_FLOPS] * c->num[LE_F_MFU]);
	m = le_micro_batches(c);
	return compute * (1.0 + recompute_overhead(c, (int) c->num[LE_F_RECOMPUTE])) *
		(1.0 + (c->num[LE_F_PP] - 1.0) / m) + comm_seconds;
}

/* Divisors of v in ascending order into out (at most cap); returns how many. */
static int
divisors(long v, long *out, int cap)
{
	int			n = 0,
				hi = cap;

	for (long d = 1; d * d <= v; d++)
	{
		if (v % d)
			continue;
		if (n < hi)
			out[n++] = d;
		if (d != v / d && hi > n)
			out[--hi] = v / d;
	}
	/* the large divisors were filled from the end downwards: move them up */
	memmove(out + n, out + hi, (cap - hi) * sizeof(long));
	return n + (cap - hi);
}

static void
set_layout(le_spec *c, int tp, int pp, int zero, int rc)
{
	const char *label = le_enum_label(LE_E_RECOMPUTE, rc);

	le_spec_set_num(c, LE_F_TP, tp);
	le_spec_set_num(c, LE_F_PP, pp);
	le_spec_set_num(c, LE_F_ZERO_STAGE, zero);
	le_spec_set_text(c, LE_F_RECOMPUTE, label, strlen(label));
}

/*
 * Every layout of the spec's GPUs that the frameworks accept: tp divides
 * gpus_per_node (tensor parallelism stays inside the NVLink domain) and
 * n_heads; pp is at most n_layers (uneven stages allowed); dp =
 * n_gpus/(tp·pp·cp) divides the batch and is a multiple of ep (cp, ep, vpp
 * and the other 0.3.0 fields are the spec's own);
 * ZeRO stages 1-3 only with dp > 1, with or without pipeline parallelism
 * (one policy with cheapest_plan, comm_breakdown and step_breakdown: ZeRO-2/3
 * with pp > 1 is offered as FSDP runs it under a pipeline schedule, Llama 3
 * report §3.3.2, gradients reduced once per step; docs/model.md);
 * every recompute choice when the shape is known.  Fills buf up to cap and counts all in *n.
 */
le_status
le_plan_parallelism(const le_spec *s, le_plan *buf, long cap, long *n, le_error *err)
{
	long		pps[1600];
	long		g;
	int			gpn,
				rc_max;

	*n = 0;
	if (le_check_fields(s, LE_NEED_PLAN, err) != LE_OK)
		return err->status;
	g = (long) s->num[LE_F_N_GPUS];
	gpn = (int) s->num[LE_F_GPUS_PER_NODE];
	/* without a shape, recomputation changes nothing we can compute: list "none" only */
	rc_max = le_shape_known(s) ? LE_RC_FULL : LE_RC_NONE;

	for (int tp = 1; tp <= gpn; tp++)
	{
		int			npp;

		if ((tp & 1023) == 0)
			le_check_interrupts();	/* gpus_per_node may be 65,536 */
		if (gpn % tp != 0 || g % tp != 0)
			continue;
		npp = divisors(g / tp, pps, (int) (sizeof(pps) / sizeof(pps[0])));
		for (int i = 0; i < npp; i++)
		{
			int			pp = (int) pps[i];
			double		cp = le_num_or(s, LE_F_CP, 1);
			long		dp = (long) (g / tp / pp / cp);	/* 0 when tp·pp·cp > g: skipped by the relation check */

			le_check_interrupts();	/* up to 1,600 pipeline degrees, each up to 8 layouts priced by the memory model */

			for (int zero = 0; zero <= 3; zero++)
			{
				if (zero > 0 && dp <= 1)
					continue;
				for (int rc = LE_RC_NONE; rc <= rc_max; rc++)
				{
					le_spec		c = *s;
					le_memory	mem;
					le_plan		p;
					double		comm_bytes;
					le_error	ignore;

					set_layout(&c, tp, pp, zero, rc);
					if (le_check_relations(&c, &ignore) != LE_OK)
						continue;	/* heads, layers, cp, ep or batch do not fit */
					if (le_memory_per_gpu(&c, &mem, err) != LE_OK ||
						le_comm_total(&c, &comm_bytes, &p.comm_seconds, err) != LE_OK)
						return err->status;
					p.tp = tp;
					p.pp = pp;
					p.dp = (int) le_dp(&c);	/* with the spec's cp */
					p.zero_stage = zero;
					p.recompute = rc;
					p.total_bytes = mem.total;
					p.fits = le_fits(&mem);
					p.states_bytes = mem.weights + mem.grads + mem.optimizer + mem.overhead;
					p.step_seconds = step_seconds(&c, p.comm_seconds);
					if (*n < cap)
						buf[*n] = p;
					if (++*n > LE_PLAN_MAX)
						return le_set_error(err, LE_ERR_VALUE, "Use fewer GPUs per node or an n_gpus with fewer divisors.",
											"plan_parallelism would list more than %d layouts", LE_PLAN_MAX);
				}
			}
		}
	}
	return LE_OK;
}

/* Order: known beats unknown, then smaller. */
static int
cmp_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/*
 * Best first: plans that fit, then those that may (activations unknown),
 * then those that do not (closest first).  Among them, the shortest
 * estimated step, else the least communication, the lightest recomputation,
 * the least memory; ties by tp, pp, zero_stage.
 */
static int
plan_cmp(const void *x, const void *y)
{
	const le_plan *a = x,
			   *b = y;
	static const int rank[] = {[LE_TRUE] = 0,[LE_UNKNOWN] = 1,[LE_FALSE] = 2};
	int			c;

	if (rank[a->fits] != rank[b->fits])
		return rank[a->fits] - rank[b->fits];
	if (a->fits == LE_FALSE && (c = cmp_num(a->states_bytes, b->states_bytes)) != 0)
		return c;
	if ((c = cmp_num(a->step_seconds, b->step_seconds)) != 0 ||
		(c = cmp_num(a->comm_seconds, b->comm_seconds)) != 0)
		return c;
	if (a->recompute != b->recompute)
		return a->recompute - b->recompute;
	if ((c = cmp_num(a->total_bytes, b->total_bytes)) != 0 ||
		(c = cmp_num(a->states_bytes, b->states_bytes)) != 0)
		return c;
	if (a->tp != b->tp)
		return a->tp - b->tp;
	if (a->pp != b->pp)
		return a->pp - b->pp;
	return a->zero_stage - b->zero_stage;
}

void
le_plan_sort(le_plan *plans, long n)
{
	qsort(plans, (size_t) n, sizeof(le_plan), plan_cmp);
}
