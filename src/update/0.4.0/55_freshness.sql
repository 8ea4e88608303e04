-- 55_freshness.sql: price_snapshot.last_seen_at (when a source last listed a price unchanged), filled for the rows stored before 0.4.0, and the readers that count max_age and age from it.

-- The column, last as in a fresh install (src/sql/tables.sql).
ALTER TABLE llm_econ.price_snapshot
  ADD COLUMN last_seen_at timestamptz CHECK (last_seen_at OPERATOR(pg_catalog.>=) observed_at);
COMMENT ON COLUMN llm_econ.price_snapshot.last_seen_at IS
  'the latest instant a source listed this price unchanged; max_age and age count from it; NULL = seen only at observed_at';

-- The rows stored before 0.4.0 get the last sighting their own history shows (docs/prices.md,
-- "Freshness"), with the user triggers off (no price, instant or key changes: the summaries and
-- series stay as they are):
-- - the shipped GCP history: what the loader gives it (the valid_to of the last line listing the
--   price), from the shipped change points (gcp_gpu_price_history_change_points.csv), whose ids
--   an updated install shares;
-- - a catalog price: the latest import of its provider and source from its observation up to the
--   series' next one (each of those catalogs listed it unchanged: one that did not would have
--   stored a change or a withdrawal), else its observation;
-- - a price from another history: until the series' next observation (the history vouched for
--   it until then), else until the latest observation of that history's source;
-- - seed figures and prices entered by hand: NULL, seen only when observed.
ALTER TABLE llm_econ.price_snapshot DISABLE TRIGGER USER;
CREATE TEMP TABLE _shipped_last_seen (id bigint, observed_at text, provider text, sku text, region text, pricing text,
    usd_per_gpu_hour text, instance_type text, gpus_per_instance text, last_seen_at timestamptz);
DO $load$
DECLARE
  dir constant text := (SELECT c.setting FROM pg_catalog.pg_config() c
                         WHERE c.name OPERATOR(pg_catalog.=) 'SHAREDIR') || '/extension/llm_econ/';
BEGIN
  EXECUTE 'COPY pg_temp._shipped_last_seen FROM ' || pg_catalog.quote_literal(dir || 'gcp_gpu_price_history_change_points.csv')
       || ' WITH (FORMAT csv, HEADER MATCH, ENCODING ''UTF8'')';
END
$load$;
UPDATE llm_econ.price_snapshot p SET last_seen_at = s.last_seen_at
  FROM pg_temp._shipped_last_seen s
 WHERE p.builtin AND p.source_kind OPERATOR(pg_catalog.=) 'history' AND p.provider OPERATOR(pg_catalog.=) 'gcp'
   AND p.id OPERATOR(pg_catalog.=) s.id AND p.usd_per_gpu_hour IS NOT NULL AND s.last_seen_at IS NOT NULL;
DROP TABLE pg_temp._shipped_last_seen;
UPDATE llm_econ.price_snapshot p
   SET last_seen_at = GREATEST(p.observed_at,
         (SELECT pg_catalog.max(i.observed_at) FROM llm_econ.price_import i
           WHERE i.provider OPERATOR(pg_catalog.=) p.provider AND i.source OPERATOR(pg_catalog.=) p.source
             AND i.observed_at OPERATOR(pg_catalog.>=) p.observed_at
             AND i.observed_at OPERATOR(pg_catalog.<) coalesce(
                   (SELECT pg_catalog.min(q.observed_at) FROM llm_econ.price_snapshot q
                     WHERE q.series_id OPERATOR(pg_catalog.=) p.series_id AND q.observed_at OPERATOR(pg_catalog.>) p.observed_at),
                   'infinity'::timestamptz)))
 WHERE p.source_kind OPERATOR(pg_catalog.=) 'catalog' AND p.usd_per_gpu_hour IS NOT NULL;
UPDATE llm_econ.price_snapshot p
   SET last_seen_at = GREATEST(p.observed_at, coalesce(
         (SELECT pg_catalog.min(q.observed_at) FROM llm_econ.price_snapshot q
           WHERE q.series_id OPERATOR(pg_catalog.=) p.series_id AND q.observed_at OPERATOR(pg_catalog.>) p.observed_at),
         src.last_at))
  FROM (SELECT q.source, pg_catalog.max(q.observed_at) AS last_at FROM llm_econ.price_snapshot q   -- one pass, not one per row
         WHERE q.source_kind OPERATOR(pg_catalog.=) 'history' AND NOT q.builtin GROUP BY q.source) AS src
 WHERE p.source OPERATOR(pg_catalog.=) src.source
   AND p.source_kind OPERATOR(pg_catalog.=) 'history' AND NOT p.builtin AND p.usd_per_gpu_hour IS NOT NULL;
ALTER TABLE llm_econ.price_snapshot ENABLE TRIGGER USER;

-- price_at (C, src/price.c) counts max_age from the last sighting too
COMMENT ON FUNCTION llm_econ.price_at(text, text, text, timestamptz, text, interval) IS
  '$/GPU-hour in effect at "at" (not suspect, withdrawn or older than max_age); sku may be an instance type; region NULL = cheapest region; NULL when nothing is known';

-- The as-of core returns the last sighting, and its two BEGIN ATOMIC readers with it: dropped
-- (readers first) and created as in a fresh install.
DROP FUNCTION llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text, interval, text[], boolean);
DROP FUNCTION llm_econ._plan_offers(timestamptz, text, interval);
DROP FUNCTION llm_econ._latest_prices(text, text, text, timestamptz, text, text, interval);

CREATE FUNCTION llm_econ._latest_prices(sku text, provider text, pricing text, at timestamptz, region text,
                                        itype text, max_age interval)
RETURNS TABLE (provider text, region text, instance_type text, pricing text,
               observed_at timestamptz, usd_per_gpu_hour numeric, gpus_per_instance int4,
               source_kind text, suspect text, last_seen_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT s.provider, s.region, s.instance_type, s.pricing, o.observed_at, o.usd_per_gpu_hour,
         o.gpus_per_instance, o.source_kind, o.suspect, o.last_seen_at
    FROM llm_econ.price_series s
   CROSS JOIN LATERAL (
         SELECT p.observed_at, p.usd_per_gpu_hour, p.gpus_per_instance, p.source_kind, p.suspect,
                coalesce(p.last_seen_at, p.observed_at) AS last_seen_at
           FROM llm_econ.price_snapshot p
          WHERE p.series_id OPERATOR(pg_catalog.=) s.series_id
            AND p.observed_at OPERATOR(pg_catalog.<=) $4
          ORDER BY p.observed_at DESC
          LIMIT 1) o
   WHERE s.sku OPERATOR(pg_catalog.=) $1
     AND s.provider OPERATOR(pg_catalog.=) $2
     AND s.pricing OPERATOR(pg_catalog.=) $3
     AND ($5 IS NULL OR s.region OPERATOR(pg_catalog.=) ANY (ARRAY[$5, pg_catalog.lower($5), pg_catalog.upper($5)]))
     AND ($6 IS NULL OR llm_econ._name_key(s.instance_type) OPERATOR(pg_catalog.=) llm_econ._name_key($6))
     AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i   -- a slice of a GPU is no whole GPU's price
                      WHERE i.provider OPERATOR(pg_catalog.=) s.provider
                        AND pg_catalog.lower(i.instance_type) OPERATOR(pg_catalog.=) pg_catalog.lower(s.instance_type)
                        AND i.gpus OPERATOR(pg_catalog.<) 1::numeric)
     AND o.usd_per_gpu_hour IS NOT NULL
     AND ($7 IS NULL OR o.last_seen_at OPERATOR(pg_catalog.>=) llm_econ._shift($4, OPERATOR(pg_catalog.-) $7));
END;
COMMENT ON FUNCTION llm_econ._latest_prices(text, text, text, timestamptz, text, text, interval) IS
  'internal: the price in effect at "at" of every series of a SKU, provider and pricing (region, instance type NULL = any), with its last sighting';

CREATE FUNCTION llm_econ._plan_offers(at timestamptz, pricing text, max_age interval)
RETURNS TABLE (sku text, provider text, region text, instance_type text, pricing text,
               usd_per_gpu_hour numeric, gpus_per_instance int4, observed_at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT ps.sku, l.provider, l.region, l.instance_type, l.pricing, l.usd_per_gpu_hour,
         l.gpus_per_instance, l.observed_at
    FROM (SELECT DISTINCT s.sku, s.provider, s.pricing FROM llm_econ.price_series s
           WHERE llm_econ._check_pricing($2) IS NULL
              OR s.pricing OPERATOR(pg_catalog.=) llm_econ._check_pricing($2)) AS ps
   CROSS JOIN LATERAL llm_econ._latest_prices(ps.sku, ps.provider, ps.pricing, $1, NULL, NULL,
                                              llm_econ._check_max_age($3)) AS l
   WHERE l.suspect IS NULL;
END;
COMMENT ON FUNCTION llm_econ._plan_offers(timestamptz, text, interval) IS
  'internal: the offers cheapest_plan prices with, in effect at "at", of one pricing (NULL = all)';

CREATE FUNCTION llm_econ._check_source_kinds(kinds text[]) RETURNS text[]
AS 'MODULE_PATHNAME', 'le_check_source_kinds_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_source_kinds(text[]) IS
  'internal: the kinds (catalog, history, seed, manual; any case) canonical, NULL for NULL; else 22023 listing the valid ones';

CREATE FUNCTION llm_econ.cheapest_offers(spec llm_econ.run_spec, at timestamptz DEFAULT pg_catalog.now(),
                                         pricing text DEFAULT NULL, max_age interval DEFAULT NULL,
                                         source_kinds text[] DEFAULT NULL, include_suspect boolean DEFAULT false)
RETURNS TABLE (provider text, region text, pricing text, usd_per_gpu_hour numeric,
               observed_at timestamptz, wall_time interval, cost_usd numeric,
               instance_type text, gpus_per_instance int4, age interval, source_kind text)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT o.provider, o.region, o.pricing, o.usd_per_gpu_hour, o.observed_at,
         llm_econ.mfu_time($1), llm_econ.estimate_cost($1, o.usd_per_gpu_hour),
         o.instance_type, o.gpus_per_instance,
         $2 OPERATOR(pg_catalog.-) LEAST(o.last_seen_at, $2), o.source_kind
    FROM (SELECT DISTINCT ON (l.provider, l.region, l.pricing) l.*
            FROM (SELECT DISTINCT ps.provider, ps.pricing FROM llm_econ.price_series ps
                   WHERE ps.sku OPERATOR(pg_catalog.=) ($1).sku
                     AND (llm_econ._check_pricing($3) IS NULL
                          OR ps.pricing OPERATOR(pg_catalog.=) llm_econ._check_pricing($3))) AS pp
           CROSS JOIN LATERAL llm_econ._latest_prices(($1).sku, pp.provider, pp.pricing, $2, NULL, NULL,
                                                      llm_econ._check_max_age($4)) AS l
           WHERE ($5 IS NULL OR l.source_kind OPERATOR(pg_catalog.=) ANY (llm_econ._check_source_kinds($5)))
             AND ($6 OR l.suspect IS NULL)
             AND (l.gpus_per_instance IS NULL
                  OR ($1).n_gpus OPERATOR(pg_catalog.<=) l.gpus_per_instance
                  OR l.gpus_per_instance OPERATOR(pg_catalog.>=) ($1).gpus_per_node)
           ORDER BY l.provider, l.region, l.pricing, l.usd_per_gpu_hour, l.instance_type) AS o
   ORDER BY 7, 1, 2, 3;
END;
COMMENT ON FUNCTION llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text, interval, text[], boolean) IS
  'the offers of the spec''s SKU in effect at "at" that a run of its size can use, the cheapest instance type of each, with wall time, cost and age, cheapest first';

CREATE FUNCTION llm_econ._recording() RETURNS boolean
AS 'MODULE_PATHNAME', 'le_recording_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._recording() IS
  'internal: true while the price recorder (_record_prices) runs for a role allowed to insert into price_snapshot';

CREATE FUNCTION llm_econ._mark_seen(series_id int8[], observed_at timestamptz[], seen timestamptz[])
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
SET session_replication_role = replica
AS $$
DECLARE
  n bigint;
BEGIN
  IF NOT llm_econ._recording() THEN
    RAISE EXCEPTION 'only the price recorder marks prices as seen again'
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Import a catalog (import_skypilot_catalog) or a history (load_price_history) that lists the offer.';
  END IF;
  UPDATE llm_econ.price_snapshot p SET last_seen_at = x.seen
    FROM ROWS FROM (pg_catalog.unnest(_mark_seen.series_id), pg_catalog.unnest(_mark_seen.observed_at), pg_catalog.unnest(_mark_seen.seen))
         AS x(series_id, observed_at, seen)
   WHERE p.series_id = x.series_id AND p.observed_at = x.observed_at AND p.usd_per_gpu_hour IS NOT NULL
     AND x.seen > coalesce(p.last_seen_at, p.observed_at);
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._mark_seen(int8[], timestamptz[], timestamptz[]) FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._mark_seen(int8[], timestamptz[], timestamptz[]) IS
  'internal: moves last_seen_at of stored prices forward; the price recorder alone calls it';

-- the view shows the last sighting too (a column added at the end)
CREATE OR REPLACE VIEW llm_econ.price_history WITH (security_invoker = true) AS
  SELECT p.observed_at AS "time", p.sku, p.provider, p.region, p.pricing, p.usd_per_gpu_hour,
         p.instance_type, p.source, p.source_kind, p.gpus_per_instance, p.suspect,
         CASE WHEN p.usd_per_gpu_hour IS NOT NULL THEN coalesce(p.last_seen_at, p.observed_at) END AS last_seen_at
    FROM llm_econ.price_snapshot p;
COMMENT ON COLUMN llm_econ.price_history.last_seen_at IS 'the last time a source listed this price unchanged (observed_at when only seen then); NULL for a withdrawal';

-- the view shows the last sighting too (a column added at the end)
CREATE OR REPLACE VIEW llm_econ.price_series_spans WITH (security_invoker = true) AS
  SELECT o.observed_at AS "time", s.sku, s.provider, s.region, s.instance_type, s.pricing,
         o.observed_at AS valid_from, o.valid_to, o.usd_per_gpu_hour, o.last_seen_at
    FROM llm_econ.price_series s
   CROSS JOIN LATERAL (
         SELECT p.observed_at, pg_catalog.lead(p.observed_at) OVER (ORDER BY p.observed_at) AS valid_to,
                p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at) AS last_seen_at
           FROM llm_econ.price_snapshot p
          WHERE p.series_id OPERATOR(pg_catalog.=) s.series_id) AS o
   WHERE o.usd_per_gpu_hour IS NOT NULL;
COMMENT ON COLUMN llm_econ.price_series_spans.last_seen_at IS
  'the last time a source listed the price unchanged; price_at''s max_age counts from it';

-- price_twap's coverage (issue 31): how much of the period the average covers, and for which run
CREATE FUNCTION llm_econ.price_twap_coverage(sku text, provider text, pricing text, during tstzrange,
                                             region text DEFAULT NULL, max_age interval DEFAULT NULL,
                                             spec llm_econ.run_spec DEFAULT NULL,
                                             OUT usd_per_gpu_hour numeric, OUT coverage numeric, OUT covered interval)
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key text;
  itype text;
  pr text;
  prov text;
  run_gpus int4;
  node_gpus int4;
  secs numeric;
BEGIN
  IF sku IS NULL OR provider IS NULL OR pricing IS NULL OR during IS NULL THEN
    RETURN;
  END IF;
  IF pg_catalog.isempty(during) OR pg_catalog.lower_inf(during) OR pg_catalog.upper_inf(during)
     OR NOT pg_catalog.isfinite(pg_catalog.lower(during)) OR NOT pg_catalog.isfinite(pg_catalog.upper(during)) THEN
    RAISE EXCEPTION 'during must be a non-empty range with finite bounds, got %', during
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  key := llm_econ._sku_key(sku);
  PERFORM llm_econ._check_name(provider, 'provider'), llm_econ._check_name(region, 'region');
  itype := llm_econ._sku_itype(sku);
  pr := llm_econ._check_pricing(pricing);
  PERFORM llm_econ._check_max_age(max_age);
  IF NOT (spec IS NULL) THEN   -- given (a row IS NOT NULL only when every field is)
    IF spec.sku IS NULL OR llm_econ._sku_key(spec.sku) <> key THEN
      RAISE EXCEPTION 'spec is a run on %, not on %', coalesce(spec.sku, '(no sku)'), key
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'spec only says which instances the run can use: pass the spec of a run on that SKU.';
    END IF;
    IF spec.n_gpus IS NULL OR spec.n_gpus < 1 OR spec.gpus_per_node IS NULL OR spec.gpus_per_node < 1 THEN
      RAISE EXCEPTION 'spec must have n_gpus and gpus_per_node >= 1' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    run_gpus := spec.n_gpus;
    node_gpus := spec.gpus_per_node;
  END IF;
  prov := pg_catalog.lower(pg_catalog.btrim(price_twap_coverage.provider));
  WITH series AS (
         SELECT s.* FROM llm_econ.price_series s
          WHERE s.sku = key AND s.provider = prov AND s.pricing = pr
            AND (price_twap_coverage.region IS NULL OR s.region = ANY (ARRAY[price_twap_coverage.region, pg_catalog.lower(price_twap_coverage.region), pg_catalog.upper(price_twap_coverage.region)]))
            AND (itype IS NULL OR llm_econ._name_key(s.instance_type) = llm_econ._name_key(itype))
            AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i   -- a slice of a GPU is no whole GPU's price
                             WHERE i.provider = s.provider AND pg_catalog.lower(i.instance_type) = pg_catalog.lower(s.instance_type)
                               AND i.gpus < 1::numeric)),
       obs AS (     -- each series: its observation in effect at the start, and those inside the period;
                    -- for a run (spec), a price of an instance it cannot use counts as no offer
                    -- (cheapest_offers' rule: more GPUs than one instance needs gpus_per_node)
         SELECT s.series_id, o.observed_at,
                CASE WHEN run_gpus IS NULL OR o.gpus IS NULL OR run_gpus <= o.gpus OR o.gpus >= node_gpus
                     THEN o.usd_per_gpu_hour END AS usd_per_gpu_hour, o.seen
           FROM series s
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at) AS seen, p.gpus_per_instance AS gpus
                   FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at <= pg_catalog.lower(during)
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at), p.gpus_per_instance
                   FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at > pg_catalog.lower(during) AND p.observed_at < pg_catalog.upper(during))) o),
       spans AS (   -- [a, b): when each observation holds (until max_age after it was last seen), clipped to the period
         SELECT greatest(obs.observed_at, pg_catalog.lower(during)) AS a,
                least(coalesce(pg_catalog.lead(obs.observed_at) OVER w, pg_catalog.upper(during)), pg_catalog.upper(during),
                      CASE WHEN max_age IS NULL THEN pg_catalog.upper(during) ELSE llm_econ._shift(obs.seen, max_age) END) AS b,
                obs.usd_per_gpu_hour AS p
           FROM obs WINDOW w AS (PARTITION BY obs.series_id ORDER BY obs.observed_at)),
       cuts AS (SELECT a AS t FROM spans UNION SELECT b FROM spans),
       pieces AS (SELECT t AS a, pg_catalog.lead(t) OVER (ORDER BY t) AS b FROM cuts),
       cheapest AS (
         SELECT x.a, x.b, pg_catalog.min(s.p) AS p
           FROM pieces x JOIN spans s ON s.a <= x.a AND s.b >= x.b AND s.p IS NOT NULL
          WHERE x.b IS NOT NULL AND x.b > x.a
          GROUP BY x.a, x.b)
  SELECT pg_catalog.sum(p * extract(epoch FROM b - a)) / nullif(pg_catalog.sum(extract(epoch FROM b - a)), 0),
         pg_catalog.sum(extract(epoch FROM b - a))
    INTO usd_per_gpu_hour, secs FROM cheapest;
  IF usd_per_gpu_hour IS NULL THEN
    PERFORM llm_econ._check_where(prov, price_twap_coverage.region);
  END IF;
  secs := coalesce(secs, 0);
  covered := pg_catalog.make_interval(secs => secs::float8);
  -- an instant ([t, t]) has no length: nothing of it is covered (the average is NULL there too)
  coverage := CASE WHEN pg_catalog.upper(during) = pg_catalog.lower(during) THEN 0::numeric
                   ELSE pg_catalog.round(secs / extract(epoch FROM pg_catalog.upper(during) - pg_catalog.lower(during)), 6) END;
END $$;
COMMENT ON FUNCTION llm_econ.price_twap_coverage(text, text, text, tstzrange, text, interval, llm_econ.run_spec) IS
  'price_twap, the share of the period (0 to 1) some offer was in effect and that time; with spec, only instances a run of it can use';

-- Errors speak to users (issue 31): a user-facing PL/pgSQL function's error without internal query text
CREATE FUNCTION llm_econ._reraise(sqlstate text, message text, detail text, hint text, context text) RETURNS void
AS 'MODULE_PATHNAME', 'le_reraise_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._reraise(text, text, text, text, text) IS
  'internal: raises again an error a user-facing PL/pgSQL function caught, without the extension''s own CONTEXT lines';
