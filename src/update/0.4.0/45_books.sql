-- llm_econ 0.3.0 -> 0.4.0 update script, part 45: books that close (issue 32): corrections' negative GPU-hours, fx_rate codes in any case, no variance for partly unconverted runs, a run's providers, and the monthly views by invoice month.
-- (import_focus and load_focus's mode and the GPU lines rule are in parts 20 and 30 and the C code.)

-- corrections carry negative GPU-hours (the C typing allows them only on corrections)
ALTER TABLE llm_econ.spend DROP CONSTRAINT spend_gpu_hours_check;
ALTER TABLE llm_econ.spend ADD CONSTRAINT spend_gpu_hours_check CHECK (gpu_hours > '-Infinity' AND gpu_hours < 'Infinity');
COMMENT ON COLUMN llm_econ.spend.gpu_hours IS
  'ConsumedQuantity (hours) x GPUs per instance, for lines that bill a GPU machine or GPU (docs/finance.md); negative on corrections';
COMMENT ON COLUMN llm_econ.fx_rate.currency IS 'ISO 4217 code, stored upper case (eur is EUR)';

-- Currency codes in any case: a rate written for usd or eur is stored as USD or EUR.
CREATE FUNCTION llm_econ._fx_rate_upper() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  NEW.currency := pg_catalog.upper(NEW.currency);
  RETURN NEW;
END $$;
COMMENT ON FUNCTION llm_econ._fx_rate_upper() IS 'internal: trigger upper-casing fx_rate.currency (eur is EUR)';
REVOKE EXECUTE ON FUNCTION llm_econ._fx_rate_upper() FROM PUBLIC;
CREATE TRIGGER fx_rate_currency BEFORE INSERT OR UPDATE OF currency ON llm_econ.fx_rate
    FOR EACH ROW EXECUTE FUNCTION llm_econ._fx_rate_upper();

-- a run with a line in a currency with no rate: no variance, and a status saying so; a run billed
-- by two providers names both
CREATE OR REPLACE VIEW llm_econ.plan_vs_actual WITH (security_invoker = true) AS
  WITH lines AS (
         SELECT s.tenant, s.run_id, s.provider, s.billing_currency, s.charge_period_start, s.charge_period_end,
                s.gpu_hours, s.billed_cost, s.effective_cost,
                llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate
           FROM llm_econ.spend s),
       actual AS (
         SELECT l.tenant, l.run_id, pg_catalog.string_agg(DISTINCT l.provider, ', ' ORDER BY l.provider) AS provider,
                pg_catalog.sum(l.billed_cost * l.rate) AS billed_usd, pg_catalog.sum(l.effective_cost * l.rate) AS effective_usd,
                pg_catalog.sum(l.gpu_hours) AS gpu_hours, pg_catalog.min(l.charge_period_start) AS first_charge,
                pg_catalog.max(l.charge_period_end) AS last_charge,
                pg_catalog.count(*) FILTER (WHERE l.rate IS NULL) AS unconverted_lines,
                pg_catalog.string_agg(DISTINCT l.billing_currency, ', ') FILTER (WHERE l.rate IS NULL) AS unconverted_currencies
           FROM lines l
          GROUP BY l.tenant, l.run_id, CASE WHEN l.run_id IS NULL THEN l.provider END),
       joined AS (
         SELECT p.*, a.tenant AS a_tenant, a.run_id AS a_run_id, a.provider AS a_provider, a.billed_usd,
                a.effective_usd, a.gpu_hours AS actual_gpu_hours, a.first_charge, a.last_charge,
                a.unconverted_lines, a.unconverted_currencies,
                pg_catalog.round(p.planned_usd, 2) AS planned_usd_cents,
                -- usage variance: (actual - planned GPU-hours) x planned price, to the cent
                pg_catalog.round((a.gpu_hours - p.planned_gpu_hours::numeric) * p.usd_per_gpu_hour, 2) AS usage_variance_usd
           FROM llm_econ.run_plan p
           FULL JOIN actual a ON a.run_id = p.run_id AND a.tenant = p.tenant)
  SELECT coalesce(j.planned_at, j.first_charge) AS "time",
         coalesce(j.run_id, j.a_run_id) AS run_id, coalesce(j.tenant, j.a_tenant) AS tenant, j.team,
         coalesce(j.provider, j.a_provider) AS provider, j.pricing,
         j.planned_at, pg_catalog.round(j.usd_per_gpu_hour, 6) AS planned_usd_per_gpu_hour,
         j.planned_usd_cents AS planned_usd, j.billed_usd, j.effective_usd,
         -- a run with a line in a currency with no rate has no USD total, so no variance
         CASE WHEN coalesce(j.unconverted_lines, 0::bigint) = 0 THEN j.effective_usd - j.planned_usd_cents END AS variance_usd,
         CASE WHEN coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN pg_catalog.round(100::numeric * (j.effective_usd - j.planned_usd_cents) / nullif(j.planned_usd_cents, 0::numeric), 2) END AS variance_pct,
         j.planned_gpu_hours, j.actual_gpu_hours,
         -- the MFU the billed GPU-hours imply; NULL when they are beyond an interval's range
         CASE WHEN j.actual_gpu_hours > 0::numeric AND j.run_id IS NOT NULL
               AND j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric <= 1e12::numeric
              THEN llm_econ.achieved_mfu(j.spec, pg_catalog.make_interval(secs => (j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric)::float8))
         END AS implied_mfu,
         j.first_charge, j.last_charge,
         CASE WHEN j.run_id IS NULL AND j.a_run_id IS NULL THEN 'untagged'
              WHEN j.run_id IS NULL THEN 'unplanned'
              WHEN j.a_tenant IS NULL THEN 'no spend yet'
              WHEN j.unconverted_lines > 0 THEN pg_catalog.concat('planned and billed, no fx_rate for ', j.unconverted_currencies)
              ELSE 'planned and billed' END AS status,
         CASE WHEN coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN pg_catalog.round(j.effective_usd / nullif(j.actual_gpu_hours, 0::numeric), 6) END AS actual_usd_per_gpu_hour,
         -- price variance: the rest of the variance, (actual - planned $/GPU-h) x actual GPU-hours
         -- with actual $/GPU-h = effective USD / actual GPU-hours; the two add up to variance_usd
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN (j.effective_usd - j.planned_usd_cents) - j.usage_variance_usd END AS price_variance_usd,
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND j.effective_usd IS NOT NULL
               AND coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN j.usage_variance_usd END AS usage_variance_usd,
         coalesce(j.unconverted_lines, 0::bigint) AS unconverted_lines, j.unconverted_currencies
    FROM joined j;
COMMENT ON COLUMN llm_econ.plan_vs_actual.provider IS 'planned provider; for spend without a plan, the billing providers (aws, gcp: a run billed by both)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.status IS
  'planned and billed, no fx_rate for <currencies> (no variance), no spend yet, unplanned (a run_id no plan has), or untagged (spend with no run_id)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_usd IS 'effective_usd - planned_usd = price_variance_usd + usage_variance_usd; NULL when a line of the run has no fx_rate';

-- The invoice month of a line: the UTC month holding the middle of its billing period (its charge
-- period when it names none).  A GCP period starts at 08:00 UTC (midnight Pacific) and is still
-- its month; the middle is computed on instants, so the session's TimeZone moves nothing.
CREATE FUNCTION llm_econ._billing_month(billing_period_start timestamptz, billing_period_end timestamptz,
    charge_period_start timestamptz, charge_period_end timestamptz) RETURNS date
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN pg_catalog.isfinite(coalesce($1, $3)) AND pg_catalog.isfinite(coalesce($2, $4))
         THEN (pg_catalog.date_trunc('month', pg_catalog.to_timestamp(
            (pg_catalog.date_part('epoch', coalesce($1, $3)) OPERATOR(pg_catalog.+) pg_catalog.date_part('epoch', coalesce($2, $4)))
            OPERATOR(pg_catalog./) 2::float8) AT TIME ZONE 'UTC'))::date END;
END;
COMMENT ON FUNCTION llm_econ._billing_month(timestamptz, timestamptz, timestamptz, timestamptz) IS
  'internal: the invoice month of a spend line: the UTC month holding the middle of its billing (else charge) period';

-- The invoices by month: per tenant, provider, billing account, invoice month and currency, the
-- amounts as billed and in USD (fx_rate at each line's charge period start; a line with no rate
-- is left out of the USD sums and counted).
CREATE VIEW llm_econ.spend_monthly WITH (security_invoker = true) AS
  SELECT s.tenant, s.provider, s.billing_account_id,
         llm_econ._billing_month(s.billing_period_start, s.billing_period_end, s.charge_period_start, s.charge_period_end) AS billing_month,
         s.billing_currency,
         pg_catalog.sum(s.billed_cost) AS billed_cost, pg_catalog.sum(s.effective_cost) AS effective_cost,
         pg_catalog.sum(s.billed_cost * r.rate) AS billed_usd, pg_catalog.sum(s.effective_cost * r.rate) AS effective_usd,
         pg_catalog.sum(s.gpu_hours) AS gpu_hours, pg_catalog.count(*) AS lines,
         pg_catalog.count(*) FILTER (WHERE r.rate IS NULL) AS unconverted_lines
    FROM llm_econ.spend s
   CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate) AS r
   GROUP BY 1, 2, 3, 4, 5;
COMMENT ON VIEW llm_econ.spend_monthly IS
  'the invoices by month: per tenant, provider, billing account, billing_month and currency, as billed and in USD (docs/finance.md)';
COMMENT ON COLUMN llm_econ.spend_monthly.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_monthly.provider IS 'the provider key (aws, azure, gcp, ...)';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_account_id IS 'FOCUS BillingAccountId';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_month IS 'the invoice month: first day of the UTC month holding the middle of the billing period (a GCP period starting 08:00 UTC is still its month)';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_currency IS 'FOCUS BillingCurrency (upper case)';
COMMENT ON COLUMN llm_econ.spend_monthly.billed_cost IS 'sum of BilledCost in the billing currency (exact): the invoice';
COMMENT ON COLUMN llm_econ.spend_monthly.effective_cost IS 'sum of EffectiveCost in the billing currency (exact)';
COMMENT ON COLUMN llm_econ.spend_monthly.billed_usd IS 'sum of BilledCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.spend_monthly.effective_usd IS 'sum of EffectiveCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.spend_monthly.gpu_hours IS 'GPU-hours of the lines that bill GPU time (corrections net out)';
COMMENT ON COLUMN llm_econ.spend_monthly.lines IS 'lines';
COMMENT ON COLUMN llm_econ.spend_monthly.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
GRANT SELECT ON llm_econ.spend_monthly TO PUBLIC;

-- The runs by month: per tenant, run (NULL: untagged), invoice month and provider, what the month's
-- invoices charge to the run, in USD; over a month its billed_usd is the month's invoices in USD.
CREATE VIEW llm_econ.plan_vs_actual_monthly WITH (security_invoker = true) AS
  SELECT s.tenant, s.run_id,
         llm_econ._billing_month(s.billing_period_start, s.billing_period_end, s.charge_period_start, s.charge_period_end) AS billing_month,
         s.provider,
         pg_catalog.sum(s.billed_cost * r.rate) AS billed_usd, pg_catalog.sum(s.effective_cost * r.rate) AS effective_usd,
         pg_catalog.sum(s.gpu_hours) AS gpu_hours, pg_catalog.count(*) AS lines,
         pg_catalog.count(*) FILTER (WHERE r.rate IS NULL) AS unconverted_lines
    FROM llm_econ.spend s
   CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate) AS r
   GROUP BY 1, 2, 3, 4;
COMMENT ON VIEW llm_econ.plan_vs_actual_monthly IS
  'the monthly accrual of each run: per tenant, run_id (NULL: untagged), billing_month and provider';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.run_id IS 'the run (NULL: spend that names no run)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.billing_month IS 'the invoice month: first day of the UTC month holding the middle of the billing period';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.provider IS 'the billing provider (a run on two providers has a row for each)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.billed_usd IS 'sum of BilledCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.effective_usd IS 'sum of EffectiveCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.gpu_hours IS 'GPU-hours billed to the run that month (corrections net out)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.lines IS 'lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
GRANT SELECT ON llm_econ.plan_vs_actual_monthly TO PUBLIC;
