-- test/citus/queries.sql: the README's user queries, run unchanged on the single node and on the Citus coordinator; test/citus/run.sh compares the outputs byte for byte.
-- psql variable anchor: the timestamptz standing for now() (the same on both sides).
\set ON_ERROR_STOP 1
SET DateStyle = ISO; SET TimeZone = 'UTC'; SET extra_float_digits = 3;
\pset format unaligned
\pset footer off

\echo == cheapest provider for this run last month (README "Views for dashboards")
WITH run AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45) AS s),
     m AS (SELECT tstzrange(date_trunc('month', :'anchor'::timestamptz) - interval '1 month', date_trunc('month', :'anchor'::timestamptz)) AS r),
     offers AS MATERIALIZED (SELECT DISTINCT provider, pricing FROM llm_econ.price_series WHERE sku = 'H100-SXM5')
SELECT o.provider, o.pricing, t.usd AS avg_usd_per_gpu_hour, llm_econ.estimate_cost(run.s, t.usd) AS cost_usd
  FROM run, m, offers o,
       LATERAL (SELECT llm_econ.price_twap('H100-SXM5', o.provider, o.pricing, m.r) AS usd) t
 WHERE t.usd IS NOT NULL
 ORDER BY cost_usd LIMIT 10;

\echo == dashboard panel: H100 on-demand vs spot per day, last month (price_daily)
SELECT "time", pricing AS metric, min_usd_per_gpu_hour AS value, providers
  FROM llm_econ.price_daily
 WHERE sku = 'H100-SXM5' AND "time" >= date_trunc('month', :'anchor'::timestamptz) - interval '1 month'
   AND "time" < date_trunc('month', :'anchor'::timestamptz)
 ORDER BY "time", pricing;

\echo == dashboard panel: spend per day and tenant in USD, last month (spend_daily)
SELECT "time", tenant, sum(billed_usd) AS billed_usd, sum(effective_usd) AS effective_usd, sum(gpu_hours) AS gpu_hours, sum(lines) AS lines
  FROM llm_econ.spend_daily
 WHERE "time" >= date_trunc('month', :'anchor'::timestamptz) - interval '1 month' AND "time" < date_trunc('month', :'anchor'::timestamptz)
 GROUP BY 1, 2 ORDER BY 1, 2;

\echo == the month-end close: the invoices (spend_monthly)
SELECT * FROM llm_econ.spend_monthly ORDER BY tenant, provider, billing_account_id NULLS FIRST, billing_month, billing_currency;

\echo == the month-end close: each run's accrual (plan_vs_actual_monthly)
SELECT * FROM llm_econ.plan_vs_actual_monthly ORDER BY tenant, run_id NULLS LAST, billing_month, provider;

\echo == plan vs actual for a tenant (plan_vs_actual, team_pretrain)
SELECT * FROM llm_econ.plan_vs_actual WHERE tenant = 'team_pretrain' ORDER BY run_id;

\echo == plan vs actual, every run (unplanned spend included)
SELECT run_id, tenant, status, planned_usd, billed_usd, effective_usd, variance_usd, variance_pct,
       planned_gpu_hours, actual_gpu_hours, implied_mfu
  FROM llm_econ.plan_vs_actual ORDER BY run_id NULLS LAST, tenant, status, billed_usd;

\echo == plans as frozen by the trigger (on Citus: on the worker holding the shard of the tenant)
SELECT tenant, run_id, provider, pricing, planned_at, usd_per_gpu_hour, planned_gpu_hours, planned_usd
  FROM llm_econ.run_plan ORDER BY tenant, run_id;

\echo == spend per tenant
SELECT tenant, count(*) AS lines, sum(billed_cost) AS billed, sum(effective_cost) AS effective, sum(gpu_hours) AS gpu_hours,
       count(DISTINCT run_id) AS runs
  FROM llm_econ.spend GROUP BY tenant ORDER BY tenant;
