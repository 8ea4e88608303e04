/* md5.c: MD5 (RFC 1321) in plain C: the charge identity of FOCUS lines, hashed once per line; kept rather than PostgreSQL's common/md5.h, which needs c.h and would bring PostgreSQL headers into the core. */
#include "md5.h"

#include <string.h>

/*
 * Why not PostgreSQL's pg_md5_binary: with OpenSSL 3 each call creates and
 * frees an EVP context (allocations, a lock), and a staged FOCUS load makes
 * one call per line.  The digest is MD5's: the unit tests check the RFC 1321
 * test suite and messages around the padding's boundaries.
 *
 * The algorithm follows RFC 1321 (Rivest, 1992), sections 3.1-3.5: pad with
 * one 1 bit and zeros to 56 bytes mod 64, append the bit length (64 bits,
 * little-endian), then four rounds of 16 steps per 64-byte block (md5_block).
 */

static inline uint32_t
rotl32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

/* One step i: a = b + ((a + f(b, c, d) + x[g] + k[i]) <<< r), with the four functions of RFC 1321, 3.4. */
#define MD5_F(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define MD5_G(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define MD5_H(b, c, d) ((b) ^ (c) ^ (d))
#define MD5_I(b, c, d) ((c) ^ ((b) | ~(d)))
#define MD5_STEP(fn, a, b, c, d, g, k, r) ((a) = (b) + rotl32((a) + fn(b, c, d) + x[g] + (uint32_t) (k), r))

/*
 * One 64-byte block into the state: the 64 steps written out, each with its
 * word x[g], its constant k[i] = floor(2^32 |sin(i + 1)|) and its rotation
 * (RFC 1321, 3.4), so that the compiler sees constants only.
 */
static void
md5_block(uint32_t s[4], const unsigned char *p)
{
	uint32_t	x[16];
	uint32_t	a = s[0],
				b = s[1],
				c = s[2],
				d = s[3];

	for (int i = 0; i < 16; i++)
		x[i] = (uint32_t) p[4 * i] | ((uint32_t) p[4 * i + 1] << 8) |
			((uint32_t) p[4 * i + 2] << 16) | ((uint32_t) p[4 * i + 3] << 24);
	/* round 1: x[i] */
	MD5_STEP(MD5_F, a, b, c, d, 0, 0xd76aa478, 7);
	MD5_STEP(MD5_F, d, a, b, c, 1, 0xe8c7b756, 12);
	MD5_STEP(MD5_F, c, d, a, b, 2, 0x242070db, 17);
	MD5_STEP(MD5_F, b, c, d, a, 3, 0xc1bdceee, 22);
	MD5_STEP(MD5_F, a, b, c, d, 4, 0xf57c0faf, 7);
	MD5_STEP(MD5_F, d, a, b, c, 5, 0x4787c62a, 12);
	MD5_STEP(MD5_F, c, d, a, b, 6, 0xa8304613, 17);
	MD5_STEP(MD5_F, b, c, d, a, 7, 0xfd469501, 22);
	MD5_STEP(MD5_F, a, b, c, d, 8, 0x698098d8, 7);
	MD5_STEP(MD5_F, d, a, b, c, 9, 0x8b44f7af, 12);
	MD5_STEP(MD5_F, c, d, a, b, 10, 0xffff5bb1, 17);
	MD5_STEP(MD5_F, b, c, d, a, 11, 0x895cd7be, 22);
	MD5_STEP(MD5_F, a, b, c, d, 12, 0x6b901122, 7);
	MD5_STEP(MD5_F, d, a, b, c, 13, 0xfd987193, 12);
	MD5_STEP(MD5_F, c, d, a, b, 14, 0xa679438e, 17);
	MD5_STEP(MD5_F, b, c, d, a, 15, 0x49b40821, 22);
	/* round 2: x[(5 i + 1) mod 16] */
	MD5_STEP(MD5_G, a, b, c, d, 1, 0xf61e2562, 5);
	MD5_STEP(MD5_G, d, a, b, c, 6, 0xc040b340, 9);
	MD5_STEP(MD5_G, c, d, a, b, 11, 0x265e5a51, 14);
	MD5_STEP(MD5_G, b, c, d, a, 0, 0xe9b6c7aa, 20);
	MD5_STEP(MD5_G, a, b, c, d, 5, 0xd62f105d, 5);
	MD5_STEP(MD5_G, d, a, b, c, 10, 0x02441453, 9);
	MD5_STEP(MD5_G, c, d, a, b, 15, 0xd8a1e681, 14);
	MD5_STEP(MD5_G, b, c, d, a, 4, 0xe7d3fbc8, 20);
	MD5_STEP(MD5_G, a, b, c, d, 9, 0x21e1cde6, 5);
	MD5_STEP(MD5_G, d, a, b, c, 14, 0xc33707d6, 9);
	MD5_STEP(MD5_G, c, d, a, b, 3, 0xf4d50d87, 14);
	MD5_STEP(MD5_G, b, c, d, a, 8, 0x455a14ed, 20);
	MD5_STEP(MD5_G, a, b, c, d, 13, 0xa9e3e905, 5);
	MD5_STEP(MD5_G, d, a, b, c, 2, 0xfcefa3f8, 9);
	MD5_STEP(MD5_G, c, d, a, b, 7, 0x676f02d9, 14);
	MD5_STEP(MD5_G, b, c, d, a, 12, 0x8d2a4c8a, 20);
	/* round 3: x[(3 i + 5) mod 16] */
	MD5_STEP(MD5_H, a, b, c, d, 5, 0xfffa3942, 4);
	MD5_STEP(MD5_H, d, a, b, c, 8, 0x8771f681, 11);
	MD5_STEP(MD5_H, c, d, a, b, 11, 0x6d9d6122, 16);
	MD5_STEP(MD5_H, b, c, d, a, 14, 0xfde5380c, 23);
	MD5_STEP(MD5_H, a, b, c, d, 1, 0xa4beea44, 4);
	MD5_STEP(MD5_H, d, a, b, c, 4, 0x4bdecfa9, 11);
	MD5_STEP(MD5_H, c, d, a, b, 7, 0xf6bb4b60, 16);
	MD5_STEP(MD5_H, b, c, d, a, 10, 0xbebfbc70, 23);
	MD5_STEP(MD5_H, a, b, c, d, 13, 0x289b7ec6, 4);
	MD5_STEP(MD5_H, d, a, b, c, 0, 0xeaa127fa, 11);
	MD5_STEP(MD5_H, c, d, a, b, 3, 0xd4ef3085, 16);
	MD5_STEP(MD5_H, b, c, d, a, 6, 0x04881d05, 23);
	MD5_STEP(MD5_H, a, b, c, d, 9, 0xd9d4d039, 4);
	MD5_STEP(MD5_H, d, a, b, c, 12, 0xe6db99e5, 11);
	MD5_STEP(MD5_H, c, d, a, b, 15, 0x1fa27cf8, 16);
	MD5_STEP(MD5_H, b, c, d, a, 2, 0xc4ac5665, 23);
	/* round 4: x[7 i mod 16] */
	MD5_STEP(MD5_I, a, b, c, d, 0, 0xf4292244, 6);
	MD5_STEP(MD5_I, d, a, b, c, 7, 0x432aff97, 10);
	MD5_STEP(MD5_I, c, d, a, b, 14, 0xab9423a7, 15);
	MD5_STEP(MD5_I, b, c, d, a, 5, 0xfc93a039, 21);
	MD5_STEP(MD5_I, a, b, c, d, 12, 0x655b59c3, 6);
	MD5_STEP(MD5_I, d, a, b, c, 3, 0x8f0ccc92, 10);
	MD5_STEP(MD5_I, c, d, a, b, 10, 0xffeff47d, 15);
	MD5_STEP(MD5_I, b, c, d, a, 1, 0x85845dd1, 21);
	MD5_STEP(MD5_I, a, b, c, d, 8, 0x6fa87e4f, 6);
	MD5_STEP(MD5_I, d, a, b, c, 15, 0xfe2ce6e0, 10);
	MD5_STEP(MD5_I, c, d, a, b, 6, 0xa3014314, 15);
	MD5_STEP(MD5_I, b, c, d, a, 13, 0x4e0811a1, 21);
	MD5_STEP(MD5_I, a, b, c, d, 4, 0xf7537e82, 6);
	MD5_STEP(MD5_I, d, a, b, c, 11, 0xbd3af235, 10);
	MD5_STEP(MD5_I, c, d, a, b, 2, 0x2ad7d2bb, 15);
	MD5_STEP(MD5_I, b, c, d, a, 9, 0xeb86d391, 21);
	s[0] += a;
	s[1] += b;
	s[2] += c;
	s[3] += d;
}

void
le_md5_init(le_md5 *m)
{
	m->s[0] = 0x67452301;
	m->s[1] = 0xefcdab89;
	m->s[2] = 0x98badcfe;
	m->s[3] = 0x10325476;
	m->bytes = 0;
}

void
le_md5_update(le_md5 *m, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t		have = (size_t) (m->bytes & 63);

	m->bytes += n;
	if (have > 0)
	{
		size_t		take = 64 - have < n ? 64 - have : n;

		memcpy(m->buf + have, p, take);
		p += take;
		n -= take;
		if (have + take < 64)
			return;
		md5_block(m->s, m->buf);
	}
	for (; n >= 64; p += 64, n -= 64)
		md5_block(m->s, p);
	if (n > 0)
		memcpy(m->buf, p, n);
}

void
le_md5_final(le_md5 *m, unsigned char digest[16])
{
	static const unsigned char pad[64] = {0x80};
	unsigned char len[8];
	uint64_t	bits = m->bytes * 8;
	size_t		have = (size_t) (m->bytes & 63);

	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char) (bits >> (8 * i));
	le_md5_update(m, pad, have < 56 ? 56 - have : 120 - have);
	le_md5_update(m, len, 8);
	for (int i = 0; i < 4; i++)
	{
		digest[4 * i] = (unsigned char) m->s[i];
		digest[4 * i + 1] = (unsigned char) (m->s[i] >> 8);
		digest[4 * i + 2] = (unsigned char) (m->s[i] >> 16);
		digest[4 * i + 3] = (unsigned char) (m->s[i] >> 24);
	}
}

void
le_md5_bytes(const void *data, size_t n, unsigned char digest[16])
{
	le_md5		m;

	le_md5_init(&m);
	le_md5_update(&m, data, n);
	le_md5_final(&m, digest);
}

void
le_md5_hex(const unsigned char digest[16], char hex[33])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 16; i++)
	{
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[32] = '\0';
}
