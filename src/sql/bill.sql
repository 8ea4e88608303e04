-- The rest of the bill: carbon, checkpoint interval and interruption risk, the cost breakdown of a run, and the cost of owning a GPU.

CREATE OR REPLACE FUNCTION llm_econ.carbon_kg(spec llm_econ.run_spec, kg_co2_per_kwh float8, pue float8 DEFAULT 1.0)
RETURNS float8
AS 'MODULE_PATHNAME', 'le_carbon_kg_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.carbon_kg(llm_econ.run_spec, float8, float8) IS
  'operational emissions, kg CO2e: energy_kwh(spec, pue) · kg_co2_per_kwh (in [0, 2]); NULL when the spec''s tdp_watts is NULL';

-- Young 1974 / Daly 2006 checkpoint interval with independent node failures.
CREATE OR REPLACE FUNCTION llm_econ.checkpoint_plan(spec llm_econ.run_spec, checkpoint_write interval, mtbf_per_node interval,
    OUT "interval" interval, OUT overhead_fraction float8, OUT p_interrupted float8,
    OUT expected_interruptions float8, OUT cluster_mtbf interval, OUT nodes int4)
AS 'MODULE_PATHNAME', 'le_checkpoint_plan_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.checkpoint_plan(llm_econ.run_spec, interval, interval) IS
  'checkpoint interval sqrt(2 · write · cluster MTBF) under independent node failures (Young 1974; Daly 2006), its overhead and the run''s interruptions (docs/functions.md)';

CREATE OR REPLACE FUNCTION llm_econ.cost_breakdown(spec llm_econ.run_spec, usd_per_gpu_hour numeric,
    checkpoint_every interval DEFAULT '30 minutes',
    checkpoint_write interval DEFAULT '90 seconds',
    checkpoints_kept int4 DEFAULT 10,
    checkpoint_gb float8 DEFAULT NULL,
    dataset_gb float8 DEFAULT NULL,
    storage_usd_per_gb_month numeric DEFAULT 0.02,
    storage_months float8 DEFAULT 1,
    egress_gb float8 DEFAULT 0,
    egress_usd_per_gb numeric DEFAULT 0.08,
    owned boolean DEFAULT false,
    usd_per_kwh numeric DEFAULT 0.10,
    pue float8 DEFAULT 1.0,
    spot_buffer numeric DEFAULT 0.10,
    OUT component text, OUT usd numeric, OUT assumption text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_cost_breakdown_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 7;
COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component (compute, checkpoint, storage, egress, energy, spot_buffer, total), unrounded USD, each with the numbers it used (docs/functions.md)';

-- Owning a GPU: list price amortised over the used hours, plus its energy.
CREATE OR REPLACE FUNCTION llm_econ.tco_per_gpu_hour(sku text, years float8, utilization float8, usd_per_kwh numeric, pue float8)
RETURNS numeric
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key text;
  price_low numeric;
  price_high numeric;
  watts float8;
  purchase numeric;
  used_hours numeric;
  kw numeric;
BEGIN
  -- NaN compares above every number, so each upper bound also rejects it
  IF NOT (years OPERATOR(pg_catalog.>) 0 AND years OPERATOR(pg_catalog.<=) 20) THEN
    RAISE EXCEPTION 'years must be in (0, 20], got %', years USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (utilization OPERATOR(pg_catalog.>) 0 AND utilization OPERATOR(pg_catalog.<=) 1) THEN
    RAISE EXCEPTION 'utilization must be in (0, 1], got %', utilization USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (usd_per_kwh OPERATOR(pg_catalog.>=) 0 AND usd_per_kwh OPERATOR(pg_catalog.<) 'Infinity'::numeric) THEN
    RAISE EXCEPTION 'usd_per_kwh must be in [0, Infinity), got %', usd_per_kwh USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (pue OPERATOR(pg_catalog.>=) 1 AND pue OPERATOR(pg_catalog.<=) 5) THEN
    RAISE EXCEPTION 'pue must be in [1, 5], got %', pue USING ERRCODE = 'invalid_parameter_value';
  END IF;
  key := llm_econ._sku_key(sku);
  SELECT g.list_price_usd_low, g.list_price_usd_high, g.tdp_watts
    INTO price_low, price_high, watts
    FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) key;
  IF price_low IS NULL AND price_high IS NULL THEN
    RAISE EXCEPTION 'sku "%" has no list price', key USING ERRCODE = 'invalid_parameter_value',
      HINT = 'Set list_price_usd_low and list_price_usd_high in llm_econ.gpu_sku.';
  END IF;
  -- purchase price: the midpoint of the quoted range (the one end given when only one is)
  purchase := (coalesce(price_low, price_high) OPERATOR(pg_catalog.+) coalesce(price_high, price_low))
              OPERATOR(pg_catalog./) 2;
  -- hours it is used: years · 8766 h (365.25 days, as extract(epoch) counts a year) · utilization
  used_hours := (years::numeric OPERATOR(pg_catalog.*) 8766) OPERATOR(pg_catalog.*) utilization::numeric;
  -- a part whose power is not published (tdp_watts NULL) has no energy cost to add, unless energy is free
  IF watts IS NULL THEN
    IF usd_per_kwh OPERATOR(pg_catalog.=) 0 THEN
      RETURN purchase OPERATOR(pg_catalog./) used_hours;
    END IF;
    RETURN NULL;
  END IF;
  -- facility power per GPU: tdp_watts / 1000 · pue kW (board power at TDP, as energy_kwh counts it)
  kw := (watts::numeric OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) pue::numeric;
  RETURN (purchase OPERATOR(pg_catalog./) used_hours)
         OPERATOR(pg_catalog.+) (kw OPERATOR(pg_catalog.*) usd_per_kwh);
END $$;
COMMENT ON FUNCTION llm_econ.tco_per_gpu_hour(text, float8, float8, numeric, float8) IS
  'cost of owning one GPU per used GPU-hour, USD: list-price midpoint / (years · 8766 h · utilization) + energy; the GPU alone (docs/functions.md)';
