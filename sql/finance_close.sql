-- Closing the books: idempotent and restatement-aware FOCUS imports, currencies, tenants, the whole invoice, the variance split, plans that never drift, times and numbers, the staged path, quiet refusals.
-- Each part is a finding of issue 13 that 0.2.0 got wrong.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql

-- The FOCUS 1.0 sample: BilledCost sums to 20.52022672899 and EffectiveCost to 14.97651418586
-- (summed exactly outside PostgreSQL).  After every re-import below the totals must stay these.
\set sample `cat test/data/focus/focus_1.0_sample_1000.csv`
CREATE TEMP VIEW sample_totals AS
  SELECT count(*) AS lines, sum(billed_cost) AS billed, sum(effective_cost) AS effective,
         sum(billed_cost) = 20.52022672899 AND sum(effective_cost) = 14.97651418586 AS exact
    FROM llm_econ.spend WHERE tenant = CURRENT_USER AND source LIKE 'sample%';
SELECT * FROM import_focus(:'sample', source => 'sample');
SELECT * FROM sample_totals;

-- 1. Re-imports never count a charge twice (0.2.0 hashed the raw line: each of these added lines).
-- a. run_id added to the Tags of 8 lines (the 0.2.0 total went from 20.52 to 30.72)
SELECT string_agg(CASE WHEN n BETWEEN 2 AND 9 THEN
                         CASE WHEN l LIKE '%,NULL' THEN left(l, -4) || '"{""run_id"": ""run-x""}"'
                              ELSE regexp_replace(l, '"\{(""[^"]*"")', '"{""run_id"": ""run-x"", \1') END
                       ELSE l END, E'\n' ORDER BY n) AS tagged
  FROM string_to_table(rtrim(:'sample', E'\n'), E'\n') WITH ORDINALITY AS t(l, n) \gset
SELECT count(*) AS lines_with_run_tag FROM _focus_lines(:'tagged', 'tagged') WHERE run_id = 'run-x';
SELECT * FROM import_focus(:'tagged', source => 'sample tagged', mode => 'append');
SELECT * FROM sample_totals;
-- b. a column added (an exporter's new x_ column)
SELECT * FROM import_focus(regexp_replace(:'sample' || E'\n', E'\n', E',"x_Extra"\n', 'g'), source => 'sample extra column', mode => 'append');
SELECT * FROM sample_totals;
-- c. timestamps written as 2024-09-18T22:00:00Z instead of 2024-09-18 22:00:00
SELECT * FROM import_focus(regexp_replace(:'sample', '"([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9:]{8})"', '"\1T\2Z"', 'g'),
                           source => 'sample Z times', mode => 'append');
SELECT * FROM sample_totals;
-- d. numbers written with fewer zeros (2.000000000000000 -> 2.0) and the rows in reverse order
SELECT string_agg(regexp_replace(regexp_replace(l, '(\.[0-9]*[1-9])0+(,|$)', '\1\2', 'g'), '(\.0)0+(,|$)', '\1\2', 'g'),
                  E'\n' ORDER BY n DESC) AS reordered
  FROM string_to_table(rtrim(:'sample', E'\n'), E'\n') WITH ORDINALITY AS t(l, n) WHERE n > 1 \gset
SELECT * FROM import_focus(split_part(:'sample', E'\n', 1) || E'\n' || :'reordered', source => 'sample reordered', mode => 'append');
SELECT * FROM sample_totals;

-- 2. Restated bills and split deliveries.  A bill for 2025-01 of account 111, delivered as "jan v1";
-- the provider restates it ("jan v2": one line corrected, one removed, one added); then a third
-- delivery comes as three files.  The same account's 2025-02 bill and another account's 2025-01
-- bill are left alone by all of it.
\set head 'BilledCost,EffectiveCost,BillingCurrency,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,Tags'
\set jan ',USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage'
SELECT * FROM import_focus(:'head' || E'\n' ||
  '100.00,100.00' || :'jan' || E',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-1,NULL\n' ||
  '200.00,200.00' || :'jan' || E',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-2,NULL\n' ||
  '300.00,300.00' || :'jan' || E',2025-01-07T00:00:00Z,2025-01-08T00:00:00Z,AWS,i-3,NULL\n',
  source => 'jan-v1.csv', delivery => 'jan v1');
SELECT * FROM import_focus(:'head' || E'\n' ||
  E'50.00,50.00,USD,111,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,Usage,2025-02-02T00:00:00Z,2025-02-03T00:00:00Z,AWS,i-1,NULL\n' ||
  E'70.00,70.00,USD,222,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,2025-01-02T00:00:00Z,2025-01-03T00:00:00Z,AWS,i-9,NULL\n',
  source => 'other.csv', delivery => 'other');
CREATE TEMP VIEW restated AS
  SELECT billing_account_id AS account, billing_period_start::date AS period, count(*) AS lines,
         sum(billed_cost) AS billed, string_agg(DISTINCT delivery, ', ') AS deliveries
    FROM spend WHERE source NOT LIKE 'sample%' GROUP BY 1, 2 ORDER BY 1, 2;
SELECT * FROM restated;
-- the restatement replaces the period: 100 + 250 (corrected) + 400 (new) = 750, not 600 + 750
SELECT * FROM import_focus(:'head' || E'\n' ||
  '100.00,100.00' || :'jan' || E',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-1,NULL\n' ||
  '250.00,250.00' || :'jan' || E',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-2,NULL\n' ||
  '400.00,400.00' || :'jan' || E',2025-01-08T00:00:00Z,2025-01-09T00:00:00Z,AWS,i-4,NULL\n',
  source => 'jan-v2.csv', delivery => 'jan v2');
SELECT * FROM restated;
-- importing the same delivery again changes nothing
SELECT * FROM import_focus(:'head' || E'\n' ||
  '250.00,250.00' || :'jan' || E',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-2,NULL\n',
  source => 'jan-v2.csv', delivery => 'jan v2', mode => 'append');
-- a delivery in three files: its first file alone in mode replace covers Jan 5 to 7 of a
-- statement stored from Jan 5 to 9, and is refused (0.5.0: it would drop Jan 7 to 9; nothing
-- lost); the three files staged together load as one (10 + 20 + 30 + 40 = 100)
SELECT * FROM import_focus(:'head' || E'\n' ||
  '10.00,10.00' || :'jan' || E',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-1,NULL\n' ||
  '20.00,20.00' || :'jan' || E',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-2,NULL\n',
  source => 'jan-v3-part1.csv', delivery => 'jan v3');
SELECT * FROM restated;
INSERT INTO focus_staging (line) VALUES (:'head'),
  ('10.00,10.00' || :'jan' || ',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-1,NULL'),
  ('20.00,20.00' || :'jan' || ',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-2,NULL'),
  (:'head'), ('30.00,30.00' || :'jan' || ',2025-01-07T00:00:00Z,2025-01-08T00:00:00Z,AWS,i-3,NULL'),
  (:'head'), ('40.00,40.00' || :'jan' || ',2025-01-08T00:00:00Z,2025-01-09T00:00:00Z,AWS,i-4,NULL');
SELECT * FROM load_focus(source => 'jan-v3-parts.csv', delivery => 'jan v3');
SELECT * FROM restated;
-- mode append only adds charges it does not know: here none
SELECT * FROM import_focus(:'head' || E'\n' ||
  '40.00,40.00' || :'jan' || E',2025-01-08T00:00:00Z,2025-01-09T00:00:00Z,AWS,i-4,NULL\n', source => 'again.csv', mode => 'append');
SELECT * FROM sample_totals;
DELETE FROM spend WHERE source NOT LIKE 'sample%';

-- 3. Currencies: a EUR line is never summed as USD.  Without a rate it shows as unconverted;
-- with the rate in effect at its charge period start it is converted (100 EUR x 1.08 + 5 USD = 113 USD).
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '100.00,100.00,EUR,2025-03-10T00:00:00Z,2025-03-11T00:00:00Z,Microsoft,"{""run_id"": ""eur-run""}",111,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage\n'
  '5.00,5.00,USD,2025-03-10T00:00:00Z,2025-03-11T00:00:00Z,Microsoft,"{""run_id"": ""eur-run""}",111,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage\n',
  source => 'eur');
SELECT run_id, billed_usd, effective_usd, unconverted_lines, unconverted_currencies FROM plan_vs_actual WHERE run_id = 'eur-run';
SELECT "time", provider, billed_usd, lines, unconverted_lines FROM spend_daily WHERE provider = 'azure' AND "time" >= '2025-01-01';
INSERT INTO fx_rate (currency, valid_from, usd_per_unit, source) VALUES
  ('EUR', '2025-01-01', 1.03, 'test rate'), ('EUR', '2025-03-01', 1.08, 'test rate'), ('EUR', '2025-04-01', 1.10, 'test rate');
SELECT run_id, billed_usd, effective_usd, unconverted_lines, unconverted_currencies FROM plan_vs_actual WHERE run_id = 'eur-run';
SELECT "time", provider, billed_usd, lines, unconverted_lines FROM spend_daily WHERE provider = 'azure' AND "time" >= '2025-01-01';
-- rates are checked
INSERT INTO fx_rate (currency, valid_from, usd_per_unit, source) VALUES ('eur', '2025-01-01', 1.03, 'lower case');
INSERT INTO fx_rate (currency, valid_from, usd_per_unit, source) VALUES ('GBP', '2025-01-01', 0, 'zero');
DELETE FROM spend WHERE source = 'eur';
DELETE FROM fx_rate;

-- 4. The whole invoice: spend without a run is in plan_vs_actual as "untagged", per tenant and
-- provider, so the view's billed total is the sample's.
SELECT status, tenant = CURRENT_USER AS mine, provider, billed_usd, effective_usd FROM plan_vs_actual ORDER BY provider;
SELECT sum(billed_usd) AS view_billed, sum(effective_usd) AS view_effective,
       sum(billed_usd) = 20.52022672899 AND sum(effective_usd) = 14.97651418586 AS equals_invoices
  FROM plan_vs_actual;

-- 5. Variance split, by hand: 1B params, 200B tokens on 8 H100 at MFU 0.40 and $2.00/GPU-h:
-- 1.2e21 FLOPs / (8 x 0.4 x 989e12) = 105.3252 h = 842.6020 GPU-hours, $1,685.20 planned.  Billed:
-- 125 hours of one p5.48xlarge = 1,000 GPU-hours for $2,500 ($2.50/GPU-h).  Usage variance
-- (1000 - 842.6020) x 2.00 = 314.80; price variance (2.50 - 2.00) x 1000 = 500.00; together
-- 814.80 = 2500 - 1685.20.  Implied MFU 0.40 x 842.6020 / 1000 = 0.3370: the extra GPU-hours are
-- lower efficiency.
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, planned_at)
VALUES ('var-1', run_spec(1e9, 2e11, 8, 'H100', mfu => 0.4), 'aws', 2.00, '2025-03-01');
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,ConsumedUnit,SkuPriceDetails,Tags,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '2500.00,2500.00,USD,2025-03-10T00:00:00Z,2025-03-15T05:00:00Z,AWS,125,Hours,"{""InstanceType"": ""p5.48xlarge"", ""GpuCount"": 8}","{""run_id"": ""var-1""}",111,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage\n',
  source => 'variance');
SELECT run_id, planned_usd, effective_usd, variance_usd, price_variance_usd, usage_variance_usd,
       price_variance_usd + usage_variance_usd = variance_usd AS adds_up,
       planned_usd_per_gpu_hour, actual_usd_per_gpu_hour, round(planned_gpu_hours::numeric, 4) AS planned_gpu_hours,
       actual_gpu_hours, round(implied_mfu::numeric, 4) AS implied_mfu
  FROM plan_vs_actual WHERE run_id = 'var-1';
-- and on the FOCUS 1.3 test bill: every run with GPU-hours on both sides adds up
\set runs `cat test/data/focus/focus_1.3_runs.csv`
INSERT INTO run_plan (run_id, spec, provider, region, planned_at, usd_per_gpu_hour)
VALUES ('run-1b', run_spec(1e9, 2e11, 8, 'H100', mfu => 0.4), 'aws', 'us-east-1', '2025-03-01', 12.29);
SELECT * FROM import_focus(:'runs', source => 'runs');
SELECT run_id, status, variance_usd, price_variance_usd, usage_variance_usd,
       price_variance_usd + usage_variance_usd = variance_usd AS adds_up
  FROM plan_vs_actual WHERE run_id IS NOT NULL ORDER BY run_id;
-- readable money: cents for planned USD and the variances, 6 decimals for rates (0.2.0 showed
-- planned_usd and variance_usd with 15 decimals); billed and effective stay the lines' exact sums
SELECT max(scale(planned_usd)) AS planned, max(scale(variance_usd)) AS variance, max(scale(usage_variance_usd)) AS usage,
       max(scale(price_variance_usd)) AS price, max(scale(planned_usd_per_gpu_hour)) AS planned_rate,
       max(scale(actual_usd_per_gpu_hour)) AS actual_rate
  FROM plan_vs_actual WHERE status = 'planned and billed';
DELETE FROM spend WHERE source IN ('variance', 'runs');
DELETE FROM run_plan;

-- 6. Plans never drift.  A lambda spot plan ($2.49 in the seed prices) moved to gcp on-demand is
-- re-priced from the price table (0.2.0 kept $2.49); a price given in the same UPDATE is kept;
-- notes and team do not re-price (nor a hand edit of planned_usd); another spec at the same SKU
-- keeps the price and recomputes the USD (MFU 0.45 -> 0.5: 73,032.99 x 0.45 / 0.5 = 65,729.69).
INSERT INTO run_plan (run_id, spec, provider, pricing, planned_at)
VALUES ('moved', run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), 'lambda', 'spot', '2025-03-01');
SELECT run_id, provider, pricing, usd_per_gpu_hour, round(planned_usd, 2) AS planned_usd FROM run_plan;
UPDATE run_plan SET provider = 'gcp', pricing = 'on_demand', region = 'us-central1' WHERE run_id = 'moved';
SELECT run_id, provider, pricing, usd_per_gpu_hour,
       usd_per_gpu_hour = price_at('H100-SXM5', 'gcp', 'on_demand', '2025-03-01', 'us-central1') AS gcp_price,
       planned_usd = estimate_cost(spec, usd_per_gpu_hour) AS consistent FROM run_plan;
UPDATE run_plan SET planned_at = '2024-06-01' WHERE run_id = 'moved';
SELECT run_id, planned_at, usd_per_gpu_hour = price_at('H100-SXM5', 'gcp', 'on_demand', '2024-06-01', 'us-central1') AS price_then
  FROM run_plan;
UPDATE run_plan SET provider = 'lambda', pricing = 'spot', region = NULL, usd_per_gpu_hour = 1.99 WHERE run_id = 'moved';
SELECT run_id, provider, usd_per_gpu_hour, round(planned_usd, 2) AS planned_usd FROM run_plan;
UPDATE run_plan SET notes = 'negotiated', team = 'pretrain', planned_usd = 1 WHERE run_id = 'moved';
SELECT run_id, usd_per_gpu_hour, round(planned_usd, 2) AS planned_usd, notes FROM run_plan;
UPDATE run_plan SET spec = run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.5) WHERE run_id = 'moved';
SELECT run_id, usd_per_gpu_hour, round(planned_usd, 2) AS planned_usd FROM run_plan;
-- a move to where no price is known is refused, not left at the old price
UPDATE run_plan SET provider = 'nosuchcloud' WHERE run_id = 'moved';
DELETE FROM run_plan;

-- 7. Times and numbers.  (The files of part 7 name account 111 for 2024 and account 900 for
-- January 2025, so that no load here replaces account 111's January 2025 bill of part 2.)
-- a. A date-only ChargePeriodStart is UTC whatever the session's TimeZone (0.2.0 read
-- "2024-01-01" as an offset of -01 hours, and in Asia/Tokyo it landed in December).
SET TimeZone = 'Asia/Tokyo';
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '1.00,1.00,2024-01-01,2024-01-02,AWS,111,USD,2024-01-01T00:00:00Z,2024-02-01T00:00:00Z,Usage\n2.00,2.00,2024-01-01 00:00,2024-01-01T01:00:00,AWS,111,USD,2024-01-01T00:00:00Z,2024-02-01T00:00:00Z,Usage\n', source => 'tokyo');
SET TimeZone = 'UTC';
SELECT charge_period_start, charge_period_end FROM spend WHERE source = 'tokyo' ORDER BY line;
SELECT "time", billed_usd FROM spend_daily WHERE "time" < '2024-02-01';
DELETE FROM spend WHERE source = 'tokyo';
-- b. every bad line is an error naming the line and the column (CONTEXT); nothing is imported
SELECT count(*) AS spend_before FROM spend \gset
\set h 'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,ConsumedUnit,SkuPriceDetails,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory'
-- a fractional GpuCount (0.2.0 rounded 0.5 to 1)
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,2025-01-01,2025-01-02,AWS,1,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
                           || E'1,1,2025-01-01,2025-01-02,AWS,1,Hours,"{""InstanceType"": ""p5.48xlarge"", ""GpuCount"": 0.5}",900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
-- required fields that are NULL (0.2.0: "RAISE statement option cannot be null")
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\nNULL,1,2025-01-01,2025-01-02,AWS,1,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,,2025-01-02,AWS,1,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,2025-01-01,2025-01-02,NULL,1,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
-- a number that is not one, a timestamp that is not one, a date-only one with an offset
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,2025-01-01,2025-01-02,AWS,1e9999,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,yesterday,2025-01-02,AWS,1,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,2025-01-01-05,2025-01-02,AWS,1,Hours,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
-- c. an extreme quantity: 0.2.0 stored it and SELECT * FROM plan_vs_actual failed for everyone
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'h' || E'\n1,1,2025-01-01,2025-01-02,AWS,1e12,Hours,"{""InstanceType"": ""p5.48xlarge"", ""GpuCount"": 8}",900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n')) AS error;
-- a quantity that big on a line that is not GPU hours is stored as it is
SELECT * FROM import_focus(:'h' || E'\n1,1,2025-01-01,2025-01-02,AWS,1e12,Requests,NULL,900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', source => 'requests');
SELECT count(*) AS views_work FROM plan_vs_actual;
DELETE FROM spend WHERE source = 'requests';
SELECT count(*) AS spend_unchanged FROM spend HAVING count(*) = :spend_before;

-- 8. FOCUS 1.3: ServiceProviderName wins over ProviderName, HostProviderName and Allocated*
-- columns are read, unknown columns stay in record; the columns spend types (costs, periods,
-- Tags, ...) are in their columns and not repeated in record.
SELECT provider, resource_id, billed_cost, charge_period_start, tags, record->>'x_Unknown' AS kept, record
  FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceProviderName,HostProviderName,AllocatedResourceId,x_Unknown,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                    '1.50,1,2025-01-01,2025-01-02,Microsoft,Acme GPU Cloud,Microsoft,alloc-7,kept,"{""team"": ""a""}",900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'csv');

-- 9. The staged path: \copy the file into focus_staging (one physical line per row), then
-- load_focus().  The sample loads with the same totals; loading it again adds nothing.
DELETE FROM spend;
\copy llm_econ.focus_staging (line) FROM 'test/data/focus/focus_1.0_sample_1000.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT count(*) AS staged FROM focus_staging;
SELECT * FROM load_focus(source => 'sample staged');
SELECT * FROM sample_totals;
SELECT count(*) AS staging_emptied FROM focus_staging;
\copy llm_econ.focus_staging (line) FROM 'test/data/focus/focus_1.0_sample_1000.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT * FROM load_focus(source => 'sample staged again', mode => 'append');
SELECT * FROM sample_totals;
-- a quoted field holding line ends spans staged rows; the line numbers are the file's
\copy llm_econ.focus_staging (line) FROM 'test/data/focus/multiline.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT * FROM load_focus(source => 'multiline');
SELECT line, billed_cost, charge_description, run_id FROM spend WHERE source = 'multiline' ORDER BY line;
-- and a bad staged line is named by its file line
INSERT INTO focus_staging (line) VALUES ('BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName'),
  ('900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,1,1,2025-01-01,2025-01-02,AWS'), ('900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,1,x,2025-01-01,2025-01-02,AWS');
SELECT pg_temp.error_report('SELECT * FROM load_focus()') AS error;
SELECT count(*) AS staging_kept_after_error FROM focus_staging;
DELETE FROM focus_staging;
-- nothing staged: nothing loaded
SELECT * FROM load_focus();
DELETE FROM spend WHERE source = 'multiline';
-- load_focus numbers the copies of a charge while streaming, in a table of at most work_mem x
-- hash_mem_multiplier, and inserts in statements of at most work_mem / 64 lines: at 64 kB and 1.0
-- (a table of 2,048 slots, room for 1,843 charges; 1,024 lines a statement) a file of 5,000 lines
-- where line i and line i + 2,500 are the same charge takes 5 statements and numbers 1,843
-- charges in the first round and the other 657 in a second one (their lines typed into a
-- tuplestore meanwhile, across statements).  Each copy is stored once, the first as occurrence 1
-- and the second as 2, and loading the file again adds nothing.
SET work_mem = '64kB';
SET hash_mem_multiplier = 1.0;
INSERT INTO focus_staging (line) VALUES ('BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId');
INSERT INTO focus_staging (line)
SELECT format('900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,%s,%s,2025-01-01,2025-01-02,AWS,r-%s', i % 2500 + 1, i % 2500 + 1, i % 2500)
  FROM generate_series(0, 4999) AS i ORDER BY i;
SELECT * FROM load_focus(source => 'rounds');
SELECT occurrence, count(*) AS lines, count(DISTINCT row_hash) AS charges, sum(billed_cost) AS billed
  FROM spend WHERE source = 'rounds' GROUP BY 1 ORDER BY 1;
SELECT count(*) AS second_copy_is_2500_lines_later
  FROM spend a JOIN spend b ON b.row_hash = a.row_hash AND b.tenant = a.tenant
 WHERE a.source = 'rounds' AND b.source = 'rounds' AND a.occurrence = 1 AND b.occurrence = 2 AND b.line = a.line + 2500;
INSERT INTO focus_staging (line) VALUES ('BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId');
INSERT INTO focus_staging (line)
SELECT format('900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,%s,%s,2025-01-01,2025-01-02,AWS,r-%s', i % 2500 + 1, i % 2500 + 1, i % 2500)
  FROM generate_series(0, 4999) AS i ORDER BY i;
SELECT * FROM load_focus(source => 'rounds again', mode => 'append');
-- a load that fails after some of its statements (caught, so rolled back to the subtransaction
-- around it) leaves nothing and does not disturb the next load of the transaction
BEGIN;
INSERT INTO focus_staging (line) VALUES ('BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId');
INSERT INTO focus_staging (line)
SELECT format('900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,%s,%s,2025-01-01,2025-01-02,AWS,h-%s', i, i, i) FROM generate_series(1, 2500) AS i ORDER BY i;
INSERT INTO focus_staging (line) VALUES ('900,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,1,x,2025-01-01,2025-01-02,AWS,h-bad');
SELECT pg_temp.error_report($$SELECT * FROM load_focus(source => 'half')$$) AS error;
SELECT count(*) AS half_loaded FROM spend WHERE source = 'half';
DELETE FROM focus_staging WHERE line LIKE '%h-bad';
SELECT * FROM load_focus(source => 'half');
COMMIT;
SELECT count(*) AS lines, sum(billed_cost) AS billed FROM spend WHERE source = 'half';
RESET work_mem;
RESET hash_mem_multiplier;
DELETE FROM spend WHERE source IN ('rounds', 'half');
-- deliveries on the staged path: a first pass reads the file's billing periods, whose lines from
-- earlier deliveries are replaced, even when the restatement writes the period date-only (the
-- same instant); a delivery in two files loads both, and loading one of them again adds nothing.
INSERT INTO focus_staging (line) VALUES (:'head'),
  ('100.00,100.00' || :'jan' || ',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-1,NULL'),
  ('200.00,200.00' || :'jan' || ',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-2,NULL');
SELECT * FROM load_focus(source => 'staged-v1.csv', delivery => 'staged v1');
INSERT INTO focus_staging (line) VALUES (:'head'), ('100.00,100.00,USD,111,2025-01-01,2025-02-01,Usage,2025-01-05,2025-01-06,AWS,i-1,NULL'),
  ('250.00,250.00,USD,111,2025-01-01,2025-02-01,Usage,2025-01-06,2025-01-07,AWS,i-2,NULL');
SELECT * FROM load_focus(source => 'staged-v2a.csv', delivery => 'staged v2');
INSERT INTO focus_staging (line) VALUES (:'head'),
  ('400.00,400.00' || :'jan' || ',2025-01-08T00:00:00Z,2025-01-09T00:00:00Z,AWS,i-4,NULL');
SELECT * FROM load_focus(source => 'staged-v2b.csv', delivery => 'staged v2', mode => 'append');
SELECT * FROM restated;
INSERT INTO focus_staging (line) VALUES (:'head'),
  ('400.00,400.00' || :'jan' || ',2025-01-08T00:00:00Z,2025-01-09T00:00:00Z,AWS,i-4,NULL');
SELECT * FROM load_focus(source => 'staged-v2b.csv', delivery => 'staged v2', mode => 'append');
-- a bill with no billing period and no account (both empty): a delivery replaces the lines of the
-- earlier delivery that had none either (found as both NULL, not by the period index's =), and
-- no line of account 111's 2025-01 bill; on the staged path and from text alike
\set nop ',USD,,,,Usage'
INSERT INTO focus_staging (line) VALUES (:'head'),
  ('5.00,5.00' || :'nop' || ',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-7,NULL'),
  ('6.00,6.00' || :'nop' || ',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-8,NULL');
SELECT * FROM load_focus(source => 'staged-nop1.csv', delivery => 'nop v1');
INSERT INTO focus_staging (line) VALUES (:'head'),
  ('5.50,5.50' || :'nop' || ',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-7,NULL'),
  ('7.00,7.00' || :'nop' || ',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-8,NULL');
SELECT * FROM load_focus(source => 'staged-nop2.csv', delivery => 'nop v2');
SELECT * FROM restated;
SELECT * FROM import_focus(:'head' || E'\n' ||
  '5.00,5.00' || :'nop' || E',2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,i-7,NULL\n' ||
  '9.00,9.00' || :'nop' || E',2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,i-8,NULL\n',
  source => 'staged-nop3.csv', delivery => 'nop v3');
SELECT * FROM restated;
DELETE FROM spend WHERE source LIKE 'staged-%';

-- 10. Tenants: two tenants use the same run id; each sees its own plan and spend, and neither
-- learns that the other used it (0.2.0: a duplicate-key error naming the other tenant's run).
CREATE ROLE regress_close_a;
CREATE ROLE regress_close_b;
CREATE ROLE regress_close_alice LOGIN IN ROLE regress_close_a;
CREATE ROLE regress_close_bob LOGIN IN ROLE regress_close_b;
CREATE ROLE regress_close_nobody LOGIN;
GRANT SELECT, INSERT, UPDATE, DELETE ON run_plan, spend TO regress_close_a, regress_close_b;
GRANT USAGE ON SEQUENCE spend_id_seq TO regress_close_a, regress_close_b;
SET ROLE regress_close_alice;
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, tenant)
VALUES ('shared-run', run_spec(1e9, 2e11, 8, 'H100'), 'aws', 12.29, 'regress_close_a');
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '100,100,2025-03-01,2025-03-02,AWS,"{""run_id"": ""shared-run""}",111,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage\n', tenant => 'regress_close_a', source => 'a');
RESET ROLE;
SET ROLE regress_close_bob;
-- the same run id: no error, nothing learnt
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, tenant)
VALUES ('shared-run', run_spec(1e9, 2e11, 8, 'H100'), 'aws', 2.00, 'regress_close_b');
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '7,7,2025-03-01,2025-03-02,AWS,"{""run_id"": ""shared-run""}",111,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage\n'
  '1,1,2025-03-01,2025-03-02,AWS,NULL,111,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage\n', tenant => 'regress_close_b', source => 'b');
SELECT run_id, tenant, status, round(planned_usd) AS planned_usd, billed_usd FROM plan_vs_actual ORDER BY status;
-- a duplicate within one's own tenant is still an error
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, tenant)
VALUES ('shared-run', run_spec(1e9, 2e11, 8, 'H100'), 'aws', 2.00, 'regress_close_b');
RESET ROLE;
SET ROLE regress_close_alice;
SELECT run_id, tenant, status, round(planned_usd) AS planned_usd, billed_usd FROM plan_vs_actual ORDER BY status;
RESET ROLE;
-- the owner sees both, each with its own tenant's spend (0.2.0 summed them into one row)
SELECT run_id, tenant, status, provider, billed_usd FROM plan_vs_actual ORDER BY tenant, status, provider;

-- 11. Quiet refusals: one line naming the grant or the tenant, before any parsing, and the GRANT to
-- run in the HINT (0.2.0 printed 40-60 lines of internal SQL as CONTEXT).
\set SHOW_CONTEXT always
SET ROLE regress_close_nobody;
SELECT * FROM import_focus('this is not even read');
SELECT * FROM load_focus();
RESET ROLE;
SET ROLE regress_close_alice;
SELECT * FROM import_focus('not read either', tenant => 'regress_close_b');
RESET ROLE;
GRANT INSERT ON spend TO regress_close_nobody;
GRANT USAGE ON SEQUENCE spend_id_seq TO regress_close_nobody;
SET ROLE regress_close_nobody;
SELECT * FROM import_focus('nor this', delivery => 'v2');
RESET ROLE;
\set SHOW_CONTEXT never

-- 12. The role recipe of the README: the writer passes the tenant, so the reader sees the writer's plans.
CREATE ROLE regress_close_team NOLOGIN;
CREATE ROLE regress_close_grafana LOGIN IN ROLE regress_close_team;
CREATE ROLE regress_close_finops LOGIN IN ROLE regress_close_team;
GRANT SELECT ON run_plan, spend TO regress_close_team;
GRANT INSERT, UPDATE, DELETE ON run_plan, spend TO regress_close_finops;
GRANT USAGE ON SEQUENCE spend_id_seq TO regress_close_finops;
SET ROLE regress_close_finops;
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, tenant)
VALUES ('team-run', run_spec(1e9, 2e11, 8, 'H100'), 'aws', 2.00, 'regress_close_team');
RESET ROLE;
SET ROLE regress_close_grafana;
SELECT run_id, tenant, status FROM plan_vs_actual;
RESET ROLE;

DROP OWNED BY regress_close_alice, regress_close_bob, regress_close_a, regress_close_b, regress_close_nobody,
              regress_close_team, regress_close_grafana, regress_close_finops;
DROP ROLE regress_close_alice, regress_close_bob, regress_close_a, regress_close_b, regress_close_nobody,
          regress_close_team, regress_close_grafana, regress_close_finops;

-- Leave the database as the other tests expect it.
DELETE FROM spend;
DELETE FROM run_plan;
DELETE FROM focus_staging;
