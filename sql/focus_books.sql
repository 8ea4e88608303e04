-- Books that close (issue 32): corrections, one statement per billing period (mode replace /
-- append), GPU-hours only from the lines that bill a GPU machine or GPU (AWS usage types, Azure VM
-- meters, GCP GPU SKUs), no variance for partly unconverted money, and the month-end close by
-- invoice month over a three-cloud month with a refresh, a next-month correction and a late line.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/focus_common.sql
BEGIN;
DELETE FROM fx_rate WHERE currency IN ('EUR', 'GBP');

-- 1. The FOCUS specification's correction examples (test/data/focus/spec: the mandatory columns the
-- examples leave out added, nothing else: ProviderName, BillingAccountId, BillingCurrency USD): May's 1,000 hours ($1,500), then June's bill correcting May: -1,000 h and
-- -$1,500, +800 h / $1,200, +200 h / $300, and a late-arriving 1,000 h / $1,500.
\set original `cat test/data/focus/spec/scenario_1_partial_reallocation_original.csv`
\set ledger `cat test/data/focus/spec/scenario_1_partial_reallocation_ledger.csv`
\set late `cat test/data/focus/spec/scenario_2_late_arriving_usage_ledger.csv`
CREATE FUNCTION pg_temp.with_provider(csv text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(l || CASE WHEN n = 1 THEN ',ProviderName,BillingAccountId,BillingCurrency' ELSE ',Example,111,USD' END, E'\n' ORDER BY n) || E'\n'
    FROM string_to_table(rtrim(csv, E'\n'), E'\n') WITH ORDINALITY AS t(l, n) $$;
SELECT inserted, replaced FROM import_focus(pg_temp.with_provider(:'original'), tenant => 'spec');
SELECT inserted, replaced FROM import_focus(pg_temp.with_provider(:'ledger'), tenant => 'spec');
SELECT inserted, replaced FROM import_focus(pg_temp.with_provider(:'late'), tenant => 'spec', mode => 'append');
SELECT billing_period_start::date AS period, record ->> 'ChargeClass' AS class, resource_id, consumed_quantity, billed_cost
  FROM spend WHERE tenant = 'spec' ORDER BY line, period, billed_cost;
-- May's invoice 1,500; June's bill (corrections of May) +1,500: May's usage now 3,000 = 1,500 + 1,500 late
SELECT sum(billed_cost) AS billed, sum(consumed_quantity) AS hours FROM spend WHERE tenant = 'spec';

-- 2. Corrections of GPU usage net out: a p5.48xlarge correction of -24 hours is -192 GPU-hours.
-- Negative GPU-hours on a line that charges money are refused (a broken line, not a correction).
\set gpuhead 'BilledCost,EffectiveCost,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeCategory,ChargeClass,ConsumedQuantity,ConsumedUnit,x_UsageType,ResourceId,BillingAccountId,BillingCurrency'
SELECT gpu_hours, billed_cost FROM _focus_lines(:'gpuhead' || E'\n'
  '-2359.68,-2359.68,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,2025-01-10T00:00:00Z,2025-01-11T00:00:00Z,AWS,Usage,Correction,-24,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,111,USD\n'
  '-98.32,-98.32,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-10T00:00:00Z,2025-01-11T00:00:00Z,AWS,Usage,,-1,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,111,USD\n', 'corr.csv');
SELECT pg_temp.error_code(format('SELECT * FROM _focus_lines(%L, %L)', :'gpuhead' || E'\n'
  '98.32,98.32,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-10T00:00:00Z,2025-01-11T00:00:00Z,AWS,Usage,,-1,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,111,USD\n', 'neg.csv'));

-- 3. GPU-hours only from the lines that bill GPU time.  AWS: BoxUsage/SpotUsage/DedicatedUsage of
-- a GPU instance (the EBS-optimized $0.00 line of the same instance, data transfer, a savings plan
-- purchase naming it: none; a file without x_UsageType: by the description); Azure: Virtual
-- Machines meters of a GPU VM, found by x_SkuDetails' ServiceType or the meter name (its
-- bandwidth line: none); GCP: the GPU SKU (its VM cores, a commitment fee, a GPU licence: none).
SELECT provider, charge_description, gpus_per_instance, gpu_hours, sku
  FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeCategory,ServiceCategory,ChargeDescription,ConsumedQuantity,ConsumedUnit,x_UsageType,x_SkuMeterCategory,x_SkuMeterName,x_SkuDetails,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd\n'
    '98.32,98.32,2025-01-01,2025-01-02,AWS,Usage,Compute,$98.32 per On Demand Linux p5.48xlarge Instance Hour,1,Hrs,USE1-BoxUsage:p5.48xlarge,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '0,0,2025-01-01,2025-01-02,AWS,Usage,Compute,$0.00 for 80000 Mbps per p5.48xlarge instance-hour,1,Hrs,USE1-EBSOptimized:p5.48xlarge,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '40,40,2025-01-01,2025-01-02,AWS,Usage,Compute,Spot p5.48xlarge,1,Hrs,USW2-SpotUsage:p5.48xlarge,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '99,99,2025-01-01,2025-01-02,AWS,Usage,Compute,Dedicated p5.48xlarge,1,Hrs,DedicatedUsage:p5.48xlarge,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '500,500,2025-01-01,2025-01-02,AWS,Purchase,Compute,Savings Plan p5.48xlarge,1,Hrs,ComputeSP:3yrNoUpfront,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '3,3,2025-01-01,2025-01-02,AWS,Usage,Networking,p5.48xlarge data transfer,1,Hrs,USE1-DataTransfer-Regional-Bytes,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '98.32,98.32,2025-01-01,2025-01-02,AWS,Usage,Compute,$98.32 per On Demand Linux p5.48xlarge Instance Hour,1,Hrs,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '0,0,2025-01-01,2025-01-02,AWS,Usage,Compute,$0.00 for 80000 Mbps per p5.48xlarge instance-hour,1,Hrs,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '100,100,2025-01-01,2025-01-02,Microsoft,Usage,Compute,ND96isr H100 v5,1,1 Hour,,Virtual Machines,ND96isr H100 v5,"{""ServiceType"": ""Standard_ND96isr_H100_v5"", ""VCPUs"": 96}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '100,100,2025-01-01,2025-01-02,Microsoft,Usage,Compute,ND96isr H100 v5 Spot,1,Hours,,Virtual Machines,ND96isr H100 v5 Spot,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '2,2,2025-01-01,2025-01-02,Microsoft,Usage,Compute,Standard Data Transfer Out,1,1 Hour,,Bandwidth,Standard Data Transfer Out,"{""ServiceType"": ""Standard_ND96isr_H100_v5""}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '11,11,2025-01-01 00:00:00 UTC,2025-01-02 00:00:00 UTC,Google,Usage,Compute,Nvidia H100 80GB GPU running in Americas,1,hour,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '4,4,2025-01-01 00:00:00 UTC,2025-01-02 00:00:00 UTC,Google,Usage,Compute,Spot Preemptible Nvidia L4 GPU running in Belgium,2,hour,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '5,5,2025-01-01 00:00:00 UTC,2025-01-02 00:00:00 UTC,Google,Usage,Compute,A3 Instance Core running in Americas,1,hour,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '6,6,2025-01-01 00:00:00 UTC,2025-01-02 00:00:00 UTC,Google,Usage,Compute,Commitment v1: Nvidia H100 80GB GPU in Americas for 1 Year,1,hour,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
    '1,1,2025-01-01 00:00:00 UTC,2025-01-02 00:00:00 UTC,Google,Usage,Compute,NVIDIA GRID license for Tesla T4 GPU,1,hour,,,,,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n',
    'clouds.csv') ORDER BY line;

-- 4. mode: replace (default) makes a call the whole statement of each (tenant, provider, billing
-- account, billing period) it covers; append adds the charges not stored yet; anything else is 22023.
SELECT pg_temp.error_code($$SELECT * FROM import_focus('BilledCost', mode => 'merge')$$);
SELECT pg_temp.error_code($$SELECT * FROM load_focus(mode => NULL)$$);

-- 5. Partly unconverted money: a run with USD and GBP lines and no GBP rate has no variance, and its
-- status says why; a rate written in lower case (gbp) is GBP, and the variance appears.
INSERT INTO run_plan (run_id, spec, provider, region, planned_at, usd_per_gpu_hour)
VALUES ('books-gbp', run_spec(1e9, 2e11, 8, 'H100', mfu => 0.4), 'aws', 'us-east-1', '2025-01-01', 2.00);
SELECT inserted FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,ConsumedUnit,SkuPriceDetails,Tags,ResourceId,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '1000.00,1000.00,USD,2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,AWS,50,Hours,"{""InstanceType"": ""p5.48xlarge""}","{""run_id"": ""books-gbp""}",a,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
  '250.00,250.00,usd,2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,,,,"{""run_id"": ""books-gbp""}",b,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
  '400.00,400.00,GBP,2025-01-05T00:00:00Z,2025-01-06T00:00:00Z,Other,,,,"{""run_id"": ""books-gbp""}",c,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
  '100.00,100.00,gbp,2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,Other,,,,"{""run_id"": ""books-gbp""}",d,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n');
SELECT provider, status, billed_usd, variance_usd, price_variance_usd, usage_variance_usd, actual_usd_per_gpu_hour, unconverted_lines, unconverted_currencies
  FROM plan_vs_actual WHERE run_id = 'books-gbp';
INSERT INTO fx_rate VALUES ('gbp', '2025-01-01', 1.25, 'regress'), ('usd', '2025-01-01', 1, 'regress: USD is 1 anyway');
SELECT currency FROM fx_rate WHERE source LIKE 'regress%' ORDER BY 1;
-- 1,250 + 1.25 x 500 = 1,875.00; planned 842.60 GPU-h x $2 = 1,685.20
SELECT provider, status, billed_usd, variance_usd, price_variance_usd, usage_variance_usd, unconverted_lines
  FROM plan_vs_actual WHERE run_id = 'books-gbp';

-- 6. The month-end close of January 2025, three clouds, as each writes its export.
INSERT INTO fx_rate VALUES ('EUR', '2025-01-01', 1.04, 'regress: ECB reference rate, rounded');
\set awshead 'BilledCost,EffectiveCost,BillingCurrency,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeCategory,ChargeClass,ServiceCategory,ChargeDescription,ConsumedQuantity,ConsumedUnit,x_UsageType,ResourceId,Tags'
-- AWS, morning refresh of January (month to date)
SELECT inserted, replaced FROM import_focus(:'awshead' || E'\n'
  '9832.00,9832.00,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-01-05T04:00:00Z,AWS,Usage,,Compute,$98.32 per On Demand Linux p5.48xlarge Instance Hour,100,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,"{""user:run_id"": ""r-llm""}"\n'
  '0.00,0.00,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-01-05T04:00:00Z,AWS,Usage,,Compute,$0.00 for 80000 Mbps per p5.48xlarge instance-hour,100,Hrs,USE1-EBSOptimized:p5.48xlarge,i-1,"{""user:run_id"": ""r-llm""}"\n'
  '120.50,120.50,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-01-05T00:00:00Z,AWS,Usage,,Storage,S3 Standard storage,4000,GB-Mo,USE1-TimedStorage-ByteHrs,bucket,\n',
  tenant => 'books', source => 'aws-2025-01 08:00');
-- AWS, evening refresh: the whole month to date again (the morning's lines are replaced, not added)
SELECT inserted, replaced, replaced_billed_usd FROM import_focus(:'awshead' || E'\n'
  '14748.00,14748.00,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-01-07T06:00:00Z,AWS,Usage,,Compute,$98.32 per On Demand Linux p5.48xlarge Instance Hour,150,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,"{""user:run_id"": ""r-llm""}"\n'
  '0.00,0.00,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-01-07T06:00:00Z,AWS,Usage,,Compute,$0.00 for 80000 Mbps per p5.48xlarge instance-hour,150,Hrs,USE1-EBSOptimized:p5.48xlarge,i-1,"{""user:run_id"": ""r-llm""}"\n'
  '180.75,180.75,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-01-07T00:00:00Z,AWS,Usage,,Storage,S3 Standard storage,6000,GB-Mo,USE1-TimedStorage-ByteHrs,bucket,\n'
  '500.00,500.00,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,AWS,Purchase,,Compute,Savings Plan for p5.48xlarge,1,Hrs,ComputeSP:1yrNoUpfront,sp-1,\n',
  tenant => 'books', source => 'aws-2025-01 20:00');
-- a late January line, delivered alone: appended (a replace would make it the whole statement)
SELECT inserted, skipped, replaced FROM import_focus(:'awshead' || E'\n'
  '7.25,7.25,USD,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,2025-01-31T00:00:00Z,2025-02-01T00:00:00Z,AWS,Usage,,Storage,S3 Standard storage,240,GB-Mo,USE1-TimedStorage-ByteHrs,bucket,\n',
  tenant => 'books', source => 'aws-2025-01 late', mode => 'append');
-- February's AWS bill: new usage, and a correction of January (-24 hours re-rated away)
SELECT inserted, replaced FROM import_focus(:'awshead' || E'\n'
  '983.20,983.20,USD,111,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,2025-02-01T00:00:00Z,2025-02-01T10:00:00Z,AWS,Usage,,Compute,$98.32 per On Demand Linux p5.48xlarge Instance Hour,10,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,"{""user:run_id"": ""r-llm""}"\n'
  '-2359.68,-2359.68,USD,111,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,2025-01-06T00:00:00Z,2025-01-07T00:00:00Z,AWS,Usage,Correction,Compute,$98.32 per On Demand Linux p5.48xlarge Instance Hour,-24,Hrs,USE1-BoxUsage:p5.48xlarge,i-1,"{""user:run_id"": ""r-llm""}"\n',
  tenant => 'books', source => 'aws-2025-02');
-- Azure Cost Management, in EUR: the GPU VM by its x_SkuDetails and meter, its bandwidth, Run_ID
SELECT inserted FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeCategory,ServiceCategory,ServiceName,ChargeDescription,ConsumedQuantity,ConsumedUnit,x_SkuMeterCategory,x_SkuMeterName,x_SkuDetails,ResourceId,Tags\n'
  '1000.00,1000.00,EUR,az-1,2025-01-01T00:00:00Z,2025-01-31T23:59:59Z,2025-01-03T00:00:00Z,2025-01-03T10:00:00Z,Microsoft,Usage,Compute,Virtual Machines,ND96isr H100 v5,10,1 Hour,Virtual Machines,ND96isr H100 v5,"{""ServiceType"": ""Standard_ND96isr_H100_v5""}",/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/train-1,"{""Run_ID"": ""r-llm""}"\n'
  '12.34,12.34,EUR,az-1,2025-01-01T00:00:00Z,2025-01-31T23:59:59Z,2025-01-03T00:00:00Z,2025-01-03T10:00:00Z,Microsoft,Usage,Networking,Bandwidth,Standard Data Transfer Out,10,1 Hour,Bandwidth,Standard Data Transfer Out,"{""ServiceType"": ""Standard_ND96isr_H100_v5""}",/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/train-1,"{""Run_ID"": ""r-llm""}"\n',
  tenant => 'books', source => 'azure-2025-01');
-- GCP's BigQuery export: the invoice month starts at 08:00 UTC (midnight Pacific), " UTC" times
SELECT inserted FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeCategory,ServiceCategory,ChargeDescription,ConsumedQuantity,ConsumedUnit,Tags\n'
  '176.00,176.00,USD,gcp-1,2025-01-01 08:00:00 UTC,2025-02-01 08:00:00 UTC,2025-01-04 00:00:00 UTC,2025-01-04 16:00:00 UTC,Google Cloud,Usage,Compute,Nvidia H100 80GB GPU running in Americas,16,hour,"{""run_id"": ""r-llm""}"\n'
  '50.00,50.00,USD,gcp-1,2025-01-01 08:00:00 UTC,2025-02-01 08:00:00 UTC,2025-01-04 00:00:00 UTC,2025-01-04 16:00:00 UTC,Google Cloud,Usage,Compute,A3 Instance Core running in Americas,16,hour,"{""run_id"": ""r-llm""}"\n',
  tenant => 'books', source => 'gcp-2025-01');

-- The invoices of January and February, whatever the session's TimeZone.  Computed by hand:
--   AWS Jan  = 14,748.00 + 0.00 + 180.75 + 500.00 + 7.25       = 15,436.00 USD (1,200 GPU-h)
--   Azure Jan = 1,000.00 + 12.34 = 1,012.34 EUR x 1.04          =  1,052.8336 USD (80 GPU-h)
--   GCP Jan  = 176.00 + 50.00                                  =    226.00 USD (16 GPU-h)
--   January                                                    = 16,714.8336 USD
--   AWS Feb  = 983.20 - 2,359.68                               = -1,376.48 USD (80 - 192 = -112 GPU-h)
SET TimeZone = 'America/New_York';
SELECT provider, billing_account_id, billing_month, billing_currency, billed_cost, billed_usd, gpu_hours, lines, unconverted_lines
  FROM spend_monthly WHERE tenant = 'books' ORDER BY billing_month, provider;
SELECT billing_month, sum(billed_usd) AS billed_usd, sum(billed_usd) = CASE billing_month WHEN '2025-01-01' THEN 16714.8336 ELSE -1376.48 END AS closes
  FROM spend_monthly WHERE tenant = 'books' GROUP BY 1 ORDER BY 1;
-- per run and untagged: r-llm on three providers in January (a row each), untagged AWS spend
-- 180.75 + 500.00 + 7.25 = 688.00
SELECT run_id, billing_month, provider, billed_usd, effective_usd, gpu_hours, lines
  FROM plan_vs_actual_monthly WHERE tenant = 'books' ORDER BY billing_month, run_id NULLS LAST, provider;
SELECT billing_month, sum(billed_usd) AS billed_usd FROM plan_vs_actual_monthly WHERE tenant = 'books' GROUP BY 1 ORDER BY 1;
-- over the run's life plan_vs_actual names all its providers
SELECT provider, billed_usd, actual_gpu_hours FROM plan_vs_actual WHERE tenant = 'books' AND run_id = 'r-llm';
-- the invoice month is the middle of the billing period: GCP's February (08:00 UTC to 08:00 UTC)
-- is February; a period written in New York time too
SELECT _billing_month('2025-02-01 08:00+00', '2025-03-01 08:00+00', NULL, NULL) AS gcp_feb,
       _billing_month('2025-01-01 00:00-05', '2025-02-01 00:00-05', NULL, NULL) AS ny_jan,
       _billing_month(NULL, NULL, '2025-01-31 23:00+00', '2025-02-01 00:00+00') AS by_charge;
SET TimeZone = 'UTC';
ROLLBACK;
