-- Issue 45: a catalog row's GPU is what its own facts (GpuInfo memory, spelled size and form, GPU count) agree with.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;
SET client_min_messages = warning;
\set SHOW_CONTEXT never
BEGIN;
DELETE FROM price_snapshot WHERE source LIKE 'SkyPilot%';
DELETE FROM price_import WHERE source LIKE 'SkyPilot%';
-- Fluidstack, catalogs/v6/fluidstack/vms.csv (test/data/skypilot/README.md): H100_NVLINK_80GB::8 is an
-- 8x H100 80 GB (GpuInfo 81920 MiB), not the 94 GB H100 NVL that the name rule 'h100 nvl' once read in NVLINK
\set fs `cat test/data/skypilot/fluidstack/2025-01-15/vms.csv`
SELECT inserted, skipped FROM import_skypilot_catalog('fluidstack', :'fs', '2025-01-15');
SELECT instance_type, sku, gpus_per_instance, usd_per_gpu_hour FROM price_snapshot
 WHERE provider = 'fluidstack' ORDER BY instance_type COLLATE "C", region COLLATE "C" LIMIT 40;
-- GpuInfo's memory as the importer reads it
SELECT DISTINCT instance_type, gpu_mib FROM _skypilot_offers('fluidstack', :'fs') ORDER BY 1;
-- names that spell memory and form resolve; a name rule the facts contradict never decides
SELECT n.accel, n.itype, n.mib, n.gpus, f.sku, f.why
  FROM (VALUES ('H100-80GB-HBM3', '8x_H100-80GB-HBM3_SECURE', NULL::int4, 8),
               ('A100-SXM4-80GB', 'x', NULL, 8),
               ('H200-141GB-HBM3e', 'x', NULL, 8),
               ('H100', 'H100_NVLINK_80GB::8', 81920, 8),      -- Fluidstack: NVLINK is not NVL
               ('H100', 'h100_nvlink_x8', 81920, 8),           -- another label containing NVLINK
               ('H100', 'H100-NVL-94GB', 96256, 2),            -- the real NVL (94 GB)
               ('H100', 'h100_nvl', 81920, 2),                 -- NVL by name, 80 GB by facts: skipped, with why
               ('A100', 'A100_PCIE_40GB', NULL, 1),
               ('A100', 'weird_a100_pcie', 81920, 1),
               ('H100', 'h100_sxm_8x', 40960, 8),              -- 40 GB: no H100 has that: skipped
               ('A100', 'a100_pcie', 24576, 1),
               ('L4', 'x', 22888, 1),                          -- AWS writes L4 as 22888 MiB (24 GB decimal)
               ('L4', 'x', 24576, 1),
               ('H100', 'x', 81920, 12),                       -- 12 GPUs: no H100 machine holds that many
               ('H200', 'x', NULL, 8)) AS n(accel, itype, mib, gpus)
 CROSS JOIN LATERAL _sku_by_facts(ARRAY[_sku_of_name('fluidstack', n.itype, n.accel), _sku_find(n.itype), _sku_find(n.accel)],
                                  _gpu_family(n.accel), _sku_find(_gpu_family(n.accel)), n.itype || ' ' || n.accel, n.mib, n.gpus) AS f;
-- RunPod: A100-80GB is the PCIe part in both tiers (the _COMMUNITY types have no alias)
SELECT _sku_of_name('runpod', '2x_A100-80GB_COMMUNITY', 'A100-80GB') AS community, _sku_of_name('runpod', '2x_A100-80GB_SECURE', 'A100-80GB') AS secure,
       _sku_of_name('lambda', 'gpu_1x_a100_80gb', 'A100-80GB') AS lambda_by_name;
ROLLBACK;
