#!/usr/bin/env bash
# test/citus/build.sh: builds Citus 13.2.2 (a test dependency from ../shared/vendor, never shipped) for one PostgreSQL and installs it there, once.
#
# usage (as root): PG_CONFIG=/path/to/pg_config bash test/citus/build.sh
# Environment: PG_CONFIG (default Debian's PostgreSQL 15), CITUS_VENDOR (directory holding
# citus-13.2.2.tar.gz and citus-13.2.2-pg15.20.patch; default ../shared/vendor next to this checkout,
# else /work/shared/vendor), CITUS_BUILD_ROOT (default /opt/llm_econ-pg/citus-build), JOBS.
# Skips the build when that PostgreSQL already has Citus 13.2.2 installed.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
VENDOR=${CITUS_VENDOR:-}
if [ -z "$VENDOR" ]; then
  for d in "$REPO/../shared/vendor" /work/shared/vendor; do [ -f "$d/citus-13.2.2.tar.gz" ] && { VENDOR=$d; break; }; done
fi
[ -n "$VENDOR" ] && [ -f "$VENDOR/citus-13.2.2.tar.gz" ] || { echo "citus build: no citus-13.2.2.tar.gz (set CITUS_VENDOR)" >&2; exit 1; }
JOBS=${JOBS:-$(nproc)}
log() { echo "citus build: $*" >&2; }

PKGLIB=$("$PG_CONFIG" --pkglibdir)
SHARE=$("$PG_CONFIG" --sharedir)
if [ -f "$PKGLIB/citus.so" ] && [ -f "$SHARE/extension/citus.control" ] \
   && grep -q "^default_version = '13.2-1'" "$SHARE/extension/citus.control"; then
  log "reusing Citus 13.2 in $PKGLIB"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "run me as root"; exit 1; }

# What Citus's build links against: its own compression libraries, plus everything Debian's
# PostgreSQL 15 lists in pg_config --libs (krb5, pam, xml, xslt, selinux, ssl, readline).
need=()
for p in gcc make liblz4-dev libzstd-dev libkrb5-dev libxml2-dev libxslt1-dev libselinux1-dev libpam0g-dev libssl-dev libreadline-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi

major=$("$PG_CONFIG" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
BUILD=${CITUS_BUILD_ROOT:-/opt/llm_econ-pg/citus-build}/pg$major-$(echo -n "$PG_CONFIG" | cksum | cut -d' ' -f1)
rm -rf "$BUILD"; mkdir -p "$BUILD"
tar -xzf "$VENDOR/citus-13.2.2.tar.gz" -C "$BUILD" --strip-components=1
# PostgreSQL 15.20 (and the minors released with it) export have_createdb_privilege(), which
# Citus 13.2.2 also defines: the vendor patch renames Citus's copy (harmless on other minors).
patch -s -d "$BUILD" -p1 < "$VENDOR/citus-13.2.2-pg15.20.patch"
cd "$BUILD"
log "building for $("$PG_CONFIG" --version) in $BUILD"
./configure --without-libcurl PG_CONFIG="$PG_CONFIG" >configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
# no JIT bitcode (Debian builds PostgreSQL with LLVM; Citus does not need it for the tests)
make -s -j"$JOBS" with_llvm=no >build.log 2>&1 || { tail -40 build.log >&2; exit 1; }
make -s install with_llvm=no >install.log 2>&1 || { tail -40 install.log >&2; exit 1; }
log "installed into $PKGLIB"
