-- Issue 45 item 1: the accelerator-name table over every published SkyPilot catalog.  Each
-- (catalog version, cloud, AcceleratorName, AcceleratorCount, GpuInfo memory, instance type) of
-- test/data/skypilot/accelerator_names.csv (read from skypilot-catalog catalogs/v5..v8, each row
-- with its file and commit; test/data/skypilot/README.md says what was read) goes through the
-- importer's parser (_skypilot_offers, as a one-row vms.csv) and its identity rule (_catalog_sku,
-- the function import_skypilot_catalog calls per machine shape), and the table says what it
-- became: a SKU, or skipped with the reason.  Then the checks: no SKU against GpuInfo's memory,
-- no SKU against the form factor the names spell, and the GPU counts no machine of the part has.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
SET client_min_messages = warning;
\set SHOW_CONTEXT never
\set names `cat test/data/skypilot/accelerator_names.csv`
CREATE TEMP TABLE names AS
SELECT l.n - 1 AS line, split_part(l.l, ',', 1) AS catalog, split_part(l.l, ',', 2) AS cloud,
       split_part(l.l, ',', 3) AS accelerator, split_part(l.l, ',', 4)::numeric AS gpus,
       nullif(split_part(l.l, ',', 5), '')::int4 AS gpu_mib, split_part(l.l, ',', 6) AS instance_type,
       nullif(split_part(l.l, ',', 7), '') AS memory_gib, nullif(split_part(l.l, ',', 8), '') AS gpuinfo_name,
       split_part(l.l, ',', 9) AS source, nullif(split_part(l.l, ',', 10), '') AS upstream
  FROM regexp_split_to_table(:'names', E'\n') WITH ORDINALITY AS l(l, n)
 WHERE l.n > 1 AND l.l <> '';
-- every row names its file and commit
SELECT count(*) AS names, count(DISTINCT (catalog, cloud)) AS catalogs, count(DISTINCT cloud) AS clouds,
       count(*) FILTER (WHERE source !~ '^catalogs/v[5-8]/[a-z]+/vms\.csv@[0-9a-f]{40}$') AS without_source
  FROM names;
-- each row as the importer reads it: a one-row vms.csv (price = GPU count, so 1 per GPU), with a
-- GpuInfo of the row's SizeInMiB as the catalog writes it and GpuInfo's name where it differs
-- from AcceleratorName (a catalog that writes no memory, only a name, gets that name alone), and
-- the UpstreamCloudId PrimeIntellect's catalogs write (the machine as its provider names it)
CREATE TEMP TABLE became AS
SELECT n.line, n.catalog, n.cloud, n.accelerator, n.gpus, n.gpu_mib, n.instance_type, n.upstream,
       o.variant, o.gpu_mib AS read_mib, o.gpus_per_instance, f.sku, f.why
  FROM names n
 CROSS JOIN LATERAL (
       SELECT * FROM _skypilot_offers(n.cloud,
              'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,UpstreamCloudId' || E'\n'
              -- GCP lists a machine type and its accelerator in two rows (the machine's without an
              -- accelerator name) that the importer pairs by region; an N1-attachable GPU alone
              || CASE WHEN n.cloud = 'gcp' AND n.instance_type <> '' THEN format('%s,,,8,64,1,r1,,', n.instance_type) || E'\n' ELSE '' END
              || format('%s,%s,%s,8,%s,%s,r1,%s,%s', CASE WHEN n.cloud <> 'gcp' THEN n.instance_type END, n.accelerator, n.gpus,
                        coalesce(n.memory_gib, '64'), n.gpus,
                        CASE WHEN n.gpu_mib IS NOT NULL
                             THEN format('"{''Gpus'': [{''Name'': ''%s'', ''Count'': %s, ''MemoryInfo'': {''SizeInMiB'': %s}}]}"',
                                         coalesce(n.gpuinfo_name, n.accelerator), n.gpus, n.gpu_mib)
                             ELSE coalesce(n.gpuinfo_name, '') END, coalesce(n.upstream, '')))
        WHERE pricing = 'on_demand' LIMIT 1) AS o
 CROSS JOIN LATERAL _catalog_sku(n.cloud, o.instance_type, o.accelerator, o.variant, o.gpu_mib, o.gpus_per_instance, o.memory_gib) AS f;
SELECT count(*) AS rows_read, count(sku) AS identified, count(*) - count(sku) AS skipped FROM became;
-- the table: every name of every catalog read, and what it became
SELECT catalog AS v, cloud, accelerator, gpus AS n, gpu_mib AS mib, instance_type, coalesce(sku, '(skipped)') AS became,
       CASE WHEN sku IS NULL THEN coalesce(why, 'unknown name: no gpu_sku key or alias') END AS why
  FROM became ORDER BY cloud COLLATE "C", catalog, accelerator COLLATE "C", gpus, instance_type COLLATE "C", gpu_mib;
-- nothing against GpuInfo's memory: a SKU's HBM is within 6 % of what the catalog says per GPU,
-- read the ways the catalogs write it (MiB, or 2^20 bytes over 10^9; the machine's total over the
-- GPU count; a number below 1024 written in GB) -- none listed
SELECT b.cloud, b.catalog, b.accelerator, b.gpus, b.gpu_mib, b.sku, g.hbm_gb
  FROM became b JOIN gpu_sku g ON g.sku = b.sku
 WHERE b.gpu_mib > 0 AND g.hbm_gb IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM (VALUES (b.gpu_mib / 1024.0), (b.gpu_mib * 1.048576 / 1000),
                                         (b.gpu_mib / 1024.0 / b.gpus), (b.gpu_mib * 1.048576 / 1000 / b.gpus),
                                         (CASE WHEN b.gpu_mib < 1024 THEN b.gpu_mib::numeric END)) AS m(gb)
                    WHERE abs(m.gb - g.hbm_gb::numeric) <= 0.06 * g.hbm_gb::numeric);
-- every GpuInfo memory the catalog writes is read, GCP's included (its accelerator row carries
-- it, and the machine type paired with that row inherits it; 0.5.0 dropped it, so GCP's parts
-- were judged by name alone) -- none listed
SELECT cloud, catalog, accelerator, gpus, gpu_mib, instance_type FROM became
 WHERE gpu_mib > 0 AND read_mib IS NULL ORDER BY 1, 2, 3, 4, 6;
-- GCP v6/v7 write GpuInfo without a name and unquoted (catalogs/v7/gcp/vms.csv at 6f65ab58):
-- both the machine paired with its accelerator row and an N1-attachable GPU get the memory
SELECT instance_type, accelerator, gpu_mib FROM _skypilot_offers('gcp', 'InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice
a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.73948,0.29576
,,,A100,1,{''Gpus'': [{''MemoryInfo'': {''SizeInMiB'': 40960}}]},us-central1,us-central1-a,2.93391,1.1472
,,,T4,1,{''Gpus'': [{''MemoryInfo'': {''SizeInMiB'': 16384}}]},us-central1,us-central1-a,0.35,0.14')
 WHERE pricing = 'on_demand' ORDER BY 2;
-- nothing against a form factor the names spell (PCIe, SXM; NVLINK is a bridge, not the NVL part),
-- UpstreamCloudId's included -- none listed
SELECT cloud, catalog, accelerator, instance_type, sku FROM became
 WHERE (instance_type || ' ' || accelerator || ' ' || coalesce(upstream, '') ~* 'pcie|pci(?![a-z])' AND sku !~* 'pcie' AND sku IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM gpu_sku g WHERE g.sku = became.sku AND g.nvlink_gb_per_s IS NULL))
    OR (instance_type || ' ' || accelerator || ' ' || coalesce(upstream, '') ~* 'sxm' AND sku ~* 'pcie|nvl');
-- GPU counts no machine of the part has (above its node size and 8, and not the count of a
-- machine type instance_type knows, such as GCP's a2-megagpu-16g): the identity stands (the count
-- never chooses the part alone) and the importer stores the price flagged suspect
-- (sql/catalog_identity.sql shows the flag); where instance_type knows the machine, its count is
-- the one stored (known: Azure's catalogs write 12 GPUs for the 8-GPU ND H100 v5)
SELECT b.cloud, b.catalog, b.instance_type, b.gpus, it.gpus AS known, b.sku
  FROM became b JOIN gpu_sku g ON g.sku = b.sku
  LEFT JOIN instance_type it ON it.provider = b.cloud AND it.instance_type = b.instance_type
 WHERE b.gpus > greatest(g.gpus_per_node, 8) AND it.gpus IS DISTINCT FROM b.gpus
 ORDER BY 1, 2, 3;
-- DigitalOcean writes GpuInfo's keys in lower case (catalogs/v5/do/vms.csv at 0e419765): its
-- memory is read all the same (0.4.0: NULL, so only the names judged the part)
SELECT instance_type, gpu_mib FROM _skypilot_offers('do', 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
gpu-h100x8-640gb,H100,8,160,1920.0,47.60,nyc2,"{''gpus'': [{''name'': ''h100'', ''manufacturer'': ''nvidia'', ''count'': 8.0, ''memoryinfo'': {''sizeinmib'': 81559}}], ''totalgpumemoryinmib'': 81559}",');
-- the clouds of catalogs/v8 that 0.5.0 did not know yet are accepted
SELECT c, c = ANY (_skypilot_clouds()) AS known FROM unnest(ARRAY['spheron', 'verda', 'yotta']) AS c;
-- Issue 45 item 2: a file of another cloud is recognised by its instance type names, now for
-- every cloud whose published catalogs name their machines in a pattern of their own.  Every
-- instance type of the table fits its own cloud's rule (none listed) ...
SELECT n.cloud, n.catalog, n.instance_type
  FROM names n CROSS JOIN LATERAL _skypilot_cloud_shape(n.cloud) AS s
 WHERE n.instance_type !~ s.name_re AND n.instance_type <> '';
-- ... the clouds with a rule, and those without (their files cannot be told from another cloud's)
SELECT string_agg(c, ' ' ORDER BY c) FILTER (WHERE s.name_re IS NOT NULL) AS rule,
       string_agg(c, ' ' ORDER BY c) FILTER (WHERE s.name_re IS NULL) AS no_rule
  FROM unnest(_skypilot_clouds()) AS c LEFT JOIN LATERAL _skypilot_cloud_shape(c) AS s ON true;
-- ... and the shared samples (Lambda 2023-06, RunPod 2024-01) fit their own cloud's rule and no
-- other: the share of each file's instance types each rule accepts (an import refuses a file
-- when more than half do not fit)
\set lambda `cat test/data/skypilot/lambda_2023-06-15.csv`
\set runpod `cat test/data/skypilot/runpod_2024-01-08.csv`
SELECT f.file, c AS cloud, round(avg((o.instance_type ~ s.name_re)::int), 2) AS fits
  FROM (VALUES ('lambda', :'lambda'), ('runpod', :'runpod')) AS f(file, body)
 CROSS JOIN LATERAL (SELECT DISTINCT instance_type FROM _skypilot_offers(f.file, f.body)) AS o
 CROSS JOIN unnest(_skypilot_clouds()) AS c
 CROSS JOIN LATERAL _skypilot_cloud_shape(c) AS s
 WHERE s.name_re IS NOT NULL
 GROUP BY 1, 2 HAVING avg((o.instance_type ~ s.name_re)::int) > 0 ORDER BY 1, 2;
-- the issue's case: the Lambda sample imported as nebius (stored before: issue 45 counted 306 rows) is refused
BEGIN;
SELECT * FROM import_skypilot_catalog('nebius', :'lambda', '2023-06-15');
ROLLBACK;
