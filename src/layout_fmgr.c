/* layout_fmgr.c: SQL entry points for memory per GPU, fits_hbm, communication per step and the layout search. */
#include "llm_econ.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

/* A float8 datum, NULL when the core says unknown (NaN). */
static inline Datum
maybe_float8(double v, bool *isnull)
{
	*isnull = isnan(v);
	return Float8GetDatum(*isnull ? 0 : v);
}

PG_FUNCTION_INFO_V1(le_memory_per_gpu_fn);

/* memory_per_gpu(spec): weights, grads, optimizer, activations, overhead, total, hbm bytes */
Datum
le_memory_per_gpu_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	le_memory	m;
	TupleDesc	td;
	Datum		values[7];
	bool		nulls[7];
	double		parts[7];

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_memory_per_gpu(&s, &m, &err), &err);
	td = le_result_tupdesc(fcinfo);
	parts[0] = m.weights;
	parts[1] = m.grads;
	parts[2] = m.optimizer;
	parts[3] = m.activations;
	parts[4] = m.overhead;
	parts[5] = m.total;
	parts[6] = m.hbm;
	for (int i = 0; i < 7; i++)
		values[i] = maybe_float8(parts[i], &nulls[i]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(td, values, nulls)));
}

PG_FUNCTION_INFO_V1(le_fits_hbm_fn);

/* fits_hbm(spec): false if model states alone do not fit, NULL if activations are unknown, else total <= HBM */
Datum
le_fits_hbm_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	le_memory	m;
	le_tribool	fits;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_memory_per_gpu(&s, &m, &err), &err);
	fits = le_fits(&m);
	if (fits == LE_UNKNOWN)
		PG_RETURN_NULL();
	PG_RETURN_BOOL(fits == LE_TRUE);
}

PG_FUNCTION_INFO_V1(le_comm_bytes_fn);

/* comm_bytes(spec): bytes sent per GPU per optimizer step; NULL when the shape it needs is unknown */
Datum
le_comm_bytes_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		bytes,
				seconds;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_comm_total(&s, &bytes, &seconds, &err), &err);
	if (isnan(bytes))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(bytes);
}

PG_FUNCTION_INFO_V1(le_comm_breakdown_fn);

/* comm_breakdown(spec): one row per collective (parallelism, collective, link, bytes, seconds) */
Datum
le_comm_breakdown_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	le_spec		s;
	le_error	err;
	le_comm_row rows[LE_COMM_MAX_ROWS];
	int			n;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_comm_breakdown(&s, rows, &n, &err), &err);
	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < n; i++)
	{
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};

		values[0] = CStringGetTextDatum(rows[i].parallelism);
		values[1] = CStringGetTextDatum(rows[i].collective);
		values[2] = CStringGetTextDatum(rows[i].link);
		values[3] = maybe_float8(rows[i].bytes, &nulls[3]);
		values[4] = maybe_float8(rows[i].seconds, &nulls[4]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(le_plan_parallelism_fn);

/* plan_parallelism(spec): every valid layout of the spec's GPUs, best first */
Datum
le_plan_parallelism_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	le_spec		s;
	le_error	err;
	le_plan    *plans;
	long		n,
				cap;

	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	/* a hand-built spec breaking a rule run_spec enforces is an error, not an empty result */
	le_check(le_check_spec(&s, &err), &err);
	/* count first, then fill a buffer of the right size */
	le_check(le_plan_parallelism(&s, NULL, 0, &cap, &err), &err);
	plans = palloc(sizeof(le_plan) * Max(cap, 1));
	le_check(le_plan_parallelism(&s, plans, cap, &n, &err), &err);
	le_plan_sort(plans, n);

	InitMaterializedSRF(fcinfo, 0);
	for (long i = 0; i < n; i++)
	{
		const le_plan *p = &plans[i];
		Datum		values[9];
		bool		nulls[9] = {false};

		values[0] = Int32GetDatum(p->tp);
		values[1] = Int32GetDatum(p->pp);
		values[2] = Int32GetDatum(p->dp);
		values[3] = Int32GetDatum(p->zero_stage);
		values[4] = CStringGetTextDatum(le_enum_label(LE_E_RECOMPUTE, p->recompute));
		values[5] = maybe_float8(p->total_bytes, &nulls[5]);
		values[6] = BoolGetDatum(p->fits == LE_TRUE);
		nulls[6] = p->fits == LE_UNKNOWN;
		values[7] = maybe_float8(p->comm_seconds, &nulls[7]);
		values[8] = maybe_float8(p->step_seconds, &nulls[8]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	pfree(plans);
	return (Datum) 0;
}
