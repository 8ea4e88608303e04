/* focus_load.c: the typing SRFs of the FOCUS load: _focus_lines (a CSV text) and _focus_staged_lines (a range of the current role's staged lines, read through SQL), each line typed and numbered within its call. */
#include "focus.h"

#include "catalog/pg_type.h"
#include "core/focus_text.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

/*
 * Copies of one charge within a call: a charge identity (md5, 16 bytes) and
 * how many lines of the call had it so far.  A call types one batch (a
 * statement of the load), so the table is bounded by the batch; the copies in
 * earlier batches are added by SQL (_focus_store).
 */
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
#include "lib/simplehash.h"

/* Columns of llm_econ._focus_line: the typed ones, occurrence, staged_id, last_line. */
#define LE_FOCUS_NATTS (O__COUNT + 3)

/*
 * The typed rows a call keeps in memory before its tuplestore goes to a
 * temporary file (kB).  A call types one batch, megabytes of rows: held in
 * memory, each batch's rows took fresh pages from the kernel and gave them
 * back when its statement ended (glibc maps blocks that large on their own),
 * one page fault per 4 kB.  At 200,000 lines that was 58,000 faults, about
 * 0.8 s of a 5.8 s load on a virtual machine (test/bench/README.md); written
 * to the file and read back, the same rows cost a fraction of that.
 */
#define LE_FOCUS_SRF_KB 256

/* One call of a typing SRF: the header's state, its result, the copies counted. */
typedef struct FocusCall
{
	FocusState	st;
	ReturnSetInfo *rsinfo;
	chargecount_hash *counts;
} FocusCall;

/* Start a call (in the function's memory context): the result set, the row context, the count table. */
static void
call_begin(FocusCall *fc, FunctionCallInfo fcinfo, const char *what)
{
	MemoryContext old;

	memset(fc, 0, sizeof(*fc));
	InitMaterializedSRF(fcinfo, 0);
	fc->rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	old = MemoryContextSwitchTo(fc->rsinfo->econtext->ecxt_per_query_memory);
	tuplestore_end(fc->rsinfo->setResult);
	fc->rsinfo->setResult = tuplestore_begin_heap((fc->rsinfo->allowedModes & SFRM_Materialize_Random) != 0,
												  false, LE_FOCUS_SRF_KB);
	MemoryContextSwitchTo(old);
	if (fc->rsinfo->setDesc->natts != LE_FOCUS_NATTS)
		elog(ERROR, "a FOCUS typing function must return llm_econ._focus_line");
	fc->st.what = pstrdup(what);
	fc->st.rowcxt = AllocSetContextCreate(CurrentMemoryContext, "llm_econ focus line", 0, 256 * 1024, 1024 * 1024);
	fc->counts = chargecount_create(CurrentMemoryContext, 1024, NULL);
}

/*
 * Type the reader's current record (first physical line: line) and append it
 * to the result with its occurrence in this call, and the staged id and file
 * line of its last physical line (NULL for a text: has_id false).
 */
static void
emit(FocusCall *fc, le_csv *r, long line, int64 staged_id, long last_line, bool has_id)
{
	FocusIn		in;
	Datum		values[LE_FOCUS_NATTS];
	bool		nulls[LE_FOCUS_NATTS];
	ChargeKey	k;
	ChargeCount *e;
	bool		found;
	MemoryContext old;

	le_focus_check_record(&fc->st, r, line);
	old = MemoryContextSwitchTo(fc->st.rowcxt);
	le_focus_in_of_record(&fc->st, r, line, &in);
	le_focus_type(&fc->st, &in, le_focus_record(&fc->st, r), values, nulls);
	MemoryContextSwitchTo(old);
	/* the k-th line of this call with its identity */
	memcpy(&k, in.digest, sizeof(k));
	e = chargecount_insert(fc->counts, k, &found);
	if (!found)
		e->count = 0;
	e->count++;
	values[O__COUNT] = Int32GetDatum((int32) e->count);
	nulls[O__COUNT] = false;
	values[O__COUNT + 1] = Int64GetDatum(staged_id);
	nulls[O__COUNT + 1] = !has_id;
	if (has_id && last_line > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a staged file may have at most %d lines", PG_INT32_MAX)));
	values[O__COUNT + 2] = Int32GetDatum((int32) last_line);
	nulls[O__COUNT + 2] = !has_id;
	tuplestore_putvalues(fc->rsinfo->setResult, fc->rsinfo->setDesc, values, nulls);
	MemoryContextReset(fc->st.rowcxt);
}

PG_FUNCTION_INFO_V1(le_focus_lines_fn);

/*
 * _focus_lines(csv, what): the data lines of a FOCUS CSV text, typed (see
 * le_focus_type) and numbered (occurrence: the k-th line of the text with its
 * charge identity); the first bad line is an error naming the line and column.
 */
Datum
le_focus_lines_fn(PG_FUNCTION_ARGS)
{
	text	   *csv = PG_GETARG_TEXT_PP(0);
	FocusCall	fc;
	le_csv		r;
	le_csv_status s;
	MemoryContext entry = CurrentMemoryContext;

	call_begin(&fc, fcinfo, le_what_arg(PG_GETARG_TEXT_PP(1)));
	le_open_csv(&r, csv);
	fc.st.in_len = VARSIZE_ANY_EXHDR(csv);
	fc.st.ncols = le_read_header(&r, fc.st.what, &fc.st.names);
	le_focus_header(&fc.st, fc.st.what);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	MemoryContextSwitchTo(entry);
	fc.st.aliases = le_load_aliases(fc.st.alias_lens);
	SPI_finish();
	while ((s = le_csv_next(&r)) == LE_CSV_RECORD)
	{
		CHECK_FOR_INTERRUPTS();
		emit(&fc, &r, r.rec_line, 0, 0, false);
	}
	if (s == LE_CSV_ERROR)
		le_csv_fail(&r, fc.st.what, 0);
	le_csv_free(&r);
	return (Datum) 0;
}

/* ======================================================================== */
/* Staged lines                                                             */
/* ======================================================================== */

/* Staged lines fetched at a time. */
#define LE_STAGED_FETCH 256

/*
 * A read of the current role's staged lines in id order, through a cursor
 * (so the role's privileges and focus_staging's policies apply), joined into
 * records again (a quoted field with line ends spans several staged lines).
 */
typedef struct StagedRead
{
	Portal		cur;
	MemoryContext fetchcxt;		/* the lines of the current fetch */
	SPITupleTable *tab;
	uint64		i;
	bool		eof;
	long		physical;		/* the file line of the last line read */
	int64		last_id;		/* the staged id of the last line read (0: none) */
	bool		open;			/* inside a quoted field */
	StringInfoData rec;			/* the record being joined */
	long		rec_start;		/* its first line */
	size_t	   *in_len;			/* bytes read, for the bound on the rows (FocusState.in_len) */
	const char *what;			/* the label of the errors' CONTEXT */
} StagedRead;

/* Open a read of the role's staged lines after id after; the first is file line first_line. */
static void
staged_open(StagedRead *rd, const char *what, int64 after, long first_line, size_t *in_len)
{
	static SPIPlanPtr plan = NULL;
	Oid			argtypes[1] = {INT8OID};
	Datum		args[1] = {Int64GetDatum(after)};

	memset(rd, 0, sizeof(*rd));
	rd->physical = first_line - 1;
	rd->in_len = in_len;
	rd->what = what;
	rd->fetchcxt = AllocSetContextCreate(CurrentMemoryContext, "llm_econ staged lines", ALLOCSET_DEFAULT_SIZES);
	initStringInfo(&rd->rec);
	if (plan == NULL)
	{
		/*
		 * A cursor read a batch at a time: planned for its first rows (the
		 * (writer, id) index in order), never as a sort of every line after
		 * $1, which each batch would repeat.
		 */
		SPIPlanPtr	p = SPI_prepare_cursor("SELECT s.id, s.line FROM llm_econ.focus_staging s "
										   "WHERE s.writer OPERATOR(pg_catalog.=) CURRENT_USER AND s.id OPERATOR(pg_catalog.>) $1 "
										   "ORDER BY s.id",
										   1, argtypes, CURSOR_OPT_FAST_PLAN);

		if (p == NULL)
			elog(ERROR, "SPI_prepare_cursor failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(p);
		plan = p;
	}
	rd->cur = SPI_cursor_open(NULL, plan, args, NULL, true);
}

/* Close a read. */
static void
staged_close(StagedRead *rd)
{
	if (rd->tab)
		SPI_freetuptable(rd->tab);
	SPI_cursor_close(rd->cur);
	MemoryContextDelete(rd->fetchcxt);
}

/*
 * The next record of the read in rd->rec, its first line in rd->rec_start;
 * false at the end of the staged lines, or (stop > 0) when the last line read
 * has id stop or more and no record is open: a batch ends there.
 */
static bool
staged_next_record(StagedRead *rd, int64 stop)
{
	resetStringInfo(&rd->rec);
	for (;;)
	{
		bool		isnull;
		Datum		d;
		const char *p = "";
		size_t		n = 0;

		if (!rd->open && rd->rec.len == 0 && stop > 0 && rd->last_id >= stop)
			return false;
		if (rd->tab == NULL || rd->i >= rd->tab->numvals)
		{
			if (rd->tab)
				SPI_freetuptable(rd->tab);
			rd->tab = NULL;
			MemoryContextReset(rd->fetchcxt);
			if (!rd->eof)
			{
				SPI_cursor_fetch(rd->cur, true, LE_STAGED_FETCH);
				rd->tab = SPI_tuptable;
				rd->i = 0;
				rd->eof = (SPI_processed == 0);
			}
			if (rd->eof)
			{
				if (rd->open)
					ereport(ERROR,
							(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
							 errmsg("unclosed quote"),
							 errcontext("%s line %ld", rd->what, rd->rec_start)));
				return false;
			}
		}
		rd->last_id = DatumGetInt64(SPI_getbinval(rd->tab->vals[rd->i], rd->tab->tupdesc, 1, &isnull));
		d = SPI_getbinval(rd->tab->vals[rd->i], rd->tab->tupdesc, 2, &isnull);
		rd->i++;
		rd->physical++;
		if (!isnull)
		{
			MemoryContext old = MemoryContextSwitchTo(rd->fetchcxt);
			text	   *t = DatumGetTextPP(d);	/* a long line is detoasted here */

			MemoryContextSwitchTo(old);
			p = VARDATA_ANY(t);
			n = VARSIZE_ANY_EXHDR(t);
		}
		if (rd->rec.len == 0 && !rd->open)
		{
			if (n == 0)
				continue;		/* a blank line between records */
			rd->rec_start = rd->physical;
		}
		else
			appendStringInfoChar(&rd->rec, '\n');
		/* a record is at most LE_CSV_MAX_RECORD bytes: refuse it while it is joined, not after */
		if ((uint64) rd->rec.len + n + 1 > LE_CSV_MAX_RECORD)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("record is longer than %d bytes, the most allowed", (int) LE_CSV_MAX_RECORD),
					 errcontext("staged FOCUS line %ld", rd->rec_start)));
		CHECK_FOR_INTERRUPTS();
		appendBinaryStringInfo(&rd->rec, p, n);
		*rd->in_len += n + 1;
		rd->open = le_odd_quotes(p, n, rd->open);
		if (!rd->open)
			return true;
	}
}

/*
 * Read the joined record of rd into r.  A row of focus_staging is one line
 * of the file, so the record must be all of it: a staged row holding a line
 * break outside quotes (put there by an INSERT; \copy splits the file at
 * them) holds several records, and reading only the first would lose the
 * others without a word.  It is refused (line ends at its very end are
 * nothing lost).
 */
static void
staged_parse(StagedRead *rd, const char *what, le_csv *r)
{
	const char *rest;

	le_csv_init(r, rd->rec.data, rd->rec.len, le_palloc, NULL);
	if (le_csv_next(r) == LE_CSV_ERROR)
		le_csv_fail(r, what, rd->rec_start - 1);
	for (rest = r->pos; rest < r->end && (*rest == '\n' || *rest == '\r'); rest++)
		;
	if (rest < r->end)
		ereport(ERROR,
				(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
				 errmsg("a staged line holds a line break outside quotes"),
				 errdetail("Each row of focus_staging is one line of the file; this one holds more than one record."),
				 errhint("Stage the file with \\copy, which makes one row of each line."),
				 errcontext("%s line %ld", what, rd->rec_start)));
}

/*
 * A delivery may be several files staged one after the other, each with its
 * own header (AWS export parts, one Azure export per subscription): a staged
 * record is a header when two of its fields are the names "BilledCost" and
 * "ChargePeriodStart" (case ignored), columns FOCUS makes mandatory, where a
 * data line holds a number and a time.  Each header starts a new part.
 */
static bool
record_is_header(const le_csv *r)
{
	bool		billed = false,
				period = false;

	for (int i = 0; i < r->nfields; i++)
	{
		const le_csv_field *f = &r->fields[i];

		if (f->len == 10 && pg_strncasecmp(f->ptr, "BilledCost", 10) == 0)
			billed = true;
		else if (f->len == 17 && pg_strncasecmp(f->ptr, "ChargePeriodStart", 17) == 0)
			period = true;
	}
	return billed && period;
}

/* A header record r (file line line): the columns of every line after it. */
static void
header_of(FocusCall *fc, const le_csv *r, long line)
{
	fc->st.ncols = le_header_names(r, fc->st.what, line, &fc->st.names);
	le_focus_header(&fc->st, fc->st.what);
}

/* Read the header record of rd (its first): the columns of every line after it. */
static bool
staged_header(FocusCall *fc, StagedRead *rd)
{
	le_csv		r;

	if (!staged_next_record(rd, 0))
		return false;
	staged_parse(rd, fc->st.what, &r);
	header_of(fc, &r, rd->rec_start);
	return true;
}

/*
 * The header in effect after a staged id, as the load's earlier batch left it
 * (a load's batches run in order in one backend): its staged id, its text, the
 * role, and the last staged id that batch read, so that no header between
 * them went unseen.  Used only when the row is still staged with that text;
 * otherwise the role's lines are read again from the first.
 */
static struct
{
	Oid			role;
	int64		id;				/* 0: nothing kept */
	int64		seen;			/* the last staged id read with this header in effect */
	long		line;
	char	   *text;			/* in TopMemoryContext */
} part_memo;

static void
part_memo_set(int64 id, long line, const StringInfo rec, int64 seen)
{
	if (part_memo.text)
		pfree(part_memo.text);
	part_memo.text = MemoryContextStrdup(TopMemoryContext, rec->data);
	part_memo.role = GetUserId();
	part_memo.id = id;
	part_memo.line = line;
	part_memo.seen = seen;
}

/* The header in effect after staged id after from the memo, if it still holds; false otherwise. */
static bool
part_memo_header(FocusCall *fc, int64 after)
{
	static SPIPlanPtr plan = NULL;
	Datum		args[1];
	bool		ok;
	le_csv		r;
	char	   *t;

	if (part_memo.id == 0 || part_memo.role != GetUserId() || part_memo.id > after || after > part_memo.seen)
		return false;
	if (plan == NULL)
	{
		Oid			argtypes[1] = {INT8OID};
		SPIPlanPtr	p = SPI_prepare("SELECT s.line FROM llm_econ.focus_staging s "
									"WHERE s.writer OPERATOR(pg_catalog.=) CURRENT_USER AND s.id OPERATOR(pg_catalog.=) $1",
									1, argtypes);

		if (p == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(p);
		plan = p;
	}
	args[0] = Int64GetDatum(part_memo.id);
	if (SPI_execute_plan(plan, args, NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		return false;
	t = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	ok = (t != NULL && strcmp(t, part_memo.text) == 0);
	if (!ok)
		return false;
	t = pstrdup(part_memo.text);
	le_csv_init(&r, t, strlen(t), le_palloc, NULL);
	if (le_csv_next(&r) != LE_CSV_RECORD || !record_is_header(&r))
		return false;
	header_of(fc, &r, part_memo.line);
	return true;
}

PG_FUNCTION_INFO_V1(le_focus_staged_lines_fn);

/*
 * _focus_staged_lines(what, after_id, last_id, first_line): the current
 * role's staged lines after id after_id (file line first_line on), typed and
 * numbered as _focus_lines does, up to the record that holds the line of id
 * last_id (a record open there is read to its end: its staged_id is the id of
 * its last line).  The header is the role's first staged record; after_id 0
 * starts at it (first_line 1).  Nothing is kept after the call: a load calls
 * it once per batch, each from its own statement.
 */
Datum
le_focus_staged_lines_fn(PG_FUNCTION_ARGS)
{
	int64		after = PG_GETARG_INT64(1);
	int64		last = PG_GETARG_INT64(2);
	int32		first_line = PG_GETARG_INT32(3);
	FocusCall	fc;
	StagedRead	rd;
	MemoryContext entry = CurrentMemoryContext;

	call_begin(&fc, fcinfo, le_what_arg(PG_GETARG_TEXT_PP(0)));
	if (after < 0 || first_line < 1 || (after == 0) != (first_line == 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("after_id must be 0 with first_line 1 (from the header), or both later; got %lld and %d",
						(long long) after, first_line)));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	MemoryContextSwitchTo(entry);
	fc.st.aliases = le_load_aliases(fc.st.alias_lens);
	if (after > 0 && !part_memo_header(&fc, after))
	{
		/*
		 * A later batch with no memo of its part: the role's records up to
		 * after are read again for the last header among them.
		 */
		size_t		ignored = 0;
		bool		found = false;

		staged_open(&rd, fc.st.what, 0, 1, &ignored);
		while (staged_next_record(&rd, after))
		{
			le_csv		r;

			CHECK_FOR_INTERRUPTS();
			staged_parse(&rd, fc.st.what, &r);
			if (!found || record_is_header(&r))
			{
				header_of(&fc, &r, rd.rec_start);
				part_memo_set(rd.last_id, rd.rec_start, &rd.rec, after);
				found = true;
			}
		}
		staged_close(&rd);
		if (!found)
			elog(ERROR, "the staged header is gone");
	}
	staged_open(&rd, fc.st.what, after, first_line, &fc.st.in_len);
	if (after > 0 || staged_header(&fc, &rd))
	{
		if (after == 0)
			part_memo_set(rd.last_id, rd.rec_start, &rd.rec, rd.last_id);
		while (staged_next_record(&rd, last))
		{
			le_csv		r;

			CHECK_FOR_INTERRUPTS();
			MemoryContextSwitchTo(fc.st.rowcxt);
			staged_parse(&rd, fc.st.what, &r);
			MemoryContextSwitchTo(entry);
			if (record_is_header(&r))
			{
				/* the next part of the delivery: its own columns from here on */
				header_of(&fc, &r, rd.rec_start);
				part_memo_set(rd.last_id, rd.rec_start, &rd.rec, rd.last_id);
				continue;
			}
			emit(&fc, &r, rd.rec_start, rd.last_id, rd.physical, true);
		}
		part_memo.seen = rd.last_id;
	}
	staged_close(&rd);
	SPI_finish();
	return (Datum) 0;
}

/* ======================================================================== */
/* Entry points only the released scripts name                              */
/* ======================================================================== */

/*
 * The 0.2.0 -> 0.3.0 update script creates these functions of the removed
 * private load path, and CREATE FUNCTION needs their symbols; the 0.3.0 ->
 * 0.4.0 step drops them again.  Called in a database left at 0.3.0 with this
 * module, each says so.
 */
#define LE_REMOVED_FN(sym, sqlname) \
PG_FUNCTION_INFO_V1(sym); \
Datum sym(PG_FUNCTION_ARGS); \
Datum \
sym(PG_FUNCTION_ARGS) \
{ \
	ereport(ERROR, \
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED), \
			 errmsg("%s was removed in llm_econ 0.4.0", sqlname), \
			 errhint("Run ALTER EXTENSION llm_econ UPDATE; load_focus() loads the staged lines."))); \
	PG_RETURN_NULL(); \
}

LE_REMOVED_FN(le_focus_staged_rows_fn, "llm_econ._focus_staged_rows")
LE_REMOVED_FN(le_focus_staged_insert_fn, "llm_econ._focus_staged_insert")
LE_REMOVED_FN(le_focus_staged_done_fn, "llm_econ._focus_staged_done")
LE_REMOVED_FN(le_focus_worker_lines_fn, "llm_econ._focus_worker_lines")
LE_REMOVED_FN(le_focus_staged_periods_fn, "llm_econ._focus_staged_periods")
