# SPDX-License-Identifier: Apache-2.0
#
# Co-simulation of the xtm RTL against the C model (SystemC testbench in tb/).
#   make cosim                         the main job: incast, 10^6 cycles, summary
#   make sim TEST=<t> SEED=<s> [CFG=default|small|large] [WAVES=1] [CYCLES=n] [PLUSARGS=...]
#   make wave TEST=<t> SEED=<s>        open that run's FST with sim/waves/xtm.gtkw
#   make lint                          verilator -Wall on every module and the top
#   make fw-cosim CONF=<conf>          firmware bring-up on the RTL vs the C model (docs/cosim.md)
# Builds go to sim/build/<cfg>/, runs to sim/out/<test>.<seed>/.

VERILATOR ?= verilator
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1
CFG ?= default
TEST ?= smoke
SEED ?= 1
CYCLES ?=
WAVES ?=
PLUSARGS ?=

# configurations: name -> parameters
CFG_PARAMS_default := -GNumPorts=8 -GNumTcs=8 -GNumDesc=4096
CFG_DEFS_default   := -DXTM_TB_PORTS=8 -DXTM_TB_TCS=8 -DXTM_TB_DESC=4096 -DXTM_TB_CFG=\\\"default\\\"
CFG_PARAMS_small   := -GNumPorts=2 -GNumTcs=2 -GNumDesc=64
CFG_DEFS_small     := -DXTM_TB_PORTS=2 -DXTM_TB_TCS=2 -DXTM_TB_DESC=64 -DXTM_TB_CFG=\\\"small\\\"
# a router line card: 32 ports x 8 TCs x 65,536 descriptors (issue 11)
CFG_PARAMS_large   := -GNumPorts=32 -GNumTcs=8 -GNumDesc=65536
CFG_DEFS_large     := -DXTM_TB_PORTS=32 -DXTM_TB_TCS=8 -DXTM_TB_DESC=65536 -DXTM_TB_CFG=\\\"large\\\"
# issue 21: the 28-bit cell counts at their top, 2^28 - 1 (spec 5.1): 2^20 descriptors,
# 64-byte cells, the whole capacity on chip (OcbCells + HbmCells <= 2^28 - 1); cells_top and
# hdrm_top run here only
CFG_PARAMS_wide    := -GNumPorts=2 -GNumTcs=2 -GNumDesc=1048576 -GCellBytes=64 -GOcbCells=268435455 -GHbmCells=0
CFG_DEFS_wide      := -DXTM_TB_PORTS=2 -DXTM_TB_TCS=2 -DXTM_TB_DESC=1048576 -DXTM_TB_CELL=64 -DXTM_TB_OCB=268435455u -DXTM_TB_HBM=0 -DXTM_TB_CFG=\\\"wide\\\"
# the same with the capacity in HBM: OcbCells 1 + HbmCells 2^28 - 2 (hbm_top)
CFG_PARAMS_widehbm := -GNumPorts=2 -GNumTcs=2 -GNumDesc=1048576 -GCellBytes=64 -GOcbCells=1 -GHbmCells=268435454
CFG_DEFS_widehbm   := -DXTM_TB_PORTS=2 -DXTM_TB_TCS=2 -DXTM_TB_DESC=1048576 -DXTM_TB_CELL=64 -DXTM_TB_OCB=1u -DXTM_TB_HBM=268435454u -DXTM_TB_CFG=\\\"widehbm\\\"
# make bench-cosim: the default configuration built from clean in its own folder, timed
CFG_PARAMS_benchclean := $(CFG_PARAMS_default)
CFG_DEFS_benchclean   := $(CFG_DEFS_default)

# --trace-max-array 256: per-VOQ and per-PG register arrays (64 at default, 256 at large) are
# in the waves (sim/waves/xtm.gtkw); Verilator's default of 32 would leave them out. The
# descriptor RAMs (4096 and more rows) stay out of the FST.
# C++ optimisation of the Verilated model: OPT_FAST (Verilator's default -Os) is overridden,
# -O2 runs the unrolled RTL about 25 % faster (make bench-cosim); mutants build with -O0
VL_OPT ?= -O2
# the bound assertions; set before VERILATOR_FLAGS, which := expands at once (with the ?=
# after it the co-simulation builds had no assertions at all)
XTM_SVA_SRCS ?= rtl/xtm/xtm_sva.sv rtl/xtm/xtm_bind.sv
VERILATOR_FLAGS := --cc --exe --build -j 2 --top-module xtm_top -Wno-fatal -Wno-lint -Wno-style \
  --unroll-count 4096 --unroll-stmts 1000000 --x-assign unique --x-initial unique --assert \
  --trace-fst --trace-structs --trace-max-array 256 -O3 --output-split 20000 \
  -Irtl/common -f rtl/xtm/xtm.f $(XTM_SVA_SRCS)

TB_SRCS := tb/xtm_tb.cpp tb/xtm_tests.cpp
RTL_SRCS := $(shell cat rtl/xtm/xtm.f 2>/dev/null) rtl/common/tm_assert.svh $(XTM_SVA_SRCS)

# GCC profile-guided optimisation of the co-simulation (issue 11; docs/cosim.md, "Speed"):
# Verilator generates the model, make compiles its fast-path objects (the model's per-cycle
# code, the testbench: OPT_FAST) instrumented (-fprofile-generate), the binary runs
# PGO_TRAIN (incast with the RTL alone, incast and random with the state compared: seeded,
# so the profile and the binary are the same on every build), and make compiles the same
# objects again with the profile (-fprofile-use). The objects of the slow path (OPT_SLOW,
# start-up and waves set-up) and Verilator's run-time library (OPT_GLOBAL) are compiled
# once, without it. The profile (*.gcda) is a build output in the build folder, never
# committed. Only for the -O2 builds (mutants build with VL_OPT=-O0); VL_PGO=0 turns it off.
VL_PGO ?= 1
PGO_ON := $(and $(filter 1,$(VL_PGO)),$(filter -O2,$(VL_OPT)))
PGO_TRAIN := '+test=incast +seed=1 +cycles=100000 +rtl_only' \
  '+test=incast +seed=1 +cycles=20000' '+test=random +seed=1 +cycles=20000'
PGO_USE := -fprofile-use -fprofile-correction -Wno-missing-profile
# the fast-path objects of a build folder (shell; run in the folder)
PGO_FAST_OBJS := $$(ls *.o 2>/dev/null | grep -v -e Slow -e ConstPool -e Syms -e '^verilated')
vl_cmd = $(VERILATOR) $(1) $(CFG_PARAMS_$(2)) -Mdir sim/build/$(2) -o Vxtm_top \
	  -CFLAGS "-std=c++17 $(VL_OPT) -I$(CURDIR) $(CFG_DEFS_$(2))" -MAKEFLAGS "OPT_FAST=$(VL_OPT)" \
	  -LDFLAGS "$(CURDIR)/$(LIBXTMFW) $(CURDIR)/$(LIBXTM) $(CURDIR)/$(LIBDCQCN) -lsystemc" \
	  $(abspath $(TB_SRCS)) > sim/build/$(2).log 2>&1 || { tail -40 sim/build/$(2).log; exit 1; }
vl_make = $(MAKE) -j 2 -C sim/build/$(1) -f Vxtm_top.mk $(2) Vxtm_top >> sim/build/$(1).log 2>&1 || \
	  { tail -40 sim/build/$(1).log; exit 1; }

# firmware mode (+fw=<conf>) links the firmware (libxtmfw: driver, compiler, host writers;
# its host part references the dcqcn C model, hence libdcqcn)
sim/build/%/Vxtm_top: $(TB_SRCS) tb/tb_common.h tb/xtm_tests.h tb/xtm_fcov.h tb/xtm_probe.h tb/csr_edges.h rtl/xtm/autogen/xtm_csr_edges.h $(RTL_SRCS) $(LIBXTM) $(LIBXTMFW) $(LIBDCQCN) | $(DEPS_STAMP)
	@mkdir -p sim/build/$*
	@rm -f $@  # Verilator's own make does not relink when only the C model's libraries changed
ifeq ($(PGO_ON),)
	$(call vl_cmd,$(VERILATOR_FLAGS),$*)
else
	@cd sim/build/$* && rm -f $(PGO_FAST_OBJS) *.gcda  # (objects of an earlier pass)
	$(call vl_cmd,$(filter-out --build,$(VERILATOR_FLAGS)),$*)
	$(call vl_make,$*,"OPT_FAST=$(VL_OPT) -fprofile-generate" USER_LDFLAGS=-fprofile-generate)
	@for a in $(PGO_TRAIN); do \
	  echo "pgo training: $$a" >> sim/build/$*.log; \
	  sim/build/$*/Vxtm_top $$a +out=sim/build/$*/pgo-train >> sim/build/$*.log 2>&1 || true; \
	done
	@cd sim/build/$* && rm -f $(PGO_FAST_OBJS) Vxtm_top
	$(call vl_make,$*,"OPT_FAST=$(VL_OPT) $(PGO_USE)")
endif

.PHONY: sim cosim wave cosim-build fw-cosim
## cosim-build: build the xtm co-sim of the small, default, large, wide and widehbm configurations
cosim-build: sim/build/default/Vxtm_top sim/build/small/Vxtm_top sim/build/large/Vxtm_top sim/build/wide/Vxtm_top sim/build/widehbm/Vxtm_top

## sim TEST=<t> SEED=<s> [CFG=small|default|large|wide|widehbm] [WAVES=1] [CYCLES=n]: one xtm co-sim run
sim: sim/build/$(CFG)/Vxtm_top
	sim/build/$(CFG)/Vxtm_top +test=$(TEST) +seed=$(SEED) $(if $(CYCLES),+cycles=$(CYCLES)) \
	  $(if $(WAVES),+trace) $(PLUSARGS)

## cosim: the main job: xtm RTL vs C model in lockstep, 10^6 cycles of a 4:1 incast
cosim: sim/build/default/Vxtm_top
	sim/build/default/Vxtm_top +test=incast +seed=1 +cycles=1000000

# the same firmware bring-up on the C model (xtmctl apply) and on the RTL (firmware mode):
# traces and register dumps must be identical (tb/test_fw_cosim.sh)
CONF ?= firmware/examples/roce-lab-6g-ecn.conf
## fw-cosim [CONF=<conf>]: firmware bring-up on the RTL and on the C model: traces must match
fw-cosim: sim/build/default/Vxtm_top $(BUILD)/bin/xtmctl
	tb/test_fw_cosim.sh $(CONF)

## wave TEST=<t> SEED=<s>: open that run's waves.fst in GTKWave with sim/waves/xtm.gtkw
wave:
	@f=sim/out/$(TEST).$(SEED)/waves.fst; \
	if [ ! -f $$f ]; then echo "no $$f: run make sim TEST=$(TEST) SEED=$(SEED) WAVES=1 first"; exit 1; fi; \
	echo "gtkwave $$f sim/waves/xtm.gtkw"; gtkwave $$f sim/waves/xtm.gtkw

TEST_DEPS += sim/build/default/Vxtm_top sim/build/small/Vxtm_top sim/build/large/Vxtm_top sim/build/wide/Vxtm_top sim/build/widehbm/Vxtm_top

# make test: every directed test and random seeds on the small configuration (it finds
# corner cases fastest), a subset and random seeds on the default 8x8 configuration
# (the directed tests are the registry's: tools/cosim-tests reads tb/xtm_tests.cpp)
COSIM_DIRECTED := $(shell $(PYTHON) tools/cosim-tests xtm --directed)
cosim_cmd = sim/build/$(1)/Vxtm_top +test=$(2) +seed=$(3) +cycles=$(4) +out=sim/out/ci-$(1)-$(2).$(3)
# (csr_edges and widths: below, with the cycles they need and in every configuration;
# cells_top and hdrm_top: below, on CFG=wide only)
TEST_ARGS += $(foreach t,$(filter-out csr_edges widths cells_top hdrm_top hbm_top,$(COSIM_DIRECTED)),--cmd cosim-small-$(t).1 '$(call cosim_cmd,small,$(t),1,100000)')
TEST_ARGS += $(foreach s,1 2 3 4 5 6,--cmd cosim-small-random.$(s) '$(call cosim_cmd,small,random,$(s),100000)')
TEST_ARGS += $(foreach t,smoke pfc_gen hbm dwrr watchdog_drop csr_all,--cmd cosim-default-$(t).1 '$(call cosim_cmd,default,$(t),1,30000)')
TEST_ARGS += --cmd cosim-default-incast.1 '$(call cosim_cmd,default,incast,1,100000)'
TEST_ARGS += --cmd cosim-default-hazards.1 '$(call cosim_cmd,default,hazards,1,60000)'
TEST_ARGS += $(foreach s,1 2,--cmd cosim-default-random.$(s) '$(call cosim_cmd,default,random,$(s),30000)')
# CFG=large (32 x 8 x 65536, issue 11) once briefly: incast and a random seed; the nightly
# runs it longer and with more seeds (tests/regress/full.list)
TEST_ARGS += --cmd cosim-large-incast.1 '$(call cosim_cmd,large,incast,1,100000)'
TEST_ARGS += --cmd cosim-large-random.1 '$(call cosim_cmd,large,random,1,20000)'
# issue 21: every legal-range edge of the register map (generated table) in all three
# configurations, and the widths at their top (300 000 cycles: the byte counters' carry)
TEST_ARGS += $(foreach c,small default large,--cmd cosim-$(c)-csr_edges.1 '$(call cosim_cmd,$(c),csr_edges,1,20000)')
TEST_ARGS += --cmd cosim-small-widths.1 '$(call cosim_cmd,small,widths,1,300000)'
# the 28-bit cell counts at 2^28 - 1 (CFG=wide, spec 5.1): 2^20 packets each, their cycles
TEST_ARGS += $(foreach t,cells_top hdrm_top,--cmd cosim-wide-$(t).1 '$(call cosim_cmd,wide,$(t),1,1050000)')
TEST_ARGS += --cmd cosim-widehbm-hbm_top.1 '$(call cosim_cmd,widehbm,hbm_top,1,1050000)'
# every RTL mutant's pattern still applies to exactly one line (a restructured block makes
# a pattern stale; make mutate builds and runs the mutants themselves)
TEST_ARGS += --cmd mutate-rtl-patterns 'tools/mutate-rtl --check'
# ... and that check can fail: a reworded, duplicated or removed line, a dropped nightly job
TEST_ARGS += --shell tools/tests/test_mutate_patterns.sh
# a small named subset of the mutants, each against its named test only (two builds of the
# small configuration at -O0, about 3 minutes each on a loaded machine); make mutate and
# make nightly run every mutant against every test
TEST_ARGS += --cmd mutate-rtl-subset 'tools/mutate-rtl --named counter same-voq-occ'
# every xtm assertion has a fault that must fire it (tb/test_sva.sh), every fault applies
TEST_ARGS += --cmd sva-xtm-check 'tb/test_sva.sh xtm --check'
# bring-up equivalence, firmware on the C model vs on the RTL, and its negative checks
TEST_ARGS += --shell tb/test_fw_cosim.sh
# the saved waveform view against make sim WAVES=1 FSTs (tools/gtkw-check), and its negatives
TEST_ARGS += --shell tb/test_waves.sh
# bad plusargs are usage errors, +out= is never shell text
TEST_ARGS += --shell tb/test_plusargs.sh
# the state comparison's negative tests: one RTL state bit flipped per compared field
TEST_ARGS += --shell tb/test_state_check.sh
# the regression lists name only registry tests and run every directed one (tools/cosim-tests)
TEST_ARGS += --cmd cosim-lists '$(PYTHON) tools/cosim-tests --check' --shell tools/tests/test_cosim_tests.sh

.PHONY: bench-cosim
## bench-cosim: speed of the xtm RTL alone and of the co-simulation (default and large), build time
bench-cosim: sim/build/default/Vxtm_top sim/build/large/Vxtm_top
	@tools/stamp "bench-cosim: xtm RTL and co-sim, CFG=default (8x8) test incast, and CFG=large"
	tools/bench-cosim
BENCH_TARGETS += bench-cosim

.PHONY: mutate
## mutate: RTL mutants of both blocks and the assertions' injected faults; caught N/M
mutate: $(DEPS_STAMP) $(LIBXTM)
	tools/mutate-rtl

# the bound assertions (rtl/xtm/xtm_sva.sv) must fire on injected faults
.PHONY: sva
## sva: xtm assertions: each injected fault must fire its named assertion
sva: $(DEPS_STAMP) $(LIBXTM) $(LIBXTMFW) $(LIBDCQCN)
	tb/test_sva.sh xtm
mutate: sva
