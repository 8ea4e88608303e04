/* charge.c: the identity of a FOCUS charge in plain C: canonical decimals and the length-prefixed identity digest. */
#include "charge.h"

#include <string.h>

/* A decimal's parts, as decimal_scan finds them. */
typedef struct decimal_parts
{
	int			negative;
	const char *int_start,
			   *int_end;		/* the digits before the point */
	const char *frac_start,
			   *frac_end;		/* after it (both NULL: no point) */
	long		exp10;			/* the exponent (0: none) */
} decimal_parts;

/*
 * Split s (n bytes) into a decimal's parts: [-+]digits[.digits] or
 * [-+].digits, then optionally e or E, a sign and 1 to 3 digits; false when s
 * is not such a decimal.
 */
static int
decimal_scan(const char *s, size_t n, decimal_parts *d)
{
	const char *p = s;
	const char *end = s + n;

	d->negative = 0;
	d->frac_start = d->frac_end = NULL;
	d->exp10 = 0;
	if (p < end && (*p == '+' || *p == '-'))
		d->negative = (*p++ == '-');
	d->int_start = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	d->int_end = p;
	if (p < end && *p == '.')
	{
		d->frac_start = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		d->frac_end = p;
	}
	if (d->int_end == d->int_start && (d->frac_start == NULL || d->frac_end == d->frac_start))
		return 0;
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		int			eneg = 0;
		int			ed = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = (*p++ == '-');
		while (p < end && *p >= '0' && *p <= '9' && ed < 4)
			d->exp10 = d->exp10 * 10 + (*p++ - '0'), ed++;
		if (ed == 0 || ed > 3)
			return 0;
		if (eneg)
			d->exp10 = -d->exp10;
	}
	return p == end;
}

int
le_decimal_canon(const char *s, size_t n, char *out)
{
	decimal_parts d;
	char	   *o = out;
	const char *first = NULL,
			   *last = NULL;
	long		point;			/* the exponent of 0.D1 D2 ... Dk */

	if (!decimal_scan(s, n, &d))
		return -1;

	/*
	 * The value is 0.D1 D2 ... Dk x 10^point with D1 and Dk not zero: write
	 * the digits D1..Dk, then "e" and point.  Zero (every digit 0) is "0".
	 */
	for (const char *q = d.int_start; q < d.int_end; q++)
		if (*q != '0')
		{
			if (!first)
				first = q;
			last = q;
		}
	for (const char *q = d.frac_start; q && q < d.frac_end; q++)
		if (*q != '0')
		{
			if (!first)
				first = q;
			last = q;
		}
	if (first == NULL)
	{
		strcpy(out, "0");
		return 1;
	}
	if (first < d.int_end)
		point = (long) (d.int_end - first);
	else
		point = -(long) (first - d.frac_start); /* zeros right after the point */
	point += d.exp10;
	if (d.negative)
		*o++ = '-';
	for (const char *q = first; q <= last; q++)
		if (q != d.int_end)		/* the point itself */
			*o++ = *q;
	*o++ = 'e';
	if (point < 0)
		*o++ = '-';
	{
		char		rev[24];
		int			k = 0;
		unsigned long u = point < 0 ? 0UL - (unsigned long) point : (unsigned long) point;

		do
			rev[k++] = (char) ('0' + u % 10);
		while ((u /= 10) > 0);
		while (k > 0)
			*o++ = rev[--k];
	}
	*o = '\0';
	return (int) (o - out);
}

int
le_decimal_parse(const char *s, size_t n, int64_t *mantissa, int *scale)
{
	decimal_parts d;
	int			digits = 0;		/* written digits after the leading zeros */
	uint64_t	m = 0;
	const char *parts[2][2];

	if (!decimal_scan(s, n, &d))
		return -1;
	parts[0][0] = d.int_start;
	parts[0][1] = d.int_end;
	parts[1][0] = d.frac_start;
	parts[1][1] = d.frac_end;
	for (int k = 0; k < 2; k++)
		for (const char *q = parts[k][0]; q && q < parts[k][1]; q++)
		{
			if (digits == 0 && *q == '0')
				continue;
			if (++digits > 18)
				return 0;
			m = m * 10 + (uint64_t) (*q - '0');
		}
	*mantissa = d.negative ? -(int64_t) m : (int64_t) m;
	*scale = (d.frac_start ? (int) (d.frac_end - d.frac_start) : 0) - (int) d.exp10;
	return 1;
}

void
le_charge_id_init(le_charge_id *c)
{
	le_md5_init(&c->md5);
	c->used = 0;
}

/* Hash what buf holds. */
static void
charge_id_flush(le_charge_id *c)
{
	le_md5_update(&c->md5, c->buf, c->used);
	c->used = 0;
}

void
le_charge_id_field(le_charge_id *c, const char *ptr, size_t len)
{
	unsigned char *h;

	if (ptr == NULL)
		len = 0;
	if (c->used + 5 + len > sizeof(c->buf))
		charge_id_flush(c);
	h = c->buf + c->used;
	if (ptr == NULL)
		*h = 0xFF, c->used += 1;
	else if (len < 0xFE)
		*h = (unsigned char) len, c->used += 1;
	else
	{
		h[0] = 0xFE;
		h[1] = (unsigned char) len;
		h[2] = (unsigned char) (len >> 8);
		h[3] = (unsigned char) (len >> 16);
		h[4] = (unsigned char) (len >> 24);
		c->used += 5;
	}
	if (len > sizeof(c->buf) - c->used)
	{
		/* a long field: hashed in place */
		charge_id_flush(c);
		le_md5_update(&c->md5, ptr, len);
	}
	else if (len > 0)
	{
		memcpy(c->buf + c->used, ptr, len);
		c->used += len;
	}
}

void
le_charge_id_final(le_charge_id *c, unsigned char digest[16])
{
	charge_id_flush(c);
	le_md5_final(&c->md5, digest);
}
