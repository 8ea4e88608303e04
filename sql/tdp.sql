-- Parts whose vendor publishes no per-chip power (TPU v5e/v5p/v6e, Trainium 1/2): gpu_sku.tdp_watts
-- NULL, frozen as NULL into run_spec; time, cost, memory and communication work, energy answers NULL.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- ---- the shipped parts ----------------------------------------------------------------------------
-- Only these five have no TDP, and each row's source says the power is not published.
SELECT sku, vendor, hbm_gb, hbm_gb_per_s, fp32_tflops, bf16_tflops, fp8_tflops, nvlink_gb_per_s,
       gpus_per_node, tdp_watts, source ~ 'power per chip not published' AS source_says_so
  FROM gpu_sku WHERE tdp_watts IS NULL ORDER BY sku;
-- The names clouds use for them resolve to the part (GKE accelerator labels, EC2 instance types).
SELECT a.alias, a.gpus_per_instance, (run_spec(1e9, 1e10, 1, a.alias)).sku
  FROM gpu_sku_alias a JOIN gpu_sku g USING (sku) WHERE g.tdp_watts IS NULL ORDER BY a.alias;
-- The column still rejects a wattage out of range (NULL means "not published", not "anything").
INSERT INTO gpu_sku (sku, vendor, name, hbm_gb, bf16_tflops, gpus_per_node, tdp_watts, source)
VALUES ('X-ZERO-W', 'Acme', 'Acme zero', 16, 100, 8, 0, 'test');

-- ---- a TPU v5p run: time, cost, memory and communication as for any part --------------------------
CREATE TEMP TABLE v5p AS
SELECT run_spec(7e9, 1.4e12, 256, 'tpu-v5p-slice', mfu => 0.45, n_layers => 32, d_model => 4096, n_heads => 32,
                seq_len => 4096, global_batch => 512, tp => 4, zero_stage => 1) AS s;
-- frozen: 459 TFLOP/s BF16, 95 GB, ICI 1,200 GB/s both ways = 600e9 B/s each way, 4,096 per domain, no TDP
SELECT (s).sku, (s).peak_flops, (s).hbm_bytes, (s).intra_node_bytes_per_s, (s).gpus_per_node, (s).tdp_watts
  FROM v5p;
-- GPU-hours = 6ND / (mfu · peak) / 3600, and the cost is GPU-hours · price
SELECT gpu_hours(s) AS gpu_hours,
       abs(gpu_hours(s) / (6 * 7e9 * 1.4e12 / (0.45 * 459e12) / 3600) - 1) < 1e-12 AS is_6nd_over_peak,
       mfu_time(s) AS wall,
       estimate_cost(s, 4.20) = gpu_hours(s)::numeric * 4.20 AS cost_is_hours_times_price
  FROM v5p;
SELECT m.weights_bytes, m.total_bytes, m.hbm_bytes, fits_hbm(s) FROM v5p, memory_per_gpu(s) AS m;
-- 256 chips in one ICI domain: every collective on the scale-up link
SELECT b.parallelism, b.collective, b.link FROM v5p, comm_breakdown(s) AS b ORDER BY 1, 2;
-- energy and carbon: NULL (three-valued: the answer needs the power), never a guess
SELECT energy_kwh(s) AS kwh, energy_kwh(s, 1.2) AS kwh_pue, carbon_kg(s, 0.4) AS kg,
       carbon_kg(s, 0.4, 1.5) AS kg_pue FROM v5p;
-- ... while their other arguments are still checked
SELECT energy_kwh(s, 0.5) FROM v5p;
SELECT carbon_kg(s, 3) FROM v5p;
-- the same run on TPU v4 (192 W published) has an energy: 192 W x GPU-hours / 1000
SELECT abs(energy_kwh(t) / (192 * gpu_hours(t) / 1000) - 1) < 1e-12 AS v4_energy_is_tdp_times_hours
  FROM run_spec(7e9, 1.4e12, 256, 'TPU-v4', mfu => 0.45) AS t;

-- ---- cost_breakdown --------------------------------------------------------------------------------
-- In the cloud, energy is in the price: 0, and the total is known.
SELECT b.component, b.usd IS NOT NULL AS known, b.assumption
  FROM v5p, cost_breakdown(s, 4.20) AS b WHERE b.component IN ('energy', 'total');
-- Owned: the energy row is NULL and says why; so is the total.  The other rows are unchanged.
SELECT b.component, b.usd, b.assumption
  FROM v5p, cost_breakdown(s, 2.00, owned => true) AS b WHERE b.component IN ('energy', 'total');
SELECT (SELECT array_agg(usd ORDER BY component) FROM cost_breakdown(s, 2.00, owned => true)
         WHERE component NOT IN ('energy', 'total'))
     = (SELECT array_agg(usd ORDER BY component) FROM cost_breakdown(s, 2.00)
         WHERE component NOT IN ('energy', 'total')) AS other_rows_same
  FROM v5p;

-- ---- tco_per_gpu_hour ------------------------------------------------------------------------------
-- The shipped TPUs and Trainium have no list price (an error, as for any such SKU).
SELECT tco_per_gpu_hour('TPU-v5p', 4, 0.8, 0.10, 1.2);
-- A user part with a price but no published power: NULL, unless energy is priced at 0, when it is
-- the hardware part alone: midpoint / (years · 8766 h · utilization).
INSERT INTO gpu_sku (sku, vendor, name, hbm_gb, bf16_tflops, gpus_per_node, list_price_usd_low, list_price_usd_high, source)
VALUES ('X-NO-POWER', 'Acme', 'Acme accelerator without a published TDP', 64, 400, 8, 10000, 14000, 'test fixture');
SELECT tco_per_gpu_hour('X-NO-POWER', 4, 0.8, 0.10, 1.2) AS with_energy,
       tco_per_gpu_hour('X-NO-POWER', 4, 0.8, 0, 1.2) = 12000 / (4 * 8766 * 0.8::numeric) AS hardware_part;
-- and a run on it: the constructor freezes no TDP
SELECT (s).tdp_watts, energy_kwh(s), gpu_hours(s) > 0 AS has_hours
  FROM run_spec(1e9, 2e10, 8, 'X-NO-POWER') AS s;
DELETE FROM gpu_sku WHERE sku = 'X-NO-POWER';

-- ---- a spec built by hand with tdp_watts NULL -------------------------------------------------------
-- field order: n_params, n_tokens, sku, n_gpus, gpus_per_node, mfu, dtype, peak_flops, hbm_bytes,
-- intra, inter, tdp_watts, n_layers, d_model, n_heads, seq_len, micro_batch, global_batch,
-- tp, pp, zero_stage, recompute, optimizer, then the 13 fields of 0.3.0
CREATE TEMP TABLE hand AS
SELECT ROW(7e9, 1.4e12, 'Trainium2', 64, 16, 0.4, 'bf16', 667e12, 96e9, 640e9, 50e9, NULL,
           NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw',
           NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec AS s;
SELECT _check_spec(s) AS valid, energy_kwh(s), carbon_kg(s, 0.4),
       abs(gpu_hours(s) / (6 * 7e9 * 1.4e12 / (0.4 * 667e12) / 3600) - 1) < 1e-12 AS hours_ok
  FROM hand;
SELECT b.component, b.usd IS NULL AS unknown, b.usd = gpu_hours(s)::numeric * 3.00 AS is_hours_times_price
  FROM hand, cost_breakdown(s, 3.00, owned => true) AS b
 WHERE b.component IN ('compute', 'energy', 'total');
-- present but out of range is still an error
SELECT energy_kwh(ROW(7e9, 1.4e12, 'Trainium2', 64, 16, 0.4, 'bf16', 667e12, 96e9, 640e9, 50e9, 0,
                      NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw',
                      NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
SELECT _check_spec(ROW(7e9, 1.4e12, 'Trainium2', 64, 16, 0.4, 'bf16', 667e12, 96e9, 640e9, 50e9, 'NaN',
                       NULL, NULL, NULL, NULL, 1, NULL, 1, 1, 0, 'none', 'adamw',
                       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::run_spec);
