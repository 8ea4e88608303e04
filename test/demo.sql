-- demo.sql: the main job of "./run.sh demo": the seed's worked examples and the cheapest provider for a run in a month.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET client_min_messages = warning;
CREATE EXTENSION llm_econ;
SET search_path = llm_econ, public;
\pset footer off

\echo
\echo '== Lab 00: 50M params, 43B tokens, 1x A100 80GB, MFU 0.40, $1.10/GPU-hour (seed: 28.7 h, $31.6)'
SELECT mfu_time(s) AS wall_time,
       round((extract(epoch FROM mfu_time(s)) / 3600)::numeric, 1) AS hours,
       round(estimate_cost(s, 1.10), 2) AS usd
  FROM run_spec(n_params => 5e7, n_tokens => 4.3e10, n_gpus => 1, sku => 'A100-80GB', mfu => 0.40) AS s;

\echo '== The seed''s scenario table, corrected (7B model; rows 2 and 3 were wrong in the seed)'
SELECT scenario,
       (tokens / 1e12)::text || 'T' AS tokens, gpus, price AS usd_per_gpu_hour,
       round((extract(epoch FROM mfu_time(s)) / 3600)::numeric, 1) AS hours,
       round((extract(epoch FROM mfu_time(s)) / 86400)::numeric, 1) AS days,
       to_char(estimate_cost(s, price), 'FM$9,999,999') AS cost
  FROM (VALUES
        (1, 'Chinchilla, 256x H100 spot retail, MFU 0.45',  1.4e12::float8, 256,  'H100-SXM5', 2.49, 0.45::float8),
        (2, 'Llama-2 shape, 1024x A100 spot, MFU 0.40',     2e12,           1024, 'A100-80GB', 1.10, 0.40),
        (3, 'Llama-3 shape, 2048x H100 spot, MFU 0.45',     15e12,          2048, 'H100-SXM5', 2.49, 0.45),
        (4, 'Chinchilla, 1024x H100 reserved, MFU 0.45',    1.4e12,         1024, 'H100-SXM5', 1.00, 0.45)
       ) AS t(n, scenario, tokens, gpus, sku, price, mfu),
       LATERAL run_spec(7e9, tokens, gpus, sku, mfu => mfu) AS s
 ORDER BY n;

-- The month comes from psql variable "month" (./run.sh demo passes MONTH, default 2024-06).
\if :{?month}
\else
\set month 2024-06
\endif
SELECT tstzrange(date_trunc('month', (:'month' || '-01')::timestamptz),
                 date_trunc('month', (:'month' || '-01')::timestamptz) + interval '1 month') AS month_range
\gset
\echo '== Cheapest provider for a run in a given month: Chinchilla 7B on 256x H100, month' :month
\echo '   (each provider and pricing at its time-weighted average price over the month, on machines the run can use,'
\echo '    with the share of the month the average covers; shipped seed and GCP data)'
WITH run AS (SELECT run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45) AS s),
     offers AS MATERIALIZED (SELECT DISTINCT provider, pricing FROM price_series WHERE sku = 'H100-SXM5')
SELECT o.provider, o.pricing, round(t.usd_per_gpu_hour, 4) AS avg_usd_per_gpu_hour, round(t.coverage, 2) AS coverage,
       mfu_time(run.s) AS wall_time, to_char(estimate_cost(run.s, t.usd_per_gpu_hour), 'FM$9,999,999') AS cost
  FROM run, offers AS o,
       LATERAL price_twap_coverage('H100-SXM5', o.provider, o.pricing, :'month_range', spec => run.s) AS t
 WHERE t.usd_per_gpu_hour IS NOT NULL
 ORDER BY t.usd_per_gpu_hour, o.provider, o.pricing;
