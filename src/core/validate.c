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
	[LE_F_N_ACTIVE_PARAMS] = {0, 1, 1e18, 0},
	[LE_F_N_EXPERTS] = {1, 0, 1e6, 0},
	[LE_F_TOP_K] = {1, 0, 1e6, 0},
	[LE_F_EP] = {1, 0, INT4_MAX_D, 0},
	[LE_F_CP] = {1, 0, INT4_MAX_D, 0},
	[LE_F_VPP] = {1, 0, 1e5, 0},
	[LE_F_N_KV_HEADS] = {1, 0, 1e6, 0},
	[LE_F_FFN_HIDDEN] = {1, 0, 1e8, 0},
	[LE_F_VOCAB_SIZE] = {1, 0, LE_VOCAB_MAX, 0},
	[LE_F_HBM_BW] = {0, 1, 1e15, 0},
	/* MLA: ranks and head sizes (DeepSeek-V3: 1536, 512, 128, 64, 128) */
	[LE_F_Q_LORA_RANK] = {1, 0, 1e6, 0},
	[LE_F_KV_LORA_RANK] = {1, 0, 1e6, 0},
	[LE_F_QK_NOPE_HEAD_DIM] = {1, 0, 1e5, 0},
	[LE_F_QK_ROPE_HEAD_DIM] = {1, 0, 1e5, 0},
	[LE_F_V_HEAD_DIM] = {1, 0, 1e5, 0},
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
	err->context[0] = '\0';
	return st;
}

/* Where in an input the error is, e.g. "catalog_csv line 40, column \"Price\"". */
le_status
le_set_context(le_error *err, const char *fmt,...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(err->context, sizeof(err->context), fmt, ap);
	va_end(ap);
	if (n >= (int) sizeof(err->context))
		err->context[le_utf8_complete(err->context, sizeof(err->context) - 1)] = '\0';
	return err->status;
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
	if (len > 64)
		return le_set_error(err, LE_ERR_VALUE, NULL, "%s must be one of %s, got \"%.*s\" (cut)",
							name, le_enum_choices(e), (int) le_utf8_clip(s, len, 64), s);
	return le_set_error(err, LE_ERR_VALUE, NULL, "%s must be one of %s, got \"%.*s\"",
						name, le_enum_choices(e), (int) len, s);
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
		return le_set_error(err, LE_ERR_VALUE, "Only the shape fields n_layers, d_model, n_heads, seq_len and global_batch, tdp_watts (power not published), the 0.3.0 fields (n_active_params ... grad_dtype) and the 0.4.0 fields (q_lora_rank ... dropout) and the 0.5.0 fields (stack, fp8_attention, fsdp_reshard) may be NULL.",
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
		case LE_K_BOOL:
			if (s->num[f] != 0 && s->num[f] != 1)
				return le_set_error(err, LE_ERR_VALUE, NULL, "%s must be true or false", name);
			return LE_OK;
	}
	return LE_OK;
}

/* Check every field whose bit is set in need, in field order. */
le_status
le_check_fields(const le_spec *s, le_fieldset need, le_error *err)
{
	for (int f = 0; f < LE_F__COUNT; f++)
	{
		if ((need & LE_BIT(f)) && check_field(s, (le_field) f, err) != LE_OK)
			return err->status;
	}
	return LE_OK;
}

/* Shorthand for the messages below. */
#define HAS(s, f) (((s)->present & LE_BIT(f)) != 0)

/*
 * Cross-field rules of the 0.3.0 fields: mixture of experts, expert, context
 * and interleaved pipeline parallelism, grouped-query attention.  Each
 * message names every field of the impossible combination.
 */
static le_status
check_modern(const le_spec *s, double dp, le_error *err)
{
	char		d[256];
	double		n = s->num[LE_F_N_PARAMS];
	double		ep = le_num_or(s, LE_F_EP, 1);
	double		cp = le_num_or(s, LE_F_CP, 1);
	double		vpp = le_num_or(s, LE_F_VPP, 1);
	double		pp = s->num[LE_F_PP];

	if (HAS(s, LE_F_N_EXPERTS) != HAS(s, LE_F_TOP_K))
		return le_set_error(err, LE_ERR_VALUE, "A mixture of experts needs both; a dense model neither.",
							"n_experts and top_k must be given together");
	if (HAS(s, LE_F_N_EXPERTS) && s->num[LE_F_TOP_K] > s->num[LE_F_N_EXPERTS])
	{
		snprintf(d, sizeof(d), "Got top_k=%.0f, n_experts=%.0f; each token is routed to top_k of the n_experts experts.",
				 s->num[LE_F_TOP_K], s->num[LE_F_N_EXPERTS]);
		return le_set_error(err, LE_ERR_VALUE, d, "top_k must be in [1, n_experts]");
	}
	if (HAS(s, LE_F_N_ACTIVE_PARAMS) && s->num[LE_F_N_ACTIVE_PARAMS] > n)
	{
		snprintf(d, sizeof(d), "Got n_active_params=%.6g, n_params=%.6g.", s->num[LE_F_N_ACTIVE_PARAMS], n);
		return le_set_error(err, LE_ERR_VALUE, d, "n_active_params must be in (0, n_params]");
	}
	if (HAS(s, LE_F_N_ACTIVE_PARAMS) && s->num[LE_F_N_ACTIVE_PARAMS] < n && !HAS(s, LE_F_N_EXPERTS))
	{
		snprintf(d, sizeof(d), "Got n_active_params=%.6g < n_params=%.6g with n_experts NULL.", s->num[LE_F_N_ACTIVE_PARAMS], n);
		return le_set_error(err, LE_ERR_VALUE, d, "n_active_params below n_params needs n_experts and top_k (a mixture of experts)");
	}
	if (HAS(s, LE_F_N_EXPERTS) && s->num[LE_F_TOP_K] < s->num[LE_F_N_EXPERTS] &&
		!(le_active_params(s) < n))
	{
		snprintf(d, sizeof(d), "Got n_experts=%.0f, top_k=%.0f, n_active_params %s.", s->num[LE_F_N_EXPERTS], s->num[LE_F_TOP_K],
				 HAS(s, LE_F_N_ACTIVE_PARAMS) ? "= n_params" : "NULL");
		return le_set_error(err, LE_ERR_VALUE, d, "a mixture of experts with top_k < n_experts needs n_active_params below n_params");
	}
	if (ep > 1 && !HAS(s, LE_F_N_EXPERTS))
	{
		snprintf(d, sizeof(d), "Got ep=%.0f with n_experts NULL.", ep);
		return le_set_error(err, LE_ERR_VALUE, d, "ep > 1 needs n_experts (expert parallelism shards experts)");
	}
	if (ep > dp || fmod(dp, ep) != 0)
	{
		snprintf(d, sizeof(d), "Got ep=%.0f, dp=%.0f (n_gpus / (tp * pp * cp)).", ep, dp);
		return le_set_error(err, LE_ERR_VALUE, d, "ep must divide dp");
	}
	if (HAS(s, LE_F_N_EXPERTS) && fmod(s->num[LE_F_N_EXPERTS], ep) != 0)
	{
		snprintf(d, sizeof(d), "Got n_experts=%.0f, ep=%.0f; each expert-parallel rank holds n_experts / ep whole experts.",
				 s->num[LE_F_N_EXPERTS], ep);
		return le_set_error(err, LE_ERR_VALUE, d, "ep must divide n_experts");
	}
	if (cp > 1 && HAS(s, LE_F_SEQ_LEN) && fmod(s->num[LE_F_SEQ_LEN], 2 * cp) != 0)
	{
		snprintf(d, sizeof(d), "Got seq_len=%.0f, cp=%.0f; the sequence is cut into 2 * cp chunks so that causal attention work is balanced.",
				 s->num[LE_F_SEQ_LEN], cp);
		return le_set_error(err, LE_ERR_VALUE, d, "2 * cp must divide seq_len");
	}
	if (vpp > 1 && pp < 2)
	{
		snprintf(d, sizeof(d), "Got vpp=%.0f, pp=%.0f.", vpp, pp);
		return le_set_error(err, LE_ERR_VALUE, d, "vpp > 1 (interleaved schedule) needs pp >= 2");
	}
	/*
	 * Virtual stages may be uneven, like pipeline stages: Llama 3 405B ran its
	 * 126 layers on 16 stages with the interleaved schedule (Llama 3 report,
	 * §3.3.2); each virtual stage needs at least one layer.
	 */
	if (vpp > 1 && HAS(s, LE_F_N_LAYERS) && pp * vpp > s->num[LE_F_N_LAYERS])
	{
		snprintf(d, sizeof(d), "Got n_layers=%.0f, pp=%.0f, vpp=%.0f; every virtual stage holds at least one layer.",
				 s->num[LE_F_N_LAYERS], pp, vpp);
		return le_set_error(err, LE_ERR_VALUE, d, "pp * vpp must not exceed n_layers");
	}
	if (HAS(s, LE_F_N_KV_HEADS) && HAS(s, LE_F_N_HEADS) &&
		fmod(s->num[LE_F_N_HEADS], s->num[LE_F_N_KV_HEADS]) != 0)
	{
		snprintf(d, sizeof(d), "Got n_heads=%.0f, n_kv_heads=%.0f; each key/value head serves a whole group of query heads.",
				 s->num[LE_F_N_HEADS], s->num[LE_F_N_KV_HEADS]);
		return le_set_error(err, LE_ERR_VALUE, d, "n_kv_heads must divide n_heads");
	}
	return LE_OK;
}

/*
 * Multi-head latent attention (DeepSeek-V2 arXiv 2405.04434 §2.1; DeepSeek-V3
 * arXiv 2412.19437 §2.1.1): kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim
 * and v_head_dim describe one attention and come together, or not at all;
 * q_lora_rank only with them (NULL: queries projected directly, as
 * DeepSeek-V2-Lite publishes "q_lora_rank": null).  Every head has its own
 * keys and values, so n_kv_heads (grouped-query attention) is n_heads or NULL.
 */
static le_status
check_mla(const le_spec *s, le_error *err)
{
	static const le_field set[] = {LE_F_KV_LORA_RANK, LE_F_QK_NOPE_HEAD_DIM, LE_F_QK_ROPE_HEAD_DIM, LE_F_V_HEAD_DIM};
	char		d[256],
				missing[128] = "";
	int			n = 0;
	size_t		len;

	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		if (HAS(s, set[i]))
			n++;
	if (n == 0 && HAS(s, LE_F_Q_LORA_RANK))
		return le_set_error(err, LE_ERR_VALUE, "q_lora_rank is the query rank of multi-head latent attention, which also needs kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and v_head_dim.",
							"q_lora_rank needs kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and v_head_dim");
	if (n == 0)
		return LE_OK;
	if (n < (int) (sizeof(set) / sizeof(set[0])))
	{
		for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
			if (!HAS(s, set[i]))
			{
				len = strlen(missing);
				snprintf(missing + len, sizeof(missing) - len, "%s%s", len ? ", " : "", le_field_name(set[i]));
			}
		snprintf(d, sizeof(d), "Multi-head latent attention needs all four (q_lora_rank is optional); plain attention none. NULL: %s.", missing);
		return le_set_error(err, LE_ERR_VALUE, d,
							"kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and v_head_dim must be given together");
	}
	if (HAS(s, LE_F_N_KV_HEADS) && HAS(s, LE_F_N_HEADS) && s->num[LE_F_N_KV_HEADS] != s->num[LE_F_N_HEADS])
	{
		snprintf(d, sizeof(d), "Got n_kv_heads=%.0f, n_heads=%.0f with kv_lora_rank=%.0f; latent attention gives every head its own keys and values.",
				 s->num[LE_F_N_KV_HEADS], s->num[LE_F_N_HEADS], s->num[LE_F_KV_LORA_RANK]);
		return le_set_error(err, LE_ERR_VALUE, d, "n_kv_heads must be NULL or n_heads with multi-head latent attention");
	}
	return LE_OK;
}

/*
 * n_params, and n_active_params when given, against what the shape holds
 * (le_shape_params): within [LE_SHAPE_PARAMS_LO, LE_SHAPE_PARAMS_HI] times
 * it (API.md, "Plans use the network the instance has").  Predicted MFU is
 * 6·N_active per token over the step time the shape gives; a count far from
 * the shape's made it exceed 1.  Only when the shape is given.
 */
static le_status
check_shape_params(const le_spec *s, le_error *err)
{
	double		total,
				active;
	char		d[256];

	if (!le_shape_params(s, &total, &active))
		return LE_OK;
	if (!(s->num[LE_F_N_PARAMS] >= LE_SHAPE_PARAMS_LO * total &&
		  s->num[LE_F_N_PARAMS] <= LE_SHAPE_PARAMS_HI * total))
	{
		snprintf(d, sizeof(d), "Got n_params=%.6g; n_layers, d_model, n_heads, n_kv_heads, ffn_hidden, ffn_act, n_experts and vocab_size hold %.6g without the embeddings (ratio %.3g).",
				 s->num[LE_F_N_PARAMS], total, s->num[LE_F_N_PARAMS] / total);
		return le_set_error(err, LE_ERR_VALUE, d, "n_params %.6g must be within %g to %g times the %.6g non-embedding parameters of the shape",
							s->num[LE_F_N_PARAMS], LE_SHAPE_PARAMS_LO, LE_SHAPE_PARAMS_HI, total);
	}
	if (HAS(s, LE_F_N_ACTIVE_PARAMS) &&
		!(s->num[LE_F_N_ACTIVE_PARAMS] >= LE_SHAPE_PARAMS_LO * active &&
		  s->num[LE_F_N_ACTIVE_PARAMS] <= LE_SHAPE_PARAMS_HI * active))
	{
		snprintf(d, sizeof(d), "Got n_active_params=%.6g; the shape with top_k of n_experts experts active holds %.6g (ratio %.3g).",
				 s->num[LE_F_N_ACTIVE_PARAMS], active, s->num[LE_F_N_ACTIVE_PARAMS] / active);
		return le_set_error(err, LE_ERR_VALUE, d, "n_active_params %.6g must be within %g to %g times the %.6g active non-embedding parameters of the shape",
							s->num[LE_F_N_ACTIVE_PARAMS], LE_SHAPE_PARAMS_LO, LE_SHAPE_PARAMS_HI, active);
	}
	return LE_OK;
}

/*
 * Cross-field rules of a whole spec (fields must already be in range):
 * tp*pp*cp divides n_gpus (dp = n_gpus/(tp*pp*cp), Narayanan et al. 2021
 * §2.3, Megatron-LM's rank grid with context parallelism);
 * global_batch is a whole number of micro_batch*dp (Megatron-LM's check);
 * n_heads divides d_model (head size h/a, Vaswani et al. 2017; not with
 * latent attention, whose head sizes are its own);
 * tp divides n_heads (Megatron-LM splits whole heads across tensor ranks,
 * Shoeybi et al. 2019 §3); pp does not exceed n_layers (stages hold
 * ⌈L/pp⌉ or ⌊L/pp⌋ whole layers; an uneven split is allowed since 0.3.0,
 * as Llama 3 405B ran 126 layers on 16 stages); then check_modern, check_mla
 * and check_shape_params.
 */
le_status
le_check_relations(const le_spec *s, le_error *err)
{
	double		g = s->num[LE_F_N_GPUS];
	double		tp = s->num[LE_F_TP];
	double		pp = s->num[LE_F_PP];
	double		cp = le_num_or(s, LE_F_CP, 1);
	double		mp = tp * pp * cp;
	char		d[256];

	if (mp > g || fmod(g, mp) != 0)
	{
		if (cp == 1)
		{
			snprintf(d, sizeof(d), "Got tp=%.0f, pp=%.0f, n_gpus=%.0f; dp = n_gpus / (tp * pp) must be a whole number >= 1.", tp, pp, g);
			return le_set_error(err, LE_ERR_VALUE, d, "tp * pp must divide n_gpus");
		}
		snprintf(d, sizeof(d), "Got tp=%.0f, pp=%.0f, cp=%.0f, n_gpus=%.0f; dp = n_gpus / (tp * pp * cp) must be a whole number >= 1.", tp, pp, cp, g);
		return le_set_error(err, LE_ERR_VALUE, d, "tp * pp * cp must divide n_gpus");
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
		!(s->present & LE_BIT(LE_F_KV_LORA_RANK)) &&
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
	if ((s->present & LE_BIT(LE_F_N_LAYERS)) && pp > s->num[LE_F_N_LAYERS])
	{
		snprintf(d, sizeof(d), "Got n_layers=%.0f, pp=%.0f; every pipeline stage holds at least one layer.", s->num[LE_F_N_LAYERS], pp);
		return le_set_error(err, LE_ERR_VALUE, d, "pp must be in [1, n_layers]");
	}
	if (check_modern(s, g / mp, err) != LE_OK || check_mla(s, err) != LE_OK)
		return err->status;
	return check_shape_params(s, err);
}

/* A whole spec, as run_spec builds it: every field in range, then every cross-field rule. */
le_status
le_check_spec(const le_spec *s, le_error *err)
{
	if (le_check_fields(s, LE_NEED_ALL, err) != LE_OK)
		return err->status;
	return le_check_relations(s, err);
}
