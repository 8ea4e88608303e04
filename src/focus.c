/* focus.c: CSV text as rows of jsonb keyed by header name (for FOCUS billing exports), with the core's RFC 4180 reader. */
#include "llm_econ.h"

#include "core/csv.h"
#include "core/guard.h"
#include "funcapi.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/tuplestore.h"

/* Start reading csv with the core's reader (palloc'd memory). */
static void
open_csv(le_csv *r, text *csv)
{
	le_csv_init(r, VARDATA_ANY(csv), VARSIZE_ANY_EXHDR(csv), le_palloc, NULL);
}

/* 22023 for a reader error, naming the line. */
static void
csv_error(const le_csv *r, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s line %ld: %s", what, r->err_line, r->err)));
}

/*
 * Read the header record: its names, checked by the core (named, at most
 * LE_NAME_MAX bytes each, at most LE_CSV_MAX_COLUMNS, unique ignoring case;
 * O(n log n), so a crafted header cannot stall the backend).
 */
static int
read_header(le_csv *r, const char *what, char ***names)
{
	le_csv_status st = le_csv_next(r);
	char	  **n;
	int			col,
				other;

	if (st == LE_CSV_ERROR)
		csv_error(r, what);
	if (st == LE_CSV_EOF)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is empty", what),
				 errdetail("A header line with the column names is required.")));
	switch (le_csv_check_header(r, 1, &col, &other))
	{
		case LE_CSV_HDR_OK:
			break;
		case LE_CSV_HDR_TOO_MANY:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s line %ld: %d columns, more than the %d allowed",
							what, r->rec_line, r->nfields, LE_CSV_MAX_COLUMNS)));
			break;
		case LE_CSV_HDR_EMPTY_NAME:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s line %ld: column %d has no name", what, r->rec_line, col + 1)));
			break;
		case LE_CSV_HDR_LONG_NAME:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s line %ld: the name of column %d is %zu bytes long, more than the %d allowed",
							what, r->rec_line, col + 1, r->fields[col].len, LE_NAME_MAX)));
			break;
		case LE_CSV_HDR_DUPLICATE:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s line %ld: column \"%s\" appears twice", what, r->rec_line,
							pnstrdup(r->fields[col].ptr, r->fields[col].len)),
					 errdetail("Columns %d and %d have the same name (case is ignored).", other + 1, col + 1)));
			break;
		case LE_CSV_HDR_OOM:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory reading the header of %s", what)));
			break;
	}
	n = palloc(sizeof(char *) * r->nfields);
	for (int i = 0; i < r->nfields; i++)
		n[i] = pnstrdup(r->fields[i].ptr, r->fields[i].len);
	*names = n;
	return r->nfields;
}

PG_FUNCTION_INFO_V1(le_csv_header_fn);

/* _csv_header(csv, what): the column names of the first line */
Datum
le_csv_header_fn(PG_FUNCTION_ARGS)
{
	text	   *csv = PG_GETARG_TEXT_PP(0);
	char	   *what = text_to_cstring(PG_GETARG_TEXT_PP(1));
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
	char	   *what = text_to_cstring(PG_GETARG_TEXT_PP(1));
	le_csv		r;
	char	  **names;
	int			ncols;
	le_csv_status st;

	size_t		in_len = VARSIZE_ANY_EXHDR(csv);
	size_t		out_len = 0;
	size_t		out_max;
	size_t	   *name_len;
	size_t		names_len = 0;

	InitMaterializedSRF(fcinfo, 0);
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
		JsonbParseState *state = NULL;
		JsonbValue *res;
		Datum		values[2];
		bool		nulls[2] = {false, false};

		if (r.nfields != ncols)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s line %ld: %d fields, the header has %d", what, r.rec_line, r.nfields, ncols)));
		for (int i = 0; i < ncols; i++)
			out_len += name_len[i] + r.fields[i].len + 8;	/* key, value, jsonb entry overhead */
		if (out_len > out_max)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s line %ld: the rows would take more than %zu MB, %d times the text plus 64 MB",
							what, r.rec_line, out_max >> 20, LE_CSV_MAX_EXPANSION),
					 errdetail("Each row repeats the %d header names, %zu bytes of names.", ncols, names_len)));
		pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
		for (int i = 0; i < ncols; i++)
		{
			JsonbValue	k,
						v;
			const le_csv_field *f = &r.fields[i];

			k.type = jbvString;
			k.val.string.val = names[i];
			k.val.string.len = strlen(names[i]);
			pushJsonbValue(&state, WJB_KEY, &k);
			if (f->len == 0 || (f->len == 4 && memcmp(f->ptr, "NULL", 4) == 0))
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
		values[0] = Int32GetDatum((int32) r.rec_line);
		values[1] = JsonbPGetDatum(JsonbValueToJsonb(res));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (st == LE_CSV_ERROR)
		csv_error(&r, what);
	le_csv_free(&r);
	return (Datum) 0;
}
