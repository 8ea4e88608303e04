/* guard.c: the core's interrupt hook, its keyed hash (SipHash-1-3) and UTF-8-safe clipping. */
#include "guard.h"

void		(*le_interrupt_hook) (void) = NULL;

/* The key of every le_hash; the host replaces it with random bytes at load time. */
static uint64_t seed_k0 = 0x0706050403020100ULL;
static uint64_t seed_k1 = 0x0f0e0d0c0b0a0908ULL;

/* Little-endian 64-bit word from 8 bytes. */
static uint64_t
le64(const unsigned char *p)
{
	uint64_t	v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void
le_hash_set_seed(const unsigned char seed[16])
{
	seed_k0 = le64(seed);
	seed_k1 = le64(seed + 8);
}

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

/* One SipRound: the ARX permutation of the four state words. */
static void
sipround(le_hash *h)
{
	h->v0 += h->v1;
	h->v1 = ROTL(h->v1, 13);
	h->v1 ^= h->v0;
	h->v0 = ROTL(h->v0, 32);
	h->v2 += h->v3;
	h->v3 = ROTL(h->v3, 16);
	h->v3 ^= h->v2;
	h->v0 += h->v3;
	h->v3 = ROTL(h->v3, 21);
	h->v3 ^= h->v0;
	h->v2 += h->v1;
	h->v1 = ROTL(h->v1, 17);
	h->v1 ^= h->v2;
	h->v2 = ROTL(h->v2, 32);
}

/* Absorb one 64-bit message word (c = 1 compression round). */
static void
absorb(le_hash *h, uint64_t m)
{
	h->v3 ^= m;
	sipround(h);
	h->v0 ^= m;
}

void
le_hash_init(le_hash *h)
{
	/* the initialisation constants spell "somepseudorandomlygeneratedbytes" */
	h->v0 = seed_k0 ^ 0x736f6d6570736575ULL;
	h->v1 = seed_k1 ^ 0x646f72616e646f6dULL;
	h->v2 = seed_k0 ^ 0x6c7967656e657261ULL;
	h->v3 = seed_k1 ^ 0x7465646279746573ULL;
	h->tail = 0;
	h->total = 0;
}

void
le_hash_byte(le_hash *h, unsigned char b)
{
	h->tail |= (uint64_t) b << (8 * (h->total & 7));
	h->total++;
	if ((h->total & 7) == 0)
	{
		absorb(h, h->tail);
		h->tail = 0;
	}
}

void
le_hash_bytes(le_hash *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		le_hash_byte(h, b[i]);
}

/* The hash of everything fed so far (h itself is left unchanged). */
uint64_t
le_hash_finish(const le_hash *h)
{
	le_hash		f = *h;

	/* last word: the pending bytes, with the length's low byte on top */
	absorb(&f, f.tail | ((uint64_t) (f.total & 0xff) << 56));
	f.v2 ^= 0xff;
	for (int i = 0; i < 3; i++)	/* d = 3 finalisation rounds */
		sipround(&f);
	return f.v0 ^ f.v1 ^ f.v2 ^ f.v3;
}

size_t
le_utf8_clip(const char *s, size_t len, size_t max)
{
	size_t		n;

	if (len <= max)
		return len;
	n = max;
	/* back off continuation bytes (10xxxxxx) to the start of the cut character */
	while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

size_t
le_utf8_complete(const char *s, size_t len)
{
	size_t		lead = len;
	size_t		need;
	unsigned char c;

	/* the last byte that is not a continuation byte starts the last sequence */
	while (lead > 0 && ((unsigned char) s[lead - 1] & 0xC0) == 0x80 && len - lead < 3)
		lead--;
	if (lead == 0)
		return len;
	c = (unsigned char) s[lead - 1];
	need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
	return len - (lead - 1) < need ? lead - 1 : len;
}
