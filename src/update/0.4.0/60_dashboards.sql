-- 60_dashboards.sql: spot_discount_daily.discount computed as 1 - spot / on-demand (0.3.0 computed (1 - spot) / on-demand; issue 31).

-- OPERATOR(...) binds every operator at one precedence, left to right, so 0.3.0's
-- 1 OPERATOR(pg_catalog.-) spot OPERATOR(pg_catalog./) od was (1 - spot) / od: every provider
-- showed a negative discount.  Same definition as a fresh install (src/sql/dashboards.sql);
-- CREATE OR REPLACE keeps the view's comments, grants and dependants.
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
