/* charge.h: the identity of a FOCUS charge in plain C (no PostgreSQL headers): canonical decimals and the identity digest. */
#ifndef LLM_ECON_CHARGE_H
#define LLM_ECON_CHARGE_H

#include <stddef.h>
#include <stdint.h>

#include "md5.h"

/*
 * Room for the canonical text of a decimal of n bytes: its digits, a sign,
 * "e", and an exponent of up to 21 characters.
 */
#define LE_DECIMAL_CANON_SIZE(n) ((n) + 24)

/*
 * The canonical text of the decimal s (n bytes: [-+]digits[.digits] or
 * [-+].digits, then optionally e or E, a sign and 1 to 3 digits): two texts
 * have the same canonical text exactly when they are the same number
 * (2.000 = 2 = 2e0 = 0.2E1, -0 = 0).  Written to out (at least
 * LE_DECIMAL_CANON_SIZE(n) bytes) with a NUL; returns its length, or -1 when
 * s is not such a decimal.
 */
extern int	le_decimal_canon(const char *s, size_t n, char *out);

/*
 * The decimal s (n bytes, the form le_decimal_canon reads) as mantissa x
 * 10^-scale, where mantissa holds every written digit but the leading zeros
 * (trailing zeros count: "2.50" is 250 and scale 2, as numeric_in keeps its
 * display scale): 1 when it fits (at most 18 such digits), 0 when it is a
 * decimal with more digits, -1 when it is not a decimal.
 */
extern int	le_decimal_parse(const char *s, size_t n, int64_t *mantissa, int *scale);

/*
 * The charge identity: an MD5 over the provider key and then each identity
 * field in a fixed order, every one written as its length and then its bytes,
 * so that no two lists of fields give the same bytes: a NULL is the byte
 * 0xFF; a value of fewer than 254 bytes, one byte holding its length; a
 * longer one, 0xFE and its length in 4 little-endian bytes.
 */
typedef struct le_charge_id
{
	le_md5		md5;
	size_t		used;			/* bytes in buf, not yet hashed */
	unsigned char buf[512];		/* fields are gathered here and hashed in large pieces */
} le_charge_id;

extern void le_charge_id_init(le_charge_id *c);
/* The next field (ptr NULL: NULL). */
extern void le_charge_id_field(le_charge_id *c, const char *ptr, size_t len);
extern void le_charge_id_final(le_charge_id *c, unsigned char digest[16]);

#endif
