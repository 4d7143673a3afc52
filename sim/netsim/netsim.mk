# SPDX-License-Identifier: Apache-2.0
#
# netsim fragment (included by the top Makefile, "block fragments" section): the network
# simulator build/bin/xtm-netsim (docs/netsim.md), its Check suite, scenario smokes and bench.

DEB_PKGS += libcjson-dev libinih-dev

NETSIM_VERSION := $(shell cat VERSION 2>/dev/null || echo 1.0.0)+$(shell git describe --always --dirty 2>/dev/null || echo nogit)
NETSIM_CORE := sim/netsim/netsim.c sim/netsim/scenario.c sim/netsim/tcp.c sim/netsim/tcp_cc.c
NETSIM_HDRS := sim/netsim/netsim.h sim/netsim/scenario.h sim/netsim/tcp.h
NETSIM_LIBS := $(LIBXTMFW) $(LIBXTM) $(LIBDCQCN)
NETSIM_LDLIBS := $(shell pkg-config --libs inih libcjson 2>/dev/null || echo -linih -lcjson) -lm

# The simulator compiles the two C models' sources itself, at -O3 and with link-time
# optimisation, instead of linking libxtm.a and libdcqcn.a (built at $(OPT)): the models
# are most of its time, and inlining their small accessors (xtm_cycle, dcqcn_cycle, ...)
# into the engine saves about 10 % of the instructions (docs/netsim.md 8). Same results.
# Portable: no -march. NETSIM_OPT= (empty) builds without LTO, e.g. for a compiler whose
# linker lacks the LTO plugin.
NETSIM_OPT ?= -flto=auto
NETSIM_MODEL_SRCS := $(XTM_SRCS) $(DCQCN_SRCS)
NETSIM_BIN_SRCS := sim/netsim/main.c sim/netsim/plot.c $(NETSIM_CORE) $(NETSIM_MODEL_SRCS)
NETSIM_BIN_FLAGS = $(CFLAGS) -O3 $(NETSIM_OPT) -DNETSIM_VERSION='"$(NETSIM_VERSION)"'
# Profile-guided (NETSIM_PGO=1, the default): sim/netsim/pgo.sh builds an instrumented
# binary, runs it on a fixed training set of short runs and compiles again with the counts
# (code layout, inlining and branch order; the same results, cli-pgo-same). About 5 % faster
# on the bench (docs/netsim.md 8); the build takes about 20 s longer. NETSIM_PGO=0: one pass.
NETSIM_PGO ?= 1
NETSIM_BIN_DEPS := $(NETSIM_BIN_SRCS) sim/netsim/plot.h $(NETSIM_HDRS) $(NETSIM_LIBS)
NETSIM_1PASS = $(CC) $(NETSIM_BIN_FLAGS) $(NETSIM_BIN_SRCS) -o $@ $(LIBXTMFW) $(NETSIM_LDLIBS)

$(BUILD)/bin/xtm-netsim: $(NETSIM_BIN_DEPS) sim/netsim/pgo.sh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
ifeq ($(NETSIM_PGO),1)
	CC='$(CC)' sim/netsim/pgo.sh $@ $(BUILD)/obj/netsim-pgo -- $(NETSIM_BIN_FLAGS) -- $(NETSIM_BIN_SRCS) -- \
	  $(LIBXTMFW) $(NETSIM_LDLIBS)
else
	$(NETSIM_1PASS)
endif

# the one-pass build, for make test's check that the profile changes no result (cli-pgo-same)
$(BUILD)/bin/xtm-netsim-1pass: $(NETSIM_BIN_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(NETSIM_1PASS)

$(BUILD)/tests/test_netsim: sim/netsim/tests/test_netsim.c $(NETSIM_CORE) $(NETSIM_HDRS) $(NETSIM_LIBS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) sim/netsim/tests/test_netsim.c $(NETSIM_CORE) -o $@ \
	  $(NETSIM_LIBS) $(CHECK_LIBS) $(NETSIM_LDLIBS)

.PHONY: netsim
## netsim: build build/bin/xtm-netsim, the network simulator (docs/netsim.md)
netsim: $(BUILD)/bin/xtm-netsim

TEST_DEPS += $(BUILD)/bin/xtm-netsim $(BUILD)/bin/xtm-netsim-1pass $(BUILD)/tests/test_netsim
TEST_ARGS += $(BUILD)/tests/test_netsim --shell sim/netsim/tests/test_cli.sh
# the plots and their checker (issue 20): needs dcqcn-trace too (cmodel/dcqcn/dcqcn.mk)
TEST_ARGS += --shell sim/netsim/tests/test_plots.sh
# policed-circuits (docs/netsim.md 4.5): hand-derived KPI facts and bad input
TEST_ARGS += --shell sim/netsim/tests/test_policed.sh

.PHONY: bench-netsim
## bench-netsim: the network simulator's speed
bench-netsim: $(BUILD)/bin/xtm-netsim
	@tools/stamp "bench-netsim: scale-across 500 km, load_bdp 1.0, final profile, 4 KB and 1 KB payload"
	sim/netsim/tests/bench.sh $(BUILD)/bin/xtm-netsim
BENCH_TARGETS += bench-netsim

# the TCP transport's Check suite (sim/netsim/tcp.c, tcp_cc.c; docs/netsim.md "TCP transport")
NETSIM_TCP_SRCS := sim/netsim/tcp.c sim/netsim/tcp_cc.c
$(BUILD)/tests/test_tcp: sim/netsim/tests/test_tcp.c $(NETSIM_TCP_SRCS) sim/netsim/tcp.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) sim/netsim/tests/test_tcp.c $(NETSIM_TCP_SRCS) -o $@ \
	  $(CHECK_LIBS) -lm
TEST_DEPS += $(BUILD)/tests/test_tcp
TEST_ARGS += $(BUILD)/tests/test_tcp
