-- Predicted MFU and the cheapest plan: the step-time model over run_spec, and the search for the cheapest plan that meets a deadline.

-- The GPU generation of the shipped parts (the step-time model's efficiency curve, src/core/step.c).
-- Architecture families as the vendors name them: NVIDIA Ampere (GA100: A100, A800; GA102: A10,
-- A10G, A40), Hopper (GH100: H100, H200, H800, H20, GH200), Blackwell data-centre parts (B100,
-- B200, B300, GB200, GB300); AMD CDNA 2 (MI250X) and CDNA 3 (MI300X, MI325X); everything else
-- (Volta, Turing, Ada, consumer Blackwell, CDNA 4, Gaudi, TPU, workstation cards) keeps 'other',
-- the model's conservative figures.  User rows keep what they were given (default 'other').
UPDATE llm_econ.gpu_sku g SET generation = v.generation
  FROM (VALUES ('A100-40GB', 'ampere'), ('A100-80GB', 'ampere'), ('A100-80GB-PCIe', 'ampere'),
               ('A800', 'ampere'), ('A10', 'ampere'), ('A10G', 'ampere'), ('A40', 'ampere'),
               ('H100-SXM5', 'hopper'), ('H100-PCIe', 'hopper'), ('H100-NVL', 'hopper'),
               ('H200-SXM5', 'hopper'), ('H200-NVL', 'hopper'), ('H800', 'hopper'), ('H20', 'hopper'),
               ('GH200', 'hopper'),
               ('B100', 'blackwell'), ('B200', 'blackwell'), ('B300', 'blackwell'),
               ('GB200', 'blackwell'), ('GB300', 'blackwell'),
               ('MI250X', 'cdna2'), ('MI300X', 'cdna3'), ('MI325X', 'cdna3')) AS v(sku, generation)
 WHERE g.sku OPERATOR(pg_catalog.=) v.sku AND g.builtin;

CREATE FUNCTION llm_econ.step_breakdown(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true,
    OUT phase text, OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_step_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 8;
COMMENT ON FUNCTION llm_econ.step_breakdown(llm_econ.run_spec, boolean) IS
  'one optimizer step of the spec''s layout, in seconds by phase: compute (GEMMs at a shape-dependent efficiency per GPU generation, attention, memory-bound work, recompute), tp_comm, cp_comm, ep_comm, pp_bubble (1F1B, (pp-1)/(m*vpp)), dp_comm_exposed, optimizer, total; needs the model shape and global_batch (22023 naming what is missing); dp_overlap false: gradient reduction after the backward pass (Megatron-LM 2021-22)';

CREATE FUNCTION llm_econ.predicted_mfu(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true) RETURNS float8
AS 'MODULE_PATHNAME', 'le_predicted_mfu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_mfu(llm_econ.run_spec, boolean) IS
  'MFU the step-time model predicts for the spec''s layout: 6·N_active·tokens per step / (n_gpus · peak_flops · step seconds); the spec''s own mfu is not read';

CREATE FUNCTION llm_econ.predicted_time(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true) RETURNS interval
AS 'MODULE_PATHNAME', 'le_predicted_time_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_time(llm_econ.run_spec, boolean) IS
  'wall time of the run at the predicted MFU: n_tokens / (global_batch · seq_len) steps of step_breakdown''s total, as an interval in hours:minutes:seconds';

-- The offers cheapest_plan prices plans with, through the price machinery cheapest_offers uses
-- (_latest_prices): per price series, the observation in effect at "at" (the latest at or before
-- it; withdrawn series left out), of one pricing (NULL = all), no older than max_age (NULL = no
-- bound), suspect prices (flagged by the import checks) left out.
CREATE FUNCTION llm_econ._plan_offers(at timestamptz, pricing text, max_age interval)
RETURNS TABLE (sku text, provider text, region text, instance_type text, pricing text,
               usd_per_gpu_hour numeric, gpus_per_instance int4, observed_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT ps.sku, l.provider, l.region, l.instance_type, l.pricing, l.usd_per_gpu_hour,
         l.gpus_per_instance, l.observed_at
    FROM (SELECT DISTINCT s.sku, s.provider, s.pricing FROM llm_econ.price_series s
           WHERE llm_econ._check_pricing($2) IS NULL
              OR s.pricing OPERATOR(pg_catalog.=) llm_econ._check_pricing($2)) AS ps
   CROSS JOIN LATERAL llm_econ._latest_prices(ps.sku, ps.provider, ps.pricing, $1, NULL, NULL,
                                              llm_econ._check_max_age($3)) AS l
   WHERE l.suspect IS NULL;
END;
COMMENT ON FUNCTION llm_econ._plan_offers(timestamptz, text, interval) IS
  'internal: every price series'' observation in effect at "at" (withdrawn series, suspect prices and observations older than max_age left out), of one pricing (NULL = all); the offers cheapest_plan prices with';

CREATE FUNCTION llm_econ.cheapest_plan(model llm_econ.run_spec, deadline interval,
    at timestamptz DEFAULT pg_catalog.now(), pricing text DEFAULT NULL,
    max_gpus int4 DEFAULT 16384, max_age interval DEFAULT NULL)
RETURNS TABLE (sku text, provider text, region text, instance_type text, pricing text,
               n_gpus int4, tp int4, pp int4, cp int4, ep int4, dp int4, zero_stage int4,
               recompute text, predicted_mfu float8, wall_time interval,
               usd_per_gpu_hour numeric, cost_usd numeric, spec llm_econ.run_spec)
AS 'MODULE_PATHNAME', 'le_cheapest_plan_fn' LANGUAGE C STABLE PARALLEL SAFE COST 10000 ROWS 100;
COMMENT ON FUNCTION llm_econ.cheapest_plan(llm_econ.run_spec, interval, timestamptz, text, int4, interval) IS
  'the plans that train the model (its n_params, n_active_params, n_tokens, shape, seq_len, global_batch, dtype, network; not its sku, n_gpus or layout) within deadline: every SKU with an offer in effect at "at" (pricing NULL = all, offers older than max_age left out), every GPU count in whole nodes up to max_gpus, every layout that fits in HBM, timed by the step-time model; cheapest first (at most 10000 rows), each with the run_spec that reproduces its predicted_time and, through estimate_cost(spec, usd_per_gpu_hour), its cost; no rows when no plan meets the deadline';
