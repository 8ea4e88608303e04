/* focus_type.c: one FOCUS line typed for llm_econ.spend (periods, provider key, GPU machine and GPU-hours, amounts, run, record as jsonb) with its charge identity, and _focus_charge_key. */
#include "focus.h"

#include <math.h>

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/formatting.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "core/ascii.h"
#include "core/charge.h"
#include "core/csv.h"
#include "core/focus_text.h"
#include "core/guard.h"

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
	"CommitmentDiscountId", "AllocatedMethodId", "AllocatedResourceId", "Tags", "x_run_id",
	"x_UsageType", "x_SkuDetails", "x_SkuMeterCategory", "x_SkuMeterName", "CommitmentDiscountStatus",
	"ChargeSubcategory", "SkuMeter"
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
	shape = le_timestamp_shape(s);
	if (shape == 0)
		line_error(in, focus_col_names[c], ERRCODE_BAD_COPY_FILE_FORMAT, s, "not an ISO 8601 timestamp");
	/* no offset: read as a timestamp without time zone, which is the UTC instant */
	{
		int64		v;

		if (le_iso_time_us(s, &v))
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

/* The value of key, or of Key, in a JSON object container (NULL when neither is there). */
static JsonbValue *
container_key_either(JsonbContainer *c, const char *key, const char *Key)
{
	JsonbValue	k;
	JsonbValue *v;

	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = strlen(key);
	v = findJsonbValueFromContainer(c, JB_FOBJECT, &k);
	if (v == NULL)
	{
		k.val.string.val = (char *) Key;
		v = findJsonbValueFromContainer(c, JB_FOBJECT, &k);
	}
	return v;
}

/*
 * Tags as a JSON object: j itself when it is one.  FOCUS makes Tags a JSON
 * object; Google's FOCUS BigQuery view writes an array of {key, value,
 * x_type, x_inherited, x_namespace} (a resource's labels, system labels, its
 * project's labels, then tags), read as the object of its pairs, the first
 * value of a key kept (a resource's own label before its project's).  NULL
 * for anything else (an array of other things, a scalar).
 */
static Jsonb *
tags_object(Jsonb *j)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken t;
	JsonbParseState *ps = NULL;
	JsonbValue **keys,
			  **vals;
	int			n = 0;

	if (JB_ROOT_IS_OBJECT(j) && !JB_ROOT_IS_SCALAR(j))
		return j;
	if (!JB_ROOT_IS_ARRAY(j) || JB_ROOT_IS_SCALAR(j))
		return NULL;
	keys = palloc(sizeof(JsonbValue *) * (JB_ROOT_COUNT(j) + 1));
	vals = palloc(sizeof(JsonbValue *) * (JB_ROOT_COUNT(j) + 1));
	it = JsonbIteratorInit(&j->root);
	while ((t = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (t != WJB_ELEM)
			continue;
		if (v.type != jbvBinary || !JsonContainerIsObject(v.val.binary.data))
			return NULL;
		keys[n] = container_key_either(v.val.binary.data, "key", "Key");
		vals[n] = container_key_either(v.val.binary.data, "value", "Value");
		if (keys[n] == NULL || keys[n]->type != jbvString || vals[n] == NULL)
			return NULL;
		n++;
	}
	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	/* backwards: of equal keys a jsonb object keeps the last pushed, here the first written */
	for (int i = n - 1; i >= 0; i--)
	{
		pushJsonbValue(&ps, WJB_KEY, keys[i]);
		pushJsonbValue(&ps, WJB_VALUE, vals[i]);
	}
	return JsonbValueToJsonb(pushJsonbValue(&ps, WJB_END_OBJECT, NULL));
}

/* Tags as a jsonb object (tags_object; NULL when NULL; anything else is an error). */
static Jsonb *
col_tags(const FocusIn *in)
{
	char	   *s = col_cstr(in, FC_TAGS);
	Jsonb	   *j;

	if (s == NULL)
		return NULL;
	j = tags_object(DatumGetJsonbP(input_named(jsonb_in, s, in, focus_col_names[FC_TAGS])));
	if (j == NULL)
		line_error(in, focus_col_names[FC_TAGS], ERRCODE_BAD_COPY_FILE_FORMAT, s, "not a JSON object");
	return j;
}

/*
 * Numbers in JSON values are printed (numeric_out) only when short: 1e131071 is 8 bytes of
 * JSON and 131,072 characters printed (the CSV columns' numbers are not: their exponent has at
 * most 3 digits, le_decimal_canon).  A number whose printed form would exceed this many
 * characters is written in numeric's binary form (its base-10000 digits, weight and scale:
 * the size it is stored in) where it is hashed, and refused (54000) where its text is used.
 * docs/bounds.md.
 */
#define LE_JSON_NUMBER_TEXT_MAX 64

/*
 * numeric_out's length for n (sign, integer digits, point, scale), from its binary form
 * (numeric_send: ndigits, weight, sign, dscale, then base-10000 digits, the first nonzero),
 * without printing it.  *bin (when bin is not NULL) is that binary form.
 */
static int
numeric_text_len(Numeric n, bytea **bin)
{
	bytea	   *b = DatumGetByteaPP(DirectFunctionCall1(numeric_send, NumericGetDatum(n)));
	const unsigned char *p = (const unsigned char *) VARDATA_ANY(b);
	int			ndigits = (int16) ((p[0] << 8) | p[1]);
	int			weight = (int16) ((p[2] << 8) | p[3]);
	int			sign = (p[4] << 8) | p[5];
	int			dscale = (int16) ((p[6] << 8) | p[7]);
	int			len = (sign == 0x4000) ? 1 : 0;	/* NUMERIC_NEG */

	if (bin)
		*bin = b;
	if (ndigits > 0 && weight >= 0)
	{
		int			d0 = (p[8] << 8) | p[9];

		len += 4 * weight + (d0 >= 1000 ? 4 : d0 >= 100 ? 3 : d0 >= 10 ? 2 : 1);
	}
	else
		len += 1;				/* "0" */
	return len + (dscale > 0 ? 1 + dscale : 0);
}

/* numeric_out of n, or 54000 naming LE_JSON_NUMBER_TEXT_MAX and what the number is. */
static char *
numeric_text_bounded(Numeric n, const char *what)
{
	if (numeric_text_len(n, NULL) > LE_JSON_NUMBER_TEXT_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: a JSON number may print at most %d characters", what, LE_JSON_NUMBER_TEXT_MAX),
				 errhint("Write the number as a JSON string.")));
	return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(n)));
}

/* Whether a nested JSON value holds a number longer than LE_JSON_NUMBER_TEXT_MAX printed (checks for cancel). */
static bool
jsonb_has_long_number(JsonbContainer *c)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbValue	v;
	JsonbIteratorToken t;
	bool		found = false;

	while ((t = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		CHECK_FOR_INTERRUPTS();
		if ((t == WJB_VALUE || t == WJB_ELEM) && v.type == jbvNumeric && !found &&
			numeric_text_len(v.val.numeric, NULL) > LE_JSON_NUMBER_TEXT_MAX)
			found = true;		/* walk on: the iterator frees its levels as it leaves them */
	}
	return found;
}

/* A nested value as JSON text (JsonbToCString: about its stored size), or 54000 when it holds a long number. */
static char *
jsonb_nested_text(JsonbContainer *c, int len, const char *what)
{
	if (jsonb_has_long_number(c))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: a JSON number may print at most %d characters", what, LE_JSON_NUMBER_TEXT_MAX),
				 errhint("Write the number as a JSON string.")));
	return JsonbToCString(NULL, c, len);
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
		return numeric_text_bounded(v->val.numeric, key);
	if (v->type == jbvBool)
		return pstrdup(v->val.boolean ? "true" : "false");
	return jsonb_nested_text(v->val.binary.data, v->val.binary.len, key);
}

/* FOCUS provider names as the price tables' provider keys (AWS -> aws, Microsoft -> azure, ...). */
static char *
provider_key(const char *name)
{
	char	   *n = le_ascii_lower_copy(name, strlen(name));
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

/*
 * Run tags.  A Tags key names the run when its form (lower-case ASCII, a
 * leading "user:" -- AWS cost-allocation tags -- removed, then every '_' and
 * '-' removed) equals the form of one of llm_econ.run_tag_keys (default
 * run_id), or is xrunid (the x_run_id of earlier versions): user:run_id,
 * Run_ID, RunId and run-id all name the run.
 */
#define RUN_KEY_MAX 64
#define RUN_KEYS_MAX 32

static char run_keys_text[1024] = "\001";	/* the setting the forms below are of (never a real value) */
static char run_keys[RUN_KEYS_MAX][RUN_KEY_MAX];
static int	n_run_keys = 0;

/* The form of key p[0..len) in out (RUN_KEY_MAX bytes); false when too long to be a run key. */
static bool
run_key_form(const char *p, int len, char *out)
{
	int			n = 0;

	while (len > 0 && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	if (len >= 5 && pg_strncasecmp(p, "user:", 5) == 0)
		p += 5, len -= 5;
	for (int i = 0; i < len; i++)
	{
		char		ch = p[i];

		if (ch == '_' || ch == '-')
			continue;
		if (n >= RUN_KEY_MAX - 1)
			return false;
		out[n++] = (ch >= 'A' && ch <= 'Z') ? ch + ('a' - 'A') : ch;
	}
	out[n] = '\0';
	return n > 0;
}

/* The forms of llm_econ.run_tag_keys, read again when the setting changes. */
static void
run_keys_refresh(void)
{
	const char *s = le_run_tag_keys ? le_run_tag_keys : "";

	if (strcmp(s, run_keys_text) == 0)
		return;
	n_run_keys = 0;
	while (*s && n_run_keys < RUN_KEYS_MAX)
	{
		const char *e = strchr(s, ',');
		int			len = e ? (int) (e - s) : (int) strlen(s);

		if (run_key_form(s, len, run_keys[n_run_keys]))
			n_run_keys++;
		s += len;
		if (*s == ',')
			s++;
	}
	s = le_run_tag_keys ? le_run_tag_keys : "";
	if (strlen(s) < sizeof(run_keys_text))
		strcpy(run_keys_text, s);
	else
		run_keys_text[0] = '\001';	/* too long to remember: read it each time */
}

/* Does key p[0..len) name the run (1: a key of the setting, 2: x_run_id; 0: no)?  run_keys_refresh first. */
static int
run_key_kind(const char *p, int len)
{
	char		form[RUN_KEY_MAX];

	if (!run_key_form(p, len, form))
		return 0;
	for (int k = 0; k < n_run_keys; k++)
		if (strcmp(form, run_keys[k]) == 0)
			return 1;
	return strcmp(form, "xrunid") == 0 ? 2 : 0;
}

/* A run tag's value trimmed (strings as they are, numbers as numeric_out writes them); NULL when empty, null or nested. */
static char *
run_value(const JsonbValue *v)
{
	const char *p;
	int			len;

	if (v->type == jbvString)
	{
		p = v->val.string.val;
		len = v->val.string.len;
	}
	else if (v->type == jbvNumeric)
	{
		p = numeric_text_bounded(v->val.numeric, "the run tag");
		len = strlen(p);
	}
	else if (v->type == jbvBool)
	{
		p = v->val.boolean ? "true" : "false";
		len = strlen(p);
	}
	else
		return NULL;
	while (len > 0 && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++, len--;
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\n' || p[len - 1] == '\r'))
		len--;
	return len > 0 ? pnstrdup(p, len) : NULL;
}

/*
 * The run a line's Tags name: the first key (in jsonb's key order) of the
 * setting with a value, else the x_run_id column (x_run, trimmed), else a key
 * x_run_id's value; NULL when none (an empty value is no run).
 */
static char *
tags_run(const FocusIn *in, Jsonb *tags, const char *x_run)
{
	char	   *found = NULL;

	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken t;
	int			kind = 0;
	char	   *legacy = NULL;

	run_keys_refresh();
	if (tags != NULL)
	{
		it = JsonbIteratorInit(&tags->root);
		while ((t = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		{
			if (t == WJB_KEY)
				kind = run_key_kind(v.val.string.val, v.val.string.len);
			else if (t == WJB_VALUE && kind != 0)
			{
				char	   *r = run_value(&v);

				/* two keys of the setting naming different runs: which run is a guess, refused */
				if (r && kind == 1 && found && strcmp(r, found) != 0)
					line_error(in, "Tags", ERRCODE_INVALID_PARAMETER_VALUE, NULL,
							   "two run tags name different runs, \"%s\" and \"%s\" (setting llm_econ.run_tag_keys)", found, r);
				if (r && kind == 1 && found == NULL)
					found = r;
				if (r && legacy == NULL)
					legacy = r;
			}
		}
	}
	if (found)
		return found;
	if (x_run)
	{
		JsonbValue	xv;

		xv.type = jbvString;
		xv.val.string.val = (char *) x_run;
		xv.val.string.len = strlen(x_run);
		x_run = run_value(&xv);
		if (x_run)
			return (char *) x_run;
	}
	return legacy;
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
 * A number's piece: 'd' and numeric_out's text when it prints in at most
 * LE_JSON_NUMBER_TEXT_MAX characters (every identity stored before 0.5.0), else 'D' and
 * numeric_send's bytes (digits, weight, sign, scale: one value and scale, one form), which is
 * as long as the number is stored, never its printed expansion.
 */
static void
tags_number_piece(StringInfo b, Numeric n)
{
	bytea	   *bin;

	if (numeric_text_len(n, &bin) <= LE_JSON_NUMBER_TEXT_MAX)
	{
		const char *text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(n)));

		tags_piece(b, 'd', text, strlen(text));
	}
	else
		tags_piece(b, 'D', VARDATA_ANY(bin), VARSIZE_ANY_EXHDR(bin));
}

/*
 * A nested value's piece: 'c' and its JSON text (JsonbToCString) when every number in it prints
 * short (every identity stored before 0.5.0), else 'C' and the walk of it: each token a piece
 * ('[', ']', '{', '}', keys 'k', scalars as at the top level, numbers by tags_number_piece).
 */
static void
tags_nested_piece(StringInfo b, JsonbValue *nested)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken t;
	char	   *text;

	if (!jsonb_has_long_number(nested->val.binary.data))
	{
		text = JsonbToCString(NULL, nested->val.binary.data, nested->val.binary.len);
		tags_piece(b, 'c', text, strlen(text));
		pfree(text);
		return;
	}
	tags_piece(b, 'C', "", 0);
	it = JsonbIteratorInit(nested->val.binary.data);
	while ((t = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		CHECK_FOR_INTERRUPTS();
		switch (t)
		{
			case WJB_BEGIN_ARRAY:
				tags_piece(b, '[', "", 0);
				break;
			case WJB_END_ARRAY:
				tags_piece(b, ']', "", 0);
				break;
			case WJB_BEGIN_OBJECT:
				tags_piece(b, '{', "", 0);
				break;
			case WJB_END_OBJECT:
				tags_piece(b, '}', "", 0);
				break;
			case WJB_KEY:
				tags_piece(b, 'k', v.val.string.val, v.val.string.len);
				break;
			default:			/* WJB_VALUE, WJB_ELEM: scalars (skipNested false) */
				if (v.type == jbvString)
					tags_piece(b, 's', v.val.string.val, v.val.string.len);
				else if (v.type == jbvNumeric)
					tags_number_piece(b, v.val.numeric);
				else if (v.type == jbvBool)
					tags_piece(b, v.val.boolean ? 't' : 'f', "", 0);
				else
					tags_piece(b, 'n', "", 0);
				break;
		}
	}
}

/*
 * Tags without the run tags (the top-level keys that name the run: run_key_kind), as the
 * sequence of their keys and values in jsonb's key order, each a typed piece
 * (tags_piece): strings as their bytes, numbers by tags_number_piece,
 * true, false, null, and nested values by tags_nested_piece.  Two objects give
 * the same bytes exactly when they hold the same keys and values; nothing left
 * (no Tags, {}, run tags only) is the empty string.  Walking the object costs
 * less than printing it (JsonbToCString escapes every string).  The result is
 * at most about 16 times the size of the Tags text (1e63, 4 bytes, prints 64
 * characters; a longer number is its binary form), allocated in the caller's
 * per-line context, which is reset after each line; the walk checks for cancel.
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
	run_keys_refresh();
	it = JsonbIteratorInit(&tags->root);
	while ((t = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		CHECK_FOR_INTERRUPTS();
		if (t == WJB_KEY)
		{
			skip = run_key_kind(v.val.string.val, v.val.string.len) != 0;
			if (!skip)
				tags_piece(&b, 'k', v.val.string.val, v.val.string.len);
		}
		else if (t == WJB_VALUE && !skip)
		{
			switch (v.type)
			{
				case jbvString:
					tags_piece(&b, 's', v.val.string.val, v.val.string.len);
					break;
				case jbvNumeric:
					tags_number_piece(&b, v.val.numeric);
					break;
				case jbvBool:
					tags_piece(&b, v.val.boolean ? 't' : 'f', "", 0);
					break;
				case jbvNull:
					tags_piece(&b, 'n', "", 0);
					break;
				default:		/* a nested object or array */
					tags_nested_piece(&b, &v);
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

/*
 * A time's identity: the instant in microseconds since 2000 (UTC when no offset); else the text.
 * Decoded as timestamp_in (no offset) and timestamptz_in (an offset) decode it, by the
 * functions that return their errors (ParseDateTime, DecodeDateTime, tm2timestamp): text that
 * is no time raises nothing, and nothing else is caught.
 */
static char *
time_identity(const char *s)
{
	int			shape = le_timestamp_shape(s);
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf,
				dtype,
				tz = 0;
	struct pg_tm tt;
	fsec_t		fsec;
	Timestamp	t;

	if (shape == 0 ||
		ParseDateTime(s, workbuf, sizeof(workbuf), field, ftype, MAXDATEFIELDS, &nf) != 0 ||
		le_decode_datetime(field, ftype, nf, &dtype, &tt, &fsec, shape == 2 ? &tz : NULL) != 0 ||
		dtype != DTK_DATE ||
		tm2timestamp(&tt, fsec, shape == 2 ? &tz : NULL, &t) != 0)
		return (char *) s;
	return psprintf(INT64_FORMAT, (int64) t);
}

/*
 * The identifiers of the charge identity (docs/finance.md, "How identifiers
 * compare"): each is hashed as its provider compares it, trimmed of blanks
 * (space, tab, CR, LF), and for Azure also without ASCII case (Azure resource
 * ids, subscription and billing account ids are case-insensitive: Microsoft
 * Learn, "Azure Resource Manager: resource naming", "Resource names are
 * case-insensitive"); blank is NULL.  The same rule as llm_econ._focus_id_key
 * (src/sql/finance.sql), which keys statements.  The line stores them as written.
 */
static bool
id_column(FocusCol c)
{
	return c == FC_BILLING_ACCOUNT_ID || c == FC_SUB_ACCOUNT_ID || c == FC_RESOURCE_ID ||
		c == FC_COMMITMENT_DISCOUNT_ID || c == FC_ALLOCATED_RESOURCE_ID;
}

/* Add identifier p[0..len) of provider prov to id as the provider compares it (id_column). */
static void
charge_id_identifier(le_charge_id *id, const char *prov, const char *p, int len)
{
	while (len > 0 && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++, len--;
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r' || p[len - 1] == '\n'))
		len--;
	if (len == 0)
		le_charge_id_field(id, NULL, 0);
	else if (strcmp(prov, "azure") == 0)
	{
		char	   *f = pnstrdup(p, len);

		le_ascii_fold(f, len);
		le_charge_id_field(id, f, len);
	}
	else
		le_charge_id_field(id, p, len);
}

/*
 * The charge identity: an MD5 (le_charge_id) over the provider key, then the
 * identity columns as values (identifiers as their provider compares them),
 * then Tags without the run tags.  Never throws for a value it cannot read:
 * that value's text is used instead.  raw_ids: identifiers as written, the
 * identity 0.4.0 computed (only to recognise stored lines when updating).
 */
static char *
charge_key_digest_rule(const FocusIn *in, uint8 *digest, bool raw_ids)
{
	char	   *hex = palloc(33);
	const char *prov;
	Jsonb	   *tags = NULL;
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
		else if (!raw_ids && id_column(c))
			charge_id_identifier(&id, prov, in->v[c], in->len[c]);
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
		Datum		d;

		/* not JSON: its text (le_jsonb_in_soft raises nothing for that, and catches nothing) */
		if (le_jsonb_in_soft(s, &d))
			tags = tags_object(DatumGetJsonbP(d));
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

/* The charge identity (binary in digest) as md5 hex text (what row_hash stores). */
static char *
charge_key_digest(const FocusIn *in, uint8 *digest)
{
	return charge_key_digest_rule(in, digest, false);
}

/* The charge identity as md5 hex text (what row_hash stores). */
static char *
charge_key(const FocusIn *in)
{
	uint8		digest[16];

	return charge_key_digest(in, digest);
}

/* An empty alias map (alias_add fills it), in the current memory context. */
static HTAB *
alias_map_create(void)
{
	HASHCTL		ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(((AliasEntry *) 0)->key);
	ctl.entrysize = sizeof(AliasEntry);
	ctl.hcxt = CurrentMemoryContext;
	return hash_create("llm_econ focus aliases", 256, &ctl, HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
}

/* Add a lower-case machine type to the map, its texts in cxt (the map's). */
static void
alias_add(HTAB *h, MemoryContext cxt, uint64 *lens, const char *low, const char *alias, const char *sku, int32 gpus)
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
HTAB *
le_load_aliases(uint64 *lens)
{
	MemoryContext cxt = CurrentMemoryContext;	/* SPI_execute returns in SPI's */
	HTAB	   *h = alias_map_create();

	if (SPI_execute("SELECT pg_catalog.lower(a.alias COLLATE pg_catalog.\"C\"), a.alias, a.sku, a.gpus_per_instance "
					"FROM llm_econ.gpu_sku_alias a WHERE a.gpus_per_instance IS NOT NULL", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading gpu_sku_alias failed");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	t = SPI_tuptable->vals[i];
		TupleDesc	d = SPI_tuptable->tupdesc;
		bool		isnull;

		CHECK_FOR_INTERRUPTS();
		alias_add(h, cxt, lens, SPI_getvalue(t, d, 1), SPI_getvalue(t, d, 2), SPI_getvalue(t, d, 3),
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

		while (p < end && le_word_break((unsigned char) *p))
			p++;
		w = p;
		while (p < end && !le_word_break((unsigned char) *p))
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

/* Whether column c holds word, in any case. */
static bool
col_is(const FocusIn *in, FocusCol c, const char *word)
{
	return in->v[c] && in->len[c] == (int) strlen(word) && pg_strncasecmp(in->v[c], word, in->len[c]) == 0;
}

/* Where word (ASCII, any case) first occurs in the n bytes at s; NULL when nowhere. */
static const char *
find_ci(const char *s, size_t n, const char *word)
{
	size_t		w = strlen(word);

	for (size_t i = 0; i + w <= n; i++)
		if (pg_strncasecmp(s + i, word, w) == 0)
			return s + i;
	return NULL;
}

/* A ConsumedUnit that means hours: hour(s), hr(s), h, also after "1 " (Azure writes "1 Hour"). */
static bool
unit_is_hours(const char *u)
{
	if (strncmp(u, "1 ", 2) == 0)
		u += 2;
	return pg_strcasecmp(u, "hour") == 0 || pg_strcasecmp(u, "hours") == 0 || pg_strcasecmp(u, "hr") == 0 ||
		pg_strcasecmp(u, "hrs") == 0 || pg_strcasecmp(u, "h") == 0;
}

/*
 * A ConsumedUnit that means seconds: second(s), also after "1 ".  Google's
 * FOCUS BigQuery view writes the billing export's usage.unit, the base unit,
 * which is seconds for VM and GPU time (priced per hour: usage.pricing_unit).
 */
static bool
unit_is_seconds(const char *u)
{
	if (strncmp(u, "1 ", 2) == 0)
		u += 2;
	return pg_strcasecmp(u, "second") == 0 || pg_strcasecmp(u, "seconds") == 0;
}

/*
 * The GPU model of a GCP GPU SKU line ("Nvidia H100 80GB GPU running in
 * Americas", "Spot Preemptible Nvidia L4 GPU running in Belgium": "H100
 * 80GB", "L4"), NULL for any other line, commitment fees ("Commitment v1:
 * Nvidia ...") and GPU licences ("NVIDIA GRID license for ...") included.  GCP bills a GPU attached to a VM as its own SKU,
 * in GPU-hours (cloud.google.com/compute/gpus-pricing; the billing export's
 * sku.description), apart from the VM's cores and memory.
 */
static char *
gcp_gpu_model(const FocusIn *in)
{
	const char *d = in->v[FC_CHARGE_DESCRIPTION];
	size_t		n = d ? in->len[FC_CHARGE_DESCRIPTION] : 0;
	const char *p,
			   *q;

	if (d == NULL || (n >= 10 && pg_strncasecmp(d, "Commitment", 10) == 0) || find_ci(d, n, "licen"))
		return NULL;
	p = find_ci(d, n, "Nvidia ");
	if (p == NULL || (p != d && p[-1] != ' '))
		return NULL;
	p += 7;
	q = find_ci(p, n - (p - d), " GPU");
	if (q == NULL || q == p || (q + 4 < d + n && q[4] != ' '))
		return NULL;
	return pnstrdup(p, q - p);
}

/*
 * Whether an AWS line bills the running hours of an instance: its x_UsageType
 * ("[REGION-]Kind:instance-type") is BoxUsage (on-demand and reserved
 * instances), SpotUsage or DedicatedUsage (docs.aws.amazon.com/cur/latest/
 * userguide/usage-types.html, "Amazon EC2 usage types"); the instance type
 * after ':' in *itype.  EBSOptimized, DataTransfer, EBS volumes, HostUsage
 * (the host, not its instances) and every other usage type are not.
 */
static bool
aws_instance_usage(const FocusIn *in, char **itype)
{
	const char *u = in->v[FC_X_USAGE_TYPE];
	int			n = in->len[FC_X_USAGE_TYPE];
	const char *colon = memchr(u, ':', n);
	const char *k = u;

	*itype = NULL;
	if (colon == NULL)
		return false;
	for (const char *p = u; p < colon; p++)
		if (*p == '-')
			k = p + 1;
	if (!((colon - k == 8 && pg_strncasecmp(k, "BoxUsage", 8) == 0) ||
		  (colon - k == 9 && pg_strncasecmp(k, "SpotUsage", 9) == 0) ||
		  (colon - k == 14 && pg_strncasecmp(k, "DedicatedUsage", 14) == 0)))
		return false;
	*itype = pnstrdup(colon + 1, n - (colon + 1 - u));
	return true;
}

/*
 * Whether an Azure line is virtual-machine usage: its meter category
 * (x_SkuMeterCategory) is "Virtual Machines" when the file has one (Azure
 * cost details: learn.microsoft.com/azure/cost-management-billing/
 * automate/understand-usage-details-fields, MeterCategory), so a GPU VM's
 * bandwidth or disk lines are not; a file without it: every line of a GPU
 * machine, as for other providers.
 */
static bool
azure_vm_usage(const FocusIn *in)
{
	if (in->v[FC_X_SKU_METER_CATEGORY])
		return col_is(in, FC_X_SKU_METER_CATEGORY, "Virtual Machines");
	return true;
}

/*
 * The Azure VM size of a line: x_SkuDetails' ServiceType
 * ("Standard_ND96isr_H100_v5"), or SkuPriceDetails' x_ServiceType (FocusCost
 * 1.2 has no x_SkuDetails: SkuPriceDetails is Azure's AdditionalInfo with its
 * property names prefixed x_), else the meter name ("ND96isr H100 v5",
 * "ND96isr H100 v5 Spot", "ND96isr H100 v5 Low Priority") as a size, from
 * x_SkuMeterName or its FOCUS 1.1 name SkuMeter.
 */
static char *
azure_vm_size(FocusIn *in, Jsonb *details)
{
	bool		is_str;
	char	   *t = NULL;
	FocusCol	meter = in->v[FC_X_SKU_METER_NAME] ? FC_X_SKU_METER_NAME : FC_SKU_METER;

	if (in->v[FC_X_SKU_DETAILS])
		t = jsonb_key_text(col_object(in, FC_X_SKU_DETAILS), "ServiceType", &is_str);
	if (t == NULL)
		t = jsonb_key_text(details, "x_ServiceType", &is_str);
	if (t == NULL && in->v[meter])
	{
		StringInfoData b;
		int			n = in->len[meter];
		const char *m = in->v[meter];

		if (n > 5 && pg_strncasecmp(m + n - 5, " Spot", 5) == 0)
			n -= 5;
		else if (n > 13 && pg_strncasecmp(m + n - 13, " Low Priority", 13) == 0)
			n -= 13;
		initStringInfo(&b);
		appendStringInfoString(&b, "Standard_");
		for (int i = 0; i < n; i++)
			appendStringInfoChar(&b, m[i] == ' ' ? '_' : m[i]);
		t = b.data;
	}
	return t;
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
	bool		gpu_line;
	bool		aws_by_description = false;
	char	   *gcp_model = NULL;
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
		/*
		 * FOCUS 1.0's values in any case (Google's FOCUS BigQuery view writes
		 * standard and committed), and FOCUS 1.0-preview's On-Demand and
		 * Commitment-Based (Azure's FocusCost 1.0-preview).
		 */
		char	   *pc = col_cstr(in, FC_PRICING_CATEGORY);

		nulls[O_PRICING] = false;
		if (pg_strcasecmp(pc, "Standard") == 0 || pg_strcasecmp(pc, "On-Demand") == 0)
			values[O_PRICING] = CStringGetTextDatum("on_demand");
		else if (pg_strcasecmp(pc, "Dynamic") == 0)
			values[O_PRICING] = CStringGetTextDatum("spot");
		else if (pg_strcasecmp(pc, "Committed") == 0 || pg_strcasecmp(pc, "Commitment-Based") == 0)
			values[O_PRICING] = CStringGetTextDatum("reserved");
		else
			nulls[O_PRICING] = true;
	}
	out_text(values, nulls, O_REGION, in, in->v[FC_REGION_ID] ? FC_REGION_ID : FC_REGION);
	out_text(values, nulls, O_UNIT, in, FC_CONSUMED_UNIT);
	out_text(values, nulls, O_CURRENCY, in, FC_BILLING_CURRENCY);
	if (!nulls[O_CURRENCY])
	{
		/* currency codes in any case: usd is USD (ISO 4217 codes are upper case) */
		char	   *cur = col_cstr(in, FC_BILLING_CURRENCY);

		for (char *q = cur; *q; q++)
			if (*q >= 'a' && *q <= 'z')
				*q -= 'a' - 'A';
		values[O_CURRENCY] = CStringGetTextDatum(cur);
	}
	else if (st->pos[FC_BILLING_CURRENCY] >= 0)
		line_error(in, "BillingCurrency", ERRCODE_INVALID_PARAMETER_VALUE, NULL,
				   "BillingCurrency must not be empty: FOCUS 1.0 makes it mandatory, and no currency is assumed");
	out_text(values, nulls, O_RESOURCE_ID, in, in->v[FC_RESOURCE_ID] ? FC_RESOURCE_ID : FC_ALLOCATED_RESOURCE_ID);
	out_text(values, nulls, O_ACCOUNT, in, FC_BILLING_ACCOUNT_ID);

	/* tags and the run */
	tags = col_tags(in);
	in->tags = tags;
	in->tags_parsed = true;
	nulls[O_TAGS] = (tags == NULL);
	if (tags)
		values[O_TAGS] = JsonbPGetDatum(tags);
	run = tags_run(in, tags, col_cstr(in, FC_X_RUN_ID));
	nulls[O_RUN_ID] = (run == NULL);
	if (run)
		values[O_RUN_ID] = CStringGetTextDatum(run);

	/* the GPU machine: SkuPriceDetails' InstanceType, else a machine type in the description */
	details = col_object(in, FC_SKU_PRICE_DETAILS);
	itype = jsonb_key_text(details, "InstanceType", &is_str);
	if (itype == NULL)
		itype = jsonb_key_text(details, "x_InstanceType", &is_str);
	/*
	 * Which lines bill GPU time (docs/finance.md, "GPU-hours"): only usage
	 * (ChargeCategory Usage, or none written), never a purchase, credit, tax or
	 * adjustment, nor a storage or network line; then by provider: AWS instance
	 * usage types, Azure virtual-machine meters, GCP GPU SKUs, other providers
	 * every line of a GPU machine.
	 */
	gpu_line = (in->v[FC_CHARGE_CATEGORY] == NULL || col_is(in, FC_CHARGE_CATEGORY, "Usage")) &&
		!col_is(in, FC_SERVICE_CATEGORY, "Storage") && !col_is(in, FC_SERVICE_CATEGORY, "Networking") &&
		!col_is(in, FC_SERVICE_CATEGORY, "Network");
	if (strcmp(in->provkey, "aws") == 0)
	{
		char	   *ut_type = NULL;

		if (in->v[FC_X_USAGE_TYPE])
			gpu_line = gpu_line && aws_instance_usage(in, &ut_type);
		else
			aws_by_description = true;
		if (itype == NULL)
			itype = ut_type;
	}
	else if (strcmp(in->provkey, "azure") == 0)
	{
		gpu_line = gpu_line && azure_vm_usage(in);
		if (itype == NULL && gpu_line)
			itype = azure_vm_size(in, details);
	}
	else if (strcmp(in->provkey, "gcp") == 0)
	{
		gcp_model = gpu_line ? gcp_gpu_model(in) : NULL;
		gpu_line = (gcp_model != NULL);
	}
	if (itype)
		alias = alias_find(st->aliases, itype, strlen(itype));
	if (alias == NULL && in->v[FC_CHARGE_DESCRIPTION] && gcp_model == NULL)
		alias = alias_in_words(st->aliases, st->alias_lens, in->v[FC_CHARGE_DESCRIPTION], in->len[FC_CHARGE_DESCRIPTION]);
	/* AWS without a usage type: a GPU machine's EBS-optimized or bandwidth line is not instance usage */
	if (aws_by_description && gpu_line && alias && in->v[FC_CHARGE_DESCRIPTION])
		gpu_line = !find_ci(in->v[FC_CHARGE_DESCRIPTION], in->len[FC_CHARGE_DESCRIPTION], "EBS") &&
			!find_ci(in->v[FC_CHARGE_DESCRIPTION], in->len[FC_CHARGE_DESCRIPTION], "Mbps");
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
	else if (gcp_model)
	{
		gpus = 1;				/* a GCP GPU SKU bills GPU-hours */
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
		if (gt == NULL)
			gt = gcp_model;
		nulls[O_GPU_TYPE] = (gt == NULL);
		if (gt)
			values[O_GPU_TYPE] = CStringGetTextDatum(gt);
	}

	/*
	 * GPU-hours: hours of a GPU machine (or GPU) times its GPUs, on the lines
	 * that bill GPU time.  Negative on a correction: a line of ChargeClass
	 * Correction (FOCUS: a correction of an invoiced billing period), or one
	 * whose costs are not positive (FOCUS writes a correction within the
	 * current period with ChargeClass null); elsewhere a negative figure is a
	 * broken line.
	 */
	nulls[O_GPU_HOURS] = true;
	unit = col_cstr(in, FC_CONSUMED_UNIT);
	/*
	 * FOCUS: a commitment's Unused line consumed nothing (AWS's unused RI line
	 * has no quantity; Azure writes the unused hours).  FOCUS 1.0-preview said
	 * it with ChargeSubcategory "Unused Commitment" (CommitmentDiscountStatus
	 * came in 1.0; finops-toolkit reads one as the other).
	 */
	if (col_is(in, FC_COMMITMENT_DISCOUNT_STATUS, "Unused") ||
		(in->v[FC_COMMITMENT_DISCOUNT_STATUS] == NULL && col_is(in, FC_CHARGE_SUBCATEGORY, "Unused Commitment")))
		gpu_line = false;
	if (gpu_line && have_gpus && unit && !nulls[O_QUANTITY] && (unit_is_hours(unit) || unit_is_seconds(unit)))
	{
		Datum		gh = DirectFunctionCall2(numeric_mul, values[O_QUANTITY],
											 DirectFunctionCall1(int4_numeric, Int32GetDatum(gpus)));
		Datum		max = DirectFunctionCall3(numeric_in, CStringGetDatum(LE_FOCUS_MAX_GPU_HOURS),
											  ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
		Datum		zero = DirectFunctionCall1(int4_numeric, Int32GetDatum(0));
		bool		correction = col_is(in, FC_CHARGE_CLASS, "Correction") ||
			(!DatumGetBool(DirectFunctionCall2(numeric_gt, values[O_BILLED], zero)) &&
			 !DatumGetBool(DirectFunctionCall2(numeric_gt, values[O_EFFECTIVE], zero)));

		/* seconds: GPU-seconds / 3,600, without the division's trailing zeros (460800 s x 1 is 128) */
		if (!unit_is_hours(unit))
			gh = DirectFunctionCall1(numeric_trim_scale,
									 DirectFunctionCall2(numeric_div, gh, DirectFunctionCall1(int4_numeric, Int32GetDatum(3600))));
		if (DatumGetBool(DirectFunctionCall2(numeric_gt, DirectFunctionCall1(numeric_abs, gh), max)))
			line_error(in, "ConsumedQuantity", ERRCODE_INVALID_PARAMETER_VALUE, col_cstr(in, FC_CONSUMED_QUANTITY),
					   "GPU-hours (ConsumedQuantity x GPUs) must be in [-%s, %s]", LE_FOCUS_MAX_GPU_HOURS, LE_FOCUS_MAX_GPU_HOURS);
		if (!correction && DatumGetBool(DirectFunctionCall2(numeric_lt, gh, zero)))
			line_error(in, "ConsumedQuantity", ERRCODE_INVALID_PARAMETER_VALUE, col_cstr(in, FC_CONSUMED_QUANTITY),
					   "negative GPU-hours (ConsumedQuantity x GPUs) are a correction: ChargeClass Correction, or costs not above 0");
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

/* Map header names to the known columns; the columns FOCUS 1.0 makes mandatory must be there (22023 naming all missing). */
void
le_focus_header(FocusState *st, const char *what)
{
	StaticAssertStmt(FC_CHARGE_PERIOD_END == FC_CHARGE_PERIOD_START + 1 &&
					 FC_BILLING_PERIOD_START == FC_CHARGE_PERIOD_START + 2 &&
					 FC_BILLING_PERIOD_END == FC_CHARGE_PERIOD_START + 3, "the period columns are consecutive");
	for (int t = 0; t < LE_TIME_COLS; t++)
		st->times[t].len = -1;
	st->prov.len = -1;
	/*
	 * Column names match whatever their case (lower-case billingcurrency is
	 * BillingCurrency; the reader refuses two names that differ only in case):
	 * a known column's name becomes its FOCUS spelling, so record keys it so.
	 */
	for (int c = 0; c < FC__COUNT; c++)
	{
		st->pos[c] = -1;
		for (int i = 0; i < st->ncols; i++)
			if (pg_strcasecmp(st->names[i], focus_col_names[c]) == 0)
			{
				st->pos[c] = i;
				st->names[i] = (char *) focus_col_names[c];
				break;
			}
	}
	/*
	 * The currency a file names is read whatever the column's other spelling:
	 * BilledCurrency (the FOCUS specification's own older examples) is
	 * BillingCurrency when the file has no column of that name, so that its
	 * lines keep their currency instead of counting 1:1 as USD.
	 */
	if (st->pos[FC_BILLING_CURRENCY] < 0)
		for (int i = 0; i < st->ncols; i++)
			if (pg_strcasecmp(st->names[i], "BilledCurrency") == 0)
			{
				st->pos[FC_BILLING_CURRENCY] = i;
				st->names[i] = (char *) focus_col_names[FC_BILLING_CURRENCY];
				break;
			}
	/*
	 * FOCUS 1.0-preview (Azure's FocusCost 1.0-preview export) wrote
	 * UsageQuantity and UsageUnit, which FOCUS 1.0 renamed ConsumedQuantity
	 * and ConsumedUnit: read as those when the file has no column of the 1.0
	 * name, so that its GPU-hours are counted.
	 */
	{
		static const struct
		{
			FocusCol	c;
			const char *old;
		}			renamed[] = {{FC_CONSUMED_QUANTITY, "UsageQuantity"}, {FC_CONSUMED_UNIT, "UsageUnit"}};

		for (int r = 0; r < (int) lengthof(renamed); r++)
			if (st->pos[renamed[r].c] < 0)
				for (int i = 0; i < st->ncols; i++)
					if (pg_strcasecmp(st->names[i], renamed[r].old) == 0)
					{
						st->pos[renamed[r].c] = i;
						st->names[i] = (char *) focus_col_names[renamed[r].c];
						break;
					}
	}
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
	/*
	 * The columns FOCUS 1.0 makes mandatory (FOCUS 1.0 specification, each
	 * column's "Column required: True"; ServiceProviderName is FOCUS 1.3's name
	 * of ProviderName): a file lacking any is refused, naming all it lacks.
	 */
	{
		static const FocusCol mandatory[] = {
			FC_BILLING_ACCOUNT_ID, FC_BILLING_CURRENCY, FC_BILLING_PERIOD_START, FC_BILLING_PERIOD_END,
			FC_CHARGE_CATEGORY, FC_CHARGE_PERIOD_START, FC_CHARGE_PERIOD_END, FC_BILLED_COST, FC_EFFECTIVE_COST
		};
		StringInfoData missing;
		int			n = 0;

		initStringInfo(&missing);
		for (int m = 0; m < (int) lengthof(mandatory); m++)
			if (st->pos[mandatory[m]] < 0)
				appendStringInfo(&missing, "%s%s", n++ > 0 ? ", " : "", focus_col_names[mandatory[m]]);
		if (st->pos[FC_PROVIDER_NAME] < 0 && st->pos[FC_SERVICE_PROVIDER_NAME] < 0)
			appendStringInfo(&missing, "%sProviderName (or ServiceProviderName)", n++ > 0 ? ", " : "");
		if (n > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg_plural("%s lacks the mandatory FOCUS column %s (FOCUS 1.0 makes it mandatory)",
								   "%s lacks the mandatory FOCUS columns %s (FOCUS 1.0 makes them mandatory)",
								   n, what, missing.data),
					 errdetail("Columns are found by header name in any case (FOCUS 1.0-1.3 names; BilledCurrency is read as BillingCurrency)."),
					 errhint("Export the file in FOCUS 1.0 or later with every mandatory column; a column FOCUS allows to be null may be empty.")));
	}
}

/* record for a line of a FOCUS file: the columns typed columns do not hold, as jsonb. */
Datum
le_focus_record(const FocusState *st, const le_csv *r)
{
	if (st->distinct_names)
		return le_record_jsonb_flat(r, st->names, st->name_len, st->ncols, st->order, st->recmode);
	return le_record_jsonb(r, st->names, st->ncols, st->order, st->recmode);
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

		if (i < 0 || le_focus_field_is_null(&r->fields[i]))
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

/* in from a whole original line given as jsonb (header name -> value), as _focus_charge_key reads it. */
static void
focus_in_of_jsonb(Jsonb *rec, FocusIn *in)
{
	if (!JB_ROOT_IS_OBJECT(rec))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("record must be a JSON object (a stored line's record), got %s",
						JB_ROOT_IS_SCALAR(rec) ? "a scalar" : "an array")));
	memset(in, 0, sizeof(*in));
	in->what = "record";
	for (int c = 0; c < FC__COUNT; c++)
	{
		bool		is_str;
		char	   *v = jsonb_key_text(rec, focus_col_names[c], &is_str);
		le_csv_field f;

		if (v == NULL)
			continue;
		f.ptr = v;
		f.len = strlen(v);
		if (!le_focus_field_is_null(&f))
		{
			in->v[c] = v;
			in->len[c] = strlen(v);
		}
	}
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
	FocusIn		in;

	focus_in_of_jsonb(PG_GETARG_JSONB_P(0), &in);
	PG_RETURN_TEXT_P(cstring_to_text(charge_key(&in)));
}

PG_FUNCTION_INFO_V1(le_focus_charge_rekey_fn);

/*
 * _focus_charge_rekey(record jsonb, row_hash text): the 0.5.0 charge identity
 * of a whole original line when its 0.4.0 identity (identifiers as written) is
 * row_hash, else NULL: the 0.4.0 -> 0.5.0 update re-keys a stored line only
 * from a line it has verified is the one that was stored (src/migrate/0.4.0--0.5.0.sql).
 */
Datum
le_focus_charge_rekey_fn(PG_FUNCTION_ARGS)
{
	FocusIn		in;
	uint8		digest[16];
	char	   *old_key;

	focus_in_of_jsonb(PG_GETARG_JSONB_P(0), &in);
	old_key = charge_key_digest_rule(&in, digest, true);
	if (strcmp(old_key, text_to_cstring(PG_GETARG_TEXT_PP(1))) != 0)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(charge_key(&in)));
}
