-- The FOCUS specification's own example files (test/data/focus_spec, README there): its correction
-- examples (closed and open billing periods) and its AWS, Azure and GCP commitment purchases and
-- usage, loaded as the specification's text says they are delivered, checked against its totals.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/focus_common.sql
BEGIN;
-- The correction examples have no ProviderName; their text names the provider, "ACME Corp (acting as
-- both the data generator and invoice issuer)": the column is added as they are loaded, with the other
-- mandatory columns they leave out (BillingAccountId 111, BillingCurrency USD), nothing else.
CREATE FUNCTION pg_temp.acme(csv text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(l || CASE WHEN n = 1 THEN ',ProviderName,BillingAccountId,BillingCurrency' ELSE ',ACME Corp,111,USD' END, E'\n' ORDER BY n) || E'\n'
    FROM string_to_table(rtrim(csv, E'\n'), E'\n') WITH ORDINALITY AS t(l, n) $$;
CREATE FUNCTION pg_temp.load(tenant text, csv text, mode text DEFAULT 'replace')
  RETURNS TABLE (inserted bigint, skipped bigint, replaced bigint, replaced_billed_usd numeric)
  LANGUAGE sql AS $$
  SELECT inserted, skipped, replaced, replaced_billed_usd
    FROM llm_econ.import_focus(pg_temp.acme(csv), tenant => tenant, mode => mode) $$;
\set s1_original `cat test/data/focus/spec/scenario_1_partial_reallocation_original.csv`
\set s1_ledger `cat test/data/focus/spec/scenario_1_partial_reallocation_ledger.csv`
\set s1_delta `cat test/data/focus_spec/closed/scenario_1_partial_reallocation_delta.csv`
\set s2_delta `cat test/data/focus_spec/closed/scenario_2_late_arriving_usage_delta.csv`
\set s3_original `cat test/data/focus_spec/closed/scenario_3_itemized_cost_only_original.csv`
\set s3_delta `cat test/data/focus_spec/closed/scenario_3_itemized_cost_only_delta.csv`
\set s3_ledger `cat test/data/focus_spec/closed/scenario_3_itemized_cost_only_ledger.csv`
\set s4_original `cat test/data/focus_spec/closed/scenario_4_bulk_cost_only_original.csv`
\set s4_delta `cat test/data/focus_spec/closed/scenario_4_bulk_cost_only_delta.csv`
\set s4_ledger `cat test/data/focus_spec/closed/scenario_4_bulk_cost_only_ledger.csv`
\set o1_original `cat test/data/focus_spec/open_current/scenario_1_partial_reallocation_original.csv`
\set o1_replacement `cat test/data/focus_spec/open_current/scenario_1_partial_reallocation_replacement.csv`
\set o1_delta `cat test/data/focus_spec/open_current/scenario_1_partial_reallocation_delta.csv`
\set o1_ledger `cat test/data/focus_spec/open_current/scenario_1_partial_reallocation_ledger.csv`
-- the invoice view of a tenant: billing month, lines, billed and effective USD, GPU-hours
CREATE FUNCTION pg_temp.months(who text) RETURNS TABLE (billing_month date, lines bigint, billed_usd numeric, effective_usd numeric, gpu_hours numeric)
  LANGUAGE sql AS $$
  SELECT billing_month, sum(lines)::bigint, sum(billed_usd), sum(effective_usd), sum(gpu_hours)
    FROM llm_econ.spend_monthly WHERE tenant = who GROUP BY 1 ORDER BY 1 $$;
-- the charges by resource (what chargeback sees), whatever month they were invoiced in
CREATE FUNCTION pg_temp.by_resource(who text) RETURNS TABLE (resource_id text, lines bigint, billed numeric, hours numeric)
  LANGUAGE sql AS $$
  SELECT resource_id, count(*), sum(billed_cost), sum(consumed_quantity)
    FROM llm_econ.spend WHERE tenant = who GROUP BY 1 ORDER BY 1 NULLS LAST $$;

-- 1. Closed billing period, scenario 1 (partial reallocation).  May's invoice: R-111, 1,000 h,
-- $1,500.  June's bill corrects May (ChargeClass Correction, charge period in May).  Delta style:
-- R-111 -200 h / -$300, R-222 +200 h / +$300.  Ledger style: -1,000 h / -$1,500 on R-111, then
-- +800 h / $1,200 on R-111 and +200 h / $300 on R-222.  Either way June's invoice nets 0 and
-- chargeback sees R-111 800 h / $1,200 and R-222 200 h / $300.
SELECT * FROM pg_temp.load('cl-delta', :'s1_original');
SELECT * FROM pg_temp.load('cl-delta', :'s1_delta');
SELECT * FROM pg_temp.load('cl-ledger', :'s1_original');
SELECT * FROM pg_temp.load('cl-ledger', :'s1_ledger');
SELECT * FROM pg_temp.months('cl-delta');
SELECT * FROM pg_temp.months('cl-ledger');
SELECT * FROM pg_temp.by_resource('cl-delta');
SELECT * FROM pg_temp.by_resource('cl-ledger');
SELECT DISTINCT record ->> 'ChargeClass' AS class, charge_period_start FROM spend
 WHERE tenant = 'cl-delta' AND billing_period_start = '2025-06-01' ORDER BY 1;

-- 2. Closed period, scenario 2 (late-arriving May usage, 1,000 h / $1,500 on June's bill).  June's
-- statement already holds scenario 1's delta, so the late line is appended to it: June 0 + 1,500;
-- May's usage by charge period 1,500 + 0 + 1,500 = 3,000 ($), 1,000 + 0 + 1,000 = 2,000 h.
SELECT * FROM pg_temp.load('cl-delta', :'s2_delta', 'append');
SELECT * FROM pg_temp.months('cl-delta');
SELECT sum(billed_cost) AS billed, sum(consumed_quantity) AS hours FROM spend
 WHERE tenant = 'cl-delta' AND charge_period_start >= '2025-05-01' AND charge_period_start < '2025-06-01';
-- appending any of them again adds nothing
SELECT * FROM pg_temp.load('cl-delta', :'s2_delta', 'append');
SELECT * FROM pg_temp.load('cl-delta', :'s1_delta', 'append');
SELECT * FROM pg_temp.months('cl-delta');

-- 3. Closed period, scenario 3 (itemized cost-only correction).  May: 6 lines of 3.001 h at
-- $0.233 = $0.699233 each, $4.195398 and 18.006 h; June: two cost-only Adjustment/Correction lines
-- of $0.001 (no quantity).  The delta and the ledger are the same correction delivered twice (the
-- text: "the Ledger and Delta corrections are identical"): the second, in mode replace, replaces
-- the first (2 lines, $0.002), and June's invoice is $0.002, not $0.004.
SELECT * FROM pg_temp.load('cl-itemized', :'s3_original');
SELECT * FROM pg_temp.load('cl-itemized', :'s3_delta');
SELECT * FROM pg_temp.load('cl-itemized', :'s3_ledger');
SELECT * FROM pg_temp.months('cl-itemized');
SELECT charge_category, record ->> 'ChargeClass' AS class, record ->> 'SkuPriceId' AS sku_price, consumed_quantity, billed_cost
  FROM spend WHERE tenant = 'cl-itemized' AND billing_period_start = '2025-06-01' ORDER BY line;
-- May's charges, corrections included: 4.195398 + 0.002 = 4.197398
SELECT sum(billed_cost) AS billed, sum(consumed_quantity) AS hours FROM spend WHERE tenant = 'cl-itemized';

-- 4. Closed period, scenario 4 (bulk cost-only correction): the same May, one $0.002 line on June's
-- bill.  The example writes a null as "(null)", in ChargeClass and in the number columns
-- (PricingQuantity, ConsumedQuantity): a NULL, as the word NULL is (before: "not a number").
SELECT * FROM pg_temp.load('cl-bulk', :'s4_original');
SELECT * FROM pg_temp.load('cl-bulk', :'s4_delta');
SELECT * FROM pg_temp.load('cl-bulk', :'s4_ledger');
SELECT * FROM pg_temp.months('cl-bulk');
SELECT charge_category, record ->> 'ChargeClass' AS class, consumed_quantity, consumed_unit, billed_cost, record ? 'SkuPriceId' AS has_sku_price
  FROM spend WHERE tenant = 'cl-bulk' ORDER BY billing_period_start, line;
-- scenario 4's May lines ("(null)" ChargeClass) are scenario 3's (empty ChargeClass): the same
-- charges, so appending them to scenario 3's tenant adds nothing
SELECT * FROM pg_temp.load('cl-itemized', :'s4_original', 'append');
-- the staged path reads "(null)" the same way: the bulk delta staged and loaded is the same charge
INSERT INTO focus_stage (line)
  SELECT l FROM string_to_table(rtrim(pg_temp.acme(:'s4_delta'), E'\n'), E'\n') WITH ORDINALITY AS t(l, n) ORDER BY n;
SELECT inserted FROM load_focus(tenant => 'cl-bulk-staged');
SELECT s.consumed_quantity, s.consumed_unit, s.billed_cost, s.row_hash = f.row_hash AS same_charge
  FROM spend s, _focus_lines(pg_temp.acme(:'s4_delta'), 'x') f WHERE s.tenant = 'cl-bulk-staged';
-- null as the word in any case, bare or in parentheses; "nil" and "(none)" are not numbers
SELECT line, consumed_quantity, record ->> 'ChargeClass' AS class FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,ChargeClass,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '1,1,2025-05-01,2025-05-02,ACME Corp,null,(NULL),111,USD,2025-05-01T00:00:00Z,2025-06-01T00:00:00Z,Usage\n1,1,2025-05-01,2025-05-02,ACME Corp,Null,NULL,111,USD,2025-05-01T00:00:00Z,2025-06-01T00:00:00Z,Usage\n1,1,2025-05-01,2025-05-02,ACME Corp,(Null),null,111,USD,2025-05-01T00:00:00Z,2025-06-01T00:00:00Z,Usage\n', 'nulls.csv');
SELECT pg_temp.error_code(format('SELECT * FROM _focus_lines(%L, %L)', E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '1,1,2025-05-01,2025-05-02,ACME Corp,(none),111,USD,2025-05-01T00:00:00Z,2025-06-01T00:00:00Z,Usage\n', 'x.csv'));
SELECT pg_temp.error_code(format('SELECT * FROM _focus_lines(%L, %L)', E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ConsumedQuantity,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '1,1,2025-05-01,2025-05-02,ACME Corp,(null,111,USD,2025-05-01T00:00:00Z,2025-06-01T00:00:00Z,Usage\n', 'x.csv'));

-- 5. Open (current) billing period, scenario 1: July's R-111 line, 1,000 h / $1,500, corrected
-- within July (ChargeClass null) to R-111 800 h / $1,200 and R-222 200 h / $300.  Replacement
-- style (an Overwrite: the file is July's statement): mode replace replaces the 1 line ($1,500)
-- with 2.  Delta and ledger styles (Append): mode append adds their 3 and 2 lines.  All three
-- leave July at $1,500 and 1,000 h, R-111 $1,200 / 800 h, R-222 $300 / 200 h.
SELECT * FROM pg_temp.load('op-replace', :'o1_original');
SELECT * FROM pg_temp.load('op-replace', :'o1_replacement');
SELECT * FROM pg_temp.load('op-delta', :'o1_original');
SELECT * FROM pg_temp.load('op-delta', :'o1_delta', 'append');
SELECT * FROM pg_temp.load('op-ledger', :'o1_original');
SELECT * FROM pg_temp.load('op-ledger', :'o1_ledger', 'append');
SELECT tenant, billing_month, lines, billed_usd, effective_usd FROM spend_monthly WHERE tenant LIKE 'op-%' ORDER BY tenant;
SELECT 'op-replace' AS tenant, * FROM pg_temp.by_resource('op-replace')
UNION ALL SELECT 'op-delta', * FROM pg_temp.by_resource('op-delta')
UNION ALL SELECT 'op-ledger', * FROM pg_temp.by_resource('op-ledger') ORDER BY 1, 2;
-- the replacement delivered again (mode replace) changes nothing: 2 replaced, 2 inserted
SELECT * FROM pg_temp.load('op-replace', :'o1_replacement');
SELECT * FROM pg_temp.months('op-replace');
-- the untagged spend is its own row of plan_vs_actual_monthly: each tenant's July, $1,500
SELECT tenant, run_id, billing_month, provider, billed_usd, lines FROM plan_vs_actual_monthly
 WHERE tenant LIKE 'op-%' OR tenant LIKE 'cl-%' ORDER BY tenant, billing_month;

-- 5b. The other open-period examples, each style in its own tenant (ChargeClass null: corrections
-- within the period).  pg_temp.step says what a load did: inserted / skipped / replaced lines.
CREATE FUNCTION pg_temp.step(tenant text, csv text, mode text DEFAULT 'replace') RETURNS text LANGUAGE sql AS $$
  SELECT format('%s: %s inserted, %s skipped, %s replaced', tenant, inserted, skipped, replaced)
    FROM pg_temp.load(tenant, csv, mode) $$;
\set oc2_replacement `cat test/data/focus_spec/open_current/scenario_2_late_arriving_usage_replacement.csv`
\set oc2_delta `cat test/data/focus_spec/open_current/scenario_2_late_arriving_usage_delta.csv`
\set oc2_ledger `cat test/data/focus_spec/open_current/scenario_2_late_arriving_usage_ledger.csv`
\set oc3_original `cat test/data/focus_spec/open_current/scenario_3_itemized_cost_only_original.csv`
\set oc3_replacement `cat test/data/focus_spec/open_current/scenario_3_itemized_cost_only_replacement.csv`
\set oc3_ledger `cat test/data/focus_spec/open_current/scenario_3_itemized_cost_only_ledger.csv`
\set oc4_original `cat test/data/focus_spec/open_current/scenario_4_bulk_cost_only_original.csv`
\set oc4_replacement `cat test/data/focus_spec/open_current/scenario_4_bulk_cost_only_replacement.csv`
\set oc4_delta `cat test/data/focus_spec/open_current/scenario_4_bulk_cost_only_delta.csv`
\set oc4_ledger `cat test/data/focus_spec/open_current/scenario_4_bulk_cost_only_ledger.csv`
\set op1_original `cat test/data/focus_spec/open_previous/scenario_1_partial_reallocation_original.csv`
\set op1_replacement `cat test/data/focus_spec/open_previous/scenario_1_partial_reallocation_replacement.csv`
\set op1_delta `cat test/data/focus_spec/open_previous/scenario_1_partial_reallocation_delta.csv`
\set op1_ledger `cat test/data/focus_spec/open_previous/scenario_1_partial_reallocation_ledger.csv`
\set op2_delta `cat test/data/focus_spec/open_previous/scenario_2_late_arriving_usage_delta.csv`
\set op2_ledger `cat test/data/focus_spec/open_previous/scenario_2_late_arriving_usage_ledger.csv`
\set op3_original `cat test/data/focus_spec/open_previous/scenario_3_itemized_cost_only_original.csv`
\set op3_replacement `cat test/data/focus_spec/open_previous/scenario_3_itemized_cost_only_replacement.csv`
\set op3_delta `cat test/data/focus_spec/open_previous/scenario_3_itemized_cost_only_delta.csv`
\set op3_ledger `cat test/data/focus_spec/open_previous/scenario_3_itemized_cost_only_ledger.csv`
\set op4_original `cat test/data/focus_spec/open_previous/scenario_4_bulk_cost_only_original.csv`
\set op4_replacement `cat test/data/focus_spec/open_previous/scenario_4_bulk_cost_only_replacement.csv`
\set op4_delta `cat test/data/focus_spec/open_previous/scenario_4_bulk_cost_only_delta.csv`
\set op4_ledger `cat test/data/focus_spec/open_previous/scenario_4_bulk_cost_only_ledger.csv`
-- July, scenario 2 (late-arriving usage, $1,500; the examples give no original): the replacement
-- is July's statement; the ledger's line is the same charge (its ChargeClass empty, the
-- replacement's "(null)"), so appending it adds nothing.  The delta alone: $1,500.
SELECT pg_temp.step('oc2', :'oc2_replacement');
SELECT pg_temp.step('oc2', :'oc2_ledger', 'append');
SELECT pg_temp.step('oc2-delta', :'oc2_delta');
-- July, scenario 3 (itemized cost-only, +2 x $0.001 on $4.195398): the replacement (the 6 usage
-- lines again, ChargeClass empty where the original wrote "(null)", and the 2 corrections) replaces
-- the original's 6 lines; appended instead, it adds only the 2 corrections; the ledger ("null" and
-- "(null)" in its quantity columns) appended adds them too.  Each: 8 lines, $4.197398.
SELECT pg_temp.step('oc3', :'oc3_original');
SELECT pg_temp.step('oc3', :'oc3_replacement');
SELECT pg_temp.step('oc3-append', :'oc3_original');
SELECT pg_temp.step('oc3-append', :'oc3_replacement', 'append');
SELECT pg_temp.step('oc3-ledger', :'oc3_original');
SELECT pg_temp.step('oc3-ledger', :'oc3_ledger', 'append');
-- July, scenario 4 (bulk, +$0.002): replacement (replace), delta and ledger (append): 7 lines, $4.197398
SELECT pg_temp.step('oc4', :'oc4_original');
SELECT pg_temp.step('oc4', :'oc4_replacement');
SELECT pg_temp.step('oc4-delta', :'oc4_original');
SELECT pg_temp.step('oc4-delta', :'oc4_delta', 'append');
SELECT pg_temp.step('oc4-ledger', :'oc4_original');
SELECT pg_temp.step('oc4-ledger', :'oc4_ledger', 'append');
-- June (the previous period, still open), scenario 1: as July's; scenario 2: delta and ledger each
-- $1,500 (their descriptions differ by a space: two different charges, so each in its own tenant);
-- scenario 3: the "replacement" file of this version holds only the 2 corrections (not June's
-- whole statement), so it is appended like the delta and the ledger (whose corrections are
-- ChargeCategory Usage with no quantity); scenario 4: as July's.
SELECT pg_temp.step('op1', :'op1_original');
SELECT pg_temp.step('op1', :'op1_replacement');
SELECT pg_temp.step('op1-delta', :'op1_original');
SELECT pg_temp.step('op1-delta', :'op1_delta', 'append');
SELECT pg_temp.step('op1-ledger', :'op1_original');
SELECT pg_temp.step('op1-ledger', :'op1_ledger', 'append');
SELECT pg_temp.step('op2-delta', :'op2_delta');
SELECT pg_temp.step('op2-ledger', :'op2_ledger');
SELECT pg_temp.step('op3', :'op3_original');
SELECT pg_temp.step('op3', :'op3_replacement', 'append');
SELECT pg_temp.step('op3-delta', :'op3_original');
SELECT pg_temp.step('op3-delta', :'op3_delta', 'append');
SELECT pg_temp.step('op3-ledger', :'op3_original');
SELECT pg_temp.step('op3-ledger', :'op3_ledger', 'append');
SELECT pg_temp.step('op4', :'op4_original');
SELECT pg_temp.step('op4', :'op4_replacement');
SELECT pg_temp.step('op4-delta', :'op4_original');
SELECT pg_temp.step('op4-delta', :'op4_delta', 'append');
SELECT pg_temp.step('op4-ledger', :'op4_original');
SELECT pg_temp.step('op4-ledger', :'op4_ledger', 'append');
SELECT tenant, billing_month, lines, billed_usd, effective_usd
  FROM spend_monthly WHERE tenant ~ '^o[cp][1-4]' ORDER BY tenant;
-- scenario 1 by resource, June: R-111 $1,200 / 800 h, R-222 $300 / 200 h in each style
SELECT tenant, resource_id, sum(billed_cost) AS billed, sum(consumed_quantity) AS hours
  FROM spend WHERE tenant LIKE 'op1%' GROUP BY 1, 2 ORDER BY 1, 2;

-- 6. Commitment discounts, AWS (EC2 Instance Savings Plan), Azure (VM reservation) and GCP
-- (resource-based CUD), all upfront, 100% used, February 2026 (the files as they are: CRLF line
-- ends, ProviderName given).  Each: one Purchase line billing the whole commitment with
-- EffectiveCost 0 (its cost "is amortized to usage rows"), 24 hourly Usage lines covered by it
-- (BilledCost 0, EffectiveCost the amortised hour), 3 on-demand hours.  By hand:
--   AWS   billed 628,004.40 + 3 x 3.84 = 628,015.92  effective 24 x 71.69 + 3 x 3.84 = 1,732.08
--   Azure billed 358,021.20 + 3 x 3.07 = 358,030.41  effective 24 x 40.87 + 3 x 3.07 =   990.09
--   GCP   billed 258,000.00 + 3 x 2.70 = 258,008.10  effective 24 x 29.45 + 3 x 2.70 =   714.90
-- The invoice is the billed column (the purchase is invoiced in February); the effective column
-- is the month's amortised use.  No line bills a GPU: no GPU-hours, the purchase included.
\set aws `cat test/data/focus_spec/commitment/aws_savings_plan_all_upfront_100pct.csv`
\set azure `cat test/data/focus_spec/commitment/azure_reservation_all_upfront_100pct.csv`
\set gcp `cat test/data/focus_spec/commitment/gcp_resource_cud_all_upfront_100pct.csv`
SELECT inserted, skipped, replaced FROM import_focus(:'aws', tenant => 'cd');
SELECT inserted, skipped, replaced FROM import_focus(:'azure', tenant => 'cd');
SELECT inserted, skipped, replaced FROM import_focus(:'gcp', tenant => 'cd');
SELECT provider, billing_account_id, billing_month, billing_currency, billed_cost, effective_cost, billed_usd, effective_usd, gpu_hours, lines
  FROM spend_monthly WHERE tenant = 'cd' ORDER BY provider;
SELECT provider, charge_category, pricing, count(*) AS lines, sum(billed_cost) AS billed, sum(effective_cost) AS effective,
       sum(consumed_quantity) AS hours, sum(gpu_hours) AS gpu_hours
  FROM spend WHERE tenant = 'cd' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- nothing is tagged: one untagged row per provider, the month's invoice
SELECT run_id, billing_month, provider, billed_usd, effective_usd, lines FROM plan_vs_actual_monthly WHERE tenant = 'cd' ORDER BY provider;
SELECT sum(billed_usd) AS invoices, sum(effective_usd) AS amortised FROM plan_vs_actual_monthly WHERE tenant = 'cd';
-- the line ends are not part of any value
SELECT count(*) AS values_with_cr FROM spend s, jsonb_each_text(s.record) e
 WHERE s.tenant = 'cd' AND (strpos(e.value, E'\r') > 0 OR strpos(s.charge_description, E'\r') > 0);
-- a re-delivery of each file in mode replace leaves the same statement; in mode append adds nothing
SELECT inserted, skipped, replaced, replaced_billed_usd FROM import_focus(:'aws', tenant => 'cd');
SELECT inserted, skipped, replaced FROM import_focus(:'azure', tenant => 'cd', mode => 'append');
SELECT provider, billed_usd, effective_usd, lines FROM spend_monthly WHERE tenant = 'cd' ORDER BY provider;
-- the staged path (\copy, then load_focus) stores the same charges as import_focus
\copy focus_stage (line) FROM 'test/data/focus_spec/commitment/gcp_resource_cud_all_upfront_100pct.csv' WITH (FORMAT csv, DELIMITER E'\x1f', QUOTE E'\x1e')
SELECT inserted, skipped, replaced FROM load_focus(tenant => 'cd-staged');
SELECT (SELECT array_agg(row_hash ORDER BY row_hash) FROM spend WHERE tenant = 'cd' AND provider = 'gcp')
     = (SELECT array_agg(row_hash ORDER BY row_hash) FROM spend WHERE tenant = 'cd-staged') AS same_charges;
-- 7. More of the same clouds' commitment examples, each its own February statement (tenant cd2):
--   AWS savings plan all upfront, 50% used: purchase 693,003.60; 12 used and 12 unused hours of
--     79.11 effective each (the unused ones name no resource and consume nothing); 3 x 3.84
--     on-demand.  Billed 693,003.60 + 11.52 = 693,015.12; effective 24 x 79.11 + 11.52 = 1,910.16.
--   Azure reservation, no upfront: a Recurring purchase of 55,334.00; 24 hours of 75.80; storage
--     9.55 + 9.96 + 7.36, SQL 3 x 0.13, Functions 0 + 0 + 0.01, Cosmos DB 2.66 + 3.16 + 6.26 =
--     39.35.  Billed 55,334.00 + 39.35 = 55,373.35; effective 24 x 75.80 + 39.35 = 1,858.55.
--   GCP spend-based CUD, partial upfront: purchases 100,208.34 (One-Time) + 8,350.69 (Recurring);
--     24 hours of 42.24; storage 1.30 + 5.24 + 2.80, SQL 3 x 0.04, Functions 0, Spanner 3 x 0.90
--     = 12.16.  Billed 108,559.03 + 12.16 = 108,571.19; effective 24 x 42.24 + 12.16 = 1,025.92.
\set aws50 `cat test/data/focus_spec/commitment/aws_savings_plan_all_upfront_50pct.csv`
\set azure_nu `cat test/data/focus_spec/commitment/azure_reservation_no_upfront_100pct.csv`
\set gcp_flex `cat test/data/focus_spec/commitment/gcp_flex_cud_partial_upfront_100pct.csv`
SELECT inserted, skipped, replaced FROM import_focus(:'aws50', tenant => 'cd2');
SELECT inserted, skipped, replaced FROM import_focus(:'azure_nu', tenant => 'cd2');
SELECT inserted, skipped, replaced FROM import_focus(:'gcp_flex', tenant => 'cd2');
SELECT provider, billing_month, billed_usd, effective_usd, gpu_hours, lines, unconverted_lines
  FROM spend_monthly WHERE tenant = 'cd2' ORDER BY provider;
SELECT provider, charge_category, record ->> 'CommitmentDiscountStatus' AS status, count(*) AS lines, sum(billed_cost) AS billed,
       sum(effective_cost) AS effective, sum(consumed_quantity) FILTER (WHERE consumed_unit = 'Hours') AS hours,
       count(resource_id) AS with_resource, sum(gpu_hours) AS gpu_hours
  FROM spend WHERE tenant = 'cd2' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- AWS savings plan at 150% (January 2026, an older form of the examples: no ChargeClass, the
-- currency column headed BilledCurrency, which the importer reads as BillingCurrency: USD):
-- the text's row summary is 1 purchase $212,000.00, 24 used hours ($24.20 effective each, $580.80)
-- and 24 on-demand lines (12 overflow hours of $36.30 = 435.60, S3 4.69 + 11.48 + 6.88, RDS
-- 3 x 0.15, Lambda 3 x 0.01, DynamoDB 0.02 + 0.02 + 0.01: $459.18); total billed $212,459.18,
-- effective $1,039.98, 49 lines.
\set aws150 `cat test/data/focus_spec/commitment/aws_overflow_150pct.csv`
SELECT inserted FROM import_focus(:'aws150', tenant => 'cd2');
SELECT billing_month, billing_currency, billed_cost, effective_cost, billed_usd, effective_usd, lines, unconverted_lines
  FROM spend_monthly WHERE tenant = 'cd2' AND billing_month = '2026-01-01';
-- Tenant cd3: AWS reserved instance, partial upfront: purchases 119,166.66 (One-Time) + 9,930.56
-- (Recurring); 24 hours of 50.23; S3 5.84 + 7.48 + 5.98, RDS 3 x 0.15, Lambda 3 x 0.01, DynamoDB
-- 0.01 + 0.01 + 0.02 = 19.82: billed 129,097.22 + 19.82 = 129,117.04, effective 24 x 50.23 +
-- 19.82 = 1,225.34, 38 lines.  Azure savings plan, all upfront: 462,002.40; 24 hours of 52.74;
-- 3 x 3.07 on demand: billed 462,011.61, effective 1,265.76 + 9.21 = 1,274.97, 28 lines.
\set aws_ri `cat test/data/focus_spec/commitment/aws_reserved_instance_partial_upfront_100pct.csv`
\set azure_sp `cat test/data/focus_spec/commitment/azure_savings_plan_all_upfront_100pct.csv`
SELECT inserted FROM import_focus(:'aws_ri', tenant => 'cd3');
SELECT inserted FROM import_focus(:'azure_sp', tenant => 'cd3');
-- GCP resource-based CUD paid monthly (tenant cd3): a Recurring purchase of 19,790.40; 24 hours of
-- 29.45; 3 x 2.70: billed 19,798.50, effective 706.80 + 8.10 = 714.90.  GCP spend-based CUD paid
-- monthly (tenant cd4, the same account): 42,423.36; 24 hours of 63.13; 3 x 2.70: billed
-- 42,431.46, effective 1,515.12 + 8.10 = 1,523.22.  (These two files end lines with LF.)
\set gcp_res_nu `cat test/data/focus_spec/commitment/gcp_resource_cud_no_upfront_100pct.csv`
\set gcp_flex_nu `cat test/data/focus_spec/commitment/gcp_flex_cud_no_upfront_100pct.csv`
SELECT inserted FROM import_focus(:'gcp_res_nu', tenant => 'cd3');
SELECT inserted FROM import_focus(:'gcp_flex_nu', tenant => 'cd4');
-- AWS savings plan all upfront, 0% used (tenant cd4): 353,028.00 and 24 unused hours of 40.30:
-- billed 353,028.00, effective 967.20, nothing consumed.  75% used (tenant cd5): 459,024.00; 18
-- used and 6 unused hours of 52.40; 3 x 3.84: billed 459,035.52, effective 1,257.60 + 11.52 =
-- 1,269.12.
\set aws0 `cat test/data/focus_spec/commitment/aws_savings_plan_all_upfront_0pct.csv`
\set aws75 `cat test/data/focus_spec/commitment/aws_savings_plan_all_upfront_75pct.csv`
SELECT inserted FROM import_focus(:'aws0', tenant => 'cd4');
SELECT inserted FROM import_focus(:'aws75', tenant => 'cd5');
SELECT tenant, provider, billing_month, billed_usd, effective_usd, gpu_hours, lines FROM spend_monthly WHERE tenant IN ('cd3', 'cd4', 'cd5') ORDER BY tenant, provider;
-- AWS savings plan all upfront with overage (tenant cd6): 211,992.00; 24 covered hours of 24.20;
-- 12 more hours on demand at 36.30: billed 211,992.00 + 435.60 = 212,427.60, effective 580.80 +
-- 435.60 = 1,016.40, 37 lines, 36 hours.
\set aws_over `cat test/data/focus_spec/commitment/aws_savings_plan_all_upfront_overage.csv`
SELECT inserted FROM import_focus(:'aws_over', tenant => 'cd6');
SELECT tenant, record ->> 'CommitmentDiscountStatus' AS status, count(*) AS lines, sum(billed_cost) AS billed, sum(effective_cost) AS effective,
       sum(consumed_quantity) AS hours
  FROM spend WHERE tenant IN ('cd4', 'cd5', 'cd6') AND provider = 'aws' AND charge_category = 'Usage' GROUP BY 1, 2 ORDER BY 1, 2;
-- AWS savings plan paid monthly (tenant cd7): a Recurring purchase of 38,580.50; 24 hours of 52.85;
-- S3 6.10 + 3.75 + 2.83, RDS 3 x 0.15, Lambda 0, DynamoDB 0.01 + 0.02 + 0.02 = 13.18: billed
-- 38,593.68, effective 1,268.40 + 13.18 = 1,281.58, 37 lines.
\set aws_nu `cat test/data/focus_spec/commitment/aws_savings_plan_no_upfront_100pct.csv`
SELECT inserted FROM import_focus(:'aws_nu', tenant => 'cd7');
-- GCP spend-based CUD all upfront (tenant cd7): 553,000.00; 24 hours of 63.13; 3 x 2.70: billed
-- 553,008.10, effective 1,515.12 + 8.10 = 1,523.22, 28 lines.
\set gcp_flex_au `cat test/data/focus_spec/commitment/gcp_flex_cud_all_upfront_100pct.csv`
SELECT inserted FROM import_focus(:'gcp_flex_au', tenant => 'cd7');
-- AWS reserved instance all upfront (tenant cd8): 402,960.00; 24 hours of 46.00; 3 x 3.84: billed
-- 402,971.52, effective 1,104.00 + 11.52 = 1,115.52, 28 lines.
\set aws_ri_au `cat test/data/focus_spec/commitment/aws_reserved_instance_all_upfront_100pct.csv`
SELECT inserted FROM import_focus(:'aws_ri_au', tenant => 'cd8');
-- AWS savings plan partial upfront (tenant cd9): purchases 121,333.34 (One-Time) + 10,111.11
-- (Recurring); 24 hours of 51.14; S3 5.38 + 3.75 + 9.64, RDS 3 x 0.15, Lambda 0 + 0 + 0.01,
-- DynamoDB 0.02 + 0.02 + 0 = 19.27: billed 131,463.72, effective 1,227.36 + 19.27 = 1,246.63, 38 lines.
\set aws_sp_pu `cat test/data/focus_spec/commitment/aws_savings_plan_partial_upfront_100pct.csv`
SELECT inserted FROM import_focus(:'aws_sp_pu', tenant => 'cd9');
SELECT tenant, provider, billed_usd, effective_usd, lines FROM spend_monthly WHERE tenant IN ('cd6', 'cd7', 'cd8', 'cd9') ORDER BY tenant, provider;
-- the 50% statement delivered for the account that held the 100% one (tenant cd) replaces it
SELECT inserted, replaced, replaced_billed_usd, replaced_effective_usd FROM import_focus(:'aws50', tenant => 'cd');
SELECT provider, billed_usd, effective_usd, lines FROM spend_monthly WHERE tenant = 'cd' AND provider = 'aws';
-- 8. Commitment discount flexibility (the fictitious provider the text names, "TinyCloud": the
-- column is added as they load; these files end lines with CRLF, put a blank line between rows and
-- write null as "null", in ConsumedQuantity too).  January 2023, one hour, each its own tenant.
-- The text's outcomes: a VM_SMALL commitment ($0.50 billed, $0.50 effective) covering a quarter of
-- a VM_LARGE, whose rest is $2.25 on demand: billed 2.75, effective 2.75; a VM_XLARGE commitment
-- ($2.00) covering two VM_MEDIUMs ($1.00 effective each): 2.00 and 2.00; a VM_LARGE commitment
-- ($1.50) covering a VM_LARGE: 1.50 and 1.50; a VM_LARGE commitment unused ($1.50 effective) and a
-- VM_MEDIUM on demand ($2.00): billed 3.50, effective 3.50.
-- (with BillingAccountId 111 and BillingCurrency USD, mandatory since 0.5.0, which the files leave out)
CREATE FUNCTION pg_temp.add_provider(csv text, provider text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(CASE WHEN n = 1 THEN regexp_replace(l, '(\r?)$', ',ProviderName,BillingAccountId,BillingCurrency\1')
                         WHEN l IN ('', E'\r') THEN l
                         ELSE regexp_replace(l, '(\r?)$', ',' || provider || ',111,USD\1') END, E'\n' ORDER BY n)
    FROM string_to_table(csv, E'\n') WITH ORDINALITY AS t(l, n) $$;
\set flex1 `cat test/data/focus_spec/flexibility/one_hundred_percent_utilization_with_commitment_discount_flexibility_with_1_resource.csv`
\set flex2 `cat test/data/focus_spec/flexibility/one_hundred_percent_utilization_with_commitment_discount_flexibility_with_2_resources.csv`
\set flex0 `cat test/data/focus_spec/flexibility/one_hundred_percent_utilization_without_commitment_discount_flexibility.csv`
\set unused `cat test/data/focus_spec/flexibility/zero_percent_utilization_without_commitment_discount_flexibility.csv`
SELECT inserted FROM import_focus(pg_temp.add_provider(:'flex1', 'TinyCloud'), tenant => 'tiny-flex-1');
SELECT inserted FROM import_focus(pg_temp.add_provider(:'flex2', 'TinyCloud'), tenant => 'tiny-flex-2');
SELECT inserted FROM import_focus(pg_temp.add_provider(:'flex0', 'TinyCloud'), tenant => 'tiny-no-flex');
SELECT inserted FROM import_focus(pg_temp.add_provider(:'unused', 'TinyCloud'), tenant => 'tiny-unused');
SELECT tenant, provider, billing_month, lines, billed_usd, effective_usd FROM spend_monthly WHERE tenant LIKE 'tiny-%' ORDER BY tenant;
-- the two VM_MEDIUM hours are identical lines, both kept (two charges); appending the file again adds neither
SELECT inserted, skipped FROM import_focus(pg_temp.add_provider(:'flex2', 'TinyCloud'), tenant => 'tiny-flex-2', mode => 'append');
SELECT tenant, line, charge_category, pricing, record ->> 'CommitmentDiscountStatus' AS status, consumed_quantity, consumed_unit,
       billed_cost, effective_cost FROM spend WHERE tenant LIKE 'tiny-%' ORDER BY tenant, line;
-- 9. AI model billing (specification/data/ai_model_billing; fictional providers, FOCUS 1.3 columns:
-- ServiceProviderName, HostProviderName, SkuPriceDetails with the model).  Each file its own
-- tenant (several are the same provider, account and month: one would replace the other).  Every
-- usage line bills tokens (ConsumedUnit Tokens), none a GPU or a machine hour: no GPU-hours, the
-- $500,000 token-commitment purchase included.  By hand (python over the CSV, Decimal):
--   per token        42.00 + 52.50                       = 94.50 billed and effective
--   third party       2.25 + 2.25                        =  4.50 (provider Aura Web)
--   cached tokens    10.00 + 37.50                       = 47.50 (served by Solora AI, hosted by Aura Web)
--   multi model      50.00 + 50.00 + 2.25 + 2.25         = 104.50
--   invoice via marketplace 500 + 1,500 + 12.50 + 22.50 + 0.75 + 1.50 + 0.01 + 0.10 = 2,037.36
--   drawdown: a Purchase of 500,000.00 (EffectiveCost 0, its charge period a year); two token lines
--     billed 0, effective 20.00 + 30.00 = 50.00: billed 500,000.00, effective 50.00
\set ai_token `cat test/data/focus_spec/ai_model_billing/per_token_ai_model_api.csv`
\set ai_third `cat test/data/focus_spec/ai_model_billing/csp_served_third_party_model.csv`
\set ai_cached `cat test/data/focus_spec/ai_model_billing/cached_tokens_via_csp_marketplace.csv`
\set ai_multi `cat test/data/focus_spec/ai_model_billing/multi_model_usage.csv`
\set ai_invoice `cat test/data/focus_spec/ai_model_billing/multi_model_invoice_via_csp_marketplace.csv`
\set ai_drawdown `cat test/data/focus_spec/ai_model_billing/drawdown_via_prepayment_ai_model_api.csv`
SELECT inserted FROM import_focus(:'ai_token', tenant => 'ai-token');
SELECT inserted FROM import_focus(:'ai_third', tenant => 'ai-third');
SELECT inserted FROM import_focus(:'ai_cached', tenant => 'ai-cached');
SELECT inserted FROM import_focus(:'ai_multi', tenant => 'ai-multi');
SELECT inserted FROM import_focus(:'ai_invoice', tenant => 'ai-invoice');
SELECT inserted FROM import_focus(:'ai_drawdown', tenant => 'ai-drawdown');
SELECT tenant, provider, billing_month, billed_usd, effective_usd, gpu_hours, lines, unconverted_lines
  FROM spend_monthly WHERE tenant LIKE 'ai-%' ORDER BY tenant;
SELECT tenant, charge_category, consumed_unit, count(*) AS lines, sum(consumed_quantity) AS quantity,
       count(gpu_hours) AS with_gpu_hours, count(instance_type) AS with_instance_type
  FROM spend WHERE tenant LIKE 'ai-%' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- the untagged row of each: the invoice, no GPU-hours
SELECT tenant, run_id, billing_month, billed_usd, effective_usd, gpu_hours FROM plan_vs_actual_monthly
 WHERE tenant LIKE 'ai-%' ORDER BY tenant;

-- 11. The older series of the AWS commitment examples (aws_overflow_150pct's form: January 2026, no
-- ChargeClass, the currency column headed BilledCurrency, read as BillingCurrency: USD), each its
-- own tenant (one account and month: a second file would replace the first).  Each has 3 hours each of S3, RDS, Lambda and DynamoDB on demand.  By hand (python,
-- Decimal, over the CSV; "od" the on-demand lines):
--   zero utilization    353,000.0 + od 12.84 = 353,012.84 billed; 24 unused hours x 40.30 = 967.20 + 12.84 = 980.04 effective
--   underutilized 50%   693,000.0 + od 24.06 = 693,024.06; 12 used + 12 unused x 79.11 = 1,898.64 + 24.06 = 1,922.70
--   savings plan, all upfront   628,000.0 + od 22.54 = 628,022.54; 24 x 71.69 = 1,720.56 + 22.54 = 1,743.10
--   savings plan, no upfront    38,583.33 (Recurring) + od 13.18 = 38,596.51; 24 x 52.85 = 1,268.40 + 13.18 = 1,281.58
--   savings plan, partial       224,000.00 + 18,666.67 + od 19.27 = 242,685.94; 24 x 51.14 = 1,227.36 + 19.27 = 1,246.63
--   reserved instance, all upfront  403,000.0 + od 25.98 = 403,025.98; 24 x 46.00 = 1,104.00 + 25.98 = 1,129.98
--   reserved instance, partial  220,000.00 + 18,333.33 + od 19.82 = 238,353.15; 24 x 50.23 = 1,205.52 + 19.82 = 1,225.34
--   Azure reservation, all upfront  358,000.0 + od 22.31 (Blob 10.39, SQL 0.39, Functions 0.01, Cosmos DB 11.52)
--     = 358,022.31; 24 x 40.87 = 980.88 + 22.31 = 1,003.19
--   Azure reservation, no upfront   55,333.33 (Recurring) + od 39.35 = 55,372.68; 24 x 75.80 = 1,819.20 + 39.35 = 1,858.55
--   Azure savings plan, all upfront 462,000.0 + od 24.07 = 462,024.07; 24 x 52.74 = 1,265.76 + 24.07 = 1,289.83
--   GCP resource CUD, all upfront   258,000.0 + od 19.14 (Storage 16.32, SQL 0.12, Functions 0, Spanner 2.70)
--     = 258,019.14; 24 x 29.45 = 706.80 + 19.14 = 725.94
--   GCP flex CUD, all upfront       553,000.0 + od 25.52 = 553,025.52; 24 x 63.13 = 1,515.12 + 25.52 = 1,540.64
--   GCP flex CUD, partial upfront   185,000.00 + 15,416.67 + od 12.16 = 200,428.83; 24 x 42.24 = 1,013.76 + 12.16 = 1,025.92
-- The pages of zero utilization, underutilized 50%, savings plan all upfront and GCP flex CUD partial
-- upfront (specification/appendix/commitment_discounts/*.md, 11c014928018513f4a1f81f92726841e002779a9)
-- state these same totals and line counts.
-- No GPU-hours: the instances are not named (no x_UsageType, and no GPU machine in any description).
-- pg_temp.put loads a file as it is (pg_temp.step adds the correction examples' ProviderName).
CREATE FUNCTION pg_temp.put(tenant text, csv text) RETURNS text LANGUAGE sql AS $$
  SELECT format('%s: %s inserted, %s skipped, %s replaced', tenant, inserted, skipped, replaced)
    FROM llm_econ.import_focus(csv, tenant => tenant) $$;
\set old_zero `cat test/data/focus_spec/commitment/aws_zero_utilization.csv`
\set old_u50 `cat test/data/focus_spec/commitment/aws_underutilized_50pct.csv`
\set old_sp_au `cat test/data/focus_spec/commitment/aws_savings_plan_all_upfront.csv`
\set old_sp_nu `cat test/data/focus_spec/commitment/aws_savings_plan_no_upfront.csv`
\set old_sp_pu `cat test/data/focus_spec/commitment/aws_savings_plan_partial_upfront.csv`
\set old_ri_au `cat test/data/focus_spec/commitment/aws_reserved_instance_all_upfront.csv`
\set old_ri_pu `cat test/data/focus_spec/commitment/aws_reserved_instance_partial_upfront.csv`
SELECT pg_temp.put('old-zero', :'old_zero'), pg_temp.put('old-u50', :'old_u50'), pg_temp.put('old-sp-au', :'old_sp_au');
SELECT pg_temp.put('old-sp-nu', :'old_sp_nu'), pg_temp.put('old-sp-pu', :'old_sp_pu');
SELECT pg_temp.put('old-ri-au', :'old_ri_au'), pg_temp.put('old-ri-pu', :'old_ri_pu');
\set old_az_res_au `cat test/data/focus_spec/commitment/azure_reservation_all_upfront.csv`
\set old_az_res_nu `cat test/data/focus_spec/commitment/azure_reservation_no_upfront.csv`
\set old_az_sp_au `cat test/data/focus_spec/commitment/azure_savings_plan_all_upfront.csv`
\set old_gcp_res_au `cat test/data/focus_spec/commitment/gcp_resource_cud_all_upfront.csv`
\set old_gcp_flex_au `cat test/data/focus_spec/commitment/gcp_flex_cud_all_upfront.csv`
\set old_gcp_flex_pu `cat test/data/focus_spec/commitment/gcp_flex_cud_partial_upfront.csv`
SELECT pg_temp.put('old-az-res-au', :'old_az_res_au'), pg_temp.put('old-az-res-nu', :'old_az_res_nu'), pg_temp.put('old-az-sp-au', :'old_az_sp_au');
SELECT pg_temp.put('old-gcp-res-au', :'old_gcp_res_au'), pg_temp.put('old-gcp-flex-au', :'old_gcp_flex_au'), pg_temp.put('old-gcp-flex-pu', :'old_gcp_flex_pu');
SELECT tenant, provider, billing_month, billing_currency, billed_usd, effective_usd, gpu_hours, lines, unconverted_lines
  FROM spend_monthly WHERE tenant LIKE 'old-%' ORDER BY tenant;
-- per tenant: the purchases, the used and unused hours' amortisation, the on-demand lines
SELECT tenant, sum(billed_cost) FILTER (WHERE charge_category = 'Purchase') AS purchased,
       count(*) FILTER (WHERE record ->> 'CommitmentDiscountStatus' = 'Used') AS used_h,
       sum(effective_cost) FILTER (WHERE record ->> 'CommitmentDiscountStatus' = 'Used') AS used,
       count(*) FILTER (WHERE record ->> 'CommitmentDiscountStatus' = 'Unused') AS unused_h,
       sum(effective_cost) FILTER (WHERE record ->> 'CommitmentDiscountStatus' = 'Unused') AS unused,
       sum(billed_cost) FILTER (WHERE charge_category = 'Usage' AND NOT record ? 'CommitmentDiscountStatus') AS on_demand,
       count(gpu_hours) AS with_gpu_hours
  FROM spend WHERE tenant LIKE 'old-%' GROUP BY 1 ORDER BY 1;
SELECT tenant, run_id, billed_usd, effective_usd, gpu_hours FROM plan_vs_actual_monthly WHERE tenant LIKE 'old-%' ORDER BY tenant;
-- The spelling is read as the currency whatever the currency: a line in EUR under BilledCurrency
-- converts at EUR's rate (1.10 here: 100 EUR = 110 USD), not 1:1 as USD (0.4.0 before the rule:
-- no currency, 100 USD); under BillingCurrency too, that column wins and BilledCurrency stays in record.
INSERT INTO fx_rate VALUES ('EUR', '2025-12-01', 1.10, 'regress: a round rate');
SELECT pg_temp.put('old-eur', E'BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName,BilledCost,EffectiveCost,BilledCurrency,BillingAccountId,ChargeCategory\n'
                              '2026-01-01T00:00:00Z,2026-02-01T00:00:00Z,2026-01-05T00:00:00Z,2026-01-06T00:00:00Z,AWS,100,100,EUR,111,Usage\n');
SELECT pg_temp.put('old-both', E'BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,ChargePeriodEnd,ProviderName,BilledCost,EffectiveCost,BilledCurrency,BillingCurrency,BillingAccountId,ChargeCategory\n'
                               '2026-01-01T00:00:00Z,2026-02-01T00:00:00Z,2026-01-05T00:00:00Z,2026-01-06T00:00:00Z,AWS,100,100,USD,EUR,111,Usage\n');
SELECT s.tenant, s.billing_currency, s.billed_cost, m.billed_usd, m.unconverted_lines, s.record
  FROM spend s JOIN spend_monthly m USING (tenant) WHERE s.tenant IN ('old-eur', 'old-both') ORDER BY 1;

-- 12. The specification's fictional providers' commitment examples (FOCUS 1.3 columns: both
-- ProviderName and ServiceProviderName, BillingCurrency USD; February 2026).
--   Aura Web flexible spend plan, all upfront, 0% used: a purchase of 353,028.00 (its charge period
--     a year) and 24 unused hours of 40.30: billed 353,028.00, effective 967.20, 25 lines
--   CrestNode resource reservation paid monthly: Recurring 55,334.00, 24 hours of 75.80: billed
--     55,334.00, effective 1,819.20 (ServiceProviderName empty: the provider is ProviderName)
--   CrestNode resource reservation all upfront (FOCUS 1.2 columns): 358,021.20 (its charge period a
--     year), 24 hours of 40.87: billed 358,021.20, effective 980.88
--   CrestNode flexible spend plan all upfront: 462,002.40, 24 hours of 52.74: effective 1,265.76
--   LatticeScale resource reservation paid monthly: Recurring 19,790.40, 24 hours of 29.45:
--     effective 706.80
--   latticescale_dynamic_compute_commitment_no_upfront_100pct.csv, at the stored version, still
--     names Google Cloud Platform (a spend-based CUD paid monthly): Recurring 42,423.36, 24 hours
--     of 63.13: effective 1,515.12
--   Aura Web flexible spend plan all upfront, 100% used: 211,992.00, 24 hours of 24.20: effective 580.80
--   50% used (FOCUS 1.3 columns): 693,003.60, 12 used and 12 unused hours of 79.11: effective 1,898.64
--   75% used: 211,992.00 (as at 100%), 18 used and 6 unused hours of 24.20: effective 580.80 again
--   overage: 211,992.00, 24 used hours of 24.20 and 12 on-demand hours of 36.30 (435.60): billed
--     212,427.60, effective 580.80 + 435.60 = 1,016.40, 37 lines
--     (its page, 158e6c0a46b761aa3dad252844bbfefcc9b4dd93, states the same)
--   flexible spend plan paid monthly (FOCUS 1.3 columns): Recurring 35,515.20, 24 hours of 52.85:
--     effective 1,268.40
--   partial upfront: 223,993.20 (One-Time) + 17,183.04 (Recurring) = 241,176.24, 24 hours of 51.14:
--     effective 1,227.36, 26 lines
--   resource reservation partial upfront: 220,007.40 + 16,877.28 = 236,884.68, 24 hours of 50.23:
--     effective 1,205.52, 26 lines
--   aura_web_resource_reservation_all_upfront_100pct.csv, at the stored version, still names Amazon
--     Web Services (an EC2 reserved instance): 402,960.00, 24 hours of 46.00: effective 1,104.00
-- Each 25 lines unless said, each its own tenant (one provider's files share an account and month).
\set aura_0 `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_all_upfront_0pct.csv`
\set crest_res_nu `cat test/data/focus_spec/commitment/crestnode_resource_reservation_no_upfront_100pct.csv`
\set crest_res_au `cat test/data/focus_spec/commitment/crestnode_resource_reservation_all_upfront_100pct.csv`
\set crest_flex_au `cat test/data/focus_spec/commitment/crestnode_flexible_spend_plan_all_upfront_100pct.csv`
\set lattice_res_nu `cat test/data/focus_spec/commitment/latticescale_resource_reservation_no_upfront_100pct.csv`
\set lattice_dyn_nu `cat test/data/focus_spec/commitment/latticescale_dynamic_compute_commitment_no_upfront_100pct.csv`
\set aura_100 `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_all_upfront_100pct.csv`
\set aura_50 `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_all_upfront_50pct.csv`
\set aura_75 `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_all_upfront_75pct.csv`
\set aura_over `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_all_upfront_overage.csv`
SELECT pg_temp.put('aura-0', :'aura_0'), pg_temp.put('aura-100', :'aura_100'), pg_temp.put('aura-50', :'aura_50');
SELECT pg_temp.put('aura-75', :'aura_75'), pg_temp.put('aura-over', :'aura_over');
\set aura_nu `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_no_upfront_100pct.csv`
\set aura_pu `cat test/data/focus_spec/commitment/aura_web_flexible_spend_plan_partial_upfront_100pct.csv`
\set aura_res_au `cat test/data/focus_spec/commitment/aura_web_resource_reservation_all_upfront_100pct.csv`
\set aura_res_pu `cat test/data/focus_spec/commitment/aura_web_resource_reservation_partial_upfront_100pct.csv`
SELECT pg_temp.put('aura-nu', :'aura_nu'), pg_temp.put('aura-pu', :'aura_pu');
SELECT pg_temp.put('aura-res-au', :'aura_res_au'), pg_temp.put('aura-res-pu', :'aura_res_pu');
SELECT pg_temp.put('crest-res-nu', :'crest_res_nu'), pg_temp.put('crest-res-au', :'crest_res_au'), pg_temp.put('crest-flex-au', :'crest_flex_au');
SELECT pg_temp.put('lattice-res-nu', :'lattice_res_nu'), pg_temp.put('lattice-dyn-nu', :'lattice_dyn_nu');
SELECT tenant, provider, billing_month, billing_currency, billed_usd, effective_usd, gpu_hours, lines, unconverted_lines
  FROM spend_monthly WHERE tenant LIKE 'aura-%' OR tenant LIKE 'crest-%' OR tenant LIKE 'lattice-%' ORDER BY tenant;
SELECT tenant, count(*) FILTER (WHERE charge_category = 'Purchase') AS purchases,
       count(*) FILTER (WHERE record ->> 'CommitmentDiscountStatus' = 'Used') AS used_h,
       count(*) FILTER (WHERE record ->> 'CommitmentDiscountStatus' = 'Unused') AS unused_h,
       sum(consumed_quantity) AS hours, count(gpu_hours) AS with_gpu_hours, count(instance_type) AS with_instance_type
  FROM spend WHERE tenant LIKE 'aura-%' OR tenant LIKE 'crest-%' OR tenant LIKE 'lattice-%' GROUP BY 1 ORDER BY 1;

-- 10. The SaaS examples (specification/data/saas_examples) carry every column spend needs, but not
-- in FOCUS's formats: dates written 4/1/25 (FOCUS: ISO 8601), money "$10,000.00 ", "0.00 " with a
-- space (one file starts with a byte order mark, which is read as such).  Each is refused whole,
-- naming the line and the column; nothing is stored.
CREATE FUNCTION pg_temp.refusal(csv text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE m text; d text; c text;
BEGIN
  PERFORM llm_econ.import_focus(csv, tenant => 'saas');
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, c = PG_EXCEPTION_CONTEXT;
  RETURN format('%s: %s (%s) %s', SQLSTATE, m, d, split_part(c, E'\n', 1));
END $$;
\set saas_simple `cat test/data/focus_spec/saas_examples/simple_agreements/simple_saas_agreements_a1.csv`
\set saas_spend `cat test/data/focus_spec/saas_examples/spend_agreements/saas_spend_agreements_a2.csv`
\set saas_virtual `cat test/data/focus_spec/saas_examples/virtual_currency_pricing_model_b1.csv`
SELECT pg_temp.refusal(:'saas_simple') AS simple_agreement;
SELECT pg_temp.refusal(:'saas_spend') AS spend_agreement;
SELECT pg_temp.refusal(:'saas_virtual') AS virtual_currency;
SELECT count(*) AS stored FROM spend WHERE tenant = 'saas';
ROLLBACK;
