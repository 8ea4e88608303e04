#!/usr/bin/env bash
# test/shard/run.sh: distributed tests of llm_econ on 1 coordinator + 2 postgres_fdw shards (up, load, compare with the single node, routing, EXPLAIN remote SQL/async, a stopped shard, down); ends with "N passed, M failed".
#
# Usage (root or postgres, Debian 12, PostgreSQL 15 + postgresql-contrib): test/shard/run.sh
# Uses the installed llm_econ; builds and installs it from this checkout first when it is not
# installed or when LLM_ECON_BUILD=1. Every cluster it starts is torn down on exit.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLUSTER=$HERE/cluster.sh
SHARD1_PROVIDERS="'gcp','aws','azure','oci'"     # cluster.sh's default placement
T0=$(date +%s%3N)
passed=0
failed=0
DIR=

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected [$3], got [$2]"; fi; }
ms_since() { echo $(( $(date +%s%3N) - $1 )); }
phase() { echo; echo "== $1 (at $(( ($(date +%s%3N) - T0) / 1000 )) s)"; }

on_exit() {
  local rc=$? t
  trap - EXIT
  if [ -n "$DIR" ] && [ -e "$DIR" ]; then
    t=$(date +%s%3N)
    "$CLUSTER" down "$DIR" >/dev/null 2>&1 || echo "warning: teardown of $DIR failed"
    echo "== down in $(ms_since "$t") ms; whole run $(( ($(date +%s%3N) - T0) / 1000 )) s"
  fi
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; echo "FAIL - run aborted (exit $rc)"; fi
  echo "$passed passed, $failed failed"
  # (bash 5.2: a bare `exit` in an EXIT trap exits with the status from before the trap)
  if [ "$failed" -eq 0 ]; then exit 0; else exit 1; fi
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# psql on one node's database, unaligned tuples, errors with SQLSTATE; statements bounded.
export PGOPTIONS="-c statement_timeout=60s" PGCONNECT_TIMEOUT=10
sq() {
  local node=$1 port; shift
  case $node in coord) port=$COORD_PORT ;; shard1) port=$SHARD1_PORT ;; shard2) port=$SHARD2_PORT ;; esac
  psql -X -q -At -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -h "$LLM_ECON_SHARD_SOCKET" -p "$port" -U postgres \
       -d "$LLM_ECON_SHARD_DB" "$@"
}

# ---------------------------------------------------------------------------------------------
phase "extension"
CONTROL=/usr/lib/postgresql/15/bin/pg_config
CONTROL=$("$CONTROL" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)/extension/llm_econ.control
if [ "${LLM_ECON_BUILD:-0}" = 1 ] || [ ! -f "$CONTROL" ]; then
  echo "building and installing llm_econ from $ROOT"
  (cd "$ROOT" && make -s PROFILE="${PROFILE:--Werror}" && make -s install >/dev/null) || { fail "build/install llm_econ"; exit 1; }
fi
echo "using the installed llm_econ ($(sed -n "s/^default_version = '\(.*\)'/\1/p" "$CONTROL"))"

phase "up: coordinator + 2 shards"
t=$(date +%s%3N)
# data dirs on tmpfs when there is one (3 x ~90 MB, deleted at the end): faster on a busy disk
base=${TMPDIR:-}
if [ -z "$base" ]; then if [ -d /dev/shm ] && [ -w /dev/shm ]; then base=/dev/shm; else base=/tmp; fi; fi
DIR=$(mktemp -d "$base/llm_econ_shard.XXXXXX")
if ! "$CLUSTER" up "$DIR"; then fail "cluster.sh up"; exit 1; fi
# shellcheck disable=SC1091
. "$DIR/env"
echo "up in $(ms_since "$t") ms"
sq coord -F ' ' -c "SELECT 'server ' || srvname || ': ' || array_to_string(srvoptions, ', ') FROM pg_foreign_server ORDER BY 1" \
           -c "SELECT 'partition ' || c.oid::regclass || ' ' || pg_get_expr(c.relpartbound, c.oid) || ' -> ' || s.srvname || ':' || array_to_string(f.ftoptions, ',')
                 FROM pg_class c JOIN pg_foreign_table f ON f.ftrelid = c.oid JOIN pg_foreign_server s ON s.oid = f.ftserver
                WHERE c.relnamespace = 'sharded'::regnamespace ORDER BY 1"
for node in coord shard1 shard2; do
  check "up: $node runs llm_econ" "$(sq $node -c "SELECT extname FROM pg_extension WHERE extname = 'llm_econ'")" llm_econ
done

phase "load: the same data into the single node (coordinator's llm_econ) and through sharded.*"
t=$(date +%s%3N)
if sq coord -v datadir="$ROOT/test/data/focus" -f "$HERE/load.sql" >"$DIR/load.out" 2>&1; then
  pass "load.sql"
else
  cat "$DIR/load.out"; fail "load.sql"; exit 1
fi
echo "loaded in $(ms_since "$t") ms"
sq coord -F ' ' -c "SELECT 'single node: ' || count(*) || ' price rows (' || count(*) FILTER (WHERE NOT builtin) || ' generated), '
                             || (SELECT count(*) FROM llm_econ.spend) || ' spend lines, '
                             || (SELECT count(*) FROM llm_econ.run_plan) || ' plans' FROM llm_econ.price_snapshot"

# ---------------------------------------------------------------------------------------------
phase "(a) sharded = single node, exactly"
SPEC=$(sq coord -c "SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45)::text")
t=$(date +%s%3N)
if out=$(sq coord -v spec="$SPEC" -f "$HERE/compare.sql" 2>&1); then :; else echo "$out"; fail "compare.sql ran to the end"; fi
while IFS='|' read -r status name detail; do
  case $status in ok) pass "$name ($detail)" ;; FAIL) fail "$name ($detail)" ;; esac
done <<<"$out"
echo "compared in $(ms_since "$t") ms"
echo "-- cheapest provider last month, through the shards (sharded.price_twaps):"
sq coord -P format=aligned -P tuples_only=off -c "
WITH run AS (SELECT llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45) AS s),
     m AS (SELECT tstzrange(date_trunc('month', now()) - interval '1 month', date_trunc('month', now())) AS r)
SELECT t.provider, t.pricing, round(t.usd_per_gpu_hour, 4) AS avg_usd_per_gpu_hour,
       round(llm_econ.estimate_cost(run.s, t.usd_per_gpu_hour)) AS cost_usd
  FROM run, m, LATERAL sharded.price_twaps('H100-SXM5', m.r) AS t
 WHERE t.usd_per_gpu_hour IS NOT NULL
 ORDER BY cost_usd LIMIT 10"
echo "-- plan vs actual, through the shards (sharded.plan_vs_actual):"
sq coord -P format=aligned -P tuples_only=off -c "
SELECT run_id, tenant, round(planned_usd) AS planned_usd, round(billed_usd, 2) AS billed_usd,
       round(effective_usd, 2) AS effective_usd, variance_pct, actual_gpu_hours, status
  FROM sharded.plan_vs_actual ORDER BY run_id"

# ---------------------------------------------------------------------------------------------
phase "(b) routing: rows inserted through the coordinator are on the right shard"
check "b1 shard1 holds only providers IN ($SHARD1_PROVIDERS) (shipped rows included)" \
  "$(sq shard1 -c "SELECT count(*) FILTER (WHERE provider NOT IN ($SHARD1_PROVIDERS)) || '/' || sign(count(*)) FROM llm_econ.price_snapshot")" "0/1"
check "b2 shard2 holds no provider IN ($SHARD1_PROVIDERS) (shipped rows included)" \
  "$(sq shard2 -c "SELECT count(*) FILTER (WHERE provider IN ($SHARD1_PROVIDERS)) || '/' || sign(count(*)) FROM llm_econ.price_snapshot")" "0/1"
ref1=$(sq coord -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE NOT builtin AND provider IN ($SHARD1_PROVIDERS)")
ref2=$(sq coord -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE NOT builtin AND provider NOT IN ($SHARD1_PROVIDERS)")
if [ "${ref1:-0}" -eq 0 ] || [ "${ref2:-0}" -eq 0 ]; then fail "b3/b4 need generated prices for both shards (got $ref1, $ref2)"; fi
check "b3 generated price rows on shard1 = single node's for its providers ($ref1)" \
  "$(sq shard1 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE NOT builtin")" "$ref1"
check "b4 generated price rows on shard2 = single node's for the other providers ($ref2)" \
  "$(sq shard2 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE NOT builtin")" "$ref2"
check "b5 spend on shard1: tenant team_pretrain only, as many lines as the single node's" \
  "$(sq shard1 -c "SELECT string_agg(tenant || ':' || n, ',') FROM (SELECT tenant, count(*) n FROM llm_econ.spend GROUP BY 1) x")" \
  "$(sq coord -c "SELECT 'team_pretrain:' || count(*) FROM llm_econ.spend WHERE tenant = 'team_pretrain'")"
check "b6 spend on shard2: tenant team_research only, as many lines as the single node's" \
  "$(sq shard2 -c "SELECT string_agg(tenant || ':' || n, ',') FROM (SELECT tenant, count(*) n FROM llm_econ.spend GROUP BY 1) x")" \
  "$(sq coord -c "SELECT 'team_research:' || count(*) FROM llm_econ.spend WHERE tenant = 'team_research'")"
# one row through the coordinator: id from the coordinator's sequence, on shard1, and the shard's
# own statement trigger registered its series in shard1's price_series
id=$(sq coord -c "INSERT INTO sharded.price_snapshot (observed_at, provider, sku, region, pricing, usd_per_gpu_hour, source)
                  VALUES (now() - interval '1 hour', 'oci', 'H100-SXM5', 'us-ashburn-1', 'on_demand', 10.00, 'run.sh b7')
                  RETURNING id")
check "b7 INSERT of an oci price through the coordinator: id from sharded.price_snapshot_id_seq, row on shard1, not shard2" \
  "$([ "${id:-0}" -ge 1000000000000000 ] && echo big-id)/$(sq shard1 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE id = ${id:-0} AND source = 'run.sh b7'")/$(sq shard2 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh b7'")" \
  "big-id/1/0"
check "b8 shard1's price_series trigger saw the routed row" \
  "$(sq shard1 -c "SELECT count(*) FROM llm_econ.price_series WHERE provider = 'oci' AND region = 'us-ashburn-1'")" 1
sq coord -c "DELETE FROM sharded.price_snapshot WHERE source = 'run.sh b7'" >/dev/null
check "b9 DELETE through the coordinator removes it from shard1" \
  "$(sq shard1 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh b7'")" 0
# re-sending every spend line with new ids: each shard's (tenant, row_hash, occurrence) key rejects them all
cols=$(sq coord -c "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
                     WHERE attrelid = 'llm_econ.spend'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'id'")
check "b10 re-sent spend lines (new ids) ON CONFLICT DO NOTHING: the shards' natural key keeps every one out" \
  "$(sq coord -c "WITH ins AS (INSERT INTO sharded.spend ($cols) SELECT $cols FROM llm_econ.spend ON CONFLICT DO NOTHING RETURNING 1)
                  SELECT count(*) FROM ins")/$(sq coord -c "SELECT count(*) = (SELECT count(*) FROM llm_econ.spend) FROM sharded.spend")" "0/t"

# ---------------------------------------------------------------------------------------------
phase "(d) EXPLAIN VERBOSE: llm_econ functions in the Remote SQL, Async Foreign Scan, pruning"
explain() { sq coord -c "SET enable_partitionwise_aggregate = ${2:-off}" -c "EXPLAIN (VERBOSE, COSTS OFF) $1"; }
Q1="SELECT provider, count(*), sum(llm_econ.estimate_cost('$SPEC'::llm_econ.run_spec, usd_per_gpu_hour)) AS cost_usd
  FROM sharded.price_snapshot WHERE sku = 'H100-SXM5' AND usd_per_gpu_hour IS NOT NULL GROUP BY provider"
echo "-- $Q1   [enable_partitionwise_aggregate = on]"
p1=$(explain "$Q1" on 2>&1); echo "$p1"
check "d1 per-shard aggregate of estimate_cost(<constant run_spec>, price) runs on both shards (2 Remote SQL with it)" \
  "$(grep -c 'Remote SQL: SELECT provider, count(\*), sum(llm_econ.estimate_cost(' <<<"$p1")" 2
check "d2 both shard scans are Async Foreign Scans" "$(grep -c 'Async Foreign Scan' <<<"$p1")" 2
Q2="SELECT provider, observed_at, usd_per_gpu_hour FROM sharded.price_snapshot
 WHERE llm_econ.estimate_cost('$SPEC'::llm_econ.run_spec, usd_per_gpu_hour) < 80000"
echo "-- $Q2"
p2=$(explain "$Q2" 2>&1); echo "$p2"
check "d3 filter on estimate_cost(<constant run_spec>, price) is in both shards' remote WHERE" \
  "$(grep -c 'Remote SQL: .* WHERE ((llm_econ.estimate_cost(' <<<"$p2")/$(grep -c 'Async Foreign Scan' <<<"$p2")" "2/2"
Q3="SELECT provider, observed_at, usd_per_gpu_hour FROM sharded.price_snapshot
 WHERE llm_econ.estimate_cost(llm_econ.run_spec(7e9, 1.4e12, 256, 'H100', mfu => 0.45), usd_per_gpu_hour) < 80000"
echo "-- $Q3"
p3=$(explain "$Q3" 2>&1); echo "$p3"
check "d4 STABLE run_spec(...) is not shipped: the filter stays on the coordinator (local Filter, no run_spec call in Remote SQL)" \
  "$(grep -c 'Filter: (llm_econ.estimate_cost(llm_econ.run_spec(' <<<"$p3")/$(grep 'Remote SQL' <<<"$p3" | grep -c 'run_spec(')" "2/0"
check "d5 the shipped and the local filter select the same rows" \
  "$(sq coord -c "SELECT count(*) FROM ($Q2) q")" "$(sq coord -c "SELECT count(*) FROM ($Q3) q")"
Q4="SELECT count(*) FROM sharded.price_snapshot WHERE provider = 'lambda'"
p4=$(explain "$Q4" 2>&1); echo "-- $Q4"; echo "$p4"
check "d6 provider = 'lambda' is pruned to shard2 only" \
  "$(grep -c 'price_snapshot_shard2' <<<"$p4")/$(grep -c 'price_snapshot_shard1' <<<"$p4")" "1/0"
Q5="SELECT tenant, run_id, sum(billed_cost) FROM sharded.spend WHERE tenant = 'team_pretrain' GROUP BY tenant, run_id"
p5=$(explain "$Q5" on 2>&1); echo "-- $Q5   [enable_partitionwise_aggregate = on]"; echo "$p5"
check "d7 tenant = 'team_pretrain' is pruned to shard1 only, its aggregate runs there" \
  "$(grep -c 'spend_shard1' <<<"$p5")/$(grep -c 'spend_shard2' <<<"$p5")/$(grep -c 'Remote SQL: SELECT tenant, run_id, sum(billed_cost)' <<<"$p5")" "1/0/1"

# Concurrency, measured: each shard gets a view that sleeps 1 s; a partitioned table over the two.
for n in 1 2; do
  sq shard$n -c "CREATE VIEW public.shard_probe AS SELECT $n AS shard FROM pg_sleep(1)" \
             -c "GRANT SELECT ON public.shard_probe TO llm_econ_fdw" >/dev/null
done
sq coord -c "CREATE SCHEMA probe" -c "CREATE TABLE probe.sleepy (shard int) PARTITION BY LIST (shard)" \
  -c "CREATE FOREIGN TABLE probe.sleepy1 PARTITION OF probe.sleepy FOR VALUES IN (1) SERVER shard1 OPTIONS (schema_name 'public', table_name 'shard_probe')" \
  -c "CREATE FOREIGN TABLE probe.sleepy2 PARTITION OF probe.sleepy FOR VALUES IN (2) SERVER shard2 OPTIONS (schema_name 'public', table_name 'shard_probe')" >/dev/null
exec_ms() { sq coord -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT count(*) FROM probe.sleepy" | tee "$DIR/probe.plan" \
            | sed -n 's/^Execution Time: \([0-9]*\).*/\1/p'; }
async_ms=$(exec_ms); echo "-- async_capable 'true':"; cat "$DIR/probe.plan"
sq coord -c "ALTER SERVER shard1 OPTIONS (SET async_capable 'false')" -c "ALTER SERVER shard2 OPTIONS (SET async_capable 'false')" >/dev/null
sync_ms=$(exec_ms); echo "-- async_capable 'false':"; cat "$DIR/probe.plan"
sq coord -c "ALTER SERVER shard1 OPTIONS (SET async_capable 'true')" -c "ALTER SERVER shard2 OPTIONS (SET async_capable 'true')" >/dev/null
echo "two shards sleeping 1 s each: ${async_ms:-?} ms with async_capable, ${sync_ms:-?} ms without"
# one after the other the two sleeps take >= 2 s; concurrently about 1 s, so at least 0.6 s less
# (compared with each other, not with a fixed bound: connecting to the shards counts on both sides)
check "d8 async_capable runs the two shard scans concurrently (>= 0.6 s faster than one after the other, which takes >= 1.9 s)" \
  "$([ "${sync_ms:-0}" -ge 1900 ] && [ $(( ${sync_ms:-0} - ${async_ms:-99999} )) -ge 600 ] && echo concurrent)" concurrent

# ---------------------------------------------------------------------------------------------
phase "(c) shard2 stopped: a clear error for what needs it, right answers for what does not"
"$CLUSTER" stop shard2 "$DIR"
expect_down() {   # name, query: must fail with postgres_fdw's connection error naming shard2, and print no rows
  local out rc=0
  out=$(sq coord -c "$2" 2>"$DIR/err") || rc=$?
  if [ "$rc" -ne 0 ] && [ -z "$out" ] && grep -q '08001' "$DIR/err" && grep -q 'could not connect to server "shard2"' "$DIR/err"; then
    pass "$1 ($(head -1 "$DIR/err"))"
  else
    fail "$1: rc=$rc, rows=[$out], stderr=[$(tr '\n' ' ' <"$DIR/err")]"
  fi
}
expect_down "c1 whole price history needs shard2: connection error, no rows" "SELECT count(*) FROM sharded.price_snapshot"
sq coord -c "SELECT count(*) FROM sharded.price_snapshot" 2>&1 | sed 's/^/   | /'
expect_down "c2 plan vs actual needs shard2: connection error" "SELECT count(*) FROM sharded.plan_vs_actual"
expect_down "c3 lambda's TWAP (shard2): connection error" \
  "SELECT sharded.price_twap('H100-SXM5', 'lambda', 'on_demand', '[2024-06-01, 2024-07-01)')"
Q="SELECT provider, builtin, count(*), sum(usd_per_gpu_hour), max(observed_at) FROM %s WHERE provider IN ('gcp', 'aws') GROUP BY 1, 2 ORDER BY 1, 2"
# shellcheck disable=SC2059
check "c4 gcp and aws prices (pruned to shard1) still answer, = single node" \
  "$(sq coord -c "$(printf "$Q" sharded.price_snapshot)" 2>&1)" "$(sq coord -c "$(printf "$Q" llm_econ.price_snapshot)")"
check "c5 gcp TWAP (shard1) still answers, = single node" \
  "$(sq coord -c "SELECT sharded.price_twap('H100-SXM5', 'gcp', 'spot', '[2024-06-01, 2024-07-01)')" 2>&1)" \
  "$(sq coord -c "SELECT llm_econ.price_twap('H100-SXM5', 'gcp', 'spot', '[2024-06-01, 2024-07-01)')")"
Q="SELECT run_id, count(*), sum(billed_cost), sum(effective_cost) FROM %s WHERE tenant = 'team_pretrain' GROUP BY 1 ORDER BY 1"
# shellcheck disable=SC2059
check "c6 team_pretrain's spend per run (pruned to shard1) still answers, = single node" \
  "$(sq coord -c "$(printf "$Q" sharded.spend)" 2>&1)" "$(sq coord -c "$(printf "$Q" llm_econ.spend)")"
rc=0
sq coord -c "BEGIN" \
  -c "INSERT INTO sharded.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source) VALUES (now(), 'gcp', 'H100-SXM5', 'spot', 3.00, 'run.sh c7')" \
  -c "INSERT INTO sharded.price_snapshot (observed_at, provider, sku, pricing, usd_per_gpu_hour, source) VALUES (now(), 'lambda', 'H100-SXM5', 'spot', 2.00, 'run.sh c7')" \
  -c "COMMIT" >/dev/null 2>"$DIR/err" || rc=$?
check "c7 a transaction writing to both shards fails as a whole (the shard1 row is rolled back)" \
  "$([ $rc -ne 0 ] && grep -q '08001' "$DIR/err" && echo failed)/$(sq shard1 -c "SELECT count(*) FROM llm_econ.price_snapshot WHERE source = 'run.sh c7'")" "failed/0"
"$CLUSTER" start shard2 "$DIR"
Q="SELECT provider, builtin, count(*), sum(usd_per_gpu_hour) FROM %s GROUP BY 1, 2 ORDER BY 1, 2"
# shellcheck disable=SC2059
check "c8 shard2 restarted: the whole history answers again, = single node" \
  "$(sq coord -c "$(printf "$Q" sharded.price_snapshot)" 2>&1)" "$(sq coord -c "$(printf "$Q" llm_econ.price_snapshot)")"

phase "down"
# (the EXIT trap tears the clusters down and prints the totals)
