/* compat.h: the one place that adapts the fmgr layer to PostgreSQL 15, 16, 17 and 18 (checks by PG_VERSION_NUM). */
#ifndef LLM_ECON_COMPAT_H
#define LLM_ECON_COMPAT_H

#include "postgres.h"

/*
 * Varlena access macros (VARDATA_ANY, VARSIZE_ANY_EXHDR, ...): in their own header since
 * PostgreSQL 16, which postgres.h stopped including in 18.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * Functions that never return (they end in ereport(ERROR)).  PostgreSQL 18 replaced the
 * trailing pg_attribute_noreturn() with pg_noreturn, which goes before the declaration;
 * both spellings are accepted there, so declarations read "le_noreturn extern void f(...);".
 */
#if PG_VERSION_NUM >= 180000
#define le_noreturn pg_noreturn
#else
#define le_noreturn pg_attribute_noreturn()
#endif

/*
 * The backend's local transaction id (needs storage/proc.h).  PostgreSQL 17 moved it from
 * PGPROC.lxid into PGPROC.vxid.lxid.
 */
#if PG_VERSION_NUM >= 170000
#define le_my_lxid() (MyProc->vxid.lxid)
#else
#define le_my_lxid() (MyProc->lxid)
#endif

/*
 * DecodeDateTime's error details: PostgreSQL 16 added a last argument (DateTimeErrorExtra),
 * filled on an error the caller reports itself.  Needs utils/datetime.h.
 */
#if PG_VERSION_NUM >= 160000
#define le_decode_datetime(field, ftype, nf, dtype, tm, fsec, tzp) \
	DecodeDateTime((field), (ftype), (nf), (dtype), (tm), (fsec), (tzp), &(DateTimeErrorExtra) {0})
#else
#define le_decode_datetime(field, ftype, nf, dtype, tm, fsec, tzp) \
	DecodeDateTime((field), (ftype), (nf), (dtype), (tm), (fsec), (tzp))
#endif

/*
 * jsonb_in without catching errors: false when s is not JSON (malformed, \u0000, a bad
 * surrogate), nothing raised; else *out is the jsonb.  A number beyond numeric's range (22003)
 * is raised on every version, as are stack depth, out of memory and cancels.
 * PostgreSQL 16 and later: jsonb_in's soft errors, the overflow raised again.  PostgreSQL 15
 * has no soft errors: s is first checked by the JSON parser, which returns its errors; what
 * only jsonb_in sees (the overflow) is then raised by jsonb_in itself.  Nothing is swallowed.
 */
#include "fmgr.h"
#include "utils/fmgrprotos.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
static inline bool
le_jsonb_in_soft(char *s, Datum *out)
{
	ErrorSaveContext esc = {T_ErrorSaveContext};

	esc.details_wanted = true;
	if (DirectInputFunctionCallSafe(jsonb_in, s, InvalidOid, -1, (Node *) &esc, out))
		return true;
	if (esc.error_data && esc.error_data->sqlerrcode == ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE)
		ThrowErrorData(esc.error_data);
	return false;
}
#else
#include "common/jsonapi.h"
#include "mb/pg_wchar.h"
static inline bool
le_jsonb_in_soft(char *s, Datum *out)
{
	JsonLexContext *lex = makeJsonLexContextCstringLen(s, strlen(s), GetDatabaseEncoding(), true);

	if (pg_parse_json(lex, &nullSemAction) != JSON_SUCCESS)
		return false;
	*out = DirectFunctionCall1(jsonb_in, CStringGetDatum(s));
	return true;
}
#endif

#endif							/* LLM_ECON_COMPAT_H */
