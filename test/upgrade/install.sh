#!/usr/bin/env bash
# install.sh: installs the released install scripts the upgrade tests start from (test/upgrade/llm_econ--*.sql) with the frozen data they read.
#
#   bash test/upgrade/install.sh [PG_CONFIG]        (default: pg_config on PATH)
# Run after `make install`.  These scripts are not shipped: users install the current version and
# update; the tests install a released version and update it.  Each released script reads its data
# files, as released, from SHAREDIR/extension/llm_econ/VERSION/ (data/VERSION/*.csv, pinned by
# data/VERSION/MD5SUMS): the only edit made to the frozen scripts is that directory in their path.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
PG_CONFIG=${1:-pg_config}
SHARE=$("$PG_CONFIG" --sharedir)/extension
install -m 644 "$REPO"/test/upgrade/llm_econ--*.sql "$SHARE/"
for dir in "$REPO"/data/[0-9]*.[0-9]*.[0-9]*/; do
  v=$(basename "$dir")
  install -d "$SHARE/llm_econ/$v"
  install -m 644 "$dir"*.csv "$SHARE/llm_econ/$v/"
done
