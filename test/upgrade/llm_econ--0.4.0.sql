-- llm_econ 0.4.0 install script, built from src/sql/*.sql (comments, and the indentation outside function bodies, are in the sources only)
\echo Use "CREATE EXTENSION llm_econ" to load this file. \quit
CREATE SCHEMA llm_econ;
COMMENT ON SCHEMA llm_econ IS 'llm_econ: the economics of LLM training runs (cost, time, memory, prices, spend)';
CREATE TABLE llm_econ.gpu_sku(sku text PRIMARY KEY
CHECK(sku OPERATOR(pg_catalog.~)'^[A-Za-z0-9][A-Za-z0-9._-]*$'),vendor text NOT NULL,name text NOT NULL,hbm_gb float8 NOT NULL CHECK(hbm_gb > 0::float8 AND hbm_gb < 'Infinity'),hbm_gb_per_s float8 CHECK(hbm_gb_per_s > 0::float8 AND hbm_gb_per_s < 'Infinity'),fp32_tflops float8 CHECK(fp32_tflops > 0::float8 AND fp32_tflops < 'Infinity'),tf32_tflops float8 CHECK(tf32_tflops > 0::float8 AND tf32_tflops < 'Infinity'),bf16_tflops float8 CHECK(bf16_tflops > 0::float8 AND bf16_tflops < 'Infinity'),fp16_tflops float8 CHECK(fp16_tflops > 0::float8 AND fp16_tflops < 'Infinity'),fp8_tflops float8 CHECK(fp8_tflops > 0::float8 AND fp8_tflops < 'Infinity'),nvlink_gb_per_s float8 CHECK(nvlink_gb_per_s > 0::float8 AND nvlink_gb_per_s < 'Infinity'),pcie_gb_per_s float8 NOT NULL DEFAULT 64 CHECK(pcie_gb_per_s > 0::float8 AND pcie_gb_per_s < 'Infinity'),gpus_per_node int4 NOT NULL CHECK(gpus_per_node BETWEEN 1 AND 4096),tdp_watts float8 CHECK(tdp_watts > 0::float8 AND tdp_watts <= 100000::float8),list_price_usd_low numeric CHECK(list_price_usd_low > 0::numeric AND list_price_usd_low < 'Infinity'),list_price_usd_high numeric CHECK(list_price_usd_high > 0::numeric AND list_price_usd_high < 'Infinity'),released date,source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),builtin boolean NOT NULL DEFAULT false,hbm_bytes float8 CHECK(hbm_bytes > 0::float8 AND hbm_bytes < 'Infinity'),generation text NOT NULL DEFAULT 'other'
CHECK(generation OPERATOR(pg_catalog.=)ANY(ARRAY['ampere','hopper','blackwell','cdna2','cdna3','other'])),CHECK(list_price_usd_low <= list_price_usd_high),CHECK(pg_catalog.num_nonnulls(fp32_tflops,tf32_tflops,bf16_tflops,fp16_tflops,fp8_tflops)> 0));
CREATE UNIQUE INDEX gpu_sku_lower_key ON llm_econ.gpu_sku(pg_catalog.lower(sku));
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
CREATE TABLE llm_econ.gpu_sku_alias(alias text PRIMARY KEY CHECK(alias OPERATOR(pg_catalog.<>)''),sku text NOT NULL REFERENCES llm_econ.gpu_sku(sku)ON UPDATE CASCADE ON DELETE CASCADE,gpus_per_instance int4 CHECK(gpus_per_instance BETWEEN 1 AND 4096),source text,builtin boolean NOT NULL DEFAULT false);
CREATE UNIQUE INDEX gpu_sku_alias_lower_key ON llm_econ.gpu_sku_alias(pg_catalog.lower(alias));
CREATE INDEX gpu_sku_alias_sku ON llm_econ.gpu_sku_alias(sku);
COMMENT ON TABLE llm_econ.gpu_sku_alias IS
'other names of a SKU as providers and catalogs write them (H100, A100-80GB-SXM, p5.48xlarge); matched case-insensitively';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.alias IS 'the provider''s name for the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.sku IS 'the gpu_sku key it means';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.gpus_per_instance IS 'for machine-type aliases (p5.48xlarge, a2-highgpu-8g): GPUs in one machine; NULL for names of the part';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.source IS 'where the name is used';
COMMENT ON COLUMN llm_econ.gpu_sku_alias.builtin IS 'true for rows shipped with the extension';
CREATE TABLE llm_econ.instance_type(provider text NOT NULL CHECK(provider OPERATOR(pg_catalog.~)'^[a-z0-9][a-z0-9._-]*$'),instance_type text NOT NULL CHECK(instance_type OPERATOR(pg_catalog.<>)''),sku text NOT NULL REFERENCES llm_econ.gpu_sku(sku)ON UPDATE CASCADE ON DELETE CASCADE,gpus numeric NOT NULL CHECK(gpus > 0::numeric AND gpus <= 4096::numeric
AND(gpus <= 1::numeric OR gpus OPERATOR(pg_catalog.=)pg_catalog.trunc(gpus))),network_gbit_per_s numeric CHECK(network_gbit_per_s > 0::numeric AND network_gbit_per_s < 1000000::numeric),nvlink_domain int4 CHECK(nvlink_domain BETWEEN 1 AND 4096),source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),builtin boolean NOT NULL DEFAULT false,PRIMARY KEY(provider,instance_type));
CREATE UNIQUE INDEX instance_type_lower_key ON llm_econ.instance_type(provider,pg_catalog.lower(instance_type));
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
CREATE TABLE llm_econ.gcp_machine_family(machine_family text NOT NULL CHECK(machine_family OPERATOR(pg_catalog.~)'^[a-z][a-z0-9]*(-[a-z0-9]+)*$'),accelerator text NOT NULL CHECK(accelerator OPERATOR(pg_catalog.<>)''),alt_accelerator text CHECK(alt_accelerator OPERATOR(pg_catalog.<>)''),source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),builtin boolean NOT NULL DEFAULT false,PRIMARY KEY(machine_family,accelerator));
COMMENT ON TABLE llm_econ.gcp_machine_family IS
'the AcceleratorName SkyPilot''s GCP catalogs give each GPU machine family''s GPUs, by which the importer pairs machine and accelerator rows';
COMMENT ON COLUMN llm_econ.gcp_machine_family.machine_family IS 'machine type name without its size (a2-highgpu, g2-standard), or n1';
COMMENT ON COLUMN llm_econ.gcp_machine_family.accelerator IS 'the AcceleratorName of its GPUs in SkyPilot''s GCP catalogs';
COMMENT ON COLUMN llm_econ.gcp_machine_family.alt_accelerator IS 'a second name older catalogs use (a3-megagpu: H100), or NULL';
COMMENT ON COLUMN llm_econ.gcp_machine_family.source IS 'where the figures come from';
COMMENT ON COLUMN llm_econ.gcp_machine_family.builtin IS 'true for rows shipped with the extension';
CREATE TABLE llm_econ.mfu_reference(config text PRIMARY KEY,hardware text NOT NULL,mfu float8 NOT NULL CHECK(mfu > 0::float8 AND mfu <= 1::float8),year int4 NOT NULL CHECK(year BETWEEN 2000 AND 2100),source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),builtin boolean NOT NULL DEFAULT false);
COMMENT ON TABLE llm_econ.mfu_reference IS 'published model FLOPs utilisation of real training runs (each row''s source names the paper or report it is from)';
COMMENT ON COLUMN llm_econ.mfu_reference.config IS 'the run or software stack';
COMMENT ON COLUMN llm_econ.mfu_reference.hardware IS 'the accelerators it ran on';
COMMENT ON COLUMN llm_econ.mfu_reference.mfu IS 'model FLOPs utilisation, (0, 1]';
COMMENT ON COLUMN llm_econ.mfu_reference.year IS 'year published';
COMMENT ON COLUMN llm_econ.mfu_reference.source IS 'publication';
COMMENT ON COLUMN llm_econ.mfu_reference.builtin IS 'true for rows shipped with the extension';
CREATE FUNCTION llm_econ._source_kind()RETURNS text
AS 'MODULE_PATHNAME','le_source_kind_fn' LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION llm_econ._source_kind()IS
'internal: default of price_snapshot.source_kind: the recorder''s kind (catalog, history) for the rows it writes, else manual';
CREATE FUNCTION llm_econ._kind_allowed()RETURNS boolean
AS 'MODULE_PATHNAME','le_kind_allowed_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._kind_allowed()IS
'internal: true while the price recorder writes for the current role, or for a superuser';
CREATE FUNCTION llm_econ._series_id(sku text,provider text,pricing text,region text,instance_type text)
RETURNS int8
AS 'MODULE_PATHNAME','le_series_id_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._series_id(text,text,text,text,text)IS
'internal: the id of a price series (sku, provider, pricing, region, instance_type), a stable 64-bit hash';
CREATE TABLE llm_econ.price_snapshot(id bigserial,observed_at timestamptz NOT NULL CHECK(pg_catalog.isfinite(observed_at)),provider text NOT NULL CHECK(provider OPERATOR(pg_catalog.~)'^[a-z0-9][a-z0-9._-]*$'),sku text NOT NULL REFERENCES llm_econ.gpu_sku(sku)ON UPDATE CASCADE,region text CHECK(region OPERATOR(pg_catalog.<>)''),pricing text NOT NULL CHECK(pricing OPERATOR(pg_catalog.=)ANY(ARRAY['on_demand','spot','reserved'])),usd_per_gpu_hour numeric CHECK(usd_per_gpu_hour > 0::numeric AND usd_per_gpu_hour < 'Infinity'),instance_type text CHECK(instance_type OPERATOR(pg_catalog.<>)''),gpus_per_instance int4 CHECK(gpus_per_instance BETWEEN 1 AND 4096),source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),builtin boolean NOT NULL DEFAULT false,source_kind text NOT NULL DEFAULT llm_econ._source_kind()
CHECK(source_kind OPERATOR(pg_catalog.=)ANY(ARRAY['catalog','history','seed','manual'])),suspect text CHECK(suspect OPERATOR(pg_catalog.<>)''),series_id int8 NOT NULL
GENERATED ALWAYS AS(llm_econ._series_id(sku,provider,pricing,region,instance_type))STORED,last_seen_at timestamptz CHECK(last_seen_at OPERATOR(pg_catalog.>=)observed_at));
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
CREATE TABLE llm_econ.price_import(provider text NOT NULL,source text NOT NULL,observed_at timestamptz NOT NULL,PRIMARY KEY(provider,source,observed_at));
COMMENT ON TABLE llm_econ.price_import IS
'when catalogs of a provider (and source) were imported; the next one after a backfilled catalog decides which of its series were withdrawn';
COMMENT ON COLUMN llm_econ.price_import.provider IS 'provider, lower case';
COMMENT ON COLUMN llm_econ.price_import.source IS 'price_snapshot.source of the import';
COMMENT ON COLUMN llm_econ.price_import.observed_at IS 'the catalog''s date';
ALTER TABLE llm_econ.price_import ENABLE ROW LEVEL SECURITY;
CREATE POLICY price_import_read ON llm_econ.price_import FOR SELECT USING(true);
CREATE POLICY price_import_write ON llm_econ.price_import FOR INSERT
WITH CHECK(pg_catalog.has_table_privilege('llm_econ.price_snapshot','INSERT'));
CREATE TABLE llm_econ.price_series(sku text NOT NULL,provider text NOT NULL,pricing text NOT NULL,region text,instance_type text,series_id int8 NOT NULL
GENERATED ALWAYS AS(llm_econ._series_id(sku,provider,pricing,region,instance_type))STORED,CONSTRAINT price_series_key UNIQUE NULLS NOT DISTINCT(sku,provider,pricing,region,instance_type),CONSTRAINT price_series_id PRIMARY KEY(series_id));
COMMENT ON TABLE llm_econ.price_series IS
'derived: the distinct (sku, provider, pricing, region, instance_type) series of price_snapshot, maintained by trigger';
COMMENT ON COLUMN llm_econ.price_series.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_series.provider IS 'provider, lower case';
COMMENT ON COLUMN llm_econ.price_series.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_series.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_series.instance_type IS 'machine type; NULL = not given';
COMMENT ON COLUMN llm_econ.price_series.series_id IS 'generated: the series'' id (llm_econ._series_id of the key), what price_snapshot.series_id refers to';
CREATE FUNCTION llm_econ._price_series_add()RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('INSERT', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_add() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;




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
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_add()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_add()IS 'trigger: refuses observations outside [2010-01-01, now + 366 days] (22023), then registers the series of new or changed price_snapshot rows in price_series';
CREATE FUNCTION llm_econ._price_kind_guard()RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  IF NOT llm_econ._kind_allowed()
     AND EXISTS (SELECT 1 FROM new_rows n WHERE n.source_kind OPERATOR(pg_catalog.<>) 'manual') THEN
    RAISE EXCEPTION 'source_kind must be manual for a price entered by hand'
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'catalog and history are set by import_skypilot_catalog and load_price_history for the rows they write.';
  END IF;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_kind_guard()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_kind_guard()IS
'trigger: refuses price rows of a source_kind other than manual unless the price recorder or a superuser wrote them (42501)';
CREATE TRIGGER price_snapshot_kind_ins AFTER INSERT ON llm_econ.price_snapshot
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_kind_guard();
CREATE TRIGGER price_snapshot_series_ins AFTER INSERT ON llm_econ.price_snapshot
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
CREATE TRIGGER price_snapshot_series_upd AFTER UPDATE ON llm_econ.price_snapshot
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_add();
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gpu_sku','WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gpu_sku_alias','WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.mfu_reference','WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_snapshot','WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_snapshot_id_seq','');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.price_import','');
GRANT USAGE ON SCHEMA llm_econ TO PUBLIC;
GRANT SELECT ON llm_econ.gpu_sku,llm_econ.gpu_sku_alias,llm_econ.instance_type,llm_econ.gcp_machine_family,llm_econ.mfu_reference,llm_econ.price_snapshot,llm_econ.price_series,llm_econ.price_import TO PUBLIC;
GRANT INSERT ON llm_econ.price_import TO PUBLIC;
CREATE TABLE llm_econ.import_lock(provider text PRIMARY KEY);
COMMENT ON TABLE llm_econ.import_lock IS
'internal: one row per provider whose prices were imported; importers lock their providers'' rows (owner-only; derived, not dumped)';
COMMENT ON COLUMN llm_econ.import_lock.provider IS 'provider, lower case';
CREATE FUNCTION llm_econ._import_lock()RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog,pg_temp AS $$
DECLARE
  providers text[] := pg_catalog.string_to_array(nullif(pg_catalog.current_setting('llm_econ.import_providers', true), ''), ',');
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_WHEN <> 'BEFORE'
     OR TG_LEVEL <> 'STATEMENT' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'llm_econ._import_lock() fires only as the BEFORE INSERT statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF providers IS NOT NULL THEN



    providers := ARRAY(SELECT p FROM pg_catalog.unnest(providers) AS p
                        WHERE p ~ '^[a-z0-9][a-z0-9._-]*$' AND pg_catalog.octet_length(p) <= 256);
    INSERT INTO llm_econ.import_lock (provider)
    SELECT p FROM pg_catalog.unnest(providers) AS p ORDER BY 1 ON CONFLICT DO NOTHING;
    PERFORM 1 FROM llm_econ.import_lock l WHERE l.provider = ANY (providers) ORDER BY l.provider FOR UPDATE;
  END IF;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._import_lock()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._import_lock()IS
'trigger: locks the import_lock rows of the providers an importer named (llm_econ.import_providers)';
CREATE TRIGGER price_snapshot_import_lock BEFORE INSERT ON llm_econ.price_snapshot
FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._import_lock();
CREATE FUNCTION llm_econ._lock_providers(providers text[])RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  PERFORM pg_catalog.set_config('llm_econ.import_providers',
                     pg_catalog.array_to_string(ARRAY(SELECT DISTINCT p FROM pg_catalog.unnest(providers) AS p WHERE p IS NOT NULL ORDER BY 1), ','),
                     true);
  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, source)
  SELECT NULL, NULL, NULL, NULL, NULL WHERE false;
  PERFORM pg_catalog.set_config('llm_econ.import_providers', '', true);
END $$;
COMMENT ON FUNCTION llm_econ._lock_providers(text[])IS
'internal: serialises imports of these providers until the end of the transaction (needs INSERT on price_snapshot)';
CREATE FUNCTION llm_econ._check_name(value text,field text)RETURNS text
AS 'MODULE_PATHNAME','le_check_name_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_name(text,text)IS
'internal: value unchanged if it is at most 256 bytes (NULL stays NULL), else SQLSTATE 54000 naming field';
CREATE TYPE llm_econ.run_spec AS(n_params float8,n_tokens float8,sku text,n_gpus int4,gpus_per_node int4,mfu float8,dtype text,peak_flops float8,hbm_bytes float8,intra_node_bytes_per_s float8,inter_node_bytes_per_s float8,tdp_watts float8,n_layers int4,d_model int4,n_heads int4,seq_len int4,micro_batch int4,global_batch int4,tp int4,pp int4,zero_stage int4,recompute text,optimizer text,n_active_params float8,n_experts int4,top_k int4,ep int4,cp int4,vpp int4,n_kv_heads int4,ffn_hidden int4,ffn_act text,vocab_size int4,sequence_parallel boolean,attention text,grad_dtype text,hbm_bytes_per_s float8,gpu_generation text,q_lora_rank int4,kv_lora_rank int4,qk_nope_head_dim int4,qk_rope_head_dim int4,v_head_dim int4,dropout boolean);
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
COMMENT ON COLUMN llm_econ.run_spec.gpu_generation IS
'GPU generation choosing the step-time model''s efficiency curves (from gpu_sku.generation); NULL = unknown, refused by the step-time model';
COMMENT ON COLUMN llm_econ.run_spec.q_lora_rank IS 'multi-head latent attention (DeepSeek-V2/V3): rank of the query down/up projection; NULL = queries projected directly (or plain attention)';
COMMENT ON COLUMN llm_econ.run_spec.kv_lora_rank IS 'multi-head latent attention: rank of the shared key/value latent; NULL = plain attention (with qk_nope_head_dim, qk_rope_head_dim and v_head_dim: all or none)';
COMMENT ON COLUMN llm_econ.run_spec.qk_nope_head_dim IS 'multi-head latent attention: query/key size per head without rotary embedding; NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.qk_rope_head_dim IS 'multi-head latent attention: query/key size per head with rotary embedding (the key part shared by all heads); NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.v_head_dim IS 'multi-head latent attention: value size per head; NULL = plain attention';
COMMENT ON COLUMN llm_econ.run_spec.dropout IS 'whether the model trains with dropout: its masks are stored as activations (Korthikanti et al. 2022); NULL = false (Llama 2/3, DeepSeek-V3 train without)';
CREATE FUNCTION llm_econ.run_spec(n_params float8,n_tokens float8,n_gpus int4,sku text,mfu float8 DEFAULT 0.40,dtype text DEFAULT 'bf16',n_layers int4 DEFAULT NULL,d_model int4 DEFAULT NULL,n_heads int4 DEFAULT NULL,seq_len int4 DEFAULT NULL,micro_batch int4 DEFAULT 1,global_batch int4 DEFAULT NULL,tp int4 DEFAULT 1,pp int4 DEFAULT 1,zero_stage int4 DEFAULT 0,recompute text DEFAULT 'none',optimizer text DEFAULT 'adamw',gpus_per_node int4 DEFAULT NULL,inter_node_gbit_per_s float8 DEFAULT 400,n_active_params float8 DEFAULT NULL,n_experts int4 DEFAULT NULL,top_k int4 DEFAULT NULL,ep int4 DEFAULT 1,cp int4 DEFAULT 1,vpp int4 DEFAULT 1,n_kv_heads int4 DEFAULT NULL,ffn_hidden int4 DEFAULT NULL,ffn_act text DEFAULT 'gelu',vocab_size int4 DEFAULT NULL,sequence_parallel boolean DEFAULT true,attention text DEFAULT 'flash',grad_dtype text DEFAULT 'bf16',q_lora_rank int4 DEFAULT NULL,kv_lora_rank int4 DEFAULT NULL,qk_nope_head_dim int4 DEFAULT NULL,qk_rope_head_dim int4 DEFAULT NULL,v_head_dim int4 DEFAULT NULL,dropout boolean DEFAULT false)
RETURNS llm_econ.run_spec
AS 'MODULE_PATHNAME','le_run_spec'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.run_spec(float8,float8,int4,text,float8,text,int4,int4,int4,int4,int4,int4,int4,int4,int4,text,text,int4,float8,float8,int4,int4,int4,int4,int4,int4,int4,text,int4,boolean,text,text,int4,int4,int4,int4,int4,boolean)IS
'validating run_spec constructor: looks the SKU up by key or alias (any case) and freezes its figures into the value (docs/types.md)';
CREATE FUNCTION llm_econ.training_flops(spec llm_econ.run_spec,attention_flops boolean DEFAULT false)RETURNS float8
AS 'MODULE_PATHNAME','le_training_flops_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.training_flops(llm_econ.run_spec,boolean)IS
'model FLOPs of the run, 6·N_active·D (Kaplan et al. 2020); attention_flops adds attention (PaLM, App. B; docs/functions.md)';
CREATE FUNCTION llm_econ.mfu_time(spec llm_econ.run_spec)RETURNS interval
AS 'MODULE_PATHNAME','le_mfu_time_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.mfu_time(llm_econ.run_spec)IS
'wall-clock time 6·N_active·D / (mfu · n_gpus · peak_flops), as an interval in hours:minutes:seconds';
CREATE FUNCTION llm_econ.gpu_hours(spec llm_econ.run_spec)RETURNS float8
AS 'MODULE_PATHNAME','le_gpu_hours_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.gpu_hours(llm_econ.run_spec)IS
'GPU-hours: wall hours · n_gpus (independent of n_gpus under ideal scaling)';
CREATE FUNCTION llm_econ.energy_kwh(spec llm_econ.run_spec,pue float8 DEFAULT 1.0)RETURNS float8
AS 'MODULE_PATHNAME','le_energy_kwh_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.energy_kwh(llm_econ.run_spec,float8)IS
'energy in kWh: tdp_watts · n_gpus · hours · pue / 1000; pue in [1, 5]; NULL when the spec''s tdp_watts is NULL (the part''s power is not published)';
CREATE FUNCTION llm_econ.achieved_mfu(spec llm_econ.run_spec,wall interval)RETURNS float8
AS 'MODULE_PATHNAME','le_achieved_mfu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.achieved_mfu(llm_econ.run_spec,interval)IS
'the MFU a run of spec that took wall really had: 6ND / (n_gpus · peak_flops · seconds(wall)); months count as 30 days, as in extract(epoch)';
CREATE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec,usd_per_gpu_hour numeric)RETURNS numeric
AS 'MODULE_PATHNAME','le_estimate_cost_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec,numeric)IS
'compute cost in USD: gpu_hours · usd_per_gpu_hour (unrounded numeric)';
CREATE FUNCTION llm_econ.memory_per_gpu(spec llm_econ.run_spec,OUT weights_bytes float8,OUT grads_bytes float8,OUT optimizer_bytes float8,OUT activation_bytes float8,OUT overhead_bytes float8,OUT total_bytes float8,OUT hbm_bytes float8)
AS 'MODULE_PATHNAME','le_memory_per_gpu_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.memory_per_gpu(llm_econ.run_spec)IS
'training memory per GPU in bytes on the heaviest pipeline stage, by part, with the GPU''s HBM (docs/model.md)';
CREATE FUNCTION llm_econ.fits_hbm(spec llm_econ.run_spec)RETURNS boolean
AS 'MODULE_PATHNAME','le_fits_hbm_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.fits_hbm(llm_econ.run_spec)IS
'false if model states and overhead alone exceed HBM; NULL if they fit but activations are unknown; else whether the total fits';
CREATE FUNCTION llm_econ.comm_bytes(spec llm_econ.run_spec)RETURNS float8
AS 'MODULE_PATHNAME','le_comm_bytes_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.comm_bytes(llm_econ.run_spec)IS
'bytes each GPU sends per optimizer step over all collectives (nccl-tests conventions); NULL when a collective depends on an unknown shape or batch';
CREATE FUNCTION llm_econ.comm_breakdown(spec llm_econ.run_spec,OUT parallelism text,OUT collective text,OUT link text,OUT bytes float8,OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME','le_comm_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION llm_econ.comm_breakdown(llm_econ.run_spec)IS
'one row per collective of an optimizer step: parallelism, collective, link, bytes sent per GPU and seconds';
CREATE FUNCTION llm_econ.plan_parallelism(spec llm_econ.run_spec,OUT tp int4,OUT pp int4,OUT dp int4,OUT zero_stage int4,OUT recompute text,OUT total_bytes float8,OUT fits boolean,OUT comm_seconds_per_step float8,OUT step_seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME','le_plan_parallelism_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION llm_econ.plan_parallelism(llm_econ.run_spec)IS
'every valid (tp, pp, dp, zero_stage, recompute) for the spec''s GPUs, with memory per GPU, fit, communication and step time; best first';
CREATE FUNCTION llm_econ._name_key(name text)RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.lower(pg_catalog.translate($1,' -_','')); END;
COMMENT ON FUNCTION llm_econ._name_key(text)IS
'internal: a name as compared: lower case, without spaces, hyphens and underscores';
CREATE FUNCTION llm_econ._check_max_age(max_age interval)RETURNS interval
AS 'MODULE_PATHNAME','le_check_max_age_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_max_age(interval)IS 'internal: returns max_age if it is NULL or an interval >= 0 (no negative part), else raises 22023';
CREATE FUNCTION llm_econ._shift(t timestamptz,by interval)RETURNS timestamptz
AS 'MODULE_PATHNAME','le_shift_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._shift(timestamptz,interval)IS 'internal: t + by, or -infinity/infinity when the sum is outside the timestamp range (no error)';
CREATE FUNCTION llm_econ._latest_prices(sku text,provider text,pricing text,at timestamptz,region text,itype text,max_age interval)
RETURNS TABLE(provider text,region text,instance_type text,pricing text,observed_at timestamptz,usd_per_gpu_hour numeric,gpus_per_instance int4,source_kind text,suspect text,last_seen_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT s.provider,s.region,s.instance_type,s.pricing,o.observed_at,o.usd_per_gpu_hour,o.gpus_per_instance,o.source_kind,o.suspect,o.last_seen_at
FROM llm_econ.price_series s
CROSS JOIN LATERAL(SELECT p.observed_at,p.usd_per_gpu_hour,p.gpus_per_instance,p.source_kind,p.suspect,coalesce(p.last_seen_at,p.observed_at)AS last_seen_at
FROM llm_econ.price_snapshot p
WHERE p.series_id OPERATOR(pg_catalog.=)s.series_id
AND p.observed_at OPERATOR(pg_catalog.<=)$4
ORDER BY p.observed_at DESC
LIMIT 1)o
WHERE s.sku OPERATOR(pg_catalog.=)$1
AND s.provider OPERATOR(pg_catalog.=)$2
AND s.pricing OPERATOR(pg_catalog.=)$3
AND($5 IS NULL OR s.region OPERATOR(pg_catalog.=)ANY(ARRAY[$5,pg_catalog.lower($5),pg_catalog.upper($5)]))
AND($6 IS NULL OR llm_econ._name_key(s.instance_type)OPERATOR(pg_catalog.=)llm_econ._name_key($6))
AND NOT EXISTS(SELECT 1 FROM llm_econ.instance_type i
WHERE i.provider OPERATOR(pg_catalog.=)s.provider
AND pg_catalog.lower(i.instance_type)OPERATOR(pg_catalog.=)pg_catalog.lower(s.instance_type)
AND i.gpus OPERATOR(pg_catalog.<)1::numeric)
AND o.usd_per_gpu_hour IS NOT NULL
AND($7 IS NULL OR o.last_seen_at OPERATOR(pg_catalog.>=)llm_econ._shift($4,OPERATOR(pg_catalog.-)$7));
END;
COMMENT ON FUNCTION llm_econ._latest_prices(text,text,text,timestamptz,text,text,interval)IS
'internal: the price in effect at "at" of every series of a SKU, provider and pricing (region, instance type NULL = any), with its last sighting';
CREATE FUNCTION llm_econ.price_at(sku text,provider text,pricing text DEFAULT 'on_demand',at timestamptz DEFAULT pg_catalog.now(),region text DEFAULT NULL,max_age interval DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME','le_price_at_fn' LANGUAGE C STABLE PARALLEL SAFE COST 100;
COMMENT ON FUNCTION llm_econ.price_at(text,text,text,timestamptz,text,interval)IS
'$/GPU-hour in effect at "at" (not suspect, withdrawn or older than max_age); sku may be an instance type; region NULL = cheapest region; NULL when nothing is known';
CREATE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec,provider text,pricing text DEFAULT 'on_demand',at timestamptz DEFAULT pg_catalog.now(),region text DEFAULT NULL,max_age interval DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME','le_estimate_cost_at_fn' LANGUAGE C STABLE PARALLEL SAFE COST 100;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec,text,text,timestamptz,text,interval)IS
'compute cost in USD at the provider''s price in effect at "at" (see price_at; max_age bounds the observation''s age); an error when no price is known';
CREATE FUNCTION llm_econ._check_pricing(pricing text)RETURNS text
AS 'MODULE_PATHNAME','le_check_pricing_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_pricing(text)IS
'internal: the canonical pricing (on_demand, spot or reserved; any case) or NULL for NULL, else raises 22023';
CREATE FUNCTION llm_econ._sku_key(sku text)RETURNS text
AS 'MODULE_PATHNAME','le_sku_key_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_key(text)IS
'internal: the gpu_sku key a name means (key, alias or instance type; case, spaces, - and _ ignored); 22023 with close matches when unknown';
CREATE FUNCTION llm_econ._sku_itype(sku text)RETURNS text
AS 'MODULE_PATHNAME','le_sku_itype_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_itype(text)IS
'internal: the instance type a name means when it names one (an alias with gpus_per_instance), else NULL';
CREATE FUNCTION llm_econ._check_where(provider text,region text)RETURNS void
AS 'MODULE_PATHNAME','le_check_where_fn' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_where(text,text)IS
'internal: raises 22023 with close matches when provider (or region of that provider) has no price series at all';
CREATE FUNCTION llm_econ.price_twap_coverage(sku text,provider text,pricing text,during tstzrange,region text DEFAULT NULL,max_age interval DEFAULT NULL,spec llm_econ.run_spec DEFAULT NULL,OUT usd_per_gpu_hour numeric,OUT coverage numeric,OUT covered interval)
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog,pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key text;
  itype text;
  pr text;
  prov text;
  run_gpus int4;
  node_gpus int4;
  secs numeric;
BEGIN
  IF sku IS NULL OR provider IS NULL OR pricing IS NULL OR during IS NULL THEN
    RETURN;
  END IF;
  IF pg_catalog.isempty(during) OR pg_catalog.lower_inf(during) OR pg_catalog.upper_inf(during)
     OR NOT pg_catalog.isfinite(pg_catalog.lower(during)) OR NOT pg_catalog.isfinite(pg_catalog.upper(during)) THEN
    RAISE EXCEPTION 'during must be a non-empty range with finite bounds, got %', during
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  key := llm_econ._sku_key(sku);
  PERFORM llm_econ._check_name(provider, 'provider'), llm_econ._check_name(region, 'region');
  itype := llm_econ._sku_itype(sku);
  pr := llm_econ._check_pricing(pricing);
  PERFORM llm_econ._check_max_age(max_age);
  IF NOT (spec IS NULL) THEN   -- given (a row IS NOT NULL only when every field is)
    IF spec.sku IS NULL OR llm_econ._sku_key(spec.sku) <> key THEN
      RAISE EXCEPTION 'spec is a run on %, not on %', coalesce(spec.sku, '(no sku)'), key
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'spec only says which instances the run can use: pass the spec of a run on that SKU.';
    END IF;
    IF spec.n_gpus IS NULL OR spec.n_gpus < 1 OR spec.gpus_per_node IS NULL OR spec.gpus_per_node < 1 THEN
      RAISE EXCEPTION 'spec must have n_gpus and gpus_per_node >= 1' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    run_gpus := spec.n_gpus;
    node_gpus := spec.gpus_per_node;
  END IF;
  prov := pg_catalog.lower(pg_catalog.btrim(price_twap_coverage.provider));
  WITH series AS (
         SELECT s.* FROM llm_econ.price_series s
          WHERE s.sku = key AND s.provider = prov AND s.pricing = pr
            AND (price_twap_coverage.region IS NULL OR s.region = ANY (ARRAY[price_twap_coverage.region, pg_catalog.lower(price_twap_coverage.region), pg_catalog.upper(price_twap_coverage.region)]))
            AND (itype IS NULL OR llm_econ._name_key(s.instance_type) = llm_econ._name_key(itype))
            AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i   -- a slice of a GPU is no whole GPU's price
                             WHERE i.provider = s.provider AND pg_catalog.lower(i.instance_type) = pg_catalog.lower(s.instance_type)
                               AND i.gpus < 1::numeric)),
       obs AS (     -- each series: its observation in effect at the start, and those inside the period;


         SELECT s.series_id, o.observed_at,
                CASE WHEN run_gpus IS NULL OR o.gpus IS NULL OR run_gpus <= o.gpus OR o.gpus >= node_gpus
                     THEN o.usd_per_gpu_hour END AS usd_per_gpu_hour, o.seen
           FROM series s
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at) AS seen, p.gpus_per_instance AS gpus
                   FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at <= pg_catalog.lower(during)
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at), p.gpus_per_instance
                   FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at > pg_catalog.lower(during) AND p.observed_at < pg_catalog.upper(during))) o),
       spans AS (   -- [a, b): when each observation holds (until max_age after it was last seen), clipped to the period
         SELECT greatest(obs.observed_at, pg_catalog.lower(during)) AS a,
                least(coalesce(pg_catalog.lead(obs.observed_at) OVER w, pg_catalog.upper(during)), pg_catalog.upper(during),
                      CASE WHEN max_age IS NULL THEN pg_catalog.upper(during) ELSE llm_econ._shift(obs.seen, max_age) END) AS b,
                obs.usd_per_gpu_hour AS p
           FROM obs WINDOW w AS (PARTITION BY obs.series_id ORDER BY obs.observed_at)),
       cuts AS (SELECT a AS t FROM spans UNION SELECT b FROM spans),
       pieces AS (SELECT t AS a, pg_catalog.lead(t) OVER (ORDER BY t) AS b FROM cuts),
       cheapest AS (
         SELECT x.a, x.b, pg_catalog.min(s.p) AS p
           FROM pieces x JOIN spans s ON s.a <= x.a AND s.b >= x.b AND s.p IS NOT NULL
          WHERE x.b IS NOT NULL AND x.b > x.a
          GROUP BY x.a, x.b)
  SELECT pg_catalog.sum(p * extract(epoch FROM b - a)) / nullif(pg_catalog.sum(extract(epoch FROM b - a)), 0),
         pg_catalog.sum(extract(epoch FROM b - a))
    INTO usd_per_gpu_hour, secs FROM cheapest;
  IF usd_per_gpu_hour IS NULL THEN
    PERFORM llm_econ._check_where(prov, price_twap_coverage.region);
  END IF;
  secs := coalesce(secs, 0);
  covered := pg_catalog.make_interval(secs => secs::float8);

  coverage := CASE WHEN pg_catalog.upper(during) = pg_catalog.lower(during) THEN 0::numeric
                   ELSE pg_catalog.round(secs / extract(epoch FROM pg_catalog.upper(during) - pg_catalog.lower(during)), 6) END;
END $$;
COMMENT ON FUNCTION llm_econ.price_twap_coverage(text,text,text,tstzrange,text,interval,llm_econ.run_spec)IS
'price_twap, the share of the period (0 to 1) some offer was in effect and that time; with spec, only instances a run of it can use';
CREATE FUNCTION llm_econ.price_twap(sku text,provider text,pricing text,during tstzrange,region text DEFAULT NULL,max_age interval DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog,pg_temp
AS $$
BEGIN
  RETURN (SELECT c.usd_per_gpu_hour FROM llm_econ.price_twap_coverage($1, $2, $3, $4, $5, $6) AS c);
END $$;
COMMENT ON FUNCTION llm_econ.price_twap(text,text,text,tstzrange,text,interval)IS
'time-weighted average $/GPU-hour of the cheapest series in effect over the period (region NULL = any); NULL when nothing was in effect';
CREATE FUNCTION llm_econ._check_source_kinds(kinds text[])RETURNS text[]
AS 'MODULE_PATHNAME','le_check_source_kinds_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_source_kinds(text[])IS
'internal: the kinds (catalog, history, seed, manual; any case) canonical, NULL for NULL; else 22023 listing the valid ones';
CREATE FUNCTION llm_econ.cheapest_offers(spec llm_econ.run_spec,at timestamptz DEFAULT pg_catalog.now(),pricing text DEFAULT NULL,max_age interval DEFAULT NULL,source_kinds text[] DEFAULT NULL,include_suspect boolean DEFAULT false)
RETURNS TABLE(provider text,region text,pricing text,usd_per_gpu_hour numeric,observed_at timestamptz,wall_time interval,cost_usd numeric,instance_type text,gpus_per_instance int4,age interval,source_kind text)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT o.provider,o.region,o.pricing,o.usd_per_gpu_hour,o.observed_at,llm_econ.mfu_time($1),llm_econ.estimate_cost($1,o.usd_per_gpu_hour),o.instance_type,o.gpus_per_instance,$2 OPERATOR(pg_catalog.-)LEAST(o.last_seen_at,$2),o.source_kind
FROM(SELECT DISTINCT ON(l.provider,l.region,l.pricing)l.*
FROM(SELECT DISTINCT ps.provider,ps.pricing FROM llm_econ.price_series ps
WHERE ps.sku OPERATOR(pg_catalog.=)($1).sku
AND(llm_econ._check_pricing($3)IS NULL
OR ps.pricing OPERATOR(pg_catalog.=)llm_econ._check_pricing($3)))AS pp
CROSS JOIN LATERAL llm_econ._latest_prices(($1).sku,pp.provider,pp.pricing,$2,NULL,NULL,llm_econ._check_max_age($4))AS l
WHERE($5 IS NULL OR l.source_kind OPERATOR(pg_catalog.=)ANY(llm_econ._check_source_kinds($5)))
AND($6 OR l.suspect IS NULL)
AND(l.gpus_per_instance IS NULL
OR($1).n_gpus OPERATOR(pg_catalog.<=)l.gpus_per_instance
OR l.gpus_per_instance OPERATOR(pg_catalog.>=)($1).gpus_per_node)
ORDER BY l.provider,l.region,l.pricing,l.usd_per_gpu_hour,l.instance_type)AS o
ORDER BY 7,1,2,3;
END;
COMMENT ON FUNCTION llm_econ.cheapest_offers(llm_econ.run_spec,timestamptz,text,interval,text[],boolean)IS
'the offers of the spec''s SKU in effect at "at" that a run of its size can use, the cheapest instance type of each, with wall time, cost and age, cheapest first';
CREATE VIEW llm_econ.price_history WITH(security_invoker = true)AS
SELECT p.observed_at AS "time",p.sku,p.provider,p.region,p.pricing,p.usd_per_gpu_hour,p.instance_type,p.source,p.source_kind,p.gpus_per_instance,p.suspect,CASE WHEN p.usd_per_gpu_hour IS NOT NULL THEN coalesce(p.last_seen_at,p.observed_at)END AS last_seen_at
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
COMMENT ON COLUMN llm_econ.price_history.last_seen_at IS 'the last time a source listed this price unchanged (observed_at when only seen then); NULL for a withdrawal';
GRANT SELECT ON llm_econ.price_history TO PUBLIC;
CREATE FUNCTION llm_econ._skypilot_offers(cloud text,catalog_csv text,OUT accelerator text,OUT variant text,OUT instance_type text,OUT region text,OUT pricing text,OUT usd_per_gpu_hour numeric,OUT gpus_per_instance int4,OUT catalog_rows int4,OUT usd_per_hour numeric,OUT vcpus text,OUT memory_gib text)
RETURNS SETOF record
AS 'MODULE_PATHNAME','le_skypilot_offers' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._skypilot_offers(text,text)IS
'internal: parses one SkyPilot vms.csv into per-GPU offers for import_skypilot_catalog';
CREATE FUNCTION llm_econ._price_changes(obs_at timestamptz[],provider text[],sku text[],region text[],pricing text[],usd numeric[],instance_type text[],gpus int4[],seen timestamptz[])
RETURNS TABLE(observed_at timestamptz,provider text,sku text,region text,pricing text,usd numeric,instance_type text,gpus int4,is_new boolean,fresh boolean,conflict boolean,series_id int8,seen_to timestamptz)
LANGUAGE sql STABLE
BEGIN ATOMIC
WITH cand AS(SELECT c.observed_at,c.provider,c.sku,c.region,c.pricing,c.usd,c.instance_type,c.gpus,true AS is_new,c.ord,llm_econ._series_id(c.sku,c.provider,c.pricing,c.region,c.instance_type)AS series_id,GREATEST(c.observed_at,c.seen)AS seen
FROM ROWS FROM(pg_catalog.unnest($1),pg_catalog.unnest($2),pg_catalog.unnest($3),pg_catalog.unnest($4),pg_catalog.unnest($5),pg_catalog.unnest($6),pg_catalog.unnest($7),pg_catalog.unnest($8),pg_catalog.unnest($9))WITH ORDINALITY
AS c(observed_at,provider,sku,region,pricing,usd,instance_type,gpus,seen,ord)
WHERE $9 IS NULL OR c.ord OPERATOR(pg_catalog.<=)pg_catalog.cardinality($1)),keys AS(SELECT c.provider,c.sku,c.region,c.pricing,c.instance_type,c.series_id,pg_catalog.min(c.observed_at)AS first_at
FROM cand c GROUP BY 1,2,3,4,5,6),stored AS(SELECT o.observed_at,k.provider,k.sku,k.region,k.pricing,o.usd_per_gpu_hour,k.instance_type,NULL::int4,false,NULL::bigint,k.series_id,NULL::timestamptz
FROM keys k
CROSS JOIN LATERAL((SELECT p.observed_at,p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
WHERE p.series_id OPERATOR(pg_catalog.=)k.series_id
AND p.observed_at OPERATOR(pg_catalog.<)k.first_at
ORDER BY p.observed_at DESC LIMIT 1)
UNION ALL
(SELECT p.observed_at,p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
WHERE p.series_id OPERATOR(pg_catalog.=)k.series_id
AND p.observed_at OPERATOR(pg_catalog.>=)k.first_at))AS o),seq AS(SELECT a.*,pg_catalog.lag(a.usd)OVER w AS prev_usd,pg_catalog.bool_or(NOT a.is_new)OVER i AS stored_here,pg_catalog.min(a.usd)OVER i IS DISTINCT FROM pg_catalog.max(a.usd)OVER i
OR(pg_catalog.bool_or(a.usd IS NULL)OVER i AND pg_catalog.bool_or(a.usd IS NOT NULL)OVER i)AS clash_here,pg_catalog.row_number()OVER(PARTITION BY a.series_id,a.observed_at ORDER BY a.is_new,a.ord)AS nth_here
FROM(SELECT * FROM cand UNION ALL SELECT * FROM stored)AS a
WINDOW w AS(PARTITION BY a.series_id ORDER BY a.observed_at,a.is_new,a.ord),i AS(PARTITION BY a.series_id,a.observed_at)),marked AS(SELECT s.*,s.is_new AND NOT s.stored_here AND s.nth_here OPERATOR(pg_catalog.=)1 AND s.usd IS DISTINCT FROM s.prev_usd AS fresh,s.is_new AND s.clash_here AS conflict
FROM seq s),grouped AS(SELECT m.*,pg_catalog.count(*)FILTER(WHERE NOT m.is_new OR m.fresh)
OVER(PARTITION BY m.series_id ORDER BY m.observed_at,m.is_new,m.ord ROWS UNBOUNDED PRECEDING)AS grp
FROM marked m)
SELECT g.observed_at,g.provider,g.sku,g.region,g.pricing,g.usd,g.instance_type,g.gpus,g.is_new,g.fresh,g.conflict,g.series_id,CASE WHEN(NOT g.is_new OR g.fresh)AND g.usd IS NOT NULL
THEN pg_catalog.max(g.seen)FILTER(WHERE g.is_new AND NOT g.conflict)
OVER(PARTITION BY g.series_id,g.grp)END
FROM grouped g;
END;
COMMENT ON FUNCTION llm_econ._price_changes(timestamptz[],text[],text[],text[],text[],numeric[],text[],int4[],timestamptz[])IS
'internal: annotates candidate observations: fresh (a change to store), conflict, seen_to (latest sighting)';
CREATE FUNCTION llm_econ._store_prices(obs_at timestamptz[],provider text[],sku text[],region text[],pricing text[],usd numeric[],instance_type text[],gpus int4[],source text,seen timestamptz[] DEFAULT NULL,OUT inserted bigint,OUT unchanged bigint,OUT withdrawn bigint,OUT seen_ids int8[],OUT seen_at timestamptz[],OUT seen_to timestamptz[])
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp SET jit = off
AS $$
DECLARE
  clash jsonb;   -- the first conflict in time and key order, if any
BEGIN
  PERFORM llm_econ._lock_providers(_store_prices.provider);

  WITH changes AS MATERIALIZED (
         SELECT * FROM llm_econ._price_changes(obs_at, _store_prices.provider, _store_prices.sku,
                                               _store_prices.region, _store_prices.pricing, usd,
                                               _store_prices.instance_type, gpus, _store_prices.seen)),
       bad AS (SELECT * FROM changes c WHERE c.conflict
                ORDER BY c.observed_at, c.provider, c.sku, c.pricing, c.region, c.instance_type LIMIT 1),
       ins AS (
         INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour,
                                              instance_type, gpus_per_instance, source, last_seen_at)
         SELECT c.observed_at, c.provider, c.sku, c.region, c.pricing, c.usd, c.instance_type, c.gpus,
                _store_prices.source, c.seen_to
           FROM changes c
          WHERE c.fresh AND NOT EXISTS (SELECT 1 FROM bad)
          ORDER BY c.sku, c.provider, c.pricing, c.region NULLS FIRST, c.instance_type NULLS FIRST, c.observed_at  -- ids in key, time order on any plan
         RETURNING usd_per_gpu_hour)
  SELECT (SELECT pg_catalog.count(*) FROM ins i WHERE i.usd_per_gpu_hour IS NOT NULL),
         (SELECT pg_catalog.count(*) FROM ins i WHERE i.usd_per_gpu_hour IS NULL),
         (SELECT pg_catalog.count(*) FROM changes c WHERE c.is_new AND c.usd IS NOT NULL),
         (SELECT pg_catalog.to_jsonb(b) FROM bad b),
         (SELECT pg_catalog.array_agg(c.series_id ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND c.seen_to IS NOT NULL),
         (SELECT pg_catalog.array_agg(c.observed_at ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND c.seen_to IS NOT NULL),
         (SELECT pg_catalog.array_agg(c.seen_to ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND c.seen_to IS NOT NULL)
    INTO inserted, withdrawn, unchanged, clash, seen_ids, seen_at, seen_to;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'two different prices for % % % in region % (instance type %) at %',
                    clash->>'provider', clash->>'sku', clash->>'pricing', coalesce(clash->>'region', '(any)'),
                    coalesce(clash->>'instance_type', '(none)'), (clash->>'observed_at')::timestamptz
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'An observation of that series at that instant is already stored, or the input lists it twice.';
  END IF;
  unchanged := unchanged - inserted;
END $$;
COMMENT ON FUNCTION llm_econ._store_prices(timestamptz[],text[],text[],text[],text[],numeric[],text[],int4[],text,timestamptz[])IS
'internal: stores candidate observations as change points (NULL price = withdrawn), as the caller; returns the prices listed again unchanged, for _record_prices';
CREATE FUNCTION llm_econ._recording()RETURNS boolean
AS 'MODULE_PATHNAME','le_recording_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._recording()IS
'internal: true while the price recorder (_record_prices) runs for a role allowed to insert into price_snapshot';
CREATE FUNCTION llm_econ._mark_seen(series_id int8[],observed_at timestamptz[],seen timestamptz[])
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog,pg_temp
SET session_replication_role = replica
AS $$
DECLARE
  n bigint;
BEGIN
  IF NOT llm_econ._recording() THEN
    RAISE EXCEPTION 'only the price recorder marks prices as seen again'
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Import a catalog (import_skypilot_catalog) or a history (load_price_history) that lists the offer.';
  END IF;
  UPDATE llm_econ.price_snapshot p SET last_seen_at = x.seen
    FROM ROWS FROM (pg_catalog.unnest(_mark_seen.series_id), pg_catalog.unnest(_mark_seen.observed_at), pg_catalog.unnest(_mark_seen.seen))
         AS x(series_id, observed_at, seen)
   WHERE p.series_id = x.series_id AND p.observed_at = x.observed_at AND p.usd_per_gpu_hour IS NOT NULL
     AND x.seen > coalesce(p.last_seen_at, p.observed_at);
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._mark_seen(int8[],timestamptz[],timestamptz[])FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._mark_seen(int8[],timestamptz[],timestamptz[])IS
'internal: moves last_seen_at of stored prices forward; the price recorder alone calls it';
CREATE FUNCTION llm_econ._record_prices(obs_at timestamptz[],provider text[],sku text[],region text[],pricing text[],usd numeric[],instance_type text[],gpus int4[],source text,kind text,seen timestamptz[] DEFAULT NULL,OUT inserted bigint,OUT unchanged bigint,OUT withdrawn bigint)
AS 'MODULE_PATHNAME','le_record_prices_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._record_prices(timestamptz[],text[],text[],text[],text[],numeric[],text[],int4[],text,text,timestamptz[])IS
'internal: _store_prices as the caller, its rows labelled source_kind kind (catalog, history), and the prices seen again marked';
CREATE FUNCTION llm_econ._usd(v numeric)RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.round($1,GREATEST(pg_catalog.scale(pg_catalog.trim_scale(pg_catalog.round($1,10))),2)); END;
COMMENT ON FUNCTION llm_econ._usd(numeric)IS 'internal: a USD amount rounded to 10 decimals, shown with at least 2';
CREATE FUNCTION llm_econ._sku_find(name text)RETURNS text
AS 'MODULE_PATHNAME','le_sku_find_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_find(text)IS 'internal: the gpu_sku key of a name or alias (case, spaces, - and _ ignored; exact spelling first, keys before aliases), or NULL';
CREATE FUNCTION llm_econ._known_gpus(instance_type text)RETURNS int4
AS 'MODULE_PATHNAME','le_known_gpus_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._known_gpus(text)IS 'internal: GPUs per machine of a machine type per gpu_sku_alias (exact spelling first), or NULL when unknown';
CREATE FUNCTION llm_econ._sku_map(names text[],OUT name text,OUT sku text,OUT gpus_per_instance int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME','le_sku_map_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_map(text[])IS
'internal: for each name that means a SKU, its gpu_sku key and the GPUs per machine gpu_sku_alias knows (NULL: unknown)';
CREATE FUNCTION llm_econ._flag_suspect()RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_WHEN <> 'AFTER'
     OR TG_LEVEL <> 'STATEMENT' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'llm_econ._flag_suspect() fires only as the AFTER INSERT statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;




  WITH mine AS MATERIALIZED (
         SELECT n.id, n.provider, n.sku, n.pricing, n.series_id, n.observed_at, n.usd_per_gpu_hour,
                n.instance_type, n.gpus_per_instance, n.region, n.source,
                CASE WHEN EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                   WHERE i.provider OPERATOR(pg_catalog.=) n.provider
                                     AND pg_catalog.lower(i.instance_type) OPERATOR(pg_catalog.=) pg_catalog.lower(n.instance_type))
                     THEN n.instance_type END AS peer_itype
           FROM new_rows n WHERE n.source_kind = 'catalog' AND n.usd_per_gpu_hour IS NOT NULL),
       peers AS MATERIALIZED (
         SELECT g.provider, g.sku, g.pricing, g.observed_at, g.peer_itype, x.n, x.med
           FROM (SELECT DISTINCT m.provider, m.sku, m.pricing, m.observed_at, m.peer_itype FROM mine m) AS g
          CROSS JOIN LATERAL (
                SELECT pg_catalog.count(*) AS n, pg_catalog.percentile_disc(0.5::float8) WITHIN GROUP (ORDER BY l.usd_per_gpu_hour) AS med
                  FROM llm_econ._latest_prices(g.sku, g.provider, g.pricing, g.observed_at, NULL, g.peer_itype, NULL) l) AS x),
       checked AS MATERIALIZED (
         SELECT m.id,
                CASE


                  WHEN m.instance_type IS NOT NULL AND pg_catalog.current_setting('llm_econ.import_suspects', true) <> ''
                       AND pg_catalog.current_setting('llm_econ.import_suspects', true)::jsonb ? m.instance_type
                    THEN pg_catalog.current_setting('llm_econ.import_suspects', true)::jsonb ->> m.instance_type



                  WHEN m.instance_type IS NOT NULL AND m.gpus_per_instance IS NOT NULL
                       AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                        WHERE i.provider = m.provider AND pg_catalog.lower(i.instance_type) = pg_catalog.lower(m.instance_type))
                       AND m.gpus_per_instance <> ALL (ARRAY[1, 2, 4, 8, 16])
                       AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                        WHERE i.sku = m.sku AND i.gpus = m.gpus_per_instance::numeric)
                       AND NOT EXISTS (SELECT 1 FROM llm_econ.gpu_sku g
                                        WHERE g.sku = m.sku AND g.gpus_per_node = m.gpus_per_instance)
                    THEN pg_catalog.format('%s lists %s GPUs per machine; no known %s machine holds that many (1, 2, 4, 8 or 16, or a known machine type''s count)',
                                m.instance_type, m.gpus_per_instance, m.sku)
                  WHEN peer.n >= 3::int8 AND (m.usd_per_gpu_hour > 3::numeric * peer.med OR m.usd_per_gpu_hour * 3::numeric < peer.med)
                    THEN pg_catalog.format('%s x the median %s of the %s %s offers of %s at that instant',
                                pg_catalog.round(m.usd_per_gpu_hour / peer.med, 2), peer.med, peer.n, m.provider, coalesce(m.peer_itype, m.sku))
                  WHEN prev.usd_per_gpu_hour IS NOT NULL
                       AND (m.usd_per_gpu_hour > 3::numeric * prev.usd_per_gpu_hour OR m.usd_per_gpu_hour * 3::numeric < prev.usd_per_gpu_hour)
                    THEN pg_catalog.format('%s x the series'' previous price %s (%s)',
                                pg_catalog.round(m.usd_per_gpu_hour / prev.usd_per_gpu_hour, 2), prev.usd_per_gpu_hour, prev.observed_at)




                  WHEN other.usd_per_gpu_hour > 0::numeric AND other.last_seen_at >= m.observed_at
                       AND (m.usd_per_gpu_hour > 1.5 * other.usd_per_gpu_hour OR m.usd_per_gpu_hour * 1.5 < other.usd_per_gpu_hour)
                    THEN pg_catalog.format('%s x the price %s that %s lists for the same offer at that instant (since %s, seen again %s)',
                                pg_catalog.round(m.usd_per_gpu_hour / other.usd_per_gpu_hour, 2), other.usd_per_gpu_hour,
                                other.source, other.observed_at, other.last_seen_at)
                END AS why
           FROM mine m
           JOIN peers peer ON peer.provider = m.provider AND peer.sku = m.sku AND peer.pricing = m.pricing
                          AND peer.observed_at = m.observed_at AND peer.peer_itype IS NOT DISTINCT FROM m.peer_itype
           LEFT JOIN LATERAL (
                 SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = m.series_id AND p.observed_at < m.observed_at
                  ORDER BY p.observed_at DESC LIMIT 1) AS prev ON true
           LEFT JOIN LATERAL (
                 SELECT o.source, o.observed_at, o.last_seen_at, o.usd_per_gpu_hour FROM llm_econ.price_snapshot o
                  WHERE m.instance_type IS NOT NULL AND o.series_id = m.series_id   -- the same offer
                    AND o.source_kind IN ('catalog', 'history') AND o.source <> m.source
                    AND o.observed_at <= m.observed_at
                  ORDER BY o.observed_at DESC LIMIT 1) AS other ON true)
  UPDATE llm_econ.price_snapshot p SET suspect = c.why
    FROM checked c WHERE p.id = c.id AND c.why IS NOT NULL;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._flag_suspect()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._flag_suspect()IS
'trigger: marks a new catalog price suspect when its GPU count fits no known machine or its price is far from comparable prices (docs/prices.md)';
CREATE TRIGGER price_snapshot_suspect AFTER INSERT ON llm_econ.price_snapshot
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._flag_suspect();
CREATE FUNCTION llm_econ._skypilot_clouds()RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT ARRAY['aws','azure','cudo','do','fluidstack','gcp','hyperbolic','ibm','kubernetes','lambda','nebius','oci','paperspace','runpod','scp','vast','vsphere'];
END;
COMMENT ON FUNCTION llm_econ._skypilot_clouds()IS 'internal: the cloud names import_skypilot_catalog accepts';
CREATE FUNCTION llm_econ._reraise(sqlstate text,message text,detail text,hint text,context text)RETURNS void
AS 'MODULE_PATHNAME','le_reraise_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._reraise(text,text,text,text,text)IS
'internal: raises again an error a user-facing PL/pgSQL function caught, without the extension''s own CONTEXT lines';
CREATE FUNCTION llm_econ._skypilot_cloud_shape(cloud text,OUT name_re text,OUT region_re text)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
SELECT v.n,v.r FROM(VALUES
('aws','^[a-z][a-z0-9-]*\.[a-z0-9-]+$','^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+$'),('gcp','^[a-z][a-z0-9]*-[a-z0-9]+(-[a-z0-9]+)*$','^[a-z]+-[a-z]+[0-9]+$'),('azure','^(Standard|Basic)_[A-Za-z0-9_-]+$','^[a-z]+[0-9]?$'),('lambda','^gpu_[0-9]+x_[a-z0-9_]+$','^[a-z]+-[a-z]+-[0-9]+$'),('runpod','^[0-9]+x_[A-Za-z0-9_-]+_(SECURE|COMMUNITY)$','^[A-Z]{2}(-[A-Z]+-[0-9]+)?$'))AS v(c,n,r)
WHERE v.c OPERATOR(pg_catalog.=)$1;
END;
COMMENT ON FUNCTION llm_econ._skypilot_cloud_shape(text)IS
'internal: the patterns a cloud''s SkyPilot instance types and regions follow (NULL for other clouds)';
CREATE FUNCTION llm_econ._sku_of_name(provider text,instance_type text,accelerator text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
SELECT CASE
WHEN $2 OPERATOR(pg_catalog.~*)'h100[ _-]?nvl'
OR($1 OPERATOR(pg_catalog.=)'azure' AND $2 OPERATOR(pg_catalog.~*)'^standard_nc[0-9]+ad[a-z]*_h100_v5$')
THEN 'H100-NVL'
WHEN $2 OPERATOR(pg_catalog.~*)'h200[ _-]?nvl' THEN 'H200-NVL'
WHEN $3 OPERATOR(pg_catalog.~*)'^a100' AND $2 OPERATOR(pg_catalog.~*)'40gb' AND $2 OPERATOR(pg_catalog.~*)'pcie' THEN 'A100-40GB-PCIe'
WHEN $3 OPERATOR(pg_catalog.~*)'^a100' AND $2 OPERATOR(pg_catalog.~*)'40gb' THEN 'A100-40GB'
WHEN $3 OPERATOR(pg_catalog.~*)'^a100' AND $2 OPERATOR(pg_catalog.~*)'80gb' AND $2 OPERATOR(pg_catalog.~*)'pcie' THEN 'A100-80GB-PCIe'
WHEN $3 OPERATOR(pg_catalog.~*)'^a100' AND $2 OPERATOR(pg_catalog.~*)'80gb' THEN 'A100-80GB'
END;
END;
COMMENT ON FUNCTION llm_econ._sku_of_name(text,text,text)IS
'internal: the gpu_sku key an instance type''s name says (H100 NVL, A100 80GB, PCIe, ...), which wins over a generic accelerator name';
CREATE FUNCTION llm_econ.import_skypilot_catalog(cloud text,catalog_csv text,observed_at timestamptz,withdraw_missing boolean DEFAULT NULL,OUT inserted bigint,OUT unchanged bigint,OUT skipped bigint,OUT withdrawn bigint,OUT corrected bigint,OUT unverified bigint,OUT suspect bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  c text := pg_catalog.lower(pg_catalog.btrim(cloud));
  src text;
  shape record;
  cv record;
  fix record;
  next_at timestamptz;
  have_fix boolean := false;
  rp record;
  e_state text;     -- an error, raised again without the internal query text (_reraise)
  e_msg text;
  e_detail text;
  e_hint text;
  e_context text;
BEGIN
  IF cloud IS NULL OR catalog_csv IS NULL OR observed_at IS NULL THEN
    RAISE EXCEPTION 'cloud, catalog_csv and observed_at must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'import_skypilot_catalog', pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  IF NOT (c = ANY (llm_econ._skypilot_clouds())) THEN
    RAISE EXCEPTION 'unknown cloud "%"', cloud USING ERRCODE = 'invalid_parameter_value',
      DETAIL = 'Known clouds: ' || pg_catalog.array_to_string(llm_econ._skypilot_clouds(), ', ') || '.';
  END IF;
  IF NOT pg_catalog.isfinite(observed_at) OR observed_at > pg_catalog.now() + interval '1 day' THEN
    RAISE EXCEPTION 'observed_at must be at most now() + 1 day, got %', observed_at
      USING ERRCODE = 'invalid_parameter_value', HINT = 'A catalog cannot be observed in the future.';
  END IF;

  IF catalog_csv ~ '[^[:space:]]' AND catalog_csv !~ '[\r\n][[:space:]]*[^[:space:]]' THEN
    RAISE EXCEPTION 'the % catalog has a header and no rows', c
      USING ERRCODE = 'bad_copy_file_format',
            HINT = 'Imported, an empty catalog would withdraw every offer of the provider; check the download.';
  END IF;
  src := 'SkyPilot catalog vms.csv (' || c || ')';
  SELECT * INTO shape FROM llm_econ._skypilot_cloud_shape(c);


  PERFORM llm_econ._lock_providers(ARRAY[c]);






  WITH raw AS MATERIALIZED (SELECT o.* FROM llm_econ._skypilot_offers(c, catalog_csv) AS o),
       names AS (   -- each distinct name is looked up once
         SELECT DISTINCT v.n FROM raw r,
                LATERAL (VALUES (r.instance_type), (r.accelerator),
                                (r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END)) AS v(n)
          WHERE v.n IS NOT NULL),

       map AS MATERIALIZED (SELECT m.name AS n, m.sku
                              FROM llm_econ._sku_map(ARRAY(SELECT names.n FROM names)) AS m),
       parsed AS MATERIALIZED (
         SELECT r.*, coalesce(it.sku, llm_econ._sku_of_name(c, r.instance_type, r.accelerator), mi.sku, mv.sku, ma.sku) AS sku,

                coalesce(al.sku, mv.sku, ma.sku) AS catalog_sku, it.gpus AS known_gpus
           FROM raw r
           LEFT JOIN llm_econ.instance_type it
                  ON it.provider = c AND pg_catalog.lower(it.instance_type) = pg_catalog.lower(r.instance_type)
           LEFT JOIN llm_econ.gpu_sku_alias al ON pg_catalog.lower(al.alias) = pg_catalog.lower(r.instance_type)
           LEFT JOIN map mi ON mi.n = r.instance_type
           LEFT JOIN map mv ON mv.n = r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END
           LEFT JOIN map ma ON ma.n = r.accelerator),
       priced AS (
         SELECT p.sku, p.region, p.pricing, p.instance_type,
                CASE WHEN p.known_gpus IS NULL THEN p.gpus_per_instance
                     WHEN p.known_gpus >= 1::numeric THEN p.known_gpus::int4 END AS gpus,
                CASE WHEN p.known_gpus IS NULL OR p.known_gpus = p.gpus_per_instance::numeric THEN p.usd_per_gpu_hour
                     ELSE pg_catalog.round(p.usd_per_hour / p.known_gpus, 10) END AS usd
           FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL),
       offers AS (   -- the cheapest offer per series
         SELECT DISTINCT ON (o.sku, o.region, o.pricing, o.instance_type)
                o.sku, o.region, o.pricing, llm_econ._usd(o.usd) AS usd, o.instance_type, o.gpus,
                llm_econ._series_id(o.sku, c, o.pricing, o.region, o.instance_type) AS series_id
           FROM priced o
          ORDER BY o.sku, o.region, o.pricing, o.instance_type, o.usd),
       in_effect AS (   -- the series of this cloud's catalogs in effect at observed_at
         SELECT s.sku, s.region, s.pricing, s.instance_type, s.series_id
           FROM llm_econ.price_series s
          CROSS JOIN LATERAL (
                SELECT p.usd_per_gpu_hour, p.source FROM llm_econ.price_snapshot p
                 WHERE p.series_id = s.series_id AND p.observed_at <= import_skypilot_catalog.observed_at
                 ORDER BY p.observed_at DESC LIMIT 1) AS cur
          WHERE s.provider = c AND cur.usd_per_gpu_hour IS NOT NULL AND cur.source = src),
       gone AS (     -- those this file does not list
         SELECT e.sku, e.region, e.pricing, NULL::numeric AS usd, e.instance_type, NULL::int4 AS gpus, e.series_id
           FROM in_effect e WHERE NOT EXISTS (SELECT 1 FROM offers x WHERE x.series_id = e.series_id)),
       cand AS (SELECT * FROM offers UNION ALL SELECT * FROM gone),


       sibling AS (
         SELECT DISTINCT ON (u.instance_type) u.instance_type,
                pg_catalog.format('%s lists %s GPUs per machine; its sibling %s, with the same %s vCPUs and %s GiB, has %s',
                                  u.instance_type, u.gpus_per_instance, k.instance_type, u.vcpus, u.memory_gib,
                                  pg_catalog.trim_scale(k.known_gpus)) AS why
           FROM parsed u
           JOIN parsed k ON k.sku = u.sku AND k.vcpus = u.vcpus AND k.memory_gib = u.memory_gib AND k.known_gpus IS NOT NULL
          WHERE u.known_gpus IS NULL AND u.instance_type IS NOT NULL AND u.gpus_per_instance IS NOT NULL
            AND k.known_gpus <> u.gpus_per_instance::numeric
          ORDER BY u.instance_type, k.instance_type),
       bad_names AS (SELECT DISTINCT r.instance_type AS n FROM raw r
                      WHERE r.instance_type IS NOT NULL AND r.instance_type !~ shape.name_re),
       bad_regions AS (SELECT DISTINCT r.region AS n FROM raw r
                        WHERE r.region IS NOT NULL AND r.region !~ shape.region_re)
  SELECT pg_catalog.array_agg(import_skypilot_catalog.observed_at) AS t, pg_catalog.array_agg(c) AS pr, pg_catalog.array_agg(x.sku) AS sk,
         pg_catalog.array_agg(x.region) AS rg, pg_catalog.array_agg(x.pricing) AS pc, pg_catalog.array_agg(x.usd) AS us,
         pg_catalog.array_agg(x.instance_type) AS it, pg_catalog.array_agg(x.gpus) AS gp,
         (SELECT pg_catalog.jsonb_object_agg(b.instance_type, b.why) FROM sibling b) AS sibling_suspects,
         (SELECT pg_catalog.count(*) FROM in_effect) AS n_in_effect,
         (SELECT pg_catalog.count(*) FROM gone) AS n_gone,
         (SELECT pg_catalog.count(DISTINCT r.instance_type) FROM raw r) AS n_names,
         (SELECT pg_catalog.count(DISTINCT r.region) FROM raw r) AS n_regions,
         (SELECT pg_catalog.count(*) FROM bad_names) AS n_bad_names,
         (SELECT pg_catalog.count(*) FROM bad_regions) AS n_bad_regions,
         (SELECT pg_catalog.string_agg(b.n, ', ' ORDER BY b.n) FROM (SELECT * FROM bad_names ORDER BY 1 LIMIT 5) AS b) AS bad_names,
         (SELECT pg_catalog.string_agg(b.n, ', ' ORDER BY b.n) FROM (SELECT * FROM bad_regions ORDER BY 1 LIMIT 5) AS b) AS bad_regions,
         (SELECT coalesce(pg_catalog.sum(p.catalog_rows) FILTER (WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL), 0) FROM parsed p) AS skipped,
         (SELECT pg_catalog.string_agg(pg_catalog.format('%s row(s) of %s: %s', w.n, w.names, w.why), '; ' ORDER BY w.why) FROM (
            SELECT pg_catalog.sum(q.catalog_rows) AS n, pg_catalog.string_agg(DISTINCT coalesce(q.accelerator, '?'), ', ') AS names, q.why
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
         (SELECT pg_catalog.count(*) FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL
                                          AND (p.known_gpus <> p.gpus_per_instance::numeric OR p.sku <> p.catalog_sku)) AS corrected,
         (SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('%s lists %s x %s, known %s x %s', p.instance_type, p.gpus_per_instance,
                                                                  p.catalog_sku, pg_catalog.trim_scale(coalesce(p.known_gpus, p.gpus_per_instance)), p.sku), '; ')
            FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL
                            AND (p.known_gpus <> p.gpus_per_instance::numeric OR p.sku <> p.catalog_sku)) AS corrected_why,
         (SELECT pg_catalog.count(DISTINCT p.instance_type) FROM parsed p
           WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.instance_type IS NOT NULL AND p.known_gpus IS NULL) AS unverified,
         (SELECT pg_catalog.string_agg(DISTINCT p.instance_type, ', ') FROM parsed p
           WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.instance_type IS NOT NULL AND p.known_gpus IS NULL) AS unverified_why
    INTO cv FROM cand x;




  IF (cv.n_names > 0 AND cv.n_bad_names * 2 > cv.n_names)
     OR (cv.n_names = 0 AND cv.n_bad_regions * 2 > cv.n_regions) THEN
    RAISE EXCEPTION 'the catalog does not fit cloud "%": % of % instance types and % of % regions are not named as % names them',
                    c, cv.n_bad_names, cv.n_names, cv.n_bad_regions, cv.n_regions, c
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('Instance types that do not fit %s: %s. Regions that do not fit %s: %s.',
                                       shape.name_re, coalesce(cv.bad_names, 'none'), shape.region_re, coalesce(cv.bad_regions, 'none')),
            HINT = 'Is this another cloud''s vms.csv? Import it with that cloud''s name.';
  END IF;
  IF cv.n_bad_regions > 0 THEN
    RAISE NOTICE '% of % regions are not named as % names them: %', cv.n_bad_regions, cv.n_regions, c, cv.bad_regions
      USING HINT = 'Imported as they are; check that the file is a ' || c || ' catalog.';
  END IF;
  IF cv.n_gone > 0 AND withdraw_missing IS NULL AND (cv.n_in_effect - cv.n_gone) * 2 < cv.n_in_effect THEN
    RAISE EXCEPTION 'the % catalog lists % of the % offers in effect; withdrawing the other % needs evidence',
                    c, cv.n_in_effect - cv.n_gone, cv.n_in_effect, cv.n_gone
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A file listing fewer than half of the provider''s offers in effect is more likely cut off than a real withdrawal.',
            HINT = 'Pass withdraw_missing => true to withdraw the offers the file does not list, or withdraw_missing => false to keep them.';
  END IF;
  IF cv.n_gone > 0 AND withdraw_missing IS NOT DISTINCT FROM false THEN
    SELECT pg_catalog.array_agg(x.t) AS t, pg_catalog.array_agg(x.pr) AS pr, pg_catalog.array_agg(x.sk) AS sk, pg_catalog.array_agg(x.rg) AS rg,
           pg_catalog.array_agg(x.pc) AS pc, pg_catalog.array_agg(x.us) AS us, pg_catalog.array_agg(x.it) AS it, pg_catalog.array_agg(x.gp) AS gp,
           cv.skipped, cv.skip_why, cv.corrected, cv.corrected_why, cv.unverified, cv.unverified_why, cv.sibling_suspects
      INTO cv
      FROM ROWS FROM (pg_catalog.unnest(cv.t), pg_catalog.unnest(cv.pr), pg_catalog.unnest(cv.sk), pg_catalog.unnest(cv.rg),
                      pg_catalog.unnest(cv.pc), pg_catalog.unnest(cv.us), pg_catalog.unnest(cv.it), pg_catalog.unnest(cv.gp))
           AS x(t, pr, sk, rg, pc, us, it, gp)
     WHERE x.us IS NOT NULL;
  END IF;




  SELECT pg_catalog.min(i.observed_at) INTO next_at FROM llm_econ.price_import i
   WHERE i.provider = c AND i.source = src AND i.observed_at > import_skypilot_catalog.observed_at;
  IF next_at IS NOT NULL AND cv.sk IS NOT NULL THEN
    SELECT pg_catalog.array_agg(next_at) AS t, pg_catalog.array_agg(c) AS pr, pg_catalog.array_agg(x.sk) AS sk, pg_catalog.array_agg(x.rg) AS rg,
           pg_catalog.array_agg(x.pc) AS pc, pg_catalog.array_agg(st.usd_per_gpu_hour) AS us, pg_catalog.array_agg(x.it) AS it,
           pg_catalog.array_agg(st.gpus_per_instance) AS gp
      INTO fix
      FROM ROWS FROM (pg_catalog.unnest(cv.sk), pg_catalog.unnest(cv.rg), pg_catalog.unnest(cv.pc), pg_catalog.unnest(cv.us), pg_catalog.unnest(cv.it)) AS x(sk, rg, pc, us, it)
      LEFT JOIN LATERAL (
            SELECT p.observed_at, p.usd_per_gpu_hour, p.gpus_per_instance FROM llm_econ.price_snapshot p
             WHERE p.series_id = llm_econ._series_id(x.sk, c, x.pc, x.rg, x.it) AND p.observed_at <= next_at
             ORDER BY p.observed_at DESC LIMIT 1) AS st ON true
     WHERE (st.observed_at IS NULL OR st.observed_at < next_at)
       AND x.us IS DISTINCT FROM st.usd_per_gpu_hour;
    have_fix := fix.t IS NOT NULL;
  END IF;



  PERFORM pg_catalog.set_config('llm_econ.import_suspects', coalesce(cv.sibling_suspects::text, ''), true);
  SELECT * INTO rp FROM llm_econ._record_prices(cv.t, cv.pr, cv.sk, cv.rg, cv.pc, cv.us, cv.it, cv.gp, src, 'catalog');
  inserted := coalesce(rp.inserted, 0);
  unchanged := coalesce(rp.unchanged, 0);
  withdrawn := coalesce(rp.withdrawn, 0);
  IF have_fix THEN
    SELECT * INTO rp FROM llm_econ._record_prices(fix.t, fix.pr, fix.sk, fix.rg, fix.pc, fix.us, fix.it, fix.gp, src, 'catalog');
    inserted := inserted + coalesce(rp.inserted, 0);
    withdrawn := withdrawn + coalesce(rp.withdrawn, 0);
  END IF;
  PERFORM pg_catalog.set_config('llm_econ.import_suspects', '', true);
  INSERT INTO llm_econ.price_import (provider, source, observed_at)
  VALUES (c, src, import_skypilot_catalog.observed_at) ON CONFLICT DO NOTHING;
  SELECT pg_catalog.count(*) INTO suspect FROM llm_econ.price_snapshot p
   WHERE p.provider = c AND p.source = src AND p.observed_at IN (import_skypilot_catalog.observed_at, next_at)
     AND p.suspect IS NOT NULL;
  skipped := cv.skipped;
  corrected := cv.corrected;
  unverified := cv.unverified;

  IF skipped > 0 THEN
    RAISE NOTICE 'skipped % catalog rows', skipped USING DETAIL = cv.skip_why || '.';
  END IF;
  IF corrected > 0 THEN
    RAISE NOTICE 'corrected the GPU or GPU count of % catalog offers', corrected
      USING DETAIL = cv.corrected_why || '.', HINT = 'The SKU and count in llm_econ.instance_type win over the catalog''s; per-GPU prices use them.';
  END IF;
  IF unverified > 0 THEN
    RAISE NOTICE '% machine types are not in llm_econ.instance_type and were priced with the catalog''s count', unverified
      USING DETAIL = 'Those machine types: ' || pg_catalog.left(cv.unverified_why, 500) || '.',
            HINT = 'A count no known machine of the GPU has is stored as suspect; add the machine types to llm_econ.instance_type with their source.';
  END IF;
  IF suspect > 0 THEN
    RAISE NOTICE '% prices are suspect: a GPU count no known machine of the GPU has, or more than 3x from the same provider''s other offers of the SKU or from the series'' previous price', suspect
      USING HINT = 'They are stored with price_snapshot.suspect set; cheapest_offers leaves them out unless include_suspect => true.';
  END IF;
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT, e_detail = PG_EXCEPTION_DETAIL,
                          e_hint = PG_EXCEPTION_HINT, e_context = PG_EXCEPTION_CONTEXT;
  PERFORM llm_econ._reraise(e_state, e_msg, e_detail, e_hint, e_context);
END $$;
COMMENT ON FUNCTION llm_econ.import_skypilot_catalog(text,text,timestamptz,boolean)IS
'imports one SkyPilot vms.csv (any cloud) as one dated snapshot of per-GPU prices: a row only where a series'' price changes; checks and withdrawals: docs/prices.md';
CREATE TABLE llm_econ.price_history_staging(id bigserial PRIMARY KEY,observed_at text,valid_to text,cloud text,region text,instance_type text,accelerator text,accelerator_count text,price_on_demand_usd_per_hour text,spot_price_usd_per_hour text,price_on_demand_per_gpu_usd_per_hour text,spot_price_per_gpu_usd_per_hour text,staged_by text NOT NULL DEFAULT CURRENT_USER
CHECK(staged_by OPERATOR(pg_catalog.=)CURRENT_USER));
COMMENT ON TABLE llm_econ.price_history_staging IS
'staging for load_price_history(), one row per role and line, each role seeing only its own; roles \copy into price_history_stage';
COMMENT ON COLUMN llm_econ.price_history_staging.staged_by IS 'the role that staged the row (always the inserting role); load_price_history loads and removes only the rows of the role calling it';
ALTER TABLE llm_econ.price_history_staging ENABLE ROW LEVEL SECURITY;
CREATE POLICY price_history_staging_writer ON llm_econ.price_history_staging
USING(staged_by OPERATOR(pg_catalog.=)CURRENT_USER)WITH CHECK(staged_by OPERATOR(pg_catalog.=)CURRENT_USER);
CREATE VIEW llm_econ.price_history_stage WITH(security_invoker = true)AS
SELECT NULL::text AS observed_at,NULL::text AS valid_to,NULL::text AS cloud,NULL::text AS region,NULL::text AS instance_type,NULL::text AS accelerator,NULL::text AS accelerator_count,NULL::text AS price_on_demand_usd_per_hour,NULL::text AS spot_price_usd_per_hour,NULL::text AS price_on_demand_per_gpu_usd_per_hour,NULL::text AS spot_price_per_gpu_usd_per_hour
WHERE false;
COMMENT ON VIEW llm_econ.price_history_stage IS
'where roles \copy a price history for load_price_history() (docs/prices.md); rows go into price_history_staging; reading it gives none';
COMMENT ON COLUMN llm_econ.price_history_stage.observed_at IS 'as price_history_staging.observed_at';
COMMENT ON COLUMN llm_econ.price_history_stage.valid_to IS 'as price_history_staging.valid_to';
COMMENT ON COLUMN llm_econ.price_history_stage.cloud IS 'as price_history_staging.cloud';
COMMENT ON COLUMN llm_econ.price_history_stage.region IS 'as price_history_staging.region';
COMMENT ON COLUMN llm_econ.price_history_stage.instance_type IS 'as price_history_staging.instance_type';
COMMENT ON COLUMN llm_econ.price_history_stage.accelerator IS 'as price_history_staging.accelerator';
COMMENT ON COLUMN llm_econ.price_history_stage.accelerator_count IS 'as price_history_staging.accelerator_count';
COMMENT ON COLUMN llm_econ.price_history_stage.price_on_demand_usd_per_hour IS 'as price_history_staging.price_on_demand_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.spot_price_usd_per_hour IS 'as price_history_staging.spot_price_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.price_on_demand_per_gpu_usd_per_hour IS 'as price_history_staging.price_on_demand_per_gpu_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.spot_price_per_gpu_usd_per_hour IS 'as price_history_staging.spot_price_per_gpu_usd_per_hour';
CREATE FUNCTION llm_econ._price_history_stage_row()RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.price_history_staging
         (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
          price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour,
          spot_price_per_gpu_usd_per_hour)
  VALUES (NEW.observed_at, NEW.valid_to, NEW.cloud, NEW.region, NEW.instance_type, NEW.accelerator,
          NEW.accelerator_count, NEW.price_on_demand_usd_per_hour, NEW.spot_price_usd_per_hour,
          NEW.price_on_demand_per_gpu_usd_per_hour, NEW.spot_price_per_gpu_usd_per_hour);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_history_stage_row()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_history_stage_row()IS
'internal: INSTEAD OF INSERT trigger of price_history_stage: the row into price_history_staging as the inserting role';
CREATE TRIGGER price_history_stage_row INSTEAD OF INSERT ON llm_econ.price_history_stage
FOR EACH ROW EXECUTE FUNCTION llm_econ._price_history_stage_row();
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
CREATE FUNCTION llm_econ._staged_history()
RETURNS TABLE(line bigint,observed_at timestamptz,valid_to timestamptz,cloud text,region text,instance_type text,n int4,od numeric,spot numeric,sku text,problem text)
LANGUAGE sql STABLE
BEGIN ATOMIC
WITH names AS(SELECT s.instance_type AS name FROM llm_econ.price_history_staging s
WHERE s.staged_by OPERATOR(pg_catalog.=)CURRENT_USER
UNION SELECT s.accelerator FROM llm_econ.price_history_staging s
WHERE s.staged_by OPERATOR(pg_catalog.=)CURRENT_USER),map AS(SELECT m.name,m.sku FROM llm_econ._sku_map(ARRAY(SELECT names.name FROM names))AS m)
SELECT pg_catalog.row_number()OVER(ORDER BY s.id)+ 1,s.observed_at::timestamptz,s.valid_to::timestamptz,s.cloud,s.region,s.instance_type,s.accelerator_count::numeric::int4,llm_econ._usd(coalesce(nullif(s.price_on_demand_per_gpu_usd_per_hour,'')::numeric,nullif(s.price_on_demand_usd_per_hour,'')::numeric / s.accelerator_count::numeric)),llm_econ._usd(coalesce(nullif(s.spot_price_per_gpu_usd_per_hour,'')::numeric,nullif(s.spot_price_usd_per_hour,'')::numeric / s.accelerator_count::numeric)),coalesce(mi.sku,ma.sku),CASE
WHEN mi.sku IS NOT NULL AND ma.sku IS NOT NULL AND mi.sku <> ma.sku
THEN pg_catalog.format('accelerator "%s" is not what "%s" carries ("%s")',s.accelerator,s.instance_type,mi.sku)
WHEN mi.sku IS NULL AND ma.sku IS NULL
THEN pg_catalog.format('unknown accelerator "%s"',s.accelerator)
END
FROM llm_econ.price_history_staging s
LEFT JOIN map mi ON mi.name = s.instance_type
LEFT JOIN map ma ON ma.name = s.accelerator
WHERE s.staged_by OPERATOR(pg_catalog.=)CURRENT_USER;
END;
COMMENT ON FUNCTION llm_econ._staged_history()IS 'internal: the rows the current role staged in price_history_staging, typed, with line numbers and SKUs';
CREATE FUNCTION llm_econ._load_price_history(source text,on_mismatch text,quiet boolean,OUT inserted bigint,OUT unchanged bigint,OUT skipped bigint,OUT withdrawn bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  num constant text := '^[0-9]+(\.[0-9]+)?$';
  ts constant text := '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)$';
  bad record;
  names text;
  me text;
BEGIN
  IF source IS NULL OR pg_catalog.btrim(source) = '' THEN
    RAISE EXCEPTION 'source must name where the history comes from' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF on_mismatch IS NULL OR on_mismatch NOT IN ('error', 'skip') THEN
    RAISE EXCEPTION 'on_mismatch must be one of error, skip, got "%"', on_mismatch USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'load_price_history', pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  me := CURRENT_USER;   -- only the rows this role staged: two writers never load each other's


  SELECT * INTO bad FROM (
    SELECT pg_catalog.row_number() OVER (ORDER BY s.id) + 1 AS line, s.*,
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

    RAISE EXCEPTION '%', bad.problem
      USING ERRCODE = 'bad_copy_file_format',
            DETAIL = pg_catalog.format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L, valid_to %L, cloud %L, region %L, instance_type %L, accelerator %L, accelerator_count %L and prices %L/%L/%L/%L.',
                            bad.line, bad.observed_at, bad.valid_to, bad.cloud, bad.region, bad.instance_type, bad.accelerator,
                            bad.accelerator_count, bad.price_on_demand_usd_per_hour, bad.spot_price_usd_per_hour,
                            bad.price_on_demand_per_gpu_usd_per_hour, bad.spot_price_per_gpu_usd_per_hour);
  END IF;




  BEGIN
    SELECT * INTO bad FROM (
      SELECT h.*, CASE WHEN h.valid_to <= h.observed_at THEN 1
                       WHEN h.observed_at > pg_catalog.now() + interval '1 day' THEN 2 END AS why
        FROM llm_econ._staged_history() AS h) AS v
     WHERE v.why IS NOT NULL ORDER BY v.why, v.line LIMIT 1;
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    FOR bad IN SELECT pg_catalog.row_number() OVER (ORDER BY s.id) + 1 AS line, s.observed_at, s.valid_to
                 FROM llm_econ.price_history_staging s WHERE s.staged_by = me ORDER BY s.id LOOP
      BEGIN
        PERFORM bad.observed_at::timestamptz, bad.valid_to::timestamptz;
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION '%', SQLERRM USING ERRCODE = 'bad_copy_file_format',
          DETAIL = pg_catalog.format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L and valid_to %L.',
                          bad.line, bad.observed_at, bad.valid_to);
      END;
    END LOOP;
    RAISE;
  END;
  IF bad.why = 1 THEN
    RAISE EXCEPTION 'valid_to % is not after observed_at %', bad.valid_to, bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('This is line %s of the staged history (line 1 is the CSV header).', bad.line);
  ELSIF bad.why = 2 THEN
    RAISE EXCEPTION 'observed_at % is later than now() + 1 day', bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
            HINT = 'A price cannot be observed in the future.';
  END IF;
  IF on_mismatch = 'error' THEN
    SELECT * INTO bad FROM llm_econ._staged_history() h
     WHERE h.problem IS NOT NULL AND h.problem NOT LIKE 'unknown%' ORDER BY h.line LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION '%', bad.problem USING ERRCODE = 'invalid_parameter_value',
        DETAIL = pg_catalog.format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
        HINT = 'The instance type decides the GPU; on_mismatch => ''skip'' counts such lines as skipped.';
    END IF;
  END IF;



  WITH staged AS MATERIALIZED (SELECT * FROM llm_econ._staged_history()),
       h AS (
         SELECT x.*, pg_catalog.lead(x.observed_at) OVER (PARTITION BY x.cloud, x.region, x.instance_type ORDER BY x.observed_at) AS next_at,
                (SELECT pg_catalog.max(y.valid_to) FROM staged y) AS coverage_end
           FROM staged x WHERE x.problem IS NULL),
       cand AS (   -- a line's price held, so was seen, until its valid_to
         SELECT h.observed_at AS t, h.cloud, h.sku, h.region, k.pricing,
                nullif(CASE k.pricing WHEN 'on_demand' THEN h.od ELSE h.spot END, 0) AS usd,
                h.instance_type, h.n, h.valid_to AS seen
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
         UNION ALL
         SELECT h.valid_to, h.cloud, h.sku, h.region, k.pricing, NULL, h.instance_type, h.n, h.valid_to
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
          WHERE (h.next_at IS NULL AND h.valid_to < h.coverage_end) OR h.valid_to < h.next_at),
       arr AS (SELECT pg_catalog.array_agg(t) AS t, pg_catalog.array_agg(cloud) AS pr, pg_catalog.array_agg(sku) AS sk, pg_catalog.array_agg(region) AS rg,
                      pg_catalog.array_agg(pricing) AS pc, pg_catalog.array_agg(usd) AS us, pg_catalog.array_agg(instance_type) AS it, pg_catalog.array_agg(n) AS gp,
                      pg_catalog.array_agg(seen) AS sn
                 FROM (SELECT * FROM cand ORDER BY t) AS o),
       stats AS (SELECT pg_catalog.count(*) AS n, pg_catalog.string_agg(DISTINCT x.problem, '; ') AS names
                   FROM staged x WHERE x.problem IS NOT NULL)
  SELECT rp.inserted, rp.unchanged, rp.withdrawn, stats.n, stats.names
    INTO inserted, unchanged, withdrawn, skipped, names
    FROM arr, stats, LATERAL llm_econ._record_prices(arr.t, arr.pr, arr.sk, arr.rg, arr.pc, arr.us, arr.it, arr.gp, source, 'history', arr.sn) AS rp;
  IF skipped > 0 AND NOT quiet THEN
    RAISE NOTICE 'skipped % lines', skipped USING DETAIL = 'Why: ' || pg_catalog.left(names, 500) || '.';
  END IF;

  DELETE FROM llm_econ.price_history_staging s WHERE s.staged_by = me;
  inserted := coalesce(inserted, 0);
  unchanged := coalesce(unchanged, 0);
  withdrawn := coalesce(withdrawn, 0);
END $$;
COMMENT ON FUNCTION llm_econ._load_price_history(text,text,boolean)IS
'internal: load_price_history with the install script''s quiet mode';
CREATE FUNCTION llm_econ.load_price_history(source text DEFAULT 'price_history_staging',on_mismatch text DEFAULT 'error',OUT inserted bigint,OUT unchanged bigint,OUT skipped bigint,OUT withdrawn bigint)
LANGUAGE sql VOLATILE
BEGIN ATOMIC SELECT * FROM llm_econ._load_price_history($1,$2,false); END;
COMMENT ON FUNCTION llm_econ.load_price_history(text,text)IS
'loads the rows the current role staged in price_history_staging as change points, then removes them; all or nothing (docs/prices.md)';
CREATE FUNCTION llm_econ.carbon_kg(spec llm_econ.run_spec,kg_co2_per_kwh float8,pue float8 DEFAULT 1.0)
RETURNS float8
AS 'MODULE_PATHNAME','le_carbon_kg_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.carbon_kg(llm_econ.run_spec,float8,float8)IS
'operational emissions, kg CO2e: energy_kwh(spec, pue) · kg_co2_per_kwh (in [0, 2]); NULL when the spec''s tdp_watts is NULL';
CREATE FUNCTION llm_econ.checkpoint_plan(spec llm_econ.run_spec,checkpoint_write interval,mtbf_per_node interval,OUT "interval" interval,OUT overhead_fraction float8,OUT p_interrupted float8,OUT expected_interruptions float8,OUT cluster_mtbf interval,OUT nodes int4)
AS 'MODULE_PATHNAME','le_checkpoint_plan_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.checkpoint_plan(llm_econ.run_spec,interval,interval)IS
'checkpoint interval sqrt(2 · write · cluster MTBF) under independent node failures (Young 1974; Daly 2006), its overhead and the run''s interruptions (docs/functions.md)';
CREATE FUNCTION llm_econ.cost_breakdown(spec llm_econ.run_spec,usd_per_gpu_hour numeric,checkpoint_every interval DEFAULT '30 minutes',checkpoint_write interval DEFAULT '90 seconds',checkpoints_kept int4 DEFAULT 10,checkpoint_gb float8 DEFAULT NULL,dataset_gb float8 DEFAULT NULL,storage_usd_per_gb_month numeric DEFAULT 0.02,storage_months float8 DEFAULT 1,egress_gb float8 DEFAULT 0,egress_usd_per_gb numeric DEFAULT 0.08,owned boolean DEFAULT false,usd_per_kwh numeric DEFAULT 0.10,pue float8 DEFAULT 1.0,spot_buffer numeric DEFAULT 0.10,OUT component text,OUT usd numeric,OUT assumption text)
RETURNS SETOF record
AS 'MODULE_PATHNAME','le_cost_breakdown_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 7;
COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec,numeric,interval,interval,int4,float8,float8,numeric,float8,float8,numeric,boolean,numeric,float8,numeric)IS
'the bill of a run, one row per component (compute, checkpoint, storage, egress, energy, spot_buffer, total), unrounded USD, each with the numbers it used (docs/functions.md)';
CREATE FUNCTION llm_econ.tco_per_gpu_hour(sku text,years float8,utilization float8,usd_per_kwh numeric,pue float8)
RETURNS numeric
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog,pg_temp
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

  purchase := (coalesce(price_low, price_high) OPERATOR(pg_catalog.+) coalesce(price_high, price_low))
              OPERATOR(pg_catalog./) 2;

  used_hours := (years::numeric OPERATOR(pg_catalog.*) 8766) OPERATOR(pg_catalog.*) utilization::numeric;

  IF watts IS NULL THEN
    IF usd_per_kwh OPERATOR(pg_catalog.=) 0 THEN
      RETURN purchase OPERATOR(pg_catalog./) used_hours;
    END IF;
    RETURN NULL;
  END IF;

  kw := (watts::numeric OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) pue::numeric;
  RETURN (purchase OPERATOR(pg_catalog./) used_hours)
         OPERATOR(pg_catalog.+) (kw OPERATOR(pg_catalog.*) usd_per_kwh);
END $$;
COMMENT ON FUNCTION llm_econ.tco_per_gpu_hour(text,float8,float8,numeric,float8)IS
'cost of owning one GPU per used GPU-hour, USD: list-price midpoint / (years · 8766 h · utilization) + energy; the GPU alone (docs/functions.md)';
CREATE FUNCTION llm_econ._is_tenant_member(tenant text)RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT CASE WHEN EXISTS(SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=)$1)
THEN pg_catalog.pg_has_role($1,'MEMBER')ELSE false END;
END;
COMMENT ON FUNCTION llm_econ._is_tenant_member(text)IS
'internal: whether the current user is a member of the tenant role (false when no such role exists); the row-level security test';
CREATE TABLE llm_econ.run_plan(run_id text NOT NULL CHECK(run_id OPERATOR(pg_catalog.<>)''),spec llm_econ.run_spec NOT NULL,provider text NOT NULL CHECK(provider OPERATOR(pg_catalog.~)'^[a-z0-9][a-z0-9._-]*$'),pricing text NOT NULL DEFAULT 'on_demand'
CHECK(pricing OPERATOR(pg_catalog.=)ANY(ARRAY['on_demand','spot','reserved'])),region text CHECK(region OPERATOR(pg_catalog.<>)''),planned_at timestamptz NOT NULL DEFAULT pg_catalog.now()CHECK(pg_catalog.isfinite(planned_at)),usd_per_gpu_hour numeric CHECK(usd_per_gpu_hour >= 0::numeric AND usd_per_gpu_hour < 'Infinity'),planned_gpu_hours float8,planned_usd numeric,tenant text NOT NULL DEFAULT CURRENT_USER,team text,notes text,CONSTRAINT run_plan_pkey PRIMARY KEY(tenant,run_id));
COMMENT ON TABLE llm_econ.run_plan IS
'planned runs, keyed by (tenant, run_id): the spec and the price in effect at planned_at, GPU-hours and USD frozen when planned';
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
CREATE FUNCTION llm_econ._freeze_plan()RETURNS trigger
LANGUAGE plpgsql STABLE SET search_path = pg_catalog,pg_temp
AS $$
BEGIN
  IF NEW.spec IS NULL THEN
    RAISE EXCEPTION 'spec must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._check_spec(NEW.spec);             -- a hand-built spec is checked like the constructor's
  IF TG_OP = 'INSERT' AND NEW.planned_usd IS NOT NULL AND NEW.planned_gpu_hours IS NOT NULL
     AND NEW.usd_per_gpu_hour IS NOT NULL THEN

    IF NOT (NEW.planned_gpu_hours >= 0::float8 AND NEW.planned_gpu_hours < 'Infinity'::float8) THEN
      RAISE EXCEPTION 'planned_gpu_hours must be in [0, Infinity), got %', NEW.planned_gpu_hours
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT (NEW.planned_usd >= 0::numeric AND NEW.planned_usd < 'Infinity'::numeric) THEN
      RAISE EXCEPTION 'planned_usd must be in [0, Infinity), got %', NEW.planned_usd
        USING ERRCODE = 'invalid_parameter_value';
    END IF;

    IF pg_catalog.abs(NEW.planned_gpu_hours - llm_econ.gpu_hours(NEW.spec)) > 1e-6::float8 * greatest(1::float8, NEW.planned_gpu_hours)
       OR pg_catalog.abs(NEW.planned_usd - llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour))
          > 0.000001::numeric * greatest(1::numeric, NEW.planned_usd) THEN
      RAISE EXCEPTION 'planned_gpu_hours and planned_usd must be what the spec and usd_per_gpu_hour give'
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = pg_catalog.format('Got %s GPU-hours and %s USD; the spec gives %s GPU-hours and %s USD.',
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


      NEW.planned_usd := OLD.planned_usd;
      NEW.planned_gpu_hours := OLD.planned_gpu_hours;
      RETURN NEW;
    END IF;


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
COMMENT ON FUNCTION llm_econ._freeze_plan()IS
'trigger: validates a plan and freezes its price, GPU-hours and USD; an UPDATE of what or where it runs re-prices it';
CREATE TRIGGER run_plan_freeze BEFORE INSERT OR UPDATE ON llm_econ.run_plan
FOR EACH ROW EXECUTE FUNCTION llm_econ._freeze_plan();
CREATE TABLE llm_econ.spend(id bigserial PRIMARY KEY,tenant text NOT NULL DEFAULT CURRENT_USER,charge_period_start timestamptz NOT NULL,charge_period_end timestamptz NOT NULL,billing_period_start timestamptz,billing_period_end timestamptz,provider text NOT NULL,service_name text,service_category text,charge_category text,charge_description text,pricing_category text,pricing text CHECK(pricing OPERATOR(pg_catalog.=)ANY(ARRAY['on_demand','spot','reserved'])),region text,sku text REFERENCES llm_econ.gpu_sku(sku)ON UPDATE CASCADE,instance_type text,gpus_per_instance int4 CHECK(gpus_per_instance > 0),consumed_quantity numeric,consumed_unit text,gpu_hours numeric CHECK(gpu_hours > '-Infinity' AND gpu_hours < 'Infinity'),billed_cost numeric NOT NULL CHECK(billed_cost > '-Infinity' AND billed_cost < 'Infinity'),effective_cost numeric NOT NULL CHECK(effective_cost > '-Infinity' AND effective_cost < 'Infinity'),list_cost numeric,billing_currency text,run_id text,resource_id text,tags jsonb,record jsonb NOT NULL,source text,line int4,row_hash text COLLATE "C" NOT NULL,occurrence int4 NOT NULL DEFAULT 1,imported_at timestamptz NOT NULL DEFAULT pg_catalog.now(),CHECK(charge_period_end >= charge_period_start),CONSTRAINT spend_one_line UNIQUE(row_hash,tenant,occurrence),billing_account_id text,delivery text);
CREATE INDEX spend_run_id ON llm_econ.spend(run_id)WHERE run_id IS NOT NULL;
CREATE INDEX spend_charge_period ON llm_econ.spend(charge_period_start);
CREATE INDEX spend_billing_period ON llm_econ.spend(billing_period_start);
COMMENT ON TABLE llm_econ.spend IS
'billed lines (FOCUS cost-and-usage rows), every line kept: typed columns, the other columns in record; GPU lines carry sku and gpu_hours';
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
COMMENT ON COLUMN llm_econ.spend.gpu_hours IS
'ConsumedQuantity (hours) x GPUs per instance, for lines that bill a GPU machine or GPU (docs/finance.md); negative on corrections';
COMMENT ON COLUMN llm_econ.spend.billed_cost IS 'FOCUS BilledCost (cash), exact';
COMMENT ON COLUMN llm_econ.spend.effective_cost IS 'FOCUS EffectiveCost (amortised), exact';
COMMENT ON COLUMN llm_econ.spend.list_cost IS 'FOCUS ListCost';
COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency (ISO 4217, stored upper case); views convert with fx_rate, NULL counts as USD';
COMMENT ON COLUMN llm_econ.spend.run_id IS
'the run: the Tags key that names it (setting llm_econ.run_tag_keys; docs/finance.md), else the x_run_id column; NULL when empty';
COMMENT ON COLUMN llm_econ.spend.resource_id IS 'FOCUS ResourceId';
COMMENT ON COLUMN llm_econ.spend.tags IS 'FOCUS Tags (JSON object)';
COMMENT ON COLUMN llm_econ.spend.record IS
'the line''s other columns that have a value: header name -> text as written';
COMMENT ON COLUMN llm_econ.spend.source IS 'the import''s source label';
COMMENT ON COLUMN llm_econ.spend.line IS 'line of the file the row came from';
COMMENT ON COLUMN llm_econ.spend.row_hash IS
'the charge identity: md5 of the FOCUS fields as values, not of the raw line; with occurrence, what makes re-imports idempotent';
COMMENT ON COLUMN llm_econ.spend.occurrence IS 'which copy of the same charge within the file (1, 2, ...)';
COMMENT ON COLUMN llm_econ.spend.imported_at IS 'when the line was imported';
COMMENT ON COLUMN llm_econ.spend.billing_account_id IS 'FOCUS BillingAccountId: with provider and billing period, what a restated delivery replaces';
COMMENT ON COLUMN llm_econ.spend.delivery IS 'the import''s delivery label: a later delivery of the same billing period and account replaces this one''s lines (NULL: added to, never replacing)';
ALTER TABLE llm_econ.run_plan ENABLE ROW LEVEL SECURITY;
ALTER TABLE llm_econ.spend ENABLE ROW LEVEL SECURITY;
CREATE POLICY run_plan_tenant ON llm_econ.run_plan
USING(llm_econ._is_tenant_member(tenant))WITH CHECK(llm_econ._is_tenant_member(tenant));
CREATE POLICY spend_tenant ON llm_econ.spend
USING(llm_econ._is_tenant_member(tenant))WITH CHECK(llm_econ._is_tenant_member(tenant));
SELECT pg_catalog.pg_extension_config_dump('llm_econ.run_plan','');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend','');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend_id_seq','');
CREATE FUNCTION llm_econ._csv_header(csv text,what text)RETURNS text[]
AS 'MODULE_PATHNAME','le_csv_header_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._csv_header(text,text)IS 'internal: the column names of a CSV text''s header line (22023 when empty or duplicated)';
CREATE FUNCTION llm_econ._csv_records(csv text,what text,OUT line int4,OUT record jsonb)RETURNS SETOF record
AS 'MODULE_PATHNAME','le_csv_records_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._csv_records(text,text)IS
'internal: the data lines of a CSV text as (line, jsonb by header name); 22023 naming the line of malformed CSV';
CREATE TABLE llm_econ.fx_rate(currency text NOT NULL CHECK(currency OPERATOR(pg_catalog.~)'^[A-Z]{3}$'),valid_from timestamptz NOT NULL CHECK(pg_catalog.isfinite(valid_from)),usd_per_unit numeric NOT NULL CHECK(usd_per_unit > 0::numeric AND usd_per_unit < 'Infinity'),source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),CONSTRAINT fx_rate_pkey PRIMARY KEY(currency,valid_from));
COMMENT ON TABLE llm_econ.fx_rate IS
'exchange rates into USD, each in effect from valid_from until the currency''s next row; USD needs none';
COMMENT ON COLUMN llm_econ.fx_rate.currency IS 'ISO 4217 code, stored upper case (eur is EUR)';
COMMENT ON COLUMN llm_econ.fx_rate.valid_from IS 'when the rate takes effect';
COMMENT ON COLUMN llm_econ.fx_rate.usd_per_unit IS 'USD per one unit of the currency (EUR 1.0823 = 1 EUR buys 1.0823 USD), exact numeric';
COMMENT ON COLUMN llm_econ.fx_rate.source IS 'where the rate comes from (the provider''s invoice rate, a central bank reference rate, ...)';
SELECT pg_catalog.pg_extension_config_dump('llm_econ.fx_rate','');
GRANT SELECT ON llm_econ.fx_rate TO PUBLIC;
CREATE FUNCTION llm_econ._fx_rate_upper()RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog,pg_temp
AS $$
BEGIN
  NEW.currency := pg_catalog.upper(NEW.currency);
  RETURN NEW;
END $$;
COMMENT ON FUNCTION llm_econ._fx_rate_upper()IS 'internal: trigger upper-casing fx_rate.currency (eur is EUR)';
REVOKE EXECUTE ON FUNCTION llm_econ._fx_rate_upper()FROM PUBLIC;
CREATE TRIGGER fx_rate_currency BEFORE INSERT OR UPDATE OF currency ON llm_econ.fx_rate
FOR EACH ROW EXECUTE FUNCTION llm_econ._fx_rate_upper();
CREATE FUNCTION llm_econ._usd_per_unit(currency text,at timestamptz)RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT CASE WHEN $1 IS NULL OR pg_catalog.upper($1)OPERATOR(pg_catalog.=)'USD' THEN 1::numeric
ELSE(SELECT f.usd_per_unit FROM llm_econ.fx_rate f
WHERE f.currency OPERATOR(pg_catalog.=)pg_catalog.upper($1)AND f.valid_from OPERATOR(pg_catalog.<=)$2
ORDER BY f.valid_from DESC LIMIT 1)END;
END;
COMMENT ON FUNCTION llm_econ._usd_per_unit(text,timestamptz)IS
'internal: USD per unit of a currency (any case) at an instant: 1 for USD or none, else the fx_rate in effect, or NULL';
CREATE TYPE llm_econ._focus_line AS(line int4,record jsonb,charge_period_start timestamptz,charge_period_end timestamptz,billing_period_start timestamptz,billing_period_end timestamptz,provider text,service_name text,service_category text,charge_category text,charge_description text,pricing_category text,pricing text,region text,sku text,instance_type text,gpus_per_instance int4,gpu_type text,consumed_quantity numeric,consumed_unit text,gpu_hours numeric,billed_cost numeric,effective_cost numeric,list_cost numeric,billing_currency text,run_id text,resource_id text,tags jsonb,billing_account_id text,row_hash text,occurrence int4,staged_id int8,last_line int4);
COMMENT ON TYPE llm_econ._focus_line IS
'internal: a FOCUS line typed for llm_econ.spend, as _focus_lines and _focus_staged_lines return it';
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
COMMENT ON COLUMN llm_econ._focus_line.run_id IS 'the run: the Tags key of setting llm_econ.run_tag_keys (case, _, - and a leading user: ignored), x_run_id column, Tags x_run_id; trimmed, NULL when empty';
COMMENT ON COLUMN llm_econ._focus_line.resource_id IS 'ResourceId, else AllocatedResourceId';
COMMENT ON COLUMN llm_econ._focus_line.tags IS 'Tags as a JSON object';
COMMENT ON COLUMN llm_econ._focus_line.billing_account_id IS 'BillingAccountId';
COMMENT ON COLUMN llm_econ._focus_line.row_hash IS 'the charge identity (md5 hex)';
COMMENT ON COLUMN llm_econ._focus_line.occurrence IS 'the k-th line of the call (a text, or one batch of staged lines) with this charge identity; _focus_store adds the copies of earlier batches';
COMMENT ON COLUMN llm_econ._focus_line.staged_id IS 'the focus_staging id of the record''s last line (NULL from _focus_lines)';
COMMENT ON COLUMN llm_econ._focus_line.last_line IS 'the file line of the record''s last line (NULL from _focus_lines)';
CREATE FUNCTION llm_econ._focus_lines(csv text,what text)RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME','le_focus_lines_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_lines(text,text)IS
'internal: the data lines of a FOCUS CSV text typed for llm_econ.spend; 22023 naming the line and column of the first bad line';
CREATE TABLE llm_econ.focus_staging(id bigserial PRIMARY KEY,writer text NOT NULL DEFAULT CURRENT_USER,line text);
CREATE INDEX focus_staging_writer ON llm_econ.focus_staging(writer,id);
COMMENT ON TABLE llm_econ.focus_staging IS
'staging for load_focus(): one line of a FOCUS file per row, verbatim; each writer sees and loads only its own; roles \copy into focus_stage';
COMMENT ON COLUMN llm_econ.focus_staging.id IS 'load order';
COMMENT ON COLUMN llm_econ.focus_staging.writer IS 'the role that staged the line (load_focus reads the current role''s lines only)';
COMMENT ON COLUMN llm_econ.focus_staging.line IS 'one physical line of the FOCUS CSV file, the header first';
ALTER TABLE llm_econ.focus_staging ENABLE ROW LEVEL SECURITY;
CREATE POLICY focus_staging_writer ON llm_econ.focus_staging
USING(writer OPERATOR(pg_catalog.=)CURRENT_USER)WITH CHECK(writer OPERATOR(pg_catalog.=)CURRENT_USER);
CREATE VIEW llm_econ.focus_stage WITH(security_invoker = true)AS SELECT NULL::text AS line WHERE false;
COMMENT ON VIEW llm_econ.focus_stage IS
'where roles \copy a FOCUS file for load_focus() (docs/finance.md); lines go into focus_staging; reading it gives none';
COMMENT ON COLUMN llm_econ.focus_stage.line IS 'one physical line of the FOCUS CSV file, the header first';
CREATE FUNCTION llm_econ._focus_stage_line()RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.focus_staging (line) VALUES (NEW.line);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._focus_stage_line()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._focus_stage_line()IS
'internal: INSTEAD OF INSERT trigger of focus_stage: the line into focus_staging as the inserting role';
CREATE TRIGGER focus_stage_line INSTEAD OF INSERT ON llm_econ.focus_stage
FOR EACH ROW EXECUTE FUNCTION llm_econ._focus_stage_line();
CREATE FUNCTION llm_econ._focus_staged_lines(what text,after_id int8,last_id int8,first_line int4)
RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME','le_focus_staged_lines_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_lines(text,int8,int8,int4)IS
'internal: one batch of the current role''s staged FOCUS records, after_id to the one holding last_id (file line first_line on), typed as _focus_lines types a text';
CREATE FUNCTION llm_econ._focus_charge_key(record jsonb)RETURNS text
AS 'MODULE_PATHNAME','le_focus_charge_key_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._focus_charge_key(jsonb)IS
'internal: the charge identity (row_hash) of a whole original line given as jsonb, as an import computes it';
CREATE FUNCTION llm_econ._focus_refusal(fn text,who text,replacing boolean,staged boolean)RETURNS text[]
LANGUAGE sql STABLE
BEGIN ATOMIC
SELECT CASE
WHEN NOT pg_catalog.has_table_privilege('llm_econ.spend','INSERT')
THEN ARRAY[pg_catalog.format('%s needs INSERT on llm_econ.spend',$1),pg_catalog.format('GRANT INSERT ON llm_econ.spend TO %I;',CURRENT_USER)]
WHEN NOT pg_catalog.has_sequence_privilege('llm_econ.spend_id_seq','USAGE')
THEN ARRAY[pg_catalog.format('%s needs USAGE on sequence llm_econ.spend_id_seq',$1),pg_catalog.format('GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO %I;',CURRENT_USER)]
WHEN $3 AND NOT(pg_catalog.has_table_privilege('llm_econ.spend','SELECT')AND pg_catalog.has_table_privilege('llm_econ.spend','DELETE'))
THEN ARRAY[pg_catalog.format('%s in mode replace replaces what was stored for the statements it loads and needs SELECT and DELETE on llm_econ.spend (mode append only adds)',$1),pg_catalog.format('GRANT SELECT, DELETE ON llm_econ.spend TO %I;',CURRENT_USER)]
WHEN $4 AND NOT(pg_catalog.has_table_privilege('llm_econ.focus_staging','SELECT')AND pg_catalog.has_table_privilege('llm_econ.focus_staging','DELETE'))
THEN ARRAY[pg_catalog.format('%s needs SELECT and DELETE on llm_econ.focus_staging',$1),pg_catalog.format('GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO %I;',CURRENT_USER)]
WHEN pg_catalog.row_security_active('llm_econ.spend')AND NOT llm_econ._is_tenant_member($2)
THEN ARRAY[pg_catalog.format('%s: role %I may not write the lines of tenant %I (not a member of that role)',$1,CURRENT_USER,$2),pg_catalog.format('Pass the tenant of a role %I is a member of, or GRANT %I TO %I;',CURRENT_USER,$2,CURRENT_USER)]
END;
END;
COMMENT ON FUNCTION llm_econ._focus_refusal(text,text,boolean,boolean)IS
'internal: why the current role may not import FOCUS lines for a tenant, and the GRANT that would let it; NULL when it may';
CREATE FUNCTION llm_econ._focus_admit(fn text,who text,mode text,delivery text,staged boolean)RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog,pg_temp
AS $$
DECLARE
  refusal text[];
BEGIN
  IF mode IS NULL OR mode NOT IN ('replace', 'append') THEN
    RAISE EXCEPTION 'mode must be replace or append, got %', coalesce(pg_catalog.quote_literal(mode), 'NULL')
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'replace: the file is the whole statement of each provider, billing account and billing period it covers; append: adds the charges not stored yet.';
  END IF;
  refusal := llm_econ._focus_refusal(fn, who, mode = 'replace', staged);
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF delivery IS NOT NULL AND pg_catalog.btrim(delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
END $$;
COMMENT ON FUNCTION llm_econ._focus_admit(text,text,text,text,boolean)IS
'internal: import_focus''s and load_focus''s checks of mode, rights (42501, the GRANT in the HINT) and delivery label';
CREATE FUNCTION llm_econ._focus_store(who text,source text,delivery text,counting boolean DEFAULT false,mode text DEFAULT 'replace',OUT inserted bigint,OUT skipped bigint,OUT replaced bigint,OUT replaced_billed_usd numeric,OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key record;
  n bigint;
  b numeric;
  e numeric;
BEGIN
  PERFORM llm_econ._focus_temp();
  replaced := 0;
  INSERT INTO llm_econ_focus_keys AS k (provider, billing_account_id, billing_period_start, lock_key, fresh)
  SELECT d.provider, d.billing_account_id, d.billing_period_start,
         pg_catalog.hashtextextended(pg_catalog.concat_ws(E'\x1f', who, d.provider, d.billing_account_id,
                                     pg_catalog.date_part('epoch', d.billing_period_start)), 32), true
    FROM (SELECT DISTINCT f.provider, f.billing_account_id, f.billing_period_start FROM llm_econ_focus_lines f) AS d
  ON CONFLICT (provider, billing_account_id, billing_period_start) DO NOTHING;

  PERFORM pg_catalog.pg_advisory_xact_lock(k.lock_key)
     FROM (SELECT k.lock_key FROM llm_econ_focus_keys k WHERE k.fresh ORDER BY k.lock_key OFFSET 0) AS k;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  IF _focus_store.mode = 'replace' THEN




    FOR key IN SELECT k.provider, k.billing_account_id, k.billing_period_start
                 FROM llm_econ_focus_keys k WHERE k.fresh ORDER BY k.lock_key LOOP
      EXECUTE $q$
        WITH gone AS (
               DELETE FROM llm_econ.spend s
                WHERE s.tenant OPERATOR(pg_catalog.=) $1 AND s.provider OPERATOR(pg_catalog.=) $2
                  AND s.billing_account_id IS NOT DISTINCT FROM $3
                  AND (s.billing_period_start OPERATOR(pg_catalog.=) $4 OR ($4 IS NULL AND s.billing_period_start IS NULL))
               RETURNING s.billed_cost, s.effective_cost, s.billing_currency, s.charge_period_start),

             usd AS (SELECT g.billed_cost OPERATOR(pg_catalog.*) r.rate AS b, g.effective_cost OPERATOR(pg_catalog.*) r.rate AS e
                       FROM gone g
                      CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(g.billing_currency, g.charge_period_start) AS rate) AS r)
        SELECT pg_catalog.count(*),
               CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.count(u.b) THEN coalesce(pg_catalog.sum(u.b), 0) END,
               CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.count(u.e) THEN coalesce(pg_catalog.sum(u.e), 0) END
          FROM usd u $q$
        INTO n, b, e USING who, key.provider, key.billing_account_id, key.billing_period_start;
      replaced := replaced + n;
      replaced_billed_usd := replaced_billed_usd + b;          -- NULL once any replaced line has no rate
      replaced_effective_usd := replaced_effective_usd + e;
    END LOOP;
  END IF;
  UPDATE llm_econ_focus_keys k SET fresh = false WHERE k.fresh;
  EXECUTE pg_catalog.format($q$
    INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
           billing_period_end, provider, service_name, service_category, charge_category, charge_description,
           pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
           consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
           resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
    SELECT $1, f.charge_period_start, f.charge_period_end, f.billing_period_start, f.billing_period_end,
           f.provider, f.service_name, f.service_category, f.charge_category, f.charge_description,
           f.pricing_category, f.pricing, f.region,
           coalesce(f.sku, CASE WHEN f.gpu_type IS NOT NULL THEN llm_econ._sku_find(f.gpu_type) END),
           f.instance_type, f.gpus_per_instance, f.consumed_quantity, f.consumed_unit, f.gpu_hours,
           f.billed_cost, f.effective_cost, f.list_cost, f.billing_currency, f.run_id, f.resource_id, f.tags,
           f.record, $2, f.line, f.row_hash,
           f.occurrence OPERATOR(pg_catalog.+)
             CASE WHEN $4 THEN coalesce((SELECT c.n FROM llm_econ_focus_seen c WHERE c.h OPERATOR(pg_catalog.=) f.row_hash::uuid), 0)
                  ELSE 0 END,
           f.billing_account_id, $3
      FROM llm_econ_focus_lines f  -- ids follow the file: the table is filled in file order and read by one seq scan (no sort)
    %s $q$, CASE WHEN counting OR _focus_store.mode = 'append' THEN 'ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING' END)
  USING who, _focus_store.source, _focus_store.delivery, counting;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  skipped := (SELECT pg_catalog.count(*) FROM llm_econ_focus_lines) - inserted;
  IF counting THEN
    INSERT INTO llm_econ_focus_seen AS c (h, n)
    SELECT f.row_hash::uuid, pg_catalog.max(f.occurrence) FROM llm_econ_focus_lines f GROUP BY 1
    ON CONFLICT (h) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  TRUNCATE llm_econ_focus_lines;
END $$;
COMMENT ON FUNCTION llm_econ._focus_store(text,text,text,boolean,text)IS
'internal: stores the typed FOCUS lines of llm_econ_focus_lines in spend by one INSERT ... SELECT (its column list is written only here), then empties the table';
CREATE FUNCTION llm_econ._focus_temp()RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp
AS $$
BEGIN
  IF pg_catalog.to_regclass('pg_temp.llm_econ_focus_hashes') IS NOT NULL THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus_lines OF llm_econ._focus_line ON COMMIT DROP;
  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus_seen (h uuid PRIMARY KEY, n int4 NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE llm_econ_focus_keys (provider text, billing_account_id text, billing_period_start timestamptz,
      lock_key int8 NOT NULL, fresh boolean NOT NULL,
      UNIQUE NULLS NOT DISTINCT (provider, billing_account_id, billing_period_start)) ON COMMIT DROP;
  CREATE TEMP TABLE llm_econ_focus_hashes (h uuid NOT NULL) ON COMMIT DROP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_temp()IS
'internal: creates the transaction''s temporary tables of a FOCUS load unless they exist';
CREATE FUNCTION llm_econ.import_focus(focus_csv text,tenant text DEFAULT NULL,source text DEFAULT NULL,delivery text DEFAULT NULL,mode text DEFAULT 'replace',OUT inserted bigint,OUT skipped bigint,OUT replaced bigint,OUT replaced_billed_usd numeric,OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(import_focus.tenant, CURRENT_USER);
BEGIN
  PERFORM llm_econ._focus_admit('import_focus', who, import_focus.mode, import_focus.delivery, false);
  IF focus_csv IS NULL THEN
    RAISE EXCEPTION 'focus_csv must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines, llm_econ_focus_seen, llm_econ_focus_keys;
  INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_lines(focus_csv, 'focus_csv');
  BEGIN
    SELECT s.inserted, s.skipped, s.replaced, s.replaced_billed_usd, s.replaced_effective_usd
      INTO inserted, skipped, replaced, replaced_billed_usd, replaced_effective_usd
      FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery, false, import_focus.mode) AS s;
  EXCEPTION WHEN unique_violation THEN

    SELECT s.inserted, s.skipped, s.replaced, s.replaced_billed_usd, s.replaced_effective_usd
      INTO inserted, skipped, replaced, replaced_billed_usd, replaced_effective_usd
      FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery, true, import_focus.mode) AS s;
  END;
END $$;
COMMENT ON FUNCTION llm_econ.import_focus(text,text,text,text,text)IS
'imports a FOCUS 1.0-1.3 CSV into spend for tenant (default: the current role), all or nothing; mode replace (default) or append (docs/finance.md)';
CREATE FUNCTION llm_econ._focus_batches(who text,source text,delivery text,start int8,stop int8,batch int8,exact boolean,mode text,OUT inserted bigint,OUT skipped bigint,OUT replaced bigint,OUT replaced_billed_usd numeric,OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp
AS $$
#variable_conflict use_column
DECLARE
  lo int8 := 0;       -- the last staged id loaded (0: none, the header comes first)
  hi int8;
  n int8;
  last_read int8;     -- the staged id of the batch's last record's last line
  last_line int4;     -- and its file line
  first int4 := 1;    -- the file line of the first staged line after lo
  done record;
BEGIN
  IF start IS NULL OR stop IS NULL OR exact IS NULL OR batch IS NULL OR batch < 1 THEN
    RAISE EXCEPTION 'start, stop and exact must not be NULL, and batch must be at least 1'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF _focus_batches.mode IS NULL OR _focus_batches.mode NOT IN ('replace', 'append') THEN
    RAISE EXCEPTION 'mode must be replace or append' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines, llm_econ_focus_seen, llm_econ_focus_keys, llm_econ_focus_hashes;
  inserted := 0;
  skipped := 0;
  replaced := 0;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  LOOP
    EXIT WHEN lo OPERATOR(pg_catalog.>=) stop;
    hi := LEAST(GREATEST(lo, start) OPERATOR(pg_catalog.+) batch, stop);
    WITH typed AS (
      INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_staged_lines('focus_staging', lo, hi, first)
      RETURNING staged_id, last_line)
    SELECT pg_catalog.count(*), pg_catalog.max(t.staged_id), pg_catalog.max(t.last_line) INTO n, last_read, last_line FROM typed t;
    IF n = 0 THEN


      n := (SELECT pg_catalog.count(*) FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id > GREATEST(lo, start) AND s.id <= hi);
      first := first + n::int4;
      lo := CASE WHEN n > 0 THEN hi
                 ELSE (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id > hi ORDER BY s.id LIMIT 1)
                      OPERATOR(pg_catalog.-) 1 END;
      EXIT WHEN lo IS NULL;
      CONTINUE;
    END IF;
    IF NOT exact AND _focus_batches.mode = 'append' THEN
      INSERT INTO llm_econ_focus_hashes (h) SELECT DISTINCT f.row_hash::uuid FROM llm_econ_focus_lines f;
    END IF;
    SELECT * INTO done
      FROM llm_econ._focus_store(who, _focus_batches.source, _focus_batches.delivery, exact, _focus_batches.mode) AS s;
    inserted := inserted + done.inserted;
    skipped := skipped + done.skipped;
    replaced := replaced + done.replaced;
    replaced_billed_usd := replaced_billed_usd + done.replaced_billed_usd;
    replaced_effective_usd := replaced_effective_usd + done.replaced_effective_usd;
    lo := last_read;
    first := last_line OPERATOR(pg_catalog.+) 1;
  END LOOP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_batches(text,text,text,int8,int8,int8,boolean,text)IS
'internal: load_focus''s batches: the current role''s staged lines with ids in (start, stop], typed and stored by _focus_store';
CREATE FUNCTION llm_econ.load_focus(tenant text DEFAULT NULL,source text DEFAULT NULL,delivery text DEFAULT NULL,mode text DEFAULT 'replace',OUT inserted bigint,OUT skipped bigint,OUT replaced bigint,OUT replaced_billed_usd numeric,OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog,pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(load_focus.tenant, CURRENT_USER);



  batch constant int8 := greatest(1024, pg_catalog.pg_size_bytes(pg_catalog.current_setting('work_mem')) / 2048);
  start int8;         -- the id before the role's first staged line
  stop int8;          -- the last staged id when the load began: lines staged later wait for the next load
  done record;
BEGIN
  PERFORM llm_econ._focus_admit('load_focus', who, load_focus.mode, load_focus.delivery, true);
  PERFORM llm_econ._focus_temp();
  SELECT (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER ORDER BY s.id LIMIT 1) OPERATOR(pg_catalog.-) 1,
         (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER ORDER BY s.id DESC LIMIT 1)
    INTO start, stop;
  inserted := 0;
  skipped := 0;
  replaced := 0;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  IF stop IS NOT NULL THEN





    BEGIN
      SELECT * INTO done FROM llm_econ._focus_batches(who, load_focus.source, load_focus.delivery, start, stop, batch, false, load_focus.mode);
      IF EXISTS (SELECT FROM llm_econ_focus_hashes h GROUP BY h.h HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1) THEN
        RAISE SQLSTATE 'LE001';
      END IF;
    EXCEPTION WHEN SQLSTATE 'LE001' OR unique_violation THEN
      SELECT * INTO done FROM llm_econ._focus_batches(who, load_focus.source, load_focus.delivery, start, stop, batch, true, load_focus.mode);
    END;
    inserted := done.inserted;
    skipped := done.skipped;
    replaced := done.replaced;
    replaced_billed_usd := done.replaced_billed_usd;
    replaced_effective_usd := done.replaced_effective_usd;
  END IF;
  DELETE FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id <= stop;
END $$;
COMMENT ON FUNCTION llm_econ.load_focus(text,text,text,text)IS
'loads the FOCUS file the current role staged through focus_stage as import_focus does, in batches bounded by work_mem; all or nothing (docs/finance.md)';
CREATE VIEW llm_econ.plan_vs_actual WITH(security_invoker = true)AS
WITH lines AS(SELECT s.tenant,s.run_id,s.provider,s.billing_currency,s.charge_period_start,s.charge_period_end,s.gpu_hours,s.billed_cost,s.effective_cost,llm_econ._usd_per_unit(s.billing_currency,s.charge_period_start)AS rate
FROM llm_econ.spend s),actual AS(SELECT l.tenant,l.run_id,pg_catalog.string_agg(DISTINCT l.provider,', ' ORDER BY l.provider)AS provider,pg_catalog.sum(l.billed_cost * l.rate)AS billed_usd,pg_catalog.sum(l.effective_cost * l.rate)AS effective_usd,pg_catalog.sum(l.gpu_hours)AS gpu_hours,pg_catalog.min(l.charge_period_start)AS first_charge,pg_catalog.max(l.charge_period_end)AS last_charge,pg_catalog.count(*)FILTER(WHERE l.rate IS NULL)AS unconverted_lines,pg_catalog.string_agg(DISTINCT l.billing_currency,', ')FILTER(WHERE l.rate IS NULL)AS unconverted_currencies
FROM lines l
GROUP BY l.tenant,l.run_id,CASE WHEN l.run_id IS NULL THEN l.provider END),joined AS(SELECT p.*,a.tenant AS a_tenant,a.run_id AS a_run_id,a.provider AS a_provider,a.billed_usd,a.effective_usd,a.gpu_hours AS actual_gpu_hours,a.first_charge,a.last_charge,a.unconverted_lines,a.unconverted_currencies,pg_catalog.round(p.planned_usd,2)AS planned_usd_cents,pg_catalog.round((a.gpu_hours - p.planned_gpu_hours::numeric)* p.usd_per_gpu_hour,2)AS usage_variance_usd
FROM llm_econ.run_plan p
FULL JOIN actual a ON a.run_id = p.run_id AND a.tenant = p.tenant)
SELECT coalesce(j.planned_at,j.first_charge)AS "time",coalesce(j.run_id,j.a_run_id)AS run_id,coalesce(j.tenant,j.a_tenant)AS tenant,j.team,coalesce(j.provider,j.a_provider)AS provider,j.pricing,j.planned_at,pg_catalog.round(j.usd_per_gpu_hour,6)AS planned_usd_per_gpu_hour,j.planned_usd_cents AS planned_usd,j.billed_usd,j.effective_usd,CASE WHEN coalesce(j.unconverted_lines,0::bigint)= 0 THEN j.effective_usd - j.planned_usd_cents END AS variance_usd,CASE WHEN coalesce(j.unconverted_lines,0::bigint)= 0
THEN pg_catalog.round(100::numeric *(j.effective_usd - j.planned_usd_cents)/ nullif(j.planned_usd_cents,0::numeric),2)END AS variance_pct,j.planned_gpu_hours,j.actual_gpu_hours,CASE WHEN j.actual_gpu_hours > 0::numeric AND j.run_id IS NOT NULL
AND j.actual_gpu_hours /(j.spec).n_gpus::numeric * 3600::numeric <= 1e12::numeric
THEN llm_econ.achieved_mfu(j.spec,pg_catalog.make_interval(secs =>(j.actual_gpu_hours /(j.spec).n_gpus::numeric * 3600::numeric)::float8))
END AS implied_mfu,j.first_charge,j.last_charge,CASE WHEN j.run_id IS NULL AND j.a_run_id IS NULL THEN 'untagged'
WHEN j.run_id IS NULL THEN 'unplanned'
WHEN j.a_tenant IS NULL THEN 'no spend yet'
WHEN j.unconverted_lines > 0 THEN pg_catalog.concat('planned and billed, no fx_rate for ',j.unconverted_currencies)
ELSE 'planned and billed' END AS status,CASE WHEN coalesce(j.unconverted_lines,0::bigint)= 0
THEN pg_catalog.round(j.effective_usd / nullif(j.actual_gpu_hours,0::numeric),6)END AS actual_usd_per_gpu_hour,CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND coalesce(j.unconverted_lines,0::bigint)= 0
THEN(j.effective_usd - j.planned_usd_cents)- j.usage_variance_usd END AS price_variance_usd,CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND j.effective_usd IS NOT NULL
AND coalesce(j.unconverted_lines,0::bigint)= 0
THEN j.usage_variance_usd END AS usage_variance_usd,coalesce(j.unconverted_lines,0::bigint)AS unconverted_lines,j.unconverted_currencies
FROM joined j;
COMMENT ON VIEW llm_econ.plan_vs_actual IS
'per tenant and run: planned (frozen) vs billed and effective USD, price and usage variance, GPU-hours; unplanned and untagged spend too (docs/finance.md)';
COMMENT ON COLUMN llm_econ.plan_vs_actual."time" IS 'for dashboards: when the plan was made, else the first charge';
COMMENT ON COLUMN llm_econ.plan_vs_actual.run_id IS 'the run (NULL on untagged rows)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.tenant IS 'the plan''s or the spend''s tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual.team IS 'the plan''s team';
COMMENT ON COLUMN llm_econ.plan_vs_actual.provider IS 'planned provider; for spend without a plan, the billing providers (aws, gcp: a run billed by both)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.pricing IS 'planned pricing';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_at IS 'when the plan was made';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd_per_gpu_hour IS 'price planned with, USD per GPU-hour, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd IS 'planned USD (frozen), to the cent';
COMMENT ON COLUMN llm_econ.plan_vs_actual.billed_usd IS 'sum of BilledCost of the lines in USD (exact: the invoice''s amounts), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.effective_usd IS 'sum of EffectiveCost of the lines in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_usd IS 'effective_usd - planned_usd = price_variance_usd + usage_variance_usd; NULL when a line of the run has no fx_rate';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_pct IS '100 x variance_usd / planned_usd, 2 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_gpu_hours IS 'planned GPU-hours (frozen)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_gpu_hours IS 'billed GPU-hours (GPU instance lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.implied_mfu IS 'achieved_mfu(spec, actual GPU-hours / n_gpus): below the planned mfu, the usage variance is (at least partly) lower efficiency';
COMMENT ON COLUMN llm_econ.plan_vs_actual.first_charge IS 'earliest charge period start of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.last_charge IS 'latest charge period end of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.status IS
'planned and billed, no fx_rate for <currencies> (no variance), no spend yet, unplanned (a run_id no plan has), or untagged (spend with no run_id)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_usd_per_gpu_hour IS 'effective_usd / actual_gpu_hours: everything the run cost per GPU-hour it ran, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.price_variance_usd IS '(actual - planned USD per GPU-hour) x actual GPU-hours = variance_usd - usage_variance_usd; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.usage_variance_usd IS '(actual - planned GPU-hours) x planned USD per GPU-hour, to the cent; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_currencies IS 'the currencies of those lines';
GRANT SELECT ON llm_econ.plan_vs_actual TO PUBLIC;
CREATE FUNCTION llm_econ._billing_month(billing_period_start timestamptz,billing_period_end timestamptz,charge_period_start timestamptz,charge_period_end timestamptz)RETURNS date
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT CASE WHEN pg_catalog.isfinite(coalesce($1,$3))AND pg_catalog.isfinite(coalesce($2,$4))
THEN(pg_catalog.date_trunc('month',pg_catalog.to_timestamp((pg_catalog.date_part('epoch',coalesce($1,$3))OPERATOR(pg_catalog.+)pg_catalog.date_part('epoch',coalesce($2,$4)))
OPERATOR(pg_catalog./)2::float8)AT TIME ZONE 'UTC'))::date END;
END;
COMMENT ON FUNCTION llm_econ._billing_month(timestamptz,timestamptz,timestamptz,timestamptz)IS
'internal: the invoice month of a spend line: the UTC month holding the middle of its billing (else charge) period';
CREATE VIEW llm_econ.spend_monthly WITH(security_invoker = true)AS
SELECT s.tenant,s.provider,s.billing_account_id,llm_econ._billing_month(s.billing_period_start,s.billing_period_end,s.charge_period_start,s.charge_period_end)AS billing_month,s.billing_currency,pg_catalog.sum(s.billed_cost)AS billed_cost,pg_catalog.sum(s.effective_cost)AS effective_cost,pg_catalog.sum(s.billed_cost * r.rate)AS billed_usd,pg_catalog.sum(s.effective_cost * r.rate)AS effective_usd,pg_catalog.sum(s.gpu_hours)AS gpu_hours,pg_catalog.count(*)AS lines,pg_catalog.count(*)FILTER(WHERE r.rate IS NULL)AS unconverted_lines
FROM llm_econ.spend s
CROSS JOIN LATERAL(SELECT llm_econ._usd_per_unit(s.billing_currency,s.charge_period_start)AS rate)AS r
GROUP BY 1,2,3,4,5;
COMMENT ON VIEW llm_econ.spend_monthly IS
'the invoices by month: per tenant, provider, billing account, billing_month and currency, as billed and in USD (docs/finance.md)';
COMMENT ON COLUMN llm_econ.spend_monthly.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_monthly.provider IS 'the provider key (aws, azure, gcp, ...)';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_account_id IS 'FOCUS BillingAccountId';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_month IS 'the invoice month: first day of the UTC month holding the middle of the billing period (a GCP period starting 08:00 UTC is still its month)';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_currency IS 'FOCUS BillingCurrency (upper case)';
COMMENT ON COLUMN llm_econ.spend_monthly.billed_cost IS 'sum of BilledCost in the billing currency (exact): the invoice';
COMMENT ON COLUMN llm_econ.spend_monthly.effective_cost IS 'sum of EffectiveCost in the billing currency (exact)';
COMMENT ON COLUMN llm_econ.spend_monthly.billed_usd IS 'sum of BilledCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.spend_monthly.effective_usd IS 'sum of EffectiveCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.spend_monthly.gpu_hours IS 'GPU-hours of the lines that bill GPU time (corrections net out)';
COMMENT ON COLUMN llm_econ.spend_monthly.lines IS 'lines';
COMMENT ON COLUMN llm_econ.spend_monthly.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
GRANT SELECT ON llm_econ.spend_monthly TO PUBLIC;
CREATE VIEW llm_econ.plan_vs_actual_monthly WITH(security_invoker = true)AS
SELECT s.tenant,s.run_id,llm_econ._billing_month(s.billing_period_start,s.billing_period_end,s.charge_period_start,s.charge_period_end)AS billing_month,s.provider,pg_catalog.sum(s.billed_cost * r.rate)AS billed_usd,pg_catalog.sum(s.effective_cost * r.rate)AS effective_usd,pg_catalog.sum(s.gpu_hours)AS gpu_hours,pg_catalog.count(*)AS lines,pg_catalog.count(*)FILTER(WHERE r.rate IS NULL)AS unconverted_lines
FROM llm_econ.spend s
CROSS JOIN LATERAL(SELECT llm_econ._usd_per_unit(s.billing_currency,s.charge_period_start)AS rate)AS r
GROUP BY 1,2,3,4;
COMMENT ON VIEW llm_econ.plan_vs_actual_monthly IS
'the monthly accrual of each run: per tenant, run_id (NULL: untagged), billing_month and provider';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.run_id IS 'the run (NULL: spend that names no run)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.billing_month IS 'the invoice month: first day of the UTC month holding the middle of the billing period';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.provider IS 'the billing provider (a run on two providers has a row for each)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.billed_usd IS 'sum of BilledCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.effective_usd IS 'sum of EffectiveCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.gpu_hours IS 'GPU-hours billed to the run that month (corrections net out)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.lines IS 'lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
GRANT SELECT ON llm_econ.plan_vs_actual_monthly TO PUBLIC;
DO $load$
DECLARE
dir constant text :=(SELECT c.setting FROM pg_catalog.pg_config()c
WHERE c.name OPERATOR(pg_catalog.=)'SHAREDIR')|| '/extension/llm_econ/0.4.0/';
opts constant text := ' WITH (FORMAT csv, HEADER MATCH, ENCODING ''UTF8'')';
BEGIN
ALTER TABLE llm_econ.gpu_sku ALTER COLUMN builtin SET DEFAULT true;
ALTER TABLE llm_econ.gpu_sku_alias ALTER COLUMN builtin SET DEFAULT true;
ALTER TABLE llm_econ.instance_type ALTER COLUMN builtin SET DEFAULT true;
ALTER TABLE llm_econ.gcp_machine_family ALTER COLUMN builtin SET DEFAULT true;
ALTER TABLE llm_econ.mfu_reference ALTER COLUMN builtin SET DEFAULT true;
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN builtin SET DEFAULT true;
EXECUTE 'COPY llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, '
|| 'bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, '
|| 'list_price_usd_low, list_price_usd_high, released, source) FROM '
|| pg_catalog.quote_literal(dir || 'gpu_sku.csv')|| opts;
EXECUTE 'COPY llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source) FROM '
|| pg_catalog.quote_literal(dir || 'gpu_sku_alias.csv')|| opts;
EXECUTE 'COPY llm_econ.instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source) FROM '
|| pg_catalog.quote_literal(dir || 'instance_type.csv')|| opts;
EXECUTE 'COPY llm_econ.gcp_machine_family (machine_family, accelerator, alt_accelerator, source) FROM '
|| pg_catalog.quote_literal(dir || 'gcp_machine_family.csv')|| opts;
EXECUTE 'COPY llm_econ.mfu_reference (config, hardware, mfu, year, source) FROM '
|| pg_catalog.quote_literal(dir || 'mfu_reference.csv')|| opts;
ALTER TABLE llm_econ.price_snapshot DISABLE TRIGGER ALL;
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT 'seed';
EXECUTE 'COPY llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, '
|| 'instance_type, gpus_per_instance, source) FROM '
|| pg_catalog.quote_literal(dir || 'price_seed.csv')|| opts;
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source SET DEFAULT
'GCP price history 2022-02..2026-08, Cyclenerd/google-cloud-pricing-cost-calculator (Apache-2.0), via data/gcp_gpu_price_history.csv';
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT 'history';
EXECUTE 'COPY llm_econ.price_snapshot (id, observed_at, provider, sku, region, pricing, usd_per_gpu_hour, '
|| 'instance_type, gpus_per_instance, last_seen_at) FROM '
|| pg_catalog.quote_literal(dir || 'gcp_gpu_price_history_change_points.csv')|| opts;
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source DROP DEFAULT,ALTER COLUMN source_kind SET DEFAULT llm_econ._source_kind();
PERFORM 1 FROM llm_econ.price_snapshot p
WHERE NOT EXISTS(SELECT 1 FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=)p.sku);
IF FOUND THEN
RAISE EXCEPTION 'a shipped price names a SKU that gpu_sku.csv does not define'
USING ERRCODE = 'foreign_key_violation';
END IF;
ALTER TABLE llm_econ.price_snapshot ADD PRIMARY KEY(id);
CREATE UNIQUE INDEX price_snapshot_one_observation ON llm_econ.price_snapshot(series_id,observed_at);
CREATE INDEX price_snapshot_observed_at ON llm_econ.price_snapshot(observed_at);
PERFORM pg_catalog.setval('llm_econ.price_snapshot_id_seq',pg_catalog.max(p.id))FROM llm_econ.price_snapshot p;
INSERT INTO llm_econ.import_lock(provider)VALUES('gcp');
PERFORM pg_catalog.setval('llm_econ.price_history_staging_id_seq',15932);
ALTER TABLE llm_econ.gpu_sku ALTER COLUMN builtin SET DEFAULT false;
ALTER TABLE llm_econ.gpu_sku_alias ALTER COLUMN builtin SET DEFAULT false;
ALTER TABLE llm_econ.instance_type ALTER COLUMN builtin SET DEFAULT false;
ALTER TABLE llm_econ.gcp_machine_family ALTER COLUMN builtin SET DEFAULT false;
ALTER TABLE llm_econ.mfu_reference ALTER COLUMN builtin SET DEFAULT false;
ALTER TABLE llm_econ.price_snapshot ALTER COLUMN builtin SET DEFAULT false;
INSERT INTO llm_econ.price_series(sku,provider,pricing,region,instance_type)
SELECT DISTINCT p.sku,p.provider,p.pricing,p.region,p.instance_type FROM llm_econ.price_snapshot p;
ALTER TABLE llm_econ.price_snapshot ENABLE TRIGGER ALL;
END
$load$;
SELECT pg_catalog.pg_extension_config_dump('llm_econ.instance_type','WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gcp_machine_family','WHERE NOT builtin');
CREATE VIEW llm_econ.spend_daily WITH(security_invoker = true)AS
SELECT(pg_catalog.date_trunc('day',s.charge_period_start AT TIME ZONE 'UTC')AT TIME ZONE 'UTC')AS "time",s.tenant,s.provider,s.service_category,pg_catalog.sum(s.billed_cost * r.rate)AS billed_usd,pg_catalog.sum(s.effective_cost * r.rate)AS effective_usd,pg_catalog.sum(s.gpu_hours)AS gpu_hours,pg_catalog.count(*)AS lines,pg_catalog.count(DISTINCT s.run_id)AS runs,pg_catalog.count(*)FILTER(WHERE r.rate IS NULL)AS unconverted_lines
FROM llm_econ.spend s
CROSS JOIN LATERAL(SELECT llm_econ._usd_per_unit(s.billing_currency,s.charge_period_start)AS rate)AS r
GROUP BY 1,2,3,4;
COMMENT ON VIEW llm_econ.spend_daily IS
'billed and effective USD, GPU-hours, lines and runs per UTC day, tenant, provider and service category';
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
CREATE FUNCTION llm_econ._price_series_prune()RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog,pg_temp AS $$
DECLARE
  ids int8[];
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('DELETE', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_prune() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;



  SELECT pg_catalog.array_agg(c.series_id) INTO ids
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

  DELETE FROM llm_econ.price_series s
   WHERE s.series_id = ANY (ids)
     AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p WHERE p.series_id = s.series_id);
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune()IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';
CREATE TRIGGER price_snapshot_series_del AFTER DELETE ON llm_econ.price_snapshot
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE TRIGGER price_snapshot_series_upd_old AFTER UPDATE ON llm_econ.price_snapshot
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE FUNCTION llm_econ._check_spec(spec llm_econ.run_spec)RETURNS boolean
AS 'MODULE_PATHNAME','le_check_spec_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_spec(llm_econ.run_spec)IS
'true when every field of the spec is in range and the cross-field rules hold (what the constructor checks); else 22023 naming the field';
CREATE TABLE llm_econ.price_daily_summary("time" timestamptz NOT NULL,sku text NOT NULL,provider text NOT NULL,pricing text NOT NULL,offers int4 NOT NULL CHECK(offers > 0),min_usd numeric NOT NULL,median_usd numeric NOT NULL,max_usd numeric NOT NULL,sum_usd numeric NOT NULL);
COMMENT ON TABLE llm_econ.price_daily_summary IS
'derived: per UTC day and (sku, provider, pricing), the prices of the series in effect at the end of the day; maintained by trigger';
COMMENT ON COLUMN llm_econ.price_daily_summary."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily_summary.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_summary.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_summary.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_summary.offers IS 'series (region, instance type) with a price in effect at the end of the day';
COMMENT ON COLUMN llm_econ.price_daily_summary.min_usd IS 'cheapest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.median_usd IS 'their median (mean of the two middle prices when even), $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.max_usd IS 'dearest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.sum_usd IS 'sum of their prices (for means over providers)';
CREATE TABLE llm_econ.price_daily_group(sku text NOT NULL,provider text NOT NULL,pricing text NOT NULL,last_day timestamptz,dirty_since timestamptz,PRIMARY KEY(sku,provider,pricing));
COMMENT ON TABLE llm_econ.price_daily_group IS
'derived: the (sku, provider, pricing) groups of price_snapshot with the day of their last observation; writers lock a group''s row while they update its summary';
COMMENT ON COLUMN llm_econ.price_daily_group.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_group.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_group.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_group.last_day IS 'midnight UTC of the day of the group''s last observation (its last summary day)';
COMMENT ON COLUMN llm_econ.price_daily_group.dirty_since IS 'set by a writer (holding the row locked) to the first day to recompute; NULL again when its statement ends';
CREATE FUNCTION llm_econ._price_daily_refresh()
RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog,pg_temp AS $$
DECLARE
  skus text[];
  providers text[];
  pricings text[];
  since timestamptz[];
  fresh boolean[];
BEGIN


  SELECT pg_catalog.array_agg(gr.sku ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(gr.provider ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(gr.pricing ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(least(gr.dirty_since, (gr.last_day AT TIME ZONE 'UTC' + interval '1 day') AT TIME ZONE 'UTC')
                   ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(gr.last_day IS NULL ORDER BY gr.sku, gr.provider, gr.pricing)
    INTO skus, providers, pricings, since, fresh
    FROM llm_econ.price_daily_group gr WHERE gr.dirty_since IS NOT NULL;
  IF skus IS NULL THEN
    RETURN;
  END IF;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = NULL WHERE gr.dirty_since IS NOT NULL;
  DELETE FROM llm_econ.price_daily_summary d
   USING ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings), pg_catalog.unnest(since)) AS g(sku, provider, pricing, since)
   WHERE d.sku = g.sku AND d.provider = g.provider AND d.pricing = g.pricing AND d."time" >= g.since;
  WITH g AS (
         SELECT * FROM ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings), pg_catalog.unnest(since), pg_catalog.unnest(fresh)) AS g(sku, provider, pricing, since, fresh)),
       obs AS (
         SELECT s.sku, s.provider, s.pricing, s.series_id, g.since, o.observed_at, o.usd
           FROM g JOIN llm_econ.price_series s
             ON s.sku = g.sku AND s.provider = g.provider AND s.pricing = g.pricing

                AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                 WHERE i.provider = s.provider AND pg_catalog.lower(i.instance_type) = pg_catalog.lower(s.instance_type)
                                   AND i.gpus < 1::numeric)
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.observed_at < g.since AND NOT g.fresh
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL


                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at >= CASE WHEN g.fresh THEN '-infinity' ELSE g.since END)) AS o(observed_at, usd)),
       spans AS (   -- UTC days [f, t) at whose end each observation is in effect (t NULL: to the last

         SELECT obs.sku, obs.provider, obs.pricing, obs.usd,
                least(greatest(pg_catalog.date_trunc('day', obs.observed_at AT TIME ZONE 'UTC'), obs.since AT TIME ZONE 'UTC',
                               timestamp '2000-01-01'), timestamp '2100-01-01') AS f,
                CASE WHEN pg_catalog.lead(obs.observed_at) OVER w IS NOT NULL
                     THEN least(greatest(pg_catalog.date_trunc('day', pg_catalog.lead(obs.observed_at) OVER w AT TIME ZONE 'UTC'),
                                         timestamp '2000-01-01'), timestamp '2100-01-01') END AS t
           FROM obs
         WINDOW w AS (PARTITION BY obs.series_id ORDER BY obs.observed_at)),
       changes AS (  -- the days a group's prices can change, each with the group's next such day
         SELECT c.sku, c.provider, c.pricing, c.day, pg_catalog.lead(c.day) OVER w AS next
           FROM (SELECT DISTINCT spans.sku, spans.provider, spans.pricing, spans.f AS day FROM spans) c
         WINDOW w AS (PARTITION BY c.sku, c.provider, c.pricing ORDER BY c.day)),
       last AS (
         SELECT obs.sku, obs.provider, obs.pricing,
                least(greatest(pg_catalog.date_trunc('day', pg_catalog.max(obs.observed_at) AT TIME ZONE 'UTC'), timestamp '2000-01-01'),
                      timestamp '2100-01-01') AS day
           FROM obs GROUP BY 1, 2, 3),
       span_days AS MATERIALIZED (  -- each priced span, on the days it covers (materialized: the



         SELECT s.sku, s.provider, s.pricing, s.usd, d.day
           FROM spans s
           JOIN last l ON l.sku = s.sku AND l.provider = s.provider AND l.pricing = s.pricing
          CROSS JOIN LATERAL pg_catalog.generate_series(s.f, coalesce(s.t - interval '1 day', l.day), interval '1 day') AS d(day)
          WHERE s.usd IS NOT NULL),
       state AS (    -- the group's prices at the end of each such day: the same until the next one
         SELECT c.sku, c.provider, c.pricing, c.day, c.next, pg_catalog.count(*) AS offers, pg_catalog.min(s.usd) AS min_usd,
                (pg_catalog.percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd)
                 + pg_catalog.percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd DESC)) * 0.5 AS median_usd,
                pg_catalog.max(s.usd) AS max_usd, pg_catalog.sum(s.usd) AS sum_usd
           FROM changes c
           JOIN span_days s
             ON s.sku = c.sku AND s.provider = c.provider AND s.pricing = c.pricing AND s.day = c.day
          GROUP BY c.sku, c.provider, c.pricing, c.day, c.next),
       new_last AS (  -- each group's last observation day (NULL: none left)
         UPDATE llm_econ.price_daily_group gr SET last_day = l.day AT TIME ZONE 'UTC'
           FROM ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
           LEFT JOIN last l ON l.sku = g.sku AND l.provider = g.provider AND l.pricing = g.pricing
          WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)
  INSERT INTO llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd)
  SELECT d.day AT TIME ZONE 'UTC', st.sku, st.provider, st.pricing, st.offers, st.min_usd, st.median_usd,
         st.max_usd, st.sum_usd
    FROM state st
    JOIN last l ON l.sku = st.sku AND l.provider = st.provider AND l.pricing = st.pricing
   CROSS JOIN LATERAL pg_catalog.generate_series(st.day, coalesce(st.next - interval '1 day', l.day), interval '1 day') AS d(day);

  DELETE FROM llm_econ.price_daily_group gr
   USING ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing AND gr.last_day IS NULL;


  DELETE FROM llm_econ.price_daily_summary d
   USING ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
    JOIN llm_econ.price_daily_group gr
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   WHERE d.sku = gr.sku AND d.provider = gr.provider AND d.pricing = gr.pricing AND d."time" > gr.last_day;
  DELETE FROM llm_econ.price_daily_summary d
   USING (SELECT g.sku, g.provider, g.pricing FROM ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
           WHERE NOT EXISTS (SELECT 1 FROM llm_econ.price_daily_group gr
                              WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)) AS gone
   WHERE d.sku = gone.sku AND d.provider = gone.provider AND d.pricing = gone.pricing;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_refresh()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_refresh()IS
'internal: recomputes price_daily_summary for the groups marked dirty and clears the marks; the caller holds their rows locked';
CREATE FUNCTION llm_econ._price_daily_maintain()RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog,pg_temp AS $$
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
    SELECT pg_catalog.array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           pg_catalog.array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT n.sku, n.provider, n.pricing,
                   pg_catalog.date_trunc('day', pg_catalog.min(n.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              FROM new_rows n GROUP BY 1, 2, 3) c;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT pg_catalog.array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           pg_catalog.array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT o.sku, o.provider, o.pricing,
                   pg_catalog.date_trunc('day', pg_catalog.min(o.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              FROM old_rows o GROUP BY 1, 2, 3) c;
  ELSE
    SELECT pg_catalog.array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           pg_catalog.array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT r.sku, r.provider, r.pricing,
                   pg_catalog.date_trunc('day', pg_catalog.min(r.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since


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
  SELECT * FROM ROWS FROM (pg_catalog.unnest(k_sku), pg_catalog.unnest(k_provider), pg_catalog.unnest(k_pricing)) ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM llm_econ.price_daily_group gr
    JOIN ROWS FROM (pg_catalog.unnest(k_sku), pg_catalog.unnest(k_provider), pg_catalog.unnest(k_pricing)) AS g(sku, provider, pricing)
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   ORDER BY gr.sku, gr.provider, gr.pricing FOR UPDATE OF gr;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = g.since
    FROM ROWS FROM (pg_catalog.unnest(k_sku), pg_catalog.unnest(k_provider), pg_catalog.unnest(k_pricing), pg_catalog.unnest(k_since)) AS g(sku, provider, pricing, since)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing;
  PERFORM llm_econ._price_daily_refresh();
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_maintain()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_maintain()IS
'trigger: keeps price_daily_summary current for the (sku, provider, pricing) groups of inserted, updated or deleted price_snapshot rows';
CREATE FUNCTION llm_econ._price_daily_truncate()RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog,pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP <> 'TRUNCATE' THEN
    RAISE EXCEPTION 'llm_econ._price_daily_truncate() fires only as the AFTER TRUNCATE trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  TRUNCATE llm_econ.price_daily_summary, llm_econ.price_daily_group;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_truncate()FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_truncate()IS
'trigger: empties price_daily_summary and price_daily_group when price_snapshot is truncated';
CREATE TRIGGER price_snapshot_summary_ins AFTER INSERT ON llm_econ.price_snapshot
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE TRIGGER price_snapshot_summary_upd AFTER UPDATE ON llm_econ.price_snapshot
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE TRIGGER price_snapshot_summary_del AFTER DELETE ON llm_econ.price_snapshot
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE TRIGGER price_snapshot_summary_trunc AFTER TRUNCATE ON llm_econ.price_snapshot
FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_truncate();
CREATE FUNCTION llm_econ._today_utc()RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.date_trunc('day',pg_catalog.now()AT TIME ZONE 'UTC')AT TIME ZONE 'UTC'; END;
COMMENT ON FUNCTION llm_econ._today_utc()IS 'internal: midnight UTC of the current day';
CREATE VIEW llm_econ._price_daily_all WITH(security_invoker = true)AS
SELECT d."time",d.sku,d.provider,d.pricing,d.offers,d.min_usd,d.median_usd,d.max_usd,d.sum_usd
FROM llm_econ.price_daily_summary d
WHERE d."time" OPERATOR(pg_catalog.<)llm_econ._today_utc()
UNION ALL
SELECT t.day AT TIME ZONE 'UTC',d.sku,d.provider,d.pricing,d.offers,d.min_usd,d.median_usd,d.max_usd,d.sum_usd
FROM llm_econ.price_daily_group g
JOIN llm_econ.price_daily_summary d
ON d.sku OPERATOR(pg_catalog.=)g.sku AND d.provider OPERATOR(pg_catalog.=)g.provider
AND d.pricing OPERATOR(pg_catalog.=)g.pricing AND d."time" OPERATOR(pg_catalog.=)g.last_day
CROSS JOIN LATERAL pg_catalog.generate_series((g.last_day AT TIME ZONE 'UTC')OPERATOR(pg_catalog.+)interval '1 day',(llm_econ._today_utc()AT TIME ZONE 'UTC')OPERATOR(pg_catalog.-)interval '1 day',interval '1 day')AS t(day);
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
CREATE VIEW llm_econ.price_daily_by_provider WITH(security_invoker = true)AS
SELECT a."time",a.sku,a.provider,a.pricing,pg_catalog.round(a.min_usd,4)AS min_usd_per_gpu_hour,pg_catalog.round(a.median_usd,4)AS median_usd_per_gpu_hour,a.offers
FROM llm_econ._price_daily_all a;
COMMENT ON VIEW llm_econ.price_daily_by_provider IS
'per ended UTC day, SKU, provider and pricing: cheapest and median $/GPU-hour, and how many series';
COMMENT ON COLUMN llm_econ.price_daily_by_provider."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.min_usd_per_gpu_hour IS 'cheapest series, $/GPU-hour, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.median_usd_per_gpu_hour IS 'median over the series, $/GPU-hour, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.offers IS 'series in effect (offers)';
CREATE VIEW llm_econ.price_daily WITH(security_invoker = true)AS
SELECT a."time",a.sku,a.pricing,pg_catalog.min(a.min_usd)AS min_usd_per_gpu_hour,pg_catalog.round(pg_catalog.sum(a.sum_usd)OPERATOR(pg_catalog./)pg_catalog.sum(a.offers),6)AS avg_usd_per_gpu_hour,pg_catalog.max(a.max_usd)AS max_usd_per_gpu_hour,pg_catalog.count(a.provider)AS providers,pg_catalog.string_agg(a.provider,', ' ORDER BY a.provider)AS provider_list
FROM llm_econ._price_daily_all a
GROUP BY a."time",a.sku,a.pricing;
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
CREATE VIEW llm_econ.price_series_spans WITH(security_invoker = true)AS
SELECT o.observed_at AS "time",s.sku,s.provider,s.region,s.instance_type,s.pricing,o.observed_at AS valid_from,o.valid_to,o.usd_per_gpu_hour,o.last_seen_at
FROM llm_econ.price_series s
CROSS JOIN LATERAL(SELECT p.observed_at,pg_catalog.lead(p.observed_at)OVER(ORDER BY p.observed_at)AS valid_to,p.usd_per_gpu_hour,coalesce(p.last_seen_at,p.observed_at)AS last_seen_at
FROM llm_econ.price_snapshot p
WHERE p.series_id OPERATOR(pg_catalog.=)s.series_id)AS o
WHERE o.usd_per_gpu_hour IS NOT NULL;
COMMENT ON VIEW llm_econ.price_series_spans IS
'one row per price in effect: a series'' observation, from valid_from until the series'' next observation (valid_to NULL = still in effect)';
COMMENT ON COLUMN llm_econ.price_series_spans."time" IS 'valid_from, for dashboards';
COMMENT ON COLUMN llm_econ.price_series_spans.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_series_spans.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_series_spans.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_series_spans.instance_type IS 'machine type; NULL = not given';
COMMENT ON COLUMN llm_econ.price_series_spans.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_series_spans.valid_from IS 'when the price was observed';
COMMENT ON COLUMN llm_econ.price_series_spans.valid_to IS 'the series'' next observation (a new price or a withdrawal); NULL = still in effect';
COMMENT ON COLUMN llm_econ.price_series_spans.usd_per_gpu_hour IS 'USD per GPU-hour';
COMMENT ON COLUMN llm_econ.price_series_spans.last_seen_at IS
'the last time a source listed the price unchanged; price_at''s max_age counts from it';
CREATE VIEW llm_econ.cheapest_provider_monthly WITH(security_invoker = true)AS
SELECT m."time",m.sku,m.pricing,m.provider,pg_catalog.round(m.usd,4)AS usd_per_gpu_hour,pg_catalog.rank()OVER(PARTITION BY m."time",m.sku,m.pricing ORDER BY m.usd)AS rank
FROM(SELECT pg_catalog.date_trunc('month',a."time" AT TIME ZONE 'UTC')AT TIME ZONE 'UTC' AS "time",a.sku,a.pricing,a.provider,pg_catalog.avg(a.min_usd)AS usd
FROM llm_econ._price_daily_all a
GROUP BY 1,2,3,4)m;
COMMENT ON VIEW llm_econ.cheapest_provider_monthly IS
'per UTC month, SKU and pricing: each provider''s time-weighted $/GPU-hour (of its cheapest series each day) and its rank, 1 = cheapest';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly."time" IS 'the month (its first midnight UTC)';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.provider IS 'provider';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.usd_per_gpu_hour IS 'time-weighted $/GPU-hour over the days of the month it had a price, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.rank IS '1 = cheapest provider of the month (ties share a rank)';
CREATE VIEW llm_econ.spot_discount_daily WITH(security_invoker = true)AS
SELECT b."time",b.sku,b.provider,pg_catalog.round(b.od,4)AS on_demand_usd_per_gpu_hour,pg_catalog.round(b.spot,4)AS spot_usd_per_gpu_hour,pg_catalog.round(1 OPERATOR(pg_catalog.-)(b.spot OPERATOR(pg_catalog./)b.od),4)AS discount
FROM(SELECT a."time",a.sku,a.provider,pg_catalog.min(a.min_usd)FILTER(WHERE a.pricing OPERATOR(pg_catalog.=)'on_demand')AS od,pg_catalog.min(a.min_usd)FILTER(WHERE a.pricing OPERATOR(pg_catalog.=)'spot')AS spot
FROM llm_econ._price_daily_all a
GROUP BY a."time",a.sku,a.provider)b
WHERE b.od IS NOT NULL AND b.spot IS NOT NULL;
COMMENT ON VIEW llm_econ.spot_discount_daily IS
'per ended UTC day, SKU and provider with both prices: the provider''s cheapest spot price against its own cheapest on-demand price';
COMMENT ON COLUMN llm_econ.spot_discount_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spot_discount_daily.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.spot_discount_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spot_discount_daily.on_demand_usd_per_gpu_hour IS 'cheapest on-demand series, $/GPU-hour, 4 decimals';
COMMENT ON COLUMN llm_econ.spot_discount_daily.spot_usd_per_gpu_hour IS 'cheapest spot series, $/GPU-hour, 4 decimals';
COMMENT ON COLUMN llm_econ.spot_discount_daily.discount IS '1 - spot / on-demand (0.6 = spot costs 60% less), 4 decimals';
GRANT SELECT ON llm_econ.price_daily_summary,llm_econ.price_daily_group,llm_econ._price_daily_all,llm_econ.price_daily_by_provider,llm_econ.price_series_spans,llm_econ.cheapest_provider_monthly,llm_econ.spot_discount_daily TO PUBLIC;
DO $load$
DECLARE
dir constant text :=(SELECT c.setting FROM pg_catalog.pg_config()c
WHERE c.name OPERATOR(pg_catalog.=)'SHAREDIR')|| '/extension/llm_econ/0.4.0/';
BEGIN
EXECUTE 'COPY llm_econ.price_daily_group (sku, provider, pricing, last_day) FROM '
|| pg_catalog.quote_literal(dir || 'price_daily_group.csv')|| ' WITH (FORMAT csv, HEADER MATCH)';
EXECUTE 'COPY llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd) FROM '
|| pg_catalog.quote_literal(dir || 'price_daily_summary.csv')|| ' WITH (FORMAT csv, HEADER MATCH)';
END
$load$;
ALTER TABLE llm_econ.price_daily_summary ADD PRIMARY KEY(sku,provider,pricing,"time");
CREATE INDEX price_daily_summary_time ON llm_econ.price_daily_summary("time");
UPDATE llm_econ.gpu_sku g SET generation = v.generation
FROM(VALUES('A100-40GB','ampere'),('A100-80GB','ampere'),('A100-80GB-PCIe','ampere'),('A800','ampere'),('A10','ampere'),('A10G','ampere'),('A40','ampere'),('H100-SXM5','hopper'),('H100-PCIe','hopper'),('H100-NVL','hopper'),('H200-SXM5','hopper'),('H200-NVL','hopper'),('H800','hopper'),('H20','hopper'),('GH200','hopper'),('B100','blackwell'),('B200','blackwell'),('B300','blackwell'),('GB200','blackwell'),('GB300','blackwell'),('MI250X','cdna2'),('MI300X','cdna3'),('MI325X','cdna3'))AS v(sku,generation)
WHERE g.sku OPERATOR(pg_catalog.=)v.sku AND g.builtin;
CREATE FUNCTION llm_econ.step_breakdown(spec llm_econ.run_spec,dp_overlap boolean DEFAULT true,OUT phase text,OUT seconds float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME','le_step_breakdown_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 8;
COMMENT ON FUNCTION llm_econ.step_breakdown(llm_econ.run_spec,boolean)IS
'one optimizer step of the spec''s layout in seconds by phase, total last; needs the model shape and global_batch (docs/step-model.md)';
CREATE FUNCTION llm_econ.predicted_mfu(spec llm_econ.run_spec,dp_overlap boolean DEFAULT true,calibrated boolean DEFAULT false)RETURNS float8
AS 'MODULE_PATHNAME','le_predicted_mfu_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_mfu(llm_econ.run_spec,boolean,boolean)IS
'MFU the step-time model predicts for the spec''s layout; calibrated: times the SKU''s factor in mfu_calibration (docs/step-model.md)';
CREATE FUNCTION llm_econ.predicted_time(spec llm_econ.run_spec,dp_overlap boolean DEFAULT true,calibrated boolean DEFAULT false)RETURNS interval
AS 'MODULE_PATHNAME','le_predicted_time_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ.predicted_time(llm_econ.run_spec,boolean,boolean)IS
'wall time of the run at the predicted MFU; calibrated: divided by the SKU''s factor in mfu_calibration (docs/step-model.md)';
CREATE TABLE llm_econ.observed_run(tenant text NOT NULL DEFAULT CURRENT_USER,run_id text NOT NULL CHECK(run_id OPERATOR(pg_catalog.<>)''),spec llm_econ.run_spec NOT NULL,provider text CHECK(provider OPERATOR(pg_catalog.~)'^[a-z0-9][a-z0-9._-]*$'),tokens_per_second float8 CHECK(tokens_per_second > 0::float8 AND tokens_per_second < 'Infinity'::float8),step_seconds float8 CHECK(step_seconds > 0::float8 AND step_seconds < 'Infinity'::float8),observed_at timestamptz NOT NULL DEFAULT pg_catalog.now()CHECK(pg_catalog.isfinite(observed_at)),source text NOT NULL CHECK(source OPERATOR(pg_catalog.<>)''),CONSTRAINT observed_run_one_measure CHECK(pg_catalog.num_nonnulls(tokens_per_second,step_seconds)OPERATOR(pg_catalog.=)1),CONSTRAINT observed_run_pkey PRIMARY KEY(tenant,run_id,observed_at));
COMMENT ON TABLE llm_econ.observed_run IS
'measured throughput of runs a team has done, which mfu_calibration turns into correction factors';
COMMENT ON COLUMN llm_econ.observed_run.tenant IS 'the role that owns the observation (row-level security)';
COMMENT ON COLUMN llm_econ.observed_run.run_id IS 'the run''s id within its tenant (as in run_plan)';
COMMENT ON COLUMN llm_econ.observed_run.spec IS 'the run as it ran: model shape, global_batch, GPUs and layout (run_spec); the step-time model must be able to time it';
COMMENT ON COLUMN llm_econ.observed_run.provider IS 'where it ran (lower case); NULL = not known, counted for its SKU only';
COMMENT ON COLUMN llm_econ.observed_run.tokens_per_second IS 'measured training throughput of the whole run, tokens per second (this or step_seconds)';
COMMENT ON COLUMN llm_econ.observed_run.step_seconds IS 'measured wall time of one optimizer step of global_batch · seq_len tokens, seconds (this or tokens_per_second)';
COMMENT ON COLUMN llm_econ.observed_run.observed_at IS 'when it was measured';
COMMENT ON COLUMN llm_econ.observed_run.source IS 'where the measurement comes from (training log, dashboard, ...)';
CREATE FUNCTION llm_econ._observed_mfu(spec llm_econ.run_spec,tokens_per_second float8,step_seconds float8)
RETURNS float8
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog,pg_temp
AS $$
DECLARE
  tps float8;
BEGIN
  PERFORM llm_econ._check_spec(spec);   -- every field in range (22023 naming it)
  IF pg_catalog.num_nonnulls(tokens_per_second, step_seconds) OPERATOR(pg_catalog.<>) 1 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'give exactly one of tokens_per_second and step_seconds';
  END IF;
  IF NOT (coalesce(tokens_per_second, step_seconds) > 0::float8 AND coalesce(tokens_per_second, step_seconds) < 'Infinity'::float8) THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = pg_catalog.format('%s must be in (0, Infinity), got %s',
                                  CASE WHEN tokens_per_second IS NULL THEN 'step_seconds' ELSE 'tokens_per_second' END,
                                  coalesce(tokens_per_second, step_seconds));
  END IF;
  IF tokens_per_second IS NULL AND (spec.global_batch IS NULL OR spec.seq_len IS NULL) THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'step_seconds needs the spec''s global_batch and seq_len, which are NULL';
  END IF;
  tps := coalesce(tokens_per_second, spec.global_batch::float8 * spec.seq_len::float8 / step_seconds);
  RETURN 6::float8 * coalesce(spec.n_active_params, spec.n_params) * tps / (spec.n_gpus::float8 * spec.peak_flops);
END;
$$;
COMMENT ON FUNCTION llm_econ._observed_mfu(llm_econ.run_spec,float8,float8)IS
'internal: MFU of a measured run, 6·N_active·tokens per second / (n_gpus · peak_flops)';
CREATE FUNCTION llm_econ._observed_run_check()RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog,pg_temp
AS $$
DECLARE
  observed float8;
BEGIN
  observed := llm_econ._observed_mfu(NEW.spec, NEW.tokens_per_second, NEW.step_seconds);

  PERFORM llm_econ.predicted_mfu(NEW.spec);
  IF observed IS NULL OR NOT (observed > 0::float8 AND observed <= 1::float8) THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = pg_catalog.format('observed MFU must be in (0, 1], got %s for run %s', observed, NEW.run_id),
      HINT = 'tokens_per_second is the whole run''s (all GPUs); step_seconds is one step of global_batch · seq_len tokens.';
  END IF;
  RETURN NEW;
END;
$$;
COMMENT ON FUNCTION llm_econ._observed_run_check()IS
'internal: observed_run rows must be timeable by the step model and have a measured MFU in (0, 1] (22023 otherwise)';
CREATE TRIGGER observed_run_check BEFORE INSERT OR UPDATE ON llm_econ.observed_run
FOR EACH ROW EXECUTE FUNCTION llm_econ._observed_run_check();
ALTER TABLE llm_econ.observed_run ENABLE ROW LEVEL SECURITY;
CREATE POLICY observed_run_tenant ON llm_econ.observed_run
USING(llm_econ._is_tenant_member(tenant))WITH CHECK(llm_econ._is_tenant_member(tenant));
SELECT pg_catalog.pg_extension_config_dump('llm_econ.observed_run','');
CREATE VIEW llm_econ.mfu_calibration WITH(security_invoker = true)AS
WITH o AS(SELECT(r.spec).sku AS sku,r.provider,r.observed_at,llm_econ._observed_mfu(r.spec,r.tokens_per_second,r.step_seconds)AS observed_mfu,llm_econ.predicted_mfu(r.spec)AS predicted_mfu
FROM llm_econ.observed_run r)
SELECT o.sku,NULL::text AS provider,pg_catalog.count(*)AS runs,pg_catalog.percentile_cont(0.5::float8)WITHIN GROUP(ORDER BY o.observed_mfu)AS median_observed_mfu,pg_catalog.percentile_cont(0.5::float8)WITHIN GROUP(ORDER BY o.predicted_mfu)AS median_predicted_mfu,pg_catalog.percentile_cont(0.5::float8)WITHIN GROUP(ORDER BY o.observed_mfu / o.predicted_mfu)AS median_mfu_ratio,pg_catalog.max(o.observed_at)AS "time"
FROM o GROUP BY o.sku
UNION ALL
SELECT o.sku,o.provider,pg_catalog.count(*)AS runs,pg_catalog.percentile_cont(0.5::float8)WITHIN GROUP(ORDER BY o.observed_mfu)AS median_observed_mfu,pg_catalog.percentile_cont(0.5::float8)WITHIN GROUP(ORDER BY o.predicted_mfu)AS median_predicted_mfu,pg_catalog.percentile_cont(0.5::float8)WITHIN GROUP(ORDER BY o.observed_mfu / o.predicted_mfu)AS median_mfu_ratio,pg_catalog.max(o.observed_at)AS "time"
FROM o WHERE o.provider IS NOT NULL GROUP BY o.sku,o.provider;
COMMENT ON VIEW llm_econ.mfu_calibration IS
'per SKU (and provider): recorded runs and the median of measured over predicted MFU, the factor of predicted_mfu(..., calibrated => true)';
COMMENT ON COLUMN llm_econ.mfu_calibration.sku IS 'gpu_sku key of the runs';
COMMENT ON COLUMN llm_econ.mfu_calibration.provider IS 'provider of the runs; NULL = every run of the SKU, whatever its provider';
COMMENT ON COLUMN llm_econ.mfu_calibration.runs IS 'recorded runs (observations)';
COMMENT ON COLUMN llm_econ.mfu_calibration.median_observed_mfu IS 'median measured MFU';
COMMENT ON COLUMN llm_econ.mfu_calibration.median_predicted_mfu IS 'median MFU the step model predicts for the same specs';
COMMENT ON COLUMN llm_econ.mfu_calibration.median_mfu_ratio IS 'median of measured / predicted MFU per run: the calibration factor';
COMMENT ON COLUMN llm_econ.mfu_calibration."time" IS 'the latest observation';
GRANT SELECT ON llm_econ.mfu_calibration TO PUBLIC;
CREATE FUNCTION llm_econ._plan_offers(at timestamptz,pricing text,max_age interval)
RETURNS TABLE(sku text,provider text,region text,instance_type text,pricing text,usd_per_gpu_hour numeric,gpus_per_instance int4,observed_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
SELECT ps.sku,l.provider,l.region,l.instance_type,l.pricing,l.usd_per_gpu_hour,l.gpus_per_instance,l.observed_at
FROM(SELECT DISTINCT s.sku,s.provider,s.pricing FROM llm_econ.price_series s
WHERE llm_econ._check_pricing($2)IS NULL
OR s.pricing OPERATOR(pg_catalog.=)llm_econ._check_pricing($2))AS ps
CROSS JOIN LATERAL llm_econ._latest_prices(ps.sku,ps.provider,ps.pricing,$1,NULL,NULL,llm_econ._check_max_age($3))AS l
WHERE l.suspect IS NULL;
END;
COMMENT ON FUNCTION llm_econ._plan_offers(timestamptz,text,interval)IS
'internal: the offers cheapest_plan prices with, in effect at "at", of one pricing (NULL = all)';
CREATE FUNCTION llm_econ.cheapest_plan(model llm_econ.run_spec,deadline interval,at timestamptz DEFAULT pg_catalog.now(),pricing text DEFAULT NULL,max_gpus int4 DEFAULT 16384,max_age interval DEFAULT NULL,calibrated boolean DEFAULT false)
RETURNS TABLE(sku text,provider text,region text,instance_type text,pricing text,n_gpus int4,tp int4,pp int4,cp int4,ep int4,dp int4,zero_stage int4,recompute text,predicted_mfu float8,wall_time interval,usd_per_gpu_hour numeric,cost_usd numeric,spec llm_econ.run_spec)
AS 'MODULE_PATHNAME','le_cheapest_plan_fn' LANGUAGE C STABLE PARALLEL SAFE COST 10000 ROWS 100;
COMMENT ON FUNCTION llm_econ.cheapest_plan(llm_econ.run_spec,interval,timestamptz,text,int4,interval,boolean)IS
'the plans that train the spec''s model within deadline (every SKU offered at "at", GPU count and layout that fits), timed by the step-time model, cheapest first (docs/step-model.md)';
