#!/usr/bin/env bash
# bench_focus.sh: the FOCUS import benchmark (not a test: it prints medians and ratios, it never fails on speed).
# Runs against the PostgreSQL of PG_CONFIG (default: the one on PATH) in a throwaway cluster, as root or postgres:
#   PG_CONFIG=/work/pgenv/NAME/usr/lib/postgresql/15/bin/pg_config bash test/bench/bench_focus.sh
#   SIZES="200000 1000000" REPS=3 ...    file sizes (data lines) and repetitions (median reported)
#   SERVER_OPTS="-c shared_buffers=128MB ..."   the server's settings (default below)
#   SESSION=new                          load in a new session (default: in the session that staged)
# For each size: \copy into focus_staging, then load_focus() in the same session (SESSION=new: in a
# new one), its wall and backend CPU time; loading the same file again (every line skipped: the
# re-import path); and, in the same run, a plain INSERT INTO llm_econ.spend (...) SELECT of the same
# typed rows (copied aside from spend first, spend emptied): the same table, indexes, constraints
# and triggers, no parsing.  The ratio of the two rates is issue 33's goal (load_focus at least half
# the rate of that INSERT).  Nothing else runs during those timed loads.  Then one more load, not in
# the medians, with a sampler of the backend's private memory (RssAnon every 50 ms: what it
# allocated, not the shared buffers it touched), which should stay bounded by work_mem, not grow
# with the file.  Also import_focus() on the text of the smallest file.
set -euo pipefail
cd "$(dirname "$0")/../.."
PG_CONFIG=${PG_CONFIG:-pg_config}
SIZES=${SIZES:-"200000 1000000"}
REPS=${REPS:-3}
SESSION=${SESSION:-same}
# the server's settings (SERVER_OPTS replaces them all): work_mem and max_wal_size as for a bulk
# load; shared_buffers below initdb's 128 MB, as in every earlier round's figures (the 1,000,000-line
# load was not faster with 128 MB in this bench: see the README, round 9)
SERVER_OPTS=${SERVER_OPTS:-"-c shared_buffers=32MB -c work_mem=16MB -c temp_buffers=8MB -c jit=off -c max_wal_size=4GB -c min_wal_size=4GB -c autovacuum=off"}
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
  -o "-p $PORT -k $DIR $SERVER_OPTS" >/dev/null
PSQL="$BIN/psql -X -q -h $DIR -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1"
$PSQL -c "CREATE EXTENSION llm_econ"
# Warm the WAL: a server that loads files regularly reuses its WAL segments at each checkpoint (up
# to min_wal_size); a new cluster creates and zero-fills one per 16 MB of WAL instead, which slowed
# the first loads here (1,000,000 lines: 25.9 s cold against 16-19 s warm) but not the INSERT ...
# SELECT that follows them.  3 GB of WAL messages, then a checkpoint keeps their segments for reuse.
$PSQL -At -c "SELECT count(pg_logical_emit_message(false, 'bench', repeat('x', 1048576))) FROM generate_series(1, 3072)" \
  -c "CHECKPOINT" >/dev/null
# Each timed step starts with nothing left for the kernel to write back (sync): the warm-up's WAL,
# an earlier step's 2-3 GB of heap, WAL and staged pages, and the \copy just before a load were
# otherwise written back during the next step (the first size was measured while 3 GB of WAL
# went to disk) and the figures depended on the order of the steps.
sync
# sample.sh PID OUT FLAG: while file FLAG exists, the largest RssAnon (kB) of process PID, into OUT
cat > "$DIR/sample.sh" <<'EOF'
max=0
while [ -e "$3" ]; do
  while read -r k v _; do
    [ "$k" = RssAnon: ] && { [ "$v" -gt "$max" ] && max=$v; break; }
  done < "/proc/$1/status"
  sleep 0.05
done
echo "$max" > "$2"
EOF
for n in $SIZES; do python3 test/bench/focus_gen.py "$n" "$DIR/f$n.csv"; done
chmod 644 "$DIR"/*.csv

echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg), $($BIN/postgres --version)"
echo "== server settings: $SERVER_OPTS"
echo "== load_focus() runs in $([ "$SESSION" = new ] && echo "a new session (SESSION=new)" || echo "the session that staged the file, as the README's recipe does (SESSION=new: a new session)")"
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
ticks=$(getconf CLK_TCK)
# timed_load N OUT FILE [MODE]: \copy FILE into focus_staging (in this session, or in one before it with
# SESSION=new), then load_focus() of what is staged: the session's pid, the copy's wall time, CPU
# ticks before and after the load, its wall time, peak resident memory (with SAMPLE=1, the sampled
# peak private memory of the backend); the lines read
# (inserted + skipped) must be N.
timed_load() {
  local copy="\\copy llm_econ.focus_staging (line) FROM '$3' WITH (FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e')"
  if [ "$SESSION" = new ]; then
    $PSQL -At -c "SELECT 'c0', extract(epoch FROM clock_timestamp())" -c "$copy" \
      -c "SELECT 'c1', extract(epoch FROM clock_timestamp())" > "$2.copy"
  else
    : > "$2.copy"
  fi
  { cat "$2.copy"; $PSQL -At <<EOF; } > "$2"
SELECT pg_backend_pid() AS pid \gset
\setenv BPID :pid
$( [ "$SESSION" = new ] || printf "SELECT 'c0', extract(epoch FROM clock_timestamp());\n%s\nSELECT 'c1', extract(epoch FROM clock_timestamp());" "$copy" )
\! sync
\! awk '{print "cpu0", \$14 + \$15}' /proc/\$BPID/stat
$( [ -n "${SAMPLE:-}" ] && printf '%s\n' "\\! touch $DIR/sampling; (bash $DIR/sample.sh \$BPID $DIR/anon $DIR/sampling &)" )
SELECT 'start', extract(epoch FROM clock_timestamp());
SELECT 'lines', inserted, skipped FROM llm_econ.load_focus(source => 'bench', mode => '${4:-replace}');
SELECT 'end', extract(epoch FROM clock_timestamp());
\! awk '{print "cpu1", \$14 + \$15}' /proc/\$BPID/stat; awk '/VmHWM/ {print "hwm", \$2}' /proc/\$BPID/status
$( [ -n "${SAMPLE:-}" ] && printf '%s\n' "\\! rm $DIR/sampling; sleep 0.1; echo \"anon \$(cat $DIR/anon)\"" )
EOF
  local lines
  lines=$(awk -F'|' '/^lines/ {print $2 + $3}' "$2")
  [ "$lines" = "$1" ] || { echo "load_focus read $lines lines of $1"; exit 1; }
}
wall() { awk -F'[| ]' '/^start/ {s = $2} /^end/ {e = $2} END {print e - s}' "$1"; }
copywall() { awk -F'|' '/^c0/ {s = $2} /^c1/ {e = $2} END {print e - s}' "$1"; }
cpu() { awk -v t="$ticks" '/^cpu0/ {a = $2} /^cpu1/ {b = $2} END {print (b - a) / t}' "$1"; }
# the columns load_focus writes (what the plain INSERT copies back)
COLS="tenant, charge_period_start, charge_period_end, billing_period_start, billing_period_end, provider, service_name,
  service_category, charge_category, charge_description, pricing_category, pricing, region, sku, instance_type,
  gpus_per_instance, consumed_quantity, consumed_unit, gpu_hours, billed_cost, effective_cost, list_cost,
  billing_currency, run_id, resource_id, tags, record, source, line, row_hash, occurrence, billing_account_id, delivery"
for n in $SIZES; do
  for f in copy load cpu hwm plain reload recpu; do : > "$DIR/$f.t"; done
  for r in $(seq "$REPS"); do
    $PSQL -c "TRUNCATE llm_econ.spend, llm_econ.focus_staging" -c "VACUUM llm_econ.focus_staging" -c "CHECKPOINT"
    timed_load "$n" "$DIR/one" "$DIR/f$n.csv"
    copywall "$DIR/one" >> "$DIR/copy.t"
    wall "$DIR/one" >> "$DIR/load.t"; cpu "$DIR/one" >> "$DIR/cpu.t"
    awk '/^hwm/ {print $2 / 1024}' "$DIR/one" >> "$DIR/hwm.t"
    # the same file again in mode append: every line is a charge already stored (the re-import path, all skipped)
    timed_load "$n" "$DIR/two" "$DIR/f$n.csv" append
    wall "$DIR/two" >> "$DIR/reload.t"; cpu "$DIR/two" >> "$DIR/recpu.t"
    # the same typed rows by a plain INSERT ... SELECT into spend (emptied; the rows kept aside)
    $PSQL -At <<EOF | awk -F'|' '/^plain/ {print $2}' >> "$DIR/plain.t"
SET client_min_messages = warning;
DROP TABLE IF EXISTS typed_rows;
CREATE TABLE typed_rows AS SELECT $COLS FROM llm_econ.spend ORDER BY id;
TRUNCATE llm_econ.spend;
VACUUM ANALYZE typed_rows;
CHECKPOINT;
\! sync
SELECT extract(epoch FROM clock_timestamp()) AS t0 \gset
INSERT INTO llm_econ.spend ($COLS) SELECT $COLS FROM typed_rows;
SELECT 'plain', extract(epoch FROM clock_timestamp()) - :t0;
DROP TABLE typed_rows;
EOF
  done
  # one more load, not in the medians, with the memory sampler running
  $PSQL -c "TRUNCATE llm_econ.spend, llm_econ.focus_staging" -c "VACUUM llm_econ.focus_staging" -c "CHECKPOINT"
  SAMPLE=1 timed_load "$n" "$DIR/mem" "$DIR/f$n.csv"
  sampled=$(wall "$DIR/mem")
  anon=$(awk '/^anon/ {print $2 / 1024}' "$DIR/mem")
  copy=$(median < "$DIR/copy.t"); load=$(median < "$DIR/load.t"); cpu=$(median < "$DIR/cpu.t")
  hwm=$(median < "$DIR/hwm.t"); plain=$(median < "$DIR/plain.t")
  reload=$(median < "$DIR/reload.t"); recpu=$(median < "$DIR/recpu.t")
  awk -v n="$n" -v c="$copy" -v l="$load" -v u="$cpu" -v h="$hwm" -v a="$anon" -v sl="$sampled" -v p="$plain" -v rl="$reload" -v ru="$recpu" 'BEGIN {
    printf "== %d lines (%d reps, medians)\n", n, '"$REPS"'
    printf "  \\copy into focus_staging   %7.2f s  %8.0f lines/s\n", c, n / c
    printf "  load_focus()               %7.2f s  %8.0f lines/s  (backend CPU %.2f s: %.0f lines/CPU-s)\n", l, n / l, u, n / u
    printf "  staged path, total         %7.2f s  %8.0f lines/s\n", c + l, n / (c + l)
    printf "  load_focus() again (skips) %7.2f s  %8.0f lines/s  (backend CPU %.2f s: %.0f lines/CPU-s)\n", rl, n / rl, ru, n / ru
    printf "  INSERT INTO spend SELECT   %7.2f s  %8.0f lines/s  (the same typed rows, no parsing)\n", p, n / p
    printf "  rate of load_focus / rate of INSERT ... SELECT = %.2f: goal (issue 33) >= 0.50 %s\n", p / l, (p / l >= 0.5) ? "MET" : "MISSED"
    printf "  backend peak resident memory (VmHWM, shared buffers touched included) %.0f MiB\n", h
    printf "  one load with the memory sampler running: %.2f s (%.2f of the median); backend peak private memory (RssAnon, sampled) %.0f MiB\n", sl, sl / l, a
  }'
  # the rate of the lines past the previous size: what a larger file adds, without the fixed costs
  [ -n "${prev_n:-}" ] && awk -v n="$n" -v l="$load" -v pn="$prev_n" -v pl="$prev_load" 'BEGIN {
    if (l > pl) printf "  load_focus() past %d lines: %.0f lines/s (%.1f us a line)\n", pn, (n - pn) / (l - pl), 1e6 * (l - pl) / (n - pn) }'
  prev_n=$n; prev_load=$load
  echo "  (load average now $(cut -d' ' -f1-3 /proc/loadavg))"
done

# import_focus(text) on the smallest file, for comparison with the staged path
n=$(echo $SIZES | awk '{print $1}')
$PSQL -c "TRUNCATE llm_econ.spend"
$PSQL -At <<EOF | awk -F'|' -v n="$n" '/^t/ {printf "== import_focus(text) on %d lines: %.2f s, %.0f lines/s\n", n, $2, n / $2}'
SELECT extract(epoch FROM clock_timestamp()) AS t0 \gset
SELECT count(*) FROM llm_econ.import_focus(pg_read_file('$DIR/f$n.csv'));
SELECT 't', extract(epoch FROM clock_timestamp()) - :t0;
EOF
