-- price_series pruning (0.2.0): a series whose last observation is deleted leaves price_series.

-- SECURITY DEFINER (with a fixed search_path), like the insert trigger: writers need no grant
-- on the derived table; EXECUTE revoked from PUBLIC; it runs only as a trigger of price_snapshot.
-- Race-free against a concurrent insert into the same series: first lock the candidate series
-- rows (an inserting transaction holds them locked until it ends: _price_series_add), then, in
-- a new statement and so with a new snapshot, delete those still without observations.
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
  -- the price recorder's _mark_seen moves last_seen_at alone, on which nothing here depends
  IF TG_OP = 'UPDATE' AND llm_econ._marking_seen() THEN
    RETURN NULL;
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
REVOKE EXECUTE ON FUNCTION llm_econ._price_series_prune() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._price_series_prune() IS 'trigger: removes from price_series the series left without observations by a delete or an update of price_snapshot';

CREATE OR REPLACE TRIGGER price_snapshot_series_del AFTER DELETE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
CREATE OR REPLACE TRIGGER price_snapshot_series_upd_old AFTER UPDATE ON llm_econ.price_snapshot
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION llm_econ._price_series_prune();
