/* step_spec.c: a run_spec (le_spec) as the step model's input, and a layout of the cheapest-plan search as a spec for the memory model. */
#include "step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HAS(s, f) (((s)->present & LE_BIT(f)) != 0)

/* Append a field name to a comma-separated list. */
static void
add_name(char *buf, size_t n, int *count, const char *name)
{
	size_t		len = strlen(buf);

	snprintf(buf + len, n - len, "%s%s", *count ? ", " : "", name);
	(*count)++;
}

le_status
le_step_model_from_spec(const le_spec *s, int dp_overlap, le_step_in *in, le_error *err)
{
	static const le_field needed[] = {LE_F_N_LAYERS, LE_F_D_MODEL, LE_F_N_HEADS, LE_F_SEQ_LEN, LE_F_GLOBAL_BATCH};
	char		missing[256] = "";
	int			n_missing = 0;
	int			dtype;

	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (!HAS(s, needed[i]))
			add_name(missing, sizeof(missing), &n_missing, le_field_name(needed[i]));
	if (n_missing > 0)
	{
		const char *d = "The step-time model needs the model shape (n_layers, d_model, n_heads, seq_len) and global_batch; give them to run_spec(...).";

		if (n_missing > 1)
			return le_set_error(err, LE_ERR_VALUE, d, "the step-time model needs %s, which are NULL", missing);
		return le_set_error(err, LE_ERR_VALUE, d, "the step-time model needs %s, which is NULL", missing);
	}
	if (le_check_fields(s, LE_BIT(LE_F_N_PARAMS) | LE_BIT(LE_F_DTYPE) | LE_SHAPE | LE_MODERN, err) != LE_OK)
		return err->status;

	in->n_params = s->num[LE_F_N_PARAMS];
	in->n_active_params = le_active_params(s);
	in->n_layers = (int) s->num[LE_F_N_LAYERS];
	in->d_model = (int) s->num[LE_F_D_MODEL];
	in->n_heads = (int) s->num[LE_F_N_HEADS];
	in->n_kv_heads = (int) le_num_or(s, LE_F_N_KV_HEADS, 0);
	in->ffn_hidden = (int) le_num_or(s, LE_F_FFN_HIDDEN, 0);
	in->swiglu = le_num_or(s, LE_F_FFN_ACT, LE_ACT_GELU) == LE_ACT_SWIGLU;
	in->vocab_size = (int) le_num_or(s, LE_F_VOCAB_SIZE, 0);
	in->q_lora_rank = (int) le_num_or(s, LE_F_Q_LORA_RANK, 0);
	in->kv_lora_rank = (int) le_num_or(s, LE_F_KV_LORA_RANK, 0);
	in->qk_nope_head_dim = (int) le_num_or(s, LE_F_QK_NOPE_HEAD_DIM, 0);
	in->qk_rope_head_dim = (int) le_num_or(s, LE_F_QK_ROPE_HEAD_DIM, 0);
	in->v_head_dim = (int) le_num_or(s, LE_F_V_HEAD_DIM, 0);
	in->n_experts = (int) le_num_or(s, LE_F_N_EXPERTS, 0);
	in->top_k = (int) le_num_or(s, LE_F_TOP_K, 0);
	in->seq_len = (int) s->num[LE_F_SEQ_LEN];
	in->global_batch = s->num[LE_F_GLOBAL_BATCH];
	in->micro_batch = 1;
	in->sequence_parallel = le_num_or(s, LE_F_SEQUENCE_PARALLEL, 1) != 0;
	in->flash = le_num_or(s, LE_F_ATTENTION, LE_ATT_FLASH) == LE_ATT_FLASH;
	in->grad_bytes = le_num_or(s, LE_F_GRAD_DTYPE, LE_GD_BF16) == LE_GD_FP32 ? 4.0 : 2.0;
	/*
	 * operands of the GEMMs and of tp/cp/ep, pipeline and weight traffic:
	 * fp32/tf32 4 bytes, bf16/fp16 2; fp8 (0.5.0) 2 as well: only the linear
	 * layers' GEMM operands are fp8 (step.c, lin()), the activations, their
	 * gradients and the gathered weights travel in bf16 (Megatron-LM and
	 * torchtitan defaults; issue 46)
	 */
	dtype = (int) s->num[LE_F_DTYPE];
	in->param_bytes = (dtype == LE_DT_FP32 || dtype == LE_DT_TF32) ? 4.0 : 2.0;
	in->fp8 = dtype == LE_DT_FP8;
	in->fp8_attention = le_num_or(s, LE_F_FP8_ATTENTION, 0) != 0;
	in->dropout = le_num_or(s, LE_F_DROPOUT, 0) != 0;
	/* framework conventions: see step.h; tensor-parallel and expert traffic exposed */
	in->dp_overlap = dp_overlap ? 1 : 0;
	in->stack = (int) le_num_or(s, LE_F_STACK, LE_STACK_MEGATRON);
	in->fsdp_reshard = !HAS(s, LE_F_FSDP_RESHARD) ? LE_RESHARD_DEFAULT :
		s->num[LE_F_FSDP_RESHARD] != 0 ? LE_RESHARD_YES : LE_RESHARD_NO;
	in->tp_hidden = 0;
	in->ep_hidden = 0;
	err->status = LE_OK;
	return LE_OK;
}

le_status
le_step_from_spec(const le_spec *s, int dp_overlap, le_step_in *in, le_error *err)
{
	char		missing[128] = "";
	int			n_missing = 0;

	if (le_step_model_from_spec(s, dp_overlap, in, err) != LE_OK)
		return err->status;
	if (!HAS(s, LE_F_HBM_BW))
		add_name(missing, sizeof(missing), &n_missing, le_field_name(LE_F_HBM_BW));
	if (!HAS(s, LE_F_GPU_GEN))
		add_name(missing, sizeof(missing), &n_missing, le_field_name(LE_F_GPU_GEN));
	if (n_missing > 0)
	{
		const char *d = "Since 0.3.0, run_spec(...) freezes them from gpu_sku (hbm_gb_per_s, generation); a value built by hand or before 0.3.0 lacks them, so rebuild it with the constructor.";

		if (n_missing > 1)
			return le_set_error(err, LE_ERR_VALUE, d, "the step-time model needs %s, which are NULL", missing);
		return le_set_error(err, LE_ERR_VALUE, d, "the step-time model needs %s, which is NULL", missing);
	}
	if (le_check_fields(s, LE_NEED_COMM | LE_BIT(LE_F_PEAK_FLOPS) | LE_BIT(LE_F_N_TOKENS) | LE_STEP_HW, err) != LE_OK ||
		le_check_relations(s, err) != LE_OK)
		return err->status;

	in->micro_batch = (int) s->num[LE_F_MICRO_BATCH];
	in->peak_flops = s->num[LE_F_PEAK_FLOPS];
	in->hbm_bw = s->num[LE_F_HBM_BW];
	in->nvlink_bw = s->num[LE_F_INTRA_BW];
	in->net_bw = s->num[LE_F_INTER_BW];
	in->gpus_per_node = (int) s->num[LE_F_GPUS_PER_NODE];
	in->gen = (le_gpu_gen) (int) s->num[LE_F_GPU_GEN];
	in->n_gpus = (int) s->num[LE_F_N_GPUS];
	in->tp = (int) s->num[LE_F_TP];
	in->pp = (int) s->num[LE_F_PP];
	in->cp = (int) le_num_or(s, LE_F_CP, 1);
	in->ep = (int) le_num_or(s, LE_F_EP, 1);
	in->vpp = (int) le_num_or(s, LE_F_VPP, 1);
	in->zero_stage = (int) s->num[LE_F_ZERO_STAGE];
	in->recompute = (int) s->num[LE_F_RECOMPUTE];
	return le_step_check(in, err);
}

void
le_spec_of_layout(const le_spec *model, const le_step_in *layout, const le_sku_hw *hw, le_spec *out)
{
	*out = *model;
	le_spec_set_num(out, LE_F_N_GPUS, layout->n_gpus);
	le_spec_set_num(out, LE_F_GPUS_PER_NODE, hw->gpus_per_node);
	le_spec_set_num(out, LE_F_PEAK_FLOPS, hw->peak_flops);
	le_spec_set_num(out, LE_F_HBM_BYTES, hw->hbm_bytes);
	le_spec_set_num(out, LE_F_INTRA_BW, hw->nvlink_bw);
	le_spec_set_num(out, LE_F_INTER_BW, hw->net_bw);
	le_spec_set_num(out, LE_F_HBM_BW, hw->hbm_bw);
	le_spec_set_num(out, LE_F_GPU_GEN, (double) hw->gen);
	le_spec_set_num(out, LE_F_MICRO_BATCH, layout->micro_batch > 0 ? layout->micro_batch : 1);
	le_spec_set_num(out, LE_F_TP, layout->tp > 0 ? layout->tp : 1);
	le_spec_set_num(out, LE_F_PP, layout->pp > 0 ? layout->pp : 1);
	le_spec_set_num(out, LE_F_CP, layout->cp > 0 ? layout->cp : 1);
	le_spec_set_num(out, LE_F_EP, layout->ep > 0 ? layout->ep : 1);
	le_spec_set_num(out, LE_F_VPP, layout->vpp > 0 ? layout->vpp : 1);
	le_spec_set_num(out, LE_F_ZERO_STAGE, layout->zero_stage);
	le_spec_set_num(out, LE_F_RECOMPUTE, layout->recompute);
	out->text[LE_F_RECOMPUTE] = le_enum_label(LE_E_RECOMPUTE, layout->recompute);
	out->textlen[LE_F_RECOMPUTE] = strlen(out->text[LE_F_RECOMPUTE]);
	out->text[LE_F_GPU_GEN] = le_enum_label(LE_E_GPU_GEN, (int) hw->gen);
	out->textlen[LE_F_GPU_GEN] = strlen(out->text[LE_F_GPU_GEN]);
}

int
le_layout_fits(const le_spec *model, const le_step_in *layout, const le_sku_hw *hw)
{
	le_spec		s;
	le_memory	m;
	le_error	err;

	le_spec_of_layout(model, layout, hw, &s);
	if (le_memory_per_gpu(&s, &m, &err) != LE_OK)
		return 0;
	return le_fits(&m) == LE_TRUE;
}

le_status
le_predict(const le_spec *s, int dp_overlap, le_step_out *out, double *run_seconds, le_error *err)
{
	le_step_in	in;

	if (le_step_from_spec(s, dp_overlap, &in, err) != LE_OK ||
		le_step_time(&in, out, err) != LE_OK)
		return err->status;
	*run_seconds = s->num[LE_F_N_TOKENS] / out->tokens * out->phase[LE_PH_TOTAL];
	if (!isfinite(*run_seconds) || *run_seconds <= 0 || !(out->mfu > 0))
		return le_set_error(err, LE_ERR_OVERFLOW, NULL, "predicted run time is out of range");
	return LE_OK;
}
