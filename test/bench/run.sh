#!/usr/bin/env bash
# run.sh: the benchmark (not a test: it prints medians and ratios, it never fails on speed). Debian 12, as root.
#   bash test/bench/run.sh            model functions over 10M rows; price lookups on 1M- and 10M-row histories;
#                                     dashboards on 1M synthetic observations; per-row cost and import goals;
#                                     cheapest_plan over 30 SKUs x 100 offers (bench_plan.sql)
#   ROWS=1000000 HISTORIES="1000000" REPS=3 bash test/bench/run.sh    a quicker run
#   DASH_10M=1 ...                    dashboards also on 10M observations, printed against 1M (about
#                                     half an hour more on 2 cores; off by default, for CI)
#   ONLY="dash rowcost" ...           only these parts (model prices dash rowcost plan)
#   PG_CONFIG=/path/to/pg_config PORT=35432 ...
#                                     build and install with that pg_config and run each part in a
#                                     throwaway cluster of its own binaries on PORT (initdb/pg_ctl), e.g.
#                                     a private copy of PostgreSQL; without PG_CONFIG: the system's, via
#                                     pg_virtualenv (which installs into the system PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS=${ROWS:-10000000}
HISTORIES=${HISTORIES:-"1000000 10000000"}
# dashboards: synthetic observations added to the shipped history (issue 16: 1M; 10M for growth on request)
DASH_OBS=${DASH_OBS:-1000000}
DASH_10M=${DASH_10M:-0}
DASH_BIG=${DASH_BIG:-10000000}   # the "10M" step's size
# per-row cost goals of issue 16 (estimate_cost with a constant / stored spec, import vs COPY)
ROWCOST_ROWS=${ROWCOST_ROWS:-2000000}
REPS=${REPS:-5}
ONLY=${ONLY:-"model prices dash rowcost plan"}
PORT=${PORT:-35432}
BIG="shared_buffers=1GB work_mem=64MB max_wal_size=8GB"

want() { [[ " $ONLY " == *" $1 "* ]]; }

if [ -n "${PG_CONFIG:-}" ]; then
  make -s PG_CONFIG="$PG_CONFIG" all >/dev/null && make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
  BINDIR=$("$PG_CONFIG" --bindir)
  VERSION=$("$PG_CONFIG" --version)
else
  make -s all >/dev/null && make -s install >/dev/null
  VERSION=$(pg_config --version)
fi

# with_cluster "setting=value ..." psql-arguments...: psql against a throwaway cluster with those settings
with_cluster() {
  local settings=$1; shift
  if [ -z "${PG_CONFIG:-}" ]; then
    local o=() kv
    for kv in $settings; do o+=(-o "$kv"); done
    pg_virtualenv -t "${o[@]}" psql -X -q "$@"
    return
  fi
  local dir opts="" kv as=()
  dir=$(mktemp -d /tmp/llm_econ_bench.XXXXXX)
  [ "$(id -u)" -eq 0 ] && { chown postgres "$dir"; as=(runuser -u postgres --); }
  for kv in $settings; do opts+=" -c $kv"; done
  "${as[@]}" "$BINDIR/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
  "${as[@]}" "$BINDIR/pg_ctl" -D "$dir/data" -o "-p $PORT -k $dir $opts" -l "$dir/log" -w start >/dev/null
  local rc=0
  "${as[@]}" env PGHOST="$dir" PGPORT="$PORT" PGUSER=postgres PGDATABASE=postgres "$BINDIR/psql" -X -q "$@" || rc=$?
  "${as[@]}" "$BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  rm -rf "$dir"
  return $rc
}

echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg), $VERSION"
if want model; then
  echo "== model functions over $ROWS rows"
  with_cluster "$BIG jit=off" -v rows="$ROWS" -v reps="$REPS" -f test/bench/bench.sql 2>&1 | sed -n '/^== /,$p' | grep -v '^ bench\|^-------$\|^ $\|^$' || true
fi
if want prices; then
  for h in $HISTORIES; do
    echo "== price lookups on a $h-row history"
    with_cluster "$BIG jit=off" -v rows="$h" -v reps="$REPS" -f test/bench/bench_prices.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
  done
fi
if want dash; then
  saved=/tmp/llm_econ_bench_dash_$$.csv
  echo "== dashboards on the shipped history + $DASH_OBS synthetic observations (load $(cut -d' ' -f1-3 /proc/loadavg))"
  with_cluster "$BIG" -v obs="$DASH_OBS" -v reps="$REPS" -v save="$saved" -f test/bench/bench_dashboards.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
  if [ "$DASH_10M" = 1 ] && [ -s "$saved" ]; then
    echo "== dashboards on the shipped history + $DASH_BIG synthetic observations, against $DASH_OBS (load $(cut -d' ' -f1-3 /proc/loadavg))"
    with_cluster "$BIG" -v obs="$DASH_BIG" -v reps="$REPS" -v compare="$saved" -f test/bench/bench_dashboards.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
  fi
  rm -f "$saved"
fi
if want rowcost; then
  echo "== per-row cost over $ROWCOST_ROWS rows, and import vs COPY (load $(cut -d' ' -f1-3 /proc/loadavg))"
  with_cluster "$BIG jit=off" -v rows="$ROWCOST_ROWS" -v reps="$REPS" -f test/bench/bench_rowcost.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
fi
if want plan; then
  echo "== cheapest_plan: 30 SKUs x 100 offers, up to 16,384 GPUs"
  with_cluster "jit=off" -v reps="$REPS" -f test/bench/bench_plan.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
fi
echo "== load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
