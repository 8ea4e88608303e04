/* series.c: the id of a price series (sku, provider, pricing, region, instance_type), a stable 64-bit hash of the key. */
#include "series.h"

/*
 * Why a hash and not a counter: the id is a pure function of the key, so price_snapshot can store
 * it as a generated column (no lookup, no trigger per row, the same value after a dump and
 * restore or an update), and price_series can key on it.  Two keys with one id cannot both be
 * stored: price_series' primary key and price_snapshot's unique (series_id, observed_at) refuse
 * the second, so a collision is an error, never a mixed series.  For n series the chance of any
 * collision is about n^2 / 2^65 (5e-9 for a million series).
 *
 * FNV-1a (Fowler, Noll and Vo; constants from the IETF draft draft-eastlake-fnv) over an
 * unambiguous encoding of the fields: per field a marker byte (0 = NULL, 1 = value), the length
 * in 4 little-endian bytes, then the bytes.  FNV-1a's low bits mix poorly, so the result goes
 * through the finaliser of SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014), a bijection: it cannot add collisions.
 */

#define LE_FNV64_PRIME UINT64_C(0x100000001b3)

uint64_t
le_fnv1a64(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++)
	{
		h ^= p[i];
		h *= LE_FNV64_PRIME;
	}
	return h;
}

int64_t
le_series_id(const char *const ptr[LE_SERIES_KEY_FIELDS], const size_t len[LE_SERIES_KEY_FIELDS])
{
	uint64_t	h = LE_FNV64_OFFSET;

	for (int f = 0; f < LE_SERIES_KEY_FIELDS; f++)
	{
		unsigned char head[5];
		uint64_t	n = ptr[f] ? (uint64_t) len[f] : 0;

		head[0] = ptr[f] ? 1 : 0;
		for (int b = 0; b < 4; b++)
			head[1 + b] = (unsigned char) (n >> (8 * b));
		h = le_fnv1a64(h, head, sizeof head);
		if (ptr[f])
			h = le_fnv1a64(h, ptr[f], len[f]);
	}
	h ^= h >> 30;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	h ^= h >> 27;
	h *= UINT64_C(0x94d049bb133111eb);
	h ^= h >> 31;
	/* two's complement, without relying on the implementation-defined conversion */
	return h <= (uint64_t) INT64_MAX ? (int64_t) h : -(int64_t) (~h) - 1;
}
