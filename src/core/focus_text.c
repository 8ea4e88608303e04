/* focus_text.c: the pure-C text rules of a FOCUS line (no PostgreSQL headers): the shapes of its times, read to microseconds, the words of a charge description, and quotes left open across physical lines. */
#include "focus_text.h"

#include <string.h>

/*
 * Days from 1970-01-01 to the proleptic Gregorian date y-m-d (Howard
 * Hinnant's days_from_civil): PostgreSQL's date2j minus its epoch, without
 * PostgreSQL.
 */
static int64_t
days_from_civil(int y, int m, int d)
{
	int64_t		era;
	int			yoe,
				doy,
				doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (int) (y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/*
 * Shape of an ISO 8601 date-time as FOCUS writes it: YYYY-MM-DD, optionally
 * followed by [T ]HH:MM[:SS[.fff]] and then optionally Z, " UTC" (BigQuery) or +-HH[:MM].
 * Returns 0 when malformed, 1 without an offset, 2 with one.
 */
int
le_timestamp_shape(const char *s)
{
	const char *p = s;
	int			d;

#define DIGITS(n) do { for (d = 0; d < (n); d++, p++) if (*p < '0' || *p > '9') return 0; } while (0)
	DIGITS(4);
	if (*p++ != '-')
		return 0;
	DIGITS(2);
	if (*p++ != '-')
		return 0;
	DIGITS(2);
	if (*p == '\0')
		return 1;
	if (*p != 'T' && *p != ' ')
		return 0;
	p++;
	DIGITS(2);
	if (*p++ != ':')
		return 0;
	DIGITS(2);
	if (*p == ':')
	{
		p++;
		DIGITS(2);
		if (*p == '.')
		{
			p++;
			if (*p < '0' || *p > '9')
				return 0;
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	if (*p == '\0')
		return 1;
	if (*p == 'Z' && p[1] == '\0')
		return 2;
	if (strcmp(p, " UTC") == 0)	/* BigQuery's exports: "2025-02-06 08:00:00 UTC" */
		return 2;
	if (*p != '+' && *p != '-')
		return 0;
	p++;
	DIGITS(2);
	if (*p == ':')
		p++;
	if (*p == '\0')
		return 2;
	DIGITS(2);
	return *p == '\0' ? 2 : 0;
#undef DIGITS
}

/*
 * The common shapes of a FOCUS time read without PostgreSQL's general date
 * parser: YYYY-MM-DD[{T| }HH:MM[:SS[.f{1,6}]]][Z| UTC], every field in its range
 * (years 1-9999, real days of the month, 00:00:00-23:59:59).  The result is
 * what timestamp_in (no offset: the UTC instant) or timestamptz_in (Z, UTC) give
 * for it; false for anything else (offsets, leap seconds, 24:00, more
 * fractional digits, a bad field), which the general parser then reads or
 * names in its error.
 */
bool
le_iso_time_us(const char *s, int64_t *out)
{
	static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			y,
				mo,
				d,
				h = 0,
				mi = 0,
				sec = 0;
	int64_t		frac = 0;
	const char *p;

#define D2(q) (((q)[0] - '0') * 10 + ((q)[1] - '0'))
	/* le_timestamp_shape has checked the digits and separators of the date and of HH:MM[:SS] */
	y = D2(s) * 100 + D2(s + 2);
	mo = D2(s + 5);
	d = D2(s + 8);
	if (y < 1 || mo < 1 || mo > 12 || d < 1 ||
		d > mdays[mo - 1] + (mo == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	p = s + 10;
	if (*p != '\0')
	{
		h = D2(p + 1);
		mi = D2(p + 4);
		p += 6;
		if (*p == ':')
		{
			sec = D2(p + 1);
			p += 3;
			if (*p == '.')
			{
				int			digits = 0;

				for (p++; *p >= '0' && *p <= '9'; p++, digits++)
				{
					if (digits == 6)
						return false;
					frac = frac * 10 + (*p - '0');
				}
				for (int k = digits; k < 6; k++)
					frac *= 10;
			}
		}
		if (*p == 'Z')
			p++;
		else if (strcmp(p, " UTC") == 0)
			p += 4;
		if (*p != '\0' || h > 23 || mi > 59 || sec > 59)
			return false;
	}
#undef D2
	*out = (days_from_civil(y, mo, d) - days_from_civil(2000, 1, 1)) * INT64_C(86400000000) +
		(((int64_t) h * 60 + mi) * 60 + sec) * INT64_C(1000000) + frac;
	return true;
}

/* Whether a text holds an odd number of '"' once open is counted (a quoted field left open at its end). */
bool
le_odd_quotes(const char *p, size_t n, bool open)
{
	const char *end = p + n;

	while ((p = memchr(p, '"', end - p)) != NULL)
	{
		open = !open;
		p++;
	}
	return open;
}
