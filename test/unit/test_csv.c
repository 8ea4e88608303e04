/* test_csv.c: unit tests of the core's CSV reader (csv.c) and SkyPilot catalog reading (catalog.c), with fixtures and a small fuzz run. */
#include "unit.h"
#include "core/catalog.h"
#include "gcp_hosts.h"
#include "core/guard.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- helpers ---- */

static long live_allocs;

/* The core's allocator over malloc/realloc/free, counting live blocks (leaks show up as a nonzero count). */
static void *
talloc(void *ctx, void *p, size_t n)
{
	(void) ctx;
	if (n == 0)
	{
		if (p)
		{
			free(p);
			live_allocs--;
		}
		return NULL;
	}
	if (p == NULL)
	{
		void	   *q = malloc(n);

		if (q)
			live_allocs++;
		return q;
	}
	return realloc(p, n);
}

/* An exact-size heap copy (no NUL after it), so the sanitizer catches any read past the end. */
static char *
exact_copy(const char *s, size_t n)
{
	char	   *b = malloc(n ? n : 1);

	memcpy(b, s, n);
	return b;
}

/* Append to a bounded string. */
static void
cat_out(char *out, size_t outsz, const char *s, size_t n)
{
	size_t		used = strlen(out);

	if (used + n >= outsz)
		n = outsz - used - 1;
	memcpy(out + used, s, n);
	out[used + n] = '\0';
}

/*
 * Every record of in[0..n) as "<line>:f1|f2|...;", then "ERR <line>: <reason>"
 * if the reader stops on an error.
 */
static void
csv_dump(const char *in, size_t n, char *out, size_t outsz)
{
	char	   *buf = exact_copy(in, n);
	le_csv		r;
	le_csv_status st;
	char		tmp[320];

	out[0] = '\0';
	le_csv_init(&r, buf, n, talloc, NULL);
	while ((st = le_csv_next(&r)) == LE_CSV_RECORD)
	{
		snprintf(tmp, sizeof(tmp), "%ld:", r.rec_line);
		cat_out(out, outsz, tmp, strlen(tmp));
		for (int i = 0; i < r.nfields; i++)
		{
			if (i)
				cat_out(out, outsz, "|", 1);
			cat_out(out, outsz, r.fields[i].ptr, r.fields[i].len);
		}
		cat_out(out, outsz, ";", 1);
	}
	if (st == LE_CSV_ERROR)
	{
		char		detail[128];

		le_csv_error_detail(&r, 0, detail, sizeof(detail));
		snprintf(tmp, sizeof(tmp), "ERR %ld: %s%s%s%s", r.err_line, r.err,
				 detail[0] ? " (" : "", detail, detail[0] ? ")" : "");
		cat_out(out, outsz, tmp, strlen(tmp));
	}
	le_csv_free(&r);
	free(buf);
}

#define CSV_IS(in, want) \
	do { \
		char		got_[512]; \
		csv_dump((in), sizeof(in) - 1, got_, sizeof(got_)); \
		CHECK(strcmp(got_, (want)) == 0, "csv %s: got [%s], want [%s]", #in, got_, (want)); \
	} while (0)

/* A catalog read from a string; the text must outlive the offers, so it is kept here. */
typedef struct cat_run
{
	char	   *buf;
	le_offers	o;
	le_error	e;
	le_status	st;
} cat_run;

/* Read text[0..n) as a catalog into c (an exact-size copy, kept until cat_done). */
static void
cat_read(cat_run *c, const char *text, size_t n, int gcp)
{
	c->buf = exact_copy(text, n);
	memset(&c->e, 0, sizeof(c->e));
	c->st = le_catalog_offers(c->buf, n, gcp ? &test_gcp_hosts : NULL, talloc, NULL, &c->o, &c->e);
}

/* Free what cat_read made. */
static void
cat_done(cat_run *c)
{
	le_offers_free(&c->o);
	free(c->buf);
}

/*
 * The error of reading text (gcp or not) as "context: message" ("message"
 * without a context); "" when it reads fine.  *status: the status.
 */
static const char *
cat_error_st(const char *text, int gcp, le_status *status)
{
	static char msg[sizeof(((le_error *) 0)->message) + sizeof(((le_error *) 0)->context) + 2];
	cat_run		c;

	cat_read(&c, text, strlen(text), gcp);
	*status = c.st;
	if (c.st == LE_OK)
		msg[0] = '\0';
	else if (c.e.context[0])
		snprintf(msg, sizeof(msg), "%s: %s", c.e.context, c.e.message);
	else
		snprintf(msg, sizeof(msg), "%s", c.e.message);
	cat_done(&c);
	return msg;
}

static const char *
cat_error(const char *text, int gcp)
{
	le_status	st;

	return cat_error_st(text, gcp, &st);
}

#define CAT_ERR(text, gcp, want) \
	do { \
		const char *got_ = cat_error((text), (gcp)); \
		CHECK(strcmp(got_, (want)) == 0, "catalog error: got [%s], want [%s]", got_, (want)); \
	} while (0)

/* s holds exactly t (t NULL: s is NULL). */
static int
str_is(le_str s, const char *t)
{
	if (t == NULL)
		return s.p == NULL;
	return s.p != NULL && s.n == strlen(t) && memcmp(s.p, t, s.n) == 0;
}

/* The offer with these key fields (itype NULL: none), or NULL. */
static const le_offer *
find_offer(const le_offers *o, const char *itype, const char *accel, const char *region, int pricing)
{
	for (int i = 0; i < o->n; i++)
	{
		const le_offer *x = &o->offer[i];

		if (str_is(x->itype, itype) && str_is(x->accel, accel) && str_is(x->region, region) &&
			x->pricing == pricing)
			return x;
	}
	return NULL;
}

/* An offer's $/GPU-hour as a double (NaN when unpriced), for NEAR checks. */
static double
usd(const le_offer *x)
{
	char		b[80];
	double		t;

	if (x == NULL || !x->priced || x->gpus <= 0)
		return NAN;
	snprintf(b, sizeof(b), "%.*s", (int) x->price.n, x->price.p);
	t = strtod(b, NULL);
	if (x->price2.p)
	{
		snprintf(b, sizeof(b), "%.*s", (int) x->price2.n, x->price2.p);
		t += strtod(b, NULL);
	}
	return t / x->gpus;
}

/* Check one offer: price per GPU (NaN = unpriced), GPUs and rows. */
static void
offer_is(const le_offers *o, const char *itype, const char *accel, const char *region, int pricing,
		 double want_usd, int gpus, int rows)
{
	const le_offer *x = find_offer(o, itype, accel, region, pricing);
	char		what[160];

	snprintf(what, sizeof(what), "%s/%s/%s/%s", itype ? itype : "NULL", accel, region,
			 pricing ? "spot" : "on_demand");
	CHECK(x != NULL, "offer %s missing", what);
	if (x == NULL)
		return;
	if (isnan(want_usd))
		CHECK(!x->priced, "offer %s should be unpriced", what);
	else
		NEAR(usd(x), want_usd, 1e-12, what);
	CHECK(x->gpus == gpus, "offer %s gpus %d, want %d", what, x->gpus, gpus);
	CHECK(x->rows == rows, "offer %s rows %d, want %d", what, x->rows, rows);
}

/* A file of the repository (tests run from its root, as make unittest does). */
static char *
read_file(const char *path, size_t *n)
{
	FILE	   *f = fopen(path, "rb");
	char	   *b;
	long		len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(len > 0 ? (size_t) len : 1);
	*n = fread(b, 1, (size_t) len, f);
	fclose(f);
	return b;
}

/* Read a fixture into c; false (and a failed check) when the file is missing. */
static int
fixture(cat_run *c, const char *name, int gcp)
{
	char		path[256];
	size_t		n;
	char	   *b;

	snprintf(path, sizeof(path), "test/data/skypilot/%s", name);
	b = read_file(path, &n);
	CHECK(b != NULL, "fixture %s not found (run the unit tests from the repository root)", path);
	if (b == NULL)
		return 0;
	c->buf = b;
	memset(&c->e, 0, sizeof(c->e));
	c->st = le_catalog_offers(b, n, gcp ? &test_gcp_hosts : NULL, talloc, NULL, &c->o, &c->e);
	return 1;
}

/* ---- the CSV reader ---- */

/* RFC 4180: quotes, doubled quotes, newlines in fields, CRLF/LF/CR, BOM, blank lines, errors with their line. */
static void
test_csv_reader(void)
{
	CSV_IS("a,b,c\n1,2,3\n", "1:a|b|c;2:1|2|3;");
	/* quoted commas, doubled quotes, a Python dict in single quotes */
	CSV_IS("x,\"a,b\",y\n", "1:x|a,b|y;");
	CSV_IS("\"he said \"\"hi\"\"\",2\n", "1:he said \"hi\"|2;");
	CSV_IS("\"\"\"\"\n", "1:\";");
	CSV_IS("g,\"{'Gpus': [{'Name': 'V100', 'Count': 8.0}]}\",4.4\n", "1:g|{'Gpus': [{'Name': 'V100', 'Count': 8.0}]}|4.4;");
	/* embedded newlines count as lines */
	CSV_IS("a,\"l1\nl2\",b\nc,d,e\n", "1:a|l1\nl2|b;3:c|d|e;");
	CSV_IS("\"x\r\ny\",1\r\nz,2", "1:x\r\ny|1;3:z|2;");
	/* CRLF, lone CR, final line without a line end, blank lines */
	CSV_IS("a,b\r\nc,d\r\n", "1:a|b;2:c|d;");
	CSV_IS("a,b\rc,d\r", "1:a|b;2:c|d;");
	CSV_IS("a,b\nc,d", "1:a|b;2:c|d;");
	CSV_IS("a,b\n\n\r\n\n", "1:a|b;");
	CSV_IS("a\n\nb\n", "1:a;3:b;");
	CSV_IS("\n\na\n", "3:a;");
	/* a UTF-8 BOM is skipped, once */
	CSV_IS("\xEF\xBB\xBF" "a,b\n", "1:a|b;");
	CSV_IS("\xEF\xBB\xBF", "");
	CSV_IS("\xEF\xBB", "1:\xEF\xBB;");
	/* empty fields */
	CSV_IS(",,\n", "1:||;");
	CSV_IS("a,\n", "1:a|;");
	CSV_IS("a,", "1:a|;");
	CSV_IS("\"\",x\n", "1:|x;");
	CSV_IS("x,\"\"", "1:x|;");
	/* a quote inside an unquoted field is literal */
	CSV_IS("ab\"c,d\n", "1:ab\"c|d;");
	/* empty input */
	CSV_IS("", "");
	CSV_IS("\r\n\n", "");
	/* errors name the line where the record starts */
	CSV_IS("a,b\nc,\"d\ne\n", "1:a|b;ERR 2: unclosed quote");
	CSV_IS("a,\"x\ny\",\"z\nw", "ERR 1: unclosed quote (The quote opens on line 2.)");
	CSV_IS("\"", "ERR 1: unclosed quote");
	CSV_IS("h\n\"a\"b,c\n", "1:h;ERR 2: text after a closing quote");
	CSV_IS("h\n1,\"x\n2,\"y\"\n", "1:h;ERR 2: text after a closing quote (The quote closes on line 3; a quote may have been left open before it.)");

	/* NUL bytes are data */
	{
		char	   *buf = exact_copy("a\0b,c\n", 6);
		le_csv		r;

		le_csv_init(&r, buf, 6, talloc, NULL);
		CHECK(le_csv_next(&r) == LE_CSV_RECORD && r.nfields == 2 && r.fields[0].len == 3 &&
			  memcmp(r.fields[0].ptr, "a\0b", 3) == 0, "NUL inside a field");
		le_csv_free(&r);
		free(buf);
	}

	/* fields of earlier records stay valid (unquoted copies are never moved) */
	{
		const char	in[] = "\"a\"\"b\",x\n\"c\"\"d\",y\n";
		char	   *buf = exact_copy(in, sizeof(in) - 1);
		le_csv		r;
		le_csv_field first;

		le_csv_init(&r, buf, sizeof(in) - 1, talloc, NULL);
		CHECK(le_csv_next(&r) == LE_CSV_RECORD, "record 1");
		first = r.fields[0];
		CHECK(le_csv_next(&r) == LE_CSV_RECORD && r.fields[0].len == 3 &&
			  memcmp(r.fields[0].ptr, "c\"d", 3) == 0, "record 2 unquoted");
		CHECK(first.len == 3 && memcmp(first.ptr, "a\"b", 3) == 0, "record 1's field still valid");
		CHECK(le_csv_next(&r) == LE_CSV_EOF && le_csv_next(&r) == LE_CSV_EOF, "EOF twice");
		le_csv_free(&r);
		free(buf);
	}
	/* wide records grow the field array */
	{
		char		in[400];
		char	   *buf;
		le_csv		r;
		size_t		n = 0;

		for (int i = 0; i < 100; i++)
			n += (size_t) snprintf(in + n, sizeof(in) - n, i ? ",%d" : "%d", i % 10);
		buf = exact_copy(in, n);
		le_csv_init(&r, buf, n, talloc, NULL);
		CHECK(le_csv_next(&r) == LE_CSV_RECORD && r.nfields == 100 &&
			  r.fields[99].len == 1 && r.fields[99].ptr[0] == '9', "100 fields: %d", r.nfields);
		le_csv_free(&r);
		free(buf);
	}
	/* the real Lambda catalog's shape: CRLF, quoted dict, empty SpotPrice */
	CSV_IS("InstanceType,Price,GpuInfo,SpotPrice\r\n"
		   "gpu_8x_v100,4.4,\"{'Gpus': [{'Name': 'V100', 'Count': 8.0}], 'TotalGpuMemoryInMiB': 16384}\",\r\n",
		   "1:InstanceType|Price|GpuInfo|SpotPrice;"
		   "2:gpu_8x_v100|4.4|{'Gpus': [{'Name': 'V100', 'Count': 8.0}], 'TotalGpuMemoryInMiB': 16384}|;");
	CHECK(live_allocs == 0, "csv reader leaks %ld blocks", live_allocs);
}

/* ---- catalog pieces: columns, numbers, GCP families, variants ---- */

/* Header lookup, price syntax and values, the GCP family table, N1-attachable GPUs, variants. */
static void
test_catalog_pieces(void)
{
	le_csv_field hdr[] = {{"InstanceType", 12}, {" price ", 7}, {"Region", 6}, {"PRICE", 5}, {"SpotPrice", 9}};
	const char *ok[] = {"1.5", "0", "8.0", "8", "+2", " 3.25 ", ".5", "5.", "1e-05", "1E+3", "0.000", "\t7\t"};
	const char *bad[] = {"abc", "NaN", "nan", "Infinity", "inf", "-inf", "+Inf", "0x1p3", "0x10", "1.2.3",
	"-", "+", ".", "e5", "1e", "1e+", "1,5", "1 5", "--1", "1..", "\xd9\xa1", "1e5.5", "$1"};
	le_str		t;
	int			neg,
				zero;
	double		v;
	const char *acc,
			   *alt;
	int			cnt;

	/* columns by name, ignoring case and blanks; two of a kind is ambiguous */
	CHECK(le_cat_find_column(hdr, 5, "InstanceType") == 0, "InstanceType");
	CHECK(le_cat_find_column(hdr, 5, "instancetype") == 0, "case ignored");
	CHECK(le_cat_find_column(hdr, 5, "Region") == 2, "Region");
	CHECK(le_cat_find_column(hdr, 5, "Price") == -2, "two Price columns");
	CHECK(le_cat_find_column(hdr, 3, "Price") == 1, "blanks ignored");
	CHECK(le_cat_find_column(hdr, 5, "Spot") == -1, "no prefix match");
	CHECK(le_cat_find_column(hdr, 5, "AvailabilityZone") == -1, "absent");

	/* price syntax */
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK(le_num_syntax(ok[i], strlen(ok[i]), &t, &neg, &zero) == LE_NUM_OK, "decimal [%s]", ok[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(le_num_syntax(bad[i], strlen(bad[i]), &t, &neg, &zero) == LE_NUM_BAD, "not a decimal [%s]", bad[i]);
	CHECK(le_num_syntax("", 0, &t, &neg, &zero) == LE_NUM_EMPTY, "empty");
	CHECK(le_num_syntax("  ", 2, &t, &neg, &zero) == LE_NUM_EMPTY, "blanks");
	CHECK(le_num_syntax("1e400", 5, &t, &neg, &zero) == LE_NUM_RANGE, "exponent out of range");
	CHECK(le_num_syntax("12345678901234567890123456789012345678901234567890123456789012345", 65,
						&t, &neg, &zero) == LE_NUM_TOO_LONG, "65 characters");
	CHECK(le_num_syntax(" 3.25 ", 6, &t, &neg, &zero) == LE_NUM_OK && t.n == 4 && memcmp(t.p, "3.25", 4) == 0,
		  "trimmed text");
	CHECK(le_num_syntax("-1.5", 4, &t, &neg, &zero) == LE_NUM_OK && neg && !zero, "negative");
	CHECK(le_num_syntax("-0.00", 5, &t, &neg, &zero) == LE_NUM_OK && neg && zero, "-0 is zero");
	CHECK(le_num_syntax("0e7", 3, &t, &neg, &zero) == LE_NUM_OK && !neg && zero, "0e7 is zero");
	CHECK(le_num_syntax("0.001", 5, &t, &neg, &zero) == LE_NUM_OK && !zero, "0.001 is not zero");

	/* values: the fast path and the fallback agree with strtod */
	{
		const char *vals[] = {"0.1", "98.32", "1e-05", "0.29576", "46.94253", "123456789012345678",
		"0.000000000000000000000000012", "-2.5", "1e300", "7", "0.73948", "5.", ".5", "3.1415926535897932"};

		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		{
			le_str		s = {vals[i], strlen(vals[i])};

			CHECK(le_num_value(s, &v) == LE_NUM_OK && v == strtod(vals[i], NULL), "value of %s: %.17g", vals[i], v);
		}
	}

	/* GCP machine types and their GPUs */
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a2-highgpu-1g", 13, &acc, &alt, &cnt) && strcmp(acc, "A100") == 0 && !alt && cnt == 1, "a2-highgpu-1g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a2-highgpu-8g", 13, &acc, &alt, &cnt) && cnt == 8, "a2-highgpu-8g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a2-megagpu-16g", 14, &acc, &alt, &cnt) && strcmp(acc, "A100") == 0 && cnt == 16, "a2-megagpu-16g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a2-ultragpu-4g", 14, &acc, &alt, &cnt) && strcmp(acc, "A100-80GB") == 0 && cnt == 4, "a2-ultragpu-4g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a3-highgpu-8g", 13, &acc, &alt, &cnt) && strcmp(acc, "H100") == 0 && cnt == 8, "a3-highgpu-8g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a3-megagpu-8g", 13, &acc, &alt, &cnt) && strcmp(acc, "H100-MEGA") == 0 &&
		  alt && strcmp(alt, "H100") == 0 && cnt == 8, "a3-megagpu-8g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a3-edgegpu-8g", 13, &acc, &alt, &cnt) && strcmp(acc, "H100") == 0 && cnt == 8, "a3-edgegpu-8g");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "A2-HIGHGPU-2G", 13, &acc, &alt, &cnt) && cnt == 2, "case ignored");
	{
		const char *g2[] = {"g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16",
		"g2-standard-24", "g2-standard-32", "g2-standard-48", "g2-standard-96", "g2-standard-2"};
		const int	gpus[] = {1, 1, 1, 1, 2, 1, 4, 8, 0};

		for (int i = 0; i < 9; i++)
			CHECK(le_gcp_host_gpus(&test_gcp_hosts, g2[i], strlen(g2[i]), &acc, &alt, &cnt) && strcmp(acc, "L4") == 0 &&
				  cnt == gpus[i], "%s: %d L4", g2[i], cnt);
	}
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a2-highgpu-xg", 13, &acc, &alt, &cnt) && cnt == 0, "unknown size: count 0");
	/* a variant suffix after the size (skypilot-catalog GCP vms.csv, commit ddb8695: a3-edgegpu-8g-nolssd) */
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a3-edgegpu-8g-nolssd", 20, &acc, &alt, &cnt) && strcmp(acc, "H100") == 0 && cnt == 8,
		  "a3-edgegpu-8g-nolssd: 8 H100");
	CHECK(le_gcp_host_gpus(&test_gcp_hosts, "a3-edgegpu-8gx", 14, &acc, &alt, &cnt) && cnt == 0, "8gx: not a size");
	CHECK(!le_gcp_host_gpus(&test_gcp_hosts, "n1-standard-8", 13, &acc, &alt, &cnt), "n1 carries no GPUs");
	CHECK(!le_gcp_host_gpus(&test_gcp_hosts, "c2-standard-16", 14, &acc, &alt, &cnt), "c2 carries no GPUs");
	CHECK(!le_gcp_host_gpus(&test_gcp_hosts, "a2-highgpu-", 11, &acc, &alt, &cnt), "prefix alone");
	CHECK(!le_gcp_host_gpus(&test_gcp_hosts, "a2-high", 7, &acc, &alt, &cnt), "short");
	CHECK(le_gcp_attachable(&test_gcp_hosts, "T4", 2) && le_gcp_attachable(&test_gcp_hosts, "v100", 4) && le_gcp_attachable(&test_gcp_hosts, "P100", 4) &&
		  le_gcp_attachable(&test_gcp_hosts, "P4", 2) && le_gcp_attachable(&test_gcp_hosts, "K80", 3), "N1-attachable GPUs");
	CHECK(!le_gcp_attachable(&test_gcp_hosts, "A100", 4) && !le_gcp_attachable(&test_gcp_hosts, "L4", 2) && !le_gcp_attachable(&test_gcp_hosts, "T40", 3) &&
		  !le_gcp_attachable(&test_gcp_hosts, "T", 1), "not N1-attachable");

	/* variants from the instance type */
	CHECK(le_variant_of("gpu_1x_h100_pcie", 16) == LE_VARIANT_PCIE, "lambda pcie");
	CHECK(le_variant_of("gpu_8x_a100_80gb_sxm4", 21) == LE_VARIANT_SXM, "lambda sxm4");
	CHECK(le_variant_of("1x_H100-SXM_SECURE", 18) == LE_VARIANT_SXM, "runpod SXM");
	CHECK(le_variant_of("x_PCIe_y", 8) == LE_VARIANT_PCIE, "PCIe mixed case");
	CHECK(le_variant_of("p5.48xlarge", 11) == LE_VARIANT_NONE, "aws none");
	CHECK(le_variant_of(NULL, 0) == LE_VARIANT_NONE, "no instance type");
	CHECK(le_variant_of("sx", 2) == LE_VARIANT_NONE, "shorter than the word");
	CHECK(strcmp(le_variant_label(LE_VARIANT_PCIE), "pcie") == 0 && strcmp(le_variant_label(LE_VARIANT_SXM), "sxm") == 0 &&
		  le_variant_label(LE_VARIANT_NONE) == NULL, "variant labels");

	/* GpuInfo's memory as skypilot-catalog writes it (test/data/skypilot/accelerator_names.csv) */
	{
		static const char lambda[] = "{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}";
		/* catalogs/v5/do/vms.csv at 0e419765: the keys in lower case */
		static const char doc[] = "{'gpus': [{'name': 'h100', 'manufacturer': 'nvidia', 'count': 1.0, 'memoryinfo': {'sizeinmib': 81559}}], 'totalgpumemoryinmib': 81559}";
		/* catalogs/v8/primeintellect/vms.csv: JSON, its quotes doubled by the CSV and undone by the reader */
		static const char json[] = "{\"Gpus\":[{\"Name\":\"A100-80GB\",\"Count\":1,\"MemoryInfo\":{\"SizeInMiB\":81920}}],\"TotalGpuMemoryInMiB\":81920}";
		static const char zero[] = "{'Gpus': [{'Name': 'RTX PRO 6000 96GB', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 0}}], 'TotalGpuMemoryInMiB': 0}";

		CHECK(le_gpuinfo_mib(lambda, strlen(lambda)) == 16384, "GpuInfo: SizeInMiB");
		CHECK(le_gpuinfo_mib(doc, strlen(doc)) == 81559, "GpuInfo: sizeinmib in lower case (DigitalOcean)");
		CHECK(le_gpuinfo_mib(json, strlen(json)) == 81920, "GpuInfo: JSON");
		CHECK(le_gpuinfo_mib(zero, strlen(zero)) == 0, "GpuInfo: 0 is not given");
		CHECK(le_gpuinfo_mib("H100_80GB_SXM5", 14) == 0 && le_gpuinfo_mib(NULL, 0) == 0, "GpuInfo: a name alone gives no memory");
	}
}

/* ---- catalogs: errors ---- */

#define H5 "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"

/* An allocator that fails from its n-th call on (ctx: the count left), over talloc. */
static void *
talloc_failing(void *ctx, void *p, size_t n)
{
	long	   *left = ctx;

	if (n > 0 && (*left)-- <= 0)
		return NULL;
	return talloc(NULL, p, n);
}

/* A failed allocation is LE_ERR_NO_MEMORY (53200), "out of memory", whichever allocation it is. */
static void
test_catalog_no_memory(void)
{
	static const char t[] = H5 "x,A,1,1,r\ny,B,2,3,r\n";
	int			seen = 0;

	for (long k = 0; k < 40; k++)
	{
		long		left = k;
		le_offers	o;
		le_error	e;
		le_status	st = le_catalog_offers(t, sizeof(t) - 1, NULL, talloc_failing, &left, &o, &e);

		if (st == LE_OK)
		{
			le_offers_free(&o);
			break;
		}
		CHECK(st == LE_ERR_NO_MEMORY && e.status == st && strcmp(e.message, "out of memory") == 0,
			  "allocation %ld failing: status %d, [%s]", k, (int) st, e.message);
		le_offers_free(&o);
		seen++;
	}
	CHECK(seen >= 2, "only %d allocations could fail", seen);
	CHECK(live_allocs == 0, "no-memory paths leak %ld blocks", live_allocs);
}

/* Every malformed input is an error (22P04) naming the line and the column in its context. */
static void
test_catalog_errors(void)
{
	char		longjunk[200];
	le_status	st;

	/* statuses by kind: malformed content, a size limit; the context apart from the message */
	cat_error_st(H5 "x,A,1,abc,r\n", 0, &st);
	CHECK(st == LE_ERR_MALFORMED, "bad price: status %d", (int) st);
	cat_error_st(H5 "x,A,1,1,r\nx,A\n", 0, &st);
	CHECK(st == LE_ERR_MALFORMED, "field count: status %d", (int) st);
	cat_error_st(H5 "x,A,1,\"1\n", 0, &st);
	CHECK(st == LE_ERR_MALFORMED, "unclosed quote: status %d", (int) st);
	cat_error_st("", 0, &st);
	CHECK(st == LE_ERR_MALFORMED, "empty: status %d", (int) st);
	cat_error_st(H5 "x,A,1,1234567890123456789012345678901234567890123456789012345678901234567,r\n", 0, &st);
	CHECK(st == LE_ERR_TOO_LONG, "long price: status %d", (int) st);
	cat_error_st(H5 "x,A,1,-1.5,r\n", 0, &st);
	CHECK(st == LE_ERR_VALUE, "negative price (a number, not allowed): status %d", (int) st);
	cat_error_st(H5 "x,A,1,1e400,r\n", 0, &st);
	CHECK(st == LE_ERR_VALUE, "huge price: status %d", (int) st);
	{
		cat_run		c;

		const char	t[] = H5 "x,A,1,1,r\ny,B,-1,1,r\n";

		cat_read(&c, t, sizeof(t) - 1, 0);
		CHECK(c.st == LE_ERR_MALFORMED && strcmp(c.e.context, "catalog_csv line 3, column \"AcceleratorCount\"") == 0 &&
			  strstr(c.e.message, "line") == NULL, "context apart: [%s] [%s]", c.e.context, c.e.message);
		cat_done(&c);
	}

	CAT_ERR("", 0, "catalog_csv is empty");
	CAT_ERR("\xEF\xBB\xBF\r\n\r\n", 0, "catalog_csv is empty");
	CAT_ERR(H5, 0, "");
	CAT_ERR("InstanceType,AcceleratorName,AcceleratorCount,Cost,Region\nx,A,1,1,r\n", 0, "catalog_csv has no \"Price\" column");
	CAT_ERR("InstanceType,AcceleratorName,Price,Region\n", 0, "catalog_csv has no \"AcceleratorCount\" column");
	CAT_ERR("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,price\n", 0, "catalog_csv line 1: the header names column \"Price\" twice");
	CAT_ERR(H5 "x,A,1,1,r\nx,A\n", 0, "catalog_csv line 3: record has 2 fields, but the header has 5");
	/* a wider record stops at its first extra field (it used to be read whole first) */
	CAT_ERR(H5 "x,A,1,1,r,\n", 0, "catalog_csv line 2: record has more than 5 fields, but the header has 5");
	CAT_ERR(H5 "x,A,1,1,r\nx,A,1,1,r,,,,,,,,,,,,,,,,\n", 0, "catalog_csv line 3: record has more than 5 fields, but the header has 5");
	CAT_ERR(H5 "x,A,1,abc,r\n", 0, "catalog_csv line 2, column \"Price\": price \"abc\" is not a number");
	CAT_ERR(H5 "x,A,1,NaN,r\n", 0, "catalog_csv line 2, column \"Price\": price \"NaN\" is not a number");
	CAT_ERR(H5 "x,A,1,Infinity,r\n", 0, "catalog_csv line 2, column \"Price\": price \"Infinity\" is not a number");
	CAT_ERR(H5 "x,A,1,-inf,r\n", 0, "catalog_csv line 2, column \"Price\": price \"-inf\" is not a number");
	CAT_ERR(H5 "x,A,1,0x10,r\n", 0, "catalog_csv line 2, column \"Price\": price \"0x10\" is not a number");
	CAT_ERR(H5 "x,A,1,-,r\n", 0, "catalog_csv line 2, column \"Price\": price \"-\" is not a number");
	CAT_ERR(H5 "x,A,1,-1.5,r\n", 0, "catalog_csv line 2, column \"Price\": price \"-1.5\" is negative");
	CAT_ERR(H5 "x,A,1,1e400,r\n", 0, "catalog_csv line 2, column \"Price\": price \"1e400\" is out of range");
	/* a name longer than any lookup takes (price_at could never select it) */
	{
		char		buf[600];

		snprintf(buf, sizeof(buf), H5 "x,A,1,1,%0300d\n", 0);
		CAT_ERR(buf, 0, "catalog_csv line 2, column \"Region\": Region is longer than 256 bytes (300)");
	}
	/* per GPU it rounds to 0 at 10 decimals (price_snapshot's check refused it with 23514) */
	CAT_ERR(H5 "x,A,8,0.00000000001,r\n", 0,
			"catalog_csv line 2, column \"Price\": price \"0.00000000001\" is less than 0.0000000001 per GPU-hour");
	CAT_ERR(H5 "x,A,2147483647,0.001,r\n", 0,
			"catalog_csv line 2, column \"Price\": price \"0.001\" is less than 0.0000000001 per GPU-hour");
	CAT_ERR(H5 "x,A,8,0.0000000004,r\n", 0, "");	/* 0.00000000005 a GPU: rounds up to 0.0000000001 */
	CAT_ERR(H5 "x,A,1,1234567890123456789012345678901234567890123456789012345678901234567,r\n", 0,
			"catalog_csv line 2, column \"Price\": price is longer than 64 characters");
	/* a CPU row is checked too: the file is malformed either way */
	CAT_ERR(H5 "m5.large,,,abc,r\n", 0, "catalog_csv line 2, column \"Price\": price \"abc\" is not a number");
	CAT_ERR("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,SpotPrice\nx,A,1,1,r,nan\n", 0,
			"catalog_csv line 2, column \"SpotPrice\": price \"nan\" is not a number");
	CAT_ERR(H5 "x,A,0.3,1,r\n", 0, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"0.3\" is not a positive whole number or 1/k of one");
	CAT_ERR(H5 "x,A,0,1,r\n", 0, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"0\" is not a positive whole number or 1/k of one");
	CAT_ERR(H5 "x,A,,1,r\n", 0, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"\" is not a positive whole number or 1/k of one");
	CAT_ERR(H5 "x,A,-8,1,r\n", 0, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"-8\" is not a positive whole number or 1/k of one");
	CAT_ERR(H5 "x,A,8.5,1,r\n", 0, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"8.5\" is not a positive whole number or 1/k of one");
	CAT_ERR(H5 "x,A,3e9,1,r\n", 0, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"3e9\" is not a positive whole number or 1/k of one");
	CAT_ERR(H5 "x,A,8.0,1,\n", 0, "");	/* an offer without a region: stored provider-wide (issue 45) */
	CAT_ERR(H5 "x,,,1,\n", 0, "");	/* a CPU row needs no region */
	CAT_ERR(H5 "x,A,1,1,r\ny,B,1,\"2\n", 0, "catalog_csv line 3: unclosed quote");
	CAT_ERR(H5 "x,A,1,1,r\n\"y\"z,B,1,2,r\n", 0, "catalog_csv line 3: text after a closing quote");
	CAT_ERR("\"InstanceType,AcceleratorName\n", 0, "catalog_csv line 1: unclosed quote");
	/* long values are shortened in messages */
	memset(longjunk, 0, sizeof(longjunk));
	snprintf(longjunk, sizeof(longjunk), H5 "x,A,1,1,r\ny,A,1,1,r\nz,A,%s,1,r\n",
			 "x123456789012345678901234567890123456789012345678901234567890");
	CAT_ERR(longjunk, 0, "catalog_csv line 4, column \"AcceleratorCount\": accelerator count "
			"\"x123456789012345678901234567890123456789...\" is not a positive whole number or 1/k of one");
	/* GCP rows are checked the same way */
	CAT_ERR("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,AvailabilityZone,SpotPrice\n"
			",A100,one,1,r,z,\n", 1, "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"one\" is not a positive whole number or 1/k of one");
	CAT_ERR("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,AvailabilityZone,SpotPrice\n"
			"a2-highgpu-1g,,,1,,z,\n", 1, "catalog_csv line 2, column \"Region\": region is empty");
	CHECK(live_allocs == 0, "catalog errors leak %ld blocks", live_allocs);
}

/* ---- catalogs: offers ---- */

/* Cheapest zone, not-listed prices, CPU rows, GCP pairing details. */
static void
test_catalog_offers(void)
{
	cat_run		c;

	/* zones: the cheapest zone per region and pricing; 0 and empty are "not listed"; CPU rows ignored */
	{
		const char	t[] =
			"InstanceType,AcceleratorName,AcceleratorCount,vCPUs,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\r\n"
			"g5.xlarge,A10G,1.0,4.0,\"{'Gpus': [{'Name': 'A10G', 'Count': 1}]}\",1.006,0.4123,us-east-1,use1-az1\r\n"
			"g5.xlarge,A10G,1.0,4.0,\"{'Gpus': [{'Name': 'A10G', 'Count': 1}]}\",1.006,0.3952,us-east-1,use1-az2\r\n"
			"m5.large,,,2.0,,0.096,0.0389,us-east-1,use1-az1\r\n"
			"p4d.24xlarge,A100,8.0,96.0,,32.7726,0,us-east-1,use1-az2\r\n"
			"p4d.24xlarge,A100,8.0,96.0,,0.0,,us-east-1,use1-az6\r\n"
			"gpu_1x_h100_pcie,H100,1,26.0,,1.99,,us-east-1,\r\n";

		cat_read(&c, t, sizeof(t) - 1, 0);
		CHECK(c.st == LE_OK, "zones read: %s", c.e.message);
		CHECK(c.o.n == 4 && c.o.data_rows == 6, "4 offers from 6 rows: %d, %ld", c.o.n, c.o.data_rows);
		offer_is(&c.o, "g5.xlarge", "A10G", "us-east-1", LE_PR_ON_DEMAND, 1.006, 1, 2);
		offer_is(&c.o, "g5.xlarge", "A10G", "us-east-1", LE_PR_SPOT, 0.3952, 1, 0);
		offer_is(&c.o, "p4d.24xlarge", "A100", "us-east-1", LE_PR_ON_DEMAND, 32.7726 / 8, 8, 1);
		CHECK(find_offer(&c.o, "p4d.24xlarge", "A100", "us-east-1", LE_PR_SPOT) == NULL, "spot 0 is not listed");
		CHECK(find_offer(&c.o, "m5.large", "", "us-east-1", LE_PR_ON_DEMAND) == NULL, "CPU row ignored");
		offer_is(&c.o, "gpu_1x_h100_pcie", "H100", "us-east-1", LE_PR_ON_DEMAND, 1.99, 1, 1);
		CHECK(find_offer(&c.o, "gpu_1x_h100_pcie", "H100", "us-east-1", LE_PR_ON_DEMAND)->variant == LE_VARIANT_PCIE, "variant");
		CHECK(str_is(find_offer(&c.o, "g5.xlarge", "A10G", "us-east-1", LE_PR_SPOT)->price, "0.3952"), "price text kept");
		cat_done(&c);
	}
	/* on a non-GCP cloud a GCP-looking file gives only rows with both columns */
	{
		const char	t[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"
			"a2-highgpu-1g,,,0.73948,us-central1\n"
			",A100,1,2.93391,us-central1\n";

		cat_read(&c, t, sizeof(t) - 1, 0);
		CHECK(c.st == LE_OK && c.o.n == 1, "non-GCP: %d offers", c.o.n);
		offer_is(&c.o, NULL, "A100", "us-central1", LE_PR_ON_DEMAND, 2.93391, 1, 1);
		cat_done(&c);
	}
	/* GCP details: H100-MEGA preferred for a3-megagpu, names matched ignoring case, full rows, odd sizes */
	{
		const char	t[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,AvailabilityZone,SpotPrice\n"
			"a3-megagpu-8g,,,10,r,r-a,\n"
			"a3-highgpu-8g,,,9,r,r-a,\n"
			",H100-MEGA,8,80,r,r-a,\n"
			",H100,8,70,r,r-a,\n"
			"a2-highgpu-1g,,,0.5,r,r-a,\n"
			",a100,1,2.5,r,r-a,\n"
			"g2-standard-2,,,0.1,r,r-a,\n"
			"a2-highgpu-2g,A100,2.0,7.0,r,r-a,\n"
			",A100,2,5.0,r,r-a,\n";

		cat_read(&c, t, sizeof(t) - 1, 1);
		CHECK(c.st == LE_OK, "gcp details: %s", c.e.message);
		offer_is(&c.o, "a3-megagpu-8g", "H100-MEGA", "r", LE_PR_ON_DEMAND, 90.0 / 8, 8, 2);
		offer_is(&c.o, "a3-highgpu-8g", "H100", "r", LE_PR_ON_DEMAND, 79.0 / 8, 8, 2);
		offer_is(&c.o, "a2-highgpu-1g", "a100", "r", LE_PR_ON_DEMAND, 3.0, 1, 2);
		offer_is(&c.o, "g2-standard-2", "L4", "r", LE_PR_ON_DEMAND, NAN, 0, 1);
		offer_is(&c.o, "a2-highgpu-2g", "A100", "r", LE_PR_ON_DEMAND, 3.5, 2, 1);	/* a full row is its own offer */
		offer_is(&c.o, NULL, "A100", "r", LE_PR_ON_DEMAND, NAN, 2, 1);	/* no a2-highgpu-2g machine row */
		CHECK(c.o.n == 6, "gcp details: %d offers", c.o.n);
		cat_done(&c);
	}
	/* GCP without an AvailabilityZone column pairs by region */
	{
		const char	t[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"
			"a2-ultragpu-1g,,,1.09962,us-central1\n"
			",A100-80GB,1,3.92808,us-central1\n";

		cat_read(&c, t, sizeof(t) - 1, 1);
		offer_is(&c.o, "a2-ultragpu-1g", "A100-80GB", "us-central1", LE_PR_ON_DEMAND, 1.09962 + 3.92808, 1, 2);
		cat_done(&c);
	}
	CHECK(live_allocs == 0, "catalog offers leak %ld blocks", live_allocs);
}

/* ---- fixtures in test/data/skypilot ---- */

/* The fixture catalogs: GCP pairing over two zones, AWS zones, and the malformed files' messages. */
static void
test_fixtures(void)
{
	cat_run		c;
	const char *rc = "us-central1";
	static const struct
	{
		const char *file;
		const char *msg;
	}			bad[] = {
		{"unclosed_quote.csv", "catalog_csv line 5: unclosed quote"},
		{"no_price_column.csv", "catalog_csv has no \"Price\" column"},
		{"bad_price.csv", "catalog_csv line 3, column \"Price\": price \"abc\" is not a number"},
		{"negative_price.csv", "catalog_csv line 3, column \"SpotPrice\": price \"-0.69\" is negative"},
		{"field_count.csv", "catalog_csv line 3: record has 8 fields, but the header has 9"},
		{"bad_count.csv", "catalog_csv line 2, column \"AcceleratorCount\": accelerator count \"1.5\" is not a positive whole number or 1/k of one"},
		{"nan_price.csv", "catalog_csv line 2, column \"SpotPrice\": price \"NaN\" is not a number"},
	};

	/* GCP: two zones of one region, machine + accelerator rows, spot with spot */
	memset(&c, 0, sizeof(c));
	if (fixture(&c, "gcp_two_zones.csv", 1))
	{
		const le_offer *x;

		CHECK(c.st == LE_OK, "gcp fixture: %s", c.e.message);
		CHECK(c.o.n == 20 && c.o.data_rows == 23, "gcp fixture: %d offers, %ld rows", c.o.n, c.o.data_rows);
		offer_is(&c.o, "a2-highgpu-1g", "A100", rc, LE_PR_ON_DEMAND, 0.73948 + 2.93391, 1, 4);
		offer_is(&c.o, "a2-highgpu-1g", "A100", rc, LE_PR_SPOT, 0.29576 + 1.0628, 1, 0);
		x = find_offer(&c.o, "a2-highgpu-1g", "A100", rc, LE_PR_SPOT);
		CHECK(x && str_is(x->price, "0.29576") && str_is(x->price2, "1.0628"), "spot from zone b");
		offer_is(&c.o, "a2-highgpu-8g", "A100", rc, LE_PR_ON_DEMAND, (5.91582 + 23.47126) / 8, 8, 4);
		offer_is(&c.o, "a2-highgpu-8g", "A100", rc, LE_PR_SPOT, (2.36604 + 8.5024) / 8, 8, 0);
		offer_is(&c.o, "a2-megagpu-16g", "A100", rc, LE_PR_ON_DEMAND, (8.79698 + 46.94253) / 16, 16, 2);
		offer_is(&c.o, NULL, "A100", rc, LE_PR_ON_DEMAND, NAN, 16, 1);	/* A100 x16 in zone b: no machine */
		offer_is(&c.o, "a3-highgpu-1g", "H100", rc, LE_PR_ON_DEMAND, NAN, 1, 1);	/* no H100 x1 row */
		offer_is(&c.o, "a3-highgpu-8g", "H100", rc, LE_PR_ON_DEMAND, (9.46006 + 78.3724) / 8, 8, 4);
		offer_is(&c.o, "a3-highgpu-8g", "H100", rc, LE_PR_SPOT, (5.20187 + 43.1048) / 8, 8, 0);
		/* each row counts once: in its on-demand offer; the H100 x8 rows a3-megagpu-8g shares count with a3-highgpu-8g */
		offer_is(&c.o, "a3-megagpu-8g", "H100", rc, LE_PR_ON_DEMAND, (9.46006 + 78.3724) / 8, 8, 1);
		offer_is(&c.o, "g2-standard-24", "L4", rc, LE_PR_ON_DEMAND, (0.87994 + 1.12008) / 2, 2, 2);
		offer_is(&c.o, "g2-standard-24", "L4", rc, LE_PR_SPOT, (0.30968 + 0.388) / 2, 2, 0);
		offer_is(&c.o, NULL, "T4", rc, LE_PR_ON_DEMAND, 0.35, 1, 2);	/* N1-attachable: the GPU's price */
		offer_is(&c.o, NULL, "T4", rc, LE_PR_SPOT, 0.119, 1, 0);
		offer_is(&c.o, NULL, "tpu-v5p-8", "us-east5", LE_PR_SPOT, NAN, 1, 0);
		CHECK(find_offer(&c.o, "n1-standard-8", "", rc, LE_PR_ON_DEMAND) == NULL, "CPU machine ignored");
	}
	if (c.buf)
		cat_done(&c);

	/* AWS: zones, a p5.48xlarge, spot 0 and empty */
	memset(&c, 0, sizeof(c));
	if (fixture(&c, "aws_zones.csv", 0))
	{
		CHECK(c.st == LE_OK && c.o.n == 8, "aws fixture: %d offers: %s", c.o.n, c.e.message);
		offer_is(&c.o, "g5.xlarge", "A10G", "us-east-1", LE_PR_ON_DEMAND, 1.006, 1, 3);
		offer_is(&c.o, "g5.xlarge", "A10G", "us-east-1", LE_PR_SPOT, 0.3952, 1, 0);
		offer_is(&c.o, "p4d.24xlarge", "A100", "us-east-1", LE_PR_ON_DEMAND, 32.7726 / 8, 8, 2);
		CHECK(find_offer(&c.o, "p4d.24xlarge", "A100", "us-east-1", LE_PR_SPOT) == NULL, "p4d: no spot");
		offer_is(&c.o, "p5.48xlarge", "H100", "us-east-1", LE_PR_ON_DEMAND, 12.29, 8, 2);
		offer_is(&c.o, "p5.48xlarge", "H100", "us-east-1", LE_PR_SPOT, 35.5123 / 8, 8, 0);
		offer_is(&c.o, "p5.48xlarge", "H100", "us-east-2", LE_PR_SPOT, 31.4624 / 8, 8, 0);
		offer_is(&c.o, "p5.48xlarge", "H100", "us-west-2", LE_PR_ON_DEMAND, 12.29, 8, 1);
		CHECK(find_offer(&c.o, "p5.48xlarge", "H100", "us-west-2", LE_PR_SPOT) == NULL, "us-west-2: no spot");
	}
	if (c.buf)
		cat_done(&c);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		memset(&c, 0, sizeof(c));
		if (fixture(&c, bad[i].file, 0))
		{
			char		got[1600];

			snprintf(got, sizeof(got), "%s%s%s", c.e.context, c.e.context[0] ? ": " : "", c.e.message);
			CHECK(c.st == (strstr(got, "negative") ? LE_ERR_VALUE : LE_ERR_MALFORMED) && strcmp(got, bad[i].msg) == 0, "%s: got [%s] (status %d), want [%s]",
				  bad[i].file, got, (int) c.st, bad[i].msg);
		}
		if (c.buf)
			cat_done(&c);
	}
	CHECK(live_allocs == 0, "fixtures leak %ld blocks", live_allocs);
}

/* ---- fuzzing: mutated catalogs and random bytes never crash, leak or read out of bounds ---- */

static uint32_t rng = 12345;

/* xorshift32: a fixed sequence, so the fuzz run is reproducible. */
static uint32_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Mutated catalogs and random bytes: no crash, no field outside the input, no leak (run under ASan/UBSan by hand). */
static void
test_fuzz(void)
{
	static const char seed[] =
		"\xEF\xBB\xBFInstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\r\n"
		"a2-highgpu-1g,,,,0.73948,0.29576,us-central1,us-central1-a\r\n"
		",A100,1,\"{'Gpus': [{'Name': 'A100', \"\"x\"\"}]}\",2.93391,1.1736,us-central1,us-central1-a\r\n"
		"p5.48xlarge,H100,8.0,\"a,\nb\",98.32,,us-east-1,use1-az4\n"
		",T4,1,,0.35,0.119,r,z\n";
	static const char interesting[] = ",\"\n\r\0x0-.e1";
	int			bad_bounds = 0,
				failures = 0;

	for (int it = 0; it < 4000; it++)
	{
		char		b[sizeof(seed) + 16];
		size_t		n = sizeof(seed) - 1;
		int			muts = 1 + (int) (next_rand() % 4);
		char	   *buf;
		le_offers	o;
		le_error	e;
		le_csv		r;

		memcpy(b, seed, n);
		if (it % 10 == 9)
		{
			n = next_rand() % sizeof(b);
			for (size_t i = 0; i < n; i++)
				b[i] = next_rand() % 4 ? interesting[next_rand() % (sizeof(interesting) - 1)] : (char) next_rand();
		}
		else
			for (int m = 0; m < muts; m++)
			{
				size_t		at = n ? next_rand() % n : 0;

				switch (next_rand() % 4)
				{
					case 0:		/* replace */
						if (n)
							b[at] = interesting[next_rand() % (sizeof(interesting) - 1)];
						break;
					case 1:		/* delete */
						if (n)
						{
							memmove(b + at, b + at + 1, n - at - 1);
							n--;
						}
						break;
					case 2:		/* insert */
						if (n < sizeof(b))
						{
							memmove(b + at + 1, b + at, n - at);
							b[at] = interesting[next_rand() % (sizeof(interesting) - 1)];
							n++;
						}
						break;
					default:	/* truncate */
						n = at;
				}
			}
		buf = exact_copy(b, n);

		/* the reader: every field lies in the input or in the unquoting buffer */
		le_csv_init(&r, buf, n, talloc, NULL);
		while (le_csv_next(&r) == LE_CSV_RECORD)
			for (int i = 0; i < r.nfields; i++)
			{
				const char *p = r.fields[i].ptr;
				size_t		l = r.fields[i].len;
				int			in_buf = p >= buf && p + l <= buf + n;
				int			in_scratch = r.scratch && p >= r.scratch && p + l <= r.scratch + r.scratch_used;

				bad_bounds += !(in_buf || in_scratch);
			}
		le_csv_free(&r);

		/* the catalog, both ways */
		if (le_catalog_offers(buf, n, (it % 2) ? &test_gcp_hosts : NULL, talloc, NULL, &o, &e) == LE_OK)
		{
			long		counted = 0;

			/* each data row counts in at most one offer */
			for (int i = 0; i < o.n; i++)
			{
				failures += o.offer[i].rows < 0 || (o.offer[i].priced && o.offer[i].gpus <= 0);
				counted += o.offer[i].rows;
			}
			failures += counted > o.data_rows;
		}
		else
			/* a status of the file's kind, and the error says where: the context, or the message */
			failures += !(e.status == LE_ERR_MALFORMED || e.status == LE_ERR_VALUE || e.status == LE_ERR_TOO_LONG) ||
				(strncmp(e.context, "catalog_csv line ", 17) != 0 && strncmp(e.message, "catalog_csv ", 12) != 0);
		le_offers_free(&o);
		free(buf);
	}
	CHECK(bad_bounds == 0, "fuzz: %d fields outside the input", bad_bounds);
	CHECK(failures == 0, "fuzz: %d bad results", failures);
	CHECK(live_allocs == 0, "fuzz leaks %ld blocks", live_allocs);
}

/* Entry point, called from test_core.c's main. */

/*
 * The reader's bounds: the records of in[0..n) as csv_dump shows them, with
 * max_record set (0: the default) and, when width is set, the first record's
 * field count as the width of the rest (as the callers do after a header).
 */
static void
bounded_dump(const char *in, size_t n, size_t max_record, int width, char *out, size_t outsz, int *limit, int *fcap)
{
	char	   *buf = exact_copy(in, n);
	le_csv		r;
	le_csv_status st;
	char		tmp[320];
	int			first = 1;

	out[0] = '\0';
	le_csv_init(&r, buf, n, talloc, NULL);
	if (max_record)
		r.max_record = max_record;
	while ((st = le_csv_next(&r)) == LE_CSV_RECORD)
	{
		snprintf(tmp, sizeof(tmp), "%ld:%d;", r.rec_line, r.nfields);
		cat_out(out, outsz, tmp, strlen(tmp));
		if (first && width)
			le_csv_set_width(&r, r.nfields);
		first = 0;
	}
	if (st == LE_CSV_ERROR)
	{
		snprintf(tmp, sizeof(tmp), "ERR %ld: %s", r.err_line, r.err);
		cat_out(out, outsz, tmp, strlen(tmp));
	}
	*limit = r.err_limit;
	*fcap = r.fcap;
	le_csv_free(&r);
	free(buf);
}

#define BOUNDED_IS(in, max_record, width, want, want_limit) \
	do { \
		char		got_[512]; \
		int			lim_, cap_; \
		bounded_dump((in), sizeof(in) - 1, (max_record), (width), got_, sizeof(got_), &lim_, &cap_); \
		CHECK(strcmp(got_, (want)) == 0 && lim_ == (want_limit), "bounded csv %s: got [%s] (limit %d), want [%s] (limit %d)", \
			  #in, got_, lim_, (want), (want_limit)); \
	} while (0)

/* Records stop at the first field past the width or the column limit, and at the first byte past max_record. */
static void
test_csv_bounds(void)
{
	char		got[512];
	int			lim,
				cap;
	size_t		n = 50000000;	/* 50,000,000 commas */
	char	   *big;

	/* the header's width: a wider record stops at its first extra field (22P04), a narrower one is the caller's */
	BOUNDED_IS("a,b\n1,2\n1\n1,2,3\n", 0, 1, "1:2;2:2;3:1;ERR 4: record has more than 2 fields, but the header has 2", 0);
	BOUNDED_IS("a\n1,\n", 0, 1, "1:1;ERR 2: record has more than 1 field, but the header has 1", 0);
	BOUNDED_IS("a,b\n1,2,3\n", 0, 0, "1:2;2:3;", 0);
	/* a record may span max_record bytes, its line end not counted; one byte more is 54000 */
	BOUNDED_IS("abcdefghij\nk\n", 10, 0, "1:1;2:1;", 0);
	BOUNDED_IS("abcdefghij", 10, 0, "1:1;", 0);
	BOUNDED_IS("abcde,ghij\r\n", 10, 0, "1:2;", 0);
	BOUNDED_IS("abcdefghijk\n", 10, 0, "ERR 1: record is longer than 10 bytes, the most allowed", 1);
	BOUNDED_IS("abcdefghij,\n", 10, 0, "ERR 1: record is longer than 10 bytes, the most allowed", 1);
	BOUNDED_IS("a\n\"bcdefgh\"\n", 10, 0, "1:1;2:1;", 0);
	BOUNDED_IS("a\n\"bcdefghij\"\n", 10, 0, "1:1;ERR 2: record is longer than 10 bytes, the most allowed", 1);
	BOUNDED_IS("\"abcdefg\"\"\"\n", 10, 0, "ERR 1: record is longer than 10 bytes, the most allowed", 1);
	BOUNDED_IS("\"ab\"\"c\"\"d\"\n", 10, 0, "1:1;", 0);
	BOUNDED_IS("\"abc\ndefghijkl", 10, 0, "ERR 1: record is longer than 10 bytes, the most allowed", 1);
	BOUNDED_IS("\"abc\ndef", 10, 0, "ERR 1: unclosed quote", 0);
	/* a record's lines count from its start: many short records pass */
	BOUNDED_IS("abcdefghij\nabcdefghij\nabcdefghij\n", 10, 0, "1:1;2:1;3:1;", 0);

	/* LE_CSV_MAX_COLUMNS fields pass; one more is 54000, whatever follows it */
	big = malloc(n);
	memset(big, ',', n);
	bounded_dump(big, LE_CSV_MAX_COLUMNS - 1, 0, 0, got, sizeof(got), &lim, &cap);
	CHECK(strcmp(got, "1:1600;") == 0, "1,600 fields: got [%s]", got);
	bounded_dump(big, LE_CSV_MAX_COLUMNS, 0, 0, got, sizeof(got), &lim, &cap);
	CHECK(strcmp(got, "ERR 1: record has more than 1600 fields, the most allowed") == 0 && lim == 1,
		  "1,601 fields: got [%s] (limit %d)", got, lim);
	/* 50,000,001 fields: the field array never grows past the limit */
	bounded_dump(big, n, 0, 0, got, sizeof(got), &lim, &cap);
	CHECK(strcmp(got, "ERR 1: record has more than 1600 fields, the most allowed") == 0 && cap <= 2048,
		  "50,000,001 fields: got [%s], %d slots", got, cap);
	/* a data record of 50,000,001 fields under a two-column header */
	memcpy(big, "a,b\n", 4);
	bounded_dump(big, n, 0, 1, got, sizeof(got), &lim, &cap);
	CHECK(strcmp(got, "1:2;ERR 2: record has more than 2 fields, but the header has 2") == 0 && cap <= 16,
		  "a data record of 50,000,001 fields: got [%s], %d slots", got, cap);
	/* a 50 MB quoted field: stopped at LE_CSV_MAX_RECORD */
	memset(big, 'x', n);
	big[0] = '"';
	big[n - 1] = '"';
	bounded_dump(big, n, 0, 0, got, sizeof(got), &lim, &cap);
	CHECK(strcmp(got, "ERR 1: record is longer than 8388608 bytes, the most allowed") == 0 && lim == 1,
		  "a 50 MB quoted field: got [%s]", got);
	free(big);
	CHECK(live_allocs == 0, "bounded reads free what they allocate (%ld live)", live_allocs);
}

/* NULL fields: the CSV reader's (empty, NULL) and a FOCUS line's (also null, (null), any case). */
static void
test_null_fields(void)
{
	static const struct
	{
		const char *text;
		int			csv;
		int			focus;
	}			cases[] = {
		{"", 1, 1}, {"NULL", 1, 1}, {"null", 0, 1}, {"Null", 0, 1}, {"(null)", 0, 1}, {"(NULL)", 0, 1},
		{"(Null)", 0, 1}, {"(null", 0, 0}, {"null)", 0, 0}, {"[null]", 0, 0}, {"nul", 0, 0},
		{"nulls", 0, 0}, {"(none)", 0, 0}, {"nill", 0, 0}, {" null", 0, 0}, {"0", 0, 0}
	};

	for (int i = 0; i < (int) (sizeof(cases) / sizeof(cases[0])); i++)
	{
		le_csv_field f = {cases[i].text, strlen(cases[i].text)};

		CHECK(le_field_is_null(&f) == cases[i].csv, "le_field_is_null(\"%s\") = %d", cases[i].text, le_field_is_null(&f));
		CHECK(le_focus_field_is_null(&f) == cases[i].focus, "le_focus_field_is_null(\"%s\") = %d",
			  cases[i].text, le_focus_field_is_null(&f));
	}
	{
		/* the length decides, not a NUL: "null" followed by more bytes is not null */
		le_csv_field f = {"nullx", 4};
		le_csv_field g = {"(null)x", 6};

		CHECK(le_focus_field_is_null(&f) && le_focus_field_is_null(&g), "a field is its length's bytes");
	}
}

void
test_csv(void)
{
	test_null_fields();
	test_csv_reader();
	test_csv_bounds();
	test_catalog_pieces();
	test_catalog_errors();
	test_catalog_no_memory();
	test_catalog_offers();
	test_fixtures();
	test_fuzz();
}
