-- Reports added in 0.2.0: spend per day for finance dashboards.

-- Billed and effective USD and GPU-hours per UTC day of the charge period start, per tenant,
-- provider and service category.  security_invoker: readers see their tenants' lines only.
CREATE VIEW llm_econ.spend_daily WITH (security_invoker = true) AS
  SELECT (date_trunc('day', s.charge_period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "time",
         s.tenant, s.provider, s.service_category,
         sum(s.billed_cost) AS billed_usd, sum(s.effective_cost) AS effective_usd,
         sum(s.gpu_hours) AS gpu_hours, count(*) AS lines,
         count(DISTINCT s.run_id) AS runs
    FROM llm_econ.spend s
   GROUP BY 1, 2, 3, 4;
COMMENT ON VIEW llm_econ.spend_daily IS
  'billed and effective USD, GPU-hours, lines and runs per UTC day (of the charge period start), tenant, provider and service category';
COMMENT ON COLUMN llm_econ.spend_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spend_daily.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spend_daily.service_category IS 'FOCUS ServiceCategory';
COMMENT ON COLUMN llm_econ.spend_daily.billed_usd IS 'sum of BilledCost';
COMMENT ON COLUMN llm_econ.spend_daily.effective_usd IS 'sum of EffectiveCost';
COMMENT ON COLUMN llm_econ.spend_daily.gpu_hours IS 'sum of GPU-hours of GPU instance lines';
COMMENT ON COLUMN llm_econ.spend_daily.lines IS 'billing lines';
COMMENT ON COLUMN llm_econ.spend_daily.runs IS 'distinct run_id tags';
GRANT SELECT ON llm_econ.spend_daily TO PUBLIC;
