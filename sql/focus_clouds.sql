-- FOCUS files as AWS Data Exports, Azure Cost Management and GCP's BigQuery export write them:
-- column names in any case, currency codes in any case, BigQuery's "... UTC" timestamps, and run
-- tags under the keys each cloud writes (AWS user:run_id, Azure Run_ID / RunId, the setting
-- llm_econ.run_tag_keys), which never change a charge's identity.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
\i sql/include/focus_common.sql

-- 1. Column names match whatever their case: lower-case billingcurrency and tags are read as
-- BillingCurrency and Tags (a file in EUR is not summed as USD; its run is found), and record keys
-- the known columns by their FOCUS names.
SELECT line, billing_currency, run_id, tags, record
  FROM _focus_lines(E'billedcost,EFFECTIVECOST,chargeperiodstart,ChargePeriodEND,providername,billingcurrency,tags,chargeclass,x_Custom,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                    '10,9,2025-01-01 00:00,2025-01-01 01:00,Microsoft,EUR,"{""run_id"": ""r1""}",Correction,a,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'az.csv');
-- still one column per name, whatever the case
SELECT pg_temp.error_code($$SELECT * FROM _focus_lines(E'BilledCost,billedcost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,1,2025-01-01,2025-01-02,AWS,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'dup.csv')$$);
-- the identity is the same whatever the header's case
SELECT (SELECT row_hash FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingCurrency,ChargeClass,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-01-01,2025-01-02,AWS,USD,Correction,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'a.csv'))
     = (SELECT row_hash FROM _focus_lines(E'billedcost,effectivecost,chargeperiodstart,chargeperiodend,providername,billingcurrency,chargeclass,billingaccountid,billingperiodstart,billingperiodend,chargecategory\n1,1,2025-01-01,2025-01-02,AWS,USD,Correction,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'b.csv'))
       AS same_identity;

-- 2. Currency codes in any case: usd is USD (stored upper case, converted at 1), eur is EUR (its
-- fx_rate applies); the identity of a line does not depend on the case of its header names.
INSERT INTO fx_rate VALUES ('EUR', '2025-01-01', 1.25, 'regress');
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingCurrency,ResourceId,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                           '100,100,2025-01-01 00:00,2025-01-01 01:00,AWS,usd,i-1,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
                           '100,100,2025-01-01 00:00,2025-01-01 01:00,Microsoft,eur,vm-1,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
                           '100,100,2025-01-01 00:00,2025-01-01 01:00,Microsoft,Eur,vm-2,111,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', tenant => 'cur');
SELECT resource_id, billing_currency, _usd_per_unit(billing_currency, charge_period_start) AS usd_per_unit
  FROM spend WHERE tenant = 'cur' ORDER BY resource_id;
-- stored by an earlier version in lower case: still converted
SELECT _usd_per_unit('usd', '2025-02-01') AS usd, _usd_per_unit('eur', '2025-02-01') AS eur;
DELETE FROM fx_rate WHERE source = 'regress';

-- 3. BigQuery's timestamps: "2025-02-06 08:00:00 UTC" is 08:00 UTC whatever the session's TimeZone,
-- and names the same charge as "2025-02-06T08:00:00Z".
SET TimeZone = 'America/New_York';
SELECT charge_period_start AT TIME ZONE 'UTC' AS cps_utc, charge_period_end AT TIME ZONE 'UTC' AS cpe_utc,
       billing_period_start AT TIME ZONE 'UTC' AS bps_utc
  FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,BillingPeriodStart,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodEnd,ChargeCategory\n'
                    '1,1,2025-02-06 08:00:00 UTC,2025-02-06 09:00:00.5 UTC,2025-02-01 08:00:00 UTC,Google Cloud,111,USD,2025-03-01T00:00:00Z,Usage\n', 'bq.csv');
RESET TimeZone;
SELECT (SELECT row_hash FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-02-06 08:00:00 UTC,2025-02-06 09:00:00 UTC,Google,111,USD,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,Usage\n', 'a.csv'))
     = (SELECT row_hash FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-02-06T08:00:00Z,2025-02-06T09:00:00Z,Google,111,USD,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,Usage\n', 'b.csv'))
       AS same_identity;
-- not a time zone BigQuery writes: still refused, naming the column
SELECT pg_temp.error_code($$SELECT * FROM _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-02-06 08:00:00 UTCX,2025-02-06 09:00:00 UTC,Google,111,USD,2025-02-01T00:00:00Z,2025-03-01T00:00:00Z,Usage\n', 'bad.csv')$$);

-- 4. Run tags: AWS user:run_id, Azure Run_ID / RunId / run-id, values trimmed, numbers as their
-- text, an empty value no run; other keys through llm_econ.run_tag_keys.
CREATE TEMP TABLE tagged (n int, tags text);
INSERT INTO tagged VALUES
  (1, '{"user:run_id": "llama-70b"}'), (2, '{"Run_ID": "llama-70b"}'), (3, '{"RunId": " llama-70b "}'),
  (4, '{"run-id": "llama-70b", "team": "a"}'), (5, '{"User:Run_Id": 42}'), (6, '{"run_id": "  "}'),
  (7, '{"team": "a"}'), (8, '{"job": "j-1"}'), (9, '{"user:Job-Name": "j-2"}'), (10, '{"run_id": ""}');
CREATE TEMP VIEW tag_lines AS
  SELECT t.n, l.run_id, l.row_hash
    FROM tagged t,
         LATERAL _focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,Tags\n1,1,2025-01-01,2025-01-02,AWS,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage,'
                              || '"' || pg_catalog.replace(t.tags, '"', '""') || '"' || E'\n', 'tags.csv') AS l;
SHOW llm_econ.run_tag_keys;
SELECT n, run_id FROM tag_lines ORDER BY n;
SET llm_econ.run_tag_keys = 'run_id, JOB, job_name';
SELECT n, run_id FROM tag_lines ORDER BY n;
-- tags that name the run never change the identity: lines 1-3, 6, 7-10 (untagged) are one charge
SELECT count(DISTINCT row_hash) FILTER (WHERE n IN (1, 2, 3, 6, 8, 9, 10)) AS run_only_identities,
       count(DISTINCT row_hash) FILTER (WHERE n IN (4, 7)) AS team_identities
  FROM tag_lines;
RESET llm_econ.run_tag_keys;
-- the setting is reserved: a misspelt one is an error
SELECT pg_temp.error_code($$SET llm_econ.run_tag_key = 'x'$$);
-- re-importing the AWS file with the Azure spelling of the key stores nothing more
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                           '5,5,2025-01-01,2025-01-02,AWS,i-9,"{""user:run_id"": ""r-9""}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', tenant => 'retag');
SELECT * FROM import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                           '5,5,2025-01-01,2025-01-02,AWS,i-9,"{""RunId"": ""r-9""}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', tenant => 'retag', mode => 'append');
SELECT run_id, count(*) FROM spend WHERE tenant = 'retag' GROUP BY 1;
DELETE FROM spend;
