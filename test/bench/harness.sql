-- harness.sql: what both benchmark scripts share: session settings, the timing function and the ratio report (\ir from them).
\set ON_ERROR_STOP 1
\pset footer off
SET client_min_messages = warning;
SET TimeZone = 'UTC';
CREATE EXTENSION IF NOT EXISTS llm_econ;
SET search_path = llm_econ, public;
\if :{?reps}
\else
\set reps 5
\endif

-- Run a statement reps times after one warm-up (caches, plans) and keep the median wall time;
-- units is what one run processes (rows scanned, or calls made), for the per-unit figure.
CREATE TEMP TABLE results (n serial, label text, units bigint, median_ms float8, baseline text, paired_ratio float8);
CREATE FUNCTION pg_temp.bench(label text, q text, units bigint, reps int, baseline text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  times float8[] := '{}';
BEGIN
  EXECUTE q;
  FOR i IN 1..reps LOOP
    t0 := clock_timestamp();
    EXECUTE q;
    times := times || extract(epoch FROM clock_timestamp() - t0) * 1000;
  END LOOP;
  INSERT INTO results (label, units, median_ms, baseline)
  SELECT label, units, percentile_cont(0.5) WITHIN GROUP (ORDER BY x), baseline FROM unnest(times) AS x;
END $$;

-- Two statements timed alternately (b, a, b, a, ...; one warm-up each), for a ratio that load
-- drifting during the run cannot skew: each is stored with its median, and a with the median
-- of the per-pair ratios a / b as its ratio to b.  With qs (the scan alone), each round times it
-- too, and net_ratio keeps the median of (a - s) / (b - s): the two functions' own costs.
CREATE TEMP TABLE pair_net (label text, net_ratio float8, a_us float8, b_us float8);
CREATE FUNCTION pg_temp.bench_pair(label_a text, qa text, label_b text, qb text, units bigint, reps int,
                                   qs text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  ta float8;
  tb float8;
  ts float8;
  times_a float8[] := '{}';
  times_b float8[] := '{}';
  ratios float8[] := '{}';
  nets float8[] := '{}';
  net_a float8[] := '{}';
  net_b float8[] := '{}';
BEGIN
  EXECUTE qb;
  EXECUTE qa;
  FOR i IN 1..reps LOOP
    IF qs IS NOT NULL THEN
      t0 := clock_timestamp();
      EXECUTE qs;
      ts := extract(epoch FROM clock_timestamp() - t0) * 1000;
    END IF;
    t0 := clock_timestamp();
    EXECUTE qb;
    tb := extract(epoch FROM clock_timestamp() - t0) * 1000;
    t0 := clock_timestamp();
    EXECUTE qa;
    ta := extract(epoch FROM clock_timestamp() - t0) * 1000;
    times_a := times_a || ta;
    times_b := times_b || tb;
    ratios := ratios || ta / tb;
    IF qs IS NOT NULL THEN
      net_a := net_a || (ta - ts);
      net_b := net_b || (tb - ts);
      nets := nets || CASE WHEN tb > ts THEN (ta - ts) / (tb - ts) END;
    END IF;
  END LOOP;
  INSERT INTO results (label, units, median_ms)
  SELECT label_b, units, percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(times_b) AS x;
  INSERT INTO results (label, units, median_ms, baseline, paired_ratio)
  SELECT label_a, units, (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(times_a) AS x), label_b,
         (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ratios) AS x);
  IF qs IS NOT NULL THEN
    INSERT INTO pair_net
    SELECT label_a, (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(nets) AS x),
           (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(net_a) AS x) * 1000 / units,
           (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(net_b) AS x) * 1000 / units;
  END IF;
END $$;

-- Each measurement with its cost per unit and its ratio to its baseline, per unit (for a pair:
-- the median of the pairs' ratios).
CREATE TEMP VIEW report AS
SELECT r.n, r.label, r.units, r.median_ms, r.median_ms / r.units AS per_unit_ms,
       CASE WHEN r.paired_ratio IS NOT NULL THEN round(r.paired_ratio::numeric, 2)
            WHEN b.median_ms IS NOT NULL THEN round(((r.median_ms / r.units) / (b.median_ms / b.units))::numeric, 2) END AS ratio,
       r.baseline AS vs
  FROM results r LEFT JOIN results b ON b.label = r.baseline;
