/* comm.c: bytes each GPU sends per optimizer step, per collective, and their time on NVLink or the network. */
#include "econ.h"

#include <math.h>

/*
 * Conventions of nccl-tests (PERFORMANCE.md, "bus bandwidth"): for a buffer
 * of S bytes over p ranks, a ring all-reduce sends 2(p-1)/p·S per rank;
 * all-gather and reduce-scatter send (p-1)/p·S.
 *
 * Data parallel (S = the rank's parameter slice, N/(tp·pp) × element bytes):
 *   ZeRO 0 (DDP): one all-reduce of the gradients per step;
 *   ZeRO 1: reduce-scatter of gradients + all-gather of updated weights per
 *     step, the same volume as DDP (Rajbhandari et al. 2019, §7);
 *   ZeRO 2: gradients are kept sharded, so they are reduce-scattered after
 *     every micro-batch, plus one weight all-gather per step;
 *   ZeRO 3: weights are all-gathered for the forward and again for the
 *     backward of every micro-batch, gradients reduce-scattered after each:
 *     3(p-1)/p·S per micro-batch, 1.5× DDP at one micro-batch (ZeRO §7.2.2).
 * Tensor parallel (Megatron-LM, Shoeybi et al. 2019 §3; with sequence
 *   parallelism, Korthikanti et al. 2022 §4.2.2): per layer and micro-batch
 *   2 all-reduces in the forward and 2 in the backward of the b·s·h
 *   activations (sequence parallelism turns each into an all-gather plus a
 *   reduce-scatter of the same volume).
 * Pipeline parallel (Narayanan et al. 2021 §2.2): per micro-batch a stage
 *   sends its b·s·h output forward and the gradient of its input backward;
 *   with tensor parallelism each rank sends its 1/tp share (scatter/gather
 *   optimisation, Narayanan et al. 2021 §4.1).
 * Placement: ranks are numbered tp fastest, then dp, then pp (Megatron-LM's
 *   order), so a group stays on NVLink when its span fits in a node.
 */

/* Element size on the wire: 2 bytes for 16-bit training, 4 for fp32/tf32. */
static double
wire_bytes(const le_spec *s)
{
	return le_is_fp32(s) ? 4.0 : 2.0;
}

static void
add_row(const le_spec *s, le_comm_row *rows, int *n, const char *par, const char *coll,
		double span, double bytes)
{
	int			nvlink = span <= s->num[LE_F_GPUS_PER_NODE];
	le_comm_row *r = &rows[(*n)++];

	r->parallelism = par;
	r->collective = coll;
	r->link = nvlink ? "nvlink" : "network";
	r->bytes = bytes;
	r->seconds = bytes / s->num[nvlink ? LE_F_INTRA_BW : LE_F_INTER_BW];
}

le_status
le_comm_breakdown(const le_spec *s, le_comm_row *rows, int *nrows, le_error *err)
{
	double		tp,
				pp,
				dp,
				m,
				eb,
				S,
				f,
				act;
	int			shape;

	*nrows = 0;
	if (le_check_fields(s, LE_NEED_COMM, err) != LE_OK ||
		le_check_relations(s, err) != LE_OK)
		return err->status;

	tp = s->num[LE_F_TP];
	pp = s->num[LE_F_PP];
	dp = le_dp(s);
	m = le_micro_batches(s);
	if (m == 0)
		m = NAN;				/* unknown: what scales with it is unknown too */
	eb = wire_bytes(s);
	shape = (s->present & LE_BIT(LE_F_N_LAYERS)) && (s->present & LE_BIT(LE_F_D_MODEL)) &&
		(s->present & LE_BIT(LE_F_SEQ_LEN));
	act = shape ? s->num[LE_F_MICRO_BATCH] * s->num[LE_F_SEQ_LEN] * s->num[LE_F_D_MODEL] * eb : NAN;

	if (dp > 1)
	{
		S = s->num[LE_F_N_PARAMS] / (tp * pp) * eb;
		f = (dp - 1) / dp;
		switch ((int) s->num[LE_F_ZERO_STAGE])
		{
			case 0:
				add_row(s, rows, nrows, "dp", "all_reduce", tp * dp, 2 * f * S);
				break;
			case 1:
				add_row(s, rows, nrows, "dp", "reduce_scatter", tp * dp, f * S);
				add_row(s, rows, nrows, "dp", "all_gather", tp * dp, f * S);
				break;
			case 2:
				add_row(s, rows, nrows, "dp", "reduce_scatter", tp * dp, m * f * S);
				add_row(s, rows, nrows, "dp", "all_gather", tp * dp, f * S);
				break;
			default:
				add_row(s, rows, nrows, "dp", "all_gather", tp * dp, 2 * m * f * S);
				add_row(s, rows, nrows, "dp", "reduce_scatter", tp * dp, m * f * S);
				break;
		}
	}
	if (tp > 1)
		add_row(s, rows, nrows, "tp", "all_reduce", tp,
				4 * (s->num[LE_F_N_LAYERS] / pp) * m * 2 * (tp - 1) / tp * act);
	if (pp > 1)
		add_row(s, rows, nrows, "pp", "send_recv", s->num[LE_F_N_GPUS], 2 * m * act / tp);

	for (int i = 0; i < *nrows; i++)
		if (isinf(rows[i].bytes) || isinf(rows[i].seconds))
			return le_set_error(err, LE_ERR_OVERFLOW, NULL, "comm_bytes is out of range");
	return LE_OK;
}

/* Sum over the collectives; NaN when any part is unknown. */
le_status
le_comm_total(const le_spec *s, double *bytes, double *seconds, le_error *err)
{
	le_comm_row rows[LE_COMM_MAX_ROWS];
	int			n;

	if (le_comm_breakdown(s, rows, &n, err) != LE_OK)
		return err->status;
	*bytes = 0;
	*seconds = 0;
	for (int i = 0; i < n; i++)
	{
		*bytes += rows[i].bytes;
		*seconds += rows[i].seconds;
	}
	if (isinf(*bytes) || isinf(*seconds))
		return le_set_error(err, LE_ERR_OVERFLOW, NULL, "comm_bytes is out of range");
	return LE_OK;
}
