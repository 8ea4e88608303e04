/* guard_fmgr.c: the SQL face of the input bounds (name length). */
#include "llm_econ.h"

#include "utils/builtins.h"

/*
 * Names (SKU, alias, provider, region, instance type) are at most LE_NAME_MAX
 * bytes: a longer one is an error (54000) before any lookup or search, so no
 * caller can make a name search expensive.
 */
void
le_check_name(const char *field, const char *name, size_t len)
{
	(void) name;
	if (len > LE_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s must be at most %d bytes long, got %zu", field, LE_NAME_MAX, len)));
}

PG_FUNCTION_INFO_V1(le_check_name_fn);

/* _check_name(value, field) (STRICT): value if it is at most LE_NAME_MAX bytes, else 54000 naming field. */
Datum
le_check_name_fn(PG_FUNCTION_ARGS)
{
	text	   *v = PG_GETARG_TEXT_PP(0);

	le_check_name(text_to_cstring(PG_GETARG_TEXT_PP(1)), VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
	PG_RETURN_TEXT_P(v);
}
