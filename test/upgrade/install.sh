#!/usr/bin/env bash
# install.sh: installs the released install scripts the upgrade tests start from (test/upgrade/llm_econ--*.sql), with the data file the released 0.3.0 script reads.
#
#   bash test/upgrade/install.sh [PG_CONFIG]        (default: pg_config on PATH)
# Run after `make install` (the current data files are then in SHAREDIR/extension/llm_econ/).
# The released 0.3.0 script COPYs the GCP history's change points from
# gcp_gpu_price_history_points.csv, 9 columns (HEADER MATCH); since 0.4.0 they ship with a
# tenth, last_seen_at, as gcp_gpu_price_history_change_points.csv.  The 9-column file is
# those rows less that column, written here (no comma is quoted in it: src/check_data.pl).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
PG_CONFIG=${1:-pg_config}
SHARE=$("$PG_CONFIG" --sharedir)/extension
install -m 644 "$REPO"/test/upgrade/llm_econ--*.sql "$SHARE/"
cut -d, -f1-9 "$REPO/data/gcp_gpu_price_history_change_points.csv" > "$SHARE/llm_econ/gcp_gpu_price_history_points.csv"
chmod 644 "$SHARE/llm_econ/gcp_gpu_price_history_points.csv"
