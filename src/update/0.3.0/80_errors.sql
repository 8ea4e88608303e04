-- 80_errors.sql: messages in the server's error style (SQLSTATE by kind, names quoted, line numbers in a DETAIL sentence) and comments citing real sources: the SQL functions and comments that changed, as a fresh install has them.
CREATE OR REPLACE FUNCTION llm_econ._freeze_plan() RETURNS trigger
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NEW.spec IS NULL THEN
    RAISE EXCEPTION 'spec must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._check_spec(NEW.spec);             -- a hand-built spec is checked like the constructor's
  IF TG_OP = 'INSERT' AND NEW.planned_usd IS NOT NULL AND NEW.planned_gpu_hours IS NOT NULL
     AND NEW.usd_per_gpu_hour IS NOT NULL THEN
    -- already frozen: keep the values, but only sane ones
    IF NOT (NEW.planned_gpu_hours >= 0::float8 AND NEW.planned_gpu_hours < 'Infinity'::float8) THEN
      RAISE EXCEPTION 'planned_gpu_hours must be in [0, Infinity), got %', NEW.planned_gpu_hours
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT (NEW.planned_usd >= 0::numeric AND NEW.planned_usd < 'Infinity'::numeric) THEN
      RAISE EXCEPTION 'planned_usd must be in [0, Infinity), got %', NEW.planned_usd
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- and only values this spec and price give (to a millionth: a later version may round differently)
    IF abs(NEW.planned_gpu_hours - llm_econ.gpu_hours(NEW.spec)) > 1e-6::float8 * greatest(1::float8, NEW.planned_gpu_hours)
       OR abs(NEW.planned_usd - llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour))
          > 0.000001::numeric * greatest(1::numeric, NEW.planned_usd) THEN
      RAISE EXCEPTION 'planned_gpu_hours and planned_usd must be what the spec and usd_per_gpu_hour give'
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = format('Got %s GPU-hours and %s USD; the spec gives %s GPU-hours and %s USD.',
                              NEW.planned_gpu_hours, NEW.planned_usd, llm_econ.gpu_hours(NEW.spec),
                              llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour)),
              HINT = 'Leave them NULL: they are computed when the plan is made.';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.spec::text = OLD.spec::text AND NEW.provider = OLD.provider AND NEW.pricing = OLD.pricing
       AND NEW.region IS NOT DISTINCT FROM OLD.region AND NEW.planned_at = OLD.planned_at
       AND NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour THEN
      -- nothing the plan was priced from changed (notes, team, ...): it stays frozen, and a
      -- hand edit of planned_usd or planned_gpu_hours is undone
      NEW.planned_usd := OLD.planned_usd;
      NEW.planned_gpu_hours := OLD.planned_gpu_hours;
      RETURN NEW;
    END IF;
    -- the provider, pricing, region, planned_at or the spec's SKU changed and the UPDATE did not
    -- set the price itself: the plan is re-priced from the price table, never left at the old price
    IF NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour
       AND (NEW.provider <> OLD.provider OR NEW.pricing <> OLD.pricing
            OR NEW.region IS DISTINCT FROM OLD.region OR NEW.planned_at <> OLD.planned_at
            OR (NEW.spec).sku IS DISTINCT FROM (OLD.spec).sku) THEN
      NEW.usd_per_gpu_hour := NULL;
    END IF;
  END IF;
  PERFORM llm_econ._sku_key((NEW.spec).sku);          -- unknown SKU: 22023 with close matches
  IF NEW.usd_per_gpu_hour IS NULL THEN
    NEW.usd_per_gpu_hour := llm_econ.price_at((NEW.spec).sku, NEW.provider, NEW.pricing, NEW.planned_at, NEW.region);
    IF NEW.usd_per_gpu_hour IS NULL THEN
      RAISE EXCEPTION 'no % price is known for sku "%" from provider "%" at %', NEW.pricing, (NEW.spec).sku,
                      NEW.provider, NEW.planned_at
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Give usd_per_gpu_hour, or add the price to llm_econ.price_snapshot.';
    END IF;
  END IF;
  NEW.planned_usd := llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour);   -- checks the spec and the price
  NEW.planned_gpu_hours := llm_econ.gpu_hours(NEW.spec);
  RETURN NEW;
END $$;
COMMENT ON FUNCTION llm_econ._freeze_plan() IS
  'trigger: validates a plan and freezes its price, GPU-hours and USD; an UPDATE of provider, pricing, region, planned_at or the spec''s SKU re-prices it (from the price table unless the UPDATE sets usd_per_gpu_hour), an UPDATE of other spec fields recomputes GPU-hours and USD at the plan''s price, anything else keeps it frozen';

COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component in this order, unrounded numeric USD, each with the numbers it used in words: '
  'compute = gpu_hours · usd_per_gpu_hour; '
  'checkpoint = compute · checkpoint_write / checkpoint_every (throughput lost writing; the defaults, 90 s every 30 min, give 5%); '
  'storage = (checkpoints_kept · checkpoint_gb + dataset_gb) · storage_usd_per_gb_month · storage_months, GB = 10^9 bytes, '
  'checkpoint_gb NULL = weights + optimizer state per parameter · n_params (14 bytes for bf16 AdamW: 7B = 98 GB), dataset_gb NULL = 4 bytes per token · n_tokens; '
  'egress = egress_gb · egress_usd_per_gb (cross-region; 0 when co-located); '
  'energy = energy_kwh(spec, pue) · usd_per_kwh when owned, else 0 (in the cloud price; for an owned cluster pass an hourly price without energy, e.g. tco_per_gpu_hour(sku, years, utilization, 0, pue)); '
  'owned with the spec''s tdp_watts NULL (power not published): energy and total usd are NULL, the assumption says why; '
  'spot_buffer = compute · spot_buffer (an allowance for spot reclaims and ablations; the default 10% is an assumption to replace with your own); total = the sum. '
  'Prices >= 0 and finite, spot_buffer in [0, 1], intervals > 0 with checkpoint_write < checkpoint_every, counts and GB >= 0, pue in [1, 5]. '
  'Not STRICT: only checkpoint_gb and dataset_gb may be NULL; another NULL is an error';
COMMENT ON TABLE llm_econ.mfu_reference IS 'published model FLOPs utilisation of real training runs (each row''s source names the paper or report it is from)';
