#!/usr/bin/env bash
# bench_focus.sh: the FOCUS import benchmark (not a test: it prints medians and ratios, it never fails on speed).
# Runs against the PostgreSQL of PG_CONFIG (default: the one on PATH) in a throwaway cluster, as root or postgres:
#   PG_CONFIG=/work/pgenv/NAME/usr/lib/postgresql/15/bin/pg_config bash test/bench/bench_focus.sh
#   SIZES="50000 200000" REPS=3 ...      file sizes (data lines) and repetitions (median reported)
# For each size: \copy into focus_staging (client wall time), load_focus() (wall and backend CPU time),
# the backend's peak memory (VmHWM, with shared_buffers kept small so that it is mostly private
# memory), and, as the floor any loader pays, copying the same rows from spend into a copy of spend
# (INSERT ... SELECT: heap, indexes, WAL, no parsing).  Also import_focus() on the text of the
# smallest file.
set -euo pipefail
cd "$(dirname "$0")/../.."
PG_CONFIG=${PG_CONFIG:-pg_config}
SIZES=${SIZES:-"50000 200000"}
REPS=${REPS:-3}
BIN=$($PG_CONFIG --bindir)
RUNAS=""
[ "$(id -u)" = 0 ] && RUNAS="runuser -u postgres --"
DIR=$(mktemp -d /tmp/llm_econ_bench_focus.XXXXXX)
chmod 755 "$DIR"
[ -n "$RUNAS" ] && chown postgres "$DIR"
PORT=$((30000 + RANDOM % 10000))
trap '$RUNAS $BIN/pg_ctl -D $DIR/db -m immediate stop >/dev/null 2>&1 || true; rm -rf $DIR' EXIT
$RUNAS $BIN/initdb -D "$DIR/db" >/dev/null 2>&1
$RUNAS $BIN/pg_ctl -D "$DIR/db" -l "$DIR/log" -w start \
  -o "-p $PORT -k $DIR -c shared_buffers=32MB -c work_mem=16MB -c temp_buffers=8MB -c jit=off -c max_wal_size=4GB -c autovacuum=off" >/dev/null
PSQL="$BIN/psql -X -q -h $DIR -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1"
$PSQL -c "CREATE EXTENSION llm_econ"
for n in $SIZES; do python3 test/bench/focus_gen.py "$n" "$DIR/f$n.csv"; done
chmod 644 "$DIR"/*.csv

echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg), $($BIN/postgres --version)"
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
ticks=$(getconf CLK_TCK)
for n in $SIZES; do
  : > "$DIR/copy.t"; : > "$DIR/load.t"; : > "$DIR/cpu.t"; : > "$DIR/hwm.t"; : > "$DIR/floor.t"
  for r in $(seq "$REPS"); do
    $PSQL -c "TRUNCATE llm_econ.spend, llm_econ.focus_staging" -c "VACUUM llm_econ.focus_staging"
    t0=$(date +%s.%N)
    $PSQL -c "\\copy llm_econ.focus_staging (line) FROM '$DIR/f$n.csv' WITH (FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e')"
    echo "$(date +%s.%N) - $t0" | bc >> "$DIR/copy.t"
    # one session: its pid, CPU ticks before and after, wall time of the load, peak memory
    $PSQL -At <<EOF > "$DIR/one"
SELECT pg_backend_pid() AS pid \gset
\setenv BPID :pid
\! awk '{print "cpu0", \$14 + \$15}' /proc/\$BPID/stat
SELECT 'start', extract(epoch FROM clock_timestamp());
SELECT 'lines', inserted FROM llm_econ.load_focus(source => 'bench');
SELECT 'end', extract(epoch FROM clock_timestamp());
\! awk '{print "cpu1", \$14 + \$15}' /proc/\$BPID/stat; awk '/VmHWM/ {print "hwm", \$2}' /proc/\$BPID/status
EOF
    awk -F'[| ]' '/^start/ {s = $2} /^end/ {e = $2} END {print e - s}' "$DIR/one" >> "$DIR/load.t"
    awk -v t="$ticks" '/^cpu0/ {a = $2} /^cpu1/ {b = $2} END {print (b - a) / t}' "$DIR/one" >> "$DIR/cpu.t"
    awk '/^hwm/ {print $2 / 1024}' "$DIR/one" >> "$DIR/hwm.t"
    lines=$(awk -F'|' '/^lines/ {print $2}' "$DIR/one")
    [ "$lines" = "$n" ] || { echo "load_focus stored $lines lines of $n"; exit 1; }
    # the floor: the same rows copied into a table like spend (same columns and indexes)
    $PSQL -At <<EOF | awk -F'|' '/^floor/ {print $2}' >> "$DIR/floor.t"
SET client_min_messages = warning;
DROP TABLE IF EXISTS spend_floor;
CREATE TABLE spend_floor (LIKE llm_econ.spend INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES);
SELECT extract(epoch FROM clock_timestamp()) AS t0 \gset
INSERT INTO spend_floor SELECT * FROM llm_econ.spend;
SELECT 'floor', extract(epoch FROM clock_timestamp()) - :t0;
DROP TABLE spend_floor;
EOF
  done
  copy=$(median < "$DIR/copy.t"); load=$(median < "$DIR/load.t"); cpu=$(median < "$DIR/cpu.t")
  hwm=$(median < "$DIR/hwm.t"); floor=$(median < "$DIR/floor.t")
  awk -v n="$n" -v c="$copy" -v l="$load" -v u="$cpu" -v h="$hwm" -v f="$floor" 'BEGIN {
    printf "== %d lines (%d reps, medians)\n", n, '"$REPS"'
    printf "  \\copy into focus_staging   %7.2f s  %8.0f lines/s\n", c, n / c
    printf "  load_focus()               %7.2f s  %8.0f lines/s  (backend CPU %.2f s: %.0f lines/CPU-s)\n", l, n / l, u, n / u
    printf "  staged path, total         %7.2f s  %8.0f lines/s\n", c + l, n / (c + l)
    printf "  floor: INSERT ... SELECT    %7.2f s  %8.0f lines/s; load_focus / floor = %.1f\n", f, n / f, l / f
    printf "  backend peak memory (VmHWM) %6.0f MiB\n", h
  }'
done

# import_focus(text) on the smallest file, for comparison with the staged path
n=$(echo $SIZES | awk '{print $1}')
$PSQL -c "TRUNCATE llm_econ.spend"
$PSQL -At <<EOF | awk -F'|' -v n="$n" '/^t/ {printf "== import_focus(text) on %d lines: %.2f s, %.0f lines/s\n", n, $2, n / $2}'
SELECT extract(epoch FROM clock_timestamp()) AS t0 \gset
SELECT count(*) FROM llm_econ.import_focus(pg_read_file('$DIR/f$n.csv'));
SELECT 't', extract(epoch FROM clock_timestamp()) - :t0;
EOF
