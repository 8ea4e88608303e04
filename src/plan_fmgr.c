/* plan_fmgr.c: cheapest_plan(model, deadline, ...): offers in effect from SQL, the search in the core, one row per plan with the run_spec that achieves it. */
#include "llm_econ.h"

#include <math.h>

#include "executor/spi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "core/step.h"

/* At most this many plans are returned (cheapest first); documented in README and the COMMENT. */
#define PLAN_MAX_ROWS 10000

/* At most this many offers are read (the bound check_search in src/core/search.c puts on n_offers). */
#define PLAN_MAX_OFFERS 10000000

/* The offers query, built once per backend from offers_sql_fmt. */
static char *offers_sql = NULL;

/*
 * Offers in effect at $1 (pricing $2, max_age $3) with their SKU's hardware.
 * The price machinery (which series, as of when, how old) is all in
 * llm_econ._plan_offers, so that it changes in one place.
 */
static const char *const offers_sql_fmt =
"SELECT o.sku, o.provider, o.region, o.instance_type, o.pricing, o.usd_per_gpu_hour, o.gpus_per_instance,"
"       g.fp32_tflops, g.tf32_tflops, g.bf16_tflops, g.fp16_tflops, g.fp8_tflops,"
"       COALESCE(g.hbm_bytes, g.hbm_gb OPERATOR(pg_catalog.*) 1e9::pg_catalog.float8),"
"       g.hbm_gb_per_s, g.nvlink_gb_per_s, g.pcie_gb_per_s, g.gpus_per_node, g.tdp_watts, g.generation,"
"       %s AS net_gbit_per_gpu"
"  FROM llm_econ._plan_offers($1, $2, $3) o"
"  JOIN llm_econ.gpu_sku g ON g.sku OPERATOR(pg_catalog.=) o.sku%s"
" ORDER BY o.sku, 20 NULLS FIRST, o.provider, o.pricing, o.region NULLS FIRST, o.instance_type NULLS FIRST";

/*
 * The network of the offer's instance type, per GPU (llm_econ.instance_type's
 * network_gbit_per_s / gpus; NULL = unknown: the offer serves single-instance plans only).
 * The library serves the schema of its own version (update before use: docs/internals.md).
 */
static const char *const offers_net_col =
"(it.network_gbit_per_s OPERATOR(pg_catalog./) it.gpus)::pg_catalog.float8";
static const char *const offers_net_join =
"  LEFT JOIN llm_econ.instance_type it ON it.provider OPERATOR(pg_catalog.=) o.provider"
"       AND pg_catalog.lower(it.instance_type COLLATE pg_catalog.\"C\") OPERATOR(pg_catalog.=) pg_catalog.lower(o.instance_type COLLATE pg_catalog.\"C\")";

typedef struct PlanOffer
{
	char	   *provider;
	char	   *region;			/* NULL = provider-wide */
	char	   *instance_type;	/* NULL = not given */
	char	   *pricing;
	Numeric		price;
} PlanOffer;

typedef struct PlanSku
{
	char	   *key;
	double		tdp_watts;
} PlanSku;

/* Context of the fits callback: the model spec, whose layout the search replaces. */
typedef struct FitsCtx
{
	const le_spec *model;
} FitsCtx;

static int
fits_cb(void *ctx, const le_step_in *layout, const le_sku_hw *hw)
{
	return le_layout_fits(((FitsCtx *) ctx)->model, layout, hw);
}

/* The search honours cancel and statement_timeout: CHECK_FOR_INTERRUPTS raises the error itself. */
static int
interrupt_cb(void *ctx)
{
	CHECK_FOR_INTERRUPTS();
	return 0;
}

static double
col_float8(HeapTuple tup, TupleDesc td, int i, bool *isnull)
{
	Datum		d = SPI_getbinval(tup, td, i, isnull);

	return *isnull ? NAN : DatumGetFloat8(d);
}

static char *
col_text(HeapTuple tup, TupleDesc td, int i, MemoryContext mcxt)
{
	char	   *v = SPI_getvalue(tup, td, i);

	return v ? MemoryContextStrdup(mcxt, v) : NULL;
}

static void
require_arg(FunctionCallInfo fcinfo, int i, const char *name)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must not be NULL", name)));
}

PG_FUNCTION_INFO_V1(le_billed_gpus_fn);

/*
 * _billed_gpus(n_gpus, gpus_per_instance, gpus_per_node): the GPUs a run of n_gpus pays on
 * machines of gpus_per_instance GPUs (NULL = size unknown: n_gpus), the search's rule
 * (le_billed_gpus); NULL when such machines cannot carry the run.  n_gpus or gpus_per_node
 * NULL: NULL.  A count below 1: 22023 naming it.
 */
Datum
le_billed_gpus_fn(PG_FUNCTION_ARGS)
{
	le_error	err;
	int			billed;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	le_check(le_check_range("n_gpus", PG_GETARG_INT32(0), 1, 0, INT_MAX, 0, &err), &err);
	le_check(le_check_range("gpus_per_node", PG_GETARG_INT32(2), 1, 0, INT_MAX, 0, &err), &err);
	if (!PG_ARGISNULL(1))
		le_check(le_check_range("gpus_per_instance", PG_GETARG_INT32(1), 1, 0, INT_MAX, 0, &err), &err);
	billed = le_billed_gpus(PG_GETARG_INT32(0), PG_ARGISNULL(1) ? 0 : PG_GETARG_INT32(1), PG_GETARG_INT32(2));
	if (billed == 0)
		PG_RETURN_NULL();
	PG_RETURN_INT32(billed);
}

PG_FUNCTION_INFO_V1(le_cheapest_plan_fn);

/*
 * cheapest_plan(model, deadline, at, pricing, max_gpus, max_age, calibrated): every SKU
 * with an offer in effect at "at", every GPU count in whole nodes up to
 * max_gpus, every layout that fits in HBM; the plans whose predicted wall
 * time meets the deadline, cheapest first, each with its run_spec.
 */
Datum
le_cheapest_plan_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext outer = CurrentMemoryContext;
	le_spec		model;
	le_error	err;
	le_search_in in;
	le_search_stats stats;
	le_plan_row *rows;
	int			n_rows;
	FitsCtx		fctx;
	PlanOffer  *offers;
	le_offer   *core_offers;
	PlanSku    *skus;
	le_sku_hw  *hw;
	int			n_offers = 0,
				n_skus = 0;
	int			dtype;
	double		deadline_s;
	Oid			argtypes[3] = {TIMESTAMPTZOID, TEXTOID, INTERVALOID};
	Datum		args[3];
	char		argnulls[3] = {' ', ' ', ' '};
	uint64		n_found;
	double	   *sku_net;		/* per hw entry: its offers' network per GPU in Gbit/s, NaN = unknown */
	bool		calibrated = false;
	LeCalib    *calib = NULL;
	const char *calib_stack = NULL;	/* the spec's stack and dtype, matched first in mfu_calibration */
	const char *calib_dtype = NULL;
	int			n_calib = 0;
	StringInfoData uncalibrated;

	le_check_nargs(fcinfo, 7, "cheapest_plan");
	require_arg(fcinfo, 0, "model");
	require_arg(fcinfo, 1, "deadline");
	require_arg(fcinfo, 2, "at");
	require_arg(fcinfo, 4, "max_gpus");

	/* the model: everything but the SKU, GPU count and layout, which the search chooses */
	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &model);
	le_check(le_check_fields(&model, LE_NEED_LAYOUT | LE_BIT(LE_F_N_TOKENS) | LE_BIT(LE_F_INTER_BW), &err), &err);
	/* a hand-built spec breaking a rule run_spec enforces is an error, not a search finding nothing */
	le_check(le_check_relations(&model, &err), &err);
	memset(&in, 0, sizeof(in));
	le_check(le_step_model_from_spec(&model, 1, &in.model, &err), &err);
	dtype = (int) model.num[LE_F_DTYPE];

	deadline_s = le_interval_seconds(PG_GETARG_INTERVAL_P(1));
	le_check(le_check_range("deadline (seconds)", deadline_s, 0, 1, 1e10, 0, &err), &err);
	le_check(le_check_range("max_gpus", PG_GETARG_INT32(4), 1, 0, LE_SEARCH_MAX_GPUS, 0, &err), &err);
	if (!PG_ARGISNULL(3))
	{
		text	   *p = PG_GETARG_TEXT_PP(3);

		/* as price_at and cheapest_offers read it (' SPOT ' = 'spot') */
		le_check_name("pricing", VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p));
		le_check_pricing(p);
	}
	if (!PG_ARGISNULL(5))
	{
		double		age = le_interval_seconds(PG_GETARG_INTERVAL_P(5));

		le_check(le_check_range("max_age (seconds)", age, 0, 0, 1e12, 0, &err), &err);
	}

	/* calibration (mfu_calibration, as the caller may see it): read before the offers */
	if (!PG_ARGISNULL(6) && PG_GETARG_BOOL(6))
	{
		calibrated = true;
		n_calib = le_calibration_load(&calib);
		initStringInfo(&uncalibrated);
		calib_dtype = le_enum_label(LE_E_DTYPE, dtype);
		if (model.present & LE_BIT(LE_F_STACK))
			calib_stack = le_enum_label(LE_E_STACK, (int) model.num[LE_F_STACK]);
	}

	/* offers in effect at "at", with their SKUs' hardware */
	args[0] = PG_GETARG_DATUM(2);
	args[1] = PG_ARGISNULL(3) ? (Datum) 0 : PG_GETARG_DATUM(3);
	args[2] = PG_ARGISNULL(5) ? (Datum) 0 : PG_GETARG_DATUM(5);
	if (PG_ARGISNULL(3))
		argnulls[1] = 'n';
	if (PG_ARGISNULL(5))
		argnulls[2] = 'n';
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* one row past the limit is enough to refuse: SPI stops there, not after every offer */
	if (offers_sql == NULL)
		offers_sql = MemoryContextStrdup(TopMemoryContext, psprintf(offers_sql_fmt, offers_net_col, offers_net_join));
	if (SPI_execute_with_args(offers_sql, 3, argtypes, args, argnulls, true, PLAN_MAX_OFFERS + 1) != SPI_OK_SELECT)
		elog(ERROR, "cheapest_plan: reading offers failed");
	n_found = SPI_processed;
	if (n_found > PLAN_MAX_OFFERS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cheapest_plan reads at most %d offers, found more", PLAN_MAX_OFFERS)));
	offers = MemoryContextAllocHuge(outer, sizeof(PlanOffer) * Max(n_found, 1));
	core_offers = MemoryContextAllocHuge(outer, sizeof(le_offer) * Max(n_found, 1));
	skus = MemoryContextAllocHuge(outer, sizeof(PlanSku) * Max(n_found, 1));
	hw = MemoryContextAllocHuge(outer, sizeof(le_sku_hw) * Max(n_found, 1));
	sku_net = MemoryContextAllocHuge(outer, sizeof(double) * Max(n_found, 1));
	for (uint64 i = 0; i < n_found; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	td = SPI_tuptable->tupdesc;
		bool		isnull;
		char	   *key = SPI_getvalue(tup, td, 1);
		double		peak = col_float8(tup, td, 8 + dtype, &isnull);
		double		hbm_bytes = col_float8(tup, td, 13, &isnull);
		double		hbm_gbs = col_float8(tup, td, 14, &isnull);
		double		nvlink = col_float8(tup, td, 15, &isnull);
		double		pcie = col_float8(tup, td, 16, &isnull);
		int			gpn = DatumGetInt32(SPI_getbinval(tup, td, 17, &isnull));
		double		tdp = col_float8(tup, td, 18, &isnull);
		char	   *gen = SPI_getvalue(tup, td, 19);
		double		net = col_float8(tup, td, 20, &isnull);
		Datum		price = SPI_getbinval(tup, td, 6, &isnull);
		Datum		gpi = SPI_getbinval(tup, td, 7, &isnull);
		bool		gpi_null = isnull;
		PlanOffer  *o = &offers[n_offers];

		CHECK_FOR_INTERRUPTS();
		/* a SKU the model cannot run on: no peak at the model's dtype, no published HBM bandwidth */
		if (isnan(peak) || isnan(hbm_gbs))
			continue;
		/* one hardware entry per SKU and network: the search times each network apart */
		if (n_skus == 0 || strcmp(skus[n_skus - 1].key, key) != 0 ||
			(isnan(net) != isnan(sku_net[n_skus - 1])) || (!isnan(net) && net != sku_net[n_skus - 1]))
		{
			le_sku_hw  *h = &hw[n_skus];

			skus[n_skus].key = MemoryContextStrdup(outer, key);
			skus[n_skus].tdp_watts = tdp;
			/* converted as run_spec(...) freezes them (the core's conversions, econ.h) */
			h->peak_flops = le_flops_of_tflops(peak);
			h->hbm_bytes = hbm_bytes;
			h->hbm_bw = le_bytes_of_gb_per_s(hbm_gbs);
			h->nvlink_bw = le_link_bytes_per_s(nvlink, pcie);
			/* a layout spanning instances runs at the instance's network per GPU (unknown: one instance only) */
			h->net_bw = isnan(net) ? model.num[LE_F_INTER_BW] : le_net_bytes_per_s(net);
			sku_net[n_skus] = net;
			h->gpus_per_node = gpn;
			{
				int			g = gen ? le_enum_parse(LE_E_GPU_GEN, gen, strlen(gen)) : -1;

				h->gen = g >= 0 ? (le_gpu_gen) g : LE_GEN_OTHER;
			}
			n_skus++;
		}
		o->provider = col_text(tup, td, 2, outer);
		o->region = col_text(tup, td, 3, outer);
		o->instance_type = col_text(tup, td, 4, outer);
		o->pricing = col_text(tup, td, 5, outer);
		{
			MemoryContext old = MemoryContextSwitchTo(outer);

			o->price = DatumGetNumeric(datumCopy(price, false, -1));
			MemoryContextSwitchTo(old);
		}
		core_offers[n_offers].sku = n_skus - 1;
		core_offers[n_offers].usd_per_gpu_hour =
			DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(o->price)));
		/* unknown instance size: kept for any GPU count, as cheapest_offers keeps it */
		core_offers[n_offers].gpus_per_instance = gpi_null ? 0 : DatumGetInt32(gpi);
		core_offers[n_offers].single_instance = isnan(net);
		core_offers[n_offers].mfu_factor = 0;
		if (calibrated)
		{
			core_offers[n_offers].mfu_factor = le_calibration_match(calib, n_calib, key, o->provider, calib_stack, calib_dtype);
			if (core_offers[n_offers].mfu_factor == 0)
				appendStringInfo(&uncalibrated, "%s%s at %s", uncalibrated.len ? ", " : "", key, o->provider);
		}
		n_offers++;
	}
	SPI_finish();
	if (calibrated && uncalibrated.len > 0)
		ereport(NOTICE,
				(errmsg("no calibration for %s: no run in observed_run that you can see, so those offers' plans are not calibrated (factor 1)",
						uncalibrated.data),
				 errhint("Record measured runs in llm_econ.observed_run; view llm_econ.mfu_calibration shows the factors.")));

	/* the search */
	fctx.model = &model;
	in.n_tokens = model.num[LE_F_N_TOKENS];
	in.skus = hw;
	in.n_skus = n_skus;
	in.offers = core_offers;
	in.n_offers = n_offers;
	in.deadline_s = deadline_s;
	in.max_gpus = PG_GETARG_INT32(4);
	in.fits = fits_cb;
	in.fits_ctx = &fctx;
	in.interrupt = interrupt_cb;
	in.interrupt_ctx = NULL;
	in.alloc = le_palloc;
	in.alloc_ctx = NULL;
	rows = palloc(sizeof(le_plan_row) * PLAN_MAX_ROWS);
	le_check(le_cheapest_plans(&in, rows, PLAN_MAX_ROWS, &n_rows, &stats, &err), &err);
	if (stats.truncated)
		ereport(WARNING,
				(errmsg("cheapest_plan stopped after %ld step evaluations: some plans may be missing", stats.evals),
				 errhint("Lower max_gpus or narrow the offers (pricing, max_age).")));

	/* one row per plan, each measured again through the public functions' code path */
	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < n_rows; i++)
	{
		const le_plan_row *r = &rows[i];
		const PlanOffer *o = &offers[r->offer];
		const PlanSku *k = &skus[r->sku];
		le_step_in	layout;
		le_spec		plan;
		le_step_out out;
		double		run_s,
					hours;
		Datum		values[18];
		bool		nulls[18] = {false};

		CHECK_FOR_INTERRUPTS();
		le_plan_step_in(&in, r, &layout);
		le_spec_of_layout(&model, &layout, &hw[r->sku], &plan);
		le_spec_set_text(&plan, LE_F_SKU, k->key, strlen(k->key));
		if (isnan(k->tdp_watts))	/* power not published for this SKU: unknown, as run_spec(...) leaves it */
			plan.present &= ~LE_BIT(LE_F_TDP_WATTS);
		else
			le_spec_set_num(&plan, LE_F_TDP_WATTS, k->tdp_watts);
		le_check(le_predict(&plan, 1, &out, &run_s, &err), &err);
		if (core_offers[r->offer].mfu_factor > 0)
		{
			/* calibrated, as the search priced it: the spec's mfu is the calibrated one (mfu_time = wall_time) */
			double		f = Min(core_offers[r->offer].mfu_factor, 1.0 / out.mfu);

			out.mfu *= f;
			run_s /= f;
		}
		le_spec_set_num(&plan, LE_F_MFU, out.mfu);
		le_check(le_check_spec(&plan, &err), &err);
		le_check(le_gpu_hours(&plan, &hours, &err), &err);

		values[0] = CStringGetTextDatum(k->key);
		values[1] = CStringGetTextDatum(o->provider);
		nulls[2] = o->region == NULL;
		values[2] = o->region ? CStringGetTextDatum(o->region) : (Datum) 0;
		nulls[3] = o->instance_type == NULL;
		values[3] = o->instance_type ? CStringGetTextDatum(o->instance_type) : (Datum) 0;
		values[4] = CStringGetTextDatum(o->pricing);
		values[5] = Int32GetDatum(r->n_gpus);
		values[6] = Int32GetDatum(r->tp);
		values[7] = Int32GetDatum(r->pp);
		values[8] = Int32GetDatum(r->cp);
		values[9] = Int32GetDatum(r->ep);
		values[10] = Int32GetDatum(r->dp);
		values[11] = Int32GetDatum(r->zero_stage);
		values[12] = CStringGetTextDatum(le_enum_label(LE_E_RECOMPUTE, r->recompute));
		values[13] = Float8GetDatum(out.mfu);
		values[14] = IntervalPGetDatum(le_seconds_interval(run_s, "wall_time"));
		values[15] = NumericGetDatum(o->price);
		values[16] = NumericGetDatum(le_hours_times_price(hours, o->price));
		values[17] = le_spec_build(fcinfo, &plan);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
