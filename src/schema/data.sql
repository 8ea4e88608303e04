-- data.sql: loads the shipped reference data (data/*.csv, installed into SHAREDIR/extension/llm_econ/) with COPY.
--
-- The CSV files are the data's one copy: `make install` puts them next to the install script,
-- and this part of the script reads them from the server's share directory (pg_config()'s
-- SHAREDIR, which follows a relocated installation), the way postgresql-unit ships its tables.
-- COPY from a server file needs a superuser; the extension is not trusted, so CREATE EXTENSION
-- is run by one anyway.  `perl src/check_data.pl data` validates every value at build time (a
-- bad file fails the build with FILE:LINE); HEADER MATCH makes COPY refuse a file whose
-- columns are not the expected ones, in order.
--
-- Shipped rows carry builtin = true (pg_dump keeps only user rows): the column's default is
-- true while the files load and false again afterwards.  Rows load in file order, so a fresh
-- install gives every row the id an updated one gives it (src/update/0.3.0/20_prices.sql).
--
-- Why the GCP history's change points are shipped and not derived here (issue 18: CREATE
-- EXTENSION under 0.3 s): running the loader over the 15,932 raw lines took 1.1 s of the 1.46 s;
-- COPY of its output takes a tenth of that.  The raw file stays the source: the points file is
-- written by src/gen_history_points.sh through the same loader, and the regression test
-- shipped_history fails unless the loader still yields exactly these rows, so they cannot drift.
-- Speeding up the loader instead was not enough: its per-line checks and change-point windows
-- are what a user's load needs, and no form of them came near 0.1 s.
DO $load$
DECLARE
  dir constant text := (SELECT c.setting FROM pg_catalog.pg_config() c
                         WHERE c.name OPERATOR(pg_catalog.=) 'SHAREDIR') || '/extension/llm_econ/';
  opts constant text := ' WITH (FORMAT csv, HEADER MATCH, ENCODING ''UTF8'')';
BEGIN
  ALTER TABLE llm_econ.gpu_sku ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.gpu_sku_alias ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.instance_type ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.gcp_machine_family ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.mfu_reference ALTER COLUMN builtin SET DEFAULT true;
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN builtin SET DEFAULT true;

  EXECUTE 'COPY llm_econ.gpu_sku (sku, vendor, name, hbm_gb, hbm_bytes, hbm_gb_per_s, fp32_tflops, tf32_tflops, '
       || 'bf16_tflops, fp16_tflops, fp8_tflops, nvlink_gb_per_s, pcie_gb_per_s, gpus_per_node, tdp_watts, '
       || 'list_price_usd_low, list_price_usd_high, released, source) FROM '
       || pg_catalog.quote_literal(dir || 'gpu_sku.csv') || opts;
  EXECUTE 'COPY llm_econ.gpu_sku_alias (alias, sku, gpus_per_instance, source) FROM '
       || pg_catalog.quote_literal(dir || 'gpu_sku_alias.csv') || opts;
  EXECUTE 'COPY llm_econ.instance_type (provider, instance_type, sku, gpus, network_gbit_per_s, nvlink_domain, source) FROM '
       || pg_catalog.quote_literal(dir || 'instance_type.csv') || opts;
  EXECUTE 'COPY llm_econ.gcp_machine_family (machine_family, accelerator, alt_accelerator, source) FROM '
       || pg_catalog.quote_literal(dir || 'gcp_machine_family.csv') || opts;
  EXECUTE 'COPY llm_econ.mfu_reference (config, hardware, mfu, year, source) FROM '
       || pg_catalog.quote_literal(dir || 'mfu_reference.csv') || opts;

  -- The prices go in as a bulk load, as pg_restore --disable-triggers does it: the triggers
  -- are off (the per-row foreign key check; the import lock: no importer named a provider; the
  -- suspect check: catalog rows only; the series one), the SKUs are checked once afterwards,
  -- price_series is filled once at the end, and price_snapshot's secondary indexes are built
  -- after the load (tables.sql leaves them to this file).
  ALTER TABLE llm_econ.price_snapshot DISABLE TRIGGER ALL;

  -- the seed's price figures, of source_kind 'seed' (the kind is the column's default while each
  -- file loads, a constant rather than llm_econ._source_kind()'s lookup of the setting per row)
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT 'seed';
  EXECUTE 'COPY llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, '
       || 'instance_type, gpus_per_instance, source) FROM '
       || pg_catalog.quote_literal(dir || 'price_seed.csv') || opts;

  -- The GCP history's change points, as llm_econ._load_price_history (import.sql, the loader
  -- users run on their own histories) makes them from data/gcp_gpu_price_history.csv, ids
  -- included, each with when the history last vouched for its price (last_seen_at, 0.4.0: the
  -- valid_to of the last line listing it), less the rows known to be wrong
  -- (gcp_gpu_price_history_corrections.csv: host-only machine prices; the rows kept keep their
  -- ids, and an updated install deleted the same rows, src/update/llm_econ--0.2.0--0.3.0.sql;
  -- their series keep any withdrawal rows): gcp_gpu_price_history_change_points.csv, written by
  -- src/gen_history_points.sh and checked against the loader by the regression test
  -- shipped_history, so they cannot drift.  COPY instead of the loader (1.1 s; see
  -- docs/internals.md), straight into the table in file order.  The sequence goes where the
  -- loader leaves it, and the import lock gets the row the loader's lock gives it.
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source SET DEFAULT
    'GCP price history 2022-02..2026-08, Cyclenerd/google-cloud-pricing-cost-calculator (Apache-2.0), via data/gcp_gpu_price_history.csv';
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source_kind SET DEFAULT 'history';
  EXECUTE 'COPY llm_econ.price_snapshot (id, observed_at, provider, sku, region, pricing, usd_per_gpu_hour, '
       || 'instance_type, gpus_per_instance, last_seen_at) FROM '
       || pg_catalog.quote_literal(dir || 'gcp_gpu_price_history_change_points.csv') || opts;
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN source DROP DEFAULT,
                                      ALTER COLUMN source_kind SET DEFAULT llm_econ._source_kind();
  PERFORM 1 FROM llm_econ.price_snapshot p
   WHERE NOT EXISTS (SELECT 1 FROM llm_econ.gpu_sku g WHERE g.sku OPERATOR(pg_catalog.=) p.sku);
  IF FOUND THEN
    RAISE EXCEPTION 'a shipped price names a SKU that gpu_sku.csv does not define'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  -- The primary key and indexes, built once over the loaded rows (tables.sql leaves them here).
  ALTER TABLE llm_econ.price_snapshot ADD PRIMARY KEY (id);
  -- One observation per series and instant.  The same index serves as-of lookups: for one
  -- series, "latest observation at or before t" is a single backward index probe.
  CREATE UNIQUE INDEX price_snapshot_one_observation ON llm_econ.price_snapshot (series_id, observed_at);
  CREATE INDEX price_snapshot_observed_at ON llm_econ.price_snapshot (observed_at);
  PERFORM pg_catalog.setval('llm_econ.price_snapshot_id_seq', pg_catalog.max(p.id)) FROM llm_econ.price_snapshot p;
  INSERT INTO llm_econ.import_lock (provider) VALUES ('gcp');
  -- and the staging table's ids go on after the raw file's lines, as when the install staged
  -- them (an updated install has the same; src/check_data.pl checks the number is the line count)
  PERFORM pg_catalog.setval('llm_econ.price_history_staging_id_seq', 15932);

  ALTER TABLE llm_econ.gpu_sku ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.gpu_sku_alias ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.instance_type ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.gcp_machine_family ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.mfu_reference ALTER COLUMN builtin SET DEFAULT false;
  ALTER TABLE llm_econ.price_snapshot ALTER COLUMN builtin SET DEFAULT false;

  -- the series of the rows loaded, as the trigger (tables.sql, _price_series_add) records them
  INSERT INTO llm_econ.price_series (sku, provider, pricing, region, instance_type)
  SELECT DISTINCT p.sku, p.provider, p.pricing, p.region, p.instance_type FROM llm_econ.price_snapshot p;
  ALTER TABLE llm_econ.price_snapshot ENABLE TRIGGER ALL;
END
$load$;

-- instance_type and gcp_machine_family (0.4.0) keep their user rows in a dump.  Registered here, after every table of
-- 0.3.0 (finance.sql's fx_rate is the last), in the order the update to 0.4.0 registers it, so
-- a fresh install and an updated one list the extension's configuration tables alike.
SELECT pg_catalog.pg_extension_config_dump('llm_econ.instance_type', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('llm_econ.gcp_machine_family', 'WHERE NOT builtin');
