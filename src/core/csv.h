/* csv.h: a plain-C RFC 4180 CSV reader over a (pointer, length) buffer (no PostgreSQL headers). */
#ifndef LLM_ECON_CSV_H
#define LLM_ECON_CSV_H

#include <stddef.h>

/*
 * Memory comes from the caller: alloc(ctx, NULL, n) allocates, alloc(ctx, p, n)
 * resizes, alloc(ctx, p, 0) frees.  It may return NULL on failure (or not
 * return at all, as palloc does); the reader then stops with "out of memory".
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
	char		err[96];		/* short reason, e.g. "unclosed quote" */
} le_csv;

extern void le_csv_init(le_csv *r, const char *buf, size_t len, le_alloc_fn alloc, void *ctx);
extern le_csv_status le_csv_next(le_csv *r);
extern void le_csv_free(le_csv *r);

#endif							/* LLM_ECON_CSV_H */
