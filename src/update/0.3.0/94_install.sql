-- 94_install.sql: CREATE EXTENSION under 0.3 s (issue 18): the daily summary's rebuild spreads each price over the days its group's prices change, not over every day it holds (the same rows, several times faster); the install script COPYs the GCP history's change points instead of running the loader (nothing to update: an existing install already has those rows).

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
  SELECT array_agg(gr.sku ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(gr.provider ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(gr.pricing ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(least(gr.dirty_since, (gr.last_day AT TIME ZONE 'UTC' + interval '1 day') AT TIME ZONE 'UTC')
                   ORDER BY gr.sku, gr.provider, gr.pricing),
         array_agg(gr.last_day IS NULL ORDER BY gr.sku, gr.provider, gr.pricing)
    INTO skus, providers, pricings, since, fresh
    FROM llm_econ.price_daily_group gr WHERE gr.dirty_since IS NOT NULL;
  IF skus IS NULL THEN
    RETURN;
  END IF;
  UPDATE llm_econ.price_daily_group gr SET dirty_since = NULL WHERE gr.dirty_since IS NOT NULL;
  DELETE FROM llm_econ.price_daily_summary d
   USING unnest(skus, providers, pricings, since) AS g(sku, provider, pricing, since)
   WHERE d.sku = g.sku AND d.provider = g.provider AND d.pricing = g.pricing AND d."time" >= g.since;
  WITH g AS (
         SELECT * FROM unnest(skus, providers, pricings, since, fresh) AS g(sku, provider, pricing, since, fresh)),
       obs AS (
         SELECT s.sku, s.provider, s.pricing, s.region, s.instance_type, g.since, o.observed_at, o.usd
           FROM g JOIN llm_econ.price_series s
             ON s.sku = g.sku AND s.provider = g.provider AND s.pricing = g.pricing AND NOT g.fresh
          CROSS JOIN LATERAL (
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                    AND coalesce(p.region, '') = coalesce(s.region, '')
                    AND coalesce(p.instance_type, '') = coalesce(s.instance_type, '')
                    AND p.observed_at < g.since
                  ORDER BY p.observed_at DESC LIMIT 1)
                UNION ALL
                (SELECT p.observed_at, p.usd_per_gpu_hour FROM llm_econ.price_snapshot p
                  WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                    AND coalesce(p.region, '') = coalesce(s.region, '')
                    AND coalesce(p.instance_type, '') = coalesce(s.instance_type, '')
                    AND p.observed_at >= g.since)) AS o(observed_at, usd)
         UNION ALL
         -- a group new to the summary (no last day yet) had no observation before this statement,
         -- so all of its observations count: one index range scan instead of two probes per series
         SELECT o.sku, o.provider, o.pricing, o.region, o.instance_type, g.since, o.observed_at, o.usd_per_gpu_hour
           FROM g CROSS JOIN LATERAL (
                SELECT p.sku, p.provider, p.pricing, p.region, p.instance_type, p.observed_at, p.usd_per_gpu_hour
                  FROM llm_econ.price_snapshot p
                 WHERE p.sku = g.sku AND p.provider = g.provider AND p.pricing = g.pricing
                OFFSET 0) AS o   -- kept a per-group index scan (a join could scan the whole history)
          WHERE g.fresh),
       spans AS (   -- UTC days [f, t) at whose end each observation is in effect (t NULL: to the last
                    -- day), within the days the summary keeps: 2000-01-01 to 2100-01-01
         SELECT obs.sku, obs.provider, obs.pricing, obs.usd,
                least(greatest(date_trunc('day', obs.observed_at AT TIME ZONE 'UTC'), obs.since AT TIME ZONE 'UTC',
                               timestamp '2000-01-01'), timestamp '2100-01-01') AS f,
                CASE WHEN lead(obs.observed_at) OVER w IS NOT NULL
                     THEN least(greatest(date_trunc('day', lead(obs.observed_at) OVER w AT TIME ZONE 'UTC'),
                                         timestamp '2000-01-01'), timestamp '2100-01-01') END AS t
           FROM obs
         WINDOW w AS (PARTITION BY obs.sku, obs.provider, obs.pricing, obs.region, obs.instance_type
                      ORDER BY obs.observed_at)),
       changes AS (  -- the days a group's prices can change, numbered, each with the group's next such day
         SELECT c.sku, c.provider, c.pricing, c.day, row_number() OVER w AS n, lead(c.day) OVER w AS next,
                count(*) OVER (PARTITION BY c.sku, c.provider, c.pricing) AS last_n
           FROM (SELECT DISTINCT spans.sku, spans.provider, spans.pricing, spans.f AS day FROM spans) c
         WINDOW w AS (PARTITION BY c.sku, c.provider, c.pricing ORDER BY c.day)),
       last AS (
         SELECT obs.sku, obs.provider, obs.pricing,
                least(greatest(date_trunc('day', max(obs.observed_at) AT TIME ZONE 'UTC'), timestamp '2000-01-01'),
                      timestamp '2100-01-01') AS day
           FROM obs GROUP BY 1, 2, 3),
       state AS (    -- the group's prices at the end of each such day: the same until the next one.
                     -- A priced span covers the change days from its own (f is one) up to the one
                     -- of the series' next observation (t is one) or, without one, the last: by
                     -- their numbers, so it is spread over the change days only, not every day.
         SELECT c.sku, c.provider, c.pricing, c.day, c.next, x.offers, x.min_usd, x.median_usd, x.max_usd, x.sum_usd
           FROM (SELECT s.sku, s.provider, s.pricing, k.n, count(*) AS offers, min(s.usd) AS min_usd,
                        (percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd)
                         + percentile_disc(0.5) WITHIN GROUP (ORDER BY s.usd DESC)) * 0.5 AS median_usd,
                        max(s.usd) AS max_usd, sum(s.usd) AS sum_usd
                   FROM spans s
                   JOIN changes cf ON cf.sku = s.sku AND cf.provider = s.provider AND cf.pricing = s.pricing AND cf.day = s.f
                   LEFT JOIN changes ct ON ct.sku = s.sku AND ct.provider = s.provider AND ct.pricing = s.pricing AND ct.day = s.t
                  CROSS JOIN LATERAL generate_series(cf.n, coalesce(ct.n - 1, cf.last_n)) AS k(n)
                  WHERE s.usd IS NOT NULL
                  GROUP BY s.sku, s.provider, s.pricing, k.n) x
           JOIN changes c ON c.sku = x.sku AND c.provider = x.provider AND c.pricing = x.pricing AND c.n = x.n),
       new_last AS (  -- each group's last observation day (NULL: none left)
         UPDATE llm_econ.price_daily_group gr SET last_day = l.day AT TIME ZONE 'UTC'
           FROM unnest(skus, providers, pricings) AS g(sku, provider, pricing)
           LEFT JOIN last l ON l.sku = g.sku AND l.provider = g.provider AND l.pricing = g.pricing
          WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)
  INSERT INTO llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd)
  SELECT d.day AT TIME ZONE 'UTC', st.sku, st.provider, st.pricing, st.offers, st.min_usd, st.median_usd,
         st.max_usd, st.sum_usd
    FROM state st
    JOIN last l ON l.sku = st.sku AND l.provider = st.provider AND l.pricing = st.pricing
   CROSS JOIN LATERAL generate_series(st.day, coalesce(st.next - interval '1 day', l.day), interval '1 day') AS d(day);
  -- groups left without observations are dropped
  DELETE FROM llm_econ.price_daily_group gr
   USING unnest(skus, providers, pricings) AS g(sku, provider, pricing)
   WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing AND gr.last_day IS NULL;
  -- a delete can move a group's last day back before "since": the rows after it go (the views
  -- repeat the last row instead)
  DELETE FROM llm_econ.price_daily_summary d
   USING unnest(skus, providers, pricings) AS g(sku, provider, pricing)
    JOIN llm_econ.price_daily_group gr
      ON gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing
   WHERE d.sku = gr.sku AND d.provider = gr.provider AND d.pricing = gr.pricing AND d."time" > gr.last_day;
  DELETE FROM llm_econ.price_daily_summary d
   USING (SELECT g.sku, g.provider, g.pricing FROM unnest(skus, providers, pricings) AS g(sku, provider, pricing)
           WHERE NOT EXISTS (SELECT 1 FROM llm_econ.price_daily_group gr
                              WHERE gr.sku = g.sku AND gr.provider = g.provider AND gr.pricing = g.pricing)) AS gone
   WHERE d.sku = gone.sku AND d.provider = gone.provider AND d.pricing = gone.pricing;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_daily_refresh() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_daily_refresh() IS
  'internal: recomputes price_daily_summary of the price_daily_group rows marked dirty (from dirty_since on) and clears the marks; the caller holds those rows locked';

