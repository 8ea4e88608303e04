#!/usr/bin/env bash
# test/reliability/sqlsmith.sh: random SQL (sqlsmith) plus an edge-value sweep of every llm_econ function, as a non-superuser analyst, in a throwaway cluster; any server crash fails it.
#
# Usage: test/reliability/sqlsmith.sh [long]      (as root; LONG=1 works too)
# Environment:
#   SQLSMITH_QUERIES=n   queries sqlsmith generates (CI 5000, long 100000)
#   SQLSMITH_SECONDS=n   time bound for sqlsmith, whichever comes first (CI 150, long 1800)
#   SQLSMITH_SEED=n      sqlsmith's and the sweep's random seed (default: 48689956 in CI mode, random in long mode; printed)
#   SWEEP_CALLS=n        random argument tuples per function in the sweep (CI 100, long 1000)
#   SQLSMITH_FOCUS=0     let sqlsmith pick among all built-in functions (default: only the
#                        extension's functions and a few built-ins that make their arguments)
#   NO_BUILD=1           use the installed extension (default: make && make install first)
#   KEEP=dir             copy the server log, sqlsmith's output and the sweep into dir
#   SQLSMITH_DUMP=1      have sqlsmith print every query it generates (kept with KEEP)
#   SQLSMITH_SELFTEST=crash  kill one backend with SIGSEGV after sqlsmith: the run must then fail
#
# What it does, inside `pg_virtualenv -t` (a temporary cluster, removed afterwards):
# - CREATE EXTENSION llm_econ as the superuser; some plans and FOCUS spend for two tenants;
# - a login role smith_analyst with what a dashboard has: USAGE on llm_econ (PUBLIC's), the
#   PUBLIC grants on reference/price tables and views, and membership in tenant role smith_team,
#   which has SELECT on run_plan and spend (row-level security limits it to smith_team's rows);
# - sqlsmith --exclude-catalog as smith_analyst. sqlsmith reads the functions it may call with an
#   unqualified "FROM pg_proc"; with SQLSMITH_FOCUS (default) the analyst's search_path starts with
#   schema smith_focus, whose view pg_proc lists only the llm_econ functions the analyst may execute
#   and a few built-ins (casts, now(), make_interval(), ...), so most calls are to the extension.
#   sqlsmith never calls set-returning functions; hence
# - the sweep (edge_sweep.sql): every llm_econ function the analyst may execute, set-returning
#   ones included, called SWEEP_CALLS times with random picks from per-type edge values (NULL,
#   0, -1, NaN, ±Infinity, 1e308, int4 limits, empty and 10 kB texts, odd SKU and enum names,
#   malformed CSV, infinite timestamps, empty ranges, hand-built ROW(...)::run_spec values);
# - then, from the server log: crashes ("terminated by signal", "was terminated by exception",
#   "exited with exit code", PANIC, TRAP) — zero allowed — and errors by SQLSTATE class; and a
#   check that the analyst changed no row of any llm_econ table (all its writes must fail).
# Output ends with "N passed, M failed" over four checks: sqlsmith ran its queries (and lost no
# connection), no crash, the sweep ran with no internal error (SQLSTATE class XX), the analyst
# changed nothing. Exit status 1 when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD

LONG=${LONG:-0}
case "${1:-}" in
  long | --long) LONG=1 ;;
  "" | ci) ;;
  *) echo "usage: test/reliability/sqlsmith.sh [long]" >&2; exit 2 ;;
esac
if [ "$LONG" != 0 ]; then
  QUERIES=${SQLSMITH_QUERIES:-100000}; SECS=${SQLSMITH_SECONDS:-1800}; CALLS=${SWEEP_CALLS:-1000}; MODE=long
else
  QUERIES=${SQLSMITH_QUERIES:-5000}; SECS=${SQLSMITH_SECONDS:-150}; CALLS=${SWEEP_CALLS:-100}; MODE=ci
fi
# CI runs one fixed seed, so that a landing never depends on the draw (a random seed once made
# sqlsmith stop after a few queries on a fresh clone; long mode and SQLSMITH_SEED explore others)
if [ "$MODE" = ci ]; then SEED=${SQLSMITH_SEED:-48689956}; else SEED=${SQLSMITH_SEED:-$((RANDOM * 32768 + RANDOM))}; fi
FOCUS=${SQLSMITH_FOCUS:-1}

passed=0
failed=0
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

if ! command -v sqlsmith >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then echo "sqlsmith: not installed (apt-get install sqlsmith)" >&2; failed=1; finish; fi
  echo "== installing sqlsmith"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends sqlsmith >/dev/null; } ||
    { echo "sqlsmith: could not install it" >&2; failed=1; finish; }
fi
for c in pg_virtualenv psql; do
  command -v $c >/dev/null || { echo "sqlsmith: $c missing (postgresql-common, postgresql-client-15)" >&2; failed=1; finish; }
done

if [ "${NO_BUILD:-0}" = 0 ]; then
  echo "== building and installing llm_econ"
  if ! { make -s PROFILE="${PROFILE:--Werror}" all && make -s install >/dev/null; }; then
    echo "sqlsmith: build failed"; failed=1; finish
  fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/llm_econ_sqlsmith.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
export WORK ROOT QUERIES SECS SEED CALLS FOCUS

# ---- what runs inside the throwaway cluster (PGHOST/PGPORT/PGUSER/PGPASSWORD: its superuser) ----
cat >"$WORK/inner.sh" <<'INNER'
set -uo pipefail
LOG="$(dirname "$PG_CLUSTER_CONF_ROOT")/log/postgresql-$PGVERSION-regress.log"
PGDATA_DIR=$(pg_conftool -s "$PGVERSION" regress show data_directory)
head -1 "$PGDATA_DIR/postmaster.pid" >"$WORK/postmaster.pid" 2>/dev/null
echo "$LOG" >"$WORK/log.path"
APW=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
superuser() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

# the extension, a tenant with data, an analyst that is a member of it
superuser -v apw="$APW" -v focus="$FOCUS" -v focus_csv="$(cat "$ROOT/test/data/focus/focus_1.3_runs.csv")" >/dev/null <<'SQL' || exit 3
CREATE EXTENSION llm_econ;
CREATE ROLE smith_team NOLOGIN;
CREATE ROLE other_team NOLOGIN;
CREATE ROLE smith_analyst LOGIN PASSWORD :'apw' IN ROLE smith_team;
GRANT USAGE ON SCHEMA llm_econ TO smith_analyst;
GRANT SELECT ON llm_econ.run_plan, llm_econ.spend TO smith_team;
INSERT INTO llm_econ.run_plan (run_id, spec, provider, pricing, usd_per_gpu_hour, tenant, team)
VALUES ('run-1b', llm_econ.run_spec(1e9, 2e10, 8, 'H100-SXM5'), 'aws', 'on_demand', 98.32 / 8, 'smith_team', 'pretrain'),
       ('run-7b', llm_econ.run_spec(7e9, 1.4e12, 256, 'H100-SXM5', mfu => 0.45, n_layers => 32, d_model => 4096,
                                    n_heads => 32, seq_len => 2048, global_batch => 512), 'lambda', 'spot', 2.49, 'smith_team', 'pretrain'),
       ('run-secret', llm_econ.run_spec(7e10, 1e12, 1024, 'A100-80GB'), 'gcp', 'on_demand', 3.67, 'other_team', 'secret');
SELECT * FROM llm_econ.import_focus(:'focus_csv', 'smith_team', 'focus_1.3_runs.csv');
-- what sqlsmith may call: the extension's functions the analyst may execute, and a few built-ins
CREATE SCHEMA smith_focus;
GRANT USAGE ON SCHEMA smith_focus TO smith_analyst;
CREATE VIEW smith_focus.pg_proc AS
  SELECT * FROM pg_catalog.pg_proc p
   WHERE (p.pronamespace = 'llm_econ'::regnamespace AND pg_catalog.has_function_privilege('smith_analyst', p.oid, 'EXECUTE'))
      OR (p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN
          ('float8', 'int4', 'numeric', 'text', 'interval', 'now', 'make_interval', 'tstzrange', 'lower', 'repeat',
           'concat', 'random', 'abs', 'count', 'sum', 'min', 'max', 'avg', 'string_agg', 'bool_and')
          -- not the polymorphic ones (anyelement, anyrange, ...): sqlsmith cannot type their calls
          AND p.prorettype::regtype::text !~ '^any' AND NOT EXISTS
              (SELECT FROM unnest(p.proargtypes::oid[]) AS a(t) WHERE a.t::regtype::text ~ '^any'));
GRANT SELECT ON smith_focus.pg_proc TO smith_analyst;
SELECT CASE WHEN :focus::int = 1 THEN 'ALTER ROLE smith_analyst SET search_path = smith_focus, pg_catalog, llm_econ, public'
            ELSE 'ALTER ROLE smith_analyst SET search_path = llm_econ, public' END \gexec
SQL

# a fingerprint of every llm_econ table: the analyst must not change any row
fingerprint() {
  psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 <<'SQL'
SELECT format('SELECT %L, md5(coalesce(string_agg(t::text, E''\n'' ORDER BY t::text), '''')) FROM llm_econ.%I AS t',
              c.relname, c.relname)
  FROM pg_class AS c WHERE c.relnamespace = 'llm_econ'::regnamespace AND c.relkind = 'r' ORDER BY c.relname \gexec
SQL
}
fingerprint >"$WORK/tables.before" || exit 3

ACONN="host=$PGHOST port=$PGPORT dbname=$PGDATABASE user=smith_analyst password=$APW"
# sqlsmith (it sets statement_timeout 1s itself); timeout bounds the run, SIGINT lets it report
start=$(date +%s)
timeout -s INT -k 20 "$SECS" sqlsmith --target="$ACONN" --exclude-catalog --seed="$SEED" \
  --max-queries="$QUERIES" --verbose ${SQLSMITH_DUMP:+--dump-all-queries} >"$WORK/sqlsmith.out" 2>"$WORK/sqlsmith.err"
echo $? >"$WORK/sqlsmith.rc"
echo $(($(date +%s) - start)) >"$WORK/sqlsmith.secs"

# the sweep: generate the calls as the analyst, then run them one statement each
start=$(date +%s)
PGOPTIONS="-c statement_timeout=20s" PGAPPNAME=edge_sweep \
  psql -X -q -At "$ACONN" -v seed="$SEED" -v calls="$CALLS" -f "$ROOT/test/reliability/edge_sweep.sql" >"$WORK/sweep_calls.sql" 2>"$WORK/sweep_gen.err"
echo $? >"$WORK/sweep_gen.rc"
PGOPTIONS="-c statement_timeout=20s -c client_min_messages=error" PGAPPNAME=edge_sweep \
  timeout -k 10 1800 psql -X -q "$ACONN" -f "$WORK/sweep_calls.sql" >/dev/null 2>"$WORK/sweep_run.err"
echo $? >"$WORK/sweep.rc"
echo $(($(date +%s) - start)) >"$WORK/sweep.secs"

# self-test of the crash detection: SQLSMITH_SELFTEST=crash kills one backend with SIGSEGV
if [ "${SQLSMITH_SELFTEST:-}" = crash ]; then
  psql -X -q -c "SELECT pg_sleep(30)" >/dev/null 2>&1 &
  sleeper=$!
  sleep 2
  victim=$(psql -X -At -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'" | head -1)
  [ -n "$victim" ] && kill -SEGV "$victim"
  wait "$sleeper"
  sleep 3
fi
fingerprint >"$WORK/tables.after" || exit 3
cp "$LOG" "$WORK/server.log"
# stop our server here, by its pid: pg_virtualenv's cleanup asks pg_ctlcluster, which decides
# "running" by probing /var/run/postgresql, shared with everyone else's clusters, and may miss it
pm=$(cat "$WORK/postmaster.pid")
if [ -n "$pm" ] && grep -q postgres "/proc/$pm/comm" 2>/dev/null; then
  kill -QUIT "$pm"    # immediate shutdown
  for i in $(seq 1 20); do kill -0 "$pm" 2>/dev/null || break; sleep 0.5; done
fi
INNER

echo "== sqlsmith ($MODE mode): up to $QUERIES queries or ${SECS}s, seed $SEED, focus $FOCUS; sweep $CALLS calls per function"
# Other engineers run pg_virtualenv clusters (all named 15/regress) at the same time: give ours a
# free port of its own, and no external pid file (/var/run/postgresql/15-regress.pid is shared by name).
free_port() {
  local p i
  for i in $(seq 1 100); do
    p=$((20000 + RANDOM % 30000))
    if [ ! -e "/var/run/postgresql/.s.PGSQL.$p" ] && ! ss -Hltn "sport = :$p" 2>/dev/null | grep -q .; then
      echo "$p"; return 0
    fi
  done
  return 1
}
PGV_OPTS=(-o "log_line_prefix=%m [%p] %a %e: " -o "log_min_error_statement=error" -o "max_connections=20"
          -o "external_pid_file=")
for _ in 1 2 3; do
  PGPORT=$(free_port) || { echo "sqlsmith: no free port"; failed=$((failed + 1)); finish; }
  export PGPORT
  timeout -k 30 $((SECS + 2400)) pg_virtualenv -t "${PGV_OPTS[@]}" bash "$WORK/inner.sh" >"$WORK/pgv.out" 2>&1
  rc=$?
  grep -q 'Port conflict' "$WORK/pgv.out" || break
  echo "   (port $PGPORT taken meanwhile; another)"
done
grep -vE '^(Creating new PostgreSQL cluster|Dropping cluster|Cluster is not running)' "$WORK/pgv.out" | grep -v '^\*\*\*' | head -40

# whatever happened, no postmaster of ours may be left running
if [ -s "$WORK/postmaster.pid" ]; then
  pm=$(cat "$WORK/postmaster.pid")
  for i in 1 2 3 4 5 6 7 8 9 10 11; do
    kill -0 "$pm" 2>/dev/null && grep -q postgres "/proc/$pm/comm" 2>/dev/null || break
    if [ "$i" = 1 ]; then echo "sqlsmith: our postmaster $pm outlived pg_virtualenv; stopping it"; kill -QUIT "$pm"
    elif [ "$i" = 11 ]; then kill -KILL "$pm"; fi
    sleep 1
  done
fi
if [ "$rc" -ne 0 ] || [ ! -f "$WORK/server.log" ]; then
  echo "sqlsmith: the cluster run failed (exit $rc)"; tail -40 "$WORK/pgv.out"; failed=$((failed + 1)); finish
fi
[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$WORK"/{pgv.out,server.log,sqlsmith.out,sqlsmith.err,sweep_calls.sql,sweep_run.err} "$KEEP"/ 2>/dev/null

# ---- errors by SQLSTATE (log_line_prefix "%m [%p] %a %e: ") ----
errors_by() {  # $1: application name pattern
  grep -E "\] $1 [0-9A-Z]{5}: ERROR: " "$WORK/server.log" | sed -E 's/^.*\] [^ ]* ([0-9A-Z]{5}): ERROR:  (.*)$/\1\t\2/'
}
report_errors() {  # $1: title, $2: application name pattern
  local e n
  e=$(errors_by "$2")
  n=$(printf '%s' "$e" | grep -c . || true)
  echo "$1: $n errors by SQLSTATE class (count, class, most frequent code: example message):"
  [ "$n" -eq 0 ] && return
  printf '%s\n' "$e" | cut -c1-2 | sort | uniq -c | sort -rn | while read -r cnt cls; do
    top=$(printf '%s\n' "$e" | grep "^$cls" | cut -f1 | sort | uniq -c | sort -rn | head -1 | awk '{print $2}')
    msg=$(printf '%s\n' "$e" | grep -m1 "^$top" | cut -f2 | cut -c1-110)
    printf '  %6d  %s  %s: %s\n' "$cnt" "$cls" "$top" "$msg"
  done
  # internal errors (XX) and the extension's own messages deserve a look even when nothing crashed
  printf '%s\n' "$e" | grep -E '^XX' | cut -f2 | sort | uniq -c | sort -rn | head -5 | sed 's/^/  XX: /'
}
# ---- sqlsmith: queries run (one progress character each) ----
# progress lines are runs of . (ok) e (error) t (timeout) S (syntax error) C (connection lost)
progress=$(grep -E '^[.etSC]+$' "$WORK/sqlsmith.err" | tr -d '\n')
q_ok=$(printf '%s' "$progress" | tr -cd '.' | wc -c)
q_err=$(printf '%s' "$progress" | tr -cd 'e' | wc -c)
q_to=$(printf '%s' "$progress" | tr -cd 't' | wc -c)
q_syn=$(printf '%s' "$progress" | tr -cd 'S' | wc -c)
q_lost=$(printf '%s' "$progress" | tr -cd 'C' | wc -c)
q_all=${#progress}
reported=$(sed -n 's/^queries: \([0-9]*\)$/\1/p' "$WORK/sqlsmith.err" | tail -1)
ssecs=$(cat "$WORK/sqlsmith.secs")
echo "sqlsmith: $q_all queries in ${ssecs}s (exit $(cat "$WORK/sqlsmith.rc")${reported:+, it reports $reported}):" \
  "$q_ok ok, $q_err errors, $q_to timeouts, $q_syn syntax errors, $q_lost connections lost"
if [ "$q_all" -ge 100 ] && [ "$q_lost" -eq 0 ]; then
  passed=$((passed + 1))
else
  echo "sqlsmith: FAILED (fewer than 100 queries ran, or a connection was lost)"
  grep -vE '^[.etSC]+$' "$WORK/sqlsmith.err" | head -20
  failed=$((failed + 1))
fi

# ---- the sweep ----
sweep_n=$(grep -c '^SELECT' "$WORK/sweep_calls.sql" || true)
sweep_fns=$(perl -ne 'print "$1\n" if /^SELECT (?:\(|count.*? FROM )llm_econ\.(\w+)\(/' "$WORK/sweep_calls.sql" | sort -u | wc -l)
echo "sweep: $sweep_n calls of $sweep_fns functions in $(cat "$WORK/sweep.secs")s (generator exit $(cat "$WORK/sweep_gen.rc"), run exit $(cat "$WORK/sweep.rc"))"
# every sweep call is a call of an llm_econ function: an internal error (class XX: elog, "cache
# lookup failed", ...) there is a bug; bad input must be a data exception (README "Errors")
sweep_xx=$(errors_by 'edge_sweep' | grep -c '^XX' || true)
if [ "$(cat "$WORK/sweep_gen.rc")" = 0 ] && [ "$(cat "$WORK/sweep.rc")" = 0 ] && [ "$sweep_n" -gt 0 ] &&
   [ "$sweep_xx" -eq 0 ] && ! grep -qE 'connection to server|server closed the connection' "$WORK/sweep_run.err"; then
  passed=$((passed + 1))
else
  echo "sweep: FAILED ($sweep_xx internal errors)"; head -c 2000 "$WORK/sweep_gen.err"
  grep -m5 -E 'connection|FATAL|PANIC' "$WORK/sweep_run.err"
  grep -E -A1 '\] edge_sweep XX[0-9A-Z]{3}: ERROR: ' "$WORK/server.log" | head -10 | cut -c1-300
  failed=$((failed + 1))
fi

# ---- crashes in the server log ----
crash_re='terminated by signal|was terminated by exception|exited with exit code|PANIC:|TRAP:'
crashes=$(grep -cE "$crash_re" "$WORK/server.log" || true)
echo "server crashes: $crashes"
if [ "$crashes" -eq 0 ]; then
  passed=$((passed + 1))
else
  grep -E -A2 "$crash_re|Failed process was running" "$WORK/server.log" | head -40
  failed=$((failed + 1))
fi

report_errors "sqlsmith errors" 'sqlsmith::dut'
report_errors "sweep errors" 'edge_sweep'

# ---- the analyst changed nothing ----
if diff -q "$WORK/tables.before" "$WORK/tables.after" >/dev/null; then
  echo "tables: unchanged ($(wc -l <"$WORK/tables.after") llm_econ tables fingerprinted before and after)"
  passed=$((passed + 1))
else
  echo "tables: CHANGED by the analyst:"; diff "$WORK/tables.before" "$WORK/tables.after" | head -10
  failed=$((failed + 1))
fi
finish
