-- llm_econ 0.2.0 -> 0.3.0, part 30: finance (tenant-keyed plans, plans re-priced on change, charge identity, deliveries, currencies, staged FOCUS loads, plan_vs_actual with untagged rows and the variance split).
-- Statements are the ones of src/sql/finance.sql and src/sql/reports.sql, so an updated database equals a fresh one.

-- Plans are keyed by (tenant, run_id): two tenants may use the same run id.
ALTER TABLE llm_econ.run_plan DROP CONSTRAINT run_plan_pkey;
ALTER TABLE llm_econ.run_plan ADD CONSTRAINT run_plan_pkey PRIMARY KEY (tenant, run_id);
COMMENT ON TABLE llm_econ.run_plan IS
  'planned runs, keyed by (tenant, run_id): the spec (hardware frozen in it) and the price in effect at planned_at, with GPU-hours and USD frozen when the plan is made';
COMMENT ON COLUMN llm_econ.run_plan.run_id IS 'the run''s id within its tenant; billing lines of the tenant name it in the run_id tag';

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
    NEW.usd_per_gpu_hour := llm_econ.price_at((NEW.spec).sku, NEW.provider, NEW.pricing, NEW.planned_at, NEW.region);
    IF NEW.usd_per_gpu_hour IS NULL THEN
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
COMMENT ON FUNCTION llm_econ._freeze_plan() IS
  'trigger: validates a plan and freezes its price, GPU-hours and USD; an UPDATE of provider, pricing, region, planned_at or the spec''s SKU re-prices it (from the price table unless the UPDATE sets usd_per_gpu_hour), an UPDATE of other spec fields recomputes GPU-hours and USD at the plan''s price, anything else keeps it frozen';

-- Spend: billing account and delivery (restatements), the charge identity.
ALTER TABLE llm_econ.spend ADD COLUMN billing_account_id text, ADD COLUMN delivery text;
-- what a delivery replaces is found by billing period (the tenant, provider and account are
-- checked on the rows): one timestamp is cheap to index on every line loaded
CREATE INDEX spend_billing_period ON llm_econ.spend (billing_period_start);
COMMENT ON COLUMN llm_econ.spend.row_hash IS
  'the charge identity: md5 of the FOCUS fields as values (timestamps as instants, numbers as numbers, provider key, Tags without the run tag), not of the raw line; with occurrence, what makes re-imports idempotent';
COMMENT ON COLUMN llm_econ.spend.occurrence IS 'which copy of the same charge within the file (1, 2, ...)';
COMMENT ON COLUMN llm_econ.spend.billing_account_id IS 'FOCUS BillingAccountId: with provider and billing period, what a restated delivery replaces';
COMMENT ON COLUMN llm_econ.spend.billing_currency IS 'FOCUS BillingCurrency (ISO 4217); views convert with fx_rate, NULL counts as USD';
COMMENT ON COLUMN llm_econ.spend.delivery IS 'the import''s delivery label: a later delivery of the same billing period and account replaces this one''s lines (NULL: added to, never replacing)';

-- The 0.2.0 importer and its SQL helpers (typing now happens in C).
DROP FUNCTION llm_econ.import_focus(text, text, text);
DROP FUNCTION llm_econ._focus_typed(jsonb);
DROP FUNCTION llm_econ._focus_time(text);
DROP FUNCTION llm_econ._focus_provider(text);

-- Exchange rates, dated like prices: a rate holds from valid_from until the next one of its currency.
CREATE TABLE llm_econ.fx_rate (
    currency      text NOT NULL CHECK (currency OPERATOR(pg_catalog.~) '^[A-Z]{3}$'),
    valid_from    timestamptz NOT NULL CHECK (pg_catalog.isfinite(valid_from)),
    usd_per_unit  numeric NOT NULL CHECK (usd_per_unit > 0::numeric AND usd_per_unit < 'Infinity'),
    source        text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    CONSTRAINT fx_rate_pkey PRIMARY KEY (currency, valid_from)
);
COMMENT ON TABLE llm_econ.fx_rate IS
  'exchange rates into USD, dated: a rate is in effect from valid_from until the next row of the same currency; USD needs no row (1). Views convert a billing line with the rate in effect at its charge period start; a line with no rate is never summed as USD';
COMMENT ON COLUMN llm_econ.fx_rate.currency IS 'ISO 4217 code, upper case (EUR, GBP, JPY)';
COMMENT ON COLUMN llm_econ.fx_rate.valid_from IS 'when the rate takes effect';
COMMENT ON COLUMN llm_econ.fx_rate.usd_per_unit IS 'USD per one unit of the currency (EUR 1.0823 = 1 EUR buys 1.0823 USD), exact numeric';
COMMENT ON COLUMN llm_econ.fx_rate.source IS 'where the rate comes from (the provider''s invoice rate, a central bank reference rate, ...)';
SELECT pg_catalog.pg_extension_config_dump('llm_econ.fx_rate', '');
GRANT SELECT ON llm_econ.fx_rate TO PUBLIC;

-- USD per unit of a currency at an instant: 1 for USD (and for a line that names no currency, as
-- 0.2.0 read every amount), else the fx_rate in effect, NULL when none is.
CREATE FUNCTION llm_econ._usd_per_unit(currency text, at timestamptz) RETURNS numeric
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN $1 IS NULL OR $1 OPERATOR(pg_catalog.=) 'USD' THEN 1::numeric
              ELSE (SELECT f.usd_per_unit FROM llm_econ.fx_rate f
                     WHERE f.currency OPERATOR(pg_catalog.=) $1 AND f.valid_from OPERATOR(pg_catalog.<=) $2
                     ORDER BY f.valid_from DESC LIMIT 1) END
$$;
COMMENT ON FUNCTION llm_econ._usd_per_unit(text, timestamptz) IS
  'internal: USD per unit of currency at an instant (1 for USD or no currency, else the fx_rate in effect; NULL when no rate is known)';

-- _focus_lines and _focus_staged_rows (returning llm_econ._focus_line), _focus_store and _focus_temp:
-- in 92_focus_speed.sql, their final definitions.

-- The staged path: \copy a FOCUS file into focus_staging, one physical line per row, then load_focus().
CREATE TABLE llm_econ.focus_staging (
    id      bigserial PRIMARY KEY,
    writer  text NOT NULL DEFAULT CURRENT_USER,
    line    text
);
CREATE INDEX focus_staging_writer ON llm_econ.focus_staging (writer, id);
COMMENT ON TABLE llm_econ.focus_staging IS
  'staging for load_focus(): one physical line of a FOCUS file per row, verbatim; each writer sees and loads only its own rows.  Roles \copy into the view focus_stage (COPY cannot write a table under row-level security); the owner may \copy llm_econ.focus_staging (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e'') directly';
COMMENT ON COLUMN llm_econ.focus_staging.id IS 'load order';
COMMENT ON COLUMN llm_econ.focus_staging.writer IS 'the role that staged the line (load_focus reads the current role''s lines only)';
COMMENT ON COLUMN llm_econ.focus_staging.line IS 'one physical line of the FOCUS CSV file, the header first';
ALTER TABLE llm_econ.focus_staging ENABLE ROW LEVEL SECURITY;
CREATE POLICY focus_staging_writer ON llm_econ.focus_staging
    USING (writer OPERATOR(pg_catalog.=) CURRENT_USER) WITH CHECK (writer OPERATOR(pg_catalog.=) CURRENT_USER);
-- PostgreSQL refuses COPY FROM into a table whose row-level security applies to the role ("COPY
-- FROM not supported with row-level security"): every role but the owner.  Roles \copy into this
-- view instead; its trigger inserts each line into focus_staging, under the policy above.  The view
-- shows nothing.
CREATE VIEW llm_econ.focus_stage WITH (security_invoker = true) AS SELECT NULL::text AS line WHERE false;
COMMENT ON VIEW llm_econ.focus_stage IS
  'where roles \copy a FOCUS file for load_focus(): \copy llm_econ.focus_stage (line) FROM ''file.csv'' WITH (FORMAT csv, DELIMITER E''\x1f'', QUOTE E''\x1e''); each line goes into focus_staging as the role''s (COPY cannot write a table under row-level security); reading it gives no rows';
COMMENT ON COLUMN llm_econ.focus_stage.line IS 'one physical line of the FOCUS CSV file, the header first';
CREATE FUNCTION llm_econ._focus_stage_line() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO llm_econ.focus_staging (line) VALUES (NEW.line);
  RETURN NEW;
END $$;
REVOKE EXECUTE ON FUNCTION llm_econ._focus_stage_line() FROM PUBLIC;
COMMENT ON FUNCTION llm_econ._focus_stage_line() IS
  'internal: INSTEAD OF INSERT trigger of focus_stage: the line into focus_staging, as the inserting role (its privileges and focus_staging''s policy apply)';
CREATE TRIGGER focus_stage_line INSTEAD OF INSERT ON llm_econ.focus_stage
    FOR EACH ROW EXECUTE FUNCTION llm_econ._focus_stage_line();

CREATE FUNCTION llm_econ._focus_staged_done() RETURNS bigint
AS 'MODULE_PATHNAME', 'le_focus_staged_done_fn' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION llm_econ._focus_staged_done() IS
  'internal: NULL while the load _focus_staged_rows began has lines left, else how many lines it read (then the load is dropped); 0 when no load is in progress';

CREATE FUNCTION llm_econ._focus_staged_periods(what text,
    OUT provider text, OUT billing_account_id text, OUT billing_period_start timestamptz)
RETURNS SETOF record ROWS 2
AS 'MODULE_PATHNAME', 'le_focus_staged_periods_fn' LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION llm_econ._focus_staged_periods(text) IS
  'internal: the billing periods (provider key, billing account, billing period start) of the current role''s staged FOCUS file, each once: what a delivery replaces; lines it cannot read are left to the load''s error';

CREATE FUNCTION llm_econ._focus_charge_key(record jsonb) RETURNS text
AS 'MODULE_PATHNAME', 'le_focus_charge_key_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION llm_econ._focus_charge_key(jsonb) IS
  'internal: the charge identity of a whole original line as jsonb (header name -> value, as 0.2.0 stored record), as an import computes it (row_hash)';

-- import_focus, load_focus and _focus_refusal: in 92_focus_speed.sql, their final definitions.

-- Existing lines: billing account from the record, the charge identity recomputed from the record
-- (as an import now computes it), copies of one charge numbered in import order.  Lines that 0.2.0
-- stored twice (the same charges re-exported differently) stay: nothing is deleted here; they show
-- as occurrence > 1 of one row_hash.  Two passes, so no transient duplicate key.
UPDATE llm_econ.spend SET occurrence = -id::int4, billing_account_id = record->>'BillingAccountId';
UPDATE llm_econ.spend s SET row_hash = k.row_hash, occurrence = k.occurrence
  FROM (SELECT x.id, x.row_hash,
               row_number() OVER (PARTITION BY x.tenant, x.row_hash ORDER BY x.id)::int4 AS occurrence
          FROM (SELECT t.id, t.tenant, llm_econ._focus_charge_key(t.record) AS row_hash FROM llm_econ.spend t) AS x) AS k
 WHERE s.id = k.id;
-- The identity leads the unique index and is compared byte for byte (as a fresh install has it).
ALTER TABLE llm_econ.spend DROP CONSTRAINT spend_one_line,
  ALTER COLUMN row_hash TYPE text COLLATE "C",
  ADD CONSTRAINT spend_one_line UNIQUE (row_hash, tenant, occurrence);
-- record keeps what no typed column holds (as an import now stores it): the typed FOCUS columns
-- leave it, and so do the empty and NULL fields (JSON null in 0.2.0).  After the re-key, which
-- reads the whole line.
UPDATE llm_econ.spend SET record = pg_catalog.jsonb_strip_nulls(record
       - '{BilledCost,EffectiveCost,ListCost,ConsumedQuantity,ConsumedUnit,ChargePeriodStart,ChargePeriodEnd,BillingPeriodStart,BillingPeriodEnd,ServiceName,ServiceCategory,ChargeCategory,ChargeDescription,PricingCategory,BillingCurrency,BillingAccountId,Tags,RegionId,ResourceId}'::text[]);
COMMENT ON TABLE llm_econ.spend IS
  'billed lines (FOCUS cost-and-usage rows), every line kept: typed columns, and the original line''s other columns in record; GPU lines carry sku and gpu_hours; run_id from the run_id tag';
COMMENT ON COLUMN llm_econ.spend.record IS 'the columns of the original line that no typed column holds and that have a value: header name -> text as written; empty fields and the word NULL are left out (->> reads NULL for them), and so are the typed FOCUS columns (costs, quantity and unit, periods, service, charge category and description, pricing category, currency, billing account, Tags, RegionId, ResourceId)';

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
         SELECT l.tenant, l.run_id, min(l.provider) AS provider,
                sum(l.billed_cost * l.rate) AS billed_usd, sum(l.effective_cost * l.rate) AS effective_usd,
                sum(l.gpu_hours) AS gpu_hours, min(l.charge_period_start) AS first_charge,
                max(l.charge_period_end) AS last_charge,
                count(*) FILTER (WHERE l.rate IS NULL) AS unconverted_lines,
                string_agg(DISTINCT l.billing_currency, ', ') FILTER (WHERE l.rate IS NULL) AS unconverted_currencies
           FROM lines l
          GROUP BY l.tenant, l.run_id, CASE WHEN l.run_id IS NULL THEN l.provider END),
       joined AS (
         SELECT p.*, a.tenant AS a_tenant, a.run_id AS a_run_id, a.provider AS a_provider, a.billed_usd,
                a.effective_usd, a.gpu_hours AS actual_gpu_hours, a.first_charge, a.last_charge,
                a.unconverted_lines, a.unconverted_currencies,
                round(p.planned_usd, 2) AS planned_usd_cents,
                -- usage variance: (actual - planned GPU-hours) x planned price, to the cent
                round((a.gpu_hours - p.planned_gpu_hours::numeric) * p.usd_per_gpu_hour, 2) AS usage_variance_usd
           FROM llm_econ.run_plan p
           FULL JOIN actual a ON a.run_id = p.run_id AND a.tenant = p.tenant)
  SELECT coalesce(j.planned_at, j.first_charge) AS "time",
         coalesce(j.run_id, j.a_run_id) AS run_id, coalesce(j.tenant, j.a_tenant) AS tenant, j.team,
         coalesce(j.provider, j.a_provider) AS provider, j.pricing,
         j.planned_at, round(j.usd_per_gpu_hour, 6) AS planned_usd_per_gpu_hour,
         j.planned_usd_cents AS planned_usd, j.billed_usd, j.effective_usd,
         j.effective_usd - j.planned_usd_cents AS variance_usd,
         round(100::numeric * (j.effective_usd - j.planned_usd_cents) / nullif(j.planned_usd_cents, 0::numeric), 2) AS variance_pct,
         j.planned_gpu_hours, j.actual_gpu_hours,
         -- the MFU the billed GPU-hours imply; NULL when they are beyond an interval's range
         CASE WHEN j.actual_gpu_hours > 0::numeric AND j.run_id IS NOT NULL
               AND j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric <= 1e12::numeric
              THEN llm_econ.achieved_mfu(j.spec, make_interval(secs => (j.actual_gpu_hours / (j.spec).n_gpus::numeric * 3600::numeric)::float8))
         END AS implied_mfu,
         j.first_charge, j.last_charge,
         CASE WHEN j.run_id IS NULL AND j.a_run_id IS NULL THEN 'untagged'
              WHEN j.run_id IS NULL THEN 'unplanned'
              WHEN j.a_tenant IS NULL THEN 'no spend yet' ELSE 'planned and billed' END AS status,
         round(j.effective_usd / nullif(j.actual_gpu_hours, 0::numeric), 6) AS actual_usd_per_gpu_hour,
         -- price variance: the rest of the variance, (actual - planned $/GPU-h) x actual GPU-hours
         -- with actual $/GPU-h = effective USD / actual GPU-hours; the two add up to variance_usd
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL
              THEN (j.effective_usd - j.planned_usd_cents) - j.usage_variance_usd END AS price_variance_usd,
         CASE WHEN j.run_id IS NOT NULL AND j.actual_gpu_hours IS NOT NULL AND j.effective_usd IS NOT NULL
              THEN j.usage_variance_usd END AS usage_variance_usd,
         coalesce(j.unconverted_lines, 0::bigint) AS unconverted_lines, j.unconverted_currencies
    FROM joined j;
COMMENT ON VIEW llm_econ.plan_vs_actual IS
  'per tenant and run: planned (frozen) vs billed and effective USD, variance (effective - planned, USD and %) split into price and usage variance, planned vs billed GPU-hours and the MFU the billed GPU-hours imply; runs without spend, spend without a plan, and per tenant and provider the untagged spend all appear, so sum(billed_usd) is the invoices'' total (lines in a currency with no fx_rate excepted: unconverted_lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual."time" IS 'for dashboards: when the plan was made, else the first charge';
COMMENT ON COLUMN llm_econ.plan_vs_actual.run_id IS 'the run (NULL on untagged rows)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.tenant IS 'the plan''s or the spend''s tenant';
COMMENT ON COLUMN llm_econ.plan_vs_actual.team IS 'the plan''s team';
COMMENT ON COLUMN llm_econ.plan_vs_actual.provider IS 'planned provider; for spend without a plan, the billing provider';
COMMENT ON COLUMN llm_econ.plan_vs_actual.pricing IS 'planned pricing';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_at IS 'when the plan was made';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd_per_gpu_hour IS 'price planned with, USD per GPU-hour, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_usd IS 'planned USD (frozen), to the cent';
COMMENT ON COLUMN llm_econ.plan_vs_actual.billed_usd IS 'sum of BilledCost of the lines in USD (exact: the invoice''s amounts), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.effective_usd IS 'sum of EffectiveCost of the lines in USD (exact), lines with no known rate left out';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_usd IS 'effective_usd - planned_usd = price_variance_usd + usage_variance_usd';
COMMENT ON COLUMN llm_econ.plan_vs_actual.variance_pct IS '100 x variance_usd / planned_usd, 2 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.planned_gpu_hours IS 'planned GPU-hours (frozen)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_gpu_hours IS 'billed GPU-hours (GPU instance lines)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.implied_mfu IS 'achieved_mfu(spec, actual GPU-hours / n_gpus): below the planned mfu, the usage variance is (at least partly) lower efficiency';
COMMENT ON COLUMN llm_econ.plan_vs_actual.first_charge IS 'earliest charge period start of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.last_charge IS 'latest charge period end of the lines';
COMMENT ON COLUMN llm_econ.plan_vs_actual.status IS 'planned and billed, no spend yet, unplanned (spend with a run_id no plan of the tenant has), or untagged (spend with no run_id, per tenant and provider)';
COMMENT ON COLUMN llm_econ.plan_vs_actual.actual_usd_per_gpu_hour IS 'effective_usd / actual_gpu_hours: everything the run cost per GPU-hour it ran, 6 decimals';
COMMENT ON COLUMN llm_econ.plan_vs_actual.price_variance_usd IS '(actual - planned USD per GPU-hour) x actual GPU-hours = variance_usd - usage_variance_usd; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.usage_variance_usd IS '(actual - planned GPU-hours) x planned USD per GPU-hour, to the cent; for runs with GPU-hours planned and billed';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_lines IS 'lines in a currency with no fx_rate in effect: not in the USD sums';
COMMENT ON COLUMN llm_econ.plan_vs_actual.unconverted_currencies IS 'the currencies of those lines';


-- Billed and effective USD and GPU-hours per UTC day of the charge period start, per tenant,
-- provider and service category.  Amounts in USD at the fx_rate in effect at the charge period
-- start; lines with no known rate are not summed (unconverted_lines counts them).
-- security_invoker: readers see their tenants' lines only.
CREATE OR REPLACE VIEW llm_econ.spend_daily WITH (security_invoker = true) AS
  SELECT (date_trunc('day', s.charge_period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS "time",
         s.tenant, s.provider, s.service_category,
         sum(s.billed_cost * r.rate) AS billed_usd, sum(s.effective_cost * r.rate) AS effective_usd,
         sum(s.gpu_hours) AS gpu_hours, count(*) AS lines,
         count(DISTINCT s.run_id) AS runs,
         count(*) FILTER (WHERE r.rate IS NULL) AS unconverted_lines
    FROM llm_econ.spend s
   CROSS JOIN LATERAL (SELECT llm_econ._usd_per_unit(s.billing_currency, s.charge_period_start) AS rate) AS r
   GROUP BY 1, 2, 3, 4;
COMMENT ON VIEW llm_econ.spend_daily IS
  'billed and effective USD (converted at the fx_rate in effect), GPU-hours, lines and runs per UTC day (of the charge period start), tenant, provider and service category';
COMMENT ON COLUMN llm_econ.spend_daily."time" IS 'the day (midnight UTC)';
COMMENT ON COLUMN llm_econ.spend_daily.tenant IS 'the lines'' tenant';
COMMENT ON COLUMN llm_econ.spend_daily.provider IS 'provider';
COMMENT ON COLUMN llm_econ.spend_daily.service_category IS 'FOCUS ServiceCategory';
COMMENT ON COLUMN llm_econ.spend_daily.billed_usd IS 'sum of BilledCost in USD (exact; lines with no known exchange rate left out)';
COMMENT ON COLUMN llm_econ.spend_daily.effective_usd IS 'sum of EffectiveCost in USD (exact; lines with no known exchange rate left out)';
COMMENT ON COLUMN llm_econ.spend_daily.gpu_hours IS 'sum of GPU-hours of GPU instance lines';
COMMENT ON COLUMN llm_econ.spend_daily.lines IS 'billing lines';
COMMENT ON COLUMN llm_econ.spend_daily.runs IS 'distinct run_id tags';
COMMENT ON COLUMN llm_econ.spend_daily.unconverted_lines IS 'lines in a currency with no fx_rate in effect (not in the USD sums)';
