/* bill.c: the rest of a run's bill (plain C): carbon, the Young/Daly checkpoint plan, and the quantities and wording of cost_breakdown. */
#include "bill.h"
#include "guard.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A result that left the double range is an overflow, never a silent Infinity. */
static le_status
finite_or_overflow(const char *what, double v, le_error *err)
{
	if (isfinite(v))
		return LE_OK;
	return le_set_error(err, LE_ERR_OVERFLOW, "The arguments are each in range, but their combination is not.",
						"%s is out of range", what);
}

/*
 * Carbon = energy × grid intensity: location-based scope-2 emissions, kWh
 * times kg CO2e per kWh (GHG Protocol Scope 2 Guidance, 2015, §6; Patterson
 * et al. 2021, "Carbon Emissions and Large Neural Network Training", §2).
 * The Llama 2 model card counts 400 W per A100 "adjusted for power usage
 * efficiency": 184,320 GPU-h → 31.22 tCO2e, i.e. 0.4235 kg/kWh.
 */
le_status
le_carbon_kg(const le_spec *s, double kg_co2_per_kwh, double pue, double *kg, le_error *err)
{
	double		kwh;

	if (le_check_range("kg_co2_per_kwh", kg_co2_per_kwh, 0, 0, LE_CO2_MAX, 0, err) != LE_OK ||
		le_energy_kwh(s, pue, &kwh, err) != LE_OK)
		return err->status;
	if (isnan(kwh))				/* tdp_watts NULL: energy, so carbon, unknown */
	{
		*kg = NAN;
		return LE_OK;
	}
	*kg = kwh * kg_co2_per_kwh;
	return finite_or_overflow("carbon_kg", *kg, err);
}

/* Nodes of the run: ceil(n_gpus / gpus_per_node), the units that fail independently. */
static double
node_count(const le_spec *s)
{
	return ceil(s->num[LE_F_N_GPUS] / s->num[LE_F_GPUS_PER_NODE]);
}

/*
 * Checkpoint interval, overhead and interruption risk of a run.
 *
 * Cluster MTBF M = node MTBF / nodes: with independent exponential node
 * failures the cluster's failure rate is the sum of the nodes' rates, λ·nodes
 * (a series system of exponential lifetimes; Barlow and Proschan 1975,
 * "Statistical Theory of Reliability and Life Testing").  The node MTBF is
 * the caller's: Meta's Llama 3 report (arXiv 2407.21783, §3.3.4) counts 419
 * unexpected interruptions in 54 days on up to 16,384 H100s.
 *
 * Optimal interval τ = sqrt(2·δ·M), δ the time to write one checkpoint
 * (Young 1974, "A first order approximation to the optimum checkpoint
 * interval", CACM 17(9); Daly 2006, "A higher order estimate of the optimum
 * checkpoint interval for restart dumps", FGCS 22(3), has the same first
 * term).  It assumes δ ≪ M; Daly §4 sets τ = M when δ ≥ 2M, and so do we.
 * Between M/2 and 2M the first-order τ is at least M: an answer, but outside
 * the model's domain (the overhead then nears or exceeds 1).
 *
 * Expected overhead fraction = δ/τ (writing) + τ/(2M) (work redone after a
 * failure: on average half an interval; Young 1974, eq. 1-2); at the optimum
 * it equals sqrt(2δ/M).
 *
 * P(at least one interruption over the run) = 1 − exp(−T/M), T the wall time
 * (failures a Poisson process of rate 1/M, the assumption of Young 1974);
 * T/M is the expected number of interruptions.
 */
le_status
le_checkpoint_plan(const le_spec *s, double write_seconds, double mtbf_node_seconds,
				   le_ckpt_plan *out, le_error *err)
{
	double		delta = write_seconds;
	double		m;

	if (le_check_fields(s, LE_NEED_TIME | LE_BIT(LE_F_GPUS_PER_NODE), err) != LE_OK ||
		le_check_range("checkpoint_write (in seconds)", write_seconds, 0, 1, LE_DURATION_MAX, 0, err) != LE_OK ||
		le_check_range("mtbf_per_node (in seconds)", mtbf_node_seconds, 0, 1, LE_DURATION_MAX, 0, err) != LE_OK ||
		le_train_seconds(s, &out->wall_seconds, err) != LE_OK)
		return err->status;

	out->nodes = node_count(s);
	m = mtbf_node_seconds / out->nodes;
	out->cluster_mtbf_seconds = m;
	out->capped = delta >= 2.0 * m;
	out->interval_seconds = out->capped ? m : sqrt(2.0 * delta * m);
	out->overhead_fraction = delta / out->interval_seconds + out->interval_seconds / (2.0 * m);
	out->expected_interruptions = out->wall_seconds / m;
	if (finite_or_overflow("expected_interruptions", out->expected_interruptions, err) != LE_OK ||
		finite_or_overflow("overhead_fraction", out->overhead_fraction, err) != LE_OK)
		return err->status;
	out->p_interrupted = -expm1(-out->expected_interruptions);
	return LE_OK;
}

/* Component names, indexed by le_bill_component. */
static const char *const component_names[LE_BILL__COUNT] = {
	[LE_BILL_COMPUTE] = "compute",
	[LE_BILL_CHECKPOINT] = "checkpoint",
	[LE_BILL_STORAGE] = "storage",
	[LE_BILL_EGRESS] = "egress",
	[LE_BILL_ENERGY] = "energy",
	[LE_BILL_SPOT_BUFFER] = "spot_buffer",
	[LE_BILL_TOTAL] = "total",
};

/* The name of a component, as cost_breakdown's component column shows it. */
const char *
le_bill_component_name(le_bill_component c)
{
	return (c >= 0 && c < LE_BILL__COUNT) ? component_names[c] : "?";
}

/*
 * Bytes per parameter of a full checkpoint: the weights plus the optimizer
 * state (gradients are not saved).  Mixed precision AdamW: bf16 weights 2 +
 * fp32 master, m and v 12 = 14, so 7B → 98 GB (K = 12 as in Rajbhandari et
 * al. 2019, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
 * Models", §3.1: mixed-precision Adam keeps fp32 parameters, momentum and
 * variance).  The other optimizers and fp32 compute use the
 * per-parameter bytes of memory.c: 8-bit Adam 2 + 6, SGD with momentum 2 + 8;
 * fp32 AdamW 4 + 8, 8-bit Adam 4 + 2, SGD 4 + 4.  Requires dtype and
 * optimizer to have been checked.
 */
double
le_checkpoint_bytes_per_param(const le_spec *s)
{
	static const double bytes[2][3] = {
		{2 + 12, 2 + 6, 2 + 8},	/* mixed precision: adamw, adamw_8bit, sgd */
		{4 + 8, 4 + 2, 4 + 4},	/* fp32 / tf32 */
	};
	int			opt = (int) s->num[LE_F_OPTIMIZER];

	return bytes[le_is_fp32(s) ? 1 : 0][opt];
}

/* A non-negative finite quantity argument: [0, Infinity). */
static le_status
check_nonneg(const char *name, double v, le_error *err)
{
	return le_check_range(name, v, 0, 0, INFINITY, 1, err);
}

/*
 * Check cost_breakdown's non-money arguments and compute the quantities its
 * rows multiply by prices: GPU-hours (compute), the share of compute spent
 * writing checkpoints (write / every: the run stops for δ every interval),
 * GB stored (checkpoints kept × GB each + the tokenized data set) and, for an
 * owned cluster, kWh (energy_kwh at the given PUE; in the cloud it is in the
 * GPU-hour price).  Derived sizes: a checkpoint is
 * le_checkpoint_bytes_per_param × N; the data set is 4 bytes per token
 * (32-bit token ids, needed once the vocabulary passes 65,536 entries: the
 * Megatron-LM indexed dataset, megatron/core/datasets/indexed_dataset.py,
 * stores uint16 ids for vocabularies under 65,500 entries and int32 ids
 * otherwise).
 */
le_status
le_bill_quantities(const le_spec *s, const le_bill_args *a, le_bill *b, le_error *err)
{
	memset(b, 0, sizeof(*b));
	if (le_train_seconds(s, &b->wall_seconds, err) != LE_OK ||
		le_gpu_hours(s, &b->gpu_hours, err) != LE_OK ||
		le_check_range("checkpoint_every (in seconds)", a->checkpoint_every_seconds, 0, 1, LE_DURATION_MAX, 0, err) != LE_OK ||
		le_check_range("checkpoint_write (in seconds)", a->checkpoint_write_seconds, 0, 1, LE_DURATION_MAX, 0, err) != LE_OK)
		return err->status;
	if (a->checkpoint_write_seconds >= a->checkpoint_every_seconds)
		return le_set_error(err, LE_ERR_VALUE, "The run stops for checkpoint_write every checkpoint_every.",
							"checkpoint_write must be shorter than checkpoint_every, got %.15g s and %.15g s",
							a->checkpoint_write_seconds, a->checkpoint_every_seconds);
	if (le_check_range("checkpoints_kept", a->checkpoints_kept, 0, 0, 2147483647.0, 0, err) != LE_OK ||
		(a->checkpoint_gb_given && check_nonneg("checkpoint_gb", a->checkpoint_gb, err) != LE_OK) ||
		(a->dataset_gb_given && check_nonneg("dataset_gb", a->dataset_gb, err) != LE_OK) ||
		check_nonneg("storage_months", a->storage_months, err) != LE_OK ||
		check_nonneg("egress_gb", a->egress_gb, err) != LE_OK ||
		le_check_range("pue", a->pue, LE_PUE_MIN, 0, LE_PUE_MAX, 0, err) != LE_OK)
		return err->status;

	b->checkpoint_fraction = a->checkpoint_write_seconds / a->checkpoint_every_seconds;

	b->checkpoint_gb_derived = !a->checkpoint_gb_given;
	if (a->checkpoint_gb_given)
		b->checkpoint_gb = a->checkpoint_gb;
	else
	{
		if (le_check_fields(s, LE_BIT(LE_F_DTYPE) | LE_BIT(LE_F_OPTIMIZER), err) != LE_OK)
			return err->status;
		b->checkpoint_bytes_per_param = le_checkpoint_bytes_per_param(s);
		b->checkpoint_gb = b->checkpoint_bytes_per_param * s->num[LE_F_N_PARAMS] / 1e9;
	}
	b->dataset_gb_derived = !a->dataset_gb_given;
	b->dataset_gb = a->dataset_gb_given ? a->dataset_gb
		: LE_DATASET_BYTES_PER_TOKEN * s->num[LE_F_N_TOKENS] / 1e9;
	b->storage_gb = a->checkpoints_kept * b->checkpoint_gb + b->dataset_gb;
	if (finite_or_overflow("storage GB", b->storage_gb, err) != LE_OK)
		return err->status;

	if (a->owned && le_energy_kwh(s, a->pue, &b->kwh, err) != LE_OK)
		return err->status;
	return LE_OK;
}

/*
 * A quantity in words: about six significant digits, no exponent below
 * 10^15, trailing zeros dropped (98, 5600, 36700.4, 28.7124, 0.05).
 */
void
le_fmt_quantity(double v, char *buf, size_t n)
{
	double		a = fabs(v);
	int			decimals;

	if (!isfinite(v) || a >= 1e15)
	{
		snprintf(buf, n, "%.6g", v);
		return;
	}
	if (a == 0)
	{
		snprintf(buf, n, "0");
		return;
	}
	decimals = 5 - (int) floor(log10(a));
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	snprintf(buf, n, "%.*f", decimals, v);
	if (strchr(buf, '.'))
	{
		char	   *e = buf + strlen(buf) - 1;

		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, n, "0");
}

/*
 * A duration as hours:minutes:seconds, the way mfu_time prints (00:30:00,
 * 35:50:23, 720:00:00, 00:00:00.5): microseconds kept, trailing zeros dropped.
 */
void
le_fmt_duration(double seconds, char *buf, size_t n)
{
	long long	us,
				h,
				mi,
				sec,
				frac;

	/* beyond 9.2e12 s the microseconds overflow a long long: print seconds instead */
	if (!isfinite(seconds) || seconds < 0 || seconds > 9.2e12)
	{
		char		q[64];

		le_fmt_quantity(seconds, q, sizeof(q));
		snprintf(buf, n, "%s s", q);
		return;
	}
	us = llround(seconds * 1e6);
	h = us / 3600000000LL;
	mi = us / 60000000LL % 60;
	sec = us / 1000000LL % 60;
	frac = us % 1000000LL;
	if (frac == 0)
		snprintf(buf, n, "%02lld:%02lld:%02lld", h, mi, sec);
	else
	{
		char		f[8];
		int			i;

		snprintf(f, sizeof(f), "%06lld", frac);
		for (i = 5; i > 0 && f[i] == '0'; i--)
			f[i] = '\0';
		snprintf(buf, n, "%02lld:%02lld:%02lld.%s", h, mi, sec, f);
	}
}

/*
 * The assumption column of one component: the numbers used, in words.
 * money is the component's price as the SQL layer prints it, with its
 * currency sign ("$2.49": per GPU-hour, per GB-month, per GB, per kWh), or
 * for spot_buffer the percentage ("10"); unused for checkpoint and total.
 */
void
le_bill_assumption(const le_spec *s, const le_bill_args *a, const le_bill *b,
				   le_bill_component c, const char *money, char *buf, size_t n)
{
	char		q1[64],
				q2[64],
				q3[64],
				q4[64],
				d1[64],
				d2[64];

	if (money == NULL)
		money = "?";
	switch (c)
	{
		case LE_BILL_COMPUTE:
			le_fmt_quantity(b->gpu_hours, q1, sizeof(q1));
			le_fmt_duration(rint(b->wall_seconds), d1, sizeof(d1));
			snprintf(buf, n, "%s GPU-hours (%.0f x %.*s for %s) at %s per GPU-hour",
					 q1, s->num[LE_F_N_GPUS], (int) le_utf8_clip(s->text[LE_F_SKU], s->textlen[LE_F_SKU], LE_NAME_MAX),
					 s->text[LE_F_SKU], d1, money);
			break;
		case LE_BILL_CHECKPOINT:
			le_fmt_duration(a->checkpoint_every_seconds, d1, sizeof(d1));
			le_fmt_duration(a->checkpoint_write_seconds, d2, sizeof(d2));
			le_fmt_quantity(100.0 * b->checkpoint_fraction, q1, sizeof(q1));
			snprintf(buf, n, "checkpoint every %s, each write %s (%s%% of compute)", d1, d2, q1);
			break;
		case LE_BILL_STORAGE:
			{
				char		ck[96],
							ds[64];

				le_fmt_quantity(a->checkpoints_kept, q1, sizeof(q1));
				le_fmt_quantity(b->checkpoint_gb, q2, sizeof(q2));
				le_fmt_quantity(b->dataset_gb, q3, sizeof(q3));
				le_fmt_quantity(b->storage_gb, q4, sizeof(q4));
				le_fmt_quantity(a->storage_months, d1, sizeof(d1));
				if (b->checkpoint_gb_derived)
					snprintf(ck, sizeof(ck), " (%.0f bytes per parameter: weights + optimizer state)",
							 b->checkpoint_bytes_per_param);
				else
					ck[0] = '\0';
				if (b->dataset_gb_derived)
					snprintf(ds, sizeof(ds), " (%.0f bytes per token)", LE_DATASET_BYTES_PER_TOKEN);
				else
					ds[0] = '\0';
				snprintf(buf, n, "%s checkpoints x %s GB%s + %s GB of tokenized data%s = %s GB at %s per GB-month for %s month%s",
						 q1, q2, ck, q3, ds, q4, money, d1, a->storage_months == 1 ? "" : "s");
				break;
			}
		case LE_BILL_EGRESS:
			le_fmt_quantity(a->egress_gb, q1, sizeof(q1));
			if (a->egress_gb == 0)
				snprintf(buf, n, "0 GB cross-region at %s per GB (data co-located with the GPUs)", money);
			else
				snprintf(buf, n, "%s GB cross-region at %s per GB", q1, money);
			break;
		case LE_BILL_ENERGY:
			if (!a->owned)
				snprintf(buf, n, "included in the cloud GPU-hour price (owned is false)");
			else if (isnan(b->kwh))
				snprintf(buf, n, "unknown: the power of %.*s is not published (tdp_watts is NULL)",
						 (int) le_utf8_clip(s->text[LE_F_SKU], s->textlen[LE_F_SKU], LE_NAME_MAX), s->text[LE_F_SKU]);
			else
			{
				le_fmt_quantity(b->kwh, q1, sizeof(q1));
				le_fmt_quantity(s->num[LE_F_TDP_WATTS], q2, sizeof(q2));
				le_fmt_quantity(a->pue, q3, sizeof(q3));
				le_fmt_duration(rint(b->wall_seconds), d1, sizeof(d1));
				snprintf(buf, n, "%s kWh (%s W x %.0f GPUs x %s x PUE %s) at %s per kWh",
						 q1, q2, s->num[LE_F_N_GPUS], d1, q3, money);
			}
			break;
		case LE_BILL_SPOT_BUFFER:
			snprintf(buf, n, "%s%% of compute for spot reclaims and ablations", money);
			break;
		case LE_BILL_TOTAL:
		default:
			if (a->owned && isnan(b->kwh))
				snprintf(buf, n, "sum of the rows above: unknown, as the energy row is");
			else
				snprintf(buf, n, "sum of the rows above");
			break;
	}
}
