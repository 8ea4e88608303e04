/* validate.c: range, NULL and cross-field checks of run_spec fields, with messages that name the field and its range. */
#include "econ.h"
#include "guard.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * Allowed range of each numeric field.  The upper bounds are far beyond any
 * real run; they exist so that every product the model forms stays finite.
 */
typedef struct range
{
	double		lo;
	int			lo_open;
	double		hi;
	int			hi_open;
} range;

#define INT4_MAX_D 2147483647.0

static const range ranges[LE_F__COUNT] = {
	[LE_F_N_PARAMS] = {0, 1, 1e18, 0},
	[LE_F_N_TOKENS] = {0, 1, 1e18, 0},
	[LE_F_N_GPUS] = {1, 0, INT4_MAX_D, 0},
	[LE_F_GPUS_PER_NODE] = {1, 0, 4096, 0},
	[LE_F_MFU] = {0, 1, 1, 0},
	[LE_F_PEAK_FLOPS] = {0, 1, 1e18, 0},
	[LE_F_HBM_BYTES] = {0, 1, 1e15, 0},
	[LE_F_INTRA_BW] = {0, 1, 1e15, 0},
	[LE_F_INTER_BW] = {0, 1, 1e15, 0},
	[LE_F_TDP_WATTS] = {0, 1, 1e5, 0},
	[LE_F_N_LAYERS] = {1, 0, 1e5, 0},
	[LE_F_D_MODEL] = {1, 0, 1e7, 0},
	[LE_F_N_HEADS] = {1, 0, 1e6, 0},
	[LE_F_SEQ_LEN] = {1, 0, 1e9, 0},
	[LE_F_MICRO_BATCH] = {1, 0, 1e9, 0},
	[LE_F_GLOBAL_BATCH] = {1, 0, INT4_MAX_D, 0},
	[LE_F_TP] = {1, 0, INT4_MAX_D, 0},
	[LE_F_PP] = {1, 0, INT4_MAX_D, 0},
	[LE_F_ZERO_STAGE] = {0, 0, 3, 0},
};

/* Fill err and return st; used by every check so messages look alike. */
le_status
le_set_error(le_error *err, le_status st, const char *detail, const char *fmt,...)
{
	va_list		ap;

	int			n;

	err->status = st;
	va_start(ap, fmt);
	n = vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	if (n >= (int) sizeof(err->message))	/* cut: end on a whole character */
		err->message[le_utf8_complete(err->message, sizeof(err->message) - 1)] = '\0';
	n = snprintf(err->detail, sizeof(err->detail), "%s", detail ? detail : "");
	if (n >= (int) sizeof(err->detail))
		err->detail[le_utf8_complete(err->detail, sizeof(err->detail) - 1)] = '\0';
	return st;
}

/* Print a bound the way a user would write it: 1, 0.4, 1e+18. */
static void
fmt_num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "NaN");
	else if (isinf(v))
		snprintf(buf, n, v > 0 ? "Infinity" : "-Infinity");
	else if (fabs(v) >= 1e10)
		snprintf(buf, n, "%.6g", v);	/* 1e+18, not 1000000000000000000 */
	else
		snprintf(buf, n, "%.15g", v);
}

/* Check lo <(=) v <(=) hi; NaN and infinities always fail. */
le_status
le_check_range(const char *name, double v, double lo, int lo_open,
			   double hi, int hi_open, le_error *err)
{
	char		l[32],
				h[32],
				g[32];

	if (isfinite(v) &&
		(lo_open ? v > lo : v >= lo) &&
		(hi_open ? v < hi : v <= hi))
		return LE_OK;
	fmt_num(l, sizeof(l), lo);
	fmt_num(h, sizeof(h), hi);
	fmt_num(g, sizeof(g), v);
	return le_set_error(err, LE_ERR_VALUE, NULL, "%s must be in %c%s, %s%c, got %s",
						name, lo_open ? '(' : '[', l, h, hi_open ? ')' : ']', g);
}

/* Parse a name from a closed list; the message lists the choices. */
le_status
le_check_enum(const char *name, le_enum e, const char *s, size_t len,
			  int *code, le_error *err)
{
	int			c = le_enum_parse(e, s, len);

	if (c >= 0)
	{
		*code = c;
		return LE_OK;
	}
	return le_set_error(err, LE_ERR_VALUE, NULL, "%s must be one of %s, got \"%.*s\"%s",
						name, le_enum_choices(e), (int) le_utf8_clip(s, len, 64), s,
						len > 64 ? " (cut)" : "");
}

/* Check one field: present (unless optional), in range, a known name. */
static le_status
check_field(const le_spec *s, le_field f, le_error *err)
{
	const char *name = le_field_name(f);

	if (!(s->present & LE_BIT(f)))
	{
		if (LE_OPTIONAL & LE_BIT(f))
			return LE_OK;
		return le_set_error(err, LE_ERR_VALUE, "Only the shape fields n_layers, d_model, n_heads, seq_len and global_batch may be NULL.",
							"run_spec field %s must not be NULL", name);
	}
	switch (le_field_kind(f))
	{
		case LE_K_FLOAT8:
		case LE_K_INT4:
			{
				const range *r = &ranges[f];

				return le_check_range(name, s->num[f], r->lo, r->lo_open, r->hi, r->hi_open, err);
			}
		case LE_K_TEXT:
			if (s->textlen[f] == 0)
				return le_set_error(err, LE_ERR_VALUE, NULL, "%s must not be empty", name);
			if (s->textlen[f] > LE_NAME_MAX)
				return le_set_error(err, LE_ERR_TOO_LONG, NULL, "%s must be at most %d bytes long, got %zu",
									name, LE_NAME_MAX, s->textlen[f]);
			return LE_OK;
		case LE_K_ENUM:
			{
				int			code;

				return le_check_enum(name, le_field_enum(f), s->text[f], s->textlen[f], &code, err);
			}
	}
	return LE_OK;
}

/* Check every field whose bit is set in need, in field order. */
le_status
le_check_fields(const le_spec *s, uint32_t need, le_error *err)
{
	for (int f = 0; f < LE_F__COUNT; f++)
	{
		if ((need & LE_BIT(f)) && check_field(s, (le_field) f, err) != LE_OK)
			return err->status;
	}
	return LE_OK;
}

/*
 * Cross-field rules of a whole spec (fields must already be in range):
 * tp*pp divides n_gpus (dp = n_gpus/(tp*pp), Narayanan et al. 2021 §2.3);
 * global_batch is a whole number of micro_batch*dp (Megatron-LM's check);
 * n_heads divides d_model (head size h/a, Vaswani et al. 2017);
 * tp divides n_heads and pp divides n_layers (Megatron-LM splits whole heads
 * across tensor ranks and whole layers across stages; Shoeybi et al. 2019 §3,
 * Narayanan et al. 2021 §2.2).
 */
le_status
le_check_relations(const le_spec *s, le_error *err)
{
	double		g = s->num[LE_F_N_GPUS];
	double		tp = s->num[LE_F_TP];
	double		pp = s->num[LE_F_PP];
	double		mp = tp * pp;
	char		d[256];

	if (mp > g || fmod(g, mp) != 0)
	{
		snprintf(d, sizeof(d), "Got tp=%.0f, pp=%.0f, n_gpus=%.0f; dp = n_gpus / (tp * pp) must be a whole number >= 1.", tp, pp, g);
		return le_set_error(err, LE_ERR_VALUE, d, "tp * pp must divide n_gpus");
	}
	if (s->present & LE_BIT(LE_F_GLOBAL_BATCH))
	{
		double		per = s->num[LE_F_MICRO_BATCH] * (g / mp);
		double		gb = s->num[LE_F_GLOBAL_BATCH];

		if (gb < per || fmod(gb, per) != 0)
		{
			snprintf(d, sizeof(d), "Got global_batch=%.0f, micro_batch=%.0f, dp=%.0f.", gb, s->num[LE_F_MICRO_BATCH], g / mp);
			return le_set_error(err, LE_ERR_VALUE, d, "global_batch must be a multiple of micro_batch * dp");
		}
	}
	if ((s->present & LE_BIT(LE_F_D_MODEL)) && (s->present & LE_BIT(LE_F_N_HEADS)) &&
		fmod(s->num[LE_F_D_MODEL], s->num[LE_F_N_HEADS]) != 0)
	{
		snprintf(d, sizeof(d), "Got d_model=%.0f, n_heads=%.0f.", s->num[LE_F_D_MODEL], s->num[LE_F_N_HEADS]);
		return le_set_error(err, LE_ERR_VALUE, d, "n_heads must divide d_model");
	}
	if ((s->present & LE_BIT(LE_F_N_HEADS)) && fmod(s->num[LE_F_N_HEADS], tp) != 0)
	{
		snprintf(d, sizeof(d), "Got n_heads=%.0f, tp=%.0f.", s->num[LE_F_N_HEADS], tp);
		return le_set_error(err, LE_ERR_VALUE, d, "tp must divide n_heads");
	}
	if ((s->present & LE_BIT(LE_F_N_LAYERS)) && fmod(s->num[LE_F_N_LAYERS], pp) != 0)
	{
		snprintf(d, sizeof(d), "Got n_layers=%.0f, pp=%.0f.", s->num[LE_F_N_LAYERS], pp);
		return le_set_error(err, LE_ERR_VALUE, d, "pp must divide n_layers");
	}
	return LE_OK;
}
