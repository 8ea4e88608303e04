-- 0.4.0 -> 0.5.0 migration of stateful objects (tables, types, shipped rows): hand-written, run before all replaceable code.

-- issue 42 (h42b): names fold by ASCII only, never by the database's collation (in a Turkish
-- database lower('I') is 'ı'): the case-insensitive unique keys are rebuilt on lower(... COLLATE "C").
DROP INDEX llm_econ.gpu_sku_lower_key;
CREATE UNIQUE INDEX gpu_sku_lower_key ON llm_econ.gpu_sku (pg_catalog.lower(sku COLLATE pg_catalog."C"));
DROP INDEX llm_econ.gpu_sku_alias_lower_key;
CREATE UNIQUE INDEX gpu_sku_alias_lower_key ON llm_econ.gpu_sku_alias (pg_catalog.lower(alias COLLATE pg_catalog."C"));
DROP INDEX llm_econ.instance_type_lower_key;
CREATE UNIQUE INDEX instance_type_lower_key ON llm_econ.instance_type (provider, pg_catalog.lower(instance_type COLLATE pg_catalog."C"));
