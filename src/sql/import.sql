-- Price imports: SkyPilot catalogs and long-format price histories, stored as change points.

CREATE OR REPLACE FUNCTION llm_econ._skypilot_offers(cloud text, catalog_csv text,
    OUT accelerator text, OUT variant text, OUT instance_type text, OUT region text,
    OUT pricing text, OUT usd_per_gpu_hour numeric, OUT gpus_per_instance int4, OUT catalog_rows int4,
    OUT usd_per_hour numeric, OUT vcpus text, OUT memory_gib text, OUT gpu_mib int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_skypilot_offers' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._skypilot_offers(text, text) IS
  'internal: parses one SkyPilot vms.csv into per-GPU offers for import_skypilot_catalog';

-- The one way prices are stored by the importers: candidates (a NULL price = the series is
-- withdrawn) become rows only where the series' price changes; the rest count as unchanged.
-- _price_changes compares the candidates with what is stored (the observation in effect
-- before the batch, and later ones) and with each other, in time order; plain SQL, no temp
-- tables (the install script runs it too).  Each candidate is also a sighting, up to its "seen"
-- instant (NULL: its observed_at; a history line: its valid_to): a change point (a stored row or
-- a fresh candidate) and the unchanged candidates after it, up to the series' next change point,
-- form a group, and seen_to is, on the group's head, the latest sighting of its members (NULL on
-- a withdrawal): the head's last_seen_at.  Import order never changes the rows: a stored row
-- a new earlier candidate makes redundant (the same price right after it) is merged into it
-- (merged: deleted, its sightings carried), and a stored row's sightings (its observed_at, its
-- last_seen_at and, when a candidate lands before its last_seen_at, the catalogs of its source
-- in between, price_import) count for the row in effect at each sighting, when that row has
-- the same price; so no last_seen_at reaches past the series' next change point.  Both only for
-- stored rows of the batch's source (src) that did not ship: another source's rows (the shipped
-- GCP history under a catalog) keep their sightings.
CREATE OR REPLACE FUNCTION llm_econ._price_changes(obs_at timestamptz[], provider text[], sku text[], region text[],
                                        pricing text[], usd numeric[], instance_type text[], gpus int4[],
                                        seen timestamptz[], src text)
RETURNS TABLE (observed_at timestamptz, provider text, sku text, region text, pricing text, usd numeric,
               instance_type text, gpus int4, is_new boolean, fresh boolean, conflict boolean,
               series_id int8, seen_to timestamptz, merged boolean)
LANGUAGE sql STABLE
BEGIN ATOMIC
  WITH cand AS (
         SELECT c.observed_at, c.provider, c.sku, c.region, c.pricing, c.usd, c.instance_type, c.gpus,
                true AS is_new, c.ord,
                llm_econ._series_id(c.sku, c.provider, c.pricing, c.region, c.instance_type) AS series_id,
                GREATEST(c.observed_at, c.seen) AS seen, NULL::text AS src, true AS mine
           FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6), pg_catalog.unnest($7), pg_catalog.unnest($8), pg_catalog.unnest($9)) WITH ORDINALITY
                AS c(observed_at, provider, sku, region, pricing, usd, instance_type, gpus, seen, ord)
          WHERE $9 IS NULL OR c.ord OPERATOR(pg_catalog.<=) pg_catalog.cardinality($1)),
       keys AS (
         SELECT c.provider, c.sku, c.region, c.pricing, c.instance_type, c.series_id, pg_catalog.min(c.observed_at) AS first_at
           FROM cand c GROUP BY 1, 2, 3, 4, 5, 6),
       stored AS (   -- seen: the stored last_seen_at
         SELECT o.observed_at, k.provider, k.sku, k.region, k.pricing, o.usd_per_gpu_hour, k.instance_type,
                NULL::int4, false, NULL::bigint, k.series_id, o.last_seen_at, o.source,
                o.source OPERATOR(pg_catalog.=) $10 AND NOT o.builtin
           FROM keys k
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour, p.last_seen_at, p.source, p.builtin FROM llm_econ.price_snapshot p
                  WHERE p.series_id OPERATOR(pg_catalog.=) k.series_id
                    AND p.observed_at OPERATOR(pg_catalog.<) k.first_at
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour, p.last_seen_at, p.source, p.builtin FROM llm_econ.price_snapshot p
                  WHERE p.series_id OPERATOR(pg_catalog.=) k.series_id
                    AND p.observed_at OPERATOR(pg_catalog.>=) k.first_at)) AS o),
       seq AS (
         SELECT a.*,
                pg_catalog.lag(a.usd) OVER w AS prev_usd,
                pg_catalog.lag(true) OVER w AS has_prev,
                -- at this instant: is something stored, is it another price, is this the first candidate
                pg_catalog.bool_or(NOT a.is_new) OVER i AS stored_here,
                pg_catalog.min(a.usd) OVER i IS DISTINCT FROM pg_catalog.max(a.usd) OVER i
                  OR (pg_catalog.bool_or(a.usd IS NULL) OVER i AND pg_catalog.bool_or(a.usd IS NOT NULL) OVER i) AS clash_here,
                pg_catalog.row_number() OVER (PARTITION BY a.series_id, a.observed_at ORDER BY a.is_new, a.ord) AS nth_here
           FROM (SELECT * FROM cand UNION ALL SELECT * FROM stored) AS a
         WINDOW w AS (PARTITION BY a.series_id ORDER BY a.observed_at, a.is_new, a.ord),
                i AS (PARTITION BY a.series_id, a.observed_at)),
       marked AS (   -- kind 0 a stored row, 1 a candidate
         SELECT s.observed_at, s.provider, s.sku, s.region, s.pricing, s.usd, s.instance_type, s.gpus, s.is_new, s.ord,
                s.series_id, s.seen, s.src, s.mine,
                CASE WHEN s.is_new THEN 1 ELSE 0 END AS kind,
                s.is_new AND NOT s.stored_here AND s.nth_here OPERATOR(pg_catalog.=) 1 AND s.usd IS DISTINCT FROM s.prev_usd AS fresh,
                s.is_new AND s.clash_here AS conflict,
                NOT s.is_new AND s.mine AND s.has_prev AND s.usd IS NOT DISTINCT FROM s.prev_usd AS merged
           FROM seq s),
       sights AS (   -- kind 2: the stored rows' sightings, placed at their instants
         SELECT t.at AS observed_at, m.provider, m.sku, m.region, m.pricing, m.usd, m.instance_type, m.gpus, false AS is_new,
                NULL::bigint AS ord, m.series_id, t.at AS seen, m.src, m.mine, 2 AS kind, false AS fresh, false AS conflict, false AS merged
           FROM marked m
           JOIN keys k ON k.series_id OPERATOR(pg_catalog.=) m.series_id
          CROSS JOIN LATERAL (
                SELECT m.observed_at AS at
                UNION SELECT m.seen WHERE m.seen IS NOT NULL
                UNION SELECT i.observed_at FROM llm_econ.price_import i
                       WHERE m.seen OPERATOR(pg_catalog.>) k.first_at
                         AND i.provider OPERATOR(pg_catalog.=) m.provider AND i.source OPERATOR(pg_catalog.=) m.src
                         AND i.observed_at OPERATOR(pg_catalog.>) m.observed_at AND i.observed_at OPERATOR(pg_catalog.<) m.seen) AS t
          WHERE m.kind OPERATOR(pg_catalog.=) 0 AND m.mine AND m.usd IS NOT NULL),
       grouped AS (   -- the change point each row belongs to: the count of change points up to it
         SELECT a.*,
                pg_catalog.count(*) FILTER (WHERE (a.kind OPERATOR(pg_catalog.=) 0 AND NOT a.merged) OR a.fresh)
                  OVER (PARTITION BY a.series_id ORDER BY a.observed_at, a.kind, a.ord ROWS UNBOUNDED PRECEDING) AS grp
           FROM (SELECT * FROM marked UNION ALL SELECT * FROM sights) AS a),
       headed AS (
         SELECT g.*,
                pg_catalog.max(g.usd) FILTER (WHERE (g.kind OPERATOR(pg_catalog.=) 0 AND NOT g.merged) OR g.fresh)
                  OVER (PARTITION BY g.series_id, g.grp) AS head_usd
           FROM grouped g)
  SELECT h.observed_at, h.provider, h.sku, h.region, h.pricing, h.usd, h.instance_type, h.gpus, h.is_new,
         h.fresh, h.conflict, h.series_id,
         -- a stored row's seen_to only where its last_seen_at moves (either way)
         CASE WHEN h.is_new THEN h.seen_to
              ELSE NULLIF(h.seen_to, coalesce(h.seen, h.observed_at)) END,
         h.merged
    FROM (SELECT h.*,
                 CASE WHEN ((NOT h.is_new AND NOT h.merged) OR h.fresh) AND h.usd IS NOT NULL
                      THEN pg_catalog.max(h.seen) FILTER (WHERE (h.kind OPERATOR(pg_catalog.=) 1 AND NOT h.conflict)
                                                             OR (h.kind OPERATOR(pg_catalog.=) 2 AND h.usd OPERATOR(pg_catalog.=) h.head_usd)
                                                             OR (h.kind OPERATOR(pg_catalog.=) 0 AND NOT h.mine))
                             OVER (PARTITION BY h.series_id, h.grp) END AS seen_to
            FROM headed h) AS h
   WHERE h.kind OPERATOR(pg_catalog.<>) 2;
END;
COMMENT ON FUNCTION llm_econ._price_changes(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], timestamptz[], text) IS
  'internal: annotates candidate observations: fresh (a change to store), conflict, seen_to (latest sighting), merged (a stored row to drop)';

-- Stores candidates as change points.  Writers of the same provider are serialised (on the
-- provider's import_lock row: _lock_providers), so overlapping imports neither duplicate nor
-- lose observations.  A candidate at the instant of
-- a stored observation with another price is an error (one observation per series and instant).
-- Freshness: a new row's last_seen_at is the latest sighting of it in the batch, and a stored
-- row the batch lists again unchanged is returned (seen_ids, seen_at, seen_to) for the recorder
-- to move its last_seen_at forward (_mark_seen, one UPDATE by the (series_id, observed_at)
-- index), so max_age counts from the last sighting, while only change points are stored.
CREATE OR REPLACE FUNCTION llm_econ._store_prices(obs_at timestamptz[], provider text[], sku text[], region text[],
                                       pricing text[], usd numeric[], instance_type text[], gpus int4[],
                                       source text, seen timestamptz[] DEFAULT NULL,
                                       OUT inserted bigint, OUT unchanged bigint, OUT withdrawn bigint,
                                       OUT seen_ids int8[], OUT seen_at timestamptz[], OUT seen_to timestamptz[])
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
DECLARE
  clash jsonb;   -- the first conflict in time and key order, if any
BEGIN
  PERFORM llm_econ._lock_providers(_store_prices.provider);

  WITH changes AS MATERIALIZED (
         SELECT * FROM llm_econ._price_changes(obs_at, _store_prices.provider, _store_prices.sku,
                                               _store_prices.region, _store_prices.pricing, usd,
                                               _store_prices.instance_type, gpus, _store_prices.seen, _store_prices.source)),
       bad AS (SELECT * FROM changes c WHERE c.conflict
                ORDER BY c.observed_at, c.provider, c.sku, c.pricing, c.region, c.instance_type LIMIT 1),
       ins AS (
         INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour,
                                              instance_type, gpus_per_instance, source, last_seen_at)
         SELECT c.observed_at, c.provider, c.sku, c.region, c.pricing, c.usd, c.instance_type, c.gpus,
                _store_prices.source, c.seen_to
           FROM changes c
          WHERE c.fresh AND NOT EXISTS (SELECT 1 FROM bad)
          ORDER BY c.sku, c.provider, c.pricing, c.region NULLS FIRST, c.instance_type NULLS FIRST, c.observed_at  -- ids in key, time order on any plan
         RETURNING usd_per_gpu_hour)
  SELECT (SELECT pg_catalog.count(*) FROM ins i WHERE i.usd_per_gpu_hour IS NOT NULL),
         (SELECT pg_catalog.count(*) FROM ins i WHERE i.usd_per_gpu_hour IS NULL),
         (SELECT pg_catalog.count(*) FROM changes c WHERE c.is_new AND c.usd IS NOT NULL),
         (SELECT pg_catalog.to_jsonb(b) FROM bad b),
         (SELECT pg_catalog.array_agg(c.series_id ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND (c.seen_to IS NOT NULL OR c.merged)),
         (SELECT pg_catalog.array_agg(c.observed_at ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND (c.seen_to IS NOT NULL OR c.merged)),
         (SELECT pg_catalog.array_agg(c.seen_to ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND (c.seen_to IS NOT NULL OR c.merged))
    INTO inserted, withdrawn, unchanged, clash, seen_ids, seen_at, seen_to;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'two different prices for % % % in region % (instance type %) at %',
                    clash->>'provider', clash->>'sku', clash->>'pricing', coalesce(clash->>'region', '(any)'),
                    coalesce(clash->>'instance_type', '(none)'), (clash->>'observed_at')::timestamptz
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'An observation of that series at that instant is already stored, or the input lists it twice.';
  END IF;
  unchanged := unchanged - inserted;
END $$;
COMMENT ON FUNCTION llm_econ._store_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text, timestamptz[]) IS
  'internal: stores candidate observations as change points (NULL price = withdrawn), as the caller; returns the prices listed again unchanged, for _record_prices';

-- Moves last_seen_at of stored prices: price_snapshot rows (series_id, observed_at) seen again,
-- unchanged, at seen (back, when a backfill put a change point before it); a NULL seen deletes
-- a row a backfill made redundant (_price_changes' merged).  SECURITY DEFINER, as the suspect flag's trigger: importers need
-- INSERT on price_snapshot, not UPDATE.  Nobody may EXECUTE it: the recorder (src/provenance.c)
-- calls it directly, with the sightings _store_prices returned, and it checks that the recorder
-- runs for a caller allowed to insert prices (_recording), so whoever may record a sighting may
-- move it and nobody else, and no function of another role can reach it mid-import.  It
-- changes no price, instant or key, so none of the extension's triggers on price_snapshot has
-- anything to do: they return at once while _marking_seen() is true (the recorder sets it around
-- this call alone; the summary trigger's check of an UPDATE's rows took 0.6 s for 3,000 rows, the
-- UPDATE alone 0.05 s).  Users' own triggers fire as on any UPDATE.
CREATE OR REPLACE FUNCTION llm_econ._recording() RETURNS boolean
AS 'MODULE_PATHNAME', 'le_recording_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
REVOKE EXECUTE ON FUNCTION llm_econ._recording() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._recording() IS
  'internal: true while the price recorder (_record_prices) runs for a role allowed to insert into price_snapshot';
CREATE OR REPLACE FUNCTION llm_econ._marking_seen() RETURNS boolean
AS 'MODULE_PATHNAME', 'le_marking_seen_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
REVOKE EXECUTE ON FUNCTION llm_econ._marking_seen() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._marking_seen() IS
  'internal: true while the price recorder''s _mark_seen moves last_seen_at (the extension''s UPDATE triggers skip it)';
CREATE OR REPLACE FUNCTION llm_econ._mark_seen(series_id int8[], observed_at timestamptz[], seen timestamptz[])
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
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
     AND x.seen IS DISTINCT FROM coalesce(p.last_seen_at, p.observed_at) AND x.seen IS NOT NULL;
  GET DIAGNOSTICS n = ROW_COUNT;
  -- a NULL sighting: the row repeats the price of an earlier change point a backfill stored
  -- (_price_changes' merged); its sightings moved there, so it goes
  DELETE FROM llm_econ.price_snapshot p
   USING ROWS FROM (pg_catalog.unnest(_mark_seen.series_id), pg_catalog.unnest(_mark_seen.observed_at), pg_catalog.unnest(_mark_seen.seen))
         AS x(series_id, observed_at, seen)
   WHERE p.series_id = x.series_id AND p.observed_at = x.observed_at AND x.seen IS NULL;
  RETURN n;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._mark_seen(int8[], timestamptz[], timestamptz[]) FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._mark_seen(int8[], timestamptz[], timestamptz[]) IS
  'internal: moves last_seen_at of stored prices, drops rows a backfill merged; the price recorder alone calls it';

-- The recorder the importers call: _store_prices, run as the caller, with the rows it inserts
-- labelled kind (catalog, history).  Nothing else can label a row (src/provenance.c).
CREATE OR REPLACE FUNCTION llm_econ._record_prices(obs_at timestamptz[], provider text[], sku text[], region text[],
                                        pricing text[], usd numeric[], instance_type text[], gpus int4[],
                                        source text, kind text, seen timestamptz[] DEFAULT NULL,
                                        OUT inserted bigint, OUT unchanged bigint, OUT withdrawn bigint)
AS 'MODULE_PATHNAME', 'le_record_prices_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._record_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text, text, timestamptz[]) IS
  'internal: _store_prices as the caller, its rows labelled source_kind kind (catalog, history), and the prices seen again marked';

-- A per-GPU price as stored: at most 10 decimals (a division can have more), no trailing
-- zeros beyond cents (2.00, 0.75, 3.790142).
CREATE OR REPLACE FUNCTION llm_econ._usd(v numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.round($1, GREATEST(pg_catalog.scale(pg_catalog.trim_scale(pg_catalog.round($1, 10))), 2)); END;
COMMENT ON FUNCTION llm_econ._usd(numeric) IS 'internal: a USD amount rounded to 10 decimals, shown with at least 2';

-- The gpu_sku key a name means (key or alias; case, spaces, - and _ ignored; an exact spelling
-- beats a normalised one, a key beats an alias), or NULL.  One definition serves every part:
-- the C lookup the run_spec constructor and the price functions use (src/sku.c).
CREATE OR REPLACE FUNCTION llm_econ._sku_find(name text) RETURNS text
AS 'MODULE_PATHNAME', 'le_sku_find_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_find(text) IS 'internal: the gpu_sku key of a name or alias (case, spaces, - and _ ignored; exact spelling first, keys before aliases), or NULL';

-- The GPUs per machine gpu_sku_alias knows for a machine type (NULL: unknown), by the same rule.
CREATE OR REPLACE FUNCTION llm_econ._known_gpus(instance_type text) RETURNS int4
AS 'MODULE_PATHNAME', 'le_known_gpus_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._known_gpus(text) IS 'internal: GPUs per machine of a machine type per gpu_sku_alias (exact spelling first), or NULL when unknown';

-- Both for all names of a file at once (the importers): one query, the same rule.
CREATE OR REPLACE FUNCTION llm_econ._sku_map(names text[], OUT name text, OUT sku text, OUT gpus_per_instance int4)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_sku_map_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._sku_map(text[]) IS
  'internal: for each name that means a SKU, its gpu_sku key and the GPUs per machine gpu_sku_alias knows (NULL: unknown)';

-- A catalog price is suspect when it is more than 3x away (either way) from the median of the
-- same provider's offers in effect at the same instant (once the statement's rows are stored;
-- at least three offers): of the same machine type (its other regions) when llm_econ.instance_type
-- knows it, else of the SKU and pricing (the catalog's other regions and instance sizes); or from
-- the series' previous price.  Never across providers: a neocloud is
-- legitimately several times cheaper than a hyperscaler.  An AFTER INSERT statement trigger on
-- price_snapshot, run with the owner's rights (importers need no UPDATE on price_snapshot), for
-- the rows of kind catalog: one peer lookup per (provider, SKU, pricing, instant) of the
-- statement and one index probe per row.
CREATE OR REPLACE FUNCTION llm_econ._flag_suspect() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_WHEN <> 'AFTER'
     OR TG_LEVEL <> 'STATEMENT' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'llm_econ._flag_suspect() fires only as the AFTER INSERT statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- The peers of a price: for a machine type llm_econ.instance_type knows (its GPU count is a
  -- fact), the same machine type's offers (its other regions): its sizes differ legitimately, a
  -- 64-vCPU machine with one T4 costs 8x a 4-vCPU one per GPU; for any other, every offer of
  -- the SKU (a wrong count shows as a price several times off its family's).
  WITH mine AS MATERIALIZED (
         SELECT n.id, n.provider, n.sku, n.pricing, n.series_id, n.observed_at, n.usd_per_gpu_hour,
                n.instance_type, n.gpus_per_instance, n.region, n.source,
                CASE WHEN EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                   WHERE i.provider OPERATOR(pg_catalog.=) n.provider
                                     AND pg_catalog.lower(i.instance_type COLLATE pg_catalog."C") OPERATOR(pg_catalog.=) pg_catalog.lower(n.instance_type COLLATE pg_catalog."C"))
                     THEN n.instance_type END AS peer_itype
           FROM new_rows n WHERE n.source_kind = 'catalog' AND n.usd_per_gpu_hour IS NOT NULL),
       peers AS MATERIALIZED (
         SELECT g.provider, g.sku, g.pricing, g.observed_at, g.peer_itype, x.n, x.med
           FROM (SELECT DISTINCT m.provider, m.sku, m.pricing, m.observed_at, m.peer_itype FROM mine m) AS g
          CROSS JOIN LATERAL (
                SELECT pg_catalog.count(*) AS n, pg_catalog.percentile_disc(0.5::float8) WITHIN GROUP (ORDER BY l.usd_per_gpu_hour) AS med
                  FROM llm_econ._latest_prices(g.sku, g.provider, g.pricing, g.observed_at, NULL, g.peer_itype, NULL) l) AS x),
       checked AS MATERIALIZED (
         SELECT m.id,
                CASE
                  -- a machine type whose count a known sibling in the same catalog contradicts (same
                  -- vCPUs and memory, another count): import_skypilot_catalog says so in this setting
                  WHEN m.instance_type IS NOT NULL AND pg_catalog.current_setting('llm_econ.import_suspects', true) <> ''
                       AND pg_catalog.current_setting('llm_econ.import_suspects', true)::jsonb ? m.instance_type
                    THEN pg_catalog.current_setting('llm_econ.import_suspects', true)::jsonb ->> m.instance_type
                  -- a machine type llm_econ.instance_type does not know, with a GPU count that no
                  -- known machine of its GPU has (1, 2, 4, 8, 16, the known machine types' counts,
                  -- the SKU's node size): an H100 or A100 box never holds 12
                  WHEN m.instance_type IS NOT NULL AND m.gpus_per_instance IS NOT NULL
                       AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                        WHERE i.provider = m.provider AND pg_catalog.lower(i.instance_type COLLATE pg_catalog."C") = pg_catalog.lower(m.instance_type COLLATE pg_catalog."C"))
                       AND m.gpus_per_instance <> ALL (ARRAY[1, 2, 4, 8, 16])
                       AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                        WHERE i.sku = m.sku AND i.gpus = m.gpus_per_instance::numeric)
                       AND NOT EXISTS (SELECT 1 FROM llm_econ.gpu_sku g
                                        WHERE g.sku = m.sku AND g.gpus_per_node = m.gpus_per_instance)
                    THEN pg_catalog.format('%s lists %s GPUs per machine; no known %s machine holds that many (1, 2, 4, 8 or 16, or a known machine type''s count)',
                                m.instance_type, m.gpus_per_instance, m.sku)
                  WHEN peer.n >= 3::int8 AND (m.usd_per_gpu_hour > 3::numeric * peer.med OR m.usd_per_gpu_hour * 3::numeric < peer.med)
                    THEN pg_catalog.format('%s x the median %s of the %s %s offers of %s at that instant',
                                pg_catalog.round(m.usd_per_gpu_hour / peer.med, 2), peer.med, peer.n, m.provider, coalesce(m.peer_itype, m.sku))
                  WHEN prev.usd_per_gpu_hour IS NOT NULL
                       AND (m.usd_per_gpu_hour > 3::numeric * prev.usd_per_gpu_hour OR m.usd_per_gpu_hour * 3::numeric < prev.usd_per_gpu_hour)
                    THEN pg_catalog.format('%s x the series'' previous price %s (%s)',
                                pg_catalog.round(m.usd_per_gpu_hour / prev.usd_per_gpu_hour, 2), prev.usd_per_gpu_hour, prev.observed_at)
                  -- the same offer (provider, region, machine type, pricing) as another source prices
                  -- it at that instant, a price that source listed at or after it: a catalog that
                  -- halves a price the provider's own price list keeps (SkyPilot's 2026 GCP file
                  -- lists a3-highgpu-8g at 5.38 per GPU on demand; GCP's list price is 11.06)
                  WHEN other.usd_per_gpu_hour > 0::numeric AND other.last_seen_at >= m.observed_at
                       AND (m.usd_per_gpu_hour > 1.5 * other.usd_per_gpu_hour OR m.usd_per_gpu_hour * 1.5 < other.usd_per_gpu_hour)
                    THEN pg_catalog.format('%s x the price %s that %s lists for the same offer at that instant (since %s, seen again %s)',
                                pg_catalog.round(m.usd_per_gpu_hour / other.usd_per_gpu_hour, 2), other.usd_per_gpu_hour,
                                other.source, other.observed_at, other.last_seen_at)
                END AS why
           FROM mine m
           JOIN peers peer ON peer.provider = m.provider AND peer.sku = m.sku AND peer.pricing = m.pricing
                          AND peer.observed_at = m.observed_at AND peer.peer_itype IS NOT DISTINCT FROM m.peer_itype
           LEFT JOIN LATERAL (
                 SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = m.series_id AND p.observed_at < m.observed_at
                  ORDER BY p.observed_at DESC LIMIT 1) AS prev ON true
           LEFT JOIN LATERAL (
                 SELECT o.source, o.observed_at, o.last_seen_at, o.usd_per_gpu_hour FROM llm_econ.price_snapshot o
                  WHERE m.instance_type IS NOT NULL AND o.series_id = m.series_id   -- the same offer
                    AND o.source_kind IN ('catalog', 'history') AND o.source <> m.source
                    AND o.observed_at <= m.observed_at
                  ORDER BY o.observed_at DESC LIMIT 1) AS other ON true)
  UPDATE llm_econ.price_snapshot p SET suspect = c.why
    FROM checked c WHERE p.id = c.id AND c.why IS NOT NULL;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._flag_suspect() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._flag_suspect() IS
  'trigger: marks a new catalog price suspect when its GPU count fits no known machine or its price is far from comparable prices (docs/prices.md)';
CREATE OR REPLACE TRIGGER price_snapshot_suspect AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._flag_suspect();

-- SkyPilot clouds whose catalogs the importer accepts (skypilot-catalog catalogs/v5..v8/<cloud>, as issue 45 lists them).
CREATE OR REPLACE FUNCTION llm_econ._skypilot_clouds() RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT ARRAY['aws', 'azure', 'cudo', 'daytona', 'do', 'fluidstack', 'gcp', 'hyperbolic', 'hyperstack', 'ibm',
                   'jarvislabs', 'kubernetes', 'lambda', 'lium', 'mithril', 'nebius', 'oci', 'ovhcloud', 'paperspace',
                   'primeintellect', 'runpod', 'scaleway', 'scp', 'seeweb', 'shadeform', 'simplepod', 'spheron', 'vast',
                   'verda', 'vsphere', 'yotta'];
END;
COMMENT ON FUNCTION llm_econ._skypilot_clouds() IS 'internal: the cloud names import_skypilot_catalog accepts (every cloud of skypilot-catalog catalogs/v5..v8)';

-- A user-facing PL/pgSQL function's error, raised again with only the CONTEXT lines that speak
-- to the user (src/price.c).
CREATE OR REPLACE FUNCTION llm_econ._reraise(sqlstate text, message text, detail text, hint text, context text) RETURNS void
AS 'MODULE_PATHNAME', 'le_reraise_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION llm_econ._reraise(text, text, text, text, text) IS
  'internal: raises again an error a user-facing PL/pgSQL function caught, without the extension''s own CONTEXT lines';

-- What a SkyPilot catalog of each cloud looks like: its instance type names and its regions
-- (sky/catalog/data_fetchers/fetch_<cloud>.py write them as the provider's APIs return them).
-- A file whose names or regions mostly do not fit is another cloud's file.  NULL = no rule.
-- The names of the other clouds follow the instance types of their published catalogs
-- (skypilot-catalog catalogs/v5..v8, the GPU and CPU rows read for
-- test/data/skypilot/accelerator_names.csv; sql/catalog_names.sql checks that every one fits its
-- cloud and that the Lambda and RunPod samples fit no other); their regions have no rule.  A
-- Lambda name ends in a word with a letter (gpu_8x_a100_80gb_sxm4), SimplePod's in its vCPUs
-- (gpu_1x_rtx3060ti_14); Shadeform's is its provider's, then the GPU in capitals
-- (excesssupply_H200_sxm5x8_NVLINK in v7, crusoe_L40Sx10 in v8).  No rule: paperspace (its types are GPU names: A100, H100x8, GPU+),
-- spheron (provider ids), kubernetes, vsphere.
CREATE OR REPLACE FUNCTION llm_econ._skypilot_cloud_shape(cloud text, OUT name_re text, OUT region_re text)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT v.n, v.r FROM (VALUES
    ('aws', '^[a-z][a-z0-9-]*\.[a-z0-9-]+$', '^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+$'),
    ('gcp', '^[a-z][a-z0-9]*-[a-z0-9]+(-[a-z0-9]+)*$', '^[a-z]+-[a-z]+[0-9]+$'),
    ('azure', '^(Standard|Basic)_[A-Za-z0-9_-]+$', '^[a-z]+[0-9]?$'),
    ('lambda', '^gpu_[0-9]+x_([a-z0-9]+_)*[a-z0-9]*[a-z][a-z0-9]*$', '^[a-z]+-[a-z]+-[0-9]+$'),
    ('runpod', '^[0-9]+x_[A-Za-z0-9_-]+_(SECURE|COMMUNITY)$', '^[A-Z]{2}(-[A-Z]+-[0-9]+)?$'),
    ('cudo', '^[a-z0-9-]+_[0-9]+x[0-9]+v[0-9]+gb$', NULL),
    ('daytona', '^([0-9]+x-[A-Za-z0-9]+|cpu-[0-9]+x-[0-9]+gb)$', NULL),
    ('do', '^(s|g|gd|m|m3|c|c2|so|so1_5|gpu)-[a-z0-9-]+$', NULL),
    ('fluidstack', '^(rec[A-Za-z0-9]{14,}|[A-Z0-9_]+::[0-9]+)$', NULL),
    ('hyperbolic', '^[0-9]+x-[A-Za-z0-9]+-[0-9]+-[0-9]+$', NULL),
    ('hyperstack', '^n[0-9]+-[A-Za-z0-9-]+x[0-9]+(-[A-Za-z]+)?$', NULL),
    ('ibm', '^[a-z]+[0-9]*[a-z]?-[0-9]+x[0-9]+(x[0-9]+[a-z0-9]+)?$', NULL),
    ('jarvislabs', '^([0-9]+x_[A-Za-z0-9]+|CPU)_[0-9]+V_[0-9]+G$', NULL),
    ('lium', '^[A-Za-z0-9-]+_[0-9]+x$', NULL),
    ('mithril', '^[a-z0-9]+-[a-z0-9]+\.[a-z0-9]+\.[0-9]+x(_[0-9]+cpu)?$', NULL),
    ('nebius', '^(cpu|gpu)-[a-z0-9-]+_([0-9]+gpu-)?[0-9]+vcpu-[0-9]+gb$', NULL),
    ('oci', '^(VM|BM)\.[A-Za-z0-9.$_-]+$', NULL),
    ('ovhcloud', '^[a-z][a-z0-9]*(-[a-z]+)?-[0-9]+$', NULL),
    ('scaleway', '^[A-Z0-9]+(-[A-Z0-9]+)*$', NULL),
    ('primeintellect', '^[a-z0-9_]+__[0-9]+x[A-Za-z0-9_]+__[0-9]+__[0-9]+(__[A-Z]+)*$', NULL),
    ('scp', '^[a-z][0-9]v[0-9]+[a-z][0-9]+$', NULL),
    ('seeweb', '^[eE]CS[0-9A-Z]+$', NULL),
    ('shadeform', '^[a-z]+_[A-Z][A-Za-z0-9_-]*$', NULL),
    ('simplepod', '^gpu_[0-9]+x_[a-z0-9]+_[0-9]+$', NULL),
    ('vast', '^[0-9]+x-[A-Za-z0-9_]+(-[0-9]+)+$', NULL),
    ('verda', '^([0-9]+[A-Z][A-Z0-9]*(\.[0-9]+[A-Z])+|CPU(\.[0-9]+[A-Z])+)$', NULL),
    ('yotta', '^[0-9]+x[0-9]+v[0-9]+g_[A-Za-z0-9_]+_(SECURE|COMMUNITY)$', NULL)) AS v(c, n, r)
   WHERE v.c OPERATOR(pg_catalog.=) $1;
END;
COMMENT ON FUNCTION llm_econ._skypilot_cloud_shape(text) IS
  'internal: the patterns a cloud''s SkyPilot instance types and regions follow (NULL for other clouds)';

-- The SKU an instance type's name says, over a generic accelerator name: H100 NVL (the name
-- says NVL, or Azure's NC*ads_H100_v5, which carry H100 NVL: Azure NCads H100 v5 documentation),
-- H200 NVL, and the A100's memory and form factor (40gb, 80gb, pcie).  NULL = the name says nothing.
CREATE OR REPLACE FUNCTION llm_econ._sku_of_name(provider text, instance_type text, accelerator text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE
           WHEN $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'h100[ _-]?nvl(?!ink)'
                OR ($1 OPERATOR(pg_catalog.=) 'azure' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '^standard_nc[0-9]+ad[a-z]*_h100_v5$')
             THEN 'H100-NVL'
           WHEN $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'h200[ _-]?nvl(?!ink)' THEN 'H200-NVL'
           -- RunPod's A100-80GB is the PCIe part in both tiers (sky/provision/runpod/utils.py GPU_NAME_MAP)
           WHEN $1 OPERATOR(pg_catalog.=) 'runpod' AND pg_catalog.upper($3 COLLATE pg_catalog."C") OPERATOR(pg_catalog.=) 'A100-80GB' THEN 'A100-80GB-PCIe'
           WHEN $3 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '^a100' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '40gb' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'pcie' THEN 'A100-40GB-PCIe'
           WHEN $3 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '^a100' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '40gb' THEN 'A100-40GB'
           WHEN $3 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '^a100' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '80gb' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'pcie' THEN 'A100-80GB-PCIe'
           WHEN $3 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '^a100' AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) '80gb' THEN 'A100-80GB'
         END;
END;
COMMENT ON FUNCTION llm_econ._sku_of_name(text, text, text) IS
  'internal: the gpu_sku key an instance type''s name says (H100 NVL, A100 80GB, PCIe, ...), which wins over a generic accelerator name';

-- The family an accelerator name or SKU key names once memory and form are taken out, without
-- separators (H100-80GB-HBM3, H100-NVL and H100-SXM5 are all H100; A100-SXM4-80GB, Hyperstack's
-- A100-80G-PCIe-NVLink (an NVLink bridge, not the NVL part) and Spheron's A100_80G_SXM4 are A100;
-- RTX5090_PCIE and RTX-5090 are RTX5090).
CREATE OR REPLACE FUNCTION llm_econ._gpu_family(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT pg_catalog.upper(pg_catalog.regexp_replace(
           pg_catalog.regexp_replace($1 COLLATE pg_catalog."C", '[-_ ]?([0-9]+ ?GB|SXM[0-9]*|PCIE|HBM[0-9]*E?|NVLINK|NVL)(?![a-z0-9])|[-_ ][0-9]+G(?![a-z0-9])', '', 'gi'),
           '[-_ ]', '', 'g'));
END;
COMMENT ON FUNCTION llm_econ._gpu_family(text) IS
  'internal: an accelerator name or SKU key without its memory and form spellings and separators (H100-80GB-HBM3 -> H100)';

-- Why a SKU contradicts a catalog row's own facts, or NULL when it does not: the memory per GPU
-- (GpuInfo's MiB as _catalog_sku reads it, else a size the names spell: "80GB", "80G") within 6 %
-- of the SKU's HBM (MiB read as GiB or as 2^20 bytes over 10^9 GB: clouds write both; a spelled
-- size may be the machine's total), the form factor the names spell (PCIe, "pci", SXM, NVL; NVLINK is not NVL;
-- names spelling both PCIe and SXM fit no form; an NVL part is a PCIe card), and a GPU count a machine of the part holds (at
-- most its node size or 8, or a known machine type's count).
CREATE OR REPLACE FUNCTION llm_econ._sku_contradiction(sku text, names text, gpu_mib int4, gpus int4) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE
           WHEN g.sku IS NULL THEN pg_catalog.format('%s is no gpu_sku key', $1)
           WHEN $3 IS NOT NULL AND g.hbm_gb IS NOT NULL
                AND pg_catalog.abs($3::numeric / 1024 - g.hbm_gb::numeric) > 0.06 * g.hbm_gb::numeric
                AND pg_catalog.abs($3::numeric * 1.048576 / 1000 - g.hbm_gb::numeric) > 0.06 * g.hbm_gb::numeric
             THEN pg_catalog.format('GpuInfo says %s MiB per GPU; %s has %s GB', $3, g.sku, g.hbm_gb)
           WHEN $3 IS NULL AND f.gb IS NOT NULL AND g.hbm_gb IS NOT NULL
                AND pg_catalog.abs(f.gb - g.hbm_gb::numeric) > 0.06 * g.hbm_gb::numeric
                AND ($4 IS NULL OR pg_catalog.abs(f.gb - g.hbm_gb::numeric * $4) > 0.06 * g.hbm_gb::numeric * $4)
             THEN pg_catalog.format('the name says %s GB; %s has %s GB', f.gb, g.sku, g.hbm_gb)
           -- the NVL parts are PCIe cards (two bridged by NVLink): "pcie" in a name fits them
           -- (Cudo's epyc-genoa-h100-nvl-pcie, catalogs/v7/cudo/vms.csv at 8b5326cd)
           WHEN f.form IS NOT NULL AND k.form IS NOT NULL AND f.form OPERATOR(pg_catalog.<>) k.form
                AND NOT (f.form OPERATOR(pg_catalog.=) 'PCIe' AND k.form OPERATOR(pg_catalog.=) 'NVL')
             THEN pg_catalog.format('the name says %s; %s is %s', f.form, g.sku, k.form)
           WHEN $4 IS NOT NULL AND $4 > GREATEST(g.gpus_per_node, 8)
                AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i WHERE i.sku OPERATOR(pg_catalog.=) g.sku AND i.gpus OPERATOR(pg_catalog.=) $4::numeric)
             THEN pg_catalog.format('%s GPUs per machine; no %s machine holds that many', $4, g.sku)
         END
    FROM (SELECT 1) AS one
    LEFT JOIN llm_econ.gpu_sku g ON g.sku OPERATOR(pg_catalog.=) $1
    CROSS JOIN LATERAL (SELECT coalesce((pg_catalog.regexp_match($2 COLLATE pg_catalog."C", '(?<![0-9.])([0-9]{1,4}) ?GB(?![a-z])', 'i'))[1],
                                        (pg_catalog.regexp_match($2 COLLATE pg_catalog."C", '(?<![0-9.])([0-9]{1,4})G(?![A-Za-z0-9])'))[1])::numeric AS gb,
                               CASE WHEN $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'pcie|pci(?![a-z])'
                                         AND $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'sxm' THEN 'PCIe and SXM'
                                    WHEN $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'pcie|pci(?![a-z])' THEN 'PCIe'
                                    WHEN $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'sxm' THEN 'SXM'
                                    WHEN $2 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'nvl(?!ink)' THEN 'NVL' END AS form) AS f
    CROSS JOIN LATERAL (SELECT CASE WHEN g.sku COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'pcie' THEN 'PCIe'
                                    WHEN g.sku COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'nvl' THEN 'NVL'
                                    WHEN g.sku COLLATE pg_catalog."C" OPERATOR(pg_catalog.~*) 'sxm' OR (g.vendor OPERATOR(pg_catalog.=) 'NVIDIA' AND g.nvlink_gb_per_s IS NOT NULL
                                                                          AND llm_econ._gpu_family(g.sku) OPERATOR(pg_catalog.~) '^(A100|A800|H100|H800|H200|V100)')
                                      THEN 'SXM' END AS form) AS k;
END;
COMMENT ON FUNCTION llm_econ._sku_contradiction(text, text, int4, int4) IS
  'internal: how a SKU contradicts a catalog row''s memory, form factor or GPU count (NULL: it agrees); docs/prices.md';

-- The SKU a catalog row is: the first of candidates (best first: the known machine type's, the
-- name rule's, the names' aliases) its facts do not contradict (the first that only the GPU count
-- contradicts when none fits whole: the suspect trigger judges that count); else the one SKU of the
-- accelerator's family (family_default first) they agree with.  why: what was refused, when none.
CREATE OR REPLACE FUNCTION llm_econ._sku_by_facts(candidates text[], family text, family_default text, names text,
    gpu_mib int4, gpus int4, OUT sku text, OUT why text)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  WITH c AS (
    SELECT u.s, u.i, llm_econ._sku_contradiction(u.s, $4, $5, $6) AS no,
           llm_econ._sku_contradiction(u.s, $4, $5, NULL) AS no_but_count
      FROM pg_catalog.unnest($1) WITH ORDINALITY AS u(s, i) WHERE u.s IS NOT NULL),
       fam AS (
    SELECT g.sku AS s, g.sku OPERATOR(pg_catalog.=) $3 AS dflt, llm_econ._sku_contradiction(g.sku, $4, $5, $6) AS no
      FROM llm_econ.gpu_sku g
     -- the family's parts, and the part its name is an alias of (Spheron's A4000_PCIE: the family
     -- A4000 is the RTX A4000, whose own family spelling is RTXA4000)
     WHERE $2 IS NOT NULL AND (llm_econ._gpu_family(g.sku) OPERATOR(pg_catalog.=) $2 OR g.sku OPERATOR(pg_catalog.=) $3)),
       pick AS (
    -- the GPU count chooses between candidates; a count that fits none is left to the suspect
    -- trigger (stored, flagged), as for machine types instance_type does not know
    SELECT coalesce((SELECT c.s FROM c WHERE c.no IS NULL ORDER BY c.i LIMIT 1),
                    (SELECT c.s FROM c WHERE c.no_but_count IS NULL ORDER BY c.i LIMIT 1)) AS by_name,
           (SELECT fam.s FROM fam WHERE fam.no IS NULL ORDER BY NOT fam.dflt, fam.s COLLATE "C" LIMIT 1) AS by_family,
           (SELECT pg_catalog.count(*) FROM fam WHERE fam.no IS NULL) AS n_family,
           (SELECT pg_catalog.bool_or(fam.dflt) FROM fam WHERE fam.no IS NULL) AS dflt_ok,
           (SELECT pg_catalog.string_agg(d.no, '; ' ORDER BY d.i)
              FROM (SELECT c.no, pg_catalog.min(c.i) AS i FROM c GROUP BY c.no) AS d) AS refused,
           (SELECT pg_catalog.string_agg(fam.s, ', ' ORDER BY fam.s COLLATE "C") FROM fam WHERE fam.no IS NULL) AS family_ok,
           -- no name is a SKU: what refused each part of the accelerator's family
           (SELECT pg_catalog.string_agg(fam.no, '; ' ORDER BY fam.s COLLATE "C") FROM fam) AS family_refused)
  SELECT coalesce(p.by_name, CASE WHEN p.n_family = 1 OR p.dflt_ok THEN p.by_family END),
         CASE WHEN p.by_name IS NULL AND NOT (p.n_family = 1 OR coalesce(p.dflt_ok, false)) THEN
           CASE WHEN p.n_family > 1 THEN pg_catalog.format('the facts fit %s; the names do not say which', p.family_ok)
                WHEN p.refused IS NOT NULL THEN p.refused
                ELSE p.family_refused
           END END
    FROM pick p;
END;
COMMENT ON FUNCTION llm_econ._sku_by_facts(text[], text, text, text, int4, int4) IS
  'internal: the SKU a catalog row is, from its names checked against its own facts (memory, form, GPU count), and why not when none fits';

-- The identity rule of import_skypilot_catalog for one machine shape of a catalog (its instance
-- type, accelerator name, the instance type's pcie/sxm hint, GpuInfo's memory and the GPU count),
-- in one place: the import calls it once per shape, and the accelerator-name table over every
-- published catalog (sql/catalog_names.sql) runs each name through it.  The candidates, best
-- first: the SKU instance_type knows for the machine type, the name rule (_sku_of_name), the
-- aliases of the instance type, of the accelerator with the hint and of the accelerator; then the
-- accelerator's family.  A known machine type's GPU count is the one judged.
CREATE OR REPLACE FUNCTION llm_econ._catalog_sku(cloud text, instance_type text, accelerator text, variant text,
    gpu_mib int4, gpus int4, memory_gib text, OUT sku text, OUT why text)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN m.ambiguous IS NULL THEN coalesce(bf.sku, bn.sku) END,
         coalesce(m.ambiguous, CASE WHEN bf.sku IS NULL AND bn.sku IS NULL THEN
           NULLIF(pg_catalog.concat_ws('; ', bf.why, CASE WHEN bf.why IS NULL OR bn.why OPERATOR(pg_catalog.^@) 'the facts fit' THEN bn.why END), '')
             OPERATOR(pg_catalog.||) CASE WHEN m.vm_ram
               THEN pg_catalog.format(' (GpuInfo''s figure is the machine''s memory, MemoryGiB %s)', pg_catalog.btrim($7)) ELSE '' END END)
    FROM (SELECT 1) AS one
    LEFT JOIN llm_econ.instance_type it
           ON it.provider OPERATOR(pg_catalog.=) $1
          AND pg_catalog.lower(it.instance_type COLLATE pg_catalog."C") OPERATOR(pg_catalog.=) pg_catalog.lower($2 COLLATE pg_catalog."C")
   CROSS JOIN LATERAL (SELECT ARRAY[it.sku, llm_econ._sku_of_name($1, $2, $3), llm_econ._sku_find($2),
                                    llm_econ._sku_find($3 OPERATOR(pg_catalog.||) CASE $4 WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END),
                                    llm_econ._sku_find($3)] AS names,
                              llm_econ._gpu_family($3) AS family,
                              -- the form the row's other names state (GpuInfo's name, UpstreamCloudId) is a fact too
                              coalesce($2, '') OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||) coalesce($3, '')
                                OPERATOR(pg_catalog.||) CASE $4 WHEN 'pcie' THEN ' PCIe' WHEN 'sxm' THEN ' SXM' ELSE '' END AS names_text,
                              CASE WHEN it.gpus IS NULL THEN $6 WHEN it.gpus OPERATOR(pg_catalog.>=) 1::numeric THEN it.gpus::int4 END AS gpus) AS c
   -- GpuInfo's figure as the catalogs write it: MiB per GPU (SkyPilot's schema); below 1024 it is
   -- GB (Shadeform's and RunPod's v8 catalogs: 80 for an A100 80GB; no GPU has under 1 GiB); the
   -- machine's total when that, and not the figure itself, is a part the names can mean (Vast's
   -- and PrimeIntellect's catalogs: 196608 for 8 RTX 3090, 655360 for 8 A100 80GB).  When both
   -- readings fit, each another part (81920 MiB for 2 A100: 80 GB each, or 40 GB each as Vast
   -- writes it) that the names (a size, a form they spell) do not choose between, the row says
   -- nothing for sure and is skipped, unless instance_type knows the machine.
   LEFT JOIN LATERAL (
         SELECT (SELECT pg_catalog.string_agg(g.sku, ', ' ORDER BY g.sku COLLATE "C") FROM llm_econ.gpu_sku g
                  WHERE (g.sku OPERATOR(pg_catalog.=) ANY (c.names) OR llm_econ._gpu_family(g.sku) OPERATOR(pg_catalog.=) c.family)
                    AND llm_econ._sku_contradiction(g.sku, '', $5, NULL) IS NULL
                    AND llm_econ._sku_contradiction(g.sku, c.names_text, NULL, NULL) IS NULL) AS per_gpu,
                (SELECT pg_catalog.string_agg(g.sku, ', ' ORDER BY g.sku COLLATE "C") FROM llm_econ.gpu_sku g
                  WHERE c.gpus OPERATOR(pg_catalog.>) 1
                    AND (g.sku OPERATOR(pg_catalog.=) ANY (c.names) OR llm_econ._gpu_family(g.sku) OPERATOR(pg_catalog.=) c.family)
                    AND llm_econ._sku_contradiction(g.sku, '', ($5 OPERATOR(pg_catalog./) c.gpus), NULL) IS NULL
                    AND llm_econ._sku_contradiction(g.sku, c.names_text, NULL, NULL) IS NULL) AS total
          WHERE $5 OPERATOR(pg_catalog.>=) 1024) AS f ON true
   CROSS JOIN LATERAL (
         SELECT CASE WHEN $5 IS NULL OR $5 OPERATOR(pg_catalog.<=) 0 THEN NULL::int4
                     WHEN $5 OPERATOR(pg_catalog.<) 1024 THEN $5 OPERATOR(pg_catalog.*) 1024
                     WHEN f.per_gpu IS NULL AND f.total IS NOT NULL THEN $5 OPERATOR(pg_catalog./) c.gpus
                     ELSE $5 END AS mib,
                CASE WHEN it.sku IS NULL AND f.per_gpu IS NOT NULL AND f.total IS NOT NULL AND f.per_gpu OPERATOR(pg_catalog.<>) f.total
                  THEN pg_catalog.format('GpuInfo''s %s MiB is %s per GPU, or %s if it is the total of the %s GPUs; the names do not say which',
                                         $5, f.per_gpu, f.total, c.gpus) END AS ambiguous,
                -- a GpuInfo figure equal to the machine's RAM (MemoryGiB) is that RAM: Nebius v6/v7 and
                -- Shadeform v7 write it so (paperspace_V100: 30720 MiB for a 30 GiB VM with a 16 GB V100,
                -- catalogs/v7/shadeform/vms.csv at 54ce89bb).  It may agree with a part the names name,
                -- never choose one they do not: among the family's parts only the names' spelled size and
                -- form choose, and only when they leave one (paperspace_V100_32G is the V100-32GB).
                -- Not Vast's: its GpuInfo is the offer's GPU memory in every version, and v5 writes
                -- that same GPUs' total as MemoryGiB (1x-A100_PCIE-32: 81920 MiB, MemoryGiB 80.0,
                -- catalogs/v5/vast/vms.csv at 263fcdec), so there the two agree because both are
                -- the GPUs', and the 80 GB part is the one the figure chooses
                coalesce($1 OPERATOR(pg_catalog.<>) 'vast' AND $5 OPERATOR(pg_catalog.>=) 1024 AND $7 COLLATE pg_catalog."C" OPERATOR(pg_catalog.~) '^\s*[0-9]{1,7}(\.[0-9]*)?\s*$'
                         AND $5::numeric OPERATOR(pg_catalog.=) pg_catalog.round(pg_catalog.btrim($7)::numeric OPERATOR(pg_catalog.*) 1024), false) AS vm_ram) AS m
   CROSS JOIN LATERAL llm_econ._sku_by_facts(c.names, CASE WHEN NOT m.vm_ram THEN c.family END, llm_econ._sku_find(c.family),
                                             c.names_text, m.mib, c.gpus) AS bf
   -- the family's one part the names leave, if the figure does not contradict it either
   LEFT JOIN LATERAL (
         SELECT CASE WHEN x.no IS NULL THEN n.sku END AS sku, coalesce(x.no, n.why) AS why
           FROM llm_econ._sku_by_facts(ARRAY[]::text[], c.family, NULL, c.names_text, NULL, c.gpus) AS n
           LEFT JOIN LATERAL (SELECT llm_econ._sku_contradiction(n.sku, '', m.mib, NULL) AS no) AS x ON n.sku IS NOT NULL) AS bn
          ON m.vm_ram AND bf.sku IS NULL;
END;
COMMENT ON FUNCTION llm_econ._catalog_sku(text, text, text, text, int4, int4, text) IS
  'internal: the SKU import_skypilot_catalog gives one catalog machine shape (names checked against GpuInfo memory, form and GPU count), or why none';

CREATE OR REPLACE FUNCTION llm_econ.import_skypilot_catalog(cloud text, catalog_csv text, observed_at timestamptz,
    withdraw_missing boolean DEFAULT NULL,
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint,
    OUT corrected bigint, OUT unverified bigint, OUT suspect bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  c text := pg_catalog.lower(pg_catalog.btrim(cloud) COLLATE pg_catalog."C");
  src text;
  shape record;
  cv record;
  fix record;
  next_at timestamptz;
  have_fix boolean := false;
  rp record;
  e_state text;     -- an error, raised again without the internal query text (_reraise)
  e_msg text;
  e_detail text;
  e_hint text;
  e_context text;
BEGIN
  IF cloud IS NULL OR catalog_csv IS NULL OR observed_at IS NULL THEN
    RAISE EXCEPTION 'cloud, catalog_csv and observed_at must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'import_skypilot_catalog', pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  -- every cloud SkyPilot publishes catalogs for (a misspelt name is refused, not a new provider)
  IF NOT (c = ANY (llm_econ._skypilot_clouds())) THEN
    RAISE EXCEPTION 'unknown cloud "%"', cloud USING ERRCODE = 'invalid_parameter_value',
      DETAIL = 'Known clouds: ' || pg_catalog.array_to_string(llm_econ._skypilot_clouds(), ', ') || '.';
  END IF;
  IF NOT pg_catalog.isfinite(observed_at) OR observed_at > pg_catalog.now() + interval '1 day' THEN
    RAISE EXCEPTION 'observed_at must be at most now() + 1 day, got %', observed_at
      USING ERRCODE = 'invalid_parameter_value', HINT = 'A catalog cannot be observed in the future.';
  END IF;
  -- a header and nothing else is a cut-off download, not a catalog that lists nothing
  IF catalog_csv ~ '[^[:space:]]' AND catalog_csv !~ '[\r\n][[:space:]]*[^[:space:]]' THEN
    RAISE EXCEPTION 'the % catalog has a header and no rows', c
      USING ERRCODE = 'bad_copy_file_format',
            HINT = 'Imported, an empty catalog would withdraw every offer of the provider; check the download.';
  END IF;
  src := 'SkyPilot catalog vms.csv (' || c || ')';
  SELECT * INTO shape FROM llm_econ._skypilot_cloud_shape(c);

  -- one importer per provider at a time; a malformed catalog raises before anything is stored
  PERFORM llm_econ._lock_providers(ARRAY[c]);
  -- 1. the catalog's offers.  Each instance type is resolved through llm_econ.instance_type:
  --    its SKU and GPU count win over the catalog's.  An unknown one takes the SKU its name says
  --    (_sku_of_name), else the accelerator's, and the catalog's count, which the suspect trigger
  --    judges.  A slice (gpus < 1) is priced per GPU-equivalent (instance price / gpus) and stored
  --    without a whole GPU count.  Also: the series an earlier catalog listed and this one does
  --    not (withdrawn only with evidence, step 2), and what in the file does not fit the cloud.
  WITH raw AS MATERIALIZED (SELECT o.* FROM llm_econ._skypilot_offers(c, catalog_csv) AS o),
       names AS (   -- each distinct name is looked up once
         SELECT DISTINCT v.n FROM raw r,
                LATERAL (VALUES (r.instance_type), (r.accelerator), (llm_econ._gpu_family(r.accelerator)),
                                (r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END)) AS v(n)
          WHERE v.n IS NOT NULL),
       -- _sku_find's rule for all names in one query
       map AS MATERIALIZED (SELECT m.name AS n, m.sku
                              FROM llm_econ._sku_map(ARRAY(SELECT names.n FROM names)) AS m),
       -- each machine shape (its names and facts) is identified once, not once per region and pricing
       shapes AS MATERIALIZED (
         SELECT r.instance_type, r.accelerator, r.variant, r.gpu_mib, r.gpus_per_instance, r.memory_gib, bf.sku, bf.why AS fact_why,
                -- what the catalog's names alone mean (an alias of the machine type, else the accelerator)
                coalesce(al.sku, mv.sku, ma.sku) AS catalog_sku, it.gpus AS known_gpus
           FROM (SELECT DISTINCT d.instance_type, d.accelerator, d.variant, d.gpu_mib, d.gpus_per_instance, d.memory_gib FROM raw d) AS r
           LEFT JOIN llm_econ.instance_type it
                  ON it.provider = c AND pg_catalog.lower(it.instance_type COLLATE pg_catalog."C") = pg_catalog.lower(r.instance_type COLLATE pg_catalog."C")
           LEFT JOIN llm_econ.gpu_sku_alias al ON pg_catalog.lower(al.alias COLLATE pg_catalog."C") = pg_catalog.lower(r.instance_type COLLATE pg_catalog."C")
           LEFT JOIN map mv ON mv.n = r.accelerator || CASE r.variant WHEN 'pcie' THEN '-PCIe' WHEN 'sxm' THEN '-SXM' END
           LEFT JOIN map ma ON ma.n = r.accelerator
           -- the first name whose SKU the row's own facts (GpuInfo memory, spelled size and form,
           -- GPU count) do not contradict; else the one SKU of the accelerator's family they fit
           CROSS JOIN LATERAL llm_econ._catalog_sku(c, r.instance_type, r.accelerator, r.variant, r.gpu_mib, r.gpus_per_instance, r.memory_gib) AS bf),
       parsed AS MATERIALIZED (
         SELECT r.*, h.sku, h.fact_why, h.catalog_sku, h.known_gpus
           FROM raw r
           -- equal keys with NULL as '' or 0 (hashable), then exactly
           JOIN shapes h ON coalesce(h.instance_type, '') = coalesce(r.instance_type, '') AND coalesce(h.accelerator, '') = coalesce(r.accelerator, '')
                        AND coalesce(h.variant, '') = coalesce(r.variant, '') AND coalesce(h.gpu_mib, 0) = coalesce(r.gpu_mib, 0)
                        AND coalesce(h.gpus_per_instance, 0) = coalesce(r.gpus_per_instance, 0) AND coalesce(h.memory_gib, '') = coalesce(r.memory_gib, '')
                        AND h.memory_gib IS NOT DISTINCT FROM r.memory_gib
                        AND h.instance_type IS NOT DISTINCT FROM r.instance_type AND h.accelerator IS NOT DISTINCT FROM r.accelerator
                        AND h.variant IS NOT DISTINCT FROM r.variant AND h.gpu_mib IS NOT DISTINCT FROM r.gpu_mib
                        AND h.gpus_per_instance IS NOT DISTINCT FROM r.gpus_per_instance),
       priced AS (
         SELECT p.sku, p.region, p.pricing, p.instance_type,
                CASE WHEN p.known_gpus IS NULL THEN p.gpus_per_instance
                     WHEN p.known_gpus >= 1::numeric THEN p.known_gpus::int4 END AS gpus,
                CASE WHEN p.known_gpus IS NULL OR p.known_gpus = p.gpus_per_instance::numeric THEN p.usd_per_gpu_hour
                     ELSE pg_catalog.round(p.usd_per_hour / p.known_gpus, 10) END AS usd
           FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL),
       offers AS (   -- the cheapest offer per series
         SELECT DISTINCT ON (o.sku, o.region, o.pricing, o.instance_type)
                o.sku, o.region, o.pricing, llm_econ._usd(o.usd) AS usd, o.instance_type, o.gpus,
                llm_econ._series_id(o.sku, c, o.pricing, o.region, o.instance_type) AS series_id
           FROM priced o
          ORDER BY o.sku, o.region, o.pricing, o.instance_type, o.usd),
       in_effect AS (   -- the series of this cloud's catalogs in effect at observed_at
         SELECT s.sku, s.region, s.pricing, s.instance_type, s.series_id
           FROM llm_econ.price_series s
          CROSS JOIN LATERAL (
                SELECT p.usd_per_gpu_hour, p.source FROM llm_econ.price_snapshot p
                 WHERE p.series_id = s.series_id AND p.observed_at <= import_skypilot_catalog.observed_at
                 ORDER BY p.observed_at DESC LIMIT 1) AS cur
          WHERE s.provider = c AND cur.usd_per_gpu_hour IS NOT NULL AND cur.source = src),
       gone AS (     -- those this file does not list
         SELECT e.sku, e.region, e.pricing, NULL::numeric AS usd, e.instance_type, NULL::int4 AS gpus, e.series_id
           FROM in_effect e WHERE NOT EXISTS (SELECT 1 FROM offers x WHERE x.series_id = e.series_id)),
       cand AS (SELECT * FROM offers UNION ALL SELECT * FROM gone),
       -- a machine type instance_type does not know, with the vCPUs and memory of a known sibling
       -- of the same GPU in this file but another GPU count: its count is not believed (suspect)
       sibling AS (
         SELECT DISTINCT ON (u.instance_type) u.instance_type,
                pg_catalog.format('%s lists %s GPUs per machine; its sibling %s, with the same %s vCPUs and %s GiB, has %s',
                                  u.instance_type, u.gpus_per_instance, k.instance_type, u.vcpus, u.memory_gib,
                                  pg_catalog.trim_scale(k.known_gpus)) AS why
           FROM parsed u
           JOIN parsed k ON k.sku = u.sku AND k.vcpus = u.vcpus AND k.memory_gib = u.memory_gib AND k.known_gpus IS NOT NULL
          WHERE u.known_gpus IS NULL AND u.instance_type IS NOT NULL AND u.gpus_per_instance IS NOT NULL
            AND k.known_gpus <> u.gpus_per_instance::numeric
          ORDER BY u.instance_type, k.instance_type),
       bad_names AS (SELECT DISTINCT r.instance_type AS n FROM raw r
                      WHERE r.instance_type IS NOT NULL AND r.instance_type !~ shape.name_re),
       bad_regions AS (SELECT DISTINCT r.region AS n FROM raw r
                        WHERE r.region IS NOT NULL AND r.region !~ shape.region_re)
  SELECT pg_catalog.array_agg(import_skypilot_catalog.observed_at) AS t, pg_catalog.array_agg(c) AS pr, pg_catalog.array_agg(x.sku) AS sk,
         pg_catalog.array_agg(x.region) AS rg, pg_catalog.array_agg(x.pricing) AS pc, pg_catalog.array_agg(x.usd) AS us,
         pg_catalog.array_agg(x.instance_type) AS it, pg_catalog.array_agg(x.gpus) AS gp,
         (SELECT pg_catalog.jsonb_object_agg(b.instance_type, b.why) FROM sibling b) AS sibling_suspects,
         (SELECT pg_catalog.count(*) FROM in_effect) AS n_in_effect,
         (SELECT pg_catalog.count(*) FROM gone) AS n_gone,
         (SELECT pg_catalog.count(DISTINCT r.instance_type) FROM raw r) AS n_names,
         (SELECT pg_catalog.count(DISTINCT r.region) FROM raw r) AS n_regions,
         (SELECT pg_catalog.count(*) FROM bad_names) AS n_bad_names,
         (SELECT pg_catalog.count(*) FROM bad_regions) AS n_bad_regions,
         (SELECT pg_catalog.string_agg(b.n, ', ' ORDER BY b.n) FROM (SELECT * FROM bad_names ORDER BY 1 LIMIT 5) AS b) AS bad_names,
         (SELECT pg_catalog.string_agg(b.n, ', ' ORDER BY b.n) FROM (SELECT * FROM bad_regions ORDER BY 1 LIMIT 5) AS b) AS bad_regions,
         (SELECT coalesce(pg_catalog.sum(p.catalog_rows) FILTER (WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL), 0) FROM parsed p) AS skipped,
         (SELECT pg_catalog.string_agg(pg_catalog.format('%s row(s) of %s: %s', w.n, w.names, w.why), '; ' ORDER BY w.why) FROM (
            SELECT pg_catalog.sum(q.catalog_rows) AS n, pg_catalog.string_agg(DISTINCT coalesce(q.accelerator, '?'), ', ') AS names, q.why
              FROM (SELECT p.catalog_rows, p.accelerator,
                           CASE
                             WHEN p.sku IS NOT NULL AND p.instance_type IS NULL
                               THEN 'GCP accelerator rows no machine type pairs with in their zone; the machine''s price is missing, so the catalog cannot price them'
                             WHEN p.sku IS NOT NULL
                               THEN 'GCP machine rows no accelerator row pairs with in their zone; the GPUs'' price is missing, so the catalog cannot price them'
                             WHEN p.accelerator COLLATE pg_catalog."C" ~* '^tpu'
                               THEN 'TPUs, not GPUs; not priced here'
                             WHEN p.fact_why IS NOT NULL
                               THEN pg_catalog.format('%s: %s', coalesce(p.instance_type, p.accelerator), p.fact_why)
                             ELSE 'unknown names: add them to llm_econ.gpu_sku_alias, or, for a part gpu_sku lacks, a llm_econ.gpu_sku row with its source'
                           END AS why
                      FROM parsed p WHERE p.sku IS NULL OR p.usd_per_gpu_hour IS NULL) AS q
             GROUP BY q.why) AS w) AS skip_why,
         (SELECT pg_catalog.count(*) FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL
                                          AND (p.known_gpus <> p.gpus_per_instance::numeric OR p.sku <> p.catalog_sku)) AS corrected,
         (SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('%s lists %s x %s, known %s x %s', p.instance_type, p.gpus_per_instance,
                                                                  p.catalog_sku, pg_catalog.trim_scale(coalesce(p.known_gpus, p.gpus_per_instance)), p.sku), '; ')
            FROM parsed p WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL
                            AND (p.known_gpus <> p.gpus_per_instance::numeric OR p.sku <> p.catalog_sku)) AS corrected_why,
         (SELECT pg_catalog.count(DISTINCT p.instance_type) FROM parsed p
           WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.instance_type IS NOT NULL AND p.known_gpus IS NULL) AS unverified,
         -- the first 10 names (the NOTICE says how many more)
         (SELECT pg_catalog.string_agg(u.n, ', ' ORDER BY u.n) FROM (
            SELECT DISTINCT p.instance_type COLLATE "C" AS n FROM parsed p
             WHERE p.sku IS NOT NULL AND p.usd_per_gpu_hour IS NOT NULL AND p.instance_type IS NOT NULL AND p.known_gpus IS NULL
             ORDER BY 1 LIMIT 10) AS u) AS unverified_why
    INTO cv FROM cand x;

  -- 2. refuse what would damage the history: another cloud's file, or withdrawals on thin evidence
  -- the instance names decide (regions repeat across clouds: us-east-1 is AWS's and Lambda's);
  -- regions only when the file names no instance type (GCP accelerator rows alone)
  IF (cv.n_names > 0 AND cv.n_bad_names * 2 > cv.n_names)
     OR (cv.n_names = 0 AND cv.n_bad_regions * 2 > cv.n_regions) THEN
    RAISE EXCEPTION 'the catalog does not fit cloud "%": % of % instance types and % of % regions are not named as % names them',
                    c, cv.n_bad_names, cv.n_names, cv.n_bad_regions, cv.n_regions, c
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('Instance types that do not fit %s: %s. Regions that do not fit %s: %s.',
                                       shape.name_re, coalesce(cv.bad_names, 'none'), coalesce(shape.region_re, '(no rule)'), coalesce(cv.bad_regions, 'none')),
            HINT = 'Is this another cloud''s vms.csv? Import it with that cloud''s name.';
  END IF;
  IF cv.n_bad_regions > 0 THEN
    RAISE NOTICE '% of % regions are not named as % names them: %', cv.n_bad_regions, cv.n_regions, c, cv.bad_regions
      USING HINT = 'Imported as they are; check that the file is a ' || c || ' catalog.';
  END IF;
  IF cv.n_gone > 0 AND withdraw_missing IS NULL AND (cv.n_in_effect - cv.n_gone) * 2 < cv.n_in_effect THEN
    RAISE EXCEPTION 'the % catalog lists % of the % offers in effect; withdrawing the other % needs evidence',
                    c, cv.n_in_effect - cv.n_gone, cv.n_in_effect, cv.n_gone
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A file listing fewer than half of the provider''s offers in effect is more likely cut off than a real withdrawal.',
            HINT = 'Pass withdraw_missing => true to withdraw the offers the file does not list, or withdraw_missing => false to keep them.';
  END IF;
  IF cv.n_gone > 0 AND withdraw_missing IS NOT DISTINCT FROM false THEN
    SELECT pg_catalog.array_agg(x.t) AS t, pg_catalog.array_agg(x.pr) AS pr, pg_catalog.array_agg(x.sk) AS sk, pg_catalog.array_agg(x.rg) AS rg,
           pg_catalog.array_agg(x.pc) AS pc, pg_catalog.array_agg(x.us) AS us, pg_catalog.array_agg(x.it) AS it, pg_catalog.array_agg(x.gp) AS gp,
           cv.skipped, cv.skip_why, cv.corrected, cv.corrected_why, cv.unverified, cv.unverified_why, cv.sibling_suspects
      INTO cv
      FROM ROWS FROM (pg_catalog.unnest(cv.t), pg_catalog.unnest(cv.pr), pg_catalog.unnest(cv.sk), pg_catalog.unnest(cv.rg),
                      pg_catalog.unnest(cv.pc), pg_catalog.unnest(cv.us), pg_catalog.unnest(cv.it), pg_catalog.unnest(cv.gp))
           AS x(t, pr, sk, rg, pc, us, it, gp)
     WHERE x.us IS NOT NULL;
  END IF;

  -- 3. a backfill (a later catalog of this cloud is stored already): what that later catalog
  --    listed must still hold from its date on, so each series this import changes gets, at that
  --    date, the price it had there (or a withdrawal when the later catalog did not list it)
  SELECT pg_catalog.min(i.observed_at) INTO next_at FROM llm_econ.price_import i
   WHERE i.provider = c AND i.source = src AND i.observed_at > import_skypilot_catalog.observed_at;
  IF next_at IS NOT NULL AND cv.sk IS NOT NULL THEN
    SELECT pg_catalog.array_agg(next_at) AS t, pg_catalog.array_agg(c) AS pr, pg_catalog.array_agg(x.sk) AS sk, pg_catalog.array_agg(x.rg) AS rg,
           pg_catalog.array_agg(x.pc) AS pc, pg_catalog.array_agg(st.usd_per_gpu_hour) AS us, pg_catalog.array_agg(x.it) AS it,
           pg_catalog.array_agg(st.gpus_per_instance) AS gp
      INTO fix
      FROM ROWS FROM (pg_catalog.unnest(cv.sk), pg_catalog.unnest(cv.rg), pg_catalog.unnest(cv.pc), pg_catalog.unnest(cv.us), pg_catalog.unnest(cv.it)) AS x(sk, rg, pc, us, it)
      LEFT JOIN LATERAL (
            SELECT p.observed_at, p.usd_per_gpu_hour, p.gpus_per_instance FROM llm_econ.price_snapshot p
             WHERE p.series_id = llm_econ._series_id(x.sk, c, x.pc, x.rg, x.it) AND p.observed_at <= next_at
             ORDER BY p.observed_at DESC LIMIT 1) AS st ON true
     WHERE (st.observed_at IS NULL OR st.observed_at < next_at)
       AND x.us IS DISTINCT FROM st.usd_per_gpu_hour;
    have_fix := fix.t IS NOT NULL;
  END IF;

  -- 4. store (rows written here are of kind catalog), then check the new prices
  -- the suspect trigger reads the machine types whose count a sibling contradicts from this setting
  PERFORM pg_catalog.set_config('llm_econ.import_suspects', coalesce(cv.sibling_suspects::text, ''), true);
  -- the backfill's rows at next_at go in the same batch: the sightings of the rows in effect
  -- move to them (one decision, _price_changes, whatever the import order)
  IF have_fix THEN
    SELECT * INTO rp FROM llm_econ._record_prices(cv.t || fix.t, cv.pr || fix.pr, cv.sk || fix.sk, cv.rg || fix.rg,
                                                  cv.pc || fix.pc, cv.us || fix.us, cv.it || fix.it, cv.gp || fix.gp, src, 'catalog');
  ELSE
    SELECT * INTO rp FROM llm_econ._record_prices(cv.t, cv.pr, cv.sk, cv.rg, cv.pc, cv.us, cv.it, cv.gp, src, 'catalog');
  END IF;
  inserted := coalesce(rp.inserted, 0);
  unchanged := coalesce(rp.unchanged, 0);
  withdrawn := coalesce(rp.withdrawn, 0);
  PERFORM pg_catalog.set_config('llm_econ.import_suspects', '', true);
  INSERT INTO llm_econ.price_import (provider, source, observed_at)
  VALUES (c, src, import_skypilot_catalog.observed_at) ON CONFLICT DO NOTHING;
  SELECT pg_catalog.count(*) INTO suspect FROM llm_econ.price_snapshot p
   WHERE p.provider = c AND p.source = src AND p.observed_at IN (import_skypilot_catalog.observed_at, next_at)
     AND p.suspect IS NOT NULL;
  skipped := cv.skipped;
  corrected := cv.corrected;
  unverified := cv.unverified;

  IF skipped > 0 THEN
    RAISE NOTICE 'skipped % catalog rows', skipped USING DETAIL = cv.skip_why || '.';
  END IF;
  IF corrected > 0 THEN
    RAISE NOTICE 'corrected the GPU or GPU count of % catalog offers', corrected
      USING DETAIL = cv.corrected_why || '.', HINT = 'The SKU and count in llm_econ.instance_type win over the catalog''s; per-GPU prices use them.';
  END IF;
  IF unverified > 0 THEN
    RAISE NOTICE '% machine types are not in llm_econ.instance_type and were priced with the catalog''s count', unverified
      USING DETAIL = 'Those machine types: ' || cv.unverified_why
                     || CASE WHEN unverified > 10 THEN pg_catalog.format(' and %s more', unverified - 10) ELSE '' END || '.',
            HINT = 'A count no known machine of the GPU has is stored as suspect; add the machine types to llm_econ.instance_type with their source.';
  END IF;
  IF suspect > 0 THEN
    RAISE NOTICE '% prices are suspect: a GPU count no known machine of the GPU has, or more than 3x from the same provider''s other offers of the SKU or from the series'' previous price', suspect
      USING HINT = 'They are stored with price_snapshot.suspect set; cheapest_offers leaves them out unless include_suspect => true.';
  END IF;
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT, e_detail = PG_EXCEPTION_DETAIL,
                          e_hint = PG_EXCEPTION_HINT, e_context = PG_EXCEPTION_CONTEXT;
  PERFORM llm_econ._reraise(e_state, e_msg, e_detail, e_hint, e_context);
END $$;
COMMENT ON FUNCTION llm_econ.import_skypilot_catalog(text, text, timestamptz, boolean) IS
  'imports one SkyPilot vms.csv (any cloud) as one dated snapshot of per-GPU prices: a row only where a series'' price changes; checks and withdrawals: docs/prices.md';
COMMENT ON TABLE llm_econ.price_history_staging IS
  'staging for load_price_history(), one row per role and line, each role seeing only its own; roles \copy into price_history_stage';
COMMENT ON COLUMN llm_econ.price_history_staging.staged_by IS 'the role that staged the row (always the inserting role); load_price_history loads and removes only the rows of the role calling it';
DROP POLICY IF EXISTS price_history_staging_writer ON llm_econ.price_history_staging;
CREATE POLICY price_history_staging_writer ON llm_econ.price_history_staging
    USING (staged_by OPERATOR(pg_catalog.=) CURRENT_USER) WITH CHECK (staged_by OPERATOR(pg_catalog.=) CURRENT_USER);
CREATE OR REPLACE VIEW llm_econ.price_history_stage WITH (security_invoker = true) AS
SELECT NULL::text AS observed_at, NULL::text AS valid_to, NULL::text AS cloud, NULL::text AS region,
       NULL::text AS instance_type, NULL::text AS accelerator, NULL::text AS accelerator_count,
       NULL::text AS price_on_demand_usd_per_hour, NULL::text AS spot_price_usd_per_hour,
       NULL::text AS price_on_demand_per_gpu_usd_per_hour, NULL::text AS spot_price_per_gpu_usd_per_hour
 WHERE false;
COMMENT ON VIEW llm_econ.price_history_stage IS
  'where roles \copy a price history for load_price_history() (docs/prices.md); rows go into price_history_staging; reading it gives none';
COMMENT ON COLUMN llm_econ.price_history_stage.observed_at IS 'as price_history_staging.observed_at';
COMMENT ON COLUMN llm_econ.price_history_stage.valid_to IS 'as price_history_staging.valid_to';
COMMENT ON COLUMN llm_econ.price_history_stage.cloud IS 'as price_history_staging.cloud';
COMMENT ON COLUMN llm_econ.price_history_stage.region IS 'as price_history_staging.region';
COMMENT ON COLUMN llm_econ.price_history_stage.instance_type IS 'as price_history_staging.instance_type';
COMMENT ON COLUMN llm_econ.price_history_stage.accelerator IS 'as price_history_staging.accelerator';
COMMENT ON COLUMN llm_econ.price_history_stage.accelerator_count IS 'as price_history_staging.accelerator_count';
COMMENT ON COLUMN llm_econ.price_history_stage.price_on_demand_usd_per_hour IS 'as price_history_staging.price_on_demand_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.spot_price_usd_per_hour IS 'as price_history_staging.spot_price_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.price_on_demand_per_gpu_usd_per_hour IS 'as price_history_staging.price_on_demand_per_gpu_usd_per_hour';
COMMENT ON COLUMN llm_econ.price_history_stage.spot_price_per_gpu_usd_per_hour IS 'as price_history_staging.spot_price_per_gpu_usd_per_hour';
CREATE OR REPLACE FUNCTION llm_econ._price_history_stage_row() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.price_history_staging
         (observed_at, valid_to, cloud, region, instance_type, accelerator, accelerator_count,
          price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour,
          spot_price_per_gpu_usd_per_hour)
  VALUES (NEW.observed_at, NEW.valid_to, NEW.cloud, NEW.region, NEW.instance_type, NEW.accelerator,
          NEW.accelerator_count, NEW.price_on_demand_usd_per_hour, NEW.spot_price_usd_per_hour,
          NEW.price_on_demand_per_gpu_usd_per_hour, NEW.spot_price_per_gpu_usd_per_hour);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_history_stage_row() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_history_stage_row() IS
  'internal: INSTEAD OF INSERT trigger of price_history_stage: the row into price_history_staging as the inserting role';
CREATE OR REPLACE TRIGGER price_history_stage_row INSTEAD OF INSERT ON llm_econ.price_history_stage
    FOR EACH ROW EXECUTE FUNCTION llm_econ._price_history_stage_row();
COMMENT ON COLUMN llm_econ.price_history_staging.id IS 'load order (file line = its rank + 1 with a header line)';
COMMENT ON COLUMN llm_econ.price_history_staging.observed_at IS 'ISO 8601 instant the price was first seen';
COMMENT ON COLUMN llm_econ.price_history_staging.valid_to IS 'ISO 8601 instant it stopped (next change, removal, or end of coverage)';
COMMENT ON COLUMN llm_econ.price_history_staging.cloud IS 'provider, e.g. gcp';
COMMENT ON COLUMN llm_econ.price_history_staging.region IS 'region';
COMMENT ON COLUMN llm_econ.price_history_staging.instance_type IS 'machine type';
COMMENT ON COLUMN llm_econ.price_history_staging.accelerator IS 'accelerator name (key or alias)';
COMMENT ON COLUMN llm_econ.price_history_staging.accelerator_count IS 'GPUs per machine';
COMMENT ON COLUMN llm_econ.price_history_staging.price_on_demand_usd_per_hour IS 'machine on-demand USD/hour';
COMMENT ON COLUMN llm_econ.price_history_staging.spot_price_usd_per_hour IS 'machine spot USD/hour; empty = no spot offer';
COMMENT ON COLUMN llm_econ.price_history_staging.price_on_demand_per_gpu_usd_per_hour IS 'per-GPU on-demand USD/hour (machine price / count when empty)';
COMMENT ON COLUMN llm_econ.price_history_staging.spot_price_per_gpu_usd_per_hour IS 'per-GPU spot USD/hour (machine price / count when empty)';

-- The staged history, typed and mapped to SKUs: the machine type decides the GPU
-- (a2-ultragpu-1g is an A100 80GB whatever its accelerator column says); "problem" says why a
-- line cannot be used.  line = the file line with a header (rank in load order + 1).
CREATE OR REPLACE FUNCTION llm_econ._staged_history()
RETURNS TABLE (line bigint, observed_at timestamptz, valid_to timestamptz, cloud text, region text,
               instance_type text, n int4, od numeric, spot numeric, sku text, problem text)
LANGUAGE sql STABLE
BEGIN ATOMIC
  WITH names AS (SELECT s.instance_type AS name FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER
                 UNION SELECT s.accelerator FROM llm_econ.price_history_staging s
                  WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER),
       map AS (SELECT m.name, m.sku FROM llm_econ._sku_map(ARRAY(SELECT names.name FROM names)) AS m)
  SELECT pg_catalog.row_number() OVER (ORDER BY s.id) + 1, s.observed_at::timestamptz, s.valid_to::timestamptz,
         s.cloud, s.region, s.instance_type, s.accelerator_count::numeric::int4,
         llm_econ._usd(coalesce(nullif(s.price_on_demand_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.price_on_demand_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         llm_econ._usd(coalesce(nullif(s.spot_price_per_gpu_usd_per_hour, '')::numeric,
                                nullif(s.spot_price_usd_per_hour, '')::numeric / s.accelerator_count::numeric)),
         coalesce(mi.sku, ma.sku),
         CASE
           WHEN mi.sku IS NOT NULL AND ma.sku IS NOT NULL AND mi.sku <> ma.sku
             THEN pg_catalog.format('accelerator "%s" is not what "%s" carries ("%s")', s.accelerator, s.instance_type, mi.sku)
           WHEN mi.sku IS NULL AND ma.sku IS NULL
             THEN pg_catalog.format('unknown accelerator "%s"', s.accelerator)
         END
    FROM llm_econ.price_history_staging s
    LEFT JOIN map mi ON mi.name = s.instance_type
    LEFT JOIN map ma ON ma.name = s.accelerator
   WHERE s.staged_by OPERATOR(pg_catalog.=) CURRENT_USER;
END;
COMMENT ON FUNCTION llm_econ._staged_history() IS 'internal: the rows the current role staged in price_history_staging, typed, with line numbers and SKUs';

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
  IF source IS NULL OR pg_catalog.btrim(source) = '' THEN
    RAISE EXCEPTION 'source must name where the history comes from' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF on_mismatch IS NULL OR on_mismatch NOT IN ('error', 'skip') THEN
    RAISE EXCEPTION 'on_mismatch must be one of error, skip, got "%"', on_mismatch USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', 'load_price_history', pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
      USING ERRCODE = 'invalid_transaction_state',
            HINT = 'Imports serialise with other imports of the same provider and must see their commits.';
  END IF;
  me := CURRENT_USER;   -- only the rows this role staged: two writers never load each other's

  -- 1. every field well-formed; the first bad line is the error
  SELECT * INTO bad FROM (
    SELECT pg_catalog.row_number() OVER (ORDER BY s.id) + 1 AS line, s.*,
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
            DETAIL = pg_catalog.format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L, valid_to %L, cloud %L, region %L, instance_type %L, accelerator %L, accelerator_count %L and prices %L/%L/%L/%L.',
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
                       WHEN h.observed_at > pg_catalog.now() + interval '1 day' THEN 2 END AS why
        FROM llm_econ._staged_history() AS h) AS v
     WHERE v.why IS NOT NULL ORDER BY v.why, v.line LIMIT 1;
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    FOR bad IN SELECT pg_catalog.row_number() OVER (ORDER BY s.id) + 1 AS line, s.observed_at, s.valid_to
                 FROM llm_econ.price_history_staging s WHERE s.staged_by = me ORDER BY s.id LOOP
      BEGIN
        PERFORM bad.observed_at::timestamptz, bad.valid_to::timestamptz;
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION '%', SQLERRM USING ERRCODE = 'bad_copy_file_format',
          DETAIL = pg_catalog.format('Line %s of the staged history (line 1 is the CSV header) has observed_at %L and valid_to %L.',
                          bad.line, bad.observed_at, bad.valid_to);
      END;
    END LOOP;
    RAISE;
  END;
  IF bad.why = 1 THEN
    RAISE EXCEPTION 'valid_to % is not after observed_at %', bad.valid_to, bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('This is line %s of the staged history (line 1 is the CSV header).', bad.line);
  ELSIF bad.why = 2 THEN
    RAISE EXCEPTION 'observed_at % is later than now() + 1 day', bad.observed_at
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
            HINT = 'A price cannot be observed in the future.';
  END IF;
  IF on_mismatch = 'error' THEN
    SELECT * INTO bad FROM llm_econ._staged_history() h
     WHERE h.problem IS NOT NULL AND h.problem NOT LIKE 'unknown%' ORDER BY h.line LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION '%', bad.problem USING ERRCODE = 'invalid_parameter_value',
        DETAIL = pg_catalog.format('This is line %s of the staged history (line 1 is the CSV header).', bad.line),
        HINT = 'The instance type decides the GPU; on_mismatch => ''skip'' counts such lines as skipped.';
    END IF;
  END IF;

  -- 3. candidates: each line's prices (0 or empty = not offered), and withdrawals where a
  --    machine disappears (a gap before its next line, or an end before the end of coverage)
  WITH staged AS MATERIALIZED (SELECT * FROM llm_econ._staged_history()),
       h AS (
         SELECT x.*, pg_catalog.lead(x.observed_at) OVER (PARTITION BY x.cloud, x.region, x.instance_type ORDER BY x.observed_at) AS next_at,
                (SELECT pg_catalog.max(y.valid_to) FROM staged y) AS coverage_end
           FROM staged x WHERE x.problem IS NULL),
       cand AS (   -- a line's price held, so was seen, until its valid_to
         SELECT h.observed_at AS t, h.cloud, h.sku, h.region, k.pricing,
                nullif(CASE k.pricing WHEN 'on_demand' THEN h.od ELSE h.spot END, 0) AS usd,
                h.instance_type, h.n, h.valid_to AS seen
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
         UNION ALL
         SELECT h.valid_to, h.cloud, h.sku, h.region, k.pricing, NULL, h.instance_type, h.n, h.valid_to
           FROM h CROSS JOIN (VALUES ('on_demand'), ('spot')) AS k(pricing)
          WHERE (h.next_at IS NULL AND h.valid_to < h.coverage_end) OR h.valid_to < h.next_at),
       arr AS (SELECT pg_catalog.array_agg(t) AS t, pg_catalog.array_agg(cloud) AS pr, pg_catalog.array_agg(sku) AS sk, pg_catalog.array_agg(region) AS rg,
                      pg_catalog.array_agg(pricing) AS pc, pg_catalog.array_agg(usd) AS us, pg_catalog.array_agg(instance_type) AS it, pg_catalog.array_agg(n) AS gp,
                      pg_catalog.array_agg(seen) AS sn
                 FROM (SELECT * FROM cand ORDER BY t) AS o),
       stats AS (SELECT pg_catalog.count(*) AS n, pg_catalog.string_agg(DISTINCT x.problem, '; ') AS names
                   FROM staged x WHERE x.problem IS NOT NULL)
  SELECT rp.inserted, rp.unchanged, rp.withdrawn, stats.n, stats.names
    INTO inserted, unchanged, withdrawn, skipped, names
    FROM arr, stats, LATERAL llm_econ._record_prices(arr.t, arr.pr, arr.sk, arr.rg, arr.pc, arr.us, arr.it, arr.gp, source, 'history', arr.sn) AS rp;
  IF skipped > 0 AND NOT quiet THEN
    RAISE NOTICE 'skipped % lines', skipped USING DETAIL = 'Why: ' || pg_catalog.left(names, 500) || '.';
  END IF;

  DELETE FROM llm_econ.price_history_staging s WHERE s.staged_by = me;
  inserted := coalesce(inserted, 0);
  unchanged := coalesce(unchanged, 0);
  withdrawn := coalesce(withdrawn, 0);
END $$;
COMMENT ON FUNCTION llm_econ._load_price_history(text, text, boolean) IS
  'internal: load_price_history with the install script''s quiet mode';

CREATE OR REPLACE FUNCTION llm_econ.load_price_history(source text DEFAULT 'price_history_staging', on_mismatch text DEFAULT 'error',
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint)
LANGUAGE sql VOLATILE
BEGIN ATOMIC SELECT * FROM llm_econ._load_price_history($1, $2, false); END;
COMMENT ON FUNCTION llm_econ.load_price_history(text, text) IS
  'loads the rows the current role staged in price_history_staging as change points, then removes them; all or nothing (docs/prices.md)';
