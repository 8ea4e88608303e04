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
 * What a name means where a SKU is expected: the gpu_sku key and, when the
 * name is a machine type (an alias with gpus_per_instance), that machine type.
 * This query is the one definition of it: the run_spec constructor, the price
 * lookups and the importers (llm_econ._sku_find, which SQL calls) all use it.
 * Names compare as llm_econ._name_key, written out (case, spaces, '-' and '_'
 * ignored); an exact (case-insensitive) spelling beats a normalised one, a key
 * beats an alias; every name is schema-qualified (search_path-proof).
 */
static const char *const match_sql =
"SELECT m.sku, m.itype FROM ("
"  SELECT g.sku, NULL::text AS itype, 0 AS pref,"
"         pg_catalog.lower(g.sku) OPERATOR(pg_catalog.<>) pg_catalog.lower($1) AS inexact"
"    FROM llm_econ.gpu_sku g"
"   WHERE pg_catalog.lower(pg_catalog.translate(g.sku, ' -_', ''))"
"         OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.translate($1, ' -_', ''))"
"  UNION ALL"
"  SELECT a.sku, CASE WHEN a.gpus_per_instance IS NOT NULL THEN a.alias END, 1,"
"         pg_catalog.lower(a.alias) OPERATOR(pg_catalog.<>) pg_catalog.lower($1)"
"    FROM llm_econ.gpu_sku_alias a"
"   WHERE pg_catalog.lower(pg_catalog.translate(a.alias, ' -_', ''))"
"         OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.translate($1, ' -_', ''))) m"
" ORDER BY m.inexact, m.pref LIMIT 1";
static SPIPlanPtr match_plan;

/*
 * The hardware figures of key $1.  The link columns are read by either name
 * (0.3.0's nvlink_gb_per_s / pcie_gb_per_s, or 0.2.0's nvlink_gbps /
 * pcie_gbps) and hbm_bytes when the column exists, so that this library also
 * serves a database whose extension scripts are not yet updated (ALTER
 * EXTENSION llm_econ UPDATE); so are hbm_gb_per_s (0.2.0: hbm_bandwidth_gbps)
 * and generation (0.3.0, the step-time model's GPU generation).
 */
static const char *const figures_sql =
"SELECT s.sku, s.fp32_tflops, s.tf32_tflops, s.bf16_tflops, s.fp16_tflops, s.fp8_tflops,"
"       s.hbm_gb,"
"       COALESCE(j OPERATOR(pg_catalog.->>) 'nvlink_gb_per_s', j OPERATOR(pg_catalog.->>) 'nvlink_gbps')::pg_catalog.float8,"
"       COALESCE(j OPERATOR(pg_catalog.->>) 'pcie_gb_per_s', j OPERATOR(pg_catalog.->>) 'pcie_gbps')::pg_catalog.float8,"
"       s.gpus_per_node, s.tdp_watts,"
"       COALESCE((j OPERATOR(pg_catalog.->>) 'hbm_bytes')::pg_catalog.float8, s.hbm_gb OPERATOR(pg_catalog.*) 1e9::pg_catalog.float8),"
"       COALESCE(j OPERATOR(pg_catalog.->>) 'hbm_gb_per_s', j OPERATOR(pg_catalog.->>) 'hbm_bandwidth_gbps')::pg_catalog.float8,"
"       j OPERATOR(pg_catalog.->>) 'generation'"
"  FROM llm_econ.gpu_sku s CROSS JOIN LATERAL pg_catalog.to_jsonb(s) AS j"
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

/*
 * Inside SPI: match name (match_sql); on a match set *key and, when wanted,
 * *itype (NULL unless a machine type), copied into outer.
 */
static bool
match_in_spi(text *name, MemoryContext outer, char **key, char **itype)
{
	Oid			types[1] = {TEXTOID};
	Datum		args[1] = {PointerGetDatum(name)};
	char	   *v;

	if (SPI_execute_plan(le_spi_plan(&match_plan, match_sql, 1, types), args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "GPU SKU lookup failed");
	if (SPI_processed != 1)
		return false;
	*key = MemoryContextStrdup(outer, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	if (itype)
	{
		v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
		*itype = v ? MemoryContextStrdup(outer, v) : NULL;
	}
	return true;
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
	char	   *key = NULL;
	char	   *hint = NULL;
	bool		found;

	le_check_name("sku", name, strlen(name));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = match_in_spi(cstring_to_text(name), outer, &key, NULL);
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

	le_check_name("sku", VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));	/* bounded before any search */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = match_in_spi(name, outer, key, itype);
	if (!found)
		hint = le_close_matches(names_sql, text_to_cstring(name), false, outer);
	SPI_finish();
	if (!found)
		unknown_sku(text_to_cstring(name), hint);
}

PG_FUNCTION_INFO_V1(le_sku_find_fn);
/*
 * llm_econ._sku_find(name): the gpu_sku key name means, or NULL (importers
 * look names up with it, so SQL and C share match_sql).
 */
Datum
le_sku_find_fn(PG_FUNCTION_ARGS)
{
	MemoryContext outer = CurrentMemoryContext;
	char	   *key = NULL;
	bool		found;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = match_in_spi(PG_GETARG_TEXT_PP(0), outer, &key, NULL);
	SPI_finish();
	if (!found)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(key));
}

