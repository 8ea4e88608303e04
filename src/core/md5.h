/* md5.h: MD5 (RFC 1321) in plain C, for the charge identity of FOCUS lines (no PostgreSQL headers). */
#ifndef LLM_ECON_MD5_H
#define LLM_ECON_MD5_H

#include <stddef.h>
#include <stdint.h>

/* An MD5 computation in progress: le_md5_init, le_md5_update any number of times, le_md5_final. */
typedef struct le_md5
{
	uint32_t	s[4];			/* the chaining state A, B, C, D */
	uint64_t	bytes;			/* message length so far */
	unsigned char buf[64];		/* a partial block */
} le_md5;

extern void le_md5_init(le_md5 *m);
extern void le_md5_update(le_md5 *m, const void *data, size_t n);
extern void le_md5_final(le_md5 *m, unsigned char digest[16]);

/* The digest of n bytes at data, in one call. */
extern void le_md5_bytes(const void *data, size_t n, unsigned char digest[16]);

/* The digest as 32 lower-case hex digits and a NUL (as PostgreSQL's md5() prints it). */
extern void le_md5_hex(const unsigned char digest[16], char hex[33]);

#endif
