-- Deliveries as the clouds make them (issue 44): a month in several files, each with its own
-- header (AWS export parts, one Azure export per subscription), loaded as one delivery or one
-- after the other; mode replace replaces only the statements (provider, billing account,
-- sub-account, billing period) a delivery covers; identifiers compare as
-- their provider defines them.  Every expected figure is the files' own cells added by hand (in
-- the comments), never a stored total read back.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/focus_common.sql

CREATE TEMP VIEW month AS
  SELECT provider, count(*) AS lines, sum(billed_cost) AS billed, sum(gpu_hours) AS gpu_hours
    FROM spend GROUP BY provider;

-- 1. AWS January in two numbered parts, each with its header, staged one after the other and loaded
-- once: part 1 is three days of p5.48xlarge at 24 h x 2,359.68; part 2 one more day, S3 34.97 and
-- tax 755.20.  Billed 4 x 2,359.68 + 34.97 + 755.20 = 10,228.89 in 6 lines; GPU-hours 4 x 24 x 8 = 768.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00001.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00002.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(source => 'aws parts');
SELECT lines = 6 AS six_lines, billed = 4 * 2359.68 + 34.97 + 755.20 AS billed_right, gpu_hours = 4 * 24 * 8 AS gpu_hours_right
  FROM month WHERE provider = 'aws';
-- the part-2 lines keep part 2's columns (the tax line has no usage type, no GPU-hours)
SELECT charge_category, line, gpu_hours FROM spend WHERE provider = 'aws' ORDER BY charge_period_start, line;

-- 2. The same parts loaded one by one: in mode replace part 2 is the whole statement (provider,
-- account, sub-account, month) and would replace part 1 (a part cannot tell itself from a restatement): the
-- parts of one export are staged together (1), or the later ones loaded in mode append.  Same
-- figures as in 1.
DELETE FROM spend;
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00001.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'aws part 1');
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00002.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'aws part 2', mode => 'append');
SELECT lines = 6 AS six_lines, billed = 4 * 2359.68 + 34.97 + 755.20 AS billed_right, gpu_hours = 4 * 24 * 8 AS gpu_hours_right
  FROM month WHERE provider = 'aws';

-- 3. A re-export of Jan 10-13 only (its three daily lines, unchanged): mode replace would make it
-- the whole statement (it cannot tell itself from a restatement that dropped days), so it is
-- loaded in mode append: its lines are stored already and skipped; still 10,228.89 in 6 lines.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_reexport_jan10_13.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(source => 'aws re-export', mode => 'append');
SELECT lines = 6 AS six_lines, billed = 4 * 2359.68 + 34.97 + 755.20 AS billed_right FROM month WHERE provider = 'aws';

-- 3b. The same re-export in mode replace (the default) is refused, nothing lost: it covers Jan 10 to
-- Jan 13 of the statement, whose stored lines run Jan 1 to Feb 1 (S3 and tax for the month, the
-- p5 day from Jan 9); replacing would drop those.  The lines stay staged, and the HINT's mode
-- append loads them (3 skipped).  import_focus refuses the same text alike.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_reexport_jan10_13.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT pg_temp.error_code($$SELECT * FROM llm_econ.load_focus(source => 'aws re-export, replace')$$);
SELECT lines = 6 AS six_lines, billed = 4 * 2359.68 + 34.97 + 755.20 AS billed_right FROM month WHERE provider = 'aws';
SELECT inserted, skipped, replaced FROM load_focus(source => 'aws re-export', mode => 'append');
\set reexport `cat test/data/focus/deliveries/aws_reexport_jan10_13.csv`
SELECT pg_temp.error_code($$SELECT * FROM llm_econ.import_focus($$ || quote_literal(:'reexport') || $$)$$);
SELECT lines = 6 AS six_lines, billed = 4 * 2359.68 + 34.97 + 755.20 AS billed_right FROM month WHERE provider = 'aws';
-- the refusal names the statement in any session TimeZone as UTC
SET TimeZone = 'Asia/Tokyo';
SELECT pg_temp.error_code($$SELECT * FROM llm_econ.import_focus($$ || quote_literal(:'reexport') || $$)$$);
SET TimeZone = 'UTC';

-- 4. The whole month again, its account written " 123456789012 " in part 1: the same statement
-- (AWS account ids compare trimmed), replaced, not counted twice.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00001_spaced.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00002.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'aws again');
SELECT lines = 6 AS six_lines, billed = 4 * 2359.68 + 34.97 + 755.20 AS billed_right FROM month WHERE provider = 'aws';
-- stored as written
SELECT DISTINCT billing_account_id FROM spend WHERE provider = 'aws' ORDER BY 1;

-- 5. Azure January, one export per subscription of one billing account, loaded one after the other:
-- subscription aaaa-1111 2 x 2,450.40 + 120.75 = 5,021.55 EUR, bbbb-2222 4,900.80 + 35.10 =
-- 4,935.90 EUR; together 9,957.45 EUR in 5 lines, GPU-hours (24 + 24 + 48) x 8 = 768.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_a.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'azure a');
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_b.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'azure b');
SELECT lines = 5 AS five_lines, billed = 2 * 2450.40 + 120.75 + 4900.80 + 35.10 AS billed_right,
       gpu_hours = (24 + 24 + 48) * 8 AS gpu_hours_right
  FROM month WHERE provider = 'azure';

-- 6. Subscription aaaa-1111 delivered again with its billing account and subscription ids in other
-- case and a trailing blank (Azure ids are case-insensitive): its 3 lines replaced, nothing counted
-- twice, bbbb-2222 untouched; the ids stored as the new file writes them.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_a_recased.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'azure a again');
SELECT lines = 5 AS five_lines, billed = 2 * 2450.40 + 120.75 + 4900.80 + 35.10 AS billed_right,
       gpu_hours = (24 + 24 + 48) * 8 AS gpu_hours_right
  FROM month WHERE provider = 'azure';
SELECT billing_account_id, record ->> 'SubAccountId' AS sub_account, count(*) FROM spend WHERE provider = 'azure' GROUP BY 1, 2 ORDER BY 1, 2;

-- 7. Both subscriptions staged together and loaded as one delivery (mode replace): the same 5 lines.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_a.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_b.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, replaced FROM load_focus(source => 'azure both');
SELECT lines = 5 AS five_lines, billed = 2 * 2450.40 + 120.75 + 4900.80 + 35.10 AS billed_right FROM month WHERE provider = 'azure';

-- 8. Parts split across load batches (1,024 staged ids a batch at this work_mem): AWS part 1's
-- header and 350 copies of its first two data lines, Azure bbbb-2222's file (other columns), then
-- AWS part 1's header and 350 more copies: each line read with the header of its part, also in
-- the batch that starts inside the last part.
DELETE FROM spend;
CREATE TEMP TABLE part1 (n serial, line text);
\copy part1 (line) FROM 'test/data/focus/deliveries/aws_part_00001.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
INSERT INTO focus_stage (line) SELECT line FROM part1 WHERE n = 1;
INSERT INTO focus_stage (line) SELECT p.line FROM generate_series(1, 350) g, part1 p WHERE p.n IN (2, 3) ORDER BY g, p.n;
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_b.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
INSERT INTO focus_stage (line) SELECT line FROM part1 WHERE n = 1;
INSERT INTO focus_stage (line) SELECT p.line FROM generate_series(1, 350) g, part1 p WHERE p.n IN (2, 3) ORDER BY g, p.n;
SET work_mem = '64kB';
SELECT inserted FROM load_focus(source => 'batches', mode => 'append');
RESET work_mem;
-- 2 x 350 copies of two AWS lines twice, and bbbb-2222's two lines: 1,400 + 2 lines
SELECT provider, lines, billed = CASE provider WHEN 'aws' THEN 1400 * 2359.68 ELSE 4900.80 + 35.10 END AS billed_right
  FROM month ORDER BY provider;

-- 8b. What a delivery covers is what all its batches cover: the whole January (parts 1 and 2, 6
-- lines) stored, then a delivery in mode replace of 1,100 copies of Jan 9's p5 line (the first
-- batch: Jan 9 to 10 only) and part 2's tax line for the month (in the second batch): it covers
-- Jan 1 to Feb 1, so it replaces the 6 lines; 1,100 x 2,359.68 + 755.20 in 1,101 lines.
DELETE FROM spend;
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00001.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00002.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted FROM load_focus(source => 'january');
CREATE TEMP TABLE part2 (n serial, line text);
\copy part2 (line) FROM 'test/data/focus/deliveries/aws_part_00002.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
INSERT INTO focus_stage (line) SELECT line FROM part1 WHERE n = 1;
INSERT INTO focus_stage (line) SELECT p.line FROM generate_series(1, 1100) g, part1 p WHERE p.n = 2 ORDER BY g;
INSERT INTO focus_stage (line) SELECT line FROM part2 WHERE n IN (1, 4) ORDER BY n;
SET work_mem = '64kB';
SELECT inserted, replaced FROM load_focus(source => 'two batches');
RESET work_mem;
SELECT lines = 1101 AS lines_right, billed = 1100 * 2359.68 + 755.20 AS billed_right FROM month WHERE provider = 'aws';
DELETE FROM spend;
