-- The rules of issue 31 on real SkyPilot catalogs of several clouds and dates (test/data/skypilot/README.md).
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
SET client_min_messages = warning;
\set SHOW_CONTEXT never
\i sql/include/error_report.sql
-- everything below is rolled back at the end: later tests of the suite share the database
BEGIN;
-- and earlier ones leave SkyPilot imports of later dates (import.sql), which would make every file
-- here a backfill reconciled with them: this test starts from none
DELETE FROM price_snapshot WHERE source LIKE 'SkyPilot%';
DELETE FROM price_import WHERE source LIKE 'SkyPilot%';
-- Rows copied unchanged from github.com/skypilot-org/skypilot-catalog (Apache-2.0): Azure
-- catalogs/v5/azure/vms.csv at commits 80b37e8 (2023-08) and 3f5f697 (2024-01), their GPU rows;
-- Lambda catalogs/v5/lambda/vms.csv (2023-06-15) and catalogs/v8/lambda/vms.csv at 95eaf48 (2025-10);
-- GCP catalogs/v5/gcp/vms.csv at 0129130 (2024-09) and ddb8695 (2024-12) and catalogs/v8/gcp/vms.csv
-- at 8427bbf (2026-02), us-central1's GPU machine and accelerator rows; AWS catalogs/v4/aws/vms.csv at 0dbb44e (2023-04), GPU machines in us-east-1,
-- and catalogs/v8/aws/vms.csv at e385a0d (2025-10), the P machines (p3 to p6-b200) of us-east-1,
-- us-east-2 and us-west-2 (and ap-southeast-3 for p5/p5e) and every Trainium row.
\set az1 `cat test/data/skypilot/azure/2023-08-15/vms.csv`
\set az2 `cat test/data/skypilot/azure/2024-01-15/vms.csv`
\set la1 `cat test/data/skypilot/lambda_2023-06-15.csv`
\set la2 `cat test/data/skypilot/lambda/2025-10-01/vms.csv`
\set gc1 `cat test/data/skypilot/gcp/2024-09-01/vms.csv`
\set gc2 `cat test/data/skypilot/gcp/2024-12-01/vms.csv`
\set gc3 `cat test/data/skypilot/gcp/2026-02-15/vms.csv`
\set aw1 `cat test/data/skypilot/aws/2023-04-01/vms.csv`
\set aw2 `cat test/data/skypilot/aws/2025-10-01/vms.csv`
CREATE TEMP TABLE cat_file (cloud text, day date, body text);
INSERT INTO cat_file VALUES ('azure', '2023-08-15', :'az1'), ('azure', '2024-01-15', :'az2'),
                            ('lambda', '2023-06-15', :'la1'), ('lambda', '2025-10-01', :'la2'),
                            ('gcp', '2024-09-01', :'gc1'), ('gcp', '2024-12-01', :'gc2'), ('gcp', '2026-02-15', :'gc3'),
                            ('aws', '2023-04-01', :'aw1'), ('aws', '2025-10-01', :'aw2');
-- The same files read by plain SQL, not by the importer: one row per catalog line.  Azure's quoted
-- field is its last (Generation), Lambda's GpuInfo comes after Price and Region (and its SpotPrice,
-- after GpuInfo, is always empty), so splitting on commas is exact for the columns read here.
CREATE TEMP TABLE cat AS
-- AWS's GpuInfo is a quoted dict with commas: its later fields are read from the end of the line
-- (split_part with a negative position counts from the end); the v8 file has one more column at
-- the end (Arch), hence k.
SELECT f.cloud, f.day, split_part(l, ',', 1) AS instance_type,
       nullif(split_part(l, ',', CASE f.cloud WHEN 'gcp' THEN 4 ELSE 2 END), '') AS accel,
       nullif(split_part(l, ',', CASE f.cloud WHEN 'gcp' THEN 5 ELSE 3 END), '')::numeric AS n,
       nullif(split_part(l, ',', CASE f.cloud WHEN 'azure' THEN 7 WHEN 'lambda' THEN 6 WHEN 'gcp' THEN -2 ELSE -4 - k END), '')::numeric AS price,
       CASE WHEN f.cloud <> 'lambda'                                  -- Lambda: no spot
            THEN nullif(split_part(l, ',', CASE f.cloud WHEN 'azure' THEN 8 WHEN 'gcp' THEN -1 ELSE -3 - k END), '')::numeric END AS spot,
       split_part(l, ',', CASE f.cloud WHEN 'azure' THEN 9 WHEN 'lambda' THEN 7 WHEN 'gcp' THEN -4 ELSE -2 - k END) AS region,
       CASE f.cloud WHEN 'gcp' THEN split_part(l, ',', -3) WHEN 'aws' THEN split_part(l, ',', -1 - k) END AS zone
  FROM cat_file f, regexp_split_to_table(f.body, E'\n') WITH ORDINALITY AS t(l, i),
       LATERAL (SELECT (split_part(f.body, E'\n', 1) LIKE '%,Arch')::int AS k) AS a
 WHERE t.i > 1 AND l <> '';
SELECT cloud, day, count(*) AS catalog_rows, count(DISTINCT instance_type) AS instance_types,
       count(DISTINCT instance_type) FILTER (WHERE instance_type <> '' AND (accel IS NOT NULL OR instance_type ~ '^(a[0-9]+|g2)-')) AS gpu_machine_types
  FROM cat GROUP BY 1, 2 ORDER BY 1, 2;

-- ---- 1. import in date order, per cloud (one call at a time, in that order: a join would call
-- the importer in whatever order the plan reads cat_file, and a catalog imported after a later
-- one is a backfill)
CREATE TEMP TABLE imported AS
SELECT f.cloud, f.day, i.* FROM cat_file f, import_skypilot_catalog(f.cloud, f.body, f.day::timestamptz) AS i WHERE false;
DO $$
DECLARE f record;
BEGIN
  FOR f IN SELECT * FROM cat_file WHERE (cloud, day) <> ('aws', '2025-10-01') ORDER BY cloud, day LOOP
    INSERT INTO imported SELECT f.cloud, f.day, i.* FROM llm_econ.import_skypilot_catalog(f.cloud, f.body, f.day::timestamptz) AS i;
  END LOOP;
END $$;
SELECT * FROM imported ORDER BY cloud, day;
-- The 2025 AWS file here is a cut (the P machines of three regions): it does not list the G
-- machines the 2023 file priced, so it is refused as a likely cut download (22023), and imported
-- with withdraw_missing => false, which keeps those offers (counted from their last sighting, 4.).
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'aws', :'aw2', '2025-10-01')) AS aws_2025_cut;
SELECT 'aws' AS cloud, '2025-10-01'::date AS day, i.* FROM import_skypilot_catalog('aws', :'aw2', '2025-10-01', withdraw_missing => false) AS i;

-- ---- 2. every GPU machine of these catalogs, and how it was judged.  known: in instance_type,
-- whose SKU and count win; slice: a fraction of a GPU, stored per GPU-equivalent without a whole
-- GPU count; unverified: unknown, priced with the catalog's count and judged by the suspect rules;
-- skipped: a GPU gpu_sku does not know (the importer counts and names them); not listed: a price
-- of 0 or none in every region (a machine in preview).
CREATE TEMP TABLE judged AS
SELECT c.cloud, c.instance_type, string_agg(DISTINCT c.accel, ',') AS catalog_gpu,
       max(c.n) AS catalog_count, i.sku AS known_sku, i.gpus AS known_gpus,
       (SELECT string_agg(DISTINCT p.sku, ',') FROM price_snapshot p
         WHERE p.provider = c.cloud AND p.instance_type = c.instance_type) AS stored_sku,
       (SELECT string_agg(DISTINCT coalesce(p.gpus_per_instance::text, 'none'), ',') FROM price_snapshot p
         WHERE p.provider = c.cloud AND p.instance_type = c.instance_type AND p.usd_per_gpu_hour IS NOT NULL) AS stored_gpus,
       (SELECT count(*) FROM price_snapshot p
         WHERE p.provider = c.cloud AND p.instance_type = c.instance_type AND p.suspect IS NOT NULL) AS suspect_rows,
       coalesce(bool_or(c.price > 0 OR c.spot > 0), false) AS listed
  FROM cat c LEFT JOIN instance_type i ON i.provider = c.cloud AND i.instance_type = c.instance_type
 WHERE (c.accel IS NOT NULL AND c.instance_type <> '') OR i.instance_type IS NOT NULL
    OR (c.cloud = 'gcp' AND c.instance_type ~ '^(a[0-9]+|g2)-')    -- GCP's GPU machines (their GPUs are on accelerator rows)
 GROUP BY c.cloud, c.instance_type, i.sku, i.gpus;
SELECT cloud, instance_type, catalog_gpu, catalog_count, stored_sku, stored_gpus,
       CASE WHEN NOT listed THEN 'not listed'
            WHEN stored_sku IS NULL THEN 'skipped'
            WHEN known_gpus < 1 THEN 'slice of ' || trim_scale(round(known_gpus, 4))
            WHEN known_gpus IS NULL THEN 'unverified'
            WHEN catalog_gpu IS NULL THEN 'known'                     -- GCP: the machine row names no GPU
            WHEN known_gpus <> catalog_count THEN 'known, count corrected'
            WHEN stored_sku IS DISTINCT FROM (SELECT g.sku FROM gpu_sku g WHERE g.sku = catalog_gpu) THEN 'known, SKU from the instance'
            ELSE 'known' END AS judged,
       suspect_rows
  FROM judged ORDER BY cloud, judged, instance_type;
-- No rule misjudges one: a known machine is stored with its known SKU and count, a slice with no
-- whole-GPU count, an unverified one with a count some known machine of its GPU has, and a skipped
-- one is a GPU gpu_sku does not know.
SELECT cloud, instance_type, catalog_gpu, known_sku, known_gpus, stored_sku, stored_gpus FROM judged
 WHERE listed AND (
       (known_gpus >= 1 AND (stored_sku IS DISTINCT FROM known_sku OR stored_gpus IS DISTINCT FROM trim_scale(known_gpus)::text))
    OR (known_gpus < 1 AND stored_gpus IS DISTINCT FROM 'none')
    OR (known_gpus IS NULL AND stored_sku IS NOT NULL AND coalesce(catalog_count, stored_gpus::numeric) NOT IN (1, 2, 4, 8, 16))
    OR (stored_sku IS NULL AND EXISTS (SELECT 1 FROM gpu_sku_alias a WHERE lower(a.alias) = lower(catalog_gpu))))
 ORDER BY 1, 2;
-- GCP's prices by plain SQL over the CSV rows: per GPU = (machine + its accelerator row in the same
-- zone) / GPUs, the cheapest zone of us-central1, against the price in effect after each import
-- (price_at takes a machine type for the SKU).  a3-megagpu-8g pairs with H100-MEGA rows, or with
-- H100 rows in the 2024-09 file, which has no H100-MEGA (gcp_machine_family).  a2-highgpu-2g/4g/8g and a2-megagpu-16g spot equal
-- the shipped GCP history's price for the same series, so those imports count them unchanged.
CREATE TEMP TABLE gcp_expected AS
SELECT h.day, h.instance_type, v.pricing, min(v.usd) AS expected
  FROM cat h
  JOIN instance_type i ON i.provider = 'gcp' AND i.instance_type = h.instance_type
  JOIN gcp_machine_family f ON h.instance_type LIKE f.machine_family || '-%'
  JOIN cat a ON a.cloud = 'gcp' AND a.day = h.day AND a.instance_type = '' AND a.zone = h.zone
            AND a.n = i.gpus   -- the family's accelerator name; its older name only in a file without it
            AND a.accel = CASE WHEN EXISTS (SELECT 1 FROM cat x WHERE x.cloud = 'gcp' AND x.day = h.day AND x.accel = f.accelerator)
                               THEN f.accelerator ELSE f.alt_accelerator END
 CROSS JOIN LATERAL (VALUES ('on_demand', (h.price + a.price) / i.gpus), ('spot', (h.spot + a.spot) / i.gpus)) AS v(pricing, usd)
 WHERE h.cloud = 'gcp' AND h.instance_type <> ''
 GROUP BY 1, 2, 3;
-- (a price the import found suspect is no answer of price_at: those are counted apart, and shown below)
SELECT day, count(*) AS compared,
       count(*) FILTER (WHERE price_at(instance_type, 'gcp', pricing, day::timestamptz, 'us-central1') <> expected
                          AND NOT suspect) AS different,
       count(*) FILTER (WHERE suspect) AS suspect
  FROM (SELECT e.*, EXISTS (SELECT 1 FROM price_snapshot p
                             WHERE p.provider = 'gcp' AND p.region = 'us-central1' AND p.instance_type = e.instance_type
                               AND p.pricing = e.pricing AND p.observed_at = e.day AND p.suspect IS NOT NULL) AS suspect
          FROM gcp_expected e) AS e
 GROUP BY day ORDER BY day;
SELECT day, instance_type, pricing, expected, price_at(instance_type, 'gcp', pricing, day::timestamptz, 'us-central1') AS price_at
  FROM gcp_expected WHERE instance_type IN ('a2-highgpu-1g', 'a3-highgpu-8g', 'a3-megagpu-8g', 'g2-standard-48')
 ORDER BY 2, 3, 1;
-- The 2026 file halves GCP's on-demand price of the A3 High and A2 Ultra machines in us-central1:
-- a3-highgpu-8g (9.46006 + H100 x 8 33.60609) / 8 = 5.38 per GPU, where GCP's own price list (the
-- shipped history, Cyclenerd's export of GCP's billing catalog) keeps 88.49 / 8 = 11.06125 from
-- 2024-05 through 2026-08; a2-ultragpu-1g 1.09962 + 1.8462 (A100 80GB, listed below its spot
-- price 1.964) = 2.94582 against 5.068798.  Both prices sit in one series, and no
-- rule of 0.3.0 saw it (2x from the previous price, not 3x; no other us-central1 offer in the
-- file).  The import now marks a catalog price suspect when it is more than 1.5x from the
-- price another source lists for the same offer at that instant, and price_at answers with the
-- series' latest price that is not suspect (the 2024-12 catalog's 10.979 for a3-highgpu-8g).
-- Spot prices agree within 1% (a3-highgpu-8g 3.194 here, 3.220 in the history).  a3-edgegpu-8g,
-- which the history does not list, keeps the file's 5.38: nothing else prices that offer.
SELECT s.instance_type, s.pricing, s.usd_per_gpu_hour AS catalog, h.usd_per_gpu_hour AS gcp_price_list,
       price_at(s.instance_type, 'gcp', s.pricing, '2026-02-16', 'us-central1') AS price_at,
       split_part(s.suspect, ' that ', 1) AS suspect
  FROM price_snapshot s
  LEFT JOIN LATERAL (SELECT o.usd_per_gpu_hour FROM price_snapshot o
                      WHERE o.source LIKE 'GCP price history%' AND o.provider = 'gcp' AND o.region = s.region
                        AND o.instance_type = s.instance_type AND o.pricing = s.pricing AND o.observed_at <= s.observed_at
                      ORDER BY o.observed_at DESC LIMIT 1) AS h ON true
 WHERE s.provider = 'gcp' AND s.observed_at = '2026-02-15' AND s.source LIKE 'SkyPilot%'
   AND (s.suspect IS NOT NULL OR s.instance_type IN ('a3-highgpu-8g', 'a3-edgegpu-8g', 'a2-highgpu-1g'))
 ORDER BY 1, 2;
-- what the GCP imports skipped, counted from the files: the a3-highgpu-1g/2g/4g machine rows no
-- H100 accelerator row of their count pairs with (the 2024 files list H100 rows by 8 only, so
-- nothing prices their GPUs; the 2026 file lists 1, 2, 4 and 8) and the P100 and P4 rows (GPUs
-- gpu_sku does not know) -- 18, 21 and 12, the import's skipped counts above.  a3-edgegpu-8g-nolssd
-- and a3-ultragpu-8g-nolssd, which instance_type does not know, are priced with the 8 GPUs of
-- their accelerator rows (unverified); a4-highgpu-8g's machine row is priced 0 (not listed).
SELECT day, count(*) FILTER (WHERE instance_type ~ '^a3-highgpu-[124]g$'
                               AND NOT EXISTS (SELECT 1 FROM cat a WHERE a.cloud = 'gcp' AND a.day = c.day AND a.instance_type = ''
                                                 AND a.accel = 'H100' AND a.zone = c.zone
                                                 AND a.n = substring(c.instance_type from '-([0-9])g$')::numeric)) AS unpaired_machine_rows,
       count(*) FILTER (WHERE accel IN ('P100', 'P4') AND price > 0) AS unknown_gpu_rows
  FROM cat c WHERE cloud = 'gcp' GROUP BY day ORDER BY day;
-- GCP's accelerator rows of the GPUs GCP attaches to N1 machines are priced alone, per GPU
-- (T4, V100); P100 and P4 are GPUs gpu_sku does not know (skipped, named).
SELECT c.accel, string_agg(DISTINCT c.n::text, ',') AS counts,
       (SELECT string_agg(DISTINCT p.sku, ',') FROM price_snapshot p
         WHERE p.provider = 'gcp' AND p.instance_type IS NULL AND p.sku = llm_econ._sku_find(c.accel)) AS stored_alone
  FROM cat c WHERE c.cloud = 'gcp' AND c.instance_type = '' AND c.accel IN ('T4', 'V100', 'P100', 'P4')
 GROUP BY c.accel ORDER BY c.accel;

-- ---- 3. slices are never offered as whole GPUs.  Azure spot A10 on 2024-02-01, by hand from the
-- 2024-01-15 file: whole A10s are NV36ads_A10_v5 0.8 (eastus, eastus2, westus2, westus3), NV36adms
-- 1.13, NV72ads 1.63 / 2 = 0.815; the slices' per-GPU-equivalents are cheaper (NV6ads 0.1135 x 6
-- = 0.681) and must not answer.
SELECT price_at('A10', 'azure', 'spot', '2024-02-01') AS a10_spot, price_at('A10', 'azure', 'on_demand', '2024-02-01') AS a10_on_demand;
SELECT region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance
  FROM cheapest_offers(run_spec(1e9, 2e10, 1, 'A10'), '2024-02-01', 'spot') ORDER BY usd_per_gpu_hour, region LIMIT 5;
SELECT count(*) AS slice_offers
  FROM cheapest_offers(run_spec(1e9, 2e10, 1, 'A10'), '2024-02-01', include_suspect => true) o
  JOIN instance_type i ON i.provider = o.provider AND i.instance_type = o.instance_type WHERE i.gpus < 1;

-- ---- 4. freshness from the last sighting, between and after real catalogs.  NC6s_v3 eastus on
-- demand: 3.06 in both Azure files, stored once (2023-08-15), last seen 2024-01-15.
SELECT observed_at::date, usd_per_gpu_hour, last_seen_at::date FROM price_snapshot
 WHERE provider = 'azure' AND instance_type = 'Standard_NC6s_v3' AND region = 'eastus' AND pricing = 'on_demand';
-- 2024-02-01, max_age 30 days: seen 17 days before (its last change was 170 days before): 3.06;
-- 2024-02-20, 36 days after the last catalog: unknown.  Between the two files (2023-11-01) the
-- price counts as seen: the rule is that a price listed unchanged before and after "at" held at
-- "at" (an offer seen again after "at" has age 0, docs/prices.md), so 30 days finds it.
SELECT price_at('V100', 'azure', 'on_demand', '2024-02-01', 'eastus', max_age => '30 days') AS feb_1,
       price_at('V100', 'azure', 'on_demand', '2023-11-01', 'eastus', max_age => '30 days') AS nov_1,
       price_at('V100', 'azure', 'on_demand', '2024-02-20', 'eastus', max_age => '30 days') AS feb_20;
-- A price that changed between the files is not seen again: eastus spot V100 was 0.935136 per GPU
-- in 2023-08 (NC6s_v3 0.935136, NC12s_v3 1.870272 / 2, NC24s_v3 3.740544 / 4) and 0.3978 in
-- 2024-01.  On 2023-11-01 the old price was last seen 78 days before: 30 days do not find it, 90 do.
SELECT price_at('V100', 'azure', 'spot', '2023-11-01', 'eastus', max_age => '30 days') AS nov_1_30d,
       price_at('V100', 'azure', 'spot', '2023-11-01', 'eastus', max_age => '90 days') AS nov_1_90d,
       price_at('V100', 'azure', 'spot', '2024-02-01', 'eastus', max_age => '30 days') AS feb_1_30d;
-- Lambda's 8x V100 is listed at 4.4 / 8 = 0.55 in 2023-06 and again in 2025-10, 28 months later;
-- by the same rule it counts as seen in June 2024 although no file of that year lists it.
SELECT price_at('V100', 'lambda', 'on_demand', '2025-10-15', 'us-east-1', max_age => '30 days') AS v100_oct_2025,
       price_at('V100', 'lambda', 'on_demand', '2024-06-15', 'us-east-1', max_age => '30 days') AS v100_jun_2024;
-- withdrawn: ND96amsr_A100_v4 in westus2 is in the 2023-08 file, not in the 2024-01 one
SELECT price_at('A100-80GB', 'azure', 'spot', '2024-01-01', 'westus2') AS before, price_at('A100-80GB', 'azure', 'spot', '2024-01-16', 'westus2') AS after;
-- every stored catalog price's last sighting is the latest file that lists it at that price (the
-- 2025 AWS cut lists no G machine: their offers, kept, were last seen in 2023)
SELECT count(*) AS wrong_last_seen FROM price_snapshot p
 WHERE p.source LIKE 'SkyPilot%' AND p.usd_per_gpu_hour IS NOT NULL
   AND p.last_seen_at IS DISTINCT FROM (
       SELECT max(i.observed_at) FROM price_import i
        WHERE i.provider = p.provider AND i.source = p.source AND i.observed_at >= p.observed_at
          AND (i.provider <> 'aws' OR EXISTS (SELECT 1 FROM cat c WHERE c.cloud = 'aws' AND c.day = i.observed_at::date
                                                AND c.instance_type = p.instance_type AND c.region = p.region))
          AND NOT EXISTS (SELECT 1 FROM price_snapshot q WHERE q.series_id = p.series_id
                            AND q.observed_at > p.observed_at AND q.observed_at <= i.observed_at));

-- ---- 5. imports that would damage history are refused
-- a cut download: the header only, then the first 20 rows of the 2024-01 Azure file
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'azure',
       split_part(:'az2', E'\n', 1) || E'\n', '2024-02-01')) AS header_only;
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'azure',
       array_to_string((string_to_array(:'az2', E'\n'))[1:21], E'\n'), '2024-02-01')) AS first_20_rows;
-- another cloud's file
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'gcp', :'az2', '2024-02-01')) AS azure_as_gcp;
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'runpod', :'la2', '2025-10-02')) AS lambda_as_runpod;
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'aws', :'la2', '2025-10-02')) AS lambda_as_aws;
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', :'az1', '2025-10-02')) AS azure_as_lambda;
-- nothing of those was stored
SELECT provider, count(*) FROM price_snapshot WHERE source LIKE 'SkyPilot%' GROUP BY 1 ORDER BY 1;

-- ---- 6. cheapest offers at each date, against figures from the files (catalog offers only)
-- 8 H100 SXM on 2023-09-01 (2023-08 file): ND96is northcentralus 106.186 / 8 = 13.27325 on demand,
-- 26.5465 / 8 = 3.3183125 spot; ND96isr 117.984 / 8 = 14.748, 29.496 / 8 = 3.687.
-- On 2024-02-01 (2024-01 file): ND96is eastus2 88.488 / 8 = 11.061, ND96isr eastus 98.32 / 8 = 12.29.
SELECT d::date AS at, o.pricing, o.instance_type, o.region, o.usd_per_gpu_hour
  FROM (VALUES ('2023-09-01'::timestamptz), ('2024-02-01')) AS v(d),
       LATERAL (SELECT DISTINCT ON (pricing) * FROM cheapest_offers(run_spec(7e9, 1e12, 8, 'H100-SXM5'), v.d,
                                                                  source_kinds => ARRAY['catalog'])
                 WHERE provider = 'azure' ORDER BY pricing, usd_per_gpu_hour) AS o
 ORDER BY 1, 2;
-- the same by plain SQL over the CSV rows: the cheapest per-GPU price of the ND H100 machines per date
SELECT day, min(price / 8) AS on_demand, min(spot / 8) AS spot FROM cat
 WHERE cloud = 'azure' AND instance_type LIKE 'Standard_ND96is%H100_v5' AND price > 0 GROUP BY day ORDER BY day;
-- Lambda B200 (not in instance_type, unverified, counts 2 and 8 from the names) in 2025-10: 39.92 / 8 = 4.99
SELECT provider, pricing, instance_type, usd_per_gpu_hour, gpus_per_instance
  FROM cheapest_offers(run_spec(7e9, 1e12, 8, 'B200'), '2025-10-02', source_kinds => ARRAY['catalog'])
 WHERE provider = 'lambda' ORDER BY usd_per_gpu_hour, region LIMIT 1;

-- AWS 2023-04 (us-east-1, by hand from the file), 8 GPUs, machines of at least the V100's node
-- size of 8 GPUs (docs/prices.md): V100 on demand p3.16xlarge 24.48 / 8 = 3.06; spot its cheapest
-- zone us-east-1c 8.0726 / 8 = 1.009075 (p3.8xlarge's 3.672 / 4 = 0.918 is a 4-GPU machine);
-- A100 80GB: p4de.24xlarge 40.96575 / 8 = 5.12071875, no spot offer in the file.
SELECT o.sku, o.pricing, o.usd_per_gpu_hour, o.instance_type, o.gpus_per_instance
  FROM (SELECT 'V100' AS sku, x.* FROM cheapest_offers(run_spec(7e9, 1e12, 8, 'V100', dtype => 'fp16'), '2023-05-01', source_kinds => ARRAY['catalog']) x
        UNION ALL
        SELECT 'A100-80GB', x.* FROM cheapest_offers(run_spec(7e9, 1e12, 8, 'A100-80GB'), '2023-05-01', source_kinds => ARRAY['catalog']) x) o
 WHERE o.provider = 'aws' ORDER BY 1, 2;
-- g4dn.16xlarge (one T4, 64 vCPUs: 4.352 per GPU against 0.526 for g4dn.xlarge) is a real price:
-- it is judged against its own other regions now, not against the smaller T4 machines (it was
-- stored suspect at 4.45 x the median of the 7 AWS T4 offers, and left out of the answers)
SELECT instance_type, pricing, usd_per_gpu_hour, suspect FROM price_snapshot
 WHERE provider = 'aws' AND instance_type = 'g4dn.16xlarge' ORDER BY pricing;
SELECT price_at('g4dn.16xlarge', 'aws', 'on_demand', '2023-05-01') AS g4dn_16xlarge_on_demand,
       price_at('g4dn.16xlarge', 'aws', 'spot', '2023-05-01') AS g4dn_16xlarge_spot;

-- AWS 2025-10 (the v8 file): 8 GPUs.  H100 on demand p5.48xlarge 55.04 / 8 = 6.88 (us-east-1,
-- us-east-2, us-west-2); spot ap-southeast-3 7.5955 / 8 = 0.9494375, AWS's spot price there sitting
-- at a tenth of the on-demand 75.9552 (so are p5.4xlarge's and p5e's; a real listed price, not
-- more than 3x from the machine's other regions: not suspect, docs/prices.md); the next is
-- us-east-1 14.246 / 8 = 1.78075 (use1-az5; use1-az1/az4 list spot at the on-demand 55.04).  H200:
-- p5en 63.296 / 8 = 7.912, spot p5e ap-southeast-3 8.7348 / 8 = 1.09185 (p5e has no on-demand
-- price: capacity blocks only).  B200: p6-b200 113.9328 / 8 = 14.2416, spot us-east-1 19.0919 / 8.
SELECT o.sku, o.pricing, o.region, o.usd_per_gpu_hour, o.instance_type
  FROM (SELECT DISTINCT ON (s.sku, x.pricing) s.sku, x.*
          FROM unnest(ARRAY['H100-SXM5', 'H200-SXM5', 'B200']) AS s(sku),
               cheapest_offers(run_spec(7e9, 1e12, 8, s.sku), '2025-10-02', source_kinds => ARRAY['catalog']) x
         WHERE x.provider = 'aws' ORDER BY s.sku, x.pricing, x.usd_per_gpu_hour, x.region) o
 ORDER BY 1, 2;
-- AWS by plain SQL over the CSV rows, both dates: per GPU = the cheapest zone of a region / the
-- machine's GPUs in instance_type, against price_at for the machine type the day after each file
CREATE TEMP TABLE aws_expected AS
SELECT c.day, c.instance_type, c.region, v.pricing, min(v.usd) AS expected
  FROM cat c JOIN instance_type i ON i.provider = 'aws' AND i.instance_type = c.instance_type
 CROSS JOIN LATERAL (VALUES ('on_demand', c.price / i.gpus), ('spot', c.spot / i.gpus)) AS v(pricing, usd)
 WHERE c.cloud = 'aws' AND v.usd > 0 AND EXISTS (SELECT 1 FROM gpu_sku g WHERE g.sku = i.sku)
 GROUP BY 1, 2, 3, 4;
SELECT day, count(*) AS compared, count(DISTINCT instance_type) AS machine_types,
       count(*) FILTER (WHERE price_at(instance_type, 'aws', pricing, (day + 1)::timestamptz, region) IS DISTINCT FROM expected) AS different
  FROM aws_expected GROUP BY day ORDER BY day;
SELECT day, instance_type, region, pricing, expected, price_at(instance_type, 'aws', pricing, (day + 1)::timestamptz, region) AS price_at
  FROM aws_expected WHERE price_at(instance_type, 'aws', pricing, (day + 1)::timestamptz, region) IS DISTINCT FROM expected
 ORDER BY 1, 2, 3, 4;
-- freshness across the AWS files: g4dn.xlarge (us-east-1, 0.526 on demand) is in the 2023 file
-- only, kept by withdraw_missing => false: in 2025 it is 30 months old, not found with max_age
-- 30 days; p3.2xlarge's 3.06, listed in both files, was last seen 2025-10-01.
SELECT price_at('g4dn.xlarge', 'aws', 'on_demand', '2025-10-02', 'us-east-1') AS g4dn_no_max_age,
       price_at('g4dn.xlarge', 'aws', 'on_demand', '2025-10-02', 'us-east-1', max_age => '30 days') AS g4dn_30d,
       price_at('p3.2xlarge', 'aws', 'on_demand', '2025-10-02', 'us-east-1', max_age => '30 days') AS p3_2xlarge_30d;

-- ---- 7. plans on the machine's network.  A 7B model on 8 to 64 H100 SXM in 2024-02: ND96isr_H100_v5
-- (3,200 Gbit/s per VM = 400 per GPU) may span machines; ND96is_H100_v5 (no InfiniBand, network not
-- known) and the Lambda machines (no fabric between on-demand instances) only fit in one.
CREATE TEMP TABLE plans AS
SELECT p.* FROM cheapest_plan(run_spec(7e9, 2e11, 8, 'H100-SXM5', n_layers => 32, d_model => 4096, n_heads => 32,
                                       seq_len => 4096, global_batch => 1024),
                              interval '365 days', '2024-02-01', max_gpus => 64) AS p
 WHERE p.provider IN ('azure', 'lambda');
SELECT instance_type, pricing, min(n_gpus) AS min_gpus, max(n_gpus) AS max_gpus,
       string_agg(DISTINCT ((spec).inter_node_bytes_per_s * 8 / 1e9)::numeric(10,2)::text, ',') FILTER (WHERE n_gpus > 8) AS gbit_per_gpu_spanning
  FROM plans GROUP BY 1, 2 ORDER BY 1, 2;
-- AWS V100 in 2023-05: p3.16xlarge 25 Gbit/s per VM = 3.125 per GPU, p3.8xlarge 10 / 4 = 2.5,
-- p3dn.24xlarge 100 / 8 = 12.5; p3.2xlarge (network not known) only alone
INSERT INTO plans
SELECT p.* FROM cheapest_plan(run_spec(7e9, 2e11, 8, 'V100', dtype => 'fp16', n_layers => 32, d_model => 4096, n_heads => 32,
                                       seq_len => 4096, global_batch => 1024),
                              interval '3650 days', '2023-05-01', max_gpus => 64) AS p
 WHERE p.provider = 'aws';
SELECT instance_type, pricing, min(n_gpus) AS min_gpus, max(n_gpus) AS max_gpus,
       string_agg(DISTINCT ((spec).inter_node_bytes_per_s * 8 / 1e9)::numeric(10,3)::text, ',') FILTER (WHERE n_gpus > i.gpus) AS gbit_per_gpu_spanning
  FROM plans JOIN instance_type i USING (provider, instance_type) WHERE provider = 'aws' GROUP BY 1, 2 ORDER BY 1, 2;
-- AWS in 2025-10, offers seen in the last 30 days (g5.48xlarge's 2023 price, kept by
-- withdraw_missing => false, is left out): p5.48xlarge, p5e and p5en 3,200 Gbit/s per VM = 400 per
-- GPU, p4d/p4de 400 / 8 = 50, trn1.32xlarge 800 / 16 = 50 and trn1n.32xlarge 1,600 / 16 = 100
-- Trainium chips (every SKU's plans are listed); p6-b200 (network not verified) only as one 8-GPU instance;
-- p5.4xlarge (one GPU, network not known) cannot make 8 GPUs
CREATE TEMP TABLE plans_2025 AS
SELECT p.* FROM cheapest_plan(run_spec(7e9, 2e11, 8, 'H100-SXM5', n_layers => 32, d_model => 4096, n_heads => 32,
                                       seq_len => 4096, global_batch => 1024),
                              interval '365 days', '2025-10-02', max_gpus => 64, max_age => '30 days') AS p
 WHERE p.provider = 'aws';
SELECT instance_type, pricing, min(n_gpus) AS min_gpus, max(n_gpus) AS max_gpus,
       string_agg(DISTINCT ((spec).inter_node_bytes_per_s * 8 / 1e9)::numeric(10,3)::text, ',') FILTER (WHERE n_gpus > i.gpus) AS gbit_per_gpu_spanning
  FROM plans_2025 JOIN instance_type i USING (provider, instance_type) GROUP BY 1, 2 ORDER BY 1, 2;
INSERT INTO plans SELECT * FROM plans_2025;
SELECT count(*) FILTER (WHERE i.network_gbit_per_s IS NULL AND p.n_gpus > i.gpus) AS spanning_unknown_network,
       count(*) FILTER (WHERE i.network_gbit_per_s IS NOT NULL AND p.n_gpus > i.gpus
                          AND abs((p.spec).inter_node_bytes_per_s * 8 / 1e9 - (i.network_gbit_per_s / i.gpus)::float8) > 1e-9) AS wrong_network
  FROM plans p JOIN instance_type i ON i.provider = p.provider AND i.instance_type = p.instance_type;

ROLLBACK;
