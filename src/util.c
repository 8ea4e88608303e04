/* util.c: helpers the fmgr files share: the core's allocator, interval conversions, kept SPI plans, close-match hints, the arity check. */
#include "llm_econ.h"
#include "core/ascii.h"

#include <math.h>

#include "catalog/pg_collation.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/formatting.h"
#include "utils/memutils.h"
#include "utils/varlena.h"

/* s[0..n) in ASCII lower case, whatever the database's collation (core/ascii.c). */
char *
le_ascii_lower_copy(const char *s, size_t n)
{
	char	   *out = pnstrdup(s, n);

	le_ascii_fold(out, strlen(out));
	return out;
}

/* The core's allocator: palloc/repalloc/pfree in the current context (huge sizes allowed). */
void *
le_palloc(void *ctx, void *ptr, size_t size)
{
	if (size == 0)
	{
		if (ptr)
			pfree(ptr);
		return NULL;
	}
	if (ptr)
		return repalloc_huge(ptr, size);
	return MemoryContextAllocHuge(CurrentMemoryContext, size);
}

/*
 * The library serves the SQL declarations of its own version (update before use,
 * docs/internals.md).  A C function reached through a declaration with another number of
 * arguments (a database not yet updated with ALTER EXTENSION llm_econ UPDATE) stops here,
 * before it reads an argument the call does not have.  It refuses; it never adapts.
 */
void
le_check_nargs(FunctionCallInfo fcinfo, int nargs, const char *fn)
{
	if (PG_NARGS() != nargs)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg_plural("llm_econ.%s is declared with %d argument, its library takes %d",
							   "llm_econ.%s is declared with %d arguments, its library takes %d",
							   PG_NARGS(), fn, PG_NARGS(), nargs),
				 errhint("Run ALTER EXTENSION llm_econ UPDATE in this database (update before use).")));
}

/* The same for a function's result columns (td: what its SQL declaration returns). */
void
le_check_ncols(TupleDesc td, int ncols, const char *fn)
{
	if (td->natts != ncols)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("llm_econ.%s is declared with %d result columns, its library returns %d", fn, td->natts, ncols),
				 errhint("Run ALTER EXTENSION llm_econ UPDATE in this database (update before use).")));
}

/* Seconds in an interval, counted as extract(epoch from ...) counts them. */
double
le_interval_seconds(const Interval *iv)
{
	double		s = iv->time / 1000000.0;

	s += ((double) DAYS_PER_YEAR * SECS_PER_DAY) * (iv->month / MONTHS_PER_YEAR);
	s += ((double) DAYS_PER_MONTH * SECS_PER_DAY) * (iv->month % MONTHS_PER_YEAR);
	s += ((double) SECS_PER_DAY) * iv->day;
	return s;
}

/* A duration as an interval of hours:minutes:seconds (no day or month part, so no DST or calendar effects). */
Interval *
le_seconds_interval(double seconds, const char *what)
{
	Interval   *iv = palloc0(sizeof(Interval));
	double		us = rint(seconds * 1e6);

	if (!(us > -9.2e18 && us < 9.2e18))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s is out of range for type interval", what)));
	iv->time = (int64) us;
	return iv;
}

/*
 * The plan of sql, prepared on first use and kept for the backend's life in
 * *cache (a static of the caller).  Call inside SPI_connect.
 */
SPIPlanPtr
le_spi_plan(SPIPlanPtr *cache, const char *sql, int nargs, Oid *argtypes)
{
	if (*cache == NULL)
	{
		SPIPlanPtr	p = SPI_prepare(sql, nargs, argtypes);

		if (p == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(p);
		*cache = p;
	}
	return *cache;
}

typedef struct Candidate
{
	char	   *name;
	int			dist;
} Candidate;

static int
candidate_cmp(const void *a, const void *b)
{
	const Candidate *x = a,
			   *y = b;

	if (x->dist != y->dist)
		return x->dist - y->dist;
	return strcmp(x->name, y->name);
}

/*
 * A hint naming up to five of the values of query (one text column) near
 * word: edit distance (case-insensitive) within max(2, length / 3), or
 * containing it, nearest first.  When nothing is near and known_list is set,
 * "Known: ..." lists them all if there are at most 20.  NULL when there is
 * nothing to say.  Called inside SPI; the hint is built in outer.
 * Bounded work: a word or value longer than LE_NAME_MAX bytes is not
 * compared, each distance stops at the limit, what is not kept is freed at
 * once, and the loop honours cancel.
 */
char *
le_close_matches(const char *query, const char *word, bool known_list, MemoryContext outer)
{
	size_t		wlen = strlen(word);
	char	   *lw;
	int			lwn;
	int			limit;
	Candidate  *cand;
	int			n = 0;
	StringInfoData buf;
	MemoryContext old;

	if (wlen > LE_NAME_MAX)
		return NULL;
	lw = le_ascii_lower_copy(word, wlen);
	lwn = strlen(lw);
	limit = Max(2, lwn / 3);
	if (SPI_execute(query, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list known values");
	cand = palloc(sizeof(Candidate) * (SPI_processed + 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		size_t		vlen;
		char	   *lv;
		int			d;

		CHECK_FOR_INTERRUPTS();
		if (v == NULL)
			continue;
		vlen = strlen(v);
		if (vlen > LE_NAME_MAX)
		{
			pfree(v);
			continue;
		}
		lv = le_ascii_lower_copy(v, vlen);
		d = varstr_levenshtein_less_equal(lw, lwn, lv, strlen(lv), 1, 1, 1, limit, true);
		if (d > limit && lwn >= 2 && strstr(lv, lw) != NULL)
			d = varstr_levenshtein(lw, lwn, lv, strlen(lv), 1, 1, 1, true);	/* ranks containing names */
		if (d <= limit || (lwn >= 2 && strstr(lv, lw) != NULL))
		{
			cand[n].name = v;
			cand[n].dist = d;
			n++;
		}
		else
			pfree(v);
		pfree(lv);
	}
	old = MemoryContextSwitchTo(outer);
	initStringInfo(&buf);
	if (n > 0)
	{
		qsort(cand, n, sizeof(Candidate), candidate_cmp);
		appendStringInfoString(&buf, "Close matches: ");
		for (int i = 0; i < n && i < 5; i++)
			appendStringInfo(&buf, "%s%s", i ? ", " : "", cand[i].name);
		appendStringInfoChar(&buf, '.');
	}
	else if (known_list && SPI_processed > 0 && SPI_processed <= 20)
	{
		appendStringInfoString(&buf, "Known: ");
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);

			appendStringInfo(&buf, "%s%s", i ? ", " : "", v ? v : "");
		}
		appendStringInfoChar(&buf, '.');
	}
	MemoryContextSwitchTo(old);
	return buf.len > 0 ? buf.data : NULL;
}
