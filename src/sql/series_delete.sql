-- price_series pruning (0.2.0): a series whose last observation is deleted leaves price_series.

-- SECURITY DEFINER (with a fixed search_path), like the insert trigger: writers need no grant
-- on the derived table; EXECUTE revoked from PUBLIC; it runs only as a trigger of price_snapshot.
-- Race-free against a concurrent insert into the same series: first lock the candidate series
-- rows (an inserting transaction holds them locked until it ends: _price_series_add), then, in
-- a new statement and so with a new snapshot, delete those still without observations.
CREATE FUNCTION llm_econ._price_series_prune() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  skus text[];
  providers text[];
  pricings text[];
  regions text[];
  itypes text[];
BEGIN
  IF TG_RELID OPERATOR(pg_catalog.<>) 'llm_econ.price_snapshot'::regclass OR TG_LEVEL <> 'STATEMENT'
     OR TG_WHEN <> 'AFTER' OR TG_OP NOT IN ('DELETE', 'UPDATE') THEN
    RAISE EXCEPTION 'llm_econ._price_series_prune() fires only as an AFTER statement trigger of llm_econ.price_snapshot'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- 1. lock the candidate series, keeping their keys.  Equality on coalesced keys (CHECKs forbid
  --    ''), so the joins can hash.  An UPDATE can empty only the series of rows it moved to
  --    another series: the rows whose id now holds the same series (as after the suspect flag's
  --    UPDATE) are left out, with one primary-key probe each.
  SELECT array_agg(c.sku), array_agg(c.provider), array_agg(c.pricing), array_agg(c.region), array_agg(c.instance_type)
    INTO skus, providers, pricings, regions, itypes
    FROM (SELECT s.sku, s.provider, s.pricing, coalesce(s.region, '') AS region, coalesce(s.instance_type, '') AS instance_type
            FROM llm_econ.price_series s
            JOIN (SELECT DISTINCT o.sku, o.provider, o.pricing, coalesce(o.region, '') AS region,
                         coalesce(o.instance_type, '') AS instance_type FROM old_rows o
                   WHERE TG_OP = 'DELETE'
                      OR NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p
                                      WHERE p.id = o.id AND p.sku = o.sku AND p.provider = o.provider AND p.pricing = o.pricing
                                        AND p.region IS NOT DISTINCT FROM o.region
                                        AND p.instance_type IS NOT DISTINCT FROM o.instance_type)) AS gone
              ON s.sku = gone.sku AND s.provider = gone.provider AND s.pricing = gone.pricing
             AND coalesce(s.region, '') = gone.region AND coalesce(s.instance_type, '') = gone.instance_type
           ORDER BY s.sku, s.provider, s.pricing, s.region, s.instance_type
             FOR UPDATE OF s) AS c;
  IF skus IS NULL THEN
    RETURN NULL;
  END IF;
  -- 2. in a new statement (a new snapshot), delete those still without observations
  DELETE FROM llm_econ.price_series s
   USING unnest(skus, providers, pricings, regions, itypes) AS gone(sku, provider, pricing, region, instance_type)
   WHERE s.sku = gone.sku AND s.provider = gone.provider AND s.pricing = gone.pricing
     AND coalesce(s.region, '') = gone.region AND coalesce(s.instance_type, '') = gone.instance_type
     AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p
                      WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                        AND coalesce(p.region, '') = coalesce(s.region, '')
                        AND coalesce(p.instance_type, '') = coalesce(s.instance_type, ''));
  RETURN NULL;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';

CREATE TRIGGER price_snapshot_series_del AFTER DELETE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE TRIGGER price_snapshot_series_upd_old AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
