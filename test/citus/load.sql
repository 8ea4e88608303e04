-- test/citus/load.sql: loads the same test data into the single-node database and into the Citus cluster (through the coordinator): generated prices (everywhere() on Citus), FOCUS spend of two tenants, run plans.
--
-- psql variables: datadir (test/data/focus), citus (true on the Citus coordinator), anchor (a
-- timestamptz literal standing for "now", the same on both sides). Hash-derived data, no random().
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

-- the roles of docs/finance.md's recipe (the single-node database shares its server, and so its
-- roles, with the coordinator; Citus creates them on the workers): a tenant role per team, a
-- writer and a reader in each, a reader in two tenants.  Everything below the prices runs as them.
SELECT NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'team_pretrain') AS need_roles \gset
\if :need_roles
CREATE ROLE team_pretrain NOLOGIN;
CREATE ROLE team_research NOLOGIN;
CREATE ROLE team_search NOLOGIN;
CREATE ROLE w_pretrain LOGIN IN ROLE team_pretrain;
CREATE ROLE w_research LOGIN IN ROLE team_research;
CREATE ROLE w_search LOGIN IN ROLE team_search;
CREATE ROLE r_pretrain LOGIN IN ROLE team_pretrain;
CREATE ROLE r_research LOGIN IN ROLE team_research;
CREATE ROLE r_both LOGIN IN ROLE team_pretrain, team_research;
\endif
GRANT SELECT ON llm_econ.run_plan, llm_econ.spend, llm_econ.observed_run TO team_pretrain, team_research, team_search;
GRANT INSERT, UPDATE, DELETE ON llm_econ.run_plan, llm_econ.spend TO w_pretrain, w_research, w_search;
GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO w_pretrain, w_research, w_search;
GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO w_pretrain, w_research, w_search;
GRANT INSERT ON llm_econ.focus_stage TO w_pretrain, w_research, w_search;
GRANT USAGE ON SEQUENCE llm_econ.focus_staging_id_seq TO w_pretrain, w_research, w_search;

-- ---- prices: 12 offers over ~3 months, one observation every 2 days; spot sometimes withdrawn
SELECT format($sql$
INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour,
                                     instance_type, gpus_per_instance, source)
WITH offer(provider, sku, pricing, region, instance_type, gpus, base) AS (VALUES
       ('aws',       'H100-SXM5', 'on_demand', 'us-east-1',    'p5.48xlarge',              8,    6.88),
       ('aws',       'H100-SXM5', 'spot',      'us-east-1',    'p5.48xlarge',              8,    3.05),
       ('aws',       'A100-80GB', 'on_demand', 'us-east-1',    'p4de.24xlarge',            8,    5.12),
       ('azure',     'H100-SXM5', 'on_demand', 'eastus',       'Standard_ND96isr_H100_v5', 8,    12.29),
       ('gcp',       'H100-SXM5', 'on_demand', 'us-central1',  'a3-highgpu-8g',            8,    11.06),
       ('gcp',       'H100-SXM5', 'spot',      'us-central1',  'a3-highgpu-8g',            8,    5.20),
       ('lambda',    'H100-SXM5', 'on_demand', NULL,           'gpu_8x_h100_sxm5',         8,    2.99),
       ('lambda',    'A100-80GB', 'on_demand', NULL,           'gpu_8x_a100_80gb_sxm4',    8,    1.79),
       ('coreweave', 'H100-SXM5', 'on_demand', 'us-east-04',   NULL,                       NULL, 4.25),
       ('coreweave', 'H100-SXM5', 'reserved',  'us-east-04',   NULL,                       NULL, 2.23),
       ('runpod',    'H100-SXM5', 'spot',      NULL,           NULL,                       NULL, 1.99),
       ('nebius',    'H100-SXM5', 'on_demand', 'eu-north1',    NULL,                       NULL, 2.95)),
     slot AS (
       SELECT o.*, g.t0,
              hashtext(concat_ws('|', o.provider, o.sku, o.pricing, o.region, o.instance_type, g.t0))::bigint & 2147483647 AS h
         FROM offer o,
              generate_series(date_trunc('month', %1$L::timestamptz) - interval '3 months',
                              %1$L::timestamptz - interval '3 days', interval '2 days') AS g(t0))
SELECT s.t0 + (s.h %% 2880) * interval '1 minute', s.provider, s.sku, s.region, s.pricing,
       CASE WHEN s.pricing = 'spot' AND s.h %% 13 = 0 THEN NULL ELSE round(s.base * (0.85 + (s.h %% 3001) / 10000.0), 4) END,
       s.instance_type, s.gpus, 'test/citus generator'
  FROM slot s
$sql$, :'anchor') AS price_sql \gset
\if :citus
SELECT llm_econ_sync.everywhere(:'price_sql') > 0 AS prices_written_everywhere \gset
\else
:price_sql;
\endif

-- ---- spend: a FOCUS 1.3-style file per tenant, plus the shipped fixtures, by import_focus ----
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
       ('team_research', 'rs-moe-coreweave', 'CoreWeave',    'us-east-04',  'gd-8xh100ib-i128', 'H100-SXM5', 8, 2, 'Committed', 2.2300, 24, 8, 10)),
     m AS (SELECT date_trunc('month', :'anchor'::timestamptz) - interval '1 month' AS m0, date_trunc('month', :'anchor'::timestamptz) AS m1),
     line AS (
       SELECT m.m0 + (r.first_day - 1 + d) * interval '1 day' AS t, m.m0, m.m1, r.*,
              round(r.instances * r.gpus * r.hours_per_day * r.rate
                    * (0.97 + ((hashtext(r.run_id || d)::bigint & 1023) / 17050.0)), 10) AS list
         FROM run r, m, generate_series(0, r.days - 1) AS d)
SELECT l.tenant,
       'BillingAccountId,BilledCost,EffectiveCost,ListCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargePeriodStart,'
       || 'ChargePeriodEnd,ChargeCategory,ChargeDescription,PricingCategory,ConsumedQuantity,ConsumedUnit,'
       || 'ServiceProviderName,RegionId,ResourceId,ServiceCategory,SkuPriceDetails,Tags' || E'\n'
       || string_agg(concat_ws(',', '111',
              CASE l.pricing_category WHEN 'Committed' THEN 0 ELSE l.list END,
              CASE l.pricing_category WHEN 'Committed' THEN round(l.list * 0.62, 10) ELSE l.list END,
              l.list, 'USD', pg_temp.ts(l.m0), pg_temp.ts(l.m1), pg_temp.ts(l.t), pg_temp.ts(l.t + interval '1 day'),
              'Usage', pg_temp.csvq(l.instance_type || ' ' || lower(l.pricing_category)), l.pricing_category,
              (l.instances * l.hours_per_day)::text, 'Hours', pg_temp.csvq(l.provider_name), coalesce(l.region, 'NULL'),
              'i-' || md5(l.run_id), 'Compute',
              pg_temp.csvq(json_build_object('InstanceType', l.instance_type, 'GpuType', l.gpu_type, 'GpuCount', l.gpus)::text),
              pg_temp.csvq(json_build_object('run_id', l.run_id)::text)),
            E'\n' ORDER BY l.t, l.run_id) AS csv
  FROM line l GROUP BY l.tenant;
SELECT csv AS gen_pretrain FROM gen_focus WHERE tenant = 'team_pretrain' \gset
SELECT csv AS gen_research FROM gen_focus WHERE tenant = 'team_research' \gset
\set focus13 `cat :'datadir'/focus_1.3_runs.csv`
-- the header and the first 8 of its 9 lines
SELECT array_to_string((string_to_array(:'focus13', E'\n'))[1:9], E'\n') AS focus13_first8 \gset
-- (the output of the loads is compared with the single node's by run.sh: the same counts)
SET ROLE w_pretrain;
SELECT 'team_pretrain' AS tenant, * FROM llm_econ.import_focus(:'gen_pretrain', 'team_pretrain', 'test/citus generator');
SELECT 'team_pretrain' AS tenant, * FROM llm_econ.import_focus(:'focus13', 'team_pretrain', 'focus_1.3_runs.csv');
SET ROLE w_research;
SELECT 'team_research' AS tenant, * FROM llm_econ.import_focus(:'gen_research', 'team_research', 'test/citus generator');
-- (team_research's focus_1.0_sample_1000.csv is staged and loaded by run.sh: \copy + load_focus)
-- a third tenant (with 8 shards, Citus 13.2 puts team_search's shard on the other worker):
-- mode append, 8 lines, then the whole file (1 new line among 9: 1 inserted, 8 skipped)
SET ROLE w_search;
SELECT 'team_search' AS tenant, * FROM llm_econ.import_focus(:'focus13_first8', 'team_search', 'focus_1.3_runs.csv', mode => 'append');
SELECT 'team_search' AS tenant, * FROM llm_econ.import_focus(:'focus13', 'team_search', 'focus_1.3_runs.csv', mode => 'append');
RESET ROLE;

-- ---- plans (on Citus each row's trigger runs on the worker holding its tenant's shard) ------
-- written by each tenant's writer as INSERT ... VALUES (the recipe's form)
CREATE TEMP TABLE plans AS
SELECT v.run_id, v.spec, v.provider, v.pricing, v.region, m0 - v.ahead AS planned_at, v.usd, v.tenant, v.team
  FROM (SELECT date_trunc('month', :'anchor'::timestamptz) - interval '1 month' AS m0) m,
       (VALUES
         ('pt-7b-aws',        llm_econ.run_spec(7e9, 4.0e11, 32, 'H100', mfu => 0.42), 'aws', 'on_demand', NULL,
          interval '6 days', NULL::numeric, 'team_pretrain', 'pretrain'),          -- price_at(...) at planned_at
         ('pt-7b-gcp-spot',   llm_econ.run_spec(7e9, 2.0e11, 16, 'H100', mfu => 0.40), 'gcp', 'spot', 'us-central1',
          interval '2 days', 5.20, 'team_pretrain', 'pretrain'),
         ('pt-eval-a100',     llm_econ.run_spec(1.3e9, 1.0e11, 8, 'A100-80GB', mfu => 0.45), 'aws', 'on_demand', NULL,
          interval '9 days', NULL, 'team_pretrain', 'eval'),
         ('rs-13b-lambda',    llm_econ.run_spec(13e9, 5.0e11, 64, 'H100', mfu => 0.38), 'lambda', 'on_demand', NULL,
          interval '1 day', NULL, 'team_research', 'research'),
         ('rs-moe-coreweave', llm_econ.run_spec(3e9, 2.6e11, 16, 'H100', mfu => 0.35), 'coreweave', 'reserved', NULL,
          interval '3 days', NULL, 'team_research', 'research'),
         ('rs-next',          llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), 'lambda', 'on_demand', NULL,
          interval '0 days', 2.99, 'team_research', 'research'),                     -- no spend yet
         ('se-ranker',        llm_econ.run_spec(1.3e9, 2.6e10, 8, 'H100', mfu => 0.40), 'aws', 'on_demand', 'us-east-1',
          interval '4 days', NULL, 'team_search', 'search')
       ) AS v(run_id, spec, provider, pricing, region, ahead, usd, tenant, team);
SELECT string_agg(format('SET ROLE %I; INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, region, planned_at, usd_per_gpu_hour, tenant, team) VALUES %s;',
                         'w_' || substr(tenant, 6), vals), E'\n' ORDER BY tenant) AS plan_sql
  FROM (SELECT tenant, string_agg(format('(%L, %L, %L, %L, %L, %L, %L, %L, %L)', run_id, spec, provider, pricing, region,
                                         planned_at, usd, tenant, team), ', ' ORDER BY run_id) AS vals
          FROM plans GROUP BY tenant) t \gset
:plan_sql
RESET ROLE;
