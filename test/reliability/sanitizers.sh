#!/usr/bin/env bash
# test/reliability/sanitizers.sh: builds and runs the core's unit tests (test/unit/*.c + src/core/*.c) under AddressSanitizer + UndefinedBehaviorSanitizer.
#
# Usage: test/reliability/sanitizers.sh            (from anywhere; works from the repo root)
# Environment:
#   SAN_CC="gcc"            compiler(s) to build with, e.g. SAN_CC=clang-14 or SAN_CC="gcc clang-14"
#                           (each builds and runs the suite once; the counts add up)
#   PROFILE=-Werror         extra compiler flags, as for make unittest (default -Werror)
# The build mirrors the Makefile's unittest target (-std=c99 -Wall -Wextra -ffp-contract=off,
# -Isrc -Itest/unit, every test/unit/*.c and src/core/*.c) plus
# -fsanitize=address,undefined -fno-sanitize-recover=all, so any sanitizer finding aborts the run.
# Output: the unit tests' own output, then a last line "N passed, M failed": the unit tests'
# counts, with one more failure per compiler whose build failed, whose run printed a sanitizer
# report (ASan, LSan or UBSan "runtime error"), exited non-zero, or printed no summary.
# Exit status 1 when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

COMPILERS=${SAN_CC:-gcc}
PROFILE=${PROFILE--Werror}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/llm_econ_san.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

passed=0
failed=0
for cc in $COMPILERS; do
  bin=$WORK/test_core_$cc
  echo "== unit tests under ASan+UBSan ($cc)"
  if ! command -v "$cc" >/dev/null; then
    echo "sanitizers: compiler $cc not found"; failed=$((failed + 1)); continue
  fi
  # shellcheck disable=SC2086  # PROFILE is a list of flags
  if ! "$cc" -std=c99 -Wall -Wextra -ffp-contract=off $PROFILE -g -O1 -fno-omit-frame-pointer \
      -fsanitize=address,undefined -fno-sanitize-recover=all \
      -Isrc -Itest/unit -o "$bin" test/unit/*.c src/core/*.c -lm 2>"$WORK/build.log"; then
    cat "$WORK/build.log"
    echo "sanitizers: BUILD FAILED ($cc)"; failed=$((failed + 1)); continue
  fi
  start=$(date +%s)
  out=$(timeout -k 10 600 "$bin" 2>&1); rc=$?
  secs=$(($(date +%s) - start))
  echo "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'
  counts=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' | tail -1)
  reports=$(echo "$out" | grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer)')
  if [ -n "$counts" ]; then
    passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
    echo "$cc: ${counts% *} passed, ${counts#* } failed in ${secs}s"
  fi
  if [ "$reports" -gt 0 ]; then
    echo "sanitizers: $cc: SANITIZER REPORT (see above)"; failed=$((failed + 1))
  elif [ -z "$counts" ]; then
    echo "sanitizers: $cc: the unit tests printed no summary (exit $rc)"; failed=$((failed + 1))
  elif [ "$rc" -ne 0 ] && [ "${counts#* }" -eq 0 ]; then
    echo "sanitizers: $cc: exit status $rc with no failed test"; failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
