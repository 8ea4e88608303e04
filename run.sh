#!/usr/bin/env bash
# run.sh: the README's two commands. "./run.sh demo" installs what is missing, builds, installs and
# runs the demo in a throwaway cluster (MONTH=YYYY-MM picks the month it prices); "./run.sh test"
# runs every test. Debian 12, as root.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests need (PostgreSQL 15 is Debian 12's own).
PACKAGES=(gcc make perl postgresql-15 postgresql-client-15 postgresql-common postgresql-server-dev-15 libipc-run-perl)

install_missing() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
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
}

demo() {
  install_missing
  build_install
  echo "== demo: the seed's worked examples and the cheapest provider, in a throwaway cluster"
  pg_virtualenv psql -X -q -v ON_ERROR_STOP=1 -v month="${MONTH:-2024-06}" -f test/demo.sql
}

tests() {
  install_missing
  build_install
  local passed=0 failed=0 out n

  echo "== unit tests of the plain-C core"
  if out=$(make -s PROFILE="${PROFILE:--Werror}" unittest 2>&1); then :; fi
  echo "$out"
  n=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' | tail -1)
  if [ -n "$n" ]; then passed=$((passed + ${n% *})); failed=$((failed + ${n#* })); else failed=$((failed + 1)); fi

  echo "== regression tests (pg_regress, throwaway cluster)"
  rm -rf results regression.diffs regression.out
  local rc=0 bad
  out=$(pg_virtualenv make -s installcheck 2>&1) || rc=$?
  echo "$out" | grep -E '^(test |     |ok |not ok| *[0-9]+ of | *All |=+)' || echo "$out"
  passed=$((passed + $(echo "$out" | grep -cE '\.\.\. ok|^ok ' || true)))
  bad=$(echo "$out" | grep -cE '\.\.\. FAILED|^not ok' || true)
  # a run that failed before any test could (no cluster, bad install script) still counts as a failure
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; echo "$out" | tail -20; fi
  failed=$((failed + bad))
  if [ -s regression.diffs ]; then echo "== regression.diffs"; head -c 20000 regression.diffs; fi

  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

case "${1:-}" in
  demo) demo ;;
  test) tests ;;
  *) echo "usage: ./run.sh demo | ./run.sh test" >&2; exit 2 ;;
esac
