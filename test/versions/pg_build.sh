#!/usr/bin/env bash
# test/versions/pg_build.sh: builds PostgreSQL MAJOR from Debian's source package into its own prefix, once.
#
# usage (as root): bash test/versions/pg_build.sh MAJOR      e.g. 17 or 18
# Prints the prefix's pg_config path on the last line. A prefix that already holds a finished
# build (the stamp file .llm_econ_built) is reused as it is.
# Environment: PG_PREFIX_ROOT (default /opt/llm_econ-pg): MAJOR is installed into $PG_PREFIX_ROOT/MAJOR,
# sources are kept in $PG_PREFIX_ROOT/src; JOBS (default: number of CPUs).
#
# Where the source comes from: Debian 12 packages only PostgreSQL 15, so a deb-src-only sources file
# (/etc/apt/sources.list.d/llm_econ-pg-src.sources) adds the source indexes of trixie (17) and sid (18);
# nothing is installed from those suites. "apt-get source --download-only postgresql-MAJOR" fetches the
# upstream tarball (.orig.tar.bz2); if the archive no longer serves the version its index names, the
# pinned fallback below (a version in the same pool, checked by SHA-256) is fetched instead.
set -euo pipefail

MAJOR=${1:?usage: pg_build.sh MAJOR}
ROOT=${PG_PREFIX_ROOT:-/opt/llm_econ-pg}
PREFIX=$ROOT/$MAJOR
SRC=$ROOT/src
JOBS=${JOBS:-$(nproc)}
STAMP=$PREFIX/.llm_econ_built

log() { echo "pg_build $MAJOR: $*" >&2; }

# one build of a major at a time (a second caller waits, then reuses the result)
mkdir -p "$ROOT"
exec 9>"$ROOT/.lock-$MAJOR"
flock 9

if [ -f "$STAMP" ] && [ -x "$PREFIX/bin/pg_config" ]; then
  log "reusing $PREFIX ($("$PREFIX/bin/pg_config" --version))"
  echo "$PREFIX/bin/pg_config"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "run me as root (installs build packages, writes $ROOT)"; exit 1; }

# Pinned fallbacks: version, file name in pool/main/p/postgresql-MAJOR/, SHA-256 (from the .dsc).
case "$MAJOR" in
  17) SUITE=trixie; FB_FILE=postgresql-17_17.11.orig.tar.bz2
      FB_SHA=dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979 ;;
  18) SUITE=sid; FB_FILE=postgresql-18_18.6.orig.tar.bz2
      FB_SHA=555610c24d53e4316da5b7d3fc25c279d96856d5e0e23ee308c328c5fa881d9f ;;
  *) log "no source suite known for PostgreSQL $MAJOR (17 and 18 are)"; exit 1 ;;
esac

# Build dependencies (Debian 12 packages): compiler, bison/flex for the grammar, zlib for pg_dump,
# IPC::Run for the TAP modules (--enable-tap-tests).
need=()
for p in gcc make perl bison flex zlib1g-dev libipc-run-perl curl ca-certificates bzip2; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
export DEBIAN_FRONTEND=noninteractive
LIST=/etc/apt/sources.list.d/llm_econ-pg-src.sources
if [ ! -f "$LIST" ]; then
  cat > "$LIST" <<'SOURCES'
# llm_econ test/versions: source indexes of PostgreSQL 17 (trixie) and 18 (sid); deb-src only, nothing is upgraded
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt-get update -qq
elif ! apt-cache showsrc "postgresql-$MAJOR" 2>/dev/null | grep -q '^Package:'; then
  apt-get update -qq
fi
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

mkdir -p "$SRC"
cd "$SRC"
tarball=""
log "apt-get source --download-only postgresql-$MAJOR ($SUITE)"
if (apt-get source --download-only -qq "postgresql-$MAJOR" >/dev/null 2>&1); then
  ver=$(apt-cache showsrc "postgresql-$MAJOR" | sed -n 's/^Version: \([0-9.]*\)-.*/\1/p' | sort -V | tail -1)
  tarball=$SRC/postgresql-${MAJOR}_$ver.orig.tar.bz2
fi
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
  tarball=$SRC/$FB_FILE
  if [ ! -f "$tarball" ]; then
    log "the archive does not serve the indexed version; fetching the pinned $FB_FILE"
    curl -sSf -m 600 -o "$tarball.part" "http://deb.debian.org/debian/pool/main/p/postgresql-$MAJOR/$FB_FILE"
    mv "$tarball.part" "$tarball"
  fi
  echo "$FB_SHA  $tarball" | sha256sum -c --quiet - || { log "checksum mismatch: $tarball"; rm -f "$tarball"; exit 1; }
fi
log "building from $(basename "$tarball") into $PREFIX"

BUILD=$SRC/build-$MAJOR
rm -rf "$BUILD" "$PREFIX"
mkdir -p "$BUILD"
tar -xjf "$tarball" -C "$BUILD" --strip-components=1
cd "$BUILD"
# Only what the tests need: no ICU, readline, NLS or SSL; TAP modules installed for test/t.
./configure --prefix="$PREFIX" --without-icu --without-readline --without-openssl \
  --enable-tap-tests >configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
make -s -j"$JOBS" >build.log 2>&1 || { tail -40 build.log >&2; exit 1; }
make -s install >install.log 2>&1 || { tail -40 install.log >&2; exit 1; }
# pg_regress is installed with PGXS; the isolation tester and the TAP Perl modules are not by default.
make -s -C src/test/isolation install >>install.log 2>&1 || { tail -40 install.log >&2; exit 1; }
make -s -C src/test/perl install >>install.log 2>&1 || { tail -40 install.log >&2; exit 1; }
date -u +%FT%TZ > "$STAMP"
cd "$SRC" && rm -rf "$BUILD"
log "built $("$PREFIX/bin/pg_config" --version)"
echo "$PREFIX/bin/pg_config"
