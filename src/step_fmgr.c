/* step_fmgr.c: SQL entry points of the step-time model: step_breakdown, predicted_mfu and predicted_time of a run_spec. */
#include "llm_econ.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "core/step.h"

/* Read the spec (argument 0) and the dp_overlap flag (argument 1), predict its step and run. */
static void
predict(FunctionCallInfo fcinfo, le_step_out *out, double *run_seconds)
{
	le_spec		s;
	le_error	err;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_predict(&s, PG_GETARG_BOOL(1) ? 1 : 0, out, run_seconds, &err), &err);
}

PG_FUNCTION_INFO_V1(le_step_breakdown_fn);

/* step_breakdown(spec, dp_overlap): seconds of one optimizer step by phase, then the total */
Datum
le_step_breakdown_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	le_step_out out;
	double		run;

	predict(fcinfo, &out, &run);
	InitMaterializedSRF(fcinfo, 0);
	for (int p = 0; p < LE_PH__COUNT; p++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		values[0] = CStringGetTextDatum(le_step_phase_name((le_step_phase) p));
		values[1] = Float8GetDatum(out.phase[p]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(le_predicted_mfu_fn);

/* predicted_mfu(spec, dp_overlap): 6·N_active·tokens per step / (n_gpus · peak_flops · step seconds) */
Datum
le_predicted_mfu_fn(PG_FUNCTION_ARGS)
{
	le_step_out out;
	double		run;

	predict(fcinfo, &out, &run);
	PG_RETURN_FLOAT8(out.mfu);
}

PG_FUNCTION_INFO_V1(le_predicted_time_fn);

/* predicted_time(spec, dp_overlap): n_tokens / tokens per step · step seconds, as an interval */
Datum
le_predicted_time_fn(PG_FUNCTION_ARGS)
{
	le_step_out out;
	double		run;

	predict(fcinfo, &out, &run);
	PG_RETURN_INTERVAL_P(le_seconds_interval(run, "predicted_time"));
}
