-- 99_bindings.sql: the update ends only if no definition of the extension is bound to a function, operator or type outside pg_catalog and llm_econ.

-- 0.3.0's install could bind a definition to a function a role had planted (see 10_security.sql).
-- The two it is known to have left open are rebuilt above; should anything else still point
-- outside pg_catalog and llm_econ, stop here and name it rather than carry the binding on.
DO $$
DECLARE
  bad text;
BEGIN
  WITH members AS (
         SELECT d.classid, d.objid FROM pg_catalog.pg_depend d
          WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
            AND d.deptype OPERATOR(pg_catalog.=) 'e'
            AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                                   WHERE e.extname OPERATOR(pg_catalog.=) 'llm_econ')),
       parts AS (      -- the members and what hangs off their tables: rules, constraints, defaults, policies, triggers
         SELECT m.classid, m.objid FROM members m
         UNION ALL
         SELECT 'pg_catalog.pg_rewrite'::pg_catalog.regclass, r.oid FROM members m JOIN pg_catalog.pg_rewrite r ON r.ev_class OPERATOR(pg_catalog.=) m.objid
          WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
         UNION ALL
         SELECT 'pg_catalog.pg_constraint'::pg_catalog.regclass, c.oid FROM members m JOIN pg_catalog.pg_constraint c ON c.conrelid OPERATOR(pg_catalog.=) m.objid
          WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
         UNION ALL
         SELECT 'pg_catalog.pg_attrdef'::pg_catalog.regclass, a.oid FROM members m JOIN pg_catalog.pg_attrdef a ON a.adrelid OPERATOR(pg_catalog.=) m.objid
          WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
         UNION ALL
         SELECT 'pg_catalog.pg_policy'::pg_catalog.regclass, p.oid FROM members m JOIN pg_catalog.pg_policy p ON p.polrelid OPERATOR(pg_catalog.=) m.objid
          WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
         UNION ALL
         SELECT 'pg_catalog.pg_trigger'::pg_catalog.regclass, t.oid FROM members m JOIN pg_catalog.pg_trigger t ON t.tgrelid OPERATOR(pg_catalog.=) m.objid
          WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass),
       refs AS (
         SELECT d.classid, d.objid, d.refclassid, d.refobjid,
                coalesce((SELECT f.pronamespace FROM pg_catalog.pg_proc f
                           WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND f.oid OPERATOR(pg_catalog.=) d.refobjid),
                         (SELECT o.oprnamespace FROM pg_catalog.pg_operator o
                           WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass AND o.oid OPERATOR(pg_catalog.=) d.refobjid),
                         (SELECT t.typnamespace FROM pg_catalog.pg_type t
                           WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass AND t.oid OPERATOR(pg_catalog.=) d.refobjid)) AS nsp
           FROM pg_catalog.pg_depend d JOIN parts p ON p.classid OPERATOR(pg_catalog.=) d.classid AND p.objid OPERATOR(pg_catalog.=) d.objid)
  SELECT pg_catalog.string_agg(DISTINCT pg_catalog.pg_describe_object(r.classid, r.objid, 0) OPERATOR(pg_catalog.||) ' uses '
                               OPERATOR(pg_catalog.||) pg_catalog.pg_describe_object(r.refclassid, r.refobjid, 0), '; ')
    INTO bad
    FROM refs r
   WHERE r.nsp IS NOT NULL
     AND r.nsp OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog'::pg_catalog.regnamespace, 'llm_econ'::pg_catalog.regnamespace]::pg_catalog.oid[]);
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'llm_econ definitions are bound to objects outside pg_catalog and llm_econ: %', bad
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Somebody planted these while an earlier version was installed.  Drop them (DROP FUNCTION ... CASCADE drops the definitions that use them), then reinstall llm_econ.';
  END IF;
END $$;
