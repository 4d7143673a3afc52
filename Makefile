# SPDX-License-Identifier: Apache-2.0
#
# xtm top-level Makefile. `make help` lists the targets; README.md explains them.
# Build outputs go to build/ (never committed). Generated sources live in autogen/ folders
# and are committed; `make regs-check` fails when they drift from their TOML source.

SHELL := /bin/bash
.DEFAULT_GOAL := help

BUILD   ?= build
CC      ?= gcc
PYTHON  ?= python3
OPT     ?= -O2
CSTD    := -std=c11 -Wall -Wextra -Werror -pedantic
CFLAGS  += $(CSTD) $(OPT) -g -I. -MMD -MP
LDLIBS  += -lm

# ---------------------------------------------------------------- dependencies
# Debian 12 packages the project needs. `make deps` installs the missing ones when run as
# root and otherwise prints the exact command. Every target that needs them depends on it.
DEB_PKGS := verilator libsystemc-dev check gtkwave yosys gnuplot-nox lcov pkg-config
DEPS_STAMP := $(BUILD)/.deps-ok

.PHONY: deps
## deps: install the missing Debian packages (as root) or print the apt-get line
deps: $(DEPS_STAMP)
# re-checked whenever a fragment (which may add packages) changes
$(DEPS_STAMP): Makefile $(wildcard cmodel/*/*.mk firmware/*.mk tb/*.mk sim/*.mk sim/*/*.mk rtl/*.mk rtl/*/*.mk tests/regress/*.mk)
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "[deps] installing:$$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing || exit 1; \
	  else \
	    echo "[deps] missing Debian packages. Run:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	else echo "[deps] all Debian packages present"; fi
	@mkdir -p $(BUILD) && touch $@

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

# ---------------------------------------------------------------- register map
REGTOOL   := $(PYTHON) tools/regtool/regtool.py
REGS_TOML := rtl/xtm/data/xtm_regs.toml
REGS_ARGS := $(REGS_TOML) --sv-out rtl/xtm/autogen --c-out rtl/xtm/autogen --doc-out docs/registers.md

.PHONY: regs regs-check
# other blocks: rtl/<blk>/data/<blk>_regs.toml -> rtl/<blk>/autogen, docs/registers-<blk>.md
regs_args = $(1) --sv-out $(dir $(1))../autogen --c-out $(dir $(1))../autogen \
            --doc-out docs/registers-$(patsubst %_regs.toml,%,$(notdir $(1))).md
## regs: regenerate every register output from rtl/<blk>/data/<blk>_regs.toml
regs:
	$(REGTOOL) $(REGS_ARGS)
	$(foreach t,$(REGS_BLOCKS),$(REGTOOL) $(call regs_args,$(t)) &&) true
## regs-check: fail with a diff if committed register outputs drift from the TOML
regs-check:
	@$(REGTOOL) $(REGS_ARGS) --check
	@$(foreach t,$(REGS_BLOCKS),$(REGTOOL) $(call regs_args,$(t)) --check &&) true

# ---------------------------------------------------------------- C model
XTM_SRCS := cmodel/xtm/xtm.c cmodel/xtm/xtm_csr.c cmodel/xtm/xtm_profile.c \
            cmodel/xtm/xtm_introspect.c rtl/xtm/autogen/xtm_regs_table.c
XTM_OBJS := $(XTM_SRCS:%.c=$(BUILD)/obj/%.o)
LIBXTM   := $(BUILD)/lib/libxtm.a

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBXTM): $(XTM_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

.PHONY: cmodel
## cmodel: build the C models (libxtm, libdcqcn)
cmodel: $(LIBXTM)

# ---------------------------------------------------------------- strict number parser
# tools/lib/xtm_num: the one number parser of every tool (whole string, range checked,
# integers where an integer is meant; docs/firmware.md section 9). Also part of libxtmfw
# (firmware/firmware.mk), which the configuration compiler uses.
NUM_SRCS  := tools/lib/xtm_num.c
LIBXTMNUM := $(BUILD)/lib/libxtmnum.a

$(LIBXTMNUM): $(NUM_SRCS:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# ---------------------------------------------------------------- unit tests (Check)
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# the shared test helpers are compiled once and linked into every suite
UNIT_COMMON := $(BUILD)/obj/tests/unit/xtm_testlib.o

$(UNIT_COMMON): tests/unit/xtm_testlib.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(UNIT_COMMON) $(LIBXTM) $(LIBXTMNUM) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) $< $(UNIT_COMMON) -o $@ $(LIBXTM) $(LIBXTMNUM) $(CHECK_LIBS) $(LDLIBS)


.PHONY: unit
## unit: only the Check suites of the C models
unit: $(UNIT_BINS)
	@tools/run-tests $(UNIT_BINS)

# ---------------------------------------------------------------- tools: demo, bench
$(BUILD)/bin/%: tools/%.c $(LIBXTM) $(LIBXTMNUM)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LIBXTM) $(LIBXTMNUM) $(LDLIBS)

.PHONY: demo bench
## demo: the C model alone: a 4:1 incast with PFC-obeying senders, counters printed
demo: $(BUILD)/bin/xtm-demo
	$(BUILD)/bin/xtm-demo

## bench: every benchmark: C models, RTL, co-sims, DPI, netsim (rates)
bench: bench-stamp bench-xtm $(BENCH_TARGETS)
	@tools/stamp "make bench: $(strip bench-xtm $(BENCH_TARGETS))"
# the stamp first too, so a partial bench log says what it measured
.PHONY: bench-stamp
bench-stamp:
	@tools/stamp "make bench (xtm C model 8x8x4096 default parameters; co-sims per benchmark below)"
.PHONY: bench-xtm
## bench-xtm: the xtm C model's speed: cycles/s, packets/s, peak memory
bench-xtm: $(BUILD)/bin/xtm-bench
	@tools/stamp "bench-xtm: xtm C model, 8 ports x 8 TCs x 4096 descriptors (default parameters)"
	$(BUILD)/bin/xtm-bench

# ---------------------------------------------------------------- block fragments
# Each block or tool area adds its own rules in a fragment (cmodel/dcqcn/dcqcn.mk,
# firmware/firmware.mk, tb/tb.mk, ...). A fragment may append to:
#   DEB_PKGS     Debian packages it needs (installed by make deps)
#   TEST_DEPS    files `make test` must build first
#   TEST_ARGS    arguments to tools/run-tests (--cmd NAME 'CMD', --shell SCRIPT, BINARY)
#   BENCH_TARGETS phony targets `make bench` runs after the C model benchmark
#   REGS_BLOCKS  extra register sources: each entry is a TOML path; outputs go to
#                rtl/<blk>/autogen and docs/registers-<blk>.md
TEST_DEPS  :=
TEST_ARGS  :=
BENCH_TARGETS :=
REGS_BLOCKS :=
MK_FRAGMENTS := $(sort $(wildcard cmodel/*/*.mk firmware/*.mk tb/*.mk sim/*.mk sim/*/*.mk rtl/*.mk)) \
                $(wildcard tests/regress/regress.mk)
-include $(MK_FRAGMENTS)

# ---------------------------------------------------------------- test (CI runs this)
.PHONY: test
## test: every test (what CI runs); ends with 'N passed, N failed'
test: test-clock $(DEPS_STAMP) $(UNIT_BINS) $(BUILD)/bin/xtm-demo $(BUILD)/bin/xtm-bench $(TEST_DEPS)
	@echo "[test] builds took $$(( $$(date +%s) - $$(cat $(BUILD)/.test-start) )) s wall"
	@tools/run-tests --regs-check --shell tests/regtool/test_regtool.sh \
	  --shell tools/tests/test_check_readme.sh --shell tools/tests/test_format_check.sh \
	  --shell tools/tests/test_wave_time_check.sh --shell tools/tests/test_testplan.sh \
  --shell tools/tests/test_func_lengths.sh \
	  --cmd bench-stamps tools/bench-stamps --shell tools/tests/test_bench_stamps.sh \
	  --shell tools/mutate-cmodel \
	  --cmd demo-smoke '$(BUILD)/bin/xtm-demo --us 300' \
	  --cmd bench-modes-agree '$(BUILD)/bin/xtm-bench --cycles 3000000' \
	  $(UNIT_BINS) $(TEST_ARGS)

# the first prerequisite of test (make runs them in order without -j): when the builds began
.PHONY: test-clock
test-clock:
	@mkdir -p $(BUILD) && date +%s > $(BUILD)/.test-start

# ---------------------------------------------------------------- C/C++ formatting
# make lint also checks clang-format (the repository's .clang-format) on every tracked C/C++
# file but the generated ones and those tools/format-pending lists; make format fixes them
DEB_PKGS += clang-format
.PHONY: lint-format format
## lint-format: clang-format check of the C/C++ sources (part of make lint)
lint-format: | $(DEPS_STAMP)
	@tools/format-check
lint: lint-format
## format: reformat the C/C++ sources in place with clang-format
format: | $(DEPS_STAMP)
	@tools/format-check --fix

# the files issue 17 split into functions of one step each stay that way: make lint fails on
# a function over 120 lines in them (tools/func-lengths, Universal Ctags' line ranges)
DEB_PKGS += universal-ctags
FUNC_LEN_FILES := firmware/cos/xtm_cos.c firmware/cos/cos_police.c sim/netsim/main.c sim/netsim/scenario.c cmodel/xtm/xtm.c \
  sim/netsim/tcp.c sim/netsim/tcp_cc.c
.PHONY: lint-func-lengths
## lint-func-lengths: no function over 120 lines in the firmware compiler, netsim and C model (make lint)
lint-func-lengths: | $(DEPS_STAMP)
	@$(PYTHON) tools/func-lengths --top 1 --max 120 $(FUNC_LEN_FILES) >/dev/null
	@echo "[lint] functions: none over 120 lines in $(words $(FUNC_LEN_FILES)) files"
lint: lint-func-lengths

# every single-point bug in tools/mutate-cmodel must make a unit suite fail
.PHONY: mutate-cmodel
## mutate-cmodel: single-point bugs in a copy of the C model; each must fail a Check suite
mutate-cmodel: $(DEPS_STAMP)
	tools/mutate-cmodel

.PHONY: clean
## clean: remove build/ (co-sim builds are in sim/build/)
clean:
	rm -rf $(BUILD)

.PHONY: help
## help: this list (the default target), from the ## lines of the Makefile fragments
help:
	@$(PYTHON) tools/make-help Makefile $(MK_FRAGMENTS)

-include $(shell find $(BUILD)/obj $(BUILD)/tests $(BUILD)/bin -name '*.d' 2>/dev/null)
