-- bench.sql: llm_econ benchmark: medians and ratios against what users would otherwise write, measured in the same run.
-- :rows is the scan size (default 10M); :reps the repetitions per measurement (median taken).
\if :{?rows}
\else
\set rows 10000000
\endif
\ir harness.sql

\echo == building the inputs
-- :rows plans, each with its own spec (a run_spec column, as run_plan stores it) and price.
CREATE UNLOGGED TABLE plans AS
SELECT i AS id,
       run_spec(1e9 + (i % 1000) * 1e7, 2e11 + (i % 97) * 1e9, 8 * (1 + i % 16), 'H100-SXM5', mfu => 0.3 + (i % 20) / 100.0) AS spec,
       (1.5 + (i % 300) / 100.0)::numeric(10, 4) AS price,
       (1e9 + (i % 1000) * 1e7)::float8 AS n_params, (2e11 + (i % 97) * 1e9)::float8 AS n_tokens,
       8 * (1 + i % 16) AS n_gpus, (0.3 + (i % 20) / 100.0)::float8 AS mfu, 989e12::float8 AS peak
  FROM generate_series(1, :rows) AS i;
ANALYZE plans;

-- the same model written in PL/pgSQL and as an SQL function, as a user would without the extension
-- (the PL/pgSQL one checks the fields it reads as the C function does: NULL, NaN, infinities, ranges;
-- the SQL one cannot raise an error, so it checks nothing, and the planner inlines it into the query)
CREATE FUNCTION pg_temp.gpu_hours_plpgsql(s llm_econ.run_spec) RETURNS float8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF s.n_params IS NULL OR s.n_params = 'NaN' OR s.n_params <= 0 OR s.n_params > 1e18 THEN
    RAISE EXCEPTION 'n_params must be in (0, 1e+18], got %', s.n_params USING ERRCODE = '22023';
  END IF;
  IF s.n_tokens IS NULL OR s.n_tokens = 'NaN' OR s.n_tokens <= 0 OR s.n_tokens > 1e18 THEN
    RAISE EXCEPTION 'n_tokens must be in (0, 1e+18], got %', s.n_tokens USING ERRCODE = '22023';
  END IF;
  IF s.n_gpus IS NULL OR s.n_gpus < 1 THEN
    RAISE EXCEPTION 'n_gpus must be in [1, 2147483647], got %', s.n_gpus USING ERRCODE = '22023';
  END IF;
  IF s.mfu IS NULL OR s.mfu = 'NaN' OR s.mfu <= 0 OR s.mfu > 1 THEN
    RAISE EXCEPTION 'mfu must be in (0, 1], got %', s.mfu USING ERRCODE = '22023';
  END IF;
  IF s.peak_flops IS NULL OR s.peak_flops = 'NaN' OR s.peak_flops <= 0 OR s.peak_flops > 1e18 THEN
    RAISE EXCEPTION 'peak_flops must be in (0, 1e+18], got %', s.peak_flops USING ERRCODE = '22023';
  END IF;
  RETURN 6 * s.n_params * s.n_tokens / (s.mfu * s.n_gpus * s.peak_flops) / 3600 * s.n_gpus;
END $$;
CREATE FUNCTION pg_temp.cost_plpgsql(s llm_econ.run_spec, price numeric) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF price < 0 OR price = 'NaN' OR price = 'Infinity' THEN
    RAISE EXCEPTION 'usd_per_gpu_hour must be in [0, Infinity), got %', price USING ERRCODE = '22023';
  END IF;
  RETURN pg_temp.gpu_hours_plpgsql(s)::numeric * price;
END $$;
CREATE FUNCTION pg_temp.cost_sql(s llm_econ.run_spec, price numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT (6 * s.n_params * s.n_tokens / (s.mfu * s.n_gpus * s.peak_flops) / 3600 * s.n_gpus)::numeric * price
$$;

\echo == estimate_cost over :rows rows (one backend: max_parallel_workers_per_gather = 0)
SET max_parallel_workers_per_gather = 0;
SELECT sum(total_bytes) AS mem_start FROM pg_backend_memory_contexts \gset
SELECT pg_temp.bench('floor: inline expression over plain columns', $$SELECT sum((6 * n_params * n_tokens / (mfu * n_gpus * peak) / 3600 * n_gpus)::numeric * price) FROM plans$$, :rows, :reps);
SELECT pg_temp.bench('inline expression over the spec''s fields', $$SELECT sum((6 * (spec).n_params * (spec).n_tokens / ((spec).mfu * (spec).n_gpus * (spec).peak_flops) / 3600 * (spec).n_gpus)::numeric * price) FROM plans$$, :rows, :reps, 'floor: inline expression over plain columns');
SELECT pg_temp.bench('estimate_cost(spec, price)', $$SELECT sum(llm_econ.estimate_cost(spec, price)) FROM plans$$, :rows, :reps, 'floor: inline expression over plain columns');
SELECT pg_temp.bench('same model in an SQL function', $$SELECT sum(pg_temp.cost_sql(spec, price)) FROM plans$$, :rows, :reps, 'estimate_cost(spec, price)');
SELECT pg_temp.bench('same model in PL/pgSQL', $$SELECT sum(pg_temp.cost_plpgsql(spec, price)) FROM plans$$, :rows, greatest(1, :reps / 2), 'estimate_cost(spec, price)');
SELECT sum(total_bytes) AS mem_end FROM pg_backend_memory_contexts \gset

SELECT pg_temp.bench('gpu_hours(spec)', $$SELECT sum(llm_econ.gpu_hours(spec)) FROM plans$$, :rows, :reps);
SELECT pg_temp.bench('gpu_hours in PL/pgSQL', $$SELECT sum(pg_temp.gpu_hours_plpgsql(spec)) FROM plans$$, :rows, greatest(1, :reps / 2), 'gpu_hours(spec)');

\echo == per-row model functions, constant spec vs a spec built per row
SELECT pg_temp.bench('mfu_time(constant spec)', $$SELECT count(llm_econ.mfu_time(s)) FROM plans, llm_econ.run_spec(7e9, 1.4e12, 1024, 'H100', mfu => 0.45) AS s$$, :rows, :reps);
SELECT pg_temp.bench('mfu_time(stored spec)', $$SELECT count(llm_econ.mfu_time(spec)) FROM plans$$, :rows, :reps);
SELECT pg_temp.bench('memory_per_gpu(stored spec)', $$SELECT sum((llm_econ.memory_per_gpu(spec)).total_bytes IS NULL::int) FROM plans$$, :rows / 10, :reps);
SELECT pg_temp.bench('comm_bytes(stored spec)', $$SELECT sum(llm_econ.comm_bytes(spec)) FROM plans$$, :rows, :reps);
SELECT pg_temp.bench('scan only (count columns)', $$SELECT count(n_params + n_tokens + n_gpus + mfu) FROM plans$$, :rows, :reps);
SELECT pg_temp.bench('run_spec(...) built per row + mfu_time', $$SELECT count(llm_econ.mfu_time(llm_econ.run_spec(n_params, n_tokens, n_gpus, 'H100-SXM5', mfu => mfu))) FROM plans$$, :rows, :reps, 'scan only (count columns)');

\echo == parallel scan of :rows rows (2 workers)
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
EXPLAIN (COSTS OFF) SELECT sum(llm_econ.estimate_cost(spec, price)) FROM plans;
SELECT pg_temp.bench('estimate_cost(spec, price), parallel', $$SELECT sum(llm_econ.estimate_cost(spec, price)) FROM plans$$, :rows, :reps, 'estimate_cost(spec, price)');
SET max_parallel_workers_per_gather = 0;

\echo == results
SELECT n, label, units AS rows, round(median_ms::numeric, 1) AS median_ms,
       round((per_unit_ms * 1000)::numeric, 3) AS per_row_us, ratio, vs
  FROM report
 ORDER BY n;
SELECT :mem_start AS backend_bytes_before_scans, :mem_end AS backend_bytes_after_scans,
       round(100.0 * (:mem_end - :mem_start) / :mem_start, 1) AS growth_pct;
