/* focus.c: FOCUS billing exports (CSV text or staged lines) as typed spend rows, each with its charge identity, and the staged file inserted into spend from C; CSV text as rows of jsonb (the typing worker: focus_worker.c). */
#include "focus.h"

#include <math.h>

#include "core/csv.h"
#include "core/guard.h"
#include "core/charge.h"
#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_relation.h"
#include "pgstat.h"
#include "rewrite/rewriteHandler.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/formatting.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/rel.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/tuplesort.h"
#include "utils/tuplestore.h"

/* Start reading csv with the core's reader (palloc'd memory). */
static void
open_csv(le_csv *r, text *csv)
{
	le_csv_init(r, VARDATA_ANY(csv), VARSIZE_ANY_EXHDR(csv), le_palloc, NULL);
}

/*
 * The label a caller gives its text (what, as in "focus_csv line 3"), as the
 * messages show it: at most LE_NAME_MAX bytes, cut at a character, marked
 * "(cut)" (it is in every CONTEXT line, so a 50 MB label made 50 MB of log).
 */
static char *
what_arg(text *t)
{
	const char *p = VARDATA_ANY(t);
	size_t		n = VARSIZE_ANY_EXHDR(t);

	if (n <= LE_NAME_MAX)
		return text_to_cstring(t);
	return psprintf("%.*s (cut)", (int) le_utf8_clip(p, n, LE_NAME_MAX), p);
}

/* A reader error: 22P04 (54000 past a size limit, 53200 when memory ran out), the line in the CONTEXT. */
static void
csv_error(const le_csv *r, const char *what, long line_offset)
{
	char		detail[128];

	if (r->err_oom)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errcontext("%s line %ld", what, r->err_line + line_offset)));
	le_csv_error_detail(r, line_offset, detail, sizeof(detail));
	ereport(ERROR,
			(errcode(r->err_limit ? ERRCODE_PROGRAM_LIMIT_EXCEEDED : ERRCODE_BAD_COPY_FILE_FORMAT),
			 errmsg("%s", r->err),
			 detail[0] ? errdetail("%s", detail) : 0,
			 errcontext("%s line %ld", what, r->err_line + line_offset)));
}

/*
 * The names of a header record, checked by the core (named, at most
 * LE_NAME_MAX bytes each, at most LE_CSV_MAX_COLUMNS, unique ignoring case;
 * O(n log n), so a crafted header cannot stall the backend).
 */
int
le_header_names(const le_csv *r, const char *what, long line, char ***names)
{
	char	  **n;
	int			col,
				other;

	switch (le_csv_check_header(r, 1, &col, &other))
	{
		case LE_CSV_HDR_OK:
			break;
		case LE_CSV_HDR_TOO_MANY:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the header has %d columns, more than the %d allowed",
							r->nfields, LE_CSV_MAX_COLUMNS),
					 errcontext("%s line %ld", what, line)));
			break;
		case LE_CSV_HDR_EMPTY_NAME:
			ereport(ERROR,
					(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
					 errmsg("column %d of the header has no name", col + 1),
					 errcontext("%s line %ld", what, line)));
			break;
		case LE_CSV_HDR_LONG_NAME:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the name of column %d is %zu bytes long, more than the %d allowed",
							col + 1, r->fields[col].len, LE_NAME_MAX),
					 errcontext("%s line %ld", what, line)));
			break;
		case LE_CSV_HDR_DUPLICATE:
			ereport(ERROR,
					(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
					 errmsg("column \"%s\" appears twice in the header",
							pnstrdup(r->fields[col].ptr, r->fields[col].len)),
					 errdetail("Columns %d and %d have the same name (case is ignored).", other + 1, col + 1),
					 errcontext("%s line %ld", what, line)));
			break;
		case LE_CSV_HDR_OOM:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errcontext("%s line %ld", what, line)));
			break;
	}
	n = palloc(sizeof(char *) * r->nfields);
	for (int i = 0; i < r->nfields; i++)
		n[i] = pnstrdup(r->fields[i].ptr, r->fields[i].len);
	*names = n;
	return r->nfields;
}

/* Read the header record of a CSV text. */
static int
read_header(le_csv *r, const char *what, char ***names)
{
	le_csv_status st = le_csv_next(r);

	if (st == LE_CSV_ERROR)
		csv_error(r, what, 0);
	if (st == LE_CSV_EOF)
		ereport(ERROR,
				(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
				 errmsg("%s is empty", what),
				 errdetail("A header line with the column names is required.")));
	le_csv_set_width(r, le_header_names(r, what, r->rec_line, names));
	return r->width;
}

PG_FUNCTION_INFO_V1(le_csv_header_fn);

/* _csv_header(csv, what): the column names of the first line */
Datum
le_csv_header_fn(PG_FUNCTION_ARGS)
{
	text	   *csv = PG_GETARG_TEXT_PP(0);
	char	   *what = what_arg(PG_GETARG_TEXT_PP(1));
	le_csv		r;
	char	  **names;
	int			n;
	Datum	   *d;

	open_csv(&r, csv);
	n = read_header(&r, what, &names);
	d = palloc(sizeof(Datum) * n);
	for (int i = 0; i < n; i++)
		d[i] = CStringGetTextDatum(names[i]);
	le_csv_free(&r);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/* Whether a CSV field is NULL: empty, or the word NULL (as FOCUS files write it). */
static inline bool
field_is_null(const le_csv_field *f)
{
	return f->len == 0 || (f->len == 4 && memcmp(f->ptr, "NULL", 4) == 0);
}

/* What record keeps of a column: its value when it has one, or nothing (a typed column holds it). */
#define LE_REC_KEEP 0
#define LE_REC_TYPED 1

/*
 * The fields of a record as a jsonb object keyed by the header names; order
 * (may be NULL) lists the columns in jsonb's key order, so that the object's
 * keys arrive sorted and jsonb's own sort has nothing to do; mode (may be
 * NULL: keep all, empty and NULL fields as JSON null) leaves out the columns
 * typed columns hold and the empty and NULL fields (a FOCUS line's record).
 */
static Datum
record_jsonb(const le_csv *r, char **names, int ncols, const int *order, const char *mode)
{
	JsonbParseState *state = NULL;
	JsonbValue *res;

	pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
	for (int j = 0; j < ncols; j++)
	{
		JsonbValue	k,
					v;
		int			i = order ? order[j] : j;
		const le_csv_field *f = &r->fields[i];

		if (mode && (mode[i] == LE_REC_TYPED || field_is_null(f)))
			continue;
		k.type = jbvString;
		k.val.string.val = names[i];
		k.val.string.len = strlen(names[i]);
		pushJsonbValue(&state, WJB_KEY, &k);
		if (field_is_null(f))
			v.type = jbvNull;
		else
		{
			v.type = jbvString;
			v.val.string.val = (char *) f->ptr;
			v.val.string.len = (int) f->len;
		}
		pushJsonbValue(&state, WJB_VALUE, &v);
	}
	res = pushJsonbValue(&state, WJB_END_OBJECT, NULL);
	return JsonbPGetDatum(JsonbValueToJsonb(res));
}

/*
 * The same object as record_jsonb with a mode (a FOCUS line's record: no
 * typed columns, no empty or NULL fields), written directly in jsonb's binary
 * form: for a record whose columns, in order (jsonb's key order: shorter
 * first, then bytewise), have distinct names, so that the object needs no
 * sorting or de-duplication (one call per line, where pushJsonbValue and
 * JsonbValueToJsonb cost more than typing the rest of the line).  The layout
 * is the one JsonbValueToJsonb writes for a flat object of strings
 * (utils/jsonb.h): the header (count | JB_FOBJECT); a JEntry per key, then
 * per value, each the length of its data, or its end offset for every
 * JB_OFFSET_STRIDE'th entry; then the keys' bytes and the values' bytes, with
 * no padding.  The regression test focus_staged compares such records with
 * the same text parsed by jsonb_in, byte for byte.
 */
static Datum
record_jsonb_flat(const le_csv *r, char **names, const int *name_len, int ncols, const int *order,
				  const char *mode)
{
	int			n = 0;
	size_t		data = 0;
	int		   *cols = palloc(sizeof(int) * ncols);
	Jsonb	   *j;
	uint32	   *header;
	JEntry	   *je;
	char	   *out;
	uint32		total = 0;

	for (int k = 0; k < ncols; k++)
	{
		int			i = order[k];
		const le_csv_field *f = &r->fields[i];

		if (mode[i] == LE_REC_TYPED || field_is_null(f))
			continue;
		cols[n++] = i;
		data += name_len[i] + f->len;
	}
	if (data > JENTRY_OFFLENMASK)
		return record_jsonb(r, names, ncols, order, mode);	/* which reports it */
	j = palloc(VARHDRSZ + sizeof(uint32) + sizeof(JEntry) * 2 * n + data);
	SET_VARSIZE(j, VARHDRSZ + sizeof(uint32) + sizeof(JEntry) * 2 * n + data);
	header = (uint32 *) VARDATA(j);
	*header = (uint32) n | JB_FOBJECT;
	je = (JEntry *) (header + 1);
	out = (char *) (je + 2 * n);
	for (int k = 0; k < 2 * n; k++)
	{
		int			i = cols[k < n ? k : k - n];
		uint32		len = (uint32) (k < n ? name_len[i] : r->fields[i].len);

		memcpy(out, k < n ? names[i] : r->fields[i].ptr, len);
		out += len;
		total += len;
		je[k] = (k % JB_OFFSET_STRIDE == 0) ? (JENTRY_ISSTRING | total | JENTRY_HAS_OFF) : (JENTRY_ISSTRING | len);
	}
	pfree(cols);
	return JsonbPGetDatum(j);
}

PG_FUNCTION_INFO_V1(le_csv_records_fn);

/*
 * _csv_records(csv, what): one row per data line, (line, record jsonb) with
 * the header names as keys; empty fields and the word NULL (as FOCUS files
 * write it) become JSON null; every value else is a string.  A line with
 * another number of fields than the header is an error naming it.
 */
Datum
le_csv_records_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *csv = PG_GETARG_TEXT_PP(0);
	char	   *what = what_arg(PG_GETARG_TEXT_PP(1));
	le_csv		r;
	char	  **names;
	int			ncols;
	le_csv_status st;

	size_t		in_len = VARSIZE_ANY_EXHDR(csv);
	size_t		out_len = 0;
	size_t		out_max;
	size_t	   *name_len;
	size_t		names_len = 0;
	MemoryContext rowcxt,
				old;

	InitMaterializedSRF(fcinfo, 0);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "llm_econ csv row", ALLOCSET_DEFAULT_SIZES);
	open_csv(&r, csv);
	ncols = read_header(&r, what, &names);
	name_len = palloc(sizeof(size_t) * ncols);
	for (int i = 0; i < ncols; i++)
		names_len += name_len[i] = strlen(names[i]);
	/*
	 * Every row repeats the header names as keys, so the rows can be far
	 * larger than the text (a 1 MB name and 2,000 short lines made 2 GB of
	 * temporary files).  Names are bounded (LE_NAME_MAX), and so is the whole:
	 * the rows may take at most LE_CSV_MAX_EXPANSION times the text plus 64 MB
	 * (a real FOCUS export needs about 3 times).
	 */
	out_max = in_len * LE_CSV_MAX_EXPANSION + ((size_t) 64 << 20);
	while ((st = le_csv_next(&r)) == LE_CSV_RECORD)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		if (r.nfields != ncols)
			ereport(ERROR,
					(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
					 errmsg_plural("record has %d field, but the header has %d",
								   "record has %d fields, but the header has %d",
								   r.nfields, r.nfields, ncols),
					 errcontext("%s line %ld", what, r.rec_line)));
		for (int i = 0; i < ncols; i++)
			out_len += name_len[i] + r.fields[i].len + 8;	/* key, value, jsonb entry overhead */
		if (out_len > out_max)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the rows would take more than %zu MB, %d times the text plus 64 MB",
							out_max >> 20, LE_CSV_MAX_EXPANSION),
					 errdetail("Each row repeats the %d header names, %zu bytes of names.", ncols, names_len),
					 errcontext("%s line %ld", what, r.rec_line)));
		/* the row's jsonb is built in rowcxt, emptied per row (the tuplestore keeps a copy) */
		MemoryContextReset(rowcxt);
		old = MemoryContextSwitchTo(rowcxt);
		values[0] = Int32GetDatum((int32) r.rec_line);
		values[1] = record_jsonb(&r, names, ncols, NULL, NULL);
		MemoryContextSwitchTo(old);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (st == LE_CSV_ERROR)
		csv_error(&r, what, 0);
	le_csv_free(&r);
	MemoryContextDelete(rowcxt);
	return (Datum) 0;
}

/* ======================================================================== */
/* FOCUS lines typed                                                        */
/* ======================================================================== */


static const char *const focus_col_names[FC__COUNT] = {
	"BilledCost", "EffectiveCost", "ListCost", "ContractedCost",
	"ChargePeriodStart", "ChargePeriodEnd", "BillingPeriodStart", "BillingPeriodEnd",
	"ProviderName", "ServiceProviderName", "HostProviderName",
	"BillingAccountId", "SubAccountId", "BillingCurrency",
	"ChargeCategory", "ChargeClass", "ChargeFrequency", "ChargeDescription",
	"ServiceName", "ServiceCategory", "SkuId", "SkuPriceId", "SkuPriceDetails",
	"ResourceId", "RegionId", "Region", "AvailabilityZone",
	"PricingCategory", "PricingQuantity", "PricingUnit", "ConsumedQuantity", "ConsumedUnit",
	"CommitmentDiscountId", "AllocatedMethodId", "AllocatedResourceId", "Tags", "x_run_id"
};

/*
 * What identifies a charge: these columns as values (timestamps as instants,
 * numbers as numbers, the provider as its key, Tags as JSON without the run
 * tag), never the raw line, so a re-export that adds a column or a run tag or
 * writes timestamps another way names the same charges.  x_run_id is left
 * out for the same reason.
 */
static const FocusCol focus_identity[] = {
	FC_BILLING_ACCOUNT_ID, FC_SUB_ACCOUNT_ID, FC_HOST_PROVIDER_NAME,
	FC_BILLING_PERIOD_START, FC_BILLING_PERIOD_END, FC_CHARGE_PERIOD_START, FC_CHARGE_PERIOD_END,
	FC_CHARGE_CATEGORY, FC_CHARGE_CLASS, FC_CHARGE_FREQUENCY, FC_CHARGE_DESCRIPTION,
	FC_SERVICE_NAME, FC_SKU_ID, FC_SKU_PRICE_ID, FC_RESOURCE_ID, FC_REGION_ID, FC_REGION,
	FC_AVAILABILITY_ZONE, FC_PRICING_CATEGORY, FC_PRICING_QUANTITY, FC_PRICING_UNIT,
	FC_CONSUMED_QUANTITY, FC_CONSUMED_UNIT, FC_BILLED_COST, FC_EFFECTIVE_COST, FC_LIST_COST,
	FC_CONTRACTED_COST, FC_BILLING_CURRENCY, FC_COMMITMENT_DISCOUNT_ID,
	FC_ALLOCATED_METHOD_ID, FC_ALLOCATED_RESOURCE_ID
};


/* The CONTEXT of an error about one field: the line and the column (call inside ereport). */
static int
line_context(const FocusIn *in, const char *col)
{
	return errcontext("%s line %ld, column \"%s\"", in->what, in->line, col);
}

/*
 * An error about one field: code is 22P04 for text that is not what the
 * column holds, 22023 for a value it may not have; the message a whole format
 * string, the value (when not NULL) in the DETAIL, the line and the column in
 * the CONTEXT.
 */
#define line_error(in, col, code, value, ...) \
	do { \
		const char *value_ = (value); \
		ereport(ERROR, \
				(errcode(code), \
				 errmsg(__VA_ARGS__), \
				 value_ ? errdetail("Got \"%.200s\".", value_) : 0, \
				 line_context((in), (col)))); \
	} while (0)

/* A NUL-terminated copy of column c (NULL when NULL). */
static char *
col_cstr(const FocusIn *in, FocusCol c)
{
	return in->v[c] ? pnstrdup(in->v[c], in->len[c]) : NULL;
}

static Datum input_named(PGFunction fn, const char *s, const FocusIn *in, const char *col);

/* Column c as numeric; NULL when NULL (required: an error). */
static Datum
col_numeric(FocusIn *in, FocusCol c, bool required, bool *isnull)
{
	char	   *s = col_cstr(in, c);
	char	   *canon;
	int64		mantissa;
	int			scale;
	Datum		d;

	*isnull = (s == NULL);
	if (s == NULL)
	{
		if (required)
			line_error(in, focus_col_names[c], ERRCODE_BAD_COPY_FILE_FORMAT, NULL, "a number is required, got NULL");
		return (Datum) 0;
	}
	canon = palloc(LE_DECIMAL_CANON_SIZE(in->len[c]));
	if (le_decimal_canon(s, in->len[c], canon) < 0)
		line_error(in, focus_col_names[c], ERRCODE_BAD_COPY_FILE_FORMAT, s, "not a number");
	/* up to 18 digits: the numeric numeric_in makes (value and display scale), built directly */
	if (le_decimal_parse(s, in->len[c], &mantissa, &scale) == 1)
		d = NumericGetDatum(int64_div_fast_to_numeric(mantissa, scale));
	else
		d = input_named(numeric_in, s, in, focus_col_names[c]);	/* 131,073 digits: 22003, named */
	in->norm[c] = canon;
	return d;
}

/*
 * Shape of an ISO 8601 date-time as FOCUS writes it: YYYY-MM-DD, optionally
 * followed by [T ]HH:MM[:SS[.fff]] and then optionally Z or +-HH[:MM].
 * Returns 0 when malformed, 1 without an offset, 2 with one.
 */
static int
timestamp_shape(const char *s)
{
	const char *p = s;
	int			d;

#define DIGITS(n) do { for (d = 0; d < (n); d++, p++) if (*p < '0' || *p > '9') return 0; } while (0)
	DIGITS(4);
	if (*p++ != '-')
		return 0;
	DIGITS(2);
	if (*p++ != '-')
		return 0;
	DIGITS(2);
	if (*p == '\0')
		return 1;
	if (*p != 'T' && *p != ' ')
		return 0;
	p++;
	DIGITS(2);
	if (*p++ != ':')
		return 0;
	DIGITS(2);
	if (*p == ':')
	{
		p++;
		DIGITS(2);
		if (*p == '.')
		{
			p++;
			if (*p < '0' || *p > '9')
				return 0;
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	if (*p == '\0')
		return 1;
	if (*p == 'Z' && p[1] == '\0')
		return 2;
	if (*p != '+' && *p != '-')
		return 0;
	p++;
	DIGITS(2);
	if (*p == ':')
		p++;
	if (*p == '\0')
		return 2;
	DIGITS(2);
	return *p == '\0' ? 2 : 0;
#undef DIGITS
}

/*
 * The common shapes of a FOCUS time read without PostgreSQL's general date
 * parser: YYYY-MM-DD[{T| }HH:MM[:SS[.f{1,6}]]][Z], every field in its range
 * (years 1-9999, real days of the month, 00:00:00-23:59:59).  The result is
 * what timestamp_in (no offset: the UTC instant) or timestamptz_in (Z) give
 * for it; false for anything else (offsets, leap seconds, 24:00, more
 * fractional digits, a bad field), which the general parser then reads or
 * names in its error.
 */
static bool
iso_time_fast(const char *s, int64 *out)
{
	static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			y,
				mo,
				d,
				h = 0,
				mi = 0,
				sec = 0;
	int64		frac = 0;
	const char *p;

#define D2(q) (((q)[0] - '0') * 10 + ((q)[1] - '0'))
	/* timestamp_shape has checked the digits and separators of the date and of HH:MM[:SS] */
	y = D2(s) * 100 + D2(s + 2);
	mo = D2(s + 5);
	d = D2(s + 8);
	if (y < 1 || mo < 1 || mo > 12 || d < 1 ||
		d > mdays[mo - 1] + (mo == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	p = s + 10;
	if (*p != '\0')
	{
		h = D2(p + 1);
		mi = D2(p + 4);
		p += 6;
		if (*p == ':')
		{
			sec = D2(p + 1);
			p += 3;
			if (*p == '.')
			{
				int			digits = 0;

				for (p++; *p >= '0' && *p <= '9'; p++, digits++)
				{
					if (digits == 6)
						return false;
					frac = frac * 10 + (*p - '0');
				}
				for (int k = digits; k < 6; k++)
					frac *= 10;
			}
		}
		if (*p == 'Z')
			p++;
		if (*p != '\0' || h > 23 || mi > 59 || sec > 59)
			return false;
	}
#undef D2
	*out = (int64) (date2j(y, mo, d) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY +
		(((int64) h * 60 + mi) * 60 + sec) * USECS_PER_SEC + frac;
	return true;
}

/*
 * Call an input function; its error (a data exception: 22007, 22008, 22P02
 * ...) becomes 22P04 with the line and the column in the CONTEXT; any other
 * error (a cancel, out of memory) is raised again as it is.
 */
static Datum
input_named(PGFunction fn, const char *s, const FocusIn *in, const char *col)
{
	MemoryContext cxt = CurrentMemoryContext;
	Datum		d = (Datum) 0;

	PG_TRY();
	{
		d = DirectFunctionCall3(fn, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	}
	PG_CATCH();
	{
		ErrorData  *e;

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		if (ERRCODE_TO_CATEGORY(e->sqlerrcode) != ERRCODE_DATA_EXCEPTION)
			PG_RE_THROW();		/* still on the error stack: a cancel stays a cancel */
		FlushErrorState();
		line_error(in, col, ERRCODE_BAD_COPY_FILE_FORMAT, s, "%s", e->message);
	}
	PG_END_TRY();
	return d;
}

/*
 * Column c as timestamptz: a time without an offset, a date-only one
 * included, is UTC whatever the session's TimeZone (FOCUS requires UTC).
 */
static Datum
col_time(FocusIn *in, FocusCol c, bool required, bool *isnull)
{
	char	   *s = col_cstr(in, c);
	int			shape;
	Datum		d;
	TimeMemo   *memo = NULL;

	*isnull = (s == NULL);
	if (s == NULL)
	{
		if (required)
			line_error(in, focus_col_names[c], ERRCODE_BAD_COPY_FILE_FORMAT, NULL, "a timestamp is required, got NULL");
		return (Datum) 0;
	}
	if (in->times)
	{
		memo = &in->times[c - FC_CHARGE_PERIOD_START];
		if (memo->len == in->len[c] && memcmp(memo->text, s, memo->len) == 0)
		{
			in->norm[c] = memo->norm;
			return Int64GetDatum(memo->value);
		}
	}
	shape = timestamp_shape(s);
	if (shape == 0)
		line_error(in, focus_col_names[c], ERRCODE_BAD_COPY_FILE_FORMAT, s, "not an ISO 8601 timestamp");
	/* no offset: read as a timestamp without time zone, which is the UTC instant */
	{
		int64		v;

		if (iso_time_fast(s, &v))
			d = Int64GetDatum(v);
		else
			d = input_named(shape == 2 ? timestamptz_in : timestamp_in, s, in, focus_col_names[c]);
	}
	if (memo && in->len[c] < (int) sizeof(memo->text))
	{
		memo->len = in->len[c];
		memcpy(memo->text, s, memo->len);
		memo->value = DatumGetInt64(d);
		pg_lltoa(memo->value, memo->norm);
		in->norm[c] = memo->norm;
	}
	else
	{
		char	   *n = palloc(MAXINT8LEN + 1);

		pg_lltoa(DatumGetInt64(d), n);
		in->norm[c] = n;
	}
	return d;
}

/* Column c as a jsonb object (NULL when NULL). */
static Jsonb *
col_object(const FocusIn *in, FocusCol c)
{
	char	   *s = col_cstr(in, c);
	Jsonb	   *j;

	if (s == NULL)
		return NULL;
	j = DatumGetJsonbP(input_named(jsonb_in, s, in, focus_col_names[c]));
	if (!JB_ROOT_IS_OBJECT(j) || JB_ROOT_IS_SCALAR(j))
		line_error(in, focus_col_names[c], ERRCODE_BAD_COPY_FILE_FORMAT, s, "not a JSON object");
	return j;
}

/* The value of key in a jsonb object as text (NULL when absent or JSON null). */
static char *
jsonb_key_text(Jsonb *j, const char *key, bool *is_string)
{
	JsonbValue	k;
	JsonbValue *v;

	*is_string = false;
	if (j == NULL)
		return NULL;
	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = strlen(key);
	v = findJsonbValueFromContainer(&j->root, JB_FOBJECT, &k);
	if (v == NULL || v->type == jbvNull)
		return NULL;
	if (v->type == jbvString)
	{
		*is_string = true;
		return pnstrdup(v->val.string.val, v->val.string.len);
	}
	if (v->type == jbvNumeric)
		return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
	if (v->type == jbvBool)
		return pstrdup(v->val.boolean ? "true" : "false");
	return JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
}

/* FOCUS provider names as the price tables' provider keys (AWS -> aws, Microsoft -> azure, ...). */
static char *
provider_key(const char *name)
{
	char	   *n = str_tolower(name, strlen(name), DEFAULT_COLLATION_OID);
	char	   *s = n,
			   *e;
	StringInfoData out;
	bool		dash = false;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	if (strcmp(s, "aws") == 0 || strcmp(s, "amazon") == 0 || strncmp(s, "amazon web services", 19) == 0)
		return pstrdup("aws");
	if (strcmp(s, "microsoft") == 0 || strcmp(s, "microsoft azure") == 0 || strcmp(s, "azure") == 0)
		return pstrdup("azure");
	if (strcmp(s, "google") == 0 || strcmp(s, "google cloud") == 0 || strcmp(s, "google cloud platform") == 0 ||
		strcmp(s, "gcp") == 0)
		return pstrdup("gcp");
	if (strcmp(s, "oracle") == 0 || strcmp(s, "oracle cloud infrastructure") == 0 || strcmp(s, "oci") == 0)
		return pstrdup("oci");
	/* anything else: runs of characters outside [a-z0-9._-] become one '-' */
	initStringInfo(&out);
	for (; *s; s++)
	{
		char		ch = *s;

		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-')
		{
			appendStringInfoChar(&out, ch);
			dash = false;
		}
		else if (!dash)
		{
			appendStringInfoChar(&out, '-');
			dash = true;
		}
	}
	return out.data;
}

/* A typed piece of the Tags identity: a type byte, the length in 4 little-endian bytes, the bytes. */
static void
tags_piece(StringInfo b, char type, const char *p, int len)
{
	char		head[5] = {type, (char) (len & 0xff), (char) ((len >> 8) & 0xff), (char) ((len >> 16) & 0xff),
	(char) ((len >> 24) & 0xff)};

	appendBinaryStringInfo(b, head, sizeof(head));
	appendBinaryStringInfo(b, p, len);
}

/*
 * Tags without the run tags (the top-level keys run_id and x_run_id), as the
 * sequence of their keys and values in jsonb's key order, each a typed piece
 * (tags_piece): strings as their bytes, numbers as numeric_out writes them,
 * true, false, null, and nested values as their JSON text.  Two objects give
 * the same bytes exactly when they hold the same keys and values; nothing left
 * (no Tags, {}, run tags only) is the empty string.  Walking the object costs
 * less than printing it (JsonbToCString escapes every string).
 */
static char *
tags_identity(Jsonb *tags, int *len)
{
	StringInfoData b;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken t;
	bool		skip = false;

	*len = 0;
	if (tags == NULL)
		return "";
	initStringInfo(&b);
	it = JsonbIteratorInit(&tags->root);
	while ((t = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (t == WJB_KEY)
		{
			skip = (v.val.string.len == 6 && memcmp(v.val.string.val, "run_id", 6) == 0) ||
				(v.val.string.len == 8 && memcmp(v.val.string.val, "x_run_id", 8) == 0);
			if (!skip)
				tags_piece(&b, 'k', v.val.string.val, v.val.string.len);
		}
		else if (t == WJB_VALUE && !skip)
		{
			const char *text;

			switch (v.type)
			{
				case jbvString:
					tags_piece(&b, 's', v.val.string.val, v.val.string.len);
					break;
				case jbvNumeric:
					text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v.val.numeric)));
					tags_piece(&b, 'd', text, strlen(text));
					break;
				case jbvBool:
					tags_piece(&b, v.val.boolean ? 't' : 'f', "", 0);
					break;
				case jbvNull:
					tags_piece(&b, 'n', "", 0);
					break;
				default:		/* a nested object or array */
					text = JsonbToCString(NULL, v.val.binary.data, v.val.binary.len);
					tags_piece(&b, 'c', text, strlen(text));
					break;
			}
		}
	}
	*len = b.len;
	return b.data;
}

/* A number's identity: its value (2.000 = 2 = 2e0, le_decimal_canon); the text itself when it is not a number. */
static const char *
number_identity(const char *s, size_t n)
{
	char	   *canon = palloc(LE_DECIMAL_CANON_SIZE(n));

	if (le_decimal_canon(s, n, canon) < 0)
		return pnstrdup(s, n);
	return canon;
}

/* A time's identity: the instant in microseconds since 2000 (UTC when no offset); else the text. */
static char *
time_identity(const char *s)
{
	int			shape = timestamp_shape(s);
	Datum		d;
	bool		ok = true;
	MemoryContext cxt = CurrentMemoryContext;

	if (shape == 0)
		return (char *) s;
	PG_TRY();
	{
		d = DirectFunctionCall3(shape == 2 ? timestamptz_in : timestamp_in, CStringGetDatum(s),
								ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		ok = false;
		d = (Datum) 0;
	}
	PG_END_TRY();
	if (!ok)
		return (char *) s;
	return psprintf(INT64_FORMAT, DatumGetInt64(d));
}

/*
 * The charge identity: an MD5 (le_charge_id) over the provider key, then the
 * identity columns as values, then Tags without the run tags.  Never throws
 * for a value it cannot read: that value's text is used instead.
 */
static char *
charge_key_digest(const FocusIn *in, uint8 *digest)
{
	char	   *hex = palloc(33);
	const char *prov;
	Jsonb	   *tags = NULL;
	MemoryContext cxt = CurrentMemoryContext;
	le_charge_id id;
	const char *t;
	int			tlen;

	le_charge_id_init(&id);
	if (in->provkey)
		prov = in->provkey;
	else
	{
		prov = in->v[FC_SERVICE_PROVIDER_NAME] ? col_cstr(in, FC_SERVICE_PROVIDER_NAME) : col_cstr(in, FC_PROVIDER_NAME);
		prov = prov ? provider_key(prov) : "";
	}
	le_charge_id_field(&id, prov, strlen(prov));
	for (int i = 0; i < (int) lengthof(focus_identity); i++)
	{
		FocusCol	c = focus_identity[i];

		if (in->v[c] == NULL)
			le_charge_id_field(&id, NULL, 0);
		else
		{
			if (in->norm[c])
				t = in->norm[c];
			else if (c == FC_BILLED_COST || c == FC_EFFECTIVE_COST || c == FC_LIST_COST || c == FC_CONTRACTED_COST ||
					 c == FC_PRICING_QUANTITY || c == FC_CONSUMED_QUANTITY)
				t = number_identity(in->v[c], in->len[c]);
			else if (c == FC_CHARGE_PERIOD_START || c == FC_CHARGE_PERIOD_END || c == FC_BILLING_PERIOD_START ||
					 c == FC_BILLING_PERIOD_END)
				t = time_identity(col_cstr(in, c));
			else
			{
				le_charge_id_field(&id, in->v[c], in->len[c]);
				continue;
			}
			le_charge_id_field(&id, t, strlen(t));
		}
	}
	if (in->tags_parsed)
		t = tags_identity(in->tags, &tlen);
	else if (in->v[FC_TAGS])
	{
		char	   *s = col_cstr(in, FC_TAGS);

		PG_TRY();
		{
			tags = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(s)));
			if (!JB_ROOT_IS_OBJECT(tags) || JB_ROOT_IS_SCALAR(tags))
				tags = NULL;
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(cxt);
			FlushErrorState();
			tags = NULL;
		}
		PG_END_TRY();
		if (tags)
			t = tags_identity(tags, &tlen);
		else
			t = s, tlen = strlen(s);
	}
	else
		t = "", tlen = 0;
	le_charge_id_field(&id, t, tlen);
	le_charge_id_final(&id, digest);
	le_md5_hex(digest, hex);
	return hex;
}

/* The charge identity as md5 hex text (what row_hash stores). */
static char *
charge_key(const FocusIn *in)
{
	uint8		digest[16];

	return charge_key_digest(in, digest);
}

/* An empty alias map (le_alias_add fills it), in the current memory context. */
HTAB *
le_alias_map_create(void)
{
	HASHCTL		ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(((AliasEntry *) 0)->key);
	ctl.entrysize = sizeof(AliasEntry);
	ctl.hcxt = CurrentMemoryContext;
	return hash_create("llm_econ focus aliases", 256, &ctl, HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
}

/* Add a lower-case machine type to the map, its texts in cxt (the map's). */
void
le_alias_add(HTAB *h, MemoryContext cxt, uint64 *lens, const char *low, const char *alias, const char *sku, int32 gpus)
{
	AliasEntry *e;
	bool		found;

	if (low == NULL || strlen(low) >= sizeof(e->key))
		return;
	e = hash_search(h, low, HASH_ENTER, &found);
	lens[strlen(low) >> 6] |= UINT64CONST(1) << (strlen(low) & 63);
	e->alias = MemoryContextStrdup(cxt, alias);
	e->sku = MemoryContextStrdup(cxt, sku);
	e->gpus = gpus;
}

/* The alias map: lower-case machine type -> (alias, sku, GPUs), for the aliases with a GPU count. */
static HTAB *
load_aliases(uint64 *lens)
{
	MemoryContext cxt = CurrentMemoryContext;	/* SPI_execute returns in SPI's */
	HTAB	   *h = le_alias_map_create();

	if (SPI_execute("SELECT pg_catalog.lower(a.alias), a.alias, a.sku, a.gpus_per_instance "
					"FROM llm_econ.gpu_sku_alias a WHERE a.gpus_per_instance IS NOT NULL", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading gpu_sku_alias failed");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	t = SPI_tuptable->vals[i];
		TupleDesc	d = SPI_tuptable->tupdesc;
		bool		isnull;

		le_alias_add(h, cxt, lens, SPI_getvalue(t, d, 1), SPI_getvalue(t, d, 2), SPI_getvalue(t, d, 3),
				  DatumGetInt32(SPI_getbinval(t, d, 4, &isnull)));
	}
	SPI_freetuptable(SPI_tuptable);
	return h;
}

/* Look a machine type up in the alias map (any case). */
static AliasEntry *
alias_find(HTAB *h, const char *name, size_t len)
{
	char		key[sizeof(((AliasEntry *) 0)->key)];

	if (len == 0 || len >= sizeof(key))
		return NULL;
	for (size_t i = 0; i < len; i++)
		key[i] = (name[i] >= 'A' && name[i] <= 'Z') ? name[i] + ('a' - 'A') : name[i];
	key[len] = '\0';
	return hash_search(h, key, HASH_FIND, NULL);
}

/* Whether a byte separates words of a charge description: " \t\r\n,;()". */
static inline bool
word_break(unsigned char ch)
{
	return ch == ' ' || ch == ',' || ch == '(' || ch == ')' || ch == ';' || ch == '\t' || ch == '\n' || ch == '\r';
}

/*
 * The first word of a charge description that is a machine type ("... per On
 * Demand Linux p5.48xlarge Instance Hour"); lens has bit k set when some alias
 * is k bytes long, so that other words are not looked up.
 */
static AliasEntry *
alias_in_words(HTAB *h, const uint64 *lens, const char *s, size_t n)
{
	const char *p = s;
	const char *end = s + n;

	while (p < end)
	{
		const char *w;
		size_t		len;

		while (p < end && word_break((unsigned char) *p))
			p++;
		w = p;
		while (p < end && !word_break((unsigned char) *p))
			p++;
		len = p - w;
		if (len > 0 && len < 128 && (lens[len >> 6] & (UINT64CONST(1) << (len & 63))))
		{
			AliasEntry *e = alias_find(h, w, len);

			if (e)
				return e;
		}
	}
	return NULL;
}


/* Largest GPU-hours one line may bill: about 114,000 GPU-years; more is a broken line, not a bill. */
#define LE_FOCUS_MAX_GPU_HOURS "1000000000"

/* Set an output text column from a FOCUS column (NULL stays NULL). */
static void
out_text(Datum *values, bool *nulls, int o, const FocusIn *in, FocusCol c)
{
	if (in->v[c] == NULL)
		nulls[o] = true;
	else
		values[o] = PointerGetDatum(cstring_to_text_with_len(in->v[c], in->len[c]));
}

/* Type one FOCUS line into values/nulls (O__COUNT each). */
void
le_focus_type(FocusState *st, FocusIn *in, Datum record, Datum *values, bool *nulls)
{
	bool		isnull;
	Jsonb	   *tags,
			   *details;
	char	   *prov;
	char	   *run;
	bool		is_str;
	char	   *gpucount_s;
	char	   *itype;
	AliasEntry *alias = NULL;
	int32		gpus = 0;
	bool		have_gpus = false;
	char	   *unit;

	memset(nulls, 0, sizeof(bool) * O__COUNT);
	values[O_LINE] = Int32GetDatum((int32) in->line);
	values[O_RECORD] = record;

	values[O_BILLED] = col_numeric(in, FC_BILLED_COST, true, &isnull);
	values[O_EFFECTIVE] = col_numeric(in, FC_EFFECTIVE_COST, true, &isnull);
	values[O_LIST] = col_numeric(in, FC_LIST_COST, false, &nulls[O_LIST]);
	values[O_QUANTITY] = col_numeric(in, FC_CONSUMED_QUANTITY, false, &nulls[O_QUANTITY]);
	values[O_CPS] = col_time(in, FC_CHARGE_PERIOD_START, true, &isnull);
	values[O_CPE] = col_time(in, FC_CHARGE_PERIOD_END, true, &isnull);
	values[O_BPS] = col_time(in, FC_BILLING_PERIOD_START, false, &nulls[O_BPS]);
	values[O_BPE] = col_time(in, FC_BILLING_PERIOD_END, false, &nulls[O_BPE]);
	if (DatumGetTimestampTz(values[O_CPE]) < DatumGetTimestampTz(values[O_CPS]))
		line_error(in, "ChargePeriodEnd", ERRCODE_INVALID_PARAMETER_VALUE, col_cstr(in, FC_CHARGE_PERIOD_END),
				   "the charge period ends before it starts");

	{
		FocusCol	pc = in->v[FC_SERVICE_PROVIDER_NAME] ? FC_SERVICE_PROVIDER_NAME : FC_PROVIDER_NAME;

		/* lines repeat their provider: the last name's key is kept */
		if (in->v[pc] && st->prov.len == in->len[pc] && memcmp(st->prov.text, in->v[pc], in->len[pc]) == 0)
			in->provkey = st->prov.key;
		else
		{
			prov = col_cstr(in, pc);
			in->provkey = prov ? provider_key(prov) : NULL;
			st->prov.len = -1;
			if (prov && in->len[pc] < (int) sizeof(st->prov.text) && strlen(in->provkey) < sizeof(st->prov.key))
			{
				memcpy(st->prov.text, in->v[pc], in->len[pc]);
				strcpy(st->prov.key, in->provkey);
				st->prov.len = in->len[pc];
			}
		}
	}
	if (in->provkey == NULL || in->provkey[0] == '\0')
		line_error(in, st->pos[FC_SERVICE_PROVIDER_NAME] >= 0 ? "ServiceProviderName" : "ProviderName",
				   ERRCODE_BAD_COPY_FILE_FORMAT, NULL, "the provider name is required, got NULL");
	values[O_PROVIDER] = CStringGetTextDatum(in->provkey);

	out_text(values, nulls, O_SERVICE_NAME, in, FC_SERVICE_NAME);
	out_text(values, nulls, O_SERVICE_CATEGORY, in, FC_SERVICE_CATEGORY);
	out_text(values, nulls, O_CHARGE_CATEGORY, in, FC_CHARGE_CATEGORY);
	out_text(values, nulls, O_CHARGE_DESCRIPTION, in, FC_CHARGE_DESCRIPTION);
	out_text(values, nulls, O_PRICING_CATEGORY, in, FC_PRICING_CATEGORY);
	nulls[O_PRICING] = true;
	if (in->v[FC_PRICING_CATEGORY])
	{
		char	   *pc = col_cstr(in, FC_PRICING_CATEGORY);

		nulls[O_PRICING] = false;
		if (strcmp(pc, "Standard") == 0)
			values[O_PRICING] = CStringGetTextDatum("on_demand");
		else if (strcmp(pc, "Dynamic") == 0)
			values[O_PRICING] = CStringGetTextDatum("spot");
		else if (strcmp(pc, "Committed") == 0)
			values[O_PRICING] = CStringGetTextDatum("reserved");
		else
			nulls[O_PRICING] = true;
	}
	out_text(values, nulls, O_REGION, in, in->v[FC_REGION_ID] ? FC_REGION_ID : FC_REGION);
	out_text(values, nulls, O_UNIT, in, FC_CONSUMED_UNIT);
	out_text(values, nulls, O_CURRENCY, in, FC_BILLING_CURRENCY);
	out_text(values, nulls, O_RESOURCE_ID, in, in->v[FC_RESOURCE_ID] ? FC_RESOURCE_ID : FC_ALLOCATED_RESOURCE_ID);
	out_text(values, nulls, O_ACCOUNT, in, FC_BILLING_ACCOUNT_ID);

	/* tags and the run */
	tags = col_object(in, FC_TAGS);
	in->tags = tags;
	in->tags_parsed = true;
	nulls[O_TAGS] = (tags == NULL);
	if (tags)
		values[O_TAGS] = JsonbPGetDatum(tags);
	run = jsonb_key_text(tags, "run_id", &is_str);
	if (run == NULL)
		run = col_cstr(in, FC_X_RUN_ID);
	if (run == NULL)
		run = jsonb_key_text(tags, "x_run_id", &is_str);
	nulls[O_RUN_ID] = (run == NULL);
	if (run)
		values[O_RUN_ID] = CStringGetTextDatum(run);

	/* the GPU machine: SkuPriceDetails' InstanceType, else a machine type in the description */
	details = col_object(in, FC_SKU_PRICE_DETAILS);
	itype = jsonb_key_text(details, "InstanceType", &is_str);
	if (itype == NULL)
		itype = jsonb_key_text(details, "x_InstanceType", &is_str);
	if (itype)
		alias = alias_find(st->aliases, itype, strlen(itype));
	if (alias == NULL && in->v[FC_CHARGE_DESCRIPTION])
		alias = alias_in_words(st->aliases, st->alias_lens, in->v[FC_CHARGE_DESCRIPTION], in->len[FC_CHARGE_DESCRIPTION]);
	gpucount_s = jsonb_key_text(details, "GpuCount", &is_str);
	if (gpucount_s == NULL)
		gpucount_s = jsonb_key_text(details, "x_GpuCount", &is_str);
	if (gpucount_s)
	{
		char	   *endp;
		double		g = strtod(gpucount_s, &endp);

		if (*endp != '\0' || endp == gpucount_s || !(g >= 1 && g <= 4096) || g != floor(g))
			line_error(in, "SkuPriceDetails", ERRCODE_INVALID_PARAMETER_VALUE, gpucount_s,
					   "GpuCount must be a whole number of GPUs in [1, 4096]");
		gpus = (int32) g;
		have_gpus = true;
	}
	else if (alias)
	{
		gpus = alias->gpus;
		have_gpus = true;
	}
	nulls[O_SKU] = (alias == NULL);
	nulls[O_INSTANCE_TYPE] = (alias == NULL);
	if (alias)
	{
		values[O_SKU] = CStringGetTextDatum(alias->sku);
		values[O_INSTANCE_TYPE] = CStringGetTextDatum(alias->alias);
	}
	nulls[O_GPUS] = !have_gpus;
	values[O_GPUS] = Int32GetDatum(gpus);
	{
		char	   *gt = jsonb_key_text(details, "GpuType", &is_str);

		if (gt == NULL)
			gt = jsonb_key_text(details, "x_GpuType", &is_str);
		nulls[O_GPU_TYPE] = (gt == NULL);
		if (gt)
			values[O_GPU_TYPE] = CStringGetTextDatum(gt);
	}

	/* GPU-hours: hours of a GPU machine times its GPUs */
	nulls[O_GPU_HOURS] = true;
	unit = col_cstr(in, FC_CONSUMED_UNIT);
	if (have_gpus && unit && !nulls[O_QUANTITY] &&
		(pg_strcasecmp(unit, "hour") == 0 || pg_strcasecmp(unit, "hours") == 0 || pg_strcasecmp(unit, "hr") == 0 ||
		 pg_strcasecmp(unit, "hrs") == 0 || pg_strcasecmp(unit, "h") == 0))
	{
		Datum		gh = DirectFunctionCall2(numeric_mul, values[O_QUANTITY],
											 DirectFunctionCall1(int4_numeric, Int32GetDatum(gpus)));
		Datum		max = DirectFunctionCall3(numeric_in, CStringGetDatum(LE_FOCUS_MAX_GPU_HOURS),
											  ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));

		if (DatumGetBool(DirectFunctionCall2(numeric_lt, gh, DirectFunctionCall1(int4_numeric, Int32GetDatum(0)))) ||
			DatumGetBool(DirectFunctionCall2(numeric_gt, gh, max)))
			line_error(in, "ConsumedQuantity", ERRCODE_INVALID_PARAMETER_VALUE, col_cstr(in, FC_CONSUMED_QUANTITY),
					   "GPU-hours (ConsumedQuantity x GPUs) must be in [0, %s]", LE_FOCUS_MAX_GPU_HOURS);
		values[O_GPU_HOURS] = gh;
		nulls[O_GPU_HOURS] = false;
	}
	values[O_KEY] = CStringGetTextDatum(charge_key_digest(in, in->digest));
}

/* jsonb's key order: shorter first, then bytewise (as jsonb stores object keys). */
static char **jsonb_order_names;
static int
jsonb_key_cmp(const void *a, const void *b)
{
	const char *x = jsonb_order_names[*(const int *) a];
	const char *y = jsonb_order_names[*(const int *) b];
	size_t		lx = strlen(x),
				ly = strlen(y);

	if (lx != ly)
		return lx < ly ? -1 : 1;
	return memcmp(x, y, lx);
}

/* Map header names to the known columns; the required ones must be there. */
void
le_focus_header(FocusState *st, const char *what)
{
	const char *missing = NULL;

	StaticAssertStmt(FC_CHARGE_PERIOD_END == FC_CHARGE_PERIOD_START + 1 &&
					 FC_BILLING_PERIOD_START == FC_CHARGE_PERIOD_START + 2 &&
					 FC_BILLING_PERIOD_END == FC_CHARGE_PERIOD_START + 3, "the period columns are consecutive");
	for (int t = 0; t < LE_TIME_COLS; t++)
		st->times[t].len = -1;
	st->prov.len = -1;
	st->order = palloc(sizeof(int) * st->ncols);
	for (int i = 0; i < st->ncols; i++)
		st->order[i] = i;
	jsonb_order_names = st->names;
	qsort(st->order, st->ncols, sizeof(int), jsonb_key_cmp);
	jsonb_order_names = NULL;
	st->names_len = 0;
	st->name_len = palloc(sizeof(int) * st->ncols);
	st->distinct_names = true;
	for (int i = 0; i < st->ncols; i++)
	{
		st->names_len += st->name_len[i] = (int) strlen(st->names[i]);
		if (i > 0 && strcmp(st->names[st->order[i]], st->names[st->order[i - 1]]) == 0)
			st->distinct_names = false;
	}

	for (int c = 0; c < FC__COUNT; c++)
	{
		st->pos[c] = -1;
		for (int i = 0; i < st->ncols; i++)
			if (strcmp(st->names[i], focus_col_names[c]) == 0)
			{
				st->pos[c] = i;
				break;
			}
	}
	/*
	 * record keeps what the typed columns do not: the columns stored as they
	 * are (text as written, numbers and times as values, Tags as JSON) are left
	 * out, and so are empty and NULL fields (a FOCUS file leaves a third of
	 * its columns empty on a typical line: keys for them made rows a fifth
	 * larger and loads slower, and ->> reads NULL either way).  A RegionId or
	 * ResourceId left empty is filled from Region or AllocatedResourceId, which
	 * record keeps.
	 */
	st->recmode = palloc0(st->ncols);
	{
		static const FocusCol typed[] = {
			FC_BILLED_COST, FC_EFFECTIVE_COST, FC_LIST_COST, FC_CONSUMED_QUANTITY, FC_CONSUMED_UNIT,
			FC_CHARGE_PERIOD_START, FC_CHARGE_PERIOD_END, FC_BILLING_PERIOD_START, FC_BILLING_PERIOD_END,
			FC_SERVICE_NAME, FC_SERVICE_CATEGORY, FC_CHARGE_CATEGORY, FC_CHARGE_DESCRIPTION,
			FC_PRICING_CATEGORY, FC_BILLING_CURRENCY, FC_BILLING_ACCOUNT_ID, FC_TAGS, FC_REGION_ID,
			FC_RESOURCE_ID
		};

		for (int t = 0; t < (int) lengthof(typed); t++)
			if (st->pos[typed[t]] >= 0)
				st->recmode[st->pos[typed[t]]] = LE_REC_TYPED;
	}
	if (st->pos[FC_BILLED_COST] < 0)
		missing = "BilledCost";
	else if (st->pos[FC_EFFECTIVE_COST] < 0)
		missing = "EffectiveCost";
	else if (st->pos[FC_CHARGE_PERIOD_START] < 0)
		missing = "ChargePeriodStart";
	else if (st->pos[FC_CHARGE_PERIOD_END] < 0)
		missing = "ChargePeriodEnd";
	else if (st->pos[FC_PROVIDER_NAME] < 0 && st->pos[FC_SERVICE_PROVIDER_NAME] < 0)
		ereport(ERROR,
				(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
				 errmsg("%s has no \"ProviderName\" or \"ServiceProviderName\" column", what),
				 errdetail("Columns are found by header name (FOCUS 1.0-1.3 names).")));
	if (missing)
		ereport(ERROR,
				(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
				 errmsg("%s has no \"%s\" column", what, missing),
				 errdetail("Columns are found by header name (FOCUS 1.0-1.3 names).")));
}

/* record for a line of a FOCUS file: the columns typed columns do not hold, as jsonb. */
Datum
le_focus_record(const FocusState *st, const le_csv *r)
{
	if (st->distinct_names)
		return record_jsonb_flat(r, st->names, st->name_len, st->ncols, st->order, st->recmode);
	return record_jsonb(r, st->names, st->ncols, st->order, st->recmode);
}

/* Fill a FocusIn from the reader's current record. */
void
le_focus_in_of_record(const FocusState *st, const le_csv *r, long line, FocusIn *in)
{
	memset(in, 0, sizeof(*in));
	in->line = line;
	in->what = st->what;
	in->times = (TimeMemo *) st->times;
	for (int c = 0; c < FC__COUNT; c++)
	{
		int			i = st->pos[c];

		if (i < 0 || field_is_null(&r->fields[i]))
		{
			in->v[c] = NULL;
			in->len[c] = 0;
		}
		else
		{
			in->v[c] = r->fields[i].ptr;
			in->len[c] = (int) r->fields[i].len;
		}
	}
}

/* A record's field count, and the bound on what the typed rows may take (22023 / 54000 naming the line). */
void
le_focus_check_record(FocusState *st, const le_csv *r, long line)
{
	if (r->nfields != st->ncols)
		ereport(ERROR,
				(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
				 errmsg_plural("record has %d field, but the header has %d",
							   "record has %d fields, but the header has %d",
							   r->nfields, r->nfields, st->ncols),
				 errcontext("%s line %ld", st->what, line)));
	/*
	 * Every record repeats the header names as keys: bound the whole, as
	 * _csv_records does, to LE_CSV_MAX_EXPANSION times the input plus 64 MB.
	 */
	st->out_len += st->names_len;
	for (int i = 0; i < st->ncols; i++)
		st->out_len += r->fields[i].len + 8;
	if (st->out_len > st->in_len * LE_CSV_MAX_EXPANSION + ((size_t) 64 << 20))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the rows would take more than %d times the text plus 64 MB", LE_CSV_MAX_EXPANSION),
				 errdetail("Each row repeats the %d header names, %zu bytes of names.", st->ncols, st->names_len),
				 errcontext("%s line %ld", st->what, line)));
}

/* Type the reader's current record and append it to the result. */
static void
focus_emit(FocusState *st, le_csv *r, long line, ReturnSetInfo *rsinfo)
{
	FocusIn		in;
	Datum		values[O__COUNT + 1];
	bool		nulls[O__COUNT + 1];
	MemoryContext old;

	le_focus_check_record(st, r, line);
	old = MemoryContextSwitchTo(st->rowcxt);
	le_focus_in_of_record(st, r, line, &in);
	le_focus_type(st, &in, le_focus_record(st, r), values, nulls);
	/* the copies of a charge are numbered by the caller (_focus_store) */
	values[O__COUNT] = (Datum) 0;
	nulls[O__COUNT] = true;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	MemoryContextSwitchTo(old);
	MemoryContextReset(st->rowcxt);
}

PG_FUNCTION_INFO_V1(le_focus_lines_fn);

/*
 * _focus_lines(csv, what): the data lines of a FOCUS CSV text, typed (see
 * le_focus_type); the first bad line is an error naming the line and column.
 */
Datum
le_focus_lines_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *csv = PG_GETARG_TEXT_PP(0);
	char	   *what = what_arg(PG_GETARG_TEXT_PP(1));
	FocusState	st;
	le_csv		r;
	le_csv_status s;
	MemoryContext entry = CurrentMemoryContext;

	InitMaterializedSRF(fcinfo, 0);
	if (rsinfo->setDesc->natts != O__COUNT + 1)
		elog(ERROR, "_focus_lines: wrong result type");
	memset(&st, 0, sizeof(st));
	st.what = what;
	st.rowcxt = AllocSetContextCreate(CurrentMemoryContext, "llm_econ focus line", 0, 256 * 1024, 1024 * 1024);
	open_csv(&r, csv);
	st.in_len = VARSIZE_ANY_EXHDR(csv);
	st.ncols = read_header(&r, what, &st.names);
	le_focus_header(&st, what);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	MemoryContextSwitchTo(entry);
	st.aliases = load_aliases(st.alias_lens);
	while ((s = le_csv_next(&r)) == LE_CSV_RECORD)
	{
		CHECK_FOR_INTERRUPTS();
		focus_emit(&st, &r, r.rec_line, rsinfo);
	}
	if (s == LE_CSV_ERROR)
		csv_error(&r, what, 0);
	le_csv_free(&r);
	SPI_finish();
	return (Datum) 0;
}

/* Whether a text holds an odd number of '"' (a quoted field left open at its end). */
static bool
odd_quotes(const char *p, size_t n, bool open)
{
	const char *end = p + n;

	while ((p = memchr(p, '"', end - p)) != NULL)
	{
		open = !open;
		p++;
	}
	return open;
}

PG_FUNCTION_INFO_V1(le_focus_charge_key_fn);

/*
 * _focus_charge_key(record jsonb): the charge identity of a stored line's
 * original record (as _focus_lines computes it on import); used to re-key
 * lines imported by earlier versions.
 */
Datum
le_focus_charge_key_fn(PG_FUNCTION_ARGS)
{
	Jsonb	   *rec = PG_GETARG_JSONB_P(0);
	FocusIn		in;

	if (!JB_ROOT_IS_OBJECT(rec))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("record must be a JSON object (a stored line's record), got %s",
						JB_ROOT_IS_SCALAR(rec) ? "a scalar" : "an array")));
	memset(&in, 0, sizeof(in));
	in.what = "record";
	for (int c = 0; c < FC__COUNT; c++)
	{
		bool		is_str;
		char	   *v = jsonb_key_text(rec, focus_col_names[c], &is_str);

		if (v != NULL && !(v[0] == '\0' || strcmp(v, "NULL") == 0))
		{
			in.v[c] = v;
			in.len[c] = strlen(v);
		}
	}
	PG_RETURN_TEXT_P(cstring_to_text(charge_key(&in)));
}

/* ======================================================================== */
/* The staged file, streamed: typed rows numbered without a sort             */
/* ======================================================================== */

/* A charge identity (md5, 16 bytes) and how many lines of the file had it so far. */
typedef struct ChargeKey
{
	uint64		a;
	uint64		b;
} ChargeKey;

typedef struct ChargeCount
{
	ChargeKey	key;
	uint32		count;
	char		status;
} ChargeCount;

#define SH_PREFIX chargecount
#define SH_ELEMENT_TYPE ChargeCount
#define SH_KEY_TYPE ChargeKey
#define SH_KEY key
#define SH_HASH_KEY(tb, k) ((uint32) ((k).a ^ ((k).a >> 32)))
#define SH_EQUAL(tb, x, y) ((x).a == (y).a && (x).b == (y).b)
#define SH_SCOPE static inline
#define SH_DECLARE
#define SH_DEFINE
/* the table doubles only when full (90%), never early on a long probe: when it grows is known */
#define SH_GROW_MIN_FILLFACTOR 0.9
#include "lib/simplehash.h"

/* Bytes a line is budgeted in the after-row queue of a statement (LE_FOCUS_LINES_PER_STATEMENT). */
#define LE_FOCUS_EVENT_BYTES 64

/*
 * The slots the count table may have: the largest power of two whose entries
 * fit PostgreSQL's budget for a hash table (work_mem x hash_mem_multiplier,
 * as hash aggregation and hash joins have), at least 2,048; it holds up to
 * 90% as many keys.
 */
static uint64
focus_count_cap(void)
{
	double		budget = (double) get_hash_memory_limit();
	uint64		slots = 2048;

	while (slots < ((uint64) 1 << 30) && (double) (slots * 2) * sizeof(ChargeCount) <= budget)
		slots *= 2;
	return slots;
}

/* Whether the count table may take one more key: it has room, or may double within its cap. */
static inline bool
count_room(const chargecount_hash *h, uint64 cap)
{
	return h->members < h->grow_threshold || h->size * 2 <= cap;
}

/*
 * A load spans several statements (each INSERT takes at most a bounded number
 * of lines, so that PostgreSQL's queue of after-row checks, one per inserted
 * line, is freed every so many lines): its state lives in a context of the
 * transaction, found here between statements, and is dropped at the end of
 * the load, of the transaction, or of the subtransaction that began it.
 */
static struct StagedRows *focus_load = NULL;
static MemoryContext focus_load_cxt = NULL;
static SubTransactionId focus_load_subxact = InvalidSubTransactionId;
static bool focus_callbacks_registered = false;

/* Lines per statement of a load: work_mem / 64 bytes (16 MB: 262,144 lines), at least 1,024. */
#define LE_FOCUS_LINES_PER_STATEMENT() ((int64) Max(1024.0, (double) work_mem * 1024.0 / LE_FOCUS_EVENT_BYTES))


static void staged_scan_close(StagedRows *sr);

/* Drop the current load, if any (its cursor is closed by the caller or by the transaction's end). */
static void
focus_load_drop(void)
{
	if (focus_load_cxt != NULL)
	{
		if (focus_load)
		{
			le_fw_stop(focus_load);
			staged_scan_close(focus_load);
		}
		if (focus_load && focus_load->reading)
			tuplestore_end(focus_load->reading);
		if (focus_load && focus_load->spill)
			tuplestore_end(focus_load->spill);
		MemoryContextDelete(focus_load_cxt);
	}
	focus_load = NULL;
	focus_load_cxt = NULL;
	focus_load_subxact = InvalidSubTransactionId;
}

/*
 * At the end of the transaction: a load left unfinished at a commit is
 * closed (its scan, files and snapshot released, not reported as leaks);
 * after an abort it is only forgotten (its context and resources go with the
 * transaction).
 */
static void
focus_xact_cb(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_PRE_COMMIT || event == XACT_EVENT_PARALLEL_PRE_COMMIT ||
		event == XACT_EVENT_PRE_PREPARE)
		focus_load_drop();
	focus_load = NULL;
	focus_load_cxt = NULL;
	focus_load_subxact = InvalidSubTransactionId;
}

/* Drop the load when the subtransaction that began it ends (rolled back: its resources went with it). */
static void
focus_subxact_cb(SubXactEvent event, SubTransactionId mySubid, SubTransactionId parentSubid, void *arg)
{
	if (focus_load_cxt == NULL || focus_load_subxact != mySubid)
		return;
	if (event == SUBXACT_EVENT_PRE_COMMIT_SUB)
		focus_load_drop();
	else if (event == SUBXACT_EVENT_ABORT_SUB)
	{
		MemoryContextDelete(focus_load_cxt);
		focus_load = NULL;
		focus_load_cxt = NULL;
		focus_load_subxact = InvalidSubTransactionId;
	}
}

/*
 * Delete a staged line just read (the direct read, when it deletes): as the
 * DELETE of load_focus would, once per line, in the same page visit as the
 * read.  A line another transaction deleted meanwhile (a concurrent load by
 * the same role) is skipped, as that DELETE skips it under READ COMMITTED;
 * under REPEATABLE READ or SERIALIZABLE it is a serialization failure, as
 * there.
 */
static void
staged_delete(StagedRows *sr, ItemPointer tid)
{
	TM_FailureData tmfd;
	TM_Result	r;

	r = table_tuple_delete(sr->scan_heap, tid, GetCurrentCommandId(true), sr->scan_snap, InvalidSnapshot,
						   true, &tmfd, false);
	switch (r)
	{
		case TM_Ok:
			break;
		case TM_Updated:
		case TM_Deleted:
			if (IsolationUsesXactSnapshot())
				ereport(ERROR,
						(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
						 errmsg("could not serialize access due to concurrent delete")));
			break;				/* READ COMMITTED: skipped, as the DELETE skips it */
		default:
			elog(ERROR, "deleting a staged line failed: %d", (int) r);
	}
}

/* Staged lines fetched at a time. */
#define LE_FOCUS_BATCH 256

/* Fetch the next batch of staged lines, directly or through the cursor (false at the end). */
static bool
staged_fetch(StagedRows *sr)
{
	Portal		cur;

	MemoryContextReset(sr->batchcxt);
	sr->nbatch = sr->ibatch = 0;
	if (sr->eof)
		return false;
	if (sr->scan)
	{
		ResourceOwner saved = CurrentResourceOwner;
		MemoryContext old = MemoryContextSwitchTo(sr->cxt);

		sr->batch = MemoryContextAlloc(sr->batchcxt, sizeof(text *) * LE_FOCUS_BATCH);
		/* the scan's buffer pins belong to the load, not to this statement */
		CurrentResourceOwner = sr->owner;
		PG_TRY();
		{
			while (sr->nbatch < LE_FOCUS_BATCH)
			{
				ItemPointer tid = index_getnext_tid(sr->scan, ForwardScanDirection);
				HeapTupleData tup;
				bool		all_dead = false;
				bool		found;
				struct varlena *line = NULL;

				/* at the end, for good: another call would start the scan again */
				if (tid == NULL)
				{
					sr->eof = true;
					break;
				}
				if (sr->page == InvalidBuffer || BufferGetBlockNumber(sr->page) != ItemPointerGetBlockNumber(tid))
				{
					if (sr->page != InvalidBuffer)
						ReleaseBuffer(sr->page);
					sr->page = ReadBufferExtended(sr->scan_heap, MAIN_FORKNUM, ItemPointerGetBlockNumber(tid),
												  RBM_NORMAL, sr->ring);
					heap_page_prune_opt(sr->scan_heap, sr->page);
				}
				/* the line's visible version, as an index scan's heap fetch finds it */
				LockBuffer(sr->page, BUFFER_LOCK_SHARE);
				found = heap_hot_search_buffer(tid, sr->scan_heap, sr->page, sr->scan_snap, &tup, &all_dead, true);
				if (found)
				{
					bool		isnull;
					Datum		d = heap_getattr(&tup, sr->line_attno, RelationGetDescr(sr->scan_heap), &isnull);

					/* copied as stored (a TOAST pointer too): detoasted below, with the page unlocked */
					if (!isnull)
					{
						line = MemoryContextAlloc(sr->batchcxt, VARSIZE_ANY(DatumGetPointer(d)));
						memcpy(line, DatumGetPointer(d), VARSIZE_ANY(DatumGetPointer(d)));
					}
				}
				LockBuffer(sr->page, BUFFER_LOCK_UNLOCK);
				if (!sr->scan->xactStartedInRecovery)
					sr->scan->kill_prior_tuple = all_dead;
				if (!found)
					continue;
				if (sr->first_block == InvalidBlockNumber)
					sr->first_block = ItemPointerGetBlockNumber(&tup.t_self);
				pgstat_count_heap_fetch(sr->scan_index);
				if (line != NULL && (VARATT_IS_EXTERNAL(line) || VARATT_IS_COMPRESSED(line)))
				{
					MemoryContextSwitchTo(sr->batchcxt);
					line = (struct varlena *) DatumGetTextPCopy(PointerGetDatum(line));
					MemoryContextSwitchTo(sr->cxt);
				}
				sr->batch[sr->nbatch++] = (text *) line;
				/* while the page is pinned: the delete's own pin does not count as a second use of the buffer */
				if (sr->deleting)
					staged_delete(sr, &tup.t_self);
			}
		}
		PG_FINALLY();
		{
			CurrentResourceOwner = saved;
		}
		PG_END_TRY();
		MemoryContextSwitchTo(old);
		return sr->nbatch > 0;
	}
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	cur = SPI_cursor_find(sr->portal);
	if (cur == NULL)
		elog(ERROR, "the cursor over focus_staging is gone");
	SPI_cursor_fetch(cur, true, LE_FOCUS_BATCH);
	if (SPI_processed == 0)
		sr->eof = true;
	else
	{
		MemoryContext old = MemoryContextSwitchTo(sr->batchcxt);

		sr->batch = palloc(sizeof(text *) * SPI_processed);
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			bool		isnull;
			Datum		d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);

			sr->batch[i] = isnull ? NULL : DatumGetTextPCopy(d);
		}
		sr->nbatch = (int) SPI_processed;
		MemoryContextSwitchTo(old);
	}
	SPI_freetuptable(SPI_tuptable);
	SPI_finish();
	return sr->nbatch > 0;
}

/*
 * The next logical record of the staged lines in sr->rec (a quoted field
 * with line ends spans several staged lines, joined again); false at the end.
 */
bool
le_staged_next_record(StagedRows *sr)
{
	resetStringInfo(&sr->rec);
	for (;;)
	{
		text	   *t;
		const char *p = "";
		size_t		n = 0;

		if (sr->ibatch >= sr->nbatch && !staged_fetch(sr))
		{
			if (sr->open)
				ereport(ERROR,
						(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
						 errmsg("unclosed quote"),
						 errcontext("%s line %ld", sr->st.what, sr->rec_start)));
			return false;
		}
		t = sr->batch[sr->ibatch++];
		sr->physical++;
		if (t != NULL)
		{
			p = VARDATA_ANY(t);
			n = VARSIZE_ANY_EXHDR(t);
		}
		if (sr->rec.len == 0 && !sr->open)
		{
			if (n == 0)
				continue;		/* blank line between records */
			sr->rec_start = sr->physical;
		}
		else
			appendStringInfoChar(&sr->rec, '\n');
		appendBinaryStringInfo(&sr->rec, p, n);
		sr->st.in_len += n + 1;
		sr->open = odd_quotes(p, n, sr->open);
		if (!sr->open)
			return true;
	}
}

/*
 * Read a record of staged lines (le_staged_next_record joins them) into r.  A
 * row of focus_staging is one line of the file, so the record must be all of
 * it: a staged row holding a line break outside quotes (put there by an
 * INSERT; \copy splits the file at them) holds several records, and reading
 * only the first would lose the others without a word.  It is refused (line
 * ends at its very end are nothing lost).  With strict false (the periods'
 * pre-pass, which leaves errors to the load), a bad record is LE_CSV_ERROR,
 * not an error.  line is the record's first line, for the errors.
 */
le_csv_status
le_record_parse(const char *data, int len, const char *what, long line, le_csv *r, bool strict)
{
	le_csv_status s;
	const char *rest;

	le_csv_init(r, data, len, le_palloc, NULL);
	s = le_csv_next(r);
	if (s == LE_CSV_ERROR)
	{
		if (strict)
			csv_error(r, what, line - 1);
		return s;
	}
	for (rest = r->pos; rest < r->end && (*rest == '\n' || *rest == '\r'); rest++)
		;
	if (rest < r->end)
	{
		if (!strict)
			return LE_CSV_ERROR;
		ereport(ERROR,
				(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
				 errmsg("a staged line holds a line break outside quotes"),
				 errdetail("Each row of focus_staging is one line of the file; this one holds more than one record."),
				 errhint("Stage the file with \\copy, which makes one row of each line."),
				 errcontext("%s line %ld", what, line)));
	}
	return s;
}

/* Read the record sr->rec holds (le_record_parse). */
static le_csv_status
staged_parse(StagedRows *sr, le_csv *r, bool strict)
{
	return le_record_parse(sr->rec.data, sr->rec.len, sr->st.what, sr->rec_start, r, strict);
}

/* The value of a lower-case hex digit (row_hash is lower-case md5 hex). */
static inline int
hex_digit(char c)
{
	return c >= 'a' ? c - 'a' + 10 : c - '0';
}

/* A typed line's charge identity, from its row_hash (md5 hex, values[O_KEY]). */
static void
key_of_values(const Datum *values, ChargeKey *k)
{
	text	   *t = DatumGetTextPP(values[O_KEY]);
	const char *hex = VARDATA_ANY(t);
	uint8		digest[16];

	if (VARSIZE_ANY_EXHDR(t) != 32)
		elog(ERROR, "row_hash is not 32 hex digits");
	for (int i = 0; i < 16; i++)
		digest[i] = (uint8) ((hex_digit(hex[2 * i]) << 4) | hex_digit(hex[2 * i + 1]));
	memcpy(k, digest, sizeof(*k));
}

/*
 * Number a typed line: its occurrence (the k-th line of the file with its
 * identity) in values[O__COUNT]; false when its identity is new and the table
 * is full: the line is then kept for the next round, when the table holds the
 * identities that did not fit (every line of such an identity is kept, in
 * file order, so it is numbered right then).
 */
static bool
staged_count(StagedRows *sr, Datum *values, bool *nulls, const ChargeKey *k)
{
	ChargeCount *e = chargecount_lookup(sr->counts, *k);

	if (e == NULL)
	{
		bool		found;

		if (!count_room(sr->counts, sr->cap))
		{
			ResourceOwner saved = CurrentResourceOwner;

			if (sr->spill == NULL)
			{
				MemoryContext old = MemoryContextSwitchTo(sr->cxt);

				sr->spill = tuplestore_begin_heap(false, false, work_mem);
				MemoryContextSwitchTo(old);
			}
			values[O__COUNT] = (Datum) 0;
			nulls[O__COUNT] = true;
			/* its file (past work_mem) must outlive this statement: the load's owner holds it */
			CurrentResourceOwner = sr->owner;
			PG_TRY();
			{
				tuplestore_putvalues(sr->spill, sr->tupdesc, values, nulls);
			}
			PG_FINALLY();
			{
				CurrentResourceOwner = saved;
			}
			PG_END_TRY();
			return false;
		}
		e = chargecount_insert(sr->counts, *k, &found);
		e->count = 0;
	}
	e->count++;
	values[O__COUNT] = Int32GetDatum((int32) Min(e->count, (uint32) PG_INT32_MAX));
	nulls[O__COUNT] = false;
	sr->returned++;
	return true;
}

/*
 * Whether the staged lines may be read directly (an index scan of
 * focus_staging's (writer, id) index, no SPI copies) and mean what the
 * cursor's query reads: the role has SELECT on focus_staging, and row-level
 * security either does not apply to it or applies with the shipped policy
 * only (writer = CURRENT_USER, which the scan's key is).  Any other policy
 * (restrictive ones included) and the cursor reads, with the policies
 * applied by PostgreSQL.  Inside SPI.
 */
static bool
staged_direct_ok(void)
{
	static SPIPlanPtr plan = NULL;
	bool		isnull;
	Datum		d;

	plan = le_spi_plan(&plan,
					   "SELECT pg_catalog.has_table_privilege('llm_econ.focus_staging', 'SELECT') "
					   "AND (NOT pg_catalog.row_security_active('llm_econ.focus_staging') "
					   "OR (SELECT pg_catalog.count(*) OPERATOR(pg_catalog.=) 1 AND pg_catalog.bool_and("
					   "p.polname OPERATOR(pg_catalog.=) 'focus_staging_writer' AND p.polpermissive "
					   "AND p.polcmd OPERATOR(pg_catalog.=) '*' AND p.polroles OPERATOR(pg_catalog.=) '{0}' "
					   "AND pg_catalog.pg_get_expr(p.polqual, p.polrelid) OPERATOR(pg_catalog.=) '(writer = CURRENT_USER)') "
					   "FROM pg_catalog.pg_policy p WHERE p.polrelid OPERATOR(pg_catalog.=) 'llm_econ.focus_staging'::pg_catalog.regclass))",
					   0, NULL);
	if (SPI_execute_plan(plan, NULL, NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "checking focus_staging's policies failed");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	SPI_freetuptable(SPI_tuptable);
	return !isnull && DatumGetBool(d);
}

/*
 * Open the direct read of the current role's staged lines in load order (a
 * btree whose first columns are writer and id: the order the cursor's plan
 * gives); false when there is no such index, or focus_staging is not a heap.
 * The heap pages are read through a ring of buffers, as COPY writes through
 * one: a staged file of any size then takes at most the ring (16 MB, or an
 * eighth of shared_buffers) of the shared buffers, leaving other sessions'
 * pages cached, and this session touches fewer buffers for the first time.
 * The ring is the bulk-write kind because the load deletes the lines it
 * reads: a bulk-read ring gives up a buffer dirtied that way, a bulk-write
 * ring writes it out and reuses it.  Its relations, pins and snapshot belong
 * to the load's resource owner.
 */
static bool
staged_scan_open(StagedRows *sr)
{
	Oid			relid = get_relname_relid("focus_staging", get_namespace_oid("llm_econ", false));
	Relation	heap;
	Relation	index = NULL;
	AttrNumber	writer,
				id;
	List	   *indexes;
	ListCell   *lc;
	ResourceOwner saved = CurrentResourceOwner;
	MemoryContext old;

	if (!OidIsValid(relid))
		return false;
	old = MemoryContextSwitchTo(sr->cxt);
	CurrentResourceOwner = sr->owner;
	heap = table_open(relid, sr->delete_read ? RowExclusiveLock : AccessShareLock);
	/*
	 * Delete while reading only as the DELETE statement would delete: the
	 * role may delete, and no trigger or rule would run for that DELETE
	 * (row-level security: staged_direct_ok allowed the shipped policy only).
	 */
	sr->deleting = sr->delete_read &&
		pg_class_aclcheck(relid, GetUserId(), ACL_DELETE) == ACLCHECK_OK &&
		heap->rd_rules == NULL &&
		(heap->trigdesc == NULL ||
		 !(heap->trigdesc->trig_delete_before_row || heap->trigdesc->trig_delete_after_row ||
		   heap->trigdesc->trig_delete_instead_row || heap->trigdesc->trig_delete_before_statement ||
		   heap->trigdesc->trig_delete_after_statement || heap->trigdesc->trig_delete_old_table));
	writer = get_attnum(relid, "writer");
	id = get_attnum(relid, "id");
	sr->line_attno = get_attnum(relid, "line");
	indexes = RelationGetIndexList(heap);
	foreach(lc, indexes)
	{
		Relation	i = index_open(lfirst_oid(lc), AccessShareLock);

		if (i->rd_rel->relam == BTREE_AM_OID && i->rd_index->indisvalid && i->rd_index->indnkeyatts >= 2 &&
			i->rd_index->indkey.values[0] == writer && i->rd_index->indkey.values[1] == id &&
			i->rd_opfamily[0] == TEXT_BTREE_FAM_OID && i->rd_opfamily[1] == INTEGER_BTREE_FAM_OID &&
			(i->rd_indoption[0] & INDOPTION_DESC) == 0 && (i->rd_indoption[1] & INDOPTION_DESC) == 0 &&
			RelationGetIndexPredicate(i) == NIL && RelationGetIndexExpressions(i) == NIL)
		{
			index = i;
			break;
		}
		index_close(i, AccessShareLock);
	}
	if (index == NULL || writer == InvalidAttrNumber || id == InvalidAttrNumber ||
		sr->line_attno == InvalidAttrNumber || heap->rd_rel->relam != HEAP_TABLE_AM_OID)
	{
		if (index)
			index_close(index, AccessShareLock);
		table_close(heap, NoLock);
		sr->deleting = false;
		CurrentResourceOwner = saved;
		MemoryContextSwitchTo(old);
		return false;
	}
	sr->scan_heap = heap;
	sr->scan_index = index;
	sr->scan_snap = RegisterSnapshotOnOwner(GetActiveSnapshot(), sr->owner);
	sr->scan = le_index_beginscan(heap, index, sr->scan_snap, 1, 0);
	ScanKeyEntryInitialize(&sr->scan_key, 0, 1, BTEqualStrategyNumber, InvalidOid,
						   index->rd_indcollation[0], F_TEXTEQ,
						   CStringGetTextDatum(GetUserNameFromId(GetUserId(), false)));
	index_rescan(sr->scan, &sr->scan_key, 1, NULL, 0);
	sr->ring = GetAccessStrategy(BAS_BULKWRITE);
	sr->page = InvalidBuffer;
	CurrentResourceOwner = saved;
	MemoryContextSwitchTo(old);
	return true;
}

/*
 * Open the read of the current role's staged lines in load order (in SPI):
 * directly when staged_direct_ok, else through a cursor, a fast-start plan by
 * the (writer, id) index (its portal name kept).
 */
static void
staged_open(StagedRows *sr)
{
	SPIPlanPtr	plan;
	Portal		cur;

	if (staged_direct_ok() && staged_scan_open(sr))
		return;
	plan = SPI_prepare_cursor("SELECT s.line FROM llm_econ.focus_staging s "
							  "WHERE s.writer OPERATOR(pg_catalog.=) CURRENT_USER ORDER BY s.id",
							  0, NULL, CURSOR_OPT_FAST_PLAN);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed");
	cur = SPI_cursor_open(NULL, plan, NULL, NULL, true);
	sr->portal = MemoryContextStrdup(sr->cxt, cur->name);
}

/* Close the direct read of the staged lines, if open. */
static void
staged_scan_close(StagedRows *sr)
{
	ResourceOwner saved = CurrentResourceOwner;

	if (sr->scan == NULL)
		return;
	CurrentResourceOwner = sr->owner;
	if (sr->page != InvalidBuffer)
		ReleaseBuffer(sr->page);
	sr->page = InvalidBuffer;
	FreeAccessStrategy(sr->ring);
	index_endscan(sr->scan);
	index_close(sr->scan_index, NoLock);
	table_close(sr->scan_heap, NoLock);
	UnregisterSnapshotFromOwner(sr->scan_snap, sr->owner);
	sr->scan = NULL;
	CurrentResourceOwner = saved;
}

/* Close the read of the staged lines (the direct scan, or the cursor when it is still there). */
static void
staged_close(StagedRows *sr)
{
	staged_scan_close(sr);
	if (sr->portal)
	{
		Portal		cur;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		cur = SPI_cursor_find(sr->portal);
		if (cur)
			SPI_cursor_close(cur);
		SPI_finish();
		sr->portal = NULL;
	}
}

/* The typed rows' columns (llm_econ._focus_line in finance.sql): O__COUNT and the occurrence. */
TupleDesc
le_staged_tupdesc(void)
{
	static const Oid types[O__COUNT + 1] = {
		[O_LINE] = INT4OID, [O_RECORD] = JSONBOID, [O_CPS] = TIMESTAMPTZOID, [O_CPE] = TIMESTAMPTZOID,
		[O_BPS] = TIMESTAMPTZOID, [O_BPE] = TIMESTAMPTZOID, [O_PROVIDER] = TEXTOID, [O_SERVICE_NAME] = TEXTOID,
		[O_SERVICE_CATEGORY] = TEXTOID, [O_CHARGE_CATEGORY] = TEXTOID, [O_CHARGE_DESCRIPTION] = TEXTOID,
		[O_PRICING_CATEGORY] = TEXTOID, [O_PRICING] = TEXTOID, [O_REGION] = TEXTOID, [O_SKU] = TEXTOID,
		[O_INSTANCE_TYPE] = TEXTOID, [O_GPUS] = INT4OID, [O_GPU_TYPE] = TEXTOID, [O_QUANTITY] = NUMERICOID,
		[O_UNIT] = TEXTOID, [O_GPU_HOURS] = NUMERICOID, [O_BILLED] = NUMERICOID, [O_EFFECTIVE] = NUMERICOID,
		[O_LIST] = NUMERICOID, [O_CURRENCY] = TEXTOID, [O_RUN_ID] = TEXTOID, [O_RESOURCE_ID] = TEXTOID,
		[O_TAGS] = JSONBOID, [O_ACCOUNT] = TEXTOID, [O_KEY] = TEXTOID, [O__COUNT] = INT4OID
	};
	TupleDesc	td = CreateTemplateTupleDesc(O__COUNT + 1);

	for (int i = 0; i <= O__COUNT; i++)
		TupleDescInitEntry(td, (AttrNumber) (i + 1), NULL, types[i], -1, 0);
	return BlessTupleDesc(td);
}

/* Start a load (in the current memory context, the load's): the alias map, the count table, the read. */
static StagedRows *
staged_rows_begin(const char *what, bool delete_read)
{
	StagedRows *sr = palloc0(sizeof(StagedRows));
	MemoryContext cxt = CurrentMemoryContext;

	sr->delete_read = delete_read;
	sr->owner = CurTransactionResourceOwner;
	sr->cxt = cxt;
	sr->tupdesc = le_staged_tupdesc();
	sr->st.what = pstrdup(what);
	sr->st.rowcxt = AllocSetContextCreate(cxt, "llm_econ focus line", 0, 256 * 1024, 1024 * 1024);
	/* one block holds a batch: resetting it returns nothing to the system */
	sr->batchcxt = AllocSetContextCreate(cxt, "llm_econ focus batch", 0, 512 * 1024, 1024 * 1024);
	initStringInfo(&sr->rec);
	sr->streaming = true;
	/* the count table has at most focus_count_cap() slots */
	sr->cap = focus_count_cap();
	sr->counts = chargecount_create(cxt, (uint32) Min(4096, sr->cap * 9 / 10), NULL);
	sr->slot = MakeSingleTupleTableSlot(sr->tupdesc, &TTSOpsMinimalTuple);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	MemoryContextSwitchTo(cxt);
	sr->st.aliases = load_aliases(sr->st.alias_lens);
	sr->first_block = InvalidBlockNumber;
	staged_open(sr);
	{
		Relation	staging = table_open(get_relname_relid("focus_staging", get_namespace_oid("llm_econ", false)),
										 AccessShareLock);

		sr->staged_pages = RelationGetNumberOfBlocks(staging);
		table_close(staging, AccessShareLock);
	}
	SPI_finish();
	MemoryContextSwitchTo(cxt);
	return sr;
}

/* Start a new load in the transaction's memory (an unfinished earlier one is dropped). */
static StagedRows *
staged_load_start(const char *what, bool delete_read)
{
	MemoryContext old;

	if (!focus_callbacks_registered)
	{
		RegisterXactCallback(focus_xact_cb, NULL);
		RegisterSubXactCallback(focus_subxact_cb, NULL);
		focus_callbacks_registered = true;
	}
	focus_load_drop();
	focus_load_cxt = AllocSetContextCreate(TopTransactionContext, "llm_econ focus load", ALLOCSET_DEFAULT_SIZES);
	focus_load_subxact = GetCurrentSubTransactionId();
	le_focus_worker_lines = 0;
	old = MemoryContextSwitchTo(focus_load_cxt);
	focus_load = staged_rows_begin(what, delete_read);
	MemoryContextSwitchTo(old);
	return focus_load;
}

/*
 * The pages of focus_staging from the load's first line to the end: its file
 * (and any lines staged after it), without the pages emptied by earlier loads
 * that a \copy appends after.  Read through the cursor, all the pages.
 */
static BlockNumber
staged_pages_ahead(const StagedRows *sr)
{
	if (sr->first_block == InvalidBlockNumber || sr->first_block >= sr->staged_pages)
		return sr->staged_pages;
	return sr->staged_pages - sr->first_block;
}

/*
 * The next typed line of the load with its occurrence in values/nulls
 * (O__COUNT + 1 each, in sr->st.rowcxt, valid until the next call); false when
 * every line was returned.  Lines whose identity did not fit in the count
 * table are kept for a next round and come back later.
 */
static bool
staged_next(StagedRows *sr, Datum *values, bool *nulls)
{
	MemoryContext old;

	while (sr->streaming)
	{
		le_csv		r;
		FocusIn		in;
		ChargeKey	k;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(sr->st.rowcxt);
		if (sr->fw && le_fw_ready(sr, false))
		{
			int			rec_len;

			if (!le_fw_next(sr, values, nulls, &rec_len))
			{
				le_fw_stop(sr);
				sr->streaming = false;
				break;
			}
			sr->line_bytes = rec_len;
			key_of_values(values, &k);
			if (staged_count(sr, values, nulls, &k))
				return true;
			continue;
		}
		if (!le_staged_next_record(sr))
		{
			sr->streaming = false;
			break;
		}
		if (!sr->header_done)
		{
			old = MemoryContextSwitchTo(sr->cxt);
			staged_parse(sr, &r, true);
			sr->st.ncols = le_header_names(&r, sr->st.what, sr->rec_start, &sr->st.names);
			le_focus_header(&sr->st, sr->st.what);
			sr->header_done = true;
			sr->header = pnstrdup(sr->rec.data, sr->rec.len);
			sr->header_len = sr->rec.len;
			sr->header_line = sr->rec_start;
			MemoryContextSwitchTo(old);
			if ((le_focus_typing_worker == LE_FW_ON ||
				 (le_focus_typing_worker == LE_FW_AUTO && staged_pages_ahead(sr) >= LE_FW_MIN_PAGES)) &&
				le_fw_start(sr) && le_focus_typing_worker == LE_FW_ON)
				le_fw_ready(sr, true);
			continue;
		}
		old = MemoryContextSwitchTo(sr->st.rowcxt);
		staged_parse(sr, &r, true);
		le_focus_check_record(&sr->st, &r, sr->rec_start);
		le_focus_in_of_record(&sr->st, &r, sr->rec_start, &in);
		le_focus_type(&sr->st, &in, le_focus_record(&sr->st, &r), values, nulls);
		MemoryContextSwitchTo(old);
		sr->line_bytes = sr->rec.len;
		memcpy(&k, in.digest, sizeof(k));
		old = MemoryContextSwitchTo(sr->st.rowcxt);
		if (staged_count(sr, values, nulls, &k))
		{
			MemoryContextSwitchTo(old);
			return true;
		}
		MemoryContextSwitchTo(old);
	}
	/* rounds over the lines whose identities did not fit in the table */
	for (;;)
	{
		ChargeKey	k;
		bool		got;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(sr->st.rowcxt);
		/* a tuple read back from disk is palloc'd here and freed by the slot at the next read */
		old = MemoryContextSwitchTo(sr->cxt);
		got = sr->reading != NULL && tuplestore_gettupleslot(sr->reading, true, false, sr->slot);
		MemoryContextSwitchTo(old);
		if (!got)
		{
			if (sr->reading)
				tuplestore_end(sr->reading);
			sr->reading = sr->spill;
			sr->spill = NULL;
			if (sr->reading == NULL)
				break;
			chargecount_reset(sr->counts);
			continue;
		}
		old = MemoryContextSwitchTo(sr->st.rowcxt);
		slot_getallattrs(sr->slot);
		memcpy(values, sr->slot->tts_values, sizeof(Datum) * (O__COUNT + 1));
		memcpy(nulls, sr->slot->tts_isnull, sizeof(bool) * (O__COUNT + 1));
		key_of_values(values, &k);
		if (staged_count(sr, values, nulls, &k))
		{
			MemoryContextSwitchTo(old);
			return true;
		}
		MemoryContextSwitchTo(old);
	}
	/* every line returned: close the read; the caller reports and drops the load */
	sr->done = true;
	staged_close(sr);
	return false;
}

PG_FUNCTION_INFO_V1(le_focus_staged_rows_fn);

/*
 * _focus_staged_rows(what, part): the current user's staged FOCUS file typed
 * as _focus_lines types a text, plus each line's occurrence (the k-th line of
 * the file with the same charge identity), one row per call: nothing is
 * materialised, so an INSERT ... SELECT over it streams from the staging
 * table into spend.  Part 1 starts a load and returns its first
 * LE_FOCUS_LINES_PER_STATEMENT lines; parts 2, 3, ... (later statements of
 * the same transaction) return the next ones, until _focus_staged_done says
 * the file is done.  Copies are counted in a hash table of identities that
 * holds at most work_mem x hash_mem_multiplier's worth (focus_count_cap); the
 * lines of identities that do not fit are typed into a tuplestore (spilling
 * to disk) and numbered in a next round.  So memory does not grow with the
 * file.
 */
Datum
le_focus_staged_rows_fn(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	StagedRows *sr;
	Datum		values[O__COUNT + 1];
	bool		nulls[O__COUNT + 1];
	int64	   *left;

	if (SRF_IS_FIRSTCALL())
	{
		char	   *what = what_arg(PG_GETARG_TEXT_PP(0));
		int32		part = PG_GETARG_INT32(1);
		TupleDesc	td;

		fctx = SRF_FIRSTCALL_INIT();
		if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE || td->natts != O__COUNT + 1)
			elog(ERROR, "_focus_staged_rows: wrong result type");
		if (part == 1)
			staged_load_start(what, false);	/* a new load */
		else if (part < 1 || focus_load == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("part must be 1 to start a load, or the next part of a load in progress; got %d", part)));
		left = MemoryContextAlloc(fctx->multi_call_memory_ctx, sizeof(int64));
		*left = LE_FOCUS_LINES_PER_STATEMENT();
		fctx->user_fctx = left;
	}
	fctx = SRF_PERCALL_SETUP();
	left = (int64 *) fctx->user_fctx;
	sr = focus_load;
	if (sr == NULL || sr->done || *left <= 0)
		SRF_RETURN_DONE(fctx);
	if (!staged_next(sr, values, nulls))
		SRF_RETURN_DONE(fctx);
	(*left)--;
	SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(sr->tupdesc, values, nulls)));
}

/* ======================================================================== */
/* The staged file inserted from C                                          */
/* ======================================================================== */

/*
 * spend's columns a load writes (the INSERT of load_focus's other path, in
 * its order): each from a typed column (O_*), or from the load's arguments.
 */
#define SC_TENANT (-1)
#define SC_SOURCE (-2)
#define SC_DELIVERY (-3)
#define SC_OCCURRENCE O__COUNT

typedef struct SpendCol
{
	const char *name;
	int			from;			/* O_* (O_SKU: or the GPU type's SKU), or SC_* */
	Oid			type;
} SpendCol;

static const SpendCol spend_cols[] = {
	{"tenant", SC_TENANT, TEXTOID}, {"charge_period_start", O_CPS, TIMESTAMPTZOID},
	{"charge_period_end", O_CPE, TIMESTAMPTZOID}, {"billing_period_start", O_BPS, TIMESTAMPTZOID},
	{"billing_period_end", O_BPE, TIMESTAMPTZOID}, {"provider", O_PROVIDER, TEXTOID},
	{"service_name", O_SERVICE_NAME, TEXTOID}, {"service_category", O_SERVICE_CATEGORY, TEXTOID},
	{"charge_category", O_CHARGE_CATEGORY, TEXTOID}, {"charge_description", O_CHARGE_DESCRIPTION, TEXTOID},
	{"pricing_category", O_PRICING_CATEGORY, TEXTOID}, {"pricing", O_PRICING, TEXTOID},
	{"region", O_REGION, TEXTOID}, {"sku", O_SKU, TEXTOID}, {"instance_type", O_INSTANCE_TYPE, TEXTOID},
	{"gpus_per_instance", O_GPUS, INT4OID}, {"consumed_quantity", O_QUANTITY, NUMERICOID},
	{"consumed_unit", O_UNIT, TEXTOID}, {"gpu_hours", O_GPU_HOURS, NUMERICOID},
	{"billed_cost", O_BILLED, NUMERICOID}, {"effective_cost", O_EFFECTIVE, NUMERICOID},
	{"list_cost", O_LIST, NUMERICOID}, {"billing_currency", O_CURRENCY, TEXTOID},
	{"run_id", O_RUN_ID, TEXTOID}, {"resource_id", O_RESOURCE_ID, TEXTOID}, {"tags", O_TAGS, JSONBOID},
	{"record", O_RECORD, JSONBOID}, {"source", SC_SOURCE, TEXTOID}, {"line", O_LINE, INT4OID},
	{"row_hash", O_KEY, TEXTOID}, {"occurrence", SC_OCCURRENCE, INT4OID},
	{"billing_account_id", O_ACCOUNT, TEXTOID}, {"delivery", SC_DELIVERY, TEXTOID}
};

#define LE_SPEND_COLS lengthof(spend_cols)

/* Lines buffered for one table_multi_insert, and the bytes of their staged text at most. */
#define LE_FOCUS_MULTI 1000
#define LE_FOCUS_MULTI_BYTES (1024 * 1024)

/*
 * Whether the current role's INSERT into spend may be done here, exactly as
 * the INSERT ... SELECT of load_focus would do it: spend is a plain table
 * (not partitioned, not a foreign table, no Citus), with no BEFORE or INSTEAD
 * row triggers and no transition tables (AFTER row and statement triggers,
 * the foreign key's included, fire as for that INSERT), no stored generated
 * columns, the column types the typed lines have, defaults with no volatile
 * function but nextval (so rows may be buffered), INSERT privilege on the
 * columns written, and row-level security not applying or applying with the
 * shipped policy only, whose WITH CHECK (the tenant role's membership) the
 * load's one tenant passes.  Anything else: the SQL path, which PostgreSQL
 * checks itself.  attnos gets the column numbers; defaults the expressions of
 * the other columns.
 */
static bool
spend_fast_ok(Relation rel, text *who, AttrNumber *attnos, List **defaults)
{
	TupleDesc	td = RelationGetDescr(rel);
	TriggerDesc *trig = rel->trigdesc;
	RangeTblEntry *rte;
	List	   *perminfos = NIL;
	LePermInfo *perm;
	bool		ok;

	*defaults = NIL;
	if (OidIsValid(get_extension_oid("citus", true)) || rel->rd_rel->relkind != RELKIND_RELATION)
		return false;
	if (trig && (trig->trig_insert_before_row || trig->trig_insert_instead_row || trig->trig_insert_new_table))
		return false;
	if (td->constr && td->constr->has_generated_stored)
		return false;
	for (int c = 0; c < (int) LE_SPEND_COLS; c++)
	{
		attnos[c] = get_attnum(RelationGetRelid(rel), spend_cols[c].name);
		if (attnos[c] == InvalidAttrNumber ||
			TupleDescAttr(td, attnos[c] - 1)->atttypid != spend_cols[c].type ||
			TupleDescAttr(td, attnos[c] - 1)->atttypmod != -1)
			return false;
	}
	for (int a = 1; a <= td->natts; a++)
	{
		bool		written = false;
		Node	   *def;

		for (int c = 0; c < (int) LE_SPEND_COLS && !written; c++)
			written = (attnos[c] == a);
		if (written || TupleDescAttr(td, a - 1)->attisdropped)
			continue;
		def = build_column_default(rel, a);
		if (def == NULL)
			continue;
		def = (Node *) expression_planner((Expr *) def);
		if (contain_volatile_functions_not_nextval(def))
			return false;
		*defaults = lappend(*defaults, list_make2(makeInteger(a), def));
	}
	/* the privileges the INSERT would need */
	rte = makeNode(RangeTblEntry);
	rte->rtekind = RTE_RELATION;
	rte->relid = RelationGetRelid(rel);
	rte->relkind = rel->rd_rel->relkind;
	rte->rellockmode = RowExclusiveLock;
	perm = le_perminfo(rte, &perminfos);
	perm->requiredPerms = ACL_INSERT;
	for (int c = 0; c < (int) LE_SPEND_COLS; c++)
		perm->insertedCols = bms_add_member(perm->insertedCols, attnos[c] - FirstLowInvalidHeapAttributeNumber);
	if (!le_check_permissions(list_make1(rte), perminfos, false))
		return false;
	/* row-level security */
	{
		static SPIPlanPtr plan = NULL;
		Oid			argtypes[1] = {TEXTOID};
		Datum		args[1] = {PointerGetDatum(who)};
		bool		isnull;
		Datum		d;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		plan = le_spi_plan(&plan,
						   "SELECT NOT pg_catalog.row_security_active('llm_econ.spend') "
						   "OR (llm_econ._is_tenant_member($1) AND (SELECT pg_catalog.count(*) OPERATOR(pg_catalog.=) 1 "
						   "AND pg_catalog.bool_and(p.polname OPERATOR(pg_catalog.=) 'spend_tenant' AND p.polpermissive "
						   "AND p.polcmd OPERATOR(pg_catalog.=) '*' AND p.polroles OPERATOR(pg_catalog.=) '{0}' "
						   "AND pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) OPERATOR(pg_catalog.=) ANY "
						   "('{llm_econ._is_tenant_member(tenant),_is_tenant_member(tenant)}'::pg_catalog.text[])) "
						   "FROM pg_catalog.pg_policy p WHERE p.polrelid OPERATOR(pg_catalog.=) 'llm_econ.spend'::pg_catalog.regclass))",
						   1, argtypes);
		if (SPI_execute_plan(plan, args, NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "checking spend's policies failed");
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		ok = !isnull && DatumGetBool(d);
		SPI_finish();
	}
	return ok;
}

/* llm_econ._sku_find (sku.c) */
extern PGDLLEXPORT Datum le_sku_find_fn(PG_FUNCTION_ARGS);

/* The SKU of a GPU type, as llm_econ._sku_find gives it (the last answer kept: lines repeat types). */
static Datum
sku_of_gpu_type(Datum gpu_type, bool *isnull, text **last_in, text **last_out, MemoryContext cxt)
{
	text	   *t = DatumGetTextPP(gpu_type);

	if (*last_in == NULL || VARSIZE_ANY_EXHDR(*last_in) != VARSIZE_ANY_EXHDR(t) ||
		memcmp(VARDATA_ANY(*last_in), VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)) != 0)
	{
		LOCAL_FCINFO(fc, 1);
		Datum		r;

		InitFunctionCallInfoData(*fc, NULL, 1, DEFAULT_COLLATION_OID, NULL, NULL);
		fc->args[0].value = PointerGetDatum(t);
		fc->args[0].isnull = false;
		r = le_sku_find_fn(fc);
		*last_in = (text *) MemoryContextAlloc(cxt, VARSIZE_ANY(t));
		memcpy(*last_in, t, VARSIZE_ANY(t));
		*last_out = NULL;
		if (!fc->isnull)
		{
			text	   *o = DatumGetTextPP(r);

			*last_out = (text *) MemoryContextAlloc(cxt, VARSIZE_ANY(o));
			memcpy(*last_out, o, VARSIZE_ANY(o));
		}
	}
	*isnull = (*last_out == NULL);
	return PointerGetDatum(*last_out);
}

/*
 * A foreign key's check of an inserted row does nothing when the row's key
 * columns are all NULL (MATCH SIMPLE and MATCH FULL alike): such a row need
 * not queue the check, whose firing would fetch the row again to learn that.
 * FkSkip holds spend's triggers without the foreign keys' insert checks, and
 * the key columns of those checks; a row with any of them not NULL queues
 * every trigger, as an INSERT does.
 */
typedef struct FkSkip
{
	TriggerDesc *all;			/* spend's triggers */
	TriggerDesc *without;		/* the same without the insert checks (NULL: spend has none) */
	int			nkeys;
	AttrNumber	keys[INDEX_MAX_KEYS * 4];	/* the checks' key columns (a check whose columns do not fit stays in without) */
} FkSkip;

static void
fk_skip_init(Relation rel, TriggerDesc *td, FkSkip *fs)
{
	List	   *fks = RelationGetFKeyList(rel);
	int			n = 0;

	memset(fs, 0, sizeof(FkSkip));
	fs->all = td;
	if (td == NULL)
		return;
	fs->without = CopyTriggerDesc(td);
	fs->without->trig_insert_after_row = false;
	for (int i = 0; i < td->numtriggers; i++)
	{
		Trigger    *t = &td->triggers[i];
		ForeignKeyCacheInfo *fk = NULL;
		ListCell   *lc;

		if (t->tgfoid == F_RI_FKEY_CHECK_INS && OidIsValid(t->tgconstraint))
			foreach(lc, fks)
				if (((ForeignKeyCacheInfo *) lfirst(lc))->conoid == t->tgconstraint)
					fk = (ForeignKeyCacheInfo *) lfirst(lc);
		if (fk && fs->nkeys + fk->nkeys <= (int) lengthof(fs->keys))
		{
			for (int k = 0; k < fk->nkeys; k++)
				fs->keys[fs->nkeys++] = fk->conkey[k];
			continue;
		}
		fs->without->triggers[n++] = fs->without->triggers[i];
		if (TRIGGER_TYPE_MATCHES(t->tgtype, TRIGGER_TYPE_ROW, TRIGGER_TYPE_AFTER, TRIGGER_TYPE_INSERT))
			fs->without->trig_insert_after_row = true;
	}
	fs->without->numtriggers = n;
	if (fs->nkeys == 0)
		fs->without = NULL;
}

/*
 * Index entries held back and inserted in the index's order, as a bulk load
 * does.  A file's charge identities are spread over spend_one_line's key
 * space: inserted in file order, each line lands on a random leaf page, and
 * once the index outgrows the shared buffers (a few hundred thousand lines)
 * nearly every line reads one page in and writes another out.  Sorted, a
 * statement's lines visit the leaf pages in key order, each page once.
 * What is held back: spend's unique btree indexes on plain columns, checked
 * at once (not deferrable), with no predicate, ready for inserts, but the
 * primary key (ids come in order already).  The held entries are inserted
 * (and checked: a duplicate is the same unique violation, naming the same
 * constraint) in batches: the first after the first heap batch's lines (so a
 * file loaded again meets its stored charges as soon as before), each next
 * batch twice as large, and always before a statement's after-row events
 * fire, so triggers and the foreign key's checks see complete indexes.  Each
 * sort is bounded by work_mem (tuplesort spills past it).
 */
typedef struct HeldIndexes
{
	int			nall;			/* the ResultRelInfo's indexes */
	int			n;				/* the last n of them are held back */
	Tuplesortstate *sort[8];	/* per held index: the batch's entries (NULL: none yet) */
	int64		held;			/* lines in the batch */
	int64		batch;			/* lines the batch takes before it is inserted */
	MemoryContext cxt;			/* the inserts' per-entry work */
} HeldIndexes;

static bool
index_held_ok(Relation idx, IndexInfo *ii)
{
	return idx->rd_rel->relam == BTREE_AM_OID && idx->rd_index->indisunique &&
		!idx->rd_index->indisprimary && idx->rd_index->indimmediate && ii->ii_ReadyForInserts &&
		ii->ii_Expressions == NIL && ii->ii_Predicate == NIL && ii->ii_ExclusionOps == NULL;
}

/* Move the indexes held back to the end of rri's arrays, out of ExecInsertIndexTuples' reach. */
static void
held_begin(HeldIndexes *h, ResultRelInfo *rri)
{
	int			nall = rri->ri_NumIndices;
	Relation   *descs = palloc(sizeof(Relation) * Max(nall, 1));
	IndexInfo **infos = palloc(sizeof(IndexInfo *) * Max(nall, 1));
	bool	   *held = palloc(sizeof(bool) * Max(nall, 1));
	int			o = 0;

	memset(h, 0, sizeof(HeldIndexes));
	h->nall = nall;
	for (int i = 0; i < nall; i++)
	{
		held[i] = h->n < (int) lengthof(h->sort) &&
			index_held_ok(rri->ri_IndexRelationDescs[i], rri->ri_IndexRelationInfo[i]);
		h->n += held[i];
	}
	/* the kept ones first, then the held ones, each in their order */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nall; i++)
			if (held[i] == (pass == 1))
			{
				descs[o] = rri->ri_IndexRelationDescs[i];
				infos[o++] = rri->ri_IndexRelationInfo[i];
			}
	memcpy(rri->ri_IndexRelationDescs, descs, sizeof(Relation) * nall);
	memcpy(rri->ri_IndexRelationInfo, infos, sizeof(IndexInfo *) * nall);
	rri->ri_NumIndices = nall - h->n;
	pfree(descs);
	pfree(infos);
	pfree(held);
	h->batch = LE_FOCUS_MULTI;
	h->cxt = AllocSetContextCreate(CurrentMemoryContext, "llm_econ held index entries", ALLOCSET_DEFAULT_SIZES);
}

/* The held indexes back in rri (for ExecCloseIndices). */
static void
held_end(HeldIndexes *h, ResultRelInfo *rri)
{
	rri->ri_NumIndices = h->nall;
	MemoryContextDelete(h->cxt);
}

/* Hold back an inserted row's entries for the held indexes. */
static void
held_add(HeldIndexes *h, ResultRelInfo *rri, TupleTableSlot *slot, EState *estate)
{
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	if (h->n == 0)
		return;
	for (int k = 0; k < h->n; k++)
	{
		int			i = h->nall - h->n + k;
		Relation	idx = rri->ri_IndexRelationDescs[i];

		if (h->sort[k] == NULL)
			h->sort[k] = tuplesort_begin_index_btree(rri->ri_RelationDesc, idx, false, false,
													 Max(64, work_mem / h->n), NULL, TUPLESORT_NONE);
		FormIndexDatum(rri->ri_IndexRelationInfo[i], slot, estate, values, isnull);
		tuplesort_putindextuplevalues(h->sort[k], idx, &slot->tts_tid, values, isnull);
	}
	h->held++;
}

/* Insert the held entries, each index's in its key order (a duplicate raises the unique violation). */
static void
held_flush(HeldIndexes *h, ResultRelInfo *rri)
{
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	for (int k = 0; k < h->n; k++)
	{
		int			i = h->nall - h->n + k;
		Relation	idx = rri->ri_IndexRelationDescs[i];
		IndexTuple	itup;
		MemoryContext old;
		int64		m = 0;

		if (h->sort[k] == NULL)
			continue;
		tuplesort_performsort(h->sort[k]);
		old = MemoryContextSwitchTo(h->cxt);
		while ((itup = tuplesort_getindextuple(h->sort[k], true)) != NULL)
		{
			index_deform_tuple(itup, RelationGetDescr(idx), values, isnull);
			index_insert(idx, values, isnull, &itup->t_tid, rri->ri_RelationDesc, UNIQUE_CHECK_YES, false,
						 rri->ri_IndexRelationInfo[i]);
			if ((++m & 1023) == 0)
			{
				MemoryContextReset(h->cxt);
				CHECK_FOR_INTERRUPTS();
			}
		}
		MemoryContextSwitchTo(old);
		MemoryContextReset(h->cxt);
		tuplesort_end(h->sort[k]);
		h->sort[k] = NULL;
	}
	if (h->held >= h->batch)
		h->batch *= 2;
	h->held = 0;
}

/* Insert the buffered rows: the heap in one call, then each row's index entries and AFTER ROW events. */
static void
spend_flush(EState *estate, ResultRelInfo *rri, TupleTableSlot **slots, int n, BulkInsertState bistate,
			const FkSkip *fs, HeldIndexes *h)
{
	MemoryContext old;

	if (n == 0)
		return;
	old = MemoryContextSwitchTo(GetPerTupleMemoryContext(estate));
	table_multi_insert(rri->ri_RelationDesc, slots, n, estate->es_output_cid, 0, bistate);
	MemoryContextSwitchTo(old);
	/*
	 * Ask the WAL writer to write and flush the WAL written so far, in the
	 * background (as for an asynchronous commit): the rings of spend's pages
	 * and of the staged pages then find their dirty buffers' WAL flushed when
	 * they reuse them, instead of flushing it here and waiting.  What a
	 * commit waits for is unchanged.
	 */
	XLogSetAsyncXactLSN(XactLastRecEnd);
	for (int i = 0; i < n; i++)
	{
		List	   *recheck = NIL;
		bool		keys_null = (fs->without != NULL);

		if (rri->ri_NumIndices > 0)
			recheck = le_insert_index_tuples(rri, slots[i], estate);
		held_add(h, rri, slots[i], estate);
		for (int k = 0; k < fs->nkeys && keys_null; k++)
			keys_null = slot_attisnull(slots[i], fs->keys[k]);
		/* the trigger set in force again right after: events are fired by the full one */
		rri->ri_TrigDesc = keys_null ? fs->without : fs->all;
		ExecARInsertTriggers(estate, rri, slots[i], recheck, NULL);
		rri->ri_TrigDesc = fs->all;
		list_free(recheck);
		ExecClearTuple(slots[i]);
	}
	ResetPerTupleExprContext(estate);
	if (h->held >= h->batch)
		held_flush(h, rri);
}

PG_FUNCTION_INFO_V1(le_focus_staged_insert_fn);

/*
 * _focus_staged_insert(what, who, source, delivery): the current role's
 * staged FOCUS file typed and numbered as _focus_staged_rows does, inserted
 * into spend for tenant who from C, as COPY inserts (the heap in batches;
 * constraints, indexes, AFTER triggers and the foreign key as for an
 * INSERT; the entries of the unique indexes but the primary key sorted, in
 * batches, see HeldIndexes), with no ON CONFLICT: a charge already stored is a unique
 * violation of spend_one_line, on which load_focus rolls this back and takes
 * the INSERT ... ON CONFLICT DO NOTHING path.  The staged lines it loads are
 * deleted as they are read (staged_delete: each page is visited once, and a
 * line staged by another session during the load stays staged), or, when that
 * could not be exactly load_focus's DELETE statement, by that statement at
 * the end.  Returns the lines inserted;
 * NULL (nothing done) when spend_fast_ok says the INSERT cannot be done here
 * exactly.  The after-row events are fired every LE_FOCUS_LINES_PER_STATEMENT
 * lines, as the other path's statements do, so memory stays bounded.
 */
Datum
le_focus_staged_insert_fn(PG_FUNCTION_ARGS)
{
	char	   *what;
	text	   *who;
	Oid			relid;
	Relation	rel;
	AttrNumber	attnos[LE_SPEND_COLS];
	List	   *defaults;
	EState	   *estate;
	ResultRelInfo *rri;
	RangeTblEntry *rte;
	List	   *perminfos = NIL;
	LePermInfo *perm;
	TupleTableSlot *slots[LE_FOCUS_MULTI];
	int			nslots = 0;
	int			nbuf = 0;
	size_t		bytes = 0;
	int64		in_statement = 0;
	BulkInsertState bistate;
	StagedRows *sr;
	Datum		values[O__COUNT + 1];
	bool		nulls[O__COUNT + 1];
	int			ndef;
	AttrNumber *defatt;
	ExprState **defstate;
	ListCell   *lc;
	text	   *sku_in = NULL,
			   *sku_out = NULL;
	FkSkip		fks;
	HeldIndexes held;
	int64		n;
	bool		deleted;
	MemoryContext cxt = CurrentMemoryContext;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("what and who must not be NULL")));
	what = what_arg(PG_GETARG_TEXT_PP(0));
	who = PG_GETARG_TEXT_PP(1);
	relid = get_relname_relid("spend", get_namespace_oid("llm_econ", false));
	if (!OidIsValid(relid))
		PG_RETURN_NULL();
	rel = table_open(relid, RowExclusiveLock);
	if (!spend_fast_ok(rel, who, attnos, &defaults))
	{
		table_close(rel, NoLock);
		PG_RETURN_NULL();
	}

	/* the executor state an INSERT has: the result relation, its indexes, its triggers */
	estate = CreateExecutorState();
	rte = makeNode(RangeTblEntry);
	rte->rtekind = RTE_RELATION;
	rte->relid = relid;
	rte->relkind = rel->rd_rel->relkind;
	rte->rellockmode = RowExclusiveLock;
	perm = le_perminfo(rte, &perminfos);
	perm->requiredPerms = ACL_INSERT;
	for (int c = 0; c < (int) LE_SPEND_COLS; c++)
		perm->insertedCols = bms_add_member(perm->insertedCols, attnos[c] - FirstLowInvalidHeapAttributeNumber);
	le_init_range_table(estate, list_make1(rte), perminfos);
	rri = makeNode(ResultRelInfo);
	ExecInitResultRelation(estate, rri, 1);
	le_check_valid_insert_rel(rri);
	ExecOpenIndices(rri, false);
	held_begin(&held, rri);
	estate->es_output_cid = GetCurrentCommandId(true);
	ndef = list_length(defaults);
	defatt = palloc(sizeof(AttrNumber) * Max(ndef, 1));
	defstate = palloc(sizeof(ExprState *) * Max(ndef, 1));
	ndef = 0;
	foreach(lc, defaults)
	{
		List	   *d = (List *) lfirst(lc);

		defatt[ndef] = (AttrNumber) intVal(linitial(d));
		defstate[ndef] = ExecInitExpr((Expr *) lsecond(d), NULL);
		ndef++;
	}
	bistate = GetBulkInsertState();
	fk_skip_init(rel, rri->ri_TrigDesc, &fks);

	sr = staged_load_start(what, true);
	AfterTriggerBeginQuery();
	ExecBSInsertTriggers(estate, rri);
	while (staged_next(sr, values, nulls))
	{
		TupleTableSlot *slot;
		ExprContext *econtext = GetPerTupleExprContext(estate);

		if (nbuf == nslots)
		{
			MemoryContext old = MemoryContextSwitchTo(cxt);

			slots[nslots++] = table_slot_create(rel, &estate->es_tupleTable);
			MemoryContextSwitchTo(old);
		}
		slot = slots[nbuf];
		ExecClearTuple(slot);
		memset(slot->tts_isnull, true, sizeof(bool) * slot->tts_tupleDescriptor->natts);
		for (int c = 0; c < (int) LE_SPEND_COLS; c++)
		{
			int			a = attnos[c] - 1;
			int			from = spend_cols[c].from;

			if (from == SC_TENANT)
			{
				slot->tts_values[a] = PointerGetDatum(who);
				slot->tts_isnull[a] = false;
			}
			else if (from == SC_SOURCE || from == SC_DELIVERY)
			{
				int			arg = (from == SC_SOURCE) ? 2 : 3;

				slot->tts_isnull[a] = PG_ARGISNULL(arg);
				slot->tts_values[a] = PG_ARGISNULL(arg) ? (Datum) 0 : PG_GETARG_DATUM(arg);
			}
			else if (from == O_SKU && nulls[O_SKU] && !nulls[O_GPU_TYPE])
				slot->tts_values[a] = sku_of_gpu_type(values[O_GPU_TYPE], &slot->tts_isnull[a],
													  &sku_in, &sku_out, cxt);
			else
			{
				slot->tts_values[a] = values[from];
				slot->tts_isnull[a] = nulls[from];
			}
		}
		for (int d = 0; d < ndef; d++)
			slot->tts_values[defatt[d] - 1] = ExecEvalExpr(defstate[d], econtext, &slot->tts_isnull[defatt[d] - 1]);
		ExecStoreVirtualTuple(slot);
		slot->tts_tableOid = relid;
		if (rel->rd_att->constr)
			ExecConstraints(rri, slot, estate);
		ExecMaterializeSlot(slot);
		ResetPerTupleExprContext(estate);
		nbuf++;
		bytes += sr->line_bytes;
		if (nbuf == LE_FOCUS_MULTI || bytes >= LE_FOCUS_MULTI_BYTES)
		{
			spend_flush(estate, rri, slots, nbuf, bistate, &fks, &held);
			nbuf = 0;
			bytes = 0;
		}
		if (++in_statement >= LE_FOCUS_LINES_PER_STATEMENT())
		{
			/* what the other path's next statement would do: the queued checks run and are freed */
			spend_flush(estate, rri, slots, nbuf, bistate, &fks, &held);
			nbuf = 0;
			bytes = 0;
			held_flush(&held, rri);
			ExecASInsertTriggers(estate, rri, NULL);
			AfterTriggerEndQuery(estate);
			AfterTriggerBeginQuery();
			estate->es_output_cid = GetCurrentCommandId(true);
			ExecBSInsertTriggers(estate, rri);
			in_statement = 0;
		}
	}
	spend_flush(estate, rri, slots, nbuf, bistate, &fks, &held);
	held_flush(&held, rri);
	held_end(&held, rri);
	ExecASInsertTriggers(estate, rri, NULL);
	AfterTriggerEndQuery(estate);
	n = sr->returned;
	deleted = sr->deleting;
	focus_load_drop();
	/* the staged lines not deleted while read: as load_focus's other path deletes them */
	if (!deleted)
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute("DELETE FROM llm_econ.focus_staging s WHERE s.writer OPERATOR(pg_catalog.=) CURRENT_USER",
						false, 0) != SPI_OK_DELETE)
			elog(ERROR, "emptying focus_staging failed");
		SPI_finish();
	}

	FreeBulkInsertState(bistate);
	table_finish_bulk_insert(rel, 0);
	ExecResetTupleTable(estate->es_tupleTable, false);	/* the buffer's slots and the triggers' */
	ExecCloseResultRelations(estate);
	ExecCloseRangeTableRelations(estate);
	FreeExecutorState(estate);
	table_close(rel, NoLock);
	PG_RETURN_INT64(n);
}

PG_FUNCTION_INFO_V1(le_focus_staged_done_fn);

/*
 * _focus_staged_done(): NULL while the load _focus_staged_rows began has lines
 * left (call the next part), else how many lines it read; then the load is
 * dropped.  0 when no load is in progress.
 */
Datum
le_focus_staged_done_fn(PG_FUNCTION_ARGS)
{
	int64		n;

	if (focus_load == NULL)
		PG_RETURN_INT64(0);
	if (!focus_load->done)
		PG_RETURN_NULL();
	n = focus_load->returned;
	focus_load_drop();
	PG_RETURN_INT64(n);
}

PG_FUNCTION_INFO_V1(le_focus_staged_periods_fn);

/*
 * _focus_staged_periods(what): the billing periods of the current user's
 * staged FOCUS file, (provider key, BillingAccountId, BillingPeriodStart),
 * each once: what a delivery replaces, known before the lines are loaded.  A
 * pass that reads only these columns; a line it cannot read is left out (the
 * load that follows names it in its error, and the whole load is undone).
 * Periods are told apart by the md5 of their values, in a table of at most
 * work_mem x hash_mem_multiplier (focus_count_cap); past that, a period may
 * come back more than once.
 */
Datum
le_focus_staged_periods_fn(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *what = what_arg(PG_GETARG_TEXT_PP(0));
	StagedRows *sr;
	MemoryContext percall = CurrentMemoryContext;
	InitMaterializedSRF(fcinfo, 0);
	sr = palloc0(sizeof(StagedRows));
	sr->cxt = percall;
	sr->owner = CurrentResourceOwner;	/* the read is closed before this call returns */
	sr->st.what = what;
	sr->st.rowcxt = AllocSetContextCreate(percall, "llm_econ focus line", ALLOCSET_DEFAULT_SIZES);
	sr->batchcxt = AllocSetContextCreate(percall, "llm_econ focus batch", 0, 512 * 1024, 1024 * 1024);
	initStringInfo(&sr->rec);
	sr->cap = focus_count_cap();
	sr->counts = chargecount_create(percall, 1024, NULL);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	MemoryContextSwitchTo(percall);
	staged_open(sr);
	SPI_finish();
	MemoryContextSwitchTo(percall);

	while (le_staged_next_record(sr))
	{
		le_csv		r;
		FocusIn		in;
		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		if (!sr->header_done)
		{
			staged_parse(sr, &r, true);
			sr->st.ncols = le_header_names(&r, what, sr->rec_start, &sr->st.names);
			le_focus_header(&sr->st, what);
			sr->header_done = true;
			continue;
		}
		old = MemoryContextSwitchTo(sr->st.rowcxt);
		if (staged_parse(sr, &r, false) == LE_CSV_RECORD && r.nfields == sr->st.ncols)
		{
			const char *prov;
			char	   *bps;
			char	   *key;
			bool		ok = true;
			Datum		values[3];
			bool		nulls[3] = {false, false, false};

			le_focus_in_of_record(&sr->st, &r, sr->rec_start, &in);
			prov = in.v[FC_SERVICE_PROVIDER_NAME] ? col_cstr(&in, FC_SERVICE_PROVIDER_NAME) : col_cstr(&in, FC_PROVIDER_NAME);
			if (prov == NULL || provider_key(prov)[0] == '\0')
				ok = false;
			else
				values[0] = CStringGetTextDatum(provider_key(prov));
			nulls[1] = (in.v[FC_BILLING_ACCOUNT_ID] == NULL);
			if (!nulls[1])
				values[1] = PointerGetDatum(cstring_to_text_with_len(in.v[FC_BILLING_ACCOUNT_ID],
																	  in.len[FC_BILLING_ACCOUNT_ID]));
			bps = col_cstr(&in, FC_BILLING_PERIOD_START);
			nulls[2] = (bps == NULL);
			if (ok && bps)
			{
				/* the instant as the load reads it; unreadable: left to the load's error */
				char	   *inst = time_identity(bps);

				if (inst == bps)
					ok = false;
				else
					values[2] = Int64GetDatum(strtoll(inst, NULL, 10));
			}
			if (ok)
			{
				uint8		digest[16];
				ChargeKey	k;
				bool		found = false;

				key = psprintf("%s\x1f%s\x1f%s", TextDatumGetCString(values[0]),
							   nulls[1] ? "\\N" : TextDatumGetCString(values[1]),
							   nulls[2] ? "\\N" : psprintf(INT64_FORMAT, DatumGetInt64(values[2])));
				le_md5_bytes(key, strlen(key), digest);
				memcpy(&k, digest, sizeof(k));
				if (chargecount_lookup(sr->counts, k) == NULL && count_room(sr->counts, sr->cap))
					chargecount_insert(sr->counts, k, &found);
				else
					found = chargecount_lookup(sr->counts, k) != NULL;
				if (!found)
					tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			}
		}
		MemoryContextSwitchTo(old);
		MemoryContextReset(sr->st.rowcxt);
	}
	staged_close(sr);
	return (Datum) 0;
}
