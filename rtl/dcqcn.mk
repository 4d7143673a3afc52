# SPDX-License-Identifier: Apache-2.0
#
# RTL checks of rtl/dcqcn (STYLE rules 19 and 42), hooked into `make lint` / `make synth`.
#   make lint-dcqcn    verilator --lint-only -Wall on every dcqcn module and package as top
#                      (with the block's file list), the dcqcn_sva checker, and dcqcn_top with
#                      the assertion bind; zero warnings (waivers: rtl/lint/*.vlt)
#   make synth-dcqcn   Yosys 0.23 coarse-grained synthesis of dcqcn_top (part of make synth);
#                      fails on latches, prints the cell count
#   make synth-dcqcn-gates  the same through gate mapping and ABC (by hand)
#   make flops-dcqcn   flip-flop bits and RAM bits of dcqcn_top at 1024 QPs (Yosys, the RAM
#                      wrappers kept as memories): tools/dcqcn-flops; part of make bench

DCQCN_LINT_FLAGS := --lint-only -Wall --unroll-count 4096 --unroll-stmts 1000000 -Irtl/common \
  $(sort $(wildcard rtl/lint/*.vlt))
DCQCN_LINT_SRCS := $(shell cat rtl/dcqcn/dcqcn.f 2>/dev/null)

.PHONY: lint-dcqcn synth-dcqcn synth-dcqcn-gates flops-dcqcn
lint: lint-dcqcn
## lint-dcqcn: verilator -Wall lint of the dcqcn RTL (part of make lint)
lint-dcqcn: | $(DEPS_STAMP)
	@fail=0; n=0; \
	for f in $(DCQCN_LINT_SRCS); do \
	  top=$$(sed -n -E 's/^(module|package)[[:space:]]+([A-Za-z0-9_]+).*/\2/p' $$f | head -1); \
	  [ -n "$$top" ] || continue; \
	  n=$$((n+1)); \
	  if ! verilator $(DCQCN_LINT_FLAGS) --top-module $$top $(DCQCN_LINT_SRCS); then \
	    echo "[lint] FAIL $$top ($$f)"; fail=1; fi; \
	done; \
	n=$$((n+1)); \
	if ! verilator $(DCQCN_LINT_FLAGS) --top-module dcqcn_sva $(DCQCN_LINT_SRCS) \
	      rtl/dcqcn/dcqcn_sva.sv; then echo "[lint] FAIL dcqcn_sva"; fail=1; fi; \
	if ! verilator $(DCQCN_LINT_FLAGS) --top-module dcqcn_top $(DCQCN_LINT_SRCS) \
	      rtl/dcqcn/dcqcn_sva.sv rtl/dcqcn/dcqcn_bind.sv; then \
	  echo "[lint] FAIL dcqcn_top with dcqcn_bind"; fail=1; fi; \
	if [ $$fail = 0 ]; then echo "[lint] dcqcn: $$n modules/packages and dcqcn_top+bind clean"; fi; \
	exit $$fail

# The default configuration (64 QPs, 4 scan slots): RTL 2.0 keeps per-QP state in RAM
# wrappers, so the full configuration elaborates in a few minutes (version 1 needed a reduced
# 4-QP configuration). -defer: elaborate only the parameterisation hierarchy derives.
DCQCN_SYNTH_PARAMS ?= -chparam NumQps 64 -chparam ScanWidth 4
# Coarse-grained, as make synth for xtm: elaboration, processes with the latch check,
# FSM/memory/arithmetic extraction and optimisation. make synth-dcqcn-gates continues to
# gate mapping and ABC (the sign-off flow of the sign-off issue maps to a library).
DCQCN_SYNTH_STOP ?= -run begin:fine
synth: synth-dcqcn
## synth-dcqcn-gates: make synth-dcqcn continued to gate mapping and ABC
synth-dcqcn-gates:
	$(MAKE) synth-dcqcn DCQCN_SYNTH_STOP=
## synth-dcqcn: Yosys coarse synthesis of dcqcn_top (64 QPs, part of make synth)
synth-dcqcn: | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/synth
	@start=$$(date +%s); \
	$(YOSYS) -q -l $(BUILD)/synth/dcqcn_top.log -p " \
	  read_verilog -defer -sv -Irtl/common $(DCQCN_LINT_SRCS); \
	  hierarchy -top dcqcn_top $(DCQCN_SYNTH_PARAMS); \
	  synth -top dcqcn_top $(DCQCN_SYNTH_STOP); \
	  select -assert-none t:\$$dlatch t:\$$_DLATCH_*; \
	  tee -o $(BUILD)/synth/dcqcn_top.stat stat" || { tail -20 $(BUILD)/synth/dcqcn_top.log; exit 1; }; \
	end=$$(date +%s); \
	if grep -E "is implicitly declared|out of bounds on signal" $(BUILD)/synth/dcqcn_top.log; then \
	  echo "[synth] dcqcn_top: Yosys misread the RTL (warnings above)"; exit 1; fi; \
	grep "Number of cells" $(BUILD)/synth/dcqcn_top.stat | tail -1; \
	echo "[synth] dcqcn_top ($(DCQCN_SYNTH_PARAMS)): $$((end-start)) s, no latches, log $(BUILD)/synth/dcqcn_top.log"

# flip-flops and RAM bits at 1024 QPs (the issue's target: <= 40,000 flip-flop bits)
## flops-dcqcn: flip-flop and RAM bits of dcqcn at 1024 QPs (tools/dcqcn-flops)
flops-dcqcn: | $(DEPS_STAMP)
	tools/dcqcn-flops 1024 4
BENCH_TARGETS += flops-dcqcn
