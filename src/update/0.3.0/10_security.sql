-- llm_econ 0.2.0 -> 0.3.0, part 10: security (issue 11).  SECURITY DEFINER trigger functions
-- no longer executable by PUBLIC and checking where they fire; price_series kept right under a
-- concurrent delete and insert; imports serialised on a row lock of the owner-only import_lock
-- (no advisory key any role can hold); staged history owned by the role that staged it; names
-- bounded (_check_name).

-- the writers' guards (src/sql/guard.sql)
CREATE TABLE llm_econ.import_lock (
    provider  text PRIMARY KEY
);
COMMENT ON TABLE llm_econ.import_lock IS
  'internal: one row per provider whose prices were imported; importers lock their providers'' rows (owner-only; derived, not dumped)';
COMMENT ON COLUMN llm_econ.import_lock.provider IS 'provider, lower case';

CREATE FUNCTION llm_econ._import_lock() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  providers text[] := string_to_array(nullif(current_setting('llm_econ.import_providers', true), ''), ',');
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_WHEN <> 'BEFORE'
     OR TG_LEVEL <> 'STATEMENT' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'llm_econ._import_lock() fires only as the BEFORE INSERT statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF providers IS NOT NULL THEN
    INSERT INTO llm_econ.import_lock (provider)
    SELECT p FROM unnest(providers) AS p ORDER BY 1 ON CONFLICT DO NOTHING;
    PERFORM 1 FROM llm_econ.import_lock l WHERE l.provider = ANY (providers) ORDER BY l.provider FOR UPDATE;
  END IF;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._import_lock() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._import_lock() IS
  'trigger: locks the import_lock rows of the providers an importer named (llm_econ.import_providers); only an INSERT into price_snapshot fires it';

CREATE TRIGGER price_snapshot_import_lock BEFORE INSERT ON llm_econ.price_snapshot
    FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._import_lock();

CREATE FUNCTION llm_econ._lock_providers(providers text[]) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM set_config('llm_econ.import_providers',
                     array_to_string(ARRAY(SELECT DISTINCT p FROM unnest(providers) AS p WHERE p IS NOT NULL ORDER BY 1), ','),
                     true);
  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, source)
  SELECT NULL, NULL, NULL, NULL, NULL WHERE false;
  PERFORM set_config('llm_econ.import_providers', '', true);
END $$;
COMMENT ON FUNCTION llm_econ._lock_providers(text[]) IS
  'internal: serialises imports of these providers until the end of the transaction (needs INSERT on price_snapshot)';

CREATE FUNCTION llm_econ._check_name(value text, field text) RETURNS text
AS 'MODULE_PATHNAME', 'le_check_name_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_name(text, text) IS
  'internal: value unchanged if it is at most 256 bytes (NULL stays NULL), else SQLSTATE 54000 naming field';

-- staged rows belong to the role that staged them (rows staged before the update: the updating
-- role's).  Added without a default first, so the table matches a fresh one (no "missing value").
ALTER TABLE llm_econ.price_history_staging ADD COLUMN staged_by text;
UPDATE llm_econ.price_history_staging SET staged_by = CURRENT_USER;
ALTER TABLE llm_econ.price_history_staging ALTER COLUMN staged_by SET DEFAULT CURRENT_USER,
  ALTER COLUMN staged_by SET NOT NULL,
  ADD CONSTRAINT price_history_staging_staged_by_check CHECK (staged_by OPERATOR(pg_catalog.=) CURRENT_USER);
COMMENT ON COLUMN llm_econ.price_history_staging.staged_by IS 'the role that staged the row (always the inserting role); load_price_history loads and removes only the rows of the role calling it';

-- changed functions (src/sql/tables.sql, series_delete.sql, import.sql, prices.sql)
CREATE OR REPLACE FUNCTION llm_econ._price_series_add() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('INSERT', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_add() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  INSERT INTO llm_econ.price_series AS s (sku, provider, pricing, region, instance_type)
  SELECT DISTINCT n.sku, n.provider, n.pricing, n.region, n.instance_type FROM new_rows n
  ON CONFLICT ON CONSTRAINT price_series_key DO UPDATE SET sku = EXCLUDED.sku WHERE false;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_add() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_add() IS 'trigger: registers the series of new or changed price_snapshot rows in price_series';

CREATE OR REPLACE FUNCTION llm_econ._price_series_prune() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('DELETE', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_prune() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- equality on coalesced keys (CHECKs forbid ''), so the joins can hash
  PERFORM 1 FROM llm_econ.price_series s
    JOIN (SELECT DISTINCT o.sku, o.provider, o.pricing, coalesce(o.region, '') AS region,
                 coalesce(o.instance_type, '') AS instance_type FROM old_rows o) AS gone
      ON s.sku = gone.sku AND s.provider = gone.provider AND s.pricing = gone.pricing
     AND coalesce(s.region, '') = gone.region AND coalesce(s.instance_type, '') = gone.instance_type
   ORDER BY s.sku, s.provider, s.pricing, s.region, s.instance_type
     FOR UPDATE OF s;
  DELETE FROM llm_econ.price_series s
   USING (SELECT DISTINCT o.sku, o.provider, o.pricing, coalesce(o.region, '') AS region,
                 coalesce(o.instance_type, '') AS instance_type FROM old_rows o) AS gone
   WHERE s.sku = gone.sku AND s.provider = gone.provider AND s.pricing = gone.pricing
     AND coalesce(s.region, '') = gone.region AND coalesce(s.instance_type, '') = gone.instance_type
     AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p
                      WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                        AND coalesce(p.region, '') = coalesce(s.region, '')
                        AND coalesce(p.instance_type, '') = coalesce(s.instance_type, ''));
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';

CREATE OR REPLACE FUNCTION llm_econ._record_prices(obs_at timestamptz[], provider text[], sku text[], region text[],
                                        pricing text[], usd numeric[], instance_type text[], gpus int4[],
                                        source text,
                                        OUT inserted bigint, OUT unchanged bigint, OUT withdrawn bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
DECLARE
  clash jsonb;   -- the first conflict in time and key order, if any
BEGIN
  PERFORM llm_econ._lock_providers(_record_prices.provider);

  WITH changes AS MATERIALIZED (
         SELECT * FROM llm_econ._price_changes(obs_at, _record_prices.provider, _record_prices.sku,
                                               _record_prices.region, _record_prices.pricing, usd,
                                               _record_prices.instance_type, gpus)),
       bad AS (SELECT * FROM changes c WHERE c.conflict
                ORDER BY c.observed_at, c.provider, c.sku, c.pricing, c.region, c.instance_type LIMIT 1),
       ins AS (
         INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour,
                                              instance_type, gpus_per_instance, source)
         SELECT c.observed_at, c.provider, c.sku, c.region, c.pricing, c.usd, c.instance_type, c.gpus,
                _record_prices.source
           FROM changes c
          WHERE c.fresh AND NOT EXISTS (SELECT 1 FROM bad)
          ORDER BY c.sku, c.provider, c.pricing, c.region NULLS FIRST, c.instance_type NULLS FIRST, c.observed_at  -- ids in key, time order on any plan
         RETURNING usd_per_gpu_hour)
  SELECT (SELECT count(*) FROM ins i WHERE i.usd_per_gpu_hour IS NOT NULL),
         (SELECT count(*) FROM ins i WHERE i.usd_per_gpu_hour IS NULL),
         (SELECT count(*) FROM changes c WHERE c.is_new AND c.usd IS NOT NULL),
         (SELECT pg_catalog.to_jsonb(b) FROM bad b)
    INTO inserted, withdrawn, unchanged, clash;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'two different prices for % % % in region % (instance type %) at %',
                    clash->>'provider', clash->>'sku', clash->>'pricing', coalesce(clash->>'region', '(any)'),
                    coalesce(clash->>'instance_type', '(none)'), (clash->>'observed_at')::timestamptz
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'An observation of that series at that instant is already stored, or the input lists it twice.';
  END IF;
  unchanged := unchanged - inserted;
END $$;
COMMENT ON FUNCTION llm_econ._record_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text) IS
  'internal: stores candidate observations as change points (a row only where a series'' price changes; NULL = withdrawn)';

CREATE OR REPLACE FUNCTION llm_econ.import_skypilot_catalog(cloud text, catalog_csv text, observed_at timestamptz,
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  c text := lower(btrim(cloud));
  src text;
  unknown text;
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
  WITH raw AS MATERIALIZED (SELECT o.* FROM llm_econ._skypilot_offers(c, catalog_csv) AS o),
       names AS (   -- each distinct name is looked up once
         SELECT DISTINCT v.n FROM raw r,
                LATERAL (VALUES (r.instance_type), (r.accelerator),
                                (r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END)) AS v(n)
          WHERE v.n IS NOT NULL),
       map AS MATERIALIZED (SELECT names.n, llm_econ._sku_find(names.n) AS sku FROM names),
       parsed AS MATERIALIZED (
         SELECT r.*, coalesce(mi.sku, mv.sku, ma.sku) AS sku
           FROM raw r
           LEFT JOIN map mi ON mi.n = r.instance_type
           LEFT JOIN map mv ON mv.n = r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END
           LEFT JOIN map ma ON ma.n = r.accelerator),
       offers AS (   -- the cheapest offer per series
         SELECT DISTINCT ON (o.sku, o.region, o.pricing, o.instance_type)
                o.sku, o.region, o.pricing, llm_econ._usd(o.usd_per_gpu_hour) AS usd, o.instance_type, o.gpus_per_instance AS gpus
           FROM parsed o WHERE o.sku IS NOT NULL AND o.usd_per_gpu_hour IS NOT NULL
          ORDER BY o.sku, o.region, o.pricing, o.instance_type, o.usd_per_gpu_hour),
       gone AS (     -- series an earlier catalog of this cloud listed and this one does not
         SELECT s.sku, s.region, s.pricing, NULL::numeric AS usd, s.instance_type, NULL::int4 AS gpus
           FROM llm_econ.price_series s
          CROSS JOIN LATERAL (
                SELECT p.usd_per_gpu_hour, p.source FROM llm_econ.price_snapshot p
                 WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                   AND coalesce(p.region, '') = coalesce(s.region, '')
                   AND coalesce(p.instance_type, '') = coalesce(s.instance_type, '')
                   AND p.observed_at <= import_skypilot_catalog.observed_at
                 ORDER BY p.observed_at DESC LIMIT 1) AS cur
          WHERE s.provider = c AND cur.usd_per_gpu_hour IS NOT NULL AND cur.source = src
            AND NOT EXISTS (SELECT 1 FROM offers x
                             WHERE x.sku = s.sku AND x.pricing = s.pricing
                               AND coalesce(x.region, '') = coalesce(s.region, '')
                               AND coalesce(x.instance_type, '') = coalesce(s.instance_type, ''))),
       cand AS (SELECT * FROM offers UNION ALL SELECT * FROM gone),
       arr AS (SELECT array_agg(import_skypilot_catalog.observed_at) AS t, array_agg(c) AS pr, array_agg(sku) AS sk,
                      array_agg(region) AS rg, array_agg(pricing) AS pc, array_agg(usd) AS us,
                      array_agg(instance_type) AS it, array_agg(gpus) AS gp
                 FROM cand),
       stats AS (SELECT coalesce(sum(p.catalog_rows) FILTER (WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL), 0) AS n,
                        string_agg(DISTINCT coalesce(p.accelerator, '?') || CASE WHEN p.usd_per_gpu_hour IS NULL
                                   THEN ' (unpriced)' ELSE '' END, ', ')
                          FILTER (WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL) AS names
                   FROM parsed p)
  SELECT rp.inserted, rp.unchanged, rp.withdrawn, stats.n, stats.names
    INTO inserted, unchanged, withdrawn, skipped, unknown
    FROM arr, stats, LATERAL llm_econ._record_prices(arr.t, arr.pr, arr.sk, arr.rg, arr.pc, arr.us, arr.it, arr.gp, src) AS rp;
  IF skipped > 0 THEN
    RAISE NOTICE 'skipped % catalog rows: %', skipped, unknown
      USING HINT = 'Add the missing names to llm_econ.gpu_sku_alias and import again.';
  END IF;
  inserted := coalesce(inserted, 0);
  unchanged := coalesce(unchanged, 0);
  withdrawn := coalesce(withdrawn, 0);
END $$;
COMMENT ON FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz) IS
  'imports one SkyPilot vms.csv (any cloud; columns found by header name) as one dated snapshot of per-GPU prices: new rows only where a series'' price changes; unknown accelerators counted in skipped (with a NOTICE); series an earlier catalog of this cloud listed and this one does not are withdrawn';

CREATE OR REPLACE FUNCTION llm_econ._staged_history()
RETURNS TABLE (line bigint, observed_at timestamptz, valid_to timestamptz, cloud text, region text,
               instance_type text, n int4, od numeric, spot numeric, sku text, problem text)
LANGUAGE sql STABLE
AS $$
  WITH names AS (SELECT s.instance_type AS name FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
                 UNION SELECT s.accelerator FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER),
       map AS (SELECT names.name, llm_econ._sku_find(names.name) AS sku FROM names)
  SELECT row_number() OVER (ORDER BY s.id) + 1, s.observed_at::timestamptz, s.valid_to::timestamptz,
         s.cloud, s.region, s.instance_type, s.accelerator_count::numeric::int4,
         llm_econ._usd(coalesce(nullif(s.price_on_demand_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.price_on_demand_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         llm_econ._usd(coalesce(nullif(s.spot_price_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.spot_price_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         coalesce(mi.sku, ma.sku),
         CASE
           WHEN mi.sku IS NOT NULL AND ma.sku IS NOT NULL AND mi.sku <> ma.sku
             THEN format('accelerator %s is not what %s carries (%s)', s.accelerator, s.instance_type, mi.sku)
           WHEN mi.sku IS NULL AND ma.sku IS NULL
             THEN format('unknown accelerator %s', s.accelerator)
         END
    FROM llm_econ.price_history_staging s
    LEFT JOIN map mi ON mi.name = s.instance_type
    LEFT JOIN map ma ON ma.name = s.accelerator
   WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
$$;
COMMENT ON FUNCTION llm_econ._staged_history() IS 'internal: the rows the current role staged in price_history_staging, typed, with line numbers and SKUs';

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
    RAISE EXCEPTION 'price_history_staging line %: %', bad.line, bad.problem
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('observed_at=%L valid_to=%L cloud=%L region=%L instance_type=%L accelerator=%L count=%L prices=%L/%L/%L/%L',
                            bad.observed_at, bad.valid_to, bad.cloud, bad.region, bad.instance_type, bad.accelerator,
                            bad.accelerator_count, bad.price_on_demand_usd_per_hour, bad.spot_price_usd_per_hour,
                            bad.price_on_demand_per_gpu_usd_per_hour, bad.spot_price_per_gpu_usd_per_hour),
            HINT = 'Lines count from 2: line 1 is the CSV header.';
  END IF;

  -- 2. the patterns above still let an impossible date through (2024-02-30): find its line
  BEGIN
    PERFORM count(h.*) FROM llm_econ._staged_history() AS h;   -- count(h.*) evaluates every cast
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    FOR bad IN SELECT row_number() OVER (ORDER BY s.id) + 1 AS line, s.observed_at, s.valid_to
                 FROM llm_econ.price_history_staging s WHERE s.staged_by = me ORDER BY s.id LOOP
      BEGIN
        PERFORM bad.observed_at::timestamptz, bad.valid_to::timestamptz;
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION 'price_history_staging line %: %', bad.line, SQLERRM USING ERRCODE = 'invalid_parameter_value';
      END;
    END LOOP;
    RAISE;
  END;

  SELECT * INTO bad FROM llm_econ._staged_history() h WHERE h.valid_to <= h.observed_at ORDER BY h.line LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'price_history_staging line %: valid_to % is not after observed_at %', bad.line, bad.valid_to, bad.observed_at
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO bad FROM llm_econ._staged_history() h WHERE h.observed_at > now() + interval '1 day' ORDER BY h.line LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'price_history_staging line %: observed_at % is later than now() + 1 day', bad.line, bad.observed_at
      USING ERRCODE = 'invalid_parameter_value', HINT = 'A price cannot be observed in the future.';
  END IF;
  IF on_mismatch = 'error' THEN
    SELECT * INTO bad FROM llm_econ._staged_history() h
     WHERE h.problem IS NOT NULL AND h.problem NOT LIKE 'unknown%' ORDER BY h.line LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'price_history_staging line %: %', bad.line, bad.problem USING ERRCODE = 'invalid_parameter_value',
        HINT = 'The instance type decides the GPU; on_mismatch => ''skip'' counts such lines as skipped.';
    END IF;
  END IF;

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

CREATE OR REPLACE FUNCTION llm_econ.price_twap(sku text, provider text, pricing text, during tstzrange,
                                    region text DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key text;
  result numeric;
BEGIN
  IF sku IS NULL OR provider IS NULL OR pricing IS NULL OR during IS NULL THEN
    RETURN NULL;
  END IF;
  IF isempty(during) OR lower_inf(during) OR upper_inf(during)
     OR NOT isfinite(lower(during)) OR NOT isfinite(upper(during)) THEN
    RAISE EXCEPTION 'during must be a non-empty range with finite bounds, got %', during
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  key := llm_econ._sku_key(sku);
  PERFORM llm_econ._check_pricing(pricing), llm_econ._check_name(provider, 'provider'),
          llm_econ._check_name(region, 'region');
  WITH series AS (
         SELECT s.* FROM llm_econ.price_series s
          WHERE s.sku = key AND s.provider = lower(price_twap.provider) AND s.pricing = price_twap.pricing
            AND (price_twap.region IS NULL OR s.region = price_twap.region)),
       obs AS (     -- each series: its observation in effect at the start, and those inside the period
         SELECT s.region, s.instance_type, o.observed_at, o.usd_per_gpu_hour
           FROM series s
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                    AND coalesce(p.region, '') = coalesce(s.region, '')
                    AND coalesce(p.instance_type, '') = coalesce(s.instance_type, '')
                    AND p.observed_at <= lower(during)
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                    AND coalesce(p.region, '') = coalesce(s.region, '')
                    AND coalesce(p.instance_type, '') = coalesce(s.instance_type, '')
                    AND p.observed_at > lower(during) AND p.observed_at < upper(during))) o),
       spans AS (   -- [a, b): when each observation holds, clipped to the period
         SELECT greatest(obs.observed_at, lower(during)) AS a,
                least(coalesce(lead(obs.observed_at) OVER w, upper(during)), upper(during)) AS b,
                obs.usd_per_gpu_hour AS p
           FROM obs WINDOW w AS (PARTITION BY obs.region, obs.instance_type ORDER BY obs.observed_at)),
       cuts AS (SELECT a AS t FROM spans UNION SELECT b FROM spans),
       pieces AS (SELECT t AS a, lead(t) OVER (ORDER BY t) AS b FROM cuts),
       cheapest AS (
         SELECT x.a, x.b, min(s.p) AS p
           FROM pieces x JOIN spans s ON s.a <= x.a AND s.b >= x.b AND s.p IS NOT NULL
          WHERE x.b IS NOT NULL AND x.b > x.a
          GROUP BY x.a, x.b)
  SELECT sum(p * extract(epoch FROM b - a)) / nullif(sum(extract(epoch FROM b - a)), 0)
    INTO result FROM cheapest;
  RETURN result;
END $$;
COMMENT ON FUNCTION llm_econ.price_twap(text, text, text, tstzrange, text) IS
  'time-weighted average $/GPU-hour over the period: at each instant the cheapest series in effect (region NULL = any region); time with no price in effect is left out; NULL when nothing was in effect';

COMMENT ON FUNCTION llm_econ.load_price_history(text, text) IS
  'loads the rows the current role staged in llm_econ.price_history_staging (a long-format price history, \copy''d in) into price_snapshot as change points, then removes them; a bad line is an error naming it and nothing is stored; on_mismatch => ''skip'' counts lines whose accelerator contradicts the instance type as skipped';
