/* step_fmgr.c: SQL entry points of the step-time model: step_breakdown, predicted_mfu and predicted_time of a run_spec. */
#include "llm_econ.h"

#include "funcapi.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "core/step.h"

/*
 * Calibration: the rows of view mfu_calibration the caller may see (row-level
 * security on observed_run), read through SPI into the current memory
 * context.  Returns the number of rows.
 */
int
le_calibration_load(LeCalib **out)
{
	MemoryContext outer = CurrentMemoryContext;
	int			n;
	bool		n_null;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* a role that may not read observed_run has recorded no runs it can use: no factor, not an error */
	if (SPI_execute("SELECT pg_catalog.has_table_privilege('llm_econ.observed_run', 'SELECT')", true, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading observed_run's privileges failed");
	if (SPI_processed != 1 || !DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &n_null)))
	{
		SPI_finish();
		*out = MemoryContextAlloc(outer, sizeof(LeCalib));
		return 0;
	}
	if (SPI_execute("SELECT c.sku, c.provider, c.median_mfu_ratio, c.stack, c.dtype FROM llm_econ.mfu_calibration c", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading mfu_calibration failed");
	n = (int) SPI_processed;
	*out = MemoryContextAlloc(outer, sizeof(LeCalib) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	td = SPI_tuptable->tupdesc;
		bool		isnull;
		char	   *sku = SPI_getvalue(tup, td, 1);
		char	   *prov = SPI_getvalue(tup, td, 2);
		Datum		f = SPI_getbinval(tup, td, 3, &isnull);
		char	   *stack = SPI_getvalue(tup, td, 4);
		char	   *dtype = SPI_getvalue(tup, td, 5);

		(*out)[i].sku = MemoryContextStrdup(outer, sku ? sku : "");
		(*out)[i].provider = prov ? MemoryContextStrdup(outer, prov) : NULL;
		(*out)[i].factor = isnull ? 0 : DatumGetFloat8(f);
		(*out)[i].stack = stack && dtype ? MemoryContextStrdup(outer, stack) : NULL;
		(*out)[i].dtype = stack && dtype ? MemoryContextStrdup(outer, dtype) : NULL;
	}
	SPI_finish();
	return n;
}

/*
 * The factor of the sku's runs on the same stack and dtype (issue 46: BF16
 * runs on one stack do not rescale FP8 predictions on another), else of
 * (sku, provider), else of every run of the sku (provider NULL or not
 * matched); 0 = none.  stack NULL = megatron; dtype NULL skips the first.
 */
double
le_calibration_match(const LeCalib *rows, int n, const char *sku, const char *provider,
					 const char *stack, const char *dtype)
{
	double		any = 0,
				prov = 0;

	if (stack == NULL)
		stack = "megatron";
	for (int i = 0; i < n; i++)
	{
		if (strcmp(rows[i].sku, sku) != 0)
			continue;
		if (rows[i].stack != NULL)
		{
			if (dtype != NULL && strcmp(rows[i].stack, stack) == 0 && strcmp(rows[i].dtype, dtype) == 0)
				return rows[i].factor;
		}
		else if (rows[i].provider == NULL)
			any = rows[i].factor;
		else if (provider != NULL && strcmp(rows[i].provider, provider) == 0)
			prov = rows[i].factor;
	}
	return prov > 0 ? prov : any;
}

/*
 * Read the spec (argument 0) and the dp_overlap flag (argument 1), predict its
 * step and run; with calibrated true (predicted_mfu's and predicted_time's argument 2), scale the MFU by the SKU's
 * factor in mfu_calibration (at most MFU 1) and the run time by its inverse,
 * or by 1 with a NOTICE when the caller's recorded runs have none.
 */
static void
predict(FunctionCallInfo fcinfo, bool calibrated, le_step_out *out, double *run_seconds)
{
	le_spec		s;
	le_error	err;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_predict(&s, PG_GETARG_BOOL(1) ? 1 : 0, out, run_seconds, &err), &err);
	if (calibrated)
	{
		LeCalib    *rows;
		int			n = le_calibration_load(&rows);
		char	   *sku = s.text[LE_F_SKU] ? pnstrdup(s.text[LE_F_SKU], s.textlen[LE_F_SKU]) : pstrdup("");
		char	   *stack = (s.present & LE_BIT(LE_F_STACK)) ? pstrdup(le_enum_label(LE_E_STACK, (int) s.num[LE_F_STACK])) : NULL;
		char	   *dtype = pstrdup(le_enum_label(LE_E_DTYPE, (int) s.num[LE_F_DTYPE]));
		double		f = le_calibration_match(rows, n, sku, NULL, stack, dtype);

		if (f > 0)
		{
			f = Min(f, 1.0 / out->mfu);
			out->mfu *= f;
			*run_seconds /= f;
		}
		else
			ereport(NOTICE,
					(errmsg("no calibration for sku %s: no run of it in observed_run that you can see, so the prediction is not calibrated (factor 1)", sku),
					 errhint("Record measured runs in llm_econ.observed_run; view llm_econ.mfu_calibration shows the factors.")));
	}
}

PG_FUNCTION_INFO_V1(le_step_breakdown_fn);

/* step_breakdown(spec, dp_overlap): seconds of one optimizer step by phase, then the total */
Datum
le_step_breakdown_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	le_step_out out;
	double		run;

	le_check_nargs(fcinfo, 2, "step_breakdown");
	predict(fcinfo, false, &out, &run);
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

/* predicted_mfu(spec, dp_overlap, calibrated): 6·N_active·tokens per step / (n_gpus · peak_flops · step seconds) */
Datum
le_predicted_mfu_fn(PG_FUNCTION_ARGS)
{
	le_step_out out;
	double		run;

	le_check_nargs(fcinfo, 3, "predicted_mfu");
	predict(fcinfo, PG_GETARG_BOOL(2), &out, &run);
	PG_RETURN_FLOAT8(out.mfu);
}

PG_FUNCTION_INFO_V1(le_predicted_time_fn);

/* predicted_time(spec, dp_overlap, calibrated): n_tokens / tokens per step · step seconds, as an interval */
Datum
le_predicted_time_fn(PG_FUNCTION_ARGS)
{
	le_step_out out;
	double		run;

	le_check_nargs(fcinfo, 3, "predicted_time");
	predict(fcinfo, PG_GETARG_BOOL(2), &out, &run);
	PG_RETURN_INTERVAL_P(le_seconds_interval(run, "predicted_time"));
}
