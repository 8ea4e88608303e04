/* sku.c: finds a GPU SKU by key or alias (case, spaces, - and _ ignored), and suggests close names when it is unknown. */
#include "llm_econ.h"

#include <math.h>

#include "executor/spi.h"
#include "funcapi.h"
#include "utils/array.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/varlena.h"
#include "miscadmin.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"

/*
 * What a name means where a SKU is expected, written once for every part
 * (the run_spec constructor, the price lookups, and SQL: _sku_find,
 * _known_gpus and the importers' _sku_map).  The candidates of names $1 are
 * the keys and aliases that compare equal as llm_econ._name_key (written out:
 * case, spaces, '-' and '_' ignored); pick() ranks them: an exact
 * (case-insensitive) spelling beats a normalised one, a key beats an alias.
 * The GPUs per machine a name means come from the best-ranked candidate that
 * is a machine type (an alias with gpus_per_instance, or a row of llm_econ.instance_type, ranked
 * after the aliases: a slice with GPU count 0, unknown, names its machine type, whose price the
 * lookups leave out, not its GPU's).  Every name is schema-qualified (search_path-proof).  The
 * query reads the tables of this library's version (update before use, docs/internals.md).
 */
static const char *const candidates_sql =
"SELECT n.i, m.sku, m.pref, pg_catalog.lower(m.spelled COLLATE pg_catalog.\"C\") OPERATOR(pg_catalog.<>) pg_catalog.lower(n.name COLLATE pg_catalog.\"C\"),"
"       m.gpus"
"  FROM pg_catalog.unnest($1) WITH ORDINALITY AS n(name, i)"
"  JOIN (SELECT g.sku, 0 AS pref, g.sku AS spelled, NULL::pg_catalog.int4 AS gpus FROM llm_econ.gpu_sku g"
"        UNION ALL"
"        SELECT a.sku, 1, a.alias, a.gpus_per_instance FROM llm_econ.gpu_sku_alias a"
"        UNION ALL"
"        SELECT i.sku, 2, i.instance_type,"
"               CASE WHEN i.gpus OPERATOR(pg_catalog.>=) 1::pg_catalog.numeric THEN i.gpus::pg_catalog.int4 ELSE 0 END"
"          FROM llm_econ.instance_type i) AS m"
"    ON pg_catalog.lower(pg_catalog.translate(m.spelled, ' -_', '') COLLATE pg_catalog.\"C\")"
"       OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.translate(n.name, ' -_', '') COLLATE pg_catalog.\"C\")";
static SPIPlanPtr candidates_plan;

/* What one name means: the SKU (NULL: unknown) and, when it is a machine type, that type and its GPUs. */
typedef struct SkuMatch
{
	char	   *sku;			/* gpu_sku key */
	int			rank;			/* of the candidate giving sku: inexact·3 + pref */
	char	   *itype;			/* the name as a machine type, when sku's candidate is one */
	int32		gpus;			/* GPUs per machine: best machine-type candidate; 0 = unknown */
	int			gpus_rank;
} SkuMatch;

/*
 * The ranking rule: lower is better; an earlier candidate wins a tie.  Every exact spelling
 * (key 0, alias 1, instance type 2) beats every normalised one (3, 4, 5).
 */
static int
pick_rank(bool inexact, int pref)
{
	return (inexact ? 3 : 0) + pref;
}

/*
 * Inside SPI: what each of names[0..n) means, into out[] (palloc'd in outer).
 * The candidates are read through a cursor, LE_SKU_BATCH rows at a time, and
 * what a batch needs is freed with it, so memory grows with the names (about
 * 40 bytes each, plus the names), not with SPI's copies of every candidate;
 * the few distinct SKU keys are kept once each.
 */
#define LE_SKU_BATCH 8192

static void
match_names(Datum *names, int n, SkuMatch *out, MemoryContext outer)
{
	Oid			types[1] = {TEXTARRAYOID};
	Datum		args[1];
	Portal		cur;
	MemoryContext batch = AllocSetContextCreate(CurrentMemoryContext, "llm_econ sku batch", ALLOCSET_DEFAULT_SIZES);
	char	   *keys[8] = {NULL};	/* SKU keys copied into outer (eight distinct ones shared; past that
								 * the last slot is copied again) */

	Assert(outer != CurrentMemoryContext);	/* SPI's context: SPI_finish frees it */
	memset(out, 0, sizeof(SkuMatch) * n);
	args[0] = PointerGetDatum(construct_array(names, n, TEXTOID, -1, false, TYPALIGN_INT));
	cur = SPI_cursor_open(NULL, le_spi_plan(&candidates_plan, candidates_sql, 1, types), args, NULL, true);
	for (;;)
	{
		SPI_cursor_fetch(cur, true, LE_SKU_BATCH);
		if (SPI_processed == 0)
			break;
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			HeapTuple	tup = SPI_tuptable->vals[r];
			TupleDesc	td = SPI_tuptable->tupdesc;
			bool		isnull,
						gnull;
			int64		i = DatumGetInt64(SPI_getbinval(tup, td, 1, &isnull)) - 1;
			int			pref = DatumGetInt32(SPI_getbinval(tup, td, 3, &isnull));
			bool		inexact = DatumGetBool(SPI_getbinval(tup, td, 4, &isnull));
			int32		gpus = DatumGetInt32(SPI_getbinval(tup, td, 5, &gnull));
			int			rank = pick_rank(inexact, pref);
			SkuMatch   *m;

			CHECK_FOR_INTERRUPTS();
			if (i < 0 || i >= n)
				elog(ERROR, "GPU SKU lookup returned a name it was not given");
			m = &out[i];
			if (m->sku == NULL || rank < m->rank)
			{
				MemoryContext old = MemoryContextSwitchTo(batch);
				char	   *key = SPI_getvalue(tup, td, 2);
				int			k;

				for (k = 0; k < 8 && keys[k] && strcmp(keys[k], key) != 0; k++)
					;
				if (k == 8 || keys[k] == NULL)
				{
					k = Min(k, 7);
					keys[k] = MemoryContextStrdup(outer, key);
				}
				m->sku = keys[k];
				m->rank = rank;
				m->itype = gnull ? NULL : MemoryContextStrdup(outer, TextDatumGetCString(names[i]));
				MemoryContextSwitchTo(old);
			}
			if (!gnull && (m->gpus == 0 || rank < m->gpus_rank))
			{
				m->gpus = gpus;
				m->gpus_rank = rank;
			}
		}
		SPI_freetuptable(SPI_tuptable);
		MemoryContextReset(batch);
	}
	SPI_cursor_close(cur);
	MemoryContextDelete(batch);
}

/* Inside SPI: what one name means. */
static void
match_name(text *name, SkuMatch *out, MemoryContext outer)
{
	Datum		d = PointerGetDatum(name);

	match_names(&d, 1, out, outer);
}

/* The hardware figures of key $1, in the order le_sku_lookup reads them. */
static const char *const figures_sql =
"SELECT s.sku, s.fp32_tflops, s.tf32_tflops, s.bf16_tflops, s.fp16_tflops, s.fp8_tflops,"
"       s.hbm_gb, s.nvlink_gb_per_s, s.pcie_gb_per_s,"
"       s.gpus_per_node, s.tdp_watts,"
"       COALESCE(s.hbm_bytes, s.hbm_gb OPERATOR(pg_catalog.*) 1e9::pg_catalog.float8),"
"       s.hbm_gb_per_s, s.generation"
"  FROM llm_econ.gpu_sku s"
" WHERE s.sku OPERATOR(pg_catalog.=) $1";
static SPIPlanPtr figures_plan;

static const char *const names_sql =
"SELECT sku FROM llm_econ.gpu_sku UNION SELECT alias FROM llm_econ.gpu_sku_alias";

/* float8 column i (1-based) of the current SPI row; NaN for NULL. */
static double
spi_float8(int i)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i, &isnull);

	return isnull ? NAN : DatumGetFloat8(d);
}

/* 22023 for a name that is not a GPU, with the close matches hint (computed inside SPI). */
static void
unknown_sku(const char *name, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("sku \"%s\" is not a known GPU", name),
			 hint ? errhint("%s", hint)
			 : errhint("Known SKUs are in llm_econ.gpu_sku, other names for them in llm_econ.gpu_sku_alias.")));
}

/*
 * Look name up as a gpu_sku key or a gpu_sku_alias alias (case-insensitive)
 * and copy its hardware figures into out.  Unknown: 22023 with a hint.
 */
void
le_sku_lookup(const char *name, LeSku *out)
{
	MemoryContext outer = CurrentMemoryContext;
	Oid			types[1] = {TEXTOID};
	Datum		args[1];
	char	   *key;
	char	   *hint = NULL;
	bool		found;
	SkuMatch	m;

	le_check_name("sku", name, strlen(name));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	match_name(cstring_to_text(name), &m, outer);
	found = m.sku != NULL;
	key = m.sku;
	if (found)
	{
		bool		isnull;
		char	   *gen;

		args[0] = CStringGetTextDatum(key);
		if (SPI_execute_plan(le_spi_plan(&figures_plan, figures_sql, 1, types), args, NULL, true, 1) != SPI_OK_SELECT
			|| SPI_processed != 1)
			elog(ERROR, "GPU SKU figures lookup failed");
		strlcpy(out->key, key, sizeof(out->key));
		for (int d = 0; d < LE_DTYPE__COUNT; d++)
			out->tflops[d] = spi_float8(2 + d);
		out->hbm_gb = spi_float8(7);
		out->nvlink_gb_per_s = spi_float8(8);
		out->pcie_gb_per_s = spi_float8(9);
		out->gpus_per_node = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 10, &isnull));
		out->tdp_watts = spi_float8(11);
		out->hbm_bytes = spi_float8(12);
		out->hbm_gb_per_s = spi_float8(13);
		gen = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 14);
		out->generation = gen ? le_enum_parse(LE_E_GPU_GEN, gen, strlen(gen)) : -1;
	}
	else
		hint = le_close_matches(names_sql, name, false, outer);
	SPI_finish();

	if (!found)
		unknown_sku(name, hint);
}

/*
 * What name means where a SKU is expected: its gpu_sku key (*key) and, when
 * it names a machine type, that type (*itype, else NULL); palloc'd in the
 * caller's context.  Unknown: 22023 with close matches.
 */
void
le_sku_resolve(text *name, char **key, char **itype)
{
	MemoryContext outer = CurrentMemoryContext;
	char	   *hint = NULL;
	bool		found;
	SkuMatch	m;

	le_check_name("sku", VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));	/* bounded before any search */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	match_name(name, &m, outer);
	found = m.sku != NULL;
	*key = m.sku;
	if (itype)
		*itype = m.itype;
	if (!found)
		hint = le_close_matches(names_sql, text_to_cstring(name), false, outer);
	SPI_finish();
	if (!found)
		unknown_sku(text_to_cstring(name), hint);
}

/* What the function's one text argument means (for the two scalar SQL faces below). */
static void
match_arg(FunctionCallInfo fcinfo, SkuMatch *m)
{
	MemoryContext outer = CurrentMemoryContext; /* SPI_finish deletes SPI's own */

	memset(m, 0, sizeof(SkuMatch));
	if (VARSIZE_ANY_EXHDR(PG_GETARG_TEXT_PP(0)) > LE_NAME_MAX)
		return;					/* longer than any name run_spec and the price functions accept */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	match_name(PG_GETARG_TEXT_PP(0), m, outer);
	SPI_finish();
}

PG_FUNCTION_INFO_V1(le_sku_find_fn);
/* llm_econ._sku_find(name): the gpu_sku key name means, or NULL. */
Datum
le_sku_find_fn(PG_FUNCTION_ARGS)
{
	SkuMatch	m;

	match_arg(fcinfo, &m);
	if (m.sku == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(m.sku));
}

PG_FUNCTION_INFO_V1(le_known_gpus_fn);
/* llm_econ._known_gpus(instance_type): the GPUs per machine gpu_sku_alias knows for it, or NULL. */
Datum
le_known_gpus_fn(PG_FUNCTION_ARGS)
{
	SkuMatch	m;

	match_arg(fcinfo, &m);
	if (m.gpus == 0)
		PG_RETURN_NULL();
	PG_RETURN_INT32(m.gpus);
}

PG_FUNCTION_INFO_V1(le_sku_map_fn);
/*
 * llm_econ._sku_map(names): for each name that means a SKU (names longer
 * than LE_NAME_MAX bytes mean none),
 * (name, sku, gpus_per_instance or NULL): the importers map all names of a
 * file in one query with the rule of _sku_find and _known_gpus.
 */
Datum
le_sku_map_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *elems;
	bool	   *enulls;
	int			nelems,
				n = 0;
	SkuMatch   *m;
	MemoryContext outer;

	InitMaterializedSRF(fcinfo, 0);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("names must be a one-dimensional array")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &nelems);
	/* NULLs are no names; nor is a name longer than run_spec and the price functions accept */
	for (int i = 0; i < nelems; i++)
		if (!enulls[i] && VARSIZE_ANY_EXHDR(DatumGetPointer(elems[i])) <= LE_NAME_MAX)
			elems[n++] = elems[i];
	if (n == 0)
		PG_RETURN_NULL();
	m = palloc(sizeof(SkuMatch) * n);
	outer = CurrentMemoryContext;	/* SPI_finish deletes SPI's own */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	match_names(elems, n, m, outer);
	SPI_finish();
	for (int i = 0; i < n; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, m[i].gpus == 0};

		CHECK_FOR_INTERRUPTS(); /* the array may hold millions of names */
		if (m[i].sku == NULL)
			continue;
		values[0] = elems[i];
		values[1] = CStringGetTextDatum(m[i].sku);
		values[2] = Int32GetDatum(m[i].gpus);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	PG_RETURN_NULL();
}
