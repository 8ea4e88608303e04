/* bill_fmgr.c: SQL entry points of the rest of the bill: carbon_kg, checkpoint_plan, cost_breakdown (numeric money over the core's quantities). */
#include "llm_econ.h"
#include "core/guard.h"
#include "core/bill.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"


PG_FUNCTION_INFO_V1(le_carbon_kg_fn);
/* carbon_kg(spec, kg_co2_per_kwh, pue): energy_kwh(spec, pue) × kg_co2_per_kwh; NULL when tdp_watts is NULL */
Datum
le_carbon_kg_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		kg;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_carbon_kg(&s, PG_GETARG_FLOAT8(1), PG_GETARG_FLOAT8(2), &kg, &err), &err);
	if (isnan(kg))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(kg);
}

PG_FUNCTION_INFO_V1(le_checkpoint_plan_fn);
/* checkpoint_plan(spec, checkpoint_write, mtbf_per_node): Young/Daly interval, overhead, P(interrupted), ... */
Datum
le_checkpoint_plan_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	le_ckpt_plan p;
	TupleDesc	td;
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, false};

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_checkpoint_plan(&s, le_interval_seconds(PG_GETARG_INTERVAL_P(1)),
								le_interval_seconds(PG_GETARG_INTERVAL_P(2)), &p, &err), &err);
	td = le_result_tupdesc(fcinfo);
	values[0] = IntervalPGetDatum(le_seconds_interval(p.interval_seconds, "interval"));
	values[1] = Float8GetDatum(p.overhead_fraction);
	values[2] = Float8GetDatum(p.p_interrupted);
	values[3] = Float8GetDatum(p.expected_interruptions);
	values[4] = IntervalPGetDatum(le_seconds_interval(p.cluster_mtbf_seconds, "cluster_mtbf"));
	values[5] = Int32GetDatum((int32) p.nodes);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(td, values, nulls)));
}

/* ---- cost_breakdown ---- */

/* Argument positions of cost_breakdown, as declared in src/sql/bill.sql. */
enum
{
	A_SPEC,
	A_USD_PER_GPU_HOUR,
	A_CHECKPOINT_EVERY,
	A_CHECKPOINT_WRITE,
	A_CHECKPOINTS_KEPT,
	A_CHECKPOINT_GB,
	A_DATASET_GB,
	A_STORAGE_USD_PER_GB_MONTH,
	A_STORAGE_MONTHS,
	A_EGRESS_GB,
	A_EGRESS_USD_PER_GB,
	A_OWNED,
	A_USD_PER_KWH,
	A_PUE,
	A_SPOT_BUFFER,
	A__COUNT
};

/* Argument names, for the NULL check's message. */
static const char *const arg_names[A__COUNT] = {
	"spec", "usd_per_gpu_hour", "checkpoint_every", "checkpoint_write", "checkpoints_kept",
	"checkpoint_gb", "dataset_gb", "storage_usd_per_gb_month", "storage_months", "egress_gb",
	"egress_usd_per_gb", "owned", "usd_per_kwh", "pue", "spot_buffer"
};

/* a × b in numeric. */
static Datum
num_mul(Datum a, Datum b)
{
	return DirectFunctionCall2(numeric_mul, a, b);
}

/* A checked, finite float8 quantity (hours, GB, seconds) as numeric: the one float-to-numeric step. */
static Datum
num_of(double v)
{
	return DirectFunctionCall1(float8_numeric, Float8GetDatum(v));
}

/* A numeric as text, as numeric_out prints it. */
static char *
num_text(Datum n)
{
	return DatumGetCString(DirectFunctionCall1(numeric_out, n));
}

/*
 * A numeric fraction must be in [0, 1] (22023 naming the argument
 * otherwise; NaN and infinities fail every comparison here).
 */
static void
check_fraction(Numeric v, const char *name)
{
	Datum		d = NumericGetDatum(v);

	if (numeric_is_nan(v) || numeric_is_inf(v) ||
		DatumGetInt32(DirectFunctionCall2(numeric_cmp, d, num_of(0))) < 0 ||
		DatumGetInt32(DirectFunctionCall2(numeric_cmp, d, num_of(1))) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be in [0, 1], got %s", name, num_text(d))));
}

/*
 * A price for the assumption column: "$2.49" as given; more than six
 * decimals are rounded to six for the words only ("~$1.408109").
 */
static char *
price_words(Datum price, const char *prefix)
{
	int32		scale = DatumGetInt32(DirectFunctionCall1(numeric_scale, price));

	if (scale <= 6)
		return psprintf("%s%s", prefix, num_text(price));
	return psprintf("~%s%s", prefix,
					num_text(DirectFunctionCall1(numeric_trim_scale,
												 DirectFunctionCall2(numeric_round, price, Int32GetDatum(6)))));
}

PG_FUNCTION_INFO_V1(le_cost_breakdown_fn);

/*
 * cost_breakdown(spec, usd_per_gpu_hour, ...): one row per component of the
 * bill (component, usd, assumption), then the total.  Not STRICT, because
 * checkpoint_gb and dataset_gb use NULL for "derive from the spec"; any other
 * NULL argument is an error, as in the run_spec constructor.  Money is
 * numeric: each float quantity (GPU-hours, seconds, GB, months, kWh) is
 * converted once and then only multiplied by prices and fractions.
 */
Datum
le_cost_breakdown_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	le_spec		s;
	le_error	err;
	le_bill_args a;
	le_bill		b;
	Numeric		price,
				storage_price,
				egress_price,
				kwh_price,
				spot;
	Datum		usd[LE_BILL__COUNT];
	char	   *money[LE_BILL__COUNT] = {NULL};
	bool		energy_unknown;

	for (int i = 0; i < A__COUNT; i++)
		if (i != A_CHECKPOINT_GB && i != A_DATASET_GB && PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s must not be NULL", arg_names[i]),
					 i == A_SPEC ? 0 : errdetail("Only checkpoint_gb and dataset_gb may be NULL (derived from the spec).")));

	le_spec_read(fcinfo, PG_GETARG_DATUM(A_SPEC), &s);
	price = PG_GETARG_NUMERIC(A_USD_PER_GPU_HOUR);
	storage_price = PG_GETARG_NUMERIC(A_STORAGE_USD_PER_GB_MONTH);
	egress_price = PG_GETARG_NUMERIC(A_EGRESS_USD_PER_GB);
	kwh_price = PG_GETARG_NUMERIC(A_USD_PER_KWH);
	spot = PG_GETARG_NUMERIC(A_SPOT_BUFFER);

	memset(&a, 0, sizeof(a));
	a.checkpoint_every_seconds = le_interval_seconds(PG_GETARG_INTERVAL_P(A_CHECKPOINT_EVERY));
	a.checkpoint_write_seconds = le_interval_seconds(PG_GETARG_INTERVAL_P(A_CHECKPOINT_WRITE));
	a.checkpoints_kept = PG_GETARG_INT32(A_CHECKPOINTS_KEPT);
	a.checkpoint_gb_given = !PG_ARGISNULL(A_CHECKPOINT_GB);
	a.checkpoint_gb = a.checkpoint_gb_given ? PG_GETARG_FLOAT8(A_CHECKPOINT_GB) : 0;
	a.dataset_gb_given = !PG_ARGISNULL(A_DATASET_GB);
	a.dataset_gb = a.dataset_gb_given ? PG_GETARG_FLOAT8(A_DATASET_GB) : 0;
	a.storage_months = PG_GETARG_FLOAT8(A_STORAGE_MONTHS);
	a.egress_gb = PG_GETARG_FLOAT8(A_EGRESS_GB);
	a.owned = PG_GETARG_BOOL(A_OWNED);
	a.pue = PG_GETARG_FLOAT8(A_PUE);

	/* checks in argument order: the spec and quantities (core), then the money (here) */
	le_check(le_bill_quantities(&s, &a, &b, &err), &err);
	le_check_price(price, "usd_per_gpu_hour");
	le_check_price(storage_price, "storage_usd_per_gb_month");
	le_check_price(egress_price, "egress_usd_per_gb");
	le_check_price(kwh_price, "usd_per_kwh");
	check_fraction(spot, "spot_buffer");

	/* compute = gpu_hours × price */
	usd[LE_BILL_COMPUTE] = NumericGetDatum(le_hours_times_price(b.gpu_hours, price));
	/* checkpoint = compute × write / every: the run stops for one write per interval */
	usd[LE_BILL_CHECKPOINT] = DirectFunctionCall2(numeric_div,
												  num_mul(usd[LE_BILL_COMPUTE], num_of(a.checkpoint_write_seconds)),
												  num_of(a.checkpoint_every_seconds));
	/* storage = GB × $/GB-month × months */
	usd[LE_BILL_STORAGE] = num_mul(num_mul(num_of(b.storage_gb), NumericGetDatum(storage_price)),
								   num_of(a.storage_months));
	/* egress = GB × $/GB */
	usd[LE_BILL_EGRESS] = num_mul(num_of(a.egress_gb), NumericGetDatum(egress_price));
	/*
	 * energy = kWh × $/kWh for an owned cluster; in the cloud it is in the
	 * GPU-hour price.  Unknown (NULL, and so the total) when owned and the
	 * part's power is not published (tdp_watts NULL: kWh is NaN).
	 */
	energy_unknown = a.owned && isnan(b.kwh);
	usd[LE_BILL_ENERGY] = !a.owned ? num_of(0) : energy_unknown ? (Datum) 0
		: num_mul(num_of(b.kwh), NumericGetDatum(kwh_price));
	/*
	 * spot buffer = compute × fraction: an allowance for work lost to spot
	 * reclaims and for ablation runs; the default 10% is an assumption of the
	 * caller's planning, not a measured figure
	 */
	usd[LE_BILL_SPOT_BUFFER] = num_mul(usd[LE_BILL_COMPUTE], NumericGetDatum(spot));
	usd[LE_BILL_TOTAL] = num_of(0);
	for (int c = 0; c < LE_BILL_TOTAL; c++)
		if (!(energy_unknown && c == LE_BILL_ENERGY))
			usd[LE_BILL_TOTAL] = DirectFunctionCall2(numeric_add, usd[LE_BILL_TOTAL], usd[c]);

	money[LE_BILL_COMPUTE] = price_words(NumericGetDatum(price), "$");
	money[LE_BILL_STORAGE] = price_words(NumericGetDatum(storage_price), "$");
	money[LE_BILL_EGRESS] = price_words(NumericGetDatum(egress_price), "$");
	money[LE_BILL_ENERGY] = price_words(NumericGetDatum(kwh_price), "$");
	money[LE_BILL_SPOT_BUFFER] =
		price_words(DirectFunctionCall1(numeric_trim_scale, num_mul(NumericGetDatum(spot), num_of(100))), "");

	InitMaterializedSRF(fcinfo, 0);
	for (int c = 0; c < LE_BILL__COUNT; c++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};
		char		words[1024];	/* fits every assumption: the SKU name is at most LE_NAME_MAX bytes */

		le_bill_assumption(&s, &a, &b, (le_bill_component) c, money[c], words, sizeof(words));
		words[le_utf8_complete(words, strlen(words))] = '\0';	/* never half a character */
		values[0] = CStringGetTextDatum(le_bill_component_name((le_bill_component) c));
		values[1] = usd[c];
		nulls[1] = energy_unknown && (c == LE_BILL_ENERGY || c == LE_BILL_TOTAL);
		values[2] = CStringGetTextDatum(words);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
