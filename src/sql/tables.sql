-- Reference and price tables of llm_econ: GPU SKUs, their aliases, MFU references, dated prices.

COMMENT ON TABLE llm_econ.gpu_sku IS
  'GPU models with their dense peak throughput, memory, links and power; one row per SKU, each with its source';
COMMENT ON COLUMN llm_econ.gpu_sku.sku IS 'key, e.g. H100-SXM5; looked up case-insensitively';
COMMENT ON COLUMN llm_econ.gpu_sku.vendor IS 'maker, e.g. NVIDIA';
COMMENT ON COLUMN llm_econ.gpu_sku.name IS 'marketing name';
COMMENT ON COLUMN llm_econ.gpu_sku.hbm_gb IS 'device memory per GPU, GB (10^9 bytes)';
COMMENT ON COLUMN llm_econ.gpu_sku.hbm_gb_per_s IS 'device memory bandwidth, GB/s (10^9 bytes/s)';
COMMENT ON COLUMN llm_econ.gpu_sku.fp32_tflops IS 'dense FP32 peak, TFLOP/s (10^12); NULL = not supported or not published';
COMMENT ON COLUMN llm_econ.gpu_sku.tf32_tflops IS 'dense TF32 tensor peak, TFLOP/s; NULL = not supported or not published';
COMMENT ON COLUMN llm_econ.gpu_sku.bf16_tflops IS 'dense BF16 tensor peak, TFLOP/s; NULL = not supported or not published';
COMMENT ON COLUMN llm_econ.gpu_sku.fp16_tflops IS 'dense FP16 tensor peak, TFLOP/s; NULL = not supported or not published';
COMMENT ON COLUMN llm_econ.gpu_sku.fp8_tflops IS 'dense FP8 tensor peak, TFLOP/s; NULL = not supported or not published';
COMMENT ON COLUMN llm_econ.gpu_sku.nvlink_gb_per_s IS 'NVLink bandwidth per GPU, GB/s, both directions summed as marketed (or the vendor''s scale-up link: AMD Infinity Fabric, Intel Gaudi RoCE, Google ICI); NULL = none';
COMMENT ON COLUMN llm_econ.gpu_sku.pcie_gb_per_s IS 'host link per GPU, GB/s, both directions summed (default 64 = PCIe 4.0 x16); used inside a node when there is no NVLink';
COMMENT ON COLUMN llm_econ.gpu_sku.hbm_bytes IS 'device memory per GPU in bytes as the driver reports it (nvidia-smi memory.total MiB x 2^20), where published; NULL = not published, hbm_gb x 10^9 is used';
COMMENT ON COLUMN llm_econ.gpu_sku.generation IS
  'architecture family choosing the step-time model''s efficiency curves: ampere, hopper, blackwell, cdna2, cdna3, other (conservative figures)';
COMMENT ON COLUMN llm_econ.gpu_sku.gpus_per_node IS 'GPUs in the usual server of this part (the NVLink domain when it has one: 72 for GB200/GB300 NVL72, the ICI pod for TPUs)';
COMMENT ON COLUMN llm_econ.gpu_sku.tdp_watts IS 'board power, W; NULL = not published (TPU v5e/v5p/v6e, Trainium): energy_kwh, carbon_kg and tco_per_gpu_hour are then NULL';
COMMENT ON COLUMN llm_econ.gpu_sku.list_price_usd_low IS 'purchase price per GPU, USD, low end of the quoted range';
COMMENT ON COLUMN llm_econ.gpu_sku.list_price_usd_high IS 'purchase price per GPU, USD, high end of the quoted range';
COMMENT ON COLUMN llm_econ.gpu_sku.released IS 'launch or announcement month, stored as its first day';
COMMENT ON COLUMN llm_econ.gpu_sku.source IS 'where the figures come from';
COMMENT ON COLUMN llm_econ.gpu_sku.builtin IS 'true for rows shipped with the extension; user rows are false and are what pg_dump saves';

COMMENT ON TABLE llm_econ.gpu_sku_alias IS
  'other names of a SKU as providers and catalogs write them (H100, A100-80GB-SXM, p5.48xlarge); matched case-insensitively';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.alias IS 'the provider''s name for the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.sku IS 'the gpu_sku key it means';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.gpus_per_instance IS 'for machine-type aliases (p5.48xlarge, a2-highgpu-8g): GPUs in one machine; NULL for names of the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.source IS 'where the name is used';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.builtin IS 'true for rows shipped with the extension';
COMMENT ON TABLE llm_econ.instance_type IS
  'what each provider machine type carries, with its source: imports resolve instance types here before believing a catalog''s GPU name and count';
COMMENT ON COLUMN llm_econ.instance_type.provider IS 'provider, lower case (aws, azure, gcp, lambda, runpod, ...)';
COMMENT ON COLUMN llm_econ.instance_type.instance_type IS 'the provider''s machine type name, matched ignoring case';
COMMENT ON COLUMN llm_econ.instance_type.sku IS 'the gpu_sku key of its GPU';
COMMENT ON COLUMN llm_econ.instance_type.gpus IS 'GPUs per instance; a fraction for a slice of one GPU (1/6 for Azure NV6ads_A10_v5)';
COMMENT ON COLUMN llm_econ.instance_type.network_gbit_per_s IS 'inter-instance network per instance in Gbit/s, one direction (NULL = unknown or none: offered for single-instance plans only)';
COMMENT ON COLUMN llm_econ.instance_type.nvlink_domain IS 'GPUs joined by NVLink/NVSwitch in one instance (NULL = none or unknown)';
COMMENT ON COLUMN llm_econ.instance_type.source IS 'where the figures come from';
COMMENT ON COLUMN llm_econ.instance_type.builtin IS 'true for rows shipped with the extension';
COMMENT ON TABLE llm_econ.gcp_machine_family IS
  'the AcceleratorName SkyPilot''s GCP catalogs give each GPU machine family''s GPUs, by which the importer pairs machine and accelerator rows';
COMMENT ON COLUMN llm_econ.gcp_machine_family.machine_family IS 'machine type name without its size (a2-highgpu, g2-standard), or n1';
COMMENT ON COLUMN llm_econ.gcp_machine_family.accelerator IS 'the AcceleratorName of its GPUs in SkyPilot''s GCP catalogs';
COMMENT ON COLUMN llm_econ.gcp_machine_family.alt_accelerator IS 'a second name older catalogs use (a3-megagpu: H100), or NULL';
COMMENT ON COLUMN llm_econ.gcp_machine_family.source IS 'where the figures come from';
COMMENT ON COLUMN llm_econ.gcp_machine_family.builtin IS 'true for rows shipped with the extension';
COMMENT ON TABLE llm_econ.mfu_reference IS 'published model FLOPs utilisation of real training runs (each row''s source names the paper or report it is from)';
COMMENT ON COLUMN llm_econ.mfu_reference.config IS 'the run or software stack';
COMMENT ON COLUMN llm_econ.mfu_reference.hardware IS 'the accelerators it ran on';
COMMENT ON COLUMN llm_econ.mfu_reference.mfu IS 'model FLOPs utilisation, (0, 1]';
COMMENT ON COLUMN llm_econ.mfu_reference.year IS 'year published';
COMMENT ON COLUMN llm_econ.mfu_reference.source IS 'publication';
COMMENT ON COLUMN llm_econ.mfu_reference.builtin IS 'true for rows shipped with the extension';
-- Whether the price recorder writes for the current role: a kind other than manual is allowed
-- (_source_kind, src/schema/tables.sql, gives the kind; src/provenance.c).
CREATE OR REPLACE FUNCTION llm_econ._kind_allowed() RETURNS boolean
AS 'MODULE_PATHNAME', 'le_kind_allowed_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._kind_allowed() IS
  'internal: true while the price recorder writes for the current role, or for a superuser';

COMMENT ON TABLE llm_econ.price_snapshot IS
  'dated $/GPU-hour observations; a series is (sku, provider, pricing, region, instance_type) and its price holds from observed_at until the series'' next observation';
COMMENT ON COLUMN llm_econ.price_snapshot.id IS 'surrogate key, in insertion order';
COMMENT ON COLUMN llm_econ.price_snapshot.observed_at IS 'when this price was first seen';
COMMENT ON COLUMN llm_econ.price_snapshot.provider IS 'cloud or marketplace, lower case (gcp, aws, lambda, runpod, ...)';
COMMENT ON COLUMN llm_econ.price_snapshot.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_snapshot.region IS 'provider region; NULL = provider-wide price';
COMMENT ON COLUMN llm_econ.price_snapshot.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_snapshot.usd_per_gpu_hour IS 'USD per GPU-hour (instance price / GPUs), > 0; NULL = the series was withdrawn (no longer offered) at observed_at';
COMMENT ON COLUMN llm_econ.price_snapshot.instance_type IS 'the provider''s machine type, when known';
COMMENT ON COLUMN llm_econ.price_snapshot.gpus_per_instance IS 'GPUs in that machine type';
COMMENT ON COLUMN llm_econ.price_snapshot.source IS 'where the observation comes from';
COMMENT ON COLUMN llm_econ.price_snapshot.builtin IS 'true for rows shipped with the extension';
COMMENT ON COLUMN llm_econ.price_snapshot.source_kind IS 'what kind of source: catalog (import_skypilot_catalog), history (load_price_history), seed (shipped seed figure), manual (entered by hand, the default)';
COMMENT ON COLUMN llm_econ.price_snapshot.suspect IS
  'NULL = passed the import checks; else why the price looks wrong; cheapest_offers leaves suspect rows out unless asked';
COMMENT ON COLUMN llm_econ.price_snapshot.last_seen_at IS
  'the latest instant a source listed this price unchanged; max_age and age count from it; NULL = seen only at observed_at';
COMMENT ON COLUMN llm_econ.price_snapshot.series_id IS 'generated: the series'' id, llm_econ._series_id(sku, provider, pricing, region, instance_type) = price_series.series_id';
COMMENT ON TABLE llm_econ.price_import IS
  'when catalogs of a provider (and source) were imported; the next one after a backfilled catalog decides which of its series were withdrawn';
COMMENT ON COLUMN llm_econ.price_import.provider IS 'provider, lower case';
COMMENT ON COLUMN llm_econ.price_import.source IS 'price_snapshot.source of the import';
COMMENT ON COLUMN llm_econ.price_import.observed_at IS 'the catalog''s date';
DROP POLICY IF EXISTS price_import_read ON llm_econ.price_import;
CREATE POLICY price_import_read ON llm_econ.price_import FOR SELECT USING (true);
DROP POLICY IF EXISTS price_import_write ON llm_econ.price_import;
CREATE POLICY price_import_write ON llm_econ.price_import FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege('llm_econ.price_snapshot', 'INSERT'));
COMMENT ON TABLE llm_econ.price_series IS
  'derived: the distinct (sku, provider, pricing, region, instance_type) series of price_snapshot, maintained by trigger';
COMMENT ON COLUMN llm_econ.price_series.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_series.provider IS 'provider, lower case';
COMMENT ON COLUMN llm_econ.price_series.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_series.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_series.instance_type IS 'machine type; NULL = not given';
COMMENT ON COLUMN llm_econ.price_series.series_id IS 'generated: the series'' id (llm_econ._series_id of the key), what price_snapshot.series_id refers to';

-- SECURITY DEFINER (with a fixed search_path) so that roles allowed to write prices need no
-- grant on this derived table; EXECUTE is revoked from PUBLIC (a trigger fires whatever the
-- inserting role's privileges, but nobody can attach it elsewhere), and it refuses to run as
-- anything but a trigger of price_snapshot.  Existing series rows are locked (ON CONFLICT DO
-- UPDATE locks every conflicting row, even when its WHERE is false), so a concurrent delete of
-- a series' last observation waits for this insert and then sees it (_price_series_prune).
-- The conflict is on the key, not the id: a new key whose id another key already has (a hash
-- collision) fails on price_series_id instead of joining that series.
CREATE OR REPLACE FUNCTION llm_econ._price_series_add() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('INSERT', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_add() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- the price recorder's _mark_seen moves last_seen_at alone, on which nothing here depends
  IF TG_OP = 'UPDATE' AND llm_econ._marking_seen() THEN
    RETURN NULL;
  END IF;
  -- The horizon of price data: cloud GPU rental began in November 2010 (AWS Cluster GPU
  -- instances, cg1.4xlarge), and nobody lists a price more than a year ahead.  An observation
  -- outside [2010-01-01, now + 366 days] is a typo or an attack (a row at 1900 and one at 2099
  -- make the daily summaries span two centuries); rows already stored are not touched.
  IF EXISTS (SELECT 1 FROM new_rows n
              WHERE n.observed_at OPERATOR(pg_catalog.<) '2010-01-01 00:00+00'::timestamptz
                 OR n.observed_at OPERATOR(pg_catalog.>) (pg_catalog.transaction_timestamp() OPERATOR(pg_catalog.+) '366 days'::interval)) THEN
    RAISE EXCEPTION 'observed_at % is outside the price data''s horizon',
          (SELECT n.observed_at FROM new_rows n
            WHERE n.observed_at OPERATOR(pg_catalog.<) '2010-01-01 00:00+00'::timestamptz
               OR n.observed_at OPERATOR(pg_catalog.>) (pg_catalog.transaction_timestamp() OPERATOR(pg_catalog.+) '366 days'::interval)
            ORDER BY n.observed_at LIMIT 1)
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'observed_at must be in [2010-01-01, now + 366 days]: cloud GPU rental began in November 2010, and no price is listed more than a year ahead.';
  END IF;
  INSERT INTO llm_econ.price_series AS s (sku, provider, pricing, region, instance_type)
  SELECT DISTINCT n.sku, n.provider, n.pricing, n.region, n.instance_type FROM new_rows n
  ON CONFLICT ON CONSTRAINT price_series_key DO UPDATE SET sku = EXCLUDED.sku WHERE false;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_add() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_add() IS 'trigger: refuses observations outside [2010-01-01, now + 366 days] (22023), then registers the series of new or changed price_snapshot rows in price_series';

-- A kind other than manual comes from the recorder (or a superuser's load, as the install's);
-- a plain INSERT naming one is refused, so source_kind says which path wrote a row.  Not
-- SECURITY DEFINER: it must see the role that inserts (src/provenance.c).
CREATE OR REPLACE FUNCTION llm_econ._price_kind_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT llm_econ._kind_allowed()
     AND EXISTS (SELECT 1 FROM new_rows n WHERE n.source_kind OPERATOR(pg_catalog.<>) 'manual') THEN
    RAISE EXCEPTION 'source_kind must be manual for a price entered by hand'
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'catalog and history are set by import_skypilot_catalog and load_price_history for the rows they write.';
  END IF;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_kind_guard() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_kind_guard() IS
  'trigger: refuses price rows of a source_kind other than manual unless the price recorder or a superuser wrote them (42501)';

CREATE OR REPLACE TRIGGER price_snapshot_kind_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_kind_guard();

CREATE OR REPLACE TRIGGER price_snapshot_series_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
CREATE OR REPLACE TRIGGER price_snapshot_series_upd AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
