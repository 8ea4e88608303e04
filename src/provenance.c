/* provenance.c: price_snapshot.source_kind is the price recorder's to set (catalog, history), never a plain INSERT's or a setting's. */
#include "llm_econ.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

/*
 * The kind of the rows the recorder (llm_econ._record_prices) is writing, and
 * the role it writes them as.  _record_prices runs as the extension's owner
 * (SECURITY DEFINER), and only the owner may execute _import_kind(), which sets
 * this; the column default _source_kind() gives the kind only to inserts that
 * run as that same role while it is set, so a plain INSERT, whatever the
 * session set, stores 'manual'.  Cleared at the end of every transaction (an
 * error inside the recorder cannot leave it set).
 */
static char import_kind[16];
static Oid	import_kind_user = InvalidOid;

static void
provenance_xact_end(XactEvent event, void *arg)
{
	(void) arg;
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_PREPARE)
	{
		import_kind[0] = '\0';
		import_kind_user = InvalidOid;
	}
}

void
le_provenance_init(void)
{
	RegisterXactCallback(provenance_xact_end, NULL);
}

PG_FUNCTION_INFO_V1(le_import_kind_fn);

/* _import_kind(kind): 'catalog' or 'history' while the recorder writes; NULL clears it. */
Datum
le_import_kind_fn(PG_FUNCTION_ARGS)
{
	char	   *k;

	if (PG_ARGISNULL(0))
	{
		import_kind[0] = '\0';
		import_kind_user = InvalidOid;
		PG_RETURN_VOID();
	}
	k = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (strcmp(k, "catalog") != 0 && strcmp(k, "history") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("kind must be catalog or history, got \"%s\"", k)));
	strlcpy(import_kind, k, sizeof(import_kind));
	import_kind_user = GetUserId();
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(le_source_kind_fn);

/* _source_kind(): the default of price_snapshot.source_kind. */
Datum
le_source_kind_fn(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	if (import_kind[0] != '\0' && import_kind_user == GetUserId())
		PG_RETURN_TEXT_P(cstring_to_text(import_kind));
	PG_RETURN_TEXT_P(cstring_to_text("manual"));
}

PG_FUNCTION_INFO_V1(le_kind_allowed_fn);

/*
 * _kind_allowed(): rows may carry a kind other than manual: while the recorder
 * writes, or when the role the session acts as (SET ROLE, not a SECURITY
 * DEFINER function's owner) is a superuser: the install's COPY of the shipped
 * history, a restore.
 */
Datum
le_kind_allowed_fn(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_BOOL(import_kind[0] != '\0' || superuser_arg(GetOuterUserId()));
}

PG_FUNCTION_INFO_V1(le_check_price_writer_fn);

/*
 * _check_price_writer(): the role the session acts as (SET ROLE, outside any
 * SECURITY DEFINER function) may INSERT into price_snapshot, else the error
 * PostgreSQL gives for that INSERT.  The recorder runs as the owner; this is
 * how it keeps the caller's rights.
 */
Datum
le_check_price_writer_fn(PG_FUNCTION_ARGS)
{
	Oid			rel = get_relname_relid("price_snapshot", get_namespace_oid("llm_econ", false));
	AclResult	r;

	(void) fcinfo;
	if (!OidIsValid(rel))
		elog(ERROR, "llm_econ.price_snapshot does not exist");
	r = pg_class_aclcheck(rel, GetOuterUserId(), ACL_INSERT);
	if (r != ACLCHECK_OK)
		aclcheck_error(r, OBJECT_TABLE, "price_snapshot");
	PG_RETURN_VOID();
}
