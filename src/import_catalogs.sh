#!/usr/bin/env bash
# src/import_catalogs.sh: imports every cloud's vms.csv of a SkyPilot catalog checkout into llm_econ, client side (psql \copy).
#
#   ./run.sh import-catalogs DIR [--at TIMESTAMP] [--withdraw-missing true|false] [-- PSQL_OPTIONS...]
#
# DIR is a checkout of github.com/skypilot-org/skypilot-catalog (or a directory laid out like one):
# DIR/catalogs/vN/<cloud>/vms.csv, DIR/vN/<cloud>/vms.csv or DIR/<cloud>/vms.csv.  Each cloud's file
# of the highest schema version present is imported with llm_econ.import_skypilot_catalog(cloud,
# file, observed_at): the older versions of a checkout are the same prices in an older schema, or
# files SkyPilot no longer updates.  observed_at is --at when given, else the date of the last
# commit that changed that file (git log of the checkout: the instant its prices were published;
# a directory that is not a git checkout needs --at).  The file is read by psql on this machine
# (\copy into a temporary table), never by the server.  Importing the same checkout again stores
# nothing new, and checkouts may be imported in any order (the importer reconciles backfills).
# Each cloud is imported on its own: a refused file is reported and the others still go in.  The
# end is one row per cloud: what it stored, left unchanged, skipped, withdrew, corrected, left
# unverified and flagged suspect, or the error; the exit status is 1 if any cloud failed.
# Connection: the usual PG* environment (PGHOST, PGPORT, PGDATABASE, PGUSER) or psql options after
# "--"; PSQL names the psql binary (default: psql on PATH).  The role needs INSERT and SELECT on
# llm_econ.price_snapshot (docs/finance.md#roles-and-tenants).
set -uo pipefail

usage() {
  echo "usage: import_catalogs.sh DIR [--at TIMESTAMP] [--withdraw-missing true|false] [-- PSQL_OPTIONS...]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
DIR=$1; shift
AT=""
WITHDRAW="NULL"
PSQL_OPTS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --at) [ $# -ge 2 ] || usage; AT=$2; shift 2 ;;
    --withdraw-missing)
      [ $# -ge 2 ] || usage
      case "$2" in true|false) WITHDRAW=$2 ;; *) usage ;; esac
      shift 2 ;;
    --) shift; PSQL_OPTS=("$@"); break ;;
    *) usage ;;
  esac
done
[ -d "$DIR" ] || { echo "import_catalogs.sh: $DIR is not a directory" >&2; exit 2; }
DIR=$(cd "$DIR" && pwd)
# a timestamp is passed to SQL as a literal: only the characters a timestamp needs
if [ -n "$AT" ] && ! [[ "$AT" =~ ^[0-9A-Za-z:.+\ -]+$ ]]; then
  echo "import_catalogs.sh: --at $AT is not a timestamp" >&2; exit 2
fi

# The files: cloud -> the vms.csv of its highest schema version.
declare -A FILE VERSION
while IFS= read -r f; do
  rel=${f#"$DIR"/}
  cloud=$(basename "$(dirname "$f")")
  ver=$(echo "$rel" | sed -n 's|^\(catalogs/\)\{0,1\}v\([0-9][0-9]*\)/.*|\2|p')
  ver=${ver:-0}
  if [ -z "${FILE[$cloud]:-}" ] || [ "$ver" -gt "${VERSION[$cloud]}" ]; then
    FILE[$cloud]=$f; VERSION[$cloud]=$ver
  fi
done < <(find "$DIR" -maxdepth 4 -name vms.csv -type f \
           \( -path "$DIR/catalogs/v*/*/vms.csv" -o -path "$DIR/v*/*/vms.csv" -o -path "$DIR/*/vms.csv" \) | sort)
[ ${#FILE[@]} -gt 0 ] || { echo "import_catalogs.sh: no <cloud>/vms.csv under $DIR" >&2; exit 2; }

script=$(mktemp /tmp/import_catalogs.XXXXXX.sql) || exit 2
trap 'rm -f "$script"' EXIT
{
  echo "SET client_min_messages = notice;"
  echo "CREATE TEMP TABLE import_stage (n bigserial, line text);"
  echo "CREATE TEMP TABLE import_result (cloud text, file text, observed_at timestamptz, inserted bigint, unchanged bigint,"
  echo "  skipped bigint, withdrawn bigint, corrected bigint, unverified bigint, suspect bigint, error text);"
} > "$script"
for cloud in $(printf '%s\n' "${!FILE[@]}" | sort); do
  f=${FILE[$cloud]}
  rel=${f#"$DIR"/}
  if ! [[ "$cloud" =~ ^[a-z0-9_-]+$ ]] || [[ "$f" == *"'"* || "$f" == *\\* ]]; then
    echo "import_catalogs.sh: skipping $rel (a cloud or path this script does not quote)" >&2; continue
  fi
  at=$AT
  if [ -z "$at" ]; then
    at=$(git -C "$(dirname "$f")" log -1 --format=%cI -- vms.csv 2>/dev/null)
    if [ -z "$at" ]; then
      echo "import_catalogs.sh: $rel has no commit (not a git checkout, or not committed): give --at TIMESTAMP" >&2
      exit 2
    fi
  fi
  cat >> "$script" <<EOF
\\echo == $cloud: $rel observed at $at
TRUNCATE import_stage;
\\copy import_stage (line) FROM '$f' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')
INSERT INTO import_result
SELECT '$cloud', '$rel', '$at', r.*, NULL
  FROM llm_econ.import_skypilot_catalog('$cloud', (SELECT string_agg(coalesce(s.line, ''), E'\\n' ORDER BY s.n) FROM import_stage s),
                                        '$at', withdraw_missing => $WITHDRAW) AS r;
\\if :ERROR
INSERT INTO import_result (cloud, file, observed_at, error) VALUES ('$cloud', '$rel', '$at', :'LAST_ERROR_MESSAGE');
\\endif
EOF
done
status=$(mktemp /tmp/import_catalogs.XXXXXX.status) || exit 2
trap 'rm -f "$script" "$status"' EXIT
cat >> "$script" <<EOF
\\echo == per cloud: what each import stored
SELECT cloud, file, observed_at, inserted, unchanged, skipped, withdrawn, corrected, unverified, suspect, error
  FROM import_result ORDER BY cloud;
\\pset tuples_only on
\\pset format unaligned
\\o '$status'
SELECT count(*) FILTER (WHERE error IS NOT NULL) || ' ' || count(*) FROM import_result;
\\o
EOF
"${PSQL:-psql}" -X -q -v ON_ERROR_STOP=0 -P pager=off "${PSQL_OPTS[@]}" -f "$script" || exit $?
read -r failed total < "$status" || { echo "import_catalogs.sh: psql did not finish" >&2; exit 1; }
if [ "$failed" -gt 0 ]; then
  echo "import_catalogs.sh: $failed of $total clouds failed" >&2
  exit 1
fi
