-- bench_prices.sql: as-of lookups, TWAP and cheapest offers on an :rows-row price history, and a catalog import vs COPY.
\if :{?rows}
\else
\set rows 1000000
\endif
\ir harness.sql

\echo == a synthetic history of :rows observations: 10 providers x 10 regions x 5 machine types x 2 pricings = 1,000 series
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source)
SELECT timestamptz '2020-01-01' + (h * interval '1 hour'), 'p' || (s % 10), 'H100-SXM5', 'r' || (s / 10 % 10),
       CASE WHEN s / 100 % 2 = 0 THEN 'on_demand' ELSE 'spot' END,
       round((2 + (h % 97) / 100.0 + (s % 50) / 50.0)::numeric, 4), 'type' || (s / 200), (ARRAY[1, 2, 4, 8, 8])[s / 200 + 1], 'synthetic'
  FROM generate_series(0, 999) AS s, generate_series(0, :rows / 1000 - 1) AS h;
ANALYZE price_snapshot;
ANALYZE price_series;
SELECT count(*) AS history_rows FROM price_snapshot \gset
\echo history rows: :history_rows

-- 1,000 lookups at random instants per measurement
CREATE TEMP TABLE instants AS
SELECT timestamptz '2020-01-01' + random() * (:rows / 1000) * interval '1 hour' AS t FROM generate_series(1, 1000);
SELECT pg_temp.bench('price_at, one region (5 series)', $$SELECT count(llm_econ.price_at('H100-SXM5', 'p3', 'spot', t, 'r4')) FROM instants$$, 1000, :reps);
SELECT pg_temp.bench('price_at, cheapest region (50 series)', $$SELECT count(llm_econ.price_at('H100-SXM5', 'p3', 'spot', t)) FROM instants$$, 1000, :reps);
SELECT pg_temp.bench('brute force: DISTINCT ON scan, one region', $$SELECT count((SELECT min(p) FROM (SELECT DISTINCT ON (instance_type) usd_per_gpu_hour AS p FROM llm_econ.price_snapshot WHERE sku = 'H100-SXM5' AND provider = 'p3' AND pricing = 'spot' AND region = 'r4' AND observed_at <= t ORDER BY instance_type, observed_at DESC) x)) FROM instants LIMIT 20$$, 20, :reps, 'price_at, one region (5 series)');
SELECT timestamptz '2020-01-01' + (:rows / 2000) * interval '1 hour' AS mid,
       timestamptz '2020-01-01' + (:rows / 2000 + 168) * interval '1 hour' AS mid_week \gset
-- cheapest_offers against its 0.2.0 definition (git show 9acf4fd:src/sql/prices.sql, loaded as
-- pg_temp functions), on the same history in the same run: 0.3.0 adds the age, kind, suspect and
-- machine-size filters and the instance type and GPU count columns
CREATE FUNCTION pg_temp.old_latest_prices(sku text, provider text, pricing text, at timestamptz, region text)
RETURNS TABLE (provider text, region text, instance_type text, pricing text,
               observed_at timestamptz, usd_per_gpu_hour numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT s.provider, s.region, s.instance_type, s.pricing, o.observed_at, o.usd_per_gpu_hour
    FROM llm_econ.price_series s
   CROSS JOIN LATERAL (
         SELECT p.observed_at, p.usd_per_gpu_hour
           FROM llm_econ.price_snapshot p
          WHERE p.sku OPERATOR(pg_catalog.=) s.sku
            AND p.provider OPERATOR(pg_catalog.=) s.provider
            AND p.pricing OPERATOR(pg_catalog.=) s.pricing
            AND coalesce(p.region, '') OPERATOR(pg_catalog.=) coalesce(s.region, '')
            AND coalesce(p.instance_type, '') OPERATOR(pg_catalog.=) coalesce(s.instance_type, '')
            AND p.observed_at OPERATOR(pg_catalog.<=) $4
          ORDER BY p.observed_at DESC
          LIMIT 1) o
   WHERE s.sku OPERATOR(pg_catalog.=) $1
     AND s.provider OPERATOR(pg_catalog.=) $2
     AND s.pricing OPERATOR(pg_catalog.=) $3
     AND ($5 IS NULL OR s.region OPERATOR(pg_catalog.=) $5)
     AND o.usd_per_gpu_hour IS NOT NULL
$$;
CREATE FUNCTION pg_temp.old_cheapest_offers(spec llm_econ.run_spec, at timestamptz DEFAULT pg_catalog.now(),
                                         pricing text DEFAULT NULL)
RETURNS TABLE (provider text, region text, pricing text, usd_per_gpu_hour numeric,
               observed_at timestamptz, wall_time interval, cost_usd numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT o.provider, o.region, o.pricing, o.usd_per_gpu_hour, o.observed_at,
         llm_econ.mfu_time($1), llm_econ.estimate_cost($1, o.usd_per_gpu_hour)
    FROM (SELECT DISTINCT ON (l.provider, l.region, l.pricing) l.*
            FROM (SELECT DISTINCT ps.provider, ps.pricing FROM llm_econ.price_series ps
                   WHERE ps.sku OPERATOR(pg_catalog.=) ($1).sku
                     AND (llm_econ._check_pricing($3) IS NULL OR ps.pricing OPERATOR(pg_catalog.=) $3)) AS pp
           CROSS JOIN LATERAL pg_temp.old_latest_prices(($1).sku, pp.provider, pp.pricing, $2, NULL) AS l
           ORDER BY l.provider, l.region, l.pricing, l.usd_per_gpu_hour) AS o
   ORDER BY 7, 1, 2, 3
$$;
SELECT pg_temp.bench('cheapest_offers, 0.2.0 definition (1,000 series)', format($$SELECT count(*) FROM pg_temp.old_cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100'), %L)$$, :'mid'), 1, :reps);
SELECT pg_temp.bench('cheapest_offers (1,000 series)', format($$SELECT count(*) FROM llm_econ.cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100'), %L)$$, :'mid'), 1, :reps,
                     'cheapest_offers, 0.2.0 definition (1,000 series)');
SELECT pg_temp.bench('cheapest_offers, max_age 30 days (1,000 series)', format($$SELECT count(*) FROM llm_econ.cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100'), %L, max_age => '30 days')$$, :'mid'), 1, :reps,
                     'cheapest_offers, 0.2.0 definition (1,000 series)');
SELECT pg_temp.bench('price_twap over a week, one region', format($$SELECT llm_econ.price_twap('H100-SXM5', 'p3', 'spot', tstzrange(%L, %L), 'r4')$$, :'mid', :'mid_week'), 1, :reps);

\echo == import_skypilot_catalog of a 30,000-row catalog vs COPY of the same rows into a plain table
-- AWS-shaped: 500 instance types x 20 regions x 3 zones, on-demand and spot prices
CREATE TEMP TABLE catalog_rows AS
SELECT 'g5.' || i || 'xlarge' AS instance_type, 'A10G' AS accelerator, '1.0' AS count, '4.0' AS vcpus, '16.0' AS mem,
       round((1 + i / 1000.0 + z / 100.0)::numeric, 4)::text AS price, round((0.4 + i / 2000.0 + z / 50.0)::numeric, 4)::text AS spot,
       'region-' || r AS region, 'region-' || r || '-az' || z AS zone
  FROM generate_series(1, 500) AS i, generate_series(1, 20) AS r, generate_series(1, 3) AS z;
INSERT INTO gpu_sku_alias (alias, sku, gpus_per_instance, source)
SELECT DISTINCT instance_type, 'A10G', 1, 'benchmark' FROM catalog_rows
    ON CONFLICT DO NOTHING;
SELECT 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone' || E'\n' ||
       string_agg(concat_ws(',', instance_type, accelerator, count, vcpus, mem, price, spot, region, zone), E'\n') AS csv
  FROM catalog_rows \gset
CREATE TEMP TABLE copy_target (instance_type text, accelerator text, count text, vcpus text, mem text, price text,
                               spot text, region text, zone text);
COPY (SELECT * FROM catalog_rows) TO '/tmp/llm_econ_bench_catalog.csv' (FORMAT csv, HEADER);
SELECT pg_temp.bench('COPY 30,000 rows into a plain table', $$TRUNCATE pg_temp.copy_target; COPY pg_temp.copy_target FROM '/tmp/llm_econ_bench_catalog.csv' (FORMAT csv, HEADER)$$, 1, :reps);
-- a first import each time: the k-th run imports the catalog as the k-th SkyPilot cloud
CREATE TEMP SEQUENCE cloud_no;
SELECT pg_temp.bench('import_skypilot_catalog, 30,000 rows (first import)', format($$SELECT llm_econ.import_skypilot_catalog((llm_econ._skypilot_clouds())[nextval('pg_temp.cloud_no')], %L, '2026-01-01')$$, :'csv'), 1, least(:reps, 16), 'COPY 30,000 rows into a plain table');
SELECT llm_econ.import_skypilot_catalog('aws', :'csv', '2026-01-01') IS NOT NULL AS aws_imported;
SELECT pg_temp.bench('import_skypilot_catalog, same snapshot again (no change)', format($$SELECT llm_econ.import_skypilot_catalog('aws', %L, '2026-01-01')$$, :'csv'), 1, :reps, 'COPY 30,000 rows into a plain table');

\echo == results (history of :history_rows rows)
SELECT n, label, units AS calls, round(median_ms::numeric, 2) AS median_ms,
       round(per_unit_ms::numeric, 4) AS per_call_ms, ratio, vs
  FROM report
 ORDER BY n;
