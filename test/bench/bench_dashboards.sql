-- bench_dashboards.sql: dashboard panels (price_daily_by_provider, price_daily, cheapest_provider_monthly) on the shipped history plus :obs synthetic observations, with the issue-16 goals printed as met or missed.
-- :obs synthetic observations (default 1M) over 1,000 series and the 4 years up to yesterday; :reps repetitions.
-- :save (a file path) keeps this run's medians (server-side COPY); :compare (the file an earlier
-- run saved, e.g. at 1M) prints this run's panels against it with the ratio (run.sh: 1M vs 10M).
\if :{?obs}
\else
\set obs 1000000
\endif
\ir harness.sql
-- what a client sees by default: JIT on at its usual threshold (the panels must stay below it)
SET jit = on;
SET jit_above_cost = 100000;

-- Run a statement once (a load, an append), for figures that cannot be repeated as they are.
CREATE FUNCTION pg_temp.once(label text, q text, units bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz := clock_timestamp();
BEGIN
  EXECUTE q;
  INSERT INTO results (label, units, median_ms)
  VALUES (label, units, extract(epoch FROM clock_timestamp() - t0) * 1000);
END $$;

SELECT llm_econ._today_utc() AS today, llm_econ._today_utc() - interval '4 years' AS start \gset
\echo == :obs synthetic observations: 10 SKUs x 10 providers x 2 pricings x 5 regions = 1,000 series, 4 years up to :today
-- one INSERT statement, as a bulk import would: the summary triggers fire once for it
SELECT pg_temp.once('load: INSERT of the synthetic history (triggers included)', format($q$
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
SELECT %L::timestamptz + (h::float8 / (%s / 1000)) * interval '4 years' + (s %% 7) * interval '1 minute',
       'p' || (s %% 10), (ARRAY['A100-40GB', 'A100-80GB', 'H100-SXM5', 'H100-PCIe', 'H200-SXM5', 'B200', 'L4', 'A10G', 'L40S', 'MI300X'])[1 + s / 100],
       'r' || (s / 10 %% 5), CASE WHEN s / 50 %% 2 = 0 THEN 'on_demand' ELSE 'spot' END,
       round((1 + (s / 100) * 0.4 + ((h * 7 + s) %% 97) / 100.0 * CASE WHEN s / 50 %% 2 = 0 THEN 1 ELSE 0.4 END)::numeric, 4),
       'synthetic'
  FROM generate_series(0, 999) AS s, generate_series(0, %s / 1000 - 1) AS h
$q$, :'start', :obs, :obs), :obs);
ANALYZE llm_econ.price_snapshot;
ANALYZE llm_econ.price_series;
ANALYZE llm_econ.price_daily_summary;
ANALYZE llm_econ.price_daily_group;
SELECT count(*) AS history_rows FROM llm_econ.price_snapshot \gset
SELECT count(*) AS summary_rows FROM llm_econ.price_daily_summary \gset
\echo history rows: :history_rows, summary rows: :summary_rows

-- a daily import appended at the end: one observation per synthetic series, today
SELECT pg_temp.once('append: 1,000 observations (one import) at the end', format($q$
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
SELECT %L::timestamptz + interval '1 hour', 'p' || (s %% 10),
       (ARRAY['A100-40GB', 'A100-80GB', 'H100-SXM5', 'H100-PCIe', 'H200-SXM5', 'B200', 'L4', 'A10G', 'L40S', 'MI300X'])[1 + s / 100],
       'r' || (s / 10 %% 5), CASE WHEN s / 50 %% 2 = 0 THEN 'on_demand' ELSE 'spot' END, 2.5, 'synthetic'
  FROM generate_series(0, 999) AS s
$q$, :'today'), 1000);

\echo == panels (the Grafana-style queries of the README)
SELECT pg_temp.bench('panel: price_daily_by_provider, last 7 days, all SKUs', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily_by_provider WHERE "time" >= %L::timestamptz - interval '7 days' AND "time" < %L) x$q$, :'today', :'today'), 1, :reps);
SELECT pg_temp.bench('panel: price_daily_by_provider, last 30 days, all SKUs', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily_by_provider WHERE "time" >= %L::timestamptz - interval '30 days' AND "time" < %L) x$q$, :'today', :'today'), 1, :reps, 'panel: price_daily_by_provider, last 7 days, all SKUs');
SELECT pg_temp.bench('panel: price_daily_by_provider, H100-SXM5, 1 year', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily_by_provider WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '1 year') x$q$, :'today'), 1, :reps);
SELECT pg_temp.bench('panel: price_daily_by_provider, H100-SXM5, 4 years', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily_by_provider WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '4 years') x$q$, :'today'), 1, :reps, 'panel: price_daily_by_provider, H100-SXM5, 1 year');
SELECT pg_temp.bench('panel: price_daily, H100-SXM5, 4 years', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '4 years') x$q$, :'today'), 1, :reps);
SELECT pg_temp.bench('panel: cheapest_provider_monthly, H100-SXM5, 4 years', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.cheapest_provider_monthly WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '4 years') x$q$, :'today'), 1, :reps);
SELECT pg_temp.bench('panel: spot_discount_daily, H100-SXM5, 1 year', format($q$SELECT count(*) FROM (SELECT * FROM llm_econ.spot_discount_daily WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '1 year') x$q$, :'today'), 1, :reps);
SELECT pg_temp.bench('panel: price_series_spans, H100-SXM5, p3, on-demand', $q$SELECT count(*) FROM llm_econ.price_series_spans WHERE sku = 'H100-SXM5' AND provider = 'p3' AND pricing = 'on_demand'$q$, 1, :reps);
-- the 0.2.0 price_daily (a full recomputation per query), for the 7-day panel
CREATE TEMP VIEW old_price_daily AS
  WITH spans AS (
         SELECT p.sku, p.pricing, p.provider, p.usd_per_gpu_hour, p.observed_at AS t0,
                coalesce(lead(p.observed_at) OVER w, pg_catalog.now()) AS t1
           FROM llm_econ.price_snapshot p
         WINDOW w AS (PARTITION BY p.sku, p.provider, p.pricing, coalesce(p.region, ''),
                                   coalesce(p.instance_type, '') ORDER BY p.observed_at)),
       days AS (
         SELECT d.day, s.sku, s.pricing, s.provider, s.usd_per_gpu_hour
           FROM spans s
          CROSS JOIN LATERAL generate_series(date_trunc('day', s.t0 AT TIME ZONE 'UTC'),
                                             date_trunc('day', s.t1 AT TIME ZONE 'UTC') - interval '1 day',
                                             interval '1 day') AS d(day)
          WHERE s.usd_per_gpu_hour IS NOT NULL)
  SELECT (day AT TIME ZONE 'UTC') AS "time", sku, pricing, min(usd_per_gpu_hour) AS min_usd_per_gpu_hour,
         round(avg(usd_per_gpu_hour), 6) AS avg_usd_per_gpu_hour, max(usd_per_gpu_hour) AS max_usd_per_gpu_hour,
         count(DISTINCT provider) AS providers, string_agg(DISTINCT provider, ', ' ORDER BY provider) AS provider_list
    FROM days GROUP BY day, sku, pricing;
SELECT pg_temp.bench('0.2.0 price_daily (full recomputation), last 7 days', format($q$SELECT count(*) FROM old_price_daily WHERE "time" >= %L::timestamptz - interval '7 days'$q$, :'today'), 1, 1);
SELECT pg_temp.bench('panel: price_daily, last 7 days, all SKUs', format($q$SELECT count(*) FROM llm_econ.price_daily WHERE "time" >= %L::timestamptz - interval '7 days'$q$, :'today'), 1, :reps, '0.2.0 price_daily (full recomputation), last 7 days');

-- JIT: the planner's total cost of each panel against jit_above_cost
CREATE FUNCTION pg_temp.cost_of(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
  RETURN (j -> 0 -> 'Plan' ->> 'Total Cost')::float8;
END $$;
SELECT max(pg_temp.cost_of(q)) AS max_panel_cost FROM (VALUES
  (format($q$SELECT * FROM llm_econ.price_daily_by_provider WHERE "time" >= %L::timestamptz - interval '7 days'$q$, :'today')),
  (format($q$SELECT * FROM llm_econ.price_daily_by_provider WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '4 years'$q$, :'today')),
  (format($q$SELECT * FROM llm_econ.price_daily WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '4 years'$q$, :'today')),
  (format($q$SELECT * FROM llm_econ.cheapest_provider_monthly WHERE sku = 'H100-SXM5' AND "time" >= %L::timestamptz - interval '4 years'$q$, :'today'))) AS v(q) \gset

\echo == results (:history_rows observations, :summary_rows summary rows)
SELECT n, label, units, round(median_ms::numeric, 2) AS median_ms, ratio, vs FROM report ORDER BY n;

\echo == goals (issue 16)
SELECT g.goal, round(r.median_ms::numeric, 1) AS median_ms, g.limit_ms,
       CASE WHEN r.median_ms <= g.limit_ms THEN 'met' ELSE 'MISSED' END AS verdict
  FROM (VALUES ('panel: price_daily_by_provider, last 7 days, all SKUs', 20),
               ('panel: price_daily_by_provider, H100-SXM5, 4 years', 200),
               ('panel: cheapest_provider_monthly, H100-SXM5, 4 years', 200)) AS g(goal, limit_ms)
  JOIN results r ON r.label = g.goal
UNION ALL
SELECT 'no panel plan reaches jit_above_cost', round(:max_panel_cost::numeric, 0), 100000,
       CASE WHEN :max_panel_cost < 100000 THEN 'met' ELSE 'MISSED' END;

\if :{?save}
COPY (SELECT label, median_ms, :history_rows::bigint AS history_rows, :summary_rows::bigint AS summary_rows FROM results)
  TO :'save' (FORMAT csv);
\endif
\if :{?compare}
-- The same panels on a history 10 times longer (same 1,000 series, same 4 years, observations
-- 10 times denser): the summary has as many rows, so a panel that reads only its range costs
-- the same.  Growth verdict: met when the longer history costs at most 2x (a panel that read
-- the history would cost about 10x).
CREATE TEMP TABLE earlier (label text, median_ms float8, history_rows bigint, summary_rows bigint);
COPY earlier FROM :'compare' (FORMAT csv);
\echo == the panels on the earlier run history and on this run history (:history_rows observations, :summary_rows summary rows)
SELECT g.goal AS panel,
       round(e.median_ms::numeric, 2) AS earlier_ms, e.history_rows AS earlier_history,
       round(r.median_ms::numeric, 2) AS this_ms, :history_rows AS this_history,
       round((r.median_ms / e.median_ms)::numeric, 2) AS ratio, g.limit_ms,
       CASE WHEN e.median_ms <= g.limit_ms AND r.median_ms <= g.limit_ms THEN 'met' ELSE 'MISSED' END AS within_limit,
       CASE WHEN r.median_ms <= 2 * e.median_ms THEN 'met' ELSE 'MISSED' END AS grows_with_range_not_history
  FROM (VALUES (1, 'panel: price_daily_by_provider, last 7 days, all SKUs', 20),
               (2, 'panel: price_daily_by_provider, H100-SXM5, 4 years', 200),
               (3, 'panel: cheapest_provider_monthly, H100-SXM5, 4 years', 200)) AS g(k, goal, limit_ms)
  JOIN results r ON r.label = g.goal
  JOIN earlier e ON e.label = g.goal
 ORDER BY g.k;
\endif
