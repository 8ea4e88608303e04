-- llm_econ 0.3.0 -> 0.4.0 update script, part 30: the FOCUS load through PostgreSQL's own INSERT
-- (issue 33).  load_focus types its staged lines one batch per statement (_focus_staged_lines) and
-- stores each batch by the one INSERT of _focus_store; the private insert path, the typing worker,
-- its setting and the load state kept between statements are gone.
DROP FUNCTION llm_econ._focus_staged_rows(text, int4);
DROP FUNCTION llm_econ._focus_staged_insert(text, text, text, text);
DROP FUNCTION llm_econ._focus_staged_done();
DROP FUNCTION llm_econ._focus_worker_lines();
DROP FUNCTION llm_econ._focus_staged_periods(text);
DROP FUNCTION llm_econ._focus_store(text, text, text);

-- the typed line carries the staged id and file line of its record's last line (a batch ends there)
ALTER TYPE llm_econ._focus_line ADD ATTRIBUTE staged_id int8, ADD ATTRIBUTE last_line int4;
COMMENT ON TYPE llm_econ._focus_line IS
  'internal: a FOCUS line typed for llm_econ.spend, as _focus_lines and _focus_staged_lines return it';
COMMENT ON COLUMN llm_econ._focus_line.occurrence IS 'the k-th line of the call (a text, or one batch of staged lines) with this charge identity; _focus_store adds the copies of earlier batches';
COMMENT ON COLUMN llm_econ._focus_line.staged_id IS 'the focus_staging id of the record''s last line (NULL from _focus_lines)';
COMMENT ON COLUMN llm_econ._focus_line.last_line IS 'the file line of the record''s last line (NULL from _focus_lines)';
COMMENT ON FUNCTION llm_econ._focus_lines(text, text) IS
  'internal: the data lines of a FOCUS CSV text typed for llm_econ.spend; 22023 naming the line and column of the first bad line';

CREATE FUNCTION llm_econ._focus_staged_lines(what text, after_id int8, last_id int8, first_line int4)
RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_staged_lines_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_lines(text, int8, int8, int4) IS
  'internal: one batch of the current role''s staged FOCUS records, after_id to the one holding last_id (file line first_line on), typed as _focus_lines types a text';

-- Stores the typed lines of the temporary table llm_econ_focus_lines for tenant who, and empties
-- it: the one statement that inserts FOCUS lines into spend (PostgreSQL's own INSERT: every
-- constraint, partition bound, policy and trigger of spend applies).  Each statement the lines
-- cover, a (tenant, provider, billing account, billing period), is first locked (a transaction
-- advisory lock, taken in one order, so that two loads of one statement serialise) and, in mode
-- replace, emptied once per load: the load's lines are then its whole statement (a refresh or a
-- re-rated re-delivery leaves exactly the new file's lines).  The keys a load has seen are kept in
-- llm_econ_focus_keys, so that its later batches add to the statement they emptied.  The k-th
-- copy of a charge in the file is its occurrence k: the lines' own occurrence (within their batch)
-- plus, when a load comes in batches (counting), the copies its earlier batches had, kept in
-- llm_econ_focus_seen.  A stored charge is skipped (mode append: more parts of one delivery;
-- mode replace: only when counting).  Mode replace emptied every statement of its lines under the
-- load's lock, so it stores them by a plain INSERT: a stored copy of one (one of an earlier batch,
-- or a line another writer stored without the lock) is a unique violation, on which the caller
-- starts again counting, and the INSERT then skips stored charges as mode append does.  (Checking
-- each line for a conflict first took a tenth of the load.)
CREATE FUNCTION llm_econ._focus_store(who text, source text, delivery text, counting boolean DEFAULT false,
    mode text DEFAULT 'replace', OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key record;
  n bigint;
  b numeric;
  e numeric;
BEGIN
  PERFORM llm_econ._focus_temp();
  replaced := 0;
  INSERT INTO llm_econ_focus_keys AS k (provider, billing_account_id, billing_period_start, lock_key, fresh)
  SELECT d.provider, d.billing_account_id, d.billing_period_start,
         pg_catalog.hashtextextended(pg_catalog.concat_ws(E'\x1f', who, d.provider, d.billing_account_id,
                                     pg_catalog.date_part('epoch', d.billing_period_start)), 32), true
    FROM (SELECT DISTINCT f.provider, f.billing_account_id, f.billing_period_start FROM llm_econ_focus_lines f) AS d
  ON CONFLICT (provider, billing_account_id, billing_period_start) DO NOTHING;
  -- one order for every load: two loads of the same statements wait for each other, not deadlock
  PERFORM pg_catalog.pg_advisory_xact_lock(k.lock_key)
     FROM (SELECT k.lock_key FROM llm_econ_focus_keys k WHERE k.fresh ORDER BY k.lock_key OFFSET 0) AS k;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  IF _focus_store.mode = 'replace' THEN
    -- One DELETE per statement new to this load (none in most batches), each a new statement (a
    -- snapshot that sees what a load that held the lock committed), planned with its values: the
    -- billing period's index finds the rows.  (One DELETE joining the keys was planned from the
    -- statistics and could scan all of spend in every batch: a load quadratic in its file.)
    FOR key IN SELECT k.provider, k.billing_account_id, k.billing_period_start
                 FROM llm_econ_focus_keys k WHERE k.fresh ORDER BY k.lock_key LOOP
      EXECUTE $q$
        WITH gone AS (
               DELETE FROM llm_econ.spend s
                WHERE s.tenant OPERATOR(pg_catalog.=) $1 AND s.provider OPERATOR(pg_catalog.=) $2
                  AND s.billing_account_id IS NOT DISTINCT FROM $3
                  AND (s.billing_period_start OPERATOR(pg_catalog.=) $4 OR ($4 IS NULL AND s.billing_period_start IS NULL))
               RETURNING s.billed_cost, s.effective_cost, s.billing_currency, s.charge_period_start),
             -- converted outside RETURNING: Citus allows only IMMUTABLE functions there
             usd AS (SELECT g.billed_cost OPERATOR(pg_catalog.*) r.rate AS b, g.effective_cost OPERATOR(pg_catalog.*) r.rate AS e
                       FROM gone g
                      CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(g.billing_currency, g.charge_period_start) AS rate) AS r)
        SELECT pg_catalog.count(*),
               CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.count(u.b) THEN coalesce(pg_catalog.sum(u.b), 0) END,
               CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.count(u.e) THEN coalesce(pg_catalog.sum(u.e), 0) END
          FROM usd u $q$
        INTO n, b, e USING who, key.provider, key.billing_account_id, key.billing_period_start;
      replaced := replaced + n;
      replaced_billed_usd := replaced_billed_usd + b;          -- NULL once any replaced line has no rate
      replaced_effective_usd := replaced_effective_usd + e;
    END LOOP;
  END IF;
  UPDATE llm_econ_focus_keys k SET fresh = false WHERE k.fresh;
  EXECUTE pg_catalog.format($q$
    INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
           billing_period_end, provider, service_name, service_category, charge_category, charge_description,
           pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
           consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
           resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
    SELECT $1, f.charge_period_start, f.charge_period_end, f.billing_period_start, f.billing_period_end,
           f.provider, f.service_name, f.service_category, f.charge_category, f.charge_description,
           f.pricing_category, f.pricing, f.region,
           coalesce(f.sku, CASE WHEN f.gpu_type IS NOT NULL THEN llm_econ._sku_find(f.gpu_type) END),
           f.instance_type, f.gpus_per_instance, f.consumed_quantity, f.consumed_unit, f.gpu_hours,
           f.billed_cost, f.effective_cost, f.list_cost, f.billing_currency, f.run_id, f.resource_id, f.tags,
           f.record, $2, f.line, f.row_hash,
           f.occurrence OPERATOR(pg_catalog.+)
             CASE WHEN $4 THEN coalesce((SELECT c.n FROM llm_econ_focus_seen c WHERE c.h OPERATOR(pg_catalog.=) f.row_hash::uuid), 0)
                  ELSE 0 END,
           f.billing_account_id, $3
      FROM llm_econ_focus_lines f  -- ids follow the file: the table is filled in file order and read by one seq scan (no sort)
    %s $q$, CASE WHEN counting OR _focus_store.mode = 'append' THEN 'ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING' END)
  USING who, _focus_store.source, _focus_store.delivery, counting;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  skipped := (SELECT pg_catalog.count(*) FROM llm_econ_focus_lines) - inserted;
  IF counting THEN
    INSERT INTO llm_econ_focus_seen AS c (h, n)
    SELECT f.row_hash::uuid, pg_catalog.max(f.occurrence) FROM llm_econ_focus_lines f GROUP BY 1
    ON CONFLICT (h) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  TRUNCATE llm_econ_focus_lines;
END $$;
COMMENT ON FUNCTION llm_econ._focus_store(text, text, text, boolean, text) IS
  'internal: stores the typed FOCUS lines of llm_econ_focus_lines in spend by one INSERT ... SELECT (its column list is written only here), then empties the table';

-- The temporary tables the importers use (dropped at commit): the typed lines of one batch, the
-- copies of each charge identity a load's earlier batches had, the statements it covers, and each
-- batch's distinct identities.
CREATE OR REPLACE FUNCTION llm_econ._focus_temp() RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF pg_catalog.to_regclass('pg_temp.llm_econ_focus_hashes') IS NOT NULL THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus_lines OF llm_econ._focus_line ON COMMIT DROP;
  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus_seen (h uuid PRIMARY KEY, n int4 NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE llm_econ_focus_keys (provider text, billing_account_id text, billing_period_start timestamptz,
      lock_key int8 NOT NULL, fresh boolean NOT NULL,
      UNIQUE NULLS NOT DISTINCT (provider, billing_account_id, billing_period_start)) ON COMMIT DROP;
  CREATE TEMP TABLE llm_econ_focus_hashes (h uuid NOT NULL) ON COMMIT DROP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_temp() IS
  'internal: creates the transaction''s temporary tables of a FOCUS load unless they exist';

-- load_focus takes a mode and says what it replaced (issue 32): its result type changes
DROP FUNCTION llm_econ.load_focus(text, text, text);
-- The batches of one load: the role's staged lines in id ranges (start, stop], about `batch` ids at a
-- time, each typed by one statement and stored by _focus_store; a batch ends with its last record
-- (one open at its last id is read to its end), and the next starts after that record's last line,
-- whose id and file line the typing INSERT's RETURNING gives.  Nothing but the temporary tables
-- is carried from one statement to the next.  exact: number copies of a charge across batches
-- (llm_econ_focus_seen); else, in mode replace, a copy an earlier batch stored is a unique
-- violation (_focus_store), and in mode append each batch's distinct identities go to
-- llm_econ_focus_hashes for load_focus's check.
CREATE FUNCTION llm_econ._focus_batches(who text, source text, delivery text, start int8, stop int8, batch int8, exact boolean,
    mode text, OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  lo int8 := 0;       -- the last staged id loaded (0: none, the header comes first)
  hi int8;
  n int8;
  last_read int8;     -- the staged id of the batch's last record's last line
  last_line int4;     -- and its file line
  first int4 := 1;    -- the file line of the first staged line after lo
  done record;
BEGIN
  IF start IS NULL OR stop IS NULL OR exact IS NULL OR batch IS NULL OR batch < 1 THEN
    RAISE EXCEPTION 'start, stop and exact must not be NULL, and batch must be at least 1'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF _focus_batches.mode IS NULL OR _focus_batches.mode NOT IN ('replace', 'append') THEN
    RAISE EXCEPTION 'mode must be replace or append' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines, llm_econ_focus_seen, llm_econ_focus_keys, llm_econ_focus_hashes;
  inserted := 0;
  skipped := 0;
  replaced := 0;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  LOOP
    EXIT WHEN lo OPERATOR(pg_catalog.>=) stop;
    hi := LEAST(GREATEST(lo, start) OPERATOR(pg_catalog.+) batch, stop);
    WITH typed AS (
      INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_staged_lines('focus_staging', lo, hi, first)
      RETURNING staged_id, last_line)
    SELECT pg_catalog.count(*), pg_catalog.max(t.staged_id), pg_catalog.max(t.last_line) INTO n, last_read, last_line FROM typed t;
    IF n = 0 THEN
      -- no record: the role's lines in (lo, hi], if any, are blank (file lines all the same); with
      -- none, on to its next staged line
      n := (SELECT pg_catalog.count(*) FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id > GREATEST(lo, start) AND s.id <= hi);
      first := first + n::int4;
      lo := CASE WHEN n > 0 THEN hi
                 ELSE (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id > hi ORDER BY s.id LIMIT 1)
                      OPERATOR(pg_catalog.-) 1 END;
      EXIT WHEN lo IS NULL;
      CONTINUE;
    END IF;
    IF NOT exact AND _focus_batches.mode = 'append' THEN
      INSERT INTO llm_econ_focus_hashes (h) SELECT DISTINCT f.row_hash::uuid FROM llm_econ_focus_lines f;
    END IF;
    SELECT * INTO done
      FROM llm_econ._focus_store(who, _focus_batches.source, _focus_batches.delivery, exact, _focus_batches.mode) AS s;
    inserted := inserted + done.inserted;
    skipped := skipped + done.skipped;
    replaced := replaced + done.replaced;
    replaced_billed_usd := replaced_billed_usd + done.replaced_billed_usd;
    replaced_effective_usd := replaced_effective_usd + done.replaced_effective_usd;
    lo := last_read;
    first := last_line OPERATOR(pg_catalog.+) 1;
  END LOOP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_batches(text, text, text, int8, int8, int8, boolean, text) IS
  'internal: load_focus''s batches: the current role''s staged lines with ids in (start, stop], typed and stored by _focus_store';

-- The checks import_focus and load_focus make first, in this order: the mode, the role's rights
-- (_focus_refusal: the GRANT that would let it in the HINT), the delivery label.
CREATE FUNCTION llm_econ._focus_admit(fn text, who text, mode text, delivery text, staged boolean) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  refusal text[];
BEGIN
  IF mode IS NULL OR mode NOT IN ('replace', 'append') THEN
    RAISE EXCEPTION 'mode must be replace or append, got %', coalesce(pg_catalog.quote_literal(mode), 'NULL')
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'replace: the file is the whole statement of each provider, billing account and billing period it covers; append: adds the charges not stored yet.';
  END IF;
  refusal := llm_econ._focus_refusal(fn, who, mode = 'replace', staged);
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF delivery IS NOT NULL AND pg_catalog.btrim(delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
END $$;
COMMENT ON FUNCTION llm_econ._focus_admit(text, text, text, text, boolean) IS
  'internal: import_focus''s and load_focus''s checks of mode, rights (42501, the GRANT in the HINT) and delivery label';

CREATE FUNCTION llm_econ.load_focus(tenant text DEFAULT NULL, source text DEFAULT NULL, delivery text DEFAULT NULL,
    mode text DEFAULT 'replace', OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(load_focus.tenant, CURRENT_USER);
  -- staged ids per statement: work_mem / 2 kB (4 MB: 2,048), at least 1,024, so that a batch's
  -- typed lines stay in work_mem, and the after-row checks PostgreSQL queues until the end of its
  -- INSERT are bounded by work_mem, not by the file
  batch constant int8 := greatest(1024, pg_catalog.pg_size_bytes(pg_catalog.current_setting('work_mem')) / 2048);
  start int8;         -- the id before the role's first staged line
  stop int8;          -- the last staged id when the load began: lines staged later wait for the next load
  done record;
BEGIN
  PERFORM llm_econ._focus_admit('load_focus', who, load_focus.mode, load_focus.delivery, true);
  PERFORM llm_econ._focus_temp();
  SELECT (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER ORDER BY s.id LIMIT 1) OPERATOR(pg_catalog.-) 1,
         (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER ORDER BY s.id DESC LIMIT 1)
    INTO start, stop;
  inserted := 0;
  skipped := 0;
  replaced := 0;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  IF stop IS NOT NULL THEN
    -- The k-th copy of a charge in the file is its occurrence k.  Each batch numbers its own
    -- copies; when no charge has copies in two batches that is the whole numbering, and
    -- otherwise the load starts again, counting copies across batches.  Mode replace finds such
    -- a copy as a unique violation of its plain INSERT (_focus_store), at once; mode append,
    -- where a stored charge is skipped, by the batches' identities, checked at the end.
    BEGIN
      SELECT * INTO done FROM llm_econ._focus_batches(who, load_focus.source, load_focus.delivery, start, stop, batch, false, load_focus.mode);
      IF EXISTS (SELECT FROM llm_econ_focus_hashes h GROUP BY h.h HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1) THEN
        RAISE SQLSTATE 'LE001';
      END IF;
    EXCEPTION WHEN SQLSTATE 'LE001' OR unique_violation THEN
      SELECT * INTO done FROM llm_econ._focus_batches(who, load_focus.source, load_focus.delivery, start, stop, batch, true, load_focus.mode);
    END;
    inserted := done.inserted;
    skipped := done.skipped;
    replaced := done.replaced;
    replaced_billed_usd := done.replaced_billed_usd;
    replaced_effective_usd := done.replaced_effective_usd;
  END IF;
  DELETE FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id <= stop;
END $$;
COMMENT ON FUNCTION llm_econ.load_focus(text, text, text, text) IS
  'loads the FOCUS file the current role staged through focus_stage as import_focus does, in batches bounded by work_mem; all or nothing (docs/finance.md)';
