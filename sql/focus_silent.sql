-- What a FOCUS load read silently wrong before 0.5.0 (issue 44, point 5), each against figures from
-- the lines' own cells: a commitment's unused hours are no GPU time, Azure's FocusCost 1.0-preview
-- columns (UsageQuantity, UsageUnit) are read as their 1.0 names, and two run tags naming different
-- runs on one line are refused naming the line.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT errors
\i sql/include/focus_common.sql

-- 1. Azure, FOCUS 1.0: a reservation's Used line of 24 h on an ND96isr H100 v5 (24 x 8 = 192
-- GPU-hours) and its Unused line of 100 h on the same meter (no GPU time: FOCUS leaves
-- ConsumedQuantity null there; Azure writes the hours): 192 GPU-hours in all, not 992.
SELECT line, gpu_hours, gpu_hours IS NOT DISTINCT FROM CASE line WHEN 2 THEN 24 * 8 END AS right_gpu_hours
  FROM _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ChargeCategory,CommitmentDiscountStatus,ConsumedQuantity,ConsumedUnit,x_SkuMeterCategory,x_SkuMeterName,BillingAccountId,BillingPeriodStart,BillingPeriodEnd\n'
                    '0,2203.20,EUR,2025-01-01,2025-01-02,Microsoft,Usage,Used,24,1 Hour,Virtual Machines,ND96isr H100 v5,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n'
                    '0,9180.00,EUR,2025-01-01,2025-01-02,Microsoft,Usage,Unused,100,1 Hour,Virtual Machines,ND96isr H100 v5,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z\n', 'ri.csv')
 ORDER BY line;

-- 2. Azure FocusCost 1.0-preview: UsageQuantity and UsageUnit are ConsumedQuantity and ConsumedUnit
-- (FOCUS 1.0 renamed them): 24 h x 8 GPUs = 192 GPU-hours, not NULL; the charge identity is the
-- 1.0 file's.
SELECT gpu_hours = 24 * 8 AS right_gpu_hours, consumed_quantity, consumed_unit
  FROM _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,UsageQuantity,UsageUnit,x_SkuMeterCategory,x_SkuMeterName,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                    '2450.40,2450.40,EUR,2025-01-01,2025-01-02,Microsoft,24,1 Hour,Virtual Machines,ND96isr H100 v5,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'preview.csv');
SELECT (SELECT row_hash FROM _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,UsageQuantity,UsageUnit,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                                          '1,1,EUR,2025-01-01,2025-01-02,Microsoft,24,1 Hour,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'preview.csv'))
     = (SELECT row_hash FROM _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,ConsumedUnit,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                                          '1,1,EUR,2025-01-01,2025-01-02,Microsoft,24,1 Hour,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', '1.0.csv')) AS same_identity;

-- 3. Run tags: user:run_id = r-alpha and run_id = r-beta on one line is 22023 naming the line;
-- the same run under both keys is that run.
SELECT * FROM _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                           '1,1,USD,2025-01-01,2025-01-02,AWS,"{""run_id"": ""r-ok""}",111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
                           '1,1,USD,2025-01-01,2025-01-02,AWS,"{""user:run_id"": ""r-alpha"", ""run_id"": ""r-beta""}",111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'tags.csv');
SELECT run_id FROM _focus_lines(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                                '1,1,USD,2025-01-01,2025-01-02,AWS,"{""user:run_id"": ""r-alpha"", ""run_id"": "" r-alpha ""}",111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'tags.csv');

-- 4. An empty BillingCurrency (FOCUS 1.0: mandatory, never null) was one line counted 1:1 as USD and
-- the month split into a blank-currency and a EUR row: now 22023 naming the line; nothing stored.
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                           '2450.40,2450.40,EUR,2025-01-01,2025-01-02,Microsoft,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
                           '2450.40,2450.40,,2025-01-02,2025-01-03,Microsoft,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', tenant => 'silent');
SELECT count(*) AS stored FROM spend WHERE tenant = 'silent';
