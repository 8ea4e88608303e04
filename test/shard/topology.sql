-- test/shard/topology.sql: the coordinator side of the scale-out (psql script run by cluster.sh up): postgres_fdw servers for the shards, schema sharded with price_snapshot (LIST by provider) and spend (LIST by tenant) partitioned over foreign tables on the shards' llm_econ tables, and the sharded TWAP and plan-vs-actual.
--
-- psql variables: db, fdw_pw, s1_port, s2_port, s1_providers ('gcp','aws',...), s1_tenants ('team_pretrain',...).
-- Requires: CREATE EXTENSION llm_econ already run here (reference data, types and functions are on
-- every node; the coordinator's own llm_econ tables stay a plain single-node copy).
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

CREATE EXTENSION postgres_fdw;

-- extensions 'llm_econ': the IMMUTABLE functions, operators and types of llm_econ may be shipped
-- to the shards (the extension is installed there too); STABLE ones (run_spec, price_at, ...)
-- never are. async_capable: an Append over both shards runs their scans concurrently.
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw
  OPTIONS (host '127.0.0.1', port :'s1_port', dbname :'db', extensions 'llm_econ', async_capable 'true',
           fetch_size '10000', batch_size '1000', connect_timeout '5', application_name 'llm_econ_coordinator');
CREATE SERVER shard2 FOREIGN DATA WRAPPER postgres_fdw
  OPTIONS (host '127.0.0.1', port :'s2_port', dbname :'db', extensions 'llm_econ', async_capable 'true',
           fetch_size '10000', batch_size '1000', connect_timeout '5', application_name 'llm_econ_coordinator');

-- Every coordinator role reaches the shards as llm_econ_fdw (non-superuser, password over TCP,
-- BYPASSRLS): who may see what is decided here, by the grants and the tenant policy below.
CREATE USER MAPPING FOR PUBLIC SERVER shard1 OPTIONS (user 'llm_econ_fdw', password :'fdw_pw');
CREATE USER MAPPING FOR PUBLIC SERVER shard2 OPTIONS (user 'llm_econ_fdw', password :'fdw_pw');

CREATE SCHEMA sharded;
COMMENT ON SCHEMA sharded IS 'llm_econ price history and spend partitioned over the shards (postgres_fdw foreign partitions)';

-- Same columns (and defaults, and the generated series_id) as the extension's tables.  Ids of rows inserted here come from
-- coordinator sequences starting at 10^15, far above the shards' own sequences (shipped rows keep
-- their ids), so ids stay unique across shards; the natural keys (price: sku, provider, pricing,
-- region, instance_type, observed_at; spend: tenant, row_hash, occurrence) contain the partition
-- key, so each shard's unique index enforces them globally.
CREATE SEQUENCE sharded.price_snapshot_id_seq START 1000000000000000;
CREATE TABLE sharded.price_snapshot (LIKE llm_econ.price_snapshot INCLUDING DEFAULTS INCLUDING GENERATED) PARTITION BY LIST (provider);
ALTER TABLE sharded.price_snapshot ALTER COLUMN id SET DEFAULT nextval('sharded.price_snapshot_id_seq');
ALTER SEQUENCE sharded.price_snapshot_id_seq OWNED BY sharded.price_snapshot.id;
CREATE FOREIGN TABLE sharded.price_snapshot_shard1 PARTITION OF sharded.price_snapshot
  FOR VALUES IN (:s1_providers) SERVER shard1 OPTIONS (schema_name 'llm_econ', table_name 'price_snapshot');
CREATE FOREIGN TABLE sharded.price_snapshot_shard2 PARTITION OF sharded.price_snapshot
  DEFAULT SERVER shard2 OPTIONS (schema_name 'llm_econ', table_name 'price_snapshot');
COMMENT ON TABLE sharded.price_snapshot IS 'llm_econ.price_snapshot of the shards, LIST-partitioned by provider';

CREATE SEQUENCE sharded.spend_id_seq START 1000000000000000;
CREATE TABLE sharded.spend (LIKE llm_econ.spend INCLUDING DEFAULTS) PARTITION BY LIST (tenant);
ALTER TABLE sharded.spend ALTER COLUMN id SET DEFAULT nextval('sharded.spend_id_seq');
ALTER SEQUENCE sharded.spend_id_seq OWNED BY sharded.spend.id;
CREATE FOREIGN TABLE sharded.spend_shard1 PARTITION OF sharded.spend
  FOR VALUES IN (:s1_tenants) SERVER shard1 OPTIONS (schema_name 'llm_econ', table_name 'spend');
CREATE FOREIGN TABLE sharded.spend_shard2 PARTITION OF sharded.spend
  DEFAULT SERVER shard2 OPTIONS (schema_name 'llm_econ', table_name 'spend');
COMMENT ON TABLE sharded.spend IS 'llm_econ.spend of the shards, LIST-partitioned by tenant';

-- The shards are reached as a BYPASSRLS role, so the tenant policy of llm_econ.spend is applied
-- here, on the partitioned table (readers get no grant on the partitions themselves).
ALTER TABLE sharded.spend ENABLE ROW LEVEL SECURITY;
CREATE POLICY spend_tenant ON sharded.spend
  USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));
GRANT USAGE ON SCHEMA sharded TO PUBLIC;
GRANT SELECT ON sharded.price_snapshot TO PUBLIC;

-- Time-weighted average $/GPU-hour of every (provider, pricing) offer of a SKU over a period, in
-- one pass over sharded.price_snapshot (one remote scan per shard, run concurrently): the same
-- definition as llm_econ.price_twap (a series' price holds from its observation to its next one;
-- at each instant the cheapest series in effect counts; time with no price is left out).  The
-- filters become literals so the shards get them in their remote WHERE and partition pruning skips
-- shards a provider filter excludes.
CREATE FUNCTION sharded.price_twaps(sku text, during tstzrange, only_provider text DEFAULT NULL,
                                    only_pricing text DEFAULT NULL, only_region text DEFAULT NULL)
RETURNS TABLE (provider text, pricing text, usd_per_gpu_hour numeric)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  filter text;
BEGIN
  IF sku IS NULL OR during IS NULL THEN
    RETURN;
  END IF;
  IF isempty(during) OR lower_inf(during) OR upper_inf(during)
     OR NOT isfinite(lower(during)) OR NOT isfinite(upper(during)) THEN
    RAISE EXCEPTION 'during must be a non-empty range with finite bounds, got %', during
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  filter := format('p.sku = %L', llm_econ._sku_key(sku))
         || CASE WHEN only_provider IS NOT NULL THEN format(' AND p.provider = %L', lower(only_provider)) ELSE '' END
         || CASE WHEN only_pricing IS NOT NULL THEN format(' AND p.pricing = %L', llm_econ._check_pricing(only_pricing)) ELSE '' END
         || CASE WHEN only_region IS NOT NULL THEN format(' AND p.region = %L', only_region) ELSE '' END;
  RETURN QUERY EXECUTE format($q$
    WITH obs AS (       -- every observation of the matching series before the end of the period
           SELECT p.provider, p.pricing, p.region, p.instance_type, p.observed_at, p.usd_per_gpu_hour
             FROM sharded.price_snapshot p
            WHERE %s AND p.observed_at < $2),
         spans AS (     -- [a, b): when each observation holds, clipped to the period
           SELECT o.provider, o.pricing, greatest(o.observed_at, $1) AS a,
                  least(coalesce(lead(o.observed_at) OVER w, $2), $2) AS b, o.usd_per_gpu_hour AS p
             FROM obs o
           WINDOW w AS (PARTITION BY o.provider, o.pricing, o.region, o.instance_type ORDER BY o.observed_at)),
         live AS (SELECT * FROM spans WHERE spans.b > spans.a),   -- superseded before the period: gone
         cuts AS (SELECT l.provider, l.pricing, l.a AS t FROM live l UNION SELECT l.provider, l.pricing, l.b FROM live l),
         pieces AS (SELECT c.provider, c.pricing, c.t AS a, lead(c.t) OVER (PARTITION BY c.provider, c.pricing ORDER BY c.t) AS b
                      FROM cuts c),
         cheapest AS (
           SELECT x.provider, x.pricing, x.a, x.b, min(s.p) AS p
             FROM pieces x JOIN live s ON s.provider = x.provider AND s.pricing = x.pricing
                                      AND s.a <= x.a AND s.b >= x.b AND s.p IS NOT NULL
            WHERE x.b IS NOT NULL AND x.b > x.a
            GROUP BY x.provider, x.pricing, x.a, x.b)
    SELECT c.provider, c.pricing,
           sum(c.p * extract(epoch FROM c.b - c.a)) / nullif(sum(extract(epoch FROM c.b - c.a)), 0)
      FROM cheapest c GROUP BY c.provider, c.pricing$q$, filter)
    USING lower(during), upper(during);
END $fn$;
COMMENT ON FUNCTION sharded.price_twaps(text, tstzrange, text, text, text) IS
  'time-weighted average $/GPU-hour of every (provider, pricing) offer of a SKU over a period, from sharded.price_snapshot (llm_econ.price_twap''s definition); filters NULL = any';

-- llm_econ.price_twap's signature and NULL/argument handling, over the shards.
CREATE FUNCTION sharded.price_twap(sku text, provider text, pricing text, during tstzrange, region text DEFAULT NULL)
RETURNS numeric
LANGUAGE sql STABLE
AS $$
  SELECT CASE WHEN $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR $4 IS NULL THEN NULL
              ELSE (SELECT t.usd_per_gpu_hour FROM sharded.price_twaps($1, $4, $2, $3, $5) AS t) END
$$;
COMMENT ON FUNCTION sharded.price_twap(text, text, text, tstzrange, text) IS
  'llm_econ.price_twap over sharded.price_snapshot';

-- Plan vs actual over the shards: the installed llm_econ.plan_vs_actual with sharded.spend in
-- place of llm_econ.spend (run_plan stays on the coordinator), so it cannot drift from the view.
DO $$
DECLARE
  def text := pg_get_viewdef('llm_econ.plan_vs_actual'::regclass);
  n int;
BEGIN
  n := (length(def) - length(replace(def, 'FROM llm_econ.spend ', ''))) / length('FROM llm_econ.spend ');
  IF n <> 1 THEN
    RAISE EXCEPTION 'llm_econ.plan_vs_actual reads llm_econ.spend % times, expected once: adapt topology.sql', n;
  END IF;
  EXECUTE 'CREATE VIEW sharded.plan_vs_actual WITH (security_invoker = true) AS '
          || replace(def, 'FROM llm_econ.spend ', 'FROM sharded.spend ');
END $$;
COMMENT ON VIEW sharded.plan_vs_actual IS 'llm_econ.plan_vs_actual with the spend read from the shards';
GRANT SELECT ON sharded.plan_vs_actual TO PUBLIC;
