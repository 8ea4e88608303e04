-- Price imports: SkyPilot catalogs and long-format price histories, stored as change points.

CREATE FUNCTION llm_econ._skypilot_offers(cloud text, catalog_csv text,
    OUT accelerator text, OUT variant text, OUT instance_type text, OUT region text,
    OUT pricing text, OUT usd_per_gpu_hour numeric, OUT gpus_per_instance int4, OUT catalog_rows int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_skypilot_offers' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._skypilot_offers(text, text) IS
  'internal: parses one SkyPilot vms.csv into per-GPU offers (cheapest zone per region; GCP host + accelerator); used by import_skypilot_catalog';
