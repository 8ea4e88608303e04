/* csv.h: a plain-C RFC 4180 CSV reader over a (pointer, length) buffer (no PostgreSQL headers). */
#ifndef LLM_ECON_CSV_H
#define LLM_ECON_CSV_H

#include <stddef.h>
#include <string.h>

/*
 * Memory comes from the caller: alloc(ctx, NULL, n) allocates, alloc(ctx, p, n)
 * resizes, alloc(ctx, p, 0) frees.  It may return NULL on failure (or not
 * return at all, as palloc does); the reader then stops with "out of memory"
 * and err_oom set.
 */
typedef void *(*le_alloc_fn) (void *ctx, void *ptr, size_t size);

/* A field of the current record: not NUL-terminated, may contain any byte. */
typedef struct le_csv_field
{
	const char *ptr;
	size_t		len;
} le_csv_field;

typedef enum le_csv_status
{
	LE_CSV_ERROR = -1,
	LE_CSV_EOF = 0,
	LE_CSV_RECORD = 1
} le_csv_status;

/*
 * Bounds.  A record may have at most max_fields fields (LE_CSV_MAX_COLUMNS,
 * or the header's count after le_csv_set_width) and span at most max_record
 * bytes (LE_CSV_MAX_RECORD); the reader stops at the first field or byte past
 * either, so neither its field array nor its time grows with a bad record.
 * While reading it calls le_check_interrupts() (guard.h) once per record and,
 * inside a record, every LE_CSV_CHECK_EVERY bytes read (a field counts 64
 * bytes, so also every 1,024 empty fields).
 *
 * Reader state.  Field pointers point into the input, or into the reader's
 * unquoting buffer for fields with doubled quotes; both stay valid until
 * le_csv_free, so a caller may keep fields of earlier records.
 */
typedef struct le_csv
{
	const char *buf;			/* input (after a UTF-8 BOM, if any) */
	const char *end;
	const char *pos;			/* next byte to read */
	long		line;			/* physical line (1-based) at pos */
	long		rec_line;		/* line where the current record starts */
	le_csv_field *fields;		/* the current record's fields */
	int			nfields;
	int			fcap;
	char	   *scratch;		/* unquoted copies, allocated once (input length) */
	size_t		scratch_used;
	size_t		scratch_cap;
	size_t		input_len;
	le_alloc_fn alloc;
	void	   *alloc_ctx;
	long		err_line;		/* where the bad record starts */
	int			err_oom;		/* the error is an allocation failure, not the input */
	char		err[96];		/* short reason, lower-case, no line: "unclosed quote" */
	int			err_quote;		/* 1: an unclosed quote, 2: text after a closing quote */
	long		err_other_line;	/* the quote's line when not err_line, else 0 */
	/* bounds (le_csv_init sets the defaults, guard.h; le_csv_set_width narrows max_fields) */
	int			max_fields;		/* fields a record may have: one more is an error as it appears */
	int			width;			/* the header's column count once le_csv_set_width is called, else 0 */
	size_t		max_record;		/* bytes a record may span, its line end not counted */
	int			err_limit;		/* the error is a size limit (SQLSTATE 54000), not malformed input */
	size_t		scanned;		/* bytes and fields read since the last interrupt check */
} le_csv;

/* What is wrong with a header record (le_csv_check_header). */
typedef enum le_csv_header_problem
{
	LE_CSV_HDR_OK = 0,
	LE_CSV_HDR_TOO_MANY,		/* more than LE_CSV_MAX_COLUMNS columns */
	LE_CSV_HDR_EMPTY_NAME,		/* column *col has no name */
	LE_CSV_HDR_LONG_NAME,		/* column *col's name is longer than LE_NAME_MAX bytes */
	LE_CSV_HDR_DUPLICATE,		/* column *col has the name of column *other (ASCII case ignored) */
	LE_CSV_HDR_OOM
} le_csv_header_problem;

/* Whether a field is NULL as a CSV file writes it: empty, or the word NULL. */
static inline int
le_field_is_null(const le_csv_field *f)
{
	return f->len == 0 || (f->len == 4 && memcmp(f->ptr, "NULL", 4) == 0);
}

/*
 * Whether a field of a FOCUS line is NULL: empty, or the word NULL in any
 * ASCII case, bare or in parentheses.  The FOCUS specification's own example
 * files write a null as "(null)" (its correction examples) or "null" (its
 * commitment discount examples) in every column, numbers included.
 */
static inline int
le_focus_field_is_null(const le_csv_field *f)
{
	const char *p = f->ptr;

	if (f->len == 0)
		return 1;
	if (f->len == 6 && p[0] == '(' && p[5] == ')')
		p++;
	else if (f->len != 4)
		return 0;
	return (p[0] | 0x20) == 'n' && (p[1] | 0x20) == 'u' && (p[2] | 0x20) == 'l' && (p[3] | 0x20) == 'l';
}

extern void le_csv_init(le_csv *r, const char *buf, size_t len, le_alloc_fn alloc, void *ctx);
extern le_csv_status le_csv_next(le_csv *r);
extern void le_csv_free(le_csv *r);
/*
 * After the header: data records may have at most its n fields (a record
 * with more is an error at its first extra field, not after the whole record).
 */
extern void le_csv_set_width(le_csv *r, int n);
extern le_csv_header_problem le_csv_check_header(const le_csv *r, int unique, int *col, int *other);
/* A sentence naming the other line of a quote error (lines shifted by line_offset), or "". */
extern void le_csv_error_detail(const le_csv *r, long line_offset, char *buf, size_t size);

#endif							/* LLM_ECON_CSV_H */
