-- llm_econ 0.2.0 -> 0.3.0 update script, part 00: the guard against \i.  The parts that follow
-- (NN_topic.sql, in name order) each carry one concern's changes.
\echo Use "ALTER EXTENSION llm_econ UPDATE TO '0.3.0'" to load this file. \quit
-- Added in 0.4.0 (security): resolve every name in this script without the installer's schemas
-- (PostgreSQL runs an update with the extension's recorded schema, public or "$user", as
-- search_path, where a planted function could capture an unqualified call to a built-in).
SET search_path = pg_catalog, pg_temp;
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
-- llm_econ 0.2.0 -> 0.3.0, part 20: prices you can trust (issue 12).  Each observation says what
-- kind of source it came from and whether the import checks found it suspect; catalog imports
-- are dated (price_import) so a backfill is reconciled with the next catalog; lookups take
-- max_age, price machine types themselves and read names as people type them; cheapest_offers
-- shows the instance type, its GPUs and the age, and keeps to instances the run can use; the
-- shipped GCP history loses its host-only prices; new SKU, aliases and machine-type counts.
-- Functions whose signature changes are dropped and created as a fresh install has them.

-- The kind of source a new price row comes from: the importers say so for the rows they write
-- (the transaction-local setting llm_econ.import_kind); anything else is entered by hand.
CREATE FUNCTION llm_econ._source_kind() RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT coalesce(nullif(pg_catalog.current_setting('llm_econ.import_kind', true), ''), 'manual') $$;
COMMENT ON FUNCTION llm_econ._source_kind() IS
  'internal: default of price_snapshot.source_kind: the importer''s kind while it writes (llm_econ.import_kind), else manual';

-- (added without a default, filled, then given its default: no stored "missing value", as in a
-- fresh install)
ALTER TABLE llm_econ.price_snapshot
  ADD COLUMN source_kind text
      CHECK (source_kind OPERATOR(pg_catalog.=) ANY (ARRAY['catalog', 'history', 'seed', 'manual'])),
  ADD COLUMN suspect text CHECK (suspect OPERATOR(pg_catalog.<>) '');
COMMENT ON COLUMN llm_econ.price_snapshot.source_kind IS 'what kind of source: catalog (import_skypilot_catalog), history (load_price_history), seed (shipped seed figure), manual (entered by hand, the default)';
COMMENT ON COLUMN llm_econ.price_snapshot.suspect IS 'NULL = passed the import checks; else why the price looks wrong (far from the same provider''s other offers of the SKU, or from the series'' previous price); cheapest_offers leaves suspect rows out unless asked';

-- The id of a price series: a stable 64-bit hash of its key (src/core/series.c says why a hash
-- and what a collision does).  Not STRICT: region and instance_type may be NULL, and NULL is a
-- value of the key.
CREATE FUNCTION llm_econ._series_id(sku text, provider text, pricing text, region text, instance_type text)
RETURNS int8
AS 'MODULE_PATHNAME', 'le_series_id_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._series_id(text, text, text, text, text) IS
  'internal: the id of the price series (sku, provider, pricing, region, instance_type), a stable 64-bit hash; NULL region or instance type count as values';

-- Series ids (src/core/series.c): a generated column on both tables, added after the columns
-- above as a fresh install has it; one observation per series and instant is now keyed by it.
ALTER TABLE llm_econ.price_snapshot
  ADD COLUMN series_id int8 NOT NULL
      GENERATED ALWAYS AS (llm_econ._series_id(sku, provider, pricing, region, instance_type)) STORED;
COMMENT ON COLUMN llm_econ.price_snapshot.series_id IS 'generated: the series'' id, llm_econ._series_id(sku, provider, pricing, region, instance_type) = price_series.series_id';
DROP INDEX llm_econ.price_snapshot_one_observation;
CREATE UNIQUE INDEX price_snapshot_one_observation ON llm_econ.price_snapshot (series_id, observed_at);
ALTER TABLE llm_econ.price_series
  ADD COLUMN series_id int8 NOT NULL
      GENERATED ALWAYS AS (llm_econ._series_id(sku, provider, pricing, region, instance_type)) STORED,
  ADD CONSTRAINT price_series_id PRIMARY KEY (series_id);
COMMENT ON COLUMN llm_econ.price_series.series_id IS 'generated: the series'' id (llm_econ._series_id of the key), what price_snapshot.series_id refers to';

-- The importers' change points, by series id.
CREATE OR REPLACE FUNCTION llm_econ._price_changes(obs_at timestamptz[], provider text[], sku text[], region text[],
                                        pricing text[], usd numeric[], instance_type text[], gpus int4[])
RETURNS TABLE (observed_at timestamptz, provider text, sku text, region text, pricing text, usd numeric,
               instance_type text, gpus int4, is_new boolean, fresh boolean, conflict boolean)
LANGUAGE sql STABLE
AS $$
  WITH cand AS (
         SELECT c.observed_at, c.provider, c.sku, c.region, c.pricing, c.usd, c.instance_type, c.gpus,
                true AS is_new, c.ord,
                llm_econ._series_id(c.sku, c.provider, c.pricing, c.region, c.instance_type) AS series_id
           FROM unnest($1, $2, $3, $4, $5, $6, $7, $8) WITH ORDINALITY
                AS c(observed_at, provider, sku, region, pricing, usd, instance_type, gpus, ord)),
       keys AS (
         SELECT c.provider, c.sku, c.region, c.pricing, c.instance_type, c.series_id, min(c.observed_at) AS first_at
           FROM cand c GROUP BY 1, 2, 3, 4, 5, 6),
       stored AS (
         SELECT o.observed_at, k.provider, k.sku, k.region, k.pricing, o.usd_per_gpu_hour, k.instance_type,
                NULL::int4, false, NULL::bigint, k.series_id
           FROM keys k
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id OPERATOR(pg_catalog.=) k.series_id
                    AND p.observed_at OPERATOR(pg_catalog.<) k.first_at
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id OPERATOR(pg_catalog.=) k.series_id
                    AND p.observed_at OPERATOR(pg_catalog.>=) k.first_at)) AS o),
       seq AS (
         SELECT a.*,
                lag(a.usd) OVER w AS prev_usd,
                -- at this instant: is something stored, is it another price, is this the first candidate
                bool_or(NOT a.is_new) OVER i AS stored_here,
                min(a.usd) OVER i IS DISTINCT FROM max(a.usd) OVER i
                  OR (bool_or(a.usd IS NULL) OVER i AND bool_or(a.usd IS NOT NULL) OVER i) AS clash_here,
                row_number() OVER (PARTITION BY a.series_id, a.observed_at ORDER BY a.is_new, a.ord) AS nth_here
           FROM (SELECT * FROM cand UNION ALL SELECT * FROM stored) AS a
         WINDOW w AS (PARTITION BY a.series_id ORDER BY a.observed_at, a.is_new, a.ord),
                i AS (PARTITION BY a.series_id, a.observed_at))
  SELECT s.observed_at, s.provider, s.sku, s.region, s.pricing, s.usd, s.instance_type, s.gpus, s.is_new,
         s.is_new AND NOT s.stored_here AND s.nth_here = 1 AND s.usd IS DISTINCT FROM s.prev_usd,
         s.is_new AND s.clash_here
    FROM seq s
$$;
COMMENT ON FUNCTION llm_econ._price_changes(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[]) IS
  'internal: annotates candidate observations: fresh = a change point to store; conflict = another price for the same series and instant';


-- The dates at which each provider's catalogs (per source) were imported, even when an import
-- stored nothing new: a catalog imported out of date order is reconciled with the next one.
CREATE TABLE llm_econ.price_import (
    provider     text NOT NULL,
    source       text NOT NULL,
    observed_at  timestamptz NOT NULL,
    PRIMARY KEY (provider, source, observed_at)
);
COMMENT ON TABLE llm_econ.price_import IS
  'the instants at which catalogs of a provider (and source) were imported, written by import_skypilot_catalog; the next one after a backfilled catalog decides which of its series were withdrawn';
COMMENT ON COLUMN llm_econ.price_import.provider IS 'provider, lower case';
COMMENT ON COLUMN llm_econ.price_import.source IS 'price_snapshot.source of the import';
COMMENT ON COLUMN llm_econ.price_import.observed_at IS 'the catalog''s date';
-- Importers record their dates with their own rights: whoever may insert prices may insert here
-- (row security checks the price_snapshot privilege), nobody else.
ALTER TABLE llm_econ.price_import ENABLE ROW LEVEL SECURITY;
CREATE POLICY price_import_read ON llm_econ.price_import FOR SELECT USING (true);
CREATE POLICY price_import_write ON llm_econ.price_import FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege('llm_econ.price_snapshot', 'INSERT'));

SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_import', '');
GRANT SELECT, INSERT ON llm_econ.price_import TO PUBLIC;

-- Rows stored before 0.3.0: the kind of source, as far as it can be told.  Shipped rows are the
-- seed table or the GCP history; catalog imports name themselves in their source; a user row
-- with a machine type and its GPU count, or a withdrawal, came from load_price_history; the
-- rest were entered by hand.
UPDATE llm_econ.price_snapshot SET source_kind = CASE
    WHEN builtin AND provider OPERATOR(pg_catalog.=) 'gcp' THEN 'history'
    WHEN builtin THEN 'seed'
    WHEN source OPERATOR(pg_catalog.~~) 'SkyPilot catalog vms.csv (%)' THEN 'catalog'
    WHEN usd_per_gpu_hour IS NULL OR (instance_type IS NOT NULL AND gpus_per_instance IS NOT NULL) THEN 'history'
    ELSE 'manual' END;
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT llm_econ._source_kind(),
                                    ALTER COLUMN source_kind SET NOT NULL;
-- Catalog dates already stored: every instant a catalog import wrote a row.
INSERT INTO llm_econ.price_import (provider, source, observed_at)
SELECT DISTINCT provider, source, observed_at FROM llm_econ.price_snapshot
 WHERE source OPERATOR(pg_catalog.~~) 'SkyPilot catalog vms.csv (%)';

-- The shipped GCP history's host-only prices (data/gcp_gpu_price_history_corrections.csv,
-- data/NOTICE.md): the same rows a fresh install deletes after loading.
DELETE FROM llm_econ.price_snapshot p
 WHERE p.builtin AND p.provider = 'gcp' AND p.usd_per_gpu_hour IS NOT NULL
   AND ((p.region = 'northamerica-northeast2' AND p.instance_type LIKE 'a2-highgpu-%' AND p.observed_at >= '2022-02-09 23:07:12+00' AND p.observed_at < '2024-08-17 12:36:16+00' AND p.usd_per_gpu_hour < 2::numeric)
        OR (p.region = 'northamerica-northeast2' AND p.instance_type LIKE 'a2-megagpu-%' AND p.observed_at >= '2022-02-09 23:07:12+00' AND p.observed_at < '2024-08-17 12:36:16+00' AND p.usd_per_gpu_hour < 2::numeric)
        OR (p.instance_type LIKE 'a3-megagpu-%' AND p.observed_at >= '2024-08-17 10:14:16+00' AND p.observed_at < '2024-08-17 12:36:15+00' AND p.usd_per_gpu_hour < 3::numeric));
DELETE FROM llm_econ.price_series s
 WHERE NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p WHERE p.series_id = s.series_id);

-- The new SKU and aliases (data/gpu_sku.csv, data/gpu_sku_alias.csv), as a fresh install has them.
-- gpu_sku by position (the column list may be renamed by another part of this update)
INSERT INTO llm_econ.gpu_sku VALUES
  ('A100-40GB-PCIe', 'NVIDIA', 'NVIDIA A100 40GB PCIe', 40, 1555, 19.5, 156, 312, 312, NULL, NULL, 64, 8, 250, NULL, NULL, '2020-06-01', 'NVIDIA A100 Tensor Core GPU datasheet r4 (A100 40GB PCIe: 1,555 GB/s HBM2, FP32 19.5, TF32 156, BF16/FP16 312 TFLOPS dense (sparse halved), 250 W, PCIe Gen4 64 GB/s; the 2-GPU NVLink bridge is not an NVLink domain and is not counted); PCIe card announced 2020-06-22 (NVIDIA press release, ISC 2020); Lambda gpu_1x/2x/4x_a100 = A100 40 GB PCIe (Lambda Cloud instance list: 1x A100 (40 GB PCIe))', true);
INSERT INTO llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source, builtin) VALUES
  ('1x_A100-80GB-SXM_SECURE', 'A100-80GB', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A100-80GB-SXM = A100-80GB (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_A100-80GB-SXM_SECURE', 'A100-80GB', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A100-80GB-SXM = A100-80GB (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_A100-80GB-SXM_SECURE', 'A100-80GB', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A100-80GB-SXM = A100-80GB (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_A100-80GB-SXM_SECURE', 'A100-80GB', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A100-80GB-SXM = A100-80GB (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_A40_SECURE', 'A40', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A40 = A40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_A40_SECURE', 'A40', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A40 = A40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_A40_SECURE', 'A40', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A40 = A40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_A40_SECURE', 'A40', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod A40 = A40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_H100-SXM_SECURE', 'H100-SXM5', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod H100-SXM = H100-SXM5 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_H100-SXM_SECURE', 'H100-SXM5', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod H100-SXM = H100-SXM5 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_H100-SXM_SECURE', 'H100-SXM5', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod H100-SXM = H100-SXM5 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_H100-SXM_SECURE', 'H100-SXM5', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod H100-SXM = H100-SXM5 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_L4_SECURE', 'L4', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L4 = L4 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_L4_SECURE', 'L4', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L4 = L4 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_L4_SECURE', 'L4', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L4 = L4 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_L4_SECURE', 'L4', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L4 = L4 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_L40_SECURE', 'L40', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L40 = L40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_L40_SECURE', 'L40', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L40 = L40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_L40_SECURE', 'L40', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L40 = L40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_L40_SECURE', 'L40', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod L40 = L40 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTX3090_SECURE', 'RTX-3090', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX3090 = RTX-3090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTX3090_SECURE', 'RTX-3090', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX3090 = RTX-3090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTX3090_SECURE', 'RTX-3090', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX3090 = RTX-3090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTX3090_SECURE', 'RTX-3090', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX3090 = RTX-3090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTX4000-Ada_SECURE', 'RTX-4000-Ada', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4000-Ada = RTX-4000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTX4000-Ada_SECURE', 'RTX-4000-Ada', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4000-Ada = RTX-4000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTX4000-Ada_SECURE', 'RTX-4000-Ada', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4000-Ada = RTX-4000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTX4000-Ada_SECURE', 'RTX-4000-Ada', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4000-Ada = RTX-4000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTX4090_SECURE', 'RTX-4090', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4090 = RTX-4090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTX4090_SECURE', 'RTX-4090', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4090 = RTX-4090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTX4090_SECURE', 'RTX-4090', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4090 = RTX-4090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTX4090_SECURE', 'RTX-4090', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX4090 = RTX-4090 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTX6000-Ada_SECURE', 'RTX-6000-Ada', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX6000-Ada = RTX-6000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTX6000-Ada_SECURE', 'RTX-6000-Ada', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX6000-Ada = RTX-6000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTX6000-Ada_SECURE', 'RTX-6000-Ada', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX6000-Ada = RTX-6000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTX6000-Ada_SECURE', 'RTX-6000-Ada', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTX6000-Ada = RTX-6000-Ada (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTXA4000_SECURE', 'RTX-A4000', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4000 = RTX-A4000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTXA4000_SECURE', 'RTX-A4000', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4000 = RTX-A4000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTXA4000_SECURE', 'RTX-A4000', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4000 = RTX-A4000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTXA4000_SECURE', 'RTX-A4000', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4000 = RTX-A4000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTXA4500_SECURE', 'RTX-A4500', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4500 = RTX-A4500 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTXA4500_SECURE', 'RTX-A4500', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4500 = RTX-A4500 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTXA4500_SECURE', 'RTX-A4500', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4500 = RTX-A4500 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTXA4500_SECURE', 'RTX-A4500', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA4500 = RTX-A4500 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTXA5000_SECURE', 'RTX-A5000', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA5000 = RTX-A5000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTXA5000_SECURE', 'RTX-A5000', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA5000 = RTX-A5000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTXA5000_SECURE', 'RTX-A5000', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA5000 = RTX-A5000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTXA5000_SECURE', 'RTX-A5000', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA5000 = RTX-A5000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('1x_RTXA6000_SECURE', 'RTX-A6000', 1, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA6000 = RTX-A6000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('2x_RTXA6000_SECURE', 'RTX-A6000', 2, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA6000 = RTX-A6000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('4x_RTXA6000_SECURE', 'RTX-A6000', 4, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA6000 = RTX-A6000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('8x_RTXA6000_SECURE', 'RTX-A6000', 8, 'SkyPilot RunPod catalog 2024-01-08 instance type; GPUs per instance = the count in the name (Nx_...), as the catalog''s AcceleratorCount; RunPod RTXA6000 = RTX-A6000 (sky/provision/runpod/utils.py GPU_NAME_MAP)', true),
  ('gpu_1x_a100', 'A100-40GB-PCIe', 1, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_1x_a100 = 1x A100 (40 GB PCIe)', true),
  ('gpu_2x_a100', 'A100-40GB-PCIe', 2, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_2x_a100 = 2x A100 (40 GB PCIe)', true),
  ('gpu_4x_a100', 'A100-40GB-PCIe', 4, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_4x_a100 = 4x A100 (40 GB PCIe)', true),
  ('gpu_8x_a100', 'A100-40GB', 8, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_8x_a100 = 8x A100 (40 GB SXM4)', true),
  ('gpu_1x_h100_sxm5', 'H100-SXM5', 1, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_1x_h100_sxm5 = 1x H100 (80 GB SXM5)', true),
  ('gpu_2x_h100_sxm5', 'H100-SXM5', 2, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_2x_h100_sxm5 = 2x H100 (80 GB SXM5)', true),
  ('gpu_4x_h100_sxm5', 'H100-SXM5', 4, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_4x_h100_sxm5 = 4x H100 (80 GB SXM5)', true),
  ('gpu_8x_h100_sxm5', 'H100-SXM5', 8, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_8x_h100_sxm5 = 8x H100 (80 GB SXM5)', true),
  ('gpu_1x_a100_80gb_sxm4', 'A100-80GB', 1, 'Lambda Cloud instance types (Lambda Cloud API instance-types list; SkyPilot Lambda catalog 2023-06-15 AcceleratorName/AcceleratorCount): gpu_1x_a100_80gb_sxm4 = 1x A100 (80 GB SXM4)', true),
  ('Standard_ND96isr_H100_v5', 'H100-SXM5', 8, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): ND H100 v5 series, 8x NVIDIA H100 80GB SXM (NVLink 4.0) per VM; SkyPilot Azure catalogs list it with AcceleratorCount 12, a wrong upstream count', true),
  ('Standard_ND96amsr_A100_v4', 'A100-80GB', 8, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NDm A100 v4 series, 8x NVIDIA A100 80GB SXM (NVLink 3.0) per VM', true),
  ('Standard_ND96asr_v4', 'A100-40GB', 8, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): ND A100 v4 series, 8x NVIDIA A100 40GB SXM (NVLink 3.0) per VM', true),
  ('Standard_NC24ads_A100_v4', 'A100-80GB-PCIe', 1, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NC A100 v4 series, 1x NVIDIA A100 80GB PCIe', true),
  ('Standard_NC48ads_A100_v4', 'A100-80GB-PCIe', 2, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NC A100 v4 series, 2x NVIDIA A100 80GB PCIe', true),
  ('Standard_NC96ads_A100_v4', 'A100-80GB-PCIe', 4, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NC A100 v4 series, 4x NVIDIA A100 80GB PCIe', true),
  ('Standard_NC4as_T4_v3', 'T4', 1, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NCasT4_v3 series, 1x NVIDIA T4', true),
  ('Standard_NC8as_T4_v3', 'T4', 1, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NCasT4_v3 series, 1x NVIDIA T4', true),
  ('Standard_NC16as_T4_v3', 'T4', 1, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NCasT4_v3 series, 1x NVIDIA T4', true),
  ('Standard_NC64as_T4_v3', 'T4', 4, 'Azure VM sizes documentation (learn.microsoft.com/azure/virtual-machines/sizes): NCasT4_v3 series, 4x NVIDIA T4', true),
  ('A100-SXM4-80GB', 'A100-80GB', NULL, 'nvidia-smi product name of the A100 80GB SXM4 without the vendor prefix (NVIDIA A100-SXM4-80GB)', true),
  ('A100-SXM4-40GB', 'A100-40GB', NULL, 'nvidia-smi product name of the A100 40GB SXM4 without the vendor prefix (NVIDIA A100-SXM4-40GB)', true),
  ('A100-PCIe', 'A100-40GB-PCIe', NULL, 'NVIDIA A100 datasheet r4 naming (A100 40GB PCIe); Lambda gpu_1x_a100 has PCIe in its description', true);

-- Functions whose signature or result changes: dropped, then created as in a fresh install.
DROP FUNCTION llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text);
DROP FUNCTION llm_econ.price_twap(text, text, text, tstzrange, text);
DROP FUNCTION llm_econ.price_at(text, text, text, timestamptz, text);
DROP FUNCTION llm_econ.estimate_cost(llm_econ.run_spec, text, text, timestamptz, text);
DROP FUNCTION llm_econ._latest_prices(text, text, text, timestamptz, text);
DROP FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz);
DROP FUNCTION llm_econ._skypilot_offers(text, text);

-- Names as people type them: case, spaces, '-' and '_' do not matter ('H100 80GB' = 'h100-80gb').
CREATE FUNCTION llm_econ._name_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.lower(pg_catalog.translate($1, ' -_', '')) $$;
COMMENT ON FUNCTION llm_econ._name_key(text) IS
  'internal: a name as compared: lower case, without spaces, hyphens and underscores';

-- max_age must be a non-negative interval (NULL = no bound).
CREATE FUNCTION llm_econ._check_max_age(max_age interval) RETURNS interval
AS 'MODULE_PATHNAME', 'le_check_max_age_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_max_age(interval) IS 'internal: returns max_age if it is NULL or an interval >= 0 (no negative part), else raises 22023';

-- t + by that never fails: past either end of the timestamp range it is -infinity or infinity
-- (an age bound reaching past the range bounds nothing; PostgreSQL's + raises 22008 there).
CREATE FUNCTION llm_econ._shift(t timestamptz, by interval) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'le_shift_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._shift(timestamptz, interval) IS 'internal: t + by, or -infinity/infinity when the sum is outside the timestamp range (no error)';

-- The as-of core every lookup shares: for each series of (sku, provider, pricing) in region
-- (NULL = any; as given, lower- or upper-cased, so the series key's index still serves) and of instance type itype (NULL = any), its latest observation
-- at or before "at", unless that observation is a withdrawal or older than max_age (NULL = no
-- bound).  One index probe per series (price_snapshot_one_observation), so the cost grows with
-- the number of series and log(history), not with the history.  A plain SQL function: the
-- planner inlines it, and sku, provider and pricing are equalities on price_series' key even in
-- a generic plan.
CREATE FUNCTION llm_econ._latest_prices(sku text, provider text, pricing text, at timestamptz, region text,
                                        itype text, max_age interval)
RETURNS TABLE (provider text, region text, instance_type text, pricing text,
               observed_at timestamptz, usd_per_gpu_hour numeric, gpus_per_instance int4,
               source_kind text, suspect text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT s.provider, s.region, s.instance_type, s.pricing, o.observed_at, o.usd_per_gpu_hour,
         o.gpus_per_instance, o.source_kind, o.suspect
    FROM llm_econ.price_series s
   CROSS JOIN LATERAL (
         SELECT p.observed_at, p.usd_per_gpu_hour, p.gpus_per_instance, p.source_kind, p.suspect
           FROM llm_econ.price_snapshot p
          WHERE p.series_id OPERATOR(pg_catalog.=) s.series_id
            AND p.observed_at OPERATOR(pg_catalog.<=) $4
          ORDER BY p.observed_at DESC
          LIMIT 1) o
   WHERE s.sku OPERATOR(pg_catalog.=) $1
     AND s.provider OPERATOR(pg_catalog.=) $2
     AND s.pricing OPERATOR(pg_catalog.=) $3
     AND ($5 IS NULL OR s.region OPERATOR(pg_catalog.=) ANY (ARRAY[$5, pg_catalog.lower($5), pg_catalog.upper($5)]))
     AND ($6 IS NULL OR llm_econ._name_key(s.instance_type) OPERATOR(pg_catalog.=) llm_econ._name_key($6))
     AND o.usd_per_gpu_hour IS NOT NULL
     AND ($7 IS NULL OR o.observed_at OPERATOR(pg_catalog.>=) llm_econ._shift($4, OPERATOR(pg_catalog.-) $7))
$$;
COMMENT ON FUNCTION llm_econ._latest_prices(text, text, text, timestamptz, text, text, interval) IS
  'internal: the price in effect at "at" of every series of a gpu_sku key, provider and pricing in region (NULL = any) and instance type (NULL = any); withdrawn series and observations older than max_age left out';

CREATE FUNCTION llm_econ.price_at(sku text, provider text, pricing text DEFAULT 'on_demand',
                                  at timestamptz DEFAULT pg_catalog.now(), region text DEFAULT NULL,
                                  max_age interval DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'le_price_at_fn' LANGUAGE C STABLE PARALLEL SAFE COST 100;
COMMENT ON FUNCTION llm_econ.price_at(text, text, text, timestamptz, text, interval) IS
  '$/GPU-hour in effect at "at" (latest observation at or before it; withdrawn series and observations older than max_age excluded); sku may be an instance type (that machine''s price); region NULL = cheapest region; NULL when nothing is known; an unknown provider or region is an error';

CREATE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec, provider text, pricing text DEFAULT 'on_demand',
                                       at timestamptz DEFAULT pg_catalog.now(), region text DEFAULT NULL,
                                       max_age interval DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'le_estimate_cost_at_fn' LANGUAGE C STABLE PARALLEL SAFE COST 100;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec, text, text, timestamptz, text, interval) IS
  'compute cost in USD at the provider''s price in effect at "at" (see price_at; max_age bounds the observation''s age); an error when no price is known';

CREATE OR REPLACE FUNCTION llm_econ._check_pricing(pricing text) RETURNS text
AS 'MODULE_PATHNAME', 'le_check_pricing_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_pricing(text) IS
  'internal: the canonical pricing (on_demand, spot or reserved; any case) or NULL for NULL, else raises 22023';

CREATE OR REPLACE FUNCTION llm_econ._sku_key(sku text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_key_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_key(text) IS
  'internal: the gpu_sku key a name means (key, alias or instance type; case, spaces, - and _ ignored); 22023 with close matches when unknown';

CREATE FUNCTION llm_econ._sku_itype(sku text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_itype_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_itype(text) IS
  'internal: the instance type a name means when it names one (an alias with gpus_per_instance), else NULL';

CREATE FUNCTION llm_econ._check_where(provider text, region text) RETURNS void
AS 'MODULE_PATHNAME', 'le_check_where_fn' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_where(text, text) IS
  'internal: raises 22023 with close matches when provider (or region of that provider) has no price series at all';

-- Time-weighted average: each series' price holds from its observation to the next one (or a
-- withdrawal, or until it is max_age old); at every instant of the period the cheapest series in
-- effect counts; instants where nothing is in effect are left out of the average.  NULL when
-- nothing was in effect.
CREATE FUNCTION llm_econ.price_twap(sku text, provider text, pricing text, during tstzrange,
                                    region text DEFAULT NULL, max_age interval DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key text;
  itype text;
  pr text;
  prov text;
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
  PERFORM llm_econ._check_name(provider, 'provider'), llm_econ._check_name(region, 'region');
  itype := llm_econ._sku_itype(sku);
  pr := llm_econ._check_pricing(pricing);
  PERFORM llm_econ._check_max_age(max_age);
  prov := lower(btrim(price_twap.provider));
  WITH series AS (
         SELECT s.* FROM llm_econ.price_series s
          WHERE s.sku = key AND s.provider = prov AND s.pricing = pr
            AND (price_twap.region IS NULL OR s.region = ANY (ARRAY[price_twap.region, lower(price_twap.region), upper(price_twap.region)]))
            AND (itype IS NULL OR llm_econ._name_key(s.instance_type) = llm_econ._name_key(itype))),
       obs AS (     -- each series: its observation in effect at the start, and those inside the period
         SELECT s.series_id, o.observed_at, o.usd_per_gpu_hour
           FROM series s
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at <= lower(during)
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at > lower(during) AND p.observed_at < upper(during))) o),
       spans AS (   -- [a, b): when each observation holds (at most max_age), clipped to the period
         SELECT greatest(obs.observed_at, lower(during)) AS a,
                least(coalesce(lead(obs.observed_at) OVER w, upper(during)), upper(during),
                      CASE WHEN max_age IS NULL THEN upper(during) ELSE llm_econ._shift(obs.observed_at, max_age) END) AS b,
                obs.usd_per_gpu_hour AS p
           FROM obs WINDOW w AS (PARTITION BY obs.series_id ORDER BY obs.observed_at)),
       cuts AS (SELECT a AS t FROM spans UNION SELECT b FROM spans),
       pieces AS (SELECT t AS a, lead(t) OVER (ORDER BY t) AS b FROM cuts),
       cheapest AS (
         SELECT x.a, x.b, min(s.p) AS p
           FROM pieces x JOIN spans s ON s.a <= x.a AND s.b >= x.b AND s.p IS NOT NULL
          WHERE x.b IS NOT NULL AND x.b > x.a
          GROUP BY x.a, x.b)
  SELECT sum(p * extract(epoch FROM b - a)) / nullif(sum(extract(epoch FROM b - a)), 0)
    INTO result FROM cheapest;
  IF result IS NULL THEN
    PERFORM llm_econ._check_where(prov, price_twap.region);
  END IF;
  RETURN result;
END $$;
COMMENT ON FUNCTION llm_econ.price_twap(text, text, text, tstzrange, text, interval) IS
  'time-weighted average $/GPU-hour over the period: at each instant the cheapest series in effect (region NULL = any region; an observation counts for at most max_age); time with no price in effect is left out; NULL when nothing was in effect';

-- Every (provider, region, pricing) offer of the spec's SKU in effect at "at" that a run of the
-- spec's size can use (a run on more GPUs than one instance holds needs instances of at least
-- gpus_per_node GPUs; offers of unknown size are kept and show NULL), the cheapest usable
-- instance type of each, with the run's wall time and cost there, cheapest first.
CREATE FUNCTION llm_econ.cheapest_offers(spec llm_econ.run_spec, at timestamptz DEFAULT pg_catalog.now(),
                                         pricing text DEFAULT NULL, max_age interval DEFAULT NULL,
                                         source_kinds text[] DEFAULT NULL, include_suspect boolean DEFAULT false)
RETURNS TABLE (provider text, region text, pricing text, usd_per_gpu_hour numeric,
               observed_at timestamptz, wall_time interval, cost_usd numeric,
               instance_type text, gpus_per_instance int4, age interval, source_kind text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT o.provider, o.region, o.pricing, o.usd_per_gpu_hour, o.observed_at,
         llm_econ.mfu_time($1), llm_econ.estimate_cost($1, o.usd_per_gpu_hour),
         o.instance_type, o.gpus_per_instance, $2 OPERATOR(pg_catalog.-) o.observed_at, o.source_kind
    FROM (SELECT DISTINCT ON (l.provider, l.region, l.pricing) l.*
            FROM (SELECT DISTINCT ps.provider, ps.pricing FROM llm_econ.price_series ps
                   WHERE ps.sku OPERATOR(pg_catalog.=) ($1).sku
                     AND (llm_econ._check_pricing($3) IS NULL
                          OR ps.pricing OPERATOR(pg_catalog.=) llm_econ._check_pricing($3))) AS pp
           CROSS JOIN LATERAL llm_econ._latest_prices(($1).sku, pp.provider, pp.pricing, $2, NULL, NULL,
                                                      llm_econ._check_max_age($4)) AS l
           WHERE ($5 IS NULL OR l.source_kind OPERATOR(pg_catalog.=) ANY ($5))
             AND ($6 OR l.suspect IS NULL)
             AND (l.gpus_per_instance IS NULL
                  OR ($1).n_gpus OPERATOR(pg_catalog.<=) l.gpus_per_instance
                  OR l.gpus_per_instance OPERATOR(pg_catalog.>=) ($1).gpus_per_node)
           ORDER BY l.provider, l.region, l.pricing, l.usd_per_gpu_hour, l.instance_type) AS o
   ORDER BY 7, 1, 2, 3
$$;
COMMENT ON FUNCTION llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text, interval, text[], boolean) IS
  'every (provider, region, pricing) offer of the spec''s SKU in effect at "at" that a run of the spec''s size can use (more GPUs than one instance: instances of at least gpus_per_node GPUs), the cheapest usable instance type of each, with wall time, total cost, instance type, GPUs per instance, age and source kind, cheapest first; pricing NULL = all; max_age bounds the age; source_kinds NULL = all kinds; suspect prices only when include_suspect';

CREATE OR REPLACE VIEW llm_econ.price_history WITH (security_invoker = true) AS
  SELECT p.observed_at AS "time", p.sku, p.provider, p.region, p.pricing, p.usd_per_gpu_hour,
         p.instance_type, p.source, p.source_kind, p.gpus_per_instance, p.suspect
    FROM llm_econ.price_snapshot p;
COMMENT ON VIEW llm_econ.price_history IS
  'every price observation with a "time" column for dashboards; a NULL usd_per_gpu_hour marks a withdrawal (a gap in the series)';
COMMENT ON COLUMN llm_econ.price_history."time" IS 'when the price was first seen (observed_at)';
COMMENT ON COLUMN llm_econ.price_history.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_history.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_history.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_history.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_history.usd_per_gpu_hour IS 'USD per GPU-hour; NULL = withdrawn';
COMMENT ON COLUMN llm_econ.price_history.instance_type IS 'machine type';
COMMENT ON COLUMN llm_econ.price_history.source IS 'where the observation comes from';
COMMENT ON COLUMN llm_econ.price_history.source_kind IS 'catalog, history, seed or manual';
COMMENT ON COLUMN llm_econ.price_history.gpus_per_instance IS 'GPUs in the machine type';
COMMENT ON COLUMN llm_econ.price_history.suspect IS 'NULL = passed the import checks; else why the price looks wrong';

CREATE FUNCTION llm_econ._skypilot_offers(cloud text, catalog_csv text,
    OUT accelerator text, OUT variant text, OUT instance_type text, OUT region text,
    OUT pricing text, OUT usd_per_gpu_hour numeric, OUT gpus_per_instance int4, OUT catalog_rows int4,
    OUT usd_per_hour numeric)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_skypilot_offers' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._skypilot_offers(text, text) IS
  'internal: parses one SkyPilot vms.csv into per-GPU offers (cheapest zone per region; GCP host + accelerator) with the instance price per hour; used by import_skypilot_catalog';

-- The GPUs per machine gpu_sku_alias knows for a machine type (NULL: unknown).
CREATE OR REPLACE FUNCTION llm_econ._sku_find(name text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_find_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_find(text) IS 'internal: the gpu_sku key of a name or alias (case, spaces, - and _ ignored; exact spelling first, keys before aliases), or NULL';

CREATE FUNCTION llm_econ._known_gpus(instance_type text) RETURNS int4
AS 'MODULE_PATHNAME', 'le_known_gpus_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._known_gpus(text) IS 'internal: GPUs per machine of a machine type per gpu_sku_alias (exact spelling first), or NULL when unknown';

-- A catalog price is suspect when it is more than 3x away (either way) from the median of the
-- same provider's offers of that SKU and pricing in effect at the same instant (once the
-- statement's rows are stored: the catalog's other regions and instance sizes; at least three
-- offers), or from the series' previous price.  Never across providers: a neocloud is
-- legitimately several times cheaper than a hyperscaler.  An AFTER INSERT statement trigger on
-- price_snapshot, run with the owner's rights (importers need no UPDATE on price_snapshot), for
-- the rows of kind catalog: one peer lookup per (provider, SKU, pricing, instant) of the
-- statement and one index probe per row.
CREATE FUNCTION llm_econ._flag_suspect() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_WHEN <> 'AFTER'
     OR TG_LEVEL <> 'STATEMENT' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'llm_econ._flag_suspect() fires only as the AFTER INSERT statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  WITH mine AS MATERIALIZED (
         SELECT n.id, n.provider, n.sku, n.pricing, n.series_id, n.observed_at, n.usd_per_gpu_hour
           FROM new_rows n WHERE n.source_kind = 'catalog' AND n.usd_per_gpu_hour IS NOT NULL),
       peers AS MATERIALIZED (
         SELECT g.provider, g.sku, g.pricing, g.observed_at, x.n, x.med
           FROM (SELECT DISTINCT m.provider, m.sku, m.pricing, m.observed_at FROM mine m) AS g
          CROSS JOIN LATERAL (
                SELECT count(*) AS n, percentile_disc(0.5::float8) WITHIN GROUP (ORDER BY l.usd_per_gpu_hour) AS med
                  FROM llm_econ._latest_prices(g.sku, g.provider, g.pricing, g.observed_at, NULL, NULL, NULL) l) AS x),
       checked AS MATERIALIZED (
         SELECT m.id,
                CASE
                  WHEN peer.n >= 3::int8 AND (m.usd_per_gpu_hour > 3::numeric * peer.med OR m.usd_per_gpu_hour * 3::numeric < peer.med)
                    THEN format('%s x the median %s of the %s %s offers of %s at that instant',
                                round(m.usd_per_gpu_hour / peer.med, 2), peer.med, peer.n, m.provider, m.sku)
                  WHEN prev.usd_per_gpu_hour IS NOT NULL
                       AND (m.usd_per_gpu_hour > 3::numeric * prev.usd_per_gpu_hour OR m.usd_per_gpu_hour * 3::numeric < prev.usd_per_gpu_hour)
                    THEN format('%s x the series'' previous price %s (%s)',
                                round(m.usd_per_gpu_hour / prev.usd_per_gpu_hour, 2), prev.usd_per_gpu_hour, prev.observed_at)
                END AS why
           FROM mine m
           JOIN peers peer ON peer.provider = m.provider AND peer.sku = m.sku AND peer.pricing = m.pricing
                          AND peer.observed_at = m.observed_at
           LEFT JOIN LATERAL (
                 SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = m.series_id AND p.observed_at < m.observed_at
                  ORDER BY p.observed_at DESC LIMIT 1) AS prev ON true)
  UPDATE llm_econ.price_snapshot p SET suspect = c.why
    FROM checked c WHERE p.id = c.id AND c.why IS NOT NULL;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._flag_suspect() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._flag_suspect() IS
  'trigger: marks new catalog prices more than 3x from the median of the provider''s offers of the SKU and pricing at that instant, or from the series'' previous price (price_snapshot.suspect); only an INSERT into price_snapshot fires it';
CREATE TRIGGER price_snapshot_suspect AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._flag_suspect();

CREATE FUNCTION llm_econ.import_skypilot_catalog(cloud text, catalog_csv text, observed_at timestamptz,
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
    RAISE NOTICE 'skipped % catalog rows', skipped USING DETAIL = cv.skip_why || '.';
  END IF;
  IF corrected > 0 THEN
    RAISE NOTICE 'corrected the GPU count of % catalog offers', corrected
      USING DETAIL = cv.corrected_why || '.', HINT = 'The count in llm_econ.gpu_sku_alias wins over the catalog''s; per-GPU prices use it.';
  END IF;
  IF unverified > 0 THEN
    RAISE NOTICE '% machine types have no known GPU count and were priced with the catalog''s', unverified
      USING DETAIL = 'Those machine types: ' || left(cv.unverified_why, 500) || '.', HINT = 'Add them to llm_econ.gpu_sku_alias with gpus_per_instance.';
  END IF;
  IF suspect > 0 THEN
    RAISE NOTICE '% prices are more than 3x from the same provider''s other offers of the SKU or from the series'' previous price', suspect
      USING HINT = 'They are stored with price_snapshot.suspect set; cheapest_offers leaves them out unless include_suspect => true.';
  END IF;
END $$;
COMMENT ON FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz) IS
  'imports one SkyPilot vms.csv (any cloud; columns found by header name) as one dated snapshot of per-GPU prices: new rows only where a series'' price changes; the GPU count gpu_sku_alias knows wins over the catalog''s (corrected), machine types without a known count are reported (unverified), prices more than 3x from the same provider''s other offers or the previous price are flagged (suspect); skipped rows are counted with a NOTICE naming the fix; series an earlier catalog listed and this one does not are withdrawn, and a backfilled catalog is reconciled with the next later one';

-- llm_econ 0.2.0 -> 0.3.0, part 30: finance (tenant-keyed plans, plans re-priced on change, charge identity, deliveries, currencies, staged FOCUS loads, plan_vs_actual with untagged rows and the variance split).
-- Statements are the ones of src/sql/finance.sql and src/sql/reports.sql, so an updated database equals a fresh one.

-- Plans are keyed by (tenant, run_id): two tenants may use the same run id.
ALTER TABLE llm_econ.run_plan DROP CONSTRAINT run_plan_pkey;
ALTER TABLE llm_econ.run_plan ADD CONSTRAINT run_plan_pkey PRIMARY KEY (tenant, run_id);
COMMENT ON TABLE llm_econ.run_plan IS
  'planned runs, keyed by (tenant, run_id): the spec (hardware frozen in it) and the price in effect at planned_at, with GPU-hours and USD frozen when the plan is made';
COMMENT ON COLUMN llm_econ.run_plan.run_id IS 'the run''s id within its tenant; billing lines of the tenant name it in the run_id tag';

-- Freezes a plan.  A new plan (planned_usd or planned_gpu_hours not given), or an update that
-- changes what it was priced from: checks the SKU (it may have been built by hand), fills the
-- price from the price table when it is NULL, and computes GPU-hours and USD from the row, so
-- later edits of gpu_sku or price_snapshot never change a plan.  A row that arrives frozen
-- (pg_restore, a copy between databases) keeps its values: restoring must not re-price a plan
-- or fail because its SKU was renamed or deleted since.
-- STABLE: every row of one INSERT is priced from the statement's snapshot.
CREATE OR REPLACE FUNCTION llm_econ._freeze_plan() RETURNS trigger
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NEW.spec IS NULL THEN
    RAISE EXCEPTION 'spec must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._check_spec(NEW.spec);             -- a hand-built spec is checked like the constructor's
  IF TG_OP = 'INSERT' AND NEW.planned_usd IS NOT NULL AND NEW.planned_gpu_hours IS NOT NULL
     AND NEW.usd_per_gpu_hour IS NOT NULL THEN
    -- already frozen: keep the values, but only sane ones
    IF NOT (NEW.planned_gpu_hours >= 0::float8 AND NEW.planned_gpu_hours < 'Infinity'::float8) THEN
      RAISE EXCEPTION 'planned_gpu_hours must be in [0, Infinity), got %', NEW.planned_gpu_hours
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT (NEW.planned_usd >= 0::numeric AND NEW.planned_usd < 'Infinity'::numeric) THEN
      RAISE EXCEPTION 'planned_usd must be in [0, Infinity), got %', NEW.planned_usd
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- and only values this spec and price give (to a millionth: a later version may round differently)
    IF abs(NEW.planned_gpu_hours - llm_econ.gpu_hours(NEW.spec)) > 1e-6::float8 * greatest(1::float8, NEW.planned_gpu_hours)
       OR abs(NEW.planned_usd - llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour))
          > 0.000001::numeric * greatest(1::numeric, NEW.planned_usd) THEN
      RAISE EXCEPTION 'planned_gpu_hours and planned_usd must be what the spec and usd_per_gpu_hour give'
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = format('Got %s GPU-hours and %s USD; the spec gives %s GPU-hours and %s USD.',
                              NEW.planned_gpu_hours, NEW.planned_usd, llm_econ.gpu_hours(NEW.spec),
                              llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour)),
              HINT = 'Leave them NULL: they are computed when the plan is made.';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.spec::text = OLD.spec::text AND NEW.provider = OLD.provider AND NEW.pricing = OLD.pricing
       AND NEW.region IS NOT DISTINCT FROM OLD.region AND NEW.planned_at = OLD.planned_at
       AND NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour THEN
      -- nothing the plan was priced from changed (notes, team, ...): it stays frozen, and a
      -- hand edit of planned_usd or planned_gpu_hours is undone
      NEW.planned_usd := OLD.planned_usd;
      NEW.planned_gpu_hours := OLD.planned_gpu_hours;
      RETURN NEW;
    END IF;
    -- the provider, pricing, region, planned_at or the spec's SKU changed and the UPDATE did not
    -- set the price itself: the plan is re-priced from the price table, never left at the old price
    IF NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour
       AND (NEW.provider <> OLD.provider OR NEW.pricing <> OLD.pricing
            OR NEW.region IS DISTINCT FROM OLD.region OR NEW.planned_at <> OLD.planned_at
            OR (NEW.spec).sku IS DISTINCT FROM (OLD.spec).sku) THEN
      NEW.usd_per_gpu_hour := NULL;
    END IF;
  END IF;
  PERFORM llm_econ._sku_key((NEW.spec).sku);          -- unknown SKU: 22023 with close matches
  IF NEW.usd_per_gpu_hour IS NULL THEN
    NEW.usd_per_gpu_hour := llm_econ.price_at((NEW.spec).sku, NEW.provider, NEW.pricing, NEW.planned_at, NEW.region);
    IF NEW.usd_per_gpu_hour IS NULL THEN
      RAISE EXCEPTION 'no % price is known for sku "%" from provider "%" at %', NEW.pricing, (NEW.spec).sku,
                      NEW.provider, NEW.planned_at
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Give usd_per_gpu_hour, or add the price to llm_econ.price_snapshot.';
    END IF;
  END IF;
  NEW.planned_usd := llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour);   -- checks the spec and the price
  NEW.planned_gpu_hours := llm_econ.gpu_hours(NEW.spec);
  RETURN NEW;
END $$;
COMMENT ON FUNCTION llm_econ._freeze_plan() IS
  'trigger: validates a plan and freezes its price, GPU-hours and USD; an UPDATE of provider, pricing, region, planned_at or the spec''s SKU re-prices it (from the price table unless the UPDATE sets usd_per_gpu_hour), an UPDATE of other spec fields recomputes GPU-hours and USD at the plan''s price, anything else keeps it frozen';

-- Spend: billing account and delivery (restatements), the charge identity.
ALTER TABLE llm_econ.spend ADD COLUMN billing_account_id text, ADD COLUMN delivery text;
-- what a delivery replaces is found by billing period (the tenant, provider and account are
-- checked on the rows): one timestamp is cheap to index on every line loaded
CREATE INDEX spend_billing_period ON llm_econ.spend (billing_period_start);
COMMENT ON COLUMN llm_econ.spend.row_hash IS
  'the charge identity: md5 of the FOCUS fields as values (timestamps as instants, numbers as numbers, provider key, Tags without the run tag), not of the raw line; with occurrence, what makes re-imports idempotent';
COMMENT ON COLUMN llm_econ.spend.occurrence IS 'which copy of the same charge within the file (1, 2, ...)';
COMMENT ON COLUMN llm_econ.spend.billing_account_id IS 'FOCUS BillingAccountId: with provider and billing period, what a restated delivery replaces';
COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency (ISO 4217); views convert with fx_rate, NULL counts as USD';
COMMENT ON COLUMN llm_econ.spend.delivery IS 'the import''s delivery label: a later delivery of the same billing period and account replaces this one''s lines (NULL: added to, never replacing)';

-- The 0.2.0 importer and its SQL helpers (typing now happens in C).
DROP FUNCTION llm_econ.import_focus(text, text, text);
DROP FUNCTION llm_econ._focus_typed(jsonb);
DROP FUNCTION llm_econ._focus_time(text);
DROP FUNCTION llm_econ._focus_provider(text);

-- Exchange rates, dated like prices: a rate holds from valid_from until the next one of its currency.
CREATE TABLE llm_econ.fx_rate (
    currency      text NOT NULL CHECK (currency OPERATOR(pg_catalog.~) '^[A-Z]{3}$'),
    valid_from    timestamptz NOT NULL CHECK (pg_catalog.isfinite(valid_from)),
    usd_per_unit  numeric NOT NULL CHECK (usd_per_unit > 0::numeric AND usd_per_unit < 'Infinity'),
    source        text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    CONSTRAINT fx_rate_pkey PRIMARY KEY (currency, valid_from)
);
COMMENT ON TABLE llm_econ.fx_rate IS
  'exchange rates into USD, dated: a rate is in effect from valid_from until the next row of the same currency; USD needs no row (1). Views convert a billing line with the rate in effect at its charge period start; a line with no rate is never summed as USD';
COMMENT ON COLUMN llm_econ.fx_rate.currency IS 'ISO 4217 code, upper case (EUR, GBP, JPY)';
COMMENT ON COLUMN llm_econ.fx_rate.valid_from IS 'when the rate takes effect';
COMMENT ON COLUMN llm_econ.fx_rate.usd_per_unit IS 'USD per one unit of the currency (EUR 1.0823 = 1 EUR buys 1.0823 USD), exact numeric';
COMMENT ON COLUMN llm_econ.fx_rate.source IS 'where the rate comes from (the provider''s invoice rate, a central bank reference rate, ...)';
SELECT pg_catalog.pg_extension_config_dump('llm_econ.fx_rate', '');
GRANT SELECT ON llm_econ.fx_rate TO PUBLIC;

-- USD per unit of a currency at an instant: 1 for USD (and for a line that names no currency, as
-- 0.2.0 read every amount), else the fx_rate in effect, NULL when none is.
CREATE FUNCTION llm_econ._usd_per_unit(currency text, at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN $1 IS NULL OR $1 OPERATOR(pg_catalog.=) 'USD' THEN 1::numeric
              ELSE (SELECT f.usd_per_unit FROM llm_econ.fx_rate f
                     WHERE f.currency OPERATOR(pg_catalog.=) $1 AND f.valid_from OPERATOR(pg_catalog.<=) $2
                     ORDER BY f.valid_from DESC LIMIT 1) END
$$;
COMMENT ON FUNCTION llm_econ._usd_per_unit(text, timestamptz) IS
  'internal: USD per unit of currency at an instant (1 for USD or no currency, else the fx_rate in effect; NULL when no rate is known)';

-- _focus_lines and _focus_staged_rows (returning llm_econ._focus_line), _focus_store and _focus_temp:
-- in 92_focus_speed.sql, their final definitions.

-- The staged path: \copy a FOCUS file into focus_staging, one physical line per row, then load_focus().
CREATE TABLE llm_econ.focus_staging (
    id      bigserial PRIMARY KEY,
    writer  text NOT NULL DEFAULT CURRENT_USER,
    line    text
);
CREATE INDEX focus_staging_writer ON llm_econ.focus_staging (writer, id);
COMMENT ON TABLE llm_econ.focus_staging IS
  'staging for load_focus(): one physical line of a FOCUS file per row, verbatim; each writer sees and loads only its own rows.  Roles \copy into the view focus_stage (COPY cannot write a table under row-level security); the owner may \copy llm_econ.focus_staging (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e'') directly';
COMMENT ON COLUMN llm_econ.focus_staging.id IS 'load order';
COMMENT ON COLUMN llm_econ.focus_staging.writer IS 'the role that staged the line (load_focus reads the current role''s lines only)';
COMMENT ON COLUMN llm_econ.focus_staging.line IS 'one physical line of the FOCUS CSV file, the header first';
ALTER TABLE llm_econ.focus_staging ENABLE ROW LEVEL SECURITY;
CREATE POLICY focus_staging_writer ON llm_econ.focus_staging
    USING (writer OPERATOR(pg_catalog.=) CURRENT_USER) WITH CHECK (writer OPERATOR(pg_catalog.=) CURRENT_USER);
-- PostgreSQL refuses COPY FROM into a table whose row-level security applies to the role ("COPY
-- FROM not supported with row-level security"): every role but the owner.  Roles \copy into this
-- view instead; its trigger inserts each line into focus_staging, under the policy above.  The view
-- shows nothing.
CREATE VIEW llm_econ.focus_stage WITH (security_invoker = true) AS SELECT NULL::text AS line WHERE false;
COMMENT ON VIEW llm_econ.focus_stage IS
  'where roles \copy a FOCUS file for load_focus(): \copy llm_econ.focus_stage (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e''); each line goes into focus_staging as the role''s (COPY cannot write a table under row-level security); reading it gives no rows';
COMMENT ON COLUMN llm_econ.focus_stage.line IS 'one physical line of the FOCUS CSV file, the header first';
CREATE FUNCTION llm_econ._focus_stage_line() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.focus_staging (line) VALUES (NEW.line);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._focus_stage_line() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._focus_stage_line() IS
  'internal: INSTEAD OF INSERT trigger of focus_stage: the line into focus_staging, as the inserting role (its privileges and focus_staging''s policy apply)';
CREATE TRIGGER focus_stage_line INSTEAD OF INSERT ON llm_econ.focus_stage
    FOR EACH ROW EXECUTE FUNCTION llm_econ._focus_stage_line();

CREATE FUNCTION llm_econ._focus_staged_done() RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_done_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_done() IS
  'internal: NULL while the load _focus_staged_rows began has lines left, else how many lines it read (then the load is dropped); 0 when no load is in progress';

CREATE FUNCTION llm_econ._focus_staged_periods(what text,
    OUT provider text, OUT billing_account_id text, OUT billing_period_start timestamptz)
RETURNS SETOF record ROWS 2
AS 'MODULE_PATHNAME', 'le_focus_staged_periods_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_periods(text) IS
  'internal: the billing periods (provider key, billing account, billing period start) of the current role''s staged FOCUS file, each once: what a delivery replaces; lines it cannot read are left to the load''s error';

CREATE FUNCTION llm_econ._focus_charge_key(record jsonb) RETURNS text
AS 'MODULE_PATHNAME', 'le_focus_charge_key_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._focus_charge_key(jsonb) IS
  'internal: the charge identity of a whole original line as jsonb (header name -> value, as 0.2.0 stored record), as an import computes it (row_hash)';

-- import_focus, load_focus and _focus_refusal: in 92_focus_speed.sql, their final definitions.

-- Existing lines: billing account from the record, the charge identity recomputed from the record
-- (as an import now computes it), copies of one charge numbered in import order.  Lines that 0.2.0
-- stored twice (the same charges re-exported differently) stay: nothing is deleted here; they show
-- as occurrence > 1 of one row_hash.  Two passes, so no transient duplicate key.
UPDATE llm_econ.spend SET occurrence = -id::int4, billing_account_id = record->>'BillingAccountId';
UPDATE llm_econ.spend s SET row_hash = k.row_hash, occurrence = k.occurrence
  FROM (SELECT x.id, x.row_hash,
               row_number() OVER (PARTITION BY x.tenant, x.row_hash ORDER BY x.id)::int4 AS occurrence
          FROM (SELECT t.id, t.tenant, llm_econ._focus_charge_key(t.record) AS row_hash FROM llm_econ.spend t) AS x) AS k
 WHERE s.id = k.id;
-- The identity leads the unique index and is compared byte for byte (as a fresh install has it).
ALTER TABLE llm_econ.spend DROP CONSTRAINT spend_one_line,
  ALTER COLUMN row_hash TYPE text COLLATE "C",
  ADD CONSTRAINT spend_one_line UNIQUE (row_hash, tenant, occurrence);
-- record keeps what no typed column holds (as an import now stores it): the typed FOCUS columns
-- leave it, and so do the empty and NULL fields (JSON null in 0.2.0).  After the re-key, which
-- reads the whole line.
UPDATE llm_econ.spend SET record = pg_catalog.jsonb_strip_nulls(record
       - '{BilledCost,EffectiveCost,ListCost,ConsumedQuantity,ConsumedUnit,ChargePeriodStart,ChargePeriodEnd,BillingPeriodStart,BillingPeriodEnd,ServiceName,ServiceCategory,ChargeCategory,ChargeDescription,PricingCategory,BillingCurrency,BillingAccountId,Tags,RegionId,ResourceId}'::text[]);
COMMENT ON TABLE llm_econ.spend IS
  'billed lines (FOCUS cost-and-usage rows), every line kept: typed columns, and the original line''s other columns in record; GPU lines carry sku and gpu_hours; run_id from the run_id tag';
COMMENT ON COLUMN llm_econ.spend.record IS 'the columns of the original line that no typed column holds and that have a value: header name -> text as written; empty fields and the word NULL are left out (->> reads NULL for them), and so are the typed FOCUS columns (costs, quantity and unit, periods, service, charge category and description, pricing category, currency, billing account, Tags, RegionId, ResourceId)';

-- Plan vs actual: every plan and every run that has spend, joined on (tenant, run_id) (full join:
-- runs without spend yet and spend without a plan both appear), plus one "untagged" row per tenant
-- and provider holding the spend with no run, so the view's billed total is the invoices'.  Amounts
-- are USD at the rate in effect at each line's charge period start; a line with no known rate is
-- left out of the USD sums and counted in unconverted_lines.  Variance is effective (amortised)
-- cost minus planned, split into price and usage (GPU-hours) variance.
CREATE OR REPLACE VIEW llm_econ.plan_vs_actual WITH (security_invoker = true) AS
  WITH lines AS (
         SELECT s.tenant, s.run_id, s.provider, s.billing_currency, s.charge_period_start, s.charge_period_end,
                s.gpu_hours, s.billed_cost, s.effective_cost,
                llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate
           FROM llm_econ.spend s),
       actual AS (
         SELECT l.tenant, l.run_id, min(l.provider) AS provider,
                sum(l.billed_cost * l.rate) AS billed_usd, sum(l.effective_cost * l.rate) AS effective_usd,
                sum(l.gpu_hours) AS gpu_hours, min(l.charge_period_start) AS first_charge,
                max(l.charge_period_end) AS last_charge,
                count(*) FILTER (WHERE l.rate IS NULL) AS unconverted_lines,
                string_agg(DISTINCT l.billing_currency, ', ') FILTER (WHERE l.rate IS NULL) AS unconverted_currencies
           FROM lines l
          GROUP BY l.tenant, l.run_id, CASE WHEN l.run_id IS NULL THEN l.provider END),
       joined AS (
         SELECT p.*, a.tenant AS a_tenant, a.run_id AS a_run_id, a.provider AS a_provider, a.billed_usd,
                a.effective_usd, a.gpu_hours AS actual_gpu_hours, a.first_charge, a.last_charge,
                a.unconverted_lines, a.unconverted_currencies,
                round(p.planned_usd, 2) AS planned_usd_cents,
                -- usage variance: (actual - planned GPU-hours) x planned price, to the cent
                round((a.gpu_hours - p.planned_gpu_hours::numeric) * p.usd_per_gpu_hour, 2) AS usage_variance_usd
           FROM llm_econ.run_plan p
           FULL JOIN actual a ON a.run_id = p.run_id AND a.tenant = p.tenant)
  SELECT coalesce(j.planned_at, j.first_charge) AS "time",
         coalesce(j.run_id, j.a_run_id) AS run_id, coalesce(j.tenant, j.a_tenant) AS tenant, j.team,
         coalesce(j.provider, j.a_provider) AS provider, j.pricing,
         j.planned_at, round(j.usd_per_gpu_hour, 6) AS planned_usd_per_gpu_hour,
         j.planned_usd_cents AS planned_usd, j.billed_usd, j.effective_usd,
         j.effective_usd - j.planned_usd_cents AS variance_usd,
         round(100::numeric * (j.effective_usd - j.planned_usd_cents) / nullif(j.planned_usd_cents, 0::numeric), 2) AS variance_pct,
         j.planned_gpu_hours, j.actual_gpu_hours,
         -- the MFU the billed GPU-hours imply; NULL when they are beyond an interval's range
         CASE WHEN j.actual_gpu_hours > 0::numeric AND j.run_id IS NOT NULL
               AND j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric <= 1e12::numeric
              THEN llm_econ.achieved_mfu(j.spec, make_interval(secs => (j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric)::float8))
         END AS implied_mfu,
         j.first_charge, j.last_charge,
         CASE WHEN j.run_id IS NULL AND j.a_run_id IS NULL THEN 'untagged'
              WHEN j.run_id IS NULL THEN 'unplanned'
              WHEN j.a_tenant IS NULL THEN 'no spend yet' ELSE 'planned and billed' END AS status,
         round(j.effective_usd / nullif(j.actual_gpu_hours, 0::numeric), 6) AS actual_usd_per_gpu_hour,
         -- price variance: the rest of the variance, (actual - planned $/GPU-h) x actual GPU-hours
         -- with actual $/GPU-h = effective USD / actual GPU-hours; the two add up to variance_usd
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL
              THEN (j.effective_usd - j.planned_usd_cents) - j.usage_variance_usd END AS price_variance_usd,
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND j.effective_usd IS NOT NULL
              THEN j.usage_variance_usd END AS usage_variance_usd,
         coalesce(j.unconverted_lines, 0::bigint) AS unconverted_lines, j.unconverted_currencies
    FROM joined j;
COMMENT ON VIEW llm_econ.plan_vs_actual IS
  'per tenant and run: planned (frozen) vs billed and effective USD, variance (effective - planned, USD and %) split into price and usage variance, planned vs billed GPU-hours and the MFU the billed GPU-hours imply; runs without spend, spend without a plan, and per tenant and provider the untagged spend all appear, so sum(billed_usd) is the invoices'' total (lines in a currency with no fx_rate excepted: unconverted_lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual."time" IS 'for dashboards: when the plan was made, else the first charge';
COMMENT ON COLUMN llm_econ.plan_vs_actual.run_id IS 'the run (NULL on untagged rows)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.tenant IS 'the plan''s or the spend''s tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual.team IS 'the plan''s team';
COMMENT ON COLUMN llm_econ.plan_vs_actual.provider IS 'planned provider; for spend without a plan, the billing provider';
COMMENT ON COLUMN llm_econ.plan_vs_actual.pricing IS 'planned pricing';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_at IS 'when the plan was made';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd_per_gpu_hour IS 'price planned with, USD per GPU-hour, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd IS 'planned USD (frozen), to the cent';
COMMENT ON COLUMN llm_econ.plan_vs_actual.billed_usd IS 'sum of BilledCost of the lines in USD (exact: the invoice''s amounts), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.effective_usd IS 'sum of EffectiveCost of the lines in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_usd IS 'effective_usd - planned_usd = price_variance_usd + usage_variance_usd';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_pct IS '100 x variance_usd / planned_usd, 2 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_gpu_hours IS 'planned GPU-hours (frozen)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_gpu_hours IS 'billed GPU-hours (GPU instance lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.implied_mfu IS 'achieved_mfu(spec, actual GPU-hours / n_gpus): below the planned mfu, the usage variance is (at least partly) lower efficiency';
COMMENT ON COLUMN llm_econ.plan_vs_actual.first_charge IS 'earliest charge period start of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.last_charge IS 'latest charge period end of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.status IS 'planned and billed, no spend yet, unplanned (spend with a run_id no plan of the tenant has), or untagged (spend with no run_id, per tenant and provider)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_usd_per_gpu_hour IS 'effective_usd / actual_gpu_hours: everything the run cost per GPU-hour it ran, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.price_variance_usd IS '(actual - planned USD per GPU-hour) x actual GPU-hours = variance_usd - usage_variance_usd; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.usage_variance_usd IS '(actual - planned GPU-hours) x planned USD per GPU-hour, to the cent; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_currencies IS 'the currencies of those lines';


-- Billed and effective USD and GPU-hours per UTC day of the charge period start, per tenant,
-- provider and service category.  Amounts in USD at the fx_rate in effect at the charge period
-- start; lines with no known rate are not summed (unconverted_lines counts them).
-- security_invoker: readers see their tenants' lines only.
CREATE OR REPLACE VIEW llm_econ.spend_daily WITH (security_invoker = true) AS
  SELECT (date_trunc('day', s.charge_period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "time",
         s.tenant, s.provider, s.service_category,
         sum(s.billed_cost * r.rate) AS billed_usd, sum(s.effective_cost * r.rate) AS effective_usd,
         sum(s.gpu_hours) AS gpu_hours, count(*) AS lines,
         count(DISTINCT s.run_id) AS runs,
         count(*) FILTER (WHERE r.rate IS NULL) AS unconverted_lines
    FROM llm_econ.spend s
   CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate) AS r
   GROUP BY 1, 2, 3, 4;
COMMENT ON VIEW llm_econ.spend_daily IS
  'billed and effective USD (converted at the fx_rate in effect), GPU-hours, lines and runs per UTC day (of the charge period start), tenant, provider and service category';
COMMENT ON COLUMN llm_econ.spend_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spend_daily.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spend_daily.service_category IS 'FOCUS ServiceCategory';
COMMENT ON COLUMN llm_econ.spend_daily.billed_usd IS 'sum of BilledCost in USD (exact; lines with no known exchange rate left out)';
COMMENT ON COLUMN llm_econ.spend_daily.effective_usd IS 'sum of EffectiveCost in USD (exact; lines with no known exchange rate left out)';
COMMENT ON COLUMN llm_econ.spend_daily.gpu_hours IS 'sum of GPU-hours of GPU instance lines';
COMMENT ON COLUMN llm_econ.spend_daily.lines IS 'billing lines';
COMMENT ON COLUMN llm_econ.spend_daily.runs IS 'distinct run_id tags';
COMMENT ON COLUMN llm_econ.spend_daily.unconverted_lines IS 'lines in a currency with no fx_rate in effect (not in the USD sums)';
-- llm_econ 0.2.0 -> 0.3.0, part 40 (modern runs): gpu_sku's renamed bandwidth columns and hbm_bytes,
-- run_spec's new fields, the constructor's inter_node_gbit_per_s, training_flops(spec, attention_flops),
-- new and corrected gpu_sku / mfu_reference rows, and the stored plans brought in line.  After it, an
-- updated database equals a fresh 0.3.0 install (test/t/002_upgrade.pl).

-- ---- gpu_sku: units that say what they are ------------------------------------------------------
ALTER TABLE llm_econ.gpu_sku RENAME COLUMN hbm_bandwidth_gbps TO hbm_gb_per_s;
ALTER TABLE llm_econ.gpu_sku RENAME COLUMN nvlink_gbps TO nvlink_gb_per_s;
ALTER TABLE llm_econ.gpu_sku RENAME COLUMN pcie_gbps TO pcie_gb_per_s;
-- the CHECKs keep their expressions (by column number) but are named after the old columns
ALTER TABLE llm_econ.gpu_sku RENAME CONSTRAINT gpu_sku_hbm_bandwidth_gbps_check TO gpu_sku_hbm_gb_per_s_check;
ALTER TABLE llm_econ.gpu_sku RENAME CONSTRAINT gpu_sku_nvlink_gbps_check TO gpu_sku_nvlink_gb_per_s_check;
ALTER TABLE llm_econ.gpu_sku RENAME CONSTRAINT gpu_sku_pcie_gbps_check TO gpu_sku_pcie_gb_per_s_check;
ALTER TABLE llm_econ.gpu_sku ALTER COLUMN pcie_gb_per_s SET DEFAULT 64;
ALTER TABLE llm_econ.gpu_sku ADD COLUMN hbm_bytes float8 CHECK (hbm_bytes > 0::float8 AND hbm_bytes < 'Infinity');
COMMENT ON COLUMN llm_econ.gpu_sku.nvlink_gb_per_s IS 'NVLink bandwidth per GPU, GB/s, both directions summed as marketed (or the vendor''s scale-up link: AMD Infinity Fabric, Intel Gaudi RoCE, Google ICI); NULL = none';
COMMENT ON COLUMN llm_econ.gpu_sku.pcie_gb_per_s IS 'host link per GPU, GB/s, both directions summed (default 64 = PCIe 4.0 x16); used inside a node when there is no NVLink';
COMMENT ON COLUMN llm_econ.gpu_sku.gpus_per_node IS 'GPUs in the usual server of this part (the NVLink domain when it has one: 72 for GB200/GB300 NVL72, the ICI pod for TPUs)';
COMMENT ON COLUMN llm_econ.gpu_sku.hbm_bytes IS 'device memory per GPU in bytes as the driver reports it (nvidia-smi memory.total MiB x 2^20), where published; NULL = not published, hbm_gb x 10^9 is used';

-- ---- run_spec: new fields, appended (stored values get NULL, which every function reads as the default) ----
ALTER TYPE llm_econ.run_spec
    ADD ATTRIBUTE n_active_params float8 CASCADE,
    ADD ATTRIBUTE n_experts int4 CASCADE,
    ADD ATTRIBUTE top_k int4 CASCADE,
    ADD ATTRIBUTE ep int4 CASCADE,
    ADD ATTRIBUTE cp int4 CASCADE,
    ADD ATTRIBUTE vpp int4 CASCADE,
    ADD ATTRIBUTE n_kv_heads int4 CASCADE,
    ADD ATTRIBUTE ffn_hidden int4 CASCADE,
    ADD ATTRIBUTE ffn_act text CASCADE,
    ADD ATTRIBUTE vocab_size int4 CASCADE,
    ADD ATTRIBUTE sequence_parallel boolean CASCADE,
    ADD ATTRIBUTE attention text CASCADE,
    ADD ATTRIBUTE grad_dtype text CASCADE;
COMMENT ON COLUMN llm_econ.run_spec.n_active_params IS 'parameters active per token (mixture of experts); FLOPs, time and cost use it, memory and communication use n_params; NULL = n_params';
COMMENT ON COLUMN llm_econ.run_spec.n_experts IS 'experts per MoE layer; NULL = dense';
COMMENT ON COLUMN llm_econ.run_spec.top_k IS 'experts each token is routed to; NULL = dense';
COMMENT ON COLUMN llm_econ.run_spec.ep IS 'expert-parallel degree, divides dp and n_experts; NULL = 1';
COMMENT ON COLUMN llm_econ.run_spec.cp IS 'context-parallel degree, dp = n_gpus / (tp * pp * cp); NULL = 1';
COMMENT ON COLUMN llm_econ.run_spec.vpp IS 'virtual pipeline stages per rank (interleaved 1F1B); NULL = 1';
COMMENT ON COLUMN llm_econ.run_spec.n_kv_heads IS 'key/value heads (grouped-query attention); NULL = n_heads';
COMMENT ON COLUMN llm_econ.run_spec.ffn_hidden IS 'FFN inner size (per expert for a mixture of experts); NULL = 4 * d_model';
COMMENT ON COLUMN llm_econ.run_spec.ffn_act IS 'gelu (2 matrices) or swiglu (3 matrices); NULL = gelu';
COMMENT ON COLUMN llm_econ.run_spec.vocab_size IS 'vocabulary: embedding, output layer and logits memory; NULL = unknown, left out';
COMMENT ON COLUMN llm_econ.run_spec.sequence_parallel IS 'Megatron sequence parallelism when tp > 1; NULL = true';
COMMENT ON COLUMN llm_econ.run_spec.attention IS 'flash (no s^2 score tensors stored) or eager (Korthikanti''s 5as/h term); NULL = flash';
COMMENT ON COLUMN llm_econ.run_spec.grad_dtype IS 'gradient precision: bf16 (2 bytes) or fp32 (4 bytes, Megatron''s main grads; doubles data-parallel gradient traffic); NULL = bf16';

-- ---- the constructor: inter_node_gbit_per_s (Gbit/s, default 400) and the new arguments ----------
DROP FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8);
CREATE FUNCTION llm_econ.run_spec(
    n_params float8, n_tokens float8, n_gpus int4, sku text,
    mfu float8 DEFAULT 0.40, dtype text DEFAULT 'bf16',
    n_layers int4 DEFAULT NULL, d_model int4 DEFAULT NULL,
    n_heads int4 DEFAULT NULL, seq_len int4 DEFAULT NULL,
    micro_batch int4 DEFAULT 1, global_batch int4 DEFAULT NULL,
    tp int4 DEFAULT 1, pp int4 DEFAULT 1, zero_stage int4 DEFAULT 0,
    recompute text DEFAULT 'none', optimizer text DEFAULT 'adamw',
    gpus_per_node int4 DEFAULT NULL,
    inter_node_gbit_per_s float8 DEFAULT 400,
    n_active_params float8 DEFAULT NULL, n_experts int4 DEFAULT NULL, top_k int4 DEFAULT NULL,
    ep int4 DEFAULT 1, cp int4 DEFAULT 1, vpp int4 DEFAULT 1,
    n_kv_heads int4 DEFAULT NULL, ffn_hidden int4 DEFAULT NULL, ffn_act text DEFAULT 'gelu',
    vocab_size int4 DEFAULT NULL, sequence_parallel boolean DEFAULT true,
    attention text DEFAULT 'flash', grad_dtype text DEFAULT 'bf16')
RETURNS llm_econ.run_spec
AS 'MODULE_PATHNAME', 'le_run_spec'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8,
                                      float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text) IS
  'validating run_spec constructor: looks the SKU up by key or alias (case-insensitive) and freezes its peak at dtype, HBM (as the driver reports it), links and TDP into the value; inter_node_gbit_per_s is Gbit/s per GPU per direction (400 = one NDR400 port = 50e9 bytes/s)';

-- ---- training_flops(spec, attention_flops) ----------------------------------------------------------
DROP FUNCTION llm_econ.training_flops(llm_econ.run_spec);
CREATE FUNCTION llm_econ.training_flops(spec llm_econ.run_spec, attention_flops boolean DEFAULT false) RETURNS float8
AS 'MODULE_PATHNAME', 'le_training_flops_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.training_flops(llm_econ.run_spec, boolean) IS
  'model FLOPs of the run, 6·N_active·D (Kaplan et al. 2020; N_active = n_active_params, else n_params); attention_flops adds 12·n_layers·d_model·seq_len per token (PaLM, App. B), the convention of published MFU figures';
COMMENT ON FUNCTION llm_econ.mfu_time(llm_econ.run_spec) IS
  'wall-clock time 6·N_active·D / (mfu · n_gpus · peak_flops), as an interval in hours:minutes:seconds';
COMMENT ON FUNCTION llm_econ.memory_per_gpu(llm_econ.run_spec) IS
  'training memory per GPU in bytes on the heaviest pipeline stage: model states after tp, pp, ep and ZeRO sharding (Rajbhandari et al. 2019), activations (Korthikanti et al. 2022 with sequence parallelism, FlashAttention, GQA, context parallelism and the logits; NULL when the shape is unknown), overhead allowance, total (NULL when activations are unknown) and the GPU''s HBM as the driver reports it';
COMMENT ON FUNCTION llm_econ.comm_breakdown(llm_econ.run_spec) IS
  'one row per collective of an optimizer step: dp/tp/cp/ep/pp, all_reduce/reduce_scatter/all_gather/send_recv/all_to_all, nvlink/network, bytes sent per GPU and seconds at the link''s one-way bandwidth';

-- ---- shipped data --------------------------------------------------------------------------------
-- Shipped rows changed in 0.3.0, with the values of data/gpu_sku.csv (user rows, builtin = false, are left alone).
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('A100-80GB', 'NVIDIA', 'NVIDIA A100 80GB SXM4', 80, 85899345920, 2039, 19.5, 156, 312, 312, NULL, 600, 64, 8, 400, 10000, 15000, '2020-11-01', 'seed table (mid-2024 SKU table: A100 80GB, 80 GB HBM2e, FP32 19.5, BF16 312, no FP8, NVLink 600 GB/s, 400 W, list price $10-15k used); 2,039 GB/s, TF32 156 and FP16 312 dense from NVIDIA A100 datasheet r4; 80GB SXM4 announced SC20 2020-11; 8 per HGX A100 / AWS p4de.24xlarge / GCP a2-ultragpu-8g; hbm_bytes = 81,920 MiB, nvidia-smi memory.total of an A100/A800-SXM4-80GB (public nvidia-smi output, e.g. dexmal/dexbotic issue #41)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'A100-80GB' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('H100-SXM5', 'NVIDIA', 'NVIDIA H100 SXM5 80GB', 80, 85520809984, 3350, 67, 494.5, 989, 989, 1979, 900, 128, 8, 700, 25000, 40000, '2022-03-01', 'seed table (H100 SXM5: 80 GB HBM3, FP32 67, BF16 989, FP8 1979, NVLink 900 GB/s, 700 W, list price $25-40k; NVIDIA H100 datasheet); NVIDIA H100 Tensor Core GPU datasheet: 3,350 GB/s, PCIe Gen5 128 GB/s, TF32 989 and FP16 1,979 with sparsity halved to dense; announced GTC 2022-03; 8 per HGX H100 / AWS p5.48xlarge / GCP a3-highgpu-8g; hbm_bytes = 81,559 MiB, nvidia-smi memory.total of ''NVIDIA H100 80GB HBM3'' (public nvidia-smi output in many GitHub issues)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'H100-SXM5' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('H100-PCIe', 'NVIDIA', 'NVIDIA H100 PCIe 80GB', 80, 85520809984, 2000, 51, 378, 756, 756, 1513, NULL, 128, 8, 350, NULL, NULL, '2022-03-01', 'NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe: 2,000 GB/s HBM2e, FP32 51, TF32 756*, BF16/FP16 1,513*, FP8 3,026* with sparsity halved to dense, 300-350 W, PCIe Gen5 128 GB/s; NVLink bridge 600 GB/s between pairs is not an NVLink domain and is not counted) and H100 PCIe product brief PB-11133-001 (max TDP 350 W); seed: H100 PCIe ~70% of SXM5 throughput; announced GTC 2022-03; RunPod H100 = NVIDIA H100 PCIe, up to 8 per pod; hbm_bytes = 81,559 MiB, nvidia-smi memory.total of ''NVIDIA H100 PCIe'' (public nvidia-smi output)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'H100-PCIe' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('H200-SXM5', 'NVIDIA', 'NVIDIA H200 SXM 141GB', 141, 150754820096, 4800, 67, 494.5, 989, 989, 1979, 900, 128, 8, 700, 30000, 45000, '2023-11-01', 'seed table (H200 SXM5: 141 GB HBM3e, FP32 67, BF16 989, FP8 1979, NVLink 900 GB/s, 700 W, list price $30-45k; NVIDIA H200 announcement 2023-11); 4.8 TB/s from NVIDIA H200 datasheet; same GH100 compute as H100 SXM so TF32/FP16 as H100 SXM5; announced SC23 2023-11-13; 8 per HGX H200 / AWS p5e.48xlarge; hbm_bytes = 143,771 MiB, nvidia-smi memory.total of ''NVIDIA H200'' (public nvidia-smi output)', true)
 WHERE sku OPERATOR(pg_catalog.=) 'H200-SXM5' AND builtin;
UPDATE llm_econ.gpu_sku SET (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) =
  ('B200', 'NVIDIA', 'NVIDIA B200 (HGX B200)', 180, 192265846784, 8000, 75, 1100, 2250, 2250, 4500, 1800, 128, 8, 1000, 40000, 60000, '2024-03-01', 'NVIDIA HGX B200 / DGX B200 figures per GPU (HGX B200 datasheet: 8 GPUs, 1,440 GB HBM3e, FP32 600 TFLOPS, TF32 18 PFLOPS, BF16/FP16 36 PFLOPS, FP8 72 PFLOPS with sparsity, so per GPU dense FP32 75, TF32 1,125 rounded to 1.1 PF as NVIDIA quotes, BF16/FP16 2,250, FP8 4,500 TFLOPS), 180 GB per GPU as sold in HGX systems (the seed''s 192 GB is the die stack, not what HGX exposes), 8 TB/s, NVLink 5 1,800 GB/s, up to 1,000 W; hbm_bytes = 183,359 MiB, nvidia-smi memory.total of ''NVIDIA B200'' (NVIDIA/TensorRT-LLM issue #10278); seed: list price $40-60k; host link PCIe Gen5 x16 (DGX B200 user guide); announced GTC 2024-03', true)
 WHERE sku OPERATOR(pg_catalog.=) 'B200' AND builtin;
-- New shipped parts.  A user row that already holds one of these names (ignoring case) is kept
-- and the shipped row is not added.
INSERT INTO llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) VALUES
  ('H800', 'NVIDIA', 'NVIDIA H800 SXM5 80GB', 80, 85520809984, 3350, 67, 494.5, 989, 989, 1979, 400, 128, 8, 700, NULL, NULL, '2023-03-01', 'NVIDIA H800: export variant of the H100 SXM5 with the same GH100 compute (dense FP32 67, TF32 494.5, BF16/FP16 989, FP8 1,979 TFLOPS, 80 GB HBM3 3.35 TB/s, 700 W, as the H100 SXM5 datasheet) and NVLink cut to 400 GB/s; DeepSeek-V3 technical report (arXiv 2412.19437, section 3.1-3.2): 2,048 H800 in nodes of 8, NVLink and NVSwitch inside a node, InfiniBand 50 GB/s between nodes, 160 GB/s achieved on NVLink; hbm_bytes = 81,559 MiB as the H100 80GB HBM3 (nvidia-smi memory.total); available 2023-03', true),
  ('A800', 'NVIDIA', 'NVIDIA A800 SXM4 80GB', 80, 85899345920, 2039, 19.5, 156, 312, 312, NULL, 400, 64, 8, 400, NULL, NULL, '2022-11-01', 'NVIDIA A800 40GB/80GB datasheet: export variant of the A100 SXM4 80GB with the same compute (dense FP32 19.5, TF32 156, BF16/FP16 312 TFLOPS), 80 GB HBM2e 2,039 GB/s, 400 W, NVLink 400 GB/s instead of 600; hbm_bytes = 81,920 MiB, nvidia-smi memory.total of NVIDIA A800-SXM4-80GB (public nvidia-smi output, dexmal/dexbotic issue #41); announced 2022-11', true),
  ('H20', 'NVIDIA', 'NVIDIA H20 96GB', 96, NULL, 4000, 44, 74, 148, 148, 296, 900, 128, 8, 400, NULL, NULL, '2024-01-01', 'NVIDIA HGX H20 product specifications (per GPU): 96 GB HBM3, 4.0 TB/s, dense FP32 44, TF32 74, BF16/FP16 148, FP8 296 TFLOPS, NVLink 900 GB/s, 400 W, 8 per HGX board; export variant of Hopper shipping 2024; a measured 142 TFLOPS BF16 matmul (zzc0721/torch-performance-test-data issue #77) agrees with the 148 dense peak', true),
  ('H100-NVL', 'NVIDIA', 'NVIDIA H100 NVL 94GB', 94, NULL, 3900, 60, 417.5, 835.5, 835.5, 1670.5, NULL, 128, 8, 400, NULL, NULL, '2023-03-01', 'NVIDIA H100 Tensor Core GPU datasheet, H100 NVL column: 94 GB HBM3, 3.9 TB/s, FP32 60, TF32 835*, BF16/FP16 1,671*, FP8 3,341* TFLOPS (* with sparsity, halved to dense here), 350-400 W, PCIe Gen5 128 GB/s; its 600 GB/s NVLink bridge joins pairs of cards and is not counted as a node-wide NVLink domain (as for H100-PCIe); announced GTC 2023-03', true),
  ('H200-NVL', 'NVIDIA', 'NVIDIA H200 NVL 141GB', 141, NULL, 4800, 60, 417.5, 835.5, 835.5, 1670.5, NULL, 128, 8, 600, NULL, NULL, '2024-11-01', 'NVIDIA H200 Tensor Core GPU datasheet, H200 NVL column: 141 GB HBM3e, 4.8 TB/s, FP32 60, TF32 835*, BF16/FP16 1,671*, FP8 3,341* TFLOPS (* with sparsity, halved to dense here), up to 600 W, PCIe Gen5 128 GB/s; the 2- or 4-way NVLink bridge (900 GB/s) joins at most 4 cards and is not counted as a node-wide domain; generally available 2024-11 (SC24)', true),
  ('GH200', 'NVIDIA', 'NVIDIA GH200 Grace Hopper Superchip 96GB', 96, NULL, 4000, 67, 494.5, 989, 989, 1979, 900, 128, 4, 1000, NULL, NULL, '2023-05-01', 'NVIDIA GH200 Grace Hopper Superchip datasheet: the H100 GPU with 96 GB HBM3 at 4 TB/s (a later version has 144 GB HBM3e), dense FP32 67, TF32 494.5, BF16/FP16 989, FP8 1,979 TFLOPS (datasheet figures with sparsity halved), NVLink 900 GB/s, module power 450-1,000 W including the Grace CPU (1,000 W taken); 4 per node as in quad-GH200 blades (CSCS Alps, HPE Cray EX254n); host link counted as PCIe Gen5 x16 (the CPU is attached by NVLink-C2C); announced Computex 2023-05', true),
  ('GB200', 'NVIDIA', 'NVIDIA Blackwell GPU in GB200 NVL72', 186, NULL, 8000, 80, 1250, 2500, 2500, 5000, 1800, 128, 72, 1200, NULL, NULL, '2024-03-01', 'NVIDIA GB200 NVL72 datasheet, rack figures divided by its 72 GPUs: 13.4 TB HBM3e (186 GB per GPU), 576 TB/s (8 TB/s), FP32 5,760 TFLOPS (80), TF32 180, FP16/BF16 360, FP8 720 PFLOPS with sparsity (dense 1,250, 2,500, 5,000 TFLOPS per GPU); NVLink 5 1,800 GB/s per GPU, all 72 GPUs one NVLink domain; GB200 superchip (2 GPUs + 1 Grace CPU) up to 2,700 W, about 1,200 W per GPU taken; announced GTC 2024-03', true),
  ('GB300', 'NVIDIA', 'NVIDIA Blackwell Ultra GPU in GB300 NVL72', 288, NULL, 8000, NULL, 1250, 2500, 2500, 5000, 1800, 128, 72, 1400, NULL, NULL, '2025-03-01', 'NVIDIA GB300 NVL72 datasheet, rack figures divided by its 72 GPUs: up to 288 GB HBM3e per GPU, 8 TB/s, TF32 180, FP16/BF16 360, FP8 720 PFLOPS with sparsity (dense 1,250, 2,500, 5,000 TFLOPS per GPU; Blackwell Ultra raises FP4 only), NVLink 5 1,800 GB/s per GPU, 72 GPUs one NVLink domain, about 1,400 W per GPU; FP32 not confirmed, left empty; announced GTC 2025-03', true),
  ('B100', 'NVIDIA', 'NVIDIA B100 (HGX B100)', 192, NULL, 8000, 60, 900, 1750, 1750, 3500, 1800, 128, 8, 700, NULL, NULL, '2024-03-01', 'NVIDIA Blackwell datasheet, HGX B100 column per GPU: 192 GB HBM3e (1.5 TB per 8), 8 TB/s, FP32 60, TF32 1.8, FP16/BF16 3.5, FP8 7 PFLOPS with sparsity (dense 900, 1,750, 3,500 TFLOPS), NVLink 5 1,800 GB/s, 700 W (drop-in for HGX H100 power); announced GTC 2024-03', true),
  ('B300', 'NVIDIA', 'NVIDIA B300 (HGX B300)', 288, NULL, 8000, 75, 1100, 2250, 2250, 4500, 1800, 128, 8, 1100, NULL, NULL, '2025-03-01', 'NVIDIA HGX B300 datasheet, 8-GPU figures per GPU: 2.3 TB HBM3e (288 GB per GPU), 8 TB/s, FP32 600 TFLOPS (75), TF32 18, FP16/BF16 36, FP8 72 PFLOPS with sparsity (dense 1,125 quoted as 1.1 PF, 2,250, 4,500 TFLOPS per GPU), NVLink 5 1,800 GB/s, about 1,100 W per GPU; announced GTC 2025-03', true),
  ('MI250X', 'AMD', 'AMD Instinct MI250X', 128, NULL, 3276.8, 47.9, NULL, 383, 383, NULL, 800, 64, 4, 560, NULL, NULL, '2021-11-01', 'AMD Instinct MI250X datasheet: 128 GB HBM2e, 3.2768 TB/s, FP32 vector 47.9 (matrix 95.7), FP16/BF16 383 TFLOPS (no sparsity: dense), no TF32 or FP8, 500-560 W OAM, Infinity Fabric up to 800 GB/s peer bandwidth (8 links; held in nvlink_gb_per_s), PCIe Gen4 x16; one package is two GCDs that software sees as two 64 GB GPUs, here counted as one; 4 per node (Frontier, HPE Cray EX235a); launched 2021-11-08', true),
  ('MI325X', 'AMD', 'AMD Instinct MI325X', 256, NULL, 6000, 163.4, NULL, 1307.4, 1307.4, 2614.9, 896, 128, 8, 1000, NULL, NULL, '2024-10-01', 'AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s, dense FP32 163.4, FP16/BF16 1,307.4, FP8 2,614.9 TFLOPS (CDNA 3 compute as MI300X), 1,000 W, Infinity Fabric 896 GB/s per GPU in the 8-GPU platform (held in nvlink_gb_per_s), PCIe Gen5 x16; launched 2024-10-10', true),
  ('MI355X', 'AMD', 'AMD Instinct MI355X', 288, NULL, 8000, 157.3, NULL, 2516.6, 2516.6, 5033.2, 1075.2, 128, 8, 1400, NULL, NULL, '2025-06-01', 'AMD Instinct MI355X datasheet: 288 GB HBM3E, 8 TB/s, FP32 157.3, FP16/BF16 2,516.6 (5,033.2 with sparsity), FP8 5,033.2 (10,066.4 with sparsity) TFLOPS, 1,400 W (liquid cooled), Infinity Fabric 7 links x 153.6 GB/s = 1,075.2 GB/s (held in nvlink_gb_per_s), PCIe Gen5 x16, 8 per platform; launched 2025-06-12', true),
  ('Gaudi2', 'Intel', 'Intel Gaudi 2', 96, NULL, 2460, NULL, NULL, 432, 432, 865, 525, 64, 8, 600, NULL, NULL, '2022-05-01', 'Intel Gaudi 2 product brief and white paper: 96 GB HBM2E, 2.46 TB/s, matrix-engine BF16 432 and FP8 865 TFLOPS (no sparsity mode: dense), 600 W OAM; 24 x 100 GbE RoCE ports on chip, 21 of them to the other 7 cards of an 8-card server: 21 x 100 Gbit/s = 262.5 GB/s each way, 525 GB/s both directions (held in nvlink_gb_per_s); host PCIe Gen4 x16; launched Intel Vision 2022-05', true),
  ('Gaudi3', 'Intel', 'Intel Gaudi 3', 128, NULL, 3700, NULL, NULL, 1835, 1835, 1835, 1050, 128, 8, 900, NULL, NULL, '2024-04-01', 'Intel Gaudi 3 AI accelerator white paper: 128 GB HBM2e, 3.7 TB/s, matrix-engine BF16 and FP8 1,835 TFLOPS (dense), 900 W OAM (HL-325L); 24 x 200 GbE RoCE ports on chip, 21 to the other 7 cards of an 8-card server: 525 GB/s each way, 1,050 GB/s both directions (held in nvlink_gb_per_s); host PCIe Gen5 x16; announced Intel Vision 2024-04', true),
  ('TPU-v4', 'Google', 'Google Cloud TPU v4', 32, NULL, 1200, NULL, NULL, 275, NULL, NULL, 300, 32, 4096, 192, NULL, NULL, '2021-05-01', 'Google Cloud TPU v4 documentation (system architecture): 32 GB HBM2, 1,200 GB/s, BF16 275 TFLOPS (no sparsity), 192 W maximum, PCIe Gen3 x16; chips are linked by the inter-chip interconnect (ICI, 2,400 Gbit/s per chip = 300 GB/s, held in nvlink_gb_per_s) into pods of 4,096 (Jouppi et al. 2023, ISCA, ''TPU v4: An Optically Reconfigurable Supercomputer''), so gpus_per_node is the ICI domain, 4,096; announced Google I/O 2021-05', true),
  ('RTX-5090', 'NVIDIA', 'NVIDIA GeForce RTX 5090', 32, NULL, 1792, 104.8, NULL, 209.5, 209.5, 419, NULL, 128, 8, 575, NULL, NULL, '2025-01-01', 'NVIDIA RTX Blackwell GPU architecture figures for the GeForce RTX 5090: 32 GB GDDR7, 1,792 GB/s, FP32 104.8 TFLOPS, 575 W, PCIe 5.0 x16; FP16 tensor 838.4 TFLOPS with sparsity and FP16 accumulate, so 419 dense, and GeForce runs FP32 accumulate at half rate: BF16/FP16 209.5 and FP8 419 dense with FP32 accumulate (as the RTX-4090 row); TF32 not confirmed, left empty; launched 2025-01-30', true),
  ('RTX-PRO-6000', 'NVIDIA', 'NVIDIA RTX PRO 6000 Blackwell', 96, NULL, 1792, 125, NULL, 500, 500, 1000, NULL, 128, 8, 600, NULL, NULL, '2025-03-01', 'NVIDIA RTX PRO 6000 Blackwell Workstation/Server Edition figures (GTC 2025-03): 96 GB GDDR7 ECC, 1,792 GB/s, FP32 125 TFLOPS, 4,000 AI TOPS (FP4 with sparsity), 600 W (Max-Q 300 W, Server Edition up to 600 W), PCIe 5.0 x16; dense tensor peaks derived from the 4,000 FP4 TOPS: FP8 1,000 and FP16/BF16 500 TFLOPS (professional cards run FP32 accumulate at full rate); TF32 not confirmed, left empty', true)
ON CONFLICT DO NOTHING;

-- mfu_reference: Narayanan et al. 2021's 52% counts recomputation (hardware FLOPs); as MFU it is 0.39.
UPDATE llm_econ.mfu_reference SET (config, hardware, mfu, year, source, builtin) =
  ('Megatron-LM GPT 1T (3072 GPUs)', 'NVIDIA A100 (Selene) + Megatron-LM', 0.39, 2021, 'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21): 1T parameters at 502 petaFLOP/s on 3072 GPUs, 52% of peak; that count includes the extra forward pass of full activation recomputation (its FLOPs formula 96BslH^2(1 + s/6H + V/16lH) has 4 passes where model FLOPs have 3), so it is hardware FLOPs utilisation; MFU = 0.52 x 3/4 = 0.39 (0.2.0 listed 0.52, which made planned runs 25% short)', true)
 WHERE config OPERATOR(pg_catalog.=) 'Megatron-LM GPT 1T (3072 GPUs)' AND builtin;
-- Size-dependent references: Megatron-LM 2022 (22B-1T), Llama 3.1 8B/70B/405B, DeepSeek-V3.
INSERT INTO llm_econ.mfu_reference (config, hardware, mfu, year, source, builtin) VALUES
  ('Megatron-LM GPT 22B (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.415, 2022, 'Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models (arXiv 2205.05198), as tabulated in the NVIDIA/Megatron-LM README: 22B MFU 41.5%, HFU 43.7% (benchmark runs, data-parallel size 1)', true),
  ('Megatron-LM GPT 175B (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.514, 2022, 'Korthikanti et al. 2022 (arXiv 2205.05198) via the NVIDIA/Megatron-LM README table: 175B MFU 51.4%, HFU 52.8%', true),
  ('Megatron-LM GPT 530B (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.560, 2022, 'Korthikanti et al. 2022 (arXiv 2205.05198) via the NVIDIA/Megatron-LM README table: 530B MFU 56.0%, HFU 57.0%', true),
  ('Megatron-LM GPT 1T (2022)', 'NVIDIA A100 (Selene) + Megatron-LM (sequence parallel + selective recompute)', 0.563, 2022, 'Korthikanti et al. 2022 (arXiv 2205.05198) via the NVIDIA/Megatron-LM README table: 1T MFU 56.3%, HFU 57.0%', true),
  ('Llama 3.1 405B (8192 GPUs)', 'NVIDIA H100 80GB (TP8 PP16 DP64)', 0.43, 2024, 'Llama Team 2024, The Llama 3 Herd of Models (arXiv 2407.21783), Table 4: 8,192 GPUs, TP 8, CP 1, PP 16, DP 64, 8,192-token sequences, 430 TFLOPs/GPU, BF16 MFU 43% (38% at 16,384 GPUs with CP 16 and 131,072-token sequences); MFU there counts attention FLOPs', true),
  ('Llama 3.1 405B (model card GPU-hours)', 'NVIDIA H100 80GB', 0.35, 2024, 'Llama 3.1 model card: 30.84M H100-80GB GPU-hours for 405B on about 15.6T tokens (Llama 3 report section 3.1); 6ND / (GPU-hours x 989 TFLOP/s) = 3.79e25 / 1.10e26 = 0.35: everything the published hours include (restarts, evaluation), 6ND convention', true),
  ('Llama 3.1 70B (model card GPU-hours)', 'NVIDIA H100 80GB', 0.25, 2024, 'Llama 3.1 model card: 7.0M H100-80GB GPU-hours for 70B on about 15T tokens; 6ND / (GPU-hours x 989 TFLOP/s) = 6.3e24 / 2.49e25 = 0.25 (6ND convention, all published hours)', true),
  ('Llama 3.1 8B (model card GPU-hours)', 'NVIDIA H100 80GB', 0.14, 2024, 'Llama 3.1 model card: 1.46M H100-80GB GPU-hours for 8B on about 15T tokens; 6ND / (GPU-hours x 989 TFLOP/s) = 7.2e23 / 5.20e24 = 0.14 (6ND convention, all published hours: small models run far below the large ones)', true),
  ('DeepSeek-V3 671B MoE (37B active)', 'NVIDIA H800 (FP8 mixed precision)', 0.35, 2024, 'DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv 2412.19437), Table 1: 2,664K H800 GPU-hours of pre-training on 14.8T tokens, 2,048 H800; 6 x 37e9 active x 14.8e12 / (2.664e6 h x 3600 s x 989e12 BF16 dense FLOP/s) = 0.35 against the BF16 peak (0.17 against the FP8 peak the GEMMs mostly ran at)', true)
ON CONFLICT DO NOTHING;

-- ---- stored plans ------------------------------------------------------------------------------------
-- run_plan holds specs built by the 0.1.0/0.2.0 constructor.  Give them the values the 0.3.0 constructor
-- writes for the new fields (their defaults: what NULL means anyway), and re-freeze the HBM of shipped
-- SKUs whose driver-reported size is now known, where the plan still holds the decimal-GB figure 0.2.0
-- froze (a hand-edited figure is kept).  Nothing priced changes: GPU-hours and USD depend on neither.
-- The freeze trigger is bypassed: it would re-check each plan's SKU and price, which a restore-like
-- rewrite of a field the price does not depend on must not do (a plan whose SKU was deleted since stays).
DO $$
DECLARE
  role text := pg_catalog.current_setting('session_replication_role');
BEGIN
  PERFORM pg_catalog.set_config('session_replication_role', 'replica', true);
  UPDATE llm_econ.run_plan
     SET spec.ep = COALESCE((spec).ep, 1),
         spec.cp = COALESCE((spec).cp, 1),
         spec.vpp = COALESCE((spec).vpp, 1),
         spec.ffn_act = COALESCE((spec).ffn_act, 'gelu'),
         spec.sequence_parallel = COALESCE((spec).sequence_parallel, true),
         spec.attention = COALESCE((spec).attention, 'flash'),
         spec.grad_dtype = COALESCE((spec).grad_dtype, 'bf16');
  UPDATE llm_econ.run_plan p
     SET spec.hbm_bytes = g.hbm_bytes
    FROM llm_econ.gpu_sku g,
         (VALUES ('A100-80GB', 80e9::float8), ('H100-SXM5', 80e9::float8), ('H100-PCIe', 80e9::float8),
                 ('H200-SXM5', 141e9::float8), ('B200', 192e9::float8)) AS old(sku, hbm_bytes)
   WHERE g.sku OPERATOR(pg_catalog.=) old.sku AND g.builtin AND g.hbm_bytes IS NOT NULL
     AND (p.spec).sku OPERATOR(pg_catalog.=) old.sku
     AND (p.spec).hbm_bytes OPERATOR(pg_catalog.=) old.hbm_bytes;
  PERFORM pg_catalog.set_config('session_replication_role', role, true);
END
$$;
-- llm_econ 0.2.0 -> 0.3.0, part 45 (power not published): gpu_sku.tdp_watts may be NULL (the vendor
-- publishes no per-chip power), energy_kwh / carbon_kg / cost_breakdown / tco_per_gpu_hour answer NULL
-- for such a part instead of guessing, and the five parts this allows (TPU v5e, v5p, v6e, Trainium 1
-- and 2) with their cloud names.  Runs after 40_modern.sql (renamed columns, hbm_bytes).  After it,
-- an updated database equals a fresh 0.3.0 install (test/t/002_upgrade.pl).

ALTER TABLE llm_econ.gpu_sku ALTER COLUMN tdp_watts DROP NOT NULL;
COMMENT ON COLUMN llm_econ.gpu_sku.tdp_watts IS 'board power, W; NULL = not published (TPU v5e/v5p/v6e, Trainium): energy_kwh, carbon_kg and tco_per_gpu_hour are then NULL';
COMMENT ON COLUMN llm_econ.run_spec.tdp_watts IS 'board power per GPU, W (frozen); NULL = not published, energy and carbon are then NULL';

-- The C functions read NULL tdp_watts as unknown (the library is shared); their comments say so.
COMMENT ON FUNCTION llm_econ.energy_kwh(llm_econ.run_spec, float8) IS
  'energy in kWh: tdp_watts · n_gpus · hours · pue / 1000; pue in [1, 5]; NULL when the spec''s tdp_watts is NULL (the part''s power is not published)';
COMMENT ON FUNCTION llm_econ.carbon_kg(llm_econ.run_spec, float8, float8) IS
  'operational emissions in kg CO2e: energy_kwh(spec, pue) · kg_co2_per_kwh (grid intensity, location-based; in [0, 2]); pue in [1, 5]. Embodied carbon of the hardware is not counted. NULL when the spec''s tdp_watts is NULL (power not published)';
COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component in this order, unrounded numeric USD, each with the numbers it used in words: '
  'compute = gpu_hours · usd_per_gpu_hour; '
  'checkpoint = compute · checkpoint_write / checkpoint_every (throughput lost writing; seed: every 30 min costs ~5%); '
  'storage = (checkpoints_kept · checkpoint_gb + dataset_gb) · storage_usd_per_gb_month · storage_months, GB = 10^9 bytes, '
  'checkpoint_gb NULL = weights + optimizer state per parameter · n_params (14 bytes for bf16 AdamW: 7B = 98 GB), dataset_gb NULL = 4 bytes per token · n_tokens; '
  'egress = egress_gb · egress_usd_per_gb (cross-region; 0 when co-located); '
  'energy = energy_kwh(spec, pue) · usd_per_kwh when owned, else 0 (in the cloud price; for an owned cluster pass an hourly price without energy, e.g. tco_per_gpu_hour(sku, years, utilization, 0, pue)); '
  'owned with the spec''s tdp_watts NULL (power not published): energy and total usd are NULL, the assumption says why; '
  'spot_buffer = compute · spot_buffer (seed: 10% for spot reclaims and ablations); total = the sum. '
  'Prices >= 0 and finite, spot_buffer in [0, 1], intervals > 0 with checkpoint_write < checkpoint_every, counts and GB >= 0, pue in [1, 5]. '
  'Not STRICT: only checkpoint_gb and dataset_gb may be NULL; another NULL is an error';

-- tco_per_gpu_hour: NULL for a part without published power (unless energy is priced at 0)
CREATE OR REPLACE FUNCTION llm_econ.tco_per_gpu_hour(sku text, years float8, utilization float8, usd_per_kwh numeric, pue float8)
RETURNS numeric
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key text;
  price_low numeric;
  price_high numeric;
  watts float8;
  purchase numeric;
  used_hours numeric;
  kw numeric;
BEGIN
  -- NaN compares above every number, so each upper bound also rejects it
  IF NOT (years OPERATOR(pg_catalog.>) 0 AND years OPERATOR(pg_catalog.<=) 20) THEN
    RAISE EXCEPTION 'years must be in (0, 20], got %', years USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (utilization OPERATOR(pg_catalog.>) 0 AND utilization OPERATOR(pg_catalog.<=) 1) THEN
    RAISE EXCEPTION 'utilization must be in (0, 1], got %', utilization USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (usd_per_kwh OPERATOR(pg_catalog.>=) 0 AND usd_per_kwh OPERATOR(pg_catalog.<) 'Infinity'::numeric) THEN
    RAISE EXCEPTION 'usd_per_kwh must be in [0, Infinity), got %', usd_per_kwh USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (pue OPERATOR(pg_catalog.>=) 1 AND pue OPERATOR(pg_catalog.<=) 5) THEN
    RAISE EXCEPTION 'pue must be in [1, 5], got %', pue USING ERRCODE = 'invalid_parameter_value';
  END IF;
  key := llm_econ._sku_key(sku);
  SELECT g.list_price_usd_low, g.list_price_usd_high, g.tdp_watts
    INTO price_low, price_high, watts
    FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) key;
  IF price_low IS NULL AND price_high IS NULL THEN
    RAISE EXCEPTION 'sku "%" has no list price', key USING ERRCODE = 'invalid_parameter_value',
      HINT = 'Set list_price_usd_low and list_price_usd_high in llm_econ.gpu_sku.';
  END IF;
  -- purchase price: the midpoint of the quoted range (the one end given when only one is)
  purchase := (coalesce(price_low, price_high) OPERATOR(pg_catalog.+) coalesce(price_high, price_low))
              OPERATOR(pg_catalog./) 2;
  -- hours it is used: years · 8766 h (365.25 days, as extract(epoch) counts a year) · utilization
  used_hours := (years::numeric OPERATOR(pg_catalog.*) 8766) OPERATOR(pg_catalog.*) utilization::numeric;
  -- a part whose power is not published (tdp_watts NULL) has no energy cost to add, unless energy is free
  IF watts IS NULL THEN
    IF usd_per_kwh OPERATOR(pg_catalog.=) 0 THEN
      RETURN purchase OPERATOR(pg_catalog./) used_hours;
    END IF;
    RETURN NULL;
  END IF;
  -- facility power per GPU: tdp_watts / 1000 · pue kW (board power at TDP, as energy_kwh counts it)
  kw := (watts::numeric OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) pue::numeric;
  RETURN (purchase OPERATOR(pg_catalog./) used_hours)
         OPERATOR(pg_catalog.+) (kw OPERATOR(pg_catalog.*) usd_per_kwh);
END $$;
COMMENT ON FUNCTION llm_econ.tco_per_gpu_hour(text, float8, float8, numeric, float8) IS
  'cost of owning one GPU per used GPU-hour, USD: midpoint of gpu_sku list_price_usd_low/high / (years · 8766 h · utilization) + tdp_watts / 1000 · pue · usd_per_kwh. '
  'The GPU only, drawing its TDP while used (idle power not counted): servers, networking, storage, staff, facilities and financing are not counted, so it is a lower bound. '
  'sku by key or alias (any case); years in (0, 20], utilization in (0, 1], usd_per_kwh >= 0, pue in [1, 5]; a SKU without list prices is an error. '
  'With usd_per_kwh = 0 it is the hardware part alone, the price to give cost_breakdown(..., owned => true). '
  'NULL when the SKU''s tdp_watts is NULL (power not published) and usd_per_kwh > 0';

-- ---- shipped data: the parts whose power is not published, as data/gpu_sku.csv and
-- data/gpu_sku_alias.csv hold them.  A user row that already holds one of these names (ignoring
-- case) is kept, and the shipped row, or an alias of a part the user holds under that name, is not added.
INSERT INTO llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) VALUES
  ('TPU-v5e', 'Google', 'Google Cloud TPU v5e', 16, NULL, 819, NULL, NULL, 197, NULL, NULL, 400, 64, 256, NULL, NULL, NULL, '2023-08-01', 'Google Cloud TPU v5e documentation (system architecture, key chip specifications): BF16 197 TFLOPS per chip (Int8 393 TOPS; no dense FP16/FP8 figure published), 16 GB HBM2 at 819 GB/s (hbm_bytes: no driver figure published), bidirectional ICI 400 GB/s per chip (held in nvlink_gb_per_s; older pages give 1,600 Gbit/s, the same link one way), 2D torus pods of 256 chips, so gpus_per_node is the ICI domain, 256 (8 chips per host); host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty: energy_kwh, carbon_kg and tco_per_gpu_hour are NULL); announced Google Cloud Next 2023-08', true),
  ('TPU-v5p', 'Google', 'Google Cloud TPU v5p', 95, NULL, 2765, NULL, NULL, 459, NULL, 459, 1200, 64, 4096, NULL, NULL, NULL, '2023-12-01', 'Google Cloud TPU v5p documentation (system architecture): BF16 459 TFLOPS per chip and FP8 459 TFLOPS (as listed; no sparsity), 95 GB HBM2e at 2,765 GB/s (newer pages write 95 GiB and 2,575 GiB/s; hbm_gb keeps 95, hbm_bytes empty: no driver figure), bidirectional ICI 1,200 GB/s per chip (held in nvlink_gb_per_s; older pages give 4,800 Gbit/s one way), 3D torus; the pod is 8,960 chips and the largest single slice 6,144 (16x16x24), above the 4,096 gpus_per_node allows, so gpus_per_node is 4,096 and a run on more chips counts traffic between 4,096-chip domains on the network; 4 chips per host; host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty); announced 2023-12', true),
  ('TPU-v6e', 'Google', 'Google Cloud TPU v6e (Trillium)', 32, NULL, 1638, NULL, NULL, 918, NULL, NULL, 800, 64, 256, NULL, NULL, NULL, '2024-05-01', 'Google Cloud TPU v6e documentation (system architecture): BF16 918 TFLOPS per chip (Int8 1,836 TOPS; no dense FP16/FP8 figure published), 32 GB HBM at 1,638 GB/s (hbm_bytes: no driver figure published), bidirectional ICI 800 GB/s per chip over 4 ports (held in nvlink_gb_per_s), 2D torus pods of 256 chips, so gpus_per_node is 256 (8 chips per host); host link PCIe Gen5 of unpublished width, the column default 64 is kept; power per chip not published (tdp_watts empty); Trillium announced Google I/O 2024-05', true),
  ('Trainium1', 'AWS', 'AWS Trainium', 32, NULL, 820, 47.5, 190, 190, 190, 190, 412.3, 64, 16, NULL, NULL, NULL, '2020-12-01', 'AWS Neuron documentation, Trainium architecture and Trn1/Trn1n architecture: 2 NeuronCore-v2 per chip, 190 FP16/BF16/cFP8/TF32 TFLOPS and 47.5 FP32 TFLOPS (no sparsity mode: dense), 32 GiB HBM at 820 GiB/s (hbm_gb keeps the published 32, hbm_bytes empty: no driver figure), NeuronLink-v2 384 GiB/s per chip in trn1.32xlarge = 412.3 GB/s (held in nvlink_gb_per_s; trn1n.32xlarge has 768 GiB/s), 16 chips per trn1.32xlarge in a 2D torus, so gpus_per_node is 16; host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty); announced AWS re:Invent 2020-12, Trn1 generally available 2022-10', true),
  ('Trainium2', 'AWS', 'AWS Trainium2', 96, NULL, 2900, 181, 667, 667, 667, 1299, 1280, 64, 16, NULL, NULL, NULL, '2023-11-01', 'AWS Neuron documentation, Trainium2 architecture: 8 NeuronCore-v3 per chip, dense 1,299 FP8, 667 BF16/FP16/TF32 and 181 FP32 TFLOPS (the 2,563 sparse figure is not used), 96 GiB HBM at 2.9 TB/s (hbm_gb keeps the published 96, hbm_bytes empty: no driver figure), NeuronLink-v3 1.28 TB/s per chip (held in nvlink_gb_per_s), 16 chips per trn2.48xlarge in a 4x4 2D torus, so gpus_per_node is 16 (a Trn2 UltraServer joins 4 instances, 64 chips: pass gpus_per_node => 64); host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty); announced AWS re:Invent 2023-11, Trn2 generally available 2024-12', true)
ON CONFLICT DO NOTHING;
INSERT INTO llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source, builtin)
SELECT v.alias, v.sku, v.gpus_per_instance, v.source, v.builtin FROM (VALUES
  ('tpu-v5-lite-podslice', 'TPU-v5e', NULL, 'GKE accelerator name of TPU v5e slices (cloud.google.com/gke-tpu-accelerator node label; Google Cloud TPU v5e and GKE TPU documentation)', true),
  ('tpu-v5p-slice', 'TPU-v5p', NULL, 'GKE accelerator name of TPU v5p slices (cloud.google.com/gke-tpu-accelerator node label; Google Cloud TPU v5p and GKE TPU documentation)', true),
  ('tpu-v6e-slice', 'TPU-v6e', NULL, 'GKE accelerator name of TPU v6e slices (cloud.google.com/gke-tpu-accelerator node label; Google Cloud TPU v6e and GKE TPU documentation)', true),
  ('Trillium', 'TPU-v6e', NULL, 'Google''s product name of TPU v6e (Google Cloud TPU v6e documentation: Trillium is referred to as v6e)', true),
  ('Trainium', 'Trainium1', NULL, 'AWS''s name of the first Trainium chip (AWS Neuron documentation, Trainium architecture)', true),
  ('trn1.2xlarge', 'Trainium1', 1, 'AWS EC2 instance type with 1 Trainium chip (AWS Neuron documentation, Trn1/Trn1n architecture)', true),
  ('trn1.32xlarge', 'Trainium1', 16, 'AWS EC2 instance type with 16 Trainium chips (AWS Neuron documentation, Trn1/Trn1n architecture)', true),
  ('trn1n.32xlarge', 'Trainium1', 16, 'AWS EC2 instance type with 16 Trainium chips and twice the NeuronLink-v2 bandwidth of trn1.32xlarge (768 GiB/s per chip; the SKU row holds 384) (AWS Neuron documentation, Trn1/Trn1n architecture)', true),
  ('trn2.48xlarge', 'Trainium2', 16, 'AWS EC2 instance type with 16 Trainium2 chips (AWS Neuron documentation, Trn2 architecture)', true)
) AS v(alias, sku, gpus_per_instance, source, builtin)
 WHERE EXISTS (SELECT FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) v.sku AND g.builtin)
ON CONFLICT DO NOTHING;
-- llm_econ 0.2.0 -> 0.3.0, part 50 (predicted MFU and the cheapest plan): gpu_sku.generation, run_spec's
-- frozen hbm_bytes_per_s and gpu_generation (stored plans re-frozen from their SKU), step_breakdown,
-- predicted_mfu, predicted_time, cheapest_plan.  Runs after 40_modern.sql.

-- ---- gpu_sku: the step-time model's GPU generation ------------------------------------------------
-- Added without a default and filled by UPDATE, so that no "missing value" is left in the catalog
-- (a binary-upgrade dump of a fresh install has none).
ALTER TABLE llm_econ.gpu_sku ADD COLUMN generation text
    CHECK (generation OPERATOR(pg_catalog.=) ANY (ARRAY['ampere', 'hopper', 'blackwell', 'cdna2', 'cdna3', 'other']));
UPDATE llm_econ.gpu_sku SET generation = 'other';
ALTER TABLE llm_econ.gpu_sku ALTER COLUMN generation SET DEFAULT 'other', ALTER COLUMN generation SET NOT NULL;
COMMENT ON COLUMN llm_econ.gpu_sku.generation IS 'architecture family choosing the step-time model''s matmul and attention efficiency curve: ampere, hopper, blackwell, cdna2, cdna3, other (default: conservative figures)';

-- ---- run_spec: the step-time model's hardware, frozen like the other hardware fields ---------------
ALTER TYPE llm_econ.run_spec
    ADD ATTRIBUTE hbm_bytes_per_s float8 CASCADE,
    ADD ATTRIBUTE gpu_generation text CASCADE;
COMMENT ON COLUMN llm_econ.run_spec.hbm_bytes_per_s IS 'HBM bandwidth per GPU, bytes/s (frozen from gpu_sku.hbm_gb_per_s); NULL = unknown, the step-time model then refuses the value';
COMMENT ON COLUMN llm_econ.run_spec.gpu_generation IS 'GPU generation choosing the step-time model''s matmul and attention efficiency (frozen from gpu_sku.generation): ampere, hopper, blackwell, cdna2, cdna3, other; NULL = unknown, the step-time model then refuses the value';
COMMENT ON FUNCTION llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8,
                                      float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text) IS
  'validating run_spec constructor: looks the SKU up by key or alias (case-insensitive) and freezes its peak at dtype, HBM (as the driver reports it), links, TDP, HBM bandwidth and GPU generation into the value; inter_node_gbit_per_s is Gbit/s per GPU per direction (400 = one NDR400 port = 50e9 bytes/s)';

-- The GPU generation of the shipped parts (the step-time model's efficiency curve, src/core/step.c).
-- Architecture families as the vendors name them: NVIDIA Ampere (GA100: A100, A800; GA102: A10,
-- A10G, A40), Hopper (GH100: H100, H200, H800, H20, GH200), Blackwell data-centre parts (B100,
-- B200, B300, GB200, GB300); AMD CDNA 2 (MI250X) and CDNA 3 (MI300X, MI325X); everything else
-- (Volta, Turing, Ada, consumer Blackwell, CDNA 4, Gaudi, TPU, workstation cards) keeps 'other',
-- the model's conservative figures.  User rows keep what they were given (default 'other').
UPDATE llm_econ.gpu_sku g SET generation = v.generation
  FROM (VALUES ('A100-40GB', 'ampere'), ('A100-80GB', 'ampere'), ('A100-80GB-PCIe', 'ampere'),
               ('A800', 'ampere'), ('A10', 'ampere'), ('A10G', 'ampere'), ('A40', 'ampere'),
               ('H100-SXM5', 'hopper'), ('H100-PCIe', 'hopper'), ('H100-NVL', 'hopper'),
               ('H200-SXM5', 'hopper'), ('H200-NVL', 'hopper'), ('H800', 'hopper'), ('H20', 'hopper'),
               ('GH200', 'hopper'),
               ('B100', 'blackwell'), ('B200', 'blackwell'), ('B300', 'blackwell'),
               ('GB200', 'blackwell'), ('GB300', 'blackwell'),
               ('MI250X', 'cdna2'), ('MI300X', 'cdna3'), ('MI325X', 'cdna3')) AS v(sku, generation)
 WHERE g.sku OPERATOR(pg_catalog.=) v.sku AND g.builtin;

CREATE FUNCTION llm_econ.step_breakdown(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true,
    OUT phase text, OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_step_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 8;
COMMENT ON FUNCTION llm_econ.step_breakdown(llm_econ.run_spec, boolean) IS
  'one optimizer step of the spec''s layout, in seconds by phase: compute (GEMMs at a shape-dependent efficiency per GPU generation, attention, memory-bound work, recompute), tp_comm, cp_comm, ep_comm, pp_bubble (1F1B, (pp-1)/(m*vpp)), dp_comm_exposed, optimizer, total; needs the model shape and global_batch (22023 naming what is missing); dp_overlap false: gradient reduction after the backward pass (Megatron-LM 2021-22)';

CREATE FUNCTION llm_econ.predicted_mfu(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true) RETURNS float8
AS 'MODULE_PATHNAME', 'le_predicted_mfu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_mfu(llm_econ.run_spec, boolean) IS
  'MFU the step-time model predicts for the spec''s layout: 6·N_active·tokens per step / (n_gpus · peak_flops · step seconds); the spec''s own mfu is not read';

CREATE FUNCTION llm_econ.predicted_time(spec llm_econ.run_spec, dp_overlap boolean DEFAULT true) RETURNS interval
AS 'MODULE_PATHNAME', 'le_predicted_time_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_time(llm_econ.run_spec, boolean) IS
  'wall time of the run at the predicted MFU: n_tokens / (global_batch · seq_len) steps of step_breakdown''s total, as an interval in hours:minutes:seconds';

-- The offers cheapest_plan prices plans with, through the price machinery cheapest_offers uses
-- (_latest_prices): per price series, the observation in effect at "at" (the latest at or before
-- it; withdrawn series left out), of one pricing (NULL = all), no older than max_age (NULL = no
-- bound), suspect prices (flagged by the import checks) left out.
CREATE FUNCTION llm_econ._plan_offers(at timestamptz, pricing text, max_age interval)
RETURNS TABLE (sku text, provider text, region text, instance_type text, pricing text,
               usd_per_gpu_hour numeric, gpus_per_instance int4, observed_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT ps.sku, l.provider, l.region, l.instance_type, l.pricing, l.usd_per_gpu_hour,
         l.gpus_per_instance, l.observed_at
    FROM (SELECT DISTINCT s.sku, s.provider, s.pricing FROM llm_econ.price_series s
           WHERE llm_econ._check_pricing($2) IS NULL
              OR s.pricing OPERATOR(pg_catalog.=) llm_econ._check_pricing($2)) AS ps
   CROSS JOIN LATERAL llm_econ._latest_prices(ps.sku, ps.provider, ps.pricing, $1, NULL, NULL,
                                              llm_econ._check_max_age($3)) AS l
   WHERE l.suspect IS NULL
$$;
COMMENT ON FUNCTION llm_econ._plan_offers(timestamptz, text, interval) IS
  'internal: every price series'' observation in effect at "at" (withdrawn series, suspect prices and observations older than max_age left out), of one pricing (NULL = all); the offers cheapest_plan prices with';

CREATE FUNCTION llm_econ.cheapest_plan(model llm_econ.run_spec, deadline interval,
    at timestamptz DEFAULT pg_catalog.now(), pricing text DEFAULT NULL,
    max_gpus int4 DEFAULT 16384, max_age interval DEFAULT NULL)
RETURNS TABLE (sku text, provider text, region text, instance_type text, pricing text,
               n_gpus int4, tp int4, pp int4, cp int4, ep int4, dp int4, zero_stage int4,
               recompute text, predicted_mfu float8, wall_time interval,
               usd_per_gpu_hour numeric, cost_usd numeric, spec llm_econ.run_spec)
AS 'MODULE_PATHNAME', 'le_cheapest_plan_fn' LANGUAGE C STABLE PARALLEL SAFE COST 10000 ROWS 100;
COMMENT ON FUNCTION llm_econ.cheapest_plan(llm_econ.run_spec, interval, timestamptz, text, int4, interval) IS
  'the plans that train the model (its n_params, n_active_params, n_tokens, shape, seq_len, global_batch, dtype, network; not its sku, n_gpus or layout) within deadline: every SKU with an offer in effect at "at" (pricing NULL = all, offers older than max_age left out), every GPU count in whole nodes up to max_gpus, every layout that fits in HBM, timed by the step-time model; cheapest first (at most 10000 rows), each with the run_spec that reproduces its predicted_time and, through estimate_cost(spec, usd_per_gpu_hour), its cost; no rows when no plan meets the deadline';

-- Stored plans: freeze the two new hardware fields from the plan's SKU, as run_spec(...) does (a plan
-- whose SKU no longer exists keeps them NULL).  Nothing priced changes.  As in part 40, the freeze
-- trigger is bypassed: it would re-check each plan's SKU and price.
DO $$
DECLARE
  role text := pg_catalog.current_setting('session_replication_role');
BEGIN
  PERFORM pg_catalog.set_config('session_replication_role', 'replica', true);
  UPDATE llm_econ.run_plan p
     SET spec.hbm_bytes_per_s = g.hbm_gb_per_s OPERATOR(pg_catalog.*) 1e9::pg_catalog.float8,
         spec.gpu_generation = g.generation
    FROM llm_econ.gpu_sku g
   WHERE g.sku OPERATOR(pg_catalog.=) (p.spec).sku;
  PERFORM pg_catalog.set_config('session_replication_role', role, true);
END
$$;
-- llm_econ 0.2.0 -> 0.3.0 update script, part 60: dashboards (the same statements as src/sql/dashboards.sql, which a fresh install runs; keep the two equal).

-- A day's row holds the prices in effect at the end of that UTC day (the latest observation
-- strictly before the next midnight, as price_daily always counted) over the series of one
-- (sku, provider, pricing) group.  Rows run densely from the group's first observation day to
-- its last; the days after that, up to yesterday, repeat the last row and are produced by the
-- views (_price_daily_all), so nothing needs refreshing as the calendar moves on.  A panel
-- reads an index range of this table: its cost grows with the range shown, not with the history.
-- It keeps the days from 2000-01-01 to 2100-01-01 (an observation dated outside counts from or
-- up to those bounds), so a mistyped year cannot make a group millions of rows long.
-- Derived data: not dumped, rebuilt as price_snapshot is loaded.
CREATE TABLE llm_econ.price_daily_summary (
    "time"      timestamptz NOT NULL,
    sku         text NOT NULL,
    provider    text NOT NULL,
    pricing     text NOT NULL,
    offers      int4 NOT NULL CHECK (offers > 0),
    min_usd     numeric NOT NULL,
    median_usd  numeric NOT NULL,
    max_usd     numeric NOT NULL,
    sum_usd     numeric NOT NULL,
    PRIMARY KEY (sku, provider, pricing, "time")
);
CREATE INDEX price_daily_summary_time ON llm_econ.price_daily_summary ("time");
COMMENT ON TABLE llm_econ.price_daily_summary IS
  'derived: per UTC day and (sku, provider, pricing), the prices of the series in effect at the end of the day, from the group''s first to its last observation day; maintained by trigger';
COMMENT ON COLUMN llm_econ.price_daily_summary."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily_summary.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_summary.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_summary.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_summary.offers IS 'series (region, instance type) with a price in effect at the end of the day';
COMMENT ON COLUMN llm_econ.price_daily_summary.min_usd IS 'cheapest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.median_usd IS 'their median (mean of the two middle prices when even), $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.max_usd IS 'dearest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.sum_usd IS 'sum of their prices (for means over providers)';

-- One row per (sku, provider, pricing) group with observations: the day of its last
-- observation (where its summary rows end), and the row writers lock to serialise the
-- maintenance of one group.
CREATE TABLE llm_econ.price_daily_group (
    sku        text NOT NULL,
    provider   text NOT NULL,
    pricing    text NOT NULL,
    last_day   timestamptz,
    dirty_since timestamptz,
    PRIMARY KEY (sku, provider, pricing)
);
COMMENT ON TABLE llm_econ.price_daily_group IS
  'derived: the (sku, provider, pricing) groups of price_snapshot with the day of their last observation; writers lock a group''s row while they update its summary';
COMMENT ON COLUMN llm_econ.price_daily_group.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_group.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_group.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_group.last_day IS 'midnight UTC of the day of the group''s last observation (its last summary day)';
COMMENT ON COLUMN llm_econ.price_daily_group.dirty_since IS 'set by a writer (holding the row locked) to the first day to recompute; NULL again when its statement ends';

-- Recomputes the summary of each group marked dirty from the day "since" (midnight UTC) onwards,
-- and the group's last_day; the caller holds the groups' rows locked.  Days before "since" depend
-- only on observations before it and are kept.  Per series: one backward index probe for the
-- price in effect at "since", then its observations from there on, so an import appended at
-- the end of the history recomputes only its last days.
CREATE FUNCTION llm_econ._price_daily_refresh()
RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  skus text[];
  providers text[];
  pricings text[];
  since timestamptz[];
  fresh boolean[];
BEGIN
  -- the groups marked by this transaction (a writer marks only rows it holds locked); a group's
  -- rows must also reach the days between its former last day and dirty_since
  SELECT array_agg(gr.sku ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(gr.provider ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(gr.pricing ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(least(gr.dirty_since, (gr.last_day AT TIME ZONE 'UTC' + interval '1 day') AT TIME ZONE 'UTC')
                   ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(gr.last_day IS NULL ORDER BY gr.sku, gr.provider, gr.pricing)
    INTO skus, providers, pricings, since, fresh
    FROM llm_econ.price_daily_group gr WHERE gr.dirty_since IS NOT NULL;
  IF skus IS NULL THEN
    RETURN;
  END IF;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = NULL WHERE gr.dirty_since IS NOT NULL;
  DELETE FROM llm_econ.price_daily_summary d
   USING unnest(skus, providers, pricings, since) AS g(sku, provider, pricing, since)
   WHERE d.sku = g.sku AND d.provider = g.provider AND d.pricing = g.pricing AND d."time" >= g.since;
  WITH g AS (
         SELECT * FROM unnest(skus, providers, pricings, since, fresh) AS g(sku, provider, pricing, since, fresh)),
       obs AS (
         SELECT s.sku, s.provider, s.pricing, s.series_id, g.since, o.observed_at, o.usd
           FROM g JOIN llm_econ.price_series s
             ON s.sku = g.sku AND s.provider = g.provider AND s.pricing = g.pricing
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.observed_at < g.since AND NOT g.fresh
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                -- a group new to the summary (no last day yet) had no observation before this
                -- statement, so all of its observations count
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at >= CASE WHEN g.fresh THEN '-infinity' ELSE g.since END)) AS o(observed_at, usd)),
       spans AS (   -- UTC days [f, t) at whose end each observation is in effect (t NULL: to the last
                    -- day), within the days the summary keeps: 2000-01-01 to 2100-01-01
         SELECT obs.sku, obs.provider, obs.pricing, obs.usd,
                least(greatest(date_trunc('day', obs.observed_at AT TIME ZONE 'UTC'), obs.since AT TIME ZONE 'UTC',
                               timestamp '2000-01-01'), timestamp '2100-01-01') AS f,
                CASE WHEN lead(obs.observed_at) OVER w IS NOT NULL
                     THEN least(greatest(date_trunc('day', lead(obs.observed_at) OVER w AT TIME ZONE 'UTC'),
                                         timestamp '2000-01-01'), timestamp '2100-01-01') END AS t
           FROM obs
         WINDOW w AS (PARTITION BY obs.series_id ORDER BY obs.observed_at)),
       changes AS (  -- the days a group's prices can change, each with the group's next such day
         SELECT c.sku, c.provider, c.pricing, c.day, lead(c.day) OVER w AS next
           FROM (SELECT DISTINCT spans.sku, spans.provider, spans.pricing, spans.f AS day FROM spans) c
         WINDOW w AS (PARTITION BY c.sku, c.provider, c.pricing ORDER BY c.day)),
       last AS (
         SELECT obs.sku, obs.provider, obs.pricing,
                least(greatest(date_trunc('day', max(obs.observed_at) AT TIME ZONE 'UTC'), timestamp '2000-01-01'),
                      timestamp '2100-01-01') AS day
           FROM obs GROUP BY 1, 2, 3),
       state AS (    -- the group's prices at the end of each such day: the same until the next one
         SELECT c.sku, c.provider, c.pricing, c.day, c.next, count(*) AS offers, min(s.usd) AS min_usd,
                (percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd)
                 + percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd DESC)) * 0.5 AS median_usd,
                max(s.usd) AS max_usd, sum(s.usd) AS sum_usd
           FROM changes c
           JOIN (SELECT s.sku, s.provider, s.pricing, s.usd, d.day   -- each priced span, on the days it covers
                   FROM spans s
                   JOIN last l ON l.sku = s.sku AND l.provider = s.provider AND l.pricing = s.pricing
                  CROSS JOIN LATERAL generate_series(s.f, coalesce(s.t - interval '1 day', l.day), interval '1 day') AS d(day)
                  WHERE s.usd IS NOT NULL) s
             ON s.sku = c.sku AND s.provider = c.provider AND s.pricing = c.pricing AND s.day = c.day
          GROUP BY c.sku, c.provider, c.pricing, c.day, c.next),
       new_last AS (  -- each group's last observation day (NULL: none left)
         UPDATE llm_econ.price_daily_group gr SET last_day = l.day AT TIME ZONE 'UTC'
           FROM unnest(skus, providers, pricings) AS g(sku, provider, pricing)
           LEFT JOIN last l ON l.sku = g.sku AND l.provider = g.provider AND l.pricing = g.pricing
          WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)
  INSERT INTO llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd)
  SELECT d.day AT TIME ZONE 'UTC', st.sku, st.provider, st.pricing, st.offers, st.min_usd, st.median_usd,
         st.max_usd, st.sum_usd
    FROM state st
    JOIN last l ON l.sku = st.sku AND l.provider = st.provider AND l.pricing = st.pricing
   CROSS JOIN LATERAL generate_series(st.day, coalesce(st.next - interval '1 day', l.day), interval '1 day') AS d(day);
  -- groups left without observations are dropped
  DELETE FROM llm_econ.price_daily_group gr
   USING unnest(skus, providers, pricings) AS g(sku, provider, pricing)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing AND gr.last_day IS NULL;
  -- a delete can move a group's last day back before "since": the rows after it go (the views
  -- repeat the last row instead)
  DELETE FROM llm_econ.price_daily_summary d
   USING unnest(skus, providers, pricings) AS g(sku, provider, pricing)
    JOIN llm_econ.price_daily_group gr
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   WHERE d.sku = gr.sku AND d.provider = gr.provider AND d.pricing = gr.pricing AND d."time" > gr.last_day;
  DELETE FROM llm_econ.price_daily_summary d
   USING (SELECT g.sku, g.provider, g.pricing FROM unnest(skus, providers, pricings) AS g(sku, provider, pricing)
           WHERE NOT EXISTS (SELECT 1 FROM llm_econ.price_daily_group gr
                              WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)) AS gone
   WHERE d.sku = gone.sku AND d.provider = gone.provider AND d.pricing = gone.pricing;
END $$;
-- SECURITY INVOKER: only a role that may write the summary (its owner) can run it usefully;
-- EXECUTE is the owner's too (the maintenance trigger runs it with the owner's rights).
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_refresh() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_refresh() IS
  'internal: recomputes price_daily_summary of the price_daily_group rows marked dirty (from dirty_since on) and clears the marks; the caller holds those rows locked';

-- Statement trigger of price_snapshot (insert, update, delete): the groups the changed rows
-- belong to are locked in key order, then refreshed from the earliest changed day.  The lock
-- is an UPDATE of the group row, so a concurrent writer of the same group waits until this
-- transaction ends and then (READ COMMITTED: each statement of this function takes a new
-- snapshot) sees its rows, or (REPEATABLE READ and above) fails with a serialization error
-- rather than write a summary from a stale snapshot.  SECURITY DEFINER with a fixed
-- search_path, like the price_series triggers: writers need no grant on the derived tables;
-- EXECUTE revoked from PUBLIC; it refuses to run as anything but those triggers.  It fires after
-- the price_series triggers (trigger names sort price_snapshot_series_* < price_snapshot_summary_*).
CREATE FUNCTION llm_econ._price_daily_maintain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  k_sku text[];
  k_provider text[];
  k_pricing text[];
  k_since timestamptz[];
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('INSERT', 'UPDATE', 'DELETE') THEN
    RAISE EXCEPTION 'llm_econ._price_daily_maintain() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT n.sku, n.provider, n.pricing,
                   date_trunc('day', min(n.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              FROM new_rows n GROUP BY 1, 2, 3) c;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT o.sku, o.provider, o.pricing,
                   date_trunc('day', min(o.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              FROM old_rows o GROUP BY 1, 2, 3) c;
  ELSE
    SELECT array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT r.sku, r.provider, r.pricing,
                   date_trunc('day', min(r.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              -- rows whose series, instant and price the update left as they were (as the
              -- suspect flag's UPDATE does) change no summary row
              FROM (SELECT n.sku, n.provider, n.pricing, n.observed_at FROM new_rows n
                     WHERE NOT EXISTS (SELECT 1 FROM old_rows o
                                        WHERE o.id = n.id AND o.sku = n.sku AND o.provider = n.provider AND o.pricing = n.pricing
                                         AND o.region IS NOT DISTINCT FROM n.region
                                         AND o.instance_type IS NOT DISTINCT FROM n.instance_type
                                         AND o.observed_at = n.observed_at
                                         AND o.usd_per_gpu_hour::text IS NOT DISTINCT FROM n.usd_per_gpu_hour::text)
                    UNION ALL
                    SELECT o.sku, o.provider, o.pricing, o.observed_at FROM old_rows o
                     WHERE NOT EXISTS (SELECT 1 FROM new_rows n
                                        WHERE n.id = o.id AND o.sku = n.sku AND o.provider = n.provider AND o.pricing = n.pricing
                                         AND o.region IS NOT DISTINCT FROM n.region
                                         AND o.instance_type IS NOT DISTINCT FROM n.instance_type
                                         AND o.observed_at = n.observed_at
                                         AND o.usd_per_gpu_hour::text IS NOT DISTINCT FROM n.usd_per_gpu_hour::text)) r
             GROUP BY 1, 2, 3) c;
  END IF;
  IF k_sku IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO llm_econ.price_daily_group (sku, provider, pricing)
  SELECT * FROM unnest(k_sku, k_provider, k_pricing) ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM llm_econ.price_daily_group gr
    JOIN unnest(k_sku, k_provider, k_pricing) AS g(sku, provider, pricing)
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   ORDER BY gr.sku, gr.provider, gr.pricing FOR UPDATE OF gr;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = g.since
    FROM unnest(k_sku, k_provider, k_pricing, k_since) AS g(sku, provider, pricing, since)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing;
  PERFORM llm_econ._price_daily_refresh();
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_maintain() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_maintain() IS
  'trigger: keeps price_daily_summary current for the (sku, provider, pricing) groups of inserted, updated or deleted price_snapshot rows';

-- TRUNCATE of price_snapshot empties the derived tables with it.
CREATE FUNCTION llm_econ._price_daily_truncate() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP <> 'TRUNCATE' THEN
    RAISE EXCEPTION 'llm_econ._price_daily_truncate() fires only as the AFTER TRUNCATE trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  TRUNCATE llm_econ.price_daily_summary, llm_econ.price_daily_group;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_truncate() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_truncate() IS
  'trigger: empties price_daily_summary and price_daily_group when price_snapshot is truncated';

CREATE TRIGGER price_snapshot_summary_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE TRIGGER price_snapshot_summary_upd AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE TRIGGER price_snapshot_summary_del AFTER DELETE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE TRIGGER price_snapshot_summary_trunc AFTER TRUNCATE ON llm_econ.price_snapshot
    FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_truncate();

-- Midnight UTC today: the first day that has not ended.  Inlined (plain SQL), so a comparison
-- with it is an index condition.
CREATE FUNCTION llm_econ._today_utc() RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT pg_catalog.date_trunc('day', pg_catalog.now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$;
COMMENT ON FUNCTION llm_econ._today_utc() IS 'internal: midnight UTC of the current day';

-- Every ended day: the stored rows, then each group's last row repeated up to yesterday.
-- Unrounded; the views below round for display.
CREATE VIEW llm_econ._price_daily_all WITH (security_invoker = true) AS
  SELECT d."time", d.sku, d.provider, d.pricing, d.offers, d.min_usd, d.median_usd, d.max_usd, d.sum_usd
    FROM llm_econ.price_daily_summary d
   WHERE d."time" OPERATOR(pg_catalog.<) llm_econ._today_utc()
  UNION ALL
  SELECT t.day AT TIME ZONE 'UTC', d.sku, d.provider, d.pricing, d.offers, d.min_usd, d.median_usd, d.max_usd, d.sum_usd
    FROM llm_econ.price_daily_group g
    JOIN llm_econ.price_daily_summary d
      ON d.sku OPERATOR(pg_catalog.=) g.sku AND d.provider OPERATOR(pg_catalog.=) g.provider
     AND d.pricing OPERATOR(pg_catalog.=) g.pricing AND d."time" OPERATOR(pg_catalog.=) g.last_day
   CROSS JOIN LATERAL pg_catalog.generate_series((g.last_day AT TIME ZONE 'UTC') OPERATOR(pg_catalog.+) interval '1 day',
                                                 (llm_econ._today_utc() AT TIME ZONE 'UTC') OPERATOR(pg_catalog.-) interval '1 day',
                                                 interval '1 day') AS t(day);
COMMENT ON VIEW llm_econ._price_daily_all IS
  'internal: every ended UTC day of every (sku, provider, pricing) group with a price in effect at its end, unrounded';
COMMENT ON COLUMN llm_econ._price_daily_all."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ._price_daily_all.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ._price_daily_all.provider IS 'provider';
COMMENT ON COLUMN llm_econ._price_daily_all.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ._price_daily_all.offers IS 'series in effect at the end of the day';
COMMENT ON COLUMN llm_econ._price_daily_all.min_usd IS 'cheapest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ._price_daily_all.median_usd IS 'their median, $/GPU-hour';
COMMENT ON COLUMN llm_econ._price_daily_all.max_usd IS 'dearest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ._price_daily_all.sum_usd IS 'sum of their prices';

CREATE VIEW llm_econ.price_daily_by_provider WITH (security_invoker = true) AS
  SELECT a."time", a.sku, a.provider, a.pricing,
         pg_catalog.round(a.min_usd, 4) AS min_usd_per_gpu_hour,
         pg_catalog.round(a.median_usd, 4) AS median_usd_per_gpu_hour,
         a.offers
    FROM llm_econ._price_daily_all a;
COMMENT ON VIEW llm_econ.price_daily_by_provider IS
  'per ended UTC day, SKU, provider and pricing: cheapest and median $/GPU-hour over the series (region, instance type) in effect at the end of the day, and how many there are; read from a maintained summary, so a panel costs what its range holds';
COMMENT ON COLUMN llm_econ.price_daily_by_provider."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.min_usd_per_gpu_hour IS 'cheapest series, $/GPU-hour, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.median_usd_per_gpu_hour IS 'median over the series, $/GPU-hour, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.offers IS 'series in effect (offers)';

-- Per UTC day: the prices in effect at the end of the day over every series of a SKU and
-- pricing (0.1.0's view, now read from the summary: same rows, same values).
CREATE OR REPLACE VIEW llm_econ.price_daily WITH (security_invoker = true) AS
  SELECT a."time", a.sku, a.pricing,
         pg_catalog.min(a.min_usd) AS min_usd_per_gpu_hour,
         pg_catalog.round(pg_catalog.sum(a.sum_usd) OPERATOR(pg_catalog./) pg_catalog.sum(a.offers), 6) AS avg_usd_per_gpu_hour,
         pg_catalog.max(a.max_usd) AS max_usd_per_gpu_hour,
         pg_catalog.count(a.provider) AS providers,
         pg_catalog.string_agg(a.provider, ', ' ORDER BY a.provider) AS provider_list
    FROM llm_econ._price_daily_all a
   GROUP BY a."time", a.sku, a.pricing;

-- Each observation's span: from it until the series' next observation (NULL: still in effect).
-- Withdrawals (NULL prices) end a span and start none.  Series first, then each one's
-- observations in time order (one index range scan by series_id), so a filter on sku, provider,
-- pricing, region or instance type reads only those series' observations.
CREATE VIEW llm_econ.price_series_spans WITH (security_invoker = true) AS
  SELECT o.observed_at AS "time", s.sku, s.provider, s.region, s.instance_type, s.pricing,
         o.observed_at AS valid_from, o.valid_to, o.usd_per_gpu_hour
    FROM llm_econ.price_series s
   CROSS JOIN LATERAL (
         SELECT p.observed_at, pg_catalog.lead(p.observed_at) OVER (ORDER BY p.observed_at) AS valid_to,
                p.usd_per_gpu_hour
           FROM llm_econ.price_snapshot p
          WHERE p.series_id OPERATOR(pg_catalog.=) s.series_id) AS o
   WHERE o.usd_per_gpu_hour IS NOT NULL;
COMMENT ON VIEW llm_econ.price_series_spans IS
  'one row per price in effect: a series'' observation with the time it held, from valid_from until the series'' next observation (valid_to NULL = still in effect); withdrawals appear as the valid_to of the price they end';
COMMENT ON COLUMN llm_econ.price_series_spans."time" IS 'valid_from, for dashboards';
COMMENT ON COLUMN llm_econ.price_series_spans.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_series_spans.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_series_spans.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_series_spans.instance_type IS 'machine type; NULL = not given';
COMMENT ON COLUMN llm_econ.price_series_spans.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_series_spans.valid_from IS 'when the price was observed';
COMMENT ON COLUMN llm_econ.price_series_spans.valid_to IS 'the series'' next observation (a new price or a withdrawal); NULL = still in effect';
COMMENT ON COLUMN llm_econ.price_series_spans.usd_per_gpu_hour IS 'USD per GPU-hour';

-- Per month: each provider's time-weighted price at day resolution (each ended day counts with
-- the provider's cheapest series in effect at its end; days with none are left out), ranked.
CREATE VIEW llm_econ.cheapest_provider_monthly WITH (security_invoker = true) AS
  SELECT m."time", m.sku, m.pricing, m.provider,
         pg_catalog.round(m.usd, 4) AS usd_per_gpu_hour,
         pg_catalog.rank() OVER (PARTITION BY m."time", m.sku, m.pricing ORDER BY m.usd) AS rank
    FROM (SELECT pg_catalog.date_trunc('month', a."time" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS "time",
                 a.sku, a.pricing, a.provider, pg_catalog.avg(a.min_usd) AS usd
            FROM llm_econ._price_daily_all a
           GROUP BY 1, 2, 3, 4) m;
COMMENT ON VIEW llm_econ.cheapest_provider_monthly IS
  'per UTC month, SKU and pricing: each provider''s time-weighted $/GPU-hour (mean over the month''s ended days of its cheapest series in effect at the end of the day) and its rank, 1 = cheapest';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly."time" IS 'the month (its first midnight UTC)';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.provider IS 'provider';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.usd_per_gpu_hour IS 'time-weighted $/GPU-hour over the days of the month it had a price, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.rank IS '1 = cheapest provider of the month (ties share a rank)';

-- Spot discount of each provider: its spot price against its own on-demand price, same SKU
-- and day (cheapest series of each).
CREATE VIEW llm_econ.spot_discount_daily WITH (security_invoker = true) AS
  SELECT b."time", b.sku, b.provider,
         pg_catalog.round(b.od, 4) AS on_demand_usd_per_gpu_hour,
         pg_catalog.round(b.spot, 4) AS spot_usd_per_gpu_hour,
         pg_catalog.round(1 OPERATOR(pg_catalog.-) b.spot OPERATOR(pg_catalog./) b.od, 4) AS discount
    FROM (SELECT a."time", a.sku, a.provider,
                 pg_catalog.min(a.min_usd) FILTER (WHERE a.pricing OPERATOR(pg_catalog.=) 'on_demand') AS od,
                 pg_catalog.min(a.min_usd) FILTER (WHERE a.pricing OPERATOR(pg_catalog.=) 'spot') AS spot
            FROM llm_econ._price_daily_all a
           GROUP BY a."time", a.sku, a.provider) b
   WHERE b.od IS NOT NULL AND b.spot IS NOT NULL;
COMMENT ON VIEW llm_econ.spot_discount_daily IS
  'per ended UTC day, SKU and provider with both prices: the provider''s cheapest spot price against its own cheapest on-demand price';
COMMENT ON COLUMN llm_econ.spot_discount_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spot_discount_daily.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.spot_discount_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spot_discount_daily.on_demand_usd_per_gpu_hour IS 'cheapest on-demand series, $/GPU-hour, 4 decimals';
COMMENT ON COLUMN llm_econ.spot_discount_daily.spot_usd_per_gpu_hour IS 'cheapest spot series, $/GPU-hour, 4 decimals';
COMMENT ON COLUMN llm_econ.spot_discount_daily.discount IS '1 - spot / on-demand (0.6 = spot costs 60% less), 4 decimals';

GRANT SELECT ON llm_econ.price_daily_summary, llm_econ.price_daily_group, llm_econ._price_daily_all,
                llm_econ.price_daily_by_provider, llm_econ.price_series_spans,
                llm_econ.cheapest_provider_monthly, llm_econ.spot_discount_daily TO PUBLIC;

-- Fill the summary from the prices loaded so far (the shipped history, or an existing install's).
INSERT INTO llm_econ.price_daily_group (sku, provider, pricing, dirty_since)
SELECT DISTINCT s.sku, s.provider, s.pricing, '-infinity'::timestamptz FROM llm_econ.price_series s;
SELECT llm_econ._price_daily_refresh();

-- 70_versions.sql: PostgreSQL 18 names NOT NULL constraints (<table>_<column>_not_null) and a column rename keeps the old name; give them the names a fresh install has.
DO $$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT con.conrelid::regclass AS rel, con.conname, cl.relname || '_' || a.attname || '_not_null' AS fresh
      FROM pg_catalog.pg_constraint con
      JOIN pg_catalog.pg_class cl ON cl.oid OPERATOR(pg_catalog.=) con.conrelid
      JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) con.conrelid
                                     AND a.attnum OPERATOR(pg_catalog.=) con.conkey[1]
     WHERE con.contype OPERATOR(pg_catalog.=) 'n'
       AND cl.relnamespace OPERATOR(pg_catalog.=) 'llm_econ'::regnamespace
       AND con.conname OPERATOR(pg_catalog.<>) (cl.relname || '_' || a.attname || '_not_null')
  LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', c.rel, c.conname, c.fresh);
  END LOOP;
END $$;
-- 80_errors.sql: messages in the server's error style (SQLSTATE by kind, names quoted, line numbers in a DETAIL sentence) and comments citing real sources: the SQL functions and comments that changed, as a fresh install has them.
COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component in this order, unrounded numeric USD, each with the numbers it used in words: '
  'compute = gpu_hours · usd_per_gpu_hour; '
  'checkpoint = compute · checkpoint_write / checkpoint_every (throughput lost writing; the defaults, 90 s every 30 min, give 5%); '
  'storage = (checkpoints_kept · checkpoint_gb + dataset_gb) · storage_usd_per_gb_month · storage_months, GB = 10^9 bytes, '
  'checkpoint_gb NULL = weights + optimizer state per parameter · n_params (14 bytes for bf16 AdamW: 7B = 98 GB), dataset_gb NULL = 4 bytes per token · n_tokens; '
  'egress = egress_gb · egress_usd_per_gb (cross-region; 0 when co-located); '
  'energy = energy_kwh(spec, pue) · usd_per_kwh when owned, else 0 (in the cloud price; for an owned cluster pass an hourly price without energy, e.g. tco_per_gpu_hour(sku, years, utilization, 0, pue)); '
  'owned with the spec''s tdp_watts NULL (power not published): energy and total usd are NULL, the assumption says why; '
  'spot_buffer = compute · spot_buffer (an allowance for spot reclaims and ablations; the default 10% is an assumption to replace with your own); total = the sum. '
  'Prices >= 0 and finite, spot_buffer in [0, 1], intervals > 0 with checkpoint_write < checkpoint_every, counts and GB >= 0, pue in [1, 5]. '
  'Not STRICT: only checkpoint_gb and dataset_gb may be NULL; another NULL is an error';
COMMENT ON TABLE llm_econ.mfu_reference IS 'published model FLOPs utilisation of real training runs (each row''s source names the paper or report it is from)';
-- 90_house.sql: the house-keeping of 0.3.0 (issue 18): one SKU rule in C (src/sku.c) that SQL calls; the series prune and the history loader read their input once. It carries the final definitions of the functions several parts of this round changed (_staged_history, _load_price_history, _price_series_prune), so the parts before it no longer repeat them; import_skypilot_catalog, _sku_find and _known_gpus have theirs in 20_prices.sql.

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
    RAISE NOTICE 'skipped % lines', skipped USING DETAIL = 'Why: ' || left(names, 500) || '.';
  END IF;

  DELETE FROM llm_econ.price_history_staging s WHERE s.staged_by = me;
  inserted := coalesce(inserted, 0);
  unchanged := coalesce(unchanged, 0);
  withdrawn := coalesce(withdrawn, 0);
END $$;
COMMENT ON FUNCTION llm_econ._load_price_history(text, text, boolean) IS
  'internal: load_price_history with the install script''s quiet mode';

-- 92_focus_speed.sql: the staged FOCUS load inserts from C when it can (_focus_staged_insert) and falls back to INSERT ... ON CONFLICT on a stored charge; a refusal gives the GRANT in a HINT (_focus_refusal returns {message, hint}); one row type, llm_econ._focus_line, for _focus_lines, _focus_staged_rows and the importers' temporary table. It carries the final definitions of those functions and of _focus_store, _focus_temp, import_focus and load_focus, so 30_finance.sql no longer creates them.

-- FOCUS lines typed in C: periods (UTC when no offset is written, date-only included), the provider
-- key (AWS -> aws, Microsoft -> azure, ...), pricing, the GPU machine (SkuPriceDetails' InstanceType,
-- else a word of ChargeDescription that is a machine-type alias: AWS writes "... per On Demand Linux
-- p5.48xlarge Instance Hour"), GPUs per machine (SkuPriceDetails' GpuCount, a whole number, else the
-- alias's), GPU-hours, amounts, the run (Tags run_id, x_run_id column, Tags x_run_id), and the charge
-- identity (row_hash).  The first bad line is an error naming the line and the column.
CREATE TYPE llm_econ._focus_line AS (
    line int4, record jsonb, charge_period_start timestamptz, charge_period_end timestamptz,
    billing_period_start timestamptz, billing_period_end timestamptz, provider text, service_name text,
    service_category text, charge_category text, charge_description text, pricing_category text, pricing text,
    region text, sku text, instance_type text, gpus_per_instance int4, gpu_type text, consumed_quantity numeric,
    consumed_unit text, gpu_hours numeric, billed_cost numeric, effective_cost numeric, list_cost numeric,
    billing_currency text, run_id text, resource_id text, tags jsonb, billing_account_id text, row_hash text,
    occurrence int4
);
COMMENT ON TYPE llm_econ._focus_line IS
  'internal: a FOCUS line typed for llm_econ.spend (what _focus_lines and _focus_staged_rows return, and the importers'' temporary table holds): the file line, record, the typed columns, gpu_type (for a SKU not found from the machine type), the charge identity row_hash, and occurrence (the k-th line of the file with that identity; NULL from _focus_lines, whose caller numbers the copies)';
COMMENT ON COLUMN llm_econ._focus_line.line IS 'the line of the file (the first physical line of the record)';
COMMENT ON COLUMN llm_econ._focus_line.record IS 'the columns no typed column holds, header name -> value';
COMMENT ON COLUMN llm_econ._focus_line.charge_period_start IS 'ChargePeriodStart (UTC when no offset is written)';
COMMENT ON COLUMN llm_econ._focus_line.charge_period_end IS 'ChargePeriodEnd';
COMMENT ON COLUMN llm_econ._focus_line.billing_period_start IS 'BillingPeriodStart';
COMMENT ON COLUMN llm_econ._focus_line.billing_period_end IS 'BillingPeriodEnd';
COMMENT ON COLUMN llm_econ._focus_line.provider IS 'the provider key of ServiceProviderName or ProviderName';
COMMENT ON COLUMN llm_econ._focus_line.service_name IS 'ServiceName';
COMMENT ON COLUMN llm_econ._focus_line.service_category IS 'ServiceCategory';
COMMENT ON COLUMN llm_econ._focus_line.charge_category IS 'ChargeCategory';
COMMENT ON COLUMN llm_econ._focus_line.charge_description IS 'ChargeDescription';
COMMENT ON COLUMN llm_econ._focus_line.pricing_category IS 'PricingCategory';
COMMENT ON COLUMN llm_econ._focus_line.pricing IS 'on_demand, spot or reserved, from PricingCategory';
COMMENT ON COLUMN llm_econ._focus_line.region IS 'RegionId, else Region';
COMMENT ON COLUMN llm_econ._focus_line.sku IS 'the gpu_sku key of the machine type, when it is a known alias';
COMMENT ON COLUMN llm_econ._focus_line.instance_type IS 'the GPU machine type (alias spelling)';
COMMENT ON COLUMN llm_econ._focus_line.gpus_per_instance IS 'GPUs of the machine (SkuPriceDetails GpuCount, else the aliass)';
COMMENT ON COLUMN llm_econ._focus_line.gpu_type IS 'SkuPriceDetails GpuType: the SKU is looked up from it when the machine type gives none';
COMMENT ON COLUMN llm_econ._focus_line.consumed_quantity IS 'ConsumedQuantity';
COMMENT ON COLUMN llm_econ._focus_line.consumed_unit IS 'ConsumedUnit';
COMMENT ON COLUMN llm_econ._focus_line.gpu_hours IS 'ConsumedQuantity in hours x GPUs, for GPU machine lines';
COMMENT ON COLUMN llm_econ._focus_line.billed_cost IS 'BilledCost';
COMMENT ON COLUMN llm_econ._focus_line.effective_cost IS 'EffectiveCost';
COMMENT ON COLUMN llm_econ._focus_line.list_cost IS 'ListCost';
COMMENT ON COLUMN llm_econ._focus_line.billing_currency IS 'BillingCurrency';
COMMENT ON COLUMN llm_econ._focus_line.run_id IS 'the run: Tags run_id, x_run_id column, Tags x_run_id';
COMMENT ON COLUMN llm_econ._focus_line.resource_id IS 'ResourceId, else AllocatedResourceId';
COMMENT ON COLUMN llm_econ._focus_line.tags IS 'Tags as a JSON object';
COMMENT ON COLUMN llm_econ._focus_line.billing_account_id IS 'BillingAccountId';
COMMENT ON COLUMN llm_econ._focus_line.row_hash IS 'the charge identity (md5 hex)';
COMMENT ON COLUMN llm_econ._focus_line.occurrence IS 'the k-th line of the file with this charge identity; NULL from _focus_lines';

CREATE OR REPLACE FUNCTION llm_econ._focus_refusal(fn text, who text, replacing boolean, staged boolean) RETURNS text[]
LANGUAGE sql STABLE
AS $$
  SELECT CASE
    WHEN NOT pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT')
      THEN ARRAY[pg_catalog.format('%s needs INSERT on llm_econ.spend', $1),
                 pg_catalog.format('GRANT INSERT ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN NOT pg_catalog.has_sequence_privilege('llm_econ.spend_id_seq', 'USAGE')
      THEN ARRAY[pg_catalog.format('%s needs USAGE on sequence llm_econ.spend_id_seq', $1),
                 pg_catalog.format('GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO %I;', CURRENT_USER)]
    WHEN $3 AND NOT (pg_catalog.has_table_privilege('llm_econ.spend', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.spend', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s with a delivery replaces earlier lines and needs SELECT and DELETE on llm_econ.spend', $1),
                 pg_catalog.format('GRANT SELECT, DELETE ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN $4 AND NOT (pg_catalog.has_table_privilege('llm_econ.focus_staging', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.focus_staging', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s needs SELECT and DELETE on llm_econ.focus_staging', $1),
                 pg_catalog.format('GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO %I;', CURRENT_USER)]
    WHEN pg_catalog.row_security_active('llm_econ.spend') AND NOT llm_econ._is_tenant_member($2)
      THEN ARRAY[pg_catalog.format('%s: role %I may not write the lines of tenant %I (not a member of that role)', $1, CURRENT_USER, $2),
                 pg_catalog.format('Pass the tenant of a role %I is a member of, or GRANT %I TO %I;', CURRENT_USER, $2, CURRENT_USER)]
  END
$$;
COMMENT ON FUNCTION llm_econ._focus_refusal(text, text, boolean, boolean) IS
  'internal: why the current role may not import FOCUS lines for a tenant (a missing grant, or not a member of the tenant role) and the GRANT that would let it, as {message, hint}; NULL when it may';

CREATE OR REPLACE FUNCTION llm_econ._focus_lines(csv text, what text) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_lines_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_lines(text, text) IS
  'internal: the data lines of a FOCUS CSV text typed for llm_econ.spend, with their charge identity; 22023 naming the line and column of the first bad line';

CREATE OR REPLACE FUNCTION llm_econ._focus_staged_rows(what text, part int4) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_staged_rows_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_rows(text, int4) IS
  'internal: the current role''s focus_staging lines typed as _focus_lines types a text, with each line''s occurrence (k-th line of the file with its charge identity), one row per call so that INSERT ... SELECT streams; part 1 starts a load, parts 2, 3, ... (later statements of the transaction) continue it, work_mem / 64 lines each, until _focus_staged_done() is not NULL; copies are counted in a hash table of at most work_mem x hash_mem_multiplier (as PostgreSQL bounds its own hash tables), the lines of identities that do not fit are numbered in later rounds from a tuplestore';

CREATE OR REPLACE FUNCTION llm_econ._focus_staged_insert(what text, who text, source text, delivery text) RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_insert_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_insert(text, text, text, text) IS
  'internal: inserts the current role''s focus_staging lines, typed and numbered as _focus_staged_rows does, into spend for tenant who from C (heap in batches; constraints, indexes, triggers and the foreign key as for an INSERT) with no ON CONFLICT: a stored charge is a unique violation of spend_one_line; then deletes the staged lines it loaded (each as it reads it, or by load_focus''s DELETE when a trigger, rule or missing DELETE privilege says that statement must run); the lines inserted, or NULL (nothing done) when this INSERT could not be exactly the SQL one (other policies, BEFORE row triggers, a partitioned or distributed spend, ...)';

CREATE OR REPLACE FUNCTION llm_econ._focus_store(who text, source text, delivery text,
    OUT inserted bigint, OUT skipped bigint, OUT replaced bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
BEGIN
  PERFORM llm_econ._focus_temp();
  replaced := 0;
  IF _focus_store.delivery IS NOT NULL THEN
    WITH periods AS (SELECT DISTINCT f.provider, f.billing_account_id, f.billing_period_start FROM llm_econ_focus_lines f),
         gone AS (
           DELETE FROM llm_econ.spend s USING periods p
            WHERE s.tenant = who AND s.provider = p.provider
              AND s.billing_account_id IS NOT DISTINCT FROM p.billing_account_id
              AND (s.billing_period_start = p.billing_period_start
                   OR (s.billing_period_start IS NULL AND p.billing_period_start IS NULL))
              AND s.delivery IS DISTINCT FROM _focus_store.delivery
           RETURNING 1)
    SELECT count(*) INTO replaced FROM gone;
  END IF;
  WITH numbered AS (
         SELECT f.*, row_number() OVER (PARTITION BY f.row_hash ORDER BY f.line) AS nth
           FROM llm_econ_focus_lines f),
       ins AS (
         INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
                billing_period_end, provider, service_name, service_category, charge_category, charge_description,
                pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
                consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
                resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
         SELECT who, n.charge_period_start, n.charge_period_end, n.billing_period_start, n.billing_period_end,
                n.provider, n.service_name, n.service_category, n.charge_category, n.charge_description,
                n.pricing_category, n.pricing, n.region,
                coalesce(n.sku, CASE WHEN n.gpu_type IS NOT NULL THEN llm_econ._sku_find(n.gpu_type) END),
                n.instance_type, n.gpus_per_instance, n.consumed_quantity, n.consumed_unit, n.gpu_hours,
                n.billed_cost, n.effective_cost, n.list_cost, n.billing_currency, n.run_id, n.resource_id, n.tags,
                n.record, _focus_store.source, n.line, n.row_hash, n.nth, n.billing_account_id,
                _focus_store.delivery
           FROM numbered n
          ORDER BY n.line                      -- ids follow the file, not the identities' order
         ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING
         RETURNING 1)
  SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM llm_econ_focus_lines) - (SELECT count(*) FROM ins)
    INTO inserted, skipped;
  TRUNCATE llm_econ_focus_lines;
END $$;
COMMENT ON FUNCTION llm_econ._focus_store(text, text, text) IS
  'internal: stores the typed FOCUS lines of the temporary table llm_econ_focus_lines (replacing earlier deliveries of the same periods when a delivery is given)';

CREATE OR REPLACE FUNCTION llm_econ._focus_temp() RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF pg_catalog.to_regclass('pg_temp.llm_econ_focus_lines') IS NOT NULL THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE llm_econ_focus_lines OF llm_econ._focus_line ON COMMIT DROP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_temp() IS 'internal: creates the transaction''s temporary table of typed FOCUS lines unless it exists';

CREATE OR REPLACE FUNCTION llm_econ.import_focus(focus_csv text, tenant text DEFAULT NULL, source text DEFAULT NULL,
    delivery text DEFAULT NULL, OUT inserted bigint, OUT skipped bigint, OUT replaced bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(import_focus.tenant, CURRENT_USER);
  refusal constant text[] := llm_econ._focus_refusal('import_focus', who, import_focus.delivery IS NOT NULL, false);
BEGIN
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF focus_csv IS NULL THEN
    RAISE EXCEPTION 'focus_csv must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF import_focus.delivery IS NOT NULL AND btrim(import_focus.delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines;
  INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_lines(focus_csv, 'focus_csv');
  SELECT s.inserted, s.skipped, s.replaced INTO inserted, skipped, replaced
    FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery) AS s;
END $$;
COMMENT ON FUNCTION llm_econ.import_focus(text, text, text, text) IS
  'imports a FOCUS 1.0-1.3 cost-and-usage CSV into spend for tenant (default: the current role): every line kept (typed columns, the other columns in record), GPU-hours for GPU instance lines, run_id from tags; all or nothing. '
  'Charges already stored for the tenant (the same FOCUS values, however the file writes them) are counted as skipped; '
  'with a delivery label, the lines earlier deliveries left for the same provider, billing account and billing period are replaced (counted in replaced), and files of one delivery add up';

CREATE OR REPLACE FUNCTION llm_econ.load_focus(tenant text DEFAULT NULL, source text DEFAULT NULL, delivery text DEFAULT NULL,
    OUT inserted bigint, OUT skipped bigint, OUT replaced bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(load_focus.tenant, CURRENT_USER);
  refusal constant text[] := llm_econ._focus_refusal('load_focus', who, load_focus.delivery IS NOT NULL, true);
  part int4 := 0;
  n bigint;
  lines bigint;
BEGIN
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF load_focus.delivery IS NOT NULL AND btrim(load_focus.delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  replaced := 0;
  IF load_focus.delivery IS NOT NULL THEN
    -- a delivery replaces what earlier deliveries left for the file's billing periods: a first
    -- pass reads only the periods, so the lines are then loaded in one streaming INSERT as well
    WITH gone AS (
           DELETE FROM llm_econ.spend s USING llm_econ._focus_staged_periods('focus_staging') AS p
            WHERE s.tenant = who AND s.provider = p.provider
              AND s.billing_account_id IS NOT DISTINCT FROM p.billing_account_id
              AND (s.billing_period_start = p.billing_period_start
                   OR (s.billing_period_start IS NULL AND p.billing_period_start IS NULL))
              AND s.delivery IS DISTINCT FROM load_focus.delivery
           RETURNING 1)
    SELECT count(*) INTO replaced FROM gone;
  END IF;
  -- first from C, with no ON CONFLICT (most loads bring only new charges), which also empties
  -- the role's staged lines; a charge already stored (a unique violation of spend_one_line) rolls
  -- that back, and the SQL path below loads the file again, skipping what is stored
  DECLARE
    conflict text;
    conflict_table text;
    conflict_schema text;
  BEGIN
    SELECT llm_econ._focus_staged_insert('focus_staging', who, load_focus.source, load_focus.delivery) INTO inserted;
  EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS conflict = CONSTRAINT_NAME, conflict_table = TABLE_NAME, conflict_schema = SCHEMA_NAME;
    IF conflict IS DISTINCT FROM 'spend_one_line' OR conflict_table IS DISTINCT FROM 'spend'
       OR conflict_schema IS DISTINCT FROM 'llm_econ' THEN
      RAISE;
    END IF;
    inserted := NULL;
  END;
  IF inserted IS NOT NULL THEN
    skipped := 0;
    RETURN;
  END IF;
  -- the typed lines stream from the staging table into spend (no temporary table, no sort:
  -- copies of a charge are numbered while typing), in INSERTs of at most work_mem / 64 lines each,
  -- so that the after-row checks PostgreSQL queues until the end of a statement stay bounded
  inserted := 0;
  LOOP
    part := part + 1;
    INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
           billing_period_end, provider, service_name, service_category, charge_category, charge_description,
           pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
           consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
           resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
    SELECT who, (x.r).charge_period_start, (x.r).charge_period_end, (x.r).billing_period_start,
           (x.r).billing_period_end, (x.r).provider, (x.r).service_name, (x.r).service_category,
           (x.r).charge_category, (x.r).charge_description, (x.r).pricing_category, (x.r).pricing, (x.r).region,
           coalesce((x.r).sku, CASE WHEN (x.r).gpu_type IS NOT NULL THEN llm_econ._sku_find((x.r).gpu_type) END),
           (x.r).instance_type, (x.r).gpus_per_instance, (x.r).consumed_quantity, (x.r).consumed_unit,
           (x.r).gpu_hours, (x.r).billed_cost, (x.r).effective_cost, (x.r).list_cost, (x.r).billing_currency,
           (x.r).run_id, (x.r).resource_id, (x.r).tags, (x.r).record, load_focus.source, (x.r).line,
           (x.r).row_hash, (x.r).occurrence, (x.r).billing_account_id, load_focus.delivery
      FROM (SELECT llm_econ._focus_staged_rows('focus_staging', part) AS r OFFSET 0) AS x
    ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    inserted := inserted + n;
    lines := llm_econ._focus_staged_done();
    EXIT WHEN lines IS NOT NULL;
  END LOOP;
  skipped := lines - inserted;
  DELETE FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER;
END $$;
COMMENT ON FUNCTION llm_econ.load_focus(text, text, text) IS
  'loads the FOCUS file the current role staged in focus_staging (\copy llm_econ.focus_stage (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e'')) as import_focus imports a text, streaming, then deletes the staged lines it loaded; all or nothing (nothing staged: 0 lines)';

-- 94_focus_worker.sql: large staged FOCUS files typed in a background worker (llm_econ.focus_typing_worker).
CREATE FUNCTION llm_econ._focus_worker_lines() RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_worker_lines_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_worker_lines() IS
  'internal: how many lines of this session''s last staged FOCUS load a background worker typed (llm_econ.focus_typing_worker); 0 when the session typed them all';
