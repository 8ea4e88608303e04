#!/usr/bin/env bash
# run.sh: the README's two commands. "./run.sh demo" installs what is missing, builds, installs and
# runs the demo in a throwaway cluster (MONTH=YYYY-MM picks the month it prices); "./run.sh test"
# runs every test. Debian 12, as root. "./run.sh import-catalogs DIR [--at TIMESTAMP]" imports every
# cloud's vms.csv of a SkyPilot catalog checkout into a database you name (src/import_catalogs.sh).
set -euo pipefail
CALLER_DIR=$PWD   # import-catalogs resolves the directory it is given from here
cd "$(dirname "$0")"

# Debian packages the build and the tests need (PostgreSQL 15 is Debian 12's own).
PACKAGES=(gcc make perl postgresql-15 postgresql-client-15 postgresql-common postgresql-server-dev-15 libipc-run-perl)
# the test command also needs the fuzzing and SQL-fuzzing tools
TEST_PACKAGES=(clang-14 libclang-rt-14-dev sqlsmith)

install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh: missing packages: ${missing[*]}; run as root or install them first" >&2
    exit 1
  fi
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Build with warnings as errors (override with PROFILE=...), install into the system PostgreSQL 15.
build_install() {
  echo "== building and installing llm_econ"
  make -s PROFILE="${PROFILE:--Werror}" all
  make -s install >/dev/null
  # the released scripts the upgrade chain starts from (security and TAP tests list and install them)
  bash test/upgrade/install.sh pg_config
}

demo() {
  install_missing "${PACKAGES[@]}"
  build_install
  echo "== demo: the seed's worked examples and the cheapest provider, in a throwaway cluster"
  pg_virtualenv psql -X -q -v ON_ERROR_STOP=1 -v month="${MONTH:-2024-06}" -f test/demo.sql
}

# Run one suite: its output is shown, its last "N passed, M failed" line is added to the totals;
# a suite that fails without such a line counts as one failure.
PASSED=0
FAILED=0
suite() {
  local name=$1; shift
  local out rc=0 n t0=$SECONDS
  echo "== $name"
  out=$("$@" 2>&1) || rc=$?
  echo "$out" | tail -n "${SUITE_TAIL:-40}"
  echo "== $name: $((SECONDS - t0)) s"
  n=$(echo "$out" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*$/\1 \2/p' | tail -1)
  if [ -n "$n" ]; then
    PASSED=$((PASSED + ${n% *})); FAILED=$((FAILED + ${n#* }))
    if [ "$rc" -ne 0 ] && [ "${n#* }" -eq 0 ]; then FAILED=$((FAILED + 1)); fi
  elif [ "$rc" -ne 0 ]; then
    FAILED=$((FAILED + 1))
  fi
}

# pg_regress and isolation tests in a throwaway cluster, summarised as "N passed, M failed".
regress() {
  local out rc=0 ok bad
  rm -rf results regression.diffs regression.out output_iso
  out=$(pg_virtualenv -t make -s installcheck TAP_TESTS= 2>&1) || rc=$?
  echo "$out" | grep -E '^(test |     |ok |not ok| *[0-9]+ of | *All |=+)' || true
  if [ -s regression.diffs ]; then echo "== regression.diffs"; head -c 20000 regression.diffs; fi
  ok=$(echo "$out" | grep -cE '\.\.\. ok|^ok ' || true)
  bad=$(echo "$out" | grep -cE '\.\.\. FAILED|^not ok' || true)
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; echo "$out" | tail -20; fi
  echo "$ok passed, $bad failed"
  [ "$bad" -eq 0 ]
}

tests() {
  install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  build_install
  suite "unit tests of the plain-C core" make -s PROFILE="${PROFILE:--Werror}" unittest
  suite "release documents (CHANGELOG lines, META.json version, figures and example rows the docs show)" bash test/check_docs.sh
  SUITE_TAIL=60 suite "PostgreSQL 15: regression and isolation tests (pg_regress)" regress
  SUITE_TAIL=12 suite "PostgreSQL 15: TAP: dump/restore, upgrade, crash safety" bash test/tap/run.sh
  SUITE_TAIL=12 suite "scale-out: coordinator + 2 shards (postgres_fdw)" bash test/shard/run.sh
  SUITE_TAIL=6 suite "unit tests under ASan + UBSan" bash test/reliability/sanitizers.sh
  SUITE_TAIL=8 suite "libFuzzer on the C core (60 s per target; test/fuzz/run.sh long for 30 min)" bash test/fuzz/run.sh
  SUITE_TAIL=30 suite "sqlsmith and an edge-value sweep as a non-superuser (no crash allowed)" env NO_BUILD=1 bash test/reliability/sqlsmith.sh
  # other majors, each built once from Debian's source packages into /opt/llm_econ-pg/MAJOR
  SUITE_TAIL=30 suite "PostgreSQL 17: build, pg_regress, isolation, TAP" bash test/versions/run.sh 17
  SUITE_TAIL=30 suite "PostgreSQL 18: build, pg_regress, isolation, TAP" bash test/versions/run.sh 18
  # Citus 13.2.2 (test dependency from ../shared/vendor, built once per server): coordinator + 2 workers
  SUITE_TAIL=12 suite "Citus 13.2 on PostgreSQL 15: coordinator + 2 workers" bash test/citus/run.sh
  SUITE_TAIL=12 suite "Citus 13.2 on PostgreSQL 17: coordinator + 2 workers" env PG_CONFIG=/opt/llm_econ-pg/17/bin/pg_config bash test/citus/run.sh
  echo "== all suites: $SECONDS s"
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}

case "${1:-}" in
  demo) demo ;;
  test) tests ;;
  import-catalogs) shift; script=$PWD/src/import_catalogs.sh; cd "$CALLER_DIR"; exec bash "$script" "$@" ;;
  *) echo "usage: ./run.sh demo | ./run.sh test | ./run.sh import-catalogs DIR [--at TIMESTAMP] [-- PSQL_OPTIONS]" >&2; exit 2 ;;
esac
