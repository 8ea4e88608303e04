-- Reports added in 0.2.0: spend per day for finance dashboards.

-- Billed and effective USD and GPU-hours per UTC day of the charge period start, per tenant,
-- provider and service category.  Amounts in USD at the fx_rate in effect at the charge period
-- start; lines with no known rate are not summed (unconverted_lines counts them).
-- security_invoker: readers see their tenants' lines only.
CREATE OR REPLACE VIEW llm_econ.spend_daily WITH (security_invoker = true) AS
  SELECT (pg_catalog.date_trunc('day', s.charge_period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "time",
         s.tenant, s.provider, s.service_category,
         pg_catalog.sum(s.billed_cost * s.rate) AS billed_usd, pg_catalog.sum(s.effective_cost * s.rate) AS effective_usd,
         pg_catalog.sum(s.gpu_hours) AS gpu_hours, pg_catalog.count(*) AS lines,
         pg_catalog.count(DISTINCT s.run_id) AS runs,
         pg_catalog.count(*) FILTER (WHERE s.rate IS NULL) AS unconverted_lines
    -- the rate in a subquery's list: Citus pushes this down, not a FROM-less LATERAL call
    FROM (SELECT s.*, llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate FROM llm_econ.spend s) AS s
   GROUP BY 1, 2, 3, 4;
COMMENT ON VIEW llm_econ.spend_daily IS
  'billed and effective USD, GPU-hours, lines and runs per UTC day, tenant, provider and service category';
COMMENT ON COLUMN llm_econ.spend_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spend_daily.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spend_daily.service_category IS 'FOCUS ServiceCategory';
COMMENT ON COLUMN llm_econ.spend_daily.billed_usd IS 'sum of BilledCost in USD (exact; lines with no known exchange rate left out)';
COMMENT ON COLUMN llm_econ.spend_daily.effective_usd IS 'sum of EffectiveCost in USD (exact; lines with no known exchange rate left out)';
COMMENT ON COLUMN llm_econ.spend_daily.gpu_hours IS 'sum of GPU-hours of GPU instance lines';
COMMENT ON COLUMN llm_econ.spend_daily.lines IS 'billing lines';
COMMENT ON COLUMN llm_econ.spend_daily.runs IS 'distinct run_id tags';
COMMENT ON COLUMN llm_econ.spend_daily.unconverted_lines IS 'lines in a currency with no fx_rate in effect (not in the USD sums)';
GRANT SELECT ON llm_econ.spend_daily TO PUBLIC;
