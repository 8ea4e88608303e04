/* llm_econ.h: shared declarations of the fmgr layer (one section per file). */
#ifndef LLM_ECON_H
#define LLM_ECON_H

#include "postgres.h"
#include "fmgr.h"
#include "access/tupdesc.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "executor/spi.h"

#include "compat.h"

#include "core/econ.h"
#include "core/guard.h"

/* ---- spec.c: reading and writing run_spec composites ---- */

/*
 * Per-call-site cache kept in fn_extra: the composite's layout, resolved once
 * per query (attribute positions by name), and scratch arrays for deforming.
 */
typedef struct LeSpecLayout
{
	Oid			typid;
	int32		typmod;
	TupleDesc	tupdesc;		/* copy in fn_mcxt; blessed when we build values */
	int			attno[LE_F__COUNT]; /* 0-based attribute index, -1 if absent */
	uint64		need;			/* fields this call site reads */
	Datum	   *values;
	bool	   *nulls;
} LeSpecLayout;

typedef struct LeFnCache
{
	LeSpecLayout spec;
	void	   *extra;			/* for the function's own use (constructor's SKU cache) */
	/* the last spec validated here (its bytes, in fn_mcxt) and the value derived from it */
	char	   *last_spec;
	Size		last_len;
	Datum		last_value;
} LeFnCache;

extern LeFnCache *le_fn_cache(FunctionCallInfo fcinfo);
extern void le_spec_read(FunctionCallInfo fcinfo, Datum composite, le_spec *out);
extern void le_spec_read_some(FunctionCallInfo fcinfo, Datum composite, uint64 need, le_spec *out);
extern bool le_spec_recall(FunctionCallInfo fcinfo, Datum composite, Datum *value);
extern Datum le_spec_remember(FunctionCallInfo fcinfo, Datum composite, Datum value, bool byval, int typlen);
extern Datum le_spec_build(FunctionCallInfo fcinfo, const le_spec *s);
extern TupleDesc le_result_tupdesc(FunctionCallInfo fcinfo);
extern bool le_cache_fresh(uint64 *stamp);
le_noreturn extern void le_report(const le_error *err);
extern void le_check(le_status st, const le_error *err);

/* ---- sku.c: SKU lookup by key or alias ---- */
typedef struct LeSku
{
	char		key[LE_NAME_MAX + 1];	/* names are at most LE_NAME_MAX bytes */
	double		tflops[LE_DTYPE__COUNT];	/* by le_dtype; NaN = not supported */
	double		hbm_gb;
	double		hbm_bytes;		/* as the driver reports it; hbm_gb·1e9 when not published */
	double		nvlink_gb_per_s;	/* NaN = no NVLink */
	double		pcie_gb_per_s;
	int32		gpus_per_node;
	double		tdp_watts;		/* NaN: not published */
	double		hbm_gb_per_s;	/* NaN = not published */
	int			generation;		/* le_gpu_gen code (step.h); -1 = not a generation the model knows */
} LeSku;

extern void le_sku_lookup(const char *name, LeSku *out);
extern void le_sku_resolve(text *name, char **key, char **itype);

/* ---- guard_fmgr.c: input bounds ---- */
extern void le_check_name(const char *field, const char *name, size_t len);

/* ---- money.c: numeric helpers ---- */
extern void le_check_price(Numeric price, const char *name);
extern Numeric le_hours_times_price(double hours, Numeric price);
extern Datum le_float8_numeric(double v);
extern Numeric le_numeric_times_price(Datum quantity, Numeric price);

/* ---- price.c: as-of price lookups ---- */
extern Numeric le_price_lookup(const char *sku, const char *itype, text *provider, text *pricing,
							   TimestampTz at, text *region, Interval *max_age, bool *found);

/* ---- module.c: the settings the SQL code reads (the llm_econ prefix is reserved) ---- */
extern char *le_import_suspects;	/* llm_econ.import_suspects: the running import's suspect machine types */
extern char *le_import_providers;	/* llm_econ.import_providers: providers an import holds locked */
extern char *le_run_tag_keys;	/* llm_econ.run_tag_keys: the Tags keys that name a run (comma-separated) */
extern void le_provenance_init(void);	/* provenance.c: source_kind is the recorder's */

/* ---- csv_fmgr.c: CSV helpers shared with the FOCUS typing ---- */
struct le_csv;
extern void le_open_csv(struct le_csv *r, text *csv);
extern char *le_what_arg(text *t);
le_noreturn extern void le_csv_fail(const struct le_csv *r, const char *what, long line_offset);
extern int	le_header_names(const struct le_csv *r, const char *what, long line, char ***names);
extern int	le_read_header(struct le_csv *r, const char *what, char ***names);
/* What a FOCUS record keeps of a column: its value when it has one, or nothing (a typed column holds it). */
#define LE_REC_KEEP 0
#define LE_REC_TYPED 1
extern Datum le_record_jsonb(const struct le_csv *r, char **names, int ncols, const int *order, const char *mode);
extern Datum le_record_jsonb_flat(const struct le_csv *r, char **names, const int *name_len, int ncols,
								  const int *order, const char *mode);

/* ---- util.c: helpers the fmgr files share ---- */
extern void *le_palloc(void *ctx, void *ptr, size_t size);	/* the core's allocator over palloc */
extern double le_interval_seconds(const Interval *iv);
/* 55000 with an update-before-use hint unless the SQL declaration passes nargs arguments (returns ncols columns) */
extern void le_check_nargs(FunctionCallInfo fcinfo, int nargs, const char *fn);
extern void le_check_ncols(TupleDesc td, int ncols, const char *fn);
/* s[0..n) folded to ASCII lower case (palloc'd, NUL-terminated): every identity and key folds this way, never by collation. */
extern char *le_ascii_lower_copy(const char *s, size_t n);
/* A pricing kind (any case, blanks around ignored) as its canonical name; else 22023 (price.c). */
extern const char *le_check_pricing(text *pricing);

/* step_fmgr.c: calibration factors from mfu_calibration (observed / predicted MFU per SKU and provider) */
typedef struct LeCalib
{
	char	   *sku;
	char	   *provider;		/* NULL: every run of the SKU */
	char	   *stack;			/* with dtype: runs of this stack and dtype; NULL: every stack */
	char	   *dtype;
	double		factor;
} LeCalib;
extern int	le_calibration_load(LeCalib **out);
extern double le_calibration_match(const LeCalib *rows, int n, const char *sku, const char *provider,
								   const char *stack, const char *dtype);
extern Interval *le_seconds_interval(double seconds, const char *what);
extern SPIPlanPtr le_spi_plan(SPIPlanPtr *cache, const char *sql, int nargs, Oid *argtypes);
extern char *le_close_matches(const char *query, const char *word, bool known_list, MemoryContext outer);

#endif							/* LLM_ECON_H */
