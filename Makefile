# Makefile: builds the llm_econ PostgreSQL extension with PGXS (pgvector-style layout).
EXTENSION = llm_econ
# The version is written once, in the control file.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = llm_econ
OBJS = \
	src/module.o \
	src/util.o \
	src/guard_fmgr.o \
	src/tenant_fmgr.o \
	src/provenance.o \
	src/core/guard.o \
	src/core/spec.o \
	src/core/validate.o \
	src/core/model.o \
	src/core/memory.o \
	src/core/comm.o \
	src/core/plan.o \
	src/core/csv.o \
	src/core/catalog.o \
	src/core/series.o \
	src/core/md5.o \
	src/core/charge.o \
	src/core/focus_text.o \
	src/core/bill.o \
	src/core/step.o \
	src/core/search.o \
	src/core/step_spec.o \
	src/spec_io.o \
	src/sku.o \
	src/run_spec.o \
	src/money.o \
	src/model_fmgr.o \
	src/price.o \
	src/layout_fmgr.o \
	src/skypilot.o \
	src/bill_fmgr.o \
	src/csv_fmgr.o \
	src/focus_type.o \
	src/focus_load.o \
	src/step_fmgr.o \
	src/plan_fmgr.o

# The SQL source is in two halves (docs/internals.md, "Layout and build"):
#  - src/schema/*.sql, the stateful objects in their install form: the schema, types, tables, indexes,
#    sequences and the shipped data (src/schema/data.sql COPYs data/*.csv from the share directory, where
#    `make install` puts them, SHIPPED_DATA; src/check_data.pl validates them first).  Run once, at install.
#  - src/sql/*.sql, the replaceable code, one file per concern: functions, views and triggers written
#    CREATE OR REPLACE, policies as DROP POLICY IF EXISTS + CREATE POLICY, comments and grants.  Run at
#    install and by every update.
# The install script is both, concatenated as written (comments stay; nothing is minified).
SCHEMA_PARTS = src/schema/schema.sql src/schema/tables.sql src/schema/guard.sql src/schema/run_spec.sql \
	src/schema/import.sql src/schema/finance.sql src/schema/data.sql src/schema/dashboards.sql src/schema/plan.sql
SQL_PARTS = src/sql/schema.sql src/sql/tables.sql src/sql/guard.sql src/sql/run_spec.sql src/sql/model.sql \
	src/sql/layout.sql src/sql/prices.sql src/sql/import.sql src/sql/bill.sql src/sql/finance.sql \
	src/sql/reports.sql src/sql/series_delete.sql src/sql/checks.sql src/sql/dashboards.sql src/sql/plan.sql
SHIPPED_DATA = data/gpu_sku.csv data/gpu_sku_alias.csv data/instance_type.csv data/gcp_machine_family.csv data/mfu_reference.csv data/price_seed.csv \
	data/gcp_gpu_price_history.csv data/gcp_gpu_price_history_change_points.csv data/gcp_gpu_price_history_corrections.csv \
	data/price_daily_group.csv data/price_daily_summary.csv
# Released update steps are frozen files kept forever (src/update/llm_econ--A--B.sql, installed as they
# are).  The step from the previous release into this one is built: that release's hand-written
# migration of the stateful objects (src/migrate/PREV--THIS.sql, between src/migrate/update_head.sql and
# the replaceable code) followed by all of src/sql, then src/migrate/update_tail.sql.  PREV_VERSION is
# written out here: bumping the control file without starting the next migration fails the build.
PREV_VERSION = 0.4.0
MIGRATION = src/migrate/$(PREV_VERSION)--$(EXTVERSION).sql
UPDATE_NEXT = $(EXTENSION)--$(PREV_VERSION)--$(EXTVERSION).sql
DATA_built = $(EXTENSION)--$(EXTVERSION).sql $(UPDATE_NEXT)
DATA = $(wildcard src/update/$(EXTENSION)--*--*.sql)
# Frozen steps read frozen data: the released 0.3.0 -> 0.4.0 step COPYs these from
# SHAREDIR/extension/llm_econ/0.4.0/ (data/0.4.0/ holds 0.4.0's files as released; src/check_data.pl pins them).
FROZEN_DATA_0_4_0 = data/0.4.0/instance_type.csv data/0.4.0/gcp_machine_family.csv data/0.4.0/gcp_gpu_price_history_change_points.csv
# The reference (docs/*.md, and the pictures they show) installs with the extension into $(docdir)/extension.
DOCS = $(wildcard docs/*.md docs/*.png)

TESTS = $(sort $(wildcard sql/*.sql))
REGRESS = $(patsubst sql/%.sql,%,$(TESTS))
REGRESS_OPTS = --inputdir=. --load-extension=$(EXTENSION)
# Isolation tests (pg_isolation_regress, run by installcheck after REGRESS): test/isolation/specs/*.spec
# against test/isolation/expected/*.out; results and regression.diffs land where pg_regress puts its own.
ISOLATION = $(patsubst test/isolation/specs/%.spec,%,$(sort $(wildcard test/isolation/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test/isolation --outputdir=. --load-extension=$(EXTENSION)
# TAP tests (test/t/*.pl, PostgreSQL::Test::Cluster), run by installcheck after ISOLATION the PGXS
# way (prove_installcheck). Their clusters cannot run as root: test/tap/run.sh runs them as
# postgres in a copy it can write, and ./run.sh's pg_regress step passes TAP_TESTS= .
TAP_TESTS = 1
PROVE_TESTS = $(sort $(wildcard test/t/*.pl))

# Identical float results on every CPU (no fused multiply-add contraction).
PG_CFLAGS += -I$(srcdir)/src -ffp-contract=off
# CI adds -Werror through PROFILE, e.g. make PROFILE=-Werror

EXTRA_CLEAN = $(DATA_built) test/unit/test_core test/bench/search_bench

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
# the docs go into their own folder (DOCS would put generic names like security.md flat into doc/extension/)
docmoduledir = extension/$(EXTENSION)

$(EXTENSION)--$(EXTVERSION).sql: $(SCHEMA_PARTS) $(SQL_PARTS) $(wildcard src/migrate/*.sql) src/check_sql.pl src/check_data.pl $(SHIPPED_DATA)
	perl src/check_sql.pl
	perl src/check_data.pl data
	{ echo '-- llm_econ $(EXTVERSION) install script, built from src/schema/*.sql (stateful objects) and src/sql/*.sql (replaceable code)'; \
	  cat $(SCHEMA_PARTS) $(SQL_PARTS); } > $@.tmp && mv $@.tmp $@

$(UPDATE_NEXT): src/migrate/update_head.sql $(MIGRATION) $(SQL_PARTS) src/migrate/update_tail.sql
	{ echo '-- llm_econ $(PREV_VERSION) -> $(EXTVERSION) update script, built from $(MIGRATION) and src/sql/*.sql'; \
	  printf '%s\n' '\echo Use "ALTER EXTENSION $(EXTENSION) UPDATE TO '"'"'$(EXTVERSION)'"'"'" to load this file. \quit'; \
	  cat src/migrate/update_head.sql $(MIGRATION) $(SQL_PARTS) src/migrate/update_tail.sql; } > $@.tmp && mv $@.tmp $@

# The shipped data files, beside the scripts (data.sql reads them there).
install: install-shipped-data
install-shipped-data: installdirs
	$(MKDIR_P) '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)'
	$(INSTALL_DATA) $(SHIPPED_DATA) '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)/'
	$(MKDIR_P) '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)/0.4.0'
	$(INSTALL_DATA) $(FROZEN_DATA_0_4_0) '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)/0.4.0/'
uninstall: uninstall-shipped-data
uninstall-shipped-data:
	rm -rf '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)'
.PHONY: install-shipped-data uninstall-shipped-data

# Unit tests of the plain-C core (no PostgreSQL needed).
CORE_SRCS = $(wildcard src/core/*.c)
UNIT_SRCS = $(wildcard test/unit/*.c)
test/unit/test_core: $(UNIT_SRCS) test/unit/unit.h $(CORE_SRCS) $(wildcard src/core/*.h)
	$(CC) -std=c99 -Wall -Wextra -ffp-contract=off $(PROFILE) -Isrc -Itest/unit -o $@ $(UNIT_SRCS) $(CORE_SRCS) -lm

unittest: test/unit/test_core
	test/unit/test_core

.PHONY: unittest

# Benchmark of the cheapest-plan search core (plain C, optimised as the server builds it; not a test).
test/bench/search_bench: test/bench/search_bench.c $(CORE_SRCS) $(wildcard src/core/*.h)
	$(CC) -std=c99 -O2 -Wall -Wextra -ffp-contract=off $(PROFILE) -D_POSIX_C_SOURCE=199309L -Isrc -o $@ test/bench/search_bench.c $(CORE_SRCS) -lm

bench-search: test/bench/search_bench
	test/bench/search_bench

.PHONY: bench-search

# Every object depends on the shared headers (PGXS tracks no header dependencies by itself).
$(OBJS): $(wildcard src/*.h src/core/*.h)
