-- test/shard/compare.sql: checks on the coordinator that the sharded tables give exactly the single-node answers (README dashboard queries, plan vs actual, TWAP, pushed-down functions, tenant RLS), with negative controls; prints one "ok|name|detail" or "FAIL|name|detail" line per check.
--
-- psql variable spec: a run_spec as text (the README's Chinchilla 7B on 256 H100), used as a literal
-- so that estimate_cost(spec, column) can be shipped to the shards.
\set ON_ERROR_STOP 1
\pset format unaligned
\pset tuples_only on
SET client_min_messages = warning;

-- One check line: do the single-node and the sharded query give the same rows?  Rows are compared
-- as text (so 2.49 and 2.4900 differ), duplicates counted; at least min_rows rows are required so
-- that two empty answers do not pass.  expect_same = false: the check passes when they differ.
CREATE FUNCTION pg_temp.same(name text, single text, sharded text, min_rows int, expect_same boolean DEFAULT true)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  n1 bigint; n2 bigint; nd bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM (%s) q', single) INTO n1;
  EXECUTE format('SELECT count(*) FROM (%s) q', sharded) INTO n2;
  EXECUTE format('SELECT count(*) FROM ((SELECT q::text FROM (%1$s) q EXCEPT ALL SELECT q::text FROM (%2$s) q)
                                        UNION ALL (SELECT q::text FROM (%2$s) q EXCEPT ALL SELECT q::text FROM (%1$s) q)) d',
                 single, sharded) INTO nd;
  RETURN concat_ws('|',
           CASE WHEN n1 >= min_rows AND n2 >= min_rows AND (nd = 0 AND n1 = n2) = expect_same THEN 'ok' ELSE 'FAIL' END,
           name, format('%s rows single-node, %s sharded, %s rows differ', n1, n2, nd));
END $$;

-- ---- (a) the README's queries ----------------------------------------------------------------
-- "Cheapest provider for this run last month": the README's dashboard query verbatim on the single
-- node (price_twap per offer over llm_econ.price_snapshot) vs one pass of sharded.price_twaps.
-- Without the LIMIT, so that a tie at the 10th row cannot make the answers differ.
\set readme_last_month 'WITH run AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, ''H100'', mfu => 0.45) AS s), m AS (SELECT tstzrange(date_trunc(''month'', now()) - interval ''1 month'', date_trunc(''month'', now())) AS r), offers AS MATERIALIZED (SELECT DISTINCT provider, pricing FROM llm_econ.price_series WHERE sku = ''H100-SXM5'') SELECT o.provider, o.pricing, t.usd AS avg_usd_per_gpu_hour, llm_econ.estimate_cost(run.s, t.usd) AS cost_usd FROM run, m, offers o, LATERAL (SELECT llm_econ.price_twap(''H100-SXM5'', o.provider, o.pricing, m.r) AS usd) t WHERE t.usd IS NOT NULL ORDER BY cost_usd'
\set sharded_last_month 'WITH run AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, ''H100'', mfu => 0.45) AS s), m AS (SELECT tstzrange(date_trunc(''month'', now()) - interval ''1 month'', date_trunc(''month'', now())) AS r) SELECT t.provider, t.pricing, t.usd_per_gpu_hour AS avg_usd_per_gpu_hour, llm_econ.estimate_cost(run.s, t.usd_per_gpu_hour) AS cost_usd FROM run, m, LATERAL sharded.price_twaps(''H100-SXM5'', m.r) AS t WHERE t.usd_per_gpu_hour IS NOT NULL ORDER BY cost_usd'
SELECT pg_temp.same('a1 cheapest provider for the run last month (TWAP per offer): sharded = single node',
                    :'readme_last_month', :'sharded_last_month', 10);
-- the same over June 2024: the shipped prices only (the README's worked example)
SELECT pg_temp.same('a2 cheapest provider June 2024 (shipped prices): sharded = single node',
                    replace(:'readme_last_month', 'tstzrange(date_trunc(''month'', now()) - interval ''1 month'', date_trunc(''month'', now()))', '''[2024-06-01, 2024-07-01)''::tstzrange'),
                    replace(:'sharded_last_month', 'tstzrange(date_trunc(''month'', now()) - interval ''1 month'', date_trunc(''month'', now()))', '''[2024-06-01, 2024-07-01)''::tstzrange'),
                    5);
SELECT pg_temp.same('a3 plan vs actual: sharded.plan_vs_actual = llm_econ.plan_vs_actual',
                    'SELECT * FROM llm_econ.plan_vs_actual', 'SELECT * FROM sharded.plan_vs_actual', 8);
-- the two tenants' runs are on different shards: make sure both are billed, not just present
SELECT pg_temp.same('a4 plan vs actual has billed runs of both tenants',
                    $q$SELECT DISTINCT tenant FROM llm_econ.plan_vs_actual WHERE status = 'planned and billed'$q$,
                    $q$SELECT DISTINCT tenant FROM sharded.plan_vs_actual WHERE status = 'planned and billed'$q$, 2);
-- (a NULL TWAP would be no comparison: only non-NULL answers count as rows)
SELECT pg_temp.same('a5 TWAP of one series on shard 1 (gcp H100 spot us-central1, June 2024, shipped prices)',
                    $q$SELECT usd FROM (SELECT llm_econ.price_twap('H100-SXM5', 'gcp', 'spot', '[2024-06-01, 2024-07-01)', 'us-central1') AS usd) x WHERE usd IS NOT NULL$q$,
                    $q$SELECT usd FROM (SELECT sharded.price_twap('H100-SXM5', 'gcp', 'spot', '[2024-06-01, 2024-07-01)', 'us-central1') AS usd) x WHERE usd IS NOT NULL$q$, 1);
SELECT pg_temp.same('a6 TWAP of one series on shard 2 (coreweave H100 on_demand us-east-04, last month, generated)',
                    $q$SELECT usd FROM (SELECT llm_econ.price_twap('H100-SXM5', 'coreweave', 'on_demand', tstzrange(date_trunc('month', now()) - interval '1 month', date_trunc('month', now())), 'us-east-04') AS usd) x WHERE usd IS NOT NULL$q$,
                    $q$SELECT usd FROM (SELECT sharded.price_twap('H100-SXM5', 'coreweave', 'on_demand', tstzrange(date_trunc('month', now()) - interval '1 month', date_trunc('month', now())), 'us-east-04') AS usd) x WHERE usd IS NOT NULL$q$, 1);
-- every price row exactly once: per provider, counts and sums of the whole history
SELECT pg_temp.same('a7 price history per provider (rows, withdrawals, sum of prices, first/last): no row lost or counted twice',
                    $q$SELECT provider, builtin, count(*), count(usd_per_gpu_hour), sum(usd_per_gpu_hour), min(observed_at), max(observed_at) FROM llm_econ.price_snapshot GROUP BY 1, 2$q$,
                    $q$SELECT provider, builtin, count(*), count(usd_per_gpu_hour), sum(usd_per_gpu_hour), min(observed_at), max(observed_at) FROM sharded.price_snapshot GROUP BY 1, 2$q$, 10);
SELECT pg_temp.same('a8 spend per tenant (lines, billed, effective, list, GPU-hours) exactly',
                    $q$SELECT tenant, count(*), sum(billed_cost), sum(effective_cost), sum(list_cost), sum(gpu_hours) FROM llm_econ.spend GROUP BY 1$q$,
                    $q$SELECT tenant, count(*), sum(billed_cost), sum(effective_cost), sum(list_cost), sum(gpu_hours) FROM sharded.spend GROUP BY 1$q$, 2);
-- functions the shards evaluate (estimate_cost in the remote WHERE and in a pushed-down aggregate)
SET enable_partitionwise_aggregate = on;
SELECT pg_temp.same('a9 estimate_cost evaluated on the shards (remote WHERE + per-shard aggregate) = evaluated locally',
                    format($q$SELECT provider, count(*), sum(llm_econ.estimate_cost(%1$L::llm_econ.run_spec, usd_per_gpu_hour)) FROM llm_econ.price_snapshot WHERE sku = 'H100-SXM5' AND llm_econ.estimate_cost(%1$L::llm_econ.run_spec, usd_per_gpu_hour) < 150000 GROUP BY provider$q$, :'spec'),
                    format($q$SELECT provider, count(*), sum(llm_econ.estimate_cost(%1$L::llm_econ.run_spec, usd_per_gpu_hour)) FROM sharded.price_snapshot WHERE sku = 'H100-SXM5' AND llm_econ.estimate_cost(%1$L::llm_econ.run_spec, usd_per_gpu_hour) < 150000 GROUP BY provider$q$, :'spec'),
                    6);
RESET enable_partitionwise_aggregate;

-- ---- negative controls: the comparisons do see a one-cent / 0.0001 $/h change on one shard ----
BEGIN;
UPDATE sharded.spend SET billed_cost = billed_cost + 0.01
 WHERE id = (SELECT min(id) FROM llm_econ.spend WHERE run_id = 'rs-13b-lambda');
SELECT pg_temp.same('n1 negative control: +$0.01 on one shard-2 spend line makes plan vs actual differ',
                    'SELECT * FROM llm_econ.plan_vs_actual', 'SELECT * FROM sharded.plan_vs_actual', 8, false);
ROLLBACK;
BEGIN;
UPDATE sharded.price_snapshot SET usd_per_gpu_hour = usd_per_gpu_hour + 0.0001
 WHERE provider = 'nebius' AND usd_per_gpu_hour IS NOT NULL
   AND observed_at = (SELECT max(observed_at) FROM llm_econ.price_snapshot
                       WHERE provider = 'nebius' AND observed_at < date_trunc('month', now()));
SELECT pg_temp.same('n2 negative control: +$0.0001/h on one shard-2 price makes the cheapest-provider answer differ',
                    :'readme_last_month', :'sharded_last_month', 10, false);
ROLLBACK;
SELECT pg_temp.same('n3 after the rollbacks the shards are back to equal',
                    :'readme_last_month', :'sharded_last_month', 10);

-- ---- (e) tenant isolation: a dashboard role of team_pretrain, through the coordinator --------
SET ROLE grafana_pretrain;
SELECT pg_temp.same('e1 RLS: grafana_pretrain sees the same plan vs actual through the shards (its tenant only)',
                    'SELECT * FROM llm_econ.plan_vs_actual', 'SELECT * FROM sharded.plan_vs_actual', 3);
SELECT pg_temp.same('e2 RLS: grafana_pretrain sees only team_pretrain spend lines on the shards',
                    $q$SELECT 'team_pretrain'::text AS tenant$q$, 'SELECT DISTINCT tenant FROM sharded.spend', 1);
RESET ROLE;
