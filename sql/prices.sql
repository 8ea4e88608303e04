-- Shipped reference data and as-of price lookups (price_at, estimate_cost at a provider's price).
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- What ships: every row has a source.
SELECT 'gpu_sku' AS tbl, count(*) AS n, count(*) FILTER (WHERE source = '' OR source IS NULL) AS unsourced FROM gpu_sku
UNION ALL SELECT 'gpu_sku_alias', count(*), count(*) FILTER (WHERE source = '' OR source IS NULL) FROM gpu_sku_alias
UNION ALL SELECT 'mfu_reference', count(*), count(*) FILTER (WHERE source = '' OR source IS NULL) FROM mfu_reference
UNION ALL SELECT 'price_snapshot', count(*), count(*) FILTER (WHERE source = '' OR source IS NULL) FROM price_snapshot
ORDER BY 1;
SELECT count(*) FILTER (WHERE NOT builtin) AS user_rows FROM price_snapshot;

-- The SKU keys the docs and tests use are all there.
SELECT k AS sku, EXISTS (SELECT 1 FROM gpu_sku WHERE sku = k) AS present
  FROM unnest(ARRAY['A100-40GB', 'A100-80GB', 'H100-SXM5', 'H100-PCIe', 'H200-SXM5', 'B200', 'L4', 'A10G', 'V100']) AS k
 ORDER BY k;

-- The seed's SKU table (mid-2024), as shipped.
SELECT sku, hbm_gb, fp32_tflops, bf16_tflops, fp8_tflops, nvlink_gb_per_s, tdp_watts, list_price_usd_low, list_price_usd_high
  FROM gpu_sku WHERE sku IN ('A100-80GB', 'H100-SXM5', 'H200-SXM5', 'B200') ORDER BY bf16_tflops, hbm_gb;
-- The seed's MFU table.
SELECT config, hardware, mfu, year FROM mfu_reference ORDER BY year, config;

-- The seed's mid-2024 provider prices: dated rows, one per provider, SKU and pricing.
SELECT observed_at, provider, sku, pricing, usd_per_gpu_hour
  FROM price_snapshot WHERE provider <> 'gcp' ORDER BY sku, provider, pricing;
-- GCP history: per SKU and pricing, rows, withdrawals (NULL price) and the date span.
SELECT sku, pricing, count(*) AS observations, count(*) FILTER (WHERE usd_per_gpu_hour IS NULL) AS withdrawals,
       min(observed_at)::date AS first, max(observed_at)::date AS last
  FROM price_snapshot WHERE provider = 'gcp' GROUP BY 1, 2 ORDER BY 1, 2;

-- price_at: the latest observation at or before "at"; NULL before anything is known.
SELECT price_at('H100-SXM5', 'lambda', 'spot', '2024-07-01') AS after,
       price_at('H100-SXM5', 'lambda', 'spot', '2024-06-01 00:00+00') AS at_the_instant,
       price_at('H100-SXM5', 'lambda', 'spot', '2024-05-31 23:59:59+00') AS before;
-- SKU by alias in any case, provider in any case.
SELECT price_at('h100', 'Lambda', 'on_demand', '2024-07-01') AS by_alias,
       price_at('a100-80gb', 'RUNPOD', 'spot', '2024-07-01') AS runpod_spot;
-- A provider with no price series at all is an error naming the providers that have some; a
-- pricing with nothing known is NULL.
SELECT price_at('H100-SXM5', 'nosuchcloud', 'on_demand', '2024-07-01') AS unknown_provider;
SELECT price_at('H100-SXM5', 'coreweave', 'spot', '2024-07-01') AS no_spot_offer,
       price_at('H100-SXM5', 'lambda', 'reserved', '2024-07-01') AS no_reserved;
-- NULL arguments other than region give NULL, as a STRICT function would.
SELECT price_at(NULL, 'lambda') IS NULL AS null_sku, price_at('H100', 'lambda', 'spot', NULL) IS NULL AS null_at;

-- GCP, checked against values read independently from data/gcp_gpu_price_history.csv:
-- A100 80GB on demand in us-central1 on 2023-01-01: a2-ultragpu-1g at 5.027702 $/GPU-h;
-- on 2024-06-30 5.068798; cheapest region for H100 spot then: us-east4 at 6.101622;
-- L4 on demand, cheapest region on 2024-06-30: us-east4 at 0.704518.
SELECT price_at('A100-80GB', 'gcp', 'on_demand', '2023-01-01', 'us-central1') AS a100_80_2023,
       price_at('A100-80GB', 'gcp', 'on_demand', '2024-06-30 23:59:59+00', 'us-central1') AS a100_80_2024,
       price_at('H100', 'gcp', 'spot', '2024-06-30 23:59:59+00') AS h100_spot_cheapest,
       price_at('L4', 'gcp', 'on_demand', '2024-06-30 23:59:59+00') AS l4_cheapest;
-- northamerica-northeast2's A100 machines were withdrawn on 2024-08-17 12:36:16 UTC; their
-- prices before that were host-only (the machine without its GPUs, 0.605252 for a2-megagpu-16g)
-- and are removed from the shipped data (data/NOTICE.md): unknown before, withdrawn after, and
-- the region is still known (no error).
SELECT price_at('A100-40GB', 'gcp', 'on_demand', '2024-08-17 12:36:15+00', 'northamerica-northeast2') AS before_withdrawal,
       price_at('A100-40GB', 'gcp', 'on_demand', '2024-08-17 12:36:16+00', 'northamerica-northeast2') AS at_withdrawal,
       price_at('A100-40GB', 'gcp', 'on_demand', '2025-01-01', 'northamerica-northeast2') AS later;
-- Region NULL is the cheapest region; it is never above any single region's price.
SELECT bool_and(price_at('L4', 'gcp', 'on_demand', '2025-06-01') <= price_at('L4', 'gcp', 'on_demand', '2025-06-01', region)) AS cheapest_is_min
  FROM (SELECT DISTINCT region FROM price_snapshot WHERE provider = 'gcp' AND sku = 'L4') r;

-- A new observation holds from its instant until the next one of the same series.
BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
VALUES ('2024-09-01', 'lambda', 'H100-SXM5', 'spot', 1.99, 'test: price cut');
SELECT price_at('H100-SXM5', 'lambda', 'spot', '2024-08-31') AS old_price,
       price_at('H100-SXM5', 'lambda', 'spot', '2024-09-01') AS new_price,
       price_at('H100-SXM5', 'lambda', 'spot', '2026-01-01') AS still_new;
-- a regional row competes with the provider-wide one: region NULL takes the cheapest
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
VALUES ('2024-10-01', 'lambda', 'H100-SXM5', 'us-east-1', 'spot', 1.49, 'test: regional offer');
SELECT price_at('H100-SXM5', 'lambda', 'spot', '2024-10-02') AS cheapest,
       price_at('H100-SXM5', 'lambda', 'spot', '2024-10-02', 'us-east-1') AS in_region,
       price_at('H100-SXM5', 'lambda', 'spot', '2024-10-02', 'US-EAST-1') AS region_any_case;
-- a region the provider has no series in is an error with close matches
SAVEPOINT unknown_region;
SELECT price_at('H100-SXM5', 'lambda', 'spot', '2024-10-02', 'us-west-1') AS unknown_region;
ROLLBACK TO SAVEPOINT unknown_region;
-- withdrawing the regional offer (NULL price) brings back the provider-wide one
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
VALUES ('2024-11-01', 'lambda', 'H100-SXM5', 'us-east-1', 'spot', NULL, 'test: withdrawn');
SELECT price_at('H100-SXM5', 'lambda', 'spot', '2024-11-02') AS cheapest,
       price_at('H100-SXM5', 'lambda', 'spot', '2024-11-02', 'us-east-1') AS in_region;
ROLLBACK;

-- estimate_cost at a provider's price equals estimate_cost at that price.
SELECT estimate_cost(s, 'lambda', 'spot', '2024-07-01') AS looked_up,
       estimate_cost(s, 2.49) AS given,
       estimate_cost(s, 'lambda', 'spot', '2024-07-01') = estimate_cost(s, price_at('H100-SXM5', 'lambda', 'spot', '2024-07-01')) AS same
  FROM run_spec(7e9, 1.4e12, 1024, 'H100-SXM5', mfu => 0.45) AS s;
SELECT round(estimate_cost(s, 'gcp', 'on_demand', '2024-06-30 23:59:59+00', 'us-central1'), 2) AS gcp_us_central1
  FROM run_spec(5e7, 4.3e10, 1, 'A100-80GB') AS s;

-- Cheapest provider for a run in a given month: Chinchilla 7B on 256x H100, priced at each
-- provider's time-weighted average over June 2024 (every provider and pricing with a price then).
WITH run AS (SELECT run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45) AS s),
     offers AS MATERIALIZED (SELECT DISTINCT provider, pricing FROM price_series WHERE sku = 'H100-SXM5')
SELECT o.provider, o.pricing, round(t.usd, 4) AS avg_usd_per_gpu_hour, round(estimate_cost(run.s, t.usd)) AS cost_usd
  FROM run, offers AS o,
       LATERAL (SELECT price_twap('H100-SXM5', o.provider, o.pricing, '[2024-06-01, 2024-07-01)') AS usd) AS t
 WHERE t.usd IS NOT NULL
 ORDER BY cost_usd, o.provider, o.pricing;
