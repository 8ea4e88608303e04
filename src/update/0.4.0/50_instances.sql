-- 0.3.0 -> 0.4.0, part 50: instances are facts with sources (llm_econ.instance_type, gcp_machine_family), imports that refuse silent damage.

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
CREATE UNIQUE INDEX instance_type_lower_key ON llm_econ.instance_type (provider, pg_catalog.lower(instance_type));
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

SELECT pg_catalog.pg_extension_config_dump('llm_econ.instance_type', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gcp_machine_family', 'WHERE NOT builtin');
GRANT SELECT ON llm_econ.instance_type, llm_econ.gcp_machine_family TO PUBLIC;

-- The shipped rows, from the same file a fresh install loads (data.sql).
DO $load$
DECLARE
  dir constant text := (SELECT c.setting FROM pg_catalog.pg_config() c
                         WHERE c.name OPERATOR(pg_catalog.=) 'SHAREDIR') || '/extension/llm_econ/';
BEGIN
  ALTER TABLE llm_econ.instance_type ALTER COLUMN builtin SET DEFAULT true;
  EXECUTE 'COPY llm_econ.instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source) FROM '
       || pg_catalog.quote_literal(dir || 'instance_type.csv') || ' WITH (FORMAT csv, HEADER MATCH, ENCODING ''UTF8'')';
  ALTER TABLE llm_econ.instance_type ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.gcp_machine_family ALTER COLUMN builtin SET DEFAULT true;
  EXECUTE 'COPY llm_econ.gcp_machine_family (machine_family, accelerator, alt_accelerator, source) FROM '
       || pg_catalog.quote_literal(dir || 'gcp_machine_family.csv') || ' WITH (FORMAT csv, HEADER MATCH, ENCODING ''UTF8'')';
  ALTER TABLE llm_econ.gcp_machine_family ALTER COLUMN builtin SET DEFAULT false;
END $load$;

-- The catalog parser reads GCP's machine families from those tables now (no longer a table in C),
-- and returns each machine's vCPUs and memory (the importer compares siblings by them).
DROP FUNCTION llm_econ._skypilot_offers(text, text);
CREATE FUNCTION llm_econ._skypilot_offers(cloud text, catalog_csv text,
    OUT accelerator text, OUT variant text, OUT instance_type text, OUT region text,
    OUT pricing text, OUT usd_per_gpu_hour numeric, OUT gpus_per_instance int4, OUT catalog_rows int4,
    OUT usd_per_hour numeric, OUT vcpus text, OUT memory_gib text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_skypilot_offers' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._skypilot_offers(text, text) IS
  'internal: parses one SkyPilot vms.csv into per-GPU offers for import_skypilot_catalog';

-- The as-of core leaves slices of a GPU out (it needs instance_type: moved here from part 20).
-- _latest_prices leaves slices out too: 55_freshness.sql recreates it (with last_seen_at)

-- import_skypilot_catalog gains withdraw_missing (a new signature: the old one goes).
DROP FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz);

-- What a SkyPilot catalog of each cloud looks like: its instance type names and its regions
-- (sky/catalog/data_fetchers/fetch_<cloud>.py write them as the provider's APIs return them).
-- A file whose names or regions mostly do not fit is another cloud's file.  NULL = no rule.
CREATE FUNCTION llm_econ._skypilot_cloud_shape(cloud text, OUT name_re text, OUT region_re text)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT v.n, v.r FROM (VALUES
    ('aws', '^[a-z][a-z0-9-]*\.[a-z0-9-]+$', '^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+$'),
    ('gcp', '^[a-z][a-z0-9]*-[a-z0-9]+(-[a-z0-9]+)*$', '^[a-z]+-[a-z]+[0-9]+$'),
    ('azure', '^(Standard|Basic)_[A-Za-z0-9_-]+$', '^[a-z]+[0-9]?$'),
    ('lambda', '^gpu_[0-9]+x_[a-z0-9_]+$', '^[a-z]+-[a-z]+-[0-9]+$'),
    ('runpod', '^[0-9]+x_[A-Za-z0-9_-]+_(SECURE|COMMUNITY)$', '^[A-Z]{2}(-[A-Z]+-[0-9]+)?$')) AS v(c, n, r)
   WHERE v.c OPERATOR(pg_catalog.=) $1;
END;
COMMENT ON FUNCTION llm_econ._skypilot_cloud_shape(text) IS
  'internal: the patterns a cloud''s SkyPilot instance types and regions follow (NULL for other clouds)';

-- The SKU an instance type's name says, over a generic accelerator name: H100 NVL (the name
-- says NVL, or Azure's NC*ads_H100_v5, which carry H100 NVL: Azure NCads H100 v5 documentation),
-- H200 NVL, and the A100's memory and form factor (40gb, 80gb, pcie).  NULL = the name says nothing.
CREATE FUNCTION llm_econ._sku_of_name(provider text, instance_type text, accelerator text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE
           WHEN $2 OPERATOR(pg_catalog.~*) 'h100[ _-]?nvl'
                OR ($1 OPERATOR(pg_catalog.=) 'azure' AND $2 OPERATOR(pg_catalog.~*) '^standard_nc[0-9]+ad[a-z]*_h100_v5$')
             THEN 'H100-NVL'
           WHEN $2 OPERATOR(pg_catalog.~*) 'h200[ _-]?nvl' THEN 'H200-NVL'
           WHEN $3 OPERATOR(pg_catalog.~*) '^a100' AND $2 OPERATOR(pg_catalog.~*) '40gb' AND $2 OPERATOR(pg_catalog.~*) 'pcie' THEN 'A100-40GB-PCIe'
           WHEN $3 OPERATOR(pg_catalog.~*) '^a100' AND $2 OPERATOR(pg_catalog.~*) '40gb' THEN 'A100-40GB'
           WHEN $3 OPERATOR(pg_catalog.~*) '^a100' AND $2 OPERATOR(pg_catalog.~*) '80gb' AND $2 OPERATOR(pg_catalog.~*) 'pcie' THEN 'A100-80GB-PCIe'
           WHEN $3 OPERATOR(pg_catalog.~*) '^a100' AND $2 OPERATOR(pg_catalog.~*) '80gb' THEN 'A100-80GB'
         END;
END;
COMMENT ON FUNCTION llm_econ._sku_of_name(text, text, text) IS
  'internal: the gpu_sku key an instance type''s name says (H100 NVL, A100 80GB, PCIe, ...), which wins over a generic accelerator name';

CREATE FUNCTION llm_econ.import_skypilot_catalog(cloud text, catalog_csv text, observed_at timestamptz,
    withdraw_missing boolean DEFAULT NULL,
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint,
    OUT corrected bigint, OUT unverified bigint, OUT suspect bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
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
  -- a header and nothing else is a cut-off download, not a catalog that lists nothing
  IF catalog_csv ~ '[^[:space:]]' AND catalog_csv !~ '[\r\n][[:space:]]*[^[:space:]]' THEN
    RAISE EXCEPTION 'the % catalog has a header and no rows', c
      USING ERRCODE = 'bad_copy_file_format',
            HINT = 'Imported, an empty catalog would withdraw every offer of the provider; check the download.';
  END IF;
  src := 'SkyPilot catalog vms.csv (' || c || ')';
  SELECT * INTO shape FROM llm_econ._skypilot_cloud_shape(c);

  -- one importer per provider at a time; a malformed catalog raises before anything is stored
  PERFORM llm_econ._lock_providers(ARRAY[c]);
  -- 1. the catalog's offers.  Each instance type is resolved through llm_econ.instance_type:
  --    its SKU and GPU count win over the catalog's.  An unknown one takes the SKU its name says
  --    (_sku_of_name), else the accelerator's, and the catalog's count, which the suspect trigger
  --    judges.  A slice (gpus < 1) is priced per GPU-equivalent (instance price / gpus) and stored
  --    without a whole GPU count.  Also: the series an earlier catalog listed and this one does
  --    not (withdrawn only with evidence, step 2), and what in the file does not fit the cloud.
  WITH raw AS MATERIALIZED (SELECT o.* FROM llm_econ._skypilot_offers(c, catalog_csv) AS o),
       names AS (   -- each distinct name is looked up once
         SELECT DISTINCT v.n FROM raw r,
                LATERAL (VALUES (r.instance_type), (r.accelerator),
                                (r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END)) AS v(n)
          WHERE v.n IS NOT NULL),
       -- _sku_find's rule for all names in one query
       map AS MATERIALIZED (SELECT m.name AS n, m.sku
                              FROM llm_econ._sku_map(ARRAY(SELECT names.n FROM names)) AS m),
       parsed AS MATERIALIZED (
         SELECT r.*, coalesce(it.sku, llm_econ._sku_of_name(c, r.instance_type, r.accelerator), mi.sku, mv.sku, ma.sku) AS sku,
                -- what the catalog's names alone mean (an alias of the machine type, else the accelerator)
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
       -- a machine type instance_type does not know, with the vCPUs and memory of a known sibling
       -- of the same GPU in this file but another GPU count: its count is not believed (suspect)
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

  -- 2. refuse what would damage the history: another cloud's file, or withdrawals on thin evidence
  -- the instance names decide (regions repeat across clouds: us-east-1 is AWS's and Lambda's);
  -- regions only when the file names no instance type (GCP accelerator rows alone)
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

  -- 3. a backfill (a later catalog of this cloud is stored already): what that later catalog
  --    listed must still hold from its date on, so each series this import changes gets, at that
  --    date, the price it had there (or a withdrawal when the later catalog did not list it)
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

  -- 4. store (rows written here are of kind catalog), then check the new prices
  -- the suspect trigger reads the machine types whose count a sibling contradicts from this setting
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
COMMENT ON FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz, boolean) IS
  'imports one SkyPilot vms.csv (any cloud) as one dated snapshot of per-GPU prices: a row only where a series'' price changes; checks and withdrawals: docs/prices.md';

-- Catalog prices 0.3.0 stored with the catalog's GPU name or count where instance_type knows
-- better (Azure ND96is_H100_v5 at 12 GPUs, NC40ads_H100_v5 as an H100 SXM, NV6ads_A10_v5 as a
-- whole A10): corrected in place as 0.4.0 would have stored them: the SKU instance_type gives,
-- the instance price (per-GPU price x the stored count) over its GPUs, and no whole GPU count
-- for a slice.  The series triggers move the rows to their series; the daily summaries follow.
UPDATE llm_econ.price_snapshot p
   SET sku = i.sku,
       usd_per_gpu_hour = llm_econ._usd(p.usd_per_gpu_hour OPERATOR(pg_catalog.*) p.gpus_per_instance::numeric OPERATOR(pg_catalog./) i.gpus),
       gpus_per_instance = CASE WHEN i.gpus OPERATOR(pg_catalog.>=) 1::numeric THEN i.gpus::int4 END
  FROM llm_econ.instance_type i
 WHERE p.source_kind OPERATOR(pg_catalog.=) 'catalog'
   AND i.provider OPERATOR(pg_catalog.=) p.provider
   AND pg_catalog.lower(i.instance_type) OPERATOR(pg_catalog.=) pg_catalog.lower(p.instance_type)
   AND p.gpus_per_instance IS NOT NULL
   AND (i.gpus OPERATOR(pg_catalog.<>) p.gpus_per_instance::numeric OR i.sku OPERATOR(pg_catalog.<>) p.sku);
