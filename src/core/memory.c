/* memory.c: training memory per GPU: model states under TP/PP and ZeRO, activations (Korthikanti et al. 2022), overhead. */
#include "econ.h"

#include <math.h>

/*
 * Bytes per parameter of weights, gradients and optimizer state.
 * Mixed precision (bf16/fp16/fp8 compute): 16-bit weights and gradients plus
 * an fp32 master copy in the optimizer state.  AdamW: master 4 + m 4 + v 4 =
 * 12, so 2 + 2 + 12 = 16 (Rajbhandari et al. 2019, "ZeRO", §3.1, K = 12).
 * 8-bit Adam keeps m and v in one byte each (Dettmers et al. 2022, "8-bit
 * Optimizers via Block-wise Quantization"): master 4 + 1 + 1 = 6.  SGD with
 * momentum: master 4 + momentum 4 = 8.
 * fp32/tf32 compute: weights and gradients are fp32 and are the master copy,
 * so the optimizer holds only its moments: AdamW 8, 8-bit Adam 2, SGD 4.
 */
static const double state_bytes[2][3][3] = {
	/* mixed precision: weights, grads, optimizer */
	{{2, 2, 12}, {2, 2, 6}, {2, 2, 8}},
	/* fp32 / tf32 */
	{{4, 4, 8}, {4, 4, 2}, {4, 4, 4}},
};

/*
 * Activation bytes of one transformer layer for one micro-batch on one GPU,
 * Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models", Table 2, with s = seq_len, b = micro_batch,
 * h = d_model, a = n_heads, t = tp; tensor parallelism implies sequence
 * parallelism.  The constants count 16-bit activations; fp32 doubles them.
 */
static double
layer_activation_bytes(const le_spec *s, int recompute)
{
	double		sq = s->num[LE_F_SEQ_LEN];
	double		b = s->num[LE_F_MICRO_BATCH];
	double		h = s->num[LE_F_D_MODEL];
	double		a = s->num[LE_F_N_HEADS];
	double		t = s->num[LE_F_TP];
	double		width = le_is_fp32(s) ? 2.0 : 1.0;
	double		sbh = sq * b * h;

	switch (recompute)
	{
		case LE_RC_SELECTIVE:
			return width * sbh * 34.0 / t;	/* attention core recomputed */
		case LE_RC_FULL:
			return width * sbh * 2.0;	/* only each layer's input is kept */
		default:
			return width * sbh * (34.0 + 5.0 * a * sq / h) / t;
	}
}

/*
 * Activations held at the peak, on the first pipeline stage.  With 1F1B
 * scheduling the first stage keeps min(pp, m) micro-batches in flight, each
 * of L/pp layers, so about L layers' worth in total (Korthikanti et al. 2022
 * §4.2.3; Narayanan et al. 2021 §2.2.1).  Full recomputation also needs one
 * layer's complete activations while that layer's backward runs.
 */
static double
activation_bytes(const le_spec *s)
{
	double		L = s->num[LE_F_N_LAYERS];
	double		pp = s->num[LE_F_PP];
	double		m = le_micro_batches(s);
	double		in_flight = (m > 0 && m < pp) ? m : pp;
	int			rc = (int) s->num[LE_F_RECOMPUTE];
	double		bytes = layer_activation_bytes(s, rc) * (L / pp) * in_flight;

	if (rc == LE_RC_FULL)
		bytes += layer_activation_bytes(s, LE_RC_NONE);
	return bytes;
}

/*
 * Memory per GPU.  Model states are divided by tp·pp (each rank holds its
 * slice of the layers of its stage), then ZeRO shards them over dp
 * (Rajbhandari et al. 2019, Figure 1): stage 1 the optimizer state, stage 2
 * also the gradients, stage 3 also the weights.
 *
 * Overhead: a fixed LE_OVERHEAD_FIXED_BYTES for the CUDA context (about
 * 0.3-1 GB with cuBLAS/cuDNN loaded; PyTorch "CUDA semantics" notes that the
 * context is not counted by its allocator) and NCCL buffers (NCCL_BUFFSIZE
 * 4 MiB per channel and peer, NCCL environment-variable docs), plus
 * LE_OVERHEAD_FRAGMENTATION of the model states for the caching allocator's
 * fragmentation (ZeRO §3.2 names fragmentation among the "residual states").
 */
le_status
le_memory_per_gpu(const le_spec *s, le_memory *m, le_error *err)
{
	const double *per_param;
	double		psi,
				dp;
	int			zero;

	if (le_check_fields(s, LE_NEED_MEMORY, err) != LE_OK ||
		le_check_relations(s, err) != LE_OK)
		return err->status;

	per_param = state_bytes[le_is_fp32(s)][(int) s->num[LE_F_OPTIMIZER]];
	psi = s->num[LE_F_N_PARAMS] / (s->num[LE_F_TP] * s->num[LE_F_PP]);
	dp = le_dp(s);
	zero = (int) s->num[LE_F_ZERO_STAGE];

	m->weights = per_param[0] * psi / (zero >= 3 ? dp : 1);
	m->grads = per_param[1] * psi / (zero >= 2 ? dp : 1);
	m->optimizer = per_param[2] * psi / (zero >= 1 ? dp : 1);
	m->activations = le_shape_known(s) ? activation_bytes(s) : NAN;
	m->overhead = LE_OVERHEAD_FIXED_BYTES +
		LE_OVERHEAD_FRAGMENTATION * (m->weights + m->grads + m->optimizer);
	m->total = m->weights + m->grads + m->optimizer + m->activations + m->overhead;
	m->hbm = s->num[LE_F_HBM_BYTES];
	if (!isfinite(m->weights + m->grads + m->optimizer + m->overhead) ||
		(le_shape_known(s) && !isfinite(m->total)))
		return le_set_error(err, LE_ERR_OVERFLOW, NULL, "memory_per_gpu is out of range");
	return LE_OK;
}

/*
 * Does it fit?  False when model states and overhead alone exceed HBM,
 * unknown when they fit but activations are unknown, else total <= HBM.
 */
le_tribool
le_fits(const le_memory *m)
{
	if (m->weights + m->grads + m->optimizer + m->overhead > m->hbm)
		return LE_FALSE;
	if (isnan(m->total))
		return LE_UNKNOWN;
	return m->total <= m->hbm ? LE_TRUE : LE_FALSE;
}
