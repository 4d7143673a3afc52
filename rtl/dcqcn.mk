# SPDX-License-Identifier: Apache-2.0
#
# RTL checks of rtl/dcqcn (STYLE rules 19 and 42), hooked into `make lint`.
#   make lint-dcqcn    verilator --lint-only -Wall on every dcqcn module and package as top
#                      (with the block's file list), the dcqcn_sva checker, and dcqcn_top with
#                      the assertion bind; zero warnings (waivers: rtl/lint/*.vlt)
#   make flops-dcqcn   flip-flop bits and RAM bits of dcqcn_top at 1024 QPs (Yosys, the RAM
#                      wrappers kept as memories): tools/dcqcn-flops; part of make bench
# Synthesis and timing of dcqcn_top: rtl/signoff.mk (make synth-dcqcn, make sta-dcqcn).

DCQCN_LINT_FLAGS := --lint-only -Wall --unroll-count 4096 --unroll-stmts 1000000 -Irtl/common \
  $(sort $(wildcard rtl/lint/*.vlt))
DCQCN_LINT_SRCS := $(shell cat rtl/dcqcn/dcqcn.f 2>/dev/null)

.PHONY: lint-dcqcn flops-dcqcn
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

# flip-flops and RAM bits at 1024 QPs (the issue's target: <= 40,000 flip-flop bits)
## flops-dcqcn: flip-flop and RAM bits of dcqcn at 1024 QPs (tools/dcqcn-flops)
flops-dcqcn: | $(DEPS_STAMP)
	@tools/stamp "flops-dcqcn: dcqcn_top NumQps=1024 ScanWidth=4, Yosys coarse"
	tools/dcqcn-flops 1024 4
BENCH_TARGETS += flops-dcqcn
