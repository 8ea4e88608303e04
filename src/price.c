/* price.c: as-of price lookups in price_snapshot (price_at) and the cost of a run at a looked-up price. */
#include "llm_econ.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"

/*
 * The cheapest price in effect at $4 over the series of sku $1 from provider
 * $2 (lower-cased) at pricing $3, in region $5 (NULL: any): see
 * llm_econ._latest_prices, which the planner inlines.
 */
static const char *const price_sql =
"SELECT pg_catalog.min(l.usd_per_gpu_hour)"
"  FROM llm_econ._latest_prices($1, pg_catalog.lower($2), $3, $4, $5) AS l";
static SPIPlanPtr price_plan;

/* Validate a pricing kind; returns its canonical name. */
static const char *
check_pricing(text *pricing)
{
	le_error	err;
	int			code;

	le_check(le_check_enum("pricing", LE_E_PRICING, VARDATA_ANY(pricing),
						   VARSIZE_ANY_EXHDR(pricing), &code, &err), &err);
	return le_enum_label(LE_E_PRICING, code);
}

/*
 * The cheapest price of sku (a gpu_sku key) from provider in effect at "at",
 * in region (NULL: any region).  *found is false when nothing is known.
 */
Numeric
le_price_lookup(const char *sku, text *provider, text *pricing, TimestampTz at,
				text *region, bool *found)
{
	Oid			types[5] = {TEXTOID, TEXTOID, TEXTOID, TIMESTAMPTZOID, TEXTOID};
	Datum		args[5];
	char		nulls[6] = "    n";
	bool		isnull;
	Datum		d;

	le_check_name("provider", VARDATA_ANY(provider), VARSIZE_ANY_EXHDR(provider));
	if (region)
		le_check_name("region", VARDATA_ANY(region), VARSIZE_ANY_EXHDR(region));
	args[0] = CStringGetTextDatum(sku);
	args[1] = PointerGetDatum(provider);
	args[2] = CStringGetTextDatum(check_pricing(pricing));
	args[3] = TimestampTzGetDatum(at);
	args[4] = PointerGetDatum(region);
	nulls[4] = region ? ' ' : 'n';

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (price_plan == NULL)
	{
		SPIPlanPtr	p = SPI_prepare(price_sql, 5, types);

		if (p == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(p);
		price_plan = p;
	}
	if (SPI_execute_plan(price_plan, args, nulls, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "price lookup failed");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		d = SPI_datumTransfer(d, false, -1);	/* copied into the caller's context */
	SPI_finish();
	*found = !isnull;
	/* detoast only now: a short-header copy would otherwise be expanded in SPI's context */
	return isnull ? NULL : DatumGetNumeric(d);
}

/* The last SKU name this call site resolved, and its key (a query usually repeats one SKU). */
typedef struct SkuKeyCache
{
	uint64		stamp;			/* le_cache_fresh: valid for one command */
	text	   *name;
	char	   *key;
} SkuKeyCache;

static const char *
cached_sku_key(FunctionCallInfo fcinfo, text *name)
{
	LeFnCache  *c = le_fn_cache(fcinfo);
	SkuKeyCache *k = c->extra;
	char	   *key;

	if (k == NULL)
		c->extra = k = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(SkuKeyCache));
	if (k->name && le_cache_fresh(&k->stamp) &&
		VARSIZE_ANY_EXHDR(k->name) == VARSIZE_ANY_EXHDR(name) &&
		memcmp(VARDATA_ANY(k->name), VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)) == 0)
		return k->key;
	key = le_sku_resolve(name);		/* unknown: 22023 with close matches */
	if (k->name)
	{
		pfree(k->name);
		pfree(k->key);
	}
	k->name = (text *) MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, VARSIZE_ANY(name));
	memcpy(k->name, name, VARSIZE_ANY(name));
	k->key = MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, key);
	(void) le_cache_fresh(&k->stamp);
	return k->key;
}

PG_FUNCTION_INFO_V1(le_price_at_fn);

/*
 * price_at(sku, provider, pricing, at, region): $/GPU-hour in effect at "at";
 * NULL when nothing is known.  NULL sku/provider/pricing/at give NULL (as a
 * STRICT function would); region NULL means the cheapest region.
 */
Datum
le_price_at_fn(PG_FUNCTION_ARGS)
{
	const char *sku;
	Numeric		price;
	bool		found;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	sku = cached_sku_key(fcinfo, PG_GETARG_TEXT_PP(0));
	price = le_price_lookup(sku, PG_GETARG_TEXT_PP(1), PG_GETARG_TEXT_PP(2),
							PG_GETARG_TIMESTAMPTZ(3),
							PG_ARGISNULL(4) ? NULL : PG_GETARG_TEXT_PP(4), &found);
	if (!found)
		PG_RETURN_NULL();
	PG_RETURN_NUMERIC(price);
}

PG_FUNCTION_INFO_V1(le_estimate_cost_at_fn);

/*
 * estimate_cost(spec, provider, pricing, at, region): gpu_hours at the price
 * in effect at "at"; an error when no price is known.
 */
Datum
le_estimate_cost_at_fn(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	double		hours;
	text	   *region;
	Numeric		price;
	bool		found;
	char	   *sku;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	le_spec_read(fcinfo, PG_GETARG_DATUM(0), &s);
	le_check(le_check_fields(&s, LE_BIT(LE_F_SKU), &err), &err);
	le_check(le_gpu_hours(&s, &hours, &err), &err);
	sku = pnstrdup(s.text[LE_F_SKU], s.textlen[LE_F_SKU]);
	region = PG_ARGISNULL(4) ? NULL : PG_GETARG_TEXT_PP(4);
	price = le_price_lookup(sku, PG_GETARG_TEXT_PP(1), PG_GETARG_TEXT_PP(2),
							PG_GETARG_TIMESTAMPTZ(3), region, &found);
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no %s price is known for sku %s from provider \"%s\"%s%s at %s",
						text_to_cstring(PG_GETARG_TEXT_PP(2)), sku,
						text_to_cstring(PG_GETARG_TEXT_PP(1)),
						region ? " in region " : "", region ? text_to_cstring(region) : "",
						timestamptz_to_str(PG_GETARG_TIMESTAMPTZ(3))),
				 errhint("Prices are in llm_econ.price_snapshot; or pass a price: estimate_cost(spec, usd_per_gpu_hour).")));
	PG_RETURN_NUMERIC(le_hours_times_price(hours, price));
}

PG_FUNCTION_INFO_V1(le_check_pricing_fn);

/* _check_pricing(pricing): the pricing kind if valid (NULL passes), else 22023 */
Datum
le_check_pricing_fn(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(check_pricing(PG_GETARG_TEXT_PP(0))));
}

PG_FUNCTION_INFO_V1(le_sku_key_fn);

/* _sku_key(name): the gpu_sku key that name means */
Datum
le_sku_key_fn(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(le_sku_resolve(PG_GETARG_TEXT_PP(0))));
}
