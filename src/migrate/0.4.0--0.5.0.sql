-- 0.4.0 -> 0.5.0 migration of stateful objects (tables, types, shipped rows): hand-written, run before all replaceable code.
--
-- The build makes the update script llm_econ--0.4.0--0.5.0.sql from src/migrate/update_head.sql, this
-- file, every src/sql/*.sql (functions, views, triggers, policies, comments, grants: CREATE OR REPLACE, so
-- what did not change is replaced in place) and src/migrate/update_tail.sql.  This file holds what
-- src/sql cannot do: the same changes src/schema makes at install, written from the 0.4.0 shape (a new
-- column, table, index or type attribute, shipped rows), and a DROP where CREATE OR REPLACE cannot change
-- an object (a function's signature or return type, a view's columns).  Before each such DROP, name the
-- objects of users that would block it:
--
--   SELECT llm_econ._update_drop_check('function', 'llm_econ.f(llm_econ.run_spec, text)');
--   DROP FUNCTION IF EXISTS llm_econ.f(llm_econ.run_spec, text);
--
-- Append a block per change, each starting with a comment line naming its issue.

-- issue 43: FOCUS loads serialise on a row only the tenant's writers can lock, not an advisory key.
CREATE TABLE llm_econ.focus_statement_lock (
    tenant               text NOT NULL,
    provider             text,
    billing_account_id   text,
    billing_period_start timestamptz,
    CONSTRAINT focus_statement_lock_key UNIQUE NULLS NOT DISTINCT (tenant, provider, billing_account_id, billing_period_start)
);
COMMENT ON TABLE llm_econ.focus_statement_lock IS
  'internal: one row per statement FOCUS loads stored; a load locks its statements'' rows (only the tenant''s writers can)';
COMMENT ON COLUMN llm_econ.focus_statement_lock.tenant IS 'the tenant whose statement this is (row-level security)';
COMMENT ON COLUMN llm_econ.focus_statement_lock.provider IS 'the statement''s provider key, as spend.provider';
COMMENT ON COLUMN llm_econ.focus_statement_lock.billing_account_id IS 'the statement''s billing account, as the load keys it';
COMMENT ON COLUMN llm_econ.focus_statement_lock.billing_period_start IS 'the statement''s billing period start';
ALTER TABLE llm_econ.focus_statement_lock ENABLE ROW LEVEL SECURITY;
-- (its policy focus_statement_lock_writer is created by src/sql/finance.sql, which runs after this file)
GRANT SELECT, INSERT, UPDATE ON llm_econ.focus_statement_lock TO PUBLIC;

-- issue 42 (h42b): names fold by ASCII only, never by the database's collation (in a Turkish
-- database lower('I') is 'ı'): the case-insensitive unique keys are rebuilt on lower(... COLLATE "C").
DROP INDEX llm_econ.gpu_sku_lower_key;
CREATE UNIQUE INDEX gpu_sku_lower_key ON llm_econ.gpu_sku (pg_catalog.lower(sku COLLATE pg_catalog."C"));
DROP INDEX llm_econ.gpu_sku_alias_lower_key;
CREATE UNIQUE INDEX gpu_sku_alias_lower_key ON llm_econ.gpu_sku_alias (pg_catalog.lower(alias COLLATE pg_catalog."C"));
DROP INDEX llm_econ.instance_type_lower_key;
CREATE UNIQUE INDEX instance_type_lower_key ON llm_econ.instance_type (provider, pg_catalog.lower(instance_type COLLATE pg_catalog."C"));

-- issue 45 (h45n): six aliases more (data/gpu_sku_alias.csv), as a fresh install has them: Shadeform's
-- and Paperspace's "A4000" and "A5000" and PrimeIntellect's "A4500" are the RTX parts, and RunPod's and
-- Lium's "RTXPRO6000-WK", SimplePod's "RTXPRO6000Blackwell" and Vast's "RTXPRO6000S" the RTX PRO 6000.
-- A user's own row of that name stays.
INSERT INTO llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source, builtin) VALUES
  ('A5000', 'RTX-A5000', NULL, 'SkyPilot Shadeform catalogs AcceleratorName (catalogs/v7/shadeform/vms.csv at 54ce89bb: cudo_A5000, paperspace_A5000x4; v8 at 002363da: paperspace_A5000, 24 GB); the RTX A5000, as RunPod''s RTXA5000', true),
  ('A4000', 'RTX-A4000', NULL, 'SkyPilot Shadeform and Paperspace catalogs AcceleratorName (catalogs/v7/shadeform/vms.csv at 54ce89bb: hyperstack_A4000x10; v8 at 002363da: paperspace_A4000, 16 GB; catalogs/v6/paperspace/vms.csv at e5200541: A4000); the RTX A4000, as RunPod''s RTXA4000', true),
  ('A4500', 'RTX-A4500', NULL, 'SkyPilot PrimeIntellect catalog AcceleratorName (catalogs/v7/primeintellect/vms.csv at 0e770cca: runpod__2xA4500_20GB__24__124, UpstreamCloudId NVIDIA RTX A4500); the RTX A4500, as RunPod''s RTXA4500', true),
  ('RTXPRO6000-WK', 'RTX-PRO-6000', NULL, 'SkyPilot RunPod v8 catalog AcceleratorName (catalogs/v8/runpod/vms.csv at 01acdfd4: 1x_RTXPRO6000-WK_SECURE, GpuInfo name RTX PRO 6000 WK, 96 GB) and Lium v8 (RTXPRO6000-WK_1x, 98304 MiB); the RTX PRO 6000 Blackwell Workstation Edition, whose figures the RTX-PRO-6000 row gives', true),
  ('RTXPRO6000Blackwell', 'RTX-PRO-6000', NULL, 'SkyPilot SimplePod v7 catalog AcceleratorName (catalogs/v7/simplepod/vms.csv at 1010b759: gpu_1x_rtxpro6000blackwell_96, 97280 MiB); the RTX PRO 6000 Blackwell', true),
  ('RTXPRO6000S', 'RTX-PRO-6000', NULL, 'SkyPilot Vast v8 catalog AcceleratorName (catalogs/v8/vast/vms.csv at 01b8cdda: 1x-RTX_PRO_6000_S-32-65536, 97887 MiB); the RTX PRO 6000 Blackwell Server Edition, whose figures the RTX-PRO-6000 row gives', true)
ON CONFLICT DO NOTHING;

-- issue 44: fx_rate.valid_from is the UTC day a rate takes effect (a date: '2025-01-01' entered from
-- any session TimeZone starts at 00:00 UTC).  A 0.4.0 row becomes the UTC day of its instant (a
-- rate entered as '2025-01-01' from New York, stored as 05:00 UTC, is 2025-01-01 again); two rates
-- of one currency on one UTC day stop the update with a duplicate key.  _usd_per_unit's 0.4.0 body
-- depends on the column, so it is first given one that does not (same signature: the views that
-- call it stay); src/sql/finance.sql defines it again after this file.
CREATE OR REPLACE FUNCTION llm_econ._usd_per_unit(currency text, at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE AS 'SELECT NULL::numeric';
ALTER TABLE llm_econ.fx_rate ALTER COLUMN valid_from TYPE date USING pg_catalog.timezone('UTC', valid_from)::date;

-- issue 45: _skypilot_offers returns GpuInfo's memory per GPU (gpu_mib): its row type changes
SELECT llm_econ._update_drop_check('function', 'llm_econ._skypilot_offers(text, text)');
DROP FUNCTION IF EXISTS llm_econ._skypilot_offers(text, text);

-- issue 46: run_spec gains stack, fp8_attention and fsdp_reshard, appended (stored values read NULL: megatron,
-- attention in BF16, the stack's default resharding: what 0.4.0 computed).  The constructor's signature changes.
ALTER TYPE llm_econ.run_spec
    ADD ATTRIBUTE stack text CASCADE,
    ADD ATTRIBUTE fp8_attention boolean CASCADE,
    ADD ATTRIBUTE fsdp_reshard boolean CASCADE;
COMMENT ON COLUMN llm_econ.run_spec.stack IS 'software that runs the step: megatron (Megatron-LM/NeMo, Transformer Engine), torch_compile, torch_eager; NULL = megatron';
COMMENT ON COLUMN llm_econ.run_spec.fp8_attention IS 'with dtype fp8, whether attention also runs in FP8; NULL = false (the linear layers'' GEMMs only)';
COMMENT ON COLUMN llm_econ.run_spec.fsdp_reshard IS 'ZeRO-3/FSDP: whether parameters are resharded between micro-batches; NULL = the stack''s default (torch stacks with pp > 1 keep them unsharded)';
-- Stored specs get what the 0.5.0 constructor writes for a spec that names neither (stack
-- 'megatron', fp8_attention false): same answers as NULL, and an updated database equals a fresh
-- one (TAP 002).  The plans' freeze trigger is switched off for this one statement.  On Citus each node
-- does this to the plans it stores (its shards of run_plan, whose freeze trigger is run_plan_freeze_<shard
-- id>), after its own ALTER TYPE above: _update_local_tables (src/migrate/update_head.sql).
DO $plans$
DECLARE
  t regclass;
  trg name;
BEGIN
  FOR t IN SELECT llm_econ._update_local_tables('llm_econ.run_plan') LOOP
    SELECT g.tgname INTO STRICT trg FROM pg_catalog.pg_trigger g
     WHERE g.tgrelid OPERATOR(pg_catalog.=) t AND NOT g.tgisinternal
       AND g.tgfoid OPERATOR(pg_catalog.=) 'llm_econ._freeze_plan()'::pg_catalog.regprocedure;
    EXECUTE pg_catalog.format('ALTER TABLE %s DISABLE TRIGGER %I', t, trg);
    EXECUTE pg_catalog.format('UPDATE %s SET spec.stack = ''megatron'', spec.fp8_attention = false WHERE (spec).stack IS NULL', t);
    EXECUTE pg_catalog.format('ALTER TABLE %s ENABLE TRIGGER %I', t, trg);
  END LOOP;
END
$plans$;
ALTER TABLE llm_econ.observed_run DISABLE TRIGGER observed_run_check;
UPDATE llm_econ.observed_run SET spec.stack = 'megatron', spec.fp8_attention = false WHERE (spec).stack IS NULL;
ALTER TABLE llm_econ.observed_run ENABLE TRIGGER observed_run_check;
SELECT llm_econ._update_drop_check('function', 'llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4, text, text, int4, float8, float8, int4, int4, int4, int4, int4, int4, int4, text, int4, boolean, text, text, int4, int4, int4, int4, int4, boolean)');
DROP FUNCTION IF EXISTS llm_econ.run_spec(float8, float8, int4, text, float8, text, int4, int4, int4, int4, int4, int4, int4, int4, int4,
                                          text, text, int4, float8, float8, int4, int4, int4, int4, int4, int4, int4, text, int4,
                                          boolean, text, text, int4, int4, int4, int4, int4, boolean);

-- issue 45 (import order): _price_changes takes the batch's source and returns merged (a stored row a backfill made redundant)
SELECT llm_econ._update_drop_check('function', 'llm_econ._price_changes(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], timestamptz[])');
DROP FUNCTION IF EXISTS llm_econ._price_changes(timestamptz[], text[], text[], text[], text[], numeric[], text[], int4[], timestamptz[]);

-- issue 44: the charge identity (row_hash) hashes BillingAccountId, SubAccountId, ResourceId,
-- CommitmentDiscountId and AllocatedResourceId as their provider compares them (trimmed of blanks;
-- Azure's also without ASCII case: docs/finance.md, "How identifiers compare"), so a stored line
-- whose identifiers change under that rule (any Azure line, any line with a padded identifier) is
-- re-keyed.  Its whole line is rebuilt from the typed columns and record (as 0.2.0 -> 0.3.0 re-keyed
-- from the whole record), and a rebuilt line is used only when its 0.4.0 identity (identifiers as
-- written) is the stored row_hash: what is stored has lost a little (BillingCurrency is stored upper
-- case; region is RegionId else Region, resource_id ResourceId else AllocatedResourceId), so each
-- possible original is tried, and a line none verifies keeps its 0.4.0 identity (a NOTICE counts
-- them).  Then the copies of one charge in a tenant's lines are numbered in import order (id), as
-- 0.2.0 -> 0.3.0 did: lines that 0.4.0 stored as new charges because their identifiers differed only
-- in case or blanks stay, as occurrence > 1; nothing is deleted.  Two passes, so no transient
-- duplicate key.  _focus_charge_rekey is dropped after use.
CREATE FUNCTION llm_econ._focus_charge_rekey(record jsonb, row_hash text) RETURNS text
AS 'MODULE_PATHNAME', 'le_focus_charge_rekey_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
DO $rekey$
DECLARE
  t regclass;
  n int8;
  unverified int8 := 0;
BEGIN
  -- (each node re-keys the lines it stores: on Citus its shards of spend, which hold whole tenants)
  FOR t IN SELECT llm_econ._update_local_tables('llm_econ.spend') LOOP
    EXECUTE pg_catalog.format($q$
  WITH cand AS MATERIALIZED (
    SELECT s.id, s.tenant, s.row_hash,
           (SELECT k.h
              FROM (VALUES (s.billing_currency), (pg_catalog.lower(s.billing_currency COLLATE pg_catalog."C"))) AS cur(v),
                   (VALUES (s.region), (NULL)) AS reg(v),
                   (VALUES (s.resource_id), (NULL)) AS res(v),
                   LATERAL (SELECT llm_econ._focus_charge_rekey(s.record || pg_catalog.jsonb_build_object(
                              'BilledCost', s.billed_cost::text, 'EffectiveCost', s.effective_cost::text,
                              'ListCost', s.list_cost::text, 'ConsumedQuantity', s.consumed_quantity::text,
                              'ConsumedUnit', s.consumed_unit,
                              'ChargePeriodStart', pg_catalog.to_char(s.charge_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                              'ChargePeriodEnd', pg_catalog.to_char(s.charge_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                              'BillingPeriodStart', pg_catalog.to_char(s.billing_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                              'BillingPeriodEnd', pg_catalog.to_char(s.billing_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
                              'ServiceName', s.service_name, 'ServiceCategory', s.service_category,
                              'ChargeCategory', s.charge_category, 'ChargeDescription', s.charge_description,
                              'PricingCategory', s.pricing_category, 'BillingCurrency', cur.v,
                              'BillingAccountId', s.billing_account_id, 'Tags', s.tags,
                              'RegionId', reg.v, 'ResourceId', res.v), s.row_hash) AS h) AS k
             WHERE k.h IS NOT NULL
             LIMIT 1) AS new_hash
      FROM %1$s s
     WHERE s.provider = 'azure'
        OR EXISTS (SELECT FROM pg_catalog.unnest(ARRAY[s.billing_account_id, s.resource_id,
                          s.record->>'SubAccountId', s.record->>'CommitmentDiscountId', s.record->>'AllocatedResourceId']) AS i(v)
                    WHERE i.v ~ E'^[ \t\r\n]|[ \t\r\n]$')),
  changed AS (
    SELECT c.id, c.tenant, c.new_hash FROM cand c WHERE c.new_hash IS NOT NULL AND c.new_hash <> c.row_hash),
  numbered AS (
    SELECT g.id, g.h, pg_catalog.row_number() OVER (PARTITION BY g.tenant, g.h ORDER BY g.id)::int4 AS occurrence
      FROM (SELECT c.id, c.tenant, c.new_hash AS h FROM changed c
            UNION ALL
            SELECT t.id, t.tenant, t.row_hash FROM %1$s t
             WHERE (t.tenant, t.row_hash) IN (SELECT c.tenant, c.new_hash FROM changed c)
               AND t.id NOT IN (SELECT c.id FROM changed c)) AS g),
  moved AS (
    UPDATE %1$s s SET row_hash = n.h, occurrence = -n.occurrence
      FROM numbered n WHERE s.id = n.id RETURNING 1)
  SELECT pg_catalog.count(*) FILTER (WHERE c.new_hash IS NULL)
    FROM cand c, (SELECT pg_catalog.count(*) FROM moved) AS m
    $q$, t) INTO n;
    unverified := unverified + n;
    EXECUTE pg_catalog.format('UPDATE %s SET occurrence = -occurrence WHERE occurrence < 0', t);
  END LOOP;
  IF unverified > 0 THEN
    RAISE NOTICE '% FOCUS lines keep their 0.4.0 charge identity: their line could not be rebuilt from what is stored', unverified
      USING HINT = 'A re-delivery of those lines whose identifiers differ only in case or blanks may be stored as new charges.';
  END IF;
END
$rekey$;
DROP FUNCTION llm_econ._focus_charge_rekey(jsonb, text);

-- issue 47: mode replace finds a statement's stored lines by billing period and tenant, not by
-- period alone (which read every tenant's lines of the month on each load).
-- (through _update_ddl: on Citus, the shards of spend get the new index too)
SELECT llm_econ._update_ddl('DROP INDEX llm_econ.spend_billing_period');
SELECT llm_econ._update_ddl('CREATE INDEX spend_billing_period ON llm_econ.spend (billing_period_start, tenant)');

-- issue 42/45 (one price lookup, runs rent whole machines): _latest_prices gains include_suspect
-- (suspect prices out of every lookup), cheapest_offers returns instances and billed_gpus.  The
-- lookup's dependents inside the extension (_plan_offers) go with it; src/sql defines all again.
SELECT llm_econ._update_drop_check('function', 'llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text, interval, text[], boolean)');
DROP FUNCTION IF EXISTS llm_econ.cheapest_offers(llm_econ.run_spec, timestamptz, text, interval, text[], boolean);
SELECT llm_econ._update_drop_check('function', 'llm_econ._plan_offers(timestamptz, text, interval)');
DROP FUNCTION IF EXISTS llm_econ._plan_offers(timestamptz, text, interval);
SELECT llm_econ._update_drop_check('function', 'llm_econ._latest_prices(text, text, text, timestamptz, text, text, interval)');
DROP FUNCTION IF EXISTS llm_econ._latest_prices(text, text, text, timestamptz, text, text, interval);
