-- 90_house.sql: the house-keeping of 0.3.0 (issue 18): one SKU rule in C (src/sku.c) that SQL calls; the series prune and the history loader read their input once. It carries the final definitions of the functions several parts of this round changed (import_skypilot_catalog, _staged_history, _load_price_history, _price_series_prune), so the parts before it no longer repeat them.

CREATE OR REPLACE FUNCTION llm_econ._sku_find(name text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_find_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_find(text) IS 'internal: the gpu_sku key of a name or alias (case, spaces, - and _ ignored; exact spelling first, keys before aliases), or NULL';

CREATE OR REPLACE FUNCTION llm_econ._known_gpus(instance_type text) RETURNS int4
AS 'MODULE_PATHNAME', 'le_known_gpus_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._known_gpus(text) IS 'internal: GPUs per machine of a machine type per gpu_sku_alias (exact spelling first), or NULL when unknown';

CREATE OR REPLACE FUNCTION llm_econ._sku_map(names text[], OUT name text, OUT sku text, OUT gpus_per_instance int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_sku_map_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_map(text[]) IS 'internal: for each name that means a SKU, its gpu_sku key and the GPUs per machine gpu_sku_alias knows for it (NULL: unknown), as _sku_find and _known_gpus give them';

CREATE OR REPLACE FUNCTION llm_econ._staged_history()
RETURNS TABLE (line bigint, observed_at timestamptz, valid_to timestamptz, cloud text, region text,
               instance_type text, n int4, od numeric, spot numeric, sku text, problem text)
LANGUAGE sql STABLE
AS $$
  WITH names AS (SELECT s.instance_type AS name FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
                 UNION SELECT s.accelerator FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER),
       map AS (SELECT m.name, m.sku FROM llm_econ._sku_map(ARRAY(SELECT names.name FROM names)) AS m)
  SELECT row_number() OVER (ORDER BY s.id) + 1, s.observed_at::timestamptz, s.valid_to::timestamptz,
         s.cloud, s.region, s.instance_type, s.accelerator_count::numeric::int4,
         llm_econ._usd(coalesce(nullif(s.price_on_demand_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.price_on_demand_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         llm_econ._usd(coalesce(nullif(s.spot_price_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.spot_price_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         coalesce(mi.sku, ma.sku),
         CASE
           WHEN mi.sku IS NOT NULL AND ma.sku IS NOT NULL AND mi.sku <> ma.sku
             THEN format('accelerator "%s" is not what "%s" carries ("%s")', s.accelerator, s.instance_type, mi.sku)
           WHEN mi.sku IS NULL AND ma.sku IS NULL
             THEN format('unknown accelerator "%s"', s.accelerator)
         END
    FROM llm_econ.price_history_staging s
    LEFT JOIN map mi ON mi.name = s.instance_type
    LEFT JOIN map ma ON ma.name = s.accelerator
   WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
$$;
COMMENT ON FUNCTION llm_econ._staged_history() IS 'internal: the rows the current role staged in price_history_staging, typed, with line numbers and SKUs';

CREATE OR REPLACE FUNCTION llm_econ.import_skypilot_catalog(cloud text, catalog_csv text, observed_at timestamptz,
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint,
    OUT corrected bigint, OUT unverified bigint, OUT suspect bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  c text := lower(btrim(cloud));
  src text;
  unknown text;
  cv record;
  stats record;
  fix record;
  next_at timestamptz;
  have_fix boolean := false;
  rp record;
BEGIN
  IF cloud IS NULL OR catalog_csv IS NULL OR observed_at IS NULL THEN
    RAISE EXCEPTION 'cloud, catalog_csv and observed_at must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'import_skypilot_catalog', upper(current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  IF NOT (c = ANY (llm_econ._skypilot_clouds())) THEN
    RAISE EXCEPTION 'unknown cloud "%"', cloud USING ERRCODE = 'invalid_parameter_value',
      DETAIL = 'Known clouds: ' || array_to_string(llm_econ._skypilot_clouds(), ', ') || '.';
  END IF;
  IF NOT isfinite(observed_at) OR observed_at > now() + interval '1 day' THEN
    RAISE EXCEPTION 'observed_at must be at most now() + 1 day, got %', observed_at
      USING ERRCODE = 'invalid_parameter_value', HINT = 'A catalog cannot be observed in the future.';
  END IF;
  src := 'SkyPilot catalog vms.csv (' || c || ')';

  -- one importer per provider at a time; a malformed catalog raises before anything is stored
  PERFORM llm_econ._lock_providers(ARRAY[c]);
  -- 1. the catalog's offers, with the GPU count gpu_sku_alias knows for each machine type (it
  --    wins over the catalog's), and the series an earlier catalog listed and this one does not
  WITH raw AS MATERIALIZED (SELECT o.* FROM llm_econ._skypilot_offers(c, catalog_csv) AS o),
       names AS (   -- each distinct name is looked up once
         SELECT DISTINCT v.n FROM raw r,
                LATERAL (VALUES (r.instance_type), (r.accelerator),
                                (r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END)) AS v(n)
          WHERE v.n IS NOT NULL),
       -- _sku_find's and _known_gpus's rule for all names in one query
       map AS MATERIALIZED (SELECT m.name AS n, m.sku, m.gpus_per_instance AS gpus
                              FROM llm_econ._sku_map(ARRAY(SELECT names.n FROM names)) AS m),
       parsed AS MATERIALIZED (
         SELECT r.*, coalesce(mi.sku, mv.sku, ma.sku) AS sku, k.gpus AS known_gpus
           FROM raw r
           LEFT JOIN map mi ON mi.n = r.instance_type
           LEFT JOIN map mv ON mv.n = r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END
           LEFT JOIN map ma ON ma.n = r.accelerator
           LEFT JOIN map k ON k.n = r.instance_type),
       priced AS (
         SELECT p.sku, p.region, p.pricing, p.instance_type, coalesce(p.known_gpus, p.gpus_per_instance) AS gpus,
                CASE WHEN p.known_gpus IS NULL OR p.known_gpus = p.gpus_per_instance THEN p.usd_per_gpu_hour
                     ELSE round(p.usd_per_hour / p.known_gpus::numeric, 10) END AS usd
           FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL),
       offers AS (   -- the cheapest offer per series
         SELECT DISTINCT ON (o.sku, o.region, o.pricing, o.instance_type)
                o.sku, o.region, o.pricing, llm_econ._usd(o.usd) AS usd, o.instance_type, o.gpus,
                llm_econ._series_id(o.sku, c, o.pricing, o.region, o.instance_type) AS series_id
           FROM priced o
          ORDER BY o.sku, o.region, o.pricing, o.instance_type, o.usd),
       gone AS (     -- series an earlier catalog of this cloud listed and this one does not
         SELECT s.sku, s.region, s.pricing, NULL::numeric AS usd, s.instance_type, NULL::int4 AS gpus, s.series_id
           FROM llm_econ.price_series s
          CROSS JOIN LATERAL (
                SELECT p.usd_per_gpu_hour, p.source FROM llm_econ.price_snapshot p
                 WHERE p.series_id = s.series_id AND p.observed_at <= import_skypilot_catalog.observed_at
                 ORDER BY p.observed_at DESC LIMIT 1) AS cur
          WHERE s.provider = c AND cur.usd_per_gpu_hour IS NOT NULL AND cur.source = src
            AND NOT EXISTS (SELECT 1 FROM offers x WHERE x.series_id = s.series_id)),
       cand AS (SELECT * FROM offers UNION ALL SELECT * FROM gone)
  SELECT array_agg(import_skypilot_catalog.observed_at) AS t, array_agg(c) AS pr, array_agg(x.sku) AS sk,
         array_agg(x.region) AS rg, array_agg(x.pricing) AS pc, array_agg(x.usd) AS us,
         array_agg(x.instance_type) AS it, array_agg(x.gpus) AS gp,
         (SELECT coalesce(sum(p.catalog_rows) FILTER (WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL), 0) FROM parsed p) AS skipped,
         (SELECT string_agg(format('%s row(s) of %s: %s', w.n, w.names, w.why), '; ' ORDER BY w.why) FROM (
            SELECT sum(q.catalog_rows) AS n, string_agg(DISTINCT coalesce(q.accelerator, '?'), ', ') AS names, q.why
              FROM (SELECT p.catalog_rows, p.accelerator,
                           CASE
                             WHEN p.sku IS NOT NULL AND p.instance_type IS NULL
                               THEN 'GCP accelerator rows no machine type pairs with in their zone; the machine''s price is missing, so the catalog cannot price them'
                             WHEN p.sku IS NOT NULL
                               THEN 'GCP machine rows no accelerator row pairs with in their zone; the GPUs'' price is missing, so the catalog cannot price them'
                             WHEN p.accelerator ~* '^tpu'
                               THEN 'TPUs, not GPUs; not priced here'
                             ELSE 'unknown names: add them to llm_econ.gpu_sku_alias, or, for a part gpu_sku lacks, a llm_econ.gpu_sku row with its source'
                           END AS why
                      FROM parsed p WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL) AS q
             GROUP BY q.why) AS w) AS skip_why,
         (SELECT count(*) FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL
                                          AND p.known_gpus <> p.gpus_per_instance) AS corrected,
         (SELECT string_agg(DISTINCT format('%s lists %s GPUs per machine, %s known', p.instance_type, p.gpus_per_instance, p.known_gpus), '; ')
            FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.known_gpus <> p.gpus_per_instance) AS corrected_why,
         (SELECT count(DISTINCT p.instance_type) FROM parsed p
           WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.instance_type IS NOT NULL AND p.known_gpus IS NULL) AS unverified,
         (SELECT string_agg(DISTINCT p.instance_type, ', ') FROM parsed p
           WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.instance_type IS NOT NULL AND p.known_gpus IS NULL) AS unverified_why
    INTO cv FROM cand x;

  -- 2. a backfill (a later catalog of this cloud is stored already): what that later catalog
  --    listed must still hold from its date on, so each series this import changes gets, at that
  --    date, the price it had there (or a withdrawal when the later catalog did not list it)
  SELECT min(i.observed_at) INTO next_at FROM llm_econ.price_import i
   WHERE i.provider = c AND i.source = src AND i.observed_at > import_skypilot_catalog.observed_at;
  IF next_at IS NOT NULL AND cv.sk IS NOT NULL THEN
    SELECT array_agg(next_at) AS t, array_agg(c) AS pr, array_agg(x.sk) AS sk, array_agg(x.rg) AS rg,
           array_agg(x.pc) AS pc, array_agg(st.usd_per_gpu_hour) AS us, array_agg(x.it) AS it,
           array_agg(st.gpus_per_instance) AS gp
      INTO fix
      FROM unnest(cv.sk, cv.rg, cv.pc, cv.us, cv.it) AS x(sk, rg, pc, us, it)
      LEFT JOIN LATERAL (
            SELECT p.observed_at, p.usd_per_gpu_hour, p.gpus_per_instance FROM llm_econ.price_snapshot p
             WHERE p.series_id = llm_econ._series_id(x.sk, c, x.pc, x.rg, x.it) AND p.observed_at <= next_at
             ORDER BY p.observed_at DESC LIMIT 1) AS st ON true
     WHERE (st.observed_at IS NULL OR st.observed_at < next_at)
       AND x.us IS DISTINCT FROM st.usd_per_gpu_hour;
    have_fix := fix.t IS NOT NULL;
  END IF;

  -- 3. store (rows written here are of kind catalog), then check the new prices
  PERFORM set_config('llm_econ.import_kind', 'catalog', true);
  SELECT * INTO rp FROM llm_econ._record_prices(cv.t, cv.pr, cv.sk, cv.rg, cv.pc, cv.us, cv.it, cv.gp, src);
  inserted := coalesce(rp.inserted, 0);
  unchanged := coalesce(rp.unchanged, 0);
  withdrawn := coalesce(rp.withdrawn, 0);
  IF have_fix THEN
    SELECT * INTO rp FROM llm_econ._record_prices(fix.t, fix.pr, fix.sk, fix.rg, fix.pc, fix.us, fix.it, fix.gp, src);
    inserted := inserted + coalesce(rp.inserted, 0);
    withdrawn := withdrawn + coalesce(rp.withdrawn, 0);
  END IF;
  PERFORM set_config('llm_econ.import_kind', '', true);
  INSERT INTO llm_econ.price_import (provider, source, observed_at)
  VALUES (c, src, import_skypilot_catalog.observed_at) ON CONFLICT DO NOTHING;
  SELECT count(*) INTO suspect FROM llm_econ.price_snapshot p
   WHERE p.provider = c AND p.source = src AND p.observed_at IN (import_skypilot_catalog.observed_at, next_at)
     AND p.suspect IS NOT NULL;
  skipped := cv.skipped;
  corrected := cv.corrected;
  unverified := cv.unverified;

  IF skipped > 0 THEN
    RAISE NOTICE 'skipped % catalog rows: %', skipped, cv.skip_why;
  END IF;
  IF corrected > 0 THEN
    RAISE NOTICE 'corrected the GPU count of % catalog offers: %', corrected, cv.corrected_why
      USING HINT = 'The count in llm_econ.gpu_sku_alias wins over the catalog''s; per-GPU prices use it.';
  END IF;
  IF unverified > 0 THEN
    RAISE NOTICE '% machine types have no known GPU count and were priced with the catalog''s: %', unverified, left(cv.unverified_why, 500)
      USING HINT = 'Add them to llm_econ.gpu_sku_alias with gpus_per_instance.';
  END IF;
  IF suspect > 0 THEN
    RAISE NOTICE '% prices are more than 3x from the same provider''s other offers of the SKU or from the series'' previous price', suspect
      USING HINT = 'They are stored with price_snapshot.suspect set; cheapest_offers leaves them out unless include_suspect => true.';
  END IF;
END $$;
COMMENT ON FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz) IS
  'imports one SkyPilot vms.csv (any cloud; columns found by header name) as one dated snapshot of per-GPU prices: new rows only where a series'' price changes; the GPU count gpu_sku_alias knows wins over the catalog''s (corrected), machine types without a known count are reported (unverified), prices more than 3x from the same provider''s other offers or the previous price are flagged (suspect); skipped rows are counted with a NOTICE naming the fix; series an earlier catalog listed and this one does not are withdrawn, and a backfilled catalog is reconciled with the next later one';


CREATE OR REPLACE FUNCTION llm_econ._price_series_prune() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ids int8[];
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('DELETE', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_prune() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- 1. lock the candidate series.  An UPDATE can empty only the series of rows it moved to
  --    another series: the rows whose id now holds the same series (as after the suspect flag's
  --    UPDATE) are left out, with one primary-key probe each.
  SELECT array_agg(c.series_id) INTO ids
    FROM (SELECT s.series_id
            FROM llm_econ.price_series s
           WHERE s.series_id IN (SELECT o.series_id FROM old_rows o
                                  WHERE TG_OP = 'DELETE'
                                     OR NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p
                                                     WHERE p.id = o.id AND p.series_id = o.series_id))
           ORDER BY s.series_id
             FOR UPDATE OF s) AS c;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- 2. in a new statement (a new snapshot), delete those still without observations
  DELETE FROM llm_econ.price_series s
   WHERE s.series_id = ANY (ids)
     AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p WHERE p.series_id = s.series_id);
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';


CREATE OR REPLACE FUNCTION llm_econ._load_price_history(source text, on_mismatch text, quiet boolean,
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  num constant text := '^[0-9]+(\.[0-9]+)?$';
  ts constant text := '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)$';
  bad record;
  names text;
  me text;
BEGIN
  IF source IS NULL OR btrim(source) = '' THEN
    RAISE EXCEPTION 'source must name where the history comes from' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF on_mismatch IS NULL OR on_mismatch NOT IN ('error', 'skip') THEN
    RAISE EXCEPTION 'on_mismatch must be one of error, skip, got "%"', on_mismatch USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'load_price_history', upper(current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  me := CURRENT_USER;   -- only the rows this role staged: two writers never load each other's

  -- 1. every field well-formed; the first bad line is the error
  SELECT * INTO bad FROM (
    SELECT row_number() OVER (ORDER BY s.id) + 1 AS line, s.*,
           CASE
             WHEN s.observed_at IS NULL OR s.observed_at !~ ts THEN 'observed_at is not an ISO 8601 timestamp'
             WHEN s.valid_to IS NULL OR s.valid_to !~ ts THEN 'valid_to is not an ISO 8601 timestamp'
             WHEN s.cloud IS NULL OR s.cloud !~ '^[a-z0-9][a-z0-9._-]*$' THEN 'cloud must be a lower-case provider name'
             WHEN s.region IS NULL OR s.region = '' THEN 'region is empty'
             WHEN s.instance_type IS NULL OR s.instance_type = '' THEN 'instance_type is empty'
             WHEN s.accelerator IS NULL OR s.accelerator = '' THEN 'accelerator is empty'
             WHEN s.accelerator_count IS NULL OR s.accelerator_count !~ '^[1-9][0-9]{0,3}(\.0+)?$' THEN 'accelerator_count is not a whole number in [1, 9999]'
             WHEN coalesce(s.price_on_demand_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'price_on_demand_usd_per_hour is not a non-negative number'
             WHEN coalesce(s.spot_price_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'spot_price_usd_per_hour is not a non-negative number'
             WHEN coalesce(s.price_on_demand_per_gpu_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'price_on_demand_per_gpu_usd_per_hour is not a non-negative number'
             WHEN coalesce(s.spot_price_per_gpu_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'spot_price_per_gpu_usd_per_hour is not a non-negative number'
           END AS problem
      FROM llm_econ.price_history_staging s WHERE s.staged_by = me) AS v
   WHERE v.problem IS NOT NULL ORDER BY v.line LIMIT 1;
  IF FOUND THEN
    -- a line number reaches the CONTEXT only from C: here it is a sentence of the DETAIL
    RAISE EXCEPTION '%', bad.problem
      USING ERRCODE = 'bad_copy_file_format',
            DETAIL = format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L, valid_to %L, cloud %L, region %L, instance_type %L, accelerator %L, accelerator_count %L and prices %L/%L/%L/%L.',
                            bad.line, bad.observed_at, bad.valid_to, bad.cloud, bad.region, bad.instance_type, bad.accelerator,
                            bad.accelerator_count, bad.price_on_demand_usd_per_hour, bad.spot_price_usd_per_hour,
                            bad.price_on_demand_per_gpu_usd_per_hour, bad.spot_price_per_gpu_usd_per_hour);
  END IF;

  -- 2. one pass over the typed lines: the patterns above still let an impossible date through
  --    (2024-02-30), which fails the cast (then find its line); else the first line whose
  --    interval is empty, then the first line dated in the future
  BEGIN
    SELECT * INTO bad FROM (
      SELECT h.*, CASE WHEN h.valid_to <= h.observed_at THEN 1
                       WHEN h.observed_at > now() + interval '1 day' THEN 2 END AS why
        FROM llm_econ._staged_history() AS h) AS v
     WHERE v.why IS NOT NULL ORDER BY v.why, v.line LIMIT 1;
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    FOR bad IN SELECT row_number() OVER (ORDER BY s.id) + 1 AS line, s.observed_at, s.valid_to
                 FROM llm_econ.price_history_staging s WHERE s.staged_by = me ORDER BY s.id LOOP
      BEGIN
        PERFORM bad.observed_at::timestamptz, bad.valid_to::timestamptz;
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION '%', SQLERRM USING ERRCODE = 'bad_copy_file_format',
          DETAIL = format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L and valid_to %L.',
                          bad.line, bad.observed_at, bad.valid_to);
      END;
    END LOOP;
    RAISE;
  END;
  IF bad.why = 1 THEN
    RAISE EXCEPTION 'valid_to % is not after observed_at %', bad.valid_to, bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('This is line %s of the staged history (line 1 is the CSV header).', bad.line);
  ELSIF bad.why = 2 THEN
    RAISE EXCEPTION 'observed_at % is later than now() + 1 day', bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
            HINT = 'A price cannot be observed in the future.';
  END IF;
  IF on_mismatch = 'error' THEN
    SELECT * INTO bad FROM llm_econ._staged_history() h
     WHERE h.problem IS NOT NULL AND h.problem NOT LIKE 'unknown%' ORDER BY h.line LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION '%', bad.problem USING ERRCODE = 'invalid_parameter_value',
        DETAIL = format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
        HINT = 'The instance type decides the GPU; on_mismatch => ''skip'' counts such lines as skipped.';
    END IF;
  END IF;

  PERFORM set_config('llm_econ.import_kind', 'history', true);
  -- 3. candidates: each line's prices (0 or empty = not offered), and withdrawals where a
  --    machine disappears (a gap before its next line, or an end before the end of coverage)
  WITH staged AS MATERIALIZED (SELECT * FROM llm_econ._staged_history()),
       h AS (
         SELECT x.*, lead(x.observed_at) OVER (PARTITION BY x.cloud, x.region, x.instance_type ORDER BY x.observed_at) AS next_at,
                (SELECT max(y.valid_to) FROM staged y) AS coverage_end
           FROM staged x WHERE x.problem IS NULL),
       cand AS (
         SELECT h.observed_at AS t, h.cloud, h.sku, h.region, k.pricing,
                nullif(CASE k.pricing WHEN 'on_demand' THEN h.od ELSE h.spot END, 0) AS usd,
                h.instance_type, h.n
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
         UNION ALL
         SELECT h.valid_to, h.cloud, h.sku, h.region, k.pricing, NULL, h.instance_type, h.n
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
          WHERE (h.next_at IS NULL AND h.valid_to < h.coverage_end) OR h.valid_to < h.next_at),
       arr AS (SELECT array_agg(t) AS t, array_agg(cloud) AS pr, array_agg(sku) AS sk, array_agg(region) AS rg,
                      array_agg(pricing) AS pc, array_agg(usd) AS us, array_agg(instance_type) AS it, array_agg(n) AS gp
                 FROM (SELECT * FROM cand ORDER BY t) AS o),
       stats AS (SELECT count(*) AS n, string_agg(DISTINCT x.problem, '; ') AS names
                   FROM staged x WHERE x.problem IS NOT NULL)
  SELECT rp.inserted, rp.unchanged, rp.withdrawn, stats.n, stats.names
    INTO inserted, unchanged, withdrawn, skipped, names
    FROM arr, stats, LATERAL llm_econ._record_prices(arr.t, arr.pr, arr.sk, arr.rg, arr.pc, arr.us, arr.it, arr.gp, source) AS rp;
  PERFORM set_config('llm_econ.import_kind', '', true);
  IF skipped > 0 AND NOT quiet THEN
    RAISE NOTICE 'skipped % lines: %', skipped, left(names, 500);
  END IF;

  DELETE FROM llm_econ.price_history_staging s WHERE s.staged_by = me;
  inserted := coalesce(inserted, 0);
  unchanged := coalesce(unchanged, 0);
  withdrawn := coalesce(withdrawn, 0);
END $$;
COMMENT ON FUNCTION llm_econ._load_price_history(text, text, boolean) IS
  'internal: load_price_history with the install script''s quiet mode';

