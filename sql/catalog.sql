-- The extension's catalog: every object commented, volatility and privileges as the contract says.
SET DateStyle = ISO;
SET TimeZone = 'UTC';
SET IntervalStyle = postgres;
SET search_path = llm_econ, public;

-- Functions breaking the house rules on their declaration (must be empty): pure calculations
-- are IMMUTABLE STRICT PARALLEL SAFE and anything reading a table or a setting is STABLE
-- (volatility.sql checks both by calling each function); writers are VOLATILE PARALLEL UNSAFE;
-- a SECURITY DEFINER function is an internal (_-prefixed) trigger or helper, VOLATILE.
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, p.prosecdef AS security_definer,
       concat_ws('; ',
         CASE WHEN p.provolatile = 'i' AND p.proparallel <> 's' THEN 'IMMUTABLE but not PARALLEL SAFE' END,
         CASE WHEN p.provolatile = 'v' AND p.proparallel <> 'u' THEN 'VOLATILE but not PARALLEL UNSAFE' END,
         CASE WHEN p.prosecdef AND p.proname NOT LIKE '\_%' THEN 'SECURITY DEFINER on a user-facing function' END,
         CASE WHEN p.prosecdef AND p.provolatile <> 'v' THEN 'SECURITY DEFINER but not VOLATILE' END) AS problem
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'llm_econ'
   AND ((p.provolatile = 'i' AND p.proparallel <> 's') OR (p.provolatile = 'v' AND p.proparallel <> 'u')
        OR (p.prosecdef AND (p.proname NOT LIKE '\_%' OR p.provolatile <> 'v')))
 ORDER BY p.oid::regprocedure::text COLLATE "C";

-- Objects without a comment (must be none).
SELECT 'function' AS kind, p.oid::regprocedure::text AS name
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'llm_econ' AND obj_description(p.oid, 'pg_proc') IS NULL
UNION ALL
SELECT CASE c.relkind WHEN 'c' THEN 'type' WHEN 'S' THEN 'sequence' WHEN 'i' THEN 'index' ELSE 'table' END, c.relname::text
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'llm_econ' AND c.relkind IN ('r', 'v', 'c')
   AND obj_description(c.oid, 'pg_class') IS NULL
   AND (c.relkind <> 'c' OR obj_description(c.reltype, 'pg_type') IS NULL)
UNION ALL
SELECT 'column', c.relname || '.' || a.attname
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
 WHERE n.nspname = 'llm_econ' AND c.relkind IN ('r', 'v', 'c')
   AND col_description(c.oid, a.attnum) IS NULL
ORDER BY 1, 2;

-- Tables whose user rows pg_dump keeps (shipped rows are filtered out by "builtin").
SELECT c.relname, x.cond
  FROM pg_extension e,
       unnest(e.extconfig, e.extcondition) AS x(oid, cond)
  JOIN pg_class c ON c.oid = x.oid
 WHERE e.extname = 'llm_econ'
 ORDER BY 1;

-- Privileges: PUBLIC reads reference data and prices but cannot write them.
SELECT c.relname,
       has_table_privilege('public', c.oid, 'SELECT') AS public_select,
       has_table_privilege('public', c.oid, 'INSERT') AS public_insert,
       has_table_privilege('public', c.oid, 'UPDATE') AS public_update
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'llm_econ' AND c.relkind = 'r'
 ORDER BY 1;

-- The extension is not trusted and not relocatable; it owns its schema.
SELECT extname, extversion, extrelocatable FROM pg_extension WHERE extname = 'llm_econ';
SELECT deptype FROM pg_depend
 WHERE classid = 'pg_namespace'::regclass AND objid = 'llm_econ'::regnamespace
   AND refclassid = 'pg_extension'::regclass;
