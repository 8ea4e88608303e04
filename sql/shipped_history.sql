-- The shipped GCP change points (data/gcp_gpu_price_history_change_points.csv, COPY'd by the install script) are exactly what the loader makes of the raw history (data/gcp_gpu_price_history.csv), ids included, less the rows the corrections file (data/gcp_gpu_price_history_corrections.csv) removes.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
\set SHOW_CONTEXT never

SELECT c.setting || '/extension/llm_econ/' AS dir FROM pg_catalog.pg_config() c WHERE c.name = 'SHAREDIR' \gset
SELECT last_value AS seq_last, is_called AS seq_called FROM llm_econ.price_snapshot_id_seq \gset

BEGIN;
CREATE TEMP TABLE shipped (id bigint, observed_at timestamptz, provider text, sku text, region text, pricing text,
                           usd_per_gpu_hour text, instance_type text, gpus_per_instance int4,   -- prices as text: 2.0 <> 2.00
                           last_seen_at timestamptz);
-- (the COPY statements name the installation's share directory: not echoed)
\set ECHO none
SELECT format('COPY shipped FROM %L WITH (FORMAT csv, HEADER MATCH)', :'dir' || 'gcp_gpu_price_history_change_points.csv') \gexec
\set ECHO all

-- The installed GCP rows are the shipped ones, with the same ids and values.
SELECT (SELECT count(*) FROM shipped) AS shipped,
       (SELECT count(*) FROM llm_econ.price_snapshot p WHERE p.builtin AND p.provider = 'gcp') AS installed,
       (SELECT count(*) FROM shipped s
         WHERE NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p WHERE p.id = s.id)) AS not_installed,
       (SELECT count(*) FROM shipped s JOIN llm_econ.price_snapshot p USING (id)
         WHERE (s.observed_at, s.provider, s.sku, s.region, s.pricing, s.usd_per_gpu_hour, s.instance_type, s.gpus_per_instance, s.last_seen_at)
               IS DISTINCT FROM
               (p.observed_at, p.provider, p.sku, p.region, p.pricing, p.usd_per_gpu_hour::text, p.instance_type, p.gpus_per_instance, p.last_seen_at)
            OR p.source_kind <> 'history' OR NOT p.builtin) AS installed_differently;

-- Load the raw history through the loader into a price_snapshot without GCP rows, the id
-- sequence where the install starts the history (after the seed rows), as
-- src/gen_history_points.sh does to write the file.
DELETE FROM llm_econ.price_snapshot WHERE provider = 'gcp';
SELECT setval('llm_econ.price_snapshot_id_seq', (SELECT min(id) - 1 FROM shipped)) AS history_starts_after_id;
\set ECHO none
SELECT format('COPY llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, '
              'accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, '
              'spot_price_per_gpu_usd_per_hour) FROM %L WITH (FORMAT csv, HEADER MATCH)',
              :'dir' || 'gcp_gpu_price_history.csv') \gexec
\set ECHO all
SELECT * FROM llm_econ._load_price_history(
  source => 'GCP price history 2022-02..2026-08, Cyclenerd/google-cloud-pricing-cost-calculator (Apache-2.0), via data/gcp_gpu_price_history.csv',
  on_mismatch => 'skip', quiet => true);

-- The rows known to be wrong (host-only machine prices: data/NOTICE.md) go, as
-- src/gen_history_points.sh removes them from the file and the update from 0.2.0 from a database.
\set ECHO none
\i src/correct_history.sql
\set ECHO all

-- Every loaded row is a shipped row with the same id, and the other way round: no rows below.
SELECT 'loaded, not shipped' AS side, p.id, p.observed_at, p.sku, p.region, p.pricing, p.usd_per_gpu_hour, p.instance_type
  FROM (SELECT id, observed_at, provider, sku, region, pricing, usd_per_gpu_hour::text, instance_type, gpus_per_instance, last_seen_at
          FROM llm_econ.price_snapshot WHERE provider = 'gcp'
        EXCEPT SELECT * FROM shipped) p
UNION ALL
SELECT 'shipped, not loaded', s.id, s.observed_at, s.sku, s.region, s.pricing, s.usd_per_gpu_hour, s.instance_type
  FROM (SELECT * FROM shipped
        EXCEPT SELECT id, observed_at, provider, sku, region, pricing, usd_per_gpu_hour::text, instance_type, gpus_per_instance, last_seen_at
                 FROM llm_econ.price_snapshot WHERE provider = 'gcp') s
 ORDER BY 2, 1
 LIMIT 10;
SELECT count(*) AS loaded, count(*) FILTER (WHERE source_kind = 'history') AS of_kind_history,
       count(*) FILTER (WHERE usd_per_gpu_hour IS NULL) AS withdrawals
  FROM llm_econ.price_snapshot WHERE provider = 'gcp';
ROLLBACK;
SELECT setval('llm_econ.price_snapshot_id_seq', :seq_last, :'seq_called'::boolean) = :seq_last AS sequence_restored;

-- The shipped daily summary (data/price_daily_group.csv, data/price_daily_summary.csv, COPY'd
-- by the install script) is what _price_daily_refresh makes of the installed prices: rebuild it
-- from scratch, as an updated install does, and compare (prices as text: 2.0 <> 2.00).
BEGIN;
CREATE TEMP TABLE shipped_group AS SELECT sku, provider, pricing, last_day FROM llm_econ.price_daily_group;
CREATE TEMP TABLE shipped_summary AS
  SELECT "time", sku, provider, pricing, offers, min_usd::text, median_usd::text, max_usd::text, sum_usd::text
    FROM llm_econ.price_daily_summary;
DELETE FROM llm_econ.price_daily_summary;
DELETE FROM llm_econ.price_daily_group;
INSERT INTO llm_econ.price_daily_group (sku, provider, pricing, dirty_since)
SELECT DISTINCT s.sku, s.provider, s.pricing, '-infinity'::timestamptz FROM llm_econ.price_series s;
SELECT llm_econ._price_daily_refresh();
SELECT (SELECT count(*) FROM shipped_group) AS shipped_groups, (SELECT count(*) FROM shipped_summary) AS shipped_days,
       (SELECT count(*) FROM (SELECT * FROM shipped_group
                              EXCEPT SELECT sku, provider, pricing, last_day FROM llm_econ.price_daily_group) x) AS groups_not_rebuilt,
       (SELECT count(*) FROM (SELECT sku, provider, pricing, last_day FROM llm_econ.price_daily_group
                              EXCEPT SELECT * FROM shipped_group) x) AS groups_not_shipped,
       (SELECT count(*) FROM (SELECT * FROM shipped_summary
                              EXCEPT SELECT "time", sku, provider, pricing, offers, min_usd::text, median_usd::text,
                                            max_usd::text, sum_usd::text FROM llm_econ.price_daily_summary) x) AS days_not_rebuilt,
       (SELECT count(*) FROM (SELECT "time", sku, provider, pricing, offers, min_usd::text, median_usd::text,
                                     max_usd::text, sum_usd::text FROM llm_econ.price_daily_summary
                              EXCEPT SELECT * FROM shipped_summary) x) AS days_not_shipped;
ROLLBACK;
