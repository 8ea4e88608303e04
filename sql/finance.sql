-- Finance: FOCUS imports (sample totals exact), frozen plans, plan vs actual, row-level security.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql

-- The official FOCUS 1.0 sample (1,000 anonymised AWS/Microsoft/Oracle lines, CC BY 4.0).
-- Its BilledCost sums to 20.52022672899 and EffectiveCost to 14.97651418586 (summed exactly,
-- outside PostgreSQL); the import keeps every line and the sums exactly.
\set sample `cat test/data/focus/focus_1.0_sample_1000.csv`
SELECT * FROM import_focus(:'sample', source => 'FOCUS 1.0 sample');
SELECT count(*) AS lines, sum(billed_cost) AS billed, sum(effective_cost) AS effective,
       sum(billed_cost) = 20.52022672899 AS billed_exact, sum(effective_cost) = 14.97651418586 AS effective_exact
  FROM spend WHERE source = 'FOCUS 1.0 sample';
SELECT provider, count(*) AS lines, sum(billed_cost) AS billed FROM spend WHERE source = 'FOCUS 1.0 sample'
 GROUP BY 1 ORDER BY 1;
-- GPU lines: AWS writes the machine type in the charge description (g5.4xlarge = 1 A10G).
SELECT sku, instance_type, gpus_per_instance, count(*) AS lines, sum(gpu_hours) AS gpu_hours, sum(billed_cost) AS billed
  FROM spend WHERE source = 'FOCUS 1.0 sample' AND gpu_hours IS NOT NULL GROUP BY 1, 2, 3;
-- NULL written as a word is NULL; nothing with a value is lost: of the 44 columns, the 19 that
-- spend types are its columns, and "record" keeps the others that have a value on the line (an
-- empty field or the word NULL is left out: ->> reads NULL for it).  Each record is checked
-- against its line as the generic CSV reader reads it (every column, NULL as JSON null).
SELECT count(*) FILTER (WHERE s.record->>'ChargeClass' IS NULL) AS charge_class_null,
       count(*) FILTER (WHERE s.record = jsonb_strip_nulls(c.record
         - '{BilledCost,EffectiveCost,ListCost,ConsumedQuantity,ConsumedUnit,ChargePeriodStart,ChargePeriodEnd,BillingPeriodStart,BillingPeriodEnd,ServiceName,ServiceCategory,ChargeCategory,ChargeDescription,PricingCategory,BillingCurrency,BillingAccountId,Tags,RegionId,ResourceId}'::text[]))
         AS record_is_the_rest,
       count(*) FILTER (WHERE jsonb_path_exists(s.record, '$.* ? (@ == null)')) AS nulls_in_record,
       count(*) FILTER (WHERE s.record ?| ARRAY['BilledCost', 'EffectiveCost', 'ChargePeriodStart', 'ServiceName',
                                                'ChargeDescription', 'Tags', 'BillingAccountId']) AS typed_in_record
  FROM spend s JOIN _csv_records(:'sample', 'sample') AS c ON c.line = s.line
 WHERE s.source = 'FOCUS 1.0 sample';
SELECT string_agg(DISTINCT k, E'\n' ORDER BY k) AS record_keys
  FROM spend, jsonb_object_keys(record) AS k WHERE source = 'FOCUS 1.0 sample';
-- Importing the same file again adds nothing.
SELECT * FROM import_focus(:'sample', source => 'FOCUS 1.0 sample', mode => 'append');

-- A plan, frozen when made: 1B parameters on 8 H100 (one p5.48xlarge) at AWS's $98.32 per
-- instance-hour = $12.29 per GPU-hour.  6 x 1e9 x 2e11 / (8 x 0.4 x 989e12) s = 105.3 h,
-- 842.6 GPU-hours, $10,355.58.
INSERT INTO run_plan (run_id, spec, provider, pricing, region, planned_at, usd_per_gpu_hour, team)
VALUES ('run-1b', run_spec(1e9, 2e11, 8, 'H100', mfu => 0.4), 'aws', 'on_demand', 'us-east-1', '2025-03-01', 12.29, 'pretrain');
-- A plan priced from the price table at planned_at (Lambda H100 spot 2.49 in the shipped seed prices).
INSERT INTO run_plan (run_id, spec, provider, pricing, planned_at)
VALUES ('run-later', run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), 'lambda', 'spot', '2025-03-01');
SELECT run_id, usd_per_gpu_hour, round(planned_gpu_hours::numeric, 1) AS planned_gpu_hours, round(planned_usd, 2) AS planned_usd
  FROM run_plan ORDER BY run_id;
-- Editing prices or SKUs later never changes a plan.
BEGIN;
UPDATE gpu_sku SET bf16_tflops = 500 WHERE sku = 'H100-SXM5';
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2025-02-01', 'lambda', 'H100-SXM5', 'spot', 9.99, 'test');
SELECT run_id, usd_per_gpu_hour, round(planned_usd, 2) AS planned_usd FROM run_plan ORDER BY run_id;
ROLLBACK;

-- Spend for the runs, in a FOCUS 1.3 file (ServiceProviderName, SkuPriceDetails with GpuCount,
-- run_id in Tags or in an x_run_id column, a savings-plan line billed 0 but amortised, a credit,
-- two identical data-transfer lines, times with and without Z).
\set runs `cat test/data/focus/focus_1.3_runs.csv`
SELECT * FROM import_focus(:'runs', source => 'focus 1.3 test');
SELECT line, provider, pricing, sku, gpus_per_instance, gpu_hours, billed_cost, effective_cost, run_id, charge_period_start
  FROM spend WHERE source = 'focus 1.3 test' ORDER BY line;
-- Plan vs actual.  run-1b: billed 3 x 2359.68 + 0 + 1.15 = 7080.19; effective 3 x 2359.68 +
-- 1651.78 + 1.15 = 8731.97; 4 days x 24 h x 8 GPUs = 768 GPU-hours; variance 8731.97 -
-- 10355.58 = -1623.61 (-15.68%); implied MFU 6 x 1e9 x 2e11 / (989e12 x 768 x 3600) = 0.4389.
-- run-later has no spend yet; run-spot has spend but no plan; the spend with no run is one
-- "untagged" row per provider: aws 8.18663861840 = the sample's aws lines 18.00663861840, the
-- -10.00 credit and 2 x 0.09 data transfer; azure and oci are the sample's.
SELECT run_id, status, round(planned_usd, 2) AS planned_usd, billed_usd, effective_usd, round(variance_usd, 2) AS variance_usd,
       variance_pct, round(planned_gpu_hours::numeric, 1) AS planned_gpu_hours, actual_gpu_hours,
       round(implied_mfu::numeric, 4) AS implied_mfu
  FROM plan_vs_actual ORDER BY run_id, provider;

-- Bad FOCUS files: a clear error, the line and the column in its CONTEXT; nothing is half-imported.
SELECT count(*) AS spend_before FROM spend \gset
\set bad `cat test/data/focus/bad_amount.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'bad')) AS error;
\set bad `cat test/data/focus/missing_column.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'bad')) AS error;
\set bad `cat test/data/focus/end_before_start.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'bad')) AS error;
\set bad `cat test/data/focus/bad_date.csv`
SELECT pg_temp.error_report(format('SELECT * FROM import_focus(%L)', :'bad')) AS error;
SELECT pg_temp.error_report($$SELECT * FROM import_focus('')$$) AS error;
SELECT pg_temp.error_report($$SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-03-01,2025-03-02,AWS,111122223333,USD,2025-03-01,2025-04-01,Usage,extra\n')$$) AS error;
SELECT count(*) AS spend_unchanged FROM spend HAVING count(*) = :spend_before;

-- Bad plans are refused: unknown SKU (a hand-built spec), negative price, no known price.
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour)
VALUES ('bad-sku', ROW(1e9, 2e11, 'H900', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                       NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, 'aws', 2.0);
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour)
VALUES ('bad-price', run_spec(1e9, 2e11, 8, 'H100'), 'aws', -1);
INSERT INTO run_plan (run_id, spec, provider, pricing, planned_at)
VALUES ('no-price', run_spec(1e9, 2e11, 8, 'H100'), 'nosuchcloud', 'spot', '2025-03-01');
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour)
VALUES ('bad-spec', ROW(1e9, 2e11, 'H100-SXM5', 8, 8, 1.5, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                        NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, 'aws', 2.0);

-- Row-level security: two tenants (roles) see only their own plans and spend.
CREATE ROLE regress_tenant_a;
CREATE ROLE regress_tenant_b;
CREATE ROLE regress_alice LOGIN IN ROLE regress_tenant_a;
CREATE ROLE regress_bob LOGIN IN ROLE regress_tenant_b;
GRANT SELECT, INSERT, UPDATE, DELETE ON run_plan, spend TO regress_tenant_a, regress_tenant_b;
GRANT USAGE ON SEQUENCE spend_id_seq TO regress_tenant_a, regress_tenant_b;
SET ROLE regress_alice;
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, tenant)
VALUES ('a-run', run_spec(1e9, 2e11, 8, 'H100'), 'aws', 12.29, 'regress_tenant_a');
SELECT * FROM import_focus(:'runs', tenant => 'regress_tenant_a', source => 'tenant a bill');
SELECT run_id, tenant FROM run_plan ORDER BY run_id;
SELECT tenant, count(*) AS lines, sum(billed_cost) AS billed FROM spend GROUP BY 1;
SELECT run_id, status, billed_usd FROM plan_vs_actual ORDER BY run_id;
-- writing a row for another tenant is refused
INSERT INTO run_plan (run_id, spec, provider, usd_per_gpu_hour, tenant)
VALUES ('sneaky', run_spec(1e9, 2e11, 8, 'H100'), 'aws', 1, 'regress_tenant_b');
RESET ROLE;
SET ROLE regress_bob;
SELECT count(*) AS plans_bob_sees FROM run_plan;
SELECT count(*) AS spend_bob_sees FROM spend;
SELECT count(*) AS runs_bob_sees FROM plan_vs_actual;
UPDATE spend SET billed_cost = 0;
RESET ROLE;
-- The policies' test (_is_tenant_member, in C since 0.5.0, keeps its last answer for the query):
-- membership direct or through a role, inherited or not; false for no such role, a name too long
-- to be a role's (not truncated to one that is); each row as pg_has_role says.
CREATE ROLE regress_tenant_c;
CREATE ROLE regress_mid IN ROLE regress_tenant_c;
CREATE ROLE regress_carol NOINHERIT IN ROLE regress_mid;
CREATE ROLE regress_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;
GRANT regress_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx TO regress_carol;
SET ROLE regress_carol;
SELECT n, length(t) AS len, llm_econ._is_tenant_member(t) AS member,
       CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = t) THEN pg_has_role(t, 'MEMBER') ELSE false END AS pg_has_role
  FROM (VALUES (1, 'regress_tenant_c'), (2, 'regress_tenant_c'), (3, 'regress_tenant_a'), (4, 'regress_tenant_c'),
               (5, 'regress_mid'), (6, 'no_such_role'), (7, 'REGRESS_TENANT_C'), (8, 'regress_' || repeat('x', 55)),
               (9, 'regress_' || repeat('x', 56)), (10, repeat('y', 5000))) AS v(n, t)
 ORDER BY n;
RESET ROLE;
SELECT llm_econ._is_tenant_member('regress_tenant_c') AS superuser_is_member;
DROP ROLE regress_carol, regress_mid, regress_tenant_c, regress_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;
-- the same bill under two tenants is two sets of lines
SELECT tenant, count(*) FROM spend WHERE source IN ('focus 1.3 test', 'tenant a bill') GROUP BY 1 ORDER BY 1;
DROP OWNED BY regress_alice, regress_bob, regress_tenant_a, regress_tenant_b;
DROP ROLE regress_alice, regress_bob, regress_tenant_a, regress_tenant_b;

-- Leave the database as the other tests expect it.
DELETE FROM spend;
DELETE FROM run_plan;
