-- A staged FOCUS file typed in a background worker (llm_econ.focus_typing_worker): the same rows,
-- the same errors and the same all-or-nothing as when the session types the lines itself, on both
-- insert paths; the worker leaves with the load, and a NOLOGIN role's load may use it.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql

-- What a stored line is, without its surrogate id and import time.
CREATE TEMP VIEW stored AS
  SELECT tenant, charge_period_start, charge_period_end, billing_period_start, billing_period_end, provider,
         service_name, service_category, charge_category, charge_description, pricing_category, pricing, region,
         sku, instance_type, gpus_per_instance, consumed_quantity, consumed_unit, gpu_hours, billed_cost,
         effective_cost, list_cost, billing_currency, run_id, resource_id, tags, record, source, line, row_hash,
         occurrence, billing_account_id, delivery
    FROM spend;
CREATE TEMP TABLE sample_raw (n serial, line text);
\copy sample_raw (line) FROM 'test/data/focus/focus_1.0_sample_1000.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
-- big_raw: a file of GPU lines with GPU-hours; lines 11,001-12,000 repeat lines 1-1,000 (the
-- same charges again: occurrence 2)
CREATE TEMP TABLE big_raw (n int, line text);
INSERT INTO big_raw VALUES (0, 'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,'
                               'SkuPriceDetails,ConsumedQuantity,ConsumedUnit,ResourceId,Tags');
INSERT INTO big_raw
  SELECT i, format('%s.%s,%s,2025-04-%s 00:00:00,2025-04-%s 01:00:00Z,AWS,"{""InstanceType"": ""p5.48xlarge""}",'
                   '%s,Hours,i-%s,"{""run_id"": ""run-%s"", ""team"": ""llm""}"',
                   j % 97, j % 10, j % 13, lpad((1 + j % 28)::text, 2, '0'), lpad((1 + j % 28)::text, 2, '0'),
                   1 + j % 3, j, j % 7)
    FROM generate_series(1, 12000) AS i, LATERAL (SELECT i % 11000 AS j) AS k;
-- load_as(setting, lines, source): big_raw's header and first lines staged, then loaded with the
-- setting; the load's counts and how many lines the worker typed
CREATE FUNCTION pg_temp.load_as(setting text, lines int, src text,
    OUT inserted bigint, OUT skipped bigint, OUT by_worker bigint) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('llm_econ.focus_typing_worker', setting, true);
  INSERT INTO llm_econ.focus_staging (line) SELECT line FROM pg_temp.big_raw WHERE n <= lines ORDER BY n;
  SELECT l.inserted, l.skipped INTO inserted, skipped FROM llm_econ.load_focus(source => src) AS l;
  by_worker := llm_econ._focus_worker_lines();
END $$;

-- 1. The setting: auto by default, three values, nothing else (it exists once the module is
-- loaded, by any of its C functions; a SET before that is kept and checked then).
SELECT _focus_worker_lines() AS by_worker;
SHOW llm_econ.focus_typing_worker;
SELECT pg_temp.error_report($$SET llm_econ.focus_typing_worker = sometimes$$);

-- 2. The sample typed by the session and by a worker: the same rows, column by column, and the
-- worker typed every line.
\copy focus_staging (line) FROM 'test/data/focus/focus_1.0_sample_1000.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SET llm_econ.focus_typing_worker = off;
SELECT * FROM load_focus(source => 'sample');
SELECT _focus_worker_lines() AS by_worker;
CREATE TEMP TABLE by_session AS SELECT * FROM stored;
DELETE FROM spend;
\copy focus_staging (line) FROM 'test/data/focus/focus_1.0_sample_1000.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SET llm_econ.focus_typing_worker = on;
SELECT * FROM load_focus(source => 'sample');
SELECT _focus_worker_lines() AS by_worker;
SELECT (SELECT count(*) FROM (SELECT * FROM by_session EXCEPT ALL SELECT * FROM stored) AS d) AS only_session,
       (SELECT count(*) FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM by_session) AS d) AS only_worker,
       (SELECT sum(billed_cost) = 20.52022672899 AND sum(effective_cost) = 14.97651418586 FROM stored) AS exact,
       (SELECT count(*) FROM focus_staging) AS still_staged;
DELETE FROM spend;
DROP TABLE by_session;

-- 3. 12,000 GPU lines: off, on, and auto, which starts a worker only when focus_staging takes at
-- least 8 MB (these lines take about 2 MB: the session types them all, as a worker would slow a
-- file this small).  The same rows each time.
SELECT * FROM pg_temp.load_as('off', 12000, 'big');
CREATE TEMP TABLE by_session AS SELECT * FROM stored;
DELETE FROM spend;
SELECT * FROM pg_temp.load_as('on', 12000, 'big');
SELECT (SELECT count(*) FROM (SELECT * FROM by_session EXCEPT ALL SELECT * FROM stored) AS d) AS only_session,
       (SELECT count(*) FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM by_session) AS d) AS only_worker,
       (SELECT count(*) FILTER (WHERE occurrence > 1) FROM stored) AS repeated,
       (SELECT sum(gpu_hours) FROM stored) AS gpu_hours;
DELETE FROM spend;
SELECT inserted, skipped, by_worker
  FROM pg_temp.load_as('auto', 12000, 'big');
SELECT (SELECT count(*) FROM (SELECT * FROM by_session EXCEPT ALL SELECT * FROM stored) AS d) AS only_session,
       (SELECT count(*) FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM by_session) AS d) AS only_worker;
-- loaded again: every line skipped, through the SQL path, the worker typing
SELECT * FROM pg_temp.load_as('on', 12000, 'big again');
DELETE FROM spend;
-- auto measures the file from its first line's page on: the 9 MB that earlier loads emptied, which
-- a new file is staged after, are not its size (autovacuum off for the table here, so that they
-- stay until the load)
ALTER TABLE focus_staging SET (autovacuum_enabled = false);
TRUNCATE focus_staging;
INSERT INTO focus_staging (line) SELECT line FROM pg_temp.big_raw, generate_series(1, 4) ORDER BY n;
DELETE FROM focus_staging;
SELECT pg_relation_size('focus_staging') / 1048576 AS emptied_mb;
SELECT inserted, skipped, by_worker
  FROM pg_temp.load_as('auto', 12000, 'big after emptied pages');
SELECT pg_relation_size('focus_staging') / 1048576 AS mb;
ALTER TABLE focus_staging RESET (autovacuum_enabled);
DELETE FROM spend;

-- 4. The SQL path (a BEFORE ROW trigger on spend makes the C path decline): its INSERT statements
-- take 1,024 lines each with this work_mem, so the worker serves a load over several statements.
CREATE FUNCTION pg_temp.keep_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER regress_keep_row BEFORE INSERT ON spend FOR EACH ROW EXECUTE FUNCTION pg_temp.keep_row();
SET work_mem = '64kB';
SELECT * FROM pg_temp.load_as('on', 3000, 'big');
RESET work_mem;
DROP TRIGGER regress_keep_row ON spend;
SELECT (SELECT count(*) FROM (SELECT * FROM by_session WHERE line <= 3001 EXCEPT ALL SELECT * FROM stored) AS d) AS only_session,
       (SELECT count(*) FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM by_session WHERE line <= 3001) AS d) AS only_worker;
DELETE FROM spend;

-- 5. Errors.  Each bad line is loaded by the session and by a worker, after 2,500 good lines: the
-- same error (code, message, detail, line and column), nothing stored, every line still staged.
-- both(bad): the error report with the session typing, and whether the worker's is the same
CREATE FUNCTION pg_temp.both(bad text) RETURNS TABLE (report text, same_with_worker boolean)
LANGUAGE plpgsql AS $$
DECLARE
  by_session text[];
  by_worker text[];
  load constant text := $q$SELECT * FROM llm_econ.load_focus(source => 'bad')$q$;
BEGIN
  DELETE FROM llm_econ.focus_staging;
  INSERT INTO llm_econ.focus_staging (line) SELECT line FROM pg_temp.big_raw WHERE n <= 2500 ORDER BY n;
  INSERT INTO llm_econ.focus_staging (line) VALUES (bad);
  PERFORM set_config('llm_econ.focus_typing_worker', 'off', true);
  by_session := ARRAY(SELECT pg_temp.error_report(load));
  PERFORM set_config('llm_econ.focus_typing_worker', 'on', true);
  by_worker := ARRAY(SELECT pg_temp.error_report(load));
  IF (SELECT count(*) FROM llm_econ.spend) <> 0 OR (SELECT count(*) FROM llm_econ.focus_staging) <> 2502 THEN
    RAISE EXCEPTION 'a failed load stored lines or unstaged them';
  END IF;
  DELETE FROM llm_econ.focus_staging;
  RETURN QUERY SELECT r, by_session = by_worker FROM unnest(by_session) AS r;
END $$;
SELECT * FROM pg_temp.both('x.5,1,2025-04-01,2025-04-02,AWS,,1,Hours,i-bad,');
SELECT * FROM pg_temp.both('1,1,2025-02-30,2025-04-02,AWS,,1,Hours,i-bad,');
SELECT * FROM pg_temp.both('1,1,2025-04-01T10:00:00+05:00,2025-04-01,AWS,,1,Hours,i-bad,');
SELECT * FROM pg_temp.both('1,1,2025-04-01,2025-04-02,AWS,"{""GpuCount"": 0.5}",1,Hours,i-bad,');
SELECT * FROM pg_temp.both('1,1,2025-04-01,2025-04-02,AWS,"{""InstanceType"": ""p5.48xlarge""}",1e12,Hours,i-bad,');
SELECT * FROM pg_temp.both('1,1,2025-04-01,2025-04-02,AWS,,1,Hours,i-bad,"[1, 2]"');
SELECT * FROM pg_temp.both('1,1,2025-04-01,2025-04-02,,,1,Hours,i-bad,');
SELECT * FROM pg_temp.both('1,1,2025-04-01,2025-04-02,AWS,,1,Hours');
SELECT * FROM pg_temp.both('1,1,2025-04-01,2025-04-02,AWS,,1,Hours,"i-bad,');

-- 6. A role without LOGIN (SET ROLE) loads with a worker too: the worker connects as the session's
-- login role and reads no table, so it needs nothing of the role.
CREATE ROLE regress_fw_t NOLOGIN;
GRANT SELECT, INSERT, DELETE ON spend TO regress_fw_t;
GRANT USAGE ON SEQUENCE spend_id_seq, focus_staging_id_seq TO regress_fw_t;
GRANT SELECT, INSERT, DELETE ON focus_staging TO regress_fw_t;
GRANT SELECT ON big_raw TO regress_fw_t;
SET ROLE regress_fw_t;
SELECT * FROM pg_temp.load_as('on', 2000, 'no login');
RESET ROLE;
SELECT tenant, count(*) AS lines, (SELECT count(*) FROM focus_staging) AS still_staged FROM spend GROUP BY 1;
DELETE FROM spend;

-- 7. A load rolled back to a savepoint, then another in the same transaction: each had its worker.
BEGIN;
SAVEPOINT a;
SELECT * FROM pg_temp.load_as('on', 1500, 'rolled back');
ROLLBACK TO SAVEPOINT a;
SELECT * FROM pg_temp.load_as('on', 1200, 'kept');
COMMIT;
SELECT source, count(*) AS lines, (SELECT count(*) FROM focus_staging) AS still_staged FROM spend GROUP BY 1;
DELETE FROM spend;

-- 8. No worker is left once the loads are over (each leaves when its load detaches; wait for it).
DO $$
BEGIN
  FOR i IN 1 .. 300 LOOP
    EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity WHERE backend_type = 'llm_econ focus typing');
    PERFORM pg_sleep(0.1);
  END LOOP;
END $$;
SELECT count(*) AS typing_workers FROM pg_stat_activity WHERE backend_type = 'llm_econ focus typing';

DROP OWNED BY regress_fw_t;
DROP ROLE regress_fw_t;
RESET llm_econ.focus_typing_worker;
