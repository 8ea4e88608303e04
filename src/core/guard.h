/* guard.h: bounds on what the plain-C core accepts, its interrupt hook, a keyed hash and UTF-8-safe clipping (no PostgreSQL headers). */
#ifndef LLM_ECON_GUARD_H
#define LLM_ECON_GUARD_H

#include <stddef.h>
#include <stdint.h>

/*
 * The longest name accepted anywhere (SKU, alias, provider, region, instance
 * type, CSV header name), in bytes.  Real names are under 64; the limit keeps
 * every search over names (close matches, header checks) cheap whatever a
 * caller passes, and every message that quotes a name short.
 */
#define LE_NAME_MAX 256

/* The most columns a CSV header may have (PostgreSQL's own limit for a table). */
#define LE_CSV_MAX_COLUMNS 1600

/*
 * The most bytes one CSV record may span (8 MB): a line of a real FOCUS
 * export is under 2 KB, of a SkyPilot catalog under 200 bytes.  Every caller
 * turns a record into a row of about its size, so this bounds a row's memory.
 */
#define LE_CSV_MAX_RECORD ((size_t) 8 << 20)

/* The CSV reader checks for interrupts after reading this many bytes (a field counts 64). */
#define LE_CSV_CHECK_EVERY ((size_t) 64 << 10)

/*
 * CSV rows turned into keyed records (FOCUS lines as jsonb) repeat the header
 * names in every row; all the records of one text may take at most this many
 * times the text's size, plus 64 MB.
 */
#define LE_CSV_MAX_EXPANSION 8

/*
 * Long loops of the core call le_check_interrupts().  The host sets the hook
 * (PostgreSQL: a function running CHECK_FOR_INTERRUPTS, which may not return:
 * every allocation of the core goes through the host's allocator, so an
 * error thrown from the hook loses nothing).  NULL (unit tests, fuzzers): no-op.
 */
extern void (*le_interrupt_hook) (void);

static inline void
le_check_interrupts(void)
{
	if (le_interrupt_hook)
		le_interrupt_hook();
}

/*
 * SipHash-1-3 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * INDOCRYPT 2012), keyed by a per-process seed: hash tables fed with names an
 * attacker chooses cannot be flooded with collisions without knowing the seed.
 * Incremental: init, feed bytes, finish.
 */
typedef struct le_hash
{
	uint64_t	v0,
				v1,
				v2,
				v3;
	uint64_t	tail;			/* pending bytes, little-endian */
	size_t		total;			/* bytes fed */
} le_hash;

extern void le_hash_set_seed(const unsigned char seed[16]);
extern void le_hash_init(le_hash *h);
extern void le_hash_byte(le_hash *h, unsigned char b);
extern void le_hash_bytes(le_hash *h, const void *p, size_t n);
extern uint64_t le_hash_finish(const le_hash *h);

/*
 * The longest prefix of s[0..len) of at most max bytes that does not end
 * inside a UTF-8 sequence (a cut never leaves half a character).
 */
extern size_t le_utf8_clip(const char *s, size_t len, size_t max);

/* len without a trailing incomplete UTF-8 sequence (what a byte-limited copy may leave). */
extern size_t le_utf8_complete(const char *s, size_t len);

#endif							/* LLM_ECON_GUARD_H */
