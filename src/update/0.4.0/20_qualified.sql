-- 20_qualified.sql: every function whose 0.4.0 definition differs from 0.3.0's or is new: built-in calls pg_catalog-qualified, SQL bodies BEGIN ATOMIC, the price horizon, source_kind set by the recorder alone, the daily summary's materialized span-days.

-- Copied from src/sql (the install parts), as CREATE OR REPLACE, with their REVOKEs and
-- comments: an updated database gets the same definitions as a fresh install
-- (test/t/002_upgrade.pl compares them).

-- 0.3.0's recorder stores as before, under a new name; the recorder is now a C entry point that
-- takes the kind of the rows it writes as an argument (it was a setting anyone could set)
ALTER FUNCTION llm_econ._record_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text)
  RENAME TO _store_prices;

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
                                     AND pg_catalog.lower(i.instance_type) OPERATOR(pg_catalog.=) pg_catalog.lower(n.instance_type))
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
                                        WHERE i.provider = m.provider AND pg_catalog.lower(i.instance_type) = pg_catalog.lower(m.instance_type))
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

CREATE OR REPLACE FUNCTION llm_econ._focus_refusal(fn text, who text, replacing boolean, staged boolean) RETURNS text[]
LANGUAGE sql STABLE
BEGIN ATOMIC
  SELECT CASE
    WHEN NOT pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT')
      THEN ARRAY[pg_catalog.format('%s needs INSERT on llm_econ.spend', $1),
                 pg_catalog.format('GRANT INSERT ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN NOT pg_catalog.has_sequence_privilege('llm_econ.spend_id_seq', 'USAGE')
      THEN ARRAY[pg_catalog.format('%s needs USAGE on sequence llm_econ.spend_id_seq', $1),
                 pg_catalog.format('GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO %I;', CURRENT_USER)]
    WHEN $3 AND NOT (pg_catalog.has_table_privilege('llm_econ.spend', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.spend', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s in mode replace replaces what was stored for the statements it loads and needs SELECT and DELETE on llm_econ.spend (mode append only adds)', $1),
                 pg_catalog.format('GRANT SELECT, DELETE ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN $4 AND NOT (pg_catalog.has_table_privilege('llm_econ.focus_staging', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.focus_staging', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s needs SELECT and DELETE on llm_econ.focus_staging', $1),
                 pg_catalog.format('GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO %I;', CURRENT_USER)]
    WHEN pg_catalog.row_security_active('llm_econ.spend') AND NOT llm_econ._is_tenant_member($2)
      THEN ARRAY[pg_catalog.format('%s: role %I may not write the lines of tenant %I (not a member of that role)', $1, CURRENT_USER, $2),
                 pg_catalog.format('Pass the tenant of a role %I is a member of, or GRANT %I TO %I;', CURRENT_USER, $2, CURRENT_USER)]
  END;
END;

CREATE OR REPLACE FUNCTION llm_econ._freeze_plan() RETURNS trigger
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NEW.spec IS NULL THEN
    RAISE EXCEPTION 'spec must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._check_spec(NEW.spec);             -- a hand-built spec is checked like the constructor's
  IF TG_OP = 'INSERT' AND NEW.planned_usd IS NOT NULL AND NEW.planned_gpu_hours IS NOT NULL
     AND NEW.usd_per_gpu_hour IS NOT NULL THEN
    -- already frozen: keep the values, but only sane ones
    IF NOT (NEW.planned_gpu_hours >= 0::float8 AND NEW.planned_gpu_hours < 'Infinity'::float8) THEN
      RAISE EXCEPTION 'planned_gpu_hours must be in [0, Infinity), got %', NEW.planned_gpu_hours
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT (NEW.planned_usd >= 0::numeric AND NEW.planned_usd < 'Infinity'::numeric) THEN
      RAISE EXCEPTION 'planned_usd must be in [0, Infinity), got %', NEW.planned_usd
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- and only values this spec and price give (to a millionth: a later version may round differently)
    IF pg_catalog.abs(NEW.planned_gpu_hours - llm_econ.gpu_hours(NEW.spec)) > 1e-6::float8 * greatest(1::float8, NEW.planned_gpu_hours)
       OR pg_catalog.abs(NEW.planned_usd - llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour))
          > 0.000001::numeric * greatest(1::numeric, NEW.planned_usd) THEN
      RAISE EXCEPTION 'planned_gpu_hours and planned_usd must be what the spec and usd_per_gpu_hour give'
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = pg_catalog.format('Got %s GPU-hours and %s USD; the spec gives %s GPU-hours and %s USD.',
                              NEW.planned_gpu_hours, NEW.planned_usd, llm_econ.gpu_hours(NEW.spec),
                              llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour)),
              HINT = 'Leave them NULL: they are computed when the plan is made.';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.spec::text = OLD.spec::text AND NEW.provider = OLD.provider AND NEW.pricing = OLD.pricing
       AND NEW.region IS NOT DISTINCT FROM OLD.region AND NEW.planned_at = OLD.planned_at
       AND NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour THEN
      -- nothing the plan was priced from changed (notes, team, ...): it stays frozen, and a
      -- hand edit of planned_usd or planned_gpu_hours is undone
      NEW.planned_usd := OLD.planned_usd;
      NEW.planned_gpu_hours := OLD.planned_gpu_hours;
      RETURN NEW;
    END IF;
    -- the provider, pricing, region, planned_at or the spec's SKU changed and the UPDATE did not
    -- set the price itself: the plan is re-priced from the price table, never left at the old price
    IF NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour
       AND (NEW.provider <> OLD.provider OR NEW.pricing <> OLD.pricing
            OR NEW.region IS DISTINCT FROM OLD.region OR NEW.planned_at <> OLD.planned_at
            OR (NEW.spec).sku IS DISTINCT FROM (OLD.spec).sku) THEN
      NEW.usd_per_gpu_hour := NULL;
    END IF;
  END IF;
  PERFORM llm_econ._sku_key((NEW.spec).sku);          -- unknown SKU: 22023 with close matches
  IF NEW.usd_per_gpu_hour IS NULL THEN
    NEW.usd_per_gpu_hour := llm_econ.price_at((NEW.spec).sku, NEW.provider, NEW.pricing, NEW.planned_at, NEW.region);
    IF NEW.usd_per_gpu_hour IS NULL THEN
      RAISE EXCEPTION 'no % price is known for sku "%" from provider "%" at %', NEW.pricing, (NEW.spec).sku,
                      NEW.provider, NEW.planned_at
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Give usd_per_gpu_hour, or add the price to llm_econ.price_snapshot.';
    END IF;
  END IF;
  NEW.planned_usd := llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour);   -- checks the spec and the price
  NEW.planned_gpu_hours := llm_econ.gpu_hours(NEW.spec);
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION llm_econ._import_lock() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  providers text[] := pg_catalog.string_to_array(nullif(pg_catalog.current_setting('llm_econ.import_providers', true), ''), ',');
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_WHEN <> 'BEFORE'
     OR TG_LEVEL <> 'STATEMENT' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'llm_econ._import_lock() fires only as the BEFORE INSERT statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF providers IS NOT NULL THEN
    -- only names price_snapshot can store (its provider check, at most 256 bytes): the setting is
    -- any role's to write, and this table's rows outlive the transaction; a name it cannot store
    -- needs no lock (its rows are refused)
    providers := ARRAY(SELECT p FROM pg_catalog.unnest(providers) AS p
                        WHERE p ~ '^[a-z0-9][a-z0-9._-]*$' AND pg_catalog.octet_length(p) <= 256);
    INSERT INTO llm_econ.import_lock (provider)
    SELECT p FROM pg_catalog.unnest(providers) AS p ORDER BY 1 ON CONFLICT DO NOTHING;
    PERFORM 1 FROM llm_econ.import_lock l WHERE l.provider = ANY (providers) ORDER BY l.provider FOR UPDATE;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION llm_econ._is_tenant_member(tenant text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) $1)
              THEN pg_catalog.pg_has_role($1, 'MEMBER') ELSE false END;
END;

CREATE OR REPLACE FUNCTION llm_econ._kind_allowed() RETURNS boolean
AS 'MODULE_PATHNAME', 'le_kind_allowed_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;

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

CREATE OR REPLACE FUNCTION llm_econ._lock_providers(providers text[]) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_catalog.set_config('llm_econ.import_providers',
                     pg_catalog.array_to_string(ARRAY(SELECT DISTINCT p FROM pg_catalog.unnest(providers) AS p WHERE p IS NOT NULL ORDER BY 1), ','),
                     true);
  INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, source)
  SELECT NULL, NULL, NULL, NULL, NULL WHERE false;
  PERFORM pg_catalog.set_config('llm_econ.import_providers', '', true);
END $$;

CREATE OR REPLACE FUNCTION llm_econ._name_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.lower(pg_catalog.translate($1, ' -_', '')); END;

DROP FUNCTION llm_econ._price_changes(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[]);
CREATE FUNCTION llm_econ._price_changes(obs_at timestamptz[], provider text[], sku text[], region text[],
                                        pricing text[], usd numeric[], instance_type text[], gpus int4[],
                                        seen timestamptz[])
RETURNS TABLE (observed_at timestamptz, provider text, sku text, region text, pricing text, usd numeric,
               instance_type text, gpus int4, is_new boolean, fresh boolean, conflict boolean,
               series_id int8, seen_to timestamptz)
LANGUAGE sql STABLE
BEGIN ATOMIC
  WITH cand AS (
         SELECT c.observed_at, c.provider, c.sku, c.region, c.pricing, c.usd, c.instance_type, c.gpus,
                true AS is_new, c.ord,
                llm_econ._series_id(c.sku, c.provider, c.pricing, c.region, c.instance_type) AS series_id,
                GREATEST(c.observed_at, c.seen) AS seen
           FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6), pg_catalog.unnest($7), pg_catalog.unnest($8), pg_catalog.unnest($9)) WITH ORDINALITY
                AS c(observed_at, provider, sku, region, pricing, usd, instance_type, gpus, seen, ord)
          WHERE $9 IS NULL OR c.ord OPERATOR(pg_catalog.<=) pg_catalog.cardinality($1)),
       keys AS (
         SELECT c.provider, c.sku, c.region, c.pricing, c.instance_type, c.series_id, pg_catalog.min(c.observed_at) AS first_at
           FROM cand c GROUP BY 1, 2, 3, 4, 5, 6),
       stored AS (
         SELECT o.observed_at, k.provider, k.sku, k.region, k.pricing, o.usd_per_gpu_hour, k.instance_type,
                NULL::int4, false, NULL::bigint, k.series_id, NULL::timestamptz
           FROM keys k
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id OPERATOR(pg_catalog.=) k.series_id
                    AND p.observed_at OPERATOR(pg_catalog.<) k.first_at
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id OPERATOR(pg_catalog.=) k.series_id
                    AND p.observed_at OPERATOR(pg_catalog.>=) k.first_at)) AS o),
       seq AS (
         SELECT a.*,
                pg_catalog.lag(a.usd) OVER w AS prev_usd,
                -- at this instant: is something stored, is it another price, is this the first candidate
                pg_catalog.bool_or(NOT a.is_new) OVER i AS stored_here,
                pg_catalog.min(a.usd) OVER i IS DISTINCT FROM pg_catalog.max(a.usd) OVER i
                  OR (pg_catalog.bool_or(a.usd IS NULL) OVER i AND pg_catalog.bool_or(a.usd IS NOT NULL) OVER i) AS clash_here,
                pg_catalog.row_number() OVER (PARTITION BY a.series_id, a.observed_at ORDER BY a.is_new, a.ord) AS nth_here
           FROM (SELECT * FROM cand UNION ALL SELECT * FROM stored) AS a
         WINDOW w AS (PARTITION BY a.series_id ORDER BY a.observed_at, a.is_new, a.ord),
                i AS (PARTITION BY a.series_id, a.observed_at)),
       marked AS (
         SELECT s.*,
                s.is_new AND NOT s.stored_here AND s.nth_here OPERATOR(pg_catalog.=) 1 AND s.usd IS DISTINCT FROM s.prev_usd AS fresh,
                s.is_new AND s.clash_here AS conflict
           FROM seq s),
       grouped AS (   -- the change point each row belongs to: the count of change points up to it
         SELECT m.*,
                pg_catalog.count(*) FILTER (WHERE NOT m.is_new OR m.fresh)
                  OVER (PARTITION BY m.series_id ORDER BY m.observed_at, m.is_new, m.ord ROWS UNBOUNDED PRECEDING) AS grp
           FROM marked m)
  SELECT g.observed_at, g.provider, g.sku, g.region, g.pricing, g.usd, g.instance_type, g.gpus, g.is_new,
         g.fresh, g.conflict, g.series_id,
         CASE WHEN (NOT g.is_new OR g.fresh) AND g.usd IS NOT NULL
              THEN pg_catalog.max(g.seen) FILTER (WHERE g.is_new AND NOT g.conflict)
                     OVER (PARTITION BY g.series_id, g.grp) END
    FROM grouped g;
END;

CREATE OR REPLACE FUNCTION llm_econ._price_daily_maintain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  k_sku text[];
  k_provider text[];
  k_pricing text[];
  k_since timestamptz[];
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('INSERT', 'UPDATE', 'DELETE') THEN
    RAISE EXCEPTION 'llm_econ._price_daily_maintain() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT pg_catalog.array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           pg_catalog.array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT n.sku, n.provider, n.pricing,
                   pg_catalog.date_trunc('day', pg_catalog.min(n.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              FROM new_rows n GROUP BY 1, 2, 3) c;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT pg_catalog.array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           pg_catalog.array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT o.sku, o.provider, o.pricing,
                   pg_catalog.date_trunc('day', pg_catalog.min(o.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              FROM old_rows o GROUP BY 1, 2, 3) c;
  ELSE
    SELECT pg_catalog.array_agg(c.sku ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.provider ORDER BY c.sku, c.provider, c.pricing),
           pg_catalog.array_agg(c.pricing ORDER BY c.sku, c.provider, c.pricing), pg_catalog.array_agg(c.since ORDER BY c.sku, c.provider, c.pricing)
      INTO k_sku, k_provider, k_pricing, k_since
      FROM (SELECT r.sku, r.provider, r.pricing,
                   pg_catalog.date_trunc('day', pg_catalog.min(r.observed_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since
              -- rows whose series, instant and price the update left as they were (as the
              -- suspect flag's UPDATE does) change no summary row
              FROM (SELECT n.sku, n.provider, n.pricing, n.observed_at FROM new_rows n
                     WHERE NOT EXISTS (SELECT 1 FROM old_rows o
                                        WHERE o.id = n.id AND o.sku = n.sku AND o.provider = n.provider AND o.pricing = n.pricing
                                         AND o.region IS NOT DISTINCT FROM n.region
                                         AND o.instance_type IS NOT DISTINCT FROM n.instance_type
                                         AND o.observed_at = n.observed_at
                                         AND o.usd_per_gpu_hour::text IS NOT DISTINCT FROM n.usd_per_gpu_hour::text)
                    UNION ALL
                    SELECT o.sku, o.provider, o.pricing, o.observed_at FROM old_rows o
                     WHERE NOT EXISTS (SELECT 1 FROM new_rows n
                                        WHERE n.id = o.id AND o.sku = n.sku AND o.provider = n.provider AND o.pricing = n.pricing
                                         AND o.region IS NOT DISTINCT FROM n.region
                                         AND o.instance_type IS NOT DISTINCT FROM n.instance_type
                                         AND o.observed_at = n.observed_at
                                         AND o.usd_per_gpu_hour::text IS NOT DISTINCT FROM n.usd_per_gpu_hour::text)) r
             GROUP BY 1, 2, 3) c;
  END IF;
  IF k_sku IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO llm_econ.price_daily_group (sku, provider, pricing)
  SELECT * FROM ROWS FROM (pg_catalog.unnest(k_sku), pg_catalog.unnest(k_provider), pg_catalog.unnest(k_pricing)) ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM llm_econ.price_daily_group gr
    JOIN ROWS FROM (pg_catalog.unnest(k_sku), pg_catalog.unnest(k_provider), pg_catalog.unnest(k_pricing)) AS g(sku, provider, pricing)
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   ORDER BY gr.sku, gr.provider, gr.pricing FOR UPDATE OF gr;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = g.since
    FROM ROWS FROM (pg_catalog.unnest(k_sku), pg_catalog.unnest(k_provider), pg_catalog.unnest(k_pricing), pg_catalog.unnest(k_since)) AS g(sku, provider, pricing, since)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing;
  PERFORM llm_econ._price_daily_refresh();
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION llm_econ._price_daily_refresh()
RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  skus text[];
  providers text[];
  pricings text[];
  since timestamptz[];
  fresh boolean[];
BEGIN
  -- the groups marked by this transaction (a writer marks only rows it holds locked); a group's
  -- rows must also reach the days between its former last day and dirty_since
  SELECT pg_catalog.array_agg(gr.sku ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(gr.provider ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(gr.pricing ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(least(gr.dirty_since, (gr.last_day AT TIME ZONE 'UTC' + interval '1 day') AT TIME ZONE 'UTC')
                   ORDER BY gr.sku, gr.provider, gr.pricing),
         pg_catalog.array_agg(gr.last_day IS NULL ORDER BY gr.sku, gr.provider, gr.pricing)
    INTO skus, providers, pricings, since, fresh
    FROM llm_econ.price_daily_group gr WHERE gr.dirty_since IS NOT NULL;
  IF skus IS NULL THEN
    RETURN;
  END IF;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = NULL WHERE gr.dirty_since IS NOT NULL;
  DELETE FROM llm_econ.price_daily_summary d
   USING ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings), pg_catalog.unnest(since)) AS g(sku, provider, pricing, since)
   WHERE d.sku = g.sku AND d.provider = g.provider AND d.pricing = g.pricing AND d."time" >= g.since;
  WITH g AS (
         SELECT * FROM ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings), pg_catalog.unnest(since), pg_catalog.unnest(fresh)) AS g(sku, provider, pricing, since, fresh)),
       obs AS (
         SELECT s.sku, s.provider, s.pricing, s.series_id, g.since, o.observed_at, o.usd
           FROM g JOIN llm_econ.price_series s
             ON s.sku = g.sku AND s.provider = g.provider AND s.pricing = g.pricing
                -- a slice of a GPU (instance_type.gpus < 1) is no whole GPU's price
                AND NOT EXISTS (SELECT 1 FROM llm_econ.instance_type i
                                 WHERE i.provider = s.provider AND pg_catalog.lower(i.instance_type) = pg_catalog.lower(s.instance_type)
                                   AND i.gpus < 1::numeric)
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.observed_at < g.since AND NOT g.fresh
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                -- a group new to the summary (no last day yet) had no observation before this
                -- statement, so all of its observations count
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id
                    AND p.observed_at >= CASE WHEN g.fresh THEN '-infinity' ELSE g.since END)) AS o(observed_at, usd)),
       spans AS (   -- UTC days [f, t) at whose end each observation is in effect (t NULL: to the last
                    -- day), within the days the summary keeps: 2000-01-01 to 2100-01-01
         SELECT obs.sku, obs.provider, obs.pricing, obs.usd,
                least(greatest(pg_catalog.date_trunc('day', obs.observed_at AT TIME ZONE 'UTC'), obs.since AT TIME ZONE 'UTC',
                               timestamp '2000-01-01'), timestamp '2100-01-01') AS f,
                CASE WHEN pg_catalog.lead(obs.observed_at) OVER w IS NOT NULL
                     THEN least(greatest(pg_catalog.date_trunc('day', pg_catalog.lead(obs.observed_at) OVER w AT TIME ZONE 'UTC'),
                                         timestamp '2000-01-01'), timestamp '2100-01-01') END AS t
           FROM obs
         WINDOW w AS (PARTITION BY obs.series_id ORDER BY obs.observed_at)),
       changes AS (  -- the days a group's prices can change, each with the group's next such day
         SELECT c.sku, c.provider, c.pricing, c.day, pg_catalog.lead(c.day) OVER w AS next
           FROM (SELECT DISTINCT spans.sku, spans.provider, spans.pricing, spans.f AS day FROM spans) c
         WINDOW w AS (PARTITION BY c.sku, c.provider, c.pricing ORDER BY c.day)),
       last AS (
         SELECT obs.sku, obs.provider, obs.pricing,
                least(greatest(pg_catalog.date_trunc('day', pg_catalog.max(obs.observed_at) AT TIME ZONE 'UTC'), timestamp '2000-01-01'),
                      timestamp '2100-01-01') AS day
           FROM obs GROUP BY 1, 2, 3),
       span_days AS MATERIALIZED (  -- each priced span, on the days it covers (materialized: the
                    -- planner, which cannot estimate the CTEs above, otherwise joined every span
                    -- with every change day of its group before the day condition, 37.5M rows
                    -- for 300,000 hourly observations)
         SELECT s.sku, s.provider, s.pricing, s.usd, d.day
           FROM spans s
           JOIN last l ON l.sku = s.sku AND l.provider = s.provider AND l.pricing = s.pricing
          CROSS JOIN LATERAL pg_catalog.generate_series(s.f, coalesce(s.t - interval '1 day', l.day), interval '1 day') AS d(day)
          WHERE s.usd IS NOT NULL),
       state AS (    -- the group's prices at the end of each such day: the same until the next one
         SELECT c.sku, c.provider, c.pricing, c.day, c.next, pg_catalog.count(*) AS offers, pg_catalog.min(s.usd) AS min_usd,
                (pg_catalog.percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd)
                 + pg_catalog.percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd DESC)) * 0.5 AS median_usd,
                pg_catalog.max(s.usd) AS max_usd, pg_catalog.sum(s.usd) AS sum_usd
           FROM changes c
           JOIN span_days s
             ON s.sku = c.sku AND s.provider = c.provider AND s.pricing = c.pricing AND s.day = c.day
          GROUP BY c.sku, c.provider, c.pricing, c.day, c.next),
       new_last AS (  -- each group's last observation day (NULL: none left)
         UPDATE llm_econ.price_daily_group gr SET last_day = l.day AT TIME ZONE 'UTC'
           FROM ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
           LEFT JOIN last l ON l.sku = g.sku AND l.provider = g.provider AND l.pricing = g.pricing
          WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)
  INSERT INTO llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd)
  SELECT d.day AT TIME ZONE 'UTC', st.sku, st.provider, st.pricing, st.offers, st.min_usd, st.median_usd,
         st.max_usd, st.sum_usd
    FROM state st
    JOIN last l ON l.sku = st.sku AND l.provider = st.provider AND l.pricing = st.pricing
   CROSS JOIN LATERAL pg_catalog.generate_series(st.day, coalesce(st.next - interval '1 day', l.day), interval '1 day') AS d(day);
  -- groups left without observations are dropped
  DELETE FROM llm_econ.price_daily_group gr
   USING ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing AND gr.last_day IS NULL;
  -- a delete can move a group's last day back before "since": the rows after it go (the views
  -- repeat the last row instead)
  DELETE FROM llm_econ.price_daily_summary d
   USING ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
    JOIN llm_econ.price_daily_group gr
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   WHERE d.sku = gr.sku AND d.provider = gr.provider AND d.pricing = gr.pricing AND d."time" > gr.last_day;
  DELETE FROM llm_econ.price_daily_summary d
   USING (SELECT g.sku, g.provider, g.pricing FROM ROWS FROM (pg_catalog.unnest(skus), pg_catalog.unnest(providers), pg_catalog.unnest(pricings)) AS g(sku, provider, pricing)
           WHERE NOT EXISTS (SELECT 1 FROM llm_econ.price_daily_group gr
                              WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)) AS gone
   WHERE d.sku = gone.sku AND d.provider = gone.provider AND d.pricing = gone.pricing;
END $$;

CREATE OR REPLACE FUNCTION llm_econ._price_series_add() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('INSERT', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_add() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- The horizon of price data: cloud GPU rental began in November 2010 (AWS Cluster GPU
  -- instances, cg1.4xlarge), and nobody lists a price more than a year ahead.  An observation
  -- outside [2010-01-01, now + 366 days] is a typo or an attack (a row at 1900 and one at 2099
  -- make the daily summaries span two centuries); rows already stored are not touched.
  IF EXISTS (SELECT 1 FROM new_rows n
              WHERE n.observed_at OPERATOR(pg_catalog.<) '2010-01-01 00:00+00'::timestamptz
                 OR n.observed_at OPERATOR(pg_catalog.>) (pg_catalog.transaction_timestamp() OPERATOR(pg_catalog.+) '366 days'::interval)) THEN
    RAISE EXCEPTION 'observed_at % is outside the price data''s horizon',
          (SELECT n.observed_at FROM new_rows n
            WHERE n.observed_at OPERATOR(pg_catalog.<) '2010-01-01 00:00+00'::timestamptz
               OR n.observed_at OPERATOR(pg_catalog.>) (pg_catalog.transaction_timestamp() OPERATOR(pg_catalog.+) '366 days'::interval)
            ORDER BY n.observed_at LIMIT 1)
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'observed_at must be in [2010-01-01, now + 366 days]: cloud GPU rental began in November 2010, and no price is listed more than a year ahead.';
  END IF;
  INSERT INTO llm_econ.price_series AS s (sku, provider, pricing, region, instance_type)
  SELECT DISTINCT n.sku, n.provider, n.pricing, n.region, n.instance_type FROM new_rows n
  ON CONFLICT ON CONSTRAINT price_series_key DO UPDATE SET sku = EXCLUDED.sku WHERE false;
  RETURN NULL;
END $$;

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
  SELECT pg_catalog.array_agg(c.series_id) INTO ids
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

-- 0.4.0's storer takes the sightings too (seen): the renamed 0.3.0 one goes
DROP FUNCTION llm_econ._store_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text);
CREATE FUNCTION llm_econ._store_prices(obs_at timestamptz[], provider text[], sku text[], region text[],
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
                                               _store_prices.instance_type, gpus, _store_prices.seen)),
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
         (SELECT pg_catalog.array_agg(c.series_id ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND c.seen_to IS NOT NULL),
         (SELECT pg_catalog.array_agg(c.observed_at ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND c.seen_to IS NOT NULL),
         (SELECT pg_catalog.array_agg(c.seen_to ORDER BY c.series_id, c.observed_at) FROM changes c WHERE NOT c.is_new AND c.seen_to IS NOT NULL)
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

CREATE FUNCTION llm_econ._record_prices(obs_at timestamptz[], provider text[], sku text[], region text[],
                                        pricing text[], usd numeric[], instance_type text[], gpus int4[],
                                        source text, kind text, seen timestamptz[] DEFAULT NULL,
                                        OUT inserted bigint, OUT unchanged bigint, OUT withdrawn bigint)
AS 'MODULE_PATHNAME', 'le_record_prices_fn' LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE OR REPLACE FUNCTION llm_econ._skypilot_clouds() RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT ARRAY['aws', 'azure', 'cudo', 'do', 'fluidstack', 'gcp', 'hyperbolic', 'ibm', 'kubernetes',
                   'lambda', 'nebius', 'oci', 'paperspace', 'runpod', 'scp', 'vast', 'vsphere'];
END;

CREATE OR REPLACE FUNCTION llm_econ._source_kind() RETURNS text
AS 'MODULE_PATHNAME', 'le_source_kind_fn' LANGUAGE C STABLE PARALLEL RESTRICTED;

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

CREATE OR REPLACE FUNCTION llm_econ._today_utc() RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.date_trunc('day', pg_catalog.now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'; END;

CREATE OR REPLACE FUNCTION llm_econ._usd(v numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.round($1, GREATEST(pg_catalog.scale(pg_catalog.trim_scale(pg_catalog.round($1, 10))), 2)); END;

CREATE OR REPLACE FUNCTION llm_econ._usd_per_unit(currency text, at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN $1 IS NULL OR pg_catalog.upper($1) OPERATOR(pg_catalog.=) 'USD' THEN 1::numeric
              ELSE (SELECT f.usd_per_unit FROM llm_econ.fx_rate f
                     WHERE f.currency OPERATOR(pg_catalog.=) pg_catalog.upper($1) AND f.valid_from OPERATOR(pg_catalog.<=) $2
                     ORDER BY f.valid_from DESC LIMIT 1) END;
END;

-- import_focus takes a mode and says what it replaced (issue 32): its result type changes
DROP FUNCTION llm_econ.import_focus(text, text, text, text);
CREATE FUNCTION llm_econ.import_focus(focus_csv text, tenant text DEFAULT NULL, source text DEFAULT NULL,
    delivery text DEFAULT NULL, mode text DEFAULT 'replace', OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(import_focus.tenant, CURRENT_USER);
BEGIN
  PERFORM llm_econ._focus_admit('import_focus', who, import_focus.mode, import_focus.delivery, false);
  IF focus_csv IS NULL THEN
    RAISE EXCEPTION 'focus_csv must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines, llm_econ_focus_seen, llm_econ_focus_keys;
  INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_lines(focus_csv, 'focus_csv');
  BEGIN
    SELECT s.inserted, s.skipped, s.replaced, s.replaced_billed_usd, s.replaced_effective_usd
      INTO inserted, skipped, replaced, replaced_billed_usd, replaced_effective_usd
      FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery, false, import_focus.mode) AS s;
  EXCEPTION WHEN unique_violation THEN
    -- a stored copy of a line in mode replace (_focus_store): stored again counting, which skips it
    SELECT s.inserted, s.skipped, s.replaced, s.replaced_billed_usd, s.replaced_effective_usd
      INTO inserted, skipped, replaced, replaced_billed_usd, replaced_effective_usd
      FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery, true, import_focus.mode) AS s;
  END;
END $$;

CREATE OR REPLACE FUNCTION llm_econ.load_price_history(source text DEFAULT 'price_history_staging', on_mismatch text DEFAULT 'error',
    OUT inserted bigint, OUT unchanged bigint, OUT skipped bigint, OUT withdrawn bigint)
LANGUAGE sql VOLATILE
BEGIN ATOMIC SELECT * FROM llm_econ._load_price_history($1, $2, false); END;

CREATE OR REPLACE FUNCTION llm_econ.price_twap(sku text, provider text, pricing text, during tstzrange,
                                    region text DEFAULT NULL, max_age interval DEFAULT NULL)
RETURNS numeric
LANGUAGE plpgsql STABLE PARALLEL SAFE COST 1000 SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RETURN (SELECT c.usd_per_gpu_hour FROM llm_econ.price_twap_coverage($1, $2, $3, $4, $5, $6) AS c);
END $$;

CREATE OR REPLACE FUNCTION llm_econ.tco_per_gpu_hour(sku text, years float8, utilization float8, usd_per_kwh numeric, pue float8)
RETURNS numeric
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key text;
  price_low numeric;
  price_high numeric;
  watts float8;
  purchase numeric;
  used_hours numeric;
  kw numeric;
BEGIN
  -- NaN compares above every number, so each upper bound also rejects it
  IF NOT (years OPERATOR(pg_catalog.>) 0 AND years OPERATOR(pg_catalog.<=) 20) THEN
    RAISE EXCEPTION 'years must be in (0, 20], got %', years USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (utilization OPERATOR(pg_catalog.>) 0 AND utilization OPERATOR(pg_catalog.<=) 1) THEN
    RAISE EXCEPTION 'utilization must be in (0, 1], got %', utilization USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (usd_per_kwh OPERATOR(pg_catalog.>=) 0 AND usd_per_kwh OPERATOR(pg_catalog.<) 'Infinity'::numeric) THEN
    RAISE EXCEPTION 'usd_per_kwh must be in [0, Infinity), got %', usd_per_kwh USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT (pue OPERATOR(pg_catalog.>=) 1 AND pue OPERATOR(pg_catalog.<=) 5) THEN
    RAISE EXCEPTION 'pue must be in [1, 5], got %', pue USING ERRCODE = 'invalid_parameter_value';
  END IF;
  key := llm_econ._sku_key(sku);
  SELECT g.list_price_usd_low, g.list_price_usd_high, g.tdp_watts
    INTO price_low, price_high, watts
    FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) key;
  IF price_low IS NULL AND price_high IS NULL THEN
    RAISE EXCEPTION 'sku "%" has no list price', key USING ERRCODE = 'invalid_parameter_value',
      HINT = 'Set list_price_usd_low and list_price_usd_high in llm_econ.gpu_sku.';
  END IF;
  -- purchase price: the midpoint of the quoted range (the one end given when only one is)
  purchase := (coalesce(price_low, price_high) OPERATOR(pg_catalog.+) coalesce(price_high, price_low))
              OPERATOR(pg_catalog./) 2;
  -- hours it is used: years · 8766 h (365.25 days, as extract(epoch) counts a year) · utilization
  used_hours := (years::numeric OPERATOR(pg_catalog.*) 8766) OPERATOR(pg_catalog.*) utilization::numeric;
  -- a part whose power is not published (tdp_watts NULL) has no energy cost to add, unless energy is free
  IF watts IS NULL THEN
    IF usd_per_kwh OPERATOR(pg_catalog.=) 0 THEN
      RETURN purchase OPERATOR(pg_catalog./) used_hours;
    END IF;
    RETURN NULL;
  END IF;
  -- facility power per GPU: tdp_watts / 1000 · pue kW (board power at TDP, as energy_kwh counts it)
  kw := (watts::numeric OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) pue::numeric;
  RETURN (purchase OPERATOR(pg_catalog./) used_hours)
         OPERATOR(pg_catalog.+) (kw OPERATOR(pg_catalog.*) usd_per_kwh);
END $$;


REVOKE EXECUTE ON FUNCTION llm_econ._flag_suspect() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._flag_suspect() IS
  'trigger: marks a new catalog price suspect when its GPU count fits no known machine or its price is far from comparable prices (docs/prices.md)';
COMMENT ON FUNCTION llm_econ._focus_refusal(text, text, boolean, boolean) IS
  'internal: why the current role may not import FOCUS lines for a tenant, and the GRANT that would let it; NULL when it may';
COMMENT ON FUNCTION llm_econ._freeze_plan() IS
  'trigger: validates a plan and freezes its price, GPU-hours and USD; an UPDATE of what or where it runs re-prices it';
REVOKE EXECUTE ON FUNCTION llm_econ._import_lock() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._import_lock() IS
  'trigger: locks the import_lock rows of the providers an importer named (llm_econ.import_providers)';
COMMENT ON FUNCTION llm_econ._is_tenant_member(text) IS
  'internal: whether the current user is a member of the tenant role (false when no such role exists); the row-level security test';
COMMENT ON FUNCTION llm_econ._kind_allowed() IS
  'internal: true while the price recorder writes for the current role, or for a superuser';
COMMENT ON FUNCTION llm_econ._load_price_history(text, text, boolean) IS
  'internal: load_price_history with the install script''s quiet mode';
COMMENT ON FUNCTION llm_econ._lock_providers(text[]) IS
  'internal: serialises imports of these providers until the end of the transaction (needs INSERT on price_snapshot)';
COMMENT ON FUNCTION llm_econ._name_key(text) IS
  'internal: a name as compared: lower case, without spaces, hyphens and underscores';
COMMENT ON FUNCTION llm_econ._price_changes(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], timestamptz[]) IS
  'internal: annotates candidate observations: fresh (a change to store), conflict, seen_to (latest sighting)';
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_maintain() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_maintain() IS
  'trigger: keeps price_daily_summary current for the (sku, provider, pricing) groups of inserted, updated or deleted price_snapshot rows';
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_refresh() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_refresh() IS
  'internal: recomputes price_daily_summary for the groups marked dirty and clears the marks; the caller holds their rows locked';
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_add() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_add() IS 'trigger: refuses observations outside [2010-01-01, now + 366 days] (22023), then registers the series of new or changed price_snapshot rows in price_series';
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';
COMMENT ON FUNCTION llm_econ._store_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text, timestamptz[]) IS
  'internal: stores candidate observations as change points (NULL price = withdrawn), as the caller; returns the prices listed again unchanged, for _record_prices';
COMMENT ON FUNCTION llm_econ._record_prices(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], text, text, timestamptz[]) IS
  'internal: _store_prices as the caller, its rows labelled source_kind kind (catalog, history), and the prices seen again marked';
COMMENT ON FUNCTION llm_econ._skypilot_clouds() IS 'internal: the cloud names import_skypilot_catalog accepts';
COMMENT ON FUNCTION llm_econ._source_kind() IS
  'internal: default of price_snapshot.source_kind: the recorder''s kind (catalog, history) for the rows it writes, else manual';
COMMENT ON FUNCTION llm_econ._staged_history() IS 'internal: the rows the current role staged in price_history_staging, typed, with line numbers and SKUs';
COMMENT ON FUNCTION llm_econ._today_utc() IS 'internal: midnight UTC of the current day';
COMMENT ON FUNCTION llm_econ._usd(numeric) IS 'internal: a USD amount rounded to 10 decimals, shown with at least 2';
COMMENT ON FUNCTION llm_econ._usd_per_unit(text, timestamptz) IS
  'internal: USD per unit of a currency (any case) at an instant: 1 for USD or none, else the fx_rate in effect, or NULL';
COMMENT ON FUNCTION llm_econ.import_focus(text, text, text, text, text) IS
  'imports a FOCUS 1.0-1.3 CSV into spend for tenant (default: the current role), all or nothing; mode replace (default) or append (docs/finance.md)';
COMMENT ON FUNCTION llm_econ.load_price_history(text, text) IS
  'loads the rows the current role staged in price_history_staging as change points, then removes them; all or nothing (docs/prices.md)';
COMMENT ON FUNCTION llm_econ.price_twap(text, text, text, tstzrange, text, interval) IS
  'time-weighted average $/GPU-hour of the cheapest series in effect over the period (region NULL = any); NULL when nothing was in effect';
COMMENT ON FUNCTION llm_econ.tco_per_gpu_hour(text, float8, float8, numeric, float8) IS
  'cost of owning one GPU per used GPU-hour, USD: list-price midpoint / (years · 8766 h · utilization) + energy; the GPU alone (docs/functions.md)';

-- the source_kind check moves out of the SECURITY DEFINER series trigger, to see the inserting role
-- A kind other than manual comes from the recorder (or a superuser's load, as the install's);
-- a plain INSERT naming one is refused, so source_kind says which path wrote a row.  Not
-- SECURITY DEFINER: it must see the role that inserts (src/provenance.c).
CREATE FUNCTION llm_econ._price_kind_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT llm_econ._kind_allowed()
     AND EXISTS (SELECT 1 FROM new_rows n WHERE n.source_kind OPERATOR(pg_catalog.<>) 'manual') THEN
    RAISE EXCEPTION 'source_kind must be manual for a price entered by hand'
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'catalog and history are set by import_skypilot_catalog and load_price_history for the rows they write.';
  END IF;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_kind_guard() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_kind_guard() IS
  'trigger: refuses price rows of a source_kind other than manual unless the price recorder or a superuser wrote them (42501)';

CREATE TRIGGER price_snapshot_kind_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_kind_guard();
