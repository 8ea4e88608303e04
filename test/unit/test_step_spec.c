/* test_step_spec.c: unit tests of step_spec.c: a run_spec as the step model's input, missing fields named, a search layout's spec and fit. */
#include "unit.h"
#include "core/step.h"

/* K2 of the validation table (Korthikanti 2022: 175B on 64 A100s) as a spec, as run_spec(...) would freeze it. */
static le_spec
k2_spec(void)
{
	le_spec		s = unit_spec(175e9, 3e11, 64, 8, 312, 0.4, 400);

	le_spec_set_text(&s, LE_F_SKU, "A100-80GB", 9);
	le_spec_set_num(&s, LE_F_HBM_BYTES, 85899345920.0);
	le_spec_set_num(&s, LE_F_INTRA_BW, 300e9);
	le_spec_set_num(&s, LE_F_INTER_BW, 25e9);
	le_spec_set_num(&s, LE_F_N_LAYERS, 96);
	le_spec_set_num(&s, LE_F_D_MODEL, 12288);
	le_spec_set_num(&s, LE_F_N_HEADS, 96);
	le_spec_set_num(&s, LE_F_SEQ_LEN, 2048);
	le_spec_set_num(&s, LE_F_GLOBAL_BATCH, 64);
	le_spec_set_num(&s, LE_F_TP, 8);
	le_spec_set_num(&s, LE_F_PP, 8);
	le_spec_set_text(&s, LE_F_RECOMPUTE, "selective", 9);
	le_spec_set_num(&s, LE_F_VOCAB_SIZE, 51200);
	le_spec_set_text(&s, LE_F_ATTENTION, "eager", 5);
	le_spec_set_num(&s, LE_F_HBM_BW, 2.039e12);
	le_spec_set_text(&s, LE_F_GPU_GEN, "ampere", 6);
	return s;
}

static void
test_from_spec(void)
{
	le_spec		s = k2_spec();
	le_step_in	in;
	le_step_out out;
	le_error	e;
	double		run;

	CHECK(le_step_from_spec(&s, 0, &in, &e) == LE_OK, "K2 spec maps: %s", e.message);
	CHECK(in.tp == 8 && in.pp == 8 && in.cp == 1 && in.vpp == 1 && in.recompute == LE_RC_SELECTIVE &&
		  in.flash == 0 && in.swiglu == 0 && in.sequence_parallel == 1 && in.gen == LE_GEN_AMPERE &&
		  in.grad_bytes == 2 && in.param_bytes == 2 && in.dp_overlap == 0 && in.n_active_params == 175e9,
		  "K2 fields and defaults");
	CHECK(le_predict(&s, 0, &out, &run, &e) == LE_OK, "K2 predicts: %s", e.message);
	/* Korthikanti 2022 Table 5: 13.75 s per iteration; the model's 13.31 (test_step.c) */
	NEAR(out.phase[LE_PH_TOTAL], 13.3077, 1e-4, "K2 step seconds through the spec");
	NEAR(run, 3e11 / (64.0 * 2048) * out.phase[LE_PH_TOTAL], 1e-12, "run seconds = steps x step");
	NEAR(out.mfu, 6 * 175e9 * 64 * 2048 / (64 * 312e12 * out.phase[LE_PH_TOTAL]), 1e-12, "MFU, 6N convention");

	/* conventions from the text fields */
	le_spec_set_text(&s, LE_F_GRAD_DTYPE, "fp32", 4);
	le_spec_set_text(&s, LE_F_FFN_ACT, "swiglu", 6);
	le_spec_set_text(&s, LE_F_DTYPE, "fp8", 3);
	CHECK(le_step_from_spec(&s, 1, &in, &e) == LE_OK && in.grad_bytes == 4 && in.swiglu == 1 &&
		  in.param_bytes == 1 && in.dp_overlap == 1, "fp32 grads, swiglu, fp8 operands, overlap: %s", e.message);
}

static void
test_missing(void)
{
	le_spec		s = k2_spec();
	le_step_in	in;
	le_error	e;

	s.present &= ~(LE_BIT(LE_F_SEQ_LEN) | LE_BIT(LE_F_GLOBAL_BATCH));
	CHECK(le_step_from_spec(&s, 1, &in, &e) == LE_ERR_VALUE &&
		  strstr(e.message, "seq_len, global_batch, which are NULL") != NULL, "missing shape named: %s", e.message);
	s = k2_spec();
	s.present &= ~LE_BIT(LE_F_GPU_GEN);
	CHECK(le_step_from_spec(&s, 1, &in, &e) == LE_ERR_VALUE &&
		  strstr(e.message, "gpu_generation, which is NULL") != NULL, "missing generation named: %s", e.message);
	/* the model alone does not need the hardware */
	CHECK(le_step_model_from_spec(&s, 1, &in, &e) == LE_OK, "model part without hardware: %s", e.message);
	s = k2_spec();
	le_spec_set_num(&s, LE_F_HBM_BW, NAN);
	CHECK(le_step_from_spec(&s, 1, &in, &e) == LE_ERR_VALUE && strstr(e.message, "hbm_bytes_per_s") != NULL,
		  "NaN bandwidth refused: %s", e.message);
	s = k2_spec();
	le_spec_set_num(&s, LE_F_PP, 4);	/* dp 2 */
	le_spec_set_num(&s, LE_F_GLOBAL_BATCH, 3);
	CHECK(le_step_from_spec(&s, 1, &in, &e) == LE_ERR_VALUE && strstr(e.message, "global_batch") != NULL,
		  "batch not a multiple of dp: %s", e.message);
}

static void
test_layout_spec(void)
{
	le_spec		model = k2_spec(),
				s;
	le_step_in	layout;
	le_sku_hw	hw = {989e12, 85520809984.0, 3.35e12, 450e9, 50e9, 8, LE_GEN_HOPPER};
	le_error	e;

	memset(&layout, 0, sizeof(layout));
	layout.n_gpus = 512;
	layout.tp = 8;
	layout.pp = 16;
	layout.cp = 1;
	layout.ep = 1;
	layout.vpp = 1;
	layout.zero_stage = 1;
	layout.recompute = LE_RC_FULL;
	layout.micro_batch = 1;
	le_spec_of_layout(&model, &layout, &hw, &s);
	CHECK(s.num[LE_F_N_GPUS] == 512 && s.num[LE_F_TP] == 8 && s.num[LE_F_PP] == 16 && s.num[LE_F_ZERO_STAGE] == 1 &&
		  s.num[LE_F_RECOMPUTE] == LE_RC_FULL && strcmp(s.text[LE_F_RECOMPUTE], "full") == 0 &&
		  s.num[LE_F_PEAK_FLOPS] == 989e12 && s.num[LE_F_HBM_BW] == 3.35e12 && s.num[LE_F_GPU_GEN] == LE_GEN_HOPPER &&
		  strcmp(s.text[LE_F_GPU_GEN], "hopper") == 0, "layout and hardware in the spec");
	CHECK(le_check_fields(&s, LE_NEED_ALL, &e) == LE_OK && le_check_relations(&s, &e) == LE_OK,
		  "layout spec is valid: %s", e.message);
	CHECK(le_layout_fits(&model, &layout, &hw) == 1, "175B on 512 H100 (t8 p16, ZeRO-1, full recompute) fits");
	layout.n_gpus = 8;
	layout.pp = 1;
	layout.zero_stage = 0;
	CHECK(le_layout_fits(&model, &layout, &hw) == 0, "175B on 8 H100 does not fit");
}

/* Entry point, called from test_core.c's main. */
void
test_step_spec(void)
{
	test_from_spec();
	test_missing();
	test_layout_spec();
}
