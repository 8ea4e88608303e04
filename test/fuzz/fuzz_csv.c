/* fuzz_csv.c: libFuzzer target over the CSV reader (src/core/csv.h) and SkyPilot catalog reading (src/core/catalog.h), with invariants. */

/*
 * Build (test/fuzz/run.sh does this):
 *   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
 *            -ffp-contract=off -Isrc test/fuzz/fuzz_csv.c src/core/[a-z]*.c -lm
 *
 * The input is the CSV text itself (seeds are plain vms.csv files).  Each input runs:
 * 1. le_csv_* over it, compared record by record with an independent
 *    reference reader written from the rules in csv.c's comment (fields,
 *    record lines, errors); every field pointer must lie inside the input or
 *    inside a block the reader allocated; fields of earlier records must be
 *    unchanged at the end; the records, written back out fully quoted, must
 *    read back the same;
 * 2. le_num_syntax / le_num_value on every field, against strtod;
 *    le_cat_find_column against a naive search; le_gcp_host_gpus,
 *    le_variant_of, le_gcp_attachable on every field;
 * 3. le_catalog_offers for non-GCP and GCP: errors carry a status of a
 *    file's kind (malformed, bad value, too long, out of memory), a message and (for
 *    row errors) a context naming a line that exists; each data row counted at most once
 *    (sum of rows <= data_rows); offers are distinct; their strings lie in
 *    the input or the reader's buffers; no block leaks after le_offers_free;
 * 4. le_catalog_offers again with the k-th allocation failing (k derived
 *    from the input): LE_ERR_NO_MEMORY, "out of memory", and still no leak.
 */
#include "core/catalog.h"
#include "../unit/gcp_hosts.h"
#include "core/csv.h"
#include "core/econ.h"
#include "core/guard.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
fail(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "INVARIANT VIOLATED (fuzz_csv): ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

#define REQUIRE(cond, ...) do { if (!(cond)) fail(__VA_ARGS__); } while (0)

/* ---- a tracking allocator with failure injection ---- */

#define MAX_BLOCKS 1024

typedef struct tracker
{
	void	   *p[MAX_BLOCKS];
	size_t		n[MAX_BLOCKS];
	int			live;
	long		calls;			/* allocations and resizes so far */
	long		fail_at;		/* that call returns NULL (0: never) */
	int			failed;
} tracker;

static int
find_block(tracker *t, void *p)
{
	for (int i = 0; i < t->live; i++)
		if (t->p[i] == p)
			return i;
	return -1;
}

static void *
talloc(void *ctx, void *p, size_t size)
{
	tracker    *t = ctx;
	int			i = -1;
	void	   *q;

	if (p != NULL)
	{
		i = find_block(t, p);
		REQUIRE(i >= 0, "allocator given a pointer it never returned (%p)", p);
	}
	if (size == 0)
	{
		REQUIRE(p != NULL, "alloc(ctx, NULL, 0)");
		free(p);
		t->p[i] = t->p[t->live - 1];
		t->n[i] = t->n[t->live - 1];
		t->live--;
		return NULL;
	}
	REQUIRE(size <= ((size_t) 1 << 34), "allocation of %zu bytes", size);
	if (++t->calls == t->fail_at)
	{
		t->failed = 1;
		return NULL;			/* realloc semantics: p stays valid */
	}
	q = p ? realloc(p, size) : malloc(size);
	if (q == NULL)
		abort();
	if (p)
	{
		t->p[i] = q;
		t->n[i] = size;
	}
	else
	{
		REQUIRE(t->live < MAX_BLOCKS, "more than %d live blocks", MAX_BLOCKS);
		t->p[t->live] = q;
		t->n[t->live] = size;
		t->live++;
	}
	return q;
}

/* ptr[0..len) lies inside the input or inside a live block (the reader's scratch). */
static int
inside(const tracker *t, const char *in, size_t inlen, const char *ptr, size_t len)
{
	if (ptr >= in && len <= inlen && ptr <= in + inlen - len)
		return 1;
	for (int i = 0; i < t->live; i++)
	{
		const char *b = t->p[i];

		if (ptr >= b && len <= t->n[i] && ptr <= b + t->n[i] - len)
			return 1;
	}
	return 0;
}

/* Read every byte, so that ASan checks the whole range. */
static unsigned
touch(const char *p, size_t n)
{
	volatile unsigned h = 0;

	for (size_t i = 0; i < n; i++)
		h = h * 31 + (unsigned char) p[i];
	return h;
}

/* ---- reference CSV reader (independent of csv.c) ---- */

typedef struct rfield
{
	char	   *s;
	size_t		n;
} rfield;

typedef struct rrec
{
	rfield	   *f;
	int			nf;
	long		line;
} rrec;

typedef struct rdoc
{
	rrec	   *r;
	int			nr;
	int			error;			/* the last record is broken */
	long		err_line;
} rdoc;

/* Physical line ends in b[0..n): LF, CRLF (once), lone CR. */
static long
line_ends(const char *b, size_t n)
{
	long		k = 0;

	for (size_t i = 0; i < n; i++)
		if (b[i] == '\n' || (b[i] == '\r' && !(i + 1 < n && b[i + 1] == '\n')))
			k++;
	return k;
}

static void
rpush(rrec *r, const char *s, size_t n)
{
	r->f = realloc(r->f, sizeof(rfield) * (size_t) (r->nf + 1));
	if (r->f == NULL)
		abort();
	r->f[r->nf].s = malloc(n ? n : 1);
	if (r->f[r->nf].s == NULL)
		abort();
	memcpy(r->f[r->nf].s, s, n);
	r->f[r->nf].n = n;
	r->nf++;
}

static void
reference_read(const char *in, size_t len, rdoc *d)
{
	const char *b = in,
			   *e = in + len;
	size_t		i;

	memset(d, 0, sizeof(*d));
	if (len >= 3 && (unsigned char) in[0] == 0xEF && (unsigned char) in[1] == 0xBB && (unsigned char) in[2] == 0xBF)
		b += 3;
	i = 0;
	for (;;)
	{
		size_t		n = (size_t) (e - b);
		rrec	   *r;

		while (i < n && (b[i] == '\n' || b[i] == '\r'))
			i++;
		if (i >= n)
			return;
		d->r = realloc(d->r, sizeof(rrec) * (size_t) (d->nr + 1));
		if (d->r == NULL)
			abort();
		r = &d->r[d->nr++];
		memset(r, 0, sizeof(*r));
		r->line = 1 + line_ends(b, i);
		for (;;)
		{
			if (i < n && b[i] == '"')
			{
				char	   *buf = malloc(n + 1);
				size_t		k = 0;
				int			closed = 0;

				if (buf == NULL)
					abort();
				for (i++; i < n; i++)
				{
					if (b[i] != '"')
						buf[k++] = b[i];
					else if (i + 1 < n && b[i + 1] == '"')
						buf[k++] = '"', i++;
					else
					{
						closed = 1;
						i++;
						break;
					}
				}
				if (!closed || (i < n && b[i] != ',' && b[i] != '\n' && b[i] != '\r'))
				{
					free(buf);
					d->error = 1;
					d->err_line = r->line;
					return;
				}
				rpush(r, buf, k);
				free(buf);
			}
			else
			{
				size_t		s = i;

				while (i < n && b[i] != ',' && b[i] != '\n' && b[i] != '\r')
					i++;
				rpush(r, b + s, i - s);
			}
			if (i >= n)
				break;
			if (b[i] == ',')
			{
				i++;
				if (r->nf >= LE_CSV_MAX_COLUMNS)
				{
					/* the reader's bound: one field past LE_CSV_MAX_COLUMNS is an error at the record */
					d->error = 1;
					d->err_line = r->line;
					return;
				}
				continue;
			}
			/* a line end: CRLF, LF or CR */
			if (b[i] == '\r' && i + 1 < n && b[i + 1] == '\n')
				i++;
			i++;
			break;
		}
	}
}

static void
rdoc_free(rdoc *d)
{
	for (int i = 0; i < d->nr; i++)
	{
		for (int j = 0; j < d->r[i].nf; j++)
			free(d->r[i].f[j].s);
		free(d->r[i].f);
	}
	free(d->r);
	memset(d, 0, sizeof(*d));
}

/* ---- le_csv against the reference ---- */

/* Read buf with le_csv, compare with the reference; returns 1 if it read to EOF without error. */
static int
check_csv(const char *buf, size_t len, const rdoc *ref, int with_kept_fields)
{
	tracker    *t = calloc(1, sizeof(tracker));
	le_csv		r;
	le_csv_status st;
	int			nrec = 0,
				ok;
	long		prev_line = 0;
	const le_csv_field **kept = NULL;
	int		   *kept_n = NULL;

	if (t == NULL)
		abort();
	le_csv_init(&r, buf, len, talloc, t);
	while ((st = le_csv_next(&r)) == LE_CSV_RECORD)
	{
		const rrec *rr;

		REQUIRE(nrec <= (int) len, "more records than input bytes");
		REQUIRE(nrec < ref->nr, "le_csv read record %d, the reference has %d%s", nrec + 1, ref->nr,
				ref->error ? " (the last broken)" : "");
		rr = &ref->r[nrec];
		REQUIRE(!(ref->error && nrec == ref->nr - 1), "le_csv read record %d (line %ld), which the reference finds broken",
				nrec + 1, r.rec_line);
		REQUIRE(r.rec_line == rr->line, "record %d: le_csv says line %ld, the reference %ld", nrec + 1, r.rec_line, rr->line);
		REQUIRE(r.rec_line > prev_line, "record lines not increasing: %ld after %ld", r.rec_line, prev_line);
		prev_line = r.rec_line;
		REQUIRE(r.nfields == rr->nf, "record %d (line %ld): %d fields, the reference %d", nrec + 1, r.rec_line, r.nfields, rr->nf);
		for (int i = 0; i < r.nfields; i++)
		{
			const le_csv_field *f = &r.fields[i];

			REQUIRE(f->ptr != NULL, "record %d field %d: NULL pointer", nrec + 1, i + 1);
			REQUIRE(inside(t, buf, len, f->ptr, f->len),
					"record %d field %d: [%p, +%zu) is neither in the input nor in the reader's buffers", nrec + 1, i + 1,
					(const void *) f->ptr, f->len);
			touch(f->ptr, f->len);
			REQUIRE(f->len == rr->f[i].n && memcmp(f->ptr, rr->f[i].s, f->len) == 0,
					"record %d (line %ld) field %d: \"%.*s\", the reference \"%.*s\"", nrec + 1, r.rec_line, i + 1,
					(int) (f->len > 60 ? 60 : f->len), f->ptr, (int) (rr->f[i].n > 60 ? 60 : rr->f[i].n), rr->f[i].s);
		}
		if (with_kept_fields)
		{
			/* keep this record's fields: they must stay valid until le_csv_free */
			le_csv_field *copy = malloc(sizeof(le_csv_field) * (size_t) (r.nfields ? r.nfields : 1));

			kept = realloc(kept, sizeof(*kept) * (size_t) (nrec + 1));
			kept_n = realloc(kept_n, sizeof(*kept_n) * (size_t) (nrec + 1));
			if (copy == NULL || kept == NULL || kept_n == NULL)
				abort();
			memcpy(copy, r.fields, sizeof(le_csv_field) * (size_t) r.nfields);
			kept[nrec] = copy;
			kept_n[nrec] = r.nfields;
		}
		nrec++;
	}
	if (st == LE_CSV_ERROR)
	{
		REQUIRE(memchr(r.err, '\0', sizeof(r.err)) && r.err[0] != '\0', "csv error without a reason");
		REQUIRE(r.err_line >= 1 && r.err_line > prev_line, "csv error at line %ld after a record at line %ld", r.err_line, prev_line);
		REQUIRE(ref->error && nrec == ref->nr - 1, "le_csv: error \"%s\" at line %ld after %d records; the reference reads %d records%s",
				r.err, r.err_line, nrec, ref->nr, ref->error ? " (the last broken)" : " without error");
		REQUIRE(r.err_line == ref->err_line, "le_csv: error at line %ld, the reference at line %ld", r.err_line, ref->err_line);
	}
	else
	{
		REQUIRE(st == LE_CSV_EOF, "le_csv_next returned %d", (int) st);
		REQUIRE(!ref->error && nrec == ref->nr, "le_csv: EOF after %d records; the reference reads %d%s", nrec, ref->nr,
				ref->error ? " and then an error" : "");
	}
	ok = st == LE_CSV_EOF;
	/* after the end (or an error), the reader stays at EOF */
	REQUIRE(le_csv_next(&r) == LE_CSV_EOF && le_csv_next(&r) == LE_CSV_EOF, "le_csv_next after the end is not EOF");

	for (int k = 0; k < nrec && kept; k++)
	{
		const rrec *rr = &ref->r[k];

		for (int i = 0; i < kept_n[k]; i++)
			REQUIRE(kept[k][i].len == rr->f[i].n && memcmp(kept[k][i].ptr, rr->f[i].s, rr->f[i].n) == 0,
					"record %d field %d changed after later records were read", k + 1, i + 1);
		free((void *) kept[k]);
	}
	free(kept);
	free(kept_n);
	le_csv_free(&r);
	REQUIRE(t->live == 0, "le_csv_free left %d blocks", t->live);
	free(t);
	return ok;
}

/* The records written back out, every field quoted, LF line ends. */
static char *
serialize(const rdoc *d, size_t *outlen)
{
	size_t		cap = 16,
				n = 0;
	char	   *o;

	for (int i = 0; i < d->nr; i++)
		for (int j = 0; j < d->r[i].nf; j++)
			cap += 2 * d->r[i].f[j].n + 4;
	o = malloc(cap);
	if (o == NULL)
		abort();
	for (int i = 0; i < d->nr; i++)
	{
		for (int j = 0; j < d->r[i].nf; j++)
		{
			if (j)
				o[n++] = ',';
			o[n++] = '"';
			for (size_t k = 0; k < d->r[i].f[j].n; k++)
			{
				if (d->r[i].f[j].s[k] == '"')
					o[n++] = '"';
				o[n++] = d->r[i].f[j].s[k];
			}
			o[n++] = '"';
		}
		o[n++] = '\n';
	}
	*outlen = n;
	return o;
}

/* ---- numbers and names ---- */

static void
check_number(const char *s, size_t n)
{
	le_str		t;
	int			neg = -1,
				zero = -1;
	le_num_status st = le_num_syntax(s, n, &t, &neg, &zero);

	REQUIRE(st >= LE_NUM_OK && st <= LE_NUM_RANGE, "le_num_syntax status %d", (int) st);
	REQUIRE(t.p >= s && t.p + t.n <= s + n, "le_num_syntax trim outside its input");
	if (st == LE_NUM_OK)
	{
		char		c[LE_NUM_MAX_LEN + 1],
				   *end;
		double		want,
					got = -12345;
		le_num_status vs;

		REQUIRE(t.n >= 1 && t.n <= LE_NUM_MAX_LEN, "le_num_syntax OK on %zu characters", t.n);
		memcpy(c, t.p, t.n);
		c[t.n] = '\0';
		want = strtod(c, &end);
		REQUIRE(*end == '\0', "le_num_syntax accepts \"%s\", which strtod does not read whole", c);
		vs = le_num_value(t, &got);
		if (isinf(want))
			REQUIRE(vs == LE_NUM_RANGE, "le_num_value(\"%s\") = %d, strtod says out of range", c, (int) vs);
		else
		{
			REQUIRE(vs == LE_NUM_OK && got == want, "le_num_value(\"%s\") = %.17g (status %d), strtod %.17g", c, got, (int) vs, want);
			REQUIRE(!zero || want == 0, "le_num_syntax says \"%s\" is zero; it is %.17g", c, want);
			REQUIRE(!neg || want <= 0, "le_num_syntax says \"%s\" is negative; it is %.17g", c, want);
			REQUIRE(neg || want >= 0, "le_num_syntax says \"%s\" is not negative; it is %.17g", c, want);
		}
	}
}

static void
check_names(const char *s, size_t n)
{
	const char *accel = NULL,
			   *alt = NULL;
	int			count = -1;
	le_variant	v;

	if (le_gcp_host_gpus(&test_gcp_hosts, s, n, &accel, &alt, &count))
		REQUIRE(accel != NULL && accel[0] != '\0' && count >= 0 && count <= 999999,
				"le_gcp_host_gpus(\"%.*s\"): accel %s count %d", (int) n, s, accel ? accel : "NULL", count);
	v = le_variant_of(s, n);
	REQUIRE(v == LE_VARIANT_NONE || v == LE_VARIANT_PCIE || v == LE_VARIANT_SXM, "variant %d", (int) v);
	REQUIRE((le_variant_label(v) == NULL) == (v == LE_VARIANT_NONE), "variant label");
	(void) le_gcp_attachable(&test_gcp_hosts, s, n);
}

/* Naive le_cat_find_column: blanks trimmed, ASCII case ignored; -2 when twice. */
static int
naive_find(const le_csv_field *h, int n, const char *name)
{
	int			found = -1;
	size_t		nl = strlen(name);

	for (int i = 0; i < n; i++)
	{
		size_t		a = 0,
					b = h[i].len;
		size_t		k;

		while (a < b && (h[i].ptr[a] == ' ' || h[i].ptr[a] == '\t'))
			a++;
		while (b > a && (h[i].ptr[b - 1] == ' ' || h[i].ptr[b - 1] == '\t'))
			b--;
		if (b - a != nl)
			continue;
		for (k = 0; k < nl; k++)
		{
			int			x = (unsigned char) h[i].ptr[a + k],
						y = (unsigned char) name[k];

			if (x >= 'A' && x <= 'Z')
				x += 32;
			if (y >= 'A' && y <= 'Z')
				y += 32;
			if (x != y)
				break;
		}
		if (k == nl)
		{
			if (found >= 0)
				return -2;
			found = i;
		}
	}
	return found;
}

static void
check_fields_as_values(const char *buf, size_t len)
{
	tracker    *t = calloc(1, sizeof(tracker));
	le_csv		r;
	int			nrec = 0,
				budget = 4096;

	if (t == NULL)
		abort();
	le_csv_init(&r, buf, len, talloc, t);
	while (le_csv_next(&r) == LE_CSV_RECORD && budget > 0)
	{
		if (nrec++ == 0)
			for (int c = 0; c < LE_COL__COUNT; c++)
			{
				int			got = le_cat_find_column(r.fields, r.nfields, le_cat_col_name((le_cat_col) c)),
							want = naive_find(r.fields, r.nfields, le_cat_col_name((le_cat_col) c));

				REQUIRE(got == want, "le_cat_find_column(%s) = %d, expected %d", le_cat_col_name((le_cat_col) c), got, want);
			}
		for (int i = 0; i < r.nfields && budget > 0; i++, budget--)
		{
			check_number(r.fields[i].ptr, r.fields[i].len);
			check_names(r.fields[i].ptr, r.fields[i].len);
		}
	}
	le_csv_free(&r);
	free(t);
}

/* ---- catalog ---- */

static int
str_eq(le_str a, le_str b, int ci)
{
	if (a.p == NULL || b.p == NULL)
		return a.p == b.p;
	if (a.n != b.n)
		return 0;
	for (size_t i = 0; i < a.n; i++)
	{
		int			x = (unsigned char) a.p[i],
					y = (unsigned char) b.p[i];

		if (ci && x >= 'A' && x <= 'Z')
			x += 32;
		if (ci && y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return 0;
	}
	return 1;
}

/* Static GPU names a GCP machine offer may carry when no accelerator row paired. */
static int
family_name(le_str s)
{
	static const char *const names[] = {"A100", "A100-80GB", "H100", "H100-MEGA", "H200", "B200", "L4"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (s.p == names[i] && s.n == strlen(names[i]))
			return 1;
	/* the pointer may be a different copy of the same literal */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (s.n == strlen(names[i]) && memcmp(s.p, names[i], s.n) == 0)
			return 2;
	return 0;
}

static void
check_str(const tracker *t, const char *buf, size_t len, le_str s, const char *what, int i, int may_be_family)
{
	if (s.p == NULL)
	{
		REQUIRE(s.n == 0, "offer %d: %s is NULL with length %zu", i, what, s.n);
		return;
	}
	touch(s.p, s.n);
	REQUIRE(inside(t, buf, len, s.p, s.n) || (may_be_family && family_name(s)),
			"offer %d: %s [%p, +%zu) points outside the input and the reader's buffers", i, what, (const void *) s.p, s.n);
}

/* Lines in the input: the largest line a message may name. */
static long
max_line(const char *buf, size_t len)
{
	return 1 + line_ends(buf, len);
}

/* The error is the catalog's or the CSV reader's "out of memory" (not a field that says so). */
static int
is_oom(const le_error *e)
{
	return e->status == LE_ERR_NO_MEMORY && strcmp(e->message, "out of memory") == 0;
}

static long
check_catalog(const char *buf, size_t len, int gcp, long fail_at, long data_rows_want)
{
	tracker    *t = calloc(1, sizeof(tracker));
	le_offers	o;
	le_error	e;
	le_status	st;
	long		calls;

	if (t == NULL)
		abort();
	t->fail_at = fail_at;
	memset(&e, 0, sizeof(e));
	e.status = (le_status) 77;
	st = le_catalog_offers(buf, len, gcp ? &test_gcp_hosts : NULL, talloc, t, &o, &e);
	REQUIRE(st == LE_OK || st == LE_ERR_MALFORMED || st == LE_ERR_VALUE || st == LE_ERR_TOO_LONG || st == LE_ERR_NO_MEMORY,
			"le_catalog_offers status %d", (int) st);
	if (st != LE_OK)
	{
		long		line = 0;

		REQUIRE(e.status == st && memchr(e.message, '\0', sizeof(e.message)) && e.message[0] != '\0',
				"catalog error without a message");
		REQUIRE(memchr(e.context, '\0', sizeof(e.context)) != NULL, "catalog error context not terminated");
		if (sscanf(e.context, "catalog_csv line %ld", &line) == 1)
			REQUIRE(line >= 1 && line <= max_line(buf, len), "catalog error names line %ld of %ld: %s (%s)", line, max_line(buf, len),
					e.message, e.context);
		else
			REQUIRE(e.context[0] == '\0' &&
					(strcmp(e.message, "catalog_csv is empty") == 0 ||
					 strncmp(e.message, "catalog_csv has no ", 19) == 0 ||
					 (t->failed && is_oom(&e))),
					"catalog error without a line: %s (%s)", e.message, e.context);
		if (!t->failed)
			REQUIRE(!is_oom(&e), "out of memory without a failed allocation: %s", e.message);
		else
			REQUIRE(is_oom(&e), "an allocation failed but the error is: %s", e.message);
	}
	else
	{
		long		rows = 0;

		REQUIRE(!t->failed, "an allocation failed but le_catalog_offers returned OK");
		REQUIRE(o.n >= 0 && (o.n == 0 || o.offer != NULL), "offers: n %d", o.n);
		REQUIRE(data_rows_want < 0 || o.data_rows == data_rows_want, "data_rows %ld, the reference reads %ld", o.data_rows, data_rows_want);
		for (int i = 0; i < o.n; i++)
		{
			const le_offer *f = &o.offer[i];

			REQUIRE(f->kind == LE_OFFER_INSTANCE || (gcp && (f->kind == LE_OFFER_GCP_HOST || f->kind == LE_OFFER_GCP_ACCEL)),
					"offer %d: kind %d (gcp %d)", i, (int) f->kind, gcp);
			REQUIRE(f->pricing == LE_PR_ON_DEMAND || f->pricing == LE_PR_SPOT, "offer %d: pricing %d", i, f->pricing);
			REQUIRE((f->gpus >= 0 || (f->gpus <= -2 && f->gpus >= -64)) && f->rows >= 0, "offer %d: gpus %d rows %d", i, (int) f->gpus, (int) f->rows);
			/* since 0.5.0 an instance offer may be provider-wide (no region); GCP's rows pair by zone */
			REQUIRE(f->region.p != NULL || f->kind == LE_OFFER_INSTANCE, "offer %d (kind %d) without a region", i, (int) f->kind);
			REQUIRE(f->accel.p != NULL, "offer %d without an accelerator", i);
			/* (outside GCP a row with an accelerator but no instance type is an offer without one) */
			if (f->kind == LE_OFFER_INSTANCE)
				REQUIRE((f->itype.p || !gcp) && f->priced && (f->gpus >= 1 || f->gpus <= -2), "instance offer %d: itype %p priced %d gpus %d",
						i, (const void *) f->itype.p, f->priced, (int) f->gpus);
			if (f->kind == LE_OFFER_GCP_ACCEL)
				REQUIRE(f->itype.p == NULL, "accelerator-only offer %d with an instance type", i);
			if (!gcp)
				REQUIRE(f->priced && f->price2.p == NULL, "non-GCP offer %d: priced %d price2 %p", i, f->priced, (const void *) f->price2.p);
			if (f->priced)
			{
				le_str		tr;
				int			neg,
							zero;

				REQUIRE(f->price.p != NULL, "priced offer %d without a price", i);
				REQUIRE(le_num_syntax(f->price.p, f->price.n, &tr, &neg, &zero) == LE_NUM_OK && !neg && !zero,
						"offer %d: price \"%.*s\" is not a positive decimal", i, (int) f->price.n, f->price.p);
				REQUIRE(!isnan(f->best) && f->best >= 0, "offer %d: best %g", i, f->best);
			}
			check_str(t, buf, len, f->itype, "instance type", i, 0);
			check_str(t, buf, len, f->accel, "accelerator", i, f->kind == LE_OFFER_GCP_HOST && !f->accel_paired);
			check_str(t, buf, len, f->region, "region", i, 0);
			check_str(t, buf, len, f->price, "price", i, 0);
			check_str(t, buf, len, f->price2, "price2", i, 0);
			/* the variant the instance type names; when it names none, the one a row's GpuInfo names (or none) */
			REQUIRE(f->variant == le_variant_of(f->itype.p, f->itype.n) ||
					(le_variant_of(f->itype.p, f->itype.n) == LE_VARIANT_NONE &&
					 (f->variant == LE_VARIANT_PCIE || f->variant == LE_VARIANT_SXM)), "offer %d: variant", i);
			rows += f->rows;
		}
		REQUIRE(rows <= o.data_rows, "offers count %ld rows, the file has %ld data rows (a row counted twice)", rows, o.data_rows);
		/* offers are distinct by their key (GCP machine offers: without the GPU name) */
		if (o.n <= 400)
			for (int i = 0; i < o.n; i++)
				for (int j = i + 1; j < o.n; j++)
				{
					const le_offer *a = &o.offer[i],
							   *b = &o.offer[j];

					REQUIRE(!(a->kind == b->kind && a->pricing == b->pricing && a->gpus == b->gpus &&
							  str_eq(a->itype, b->itype, 0) && str_eq(a->region, b->region, 0) &&
							  (a->kind == LE_OFFER_GCP_HOST || str_eq(a->accel, b->accel, a->kind == LE_OFFER_GCP_ACCEL))),
							"offers %d and %d have the same key", i, j);
				}
	}
	calls = t->calls;
	le_offers_free(&o);
	REQUIRE(o.state == NULL && o.offer == NULL, "le_offers_free did not reset its argument");
	le_offers_free(&o);			/* safe twice */
	REQUIRE(t->live == 0, "le_offers_free leaves %d blocks (gcp %d, failing allocation %ld)", t->live, gcp, fail_at);
	free(t);
	return calls;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a private copy of exactly size bytes: ASan sees any read past the end */
	char	   *buf = malloc(size ? size : 1);
	rdoc		ref;
	long		want_rows = -1;
	uint32_t	h = 2166136261u;

	if (buf == NULL)
		abort();
	memcpy(buf, data, size);

	reference_read(buf, size, &ref);
	if (check_csv(buf, size, &ref, 1))
	{
		size_t		n2;
		char	   *again = serialize(&ref, &n2);
		rdoc		ref2;

		/* round trip: fully quoted, the records read back the same */
		reference_read(again, n2, &ref2);
		REQUIRE(!ref2.error && ref2.nr == ref.nr, "round trip: %d records, then %d%s", ref.nr, ref2.nr, ref2.error ? " and an error" : "");
		for (int i = 0; i < ref.nr; i++)
		{
			REQUIRE(ref2.r[i].nf == ref.r[i].nf, "round trip: record %d has %d fields, then %d", i + 1, ref.r[i].nf, ref2.r[i].nf);
			for (int j = 0; j < ref.r[i].nf; j++)
				REQUIRE(ref2.r[i].f[j].n == ref.r[i].f[j].n && memcmp(ref2.r[i].f[j].s, ref.r[i].f[j].s, ref.r[i].f[j].n) == 0,
						"round trip: record %d field %d differs", i + 1, j + 1);
		}
		check_csv(again, n2, &ref2, 0);
		rdoc_free(&ref2);
		free(again);
		if (ref.nr >= 1)
			want_rows = ref.nr - 1;
	}
	rdoc_free(&ref);

	check_fields_as_values(buf, size);

	for (int gcp = 0; gcp <= 1; gcp++)
	{
		long		calls = check_catalog(buf, size, gcp, 0, want_rows);

		/* and again with one allocation failing, chosen by the input */
		for (size_t i = 0; i < size; i++)
			h = (h ^ (unsigned char) buf[i]) * 16777619u;
		if (calls > 0)
			check_catalog(buf, size, gcp, 1 + (long) (h % (uint32_t) calls), -1);
	}
	free(buf);
	return 0;
}
