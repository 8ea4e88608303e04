/* csv.c: RFC 4180 CSV records from a (pointer, length) buffer: quotes, doubled quotes, embedded newlines, CRLF/LF, BOM. */
#include "ascii.h"
#include "csv.h"
#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
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
	r->max_fields = LE_CSV_MAX_COLUMNS;
	r->max_record = LE_CSV_MAX_RECORD;
}

/* Data records may have at most the header's n fields (0 or less: keep the current bound). */
void
le_csv_set_width(le_csv *r, int n)
{
	if (n > 0 && n <= LE_CSV_MAX_COLUMNS)
	{
		r->max_fields = n;
		r->width = n;
	}
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
	r->err_oom = 0;
	r->err_limit = 0;
	r->err_quote = 0;
	r->err_other_line = 0;
	snprintf(r->err, sizeof(r->err), "%s", reason);
	return LE_CSV_ERROR;
}

/* A quote error (kind 1: unclosed, 2: text after the closing quote); other: the quote's line. */
static void
fail_quote(le_csv *r, const char *reason, int kind, long other)
{
	fail(r, reason);
	r->err_quote = kind;
	r->err_other_line = other != r->rec_line ? other : 0;
}

/* A record beyond a bound: a size limit (54000), named with the limit. */
static le_csv_status
fail_limit(le_csv *r, const char *reason)
{
	fail(r, reason);
	r->err_limit = 1;
	return LE_CSV_ERROR;
}

/* One field more than max_fields: the header's count (malformed, 22P04) or the column limit (54000). */
static le_csv_status
fail_fields(le_csv *r)
{
	char		msg[96];

	if (r->width > 0)
	{
		snprintf(msg, sizeof(msg), "record has more than %d field%s, but the header has %d",
				 r->width, r->width == 1 ? "" : "s", r->width);
		return fail(r, msg);
	}
	snprintf(msg, sizeof(msg), "record has more than %d fields, the most allowed", r->max_fields);
	return fail_limit(r, msg);
}

/* A record past max_record bytes (54000). */
static le_csv_status
fail_long(le_csv *r)
{
	char		msg[96];

	snprintf(msg, sizeof(msg), "record is longer than %zu bytes, the most allowed", r->max_record);
	return fail_limit(r, msg);
}

/* Count n bytes (or a field's worth) of work; every LE_CSV_CHECK_EVERY, check for interrupts. */
static inline void
tick(le_csv *r, size_t n)
{
	r->scanned += n;
	if (r->scanned >= LE_CSV_CHECK_EVERY)
	{
		r->scanned = 0;
		le_check_interrupts();
	}
}

/* An allocation failed: not the input's fault. */
static le_csv_status
fail_oom(le_csv *r)
{
	fail(r, "out of memory");
	r->err_oom = 1;
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

/* The bytes that end an unquoted field: the separator and line ends. */
static const unsigned char field_end[256] = {[','] = 1, ['\n'] = 1, ['\r'] = 1};

/* Consume one line end at *p (CRLF, LF or CR) and count the line. */
static const char *
skip_line_end(le_csv *r, const char *p)
{
	if (*p == '\r' && p + 1 < r->end && p[1] == '\n')
		p++;
	r->line++;
	return p + 1;
}

/* Count the line ends in [p, q) (a CR counts unless an LF follows it). */
static void
count_lines(le_csv *r, const char *p, const char *q)
{
	const char *end = r->end;

	if (!memchr(p, '\n', (size_t) (q - p)) && !memchr(p, '\r', (size_t) (q - p)))
		return;
	for (; p < q; p++)
	{
		if (*p == '\n')
			r->line++;
		else if (*p == '\r' && !(p + 1 < end && p[1] == '\n'))
			r->line++;
	}
}

/*
 * The next '"' in [p, limit), or limit when there is none; counts the line
 * ends it passes.  Scans in windows of LE_CSV_CHECK_EVERY bytes, checking for
 * interrupts between them.
 */
static const char *
scan_quote(le_csv *r, const char *p, const char *limit)
{
	while (p < limit)
	{
		size_t		n = (size_t) (limit - p);
		const char *q;

		if (n > LE_CSV_CHECK_EVERY)
			n = LE_CSV_CHECK_EVERY;
		q = memchr(p, '"', n);
		count_lines(r, p, q ? q : p + n);
		tick(r, q ? (size_t) (q - p) : n);
		if (q)
			return q;
		p += n;
	}
	return limit;
}

/*
 * Read a quoted field starting at p (on the opening quote), within the
 * record's bound limit.  On success sets the field (ptr, len) and returns the
 * position after the closing quote; NULL on error (r->err set).
 */
static const char *
read_quoted(le_csv *r, const char *p, const char *limit, const char **ptr, size_t *len)
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
		p = p < limit ? scan_quote(r, p, limit) : limit;
		if (p >= limit)
		{
			if (limit < end)
				fail_long(r);	/* the quote may close later, but the record is too long anyway */
			else
				fail_quote(r, "unclosed quote", 1, qline);
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
				fail_oom(r);
				return NULL;
			}
			p += 2;
			seg = p;
			tick(r, 2);
			continue;
		}
		/* closing quote */
		if (copying)
		{
			if (!scratch_put(r, seg, (size_t) (p - seg)))
			{
				fail_oom(r);
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
			/* usually a quote left open earlier, closed by the next field's opening quote */
			fail_quote(r, "text after a closing quote", 2, r->line);
			return NULL;
		}
		return p;
	}
}

/*
 * The end of an unquoted field starting at p: the next separator or line end,
 * or limit.  Scans in windows of LE_CSV_CHECK_EVERY bytes, checking for
 * interrupts between them.
 */
static const char *
scan_unquoted(le_csv *r, const char *p, const char *limit)
{
	while (p < limit)
	{
		const char *stop = (size_t) (limit - p) > LE_CSV_CHECK_EVERY ? p + LE_CSV_CHECK_EVERY : limit;
		const char *from = p;

		while (p < stop && !field_end[(unsigned char) *p])
			p++;
		tick(r, (size_t) (p - from) + 64);	/* a field counts 64 bytes */
		if (p < stop)
			break;
	}
	return p;
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
	const char *limit;			/* the record may not reach this byte (its line end may be on it) */

	r->nfields = 0;
	if (p == NULL)
		return LE_CSV_EOF;
	le_check_interrupts();		/* a caller's loop over records stops on cancel */
	/* skip empty lines */
	while (p < end && (*p == '\n' || *p == '\r'))
		p = skip_line_end(r, p);
	if (p >= end)
	{
		r->pos = end;
		return LE_CSV_EOF;
	}
	r->rec_line = r->line;
	limit = r->max_record > 0 && (size_t) (end - p) > r->max_record ? p + r->max_record : end;

	for (;;)
	{
		const char *fptr;
		size_t		flen;

		if (r->nfields >= r->max_fields)
		{
			r->pos = end;		/* a broken record ends the input */
			return fail_fields(r);
		}
		if (p < end && *p == '"')
		{
			p = read_quoted(r, p, limit, &fptr, &flen);
			if (p == NULL)
			{
				r->pos = end;
				return LE_CSV_ERROR;
			}
		}
		else
		{
			fptr = p;
			p = scan_unquoted(r, p, limit);
			flen = (size_t) (p - fptr);
		}
		/* a byte of the record on or past the bound (a separator too: another field follows) */
		if (p >= limit && p < end && *p != '\n' && *p != '\r')
		{
			r->pos = end;
			return fail_long(r);
		}
		if (!push_field(r, fptr, flen))
		{
			r->pos = end;
			return fail_oom(r);
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

/* A header name for sorting: where it is and which column it names. */
typedef struct hdr_name
{
	const char *ptr;
	size_t		len;
	int			col;
} hdr_name;

/* Compare two names ignoring ASCII case: <0, 0, >0. */
static int
name_cmp(const hdr_name *x, const hdr_name *y)
{
	size_t		n = x->len < y->len ? x->len : y->len;

	for (size_t i = 0; i < n; i++)
	{
		int			cx = le_ascii_lower((unsigned char) x->ptr[i]),
					cy = le_ascii_lower((unsigned char) y->ptr[i]);

		if (cx != cy)
			return cx - cy;
	}
	return x->len == y->len ? 0 : x->len < y->len ? -1 : 1;
}

/* Order names ignoring ASCII case, then by column (so equal names sort by position). */
static int
hdr_cmp(const void *a, const void *b)
{
	const hdr_name *x = a,
			   *y = b;
	int			c = name_cmp(x, y);

	return c != 0 ? c : x->col - y->col;
}

/*
 * Check the current record as a header: at most LE_CSV_MAX_COLUMNS columns,
 * each named, no name longer than LE_NAME_MAX bytes and, when unique is set,
 * no name twice (ignoring ASCII case).  Duplicates are found by sorting, so
 * the check is O(n log n) in the columns (a pairwise check is quadratic, and
 * a crafted header of 200,000 columns ran for a minute); the first problem
 * in column order is reported in *col (0-based), a duplicate's earlier
 * column in *other.
 */
le_csv_header_problem
le_csv_check_header(const le_csv *r, int unique, int *col, int *other)
{
	hdr_name   *names;
	int			bad = -1,
				first = -1;

	*col = *other = -1;
	if (r->nfields > LE_CSV_MAX_COLUMNS)
		return LE_CSV_HDR_TOO_MANY;
	for (int i = 0; i < r->nfields; i++)
	{
		if (r->fields[i].len == 0)
		{
			*col = i;
			return LE_CSV_HDR_EMPTY_NAME;
		}
		if (r->fields[i].len > LE_NAME_MAX)
		{
			*col = i;
			return LE_CSV_HDR_LONG_NAME;
		}
	}
	if (!unique || r->nfields < 2)
		return LE_CSV_HDR_OK;
	names = r->alloc(r->alloc_ctx, NULL, sizeof(hdr_name) * (size_t) r->nfields);
	if (names == NULL)
		return LE_CSV_HDR_OOM;
	for (int i = 0; i < r->nfields; i++)
	{
		names[i].ptr = r->fields[i].ptr;
		names[i].len = r->fields[i].len;
		names[i].col = i;
	}
	qsort(names, (size_t) r->nfields, sizeof(hdr_name), hdr_cmp);
	/* equal names are adjacent, in column order: report the earliest second occurrence */
	for (int i = 0, start = 0; i < r->nfields; i++)
	{
		if (i > 0 && name_cmp(&names[i - 1], &names[i]) != 0)
			start = i;
		else if (i > start && (bad < 0 || names[i].col < bad))
		{
			bad = names[i].col;
			first = names[start].col;
		}
	}
	r->alloc(r->alloc_ctx, names, 0);
	if (bad < 0)
		return LE_CSV_HDR_OK;
	*col = bad;
	*other = first;
	return LE_CSV_HDR_DUPLICATE;
}

/* A sentence naming the other line of a quote error (lines shifted by line_offset), or "". */
void
le_csv_error_detail(const le_csv *r, long line_offset, char *buf, size_t size)
{
	if (size == 0)
		return;
	buf[0] = '\0';
	if (r->err_other_line == 0)
		return;
	if (r->err_quote == 1)
		snprintf(buf, size, "The quote opens on line %ld.", r->err_other_line + line_offset);
	else if (r->err_quote == 2)
		snprintf(buf, size, "The quote closes on line %ld; a quote may have been left open before it.",
				 r->err_other_line + line_offset);
}
