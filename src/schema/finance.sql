-- finance.sql (stateful): plans, bills, exchange rates, the FOCUS line type and staging table.
CREATE TABLE llm_econ.run_plan (
    run_id             text NOT NULL CHECK (run_id OPERATOR(pg_catalog.<>) ''),
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
    notes              text,
    -- run ids are per tenant: two tenants may use the same one, and neither can tell
    CONSTRAINT run_plan_pkey PRIMARY KEY (tenant, run_id)
);

-- FOCUS-shaped billing lines.  Every line of an imported file is kept (GPU or not): the typed
-- columns are what reports need, and "record" keeps the original line's other columns.
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
    gpu_hours            numeric CHECK (gpu_hours > '-Infinity' AND gpu_hours < 'Infinity'),
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
    row_hash             text COLLATE "C" NOT NULL,
    occurrence           int4 NOT NULL DEFAULT 1,
    imported_at          timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (charge_period_end >= charge_period_start),
    -- the k-th copy of a charge in a tenant's bills is stored once: re-importing charges adds
    -- nothing, and identical charges within one file are all kept.  The identity leads, compared
    -- byte for byte: identities are spread, so a load's inserts into this index rarely compare
    -- more than it (tenant first made every comparison two text comparisons)
    CONSTRAINT spend_one_line UNIQUE (row_hash, tenant, occurrence),
    billing_account_id   text,
    delivery             text
);
CREATE INDEX spend_run_id ON llm_econ.spend (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX spend_charge_period ON llm_econ.spend (charge_period_start);
-- what a delivery replaces is found by billing period and tenant (the provider and account are
-- checked on the rows): by period alone, a tenant's load read every tenant's lines of the month,
-- a load time growing with the whole table (0.5.0: 50,000 lines took 3 min among 2.2M)
CREATE INDEX spend_billing_period ON llm_econ.spend (billing_period_start, tenant);

-- Row-level security by tenant, shipped with the tables (so it survives pg_dump).
ALTER TABLE llm_econ.run_plan ENABLE ROW LEVEL SECURITY;
ALTER TABLE llm_econ.spend ENABLE ROW LEVEL SECURITY;

-- Loads of one statement (a tenant, provider, billing account and billing period) serialise on
-- its row here (issue 43): _focus_store upserts the rows of its statements, which locks them, so
-- only a role that may write that tenant's spend can take the lock (row security: a member of
-- the tenant holding INSERT on spend), never an advisory lock key anyone can compute.  Derived
-- (one row per statement ever loaded), not dumped.
CREATE TABLE llm_econ.focus_statement_lock (
    tenant               text NOT NULL,
    provider             text,
    billing_account_id   text,
    billing_period_start timestamptz,
    CONSTRAINT focus_statement_lock_key UNIQUE NULLS NOT DISTINCT (tenant, provider, billing_account_id, billing_period_start)
);
ALTER TABLE llm_econ.focus_statement_lock ENABLE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE ON llm_econ.focus_statement_lock TO PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('llm_econ.run_plan', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend', '');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.spend_id_seq', '');

-- Exchange rates, dated like prices: a rate holds from valid_from until the next one of its currency.
CREATE TABLE llm_econ.fx_rate (
    currency      text NOT NULL CHECK (currency OPERATOR(pg_catalog.~) '^[A-Z]{3}$'),
    valid_from    date NOT NULL CHECK (pg_catalog.isfinite(valid_from)),
    usd_per_unit  numeric NOT NULL CHECK (usd_per_unit > 0::numeric AND usd_per_unit < 'Infinity'),
    source        text NOT NULL CHECK (source OPERATOR(pg_catalog.<>) ''),
    CONSTRAINT fx_rate_pkey PRIMARY KEY (currency, valid_from)
);
SELECT pg_catalog.pg_extension_config_dump('llm_econ.fx_rate', '');
GRANT SELECT ON llm_econ.fx_rate TO PUBLIC;

-- FOCUS lines typed in C: periods (UTC when no offset is written, date-only included), the provider
-- key (AWS -> aws, Microsoft -> azure, ...), pricing, the GPU machine (SkuPriceDetails' InstanceType,
-- else a word of ChargeDescription that is a machine-type alias: AWS writes "... per On Demand Linux
-- p5.48xlarge Instance Hour"), GPUs per machine (SkuPriceDetails' GpuCount, a whole number, else the
-- alias's), GPU-hours, amounts, the run (the Tags key of llm_econ.run_tag_keys, x_run_id column, Tags x_run_id), and the charge
-- identity (row_hash).  The first bad line is an error naming the line and the column.
CREATE TYPE llm_econ._focus_line AS (
    line int4, record jsonb, charge_period_start timestamptz, charge_period_end timestamptz,
    billing_period_start timestamptz, billing_period_end timestamptz, provider text, service_name text,
    service_category text, charge_category text, charge_description text, pricing_category text, pricing text,
    region text, sku text, instance_type text, gpus_per_instance int4, gpu_type text, consumed_quantity numeric,
    consumed_unit text, gpu_hours numeric, billed_cost numeric, effective_cost numeric, list_cost numeric,
    billing_currency text, run_id text, resource_id text, tags jsonb, billing_account_id text, row_hash text,
    occurrence int4, staged_id int8, last_line int4
);

-- The staged path: \copy a FOCUS file into focus_staging, one physical line per row, then load_focus().
CREATE TABLE llm_econ.focus_staging (
    id      bigserial PRIMARY KEY,
    writer  text NOT NULL DEFAULT CURRENT_USER,
    line    text
);
CREATE INDEX focus_staging_writer ON llm_econ.focus_staging (writer, id);
ALTER TABLE llm_econ.focus_staging ENABLE ROW LEVEL SECURITY;
