/* model_fmgr.c: SQL entry points of the time/cost/energy model; each reads the spec, lets the core check and compute, returns. */
#include "llm_econ.h"

#include <math.h>

#include "datatype/timestamp.h"

/* Seconds in an interval, counted as extract(epoch from ...) counts them. */
double
le_interval_seconds(const Interval *iv)
{
	double		s = iv->time / 1000000.0;

	s += ((double) DAYS_PER_YEAR * SECS_PER_DAY) * (iv->month / MONTHS_PER_YEAR);
	s += ((double) DAYS_PER_MONTH * SECS_PER_DAY) * (iv->month % MONTHS_PER_YEAR);
	s += ((double) SECS_PER_DAY) * iv->day;
	return s;
}

/* A duration as an interval of hours:minutes:seconds (no day or month part, so no DST or calendar effects). */
Interval *
le_seconds_interval(double seconds, const char *what)
{
	Interval   *iv = palloc0(sizeof(Interval));
	double		us = rint(seconds * 1e6);

	if (!(us > -9.2e18 && us < 9.2e18))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s is out of range for type interval", what)));
	iv->time = (int64) us;
	return iv;
}

/* The time and cost functions read only the workload, efficiency and hardware fields. */
#define READ_SPEC(s) le_spec_read_some(fcinfo, PG_GETARG_DATUM(0), LE_NEED_ENERGY, &(s))

PG_FUNCTION_INFO_V1(le_training_flops_fn);
/* training_flops(spec, attention_flops): 6·N_active·D, plus 12·L·h·s per token with attention_flops */
Datum
le_training_flops_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		v;

	READ_SPEC(s);
	/* the 0.2.0 declaration (until ALTER EXTENSION UPDATE) has no second argument */
	le_check(le_training_flops_attn(&s, PG_NARGS() > 1 && PG_GETARG_BOOL(1), &v, &err), &err);
	PG_RETURN_FLOAT8(v);
}

PG_FUNCTION_INFO_V1(le_mfu_time_fn);
/* mfu_time(spec): 6ND / (mfu · G · peak) as an interval */
Datum
le_mfu_time_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		v;

	READ_SPEC(s);
	le_check(le_train_seconds(&s, &v, &err), &err);
	PG_RETURN_INTERVAL_P(le_seconds_interval(v, "mfu_time"));
}

PG_FUNCTION_INFO_V1(le_gpu_hours_fn);
/* gpu_hours(spec): wall hours · G */
Datum
le_gpu_hours_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		v;

	READ_SPEC(s);
	le_check(le_gpu_hours(&s, &v, &err), &err);
	PG_RETURN_FLOAT8(v);
}

PG_FUNCTION_INFO_V1(le_energy_kwh_fn);
/* energy_kwh(spec, pue): TDP · G · hours · PUE / 1000; NULL when the spec's tdp_watts is NULL (power not published) */
Datum
le_energy_kwh_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		v;

	READ_SPEC(s);
	le_check(le_energy_kwh(&s, PG_GETARG_FLOAT8(1), &v, &err), &err);
	if (isnan(v))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(v);
}

PG_FUNCTION_INFO_V1(le_achieved_mfu_fn);
/* achieved_mfu(spec, wall): the MFU a run of spec that took wall really had */
Datum
le_achieved_mfu_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		v;

	READ_SPEC(s);
	le_check(le_achieved_mfu(&s, le_interval_seconds(PG_GETARG_INTERVAL_P(1)), &v, &err), &err);
	PG_RETURN_FLOAT8(v);
}

PG_FUNCTION_INFO_V1(le_estimate_cost_fn);
/* estimate_cost(spec, usd_per_gpu_hour): gpu_hours · price, numeric USD */
Datum
le_estimate_cost_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		hours;
	Numeric		price = PG_GETARG_NUMERIC(1);

	READ_SPEC(s);
	le_check(le_gpu_hours(&s, &hours, &err), &err);
	le_check_price(price, "usd_per_gpu_hour");
	PG_RETURN_NUMERIC(le_hours_times_price(hours, price));
}

PG_FUNCTION_INFO_V1(le_check_spec_fn);
/* _check_spec(spec): true if every field and cross-field rule holds (as the constructor checks), else 22023 */
Datum
le_check_spec_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_check_fields(&s, LE_NEED_ALL, &err), &err);
	le_check(le_check_relations(&s, &err), &err);
	PG_RETURN_BOOL(true);
}
