-- Writers' guards: the import lock only price writers can take, and the name-length check for SQL callers.
COMMENT ON TABLE llm_econ.import_lock IS
  'internal: one row per provider whose prices were imported; importers lock their providers'' rows (owner-only; derived, not dumped)';
COMMENT ON COLUMN llm_econ.import_lock.provider IS 'provider, lower case';

-- BEFORE INSERT statement trigger of price_snapshot: locks the providers listed in the
-- transaction-local setting llm_econ.import_providers (set by _lock_providers); does nothing
-- when it is unset, as for every ordinary INSERT.
CREATE OR REPLACE FUNCTION llm_econ._import_lock() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  providers text[] := pg_catalog.string_to_array(nullif(pg_catalog.current_setting('llm_econ.import_providers', true), ''), ',');
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
    providers := ARRAY(SELECT p FROM pg_catalog.unnest(providers) AS p
                        WHERE p ~ '^[a-z0-9][a-z0-9._-]*$' AND pg_catalog.octet_length(p) <= 256);
    INSERT INTO llm_econ.import_lock (provider)
    SELECT p FROM pg_catalog.unnest(providers) AS p ORDER BY 1 ON CONFLICT DO NOTHING;
    PERFORM 1 FROM llm_econ.import_lock l WHERE l.provider = ANY (providers) ORDER BY l.provider FOR UPDATE;
  END IF;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._import_lock() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._import_lock() IS
  'trigger: locks the import_lock rows of the providers an importer named (llm_econ.import_providers)';

CREATE OR REPLACE TRIGGER price_snapshot_import_lock BEFORE INSERT ON llm_econ.price_snapshot
    FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._import_lock();

-- Take the import lock of providers until the end of the transaction: an empty INSERT into
-- price_snapshot (so the caller needs INSERT on it) fires the trigger above.
CREATE OR REPLACE FUNCTION llm_econ._lock_providers(providers text[]) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_catalog.set_config('llm_econ.import_providers',
                     pg_catalog.array_to_string(ARRAY(SELECT DISTINCT p FROM pg_catalog.unnest(providers) AS p WHERE p IS NOT NULL ORDER BY 1), ','),
                     true);
  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, source)
  SELECT NULL, NULL, NULL, NULL, NULL WHERE false;
  PERFORM pg_catalog.set_config('llm_econ.import_providers', '', true);
END $$;
COMMENT ON FUNCTION llm_econ._lock_providers(text[]) IS
  'internal: serialises imports of these providers until the end of the transaction (needs INSERT on price_snapshot)';

-- Names are at most 256 bytes (LE_NAME_MAX): for SQL callers, the same check the C lookups make.
CREATE OR REPLACE FUNCTION llm_econ._check_name(value text, field text) RETURNS text
AS 'MODULE_PATHNAME', 'le_check_name_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_name(text, text) IS
  'internal: value unchanged if it is at most 256 bytes (NULL stays NULL), else SQLSTATE 54000 naming field';
