# SPDX-License-Identifier: Apache-2.0
#
# RTL checks (STYLE rules 19 and 42).
#   make lint    verilator --lint-only -Wall on every module and package of rtl/xtm and
#                rtl/common standalone, then on xtm_top with the assertion bind; zero warnings
#   make synth   Yosys 0.23 generic synthesis of a reduced xtm_top; fails on latches, prints
#                the cell count
# Waivers live in rtl/lint/*.vlt only, each with its reason.

VERILATOR ?= verilator
YOSYS ?= yosys
LINT_VLT := $(sort $(wildcard rtl/lint/*.vlt))
# 5.006 needs the unroll limits to elaborate non-blocking writes to arrays in loops (tb/tb.mk)
LINT_FLAGS := --lint-only -Wall --unroll-count 4096 --unroll-stmts 1000000 -Irtl/common -y rtl/xtm \
  -y rtl/xtm/autogen -y rtl/common \
  $(LINT_VLT)
# packages every module may reference, in dependency order
LINT_PKGS := rtl/xtm/autogen/xtm_reg_pkg.sv rtl/xtm/xtm_pkg.sv
# xtm_sva reads the blocks by upward hierarchical names (u_qmgr.occ_q, ...): it only
# elaborates bound into xtm_core, so it is linted with xtm_top + the bind below
LINT_SRCS := $(sort $(filter-out rtl/xtm/xtm_sva.sv rtl/xtm/xtm_bind.sv,\
               $(wildcard rtl/xtm/*.sv rtl/xtm/autogen/*.sv rtl/common/*.sv)))

.PHONY: lint
## lint: verilator -Wall lint of every RTL module and top, and clang-format of the C/C++
lint: | $(DEPS_STAMP)
	@fail=0; n=0; \
	for f in $(LINT_SRCS); do \
	  top=$$(sed -n -E 's/^(module|package)[[:space:]]+([A-Za-z0-9_]+).*/\2/p' $$f | head -1); \
	  [ -n "$$top" ] || continue; \
	  deps=$$(for p in $(LINT_PKGS); do [ $$p = $$f ] || echo $$p; done); \
	  n=$$((n+1)); \
	  if ! $(VERILATOR) $(LINT_FLAGS) --top-module $$top $$deps $$f; then \
	    echo "[lint] FAIL $$top ($$f)"; fail=1; fi; \
	done; \
	if ! $(VERILATOR) $(LINT_FLAGS) --top-module xtm_top -f rtl/xtm/xtm.f \
	      rtl/xtm/xtm_sva.sv rtl/xtm/xtm_bind.sv; then \
	  echo "[lint] FAIL xtm_top with xtm_bind"; fail=1; fi; \
	if [ $$fail = 0 ]; then echo "[lint] $$n modules/packages and xtm_top+bind: clean"; fi; \
	exit $$fail

# Reduced configuration: the full 8x8x4096 state is far beyond what generic synthesis handles
# in minutes. -defer matters: without it read_verilog elaborates xtm_core with its default
# 8x8x4096 parameters first (every state array becomes registers) and never finishes.
# -noshare: the SAT-based SHARE pass ran for over 10 minutes without finishing on 2 cores.
SYNTH_PARAMS ?= -chparam NumPorts 2 -chparam NumTcs 2 -chparam NumDesc 64 -chparam FifoDepth 2 \
                -chparam OcbCells 4096 -chparam HbmCells 65536
# make synth stops after coarse-grained synthesis (elaboration, processes with the latch
# check, FSM/memory/arithmetic extraction and optimisation: synthesizability and a coarse
# cell count). make synth-gates runs the fine-grained mapping and ABC too; on the 64-bit
# profile multipliers that did not finish within 15 minutes on the loaded 2-core machine.
SYNTH_STOP ?= -run begin:fine
SYNTH_DIR := $(BUILD)/synth
SYNTH_SRCS := $(shell cat rtl/xtm/xtm.f 2>/dev/null)

.PHONY: synth synth-gates
## synth-gates: make synth continued to gate mapping and ABC (slow)
synth-gates:
	$(MAKE) synth SYNTH_STOP=
## synth: Yosys coarse synthesis of a reduced xtm and of dcqcn; latch check, cell count
synth: | $(DEPS_STAMP)
	@mkdir -p $(SYNTH_DIR)
	@start=$$(date +%s); \
	$(YOSYS) -q -l $(SYNTH_DIR)/xtm_top.log -p " \
	  read_verilog -defer -sv -Irtl/common $(SYNTH_SRCS); \
	  hierarchy -top xtm_top $(SYNTH_PARAMS); \
	  synth -top xtm_top -noshare $(SYNTH_STOP); \
	  select -assert-none t:\$$dlatch t:\$$_DLATCH_*; \
	  tee -o $(SYNTH_DIR)/xtm_top.stat stat" || { tail -20 $(SYNTH_DIR)/xtm_top.log; exit 1; }; \
	end=$$(date +%s); \
	grep -m1 "Number of cells" $(SYNTH_DIR)/xtm_top.stat; \
	echo "[synth] xtm_top ($(SYNTH_PARAMS)): $$((end-start)) s, log $(SYNTH_DIR)/xtm_top.log"

TEST_ARGS += --cmd lint 'make -s lint'
