-- Traps: functions named like every built-in the install and update scripts call, generated from the scripts' own text and planted in public, a "$user" schema and pg_temp before install, before each update and during use; none may ever run or be bound.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET client_min_messages = warning;
\set SHOW_CONTEXT never

-- The scripts a database runs: this version's install script and every shipped update step.
SELECT setting || '/extension/' AS extdir FROM pg_config WHERE name = 'SHAREDIR' \gset
CREATE TEMP TABLE script (name text PRIMARY KEY, body text NOT NULL);
INSERT INTO script
SELECT f, pg_read_file(:'extdir' || f)
  FROM pg_ls_dir(:'extdir') AS f
 WHERE f ~ '^llm_econ--[0-9.]+(--[0-9.]+)?\.sql$'
   AND f NOT IN ('llm_econ--0.1.0.sql', 'llm_econ--0.3.0.sql', 'llm_econ--0.4.0.sql');   -- released install scripts the tests start from, not shipped
SELECT name FROM script ORDER BY name;

-- Their code without comments and string literals (so a name in a COMMENT is not a call).
CREATE TEMP VIEW script_code AS
SELECT name, regexp_replace(regexp_replace(body, '--[^\n]*', '', 'g'), '''([^'']|'''')*''', '''''', 'g') AS code
  FROM script;

-- Every call: an identifier, possibly qualified, before "(".  The built-ins are those that name a
-- function, aggregate or window function of pg_catalog (keywords such as IN, ANY, VALUES,
-- CHECK or a type's modifier, numeric(12, 2), are not functions or are left out as types).
CREATE TEMP TABLE call AS
SELECT s.name AS script, lower(m[1]) AS qualifier, lower(m[2]) AS fn
  FROM script_code s, regexp_matches(s.code, '([A-Za-z_][A-Za-z0-9_]*\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\(', 'g') AS m;
CREATE TEMP TABLE builtin_called AS
SELECT DISTINCT c.fn
  FROM call c
 WHERE coalesce(c.qualifier, 'pg_catalog.') = 'pg_catalog.'
   AND EXISTS (SELECT 1 FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace
                AND p.proname = c.fn AND p.prokind IN ('f', 'a', 'w'))
   AND NOT EXISTS (SELECT 1 FROM pg_type t WHERE t.typnamespace = 'pg_catalog'::regnamespace AND t.typname = c.fn)
   AND c.fn NOT IN ('extract', 'position', 'substring', 'overlay', 'trim', 'normalize');   -- SQL syntax, qualified by the parser
-- the list covers the calls the issue named, and many more
SELECT count(*) > 30 AS many_builtins,
       bool_and(n IN (SELECT fn FROM builtin_called)) AS named_ones_covered
  FROM unnest(ARRAY['num_nonnulls', 'count', 'format', 'array_agg', 'unnest', 'lag', 'lead', 'row_number',
                    'string_agg', 'lower', 'round', 'set_config', 'current_setting']) AS n;

-- The rule: in this version's install script, the update step into it and the 0.3.0 -> 0.4.0 step,
-- every call of a built-in is written pg_catalog.name(...).  (The released 0.1.0 -> 0.2.0 and 0.2.0 -> 0.3.0
-- steps are kept as released; they begin with SET search_path = pg_catalog, pg_temp.)
SELECT c.script, c.fn AS unqualified_builtin_call, count(*) AS calls
  FROM call c JOIN builtin_called b USING (fn)
 WHERE c.qualifier IS NULL
   AND c.script IN ('llm_econ--0.5.0.sql', 'llm_econ--0.4.0--0.5.0.sql', 'llm_econ--0.3.0--0.4.0.sql')
 GROUP BY 1, 2 ORDER BY 1, 2;
SELECT name AS released_step, body ~ '\\quit\n[^\n]*\n[^\n]*\n[^\n]*\nSET search_path = pg_catalog, pg_temp;' AS pins_search_path
  FROM script WHERE name IN ('llm_econ--0.1.0--0.2.0.sql', 'llm_econ--0.2.0--0.3.0.sql') ORDER BY 1;

-- The attacker: an ordinary role with CREATE on the database and on public (the default on
-- clusters upgraded from PostgreSQL 14 or earlier), owning a schema named like the installing
-- superuser (first on the default search_path, "$user").
CREATE ROLE regress_trap_attacker;
SELECT current_database() AS datname, current_user AS installer \gset
GRANT CREATE ON DATABASE :"datname" TO regress_trap_attacker;
GRANT CREATE ON SCHEMA public TO regress_trap_attacker;
CREATE SCHEMA :"installer" AUTHORIZATION regress_trap_attacker;
-- Every trap that runs counts itself here (a sequence: a rollback does not undo nextval), warns,
-- and tries to make the attacker superuser.
SET ROLE regress_trap_attacker;
CREATE SEQUENCE public.regress_trap_hits;
GRANT USAGE ON SEQUENCE public.regress_trap_hits TO PUBLIC;
CREATE FUNCTION public.regress_trap_hit(what text) RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
  PERFORM nextval('public.regress_trap_hits');
  RAISE WARNING 'trap % ran', what;
  BEGIN
    EXECUTE 'ALTER ROLE regress_trap_attacker SUPERUSER';
  EXCEPTION WHEN OTHERS THEN NULL;
  END;
END $$;
RESET ROLE;

-- The traps for one schema: for each built-in called, a function of the same name for every
-- pg_catalog signature, with "any" and polymorphic arguments made concrete (each of a dozen
-- types; a variadic one with one to five arguments) so that it beats the built-in on the exact
-- types of a call; aggregates and window functions get aggregates (usable with OVER).
CREATE FUNCTION pg_temp.plant_traps(target text) RETURNS int LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p record;
  t text;
  k int;
  args text[];
  argl text;
  ret text;
  planted int := 0;
  concrete text[] := ARRAY['text', 'int4', 'int8', 'float8', 'numeric', 'boolean', 'timestamptz',
                           'timestamp', 'date', 'interval', 'jsonb', 'bytea'];
BEGIN
  FOR p IN SELECT pr.oid, pr.proname, pr.prokind, pr.proretset, pr.provariadic,
                  pr.prorettype::regtype::text AS rettype,
                  ARRAY(SELECT a::regtype::text FROM unnest(pr.proargtypes::oid[]) AS a) AS argtypes
             FROM pg_proc pr JOIN builtin_called b ON b.fn = pr.proname
            WHERE pr.pronamespace = 'pg_catalog'::regnamespace AND pr.prokind IN ('f', 'a', 'w')
  LOOP
    FOREACH t IN ARRAY concrete LOOP
      FOR k IN 0 .. CASE WHEN p.provariadic <> 0 THEN 5 ELSE 0 END LOOP
        args := ARRAY(SELECT CASE a WHEN '"any"' THEN t WHEN 'anyelement' THEN t WHEN 'anycompatible' THEN t
                                    WHEN 'anynonarray' THEN t WHEN 'anycompatiblenonarray' THEN t
                                    WHEN 'anyarray' THEN t || '[]' WHEN 'anycompatiblearray' THEN t || '[]'
                                    WHEN 'anyrange' THEN 'tstzrange' WHEN 'anycompatiblerange' THEN 'tstzrange'
                                    ELSE a END
                        FROM unnest(p.argtypes) AS a);
        IF p.provariadic <> 0 THEN
          -- the variadic array replaced by k arguments of its element type (or of t for "any")
          args := args[1:array_length(args, 1) - 1]
                  || array_fill(CASE WHEN p.provariadic = '"any"'::regtype THEN t
                                     ELSE CASE WHEN p.provariadic::regtype::text LIKE 'any%' THEN t
                                               ELSE p.provariadic::regtype::text END END, ARRAY[k]);
          CONTINUE WHEN k = 0 AND array_length(args, 1) IS NULL;
        END IF;
        -- no pseudo-types left (internal, cstring, record, anymultirange ...): not a callable shape
        CONTINUE WHEN EXISTS (SELECT 1 FROM unnest(args) AS a
                               WHERE (SELECT typtype FROM pg_type WHERE oid = a::regtype) = 'p');
        ret := CASE p.rettype WHEN 'anyelement' THEN t WHEN 'anycompatible' THEN t WHEN 'anynonarray' THEN t
                              WHEN 'anyarray' THEN t || '[]' WHEN 'anycompatiblearray' THEN t || '[]'
                              WHEN 'anyrange' THEN 'tstzrange' ELSE p.rettype END;
        CONTINUE WHEN (SELECT typtype FROM pg_type WHERE oid = ret::regtype) = 'p' AND ret <> 'void';
        argl := array_to_string(args, ', ');
        BEGIN
          IF p.prokind = 'f' THEN
            EXECUTE format('CREATE FUNCTION %s.%I(%s) RETURNS %s%s LANGUAGE plpgsql AS %L',
                           target, p.proname, argl, CASE WHEN p.proretset THEN 'SETOF ' ELSE '' END, ret,
                           format('BEGIN PERFORM public.regress_trap_hit(%L); RETURN%s; END',
                                  p.proname || '(' || argl || ')',
                                  CASE WHEN p.proretset OR ret = 'void' THEN '' ELSE ' NULL' END));
          ELSE
            EXECUTE format('CREATE FUNCTION %s.%I(int8%s) RETURNS int8 LANGUAGE plpgsql AS %L',
                           target, 'trap_sfunc_' || p.proname, CASE WHEN argl = '' THEN '' ELSE ', ' || argl END,
                           format('BEGIN PERFORM public.regress_trap_hit(%L); RETURN 0; END', p.proname || '(' || argl || ')'));
            EXECUTE format('CREATE AGGREGATE %s.%I(%s) (SFUNC = %s.%I, STYPE = int8)',
                           target, p.proname, CASE WHEN argl = '' THEN '*' ELSE argl END, target, 'trap_sfunc_' || p.proname);
          END IF;
          planted := planted + 1;
        EXCEPTION WHEN OTHERS THEN
          NULL;   -- a shape another overload already planted, or one PostgreSQL does not allow
        END;
      END LOOP;
      -- signatures without polymorphic arguments are the same for every t
      EXIT WHEN NOT EXISTS (SELECT 1 FROM unnest(p.argtypes) AS a WHERE a ~ '^(any|"any")')
                AND NOT (p.provariadic <> 0 AND p.provariadic::regtype::text ~ '^(any|"any")');
    END LOOP;
  END LOOP;
  RETURN planted;
END $$;
GRANT SELECT ON builtin_called TO regress_trap_attacker;

-- Plant: the attacker in public and in its "$user" schema; the installing session in pg_temp.
SET ROLE regress_trap_attacker;
SELECT pg_temp.plant_traps('public') > 500 AS planted_in_public;
SELECT pg_temp.plant_traps(quote_ident(:'installer')) > 500 AS planted_in_user_schema;
RESET ROLE;
SELECT pg_temp.plant_traps('pg_temp') > 500 AS planted_in_pg_temp;
-- the planted traps do capture an unqualified call on this search_path (the test can fail)
SELECT current_schemas(false) = ARRAY[current_user, 'public']::name[] AS user_schema_then_public;
SELECT num_nonnulls(1::float8, 2::float8) AS captured;   -- a trap: NULL, and a warning
SELECT setval('public.regress_trap_hits', 1, false) IS NOT NULL AS counter_reset;
ALTER ROLE regress_trap_attacker NOSUPERUSER;

-- Whatever a trap did, and what an extension object is bound to outside pg_catalog and llm_econ.
CREATE FUNCTION pg_temp.verdict() RETURNS TABLE (traps_run bigint, attacker_superuser boolean, extension_schema name,
                                                 bindings_outside text)
LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
  SELECT (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.regress_trap_hits),
         (SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_trap_attacker'),
         (SELECT extnamespace::regnamespace::name FROM pg_extension WHERE extname = 'llm_econ'),
         (SELECT string_agg(DISTINCT pg_describe_object(d.refclassid, d.refobjid, 0), ', ')
            FROM pg_depend d
            JOIN pg_depend m ON m.refclassid = 'pg_extension'::regclass AND m.deptype = 'e'
                            AND m.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'llm_econ')
           WHERE (d.classid, d.objid) IN (SELECT m.classid, m.objid
                                          UNION ALL
                                          SELECT 'pg_rewrite'::regclass, r.oid FROM pg_rewrite r
                                           WHERE m.classid = 'pg_class'::regclass AND r.ev_class = m.objid
                                          UNION ALL
                                          SELECT 'pg_constraint'::regclass, c.oid FROM pg_constraint c
                                           WHERE m.classid = 'pg_class'::regclass AND c.conrelid = m.objid
                                          UNION ALL
                                          SELECT 'pg_attrdef'::regclass, a.oid FROM pg_attrdef a
                                           WHERE m.classid = 'pg_class'::regclass AND a.adrelid = m.objid
                                          UNION ALL
                                          SELECT 'pg_policy'::regclass, p.oid FROM pg_policy p
                                           WHERE m.classid = 'pg_class'::regclass AND p.polrelid = m.objid
                                          UNION ALL
                                          SELECT 'pg_trigger'::regclass, t.oid FROM pg_trigger t
                                           WHERE m.classid = 'pg_class'::regclass AND t.tgrelid = m.objid)
             AND d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass)
             AND (SELECT n FROM (SELECT pronamespace FROM pg_proc WHERE d.refclassid = 'pg_proc'::regclass AND oid = d.refobjid
                                 UNION ALL SELECT oprnamespace FROM pg_operator WHERE d.refclassid = 'pg_operator'::regclass AND oid = d.refobjid
                                 UNION ALL SELECT typnamespace FROM pg_type WHERE d.refclassid = 'pg_type'::regclass AND oid = d.refobjid) AS x(n))
                 NOT IN ('pg_catalog'::regnamespace, 'llm_econ'::regnamespace))
$$;

-- 1. Install, with the default search_path ("$user", public): nothing runs, nothing is bound,
-- and the extension is recorded in pg_catalog, not in the first schema of the path.
DROP EXTENSION llm_econ CASCADE;
CREATE EXTENSION llm_econ;
SELECT * FROM pg_temp.verdict();

-- 2. Use, as an ordinary role with the default search_path, then with the attacker's schemas
-- even before pg_catalog (so an exact-type trap beats the built-in): the functions, the
-- importers, a frozen plan, the views.  The same answers, and no trap runs.
CREATE ROLE regress_trap_user;
GRANT SELECT, INSERT, UPDATE, DELETE ON llm_econ.run_plan, llm_econ.spend TO regress_trap_user;
GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO regress_trap_user;
GRANT INSERT ON llm_econ.price_snapshot TO regress_trap_user;
GRANT USAGE ON SEQUENCE llm_econ.price_snapshot_id_seq TO regress_trap_user;
CREATE TEMP TABLE use_result (path text, item text COLLATE "C", value text);
GRANT ALL ON use_result TO PUBLIC;
CREATE FUNCTION pg_temp.use_battery(path text) RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE format('SET LOCAL search_path = %s', path);
  INSERT INTO pg_temp.use_result
  SELECT path, 'cost', llm_econ.estimate_cost(s, 2.49)::text || ' ' || llm_econ.mfu_time(s)::text
    FROM llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45) AS s;
  INSERT INTO pg_temp.use_result
  SELECT path, 'predicted', llm_econ.predicted_mfu(s)::text
    FROM llm_econ.run_spec(7e9, 1e12, 64, 'H100', n_layers => 32, d_model => 4096, n_heads => 32,
                           seq_len => 4096, global_batch => 512, tp => 2, pp => 1) AS s;
  INSERT INTO pg_temp.use_result
  SELECT path, 'price_at', llm_econ.price_at('H100', 'lambda', 'on_demand', '2024-07-01')::text;
  INSERT INTO pg_temp.use_result
  SELECT path, 'price_twap', llm_econ.price_twap('H100-SXM5', 'gcp', 'on_demand', '[2024-06-01, 2024-07-01)')::text;
  INSERT INTO pg_temp.use_result
  SELECT path, 'cheapest_offers', pg_catalog.count(*)::text || ' ' || pg_catalog.min(o.cost_usd)::text
    FROM llm_econ.cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), '2024-07-01') AS o;
  INSERT INTO pg_temp.use_result
  SELECT path, 'cheapest_plan', pg_catalog.count(*)::text
    FROM llm_econ.cheapest_plan(llm_econ.run_spec(7e9, 2e11, 8, 'H100', n_layers => 32, d_model => 4096,
                                                  n_heads => 32, seq_len => 4096, global_batch => 256),
                                interval '30 days', '2024-07-01') AS p;
  INSERT INTO pg_temp.use_result
  SELECT path, 'import_skypilot_catalog', i::text
    FROM llm_econ.import_skypilot_catalog('lambda',
           E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu_1x_a10,A10,1,0.75,us-east-1\n',
           '2024-07-02') AS i;
  INSERT INTO pg_temp.use_result
  SELECT path, 'import_focus', i::text
    FROM llm_econ.import_focus(
           E'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
           '10.00,9.00,USD,2024-07-01T00:00:00Z,2024-07-01T01:00:00Z,Lambda,"{""run_id"": ""trap-run""}",111122223333,2024-07-01T00:00:00Z,2024-08-01T00:00:00Z,Usage\n',
           source => 'trap ' || path) AS i;
  INSERT INTO pg_temp.use_result
  SELECT path, 'views', (SELECT pg_catalog.count(*) FROM llm_econ.spend_daily)::text || ' '
                        || (SELECT pg_catalog.count(*) FROM llm_econ.plan_vs_actual)::text || ' '
                        || (SELECT pg_catalog.count(*) FROM llm_econ.price_daily)::text || ' '
                        || (SELECT pg_catalog.count(*) FROM llm_econ.spot_discount_daily)::text;
END $$;
GRANT EXECUTE ON FUNCTION pg_temp.use_battery(text) TO regress_trap_user;
SET ROLE regress_trap_user;
BEGIN; SELECT pg_temp.use_battery('"$user", public'); COMMIT;
BEGIN; SELECT pg_temp.use_battery('public, "' || :'installer' || '", pg_catalog'); COMMIT;
RESET ROLE;
-- (from here on, this test's own calls are qualified too: the traps are live)
-- the same answers on both paths, but for the imports, which find the first run's rows stored
SELECT item, pg_catalog.count(DISTINCT value) AS answers, pg_catalog.count(*) AS runs FROM use_result GROUP BY 1 ORDER BY 1;
SELECT CASE WHEN path LIKE '"$user"%' THEN 'default path' ELSE 'traps before pg_catalog' END AS path, item, value
  FROM use_result WHERE item LIKE 'import%' ORDER BY item, 1;
SELECT * FROM pg_temp.verdict();

SELECT pg_catalog.setval('public.regress_trap_hits', 1, false) IS NOT NULL AS counter_reset;
ALTER ROLE regress_trap_attacker NOSUPERUSER;

-- 3. Update, from a database installed before 0.4.0: 0.1.0, recorded (as 0.3.0's control file
-- did) in the first schema of the installer's path, here the attacker's "$user" schema; the
-- traps are in place before each step.
DROP EXTENSION llm_econ CASCADE;
CREATE EXTENSION llm_econ VERSION '0.1.0';
UPDATE pg_extension SET extnamespace = :'installer'::regnamespace WHERE extname = 'llm_econ';
INSERT INTO pg_depend (classid, objid, objsubid, refclassid, refobjid, refobjsubid, deptype)
SELECT 'pg_extension'::regclass, e.oid, 0, 'pg_namespace'::regclass, e.extnamespace, 0, 'n'
  FROM pg_extension e WHERE e.extname = 'llm_econ';
SELECT extversion, extnamespace::regnamespace::name = :'installer' AS in_user_schema FROM pg_extension WHERE extname = 'llm_econ';
ALTER EXTENSION llm_econ UPDATE TO '0.2.0';
SELECT extversion, (v).traps_run, (v).attacker_superuser FROM pg_extension, pg_temp.verdict() AS v WHERE extname = 'llm_econ';
ALTER EXTENSION llm_econ UPDATE TO '0.3.0';
SELECT extversion, (v).traps_run, (v).attacker_superuser FROM pg_extension, pg_temp.verdict() AS v WHERE extname = 'llm_econ';
ALTER EXTENSION llm_econ UPDATE TO '0.4.0';
SELECT extversion FROM pg_extension WHERE extname = 'llm_econ';
SELECT * FROM pg_temp.verdict();
-- and the step built this release (the migration, then every src/sql file again), traps still in place
ALTER EXTENSION llm_econ UPDATE TO '0.5.0';
SELECT extversion FROM pg_extension WHERE extname = 'llm_econ';
SELECT * FROM pg_temp.verdict();
-- the update moved the extension out of the attacker's schema: dropping that schema, as its
-- owner, no longer drops the extension (and every tenant's spend and plans with it)
SELECT pg_catalog.count(*) AS extension_dependencies_on_a_schema FROM pg_depend
 WHERE classid = 'pg_extension'::regclass AND refclassid = 'pg_namespace'::regclass
   AND objid = (SELECT oid FROM pg_extension WHERE extname = 'llm_econ');
SET ROLE regress_trap_attacker;
DROP SCHEMA :"installer" CASCADE;
RESET ROLE;
SELECT extversion FROM pg_extension WHERE extname = 'llm_econ';

-- Clean up: the traps, the roles, a fresh install for the tests that follow.
DROP OWNED BY regress_trap_attacker, regress_trap_user;
DROP ROLE regress_trap_attacker;
DROP ROLE regress_trap_user;
DROP EXTENSION llm_econ CASCADE;
CREATE EXTENSION llm_econ;
