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
    -- only names price_snapshot can store (its provider check, at most 256 bytes): the setting is
    -- any role's to write, and this table's rows outlive the transaction; a name it cannot store
    -- needs no lock (its rows are refused)
    providers := ARRAY(SELECT p FROM unnest(providers) AS p
                        WHERE p ~ '^[a-z0-9][a-z0-9._-]*$' AND octet_length(p) <= 256);
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

COMMENT ON FUNCTION llm_econ.load_price_history(text, text) IS
  'loads the rows the current role staged in llm_econ.price_history_staging (a long-format price history, \copy''d in) into price_snapshot as change points, then removes them; a bad line is an error naming it and nothing is stored; on_mismatch => ''skip'' counts lines whose accelerator contradicts the instance type as skipped';
