-- test/citus/roles.sql: every view of docs/views.md and docs/finance.md, read by the role run.sh sets (a tenant's reader or writer), on the single node and on the Citus coordinator; run.sh compares the outputs byte for byte.
-- psql variable anchor: the timestamptz standing for now() (the same on both sides).
\set ON_ERROR_STOP 1
SET DateStyle = ISO; SET TimeZone = 'UTC'; SET extra_float_digits = 3;
\pset format unaligned
\pset footer off
SELECT date_trunc('month', :'anchor'::timestamptz) - interval '1 month' AS m0, date_trunc('month', :'anchor'::timestamptz) AS m1 \gset

\echo == who
SELECT current_user, (SELECT string_agg(DISTINCT tenant, ',' ORDER BY tenant) FROM llm_econ.spend) AS tenants_seen;

\echo == spend (the role's lines: count, sums, fingerprint)
SELECT tenant, count(*), sum(billed_cost), sum(effective_cost), sum(gpu_hours),
       md5(string_agg(concat_ws('|', row_hash, occurrence, source, line, provider, sku, run_id, billed_cost), ',' ORDER BY row_hash, occurrence))
  FROM llm_econ.spend GROUP BY tenant ORDER BY tenant;

\echo == run_plan
SELECT tenant, run_id, provider, pricing, planned_at, usd_per_gpu_hour, planned_gpu_hours, planned_usd FROM llm_econ.run_plan ORDER BY tenant, run_id;

\echo == plan_vs_actual
SELECT * FROM llm_econ.plan_vs_actual ORDER BY tenant, run_id NULLS LAST, provider, status;

\echo == plan_vs_actual_monthly
SELECT * FROM llm_econ.plan_vs_actual_monthly ORDER BY tenant, run_id NULLS LAST, billing_month, provider;

\echo == spend_monthly
SELECT * FROM llm_econ.spend_monthly ORDER BY tenant, provider, billing_account_id NULLS FIRST, billing_month, billing_currency;

\echo == spend_daily
SELECT * FROM llm_econ.spend_daily ORDER BY "time", tenant, provider, service_category NULLS FIRST;

\echo == mfu_calibration
SELECT * FROM llm_econ.mfu_calibration ORDER BY sku, provider NULLS FIRST;

\echo == price_history (last month)
SELECT * FROM llm_econ.price_history WHERE "time" >= :'m0' AND "time" < :'m1'
 ORDER BY "time", sku, provider, region NULLS FIRST, pricing, instance_type NULLS FIRST, source;

\echo == price_daily (last month)
SELECT * FROM llm_econ.price_daily WHERE "time" >= :'m0' AND "time" < :'m1' ORDER BY "time", sku, pricing;

\echo == price_daily_by_provider (last month)
SELECT * FROM llm_econ.price_daily_by_provider WHERE "time" >= :'m0' AND "time" < :'m1' ORDER BY "time", sku, provider, pricing;

\echo == price_series_spans (last month)
SELECT * FROM llm_econ.price_series_spans WHERE "time" >= :'m0' AND "time" < :'m1'
 ORDER BY "time", sku, provider, region NULLS FIRST, instance_type NULLS FIRST, pricing;

\echo == cheapest_provider_monthly (last month)
SELECT * FROM llm_econ.cheapest_provider_monthly WHERE "time" >= :'m0' AND "time" < :'m1' ORDER BY "time", sku, pricing, rank, provider;

\echo == spot_discount_daily (last month)
SELECT * FROM llm_econ.spot_discount_daily WHERE "time" >= :'m0' AND "time" < :'m1' ORDER BY "time", sku, provider;
