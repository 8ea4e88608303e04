-- llm_econ 0.2.0 -> 0.3.0, part 45 (power not published): gpu_sku.tdp_watts may be NULL (the vendor
-- publishes no per-chip power), energy_kwh / carbon_kg / cost_breakdown / tco_per_gpu_hour answer NULL
-- for such a part instead of guessing, and the five parts this allows (TPU v5e, v5p, v6e, Trainium 1
-- and 2) with their cloud names.  Runs after 40_modern.sql (renamed columns, hbm_bytes).  After it,
-- an updated database equals a fresh 0.3.0 install (test/t/002_upgrade.pl).

ALTER TABLE llm_econ.gpu_sku ALTER COLUMN tdp_watts DROP NOT NULL;
COMMENT ON COLUMN llm_econ.gpu_sku.tdp_watts IS 'board power, W; NULL = not published (TPU v5e/v5p/v6e, Trainium): energy_kwh, carbon_kg and tco_per_gpu_hour are then NULL';
COMMENT ON COLUMN llm_econ.run_spec.tdp_watts IS 'board power per GPU, W (frozen); NULL = not published, energy and carbon are then NULL';

-- The C functions read NULL tdp_watts as unknown (the library is shared); their comments say so.
COMMENT ON FUNCTION llm_econ.energy_kwh(llm_econ.run_spec, float8) IS
  'energy in kWh: tdp_watts · n_gpus · hours · pue / 1000; pue in [1, 5]; NULL when the spec''s tdp_watts is NULL (the part''s power is not published)';
COMMENT ON FUNCTION llm_econ.carbon_kg(llm_econ.run_spec, float8, float8) IS
  'operational emissions in kg CO2e: energy_kwh(spec, pue) · kg_co2_per_kwh (grid intensity, location-based; in [0, 2]); pue in [1, 5]. Embodied carbon of the hardware is not counted. NULL when the spec''s tdp_watts is NULL (power not published)';
COMMENT ON FUNCTION llm_econ.cost_breakdown(llm_econ.run_spec, numeric, interval, interval, int4, float8, float8,
                                            numeric, float8, float8, numeric, boolean, numeric, float8, numeric) IS
  'the bill of a run, one row per component in this order, unrounded numeric USD, each with the numbers it used in words: '
  'compute = gpu_hours · usd_per_gpu_hour; '
  'checkpoint = compute · checkpoint_write / checkpoint_every (throughput lost writing; seed: every 30 min costs ~5%); '
  'storage = (checkpoints_kept · checkpoint_gb + dataset_gb) · storage_usd_per_gb_month · storage_months, GB = 10^9 bytes, '
  'checkpoint_gb NULL = weights + optimizer state per parameter · n_params (14 bytes for bf16 AdamW: 7B = 98 GB), dataset_gb NULL = 4 bytes per token · n_tokens; '
  'egress = egress_gb · egress_usd_per_gb (cross-region; 0 when co-located); '
  'energy = energy_kwh(spec, pue) · usd_per_kwh when owned, else 0 (in the cloud price; for an owned cluster pass an hourly price without energy, e.g. tco_per_gpu_hour(sku, years, utilization, 0, pue)); '
  'owned with the spec''s tdp_watts NULL (power not published): energy and total usd are NULL, the assumption says why; '
  'spot_buffer = compute · spot_buffer (seed: 10% for spot reclaims and ablations); total = the sum. '
  'Prices >= 0 and finite, spot_buffer in [0, 1], intervals > 0 with checkpoint_write < checkpoint_every, counts and GB >= 0, pue in [1, 5]. '
  'Not STRICT: only checkpoint_gb and dataset_gb may be NULL; another NULL is an error';

-- tco_per_gpu_hour: NULL for a part without published power (unless energy is priced at 0)
CREATE OR REPLACE FUNCTION llm_econ.tco_per_gpu_hour(sku text, years float8, utilization float8, usd_per_kwh numeric, pue float8)
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

-- ---- shipped data: the parts whose power is not published, as data/gpu_sku.csv and
-- data/gpu_sku_alias.csv hold them.  A user row that already holds one of these names (ignoring
-- case) is kept, and the shipped row, or an alias of a part the user holds under that name, is not added.
INSERT INTO llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, list_price_usd_low, list_price_usd_high, released, source, builtin) VALUES
  ('TPU-v5e', 'Google', 'Google Cloud TPU v5e', 16, NULL, 819, NULL, NULL, 197, NULL, NULL, 400, 64, 256, NULL, NULL, NULL, '2023-08-01', 'Google Cloud TPU v5e documentation (system architecture, key chip specifications): BF16 197 TFLOPS per chip (Int8 393 TOPS; no dense FP16/FP8 figure published), 16 GB HBM2 at 819 GB/s (hbm_bytes: no driver figure published), bidirectional ICI 400 GB/s per chip (held in nvlink_gb_per_s; older pages give 1,600 Gbit/s, the same link one way), 2D torus pods of 256 chips, so gpus_per_node is the ICI domain, 256 (8 chips per host); host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty: energy_kwh, carbon_kg and tco_per_gpu_hour are NULL); announced Google Cloud Next 2023-08', true),
  ('TPU-v5p', 'Google', 'Google Cloud TPU v5p', 95, NULL, 2765, NULL, NULL, 459, NULL, 459, 1200, 64, 4096, NULL, NULL, NULL, '2023-12-01', 'Google Cloud TPU v5p documentation (system architecture): BF16 459 TFLOPS per chip and FP8 459 TFLOPS (as listed; no sparsity), 95 GB HBM2e at 2,765 GB/s (newer pages write 95 GiB and 2,575 GiB/s; hbm_gb keeps 95, hbm_bytes empty: no driver figure), bidirectional ICI 1,200 GB/s per chip (held in nvlink_gb_per_s; older pages give 4,800 Gbit/s one way), 3D torus; the pod is 8,960 chips and the largest single slice 6,144 (16x16x24), above the 4,096 gpus_per_node allows, so gpus_per_node is 4,096 and a run on more chips counts traffic between 4,096-chip domains on the network; 4 chips per host; host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty); announced 2023-12', true),
  ('TPU-v6e', 'Google', 'Google Cloud TPU v6e (Trillium)', 32, NULL, 1638, NULL, NULL, 918, NULL, NULL, 800, 64, 256, NULL, NULL, NULL, '2024-05-01', 'Google Cloud TPU v6e documentation (system architecture): BF16 918 TFLOPS per chip (Int8 1,836 TOPS; no dense FP16/FP8 figure published), 32 GB HBM at 1,638 GB/s (hbm_bytes: no driver figure published), bidirectional ICI 800 GB/s per chip over 4 ports (held in nvlink_gb_per_s), 2D torus pods of 256 chips, so gpus_per_node is 256 (8 chips per host); host link PCIe Gen5 of unpublished width, the column default 64 is kept; power per chip not published (tdp_watts empty); Trillium announced Google I/O 2024-05', true),
  ('Trainium1', 'AWS', 'AWS Trainium', 32, NULL, 820, 47.5, 190, 190, 190, 190, 412.3, 64, 16, NULL, NULL, NULL, '2020-12-01', 'AWS Neuron documentation, Trainium architecture and Trn1/Trn1n architecture: 2 NeuronCore-v2 per chip, 190 FP16/BF16/cFP8/TF32 TFLOPS and 47.5 FP32 TFLOPS (no sparsity mode: dense), 32 GiB HBM at 820 GiB/s (hbm_gb keeps the published 32, hbm_bytes empty: no driver figure), NeuronLink-v2 384 GiB/s per chip in trn1.32xlarge = 412.3 GB/s (held in nvlink_gb_per_s; trn1n.32xlarge has 768 GiB/s), 16 chips per trn1.32xlarge in a 2D torus, so gpus_per_node is 16; host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty); announced AWS re:Invent 2020-12, Trn1 generally available 2022-10', true),
  ('Trainium2', 'AWS', 'AWS Trainium2', 96, NULL, 2900, 181, 667, 667, 667, 1299, 1280, 64, 16, NULL, NULL, NULL, '2023-11-01', 'AWS Neuron documentation, Trainium2 architecture: 8 NeuronCore-v3 per chip, dense 1,299 FP8, 667 BF16/FP16/TF32 and 181 FP32 TFLOPS (the 2,563 sparse figure is not used), 96 GiB HBM at 2.9 TB/s (hbm_gb keeps the published 96, hbm_bytes empty: no driver figure), NeuronLink-v3 1.28 TB/s per chip (held in nvlink_gb_per_s), 16 chips per trn2.48xlarge in a 4x4 2D torus, so gpus_per_node is 16 (a Trn2 UltraServer joins 4 instances, 64 chips: pass gpus_per_node => 64); host link not published, the column default 64 is kept; power per chip not published (tdp_watts empty); announced AWS re:Invent 2023-11, Trn2 generally available 2024-12', true)
ON CONFLICT DO NOTHING;
INSERT INTO llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source, builtin)
SELECT v.alias, v.sku, v.gpus_per_instance, v.source, v.builtin FROM (VALUES
  ('tpu-v5-lite-podslice', 'TPU-v5e', NULL, 'GKE accelerator name of TPU v5e slices (cloud.google.com/gke-tpu-accelerator node label; Google Cloud TPU v5e and GKE TPU documentation)', true),
  ('tpu-v5p-slice', 'TPU-v5p', NULL, 'GKE accelerator name of TPU v5p slices (cloud.google.com/gke-tpu-accelerator node label; Google Cloud TPU v5p and GKE TPU documentation)', true),
  ('tpu-v6e-slice', 'TPU-v6e', NULL, 'GKE accelerator name of TPU v6e slices (cloud.google.com/gke-tpu-accelerator node label; Google Cloud TPU v6e and GKE TPU documentation)', true),
  ('Trillium', 'TPU-v6e', NULL, 'Google''s product name of TPU v6e (Google Cloud TPU v6e documentation: Trillium is referred to as v6e)', true),
  ('Trainium', 'Trainium1', NULL, 'AWS''s name of the first Trainium chip (AWS Neuron documentation, Trainium architecture)', true),
  ('trn1.2xlarge', 'Trainium1', 1, 'AWS EC2 instance type with 1 Trainium chip (AWS Neuron documentation, Trn1/Trn1n architecture)', true),
  ('trn1.32xlarge', 'Trainium1', 16, 'AWS EC2 instance type with 16 Trainium chips (AWS Neuron documentation, Trn1/Trn1n architecture)', true),
  ('trn1n.32xlarge', 'Trainium1', 16, 'AWS EC2 instance type with 16 Trainium chips and twice the NeuronLink-v2 bandwidth of trn1.32xlarge (768 GiB/s per chip; the SKU row holds 384) (AWS Neuron documentation, Trn1/Trn1n architecture)', true),
  ('trn2.48xlarge', 'Trainium2', 16, 'AWS EC2 instance type with 16 Trainium2 chips (AWS Neuron documentation, Trn2 architecture)', true)
) AS v(alias, sku, gpus_per_instance, source, builtin)
 WHERE EXISTS (SELECT FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) v.sku AND g.builtin)
ON CONFLICT DO NOTHING;
