#!/usr/bin/env bash
# test/fuzz/run.sh: builds the libFuzzer targets over the plain-C core (fuzz_core, fuzz_csv) with clang-14 + ASan/UBSan and runs each for a bounded time.
#
# Usage (from anywhere; as root when clang-14 must be installed):
#   test/fuzz/run.sh               CI mode: FUZZ_SECONDS (default 60) per target
#   test/fuzz/run.sh long          long mode (also LONG=1): FUZZ_SECONDS default 1800 per target
# Environment:
#   FUZZ_SECONDS=n        seconds per target (overrides the mode's default)
#   FUZZ_TARGETS="core"   run only these targets (default: "core csv")
#   FUZZ_WORK=dir         keep builds, grown corpora and crash inputs in dir (default: a fresh
#                         temporary directory, removed afterwards unless something failed)
#   FUZZ_ALLOW_KNOWN=1    skip the invariants of known, reported core bugs (see fuzz_core.c) so that
#                         a run can look for others; by default they fail the run
# Output: per target the executions, the corpus size and the result, then a last line
# "N passed, M failed" (one check per target: it built, and ran its time with no crash, leak,
# sanitizer report, invariant violation or timeout). Exit status 1 when anything failed.
# A failing input is kept as <work>/artifacts/<target>/crash-*; replay it with
#   <work>/fuzz_<target> <file>       (LE_FUZZ_VERBOSE=1 prints a fuzz_core input decoded)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

LONG=${LONG:-0}
case "${1:-}" in
  long | --long) LONG=1 ;;
  "" | ci) ;;
  *) echo "usage: test/fuzz/run.sh [long]" >&2; exit 2 ;;
esac
if [ "$LONG" != 0 ]; then SECONDS_EACH=${FUZZ_SECONDS:-1800}; MODE=long; else SECONDS_EACH=${FUZZ_SECONDS:-60}; MODE=ci; fi
TARGETS=${FUZZ_TARGETS:-core csv}
CC=${FUZZ_CC:-clang-14}

passed=0
failed=0
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

# clang-14 and its sanitizer/fuzzer runtimes (Debian: clang-14, libclang-rt-14-dev)
if ! command -v "$CC" >/dev/null || ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q 'install ok installed'; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "fuzz: $CC or libclang-rt-14-dev missing; install them (apt-get install clang-14 libclang-rt-14-dev)" >&2
    failed=1; summary
  fi
  echo "== installing clang-14 libclang-rt-14-dev"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null; } ||
    { echo "fuzz: could not install clang-14" >&2; failed=1; summary; }
fi

if [ -n "${FUZZ_WORK:-}" ]; then
  WORK=$FUZZ_WORK; KEEP=1; mkdir -p "$WORK"
else
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/llm_econ_fuzz.XXXXXX"); KEEP=0
fi
cleanup() {
  if [ "$KEEP" = 0 ] && [ "$failed" -eq 0 ]; then rm -rf "$WORK"; fi
}
trap cleanup EXIT
# stop the fuzzer we started (and only it) if we are interrupted
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; echo "fuzz: interrupted" >&2; failed=$((failed + 1)); summary' INT TERM

[ -n "${FUZZ_ALLOW_KNOWN:-}" ] && [ "${FUZZ_ALLOW_KNOWN}" != 0 ] && export LE_FUZZ_ALLOW_KNOWN=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

echo "== fuzz ($MODE mode): ${SECONDS_EACH}s per target, $CC, work dir $WORK"
[ -n "${LE_FUZZ_ALLOW_KNOWN:-}" ] && echo "   (FUZZ_ALLOW_KNOWN: invariants of known, reported bugs are skipped)"
total_execs=0
for t in $TARGETS; do
  src=test/fuzz/fuzz_$t.c
  bin=$WORK/fuzz_$t
  log=$WORK/fuzz_$t.log
  if [ ! -f "$src" ]; then echo "fuzz_$t: no $src"; failed=$((failed + 1)); continue; fi
  echo "-- fuzz_$t: building"
  # every core source but nothing else (shell glob: src/core/*.c, as the Makefile's unittest target)
  if ! $CC -g -O1 -std=c99 -Wall -Wextra -Werror -ffp-contract=off \
      -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
      -Isrc -o "$bin" "$src" src/core/*.c -lm 2>"$WORK/build_$t.log"; then
    cat "$WORK/build_$t.log"
    echo "fuzz_$t: BUILD FAILED"; failed=$((failed + 1)); continue
  fi
  case $t in
    core) opts=(-max_len=512) ;;
    csv) opts=(-max_len=4096 -dict=test/fuzz/csv.dict) ;;
    *) opts=() ;;
  esac
  corpus=$WORK/corpus/$t
  mkdir -p "$corpus" "$WORK/artifacts/$t"
  start=$(date +%s)
  # one process, one core; the grown corpus goes to $corpus, the shipped seeds are read only;
  # timeout is a hard stop well after libFuzzer's own limit, in case it hangs
  timeout -k 10 $((SECONDS_EACH + 300)) nice -n 10 "$bin" "${opts[@]}" -max_total_time="$SECONDS_EACH" \
    -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$t/" \
    "$corpus" "test/fuzz/corpus/$t" >"$log" 2>&1 &
  child=$!
  wait "$child"; rc=$?
  child=
  secs=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
  [ -z "$execs" ] && execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  execs=${execs:-0}
  total_execs=$((total_execs + execs))
  corp=$(find "$corpus" -type f | wc -l)
  bad=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|INVARIANT VIOLATED|SUMMARY: (Address|Undefined|Leak)' "$log")
  if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ]; then
    echo "fuzz_$t: ok, $execs executions in ${secs}s ($((execs / (secs > 0 ? secs : 1))) exec/s), corpus $corp inputs"
    passed=$((passed + 1))
  else
    echo "fuzz_$t: FAILED (exit $rc) after $execs executions in ${secs}s"
    grep -m5 -E 'INVARIANT VIOLATED|ERROR: |runtime error:|SUMMARY:|Test unit written to' "$log" | cut -c1-400
    echo "   full log: $log; crash inputs: $WORK/artifacts/$t/"
    failed=$((failed + 1))
  fi
done
echo "fuzz executions: $total_execs in total"
summary
