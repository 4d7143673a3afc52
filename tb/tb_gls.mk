# SPDX-License-Identifier: Apache-2.0
#
# Post-synthesis co-simulation (tb/tb_gls.mk, issue 12; docs/synthesis.md, "Netlist simulation"): the
# netlist of make synth Verilated into the same lockstep testbenches (tb/xtm_tb.cpp with
# XTM_TB_NETLIST, tb/dcqcn_tb.cpp with DCQCN_TB_NETLIST: every output every cycle against
# the C model, no internal-state comparison: the netlist has no names).
#   make gls                 both blocks: every directed test and two random seeds
#   make gls-xtm / gls-dcqcn one block
#   make gls-run BLK=<xtm|dcqcn> TEST=<t> SEED=<s> [CYCLES=n]   one run
# Netlists (rtl/signoff.mk): xtm-small (2x2x64, the co-simulation's small configuration)
# and dcqcn (64 QPs, 4 scan slots: the netlist make synth reports; GLS_CFG_dcqcn=dcqcn-small
# simulates 4 QPs, 2 scan slots).
# SYNTH_LEVEL_<cfg>=gates simulates the mapped OSU netlist with the Liberty-derived cell
# models; coarse simulates Yosys' word-level netlist with simlib.v.
# RAM wrappers stay instances, bound to their behavioural models in rtl/common.
# Builds in sim/build/gls-<blk>/, runs in sim/out/gls-<blk>-<test>.<seed>/.

comma := ,
space := $(subst ,, )
GLS_SIMLIB := $(shell yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)/simlib.v
GLS_RAMS   := $(wildcard rtl/common/xtm_ram_*.sv)
GLS_VFLAGS = --cc --exe --build -j 2 -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN \
  --x-assign unique --x-initial unique --assert --trace-fst -Irtl/common

# the synthesis configuration each block's netlist simulation uses (rtl/signoff.mk) and the
# matching testbench defines (dcqcn: QPs and scan slots of the C model)
GLS_CFG_xtm   ?= xtm-small
GLS_CFG_dcqcn ?= dcqcn
GLS_DEFS_dcqcn-small := -DDCQCN_TB_QPS=4 -DDCQCN_TB_SCAN=2
GLS_DEFS_dcqcn       := -DDCQCN_TB_QPS=64 -DDCQCN_TB_SCAN=4
GLS_XTM   := sim/build/gls-xtm/Vxtm_top
GLS_DCQCN := sim/build/gls-dcqcn/Vdcqcn_top

# gls_netlist_files <synth dir> <level>
gls_netlist_files = $(if $(filter gates,$(2)),$(1)/gates.v $(BUILD)/synth/osu018_cells.v,$(1)/coarse.v $(GLS_SIMLIB))
# gls_build_xtm <synth dir> <level> <out dir> <label>: the xtm lockstep testbench on a netlist
define gls_build_xtm
	@mkdir -p $(3)
	@rm -f $(3)/Vxtm_top
	$(VERILATOR) $(GLS_VFLAGS) --top-module xtm_top -Mdir $(3) -o Vxtm_top \
	  $(call gls_netlist_files,$(1),$(2)) $(GLS_RAMS) \
	  -CFLAGS "-std=c++17 -O1 -I$(CURDIR) $(CFG_DEFS_small) -DXTM_TB_NETLIST=\\\"$(4)\\\"" \
	  -LDFLAGS "$(CURDIR)/$(LIBXTMFW) $(CURDIR)/$(LIBXTM) $(CURDIR)/$(LIBDCQCN) -lsystemc" \
	  $(abspath $(TB_SRCS)) > $(3).log 2>&1 || { tail -40 $(3).log; exit 1; }
endef
define gls_build_dcqcn
	@mkdir -p $(3)
	@rm -f $(3)/Vdcqcn_top
	$(VERILATOR) $(GLS_VFLAGS) --top-module dcqcn_top -Mdir $(3) -o Vdcqcn_top \
	  $(call gls_netlist_files,$(1),$(2)) $(GLS_RAMS) \
	  -CFLAGS "-std=c++17 -O1 -I$(CURDIR) $(5) -DDCQCN_TB_NETLIST=\\\"$(4)\\\"" \
	  -LDFLAGS "$(CURDIR)/$(LIBDCQCN) $(CURDIR)/$(LIBXTMNUM) -lsystemc" \
	  $(abspath $(DCQCN_TB_SRCS)) > $(3).log 2>&1 || { tail -40 $(3).log; exit 1; }
endef
GLS_XTM_DEPS = $(GLS_RAMS) $(TB_SRCS) tb/tb_common.h tb/xtm_tests.h tb/xtm_fcov.h tb/xtm_probe.h $(LIBXTM) $(LIBXTMFW) \
  $(LIBDCQCN) $(BUILD)/synth/osu018_cells.v
GLS_DCQCN_DEPS = $(GLS_RAMS) $(DCQCN_TB_SRCS) tb/tb_common.h tb/dcqcn_tests.h tb/dcqcn_state.h \
  $(LIBDCQCN) $(LIBXTMNUM) tools/lib/xtm_num.h \
  $(BUILD)/synth/osu018_cells.v

$(GLS_XTM): $(BUILD)/synth/$(GLS_CFG_xtm)/summary.txt $(GLS_XTM_DEPS) | $(DEPS_STAMP)
	$(call gls_build_xtm,$(BUILD)/synth/$(GLS_CFG_xtm),$(SYNTH_LEVEL_$(GLS_CFG_xtm)),$(patsubst %/,%,$(dir $@)),$(GLS_CFG_xtm):$(subst $(space),$(comma),$(SYNTH_PARAMS_$(GLS_CFG_xtm))):$(SYNTH_LEVEL_$(GLS_CFG_xtm)))

$(GLS_DCQCN): $(BUILD)/synth/$(GLS_CFG_dcqcn)/summary.txt $(GLS_DCQCN_DEPS) | $(DEPS_STAMP)
	$(call gls_build_dcqcn,$(BUILD)/synth/$(GLS_CFG_dcqcn),$(SYNTH_LEVEL_$(GLS_CFG_dcqcn)),$(patsubst %/,%,$(dir $@)),$(GLS_CFG_dcqcn):$(subst $(space),$(comma),$(SYNTH_PARAMS_$(GLS_CFG_dcqcn))):$(SYNTH_LEVEL_$(GLS_CFG_dcqcn)),$(GLS_DEFS_$(GLS_CFG_dcqcn)))

# tests/synth/test_gls_mutant.sh: the same build on a mutated copy's netlist
GLS_MUTANT_DIR ?= $(BUILD)/synth/mutant
GLS_MUTANT_LEVEL ?= coarse
.PHONY: gls-mutant gls-mutant-build-xtm gls-mutant-build-dcqcn
gls-mutant-build-xtm: $(GLS_XTM_DEPS) | $(DEPS_STAMP)
	$(call gls_build_xtm,$(GLS_MUTANT_DIR)/synth,$(GLS_MUTANT_LEVEL),$(GLS_MUTANT_DIR)/sim,mutant)
gls-mutant-build-dcqcn: $(GLS_DCQCN_DEPS) | $(DEPS_STAMP)
	$(call gls_build_dcqcn,$(GLS_MUTANT_DIR)/synth,$(GLS_MUTANT_LEVEL),$(GLS_MUTANT_DIR)/sim,mutant,$(GLS_DEFS_dcqcn-small))
GLS_MUTANT_BLOCKS ?= xtm dcqcn
## gls-mutant [GLS_MUTANT_BLOCKS=xtm dcqcn]: the netlist flow on the real blocks with an unpacked array of a struct (must fail)
gls-mutant: $(LIBXTM) $(LIBXTMFW) $(LIBDCQCN) $(LIBXTMNUM) | $(DEPS_STAMP)
	GLS_MUTANT_BLOCKS='$(GLS_MUTANT_BLOCKS)' tests/synth/test_gls_mutant.sh

# the run lists: every directed test of each block and two random seeds (tb/tb.mk,
# tb/dcqcn.mk name the tests; cycles as in make test's co-simulation)
gls_xtm_cmd = $(GLS_XTM) +test=$(1) +seed=$(2) +cycles=$(3) +out=sim/out/gls-xtm-$(1).$(2)
gls_dcqcn_cmd = $(GLS_DCQCN) +test=$(1) +seed=$(2)$(if $(3), +cycles=$(3)) +out=sim/out/gls-dcqcn-$(1).$(2)
GLS_XTM_ARGS := $(foreach t,$(COSIM_DIRECTED),--cmd gls-xtm-$(t).1 '$(call gls_xtm_cmd,$(t),1,100000)') \
  $(foreach s,1 2,--cmd gls-xtm-random.$(s) '$(call gls_xtm_cmd,random,$(s),100000)')
# first_cnp's scenario check expects a first CNP on each of 64 QPs: not at 4 QPs
GLS_DCQCN_SKIP_dcqcn-small := first_cnp
GLS_DCQCN_TESTS = $(filter-out $(GLS_DCQCN_SKIP_$(GLS_CFG_dcqcn)),$(DCQCN_DIRECTED))
GLS_DCQCN_ARGS := $(foreach t,$(GLS_DCQCN_TESTS),--cmd gls-dcqcn-$(t).1 '$(call gls_dcqcn_cmd,$(t),1,)') \
  $(foreach s,1 2,--cmd gls-dcqcn-random.$(s) '$(call gls_dcqcn_cmd,random,$(s),200000)')

.PHONY: gls gls-xtm gls-dcqcn gls-build gls-run
gls-build: $(GLS_XTM) $(GLS_DCQCN)
## gls: every directed test and two random seeds of both blocks on their synthesized netlists
gls: gls-build
	@tools/run-tests $(GLS_XTM_ARGS) $(GLS_DCQCN_ARGS)
## gls-xtm: the xtm netlist runs of make gls
gls-xtm: $(GLS_XTM)
	@tools/run-tests $(GLS_XTM_ARGS)
## gls-dcqcn: the dcqcn netlist runs of make gls
gls-dcqcn: $(GLS_DCQCN)
	@tools/run-tests $(GLS_DCQCN_ARGS)
BLK ?= xtm
## gls-run BLK=<xtm|dcqcn> TEST=<t> SEED=<s>: one netlist co-simulation run
gls-run: $(if $(filter dcqcn,$(BLK)),$(GLS_DCQCN),$(GLS_XTM))
	$(if $(filter dcqcn,$(BLK)),$(GLS_DCQCN),$(GLS_XTM)) +test=$(TEST) +seed=$(SEED) \
	  $(if $(CYCLES),+cycles=$(CYCLES)) $(PLUSARGS)

# make test: one directed test on a netlist that synthesizes and builds within make test's
# budget: dcqcn at 4 QPs x 2 scan slots, word level (docs/synthesis.md); the gate-level
# netlists (dcqcn 64 QPs: 24 minutes of synthesis and 35 of Verilator at load 7) are
# make nightly's
GLS_TEST_CFG := dcqcn-word
GLS_TEST     := sim/build/gls-test/Vdcqcn_top
$(GLS_TEST): $(BUILD)/synth/$(GLS_TEST_CFG)/summary.txt $(GLS_DCQCN_DEPS) | $(DEPS_STAMP)
	$(call gls_build_dcqcn,$(BUILD)/synth/$(GLS_TEST_CFG),coarse,$(patsubst %/,%,$(dir $@)),$(GLS_TEST_CFG):$(subst $(space),$(comma),$(SYNTH_PARAMS_$(GLS_TEST_CFG))):coarse,$(GLS_DEFS_dcqcn-small))
TEST_DEPS += $(GLS_TEST)
TEST_ARGS += --cmd gls-dcqcn-word-smoke.1 '$(GLS_TEST) +test=smoke +seed=1 +out=sim/out/gls-test-smoke.1'
