-- spec_cache: run_spec(...) keeps its last arguments and value per call site for the statement; values never go stale (arguments that change, PL/pgSQL variables, gpu_sku edited within a transaction).
SET search_path = llm_econ, public;
SET extra_float_digits = 0;

-- Constant arguments over many rows: one value, the same as a single call.
SELECT count(DISTINCT s::text) AS distinct_specs, count(*) AS calls,
       bool_and(s = run_spec(n_params => 7e9, n_tokens => 1.4e12, n_gpus => 256, sku => 'H100-SXM5', mfu => 0.45)) AS same_as_one_call,
       sum(estimate_cost(s, 2.00)) / count(*) AS usd_each
  FROM (SELECT run_spec(n_params => 7e9, n_tokens => 1.4e12, n_gpus => 256, sku => 'H100-SXM5', mfu => 0.45) AS s
          FROM generate_series(1, 1000)) x;
-- Arguments that change from row to row (and repeat): every row gets its own value.
SELECT i % 4 AS k, (run_spec(7e9, 1.4e12, 8 * (1 + i % 4), 'H100')).n_gpus AS n_gpus,
       round(gpu_hours(run_spec(7e9, 1.4e12, 8 * (1 + i % 4), 'H100', mfu => 0.3 + (i % 4) / 10.0))::numeric, 1) AS gpu_hours
  FROM generate_series(1, 8) AS i ORDER BY i;
-- A text argument that changes: the SKU.
SELECT sku, (run_spec(7e9, 1.4e12, 8, sku)).peak_flops
  FROM unnest(ARRAY['H100', 'A100-80GB', 'H100', 'A100-80GB']) WITH ORDINALITY AS u(sku, o) ORDER BY o;

-- PL/pgSQL variables are parameters of one expression evaluated again and again: never constant.
DO $$
DECLARE
  g int4;
  n int4;
  s llm_econ.run_spec;
  seen text := '';
BEGIN
  FOR g IN 1..3 LOOP
    n := g * 8;
    s := llm_econ.run_spec(7e9, 1.4e12, n, 'H100');   -- n: a Param of the same expression each time
    seen := seen || s.n_gpus || ' ';
  END LOOP;
  RAISE NOTICE 'n_gpus per iteration: %', seen;
END $$;

-- gpu_sku edited between two statements of one transaction: the next statement sees the edit.
BEGIN;
CREATE TEMP TABLE one AS SELECT 1 AS x;
PREPARE q AS SELECT (run_spec(7e9, 1.4e12, 8, 'H100-SXM5')).hbm_bytes FROM one;
EXECUTE q;
UPDATE gpu_sku SET hbm_bytes = 80e9 WHERE sku = 'H100-SXM5';
EXECUTE q;
ROLLBACK;
