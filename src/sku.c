/* sku.c: finds a GPU SKU by key or alias (case, spaces, - and _ ignored), and suggests close names when it is unknown. */
#include "llm_econ.h"

#include <math.h>

#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/varlena.h"
#include "miscadmin.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"

/*
 * Names compare as llm_econ._name_key, written out (case, spaces, '-' and '_' ignored): an exact
 * (case-insensitive) spelling wins over a normalised one, a key over an alias; every name is
 * schema-qualified (search_path-proof).
 * The link columns are read by either name (0.3.0's nvlink_gb_per_s / pcie_gb_per_s, or 0.2.0's
 * nvlink_gbps / pcie_gbps) and hbm_bytes when the column exists, so that this library also serves
 * a database whose extension scripts are not yet updated (ALTER EXTENSION llm_econ UPDATE); so are
 * hbm_gb_per_s (0.2.0: hbm_bandwidth_gbps) and generation (0.3.0, the step-time model's GPU generation).
 */
static const char *const lookup_sql =
"SELECT s.sku, s.fp32_tflops, s.tf32_tflops, s.bf16_tflops, s.fp16_tflops, s.fp8_tflops,"
"       s.hbm_gb,"
"       COALESCE(j OPERATOR(pg_catalog.->>) 'nvlink_gb_per_s', j OPERATOR(pg_catalog.->>) 'nvlink_gbps')::pg_catalog.float8,"
"       COALESCE(j OPERATOR(pg_catalog.->>) 'pcie_gb_per_s', j OPERATOR(pg_catalog.->>) 'pcie_gbps')::pg_catalog.float8,"
"       s.gpus_per_node, s.tdp_watts,"
"       COALESCE((j OPERATOR(pg_catalog.->>) 'hbm_bytes')::pg_catalog.float8, s.hbm_gb OPERATOR(pg_catalog.*) 1e9::pg_catalog.float8),"
"       COALESCE(j OPERATOR(pg_catalog.->>) 'hbm_gb_per_s', j OPERATOR(pg_catalog.->>) 'hbm_bandwidth_gbps')::pg_catalog.float8,"
"       j OPERATOR(pg_catalog.->>) 'generation'"
"  FROM (SELECT g.sku AS key, 0 AS pref,"
"               pg_catalog.lower(g.sku) OPERATOR(pg_catalog.<>) pg_catalog.lower($1) AS inexact"
"          FROM llm_econ.gpu_sku g"
"         WHERE pg_catalog.lower(pg_catalog.translate(g.sku, ' -_', ''))"
"               OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.translate($1, ' -_', ''))"
"        UNION ALL"
"        SELECT a.sku, 1, pg_catalog.lower(a.alias) OPERATOR(pg_catalog.<>) pg_catalog.lower($1)"
"          FROM llm_econ.gpu_sku_alias a"
"         WHERE pg_catalog.lower(pg_catalog.translate(a.alias, ' -_', ''))"
"               OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.translate($1, ' -_', ''))) m"
"  JOIN llm_econ.gpu_sku s ON s.sku OPERATOR(pg_catalog.=) m.key"
"  CROSS JOIN LATERAL pg_catalog.to_jsonb(s) AS j"
" ORDER BY m.inexact, m.pref LIMIT 1";

static const char *const names_sql =
"SELECT sku FROM llm_econ.gpu_sku UNION SELECT alias FROM llm_econ.gpu_sku_alias";

static SPIPlanPtr lookup_plan = NULL;

/* float8 column i (1-based) of the current SPI row; NaN for NULL. */
static double
spi_float8(int i)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i, &isnull);

	return isnull ? NAN : DatumGetFloat8(d);
}

typedef struct Suggestion
{
	char	   *name;
	int			dist;
} Suggestion;

static int
suggestion_cmp(const void *a, const void *b)
{
	const Suggestion *x = a,
			   *y = b;

	if (x->dist != y->dist)
		return x->dist - y->dist;
	return strcmp(x->name, y->name);
}

/*
 * Up to five known names near "name": edit distance (case-insensitive) within
 * a third of the length, or containing it.  Called inside SPI; result in the
 * caller's context.  Bounded: name is at most LE_NAME_MAX bytes (checked by
 * the caller), longer stored names are skipped, each distance stops at the
 * limit (varstr_levenshtein_less_equal), what is not kept is freed at once,
 * and the loop honours cancel.
 */
static char *
close_matches(const char *name, MemoryContext outer)
{
	char	   *lname = str_tolower(name, strlen(name), DEFAULT_COLLATION_OID);
	int			llen = strlen(lname);
	int			limit = Max(2, llen / 3);
	Suggestion *sugg;
	int			n = 0;
	StringInfoData buf;
	MemoryContext old;

	if (SPI_execute(names_sql, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list GPU SKUs");
	sugg = palloc(sizeof(Suggestion) * (SPI_processed + 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *cand = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		size_t		clen = strlen(cand);
		char	   *lcand;
		int			d;

		CHECK_FOR_INTERRUPTS();
		if (clen > LE_NAME_MAX)
		{
			pfree(cand);
			continue;
		}
		lcand = str_tolower(cand, clen, DEFAULT_COLLATION_OID);
		d = varstr_levenshtein_less_equal(lname, llen, lcand, strlen(lcand), 1, 1, 1, limit, true);
		if (d > limit && llen >= 2 && strstr(lcand, lname) != NULL)
			d = varstr_levenshtein(lname, llen, lcand, strlen(lcand), 1, 1, 1, true);	/* ranks containing names */
		if (d <= limit || (llen >= 2 && strstr(lcand, lname) != NULL))
		{
			sugg[n].name = cand;
			sugg[n].dist = d;
			n++;
		}
		else
			pfree(cand);
		pfree(lcand);
	}
	if (n == 0)
		return NULL;
	qsort(sugg, n, sizeof(Suggestion), suggestion_cmp);
	old = MemoryContextSwitchTo(outer);
	initStringInfo(&buf);
	for (int i = 0; i < n && i < 5; i++)
		appendStringInfo(&buf, "%s%s", i ? ", " : "", sugg[i].name);
	MemoryContextSwitchTo(old);
	return buf.data;
}

/*
 * Look name up as a gpu_sku key or a gpu_sku_alias alias (case-insensitive)
 * and copy its hardware figures into out.  Unknown: 22023 with a hint.
 */
void
le_sku_lookup(const char *name, LeSku *out)
{
	MemoryContext outer = CurrentMemoryContext;
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	char	   *hint = NULL;
	bool		found;

	le_check_name("sku", name, strlen(name));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (lookup_plan == NULL)
	{
		SPIPlanPtr	p = SPI_prepare(lookup_sql, 1, argtypes);

		if (p == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(p);
		lookup_plan = p;
	}
	args[0] = CStringGetTextDatum(name);
	if (SPI_execute_plan(lookup_plan, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "GPU SKU lookup failed");
	found = SPI_processed == 1;
	if (found)
	{
		char	   *key = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		bool		isnull;

		strlcpy(out->key, key, sizeof(out->key));
		for (int d = 0; d < 5; d++)
			out->tflops[d] = spi_float8(2 + d);
		out->hbm_gb = spi_float8(7);
		out->nvlink_gb_per_s = spi_float8(8);
		out->pcie_gb_per_s = spi_float8(9);
		out->gpus_per_node = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 10, &isnull));
		out->tdp_watts = spi_float8(11);
		out->hbm_bytes = spi_float8(12);
		out->hbm_gb_per_s = spi_float8(13);
		{
			char	   *gen = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 14);

			out->generation = gen ? le_enum_parse(LE_E_GPU_GEN, gen, strlen(gen)) : -1;
		}
	}
	else
		hint = close_matches(name, outer);
	SPI_finish();

	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sku \"%s\" is not a known GPU", name),
				 hint ? errhint("Close matches: %s.", hint)
				 : errhint("Known SKUs are in llm_econ.gpu_sku, other names for them in llm_econ.gpu_sku_alias.")));
}

/* The gpu_sku key that name means (key or alias, any case); palloc'd. */
char *
le_sku_resolve(text *name)
{
	LeSku		sku;

	le_check_name("sku", VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));	/* before copying it */
	le_sku_lookup(text_to_cstring(name), &sku);
	return pstrdup(sku.key);
}
