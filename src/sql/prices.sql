-- Price lookups over price_snapshot: as-of prices, time-weighted averages, cheapest offers, dashboard views (STABLE: they read tables).

-- Names as people type them: case, spaces, '-' and '_' do not matter ('H100 80GB' = 'h100-80gb').
CREATE OR REPLACE FUNCTION llm_econ._name_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.lower(pg_catalog.translate($1, ' -_', '') COLLATE pg_catalog."C"); END;
COMMENT ON FUNCTION llm_econ._name_key(text) IS
  'internal: a name as compared: lower case, without spaces, hyphens and underscores';

-- max_age must be a non-negative interval (NULL = no bound).
CREATE OR REPLACE FUNCTION llm_econ._check_max_age(max_age interval) RETURNS interval
AS 'MODULE_PATHNAME', 'le_check_max_age_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_max_age(interval) IS 'internal: returns max_age if it is NULL or an interval >= 0 (no negative part), else raises 22023';

-- t + by that never fails: past either end of the timestamp range it is -infinity or infinity
-- (an age bound reaching past the range bounds nothing; PostgreSQL's + raises 22008 there).
CREATE OR REPLACE FUNCTION llm_econ._shift(t timestamptz, by interval) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'le_shift_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._shift(timestamptz, interval) IS 'internal: t + by, or -infinity/infinity when the sum is outside the timestamp range (no error)';

CREATE OR REPLACE FUNCTION llm_econ._check_source_kinds(kinds text[]) RETURNS text[]
AS 'MODULE_PATHNAME', 'le_check_source_kinds_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_source_kinds(text[]) IS
  'internal: the kinds (catalog, history, seed, manual; any case) canonical, NULL for NULL; else 22023 listing the valid ones';

-- The price lookup, defined once (issue 42): for each series of (sku, provider, pricing) in region
-- (NULL = any; compared ASCII case-insensitively: 'east coast (ny2)' finds 'East Coast (NY2)',
-- never by the database collation) and of instance type itype (NULL = any), its latest observation
-- at or before "at" that the import did not flag suspect (include_suspect: any), unless that
-- observation is a withdrawal or was last seen (last_seen_at, else observed_at) more than max_age
-- before "at" (NULL = no bound: carried until withdrawn); slices of a GPU left out.  price_at,
-- estimate_cost, cheapest_offers, cheapest_plan (_plan_offers) and run_plan's frozen price all read
-- it.  One index probe per series (price_snapshot_one_observation, by series_id), so the cost grows
-- with the number of series and log(history), not with the history.  A plain SQL function: the
-- planner inlines it, and sku, provider and pricing are equalities on price_series' key even in
-- a generic plan.
CREATE OR REPLACE FUNCTION llm_econ._latest_prices(sku text, provider text, pricing text, at timestamptz, region text,
                                        itype text, max_age interval, include_suspect boolean DEFAULT false)
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
            AND (p.suspect IS NULL OR $8 IS TRUE)
          ORDER BY p.observed_at DESC
          LIMIT 1) o
   WHERE s.sku OPERATOR(pg_catalog.=) $1
     AND s.provider OPERATOR(pg_catalog.=) $2
     AND s.pricing OPERATOR(pg_catalog.=) $3
     AND ($5 IS NULL OR pg_catalog.lower(s.region COLLATE pg_catalog."C") OPERATOR(pg_catalog.=) pg_catalog.lower($5 COLLATE pg_catalog."C"))
     AND ($6 IS NULL OR llm_econ._name_key(s.instance_type) OPERATOR(pg_catalog.=) llm_econ._name_key($6))
     AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i   -- a slice of a GPU is no whole GPU's price
                      WHERE i.provider OPERATOR(pg_catalog.=) s.provider
                        AND pg_catalog.lower(i.instance_type COLLATE pg_catalog."C") OPERATOR(pg_catalog.=) pg_catalog.lower(s.instance_type COLLATE pg_catalog."C")
                        AND i.gpus OPERATOR(pg_catalog.<) 1::numeric)
     AND o.usd_per_gpu_hour IS NOT NULL
     AND ($7 IS NULL OR o.last_seen_at OPERATOR(pg_catalog.>=) llm_econ._shift($4, OPERATOR(pg_catalog.-) $7));
END;
COMMENT ON FUNCTION llm_econ._latest_prices(text, text, text, timestamptz, text, text, interval, boolean) IS
  'internal: the price in effect at "at" of every series of a SKU, provider and pricing (region, instance type NULL = any; suspect prices out unless asked), with its last sighting';

-- A run rents whole machines (issue 45): the GPUs a run of n_gpus pays on machines of
-- gpus_per_instance GPUs (NULL = size unknown: n_gpus), ceil(n / g) * g, or NULL when such
-- machines cannot carry it (beyond one machine only node-sized machines, gpus_per_node): the rule
-- of cheapest_plan's search, in C (src/core/search.c, le_billed_gpus).
CREATE OR REPLACE FUNCTION llm_econ._billed_gpus(n_gpus int4, gpus_per_instance int4, gpus_per_node int4) RETURNS int4
AS 'MODULE_PATHNAME', 'le_billed_gpus_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._billed_gpus(int4, int4, int4) IS
  'internal: GPUs a run of n_gpus pays renting whole machines of gpus_per_instance (NULL = unknown size); NULL when they cannot carry it';

-- Per (provider, region, pricing) of sku, the machine that makes a run of n_gpus GPUs
-- (gpus_per_node per node) cheapest at "at": every usable machine's price (_latest_prices) times
-- the GPUs it bills (_billed_gpus), the lowest kept (ties: the instance type's name).  Also what the
-- run pays per GPU-hour of its own GPUs, usd_per_gpu_hour · billed_gpus / n_gpus (the price
-- itself when the run fills its machines).  provider, pricing NULL: the caller loops over them.
CREATE OR REPLACE FUNCTION llm_econ._run_offers(sku text, n_gpus int4, gpus_per_node int4, provider text, pricing text,
                                     at timestamptz, region text, max_age interval,
                                     source_kinds text[] DEFAULT NULL, include_suspect boolean DEFAULT false)
RETURNS TABLE (provider text, region text, instance_type text, pricing text,
               observed_at timestamptz, usd_per_gpu_hour numeric, gpus_per_instance int4,
               source_kind text, suspect text, last_seen_at timestamptz,
               instances int4, billed_gpus int4, run_usd_per_gpu_hour numeric)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT DISTINCT ON (l.provider, l.region, l.pricing)
         l.provider, l.region, l.instance_type, l.pricing, l.observed_at, l.usd_per_gpu_hour,
         l.gpus_per_instance, l.source_kind, l.suspect, l.last_seen_at,
         b.billed OPERATOR(pg_catalog./) l.gpus_per_instance, b.billed,
         CASE WHEN b.billed OPERATOR(pg_catalog.=) $2 THEN l.usd_per_gpu_hour
              ELSE l.usd_per_gpu_hour OPERATOR(pg_catalog.*) b.billed::numeric OPERATOR(pg_catalog./) $2::numeric END
    FROM llm_econ._latest_prices($1, $4, $5, $6, $7, NULL, $8, $10) l
   CROSS JOIN LATERAL (SELECT llm_econ._billed_gpus($2, l.gpus_per_instance, $3) AS billed) b
   WHERE b.billed IS NOT NULL
     AND ($9 IS NULL OR l.source_kind OPERATOR(pg_catalog.=) ANY (llm_econ._check_source_kinds($9)))
   ORDER BY l.provider, l.region, l.pricing, l.usd_per_gpu_hour OPERATOR(pg_catalog.*) b.billed::numeric, l.instance_type;
END;
COMMENT ON FUNCTION llm_econ._run_offers(text, int4, int4, text, text, timestamptz, text, interval, text[], boolean) IS
  'internal: per region of a provider and pricing, the machine that makes a run of n_gpus cheapest at "at", with the instances and GPUs it bills';

-- What a run pays per GPU-hour of its own GPUs from a provider at "at": the cheapest region
-- (region NULL) and machine of _run_offers.  estimate_cost(spec, provider, ...) and run_plan's
-- frozen price; NULL when no machine of the provider can carry the run.
CREATE OR REPLACE FUNCTION llm_econ._run_price(sku text, n_gpus int4, gpus_per_node int4, provider text, pricing text,
                                    at timestamptz, region text, max_age interval) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT pg_catalog.min(o.run_usd_per_gpu_hour)
    FROM llm_econ._run_offers($1, $2, $3, $4, $5, $6, $7, $8) o;
END;
COMMENT ON FUNCTION llm_econ._run_price(text, int4, int4, text, text, timestamptz, text, interval) IS
  'internal: USD per GPU-hour of the run''s own GPUs at the provider''s cheapest machine for it (whole machines, idle GPUs paid)';

CREATE OR REPLACE FUNCTION llm_econ.price_at(sku text, provider text, pricing text DEFAULT 'on_demand',
                                  at timestamptz DEFAULT pg_catalog.now(), region text DEFAULT NULL,
                                  max_age interval DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'le_price_at_fn' LANGUAGE C STABLE PARALLEL SAFE COST 100;
COMMENT ON FUNCTION llm_econ.price_at(text, text, text, timestamptz, text, interval) IS
  '$/GPU-hour in effect at "at" (not suspect, withdrawn or older than max_age); sku may be an instance type; region NULL = cheapest region; NULL when nothing is known';

CREATE OR REPLACE FUNCTION llm_econ.estimate_cost(spec llm_econ.run_spec, provider text, pricing text DEFAULT 'on_demand',
                                       at timestamptz DEFAULT pg_catalog.now(), region text DEFAULT NULL,
                                       max_age interval DEFAULT NULL)
RETURNS numeric
AS 'MODULE_PATHNAME', 'le_estimate_cost_at_fn' LANGUAGE C STABLE PARALLEL SAFE COST 100;
COMMENT ON FUNCTION llm_econ.estimate_cost(llm_econ.run_spec, text, text, timestamptz, text, interval) IS
  'compute cost in USD renting the provider''s cheapest machine for the run in effect at "at" (idle GPUs paid; max_age bounds the price''s age); an error when no price is known';

CREATE OR REPLACE FUNCTION llm_econ._check_pricing(pricing text) RETURNS text
AS 'MODULE_PATHNAME', 'le_check_pricing_fn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_pricing(text) IS
  'internal: the canonical pricing (on_demand, spot or reserved; any case) or NULL for NULL, else raises 22023';

CREATE OR REPLACE FUNCTION llm_econ._sku_key(sku text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_key_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_key(text) IS
  'internal: the gpu_sku key a name means (key, alias or instance type; case, spaces, - and _ ignored); 22023 with close matches when unknown';

CREATE OR REPLACE FUNCTION llm_econ._sku_itype(sku text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_itype_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_itype(text) IS
  'internal: the instance type a name means when it names one (an alias with gpus_per_instance), else NULL';

CREATE OR REPLACE FUNCTION llm_econ._check_where(provider text, region text) RETURNS void
AS 'MODULE_PATHNAME', 'le_check_where_fn' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._check_where(text, text) IS
  'internal: raises 22023 with close matches when provider (or region of that provider) has no price series at all';

-- Time-weighted average: each series' price holds from its observation to the next one (or a
-- withdrawal, or until max_age after it was last seen); at every instant of the period the cheapest series in
-- effect counts; instants where nothing is in effect are left out of the average.  NULL when
-- nothing was in effect.
CREATE OR REPLACE FUNCTION llm_econ.price_twap_coverage(sku text, provider text, pricing text, during tstzrange,
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
  prov := pg_catalog.lower(pg_catalog.btrim(price_twap_coverage.provider) COLLATE pg_catalog."C");
  WITH series AS (
         SELECT s.* FROM llm_econ.price_series s
          WHERE s.sku = key AND s.provider = prov AND s.pricing = pr
            AND (price_twap_coverage.region IS NULL   -- ASCII case-insensitive, as _latest_prices
                 OR pg_catalog.lower(s.region COLLATE pg_catalog."C") = pg_catalog.lower(price_twap_coverage.region COLLATE pg_catalog."C"))
            AND (itype IS NULL OR llm_econ._name_key(s.instance_type) = llm_econ._name_key(itype))
            AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i   -- a slice of a GPU is no whole GPU's price
                             WHERE i.provider = s.provider AND pg_catalog.lower(i.instance_type COLLATE pg_catalog."C") = pg_catalog.lower(s.instance_type COLLATE pg_catalog."C")
                               AND i.gpus < 1::numeric)),
       obs AS (     -- each series: its observation in effect at the start, and those inside the period;
                    -- for a run (spec), a price of an instance that cannot carry it counts as no
                    -- offer (_billed_gpus, the rule of cheapest_offers and cheapest_plan); a price
                    -- the import flagged suspect counts nowhere, as in _latest_prices
         SELECT s.series_id, o.observed_at,
                CASE WHEN run_gpus IS NULL OR llm_econ._billed_gpus(run_gpus, o.gpus, node_gpus) IS NOT NULL
                     THEN o.usd_per_gpu_hour END AS usd_per_gpu_hour, o.seen
           FROM series s
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at) AS seen, p.gpus_per_instance AS gpus
                   FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.suspect IS NULL
                    AND p.observed_at <= pg_catalog.lower(during)
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at), p.gpus_per_instance
                   FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.suspect IS NULL
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

-- The 0.1.0 signature and result, for old callers: the average alone.
CREATE OR REPLACE FUNCTION llm_econ.price_twap(sku text, provider text, pricing text, during tstzrange,
                                    region text DEFAULT NULL, max_age interval DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RETURN (SELECT c.usd_per_gpu_hour FROM llm_econ.price_twap_coverage($1, $2, $3, $4, $5, $6) AS c);
END $$;
COMMENT ON FUNCTION llm_econ.price_twap(text, text, text, tstzrange, text, interval) IS
  'time-weighted average $/GPU-hour of the cheapest series in effect over the period (region NULL = any); NULL when nothing was in effect';

-- Every (provider, region, pricing) offer of the spec's SKU in effect at "at" that can carry a run
-- of the spec's size, at the machine that makes the run cheapest there (_run_offers: whole
-- machines, idle GPUs paid; offers of unknown size are kept and show NULL instances), with the
-- run's wall time and its cost at billed_gpus, cheapest first.
CREATE OR REPLACE FUNCTION llm_econ.cheapest_offers(spec llm_econ.run_spec, at timestamptz DEFAULT pg_catalog.now(),
                                         pricing text DEFAULT NULL, max_age interval DEFAULT NULL,
                                         source_kinds text[] DEFAULT NULL, include_suspect boolean DEFAULT false)
RETURNS TABLE (provider text, region text, pricing text, usd_per_gpu_hour numeric,
               observed_at timestamptz, wall_time interval, cost_usd numeric,
               instance_type text, gpus_per_instance int4, age interval, source_kind text,
               instances int4, billed_gpus int4)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT o.provider, o.region, o.pricing, o.usd_per_gpu_hour, o.observed_at,
         llm_econ.mfu_time($1), llm_econ.estimate_cost($1, o.run_usd_per_gpu_hour),
         o.instance_type, o.gpus_per_instance,
         $2 OPERATOR(pg_catalog.-) LEAST(o.last_seen_at, $2), o.source_kind, o.instances, o.billed_gpus
    FROM (SELECT DISTINCT ps.provider, ps.pricing FROM llm_econ.price_series ps
           WHERE ps.sku OPERATOR(pg_catalog.=) ($1).sku
             AND (llm_econ._check_pricing($3) IS NULL
                  OR ps.pricing OPERATOR(pg_catalog.=) llm_econ._check_pricing($3))) AS pp
   CROSS JOIN LATERAL llm_econ._run_offers(($1).sku, ($1).n_gpus, ($1).gpus_per_node, pp.provider, pp.pricing, $2,
                                           NULL, llm_econ._check_max_age($4), $5, $6) AS o
   ORDER BY 7, 1, 2, 3;
END;
COMMENT ON FUNCTION llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text, interval, text[], boolean) IS
  'the offers of the spec''s SKU in effect at "at" that can carry a run of its size, the machine that makes it cheapest in each, with wall time, cost (billed GPUs) and age, cheapest first';

-- Dashboard views: a "time" column, no arrays, numeric money, the caller's privileges.
CREATE OR REPLACE VIEW llm_econ.price_history WITH (security_invoker = true) AS
  SELECT p.observed_at AS "time", p.sku, p.provider, p.region, p.pricing, p.usd_per_gpu_hour,
         p.instance_type, p.source, p.source_kind, p.gpus_per_instance, p.suspect,
         CASE WHEN p.usd_per_gpu_hour IS NOT NULL THEN coalesce(p.last_seen_at, p.observed_at) END AS last_seen_at
    FROM llm_econ.price_snapshot p;
COMMENT ON VIEW llm_econ.price_history IS
  'every price observation with a "time" column for dashboards; a NULL usd_per_gpu_hour marks a withdrawal (a gap in the series)';
COMMENT ON COLUMN llm_econ.price_history."time" IS 'when the price was first seen (observed_at)';
COMMENT ON COLUMN llm_econ.price_history.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_history.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_history.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_history.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_history.usd_per_gpu_hour IS 'USD per GPU-hour; NULL = withdrawn';
COMMENT ON COLUMN llm_econ.price_history.instance_type IS 'machine type';
COMMENT ON COLUMN llm_econ.price_history.source IS 'where the observation comes from';
COMMENT ON COLUMN llm_econ.price_history.source_kind IS 'catalog, history, seed or manual';
COMMENT ON COLUMN llm_econ.price_history.gpus_per_instance IS 'GPUs in the machine type';
COMMENT ON COLUMN llm_econ.price_history.suspect IS 'NULL = passed the import checks; else why the price looks wrong';
COMMENT ON COLUMN llm_econ.price_history.last_seen_at IS 'the last time a source listed this price unchanged (observed_at when only seen then); NULL for a withdrawal';

GRANT SELECT ON llm_econ.price_history TO PUBLIC;
