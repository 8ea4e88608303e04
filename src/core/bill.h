/* bill.h: the rest of a run's bill in plain C (no PostgreSQL headers): carbon, checkpoint/interruption plan, cost-breakdown quantities and their wording. */
#ifndef LLM_ECON_BILL_H
#define LLM_ECON_BILL_H

#include "econ.h"

/* Grid intensity bound, kg CO2e per kWh: the dirtiest grids (lignite) are about 1.2. */
#define LE_CO2_MAX 2.0

/*
 * Longest duration (seconds) accepted for checkpoint and failure intervals:
 * about 31,700 years.  Keeps every derived interval (at most 2x this) inside
 * PostgreSQL's interval range (int64 microseconds).
 */
#define LE_DURATION_MAX 1e12

/* Hours in a year, 365.25 days × 24 h (the Julian year, as extract(epoch) counts years). */
#define LE_HOURS_PER_YEAR 8766.0

/* ---- carbon ---- */
/* *kg is NaN (unknown: SQL NULL) when tdp_watts is NULL, as energy is. */
extern le_status le_carbon_kg(const le_spec *s, double kg_co2_per_kwh, double pue,
							  double *kg, le_error *err);

/* ---- checkpoint interval and interruptions ---- */
typedef struct le_ckpt_plan
{
	double		interval_seconds;	/* tau: Young's optimum, or M when delta >= 2M */
	double		overhead_fraction;	/* delta/tau + tau/(2M) */
	double		p_interrupted;	/* 1 - exp(-T/M) */
	double		expected_interruptions; /* T/M */
	double		cluster_mtbf_seconds;	/* M = node MTBF / nodes */
	double		nodes;			/* ceil(n_gpus / gpus_per_node) */
	double		wall_seconds;	/* T */
	int			capped;			/* 1 when delta >= 2M and tau = M (Daly 2006) */
} le_ckpt_plan;

extern le_status le_checkpoint_plan(const le_spec *s, double write_seconds, double mtbf_node_seconds,
									le_ckpt_plan *out, le_error *err);

/* ---- cost breakdown ---- */

/* The bill's components, in the order cost_breakdown returns them. */
typedef enum le_bill_component
{
	LE_BILL_COMPUTE,
	LE_BILL_CHECKPOINT,
	LE_BILL_STORAGE,
	LE_BILL_EGRESS,
	LE_BILL_ENERGY,
	LE_BILL_SPOT_BUFFER,
	LE_BILL_TOTAL,
	LE_BILL__COUNT
} le_bill_component;

/* The non-money assumptions of cost_breakdown (money stays numeric in the SQL layer). */
typedef struct le_bill_args
{
	double		checkpoint_every_seconds;
	double		checkpoint_write_seconds;
	double		checkpoints_kept;
	double		checkpoint_gb;	/* read only when checkpoint_gb_given */
	int			checkpoint_gb_given;	/* 0 = derive from the spec (SQL NULL) */
	double		dataset_gb;		/* read only when dataset_gb_given */
	int			dataset_gb_given;	/* 0 = derive from the spec (SQL NULL) */
	double		storage_months;
	double		egress_gb;
	int			owned;
	double		pue;
} le_bill_args;

/* The float quantities the bill multiplies by prices, and what the wording needs. */
typedef struct le_bill
{
	double		wall_seconds;
	double		gpu_hours;
	double		checkpoint_fraction;	/* write / every */
	double		checkpoint_bytes_per_param; /* used when checkpoint_gb was derived */
	double		checkpoint_gb;
	int			checkpoint_gb_derived;
	double		dataset_gb;
	int			dataset_gb_derived;
	double		storage_gb;		/* checkpoints_kept × checkpoint_gb + dataset_gb */
	double		kwh;			/* 0 unless owned; NaN when owned and tdp_watts is NULL */
} le_bill;

/* Bytes of tokenized training data per token stored (uint32 token ids). */
#define LE_DATASET_BYTES_PER_TOKEN 4.0

extern const char *le_bill_component_name(le_bill_component c);
extern double le_checkpoint_bytes_per_param(const le_spec *s);
extern le_status le_bill_quantities(const le_spec *s, const le_bill_args *a, le_bill *b, le_error *err);
extern void le_bill_assumption(const le_spec *s, const le_bill_args *a, const le_bill *b,
							   le_bill_component c, const char *money, char *buf, size_t n);

/* ---- wording helpers ---- */
extern void le_fmt_quantity(double v, char *buf, size_t n);
extern void le_fmt_duration(double seconds, char *buf, size_t n);

#endif							/* LLM_ECON_BILL_H */
