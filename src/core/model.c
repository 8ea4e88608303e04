/* model.c: training FLOPs, wall time, GPU-hours, energy and achieved MFU of a run (plain C). */
#include "econ.h"

#include <math.h>
#include <stdio.h>

/* A result that left the double range is an overflow, never a silent Infinity. */
static le_status
finite_or_overflow(const char *what, double v, le_error *err)
{
	if (isfinite(v))
		return LE_OK;
	return le_set_error(err, LE_ERR_OVERFLOW, "The spec's fields are each in range, but their combination is not.",
						"%s is out of range", what);
}

/*
 * Model FLOPs C = 6·N·D: forward 2 and backward 4 FLOPs per parameter per token
 * (Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1;
 * Hoffmann et al. 2022, "Chinchilla", Appendix F).  N is the parameters
 * active per token: a mixture of experts runs only top_k of its experts on a
 * token (DeepSeek-V3, arXiv 2412.19437: 37B of 671B), so its FLOPs, time and
 * cost use n_active_params.
 *
 * With attention_flops, add the attention score and value FLOPs that 6N
 * leaves out: 12·L·H·Q·T per token (Chowdhery et al. 2022, "PaLM",
 * Appendix B: 6N + 12·L·H·Q·T, H·Q = d_model, T = seq_len; no causal
 * discount), the convention of the published MFU figures of PaLM and Llama 3.
 * Needs n_layers, d_model and seq_len.  Multi-head latent attention has its
 * own head sizes: 6·L·T·n_h·(d_nope + d_rope + d_v) (Q·K^T over the
 * d_nope + d_rope query/key, the weighted sum over d_v; DOMAIN.md §8,
 * DeepSeek-V3 arXiv 2412.19437 §2.1.1), which is 12·L·H·Q·T when the
 * head sizes are d_model/n_heads.
 */
le_status
le_training_flops_attn(const le_spec *s, int attention_flops, double *flops, le_error *err)
{
	double		per_token;

	if (le_check_fields(s, LE_NEED_FLOPS, err) != LE_OK)
		return err->status;
	if ((s->present & LE_BIT(LE_F_N_ACTIVE_PARAMS)) && s->num[LE_F_N_ACTIVE_PARAMS] > s->num[LE_F_N_PARAMS])
	{
		char		d[128];

		snprintf(d, sizeof(d), "Got n_active_params=%.6g, n_params=%.6g.", s->num[LE_F_N_ACTIVE_PARAMS], s->num[LE_F_N_PARAMS]);
		return le_set_error(err, LE_ERR_VALUE, d, "n_active_params must be in (0, n_params]");
	}
	per_token = 6.0 * le_active_params(s);
	if (attention_flops)
	{
		le_fieldset need = LE_BIT(LE_F_N_LAYERS) | LE_BIT(LE_F_D_MODEL) | LE_BIT(LE_F_SEQ_LEN);

		if ((s->present & need) != need)
			return le_set_error(err, LE_ERR_VALUE, "Attention FLOPs are 12 * n_layers * d_model * seq_len per token.",
								"training_flops with attention_flops needs n_layers, d_model and seq_len");
		if (s->present & LE_BIT(LE_F_KV_LORA_RANK))
		{
			le_attn_shape a;

			/* latent attention: its own head sizes (le_attn_score_flops), forward + backward = 3x */
			if (!(s->present & LE_BIT(LE_F_N_HEADS)))
				return le_set_error(err, LE_ERR_VALUE, "Latent attention FLOPs are 6 * n_layers * seq_len * n_heads * (qk_nope_head_dim + qk_rope_head_dim + v_head_dim) per token.",
									"training_flops with attention_flops needs n_heads for multi-head latent attention");
			le_attn_of_spec(s, &a);
			per_token += 3.0 * s->num[LE_F_N_LAYERS] * le_attn_score_flops(&a, s->num[LE_F_SEQ_LEN]);
		}
		else
			per_token += 12.0 * s->num[LE_F_N_LAYERS] * s->num[LE_F_D_MODEL] * s->num[LE_F_SEQ_LEN];
	}
	*flops = per_token * s->num[LE_F_N_TOKENS];
	return finite_or_overflow("training_flops", *flops, err);
}

/* 6·N_active·D, the model FLOPs that time, cost and MFU use. */
le_status
le_training_flops(const le_spec *s, double *flops, le_error *err)
{
	return le_training_flops_attn(s, 0, flops, err);
}

/*
 * Wall time T = C / (G · MFU · P), P the dense peak per GPU at the run's
 * precision (Chowdhery et al. 2022, "PaLM", Appendix B defines MFU this way).
 */
le_status
le_train_seconds(const le_spec *s, double *seconds, le_error *err)
{
	double		flops;

	if (le_check_fields(s, LE_NEED_TIME, err) != LE_OK ||
		le_training_flops(s, &flops, err) != LE_OK)
		return err->status;
	*seconds = flops / (s->num[LE_F_N_GPUS] * s->num[LE_F_MFU] * s->num[LE_F_PEAK_FLOPS]);
	return finite_or_overflow("mfu_time", *seconds, err);
}

/* GPU-hours = G · T / 3600 s; with ideal scaling it does not depend on G. */
le_status
le_gpu_hours(const le_spec *s, double *hours, le_error *err)
{
	double		seconds;

	if (le_train_seconds(s, &seconds, err) != LE_OK)
		return err->status;
	*hours = seconds / 3600.0 * s->num[LE_F_N_GPUS];
	return finite_or_overflow("gpu_hours", *hours, err);
}

/*
 * Energy = TDP · G · hours · PUE / 1000 kWh (board power at TDP, facility
 * overhead by PUE).  A spec without tdp_watts (a part whose vendor publishes
 * no per-chip power, e.g. TPU v5e/v5p/v6e, Trainium) has no energy: NaN, which
 * the SQL layer returns as NULL, never a guessed wattage.
 */
le_status
le_energy_kwh(const le_spec *s, double pue, double *kwh, le_error *err)
{
	double		hours;

	if (le_check_fields(s, LE_NEED_ENERGY, err) != LE_OK ||
		le_check_range("pue", pue, LE_PUE_MIN, 0, LE_PUE_MAX, 0, err) != LE_OK ||
		le_gpu_hours(s, &hours, err) != LE_OK)
		return err->status;
	if (!(s->present & LE_BIT(LE_F_TDP_WATTS)))
	{
		*kwh = NAN;
		return LE_OK;
	}
	*kwh = s->num[LE_F_TDP_WATTS] * hours * pue / 1000.0;
	return finite_or_overflow("energy_kwh", *kwh, err);
}

/* The MFU a run really had: C / (G · P · wall).  Above 1 means the spec's N·D overstates the work. */
le_status
le_achieved_mfu(const le_spec *s, double wall_seconds, double *mfu, le_error *err)
{
	double		flops;

	if (le_check_fields(s, LE_NEED_ACHIEVED, err) != LE_OK ||
		le_check_range("wall (in seconds)", wall_seconds, 0, 1, 1e13, 0, err) != LE_OK ||
		le_training_flops(s, &flops, err) != LE_OK)
		return err->status;
	*mfu = flops / (s->num[LE_F_N_GPUS] * s->num[LE_F_PEAK_FLOPS] * wall_seconds);
	return finite_or_overflow("achieved_mfu", *mfu, err);
}
