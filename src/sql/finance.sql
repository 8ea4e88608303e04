-- Finance: planned runs frozen at plan time, FOCUS billing lines, plan vs actual, row-level security by tenant.

-- Tenants are roles: a row belongs to the role in its "tenant" column, and a user sees and
-- writes the rows of every tenant role it is a member of (row-level security below).  The
-- table owner and superusers see everything.
CREATE FUNCTION llm_econ._is_tenant_member(tenant text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) $1)
              THEN pg_catalog.pg_has_role($1, 'MEMBER') ELSE false END
$$;
COMMENT ON FUNCTION llm_econ._is_tenant_member(text) IS
  'internal: whether the current user is a member of the tenant role (false when no such role exists); the row-level security test';

CREATE TABLE llm_econ.run_plan (
    run_id             text PRIMARY KEY CHECK (run_id OPERATOR(pg_catalog.<>) ''),
    spec               llm_econ.run_spec NOT NULL,
    provider           text NOT NULL CHECK (provider OPERATOR(pg_catalog.~) '^[a-z0-9][a-z0-9._-]*$'),
    pricing            text NOT NULL DEFAULT 'on_demand'
                       CHECK (pricing OPERATOR(pg_catalog.=) ANY (ARRAY['on_demand', 'spot', 'reserved'])),
    region             text CHECK (region OPERATOR(pg_catalog.<>) ''),
    planned_at         timestamptz NOT NULL DEFAULT pg_catalog.now() CHECK (pg_catalog.isfinite(planned_at)),
    usd_per_gpu_hour   numeric CHECK (usd_per_gpu_hour >= 0::numeric AND usd_per_gpu_hour < 'Infinity'),
    planned_gpu_hours  float8,
    planned_usd        numeric,
    tenant             text NOT NULL DEFAULT CURRENT_USER,
    team               text,
    notes              text
);
COMMENT ON TABLE llm_econ.run_plan IS
  'planned runs: the spec (hardware frozen in it) and the price in effect at planned_at, with GPU-hours and USD frozen when the plan is made';
COMMENT ON COLUMN llm_econ.run_plan.run_id IS 'the run''s id; billing lines name it in the run_id tag';
COMMENT ON COLUMN llm_econ.run_plan.spec IS 'the run (run_spec, hardware frozen when built)';
COMMENT ON COLUMN llm_econ.run_plan.provider IS 'where it runs (lower case)';
COMMENT ON COLUMN llm_econ.run_plan.pricing IS 'on_demand, spot or reserved';
COMMENT ON COLUMN llm_econ.run_plan.region IS 'region; NULL = cheapest region';
COMMENT ON COLUMN llm_econ.run_plan.planned_at IS 'when the plan was made: the price in effect then is frozen';
COMMENT ON COLUMN llm_econ.run_plan.usd_per_gpu_hour IS 'the price planned with: given, or price_at(spec.sku, provider, pricing, planned_at, region) when inserted as NULL';
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
CREATE FUNCTION llm_econ._freeze_plan() RETURNS trigger
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
    IF abs(NEW.planned_gpu_hours - llm_econ.gpu_hours(NEW.spec)) > 1e-6::float8 * greatest(1::float8, NEW.planned_gpu_hours)
       OR abs(NEW.planned_usd - llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour))
          > 0.000001::numeric * greatest(1::numeric, NEW.planned_usd) THEN
      RAISE EXCEPTION 'planned_gpu_hours and planned_usd must be what the spec and usd_per_gpu_hour give'
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = format('Got %s GPU-hours and %s USD; the spec gives %s GPU-hours and %s USD.',
                              NEW.planned_gpu_hours, NEW.planned_usd, llm_econ.gpu_hours(NEW.spec),
                              llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour)),
              HINT = 'Leave them NULL: they are computed when the plan is made.';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.spec::text = OLD.spec::text
     AND NEW.usd_per_gpu_hour IS NOT DISTINCT FROM OLD.usd_per_gpu_hour
     AND NEW.planned_usd IS NOT DISTINCT FROM OLD.planned_usd
     AND NEW.planned_gpu_hours IS NOT DISTINCT FROM OLD.planned_gpu_hours THEN
    RETURN NEW;                                         -- notes, team, ...: the plan stays frozen
  END IF;
  PERFORM llm_econ._sku_key((NEW.spec).sku);          -- unknown SKU: 22023 with close matches
  IF NEW.usd_per_gpu_hour IS NULL THEN
    NEW.usd_per_gpu_hour := llm_econ.price_at((NEW.spec).sku, NEW.provider, NEW.pricing, NEW.planned_at, NEW.region);
    IF NEW.usd_per_gpu_hour IS NULL THEN
      RAISE EXCEPTION 'no % price is known for sku % from provider "%" at %', NEW.pricing, (NEW.spec).sku,
                      NEW.provider, NEW.planned_at
        USING ERRCODE = 'invalid_parameter_value',
              HINT = 'Give usd_per_gpu_hour, or add the price to llm_econ.price_snapshot.';
    END IF;
  END IF;
  NEW.planned_usd := llm_econ.estimate_cost(NEW.spec, NEW.usd_per_gpu_hour);   -- checks the spec and the price
  NEW.planned_gpu_hours := llm_econ.gpu_hours(NEW.spec);
  RETURN NEW;
END $$;
COMMENT ON FUNCTION llm_econ._freeze_plan() IS 'trigger: validates a plan and freezes its price, GPU-hours and USD';

CREATE TRIGGER run_plan_freeze BEFORE INSERT OR UPDATE ON llm_econ.run_plan
    FOR EACH ROW EXECUTE FUNCTION llm_econ._freeze_plan();

-- FOCUS-shaped billing lines.  Every line of an imported file is kept (GPU or not), with the
-- whole original line in "record"; the typed columns are what reports need.
CREATE TABLE llm_econ.spend (
    id                   bigserial PRIMARY KEY,
    tenant               text NOT NULL DEFAULT CURRENT_USER,
    charge_period_start  timestamptz NOT NULL,
    charge_period_end    timestamptz NOT NULL,
    billing_period_start timestamptz,
    billing_period_end   timestamptz,
    provider             text NOT NULL,
    service_name         text,
    service_category     text,
    charge_category      text,
    charge_description   text,
    pricing_category     text,
    pricing              text CHECK (pricing OPERATOR(pg_catalog.=) ANY (ARRAY['on_demand', 'spot', 'reserved'])),
    region               text,
    sku                  text REFERENCES llm_econ.gpu_sku (sku) ON UPDATE CASCADE,
    instance_type        text,
    gpus_per_instance    int4 CHECK (gpus_per_instance > 0),
    consumed_quantity    numeric,
    consumed_unit        text,
    gpu_hours            numeric CHECK (gpu_hours >= 0::numeric),
    billed_cost          numeric NOT NULL CHECK (billed_cost > '-Infinity' AND billed_cost < 'Infinity'),
    effective_cost       numeric NOT NULL CHECK (effective_cost > '-Infinity' AND effective_cost < 'Infinity'),
    list_cost            numeric,
    billing_currency     text,
    run_id               text,
    resource_id          text,
    tags                 jsonb,
    record               jsonb NOT NULL,
    source               text,
    line                 int4,
    row_hash             text NOT NULL,
    occurrence           int4 NOT NULL DEFAULT 1,
    imported_at          timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (charge_period_end >= charge_period_start),
    -- the k-th identical line of a tenant's bills is stored once: re-importing a file adds nothing,
    -- and identical lines within one file are all kept
    CONSTRAINT spend_one_line UNIQUE (tenant, row_hash, occurrence)
);
CREATE INDEX spend_run_id ON llm_econ.spend (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX spend_charge_period ON llm_econ.spend (charge_period_start);

COMMENT ON TABLE llm_econ.spend IS
  'billed lines (FOCUS cost-and-usage rows), every line kept with its original record; GPU lines carry sku and gpu_hours; run_id from the run_id tag';
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
COMMENT ON COLUMN llm_econ.spend.gpu_hours IS 'ConsumedQuantity (in hours) x GPUs per instance, for GPU instance lines';
COMMENT ON COLUMN llm_econ.spend.billed_cost IS 'FOCUS BilledCost (cash), exact';
COMMENT ON COLUMN llm_econ.spend.effective_cost IS 'FOCUS EffectiveCost (amortised), exact';
COMMENT ON COLUMN llm_econ.spend.list_cost IS 'FOCUS ListCost';
COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency';
COMMENT ON COLUMN llm_econ.spend.run_id IS 'the run: the Tags key run_id, or the x_run_id column';
COMMENT ON COLUMN llm_econ.spend.resource_id IS 'FOCUS ResourceId';
COMMENT ON COLUMN llm_econ.spend.tags IS 'FOCUS Tags (JSON object)';
COMMENT ON COLUMN llm_econ.spend.record IS 'the whole original line: header name -> value (NULL written as the word NULL or empty becomes JSON null)';
COMMENT ON COLUMN llm_econ.spend.source IS 'the import''s source label';
COMMENT ON COLUMN llm_econ.spend.line IS 'line of the file the row came from';
COMMENT ON COLUMN llm_econ.spend.row_hash IS 'md5 of the original record: with occurrence, what makes re-imports idempotent';
COMMENT ON COLUMN llm_econ.spend.occurrence IS 'which identical copy of the record within the file (1, 2, ...)';
COMMENT ON COLUMN llm_econ.spend.imported_at IS 'when the line was imported';

-- Row-level security by tenant, shipped with the tables (so it survives pg_dump).
ALTER TABLE llm_econ.run_plan ENABLE ROW LEVEL SECURITY;
ALTER TABLE llm_econ.spend ENABLE ROW LEVEL SECURITY;
CREATE POLICY run_plan_tenant ON llm_econ.run_plan
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));
CREATE POLICY spend_tenant ON llm_econ.spend
    USING (llm_econ._is_tenant_member(tenant)) WITH CHECK (llm_econ._is_tenant_member(tenant));

SELECT pg_catalog.pg_extension_config_dump('llm_econ.run_plan', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend_id_seq', '');

-- FOCUS provider names to the provider keys the price tables use.
CREATE FUNCTION llm_econ._focus_provider(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT CASE
           WHEN n OPERATOR(pg_catalog.~) '^(aws|amazon web services.*|amazon)$' THEN 'aws'
           WHEN n OPERATOR(pg_catalog.~) '^(microsoft|microsoft azure|azure)$' THEN 'azure'
           WHEN n OPERATOR(pg_catalog.~) '^(google|google cloud|google cloud platform|gcp)$' THEN 'gcp'
           WHEN n OPERATOR(pg_catalog.~) '^(oracle|oracle cloud infrastructure|oci)$' THEN 'oci'
           ELSE pg_catalog.regexp_replace(n, '[^a-z0-9._-]+', '-', 'g')
         END
    FROM (SELECT pg_catalog.lower(pg_catalog.btrim($1)) AS n) AS x
$$;
COMMENT ON FUNCTION llm_econ._focus_provider(text) IS 'internal: a FOCUS provider name as a price-table provider key (AWS -> aws, Microsoft -> azure, ...)';

-- The lines of a FOCUS file, typed, with the first problem of each line (NULL when fine).
CREATE FUNCTION llm_econ._csv_header(csv text, what text) RETURNS text[]
AS 'MODULE_PATHNAME', 'le_csv_header_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._csv_header(text, text) IS 'internal: the column names of a CSV text''s header line (22023 when empty or duplicated)';
CREATE FUNCTION llm_econ._csv_records(csv text, what text, OUT line int4, OUT record jsonb) RETURNS SETOF record
AS 'MODULE_PATHNAME', 'le_csv_records_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._csv_records(text, text) IS
  'internal: the data lines of a CSV text as (line, jsonb keyed by header name); empty and NULL become JSON null; 22023 naming the line for malformed CSV';

-- A FOCUS date-time: UTC when it carries no offset (FOCUS requires UTC).
CREATE FUNCTION llm_econ._focus_time(v text) RETURNS timestamptz
LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $$
  SELECT CASE WHEN $1 OPERATOR(pg_catalog.~) '(Z|[+-][0-9]{2}(:?[0-9]{2})?)$' THEN $1::timestamptz
              ELSE $1::timestamp AT TIME ZONE 'UTC' END
$$;
COMMENT ON FUNCTION llm_econ._focus_time(text) IS 'internal: a FOCUS date-time text as timestamptz (UTC when no offset is given)';

-- One FOCUS line typed: periods, provider key, pricing, the GPU machine and GPU-hours, amounts, run.
-- The GPU machine type is SkuPriceDetails' InstanceType, else a word of ChargeDescription that
-- is a machine-type alias (AWS writes "... per On Demand Linux p5.48xlarge Instance Hour");
-- GPUs per machine from SkuPriceDetails' GpuCount, else from that alias.
CREATE FUNCTION llm_econ._focus_typed(r jsonb)
RETURNS TABLE (charge_period_start timestamptz, charge_period_end timestamptz,
               billing_period_start timestamptz, billing_period_end timestamptz, provider text, pricing text,
               sku text, instance_type text, gpus_per_instance int4, consumed_quantity numeric, gpu_hours numeric,
               billed_cost numeric, effective_cost numeric, list_cost numeric, run_id text, tags jsonb)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT llm_econ._focus_time(x.r->>'ChargePeriodStart'), llm_econ._focus_time(x.r->>'ChargePeriodEnd'),
         llm_econ._focus_time(x.r->>'BillingPeriodStart'), llm_econ._focus_time(x.r->>'BillingPeriodEnd'),
         llm_econ._focus_provider(coalesce(x.r->>'ServiceProviderName', x.r->>'ProviderName')),
         CASE x.r->>'PricingCategory' WHEN 'Standard' THEN 'on_demand' WHEN 'Dynamic' THEN 'spot'
                                      WHEN 'Committed' THEN 'reserved' END,
         coalesce(m.sku, llm_econ._sku_find(coalesce(x.d->>'GpuType', x.d->>'x_GpuType'))),
         m.alias,
         g.gpus,
         (x.r->>'ConsumedQuantity')::numeric,
         CASE WHEN g.gpus IS NOT NULL
               AND pg_catalog.lower(x.r->>'ConsumedUnit') OPERATOR(pg_catalog.=) ANY (ARRAY['hour', 'hours', 'hr', 'hrs', 'h'])
              THEN (x.r->>'ConsumedQuantity')::numeric OPERATOR(pg_catalog.*) g.gpus END,
         (x.r->>'BilledCost')::numeric, (x.r->>'EffectiveCost')::numeric, (x.r->>'ListCost')::numeric,
         coalesce(x.t->>'run_id', x.r->>'x_run_id', x.t->>'x_run_id'),
         x.t
    FROM (SELECT $1 AS r, ($1->>'SkuPriceDetails')::jsonb AS d, ($1->>'Tags')::jsonb AS t) AS x
    LEFT JOIN LATERAL (
         SELECT a.sku, a.alias, a.gpus_per_instance
           FROM llm_econ.gpu_sku_alias a
          WHERE a.gpus_per_instance IS NOT NULL
            AND (pg_catalog.lower(a.alias) OPERATOR(pg_catalog.=) pg_catalog.lower(coalesce(x.d->>'InstanceType', x.d->>'x_InstanceType'))
                 OR pg_catalog.lower(a.alias) OPERATOR(pg_catalog.=) ANY (
                      pg_catalog.regexp_split_to_array(pg_catalog.lower(x.r->>'ChargeDescription'), '[[:space:],;()]+')))
          ORDER BY pg_catalog.lower(a.alias) OPERATOR(pg_catalog.=) pg_catalog.lower(coalesce(x.d->>'InstanceType', x.d->>'x_InstanceType')) DESC NULLS LAST
          LIMIT 1) AS m ON true
    CROSS JOIN LATERAL (
         SELECT coalesce((x.d->>'GpuCount')::numeric::int4, (x.d->>'x_GpuCount')::numeric::int4, m.gpus_per_instance) AS gpus) AS g
$$;
COMMENT ON FUNCTION llm_econ._focus_typed(jsonb) IS 'internal: one FOCUS line (jsonb keyed by column name) typed for llm_econ.spend';

CREATE FUNCTION llm_econ.import_focus(focus_csv text, tenant text DEFAULT NULL, source text DEFAULT NULL,
    OUT inserted bigint, OUT skipped bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET jit = off
AS $$
#variable_conflict use_column
DECLARE
  who text := coalesce(import_focus.tenant, CURRENT_USER);
  header text[];
  missing text;
  amount constant text := '^[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]{1,3})?$|^[-+]?\.[0-9]+$';
  ts constant text := '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)?$';
  bad record;
BEGIN
  IF focus_csv IS NULL THEN
    RAISE EXCEPTION 'focus_csv must not be NULL' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  header := llm_econ._csv_header(focus_csv, 'focus_csv');
  SELECT string_agg(c, ', ') INTO missing
    FROM unnest(ARRAY['BilledCost', 'EffectiveCost', 'ChargePeriodStart', 'ChargePeriodEnd']) AS c
   WHERE NOT c = ANY (header);
  IF missing IS NULL AND NOT ('ProviderName' = ANY (header) OR 'ServiceProviderName' = ANY (header)) THEN
    missing := 'ProviderName (or ServiceProviderName)';
  END IF;
  IF missing IS NOT NULL THEN
    RAISE EXCEPTION 'focus_csv has no % column', missing USING ERRCODE = 'invalid_parameter_value',
      DETAIL = 'Columns are found by header name (FOCUS 1.0-1.3 names).';
  END IF;

  CREATE TEMP TABLE IF NOT EXISTS llm_econ_focus (line int4, record jsonb) ON COMMIT DROP;
  TRUNCATE llm_econ_focus;
  INSERT INTO llm_econ_focus SELECT * FROM llm_econ._csv_records(focus_csv, 'focus_csv');

  -- every line checked before anything is stored; the first bad line is the error
  SELECT f.line, p.problem, p.value INTO bad
    FROM llm_econ_focus f
   CROSS JOIN LATERAL (
         SELECT * FROM (VALUES
           (1, 'BilledCost is not a number', f.record->>'BilledCost',
            (f.record->>'BilledCost') IS NULL OR (f.record->>'BilledCost') !~ amount),
           (2, 'EffectiveCost is not a number', f.record->>'EffectiveCost',
            (f.record->>'EffectiveCost') IS NULL OR (f.record->>'EffectiveCost') !~ amount),
           (3, 'ListCost is not a number', f.record->>'ListCost', (f.record->>'ListCost') !~ amount),
           (4, 'ConsumedQuantity is not a number', f.record->>'ConsumedQuantity', (f.record->>'ConsumedQuantity') !~ amount),
           (5, 'ChargePeriodStart is not a timestamp', f.record->>'ChargePeriodStart',
            (f.record->>'ChargePeriodStart') IS NULL OR (f.record->>'ChargePeriodStart') !~ ts),
           (6, 'ChargePeriodEnd is not a timestamp', f.record->>'ChargePeriodEnd',
            (f.record->>'ChargePeriodEnd') IS NULL OR (f.record->>'ChargePeriodEnd') !~ ts),
           (7, 'BillingPeriodStart is not a timestamp', f.record->>'BillingPeriodStart', (f.record->>'BillingPeriodStart') !~ ts),
           (8, 'BillingPeriodEnd is not a timestamp', f.record->>'BillingPeriodEnd', (f.record->>'BillingPeriodEnd') !~ ts),
           (9, 'provider name is empty', NULL,
            coalesce(f.record->>'ServiceProviderName', f.record->>'ProviderName') IS NULL),
           (10, 'Tags is not a JSON object', f.record->>'Tags', (f.record->>'Tags') !~ '^\s*\{.*\}\s*$'),
           (11, 'SkuPriceDetails is not a JSON object', f.record->>'SkuPriceDetails',
            (f.record->>'SkuPriceDetails') !~ '^\s*\{.*\}\s*$')
         ) AS c(k, problem, value, failed)
          WHERE c.failed ORDER BY c.k LIMIT 1) AS p
   ORDER BY f.line LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'focus_csv line %: %', bad.line, bad.problem USING ERRCODE = 'invalid_parameter_value',
      DETAIL = CASE WHEN bad.value IS NOT NULL THEN format('Got %s.', left(bad.value, 200)) END;
  END IF;
  -- timestamps, JSON and amounts that match the patterns but still do not convert
  BEGIN
    PERFORM count(t.*) FROM llm_econ_focus f, LATERAL llm_econ._focus_typed(f.record) AS t;
  EXCEPTION WHEN OTHERS THEN
    FOR bad IN SELECT f.line, f.record FROM llm_econ_focus f ORDER BY f.line LOOP
      BEGIN
        PERFORM llm_econ._focus_typed(bad.record);
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION 'focus_csv line %: %', bad.line, SQLERRM USING ERRCODE = 'invalid_parameter_value';
      END;
    END LOOP;
    RAISE;
  END;
  SELECT f.line, t.charge_period_start, t.charge_period_end INTO bad
    FROM llm_econ_focus f, LATERAL llm_econ._focus_typed(f.record) AS t
   WHERE t.charge_period_end < t.charge_period_start ORDER BY f.line LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'focus_csv line %: ChargePeriodEnd % is before ChargePeriodStart %', bad.line,
                    bad.charge_period_end, bad.charge_period_start USING ERRCODE = 'invalid_parameter_value';
  END IF;

  WITH typed AS (
         SELECT f.line, f.record, t.*, md5(f.record::text) AS row_hash
           FROM llm_econ_focus f, LATERAL llm_econ._focus_typed(f.record) AS t),
       numbered AS (
         SELECT x.*, row_number() OVER (PARTITION BY x.row_hash ORDER BY x.line) AS occurrence FROM typed x),
       ins AS (
         INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, billing_period_start,
                billing_period_end, provider, service_name, service_category, charge_category, charge_description,
                pricing_category, pricing, region, sku, instance_type, gpus_per_instance, consumed_quantity,
                consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost, billing_currency, run_id,
                resource_id, tags, record, source, line, row_hash, occurrence)
         SELECT who, n.charge_period_start, n.charge_period_end, n.billing_period_start, n.billing_period_end,
                n.provider, n.record->>'ServiceName', n.record->>'ServiceCategory', n.record->>'ChargeCategory',
                n.record->>'ChargeDescription', n.record->>'PricingCategory', n.pricing,
                coalesce(n.record->>'RegionId', n.record->>'Region'), n.sku, n.instance_type, n.gpus_per_instance,
                n.consumed_quantity, n.record->>'ConsumedUnit', n.gpu_hours, n.billed_cost, n.effective_cost,
                n.list_cost, n.record->>'BillingCurrency', n.run_id, n.record->>'ResourceId', n.tags, n.record,
                import_focus.source, n.line, n.row_hash, n.occurrence
           FROM numbered n
         ON CONFLICT ON CONSTRAINT spend_one_line DO NOTHING
         RETURNING 1)
  SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM llm_econ_focus) - (SELECT count(*) FROM ins)
    INTO inserted, skipped;
  TRUNCATE llm_econ_focus;
END $$;
COMMENT ON FUNCTION llm_econ.import_focus(text, text, text) IS
  'imports a FOCUS 1.0-1.3 cost-and-usage CSV into spend: every line kept (with its original record), GPU-hours for GPU instance lines, run_id from tags; all or nothing; lines already imported for the tenant are counted as skipped';

-- Plan vs actual: every plan and every run that has spend, joined on run_id (full join: runs
-- without spend yet and spend without a plan both appear).  Variance is effective (amortised)
-- cost minus planned.  implied_mfu: the MFU the billed GPU-hours imply for the planned spec.
CREATE VIEW llm_econ.plan_vs_actual WITH (security_invoker = true) AS
  WITH actual AS (
         SELECT s.run_id, sum(s.billed_cost) AS billed_usd, sum(s.effective_cost) AS effective_usd,
                sum(s.gpu_hours) AS gpu_hours, min(s.charge_period_start) AS first_charge,
                max(s.charge_period_end) AS last_charge
           FROM llm_econ.spend s WHERE s.run_id IS NOT NULL GROUP BY s.run_id)
  SELECT coalesce(p.planned_at, a.first_charge) AS "time",
         coalesce(p.run_id, a.run_id) AS run_id, p.tenant, p.team, p.provider, p.pricing,
         p.planned_at, p.usd_per_gpu_hour AS planned_usd_per_gpu_hour,
         p.planned_usd, a.billed_usd, a.effective_usd,
         a.effective_usd - p.planned_usd AS variance_usd,
         round(100::numeric * (a.effective_usd - p.planned_usd) / nullif(p.planned_usd, 0::numeric), 2) AS variance_pct,
         p.planned_gpu_hours, a.gpu_hours AS actual_gpu_hours,
         CASE WHEN a.gpu_hours > 0::numeric AND p.run_id IS NOT NULL
              THEN llm_econ.achieved_mfu(p.spec, make_interval(secs => (a.gpu_hours / (p.spec).n_gpus::numeric * 3600::numeric)::float8))
         END AS implied_mfu,
         a.first_charge, a.last_charge,
         CASE WHEN p.run_id IS NULL THEN 'unplanned' WHEN a.run_id IS NULL THEN 'no spend yet' ELSE 'planned and billed' END AS status
    FROM llm_econ.run_plan p FULL JOIN actual a ON a.run_id = p.run_id;
COMMENT ON VIEW llm_econ.plan_vs_actual IS
  'per run: planned (frozen) vs billed and effective USD, variance (effective - planned, USD and %), planned vs billed GPU-hours and the MFU the billed GPU-hours imply; runs without spend and spend without a plan both appear';
COMMENT ON COLUMN llm_econ.plan_vs_actual."time" IS 'for dashboards: when the plan was made, else the first charge';
COMMENT ON COLUMN llm_econ.plan_vs_actual.run_id IS 'the run';
COMMENT ON COLUMN llm_econ.plan_vs_actual.tenant IS 'the plan''s tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual.team IS 'the plan''s team';
COMMENT ON COLUMN llm_econ.plan_vs_actual.provider IS 'planned provider';
COMMENT ON COLUMN llm_econ.plan_vs_actual.pricing IS 'planned pricing';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_at IS 'when the plan was made';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd_per_gpu_hour IS 'price planned with';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd IS 'planned USD (frozen)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.billed_usd IS 'sum of BilledCost of the run''s lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.effective_usd IS 'sum of EffectiveCost of the run''s lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_usd IS 'effective_usd - planned_usd';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_pct IS '100 x variance_usd / planned_usd';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_gpu_hours IS 'planned GPU-hours (frozen)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_gpu_hours IS 'billed GPU-hours (GPU instance lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.implied_mfu IS 'achieved_mfu(spec, actual GPU-hours / n_gpus)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.first_charge IS 'earliest charge period start of the run''s lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.last_charge IS 'latest charge period end of the run''s lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.status IS 'planned and billed, no spend yet, or unplanned';

-- Readers still need SELECT on run_plan and spend (security_invoker), and see only their tenants' rows.
GRANT SELECT ON llm_econ.plan_vs_actual TO PUBLIC;
