-- Real cloud exports' column sets (issue 44, "Test on real files"): one January of GPU training
-- written in the exact columns, in the exact order, of the Azure Cost Management FocusCost
-- versions documented by microsoft/finops-toolkit (1.0-preview(v1), 1.0, 1.0r2, 1.2-preview, 1.2),
-- of AWS Data Exports' "FOCUS 1.0 with AWS columns" and of Google's FOCUS BigQuery view; each
-- staged and loaded as a delivery (focus_stage, load_focus).  Sources, commits and how the files
-- were made: test/data/focus/exports/README.md.  Every expected figure below was computed from the
-- files' cells with Python (csv, Decimal) before anything was loaded, and is compared for equality.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/focus_common.sql

-- What each tenant (one file each) holds, per currency: lines, billed and effective cost, GPU-hours,
-- sub-accounts and statements (provider, billing account, sub-account, billing period: what mode
-- replace replaces), identifiers compared as their provider compares them.
CREATE TEMP VIEW export_figures AS
  SELECT tenant, billing_currency AS currency, count(*) AS lines, sum(billed_cost) AS billed,
         sum(effective_cost) AS effective, coalesce(sum(gpu_hours), 0) AS gpu_hours,
         count(DISTINCT _focus_id_key(provider, record ->> 'SubAccountId')) AS sub_accounts,
         count(DISTINCT (provider, _focus_id_key(provider, billing_account_id),
                         _focus_id_key(provider, record ->> 'SubAccountId'), billing_period_start)) AS statements
    FROM spend GROUP BY tenant, billing_currency;
-- The figures computed from the files (python3, test/data/focus/exports/README.md):
--  Azure, each version the same nine charges: EUR billed 2 x 24 x 25.0413 + 0 + 0 + 11,550.48 +
--   4.17361111111111 + 9.64 - 25.00 + 11.021 = 12,752.29701111111111; effective 2 x 600.9912 +
--   24 x 15.8201 + 8 x 15.8201 + 0 + 4.17361111111111 + 9.64 - 25.00 + 11.021 = 1,708.06021111111111;
--   GPU-hours 3 x 24 h x 8 (ND96asr v4: on demand twice, reserved once) + 10 h x 1 (NC24ads A100 v4
--   spot) = 586 (the reservation's 8 unused hours are no GPU time); 2 subscriptions, 2 statements.
--  AWS: USD 2,359.68 + 0 + 1,500.00 + 0 + 0.00 + 98.318 + 1.29032258 + 20.00 + 395.51 - 100.00 =
--   4,274.79832258 billed, 2,359.68 + 1,320.96 + 0 + 179.04 + 0.00 + 98.318 + 1.29032258 + 20.00 +
--   395.51 - 100.00 = 4,274.79832258 effective; GPU-hours 24 x 8 (BoxUsage p5.48xlarge) + 24 x 8
--   (the same at the savings plan rate) + 10 x 8 (SpotUsage p4d.24xlarge) = 464; 2 accounts, 2 statements.
--  GCP: USD 1,415.808 + 99.5072 + 119.808 + 4.2 + 12.24 + 1 + 120 - 15 = 1,757.5632 (BilledCost =
--   EffectiveCost in the view); GPU-hours 460,800 s / 3,600 (8 H100 for 16 h) + 36,000 s / 3,600
--   (an L4, 10 h) + 18,000 s / 3,600 (a spot L4, 5 h) = 143; 1 sub-account, 1 statement.
CREATE TEMP TABLE expected_figures (tenant text, currency text, lines bigint, billed numeric, effective numeric,
                                    gpu_hours numeric, sub_accounts bigint, statements bigint);
INSERT INTO expected_figures VALUES
  ('azure FocusCost 1.0-preview(v1)', 'EUR', 9, 12752.29701111111111, 1708.06021111111111, 586, 2, 2),
  ('azure FocusCost 1.0',             'EUR', 9, 12752.29701111111111, 1708.06021111111111, 586, 2, 2),
  ('azure FocusCost 1.0r2',           'EUR', 9, 12752.29701111111111, 1708.06021111111111, 586, 2, 2),
  ('azure FocusCost 1.2-preview',     'EUR', 9, 12752.29701111111111, 1708.06021111111111, 586, 2, 2),
  ('azure FocusCost 1.2',             'EUR', 9, 12752.29701111111111, 1708.06021111111111, 586, 2, 2),
  ('aws FOCUS_1_0_AWS',               'USD', 10, 4274.79832258, 4274.79832258, 464, 2, 2),
  ('gcp FOCUS BigQuery view',         'USD', 8, 1757.5632, 1757.5632, 143, 1, 1);
-- each tenant's figures beside the expected ones; right is true only when all are equal
CREATE TEMP VIEW export_check AS
  SELECT e.tenant, f.currency, f.lines, f.billed, f.effective, f.gpu_hours, f.sub_accounts, f.statements,
         f.currency = e.currency AND f.lines = e.lines AND f.billed = e.billed AND f.effective = e.effective
           AND f.gpu_hours = e.gpu_hours AND f.sub_accounts = e.sub_accounts AND f.statements = e.statements AS right
    FROM expected_figures e LEFT JOIN export_figures f USING (tenant);
-- one line per charge: what the loader made of it
CREATE TEMP VIEW export_lines AS
  SELECT tenant, line, charge_category, pricing, instance_type, gpus_per_instance AS gpus, consumed_quantity,
         consumed_unit, gpu_hours, run_id
    FROM spend;

-- Azure FocusCost 1.0-preview(v1) (94 columns): UsageQuantity and UsageUnit are ConsumedQuantity
-- and ConsumedUnit, Region is the region; ChargeSubcategory says what FOCUS 1.0's
-- CommitmentDiscountStatus says (line 5, "Unused Commitment": no GPU time), PricingCategory is
-- written On-Demand / Commitment-Based / Dynamic.  Times are written without seconds (2025-01-01T00:00Z).
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.0-preview.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.0-preview(v1)', source => 'azure_focuscost_1.0-preview.csv');
SELECT * FROM export_check WHERE tenant = 'azure FocusCost 1.0-preview(v1)';
SELECT line, charge_category, pricing, instance_type, gpus, consumed_quantity, consumed_unit, gpu_hours, run_id
  FROM export_lines WHERE tenant = 'azure FocusCost 1.0-preview(v1)' ORDER BY line;
SELECT region, record ->> 'ChargeSubcategory' AS charge_subcategory, count(*) FROM spend
 WHERE tenant = 'azure FocusCost 1.0-preview(v1)' GROUP BY 1, 2 ORDER BY 2 NULLS LAST;

-- Azure FocusCost 1.0 (96 columns, times without seconds) and 1.0r2 (the same columns, times with
-- seconds): the same figures.  1.0r2 differs only in how times are written, so appending it to the
-- 1.0 month stores nothing more: its nine lines are the same charges.
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.0.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.0', source => 'azure_focuscost_1.0.csv');
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.0r2.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.0r2', source => 'azure_focuscost_1.0r2.csv');
SELECT * FROM export_check WHERE tenant IN ('azure FocusCost 1.0', 'azure FocusCost 1.0r2') ORDER BY tenant;
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.0r2.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.0', source => '1.0r2 onto 1.0', mode => 'append');
-- the same month again in mode replace: its two statements (one per subscription, the
-- subscription written in upper case on line 3 is the same one) are replaced whole
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.0.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.0', source => 'azure_focuscost_1.0.csv again');
SELECT * FROM export_check WHERE tenant = 'azure FocusCost 1.0';
-- the ids are stored as Azure wrote them (mixed case), compared without case
SELECT count(DISTINCT record ->> 'SubAccountId') AS written, count(DISTINCT _focus_id_key(provider, record ->> 'SubAccountId')) AS compared,
       count(DISTINCT resource_id) AS resources_written, count(DISTINCT _focus_id_key(provider, resource_id)) AS resources_compared
  FROM spend WHERE tenant = 'azure FocusCost 1.0';

-- Azure FocusCost 1.2-preview (106 columns: FOCUS 1.2's CapacityReservationId, SkuMeter,
-- SkuPriceDetails (left empty by Cost Management), InvoiceId, PricingCurrency, ... beside the x_
-- columns of 1.0): the columns loaded are the same, the others are kept in record.
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.2-preview.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.2-preview', source => 'azure_focuscost_1.2-preview.csv');
SELECT * FROM export_check WHERE tenant = 'azure FocusCost 1.2-preview';
SELECT record ->> 'SkuMeter' AS sku_meter, record ->> 'InvoiceId' AS invoice_id, record ->> 'x_ServiceModel' AS service_model, count(*)
  FROM spend WHERE tenant = 'azure FocusCost 1.2-preview' AND line = 2 GROUP BY 1, 2, 3;

-- Azure FocusCost 1.2 (104 columns, finops-hub's schema): no x_SkuDetails nor x_SkuMeterName; the VM
-- size is SkuPriceDetails' x_ServiceType (Azure's AdditionalInfo with its properties prefixed x_),
-- else the meter name in SkuMeter (line 10: no SkuPriceDetails, "NC24ads A100 v4 Spot").
\copy focus_stage (line) FROM 'test/data/focus/exports/azure_focuscost_1.2.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'azure FocusCost 1.2', source => 'azure_focuscost_1.2.csv');
SELECT * FROM export_check WHERE tenant = 'azure FocusCost 1.2';
SELECT line, charge_category, pricing, instance_type, gpus, consumed_quantity, consumed_unit, gpu_hours, run_id
  FROM export_lines WHERE tenant = 'azure FocusCost 1.2' ORDER BY line;

-- AWS Data Exports, FOCUS 1.0 with AWS columns (48 columns): x_UsageType tells instance hours
-- (BoxUsage, SpotUsage) from the EBS-optimized line, the savings plan's fee and unused part; runs
-- are user:run_id tags; times in milliseconds (2025-01-05T00:00:00.000Z).
\copy focus_stage (line) FROM 'test/data/focus/exports/aws_focus_1.0.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'aws FOCUS_1_0_AWS', source => 'aws_focus_1.0.csv');
SELECT * FROM export_check WHERE tenant = 'aws FOCUS_1_0_AWS';
SELECT line, charge_category, pricing, instance_type, gpus, consumed_quantity, consumed_unit, gpu_hours, run_id
  FROM export_lines WHERE tenant = 'aws FOCUS_1_0_AWS' ORDER BY line;

-- Google's FOCUS BigQuery view (44 columns; its nested columns written as BigQuery's
-- TO_JSON_STRING writes them): ChargeCategory and PricingCategory in lower case (usage, standard,
-- committed), GPU SKUs measured in seconds (ConsumedUnit "seconds", the billing export's usage.unit),
-- Tags an array of {key, value, x_type, x_inherited, x_namespace}, times in BigQuery's "... UTC".
\copy focus_stage (line) FROM 'test/data/focus/exports/gcp_focus_view.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'gcp FOCUS BigQuery view', source => 'gcp_focus_view.csv');
SELECT * FROM export_check WHERE tenant = 'gcp FOCUS BigQuery view';
SELECT line, charge_category, pricing, instance_type, gpus, consumed_quantity, consumed_unit, gpu_hours, run_id
  FROM export_lines WHERE tenant = 'gcp FOCUS BigQuery view' ORDER BY line;
SELECT line, tags FROM spend WHERE tenant = 'gcp FOCUS BigQuery view' AND line IN (2, 6) ORDER BY line;
-- a key written twice (a resource's label, then its project's): the first value is kept, so the run
-- is the resource's; the same tags written as an object name the same charge
CREATE TEMP VIEW gcp_tags AS
  SELECT form, l.run_id, l.tags, l.row_hash
    FROM (VALUES ('array', '[{"key":"run_id","value":"r-resource","x_type":"label"},{"key":"run_id","value":"r-project","x_type":"project_label","x_inherited":true},{"key":"team","value":"ml"}]'),
                 ('object', '{"team":"ml","run_id":"r-resource"}')) AS t(form, tags),
         LATERAL _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,Tags\n'
                              '1,1,USD,2025-01-10 08:00:00 UTC,2025-01-11 08:00:00 UTC,Google Cloud,012345-6789AB-CDEF01,'
                              '2025-01-01 08:00:00 UTC,2025-01-31 08:00:00 UTC,usage,'
                              || '"' || pg_catalog.replace(t.tags, '"', '""') || '"' || E'\n', 'tags.csv') AS l;
SELECT form, run_id, tags FROM gcp_tags ORDER BY form;
SELECT count(DISTINCT row_hash) AS identities FROM gcp_tags;

-- Every file at once: all right, nothing left staged.
SELECT * FROM export_check ORDER BY tenant;
SELECT count(*) AS still_staged FROM focus_staging;

-- Not FOCUS: Cost Management's cost details export (finops-hub's actualcost_c360-2025-04 columns)
-- is refused whole, naming the mandatory FOCUS columns it lacks.
\set actual `cat test/data/focus/exports/azure_actualcost_c360-2025-04.csv`
SELECT pg_temp.error_code($$SELECT * FROM llm_econ.import_focus($$ || quote_literal(:'actual') || $$, tenant => 'azure actual cost')$$);
SELECT count(*) AS stored FROM spend WHERE tenant = 'azure actual cost';
DELETE FROM spend;
