/* test_bill.c: unit tests of the rest of the bill in the plain-C core: carbon, the Young/Daly checkpoint plan, cost-breakdown quantities and wording. */
#include "unit.h"
#include "core/bill.h"

/* cost_breakdown's defaults (src/sql/bill.sql). */
static le_bill_args
default_args(void)
{
	le_bill_args a;

	memset(&a, 0, sizeof(a));
	a.checkpoint_every_seconds = 1800;
	a.checkpoint_write_seconds = 90;
	a.checkpoints_kept = 10;
	a.storage_months = 1;
	a.egress_gb = 0;
	a.owned = 0;
	a.pue = 1.0;
	return a;
}

/*
 * Llama 2 model card (Touvron et al. 2023, "Carbon Footprint"): 7B, 184,320
 * A100-hours at 400 W "adjusted for power usage efficiency", 31.22 tCO2e,
 * so 31.22e3 / (184,320 × 0.4) = 0.4235 kg/kWh.
 */
static void
test_carbon(void)
{
	double		mfu = 6 * 7e9 * 2e12 / (312e12 * 184320.0 * 3600);
	le_spec		s = unit_spec(7e9, 2e12, 1, 8, 312, mfu, 400);
	double		intensity = 31.22e3 / (184320 * 0.4);
	double		kg,
				h;
	le_error	e;

	CHECK(le_gpu_hours(&s, &h, &e) == LE_OK, "gpu hours ok");
	NEAR(h, 184320, 1e-12, "Llama 2 7B GPU-hours");
	NEAR(intensity, 0.4235, 2e-4, "implied intensity (0.42345 rounded)");
	CHECK(le_carbon_kg(&s, intensity, 1.0, &kg, &e) == LE_OK, "carbon ok: %s", e.message);
	NEAR(kg, 31220, 1e-12, "Llama 2 7B carbon, kg");
	CHECK(le_carbon_kg(&s, intensity, 1.2, &kg, &e) == LE_OK, "carbon ok");
	NEAR(kg, 31220 * 1.2, 1e-12, "PUE multiplies");
	CHECK(le_carbon_kg(&s, 0, 1.0, &kg, &e) == LE_OK && kg == 0, "zero intensity");
	CHECK(le_carbon_kg(&s, 2.5, 1.0, &kg, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "kg_co2_per_kwh must be in [0, 2], got 2.5") == 0, "intensity above 2: %s", e.message);
	CHECK(le_carbon_kg(&s, -0.1, 1.0, &kg, &e) == LE_ERR_VALUE, "negative intensity");
	CHECK(le_carbon_kg(&s, NAN, 1.0, &kg, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "kg_co2_per_kwh must be in [0, 2], got NaN") == 0, "NaN intensity: %s", e.message);
	CHECK(le_carbon_kg(&s, 0.4, 0.5, &kg, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "pue must be in [1, 5], got 0.5") == 0, "pue below 1: %s", e.message);
}

/* Young 1974 / Daly 2006 and the seed's P(interrupted) = 1 - exp(-λ·nodes·hours). */
static void
test_checkpoint_plan(void)
{
	le_spec		one = unit_spec(5e7, 4.3e10, 1, 8, 312, 0.40, 400);	/* lab 00: 28.7 h */
	le_spec		c1024 = unit_spec(7e9, 1.4e12, 1024, 8, 989, 0.45, 700);	/* 35.8 h, 128 nodes */
	le_spec		nine = unit_spec(7e9, 1.4e12, 9, 8, 989, 0.45, 700);
	le_ckpt_plan p;
	le_error	e;

	/*
	 * δ = 90 s and a 5 h MTBF give τ = sqrt(2 · 90 · 18000) = 1800 s: the
	 * seed's "every 30 min", with δ/τ = 5% spent writing, plus 5% rework.
	 */
	CHECK(le_checkpoint_plan(&one, 90, 5 * 3600, &p, &e) == LE_OK, "plan ok: %s", e.message);
	NEAR(p.interval_seconds, 1800, 1e-12, "tau = 30 min");
	NEAR(90 / p.interval_seconds, 0.05, 1e-12, "writing 5%");
	NEAR(p.overhead_fraction, 0.10, 1e-12, "overhead = sqrt(2 delta / M) = 0.1");
	CHECK(p.nodes == 1 && !p.capped, "one node, not capped");

	/* Chinchilla 7B on 1024 H100: 128 nodes of 8, node MTBF 30 days: M = 20250 s = 5.625 h */
	CHECK(le_checkpoint_plan(&c1024, 90, 30 * 86400, &p, &e) == LE_OK, "plan ok");
	CHECK(p.nodes == 128, "128 nodes, got %g", p.nodes);
	NEAR(p.cluster_mtbf_seconds, 20250, 1e-12, "cluster MTBF");
	NEAR(p.interval_seconds, sqrt(2 * 90 * 20250.0), 1e-12, "Young's tau");
	NEAR(p.interval_seconds, 1909.19, 1e-5, "tau = 31.8 min");
	NEAR(p.overhead_fraction, sqrt(2 * 90 / 20250.0), 1e-12, "overhead at the optimum = sqrt(2 delta/M)");
	NEAR(p.wall_seconds / 3600, 35.84, 1e-3, "35.8 h");
	NEAR(p.expected_interruptions, 6.3715, 1e-4, "T/M");
	NEAR(p.p_interrupted, 0.99829, 1e-5, "P(interrupted) ~ 1 (seed)");

	/* lab 00, 1 GPU, 28.7 h, node MTBF 30 days: 1 - exp(-28.71/720) = 0.0391 */
	CHECK(le_checkpoint_plan(&one, 90, 30 * 86400, &p, &e) == LE_OK, "plan ok");
	NEAR(p.p_interrupted, 0.039094, 1e-4, "P(interrupted) one GPU");
	NEAR(p.expected_interruptions, 28.7126 / 720, 1e-5, "expected interruptions");

	/* nodes round up: 9 GPUs on 8-GPU nodes are 2 nodes */
	CHECK(le_checkpoint_plan(&nine, 90, 30 * 86400, &p, &e) == LE_OK && p.nodes == 2, "ceil nodes: %g", p.nodes);
	NEAR(p.cluster_mtbf_seconds, 15 * 86400, 1e-12, "M halves with two nodes");

	/* δ ≥ 2M: Daly's cap τ = M; overhead δ/M + 1/2 */
	CHECK(le_checkpoint_plan(&one, 200, 100, &p, &e) == LE_OK && p.capped, "capped");
	NEAR(p.interval_seconds, 100, 1e-12, "tau = M");
	NEAR(p.overhead_fraction, 2.5, 1e-12, "overhead 2 + 0.5");
	CHECK(le_checkpoint_plan(&one, 199, 100, &p, &e) == LE_OK && !p.capped, "just below the cap");
	NEAR(p.interval_seconds, sqrt(2 * 199 * 100.0), 1e-12, "first order below 2M");

	/* bad arguments */
	CHECK(le_checkpoint_plan(&one, 0, 3600, &p, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "checkpoint_write (in seconds) must be in (0, 1e+12], got 0") == 0, "zero write: %s", e.message);
	CHECK(le_checkpoint_plan(&one, 90, -1, &p, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "mtbf_per_node (in seconds) must be in (0, 1e+12], got -1") == 0, "negative mtbf: %s", e.message);
	CHECK(le_checkpoint_plan(&one, 90, INFINITY, &p, &e) == LE_ERR_VALUE, "infinite mtbf");
	CHECK(le_checkpoint_plan(&one, NAN, 3600, &p, &e) == LE_ERR_VALUE, "NaN write");
	one.present &= ~LE_BIT(LE_F_GPUS_PER_NODE);
	CHECK(le_checkpoint_plan(&one, 90, 3600, &p, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "run_spec field gpus_per_node must not be NULL") == 0, "gpus_per_node needed: %s", e.message);
}

/* Quantities cost_breakdown prices: the seed's lab 00, Chinchilla 7B, an owned month of 1024 H100. */
static void
test_bill_quantities(void)
{
	le_spec		lab00 = unit_spec(5e7, 4.3e10, 1, 8, 312, 0.40, 400);
	le_spec		c1024 = unit_spec(7e9, 1.4e12, 1024, 8, 989, 0.45, 700);
	/* D chosen so that 1024 H100 at MFU 0.45 run exactly 30 days */
	le_spec		month = unit_spec(7e9, 30 * 86400.0 * 1024 * 0.45 * 989e12 / (6 * 7e9), 1024, 8, 989, 0.45, 700);
	le_bill_args a = default_args();
	le_bill		b;
	le_error	e;

	CHECK(le_bill_quantities(&lab00, &a, &b, &e) == LE_OK, "lab00 ok: %s", e.message);
	NEAR(b.gpu_hours * 1.10, 31.58, 2e-4, "lab00 compute $31.58");
	NEAR(b.checkpoint_fraction, 0.05, 1e-15, "90 s every 30 min = 5%");
	/* 14 B/param × 5e7 = 0.7 GB per checkpoint; 4 B/token × 4.3e10 = 172 GB (seed: 200 GB of shards) */
	NEAR(b.checkpoint_gb, 0.7, 1e-12, "lab00 checkpoint GB");
	NEAR(b.dataset_gb, 172, 1e-12, "lab00 data GB");
	NEAR(b.storage_gb, 179, 1e-12, "lab00 stored GB");
	CHECK(b.kwh == 0, "cloud: no energy row");

	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_OK, "c1024 ok");
	NEAR(b.gpu_hours * 2.49, 91383, 1e-5, "Chinchilla compute $91,383");
	/* seed: "a full checkpoint of a 7B model ≈ 100 GB (bf16 weights + fp32 optimizer state)" */
	CHECK(b.checkpoint_bytes_per_param == 14, "14 bytes per parameter");
	NEAR(b.checkpoint_gb, 98, 1e-12, "7B checkpoint 98 GB");
	NEAR(b.dataset_gb, 5600, 1e-12, "1.4T tokens = 5.6 TB");
	NEAR(b.storage_gb, 6580, 1e-12, "10 x 98 + 5600 GB");

	/* given sizes replace the derived ones; the seed's "10 checkpoints x 100 GB = 1 TB" */
	a.checkpoint_gb_given = 1;
	a.checkpoint_gb = 100;
	a.dataset_gb_given = 1;
	a.dataset_gb = 0;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_OK && b.storage_gb == 1000 &&
		  !b.checkpoint_gb_derived && !b.dataset_gb_derived, "given sizes: %g", b.storage_gb);

	/* owned: 700 W × 1024 × 720 h = 516,096 kWh (seed: 516 MWh ≈ $52k at $0.10) */
	a = default_args();
	a.owned = 1;
	CHECK(le_bill_quantities(&month, &a, &b, &e) == LE_OK, "owned ok");
	NEAR(b.wall_seconds, 30 * 86400, 1e-12, "30 days");
	NEAR(b.kwh, 516096, 1e-12, "516 MWh");
	NEAR(b.kwh * 0.10, 51609.6, 1e-12, "$51.6k");
	a.pue = 1.2;
	CHECK(le_bill_quantities(&month, &a, &b, &e) == LE_OK, "owned ok");
	NEAR(b.kwh, 516096 * 1.2, 1e-12, "PUE 1.2");

	/* optimizer and precision change the checkpoint: 8-bit Adam 2 + 6, SGD 2 + 8, fp32 AdamW 4 + 8 */
	le_spec_set_text(&c1024, LE_F_OPTIMIZER, "adamw_8bit", 10);
	CHECK(le_checkpoint_bytes_per_param(&c1024) == 8, "8-bit Adam");
	le_spec_set_text(&c1024, LE_F_OPTIMIZER, "sgd", 3);
	CHECK(le_checkpoint_bytes_per_param(&c1024) == 10, "SGD");
	le_spec_set_text(&c1024, LE_F_OPTIMIZER, "adamw", 5);
	le_spec_set_text(&c1024, LE_F_DTYPE, "fp32", 4);
	CHECK(le_checkpoint_bytes_per_param(&c1024) == 12, "fp32 AdamW");
	le_spec_set_text(&c1024, LE_F_DTYPE, "bf16", 4);

	/* bad arguments name themselves and their range */
	a = default_args();
	a.checkpoint_write_seconds = 1800;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "checkpoint_write must be shorter than checkpoint_every, got 1800 s and 1800 s") == 0,
		  "write >= every: %s", e.message);
	a = default_args();
	a.checkpoint_every_seconds = 0;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "checkpoint_every (in seconds) must be in (0, 1e+12], got 0") == 0, "zero every: %s", e.message);
	a = default_args();
	a.checkpoints_kept = -1;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "checkpoints_kept must be in [0, 2147483647], got -1") == 0, "negative kept: %s", e.message);
	a = default_args();
	a.checkpoint_gb_given = 1;
	a.checkpoint_gb = NAN;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "checkpoint_gb must be in [0, Infinity), got NaN") == 0, "NaN checkpoint_gb: %s", e.message);
	a = default_args();
	a.dataset_gb_given = 1;
	a.dataset_gb = -5;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE, "negative dataset_gb");
	a = default_args();
	a.storage_months = INFINITY;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "storage_months must be in [0, Infinity), got Infinity") == 0, "infinite months: %s", e.message);
	a = default_args();
	a.egress_gb = -1;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE, "negative egress");
	a = default_args();
	a.pue = 6;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "pue must be in [1, 5], got 6") == 0, "pue checked even in the cloud: %s", e.message);
	/* each size in range, their sum not: overflow */
	a = default_args();
	a.checkpoint_gb_given = 1;
	a.checkpoint_gb = 1e300;
	a.checkpoints_kept = 1e9;
	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_ERR_OVERFLOW, "storage GB overflow");
}

/* The assumption column, in words. */
static void
test_bill_words(void)
{
	le_spec		c1024 = unit_spec(7e9, 1.4e12, 1024, 8, 989, 0.45, 700);
	le_bill_args a = default_args();
	le_bill		b;
	le_error	e;
	char		buf[512];

	le_fmt_quantity(98, buf, sizeof(buf));
	CHECK(strcmp(buf, "98") == 0, "98: %s", buf);
	le_fmt_quantity(36699.99625510243, buf, sizeof(buf));
	CHECK(strcmp(buf, "36700") == 0, "36700: %s", buf);
	le_fmt_quantity(28.712606837606835, buf, sizeof(buf));
	CHECK(strcmp(buf, "28.7126") == 0, "28.7126: %s", buf);
	le_fmt_quantity(0.05, buf, sizeof(buf));
	CHECK(strcmp(buf, "0.05") == 0, "0.05: %s", buf);
	le_fmt_quantity(0, buf, sizeof(buf));
	CHECK(strcmp(buf, "0") == 0, "0: %s", buf);
	le_fmt_duration(1800, buf, sizeof(buf));
	CHECK(strcmp(buf, "00:30:00") == 0, "30 min: %s", buf);
	le_fmt_duration(90, buf, sizeof(buf));
	CHECK(strcmp(buf, "00:01:30") == 0, "90 s: %s", buf);
	le_fmt_duration(30 * 86400, buf, sizeof(buf));
	CHECK(strcmp(buf, "720:00:00") == 0, "30 days: %s", buf);
	le_fmt_duration(0.5, buf, sizeof(buf));
	CHECK(strcmp(buf, "00:00:00.5") == 0, "half a second: %s", buf);

	CHECK(le_bill_quantities(&c1024, &a, &b, &e) == LE_OK, "ok");
	le_bill_assumption(&c1024, &a, &b, LE_BILL_COMPUTE, "$2.49", buf, sizeof(buf));
	CHECK(strcmp(buf, "36700 GPU-hours (1024 x H100-SXM5 for 35:50:23) at $2.49 per GPU-hour") == 0, "compute: %s", buf);
	le_bill_assumption(&c1024, &a, &b, LE_BILL_CHECKPOINT, NULL, buf, sizeof(buf));
	CHECK(strcmp(buf, "checkpoint every 00:30:00, each write 00:01:30 (5% of compute)") == 0, "checkpoint: %s", buf);
	le_bill_assumption(&c1024, &a, &b, LE_BILL_STORAGE, "$0.02", buf, sizeof(buf));
	CHECK(strcmp(buf, "10 checkpoints x 98 GB (14 bytes per parameter: weights + optimizer state) + 5600 GB of tokenized data (4 bytes per token) = 6580 GB at $0.02 per GB-month for 1 month") == 0,
		  "storage: %s", buf);
	le_bill_assumption(&c1024, &a, &b, LE_BILL_ENERGY, "$0.10", buf, sizeof(buf));
	CHECK(strcmp(buf, "included in the cloud GPU-hour price (owned is false)") == 0, "energy in cloud: %s", buf);
	le_bill_assumption(&c1024, &a, &b, LE_BILL_SPOT_BUFFER, "10", buf, sizeof(buf));
	CHECK(strcmp(buf, "10% of compute for spot reclaims and ablations") == 0, "spot: %s", buf);
	CHECK(strcmp(le_bill_component_name(LE_BILL_COMPUTE), "compute") == 0 &&
		  strcmp(le_bill_component_name(LE_BILL_SPOT_BUFFER), "spot_buffer") == 0 &&
		  strcmp(le_bill_component_name(LE_BILL_TOTAL), "total") == 0, "component names");
}

/*
 * A part whose power is not published (tdp_watts NULL: TPU v5e/v5p/v6e,
 * Trainium): time and cost stay, energy, carbon and an owned cluster's energy
 * row are unknown (NaN, SQL NULL), never a guessed wattage.
 */
static void
test_no_tdp(void)
{
	le_spec		s = unit_spec(7e9, 1.4e12, 256, 256, 459, 0.45, 700);
	le_bill_args a = default_args();
	le_bill		b;
	le_error	e;
	double		v,
				h;
	char		buf[512];

	s.present &= ~LE_BIT(LE_F_TDP_WATTS);
	s.text[LE_F_SKU] = "TPU-v5p";
	s.textlen[LE_F_SKU] = 7;
	CHECK(le_check_fields(&s, LE_NEED_ALL, &e) == LE_OK, "tdp_watts may be NULL: %s", e.message);
	CHECK(le_gpu_hours(&s, &h, &e) == LE_OK, "gpu hours without tdp: %s", e.message);
	NEAR(h, 6 * 7e9 * 1.4e12 / (0.45 * 459e12) / 3600, 1e-12, "GPU-hours do not need the TDP");
	CHECK(le_energy_kwh(&s, 1.0, &v, &e) == LE_OK && isnan(v), "energy unknown without tdp: %g", v);
	CHECK(le_energy_kwh(&s, 0.5, &v, &e) == LE_ERR_VALUE, "pue still checked without tdp");
	CHECK(le_carbon_kg(&s, 0.4, 1.0, &v, &e) == LE_OK && isnan(v), "carbon unknown without tdp: %g", v);
	CHECK(le_carbon_kg(&s, 3, 1.0, &v, &e) == LE_ERR_VALUE, "intensity still checked without tdp");

	CHECK(le_bill_quantities(&s, &a, &b, &e) == LE_OK && b.kwh == 0, "cloud bill: energy in the price");
	a.owned = 1;
	CHECK(le_bill_quantities(&s, &a, &b, &e) == LE_OK && isnan(b.kwh), "owned bill: energy unknown");
	le_bill_assumption(&s, &a, &b, LE_BILL_ENERGY, "$0.10", buf, sizeof(buf));
	CHECK(strcmp(buf, "unknown: the power of TPU-v5p is not published (tdp_watts is NULL)") == 0, "energy words: %s", buf);
	le_bill_assumption(&s, &a, &b, LE_BILL_TOTAL, NULL, buf, sizeof(buf));
	CHECK(strcmp(buf, "sum of the rows above: unknown, as the energy row is") == 0, "total words: %s", buf);

	/* present but out of range is still an error */
	le_spec_set_num(&s, LE_F_TDP_WATTS, 0);
	CHECK(le_energy_kwh(&s, 1.0, &v, &e) == LE_ERR_VALUE &&
		  strcmp(e.message, "tdp_watts must be in (0, 100000], got 0") == 0, "tdp 0: %s", e.message);
}

void
test_bill(void)
{
	/* fuzzing found: durations beyond 9.2e12 s overflowed the microsecond count */
	{
		char		b[64];

		le_fmt_duration(1e13, b, sizeof(b));
		CHECK(strchr(b, '-') == NULL && strstr(b, " s") != NULL, "le_fmt_duration(1e13) = \"%s\"", b);
		le_fmt_duration(9e12, b, sizeof(b));
		CHECK(strncmp(b, "2500000000:00:00", 16) == 0, "le_fmt_duration(9e12) = \"%s\"", b);
	}

	test_carbon();
	test_checkpoint_plan();
	test_bill_quantities();
	test_bill_words();
	test_no_tdp();
}
