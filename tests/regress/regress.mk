# SPDX-License-Identifier: Apache-2.0
#
# Nightly regression fragment (issue 7), included by the top Makefile.
#   make nightly [BUDGET=<minutes>] [JOBS=<n>] [QUICK=1] [SLURM=1] [SEED=<base>]
#       runs tests/regress/{quick,full}.list with tools/regress; writes build/nightly/
#       junit.xml, summary.md, coverage/ (HTML), fcov.md; ends with "N passed, N failed"
#   make cov-build     Verilator --coverage builds: sim/build/cov-small, sim/build/cov-dcqcn
#   make test-asan     the Check suites under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz          libFuzzer harnesses (clang) in build/fuzz/; FUZZ_SECS per harness
#   make test-slurm    single-node Slurm from Debian packages runs the QUICK list as a job
#                      array; its merged result must equal the local QUICK run
# tests/regress/README.md describes the lists, the coverage points and the cluster use.

# ---------------------------------------------------------------- coverage builds
# line + toggle (+ user) coverage; the small xtm configuration (toggle coverage of the
# 8x8x4096 state would multiply the build time) and the dcqcn block.
COV_VFLAGS = $(filter-out -O3,$(VERILATOR_FLAGS)) --coverage-line --coverage-toggle --coverage-user
sim/build/cov-small/Vxtm_top: $(TB_SRCS) tb/tb_common.h tb/xtm_tests.h tb/xtm_fcov.h tb/xtm_probe.h $(RTL_SRCS) $(LIBXTM) $(LIBXTMFW) \
    $(LIBDCQCN) | $(DEPS_STAMP)
	@mkdir -p sim/build/cov-small
	@rm -f $@
	$(VERILATOR) $(COV_VFLAGS) $(CFG_PARAMS_small) -Mdir sim/build/cov-small -o Vxtm_top \
	  -CFLAGS "-std=c++17 -O1 -I$(CURDIR) $(CFG_DEFS_small)" \
	  -LDFLAGS "$(CURDIR)/$(LIBXTMFW) $(CURDIR)/$(LIBXTM) $(CURDIR)/$(LIBDCQCN) -lsystemc" \
	  $(abspath $(TB_SRCS)) > sim/build/cov-small.log 2>&1 || { tail -40 sim/build/cov-small.log; exit 1; }

sim/build/cov-dcqcn/Vdcqcn_top: $(DCQCN_TB_DEPS) | $(DEPS_STAMP)
	@mkdir -p sim/build/cov-dcqcn
	@rm -f $@
	$(VERILATOR) $(DCQCN_VFLAGS) --coverage-line --coverage-toggle --coverage-user \
	  -Mdir sim/build/cov-dcqcn -o Vdcqcn_top \
	  -CFLAGS "-std=c++17 -O1 -I$(CURDIR)" -LDFLAGS "$(CURDIR)/$(LIBDCQCN) $(CURDIR)/$(LIBXTMNUM) -lsystemc" \
	  $(abspath $(DCQCN_TB_SRCS)) > sim/build/cov-dcqcn.log 2>&1 || { tail -40 sim/build/cov-dcqcn.log; exit 1; }

.PHONY: cov-build
## cov-build: build the Verilator coverage builds of both blocks
cov-build: sim/build/cov-small/Vxtm_top sim/build/cov-dcqcn/Vdcqcn_top

# make coverage: the line coverage of the traffic manager's RTL (rtl/xtm + rtl/common) from
# every directed test and random seeds on cov-small (tests/regress/coverage.list), merged;
# per-file table in build/coverage/summary.md, HTML in build/coverage/coverage/html/.
# Fails below 95 % (issue 11).
COV_MIN ?= 95
.PHONY: coverage
## coverage [COV_MIN=95]: xtm RTL line coverage of tests/regress/coverage.list; fails below COV_MIN
coverage: sim/build/cov-small/Vxtm_top
	@tools/regress --list tests/regress/coverage.list --jobs $(if $(JOBS),$(JOBS),2) --seed 1 \
	  --min-line-cov $(COV_MIN) --out build/coverage

# ---------------------------------------------------------------- sanitizers
# Every Check suite (models, firmware, netsim) rebuilt into build/asan/ with ASan + UBSan
# (-O2 as the normal build; with the sanitizers gcc 12 sees a possible snprintf truncation in
# sim/netsim/scenario.c that it does not see otherwise: kept a warning, not an error).
ASAN_OPT := -O2 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
  -Wno-error=format-truncation
ASAN_BINS := $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%) build/asan/tests/test_fw build/asan/tests/test_netsim
.PHONY: test-asan asan-bins
## test-asan: every Check suite rebuilt with ASan + UBSan (build/asan/)
test-asan: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory -s BUILD=build/asan OPT="$(ASAN_OPT)" asan-bins
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  tools/run-tests $(ASAN_BINS)
## asan-bins: build the sanitizer suites only (used by make test-asan)
asan-bins: $(UNIT_BINS) $(BUILD)/tests/test_fw $(BUILD)/tests/test_netsim

# ---------------------------------------------------------------- libFuzzer (clang)
DEB_PKGS += clang libclang-rt-14-dev
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -std=gnu11 -I. -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt
# The model harnesses are built without comparison tracing (trace-cmp was most of an
# execution; they reach registers through the generated table instead): issue 14.
FUZZ_MODEL_FLAGS := -fno-sanitize-coverage=trace-cmp
FUZZ_BINS := build/fuzz/fuzz_xtm build/fuzz/fuzz_dcqcn build/fuzz/fuzz_cos build/fuzz/fuzz_netsim
build/fuzz/fuzz_xtm: tests/fuzz/fuzz_xtm.c $(XTM_SRCS) $(wildcard cmodel/xtm/*.h) tests/fuzz/coverage-ignore.txt | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_MODEL_FLAGS) $< $(XTM_SRCS) -o $@ -lm
build/fuzz/fuzz_dcqcn: tests/fuzz/fuzz_dcqcn.c $(DCQCN_SRCS) $(wildcard cmodel/dcqcn/*.h) tests/fuzz/coverage-ignore.txt | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_MODEL_FLAGS) $< $(DCQCN_SRCS) -o $@ -lm
build/fuzz/fuzz_cos: tests/fuzz/fuzz_cos.c $(FW_CORE_SRCS) $(FW_HOST_SRCS) $(XTM_SRCS) $(DCQCN_SRCS) \
    $(wildcard firmware/cos/*.h firmware/*.h) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FW_CORE_SRCS) $(FW_HOST_SRCS) $(XTM_SRCS) $(DCQCN_SRCS) -o $@ -lm
# the netsim scenario reader and builder (sim/netsim, libinih); the builder programs routers
# through the firmware and the models
build/fuzz/fuzz_netsim: tests/fuzz/fuzz_netsim.c $(NETSIM_CORE) $(NETSIM_HDRS) $(FW_CORE_SRCS) $(FW_HOST_SRCS) \
    $(XTM_SRCS) $(DCQCN_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(NETSIM_CORE) $(FW_CORE_SRCS) $(FW_HOST_SRCS) $(XTM_SRCS) $(DCQCN_SRCS) \
	  -o $@ -linih -lm
FUZZ_SECS ?= 60
.PHONY: fuzz
## fuzz [FUZZ_SECS=s]: the libFuzzer harnesses (clang); crashes become tests/vectors/
fuzz: $(FUZZ_BINS)
	@for h in xtm dcqcn cos netsim; do tests/fuzz/run-fuzz $$h $(FUZZ_SECS) build/fuzz/run-$$h 1 || exit 1; done

# make test: the fuzz smoke, a few seconds per harness (plus every regression vector)
TEST_DEPS += $(FUZZ_BINS)
# tools/regress with hostile test names and output folders (issue 14: no shell)
TEST_ARGS += --shell tools/tests/test_regress.sh
TEST_ARGS += $(foreach h,xtm dcqcn cos netsim,--cmd fuzz-smoke-$(h) 'tests/fuzz/run-fuzz $(h) 5 build/fuzz/smoke-$(h) 1')
# make test: the Slurm path on this (fresh) machine: a single-node cluster from Debian's
# packages runs tests/regress/slurm-smoke.list as a job array, compared with a local run
TEST_ARGS += --cmd slurm-smoke 'SLURM_LIST=tests/regress/slurm-smoke.list SLURM_STRICT=1 bash tests/regress/test-slurm.sh'

# ---------------------------------------------------------------- nightly
# BASE_SEED (not SEED: tb.mk's SEED is one run's seed) defaults to today's date in tools/regress.
NIGHTLY_OUT ?= build/nightly
NIGHTLY_BUILDS := sim/build/small/Vxtm_top sim/build/default/Vxtm_top $(DCQCN_SIM) $(DCQCN_SIM_1K) \
  sim/build/cov-small/Vxtm_top sim/build/cov-dcqcn/Vdcqcn_top $(FUZZ_BINS) $(UNIT_BINS) \
  $(BUILD)/tests/test_fw $(BUILD)/bin/xtmctl $(BUILD)/bin/xtm-netsim $(BUILD)/tests/test_netsim
# the post-synthesis co-simulations (tb/tb_gls.mk; their synthesis runs first)
NIGHTLY_BUILDS += $(GLS_XTM) $(GLS_DCQCN)
# CFG=large (32 x 8 x 65536) for the large-configuration jobs of the lists (issue 11)
NIGHTLY_BUILDS += sim/build/large/Vxtm_top
# CFG=wide (2 x 2, 2^20 descriptors, 64 B cells): the cell counts at 2^28 - 1 (issue 21)
NIGHTLY_BUILDS += sim/build/wide/Vxtm_top sim/build/widehbm/Vxtm_top
.PHONY: nightly nightly-build test-slurm
## nightly-build: build everything the nightly regression needs
nightly-build: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory -k $(NIGHTLY_BUILDS) || \
	  echo "[nightly] some builds failed: the tests that need them fail and say so"
## nightly [QUICK=1] [JOBS=n] [BUDGET=min] [BASE_SEED=n] [SLURM=1]: the nightly regression
nightly: nightly-build
	@tools/regress $(if $(QUICK),--quick) --jobs $(if $(JOBS),$(JOBS),$(shell nproc)) \
	  $(if $(BUDGET),--budget $(BUDGET)) $(if $(BASE_SEED),--seed $(BASE_SEED)) \
	  $(if $(SLURM),--slurm) --out $(NIGHTLY_OUT)

# single-node Slurm from Debian's packages on this machine: QUICK list as a job array,
# merged result compared with the local QUICK run (tests/regress/test-slurm.sh; root)
## test-slurm: single-node Slurm on this machine runs the QUICK list as a job array
test-slurm: nightly-build
	@bash tests/regress/test-slurm.sh
