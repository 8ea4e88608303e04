/* fuzz_core.c: libFuzzer target over the plain-C core (src/core/econ.h, bill.h): every entry point on fuzzed run_specs, with invariants. */

/*
 * Build (test/fuzz/run.sh does this):
 *   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
 *            -ffp-contract=off -Isrc test/fuzz/fuzz_core.c src/core/[a-z]*.c -lm
 *
 * Input bytes, read front to back (running out of bytes gives defaults):
 *   flags (1 byte): bit 0 start from a valid spec with a known shape (else an
 *     empty spec), bit 1 "raw" mode: int4 fields may get any double (the
 *     core's API allows it; SQL only ever passes whole int32 values), bit 2
 *     drop the shape fields from the valid base;
 *   edits (count byte, then per edit a field byte and a value): field
 *     LE_F__COUNT..255 clears a field (SQL NULL);
 *   extra arguments: pue, wall seconds, kg CO2/kWh, checkpoint write, node
 *     MTBF, the le_bill_args, a check mask, a plan buffer size, a text buffer
 *     size and a money string.
 * Set LE_FUZZ_VERBOSE=1 and run the binary on one input file to print it decoded;
 * LE_FUZZ_ALLOW_KNOWN=1 skips the invariants of known, reported bugs (below).
 *
 * Invariants checked (a violation aborts with a message, which libFuzzer
 * reports as a crash and saves the input):
 * - a status is LE_OK, LE_ERR_VALUE or LE_ERR_OVERFLOW, and is what err holds;
 *   an error has a non-empty, NUL-terminated message;
 * - LE_OK implies finite, non-negative results where the API promises them
 *   (NaN only where econ.h documents "unknown");
 * - le_check_fields(LE_NEED_ALL) OK implies every required field present, in
 *   range, and enums known; le_check_relations agrees with an integer oracle;
 * - calculations agree with each other (gpu_hours = seconds · G / 3600,
 *   comm_total = sum of comm_breakdown, achieved_mfu(train_seconds) = mfu,
 *   the spec's own layout is among plan_parallelism's with the same memory
 *   and communication);
 * - plan_parallelism writes at most cap plans, counts the same with and
 *   without a buffer, lists only valid layouts, and le_plan_sort orders them;
 * - text helpers stay inside their buffer and print durations/quantities
 *   that read back as the value.
 */
#include "core/econ.h"
#include "core/bill.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	verbose = -1;

/*
 * LE_FUZZ_ALLOW_KNOWN=1 skips the invariants of bugs already reported and not
 * yet fixed, so that a run can look for others.  None is open: the one this
 * target found (le_fmt_duration overflowing its microseconds between 9.2e12
 * and 1e15 s) is fixed, and corpus/core/wall_1e14_seconds keeps it fixed.
 */
static int	allow_known = -1;


/* ---- invariant failures ---- */

static void
fail(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "INVARIANT VIOLATED (fuzz_core): ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

#define REQUIRE(cond, ...) do { if (!(cond)) fail(__VA_ARGS__); } while (0)

/* ---- reading the input ---- */

typedef struct reader
{
	const uint8_t *p;
	size_t		n;
} reader;

static int
has(const reader *r, size_t k)
{
	return r->n >= k;
}

static uint8_t
u8(reader *r, uint8_t dflt)
{
	uint8_t		v;

	if (!has(r, 1))
		return dflt;
	v = r->p[0];
	r->p++;
	r->n--;
	return v;
}

static uint64_t
bytes_le(reader *r, int k)
{
	uint64_t	v = 0;

	for (int i = 0; i < k; i++)
		v |= (uint64_t) u8(r, 0) << (8 * i);
	return v;
}

/* Interesting doubles: bounds of the ranges and just beyond them, specials. */
static const double specials[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 4.0, 8.0, 16.0, 64.0, 4096.0, 4097.0,
	1e5, 1e5 + 1, 1e6, 1e7, 1e9, 1e9 + 1, 1e12, 1e13, 1e15, 1e15 * (1 + DBL_EPSILON),
	1e18, 1e18 * (1 + DBL_EPSILON), 1e20, 1e100, 1e300, DBL_MAX, -DBL_MAX,
	DBL_MIN, DBL_MIN / 4, 5e-324, 1e-300, 1e-12, 2147483647.0, 2147483648.0,
	-2147483648.0, 9.3e12, 1e-6, 0.4, 0.45, 1.0000000000000002, 0.9999999999999999,
	NAN, -NAN, INFINITY, -INFINITY, 1800.0, 90.0, 2592000.0, 720720.0,
	2095133040.0, 1e12 * (1 + DBL_EPSILON), 5.0, 5.000000000000001,
};

/*
 * A value in one of several shapes (the kind byte picks it), so that the
 * fuzzer reaches both valid runs and every edge.  whole: an int4 field
 * outside raw mode (SQL gives whole int32 values only).
 */
static double
value(reader *r, int whole)
{
	uint8_t		kind = u8(r, 0);
	double		v;

	switch (kind % 8)
	{
		case 0:					/* small whole number */
			v = u8(r, 1);
			break;
		case 1:					/* int16 */
			v = (int16_t) bytes_le(r, 2);
			break;
		case 2:					/* int32 */
			v = (int32_t) bytes_le(r, 4);
			break;
		case 3:					/* any double, bit for bit */
			{
				uint64_t	b = bytes_le(r, 8);

				memcpy(&v, &b, sizeof(v));
				break;
			}
		case 4:
			v = specials[u8(r, 0) % (sizeof(specials) / sizeof(specials[0]))];
			break;
		case 5:					/* power of two */
			v = ldexp(1.0, (int) (u8(r, 0) % 64));
			break;
		case 6:					/* a number with many divisors: 2^a 3^b 5^c 7^d */
			{
				uint8_t		a = u8(r, 0),
							b = u8(r, 0);

				v = ldexp(1.0, a % 16) * pow(3, (a >> 4) % 8) * pow(5, b % 5) * pow(7, (b >> 4) % 4);
				break;
			}
		default:				/* mantissa × 10^exponent: 1e-30 .. 1e33 */
			v = (double) (bytes_le(r, 2) + 1) * pow(10.0, (double) ((int) (u8(r, 0) % 64) - 34));
			break;
	}
	if (whole)
	{
		/* what DatumGetInt32 can give: a whole int32 */
		if (!isfinite(v))
			v = 0;
		v = trunc(v);
		if (v > 2147483647.0 || v < -2147483648.0)
			v = (double) (int32_t) (int64_t) fmod(v, 4294967296.0);
	}
	return v;
}

/* Texts for sku and the enum fields; they must outlive the spec (static or in the input). */
static const char *const enum_texts[] = {
	"fp32", "tf32", "bf16", "fp16", "fp8", "none", "selective", "full",
	"adamw", "adamw_8bit", "sgd", "on_demand", "spot", "reserved",
	"", "BF16", "bf16 ", "bf1", "bf16\0x", "adamw_8bi", "H100-SXM5", "?",
};

static void
set_text(reader *r, le_spec *s, le_field f)
{
	uint8_t		kind = u8(r, 0);

	if (kind % 4 != 3)
	{
		const char *t = enum_texts[u8(r, 0) % (sizeof(enum_texts) / sizeof(enum_texts[0]))];
		size_t		len = strlen(t);

		if (strcmp(t, "bf16") == 0 && kind % 4 == 2)
			len = 7;			/* "bf16\0x": an embedded NUL after a valid name */
		le_spec_set_text(s, f, t, len);
	}
	else
	{
		/* raw bytes of the input (a text datum may hold any bytes) */
		size_t		len = u8(r, 0) % 80;

		if (len > r->n)
			len = r->n;
		le_spec_set_text(s, f, (const char *) r->p, len);
		r->p += len;
		r->n -= len;
	}
}

/* The spec the fuzzer starts from: Chinchilla 7B on 64 H100 with a known shape. */
static void
base_spec(le_spec *s, int shape)
{
	le_spec_clear(s);
	le_spec_set_num(s, LE_F_N_PARAMS, 7e9);
	le_spec_set_num(s, LE_F_N_TOKENS, 1.4e12);
	le_spec_set_text(s, LE_F_SKU, "H100-SXM5", 9);
	le_spec_set_num(s, LE_F_N_GPUS, 64);
	le_spec_set_num(s, LE_F_GPUS_PER_NODE, 8);
	le_spec_set_num(s, LE_F_MFU, 0.45);
	le_spec_set_text(s, LE_F_DTYPE, "bf16", 4);
	le_spec_set_num(s, LE_F_PEAK_FLOPS, 989e12);
	le_spec_set_num(s, LE_F_HBM_BYTES, 80e9);
	le_spec_set_num(s, LE_F_INTRA_BW, 450e9);
	le_spec_set_num(s, LE_F_INTER_BW, 50e9);
	le_spec_set_num(s, LE_F_TDP_WATTS, 700);
	if (shape)
	{
		le_spec_set_num(s, LE_F_N_LAYERS, 32);
		le_spec_set_num(s, LE_F_D_MODEL, 4096);
		le_spec_set_num(s, LE_F_N_HEADS, 32);
		le_spec_set_num(s, LE_F_SEQ_LEN, 2048);
		le_spec_set_num(s, LE_F_GLOBAL_BATCH, 512);
	}
	le_spec_set_num(s, LE_F_MICRO_BATCH, 1);
	le_spec_set_num(s, LE_F_TP, 1);
	le_spec_set_num(s, LE_F_PP, 1);
	le_spec_set_num(s, LE_F_ZERO_STAGE, 0);
	le_spec_set_text(s, LE_F_RECOMPUTE, "none", 4);
	le_spec_set_text(s, LE_F_OPTIMIZER, "adamw", 5);
}

/* ---- checks shared by every call ---- */

static void
check_status(const char *fn, le_status st, const le_error *err)
{
	REQUIRE(st == LE_OK || st == LE_ERR_VALUE || st == LE_ERR_OVERFLOW, "%s: status %d", fn, (int) st);
	if (st != LE_OK)
	{
		REQUIRE(err->status == st, "%s: returned %d but err->status is %d", fn, (int) st, (int) err->status);
		REQUIRE(memchr(err->message, '\0', sizeof(err->message)) != NULL, "%s: message not terminated", fn);
		REQUIRE(memchr(err->detail, '\0', sizeof(err->detail)) != NULL, "%s: detail not terminated", fn);
		REQUIRE(err->message[0] != '\0', "%s: error %d with an empty message", fn, (int) st);
	}
}

/* A fresh error block, poisoned so that a call which "fails" without filling it is noticed. */
static void
err_reset(le_error *err)
{
	memset(err, 0, sizeof(*err));
	err->status = (le_status) 77;
}

static int
finite_nonneg(double v)
{
	return isfinite(v) && v >= 0;
}

static int
same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* |a - b| <= tol · max(|a|, |b|) */
static int
near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* Fields the caller set to whole numbers (the cross-field oracle needs them whole). */
static int
int_fields_whole(const le_spec *s)
{
	for (int f = 0; f < LE_F__COUNT; f++)
		if (le_field_kind((le_field) f) == LE_K_INT4 && (s->present & LE_BIT(f)) &&
			s->num[f] != trunc(s->num[f]))
			return 0;
	return 1;
}

/* Independent range table (README "Type run_spec"): lo, lo_open, hi. */
static int
in_range(le_field f, double v)
{
	static const struct
	{
		double		lo;
		int			lo_open;
		double		hi;
	}			r[LE_F__COUNT] = {
		[LE_F_N_PARAMS] = {0, 1, 1e18},
		[LE_F_N_TOKENS] = {0, 1, 1e18},
		[LE_F_N_GPUS] = {1, 0, 2147483647.0},
		[LE_F_GPUS_PER_NODE] = {1, 0, 4096},
		[LE_F_MFU] = {0, 1, 1},
		[LE_F_PEAK_FLOPS] = {0, 1, 1e18},
		[LE_F_HBM_BYTES] = {0, 1, 1e15},
		[LE_F_INTRA_BW] = {0, 1, 1e15},
		[LE_F_INTER_BW] = {0, 1, 1e15},
		[LE_F_TDP_WATTS] = {0, 1, 1e5},
		[LE_F_N_LAYERS] = {1, 0, 1e5},
		[LE_F_D_MODEL] = {1, 0, 1e7},
		[LE_F_N_HEADS] = {1, 0, 1e6},
		[LE_F_SEQ_LEN] = {1, 0, 1e9},
		[LE_F_MICRO_BATCH] = {1, 0, 1e9},
		[LE_F_GLOBAL_BATCH] = {1, 0, 2147483647.0},
		[LE_F_TP] = {1, 0, 2147483647.0},
		[LE_F_PP] = {1, 0, 2147483647.0},
		[LE_F_ZERO_STAGE] = {0, 0, 3},
		[LE_F_N_ACTIVE_PARAMS] = {0, 1, 1e18},
		[LE_F_N_EXPERTS] = {1, 0, 1e6},
		[LE_F_TOP_K] = {1, 0, 1e6},
		[LE_F_EP] = {1, 0, 2147483647.0},
		[LE_F_CP] = {1, 0, 2147483647.0},
		[LE_F_VPP] = {1, 0, 1e5},
		[LE_F_N_KV_HEADS] = {1, 0, 1e6},
		[LE_F_FFN_HIDDEN] = {1, 0, 1e8},
		[LE_F_VOCAB_SIZE] = {1, 0, 1e8},
		[LE_F_HBM_BW] = {0, 1, 1e15},
		[LE_F_Q_LORA_RANK] = {1, 0, 1e6},
		[LE_F_KV_LORA_RANK] = {1, 0, 1e6},
		[LE_F_QK_NOPE_HEAD_DIM] = {1, 0, 1e5},
		[LE_F_QK_ROPE_HEAD_DIM] = {1, 0, 1e5},
		[LE_F_V_HEAD_DIM] = {1, 0, 1e5},
	};

	return isfinite(v) && (r[f].lo_open ? v > r[f].lo : v >= r[f].lo) && v <= r[f].hi;
}

/* What le_check_fields(need) must answer, computed independently. */
static int
fields_ok_oracle(const le_spec *s, le_fieldset need)
{
	for (int f = 0; f < LE_F__COUNT; f++)
	{
		if (!(need & LE_BIT(f)))
			continue;
		if (!(s->present & LE_BIT(f)))
		{
			if (LE_OPTIONAL & LE_BIT(f))
				continue;
			return 0;
		}
		switch (le_field_kind((le_field) f))
		{
			case LE_K_FLOAT8:
			case LE_K_INT4:
				if (!in_range((le_field) f, s->num[f]))
					return 0;
				break;
			case LE_K_TEXT:
				if (s->textlen[f] == 0)
					return 0;
				break;
			case LE_K_ENUM:
				if (le_enum_parse(le_field_enum((le_field) f), s->text[f], s->textlen[f]) < 0)
					return 0;
				break;
			case LE_K_BOOL:
				if (s->num[f] != 0 && s->num[f] != 1)
					return 0;
				break;
		}
	}
	return 1;
}

/* A field as an integer, or dflt when NULL. */
static int64_t
int_or(const le_spec *s, le_field f, int64_t dflt)
{
	return (s->present & LE_BIT(f)) ? (int64_t) s->num[f] : dflt;
}

/* Cross-field rules with 64-bit integers (fields whole and in range). */
static int
relations_oracle(const le_spec *s)
{
	int64_t		g = (int64_t) s->num[LE_F_N_GPUS],
				tp = (int64_t) s->num[LE_F_TP],
				pp = (int64_t) s->num[LE_F_PP],
				cp = int_or(s, LE_F_CP, 1),
				ep = int_or(s, LE_F_EP, 1),
				vpp = int_or(s, LE_F_VPP, 1),
				dp;
	int			moe = (s->present & LE_BIT(LE_F_N_EXPERTS)) != 0;
	int			mla = (s->present & LE_BIT(LE_F_KV_LORA_RANK)) != 0;
	int			mla_set = mla + ((s->present & LE_BIT(LE_F_QK_NOPE_HEAD_DIM)) != 0) +
		((s->present & LE_BIT(LE_F_QK_ROPE_HEAD_DIM)) != 0) + ((s->present & LE_BIT(LE_F_V_HEAD_DIM)) != 0);

	/* tp·pp·cp ≤ 3 · 2^31 · ... may exceed g: compare in steps to stay in range */
	if (tp > g || pp > g || cp > g || tp * pp > g || tp * pp * cp > g || g % (tp * pp * cp) != 0)
		return 0;
	dp = g / (tp * pp * cp);
	if (s->present & LE_BIT(LE_F_GLOBAL_BATCH))
	{
		int64_t		per = (int64_t) s->num[LE_F_MICRO_BATCH] * dp;
		int64_t		gb = (int64_t) s->num[LE_F_GLOBAL_BATCH];

		if (gb < per || gb % per != 0)
			return 0;
	}
	if ((s->present & LE_BIT(LE_F_D_MODEL)) && (s->present & LE_BIT(LE_F_N_HEADS)) && !mla &&
		(int64_t) s->num[LE_F_D_MODEL] % (int64_t) s->num[LE_F_N_HEADS] != 0)
		return 0;
	if ((s->present & LE_BIT(LE_F_N_HEADS)) && (int64_t) s->num[LE_F_N_HEADS] % tp != 0)
		return 0;
	/* since 0.3.0 pp need not divide n_layers, but cannot exceed it */
	if ((s->present & LE_BIT(LE_F_N_LAYERS)) && (int64_t) s->num[LE_F_N_LAYERS] < pp)
		return 0;
	/* mixture of experts, ep, cp, vpp, GQA (validate.c check_modern) */
	if (moe != ((s->present & LE_BIT(LE_F_TOP_K)) != 0))
		return 0;
	if (moe && s->num[LE_F_TOP_K] > s->num[LE_F_N_EXPERTS])
		return 0;
	if ((s->present & LE_BIT(LE_F_N_ACTIVE_PARAMS)) && s->num[LE_F_N_ACTIVE_PARAMS] > s->num[LE_F_N_PARAMS])
		return 0;
	if ((s->present & LE_BIT(LE_F_N_ACTIVE_PARAMS)) && s->num[LE_F_N_ACTIVE_PARAMS] < s->num[LE_F_N_PARAMS] && !moe)
		return 0;
	if (moe && s->num[LE_F_TOP_K] < s->num[LE_F_N_EXPERTS] &&
		!((s->present & LE_BIT(LE_F_N_ACTIVE_PARAMS)) && s->num[LE_F_N_ACTIVE_PARAMS] < s->num[LE_F_N_PARAMS]))
		return 0;
	if (ep > 1 && !moe)
		return 0;
	if (ep > dp || dp % ep != 0)
		return 0;
	if (moe && (int64_t) s->num[LE_F_N_EXPERTS] % ep != 0)
		return 0;
	if (cp > 1 && (s->present & LE_BIT(LE_F_SEQ_LEN)) && (int64_t) s->num[LE_F_SEQ_LEN] % (2 * cp) != 0)
		return 0;
	if (vpp > 1 && pp < 2)
		return 0;
	/* uneven virtual stages allowed (Llama 3: 126 layers on 16 x 2), at least one layer each */
	if (vpp > 1 && (s->present & LE_BIT(LE_F_N_LAYERS)) &&
		pp * vpp > (int64_t) s->num[LE_F_N_LAYERS])
		return 0;
	if ((s->present & LE_BIT(LE_F_N_KV_HEADS)) && (s->present & LE_BIT(LE_F_N_HEADS)) &&
		(int64_t) s->num[LE_F_N_HEADS] % (int64_t) s->num[LE_F_N_KV_HEADS] != 0)
		return 0;
	/* latent attention (validate.c check_mla): four together, q_lora_rank only with them, no GQA */
	if (mla_set != 0 && mla_set != 4)
		return 0;
	if (mla_set == 0 && (s->present & LE_BIT(LE_F_Q_LORA_RANK)))
		return 0;
	if (mla && (s->present & LE_BIT(LE_F_N_KV_HEADS)) && (s->present & LE_BIT(LE_F_N_HEADS)) &&
		s->num[LE_F_N_KV_HEADS] != s->num[LE_F_N_HEADS])
		return 0;
	/* n_params (and n_active_params) within [LO, HI] times what a given shape holds: the band is
	 * checked here, the count itself by the unit tests' worked figures (test_step_spec.c) */
	{
		double		total,
					active;

		if (le_shape_params(s, &total, &active))
		{
			if (!(s->num[LE_F_N_PARAMS] >= LE_SHAPE_PARAMS_LO * total &&
				  s->num[LE_F_N_PARAMS] <= LE_SHAPE_PARAMS_HI * total))
				return 0;
			if ((s->present & LE_BIT(LE_F_N_ACTIVE_PARAMS)) &&
				!(s->num[LE_F_N_ACTIVE_PARAMS] >= LE_SHAPE_PARAMS_LO * active &&
				  s->num[LE_F_N_ACTIVE_PARAMS] <= LE_SHAPE_PARAMS_HI * active))
				return 0;
		}
	}
	return 1;
}

/* ---- text helpers ---- */

/* A buffer of exactly n bytes on the heap, so that ASan sees any write past it. */
static char *
text_buf(size_t n)
{
	char	   *b = malloc(n);

	if (b == NULL)
		abort();
	memset(b, 'Z', n);
	return b;
}

static void
check_terminated(const char *fn, const char *b, size_t n)
{
	REQUIRE(memchr(b, '\0', n) != NULL, "%s: output not NUL-terminated within %zu bytes", fn, n);
}

/*
 * le_fmt_duration: hours:minutes:seconds for 0 <= s <= 9.2e12 (bill.c's own
 * limit for that form), "<quantity> s" otherwise; the text must read back as
 * the value (to the microsecond, as llround rounds it).
 */
static void
check_duration(double sec, size_t n)
{
	char	   *b = text_buf(n);

	le_fmt_duration(sec, b, n);
	check_terminated("le_fmt_duration", b, n);
	if (n >= 64 && isfinite(sec) && sec >= 0 && sec <= 9.2e12)
	{
		long long	h = -1,
					mi = -1;
		double		s = -1;
		char		tail = 0;

		REQUIRE(sscanf(b, "%lld:%lld:%lf%c", &h, &mi, &s, &tail) == 3 && h >= 0 && mi >= 0 && mi < 60 &&
				s >= 0 && s < 60 && b[0] >= '0' && b[0] <= '9',
				"le_fmt_duration(%.17g) printed \"%s\": not hours:minutes:seconds", sec, b);
		REQUIRE(fabs(((double) h * 3600 + (double) mi * 60 + s) - sec) <= fmax(1e-6, sec * 1e-15),
				"le_fmt_duration(%.17g) printed \"%s\", which is another duration", sec, b);
	}
	free(b);
}

/* le_fmt_quantity: about six significant digits (at most 6 decimals), reads back as the value. */
static void
check_quantity(double v, size_t n)
{
	char	   *b = text_buf(n);

	le_fmt_quantity(v, b, n);
	check_terminated("le_fmt_quantity", b, n);
	if (n >= 64 && isfinite(v))
	{
		char	   *end;
		double		back = strtod(b, &end);
		double		a = fabs(v),
					tol;

		REQUIRE(*end == '\0' && end != b, "le_fmt_quantity(%.17g) printed \"%s\": not a number", v, b);
		if (a >= 1e15)
			tol = a * 5e-6;
		else
		{
			int			dec = a == 0 ? 6 : 5 - (int) floor(log10(a));

			dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
			tol = 0.5 * pow(10.0, -dec) * (1 + 1e-9) + a * 1e-15;
		}
		REQUIRE(fabs(back - v) <= tol, "le_fmt_quantity(%.17g) printed \"%s\"", v, b);
	}
	free(b);
}

/* ---- the calls ---- */

static void
print_spec(const le_spec *s)
{
	for (int f = 0; f < LE_F__COUNT; f++)
	{
		if (!(s->present & LE_BIT(f)))
			fprintf(stderr, "  %-24s NULL\n", le_field_name((le_field) f));
		else if (le_field_kind((le_field) f) == LE_K_TEXT || le_field_kind((le_field) f) == LE_K_ENUM)
			fprintf(stderr, "  %-24s \"%.*s\" (len %zu, code %g)\n", le_field_name((le_field) f),
					(int) s->textlen[f], s->text[f], s->textlen[f], s->num[f]);
		else
			fprintf(stderr, "  %-24s %.17g\n", le_field_name((le_field) f), s->num[f]);
	}
}

static void
fuzz_model(const le_spec *s, double pue, double wall, int checked_all)
{
	le_error	e;
	le_status	st_f,
				st_t,
				st_h,
				st_e,
				st_a;
	double		flops = -1,
				sec = -1,
				hours = -1,
				kwh = -1,
				mfu = -1;
	/* n_active_params, when given, is at most n_params (both in range or a range error anyway) */
	int			active_ok = !((s->present & LE_BIT(LE_F_N_ACTIVE_PARAMS)) && (s->present & LE_BIT(LE_F_N_PARAMS)) &&
							  s->num[LE_F_N_ACTIVE_PARAMS] > s->num[LE_F_N_PARAMS]);

	err_reset(&e);
	st_f = le_training_flops(s, &flops, &e);
	check_status("le_training_flops", st_f, &e);
	if (st_f == LE_OK)
		REQUIRE(finite_nonneg(flops), "training_flops OK but %.17g", flops);
	/* the fields in range, and the active parameters no more than all of them */
	REQUIRE((st_f == LE_ERR_VALUE) == !(fields_ok_oracle(s, LE_NEED_FLOPS) && active_ok),
			"training_flops status %d disagrees with the field ranges", (int) st_f);

	err_reset(&e);
	st_t = le_train_seconds(s, &sec, &e);
	check_status("le_train_seconds", st_t, &e);
	if (st_t == LE_OK)
	{
		REQUIRE(finite_nonneg(sec), "train_seconds OK but %.17g", sec);
		REQUIRE(st_f == LE_OK, "train_seconds OK but training_flops failed");
	}
	REQUIRE((st_t == LE_ERR_VALUE) == !(fields_ok_oracle(s, LE_NEED_TIME) && active_ok),
			"train_seconds status %d disagrees with the field ranges", (int) st_t);

	err_reset(&e);
	st_h = le_gpu_hours(s, &hours, &e);
	check_status("le_gpu_hours", st_h, &e);
	if (st_h == LE_OK)
	{
		REQUIRE(finite_nonneg(hours), "gpu_hours OK but %.17g", hours);
		REQUIRE(st_t == LE_OK && hours == sec / 3600.0 * s->num[LE_F_N_GPUS],
				"gpu_hours %.17g is not train_seconds %.17g / 3600 * n_gpus", hours, sec);
	}
	else
		REQUIRE(st_t != LE_OK || st_h == LE_ERR_OVERFLOW, "gpu_hours failed with %d after train_seconds OK", (int) st_h);

	err_reset(&e);
	st_e = le_energy_kwh(s, pue, &kwh, &e);
	check_status("le_energy_kwh", st_e, &e);
	if (st_e == LE_OK)
	{
		/* tdp_watts NULL (power not published): energy unknown, NaN, and only then */
		REQUIRE((s->present & LE_BIT(LE_F_TDP_WATTS)) ? finite_nonneg(kwh) : isnan(kwh),
				"energy_kwh OK but %.17g (tdp_watts %s)", kwh, (s->present & LE_BIT(LE_F_TDP_WATTS)) ? "set" : "NULL");
		REQUIRE(st_h == LE_OK && pue >= LE_PUE_MIN && pue <= LE_PUE_MAX, "energy_kwh OK with bad pue or gpu_hours");
	}

	err_reset(&e);
	st_a = le_achieved_mfu(s, wall, &mfu, &e);
	check_status("le_achieved_mfu", st_a, &e);
	if (st_a == LE_OK)
		REQUIRE(finite_nonneg(mfu), "achieved_mfu OK but %.17g", mfu);

	/* round trip: the MFU a run achieves in its own planned time is the spec's MFU */
	if (st_t == LE_OK && sec > 1e-3 && sec <= 1e13 && flops > 1e-250)
	{
		err_reset(&e);
		st_a = le_achieved_mfu(s, sec, &mfu, &e);
		check_status("le_achieved_mfu", st_a, &e);
		REQUIRE(st_a == LE_OK && near(mfu, s->num[LE_F_MFU], 1e-12),
				"achieved_mfu(spec, train_seconds = %.17g) = %.17g (status %d), spec mfu %.17g",
				sec, mfu, (int) st_a, s->num[LE_F_MFU]);
	}
	(void) checked_all;
}

static void
fuzz_memory_comm(const le_spec *s, int checked_all, int rel_ok)
{
	le_error	e;
	le_memory	m;
	le_status	st_m,
				st_c,
				st_t;
	le_comm_row *rows;
	int			nrows = -1;
	double		bytes = -1,
				secs = -1;

	err_reset(&e);
	st_m = le_memory_per_gpu(s, &m, &e);
	check_status("le_memory_per_gpu", st_m, &e);
	if (st_m == LE_OK)
	{
		le_tribool	fit = le_fits(&m);

		REQUIRE(fields_ok_oracle(s, LE_NEED_MEMORY), "memory_per_gpu OK with a bad field");
		if (int_fields_whole(s))
			REQUIRE(relations_oracle(s), "memory_per_gpu OK but the cross-field rules fail");
		REQUIRE(finite_nonneg(m.weights) && finite_nonneg(m.grads) && finite_nonneg(m.optimizer) &&
				finite_nonneg(m.overhead) && finite_nonneg(m.hbm),
				"memory_per_gpu OK with weights %g grads %g optimizer %g overhead %g hbm %g",
				m.weights, m.grads, m.optimizer, m.overhead, m.hbm);
		REQUIRE(m.overhead >= LE_OVERHEAD_FIXED_BYTES, "overhead %g below the fixed part", m.overhead);
		if (le_shape_known(s))
		{
			REQUIRE(finite_nonneg(m.activations) && finite_nonneg(m.total),
					"shape known but activations %g total %g", m.activations, m.total);
			REQUIRE(fit == (m.total <= m.hbm ? LE_TRUE : LE_FALSE), "fits %d but total %g hbm %g", (int) fit, m.total, m.hbm);
		}
		else
		{
			REQUIRE(isnan(m.activations) && isnan(m.total), "shape unknown but activations %g total %g", m.activations, m.total);
			REQUIRE(fit == LE_FALSE || fit == LE_UNKNOWN, "shape unknown but fits %d", (int) fit);
		}
	}
	else if (checked_all && rel_ok)
		REQUIRE(st_m == LE_ERR_OVERFLOW, "memory_per_gpu: %s, on a spec that passes every check", e.message);

	/* exactly LE_COMM_MAX_ROWS rows on the heap: ASan catches a seventh */
	rows = malloc(sizeof(le_comm_row) * LE_COMM_MAX_ROWS);
	if (rows == NULL)
		abort();
	err_reset(&e);
	st_c = le_comm_breakdown(s, rows, &nrows, &e);
	check_status("le_comm_breakdown", st_c, &e);
	if (st_c == LE_OK)
	{
		int			known = (s->present & LE_BIT(LE_F_GLOBAL_BATCH)) && (s->present & LE_BIT(LE_F_N_LAYERS)) &&
			(s->present & LE_BIT(LE_F_D_MODEL)) && (s->present & LE_BIT(LE_F_SEQ_LEN));
		double		dp = le_dp(s);
		double		stride = s->num[LE_F_TP] * le_num_or(s, LE_F_CP, 1) * dp;
		/* pp: one row, or an NVLink and a network row when only neighbouring stages share a node */
		int			pp_rows = s->num[LE_F_PP] <= 1 ? 0 :
			(s->num[LE_F_N_GPUS] > s->num[LE_F_GPUS_PER_NODE] && stride < s->num[LE_F_GPUS_PER_NODE]) ? 2 : 1;
		/* gradients are reduced over the dp·cp ranks holding the same weights (0.5.0) */
		int			want = (dp * le_num_or(s, LE_F_CP, 1) > 1 ? ((int) s->num[LE_F_ZERO_STAGE] == 0 ? 1 : 2) : 0) +
			(s->num[LE_F_TP] > 1) + (le_num_or(s, LE_F_CP, 1) > 1) + (le_num_or(s, LE_F_EP, 1) > 1) + pp_rows;
		double		sb = 0,
					ss = 0;

		REQUIRE(nrows == want, "comm_breakdown gave %d rows, expected %d", nrows, want);
		for (int i = 0; i < nrows; i++)
		{
			le_comm_row *r = &rows[i];

			REQUIRE(r->parallelism && r->collective && r->link, "comm row %d has a NULL name", i);
			REQUIRE(strcmp(r->link, "nvlink") == 0 || strcmp(r->link, "network") == 0, "comm link %s", r->link);
			REQUIRE(isnan(r->bytes) == isnan(r->seconds), "comm row %d: bytes %g seconds %g", i, r->bytes, r->seconds);
			REQUIRE(isnan(r->bytes) || finite_nonneg(r->bytes), "comm row %d: bytes %g", i, r->bytes);
			REQUIRE(isnan(r->seconds) || finite_nonneg(r->seconds), "comm row %d: seconds %g", i, r->seconds);
			if (known)
				REQUIRE(!isnan(r->bytes), "comm row %d (%s %s) unknown although the shape and batch are known",
						i, r->parallelism, r->collective);
			sb += r->bytes;
			ss += r->seconds;
		}
		err_reset(&e);
		st_t = le_comm_total(s, &bytes, &secs, &e);
		check_status("le_comm_total", st_t, &e);
		if (st_t == LE_OK)
			REQUIRE(same_double(bytes, sb) && same_double(secs, ss),
					"comm_total %g/%g is not the sum of comm_breakdown %g/%g", bytes, secs, sb, ss);
		else
			REQUIRE(st_t == LE_ERR_OVERFLOW && (isinf(sb) || isinf(ss)), "comm_total failed: %s", e.message);
	}
	else
	{
		err_reset(&e);
		st_t = le_comm_total(s, &bytes, &secs, &e);
		check_status("le_comm_total", st_t, &e);
		REQUIRE(st_t == st_c, "comm_total status %d, comm_breakdown %d", (int) st_t, (int) st_c);
		if (checked_all && rel_ok && fields_ok_oracle(s, LE_NEED_ALL))
			REQUIRE(st_c == LE_ERR_OVERFLOW, "comm_breakdown: %s, on a spec that passes every check", e.message);
	}
	free(rows);
}

static int
fits_rank(le_tribool f)
{
	return f == LE_TRUE ? 0 : f == LE_UNKNOWN ? 1 : 2;
}

static void
fuzz_plan(const le_spec *s, long cap, int whole)
{
	le_error	e;
	le_plan    *buf;
	long		n0 = -1,
				n = -1;
	le_status	st0,
				st;

	/* the SQL layer's pattern: count with no buffer, then fill */
	err_reset(&e);
	st0 = le_plan_parallelism(s, NULL, 0, &n0, &e);
	check_status("le_plan_parallelism", st0, &e);

	buf = malloc(sizeof(le_plan) * (size_t) (cap > 0 ? cap : 1));
	if (buf == NULL)
		abort();
	err_reset(&e);
	st = le_plan_parallelism(s, buf, cap, &n, &e);
	check_status("le_plan_parallelism", st, &e);
	REQUIRE(st == st0 && (st != LE_OK || n == n0), "plan_parallelism: %ld plans (status %d) without a buffer, %ld (status %d) with one",
			n0, (int) st0, n, (int) st);
	if (st == LE_OK)
	{
		long		k = n < cap ? n : cap;
		double		g = s->num[LE_F_N_GPUS];
		int			gpn = (int) s->num[LE_F_GPUS_PER_NODE];

		REQUIRE(n >= 0 && n <= LE_PLAN_MAX, "plan count %ld", n);
		for (long i = 0; i < k; i++)
		{
			le_plan    *p = &buf[i];

			REQUIRE(p->tp >= 1 && p->pp >= 1 && p->dp >= 1, "plan %ld: tp %d pp %d dp %d", i, p->tp, p->pp, p->dp);
			if (whole)
				REQUIRE((double) p->tp * p->pp * p->dp * le_num_or(s, LE_F_CP, 1) == g && gpn % p->tp == 0,
						"plan %ld: tp %d * pp %d * dp %d (* cp) != n_gpus %g or tp does not divide gpus_per_node %d",
						i, p->tp, p->pp, p->dp, g, gpn);
			REQUIRE(p->zero_stage >= 0 && p->zero_stage <= 3 && p->recompute >= 0 && p->recompute <= 2,
					"plan %ld: zero %d recompute %d", i, p->zero_stage, p->recompute);
			/* ZeRO shards over data parallelism; ZeRO-2/3 with pp > 1 is offered (docs/model.md) */
			REQUIRE(!(p->zero_stage > 0 && p->dp == 1),
					"plan %ld: zero %d with dp %d", i, p->zero_stage, p->dp);
			REQUIRE(p->fits == LE_TRUE || p->fits == LE_FALSE || p->fits == LE_UNKNOWN, "plan %ld: fits %d", i, (int) p->fits);
			REQUIRE(isnan(p->total_bytes) || finite_nonneg(p->total_bytes), "plan %ld: total %g", i, p->total_bytes);
			REQUIRE(finite_nonneg(p->states_bytes), "plan %ld: states %g", i, p->states_bytes);
			REQUIRE(isnan(p->comm_seconds) || finite_nonneg(p->comm_seconds), "plan %ld: comm %g", i, p->comm_seconds);
			REQUIRE(isnan(p->step_seconds) || p->step_seconds >= 0, "plan %ld: step %g", i, p->step_seconds);
			if (!le_shape_known(s))
				REQUIRE(p->recompute == LE_RC_NONE, "plan %ld: recompute %d without a shape", i, p->recompute);
		}

		/* the spec's own layout, when it is one the search allows, is listed, with the same numbers */
		if (whole && n <= cap && fields_ok_oracle(s, LE_NEED_ALL))
		{
			le_memory	m;
			double		cb,
						cs;
			int			tp = (int) s->num[LE_F_TP],
						pp = (int) s->num[LE_F_PP],
						zero = (int) s->num[LE_F_ZERO_STAGE],
						rc = (int) s->num[LE_F_RECOMPUTE];
			double		dp = le_dp(s);
			le_status	sm,
						sc;

			err_reset(&e);
			sm = le_memory_per_gpu(s, &m, &e);
			err_reset(&e);
			sc = le_comm_total(s, &cb, &cs, &e);
			if (sm == LE_OK && sc == LE_OK && gpn % tp == 0 && !(zero > 0 && dp == 1) &&
				(le_shape_known(s) || rc == LE_RC_NONE))
			{
				long		i;

				for (i = 0; i < n; i++)
					if (buf[i].tp == tp && buf[i].pp == pp && buf[i].zero_stage == zero && buf[i].recompute == rc)
						break;
				REQUIRE(i < n, "the spec's own layout tp %d pp %d zero %d recompute %d is not among the %ld plans",
						tp, pp, zero, rc, n);
				REQUIRE(same_double(buf[i].total_bytes, m.total) && same_double(buf[i].comm_seconds, cs) &&
						buf[i].fits == le_fits(&m),
						"plan for the spec's own layout: total %g comm %g fits %d; memory_per_gpu %g, comm_total %g, fits %d",
						buf[i].total_bytes, buf[i].comm_seconds, (int) buf[i].fits, m.total, cs, (int) le_fits(&m));
			}
		}

		le_plan_sort(buf, k);
		for (long i = 1; i < k; i++)
			REQUIRE(fits_rank(buf[i - 1].fits) <= fits_rank(buf[i].fits),
					"plan_sort: plan %ld (fits %d) after plan %ld (fits %d)", i, (int) buf[i].fits, i - 1, (int) buf[i - 1].fits);
	}
	free(buf);
}

static void
fuzz_bill(const le_spec *s, reader *r, double pue)
{
	le_error	e;
	le_status	st;
	double		kg = -1,
				co2 = value(r, 0),
				write = value(r, 0),
				mtbf = value(r, 0);
	le_ckpt_plan cp;
	le_bill_args a;
	le_bill		b;
	uint8_t		given = u8(r, 0x0f);
	size_t		n = 1 + (size_t) u8(r, 255) * 3;	/* text buffer: 1 .. 766 bytes */
	size_t		mlen = u8(r, 0) % 24;
	char		money[32] = "$2.49";

	err_reset(&e);
	st = le_carbon_kg(s, co2, pue, &kg, &e);
	check_status("le_carbon_kg", st, &e);
	if (st == LE_OK)
		REQUIRE(((s->present & LE_BIT(LE_F_TDP_WATTS)) ? finite_nonneg(kg) : isnan(kg)) &&
				co2 >= 0 && co2 <= LE_CO2_MAX, "carbon_kg OK: %g (co2 %g)", kg, co2);

	err_reset(&e);
	memset(&cp, 0, sizeof(cp));
	st = le_checkpoint_plan(s, write, mtbf, &cp, &e);
	check_status("le_checkpoint_plan", st, &e);
	if (st == LE_OK)
	{
		REQUIRE(isfinite(cp.interval_seconds) && cp.interval_seconds > 0 &&
				finite_nonneg(cp.overhead_fraction) && finite_nonneg(cp.expected_interruptions) &&
				cp.p_interrupted >= 0 && cp.p_interrupted <= 1 &&
				isfinite(cp.cluster_mtbf_seconds) && cp.cluster_mtbf_seconds > 0 &&
				isfinite(cp.nodes) && cp.nodes >= 1 && finite_nonneg(cp.wall_seconds) &&
				(cp.capped == 0 || cp.capped == 1),
				"checkpoint_plan OK: interval %g overhead %g p %g expected %g M %g nodes %g wall %g capped %d",
				cp.interval_seconds, cp.overhead_fraction, cp.p_interrupted, cp.expected_interruptions,
				cp.cluster_mtbf_seconds, cp.nodes, cp.wall_seconds, cp.capped);
		/* every derived interval stays inside PostgreSQL's interval range (bill.h LE_DURATION_MAX) */
		REQUIRE(cp.interval_seconds <= 2 * LE_DURATION_MAX, "checkpoint interval %g s beyond 2 * LE_DURATION_MAX", cp.interval_seconds);
	}

	memset(&a, 0, sizeof(a));
	a.checkpoint_every_seconds = (given & 0x10) ? value(r, 0) : 1800;
	a.checkpoint_write_seconds = (given & 0x20) ? value(r, 0) : 90;
	a.checkpoints_kept = (given & 0x40) ? value(r, 1) : 10;
	a.checkpoint_gb_given = (given & 1) != 0;
	a.checkpoint_gb = a.checkpoint_gb_given ? value(r, 0) : 0;
	a.dataset_gb_given = (given & 2) != 0;
	a.dataset_gb = a.dataset_gb_given ? value(r, 0) : 0;
	a.storage_months = (given & 0x80) ? value(r, 0) : 1;
	a.egress_gb = (given & 4) ? value(r, 0) : 0;
	a.owned = (given & 8) != 0;
	a.pue = pue;
	if (mlen > r->n)
		mlen = r->n;
	if (mlen > 0)
	{
		memcpy(money, r->p, mlen);
		money[mlen] = '\0';		/* the SQL layer passes a C string */
		r->p += mlen;
		r->n -= mlen;
	}

	err_reset(&e);
	st = le_bill_quantities(s, &a, &b, &e);
	check_status("le_bill_quantities", st, &e);
	if (st == LE_OK)
	{
		double		hours;
		le_error	e2;

		REQUIRE(finite_nonneg(b.wall_seconds) && finite_nonneg(b.gpu_hours) &&
				b.checkpoint_fraction >= 0 && b.checkpoint_fraction < 1 &&
				finite_nonneg(b.checkpoint_gb) && finite_nonneg(b.dataset_gb) &&
				finite_nonneg(b.storage_gb) &&
				(a.owned && !(s->present & LE_BIT(LE_F_TDP_WATTS)) ? isnan(b.kwh) : finite_nonneg(b.kwh)),
				"bill_quantities OK: wall %g gpu_hours %g fraction %g ckpt %g data %g storage %g kwh %g",
				b.wall_seconds, b.gpu_hours, b.checkpoint_fraction, b.checkpoint_gb, b.dataset_gb, b.storage_gb, b.kwh);
		REQUIRE(le_gpu_hours(s, &hours, &e2) == LE_OK && hours == b.gpu_hours, "bill gpu_hours %g != gpu_hours %g", b.gpu_hours, hours);
		if (!a.owned)
			REQUIRE(b.kwh == 0, "kwh %g for a cloud run", b.kwh);

		for (int c = 0; c < LE_BILL__COUNT; c++)
		{
			char	   *t = text_buf(n);
			const char *name = le_bill_component_name((le_bill_component) c);

			REQUIRE(name && name[0] && strcmp(name, "?") != 0, "component %d has no name", c);
			le_bill_assumption(s, &a, &b, (le_bill_component) c, (c & 1) ? money : NULL, t, n);
			check_terminated("le_bill_assumption", t, n);
			free(t);
		}
	}
	REQUIRE(strcmp(le_bill_component_name(LE_BILL__COUNT), "?") == 0, "component name out of range");

	/* the wording helpers on their own, over the same values */
	check_duration(write, n);
	check_duration(mtbf, 64);
	/* cost_breakdown's compute and energy wording print the wall time this way */
	check_duration(rint(b.wall_seconds), 64);
	check_quantity(co2, n);
	check_quantity(mtbf, 64);
	if (n >= 2)
	{
		char	   *t = text_buf(1);

		le_fmt_quantity(co2, t, 1);
		check_terminated("le_fmt_quantity", t, 1);
		free(t);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reader		r = {data, size};
	le_spec		s;
	uint8_t		flags = u8(&r, 1);
	int			raw = (flags & 2) != 0;
	int			nedits = u8(&r, 0) % 24;
	le_error	e;
	le_status	st_all,
				st_rel = LE_ERR_VALUE;
	double		pue,
				wall;
	le_fieldset mask;
	long		cap;

	if (verbose < 0)
		verbose = getenv("LE_FUZZ_VERBOSE") != NULL;
	if (allow_known < 0)
		allow_known = getenv("LE_FUZZ_ALLOW_KNOWN") != NULL && strcmp(getenv("LE_FUZZ_ALLOW_KNOWN"), "0") != 0;

	if (flags & 1)
		base_spec(&s, !(flags & 4));
	else
		le_spec_clear(&s);

	for (int i = 0; i < nedits && has(&r, 1); i++)
	{
		uint8_t		f = u8(&r, 0);

		if (f >= LE_F__COUNT)
		{
			s.present &= ~LE_BIT(f % LE_F__COUNT);
			continue;
		}
		switch (le_field_kind((le_field) f))
		{
			case LE_K_FLOAT8:
				le_spec_set_num(&s, (le_field) f, value(&r, 0));
				break;
			case LE_K_INT4:
				le_spec_set_num(&s, (le_field) f, value(&r, !raw));
				break;
			case LE_K_BOOL:
				/* SQL gives 0 or 1; raw mode also tries other doubles */
				le_spec_set_num(&s, (le_field) f, raw ? value(&r, 0) : (double) (u8(&r, 0) & 1));
				break;
			case LE_K_TEXT:
			case LE_K_ENUM:
				set_text(&r, &s, (le_field) f);
				break;
		}
	}
	pue = has(&r, 1) ? value(&r, 0) : 1.2;
	wall = has(&r, 1) ? value(&r, 0) : 3600;
	mask = has(&r, 4) ? (le_fieldset) bytes_le(&r, 4) : LE_NEED_ALL;
	cap = (long) u8(&r, 64);

	if (verbose)
	{
		fprintf(stderr, "spec (flags 0x%02x, %s):\n", flags, raw ? "raw doubles in int4 fields" : "SQL-reachable values");
		print_spec(&s);
		fprintf(stderr, "  pue %.17g wall %.17g mask 0x%016llx plan cap %ld\n", pue, wall, (unsigned long long) mask, cap);
	}

	/* names and lists */
	for (int f = 0; f < LE_F__COUNT; f++)
		REQUIRE(le_field_name((le_field) f)[0] != '?', "field %d has no name", f);
	REQUIRE(strcmp(le_field_name(LE_F__COUNT), "?") == 0, "field name out of range");
	for (int en = 0; en < LE_E__COUNT; en++)
		for (int c = 0; c < 3 && strcmp(le_enum_label((le_enum) en, c), "?") != 0; c++)
			REQUIRE(le_enum_parse((le_enum) en, le_enum_label((le_enum) en, c), strlen(le_enum_label((le_enum) en, c))) == c,
					"enum %d code %d does not round-trip", en, c);

	/* checks */
	err_reset(&e);
	st_all = le_check_fields(&s, mask, &e);
	check_status("le_check_fields", st_all, &e);
	REQUIRE(st_all == LE_OK || st_all == LE_ERR_VALUE, "check_fields status %d", (int) st_all);
	REQUIRE((st_all == LE_OK) == fields_ok_oracle(&s, mask), "check_fields(0x%llx) = %d disagrees with the ranges", (unsigned long long) mask, (int) st_all);

	err_reset(&e);
	st_all = le_check_fields(&s, LE_NEED_ALL, &e);
	check_status("le_check_fields", st_all, &e);
	REQUIRE((st_all == LE_OK) == fields_ok_oracle(&s, LE_NEED_ALL), "check_fields(ALL) = %d disagrees with the ranges", (int) st_all);
	if (st_all == LE_OK)
	{
		/* precondition of le_check_relations: fields in range */
		err_reset(&e);
		st_rel = le_check_relations(&s, &e);
		check_status("le_check_relations", st_rel, &e);
		REQUIRE(st_rel == LE_OK || st_rel == LE_ERR_VALUE, "check_relations status %d", (int) st_rel);
		if (int_fields_whole(&s))
			REQUIRE((st_rel == LE_OK) == relations_oracle(&s), "check_relations = %d disagrees with integer arithmetic: %s",
					(int) st_rel, e.message);
	}

	fuzz_model(&s, pue, wall, st_all == LE_OK);
	fuzz_memory_comm(&s, st_all == LE_OK, st_rel == LE_OK);
	fuzz_plan(&s, cap, int_fields_whole(&s));
	fuzz_bill(&s, &r, pue);
	return 0;
}
