-- Reference and price tables of llm_econ: GPU SKUs, their aliases, MFU references, dated prices.

-- Constants in CHECKs carry their type (0::float8), so each comparison matches a pg_catalog
-- operator exactly and no operator planted in the install-time search_path can capture it.

-- Every table carries a "builtin" marker: rows the extension ships have it true,
-- rows users add default to false.  pg_dump dumps only the user rows
-- (pg_extension_config_dump ... 'WHERE NOT builtin'), so a restore neither loses
-- them nor duplicates the shipped ones.

CREATE TABLE llm_econ.gpu_sku (
    sku                   text PRIMARY KEY
                          CHECK (sku OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9._-]*$'),
    vendor                text NOT NULL,
    name                  text NOT NULL,
    hbm_gb                float8 NOT NULL CHECK (hbm_gb > 0::float8 AND hbm_gb < 'Infinity'),
    hbm_gb_per_s          float8 CHECK (hbm_gb_per_s > 0::float8 AND hbm_gb_per_s < 'Infinity'),
    fp32_tflops           float8 CHECK (fp32_tflops > 0::float8 AND fp32_tflops < 'Infinity'),
    tf32_tflops           float8 CHECK (tf32_tflops > 0::float8 AND tf32_tflops < 'Infinity'),
    bf16_tflops           float8 CHECK (bf16_tflops > 0::float8 AND bf16_tflops < 'Infinity'),
    fp16_tflops           float8 CHECK (fp16_tflops > 0::float8 AND fp16_tflops < 'Infinity'),
    fp8_tflops            float8 CHECK (fp8_tflops > 0::float8 AND fp8_tflops < 'Infinity'),
    nvlink_gb_per_s       float8 CHECK (nvlink_gb_per_s > 0::float8 AND nvlink_gb_per_s < 'Infinity'),
    pcie_gb_per_s         float8 NOT NULL DEFAULT 64 CHECK (pcie_gb_per_s > 0::float8 AND pcie_gb_per_s < 'Infinity'),
    gpus_per_node         int4 NOT NULL CHECK (gpus_per_node BETWEEN 1 AND 4096),
    tdp_watts             float8 CHECK (tdp_watts > 0::float8 AND tdp_watts <= 100000::float8),
    list_price_usd_low    numeric CHECK (list_price_usd_low > 0::numeric AND list_price_usd_low < 'Infinity'),
    list_price_usd_high   numeric CHECK (list_price_usd_high > 0::numeric AND list_price_usd_high < 'Infinity'),
    released              date,
    source                text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    builtin               boolean NOT NULL DEFAULT false,
    -- added in 0.3.0, so last (an updated table has it there too)
    hbm_bytes             float8 CHECK (hbm_bytes > 0::float8 AND hbm_bytes < 'Infinity'),
    generation            text NOT NULL DEFAULT 'other'
                          CHECK (generation OPERATOR(pg_catalog.=) ANY (ARRAY['ampere', 'hopper', 'blackwell', 'cdna2', 'cdna3', 'other'])),
    CHECK (list_price_usd_low <= list_price_usd_high),
    CHECK (pg_catalog.num_nonnulls(fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops) > 0)
);
-- SKU keys and aliases are looked up case-insensitively, so they must be unique that way.
CREATE UNIQUE INDEX gpu_sku_lower_key ON llm_econ.gpu_sku (pg_catalog.lower(sku COLLATE pg_catalog."C"));

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

CREATE TABLE llm_econ.gpu_sku_alias (
    alias    text PRIMARY KEY CHECK (alias OPERATOR(pg_catalog.<>) ''),
    sku      text NOT NULL REFERENCES llm_econ.gpu_sku (sku) ON UPDATE CASCADE ON DELETE CASCADE,
    gpus_per_instance int4 CHECK (gpus_per_instance BETWEEN 1 AND 4096),
    source   text,
    builtin  boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX gpu_sku_alias_lower_key ON llm_econ.gpu_sku_alias (pg_catalog.lower(alias COLLATE pg_catalog."C"));
CREATE INDEX gpu_sku_alias_sku ON llm_econ.gpu_sku_alias (sku);

COMMENT ON TABLE llm_econ.gpu_sku_alias IS
  'other names of a SKU as providers and catalogs write them (H100, A100-80GB-SXM, p5.48xlarge); matched case-insensitively';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.alias IS 'the provider''s name for the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.sku IS 'the gpu_sku key it means';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.gpus_per_instance IS 'for machine-type aliases (p5.48xlarge, a2-highgpu-8g): GPUs in one machine; NULL for names of the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.source IS 'where the name is used';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.builtin IS 'true for rows shipped with the extension';

-- Instances are facts with sources (0.4.0): what a provider's machine type carries.  Every
-- import resolves an instance type through this table before it believes the catalog.
CREATE TABLE llm_econ.instance_type (
    provider           text NOT NULL CHECK (provider OPERATOR(pg_catalog.~) '^[a-z0-9][a-z0-9._-]*$'),
    instance_type      text NOT NULL CHECK (instance_type OPERATOR(pg_catalog.<>) ''),
    sku                text NOT NULL REFERENCES llm_econ.gpu_sku (sku) ON UPDATE CASCADE ON DELETE CASCADE,
    gpus               numeric NOT NULL CHECK (gpus > 0::numeric AND gpus <= 4096::numeric
                                               AND (gpus <= 1::numeric OR gpus OPERATOR(pg_catalog.=) pg_catalog.trunc(gpus))),
    network_gbit_per_s numeric CHECK (network_gbit_per_s > 0::numeric AND network_gbit_per_s < 1000000::numeric),
    nvlink_domain      int4 CHECK (nvlink_domain BETWEEN 1 AND 4096),
    source             text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    builtin            boolean NOT NULL DEFAULT false,
    PRIMARY KEY (provider, instance_type)
);
CREATE UNIQUE INDEX instance_type_lower_key ON llm_econ.instance_type (provider, pg_catalog.lower(instance_type COLLATE pg_catalog."C"));
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

-- GCP's GPU machine families (0.4.0): the name SkyPilot's GCP catalogs give the GPUs of each
-- accelerator-optimized family, whose machine rows and accelerator rows the importer pairs; family
-- n1 lists the GPUs GCP attaches to general-purpose N1 machines.  Data, not code (src/core/catalog.c).
CREATE TABLE llm_econ.gcp_machine_family (
    machine_family  text NOT NULL CHECK (machine_family OPERATOR(pg_catalog.~) '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'),
    accelerator     text NOT NULL CHECK (accelerator OPERATOR(pg_catalog.<>) ''),
    alt_accelerator text CHECK (alt_accelerator OPERATOR(pg_catalog.<>) ''),
    source          text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    builtin         boolean NOT NULL DEFAULT false,
    PRIMARY KEY (machine_family, accelerator)
);
COMMENT ON TABLE llm_econ.gcp_machine_family IS
  'the AcceleratorName SkyPilot''s GCP catalogs give each GPU machine family''s GPUs, by which the importer pairs machine and accelerator rows';
COMMENT ON COLUMN llm_econ.gcp_machine_family.machine_family IS 'machine type name without its size (a2-highgpu, g2-standard), or n1';
COMMENT ON COLUMN llm_econ.gcp_machine_family.accelerator IS 'the AcceleratorName of its GPUs in SkyPilot''s GCP catalogs';
COMMENT ON COLUMN llm_econ.gcp_machine_family.alt_accelerator IS 'a second name older catalogs use (a3-megagpu: H100), or NULL';
COMMENT ON COLUMN llm_econ.gcp_machine_family.source IS 'where the figures come from';
COMMENT ON COLUMN llm_econ.gcp_machine_family.builtin IS 'true for rows shipped with the extension';

CREATE TABLE llm_econ.mfu_reference (
    config    text PRIMARY KEY,
    hardware  text NOT NULL,
    mfu       float8 NOT NULL CHECK (mfu > 0::float8 AND mfu <= 1::float8),
    year      int4 NOT NULL CHECK (year BETWEEN 2000 AND 2100),
    source    text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    builtin   boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE llm_econ.mfu_reference IS 'published model FLOPs utilisation of real training runs (each row''s source names the paper or report it is from)';
COMMENT ON COLUMN llm_econ.mfu_reference.config IS 'the run or software stack';
COMMENT ON COLUMN llm_econ.mfu_reference.hardware IS 'the accelerators it ran on';
COMMENT ON COLUMN llm_econ.mfu_reference.mfu IS 'model FLOPs utilisation, (0, 1]';
COMMENT ON COLUMN llm_econ.mfu_reference.year IS 'year published';
COMMENT ON COLUMN llm_econ.mfu_reference.source IS 'publication';
COMMENT ON COLUMN llm_econ.mfu_reference.builtin IS 'true for rows shipped with the extension';

-- The kind of source a new price row comes from: catalog or history when the price recorder
-- (_record_prices, run by the importers) writes it, manual for anything else.  Only the
-- recorder's C entry point sets the kind, for the role that called it; a plain INSERT cannot claim a kind
-- (no setting reaches it, and the series trigger refuses an explicit one: src/provenance.c).
CREATE FUNCTION llm_econ._source_kind() RETURNS text
AS 'MODULE_PATHNAME', 'le_source_kind_fn' LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION llm_econ._source_kind() IS
  'internal: default of price_snapshot.source_kind: the recorder''s kind (catalog, history) for the rows it writes, else manual';
CREATE FUNCTION llm_econ._kind_allowed() RETURNS boolean
AS 'MODULE_PATHNAME', 'le_kind_allowed_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._kind_allowed() IS
  'internal: true while the price recorder writes for the current role, or for a superuser';

-- The id of a price series: a stable 64-bit hash of its key (src/core/series.c says why a hash
-- and what a collision does).  Not STRICT: region and instance_type may be NULL, and NULL is a
-- value of the key.
CREATE FUNCTION llm_econ._series_id(sku text, provider text, pricing text, region text, instance_type text)
RETURNS int8
AS 'MODULE_PATHNAME', 'le_series_id_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._series_id(text, text, text, text, text) IS
  'internal: the id of a price series (sku, provider, pricing, region, instance_type), a stable 64-bit hash';

CREATE TABLE llm_econ.price_snapshot (
    id                 bigserial,
    observed_at        timestamptz NOT NULL CHECK (pg_catalog.isfinite(observed_at)),
    provider           text NOT NULL CHECK (provider OPERATOR(pg_catalog.~) '^[a-z0-9][a-z0-9._-]*$'),
    sku                text NOT NULL REFERENCES llm_econ.gpu_sku (sku) ON UPDATE CASCADE,
    region             text CHECK (region OPERATOR(pg_catalog.<>) ''),
    pricing            text NOT NULL CHECK (pricing OPERATOR(pg_catalog.=) ANY (ARRAY['on_demand', 'spot', 'reserved'])),
    usd_per_gpu_hour   numeric CHECK (usd_per_gpu_hour > 0::numeric AND usd_per_gpu_hour < 'Infinity'),
    instance_type      text CHECK (instance_type OPERATOR(pg_catalog.<>) ''),
    gpus_per_instance  int4 CHECK (gpus_per_instance BETWEEN 1 AND 4096),
    source             text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    builtin            boolean NOT NULL DEFAULT false,
    source_kind        text NOT NULL DEFAULT llm_econ._source_kind()
                       CHECK (source_kind OPERATOR(pg_catalog.=) ANY (ARRAY['catalog', 'history', 'seed', 'manual'])),
    suspect            text CHECK (suspect OPERATOR(pg_catalog.<>) ''),
    series_id          int8 NOT NULL
                       GENERATED ALWAYS AS (llm_econ._series_id(sku, provider, pricing, region, instance_type)) STORED,
    -- added in 0.4.0, so last (an updated table has it there too)
    last_seen_at       timestamptz CHECK (last_seen_at OPERATOR(pg_catalog.>=) observed_at)
);

-- Its primary key (id) and indexes, price_snapshot_one_observation (series_id, observed_at: one
-- observation per series and instant, and the as-of probe) and price_snapshot_observed_at, are
-- built by data.sql after the shipped rows load.

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

-- The dates at which each provider's catalogs (per source) were imported, even when an import
-- stored nothing new: a catalog imported out of date order is reconciled with the next one.
CREATE TABLE llm_econ.price_import (
    provider     text NOT NULL,
    source       text NOT NULL,
    observed_at  timestamptz NOT NULL,
    PRIMARY KEY (provider, source, observed_at)
);
COMMENT ON TABLE llm_econ.price_import IS
  'when catalogs of a provider (and source) were imported; the next one after a backfilled catalog decides which of its series were withdrawn';
COMMENT ON COLUMN llm_econ.price_import.provider IS 'provider, lower case';
COMMENT ON COLUMN llm_econ.price_import.source IS 'price_snapshot.source of the import';
COMMENT ON COLUMN llm_econ.price_import.observed_at IS 'the catalog''s date';
-- Importers record their dates with their own rights: whoever may insert prices may insert here
-- (row security checks the price_snapshot privilege), nobody else.
ALTER TABLE llm_econ.price_import ENABLE ROW LEVEL SECURITY;
CREATE POLICY price_import_read ON llm_econ.price_import FOR SELECT USING (true);
CREATE POLICY price_import_write ON llm_econ.price_import FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege('llm_econ.price_snapshot', 'INSERT'));

-- The distinct series of price_snapshot, kept by a statement trigger: as-of queries visit each
-- matching series once and probe its latest observation, so their cost grows with the number of
-- series, not with the history.  Derived data: not dumped, rebuilt as price_snapshot is loaded.
CREATE TABLE llm_econ.price_series (
    sku            text NOT NULL,
    provider       text NOT NULL,
    pricing        text NOT NULL,
    region         text,
    instance_type  text,
    series_id      int8 NOT NULL
                   GENERATED ALWAYS AS (llm_econ._series_id(sku, provider, pricing, region, instance_type)) STORED,
    CONSTRAINT price_series_key UNIQUE NULLS NOT DISTINCT (sku, provider, pricing, region, instance_type),
    CONSTRAINT price_series_id PRIMARY KEY (series_id)
);
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
CREATE FUNCTION llm_econ._price_series_add() RETURNS trigger
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
CREATE FUNCTION llm_econ._price_kind_guard() RETURNS trigger
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

CREATE TRIGGER price_snapshot_kind_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_kind_guard();

CREATE TRIGGER price_snapshot_series_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
CREATE TRIGGER price_snapshot_series_upd AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();

SELECT pg_catalog.pg_extension_config_dump('llm_econ.gpu_sku', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gpu_sku_alias', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.mfu_reference', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_snapshot', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_snapshot_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_import', '');

GRANT USAGE ON SCHEMA llm_econ TO PUBLIC;
GRANT SELECT ON llm_econ.gpu_sku, llm_econ.gpu_sku_alias, llm_econ.instance_type, llm_econ.gcp_machine_family, llm_econ.mfu_reference,
                llm_econ.price_snapshot, llm_econ.price_series, llm_econ.price_import TO PUBLIC;
GRANT INSERT ON llm_econ.price_import TO PUBLIC;   -- row security: only roles that may insert prices
