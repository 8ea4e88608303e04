-- Price guards: observations outside the price data's horizon are refused; staged history lines are their writer's alone (row-level security, \copy through the view price_history_stage).
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\set VERBOSITY default

-- 1. The horizon: [2010-01-01, now + 366 days].  A writer inserting one row at 1900 and one at
-- 2099 made the daily summaries span two centuries (0.3.0: 1.8M summary rows from 100 inserts).
SELECT count(*) AS summary_rows FROM price_daily_summary \gset
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('1900-01-01', 'regress-horizon', 'H100-SXM5', 'on_demand', 2.00, 'test');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2099-12-31', 'regress-horizon', 'H100-SXM5', 'on_demand', 2.00, 'test');
-- one bad row refuses the statement, the good rows with it
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-01-01', 'regress-horizon', 'H100-SXM5', 'on_demand', 2.00, 'test'),
       ('2009-12-31 23:59:59+00', 'regress-horizon', 'H100-SXM5', 'spot', 1.00, 'test');
-- an UPDATE that moves a row outside is refused too
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-01-01', 'regress-horizon', 'H100-SXM5', 'on_demand', 2.00, 'test');
UPDATE price_snapshot SET observed_at = '2200-01-01' WHERE provider = 'regress-horizon';
ROLLBACK;
-- the edges are inside: 2010-01-01, and a price quoted 300 days ahead
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2010-01-01 00:00+00', 'regress-horizon', 'H100-SXM5', 'on_demand', 2.00, 'test'),
       (date_trunc('day', now()) + interval '300 days', 'regress-horizon', 'H100-SXM5', 'on_demand', 2.10, 'test');
SELECT count(*) AS stored FROM price_snapshot WHERE provider = 'regress-horizon';
ROLLBACK;
SELECT count(*) AS stored_after FROM price_snapshot WHERE provider = 'regress-horizon';
SELECT count(*) = :summary_rows AS summaries_unchanged FROM price_daily_summary;

-- 2. Staged history lines are their writer's.  Two writers with the recipe's grants; each
-- stages through the view (COPY cannot write a table under row-level security).
CREATE ROLE regress_stage_a;
CREATE ROLE regress_stage_b;
GRANT SELECT, INSERT, DELETE ON price_history_staging TO regress_stage_a, regress_stage_b;
GRANT INSERT ON price_history_stage TO regress_stage_a, regress_stage_b;
GRANT USAGE ON SEQUENCE price_history_staging_id_seq TO regress_stage_a, regress_stage_b;
GRANT INSERT ON price_snapshot TO regress_stage_a, regress_stage_b;
GRANT USAGE ON SEQUENCE price_snapshot_id_seq TO regress_stage_a, regress_stage_b;
SET ROLE regress_stage_a;
COPY price_history_stage FROM STDIN WITH (FORMAT csv, HEADER);
observed_at,valid_to,cloud,region,instance_type,accelerator,accelerator_count,price_on_demand_usd_per_hour,spot_price_usd_per_hour,price_on_demand_per_gpu_usd_per_hour,spot_price_per_gpu_usd_per_hour
2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,gcp,regress-a1,a2-highgpu-1g,A100,1,3.70,1.10,,
2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,gcp,regress-a1,a2-highgpu-2g,A100,2,7.40,2.20,,
\.
-- the table shows a's two lines to a
SELECT count(*) AS my_lines, bool_and(staged_by = 'regress_stage_a') AS mine FROM price_history_staging;
RESET ROLE;
SET ROLE regress_stage_b;
COPY price_history_stage FROM STDIN WITH (FORMAT csv, HEADER);
observed_at,valid_to,cloud,region,instance_type,accelerator,accelerator_count,price_on_demand_usd_per_hour,spot_price_usd_per_hour,price_on_demand_per_gpu_usd_per_hour,spot_price_per_gpu_usd_per_hour
2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,gcp,regress-b1,a2-highgpu-1g,A100,1,3.80,1.20,,
\.
-- b sees only its own line, cannot delete a's, and cannot stage a line as a's
SELECT count(*) AS b_sees, count(*) FILTER (WHERE staged_by = 'regress_stage_a') AS of_a FROM price_history_staging;
WITH d AS (DELETE FROM price_history_staging WHERE staged_by = 'regress_stage_a' RETURNING 1) SELECT count(*) AS deleted_of_a FROM d;
INSERT INTO price_history_staging (observed_at, cloud, staged_by) VALUES ('2024-05-01', 'gcp', 'regress_stage_a');
-- COPY straight into the table is refused by PostgreSQL for a role under its policy
COPY price_history_staging (observed_at) FROM STDIN;
2024-05-01
\.
-- b loads its one line, not a's two
SELECT inserted FROM load_price_history(source => 'regress b');
RESET ROLE;
SET ROLE regress_stage_a;
SELECT count(*) AS a_still_staged FROM price_history_staging;
SELECT inserted FROM load_price_history(source => 'regress a');
RESET ROLE;
SELECT (SELECT count(*) FROM price_history_stage) AS the_view_shows, (SELECT count(*) FROM price_history_staging) AS left_staged;
SELECT source, region, count(*) AS observations FROM price_snapshot
 WHERE provider = 'gcp' AND region LIKE 'regress-%' GROUP BY 1, 2 ORDER BY 1, 2;

-- 3. source_kind says which path wrote a row, and only the importers write catalog or history:
-- a writer's plain INSERT is manual whatever it sets (0.3.0: SET llm_econ.import_kind =
-- 'catalog' made a hand-entered $0.01 row a "catalog" offer).
SET ROLE regress_stage_a;
SET llm_econ.import_kind = 'catalog';
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-07-01', 'regress-kind', 'H100-SXM5', 'on_demand', 0.01, 'by hand');
SELECT source_kind FROM price_snapshot WHERE provider = 'regress-kind';
ROLLBACK;
-- naming the kind is refused
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source, source_kind)
VALUES ('2024-07-01', 'regress-kind', 'H100-SXM5', 'on_demand', 0.01, 'by hand', 'catalog');
-- an import writes catalog rows; a plain INSERT right after it in the same transaction is manual
BEGIN;
SELECT inserted FROM import_skypilot_catalog('lambda',
  E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_a10,A10,1,0.75,regress-kind-1\n', '2024-07-02');
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-07-03', 'regress-kind', 'H100-SXM5', 'on_demand', 0.01, 'by hand');
SELECT provider, source_kind FROM price_snapshot
 WHERE region = 'regress-kind-1' OR provider = 'regress-kind' ORDER BY provider;
ROLLBACK;
RESET ROLE;
-- the importers keep their callers' rights: a role that may not insert prices cannot import
CREATE ROLE regress_kind_reader;
SET ROLE regress_kind_reader;
SELECT inserted FROM import_skypilot_catalog('lambda',
  E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_a10,A10,1,0.75,regress-kind-2\n', '2024-07-02');
SELECT inserted FROM llm_econ._record_prices(ARRAY['2024-07-02'::timestamptz], ARRAY['lambda'], ARRAY['A10'], ARRAY['regress-kind-2'],
                                             ARRAY['on_demand'], ARRAY[0.01], ARRAY[NULL::text], ARRAY[1], 'forged', 'catalog');
RESET ROLE;
-- No role can borrow another's recorder or kind (0.4.0's first draft: the recorder ran as the
-- owner and checked the session's role, so a SECURITY DEFINER function of a role without
-- grants, run by a price writer, stored "catalog" rows).  The function runs as its owner, and
-- so do the recorder and the INSERT it makes:
CREATE FUNCTION public.regress_forge() RETURNS bigint LANGUAGE sql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $f$ SELECT inserted FROM llm_econ._record_prices(ARRAY['2024-07-02'::timestamptz], ARRAY['lambda'], ARRAY['A10'],
          ARRAY['regress-kind-3'], ARRAY['on_demand'], ARRAY[0.01], ARRAY[NULL::text], ARRAY[1], 'forged', 'catalog') $f$;
ALTER FUNCTION public.regress_forge() OWNER TO regress_kind_reader;
SET ROLE regress_stage_a;
SELECT public.regress_forge();
RESET ROLE;
-- a writer's SECURITY DEFINER function that names the kind, run by a superuser: refused too
-- (the check sees the role that inserts, not the session's)
CREATE FUNCTION public.regress_forge2() RETURNS void LANGUAGE sql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $f$ INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source, source_kind)
       VALUES ('2024-07-01', 'regress-kind', 'H100-SXM5', 'on_demand', 0.01, 'forged', 'catalog') $f$;
ALTER FUNCTION public.regress_forge2() OWNER TO regress_stage_a;
SELECT public.regress_forge2();
-- the kind is the recorder's argument, one of two
SELECT * FROM llm_econ._record_prices(ARRAY['2024-07-02'::timestamptz], ARRAY['lambda'], ARRAY['A10'], ARRAY['regress-kind-4'],
                                      ARRAY['on_demand'], ARRAY[0.01], ARRAY[NULL::text], ARRAY[1], 'x', 'manual');
SELECT * FROM llm_econ._record_prices(ARRAY['2024-07-02'::timestamptz], ARRAY['lambda'], ARRAY['A10'], ARRAY['regress-kind-4'],
                                      ARRAY['on_demand'], ARRAY[0.01], ARRAY[NULL::text], ARRAY[1], 'x', NULL);
SELECT count(*) AS forged_rows FROM price_snapshot WHERE source IN ('forged', 'x');
DROP FUNCTION public.regress_forge(), public.regress_forge2();
DROP ROLE regress_kind_reader;

-- clean up
DELETE FROM price_snapshot WHERE provider = 'gcp' AND region LIKE 'regress-%';
DROP OWNED BY regress_stage_a, regress_stage_b;
DROP ROLE regress_stage_a;
DROP ROLE regress_stage_b;
