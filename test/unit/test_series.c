/* test_series.c: unit tests of the price series id (series.c): FNV-1a test vectors, field boundaries, NULLs. */
#include "unit.h"
#include "core/series.h"

static int64_t
sid(const char *a, const char *b, const char *c, const char *d, const char *e)
{
	const char *const p[LE_SERIES_KEY_FIELDS] = {a, b, c, d, e};
	size_t		n[LE_SERIES_KEY_FIELDS];

	for (int i = 0; i < LE_SERIES_KEY_FIELDS; i++)
		n[i] = p[i] ? strlen(p[i]) : 0;
	return le_series_id(p, n);
}

void
test_series(void)
{
	/* the published FNV-1a 64-bit test vectors (draft-eastlake-fnv, appendix) */
	CHECK(le_fnv1a64(LE_FNV64_OFFSET, "", 0) == UINT64_C(0xcbf29ce484222325), "fnv1a64(\"\")");
	CHECK(le_fnv1a64(LE_FNV64_OFFSET, "a", 1) == UINT64_C(0xaf63dc4c8601ec8c), "fnv1a64(\"a\")");
	CHECK(le_fnv1a64(LE_FNV64_OFFSET, "foobar", 6) == UINT64_C(0x85944171f73967e8), "fnv1a64(\"foobar\")");

	/* the same key, the same id; NULL is not '' ; a byte moved across a field boundary changes it */
	CHECK(sid("H100", "gcp", "spot", NULL, "a3-highgpu-8g") == sid("H100", "gcp", "spot", NULL, "a3-highgpu-8g"), "deterministic");
	CHECK(sid("H100", "gcp", "spot", NULL, NULL) != sid("H100", "gcp", "spot", "", NULL), "NULL region != ''");
	CHECK(sid("H100", "gcp", "spot", NULL, NULL) != sid("H100", "gcp", "spot", NULL, ""), "NULL type != ''");
	CHECK(sid("H100", "gcp", "spot", "x", NULL) != sid("H100", "gcp", "spot", NULL, "x"), "region x != type x");
	CHECK(sid("ab", "c", "spot", NULL, NULL) != sid("a", "bc", "spot", NULL, NULL), "field boundary");
	CHECK(sid("H100", "gcp", "spot", NULL, NULL) != sid("H100", "gcp", "on_demand", NULL, NULL), "pricing");

	/*
	 * Ids are stored (price_snapshot.series_id): they must not change between releases or
	 * platforms.  This value was computed by this implementation when the ids were introduced
	 * (0.3.0); sql/prices_series_id.sql checks the same key through SQL.
	 */
	CHECK(sid("H100-SXM5", "gcp", "on_demand", "us-central1", "a3-highgpu-8g") == INT64_C(-3547472191063044493),
		  "pinned id: got %lld", (long long) sid("H100-SXM5", "gcp", "on_demand", "us-central1", "a3-highgpu-8g"));
}
