/* focus_text.h: the pure-C text rules of a FOCUS line (no PostgreSQL headers): time shapes, description words, open quotes. */
#ifndef LLM_ECON_FOCUS_TEXT_H
#define LLM_ECON_FOCUS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The shape of an ISO 8601 date-time as FOCUS writes it: YYYY-MM-DD, then
 * optionally [T ]HH:MM[:SS[.fff]], then optionally Z or +-HH[:MM].  0 when
 * malformed, 1 without an offset, 2 with one.
 */
extern int	le_timestamp_shape(const char *s);

/*
 * A time of shape 1 (or ending in Z) in its common forms, as microseconds
 * since 2000-01-01 00:00 UTC (PostgreSQL's timestamp); false for any form or
 * field the general parser must judge (offsets, 24:00, leap seconds, more
 * than 6 fractional digits, a day no calendar has).
 */
extern bool le_iso_time_us(const char *s, int64_t *out);

/* Whether a byte separates words of a charge description: " \t\r\n,;()". */
static inline bool
le_word_break(unsigned char ch)
{
	return ch == ' ' || ch == ',' || ch == '(' || ch == ')' || ch == ';' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Whether a quoted field is open after n bytes at p, given whether one was open before them. */
extern bool le_odd_quotes(const char *p, size_t n, bool open);

#endif
