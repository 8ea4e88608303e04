-- Price history: bulk loads through the staging table, change points and withdrawals, TWAP,
-- cheapest offers and the dashboard views.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never

-- price_series lists every series of price_snapshot (kept by trigger).
SELECT (SELECT count(*) FROM price_series) AS series,
       (SELECT count(*) FROM (SELECT DISTINCT sku, provider, pricing, region, instance_type FROM price_snapshot) s) AS distinct_in_snapshot;

-- A small long-format history, as \copy would stage it (same columns as the shipped GCP file).
-- machine m-1g (1 GPU): 2.00 from Jan 1, 2.00 again on Jan 10 (no change), 3.00 on Feb 1,
-- a gap Feb 20 .. Mar 1 (withdrawn), back at 3.00 on Mar 1 until the end of coverage (Apr 1).
-- machine m-8g (8 GPUs): listed Jan 1 .. Feb 15 only, spot from Jan 5.
CREATE TEMP TABLE h (observed_at text, valid_to text, cloud text, region text, instance_type text,
                     accelerator text, accelerator_count text, od text, spot text, od_gpu text, spot_gpu text);
INSERT INTO h VALUES
  ('2025-01-01T00:00:00Z', '2025-01-10T00:00:00Z', 'testcloud', 'r1', 'm-1g', 'H100', '1',   '2.00', '',  '', ''),
  ('2025-01-10T00:00:00Z', '2025-02-01T00:00:00Z', 'testcloud', 'r1', 'm-1g', 'H100', '1',   '2.0',  '',  '', ''),
  ('2025-02-01T00:00:00Z', '2025-02-20T00:00:00Z', 'testcloud', 'r1', 'm-1g', 'H100', '1',   '3.00', '',  '', ''),
  ('2025-03-01T00:00:00Z', '2025-04-01T00:00:00Z', 'testcloud', 'r1', 'm-1g', 'H100', '1',   '3.00', '',  '', ''),
  ('2025-01-01T00:00:00Z', '2025-01-05T00:00:00Z', 'testcloud', 'r1', 'm-8g', 'H100', '8.0', '12.00', '', '', ''),
  ('2025-01-05T00:00:00Z', '2025-02-15T00:00:00Z', 'testcloud', 'r1', 'm-8g', 'H100', '8.0', '12.00', '6.00', '1.5', '0.75');
INSERT INTO price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
       price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour)
SELECT * FROM h;
SELECT * FROM load_price_history(source => 'test history');
SELECT count(*) AS staging_left FROM price_history_staging;
SELECT observed_at, instance_type, pricing, usd_per_gpu_hour, gpus_per_instance
  FROM price_snapshot WHERE provider = 'testcloud' ORDER BY instance_type, pricing, observed_at;
-- Loading the same history again stores nothing new.
INSERT INTO price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
       price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour)
SELECT * FROM h;
SELECT * FROM load_price_history(source => 'test history');

-- As of any instant: the cheapest series in effect; nothing during the gap but the 8g (gone
-- Feb 15); withdrawn after the end.
SELECT t, price_at('H100', 'testcloud', 'on_demand', t) AS on_demand, price_at('H100', 'testcloud', 'spot', t) AS spot
  FROM unnest(ARRAY['2024-12-31', '2025-01-01', '2025-01-06', '2025-02-10', '2025-02-16', '2025-02-25',
                    '2025-03-05', '2025-05-01']::timestamptz[]) AS t
 ORDER BY t;

-- TWAP, "what did it cost us last month" when the price moved mid-month.
-- January: 1.5 (the 8g, cheaper) all month -> 1.5.  February: 1.5 to the 15th (14 days), then
-- the 1g's 3.00 to the 20th (5 days), then nothing: (14 x 1.5 + 5 x 3) / 19 = 1.894737 (time
-- with no price is left out).  Whole quarter, cheapest series:
SELECT price_twap('H100', 'testcloud', 'on_demand', '[2025-01-01, 2025-02-01)') AS jan,
       price_twap('H100', 'testcloud', 'on_demand', '[2025-02-01, 2025-03-01)') AS feb,
       price_twap('H100', 'testcloud', 'spot', '[2025-01-01, 2025-02-01)') AS jan_spot,
       round(price_twap('H100', 'testcloud', 'on_demand', '[2025-01-01, 2025-04-01)'), 6) AS q1;
-- hand check of q1: Jan 1-31 1.5 (31 d), Feb 1-15 1.5 (14 d), Feb 15-20 3.00 (5 d), gap (9 d), Mar 3.00 (31 d)
SELECT round((31 * 1.5 + 14 * 1.5 + 5 * 3.00 + 31 * 3.00) / (31 + 14 + 5 + 31), 6) AS q1_by_hand;
-- a price change at mid-month: 2.00 for 15 days then 3.00 for 16 days of March = 2.516129
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source) VALUES
  ('2024-12-01', 'midmonth', 'H100-SXM5', 'on_demand', 2.00, 'test'),
  ('2025-03-16', 'midmonth', 'H100-SXM5', 'on_demand', 3.00, 'test');
SELECT round(price_twap('H100-SXM5', 'midmonth', 'on_demand', '[2025-03-01, 2025-04-01)'), 6) AS march,
       round((15 * 2.00 + 16 * 3.00) / 31, 6) AS by_hand,
       price_twap('H100-SXM5', 'midmonth', 'on_demand', '[2024-01-01, 2024-02-01)') AS before_anything;
ROLLBACK;
SELECT price_twap('H100', 'testcloud', 'on_demand', '[2025-01-01,)');
SELECT price_twap('H100', 'testcloud', 'on_demand', 'empty');
SELECT price_twap('H100', 'testcloud', 'spotty', '[2025-01-01, 2025-02-01)');
SELECT price_twap('H999', 'testcloud', 'spot', '[2025-01-01, 2025-02-01)');

-- Cheapest offers for a run: every (provider, region, pricing) in effect, cheapest first.
SELECT provider, region, pricing, usd_per_gpu_hour, observed_at, wall_time, round(cost_usd) AS cost_usd
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), '2025-01-20') LIMIT 8;
SELECT count(*) AS offers, count(DISTINCT provider) AS providers,
       bool_and(cost_usd = estimate_cost(run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), usd_per_gpu_hour)) AS costs_agree,
       bool_and(usd_per_gpu_hour = price_at('H100', provider, pricing, '2025-01-20', region)) AS prices_agree
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), '2025-01-20') WHERE region IS NOT NULL;
SELECT provider, pricing, usd_per_gpu_hour
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), '2025-01-20', 'spot') LIMIT 3;
SELECT count(*) AS offers_before_any_price
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), '2020-01-01');
SELECT * FROM cheapest_offers(run_spec(7e9, 1.4e12, 256, 'H100'), '2025-01-20', 'cheap');

-- Dashboard views.
SELECT "time", sku, provider, region, pricing, usd_per_gpu_hour
  FROM price_history WHERE provider = 'testcloud' AND pricing = 'spot' ORDER BY "time";
SELECT "time", sku, pricing, min_usd_per_gpu_hour, avg_usd_per_gpu_hour, max_usd_per_gpu_hour, providers, provider_list
  FROM price_daily WHERE sku = 'H100-SXM5' AND "time" IN ('2025-01-09', '2025-02-16') ORDER BY 1, 3;
-- no arrays, a "time" column, security_invoker
SELECT c.relname, c.reloptions, bool_or(a.attname = 'time') AS has_time, bool_or(t.typcategory = 'A') AS has_array
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
  JOIN pg_type t ON t.oid = a.atttypid
 WHERE c.relnamespace = 'llm_econ'::regnamespace AND c.relkind = 'v'
 GROUP BY c.relname, c.reloptions ORDER BY 1;

-- Bad staged lines: a clear error naming the line; nothing is stored and the staging rows stay.
CREATE FUNCTION pg_temp.stage(VARIADIC v text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator,
         accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour,
         price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour)
  VALUES (v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]) $$;
SELECT count(*) AS snapshot_rows_before FROM price_snapshot \gset
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-1g', 'H100', '1', '2.5', '', '', ''),
       pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-2g', 'H100', '2', 'abc', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-2g', 'H100', '2', '-2.5', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-06-01', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-2g', 'H100', '2', '2.5', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-02-30T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-2g', 'H100', '2', '2.5', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-07-01T00:00:00Z', '2025-06-01T00:00:00Z', 'testcloud', 'r2', 'm-2g', 'H100', '2', '2.5', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-2g', 'H100', 'two', '2.5', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'Test Cloud', 'r2', 'm-2g', 'H100', '2', '2.5', '', '', '');
SELECT * FROM load_price_history();
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
-- the machine type decides the GPU: an a2-ultragpu machine labelled A100 (40 GB) contradicts it
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'a2-ultragpu-1g', 'A100', '1', '4.03', '', '', '');
SELECT * FROM load_price_history();
SELECT count(*) AS snapshot_rows_unchanged FROM price_snapshot HAVING count(*) = :snapshot_rows_before;
SELECT count(*) AS staged_still FROM price_history_staging;
SELECT * FROM load_price_history(on_mismatch => 'maybe');
DELETE FROM price_history_staging WHERE instance_type = 'a2-ultragpu-1g';
SELECT pg_temp.stage(to_char(now() + interval '3 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                     to_char(now() + interval '9 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                     'testcloud', 'r2', 'm-2g', 'H100', '2', '2.5', '', '', '');
-- (the message carries the instant; it is masked here)
CREATE FUNCTION pg_temp.error_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.+]+', '<time>');
END $$;
SELECT pg_temp.error_of('SELECT * FROM llm_econ.load_price_history()');
DELETE FROM price_history_staging WHERE instance_type = 'm-2g';
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'a2-ultragpu-1g', 'A100', '1', '4.03', '', '', '');
-- skipping mismatches and unknown accelerators: counted, with a NOTICE, the rest stored
SELECT pg_temp.stage('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', 'testcloud', 'r2', 'm-9g', 'TPUv9', '1', '9', '', '', '');
SELECT * FROM load_price_history(source => 'test history', on_mismatch => 'skip');
SELECT price_at('H100', 'testcloud', 'on_demand', '2025-06-02', 'r2') AS r2_price;

-- The documented path: \copy a CSV file into the staging table; a bad line names its file line.
\copy price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour) FROM 'test/data/history/bad_line.csv' CSV HEADER
SELECT * FROM load_price_history(source => 'bad file');
DELETE FROM price_history_staging;
\copy price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour) FROM 'test/data/history/good.csv' CSV HEADER
SELECT * FROM load_price_history(source => 'test/data/history/good.csv');
SELECT price_at('L4', 'testcloud', 'spot', '2025-09-15', 'r9') AS l4_spot_mid_september;

-- The views are queryable by a read-only role (PUBLIC may read prices; it may not write them).
CREATE ROLE regress_llm_econ_reader LOGIN;
SET ROLE regress_llm_econ_reader;
SELECT count(*) > 0 AS reads_history FROM llm_econ.price_history WHERE provider = 'testcloud';
SELECT count(*) > 0 AS reads_daily FROM llm_econ.price_daily WHERE sku = 'L4';
SELECT llm_econ.price_at('L4', 'testcloud', 'spot', '2025-09-15', 'r9') AS reads_prices;
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-01-01', 'testcloud', 'L4', 'spot', 1, 'not allowed');
SELECT * FROM llm_econ.load_price_history();
RESET ROLE;
DROP ROLE regress_llm_econ_reader;

-- Leave the shared test database as it was for the other tests.
DELETE FROM price_snapshot WHERE provider = 'testcloud';
DELETE FROM price_series WHERE provider = 'testcloud';
DELETE FROM price_history_staging;
