/* charge.c: the identity of a FOCUS charge in plain C: canonical decimals and the length-prefixed identity digest. */
#include "charge.h"

#include <string.h>

int
le_decimal_canon(const char *s, size_t n, char *out)
{
	const char *p = s;
	const char *end = s + n;
	const char *int_start,
			   *int_end,
			   *frac_start = NULL,
			   *frac_end = NULL;
	int			negative = 0;
	long		exp10 = 0;
	char	   *o = out;
	const char *first,
			   *last;
	long		point;			/* digits before the decimal point, after leading zeros are dropped */

	if (p < end && (*p == '+' || *p == '-'))
		negative = (*p++ == '-');
	int_start = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	int_end = p;
	if (p < end && *p == '.')
	{
		frac_start = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		frac_end = p;
	}
	if (int_end == int_start && (frac_start == NULL || frac_end == frac_start))
		return -1;
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		int			eneg = 0;
		int			ed = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = (*p++ == '-');
		while (p < end && *p >= '0' && *p <= '9' && ed < 4)
			exp10 = exp10 * 10 + (*p++ - '0'), ed++;
		if (ed == 0 || ed > 3)
			return -1;
		if (eneg)
			exp10 = -exp10;
	}
	if (p != end)
		return -1;

	/*
	 * The value is 0.D1 D2 ... Dk x 10^point with D1 and Dk not zero: write
	 * the digits D1..Dk, then "e" and point.  Zero (every digit 0) is "0".
	 */
	first = NULL;
	last = NULL;
	point = (long) (int_end - int_start);
	for (const char *q = int_start; q < int_end; q++)
		if (*q != '0')
		{
			if (!first)
				first = q;
			last = q;
		}
	if (frac_start)
		for (const char *q = frac_start; q < frac_end; q++)
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
	if (first < int_end && first >= int_start)
		point = (long) (int_end - first);
	else
		point = -(long) (first - frac_start);	/* zeros right after the point */
	point += exp10;
	if (negative)
		*o++ = '-';
	for (const char *q = first; q <= last; q++)
	{
		if (q == int_end)
			continue;			/* the point itself */
		*o++ = *q;
	}
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
