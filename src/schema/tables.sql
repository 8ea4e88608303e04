-- tables.sql (stateful): the reference and price tables, their indexes, the two functions their columns call, config-dump registration.
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

CREATE TABLE llm_econ.gpu_sku_alias (
    alias    text PRIMARY KEY CHECK (alias OPERATOR(pg_catalog.<>) ''),
    sku      text NOT NULL REFERENCES llm_econ.gpu_sku (sku) ON UPDATE CASCADE ON DELETE CASCADE,
    gpus_per_instance int4 CHECK (gpus_per_instance BETWEEN 1 AND 4096),
    source   text,
    builtin  boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX gpu_sku_alias_lower_key ON llm_econ.gpu_sku_alias (pg_catalog.lower(alias COLLATE pg_catalog."C"));
CREATE INDEX gpu_sku_alias_sku ON llm_econ.gpu_sku_alias (sku);

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

CREATE TABLE llm_econ.mfu_reference (
    config    text PRIMARY KEY,
    hardware  text NOT NULL,
    mfu       float8 NOT NULL CHECK (mfu > 0::float8 AND mfu <= 1::float8),
    year      int4 NOT NULL CHECK (year BETWEEN 2000 AND 2100),
    source    text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    builtin   boolean NOT NULL DEFAULT false
);

-- The kind of source a new price row comes from: catalog or history when the price recorder
-- (_record_prices, run by the importers) writes it, manual for anything else.  Only the
-- recorder's C entry point sets the kind, for the role that called it; a plain INSERT cannot claim a kind
-- (no setting reaches it, and the series trigger refuses an explicit one: src/provenance.c).
CREATE FUNCTION llm_econ._source_kind() RETURNS text
AS 'MODULE_PATHNAME', 'le_source_kind_fn' LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION llm_econ._source_kind() IS
  'internal: default of price_snapshot.source_kind: the recorder''s kind (catalog, history) for the rows it writes, else manual';

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

-- The dates at which each provider's catalogs (per source) were imported, even when an import
-- stored nothing new: a catalog imported out of date order is reconciled with the next one.
CREATE TABLE llm_econ.price_import (
    provider     text NOT NULL,
    source       text NOT NULL,
    observed_at  timestamptz NOT NULL,
    PRIMARY KEY (provider, source, observed_at)
);
-- Importers record their dates with their own rights: whoever may insert prices may insert here
-- (row security checks the price_snapshot privilege), nobody else.
ALTER TABLE llm_econ.price_import ENABLE ROW LEVEL SECURITY;

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

SELECT pg_catalog.pg_extension_config_dump('llm_econ.gpu_sku', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gpu_sku_alias', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.mfu_reference', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_snapshot', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_snapshot_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_import', '');

-- A table's privileges are set once, when it is created (an update must not re-grant, or it would record
-- the grants users made since as the extension's initial privileges, which pg_dump then leaves out).
GRANT USAGE ON SCHEMA llm_econ TO PUBLIC;
GRANT SELECT ON llm_econ.gpu_sku, llm_econ.gpu_sku_alias, llm_econ.instance_type, llm_econ.gcp_machine_family, llm_econ.mfu_reference,
                llm_econ.price_snapshot, llm_econ.price_series, llm_econ.price_import TO PUBLIC;
GRANT INSERT ON llm_econ.price_import TO PUBLIC;   -- row security: only roles that may insert prices
