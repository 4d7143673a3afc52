# SPDX-License-Identifier: Apache-2.0
#
# RTL checks (STYLE rules 19 and 42).
#   make lint    verilator --lint-only -Wall on every module and package of rtl/xtm and
#                rtl/common standalone, then on xtm_top with the assertion bind; zero warnings
#   (make synth / sta / iverilog: rtl/signoff.mk)
# Waivers live in rtl/lint/*.vlt only, each with its reason.

VERILATOR ?= verilator
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

# make synth, make sta, make iverilog: rtl/signoff.mk (docs/synthesis.md)

TEST_ARGS += --cmd lint 'make -s lint'

# flip-flops and RAM bits at 8x8x4096 (issue 11's target: <= 60,000 flip-flop bits)
.PHONY: flops-xtm
## flops-xtm: flip-flop bits and RAM list of xtm at 8x8x4096, Yosys coarse (tools/rtl-flops)
flops-xtm: | $(DEPS_STAMP)
	@tools/stamp "flops-xtm: xtm_top NumPorts=8 NumTcs=8 NumDesc=4096, Yosys coarse"
	tools/rtl-flops xtm
BENCH_TARGETS += flops-xtm
