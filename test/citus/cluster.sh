#!/usr/bin/env bash
# test/citus/cluster.sh: brings up / tears down a Citus coordinator + 2 workers on loopback for the Citus tests (up DIR | down DIR | stop NODE DIR | start NODE DIR).
#
#   PG_CONFIG=... test/citus/cluster.sh up DIR     3 clusters (coord, worker1, worker2) in DIR, Citus
#                                                  loaded, workers added; writes DIR/env
#   test/citus/cluster.sh stop|start NODE DIR      stop (fast) / start one node
#   test/citus/cluster.sh down DIR                 stop every node, delete DIR
# The PostgreSQL used is the one PG_CONFIG names (default Debian's 15); Citus must be installed there
# (test/citus/build.sh). Nodes run as user postgres on 127.0.0.1 at free ports; sockets in DIR/sock.
# Throwaway test clusters: trust authentication on the socket and on 127.0.0.1 only, no SSL between
# nodes (citus.node_conninfo), no durability settings.
set -euo pipefail

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PGBIN=$("$PG_CONFIG" --bindir)
DB=econ
NODES=(coord worker1 worker2)

die() { echo "citus cluster.sh: $*" >&2; exit 1; }
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
port_of() { cat "$DIR/$1.port"; }
node_psql() {
  local node=$1; shift
  "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR/sock" -p "$(port_of "$node")" -U postgres -d "$DB" "$@"
}
free_port() {
  perl -MIO::Socket::INET -e '
    my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1", LocalPort => 0, ReuseAddr => 1)
      or die "no free port: $!\n";
    print $s->sockport, "\n";'
}

start_node() {
  local node=$1 port
  for _ in 1 2 3 4 5; do
    if [ -f "$DIR/$node.port" ]; then port=$(cat "$DIR/$node.port"); else port=$(free_port); fi
    echo "port = $port" | as_pg tee "$DIR/$node/port.conf" >/dev/null
    if as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" -l "$DIR/$node.log" -w -t 60 start >/dev/null; then
      echo "$port" > "$DIR/$node.port"
      return 0
    fi
    [ -f "$DIR/$node.port" ] && break
    sleep 0.2
  done
  tail -20 "$DIR/$node.log" >&2 || true
  die "could not start $node"
}

stop_node() {
  local node=$1 mode=${2:-fast}
  [ -f "$DIR/$node/postmaster.pid" ] || return 0
  as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" -m "$mode" -w -t 30 stop >/dev/null 2>&1 \
    || as_pg "$PGBIN/pg_ctl" -D "$DIR/$node" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
}

init_node() {
  local node=$1
  as_pg "$PGBIN/initdb" -D "$DIR/$node" -U postgres -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=trust >"$DIR/$node.initdb.log" 2>&1 \
    || { cat "$DIR/$node.initdb.log" >&2; return 1; }
  as_pg tee -a "$DIR/$node/postgresql.conf" >/dev/null <<CONF
shared_preload_libraries = 'citus'
citus.node_conninfo = 'sslmode=disable'
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR/sock'
include_if_exists = 'port.conf'
max_connections = 60
shared_buffers = 32MB
fsync = off
synchronous_commit = off
full_page_writes = off
jit = off
max_worker_processes = 12
max_parallel_workers_per_gather = 0
max_prepared_transactions = 60
autovacuum = off
log_min_messages = warning
log_line_prefix = '%m [%p] $node %a: '
CONF
}

up() {
  local t0=$SECONDS pids=() node
  DIR=${1:?usage: cluster.sh up DIR}
  mkdir -p "$DIR"
  [ -z "$(ls -A "$DIR")" ] || die "$DIR is not empty"
  touch "$DIR/.llm_econ_citus"
  trap 'rc=$?; if [ "$rc" -ne 0 ]; then echo "citus cluster.sh: up failed, tearing down $DIR" >&2; down; fi' EXIT
  mkdir -p "$DIR/sock"
  [ "$(id -u)" -ne 0 ] || chown -R postgres: "$DIR"
  chmod 700 "$DIR" "$DIR/sock"
  for node in "${NODES[@]}"; do init_node "$node" & pids+=($!); done
  for node in "${pids[@]}"; do wait "$node" || die "initdb failed (logs in $DIR)"; done
  for node in "${NODES[@]}"; do start_node "$node"; done
  for node in "${NODES[@]}"; do
    "$PGBIN/psql" -X -q -h "$DIR/sock" -p "$(port_of "$node")" -U postgres -d postgres -c "CREATE DATABASE $DB" >/dev/null
    node_psql "$node" -c 'CREATE EXTENSION citus' >/dev/null
  done
  node_psql coord -c "SELECT citus_set_coordinator_host('127.0.0.1', $(port_of coord))" \
                  -c "SELECT citus_add_node('127.0.0.1', $(port_of worker1))" \
                  -c "SELECT citus_add_node('127.0.0.1', $(port_of worker2))" >/dev/null
  cat > "$DIR/env" <<ENV
CITUS_DIR=$DIR
CITUS_SOCKET=$DIR/sock
CITUS_DB=$DB
CITUS_PGBIN=$PGBIN
COORD_PORT=$(port_of coord)
WORKER1_PORT=$(port_of worker1)
WORKER2_PORT=$(port_of worker2)
ENV
  trap - EXIT
  echo "# citus cluster up in $((SECONDS - t0)) s ($("$PG_CONFIG" --version)); psql -h $DIR/sock -p $(port_of coord) -U postgres $DB"
}

down() {
  local node
  for node in "${NODES[@]}"; do stop_node "$node" immediate; done
  rm -rf -- "$DIR"
}

cmd=${1:-}; shift || true
case "$cmd" in
  up) up "${1:-}" ;;
  down) DIR=${1:?DIR}; [ -f "$DIR/.llm_econ_citus" ] || die "$DIR is not a citus test cluster"; down ;;
  stop|start)
    node=${1:-}; [[ " ${NODES[*]} " == *" $node "* ]] || die "usage: cluster.sh $cmd coord|worker1|worker2 DIR"
    DIR=${2:?DIR}; [ -f "$DIR/.llm_econ_citus" ] || die "$DIR is not a citus test cluster"
    if [ "$cmd" = stop ]; then stop_node "$node"; else start_node "$node"; fi ;;
  *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
