-- Finance: planned runs frozen at plan time, FOCUS billing lines, plan vs actual, row-level security by tenant.

-- Tenants are roles: a row belongs to the role in its "tenant" column, and a user sees and
-- writes the rows of every tenant role it is a member of (row-level security below).  The
-- table owner and superusers see everything.
CREATE OR REPLACE FUNCTION llm_econ._is_tenant_member(tenant text) RETURNS boolean
AS 'MODULE_PATHNAME', 'le_is_tenant_member_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._is_tenant_member(text) IS
  'internal: whether the current user is a member of the tenant role (false when no such role exists); the row-level security test';
COMMENT ON TABLE llm_econ.run_plan IS
  'planned runs, keyed by (tenant, run_id): the spec and the price in effect at planned_at, GPU-hours and USD frozen when planned';
COMMENT ON COLUMN llm_econ.run_plan.run_id IS 'the run''s id within its tenant; billing lines of the tenant name it in the run_id tag';
COMMENT ON COLUMN llm_econ.run_plan.spec IS 'the run (run_spec, hardware frozen when built)';
COMMENT ON COLUMN llm_econ.run_plan.provider IS 'where it runs (lower case)';
COMMENT ON COLUMN llm_econ.run_plan.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.run_plan.region IS 'region; NULL = cheapest region';
COMMENT ON COLUMN llm_econ.run_plan.planned_at IS 'when the plan was made: the price in effect then is frozen';
COMMENT ON COLUMN llm_econ.run_plan.usd_per_gpu_hour IS 'the price planned with, per GPU-hour of the run''s GPUs: given, or when inserted as NULL the provider''s cheapest machine for the run at planned_at (whole machines, idle GPUs paid; estimate_cost(spec, provider, ...))';
COMMENT ON COLUMN llm_econ.run_plan.planned_gpu_hours IS 'gpu_hours(spec), frozen';
COMMENT ON COLUMN llm_econ.run_plan.planned_usd IS 'estimate_cost(spec, usd_per_gpu_hour), frozen';
COMMENT ON COLUMN llm_econ.run_plan.tenant IS 'the role that owns the plan (row-level security)';
COMMENT ON COLUMN llm_econ.run_plan.team IS 'free-form team name';
COMMENT ON COLUMN llm_econ.run_plan.notes IS 'free-form notes';

-- Freezes a plan.  A new plan (planned_usd or planned_gpu_hours not given), or an update that
-- changes what it was priced from: checks the SKU (it may have been built by hand), fills the
-- price from the price table when it is NULL, and computes GPU-hours and USD from the row, so
-- later edits of gpu_sku or price_snapshot never change a plan.  A row that arrives frozen
-- (pg_restore, a copy between databases) keeps its values: restoring must not re-price a plan
-- or fail because its SKU was renamed or deleted since.
-- STABLE: every row of one INSERT is priced from the statement's snapshot.
CREATE OR REPLACE FUNCTION llm_econ._freeze_plan() RETURNS trigger
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NEW.spec IS NULL THEN
    RAISE EXCEPTION 'spec must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._check_spec(NEW.spec);             -- a hand-built spec is checked like the constructor's
  IF TG_OP = 'INSERT' AND NEW.planned_usd IS NOT NULL AND NEW.planned_gpu_hours IS NOT NULL
     AND NEW.usd_per_gpu_hour IS NOT NULL THEN
    -- already frozen: keep the values, but only sane ones
    IF NOT (NEW.planned_gpu_hours >= 0::float8 AND NEW.planned_gpu_hours < 'Infinity'::float8) THEN
      RAISE EXCEPTION 'planned_gpu_hours must be in [0, Infinity), got %', NEW.planned_gpu_hours
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT (NEW.planned_usd >= 0::numeric AND NEW.planned_usd < 'Infinity'::numeric) THEN
      RAISE EXCEPTION 'planned_usd must be in [0, Infinity), got %', NEW.planned_usd
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- and only values this spec and price give (to a millionth: a later version may round differently)
    IF pg_catalog.abs(NEW.planned_gpu_hours - llm_econ.gpu_hours(NEW.spec)) > 1e-6::float8 * greatest(1::float8, NEW.planned_gpu_hours)
       OR pg_catalog.abs(NEW.planned_usd - llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour))
          > 0.000001::numeric * greatest(1::numeric, NEW.planned_usd) THEN
      RAISE EXCEPTION 'planned_gpu_hours and planned_usd must be what the spec and usd_per_gpu_hour give'
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = pg_catalog.format('Got %s GPU-hours and %s USD; the spec gives %s GPU-hours and %s USD.',
                              NEW.planned_gpu_hours, NEW.planned_usd, llm_econ.gpu_hours(NEW.spec),
                              llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour)),
              HINT = 'Leave them NULL: they are computed when the plan is made.';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.spec::text = OLD.spec::text AND NEW.provider = OLD.provider AND NEW.pricing = OLD.pricing
       AND NEW.region IS NOT DISTINCT FROM OLD.region AND NEW.planned_at = OLD.planned_at
       AND NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour THEN
      -- nothing the plan was priced from changed (notes, team, ...): it stays frozen, and a
      -- hand edit of planned_usd or planned_gpu_hours is undone
      NEW.planned_usd := OLD.planned_usd;
      NEW.planned_gpu_hours := OLD.planned_gpu_hours;
      RETURN NEW;
    END IF;
    -- the provider, pricing, region, planned_at or the spec's SKU changed and the UPDATE did not
    -- set the price itself: the plan is re-priced from the price table, never left at the old price
    IF NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour
       AND (NEW.provider <> OLD.provider OR NEW.pricing <> OLD.pricing
            OR NEW.region IS DISTINCT FROM OLD.region OR NEW.planned_at <> OLD.planned_at
            OR (NEW.spec).sku IS DISTINCT FROM (OLD.spec).sku) THEN
      NEW.usd_per_gpu_hour := NULL;
    END IF;
  END IF;
  PERFORM llm_econ._sku_key((NEW.spec).sku);          -- unknown SKU: 22023 with close matches
  IF NEW.usd_per_gpu_hour IS NULL THEN
    -- the run rents whole machines: what it pays per GPU-hour of its own GPUs at the machine that
    -- makes it cheapest (estimate_cost(spec, provider, ...)'s price; idle GPUs paid)
    PERFORM llm_econ._check_name(NEW.provider, 'provider'), llm_econ._check_name(NEW.region, 'region');
    NEW.usd_per_gpu_hour := llm_econ._run_price(llm_econ._sku_key((NEW.spec).sku), (NEW.spec).n_gpus, (NEW.spec).gpus_per_node,
                                                pg_catalog.lower(pg_catalog.btrim(NEW.provider) COLLATE pg_catalog."C"),
                                                llm_econ._check_pricing(NEW.pricing), NEW.planned_at, NEW.region, NULL);
    IF NEW.usd_per_gpu_hour IS NULL THEN
      PERFORM llm_econ._check_where(NEW.provider, NEW.region);   -- unknown provider or region: 22023 with close matches
      IF llm_econ.price_at((NEW.spec).sku, NEW.provider, NEW.pricing, NEW.planned_at, NEW.region) IS NOT NULL THEN
        RAISE EXCEPTION 'no machine of provider "%" priced for sku "%" can carry a run of % GPUs', NEW.provider,
                        (NEW.spec).sku, (NEW.spec).n_gpus
          USING ERRCODE = 'invalid_parameter_value',
                DETAIL = pg_catalog.format('A run rents whole machines; beyond one machine it needs machines of at least gpus_per_node (%s) GPUs.',
                                           (NEW.spec).gpus_per_node),
                HINT = 'Give usd_per_gpu_hour, or plan the run on fewer GPUs.';
      END IF;
      RAISE EXCEPTION 'no % price is known for sku "%" from provider "%" at %', NEW.pricing, (NEW.spec).sku,
                      NEW.provider, NEW.planned_at
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Give usd_per_gpu_hour, or add the price to llm_econ.price_snapshot.';
    END IF;
  END IF;
  NEW.planned_usd := llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour);   -- checks the spec and the price
  NEW.planned_gpu_hours := llm_econ.gpu_hours(NEW.spec);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._freeze_plan() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._freeze_plan() IS
  'trigger: validates a plan and freezes its price, GPU-hours and USD; an UPDATE of what or where it runs re-prices it';

CREATE OR REPLACE TRIGGER run_plan_freeze BEFORE INSERT OR UPDATE ON llm_econ.run_plan
    FOR EACH ROW EXECUTE FUNCTION llm_econ._freeze_plan();

COMMENT ON TABLE llm_econ.spend IS
  'billed lines (FOCUS cost-and-usage rows), every line kept: typed columns, the other columns in record; GPU lines carry sku and gpu_hours';
COMMENT ON COLUMN llm_econ.spend.id IS 'surrogate key, in import order';
COMMENT ON COLUMN llm_econ.spend.tenant IS 'the role that owns the line (row-level security)';
COMMENT ON COLUMN llm_econ.spend.charge_period_start IS 'FOCUS ChargePeriodStart (inclusive; UTC when the file gives no offset)';
COMMENT ON COLUMN llm_econ.spend.charge_period_end IS 'FOCUS ChargePeriodEnd (exclusive)';
COMMENT ON COLUMN llm_econ.spend.billing_period_start IS 'FOCUS BillingPeriodStart';
COMMENT ON COLUMN llm_econ.spend.billing_period_end IS 'FOCUS BillingPeriodEnd';
COMMENT ON COLUMN llm_econ.spend.provider IS 'ServiceProviderName (FOCUS 1.3) or ProviderName, lower case; aws, azure, gcp, oci for the big four';
COMMENT ON COLUMN llm_econ.spend.service_name IS 'FOCUS ServiceName';
COMMENT ON COLUMN llm_econ.spend.service_category IS 'FOCUS ServiceCategory';
COMMENT ON COLUMN llm_econ.spend.charge_category IS 'FOCUS ChargeCategory (Usage, Purchase, Tax, Credit, Adjustment)';
COMMENT ON COLUMN llm_econ.spend.charge_description IS 'FOCUS ChargeDescription';
COMMENT ON COLUMN llm_econ.spend.pricing_category IS 'FOCUS PricingCategory (Standard, Dynamic, Committed, Other)';
COMMENT ON COLUMN llm_econ.spend.pricing IS 'on_demand (Standard), spot (Dynamic) or reserved (Committed)';
COMMENT ON COLUMN llm_econ.spend.region IS 'FOCUS RegionId';
COMMENT ON COLUMN llm_econ.spend.sku IS 'gpu_sku key, for GPU instance lines';
COMMENT ON COLUMN llm_econ.spend.instance_type IS 'the GPU machine type found in SkuPriceDetails or the charge description';
COMMENT ON COLUMN llm_econ.spend.gpus_per_instance IS 'GPUs of that machine type (SkuPriceDetails GpuCount, else gpu_sku_alias)';
COMMENT ON COLUMN llm_econ.spend.consumed_quantity IS 'FOCUS ConsumedQuantity';
COMMENT ON COLUMN llm_econ.spend.consumed_unit IS 'FOCUS ConsumedUnit';
COMMENT ON COLUMN llm_econ.spend.gpu_hours IS
  'ConsumedQuantity (hours) x GPUs per instance, for lines that bill a GPU machine or GPU (docs/finance.md); negative on corrections';
COMMENT ON COLUMN llm_econ.spend.billed_cost IS 'FOCUS BilledCost (cash), exact';
COMMENT ON COLUMN llm_econ.spend.effective_cost IS 'FOCUS EffectiveCost (amortised), exact';
COMMENT ON COLUMN llm_econ.spend.list_cost IS 'FOCUS ListCost';
COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency (ISO 4217, stored upper case); views convert with fx_rate, NULL counts as USD';
COMMENT ON COLUMN llm_econ.spend.run_id IS
  'the run: the Tags key that names it (setting llm_econ.run_tag_keys; docs/finance.md), else the x_run_id column; NULL when empty';
COMMENT ON COLUMN llm_econ.spend.resource_id IS 'FOCUS ResourceId';
COMMENT ON COLUMN llm_econ.spend.tags IS 'FOCUS Tags (JSON object)';
COMMENT ON COLUMN llm_econ.spend.record IS
  'the line''s other columns that have a value: header name -> text as written';
COMMENT ON COLUMN llm_econ.spend.source IS 'the import''s source label';
COMMENT ON COLUMN llm_econ.spend.line IS 'line of the file the row came from';
COMMENT ON COLUMN llm_econ.spend.row_hash IS
  'the charge identity: md5 of the FOCUS fields as values, not of the raw line; with occurrence, what makes re-imports idempotent';
COMMENT ON COLUMN llm_econ.spend.occurrence IS 'which copy of the same charge within the file (1, 2, ...)';
COMMENT ON COLUMN llm_econ.spend.imported_at IS 'when the line was imported';
COMMENT ON COLUMN llm_econ.spend.billing_account_id IS 'FOCUS BillingAccountId: with provider and billing period, what a restated delivery replaces';
COMMENT ON COLUMN llm_econ.spend.delivery IS 'the import''s delivery label: a later delivery of the same billing period and account replaces this one''s lines (NULL: added to, never replacing)';
DROP POLICY IF EXISTS run_plan_tenant ON llm_econ.run_plan;
CREATE POLICY run_plan_tenant ON llm_econ.run_plan
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));
DROP POLICY IF EXISTS spend_tenant ON llm_econ.spend;
CREATE POLICY spend_tenant ON llm_econ.spend
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));
COMMENT ON TABLE llm_econ.focus_statement_lock IS
  'internal: one row per statement FOCUS loads stored; a load locks its statements'' rows (only the tenant''s writers can)';
COMMENT ON COLUMN llm_econ.focus_statement_lock.tenant IS 'the tenant whose statement this is (row-level security)';
COMMENT ON COLUMN llm_econ.focus_statement_lock.provider IS 'the statement''s provider key, as spend.provider';
COMMENT ON COLUMN llm_econ.focus_statement_lock.billing_account_id IS 'the statement''s billing account, as the load keys it';
COMMENT ON COLUMN llm_econ.focus_statement_lock.billing_period_start IS 'the statement''s billing period start';
DROP POLICY IF EXISTS focus_statement_lock_writer ON llm_econ.focus_statement_lock;
CREATE POLICY focus_statement_lock_writer ON llm_econ.focus_statement_lock
    USING (llm_econ._is_tenant_member(tenant) AND pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT'))
    WITH CHECK (llm_econ._is_tenant_member(tenant) AND pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT'));

-- A CSV text's header and lines (generic readers, kept for callers of 0.2.0).
CREATE OR REPLACE FUNCTION llm_econ._csv_header(csv text, what text) RETURNS text[]
AS 'MODULE_PATHNAME', 'le_csv_header_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
REVOKE EXECUTE ON FUNCTION llm_econ._csv_header(text, text) FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._csv_header(text, text) IS 'internal: the column names of a CSV text''s header line (22023 when empty or duplicated)';
CREATE OR REPLACE FUNCTION llm_econ._csv_records(csv text, what text, OUT line int4, OUT record jsonb) RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_csv_records_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
REVOKE EXECUTE ON FUNCTION llm_econ._csv_records(text, text) FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._csv_records(text, text) IS
  'internal: the data lines of a CSV text as (line, jsonb by header name); 22023 naming the line of malformed CSV';
COMMENT ON TABLE llm_econ.fx_rate IS
  'exchange rates into USD, each in effect from 00:00 UTC of valid_from until the currency''s next row; USD needs none';
COMMENT ON COLUMN llm_econ.fx_rate.currency IS 'ISO 4217 code, stored upper case (eur is EUR)';
COMMENT ON COLUMN llm_econ.fx_rate.valid_from IS 'the UTC day the rate takes effect (00:00 UTC, whatever the session''s TimeZone)';
COMMENT ON COLUMN llm_econ.fx_rate.usd_per_unit IS 'USD per one unit of the currency (EUR 1.0823 = 1 EUR buys 1.0823 USD), exact numeric';
COMMENT ON COLUMN llm_econ.fx_rate.source IS 'where the rate comes from (the provider''s invoice rate, a central bank reference rate, ...)';

-- Currency codes in any case: a rate written for usd or eur is stored as USD or EUR.
CREATE OR REPLACE FUNCTION llm_econ._fx_rate_upper() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  NEW.currency := pg_catalog.upper(NEW.currency COLLATE pg_catalog."C");
  RETURN NEW;
END $$;
COMMENT ON FUNCTION llm_econ._fx_rate_upper() IS 'internal: trigger upper-casing fx_rate.currency (eur is EUR)';
REVOKE EXECUTE ON FUNCTION llm_econ._fx_rate_upper() FROM PUBLIC;
CREATE OR REPLACE TRIGGER fx_rate_currency BEFORE INSERT OR UPDATE OF currency ON llm_econ.fx_rate
    FOR EACH ROW EXECUTE FUNCTION llm_econ._fx_rate_upper();

-- USD per unit of a currency at an instant: 1 for USD (and for a line that names no currency, as
-- 0.2.0 read every amount), else the fx_rate in effect, NULL when none is.
CREATE OR REPLACE FUNCTION llm_econ._usd_per_unit(currency text, at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN $1 IS NULL OR pg_catalog.upper($1 COLLATE pg_catalog."C") OPERATOR(pg_catalog.=) 'USD' THEN 1::numeric
              ELSE (SELECT f.usd_per_unit FROM llm_econ.fx_rate f
                     WHERE f.currency OPERATOR(pg_catalog.=) pg_catalog.upper($1 COLLATE pg_catalog."C") COLLATE pg_catalog."default"
                       AND f.valid_from OPERATOR(pg_catalog.<=) pg_catalog.timezone('UTC', $2)::date
                     ORDER BY f.valid_from DESC LIMIT 1) END;
END;
COMMENT ON FUNCTION llm_econ._usd_per_unit(text, timestamptz) IS
  'internal: USD per unit of a currency (any case) at an instant: 1 for USD or none, else the fx_rate in effect on its UTC day, or NULL';
COMMENT ON TYPE llm_econ._focus_line IS
  'internal: a FOCUS line typed for llm_econ.spend, as _focus_lines and _focus_staged_lines return it';
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
COMMENT ON COLUMN llm_econ._focus_line.run_id IS 'the run: the Tags key of setting llm_econ.run_tag_keys (case, _, - and a leading user: ignored), x_run_id column, Tags x_run_id; trimmed, NULL when empty';
COMMENT ON COLUMN llm_econ._focus_line.resource_id IS 'ResourceId, else AllocatedResourceId';
COMMENT ON COLUMN llm_econ._focus_line.tags IS 'Tags as a JSON object';
COMMENT ON COLUMN llm_econ._focus_line.billing_account_id IS 'BillingAccountId';
COMMENT ON COLUMN llm_econ._focus_line.row_hash IS 'the charge identity (md5 hex)';
COMMENT ON COLUMN llm_econ._focus_line.occurrence IS 'the k-th line of the call (a text, or one batch of staged lines) with this charge identity; _focus_store adds the copies of earlier batches';
COMMENT ON COLUMN llm_econ._focus_line.staged_id IS 'the focus_staging id of the record''s last line (NULL from _focus_lines)';
COMMENT ON COLUMN llm_econ._focus_line.last_line IS 'the file line of the record''s last line (NULL from _focus_lines)';

CREATE OR REPLACE FUNCTION llm_econ._focus_lines(csv text, what text) RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_lines_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_lines(text, text) IS
  'internal: the data lines of a FOCUS CSV text typed for llm_econ.spend; 22023 naming the line and column of the first bad line';
COMMENT ON TABLE llm_econ.focus_staging IS
  'staging for load_focus(): one line of a FOCUS file per row, verbatim; each writer sees and loads only its own; roles \copy into focus_stage';
COMMENT ON COLUMN llm_econ.focus_staging.id IS 'load order';
COMMENT ON COLUMN llm_econ.focus_staging.writer IS 'the role that staged the line (load_focus reads the current role''s lines only)';
COMMENT ON COLUMN llm_econ.focus_staging.line IS 'one physical line of the FOCUS CSV file, the header first';
DROP POLICY IF EXISTS focus_staging_writer ON llm_econ.focus_staging;
CREATE POLICY focus_staging_writer ON llm_econ.focus_staging
    USING (writer OPERATOR(pg_catalog.=) CURRENT_USER) WITH CHECK (writer OPERATOR(pg_catalog.=) CURRENT_USER);
-- PostgreSQL refuses COPY FROM into a table whose row-level security applies to the role ("COPY
-- FROM not supported with row-level security"): every role but the owner.  Roles \copy into this
-- view instead; its trigger inserts each line into focus_staging, under the policy above.  The view
-- shows nothing.
CREATE OR REPLACE VIEW llm_econ.focus_stage WITH (security_invoker = true) AS SELECT NULL::text AS line WHERE false;
COMMENT ON VIEW llm_econ.focus_stage IS
  'where roles \copy a FOCUS file for load_focus() (docs/finance.md); lines go into focus_staging; reading it gives none';
COMMENT ON COLUMN llm_econ.focus_stage.line IS 'one physical line of the FOCUS CSV file, the header first';
CREATE OR REPLACE FUNCTION llm_econ._focus_stage_line() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.focus_staging (line) VALUES (NEW.line);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._focus_stage_line() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._focus_stage_line() IS
  'internal: INSTEAD OF INSERT trigger of focus_stage: the line into focus_staging as the inserting role';
CREATE OR REPLACE TRIGGER focus_stage_line INSTEAD OF INSERT ON llm_econ.focus_stage
    FOR EACH ROW EXECUTE FUNCTION llm_econ._focus_stage_line();

CREATE OR REPLACE FUNCTION llm_econ._focus_staged_lines(what text, after_id int8, last_id int8, first_line int4)
RETURNS SETOF llm_econ._focus_line
AS 'MODULE_PATHNAME', 'le_focus_staged_lines_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_lines(text, int8, int8, int4) IS
  'internal: one batch of the current role''s staged FOCUS records, after_id to the one holding last_id (file line first_line on), typed as _focus_lines types a text';

CREATE OR REPLACE FUNCTION llm_econ._focus_charge_key(record jsonb) RETURNS text
AS 'MODULE_PATHNAME', 'le_focus_charge_key_fn' LANGUAGE C STABLE STRICT PARALLEL SAFE;
REVOKE EXECUTE ON FUNCTION llm_econ._focus_charge_key(jsonb) FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._focus_charge_key(jsonb) IS
  'internal: the charge identity (row_hash) of a whole original line given as jsonb, as an import computes it';

-- How a provider compares its identifiers (docs/finance.md, "How identifiers compare"): trimmed of
-- blanks (space, tab, CR, LF), and for Azure also without ASCII case (Azure billing account,
-- subscription and resource ids are case-insensitive); translate(), never lower() under the
-- database's collation.  NULL for NULL or blank.  Identifiers are stored as written.
CREATE OR REPLACE FUNCTION llm_econ._focus_id_key(provider text, id text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT NULLIF(CASE WHEN $1 OPERATOR(pg_catalog.=) 'azure'
              THEN pg_catalog.translate(pg_catalog.btrim($2, E' \t\r\n'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
              ELSE pg_catalog.btrim($2, E' \t\r\n') END, '');
END;
COMMENT ON FUNCTION llm_econ._focus_id_key(text, text) IS
  'internal: an account identifier as its provider compares it: trimmed; Azure''s also ASCII case-folded; NULL when blank';

-- The statements the typed lines of llm_econ_focus_lines cover, a (provider, billing account,
-- sub-account, billing period) with identifiers as their provider compares them: what mode
-- replace replaces (a per-subscription export does not replace another subscription's); and the
-- charge periods the lines of each cover, from the first start to the last end.
CREATE OR REPLACE FUNCTION llm_econ._focus_statements(OUT provider text, OUT billing_account_id text, OUT sub_account_id text,
    OUT billing_period_start timestamptz, OUT covered_from timestamptz, OUT covered_to timestamptz) RETURNS SETOF record
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  PERFORM llm_econ._focus_temp();
  RETURN QUERY
  SELECT f.provider, llm_econ._focus_id_key(f.provider, f.billing_account_id),
         llm_econ._focus_id_key(f.provider, f.record OPERATOR(pg_catalog.->>) 'SubAccountId'), f.billing_period_start,
         pg_catalog.min(f.charge_period_start), pg_catalog.max(f.charge_period_end)
    FROM llm_econ_focus_lines f GROUP BY 1, 2, 3, 4;
END $$;
COMMENT ON FUNCTION llm_econ._focus_statements() IS
  'internal: the statements (provider, billing account, sub-account, billing period) a batch of typed FOCUS lines covers, identifiers as their provider compares them, and the charge periods it covers of each';

-- Why the current role may not import for tenant who, and what would let it: {message, hint}, NULL
-- when it may.  Checked before any parsing, so a refusal is one line naming the grant or the tenant,
-- the GRANT to run in its HINT.
CREATE OR REPLACE FUNCTION llm_econ._focus_refusal(fn text, who text, replacing boolean, staged boolean) RETURNS text[]
LANGUAGE sql STABLE
BEGIN ATOMIC
  SELECT CASE
    WHEN NOT pg_catalog.has_table_privilege('llm_econ.spend', 'INSERT')
      THEN ARRAY[pg_catalog.format('%s needs INSERT on llm_econ.spend', $1),
                 pg_catalog.format('GRANT INSERT ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN NOT pg_catalog.has_sequence_privilege('llm_econ.spend_id_seq', 'USAGE')
      THEN ARRAY[pg_catalog.format('%s needs USAGE on sequence llm_econ.spend_id_seq', $1),
                 pg_catalog.format('GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq TO %I;', CURRENT_USER)]
    WHEN $3 AND NOT (pg_catalog.has_table_privilege('llm_econ.spend', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.spend', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s in mode replace replaces what was stored for the statements it loads and needs SELECT and DELETE on llm_econ.spend (mode append only adds)', $1),
                 pg_catalog.format('GRANT SELECT, DELETE ON llm_econ.spend TO %I;', CURRENT_USER)]
    WHEN $4 AND NOT (pg_catalog.has_table_privilege('llm_econ.focus_staging', 'SELECT') AND pg_catalog.has_table_privilege('llm_econ.focus_staging', 'DELETE'))
      THEN ARRAY[pg_catalog.format('%s needs SELECT and DELETE on llm_econ.focus_staging', $1),
                 pg_catalog.format('GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO %I;', CURRENT_USER)]
    WHEN pg_catalog.row_security_active('llm_econ.spend') AND NOT llm_econ._is_tenant_member($2)
      THEN ARRAY[pg_catalog.format('%s: role %I may not write the lines of tenant %I (not a member of that role)', $1, CURRENT_USER, $2),
                 pg_catalog.format('Pass the tenant of a role %I is a member of, or GRANT %I TO %I;', CURRENT_USER, $2, CURRENT_USER)]
  END;
END;
COMMENT ON FUNCTION llm_econ._focus_refusal(text, text, boolean, boolean) IS
  'internal: why the current role may not import FOCUS lines for a tenant, and the GRANT that would let it; NULL when it may';

-- The checks import_focus and load_focus make first, in this order: the mode, the role's rights
-- (_focus_refusal: the GRANT that would let it in the HINT), the delivery label.
CREATE OR REPLACE FUNCTION llm_econ._focus_admit(fn text, who text, mode text, delivery text, staged boolean) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  refusal text[];
BEGIN
  IF mode IS NULL OR mode NOT IN ('replace', 'append') THEN
    RAISE EXCEPTION 'mode must be replace or append, got %', coalesce(pg_catalog.quote_literal(mode), 'NULL')
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'replace: the file is the whole statement of each provider, billing account and billing period it covers; append: adds the charges not stored yet.';
  END IF;
  refusal := llm_econ._focus_refusal(fn, who, mode = 'replace', staged);
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION '%', refusal[1] USING ERRCODE = 'insufficient_privilege', HINT = refusal[2];
  END IF;
  IF delivery IS NOT NULL AND pg_catalog.btrim(delivery) = '' THEN
    RAISE EXCEPTION 'delivery must be NULL or a non-empty label' USING ERRCODE = 'invalid_parameter_value';
  END IF;
END $$;
COMMENT ON FUNCTION llm_econ._focus_admit(text, text, text, text, boolean) IS
  'internal: import_focus''s and load_focus''s checks of mode, rights (42501, the GRANT in the HINT) and delivery label';

-- Stores the typed lines of the temporary table llm_econ_focus_lines for tenant who, and empties
-- it: the one statement that inserts FOCUS lines into spend (PostgreSQL's own INSERT: every
-- constraint, partition bound, policy and trigger of spend applies).  Each statement the lines
-- cover, a (tenant, provider, billing account, billing period), is first locked (its row of
-- focus_statement_lock, taken in one order, so that two loads of one statement serialise) and, in mode
-- replace, emptied once per load: the load's lines are then its whole statement (a refresh or a
-- re-rated re-delivery leaves exactly the new file's lines).  The keys a load has seen are kept in
-- llm_econ_focus_keys, so that its later batches add to the statement they emptied.  The k-th
-- copy of a charge in the file is its occurrence k: the lines' own occurrence (within their batch)
-- plus, when a load comes in batches (counting), the copies its earlier batches had, kept in
-- llm_econ_focus_seen.  A stored charge is skipped (mode append: more parts of one delivery;
-- mode replace: only when counting).  Mode replace emptied every statement of its lines under the
-- load's lock, so it stores them by a plain INSERT: a stored copy of one (one of an earlier batch,
-- or a line another writer stored without the lock) is a unique violation, on which the caller
-- starts again counting, and the INSERT then skips stored charges as mode append does.  (Checking
-- each line for a conflict first took a tenth of the load.)
CREATE OR REPLACE FUNCTION llm_econ._focus_store(who text, source text, delivery text, counting boolean DEFAULT false,
    mode text DEFAULT 'replace', OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  key record;
  n bigint;
  b numeric;
  e numeric;
  q text;
  gone_from timestamptz;
  gone_to timestamptz;
  citus constant boolean := EXISTS (SELECT FROM pg_catalog.pg_extension x WHERE x.extname OPERATOR(pg_catalog.=) 'citus');
BEGIN
  PERFORM llm_econ._focus_temp();
  replaced := 0;
  INSERT INTO llm_econ_focus_keys AS k (provider, billing_account_id, sub_account_id, billing_period_start, lock_key, fresh,
         covered_from, covered_to)
  SELECT d.provider, d.billing_account_id, d.sub_account_id, d.billing_period_start,
         pg_catalog.hashtextextended(pg_catalog.concat_ws(E'\x1f', who, d.provider, d.billing_account_id,
                                     pg_catalog.date_part('epoch', d.billing_period_start)), 32), true,
         d.covered_from, d.covered_to
    FROM llm_econ._focus_statements() AS d
  ON CONFLICT (provider, billing_account_id, sub_account_id, billing_period_start) DO UPDATE
    SET covered_from = LEAST(k.covered_from, excluded.covered_from), covered_to = GREATEST(k.covered_to, excluded.covered_to);
  -- one order for every load: two loads of the same statements wait for each other, not deadlock;
  -- the lock is each statement's row of focus_statement_lock (only the tenant's writers can take it)
  INSERT INTO llm_econ.focus_statement_lock AS l (tenant, provider, billing_account_id, billing_period_start)
  SELECT who, k.provider, k.billing_account_id, k.billing_period_start
    FROM llm_econ_focus_keys k WHERE k.fresh GROUP BY k.provider, k.billing_account_id, k.billing_period_start ORDER BY pg_catalog.min(k.lock_key)
  ON CONFLICT ON CONSTRAINT focus_statement_lock_key DO UPDATE SET tenant = excluded.tenant;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  IF _focus_store.mode = 'replace' THEN
    -- One DELETE per statement new to this load (none in most batches), each a new statement (a
    -- snapshot that sees what a load that held the lock committed), planned with its values: the
    -- billing period's index finds the rows.  (One DELETE joining the keys was planned from the
    -- statistics and could scan all of spend in every batch: a load quadratic in its file.)
    FOR key IN SELECT k.provider, k.billing_account_id, k.billing_period_start, k.sub_account_id
                 FROM llm_econ_focus_keys k WHERE k.fresh ORDER BY k.lock_key LOOP
      EXECUTE $q$
        WITH gone AS (
               DELETE FROM llm_econ.spend s
                WHERE s.tenant OPERATOR(pg_catalog.=) $1 AND s.provider OPERATOR(pg_catalog.=) $2
                  AND llm_econ._focus_id_key(s.provider, s.billing_account_id) IS NOT DISTINCT FROM $3
                  AND (s.billing_period_start OPERATOR(pg_catalog.=) $4 OR ($4 IS NULL AND s.billing_period_start IS NULL))
                  AND llm_econ._focus_id_key(s.provider, s.record OPERATOR(pg_catalog.->>) 'SubAccountId') IS NOT DISTINCT FROM $5
               RETURNING s.billed_cost, s.effective_cost, s.billing_currency, s.charge_period_start, s.charge_period_end),
             -- converted outside RETURNING: Citus allows only IMMUTABLE functions there
             usd AS (SELECT g.billed_cost OPERATOR(pg_catalog.*) r.rate AS b, g.effective_cost OPERATOR(pg_catalog.*) r.rate AS e,
                            g.charge_period_start, g.charge_period_end
                       FROM gone g
                      CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(g.billing_currency, g.charge_period_start) AS rate) AS r)
        SELECT pg_catalog.count(*),
               CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.count(u.b) THEN coalesce(pg_catalog.sum(u.b), 0) END,
               CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.count(u.e) THEN coalesce(pg_catalog.sum(u.e), 0) END,
               pg_catalog.min(u.charge_period_start), pg_catalog.max(u.charge_period_end)
          FROM usd u $q$
        INTO n, b, e, gone_from, gone_to USING who, key.provider, key.billing_account_id, key.billing_period_start, key.sub_account_id;
      UPDATE llm_econ_focus_keys k SET replaced_from = gone_from, replaced_to = gone_to
       WHERE k.provider IS NOT DISTINCT FROM key.provider AND k.billing_account_id IS NOT DISTINCT FROM key.billing_account_id
         AND k.sub_account_id IS NOT DISTINCT FROM key.sub_account_id AND k.billing_period_start IS NOT DISTINCT FROM key.billing_period_start;
      replaced := replaced + n;
      replaced_billed_usd := replaced_billed_usd + b;          -- NULL once any replaced line has no rate
      replaced_effective_usd := replaced_effective_usd + e;
    END LOOP;
  END IF;
  UPDATE llm_econ_focus_keys k SET fresh = false WHERE k.fresh;
  -- With Citus in the database (docs/scale-out.md) the INSERT returns its rows into a count: Citus
  -- would send a plain INSERT ... SELECT to the shards as COPY, which row-level security refuses
  -- to every role but the owner, and reports the rows sent, not those stored, under ON CONFLICT.
  q := pg_catalog.format($q$ %s
    INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
           billing_period_end, provider, service_name, service_category, charge_category, charge_description,
           pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
           consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
           resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery)
    SELECT $1, f.charge_period_start, f.charge_period_end, f.billing_period_start, f.billing_period_end,
           f.provider, f.service_name, f.service_category, f.charge_category, f.charge_description,
           f.pricing_category, f.pricing, f.region,
           coalesce(f.sku, CASE WHEN f.gpu_type IS NOT NULL THEN llm_econ._sku_find(f.gpu_type) END),
           f.instance_type, f.gpus_per_instance, f.consumed_quantity, f.consumed_unit, f.gpu_hours,
           f.billed_cost, f.effective_cost, f.list_cost, f.billing_currency, f.run_id, f.resource_id, f.tags,
           f.record, $2, f.line, f.row_hash,
           f.occurrence OPERATOR(pg_catalog.+)
             CASE WHEN $4 THEN coalesce((SELECT c.n FROM llm_econ_focus_seen c WHERE c.h OPERATOR(pg_catalog.=) f.row_hash::uuid), 0)
                  ELSE 0 END,
           f.billing_account_id, $3
      FROM llm_econ_focus_lines f  -- ids follow the file: the table is filled in file order and read by one seq scan (no sort)
    %s %s $q$, CASE WHEN citus THEN 'WITH i AS (' END,
    CASE WHEN counting OR _focus_store.mode = 'append' THEN 'ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING' END,
    CASE WHEN citus THEN 'RETURNING 1) SELECT pg_catalog.count(*) FROM i' END);
  IF citus THEN
    EXECUTE q INTO inserted USING who, _focus_store.source, _focus_store.delivery, counting;
  ELSE
    EXECUTE q USING who, _focus_store.source, _focus_store.delivery, counting;
    GET DIAGNOSTICS inserted = ROW_COUNT;
  END IF;
  skipped := (SELECT pg_catalog.count(*) FROM llm_econ_focus_lines) - inserted;
  IF counting THEN
    INSERT INTO llm_econ_focus_seen AS c (h, n)
    SELECT f.row_hash::uuid, pg_catalog.max(f.occurrence) FROM llm_econ_focus_lines f GROUP BY 1
    ON CONFLICT (h) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  TRUNCATE llm_econ_focus_lines;
END $$;
COMMENT ON FUNCTION llm_econ._focus_store(text, text, text, boolean, text) IS
  'internal: stores the typed FOCUS lines of llm_econ_focus_lines in spend by one INSERT ... SELECT (its column list is written only here), then empties the table';

-- The temporary tables the importers use (dropped at commit): the typed lines of one batch, the
-- copies of each charge identity a load's earlier batches had, the statements it covers, and each
-- batch's distinct identities.
CREATE OR REPLACE FUNCTION llm_econ._focus_temp() RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF pg_catalog.to_regclass('pg_temp.llm_econ_focus_hashes') IS NOT NULL THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus_lines OF llm_econ._focus_line ON COMMIT DROP;
  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus_seen (h uuid PRIMARY KEY, n int4 NOT NULL) ON COMMIT DROP;
  CREATE TEMP TABLE llm_econ_focus_keys (provider text, billing_account_id text, billing_period_start timestamptz,
      lock_key int8 NOT NULL, fresh boolean NOT NULL, sub_account_id text,
      covered_from timestamptz, covered_to timestamptz, replaced_from timestamptz, replaced_to timestamptz,
      UNIQUE NULLS NOT DISTINCT (provider, billing_account_id, sub_account_id, billing_period_start)) ON COMMIT DROP;
  CREATE TEMP TABLE llm_econ_focus_hashes (h uuid NOT NULL) ON COMMIT DROP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_temp() IS
  'internal: creates the transaction''s temporary tables of a FOCUS load unless they exist';

-- A partial delivery in mode replace is refused, nothing lost: mode replace empties each statement
-- a delivery holds, so a re-export of some days would drop the statement's other days.  At the end
-- of a load, a statement whose replaced lines reach outside the charge periods the delivery covers
-- of it (from its first line's start to its last line's end) stops the load with 22023 naming the
-- statement and both spans.  A refresh that covers at least what it replaces (a month-to-date
-- export growing day by day, a restatement of the whole month) loads as before.
CREATE OR REPLACE FUNCTION llm_econ._focus_partial(fn text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  k record;
  t constant text := 'YYYY-MM-DD HH24:MI "UTC"';
BEGIN
  PERFORM llm_econ._focus_temp();
  SELECT * INTO k FROM llm_econ_focus_keys f
   WHERE f.replaced_from OPERATOR(pg_catalog.<) f.covered_from OR f.replaced_to OPERATOR(pg_catalog.>) f.covered_to
   ORDER BY f.lock_key LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '% in mode replace: the delivery covers % to % of the % statement of billing account %, billing period from %, whose stored lines run from % to %',
        fn, pg_catalog.to_char(k.covered_from AT TIME ZONE 'UTC', t), pg_catalog.to_char(k.covered_to AT TIME ZONE 'UTC', t), k.provider,
        coalesce(pg_catalog.quote_literal(k.billing_account_id), '(none)') OPERATOR(pg_catalog.||)
          CASE WHEN k.sub_account_id IS NOT NULL THEN pg_catalog.format(', sub-account %L', k.sub_account_id) ELSE '' END,
        coalesce(pg_catalog.to_char(k.billing_period_start AT TIME ZONE 'UTC', t), '(none)'),
        pg_catalog.to_char(k.replaced_from AT TIME ZONE 'UTC', t), pg_catalog.to_char(k.replaced_to AT TIME ZONE 'UTC', t)
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'Replacing the statement with a partial delivery (a re-export of some days) would drop its stored lines outside what the delivery covers; nothing was loaded.',
            HINT = 'Load a re-export of some days with mode => ''append'' (stored charges are skipped); to restate the statement, deliver all of its charge periods.';
  END IF;
END $$;
COMMENT ON FUNCTION llm_econ._focus_partial(text) IS
  'internal: at the end of a FOCUS load in mode replace, 22023 when a statement''s replaced lines reach outside the charge periods the delivery covers of it';

CREATE OR REPLACE FUNCTION llm_econ.import_focus(focus_csv text, tenant text DEFAULT NULL, source text DEFAULT NULL,
    delivery text DEFAULT NULL, mode text DEFAULT 'replace', OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(import_focus.tenant, CURRENT_USER);
BEGIN
  PERFORM llm_econ._focus_admit('import_focus', who, import_focus.mode, import_focus.delivery, false);
  IF focus_csv IS NULL THEN
    RAISE EXCEPTION 'focus_csv must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines, llm_econ_focus_seen, llm_econ_focus_keys;
  INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_lines(focus_csv, 'focus_csv');
  BEGIN
    SELECT s.inserted, s.skipped, s.replaced, s.replaced_billed_usd, s.replaced_effective_usd
      INTO inserted, skipped, replaced, replaced_billed_usd, replaced_effective_usd
      FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery, false, import_focus.mode) AS s;
  EXCEPTION WHEN unique_violation THEN
    -- a stored copy of a line in mode replace (_focus_store): stored again counting, which skips it
    SELECT s.inserted, s.skipped, s.replaced, s.replaced_billed_usd, s.replaced_effective_usd
      INTO inserted, skipped, replaced, replaced_billed_usd, replaced_effective_usd
      FROM llm_econ._focus_store(who, import_focus.source, import_focus.delivery, true, import_focus.mode) AS s;
  END;
  PERFORM llm_econ._focus_partial('import_focus');
END $$;
COMMENT ON FUNCTION llm_econ.import_focus(text, text, text, text, text) IS
  'imports a FOCUS 1.0-1.3 CSV into spend for tenant (default: the current role), all or nothing; mode replace (default) or append (docs/finance.md)';

-- The batches of one load: the role's staged lines in id ranges (start, stop], about `batch` ids at a
-- time, each typed by one statement and stored by _focus_store; a batch ends with its last record
-- (one open at its last id is read to its end), and the next starts after that record's last line,
-- whose id and file line the typing INSERT's RETURNING gives.  Nothing but the temporary tables
-- is carried from one statement to the next.  exact: number copies of a charge across batches
-- (llm_econ_focus_seen); else, in mode replace, a copy an earlier batch stored is a unique
-- violation (_focus_store), and in mode append each batch's distinct identities go to
-- llm_econ_focus_hashes for load_focus's check.
CREATE OR REPLACE FUNCTION llm_econ._focus_batches(who text, source text, delivery text, start int8, stop int8, batch int8, exact boolean,
    mode text, OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
  lo int8 := 0;       -- the last staged id loaded (0: none, the header comes first)
  hi int8;
  n int8;
  last_read int8;     -- the staged id of the batch's last record's last line
  last_line int4;     -- and its file line
  first int4 := 1;    -- the file line of the first staged line after lo
  done record;
BEGIN
  IF start IS NULL OR stop IS NULL OR exact IS NULL OR batch IS NULL OR batch < 1 THEN
    RAISE EXCEPTION 'start, stop and exact must not be NULL, and batch must be at least 1'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF _focus_batches.mode IS NULL OR _focus_batches.mode NOT IN ('replace', 'append') THEN
    RAISE EXCEPTION 'mode must be replace or append' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM llm_econ._focus_temp();
  TRUNCATE llm_econ_focus_lines, llm_econ_focus_seen, llm_econ_focus_keys, llm_econ_focus_hashes;
  inserted := 0;
  skipped := 0;
  replaced := 0;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  LOOP
    EXIT WHEN lo OPERATOR(pg_catalog.>=) stop;
    hi := LEAST(GREATEST(lo, start) OPERATOR(pg_catalog.+) batch, stop);
    WITH typed AS (
      INSERT INTO llm_econ_focus_lines SELECT * FROM llm_econ._focus_staged_lines('focus_staging', lo, hi, first)
      RETURNING staged_id, last_line)
    SELECT pg_catalog.count(*), pg_catalog.max(t.staged_id), pg_catalog.max(t.last_line) INTO n, last_read, last_line FROM typed t;
    IF n = 0 THEN
      -- no record: the role's lines in (lo, hi], if any, are blank (file lines all the same); with
      -- none, on to its next staged line
      n := (SELECT pg_catalog.count(*) FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id > GREATEST(lo, start) AND s.id <= hi);
      first := first + n::int4;
      lo := CASE WHEN n > 0 THEN hi
                 ELSE (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id > hi ORDER BY s.id LIMIT 1)
                      OPERATOR(pg_catalog.-) 1 END;
      EXIT WHEN lo IS NULL;
      CONTINUE;
    END IF;
    IF NOT exact AND _focus_batches.mode = 'append' THEN
      INSERT INTO llm_econ_focus_hashes (h) SELECT DISTINCT f.row_hash::uuid FROM llm_econ_focus_lines f;
    END IF;
    SELECT * INTO done
      FROM llm_econ._focus_store(who, _focus_batches.source, _focus_batches.delivery, exact, _focus_batches.mode) AS s;
    inserted := inserted + done.inserted;
    skipped := skipped + done.skipped;
    replaced := replaced + done.replaced;
    replaced_billed_usd := replaced_billed_usd + done.replaced_billed_usd;
    replaced_effective_usd := replaced_effective_usd + done.replaced_effective_usd;
    lo := last_read;
    first := last_line OPERATOR(pg_catalog.+) 1;
  END LOOP;
END $$;
COMMENT ON FUNCTION llm_econ._focus_batches(text, text, text, int8, int8, int8, boolean, text) IS
  'internal: load_focus''s batches: the current role''s staged lines with ids in (start, stop], typed and stored by _focus_store';

CREATE OR REPLACE FUNCTION llm_econ.load_focus(tenant text DEFAULT NULL, source text DEFAULT NULL, delivery text DEFAULT NULL,
    mode text DEFAULT 'replace', OUT inserted bigint, OUT skipped bigint, OUT replaced bigint,
    OUT replaced_billed_usd numeric, OUT replaced_effective_usd numeric)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who constant text := coalesce(load_focus.tenant, CURRENT_USER);
  -- staged ids per statement: work_mem / 2 kB (4 MB: 2,048), at least 1,024, so that a batch's
  -- typed lines stay in work_mem, and the after-row checks PostgreSQL queues until the end of its
  -- INSERT are bounded by work_mem, not by the file
  batch constant int8 := greatest(1024, pg_catalog.pg_size_bytes(pg_catalog.current_setting('work_mem')) / 2048);
  start int8;         -- the id before the role's first staged line
  stop int8;          -- the last staged id when the load began: lines staged later wait for the next load
  done record;
BEGIN
  PERFORM llm_econ._focus_admit('load_focus', who, load_focus.mode, load_focus.delivery, true);
  PERFORM llm_econ._focus_temp();
  SELECT (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER ORDER BY s.id LIMIT 1) OPERATOR(pg_catalog.-) 1,
         (SELECT s.id FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER ORDER BY s.id DESC LIMIT 1)
    INTO start, stop;
  inserted := 0;
  skipped := 0;
  replaced := 0;
  replaced_billed_usd := 0;
  replaced_effective_usd := 0;
  IF stop IS NOT NULL THEN
    -- The k-th copy of a charge in the file is its occurrence k.  Each batch numbers its own
    -- copies; when no charge has copies in two batches that is the whole numbering, and
    -- otherwise the load starts again, counting copies across batches.  Mode replace finds such
    -- a copy as a unique violation of its plain INSERT (_focus_store), at once; mode append,
    -- where a stored charge is skipped, by the batches' identities, checked at the end.
    BEGIN
      SELECT * INTO done FROM llm_econ._focus_batches(who, load_focus.source, load_focus.delivery, start, stop, batch, false, load_focus.mode);
      IF EXISTS (SELECT FROM llm_econ_focus_hashes h GROUP BY h.h HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1) THEN
        RAISE SQLSTATE 'LE001';
      END IF;
    EXCEPTION WHEN SQLSTATE 'LE001' OR unique_violation THEN
      SELECT * INTO done FROM llm_econ._focus_batches(who, load_focus.source, load_focus.delivery, start, stop, batch, true, load_focus.mode);
    END;
    inserted := done.inserted;
    skipped := done.skipped;
    replaced := done.replaced;
    replaced_billed_usd := done.replaced_billed_usd;
    replaced_effective_usd := done.replaced_effective_usd;
    PERFORM llm_econ._focus_partial('load_focus');
  END IF;
  DELETE FROM llm_econ.focus_staging s WHERE s.writer = CURRENT_USER AND s.id <= stop;
END $$;
COMMENT ON FUNCTION llm_econ.load_focus(text, text, text, text) IS
  'loads the FOCUS file the current role staged through focus_stage as import_focus does, in batches bounded by work_mem; all or nothing (docs/finance.md)';
-- Plan vs actual: every plan and every run that has spend, joined on (tenant, run_id) (full join:
-- runs without spend yet and spend without a plan both appear), plus one "untagged" row per tenant
-- and provider holding the spend with no run, so the view's billed total is the invoices'.  Amounts
-- are USD at the rate in effect at each line's charge period start; a line with no known rate is
-- left out of the USD sums and counted in unconverted_lines.  Variance is effective (amortised)
-- cost minus planned, split into price and usage (GPU-hours) variance.
CREATE OR REPLACE VIEW llm_econ.plan_vs_actual WITH (security_invoker = true) AS
  WITH lines AS (
         SELECT s.tenant, s.run_id, s.provider, s.billing_currency, s.charge_period_start, s.charge_period_end,
                s.gpu_hours, s.billed_cost, s.effective_cost,
                llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate
           FROM llm_econ.spend s),
       actual AS (
         SELECT l.tenant, l.run_id, pg_catalog.string_agg(DISTINCT l.provider, ', ' ORDER BY l.provider) AS provider,
                pg_catalog.sum(l.billed_cost * l.rate) AS billed_usd, pg_catalog.sum(l.effective_cost * l.rate) AS effective_usd,
                pg_catalog.sum(l.gpu_hours) AS gpu_hours, pg_catalog.min(l.charge_period_start) AS first_charge,
                pg_catalog.max(l.charge_period_end) AS last_charge,
                pg_catalog.count(*) FILTER (WHERE l.rate IS NULL) AS unconverted_lines,
                pg_catalog.string_agg(DISTINCT l.billing_currency, ', ') FILTER (WHERE l.rate IS NULL) AS unconverted_currencies
           FROM lines l
          GROUP BY l.tenant, l.run_id, CASE WHEN l.run_id IS NULL THEN l.provider END),
       joined AS (
         SELECT p.*, a.tenant AS a_tenant, a.run_id AS a_run_id, a.provider AS a_provider, a.billed_usd,
                a.effective_usd, a.gpu_hours AS actual_gpu_hours, a.first_charge, a.last_charge,
                a.unconverted_lines, a.unconverted_currencies,
                pg_catalog.round(p.planned_usd, 2) AS planned_usd_cents,
                -- usage variance: (actual - planned GPU-hours) x planned price, to the cent
                pg_catalog.round((a.gpu_hours - p.planned_gpu_hours::numeric) * p.usd_per_gpu_hour, 2) AS usage_variance_usd
           FROM llm_econ.run_plan p
           FULL JOIN actual a ON a.run_id = p.run_id AND a.tenant = p.tenant)
  SELECT coalesce(j.planned_at, j.first_charge) AS "time",
         coalesce(j.run_id, j.a_run_id) AS run_id, coalesce(j.tenant, j.a_tenant) AS tenant, j.team,
         coalesce(j.provider, j.a_provider) AS provider, j.pricing,
         j.planned_at, pg_catalog.round(j.usd_per_gpu_hour, 6) AS planned_usd_per_gpu_hour,
         j.planned_usd_cents AS planned_usd, j.billed_usd, j.effective_usd,
         -- a run with a line in a currency with no rate has no USD total, so no variance
         CASE WHEN coalesce(j.unconverted_lines, 0::bigint) = 0 THEN j.effective_usd - j.planned_usd_cents END AS variance_usd,
         CASE WHEN coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN pg_catalog.round(100::numeric * (j.effective_usd - j.planned_usd_cents) / nullif(j.planned_usd_cents, 0::numeric), 2) END AS variance_pct,
         j.planned_gpu_hours, j.actual_gpu_hours,
         -- the MFU the billed GPU-hours imply; NULL when they are beyond an interval's range
         CASE WHEN j.actual_gpu_hours > 0::numeric AND j.run_id IS NOT NULL
               AND j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric <= 1e12::numeric
              THEN llm_econ.achieved_mfu(j.spec, pg_catalog.make_interval(secs => (j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric)::float8))
         END AS implied_mfu,
         j.first_charge, j.last_charge,
         CASE WHEN j.run_id IS NULL AND j.a_run_id IS NULL THEN 'untagged'
              WHEN j.run_id IS NULL THEN 'unplanned'
              WHEN j.a_tenant IS NULL THEN 'no spend yet'
              WHEN j.unconverted_lines > 0 THEN pg_catalog.concat('planned and billed, no fx_rate for ', j.unconverted_currencies)
              ELSE 'planned and billed' END AS status,
         CASE WHEN coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN pg_catalog.round(j.effective_usd / nullif(j.actual_gpu_hours, 0::numeric), 6) END AS actual_usd_per_gpu_hour,
         -- price variance: the rest of the variance, (actual - planned $/GPU-h) x actual GPU-hours
         -- with actual $/GPU-h = effective USD / actual GPU-hours; the two add up to variance_usd
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN (j.effective_usd - j.planned_usd_cents) - j.usage_variance_usd END AS price_variance_usd,
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND j.effective_usd IS NOT NULL
               AND coalesce(j.unconverted_lines, 0::bigint) = 0
              THEN j.usage_variance_usd END AS usage_variance_usd,
         coalesce(j.unconverted_lines, 0::bigint) AS unconverted_lines, j.unconverted_currencies
    FROM joined j;
COMMENT ON VIEW llm_econ.plan_vs_actual IS
  'per tenant and run: planned (frozen) vs billed and effective USD, price and usage variance, GPU-hours; unplanned and untagged spend too (docs/finance.md)';
COMMENT ON COLUMN llm_econ.plan_vs_actual."time" IS 'for dashboards: when the plan was made, else the first charge';
COMMENT ON COLUMN llm_econ.plan_vs_actual.run_id IS 'the run (NULL on untagged rows)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.tenant IS 'the plan''s or the spend''s tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual.team IS 'the plan''s team';
COMMENT ON COLUMN llm_econ.plan_vs_actual.provider IS 'planned provider; for spend without a plan, the billing providers (aws, gcp: a run billed by both)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.pricing IS 'planned pricing';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_at IS 'when the plan was made';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd_per_gpu_hour IS 'price planned with, USD per GPU-hour, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd IS 'planned USD (frozen), to the cent';
COMMENT ON COLUMN llm_econ.plan_vs_actual.billed_usd IS 'sum of BilledCost of the lines in USD (exact: the invoice''s amounts), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.effective_usd IS 'sum of EffectiveCost of the lines in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_usd IS 'effective_usd - planned_usd = price_variance_usd + usage_variance_usd; NULL when a line of the run has no fx_rate';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_pct IS '100 x variance_usd / planned_usd, 2 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_gpu_hours IS 'planned GPU-hours (frozen)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_gpu_hours IS 'billed GPU-hours (GPU instance lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.implied_mfu IS 'achieved_mfu(spec, actual GPU-hours / n_gpus): below the planned mfu, the usage variance is (at least partly) lower efficiency';
COMMENT ON COLUMN llm_econ.plan_vs_actual.first_charge IS 'earliest charge period start of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.last_charge IS 'latest charge period end of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.status IS
  'planned and billed, no fx_rate for <currencies> (no variance), no spend yet, unplanned (a run_id no plan has), or untagged (spend with no run_id)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_usd_per_gpu_hour IS 'effective_usd / actual_gpu_hours: everything the run cost per GPU-hour it ran, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.price_variance_usd IS '(actual - planned USD per GPU-hour) x actual GPU-hours = variance_usd - usage_variance_usd; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.usage_variance_usd IS '(actual - planned GPU-hours) x planned USD per GPU-hour, to the cent; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_currencies IS 'the currencies of those lines';

-- Readers still need SELECT on run_plan and spend (security_invoker), and see only their tenants' rows.
GRANT SELECT ON llm_econ.plan_vs_actual TO PUBLIC;

-- The invoice month of a line: the UTC month holding the middle of its billing period (its charge
-- period when it names none).  A GCP period starts at 08:00 UTC (midnight Pacific) and is still
-- its month; the middle is computed on instants, so the session's TimeZone moves nothing.
CREATE OR REPLACE FUNCTION llm_econ._billing_month(billing_period_start timestamptz, billing_period_end timestamptz,
    charge_period_start timestamptz, charge_period_end timestamptz) RETURNS date
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN pg_catalog.isfinite(coalesce($1, $3)) AND pg_catalog.isfinite(coalesce($2, $4))
         THEN (pg_catalog.date_trunc('month', pg_catalog.to_timestamp(
            (pg_catalog.date_part('epoch', coalesce($1, $3)) OPERATOR(pg_catalog.+) pg_catalog.date_part('epoch', coalesce($2, $4)))
            OPERATOR(pg_catalog./) 2::float8) AT TIME ZONE 'UTC'))::date END;
END;
COMMENT ON FUNCTION llm_econ._billing_month(timestamptz, timestamptz, timestamptz, timestamptz) IS
  'internal: the invoice month of a spend line: the UTC month holding the middle of its billing (else charge) period';

-- The invoices by month: per tenant, provider, billing account, invoice month and currency, the
-- amounts as billed and in USD (fx_rate at each line's charge period start; a line with no rate
-- is left out of the USD sums and counted).
CREATE OR REPLACE VIEW llm_econ.spend_monthly WITH (security_invoker = true) AS
  SELECT d.tenant, d.provider, d.billing_account_id, d.billing_month, d.billing_currency,
         pg_catalog.sum(d.billed_cost) AS billed_cost, pg_catalog.sum(d.effective_cost) AS effective_cost,
         pg_catalog.sum(d.billed_cost * d.rate) AS billed_usd, pg_catalog.sum(d.effective_cost * d.rate) AS effective_usd,
         pg_catalog.sum(d.gpu_hours) AS gpu_hours, pg_catalog.sum(d.lines)::int8 AS lines,
         COALESCE(pg_catalog.sum(d.lines) FILTER (WHERE d.rate IS NULL), 0)::int8 AS unconverted_lines
    -- A rate holds for a UTC day: the lines are summed per day first and each day's sums converted
    -- (exact: numeric products distribute over sums), one rate lookup a day, not a line.  The rate in
    -- a subquery's list, not a FROM-less LATERAL call: Citus pushes this down.
    FROM (SELECT d.*, llm_econ._usd_per_unit(d.billing_currency, pg_catalog.timezone('UTC', d.rate_day::timestamp)) AS rate
            FROM (SELECT s.tenant, s.provider, s.billing_account_id,
                         llm_econ._billing_month(s.billing_period_start, s.billing_period_end, s.charge_period_start, s.charge_period_end) AS billing_month,
                         s.billing_currency, pg_catalog.timezone('UTC', s.charge_period_start)::date AS rate_day,
                         pg_catalog.sum(s.billed_cost) AS billed_cost, pg_catalog.sum(s.effective_cost) AS effective_cost,
                         pg_catalog.sum(s.gpu_hours) AS gpu_hours, pg_catalog.count(*) AS lines
                    FROM llm_econ.spend s
                   GROUP BY 1, 2, 3, 4, 5, 6) AS d) AS d
   GROUP BY 1, 2, 3, 4, 5;
COMMENT ON VIEW llm_econ.spend_monthly IS
  'the invoices by month: per tenant, provider, billing account, billing_month and currency, as billed and in USD (docs/finance.md)';
COMMENT ON COLUMN llm_econ.spend_monthly.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_monthly.provider IS 'the provider key (aws, azure, gcp, ...)';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_account_id IS 'FOCUS BillingAccountId';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_month IS 'the invoice month: first day of the UTC month holding the middle of the billing period (a GCP period starting 08:00 UTC is still its month)';
COMMENT ON COLUMN llm_econ.spend_monthly.billing_currency IS 'FOCUS BillingCurrency (upper case)';
COMMENT ON COLUMN llm_econ.spend_monthly.billed_cost IS 'sum of BilledCost in the billing currency (exact): the invoice';
COMMENT ON COLUMN llm_econ.spend_monthly.effective_cost IS 'sum of EffectiveCost in the billing currency (exact)';
COMMENT ON COLUMN llm_econ.spend_monthly.billed_usd IS 'sum of BilledCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.spend_monthly.effective_usd IS 'sum of EffectiveCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.spend_monthly.gpu_hours IS 'GPU-hours of the lines that bill GPU time (corrections net out)';
COMMENT ON COLUMN llm_econ.spend_monthly.lines IS 'lines';
COMMENT ON COLUMN llm_econ.spend_monthly.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
GRANT SELECT ON llm_econ.spend_monthly TO PUBLIC;

-- The runs by month: per tenant, run (NULL: untagged), invoice month and provider, what the month's
-- invoices charge to the run, in USD; over a month its billed_usd is the month's invoices in USD.
CREATE OR REPLACE VIEW llm_econ.plan_vs_actual_monthly WITH (security_invoker = true) AS
  SELECT d.tenant, d.run_id, d.billing_month, d.provider,
         pg_catalog.sum(d.billed_cost * d.rate) AS billed_usd, pg_catalog.sum(d.effective_cost * d.rate) AS effective_usd,
         pg_catalog.sum(d.gpu_hours) AS gpu_hours, pg_catalog.sum(d.lines)::int8 AS lines,
         COALESCE(pg_catalog.sum(d.lines) FILTER (WHERE d.rate IS NULL), 0)::int8 AS unconverted_lines
    -- per UTC day and currency first, then converted, as spend_monthly
    FROM (SELECT d.*, llm_econ._usd_per_unit(d.billing_currency, pg_catalog.timezone('UTC', d.rate_day::timestamp)) AS rate
            FROM (SELECT s.tenant, s.run_id,
                         llm_econ._billing_month(s.billing_period_start, s.billing_period_end, s.charge_period_start, s.charge_period_end) AS billing_month,
                         s.provider, s.billing_currency, pg_catalog.timezone('UTC', s.charge_period_start)::date AS rate_day,
                         pg_catalog.sum(s.billed_cost) AS billed_cost, pg_catalog.sum(s.effective_cost) AS effective_cost,
                         pg_catalog.sum(s.gpu_hours) AS gpu_hours, pg_catalog.count(*) AS lines
                    FROM llm_econ.spend s
                   GROUP BY 1, 2, 3, 4, 5, 6) AS d) AS d
   GROUP BY 1, 2, 3, 4;
COMMENT ON VIEW llm_econ.plan_vs_actual_monthly IS
  'the monthly accrual of each run: per tenant, run_id (NULL: untagged), billing_month and provider';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.run_id IS 'the run (NULL: spend that names no run)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.billing_month IS 'the invoice month: first day of the UTC month holding the middle of the billing period';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.provider IS 'the billing provider (a run on two providers has a row for each)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.billed_usd IS 'sum of BilledCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.effective_usd IS 'sum of EffectiveCost in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.gpu_hours IS 'GPU-hours billed to the run that month (corrections net out)';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.lines IS 'lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual_monthly.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
GRANT SELECT ON llm_econ.plan_vs_actual_monthly TO PUBLIC;
