/* series.h: the id of a price series, a stable 64-bit hash of its key (no PostgreSQL headers). */
#ifndef LLM_ECON_SERIES_H
#define LLM_ECON_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* The number of fields in a series key: sku, provider, pricing, region, instance_type. */
#define LE_SERIES_KEY_FIELDS 5

/*
 * The id of the series whose key is the LE_SERIES_KEY_FIELDS fields ptr[i] (len[i] bytes; ptr[i]
 * NULL = SQL NULL).  The same on every platform and release: it is stored in price_snapshot.
 */
extern int64_t le_series_id(const char *const ptr[LE_SERIES_KEY_FIELDS],
							const size_t len[LE_SERIES_KEY_FIELDS]);

/* FNV-1a, 64 bits, continuing from h (start with LE_FNV64_OFFSET). */
#define LE_FNV64_OFFSET UINT64_C(0xcbf29ce484222325)
extern uint64_t le_fnv1a64(uint64_t h, const void *data, size_t n);

#endif
