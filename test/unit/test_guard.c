/* test_guard.c: unit tests of the core's bounds: keyed hash, UTF-8-safe clipping, CSV header checks, the interrupt hook. */
#include "unit.h"

#include <stdlib.h>

#include "core/csv.h"
#include "core/guard.h"

/* malloc-backed allocator with the core's contract */
static void *
galloc(void *ctx, void *p, size_t n)
{
	(void) ctx;
	if (n == 0)
	{
		free(p);
		return NULL;
	}
	return realloc(p, n);
}

static uint64_t
hash_of(const char *s)
{
	le_hash		h;

	le_hash_init(&h);
	le_hash_bytes(&h, s, strlen(s));
	return le_hash_finish(&h);
}

static void
test_hash(void)
{
	unsigned char k1[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	unsigned char k2[16] = {16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
	uint64_t	a1,
				b1,
				a2,
				b2;
	int			low_bits[256] = {0};
	int			worst = 0;
	le_hash		h;

	le_hash_set_seed(k1);
	a1 = hash_of("gpu_8x_h100_sxm5");
	b1 = hash_of("gpu_8x_h100_sxm6");
	CHECK(a1 == hash_of("gpu_8x_h100_sxm5"), "hash is deterministic under one key");
	CHECK(a1 != b1, "one byte changes the hash");
	/* byte at a time and all at once agree, across the 8-byte block boundary */
	le_hash_init(&h);
	for (const char *p = "gpu_8x_h100_sxm5"; *p; p++)
		le_hash_byte(&h, (unsigned char) *p);
	CHECK(le_hash_finish(&h) == a1, "incremental feeding gives the same hash");
	/* the length is part of the hash: "a" and "a\0" differ */
	le_hash_init(&h);
	le_hash_bytes(&h, "a", 2);
	CHECK(le_hash_finish(&h) != hash_of("a"), "a trailing NUL byte changes the hash");
	/* another key, other hashes: collisions found under one key do not carry over */
	le_hash_set_seed(k2);
	a2 = hash_of("gpu_8x_h100_sxm5");
	b2 = hash_of("gpu_8x_h100_sxm6");
	CHECK(a2 != a1 && b2 != b1, "the key changes every hash");
	/* 25,600 similar names spread evenly over 256 buckets (no bucket over 2x its share) */
	for (int i = 0; i < 25600; i++)
	{
		char		name[32];

		snprintf(name, sizeof(name), "Standard_ND%d_v%d", i, i % 7);
		low_bits[hash_of(name) & 0xff]++;
	}
	for (int i = 0; i < 256; i++)
		if (low_bits[i] > worst)
			worst = low_bits[i];
	CHECK(worst < 200, "similar names spread over the buckets (fullest bucket %d of an expected 100)", worst);
	le_hash_set_seed(k1);
}

static void
test_utf8(void)
{
	const char *s = "H100 \xe2\x82\xac\xe2\x82\xac";	/* "H100 €€": € is 3 bytes */

	CHECK(le_utf8_clip(s, strlen(s), 100) == strlen(s), "no cut when it fits");
	CHECK(le_utf8_clip(s, strlen(s), 5) == 5, "cut between characters");
	CHECK(le_utf8_clip(s, strlen(s), 6) == 5, "a cut inside the euro sign backs off to its start");
	CHECK(le_utf8_clip(s, strlen(s), 7) == 5, "a cut inside the euro sign backs off to its start (2)");
	CHECK(le_utf8_clip(s, strlen(s), 8) == 8, "a cut after the euro sign keeps it");
	CHECK(le_utf8_complete(s, 7) == 5, "a trailing half euro sign is dropped");
	CHECK(le_utf8_complete(s, 8) == 8, "a complete trailing character is kept");
	CHECK(le_utf8_complete(s, 4) == 4, "ASCII is left alone");
	CHECK(le_utf8_complete("\xf0\x9f\x98", 3) == 0, "three bytes of a four-byte character are dropped");
}

/* The header problem of a CSV text's first record. */
static le_csv_header_problem
header(const char *text, int unique, int *col, int *other)
{
	le_csv		r;
	le_csv_header_problem p;

	le_csv_init(&r, text, strlen(text), galloc, NULL);
	if (le_csv_next(&r) != LE_CSV_RECORD)
	{
		le_csv_free(&r);		/* the reader stopped (a limit): nothing to check, but its memory to free */
		return LE_CSV_HDR_OOM;
	}
	p = le_csv_check_header(&r, unique, col, other);
	le_csv_free(&r);
	return p;
}

static void
test_header(void)
{
	int			col,
				other;
	char	   *big;
	size_t		n;

	CHECK(header("a,b,c\n", 1, &col, &other) == LE_CSV_HDR_OK, "plain header");
	CHECK(header("a,b,A\n", 1, &col, &other) == LE_CSV_HDR_DUPLICATE && col == 2 && other == 0,
		  "a name twice, ignoring case: columns %d and %d", other, col);
	CHECK(header("x,b,c,B,c\n", 1, &col, &other) == LE_CSV_HDR_DUPLICATE && col == 3 && other == 1,
		  "the first repeat in column order is reported: columns %d and %d", other, col);
	CHECK(header("a,b,A\n", 0, &col, &other) == LE_CSV_HDR_OK, "repeats allowed when not asked");
	CHECK(header("a,,c\n", 1, &col, &other) == LE_CSV_HDR_EMPTY_NAME && col == 1, "unnamed column");

	/* a name of LE_NAME_MAX bytes passes, one byte more does not */
	big = malloc(LE_NAME_MAX + 8);
	memset(big, 'n', LE_NAME_MAX + 1);
	strcpy(big + LE_NAME_MAX + 1, ",a\n");
	CHECK(header(big, 1, &col, &other) == LE_CSV_HDR_LONG_NAME && col == 0, "name longer than LE_NAME_MAX");
	memmove(big + LE_NAME_MAX, big + LE_NAME_MAX + 1, strlen(big + LE_NAME_MAX + 1) + 1);
	CHECK(header(big, 1, &col, &other) == LE_CSV_HDR_OK, "name of exactly LE_NAME_MAX bytes");
	free(big);

	/* LE_CSV_MAX_COLUMNS distinct names pass (sorted, not pairwise); one more is too many */
	n = (size_t) (LE_CSV_MAX_COLUMNS + 1) * 8 + 2;
	big = malloc(n);
	big[0] = '\0';
	for (int i = 0; i < LE_CSV_MAX_COLUMNS; i++)
		sprintf(big + strlen(big), "%sc%d", i ? "," : "", i);
	strcat(big, "\n");
	CHECK(header(big, 1, &col, &other) == LE_CSV_HDR_OK, "%d distinct columns", LE_CSV_MAX_COLUMNS);
	big[strlen(big) - 1] = '\0';
	strcat(big, ",c0\n");
	/* the reader itself stops at the extra column (so the header check never sees it) */
	CHECK(header(big, 1, &col, &other) == LE_CSV_HDR_OOM, "%d columns are too many for the reader", LE_CSV_MAX_COLUMNS + 1);
	free(big);
}

static int	interrupts;

static void
count_interrupt(void)
{
	interrupts++;
}

/* The interrupt checks reading text[0..n) as one record takes (-1 unless it is one record). */
static int
interrupts_reading(const char *text, size_t n)
{
	le_csv		r;
	le_csv_status st;

	interrupts = 0;
	le_interrupt_hook = count_interrupt;
	le_csv_init(&r, text, n, galloc, NULL);
	st = le_csv_next(&r);
	le_csv_free(&r);
	le_interrupt_hook = NULL;
	return st == LE_CSV_RECORD ? interrupts : -1;
}

static void
test_interrupts(void)
{
	const char *text = "a,b\n1,2\n3,4\n5,6\n";
	le_csv		r;

	le_interrupt_hook = count_interrupt;
	le_csv_init(&r, text, strlen(text), galloc, NULL);
	while (le_csv_next(&r) == LE_CSV_RECORD)
		;
	le_csv_free(&r);
	le_interrupt_hook = NULL;
	CHECK(interrupts >= 4, "the CSV reader reaches the interrupt hook once per record (%d calls)", interrupts);

	/* inside one long record too: every LE_CSV_CHECK_EVERY bytes, or 1,024 fields */
	{
		size_t		n = LE_CSV_MAX_RECORD - 1;
		char	   *big = malloc(n);

		memset(big, 'x', n);
		CHECK(interrupts_reading(big, n) >= (int) (n / LE_CSV_CHECK_EVERY),
			  "one unquoted field of %zu bytes: %d interrupt checks", n, interrupts);
		big[0] = '"';
		big[n - 1] = '"';
		CHECK(interrupts_reading(big, n) >= (int) (n / LE_CSV_CHECK_EVERY),
			  "one quoted field of %zu bytes: %d interrupt checks", n, interrupts);
		for (size_t i = 1; i + 1 < n - 1; i += 2)
			big[i] = big[i + 1] = '"';	/* doubled quotes, each copied */
		CHECK(interrupts_reading(big, n) >= (int) (n / LE_CSV_CHECK_EVERY),
			  "one field of doubled quotes, %zu bytes: %d interrupt checks", n, interrupts);
		memset(big, ',', LE_CSV_MAX_COLUMNS - 1);
		CHECK(interrupts_reading(big, LE_CSV_MAX_COLUMNS - 1) >= 1 + (LE_CSV_MAX_COLUMNS - 1) * 64 / (int) LE_CSV_CHECK_EVERY,
			  "%d empty fields: %d interrupt checks", LE_CSV_MAX_COLUMNS, interrupts);
		free(big);
	}
}

void
test_guard(void)
{
	test_hash();
	test_utf8();
	test_header();
	test_interrupts();
}
