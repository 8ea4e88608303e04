-- import_skypilot_catalog on the two real published catalogs and on fixtures for the edge cases.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql
-- catalogs as text (psql reads the files; the server needs no file access)
\set lambda `cat test/data/skypilot/lambda_2023-06-15.csv`
\set runpod `cat test/data/skypilot/runpod_2024-01-08.csv`
\set gcp `cat test/data/skypilot/gcp_two_zones.csv`
\set aws `cat test/data/skypilot/aws_zones.csv`
CREATE TEMP TABLE catalog (name text PRIMARY KEY, body text);
INSERT INTO catalog VALUES ('lambda', :'lambda'), ('runpod', :'runpod'), ('gcp', :'gcp'), ('aws', :'aws');
SELECT name, length(body) > 1000 AS loaded FROM catalog ORDER BY name;

-- Lambda, 2023-06-15: one snapshot; V100/A10/A6000/RTX6000/A100/H100 all map through aliases.
SELECT * FROM import_skypilot_catalog('lambda', (SELECT body FROM catalog WHERE name = 'lambda'), '2023-06-15 00:00+00');
-- per instance price / GPUs; PCIe and SXM parts told apart by the instance type
SELECT instance_type, sku, gpus_per_instance, count(*) AS regions, min(usd_per_gpu_hour) AS usd_per_gpu_hour
  FROM price_snapshot WHERE provider = 'lambda' AND source LIKE 'SkyPilot%'
 GROUP BY 1, 2, 3 ORDER BY 1;
-- Re-importing the same snapshot inserts nothing.
SELECT * FROM import_skypilot_catalog('lambda', (SELECT body FROM catalog WHERE name = 'lambda'), '2023-06-15 00:00+00');
-- A later snapshot: the H100 PCIe price rose in every region and the V100 machines are gone:
-- only changed series get a row; series no longer listed are withdrawn.
SELECT * FROM import_skypilot_catalog('lambda',
         regexp_replace(replace((SELECT body FROM catalog WHERE name = 'lambda'),
                                'gpu_1x_h100_pcie,H100,1.0,26.0,200.0,1.99', 'gpu_1x_h100_pcie,H100,1.0,26.0,200.0,2.49'),
                        '^gpu_8x_v100,[^\n]*\n', '', 'gn'),
         '2023-09-01 00:00+00');
SELECT observed_at::date, instance_type, region, usd_per_gpu_hour
  FROM price_snapshot WHERE provider = 'lambda' AND instance_type IN ('gpu_1x_h100_pcie', 'gpu_8x_v100')
   AND region = 'us-east-1' ORDER BY 2, 1;
SELECT price_at('H100-PCIe', 'lambda', 'on_demand', '2023-07-01', 'us-east-1') AS before_change,
       price_at('H100-PCIe', 'lambda', 'on_demand', '2023-09-02', 'us-east-1') AS after_change,
       price_at('V100', 'lambda', 'on_demand', '2023-07-01') AS v100_before,
       price_at('V100', 'lambda', 'on_demand', '2023-09-02') AS v100_after;
-- importing an older snapshot later is fine: the history is kept in time order
SELECT * FROM import_skypilot_catalog('lambda', (SELECT body FROM catalog WHERE name = 'lambda'), '2023-06-15 00:00+00');

-- RunPod, 2024-01-08: SpotPrice before Price; "1x_H100_SECURE" is the PCIe part (alias of the
-- instance type), "A100-80GB-SXM" the SXM one; names no alias knows are counted as skipped.
SELECT * FROM import_skypilot_catalog('RunPod', (SELECT body FROM catalog WHERE name = 'runpod'), '2024-01-08 00:00+00');
SELECT sku, pricing, count(DISTINCT instance_type) AS instance_types, min(usd_per_gpu_hour), max(usd_per_gpu_hour)
  FROM price_snapshot WHERE provider = 'runpod' AND source LIKE 'SkyPilot%'
 GROUP BY 1, 2 ORDER BY 1, 2;

-- GCP: a machine row plus its accelerator row in the same zone make the price; the cheapest
-- zone of the region wins; spot pairs with spot.
SELECT * FROM import_skypilot_catalog('gcp', (SELECT body FROM catalog WHERE name = 'gcp'), '2025-11-01 00:00+00');
SELECT instance_type, sku, pricing, usd_per_gpu_hour
  FROM price_snapshot WHERE provider = 'gcp' AND source LIKE 'SkyPilot%' AND usd_per_gpu_hour IS NOT NULL
 ORDER BY 1, 3;
-- By hand from the file: a2-highgpu-1g in us-central1 = host + A100 in the same zone;
-- on demand both zones 0.73948 + 2.93391; spot zone a 0.29576 + 1.1736, zone b 0.29576 + 1.0628
-- (cheaper); a2-highgpu-8g spot = (2.36604 + 8.5024) / 8 in its cheapest zone.
SELECT (SELECT usd_per_gpu_hour FROM price_snapshot WHERE provider = 'gcp' AND instance_type = 'a2-highgpu-1g'
           AND pricing = 'on_demand' AND source LIKE 'SkyPilot%') = 0.73948 + 2.93391 AS a2_1g_on_demand,
       (SELECT usd_per_gpu_hour FROM price_snapshot WHERE provider = 'gcp' AND instance_type = 'a2-highgpu-1g'
           AND pricing = 'spot' AND source LIKE 'SkyPilot%') = least(0.29576 + 1.1736, 0.29576 + 1.0628) AS a2_1g_spot,
       (SELECT usd_per_gpu_hour FROM price_snapshot WHERE provider = 'gcp' AND instance_type = 'a2-highgpu-8g'
           AND pricing = 'spot' AND source LIKE 'SkyPilot%') = round((2.36604 + 8.5024) / 8, 10) AS a2_8g_spot;

-- AWS-shaped: one row per availability zone, the cheapest kept; p5.48xlarge is 8 H100 SXM.
-- By hand: p5.48xlarge spot in us-east-1 is 39.2264 (use1-az4) or 35.5123 (use1-az6) per
-- instance: 35.5123 / 8 = 4.4390375; us-west-2 lists no spot price (no offer).
SELECT * FROM import_skypilot_catalog('aws', (SELECT body FROM catalog WHERE name = 'aws'), '2025-11-01 00:00+00');
SELECT instance_type, sku, region, pricing, usd_per_gpu_hour
  FROM price_snapshot WHERE provider = 'aws' ORDER BY 1, 3, 4;
SELECT price_at('p5.48xlarge', 'aws', 'spot', '2025-11-02', 'us-east-1') = least(39.2264, 35.5123) / 8 AS p5_spot_cheapest_az,
       price_at('H100', 'aws', 'spot', '2025-11-02', 'us-west-2') IS NULL AS no_spot_in_us_west_2;

-- Bad input: a clear error, the line and the column in its CONTEXT; nothing stored is touched.
SELECT count(*) AS rows_before FROM price_snapshot \gset
\set bad `cat test/data/skypilot/unclosed_quote.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
\set bad `cat test/data/skypilot/no_price_column.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
\set bad `cat test/data/skypilot/bad_price.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
\set bad `cat test/data/skypilot/negative_price.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
\set bad `cat test/data/skypilot/nan_price.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
\set bad `cat test/data/skypilot/field_count.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
\set bad `cat test/data/skypilot/bad_count.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'bad', '2025-01-01')) AS error;
-- a price that is 0 per GPU at 10 decimals (it failed on price_snapshot's check, 23514, naming no line)
SELECT pg_temp.error_report($$SELECT * FROM import_skypilot_catalog('lambda',
  E'InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\ngpu_8x_h100,H100,8,0.00000000001,,us-east-1', '2025-01-01')$$) AS error;
SELECT * FROM import_skypilot_catalog('lambda', '', '2025-01-01');
SELECT * FROM import_skypilot_catalog('nimbus', (SELECT body FROM catalog WHERE name = 'lambda'), '2025-01-01');
SELECT * FROM import_skypilot_catalog('lambda', (SELECT body FROM catalog WHERE name = 'lambda'), 'infinity');
SELECT * FROM import_skypilot_catalog(NULL, (SELECT body FROM catalog WHERE name = 'lambda'), '2025-01-01');
-- (the message carries the instant; it is masked here)
CREATE FUNCTION pg_temp.error_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.+]+', '<time>');
END $$;
SELECT pg_temp.error_of($$SELECT * FROM llm_econ.import_skypilot_catalog('lambda', 'InstanceType,AcceleratorName,AcceleratorCount,Price,Region', now() + interval '2 days')$$);
-- a valid catalog whose price clashes with a stored observation at the same instant
SELECT * FROM import_skypilot_catalog('lambda',
         replace((SELECT body FROM catalog WHERE name = 'lambda'), 'gpu_1x_a10,A10,1.0,30.0,200.0,0.6', 'gpu_1x_a10,A10,1.0,30.0,200.0,0.7'),
         '2023-06-15 00:00+00');
SELECT count(*) AS rows_after_errors FROM price_snapshot HAVING count(*) = :rows_before;

-- Leave the database as the other tests expect it.
DELETE FROM price_snapshot WHERE source LIKE 'SkyPilot%';
DELETE FROM price_import WHERE source LIKE 'SkyPilot%';
DELETE FROM price_series s WHERE NOT EXISTS (
  SELECT 1 FROM price_snapshot p WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
     AND p.region IS NOT DISTINCT FROM s.region AND p.instance_type IS NOT DISTINCT FROM s.instance_type);
