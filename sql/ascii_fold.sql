-- ASCII folding: names become keys the same way in every database, a Turkish one included (lower('I') is 'ı' there).
SET client_min_messages = warning;
SELECT current_database() AS regress_db \gset
-- a build without ICU (e.g. PostgreSQL built from source without --with-icu) cannot make the
-- Turkish database: the rest is skipped there (expected/ascii_fold_1.out)
CREATE FUNCTION pg_temp.have_icu() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'CREATE COLLATION pg_temp.tr_probe (provider = icu, locale = ''tr-TR'')';
  RETURN true;
EXCEPTION WHEN feature_not_supported THEN
  RETURN false;
END $$;
SELECT pg_temp.have_icu() AS have_icu \gset
\if :have_icu
DROP DATABASE IF EXISTS llm_econ_regress_tr;
-- an ICU Turkish database (needs no OS locale)
CREATE DATABASE llm_econ_regress_tr TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'
  LOCALE_PROVIDER icu ICU_LOCALE 'tr-TR';
\c llm_econ_regress_tr
SET client_min_messages = warning;
CREATE EXTENSION llm_econ;
SET search_path = llm_econ, public;
-- the database folds the Turkish way (dotless ı): what the extension must not do for keys
SELECT lower('IBM') AS database_lower, lower('IBM') = 'ibm' AS database_lower_is_ascii;
-- FOCUS provider names as the price tables' keys, and the charge identity: the same as from the lower-case name
SELECT f.provider, f.row_hash = _focus_charge_key(jsonb_build_object('ChargePeriodStart', '2024-06-01T00:00:00Z',
         'ChargePeriodEnd', '2024-06-01T01:00:00Z', 'ProviderName', lower(p COLLATE "C"), 'BilledCost', '1', 'EffectiveCost', '1',
         'ChargeDescription', 'x', 'BillingAccountId', '111', 'BillingCurrency', 'USD',
         'BillingPeriodStart', '2024-06-01T00:00:00Z', 'BillingPeriodEnd', '2024-07-01T00:00:00Z', 'ChargeCategory', 'Usage')) AS identity_as_lower_case
  FROM unnest(ARRAY['AMAZON WEB SERVICES', 'IBM', 'MICROSOFT AZURE', 'ORACLE CLOUD INFRASTRUCTURE']) AS p,
       LATERAL _focus_lines(E'ChargePeriodStart,ChargePeriodEnd,ProviderName,BilledCost,EffectiveCost,ChargeDescription,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                            || '2024-06-01T00:00:00Z,2024-06-01T01:00:00Z,' || p || E',1,1,x,111,USD,2024-06-01T00:00:00Z,2024-07-01T00:00:00Z,Usage\n', 'csv') AS f;
-- SKU names, instance types, regions, pricing kinds and providers in upper case find their rows
SELECT _sku_key('A100-80GB-PCIE') AS sku_key, _name_key('A100 PCIE') AS name_key, _sku_itype('P5.48XLARGE') IS NOT NULL AS itype_found,
       _check_pricing('ON_DEMAND') AS pricing, _check_source_kinds('{CATALOG,HISTORY}') AS kinds;
SELECT price_at('H100-SXM5', 'LAMBDA', 'ON_DEMAND', '2024-07-01') = price_at('H100-SXM5', 'lambda', 'on_demand', '2024-07-01') AS price_provider_folds;
-- fx_rate currencies: 'inr' is INR (not İNR)
INSERT INTO fx_rate (currency, valid_from, usd_per_unit, source) VALUES ('inr', '2024-01-01', 0.012, 'ascii fold test');
SELECT currency, _usd_per_unit('inr', '2024-06-01') AS usd_per_unit FROM fx_rate WHERE source = 'ascii fold test';
\c :regress_db
SET client_min_messages = warning;
DROP DATABASE llm_econ_regress_tr;
\else
SELECT 'ICU is not in this build: no Turkish database to test in' AS skipped;
\endif
