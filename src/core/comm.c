/* comm.c: bytes each GPU sends per optimizer step, per collective, and their time on NVLink or the network. */
#include "econ.h"

#include <math.h>

/*
 * Conventions of nccl-tests (PERFORMANCE.md, "bus bandwidth"): for a buffer
 * of S bytes over p ranks, a ring all-reduce sends 2(p-1)/p·S per rank;
 * all-gather and reduce-scatter send (p-1)/p·S.
 *
 * Data parallel, over the dp·cp ranks that hold the same weights (context-
 *   parallel ranks reduce their gradients too; Megatron-LM's dp-cp group)
 *   (S = the rank's parameter slice, N/(tp·pp) × element bytes;
 *   with a mixture of experts the expert slice goes over the expert
 *   data-parallel group dp·cp/ep; gradients in grad_dtype, weights in dtype):
 *   ZeRO 0 (DDP): one all-reduce of the gradients per step;
 *   ZeRO 1: reduce-scatter of gradients + all-gather of updated weights per
 *     step, the same volume as DDP (Rajbhandari et al. 2019, §7);
 *   ZeRO 2: as ZeRO 1; gradients accumulate over the micro-batches and are
 *     reduce-scattered once per step, as Megatron-LM and FSDP under a pipeline
 *     schedule run it (Llama 3 report §3.3.2), not after every micro-batch as
 *     DeepSpeed's ZeRO-2 does (docs/model.md, "ZeRO and pipeline parallelism");
 *   ZeRO 3: weights are all-gathered for the forward and again for the
 *     backward of every micro-batch, gradients reduce-scattered once per step:
 *     3(p-1)/p·S at one micro-batch, 1.5× DDP (ZeRO §7.2.2); when the stack
 *     keeps them unsharded between micro-batches (FSDP2 with pp > 1,
 *     le_fsdp_keeps) they are gathered once per step.
 * step.c's dp_comm_exposed times exactly these collectives.
 * Tensor parallel (Megatron-LM, Shoeybi et al. 2019 §3; with sequence
 *   parallelism, Korthikanti et al. 2022 §4.2.2): per layer and micro-batch
 *   2 all-reduces in the forward and 2 in the backward of the b·s·h
 *   activations (sequence parallelism turns each into an all-gather plus a
 *   reduce-scatter of the same volume).
 * Pipeline parallel (Narayanan et al. 2021 §2.2): per micro-batch a stage
 *   sends its b·s·h output forward and the gradient of its input backward;
 *   with tensor parallelism each rank sends its 1/tp share (scatter/gather
 *   optimisation, Narayanan et al. 2021 §4.1).
 * Placement: ranks are numbered tp fastest, then cp, then dp (whose
 *   consecutive ranks form the ep groups), then pp (Megatron-LM's order), so
 *   a group stays on NVLink when its span fits in a node; pipeline traffic is
 *   split between NVLink and the network when neighbouring stages share nodes.
 */

/* Element size on the wire: 2 bytes for 16-bit training, 4 for fp32/tf32. */
static double
wire_bytes(const le_spec *s)
{
	return le_is_fp32(s) ? 4.0 : 2.0;
}

/* Gradient element size: 4 with fp32 compute or grad_dtype fp32 (Megatron-LM reduces fp32 main grads by default). */
static double
grad_bytes(const le_spec *s)
{
	if (le_is_fp32(s) || (int) le_num_or(s, LE_F_GRAD_DTYPE, LE_GD_BF16) == LE_GD_FP32)
		return 4.0;
	return 2.0;
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

/* A data-parallel collective: timed over the dp·cp ranks spaced tp apart that step.c reduces over (le_dp_ring_bw). */
static void
add_dp_row(const le_spec *s, le_comm_row *rows, int *n, const char *coll, double ranks, double stride, double bytes)
{
	add_row(s, rows, n, "dp", coll, ranks * stride, bytes);
	rows[*n - 1].seconds = bytes / le_dp_ring_bw(ranks, stride, s->num[LE_F_GPUS_PER_NODE],
												 s->num[LE_F_INTRA_BW], s->num[LE_F_INTER_BW]);
}

/* (p-1)/p, the share of a buffer each rank sends in all-gather, reduce-scatter and all-to-all. */
static double
ring_share(double p)
{
	return (p - 1.0) / p;
}

le_status
le_comm_breakdown(const le_spec *s, le_comm_row *rows, int *nrows, le_error *err)
{
	double		tp,
				pp,
				cp,
				ep,
				vpp,
				dp,
				dpe,
				m,
				eb,
				gb,
				Ls,
				rc_extra,
				experts,
				Sd,
				Se,
				fd,
				fe,
				act;
	int			shape;

	*nrows = 0;
	if (le_check_fields(s, LE_NEED_COMM, err) != LE_OK ||
		le_check_relations(s, err) != LE_OK)
		return err->status;

	tp = s->num[LE_F_TP];
	pp = s->num[LE_F_PP];
	cp = le_num_or(s, LE_F_CP, 1);
	ep = le_num_or(s, LE_F_EP, 1);
	vpp = le_num_or(s, LE_F_VPP, 1);
	dp = le_dp(s) * cp;			/* gradients are reduced over the dp·cp ranks holding the same weights */
	dpe = dp / ep;				/* expert data-parallel group */
	m = le_micro_batches(s);
	if (m == 0)
		m = NAN;				/* unknown: what scales with it is unknown too */
	eb = wire_bytes(s);
	gb = grad_bytes(s);
	shape = (s->present & LE_BIT(LE_F_N_LAYERS)) && (s->present & LE_BIT(LE_F_D_MODEL)) &&
		(s->present & LE_BIT(LE_F_SEQ_LEN));
	Ls = shape ? le_stage_layers(s) : NAN;
	/* one micro-batch's hidden states on this GPU: b·(s/cp)·h elements */
	act = shape ? s->num[LE_F_MICRO_BATCH] * s->num[LE_F_SEQ_LEN] / cp * s->num[LE_F_D_MODEL] * eb : NAN;

	/* parameters of the heaviest stage (its own layers; the embeddings only where they are), per GPU */
	experts = le_expert_params(s);
	le_dp_slice(s->num[LE_F_N_PARAMS] - experts, experts,
				(s->present & LE_BIT(LE_F_VOCAB_SIZE)) && (s->present & LE_BIT(LE_F_D_MODEL)) ?
				s->num[LE_F_VOCAB_SIZE] * s->num[LE_F_D_MODEL] : 0,
				(s->present & LE_BIT(LE_F_N_LAYERS)) ? s->num[LE_F_N_LAYERS] : 0, pp, tp, ep, &Sd, &Se);
	fd = ring_share(dp);
	fe = ring_share(dpe);

	if (dp > 1)
	{
		double		grads = fd * Sd * gb + fe * Se * gb;	/* one reduce-scatter of the gradients */
		double		weights = fd * Sd * eb + fe * Se * eb;	/* one all-gather of the weights */

		switch ((int) s->num[LE_F_ZERO_STAGE])
		{
			case 0:
				add_dp_row(s, rows, nrows, "all_reduce", dp, tp, 2 * grads);
				break;
			case 1:
			case 2:
				add_dp_row(s, rows, nrows, "reduce_scatter", dp, tp, grads);
				add_dp_row(s, rows, nrows, "all_gather", dp, tp, weights);
				break;
			default:
				/* parameters kept unsharded between micro-batches (FSDP2 under a pipeline): gathered once per step */
				add_dp_row(s, rows, nrows, "all_gather", dp, tp, le_spec_fsdp_keeps(s) ? weights : 2 * m * weights);
				add_dp_row(s, rows, nrows, "reduce_scatter", dp, tp, grads);
				break;
		}
	}
	/*
	 * Full recompute runs each layer's forward again before its backward, with
	 * its tensor-, context- and expert-parallel collectives (Korthikanti et al.
	 * 2022, §4.3): two more all-reduce equivalents per layer (6 in all), the
	 * forward K/V ring once more, two more all-to-alls.
	 */
	rc_extra = (int) s->num[LE_F_RECOMPUTE] == LE_RC_FULL;
	if (tp > 1)
		add_row(s, rows, nrows, "tp", "all_reduce", tp,
				(4 + 2 * rc_extra) * Ls * m * 2 * (tp - 1) / tp * act);
	if (cp > 1)
	{
		/*
		 * Context parallelism (ring attention; Llama 3 report §3.3.2, Megatron-LM
		 * context parallel): per layer and micro-batch, each rank passes its K and
		 * V chunk, 2·(s/cp)·b·h·(n_kv_heads/n_heads)/tp elements, cp−1 steps round
		 * the ring in the forward; the backward passes K/V again and their
		 * gradients: 3·(cp−1) chunks in all.
		 */
		double		kv = (s->present & LE_BIT(LE_F_N_KV_HEADS)) && (s->present & LE_BIT(LE_F_N_HEADS)) ?
			s->num[LE_F_N_KV_HEADS] / s->num[LE_F_N_HEADS] : 1.0;

		/* latent attention: keys of d_nope + d_rope and values of d_v per head (le_attn_kv_width) */
		if ((s->present & LE_BIT(LE_F_KV_LORA_RANK)) && (s->present & LE_BIT(LE_F_N_HEADS)) &&
			(s->present & LE_BIT(LE_F_D_MODEL)))
		{
			le_attn_shape a;

			le_attn_of_spec(s, &a);
			kv = le_attn_kv_width(&a) / (2.0 * s->num[LE_F_D_MODEL]);
		}

		add_row(s, rows, nrows, "cp", "send_recv", tp * cp,
				(3 + rc_extra) * (cp - 1) * Ls * m * 2 * act * kv / tp);
	}
	if (ep > 1)
	{
		/*
		 * Expert parallelism: each MoE layer dispatches every token's hidden
		 * state to its top_k experts and combines the results, in the forward
		 * and again in the backward: four all-to-alls of b·(s/cp)·h·top_k
		 * elements (sharded over tp), each rank sending (ep−1)/ep of it
		 * (nccl-tests alltoall; Lepikhin et al. 2020, GShard; DeepSeek-V3
		 * report §3.2.2).  Every layer of the stage is counted as an MoE layer.
		 */
		add_row(s, rows, nrows, "ep", "all_to_all", tp * cp * ep,
				(4 + 2 * rc_extra) * Ls * m * ring_share(ep) * act * s->num[LE_F_TOP_K] / tp);
	}
	if (pp > 1)
	{
		/*
		 * With vpp virtual stages a micro-batch crosses each rank vpp times
		 * (Narayanan et al. 2021 §2.2.2).  Rank r sends to r + stride, stride =
		 * tp·cp·dp: on NVLink when the whole pipeline shares a node; when only
		 * neighbouring stages do (stride < gpus_per_node), a share stride/gpn
		 * of the senders crosses a node boundary and uses the network.
		 */
		double		total = 2 * m * vpp * act / tp;
		double		stride = tp * dp;	/* tp·cp·dp, dp here being the dp·cp group */
		double		gpn = s->num[LE_F_GPUS_PER_NODE];

		if (s->num[LE_F_N_GPUS] <= gpn || stride >= gpn)
			add_row(s, rows, nrows, "pp", "send_recv", s->num[LE_F_N_GPUS], total);
		else
		{
			add_row(s, rows, nrows, "pp", "send_recv", 1, total * (1 - stride / gpn));
			add_row(s, rows, nrows, "pp", "send_recv", gpn + 1, total * stride / gpn);
		}
	}

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
