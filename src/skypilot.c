/* skypilot.c: _skypilot_offers(cloud, catalog_csv): one SkyPilot vms.csv as per-GPU offers, priced in exact numeric. */
#include "llm_econ.h"

#include "core/catalog.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

/* A price text the core checked (a plain decimal, at most LE_NUM_MAX_LEN characters) as numeric. */
static Datum
numeric_of(le_str s)
{
	char		buf[LE_NUM_MAX_LEN + 1];

	Assert(s.n <= LE_NUM_MAX_LEN);
	memcpy(buf, s.p, s.n);
	buf[s.n] = '\0';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(buf),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* Constants of the per-GPU rounding, made once per call. */
typedef struct LeRound
{
	Datum		e10;			/* 10^10 */
	Datum		em10;			/* 10^-10 */
	Datum		one;
} LeRound;

/*
 * round(total / gpus, 10), computed exactly: q = trunc(total * 10^10 / gpus),
 * plus one when the remainder is at least half of gpus (half up; prices are
 * positive), times 10^-10.  The same value as numeric_round(numeric_div(...),
 * 10), without numeric_div's own rounding at its chosen scale first.
 */
static Datum
per_gpu(const LeRound *k, Datum total, int32 gpus)
{
	Datum		n = NumericGetDatum(int64_to_numeric(gpus));
	Datum		scaled = DirectFunctionCall2(numeric_mul, total, k->e10);
	Datum		q = DirectFunctionCall2(numeric_div_trunc, scaled, n);
	Datum		rem = DirectFunctionCall2(numeric_sub, scaled, DirectFunctionCall2(numeric_mul, q, n));

	if (DatumGetBool(DirectFunctionCall2(numeric_ge, DirectFunctionCall2(numeric_add, rem, rem), n)))
		q = DirectFunctionCall2(numeric_add, q, k->one);
	return DirectFunctionCall2(numeric_mul, q, k->em10);
}

/* A text datum from a piece of the input. */
static inline Datum
text_of(le_str s)
{
	return PointerGetDatum(cstring_to_text_with_len(s.p, (int) s.n));
}

/*
 * GCP's machine families, sizes and N1-attachable GPUs, from the data (llm_econ.gcp_machine_family,
 * llm_econ.instance_type), into *h, allocated in the current memory context.
 */
static void
read_gcp_hosts(le_gcp_hosts *h)
{
	MemoryContext outer = CurrentMemoryContext;
	le_gcp_family *fam;
	le_gcp_size *size;
	const char **attach;
	int			nf = 0,
				na = 0;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute("SELECT f.machine_family, f.accelerator, f.alt_accelerator FROM llm_econ.gcp_machine_family f"
					" ORDER BY f.machine_family COLLATE \"C\", f.accelerator COLLATE \"C\"", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading llm_econ.gcp_machine_family failed");
	fam = MemoryContextAllocZero(outer, sizeof(le_gcp_family) * Max(SPI_processed, 1));
	attach = MemoryContextAllocZero(outer, sizeof(char *) * Max(SPI_processed, 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	td = SPI_tuptable->tupdesc;
		char	   *family = SPI_getvalue(tup, td, 1);
		char	   *accel = SPI_getvalue(tup, td, 2);
		char	   *alt = SPI_getvalue(tup, td, 3);

		/* family n1: GPUs attached to general-purpose N1 machines; others: accelerator-optimized */
		if (strcmp(family, "n1") == 0)
			attach[na++] = MemoryContextStrdup(outer, accel);
		else
		{
			fam[nf].prefix = MemoryContextStrdup(outer, psprintf("%s-", family));
			fam[nf].accel = MemoryContextStrdup(outer, accel);
			fam[nf].alt = alt ? MemoryContextStrdup(outer, alt) : NULL;
			nf++;
		}
	}
	if (SPI_execute("SELECT i.instance_type, i.gpus::pg_catalog.int4 FROM llm_econ.instance_type i"
					" WHERE i.provider OPERATOR(pg_catalog.=) 'gcp' AND i.gpus OPERATOR(pg_catalog.>=) 1::pg_catalog.numeric"
					" ORDER BY i.instance_type COLLATE \"C\"", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading llm_econ.instance_type failed");
	size = MemoryContextAllocZero(outer, sizeof(le_gcp_size) * Max(SPI_processed, 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		size[i].itype = MemoryContextStrdup(outer, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		size[i].gpus = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull));
	}
	h->family = fam;
	h->nfamily = nf;
	h->size = size;
	h->nsize = (int) SPI_processed;
	h->attach = attach;
	h->nattach = na;
	SPI_finish();
}

PG_FUNCTION_INFO_V1(le_skypilot_offers);

#define OFFER_NCOLS 12

/*
 * _skypilot_offers(cloud, catalog_csv): one row per offer (accelerator,
 * variant, instance_type, region, pricing, usd_per_gpu_hour,
 * gpus_per_instance, catalog_rows, usd_per_hour: the instance price, vcpus and memory_gib as the
 * catalog writes them, gpu_mib: GpuInfo's memory per GPU or NULL).  cloud is lower-case already; "gcp"
 * selects GCP's machine + accelerator pairing.  What an offer is, and what
 * happens to GCP rows that cannot be paired, is in src/core/catalog.c.
 * usd_per_gpu_hour is NULL for offers that cannot be priced.  Any malformed
 * row aborts the whole call (22P04, the line and the column in the CONTEXT).
 */
Datum
le_skypilot_offers(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *cloud = PG_GETARG_TEXT_PP(0);
	text	   *csv = PG_GETARG_TEXT_PP(1);
	bool		gcp = VARSIZE_ANY_EXHDR(cloud) == 3 && memcmp(VARDATA_ANY(cloud), "gcp", 3) == 0;
	le_offers	offers;
	le_error	err;
	LeRound		k;
	MemoryContext rowcxt,
				old;
	le_gcp_hosts hosts;

	if (gcp)
		read_gcp_hosts(&hosts);
	if (le_catalog_offers(VARDATA_ANY(csv), VARSIZE_ANY_EXHDR(csv), gcp ? &hosts : NULL, le_palloc, NULL,
						  &offers, &err) != LE_OK)
	{
		le_offers_free(&offers);
		le_report(&err);
	}

	k.e10 = NumericGetDatum(int64_to_numeric(INT64CONST(10000000000)));
	k.em10 = DirectFunctionCall3(numeric_in, CStringGetDatum("0.0000000001"),
								 ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	k.one = NumericGetDatum(int64_to_numeric(1));

	InitMaterializedSRF(fcinfo, 0);
	le_check_ncols(rsinfo->setDesc, OFFER_NCOLS, "_skypilot_offers");
	/* each row's values are made in rowcxt, emptied per row (the tuplestore keeps a copy) */
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "llm_econ offer row", ALLOCSET_SMALL_SIZES);
	for (int i = 0; i < offers.n; i++)
	{
		const le_offer *o = &offers.offer[i];
		const char *variant = le_variant_label(o->variant);
		Datum		values[OFFER_NCOLS];
		bool		nulls[OFFER_NCOLS] = {false};

		CHECK_FOR_INTERRUPTS(); /* millions of offers: pricing and storing them is most of the call */
		MemoryContextReset(rowcxt);
		old = MemoryContextSwitchTo(rowcxt);
		values[0] = text_of(o->accel);
		nulls[1] = variant == NULL;
		values[1] = variant ? CStringGetTextDatum(variant) : (Datum) 0;
		nulls[2] = o->itype.p == NULL;
		values[2] = o->itype.p ? text_of(o->itype) : (Datum) 0;
		nulls[3] = o->region.p == NULL;	/* provider-wide */
		values[3] = o->region.p ? text_of(o->region) : (Datum) 0;
		values[4] = CStringGetTextDatum(le_enum_label(LE_E_PRICING, o->pricing));
		nulls[5] = !o->priced;
		if (o->priced)
		{
			Datum		total = numeric_of(o->price);

			Assert(o->gpus != 0);	/* the core prices only offers with a GPU count */
			if (o->price2.p)
				total = DirectFunctionCall2(numeric_add, total, numeric_of(o->price2));
			/* a slice (1/k of a GPU, gpus = -k) is priced per GPU-equivalent: k times its price */
			values[5] = o->gpus > 0 ? per_gpu(&k, total, o->gpus)
				: per_gpu(&k, DirectFunctionCall2(numeric_mul, total, NumericGetDatum(int64_to_numeric(-o->gpus))), 1);
			values[8] = total;
		}
		nulls[8] = !o->priced;
		nulls[6] = o->gpus <= 0;
		values[6] = Int32GetDatum(o->gpus);
		values[7] = Int32GetDatum(o->rows);
		nulls[9] = o->vcpus.p == NULL;
		values[9] = o->vcpus.p ? text_of(o->vcpus) : (Datum) 0;
		nulls[10] = o->memory.p == NULL;
		values[10] = o->memory.p ? text_of(o->memory) : (Datum) 0;
		nulls[11] = o->gpu_mib <= 0;
		values[11] = Int32GetDatum(o->gpu_mib);
		MemoryContextSwitchTo(old);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	MemoryContextDelete(rowcxt);
	le_offers_free(&offers);
	return (Datum) 0;
}
