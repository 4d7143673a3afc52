# SPDX-License-Identifier: Apache-2.0
#
# RTL checks of rtl/dcqcn (STYLE rules 19 and 42), hooked into `make lint` / `make synth`.
#   make lint-dcqcn    verilator --lint-only -Wall on every dcqcn module and package standalone,
#                      the dcqcn_sva checker, and dcqcn_top with the assertion bind; zero
#                      warnings (waivers: rtl/lint/*.vlt)
#   make synth-dcqcn   Yosys 0.23 coarse-grained synthesis of a reduced dcqcn_top (part
#                      of make synth); fails on latches, prints the cell count
#   make synth-dcqcn-gates  the same through gate mapping and ABC (slow, by hand)

DCQCN_LINT_FLAGS := --lint-only -Wall --unroll-count 4096 --unroll-stmts 1000000 -Irtl/common \
  $(sort $(wildcard rtl/lint/*.vlt))
DCQCN_LINT_PKGS := rtl/dcqcn/autogen/dcqcn_reg_pkg.sv rtl/dcqcn/dcqcn_pkg.sv
DCQCN_LINT_SRCS := $(shell cat rtl/dcqcn/dcqcn.f 2>/dev/null)

.PHONY: lint-dcqcn synth-dcqcn synth-dcqcn-gates
lint: lint-dcqcn
lint-dcqcn: | $(DEPS_STAMP)
	@fail=0; n=0; \
	for f in $(DCQCN_LINT_SRCS); do \
	  top=$$(sed -n -E 's/^(module|package)[[:space:]]+([A-Za-z0-9_]+).*/\2/p' $$f | head -1); \
	  [ -n "$$top" ] || continue; \
	  deps=$$(for p in $(DCQCN_LINT_PKGS); do [ $$p = $$f ] || echo $$p; done); \
	  [ $$top = dcqcn_top ] && deps="$$deps rtl/dcqcn/dcqcn_core.sv"; \
	  n=$$((n+1)); \
	  if ! verilator $(DCQCN_LINT_FLAGS) --top-module $$top $$deps $$f; then \
	    echo "[lint] FAIL $$top ($$f)"; fail=1; fi; \
	done; \
	n=$$((n+1)); \
	if ! verilator $(DCQCN_LINT_FLAGS) --top-module dcqcn_sva $(DCQCN_LINT_PKGS) \
	      rtl/dcqcn/dcqcn_sva.sv; then echo "[lint] FAIL dcqcn_sva"; fail=1; fi; \
	if ! verilator $(DCQCN_LINT_FLAGS) --top-module dcqcn_top $(DCQCN_LINT_SRCS) \
	      rtl/dcqcn/dcqcn_sva.sv rtl/dcqcn/dcqcn_bind.sv; then \
	  echo "[lint] FAIL dcqcn_top with dcqcn_bind"; fail=1; fi; \
	if [ $$fail = 0 ]; then echo "[lint] dcqcn: $$n modules/packages and dcqcn_top+bind clean"; fi; \
	exit $$fail

# Reduced configuration: 4 QPs, 2 scan slots (the default 64 QPs hold 64 x 412 bits of QP
# state and 320 64-bit counters as flops, beyond what generic synthesis does in minutes).
# -defer: without it read_verilog first elaborates dcqcn_core with its default 64 QPs (about
# a minute of AST work, thrown away once hierarchy derives the reduced module).
# -noshare: the SAT-based SHARE pass did not finish in 15 minutes on this datapath.
DCQCN_SYNTH_PARAMS ?= -chparam NumQps 4 -chparam ScanWidth 2
# Coarse-grained, as make synth for xtm: elaboration, processes with the latch check,
# FSM/memory/arithmetic extraction and optimisation (synthesizability and a coarse cell
# count; the dividers, multipliers and wide shifters stay single $div/$macc/$shift cells).
# Measured: 1161 cells, 66-76 s of CPU; 76 s wall, 6 minutes while other builds shared the
# 2 cores.
# The fine-grained flow (make synth-dcqcn-gates) did not finish within 20 minutes: TECHMAP
# alone, expanding those cells into gates, took 18 of them, before ABC. Own variable, so
# that make synth-gates (SYNTH_STOP=) keeps the coarse flow here.
DCQCN_SYNTH_STOP ?= -run begin:fine
synth: synth-dcqcn
synth-dcqcn-gates:
	$(MAKE) synth-dcqcn DCQCN_SYNTH_STOP=
synth-dcqcn: | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/synth
	@start=$$(date +%s); \
	$(YOSYS) -q -l $(BUILD)/synth/dcqcn_top.log -p " \
	  read_verilog -defer -sv -Irtl/common $(DCQCN_LINT_SRCS); \
	  hierarchy -top dcqcn_top $(DCQCN_SYNTH_PARAMS); \
	  synth -top dcqcn_top -noshare $(DCQCN_SYNTH_STOP); \
	  select -assert-none t:\$$dlatch t:\$$_DLATCH_*; \
	  tee -o $(BUILD)/synth/dcqcn_top.stat stat" || { tail -20 $(BUILD)/synth/dcqcn_top.log; exit 1; }; \
	end=$$(date +%s); \
	grep "Number of cells" $(BUILD)/synth/dcqcn_top.stat | tail -1; \
	echo "[synth] dcqcn_top ($(DCQCN_SYNTH_PARAMS)): $$((end-start)) s, no latches, log $(BUILD)/synth/dcqcn_top.log"
