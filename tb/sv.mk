# SPDX-License-Identifier: Apache-2.0
#
# The C models as DPI-C references (cmodel/dpi/) and the SystemVerilog testbench (tb/sv/),
# under Verilator (docs/dpi.md).
#   make sim-sv TEST=<t> SEED=<s> [CFG=default|small] [WAVES=1] [CYCLES=n] [PLUSARGS=...]
#   make sim-sv-api                      the DPI functions on good and bad arguments
#   make dpi                             build/lib/libxtm_dpi.a, libdcqcn_dpi.a (static)
#   make dpi-so                          build/lib/libxtm_dpi.so, libdcqcn_dpi.so (-sv_lib)
#   make bench-sv                        the DPI path's cycles/s (part of make bench)
# Builds go to sim/build/sv-<cfg>/, runs to sim/out/sv-<test>.<seed>/.

VERILATOR ?= verilator
CFG ?= default
TEST ?= smoke
SEED ?= 1
# svdpi.h of the simulator: Verilator's here; another simulator's include folder works too
SVDPI_INC ?= $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include/vltstd

DPI_COMMON := cmodel/dpi/dpi_handle.c
LIBXTM_DPI := $(BUILD)/lib/libxtm_dpi.a
LIBDCQCN_DPI := $(BUILD)/lib/libdcqcn_dpi.a
SV_UTIL_OBJ := $(BUILD)/obj/tb/sv/xtm_sv_util.o
$(BUILD)/obj/cmodel/dpi/%.o $(BUILD)/obj/tb/sv/%.o: CFLAGS += -I$(SVDPI_INC)
$(LIBXTM_DPI): $(BUILD)/obj/cmodel/dpi/xtm_dpi.o $(BUILD)/obj/cmodel/dpi/dpi_handle.o
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
$(LIBDCQCN_DPI): $(BUILD)/obj/cmodel/dpi/dcqcn_dpi.o $(BUILD)/obj/cmodel/dpi/dpi_handle.o
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# shared libraries for simulators that load DPI code at run time (-sv_lib): the model and
# its DPI layer compiled position-independent in one .so each
DPI_SO_CFLAGS = $(CSTD) -O2 -g -fPIC -I. -I$(SVDPI_INC)
$(BUILD)/lib/libxtm_dpi.so: cmodel/dpi/xtm_dpi.c $(DPI_COMMON) $(XTM_SRCS) $(wildcard cmodel/dpi/*.h cmodel/xtm/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(DPI_SO_CFLAGS) -shared -o $@ cmodel/dpi/xtm_dpi.c $(DPI_COMMON) $(XTM_SRCS) -lm
$(BUILD)/lib/libdcqcn_dpi.so: cmodel/dpi/dcqcn_dpi.c $(DPI_COMMON) $(DCQCN_SRCS) $(wildcard cmodel/dpi/*.h cmodel/dcqcn/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(DPI_SO_CFLAGS) -shared -o $@ cmodel/dpi/dcqcn_dpi.c $(DPI_COMMON) $(DCQCN_SRCS) -lm

.PHONY: dpi dpi-so
## dpi: static DPI-C libraries of both C models (cmodel/dpi)
dpi: $(LIBXTM_DPI) $(LIBDCQCN_DPI)
## dpi-so: the -sv_lib shared DPI-C libraries for other simulators (docs/dpi.md)
dpi-so: $(BUILD)/lib/libxtm_dpi.so $(BUILD)/lib/libdcqcn_dpi.so

# the Check suite of the DPI layers (tests/unit/test_dpi.c, built by the generic unit rule)
$(BUILD)/tests/test_dpi: $(LIBXTM_DPI) $(LIBDCQCN_DPI) $(LIBDCQCN)
$(BUILD)/tests/test_dpi: CFLAGS += -I$(SVDPI_INC)
$(BUILD)/tests/test_dpi: LDLIBS := $(LIBXTM_DPI) $(LIBDCQCN_DPI) $(LIBXTM) $(LIBDCQCN) $(CHECK_LIBS) -lm -pthread

# ---------------------------------------------------------------- the SV testbench
SV_CFG_default := -GNumPorts=8 -GNumTcs=8 -GNumDesc=4096 -GCfgName='"default"'
SV_CFG_small   := -GNumPorts=2 -GNumTcs=2 -GNumDesc=64 -GCfgName='"small"'
# C++ optimisation of the Verilated testbench (tb/sv/test_sv_negative.sh builds mutants -O1)
SV_COPT ?= -O2
SV_VFLAGS := --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style \
  --unroll-count 4096 --unroll-stmts 1000000 --x-assign unique --x-initial unique --assert \
  --trace-fst --trace-structs -O3 --output-split 20000
SV_RTL_SRCS := $(shell cat rtl/xtm/xtm.f 2>/dev/null) rtl/common/tm_assert.svh rtl/xtm/xtm_sva.sv \
               rtl/xtm/xtm_bind.sv
SV_PKGS := cmodel/dpi/xtm_dpi_pkg.sv tb/sv/xtm_sv_pkg.sv
SV_LIBS = $(CURDIR)/$(SV_UTIL_OBJ) $(CURDIR)/$(LIBXTM_DPI) $(CURDIR)/$(LIBXTM)

sim/build/sv-%/Vxtm_sv_tb: $(SV_RTL_SRCS) $(SV_PKGS) tb/sv/xtm_sv_tb.sv $(SV_UTIL_OBJ) $(LIBXTM_DPI) $(LIBXTM) | $(DEPS_STAMP)
	@mkdir -p sim/build/sv-$*
	@rm -f $@
	$(VERILATOR) $(SV_VFLAGS) --top-module xtm_sv_tb $(SV_CFG_$*) -Irtl/common -f rtl/xtm/xtm.f \
	  rtl/xtm/xtm_sva.sv rtl/xtm/xtm_bind.sv $(SV_PKGS) tb/sv/xtm_sv_tb.sv \
	  -Mdir sim/build/sv-$* -o Vxtm_sv_tb -CFLAGS "$(SV_COPT)" -MAKEFLAGS "OPT_FAST=$(SV_COPT)" \
	  $(SV_LIBS) > sim/build/sv-$*.log 2>&1 || { grep -E '%Error|error:' sim/build/sv-$*.log | head -20; tail -5 sim/build/sv-$*.log; exit 1; }

# the DPI functions alone (no RTL): API checks and the DPI bench; tb/sv/dpi_proto_check.cpp
# compiles the C prototypes of cmodel/dpi/*.h against the ones Verilator derives from the
# packages, so a package and its header cannot drift apart
SV_API := sim/build/sv-api/Vxtm_dpi_api_tb
$(SV_API): rtl/xtm/autogen/xtm_reg_pkg.sv rtl/dcqcn/autogen/dcqcn_reg_pkg.sv $(SV_PKGS) cmodel/dpi/dcqcn_dpi_pkg.sv \
    tb/sv/xtm_dpi_api_tb.sv tb/sv/dpi_proto_check.cpp $(wildcard cmodel/dpi/*.h) $(SV_UTIL_OBJ) \
    $(LIBXTM_DPI) $(LIBDCQCN_DPI) $(LIBXTM) $(LIBDCQCN) | $(DEPS_STAMP)
	@mkdir -p sim/build/sv-api
	@rm -f $@
	$(VERILATOR) --binary -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module xtm_dpi_api_tb \
	  rtl/xtm/autogen/xtm_reg_pkg.sv rtl/dcqcn/autogen/dcqcn_reg_pkg.sv $(SV_PKGS) cmodel/dpi/dcqcn_dpi_pkg.sv \
	  tb/sv/xtm_dpi_api_tb.sv $(CURDIR)/tb/sv/dpi_proto_check.cpp -Mdir sim/build/sv-api -o Vxtm_dpi_api_tb \
	  -CFLAGS "-O2 -I$(CURDIR)" $(CURDIR)/$(SV_UTIL_OBJ) $(CURDIR)/$(LIBXTM_DPI) $(CURDIR)/$(LIBDCQCN_DPI) \
	  $(CURDIR)/$(LIBXTM) $(CURDIR)/$(LIBDCQCN) > sim/build/sv-api.log 2>&1 || { grep -E '%Error|error:' sim/build/sv-api.log | head -20; exit 1; }

.PHONY: sim-sv sim-sv-api sv-build bench-sv
## sv-build: build the SystemVerilog testbench (small, default) and the DPI API test
sv-build: sim/build/sv-default/Vxtm_sv_tb sim/build/sv-small/Vxtm_sv_tb $(SV_API)

## sim-sv TEST=<t> SEED=<s> [CFG=default|small] [WAVES=1] [CYCLES=n]: one SV-testbench run, C model via DPI-C
sim-sv: sim/build/sv-$(CFG)/Vxtm_sv_tb
	sim/build/sv-$(CFG)/Vxtm_sv_tb +test=$(TEST) +seed=$(SEED) $(if $(CYCLES),+cycles=$(CYCLES)) \
	  $(if $(WAVES),+trace) $(PLUSARGS)

## sim-sv-api: check every DPI function from SystemVerilog
sim-sv-api: $(SV_API)
	$(SV_API)

# make bench: the DPI reference alone (one DPI call per cycle) and the SV co-simulation
## bench-sv: speed of the DPI-C references and of the SV co-simulation
bench-sv: $(SV_API) sim/build/sv-default/Vxtm_sv_tb
	@tools/stamp "bench-sv: DPI-C references and the SV co-sim, CFG=sv-default test incast"
	tools/bench-sv
BENCH_TARGETS += bench-sv

# ---------------------------------------------------------------- make test
TEST_DEPS += $(SV_API) sim/build/sv-default/Vxtm_sv_tb sim/build/sv-small/Vxtm_sv_tb $(BUILD)/lib/libxtm_dpi.so \
             $(BUILD)/lib/libdcqcn_dpi.so
sv_cmd = sim/build/sv-$(1)/Vxtm_sv_tb +test=$(2) +seed=$(3) +cycles=$(4) +out=sim/out/ci-sv-$(1)-$(2).$(3)
TEST_ARGS += --cmd sv-dpi-api '$(SV_API)'
# every co-sim summary (xtm, dcqcn, the SV testbench) carries the spec, git and config lines
TEST_ARGS += --shell tb/sv/test_summary_stamps.sh
TEST_ARGS += --cmd sv-small-smoke.1 '$(call sv_cmd,small,smoke,1,20000)'
TEST_ARGS += --cmd sv-small-incast.1 '$(call sv_cmd,small,incast,1,100000)'
TEST_ARGS += --cmd sv-default-incast.1 '$(call sv_cmd,default,incast,1,30000)'
TEST_ARGS += $(foreach s,1 2 3,--cmd sv-small-random.$(s) '$(call sv_cmd,small,random,$(s),100000)')
TEST_ARGS += --cmd sv-default-random.1 '$(call sv_cmd,default,random,1,30000)'
# negative tests: RTL mutants, a corrupted reference, a wrong latency, the APB timeout must
# each fail through their check; DPI-layer mutants must fail test_dpi and the API testbench;
# the shared libraries export every import and the C headers match the packages (each with
# its own negative case)
TEST_ARGS += --shell tb/sv/test_sv_negative.sh --shell tb/sv/test_dpi_mutants.sh \
             --shell tb/sv/test_dpi_exports.sh --shell tb/sv/test_dpi_proto.sh
