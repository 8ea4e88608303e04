-- dashboards.sql (stateful): the daily price summary tables and their shipped rows.
-- A day's row holds the prices in effect at the end of that UTC day (the latest observation
-- strictly before the next midnight, as price_daily always counted) over the series of one
-- (sku, provider, pricing) group.  Rows run densely from the group's first observation day to
-- its last; the days after that, up to yesterday, repeat the last row and are produced by the
-- views (_price_daily_all), so nothing needs refreshing as the calendar moves on.  A panel
-- reads an index range of this table: its cost grows with the range shown, not with the history.
-- It keeps the days from 2000-01-01 to 2100-01-01 (an observation dated outside counts from or
-- up to those bounds), so a mistyped year cannot make a group millions of rows long.
-- Derived data: not dumped, rebuilt as price_snapshot is loaded.
CREATE TABLE llm_econ.price_daily_summary (
    "time"      timestamptz NOT NULL,
    sku         text NOT NULL,
    provider    text NOT NULL,
    pricing     text NOT NULL,
    offers      int4 NOT NULL CHECK (offers > 0),
    min_usd     numeric NOT NULL,
    median_usd  numeric NOT NULL,
    max_usd     numeric NOT NULL,
    sum_usd     numeric NOT NULL
);

-- One row per (sku, provider, pricing) group with observations: the day of its last
-- observation (where its summary rows end), and the row writers lock to serialise the
-- maintenance of one group.
CREATE TABLE llm_econ.price_daily_group (
    sku        text NOT NULL,
    provider   text NOT NULL,
    pricing    text NOT NULL,
    last_day   timestamptz,
    dirty_since timestamptz,
    PRIMARY KEY (sku, provider, pricing)
);

-- The summary of the shipped prices, shipped with them (data/price_daily_group.csv,
-- data/price_daily_summary.csv: what _price_daily_refresh makes of the shipped rows, written by
-- src/gen_history_points.sh and checked against it by the regression test shipped_history):
-- building it here took 0.2 s of CREATE EXTENSION.  An updated install builds it from its own
-- prices (src/update/0.3.0/60_dashboards.sql).
DO $load$
DECLARE
  dir constant text := (SELECT c.setting FROM pg_catalog.pg_config() c
                         WHERE c.name OPERATOR(pg_catalog.=) 'SHAREDIR') || '/extension/llm_econ/';
BEGIN
  EXECUTE 'COPY llm_econ.price_daily_group (sku, provider, pricing, last_day) FROM '
       || pg_catalog.quote_literal(dir || 'price_daily_group.csv') || ' WITH (FORMAT csv, HEADER MATCH)';
  EXECUTE 'COPY llm_econ.price_daily_summary ("time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd) FROM '
       || pg_catalog.quote_literal(dir || 'price_daily_summary.csv') || ' WITH (FORMAT csv, HEADER MATCH)';
END
$load$;
ALTER TABLE llm_econ.price_daily_summary ADD PRIMARY KEY (sku, provider, pricing, "time");
CREATE INDEX price_daily_summary_time ON llm_econ.price_daily_summary ("time");
GRANT SELECT ON llm_econ.price_daily_summary, llm_econ.price_daily_group TO PUBLIC;
