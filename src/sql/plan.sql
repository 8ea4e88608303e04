-- Predicted MFU and the cheapest plan: the step-time model over run_spec, and the search for the cheapest plan that meets a deadline.

CREATE OR REPLACE FUNCTION llm_econ.step_breakdown(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true,
    OUT phase text, OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_step_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 8;
COMMENT ON FUNCTION llm_econ.step_breakdown(llm_econ.run_spec, boolean) IS
  'one optimizer step of the spec''s layout in seconds by phase, total last; needs the model shape and global_batch (docs/step-model.md)';

CREATE OR REPLACE FUNCTION llm_econ.predicted_mfu(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true,
    calibrated boolean DEFAULT false) RETURNS float8
AS 'MODULE_PATHNAME', 'le_predicted_mfu_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_mfu(llm_econ.run_spec, boolean, boolean) IS
  'MFU the step-time model predicts for the spec''s layout; calibrated: times the SKU''s factor in mfu_calibration (docs/step-model.md)';

CREATE OR REPLACE FUNCTION llm_econ.predicted_time(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true,
    calibrated boolean DEFAULT false) RETURNS interval
AS 'MODULE_PATHNAME', 'le_predicted_time_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_time(llm_econ.run_spec, boolean, boolean) IS
  'wall time of the run at the predicted MFU; calibrated: divided by the SKU''s factor in mfu_calibration (docs/step-model.md)';
COMMENT ON TABLE llm_econ.observed_run IS
  'measured throughput of runs a team has done, which mfu_calibration turns into correction factors';
COMMENT ON COLUMN llm_econ.observed_run.tenant IS 'the role that owns the observation (row-level security)';
COMMENT ON COLUMN llm_econ.observed_run.run_id IS 'the run''s id within its tenant (as in run_plan)';
COMMENT ON COLUMN llm_econ.observed_run.spec IS 'the run as it ran: model shape, global_batch, GPUs and layout (run_spec); the step-time model must be able to time it';
COMMENT ON COLUMN llm_econ.observed_run.provider IS 'where it ran (lower case); NULL = not known, counted for its SKU only';
COMMENT ON COLUMN llm_econ.observed_run.tokens_per_second IS 'measured training throughput of the whole run, tokens per second (this or step_seconds)';
COMMENT ON COLUMN llm_econ.observed_run.step_seconds IS 'measured wall time of one optimizer step of global_batch · seq_len tokens, seconds (this or tokens_per_second)';
COMMENT ON COLUMN llm_econ.observed_run.observed_at IS 'when it was measured';
COMMENT ON COLUMN llm_econ.observed_run.source IS 'where the measurement comes from (training log, dashboard, ...)';

-- The MFU a recorded run really had, against the dense peak frozen in its spec (6·N_active per token,
-- the convention of predicted_mfu, so the ratio of the two is predicted over measured step time).
CREATE OR REPLACE FUNCTION llm_econ._observed_mfu(spec llm_econ.run_spec, tokens_per_second float8, step_seconds float8)
RETURNS float8
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  tps float8;
BEGIN
  PERFORM llm_econ._check_spec(spec);   -- every field in range (22023 naming it)
  IF pg_catalog.num_nonnulls(tokens_per_second, step_seconds) OPERATOR(pg_catalog.<>) 1 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'give exactly one of tokens_per_second and step_seconds';
  END IF;
  IF NOT (coalesce(tokens_per_second, step_seconds) > 0::float8 AND coalesce(tokens_per_second, step_seconds) < 'Infinity'::float8) THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = pg_catalog.format('%s must be in (0, Infinity), got %s',
                                  CASE WHEN tokens_per_second IS NULL THEN 'step_seconds' ELSE 'tokens_per_second' END,
                                  coalesce(tokens_per_second, step_seconds));
  END IF;
  IF tokens_per_second IS NULL AND (spec.global_batch IS NULL OR spec.seq_len IS NULL) THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'step_seconds needs the spec''s global_batch and seq_len, which are NULL';
  END IF;
  tps := coalesce(tokens_per_second, spec.global_batch::float8 * spec.seq_len::float8 / step_seconds);
  RETURN 6::float8 * coalesce(spec.n_active_params, spec.n_params) * tps / (spec.n_gpus::float8 * spec.peak_flops);
END;
$$;
COMMENT ON FUNCTION llm_econ._observed_mfu(llm_econ.run_spec, float8, float8) IS
  'internal: MFU of a measured run, 6·N_active·tokens per second / (n_gpus · peak_flops)';

-- A recorded run must be one the step model can time, with a measured MFU in (0, 1].
CREATE OR REPLACE FUNCTION llm_econ._observed_run_check() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  observed float8;
BEGIN
  observed := llm_econ._observed_mfu(NEW.spec, NEW.tokens_per_second, NEW.step_seconds);
  -- the step model needs the shape and global_batch: its 22023 names what is missing
  PERFORM llm_econ.predicted_mfu(NEW.spec);
  IF observed IS NULL OR NOT (observed > 0::float8 AND observed <= 1::float8) THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = pg_catalog.format('observed MFU must be in (0, 1], got %s for run %s', observed, NEW.run_id),
      HINT = 'tokens_per_second is the whole run''s (all GPUs); step_seconds is one step of global_batch · seq_len tokens.';
  END IF;
  RETURN NEW;
END;
$$;
REVOKE EXECUTE ON FUNCTION llm_econ._observed_run_check() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._observed_run_check() IS
  'internal: observed_run rows must be timeable by the step model and have a measured MFU in (0, 1] (22023 otherwise)';
CREATE OR REPLACE TRIGGER observed_run_check BEFORE INSERT OR UPDATE ON llm_econ.observed_run
    FOR EACH ROW EXECUTE FUNCTION llm_econ._observed_run_check();
DROP POLICY IF EXISTS observed_run_tenant ON llm_econ.observed_run;
CREATE POLICY observed_run_tenant ON llm_econ.observed_run
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));

-- Per SKU (provider NULL: every run of it), per SKU and known provider, and per SKU, stack and dtype
-- (issue 46): the runs the caller may see and the median of observed / predicted MFU, the factor
-- calibrated predictions use (the stack and dtype's first, then the provider's, then the SKU's).
CREATE OR REPLACE VIEW llm_econ.mfu_calibration WITH (security_invoker = true) AS
  WITH o AS (
    SELECT (r.spec).sku AS sku, r.provider, r.observed_at,
           COALESCE((r.spec).stack, 'megatron') AS stack, (r.spec).dtype AS dtype,
           llm_econ._observed_mfu(r.spec, r.tokens_per_second, r.step_seconds) AS observed_mfu,
           llm_econ.predicted_mfu(r.spec) AS predicted_mfu
      FROM llm_econ.observed_run r)
  SELECT o.sku, NULL::text AS provider,
         pg_catalog.count(*) AS runs,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.observed_mfu) AS median_observed_mfu,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.predicted_mfu) AS median_predicted_mfu,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.observed_mfu / o.predicted_mfu) AS median_mfu_ratio,
         pg_catalog.max(o.observed_at) AS "time", NULL::text AS stack, NULL::text AS dtype
    FROM o GROUP BY o.sku
  UNION ALL
  SELECT o.sku, o.provider,
         pg_catalog.count(*) AS runs,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.observed_mfu) AS median_observed_mfu,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.predicted_mfu) AS median_predicted_mfu,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.observed_mfu / o.predicted_mfu) AS median_mfu_ratio,
         pg_catalog.max(o.observed_at) AS "time", NULL::text, NULL::text
    FROM o WHERE o.provider IS NOT NULL GROUP BY o.sku, o.provider
  UNION ALL
  SELECT o.sku, NULL::text,
         pg_catalog.count(*) AS runs,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.observed_mfu) AS median_observed_mfu,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.predicted_mfu) AS median_predicted_mfu,
         pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY o.observed_mfu / o.predicted_mfu) AS median_mfu_ratio,
         pg_catalog.max(o.observed_at) AS "time", o.stack, o.dtype
    FROM o GROUP BY o.sku, o.stack, o.dtype;
COMMENT ON VIEW llm_econ.mfu_calibration IS
  'per SKU (and provider, or stack and dtype): recorded runs and the median of measured over predicted MFU, the factor of predicted_mfu(..., calibrated => true)';
COMMENT ON COLUMN llm_econ.mfu_calibration.sku IS 'gpu_sku key of the runs';
COMMENT ON COLUMN llm_econ.mfu_calibration.provider IS 'provider of the runs; NULL = every run of the SKU, whatever its provider';
COMMENT ON COLUMN llm_econ.mfu_calibration.runs IS 'recorded runs (observations)';
COMMENT ON COLUMN llm_econ.mfu_calibration.median_observed_mfu IS 'median measured MFU';
COMMENT ON COLUMN llm_econ.mfu_calibration.median_predicted_mfu IS 'median MFU the step model predicts for the same specs';
COMMENT ON COLUMN llm_econ.mfu_calibration.median_mfu_ratio IS 'median of measured / predicted MFU per run: the calibration factor';
COMMENT ON COLUMN llm_econ.mfu_calibration."time" IS 'the latest observation';
COMMENT ON COLUMN llm_econ.mfu_calibration.stack IS 'software stack of the runs (NULL in a spec = megatron); NULL = every stack';
COMMENT ON COLUMN llm_econ.mfu_calibration.dtype IS 'compute dtype of the runs; NULL = every dtype (set together with stack)';
GRANT SELECT ON llm_econ.mfu_calibration TO PUBLIC;

-- The offers cheapest_plan prices plans with, through the one price lookup (_latest_prices): per
-- price series, the price in effect at "at" (the latest not suspect at or before it; withdrawn
-- series left out), of one pricing (NULL = all), no older than max_age (NULL = no bound).  The
-- search rents whole machines by the rule of _billed_gpus (src/core/search.c).
CREATE OR REPLACE FUNCTION llm_econ._plan_offers(at timestamptz, pricing text, max_age interval)
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
                                              llm_econ._check_max_age($3)) AS l;
END;
COMMENT ON FUNCTION llm_econ._plan_offers(timestamptz, text, interval) IS
  'internal: the offers cheapest_plan prices with, in effect at "at", of one pricing (NULL = all)';

CREATE OR REPLACE FUNCTION llm_econ.cheapest_plan(model llm_econ.run_spec, deadline interval,
    at timestamptz DEFAULT pg_catalog.now(), pricing text DEFAULT NULL,
    max_gpus int4 DEFAULT 16384, max_age interval DEFAULT NULL, calibrated boolean DEFAULT false)
RETURNS TABLE (sku text, provider text, region text, instance_type text, pricing text,
               n_gpus int4, tp int4, pp int4, cp int4, ep int4, dp int4, zero_stage int4,
               recompute text, predicted_mfu float8, wall_time interval,
               usd_per_gpu_hour numeric, cost_usd numeric, spec llm_econ.run_spec)
AS 'MODULE_PATHNAME', 'le_cheapest_plan_fn' LANGUAGE C STABLE PARALLEL SAFE COST 10000 ROWS 100;
COMMENT ON FUNCTION llm_econ.cheapest_plan(llm_econ.run_spec, interval, timestamptz, text, int4, interval, boolean) IS
  'the plans that train the spec''s model within deadline (every SKU offered at "at", GPU count and layout that fits), timed by the step-time model, cheapest first (docs/step-model.md)';
