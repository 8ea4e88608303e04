-- correct_history.sql: deletes the shipped GCP history's rows the corrections file names (host-only machine prices); psql, needs :dir (the installed data folder).
-- Run by src/gen_history_points.sh before it writes the change points, and by the regression test
-- shipped_history on the loader's output; the update from 0.2.0 deleted the same rows
-- (src/update/llm_econ--0.2.0--0.3.0.sql).  Reports how many rows went (corrected_away).
CREATE TEMP TABLE correction (region text, instance_type_prefix text, observed_from timestamptz, observed_to timestamptz,
                              below_usd_per_gpu_hour numeric, reason text, source text);
SELECT format('COPY correction FROM %L WITH (FORMAT csv, HEADER MATCH)', :'dir' || 'gcp_gpu_price_history_corrections.csv') \gexec
WITH gone AS (
  DELETE FROM llm_econ.price_snapshot p USING correction c
   WHERE p.provider = 'gcp' AND p.usd_per_gpu_hour IS NOT NULL AND (c.region = '*' OR p.region = c.region)
     AND starts_with(p.instance_type, c.instance_type_prefix) AND p.observed_at >= c.observed_from
     AND p.observed_at < c.observed_to AND p.usd_per_gpu_hour < c.below_usd_per_gpu_hour
  RETURNING p.id)
SELECT count(*) AS corrected_away FROM gone;
