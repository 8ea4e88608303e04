-- Volatility: no function that reads a table is IMMUTABLE (derived from function bodies and from table-access counters), and cached plans see price and SKU updates.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
SET client_min_messages = warning;

-- 1. Declared: every function by language and volatility (i immutable, s stable, v volatile);
-- strictness and parallel safety (s safe, u unsafe) are in part 4.
CREATE TEMP VIEW vol_fn AS
  SELECT p.oid, p.proname || '/' || p.pronargs AS fn, l.lanname AS lang, p.provolatile AS vol,
         p.proisstrict AS strict, p.proparallel AS parallel, p.prorettype = 'trigger'::regtype AS is_trigger, p.prosrc
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
   WHERE p.pronamespace = 'llm_econ'::regnamespace;
SELECT lang, vol, count(*) AS functions, string_agg(fn, ', ' ORDER BY fn) AS names
  FROM vol_fn GROUP BY 1, 2 ORDER BY 1, 2;

-- 2. From the bodies (SQL and PL/pgSQL): an IMMUTABLE function names no table or view of the
-- schema, calls no function of the schema that is not IMMUTABLE (by name: a name with any
-- non-IMMUTABLE overload counts), and uses nothing that depends on the session or the clock
-- (must be empty).
WITH rels AS (SELECT c.relname FROM pg_class c
               WHERE c.relnamespace = 'llm_econ'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')),
     not_immutable AS (SELECT DISTINCT proname FROM pg_proc
                        WHERE pronamespace = 'llm_econ'::regnamespace AND provolatile <> 'i')
SELECT f.fn, 'reads ' || r.relname AS problem
  FROM vol_fn f JOIN rels r ON f.prosrc ~* ('\m' || r.relname || '\M')
 WHERE f.vol = 'i' AND f.lang IN ('sql', 'plpgsql')
UNION ALL
SELECT f.fn, 'calls ' || n.proname
  FROM vol_fn f JOIN not_immutable n ON f.prosrc ~* ('llm_econ\.' || n.proname || '\s*\(')
 WHERE f.vol = 'i' AND f.lang IN ('sql', 'plpgsql')
UNION ALL
SELECT f.fn, 'uses ' || (regexp_match(f.prosrc, '(now\(|current_(user|setting|timestamp|date)|timeofday|clock_timestamp|random\(|nextval\(|setval\(|pg_has_role|::timestamptz|::timestamp\M|AT TIME ZONE|to_char\()', 'i'))[1]
  FROM vol_fn f
 WHERE f.vol = 'i' AND f.lang IN ('sql', 'plpgsql')
   AND f.prosrc ~* '(now\(|current_(user|setting|timestamp|date)|timeofday|clock_timestamp|random\(|nextval\(|setval\(|pg_has_role|::timestamptz|::timestamp\M|AT TIME ZONE|to_char\()'
 ORDER BY 1, 2;

-- 3. Observed, for every function that is not VOLATILE (C functions too, whose bodies SQL cannot
-- read): call it with good arguments and count the scans of the schema's tables it caused
-- (pg_stat_xact_user_tables counts this transaction's scans, SPI's included).  By design the C
-- functions run_spec (the constructor), price_at, estimate_cost(spec, provider, ...) and _sku_key
-- read gpu_sku/gpu_sku_alias and the price tables and are STABLE; every other C function
-- computes from its arguments alone and is IMMUTABLE.
CREATE TEMP TABLE vol_call (fn text COLLATE "C" PRIMARY KEY, call text NOT NULL, tables text);
INSERT INTO vol_call (fn, call) VALUES
  ('_today_utc/0', $$_today_utc()$$),
  ('run_spec/41', $$run_spec(7e9, 1.4e12, 64, 'h100', mfu => 0.45)$$),
  ('training_flops/2', $$training_flops(ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$),
  ('mfu_time/1', $$mfu_time(SPEC)$$), ('gpu_hours/1', $$gpu_hours(SPEC)$$), ('energy_kwh/2', $$energy_kwh(SPEC, 1.2)$$),
  ('achieved_mfu/2', $$achieved_mfu(SPEC, '100 hours')$$), ('estimate_cost/2', $$estimate_cost(SPEC, 2.49)$$),
  ('memory_per_gpu/1', $$memory_per_gpu(SPEC)$$), ('fits_hbm/1', $$fits_hbm(SPEC)$$), ('comm_bytes/1', $$comm_bytes(SPEC)$$),
  ('comm_breakdown/1', $$comm_breakdown(SPEC)$$), ('plan_parallelism/1', $$plan_parallelism(SPEC)$$),
  ('carbon_kg/3', $$carbon_kg(SPEC, 0.4, 1.2)$$), ('checkpoint_plan/3', $$checkpoint_plan(SPEC, '90 seconds', '30 days')$$),
  ('cost_breakdown/15', $$cost_breakdown(SPEC, 2.49)$$),
  ('estimate_cost/6', $$estimate_cost(SPEC, 'lambda', 'on_demand', '2024-07-01')$$),
  ('price_at/6', $$price_at('H100', 'lambda', 'on_demand', '2024-07-01')$$),
  ('_latest_prices/7', $$_latest_prices('H100-SXM5', 'lambda', 'on_demand', '2024-07-01', NULL, NULL, NULL)$$),
  ('_check_pricing/1', $$_check_pricing('spot')$$), ('_check_name/2', $$_check_name('us-east-1', 'region')$$),
  ('_sku_key/1', $$_sku_key('h100')$$),
  ('_sku_itype/1', $$_sku_itype('p5.48xlarge')$$), ('_check_where/2', $$_check_where('gcp', 'us-central1')$$),
  ('_check_max_age/1', $$_check_max_age('1 day')$$), ('_shift/2', $$_shift('2024-07-01', '-1 month')$$),
  ('_name_key/1', $$_name_key('H100 80GB')$$),
  ('_sku_of_name/3', $$_sku_of_name('azure', 'Standard_NC40ads_H100_v5', 'H100')$$), ('_skypilot_cloud_shape/1', $$_skypilot_cloud_shape('aws')$$),
  ('_known_gpus/1', $$_known_gpus('p5.48xlarge')$$), ('_sku_map/1', $$_sku_map(ARRAY['H100', 'p5.48xlarge'])$$), ('_source_kind/0', $$_source_kind()$$),
  ('_series_id/5', $$_series_id('H100-SXM5', 'gcp', 'on_demand', NULL, 'a3-highgpu-8g')$$),
  ('price_twap/6', $$price_twap('H100-SXM5', 'gcp', 'on_demand', '[2024-06-01, 2024-07-01)')$$),
  ('cheapest_offers/6', $$cheapest_offers(SPEC, '2024-07-01')$$),
  ('_skypilot_offers/2', $$_skypilot_offers('gcp', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\na2-highgpu-1g,,,0.7,us-central1\n,A100,1,2.9,us-central1\n')$$),
  ('_price_changes/10', $$_price_changes('{2024-01-01}', '{lambda}', '{H100-SXM5}', '{r1}', '{on_demand}', '{1.5}', '{x}', '{1}', NULL, 'skypilot:lambda')$$),
  ('price_twap_coverage/7', $$price_twap_coverage('H100-SXM5', 'gcp', 'on_demand', '[2024-06-01, 2024-07-01)')$$),
  ('_check_source_kinds/1', $$_check_source_kinds('{catalog}')$$),
  ('_usd/1', $$_usd(1.234567)$$), ('_sku_find/1', $$_sku_find('h100')$$), ('_skypilot_clouds/0', $$_skypilot_clouds()$$),
  ('_staged_history/0', $$_staged_history()$$),
  ('tco_per_gpu_hour/5', $$tco_per_gpu_hour('H100', 4, 0.7, 0.10, 1.2)$$),
  ('_is_tenant_member/1', $$_is_tenant_member(current_user)$$),
  ('_check_spec/1', $$_check_spec(ROW(1e9, 1e10, 'H100-SXM5', 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$),
  ('_csv_header/2', $$_csv_header(E'a,b\n1,2\n', 'csv')$$), ('_csv_records/2', $$_csv_records(E'a,b\n1,2\n', 'csv')$$),
  ('_focus_lines/2', $$_focus_lines(E'ChargePeriodStart,ChargePeriodEnd,ProviderName,BilledCost,EffectiveCost,ChargeDescription,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n2024-06-01,2024-06-01T01:00:00Z,AWS,1,1,p5.48xlarge,111,USD,2024-06-01T00:00:00Z,2024-07-01T00:00:00Z,Usage\n', 'csv')$$),
  ('_focus_charge_key/1', $$_focus_charge_key('{"ChargePeriodStart": "2024-06-01 00:00", "ProviderName": "AWS", "BilledCost": "1", "Tags": {"run_id": "r1", "team": "a"}}')$$),
  ('_focus_refusal/4', $$_focus_refusal('import_focus', current_user, true, true)$$),
  ('_focus_admit/5', $$_focus_admit('import_focus', current_user, 'append', NULL, false)$$),
  ('_usd_per_unit/2', $$_usd_per_unit('EUR', '2024-06-01')$$),
  ('_focus_id_key/2', $$_focus_id_key('azure', ' /Subscriptions/AAAA-1111 ')$$),
  ('step_breakdown/2', $$step_breakdown(ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.35e12, 'hopper', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$),
  ('predicted_mfu/3', $$predicted_mfu(calibrated => true, spec => ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.35e12, 'hopper', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$),
  ('predicted_time/3', $$predicted_time(calibrated => true, spec => ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.35e12, 'hopper', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec)$$),
  ('cheapest_plan/7', $$cheapest_plan(ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.35e12, 'hopper', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, '30 days', '2024-07-01', max_gpus => 64, calibrated => true)$$),
  ('_observed_mfu/3', $$_observed_mfu(ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.35e12, 'hopper', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec, 1e5, NULL)$$),
  ('_plan_offers/3', $$_plan_offers('2024-07-01', NULL, NULL)$$),
  ('_gpu_family/1', $$_gpu_family('H100-80GB-HBM3')$$),
  ('_sku_contradiction/4', $$_sku_contradiction('H100-NVL', 'H100_NVLINK_80GB', 81920, 8)$$),
  ('_sku_by_facts/6', $$_sku_by_facts(ARRAY['H100-NVL', 'H100-SXM5'], 'H100', 'H100-SXM5', 'H100_NVLINK_80GB', 81920, 8)$$),
  ('_catalog_sku/6', $$_catalog_sku('fluidstack', 'H100_NVLINK_80GB::8', 'H100', NULL, 81920, 8)$$),
  ('_billing_month/4', $$_billing_month('2025-02-01 08:00+00', '2025-03-01 08:00+00', NULL, NULL)$$);
-- every function that is not VOLATILE has a call (must be empty)
-- (trigger functions cannot be called directly: the INSERTs of part 5 run them)
SELECT fn AS without_call FROM vol_fn WHERE vol <> 'v' AND NOT is_trigger AND fn NOT IN (SELECT fn FROM vol_call) ORDER BY 1;

DO $$
DECLARE
  c record;
  before jsonb;
  after jsonb;
  spec text := $s$ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$s$;
BEGIN
  FOR c IN SELECT fn, call FROM vol_call ORDER BY fn LOOP
    SELECT jsonb_object_agg(relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) INTO before
      FROM pg_stat_xact_user_tables WHERE schemaname = 'llm_econ';
    EXECUTE format('SELECT count(*) FROM (SELECT * FROM llm_econ.%s) AS r', replace(c.call, 'SPEC', spec));
    SELECT jsonb_object_agg(relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) INTO after
      FROM pg_stat_xact_user_tables WHERE schemaname = 'llm_econ';
    UPDATE vol_call SET tables = (SELECT string_agg(k, ', ' ORDER BY k COLLATE "C") FROM jsonb_object_keys(after) AS k
                                   WHERE (after->>k)::bigint > coalesce((before->>k)::bigint, 0))
     WHERE fn = c.fn;
  END LOOP;
END $$;
-- Observed, for every function that is not VOLATILE and returns a value: its result with the
-- settings it might read changed (every llm_econ.* setting, TimeZone, DateStyle, IntervalStyle,
-- extra_float_digits), kept typed and compared as text under the regress settings.  A result that
-- moves depends on a setting, which an IMMUTABLE function must not (the planner folds it into
-- cached plans and indexes).
ALTER TABLE vol_call ADD COLUMN setting_dependent boolean;
DO $$
DECLARE
  c record;
  s record;
  a text[];
  b text[];
  spec text := $s$ROW(7e9, 1.4e12, 'H100-SXM5', 64, 8, 0.45, 'bf16', 989e12, 80e9, 450e9, 50e9, 700, 32, 4096, 32, 2048, 1, 512, 2, 2, 1, 'selective', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec$s$;
BEGIN
  CREATE TEMP TABLE vol_setting (name text PRIMARY KEY, changed text NOT NULL, saved text);
  INSERT INTO vol_setting (name, changed) VALUES
    ('llm_econ.run_tag_keys', 'team'), ('llm_econ.import_providers', 'lambda,gcp'), ('llm_econ.import_suspects', '{}'),
    ('TimeZone', 'Asia/Kathmandu'), ('DateStyle', 'SQL, DMY'), ('IntervalStyle', 'sql_standard'), ('extra_float_digits', '-3');
  -- every llm_econ.* setting is in the list (must not raise)
  IF EXISTS (SELECT FROM pg_settings p WHERE p.name LIKE 'llm\_econ.%' AND p.name NOT IN (SELECT name FROM vol_setting)) THEN
    RAISE EXCEPTION 'a setting of llm_econ is missing from vol_setting';
  END IF;
  UPDATE vol_setting SET saved = current_setting(name);
  FOR c IN SELECT fn, call FROM vol_call vc JOIN vol_fn f USING (fn)
            WHERE f.vol <> 'v' AND (SELECT prorettype FROM pg_proc WHERE oid = f.oid) <> 'void'::regtype ORDER BY fn LOOP
    EXECUTE format('CREATE TEMP TABLE vol_a AS SELECT * FROM llm_econ.%s AS r', replace(c.call, 'SPEC', spec));
    FOR s IN SELECT * FROM vol_setting LOOP PERFORM set_config(s.name, s.changed, true); END LOOP;
    EXECUTE format('CREATE TEMP TABLE vol_b AS SELECT * FROM llm_econ.%s AS r', replace(c.call, 'SPEC', spec));
    FOR s IN SELECT * FROM vol_setting LOOP PERFORM set_config(s.name, s.saved, true); END LOOP;
    SELECT array_agg(t::text ORDER BY t::text) INTO a FROM vol_a t;
    SELECT array_agg(t::text ORDER BY t::text) INTO b FROM vol_b t;
    UPDATE vol_call SET setting_dependent = a IS DISTINCT FROM b WHERE fn = c.fn;
    DROP TABLE vol_a, vol_b;
  END LOOP;
  DROP TABLE vol_setting;
END $$;
-- IMMUTABLE functions whose result moved with a setting (must be empty)
SELECT f.fn, f.lang FROM vol_fn f JOIN vol_call c USING (fn) WHERE f.vol = 'i' AND c.setting_dependent ORDER BY 1;
-- STABLE functions whose result moved with a setting
SELECT f.fn, f.lang FROM vol_fn f JOIN vol_call c USING (fn) WHERE f.vol = 's' AND c.setting_dependent ORDER BY 1;
-- IMMUTABLE functions observed reading a table (must be empty)
SELECT f.fn, f.lang, c.tables FROM vol_fn f JOIN vol_call c USING (fn) WHERE f.vol = 'i' AND c.tables IS NOT NULL ORDER BY 1;
-- STABLE functions and the tables they read
SELECT f.fn, f.lang, c.tables FROM vol_fn f JOIN vol_call c USING (fn) WHERE f.vol = 's' ORDER BY 1;
-- STABLE functions that read none of the schema's tables, and why they are not IMMUTABLE: each
-- must have a reason here (must list no "no reason")
SELECT f.fn, coalesce(r.reason, 'no reason') AS why_stable
  FROM vol_fn f JOIN vol_call c USING (fn)
  LEFT JOIN (VALUES ('_billing_month/4', 'date_part(''epoch'', timestamptz) is STABLE (other fields depend on TimeZone; the epoch does not)'),
                    ('_focus_admit/5', 'reads privileges and role membership (system catalogs, through _focus_refusal)'),
                    ('_focus_charge_key/1', 'reads the setting llm_econ.run_tag_keys (the Tags keys left out of the identity)'),
                    ('_focus_refusal/4', 'reads privileges and role membership (system catalogs)'),
                    ('_is_tenant_member/1', 'reads pg_roles and role membership (system catalogs)'),
                    ('_shift/2', 'timestamptz + interval (days and months) depends on the setting TimeZone'),
                    ('_today_utc/0', 'now(): the transaction''s start'),
                    ('_source_kind/0', 'reads the price recorder''s state for the current role (set for one call)')) AS r(fn, reason) USING (fn)
 WHERE f.vol = 's' AND c.tables IS NULL ORDER BY 1;

-- 4. Writers (VOLATILE) are PARALLEL UNSAFE; IMMUTABLE functions are PARALLEL SAFE, and STRICT
-- unless listed with a reason (must list no "no reason").
SELECT fn, lang, parallel FROM vol_fn WHERE vol = 'v' ORDER BY 1;
SELECT fn AS immutable_not_parallel_safe FROM vol_fn WHERE vol = 'i' AND parallel <> 's' ORDER BY 1;
SELECT f.fn, coalesce(r.reason, 'no reason') AS why_not_strict
  FROM vol_fn f
  LEFT JOIN (VALUES ('_check_max_age/1', 'a NULL max_age means no bound and passes through'),
                    ('_check_pricing/1', 'a NULL pricing passes through as NULL, as STRICT would'),
                    ('_check_source_kinds/1', 'NULL source_kinds passes through as NULL (all kinds), as STRICT would'),
                    ('_observed_mfu/3', 'one of tokens_per_second and step_seconds is NULL: the other is the measure'),
                    ('_series_id/5', 'a NULL region or instance type is a value of the series key'),
                    ('_skypilot_clouds/0', 'takes no arguments'),
                    ('cost_breakdown/15', 'NULL checkpoint_gb and dataset_gb mean "derive"; other NULLs are errors')) AS r(fn, reason) USING (fn)
 WHERE f.vol = 'i' AND NOT f.strict ORDER BY 1;

-- 5. Cached plans see new prices.  Were price_at or estimate_cost(spec, provider, ...) IMMUTABLE,
-- the planner would fold a call with constant arguments into the cached plan, and a generic plan
-- would keep returning the price of when it was planned.  A series of its own: $2.00 from
-- 2024-01-01; the lookups are at 2024-06-01 and over May 2024.
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
     VALUES ('2024-01-01 00:00+00', 'regress-volatility', 'H100-SXM5', 'on_demand', 2.00, 'volatility test');
PREPARE vol_const AS SELECT price_at('H100-SXM5', 'regress-volatility', 'on_demand', '2024-06-01') AS usd;
PREPARE vol_param(timestamptz) AS SELECT price_at('H100', 'regress-volatility', 'on_demand', $1) AS usd;
PREPARE vol_cost(timestamptz) AS
  SELECT round(estimate_cost(run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45), 'regress-volatility', 'on_demand', $1), 2) AS usd;
PREPARE vol_twap AS
  SELECT round(price_twap('H100-SXM5', 'regress-volatility', 'on_demand', '[2024-05-01, 2024-06-01)'), 4) AS usd;
-- PL/pgSQL caches the plans of its statements for the session
CREATE FUNCTION pg_temp.vol_price(at timestamptz) RETURNS numeric LANGUAGE plpgsql STABLE AS $$
DECLARE
  p numeric;
BEGIN
  FOR i IN 1..3 LOOP
    p := llm_econ.price_at('H100-SXM5', 'regress-volatility', 'on_demand', at);
  END LOOP;
  RETURN p;
END $$;
-- five executions each, output hidden; the sixth is the "before" row below
\o /dev/null
SELECT 'EXECUTE vol_const' FROM generate_series(1, 5) \gexec
SELECT 'EXECUTE vol_param(''2024-06-01'')' FROM generate_series(1, 5) \gexec
SELECT 'EXECUTE vol_cost(''2024-06-01'')' FROM generate_series(1, 5) \gexec
SELECT 'EXECUTE vol_twap' FROM generate_series(1, 5) \gexec
SELECT pg_temp.vol_price('2024-06-01') FROM generate_series(1, 5);
\o
-- each phase: every prepared statement once more (into a table) and the PL/pgSQL function
CREATE TEMP TABLE vol_seen (n int PRIMARY KEY, phase text, price_at_const numeric, price_at_param numeric,
                            estimate_cost numeric, price_twap numeric, plpgsql numeric);
CREATE TEMP TABLE vol_1 AS EXECUTE vol_const;
CREATE TEMP TABLE vol_2 AS EXECUTE vol_param('2024-06-01');
CREATE TEMP TABLE vol_3 AS EXECUTE vol_cost('2024-06-01');
CREATE TEMP TABLE vol_4 AS EXECUTE vol_twap;
INSERT INTO vol_seen SELECT 1, 'before', vol_1.usd, vol_2.usd, vol_3.usd, vol_4.usd, pg_temp.vol_price('2024-06-01')
  FROM vol_1, vol_2, vol_3, vol_4;
DROP TABLE vol_1, vol_2, vol_3, vol_4;
-- a new observation inside the period: $1.50 from 2024-05-16
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
     VALUES ('2024-05-16 00:00+00', 'regress-volatility', 'H100-SXM5', 'on_demand', 1.50, 'volatility test');
CREATE TEMP TABLE vol_1 AS EXECUTE vol_const;
CREATE TEMP TABLE vol_2 AS EXECUTE vol_param('2024-06-01');
CREATE TEMP TABLE vol_3 AS EXECUTE vol_cost('2024-06-01');
CREATE TEMP TABLE vol_4 AS EXECUTE vol_twap;
INSERT INTO vol_seen SELECT 2, 'new price 1.50 from 2024-05-16', vol_1.usd, vol_2.usd, vol_3.usd, vol_4.usd, pg_temp.vol_price('2024-06-01')
  FROM vol_1, vol_2, vol_3, vol_4;
DROP TABLE vol_1, vol_2, vol_3, vol_4;
-- corrected in place
UPDATE price_snapshot SET usd_per_gpu_hour = 1.25
 WHERE provider = 'regress-volatility' AND observed_at = '2024-05-16 00:00+00';
CREATE TEMP TABLE vol_1 AS EXECUTE vol_const;
CREATE TEMP TABLE vol_2 AS EXECUTE vol_param('2024-06-01');
CREATE TEMP TABLE vol_3 AS EXECUTE vol_cost('2024-06-01');
CREATE TEMP TABLE vol_4 AS EXECUTE vol_twap;
INSERT INTO vol_seen SELECT 3, 'corrected to 1.25', vol_1.usd, vol_2.usd, vol_3.usd, vol_4.usd, pg_temp.vol_price('2024-06-01')
  FROM vol_1, vol_2, vol_3, vol_4;
DROP TABLE vol_1, vol_2, vol_3, vol_4;
-- and removed again
DELETE FROM price_snapshot WHERE provider = 'regress-volatility' AND observed_at = '2024-05-16 00:00+00';
CREATE TEMP TABLE vol_1 AS EXECUTE vol_const;
CREATE TEMP TABLE vol_2 AS EXECUTE vol_param('2024-06-01');
CREATE TEMP TABLE vol_3 AS EXECUTE vol_cost('2024-06-01');
CREATE TEMP TABLE vol_4 AS EXECUTE vol_twap;
INSERT INTO vol_seen SELECT 4, 'removed', vol_1.usd, vol_2.usd, vol_3.usd, vol_4.usd, pg_temp.vol_price('2024-06-01')
  FROM vol_1, vol_2, vol_3, vol_4;
DROP TABLE vol_1, vol_2, vol_3, vol_4;
-- expected: 2.00 / 1.50 / 1.25 / 2.00 at 2024-06-01; cost = 36,699.996 GPU-hours x price; the May
-- average (15 days at 2.00, then 16 at the new price) 2.0000 / 1.7419 / 1.6129 / 2.0000
SELECT * FROM vol_seen ORDER BY n;
-- the parameterised statements ran on a generic plan (planned once, without the price)
SELECT name, generic_plans >= 1 AS generic_plan_used, generic_plans + custom_plans AS executions
  FROM pg_prepared_statements WHERE name LIKE 'vol%' ORDER BY name COLLATE "C";

-- Within one PL/pgSQL call: read, add an observation, read again (a VOLATILE function's
-- statements each take a new snapshot, and price_at keeps no cache).
CREATE FUNCTION pg_temp.vol_read_write_read() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  a numeric;
  b numeric;
BEGIN
  FOR i IN 1..2 LOOP
    a := llm_econ.price_at('H100-SXM5', 'regress-volatility', 'on_demand', '2024-06-01');
  END LOOP;
  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
       VALUES ('2024-05-20 00:00+00', 'regress-volatility', 'H100-SXM5', 'on_demand', 1.10, 'volatility test');
  FOR i IN 1..2 LOOP
    b := llm_econ.price_at('H100-SXM5', 'regress-volatility', 'on_demand', '2024-06-01');
  END LOOP;
  RETURN a || ' -> ' || b;
END $$;
SELECT pg_temp.vol_read_write_read() AS price_before_and_after;

-- The constructor is STABLE too: a cached plan and a PL/pgSQL function see a SKU's figures change.
INSERT INTO gpu_sku (sku, vendor, name, hbm_gb, bf16_tflops, pcie_gb_per_s, gpus_per_node, tdp_watts, source)
     VALUES ('REGRESS-VOLATILITY', 'test', 'volatility test GPU', 80, 100, 64, 8, 700, 'volatility test');
PREPARE vol_spec AS SELECT (run_spec(7e9, 1.4e12, 8, 'regress-volatility')).peak_flops / 1e12 AS tflops;
CREATE FUNCTION pg_temp.vol_peak() RETURNS float8 LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (llm_econ.run_spec(7e9, 1.4e12, 8, 'regress-volatility')).peak_flops / 1e12;
END $$;
\o /dev/null
SELECT 'EXECUTE vol_spec' FROM generate_series(1, 6) \gexec
SELECT pg_temp.vol_peak() FROM generate_series(1, 6);
\o
UPDATE gpu_sku SET bf16_tflops = 200 WHERE sku = 'REGRESS-VOLATILITY';
CREATE TEMP TABLE vol_5 AS EXECUTE vol_spec;
SELECT (SELECT tflops FROM vol_5) AS prepared, pg_temp.vol_peak() AS plpgsql,
       (SELECT bf16_tflops FROM gpu_sku WHERE sku = 'REGRESS-VOLATILITY') AS in_gpu_sku;
-- ... also when the SKU changes inside the transaction that already used the function: a
-- STABLE function must see the changes of earlier statements.  (f below is a bug, reported: the
-- constructor's per-call-site SKU cache lives as long as PL/pgSQL keeps the expression, i.e. the
-- whole transaction, not one statement.)
BEGIN;
SELECT pg_temp.vol_peak() AS plpgsql_before;
UPDATE gpu_sku SET bf16_tflops = 300 WHERE sku = 'REGRESS-VOLATILITY';
SELECT pg_temp.vol_peak() AS plpgsql_after,
       (SELECT bf16_tflops FROM gpu_sku WHERE sku = 'REGRESS-VOLATILITY') AS in_gpu_sku,
       pg_temp.vol_peak() = (SELECT bf16_tflops FROM gpu_sku WHERE sku = 'REGRESS-VOLATILITY') AS sees_update;
COMMIT;

-- price_at resolves a SKU name (key or alias) the same way: an alias moved to another SKU must
-- be seen by a cached plan, and by PL/pgSQL in the same transaction (f below: the same bug, in
-- price_at's per-call-site cache of the name's key).  The alias names H100-SXM5 ($1.10 in this
-- series by now), then A100-80GB ($1.00).
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
     VALUES ('2024-01-01 00:00+00', 'regress-volatility', 'A100-80GB', 'on_demand', 1.00, 'volatility test');
INSERT INTO gpu_sku_alias (alias, sku, source) VALUES ('regress-volatility-alias', 'H100-SXM5', 'volatility test');
PREPARE vol_alias AS SELECT price_at('regress-volatility-alias', 'regress-volatility', 'on_demand', '2024-06-01') AS usd;
CREATE FUNCTION pg_temp.vol_alias_price() RETURNS numeric LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN llm_econ.price_at('regress-volatility-alias', 'regress-volatility', 'on_demand', '2024-06-01');
END $$;
CREATE TEMP VIEW vol_alias_now AS
  SELECT a.sku AS alias_names, price_at(a.sku, 'regress-volatility', 'on_demand', '2024-06-01') AS its_price
    FROM gpu_sku_alias a WHERE a.alias = 'regress-volatility-alias';
\o /dev/null
SELECT 'EXECUTE vol_alias' FROM generate_series(1, 6) \gexec
SELECT pg_temp.vol_alias_price() FROM generate_series(1, 6);
\o
UPDATE gpu_sku_alias SET sku = 'A100-80GB' WHERE alias = 'regress-volatility-alias';
CREATE TEMP TABLE vol_6 AS EXECUTE vol_alias;
SELECT (SELECT usd FROM vol_6) AS prepared, pg_temp.vol_alias_price() AS plpgsql, n.* FROM vol_alias_now AS n;
BEGIN;
SELECT pg_temp.vol_alias_price() AS plpgsql_before;
UPDATE gpu_sku_alias SET sku = 'H100-SXM5' WHERE alias = 'regress-volatility-alias';
SELECT pg_temp.vol_alias_price() AS plpgsql_after, n.*, pg_temp.vol_alias_price() = n.its_price AS sees_update
  FROM vol_alias_now AS n;
COMMIT;

-- Clean up.
DEALLOCATE ALL;
DELETE FROM price_snapshot WHERE provider = 'regress-volatility';
DELETE FROM price_series WHERE provider = 'regress-volatility';
DELETE FROM gpu_sku_alias WHERE alias = 'regress-volatility-alias';
DELETE FROM gpu_sku WHERE sku = 'REGRESS-VOLATILITY';
