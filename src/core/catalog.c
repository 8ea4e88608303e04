/* catalog.c: SkyPilot vms.csv -> per-GPU offers: header columns, price syntax, GCP machine/accelerator pairing, cheapest zone. */
#include "ascii.h"
#include "catalog.h"
#include "guard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Why this is C and not SQL over the one CSV tokenizer (decided in 0.3.0,
 * issue 18): the offers could be built in SQL from csv.c's rows, but the
 * rules below (the cheapest zone, GCP's machine rows paired with their
 * accelerator rows per zone, one count per row) are a grouping with
 * per-zone pairing that SQL would express as several self-joins over a
 * million-row catalog, each re-reading text columns; here it is one pass
 * with a hash table (keyed SipHash, guard.c), bounded in memory and
 * interruptible, that the unit tests and fuzz_csv exercise without a
 * server.  What SQL does well stays in SQL: the SKU names, machine counts,
 * suspect prices and the change points (src/sql/import.sql).  The tokenizer
 * is the same (csv.c), so quoting, line ends and size limits cannot differ.
 *
 * What an offer is (README of the shared data, "SkyPilot catalog quirks"):
 *
 * - One offer per (instance type, accelerator, GPUs per instance, region,
 *   pricing); pricing is on_demand (Price) or spot (SpotPrice).  A price that
 *   is empty or 0 is "not listed": that row gives no offer for that pricing.
 * - Catalogs with an AvailabilityZone column list one row per zone: the
 *   offer takes the cheapest zone.  rows counts every row that fed the offer
 *   (all zones; on GCP the machine rows and the accelerator rows), so the
 *   caller can count what it skips.  Each row counts once: in its on-demand
 *   offer when it lists a Price, else in its spot offer.
 * - Rows without an accelerator are CPU machines and are ignored, except on
 *   GCP, where an accelerator-optimized machine type (a2, a3, a4, g2) is a
 *   row of its own without AcceleratorName, and its GPUs are separate rows
 *   with an empty InstanceType.  There, in each zone, the machine row is
 *   paired with the accelerator row of its GPU name and count (same region
 *   and zone, spot with spot; names compared ignoring case), and the
 *   instance price is machine + GPUs.  A pricing listed on one side only is
 *   not offered.  An accelerator row two machine types share (H100 x8 for
 *   a3-highgpu-8g and a3-megagpu-8g) prices both offers and counts in the first.
 *
 * GCP rows that cannot be paired are not dropped (decided here):
 * - a GPU machine type with no accelerator row in some zone: the zone adds
 *   its rows to the machine type's offer in that region, which stays priced
 *   if another zone paired; if no zone of the region paired, the offer is
 *   returned unpriced (the caller counts its rows as skipped), with the
 *   family's GPU name (and no GPU count for a size the family table does
 *   not know, e.g. g2-standard-2);
 * - accelerator rows no machine type pairs with in their zone (a2-megagpu-16g
 *   is missing where the A100 x16 row exists, H100 rows in zones without an
 *   a3 machine, TPU slices): returned with no instance type and unpriced;
 * - except GPUs GCP attaches to general-purpose N1 machines (T4, V100, P100,
 *   P4, K80): SkyPilot prices these rows per GPU and lets the user pick the
 *   N1 host, so they are priced as accelerator price / count with no
 *   instance type -- the GPU's own price, without the host VM.
 * A row with both InstanceType and AcceleratorName set is an ordinary offer
 * on every cloud, GCP included.
 */

struct le_catalog
{
	le_alloc_fn alloc;
	void	   *ctx;
	le_csv		csv;
	int			gcp;
	const le_gcp_hosts *gcp_hosts;	/* GCP's machine families (NULL: not GCP) */
	int			ncols;
	int			col[LE_COL__COUNT];
	long		data_rows;
	struct ztab *hosts;			/* GCP machine rows, per (type, region, zone) */
	struct ztab *accels;		/* GCP accelerator rows, per (name, count, region, zone) */
	le_offer   *offers;
	int			noffers;
	int			ocap;
	struct htab *ohash;
};

/* ------------------------------------------------------------------------
 * Header columns
 * ------------------------------------------------------------------------ */

static const char *const col_names[LE_COL__COUNT] = {
	[LE_COL_INSTANCE_TYPE] = "InstanceType",
	[LE_COL_ACCELERATOR_NAME] = "AcceleratorName",
	[LE_COL_ACCELERATOR_COUNT] = "AcceleratorCount",
	[LE_COL_PRICE] = "Price",
	[LE_COL_REGION] = "Region",
	[LE_COL_SPOT_PRICE] = "SpotPrice",
	[LE_COL_AVAILABILITY_ZONE] = "AvailabilityZone",
	[LE_COL_VCPUS] = "vCPUs",
	[LE_COL_MEMORY_GIB] = "MemoryGiB",
	[LE_COL_GPU_INFO] = "GpuInfo",
	[LE_COL_UPSTREAM_CLOUD_ID] = "UpstreamCloudId",
};

/* s[0..n) starts with the C string t, ignoring ASCII case. */
static int
starts_ci(const char *s, size_t n, const char *t)
{
	size_t		i;

	for (i = 0; t[i]; i++)
		if (i >= n || (s[i] | 0x20) != (t[i] | 0x20))
			return 0;
	return 1;
}

/* See catalog.h: GpuInfo's first SizeInMiB, e.g. "{'Gpus': [{... 'MemoryInfo': {'SizeInMiB': 81920}}], ...}".
 * The key in any case: DigitalOcean's catalogs write it "sizeinmib" (skypilot-catalog
 * catalogs/v5/do/vms.csv at 0e419765, v6 at 1fbe7331). */
int32_t
le_gpuinfo_mib(const char *s, size_t n)
{
	static const char key[] = "sizeinmib";
	size_t		kn = sizeof(key) - 1;

	for (size_t i = 0; s && i + kn <= n; i++)
	{
		size_t		j = i + kn;
		int64_t		v = 0;
		size_t		digits = 0;

		if (!starts_ci(s + i, n - i, key))
			continue;
		/* the closing quote, the colon and blanks; then a count, maybe written as a float (.0) */
		while (j < n && (s[j] == '\'' || s[j] == '"' || s[j] == ':' || s[j] == ' '))
			j++;
		for (; j < n && s[j] >= '0' && s[j] <= '9' && digits < 9; j++, digits++)
			v = v * 10 + (s[j] - '0');
		if (digits == 0 || (j < n && s[j] >= '0' && s[j] <= '9') || v < 1 || v > 16777216)
			return 0;
		return (int32_t) v;
	}
	return 0;
}

/* The header name of a column. */
const char *
le_cat_col_name(le_cat_col c)
{
	return ((int) c >= 0 && c < LE_COL__COUNT) ? col_names[c] : "?";
}

/* s[0..n) equals the C string t, ignoring ASCII case. */
static int
eq_ci(const char *s, size_t n, const char *t)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (t[i] == '\0' || le_ascii_lower((unsigned char) s[i]) != le_ascii_lower((unsigned char) t[i]))
			return 0;
	return t[n] == '\0';
}

/*
 * Index of the header field called name (ignoring case and surrounding
 * blanks); -1 if there is none, -2 if there are two.
 */
int
le_cat_find_column(const le_csv_field *hdr, int n, const char *name)
{
	int			found = -1;

	for (int i = 0; i < n; i++)
	{
		const char *p = hdr[i].ptr;
		size_t		len = hdr[i].len;

		while (len > 0 && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (eq_ci(p, len, name))
		{
			if (found >= 0)
				return -2;
			found = i;
		}
	}
	return found;
}

/* ------------------------------------------------------------------------
 * Decimal numbers
 * ------------------------------------------------------------------------ */

#define LE_NUM_MAX_EXP 300

/* Check that s[0..n) is a plain decimal (see catalog.h). */
le_num_status
le_num_syntax(const char *s, size_t n, le_str *trim, int *negative, int *zero)
{
	const char *p = s,
			   *e = s + n,
			   *q;
	int			digits = 0,
				nonzero = 0,
				neg = 0;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	trim->p = p;
	trim->n = (size_t) (e - p);
	*negative = 0;
	*zero = 0;
	if (p == e)
		return LE_NUM_EMPTY;
	if (e - p > LE_NUM_MAX_LEN)
		return LE_NUM_TOO_LONG;
	q = p;
	if (*q == '+' || *q == '-')
		neg = (*q++ == '-');
	for (; q < e && *q >= '0' && *q <= '9'; q++, digits++)
		nonzero |= (*q != '0');
	if (q < e && *q == '.')
		for (q++; q < e && *q >= '0' && *q <= '9'; q++, digits++)
			nonzero |= (*q != '0');
	if (digits == 0)
		return LE_NUM_BAD;
	if (q < e && (*q == 'e' || *q == 'E'))
	{
		long		x = 0;
		int			xdigits = 0;

		q++;
		if (q < e && (*q == '+' || *q == '-'))
			q++;
		for (; q < e && *q >= '0' && *q <= '9'; q++, xdigits++)
			if (x <= LE_NUM_MAX_EXP)
				x = x * 10 + (*q - '0');
		if (xdigits == 0)
			return LE_NUM_BAD;
		if (q == e && x > LE_NUM_MAX_EXP)
			return LE_NUM_RANGE;
	}
	if (q != e)
		return LE_NUM_BAD;
	*negative = neg;
	*zero = !nonzero;
	return LE_NUM_OK;
}

/*
 * The value of a checked decimal.  Up to 15 significant digits and a power
 * of ten up to 22 (every catalog price) it is one correctly rounded double
 * operation (Clinger's fast path); otherwise strtod on a copy.  Both give the
 * correctly rounded value, so equal prices written differently compare
 * equal.
 */
le_num_status
le_num_value(le_str t, double *v)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	const char *p = t.p,
			   *e = t.p + t.n;
	uint64_t	m = 0;
	int			sig = 0,
				scale = 0,		/* digits after the point that went into m */
				neg = 0,
				fast = 1;
	long		x = 0;
	int			xneg = 0;
	double		d;

	if (t.n == 0 || t.n > LE_NUM_MAX_LEN)
		return LE_NUM_BAD;
	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	for (int frac = 0; p < e; p++)
	{
		if (*p == '.')
		{
			frac = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		if (m == 0 && *p == '0')
		{
			if (frac)
				scale++;
			continue;			/* leading zero */
		}
		if (sig >= 15)
		{
			fast = 0;			/* too many digits for the fast path */
			break;
		}
		m = m * 10 + (uint64_t) (*p - '0');
		sig++;
		if (frac)
			scale++;
	}
	if (fast && p < e && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			xneg = (*p++ == '-');
		for (; p < e && *p >= '0' && *p <= '9'; p++)
			if (x <= 1000)
				x = x * 10 + (*p - '0');
	}
	if (fast)
	{
		long		e10 = (xneg ? -x : x) - scale;

		if (m == 0)
			d = 0.0;
		else if (e10 >= -22 && e10 <= 22)
			d = e10 < 0 ? (double) m / pow10[-e10] : (double) m * pow10[e10];
		else
			fast = 0;
	}
	if (!fast)
	{
		char		buf[LE_NUM_MAX_LEN + 1];

		memcpy(buf, t.p, t.n);
		buf[t.n] = '\0';
		d = strtod(buf, NULL);
		neg = 0;				/* strtod applied the sign */
	}
	if (!isfinite(d))
		return LE_NUM_RANGE;
	*v = neg ? -d : d;
	return LE_NUM_OK;
}

/* ------------------------------------------------------------------------
 * GCP machine families and N1-attachable GPUs (passed in: data, not code), variants
 * ------------------------------------------------------------------------ */

/* The GPUs of a GCP machine type (see catalog.h): the family by prefix, the size by exact name, else the "<N>g" ending. */
int
le_gcp_host_gpus(const le_gcp_hosts *h, const char *itype, size_t n, const char **accel, const char **alt, int *count)
{
	if (h == NULL)
		return 0;
	for (int f = 0; f < h->nfamily; f++)
	{
		const le_gcp_family *fam = &h->family[f];
		size_t		plen = strlen(fam->prefix);
		const char *p = itype + plen,
				   *e = itype + n;
		long		num = 0;
		int			ndig = 0;

		if (n <= plen || !le_ascii_eq_ci(itype, plen, fam->prefix, plen))
			continue;
		*accel = fam->accel;
		*alt = fam->alt;
		for (int z = 0; z < h->nsize; z++)
			if (eq_ci(itype, n, h->size[z].itype))
			{
				*count = h->size[z].gpus;
				return 1;
			}
		for (; p < e && *p >= '0' && *p <= '9' && ndig < 6; p++, ndig++)
			num = num * 10 + (*p - '0');
		/* "<N>g" at the end, or before a variant suffix ("a3-edgegpu-8g-nolssd": no local SSD) */
		*count = (ndig > 0 && p < e && le_ascii_lower((unsigned char) *p) == 'g' && (p + 1 == e || p[1] == '-') && num > 0)
			? (int) num : 0;
		return 1;
	}
	return 0;
}

/* GPUs that GCP attaches to N1 machines (see catalog.h). */
int
le_gcp_attachable(const le_gcp_hosts *h, const char *accel, size_t n)
{
	if (h == NULL)
		return 0;
	for (int i = 0; i < h->nattach; i++)
		if (eq_ci(accel, n, h->attach[i]))
			return 1;
	return 0;
}

/* s[0..n) contains t (lower case), ignoring case. */
static int
contains_ci(const char *s, size_t n, const char *t)
{
	size_t		tl = strlen(t);

	for (size_t i = 0; i + tl <= n; i++)
		if (le_ascii_eq_ci(s + i, tl, t, tl))
			return 1;
	return 0;
}

/* pcie when the instance type says "pcie", or "pci" not followed by a letter (Cudo's
 * intel-ice-lake-a100-pci), sxm when it says "sxm" (any case), else none. */
le_variant
le_variant_of(const char *itype, size_t n)
{
	if (itype == NULL)
		return LE_VARIANT_NONE;
	for (size_t i = 0; i + 3 <= n; i++)
		if (le_ascii_eq_ci(itype + i, 3, "pci", 3) &&
			(i + 3 == n || !((itype[i + 3] | 0x20) >= 'a' && (itype[i + 3] | 0x20) <= 'z') ||
			 (itype[i + 3] | 0x20) == 'e'))
			return LE_VARIANT_PCIE;
	if (contains_ci(itype, n, "sxm"))
		return LE_VARIANT_SXM;
	return LE_VARIANT_NONE;
}

/* The SQL text of a variant; NULL for none. */
const char *
le_variant_label(le_variant v)
{
	return v == LE_VARIANT_PCIE ? "pcie" : v == LE_VARIANT_SXM ? "sxm" : NULL;
}

/* ------------------------------------------------------------------------
 * Memory and hash tables (open addressing over indexes into entry arrays)
 * ------------------------------------------------------------------------ */

typedef struct hslot
{
	uint32_t	hash;
	int32_t		idx;			/* -1: empty */
} hslot;

typedef struct htab
{
	hslot	   *slot;
	size_t		cap;			/* power of two */
	size_t		n;
} htab;

/* Rows of one GCP machine type or accelerator in one zone. */
typedef struct zentry
{
	le_str		name;			/* InstanceType (machines) or AcceleratorName */
	le_str		region;
	le_str		zone;
	int32_t		count;			/* GPUs */
	const char *accel;			/* machines: their GPU names */
	const char *alt;
	le_str		price[2];		/* cheapest row per pricing */
	double		val[2];
	int32_t		nrows[2];		/* rows listed per pricing */
	int32_t		once[2];		/* rows, each counted once: on_demand if listed, else spot */
	int32_t		gpu_mib;		/* accelerators: GpuInfo's memory per GPU (0: not given) */
	int			used;			/* accelerators: paired with a machine */
	int			counted;		/* accelerators: rows already counted in an offer */
	uint32_t	hash;
} zentry;

typedef struct ztab
{
	zentry	   *e;
	int			n;
	int			cap;
	int			ci;				/* names compare ignoring case */
	htab		h;
} ztab;

/* Resize (or free, size 0) through the caller's allocator. */
static void *
mem(le_catalog *c, void *p, size_t size)
{
	return c->alloc(c->ctx, p, size);
}

/* Make room for one more element in a growing array; 0 when out of memory. */
static int
reserve(le_catalog *c, void **arr, int *cap, int n, size_t elsize)
{
	void	   *p;
	int			ncap;

	if (n < *cap)
		return 1;
	ncap = *cap ? *cap * 2 : 64;
	if (ncap <= *cap || (size_t) ncap > ((size_t) -1) / elsize)
		return 0;
	p = mem(c, *arr, elsize * (size_t) ncap);
	if (p == NULL)
		return 0;
	*arr = p;
	*cap = ncap;
	return 1;
}

/* Keep the table at most half full; 0 when out of memory. */
static int
ht_reserve(le_catalog *c, htab *t)
{
	hslot	   *ns;
	size_t		ncap;

	if ((t->n + 1) * 2 <= t->cap)
		return 1;
	ncap = t->cap ? t->cap * 2 : 128;
	ns = mem(c, NULL, sizeof(hslot) * ncap);
	if (ns == NULL)
		return 0;
	for (size_t i = 0; i < ncap; i++)
		ns[i].idx = -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].idx >= 0)
		{
			size_t		j = t->slot[i].hash & (ncap - 1);

			while (ns[j].idx >= 0)
				j = (j + 1) & (ncap - 1);
			ns[j] = t->slot[i];
		}
	if (t->slot)
		mem(c, t->slot, 0);
	t->slot = ns;
	t->cap = ncap;
	return 1;
}

typedef int (*eq_fn) (const void *entries, int32_t idx, const void *key);

/* Entry index for key, or -1 with *where = the free slot to insert at. */
static int32_t
ht_find(const htab *t, uint32_t hash, eq_fn eq, const void *entries, const void *key, size_t *where)
{
	size_t		j = hash & (t->cap - 1);

	while (t->slot[j].idx >= 0)
	{
		if (t->slot[j].hash == hash && eq(entries, t->slot[j].idx, key))
			return t->slot[j].idx;
		j = (j + 1) & (t->cap - 1);
	}
	*where = j;
	return -1;
}

/*
 * Keys are hashed with the core's keyed hash (guard.h): catalog rows are
 * input, and an unkeyed hash would let crafted names collide on purpose and
 * turn every insert into a scan of the table.
 */

/* Feed a string (optionally lower-cased), length first so that fields cannot run together. */
static void
h_str(le_hash *h, le_str s, int ci)
{
	uint64_t	n = s.p == NULL ? UINT64_MAX : (uint64_t) s.n;

	le_hash_bytes(h, &n, sizeof(n));
	if (s.p != NULL)
		for (size_t i = 0; i < s.n; i++)
			le_hash_byte(h, ci ? (unsigned char) le_ascii_lower((unsigned char) s.p[i]) : (unsigned char) s.p[i]);
}

/* Feed an integer. */
static void
h_int(le_hash *h, uint32_t v)
{
	le_hash_bytes(h, &v, sizeof(v));
}

/* Equal strings (both NULL, or same bytes; optionally ignoring case). */
static int
str_eq(le_str a, le_str b, int ci)
{
	if (a.p == NULL || b.p == NULL)
		return a.p == b.p;
	if (a.n != b.n)
		return 0;
	return ci ? le_ascii_eq_ci(a.p, a.n, b.p, b.n) : memcmp(a.p, b.p, a.n) == 0;
}

/* ---- zone entries (GCP) ---- */

typedef struct zkey
{
	le_str		name;
	le_str		region;
	le_str		zone;
	int32_t		count;
	int			ci;
} zkey;

/* Hash of a zone key: name (ignoring case for accelerators), region, zone, count. */
static uint32_t
zkey_hash(const zkey *k)
{
	le_hash		h;

	le_hash_init(&h);
	h_str(&h, k->name, k->ci);
	h_str(&h, k->region, 0);
	h_str(&h, k->zone, 0);
	h_int(&h, (uint32_t) k->count);
	return (uint32_t) le_hash_finish(&h);
}

/* Zone entry idx has this key. */
static int
zkey_eq(const void *entries, int32_t idx, const void *key)
{
	const zentry *e = &((const zentry *) entries)[idx];
	const zkey *k = key;

	return e->count == k->count && str_eq(e->name, k->name, k->ci) &&
		str_eq(e->region, k->region, 0) && str_eq(e->zone, k->zone, 0);
}

/* The zone entry for key, or -1. */
static int32_t
zfind(const ztab *z, const zkey *k)
{
	size_t		where;

	if (z->h.cap == 0)
		return -1;
	return ht_find(&z->h, zkey_hash(k), zkey_eq, z->e, k, &where);
}

/* The zone entry for key, created empty if new; NULL when out of memory. */
static zentry *
zget(le_catalog *c, ztab *z, const zkey *k)
{
	uint32_t	hash = zkey_hash(k);
	size_t		where;
	int32_t		i;
	zentry	   *e;

	if (!ht_reserve(c, &z->h))
		return NULL;
	i = ht_find(&z->h, hash, zkey_eq, z->e, k, &where);
	if (i >= 0)
		return &z->e[i];
	if (!reserve(c, (void **) &z->e, &z->cap, z->n, sizeof(zentry)))
		return NULL;
	e = &z->e[z->n];
	memset(e, 0, sizeof(*e));
	e->name = k->name;
	e->region = k->region;
	e->zone = k->zone;
	e->count = k->count;
	e->hash = hash;
	z->h.slot[where].hash = hash;
	z->h.slot[where].idx = z->n;
	z->h.n++;
	z->n++;
	return e;
}

/* Add a row's listed prices to a zone entry (keeping the cheapest). */
static void
zadd(zentry *e, const le_str price[2], const double val[2])
{
	for (int p = 0; p < 2; p++)
		if (price[p].p)
		{
			if (e->nrows[p] == 0 || val[p] < e->val[p])
			{
				e->price[p] = price[p];
				e->val[p] = val[p];
			}
			e->nrows[p]++;
		}
	if (price[0].p)
		e->once[0]++;
	else if (price[1].p)
		e->once[1]++;
}

/* ---- offers ---- */

typedef struct okey
{
	le_offer_kind kind;
	le_str		itype;
	le_str		accel;
	le_str		region;
	int32_t		gpus;
	int			pricing;
} okey;

/* Machine-type offers on GCP are keyed without the GPU name (it follows from the type). */
static uint32_t
okey_hash(const okey *k)
{
	le_hash		h;

	le_hash_init(&h);
	h_int(&h, (uint32_t) k->kind);
	h_str(&h, k->itype, 0);
	if (k->kind != LE_OFFER_GCP_HOST)
		h_str(&h, k->accel, k->kind == LE_OFFER_GCP_ACCEL);
	h_str(&h, k->region, 0);
	h_int(&h, (uint32_t) k->gpus);
	h_int(&h, (uint32_t) k->pricing);
	return (uint32_t) le_hash_finish(&h);
}

/* Offer idx has this key (GCP machine offers: the GPU name is not part of it). */
static int
okey_eq(const void *entries, int32_t idx, const void *key)
{
	const le_offer *o = &((const le_offer *) entries)[idx];
	const okey *k = key;

	return o->kind == k->kind && o->pricing == k->pricing && o->gpus == k->gpus &&
		str_eq(o->itype, k->itype, 0) && str_eq(o->region, k->region, 0) &&
		(k->kind == LE_OFFER_GCP_HOST || str_eq(o->accel, k->accel, k->kind == LE_OFFER_GCP_ACCEL));
}

/* The offer for key, created unpriced if new; NULL when out of memory. */
static le_offer *
offer_get(le_catalog *c, const okey *k)
{
	uint32_t	hash = okey_hash(k);
	size_t		where;
	int32_t		i;
	le_offer   *o;

	if (!ht_reserve(c, c->ohash))
		return NULL;
	i = ht_find(c->ohash, hash, okey_eq, c->offers, k, &where);
	if (i >= 0)
		return &c->offers[i];
	if (!reserve(c, (void **) &c->offers, &c->ocap, c->noffers, sizeof(le_offer)))
		return NULL;
	o = &c->offers[c->noffers];
	memset(o, 0, sizeof(*o));
	o->kind = k->kind;
	o->itype = k->itype;
	o->accel = k->accel;
	o->region = k->region;
	o->gpus = k->gpus;
	o->pricing = k->pricing;
	o->variant = le_variant_of(k->itype.p, k->itype.n);
	o->hash = hash;
	c->ohash->slot[where].hash = hash;
	c->ohash->slot[where].idx = c->noffers;
	c->ohash->n++;
	c->noffers++;
	return o;
}

/* A priced zone for an offer: keep it if it is the cheapest so far. */
static void
offer_price(le_offer *o, le_str price, le_str price2, double val, int32_t rows)
{
	if (!o->priced || val < o->best)
	{
		o->priced = 1;
		o->best = val;
		o->price = price;
		o->price2 = price2;
	}
	o->rows += rows;
}

/* ------------------------------------------------------------------------
 * Reading rows
 * ------------------------------------------------------------------------ */

/* Shorten a value for a message: at most 40 bytes, not cutting a UTF-8 character. */
static void
shown(char *out, size_t outsz, const char *s, size_t n)
{
	size_t		k = n;

	if (k > 40)
	{
		k = 40;
		while (k > 0 && ((unsigned char) s[k] & 0xC0) == 0x80)
			k--;
	}
	snprintf(out, outsz, "%.*s%s", (int) k, s, k < n ? "..." : "");
}

/* What is wrong with one value of a record. */
typedef enum value_problem
{
	VP_NOT_NUMBER, VP_NEGATIVE, VP_RANGE, VP_NOT_COUNT, VP_TINY
} value_problem;

/*
 * An error about one value of the record at line: 22P04 for text that is not
 * what the column holds, 22023 for a number outside what it may be.  The
 * message quotes the value (shortened), the context names the line and the
 * column.
 */
static le_status
value_error(le_error *err, long line, le_cat_col col, value_problem problem, const le_csv_field *f)
{
	char		v[64];

	shown(v, sizeof(v), f->ptr, f->len);
	switch (problem)
	{
		case VP_NOT_NUMBER:
			le_set_error(err, LE_ERR_MALFORMED, NULL, "price \"%s\" is not a number", v);
			break;
		case VP_NEGATIVE:
			le_set_error(err, LE_ERR_VALUE, NULL, "price \"%s\" is negative", v);
			break;
		case VP_RANGE:
			le_set_error(err, LE_ERR_VALUE, NULL, "price \"%s\" is out of range", v);
			break;
		case VP_NOT_COUNT:
			le_set_error(err, LE_ERR_MALFORMED, NULL, "accelerator count \"%s\" is not a positive whole number or 1/k of one", v);
			break;
		case VP_TINY:
			le_set_error(err, LE_ERR_VALUE, "Prices per GPU-hour are kept to 10 decimals; a price of 0 means not listed.",
						 "price \"%s\" is less than 0.0000000001 per GPU-hour", v);
			break;
	}
	return le_set_context(err, "catalog_csv line %ld, column \"%s\"", line, le_cat_col_name(col));
}

/*
 * A price field: *out = its text, or p NULL when not listed (empty or 0).
 * NaN, infinities, hex, negative numbers and junk are errors.
 */
static le_status
read_price(const le_csv_field *f, long line, le_cat_col col, le_str *out, le_error *err)
{
	int			neg,
				zero;
	le_str		t;

	out->p = NULL;
	out->n = 0;
	switch (le_num_syntax(f->ptr, f->len, &t, &neg, &zero))
	{
		case LE_NUM_EMPTY:
			return LE_OK;
		case LE_NUM_TOO_LONG:
			le_set_error(err, LE_ERR_TOO_LONG, NULL, "price is longer than %d characters", LE_NUM_MAX_LEN);
			return le_set_context(err, "catalog_csv line %ld, column \"%s\"", line, le_cat_col_name(col));
		case LE_NUM_RANGE:
			return value_error(err, line, col, VP_RANGE, f);
		case LE_NUM_BAD:
			return value_error(err, line, col, VP_NOT_NUMBER, f);
		case LE_NUM_OK:
			break;
	}
	if (zero)
		return LE_OK;
	if (neg)
		return value_error(err, line, col, VP_NEGATIVE, f);
	*out = t;
	return LE_OK;
}

/* AcceleratorCount of a row with an accelerator: a whole number in [1, 2^31 - 1]. */
static le_status
read_count(const le_csv_field *f, long line, int32_t *count, le_error *err)
{
	int			neg,
				zero;
	le_str		t;
	double		v;

	if (le_num_syntax(f->ptr, f->len, &t, &neg, &zero) != LE_NUM_OK || neg || zero ||
		le_num_value(t, &v) != LE_NUM_OK || v > 2147483647.0)
		return value_error(err, line, LE_COL_ACCELERATOR_COUNT, VP_NOT_COUNT, f);
	/* a slice of one GPU, 1/k of it for a whole k in 2..64, is counted -k: AWS's g6f.large
	 * is 0.125 of an L4 (skypilot-catalog catalogs/v8/aws/vms.csv at e385a0d3) */
	if (v < 1)
	{
		double		k = floor(1 / v + 0.5);

		if (k < 2 || k > 64 || fabs(1 / v - k) > 1e-3 * k)
			return value_error(err, line, LE_COL_ACCELERATOR_COUNT, VP_NOT_COUNT, f);
		*count = -(int32_t) k;
		return LE_OK;
	}
	if (v != floor(v))
		return value_error(err, line, LE_COL_ACCELERATOR_COUNT, VP_NOT_COUNT, f);
	*count = (int32_t) v;
	return LE_OK;
}

/* A field as a string; NULL when empty (or when the column is absent). */
static le_str
field_str(const le_catalog *c, le_cat_col col)
{
	le_str		s = {NULL, 0};
	int			i = c->col[col];

	if (i >= 0 && c->csv.fields[i].len > 0)
	{
		s.p = c->csv.fields[i].ptr;
		s.n = c->csv.fields[i].len;
	}
	return s;
}

/* One data record: validate it, then file it as an offer, a GCP machine or a GCP accelerator. */
static le_status
read_row(le_catalog *c, le_error *err)
{
	const le_csv_field *f = c->csv.fields;
	long		line = c->csv.rec_line;
	le_str		itype = field_str(c, LE_COL_INSTANCE_TYPE);
	le_str		accel = field_str(c, LE_COL_ACCELERATOR_NAME);
	le_str		region = field_str(c, LE_COL_REGION);
	le_str		zone = field_str(c, LE_COL_AVAILABILITY_ZONE);
	le_str		price[2];
	double		val[2] = {0, 0};
	int32_t		count = 0;
	const char *host_accel = NULL,
			   *host_alt = NULL;
	int			host_count = 0;
	enum
	{
		ROW_OFFER, ROW_HOST, ROW_ACCEL
	}			kind;

	{
		/* names price_at and the other lookups take: at most LE_NAME_MAX bytes (longer ones no lookup finds) */
		const le_cat_col names[4] = {LE_COL_INSTANCE_TYPE, LE_COL_ACCELERATOR_NAME, LE_COL_REGION, LE_COL_AVAILABILITY_ZONE};
		const le_str vals[4] = {itype, accel, region, zone};

		for (int i = 0; i < 4; i++)
			if (vals[i].n > LE_NAME_MAX)
			{
				le_set_error(err, LE_ERR_TOO_LONG, NULL, "%s is longer than %d bytes (%zu)",
							 le_cat_col_name(names[i]), LE_NAME_MAX, vals[i].n);
				return le_set_context(err, "catalog_csv line %ld, column \"%s\"", line, le_cat_col_name(names[i]));
			}
	}
	if (read_price(&f[c->col[LE_COL_PRICE]], line, LE_COL_PRICE, &price[0], err) != LE_OK)
		return err->status;
	price[1].p = NULL;
	price[1].n = 0;
	if (c->col[LE_COL_SPOT_PRICE] >= 0 &&
		read_price(&f[c->col[LE_COL_SPOT_PRICE]], line, LE_COL_SPOT_PRICE, &price[1], err) != LE_OK)
		return err->status;

	if (accel.p)
	{
		if (read_count(&f[c->col[LE_COL_ACCELERATOR_COUNT]], line, &count, err) != LE_OK)
			return err->status;
		kind = (c->gcp && itype.p == NULL) ? ROW_ACCEL : ROW_OFFER;
	}
	else if (c->gcp && itype.p && le_gcp_host_gpus(c->gcp_hosts, itype.p, itype.n, &host_accel, &host_alt, &host_count))
		kind = ROW_HOST;
	else
		return LE_OK;			/* a CPU machine: not an offer */

	/* GCP pairs machine and accelerator rows by zone, so its rows need one; another cloud's
	 * offer without a region is provider-wide (region NULL: IBM lists some so) */
	if (region.p == NULL && kind != ROW_OFFER)
	{
		le_set_error(err, LE_ERR_MALFORMED, "An offer of a GPU needs the region it is in.", "region is empty");
		return le_set_context(err, "catalog_csv line %ld, column \"%s\"", line, le_cat_col_name(LE_COL_REGION));
	}
	for (int p = 0; p < 2; p++)
	{
		int32_t		gpus = kind == ROW_HOST ? host_count : count;

		if (price[p].p && le_num_value(price[p], &val[p]) != LE_NUM_OK)
			return value_error(err, line, p ? LE_COL_SPOT_PRICE : LE_COL_PRICE, VP_RANGE,
							   &f[c->col[p ? LE_COL_SPOT_PRICE : LE_COL_PRICE]]);
		/* per GPU it would round to 0 at 10 decimals: a price no table may hold (> 0) */
		if (price[p].p && ((gpus > 0 && val[p] / gpus < 0.5e-10) || (gpus < 0 && val[p] * -gpus < 0.5e-10)))
			return value_error(err, line, p ? LE_COL_SPOT_PRICE : LE_COL_PRICE, VP_TINY,
							   &f[c->col[p ? LE_COL_SPOT_PRICE : LE_COL_PRICE]]);
	}

	if (kind == ROW_OFFER)
	{
		for (int p = 0; p < 2; p++)
			if (price[p].p)
			{
				okey		k = {LE_OFFER_INSTANCE, itype, accel, region, count, p};
				le_offer   *o = offer_get(c, &k);

				if (o == NULL)
					goto oom;
				if (o->vcpus.p == NULL && o->memory.p == NULL)
				{
					/* the machine's size, for the importer's comparison with its siblings */
					o->vcpus = field_str(c, LE_COL_VCPUS);
					o->memory = field_str(c, LE_COL_MEMORY_GIB);
				}
				if (o->gpu_mib == 0)
				{
					le_str		gi = field_str(c, LE_COL_GPU_INFO);

					o->gpu_mib = le_gpuinfo_mib(gi.p, gi.n);
					/* a slice's GpuInfo states its share (g6f.large: 2861 MiB, 1/8 of an L4's 22888) */
					if (o->gpus < 0 && o->gpu_mib > 0 && o->gpu_mib <= 16777216 / -o->gpus)
						o->gpu_mib *= -o->gpus;
					/* the form factor GpuInfo names when the instance type does not: Scaleway's
					 * H100-1-80G is "NVIDIA H100 PCIe" (skypilot-catalog catalogs/v5/scaleway/vms.csv) */
					if (o->variant == LE_VARIANT_NONE)
						o->variant = le_variant_of(gi.p, gi.n);
				}
				/* else the one the provider's own name for the machine says: PrimeIntellect's
				 * runpod__1xA100_80GB__8__117 is "NVIDIA A100 80GB PCIe" there, its
				 * runpod__1xA100_80GB__16__125 "NVIDIA A100-SXM4-80GB" (skypilot-catalog
				 * catalogs/v7/primeintellect/vms.csv at 0e770cca) */
				if (o->variant == LE_VARIANT_NONE)
				{
					le_str		up = field_str(c, LE_COL_UPSTREAM_CLOUD_ID);

					o->variant = le_variant_of(up.p, up.n);
				}
				/* a row counts once: in its on-demand offer when it has one */
				offer_price(o, price[p], (le_str) {NULL, 0}, val[p], (p == 0 || !price[0].p) ? 1 : 0);
			}
	}
	else
	{
		zkey		k;
		zentry	   *e;

		k.name = kind == ROW_HOST ? itype : accel;
		k.region = region;
		k.zone = zone;
		k.count = kind == ROW_HOST ? host_count : count;
		k.ci = kind == ROW_ACCEL;
		e = zget(c, kind == ROW_HOST ? c->hosts : c->accels, &k);
		if (e == NULL)
			goto oom;
		e->accel = host_accel;
		e->alt = host_alt;
		/* GCP writes GpuInfo's memory on the accelerator row (catalogs/v7/gcp/vms.csv at 6f65ab58:
		 * "{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]}", no name), for the machine it pairs with too */
		if (kind == ROW_ACCEL && e->gpu_mib == 0)
		{
			le_str		gi = field_str(c, LE_COL_GPU_INFO);

			e->gpu_mib = le_gpuinfo_mib(gi.p, gi.n);
		}
		zadd(e, price, val);
	}
	return LE_OK;

oom:
	return le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
}

/* GCP: pair machine rows with accelerator rows zone by zone, then place what is left. */
static le_status
pair_gcp(le_catalog *c, le_error *err)
{
	ztab	   *hz = c->hosts,
			   *az = c->accels;

	for (int i = 0; i < hz->n; i++)
	{
		zentry	   *h = &hz->e[i];
		zentry	   *a = NULL;

		le_check_interrupts();
		if (h->count > 0)
		{
			const char *names[2] = {h->accel, h->alt};

			for (int j = 0; j < 2 && a == NULL && names[j]; j++)
			{
				zkey		k = {{names[j], strlen(names[j])}, h->region, h->zone, h->count, 1};
				int32_t		ai = zfind(az, &k);

				if (ai >= 0)
					a = &az->e[ai];
			}
		}
		if (a)
			a->used = 1;
		for (int p = 0; p < 2; p++)
		{
			okey		k = {LE_OFFER_GCP_HOST, h->name, {h->accel, strlen(h->accel)}, h->region, h->count, p};
			le_offer   *o;

			if (h->nrows[p] == 0 || (a && a->nrows[p] == 0))
				continue;		/* not listed for this pricing */
			o = offer_get(c, &k);
			if (o == NULL)
				goto oom;
			if (a == NULL)
			{
				o->rows += h->once[p];
				continue;
			}
			if (!o->accel_paired)
			{
				o->accel = a->name;
				o->accel_paired = 1;
			}
			if (o->gpu_mib == 0)
				o->gpu_mib = a->gpu_mib;
			/* an accelerator row two machine types share counts with the first */
			offer_price(o, h->price[p], a->price[p], h->val[p] + a->val[p],
						h->once[p] + (a->counted ? 0 : a->once[p]));
		}
		if (a)
			a->counted = 1;
	}
	for (int i = 0; i < az->n; i++)
	{
		zentry	   *a = &az->e[i];
		int			attach = le_gcp_attachable(c->gcp_hosts, a->name.p, a->name.n);

		le_check_interrupts();

		if (a->used)
			continue;
		for (int p = 0; p < 2; p++)
		{
			okey		k = {LE_OFFER_GCP_ACCEL, {NULL, 0}, a->name, a->region, a->count, p};
			le_offer   *o;

			if (a->nrows[p] == 0)
				continue;
			o = offer_get(c, &k);
			if (o == NULL)
				goto oom;
			if (o->gpu_mib == 0)
				o->gpu_mib = a->gpu_mib;
			if (attach)
				offer_price(o, a->price[p], (le_str) {NULL, 0}, a->val[p], a->once[p]);
			else
				o->rows += a->once[p];
		}
	}
	return LE_OK;

oom:
	return le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
}

/* The CSV reader's error: 22P04 at the record's line (54000 past a size limit), or out of memory. */
static le_status
csv_error(le_catalog *c, le_error *err)
{
	char		detail[128];

	if (c->csv.err_oom)
		return le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
	le_csv_error_detail(&c->csv, 0, detail, sizeof(detail));
	le_set_error(err, c->csv.err_limit ? LE_ERR_TOO_LONG : LE_ERR_MALFORMED, detail[0] ? detail : NULL, "%s", c->csv.err);
	return le_set_context(err, "catalog_csv line %ld", c->csv.err_line);
}

/* Read the header and find the columns by name. */
static le_status
read_header(le_catalog *c, le_error *err)
{
	le_csv_status st = le_csv_next(&c->csv);
	int			k,
				other;

	if (st == LE_CSV_ERROR)
		return csv_error(c, err);
	if (st == LE_CSV_EOF)
		return le_set_error(err, LE_ERR_MALFORMED, "A header line with the column names is required.",
							"catalog_csv is empty");
	/* bounded header: a column count and name lengths a real catalog never reaches */
	switch (le_csv_check_header(&c->csv, 0, &k, &other))
	{
		case LE_CSV_HDR_TOO_MANY:
			le_set_error(err, LE_ERR_TOO_LONG, NULL, "the header has %d columns, more than the %d allowed",
						 c->csv.nfields, LE_CSV_MAX_COLUMNS);
			return le_set_context(err, "catalog_csv line %ld", c->csv.rec_line);
		case LE_CSV_HDR_LONG_NAME:
			le_set_error(err, LE_ERR_TOO_LONG, NULL, "the name of column %d is %zu bytes long, more than the %d allowed",
						 k + 1, c->csv.fields[k].len, LE_NAME_MAX);
			return le_set_context(err, "catalog_csv line %ld", c->csv.rec_line);
		default:
			break;				/* unnamed or repeated columns matter only if required (below) */
	}
	c->ncols = c->csv.nfields;
	le_csv_set_width(&c->csv, c->ncols);	/* a wider record stops at its first extra field */
	for (int i = 0; i < LE_COL__COUNT; i++)
	{
		k = le_cat_find_column(c->csv.fields, c->csv.nfields, col_names[i]);

		if (k == -2)
		{
			le_set_error(err, LE_ERR_MALFORMED, "Columns are found by header name, ignoring case.",
						 "the header names column \"%s\" twice", col_names[i]);
			return le_set_context(err, "catalog_csv line %ld", c->csv.rec_line);
		}
		if (k == -1 && i < LE_COL__REQUIRED)
			return le_set_error(err, LE_ERR_MALFORMED,
								"Columns are found by header name; the required ones are InstanceType, AcceleratorName, AcceleratorCount, Price and Region.",
								"catalog_csv has no \"%s\" column", col_names[i]);
		c->col[i] = k;
	}
	return LE_OK;
}

/* Read a whole catalog into offers (see catalog.h). */
le_status
le_catalog_offers(const char *buf, size_t len, const le_gcp_hosts *gcp, le_alloc_fn alloc, void *ctx,
				  le_offers *out, le_error *err)
{
	le_catalog *c;
	le_csv_status st;

	memset(out, 0, sizeof(*out));
	c = alloc(ctx, NULL, sizeof(le_catalog) + 2 * sizeof(ztab) + sizeof(htab));
	if (c == NULL)
		return le_set_error(err, LE_ERR_NO_MEMORY, NULL, "out of memory");
	memset(c, 0, sizeof(le_catalog) + 2 * sizeof(ztab) + sizeof(htab));
	out->state = c;
	c->alloc = alloc;
	c->ctx = ctx;
	c->gcp = gcp != NULL;
	c->gcp_hosts = gcp;
	c->hosts = (ztab *) (c + 1);
	c->accels = c->hosts + 1;
	c->accels->ci = 1;
	c->ohash = (htab *) (c->accels + 1);
	le_csv_init(&c->csv, buf, len, alloc, ctx);

	if (read_header(c, err) != LE_OK)
		return err->status;		/* 22P04, or 54000 for a header beyond the limits */
	while ((st = le_csv_next(&c->csv)) == LE_CSV_RECORD)
	{
		le_check_interrupts();
		c->data_rows++;
		if (c->csv.nfields != c->ncols)
		{
			if (c->csv.nfields == 1)
				le_set_error(err, LE_ERR_MALFORMED, NULL, "record has 1 field, but the header has %d", c->ncols);
			else
				le_set_error(err, LE_ERR_MALFORMED, NULL, "record has %d fields, but the header has %d",
							 c->csv.nfields, c->ncols);
			return le_set_context(err, "catalog_csv line %ld", c->csv.rec_line);
		}
		if (read_row(c, err) != LE_OK)
			return err->status;
	}
	if (st == LE_CSV_ERROR)
		return csv_error(c, err);
	if (gcp && pair_gcp(c, err) != LE_OK)
		return err->status;
	out->offer = c->offers;
	out->n = c->noffers;
	out->data_rows = c->data_rows;
	return LE_OK;
}

/* Free everything le_catalog_offers allocated (safe on a failed or empty result). */
void
le_offers_free(le_offers *out)
{
	le_catalog *c = out->state;

	if (c == NULL)
		return;
	le_csv_free(&c->csv);
	for (int z = 0; z < 2; z++)
	{
		ztab	   *t = z ? c->accels : c->hosts;

		if (t->e)
			mem(c, t->e, 0);
		if (t->h.slot)
			mem(c, t->h.slot, 0);
	}
	if (c->offers)
		mem(c, c->offers, 0);
	if (c->ohash->slot)
		mem(c, c->ohash->slot, 0);
	c->alloc(c->ctx, c, 0);
	memset(out, 0, sizeof(*out));
}
