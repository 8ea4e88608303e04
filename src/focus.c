/* focus.c: CSV text as rows of jsonb keyed by header name (for FOCUS billing exports), with the core's RFC 4180 reader. */
#include "llm_econ.h"

#include "core/csv.h"
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

/* Read the header record: its names, checked non-empty and unique (ignoring case). */
static int
read_header(le_csv *r, const char *what, char ***names)
{
	le_csv_status st = le_csv_next(r);
	char	  **n;

	if (st == LE_CSV_ERROR)
		csv_error(r, what);
	if (st == LE_CSV_EOF)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is empty", what),
				 errdetail("A header line with the column names is required.")));
	n = palloc(sizeof(char *) * r->nfields);
	for (int i = 0; i < r->nfields; i++)
	{
		n[i] = pnstrdup(r->fields[i].ptr, r->fields[i].len);
		if (n[i][0] == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s line %ld: column %d has no name", what, r->rec_line, i + 1)));
		for (int j = 0; j < i; j++)
			if (pg_strcasecmp(n[i], n[j]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("%s line %ld: column \"%s\" appears twice", what, r->rec_line, n[i])));
	}
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

	InitMaterializedSRF(fcinfo, 0);
	open_csv(&r, csv);
	ncols = read_header(&r, what, &names);
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
