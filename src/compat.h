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

#endif							/* LLM_ECON_COMPAT_H */
