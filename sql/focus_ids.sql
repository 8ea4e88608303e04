-- focus_ids.sql: a file lacking FOCUS 1.0 mandatory columns is one 22023 naming them all; the charge identity compares identifiers as their provider does (issue 44).
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql

-- 1. Mandatory columns (FOCUS 1.0).  A file lacking BillingAccountId, ChargeCategory and
-- EffectiveCost: one error listing the three, in the specification's order, nothing stored.
SELECT pg_temp.error_report($$SELECT * FROM import_focus(E'BilledCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName\n'
  '1.00,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,AWS\n')$$) AS error;
-- one missing: the singular message; no provider column at all: both names offered
SELECT pg_temp.error_report($$SELECT * FROM import_focus(E'BilledCost,EffectiveCost,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargePeriodStart,ChargePeriodEnd\n'
  '1.00,1.00,111122223333,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z\n')$$) AS error;
-- a staged part of a delivery is checked by its own header: the second part lacks BillingPeriodEnd
INSERT INTO focus_stage (line) VALUES
  ('BilledCost,EffectiveCost,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ProviderName'),
  ('1.00,1.00,111122223333,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,AWS'),
  ('BilledCost,EffectiveCost,BillingAccountId,BillingCurrency,BillingPeriodStart,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ProviderName'),
  ('2.00,2.00,111122223333,USD,2025-03-01T00:00:00Z,Usage,2025-03-02T00:00:00Z,2025-03-03T00:00:00Z,AWS');
SELECT pg_temp.error_report($$SELECT * FROM load_focus(source => 'parts')$$) AS error;
DELETE FROM focus_staging;
-- header names in lower case are the same columns (and BilledCurrency is BillingCurrency)
SELECT inserted FROM import_focus(E'billedcost,effectivecost,billingaccountid,billedcurrency,billingperiodstart,billingperiodend,chargecategory,chargeperiodstart,chargeperiodend,servicename,providername\n'
  '1.00,1.00,111122223333,usd,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,Amazon EC2,AWS\n', source => 'lower');
SELECT provider, billing_account_id, billing_currency, charge_category, billed_cost, billing_period_start FROM spend WHERE source = 'lower';
SELECT count(*) AS stored_lines FROM spend;
DELETE FROM spend;

-- 2. Identifiers in the charge identity.  Subscription aaaa-1111's January (3 lines), then the same
-- lines delivered again in mode append with the billing account and subscription ids in upper case
-- and the billing account padded with a blank (azure_sub_a_recased.csv): Azure ids are
-- case-insensitive, so they are the same charges, skipped, not new ones; the ids stay as first written.
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_a.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped FROM load_focus(source => 'azure a');
\copy focus_stage (line) FROM 'test/data/focus/deliveries/azure_sub_a_recased.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped FROM load_focus(source => 'azure a recased', mode => 'append');
SELECT count(*) AS azure_lines, count(DISTINCT row_hash) AS charges, sum(billed_cost) AS billed,
       array_agg(DISTINCT billing_account_id) AS accounts FROM spend WHERE provider = 'azure';
-- the same for resource and commitment ids written in other case and padded (import_focus)
\set az_head 'BilledCost,EffectiveCost,BillingAccountId,SubAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,CommitmentDiscountId,AllocatedResourceId'
SELECT inserted, skipped FROM import_focus(:'az_head' || E'\n'
  '5.00,5.00,acct-9,sub-9,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,Microsoft,/subscriptions/sub-9/vm-a,/providers/microsoft.capacity/reservationorders/r1,/subscriptions/sub-9/shared\n',
  source => 'azure ids');
SELECT inserted, skipped FROM import_focus(:'az_head' || E'\n'
  '5.00,5.00,ACCT-9,"	Sub-9 ",USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,Microsoft," /SUBSCRIPTIONS/SUB-9/VM-A",/PROVIDERS/Microsoft.Capacity/ReservationOrders/R1 ,/Subscriptions/Sub-9/Shared\n',
  source => 'azure ids recased', mode => 'append');
-- but an id that differs in more than case and blanks is another charge
SELECT inserted, skipped FROM import_focus(:'az_head' || E'\n'
  '5.00,5.00,acct-9,sub-9,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,Microsoft,/subscriptions/sub-9/vm-b,/providers/microsoft.capacity/reservationorders/r1,/subscriptions/sub-9/shared\n',
  source => 'azure other vm', mode => 'append');
SELECT source, resource_id, record ->> 'SubAccountId' AS sub_account FROM spend WHERE source LIKE 'azure %' AND billed_cost = 5 ORDER BY source;

-- 3. AWS ids are case-sensitive (an EC2 instance id, an ARN): lines whose ids differ only in case
-- are other charges, stored in mode append; ids differing only in surrounding blanks are the same
-- charges (aws_part_00001_spaced.csv pads the billing account: its 3 lines skipped).
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00001.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped FROM load_focus(source => 'aws part 1');
\copy focus_stage (line) FROM 'test/data/focus/deliveries/aws_part_00001_spaced.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped FROM load_focus(source => 'aws part 1 padded', mode => 'append');
\set aws_head 'BilledCost,EffectiveCost,BillingAccountId,SubAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId'
SELECT inserted, skipped FROM import_focus(:'aws_head' || E'\n'
  '7.00,7.00,123456789012,210987654321,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,AWS,i-0abc\n',
  source => 'aws lower');
SELECT inserted, skipped FROM import_focus(:'aws_head' || E'\n'
  '7.00,7.00,123456789012,210987654321,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage,2025-03-01T00:00:00Z,2025-03-02T00:00:00Z,AWS,I-0ABC\n',
  source => 'aws upper', mode => 'append');
SELECT source, resource_id, occurrence FROM spend WHERE billed_cost = 7 ORDER BY source;
SELECT count(*) AS aws_lines FROM spend WHERE provider = 'aws';
-- _focus_charge_key applies the same rule: Azure ids re-cased and padded are one identity, AWS ones not
SELECT _focus_charge_key('{"ProviderName": "Microsoft", "BillingAccountId": "ACCT-9 ", "ResourceId": "/Subscriptions/X"}')
     = _focus_charge_key('{"ProviderName": "Microsoft", "BillingAccountId": "acct-9", "ResourceId": "/subscriptions/x"}') AS azure_same,
       _focus_charge_key('{"ProviderName": "AWS", "ResourceId": "I-0ABC"}')
     = _focus_charge_key('{"ProviderName": "AWS", "ResourceId": "i-0abc"}') AS aws_same,
       _focus_charge_key('{"ProviderName": "AWS", "ResourceId": " i-0abc\t"}')
     = _focus_charge_key('{"ProviderName": "AWS", "ResourceId": "i-0abc"}') AS aws_padded_same,
       _focus_charge_key('{"ProviderName": "AWS", "CommitmentDiscountId": "  "}')
     = _focus_charge_key('{"ProviderName": "AWS"}') AS blank_is_null;
DELETE FROM spend;
