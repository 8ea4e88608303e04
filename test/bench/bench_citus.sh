#!/usr/bin/env bash
# bench_citus.sh: the month close at scale (not a test: it prints rates and medians, it never fails on speed): FOCUS lines of dozens of tenants loaded as their writer and closed (spend_monthly, plan_vs_actual_monthly) on Citus 1 + 2 against one node.
#
# usage (as root, Debian 12): PG_CONFIG=/path/to/pg_config bash test/bench/bench_citus.sh
#   LINES=1000000 TENANTS=24 REPS=5   lines in all (LINES / TENANTS per tenant), tenants, repetitions
# llm_econ and Citus must be installed in PG_CONFIG's PostgreSQL (pgdev.sh install / run.sh's build,
# test/citus/build.sh). One cluster of test/citus/cluster.sh (coordinator + 2 workers on loopback, its
# settings: shared_buffers=32MB, fsync off); the single node is a database of the coordinator's server,
# so both sides share the machine, the settings and the run. Every tenant's file is focus_gen.py's
# (the FOCUS 1.0 sample repeated, each line a new charge); odd tenants' lines are in EUR (an fx_rate
# is written on every node), so the USD sums convert. Each tenant's file is \copy'd into focus_stage
# and loaded with load_focus by a writer of the recipe (docs/finance.md), not the owner.
# Printed: per side, the staging and load rates (lines/s over all tenants), then medians of REPS of
# the month close: all tenants' spend_monthly and plan_vs_actual_monthly (as the owner), and one
# tenant's (as its reader, row-level security applying).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
LINES=${LINES:-1000000}
TENANTS=${TENANTS:-24}
REPS=${REPS:-5}
PER=$((LINES / TENANTS))
export PGTZ=UTC PGOPTIONS="-c statement_timeout=0"
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(df -k --output=avail /dev/shm | tail -1)" -gt 8000000 ] && base=/dev/shm
DIR=$(mktemp -d "$base/llm_econ_bench_citus.XXXXXX"); rmdir "$DIR"
WORK=$(mktemp -d /tmp/llm_econ_bench_citus_files.XXXXXX); chmod 755 "$WORK"
trap 'bash test/citus/cluster.sh down "$DIR" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("$PG_CONFIG" --version); $LINES lines, $TENANTS tenants ($PER each), REPS=$REPS"
bash test/citus/cluster.sh up "$DIR"
. "$DIR/env"
P() { local db=$1 user=$2; shift 2; "$CITUS_PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$CITUS_SOCKET" -p "$COORD_PORT" -U "$user" -d "$db" "$@"; }
P econ postgres -c "CREATE EXTENSION llm_econ"
P econ postgres -f test/citus/topology.sql >/dev/null
P postgres postgres -c "CREATE DATABASE single"
P single postgres -c "CREATE EXTENSION llm_econ"

# roles of the recipe: tenants t01.., one writer member of all, one reader of t01
roles="CREATE ROLE bench_writer LOGIN; CREATE ROLE bench_reader LOGIN;"
for i in $(seq -w 1 "$TENANTS"); do roles+=" CREATE ROLE t$i NOLOGIN; GRANT t$i TO bench_writer;"; done
P econ postgres -c "$roles GRANT t01 TO bench_reader;"
tenants=$(seq -s, -f "t%02g" 1 "$TENANTS")
for db in econ single; do
  P $db postgres -c "GRANT SELECT ON llm_econ.run_plan, llm_econ.spend, llm_econ.observed_run TO $tenants" \
    -c "GRANT INSERT, UPDATE, DELETE ON llm_econ.run_plan, llm_econ.spend TO bench_writer" \
    -c "GRANT USAGE ON SEQUENCE llm_econ.spend_id_seq, llm_econ.focus_staging_id_seq TO bench_writer" \
    -c "GRANT SELECT, INSERT, DELETE ON llm_econ.focus_staging TO bench_writer" \
    -c "GRANT INSERT ON llm_econ.focus_stage TO bench_writer"
done
fx="INSERT INTO llm_econ.fx_rate (currency, valid_from, usd_per_unit, source) VALUES ('EUR', '2024-01-01', 1.0832, 'bench')"
P econ postgres -c "SELECT llm_econ_sync.everywhere(\$\$$fx\$\$)" >/dev/null
P single postgres -c "$fx"

python3 test/bench/focus_gen.py "$PER" "$WORK/usd.csv"
sed '2,$s/,USD,/,EUR,/' "$WORK/usd.csv" > "$WORK/eur.csv"
chmod 644 "$WORK"/*.csv
STAGE="WITH (FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e')"
ms() { date +%s%3N; }
declare -A LOAD STAGED
for db in single econ; do
  s=0; l=0
  for i in $(seq -w 1 "$TENANTS"); do
    f=$WORK/usd.csv; [ $((10#$i % 2)) -eq 1 ] && f=$WORK/eur.csv
    t0=$(ms); P $db bench_writer -c "\\copy llm_econ.focus_stage (line) FROM '$f' $STAGE"
    t1=$(ms); P $db bench_writer -c "SELECT inserted FROM llm_econ.load_focus('t$i', 'bench')" >/dev/null
    t2=$(ms); s=$((s + t1 - t0)); l=$((l + t2 - t1))
  done
  STAGED[$db]=$s; LOAD[$db]=$l
  P $db postgres -c "VACUUM ANALYZE llm_econ.spend" 2>/dev/null || true
  echo "$db: staged $((PER * TENANTS)) lines in $s ms ($((PER * TENANTS * 1000 / (s > 0 ? s : 1))) lines/s), loaded in $l ms ($((PER * TENANTS * 1000 / (l > 0 ? l : 1))) lines/s)"
done
check=$(P single postgres -c "SELECT count(*), sum(billed_usd) FROM llm_econ.spend_monthly")
[ "$check" = "$(P econ postgres -c "SELECT count(*), sum(billed_usd) FROM llm_econ.spend_monthly")" ] \
  && echo "spend_monthly: the same on both ($check)" || echo "spend_monthly DIFFERS: single $check, Citus $(P econ postgres -c "SELECT count(*), sum(billed_usd) FROM llm_econ.spend_monthly")"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
timeq() {   # db user query: median ms of REPS after one warm-up
  local db=$1 user=$2 q=$3
  P $db $user -c "$q" >/dev/null
  for _ in $(seq "$REPS"); do
    P $db $user -c '\timing on' -c "$q" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
  done | median
}
Q1="SELECT billing_month, count(*), sum(billed_usd), sum(lines) FROM llm_econ.spend_monthly GROUP BY 1"
Q2="SELECT billing_month, count(*), sum(billed_usd), sum(gpu_hours) FROM llm_econ.plan_vs_actual_monthly GROUP BY 1"
Q3="SELECT * FROM llm_econ.spend_monthly WHERE tenant = 't01'"
Q4="SELECT * FROM llm_econ.plan_vs_actual_monthly WHERE tenant = 't01'"
printf '| side | stage lines/s | load lines/s | spend_monthly, all (ms) | plan_vs_actual_monthly, all (ms) | spend_monthly, 1 tenant, reader (ms) | plan_vs_actual_monthly, 1 tenant, reader (ms) |\n|---|---|---|---|---|---|---|\n'
for db in single econ; do
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$([ $db = econ ] && echo "Citus 1 + 2" || echo "one node")" \
    "$((PER * TENANTS * 1000 / STAGED[$db]))" "$((PER * TENANTS * 1000 / LOAD[$db]))" \
    "$(timeq $db postgres "$Q1")" "$(timeq $db postgres "$Q2")" "$(timeq $db bench_reader "$Q3")" "$(timeq $db bench_reader "$Q4")"
done
