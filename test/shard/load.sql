-- test/shard/load.sql: loads the same test data into the coordinator's own llm_econ tables (the single-node reference) and, routed through sharded.*, into the shards: generated price observations, FOCUS spend of two tenants, run plans.
--
-- psql variable datadir: the repository's test/data/focus (the shipped FOCUS fixtures).
-- Shipped (builtin) prices are already on every node; cluster.sh up left on each shard only the
-- builtin rows of its own providers, so they are not loaded again here.
-- Generated data is anchored on the current month ("last month" is the README dashboard's period)
-- and derived from hashes, not random(): rerunning within one month gives the same rows.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

-- tenants are roles (README access-control recipe); grafana_pretrain reads team_pretrain's rows
CREATE ROLE team_pretrain NOLOGIN;
CREATE ROLE team_research NOLOGIN;
CREATE ROLE grafana_pretrain LOGIN IN ROLE team_pretrain;
GRANT SELECT ON llm_econ.run_plan, llm_econ.spend, sharded.spend TO team_pretrain, team_research;

-- ---- prices: 16 offers over ~3 months, one observation per offer every 2 days --------------
-- Shard 1 providers (gcp, aws, azure) and shard 2 providers (lambda, coreweave, runpod, nebius);
-- region-less and instance-type-less series (NULLs in the series key); spot offers are withdrawn
-- now and then (a NULL price until the next observation).
CREATE TEMP TABLE gen_price AS
WITH offer(provider, sku, pricing, region, instance_type, gpus, base) AS (VALUES
       ('aws',       'H100-SXM5', 'on_demand', 'us-east-1',    'p5.48xlarge',              8,    6.88),
       ('aws',       'H100-SXM5', 'spot',      'us-east-1',    'p5.48xlarge',              8,    3.05),
       ('aws',       'H100-SXM5', 'on_demand', 'us-west-2',    'p5.48xlarge',              8,    6.88),
       ('aws',       'A100-80GB', 'on_demand', 'us-east-1',    'p4de.24xlarge',            8,    5.12),
       ('azure',     'H100-SXM5', 'on_demand', 'eastus',       'Standard_ND96isr_H100_v5', 8,    12.29),
       ('azure',     'H100-SXM5', 'spot',      'eastus',       'Standard_ND96isr_H100_v5', 8,    4.70),
       ('gcp',       'H100-SXM5', 'on_demand', 'us-central1',  'a3-highgpu-8g',            8,    11.06),
       ('gcp',       'H100-SXM5', 'spot',      'us-central1',  'a3-highgpu-8g',            8,    5.20),
       ('gcp',       'H100-SXM5', 'spot',      'europe-west4', 'a3-highgpu-8g',            8,    5.45),
       ('lambda',    'H100-SXM5', 'on_demand', NULL,           'gpu_8x_h100_sxm5',         8,    2.99),
       ('lambda',    'A100-80GB', 'on_demand', NULL,           'gpu_8x_a100_80gb_sxm4',    8,    1.79),
       ('coreweave', 'H100-SXM5', 'on_demand', 'us-east-04',   NULL,                       NULL, 4.25),
       ('coreweave', 'H100-SXM5', 'reserved',  'us-east-04',   NULL,                       NULL, 2.23),
       ('runpod',    'H100-SXM5', 'on_demand', NULL,           NULL,                       NULL, 2.69),
       ('runpod',    'H100-SXM5', 'spot',      NULL,           NULL,                       NULL, 1.99),
       ('nebius',    'H100-SXM5', 'on_demand', 'eu-north1',    NULL,                       NULL, 2.95)),
     slot AS (
       SELECT o.*, g.t0,
              hashtext(concat_ws('|', o.provider, o.sku, o.pricing, o.region, o.instance_type, g.t0))::bigint
                & 2147483647 AS h
         FROM offer o,
              generate_series(date_trunc('month', now()) - interval '3 months', now() - interval '3 days',
                              interval '2 days') AS g(t0))
SELECT s.t0 + (s.h % 2880) * interval '1 minute' AS observed_at,      -- somewhere in its 2-day slot
       s.provider, s.sku, s.region, s.pricing,
       CASE WHEN s.pricing = 'spot' AND s.h % 13 = 0 THEN NULL         -- withdrawn
            ELSE round(s.base * (0.85 + (s.h % 3001) / 10000.0), 4) END AS usd_per_gpu_hour,
       s.instance_type, s.gpus::int4 AS gpus_per_instance, 'test/shard generator'::text AS source
  FROM slot s;

INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour,
                                     instance_type, gpus_per_instance, source)
SELECT observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source
  FROM gen_price;
-- the same rows through the coordinator: each routed to its provider's shard (ids from sharded.price_snapshot_id_seq)
INSERT INTO sharded.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour,
                                    instance_type, gpus_per_instance, source)
SELECT observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance, source
  FROM gen_price;

-- ---- spend: FOCUS 1.3-style files generated per tenant, plus the shipped fixtures -----------
CREATE FUNCTION pg_temp.csvq(v text) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT CASE WHEN v IS NULL THEN 'NULL' ELSE '"' || replace(v, '"', '""') || '"' END $$;
CREATE FUNCTION pg_temp.ts(t timestamptz) RETURNS text LANGUAGE sql STABLE
AS $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') $$;

CREATE TEMP TABLE gen_focus AS
WITH run(tenant, run_id, provider_name, region, instance_type, gpu_type, gpus, instances, pricing_category,
         rate, hours_per_day, first_day, days) AS (VALUES
       ('team_pretrain', 'pt-7b-aws',        'AWS',          'us-east-1',   'p5.48xlarge',      'H100-SXM5', 8, 4, 'Standard',  6.8837, 24, 2, 12),
       ('team_pretrain', 'pt-7b-gcp-spot',   'Google Cloud', 'us-central1', 'a3-highgpu-8g',    'H100-SXM5', 8, 2, 'Dynamic',   5.2113, 20, 5, 9),
       ('team_pretrain', 'pt-eval-a100',     'AWS',          'us-east-1',   'p4de.24xlarge',    'A100-80GB', 8, 1, 'Committed', 5.1200, 24, 10, 6),
       ('team_research', 'rs-13b-lambda',    'Lambda',       NULL,          'gpu_8x_h100_sxm5', 'H100-SXM5', 8, 8, 'Standard',  2.9900, 24, 1, 14),
       ('team_research', 'rs-moe-coreweave', 'CoreWeave',    'us-east-04',  'gd-8xh100ib-i128', 'H100-SXM5', 8, 2, 'Committed', 2.2300, 24, 8, 10),
       ('team_research', 'rs-adhoc-runpod',  'RunPod',       NULL,          '8x_H100_SXM',      'H100-SXM5', 8, 1, 'Dynamic',   1.9900, 6, 3, 3)),
     m AS (SELECT date_trunc('month', now()) - interval '1 month' AS m0, date_trunc('month', now()) AS m1),
     usage AS (        -- one GPU line per run and day, amounts with 10 decimals
       SELECT r.*, m.m0, m.m1, m.m0 + (r.first_day - 1 + d) * interval '1 day' AS t,
              round(r.instances * r.gpus * r.hours_per_day * r.rate
                    * (0.97 + ((hashtext(r.run_id || d)::bigint & 1023) / 17050.0)), 10) AS list
         FROM run r, m, generate_series(0, r.days - 1) AS d),
     line AS (
       SELECT u.tenant, u.t,
              CASE u.pricing_category WHEN 'Committed' THEN 0 ELSE u.list END AS billed,
              CASE u.pricing_category WHEN 'Committed' THEN round(u.list * 0.62, 10) ELSE u.list END AS effective,
              u.list, u.m0, u.m1, u.t + interval '1 day' AS t1, 'Usage' AS charge_category,
              u.instance_type || ' ' || lower(u.pricing_category) AS description, u.pricing_category,
              (u.instances * u.hours_per_day)::text AS quantity, 'Hours' AS unit, u.provider_name, u.region,
              'i-' || md5(u.run_id) AS resource_id, 'Compute' AS service_category,
              json_build_object('InstanceType', u.instance_type, 'GpuType', u.gpu_type, 'GpuCount', u.gpus)::text AS sku_details,
              json_build_object('run_id', u.run_id, 'team', split_part(u.tenant, '_', 2))::text AS tags
         FROM usage u
       UNION ALL        -- checkpoint storage of each run (billed to the run, no GPU-hours)
       SELECT r.tenant, m.m0 + interval '27 days', round(r.instances * 41.3379 + 0.0000000123, 10), round(r.instances * 41.3379 + 0.0000000123, 10),
              round(r.instances * 41.3379 + 0.0000000123, 10), m.m0, m.m1, m.m1, 'Usage', 'checkpoint storage', 'Standard',
              (r.instances * 2066.895)::text, 'GB-Months', r.provider_name, r.region, 'vol-' || md5(r.run_id), 'Storage',
              NULL, json_build_object('run_id', r.run_id)::text
         FROM run r, m
       UNION ALL        -- a credit per tenant, not tied to a run
       SELECT DISTINCT r.tenant, m.m0 + interval '14 days', -250.5000000001, -250.5000000001, 0, m.m0, m.m1,
              m.m0 + interval '15 days', 'Credit', 'promotional credit', NULL, NULL, NULL, 'AWS', NULL, NULL, NULL,
              NULL, NULL
         FROM run r, m)
SELECT l.tenant,
       'BillingAccountId,BilledCost,EffectiveCost,ListCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,'
       || 'ChargePeriodEnd,ChargeCategory,ChargeDescription,PricingCategory,ConsumedQuantity,ConsumedUnit,'
       || 'ServiceProviderName,RegionId,ResourceId,ServiceCategory,SkuPriceDetails,Tags' || E'\n'
       || string_agg(concat_ws(',', '111', l.billed, l.effective, l.list, 'USD', pg_temp.ts(l.m0), pg_temp.ts(l.m1),
                               pg_temp.ts(l.t), pg_temp.ts(l.t1), l.charge_category, pg_temp.csvq(l.description),
                               coalesce(l.pricing_category, 'NULL'), coalesce(l.quantity, 'NULL'),
                               coalesce(l.unit, 'NULL'), pg_temp.csvq(l.provider_name), coalesce(l.region, 'NULL'),
                               coalesce(l.resource_id, 'NULL'), coalesce(l.service_category, 'NULL'),
                               pg_temp.csvq(l.sku_details), pg_temp.csvq(l.tags)),
                     E'\n' ORDER BY l.t, l.resource_id, l.billed) AS csv
  FROM line l GROUP BY l.tenant;

-- the single node imports with import_focus (validation, typing, GPU-hours, dedupe) ...
SELECT f.tenant, i.* FROM gen_focus f, LATERAL llm_econ.import_focus(f.csv, f.tenant, 'test/shard generator') AS i
 ORDER BY f.tenant;
\set focus13 `cat :'datadir'/focus_1.3_runs.csv`
SELECT 'team_pretrain' AS tenant, * FROM llm_econ.import_focus(:'focus13', 'team_pretrain', 'focus_1.3_runs.csv');
\set focus10 `cat :'datadir'/focus_1.0_sample_1000.csv`
SELECT 'team_research' AS tenant, * FROM llm_econ.import_focus(:'focus10', 'team_research', 'focus_1.0_sample_1000.csv');
-- ... and its typed rows go to the shards through the coordinator, each to its tenant's shard
INSERT INTO sharded.spend SELECT * FROM llm_econ.spend;

-- ---- plans: on the coordinator only (one llm_econ.run_plan serves both sides) ---------------
INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, region, planned_at, usd_per_gpu_hour, tenant, team)
SELECT v.run_id, v.spec, v.provider, v.pricing, v.region, m0 - v.ahead, v.usd, v.tenant, v.team
  FROM (SELECT date_trunc('month', now()) - interval '1 month' AS m0) m,
       (VALUES
         ('pt-7b-aws',        llm_econ.run_spec(7e9, 4.0e11, 32, 'H100', mfu => 0.42), 'aws', 'on_demand', NULL,
          interval '6 days', NULL::numeric, 'team_pretrain', 'pretrain'),             -- price_at(...) at planned_at
         ('pt-7b-gcp-spot',   llm_econ.run_spec(7e9, 2.0e11, 16, 'H100', mfu => 0.40), 'gcp', 'spot', 'us-central1',
          interval '2 days', 5.20, 'team_pretrain', 'pretrain'),
         ('pt-eval-a100',     llm_econ.run_spec(1.3e9, 1.0e11, 8, 'A100-80GB', mfu => 0.45), 'aws', 'reserved', NULL,
          interval '9 days', 3.10, 'team_pretrain', 'eval'),
         ('rs-13b-lambda',    llm_econ.run_spec(13e9, 5.0e11, 64, 'H100', mfu => 0.38), 'lambda', 'on_demand', NULL,
          interval '1 day', NULL, 'team_research', 'research'),
         ('rs-moe-coreweave', llm_econ.run_spec(3e9, 2.6e11, 16, 'H100', mfu => 0.35), 'coreweave', 'reserved', NULL,
          interval '3 days', 2.23, 'team_research', 'research'),
         ('rs-next',          llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), 'lambda', 'on_demand', NULL,
          interval '0 days', 2.99, 'team_research', 'research')                         -- no spend yet
       ) AS v(run_id, spec, provider, pricing, region, ahead, usd, tenant, team);

ANALYZE llm_econ.price_snapshot, llm_econ.spend, llm_econ.run_plan;
ANALYZE sharded.price_snapshot_shard1, sharded.price_snapshot_shard2, sharded.spend_shard1, sharded.spend_shard2;
