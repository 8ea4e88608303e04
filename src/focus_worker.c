/* focus_worker.c: a large staged FOCUS file's lines typed in a background worker, beside the backend that inserts them. */
#include "focus.h"

#include "access/heaptoast.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/freespace.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "storage/shm_mq.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * Typing a line (its CSV fields, numbers, times, JSON, record and charge
 * identity) is about a third of a load; reading the staged pages, counting
 * copies and inserting into spend's heap and indexes are the rest.  So a
 * large load hands the typing to a second process, a dynamic background
 * worker, and the two run side by side on two cores.  The worker reads no
 * table and runs no SQL: it gets the header and batches of records through
 * one shared-memory queue and sends back, through another, each record typed
 * (a minimal tuple of the typed columns) or the first error, which the
 * backend raises as it is (code, message, detail, hint and the line and
 * column in the context).  The backend keeps reading, numbering and
 * inserting in file order, so what a load stores, and every error it raises,
 * is the same as when it types the lines itself.  The worker connects to the
 * database as the session's login role (for its encoding and locale, which
 * lower-casing provider names uses), takes the session's lc_messages (the
 * language of PostgreSQL's input errors), holds no snapshot, and exits when
 * the backend detaches from the queues: at the end of the load, at an error
 * or cancel, or when the backend exits.
 *
 * llm_econ.focus_typing_worker: auto (the default) registers the worker
 * when the header is read if the file takes at least LE_FW_MIN_PAGES of
 * focus_staging from its first line's page on (8 MB: a worker is ready about
 * 20 ms later, and smaller files load faster without one), and types on in
 * the backend until it is ready; on registers it whatever the size and
 * waits for it; off never.  The worker is counted as
 * a parallel worker (max_parallel_workers, within max_worker_processes), the
 * pool PostgreSQL keeps for per-statement helpers; when none is free, or it
 * cannot connect, the backend types every line, as with off.
 */
int			le_focus_typing_worker = LE_FW_AUTO;

/* Records per message to the worker, and the bytes of their text at most. */
#define LE_FW_BATCH 128
#define LE_FW_BATCH_BYTES (128 * 1024)
/* Each queue's ring, and the batches sent ahead of the one being inserted. */
#define LE_FW_QUEUE (1024 * 1024)
#define LE_FW_AHEAD 8
#define LE_FW_MAGIC 0x4c454657

/* What the worker is given beside its queues: where to connect, and the alias map's size. */
typedef struct FwShared
{
	Oid			dbid;
	Oid			userid;
	Size		alias_len;
	char		lc_messages[256];	/* the session's, so that errors read the same ("" when longer) */
	Oid			spend_relid;	/* spend, for the pages added ahead (InvalidOid: none added) */
	Oid			spend_filenode; /* its file as the backend sees it */
} FwShared;

/* toc keys */
#define FW_KEY_SHARED 0
#define FW_KEY_TO 1
#define FW_KEY_FROM 2
#define FW_KEY_ALIASES 3

/*
 * An answer is a run of entries, each a header (kind, payload bytes, the
 * record's text bytes) and the payload, MAXALIGNed: 'T' a typed line (a
 * minimal tuple of le_staged_tupdesc, occurrence NULL), 'E' the error of the
 * next line (fw_put_error), after which the worker stops.
 */
typedef struct FwEntry
{
	uint32		kind;
	uint32		len;
	uint32		rec_len;
	uint32		pad;
} FwEntry;

/* The backend's side of a worker. */
typedef struct FocusWorker
{
	dsm_segment *seg;
	BackgroundWorkerHandle *handle;
	shm_mq	   *to_mq;
	shm_mq_handle *to;			/* records, to the worker */
	shm_mq_handle *from;		/* typed lines, from it */
	bool		active;			/* it has the header and types every line from now on */
	StringInfoData msg;			/* the batch being sent */
	bool		pending;		/* msg is not all sent yet */
	bool		eof;			/* every staged line was sent */
	int			ahead;			/* batches sent and not answered */
	char	   *reply;			/* the answer being read (MAXALIGNed copy) */
	Size		reply_cap;
	Size		reply_len;
	Size		reply_pos;
	TupleTableSlot *slot;
	int			polls;
} FocusWorker;

/* Lines the last load of this backend had typed by a worker (_focus_worker_lines). */
int64		le_focus_worker_lines = 0;

PGDLLEXPORT void le_focus_worker_main(Datum arg);

/* The alias map as bytes: per entry its GPUs (4 bytes), then key, alias and sku, each NUL-terminated. */
static void
alias_map_write(HTAB *h, StringInfo out)
{
	HASH_SEQ_STATUS seq;
	AliasEntry *e;

	hash_seq_init(&seq, h);
	while ((e = hash_seq_search(&seq)) != NULL)
	{
		appendBinaryStringInfo(out, (const char *) &e->gpus, sizeof(int32));
		appendBinaryStringInfo(out, e->key, strlen(e->key) + 1);
		appendBinaryStringInfo(out, e->alias, strlen(e->alias) + 1);
		appendBinaryStringInfo(out, e->sku, strlen(e->sku) + 1);
	}
}

/* The alias map alias_map_write wrote, rebuilt in the current memory context. */
static HTAB *
alias_map_read(const char *p, Size len, uint64 *lens)
{
	HTAB	   *h = le_alias_map_create();
	const char *end = p + len;

	while (p < end)
	{
		int32		gpus;
		const char *key,
				   *alias,
				   *sku;

		memcpy(&gpus, p, sizeof(int32));
		key = p + sizeof(int32);
		alias = key + strlen(key) + 1;
		sku = alias + strlen(alias) + 1;
		p = sku + strlen(sku) + 1;
		le_alias_add(h, CurrentMemoryContext, lens, key, alias, sku, gpus);
	}
	return h;
}

/* Stop the worker: detaching from the queues tells it to exit. */
void
le_fw_stop(StagedRows *sr)
{
	FocusWorker *fw = sr->fw;

	if (fw == NULL)
		return;
	sr->fw = NULL;
	if (fw->seg)
		dsm_detach(fw->seg);
}

/*
 * Register a worker for this load (in the load's context and resource owner,
 * so an abort detaches it); false when none can be.
 */
bool
le_fw_start(StagedRows *sr)
{
	FocusWorker *fw;
	shm_toc_estimator e;
	StringInfoData aliases;
	Size		size;
	shm_toc    *toc;
	FwShared   *sh;
	shm_mq	   *from_mq;
	BackgroundWorker w;
	ResourceOwner saved = CurrentResourceOwner;
	MemoryContext old = MemoryContextSwitchTo(sr->cxt);

	initStringInfo(&aliases);
	alias_map_write(sr->st.aliases, &aliases);
	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, sizeof(FwShared));
	shm_toc_estimate_chunk(&e, LE_FW_QUEUE);
	shm_toc_estimate_chunk(&e, LE_FW_QUEUE);
	shm_toc_estimate_chunk(&e, aliases.len + 1);
	shm_toc_estimate_keys(&e, 4);
	size = shm_toc_estimate(&e);

	fw = palloc0(sizeof(FocusWorker));
	CurrentResourceOwner = sr->owner;
	fw->seg = dsm_create(size, DSM_CREATE_NULL_IF_MAXSEGMENTS);
	CurrentResourceOwner = saved;
	if (fw->seg == NULL)
	{
		MemoryContextSwitchTo(old);
		return false;
	}
	toc = shm_toc_create(LE_FW_MAGIC, dsm_segment_address(fw->seg), size);
	sh = shm_toc_allocate(toc, sizeof(FwShared));
	memset(sh, 0, sizeof(FwShared));
	sh->dbid = MyDatabaseId;
	sh->userid = GetAuthenticatedUserId();
	sh->alias_len = aliases.len;
	{
		const char *lc = GetConfigOption("lc_messages", true, false);

		if (lc && strlen(lc) < sizeof(sh->lc_messages))
			strlcpy(sh->lc_messages, lc, sizeof(sh->lc_messages));
	}
#if PG_VERSION_NUM < 160000
	/* only for the C insert path, which inserts into spend's heap here (not Citus's, not a partition's) */
	if (sr->delete_read)
	{
		Oid			relid = get_relname_relid("spend", get_namespace_oid("llm_econ", false));

		if (OidIsValid(relid))
		{
			Relation	r = table_open(relid, AccessShareLock);

			if (r->rd_rel->relkind == RELKIND_RELATION && r->rd_rel->relam == HEAP_TABLE_AM_OID &&
				r->rd_rel->relpersistence != RELPERSISTENCE_TEMP)
			{
				sh->spend_relid = relid;
				sh->spend_filenode = r->rd_rel->relfilenode;
			}
			table_close(r, NoLock);
		}
	}
#endif
	shm_toc_insert(toc, FW_KEY_SHARED, sh);
	fw->to_mq = shm_mq_create(shm_toc_allocate(toc, LE_FW_QUEUE), LE_FW_QUEUE);
	shm_toc_insert(toc, FW_KEY_TO, fw->to_mq);
	shm_mq_set_sender(fw->to_mq, MyProc);
	from_mq = shm_mq_create(shm_toc_allocate(toc, LE_FW_QUEUE), LE_FW_QUEUE);
	shm_toc_insert(toc, FW_KEY_FROM, from_mq);
	shm_mq_set_receiver(from_mq, MyProc);
	{
		char	   *a = shm_toc_allocate(toc, aliases.len + 1);

		memcpy(a, aliases.data, aliases.len + 1);
		shm_toc_insert(toc, FW_KEY_ALIASES, a);
	}
	fw->to = shm_mq_attach(fw->to_mq, fw->seg, NULL);
	fw->from = shm_mq_attach(from_mq, fw->seg, NULL);
	sr->fw = fw;

	memset(&w, 0, sizeof(w));
	/* a per-statement helper, as parallel query's workers are: from their pool (max_parallel_workers) */
	w.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION | BGWORKER_CLASS_PARALLEL;
	w.bgw_start_time = BgWorkerStart_ConsistentState;
	w.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(w.bgw_library_name, BGW_MAXLEN, "llm_econ");
	snprintf(w.bgw_function_name, BGW_MAXLEN, "le_focus_worker_main");
	snprintf(w.bgw_name, BGW_MAXLEN, "llm_econ focus typing for PID %d", MyProcPid);
	snprintf(w.bgw_type, BGW_MAXLEN, "llm_econ focus typing");
	w.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(fw->seg));
	w.bgw_notify_pid = MyProcPid;
	if (!RegisterDynamicBackgroundWorker(&w, &fw->handle))
	{
		le_fw_stop(sr);
		MemoryContextSwitchTo(old);
		return false;
	}
	/* a worker that stops before it attaches is then noticed by the queues */
	shm_mq_set_handle(fw->to, fw->handle);
	shm_mq_set_handle(fw->from, fw->handle);
	initStringInfo(&fw->msg);
	fw->slot = MakeSingleTupleTableSlot(sr->tupdesc, &TTSOpsMinimalTuple);
	MemoryContextSwitchTo(old);
	return true;
}

/*
 * Whether the worker is ready (it attached to its queue; then it is sent the
 * header and types every line from now on); with wait, until it is or it
 * stopped.  A worker that stopped before it was ready (it could not connect)
 * is given up: the backend types on.
 */
bool
le_fw_ready(StagedRows *sr, bool wait)
{
	FocusWorker *fw = sr->fw;
	pid_t		pid;
	StringInfoData h;
	int64		line = sr->header_line;
	uint64		in_len = sr->st.in_len;
	uint64		out_len = sr->st.out_len;
	int32		n;

	if (fw->active)
		return true;
	if (!wait && shm_mq_get_receiver(fw->to_mq) == NULL)
	{
		if ((++fw->polls & 63) == 0 && GetBackgroundWorkerPid(fw->handle, &pid) == BGWH_STOPPED)
			le_fw_stop(sr);
		return false;
	}
	if (shm_mq_wait_for_attach(fw->to) != SHM_MQ_SUCCESS)
	{
		le_fw_stop(sr);
		return false;
	}
	/* 'H', the header's line, what the backend read and the records took so far, what, the header */
	initStringInfo(&h);
	appendStringInfoChar(&h, 'H');
	appendBinaryStringInfo(&h, (const char *) &line, sizeof(line));
	appendBinaryStringInfo(&h, (const char *) &in_len, sizeof(in_len));
	appendBinaryStringInfo(&h, (const char *) &out_len, sizeof(out_len));
	n = (int32) strlen(sr->st.what);
	appendBinaryStringInfo(&h, (const char *) &n, sizeof(n));
	appendBinaryStringInfo(&h, sr->st.what, n);
	appendBinaryStringInfo(&h, sr->header, sr->header_len);
	if (shm_mq_send(fw->to, h.len, h.data, false, true) != SHM_MQ_SUCCESS)
	{
		le_fw_stop(sr);
		return false;
	}
	pfree(h.data);
	fw->active = true;
	return true;
}

/* The worker went away before it answered (terminated, or out of memory): the load fails. */
le_noreturn static void
fw_stopped(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYSTEM_ERROR),
			 errmsg("the background worker typing the staged lines stopped"),
			 errhint("Set llm_econ.focus_typing_worker to off to type them in this session.")));
}

/*
 * Send the worker the next batches of records, up to LE_FW_AHEAD unanswered:
 * without waiting while it has one to type (a full queue then means it is
 * busy), else waiting for room.
 */
static void
fw_pump(StagedRows *sr)
{
	FocusWorker *fw = sr->fw;

	while (fw->ahead < LE_FW_AHEAD)
	{
		shm_mq_result res;

		if (!fw->pending)
		{
			int32		nrec = 0;

			if (fw->eof)
				return;
			resetStringInfo(&fw->msg);
			appendStringInfoChar(&fw->msg, 'B');
			while (nrec < LE_FW_BATCH && fw->msg.len < LE_FW_BATCH_BYTES)
			{
				int64		line;
				int32		len;

				if (!le_staged_next_record(sr))
				{
					fw->eof = true;
					break;
				}
				line = sr->rec_start;
				len = sr->rec.len;
				appendBinaryStringInfo(&fw->msg, (const char *) &line, sizeof(line));
				appendBinaryStringInfo(&fw->msg, (const char *) &len, sizeof(len));
				appendBinaryStringInfo(&fw->msg, sr->rec.data, len);
				nrec++;
			}
			if (nrec == 0)
				return;
			fw->pending = true;
		}
		res = shm_mq_send(fw->to, fw->msg.len, fw->msg.data, fw->ahead > 0, true);
		if (res == SHM_MQ_WOULD_BLOCK)
			return;
		if (res != SHM_MQ_SUCCESS)
			fw_stopped();
		fw->pending = false;
		fw->ahead++;
	}
}

/* Raise the error an 'E' entry holds, as the worker caught it. */
static void
fw_raise(const char *p)
{
	ErrorData	e;
	char	   *s[4];

	memset(&e, 0, sizeof(e));
	memcpy(&e.sqlerrcode, p, sizeof(int));
	p += sizeof(int);
	for (int i = 0; i < 4; i++)
	{
		int32		len;

		memcpy(&len, p, sizeof(len));
		p += sizeof(len);
		s[i] = len < 0 ? NULL : pnstrdup(p, len);
		p += Max(len, 0);
	}
	e.elevel = ERROR;
	e.message = s[0];
	e.detail = s[1];
	e.hint = s[2];
	e.context = s[3];
	e.filename = __FILE__;
	e.lineno = __LINE__;
	e.funcname = __func__;
	e.assoc_context = CurrentMemoryContext;
	ThrowErrorData(&e);
	elog(ERROR, "an error of the typing worker was not raised");	/* ThrowErrorData returns for less than ERROR only */
}

/*
 * The worker's next typed line in values/nulls (valid until the next call),
 * its record's text bytes in *rec_len; false when every line was typed.
 */
bool
le_fw_next(StagedRows *sr, Datum *values, bool *nulls, int *rec_len)
{
	FocusWorker *fw = sr->fw;

	for (;;)
	{
		shm_mq_result res;
		Size		len;
		void	   *data;

		if (fw->reply_pos < fw->reply_len)
		{
			FwEntry		h;
			char	   *payload;

			memcpy(&h, fw->reply + fw->reply_pos, sizeof(h));
			payload = fw->reply + fw->reply_pos + sizeof(FwEntry);
			fw->reply_pos += sizeof(FwEntry) + MAXALIGN(h.len);
			if (h.kind == 'E')
				fw_raise(payload);
			if (h.kind != 'T' || fw->reply_pos > fw->reply_len)
				elog(ERROR, "the typing worker's answer is malformed");
			ExecStoreMinimalTuple((MinimalTuple) payload, fw->slot, false);
			slot_getallattrs(fw->slot);
			memcpy(values, fw->slot->tts_values, sizeof(Datum) * O__COUNT);
			memcpy(nulls, fw->slot->tts_isnull, sizeof(bool) * O__COUNT);
			*rec_len = (int) h.rec_len;
			le_focus_worker_lines++;
			return true;
		}
		fw_pump(sr);
		if (fw->ahead == 0)
			return false;
		res = shm_mq_receive(fw->from, &len, &data, false);
		if (res != SHM_MQ_SUCCESS)
			fw_stopped();
		fw->ahead--;
		ExecClearTuple(fw->slot);
		if (len > fw->reply_cap)
		{
			if (fw->reply)
				pfree(fw->reply);
			fw->reply_cap = Max(len, 256 * 1024);
			fw->reply = MemoryContextAlloc(sr->cxt, fw->reply_cap);
		}
		memcpy(fw->reply, data, len);
		fw->reply_len = len;
		fw->reply_pos = 0;
	}
}

/* Append an entry to an answer: its header, then the payload padded to MAXALIGN. */
static void
fw_put(StringInfo out, uint32 kind, const char *payload, uint32 len, uint32 rec_len)
{
	FwEntry		h = {kind, len, rec_len, 0};
	static const char zeros[MAXIMUM_ALIGNOF] = {0};

	appendBinaryStringInfo(out, (const char *) &h, sizeof(h));
	appendBinaryStringInfo(out, payload, len);
	appendBinaryStringInfo(out, zeros, MAXALIGN(len) - len);
}

/* Append an error entry: its code, then message, detail, hint and context (each length and bytes; -1 NULL). */
static void
fw_put_error(StringInfo out, const ErrorData *e)
{
	StringInfoData p;
	const char *s[4] = {e->message, e->detail, e->hint, e->context};

	initStringInfo(&p);
	appendBinaryStringInfo(&p, (const char *) &e->sqlerrcode, sizeof(int));
	for (int i = 0; i < 4; i++)
	{
		int32		len = s[i] ? (int32) strlen(s[i]) : -1;

		appendBinaryStringInfo(&p, (const char *) &len, sizeof(len));
		if (s[i])
			appendBinaryStringInfo(&p, s[i], len);
	}
	fw_put(out, 'E', p.data, p.len, 0);
}

/*
 * spend's pages added ahead of the backend.  PostgreSQL 15 extends a heap a
 * page at a time, each new page's zeros written by the inserting backend (a
 * seventh of a load's time there; 16 extends in bulk).  So on 15 the worker
 * adds the pages the lines it typed will need and records them in the free
 * space map, where the backend's inserts find them, as PostgreSQL's
 * RelationAddExtraBlocks does when extensions contend: writing the zeros moves
 * to the worker's core.  It counts a line's page room a little short (its
 * typed tuple plus 32 bytes, lines that TOAST may shrink not at all), so that
 * the backend extends what is missing rather than finding pages left over.
 * It takes RowExclusiveLock on spend without waiting (else adds nothing) and
 * adds nothing when spend is not the file the backend inserts into (another
 * relfilenode, as after a TRUNCATE in the load's transaction).  Pages added
 * and not used (a load that fails) are empty pages in the free space map,
 * which later inserts use and VACUUM truncates.
 */
typedef struct FwExtend
{
	Relation	rel;			/* NULL: add nothing */
	BufferAccessStrategy ring;
	Size		room;			/* bytes left on the last page counted */
	int			owed;			/* pages counted and not yet added */
} FwExtend;

static void
fw_extend_open(FwExtend *x, const FwShared *sh)
{
	memset(x, 0, sizeof(*x));
#if PG_VERSION_NUM < 160000
	if (!OidIsValid(sh->spend_relid) || !ConditionalLockRelationOid(sh->spend_relid, RowExclusiveLock))
		return;
	x->rel = try_relation_open(sh->spend_relid, NoLock);
	if (x->rel != NULL &&
		(x->rel->rd_rel->relfilenode != sh->spend_filenode || x->rel->rd_rel->relkind != RELKIND_RELATION ||
		 x->rel->rd_rel->relam != HEAP_TABLE_AM_OID))
	{
		relation_close(x->rel, NoLock);
		x->rel = NULL;
	}
	if (x->rel)
		x->ring = GetAccessStrategy(BAS_BULKWRITE);
	InvalidateCatalogSnapshot();
#endif
}

/* Count the room of a line whose typed tuple takes len bytes. */
static inline void
fw_extend_count(FwExtend *x, Size len)
{
	Size		need;

	if (x->rel == NULL || len > TOAST_TUPLE_THRESHOLD)
		return;
	need = MAXALIGN(len + 32) + sizeof(ItemIdData);
	if (need > x->room)
	{
		x->owed++;
		x->room = BLCKSZ - SizeOfPageHeaderData;
	}
	x->room -= need;
}

/* Add the pages counted, and record them as free. */
static void
fw_extend_add(FwExtend *x)
{
#if PG_VERSION_NUM < 160000
	BlockNumber first = InvalidBlockNumber;
	BlockNumber last = InvalidBlockNumber;

	if (x->rel == NULL || x->owed == 0)
		return;
	LockRelationForExtension(x->rel, ExclusiveLock);
	for (int i = 0; i < x->owed; i++)
	{
		Buffer		b = ReadBufferExtended(x->rel, MAIN_FORKNUM, P_NEW, RBM_ZERO_AND_LOCK, x->ring);

		last = BufferGetBlockNumber(b);
		if (first == InvalidBlockNumber)
			first = last;
		UnlockReleaseBuffer(b);
	}
	UnlockRelationForExtension(x->rel, ExclusiveLock);
	x->owed = 0;
	/* consecutive: the extension lock was held throughout */
	for (BlockNumber b = first; b <= last; b++)
		RecordPageWithFreeSpace(x->rel, b, BLCKSZ - SizeOfPageHeaderData);
	FreeSpaceMapVacuumRange(x->rel, first, last + 1);
#endif
}

/*
 * The worker: attach, connect, rebuild the alias map; then answer each
 * message ('H' the header, 'B' a batch of records) until the backend
 * detaches, or until a record's error was sent.
 */
void
le_focus_worker_main(Datum arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	FwShared   *sh;
	shm_mq_handle *in;
	shm_mq_handle *out;
	FocusState	st;
	TupleDesc	tupdesc;
	MemoryContext cxt;
	MemoryContext msgcxt;
	StringInfoData reply;
	bool		failed = false;
	FwExtend	extend;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	CurrentResourceOwner = ResourceOwnerCreate(NULL, "llm_econ focus typing");
	seg = dsm_attach(DatumGetUInt32(arg));
	if (seg == NULL)
		proc_exit(0);			/* the load ended before this worker started */
	toc = shm_toc_attach(LE_FW_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		proc_exit(0);
	sh = shm_toc_lookup(toc, FW_KEY_SHARED, false);
	/* as a parallel worker connects: the session is in, whatever the database allows new sessions */
	BackgroundWorkerInitializeConnectionByOid(sh->dbid, sh->userid, BGWORKER_BYPASS_ALLOWCONN);

	if (sh->lc_messages[0])
		SetConfigOption("lc_messages", sh->lc_messages, PGC_SUSET, PGC_S_SESSION);
	cxt = AllocSetContextCreate(TopMemoryContext, "llm_econ focus typing", ALLOCSET_DEFAULT_SIZES);
	msgcxt = AllocSetContextCreate(cxt, "llm_econ focus typing answer", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);
	/*
	 * The typed columns' descriptor looks the types up, in a transaction,
	 * which stays open while spend is extended ahead (its lock is held).
	 */
	StartTransactionCommand();
	MemoryContextSwitchTo(cxt);
	tupdesc = CreateTupleDescCopy(le_staged_tupdesc());
	fw_extend_open(&extend, sh);
	MemoryContextSwitchTo(cxt);
	memset(&st, 0, sizeof(st));
	st.aliases = alias_map_read(shm_toc_lookup(toc, FW_KEY_ALIASES, false), sh->alias_len, st.alias_lens);
	st.rowcxt = AllocSetContextCreate(cxt, "llm_econ focus line", 0, 256 * 1024, 1024 * 1024);

	shm_mq_set_sender(shm_toc_lookup(toc, FW_KEY_FROM, false), MyProc);
	out = shm_mq_attach(shm_toc_lookup(toc, FW_KEY_FROM, false), seg, NULL);
	shm_mq_set_receiver(shm_toc_lookup(toc, FW_KEY_TO, false), MyProc);
	in = shm_mq_attach(shm_toc_lookup(toc, FW_KEY_TO, false), seg, NULL);

	while (!failed)
	{
		Size		len;
		void	   *data;
		const char *p;
		const char *end;

		if (shm_mq_receive(in, &len, &data, false) != SHM_MQ_SUCCESS)
			break;				/* the backend detached: the load is over */
		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(msgcxt);
		MemoryContextSwitchTo(msgcxt);
		initStringInfo(&reply);
		p = (const char *) data;
		end = p + len;
		PG_TRY();
		{
			if (*p == 'H')
			{
				int64		line;
				int32		n;
				le_csv		r;

				p++;
				memcpy(&line, p, sizeof(line));
				p += sizeof(line);
				memcpy(&st.in_len, p, sizeof(uint64));
				p += sizeof(uint64);
				memcpy(&st.out_len, p, sizeof(uint64));
				p += sizeof(uint64);
				memcpy(&n, p, sizeof(n));
				p += sizeof(n);
				MemoryContextSwitchTo(cxt);
				st.what = pnstrdup(p, n);
				p += n;
				le_record_parse(p, (int) (end - p), st.what, line, &r, true);
				st.ncols = le_header_names(&r, st.what, line, &st.names);
				le_focus_header(&st, st.what);
			}
			else
			{
				for (p++; p < end;)
				{
					int64		line;
					int32		n;
					le_csv		r;
					FocusIn		fi;
					Datum		values[O__COUNT + 1];
					bool		nulls[O__COUNT + 1];
					MinimalTuple t;

					memcpy(&line, p, sizeof(line));
					p += sizeof(line);
					memcpy(&n, p, sizeof(n));
					p += sizeof(n);
					MemoryContextReset(st.rowcxt);
					MemoryContextSwitchTo(st.rowcxt);
					/* as the backend counts what it read: the record and its line end */
					st.in_len += n + 1;
					le_record_parse(p, n, st.what, line, &r, true);
					le_focus_check_record(&st, &r, line);
					le_focus_in_of_record(&st, &r, line, &fi);
					le_focus_type(&st, &fi, le_focus_record(&st, &r), values, nulls);
					values[O__COUNT] = (Datum) 0;
					nulls[O__COUNT] = true;
					t = le_form_minimal_tuple(tupdesc, values, nulls);
					MemoryContextSwitchTo(msgcxt);
					fw_put(&reply, 'T', (const char *) t, t->t_len, (uint32) n);
					fw_extend_count(&extend, t->t_len);
					p += n;
				}
			}
		}
		PG_CATCH();
		{
			ErrorData  *e;

			MemoryContextSwitchTo(msgcxt);
			e = CopyErrorData();
			FlushErrorState();
			fw_put_error(&reply, e);
			failed = true;
		}
		PG_END_TRY();
		MemoryContextSwitchTo(msgcxt);
		/* the pages for these lines, before the backend gets them: it then finds them in the map */
		if (!failed)
			fw_extend_add(&extend);
		if (reply.len > 0 && shm_mq_send(out, reply.len, reply.data, false, true) != SHM_MQ_SUCCESS)
			break;
	}
	if (extend.rel)
		relation_close(extend.rel, NoLock);
	if (!failed)
		CommitTransactionCommand();
	proc_exit(0);
}

PG_FUNCTION_INFO_V1(le_focus_worker_lines_fn);

/* _focus_worker_lines(): the lines of this session's last staged load that a background worker typed. */
Datum
le_focus_worker_lines_fn(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(le_focus_worker_lines);
}
