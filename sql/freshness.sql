-- Freshness from the last sighting (issue 31): max_age and age count from price_snapshot.last_seen_at, the latest catalog or history line that listed a price unchanged.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
SET client_min_messages = warning;
\set SHOW_CONTEXT never

-- Fixtures in SkyPilot's AWS and Lambda formats.  AWS: p4de.24xlarge (8x A100 80GB) in two
-- regions and p5.48xlarge (8x H100) in one; Lambda: an 8x A100 80GB machine in two regions.
CREATE FUNCTION pg_temp.aws(p4de_east numeric, p5 boolean DEFAULT true) RETURNS text LANGUAGE sql AS $$
  SELECT 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone' || E'\n'
      || 'p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,,' || p4de_east || ',12.2898,us-east-1,use1-az1' || E'\n'
      || 'p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,,40.96608,13.1072,us-west-2,usw2-az1' || E'\n'
      || CASE WHEN p5 THEN 'p5.48xlarge,H100,8.0,192.0,2048.0,,98.32,31.4624,us-east-1,use1-az1' || E'\n' ELSE '' END
$$;
CREATE FUNCTION pg_temp.lambda() RETURNS text LANGUAGE sql AS $$
  SELECT 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice' || E'\n'
      || 'gpu_8x_a100_80gb_sxm4,A100-80GB,8.0,240.0,1800.0,14.32,us-east-1,,' || E'\n'
      || 'gpu_8x_a100_80gb_sxm4,A100-80GB,8.0,240.0,1800.0,14.32,us-west-1,,' || E'\n'
$$;

BEGIN;
-- Weekly catalogs, 2024-01-02 to 2024-04-23 (16 Tuesdays), every one listing the same prices,
-- except that the p5 is gone from 2024-04-02 on (a withdrawn offer) and the us-east-1 p4de's
-- on-demand price changes on 2024-03-05 (re-listed, then changed).
DO $$
DECLARE d date;
BEGIN
  FOR d IN SELECT g::date FROM generate_series('2024-01-02'::date, '2024-04-23'::date, '7 days') AS g LOOP
    PERFORM llm_econ.import_skypilot_catalog('aws', pg_temp.aws(CASE WHEN d < '2024-03-05' THEN 40.96608 ELSE 36.0 END,
                                                                d < '2024-04-02'), d::timestamptz);
    PERFORM llm_econ.import_skypilot_catalog('lambda', pg_temp.lambda(), d::timestamptz);
  END LOOP;
END $$;

-- Only change points are stored; each says when it was last seen.  us-east-1 on demand: the
-- first price was last listed 2024-02-27 (the week before the change), the second 2024-04-23.
-- us-west-2: one row, seen every week to 2024-04-23.  The p5: last seen 2024-03-26, withdrawn
-- 2024-04-02 (a withdrawal has no last_seen_at).
SELECT instance_type, region, pricing, observed_at::date, usd_per_gpu_hour, last_seen_at::date
  FROM price_snapshot WHERE provider = 'aws' AND source_kind = 'catalog'
 ORDER BY instance_type, region, pricing, observed_at;
SELECT instance_type, region, pricing, observed_at::date, usd_per_gpu_hour, last_seen_at::date
  FROM price_snapshot WHERE provider = 'lambda' AND source_kind = 'catalog' AND instance_type = 'gpu_8x_a100_80gb_sxm4'
 ORDER BY instance_type, region, pricing, observed_at;

-- The issue's case: on 2024-05-31 AWS had listed the A100 80GB 38 days earlier (2024-04-23),
-- so a 45-day bound finds it (0.3.0: NULL, its last change was 2024-01-02, 150 days before).
-- us-west-2 40.96608 / 8 = 5.12076; us-east-1 36.0 / 8 = 4.5 (changed 2024-03-05): cheapest 4.5.
SELECT price_at('A100-80GB', 'aws', 'on_demand', '2024-05-31', max_age => '45 days') AS on_demand_45d,
       price_at('A100-80GB', 'aws', 'on_demand', '2024-05-31', 'us-west-2', max_age => '45 days') AS us_west_2_45d,
       price_at('A100-80GB', 'aws', 'spot', '2024-05-31', max_age => '45 days') AS spot_45d,             -- 12.2898 / 8
       price_at('A100-80GB', 'lambda', 'on_demand', '2024-05-31', 'us-east-1', max_age => '45 days') AS lambda_45d;  -- 14.32 / 8
-- The bound still bites, counted from the last sighting: 2024-04-23 + 45 days = 2024-06-07.
SELECT price_at('A100-80GB', 'aws', 'on_demand', '2024-06-07', max_age => '45 days') AS last_day_in,
       price_at('A100-80GB', 'aws', 'on_demand', '2024-06-07 00:00:01+00', max_age => '45 days') AS a_second_later,
       price_at('A100-80GB', 'aws', 'spot', '2024-06-10', max_age => '45 days') AS spot_later,
       price_at('A100-80GB', 'lambda', 'on_demand', '2024-06-10', 'us-east-1', max_age => '45 days') AS lambda_later;
-- max_age NULL: carried until withdrawn, however long ago it was seen; the withdrawn p5 is not.
SELECT price_at('A100-80GB', 'aws', 'on_demand', '2025-06-01') AS unbounded_2025,
       price_at('H100', 'aws', 'on_demand', '2024-03-30') AS p5_before_withdrawal,
       price_at('H100', 'aws', 'on_demand', '2024-04-03') AS p5_withdrawn,
       price_at('H100', 'aws', 'on_demand', '2024-04-03', max_age => '1000 days') AS p5_withdrawn_any_age;
-- A withdrawn offer's last sighting bounds it before the withdrawal too: seen last 2024-03-26, so
-- with 3 days it is unknown on 2024-03-30 (the next catalog, 2024-04-02, has not come yet).
SELECT price_at('H100', 'aws', 'on_demand', '2024-03-29', max_age => '3 days') AS three_days_after,
       price_at('H100', 'aws', 'on_demand', '2024-03-30', max_age => '3 days') AS four_days_after;
-- Re-listed, then changed: the first price (5.12076 in us-east-1) was seen last 2024-02-27;
-- on 2024-03-04, 6 days later, a 7-day bound finds it, a 5-day one does not.
SELECT price_at('A100-80GB', 'aws', 'on_demand', '2024-03-04', 'us-east-1', max_age => '7 days') AS old_price_7d,
       price_at('A100-80GB', 'aws', 'on_demand', '2024-03-04', 'us-east-1', max_age => '5 days') AS old_price_5d,
       price_at('A100-80GB', 'aws', 'on_demand', '2024-03-06', 'us-east-1', max_age => '5 days') AS new_price_5d;
-- estimate_cost takes the same bound: the lab run (50M params, 43B tokens, 1 GPU, MFU 0.4) at 4.5
SELECT round(estimate_cost(run_spec(5e7, 4.3e10, 1, 'A100-80GB', mfu => 0.40), 'aws', 'on_demand', '2024-05-31',
                           max_age => '45 days'), 2) AS cost_45d;     -- 28.7 h x 4.5 x 8 = 1033.65
-- (the run rents AWS's only A100 80GB machine, the 8-GPU p4de.24xlarge: 8 GPUs billed, issue 45)

-- cheapest_offers: age counts from the last sighting at or before "at" (2024-05-31 - 2024-04-23
-- = 38 days); an offer seen again after "at" has age 0.
SELECT provider, region, pricing, usd_per_gpu_hour, observed_at::date, age
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 16, 'A100-80GB'), '2024-05-31', max_age => '45 days',
                       source_kinds => ARRAY['catalog'])
 ORDER BY provider, region, pricing;
SELECT provider, region, pricing, usd_per_gpu_hour, age
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 16, 'A100-80GB'), '2024-04-01', source_kinds => ARRAY['catalog'])
 WHERE provider = 'aws' ORDER BY region, pricing;
-- cheapest_plan prices with the same offers (_plan_offers): on 2024-06-20 no AWS or Lambda
-- catalog offer is 45 days fresh any more (seen last 2024-04-23: 58 days).
SELECT count(*) FILTER (WHERE o.provider IN ('aws', 'lambda') AND o.observed_at < '2024-05-01') AS fresh_catalog_offers
  FROM llm_econ._plan_offers('2024-06-20', NULL, '45 days') o;
SELECT count(*) FILTER (WHERE o.provider IN ('aws', 'lambda') AND o.observed_at < '2024-05-01') AS fresh_catalog_offers
  FROM llm_econ._plan_offers('2024-05-31', NULL, '45 days') o;

-- price_twap: over May 2024, with 45 days, the offers count the whole month (seen 2024-04-23);
-- over June, us-west-2 counts until 2024-06-07 only: 6 of 30 days.
SELECT price_twap('A100-80GB', 'aws', 'on_demand', '[2024-05-01, 2024-06-01)', 'us-west-2', max_age => '45 days') AS may,
       price_twap('A100-80GB', 'aws', 'on_demand', '[2024-06-01, 2024-07-01)', 'us-west-2', max_age => '45 days') AS june,
       price_twap('A100-80GB', 'aws', 'on_demand', '[2024-06-08, 2024-07-01)', 'us-west-2', max_age => '45 days') AS after_june_7;

-- price_twap_coverage says how much of the window the average covers: May all of it; June 6
-- of 30 days (2024-06-01 to 06-07 00:00, the last sighting + 45 days) = 0.2; after 06-07 none.
SELECT 'may' AS w, * FROM price_twap_coverage('A100-80GB', 'aws', 'on_demand', '[2024-05-01, 2024-06-01)', 'us-west-2', max_age => '45 days')
UNION ALL
SELECT 'june', * FROM price_twap_coverage('A100-80GB', 'aws', 'on_demand', '[2024-06-01, 2024-07-01)', 'us-west-2', max_age => '45 days')
UNION ALL
SELECT 'after june 7', * FROM price_twap_coverage('A100-80GB', 'aws', 'on_demand', '[2024-06-08, 2024-07-01)', 'us-west-2', max_age => '45 days')
UNION ALL   -- the p5, withdrawn 2024-04-02: 1 of April's 30 days
SELECT 'p5 april', * FROM price_twap_coverage('H100', 'aws', 'on_demand', '[2024-04-01, 2024-05-01)');
-- the same average as price_twap, for old callers
SELECT price_twap('A100-80GB', 'aws', 'on_demand', '[2024-06-01, 2024-07-01)', 'us-west-2', max_age => '45 days')
       = (price_twap_coverage('A100-80GB', 'aws', 'on_demand', '[2024-06-01, 2024-07-01)', 'us-west-2', max_age => '45 days')).usd_per_gpu_hour AS same_average;

-- Backfill: importing an older catalog again never moves a sighting back.
SELECT (import_skypilot_catalog('aws', pg_temp.aws(40.96608), '2024-01-09')).inserted AS backfill_inserted;
SELECT region, observed_at::date, last_seen_at::date FROM price_snapshot
 WHERE provider = 'aws' AND instance_type = 'p4de.24xlarge' AND pricing = 'spot' ORDER BY region, observed_at;
-- A later catalog moves it forward, and changes no daily summary row (only a sighting moved).
CREATE TEMP TABLE summary_before AS SELECT * FROM price_daily_summary WHERE provider = 'aws';
SELECT (import_skypilot_catalog('aws', pg_temp.aws(36.0, false), '2024-04-30')).*;
SELECT region, observed_at::date, last_seen_at::date FROM price_snapshot
 WHERE provider = 'aws' AND instance_type = 'p4de.24xlarge' AND pricing = 'spot' ORDER BY region, observed_at;
SELECT (SELECT count(*) FROM (SELECT * FROM summary_before EXCEPT SELECT * FROM price_daily_summary WHERE provider = 'aws') x) AS summary_rows_changed,
       (SELECT count(*) FROM (SELECT * FROM price_daily_summary WHERE provider = 'aws' AND "time" < '2024-04-30'
                              EXCEPT SELECT * FROM summary_before) x) AS summary_rows_added_before_the_import;
-- The views show the sighting: price_history and price_series_spans.
SELECT "time"::date, region, usd_per_gpu_hour, last_seen_at::date FROM price_history
 WHERE provider = 'aws' AND instance_type = 'p4de.24xlarge' AND pricing = 'on_demand' ORDER BY region, "time";
SELECT region, valid_from::date, valid_to::date, usd_per_gpu_hour, last_seen_at::date FROM price_series_spans
 WHERE provider = 'aws' AND instance_type = 'p4de.24xlarge' AND pricing = 'on_demand' ORDER BY region, valid_from;

-- A history line's price held until its valid_to: that is its last sighting.  Two lines of one
-- machine with one price, then a changed price: the first row is seen until the second line's end.
INSERT INTO price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
                                   price_on_demand_usd_per_hour, spot_price_usd_per_hour)
VALUES ('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', 'testh', 'r1', 'a2-ultragpu-8g', 'A100-80GB', '8', '40', ''),
       ('2024-02-01T00:00:00Z', '2024-05-01T00:00:00Z', 'testh', 'r1', 'a2-ultragpu-8g', 'A100-80GB', '8', '40', ''),
       ('2024-05-01T00:00:00Z', '2024-06-01T00:00:00Z', 'testh', 'r1', 'a2-ultragpu-8g', 'A100-80GB', '8', '48', '');
SELECT * FROM load_price_history('freshness test history');
SELECT observed_at::date, usd_per_gpu_hour, last_seen_at::date, source_kind FROM price_snapshot
 WHERE provider = 'testh' ORDER BY observed_at;
SELECT price_at('A100-80GB', 'testh', 'on_demand', '2024-04-30', max_age => '1 day') AS held_to_valid_to,
       price_at('A100-80GB', 'testh', 'on_demand', '2024-06-15', max_age => '14 days') AS two_weeks_after_end,
       price_at('A100-80GB', 'testh', 'on_demand', '2024-06-20', max_age => '14 days') AS three_weeks_after_end;

-- Only the recorder moves a sighting: a direct call is refused (the superuser, who may execute
-- anything, by its check that the recorder runs; anyone else has no EXECUTE on it), and an
-- UPDATE needs the privilege a price writer does not have.
SELECT _mark_seen(ARRAY[1::int8], ARRAY['2024-01-01'::timestamptz], ARRAY['2030-01-01'::timestamptz]);
ROLLBACK;

-- A run's node size: the shipped seed lists Lambda's A100 80GB as a single-GPU machine (1.10
-- spot); a 32-GPU run spans machines and needs 8-GPU ones (A100-80GB's gpus_per_node), so with
-- its spec the offer is not counted (coverage 0), while a 1-GPU run counts it.  RunPod's seed
-- figure is of unknown size: kept, as cheapest_offers keeps it.
SELECT r.gpus, t.* FROM (VALUES (1), (8), (32)) AS r(gpus),
       LATERAL price_twap_coverage('A100-80GB', 'lambda', 'spot', '[2024-06-01, 2024-07-01)',
                                   spec => run_spec(7e9, 1.4e12, r.gpus, 'A100-80GB')) AS t ORDER BY 1;
SELECT (price_twap_coverage('A100-80GB', 'runpod', 'spot', '[2024-06-01, 2024-07-01)',
                            spec => run_spec(7e9, 1.4e12, 32, 'A100-80GB'))).*;
-- The seed is dated 2024-06-01: of [2024-05-16, 2024-06-16) it covers 15 of 31 days.  And the
-- README's monthly query: no single-GPU Lambda row for the 32-GPU run (vast.ai spot 0.40 first).
SELECT round(coverage, 6) = round(15 / 31.0, 6) AS coverage_15_of_31
  FROM price_twap_coverage('A100-80GB', 'lambda', 'spot', '[2024-05-16, 2024-06-16)');
WITH run AS (SELECT run_spec(7e9, 1.4e12, 32, 'A100-80GB', mfu => 0.45) AS s),
     offers AS MATERIALIZED (SELECT DISTINCT provider, pricing FROM price_series WHERE sku = 'A100-80GB')
SELECT o.provider, o.pricing, round(t.usd_per_gpu_hour, 4) AS avg_usd_per_gpu_hour, round(t.coverage, 2) AS coverage,
       round(estimate_cost(run.s, t.usd_per_gpu_hour)) AS cost_usd
  FROM run, offers AS o,
       LATERAL price_twap_coverage('A100-80GB', o.provider, o.pricing, '[2024-06-01, 2024-07-01)', spec => run.s) AS t
 WHERE t.usd_per_gpu_hour IS NOT NULL
 ORDER BY cost_usd;
-- spec must be a run on the SKU asked about
SELECT * FROM price_twap_coverage('A100-80GB', 'lambda', 'spot', '[2024-06-01, 2024-07-01)', spec => run_spec(7e9, 1.4e12, 32, 'H100'));

CREATE ROLE regress_fresh_writer;
GRANT INSERT ON price_snapshot TO regress_fresh_writer;
GRANT USAGE ON SEQUENCE price_snapshot_id_seq TO regress_fresh_writer;
SET ROLE regress_fresh_writer;
SELECT _mark_seen(ARRAY[1::int8], ARRAY['2024-01-01'::timestamptz], ARRAY['2030-01-01'::timestamptz]);
UPDATE price_snapshot SET last_seen_at = '2030-01-01' WHERE id = 1;
-- through the importer, a writer with INSERT alone moves its sightings
BEGIN;
SELECT (import_skypilot_catalog('lambda', pg_temp.lambda(), '2024-01-02')).inserted;
SELECT (import_skypilot_catalog('lambda', pg_temp.lambda(), '2024-01-16')).unchanged;
SELECT DISTINCT last_seen_at::date FROM price_snapshot WHERE instance_type = 'gpu_8x_a100_80gb_sxm4' AND source_kind = 'catalog';
ROLLBACK;
RESET ROLE;
-- A user's own trigger on price_snapshot fires when an import moves sightings (0.4.0 ran
-- _mark_seen with session_replication_role = replica, which silenced it), and the extension's
-- own UPDATE triggers still leave the daily summary and the series as they were.
BEGIN;
CREATE TABLE public.regress_seen_log (observed_at timestamptz, last_seen_before timestamptz, last_seen_after timestamptz, same_price boolean);
CREATE FUNCTION public.regress_seen_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.regress_seen_log VALUES (NEW.observed_at, OLD.last_seen_at, NEW.last_seen_at, OLD.usd_per_gpu_hour = NEW.usd_per_gpu_hour);
  RETURN NULL;
END $$;
CREATE TRIGGER regress_user_trigger AFTER UPDATE ON llm_econ.price_snapshot
    FOR EACH ROW EXECUTE FUNCTION public.regress_seen_log();
SELECT (import_skypilot_catalog('lambda', pg_temp.lambda(), '2024-01-02')).inserted;
CREATE TEMP TABLE seen_summary AS SELECT * FROM price_daily_summary WHERE provider = 'lambda';
CREATE TEMP TABLE seen_series AS SELECT * FROM price_series WHERE provider = 'lambda';
SELECT (import_skypilot_catalog('lambda', pg_temp.lambda(), '2024-01-16')).unchanged;
SELECT observed_at::date, last_seen_before::date, last_seen_after::date, same_price FROM public.regress_seen_log ORDER BY 1, 3;
SELECT (SELECT count(*) FROM (SELECT * FROM seen_summary EXCEPT SELECT * FROM price_daily_summary WHERE provider = 'lambda') x)
     + (SELECT count(*) FROM (SELECT * FROM price_daily_summary WHERE provider = 'lambda' EXCEPT SELECT * FROM seen_summary) x) AS summary_rows_changed,
       (SELECT count(*) FROM (SELECT * FROM seen_series EXCEPT SELECT * FROM price_series WHERE provider = 'lambda') x)
     + (SELECT count(*) FROM (SELECT * FROM price_series WHERE provider = 'lambda' EXCEPT SELECT * FROM seen_series) x) AS series_rows_changed;
-- nothing in SQL can switch the extension's triggers off: the flag is the recorder's alone
SELECT llm_econ._marking_seen() AS marking_seen_outside_the_recorder;
ROLLBACK;
REVOKE ALL ON price_snapshot, price_snapshot_id_seq FROM regress_fresh_writer;
DROP ROLE regress_fresh_writer;

-- The Grafana "cheapest provider last month" query (docs/views.md) for June 2026, on the shipped
-- history: GCP's prices, re-confirmed by the history until 2026-08-20, count on both pricings for
-- the whole month (0.3.0: only gcp spot, whose price had last changed within 45 days); the 2024
-- seed figures (lambda, coreweave) are 2 years old and count not at all.
WITH run AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45) AS s),
     m AS (SELECT tstzrange('2026-06-01', '2026-07-01') AS r),
     offers AS MATERIALIZED (SELECT DISTINCT provider, pricing FROM llm_econ.price_series WHERE sku = 'H100-SXM5')
SELECT o.provider, o.pricing, round(t.usd_per_gpu_hour, 4) AS avg_usd_per_gpu_hour, t.coverage
  FROM run, m, offers o,
       LATERAL llm_econ.price_twap_coverage('H100-SXM5', o.provider, o.pricing, m.r, max_age => '45 days', spec => run.s) t
 WHERE t.usd_per_gpu_hour IS NOT NULL
 ORDER BY 3;
