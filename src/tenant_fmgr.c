/* tenant_fmgr.c: the row-level security test of the finance tables: is the current user a member of the tenant's role. */
#include "llm_econ.h"

#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

/*
 * The policies of run_plan, spend and focus_statement_lock call this once per row, so it must
 * cost next to nothing: no query, no subtransaction.  A policy on a Citus distributed table may
 * not hold a subquery (Citus refuses it), so the test cannot be lifted into an InitPlan; instead
 * the answer for the last (user, tenant) is kept for the rest of the query (fn_extra).  The
 * answer is pg_has_role(tenant, 'MEMBER') when such a role exists, else false: membership,
 * direct or through other roles, whether inherited or not; superusers are members of every role.
 */
typedef struct TenantMemo
{
	Oid			user;
	bool		member;
	int			len;			/* -1: nothing kept yet */
	char		name[NAMEDATALEN];
} TenantMemo;

PG_FUNCTION_INFO_V1(le_is_tenant_member_fn);

/* _is_tenant_member(tenant) (STRICT, STABLE): whether the current user is a member of the role named tenant. */
Datum
le_is_tenant_member_fn(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int			len = VARSIZE_ANY_EXHDR(t);
	Oid			user = GetUserId();
	TenantMemo *memo = (TenantMemo *) fcinfo->flinfo->fn_extra;
	char		name[NAMEDATALEN];
	Oid			role;

	/* no role name is NAMEDATALEN bytes or longer, or holds a NUL: no such role */
	if (len >= NAMEDATALEN || memchr(VARDATA_ANY(t), '\0', len) != NULL)
		PG_RETURN_BOOL(false);
	if (memo == NULL)
	{
		memo = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(TenantMemo));
		memo->len = -1;
		fcinfo->flinfo->fn_extra = memo;
	}
	if (memo->len == len && memo->user == user && memcmp(memo->name, VARDATA_ANY(t), len) == 0)
		PG_RETURN_BOOL(memo->member);

	memcpy(name, VARDATA_ANY(t), len);
	name[len] = '\0';
	role = get_role_oid(name, true);
	memo->member = OidIsValid(role) && is_member_of_role(user, role);
	memo->user = user;
	memo->len = len;
	memcpy(memo->name, name, len + 1);
	PG_RETURN_BOOL(memo->member);
}
