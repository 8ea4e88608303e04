#!/usr/bin/env bash
# test/shard/cluster.sh: brings up / tears down 1 coordinator + 2 shard PostgreSQL 15 clusters on loopback with llm_econ and the postgres_fdw topology (up | down | env | status | stop NODE | start NODE | psql NODE ...).
#
#   test/shard/cluster.sh up [DIR]        create DIR (default: mktemp -d), 3 clusters, the topology; prints `env`
#   test/shard/cluster.sh env [DIR]       shell-sourceable connection info
#   test/shard/cluster.sh status [DIR]    pg_ctl status of every node
#   test/shard/cluster.sh stop|start NODE [DIR]   stop/start one node (coord, shard1, shard2)
#   test/shard/cluster.sh psql NODE [DIR] [-- psql args...]   psql on that node's database
#   test/shard/cluster.sh down [DIR]      stop every node and delete DIR
#
# DIR defaults to $LLM_ECON_SHARD_DIR, else the last DIR brought up (a pointer file in $TMPDIR or /tmp).
# Nodes run as the unprivileged user postgres (when started as root) on 127.0.0.1 at random free
# ports, unix sockets in DIR/sock. Local (socket) connections are trusted; TCP needs a password
# (scram), which is what the coordinator's postgres_fdw uses.
#
# Placement (override with the environment variables, comma-separated lower-case names):
#   price_snapshot, LIST (provider): shard1 = LLM_ECON_SHARD1_PROVIDERS (gcp,aws,azure,oci), shard2 = DEFAULT (every other provider)
#   spend,          LIST (tenant):   shard1 = LLM_ECON_SHARD1_TENANTS (team_pretrain), shard2 = DEFAULT (every other tenant)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
PGBIN=/usr/lib/postgresql/15/bin
[ -x "$PGBIN/initdb" ] || PGBIN=$(pg_config --bindir)
DB=econ
NODES=(coord shard1 shard2)
POINTER=${TMPDIR:-/tmp}/llm_econ_shard.last
SHARD1_PROVIDERS=${LLM_ECON_SHARD1_PROVIDERS:-gcp,aws,azure,oci}
SHARD1_TENANTS=${LLM_ECON_SHARD1_TENANTS:-team_pretrain}

die() { echo "cluster.sh: $*" >&2; exit 1; }

# Server-side commands run as postgres when we are root (initdb and postgres refuse root).
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

resolve_dir() {
  local d=${1:-${LLM_ECON_SHARD_DIR:-}}
  [ -n "$d" ] || { [ -f "$POINTER" ] && d=$(cat "$POINTER"); }
  [ -n "$d" ] || die "no cluster directory: give DIR or set LLM_ECON_SHARD_DIR"
  [ -f "$d/.llm_econ_shard" ] || die "$d is not a directory made by cluster.sh up"
  DIR=$d
}

port_of() { cat "$DIR/$1.port"; }

# psql as the local superuser over the node's unix socket; extra args passed through.
node_psql() {
  local node=$1; shift
  psql -X -q -v ON_ERROR_STOP=1 -h "$DIR/sock" -p "$(port_of "$node")" -U postgres -d "$DB" "$@"
}

free_port() {
  perl -MIO::Socket::INET -e '
    my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1", LocalPort => 0, ReuseAddr => 1)
      or die "no free port: $!\n";
    print $s->sockport, "\n";'
}

# Start one node; on first start pick a random free port (retrying if another process takes it
# between the probe and the bind), later starts reuse the port recorded in DIR/NODE.port.
start_node() {
  local node=$1 port
  for _ in 1 2 3 4 5; do
    if [ -f "$DIR/$node.port" ]; then port=$(cat "$DIR/$node.port"); else port=$(free_port); fi
    echo "port = $port" | as_pg tee "$DIR/$node/port.conf" >/dev/null
    if as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" -l "$DIR/$node.log" -w -t 60 start >/dev/null; then
      echo "$port" > "$DIR/$node.port"
      return 0
    fi
    [ -f "$DIR/$node.port" ] && break          # a known port that fails will not get better
    sleep 0.2
  done
  tail -20 "$DIR/$node.log" >&2 || true
  die "could not start $node"
}

# stop_node NODE [MODE]: fast (a clean shutdown, for a node that will be started again) or
# immediate (no shutdown checkpoint: for clusters about to be deleted).
stop_node() {
  local node=$1 mode=${2:-fast}
  [ -f "$DIR/$node/postmaster.pid" ] || return 0
  as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" -m "$mode" -w -t 30 stop >/dev/null 2>&1 \
    || as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
}

init_node() {
  local node=$1
  as_pg "$PGBIN/initdb" -D "$DIR/$node" -U postgres -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 --pwfile="$DIR/superuser.pw" >"$DIR/$node.initdb.log" 2>&1 \
    || { cat "$DIR/$node.initdb.log" >&2; return 1; }
  # Throwaway test clusters on 2 shared cores: small, no durability, no parallel workers.
  as_pg tee -a "$DIR/$node/postgresql.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR/sock'
include_if_exists = 'port.conf'
max_connections = 30
shared_buffers = 32MB
fsync = off
synchronous_commit = off
full_page_writes = off
jit = off
max_worker_processes = 4
max_parallel_workers_per_gather = 0
autovacuum = off
log_min_messages = warning
log_line_prefix = '%m [%p] $node %a: '
EOF
}

# On each shard: the extension, the role the coordinator connects as, and only the shipped price
# rows of the shard's own providers (so the shard's llm_econ.price_snapshot holds exactly its
# partition, and the sharded table does not count a shipped row twice).
setup_shard() {
  local node=$1
  node_psql "$node" -v fdw_pw="$(cat "$DIR/fdw.pw")" -v providers="$(sql_list "$SHARD1_PROVIDERS")" \
    -v keep="$([ "$node" = shard1 ] && echo true || echo false)" >/dev/null <<'SQL'
CREATE EXTENSION llm_econ;
-- the coordinator's postgres_fdw logs in as this role: not a superuser; BYPASSRLS because tenant
-- isolation is enforced on the coordinator (sharded.spend has the tenant policy)
CREATE ROLE llm_econ_fdw LOGIN BYPASSRLS PASSWORD :'fdw_pw';
GRANT SELECT, INSERT, UPDATE, DELETE ON llm_econ.price_snapshot, llm_econ.spend TO llm_econ_fdw;
DELETE FROM llm_econ.price_snapshot WHERE builtin AND (provider IN (:providers)) IS DISTINCT FROM :keep;
-- price_series is kept by an INSERT/UPDATE trigger only: drop the series whose rows just went
DELETE FROM llm_econ.price_series s
 WHERE NOT EXISTS (SELECT FROM llm_econ.price_snapshot p
                    WHERE (p.sku, p.provider, p.pricing) = (s.sku, s.provider, s.pricing)
                      AND p.region IS NOT DISTINCT FROM s.region
                      AND p.instance_type IS NOT DISTINCT FROM s.instance_type);
ANALYZE llm_econ.price_snapshot;
SQL
}

setup_coord() {
  node_psql coord -v ON_ERROR_STOP=1 -v db="$DB" -v fdw_pw="$(cat "$DIR/fdw.pw")" \
    -v s1_port="$(port_of shard1)" -v s2_port="$(port_of shard2)" \
    -v s1_providers="$(sql_list "$SHARD1_PROVIDERS")" -v s1_tenants="$(sql_list "$SHARD1_TENANTS")" \
    -f "$HERE/topology.sql" >/dev/null
}

# "a,b" -> 'a','b' after checking each name is a plain lower-case key
sql_list() {
  local out="" x
  IFS=, read -ra xs <<<"$1"
  for x in "${xs[@]}"; do
    [[ $x =~ ^[a-z0-9][a-z0-9._-]*$ ]] || die "bad name in list: '$x'"
    out+="${out:+,}'$x'"
  done
  echo "$out"
}

print_env() {
  cat <<EOF
LLM_ECON_SHARD_DIR=$DIR
LLM_ECON_SHARD_SOCKET=$DIR/sock
LLM_ECON_SHARD_DB=$DB
COORD_PORT=$(port_of coord)
SHARD1_PORT=$(port_of shard1)
SHARD2_PORT=$(port_of shard2)
# placement: price_snapshot provider IN ($SHARD1_PROVIDERS) -> shard1, other providers -> shard2;
#            spend tenant IN ($SHARD1_TENANTS) -> shard1, other tenants -> shard2
# coordinator: psql -h $DIR/sock -p $(port_of coord) -U postgres $DB
# shard1:      psql -h $DIR/sock -p $(port_of shard1) -U postgres $DB   (TCP 127.0.0.1:$(port_of shard1) needs a password)
# shard2:      psql -h $DIR/sock -p $(port_of shard2) -U postgres $DB
EOF
}

up() {
  local t0=$SECONDS pids=() node
  [ "$(id -u)" -ne 0 ] || id postgres >/dev/null 2>&1 || die "as root, the user postgres must exist"
  sql_list "$SHARD1_PROVIDERS" >/dev/null; sql_list "$SHARD1_TENANTS" >/dev/null    # die early on a bad name
  if [ -n "${1:-}" ]; then DIR=$1; mkdir -p "$DIR"; else DIR=$(mktemp -d "${TMPDIR:-/tmp}/llm_econ_shard.XXXXXX"); fi
  [ -z "$(ls -A "$DIR")" ] || die "$DIR is not empty"
  touch "$DIR/.llm_econ_shard"
  # a failed "up" leaves nothing running
  # shellcheck disable=SC2154
  trap 'rc=$?; if [ "$rc" -ne 0 ]; then echo "cluster.sh: up failed, tearing down $DIR" >&2; down; fi' EXIT
  echo "$DIR" > "$POINTER"
  mkdir -p "$DIR/sock"
  (umask 077; head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DIR/superuser.pw"
             head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DIR/fdw.pw")
  [ "$(id -u)" -ne 0 ] || chown -R postgres: "$DIR"
  chmod 700 "$DIR" "$DIR/sock"

  for node in "${NODES[@]}"; do init_node "$node" & pids+=($!); done
  for node in "${pids[@]}"; do wait "$node" || die "initdb failed (logs in $DIR)"; done
  for node in "${NODES[@]}"; do start_node "$node"; done
  # the three installs (2 s of CPU each) in parallel; then the topology, which needs the shards' ports
  pids=()
  for node in "${NODES[@]}"; do
    { psql -X -q -h "$DIR/sock" -p "$(port_of "$node")" -U postgres -d postgres -c "CREATE DATABASE $DB" >/dev/null &&
      if [ "$node" = coord ]; then node_psql coord -c 'CREATE EXTENSION llm_econ' >/dev/null; else setup_shard "$node"; fi
    } & pids+=($!)
  done
  for node in "${pids[@]}"; do wait "$node" || die "installing llm_econ failed (logs in $DIR)"; done
  setup_coord
  print_env > "$DIR/env"
  trap - EXIT
  echo "# up in $((SECONDS - t0)) s"
  cat "$DIR/env"
}

down() {
  local node
  for node in "${NODES[@]}"; do stop_node "$node" immediate; done
  rm -rf -- "$DIR"
  [ "$(cat "$POINTER" 2>/dev/null)" != "$DIR" ] || rm -f "$POINTER"
}

cmd=${1:-}; shift || true
case "$cmd" in
  up) up "${1:-}" ;;
  down) resolve_dir "${1:-}"; down ;;
  env) resolve_dir "${1:-}"; cat "$DIR/env" ;;
  status)
    resolve_dir "${1:-}"
    for node in "${NODES[@]}"; do
      printf '%-7s port %-5s ' "$node" "$(port_of "$node")"
      as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" status >/dev/null 2>&1 && echo running || echo stopped
    done ;;
  stop|start)
    node=${1:-}; [[ " ${NODES[*]} " == *" $node "* ]] || die "usage: cluster.sh $cmd coord|shard1|shard2 [DIR]"
    resolve_dir "${2:-}"
    if [ "$cmd" = stop ]; then stop_node "$node"; else start_node "$node"; fi ;;
  psql)
    node=${1:-}; [[ " ${NODES[*]} " == *" $node "* ]] || die "usage: cluster.sh psql coord|shard1|shard2 [DIR] [-- args]"
    shift
    if [ -n "${1:-}" ] && [ "$1" != -- ]; then resolve_dir "$1"; shift; else resolve_dir ""; fi
    [ "${1:-}" != -- ] || shift
    node_psql "$node" "$@" ;;
  *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
