#!/usr/bin/env bash
# gen_history_points.sh: rewrites data/gcp_gpu_price_history_change_points.csv, the GCP history's change points as llm_econ._load_price_history makes them from data/gcp_gpu_price_history.csv (with last_seen_at, when each was last vouched for), and the daily summary of the shipped prices (data/price_daily_group.csv, data/price_daily_summary.csv).
#
# Run as root after `make install` (PG_CONFIG: which PostgreSQL, default the system's 15), when
# the raw history, the SKU tables or the loader change:
#   bash src/gen_history_points.sh            then `make install` again and run the tests
# A throwaway cluster of that PostgreSQL's binaries runs as postgres on PORT (default 35434).
# It installs the extension, removes the GCP rows, sets the id sequence where the install
# starts the history (after the seed rows of price_seed.csv), stages the raw file, runs the
# loader as the install script used to (on_mismatch => 'skip'), deletes the rows the
# corrections file names, and writes what is left, in id order.  The regression test shipped_history repeats the load and compares it with the
# file, so a file that no longer matches the loader fails the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PORT=${PORT:-35434}
BINDIR=$("$PG_CONFIG" --bindir)
OUT=data/gcp_gpu_price_history_change_points.csv
SOURCE=$(sed -n "s/^ *'\(GCP price history .*\)';$/\1/p" src/sql/data.sql)
[ -n "$SOURCE" ] || { echo "$0: the history's source text not found in src/sql/data.sql" >&2; exit 1; }

DB=$(mktemp -d /tmp/llm_econ_gen_points.XXXXXX)
chown postgres "$DB"
runuser -u postgres -- "$BINDIR/initdb" -D "$DB/data" -A trust >/dev/null
runuser -u postgres -- "$BINDIR/pg_ctl" -D "$DB/data" -l "$DB/log" -w -o "-p $PORT -k $DB" start >/dev/null
trap 'runuser -u postgres -- "$BINDIR/pg_ctl" -D "$DB/data" -m immediate stop >/dev/null 2>&1; rm -rf "$DB"' EXIT

runuser -u postgres -- "$BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$DB" -p "$PORT" -d postgres \
  -v source="$SOURCE" > "$DB/points.csv" <<'SQL'
SET client_min_messages = warning;
SET DateStyle = ISO;
SET TimeZone = 'UTC';
CREATE EXTENSION llm_econ;
SELECT c.setting || '/extension/llm_econ/' AS dir FROM pg_catalog.pg_config() c WHERE c.name = 'SHAREDIR' \gset
BEGIN;
DELETE FROM llm_econ.price_snapshot WHERE provider = 'gcp';
SELECT setval('llm_econ.price_snapshot_id_seq', (SELECT max(id) FROM llm_econ.price_snapshot)) \g /dev/null
SELECT format('COPY llm_econ.price_history_staging (observed_at, valid_to, cloud, region, instance_type, accelerator, '
              'accelerator_count, price_on_demand_usd_per_hour, spot_price_usd_per_hour, price_on_demand_per_gpu_usd_per_hour, '
              'spot_price_per_gpu_usd_per_hour) FROM %L WITH (FORMAT csv, HEADER MATCH)',
              :'dir' || 'gcp_gpu_price_history.csv') \gexec
SELECT * FROM llm_econ._load_price_history(source => :'source', on_mismatch => 'skip', quiet => true) \g /dev/null
-- less the rows known to be wrong (data/gcp_gpu_price_history_corrections.csv: host-only prices)
\o /dev/null
\i src/correct_history.sql
\o
COPY (SELECT id, observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, gpus_per_instance,
             last_seen_at
        FROM llm_econ.price_snapshot WHERE provider = 'gcp' ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER);
ROLLBACK;
SQL
grep -v '^COPY ' "$DB/points.csv" > "$OUT.new"
if cmp -s "$OUT.new" "$OUT"; then rm "$OUT.new"; changed=0; else mv "$OUT.new" "$OUT"; changed=1; fi
echo "$OUT: $(( $(wc -l < "$OUT") - 1 )) change points$([ $changed = 1 ] && echo ', changed')" >&2

# The daily summary of the installed prices, rebuilt from scratch as an updated install builds
# it (data/price_daily_group.csv, data/price_daily_summary.csv; the install script COPYs them).
# It is computed from the points installed, so after the points changed: make install, run again.
for t in group summary; do
  case $t in
    group) cols='sku, provider, pricing, last_day'; key='sku, provider, pricing' ;;
    summary) cols='"time", sku, provider, pricing, offers, min_usd, median_usd, max_usd, sum_usd'; key='sku, provider, pricing, "time"' ;;
  esac
  runuser -u postgres -- "$BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$DB" -p "$PORT" -d postgres > "$DB/$t.csv" <<SQL
SET client_min_messages = warning;
SET DateStyle = ISO;
SET TimeZone = 'UTC';
BEGIN;
DELETE FROM llm_econ.price_daily_summary;
DELETE FROM llm_econ.price_daily_group;
INSERT INTO llm_econ.price_daily_group (sku, provider, pricing, dirty_since)
SELECT DISTINCT s.sku, s.provider, s.pricing, '-infinity'::timestamptz FROM llm_econ.price_series s;
SELECT llm_econ._price_daily_refresh() \g /dev/null
COPY (SELECT $cols FROM llm_econ.price_daily_$t ORDER BY $key) TO STDOUT WITH (FORMAT csv, HEADER);
ROLLBACK;
SQL
  grep -v '^COPY ' "$DB/$t.csv" > "data/price_daily_$t.csv"
  echo "data/price_daily_$t.csv: $(( $(wc -l < "data/price_daily_$t.csv") - 1 )) rows" >&2
done
[ $changed = 0 ] || echo "$0: the change points changed: make install, then run this again for the summary" >&2
