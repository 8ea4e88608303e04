/* price.c: as-of price lookups in price_snapshot (price_at) and the cost of a run at a looked-up price. */
#include "llm_econ.h"
#include "core/series.h"

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/varlena.h"

/*
 * The price lookup is SQL's, defined once: llm_econ._latest_prices (src/sql/prices.sql) gives
 * every series' price in effect at "at" (suspect prices, withdrawals, slices of a GPU and
 * prices last seen more than max_age before "at" left out; regions compared ASCII
 * case-insensitively); price_at is the cheapest of them.  The library serves the schema of its
 * own version (update before use: docs/internals.md), so the query is fixed.
 */
static const char *const price_sql =
"SELECT pg_catalog.min(l.usd_per_gpu_hour)"
"  FROM llm_econ._latest_prices($1,"
"         pg_catalog.lower(pg_catalog.btrim($2) COLLATE pg_catalog.\"C\") COLLATE pg_catalog.\"default\","
"         $3, $4, $5, $6, $7, false) l";
static SPIPlanPtr price_plan;

/*
 * What a run pays per GPU-hour of its own GPUs from provider ($4) at "at" ($6): the machine
 * that makes it cheapest (whole instances, idle GPUs paid).  llm_econ._run_price's body, over
 * the set-returning _run_offers, which the planner inlines: one cached plan (a call of the
 * scalar SQL function would plan its body again on every call, three times slower).
 */
static const char *const run_price_sql =
"SELECT pg_catalog.min(o.run_usd_per_gpu_hour)"
"  FROM llm_econ._run_offers($1, $2, $3,"
"         pg_catalog.lower(pg_catalog.btrim($4) COLLATE pg_catalog.\"C\") COLLATE pg_catalog.\"default\","
"         $5, $6, $7, $8) o";
static SPIPlanPtr run_price_plan;

/* Validate a pricing kind (any case, blanks around ignored); returns its canonical name. */
const char *
le_check_pricing(text *pricing)
{
	le_error	err;
	int			code;
	char	   *s = text_to_cstring(pricing);
	char	   *l;
	size_t		n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	l = le_ascii_lower_copy(s, n);
	le_check(le_check_enum("pricing", LE_E_PRICING, l, strlen(l), &code, &err), &err);
	return le_enum_label(LE_E_PRICING, code);
}

/* max_age: NULL or a finite interval >= 0, else 22023. */
static void
check_max_age(Interval *max_age)
{
	if (max_age == NULL)
		return;
	if (max_age->month < 0 || max_age->day < 0 || max_age->time < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_age must be an interval >= 0 (or NULL for no bound), got %s",
						DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(max_age))))));
}

/*
 * Raise 22023 when provider has no price series at all, or region (when
 * given) is not a region of any of its series; a hint lists close matches.
 */
static void
check_where(text *provider, text *region)
{
	MemoryContext outer = CurrentMemoryContext;
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		args[2];
	char		nulls[2] = {' ', region ? ' ' : 'n'};
	char	   *prov;
	char	   *reg;
	bool		prov_known,
				region_known = true,
				isnull;
	char	   *hint = NULL;

	/* a name no series can have is refused before it is quoted in a message */
	le_check_name("provider", VARDATA_ANY(provider), VARSIZE_ANY_EXHDR(provider));
	if (region)
		le_check_name("region", VARDATA_ANY(region), VARSIZE_ANY_EXHDR(region));
	prov = text_to_cstring(provider);
	reg = region ? text_to_cstring(region) : NULL;
	args[0] = PointerGetDatum(provider);
	args[1] = region ? PointerGetDatum(region) : (Datum) 0;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args(
			"SELECT EXISTS (SELECT 1 FROM llm_econ.price_series s"
			"                WHERE s.provider OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.btrim($1) COLLATE pg_catalog.\"C\") COLLATE pg_catalog.\"default\"),"
			"       $2 IS NULL OR EXISTS (SELECT 1 FROM llm_econ.price_series s"
			"                WHERE s.provider OPERATOR(pg_catalog.=) pg_catalog.lower(pg_catalog.btrim($1) COLLATE pg_catalog.\"C\") COLLATE pg_catalog.\"default\""
			"                  AND pg_catalog.lower(s.region COLLATE pg_catalog.\"C\") OPERATOR(pg_catalog.=) pg_catalog.lower($2 COLLATE pg_catalog.\"C\"))",
			2, types, args, nulls, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "provider check failed");
	prov_known = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	region_known = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	if (!prov_known)
		hint = le_close_matches("SELECT DISTINCT provider FROM llm_econ.price_series ORDER BY 1", prov, true, outer);
	else if (!region_known)
	{
		char	   *q = psprintf("SELECT DISTINCT region FROM llm_econ.price_series"
								 " WHERE provider OPERATOR(pg_catalog.=) %s AND region IS NOT NULL ORDER BY 1",
								 quote_literal_cstr(le_ascii_lower_copy(prov, strlen(prov))));

		hint = le_close_matches(q, reg, true, outer);
	}
	SPI_finish();
	if (!prov_known)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("provider \"%s\" has no prices", prov),
				 hint ? errhint("%s", hint) :
				 errhint("Prices are in llm_econ.price_snapshot.")));
	if (!region_known)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("region \"%s\" has no prices from provider \"%s\"", reg, prov),
				 hint ? errhint("%s", hint) :
				 errhint("Region names are the provider's (a region, not a zone).")));
}

/*
 * Whether t + sign * by falls outside the timestamp range: -1 before its
 * start, 1 past its end, 0 inside (t finite; a year of slack, and 1% on by,
 * cover the calendar's month and year lengths, so 0 means the sum exists).
 */
static int
shift_outside(TimestampTz t, const Interval *by, int sign)
{
	double		secs,
				slack = DAYS_PER_YEAR * SECS_PER_DAY;

	if (TIMESTAMP_NOT_FINITE(t))
		return 0;
	secs = (double) t / USECS_PER_SEC + sign * le_interval_seconds(by) * 1.01;
	if (secs < (double) MIN_TIMESTAMP / USECS_PER_SEC + slack)
		return -1;
	if (secs > (double) END_TIMESTAMP / USECS_PER_SEC - slack)
		return 1;
	return 0;
}

/* Bind max_age: a bound reaching back past the earliest timestamp bounds nothing (shift_outside). */
static Interval *
age_bound(TimestampTz at, Interval *max_age)
{
	check_max_age(max_age);
	if (max_age && shift_outside(at, max_age, -1) < 0)
		return NULL;
	return max_age;
}

/*
 * The one price query both lookups run: its first column of one row, copied into the caller's
 * context.  *found is false when it is NULL, and then an unknown provider or region is an error.
 */
static Numeric
price_query(SPIPlanPtr *plan, const char *sql, int nargs, Oid *types, Datum *args, const char *nulls,
			text *provider, text *region, bool *found)
{
	bool		isnull;
	Datum		d;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_plan(le_spi_plan(plan, sql, nargs, types), args, nulls, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "price lookup failed");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		d = SPI_datumTransfer(d, false, -1);	/* copied into the caller's context */
	SPI_finish();
	*found = !isnull;
	if (isnull)
		check_where(provider, region);	/* unknown provider or region: an error, not NULL */
	/* detoast only now: a short-header copy would otherwise be expanded in SPI's context */
	return isnull ? NULL : DatumGetNumeric(d);
}

/*
 * The cheapest price of sku (a gpu_sku key; itype: only that machine type,
 * or NULL) from provider in effect at "at", in region (NULL: any region), last
 * seen no more than max_age before "at" (NULL: any age).  *found is false when nothing is known;
 * a provider or region without any price series is an error.
 */
Numeric
le_price_lookup(const char *sku, const char *itype, text *provider, text *pricing,
				TimestampTz at, text *region, Interval *max_age, bool *found)
{
	Oid			types[7] = {TEXTOID, TEXTOID, TEXTOID, TIMESTAMPTZOID, TEXTOID, TEXTOID, INTERVALOID};
	Datum		args[7];
	char		nulls[8] = "       ";

	le_check_name("provider", VARDATA_ANY(provider), VARSIZE_ANY_EXHDR(provider));
	if (region)
		le_check_name("region", VARDATA_ANY(region), VARSIZE_ANY_EXHDR(region));
	max_age = age_bound(at, max_age);
	args[0] = CStringGetTextDatum(sku);
	args[1] = PointerGetDatum(provider);
	args[2] = CStringGetTextDatum(le_check_pricing(pricing));
	args[3] = TimestampTzGetDatum(at);
	args[4] = PointerGetDatum(region);
	nulls[4] = region ? ' ' : 'n';
	args[5] = itype ? CStringGetTextDatum(itype) : (Datum) 0;
	nulls[5] = itype ? ' ' : 'n';
	args[6] = PointerGetDatum(max_age);
	nulls[6] = max_age ? ' ' : 'n';

	return price_query(&price_plan, price_sql, 7, types, args, nulls, provider, region, found);
}

/*
 * What a run of n_gpus GPUs (gpus_per_node per node) on sku pays per GPU-hour of its own GPUs
 * from provider at "at" (llm_econ._run_price); *found as in le_price_lookup.
 */
static Numeric
run_price_lookup(const char *sku, int n_gpus, int gpus_per_node, text *provider, text *pricing,
				 TimestampTz at, text *region, Interval *max_age, bool *found)
{
	Oid			types[8] = {TEXTOID, INT4OID, INT4OID, TEXTOID, TEXTOID, TIMESTAMPTZOID, TEXTOID, INTERVALOID};
	Datum		args[8];
	char		nulls[9] = "        ";

	le_check_name("provider", VARDATA_ANY(provider), VARSIZE_ANY_EXHDR(provider));
	if (region)
		le_check_name("region", VARDATA_ANY(region), VARSIZE_ANY_EXHDR(region));
	max_age = age_bound(at, max_age);
	args[0] = CStringGetTextDatum(sku);
	args[1] = Int32GetDatum(n_gpus);
	args[2] = Int32GetDatum(gpus_per_node);
	args[3] = PointerGetDatum(provider);
	args[4] = CStringGetTextDatum(le_check_pricing(pricing));
	args[5] = TimestampTzGetDatum(at);
	args[6] = PointerGetDatum(region);
	nulls[6] = region ? ' ' : 'n';
	args[7] = PointerGetDatum(max_age);
	nulls[7] = max_age ? ' ' : 'n';

	return price_query(&run_price_plan, run_price_sql, 8, types, args, nulls, provider, region, found);
}

/* The last SKU name this call site resolved, its key and machine type (a query usually repeats one). */
typedef struct SkuKeyCache
{
	uint64		stamp;			/* le_cache_fresh: valid for one command */
	text	   *name;
	char	   *key;
	char	   *itype;			/* NULL: the name is not a machine type */
} SkuKeyCache;

static const char *
cached_sku_key(FunctionCallInfo fcinfo, text *name, const char **itype)
{
	LeFnCache  *c = le_fn_cache(fcinfo);
	SkuKeyCache *k = c->extra;
	char	   *key;
	char	   *it;

	if (k == NULL)
		c->extra = k = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(SkuKeyCache));
	if (k->name && le_cache_fresh(&k->stamp) &&
		VARSIZE_ANY_EXHDR(k->name) == VARSIZE_ANY_EXHDR(name) &&
		memcmp(VARDATA_ANY(k->name), VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)) == 0)
	{
		*itype = k->itype;
		return k->key;
	}
	le_sku_resolve(name, &key, &it);	/* unknown: 22023 with close matches */
	if (k->name)
	{
		pfree(k->name);
		pfree(k->key);
		if (k->itype)
			pfree(k->itype);
	}
	k->name = (text *) MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, VARSIZE_ANY(name));
	memcpy(k->name, name, VARSIZE_ANY(name));
	k->key = MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, key);
	k->itype = it ? MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, it) : NULL;
	(void) le_cache_fresh(&k->stamp);
	*itype = k->itype;
	return k->key;
}

PG_FUNCTION_INFO_V1(le_price_at_fn);

/*
 * price_at(sku, provider, pricing, at, region, max_age): $/GPU-hour in effect
 * at "at"; NULL when nothing is known.  NULL sku/provider/pricing/at give
 * NULL (as a STRICT function would); region NULL means the cheapest region,
 * max_age NULL no bound.  A machine-type name prices that machine type.
 */
Datum
le_price_at_fn(PG_FUNCTION_ARGS)
{
	const char *sku;
	const char *itype;
	Numeric		price;
	bool		found;

	le_check_nargs(fcinfo, 6, "price_at");
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	sku = cached_sku_key(fcinfo, PG_GETARG_TEXT_PP(0), &itype);
	price = le_price_lookup(sku, itype, PG_GETARG_TEXT_PP(1), PG_GETARG_TEXT_PP(2),
							PG_GETARG_TIMESTAMPTZ(3),
							PG_ARGISNULL(4) ? NULL : PG_GETARG_TEXT_PP(4),
							PG_ARGISNULL(5) ? NULL : PG_GETARG_INTERVAL_P(5), &found);
	if (!found)
		PG_RETURN_NULL();
	PG_RETURN_NUMERIC(price);
}

PG_FUNCTION_INFO_V1(le_estimate_cost_at_fn);

/*
 * estimate_cost(spec, provider, pricing, at, region, max_age): gpu_hours at
 * what the run pays per GPU-hour of its GPUs in effect at "at", renting whole machines
 * (the cheapest machine for it: llm_econ._run_price); an error when no price is known.
 */
Datum
le_estimate_cost_at_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		hours;
	text	   *region;
	Interval   *max_age;
	Numeric		price;
	bool		found;
	char	   *sku;

	le_check_nargs(fcinfo, 6, "estimate_cost");
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_check_fields(&s, LE_BIT(LE_F_SKU) | LE_BIT(LE_F_GPUS_PER_NODE), &err), &err);
	le_check(le_gpu_hours(&s, &hours, &err), &err);
	sku = pnstrdup(s.text[LE_F_SKU], s.textlen[LE_F_SKU]);
	region = PG_ARGISNULL(4) ? NULL : PG_GETARG_TEXT_PP(4);
	max_age = PG_ARGISNULL(5) ? NULL : PG_GETARG_INTERVAL_P(5);
	/* the run rents whole machines: the one that makes it cheapest, idle GPUs paid */
	price = run_price_lookup(sku, (int) s.num[LE_F_N_GPUS], (int) s.num[LE_F_GPUS_PER_NODE],
							 PG_GETARG_TEXT_PP(1), PG_GETARG_TEXT_PP(2),
							 PG_GETARG_TIMESTAMPTZ(3), region, max_age, &found);
	if (!found)
	{
		bool		priced;

		/* prices there, but no machine that can carry the run: say so */
		(void) le_price_lookup(sku, NULL, PG_GETARG_TEXT_PP(1), PG_GETARG_TEXT_PP(2),
							   PG_GETARG_TIMESTAMPTZ(3), region, max_age, &priced);
		if (priced)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("no machine of provider \"%s\" priced for sku \"%s\" can carry a run of %d GPUs",
							text_to_cstring(PG_GETARG_TEXT_PP(1)), sku, (int) s.num[LE_F_N_GPUS]),
					 errdetail("A run rents whole machines; beyond one machine it needs machines of at least gpus_per_node (%d) GPUs.",
							   (int) s.num[LE_F_GPUS_PER_NODE]),
					 errhint("Run on fewer GPUs, or pass a price: estimate_cost(spec, usd_per_gpu_hour).")));
	}
	if (!found)
	{
		const char *pr = le_check_pricing(PG_GETARG_TEXT_PP(2));
		char	   *prov = text_to_cstring(PG_GETARG_TEXT_PP(1));
		const char *at = timestamptz_to_str(PG_GETARG_TIMESTAMPTZ(3));
		char	   *reg = region ? text_to_cstring(region) : NULL;
		char	   *age = max_age ? DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(max_age))) : NULL;

		/* one whole message per combination of the optional bounds */
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 reg && age ? errmsg("no %s price is known for sku \"%s\" from provider \"%s\" in region \"%s\" at %s no older than %s",
									 pr, sku, prov, reg, at, age) :
				 reg ? errmsg("no %s price is known for sku \"%s\" from provider \"%s\" in region \"%s\" at %s",
							  pr, sku, prov, reg, at) :
				 age ? errmsg("no %s price is known for sku \"%s\" from provider \"%s\" at %s no older than %s",
							  pr, sku, prov, at, age) :
				 errmsg("no %s price is known for sku \"%s\" from provider \"%s\" at %s", pr, sku, prov, at),
				 errhint("Prices are in llm_econ.price_snapshot; or pass a price: estimate_cost(spec, usd_per_gpu_hour).")));
	}
	PG_RETURN_NUMERIC(le_hours_times_price(hours, price));
}

PG_FUNCTION_INFO_V1(le_check_pricing_fn);

/* _check_pricing(pricing): the canonical pricing kind if valid (NULL passes), else 22023 */
Datum
le_check_pricing_fn(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(le_check_pricing(PG_GETARG_TEXT_PP(0))));
}

PG_FUNCTION_INFO_V1(le_check_source_kinds_fn);

/*
 * _check_source_kinds(kinds): the kinds, canonical (lower case, blanks around
 * ignored), if every element is one of catalog, history, seed, manual; NULL
 * passes (all kinds).  An empty list, a NULL element or another name is 22023
 * naming the valid ones (a misspelled kind used to match nothing, silently).
 */
Datum
le_check_source_kinds_fn(PG_FUNCTION_ARGS)
{
	ArrayType  *a;
	Datum	   *elems;
	bool	   *isnull;
	int			n;
	Datum	   *out;
	le_error	err;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	a = PG_GETARG_ARRAYTYPE_P(0);
	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("source_kinds must be a one-dimensional list of catalog, history, seed, manual")));
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elems, &isnull, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("source_kinds must list at least one of catalog, history, seed, manual (NULL = all kinds), got an empty list")));
	out = palloc(sizeof(Datum) * n);
	for (int i = 0; i < n; i++)
	{
		char	   *s;
		char	   *l;
		size_t		len;
		int			code;

		if (isnull[i])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("source_kinds elements must be one of catalog, history, seed, manual, got NULL")));
		s = TextDatumGetCString(elems[i]);
		while (*s == ' ')
			s++;
		len = strlen(s);
		while (len > 0 && s[len - 1] == ' ')
			len--;
		l = le_ascii_lower_copy(s, len);
		le_check(le_check_enum("source_kinds elements", LE_E_SOURCE_KIND, l, strlen(l), &code, &err), &err);
		out[i] = CStringGetTextDatum(le_enum_label(LE_E_SOURCE_KIND, code));
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(out, n, TEXTOID, -1, false, TYPALIGN_INT));
}

PG_FUNCTION_INFO_V1(le_reraise_fn);

/* Whether a CONTEXT line is a frame of the extension's own code (its SQL or PL/pgSQL). */
static bool
internal_frame(const char *line)
{
	static const char *const prefix[] = {"SQL statement \"", "SQL expression \"", "SQL function \"",
	"PL/pgSQL function ", "PL/pgSQL assignment \"", "compilation of PL/pgSQL function ", NULL};

	for (int i = 0; prefix[i]; i++)
		if (strncmp(line, prefix[i], strlen(prefix[i])) == 0)
			return true;
	return false;
}

/*
 * _reraise(sqlstate, message, detail, hint, context): raises the error a
 * user-facing PL/pgSQL function caught (GET STACKED DIAGNOSTICS) again, with
 * its SQLSTATE, message, detail and hint, and of its CONTEXT only the lines
 * that speak to the user (a CSV's line and column), up to the first frame of
 * the extension's own code: no internal query text (issue 31: a missing CSV
 * column printed ~60 lines of an internal CTE).  The context stack is cleared
 * while it raises, so the frames of the caller are not added either.
 */
Datum
le_reraise_fn(PG_FUNCTION_ARGS)
{
	char	   *state = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *msg = PG_ARGISNULL(1) ? pstrdup("(no message)") : text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *detail = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	char	   *hint = PG_ARGISNULL(3) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(3));
	char	   *ctx = PG_ARGISNULL(4) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(4));
	int			code = ERRCODE_INVALID_PARAMETER_VALUE;	/* a caught error always has one */
	StringInfoData keep;

	if (state && strlen(state) == 5 && strspn(state, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == 5)
		code = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
	initStringInfo(&keep);
	if (ctx)
	{
		char	   *line = ctx;

		while (*line && !internal_frame(line))
		{
			char	   *end = strchr(line, '\n');
			int			len = end ? (int) (end - line) : (int) strlen(line);

			appendStringInfo(&keep, "%s%.*s", keep.len ? "\n" : "", len, line);
			line = end ? end + 1 : line + len;
		}
	}
	if (detail && detail[0] == '\0')
		detail = NULL;
	if (hint && hint[0] == '\0')
		hint = NULL;
	error_context_stack = NULL;
	ereport(ERROR,
			(errcode(code),
			 errmsg_internal("%s", msg),
			 detail ? errdetail_internal("%s", detail) : 0,
			 hint ? errhint("%s", hint) : 0,
			 keep.len ? errcontext("%s", keep.data) : 0));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(le_sku_key_fn);

/* _sku_key(name): the gpu_sku key that name means */
Datum
le_sku_key_fn(PG_FUNCTION_ARGS)
{
	char	   *key;
	char	   *itype;

	le_sku_resolve(PG_GETARG_TEXT_PP(0), &key, &itype);
	PG_RETURN_TEXT_P(cstring_to_text(key));
}

PG_FUNCTION_INFO_V1(le_sku_itype_fn);

/* _sku_itype(name): the machine type that name means, or NULL */
Datum
le_sku_itype_fn(PG_FUNCTION_ARGS)
{
	char	   *key;
	char	   *itype;

	le_sku_resolve(PG_GETARG_TEXT_PP(0), &key, &itype);
	if (itype == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(itype));
}

PG_FUNCTION_INFO_V1(le_check_where_fn);

/* _check_where(provider, region): 22023 when either has no price series */
Datum
le_check_where_fn(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_VOID();
	check_where(PG_GETARG_TEXT_PP(0), PG_ARGISNULL(1) ? NULL : PG_GETARG_TEXT_PP(1));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(le_check_max_age_fn);

/* _check_max_age(max_age): max_age if NULL or >= 0 in every part, else 22023 */
Datum
le_check_max_age_fn(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	check_max_age(PG_GETARG_INTERVAL_P(0));
	PG_RETURN_INTERVAL_P(PG_GETARG_INTERVAL_P(0));
}

PG_FUNCTION_INFO_V1(le_shift_fn);

/*
 * _shift(t, by): t + by, or -infinity / infinity when the sum is outside the
 * timestamp range (where PostgreSQL's + raises 22008): an age bound reaching
 * past the range is no bound, as in price_at.  t infinite: t (as + gives).
 */
Datum
le_shift_fn(PG_FUNCTION_ARGS)
{
	TimestampTz t = PG_GETARG_TIMESTAMPTZ(0);
	Interval   *by = PG_GETARG_INTERVAL_P(1);

	switch (shift_outside(t, by, 1))
	{
		case -1:
			PG_RETURN_TIMESTAMPTZ(DT_NOBEGIN);
		case 1:
			PG_RETURN_TIMESTAMPTZ(DT_NOEND);
	}
	return DirectFunctionCall2(timestamptz_pl_interval, TimestampTzGetDatum(t), IntervalPGetDatum(by));
}

PG_FUNCTION_INFO_V1(le_series_id_fn);

/*
 * _series_id(sku, provider, pricing, region, instance_type): the series' id
 * (core/series.c).  Not strict: a NULL field is a value of the key.
 */
Datum
le_series_id_fn(PG_FUNCTION_ARGS)
{
	const char *ptr[LE_SERIES_KEY_FIELDS];
	size_t		len[LE_SERIES_KEY_FIELDS];

	le_check_nargs(fcinfo, LE_SERIES_KEY_FIELDS, "_series_id");
	for (int i = 0; i < LE_SERIES_KEY_FIELDS; i++)
	{
		text	   *t = PG_ARGISNULL(i) ? NULL : PG_GETARG_TEXT_PP(i);

		ptr[i] = t ? VARDATA_ANY(t) : NULL;
		len[i] = t ? VARSIZE_ANY_EXHDR(t) : 0;
	}
	PG_RETURN_INT64(le_series_id(ptr, len));
}
