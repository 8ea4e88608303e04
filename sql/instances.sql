-- Instances are facts with sources (issue 31): instance_type resolves every import; unknown instances are judged by rules; imports refuse silent damage; plans use the instance's network.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;
\set SHOW_CONTEXT never
-- real SkyPilot catalog rows (skypilot-catalog catalogs/v5/azure/vms.csv at commit 3f5f697, the GPU rows)
\set azure `cat test/data/skypilot/azure_gpu_3f5f697.csv`
-- instance types the table does not know, in the same format
\set azure_unknown `cat test/data/skypilot/azure_unknown_siblings.csv`
\set aws `cat test/data/skypilot/aws_zones.csv`
\set lambda `cat test/data/skypilot/lambda_2023-06-15.csv`
\set runpod `cat test/data/skypilot/runpod_2024-01-08.csv`
\set l01 `cat test/data/skypilot/lambda_2024-01-15.csv`

-- ---- 1. every shipped instance type has a source, a known SKU, and agrees with gpu_sku_alias's count
SELECT provider, count(*) AS machine_types, count(network_gbit_per_s) AS with_network,
       count(*) FILTER (WHERE gpus < 1) AS slices
  FROM instance_type GROUP BY provider ORDER BY provider;
SELECT a.alias, a.gpus_per_instance, i.gpus FROM gpu_sku_alias a JOIN instance_type i ON i.instance_type = a.alias
 WHERE a.gpus_per_instance::numeric <> i.gpus OR a.sku <> i.sku;

-- ---- 2. the named Azure cases and their siblings, on real catalog rows
BEGIN;
-- (start from no catalog prices and no import dates, whatever other tests left)
DELETE FROM price_import; DELETE FROM price_snapshot WHERE source_kind = 'catalog';
SELECT * FROM import_skypilot_catalog('azure', :'azure', '2025-01-01');
-- per GPU computed from the CSV by hand: ND96is 88.488 / 8 = 11.061 and ND96isr 98.32 / 8 = 12.29 (8 GPUs,
-- not the catalog's 12); ND96asr 27.197 / 8; NC40ads and NC80adis are H100 NVL (6.98 / 1, 13.96 / 2);
-- NV6ads 0.454 / (1/6) = 2.724, NV12ads 0.908 / (1/3) = 2.724, NV18ads 1.6 / (1/2) = 3.2, NV36ads 3.2 / 1
SELECT instance_type, sku, gpus_per_instance, usd_per_gpu_hour, suspect IS NOT NULL AS suspect
  FROM price_snapshot
 WHERE provider = 'azure' AND pricing = 'on_demand' AND region IN ('eastus', 'eastus2')
 ORDER BY instance_type;
SELECT i.instance_type, p.usd_per_gpu_hour, round(c.price / i.gpus, 10) AS from_csv
  FROM instance_type i
  JOIN price_snapshot p ON p.provider = i.provider AND p.instance_type = i.instance_type AND p.pricing = 'on_demand' AND p.region = 'eastus'
  JOIN (VALUES ('Standard_ND96isr_H100_v5', 98.32), ('Standard_ND96asr_v4', 27.197), ('Standard_ND96amsr_A100_v4', 32.77),
               ('Standard_NC80adis_H100_v5', 13.96), ('Standard_NV6ads_A10_v5', 0.454), ('Standard_NV12ads_A10_v5', 0.908),
               ('Standard_NV18ads_A10_v5', 1.6), ('Standard_NV36ads_A10_v5', 3.2), ('Standard_NV72ads_A10_v5', 6.52)) AS c(it, price)
    ON c.it = i.instance_type
 WHERE i.provider = 'azure' AND p.usd_per_gpu_hour <> round(c.price / i.gpus, 10);
-- slices are no whole GPU's price: the cheapest A10 spot is NV36ads' 0.80, not NV6ads' 0.1135 (or 0.681 per GPU-equivalent)
SELECT price_at('A10', 'azure', 'spot', '2025-01-02') AS a10_spot, price_at('A10', 'azure', 'spot', '2025-01-02', 'westus') AS westus_only_slices,
       round(price_twap('A10', 'azure', 'spot', tstzrange('2025-01-01', '2025-01-02')), 4) AS twap;
SELECT provider, region, usd_per_gpu_hour, instance_type, gpus_per_instance
  FROM cheapest_offers(run_spec(1e8, 1e9, 1, 'A10'), '2025-01-02', 'spot', include_suspect => true);
-- the dashboard views: the day's cheapest A10 spot is 0.80 (NV36ads), over the 4 whole-GPU series (NV36ads in
-- two regions, NV36adms, NV72ads), not the 4 slice series (NV6ads in two regions, NV12ads, NV18ads)
SELECT "time"::date AS day, sku, provider, pricing, min_usd_per_gpu_hour, offers
  FROM price_daily_by_provider WHERE sku = 'A10' AND provider = 'azure' AND "time" = '2025-01-01' ORDER BY pricing;
-- the cheapest Azure H100 SXM is ND96is at 11.061, not 88.488 / 12 = 7.374; H100 NVL has its own SKU
SELECT provider, region, usd_per_gpu_hour, instance_type FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), '2025-01-02', 'on_demand');
SELECT price_at('H100-NVL', 'azure', 'on_demand', '2025-01-02') AS h100_nvl;
-- a machine type instance_type knows names its own price; a slice's is no whole GPU's price (NULL)
SELECT price_at('Standard_ND96is_H100_v5', 'azure', 'on_demand', '2025-01-02') AS nd96is,
       price_at('standard nc40ads h100 v5', 'azure', 'on_demand', '2025-01-02') AS nc40ads,
       price_at('Standard_NV6ads_A10_v5', 'azure', 'spot', '2025-01-02') AS nv6ads_slice,
       _known_gpus('Standard_ND96is_H100_v5') AS nd96is_gpus;
ROLLBACK;

-- ---- 3. rules for instance types the table does not know
BEGIN;
-- (start from no catalog prices and no import dates, whatever other tests left)
DELETE FROM price_import; DELETE FROM price_snapshot WHERE source_kind = 'catalog';
SELECT * FROM import_skypilot_catalog('azure', :'azure_unknown', '2025-01-01');
-- ND96isx (H100, 12 per machine) and ND96isy (4): their sibling ND96isr in the same file has the same 96 vCPUs
-- and 1900 GiB and 8 GPUs -> suspect (12 is also a count no H100 machine has); NC160adis_H100_v5: the name
-- says H100 NVL, 4 per machine is a count H100 machines have, no sibling of its size; ND48isr_A100_v4: 4 is
-- a count A100 boxes have, no sibling of its size; ND128isx (12, no sibling of its size): no H100 machine
-- holds 12 -> suspect by the count rule alone
SELECT instance_type, sku, gpus_per_instance, usd_per_gpu_hour, suspect
  FROM price_snapshot WHERE provider = 'azure' AND pricing = 'on_demand' ORDER BY instance_type;
-- a suspect offer is left out unless asked for
SELECT 'default' AS asked, provider, region, pricing, usd_per_gpu_hour, instance_type
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), '2025-01-02') WHERE provider = 'azure'
UNION ALL
SELECT 'include_suspect', provider, region, pricing, usd_per_gpu_hour, instance_type
  FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100'), '2025-01-02', include_suspect => true) WHERE provider = 'azure';
ROLLBACK;
-- the name rule on its own
SELECT n, _sku_of_name(p, n, a) FROM (VALUES ('azure', 'Standard_NC40ads_H100_v5', 'H100'), ('runpod', '1x_H100-NVL_SECURE', 'H100'),
       ('lambda', 'gpu_1x_a100_40gb_pcie', 'A100'), ('lambda', 'gpu_8x_a100_80gb_sxm4', 'A100-80GB'),
       ('aws', 'p5.48xlarge', 'H100'), ('azure', 'Standard_ND96isr_H100_v5', 'H100')) AS v(p, n, a);

-- ---- 4. AWS, Lambda and RunPod catalogs resolve through the table (GPU counts from the table, per GPU from the CSV)
BEGIN;
-- (start from no catalog prices and no import dates, whatever other tests left)
DELETE FROM price_import; DELETE FROM price_snapshot WHERE source_kind = 'catalog';
SELECT 'aws' AS cloud, * FROM import_skypilot_catalog('aws', :'aws', '2024-06-01')
UNION ALL SELECT 'lambda', * FROM import_skypilot_catalog('lambda', :'lambda', '2023-06-15')
UNION ALL SELECT 'runpod', * FROM import_skypilot_catalog('runpod', :'runpod', '2024-01-08');
-- every stored offer of a machine type the table knows has its SKU and count
SELECT count(*) AS stored, count(*) FILTER (WHERE i.sku = p.sku AND i.gpus = p.gpus_per_instance) AS as_the_table_says,
       count(*) FILTER (WHERE i.sku IS NULL) AS unknown
  FROM price_snapshot p LEFT JOIN instance_type i ON i.provider = p.provider AND i.instance_type = p.instance_type
 WHERE p.source_kind = 'catalog';
SELECT provider, instance_type, sku, gpus_per_instance, min(usd_per_gpu_hour) FILTER (WHERE pricing = 'on_demand') AS od
  FROM price_snapshot WHERE source_kind = 'catalog' AND instance_type IN ('p4d.24xlarge', 'p5.48xlarge', 'gpu_8x_a100_80gb_sxm4', 'gpu_1x_h100_pcie', '8x_H100_SECURE', '8x_H100-SXM_SECURE')
 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2;
ROLLBACK;

-- GCP: machine rows paired with accelerator rows through gcp_machine_family (data, not C) and the sizes in
-- instance_type (g2-standard-48: 4 L4); a size before a variant suffix counts (a3-edgegpu-8g-nolssd, a real
-- catalog name, skypilot-catalog GCP vms.csv at commit ddb8695: 208 vCPUs like a3-edgegpu-8g; the a3 machine
-- rows are that catalog's, the g2 and accelerator rows are written for the test).  By hand:
-- (9.46006 + 78.3724) / 8 = 10.9790575 and (3.78394 + 43.1048) / 8 = 5.8610925; (3.29998 + 2.24016) / 4 = 1.385035
\set gcp_nolssd `cat test/data/skypilot/gcp_nolssd.csv`
BEGIN;
DELETE FROM price_import; DELETE FROM price_snapshot WHERE source_kind = 'catalog';
SELECT inserted, skipped FROM import_skypilot_catalog('gcp', :'gcp_nolssd', '2024-06-01');
SELECT instance_type, sku, gpus_per_instance, pricing, usd_per_gpu_hour FROM price_snapshot
 WHERE source_kind = 'catalog' ORDER BY instance_type, pricing;
ROLLBACK;

-- ---- 5. imports refuse what would silently damage the history
-- a header-only file (22P04)
\set header_only 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n'
\set ON_ERROR_STOP 0
\i sql/include/error_report.sql
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'lambda', E'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n', '2024-01-01'));
-- another cloud's file (22023): AWS imported as gcp, Lambda imported as runpod, Azure imported as aws
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'gcp', :'aws', '2024-06-01'));
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'runpod', :'lambda', '2024-06-01'));
SELECT pg_temp.error_report(format('SELECT * FROM import_skypilot_catalog(%L, %L, %L)', 'aws', :'azure', '2024-06-01'));
-- withdrawals need evidence: a file cut off after a few rows lists under half the offers in effect
BEGIN;
-- (start from no catalog prices and no import dates, whatever other tests left)
DELETE FROM price_import; DELETE FROM price_snapshot WHERE source_kind = 'catalog';
SELECT inserted FROM import_skypilot_catalog('lambda', :'lambda', '2023-06-15');
SELECT count(*) AS lines FROM regexp_split_to_table(:'lambda', '\n') AS l WHERE l <> '';
\set lambda_cut `head -6 test/data/skypilot/lambda_2023-06-15.csv`
SAVEPOINT s;
SELECT * FROM import_skypilot_catalog('lambda', :'lambda_cut', '2023-07-01');
ROLLBACK TO s;
-- withdraw_missing => false keeps what the file does not list; true withdraws it
SELECT inserted, withdrawn FROM import_skypilot_catalog('lambda', :'lambda_cut', '2023-07-01', withdraw_missing => false);
SELECT count(*) AS lambda_offers_in_effect FROM price_series s
 CROSS JOIN LATERAL (SELECT usd_per_gpu_hour FROM price_snapshot p WHERE p.series_id = s.series_id AND p.observed_at <= '2023-07-02' ORDER BY observed_at DESC LIMIT 1) c
 WHERE s.provider = 'lambda' AND c.usd_per_gpu_hour IS NOT NULL;
SELECT inserted, withdrawn FROM import_skypilot_catalog('lambda', :'lambda_cut', '2023-07-02', withdraw_missing => true);
ROLLBACK;
-- a full later catalog withdraws without being asked (it lists at least half of the offers in effect)
BEGIN;
-- (start from no catalog prices and no import dates, whatever other tests left)
DELETE FROM price_import; DELETE FROM price_snapshot WHERE source_kind = 'catalog';
SELECT inserted FROM import_skypilot_catalog('lambda', :'l01', '2024-01-15');
\set l02 `cat test/data/skypilot/lambda_2024-02-15.csv`
SELECT inserted, withdrawn FROM import_skypilot_catalog('lambda', :'l02', '2024-02-15');
ROLLBACK;
\set ON_ERROR_STOP 1

-- ---- 6. plans use the network the instance has
-- the README's question: 70B on 15T tokens in 30 days.  a2-megagpu-16g (100 Gbit/s per VM = 6.25 per
-- GPU) no longer makes it; a3-highgpu-8g (1,000 Gbit/s per VM = 125 per GPU) does, and its spec says so
CREATE TEMP TABLE llama AS
SELECT run_spec(70e9, 15e12, 8, 'H100', n_layers => 80, d_model => 8192, n_heads => 64, n_kv_heads => 8,
                ffn_hidden => 28672, ffn_act => 'swiglu', vocab_size => 128256, seq_len => 8192,
                global_batch => 2048) AS m;
SELECT DISTINCT ON (sku) sku, provider, pricing, instance_type, n_gpus, tp, pp, dp, round(predicted_mfu::numeric, 3) AS mfu,
       round(((spec).inter_node_bytes_per_s * 8 / 1e9)::numeric, 2) AS net_gbit_per_gpu
  FROM llama, cheapest_plan(m, interval '30 days', at => '2026-07-01')
 ORDER BY sku, cost_usd;
-- the same layout on a2-megagpu-16g's network is far slower than at the old 400 Gbit/s default
SELECT round(predicted_mfu(run_spec(70e9, 15e12, 8192, 'A100-40GB', n_layers => 80, d_model => 8192, n_heads => 64, n_kv_heads => 8,
                ffn_hidden => 28672, ffn_act => 'swiglu', vocab_size => 128256, seq_len => 8192, global_batch => 2048,
                tp => 8, pp => 1, inter_node_gbit_per_s => g))::numeric, 3) AS mfu, g AS gbit_per_gpu
  FROM (VALUES (400), (100.0 / 16)) AS v(g);
-- every plan on an instance of unknown network fits in one instance; those spanning instances carry
-- the instance type's network per GPU
SELECT count(*) > 0 AS some_plans,
       count(*) FILTER (WHERE i.network_gbit_per_s IS NULL AND p.n_gpus > coalesce(i.gpus, 8)) AS spanning_unknown_network,
       count(*) FILTER (WHERE i.network_gbit_per_s IS NOT NULL AND p.n_gpus > i.gpus
                          AND abs((p.spec).inter_node_bytes_per_s * 8 / 1e9 - (i.network_gbit_per_s / i.gpus)::float8) > 1e-9) AS wrong_network
  FROM llama CROSS JOIN LATERAL cheapest_plan(run_spec(1e9, 2e10, 8, 'H100', n_layers => 16, d_model => 2048, n_heads => 16,
                                                       seq_len => 2048, global_batch => 256),
                                              interval '30 days', at => '2026-07-01', max_gpus => 64) AS p
  LEFT JOIN instance_type i ON i.provider = p.provider AND i.instance_type = p.instance_type;
