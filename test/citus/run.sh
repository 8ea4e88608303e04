#!/usr/bin/env bash
# test/citus/run.sh: llm_econ on Citus 13.2 (coordinator + 2 workers on loopback): the layout of topology.sql, the README queries equal to a single node's, model functions on the workers, imports reaching every node, a worker down, ALTER EXTENSION UPDATE from 0.4.0; ends with "N passed, M failed".
#
# usage (as root, Debian 12): PG_CONFIG=/path/to/pg_config bash test/citus/run.sh
# PG_CONFIG (default Debian's PostgreSQL 15) names the PostgreSQL to run on; llm_econ must be
# installed there (run.sh's build for 15, test/versions/run.sh for 17). Citus is built and installed
# there by test/citus/build.sh when missing. Every cluster it starts is torn down on exit.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
T0=$(date +%s%3N)
passed=0
failed=0
DIR=

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected [$3], got [$2]"; fi; }
phase() { echo; echo "== $1 (at $(( ($(date +%s%3N) - T0) / 1000 )) s)"; }

on_exit() {
  local rc=$?
  trap - EXIT
  if [ -n "$DIR" ] && [ -e "$DIR" ]; then
    if [ "$failed" -gt 0 ] && [ -n "${CITUS_KEEP:-}" ]; then echo "kept $DIR"; else bash "$HERE/cluster.sh" down "$DIR" >/dev/null 2>&1 || true; fi
  fi
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; echo "FAIL - run aborted (exit $rc)"; fi
  echo "== whole run $(( ($(date +%s%3N) - T0) / 1000 )) s"
  echo "$passed passed, $failed failed"
  # (bash 5.2: a bare `exit` in an EXIT trap exits with the status from before the trap)
  if [ "$failed" -eq 0 ]; then exit 0; else exit 1; fi
}
trap on_exit EXIT
trap 'exit 130' INT TERM

export PGOPTIONS="-c statement_timeout=120s" PGCONNECT_TIMEOUT=10 PGTZ=UTC
# psql on one node (coord, worker1, worker2, single = a plain database on the coordinator's server)
sq() {
  local node=$1 port db=${SQ_DB:-econ}; shift
  case $node in
    coord) port=$COORD_PORT ;; worker1) port=$WORKER1_PORT ;; worker2) port=$WORKER2_PORT ;;
    single) port=$COORD_PORT; db=${SQ_DB:+${SQ_DB}_}single ;;
  esac
  "$CITUS_PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$CITUS_SOCKET" -p "$port" -U postgres -d "$db" "$@"
}

phase "Citus 13.2.2 for $("$PG_CONFIG" --version)"
t=$(date +%s)
bash "$HERE/build.sh" || { fail "build Citus"; exit 1; }
declare -A ROLE_OUT
echo "Citus ready after $(( $(date +%s) - t )) s"
[ -f "$("$PG_CONFIG" --sharedir)/extension/llm_econ.control" ] || { fail "llm_econ is not installed in $("$PG_CONFIG" --sharedir)"; exit 1; }

phase "up: coordinator + 2 workers"
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
DIR=$(mktemp -d "$base/llm_econ_citus.XXXXXX")
rmdir "$DIR"
bash "$HERE/cluster.sh" up "$DIR" || { fail "cluster.sh up"; DIR=; exit 1; }
# shellcheck disable=SC1091
. "$DIR/env"
sq coord -c "SELECT 'citus ' || citus_version()"
sq coord -F ' ' -c "SELECT 'node', nodename, nodeport, groupid, shouldhaveshards FROM pg_dist_node ORDER BY groupid"

phase "CREATE EXTENSION llm_econ on the coordinator (Citus runs it on every node), topology.sql"
t=$(date +%s%3N)
sq coord -c "CREATE EXTENSION llm_econ" || { fail "CREATE EXTENSION llm_econ"; exit 1; }
for n in worker1 worker2; do
  check "extension: $n has llm_econ $(sq coord -c "SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'")" \
    "$(sq $n -c "SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'")" \
    "$(sq coord -c "SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'")"
done
if out=$(sq coord -f "$HERE/topology.sql" 2>&1); then pass "topology.sql"; else echo "$out"; fail "topology.sql"; exit 1; fi
echo "extension + topology in $(( $(date +%s%3N) - t )) ms"
# (citus_tables and citus_shards leave out tables that belong to an extension: read pg_dist_*)
PLACEMENTS="SELECT p.logicalrelid, s.shardid, n.nodeport FROM pg_dist_partition p JOIN pg_dist_shard s USING (logicalrelid)
              JOIN pg_dist_placement pl USING (shardid) JOIN pg_dist_node n ON n.groupid = pl.groupid"
sq coord -F ' | ' -c "SELECT p.logicalrelid, p.partmethod, column_to_column_name(p.logicalrelid, p.partkey), p.colocationid,
                             count(*) AS placements, count(DISTINCT x.nodeport) AS nodes
                        FROM pg_dist_partition p JOIN ($PLACEMENTS) x USING (logicalrelid) GROUP BY 1, 2, 3, 4 ORDER BY 1::text"
check "run_plan and spend are distributed by tenant and colocated" \
  "$(sq coord -c "SELECT string_agg(logicalrelid::text || ':' || column_to_column_name(logicalrelid, partkey), ',' ORDER BY logicalrelid::text) || '/' || count(DISTINCT colocationid)
                  FROM pg_dist_partition WHERE logicalrelid IN ('llm_econ.run_plan'::regclass, 'llm_econ.spend'::regclass)")" \
  "llm_econ.run_plan:tenant,llm_econ.spend:tenant/1"
check "both workers hold shards of spend, the coordinator none" \
  "$(sq coord -c "SELECT string_agg(DISTINCT nodeport::text, ',') FROM ($PLACEMENTS) x WHERE logicalrelid = 'llm_econ.spend'::regclass")" \
  "$(printf '%s\n' "$WORKER1_PORT" "$WORKER2_PORT" | sort | paste -sd,)"
check "llm_econ_sync.applied is a reference table with a copy on all 3 nodes" \
  "$(sq coord -c "SELECT count(DISTINCT nodeport) FROM ($PLACEMENTS) x WHERE logicalrelid = 'llm_econ_sync.applied'::regclass")" 3

phase "load: the same data into the single node (database single) and into Citus (through the coordinator)"
"$CITUS_PGBIN/psql" -X -q -h "$CITUS_SOCKET" -p "$COORD_PORT" -U postgres -d postgres -c "CREATE DATABASE single" \
  && sq single -c "CREATE EXTENSION llm_econ" || { fail "single-node database"; exit 1; }
ANCHOR=$(sq coord -c "SELECT now()")
STAGE="WITH (FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e')"
for n in coord single; do     # (coord first: Citus creates the tenant roles on the workers too)
  t=$(date +%s%3N)
  if out=$(sq $n -v datadir="$ROOT/test/data/focus" -v anchor="$ANCHOR" -v citus="$([ $n = coord ] && echo true || echo false)" \
              -f "$HERE/load.sql" 2>"$DIR/load.err.$n") \
     && out2=$(sq $n -c "SET ROLE w_research" \
                 -c "\\copy llm_econ.focus_stage (line) FROM '$ROOT/test/data/focus/focus_1.0_sample_1000.csv' $STAGE" \
                 -c "SELECT 'team_research', * FROM llm_econ.load_focus('team_research', 'focus_1.0_sample_1000.csv')" \
                 -c "SET ROLE w_search" \
                 -c "\\copy llm_econ.focus_stage (line) FROM '$ROOT/test/data/focus/focus_1.3_runs.csv' $STAGE" \
                 -c "SELECT 'team_search', * FROM llm_econ.load_focus('team_search', 'focus_1.3_runs.csv')" \
                 -c "\\copy llm_econ.focus_stage (line) FROM '$ROOT/test/data/focus/focus_1.3_runs.csv' $STAGE" \
                 -c "SELECT 'team_search', * FROM llm_econ.load_focus('team_search', 'focus_1.3_runs.csv', mode => 'append')" 2>>"$DIR/load.err.$n"); then
    pass "load.sql and the staged loads on $n, as the tenants' writers ($(( $(date +%s%3N) - t )) ms)"
    printf '%s\n%s\n' "$out" "$out2" >"$DIR/load.$n"
  else
    echo "$out"; echo "${out2:-}"; cat "$DIR/load.err.$n"; fail "load.sql on $n"; exit 1
  fi
done
echo "loads (tenant|inserted|skipped|replaced|replaced_billed_usd|replaced_effective_usd):"; cat "$DIR/load.single"
check "l1 every load's counts on Citus = the single node's (import_focus and load_focus, modes replace and append)" \
  "$(cat "$DIR/load.coord")" "$(cat "$DIR/load.single")"
check "l2 append with 1 new line among 9: 1 inserted, 8 skipped (on Citus)" \
  "$(sed -n 's/^team_search|\([0-9]*\)|\([0-9]*\)|.*/\1 \2/p' "$DIR/load.coord" | sed -n 2p)" "1 8"
check "l3 the staged load in mode replace replaces the 9 lines, in mode append skips them (on Citus)" \
  "$(sed -n 's/^team_search|\([0-9]*\)|\([0-9]*\)|\([0-9]*\)|.*/\1 \2 \3/p' "$DIR/load.coord" | sed -n '3,4p' | paste -sd/)" "9 0 9/0 9 0"

phase "(a) the README queries: Citus = single node, byte for byte"
compare_queries() {   # label
  local t a b
  t=$(date +%s%3N)
  a=$(sq single -v anchor="$ANCHOR" -f "$HERE/queries.sql" 2>&1)
  b=$(sq coord -v anchor="$ANCHOR" -f "$HERE/queries.sql" 2>&1)
  echo "(both ran in $(( $(date +%s%3N) - t )) ms)"
  if [ "$a" = "$b" ]; then
    pass "$1: all $(grep -c '^== ' <<<"$a") queries, $(grep -vc '^== ' <<<"$a") rows identical"
  else
    fail "$1: outputs differ"; diff <(echo "$a") <(echo "$b") | head -40
  fi
  QUERY_OUT=$a
}
compare_queries "a1 Citus coordinator = single node"
echo "$QUERY_OUT" | awk '/^== /{n=0; print; next} {n++; if (n <= 4) print "   " $0}'
# every section returned rows (an empty answer on both sides would compare equal)
check "a2 every query returned rows" \
  "$(echo "$QUERY_OUT" | awk '/^== /{if (s != "" && n == 0) e++; s=$0; n=0; next} {n++} END {if (n == 0) e++; print e + 0}')" 0
check "a3 the frozen plans were priced: price_at on the worker gave the same prices as the single node (pt-7b-aws)" \
  "$(sq coord -c "SELECT usd_per_gpu_hour FROM llm_econ.run_plan WHERE tenant = 'team_pretrain' AND run_id = 'pt-7b-aws'")" \
  "$(sq single -c "SELECT usd_per_gpu_hour FROM llm_econ.run_plan WHERE run_id = 'pt-7b-aws'")"
# reference data and prices: identical on every node (and on the single node)
fp="SELECT count(*) || ':' || md5(string_agg(concat_ws('|', observed_at, provider, sku, region, pricing, usd_per_gpu_hour, instance_type, source), ',' ORDER BY sku, provider, pricing, region, instance_type, observed_at))
      FROM llm_econ.price_snapshot"
fs="SELECT count(*) || ':' || md5(string_agg(concat_ws('|', sku, provider, pricing, region, instance_type), ',' ORDER BY 1)) FROM llm_econ.price_series"
for n in coord worker1 worker2; do
  check "a4 $n's price_snapshot and price_series = the single node's" "$(sq $n -c "$fp")/$(sq $n -c "$fs")" "$(sq single -c "$fp")/$(sq single -c "$fs")"
done
q="SELECT o.provider || ':' || o.pricing || ':' || llm_econ.price_twap('H100-SXM5', o.provider, o.pricing, tstzrange(date_trunc('month', '$ANCHOR'::timestamptz) - interval '1 month', date_trunc('month', '$ANCHOR'::timestamptz)))
     FROM (SELECT DISTINCT provider, pricing FROM llm_econ.price_series WHERE sku = 'H100-SXM5') o ORDER BY 1"
check "a5 price_twap run on worker2 itself = the single node's" "$(sq worker2 -c "$q" | md5sum)" "$(sq single -c "$q" | md5sum)"

phase "(r) the recipe's roles: every view of docs/views.md and docs/finance.md, Citus = single node, per role"
for r in r_pretrain r_research r_both w_search; do
  ra=0; rb=0
  a=$(sq single -c "SET ROLE $r" -v anchor="$ANCHOR" -f "$HERE/roles.sql" 2>&1) || ra=$?
  b=$(sq coord -c "SET ROLE $r" -v anchor="$ANCHOR" -f "$HERE/roles.sql" 2>&1) || rb=$?
  check "r0 $r: every view answers on the single node and on Citus" "$ra/$rb/$(grep -m1 ERROR <<<"$a$b")" "0/0/"
  empty=$(echo "$a" | awk '/^== /{if (s != "" && n == 0) e = e " " s; s=$2; n=0; next} {n++} END {if (n == 0) e = e " " s; print e}')
  if [ "$a" = "$b" ]; then
    pass "r1 $r: $(grep -c '^== ' <<<"$a") views, $(grep -vc '^== ' <<<"$a") rows identical (empty:${empty:- none})"
  else
    fail "r1 $r: outputs differ"; diff <(echo "$a") <(echo "$b") | head -30
  fi
  ROLE_OUT[$r]=$a
done
check "r2 r_pretrain sees only team_pretrain, r_both both tenants, w_search only team_search" \
  "$(for r in r_pretrain r_both w_search; do sed -n '2p' <<<"${ROLE_OUT[$r]}"; done | paste -sd' ')" \
  "r_pretrain|team_pretrain r_both|team_pretrain,team_research w_search|team_search"
check "r3 every finance view returned rows to r_pretrain" \
  "$(awk '/^== /{s=$2; next} {n[s]++} END {print (n["plan_vs_actual"] > 0) (n["plan_vs_actual_monthly"] > 0) (n["spend_monthly"] > 0) (n["spend_daily"] > 0)}' <<<"${ROLE_OUT[r_pretrain]}")" 1111

phase "(x) cross-tenant refusals: w_search (team_search's writer) and r_pretrain (a reader), Citus as the single node"
# outcome NODE ROLE SQL: "error" or the command's rows, then the spend fingerprint seen by the owner
outcome() {
  local out rc=0
  out=$(sq "$1" -c "SET ROLE $2" -c "$3" 2>&1) || rc=$?
  if [ "$rc" -ne 0 ]; then echo "error:$(grep -o 'row-level security\|may not write\|needs INSERT\|permission denied\|partition value' <<<"$out" | head -1)"; else echo "ok:$out"; fi
}
TWO=$(awk 'NR == 1 {printf "%s~NL~", $0} NR == 2 {printf "%s", $0}' "$ROOT/test/data/focus/focus_1.3_runs.csv")   # a header and one line
FPS="SELECT count(*) || ':' || sum(billed_cost) || ':' || count(*) FILTER (WHERE tenant = 'team_pretrain') FROM llm_econ.spend"
before_c=$(sq coord -c "$FPS"); before_s=$(sq single -c "$FPS")
# (Citus refuses to move a row to another shard, the distribution column, before the policy is asked)
for x in "import_focus of team_pretrain's lines by w_search|w_search|SELECT inserted FROM llm_econ.import_focus(replace(\$\$$TWO\$\$, '~NL~', E'\\n'), 'team_pretrain')|error:may not write" \
         "INSERT of a team_pretrain row by w_search|w_search|INSERT INTO llm_econ.spend (tenant, charge_period_start, charge_period_end, provider, billed_cost, effective_cost, record) VALUES ('team_pretrain', now(), now(), 'aws', 1, 1, '{}')|error:row-level security" \
         "UPDATE of team_pretrain's rows by w_search touches none|w_search|WITH u AS (UPDATE llm_econ.spend SET billed_cost = 0 WHERE tenant = 'team_pretrain' RETURNING 1) SELECT count(*) FROM u|ok:0" \
         "DELETE of team_pretrain's rows by w_search touches none|w_search|WITH d AS (DELETE FROM llm_econ.spend WHERE tenant = 'team_pretrain' RETURNING 1) SELECT count(*) FROM d|ok:0" \
         "moving a team_search row to team_pretrain is refused|w_search|UPDATE llm_econ.spend SET tenant = 'team_pretrain' WHERE tenant = 'team_search'|error:row-level security|error:partition value" \
         "import_focus by a reader is refused|r_pretrain|SELECT inserted FROM llm_econ.import_focus(replace(\$\$$TWO\$\$, '~NL~', E'\\n'), 'team_pretrain')|error:needs INSERT"; do
  IFS='|' read -r label role sql want want_citus <<<"$x"
  c=$(outcome coord "$role" "$sql"); s1=$(outcome single "$role" "$sql")
  check "x $label (Citus [$c], single [$s1])" "$c/$s1" "${want_citus:-$want}/$want"
done
check "x nothing of team_pretrain changed on either side" "$(sq coord -c "$FPS")/$(sq single -c "$FPS")" "$before_c/$before_s"

phase "(b) EXPLAIN: IMMUTABLE model functions evaluated on the workers"
SPEC=$(sq coord -c "SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45)::text")
Q1="SELECT tenant, sum(llm_econ.estimate_cost(spec, usd_per_gpu_hour)) AS usd, sum(llm_econ.gpu_hours(spec)) AS gpu_hours
  FROM llm_econ.run_plan GROUP BY tenant"
p1=$(sq coord -c "EXPLAIN (VERBOSE, COSTS OFF) $Q1" 2>&1); echo "-- $Q1"; echo "$p1"
check "b1 the per-tenant sums of estimate_cost and gpu_hours run on a worker (Node: the worker's port, functions in its plan)" \
  "$(grep -cE "Node: host=127.0.0.1 port=($WORKER1_PORT|$WORKER2_PORT)" <<<"$p1")/$(grep -A30 'Node: host' <<<"$p1" | grep -c 'llm_econ.estimate_cost(spec')" "1/1"
check "b2 ... on all 8 shards (one task each)" "$(sed -n 's/^ *Task Count: \([0-9]*\).*/\1/p' <<<"$p1" | head -1)" 8
Q2="SELECT run_id, llm_econ.estimate_cost('$SPEC'::llm_econ.run_spec, usd_per_gpu_hour) FROM llm_econ.run_plan WHERE tenant = 'team_research'"
p2=$(sq coord -c "EXPLAIN (VERBOSE, COSTS OFF) $Q2" 2>&1); echo "-- $Q2"; echo "$p2"
check "b3 one tenant's query is routed to one shard with estimate_cost(<constant spec>, price) in the worker's query" \
  "$(sed -n 's/^ *Task Count: \([0-9]*\).*/\1/p' <<<"$p2" | head -1)/$(grep -c 'Query: SELECT .*llm_econ.estimate_cost(' <<<"$p2")" "1/1"
Q3="SELECT tenant, run_id, sum(billed_cost) FROM llm_econ.spend WHERE tenant = 'team_pretrain' GROUP BY tenant, run_id"
p3=$(sq coord -c "EXPLAIN (VERBOSE, COSTS OFF) $Q3" 2>&1)
check "b4 a tenant's spend per run is aggregated on its shard (router query)" \
  "$(sed -n 's/^ *Task Count: \([0-9]*\).*/\1/p' <<<"$p3" | head -1)/$(grep -c 'Query: SELECT .*sum(billed_cost)' <<<"$p3")" "1/1"

phase "(c) imports on the coordinator reach every node"
t=$(date +%s%3N)
sq coord -c "SELECT llm_econ_sync.everywhere(\$\$INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
               VALUES ('$ANCHOR'::timestamptz - interval '1 hour', 'oci', 'H100-SXM5', 'us-ashburn-1', 'on_demand', 10.00, 'run.sh c1')\$\$)" >/dev/null
echo "one price written everywhere in $(( $(date +%s%3N) - t )) ms"
for n in coord worker1 worker2; do
  check "c1 the new oci price is on $n (and its series)" \
    "$(sq $n -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh c1'")/$(sq $n -c "SELECT count(*) FROM llm_econ.price_series WHERE provider = 'oci' AND region = 'us-ashburn-1'")" "1/1"
done
rc=0
sq coord -c "SELECT llm_econ_sync.everywhere(\$\$INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source)
               VALUES (now(), 'oci', 'H100-SXM5', 'on_demand', -1, 'run.sh c2')\$\$)" >/dev/null 2>"$DIR/err" || rc=$?
check "c2 a write rejected by the table's CHECK fails on the coordinator with that error, and no node keeps it" \
  "$([ $rc -ne 0 ] && grep -q 'price_snapshot_usd_per_gpu_hour_check' "$DIR/err" && echo error)/$(for n in coord worker1 worker2; do sq $n -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh c2'"; done | tr '\n' ' ')" \
  "error/0 0 0 "
check "c3 spend imported by import_focus on the coordinator is on the workers' shards (rows per worker)" \
  "$(sq coord -c "SELECT count(DISTINCT nodeport) FROM run_command_on_placements('llm_econ.spend', 'SELECT count(*) FROM %s') WHERE result::bigint > 0")" 2
sq coord -c "SELECT llm_econ_sync.everywhere(\$\$DELETE FROM llm_econ.price_snapshot WHERE source = 'run.sh c1'\$\$)" >/dev/null

phase "(d) worker2 down: clear errors, nothing committed lost"
# which tenant's shard is on which worker
W2_TENANT=$(sq coord -c "SELECT t FROM (SELECT DISTINCT tenant FROM llm_econ.spend ORDER BY 1) d(t)
                          JOIN ($PLACEMENTS) s ON s.shardid = get_shard_id_for_distribution_column('llm_econ.spend', t)
                         WHERE s.nodeport = $WORKER2_PORT LIMIT 1")
W1_TENANT=$(sq coord -c "SELECT t FROM (SELECT DISTINCT tenant FROM llm_econ.spend ORDER BY 1) d(t)
                          JOIN ($PLACEMENTS) s ON s.shardid = get_shard_id_for_distribution_column('llm_econ.spend', t)
                         WHERE s.nodeport = $WORKER1_PORT LIMIT 1")
echo "a tenant on worker1: ${W1_TENANT:-none}; on worker2: ${W2_TENANT:-none}"
check "d0 the test data has tenants on both workers" "$([ -n "$W1_TENANT" ] && [ -n "$W2_TENANT" ] && echo both)" both
before_spend=$(sq coord -c "SELECT count(*) || ':' || sum(billed_cost) FROM llm_econ.spend")
before_prices=$(sq coord -c "$fp")
bash "$HERE/cluster.sh" stop worker2 "$DIR"
expect_down() {   # name, query: must fail naming worker2's address, print no rows
  local out rc=0
  out=$(sq coord -c "$2" 2>"$DIR/err") || rc=$?
  if [ "$rc" -ne 0 ] && [ -z "$out" ] && grep -q "127.0.0.1:$WORKER2_PORT" "$DIR/err"; then
    pass "$1 ($(head -1 "$DIR/err"))"
  else
    fail "$1: rc=$rc, rows=[$out], stderr=[$(tr '\n' ' ' <"$DIR/err")]"
  fi
}
expect_down "d1 all spend needs worker2: connection error naming it, no rows" "SELECT count(*) FROM llm_econ.spend"
expect_down "d2 plan vs actual needs worker2: connection error" "SELECT count(*) FROM llm_econ.plan_vs_actual"
expect_down "d3 a price write to every node fails while worker2 is down" \
  "SELECT llm_econ_sync.everywhere(\$\$INSERT INTO llm_econ.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source) VALUES (now(), 'oci', 'H100-SXM5', 'on_demand', 9, 'run.sh d3')\$\$)"
check "d4 ... and leaves nothing on the coordinator or worker1" \
  "$(sq coord -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh d3'")/$(sq worker1 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh d3'")" "0/0"
if [ -n "$W1_TENANT" ]; then
  check "d5 $W1_TENANT (shard on worker1) still answers, = single node" \
    "$(sq coord -c "SELECT count(*) || ':' || sum(billed_cost) FROM llm_econ.spend WHERE tenant = '$W1_TENANT'" 2>&1)" \
    "$(sq single -c "SELECT count(*) || ':' || sum(billed_cost) FROM llm_econ.spend WHERE tenant = '$W1_TENANT'")"
fi
check "d6 prices answer on the coordinator (its own copy)" "$(sq coord -c "$fp" 2>&1)" "$before_prices"
bash "$HERE/cluster.sh" start worker2 "$DIR"
check "d7 worker2 back: spend as before the outage" "$(sq coord -c "SELECT count(*) || ':' || sum(billed_cost) FROM llm_econ.spend" 2>&1)" "$before_spend"
compare_queries "d8 worker2 back: the README queries = single node again"

phase "(u) ALTER EXTENSION llm_econ UPDATE from 0.4.0 on Citus (database upd), as docs/scale-out.md says"
# A second database on the same cluster (Citus keeps its metadata per database), and its single-node twin.
t=$(date +%s%3N)
for n in coord worker1 worker2; do
  port=$(case $n in coord) echo "$COORD_PORT" ;; worker1) echo "$WORKER1_PORT" ;; worker2) echo "$WORKER2_PORT" ;; esac)
  "$CITUS_PGBIN/psql" -X -q -h "$CITUS_SOCKET" -p "$port" -U postgres -d postgres -c "CREATE DATABASE upd" >/dev/null
  SQ_DB=upd sq $n -c "CREATE EXTENSION citus"
done
"$CITUS_PGBIN/psql" -X -q -h "$CITUS_SOCKET" -p "$COORD_PORT" -U postgres -d postgres -c "CREATE DATABASE upd_single" >/dev/null
SQ_DB=upd sq coord -c "SELECT citus_set_coordinator_host('127.0.0.1', $COORD_PORT)" \
                   -c "SELECT citus_add_node('127.0.0.1', $WORKER1_PORT)" -c "SELECT citus_add_node('127.0.0.1', $WORKER2_PORT)" >/dev/null
if SQ_DB=upd sq coord -c "CREATE EXTENSION llm_econ VERSION '0.4.0'" && SQ_DB=upd sq coord -f "$HERE/topology.sql" >/dev/null \
   && SQ_DB=upd sq single -c "CREATE EXTENSION llm_econ VERSION '0.4.0'" \
   && ua=$(SQ_DB=upd sq coord -v datadir="$ROOT/test/data/focus" -f "$HERE/update_data.sql" 2>&1) \
   && ub=$(SQ_DB=upd sq single -v datadir="$ROOT/test/data/focus" -f "$HERE/update_data.sql" 2>&1); then
  pass "u0 0.4.0 on Citus (topology.sql) and on a single node, spend and plans of two tenants ($(( $(date +%s%3N) - t )) ms)"
else
  fail "u0 0.4.0 with data: ${ua:-} ${ub:-}"; exit 1
fi
check "u0 the 0.4.0 loads on Citus = on the single node" "$ua" "$ub"
t=$(date +%s%3N)
# (in a transaction block: the script switches DDL propagation off for itself, and must switch it back on
# before the next statement of the transaction)
rc=0; out=$(SQ_DB=upd sq coord -c "BEGIN" -c "ALTER EXTENSION llm_econ UPDATE" -c "SHOW citus.enable_ddl_propagation" -c "COMMIT" 2>&1) || rc=$?
check "u1 ALTER EXTENSION llm_econ UPDATE on the coordinator succeeds, DDL propagation on again after it ($(( $(date +%s%3N) - t )) ms)" "$rc/$out" "0/on"
SQ_DB=upd sq single -c "ALTER EXTENSION llm_econ UPDATE" || fail "u1 the update on the single node"
V=$(SQ_DB=upd sq single -c "SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'")
check "u2 extversion $V on the coordinator and both workers" \
  "$(for n in coord worker1 worker2; do SQ_DB=upd sq $n -c "SELECT extversion FROM pg_extension WHERE extname = 'llm_econ'"; done | paste -sd' ')" "$V $V $V"
# what every shard on the workers has: the new index, the freeze trigger (enabled), the tenant policy
SHARDS="SELECT c.relname,
       (SELECT string_agg(pg_get_indexdef(i.indexrelid), '; ') FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
         WHERE i.indrelid = c.oid AND ic.relname LIKE 'spend_billing_period%'),
       (SELECT string_agg(t.tgname || ':' || t.tgenabled::text, ',') FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal),
       (SELECT string_agg(p.polname, ',') FROM pg_policy p WHERE p.polrelid = c.oid)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'llm_econ' AND c.relkind = 'r' AND c.relname ~ '^(spend|run_plan)_[0-9]+$' ORDER BY 1"
for n in worker1 worker2; do
  SQ_DB=upd sq $n -F ' ' -c "SET citus.show_shards_for_app_name_prefixes = '*'" -c "$SHARDS" >"$DIR/upd.shards.$n"
done
cat "$DIR/upd.shards.worker1" "$DIR/upd.shards.worker2" | sed 's/^/   /'
check "u3 all 8 shards of spend on the workers have spend_billing_period_<shard> on (billing_period_start, tenant) and spend_tenant" \
  "$(cat "$DIR/upd.shards.worker1" "$DIR/upd.shards.worker2" | awk '$1 ~ /^spend_/' | sed -nE 's/^spend_([0-9]+) CREATE INDEX spend_billing_period_\1 ON llm_econ\.spend_\1 USING btree \(billing_period_start, tenant\)  spend_tenant$/ok/p' | wc -l)" 8
check "u4 all 8 shards of run_plan on the workers have run_plan_freeze_<shard> enabled and run_plan_tenant" \
  "$(cat "$DIR/upd.shards.worker1" "$DIR/upd.shards.worker2" | awk '$1 ~ /^run_plan_/' | sed -nE 's/^run_plan_([0-9]+)  run_plan_freeze_\1:O run_plan_tenant$/ok/p' | wc -l)" 8
PF="SELECT string_agg(concat_ws('|', tenant, run_id, (spec).stack, (spec).fp8_attention, usd_per_gpu_hour, planned_usd), ' ' ORDER BY tenant, run_id) FROM llm_econ.run_plan"
check "u5 stored plans got stack megatron, fp8_attention false and kept their frozen price and USD: = the single node's" \
  "$(SQ_DB=upd sq coord -c "$PF")" "$(SQ_DB=upd sq single -c "$PF")"
check "u5 ... (3 plans, every one megatron)" "$(SQ_DB=upd sq coord -c "SELECT count(*) || ':' || count(*) FILTER (WHERE (spec).stack = 'megatron' AND NOT (spec).fp8_attention) FROM llm_econ.run_plan")" "3:3"
SF="SELECT count(*) || ':' || md5(string_agg(concat_ws('|', tenant, row_hash, occurrence, billed_cost), ',' ORDER BY tenant, row_hash, occurrence)) FROM llm_econ.spend"
check "u6 spend after the update (charge identities re-keyed on each worker's shards) = the single node's" \
  "$(SQ_DB=upd sq coord -c "$SF")" "$(SQ_DB=upd sq single -c "$SF")"
# the tenants' writers load FOCUS after the update: import_focus and load_focus, modes replace and append
for n in coord single; do
  SQ_DB=upd sq $n -v datadir="$ROOT/test/data/focus" -f - >"$DIR/upd.load.$n" 2>&1 <<SQL || echo "failed" >>"$DIR/upd.load.$n"
SET ROLE w_pretrain;
\\set f13 \`cat :'datadir'/focus_1.3_runs.csv\`
SELECT 'team_pretrain', * FROM llm_econ.import_focus(:'f13', 'team_pretrain', 'focus_1.3_runs.csv');
SELECT 'team_pretrain', * FROM llm_econ.import_focus(:'f13', 'team_pretrain', 'focus_1.3_runs.csv', mode => 'append');
SET ROLE w_search;
\\copy llm_econ.focus_stage (line) FROM '$ROOT/test/data/focus/focus_1.3_runs.csv' $STAGE
SELECT 'team_search', * FROM llm_econ.load_focus('team_search', 'focus_1.3_runs.csv');
\\copy llm_econ.focus_stage (line) FROM '$ROOT/test/data/focus/focus_1.3_runs.csv' $STAGE
SELECT 'team_search', * FROM llm_econ.load_focus('team_search', 'focus_1.3_runs.csv', mode => 'append');
SQL
done
cat "$DIR/upd.load.coord" | sed 's/^/   /'
check "u7 after the update, the writers' import_focus and load_focus (replace, append) on Citus = the single node's" \
  "$(cat "$DIR/upd.load.coord")" "$(cat "$DIR/upd.load.single")"
check "u7 ... replace replaced the owner's 9 lines, append skipped 9, the staged loads stored 9 then skipped 9" \
  "$(cut -d'|' -f2-4 "$DIR/upd.load.coord" | paste -sd' ')" "9|0|9 0|9|0 9|0|0 0|9|0"
ra=0; rb=0
a=$(SQ_DB=upd sq single -c "SET ROLE r_both" -v anchor="2025-02-15 00:00+00" -f "$HERE/roles.sql" 2>&1) || ra=$?
b=$(SQ_DB=upd sq coord -c "SET ROLE r_both" -v anchor="2025-02-15 00:00+00" -f "$HERE/roles.sql" 2>&1) || rb=$?
check "u8 r_both: every finance view answers after the update, on Citus and on the single node" "$ra/$rb/$(grep -m1 ERROR <<<"$a$b")" "0/0/"
if [ "$a" = "$b" ]; then pass "u8 r_both: $(grep -c '^== ' <<<"$a") views, $(grep -vc '^== ' <<<"$a") rows identical"
else fail "u8 r_both: outputs differ"; diff <(echo "$a") <(echo "$b") | head -30; fi
