-- The seed's worked examples (DOMAIN.md §1), with the seed's two wrong scenario rows corrected.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- Worked example 1, lab 00: 50M params, 43B tokens, 1x A100 80GB at MFU 0.40, $1.10/h
-- seed: 1.03e5 s = 28.7 h, $31.6
SELECT training_flops(s) AS flops,
       round(extract(epoch FROM mfu_time(s))) AS seconds,
       mfu_time(s),
       round(gpu_hours(s)::numeric, 2) AS gpu_hours,
       round(estimate_cost(s, 1.10), 2) AS usd
  FROM run_spec(n_params => 5e7, n_tokens => 4.3e10, n_gpus => 1, sku => 'A100-80GB', mfu => 0.40) AS s;

-- Worked example 2: Chinchilla 7B (1.4T tokens) on 1024 H100 at MFU 0.45
-- seed: 35.8 h; $2.49/h -> ~$91.4k; $1.00/h reserved -> ~$36.7k
SELECT round(training_flops(s)::numeric / 1e22, 2) AS flops_e22,
       round((extract(epoch FROM mfu_time(s)) / 3600)::numeric, 1) AS hours,
       round(estimate_cost(s, 2.49), -2) AS usd_spot,
       round(estimate_cost(s, 1.00), -2) AS usd_reserved
  FROM run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45) AS s;

-- Worked example 3: the same run on 256 H100: 143 h = 6 days, same dollars
SELECT round((extract(epoch FROM mfu_time(s)) / 3600)::numeric, 1) AS hours,
       round((extract(epoch FROM mfu_time(s)) / 86400)::numeric, 1) AS days,
       round(estimate_cost(s, 2.49), -2) AS usd
  FROM run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45) AS s;

-- Cost per million tokens: the 256-GPU run above, 36,700.0 GPU-hours x $2.49 = $91,382.99 for
-- 1.4e12 tokens: $0.065274 per million (by hand: 6 x 7e9 x 1.4e12 / (0.45 x 989e12) / 3600 h);
-- at half the price, half; the same run on 1,024 GPUs, the same.  A bad spec or price is 22023.
SELECT round(usd_per_million_tokens(s, 2.49), 6) AS usd_per_m,
       round(usd_per_million_tokens(s, 1.245), 6) AS half_price,
       round(usd_per_million_tokens(run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45), 2.49), 6) AS on_1024_gpus
  FROM run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45) AS s;
SELECT usd_per_million_tokens(run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45), -1);

-- Cost does not depend on the GPU count under ideal scaling.
SELECT count(DISTINCT round(gpu_hours(run_spec(7e9, 1.4e12, g, 'H100-SXM5', mfu => 0.45))::numeric, 6)) AS distinct_gpu_hours
  FROM unnest(ARRAY[8, 64, 256, 1024, 4096]) AS g;

-- The scenario table, corrected (seed rows 2 and 3 were wrong; see README "Errata").
SELECT scenario, tokens, gpus, price,
       round((extract(epoch FROM mfu_time(s)) / 3600)::numeric, 1) AS hours,
       round((extract(epoch FROM mfu_time(s)) / 86400)::numeric, 1) AS days,
       round(estimate_cost(s, price), -2) AS usd
  FROM (VALUES
        (1, '7B Chinchilla, 256x H100 spot retail',  1.4e12::float8, 256,  'H100-SXM5', 2.49, 0.45::float8),
        (2, '7B Llama-2 shape, 1024x A100 spot',     2e12,           1024, 'A100-80GB', 1.10, 0.40),
        (3, '7B Llama-3 shape, 2048x H100 spot',     15e12,          2048, 'H100-SXM5', 2.49, 0.45),
        (4, '7B Chinchilla, 1024x H100 reserved',    1.4e12,         1024, 'H100-SXM5', 1.00, 0.45)
       ) AS t(n, scenario, tokens, gpus, sku, price, mfu),
       LATERAL run_spec(7e9, tokens, gpus, sku, mfu => mfu) AS s
 ORDER BY n;

-- The seed's Llama-2 row (8 d, $216k) implies MFU 0.38; at 0.45 it is 6.8 d / $183k.
SELECT round(achieved_mfu(s, interval '8 days')::numeric, 2) AS mfu_for_8_days,
       round((extract(epoch FROM mfu_time(s2)) / 86400)::numeric, 1) AS days_at_045,
       round(estimate_cost(s2, 1.10), -3) AS usd_at_045
  FROM run_spec(7e9, 2e12, 1024, 'A100-80GB', mfu => 0.40) AS s,
       run_spec(7e9, 2e12, 1024, 'A100-80GB', mfu => 0.45) AS s2;

-- Llama 2 7B: 184,320 A100-hours for 2T tokens (Touvron et al. 2023) implies MFU ~0.40 with 6ND.
SELECT round(achieved_mfu(run_spec(7e9, 2e12, 1, 'A100-80GB'), interval '184320 hours')::numeric, 3) AS llama2_7b_mfu;
-- achieved_mfu inverts mfu_time
SELECT round(achieved_mfu(s, mfu_time(s))::numeric, 6) AS round_trip
  FROM run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45) AS s;
-- months and days in the interval count as extract(epoch) counts them
SELECT achieved_mfu(s, interval '1 day') = achieved_mfu(s, interval '24 hours') AS day_is_24h
  FROM run_spec(7e9, 1.4e12, 1024, 'H100-SXM5') AS s;

-- Energy (DOMAIN.md §5): TDP x G x hours x PUE.
-- 1x A100 for 24 h = 9.6 kWh; 8x H100 for 24 h = 134.4 kWh; 1024x H100 for 30 days = 516 MWh.
SELECT round(energy_kwh(run_spec(1e6, 24 * 3600 * 0.4 * 312e12 / 6e6, 1, 'A100-80GB', mfu => 0.4))::numeric, 3) AS a100_day_kwh,
       round(energy_kwh(run_spec(1e6, 24 * 3600 * 0.4 * 989e12 * 8 / 6e6, 8, 'H100-SXM5', mfu => 0.4))::numeric, 3) AS h100x8_day_kwh,
       round(energy_kwh(run_spec(1e6, 30 * 24 * 3600 * 0.4 * 989e12 * 1024 / 6e6, 1024, 'H100-SXM5', mfu => 0.4))::numeric / 1000, 1) AS h100x1024_month_mwh,
       round(energy_kwh(run_spec(1e6, 30 * 24 * 3600 * 0.4 * 989e12 * 1024 / 6e6, 1024, 'H100-SXM5', mfu => 0.4)) * 0.10) AS usd_at_10c;
-- PUE multiplies; the default is 1.0
SELECT round((energy_kwh(s, 1.5) / energy_kwh(s))::numeric, 6) AS pue_ratio
  FROM run_spec(7e9, 1.4e12, 1024, 'H100-SXM5') AS s;

-- The functions aggregate like any other: total GPU-hours and cost of a portfolio of runs.
SELECT count(*) AS runs,
       round(sum(gpu_hours(s))::numeric) AS gpu_hours,
       round(sum(estimate_cost(s, 2.00)), 2) AS usd
  FROM generate_series(1, 10) AS i,
       LATERAL run_spec(i * 1e9, 20 * i * 1e9, 64, 'H100-SXM5') AS s;
