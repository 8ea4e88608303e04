/* csv_fmgr.c: the generic CSV SQL functions (_csv_header, _csv_records) and the CSV helpers the FOCUS typing shares: labels, reader errors, header names, a record as jsonb. */
#include "llm_econ.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "core/csv.h"
#include "core/guard.h"

/* Start reading csv with the core's reader (palloc'd memory). */
void
le_open_csv(le_csv *r, text *csv)
{
	le_csv_init(r, VARDATA_ANY(csv), VARSIZE_ANY_EXHDR(csv), le_palloc, NULL);
}

/*
 * The label a caller gives its text (what, as in "focus_csv line 3"), as the
 * messages show it: at most LE_NAME_MAX bytes, cut at a character, marked
 * "(cut)" (it is in every CONTEXT line, so a 50 MB label made 50 MB of log).
 */
char *
le_what_arg(text *t)
{
	const char *p = VARDATA_ANY(t);
	size_t		n = VARSIZE_ANY_EXHDR(t);

	if (n <= LE_NAME_MAX)
		return text_to_cstring(t);
	return psprintf("%.*s (cut)", (int) le_utf8_clip(p, n, LE_NAME_MAX), p);
}

/* A reader error: 22P04 (54000 past a size limit, 53200 when memory ran out), the line in the CONTEXT. */
void
le_csv_fail(const le_csv *r, const char *what, long line_offset)
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
int
le_read_header(le_csv *r, const char *what, char ***names)
{
	le_csv_status st = le_csv_next(r);

	if (st == LE_CSV_ERROR)
		le_csv_fail(r, what, 0);
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
	char	   *what = le_what_arg(PG_GETARG_TEXT_PP(1));
	le_csv		r;
	char	  **names;
	int			n;
	Datum	   *d;

	le_open_csv(&r, csv);
	n = le_read_header(&r, what, &names);
	d = palloc(sizeof(Datum) * n);
	for (int i = 0; i < n; i++)
		d[i] = CStringGetTextDatum(names[i]);
	le_csv_free(&r);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * The fields of a record as a jsonb object keyed by the header names; order
 * (may be NULL) lists the columns in jsonb's key order, so that the object's
 * keys arrive sorted and jsonb's own sort has nothing to do; mode (may be
 * NULL: keep all, empty and NULL fields as JSON null) leaves out the columns
 * typed columns hold and the empty and NULL fields (a FOCUS line's record).
 */
Datum
le_record_jsonb(const le_csv *r, char **names, int ncols, const int *order, const char *mode)
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

		if (mode && (mode[i] == LE_REC_TYPED || le_focus_field_is_null(f)))
			continue;
		k.type = jbvString;
		k.val.string.val = names[i];
		k.val.string.len = strlen(names[i]);
		pushJsonbValue(&state, WJB_KEY, &k);
		if (le_field_is_null(f))
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
 * The same object as le_record_jsonb with a mode (a FOCUS line's record: no
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
Datum
le_record_jsonb_flat(const le_csv *r, char **names, const int *name_len, int ncols, const int *order,
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

		if (mode[i] == LE_REC_TYPED || le_focus_field_is_null(f))
			continue;
		cols[n++] = i;
		data += name_len[i] + f->len;
	}
	if (data > JENTRY_OFFLENMASK)
		return le_record_jsonb(r, names, ncols, order, mode);	/* which reports it */
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
	char	   *what = le_what_arg(PG_GETARG_TEXT_PP(1));
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
	le_open_csv(&r, csv);
	ncols = le_read_header(&r, what, &names);
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
		values[1] = le_record_jsonb(&r, names, ncols, NULL, NULL);
		MemoryContextSwitchTo(old);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (st == LE_CSV_ERROR)
		le_csv_fail(&r, what, 0);
	le_csv_free(&r);
	MemoryContextDelete(rowcxt);
	return (Datum) 0;
}

