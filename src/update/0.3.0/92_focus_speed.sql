-- 92_focus_speed.sql: the staged FOCUS load inserts from C when it can (_focus_staged_insert) and falls back to INSERT ... ON CONFLICT on a stored charge; a refusal gives the GRANT in a HINT (_focus_refusal returns {message, hint}). It carries the final definitions of _focus_refusal, import_focus and load_focus, so 30_finance.sql no longer creates them.

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

CREATE OR REPLACE FUNCTION llm_econ._focus_staged_insert(what text, who text, source text, delivery text) RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_insert_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_insert(text, text, text, text) IS
  'internal: inserts the current role''s focus_staging lines, typed and numbered as _focus_staged_rows does, into spend for tenant who from C (heap in batches; constraints, indexes, triggers and the foreign key as for an INSERT) with no ON CONFLICT: a stored charge is a unique violation of spend_one_line; the lines inserted, or NULL (nothing done) when this INSERT could not be exactly the SQL one (other policies, BEFORE row triggers, a partitioned or distributed spend, ...)';

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
              AND s.billing_period_start IS NOT DISTINCT FROM p.billing_period_start
              AND s.delivery IS DISTINCT FROM load_focus.delivery
           RETURNING 1)
    SELECT count(*) INTO replaced FROM gone;
  END IF;
  -- first from C, with no ON CONFLICT (most loads bring only new charges); a charge already
  -- stored (a unique violation of spend_one_line) rolls that back, and the SQL path below loads
  -- the file again, skipping what is stored
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
    DELETE FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER;
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
  'loads the FOCUS file the current role staged in focus_staging (\copy ... (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e'')) as import_focus imports a text, streaming, then empties the role''s staged lines; all or nothing (nothing staged: 0 lines)';

