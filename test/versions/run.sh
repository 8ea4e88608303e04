#!/usr/bin/env bash
# test/versions/run.sh: builds llm_econ against another PostgreSQL major (17, 18) and runs pg_regress, isolation and TAP on it; ends with "N passed, M failed".
#
# usage (as root, Debian 12): bash test/versions/run.sh MAJOR [MAJOR...]      e.g. 17 18
# PostgreSQL MAJOR comes from test/versions/pg_build.sh (built once from Debian's source package into
# $PG_PREFIX_ROOT/MAJOR, default /opt/llm_econ-pg/MAJOR, reused afterwards). llm_econ is built in a
# scratch copy of this checkout per major (no object file of one version meets another's) with
# warnings as errors, installed into that prefix only, and tested there as user postgres:
# installcheck (pg_regress + isolation, temporary instance) and test/tap/run.sh.
# Prints one line per major, "PostgreSQL 17.11: regress 40/40, isolation 6/6, TAP 60/60", then the totals.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
[ $# -gt 0 ] || set -- 17 18
PASSED=0
FAILED=0
SUMMARY=()

count() { grep -cE "$1" <<<"$2" || true; }

one_version() {
  local major=$1 t0 pgc scratch prefix ver out rc port r_ok r_bad i_ok i_bad tap t_ok t_bad
  t0=$(date +%s)
  echo "== PostgreSQL $major"
  if ! pgc=$(bash "$HERE/pg_build.sh" "$major" | tail -1) || [ ! -x "$pgc" ]; then
    echo "PostgreSQL $major: build of the server failed"; FAILED=$((FAILED + 1))
    SUMMARY+=("PostgreSQL $major: server build FAILED"); return
  fi
  ver=$("$pgc" --version | sed 's/^PostgreSQL //')
  echo "server: $pgc ($ver), ready after $(( $(date +%s) - t0 )) s"

  # A scratch copy of the checkout, without git data and build artefacts.
  scratch=$(mktemp -d "/tmp/llm_econ_pg$major.XXXXXX")
  tar -C "$REPO" --exclude=./.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
      --exclude=./results --exclude=./log --exclude=./output_iso -cf - . | tar -C "$scratch" -xf -
  (cd "$scratch" && make -s clean >/dev/null 2>&1)
  if ! out=$(cd "$scratch" && make -s PG_CONFIG="$pgc" PROFILE="${PROFILE:--Werror}" all 2>&1 \
             && make -s PG_CONFIG="$pgc" install 2>&1); then
    echo "$out" | tail -40
    echo "PostgreSQL $ver: llm_econ build FAILED"; FAILED=$((FAILED + 1))
    SUMMARY+=("PostgreSQL $ver: llm_econ build FAILED"); return
  fi
  [ -n "$out" ] && echo "$out" | tail -20     # (warnings would have failed the build: -Werror)
  # the released scripts the upgrade chain starts from (test/upgrade), as run.sh installs them for 15
  bash "$scratch"/test/upgrade/install.sh "$pgc"
  echo "llm_econ built with ${PROFILE:--Werror} and installed into $("$pgc" --pkglibdir)"

  # pg_regress + isolation in a temporary instance, as postgres (initdb refuses root).
  chown -R postgres: "$scratch"
  port=$(( 41000 + major * 10 + $$ % 10 ))
  rc=0
  out=$(cd "$scratch" && runuser -u postgres -- env PGTZ=UTC make -s PG_CONFIG="$pgc" installcheck TAP_TESTS= \
          EXTRA_REGRESS_OPTS="--temp-instance=$scratch/tmp_instance --port=$port" 2>&1) || rc=$?
  # pg_regress 17/18 print TAP ("ok 1 - name", "not ok 2 - name"), per suite.
  local reg iso
  reg=$(sed -n '1,/^# All [0-9]* tests passed\|^# [0-9]* of [0-9]* tests failed/p' <<<"$out")
  iso=${out#"$reg"}
  r_ok=$(count '^ok [0-9]+' "$reg"); r_bad=$(count '^not ok [0-9]+' "$reg")
  i_ok=$(count '^ok [0-9]+' "$iso"); i_bad=$(count '^not ok [0-9]+' "$iso")
  echo "$out" | grep -E '^(ok|not ok) [0-9]+|^# ' || true
  if [ "$rc" -ne 0 ]; then
    [ -s "$scratch/regression.diffs" ] && { echo "== regression.diffs"; head -c 20000 "$scratch/regression.diffs"; }
    if [ $((r_bad + i_bad)) -eq 0 ]; then echo "$out" | tail -20; i_bad=$((i_bad + 1)); fi
  fi

  # TAP (test/t) against this major, from the scratch copy.
  tap=$(PG_CONFIG="$pgc" bash "$scratch/test/tap/run.sh" 2>&1)
  echo "$tap" | grep -E '^(not ok|t/|== |Result|Files=)' | tail -15
  t_ok=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' <<<"$tap" | tail -1)
  t_bad=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' <<<"$tap" | tail -1)
  [ -n "$t_ok" ] || { t_ok=0; t_bad=1; }

  PASSED=$((PASSED + r_ok + i_ok + t_ok)); FAILED=$((FAILED + r_bad + i_bad + t_bad))
  SUMMARY+=("PostgreSQL $ver: regress $r_ok/$((r_ok + r_bad)), isolation $i_ok/$((i_ok + i_bad)), TAP $t_ok/$((t_ok + t_bad)) in $(( $(date +%s) - t0 )) s")
  if [ $((r_bad + i_bad + t_bad)) -eq 0 ] && [ -z "${VERSIONS_KEEP:-}" ]; then rm -rf "$scratch"; else echo "kept $scratch"; fi
}

for m in "$@"; do one_version "$m"; done
echo "== summary"
printf '%s\n' "${SUMMARY[@]}"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
