-- Dashboard views and the daily summary behind them: values against a brute-force recomputation after inserts, back-fills, withdrawals, updates and deletes; price_daily unchanged; privileges; no JIT.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
\set SHOW_CONTEXT never

-- Brute force, written independently of the summary: for every day from the first observation
-- of provider 'testp' to yesterday and every series, the latest observation strictly before the
-- next midnight; per (day, sku, pricing): offers, min and the median (middle of the sorted array).
CREATE TEMP VIEW brute AS
  WITH days AS (
         SELECT d AS day FROM generate_series(
           (SELECT date_trunc('day', min(observed_at)) FROM llm_econ.price_snapshot WHERE provider = 'testp'),
           date_trunc('day', now()) - interval '1 day', interval '1 day') AS d),
       eod AS (
         SELECT days.day, s.sku, s.pricing, o.usd_per_gpu_hour AS p
           FROM days
          CROSS JOIN (SELECT DISTINCT sku, provider, pricing, region, instance_type
                        FROM llm_econ.price_snapshot WHERE provider = 'testp') s
          CROSS JOIN LATERAL (SELECT x.usd_per_gpu_hour FROM llm_econ.price_snapshot x
                               WHERE x.sku = s.sku AND x.provider = s.provider AND x.pricing = s.pricing
                                 AND x.region IS NOT DISTINCT FROM s.region
                                 AND x.instance_type IS NOT DISTINCT FROM s.instance_type
                                 AND x.observed_at < days.day + interval '1 day'
                                 AND x.suspect IS NULL   -- a suspect price counts nowhere (issue 45)
                               ORDER BY x.observed_at DESC LIMIT 1) o),
       agg AS (
         SELECT day, sku, pricing, count(*) AS offers, array_agg(p ORDER BY p) AS a
           FROM eod WHERE p IS NOT NULL GROUP BY 1, 2, 3)
  SELECT day AS "time", sku, 'testp'::text AS provider, pricing, round(a[1], 4) AS min_usd_per_gpu_hour,
         round((a[(offers + 1) / 2] + a[(offers + 2) / 2]) / 2, 4) AS median_usd_per_gpu_hour, offers::int4 AS offers
    FROM agg;
-- mismatches between the view and the brute force, both ways (0 and 0 when right)
CREATE TEMP VIEW mismatch AS
  SELECT (SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily_by_provider WHERE provider = 'testp'
                                EXCEPT SELECT * FROM brute) x) AS view_not_brute,
         (SELECT count(*) FROM (SELECT * FROM brute
                                EXCEPT SELECT * FROM llm_econ.price_daily_by_provider WHERE provider = 'testp') x) AS brute_not_view,
         (SELECT count(*) FROM llm_econ.price_daily_by_provider
           WHERE provider = 'testp' AND "time" < '2025-04-01') AS view_rows_in_march;
-- the summary rows of the test provider, as stored
CREATE TEMP VIEW stored AS
  SELECT "time"::date AS day, sku, pricing, offers, min_usd, median_usd, max_usd
    FROM llm_econ.price_daily_summary WHERE provider = 'testp' ORDER BY sku, pricing, "time";

-- 1. Three series of one group: on 2025-03-01 (two regions), one changing on 03-03, a third
-- series starting on 03-04; two observations the same day (the later one holds at the end).
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-03-01 08:00+00', 'testp', 'A100-80GB', 'r1', 'on_demand', 2.00, 'regress'),
  ('2025-03-01 09:00+00', 'testp', 'A100-80GB', 'r2', 'on_demand', 3.00, 'regress'),
  ('2025-03-03 10:00+00', 'testp', 'A100-80GB', 'r1', 'on_demand', 2.50, 'regress'),
  ('2025-03-04 01:00+00', 'testp', 'A100-80GB', 'r3', 'on_demand', 1.00, 'regress'),
  ('2025-03-04 23:00+00', 'testp', 'A100-80GB', 'r3', 'on_demand', 1.50, 'regress'),
  ('2025-03-02 00:00+00', 'testp', 'A100-80GB', 'r1', 'spot', 0.90, 'regress');
SELECT * FROM stored;
SELECT * FROM mismatch;
-- the days after the last observation repeat its prices up to yesterday, in the view only
SELECT count(*) = extract(day FROM date_trunc('day', now()) - timestamptz '2025-03-05') AS tail_complete,
       count(DISTINCT (min_usd_per_gpu_hour, median_usd_per_gpu_hour, offers)) AS distinct_values
  FROM llm_econ.price_daily_by_provider
 WHERE provider = 'testp' AND pricing = 'on_demand' AND "time" >= '2025-03-05';

-- 2. A back-fill before the history (day 02-27) and in the middle (r2 drops on 03-02): later
-- days are recomputed.
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-02-27 12:00+00', 'testp', 'A100-80GB', 'r2', 'on_demand', 4.00, 'regress'),
  ('2025-03-02 12:00+00', 'testp', 'A100-80GB', 'r2', 'on_demand', 2.20, 'regress');
SELECT * FROM stored WHERE pricing = 'on_demand';
SELECT * FROM mismatch;

-- 3. A withdrawal (NULL price): r3 is no longer offered from 03-06; then every on-demand series
-- is withdrawn on 03-08 and nothing is in effect after it (no rows, no tail).
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-03-06 00:00+00', 'testp', 'A100-80GB', 'r3', 'on_demand', NULL, 'regress');
SELECT * FROM stored WHERE pricing = 'on_demand' AND day >= '2025-03-05';
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-03-08 00:00+00', 'testp', 'A100-80GB', 'r1', 'on_demand', NULL, 'regress'),
  ('2025-03-08 00:00+00', 'testp', 'A100-80GB', 'r2', 'on_demand', NULL, 'regress');
SELECT max("time") AS last_on_demand_day FROM llm_econ.price_daily_by_provider
 WHERE provider = 'testp' AND pricing = 'on_demand';
SELECT * FROM mismatch;

-- 4. Updates and deletes: a price corrected, an observation moved to another day, the
-- withdrawals deleted again (the last row is in effect again up to yesterday).
UPDATE llm_econ.price_snapshot SET usd_per_gpu_hour = 2.40
 WHERE provider = 'testp' AND region = 'r1' AND pricing = 'on_demand' AND observed_at = '2025-03-03 10:00+00';
UPDATE llm_econ.price_snapshot SET observed_at = '2025-03-05 10:00+00'
 WHERE provider = 'testp' AND region = 'r2' AND observed_at = '2025-03-02 12:00+00';
SELECT * FROM mismatch;
DELETE FROM llm_econ.price_snapshot WHERE provider = 'testp' AND usd_per_gpu_hour IS NULL;
SELECT * FROM mismatch;
-- a delete of the group's last observations moves its last day back: no stored rows after it
DELETE FROM llm_econ.price_snapshot WHERE provider = 'testp' AND observed_at >= '2025-03-04';
SELECT max(day) AS last_stored_day, (SELECT last_day::date FROM llm_econ.price_daily_group
                                       WHERE provider = 'testp' AND pricing = 'on_demand') AS group_last_day
  FROM stored WHERE pricing = 'on_demand';
SELECT * FROM mismatch;
-- moving a whole group to another SKU (what ON UPDATE CASCADE from gpu_sku does)
UPDATE llm_econ.price_snapshot SET sku = 'H100-SXM5' WHERE provider = 'testp' AND pricing = 'spot';
SELECT sku, pricing, count(*) AS stored_days FROM llm_econ.price_daily_summary WHERE provider = 'testp' GROUP BY 1, 2 ORDER BY 1, 2;
SELECT * FROM mismatch;

-- 5. The other views on the same data: spans (valid_to NULL = in effect), spot discount (same
-- provider's on-demand), monthly ranking (time-weighted at day resolution).
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-03-02 00:00+00', 'testp', 'A100-80GB', 'r1', 'spot', 0.80, 'regress'),
  ('2025-03-01 00:00+00', 'testq', 'A100-80GB', NULL, 'on_demand', 2.20, 'regress'),
  ('2025-03-16 00:00+00', 'testq', 'A100-80GB', NULL, 'on_demand', NULL, 'regress'),
  ('2025-03-01 00:00+00', 'testq', 'A100-80GB', NULL, 'spot', 0.50, 'regress');
SELECT * FROM llm_econ.price_series_spans WHERE provider IN ('testp', 'testq') ORDER BY provider, pricing, region, valid_from, sku;
SELECT * FROM llm_econ.spot_discount_daily
 WHERE provider IN ('testp', 'testq') AND "time" BETWEEN '2025-03-01' AND '2025-03-04' ORDER BY "time", provider;
-- March: each provider's mean over the month's days of its cheapest series (testq: 15 days at
-- 2.20, then withdrawn; the days without a price are left out), against that mean computed here
SELECT c.*, (SELECT round(avg(min_usd_per_gpu_hour), 4) FROM llm_econ.price_daily_by_provider d
              WHERE d.provider = c.provider AND d.sku = c.sku AND d.pricing = c.pricing
                AND d."time" >= '2025-03-01' AND d."time" < '2025-04-01') AS mean_of_daily_min
  FROM llm_econ.cheapest_provider_monthly c
 WHERE c.provider IN ('testp', 'testq') AND c."time" = '2025-03-01' ORDER BY c.sku, c.pricing, c.rank;

-- 6. price_daily is the 0.1.0 view's answer, on the shipped history of the two SKUs with test rows
-- (its old definition, verbatim, as a temp view).
CREATE TEMP VIEW old_price_daily AS
  WITH spans AS (
         SELECT p.sku, p.pricing, p.provider, p.usd_per_gpu_hour,
                p.observed_at AS t0,
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
  SELECT (day AT TIME ZONE 'UTC') AS "time", sku, pricing,
         min(usd_per_gpu_hour) AS min_usd_per_gpu_hour,
         round(avg(usd_per_gpu_hour), 6) AS avg_usd_per_gpu_hour,
         max(usd_per_gpu_hour) AS max_usd_per_gpu_hour,
         count(DISTINCT provider) AS providers,
         string_agg(DISTINCT provider, ', ' ORDER BY provider) AS provider_list
    FROM days
   GROUP BY day, sku, pricing;
SELECT (SELECT count(*) > 1000 FROM llm_econ.price_daily WHERE sku IN ('A100-80GB', 'H100-SXM5')) AS many_rows,
       (SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily WHERE sku IN ('A100-80GB', 'H100-SXM5')
                              EXCEPT SELECT * FROM old_price_daily WHERE sku IN ('A100-80GB', 'H100-SXM5')) x) AS new_not_old,
       (SELECT count(*) FROM (SELECT * FROM old_price_daily WHERE sku IN ('A100-80GB', 'H100-SXM5')
                              EXCEPT SELECT * FROM llm_econ.price_daily WHERE sku IN ('A100-80GB', 'H100-SXM5')) x) AS old_not_new;
SELECT * FROM llm_econ.price_daily WHERE provider_list LIKE '%test%' AND "time" < '2025-03-04' ORDER BY 1, 2, 3;

-- 7. A rebuild from nothing gives the rows the triggers kept; TRUNCATE empties the summary.
CREATE TEMP TABLE kept AS SELECT * FROM llm_econ.price_daily_summary;
DELETE FROM llm_econ.price_daily_summary;
UPDATE llm_econ.price_daily_group SET dirty_since = '-infinity';
SELECT llm_econ._price_daily_refresh();
SELECT count(*) AS still_dirty FROM llm_econ.price_daily_group WHERE dirty_since IS NOT NULL;
SELECT (SELECT count(*) FROM kept) AS kept_rows,
       (SELECT count(*) FROM (SELECT * FROM kept EXCEPT SELECT * FROM llm_econ.price_daily_summary) x) AS kept_not_rebuilt,
       (SELECT count(*) FROM (SELECT * FROM llm_econ.price_daily_summary EXCEPT SELECT * FROM kept) x) AS rebuilt_not_kept;

-- 8. Privileges: the views work for a role with no grants (security_invoker, SELECT granted to
-- PUBLIC); the derived tables and the maintenance functions are the owner's.
CREATE ROLE regress_dash_reader;
SET ROLE regress_dash_reader;
SELECT count(*) > 0 AS reader_sees_days FROM llm_econ.price_daily_by_provider WHERE sku = 'A100-80GB';
INSERT INTO llm_econ.price_daily_summary VALUES ('2025-01-01', 'A100-80GB', 'x', 'spot', 1, 1, 1, 1, 1);
DELETE FROM llm_econ.price_daily_group;
UPDATE llm_econ.price_daily_group SET dirty_since = '-infinity';
SELECT llm_econ._price_daily_refresh();
SELECT llm_econ._price_daily_maintain();
RESET ROLE;
DROP ROLE regress_dash_reader;
-- the trigger functions run only as the triggers of price_snapshot they were made for
CREATE TEMP TABLE t (sku text, provider text, pricing text, observed_at timestamptz);
CREATE TRIGGER x AFTER INSERT ON t REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
INSERT INTO t VALUES ('A100-80GB', 'testp', 'spot', '2025-01-01');
DROP TRIGGER x ON t;
CREATE TRIGGER y AFTER TRUNCATE ON t FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_truncate();
TRUNCATE t;
DROP TABLE t;

-- 9. Panels are planned below the JIT threshold (default settings: jit on, jit_above_cost
-- 100000) and read the summary through an index.
CREATE FUNCTION pg_temp.plan_of(q text) RETURNS TABLE (below_jit_threshold boolean, reads_index boolean)
LANGUAGE plpgsql AS $$
DECLARE
  j json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
  RETURN QUERY SELECT (j -> 0 -> 'Plan' ->> 'Total Cost')::float8 < current_setting('jit_above_cost')::float8,
                      j::text LIKE '%Index%price_daily_summary%';
END $$;
SET jit = on;
SET jit_above_cost = 100000;
SELECT 'by provider, 7 days' AS panel, * FROM pg_temp.plan_of($$SELECT * FROM llm_econ.price_daily_by_provider WHERE "time" >= now() - interval '7 days'$$)
UNION ALL
SELECT 'by provider, one SKU', * FROM pg_temp.plan_of($$SELECT * FROM llm_econ.price_daily_by_provider WHERE sku = 'A100-80GB' AND "time" >= now() - interval '4 years'$$)
UNION ALL
SELECT 'price_daily, one SKU', * FROM pg_temp.plan_of($$SELECT * FROM llm_econ.price_daily WHERE sku = 'A100-80GB' AND "time" >= now() - interval '4 years'$$)
UNION ALL
SELECT 'cheapest monthly, one SKU', * FROM pg_temp.plan_of($$SELECT * FROM llm_econ.cheapest_provider_monthly WHERE sku = 'A100-80GB' AND "time" >= now() - interval '4 years'$$)
UNION ALL
SELECT 'spot discount, 30 days', * FROM pg_temp.plan_of($$SELECT * FROM llm_econ.spot_discount_daily WHERE "time" >= now() - interval '30 days'$$);

DELETE FROM llm_econ.price_snapshot WHERE provider IN ('testp', 'testq');
SELECT count(*) AS test_rows_left FROM llm_econ.price_daily_summary WHERE provider IN ('testp', 'testq');

-- 10. Per-row cost: estimate_cost keeps the last spec's GPU-hours (keyed by the spec's bytes),
-- yet validates every distinct spec: the third spec (mfu 1.5, made without the constructor)
-- is refused even though the two before it were the same valid spec; and each distinct spec
-- gets its own hours (gpu_hours::numeric * price, computed apart).
WITH r AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100') AS s)
SELECT v.i, llm_econ.estimate_cost(v.x, 2) = (llm_econ.gpu_hours(v.x))::numeric * 2 AS same_as_uncached
  FROM r, LATERAL (VALUES (1, r.s), (2, r.s), (3, jsonb_populate_record(r.s, '{"n_params": 7e10}')),
                          (4, r.s)) AS v(i, x)
 ORDER BY v.i;
WITH r AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100') AS s)
SELECT v.i, llm_econ.estimate_cost(v.x, 2)
  FROM r, LATERAL (VALUES (1, r.s), (2, r.s), (3, jsonb_populate_record(r.s, '{"mfu": 1.5}'))) AS v(i, x)
 ORDER BY v.i;

-- 11. The import's fast paths keep the answers (issue 16).
-- a. Flagging a price suspect takes it out of the summary, as out of price_at (issue 45): the day's
-- row is rewritten (min 3, not the flagged 2.5) and no series is emptied; an UPDATE that clears the
-- flag and changes only the price's written scale (2.5 -> 2.50) refreshes: the minimum reads 2.50.
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-05-01 08:00+00', 'testp', 'A100-80GB', 'r1', 'on_demand', 2.5, 'regress'),
  ('2025-05-01 08:00+00', 'testp', 'A100-80GB', 'r2', 'on_demand', 3, 'regress');
CREATE TEMP TABLE summary_before AS
  SELECT ctid AS c, * FROM llm_econ.price_daily_summary WHERE provider = 'testp';
UPDATE llm_econ.price_snapshot SET suspect = 'regress: flagged' WHERE provider = 'testp' AND region = 'r1';
SELECT (SELECT count(*) FROM summary_before) AS summary_rows,
       (SELECT count(*) FROM (SELECT ctid AS c, * FROM llm_econ.price_daily_summary WHERE provider = 'testp'
                              EXCEPT SELECT * FROM summary_before) x) AS rewritten,
       (SELECT count(*) FROM llm_econ.price_series WHERE provider = 'testp') AS series;
SELECT * FROM mismatch;
SELECT "time"::date AS day, min_usd, max_usd FROM llm_econ.price_daily_summary
 WHERE provider = 'testp' AND "time" = '2025-05-01';
UPDATE llm_econ.price_snapshot SET usd_per_gpu_hour = 2.50, suspect = NULL WHERE provider = 'testp' AND region = 'r1';
SELECT "time"::date AS day, min_usd, max_usd FROM llm_econ.price_daily_summary
 WHERE provider = 'testp' AND "time" = '2025-05-01';
SELECT * FROM mismatch;
DELETE FROM llm_econ.price_snapshot WHERE provider = 'testp';

-- b. The import maps all names at once with _sku_find's and _known_gpus's rules: an exact
-- spelling wins over a normalised one, a gpu_sku key over an alias.  Aliases that compete:
-- 'Regress-Box.1' (exact for the catalog's 'regress-box.1' in lower case) against 'regress_box_1'
-- (normalised), with other SKUs and GPU counts; the accelerator 'a10g' is both the key A10G
-- and (here) an alias of L4, and the key wins; the machine type decides over the accelerator.
INSERT INTO llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source) VALUES
  ('Regress-Box.1', 'H100-SXM5', 8, 'regress'), ('regress_box_1', 'A100-80GB', 4, 'regress'),
  ('regress box 2', 'L4', 2, 'regress'), ('a 10 g', 'L4', NULL, 'regress');
SELECT n, llm_econ._sku_find(n) AS sku_find, llm_econ._known_gpus(n) AS known_gpus
  FROM unnest(ARRAY['Regress-Box.1', 'regress-box.1', 'REGRESS-BOX-2', 'a10g']) AS n ORDER BY n;
-- _sku_map (what the importers call) gives, for all names at once, what the two give one by one
-- (one C rule, src/sku.c): no row for a name that means nothing, none for NULL
SELECT m.name, m.sku, m.gpus_per_instance
  FROM llm_econ._sku_map(ARRAY['Regress-Box.1', 'regress-box.1', 'REGRESS-BOX-2', 'a10g', 'no-such-gpu', NULL]) AS m
 ORDER BY m.name COLLATE "C";
SELECT count(*) AS disagreements
  FROM unnest(ARRAY['Regress-Box.1', 'regress-box.1', 'REGRESS-BOX-2', 'a10g', 'H100', 'h100 sxm5', 'p5.48xlarge']) AS n
  LEFT JOIN llm_econ._sku_map(ARRAY['Regress-Box.1', 'regress-box.1', 'REGRESS-BOX-2', 'a10g', 'H100', 'h100 sxm5', 'p5.48xlarge']) AS m
    ON m.name = n
 WHERE m.sku IS DISTINCT FROM llm_econ._sku_find(n) OR m.gpus_per_instance IS DISTINCT FROM llm_econ._known_gpus(n);
-- (as cloud spheron: made-up names fit no cloud's name rule, and spheron has none)
SELECT (llm_econ.import_skypilot_catalog('spheron', E'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n'
          'regress-box.1,L4,8,1,1,16.0,,r1,r1a\nREGRESS-BOX-2,L4,2,1,1,3.0,,r1,r1a\nregress-box-3,a10g,1,1,1,1.1,,r1,r1a',
          '2025-06-01')).inserted;
SELECT instance_type, sku, gpus_per_instance, usd_per_gpu_hour FROM llm_econ.price_snapshot
 WHERE provider = 'spheron' AND observed_at = '2025-06-01' ORDER BY instance_type;
DELETE FROM llm_econ.price_snapshot WHERE provider = 'spheron' AND observed_at = '2025-06-01';
DELETE FROM llm_econ.price_import WHERE provider = 'spheron' AND observed_at = '2025-06-01';
DELETE FROM llm_econ.gpu_sku_alias WHERE source = 'regress';

-- 12. Every dashboard view against a figure computed another way (issue 31, point 4): by hand
-- from a small fixture on a SKU with no shipped prices (A40), and by a plain query over
-- price_snapshot on the shipped history.  Rolled back: the later tests see the shipped data only.
BEGIN;
-- testv: two on-demand regions (r1 drops from 4.00 to 3.00 on 04-20) and two spot regions;
-- testw: one provider-wide on-demand price from 04-01, withdrawn at 04-16 00:00.
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-04-10 08:00+00', 'testv', 'A40', 'r1', 'on_demand', 4.00, 'regress'),
  ('2025-04-20 06:00+00', 'testv', 'A40', 'r1', 'on_demand', 3.00, 'regress'),
  ('2025-04-10 09:00+00', 'testv', 'A40', 'r2', 'on_demand', 5.00, 'regress'),
  ('2025-04-10 10:00+00', 'testv', 'A40', 'r1', 'spot', 1.00, 'regress'),
  ('2025-04-10 11:00+00', 'testv', 'A40', 'r2', 'spot', 1.50, 'regress'),
  ('2025-04-01 00:00+00', 'testw', 'A40', NULL, 'on_demand', 3.50, 'regress'),
  ('2025-04-16 00:00+00', 'testw', 'A40', NULL, 'on_demand', NULL, 'regress');
-- The prices in effect at the end of a UTC day, straight from price_snapshot: each series'
-- (sku, provider, pricing, region, instance type) latest observation before the next midnight.
CREATE TEMP VIEW eod AS
  SELECT d.day, x.sku, x.provider, x.pricing, x.usd
    FROM (VALUES (timestamptz '2025-04-10'), ('2025-04-16'), ('2025-04-20'), ('2025-06-15')) AS d(day)
   CROSS JOIN LATERAL (
         SELECT DISTINCT ON (p.sku, p.provider, p.pricing, p.region, p.instance_type)
                p.sku, p.provider, p.pricing, p.usd_per_gpu_hour AS usd
           FROM llm_econ.price_snapshot p
          WHERE p.observed_at < d.day + interval '1 day'
          ORDER BY p.sku, p.provider, p.pricing, p.region, p.instance_type, p.observed_at DESC) x
   WHERE x.usd IS NOT NULL;

-- a. spot_discount_daily: 1 - spot / on-demand.  On 04-10 testv's cheapest on-demand is 4.00 and
-- its cheapest spot 1.00: spot costs 75% less; on 04-20 on-demand is 3.00: 1 - 1/3.
SELECT "time"::date AS day, on_demand_usd_per_gpu_hour AS od, spot_usd_per_gpu_hour AS spot, discount,
       round(1 - llm_econ.price_at('A40', 'testv', 'spot', "time" + interval '1 day' - interval '1 microsecond')
               / llm_econ.price_at('A40', 'testv', 'on_demand', "time" + interval '1 day' - interval '1 microsecond'), 4)
         AS from_price_at
  FROM llm_econ.spot_discount_daily
 WHERE provider = 'testv' AND "time" IN ('2025-04-10', '2025-04-20') ORDER BY 1;
SELECT discount = 0.75 AS three_quarters_off FROM llm_econ.spot_discount_daily
 WHERE provider = 'testv' AND "time" = '2025-04-10';
-- every provider of the shipped A100-80GB and H100-SXM5 history with both prices on 2025-06-15,
-- and the fixture's days: the view against the same ratio from price_snapshot (0 mismatches),
-- and no discount outside [0, 1) when spot is the cheaper price
SELECT count(*) AS compared,
       count(*) FILTER (WHERE v.discount IS DISTINCT FROM b.discount) AS mismatches,
       count(*) FILTER (WHERE v.spot_usd_per_gpu_hour < v.on_demand_usd_per_gpu_hour
                          AND NOT (v.discount > 0 AND v.discount < 1)) AS out_of_range
  FROM llm_econ.spot_discount_daily v
  JOIN (SELECT day, sku, provider,
               round(1 - min(usd) FILTER (WHERE pricing = 'spot') / min(usd) FILTER (WHERE pricing = 'on_demand'), 4) AS discount
          FROM eod GROUP BY 1, 2, 3) b
    ON b.day = v."time" AND b.sku = v.sku AND b.provider = v.provider
 WHERE v."time" IN (SELECT DISTINCT day FROM eod) AND v.sku IN ('A40', 'A100-80GB', 'H100-SXM5');

-- b. price_daily_by_provider: testv on 04-10, by hand: on-demand {4.00, 5.00}, spot {1.00, 1.50}
SELECT pricing, min_usd_per_gpu_hour, median_usd_per_gpu_hour, offers,
       (pricing, min_usd_per_gpu_hour, median_usd_per_gpu_hour, offers)
         IN (('on_demand', 4.00, 4.50, 2), ('spot', 1.00, 1.25, 2)) AS as_by_hand
  FROM llm_econ.price_daily_by_provider
 WHERE provider = 'testv' AND "time" = '2025-04-10' ORDER BY pricing;

-- c. price_daily: A40 on-demand by hand (04-10: 4.00, 5.00 and testw's 3.50; 04-16: testw
-- withdrawn), and on the shipped history against min/avg/max/providers from price_snapshot
SELECT "time"::date AS day, min_usd_per_gpu_hour, avg_usd_per_gpu_hour, max_usd_per_gpu_hour, providers, provider_list,
       (min_usd_per_gpu_hour, avg_usd_per_gpu_hour, max_usd_per_gpu_hour, providers)
         IN ((3.50, round(12.50 / 3, 6), 5.00, 2), (4.00, 4.50, 5.00, 1)) AS as_by_hand
  FROM llm_econ.price_daily
 WHERE sku = 'A40' AND pricing = 'on_demand' AND "time" IN ('2025-04-10', '2025-04-16') ORDER BY 1;
SELECT count(*) AS compared,
       count(*) FILTER (WHERE (v.min_usd_per_gpu_hour, v.avg_usd_per_gpu_hour, v.max_usd_per_gpu_hour, v.providers)
                              IS DISTINCT FROM (b.min, b.avg, b.max, b.providers)) AS mismatches
  FROM llm_econ.price_daily v
  JOIN (SELECT day, sku, pricing, min(usd) AS min, round(avg(usd), 6) AS avg, max(usd) AS max,
               count(DISTINCT provider) AS providers
          FROM eod GROUP BY 1, 2, 3) b
    ON b.day = v."time" AND b.sku = v.sku AND b.pricing = v.pricing
 WHERE v.sku IN ('A40', 'A100-80GB', 'H100-SXM5');

-- d. price_series_spans: testv's r1 on-demand 4.00 holds from 04-10 08:00 until the 3.00 of
-- 04-20 06:00 (240 - 2 = 238 hours), which is still in effect; testw's 3.50 ends at its
-- withdrawal, which makes no span.  Then every span of the shipped history: its valid_to is the
-- series' next observation in price_snapshot.
SELECT provider, region, usd_per_gpu_hour, valid_from, valid_to,
       extract(epoch FROM valid_to - valid_from) / 3600 AS hours
  FROM llm_econ.price_series_spans
 WHERE sku = 'A40' AND pricing = 'on_demand' ORDER BY provider, region, valid_from;
CREATE TEMP VIEW next_obs AS   -- each price with the next observation of its series, from the table
  SELECT x.sku, x.provider, x.region, x.instance_type, x.pricing, x.valid_from, x.valid_to, x.usd_per_gpu_hour
    FROM (SELECT p.sku, p.provider, p.region, p.instance_type, p.pricing, p.observed_at AS valid_from,
                 lead(p.observed_at) OVER (PARTITION BY p.sku, p.provider, p.pricing, p.region, p.instance_type
                                           ORDER BY p.observed_at) AS valid_to, p.usd_per_gpu_hour
            FROM llm_econ.price_snapshot p) x
   WHERE x.usd_per_gpu_hour IS NOT NULL;
SELECT (SELECT count(*) FROM llm_econ.price_series_spans) = (SELECT count(*) FROM next_obs) AS one_per_price,
       (SELECT count(*) FROM (SELECT sku, provider, region, instance_type, pricing, valid_from, valid_to, usd_per_gpu_hour
                                FROM llm_econ.price_series_spans EXCEPT ALL SELECT * FROM next_obs) x) AS view_not_table,
       (SELECT count(*) FROM (SELECT * FROM next_obs EXCEPT ALL
                              SELECT sku, provider, region, instance_type, pricing, valid_from, valid_to, usd_per_gpu_hour
                                FROM llm_econ.price_series_spans) x) AS table_not_view;

-- e. cheapest_provider_monthly, April 2025, A40 on-demand, by hand: testv's cheapest is 4.00 on
-- the 10 days 04-10..04-19 and 3.00 on the 11 days 04-20..04-30, (40 + 33) / 21 = 3.4762;
-- testw's 3.50 holds on the 15 days 04-01..04-15.  Then the shipped history's March 2025: each
-- provider's mean over the month's days of the cheapest price from price_snapshot.
SELECT provider, usd_per_gpu_hour, rank,
       (provider, usd_per_gpu_hour, rank) IN (('testv', round(73.0 / 21, 4), 1), ('testw', 3.5000, 2)) AS as_by_hand
  FROM llm_econ.cheapest_provider_monthly
 WHERE sku = 'A40' AND pricing = 'on_demand' AND "time" = '2025-04-01' ORDER BY rank;
WITH days AS (
       SELECT d AS day FROM generate_series(timestamptz '2025-03-01', '2025-03-31', interval '1 day') AS d),
     daily_min AS (
       SELECT days.day, x.sku, x.provider, x.pricing, min(x.usd) AS usd
         FROM days
        CROSS JOIN LATERAL (
              SELECT DISTINCT ON (p.sku, p.provider, p.pricing, p.region, p.instance_type)
                     p.sku, p.provider, p.pricing, p.usd_per_gpu_hour AS usd
                FROM llm_econ.price_snapshot p
               WHERE p.observed_at < days.day + interval '1 day' AND p.sku IN ('A100-80GB', 'H100-SXM5')
               ORDER BY p.sku, p.provider, p.pricing, p.region, p.instance_type, p.observed_at DESC) x
        WHERE x.usd IS NOT NULL
        GROUP BY 1, 2, 3, 4),
     monthly AS (
       SELECT sku, provider, pricing, round(avg(usd), 4) AS usd FROM daily_min GROUP BY 1, 2, 3)
SELECT count(*) AS compared,
       count(*) FILTER (WHERE v.usd_per_gpu_hour IS DISTINCT FROM m.usd) AS mismatches,
       count(*) FILTER (WHERE v.rank IS DISTINCT FROM
                          (SELECT 1 + count(*) FROM monthly o
                            WHERE o.sku = m.sku AND o.pricing = m.pricing AND o.usd < m.usd)) AS wrong_rank,
       (SELECT count(*) FROM monthly) AS groups
  FROM llm_econ.cheapest_provider_monthly v
  JOIN monthly m ON m.sku = v.sku AND m.provider = v.provider AND m.pricing = v.pricing
 WHERE v."time" = '2025-03-01';

-- f. price_history: the fixture's 7 observations as inserted (the withdrawal a NULL price), and
-- the whole view against price_snapshot's rows, both ways
SELECT count(*) AS observations, count(usd_per_gpu_hour) AS prices, sum(usd_per_gpu_hour) AS sum_usd,
       count(*) = 7 AND sum(usd_per_gpu_hour) = 4.00 + 3.00 + 5.00 + 1.00 + 1.50 + 3.50 AS as_by_hand
  FROM llm_econ.price_history WHERE sku = 'A40';
SELECT (SELECT count(*) FROM (SELECT * FROM llm_econ.price_history
                              EXCEPT ALL SELECT observed_at, sku, provider, region, pricing, usd_per_gpu_hour, instance_type,
                                                source, source_kind, gpus_per_instance, suspect,
                                                CASE WHEN usd_per_gpu_hour IS NOT NULL THEN coalesce(last_seen_at, observed_at) END
                                           FROM llm_econ.price_snapshot) x) AS view_not_table,
       (SELECT count(*) FROM (SELECT observed_at, sku, provider, region, pricing, usd_per_gpu_hour, instance_type,
                                     source, source_kind, gpus_per_instance, suspect,
                                     CASE WHEN usd_per_gpu_hour IS NOT NULL THEN coalesce(last_seen_at, observed_at) END
                                FROM llm_econ.price_snapshot
                              EXCEPT ALL SELECT * FROM llm_econ.price_history) x) AS table_not_view;
ROLLBACK;
SELECT count(*) AS fixture_rows_left FROM llm_econ.price_snapshot WHERE provider IN ('testv', 'testw');

-- 13. The finance views against figures computed another way (issue 31, point 4): spend_daily
-- and plan_vs_actual on a small bill, by hand and by a plain query over spend, run_plan and
-- fx_rate.  Rolled back.
BEGIN;
INSERT INTO llm_econ.fx_rate (currency, valid_from, usd_per_unit, source)
VALUES ('EUR', '2024-01-01', 1.10, 'regress: dashboards section 13');
SELECT inserted FROM llm_econ.import_focus(
'BilledCost,EffectiveCost,ListCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeDescription,PricingCategory,ConsumedQuantity,ConsumedUnit,ServiceProviderName,RegionId,ResourceId,ServiceName,ServiceCategory,SkuPriceDetails,Tags,BillingAccountId
2359.68,2200.10,2359.68,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-20T00:00:00Z,2024-05-21T00:00:00Z,Usage,p5.48xlarge on-demand,Standard,24,Hours,AWS,us-east-1,i-01,Amazon Elastic Compute Cloud,Compute,"{""InstanceType"": ""p5.48xlarge"", ""GpuCount"": 8}","{""run_id"": ""dash-run""}",111122223333
100.00,90.00,100.00,USD,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-20T06:00:00Z,2024-05-20T07:00:00Z,Usage,storage,Standard,1,GB-Mo,AWS,us-east-1,vol-1,Amazon Elastic Block Store,Storage,NULL,NULL,111122223333
50.00,50.00,50.00,EUR,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-20T08:00:00Z,2024-05-20T09:00:00Z,Usage,storage,Standard,1,GB-Mo,AWS,eu-west-1,vol-2,Amazon Elastic Block Store,Storage,NULL,NULL,111122223333
10.00,10.00,10.00,GBP,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,2024-05-20T10:00:00Z,2024-05-20T11:00:00Z,Usage,storage,Standard,1,GB-Mo,AWS,eu-west-2,vol-3,Amazon Elastic Block Store,Storage,NULL,NULL,111122223333
', source => 'dashboards section 13');
INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, planned_at, usd_per_gpu_hour)
VALUES ('dash-run', llm_econ.run_spec(1e9, 2e11, 8, 'H100', mfu => 0.40), 'aws', 'on_demand', '2024-05-15', 12.00);

-- a. spend_daily, 2024-05-20: storage by hand = 100.00 USD + 50.00 EUR x 1.10 = 155.00 (the GBP
-- line has no rate: unconverted, not summed); compute 2359.68.  Then every row of the view
-- against sums over spend with the rate looked up in fx_rate directly.
SELECT service_category, billed_usd, lines, unconverted_lines,
       (service_category, billed_usd, lines, unconverted_lines)
         IN (('Compute', 2359.68, 1, 0), ('Storage', 100.00 + 50.00 * 1.10, 3, 1)) AS as_by_hand
  FROM llm_econ.spend_daily WHERE "time" = '2024-05-20' AND provider = 'aws' ORDER BY 1;
WITH rated AS (
       SELECT s.*, CASE WHEN upper(s.billing_currency) = 'USD' THEN 1
                        ELSE (SELECT f.usd_per_unit FROM llm_econ.fx_rate f
                               WHERE f.currency = upper(s.billing_currency) AND f.valid_from <= s.charge_period_start
                               ORDER BY f.valid_from DESC LIMIT 1) END AS rate
         FROM llm_econ.spend s),
     b AS (SELECT date_trunc('day', charge_period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day, tenant, provider,
                  service_category, sum(billed_cost * rate) AS billed, sum(effective_cost * rate) AS effective,
                  sum(gpu_hours) AS gpu_hours, count(*) AS lines, count(*) FILTER (WHERE rate IS NULL) AS unconverted
             FROM rated GROUP BY 1, 2, 3, 4)
SELECT count(*) AS compared,
       count(*) FILTER (WHERE (v.billed_usd, v.effective_usd, v.gpu_hours, v.lines, v.unconverted_lines)
                              IS DISTINCT FROM (b.billed, b.effective, b.gpu_hours, b.lines, b.unconverted)) AS mismatches,
       (SELECT count(*) FROM llm_econ.spend_daily) = count(*) AS every_row
  FROM llm_econ.spend_daily v
  JOIN b ON b.day = v."time" AND b.tenant = v.tenant AND b.provider = v.provider
        AND b.service_category IS NOT DISTINCT FROM v.service_category;

-- b. plan_vs_actual for dash-run: effective 2200.10 against the plan's frozen USD (to the cent);
-- variance = effective - planned; usage variance = (actual - planned GPU-hours) x 12.00 to the
-- cent; price + usage = variance; implied MFU = 0.40 x planned / actual GPU-hours; each from
-- run_plan and spend directly.
SELECT v.billed_usd = 2359.68 AND v.effective_usd = 2200.10 AS costs_by_hand,
       v.billed_usd = (SELECT sum(s.billed_cost) FROM llm_econ.spend s WHERE s.run_id = 'dash-run') AS billed_from_spend,
       v.actual_gpu_hours = (SELECT sum(s.gpu_hours) FROM llm_econ.spend s WHERE s.run_id = 'dash-run') AS gpu_hours_from_spend,
       v.planned_usd = round(p.planned_usd, 2) AS planned_from_run_plan,
       v.variance_usd = 2200.10 - round(p.planned_usd, 2) AS variance_is_effective_minus_planned,
       v.price_variance_usd + v.usage_variance_usd = v.variance_usd AS split_adds_up,
       v.usage_variance_usd = round((v.actual_gpu_hours - p.planned_gpu_hours::numeric) * 12.00, 2) AS usage_by_formula,
       round(v.implied_mfu::numeric, 6) = round((0.40 * p.planned_gpu_hours / v.actual_gpu_hours::float8)::numeric, 6) AS implied_mfu_by_formula
  FROM llm_econ.plan_vs_actual v JOIN llm_econ.run_plan p USING (run_id)
 WHERE v.run_id = 'dash-run';
-- the untagged row of the provider holds what names no run: its billed total plus the run's is the invoice's
SELECT (SELECT sum(billed_usd) FROM llm_econ.plan_vs_actual WHERE provider = 'aws' AND (run_id = 'dash-run' OR status = 'untagged'))
       = (SELECT sum(billed_cost) FROM llm_econ.spend WHERE provider = 'aws' AND upper(billing_currency) = 'USD')
         + 50.00 * 1.10 AS invoice_in_usd;
ROLLBACK;
