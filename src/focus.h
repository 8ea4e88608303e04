/* focus.h: the FOCUS importer's types, shared by focus_type.c (one line typed) and focus_load.c (the typing SRFs over a text or the staged lines). */
#ifndef LLM_ECON_FOCUS_H
#define LLM_ECON_FOCUS_H

#include "llm_econ.h"

#include "access/tupdesc.h"
#include "core/csv.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"

/*
 * The FOCUS columns read here (FOCUS 1.0-1.3 names; x_ columns are the
 * extension columns some exporters write).  Any other column stays in record.
 */
typedef enum FocusCol
{
	FC_BILLED_COST,
	FC_EFFECTIVE_COST,
	FC_LIST_COST,
	FC_CONTRACTED_COST,
	FC_CHARGE_PERIOD_START,
	FC_CHARGE_PERIOD_END,
	FC_BILLING_PERIOD_START,
	FC_BILLING_PERIOD_END,
	FC_PROVIDER_NAME,
	FC_SERVICE_PROVIDER_NAME,
	FC_HOST_PROVIDER_NAME,
	FC_BILLING_ACCOUNT_ID,
	FC_SUB_ACCOUNT_ID,
	FC_BILLING_CURRENCY,
	FC_CHARGE_CATEGORY,
	FC_CHARGE_CLASS,
	FC_CHARGE_FREQUENCY,
	FC_CHARGE_DESCRIPTION,
	FC_SERVICE_NAME,
	FC_SERVICE_CATEGORY,
	FC_SKU_ID,
	FC_SKU_PRICE_ID,
	FC_SKU_PRICE_DETAILS,
	FC_RESOURCE_ID,
	FC_REGION_ID,
	FC_REGION,
	FC_AVAILABILITY_ZONE,
	FC_PRICING_CATEGORY,
	FC_PRICING_QUANTITY,
	FC_PRICING_UNIT,
	FC_CONSUMED_QUANTITY,
	FC_CONSUMED_UNIT,
	FC_COMMITMENT_DISCOUNT_ID,
	FC_ALLOCATED_METHOD_ID,
	FC_ALLOCATED_RESOURCE_ID,
	FC_TAGS,
	FC_X_RUN_ID,
	/* read only to tell GPU lines (docs/finance.md, GPU-hours): record keeps them */
	FC_X_USAGE_TYPE,
	FC_X_SKU_DETAILS,
	FC_X_SKU_METER_CATEGORY,
	FC_X_SKU_METER_NAME,
	FC_COMMITMENT_DISCOUNT_STATUS,	/* Unused: a commitment's unused hours, no GPU time */
	FC_CHARGE_SUBCATEGORY,		/* FOCUS 1.0-preview: "Unused Commitment" is Unused */
	FC_SKU_METER,				/* FOCUS 1.1+: Azure's meter name (FocusCost 1.2: x_SkuMeterName's new name) */
	FC__COUNT
} FocusCol;

/*
 * The last text read of a period column and what it gave (files repeat the
 * billing period on every line, and a charge period on many): the same text
 * is not parsed again.  Texts longer than the buffer are always parsed.
 */
typedef struct TimeMemo
{
	int			len;			/* -1: nothing kept */
	char		text[48];
	int64		value;
	char		norm[MAXINT8LEN + 1];
} TimeMemo;

/* The period columns, consecutive in FocusCol: ChargePeriodStart/End, BillingPeriodStart/End. */
#define LE_TIME_COLS 4

/* One line's values of the columns above (NULL = absent or NULL). */
typedef struct FocusIn
{
	const char *v[FC__COUNT];
	int			len[FC__COUNT];
	long		line;
	const char *what;
	/* identities already computed while typing (NULL: charge_key computes them) */
	const char *norm[FC__COUNT];
	Jsonb	   *tags;
	bool		tags_parsed;
	const char *provkey;		/* the provider key (NULL: charge_key computes it) */
	struct TimeMemo *times;		/* the last time read per period column (NULL: none kept) */
	uint8		digest[16];		/* the charge identity, binary (set by focus_type) */
} FocusIn;

/* A GPU machine type of gpu_sku_alias with its GPU count. */
typedef struct AliasEntry
{
	char		key[128];		/* lower-case alias (hash key) */
	char	   *alias;
	char	   *sku;
	int32		gpus;
} AliasEntry;

/* Per-call state: header positions, alias map, constants. */
typedef struct FocusState
{
	int			pos[FC__COUNT];	/* header index of each known column, -1 if absent */
	char	  **names;
	int			ncols;
	int		   *order;			/* columns in jsonb key order (length, then bytes) */
	int		   *name_len;		/* bytes of each header name */
	bool		distinct_names; /* no header name twice, so record_jsonb_flat may write record (header_names
								 * refuses a name twice: this keeps that precondition checked here) */
	char	   *recmode;		/* per column: what record keeps of it (LE_REC_*) */
	size_t		names_len;		/* bytes of all header names */
	size_t		in_len;			/* bytes of input read so far (the whole text for a text) */
	size_t		out_len;		/* bytes the records' keys and values take so far */
	HTAB	   *aliases;
	uint64		alias_lens[2];	/* bit k: an alias is k bytes long (k < 128) */
	struct
	{
		int			len;		/* bytes of text; -1 (or 0 before the first line): none kept */
		char		text[64];	/* the last provider name read */
		char		key[64];	/* its provider_key */
	}			prov;
	const char *what;
	MemoryContext rowcxt;
	TimeMemo	times[LE_TIME_COLS];
} FocusState;

/* Output columns of the typed rows (the type llm_econ._focus_line in finance.sql; occurrence is O__COUNT, then the staged id and the file line of the record's last line). */
enum
{
	O_LINE, O_RECORD, O_CPS, O_CPE, O_BPS, O_BPE, O_PROVIDER, O_SERVICE_NAME, O_SERVICE_CATEGORY,
	O_CHARGE_CATEGORY, O_CHARGE_DESCRIPTION, O_PRICING_CATEGORY, O_PRICING, O_REGION, O_SKU,
	O_INSTANCE_TYPE, O_GPUS, O_GPU_TYPE, O_QUANTITY, O_UNIT, O_GPU_HOURS, O_BILLED, O_EFFECTIVE, O_LIST,
	O_CURRENCY, O_RUN_ID, O_RESOURCE_ID, O_TAGS, O_ACCOUNT, O_KEY, O__COUNT
};

/* ---- focus_type.c: a header and the lines after it, typed ---- */
extern HTAB *le_load_aliases(uint64 *lens);	/* under SPI: gpu_sku_alias's GPU machine types */
extern void le_focus_header(FocusState *st, const char *what);
extern void le_focus_check_record(FocusState *st, const le_csv *r, long line);
extern void le_focus_in_of_record(const FocusState *st, const le_csv *r, long line, FocusIn *in);
extern Datum le_focus_record(const FocusState *st, const le_csv *r);
extern void le_focus_type(FocusState *st, FocusIn *in, Datum record, Datum *values, bool *nulls);

#endif
