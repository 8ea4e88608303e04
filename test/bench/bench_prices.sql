-- bench_prices.sql: as-of lookups, TWAP and cheapest offers on an :rows-row price history, and a catalog import vs COPY.
\if :{?rows}
\else
\set rows 1000000
\endif
\ir harness.sql

\echo == a synthetic history of :rows observations: 10 providers x 10 regions x 5 machine types x 2 pricings = 1,000 series
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, source)
SELECT timestamptz '2020-01-01' + (h * interval '1 hour'), 'p' || (s % 10), 'H100-SXM5', 'r' || (s / 10 % 10),
       CASE WHEN s / 100 % 2 = 0 THEN 'on_demand' ELSE 'spot' END,
       round((2 + (h % 97) / 100.0 + (s % 50) / 50.0)::numeric, 4), 'type' || (s / 200), 'synthetic'
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
SELECT pg_temp.bench('cheapest_offers (1,000 series)', format($$SELECT count(*) FROM llm_econ.cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100'), %L)$$, :'mid'), 1, :reps);
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
