/* compat.h: the one place that adapts the fmgr layer to PostgreSQL 15, 16, 17 and 18 (checks by PG_VERSION_NUM). */
#ifndef LLM_ECON_COMPAT_H
#define LLM_ECON_COMPAT_H

#include "postgres.h"

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

#endif							/* LLM_ECON_COMPAT_H */
