/* model_fmgr.c: SQL entry points of the time/cost/energy model; each reads the spec, lets the core check and compute, returns. */
#include "llm_econ.h"

#include <math.h>

#include "datatype/timestamp.h"

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

	le_check_nargs(fcinfo, 2, "training_flops");
	READ_SPEC(s);
	le_check(le_training_flops_attn(&s, PG_GETARG_BOOL(1), &v, &err), &err);
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
	Numeric		price = PG_GETARG_NUMERIC(1);
	Datum		hours;

	/* the spec's GPU-hours as numeric, once per distinct spec (le_spec_recall) */
	if (!le_spec_recall(fcinfo, PG_GETARG_DATUM(0), &hours))
	{
		le_spec		s;
		le_error	err;
		double		h;

		READ_SPEC(s);
		le_check(le_gpu_hours(&s, &h, &err), &err);
		hours = le_spec_remember(fcinfo, PG_GETARG_DATUM(0), le_float8_numeric(h), false, -1);
	}
	le_check_price(price, "usd_per_gpu_hour");
	PG_RETURN_NUMERIC(le_numeric_times_price(hours, price));
}

PG_FUNCTION_INFO_V1(le_check_spec_fn);
/* _check_spec(spec): true if every field and cross-field rule holds (as the constructor checks), else 22023 */
Datum
le_check_spec_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_check_spec(&s, &err), &err);
	PG_RETURN_BOOL(true);
}
