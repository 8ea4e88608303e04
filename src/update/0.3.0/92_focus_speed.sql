-- 92_focus_speed.sql: the staged FOCUS load inserts from C when it can (_focus_staged_insert) and falls back to INSERT ... ON CONFLICT on a stored charge; a refusal gives the GRANT in a HINT (_focus_refusal returns {message, hint}); one row type, llm_econ._focus_line, for _focus_lines, _focus_staged_rows and the importers' temporary table. It carries the final definitions of those functions and of _focus_store, _focus_temp, import_focus and load_focus, so 30_finance.sql no longer creates them.

-- FOCUS lines typed in C: periods (UTC when no offset is written, date-only included), the provider
-- key (AWS -> aws, Microsoft -> azure, ...), pricing, the GPU machine (SkuPriceDetails' InstanceType,
-- else a word of ChargeDescription that is a machine-type alias: AWS writes "... per On Demand Linux
-- p5.48xlarge Instance Hour"), GPUs per machine (SkuPriceDetails' GpuCount, a whole number, else the
-- alias's), GPU-hours, amounts, the run (Tags run_id, x_run_id column, Tags x_run_id), and the charge
-- identity (row_hash).  The first bad line is an error naming the line and the column.
CREATE TYPE llm_econ._focus_line AS (
    line int4, record jsonb, charge_period_start timestamptz, charge_period_end timestamptz,
    billing_period_start timestamptz, billing_period_end timestamptz, provider text, service_name text,
    service_category text, charge_category text, charge_description text, pricing_category text, pricing text,
    region text, sku text, instance_type text, gpus_per_instance int4, gpu_type text, consumed_quantity numeric,
    consumed_unit text, gpu_hours numeric, billed_cost numeric, effective_cost numeric, list_cost numeric,
    billing_currency text, run_id text, resource_id text, tags jsonb, billing_account_id text, row_hash text,
    occurrence int4
);
COMMENT ON TYPE llm_econ._focus_line IS
  'internal: a FOCUS line typed for llm_econ.spend (what _focus_lines and _focus_staged_rows return, and the importers'' temporary table holds): the file line, record, the typed columns, gpu_type (for a SKU not found from the machine type), the charge identity row_hash, and occurrence (the k-th line of the file with that identity; NULL from _focus_lines, whose caller numbers the copies)';
COMMENT ON COLUMN llm_econ._focus_line.line IS 'the line of the file (the first physical line of the record)';
COMMENT ON COLUMN llm_econ._focus_line.record IS 'the columns no typed column holds, header name -> value';
COMMENT ON COLUMN llm_econ._focus_line.charge_period_start IS 'ChargePeriodStart (UTC when no offset is written)';
COMMENT ON COLUMN llm_econ._focus_line.charge_period_end IS 'ChargePeriodEnd';
COMMENT ON COLUMN llm_econ._focus_line.billing_period_start IS 'BillingPeriodStart';
COMMENT ON COLUMN llm_econ._focus_line.billing_period_end IS 'BillingPeriodEnd';
COMMENT ON COLUMN llm_econ._focus_line.provider IS 'the provider key of ServiceProviderName or ProviderName';
COMMENT ON COLUMN llm_econ._focus_line.service_name IS 'ServiceName';
COMMENT ON COLUMN llm_econ._focus_line.service_category IS 'ServiceCategory';
COMMENT ON COLUMN llm_econ._focus_line.charge_category IS 'ChargeCategory';
COMMENT ON COLUMN llm_econ._focus_line.charge_description IS 'ChargeDescription';
COMMENT ON COLUMN llm_econ._focus_line.pricing_category IS 'PricingCategory';
COMMENT ON COLUMN llm_econ._focus_line.pricing IS 'on_demand, spot or reserved, from PricingCategory';
COMMENT ON COLUMN llm_econ._focus_line.region IS 'RegionId, else Region';
COMMENT ON COLUMN llm_econ._focus_line.sku IS 'the gpu_sku key of the machine type, when it is a known alias';
COMMENT ON COLUMN llm_econ._focus_line.instance_type IS 'the GPU machine type (alias spelling)';
COMMENT ON COLUMN llm_econ._focus_line.gpus_per_instance IS 'GPUs of the machine (SkuPriceDetails GpuCount, else the aliass)';
COMMENT ON COLUMN llm_econ._focus_line.gpu_type IS 'SkuPriceDetails GpuType: the SKU is looked up from it when the machine type gives none';
COMMENT ON COLUMN llm_econ._focus_line.consumed_quantity IS 'ConsumedQuantity';
COMMENT ON COLUMN llm_econ._focus_line.consumed_unit IS 'ConsumedUnit';
COMMENT ON COLUMN llm_econ._focus_line.gpu_hours IS 'ConsumedQuantity in hours x GPUs, for GPU machine lines';
COMMENT ON COLUMN llm_econ._focus_line.billed_cost IS 'BilledCost';
COMMENT ON COLUMN llm_econ._focus_line.effective_cost IS 'EffectiveCost';
COMMENT ON COLUMN llm_econ._focus_line.list_cost IS 'ListCost';
COMMENT ON COLUMN llm_econ._focus_line.billing_currency IS 'BillingCurrency';
COMMENT ON COLUMN llm_econ._focus_line.run_id IS 'the run: Tags run_id, x_run_id column, Tags x_run_id';
COMMENT ON COLUMN llm_econ._focus_line.resource_id IS 'ResourceId, else AllocatedResourceId';
COMMENT ON COLUMN llm_econ._focus_line.tags IS 'Tags as a JSON object';
COMMENT ON COLUMN llm_econ._focus_line.billing_account_id IS 'BillingAccountId';
COMMENT ON COLUMN llm_econ._focus_line.row_hash IS 'the charge identity (md5 hex)';
COMMENT ON COLUMN llm_econ._focus_line.occurrence IS 'the k-th line of the file with this charge identity; NULL from _focus_lines';

CREATE OR REPLACE FUNCTION llm_econ._focus_refusal(fn text, who text, replacing boolean, staged boolean) RETURNS text[]
LANGUAGE sql STABLE
AS $$
  SELECT CASE
    WHEN NOT pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT')
      THEN ARRAY[pg_catalog.format('%s needs INSERT on llm_econ.spend', $1),
                 pg_catalog.format('GRANT INSERT ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN NOT pg_catalog.has_sequence_privilege('llm_econ.spend_id_seq', 'USAGE')
      THEN ARRAY[pg_catalog.format('%s needs USAGE on sequence llm_econ.spend_id_seq', $1),
                 pg_catalog.format('GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO %I;', CURRENT_USER)]
    WHEN $3 AND NOT (pg_catalog.has_table_privilege('llm_econ.spend', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.spend', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s with a delivery replaces earlier lines and needs SELECT and DELETE on llm_econ.spend', $1),
                 pg_catalog.format('GRANT SELECT, DELETE ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN $4 AND NOT (pg_catalog.has_table_privilege('llm_econ.focus_staging', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.focus_staging', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s needs SELECT and DELETE on llm_econ.focus_staging', $1),
                 pg_catalog.format('GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO %I;', CURRENT_USER)]
    WHEN pg_catalog.row_security_active('llm_econ.spend') AND NOT llm_econ._is_tenant_member($2)
      THEN ARRAY[pg_catalog.format('%s: role %I may not write the lines of tenant %I (not a member of that role)', $1, CURRENT_USER, $2),
                 pg_catalog.format('Pass the tenant of a role %I is a member of, or GRANT %I TO %I;', CURRENT_USER, $2, CURRENT_USER)]
  END
$$;
COMMENT ON FUNCTION llm_econ._focus_refusal(text, text, boolean, boolean) IS
  'internal: why the current role may not import FOCUS lines for a tenant (a missing grant, or not a member of the tenant role) and the GRANT that would let it, as {message, hint}; NULL when it may';

CREATE OR REPLACE FUNCTION llm_econ._focus_lines(csv text, what text) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_lines_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_lines(text, text) IS
  'internal: the data lines of a FOCUS CSV text typed for llm_econ.spend, with their charge identity; 22023 naming the line and column of the first bad line';

CREATE OR REPLACE FUNCTION llm_econ._focus_staged_rows(what text, part int4) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_staged_rows_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_rows(text, int4) IS
  'internal: the current role''s focus_staging lines typed as _focus_lines types a text, with each line''s occurrence (k-th line of the file with its charge identity), one row per call so that INSERT ... SELECT streams; part 1 starts a load, parts 2, 3, ... (later statements of the transaction) continue it, work_mem / 64 lines each, until _focus_staged_done() is not NULL; copies are counted in a hash table of at most work_mem x hash_mem_multiplier (as PostgreSQL bounds its own hash tables), the lines of identities that do not fit are numbered in later rounds from a tuplestore';

CREATE OR REPLACE FUNCTION llm_econ._focus_staged_insert(what text, who text, source text, delivery text) RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_insert_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_insert(text, text, text, text) IS
  'internal: inserts the current role''s focus_staging lines, typed and numbered as _focus_staged_rows does, into spend for tenant who from C (heap in batches; constraints, indexes, triggers and the foreign key as for an INSERT) with no ON CONFLICT: a stored charge is a unique violation of spend_one_line; then deletes the staged lines it loaded (each as it reads it, or by load_focus''s DELETE when a trigger, rule or missing DELETE privilege says that statement must run); the lines inserted, or NULL (nothing done) when this INSERT could not be exactly the SQL one (other policies, BEFORE row triggers, a partitioned or distributed spend, ...)';

CREATE OR REPLACE FUNCTION llm_econ._focus_store(who text, source text, delivery text,
    OUT inserted bigint, OUT skipped bigint, OUT replaced bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
BEGIN
  PERFORM llm_econ._focus_temp();
  replaced := 0;
  IF _focus_store.delivery IS NOT NULL THEN
    WITH periods AS (SELECT DISTINCT f.provider, f.billing_account_id, f.billing_period_start FROM llm_econ_focus_lines f),
         gone AS (
           DELETE FROM llm_econ.spend s USING periods p
            WHERE s.tenant = who AND s.provider = p.provider
              AND s.billing_account_id IS NOT DISTINCT FROM p.billing_account_id
              AND (s.billing_period_start = p.billing_period_start
                   OR (s.billing_period_start IS NULL AND p.billing_period_start IS NULL))
              AND s.delivery IS DISTINCT FROM _focus_store.delivery
           RETURNING 1)
    SELECT count(*) INTO replaced FROM gone;
  END IF;
  WITH numbered AS (
         SELECT f.*, row_number() OVER (PARTITION BY f.row_hash ORDER BY f.line) AS nth
           FROM llm_econ_focus_lines f),
       ins AS (
         INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
                billing_period_end, provider, service_name, service_category, charge_category, charge_description,
                pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
                consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
                resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
         SELECT who, n.charge_period_start, n.charge_period_end, n.billing_period_start, n.billing_period_end,
                n.provider, n.service_name, n.service_category, n.charge_category, n.charge_description,
                n.pricing_category, n.pricing, n.region,
                coalesce(n.sku, CASE WHEN n.gpu_type IS NOT NULL THEN llm_econ._sku_find(n.gpu_type) END),
                n.instance_type, n.gpus_per_instance, n.consumed_quantity, n.consumed_unit, n.gpu_hours,
                n.billed_cost, n.effective_cost, n.list_cost, n.billing_currency, n.run_id, n.resource_id, n.tags,
                n.record, _focus_store.source, n.line, n.row_hash, n.nth, n.billing_account_id,
                _focus_store.delivery
           FROM numbered n
          ORDER BY n.line                      -- ids follow the file, not the identities' order
         ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING
         RETURNING 1)
  SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM llm_econ_focus_lines) - (SELECT count(*) FROM ins)
    INTO inserted, skipped;
  TRUNCATE llm_econ_focus_lines;
END $$;
COMMENT ON FUNCTION llm_econ._focus_store(text, text, text) IS
  'internal: stores the typed FOCUS lines of the temporary table llm_econ_focus_lines (replacing earlier deliveries of the same periods when a delivery is given)';

CREATE OR REPLACE FUNCTION llm_econ._focus_temp() RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF pg_catalog.to_regclass('pg_temp.llm_econ_focus_lines') IS NOT NULL THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE llm_econ_focus_lines OF llm_econ._focus_line ON COMMIT DROP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_temp() IS 'internal: creates the transaction''s temporary table of typed FOCUS lines unless it exists';

CREATE OR REPLACE FUNCTION llm_econ.import_focus(focus_csv text, tenant text DEFAULT NULL, source text DEFAULT NULL,
    delivery text DEFAULT NULL, OUT inserted bigint, OUT skipped bigint, OUT replaced bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(import_focus.tenant, CURRENT_USER);
  refusal constant text[] := llm_econ._focus_refusal('import_focus', who, import_focus.delivery IS NOT NULL, false);
BEGIN
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF focus_csv IS NULL THEN
    RAISE EXCEPTION 'focus_csv must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF import_focus.delivery IS NOT NULL AND btrim(import_focus.delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines;
  INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_lines(focus_csv, 'focus_csv');
  SELECT s.inserted, s.skipped, s.replaced INTO inserted, skipped, replaced
    FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery) AS s;
END $$;
COMMENT ON FUNCTION llm_econ.import_focus(text, text, text, text) IS
  'imports a FOCUS 1.0-1.3 cost-and-usage CSV into spend for tenant (default: the current role): every line kept (typed columns, the other columns in record), GPU-hours for GPU instance lines, run_id from tags; all or nothing. '
  'Charges already stored for the tenant (the same FOCUS values, however the file writes them) are counted as skipped; '
  'with a delivery label, the lines earlier deliveries left for the same provider, billing account and billing period are replaced (counted in replaced), and files of one delivery add up';

CREATE OR REPLACE FUNCTION llm_econ.load_focus(tenant text DEFAULT NULL, source text DEFAULT NULL, delivery text DEFAULT NULL,
    OUT inserted bigint, OUT skipped bigint, OUT replaced bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(load_focus.tenant, CURRENT_USER);
  refusal constant text[] := llm_econ._focus_refusal('load_focus', who, load_focus.delivery IS NOT NULL, true);
  part int4 := 0;
  n bigint;
  lines bigint;
BEGIN
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF load_focus.delivery IS NOT NULL AND btrim(load_focus.delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  replaced := 0;
  IF load_focus.delivery IS NOT NULL THEN
    -- a delivery replaces what earlier deliveries left for the file's billing periods: a first
    -- pass reads only the periods, so the lines are then loaded in one streaming INSERT as well
    WITH gone AS (
           DELETE FROM llm_econ.spend s USING llm_econ._focus_staged_periods('focus_staging') AS p
            WHERE s.tenant = who AND s.provider = p.provider
              AND s.billing_account_id IS NOT DISTINCT FROM p.billing_account_id
              AND (s.billing_period_start = p.billing_period_start
                   OR (s.billing_period_start IS NULL AND p.billing_period_start IS NULL))
              AND s.delivery IS DISTINCT FROM load_focus.delivery
           RETURNING 1)
    SELECT count(*) INTO replaced FROM gone;
  END IF;
  -- first from C, with no ON CONFLICT (most loads bring only new charges), which also empties
  -- the role's staged lines; a charge already stored (a unique violation of spend_one_line) rolls
  -- that back, and the SQL path below loads the file again, skipping what is stored
  DECLARE
    conflict text;
    conflict_table text;
    conflict_schema text;
  BEGIN
    SELECT llm_econ._focus_staged_insert('focus_staging', who, load_focus.source, load_focus.delivery) INTO inserted;
  EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS conflict = CONSTRAINT_NAME, conflict_table = TABLE_NAME, conflict_schema = SCHEMA_NAME;
    IF conflict IS DISTINCT FROM 'spend_one_line' OR conflict_table IS DISTINCT FROM 'spend'
       OR conflict_schema IS DISTINCT FROM 'llm_econ' THEN
      RAISE;
    END IF;
    inserted := NULL;
  END;
  IF inserted IS NOT NULL THEN
    skipped := 0;
    RETURN;
  END IF;
  -- the typed lines stream from the staging table into spend (no temporary table, no sort:
  -- copies of a charge are numbered while typing), in INSERTs of at most work_mem / 64 lines each,
  -- so that the after-row checks PostgreSQL queues until the end of a statement stay bounded
  inserted := 0;
  LOOP
    part := part + 1;
    INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
           billing_period_end, provider, service_name, service_category, charge_category, charge_description,
           pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
           consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
           resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
    SELECT who, (x.r).charge_period_start, (x.r).charge_period_end, (x.r).billing_period_start,
           (x.r).billing_period_end, (x.r).provider, (x.r).service_name, (x.r).service_category,
           (x.r).charge_category, (x.r).charge_description, (x.r).pricing_category, (x.r).pricing, (x.r).region,
           coalesce((x.r).sku, CASE WHEN (x.r).gpu_type IS NOT NULL THEN llm_econ._sku_find((x.r).gpu_type) END),
           (x.r).instance_type, (x.r).gpus_per_instance, (x.r).consumed_quantity, (x.r).consumed_unit,
           (x.r).gpu_hours, (x.r).billed_cost, (x.r).effective_cost, (x.r).list_cost, (x.r).billing_currency,
           (x.r).run_id, (x.r).resource_id, (x.r).tags, (x.r).record, load_focus.source, (x.r).line,
           (x.r).row_hash, (x.r).occurrence, (x.r).billing_account_id, load_focus.delivery
      FROM (SELECT llm_econ._focus_staged_rows('focus_staging', part) AS r OFFSET 0) AS x
    ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    inserted := inserted + n;
    lines := llm_econ._focus_staged_done();
    EXIT WHEN lines IS NOT NULL;
  END LOOP;
  skipped := lines - inserted;
  DELETE FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER;
END $$;
COMMENT ON FUNCTION llm_econ.load_focus(text, text, text) IS
  'loads the FOCUS file the current role staged in focus_staging (\copy llm_econ.focus_stage (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e'')) as import_focus imports a text, streaming, then deletes the staged lines it loaded; all or nothing (nothing staged: 0 lines)';

