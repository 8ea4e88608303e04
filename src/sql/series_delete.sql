-- price_series pruning (0.2.0): a series whose last observation is deleted leaves price_series.

-- SECURITY DEFINER (with a fixed search_path), like the insert trigger: writers need no grant
-- on the derived table.
CREATE FUNCTION llm_econ._price_series_prune() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  -- equality on coalesced keys (CHECKs forbid ''), so the join can hash
  DELETE FROM llm_econ.price_series s
   USING (SELECT DISTINCT o.sku, o.provider, o.pricing, coalesce(o.region, '') AS region,
                 coalesce(o.instance_type, '') AS instance_type FROM old_rows o) AS gone
   WHERE s.sku = gone.sku AND s.provider = gone.provider AND s.pricing = gone.pricing
     AND coalesce(s.region, '') = gone.region AND coalesce(s.instance_type, '') = gone.instance_type
     AND NOT EXISTS (SELECT 1 FROM llm_econ.price_snapshot p
                      WHERE p.sku = s.sku AND p.provider = s.provider AND p.pricing = s.pricing
                        AND coalesce(p.region, '') = coalesce(s.region, '')
                        AND coalesce(p.instance_type, '') = coalesce(s.instance_type, ''));
  RETURN NULL;
END $$;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';

CREATE TRIGGER price_snapshot_series_del AFTER DELETE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE TRIGGER price_snapshot_series_upd_old AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
