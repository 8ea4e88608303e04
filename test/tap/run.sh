#!/usr/bin/env bash
# test/tap/run.sh: runs the TAP tests test/t/*.pl (PostgreSQL::Test::Cluster) as user postgres and ends with "N passed, M failed".
#
# Run as root from anywhere: bash test/tap/run.sh [PATTERN...]   (PATTERN picks test files, e.g. 003)
# Assumes llm_econ is already built and installed (make && make install); needs the Debian packages
# postgresql-15, postgresql-server-dev-15 (the Perl test modules and pg_regress) and libipc-run-perl.
# Environment: PG_CONFIG (default /usr/lib/postgresql/15/bin/pg_config), TAP_TIMEOUT (seconds for the
# whole run, default 900), TAP_KEEP=1 keeps the work directory even when everything passed.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
TAP_TIMEOUT=${TAP_TIMEOUT:-900}

fail_early() {
  echo "test/tap/run.sh: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail_early "run me as root (the tests run as user postgres through runuser)"
id postgres >/dev/null 2>&1 || fail_early "no user postgres (install postgresql-15)"
[ -x "$PG_CONFIG" ] || fail_early "no $PG_CONFIG (install postgresql-server-dev-15 or set PG_CONFIG)"
command -v prove >/dev/null || fail_early "no prove (install perl)"
perl -MIPC::Run -e 1 2>/dev/null || fail_early "Perl module IPC::Run missing (apt-get install libipc-run-perl)"

BINDIR=$("$PG_CONFIG" --bindir)
PGXS_DIR=$(dirname "$("$PG_CONFIG" --pgxs)")            # .../lib/pgxs/src/makefiles
PERL_MODULES=$(cd "$PGXS_DIR/../test/perl" 2>/dev/null && pwd) \
  || fail_early "no PostgreSQL::Test modules under $PGXS_DIR/../test/perl (postgresql-server-dev-15)"
PG_REGRESS_BIN=$(cd "$PGXS_DIR/../test/regress" 2>/dev/null && pwd)/pg_regress
[ -x "$PG_REGRESS_BIN" ] || fail_early "no pg_regress at $PG_REGRESS_BIN (postgresql-server-dev-15)"
[ -f "$("$PG_CONFIG" --sharedir)/extension/llm_econ.control" ] \
  || fail_early "llm_econ is not installed: run 'make && make install' first"

# The upgrade test starts from the released 0.1.0, whose full install script is kept out of the
# way in test/upgrade/ (the build installs only the current script and the update scripts).
bash "$REPO"/test/upgrade/install.sh "$PG_CONFIG" \
  || fail_early "cannot install the old release scripts of test/upgrade"

# The test files, optionally filtered by the patterns given as arguments.
tests=()
for f in "$REPO"/test/t/*.pl; do
  [ -e "$f" ] || continue
  if [ $# -eq 0 ]; then tests+=("$f"); continue; fi
  for p in "$@"; do case "$(basename "$f")" in *"$p"*) tests+=("$f"); break ;; esac; done
done
[ ${#tests[@]} -gt 0 ] || fail_early "no test files in $REPO/test/t matching: ${*:-*}"

# A work directory postgres can write: the Makefile (TAP_TESTS = 1: PGXS's prove_installcheck runs
# the tests), the tests, and tmp_check (clusters, logs, port locks) live there.
WORK=$(mktemp -d /tmp/llm_econ_tap.XXXXXX) || fail_early "mktemp failed"
mkdir -p "$WORK/test/t"
cp "$REPO/Makefile" "$REPO/llm_econ.control" "$WORK/"
cp "${tests[@]}" "$WORK/test/t/"
cp "$REPO"/test/t/*.pm "$WORK/test/t/" 2>/dev/null || true   # modules the tests share (LeAttack.pm)
# what 009_import_catalogs.pl runs: the import command and the catalog samples it builds a checkout from
mkdir -p "$WORK/src" "$WORK/test/data/skypilot"
cp "$REPO/src/import_catalogs.sh" "$WORK/src/"
cp "$REPO"/test/data/skypilot/lambda_20*.csv "$REPO"/test/data/skypilot/runpod_2024-01-08.csv "$WORK/test/data/skypilot/"
rel=()
for f in "${tests[@]}"; do rel+=("test/t/$(basename "$f")"); done
chmod 755 "$WORK"
chown -R postgres: "$WORK"
# Port reservations shared by concurrent runs of this script (each run has its own sockets
# directory anyway; this only keeps two runs from picking the same port number).
PORTS=/tmp/llm_econ_tap_ports
install -d -o postgres -g postgres -m 700 "$PORTS" || fail_early "cannot create $PORTS"

echo "== TAP tests (PostgreSQL::Test::Cluster), work directory $WORK"
start=$(date +%s)
# `make installcheck` with only the TAP step (REGRESS= ISOLATION=): PGXS's prove_installcheck sets
# what PostgreSQL::Test::Utils/Cluster read (PG_REGRESS for "pg_regress --config-auth", TESTDIR
# for tmp_check/, PATH with the server's binaries, -I for the Perl modules); we add
#   PG_TEST_TIMEOUT_DEFAULT - per-command timeout of psql/poll helpers (180 s by default);
#   PG_TEST_PORT_DIR - where port reservations are kept (default tmp_check/portlock, per run).
out=$(cd "$WORK" && timeout -k 20 "$TAP_TIMEOUT" runuser -u postgres -- env -i \
        HOME="$WORK" LANG=C.UTF-8 PATH="$BINDIR:/usr/local/bin:/usr/bin:/bin" \
        PG_TEST_TIMEOUT_DEFAULT=120 PG_TEST_PORT_DIR="$PORTS" \
        make -s -C "$WORK" PG_CONFIG="$PG_CONFIG" installcheck REGRESS= ISOLATION= \
        PROVE_TESTS="${rel[*]}" PROVE_FLAGS="-v --timer" 2>&1)
rc=$?
echo "$out"
# A test killed by the timeout cannot stop its servers (they run in their own session): stop any
# server still running from this work directory.
for pidfile in "$WORK"/tmp_check/*/pgdata/postmaster.pid; do
  [ -e "$pidfile" ] || continue
  echo "test/tap/run.sh: stopping a server left running in ${pidfile%/postmaster.pid}"
  runuser -u postgres -- "$BINDIR/pg_ctl" -D "${pidfile%/postmaster.pid}" -m immediate -w stop >/dev/null 2>&1 || true
done
elapsed=$(( $(date +%s) - start ))

# TAP lines: "ok N", "not ok N"; a "not ok N ... # TODO ..." is a known, documented failure (counted
# apart, not as a failure); an "ok N ... # TODO" passed unexpectedly (counted as passed, and named).
passed=$(echo "$out" | grep -cE '^ok [0-9]+' || true)
failed=$(echo "$out" | grep -E '^not ok [0-9]+' | grep -vcE '# TODO' || true)
todo=$(echo "$out" | grep -E '^not ok [0-9]+' | grep -cE '# TODO' || true)
# A file that died, planned more tests than it ran or exited non-zero without a failing test still
# counts as one failure ("t/x.pl (Wstat: 512 Tests: 5 Failed: 0)" in prove's summary).
extra=$(echo "$out" | grep -cE '^(test/)?t/[^ ]+\.pl +\(Wstat: [0-9]+ Tests: [0-9]+ Failed: 0\)' || true)
failed=$((failed + extra))
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "test/tap/run.sh: timed out after ${TAP_TIMEOUT}s"
  failed=$((failed + 1))
elif [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "test/tap/run.sh: prove exited with $rc"
  failed=1
elif [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
  echo "test/tap/run.sh: no test ran"
  failed=1
fi

if [ "$failed" -gt 0 ]; then
  # the end of the log of each file prove names as failed (or of every file if it names none)
  bad_files=$(echo "$out" | sed -n 's|^\(test/\)\{0,1\}t/\([^ ]*\)\.pl .*(Wstat: .*|\2|p')
  for log in "$WORK"/tmp_check/log/regress_log_*; do
    [ -e "$log" ] || continue
    if [ -n "$bad_files" ] && ! echo "$bad_files" | grep -qxF "${log##*/regress_log_}"; then continue; fi
    echo "== last lines of $log"
    tail -n 40 "$log"
  done
  echo "== kept $WORK (test logs and server logs in tmp_check/log)"
elif [ -z "${TAP_KEEP:-}" ]; then
  rm -rf "$WORK"
fi
if [ "$todo" -gt 0 ]; then
  echo "== $todo known failure(s) marked TODO (not counted):"
  echo "$out" | grep -E '^not ok [0-9]+.*# TODO'
fi
if echo "$out" | grep -qE '^ok [0-9]+.*# TODO'; then
  echo "== TODO test(s) now passing (remove the TODO mark):"
  echo "$out" | grep -E '^ok [0-9]+.*# TODO'
fi
echo "== TAP run took ${elapsed}s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
