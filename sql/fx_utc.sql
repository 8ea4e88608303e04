-- fx_rate days are UTC days whatever the session's TimeZone (issue 44): a rate entered as
-- '2025-01-01' takes effect at 2025-01-01 00:00 UTC from New York as from Tokyo.  Expected figures
-- are the lines' pounds times the rate written in the comment, not stored totals read back.
SET DateStyle = ISO;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
SET TimeZone = 'America/New_York';
INSERT INTO fx_rate (currency, valid_from, usd_per_unit, source) VALUES
  ('GBP', '2024-12-01', 1.27, 'regress: December'), ('GBP', '2025-01-01', 1.25, 'regress: January');
-- a. two £100 lines: 2025-01-01T00:00Z (January: 100 x 1.25 = 125.00) and 2024-12-31T23:00Z
-- (December: 100 x 1.27 = 127.00), entered and read from New York
SELECT inserted FROM import_focus(E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
  '100,100,GBP,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Google Cloud,jan,acct-1,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
  '100,100,GBP,2024-12-31T23:00:00Z,2025-01-01T00:00:00Z,Google Cloud,dec,acct-1,2024-12-01T00:00:00Z,2025-01-01T00:00:00Z,Usage\n', tenant => 'fx_utc');
SELECT resource_id, billed_cost * _usd_per_unit(billing_currency, charge_period_start) AS usd,
       billed_cost * _usd_per_unit(billing_currency, charge_period_start)
         = CASE resource_id WHEN 'jan' THEN 100 * 1.25 ELSE 100 * 1.27 END AS right_rate
  FROM spend WHERE tenant = 'fx_utc' ORDER BY resource_id;
SELECT billed_usd = 100 * 1.25 + 100 * 1.27 AS month_right, unconverted_lines
  FROM plan_vs_actual WHERE tenant = 'fx_utc';
-- b. read from Tokyo (2025-01-01 00:00 UTC is 09:00 there; 2024-12-31T23:00Z is 08:00 on Jan 1
-- in Tokyo, still December's rate): the same rates
SET TimeZone = 'Asia/Tokyo';
SELECT resource_id, billed_cost * _usd_per_unit(billing_currency, charge_period_start)
         = CASE resource_id WHEN 'jan' THEN 100 * 1.25 ELSE 100 * 1.27 END AS right_rate
  FROM spend WHERE tenant = 'fx_utc' ORDER BY resource_id;
-- c. entered from Tokyo, where '2025-02-01' would be 2025-01-31 15:00 UTC as a timestamptz: a
-- line of 2025-01-31T20:00Z is still January's 1.25 (100 x 1.25 = 125.00), one of 2025-02-01T00:00Z
-- February's 1.30 (130.00)
INSERT INTO fx_rate (currency, valid_from, usd_per_unit, source) VALUES ('GBP', '2025-02-01', 1.30, 'regress: February');
SELECT _usd_per_unit('GBP', '2025-01-31T20:00:00Z') = 1.25 AS jan_31, _usd_per_unit('GBP', '2025-02-01T00:00:00Z') = 1.30 AS feb_1;
SELECT currency, valid_from FROM fx_rate WHERE source LIKE 'regress%' ORDER BY valid_from;
DELETE FROM spend WHERE tenant = 'fx_utc';
DELETE FROM fx_rate WHERE source LIKE 'regress%';
