-- 90_house.sql: the house-keeping of 0.3.0 (issue 18): one SKU rule in C (src/sku.c) that SQL calls; the series prune and the history loader read their input once. It carries the final definitions of the functions several parts of this round changed (_staged_history, _load_price_history, _price_series_prune), so the parts before it no longer repeat them; import_skypilot_catalog, _sku_find and _known_gpus have theirs in 20_prices.sql.

CREATE OR REPLACE FUNCTION llm_econ._sku_map(names text[], OUT name text, OUT sku text, OUT gpus_per_instance int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_sku_map_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_map(text[]) IS 'internal: for each name that means a SKU, its gpu_sku key and the GPUs per machine gpu_sku_alias knows for it (NULL: unknown), as _sku_find and _known_gpus give them';

CREATE OR REPLACE FUNCTION llm_econ._staged_history()
RETURNS TABLE (line bigint, observed_at timestamptz, valid_to timestamptz, cloud text, region text,
               instance_type text, n int4, od numeric, spot numeric, sku text, problem text)
LANGUAGE sql STABLE
AS $$
  WITH names AS (SELECT s.instance_type AS name FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
                 UNION SELECT s.accelerator FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER),
       map AS (SELECT m.name, m.sku FROM llm_econ._sku_map(ARRAY(SELECT names.name FROM names)) AS m)
  SELECT row_number() OVER (ORDER BY s.id) + 1, s.observed_at::timestamptz, s.valid_to::timestamptz,
         s.cloud, s.region, s.instance_type, s.accelerator_count::numeric::int4,
         llm_econ._usd(coalesce(nullif(s.price_on_demand_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.price_on_demand_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         llm_econ._usd(coalesce(nullif(s.spot_price_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.spot_price_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         coalesce(mi.sku, ma.sku),
         CASE
           WHEN mi.sku IS NOT NULL AND ma.sku IS NOT NULL AND mi.sku <> ma.sku
             THEN format('accelerator "%s" is not what "%s" carries ("%s")', s.accelerator, s.instance_type, mi.sku)
           WHEN mi.sku IS NULL AND ma.sku IS NULL
             THEN format('unknown accelerator "%s"', s.accelerator)
         END
    FROM llm_econ.price_history_staging s
    LEFT JOIN map mi ON mi.name = s.instance_type
    LEFT JOIN map ma ON ma.name = s.accelerator
   WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
$$;
COMMENT ON FUNCTION llm_econ._staged_history() IS 'internal: the rows the current role staged in price_history_staging, typed, with line numbers and SKUs';


CREATE OR REPLACE FUNCTION llm_econ._price_series_prune() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ids int8[];
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('DELETE', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_prune() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- 1. lock the candidate series.  An UPDATE can empty only the series of rows it moved to
  --    another series: the rows whose id now holds the same series (as after the suspect flag's
  --    UPDATE) are left out, with one primary-key probe each.
  SELECT array_agg(c.series_id) INTO ids
    FROM (SELECT s.series_id
            FROM llm_econ.price_series s
           WHERE s.series_id IN (SELECT o.series_id FROM old_rows o
                                  WHERE TG_OP = 'DELETE'
                                     OR NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p
                                                     WHERE p.id = o.id AND p.series_id = o.series_id))
           ORDER BY s.series_id
             FOR UPDATE OF s) AS c;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- 2. in a new statement (a new snapshot), delete those still without observations
  DELETE FROM llm_econ.price_series s
   WHERE s.series_id = ANY (ids)
     AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p WHERE p.series_id = s.series_id);
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';


CREATE OR REPLACE FUNCTION llm_econ._load_price_history(source text, on_mismatch text, quiet boolean,
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  num constant text := '^[0-9]+(\.[0-9]+)?$';
  ts constant text := '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)$';
  bad record;
  names text;
  me text;
BEGIN
  IF source IS NULL OR btrim(source) = '' THEN
    RAISE EXCEPTION 'source must name where the history comes from' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF on_mismatch IS NULL OR on_mismatch NOT IN ('error', 'skip') THEN
    RAISE EXCEPTION 'on_mismatch must be one of error, skip, got "%"', on_mismatch USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'load_price_history', upper(current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  me := CURRENT_USER;   -- only the rows this role staged: two writers never load each other's

  -- 1. every field well-formed; the first bad line is the error
  SELECT * INTO bad FROM (
    SELECT row_number() OVER (ORDER BY s.id) + 1 AS line, s.*,
           CASE
             WHEN s.observed_at IS NULL OR s.observed_at !~ ts THEN 'observed_at is not an ISO 8601 timestamp'
             WHEN s.valid_to IS NULL OR s.valid_to !~ ts THEN 'valid_to is not an ISO 8601 timestamp'
             WHEN s.cloud IS NULL OR s.cloud !~ '^[a-z0-9][a-z0-9._-]*$' THEN 'cloud must be a lower-case provider name'
             WHEN s.region IS NULL OR s.region = '' THEN 'region is empty'
             WHEN s.instance_type IS NULL OR s.instance_type = '' THEN 'instance_type is empty'
             WHEN s.accelerator IS NULL OR s.accelerator = '' THEN 'accelerator is empty'
             WHEN s.accelerator_count IS NULL OR s.accelerator_count !~ '^[1-9][0-9]{0,3}(\.0+)?$' THEN 'accelerator_count is not a whole number in [1, 9999]'
             WHEN coalesce(s.price_on_demand_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'price_on_demand_usd_per_hour is not a non-negative number'
             WHEN coalesce(s.spot_price_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'spot_price_usd_per_hour is not a non-negative number'
             WHEN coalesce(s.price_on_demand_per_gpu_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'price_on_demand_per_gpu_usd_per_hour is not a non-negative number'
             WHEN coalesce(s.spot_price_per_gpu_usd_per_hour, '') !~ ('(' || num || ')|^$') THEN 'spot_price_per_gpu_usd_per_hour is not a non-negative number'
           END AS problem
      FROM llm_econ.price_history_staging s WHERE s.staged_by = me) AS v
   WHERE v.problem IS NOT NULL ORDER BY v.line LIMIT 1;
  IF FOUND THEN
    -- a line number reaches the CONTEXT only from C: here it is a sentence of the DETAIL
    RAISE EXCEPTION '%', bad.problem
      USING ERRCODE = 'bad_copy_file_format',
            DETAIL = format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L, valid_to %L, cloud %L, region %L, instance_type %L, accelerator %L, accelerator_count %L and prices %L/%L/%L/%L.',
                            bad.line, bad.observed_at, bad.valid_to, bad.cloud, bad.region, bad.instance_type, bad.accelerator,
                            bad.accelerator_count, bad.price_on_demand_usd_per_hour, bad.spot_price_usd_per_hour,
                            bad.price_on_demand_per_gpu_usd_per_hour, bad.spot_price_per_gpu_usd_per_hour);
  END IF;

  -- 2. one pass over the typed lines: the patterns above still let an impossible date through
  --    (2024-02-30), which fails the cast (then find its line); else the first line whose
  --    interval is empty, then the first line dated in the future
  BEGIN
    SELECT * INTO bad FROM (
      SELECT h.*, CASE WHEN h.valid_to <= h.observed_at THEN 1
                       WHEN h.observed_at > now() + interval '1 day' THEN 2 END AS why
        FROM llm_econ._staged_history() AS h) AS v
     WHERE v.why IS NOT NULL ORDER BY v.why, v.line LIMIT 1;
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    FOR bad IN SELECT row_number() OVER (ORDER BY s.id) + 1 AS line, s.observed_at, s.valid_to
                 FROM llm_econ.price_history_staging s WHERE s.staged_by = me ORDER BY s.id LOOP
      BEGIN
        PERFORM bad.observed_at::timestamptz, bad.valid_to::timestamptz;
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION '%', SQLERRM USING ERRCODE = 'bad_copy_file_format',
          DETAIL = format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L and valid_to %L.',
                          bad.line, bad.observed_at, bad.valid_to);
      END;
    END LOOP;
    RAISE;
  END;
  IF bad.why = 1 THEN
    RAISE EXCEPTION 'valid_to % is not after observed_at %', bad.valid_to, bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('This is line %s of the staged history (line 1 is the CSV header).', bad.line);
  ELSIF bad.why = 2 THEN
    RAISE EXCEPTION 'observed_at % is later than now() + 1 day', bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
            HINT = 'A price cannot be observed in the future.';
  END IF;
  IF on_mismatch = 'error' THEN
    SELECT * INTO bad FROM llm_econ._staged_history() h
     WHERE h.problem IS NOT NULL AND h.problem NOT LIKE 'unknown%' ORDER BY h.line LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION '%', bad.problem USING ERRCODE = 'invalid_parameter_value',
        DETAIL = format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
        HINT = 'The instance type decides the GPU; on_mismatch => ''skip'' counts such lines as skipped.';
    END IF;
  END IF;

  PERFORM set_config('llm_econ.import_kind', 'history', true);
  -- 3. candidates: each line's prices (0 or empty = not offered), and withdrawals where a
  --    machine disappears (a gap before its next line, or an end before the end of coverage)
  WITH staged AS MATERIALIZED (SELECT * FROM llm_econ._staged_history()),
       h AS (
         SELECT x.*, lead(x.observed_at) OVER (PARTITION BY x.cloud, x.region, x.instance_type ORDER BY x.observed_at) AS next_at,
                (SELECT max(y.valid_to) FROM staged y) AS coverage_end
           FROM staged x WHERE x.problem IS NULL),
       cand AS (
         SELECT h.observed_at AS t, h.cloud, h.sku, h.region, k.pricing,
                nullif(CASE k.pricing WHEN 'on_demand' THEN h.od ELSE h.spot END, 0) AS usd,
                h.instance_type, h.n
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
         UNION ALL
         SELECT h.valid_to, h.cloud, h.sku, h.region, k.pricing, NULL, h.instance_type, h.n
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
          WHERE (h.next_at IS NULL AND h.valid_to < h.coverage_end) OR h.valid_to < h.next_at),
       arr AS (SELECT array_agg(t) AS t, array_agg(cloud) AS pr, array_agg(sku) AS sk, array_agg(region) AS rg,
                      array_agg(pricing) AS pc, array_agg(usd) AS us, array_agg(instance_type) AS it, array_agg(n) AS gp
                 FROM (SELECT * FROM cand ORDER BY t) AS o),
       stats AS (SELECT count(*) AS n, string_agg(DISTINCT x.problem, '; ') AS names
                   FROM staged x WHERE x.problem IS NOT NULL)
  SELECT rp.inserted, rp.unchanged, rp.withdrawn, stats.n, stats.names
    INTO inserted, unchanged, withdrawn, skipped, names
    FROM arr, stats, LATERAL llm_econ._record_prices(arr.t, arr.pr, arr.sk, arr.rg, arr.pc, arr.us, arr.it, arr.gp, source) AS rp;
  PERFORM set_config('llm_econ.import_kind', '', true);
  IF skipped > 0 AND NOT quiet THEN
    RAISE NOTICE 'skipped % lines', skipped USING DETAIL = 'Why: ' || left(names, 500) || '.';
  END IF;

  DELETE FROM llm_econ.price_history_staging s WHERE s.staged_by = me;
  inserted := coalesce(inserted, 0);
  unchanged := coalesce(unchanged, 0);
  withdrawn := coalesce(withdrawn, 0);
END $$;
COMMENT ON FUNCTION llm_econ._load_price_history(text, text, boolean) IS
  'internal: load_price_history with the install script''s quiet mode';

