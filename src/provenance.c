/* provenance.c: price_snapshot.source_kind is set by the price recorder alone (catalog, history), never by a plain INSERT, a setting or another role's function. */
#include "llm_econ.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

/*
 * The kind of the rows the recorder (llm_econ._record_prices) is writing, and
 * the role that called it.  Only le_record_prices_fn sets it, around its call
 * of the storing function, and no SQL function reaches it; the column default
 * _source_kind() gives the kind only to inserts made as that same role while
 * it is set, so a plain INSERT stores 'manual' whatever the session set, and
 * a function of another role (SECURITY DEFINER or not) cannot borrow a caller's
 * recorder: it runs as itself and the INSERT is checked as itself.  Cleared
 * when the recorder returns and at the end of every transaction.
 */
static char import_kind[16];
static Oid	import_kind_user = InvalidOid;

/*
 * True while the recorder's call of _mark_seen runs: its UPDATE moves
 * last_seen_at alone, which no daily summary and no series depends on, and the
 * extension's own UPDATE triggers on price_snapshot skip it (_marking_seen()).
 * Users' triggers fire as on any UPDATE.
 */
static bool marking_seen = false;

static void
provenance_clear(void)
{
	import_kind[0] = '\0';
	import_kind_user = InvalidOid;
	marking_seen = false;
}

static void
provenance_xact_end(XactEvent event, void *arg)
{
	(void) arg;
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_PREPARE)
		provenance_clear();
}

void
le_provenance_init(void)
{
	RegisterXactCallback(provenance_xact_end, NULL);
}

/* true while the recorder writes for the role running now */
static bool
recording_for_current_user(void)
{
	return import_kind[0] != '\0' && import_kind_user == GetUserId();
}

/*
 * The recorder's arguments: the storing function's first nine, then kind (KIND_ARG), then the
 * sightings (seen), the storing function's tenth.
 */
#define STORE_NARGS 10
#define KIND_ARG 9

/* llm_econ._store_prices, with the recorder's argument types less kind */
static Oid
store_prices_oid(Oid recorder)
{
	HeapTuple	tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(recorder));
	Form_pg_proc p;
	Oid			argtypes[STORE_NARGS];
	Oid			body;
	List	   *name;

	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for function %u", recorder);
	p = (Form_pg_proc) GETSTRUCT(tp);
	if (p->pronargs != STORE_NARGS + 1)
		elog(ERROR, "llm_econ._record_prices has %d arguments, expected %d", p->pronargs, STORE_NARGS + 1);
	for (int i = 0, j = 0; i < STORE_NARGS + 1; i++)
		if (i != KIND_ARG)
			argtypes[j++] = p->proargtypes.values[i];
	name = list_make2(makeString(get_namespace_name(p->pronamespace)), makeString(pstrdup("_store_prices")));
	ReleaseSysCache(tp);
	body = LookupFuncName(name, STORE_NARGS, argtypes, false);
	return body;
}

/* llm_econ._mark_seen(int8[], timestamptz[], timestamptz[]), in the recorder's schema */
static Oid
mark_seen_oid(Oid recorder)
{
	Oid			argtypes[3] = {INT8ARRAYOID, TIMESTAMPTZARRAYOID, TIMESTAMPTZARRAYOID};
	Oid			nsp = get_func_namespace(recorder);

	return LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup("_mark_seen"))),
						  3, argtypes, false);
}

/* the functions the recorder calls, looked up once per call site */
typedef struct RecorderCalls
{
	FmgrInfo	store;			/* _store_prices, run as the caller */
	FmgrInfo	mark;			/* _mark_seen: SECURITY DEFINER, EXECUTE for nobody */
} RecorderCalls;

/*
 * Moves the sightings _store_prices returned (its fields 4..6: series ids, instants, latest
 * sightings) forward, by a direct call of _mark_seen: nobody holds EXECUTE on it, so no other
 * function can move a sighting, and fmgr runs it as its owner (SECURITY DEFINER).
 */
static void
mark_sightings(FmgrInfo *mark, HeapTuple stored, TupleDesc td)
{
	Datum		v[3];
	bool		n[3];

	for (int i = 0; i < 3; i++)
		v[i] = heap_getattr(stored, 4 + i, td, &n[i]);
	if (n[0] || n[1] || n[2])
		return;					/* nothing listed again unchanged */
	marking_seen = true;
	PG_TRY();
	{
		FunctionCall3Coll(mark, InvalidOid, v[0], v[1], v[2]);
	}
	PG_FINALLY();
	{
		marking_seen = false;
	}
	PG_END_TRY();
}

PG_FUNCTION_INFO_V1(le_record_prices_fn);

/*
 * _record_prices(obs_at, provider, sku, region, pricing, usd, instance_type,
 * gpus, source, kind, seen): runs _store_prices on the other ten arguments, as
 * the caller, with the rows it inserts labelled kind (catalog or history), then
 * moves the sightings it returns; returns (inserted, unchanged, withdrawn).
 */
Datum
le_record_prices_fn(PG_FUNCTION_ARGS)
{
	RecorderCalls *calls = (RecorderCalls *) fcinfo->flinfo->fn_extra;
	char	   *k;
	Datum		stored;
	bool		isnull = false;
	TupleDesc	rettd;
	Datum		out[3];
	bool		outnull[3];

	le_check_nargs(fcinfo, STORE_NARGS + 1, "_record_prices");
	if (PG_ARGISNULL(KIND_ARG))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("kind must be catalog or history, got NULL")));
	k = text_to_cstring(PG_GETARG_TEXT_PP(KIND_ARG));
	if (strcmp(k, "catalog") != 0 && strcmp(k, "history") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("kind must be catalog or history, got \"%s\"", k)));
	if (import_kind[0] != '\0')
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the price recorder cannot be called from inside itself")));
	if (get_call_result_type(fcinfo, NULL, &rettd) != TYPEFUNC_COMPOSITE || rettd->natts != 3)
		elog(ERROR, "llm_econ._record_prices must return (inserted, unchanged, withdrawn)");
	if (calls == NULL)
	{
		calls = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(RecorderCalls));
		fmgr_info_cxt(store_prices_oid(fcinfo->flinfo->fn_oid), &calls->store, fcinfo->flinfo->fn_mcxt);
		fmgr_info_cxt(mark_seen_oid(fcinfo->flinfo->fn_oid), &calls->mark, fcinfo->flinfo->fn_mcxt);
		fcinfo->flinfo->fn_extra = calls;
	}

	strlcpy(import_kind, k, sizeof(import_kind));
	import_kind_user = GetUserId();
	PG_TRY();
	{
		LOCAL_FCINFO(call, STORE_NARGS);
		HeapTupleHeader row;
		TupleDesc	td;
		HeapTupleData tup;

		InitFunctionCallInfoData(*call, &calls->store, STORE_NARGS, PG_GET_COLLATION(), NULL, NULL);
		for (int i = 0, j = 0; i < STORE_NARGS + 1; i++)
		{
			if (i == KIND_ARG)
				continue;
			call->args[j].value = fcinfo->args[i].value;
			call->args[j].isnull = fcinfo->args[i].isnull;
			j++;
		}
		stored = FunctionCallInvoke(call);
		isnull = call->isnull;
		if (isnull)
			elog(ERROR, "llm_econ._store_prices returned NULL");
		row = DatumGetHeapTupleHeader(stored);
		td = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(row), HeapTupleHeaderGetTypMod(row));
		if (td->natts != 6)
			elog(ERROR, "llm_econ._store_prices returned %d fields, expected 6", td->natts);
		tup.t_len = HeapTupleHeaderGetDatumLength(row);
		ItemPointerSetInvalid(&tup.t_self);
		tup.t_tableOid = InvalidOid;
		tup.t_data = row;
		mark_sightings(&calls->mark, &tup, td);
		for (int i = 0; i < 3; i++)
			out[i] = heap_getattr(&tup, 1 + i, td, &outnull[i]);
		ReleaseTupleDesc(td);
	}
	PG_FINALLY();
	{
		provenance_clear();
	}
	PG_END_TRY();
	rettd = BlessTupleDesc(rettd);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(rettd, out, outnull)));
}

PG_FUNCTION_INFO_V1(le_recording_fn);

/*
 * _recording(): true while the recorder runs for a role that may insert into
 * price_snapshot: what llm_econ._mark_seen (SECURITY DEFINER, so running as
 * the owner here, and called by the recorder alone) requires before it moves
 * last_seen_at.
 */
Datum
le_recording_fn(PG_FUNCTION_ARGS)
{
	Oid			nsp;
	Oid			rel;

	(void) fcinfo;
	if (import_kind[0] == '\0' || !OidIsValid(import_kind_user))
		PG_RETURN_BOOL(false);
	/* the table whose INSERT privilege is checked (a privilege check, not a version probe) */
	nsp = get_namespace_oid("llm_econ", false);
	rel = get_relname_relid("price_snapshot", nsp);
	PG_RETURN_BOOL(OidIsValid(rel) && pg_class_aclcheck(rel, import_kind_user, ACL_INSERT) == ACLCHECK_OK);
}

PG_FUNCTION_INFO_V1(le_marking_seen_fn);

/*
 * _marking_seen(): true while the recorder's _mark_seen moves sightings (only
 * last_seen_at changes): the extension's UPDATE triggers on price_snapshot
 * return at once.  Nothing in SQL can set it.
 */
Datum
le_marking_seen_fn(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_BOOL(marking_seen && import_kind[0] != '\0');
}

PG_FUNCTION_INFO_V1(le_source_kind_fn);

/* _source_kind(): the default of price_snapshot.source_kind. */
Datum
le_source_kind_fn(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	if (recording_for_current_user())
		PG_RETURN_TEXT_P(cstring_to_text(import_kind));
	PG_RETURN_TEXT_P(cstring_to_text("manual"));
}

PG_FUNCTION_INFO_V1(le_kind_allowed_fn);

/*
 * _kind_allowed(): rows may carry a kind other than manual: while the recorder
 * writes for the role running now, or when that role is a superuser (the
 * install's COPY of the shipped history, a restore).
 */
Datum
le_kind_allowed_fn(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_BOOL(recording_for_current_user() || superuser());
}
