#!/usr/bin/env bash
# test/check_docs.sh: checks of the release documents no other test reads: every CHANGELOG.md line
# is at most 120 characters (one short line per user-visible change), and META.json's versions
# agree with each other and are not older than the control file's default_version.
# Run from anywhere: bash test/check_docs.sh   (exit 1 and a message per failure)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
exec python3 - <<'PY'
import json, re, sys
fail = False
for n, line in enumerate(open('CHANGELOG.md', encoding='utf-8'), 1):
    line = line.rstrip('\n')
    if len(line) > 120:
        print(f'CHANGELOG.md:{n}: {len(line)} characters (at most 120)')
        fail = True
control = re.search(r"^default_version = '(.*)'", open('llm_econ.control').read(), re.M).group(1)
meta = json.load(open('META.json'))
versions = {meta['version']} | {p['version'] for p in meta['provides'].values()}
key = lambda v: tuple(int(x) for x in v.split('.'))
if len(versions) != 1:
    print(f'META.json names more than one version: {sorted(versions)}'); fail = True
elif key(versions.pop()) < key(control):
    print(f"META.json says {meta['version']}, older than the control file's {control}"); fail = True
print('check_docs:', 'FAILED' if fail else f"ok (META.json {meta['version']}, control {control})")
sys.exit(1 if fail else 0)
PY
