/* csv.c: RFC 4180 CSV records from a (pointer, length) buffer: quotes, doubled quotes, embedded newlines, CRLF/LF, BOM. */
#include "csv.h"

#include <stdio.h>
#include <string.h>

/*
 * Rules, RFC 4180 plus what real files need:
 * - a record ends at CRLF, LF, a lone CR, or the end of the input (a final
 *   line without a line end is a record);
 * - empty lines are skipped (blank trailing lines, a blank line between
 *   records), so they never count as one-field records;
 * - a field starting with '"' is quoted: it ends at the next lone '"', may
 *   contain commas, line ends and doubled quotes ("" -> "), and must be
 *   followed by a comma, a line end or the end of the input (anything else
 *   is an error, not glued on as some lenient readers do);
 * - a '"' inside an unquoted field is kept literally;
 * - a UTF-8 byte-order mark at the start is skipped.
 * Lines are counted as physical lines (CRLF counts once), also inside quoted
 * fields, so error lines match what an editor shows.
 * Every read is bounded by end: any input (not NUL-terminated, with NUL bytes)
 * is safe.
 */

/* Set up a reader over buf[0..len). */
void
le_csv_init(le_csv *r, const char *buf, size_t len, le_alloc_fn alloc, void *ctx)
{
	memset(r, 0, sizeof(*r));
	if (buf == NULL)
		len = 0;
	r->buf = buf;
	r->end = buf + len;
	if (len >= 3 && (unsigned char) buf[0] == 0xEF && (unsigned char) buf[1] == 0xBB &&
		(unsigned char) buf[2] == 0xBF)
		r->buf += 3;
	r->pos = r->buf;
	r->line = 1;
	r->input_len = len;
	r->alloc = alloc;
	r->alloc_ctx = ctx;
}

/* Release what the reader allocated. */
void
le_csv_free(le_csv *r)
{
	if (r->fields)
		r->alloc(r->alloc_ctx, r->fields, 0);
	if (r->scratch)
		r->alloc(r->alloc_ctx, r->scratch, 0);
	r->fields = NULL;
	r->scratch = NULL;
	r->fcap = r->nfields = 0;
	r->scratch_cap = r->scratch_used = 0;
}

/* Record an error at the current record's first line. */
static le_csv_status
fail(le_csv *r, const char *reason)
{
	r->err_line = r->rec_line;
	snprintf(r->err, sizeof(r->err), "%s", reason);
	return LE_CSV_ERROR;
}

/* Append a field to the current record, growing the array when full. */
static int
push_field(le_csv *r, const char *ptr, size_t len)
{
	if (r->nfields == r->fcap)
	{
		int			ncap = r->fcap ? r->fcap * 2 : 16;
		le_csv_field *f;

		if (ncap <= r->fcap)
			return 0;			/* int overflow: absurd field count */
		f = r->alloc(r->alloc_ctx, r->fields, sizeof(le_csv_field) * (size_t) ncap);
		if (f == NULL)
			return 0;
		r->fields = f;
		r->fcap = ncap;
	}
	r->fields[r->nfields].ptr = ptr;
	r->fields[r->nfields].len = len;
	r->nfields++;
	return 1;
}

/* Append bytes to the unquoting buffer (allocated once, as large as the input). */
static int
scratch_put(le_csv *r, const char *src, size_t n)
{
	if (r->scratch == NULL)
	{
		r->scratch = r->alloc(r->alloc_ctx, NULL, r->input_len + 1);
		if (r->scratch == NULL)
			return 0;
		r->scratch_cap = r->input_len + 1;
	}
	/* unquoted text is never longer than the quoted input it came from */
	if (n > r->scratch_cap - r->scratch_used)
		return 0;
	memcpy(r->scratch + r->scratch_used, src, n);
	r->scratch_used += n;
	return 1;
}

/* Consume one line end at *p (CRLF, LF or CR) and count the line. */
static const char *
skip_line_end(le_csv *r, const char *p)
{
	if (*p == '\r' && p + 1 < r->end && p[1] == '\n')
		p++;
	r->line++;
	return p + 1;
}

/*
 * Read a quoted field starting at p (on the opening quote).  On success sets
 * the field (ptr, len) and returns the position after the closing quote;
 * NULL on error (r->err set).
 */
static const char *
read_quoted(le_csv *r, const char *p, const char **ptr, size_t *len)
{
	const char *end = r->end;
	const char *seg;			/* start of the not yet copied run */
	size_t		copied_at = 0;	/* scratch offset of this field, when copying */
	int			copying = 0;
	long		qline = r->line;

	p++;						/* opening quote */
	seg = p;
	for (;;)
	{
		/* scan to the next quote, counting line ends */
		while (p < end && *p != '"')
		{
			if (*p == '\n')
				r->line++;
			else if (*p == '\r' && !(p + 1 < end && p[1] == '\n'))
				r->line++;
			p++;
		}
		if (p >= end)
		{
			char		msg[64];

			if (qline != r->rec_line)
				snprintf(msg, sizeof(msg), "unclosed quote (opened on line %ld)", qline);
			else
				snprintf(msg, sizeof(msg), "unclosed quote");
			fail(r, msg);
			return NULL;
		}
		if (p + 1 < end && p[1] == '"')
		{
			/* doubled quote: switch to copying into scratch */
			if (!copying)
			{
				copying = 1;
				copied_at = r->scratch_used;
			}
			if (!scratch_put(r, seg, (size_t) (p - seg)) || !scratch_put(r, "\"", 1))
			{
				fail(r, "out of memory");
				return NULL;
			}
			p += 2;
			seg = p;
			continue;
		}
		/* closing quote */
		if (copying)
		{
			if (!scratch_put(r, seg, (size_t) (p - seg)))
			{
				fail(r, "out of memory");
				return NULL;
			}
			*ptr = r->scratch + copied_at;
			*len = r->scratch_used - copied_at;
		}
		else
		{
			*ptr = seg;
			*len = (size_t) (p - seg);
		}
		p++;
		if (p < end && *p != ',' && *p != '\n' && *p != '\r')
		{
			char		msg[80];

			/* usually a quote left open earlier, closed by the next field's opening quote */
			if (r->line != r->rec_line)
				snprintf(msg, sizeof(msg), "text after a closing quote on line %ld (a quote left open?)", r->line);
			else
				snprintf(msg, sizeof(msg), "text after a closing quote");
			fail(r, msg);
			return NULL;
		}
		return p;
	}
}

/*
 * Read the next record into r->fields / r->nfields (r->rec_line = its first
 * line).  LE_CSV_EOF at the end of the input, LE_CSV_ERROR with r->err and
 * r->err_line on a malformed record.
 */
le_csv_status
le_csv_next(le_csv *r)
{
	const char *p = r->pos;
	const char *end = r->end;

	r->nfields = 0;
	if (p == NULL)
		return LE_CSV_EOF;
	/* skip empty lines */
	while (p < end && (*p == '\n' || *p == '\r'))
		p = skip_line_end(r, p);
	if (p >= end)
	{
		r->pos = end;
		return LE_CSV_EOF;
	}
	r->rec_line = r->line;

	for (;;)
	{
		const char *fptr;
		size_t		flen;

		if (p < end && *p == '"')
		{
			p = read_quoted(r, p, &fptr, &flen);
			if (p == NULL)
			{
				r->pos = end;	/* a broken record ends the input */
				return LE_CSV_ERROR;
			}
		}
		else
		{
			fptr = p;
			while (p < end && *p != ',' && *p != '\n' && *p != '\r')
				p++;
			flen = (size_t) (p - fptr);
		}
		if (!push_field(r, fptr, flen))
		{
			r->pos = end;
			return fail(r, "out of memory");
		}
		if (p >= end)
		{
			r->pos = end;
			return LE_CSV_RECORD;
		}
		if (*p == ',')
		{
			p++;
			continue;
		}
		/* line end */
		r->pos = skip_line_end(r, p);
		return LE_CSV_RECORD;
	}
}
