# SPDX-License-Identifier: Apache-2.0
#
# dcqcn block fragment (included by the top Makefile, "block fragments" section):
# libdcqcn, its Check suites, dcqcn-trace, dcqcn-bench and the register source.

REGS_BLOCKS += rtl/dcqcn/data/dcqcn_regs.toml

DCQCN_SRCS := cmodel/dcqcn/dcqcn.c cmodel/dcqcn/dcqcn_csr.c rtl/dcqcn/autogen/dcqcn_regs_table.c
DCQCN_OBJS := $(DCQCN_SRCS:%.c=$(BUILD)/obj/%.o)
LIBDCQCN   := $(BUILD)/lib/libdcqcn.a

$(LIBDCQCN): $(DCQCN_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

.PHONY: cmodel-dcqcn
## cmodel-dcqcn: build libdcqcn, the DCQCN C model
cmodel-dcqcn: $(LIBDCQCN)
cmodel: $(LIBDCQCN)

# The suites tests/unit/test_dcqcn_*.c are built by the top Makefile's generic unit-test rule
# (so `make unit` / `make test` run and count them once); they also link libdcqcn.
DCQCN_TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_dcqcn_*.c))
DCQCN_TESTLIB := $(BUILD)/lib/libdcqcn_testlib.a
$(DCQCN_TESTLIB): $(BUILD)/obj/tests/unit/dcqcn_testlib.o
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
$(BUILD)/obj/tests/unit/dcqcn_testlib.o: CFLAGS += $(CHECK_CFLAGS)
$(DCQCN_TEST_BINS): $(LIBDCQCN) $(DCQCN_TESTLIB)
$(DCQCN_TEST_BINS): LDLIBS := $(DCQCN_TESTLIB) $(LIBDCQCN) $(CHECK_LIBS) $(LDLIBS)

# Tools (explicit rules: the generic $(BUILD)/bin/% rule links libxtm only).
$(BUILD)/bin/dcqcn-trace: tools/dcqcn-trace.c $(LIBDCQCN) $(LIBXTMNUM)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DXTM_VERSION='"$(NETSIM_VERSION)"' $< -o $@ $(LIBDCQCN) $(LIBXTMNUM) $(LDLIBS)
$(BUILD)/bin/dcqcn-bench: tools/dcqcn-bench.c $(LIBDCQCN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LIBDCQCN) $(LDLIBS)

TEST_DEPS += $(BUILD)/bin/dcqcn-trace $(BUILD)/bin/dcqcn-bench
TEST_ARGS += --cmd dcqcn-trace-smoke '$(BUILD)/bin/dcqcn-trace --cnp-us 100,102.5,106.5,110.5 --until-us 20000 --every-us 100'
TEST_ARGS += --shell tools/tests/test_dcqcn_trace_cli.sh
TEST_ARGS += --cmd dcqcn-bench-modes-agree '$(BUILD)/bin/dcqcn-bench --check-only'

.PHONY: bench-dcqcn
## bench-dcqcn: the dcqcn C model's speed
bench-dcqcn: $(BUILD)/bin/dcqcn-bench
	@tools/stamp "bench-dcqcn: dcqcn C model, 64 QPs under load, then recovering and parked"
	$(BUILD)/bin/dcqcn-bench
BENCH_TARGETS += bench-dcqcn
