# Makefile: builds the llm_econ PostgreSQL extension with PGXS (pgvector-style layout).
EXTENSION = llm_econ
# The version is written once, in the control file.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = llm_econ
OBJS = \
	src/module.o \
	src/util.o \
	src/guard_fmgr.o \
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

# The install script is built: the hand-written SQL parts in this order.  data.sql loads the
# shipped CSV files with COPY from the share directory, where `make install` puts them
# (SHIPPED_DATA, into $(datadir)/extension/llm_econ/); src/check_data.pl validates them first.
# src/minify_sql.pl drops comments and indentation outside literals and function bodies.
SQL_PARTS = src/sql/schema.sql src/sql/tables.sql src/sql/guard.sql src/sql/run_spec.sql src/sql/model.sql \
	src/sql/layout.sql src/sql/prices.sql src/sql/import.sql src/sql/bill.sql src/sql/finance.sql \
	src/sql/data.sql src/sql/reports.sql src/sql/series_delete.sql src/sql/checks.sql src/sql/dashboards.sql \
	src/sql/plan.sql
SHIPPED_DATA = data/gpu_sku.csv data/gpu_sku_alias.csv data/instance_type.csv data/gcp_machine_family.csv data/mfu_reference.csv data/price_seed.csv \
	data/gcp_gpu_price_history.csv data/gcp_gpu_price_history_change_points.csv data/gcp_gpu_price_history_corrections.csv \
	data/price_daily_group.csv data/price_daily_summary.csv
# Update scripts are hand-written and kept forever (src/update/llm_econ--A--B.sql, installed as
# they are).  The step into the version being developed is written in parts, one per concern
# (src/update/0.4.0/NN_topic.sql, joined in name order into llm_econ--0.3.0--0.4.0.sql); at its
# release the joined file is committed to src/update/ and the parts go.  The step's versions are
# written out here, never derived from the control file, so a version bump cannot silently stop
# shipping an earlier step.
UPDATE_NEXT = $(EXTENSION)--0.3.0--0.4.0.sql
UPDATE_PARTS = $(sort $(wildcard src/update/0.4.0/*.sql))
DATA_built = $(EXTENSION)--$(EXTVERSION).sql $(UPDATE_NEXT)
DATA = $(wildcard src/update/$(EXTENSION)--*--*.sql)
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

$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PARTS) src/check_data.pl src/minify_sql.pl $(SHIPPED_DATA)
	perl src/check_data.pl data
	{ echo '-- llm_econ $(EXTVERSION) install script, built from src/sql/*.sql (comments, and the indentation outside function bodies, are in the sources only)'; \
	  cat $(SQL_PARTS) | sed 's/^[[:space:]]*--.*$$//' | perl src/minify_sql.pl; } > $@.tmp && mv $@.tmp $@

# The shipped data files, beside the scripts (data.sql reads them there).
install: install-shipped-data
install-shipped-data: installdirs
	$(MKDIR_P) '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)'
	$(INSTALL_DATA) $(SHIPPED_DATA) '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)/'
uninstall: uninstall-shipped-data
uninstall-shipped-data:
	rm -rf '$(DESTDIR)$(datadir)/$(datamoduledir)/$(EXTENSION)'
.PHONY: install-shipped-data uninstall-shipped-data

$(UPDATE_NEXT): $(UPDATE_PARTS) src/minify_sql.pl
	{ echo '-- llm_econ 0.3.0 -> 0.4.0 update script, built from src/update/0.4.0/*.sql (comments, and the indentation outside function bodies, are in the sources only)'; \
	  cat $(UPDATE_PARTS) | sed 's/^[[:space:]]*--.*$$//' | perl src/minify_sql.pl; } > $@.tmp && mv $@.tmp $@

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
