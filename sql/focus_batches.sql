-- A staged FOCUS file loaded in batches (one statement per work_mem's worth of staged lines): the
-- same rows whatever the batch size and as import_focus gives for the same text, copies of a charge
-- numbered across batches, the same errors and all-or-nothing when the bad line is in a later
-- batch, a NOLOGIN role's load, and a load rolled back to a savepoint.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql
\i sql/include/focus_common.sql

-- big_raw: a file of GPU lines with GPU-hours, all account 111, USD, billed for April 2025 (the
-- mandatory columns first); lines 11,001-12,000 repeat lines 1-1,000 (the same charges again:
-- occurrence 2).  Every line written by hand below starts with the same five fields.
CREATE TEMP TABLE big_raw (n int, line text);
INSERT INTO big_raw VALUES (0, 'BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,'
                               'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,'
                               'SkuPriceDetails,ConsumedQuantity,ConsumedUnit,ResourceId,Tags');
INSERT INTO big_raw
  SELECT i, format('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,%s.%s,%s,2025-04-%s 00:00:00,2025-04-%s 01:00:00Z,AWS,"{""InstanceType"": ""p5.48xlarge""}",'
                   '%s,Hours,i-%s,"{""run_id"": ""run-%s"", ""team"": ""llm""}"',
                   j % 97, j % 10, j % 13, lpad((1 + j % 28)::text, 2, '0'), lpad((1 + j % 28)::text, 2, '0'),
                   1 + j % 3, j, j % 7)
    FROM generate_series(1, 12000) AS i, LATERAL (SELECT i % 11000 AS j) AS k;
-- stage(lines): big_raw's header and first lines staged
CREATE FUNCTION pg_temp.stage(lines int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO llm_econ.focus_staging (line) SELECT line FROM pg_temp.big_raw WHERE n <= lines ORDER BY n
$$;

-- 1. 12,000 lines as one text (import_focus), staged with the default work_mem (3 statements of
-- 4,096 staged lines) and with 64kB (12 statements of 1,024): the same rows each time, column by
-- column, the 1,000 repeated charges stored as their second occurrence.
SELECT * FROM import_focus((SELECT string_agg(line, E'\n' ORDER BY n) FROM big_raw), source => 'big');
CREATE TEMP TABLE by_text AS SELECT * FROM stored;
SELECT count(*) FILTER (WHERE occurrence > 1) AS repeated, sum(gpu_hours) AS gpu_hours FROM by_text;
DELETE FROM spend;
SELECT pg_temp.stage(12000);
SELECT * FROM load_focus(source => 'big');
SELECT (SELECT count(*) FROM (SELECT * FROM by_text EXCEPT ALL SELECT * FROM stored) AS d) AS only_text,
       (SELECT count(*) FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM by_text) AS d) AS only_staged,
       (SELECT count(*) FROM focus_staging) AS still_staged;
DELETE FROM spend;
SET work_mem = '64kB';
SELECT pg_temp.stage(12000);
SELECT * FROM load_focus(source => 'big');
SELECT (SELECT count(*) FROM (SELECT * FROM by_text EXCEPT ALL SELECT * FROM stored) AS d) AS only_text,
       (SELECT count(*) FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM by_text) AS d) AS only_staged;
-- loaded again: every line skipped, the repeated ones too
SELECT pg_temp.stage(12000);
SELECT * FROM load_focus(source => 'big again', mode => 'append');
-- a record whose quoted field spans the end of a batch (staged lines 1,024 and 1,025) is read whole
DELETE FROM spend;
INSERT INTO focus_staging (line) SELECT line FROM big_raw WHERE n BETWEEN 0 AND 1022 ORDER BY n;
INSERT INTO focus_staging (line) VALUES ('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,AWS,,1,Hours,"i-split'), ('across",'),
  ('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,2,2,2025-04-01,2025-04-02,AWS,,1,Hours,i-after,');
SELECT * FROM load_focus(source => 'split');
SELECT line, resource_id, billed_cost FROM spend WHERE line >= 1023 ORDER BY line;
RESET work_mem;
DELETE FROM spend;

-- 2. Errors.  Each bad line follows 2,500 good lines, in the third batch of 1,024 staged lines: an
-- error naming the line and the column, nothing stored, every line still staged.
CREATE FUNCTION pg_temp.bad(bad text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM llm_econ.focus_staging;
  PERFORM pg_temp.stage(2500);
  INSERT INTO llm_econ.focus_staging (line) VALUES (bad);
  PERFORM set_config('work_mem', '64kB', true);
  RETURN QUERY SELECT pg_temp.error_report($q$SELECT * FROM llm_econ.load_focus(source => 'bad')$q$);
  PERFORM set_config('work_mem', '4MB', true);
  IF (SELECT count(*) FROM llm_econ.spend) <> 0 OR (SELECT count(*) FROM llm_econ.focus_staging) <> 2502 THEN
    RAISE EXCEPTION 'a failed load stored lines or unstaged them';
  END IF;
  DELETE FROM llm_econ.focus_staging;
END $$;
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,x.5,1,2025-04-01,2025-04-02,AWS,,1,Hours,i-bad,');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-02-30,2025-04-02,AWS,,1,Hours,i-bad,');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01T10:00:00+05:00,2025-04-01,AWS,,1,Hours,i-bad,');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,AWS,"{""GpuCount"": 0.5}",1,Hours,i-bad,');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,AWS,"{""InstanceType"": ""p5.48xlarge""}",1e12,Hours,i-bad,');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,AWS,,1,Hours,i-bad,"[1, 2]"');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,,,1,Hours,i-bad,');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,AWS,,1,Hours');
SELECT * FROM pg_temp.bad('111,USD,2025-04-01T00:00:00Z,2025-05-01T00:00:00Z,Usage,1,1,2025-04-01,2025-04-02,AWS,,1,Hours,"i-bad,');

-- 3. A role without LOGIN (SET ROLE) loads its own staged lines.
CREATE ROLE regress_fb_t NOLOGIN;
GRANT SELECT, INSERT, DELETE ON spend TO regress_fb_t;
GRANT USAGE ON SEQUENCE spend_id_seq, focus_staging_id_seq TO regress_fb_t;
GRANT SELECT, INSERT, DELETE ON focus_staging TO regress_fb_t;
GRANT SELECT ON big_raw TO regress_fb_t;
SET ROLE regress_fb_t;
SELECT pg_temp.stage(2000);
SELECT * FROM load_focus(source => 'no login');
RESET ROLE;
SELECT tenant, count(*) AS lines, (SELECT count(*) FROM focus_staging) AS still_staged FROM spend GROUP BY 1;
DELETE FROM spend;

-- 4. A load rolled back to a savepoint, then another in the same transaction (the same temporary
-- tables): the second stores its own lines, numbered from 1.
BEGIN;
SAVEPOINT a;
SELECT pg_temp.stage(1500);
SELECT * FROM load_focus(source => 'rolled back');
ROLLBACK TO SAVEPOINT a;
SELECT pg_temp.stage(1200);
SELECT * FROM load_focus(source => 'kept');
COMMIT;
SELECT source, count(*) AS lines, max(occurrence) AS occurrence, (SELECT count(*) FROM focus_staging) AS still_staged
  FROM spend GROUP BY 1;
DELETE FROM spend;

-- 5. Batches that bring no statement new to the load read none of spend's rows (here 11,000
-- lines, no charge repeated, in 11 batches; the one statement, AWS, billing account 111 and
-- the billing period of April 2025, comes in the first): the replaced lines are looked up per new
-- statement, with its values, not by one join planned from the statistics.  The plan such a join
-- may get (an index scan of all of spend, as forced here) read the tenant's rows again in every
-- batch, a load quadratic in its file: 56,310 rows read for 11,000 loaded.  Counted with the
-- backend's table statistics not yet reported, before and after the load (they may also hold an
-- earlier statement's, not yet flushed): 0 since the change.  The tenant is new to this test, so
-- that no row an earlier part deleted (an index entry still visited until vacuumed) counts.
DELETE FROM spend;
BEGIN;
SET LOCAL work_mem = '64kB';
SET LOCAL enable_seqscan = off;
SET LOCAL enable_hashjoin = off;
SET LOCAL enable_mergejoin = off;
SET LOCAL enable_bitmapscan = off;
INSERT INTO focus_staging (line)
SELECT line FROM big_raw WHERE n <= 11000 ORDER BY n;
SELECT coalesce(t.seq_tup_read, 0) + coalesce(t.idx_tup_fetch, 0) AS reads_before
  FROM pg_stat_xact_user_tables t WHERE t.relid = 'llm_econ.spend'::regclass \gset
SELECT * FROM load_focus(tenant => 'regress_reads', source => 'reads');
SELECT coalesce(t.seq_tup_read, 0) + coalesce(t.idx_tup_fetch, 0) - :reads_before < 1024 AS fewer_rows_read_than_one_batch
  FROM pg_stat_xact_user_tables t WHERE t.relid = 'llm_econ.spend'::regclass;
COMMIT;
DELETE FROM spend;

-- 6. Blank lines are lines of the file: 1,500 of them after data line 2,000 fill whole batches of
-- 1,024 staged lines that hold no record, and the lines after them keep their file line numbers
-- (data line 2,001 is file line 3,502: the header, 2,000 lines, 1,500 blank ones).
SET work_mem = '64kB';
SELECT pg_temp.stage(2000);
INSERT INTO focus_staging (line) SELECT '' FROM generate_series(1, 1500);
INSERT INTO focus_staging (line) SELECT line FROM big_raw WHERE n BETWEEN 2001 AND 2100 ORDER BY n;
SELECT * FROM load_focus(source => 'blank lines');
RESET work_mem;
SELECT min(line) FILTER (WHERE resource_id = 'i-2000') AS line_of_2000, min(line) FILTER (WHERE resource_id = 'i-2001') AS line_of_2001,
       max(line) AS last_line, count(*) AS lines
  FROM spend;
DELETE FROM spend;

-- 7. Mode replace stores its lines by a plain INSERT (the statements it covers are emptied first,
-- under its lock).  A stored copy of a line under another statement (here moved there by an
-- UPDATE) is skipped, as an ON CONFLICT DO NOTHING skipped it: the INSERT meets it as a unique
-- violation, and the load starts again, skipping stored charges.
SELECT * FROM import_focus((SELECT string_agg(line, E'\n' ORDER BY n) FROM big_raw WHERE n <= 50), source => 'first');
UPDATE spend SET provider = 'moved' WHERE line = 2;
SELECT * FROM import_focus((SELECT string_agg(line, E'\n' ORDER BY n) FROM big_raw WHERE n <= 50), source => 'again');
SELECT provider, source, count(*) FROM spend GROUP BY 1, 2 ORDER BY 1, 2;
SET work_mem = '64kB';
SELECT pg_temp.stage(3000);
SELECT * FROM load_focus(source => 'staged');
RESET work_mem;
SELECT provider, source, count(*), max(occurrence) FROM spend GROUP BY 1, 2 ORDER BY 1, 2;
DELETE FROM spend;

DROP OWNED BY regress_fb_t;
DROP ROLE regress_fb_t;
