-- series_id.sql: price series ids (0.3.0): one stable id per (sku, provider, pricing, region, instance_type), generated on price_snapshot and price_series, and the lookups that join by it.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET search_path = llm_econ, public;

-- 1. The id of a key is the one the core's unit test pins (test/unit/test_series.c): the same on
--    every platform and release, since it is stored.
SELECT _series_id('H100-SXM5', 'gcp', 'on_demand', 'us-central1', 'a3-highgpu-8g') AS pinned_id;

-- 2. NULL is a value of the key (provider-wide is another series than any region), and fields do
--    not run into each other.
SELECT _series_id('H100-SXM5', 'gcp', 'spot', NULL, NULL) <> _series_id('H100-SXM5', 'gcp', 'spot', '', NULL) AS null_is_not_empty,
       _series_id('H100-SXM5', 'gcp', 'spot', 'x', NULL) <> _series_id('H100-SXM5', 'gcp', 'spot', NULL, 'x') AS region_is_not_type,
       _series_id('ab', 'c', 'spot', NULL, NULL) <> _series_id('a', 'bc', 'spot', NULL, NULL) AS fields_kept_apart,
       _series_id('H100-SXM5', 'gcp', 'spot', NULL, NULL) IS NOT NULL AS nulls_give_an_id;

-- 3. The shipped prices: every observation carries its key's id, every series too, one series row
--    per id, and no observation without its series.
SELECT count(*) AS observations,
       count(*) FILTER (WHERE p.series_id <> _series_id(p.sku, p.provider, p.pricing, p.region, p.instance_type)) AS wrong_ids,
       count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM price_series s WHERE s.series_id = p.series_id)) AS without_series
  FROM price_snapshot p;
SELECT count(*) = count(DISTINCT series_id) AS one_row_per_id,
       count(*) FILTER (WHERE series_id <> _series_id(sku, provider, pricing, region, instance_type)) AS wrong_ids,
       count(*) = (SELECT count(DISTINCT series_id) FROM price_snapshot) AS as_many_as_observed
  FROM price_series;

-- 4. It is generated: a writer cannot set it.
INSERT INTO price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source, series_id)
VALUES ('2025-01-01', 'sidtest', 'H100-SXM5', 'on_demand', 2.5, 'series_id test', 42);

BEGIN;
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source) VALUES
  ('2025-01-01', 'sidtest', 'H100-SXM5', 'r1', 'on_demand', 2.50, 'series_id test'),
  ('2025-02-01', 'sidtest', 'H100-SXM5', 'r1', 'on_demand', 2.00, 'series_id test'),
  ('2025-01-01', 'sidtest', 'H100-SXM5', NULL, 'on_demand', 3.00, 'series_id test');
-- 5. A provider-wide series and a regional one are two series; the lookups follow each by its id.
SELECT region, series_id = _series_id(sku, provider, pricing, region, instance_type) AS id_of_key
  FROM price_series WHERE provider = 'sidtest' ORDER BY region NULLS FIRST;
SELECT price_at('H100-SXM5', 'sidtest', 'on_demand', '2025-01-15') AS cheapest_jan,
       price_at('H100-SXM5', 'sidtest', 'on_demand', '2025-03-01') AS cheapest_mar,
       price_at('H100-SXM5', 'sidtest', 'on_demand', '2025-03-01', 'r1') AS r1_mar,
       round(price_twap('H100-SXM5', 'sidtest', 'on_demand', tstzrange('2025-01-01', '2025-03-01'), 'r1'), 4) AS r1_twap;
SELECT region, valid_from, valid_to, usd_per_gpu_hour FROM price_series_spans
 WHERE provider = 'sidtest' ORDER BY region NULLS FIRST, valid_from;
-- 6. One observation per series and instant, by id.
SAVEPOINT s;
INSERT INTO price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
VALUES ('2025-02-01', 'sidtest', 'H100-SXM5', 'r1', 'on_demand', 9.99, 'series_id test');
ROLLBACK TO SAVEPOINT s;
-- 7. An update that moves rows to another series moves their id; the emptied series leaves
--    price_series, and lookups find the rows under the new key.
UPDATE price_snapshot SET region = 'r2' WHERE provider = 'sidtest' AND region = 'r1';
SELECT region, count(*) AS observations, bool_and(series_id = _series_id(sku, provider, pricing, region, instance_type)) AS ids_follow
  FROM price_snapshot WHERE provider = 'sidtest' GROUP BY region ORDER BY region NULLS FIRST;
SELECT region FROM price_series WHERE provider = 'sidtest' ORDER BY region NULLS FIRST;
SELECT price_at('H100-SXM5', 'sidtest', 'on_demand', '2025-03-01', 'r2') AS r2_mar;
ROLLBACK;

-- 8. A max_age reaching back past the earliest timestamp bounds nothing (0.2.0: "timestamp out
--    of range" from at - max_age).
SELECT price_at('H100-SXM5', 'gcp', 'on_demand', '2025-06-01', NULL, '100000 years')
       = price_at('H100-SXM5', 'gcp', 'on_demand', '2025-06-01') AS huge_max_age_is_no_bound;
--    So in every function taking a max_age (they raised 22008 from at - max_age or from
--    observed_at + max_age), and past the end of the range as well.
SELECT (SELECT count(*) FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '2025-06-01', NULL, '178000000 years'))
       = (SELECT count(*) FROM cheapest_offers(run_spec(7e9, 1.4e12, 8, 'H100-SXM5'), '2025-06-01')) AS offers_unbounded,
       price_twap('H100-SXM5', 'gcp', 'on_demand', '[2024-01-01, 2025-06-01)', NULL, '178000000 years')
       = price_twap('H100-SXM5', 'gcp', 'on_demand', '[2024-01-01, 2025-06-01)') AS twap_unbounded,
       (SELECT count(*) FROM cheapest_plan(run_spec(7e9, 1.4e12, 8, 'H100-SXM5', n_layers => 32, d_model => 4096,
                                                    n_heads => 32, seq_len => 4096, global_batch => 512),
                                           '300 days', '4000-01-01 BC', NULL, 64, '30000 years')) AS plans_4000_bc,
       llm_econ._shift('2025-06-01', '-178000000 years') AS back, llm_econ._shift('2025-06-01', '178000000 years') AS forward,
       llm_econ._shift('2025-06-01', '-1 month') AS one_month_back, llm_econ._shift('infinity', '-1 day') AS inf;
