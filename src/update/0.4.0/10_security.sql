-- 10_security.sql: the extension moves into pg_catalog (as a fresh 0.4.0 install records it), and the definitions 0.3.0 left open to a planted function are rebound.

-- A fresh install records the extension in pg_catalog (control file: schema = pg_catalog), so
-- later update scripts run with search_path = pg_catalog, pg_temp, and no role's schema holds
-- the extension (a DROP SCHEMA ... CASCADE by that schema's owner dropped every tenant's data).
-- Move an older install there too: the catalog row, and its dependency on the old schema
-- (nothing records a dependency on pg_catalog, which is pinned).
UPDATE pg_catalog.pg_extension SET extnamespace = 'pg_catalog'::pg_catalog.regnamespace
 WHERE extname OPERATOR(pg_catalog.=) 'llm_econ';
DELETE FROM pg_catalog.pg_depend
 WHERE classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
   AND objid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'llm_econ')
   AND refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass;

-- 0.3.0's gpu_sku CHECK called num_nonnulls unqualified: an install run while a role had
-- planted public.num_nonnulls(float8, float8, float8, float8, float8) is bound to that function
-- for good, and every insert into gpu_sku runs it.  Rebuild the constraint (same name as a fresh
-- install gives it).
ALTER TABLE llm_econ.gpu_sku DROP CONSTRAINT gpu_sku_check1,
  ADD CONSTRAINT gpu_sku_check1
      CHECK (pg_catalog.num_nonnulls(fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops) > 0);

-- 0.3.0's spend_daily called count(DISTINCT run_id) unqualified: an install run while a role had
-- planted an aggregate public.count(text) is bound to it, and every reader runs it.  Recreate
-- the view from its 0.4.0 definition (the same columns), which binds pg_catalog.count.
CREATE OR REPLACE VIEW llm_econ.spend_daily WITH (security_invoker = true) AS
  SELECT (pg_catalog.date_trunc('day', s.charge_period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "time",
         s.tenant, s.provider, s.service_category,
         pg_catalog.sum(s.billed_cost * r.rate) AS billed_usd, pg_catalog.sum(s.effective_cost * r.rate) AS effective_usd,
         pg_catalog.sum(s.gpu_hours) AS gpu_hours, pg_catalog.count(*) AS lines,
         pg_catalog.count(DISTINCT s.run_id) AS runs,
         pg_catalog.count(*) FILTER (WHERE r.rate IS NULL) AS unconverted_lines
    FROM llm_econ.spend s
   CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate) AS r
   GROUP BY 1, 2, 3, 4;
