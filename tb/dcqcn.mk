# SPDX-License-Identifier: Apache-2.0
#
# Co-simulation of the dcqcn RTL against libdcqcn (SystemC testbench tb/dcqcn_tb.cpp).
#   make cosim-dcqcn                          the main job: random, 64 QPs, 10^6 cycles
#   make sim-dcqcn TEST=<t> SEED=<s> [QPS=64|1024] [WAVES=1] [CYCLES=n] [PLUSARGS=...]
#   make mutate-dcqcn                         RTL mutants that the co-simulation must catch
#   make sva-dcqcn                            injected faults that the assertions must catch
# Builds go to sim/build/dcqcn/ (64 QPs) and sim/build/dcqcn1k/ (1024 QPs), runs to
# sim/out/dcqcn-<test>.<seed>/ (sim/out/dcqcn1k-...).

DCQCN_VFLAGS := --cc --exe --build -j 2 --top-module dcqcn_top -Wno-fatal -Wno-lint -Wno-style \
  --unroll-count 4096 --unroll-stmts 1000000 --x-assign unique --x-initial unique --assert \
  --trace-fst --trace-structs -O3 --output-split 20000 -Irtl/common -f rtl/dcqcn/dcqcn.f \
  rtl/dcqcn/dcqcn_sva.sv rtl/dcqcn/dcqcn_bind.sv tb/dcqcn_public.vlt
# C++ optimisation of the testbench build (tools/mutate-dcqcn uses -O1: faster to build)
DCQCN_COPT ?= -O2
DCQCN_TB_SRCS := tb/dcqcn_tb.cpp tb/dcqcn_tests.cpp
DCQCN_RTL_SRCS := $(shell cat rtl/dcqcn/dcqcn.f 2>/dev/null) rtl/common/tm_assert.svh \
                  rtl/dcqcn/dcqcn_sva.sv rtl/dcqcn/dcqcn_bind.sv tb/dcqcn_public.vlt
DCQCN_SIM := sim/build/dcqcn/Vdcqcn_top
DCQCN_SIM_1K := sim/build/dcqcn1k/Vdcqcn_top
QPS ?= 64
DCQCN_SIM_SEL := $(if $(filter 1024,$(QPS)),$(DCQCN_SIM_1K),$(DCQCN_SIM))

# $(1) build folder, $(2) NumQps
define dcqcn_build
	@mkdir -p sim/build/$(1)
	@rm -f $@  # Verilator's own make does not relink when only libdcqcn changed
	$(VERILATOR) $(DCQCN_VFLAGS) -GNumQps=$(2) -Mdir sim/build/$(1) -o Vdcqcn_top \
	  -CFLAGS "-std=c++17 $(DCQCN_COPT) -I$(CURDIR) -DDCQCN_TB_QPS=$(2) -DDCQCN_TB_CFG=\\\"$(1)\\\"" \
	  -MAKEFLAGS "OPT_FAST=$(DCQCN_COPT)" -LDFLAGS "$(CURDIR)/$(LIBDCQCN) $(CURDIR)/$(LIBXTMNUM) -lsystemc" \
	  $(abspath $(DCQCN_TB_SRCS)) > sim/build/$(1).log 2>&1 || { tail -40 sim/build/$(1).log; exit 1; }
endef
DCQCN_TB_DEPS := $(DCQCN_TB_SRCS) tb/tb_common.h tb/dcqcn_tests.h tb/dcqcn_state.h tb/csr_edges.h rtl/dcqcn/autogen/dcqcn_csr_edges.h $(DCQCN_RTL_SRCS) $(LIBDCQCN) \
                 tools/lib/xtm_num.h $(LIBXTMNUM)
$(DCQCN_SIM): $(DCQCN_TB_DEPS) | $(DEPS_STAMP)
	$(call dcqcn_build,dcqcn,64)
$(DCQCN_SIM_1K): $(DCQCN_TB_DEPS) | $(DEPS_STAMP)
	$(call dcqcn_build,dcqcn1k,1024)

.PHONY: sim-dcqcn cosim-dcqcn wave-dcqcn mutate-dcqcn sva-dcqcn
## sim-dcqcn TEST=<t> SEED=<s> [QPS=64|1024] [WAVES=1] [CYCLES=n]: one dcqcn co-sim run
sim-dcqcn: $(DCQCN_SIM_SEL)
	$(DCQCN_SIM_SEL) +test=$(TEST) +seed=$(SEED) $(if $(CYCLES),+cycles=$(CYCLES)) \
	  $(if $(WAVES),+trace) $(PLUSARGS)

## cosim-dcqcn: the dcqcn main job: RTL vs libdcqcn in lockstep, 10^6 cycles
cosim-dcqcn: $(DCQCN_SIM)
	$(DCQCN_SIM) +test=random +seed=1 +cycles=1000000

## wave-dcqcn TEST=<t> SEED=<s> [QPS=1024]: open that dcqcn run's waves with sim/waves/dcqcn.gtkw
wave-dcqcn:
	@f=sim/out/$(if $(filter 1024,$(QPS)),dcqcn1k,dcqcn)-$(TEST).$(SEED)/waves.fst; \
	if [ ! -f $$f ]; then echo "no $$f: run make sim-dcqcn TEST=$(TEST) SEED=$(SEED) WAVES=1 first"; exit 1; fi; \
	echo "gtkwave $$f sim/waves/dcqcn.gtkw"; gtkwave $$f sim/waves/dcqcn.gtkw

## mutate-dcqcn: dcqcn RTL mutants (tools/mutate-dcqcn); caught N/M
mutate-dcqcn: $(DEPS_STAMP) $(LIBDCQCN)
	tools/mutate-dcqcn
mutate: mutate-dcqcn

# the bound assertions (rtl/dcqcn/dcqcn_sva.sv) must fire on injected faults
## sva-dcqcn: dcqcn assertions: each injected fault must fire its named assertion
sva-dcqcn: $(DEPS_STAMP) $(LIBDCQCN)
	tb/test_sva.sh dcqcn
mutate: sva-dcqcn

TEST_DEPS += $(DCQCN_SIM) $(DCQCN_SIM_1K)
# make test: every directed test once, random seeds (each <test>.<seed> exactly once), and
# the 1024-QP configuration briefly (smoke and random, outputs and state compared)
# (the registry's directed tests: tools/cosim-tests reads tb/dcqcn_tests.cpp)
DCQCN_DIRECTED := $(shell $(PYTHON) tools/cosim-tests dcqcn --directed)
dcqcn_cmd = $(DCQCN_SIM) +test=$(1) +seed=$(2)$(if $(3), +cycles=$(3)) +out=sim/out/ci-dcqcn-$(1).$(2)
TEST_ARGS += $(foreach t,$(DCQCN_DIRECTED),--cmd cosim-dcqcn-$(t).1 '$(call dcqcn_cmd,$(t),1,)')
TEST_ARGS += $(foreach s,1 2 3,--cmd cosim-dcqcn-random.$(s) '$(call dcqcn_cmd,random,$(s),200000)')
# issue 21: every legal-range edge (generated table) at 1024 QPs too (csr_edges and widths
# at 64 QPs are directed tests of the registry, run above with their own cycle counts)
dcqcn1k_cmd = $(DCQCN_SIM_1K) +test=$(1) +seed=$(2) +cycles=$(3) +out=sim/out/ci-dcqcn1k-$(1).$(2)
TEST_ARGS += --cmd cosim-dcqcn1k-csr_edges.1 '$(call dcqcn1k_cmd,csr_edges,1,20000)'
TEST_ARGS += --cmd cosim-dcqcn1k-smoke.1 '$(call dcqcn1k_cmd,smoke,1,30000)'
TEST_ARGS += --cmd cosim-dcqcn1k-random.1 '$(call dcqcn1k_cmd,random,1,100000)'
# bad command lines (issue 14): strict numbers, no shell in +out, unwritable traces
TEST_ARGS += --shell tb/test_dcqcn_tb_cli.sh
# the saved wave view names only signals that exist in the FST of the 64-QP build
TEST_ARGS += --shell tb/test_dcqcn_gtkw.sh

# make bench: the co-simulation's speed at 64 and 1024 QPs and its instructions per cycle
DEB_PKGS += valgrind
.PHONY: bench-dcqcn-cosim
## bench-dcqcn-cosim: dcqcn co-sim speed at 64 and 1024 QPs, instructions per cycle
bench-dcqcn-cosim: $(DCQCN_SIM) $(DCQCN_SIM_1K)
	@tools/stamp "bench-dcqcn-cosim: dcqcn co-sim, 64 and 1024 QPs, test random seed 1"
	tools/bench-dcqcn-cosim
BENCH_TARGETS += bench-dcqcn-cosim
