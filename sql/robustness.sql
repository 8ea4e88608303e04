-- Robustness: every SQL-callable llm_econ function (from pg_proc) and every run_spec field fed NULL, 0, negatives, NaN, infinities, huge and wrong-enum values; outcomes must be ok or an expected SQLSTATE.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
SET client_min_messages = warning;      -- the importers' NOTICEs about skipped rows
SET statement_timeout = '300s';         -- a hang fails the test instead of blocking the suite
-- One transaction, rolled back at the end: the test leaves nothing behind.  The staging table
-- is emptied inside it, so load_price_history's cases do not depend on what other tests left.
BEGIN;
DELETE FROM price_history_staging;

-- How it works.  Targets are every function of schema llm_econ that SQL can call (from pg_proc:
-- trigger functions are reached through an INSERT or UPDATE of the tables that fire them, added
-- as four more targets: run_plan is inserted into both as a new plan and as one that arrives
-- frozen, with its price, GPU-hours and USD, as pg_restore writes it).  For each target: one baseline case with good values only (it must be ok), then
-- one case per argument and bad value of its type, the other arguments good; and for every
-- run_spec argument one case per run_spec field and bad value of that field's type, the spec
-- written as ROW(...)::llm_econ.run_spec (bypassing the constructor).  Each case is one EXECUTE in
-- its own exception block; a case that succeeds is rolled back too (by raising a private SQLSTATE),
-- so cases cannot influence each other and the order does not matter.

-- (not echoed: the good values are part of the test, not of its output)
\set ECHO none
\i sql/include/good_calls.sql
\set ECHO all

-- Bad values by type: for numbers NULL, 0, negative, NaN, +-Infinity and 1e308 (integers: their
-- extremes, as NaN and infinities cannot be int4); for text NULL, empty, a wrong enum or unknown
-- name, quotes and a newline, 10,000 characters; the extremes of the other types.
CREATE TEMP TABLE rb_bad (typ regtype, label text, expr text, PRIMARY KEY (typ, label));
INSERT INTO rb_bad VALUES
  ('float8', 'NULL', 'NULL::float8'), ('float8', '0', '0::float8'), ('float8', 'negative', '-1::float8'),
  ('float8', 'NaN', '''NaN''::float8'), ('float8', 'Infinity', '''Infinity''::float8'),
  ('float8', '-Infinity', '''-Infinity''::float8'), ('float8', '1e308', '1e308::float8'),
  ('numeric', 'NULL', 'NULL::numeric'), ('numeric', '0', '0::numeric'), ('numeric', 'negative', '-1::numeric'),
  ('numeric', 'NaN', '''NaN''::numeric'), ('numeric', 'Infinity', '''Infinity''::numeric'),
  ('numeric', '-Infinity', '''-Infinity''::numeric'), ('numeric', '1e308', '1e308::numeric'),
  ('int4', 'NULL', 'NULL::int4'), ('int4', '0', '0::int4'), ('int4', 'negative', '-1::int4'),
  ('int4', 'max', '2147483647::int4'), ('int4', 'min', '(-2147483648)::int4'),
  ('int8', 'NULL', 'NULL::int8'), ('int8', 'negative', '-1::int8'), ('int8', 'max', '9223372036854775807::int8'),
  ('text', 'NULL', 'NULL::text'), ('text', 'empty', '''''::text'), ('text', 'wrong enum', '''bogus''::text'),
  ('text', 'quotes', 'E''x''''\"\n;''::text'), ('text', 'long', 'repeat(''x'', 10000)'),
  ('boolean', 'NULL', 'NULL::boolean'),
  ('timestamptz', 'NULL', 'NULL::timestamptz'), ('timestamptz', 'infinity', '''infinity''::timestamptz'),
  ('timestamptz', '-infinity', '''-infinity''::timestamptz'),
  ('timestamptz', 'min', '''4714-11-24 00:00:00+00 BC''::timestamptz'),
  ('timestamptz', 'max', '''294276-12-31 23:59:59+00''::timestamptz'),
  ('interval', 'NULL', 'NULL::interval'), ('interval', '0', '''0''::interval'), ('interval', 'negative', '''-1 hour''::interval'),
  ('interval', 'huge', '''178000000 years''::interval'), ('interval', '-huge', '''-178000000 years''::interval'),
  ('interval', 'max days', '''2147483647 days 2562047788 hours''::interval'),
  ('tstzrange', 'NULL', 'NULL::tstzrange'), ('tstzrange', 'empty', '''empty''::tstzrange'),
  ('tstzrange', 'unbounded', '''(,)''::tstzrange'), ('tstzrange', 'infinite', '''[-infinity, infinity)''::tstzrange'),
  ('tstzrange', 'instant', '''[2024-01-01 00:00+00, 2024-01-01 00:00+00]''::tstzrange'),
  ('jsonb', 'NULL', 'NULL::jsonb'), ('jsonb', 'empty object', '''{}''::jsonb'), ('jsonb', 'array', '''[]''::jsonb'),
  ('jsonb', 'json null', '''null''::jsonb'),
  ('jsonb', 'bad fields', '''{"BilledCost": "NaN", "ChargePeriodStart": "bogus", "SkuPriceDetails": "[1]", "Tags": "x"}''::jsonb'),
  ('text[]', 'NULL', 'NULL::text[]'), ('text[]', 'empty', '''{}''::text[]'), ('text[]', 'NULL element', '''{NULL}''::text[]'),
  ('text[]', 'empty element', '''{""}''::text[]'), ('text[]', 'wrong enum', '''{bogus}''::text[]'),
  ('text[]', 'two elements', '''{a,b}''::text[]'),
  ('numeric[]', 'NULL', 'NULL::numeric[]'), ('numeric[]', 'empty', '''{}''::numeric[]'),
  ('numeric[]', 'NULL element', '''{NULL}''::numeric[]'), ('numeric[]', 'NaN', '''{NaN}''::numeric[]'),
  ('numeric[]', 'negative', '''{-1}''::numeric[]'), ('numeric[]', 'Infinity', '''{Infinity}''::numeric[]'),
  ('timestamptz[]', 'NULL', 'NULL::timestamptz[]'), ('timestamptz[]', 'empty', '''{}''::timestamptz[]'),
  ('timestamptz[]', 'NULL element', '''{NULL}''::timestamptz[]'), ('timestamptz[]', 'infinity', '''{infinity}''::timestamptz[]'),
  ('int8[]', 'NULL', 'NULL::int8[]'), ('int8[]', 'empty', '''{}''::int8[]'), ('int8[]', 'NULL element', '''{NULL}''::int8[]'),
  ('int4[]', 'NULL', 'NULL::int4[]'), ('int4[]', 'empty', '''{}''::int4[]'), ('int4[]', 'NULL element', '''{NULL}''::int4[]'),
  ('int4[]', '0', '''{0}''::int4[]'), ('int4[]', 'negative', '''{-1}''::int4[]'),
  ('llm_econ.run_spec', 'NULL', 'NULL::llm_econ.run_spec');

-- every field is set in the good spec, and every field type has bad values
SELECT count(*) AS run_spec_fields,
       count(*) FILTER (WHERE good LIKE 'NULL::%') AS unset_in_good_spec,
       count(*) FILTER (WHERE typ NOT IN (SELECT typ FROM rb_bad)) AS without_bad_values,
       (SELECT count(*) FROM pg_attribute WHERE attrelid = 'llm_econ.run_spec'::regclass AND attnum > 0 AND NOT attisdropped)
         - count(*) AS missing
  FROM rb_spec_field;


-- The cases.
CREATE TEMP TABLE rb_case (id serial PRIMARY KEY, target text COLLATE "C", arg text COLLATE "C", field text COLLATE "C",
                           label text COLLATE "C", sql text, outcome text COLLATE "C", message text COLLATE "C");
INSERT INTO rb_case (target, arg, field, label, sql)
  SELECT t.target, NULL, NULL, 'baseline', pg_temp.rb_sql(t.target, NULL, NULL) FROM rb_target t
  UNION ALL      -- every argument of every target, each bad value of its type
  SELECT a.target, a.arg, NULL, b.label, pg_temp.rb_sql(a.target, a.pos, b.expr)
    FROM rb_arg a JOIN rb_bad b ON b.typ = a.typ
  UNION ALL      -- every run_spec argument: every field, each bad value of the field's type
  SELECT a.target, a.arg, f.field, b.label, pg_temp.rb_sql(a.target, a.pos, pg_temp.rb_spec(f.field, b.expr))
    FROM rb_arg a CROSS JOIN rb_spec_field f JOIN rb_bad b ON b.typ = f.typ
   WHERE a.typ = 'llm_econ.run_spec'::regtype;

DO $$
DECLARE
  c record;
  res text;
  v_outcome text;
  v_msg text;
BEGIN
  FOR c IN SELECT id, sql FROM rb_case ORDER BY id LOOP
    v_outcome := NULL;
    v_msg := NULL;
    BEGIN
      EXECUTE c.sql INTO res;
      v_outcome := CASE WHEN res LIKE 'stored spec rejected by %' THEN 'ok, stored spec rejected'
                        WHEN res LIKE 'stored plan inconsistent%' THEN 'ok, stored plan inconsistent'
                        WHEN res ~* '(^|[^a-z])(nan|-?infinity)([^a-z]|$)' THEN 'ok, non-finite result'
                        ELSE 'ok' END;
      v_msg := left(res, 200);
      RAISE SQLSTATE 'LERB0';           -- undo whatever the case wrote
    EXCEPTION
      WHEN SQLSTATE 'LERB0' THEN NULL;
      WHEN OTHERS THEN
        v_outcome := SQLSTATE;
        v_msg := SQLERRM;
    END;
    UPDATE rb_case SET outcome = v_outcome, message = v_msg WHERE id = c.id;
  END LOOP;
END $$;

-- A non-finite result is unexpected, except from two internal helpers that only echo their
-- input to callers that validate it (each with the reason).
CREATE TEMP TABLE rb_tolerated (target text COLLATE "C", outcome text COLLATE "C", reason text, PRIMARY KEY (target, outcome));
INSERT INTO rb_tolerated VALUES
  ('_usd/1', 'ok, non-finite result', 'rounds a price; callers pass parsed prices, and price_snapshot''s CHECK rejects non-finite ones'),
  ('_price_changes/10', 'ok, non-finite result', 'annotates candidates without storing them; _record_prices stores through price_snapshot''s CHECK (23514 above)'),
  ('_shift/2', 'ok, non-finite result', 'an age bound past the timestamp range is -infinity or infinity by design (no bound), where + raises 22008'),
  ('_mark_seen/3', '42501', 'moves last_seen_at only when the price recorder (_record_prices) calls it: any other call is refused by design'),
  ('_reraise/5', '22023', 'raises by design: it re-raises an error a user-facing function caught, with the SQLSTATE given');

CREATE TEMP VIEW rb_verdict AS
  -- 22008 is the server's "timestamp out of range" for date arithmetic past the timestamp range;
  -- 22P04 is a malformed file given to a function that reads one (a CSV argument; the FOCUS
  -- helpers turn malformed date-time or JSON text, 22007/22008/22P02, into 22P04 naming the line
  -- and the column); 54000 refuses a name over 256 bytes (the 10,000-character text)
  SELECT c.*, CASE WHEN c.outcome IN ('ok', '22023', '22003', '22008', '54000') OR c.outcome LIKE '23___' THEN 'expected'
                   WHEN c.outcome = '22P04' AND c.arg IN ('csv', 'catalog_csv', 'focus_csv') THEN 'expected'
                   WHEN EXISTS (SELECT 1 FROM rb_tolerated t WHERE t.target = c.target AND t.outcome = c.outcome) THEN 'tolerated'
                   ELSE 'unexpected' END AS verdict
    FROM rb_case c;

-- Coverage: every function of the schema is a target, or a trigger function fired by a target's
-- statement (pg_trigger.tgtype bits: 4 INSERT, 16 UPDATE).
CREATE TEMP VIEW rb_coverage AS
  SELECT p.oid::regprocedure AS fn, p.prorettype = 'trigger'::regtype AS is_trigger,
         EXISTS (SELECT 1 FROM rb_target t WHERE t.fn = p.oid) AS called,
         (SELECT string_agg(DISTINCT t.target, ', ' ORDER BY t.target) FROM pg_trigger g JOIN rb_target t ON t.rel = g.tgrelid
           WHERE g.tgfoid = p.oid
             AND (g.tgtype & CASE t.dml WHEN 'INSERT' THEN 4 WHEN 'UPDATE' THEN 16 ELSE 0 END) <> 0) AS fired_by
    FROM pg_proc p WHERE p.pronamespace = 'llm_econ'::regnamespace;
-- Functions neither called by a case nor fired by a target's statement, each with the reason
-- (must list no "no reason").
SELECT c.fn, coalesce(r.reason, 'no reason') AS why_not_covered
  FROM rb_coverage c
  LEFT JOIN (VALUES ('_fx_rate_upper()', 'upper-cases fx_rate.currency; fx_rate has no statement target here (sql/finance.sql and fx_utc.sql insert rates)'),
                    ('_price_daily_truncate()', 'fires on TRUNCATE price_snapshot, which a case would have to empty the shipped prices for (sql/dashboards.sql)')) AS r(fn, reason)
         ON r.fn = c.fn::text
 WHERE NOT c.called AND c.fired_by IS NULL ORDER BY c.fn::text COLLATE "C";
-- arguments with no good value (must be empty: a new function or argument needs a row in rb_good)
SELECT target, arg, typ FROM rb_arg WHERE good IS NULL ORDER BY 1, 2;
-- argument types with no bad values (must be empty)
SELECT DISTINCT typ FROM rb_arg WHERE typ NOT IN (SELECT typ FROM rb_bad) ORDER BY 1;
-- baselines (good values only) that are not ok (must be empty)
SELECT target, outcome, message FROM rb_case c WHERE label = 'baseline' AND outcome <> 'ok'
   AND NOT EXISTS (SELECT 1 FROM rb_tolerated t WHERE t.target = c.target AND t.outcome = c.outcome) ORDER BY 1;

-- The cases: every target has its baseline and bad cases (true, true), and the outcomes that
-- occur, by SQLSTATE and verdict (a new outcome here is a new way of failing: read it).
SELECT count(DISTINCT c.target) = (SELECT count(*) FROM rb_target) AS every_target_has_cases,
       NOT EXISTS (SELECT 1 FROM rb_target t WHERE cardinality(t.args) > 0
                      AND (SELECT count(*) FROM rb_case x WHERE x.target = t.target) < 2) AS every_target_with_arguments_has_bad_cases
  FROM rb_case c;
SELECT DISTINCT outcome, verdict FROM rb_verdict ORDER BY 1, 2;

-- Tolerated non-finite results of internal helpers, with the reason
SELECT v.target, v.outcome, count(*) AS cases, string_agg(DISTINCT v.label, ', ') AS bad_values, t.reason
  FROM rb_verdict v JOIN rb_tolerated t USING (target, outcome)
 GROUP BY v.target, v.outcome, t.reason ORDER BY 1, 2;

-- Unexpected outcomes: any other SQLSTATE, a non-finite result, or a plan stored unsound (its
-- spec rejected by the spec functions, or GPU-hours and USD not those of its spec and price):
-- per target and outcome, the arguments (and run_spec fields) whose bad values led there (must
-- be empty)
SELECT target, outcome, count(*) AS cases,
       string_agg(DISTINCT arg || coalesce('.' || field, ''), ', ') AS arguments, left(min(message), 100) AS example
  FROM rb_verdict WHERE verdict = 'unexpected' OR outcome LIKE 'ok,%' AND verdict <> 'tolerated'
 GROUP BY 1, 2 ORDER BY 1, 2;

-- The session survived every case.
SELECT 'alive' AS session, count(*) FILTER (WHERE outcome IS NULL) AS cases_not_run FROM rb_case;
ROLLBACK;
