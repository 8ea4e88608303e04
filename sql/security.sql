-- Security: search_path hijacking by a non-superuser at install and at run time, not trusted, the pre-created-schema guard, PUBLIC privileges, SECURITY DEFINER settings, every object a member of the extension.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET client_min_messages = warning;      -- DROP ... CASCADE lists whatever earlier tests left
\set SHOW_CONTEXT never

-- The control file: installing needs a superuser (not trusted); the script names its schema.
SELECT version, superuser, trusted, relocatable, schema, requires
  FROM pg_available_extension_versions WHERE name = 'llm_econ' ORDER BY version;

-- The attacker is an ordinary role with CREATE on the database (as every role had on schema
-- public before PostgreSQL 15).  It owns schema regress_llm_evil, which a careless victim may
-- put in its search_path, and fills it with traps: operators on the argument types the
-- extension compares and computes with, and functions named like the built-ins it calls.  Every
-- trap counts its calls in its own sequence (nextval is not undone by a rollback, so a call is
-- seen even when the statement fails).  Operator traps return the right result (a hijacked
-- install completes, so every hijacked object can be listed); function traps return a wrong one.
CREATE ROLE regress_llm_attacker;
CREATE ROLE regress_llm_victim;
SELECT current_database() AS datname \gset
GRANT CREATE ON DATABASE :"datname" TO regress_llm_attacker;
SET ROLE regress_llm_attacker;
CREATE SCHEMA regress_llm_evil;
GRANT USAGE ON SCHEMA regress_llm_evil TO PUBLIC;
CREATE TABLE regress_llm_evil.trap (id serial PRIMARY KEY, object text NOT NULL, hits regclass);
GRANT SELECT ON regress_llm_evil.trap TO PUBLIC;
DO $$
DECLARE
  o record;
  t record;
  f record;
  wide text;
  n int;
BEGIN
  -- operators: comparisons and arithmetic on every pair of the types the extension uses
  FOR o IN SELECT * FROM (VALUES ('='), ('<>'), ('<'), ('<='), ('>'), ('>='), ('+'), ('-'), ('*'), ('/')) AS v(op) LOOP
    FOR t IN SELECT l, r FROM (VALUES ('numeric'), ('float8'), ('int4'), ('int8')) AS a(l),
                              (VALUES ('numeric'), ('float8'), ('int4'), ('int8')) AS b(r)
             UNION ALL
             SELECT l, l FROM (VALUES ('text'), ('timestamptz'), ('timestamp'), ('interval')) AS c(l)
              WHERE o.op IN ('=', '<>', '<', '<=', '>', '>=')
             UNION ALL
             SELECT 'timestamptz', 'interval' WHERE o.op IN ('+', '-') LOOP
      wide := CASE WHEN t.l = t.r OR t.r = 'interval' THEN t.l WHEN 'float8' IN (t.l, t.r) THEN 'float8'
                   WHEN 'numeric' IN (t.l, t.r) THEN 'numeric' ELSE 'int8' END;
      INSERT INTO regress_llm_evil.trap (object) VALUES (format('operator %s(%s, %s)', o.op, t.l, t.r)) RETURNING id INTO n;
      EXECUTE format('CREATE SEQUENCE regress_llm_evil.hit_%s', n);
      EXECUTE format($f$CREATE FUNCTION regress_llm_evil.trap_%1$s(a %2$s, b %3$s) RETURNS %4$s
                       LANGUAGE plpgsql SET search_path = pg_catalog
                       AS 'BEGIN PERFORM nextval(''regress_llm_evil.hit_%1$s''); RETURN a::%5$s OPERATOR(pg_catalog.%6$s) b%7$s; END'$f$,
                     n, t.l, t.r, CASE WHEN o.op IN ('+', '-', '*', '/') THEN wide ELSE 'boolean' END,
                     wide, o.op, CASE WHEN t.r = 'interval' THEN '' ELSE '::' || wide END);
      EXECUTE format('CREATE OPERATOR regress_llm_evil.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = regress_llm_evil.trap_%s)',
                     o.op, t.l, t.r, n);
    END LOOP;
  END LOOP;
  INSERT INTO regress_llm_evil.trap (object) VALUES ('operator ->>(jsonb, text)') RETURNING id INTO n;
  EXECUTE format('CREATE SEQUENCE regress_llm_evil.hit_%s', n);
  EXECUTE format($f$CREATE FUNCTION regress_llm_evil.trap_%1$s(a jsonb, b text) RETURNS text LANGUAGE plpgsql SET search_path = pg_catalog
                   AS 'BEGIN PERFORM nextval(''regress_llm_evil.hit_%1$s''); RETURN a OPERATOR(pg_catalog.->>) b; END'$f$, n);
  EXECUTE format('CREATE OPERATOR regress_llm_evil.->> (LEFTARG = jsonb, RIGHTARG = text, FUNCTION = regress_llm_evil.trap_%s)', n);
  -- functions named like built-ins, with their argument types; each returns a wrong value
  FOR f IN SELECT * FROM (VALUES
      ('lower', 'text', 'text', '''hijacked'''), ('upper', 'text', 'text', '''HIJACKED'''), ('btrim', 'text', 'text', '''hijacked'''),
      ('now', '', 'timestamptz', '''1999-12-31 00:00+00'''), ('round', 'numeric, int4', 'numeric', '0'),
      ('round', 'numeric', 'numeric', '0'), ('trim_scale', 'numeric', 'numeric', '0'), ('scale', 'numeric', 'int4', '0'),
      ('isfinite', 'timestamptz', 'boolean', 'true'), ('hashtext', 'text', 'int4', '0'), ('md5', 'text', 'text', '''0'''),
      ('regexp_replace', 'text, text, text, text', 'text', '''hijacked'''),
      ('regexp_split_to_array', 'text, text', 'text[]', '''{hijacked}'''), ('pg_has_role', 'text, text', 'boolean', 'true'),
      ('date_trunc', 'text, timestamptz', 'timestamptz', '''1999-12-31 00:00+00'''),
      ('date_trunc', 'text, timestamp', 'timestamp', '''1999-12-31 00:00'''), ('left', 'text, int4', 'text', '''hijacked'''),
      ('array_to_string', 'anyarray, text', 'text', '''hijacked'''), ('isempty', 'anyrange', 'boolean', 'false'),
      ('lower', 'anyrange', 'anyelement', 'NULL'), ('upper', 'anyrange', 'anyelement', 'NULL'),
      ('lower_inf', 'anyrange', 'boolean', 'false'), ('upper_inf', 'anyrange', 'boolean', 'false'),
      ('current_setting', 'text', 'text', '''hijacked'''), ('pg_advisory_xact_lock', 'int4, int4', 'void', ''),
      ('make_interval', 'int4, int4, int4, int4, int4, int4, float8', 'interval', '''1 second''')
    ) AS v(name, args, ret, val) LOOP
    INSERT INTO regress_llm_evil.trap (object) VALUES (format('function %s(%s)', f.name, f.args)) RETURNING id INTO n;
    EXECUTE format('CREATE SEQUENCE regress_llm_evil.hit_%s', n);
    EXECUTE format($f$CREATE FUNCTION regress_llm_evil.%1$I(%2$s) RETURNS %3$s LANGUAGE plpgsql SET search_path = pg_catalog
                     AS 'BEGIN PERFORM nextval(''regress_llm_evil.hit_%4$s''); RETURN %5$s; END'$f$,
                   f.name, f.args, f.ret, n, replace(f.val, '''', ''''''));
  END LOOP;
  UPDATE regress_llm_evil.trap SET hits = format('regress_llm_evil.hit_%s', id)::regclass;
  FOR n IN SELECT id FROM regress_llm_evil.trap LOOP
    EXECUTE format('GRANT USAGE ON SEQUENCE regress_llm_evil.hit_%s TO PUBLIC', n);
  END LOOP;
END $$;
-- the traps a call touched: none, as long as nothing is hijacked
CREATE FUNCTION regress_llm_evil.hits() RETURNS TABLE (trap text, calls bigint) LANGUAGE sql AS $$
  SELECT t.object, s.last_value FROM regress_llm_evil.trap t JOIN pg_catalog.pg_sequences s
      ON s.schemaname OPERATOR(pg_catalog.=) 'regress_llm_evil' AND s.sequencename OPERATOR(pg_catalog.=) ('hit_' || t.id)
   WHERE s.last_value IS NOT NULL ORDER BY t.id
$$;
SELECT count(*) AS traps, count(*) FILTER (WHERE object LIKE 'operator%') AS operators FROM regress_llm_evil.trap;
RESET ROLE;

-- 1. Installing.  The test database has the extension; drop it (earlier tests' objects go with it).
DROP EXTENSION llm_econ CASCADE;
-- Not trusted: an ordinary role cannot create it, even with CREATE on the database.
SET ROLE regress_llm_attacker;
CREATE EXTENSION llm_econ;
-- Nobody can plant objects in its schema beforehand: the script creates schema llm_econ itself,
-- so installation fails if it already exists.
CREATE SCHEMA llm_econ;
CREATE FUNCTION llm_econ.price_at(text, text, text, timestamptz, text) RETURNS numeric LANGUAGE sql AS 'SELECT 0.01';
RESET ROLE;
CREATE EXTENSION llm_econ;
SELECT count(*) AS llm_econ_extensions FROM pg_extension WHERE extname = 'llm_econ';
DROP SCHEMA llm_econ CASCADE;

-- 2. Installing with the attacker's schema first in the installer's search_path (as contrib's
-- seg/sql/security.sql does): CREATE EXTENSION runs the script with that schema as search_path
-- (pg_catalog implicitly first), so an unqualified operator whose argument types have no exact
-- match in pg_catalog (float8 > int4, numeric >= int4, ...) binds to the attacker's exact match,
-- and runs as the installing superuser.  Nothing may be bound to or call the attacker's objects.
SET search_path = regress_llm_evil, public;
CREATE EXTENSION llm_econ;
RESET search_path;
-- extension objects bound to attacker objects (must be empty)
SELECT * FROM (
  SELECT pg_describe_object(d.classid, d.objid, d.objsubid) COLLATE "C" AS extension_object,
         pg_describe_object(d.refclassid, d.refobjid, 0) COLLATE "C" AS bound_to
    FROM pg_depend d
   WHERE ((d.refclassid = 'pg_operator'::regclass
           AND d.refobjid IN (SELECT oid FROM pg_operator WHERE oprnamespace = 'regress_llm_evil'::regnamespace))
       OR (d.refclassid = 'pg_proc'::regclass
           AND d.refobjid IN (SELECT oid FROM pg_proc WHERE pronamespace = 'regress_llm_evil'::regnamespace)))
     AND coalesce((pg_identify_object(d.classid, d.objid, d.objsubid)).schema, '') <> 'regress_llm_evil') AS b
 ORDER BY bound_to, extension_object;
-- traps called while installing, as the superuser (must be empty)
SELECT trap FROM regress_llm_evil.hits();
-- Reinstall cleanly for the rest of the test (and the tests after it); reset the counters.
DROP EXTENSION llm_econ CASCADE;
CREATE EXTENSION llm_econ;
SELECT count(*) AS counters_reset FROM regress_llm_evil.trap, LATERAL setval(hits, 1, false);

-- 3. Privileges.  PUBLIC reads the reference and price tables and the views, and writes nothing;
-- run_plan, spend and the staging table are not PUBLIC's at all.
SELECT c.relname, c.relkind,
       has_table_privilege('public', c.oid, 'SELECT') AS sel, has_table_privilege('public', c.oid, 'INSERT') AS ins,
       has_table_privilege('public', c.oid, 'UPDATE') AS upd, has_table_privilege('public', c.oid, 'DELETE') AS del,
       has_table_privilege('public', c.oid, 'TRUNCATE') AS trunc, has_table_privilege('public', c.oid, 'REFERENCES') AS refs,
       has_table_privilege('public', c.oid, 'TRIGGER') AS trig
  FROM pg_class c WHERE c.relnamespace = 'llm_econ'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
 ORDER BY 1;
SELECT c.relname, has_sequence_privilege('public', c.oid, 'USAGE') AS usage, has_sequence_privilege('public', c.oid, 'UPDATE') AS upd
  FROM pg_class c WHERE c.relnamespace = 'llm_econ'::regnamespace AND c.relkind = 'S' ORDER BY 1;
-- PUBLIC may execute every user-facing (not _-prefixed) function: one it may not (must be empty)
SELECT p.oid::regprocedure AS not_executable_by_public FROM pg_proc p
 WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.proname NOT LIKE '\_%'
   AND NOT has_function_privilege('public', p.oid, 'EXECUTE') ORDER BY 1;
-- Internal (_-prefixed) functions PUBLIC may execute: only those a user-facing path runs as the
-- caller (an invoker function, a view, a column default, a policy or an invoker trigger calls
-- them, or the C library's SPI queries do), each with its reason.  Tests only, triggers run as
-- their owner, and those called only from a SECURITY DEFINER function are not PUBLIC's.  Lists
-- an internal function executable by PUBLIC without a reason, and a listed one that no longer is
-- (must be empty).
WITH allowed(fn, reason) AS (VALUES
  ('_billed_gpus', 'cheapest_offers, estimate_cost and run_plan, through _run_offers, as the caller'),
  ('_billing_month', 'monthly views (finance.sql) as the reader'),
  ('_catalog_sku', 'import_skypilot_catalog (invoker) as the caller'),
  ('_check_max_age', 'price lookups (price_twap, cheapest_offers, price.c) as the caller'),
  ('_check_name', 'price and plan lookups (guard, prices, price.c, sku.c) as the caller'),
  ('_check_pricing', 'price and plan lookups as the caller'),
  ('_check_source_kinds', 'price lookups as the caller'),
  ('_check_spec', 'run_spec checks and run_plan''s constraint as the caller'),
  ('_check_where', 'price lookups as the caller'),
  ('_focus_admit', 'import_focus and load_focus (invoker) as the caller'),
  ('_focus_batches', 'load_focus (invoker) as the caller'),
  ('_focus_id_key', 'load_focus and import_focus, through _focus_statements and _focus_store, as the caller'),
  ('_focus_lines', 'import_focus (invoker) as the caller'),
  ('_focus_partial', 'import_focus and load_focus (invoker) as the caller'),
  ('_focus_refusal', 'import_focus and load_focus, through _focus_admit, as the caller'),
  ('_focus_staged_lines', 'load_focus, through _focus_batches, as the caller'),
  ('_focus_store', 'import_focus and load_focus (invoker) as the caller'),
  ('_focus_statements', '_focus_store (invoker) as the caller'),
  ('_focus_temp', 'import_focus and load_focus (invoker) as the caller'),
  ('_is_tenant_member', 'row-level security policies, as the querying role'),
  ('_kind_allowed', 'the invoker trigger _price_kind_guard, as the inserting role'),
  ('_known_gpus', 'import_skypilot_catalog (invoker) as the caller'),
  ('_gpu_family', 'import_skypilot_catalog (invoker) as the caller'),
  ('_latest_prices', 'price lookups and views as the caller'),
  ('_load_price_history', 'load_price_history (invoker) as the caller'),
  ('_lock_providers', 'the importers (invoker) as the caller'),
  ('_name_key', 'price lookups as the caller'),
  ('_observed_mfu', 'plan views as the reader'),
  ('_plan_offers', 'cheapest_plan (plan_fmgr.c SPI) as the caller'),
  ('_price_changes', 'the importers, through _store_prices, as the caller'),
  ('_record_prices', 'the importers (invoker) as the caller'),
  ('_reraise', 'import_skypilot_catalog (invoker) as the caller'),
  ('_run_offers', 'cheapest_offers and _run_price as the caller'),
  ('_run_price', 'estimate_cost (price.c SPI) and run_plan''s freeze trigger as the caller'),
  ('_series_id', 'price_series'' generated column and price lookups as the writer or caller'),
  ('_shift', 'price lookups as the caller'),
  ('_sku_find', 'the importers and finance functions as the caller'),
  ('_sku_by_facts', 'import_skypilot_catalog, through _catalog_sku, as the caller'),
  ('_sku_contradiction', 'import_skypilot_catalog, through _catalog_sku and _sku_by_facts, as the caller'),
  ('_sku_itype', 'price lookups as the caller'),
  ('_sku_key', 'price lookups, bill and finance functions as the caller'),
  ('_sku_map', 'import_skypilot_catalog (invoker) as the caller'),
  ('_sku_of_name', 'import_skypilot_catalog (invoker) as the caller'),
  ('_skypilot_cloud_shape', 'import_skypilot_catalog (invoker) as the caller'),
  ('_skypilot_clouds', 'import_skypilot_catalog (invoker) as the caller'),
  ('_skypilot_offers', 'import_skypilot_catalog (invoker) as the caller'),
  ('_source_kind', 'price_snapshot.source_kind''s default, as the inserting role'),
  ('_staged_history', 'load_price_history (invoker) as the caller'),
  ('_store_prices', 'the importers, through _record_prices, as the caller'),
  ('_today_utc', 'dashboard views as the reader'),
  ('_usd', 'the importers as the caller'),
  ('_usd_per_unit', 'finance views and functions as the reader'))
SELECT coalesce(p.proname, a.fn) AS fn,
       CASE WHEN a.fn IS NULL THEN 'executable by PUBLIC, no reason listed' ELSE 'listed, not executable by PUBLIC' END AS problem
  FROM (SELECT DISTINCT p.proname FROM pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) x
         WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.proname LIKE '\_%' AND x.grantee = 0 AND x.privilege_type = 'EXECUTE') p
  FULL JOIN allowed a ON a.fn = p.proname
 WHERE a.fn IS NULL OR p.proname IS NULL ORDER BY 1;
-- ... and, as an ordinary role, actually:
SET ROLE regress_llm_victim;
SELECT count(*) > 20 AS reads_gpu_sku, (SELECT count(*) > 10000 FROM llm_econ.price_snapshot) AS reads_prices,
       llm_econ.price_at('H100-SXM5', 'lambda', 'on_demand', '2024-07-01') AS price_at,
       round(llm_econ.estimate_cost(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45), 2.49)) AS estimate_cost
  FROM llm_econ.gpu_sku;
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
     VALUES ('2024-01-01', 'evil', 'H100-SXM5', 'on_demand', 0.01, 'security test');
UPDATE llm_econ.gpu_sku SET bf16_tflops = 1e6 WHERE sku = 'H100-SXM5';
DELETE FROM llm_econ.price_snapshot WHERE provider = 'lambda';
INSERT INTO llm_econ.gpu_sku_alias (alias, sku) VALUES ('cheap', 'H100-SXM5');
TRUNCATE llm_econ.mfu_reference;
SELECT count(*) FROM llm_econ.run_plan;
SELECT count(*) FROM llm_econ.spend;
SELECT count(*) FROM llm_econ.plan_vs_actual;
SELECT count(*) FROM llm_econ.price_history_staging;
INSERT INTO llm_econ.run_plan (run_id, spec, provider, usd_per_gpu_hour)
     VALUES ('evil', llm_econ.run_spec(7e9, 1.4e12, 8, 'H100'), 'lambda', 1);
SELECT * FROM llm_econ.import_skypilot_catalog('lambda', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_h100_pcie,H100,1,0.01,us-east-1\n', '2024-01-01');
RESET ROLE;

-- 4. Functions: every SECURITY DEFINER one pins search_path to pg_catalog, pg_temp (pg_temp
-- last); which languages pin it at all (SQL functions do not, so that the planner can inline
-- them: their bodies qualify every name, which part 6 checks).
SELECT p.oid::regprocedure AS security_definer, p.proconfig
  FROM pg_proc p WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.prosecdef ORDER BY p.oid::regprocedure::text COLLATE "C";
SELECT count(*) AS unpinned_security_definers
  FROM pg_proc p WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.prosecdef
   AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false);
-- per language, whether all or none of its functions pin search_path (plpgsql: all; c, sql: none)
SELECT l.lanname,
       bool_and(EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')) AS all_pinned,
       bool_or(EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')) AS any_pinned
  FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.pronamespace = 'llm_econ'::regnamespace GROUP BY 1 ORDER BY 1;

-- 5. Every object in schema llm_econ belongs to the extension (nothing was created or replaced
-- in it by anyone else), by pg_depend; indexes, constraints, rules and row types belong to
-- their tables and types.
WITH objects AS (
       SELECT 'pg_proc'::regclass AS classid, p.oid AS objid FROM pg_proc p WHERE p.pronamespace = 'llm_econ'::regnamespace
       UNION ALL
       SELECT 'pg_class'::regclass, c.oid FROM pg_class c
        WHERE c.relnamespace = 'llm_econ'::regnamespace AND c.relkind NOT IN ('i', 'I', 'c', 't')
          AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                                                AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
       UNION ALL
       SELECT 'pg_type'::regclass, t.oid FROM pg_type t
        WHERE t.typnamespace = 'llm_econ'::regnamespace AND t.typtype NOT IN ('b') AND t.typelem = 0
          AND (t.typrelid = 0 OR (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c')
       UNION ALL
       SELECT 'pg_operator'::regclass, o.oid FROM pg_operator o WHERE o.oprnamespace = 'llm_econ'::regnamespace
       UNION ALL
       SELECT 'pg_opclass'::regclass, o.oid FROM pg_opclass o WHERE o.opcnamespace = 'llm_econ'::regnamespace
       UNION ALL
       SELECT 'pg_collation'::regclass, o.oid FROM pg_collation o WHERE o.collnamespace = 'llm_econ'::regnamespace
       UNION ALL
       SELECT 'pg_conversion'::regclass, o.oid FROM pg_conversion o WHERE o.connamespace = 'llm_econ'::regnamespace
       UNION ALL
       SELECT 'pg_ts_config'::regclass, o.oid FROM pg_ts_config o WHERE o.cfgnamespace = 'llm_econ'::regnamespace),
     members AS (
       SELECT o.*, EXISTS (SELECT 1 FROM pg_depend d
                            WHERE d.classid = o.classid AND d.objid = o.objid AND d.deptype = 'e'
                              AND d.refclassid = 'pg_extension'::regclass
                              AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'llm_econ')) AS member
         FROM objects o)
SELECT classid AS catalog, count(*) > 0 AS has_objects, bool_and(member) AS all_members,
       string_agg(pg_describe_object(classid, objid, 0), ', ') FILTER (WHERE NOT member) AS not_members
  FROM members GROUP BY 1 ORDER BY classid::regclass::text COLLATE "C";
-- ... and the schema itself is the extension's, owned by the installing superuser
SELECT n.nspname, pg_get_userbyid(n.nspowner) = current_user AS owned_by_installer,
       EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_namespace'::regclass AND d.objid = n.oid
                AND d.deptype = 'e') AS extension_member
  FROM pg_namespace n WHERE n.nspname = 'llm_econ';

-- 6. Run time.  The victim is an ordinary writer of plans, bills and prices (the README's grant
-- recipe) whose search_path puts the attacker's schema first, even before pg_catalog; the
-- attacker adds views named like the extension's tables that count every read.  The same battery
-- of calls (the public functions, the importers, a plan frozen by its trigger, the views) runs
-- with a clean and with that search_path: the answers must be equal and no trap called.
SET ROLE regress_llm_attacker;
DO $$
DECLARE
  t text;
  n int;
BEGIN
  FOREACH t IN ARRAY ARRAY['gpu_sku', 'gpu_sku_alias', 'mfu_reference', 'price_snapshot', 'price_series',
                           'price_history_staging', 'run_plan', 'spend'] LOOP
    INSERT INTO regress_llm_evil.trap (object) VALUES ('table ' || t) RETURNING id INTO n;
    EXECUTE format('CREATE SEQUENCE regress_llm_evil.hit_%s', n);
    EXECUTE format('GRANT USAGE ON SEQUENCE regress_llm_evil.hit_%s TO PUBLIC', n);
    UPDATE regress_llm_evil.trap SET hits = format('regress_llm_evil.hit_%s', n)::regclass WHERE id = n;
    EXECUTE format('CREATE VIEW regress_llm_evil.%I AS SELECT * FROM llm_econ.%I WHERE nextval(''regress_llm_evil.hit_%s'') > 0', t, t, n);
    EXECUTE format('GRANT SELECT ON regress_llm_evil.%I TO PUBLIC', t);
  END LOOP;
END $$;
RESET ROLE;
GRANT SELECT, INSERT, UPDATE, DELETE ON llm_econ.run_plan, llm_econ.spend TO regress_llm_victim;
GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO regress_llm_victim;
GRANT INSERT ON llm_econ.price_snapshot TO regress_llm_victim;
GRANT USAGE ON SEQUENCE llm_econ.price_snapshot_id_seq TO regress_llm_victim;
GRANT SELECT, INSERT, DELETE ON llm_econ.price_history_staging TO regress_llm_victim;
GRANT USAGE ON SEQUENCE llm_econ.price_history_staging_id_seq TO regress_llm_victim;

-- The battery: one statement per item, run by \gexec; $tag is clean or hostile, $cloud the cloud
-- each run imports into (spheron, paperspace: clouds whose file names follow no rule), $run its plan.  The battery's own operators are qualified;
-- the imports are of other GPUs than the price lookups', so both runs see the same prices.
CREATE TEMP TABLE hj_result (tag text, item text COLLATE "C", value text);
CREATE TEMP TABLE hj_battery (n int PRIMARY KEY, sql text);
GRANT ALL ON hj_result, hj_battery TO PUBLIC;
INSERT INTO hj_battery VALUES
  (1, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'run_spec (SKU by lower-case name)',
        llm_econ.run_spec(7e9, 1.4e12, 256, 'h100-sxm5', mfu => 0.45)::text$q$),
  (2, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'mfu_time, estimate_cost, energy_kwh',
        concat_ws(' ', llm_econ.mfu_time(s), llm_econ.estimate_cost(s, 2.49), llm_econ.energy_kwh(s, 1.2))
        FROM llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45) AS s$q$),
  (3, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'memory_per_gpu, best layout', concat_ws(' ', m, p)
        FROM llm_econ.run_spec(20e9, 4e11, 64, 'H100', n_layers => 44, d_model => 6144, n_heads => 64,
                               seq_len => 2048, global_batch => 512) AS s,
             llm_econ.memory_per_gpu(s) AS m, LATERAL (SELECT p FROM llm_econ.plan_parallelism(s) AS p LIMIT 1) AS q$q$),
  (4, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'price_at (alias, upper-case provider)',
        llm_econ.price_at('H100', 'LAMBDA', 'on_demand', '2024-07-01')::text$q$),
  (5, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'estimate_cost at a provider''s price',
        llm_econ.estimate_cost(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), 'lambda', 'spot', '2024-07-01')::text$q$),
  (6, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'price_twap',
        llm_econ.price_twap('H100-SXM5', 'gcp', 'on_demand', '[2024-06-01, 2024-07-01)')::text$q$),
  (7, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'cheapest_offers',
        string_agg(o::text, '; ' ORDER BY o.cost_usd, o.provider COLLATE pg_catalog."C", o.region COLLATE pg_catalog."C",
                                      o.pricing COLLATE pg_catalog."C")
        FROM llm_econ.cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), '2025-03-01') AS o$q$),
  (8, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'tco_per_gpu_hour', llm_econ.tco_per_gpu_hour('h100', 4, 0.7, 0.10, 1.2)::text$q$),
  (9, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'import_skypilot_catalog', r::text
        FROM llm_econ.import_skypilot_catalog('$cloud', E'InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\n'
               'gpu_1x_a10,A10,1,0.75,0.30,eu-north1\ngpu_8x_l40s,L40S,8,14.32,,eu-north1\n'
               'gpu_2x_mystery,Mystery,2,5.00,,eu-north1\n', '2024-01-15 00:00+00') AS r$q$),
  (10, $q$INSERT INTO llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator,
           accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour)
         VALUES ('2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', '$cloud', 'eu-north1', 'g2-standard-8', 'L4', '1', '0.85', '0.34')$q$),
  (11, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'load_price_history', r::text
         FROM llm_econ.load_price_history(source => 'security test $cloud') AS r$q$),
  (12, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'prices stored by both importers',
         string_agg(concat_ws(',', p."time", p.sku, p.region, p.pricing, p.usd_per_gpu_hour, p.instance_type),
                    '; ' ORDER BY p."time", p.sku COLLATE pg_catalog."C", p.pricing COLLATE pg_catalog."C", p.usd_per_gpu_hour)
         FROM llm_econ.price_history AS p WHERE p.provider OPERATOR(pg_catalog.=) '$cloud'$q$),
  (13, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'import_focus', r::text
         FROM llm_econ.import_focus(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,PricingCategory,'
                'ConsumedQuantity,ConsumedUnit,ChargeDescription,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                '393.28,393.28,2024-07-01T00:00:00Z,2024-07-01T04:00:00Z,Amazon Web Services,Standard,4,Hours,'
                'p5.48xlarge on-demand,"{""run_id"": ""$run""}",111,USD,2024-07-01T00:00:00Z,2024-08-01T00:00:00Z,Usage\n'
                '12.50,10.00,2024-07-01T00:00:00Z,2024-07-02T00:00:00Z,AWS,Committed,1,GB-Mo,storage,"{""run_id"": ""$run""}",111,USD,2024-07-01T00:00:00Z,2024-08-01T00:00:00Z,Usage\n',
                source => 'security test $tag') AS r$q$),
  (14, $q$INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, planned_at)
         VALUES ('$run', llm_econ.run_spec(1e9, 2e10, 8, 'H100', mfu => 0.4), 'lambda', 'on_demand', '2024-07-01')$q$),
  (15, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'plan frozen by its trigger',
         concat_ws(' ', p.usd_per_gpu_hour, p.planned_gpu_hours, p.planned_usd, p.tenant OPERATOR(pg_catalog.=) current_user)
         FROM llm_econ.run_plan AS p WHERE p.run_id OPERATOR(pg_catalog.=) '$run'$q$),
  (16, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'plan_vs_actual',
         concat_ws(' ', v.planned_usd, v.billed_usd, v.effective_usd, v.variance_usd, v.variance_pct, v.actual_gpu_hours,
                   v.implied_mfu, v.status)
         FROM llm_econ.plan_vs_actual AS v WHERE v.run_id OPERATOR(pg_catalog.=) '$run'$q$),
  (17, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'spend_daily',
         string_agg(concat_ws(' ', d."time", d.provider, d.service_category, d.billed_usd, d.effective_usd, d.gpu_hours, d.lines),
                    '; ' ORDER BY d."time", d.service_category COLLATE pg_catalog."C")
         FROM llm_econ.spend_daily AS d$q$),
  (18, $q$INSERT INTO pg_temp.hj_result SELECT '$tag', 'price_daily (H100 spot, 2024-06-01..03)',
         string_agg(concat_ws(' ', d."time", d.min_usd_per_gpu_hour, d.avg_usd_per_gpu_hour, d.max_usd_per_gpu_hour, d.provider_list),
                    '; ' ORDER BY d."time")
         FROM llm_econ.price_daily AS d
        WHERE d.sku OPERATOR(pg_catalog.=) 'H100-SXM5' AND d.pricing OPERATOR(pg_catalog.=) 'spot'
          AND d."time" OPERATOR(pg_catalog.>=) '2024-06-01' AND d."time" OPERATOR(pg_catalog.<) '2024-06-04'$q$),
  (19, $q$DELETE FROM llm_econ.spend WHERE source OPERATOR(pg_catalog.=) 'security test $tag'$q$);

SET ROLE regress_llm_victim;
SET search_path = "$user", public;
SELECT replace(replace(replace(sql, '$tag', 'clean'), '$cloud', 'spheron'), '$run', 'plan-clean') FROM hj_battery ORDER BY n \gexec
SET search_path = regress_llm_evil, pg_catalog, "$user", public;
SELECT replace(replace(replace(sql, '$tag', 'hostile'), '$cloud', 'paperspace'), '$run', 'plan-hostile') FROM hj_battery ORDER BY n \gexec
RESET search_path;
RESET ROLE;
-- the same answers with either search_path
SELECT c.item, c.value IS NOT NULL AS answered, c.value = h.value AS same_when_hijacked
  FROM hj_result c JOIN hj_result h ON h.item = c.item AND h.tag = 'hostile'
 WHERE c.tag = 'clean' ORDER BY c.item;
-- and the answers themselves (clean search_path)
SELECT item, left(value, 100) AS value FROM hj_result WHERE tag = 'clean' ORDER BY item;
-- traps called at run time (must be empty)
SELECT * FROM regress_llm_evil.hits();

-- The traps are live: an unqualified call under that search_path is hijacked, and counted.
SET search_path = regress_llm_evil, pg_catalog;
SELECT lower('ABC') AS lower_abc, 1 + 1.5 AS one_plus_one_and_a_half;
RESET search_path;
SELECT * FROM regress_llm_evil.hits();

-- Clean up: the victim's rows, both roles and everything the attacker owns.
DELETE FROM llm_econ.run_plan WHERE run_id IN ('plan-clean', 'plan-hostile');
DELETE FROM llm_econ.price_snapshot WHERE provider IN ('spheron', 'paperspace');
DELETE FROM llm_econ.price_series WHERE provider IN ('spheron', 'paperspace');
DROP OWNED BY regress_llm_attacker, regress_llm_victim CASCADE;
DROP ROLE regress_llm_attacker, regress_llm_victim;
SELECT count(*) AS llm_econ_installed FROM pg_extension WHERE extname = 'llm_econ';
