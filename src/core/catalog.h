/* catalog.h: plain-C reading of SkyPilot vms.csv catalogs into per-GPU offers (no PostgreSQL headers). */
#ifndef LLM_ECON_CATALOG_H
#define LLM_ECON_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "csv.h"
#include "econ.h"

/* A piece of the input: not NUL-terminated; p == NULL means SQL NULL. */
typedef struct le_str
{
	const char *p;
	size_t		n;
} le_str;

/* ---- header columns ---- */
typedef enum le_cat_col
{
	LE_COL_INSTANCE_TYPE,
	LE_COL_ACCELERATOR_NAME,
	LE_COL_ACCELERATOR_COUNT,
	LE_COL_PRICE,
	LE_COL_REGION,
	LE_COL_SPOT_PRICE,			/* optional from here on */
	LE_COL_AVAILABILITY_ZONE,
	LE_COL_VCPUS,
	LE_COL_MEMORY_GIB,
	LE_COL_GPU_INFO,
	LE_COL_UPSTREAM_CLOUD_ID,	/* PrimeIntellect: the machine as its provider names it */
	LE_COL__COUNT
} le_cat_col;

#define LE_COL__REQUIRED LE_COL_SPOT_PRICE

extern const char *le_cat_col_name(le_cat_col c);
extern int	le_cat_find_column(const le_csv_field *hdr, int n, const char *name);

/* ---- prices and counts ---- */
typedef enum le_num_status
{
	LE_NUM_OK,
	LE_NUM_EMPTY,				/* empty (or only blanks) */
	LE_NUM_BAD,					/* not a plain decimal: NaN, inf, hex, "1.2.3", "-" */
	LE_NUM_TOO_LONG,			/* more than LE_NUM_MAX_LEN characters */
	LE_NUM_RANGE				/* a decimal, but beyond double range */
} le_num_status;

#define LE_NUM_MAX_LEN 64

/*
 * A decimal as written in a catalog: [+-]digits[.digits][e[+-]digits], with
 * at least one digit before the exponent, surrounding blanks allowed.  *trim
 * gets the text without blanks (what numeric_in is given); *negative and
 * *zero describe the sign and whether every digit is 0 (so "-0" is zero).
 */
extern le_num_status le_num_syntax(const char *s, size_t n, le_str *trim, int *negative, int *zero);
/*
 * The memory per GPU a SkyPilot GpuInfo field states: the first 'SizeInMiB': N (the key in any case) of its
 * Python-dict text, 1..16777216 MiB; 0 when the field says none (or an unreadable one).
 */
extern int32_t le_gpuinfo_mib(const char *s, size_t n);
/* The value of a decimal that passed le_num_syntax (correctly rounded). */
extern le_num_status le_num_value(le_str trim, double *v);

/* ---- GCP machine families and GPU variants ---- */

/*
 * What GCP's machine types carry is data, not code (llm_econ.gcp_machine_family and
 * llm_econ.instance_type, shipped in data/): the caller passes it in.
 *
 * family: an accelerator-optimized machine family by name prefix ("a2-highgpu-"): the
 *   AcceleratorName its accelerator rows use, and alt, a second name to try when no accel row
 *   is in the zone (a3-megagpu: "H100-MEGA" in newer catalogs, "H100" in older ones), or NULL.
 * size: the GPUs of one machine type by exact name (any case); a type of a family with no
 *   size entry has the count its name ends with ("a2-highgpu-<N>g", also before a variant suffix:
 *   "a3-edgegpu-8g-nolssd"), else 0 (unknown).
 * attach: GPUs GCP attaches to general-purpose N1 machines (priced per GPU, host chosen freely).
 */
typedef struct le_gcp_family
{
	const char *prefix;
	const char *accel;
	const char *alt;
} le_gcp_family;

typedef struct le_gcp_size
{
	const char *itype;
	int			gpus;
} le_gcp_size;

typedef struct le_gcp_hosts
{
	const le_gcp_family *family;
	int			nfamily;
	const le_gcp_size *size;
	int			nsize;
	const char *const *attach;
	int			nattach;
} le_gcp_hosts;

/*
 * The GPUs a GCP machine type carries per *h: *accel and *alt as above, *count the GPUs per
 * machine (0 when the size is unknown).  Returns 0 for machine types of no GPU family.
 */
extern int	le_gcp_host_gpus(const le_gcp_hosts *h, const char *itype, size_t n, const char **accel,
							 const char **alt, int *count);
/* GPUs GCP attaches to general-purpose N1 machines, per *h. */
extern int	le_gcp_attachable(const le_gcp_hosts *h, const char *accel, size_t n);

typedef enum le_variant
{
	LE_VARIANT_NONE,
	LE_VARIANT_PCIE,
	LE_VARIANT_SXM
} le_variant;

extern le_variant le_variant_of(const char *itype, size_t n);
extern const char *le_variant_label(le_variant v);

/* ---- offers ---- */

/* Where an offer's rows came from (part of its key). */
typedef enum le_offer_kind
{
	LE_OFFER_INSTANCE,				/* a row with instance type and accelerator (all clouds) */
	LE_OFFER_GCP_HOST,				/* GCP: a GPU machine type, with its accelerator rows */
	LE_OFFER_GCP_ACCEL				/* GCP: accelerator rows no machine type pairs with */
} le_offer_kind;

/*
 * One offer: (instance_type, accelerator, gpus, region, pricing), at the
 * cheapest zone.  When priced, the instance price per hour is price (+
 * price2, the GCP accelerator row's price, when price2.p is set), for gpus
 * GPUs; the texts are kept so that the SQL layer converts them exactly.
 */
typedef struct le_offer
{
	le_offer_kind kind;
	le_str		itype;			/* p NULL: none (GCP accelerator-only offers) */
	le_str		accel;
	le_str		region;
	int			pricing;		/* LE_PR_ON_DEMAND or LE_PR_SPOT */
	int32_t		gpus;			/* GPUs per instance; 0 = unknown; -k: a slice, 1/k of a GPU */
	int32_t		rows;			/* catalog rows that fed this offer (all zones) */
	int			priced;			/* 0: no price can be given (unpaired GCP rows) */
	int			accel_paired;	/* GCP host offers: accel names the paired row */
	le_str		price;
	le_str		price2;
	double		best;			/* price + price2 as a double, for choosing the zone */
	le_variant	variant;
	le_str		vcpus;			/* the machine's vCPUs and MemoryGiB as the first row writes them */
	le_str		memory;			/* (p NULL: not given); the importer compares siblings by them */
	int32_t		gpu_mib;		/* memory per GPU, MiB, as GpuInfo's first SizeInMiB says; 0 = not given */
	uint32_t	hash;
} le_offer;

typedef struct le_catalog le_catalog;	/* opaque working state */

typedef struct le_offers
{
	le_offer   *offer;			/* in order of first appearance */
	int			n;
	long		data_rows;		/* data records in the file */
	le_catalog *state;			/* owns the memory; freed by le_offers_free */
} le_offers;

/*
 * Read a whole vms.csv (buf[0..len)) into offers.  gcp selects GCP's split
 * of machine and accelerator rows.  On error returns LE_ERR_MALFORMED
 * (LE_ERR_VALUE for a negative or huge price, LE_ERR_TOO_LONG for a header
 * or a price beyond the limits, LE_ERR_NO_MEMORY) with err->message like 'price "abc" is not a number'
 * and err->context like 'catalog_csv line 12, column "Price"'.
 * Call le_offers_free in both cases.
 */
extern le_status le_catalog_offers(const char *buf, size_t len, const le_gcp_hosts *gcp,
								   le_alloc_fn alloc, void *ctx,
								   le_offers *out, le_error *err);
extern void le_offers_free(le_offers *out);

#endif							/* LLM_ECON_CATALOG_H */
