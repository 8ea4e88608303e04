-- test/citus/topology.sql: the tested Citus layout of llm_econ, run once on the coordinator after CREATE EXTENSION llm_econ (which Citus runs on every node): run_plan and spend distributed by tenant; reference data and prices stay the extension's own tables on every node, written everywhere at once through a reference table.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

-- 1. run_plan and spend, distributed by tenant and colocated (a tenant's plans and bills live
--    in the same shard, so plan-vs-actual per tenant is one shard's join).  Citus needs every
--    unique key to contain the distribution column, and allows no foreign key to a table it does
--    not manage: each key without tenant gets tenant in front (run_plan (run_id) -> (tenant,
--    run_id); spend (id) -> (tenant, id)), and spend's foreign key to gpu_sku goes (import_focus
--    resolves SKUs through gpu_sku_alias anyway).  Generic on purpose: a key that already has
--    tenant is left alone.
DO $$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT con.conrelid::regclass AS rel, con.conname, con.contype,
           (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord)
              FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS cols,
           EXISTS (SELECT FROM unnest(con.conkey) AS k(attnum)
                     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                    WHERE a.attname = 'tenant') AS has_tenant
      FROM pg_constraint con
     WHERE con.conrelid IN ('llm_econ.run_plan'::regclass, 'llm_econ.spend'::regclass)
       AND con.contype IN ('p', 'u', 'f')
  LOOP
    CONTINUE WHEN c.contype <> 'f' AND c.has_tenant;
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.rel, c.conname);
    IF c.contype = 'p' THEN
      EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY (tenant, %s)', c.rel, c.conname, c.cols);
    ELSIF c.contype = 'u' THEN
      EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I UNIQUE (tenant, %s)', c.rel, c.conname, c.cols);
    END IF;
  END LOOP;
END $$;

-- import_focus runs on the coordinator and inserts into the distributed spend.  Citus cannot
-- plan tables that PostgreSQL brings into that INSERT by inlining a SQL function ("parameterized
-- queries for SQL functions referencing distributed tables are not supported"): 0.2.0's SQL
-- helper _focus_typed was one; a SET clause keeps such a helper a plain function call.
DO $$
BEGIN
  IF to_regprocedure('llm_econ._focus_typed(jsonb)') IS NOT NULL THEN
    ALTER FUNCTION llm_econ._focus_typed(jsonb) SET search_path = pg_catalog, pg_temp;
  END IF;
END $$;

-- run_plan's freeze trigger runs on the worker that holds the row's shard, where it reads that
-- node's own price tables (see 2.): Citus calls such triggers "unsafe" and wants them allowed.
SET citus.enable_unsafe_triggers = on;
SELECT create_distributed_table('llm_econ.spend', 'tenant', shard_count => 8);
SELECT create_distributed_table('llm_econ.run_plan', 'tenant', colocate_with => 'llm_econ.spend');

-- 2. Reference data and prices (gpu_sku, gpu_sku_alias, mfu_reference, price_snapshot,
--    price_series): the extension's own tables on every node, left as they are, so every
--    function reads them locally wherever Citus runs it (run_spec's SKU lookup, price_at in the
--    plan trigger on a worker, price_twap).  Writes to them go through llm_econ_sync.everywhere:
--    the statement is inserted into a reference table, which Citus writes on every node in one
--    two-phase-committed transaction, and a trigger on each node's copy runs the statement
--    there.  All nodes apply it or none does; the table is also the history of price writes.
CREATE SCHEMA llm_econ_sync;
COMMENT ON SCHEMA llm_econ_sync IS 'writes to llm_econ''s reference data and prices, applied on every Citus node';
CREATE TABLE llm_econ_sync.applied (
    id          bigserial PRIMARY KEY,
    statement   text NOT NULL,
    applied_by  text NOT NULL DEFAULT current_user,
    applied_at  timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE llm_econ_sync.applied IS 'every statement run on all nodes by llm_econ_sync.everywhere (a Citus reference table)';
REVOKE ALL ON llm_econ_sync.applied FROM PUBLIC;
CREATE FUNCTION llm_econ_sync._apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE NEW.statement;
  RETURN NULL;
END $$;
COMMENT ON FUNCTION llm_econ_sync._apply() IS 'trigger on each node''s copy of applied: runs the statement on that node';
SELECT create_reference_table('llm_econ_sync.applied');
CREATE TRIGGER apply AFTER INSERT ON llm_econ_sync.applied FOR EACH ROW EXECUTE FUNCTION llm_econ_sync._apply();
CREATE FUNCTION llm_econ_sync.everywhere(statement text) RETURNS bigint LANGUAGE sql AS $$
  INSERT INTO llm_econ_sync.applied (statement) VALUES ($1) RETURNING id
$$;
COMMENT ON FUNCTION llm_econ_sync.everywhere(text) IS
  'runs a statement on every node (coordinator and workers) in one distributed transaction: for imports of prices and edits of reference data';
REVOKE ALL ON FUNCTION llm_econ_sync.everywhere(text) FROM PUBLIC;
