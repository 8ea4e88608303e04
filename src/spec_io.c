/* spec_io.c: reads run_spec composites into the core's le_spec and builds them back, with the layout cached per call site. */
#include "llm_econ.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "storage/proc.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

/* The per-call-site cache, allocated on first use in fn_mcxt (lives as long as the FmgrInfo). */
LeFnCache *
le_fn_cache(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(LeFnCache));
	return (LeFnCache *) fcinfo->flinfo->fn_extra;
}

/* The SQL type a field must have in the composite. */
static Oid
field_sql_type(le_field f)
{
	switch (le_field_kind(f))
	{
		case LE_K_FLOAT8:
			return FLOAT8OID;
		case LE_K_INT4:
			return INT4OID;
		case LE_K_BOOL:
			return BOOLOID;
		default:
			return TEXTOID;
	}
}

/*
 * Resolve attribute positions by name once, from td (which the caller owns);
 * keep a private copy of td in fn_mcxt for deforming and forming tuples.
 */
static void
layout_init(LeSpecLayout *L, TupleDesc td, MemoryContext mcxt)
{
	MemoryContext old = MemoryContextSwitchTo(mcxt);

	L->tupdesc = CreateTupleDescCopy(td);
	L->typid = td->tdtypeid;
	L->typmod = td->tdtypmod;
	L->values = palloc(sizeof(Datum) * Max(td->natts, 1));
	L->nulls = palloc(sizeof(bool) * Max(td->natts, 1));
	MemoryContextSwitchTo(old);

	for (int f = 0; f < LE_F__COUNT; f++)
		L->attno[f] = -1;
	for (int i = 0; i < td->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);

		if (att->attisdropped)
			continue;
		for (int f = 0; f < LE_F__COUNT; f++)
		{
			if (strcmp(NameStr(att->attname), le_field_name((le_field) f)) != 0)
				continue;
			if (att->atttypid != field_sql_type((le_field) f))
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("run_spec attribute \"%s\" has type %s, expected %s",
								NameStr(att->attname), format_type_be(att->atttypid),
								format_type_be(field_sql_type((le_field) f)))));
			L->attno[f] = i;
		}
	}
}

/*
 * Read a run_spec datum: deform it with the cached layout (rebuilt only when
 * the row type differs, e.g. after ALTER TYPE) and copy the fields in "need"
 * into out (the others stay NULL: a function reads only what it checks).
 * Text fields point into the datum, which lives as long as the call.
 */
void
le_spec_read_some(FunctionCallInfo fcinfo, Datum composite, uint64 need, le_spec *out)
{
	HeapTupleHeader th = DatumGetHeapTupleHeader(composite);
	Oid			typid = HeapTupleHeaderGetTypeId(th);
	int32		typmod = HeapTupleHeaderGetTypMod(th);
	LeSpecLayout *L = &le_fn_cache(fcinfo)->spec;
	HeapTupleData tuple;

	if (L->tupdesc == NULL || L->typid != typid || L->typmod != typmod ||
		HeapTupleHeaderGetNatts(th) > L->tupdesc->natts || L->need != need)
	{
		TupleDesc	td = lookup_rowtype_tupdesc(typid, typmod);

		layout_init(L, td, fcinfo->flinfo->fn_mcxt);
		ReleaseTupleDesc(td);
		L->need = need;
	}

	tuple.t_len = HeapTupleHeaderGetDatumLength(th);
	ItemPointerSetInvalid(&(tuple.t_self));
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = th;
	heap_deform_tuple(&tuple, L->tupdesc, L->values, L->nulls);

	le_spec_clear(out);
	for (int f = 0; f < LE_F__COUNT; f++)
	{
		int			a = L->attno[f];

		if (!(need & LE_BIT(f)) || a < 0 || L->nulls[a])
			continue;
		switch (le_field_kind((le_field) f))
		{
			case LE_K_FLOAT8:
				le_spec_set_num(out, (le_field) f, DatumGetFloat8(L->values[a]));
				break;
			case LE_K_INT4:
				le_spec_set_num(out, (le_field) f, (double) DatumGetInt32(L->values[a]));
				break;
			case LE_K_BOOL:
				le_spec_set_num(out, (le_field) f, DatumGetBool(L->values[a]) ? 1.0 : 0.0);
				break;
			case LE_K_TEXT:
			case LE_K_ENUM:
				{
					text	   *t = DatumGetTextPP(L->values[a]);

					le_spec_set_text(out, (le_field) f, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
					break;
				}
		}
	}
}

/*
 * Per-row cost of a constant (or repeated) spec: a function that derives one
 * value from the spec alone keeps the last spec's bytes with that value, and
 * reuses it while the same bytes come again.  The bytes include the row type,
 * so a spec of another type never matches; every distinct spec is still read
 * and validated in full.
 */
bool
le_spec_recall(FunctionCallInfo fcinfo, Datum composite, Datum *value)
{
	LeFnCache  *c = le_fn_cache(fcinfo);
	HeapTupleHeader th = DatumGetHeapTupleHeader(composite);
	Size		len = HeapTupleHeaderGetDatumLength(th);

	if (c->last_spec == NULL || c->last_len != len || memcmp(c->last_spec, th, len) != 0)
		return false;
	*value = c->last_value;
	return true;
}

/* Keep composite's bytes and value (copied into fn_mcxt) for le_spec_recall; returns the copy. */
Datum
le_spec_remember(FunctionCallInfo fcinfo, Datum composite, Datum value, bool byval, int typlen)
{
	LeFnCache  *c = le_fn_cache(fcinfo);
	HeapTupleHeader th = DatumGetHeapTupleHeader(composite);
	Size		len = HeapTupleHeaderGetDatumLength(th);
	MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

	if (c->last_spec != NULL)
		pfree(c->last_spec);
	if (!byval && c->last_len > 0 && DatumGetPointer(c->last_value) != NULL)
		pfree(DatumGetPointer(c->last_value));
	c->last_spec = NULL;
	c->last_len = 0;
	c->last_value = datumCopy(value, byval, typlen);
	c->last_spec = palloc(len);
	memcpy(c->last_spec, th, len);
	c->last_len = len;
	MemoryContextSwitchTo(old);
	return c->last_value;
}

/* Read every field of a run_spec datum. */
void
le_spec_read(FunctionCallInfo fcinfo, Datum composite, le_spec *out)
{
	le_spec_read_some(fcinfo, composite, LE_NEED_ALL, out);
}

/* Build a run_spec datum (the function's result type) from a validated spec. */
Datum
le_spec_build(FunctionCallInfo fcinfo, const le_spec *s)
{
	LeSpecLayout *L = &le_fn_cache(fcinfo)->spec;
	HeapTuple	tuple;

	if (L->tupdesc == NULL)
	{
		TupleDesc	td;

		if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "run_spec constructor must return a composite type");
		layout_init(L, td, fcinfo->flinfo->fn_mcxt);
		BlessTupleDesc(L->tupdesc);
	}

	for (int i = 0; i < L->tupdesc->natts; i++)
	{
		L->values[i] = (Datum) 0;
		L->nulls[i] = true;
	}
	for (int f = 0; f < LE_F__COUNT; f++)
	{
		int			a = L->attno[f];

		if (a < 0 || !(s->present & LE_BIT(f)))
			continue;
		L->nulls[a] = false;
		switch (le_field_kind((le_field) f))
		{
			case LE_K_FLOAT8:
				L->values[a] = Float8GetDatum(s->num[f]);
				break;
			case LE_K_INT4:
				L->values[a] = Int32GetDatum((int32) s->num[f]);
				break;
			case LE_K_BOOL:
				L->values[a] = BoolGetDatum(s->num[f] != 0);
				break;
			case LE_K_TEXT:
				L->values[a] = PointerGetDatum(cstring_to_text_with_len(s->text[f], (int) s->textlen[f]));
				break;
			case LE_K_ENUM:
				/* validated, so the code is known: store the canonical name */
				L->values[a] = CStringGetTextDatum(le_enum_label(le_field_enum((le_field) f), (int) s->num[f]));
				break;
		}
	}
	tuple = heap_form_tuple(L->tupdesc, L->values, L->nulls);
	return HeapTupleGetDatum(tuple);
}

/* A record-returning function's result type, blessed once per call site (fn_extra's spare slot). */
TupleDesc
le_result_tupdesc(FunctionCallInfo fcinfo)
{
	LeFnCache  *c = le_fn_cache(fcinfo);

	if (c->extra == NULL)
	{
		TupleDesc	td;
		MemoryContext old;

		if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "function returning a record called in a context that cannot accept one");
		old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		c->extra = BlessTupleDesc(CreateTupleDescCopy(td));
		MemoryContextSwitchTo(old);
	}
	return (TupleDesc) c->extra;
}

/*
 * Whether a per-call-site cache stamped *stamp is still valid: STABLE results
 * may be reused within one statement only, so a cache lives for one command
 * of one transaction (a PL/pgSQL function keeps its FmgrInfo across them).
 */
bool
le_cache_fresh(uint64 *stamp)
{
	uint64		now = ((uint64) le_my_lxid() << 32) | GetCurrentCommandId(false);

	if (*stamp == now)
		return true;
	*stamp = now;
	return false;
}

/* The SQLSTATE of a core status (README, "Errors"). */
static int
status_sqlstate(le_status st)
{
	switch (st)
	{
		case LE_ERR_OVERFLOW:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;	/* 22003 */
		case LE_ERR_TOO_LONG:
			return ERRCODE_PROGRAM_LIMIT_EXCEEDED;	/* 54000 */
		case LE_ERR_MALFORMED:
			return ERRCODE_BAD_COPY_FILE_FORMAT;	/* 22P04 */
		case LE_ERR_NO_MEMORY:
			return ERRCODE_OUT_OF_MEMORY;	/* 53200 */
		case LE_OK:
		case LE_ERR_VALUE:
			break;
	}
	return ERRCODE_INVALID_PARAMETER_VALUE; /* 22023 */
}

/*
 * Raise the core's error with its status's SQLSTATE; where in an input it is
 * (a line, a column) goes in the CONTEXT, as COPY reports it.
 */
void
le_report(const le_error *err)
{
	ereport(ERROR,
			(errcode(status_sqlstate(err->status)),
			 errmsg("%s", err->message),
			 err->detail[0] ? errdetail("%s", err->detail) : 0,
			 err->context[0] ? errcontext("%s", err->context) : 0));
}

/* Report err unless st is LE_OK. */
void
le_check(le_status st, const le_error *err)
{
	if (st != LE_OK)
		le_report(err);
}
