-- bench_rowcost.sql: per-row cost of estimate_cost (constant and stored specs) against what users would write, and a catalog import against COPY, with the issue-16 goals printed as met or missed.
-- :rows rows (default 2M); :reps repetitions (median taken).
\if :{?rows}
\else
\set rows 2000000
\endif
\ir harness.sql
SET max_parallel_workers_per_gather = 0;
SET jit = off;

\echo == :rows rows: a numeric price per row, and a stored spec per row (all distinct but for repeats every 1,000 rows x 97 x 16 x 20)
CREATE UNLOGGED TABLE plans AS
SELECT i AS id,
       run_spec(1e9 + (i % 1000) * 1e7, 2e11 + (i % 97) * 1e9, 8 * (1 + i % 16), 'H100-SXM5', mfu => 0.3 + (i % 20) / 100.0) AS spec,
       (1.5 + (i % 300) / 100.0)::numeric(10, 4) AS price
  FROM generate_series(1, :rows) AS i;
ANALYZE plans;
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

-- a constant spec: the literal a dashboard or report passes (its GPU-hours as the user's constant)
SELECT run_spec(7e9, 1.4e12, 256, 'H100-SXM5') AS spec \gset
SELECT gpu_hours(:'spec'::run_spec)::numeric AS hours \gset
\echo == constant spec :spec (:hours GPU-hours)
SELECT pg_temp.bench('floor: round(p * const, 2)', format($$SELECT count(round(price * %s, 2)) FROM plans$$, :'hours'), :rows, :reps);
SELECT pg_temp.bench('estimate_cost(constant spec, price)', format($$SELECT count(llm_econ.estimate_cost(%L::llm_econ.run_spec, price)) FROM plans$$, :'spec'), :rows, :reps, 'floor: round(p * const, 2)');
SELECT pg_temp.bench('same model in PL/pgSQL, constant spec', format($$SELECT count(pg_temp.cost_plpgsql(%L::llm_econ.run_spec, price)) FROM plans$$, :'spec'), :rows, greatest(1, :reps / 2), 'estimate_cost(constant spec, price)');
\echo == stored spec per row
SELECT pg_temp.bench('inline expression over the spec''s fields', $$SELECT count((6 * (spec).n_params * (spec).n_tokens / ((spec).mfu * (spec).n_gpus * (spec).peak_flops) / 3600 * (spec).n_gpus)::numeric * price) FROM plans$$, :rows, :reps);
SELECT pg_temp.bench('estimate_cost(stored spec, price)', $$SELECT count(llm_econ.estimate_cost(spec, price)) FROM plans$$, :rows, :reps, 'inline expression over the spec''s fields');

\echo == import_skypilot_catalog of a 30,000-row catalog vs COPY of the same rows into a plain table
-- AWS-shaped: 500 instance types x 20 regions x 3 zones, on-demand and spot prices
CREATE TEMP TABLE catalog_rows AS
SELECT 'g5.' || i || 'xlarge' AS instance_type, 'A10G' AS accelerator, '1.0' AS count, '4.0' AS vcpus, '16.0' AS mem,
       round((1 + i / 1000.0 + z / 100.0)::numeric, 4)::text AS price, round((0.4 + i / 2000.0 + z / 50.0)::numeric, 4)::text AS spot,
       'region-' || r AS region, 'region-' || r || '-az' || z AS zone
  FROM generate_series(1, 500) AS i, generate_series(1, 20) AS r, generate_series(1, 3) AS z;
INSERT INTO gpu_sku_alias (alias, sku, gpus_per_instance, source)
SELECT DISTINCT instance_type, 'A10G', 1, 'benchmark' FROM catalog_rows
    ON CONFLICT DO NOTHING;
SELECT 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone' || E'\n' ||
       string_agg(concat_ws(',', instance_type, accelerator, count, vcpus, mem, price, spot, region, zone), E'\n') AS csv
  FROM catalog_rows \gset
CREATE TEMP TABLE copy_target (instance_type text, accelerator text, count text, vcpus text, mem text, price text,
                               spot text, region text, zone text);
COPY (SELECT * FROM catalog_rows) TO '/tmp/llm_econ_bench_catalog.csv' (FORMAT csv, HEADER);
SELECT pg_temp.bench('COPY 30,000 rows into a plain table', $$TRUNCATE pg_temp.copy_target; COPY pg_temp.copy_target FROM '/tmp/llm_econ_bench_catalog.csv' (FORMAT csv, HEADER)$$, 1, :reps);
-- a first import each time: the k-th run imports the catalog as the k-th SkyPilot cloud
CREATE TEMP SEQUENCE cloud_no;
SELECT pg_temp.bench('import_skypilot_catalog, 30,000 rows (first import)', format($$SELECT llm_econ.import_skypilot_catalog((llm_econ._skypilot_clouds())[nextval('pg_temp.cloud_no')], %L, '2026-01-01')$$, :'csv'), 1, least(:reps, 16), 'COPY 30,000 rows into a plain table');

\echo == results
SELECT n, label, units AS rows, round(median_ms::numeric, 1) AS median_ms,
       round((per_unit_ms * 1000)::numeric, 3) AS per_row_us, ratio, vs
  FROM report ORDER BY n;

\echo == goals (issue 16)
SELECT g.goal, r.ratio, g.bound,
       CASE WHEN (g.at_most AND r.ratio <= g.limit_ratio) OR (NOT g.at_most AND r.ratio >= g.limit_ratio)
            THEN 'met' ELSE 'MISSED' END AS verdict
  FROM (VALUES ('estimate_cost(constant spec, price)', '<= 1.3 x round(p * const, 2)', true, 1.3),
               ('same model in PL/pgSQL, constant spec', '>= 8 x estimate_cost', false, 8),
               ('estimate_cost(stored spec, price)', '<= 1.5 x inline expression', true, 1.5),
               ('import_skypilot_catalog, 30,000 rows (first import)', '<= 10 x COPY', true, 10))
       AS g(goal, bound, at_most, limit_ratio)
  JOIN report r ON r.label = g.goal;
