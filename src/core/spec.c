/* spec.c: the run_spec field table and the closed name lists (dtype, recompute, optimizer, pricing). */
#include "econ.h"

#include <string.h>

/* What the core knows about each field: its SQL name and how it is stored. */
typedef struct field_info
{
	const char *name;
	le_kind		kind;
	le_enum		list;			/* for LE_K_ENUM */
} field_info;

static const field_info fields[LE_F__COUNT] = {
	[LE_F_N_PARAMS] = {"n_params", LE_K_FLOAT8, 0},
	[LE_F_N_TOKENS] = {"n_tokens", LE_K_FLOAT8, 0},
	[LE_F_SKU] = {"sku", LE_K_TEXT, 0},
	[LE_F_N_GPUS] = {"n_gpus", LE_K_INT4, 0},
	[LE_F_GPUS_PER_NODE] = {"gpus_per_node", LE_K_INT4, 0},
	[LE_F_MFU] = {"mfu", LE_K_FLOAT8, 0},
	[LE_F_DTYPE] = {"dtype", LE_K_ENUM, LE_E_DTYPE},
	[LE_F_PEAK_FLOPS] = {"peak_flops", LE_K_FLOAT8, 0},
	[LE_F_HBM_BYTES] = {"hbm_bytes", LE_K_FLOAT8, 0},
	[LE_F_INTRA_BW] = {"intra_node_bytes_per_s", LE_K_FLOAT8, 0},
	[LE_F_INTER_BW] = {"inter_node_bytes_per_s", LE_K_FLOAT8, 0},
	[LE_F_TDP_WATTS] = {"tdp_watts", LE_K_FLOAT8, 0},
	[LE_F_N_LAYERS] = {"n_layers", LE_K_INT4, 0},
	[LE_F_D_MODEL] = {"d_model", LE_K_INT4, 0},
	[LE_F_N_HEADS] = {"n_heads", LE_K_INT4, 0},
	[LE_F_SEQ_LEN] = {"seq_len", LE_K_INT4, 0},
	[LE_F_MICRO_BATCH] = {"micro_batch", LE_K_INT4, 0},
	[LE_F_GLOBAL_BATCH] = {"global_batch", LE_K_INT4, 0},
	[LE_F_TP] = {"tp", LE_K_INT4, 0},
	[LE_F_PP] = {"pp", LE_K_INT4, 0},
	[LE_F_ZERO_STAGE] = {"zero_stage", LE_K_INT4, 0},
	[LE_F_RECOMPUTE] = {"recompute", LE_K_ENUM, LE_E_RECOMPUTE},
	[LE_F_OPTIMIZER] = {"optimizer", LE_K_ENUM, LE_E_OPTIMIZER},
};

/* Name lists, indexed by the enum codes in econ.h; NULL-terminated. */
static const char *const dtype_names[] = {"fp32", "tf32", "bf16", "fp16", "fp8", NULL};
static const char *const recompute_names[] = {"none", "selective", "full", NULL};
static const char *const optimizer_names[] = {"adamw", "adamw_8bit", "sgd", NULL};
static const char *const pricing_names[] = {"on_demand", "spot", "reserved", NULL};

static const char *const *const enum_names[LE_E__COUNT] = {
	[LE_E_DTYPE] = dtype_names,
	[LE_E_RECOMPUTE] = recompute_names,
	[LE_E_OPTIMIZER] = optimizer_names,
	[LE_E_PRICING] = pricing_names,
};

/* Printable lists for error messages. */
static const char *const enum_choices[LE_E__COUNT] = {
	[LE_E_DTYPE] = "fp32, tf32, bf16, fp16, fp8",
	[LE_E_RECOMPUTE] = "none, selective, full",
	[LE_E_OPTIMIZER] = "adamw, adamw_8bit, sgd",
	[LE_E_PRICING] = "on_demand, spot, reserved",
};

const char *
le_field_name(le_field f)
{
	return (f >= 0 && f < LE_F__COUNT) ? fields[f].name : "?";
}

le_kind
le_field_kind(le_field f)
{
	return fields[f].kind;
}

le_enum
le_field_enum(le_field f)
{
	return fields[f].list;
}

/* The code of name s (exact, case-sensitive, as stored), or -1. */
int
le_enum_parse(le_enum e, const char *s, size_t len)
{
	const char *const *names = enum_names[e];

	for (int i = 0; names[i] != NULL; i++)
	{
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return i;
	}
	return -1;
}

const char *
le_enum_label(le_enum e, int code)
{
	const char *const *names = enum_names[e];

	for (int i = 0; names[i] != NULL; i++)
		if (i == code)
			return names[i];
	return "?";
}

const char *
le_enum_choices(le_enum e)
{
	return enum_choices[e];
}

/* An empty spec: every field NULL. */
void
le_spec_clear(le_spec *s)
{
	memset(s, 0, sizeof(*s));
}

void
le_spec_set_num(le_spec *s, le_field f, double v)
{
	s->num[f] = v;
	s->present |= LE_BIT(f);
}

/* Set a text field; enum fields are parsed here (-1 when the name is unknown). */
void
le_spec_set_text(le_spec *s, le_field f, const char *txt, size_t len)
{
	s->text[f] = txt;
	s->textlen[f] = len;
	s->num[f] = (fields[f].kind == LE_K_ENUM) ? le_enum_parse(fields[f].list, txt, len) : 0;
	s->present |= LE_BIT(f);
}

/* Data-parallel degree dp = n_gpus / (tp · pp). */
double
le_dp(const le_spec *s)
{
	return s->num[LE_F_N_GPUS] / (s->num[LE_F_TP] * s->num[LE_F_PP]);
}

/* Micro-batches per optimizer step, global_batch / (micro_batch · dp); 0 when global_batch is unknown. */
double
le_micro_batches(const le_spec *s)
{
	if (!(s->present & LE_BIT(LE_F_GLOBAL_BATCH)))
		return 0;
	return s->num[LE_F_GLOBAL_BATCH] / (s->num[LE_F_MICRO_BATCH] * le_dp(s));
}

/* 1 when the run computes in fp32 or tf32: 4-byte weights, gradients and activations. */
int
le_is_fp32(const le_spec *s)
{
	int			d = (int) s->num[LE_F_DTYPE];

	return d == LE_DT_FP32 || d == LE_DT_TF32;
}

/* Whether the shape that activation memory needs (layers, width, heads, sequence) is known. */
int
le_shape_known(const le_spec *s)
{
	uint32_t	need = LE_BIT(LE_F_N_LAYERS) | LE_BIT(LE_F_D_MODEL) |
		LE_BIT(LE_F_N_HEADS) | LE_BIT(LE_F_SEQ_LEN);

	return (s->present & need) == need;
}
