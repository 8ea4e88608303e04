/* ascii.h: locale-independent ASCII case folding for identities and keys (no PostgreSQL headers). */
#ifndef LLM_ECON_ASCII_H
#define LLM_ECON_ASCII_H

#include <stddef.h>

/*
 * Every identity and key the extension computes (provider, region, SKU name or alias, instance
 * type, currency, charge identity) folds A-Z only, never by the database's collation: under a
 * Turkish collation lower('I') is the dotless 'ı', so "AMAZON WEB SERVICES" or "IBM" would not
 * fold to the keys the price tables use, and one bill would get other identities in another
 * database.  In SQL the same fold is pg_catalog.lower(x COLLATE pg_catalog."C").
 * Inline: the catalog reader's hash loops call these per byte.
 */

/* c with A-Z mapped to a-z; every other byte (UTF-8 included) unchanged. */
static inline int
le_ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* Fold s[0..n) to ASCII lower case in place; bytes >= 0x80 are left as they are. */
static inline void
le_ascii_fold(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		s[i] = (char) le_ascii_lower((unsigned char) s[i]);
}

/* a[0..an) equals b[0..bn), ignoring ASCII case only. */
static inline int
le_ascii_eq_ci(const char *a, size_t an, const char *b, size_t bn)
{
	if (an != bn)
		return 0;
	for (size_t i = 0; i < an; i++)
		if (le_ascii_lower((unsigned char) a[i]) != le_ascii_lower((unsigned char) b[i]))
			return 0;
	return 1;
}

#endif
