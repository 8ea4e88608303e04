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
 * A minimal tuple of values (focus_worker.c's typing worker).  PostgreSQL 18 added the bytes to reserve
 * before the tuple as a fourth argument.
 */
#if PG_VERSION_NUM >= 180000
#define le_form_minimal_tuple(tupdesc, values, isnull) heap_form_minimal_tuple((tupdesc), (values), (isnull), 0)
#else
#define le_form_minimal_tuple(tupdesc, values, isnull) heap_form_minimal_tuple((tupdesc), (values), (isnull))
#endif

/*
 * Executor calls of the C insert path (focus.c).  Macros, so that this header needs no
 * executor headers; the caller includes them.
 *
 * Permissions: PostgreSQL 16 moved an RTE's requiredPerms/insertedCols into an
 * RTEPermissionInfo kept in a separate list (rteperminfos; needs parser/parse_relation.h).
 * le_perminfo(rte, &perminfos) gives the object to fill: the RTE itself before 16, a new
 * RTEPermissionInfo appended to perminfos (and linked from the RTE) from 16 on.
 */
#if PG_VERSION_NUM >= 160000
#define LePermInfo RTEPermissionInfo
#define le_perminfo(rte, perminfos) addRTEPermissionInfo((perminfos), (rte))
#define le_check_permissions(rtable, perminfos, ereport_on_violation) \
	ExecCheckPermissions((rtable), (perminfos), (ereport_on_violation))
#else
#define LePermInfo RangeTblEntry
#define le_perminfo(rte, perminfos) ((void) (perminfos), (rte))
#define le_check_permissions(rtable, perminfos, ereport_on_violation) \
	((void) (perminfos), ExecCheckRTPerms((rtable), (ereport_on_violation)))
#endif

/*
 * The executor's range table: the permission list since 16; since 18 also the set of
 * range-table indexes not pruned away (every one of ours: the list is one relation).
 */
#if PG_VERSION_NUM >= 180000
#define le_init_range_table(estate, rtable, perminfos) \
	ExecInitRangeTable((estate), (rtable), (perminfos), bms_add_range(NULL, 1, list_length(rtable)))
#elif PG_VERSION_NUM >= 160000
#define le_init_range_table(estate, rtable, perminfos) \
	ExecInitRangeTable((estate), (rtable), (perminfos))
#else
#define le_init_range_table(estate, rtable, perminfos) \
	((void) (perminfos), ExecInitRangeTable((estate), (rtable)))
#endif

/*
 * CheckValidResultRel for a plain INSERT (no ON CONFLICT, no MERGE): PostgreSQL 17 added
 * the MERGE action list, 18 the ON CONFLICT action.
 */
#if PG_VERSION_NUM >= 180000
#define le_check_valid_insert_rel(rri) CheckValidResultRel((rri), CMD_INSERT, ONCONFLICT_NONE, NIL)
#elif PG_VERSION_NUM >= 170000
#define le_check_valid_insert_rel(rri) CheckValidResultRel((rri), CMD_INSERT, NIL)
#else
#define le_check_valid_insert_rel(rri) CheckValidResultRel((rri), CMD_INSERT)
#endif

/*
 * Index entries of a newly inserted row (no ON CONFLICT arbiters): PostgreSQL 16 added
 * onlySummarizing (false: every index, as for an INSERT).  Returns the recheck list.
 */
#if PG_VERSION_NUM >= 160000
#define le_insert_index_tuples(rri, slot, estate) \
	ExecInsertIndexTuples((rri), (slot), (estate), false, false, NULL, NIL, false)
#else
#define le_insert_index_tuples(rri, slot, estate) \
	ExecInsertIndexTuples((rri), (slot), (estate), false, false, NULL, NIL)
#endif

/* index_beginscan: PostgreSQL 18 added an instrumentation argument (NULL: none). */
#if PG_VERSION_NUM >= 180000
#define le_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), (norderbys))
#else
#define le_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), (nkeys), (norderbys))
#endif

#endif							/* LLM_ECON_COMPAT_H */
