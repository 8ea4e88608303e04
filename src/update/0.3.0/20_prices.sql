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

