-- update_head.sql: the start of every built update script: creates the check a migration runs before each DROP and the helpers that make the update work on Citus.
-- No SET search_path here: ALTER EXTENSION runs the script with search_path = pg_catalog, pg_temp
-- (the extension's schema, pg_catalog since 0.4.0, then pg_temp) and restores the session's own at
-- the end, unless the script SETs it again, which would outlive the update (until 0.5.0 it did).

-- A migration drops a function or view only when CREATE OR REPLACE cannot change it (its signature,
-- return type or columns change); everything else is replaced in place by src/sql, so objects of users
-- that depend on it (an unprivileged role's view over cheapest_offers(...)) keep working.  Before such
-- a DROP the migration calls this check: it looks in pg_depend for objects outside the extension that
-- depend on the object, directly or through other members of the extension (which the migration drops
-- with it), and stops the update with an error whose DETAIL names them and whose HINT says what to do,
-- instead of DROP's bare "cannot drop ... because other objects depend on it".  Does nothing when the
-- object does not exist.  Dropped again at the end of the update (src/migrate/update_tail.sql).
CREATE FUNCTION llm_econ._update_drop_check(kind text, name text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cls oid;
  obj oid;
  ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'llm_econ');
  blockers text;
BEGIN
  IF kind OPERATOR(pg_catalog.=) 'function' THEN
    cls := 'pg_catalog.pg_proc'::pg_catalog.regclass;
    obj := pg_catalog.to_regprocedure(name);
  ELSIF kind OPERATOR(pg_catalog.=) 'view' THEN
    cls := 'pg_catalog.pg_class'::pg_catalog.regclass;
    obj := pg_catalog.to_regclass(name);
  ELSE
    RAISE EXCEPTION 'kind must be function or view' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF obj IS NULL THEN
    RETURN;
  END IF;
  -- The objects that depend on it; a view's rule stands for the view.  Walks on only from members of
  -- the extension: an outside object is reported, not what depends on it in turn.
  WITH RECURSIVE dep(classid, objid, member) AS (
      SELECT cls, obj, true
    UNION
      SELECT d.classid, d.objid,
             EXISTS (SELECT 1 FROM pg_catalog.pg_depend m
                      WHERE m.classid OPERATOR(pg_catalog.=) d.classid AND m.objid OPERATOR(pg_catalog.=) d.objid
                        AND m.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                        AND m.refobjid OPERATOR(pg_catalog.=) ext AND m.deptype OPERATOR(pg_catalog.=) 'e')
        FROM dep
        CROSS JOIN LATERAL (
          SELECT CASE WHEN p.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_rewrite'::pg_catalog.regclass
                      THEN 'pg_catalog.pg_class'::pg_catalog.regclass::oid ELSE p.classid END AS classid,
                 CASE WHEN p.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_rewrite'::pg_catalog.regclass
                      THEN (SELECT r.ev_class FROM pg_catalog.pg_rewrite r WHERE r.oid OPERATOR(pg_catalog.=) p.objid)
                      ELSE p.objid END AS objid
            FROM pg_catalog.pg_depend p
           WHERE p.refclassid OPERATOR(pg_catalog.=) dep.classid AND p.refobjid OPERATOR(pg_catalog.=) dep.objid
             AND p.deptype OPERATOR(pg_catalog.=) ANY (ARRAY['n', 'a']::"char"[])) AS d
       WHERE dep.member
         AND NOT (d.classid OPERATOR(pg_catalog.=) dep.classid AND d.objid OPERATOR(pg_catalog.=) dep.objid)
  )
  SELECT pg_catalog.string_agg(DISTINCT pg_catalog.pg_describe_object(dep.classid, dep.objid, 0), ', ')
    INTO blockers
    FROM dep WHERE NOT dep.member;
  IF blockers IS NOT NULL THEN
    RAISE EXCEPTION 'cannot update extension llm_econ: its % % is used by objects outside the extension', kind, name
      USING ERRCODE = 'dependent_objects_still_exist',
            DETAIL = pg_catalog.format('The update drops %s %s (its signature or columns change), and these depend on it: %s.', kind, name, blockers),
            HINT = 'Save the definitions of those objects (pg_get_viewdef for a view) and drop them, run ALTER EXTENSION llm_econ UPDATE, '
                   'then create them again against the new definition (CHANGELOG.md says what changed).';
  END IF;
END $$;

-- On Citus.  ALTER EXTENSION llm_econ UPDATE on the coordinator runs this script there, then has every
-- worker run it (with DDL propagation off there), so every node updates its own copy of the extension.
-- But PostgreSQL gives each statement of an extension script the whole script as its query text, and
-- Citus forwards DDL on a distributed table (spend, run_plan: their indexes, triggers, policies) to the
-- workers as that text: "cannot insert multiple commands into a prepared statement".  So on the
-- coordinator the script runs with citus.enable_ddl_propagation off (until update_tail.sql puts it
-- back): each node changes only its own objects, and
--   * DDL that must reach the shards goes through _update_ddl, one statement at a time (which Citus
--     then propagates as that one statement);
--   * data changes go through _update_local_tables: each node changes the rows it stores, after its
--     own ALTER TYPE (the coordinator's script runs before the workers' have changed theirs).
-- Without Citus (or with propagation already off, as on the workers) nothing here changes a setting.
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus')
     AND pg_catalog.current_setting('citus.enable_ddl_propagation', true) OPERATOR(pg_catalog.=) 'on' THEN
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', 'off', true);
    PERFORM pg_catalog.set_config('llm_econ_update.citus_ddl_propagation', 'on', true);
  END IF;
END $$;

-- Runs one DDL statement; on a Citus coordinator, with DDL propagation on, so that Citus applies it to
-- the shards of a distributed table and the workers' copies too.  Dropped by update_tail.sql.
CREATE FUNCTION llm_econ._update_ddl(statement text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF pg_catalog.current_setting('llm_econ_update.citus_ddl_propagation', true) OPERATOR(pg_catalog.=) 'on' THEN
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', 'on', true);
    EXECUTE statement;
    PERFORM pg_catalog.set_config('citus.enable_ddl_propagation', 'off', true);
  ELSE
    EXECUTE statement;
  END IF;
END $$;

-- The tables that hold rel's rows on this node: rel itself, or for a Citus table (distributed or
-- reference) its shards placed on this node (none on a coordinator without shards).  A migration's
-- UPDATE of rel runs on each of them.  Dropped by update_tail.sql.
CREATE FUNCTION llm_econ._update_local_tables(rel regclass) RETURNS SETOF regclass
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus') THEN
    RETURN NEXT rel;
    RETURN;
  END IF;
  -- (Citus's catalogs, read through EXECUTE: they exist only where Citus is installed)
  RETURN QUERY EXECUTE
    'SELECT $1 WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid OPERATOR(pg_catalog.=) $1)
     UNION ALL
     SELECT pg_catalog.shard_name($1, s.shardid)::pg_catalog.regclass
       FROM pg_catalog.pg_dist_shard s
       JOIN pg_catalog.pg_dist_placement pl ON pl.shardid OPERATOR(pg_catalog.=) s.shardid
      WHERE s.logicalrelid OPERATOR(pg_catalog.=) $1
        AND pl.groupid OPERATOR(pg_catalog.=) (SELECT g.groupid FROM pg_catalog.pg_dist_local_group g)'
    USING rel;
END $$;
