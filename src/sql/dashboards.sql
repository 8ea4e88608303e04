-- Dashboard data: a daily price summary kept up to date by triggers, and the views dashboards read (0.3.0).
-- Its primary key (sku, provider, pricing, "time") and index on "time" are built after the
-- shipped rows load (the end of this file): 14 ms less than maintaining them row by row.
COMMENT ON TABLE llm_econ.price_daily_summary IS
  'derived: per UTC day and (sku, provider, pricing), the prices of the series in effect at the end of the day; maintained by trigger';
COMMENT ON COLUMN llm_econ.price_daily_summary."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily_summary.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_summary.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_summary.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_summary.offers IS 'series (region, instance type) with a price in effect at the end of the day';
COMMENT ON COLUMN llm_econ.price_daily_summary.min_usd IS 'cheapest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.median_usd IS 'their median (mean of the two middle prices when even), $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.max_usd IS 'dearest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ.price_daily_summary.sum_usd IS 'sum of their prices (for means over providers)';
COMMENT ON TABLE llm_econ.price_daily_group IS
  'derived: the (sku, provider, pricing) groups of price_snapshot with the day of their last observation; writers lock a group''s row while they update its summary';
COMMENT ON COLUMN llm_econ.price_daily_group.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_group.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_group.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_group.last_day IS 'midnight UTC of the day of the group''s last observation (its last summary day)';
COMMENT ON COLUMN llm_econ.price_daily_group.dirty_since IS 'set by a writer (holding the row locked) to the first day to recompute; NULL again when its statement ends';

-- Recomputes the summary of each group marked dirty from the day "since" (midnight UTC) onwards,
-- and the group's last_day; the caller holds the groups' rows locked.  Days before "since" depend
-- only on observations before it and are kept.  Per series: one backward index probe for the
-- price in effect at "since", then its observations from there on, so an import appended at
-- the end of the history recomputes only its last days.
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
                                 WHERE i.provider = s.provider AND pg_catalog.lower(i.instance_type COLLATE pg_catalog."C") = pg_catalog.lower(s.instance_type COLLATE pg_catalog."C")
                                   AND i.gpus < 1::numeric)
          CROSS JOIN LATERAL (
                -- a price the import flagged suspect counts nowhere, as in price_at
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.observed_at < g.since AND NOT g.fresh AND p.suspect IS NULL
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                -- a group new to the summary (no last day yet) had no observation before this
                -- statement, so all of its observations count
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.series_id = s.series_id AND p.suspect IS NULL
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
-- SECURITY INVOKER: only a role that may write the summary (its owner) can run it usefully;
-- EXECUTE is the owner's too (the maintenance trigger runs it with the owner's rights).
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_refresh() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_refresh() IS
  'internal: recomputes price_daily_summary for the groups marked dirty and clears the marks; the caller holds their rows locked';

-- Statement trigger of price_snapshot (insert, update, delete): the groups the changed rows
-- belong to are locked in key order, then refreshed from the earliest changed day.  The lock
-- is an UPDATE of the group row, so a concurrent writer of the same group waits until this
-- transaction ends and then (READ COMMITTED: each statement of this function takes a new
-- snapshot) sees its rows, or (REPEATABLE READ and above) fails with a serialization error
-- rather than write a summary from a stale snapshot.  SECURITY DEFINER with a fixed
-- search_path, like the price_series triggers: writers need no grant on the derived tables;
-- EXECUTE revoked from PUBLIC; it refuses to run as anything but those triggers.  It fires after
-- the price_series triggers (trigger names sort price_snapshot_series_* < price_snapshot_summary_*).
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
  -- the price recorder's _mark_seen moves last_seen_at alone, on which nothing here depends
  IF TG_OP = 'UPDATE' AND llm_econ._marking_seen() THEN
    RETURN NULL;
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
              -- rows whose series, instant, price and suspect flag the update left as they were
              -- change no summary row (a suspect price counts in none)
              FROM (SELECT n.sku, n.provider, n.pricing, n.observed_at FROM new_rows n
                     WHERE NOT EXISTS (SELECT 1 FROM old_rows o
                                        WHERE o.id = n.id AND o.sku = n.sku AND o.provider = n.provider AND o.pricing = n.pricing
                                         AND o.region IS NOT DISTINCT FROM n.region
                                         AND o.instance_type IS NOT DISTINCT FROM n.instance_type
                                         AND o.observed_at = n.observed_at
                                         AND o.usd_per_gpu_hour::text IS NOT DISTINCT FROM n.usd_per_gpu_hour::text
                                         AND o.suspect IS NOT DISTINCT FROM n.suspect)
                    UNION ALL
                    SELECT o.sku, o.provider, o.pricing, o.observed_at FROM old_rows o
                     WHERE NOT EXISTS (SELECT 1 FROM new_rows n
                                        WHERE n.id = o.id AND o.sku = n.sku AND o.provider = n.provider AND o.pricing = n.pricing
                                         AND o.region IS NOT DISTINCT FROM n.region
                                         AND o.instance_type IS NOT DISTINCT FROM n.instance_type
                                         AND o.observed_at = n.observed_at
                                         AND o.usd_per_gpu_hour::text IS NOT DISTINCT FROM n.usd_per_gpu_hour::text
                                         AND o.suspect IS NOT DISTINCT FROM n.suspect)) r
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
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_maintain() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_maintain() IS
  'trigger: keeps price_daily_summary current for the (sku, provider, pricing) groups of inserted, updated or deleted price_snapshot rows';

-- TRUNCATE of price_snapshot empties the derived tables with it.
CREATE OR REPLACE FUNCTION llm_econ._price_daily_truncate() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP <> 'TRUNCATE' THEN
    RAISE EXCEPTION 'llm_econ._price_daily_truncate() fires only as the AFTER TRUNCATE trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  TRUNCATE llm_econ.price_daily_summary, llm_econ.price_daily_group;
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_truncate() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_truncate() IS
  'trigger: empties price_daily_summary and price_daily_group when price_snapshot is truncated';

CREATE OR REPLACE TRIGGER price_snapshot_summary_ins AFTER INSERT ON llm_econ.price_snapshot
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE OR REPLACE TRIGGER price_snapshot_summary_upd AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE OR REPLACE TRIGGER price_snapshot_summary_del AFTER DELETE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_maintain();
CREATE OR REPLACE TRIGGER price_snapshot_summary_trunc AFTER TRUNCATE ON llm_econ.price_snapshot
    FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_daily_truncate();

-- Midnight UTC today: the first day that has not ended.  Inlined (plain SQL), so a comparison
-- with it is an index condition.
CREATE OR REPLACE FUNCTION llm_econ._today_utc() RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC SELECT pg_catalog.date_trunc('day', pg_catalog.now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'; END;
COMMENT ON FUNCTION llm_econ._today_utc() IS 'internal: midnight UTC of the current day';

-- Every ended day: the stored rows, then each group's last row repeated up to yesterday.
-- Unrounded; the views below round for display.
CREATE OR REPLACE VIEW llm_econ._price_daily_all WITH (security_invoker = true) AS
  SELECT d."time", d.sku, d.provider, d.pricing, d.offers, d.min_usd, d.median_usd, d.max_usd, d.sum_usd
    FROM llm_econ.price_daily_summary d
   WHERE d."time" OPERATOR(pg_catalog.<) llm_econ._today_utc()
  UNION ALL
  SELECT t.day AT TIME ZONE 'UTC', d.sku, d.provider, d.pricing, d.offers, d.min_usd, d.median_usd, d.max_usd, d.sum_usd
    FROM llm_econ.price_daily_group g
    JOIN llm_econ.price_daily_summary d
      ON d.sku OPERATOR(pg_catalog.=) g.sku AND d.provider OPERATOR(pg_catalog.=) g.provider
     AND d.pricing OPERATOR(pg_catalog.=) g.pricing AND d."time" OPERATOR(pg_catalog.=) g.last_day
   CROSS JOIN LATERAL pg_catalog.generate_series((g.last_day AT TIME ZONE 'UTC') OPERATOR(pg_catalog.+) interval '1 day',
                                                 (llm_econ._today_utc() AT TIME ZONE 'UTC') OPERATOR(pg_catalog.-) interval '1 day',
                                                 interval '1 day') AS t(day);
COMMENT ON VIEW llm_econ._price_daily_all IS
  'internal: every ended UTC day of every (sku, provider, pricing) group with a price in effect at its end, unrounded';
COMMENT ON COLUMN llm_econ._price_daily_all."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ._price_daily_all.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ._price_daily_all.provider IS 'provider';
COMMENT ON COLUMN llm_econ._price_daily_all.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ._price_daily_all.offers IS 'series in effect at the end of the day';
COMMENT ON COLUMN llm_econ._price_daily_all.min_usd IS 'cheapest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ._price_daily_all.median_usd IS 'their median, $/GPU-hour';
COMMENT ON COLUMN llm_econ._price_daily_all.max_usd IS 'dearest of them, $/GPU-hour';
COMMENT ON COLUMN llm_econ._price_daily_all.sum_usd IS 'sum of their prices';

CREATE OR REPLACE VIEW llm_econ.price_daily_by_provider WITH (security_invoker = true) AS
  SELECT a."time", a.sku, a.provider, a.pricing,
         pg_catalog.round(a.min_usd, 4) AS min_usd_per_gpu_hour,
         pg_catalog.round(a.median_usd, 4) AS median_usd_per_gpu_hour,
         a.offers
    FROM llm_econ._price_daily_all a;
COMMENT ON VIEW llm_econ.price_daily_by_provider IS
  'per ended UTC day, SKU, provider and pricing: cheapest and median $/GPU-hour, and how many series';
COMMENT ON COLUMN llm_econ.price_daily_by_provider."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.min_usd_per_gpu_hour IS 'cheapest series, $/GPU-hour, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.median_usd_per_gpu_hour IS 'median over the series, $/GPU-hour, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.price_daily_by_provider.offers IS 'series in effect (offers)';

-- Per UTC day: the prices in effect at the end of the day over every series of a SKU and
-- pricing (0.1.0's view, now read from the summary: same rows, same values).
CREATE OR REPLACE VIEW llm_econ.price_daily WITH (security_invoker = true) AS
  SELECT a."time", a.sku, a.pricing,
         pg_catalog.min(a.min_usd) AS min_usd_per_gpu_hour,
         pg_catalog.round(pg_catalog.sum(a.sum_usd) OPERATOR(pg_catalog./) pg_catalog.sum(a.offers), 6) AS avg_usd_per_gpu_hour,
         pg_catalog.max(a.max_usd) AS max_usd_per_gpu_hour,
         pg_catalog.count(a.provider) AS providers,
         pg_catalog.string_agg(a.provider, ', ' ORDER BY a.provider) AS provider_list
    FROM llm_econ._price_daily_all a
   GROUP BY a."time", a.sku, a.pricing;
COMMENT ON VIEW llm_econ.price_daily IS
  'per UTC day, SKU and pricing: min/avg/max $/GPU-hour over every series (provider, region, instance type) in effect at the end of the day';
COMMENT ON COLUMN llm_econ.price_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.price_daily.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_daily.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_daily.min_usd_per_gpu_hour IS 'cheapest series';
COMMENT ON COLUMN llm_econ.price_daily.avg_usd_per_gpu_hour IS 'unweighted mean over the series';
COMMENT ON COLUMN llm_econ.price_daily.max_usd_per_gpu_hour IS 'dearest series';
COMMENT ON COLUMN llm_econ.price_daily.providers IS 'number of providers with a price in effect';
COMMENT ON COLUMN llm_econ.price_daily.provider_list IS 'those providers, comma-separated';

GRANT SELECT ON llm_econ.price_daily TO PUBLIC;

-- Each observation's span: from it until the series' next observation (NULL: still in effect).
-- Withdrawals (NULL prices) end a span and start none.  Series first, then each one's
-- observations in time order (one index range scan by series_id), so a filter on sku, provider,
-- pricing, region or instance type reads only those series' observations.
CREATE OR REPLACE VIEW llm_econ.price_series_spans WITH (security_invoker = true) AS
  SELECT o.observed_at AS "time", s.sku, s.provider, s.region, s.instance_type, s.pricing,
         o.observed_at AS valid_from, o.valid_to, o.usd_per_gpu_hour, o.last_seen_at
    FROM llm_econ.price_series s
   CROSS JOIN LATERAL (
         SELECT p.observed_at, pg_catalog.lead(p.observed_at) OVER (ORDER BY p.observed_at) AS valid_to,
                p.usd_per_gpu_hour, coalesce(p.last_seen_at, p.observed_at) AS last_seen_at
           FROM llm_econ.price_snapshot p
          WHERE p.series_id OPERATOR(pg_catalog.=) s.series_id AND p.suspect IS NULL) AS o
   WHERE o.usd_per_gpu_hour IS NOT NULL;
COMMENT ON VIEW llm_econ.price_series_spans IS
  'one row per price in effect: a series'' observation, from valid_from until the series'' next observation (valid_to NULL = still in effect)';
COMMENT ON COLUMN llm_econ.price_series_spans."time" IS 'valid_from, for dashboards';
COMMENT ON COLUMN llm_econ.price_series_spans.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.price_series_spans.provider IS 'provider';
COMMENT ON COLUMN llm_econ.price_series_spans.region IS 'region; NULL = provider-wide';
COMMENT ON COLUMN llm_econ.price_series_spans.instance_type IS 'machine type; NULL = not given';
COMMENT ON COLUMN llm_econ.price_series_spans.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.price_series_spans.valid_from IS 'when the price was observed';
COMMENT ON COLUMN llm_econ.price_series_spans.valid_to IS 'the series'' next observation (a new price or a withdrawal); NULL = still in effect';
COMMENT ON COLUMN llm_econ.price_series_spans.usd_per_gpu_hour IS 'USD per GPU-hour';
COMMENT ON COLUMN llm_econ.price_series_spans.last_seen_at IS
  'the last time a source listed the price unchanged; price_at''s max_age counts from it';

-- Per month: each provider's time-weighted price at day resolution (each ended day counts with
-- the provider's cheapest series in effect at its end; days with none are left out), ranked.
CREATE OR REPLACE VIEW llm_econ.cheapest_provider_monthly WITH (security_invoker = true) AS
  SELECT m."time", m.sku, m.pricing, m.provider,
         pg_catalog.round(m.usd, 4) AS usd_per_gpu_hour,
         pg_catalog.rank() OVER (PARTITION BY m."time", m.sku, m.pricing ORDER BY m.usd) AS rank
    FROM (SELECT pg_catalog.date_trunc('month', a."time" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS "time",
                 a.sku, a.pricing, a.provider, pg_catalog.avg(a.min_usd) AS usd
            FROM llm_econ._price_daily_all a
           GROUP BY 1, 2, 3, 4) m;
COMMENT ON VIEW llm_econ.cheapest_provider_monthly IS
  'per UTC month, SKU and pricing: each provider''s time-weighted $/GPU-hour (of its cheapest series each day) and its rank, 1 = cheapest';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly."time" IS 'the month (its first midnight UTC)';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.provider IS 'provider';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.usd_per_gpu_hour IS 'time-weighted $/GPU-hour over the days of the month it had a price, rounded to 4 decimals';
COMMENT ON COLUMN llm_econ.cheapest_provider_monthly.rank IS '1 = cheapest provider of the month (ties share a rank)';

-- Spot discount of each provider: its spot price against its own on-demand price, same SKU
-- and day (cheapest series of each): discount = 1 - spot / on-demand, the fraction of the
-- on-demand price spot saves.  OPERATOR(...) binds every operator at one precedence, left to
-- right: the division needs its parentheses (0.3.0 computed (1 - spot) / on-demand).
CREATE OR REPLACE VIEW llm_econ.spot_discount_daily WITH (security_invoker = true) AS
  SELECT b."time", b.sku, b.provider,
         pg_catalog.round(b.od, 4) AS on_demand_usd_per_gpu_hour,
         pg_catalog.round(b.spot, 4) AS spot_usd_per_gpu_hour,
         pg_catalog.round(1 OPERATOR(pg_catalog.-) (b.spot OPERATOR(pg_catalog./) b.od), 4) AS discount
    FROM (SELECT a."time", a.sku, a.provider,
                 pg_catalog.min(a.min_usd) FILTER (WHERE a.pricing OPERATOR(pg_catalog.=) 'on_demand') AS od,
                 pg_catalog.min(a.min_usd) FILTER (WHERE a.pricing OPERATOR(pg_catalog.=) 'spot') AS spot
            FROM llm_econ._price_daily_all a
           GROUP BY a."time", a.sku, a.provider) b
   WHERE b.od IS NOT NULL AND b.spot IS NOT NULL;
COMMENT ON VIEW llm_econ.spot_discount_daily IS
  'per ended UTC day, SKU and provider with both prices: the provider''s cheapest spot price against its own cheapest on-demand price';
COMMENT ON COLUMN llm_econ.spot_discount_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spot_discount_daily.sku IS 'gpu_sku key';
COMMENT ON COLUMN llm_econ.spot_discount_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spot_discount_daily.on_demand_usd_per_gpu_hour IS 'cheapest on-demand series, $/GPU-hour, 4 decimals';
COMMENT ON COLUMN llm_econ.spot_discount_daily.spot_usd_per_gpu_hour IS 'cheapest spot series, $/GPU-hour, 4 decimals';
COMMENT ON COLUMN llm_econ.spot_discount_daily.discount IS '1 - spot / on-demand (0.6 = spot costs 60% less), 4 decimals';

GRANT SELECT ON llm_econ._price_daily_all, llm_econ.price_daily_by_provider, llm_econ.price_series_spans,
                llm_econ.cheapest_provider_monthly, llm_econ.spot_discount_daily TO PUBLIC;
