#!/usr/bin/env bash
# run.sh: the benchmark (not a test: it prints medians and ratios, it never fails on speed). Debian 12, as root.
#   bash test/bench/run.sh            model functions over 10M rows; price lookups on 1M- and 10M-row histories;
#                                     cheapest_plan over 30 SKUs x 100 offers (bench_plan.sql)
#   ROWS=1000000 HISTORIES="1000000" DASH_OBS=1000000 REPS=3 bash test/bench/run.sh    a quicker run
#   then dashboard panels on DASH_OBS synthetic observations and the per-row cost goals (goals printed as met/missed)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS=${ROWS:-10000000}
HISTORIES=${HISTORIES:-"1000000 10000000"}
# dashboards: synthetic observations added to the shipped history (issue 16: 1M, and 10M for growth)
DASH_OBS=${DASH_OBS:-"1000000 10000000"}
# per-row cost goals of issue 16 (estimate_cost with a constant / stored spec, import vs COPY)
ROWCOST_ROWS=${ROWCOST_ROWS:-2000000}
REPS=${REPS:-5}

make -s all >/dev/null && make -s install >/dev/null
echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg), $(pg_config --version)"
# one throwaway cluster per script, with room for a 10M-row table (parallel workers: the default 2)
echo "== model functions over $ROWS rows"
pg_virtualenv -t -o "shared_buffers=1GB" -o "work_mem=64MB" -o "jit=off" -o "max_wal_size=8GB" \
  psql -X -q -v rows="$ROWS" -v reps="$REPS" -f test/bench/bench.sql 2>&1 | sed -n '/^== /,$p' | grep -v '^ bench\|^-------$\|^ $\|^$' || true
for h in $HISTORIES; do
  echo "== price lookups on a $h-row history"
  pg_virtualenv -t -o "shared_buffers=1GB" -o "work_mem=64MB" -o "jit=off" -o "max_wal_size=8GB" \
    psql -X -q -v rows="$h" -v reps="$REPS" -f test/bench/bench_prices.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
done
for n in $DASH_OBS; do
  echo "== dashboards on the shipped history + $n synthetic observations"
  pg_virtualenv -t -o "shared_buffers=1GB" -o "work_mem=64MB" -o "max_wal_size=8GB" \
    psql -X -q -v obs="$n" -v reps="$REPS" -f test/bench/bench_dashboards.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
done
echo "== per-row cost over $ROWCOST_ROWS rows"
pg_virtualenv -t -o "shared_buffers=1GB" -o "work_mem=64MB" -o "jit=off" -o "max_wal_size=8GB" \
  psql -X -q -v rows="$ROWCOST_ROWS" -v reps="$REPS" -f test/bench/bench_rowcost.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
echo "== cheapest_plan: 30 SKUs x 100 offers, up to 16,384 GPUs"
pg_virtualenv -t -o "jit=off" \
  psql -X -q -v reps="$REPS" -f test/bench/bench_plan.sql 2>&1 | sed -n '/^== results/,$p' | grep -v '^Dropping' || true
