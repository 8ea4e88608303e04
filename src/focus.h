/* focus.h: the FOCUS importer's types and functions shared by focus.c (typing, the staged load, the insert) and focus_worker.c (the typing worker). */
#ifndef LLM_ECON_FOCUS_H
#define LLM_ECON_FOCUS_H

#include "llm_econ.h"

#include "access/genam.h"
#include "access/tupdesc.h"
#include "core/csv.h"
#include "storage/buf.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/resowner.h"
#include "utils/snapshot.h"
#include "utils/tuplestore.h"

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

/* Output columns of the typed rows (the type llm_econ._focus_line in finance.sql; occurrence is O__COUNT). */
enum
{
	O_LINE, O_RECORD, O_CPS, O_CPE, O_BPS, O_BPE, O_PROVIDER, O_SERVICE_NAME, O_SERVICE_CATEGORY,
	O_CHARGE_CATEGORY, O_CHARGE_DESCRIPTION, O_PRICING_CATEGORY, O_PRICING, O_REGION, O_SKU,
	O_INSTANCE_TYPE, O_GPUS, O_GPU_TYPE, O_QUANTITY, O_UNIT, O_GPU_HOURS, O_BILLED, O_EFFECTIVE, O_LIST,
	O_CURRENCY, O_RUN_ID, O_RESOURCE_ID, O_TAGS, O_ACCOUNT, O_KEY, O__COUNT
};

/* The state of one _focus_staged_rows call. */
typedef struct StagedRows
{
	FocusState	st;
	TupleDesc	tupdesc;		/* O__COUNT columns and occurrence */
	MemoryContext cxt;			/* the load's */
	char	   *portal;			/* the cursor over the staged lines (NULL: read directly) */
	/*
	 * The direct read of the staged lines: the (writer, id) index gives the
	 * lines in order, their heap pages are read through a ring of buffers.
	 */
	Relation	scan_heap;
	Relation	scan_index;
	IndexScanDesc scan;
	BufferAccessStrategy ring;
	Buffer		page;			/* the staged page being read (pinned), or InvalidBuffer */
	Snapshot	scan_snap;
	AttrNumber	line_attno;
	ScanKeyData scan_key;
	bool		delete_read;	/* asked: delete each staged line once read (the direct read only) */
	bool		deleting;		/* doing it: the direct read is open for it */
	MemoryContext batchcxt;		/* the current batch of staged lines */
	text	  **batch;
	int			nbatch;
	int			ibatch;
	bool		eof;
	StringInfoData rec;			/* the logical record being assembled */
	long		physical;
	long		rec_start;
	bool		open;
	bool		header_done;
	struct chargecount_hash *counts;	/* identity -> lines of the file with it so far */
	uint64		cap;			/* the slots the table may have (focus_count_cap) */
	bool		streaming;		/* still reading the staged lines */
	Tuplestorestate *spill;		/* typed lines whose identity did not fit, for the next round */
	Tuplestorestate *reading;	/* the lines spilled by the previous round, being loaded */
	TupleTableSlot *slot;
	int64		returned;
	ResourceOwner owner;		/* owns the tuplestores' files (the transaction's, not a statement's) */
	bool		done;			/* every line returned */
	int			line_bytes;		/* bytes of the staged text of the line returned last */
	char	   *header;			/* the header record, and its line (for a worker) */
	int			header_len;
	long		header_line;
	BlockNumber staged_pages;	/* focus_staging's pages when the load began (anyone's lines) */
	BlockNumber first_block;	/* the page of the first line read directly (InvalidBlockNumber: none) */
	struct FocusWorker *fw;		/* the worker typing the lines, if any */
} StagedRows;

/* focus.c: the alias map of GPU machine types */
extern HTAB *le_alias_map_create(void);
extern void le_alias_add(HTAB *h, MemoryContext cxt, uint64 *lens, const char *low, const char *alias,
						 const char *sku, int32 gpus);

/* focus.c: a header and the lines after it, typed */
extern int	le_header_names(const le_csv *r, const char *what, long line, char ***names);
extern void le_focus_header(FocusState *st, const char *what);
extern le_csv_status le_record_parse(const char *data, int len, const char *what, long line, le_csv *r, bool strict);
extern void le_focus_check_record(FocusState *st, const le_csv *r, long line);
extern void le_focus_in_of_record(const FocusState *st, const le_csv *r, long line, FocusIn *in);
extern Datum le_focus_record(const FocusState *st, const le_csv *r);
extern void le_focus_type(FocusState *st, FocusIn *in, Datum record, Datum *values, bool *nulls);

/* focus.c: the staged lines */
extern TupleDesc le_staged_tupdesc(void);
extern bool le_staged_next_record(StagedRows *sr);

/* focus_worker.c: the typing worker, from the backend's side */
/*
 * The pages a staged file must take in focus_staging, from its first line's
 * page on, for auto to start a worker: 8 MB, about 10,000 lines of the bench's.  Below that the worker's start and hand-offs
 * cost more than they save (5,000 lines: 0.15 s with it, 0.13 s without;
 * 10,000 lines: the same; 20,000 lines: 0.34-0.42 s against 0.40-0.52 s).
 */
#define LE_FW_MIN_PAGES 1024
extern int64 le_focus_worker_lines;
extern bool le_fw_start(StagedRows *sr);
extern bool le_fw_ready(StagedRows *sr, bool wait);
extern bool le_fw_next(StagedRows *sr, Datum *values, bool *nulls, int *rec_len);
extern void le_fw_stop(StagedRows *sr);

#endif
