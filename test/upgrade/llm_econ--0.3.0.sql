-- llm_econ install script head: guards against \i and creates the schema (failing if it already exists).
\echo Use "CREATE EXTENSION llm_econ" to load this file. \quit

-- Plain CREATE: if somebody created a schema of this name first, installation stops here.
CREATE SCHEMA llm_econ;
COMMENT ON SCHEMA llm_econ IS 'llm_econ: the economics of LLM training runs (cost, time, memory, prices, spend)';
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
    CHECK (num_nonnulls(fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops) > 0)
);
-- SKU keys and aliases are looked up case-insensitively, so they must be unique that way.
CREATE UNIQUE INDEX gpu_sku_lower_key ON llm_econ.gpu_sku (pg_catalog.lower(sku));

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
COMMENT ON COLUMN llm_econ.gpu_sku.generation IS 'architecture family choosing the step-time model''s matmul and attention efficiency curve: ampere, hopper, blackwell, cdna2, cdna3, other (default: conservative figures)';
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
CREATE UNIQUE INDEX gpu_sku_alias_lower_key ON llm_econ.gpu_sku_alias (pg_catalog.lower(alias));
CREATE INDEX gpu_sku_alias_sku ON llm_econ.gpu_sku_alias (sku);

COMMENT ON TABLE llm_econ.gpu_sku_alias IS
  'other names of a SKU as providers and catalogs write them (H100, A100-80GB-SXM, p5.48xlarge); matched case-insensitively';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.alias IS 'the provider''s name for the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.sku IS 'the gpu_sku key it means';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.gpus_per_instance IS 'for machine-type aliases (p5.48xlarge, a2-highgpu-8g): GPUs in one machine; NULL for names of the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.source IS 'where the name is used';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.builtin IS 'true for rows shipped with the extension';

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

-- The kind of source a new price row comes from: the importers say so for the rows they write
-- (the transaction-local setting llm_econ.import_kind); anything else is entered by hand.
CREATE FUNCTION llm_econ._source_kind() RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT coalesce(nullif(pg_catalog.current_setting('llm_econ.import_kind', true), ''), 'manual') $$;
COMMENT ON FUNCTION llm_econ._source_kind() IS
  'internal: default of price_snapshot.source_kind: the importer''s kind while it writes (llm_econ.import_kind), else manual';

-- The id of a price series: a stable 64-bit hash of its key (src/core/series.c says why a hash
-- and what a collision does).  Not STRICT: region and instance_type may be NULL, and NULL is a
-- value of the key.
CREATE FUNCTION llm_econ._series_id(sku text, provider text, pricing text, region text, instance_type text)
RETURNS int8
AS 'MODULE_PATHNAME', 'le_series_id_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._series_id(text, text, text, text, text) IS
  'internal: the id of the price series (sku, provider, pricing, region, instance_type), a stable 64-bit hash; NULL region or instance type count as values';

CREATE TABLE llm_econ.price_snapshot (
    id                 bigserial PRIMARY KEY,
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
                       GENERATED ALWAYS AS (llm_econ._series_id(sku, provider, pricing, region, instance_type)) STORED
);

-- Its indexes, price_snapshot_one_observation (series_id, observed_at: one observation per
-- series and instant, and the as-of probe) and price_snapshot_observed_at, are built by
-- data.sql after the shipped rows load.

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
COMMENT ON COLUMN llm_econ.price_snapshot.suspect IS 'NULL = passed the import checks; else why the price looks wrong (far from the same provider''s other offers of the SKU, or from the series'' previous price); cheapest_offers leaves suspect rows out unless asked';
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
  INSERT INTO llm_econ.price_series AS s (sku, provider, pricing, region, instance_type)
  SELECT DISTINCT n.sku, n.provider, n.pricing, n.region, n.instance_type FROM new_rows n
  ON CONFLICT ON CONSTRAINT price_series_key DO UPDATE SET sku = EXCLUDED.sku WHERE false;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_add() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_add() IS 'trigger: registers the series of new or changed price_snapshot rows in price_series';

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
GRANT SELECT ON llm_econ.gpu_sku, llm_econ.gpu_sku_alias, llm_econ.mfu_reference,
                llm_econ.price_snapshot, llm_econ.price_series, llm_econ.price_import TO PUBLIC;
GRANT INSERT ON llm_econ.price_import TO PUBLIC;   -- row security: only roles that may insert prices
-- Writers' guards: the import lock only price writers can take, and the name-length check for SQL callers.

-- Imports of one provider run one at a time.  They serialise on a row of this owner-only
-- table, never on an advisory lock key (any role can take those and block imports for ever).
-- The row is locked by a trigger that fires only on INSERT into price_snapshot, so only roles
-- allowed to insert prices can take it, and no SECURITY DEFINER function is callable by PUBLIC.
CREATE TABLE llm_econ.import_lock (
    provider  text PRIMARY KEY
);
COMMENT ON TABLE llm_econ.import_lock IS
  'internal: one row per provider whose prices were imported; importers lock their providers'' rows (owner-only; derived, not dumped)';
COMMENT ON COLUMN llm_econ.import_lock.provider IS 'provider, lower case';

-- BEFORE INSERT statement trigger of price_snapshot: locks the providers listed in the
-- transaction-local setting llm_econ.import_providers (set by _lock_providers); does nothing
-- when it is unset, as for every ordinary INSERT.
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

-- Take the import lock of providers until the end of the transaction: an empty INSERT into
-- price_snapshot (so the caller needs INSERT on it) fires the trigger above.
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

-- Names are at most 256 bytes (LE_NAME_MAX): for SQL callers, the same check the C lookups make.
CREATE FUNCTION llm_econ._check_name(value text, field text) RETURNS text
AS 'MODULE_PATHNAME', 'le_check_name_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_name(text, text) IS
  'internal: value unchanged if it is at most 256 bytes (NULL stays NULL), else SQLSTATE 54000 naming field';
-- The run_spec type and its validating constructor.

CREATE TYPE llm_econ.run_spec AS (
    n_params                float8,
    n_tokens                float8,
    sku                     text,
    n_gpus                  int4,
    gpus_per_node           int4,
    mfu                     float8,
    dtype                   text,
    peak_flops              float8,
    hbm_bytes               float8,
    intra_node_bytes_per_s  float8,
    inter_node_bytes_per_s  float8,
    tdp_watts               float8,
    n_layers                int4,
    d_model                 int4,
    n_heads                 int4,
    seq_len                 int4,
    micro_batch             int4,
    global_batch            int4,
    tp                      int4,
    pp                      int4,
    zero_stage              int4,
    recompute               text,
    optimizer               text,
    n_active_params         float8,
    n_experts               int4,
    top_k                   int4,
    ep                      int4,
    cp                      int4,
    vpp                     int4,
    n_kv_heads              int4,
    ffn_hidden              int4,
    ffn_act                 text,
    vocab_size              int4,
    sequence_parallel       boolean,
    attention               text,
    grad_dtype              text,
    hbm_bytes_per_s         float8,
    gpu_generation          text
);

COMMENT ON TYPE llm_econ.run_spec IS
  'one training run: workload, cluster, efficiency, the hardware figures frozen from gpu_sku when built, model shape and parallel strategy';
COMMENT ON COLUMN llm_econ.run_spec.n_params IS 'N, non-embedding parameters';
COMMENT ON COLUMN llm_econ.run_spec.n_tokens IS 'D, training tokens';
COMMENT ON COLUMN llm_econ.run_spec.sku IS 'gpu_sku key the hardware figures were frozen from';
COMMENT ON COLUMN llm_econ.run_spec.n_gpus IS 'G, GPUs in the run';
COMMENT ON COLUMN llm_econ.run_spec.gpus_per_node IS 'GPUs sharing one NVLink domain (node)';
COMMENT ON COLUMN llm_econ.run_spec.mfu IS 'model FLOPs utilisation, (0, 1]';
COMMENT ON COLUMN llm_econ.run_spec.dtype IS 'compute precision: fp32, tf32, bf16, fp16, fp8';
COMMENT ON COLUMN llm_econ.run_spec.peak_flops IS 'dense peak FLOP/s per GPU at dtype (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.hbm_bytes IS 'HBM per GPU, bytes (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.intra_node_bytes_per_s IS 'NVLink (or PCIe when none) per GPU, one direction, bytes/s (frozen)';
COMMENT ON COLUMN llm_econ.run_spec.inter_node_bytes_per_s IS 'network per GPU, one direction, bytes/s';
COMMENT ON COLUMN llm_econ.run_spec.tdp_watts IS 'board power per GPU, W (frozen); NULL = not published, energy and carbon are then NULL';
COMMENT ON COLUMN llm_econ.run_spec.n_layers IS 'transformer layers; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.d_model IS 'hidden size; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.n_heads IS 'attention heads; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.seq_len IS 'sequence length, tokens; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.micro_batch IS 'sequences per micro-batch';
COMMENT ON COLUMN llm_econ.run_spec.global_batch IS 'sequences per optimizer step; NULL = unknown';
COMMENT ON COLUMN llm_econ.run_spec.tp IS 'tensor-parallel degree';
COMMENT ON COLUMN llm_econ.run_spec.pp IS 'pipeline-parallel degree';
COMMENT ON COLUMN llm_econ.run_spec.zero_stage IS 'ZeRO/FSDP stage over dp, 0-3';
COMMENT ON COLUMN llm_econ.run_spec.recompute IS 'activation recomputation: none, selective, full';
COMMENT ON COLUMN llm_econ.run_spec.optimizer IS 'adamw, adamw_8bit, sgd';
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
COMMENT ON COLUMN llm_econ.run_spec.hbm_bytes_per_s IS 'HBM bandwidth per GPU, bytes/s (frozen from gpu_sku.hbm_gb_per_s); NULL = unknown, the step-time model then refuses the value';
COMMENT ON COLUMN llm_econ.run_spec.gpu_generation IS 'GPU generation choosing the step-time model''s matmul and attention efficiency (frozen from gpu_sku.generation): ampere, hopper, blackwell, cdna2, cdna3, other; NULL = unknown, the step-time model then refuses the value';

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
  'validating run_spec constructor: looks the SKU up by key or alias (case-insensitive) and freezes its peak at dtype, HBM (as the driver reports it), links, TDP, HBM bandwidth and GPU generation into the value; inter_node_gbit_per_s is Gbit/s per GPU per direction (400 = one NDR400 port = 50e9 bytes/s)';
-- Time, cost and energy of a run (C functions over run_spec).

CREATE FUNCTION llm_econ.training_flops(spec llm_econ.run_spec, attention_flops boolean DEFAULT false) RETURNS float8
AS 'MODULE_PATHNAME', 'le_training_flops_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.training_flops(llm_econ.run_spec, boolean) IS
  'model FLOPs of the run, 6·N_active·D (Kaplan et al. 2020; N_active = n_active_params, else n_params); attention_flops adds 12·n_layers·d_model·seq_len per token (PaLM, App. B), the convention of published MFU figures';

CREATE FUNCTION llm_econ.mfu_time(spec llm_econ.run_spec) RETURNS interval
AS 'MODULE_PATHNAME', 'le_mfu_time_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.mfu_time(llm_econ.run_spec) IS
  'wall-clock time 6·N_active·D / (mfu · n_gpus · peak_flops), as an interval in hours:minutes:seconds';

CREATE FUNCTION llm_econ.gpu_hours(spec llm_econ.run_spec) RETURNS float8
AS 'MODULE_PATHNAME', 'le_gpu_hours_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.gpu_hours(llm_econ.run_spec) IS
  'GPU-hours: wall hours · n_gpus (independent of n_gpus under ideal scaling)';

CREATE FUNCTION llm_econ.energy_kwh(spec llm_econ.run_spec, pue float8 DEFAULT 1.0) RETURNS float8
AS 'MODULE_PATHNAME', 'le_energy_kwh_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.energy_kwh(llm_econ.run_spec, float8) IS
  'energy in kWh: tdp_watts · n_gpus · hours · pue / 1000; pue in [1, 5]; NULL when the spec''s tdp_watts is NULL (the part''s power is not published)';

CREATE FUNCTION llm_econ.achieved_mfu(spec llm_econ.run_spec, wall interval) RETURNS float8
AS 'MODULE_PATHNAME', 'le_achieved_mfu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.achieved_mfu(llm_econ.run_spec, interval) IS
  'the MFU a run of spec that took wall really had: 6ND / (n_gpus · peak_flops · seconds(wall)); months count as 30 days, as in extract(epoch)';

CREATE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec, usd_per_gpu_hour numeric) RETURNS numeric
AS 'MODULE_PATHNAME', 'le_estimate_cost_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec, numeric) IS
  'compute cost in USD: gpu_hours · usd_per_gpu_hour (unrounded numeric)';
-- Memory per GPU, communication per step and the parallel-layout search (C functions over run_spec).

CREATE FUNCTION llm_econ.memory_per_gpu(spec llm_econ.run_spec,
    OUT weights_bytes float8, OUT grads_bytes float8, OUT optimizer_bytes float8,
    OUT activation_bytes float8, OUT overhead_bytes float8, OUT total_bytes float8,
    OUT hbm_bytes float8)
AS 'MODULE_PATHNAME', 'le_memory_per_gpu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.memory_per_gpu(llm_econ.run_spec) IS
  'training memory per GPU in bytes on the heaviest pipeline stage: model states after tp, pp, ep and ZeRO sharding (Rajbhandari et al. 2019), activations (Korthikanti et al. 2022 with sequence parallelism, FlashAttention, GQA, context parallelism and the logits; NULL when the shape is unknown), overhead allowance, total (NULL when activations are unknown) and the GPU''s HBM as the driver reports it';

CREATE FUNCTION llm_econ.fits_hbm(spec llm_econ.run_spec) RETURNS boolean
AS 'MODULE_PATHNAME', 'le_fits_hbm_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.fits_hbm(llm_econ.run_spec) IS
  'false if model states and overhead alone exceed HBM; NULL if they fit but activations are unknown; else whether the total fits';

CREATE FUNCTION llm_econ.comm_bytes(spec llm_econ.run_spec) RETURNS float8
AS 'MODULE_PATHNAME', 'le_comm_bytes_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.comm_bytes(llm_econ.run_spec) IS
  'bytes each GPU sends per optimizer step over all collectives (nccl-tests conventions); NULL when a collective depends on an unknown shape or batch';

CREATE FUNCTION llm_econ.comm_breakdown(spec llm_econ.run_spec,
    OUT parallelism text, OUT collective text, OUT link text, OUT bytes float8, OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_comm_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION llm_econ.comm_breakdown(llm_econ.run_spec) IS
  'one row per collective of an optimizer step: dp/tp/cp/ep/pp, all_reduce/reduce_scatter/all_gather/send_recv/all_to_all, nvlink/network, bytes sent per GPU and seconds at the link''s one-way bandwidth';

CREATE FUNCTION llm_econ.plan_parallelism(spec llm_econ.run_spec,
    OUT tp int4, OUT pp int4, OUT dp int4, OUT zero_stage int4, OUT recompute text,
    OUT total_bytes float8, OUT fits boolean, OUT comm_seconds_per_step float8,
    OUT step_seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_plan_parallelism_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION llm_econ.plan_parallelism(llm_econ.run_spec) IS
  'every valid (tp, pp, dp, zero_stage, recompute) for the spec''s GPUs with tp inside a node, its memory per GPU, whether it fits, communication and estimated step time; best first';
-- Price lookups over price_snapshot: as-of prices, time-weighted averages, cheapest offers, dashboard views (STABLE: they read tables).

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
-- bound).  One index probe per series (price_snapshot_one_observation, by series_id), so the cost grows with
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

CREATE FUNCTION llm_econ._check_pricing(pricing text) RETURNS text
AS 'MODULE_PATHNAME', 'le_check_pricing_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_pricing(text) IS
  'internal: the canonical pricing (on_demand, spot or reserved; any case) or NULL for NULL, else raises 22023';

CREATE FUNCTION llm_econ._sku_key(sku text) RETURNS text
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

-- Dashboard views: a "time" column, no arrays, numeric money, the caller's privileges.
CREATE VIEW llm_econ.price_history WITH (security_invoker = true) AS
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

GRANT SELECT ON llm_econ.price_history TO PUBLIC;
-- Price imports: SkyPilot catalogs and long-format price histories, stored as change points.

CREATE FUNCTION llm_econ._skypilot_offers(cloud text, catalog_csv text,
    OUT accelerator text, OUT variant text, OUT instance_type text, OUT region text,
    OUT pricing text, OUT usd_per_gpu_hour numeric, OUT gpus_per_instance int4, OUT catalog_rows int4,
    OUT usd_per_hour numeric)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_skypilot_offers' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._skypilot_offers(text, text) IS
  'internal: parses one SkyPilot vms.csv into per-GPU offers (cheapest zone per region; GCP host + accelerator) with the instance price per hour; used by import_skypilot_catalog';

-- The one way prices are stored by the importers: candidates (a NULL price = the series is
-- withdrawn) become rows only where the series' price changes; the rest count as unchanged.
-- _price_changes compares the candidates with what is stored (the observation in effect
-- before the batch, and later ones) and with each other, in time order; plain SQL, no temp
-- tables (the install script runs it too).
CREATE FUNCTION llm_econ._price_changes(obs_at timestamptz[], provider text[], sku text[], region text[],
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

-- Stores candidates as change points.  Writers of the same provider are serialised (on the
-- provider's import_lock row: _lock_providers), so overlapping imports neither duplicate nor
-- lose observations.  A candidate at the instant of
-- a stored observation with another price is an error (one observation per series and instant).
CREATE FUNCTION llm_econ._record_prices(obs_at timestamptz[], provider text[], sku text[], region text[],
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

-- A per-GPU price as stored: at most 10 decimals (a division can have more), no trailing
-- zeros beyond cents (2.00, 0.75, 3.790142).
CREATE FUNCTION llm_econ._usd(v numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.round($1, GREATEST(pg_catalog.scale(pg_catalog.trim_scale(pg_catalog.round($1, 10))), 2)) $$;
COMMENT ON FUNCTION llm_econ._usd(numeric) IS 'internal: a USD amount rounded to 10 decimals, shown with at least 2';

-- The gpu_sku key a name means (key or alias; case, spaces, - and _ ignored; an exact spelling
-- beats a normalised one, a key beats an alias), or NULL.  One definition serves every part:
-- the C lookup the run_spec constructor and the price functions use (src/sku.c).
CREATE FUNCTION llm_econ._sku_find(name text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_find_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_find(text) IS 'internal: the gpu_sku key of a name or alias (case, spaces, - and _ ignored; exact spelling first, keys before aliases), or NULL';

-- The GPUs per machine gpu_sku_alias knows for a machine type (NULL: unknown), by the same rule.
CREATE FUNCTION llm_econ._known_gpus(instance_type text) RETURNS int4
AS 'MODULE_PATHNAME', 'le_known_gpus_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._known_gpus(text) IS 'internal: GPUs per machine of a machine type per gpu_sku_alias (exact spelling first), or NULL when unknown';

-- Both for all names of a file at once (the importers): one query, the same rule.
CREATE FUNCTION llm_econ._sku_map(names text[], OUT name text, OUT sku text, OUT gpus_per_instance int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_sku_map_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_map(text[]) IS 'internal: for each name that means a SKU, its gpu_sku key and the GPUs per machine gpu_sku_alias knows for it (NULL: unknown), as _sku_find and _known_gpus give them';

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

-- SkyPilot clouds whose catalogs the importer accepts (skypilot-catalog catalogs/v5/<cloud>).
CREATE FUNCTION llm_econ._skypilot_clouds() RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ARRAY['aws', 'azure', 'cudo', 'do', 'fluidstack', 'gcp', 'hyperbolic', 'ibm', 'kubernetes',
                   'lambda', 'nebius', 'oci', 'paperspace', 'runpod', 'scp', 'vast', 'vsphere'] $$;
COMMENT ON FUNCTION llm_econ._skypilot_clouds() IS 'internal: the cloud names import_skypilot_catalog accepts';

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

-- Bulk price histories: \copy a long-format CSV (the shipped GCP history's columns) into this
-- staging table, then SELECT * FROM llm_econ.load_price_history().  All columns are text so
-- that \copy never fails half-way; load_price_history validates and names the bad line.
CREATE TABLE llm_econ.price_history_staging (
    id                                   bigserial PRIMARY KEY,
    observed_at                          text,
    valid_to                             text,
    cloud                                text,
    region                               text,
    instance_type                        text,
    accelerator                          text,
    accelerator_count                    text,
    price_on_demand_usd_per_hour         text,
    spot_price_usd_per_hour              text,
    price_on_demand_per_gpu_usd_per_hour text,
    spot_price_per_gpu_usd_per_hour      text,
    staged_by                            text NOT NULL DEFAULT CURRENT_USER
                                         CHECK (staged_by OPERATOR(pg_catalog.=) CURRENT_USER)
);
COMMENT ON TABLE llm_econ.price_history_staging IS
  'staging for load_price_history(): \copy llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, spot_price_per_gpu_usd_per_hour) FROM ''file.csv'' CSV HEADER';
COMMENT ON COLUMN llm_econ.price_history_staging.staged_by IS 'the role that staged the row (always the inserting role); load_price_history loads and removes only the rows of the role calling it';
COMMENT ON COLUMN llm_econ.price_history_staging.id IS 'load order (file line = its rank + 1 with a header line)';
COMMENT ON COLUMN llm_econ.price_history_staging.observed_at IS 'ISO 8601 instant the price was first seen';
COMMENT ON COLUMN llm_econ.price_history_staging.valid_to IS 'ISO 8601 instant it stopped (next change, removal, or end of coverage)';
COMMENT ON COLUMN llm_econ.price_history_staging.cloud IS 'provider, e.g. gcp';
COMMENT ON COLUMN llm_econ.price_history_staging.region IS 'region';
COMMENT ON COLUMN llm_econ.price_history_staging.instance_type IS 'machine type';
COMMENT ON COLUMN llm_econ.price_history_staging.accelerator IS 'accelerator name (key or alias)';
COMMENT ON COLUMN llm_econ.price_history_staging.accelerator_count IS 'GPUs per machine';
COMMENT ON COLUMN llm_econ.price_history_staging.price_on_demand_usd_per_hour IS 'machine on-demand USD/hour';
COMMENT ON COLUMN llm_econ.price_history_staging.spot_price_usd_per_hour IS 'machine spot USD/hour; empty = no spot offer';
COMMENT ON COLUMN llm_econ.price_history_staging.price_on_demand_per_gpu_usd_per_hour IS 'per-GPU on-demand USD/hour (machine price / count when empty)';
COMMENT ON COLUMN llm_econ.price_history_staging.spot_price_per_gpu_usd_per_hour IS 'per-GPU spot USD/hour (machine price / count when empty)';

-- The staged history, typed and mapped to SKUs: the machine type decides the GPU
-- (a2-ultragpu-1g is an A100 80GB whatever its accelerator column says); "problem" says why a
-- line cannot be used.  line = the file line with a header (rank in load order + 1).
CREATE FUNCTION llm_econ._staged_history()
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

CREATE FUNCTION llm_econ._load_price_history(source text, on_mismatch text, quiet boolean,
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

CREATE FUNCTION llm_econ.load_price_history(source text DEFAULT 'price_history_staging', on_mismatch text DEFAULT 'error',
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint)
LANGUAGE sql VOLATILE
AS $$ SELECT * FROM llm_econ._load_price_history($1, $2, false) $$;
COMMENT ON FUNCTION llm_econ.load_price_history(text, text) IS
  'loads the rows the current role staged in llm_econ.price_history_staging (a long-format price history, \copy''d in) into price_snapshot as change points, then removes them; a bad line is an error naming it and nothing is stored; on_mismatch => ''skip'' counts lines whose accelerator contradicts the instance type as skipped';
-- The rest of the bill: carbon, checkpoint interval and interruption risk, the cost breakdown of a run, and the cost of owning a GPU.

CREATE FUNCTION llm_econ.carbon_kg(spec llm_econ.run_spec, kg_co2_per_kwh float8, pue float8 DEFAULT 1.0)
RETURNS float8
AS 'MODULE_PATHNAME', 'le_carbon_kg_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.carbon_kg(llm_econ.run_spec, float8, float8) IS
  'operational emissions in kg CO2e: energy_kwh(spec, pue) · kg_co2_per_kwh (grid intensity, location-based; in [0, 2]); pue in [1, 5]. Embodied carbon of the hardware is not counted. NULL when the spec''s tdp_watts is NULL (power not published)';

-- Young 1974 / Daly 2006 checkpoint interval with independent node failures.
CREATE FUNCTION llm_econ.checkpoint_plan(spec llm_econ.run_spec, checkpoint_write interval, mtbf_per_node interval,
    OUT "interval" interval, OUT overhead_fraction float8, OUT p_interrupted float8,
    OUT expected_interruptions float8, OUT cluster_mtbf interval, OUT nodes int4)
AS 'MODULE_PATHNAME', 'le_checkpoint_plan_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.checkpoint_plan(llm_econ.run_spec, interval, interval) IS
  'checkpoint plan under independent node failures: nodes = ceil(n_gpus / gpus_per_node); cluster_mtbf M = mtbf_per_node / nodes; '
  '"interval" = sqrt(2 · checkpoint_write · M) (Young 1974; Daly 2006), or M when checkpoint_write >= 2M (Daly''s cap; the first-order model assumes checkpoint_write much shorter than M, and is only indicative once it reaches M/2); '
  'overhead_fraction = write / interval + interval / (2M) (time writing plus expected rework, sqrt(2 · write / M) at the optimum); '
  'p_interrupted = 1 - exp(-T / M) and expected_interruptions = T / M with T = mfu_time(spec). '
  'Intervals count months and days as extract(epoch) does; both must be in (0, 1e12] seconds';

CREATE FUNCTION llm_econ.cost_breakdown(spec llm_econ.run_spec, usd_per_gpu_hour numeric,
    checkpoint_every interval DEFAULT '30 minutes',
    checkpoint_write interval DEFAULT '90 seconds',
    checkpoints_kept int4 DEFAULT 10,
    checkpoint_gb float8 DEFAULT NULL,
    dataset_gb float8 DEFAULT NULL,
    storage_usd_per_gb_month numeric DEFAULT 0.02,
    storage_months float8 DEFAULT 1,
    egress_gb float8 DEFAULT 0,
    egress_usd_per_gb numeric DEFAULT 0.08,
    owned boolean DEFAULT false,
    usd_per_kwh numeric DEFAULT 0.10,
    pue float8 DEFAULT 1.0,
    spot_buffer numeric DEFAULT 0.10,
    OUT component text, OUT usd numeric, OUT assumption text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_cost_breakdown_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 7;
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

-- Owning a GPU: list price amortised over the used hours, plus its energy.
CREATE FUNCTION llm_econ.tco_per_gpu_hour(sku text, years float8, utilization float8, usd_per_kwh numeric, pue float8)
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
-- Finance: planned runs frozen at plan time, FOCUS billing lines, plan vs actual, row-level security by tenant.

-- Tenants are roles: a row belongs to the role in its "tenant" column, and a user sees and
-- writes the rows of every tenant role it is a member of (row-level security below).  The
-- table owner and superusers see everything.
CREATE FUNCTION llm_econ._is_tenant_member(tenant text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) $1)
              THEN pg_catalog.pg_has_role($1, 'MEMBER') ELSE false END
$$;
COMMENT ON FUNCTION llm_econ._is_tenant_member(text) IS
  'internal: whether the current user is a member of the tenant role (false when no such role exists); the row-level security test';

CREATE TABLE llm_econ.run_plan (
    run_id             text NOT NULL CHECK (run_id OPERATOR(pg_catalog.<>) ''),
    spec               llm_econ.run_spec NOT NULL,
    provider           text NOT NULL CHECK (provider OPERATOR(pg_catalog.~) '^[a-z0-9][a-z0-9._-]*$'),
    pricing            text NOT NULL DEFAULT 'on_demand'
                       CHECK (pricing OPERATOR(pg_catalog.=) ANY (ARRAY['on_demand', 'spot', 'reserved'])),
    region             text CHECK (region OPERATOR(pg_catalog.<>) ''),
    planned_at         timestamptz NOT NULL DEFAULT pg_catalog.now() CHECK (pg_catalog.isfinite(planned_at)),
    usd_per_gpu_hour   numeric CHECK (usd_per_gpu_hour >= 0::numeric AND usd_per_gpu_hour < 'Infinity'),
    planned_gpu_hours  float8,
    planned_usd        numeric,
    tenant             text NOT NULL DEFAULT CURRENT_USER,
    team               text,
    notes              text,
    -- run ids are per tenant: two tenants may use the same one, and neither can tell
    CONSTRAINT run_plan_pkey PRIMARY KEY (tenant, run_id)
);
COMMENT ON TABLE llm_econ.run_plan IS
  'planned runs, keyed by (tenant, run_id): the spec (hardware frozen in it) and the price in effect at planned_at, with GPU-hours and USD frozen when the plan is made';
COMMENT ON COLUMN llm_econ.run_plan.run_id IS 'the run''s id within its tenant; billing lines of the tenant name it in the run_id tag';
COMMENT ON COLUMN llm_econ.run_plan.spec IS 'the run (run_spec, hardware frozen when built)';
COMMENT ON COLUMN llm_econ.run_plan.provider IS 'where it runs (lower case)';
COMMENT ON COLUMN llm_econ.run_plan.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.run_plan.region IS 'region; NULL = cheapest region';
COMMENT ON COLUMN llm_econ.run_plan.planned_at IS 'when the plan was made: the price in effect then is frozen';
COMMENT ON COLUMN llm_econ.run_plan.usd_per_gpu_hour IS 'the price planned with: given, or price_at(spec.sku, provider, pricing, planned_at, region) when inserted as NULL';
COMMENT ON COLUMN llm_econ.run_plan.planned_gpu_hours IS 'gpu_hours(spec), frozen';
COMMENT ON COLUMN llm_econ.run_plan.planned_usd IS 'estimate_cost(spec, usd_per_gpu_hour), frozen';
COMMENT ON COLUMN llm_econ.run_plan.tenant IS 'the role that owns the plan (row-level security)';
COMMENT ON COLUMN llm_econ.run_plan.team IS 'free-form team name';
COMMENT ON COLUMN llm_econ.run_plan.notes IS 'free-form notes';

-- Freezes a plan.  A new plan (planned_usd or planned_gpu_hours not given), or an update that
-- changes what it was priced from: checks the SKU (it may have been built by hand), fills the
-- price from the price table when it is NULL, and computes GPU-hours and USD from the row, so
-- later edits of gpu_sku or price_snapshot never change a plan.  A row that arrives frozen
-- (pg_restore, a copy between databases) keeps its values: restoring must not re-price a plan
-- or fail because its SKU was renamed or deleted since.
-- STABLE: every row of one INSERT is priced from the statement's snapshot.
CREATE FUNCTION llm_econ._freeze_plan() RETURNS trigger
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

CREATE TRIGGER run_plan_freeze BEFORE INSERT OR UPDATE ON llm_econ.run_plan
    FOR EACH ROW EXECUTE FUNCTION llm_econ._freeze_plan();

-- FOCUS-shaped billing lines.  Every line of an imported file is kept (GPU or not): the typed
-- columns are what reports need, and "record" keeps the original line's other columns.
CREATE TABLE llm_econ.spend (
    id                   bigserial PRIMARY KEY,
    tenant               text NOT NULL DEFAULT CURRENT_USER,
    charge_period_start  timestamptz NOT NULL,
    charge_period_end    timestamptz NOT NULL,
    billing_period_start timestamptz,
    billing_period_end   timestamptz,
    provider             text NOT NULL,
    service_name         text,
    service_category     text,
    charge_category      text,
    charge_description   text,
    pricing_category     text,
    pricing              text CHECK (pricing OPERATOR(pg_catalog.=) ANY (ARRAY['on_demand', 'spot', 'reserved'])),
    region               text,
    sku                  text REFERENCES llm_econ.gpu_sku (sku) ON UPDATE CASCADE,
    instance_type        text,
    gpus_per_instance    int4 CHECK (gpus_per_instance > 0),
    consumed_quantity    numeric,
    consumed_unit        text,
    gpu_hours            numeric CHECK (gpu_hours >= 0::numeric),
    billed_cost          numeric NOT NULL CHECK (billed_cost > '-Infinity' AND billed_cost < 'Infinity'),
    effective_cost       numeric NOT NULL CHECK (effective_cost > '-Infinity' AND effective_cost < 'Infinity'),
    list_cost            numeric,
    billing_currency     text,
    run_id               text,
    resource_id          text,
    tags                 jsonb,
    record               jsonb NOT NULL,
    source               text,
    line                 int4,
    row_hash             text COLLATE "C" NOT NULL,
    occurrence           int4 NOT NULL DEFAULT 1,
    imported_at          timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (charge_period_end >= charge_period_start),
    -- the k-th copy of a charge in a tenant's bills is stored once: re-importing charges adds
    -- nothing, and identical charges within one file are all kept.  The identity leads, compared
    -- byte for byte: identities are spread, so a load's inserts into this index rarely compare
    -- more than it (tenant first made every comparison two text comparisons)
    CONSTRAINT spend_one_line UNIQUE (row_hash, tenant, occurrence),
    billing_account_id   text,
    delivery             text
);
CREATE INDEX spend_run_id ON llm_econ.spend (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX spend_charge_period ON llm_econ.spend (charge_period_start);
-- what a delivery replaces is found by billing period (the tenant, provider and account are
-- checked on the rows): one timestamp is cheap to index on every line loaded
CREATE INDEX spend_billing_period ON llm_econ.spend (billing_period_start);

COMMENT ON TABLE llm_econ.spend IS
  'billed lines (FOCUS cost-and-usage rows), every line kept: typed columns, and the original line''s other columns in record; GPU lines carry sku and gpu_hours; run_id from the run_id tag';
COMMENT ON COLUMN llm_econ.spend.id IS 'surrogate key, in import order';
COMMENT ON COLUMN llm_econ.spend.tenant IS 'the role that owns the line (row-level security)';
COMMENT ON COLUMN llm_econ.spend.charge_period_start IS 'FOCUS ChargePeriodStart (inclusive; UTC when the file gives no offset)';
COMMENT ON COLUMN llm_econ.spend.charge_period_end IS 'FOCUS ChargePeriodEnd (exclusive)';
COMMENT ON COLUMN llm_econ.spend.billing_period_start IS 'FOCUS BillingPeriodStart';
COMMENT ON COLUMN llm_econ.spend.billing_period_end IS 'FOCUS BillingPeriodEnd';
COMMENT ON COLUMN llm_econ.spend.provider IS 'ServiceProviderName (FOCUS 1.3) or ProviderName, lower case; aws, azure, gcp, oci for the big four';
COMMENT ON COLUMN llm_econ.spend.service_name IS 'FOCUS ServiceName';
COMMENT ON COLUMN llm_econ.spend.service_category IS 'FOCUS ServiceCategory';
COMMENT ON COLUMN llm_econ.spend.charge_category IS 'FOCUS ChargeCategory (Usage, Purchase, Tax, Credit, Adjustment)';
COMMENT ON COLUMN llm_econ.spend.charge_description IS 'FOCUS ChargeDescription';
COMMENT ON COLUMN llm_econ.spend.pricing_category IS 'FOCUS PricingCategory (Standard, Dynamic, Committed, Other)';
COMMENT ON COLUMN llm_econ.spend.pricing IS 'on_demand (Standard), spot (Dynamic) or reserved (Committed)';
COMMENT ON COLUMN llm_econ.spend.region IS 'FOCUS RegionId';
COMMENT ON COLUMN llm_econ.spend.sku IS 'gpu_sku key, for GPU instance lines';
COMMENT ON COLUMN llm_econ.spend.instance_type IS 'the GPU machine type found in SkuPriceDetails or the charge description';
COMMENT ON COLUMN llm_econ.spend.gpus_per_instance IS 'GPUs of that machine type (SkuPriceDetails GpuCount, else gpu_sku_alias)';
COMMENT ON COLUMN llm_econ.spend.consumed_quantity IS 'FOCUS ConsumedQuantity';
COMMENT ON COLUMN llm_econ.spend.consumed_unit IS 'FOCUS ConsumedUnit';
COMMENT ON COLUMN llm_econ.spend.gpu_hours IS 'ConsumedQuantity (in hours) x GPUs per instance, for GPU instance lines';
COMMENT ON COLUMN llm_econ.spend.billed_cost IS 'FOCUS BilledCost (cash), exact';
COMMENT ON COLUMN llm_econ.spend.effective_cost IS 'FOCUS EffectiveCost (amortised), exact';
COMMENT ON COLUMN llm_econ.spend.list_cost IS 'FOCUS ListCost';
COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency (ISO 4217); views convert with fx_rate, NULL counts as USD';
COMMENT ON COLUMN llm_econ.spend.run_id IS 'the run: the Tags key run_id, or the x_run_id column';
COMMENT ON COLUMN llm_econ.spend.resource_id IS 'FOCUS ResourceId';
COMMENT ON COLUMN llm_econ.spend.tags IS 'FOCUS Tags (JSON object)';
COMMENT ON COLUMN llm_econ.spend.record IS 'the columns of the original line that no typed column holds and that have a value: header name -> text as written; empty fields and the word NULL are left out (->> reads NULL for them), and so are the typed FOCUS columns (costs, quantity and unit, periods, service, charge category and description, pricing category, currency, billing account, Tags, RegionId, ResourceId)';
COMMENT ON COLUMN llm_econ.spend.source IS 'the import''s source label';
COMMENT ON COLUMN llm_econ.spend.line IS 'line of the file the row came from';
COMMENT ON COLUMN llm_econ.spend.row_hash IS
  'the charge identity: md5 of the FOCUS fields as values (timestamps as instants, numbers as numbers, provider key, Tags without the run tag), not of the raw line; with occurrence, what makes re-imports idempotent';
COMMENT ON COLUMN llm_econ.spend.occurrence IS 'which copy of the same charge within the file (1, 2, ...)';
COMMENT ON COLUMN llm_econ.spend.imported_at IS 'when the line was imported';
COMMENT ON COLUMN llm_econ.spend.billing_account_id IS 'FOCUS BillingAccountId: with provider and billing period, what a restated delivery replaces';
COMMENT ON COLUMN llm_econ.spend.delivery IS 'the import''s delivery label: a later delivery of the same billing period and account replaces this one''s lines (NULL: added to, never replacing)';

-- Row-level security by tenant, shipped with the tables (so it survives pg_dump).
ALTER TABLE llm_econ.run_plan ENABLE ROW LEVEL SECURITY;
ALTER TABLE llm_econ.spend ENABLE ROW LEVEL SECURITY;
CREATE POLICY run_plan_tenant ON llm_econ.run_plan
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));
CREATE POLICY spend_tenant ON llm_econ.spend
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));

SELECT pg_catalog.pg_extension_config_dump('llm_econ.run_plan', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend_id_seq', '');

-- A CSV text's header and lines (generic readers, kept for callers of 0.2.0).
CREATE FUNCTION llm_econ._csv_header(csv text, what text) RETURNS text[]
AS 'MODULE_PATHNAME', 'le_csv_header_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._csv_header(text, text) IS 'internal: the column names of a CSV text''s header line (22023 when empty or duplicated)';
CREATE FUNCTION llm_econ._csv_records(csv text, what text, OUT line int4, OUT record jsonb) RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_csv_records_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._csv_records(text, text) IS
  'internal: the data lines of a CSV text as (line, jsonb keyed by header name); empty and NULL become JSON null; 22023 naming the line for malformed CSV';

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

CREATE FUNCTION llm_econ._focus_lines(csv text, what text) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_lines_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_lines(text, text) IS
  'internal: the data lines of a FOCUS CSV text typed for llm_econ.spend, with their charge identity; 22023 naming the line and column of the first bad line';

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

CREATE FUNCTION llm_econ._focus_staged_rows(what text, part int4) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_staged_rows_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_rows(text, int4) IS
  'internal: the current role''s focus_staging lines typed as _focus_lines types a text, with each line''s occurrence (k-th line of the file with its charge identity), one row per call so that INSERT ... SELECT streams; part 1 starts a load, parts 2, 3, ... (later statements of the transaction) continue it, work_mem / 64 lines each, until _focus_staged_done() is not NULL; copies are counted in a hash table of at most work_mem x hash_mem_multiplier (as PostgreSQL bounds its own hash tables), the lines of identities that do not fit are numbered in later rounds from a tuplestore';

CREATE FUNCTION llm_econ._focus_staged_insert(what text, who text, source text, delivery text) RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_insert_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_insert(text, text, text, text) IS
  'internal: inserts the current role''s focus_staging lines, typed and numbered as _focus_staged_rows does, into spend for tenant who from C (heap in batches; constraints, indexes, triggers and the foreign key as for an INSERT) with no ON CONFLICT: a stored charge is a unique violation of spend_one_line; then deletes the staged lines it loaded (each as it reads it, or by load_focus''s DELETE when a trigger, rule or missing DELETE privilege says that statement must run); the lines inserted, or NULL (nothing done) when this INSERT could not be exactly the SQL one (other policies, BEFORE row triggers, a partitioned or distributed spend, ...)';

CREATE FUNCTION llm_econ._focus_staged_done() RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_done_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_done() IS
  'internal: NULL while the load _focus_staged_rows began has lines left, else how many lines it read (then the load is dropped); 0 when no load is in progress';

CREATE FUNCTION llm_econ._focus_worker_lines() RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_worker_lines_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_worker_lines() IS
  'internal: how many lines of this session''s last staged FOCUS load a background worker typed (llm_econ.focus_typing_worker); 0 when the session typed them all';

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

-- Why the current role may not import for tenant who, and what would let it: {message, hint}, NULL
-- when it may.  Checked before any parsing, so a refusal is one line naming the grant or the tenant,
-- the GRANT to run in its HINT.
CREATE FUNCTION llm_econ._focus_refusal(fn text, who text, replacing boolean, staged boolean) RETURNS text[]
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

-- Stores the typed lines of the temporary table llm_econ_focus_lines for tenant who: a delivery
-- replaces the lines that earlier deliveries (or undelivered imports) left for the same provider,
-- billing account and billing period; then every charge not already stored is inserted (the k-th
-- copy of a charge in the file is its occurrence k).
CREATE FUNCTION llm_econ._focus_store(who text, source text, delivery text,
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

-- The temporary table the importers type lines into (dropped at commit).
CREATE FUNCTION llm_econ._focus_temp() RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF pg_catalog.to_regclass('pg_temp.llm_econ_focus_lines') IS NOT NULL THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE llm_econ_focus_lines OF llm_econ._focus_line ON COMMIT DROP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_temp() IS 'internal: creates the transaction''s temporary table of typed FOCUS lines unless it exists';

CREATE FUNCTION llm_econ.import_focus(focus_csv text, tenant text DEFAULT NULL, source text DEFAULT NULL,
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

CREATE FUNCTION llm_econ.load_focus(tenant text DEFAULT NULL, source text DEFAULT NULL, delivery text DEFAULT NULL,
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
-- Plan vs actual: every plan and every run that has spend, joined on (tenant, run_id) (full join:
-- runs without spend yet and spend without a plan both appear), plus one "untagged" row per tenant
-- and provider holding the spend with no run, so the view's billed total is the invoices'.  Amounts
-- are USD at the rate in effect at each line's charge period start; a line with no known rate is
-- left out of the USD sums and counted in unconverted_lines.  Variance is effective (amortised)
-- cost minus planned, split into price and usage (GPU-hours) variance.
CREATE VIEW llm_econ.plan_vs_actual WITH (security_invoker = true) AS
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

-- Readers still need SELECT on run_plan and spend (security_invoker), and see only their tenants' rows.
GRANT SELECT ON llm_econ.plan_vs_actual TO PUBLIC;
-- data.sql: loads the shipped reference data (data/*.csv, installed into SHAREDIR/extension/llm_econ/) with COPY.
--
-- The CSV files are the data's one copy: `make install` puts them next to the install script,
-- and this part of the script reads them from the server's share directory (pg_config()'s
-- SHAREDIR, which follows a relocated installation), the way postgresql-unit ships its tables.
-- COPY from a server file needs a superuser; the extension is not trusted, so CREATE EXTENSION
-- is run by one anyway.  `perl src/check_data.pl data` validates every value at build time (a
-- bad file fails the build with FILE:LINE); HEADER MATCH makes COPY refuse a file whose
-- columns are not the expected ones, in order.
--
-- Shipped rows carry builtin = true (pg_dump keeps only user rows): the column's default is
-- true while the files load and false again afterwards.  Rows load in file order, so a fresh
-- install gives every row the id an updated one gives it (src/update/0.3.0/20_prices.sql).
--
-- Why the GCP history's change points are shipped and not derived here (issue 18: CREATE
-- EXTENSION under 0.3 s): running the loader over the 15,932 raw lines took 1.1 s of the 1.46 s;
-- COPY of its output takes a tenth of that.  The raw file stays the source: the points file is
-- written by src/gen_history_points.sh through the same loader, and the regression test
-- shipped_history fails unless the loader still yields exactly these rows, so they cannot drift.
-- Speeding up the loader instead was not enough: its per-line checks and change-point windows
-- are what a user's load needs, and no form of them came near 0.1 s.
DO $load$
DECLARE
  dir constant text := (SELECT c.setting FROM pg_catalog.pg_config() c
                         WHERE c.name OPERATOR(pg_catalog.=) 'SHAREDIR') || '/extension/llm_econ/0.3.0/';
  opts constant text := ' WITH (FORMAT csv, HEADER MATCH, ENCODING ''UTF8'')';
BEGIN
  ALTER TABLE llm_econ.gpu_sku ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.gpu_sku_alias ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.mfu_reference ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN builtin SET DEFAULT true;

  EXECUTE 'COPY llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, '
       || 'bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, '
       || 'list_price_usd_low, list_price_usd_high, released, source) FROM '
       || pg_catalog.quote_literal(dir || 'gpu_sku.csv') || opts;
  EXECUTE 'COPY llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source) FROM '
       || pg_catalog.quote_literal(dir || 'gpu_sku_alias.csv') || opts;
  EXECUTE 'COPY llm_econ.mfu_reference (config, hardware, mfu, year, source) FROM '
       || pg_catalog.quote_literal(dir || 'mfu_reference.csv') || opts;

  -- The prices go in as a bulk load, as pg_restore --disable-triggers does it: the triggers
  -- are off (the per-row foreign key check; the import lock: no importer named a provider; the
  -- suspect check: catalog rows only; the series one), the SKUs are checked once afterwards,
  -- price_series is filled once at the end, and price_snapshot's secondary indexes are built
  -- after the load (tables.sql leaves them to this file).
  ALTER TABLE llm_econ.price_snapshot DISABLE TRIGGER ALL;

  -- the seed's price figures, of source_kind 'seed' (the kind is the column's default while each
  -- file loads, a constant rather than llm_econ._source_kind()'s lookup of the setting per row)
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT 'seed';
  EXECUTE 'COPY llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, '
       || 'instance_type, gpus_per_instance, source) FROM '
       || pg_catalog.quote_literal(dir || 'price_seed.csv') || opts;

  -- The GCP history's change points, as llm_econ._load_price_history (import.sql, the loader
  -- users run on their own histories) makes them from data/gcp_gpu_price_history.csv, ids
  -- included: gcp_gpu_price_history_points.csv, written by src/gen_history_points.sh and
  -- checked against the loader by the regression test shipped_history, so they cannot drift.
  -- COPY instead of the loader (1.1 s; see README, "Install script and CREATE EXTENSION").
  -- The sequence goes where the loader leaves it, and the import lock gets the row the
  -- loader's lock gives it.
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source SET DEFAULT
    'GCP price history 2022-02..2026-08, Cyclenerd/google-cloud-pricing-cost-calculator (Apache-2.0), via data/gcp_gpu_price_history.csv';
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT 'history';
  EXECUTE 'COPY llm_econ.price_snapshot (id, observed_at, provider, sku, region, pricing, usd_per_gpu_hour, '
       || 'instance_type, gpus_per_instance) FROM '
       || pg_catalog.quote_literal(dir || 'gcp_gpu_price_history_points.csv') || opts;
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source DROP DEFAULT,
                                      ALTER COLUMN source_kind SET DEFAULT llm_econ._source_kind();
  PERFORM 1 FROM llm_econ.price_snapshot p
   WHERE NOT EXISTS (SELECT 1 FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) p.sku);
  IF FOUND THEN
    RAISE EXCEPTION 'a shipped price names a SKU that gpu_sku.csv does not define'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  -- One observation per series and instant.  The same index serves as-of lookups: for one
  -- series, "latest observation at or before t" is a single backward index probe.
  CREATE UNIQUE INDEX price_snapshot_one_observation ON llm_econ.price_snapshot (series_id, observed_at);
  CREATE INDEX price_snapshot_observed_at ON llm_econ.price_snapshot (observed_at);
  PERFORM pg_catalog.setval('llm_econ.price_snapshot_id_seq', max(p.id)) FROM llm_econ.price_snapshot p;
  INSERT INTO llm_econ.import_lock (provider) VALUES ('gcp');
  -- and the staging table's ids go on after the raw file's lines, as when the install staged
  -- them (an updated install has the same; src/check_data.pl checks the number is the line count)
  PERFORM pg_catalog.setval('llm_econ.price_history_staging_id_seq', 15932);

  ALTER TABLE llm_econ.gpu_sku ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.gpu_sku_alias ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.mfu_reference ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN builtin SET DEFAULT false;

  -- Rows of the shipped history known to be wrong (gcp_gpu_price_history_corrections.csv:
  -- host-only machine prices, by region ('*' = any), machine-type prefix, period and the price
  -- below which a row is host-only) are deleted after the load, so the loaded rows keep their
  -- ids and an updated install (src/update/0.3.0/20_prices.sql) deletes the same rows.  Their
  -- series keep any withdrawal rows; a series left without rows is not one of price_series.
  CREATE TABLE llm_econ._shipped_correction (
      region text NOT NULL, instance_type_prefix text NOT NULL, observed_from timestamptz NOT NULL,
      observed_to timestamptz NOT NULL, below_usd_per_gpu_hour numeric NOT NULL, reason text NOT NULL,
      source text NOT NULL);
  EXECUTE 'COPY llm_econ._shipped_correction FROM '
       || pg_catalog.quote_literal(dir || 'gcp_gpu_price_history_corrections.csv') || opts;
  DELETE FROM llm_econ.price_snapshot p
   USING llm_econ._shipped_correction c
   WHERE p.builtin AND p.provider OPERATOR(pg_catalog.=) 'gcp' AND p.usd_per_gpu_hour IS NOT NULL
     AND (c.region OPERATOR(pg_catalog.=) '*' OR p.region OPERATOR(pg_catalog.=) c.region)
     AND pg_catalog.starts_with(p.instance_type, c.instance_type_prefix)
     AND p.observed_at OPERATOR(pg_catalog.>=) c.observed_from AND p.observed_at OPERATOR(pg_catalog.<) c.observed_to
     AND p.usd_per_gpu_hour OPERATOR(pg_catalog.<) c.below_usd_per_gpu_hour;
  DROP TABLE llm_econ._shipped_correction;
  -- the series of the rows loaded, as the trigger (tables.sql, _price_series_add) records them
  INSERT INTO llm_econ.price_series (sku, provider, pricing, region, instance_type)
  SELECT DISTINCT p.sku, p.provider, p.pricing, p.region, p.instance_type FROM llm_econ.price_snapshot p;
  ALTER TABLE llm_econ.price_snapshot ENABLE TRIGGER ALL;
END
$load$;
-- Reports added in 0.2.0: spend per day for finance dashboards.

-- Billed and effective USD and GPU-hours per UTC day of the charge period start, per tenant,
-- provider and service category.  Amounts in USD at the fx_rate in effect at the charge period
-- start; lines with no known rate are not summed (unconverted_lines counts them).
-- security_invoker: readers see their tenants' lines only.
CREATE VIEW llm_econ.spend_daily WITH (security_invoker = true) AS
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
GRANT SELECT ON llm_econ.spend_daily TO PUBLIC;
-- price_series pruning (0.2.0): a series whose last observation is deleted leaves price_series.

-- SECURITY DEFINER (with a fixed search_path), like the insert trigger: writers need no grant
-- on the derived table; EXECUTE revoked from PUBLIC; it runs only as a trigger of price_snapshot.
-- Race-free against a concurrent insert into the same series: first lock the candidate series
-- rows (an inserting transaction holds them locked until it ends: _price_series_add), then, in
-- a new statement and so with a new snapshot, delete those still without observations.
CREATE FUNCTION llm_econ._price_series_prune() RETURNS trigger
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

CREATE TRIGGER price_snapshot_series_del AFTER DELETE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE TRIGGER price_snapshot_series_upd_old AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
-- Spec validation as an SQL function (0.2.0), for triggers and users checking stored or hand-built specs.

CREATE FUNCTION llm_econ._check_spec(spec llm_econ.run_spec) RETURNS boolean
AS 'MODULE_PATHNAME', 'le_check_spec_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_spec(llm_econ.run_spec) IS
  'true when every field of the spec is in range and the cross-field rules hold (what the constructor checks); else 22023 naming the field';
-- Dashboard data: a daily price summary kept up to date by triggers, and the views dashboards read (0.3.0).

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
CREATE VIEW llm_econ.price_daily WITH (security_invoker = true) AS
  SELECT a."time", a.sku, a.pricing,
         pg_catalog.min(a.min_usd) AS min_usd_per_gpu_hour,
         pg_catalog.round(pg_catalog.sum(a.sum_usd) OPERATOR(pg_catalog./) pg_catalog.sum(a.offers), 6) AS avg_usd_per_gpu_hour,
         pg_catalog.max(a.max_usd) AS max_usd_per_gpu_hour,
         pg_catalog.count(a.provider) AS providers,
         pg_catalog.string_agg(a.provider, ', ' ORDER BY a.provider) AS provider_list
    FROM llm_econ._price_daily_all a
   GROUP BY a."time", a.sku, a.pricing;
COMMENT ON VIEW llm_econ.price_daily IS
  'per UTC day, SKU and pricing: min/avg/max $/GPU-hour over every series (provider, region, instance type) in effect at the end of the day';
COMMENT ON COLUMN llm_econ.price_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily.min_usd_per_gpu_hour IS 'cheapest series';
COMMENT ON COLUMN llm_econ.price_daily.avg_usd_per_gpu_hour IS 'unweighted mean over the series';
COMMENT ON COLUMN llm_econ.price_daily.max_usd_per_gpu_hour IS 'dearest series';
COMMENT ON COLUMN llm_econ.price_daily.providers IS 'number of providers with a price in effect';
COMMENT ON COLUMN llm_econ.price_daily.provider_list IS 'those providers, comma-separated';

GRANT SELECT ON llm_econ.price_daily TO PUBLIC;

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

-- The summary of the shipped prices, shipped with them (data/price_daily_group.csv,
-- data/price_daily_summary.csv: what _price_daily_refresh makes of the shipped rows, written by
-- src/gen_history_points.sh and checked against it by the regression test shipped_history):
-- building it here took 0.2 s of CREATE EXTENSION.  An updated install builds it from its own
-- prices (src/update/0.3.0/60_dashboards.sql).
DO $load$
DECLARE
  dir constant text := (SELECT c.setting FROM pg_catalog.pg_config() c
                         WHERE c.name OPERATOR(pg_catalog.=) 'SHAREDIR') || '/extension/llm_econ/0.3.0/';
BEGIN
  EXECUTE 'COPY llm_econ.price_daily_group (sku, provider, pricing, last_day) FROM '
       || pg_catalog.quote_literal(dir || 'price_daily_group.csv') || ' WITH (FORMAT csv, HEADER MATCH)';
  EXECUTE 'COPY llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd) FROM '
       || pg_catalog.quote_literal(dir || 'price_daily_summary.csv') || ' WITH (FORMAT csv, HEADER MATCH)';
END
$load$;
-- Predicted MFU and the cheapest plan: the step-time model over run_spec, and the search for the cheapest plan that meets a deadline.

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
