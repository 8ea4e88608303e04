/* run_spec.c: the validating run_spec(...) constructor, which freezes the SKU's hardware figures into the value. */
#include "llm_econ.h"

#include <math.h>

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/formatting.h"
#include "catalog/pg_collation.h"

/* Constructor arguments in SQL order, and the spec field each one fills. */
typedef struct ArgField
{
	le_field	field;
	le_kind		kind;
} ArgField;

#define ARG_GPUS_PER_NODE 17
#define ARG_INTER_NODE_GBIT 18

static const ArgField args_map[] = {
	{LE_F_N_PARAMS, LE_K_FLOAT8},
	{LE_F_N_TOKENS, LE_K_FLOAT8},
	{LE_F_N_GPUS, LE_K_INT4},
	{LE_F_SKU, LE_K_TEXT},
	{LE_F_MFU, LE_K_FLOAT8},
	{LE_F_DTYPE, LE_K_ENUM},
	{LE_F_N_LAYERS, LE_K_INT4},
	{LE_F_D_MODEL, LE_K_INT4},
	{LE_F_N_HEADS, LE_K_INT4},
	{LE_F_SEQ_LEN, LE_K_INT4},
	{LE_F_MICRO_BATCH, LE_K_INT4},
	{LE_F_GLOBAL_BATCH, LE_K_INT4},
	{LE_F_TP, LE_K_INT4},
	{LE_F_PP, LE_K_INT4},
	{LE_F_ZERO_STAGE, LE_K_INT4},
	{LE_F_RECOMPUTE, LE_K_ENUM},
	{LE_F_OPTIMIZER, LE_K_ENUM},
	{LE_F_GPUS_PER_NODE, LE_K_INT4},
	/* 18: inter_node_gbit_per_s (Gbit/s), converted to inter_node_bytes_per_s below */
	{LE_F__COUNT, LE_K_FLOAT8},
	/* 0.3.0: modern runs, in the composite's order */
	{LE_F_N_ACTIVE_PARAMS, LE_K_FLOAT8},
	{LE_F_N_EXPERTS, LE_K_INT4},
	{LE_F_TOP_K, LE_K_INT4},
	{LE_F_EP, LE_K_INT4},
	{LE_F_CP, LE_K_INT4},
	{LE_F_VPP, LE_K_INT4},
	{LE_F_N_KV_HEADS, LE_K_INT4},
	{LE_F_FFN_HIDDEN, LE_K_INT4},
	{LE_F_FFN_ACT, LE_K_ENUM},
	{LE_F_VOCAB_SIZE, LE_K_INT4},
	{LE_F_SEQUENCE_PARALLEL, LE_K_BOOL},
	{LE_F_ATTENTION, LE_K_ENUM},
	{LE_F_GRAD_DTYPE, LE_K_ENUM},
	/* 0.4.0: multi-head latent attention and dropout */
	{LE_F_Q_LORA_RANK, LE_K_INT4},
	{LE_F_KV_LORA_RANK, LE_K_INT4},
	{LE_F_QK_NOPE_HEAD_DIM, LE_K_INT4},
	{LE_F_QK_ROPE_HEAD_DIM, LE_K_INT4},
	{LE_F_V_HEAD_DIM, LE_K_INT4},
	{LE_F_DROPOUT, LE_K_BOOL},
	/* 0.5.0: the software stack, FP8 attention, FSDP's resharding */
	{LE_F_STACK, LE_K_ENUM},
	{LE_F_FP8_ATTENTION, LE_K_BOOL},
	{LE_F_FSDP_RESHARD, LE_K_BOOL},
};

/* The constructor's SQL declaration (src/sql/run_spec.sql) has exactly these arguments. */
#define CTOR_NARGS ((int) lengthof(args_map))

#define SKU_CACHE_SIZE 16

/*
 * SKUs already looked up by this call site in this statement (the constructor
 * is STABLE), and the last arguments with the value they built: a call site
 * whose arguments repeat (constants, as users write run_spec(...) inside a
 * query over many rows) gets the same value back at the cost of comparing
 * the arguments, for the rest of the statement.
 */
typedef struct SkuCache
{
	uint64		stamp;			/* le_cache_fresh: valid for one command */
	int			n;
	char	   *name[SKU_CACHE_SIZE];	/* lower-cased argument */
	LeSku		sku[SKU_CACHE_SIZE];
	/* the last call's arguments and result, in fn_mcxt */
	uint64		args_stamp;		/* le_cache_fresh: the statement they are valid for */
	bool		args_valid;
	int8		all_const;		/* 0 unknown, 1 every argument of the call site is a Const, -1 not */
	int			nkept;			/* arguments kept in args and nulls: 0 before the first call */
	Datum		args[lengthof(args_map)];
	bool		nulls[lengthof(args_map)];
	Datum		result;
} SkuCache;

static SkuCache *
ctor_cache(FunctionCallInfo fcinfo)
{
	LeFnCache  *c = le_fn_cache(fcinfo);

	if (c->extra == NULL)
		c->extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(SkuCache));
	return (SkuCache *) c->extra;
}

/*
 * Whether every argument of this call site is a Const in the plan (the
 * planner has folded the literals and inserted the defaults as Consts): then
 * the arguments cannot change while the expression lives, and the last value
 * is returned without comparing them.  A Param is not taken as constant: a
 * PL/pgSQL variable is a Param whose value changes between evaluations of the
 * same expression.
 */
static bool
all_args_const(FunctionCallInfo fcinfo, SkuCache *sc)
{
	if (sc->all_const == 0)
	{
		Node	   *expr = fcinfo->flinfo->fn_expr;
		List	   *args = (expr && IsA(expr, FuncExpr)) ? ((FuncExpr *) expr)->args : NIL;
		ListCell   *lc;

		sc->all_const = (args != NIL && list_length(args) == CTOR_NARGS) ? 1 : -1;
		foreach(lc, args)
			if (!IsA(lfirst(lc), Const))
				sc->all_const = -1;
	}
	return sc->all_const > 0;
}

/* Whether this call's arguments are the last call's: by value, text by its bytes. */
static bool
same_args(FunctionCallInfo fcinfo, SkuCache *sc)
{
	if (!sc->args_valid)
		return false;
	if (all_args_const(fcinfo, sc))
		return true;
	for (int i = 0; i < CTOR_NARGS; i++)
	{
		if (PG_ARGISNULL(i) != sc->nulls[i])
			return false;
		if (sc->nulls[i])
			continue;
		if (args_map[i].kind == LE_K_TEXT || args_map[i].kind == LE_K_ENUM)
		{
			text	   *a = PG_GETARG_TEXT_PP(i);
			text	   *b = (text *) DatumGetPointer(sc->args[i]);

			if (VARSIZE_ANY_EXHDR(a) != VARSIZE_ANY_EXHDR(b) ||
				memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) != 0)
				return false;
		}
		else if (PG_GETARG_DATUM(i) != sc->args[i])	/* float8, int4, bool: by value */
			return false;
	}
	return true;
}

/* Keep this call's arguments and its result (copied into fn_mcxt); returns the kept result. */
static Datum
remember_args(FunctionCallInfo fcinfo, SkuCache *sc, Datum result)
{
	MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

	sc->args_valid = false;
	for (int i = 0; i < sc->nkept; i++)
		if (!sc->nulls[i] && (args_map[i].kind == LE_K_TEXT || args_map[i].kind == LE_K_ENUM))
			pfree(DatumGetPointer(sc->args[i]));
	sc->nkept = 0;
	if (DatumGetPointer(sc->result) != NULL)
		pfree(DatumGetPointer(sc->result));
	sc->result = (Datum) 0;
	for (int i = 0; i < CTOR_NARGS; i++)
	{
		sc->nulls[i] = PG_ARGISNULL(i);
		if (sc->nulls[i])
			continue;
		if (args_map[i].kind == LE_K_TEXT || args_map[i].kind == LE_K_ENUM)
			sc->args[i] = PointerGetDatum(PG_GETARG_TEXT_P_COPY(i));
		else
			sc->args[i] = PG_GETARG_DATUM(i);
	}
	sc->nkept = CTOR_NARGS;
	sc->result = datumCopy(result, false, -1);
	sc->args_valid = true;
	MemoryContextSwitchTo(old);
	return sc->result;
}

static const LeSku *
cached_sku(FunctionCallInfo fcinfo, const char *name, size_t len)
{
	SkuCache   *sc = ctor_cache(fcinfo);
	int			slot;

	if (!le_cache_fresh(&sc->stamp))
	{
		/* a new statement: gpu_sku may have changed since */
		for (int i = 0; i < sc->n; i++)
			pfree(sc->name[i]);
		sc->n = 0;
	}
	/* no allocation on a hit: names are compared ignoring ASCII case */
	for (int i = 0; i < sc->n; i++)
		if (strlen(sc->name[i]) == len && pg_strncasecmp(sc->name[i], name, len) == 0)
			return &sc->sku[i];

	if (sc->n == SKU_CACHE_SIZE)
	{
		/* full: start over; a query naming more SKUs than this just looks up again */
		for (int i = 0; i < sc->n; i++)
			pfree(sc->name[i]);
		sc->n = 0;
	}
	slot = sc->n;
	le_sku_lookup(pnstrdup(name, len), &sc->sku[slot]);	/* errors leave the cache as it was */
	sc->name[slot] = MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, pnstrdup(name, len));
	sc->n++;
	return &sc->sku[slot];
}

PG_FUNCTION_INFO_V1(le_run_spec);

/*
 * run_spec(n_params, n_tokens, n_gpus, sku, mfu, dtype, n_layers, d_model,
 * n_heads, seq_len, micro_batch, global_batch, tp, pp, zero_stage, recompute,
 * optimizer, gpus_per_node, inter_node_gbit_per_s, n_active_params,
 * n_experts, top_k, ep, cp, vpp, n_kv_heads, ffn_hidden, ffn_act,
 * vocab_size, sequence_parallel, attention, grad_dtype, q_lora_rank,
 * kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim, dropout,
 * stack, fp8_attention, fsdp_reshard): look the SKU up,
 * freeze its peak at dtype, HBM, links, TDP, HBM bandwidth and GPU generation,
 * check every field, return the value.
 */
Datum
le_run_spec(PG_FUNCTION_ARGS)
{
	le_spec		s;
	le_error	err;
	const LeSku *sku;
	int			dtype;
	double		tflops,
				inter_gbit;
	SkuCache   *sc;

	le_check_nargs(fcinfo, CTOR_NARGS, "run_spec");
	sc = ctor_cache(fcinfo);

	/*
	 * The same arguments as the last call of this call site, in this
	 * statement: the same value (gpu_sku cannot change within a statement
	 * that the constructor, STABLE, sees).
	 */
	if (le_cache_fresh(&sc->args_stamp) && same_args(fcinfo, sc))
		PG_RETURN_DATUM(sc->result);
	sc->args_valid = false;

	le_spec_clear(&s);
	for (int i = 0; i < CTOR_NARGS; i++)
	{
		if (PG_ARGISNULL(i) || args_map[i].field == LE_F__COUNT)
			continue;
		switch (args_map[i].kind)
		{
			case LE_K_BOOL:
				le_spec_set_num(&s, args_map[i].field, PG_GETARG_BOOL(i) ? 1.0 : 0.0);
				break;
			case LE_K_FLOAT8:
				le_spec_set_num(&s, args_map[i].field, PG_GETARG_FLOAT8(i));
				break;
			case LE_K_INT4:
				le_spec_set_num(&s, args_map[i].field, (double) PG_GETARG_INT32(i));
				break;
			default:
				{
					text	   *t = PG_GETARG_TEXT_PP(i);

					le_spec_set_text(&s, args_map[i].field, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
				}
		}
	}

	/* The SKU and precision choose the frozen figures, so check them first. */
	le_check(le_check_fields(&s, LE_BIT(LE_F_SKU) | LE_BIT(LE_F_DTYPE), &err), &err);
	if (PG_ARGISNULL(ARG_INTER_NODE_GBIT))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("inter_node_gbit_per_s must not be NULL")));
	inter_gbit = PG_GETARG_FLOAT8(ARG_INTER_NODE_GBIT);
	le_check(le_check_range("inter_node_gbit_per_s", inter_gbit, 0, 1, 1e6, 0, &err), &err);

	sku = cached_sku(fcinfo, s.text[LE_F_SKU], s.textlen[LE_F_SKU]);
	dtype = (int) s.num[LE_F_DTYPE];
	tflops = sku->tflops[dtype];
	if (isnan(tflops))
	{
		StringInfoData have;

		initStringInfo(&have);
		for (int d = 0; d < LE_DTYPE__COUNT; d++)
			if (!isnan(sku->tflops[d]))
				appendStringInfo(&have, "%s%s", have.len ? ", " : "", le_enum_label(LE_E_DTYPE, d));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sku \"%s\" has no %s peak", sku->key, le_enum_label(LE_E_DTYPE, dtype)),
				 errdetail("llm_econ.gpu_sku lists no dense %s throughput for \"%s\": the part does not support it, or it is not published.",
						   le_enum_label(LE_E_DTYPE, dtype), sku->key),
				 errhint("Supported: %s.", have.data)));
	}

	/*
	 * Freeze the hardware numbers, in SI units (the core's conversions,
	 * econ.h): HBM as the driver reports it (hbm_bytes, else hbm_gb · 1e9).
	 */
	le_spec_set_text(&s, LE_F_SKU, sku->key, strlen(sku->key));
	le_spec_set_num(&s, LE_F_PEAK_FLOPS, le_flops_of_tflops(tflops));
	le_spec_set_num(&s, LE_F_HBM_BYTES, sku->hbm_bytes);
	le_spec_set_num(&s, LE_F_INTRA_BW, le_link_bytes_per_s(sku->nvlink_gb_per_s, sku->pcie_gb_per_s));
	le_spec_set_num(&s, LE_F_INTER_BW, le_net_bytes_per_s(inter_gbit));
	if (!isnan(sku->tdp_watts))	/* NULL in gpu_sku: power not published, left NULL */
		le_spec_set_num(&s, LE_F_TDP_WATTS, sku->tdp_watts);
	/* the step-time model's hardware: HBM bandwidth and GPU generation, when known */
	if (!isnan(sku->hbm_gb_per_s))
		le_spec_set_num(&s, LE_F_HBM_BW, le_bytes_of_gb_per_s(sku->hbm_gb_per_s));
	if (sku->generation >= 0)
	{
		const char *gen = le_enum_label(LE_E_GPU_GEN, sku->generation);

		le_spec_set_text(&s, LE_F_GPU_GEN, gen, strlen(gen));
	}
	if (PG_ARGISNULL(ARG_GPUS_PER_NODE))
		le_spec_set_num(&s, LE_F_GPUS_PER_NODE, (double) sku->gpus_per_node);

	le_check(le_check_spec(&s, &err), &err);
	PG_RETURN_DATUM(remember_args(fcinfo, sc, le_spec_build(fcinfo, &s)));
}
