-- Abuse by a role with no grants: no privilege escalation through the extension's SECURITY DEFINER functions, every input bounded (names, CSV headers), imports serialised on a lock only price writers can take, whole names and messages (never half a character).
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
\set VERBOSITY default
\set SHOW_CONTEXT never

CREATE ROLE regress_mallory LOGIN;

-- 1. The escalation of 0.2.0, exactly as a plain role ran it: attach the SECURITY DEFINER trigger
-- function to its own temp table whose sku column has a type with an implicit cast that runs
-- ALTER ROLE.  The function is no longer executable by PUBLIC, so CREATE TRIGGER is refused.
SET ROLE regress_mallory;
CREATE TYPE pg_temp.evil AS (v text);
CREATE FUNCTION pg_temp.e2t(e pg_temp.evil) RETURNS text LANGUAGE plpgsql AS
$$BEGIN EXECUTE 'ALTER ROLE regress_mallory SUPERUSER'; RETURN e.v; END$$;
CREATE CAST (pg_temp.evil AS text) WITH FUNCTION pg_temp.e2t(pg_temp.evil) AS ASSIGNMENT;
CREATE TEMP TABLE t (sku pg_temp.evil, provider text, pricing text, region text, instance_type text);
CREATE TRIGGER x AFTER INSERT ON t REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
CREATE TRIGGER x AFTER DELETE ON t REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE TRIGGER x BEFORE INSERT ON t FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._import_lock();
INSERT INTO t VALUES (ROW('H100-SXM5'), 'pwn', 'on_demand', NULL, NULL);
-- nor can it write the derived series table, call a trigger function, or take the import lock
INSERT INTO llm_econ.price_series VALUES ('H100-SXM5', 'pwn', 'on_demand', NULL, NULL);
SELECT llm_econ._price_series_add();
SELECT * FROM llm_econ.import_lock FOR UPDATE;
BEGIN;
LOCK TABLE llm_econ.import_lock;
ROLLBACK;
SELECT llm_econ._lock_providers(ARRAY['lambda']);
RESET ROLE;
SELECT rolsuper AS mallory_is_superuser FROM pg_roles WHERE rolname = 'regress_mallory';
SELECT count(*) AS pwn_series FROM llm_econ.price_series WHERE provider = 'pwn';

-- Even a role allowed to use the function (here the superuser) cannot make it fire elsewhere:
-- the trigger functions check the table and the kind of trigger they fire as.
CREATE TEMP TABLE t2 (sku text, provider text, pricing text, region text, instance_type text);
CREATE TRIGGER x AFTER INSERT ON t2 REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
CREATE TRIGGER y AFTER DELETE ON t2 REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE TRIGGER z BEFORE INSERT ON t2 FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._import_lock();
INSERT INTO t2 VALUES ('H100-SXM5', 'pwn', 'on_demand', NULL, NULL);
DROP TRIGGER z ON t2;
INSERT INTO t2 VALUES ('H100-SXM5', 'pwn', 'on_demand', NULL, NULL);
DELETE FROM t2;
DROP TABLE t2;

-- 2. Every SECURITY DEFINER function of the extension, with who may execute it.  A new one must
-- be added here on purpose: EXECUTE revoked from PUBLIC, search_path pinned, a trigger checking
-- where it fires.  None is PUBLIC's: _mark_seen (0.4.0), which moves last_seen_at of prices a
-- catalog lists again unchanged (so that importers need INSERT on price_snapshot and not
-- UPDATE), is called by the price recorder alone (_record_prices, a C entry point run as its
-- caller, calls it without an EXECUTE check), and it still refuses (42501) unless the recorder
-- runs for a role that may insert prices.
SELECT p.oid::regprocedure AS security_definer_function, p.prorettype::regtype AS returns,
       p.proconfig AS settings,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute,
       (SELECT string_agg(a.grantee::regrole::text, ', ' ORDER BY a.grantee::regrole::text)
          FROM aclexplode(p.proacl) AS a
         WHERE a.privilege_type = 'EXECUTE' AND a.grantee <> p.proowner) AS granted_to
  FROM pg_proc p
 WHERE p.pronamespace = 'llm_econ'::regnamespace AND p.prosecdef
 ORDER BY p.oid::regprocedure::text COLLATE "C";
-- and every function PUBLIC may not execute is one of those, the summary's internal refresh (SECURITY
-- INVOKER; its maintenance trigger runs it as the owner), a trigger function, or an internal
-- function no user-facing path calls as the caller (security.sql lists those PUBLIC keeps)
SELECT p.oid::regprocedure AS not_executable_by_public, p.prosecdef
  FROM pg_proc p
 WHERE p.pronamespace = 'llm_econ'::regnamespace AND NOT has_function_privilege('public', p.oid, 'EXECUTE')
 ORDER BY p.oid::regprocedure::text COLLATE "C";
-- the import lock table is the owner's alone
SELECT relname, relacl IS NULL AS owner_only FROM pg_class WHERE oid = 'llm_econ.import_lock'::regclass;

-- 3. Bounded names: a name longer than 256 bytes is refused (54000) before any search, under a
-- 1 s statement_timeout (0.2.0 searched a 3 MB name for 31 s, using 3 GB).
SET ROLE regress_mallory;
SET statement_timeout = '1s';
SELECT llm_econ._sku_key(repeat('x', 3000000));
SELECT llm_econ._sku_key(repeat('x', 7000000));
SELECT llm_econ.run_spec(7e9, 1.4e12, 8, repeat('x', 3000000));
SELECT llm_econ.price_at(repeat('x', 257), 'gcp');
SELECT llm_econ.price_at('H100', repeat('p', 257));
SELECT llm_econ.price_at('H100', 'gcp', 'on_demand', '2024-06-01', repeat('r', 300));
SELECT llm_econ.price_twap('H100', repeat('p', 300), 'on_demand', '[2024-06-01, 2024-07-01)');
SELECT llm_econ.tco_per_gpu_hour(repeat('x', 300), 4, 0.7, 0.10, 1.2);
SELECT llm_econ.estimate_cost(llm_econ.run_spec(7e9, 1.4e12, 8, 'H100'), repeat('p', 300));
SELECT llm_econ.cheapest_offers(llm_econ.run_spec(7e9, 1.4e12, 8, 'H100'), '2024-06-01', repeat('s', 100000));
-- a hand-built spec with a huge sku is refused by every function that reads the sku
SELECT llm_econ._check_spec(ROW(1e9, 1e10, repeat('x', 1000), 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                                NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec);
SELECT llm_econ.estimate_cost(ROW(1e9, 1e10, repeat('x', 1000), 8, 8, 0.4, 'bf16', 989e12, 80e9, 450e9, 50e9, 700,
                                  NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec, 'gcp');
-- names up to the limit still work, and an unknown one still gets close matches
SELECT llm_econ._sku_key('h100 sxm5x');
SELECT llm_econ._sku_key(repeat('h', 256));
RESET statement_timeout;
RESET ROLE;

-- A 150-character SKU (under the limit) prices like any other: 0.2.0 cut keys at 127 bytes and
-- returned NULL.  Its text reaches cost_breakdown whole.
INSERT INTO llm_econ.gpu_sku (sku, vendor, name, hbm_gb, pcie_gb_per_s, bf16_tflops, gpus_per_node, tdp_watts, source)
VALUES (repeat('L', 150), 'Acme', 'long-named part', 80, 64, 500, 8, 700, 'abuse test fixture');
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-01-01', 'acme', repeat('L', 150), 'on_demand', 1.25, 'abuse test fixture');
SELECT llm_econ.price_at(repeat('L', 150), 'acme', 'on_demand', '2024-06-01') AS long_sku_price;
SELECT length(llm_econ._sku_key(lower(repeat('L', 150)))) AS key_length;
-- cost_breakdown quotes the SKU whole; a non-ASCII SKU is never cut inside a character
INSERT INTO llm_econ.gpu_sku_alias (alias, sku) VALUES (repeat('é', 100), repeat('L', 150));
SELECT c.component, length(c.assumption) AS chars, c.assumption LIKE '%' || repeat('L', 150) || '%' AS sku_whole
  FROM llm_econ.cost_breakdown(llm_econ.run_spec(7e9, 1.4e12, 8, repeat('é', 100)), 2.49) AS c
 WHERE c.component = 'compute';
-- a table made from the result dumps and restores: every text is valid UTF-8
SELECT bool_and(convert_from(convert_to(c.assumption, 'UTF8'), 'UTF8') = c.assumption) AS valid_utf8
  FROM llm_econ.cost_breakdown(llm_econ.run_spec(7e9, 1.4e12, 8, repeat('é', 100)), 2.49) AS c;
-- error messages quote long values cut on a character boundary, never inside one
SELECT llm_econ._check_spec(ROW(1e9, 1e10, 'H100-SXM5', 8, 8, 0.4, repeat('é', 200), 989e12, 80e9, 450e9, 50e9, 700,
                                NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::llm_econ.run_spec);
DELETE FROM llm_econ.price_snapshot WHERE provider = 'acme';
DELETE FROM llm_econ.gpu_sku WHERE sku = repeat('L', 150);

-- 4. CSV headers: a column count, name length and total record size a real file never reaches
-- are refused at once; duplicates are found by sorting (0.2.0 compared every pair: a 200,000
-- column header ran 45 s and ignored cancel).  The line is in each error's CONTEXT.
-- _csv_header, _csv_records and _focus_charge_key are not PUBLIC's (security.sql): mallory is
-- granted them here to reach the parser directly (revoked again after part 6).
GRANT EXECUTE ON FUNCTION llm_econ._csv_header(text, text), llm_econ._csv_records(text, text),
                          llm_econ._focus_charge_key(jsonb) TO regress_mallory;
\set SHOW_CONTEXT errors
SET ROLE regress_mallory;
SET statement_timeout = '1s';
SELECT llm_econ._csv_header((SELECT string_agg('c' || g, ',') FROM generate_series(1, 200000) AS g) || E'\n', 'focus_csv');
SELECT cardinality(llm_econ._csv_header((SELECT string_agg('c' || g, ',') FROM generate_series(1, 1600) AS g) || E'\n', 'focus_csv')) AS columns;
SELECT llm_econ._csv_header((SELECT string_agg('c' || g, ',') FROM generate_series(1, 1599) AS g) || E',C77\n', 'focus_csv');
SELECT llm_econ._csv_header(repeat('n', 1000000) || E',a\n', 'focus_csv');
SELECT llm_econ._csv_header(repeat('é', 129) || E',a\n', 'focus_csv');
SELECT count(*) FROM llm_econ._csv_records(repeat('n', 1000000) || E',a\n' || repeat(E'1,2\n', 2000), 'focus_csv');
-- names within the limits, but rows repeating 400 kB of names: refused once they pass 8x the text + 64 MB
RESET statement_timeout;
SELECT count(*) FROM llm_econ._csv_records(
         (SELECT string_agg(lpad(g::text, 250, 'n'), ',') FROM generate_series(1, 1600) AS g) || E'\n' ||
         repeat(repeat(',', 1599) || E'\n', 400), 'focus_csv');
SET statement_timeout = '1s';
SELECT * FROM llm_econ._skypilot_offers('lambda', repeat('n', 300) || E',InstanceType\n');
SELECT * FROM llm_econ._skypilot_offers('lambda', (SELECT string_agg('c' || g, ',') FROM generate_series(1, 2000) AS g) || E'\n');
-- Bounds inside one record (issue 35): the reader stops at the first field past the header's
-- width (22P04) or past 1,600 (54000), and at the first byte past 8 MB (54000), instead of
-- reading the record whole first (100,000,000 commas took 5 s and 1.5 GB; test/t/007_bounds.pl
-- measures it).  A record of exactly 8,388,608 bytes passes.
SELECT count(*) FROM llm_econ._csv_records(E'a,b\n1,2\n' || repeat(',', 5000000) || E'\n', 'focus_csv');
SELECT count(*) FROM llm_econ._csv_records(repeat(',', 5000000), 'focus_csv');
SELECT count(*) FROM llm_econ._csv_records(E'a,b\n1,2\n"' || repeat('x', 8388605) || E'",1\n', 'focus_csv');
SELECT count(*) FROM llm_econ._csv_records(E'a,b\n1,2\n"' || repeat('x', 8388604) || E'",1\n', 'focus_csv');
SELECT count(*) FROM llm_econ._csv_records(E'a,b\n' || repeat('y', 9000000) || E',1\n', 'focus_csv');
SELECT * FROM llm_econ._skypilot_offers('lambda', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n'
                                                  || 'x,H100,8,2.5,r' || repeat(',', 5000000));
SELECT * FROM llm_econ._skypilot_offers('lambda', E'InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n'
                                                  || 'x,H100,8,2.5,"' || repeat('r', 9000000) || '"');
RESET statement_timeout;
RESET ROLE;
\set SHOW_CONTEXT never

-- 5. The SKU rule over many names at once (the importers' _sku_map): the SKU and machine type of
-- each match were copied into SPI's memory, which SPI_finish frees, and read afterwards:
-- with a million names the backend crashed (signal 11).  Copied out of it now.
SET ROLE regress_mallory;
SELECT count(*) AS names, count(DISTINCT sku) AS skus, min(sku) AS sku, min(gpus_per_instance) AS gpus,
       count(*) FILTER (WHERE name <> 'p5.48xlarge') AS others
  FROM llm_econ._sku_map(array_fill('p5.48xlarge'::text, ARRAY[1000000]) || array_fill('no such gpu'::text, ARRAY[1000000]));
SELECT llm_econ._sku_find('h100') AS sku_find, llm_econ._known_gpus('p5.48xlarge') AS known_gpus;

-- 6. What a message quotes is bounded: _check_where quoted a provider or region of any length (a
-- 50 MB name wrote 50 MB to the server log), and the label of a CSV text was in every CONTEXT
-- line whole.  A name longer than any series has is refused (54000) and a label is cut at 256
-- bytes.  A number of 131,073 digits in a FOCUS cost column failed with 22003 and no line or
-- column; it names them now.
SELECT llm_econ._check_where(repeat('x', 300), NULL);
SELECT llm_econ._check_where('gcp', repeat('r', 300));
SELECT llm_econ._csv_header('', repeat('y', 300));
\set VERBOSITY default
\set SHOW_CONTEXT always
SELECT count(*) FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
                                           || repeat('9', 131073) || E',1,2025-03-01,2025-03-02,AWS,111,USD,2025-03-01T00:00:00Z,2025-04-01T00:00:00Z,Usage', 'f');
\set SHOW_CONTEXT never
-- a stored line's record is a JSON object: anything else was keyed as an empty charge
SELECT llm_econ._focus_charge_key('[]');
SELECT llm_econ._focus_charge_key('1');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION llm_econ._csv_header(text, text), llm_econ._csv_records(text, text),
                           llm_econ._focus_charge_key(jsonb) FROM regress_mallory;

-- 7. The import lock takes only names price_snapshot can store: llm_econ.import_providers is any
-- role's to set, and import_lock's rows outlive the transaction (a price writer filled the
-- owner-only table with 20,000 names of its choosing).
BEGIN;
SET LOCAL llm_econ.import_providers = 'lambda,JUNK with spaces,../../etc';
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, source) SELECT NULL, NULL, NULL, NULL, NULL WHERE false;
SELECT provider FROM llm_econ.import_lock WHERE provider IN ('lambda', 'JUNK with spaces', '../../etc') ORDER BY 1;
ROLLBACK;

-- 8. Numbers in FOCUS JSON are printed only when short (issue 43): 1e131071 is 8 bytes of CSV and
-- 131,072 characters printed; 3,000 of them in one Tags value took 0.8 GB and ran 9 s past a 1 s
-- statement_timeout (TAP 007 measures that).  A Tags number printing in at most 64 characters
-- keeps the identity 0.4.0 gave it: these hashes are what 0.4.0 computed for the same lines
-- (numbers of exactly 64 characters, nested values, an offset, a time that is no time, Tags that
-- are not JSON, \u0000).  The first, a whole file, needs the mandatory columns since 0.5.0 (account
-- 111, USD, January, Usage): its hash pins the 0.5.0 value of that file, not a 0.4.0 one.
\set VERBOSITY terse
SELECT row_hash FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-01-01,2025-01-02,AWS,"{""a"":1.50,""b"":[1,2e3,{""c"":0.1}],""n"":123456789012345678901234567890.123456789012345678901234567,""neg"":-0.0000000000000000000000000000000000000000000000000000000000001,""pos"":1234567890123456789012345678901234567890123456789012345678901234}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');
SELECT llm_econ._focus_charge_key('{"Tags":"{\"a\":1.50,\"b\":[1,2e3,{\"c\":0.1}]}","BilledCost":"1","ChargePeriodStart":"2025-01-01T00:00:00+02:00","ChargePeriodEnd":"2025-01-02 03:04:05.123456","BillingPeriodStart":"bogus","BillingPeriodEnd":"2025-02-30"}');
SELECT llm_econ._focus_charge_key('{"Tags":"{bad json","BilledCost":"1","ChargePeriodStart":"2025-13-01"}');
SELECT llm_econ._focus_charge_key('{"Tags":"[1,2]","BilledCost":"1","ChargePeriodStart":"2025-01-01 24:00:00"}');
SELECT llm_econ._focus_charge_key('{"Tags":"{\"a\":\"\\u0000\"}","BilledCost":"1","ChargePeriodStart":"2025-01-01T10:00:00-05:30"}');
-- Tags that are not JSON are hashed as their text without catching any error (soft errors on
-- PostgreSQL 16+, the JSON parser's return code on 15); a number beyond numeric's range is 22003
-- on every version (the load refuses such Tags too)
\set VERBOSITY sqlstate
SELECT llm_econ._focus_charge_key('{"Tags":"{\"a\":1e200000}","BilledCost":"1"}');
\set VERBOSITY terse
-- a longer number is hashed in its binary form: one value one identity (1e131071 = 10e131070),
-- two values two, at the top level and nested
SELECT count(*) AS lines, count(DISTINCT row_hash) AS identities
  FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n'
    || E'1,1,2025-01-01,2025-01-02,AWS,"{""a"":1e131071}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n1,1,2025-01-01,2025-01-02,AWS,"{""a"":10e131070}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n1,1,2025-01-01,2025-01-02,AWS,"{""a"":2e131071}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n'
    || E'1,1,2025-01-01,2025-01-02,AWS,"{""a"":[1e131071]}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n1,1,2025-01-01,2025-01-02,AWS,"{""a"":[10e131070]}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n1,1,2025-01-01,2025-01-02,AWS,"{""a"":[2e131071]}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');
-- where a number's text is used it is refused past 64 characters (54000): a run tag, a key of
-- SkuPriceDetails read to find the machine.  An amount column's exponent has at most 3 digits, so
-- it prints at most about 1,000 characters more than it is written (99e999: 1,001; 1e1000: 22P04)
\set VERBOSITY sqlstate
SELECT run_id FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-01-01,2025-01-02,AWS,"{""run_id"":1e62}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');
SELECT run_id FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,Tags,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-01-01,2025-01-02,AWS,"{""run_id"":1e64}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');
SELECT count(*) FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,SkuPriceDetails,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1,1,2025-01-01,2025-01-02,AWS,"{""InstanceType"":[1e64]}",111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');
SELECT length(billed_cost::text) FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n99e999,1,2025-01-01,2025-01-02,AWS,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');
SELECT length(billed_cost::text) FROM llm_econ._focus_lines(E'BilledCost,EffectiveCost,ChargePeriodStart,ChargePeriodEnd,ProviderName,BillingAccountId,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory\n1e1000,1,2025-01-01,2025-01-02,AWS,111,USD,2025-01-01T00:00:00Z,2025-02-01T00:00:00Z,Usage\n', 'x');

-- 9. FOCUS loads lock their statements' rows of focus_statement_lock (issue 43; before: an advisory
-- key anyone could compute and hold): a role with no grants can neither see nor write a row there.
\set VERBOSITY terse
SET ROLE regress_mallory;
INSERT INTO llm_econ.focus_statement_lock VALUES ('regress_mallory', 'aws', '111', '2025-01-01');
INSERT INTO llm_econ.focus_statement_lock VALUES ('some_tenant', 'aws', '111', '2025-01-01');
SELECT tenant FROM llm_econ.focus_statement_lock FOR UPDATE;
RESET ROLE;
\set VERBOSITY default

DROP CAST (pg_temp.evil AS text);
DROP OWNED BY regress_mallory;
DROP ROLE regress_mallory;
