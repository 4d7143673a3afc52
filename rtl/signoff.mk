# SPDX-License-Identifier: Apache-2.0
#
# Sign-off flow (issue 12; docs/synthesis.md): gate-level synthesis to the OSU 0.18 um
# standard cells, static timing with OpenSTA, the portability report of a third front end.
#   make synth          synth-xtm synth-dcqcn: Yosys 0.23 + dfflibmap + ABC to the OSU 0.18 um
#                       cells (tools/synth/synth.py); build/synth/<blk>/report.txt (cells by
#                       type, area, flip-flops, RAM macros), ffcheck.txt, summary.txt
#   make sta            sta-xtm sta-dcqcn: OpenSTA on the mapped netlist with
#                       constraints/<blk>.sdc (tools/synth/sta.py); build/synth/<blk>/timing.rpt
#   make iverilog       Icarus Verilog -g2012 on every RTL file: the portability report
#   make synth-selftest the flow on tests/synth/synth_toy.sv end to end (synthesis, STA,
#                       netlist against RTL) and its negative tests (tests/synth/test_signoff.sh)
#   make gls            (tb/gls.mk) the netlists in the lockstep testbenches
# Variables: SYNTH_PARAMS_<cfg>, SYNTH_LEVEL_<cfg> (gates|coarse), SYNTH_TIMEOUT (s per
# Yosys step), ABC_DELAY_PS, RAM_TCQ_NS / RAM_TSU_NS (RAM macro timing models), SYNTH_EXTRA
# (more tools/synth/synth.py options, e.g. --share).

DEB_PKGS += opensta qflow-tech-osu018 iverilog

SIGNOFF_LIB      ?= /usr/share/qflow/tech/osu018/osu018_stdcells.lib
SIGNOFF_VENDOR_V ?= /usr/share/qflow/tech/osu018/osu018_stdcells.v
SIGNOFF_CELLS    := $(BUILD)/synth/osu018_cells.v
SIGNOFF_TOOLS    := tools/synth/synth.py tools/synth/ffcheck.py tools/synth/macros.py tools/synth/liberty.py
SYNTH_TIMEOUT    ?= 900
# ABC's delay target (ps): the constrained clock period, so that ABC maps for delay
ABC_DELAY_PS     ?= 1000
RAM_TCQ_NS       ?= 1.2
RAM_TSU_NS       ?= 0.25
SYNTH_MACROS     := xtm_ram_1r1w,xtm_ram_2p,xtm_ram_2r1w

# Synthesis configurations: <cfg> -> top, file list, SDC, parameters, level.
# xtm: make synth's figures are for SYNTH_PARAMS_xtm, the RTL 2.0 (state in RAM macros) at
# the default configuration 8x8x4096; make gls simulates xtm-small (the co-simulation's
# small configuration, tb/tb.mk CFG_PARAMS_small) so that the C model runs the same
# parameters, at the word level: the 2x2x64 gate-level back end was still in ABC (319 K
# generic gates) after 42 minutes flat; mapped module by module (--hier --abc-fast) it took
# 35 minutes wall, 8 minutes CPU, a 436 K-cell netlist. docs/synthesis.md has the figures.
SYNTH_TOP_xtm    := xtm_top
SYNTH_F_xtm      := rtl/xtm/xtm.f
SYNTH_SDC_xtm    := constraints/xtm.sdc
SYNTH_PARAMS_xtm ?= NumPorts=8 NumTcs=8 NumDesc=4096
SYNTH_LEVEL_xtm  ?= gates
# mapped module by module (--hier: each derived module through coarse, fine, dfflibmap and
# ABC once, the mapped netlist flattened after) with ABC's fast script: the flat back end
# did not leave coarse synthesis in 15 minutes (docs/synthesis.md)
# (--jobs 2: the derived modules mapped in two Yosys processes at once)
SYNTH_OPTS_xtm   ?= --hier --abc-fast --jobs 2
SYNTH_TOP_xtm-small    := xtm_top
SYNTH_F_xtm-small      := rtl/xtm/xtm.f
SYNTH_SDC_xtm-small    := constraints/xtm.sdc
SYNTH_PARAMS_xtm-small ?= NumPorts=2 NumTcs=2 NumDesc=64
SYNTH_LEVEL_xtm-small  ?= coarse
# dcqcn: 64 QPs, 4 scan slots (the co-simulation's configuration; RTL 2.0, per-QP state in
# RAM macros). make gls simulates dcqcn-small (4 QPs, 2 scan slots; the testbench built with
# DCQCN_TB_QPS/DCQCN_TB_SCAN to match), whose netlist synthesizes within make test's budget.
SYNTH_TOP_dcqcn    := dcqcn_top
SYNTH_F_dcqcn      := rtl/dcqcn/dcqcn.f
SYNTH_SDC_dcqcn    := constraints/dcqcn.sdc
SYNTH_PARAMS_dcqcn ?= NumQps=64 ScanWidth=4
SYNTH_LEVEL_dcqcn  ?= gates
SYNTH_TOP_dcqcn-small    := dcqcn_top
SYNTH_F_dcqcn-small      := rtl/dcqcn/dcqcn.f
SYNTH_SDC_dcqcn-small    := constraints/dcqcn.sdc
SYNTH_PARAMS_dcqcn-small ?= NumQps=4 ScanWidth=2
SYNTH_LEVEL_dcqcn-small  ?= gates
# dcqcn-word: the same 4 QPs x 2 scan slots at the word level (coarse synthesis, no ABC),
# the netlist make test simulates (a few minutes to synthesize and build; the gate-level
# netlists are make nightly's)
SYNTH_TOP_dcqcn-word    := dcqcn_top
SYNTH_F_dcqcn-word      := rtl/dcqcn/dcqcn.f
SYNTH_SDC_dcqcn-word    := constraints/dcqcn.sdc
SYNTH_PARAMS_dcqcn-word ?= NumQps=4 ScanWidth=2
SYNTH_LEVEL_dcqcn-word  ?= coarse

synth_srcs = $(shell cat $(SYNTH_F_$(1)) 2>/dev/null) $(wildcard rtl/common/*.sv rtl/common/*.svh)
synth_cfg = tools/synth/synth.py --block $(1) --top $(SYNTH_TOP_$(1)) --filelist $(SYNTH_F_$(1)) \
  $(foreach p,$(SYNTH_PARAMS_$(1)),--param $(p)) --liberty $(SIGNOFF_LIB) --out $(BUILD)/synth/$(1) \
  --level $(SYNTH_LEVEL_$(1)) --macros $(SYNTH_MACROS) \
  --abc-delay-ps $(ABC_DELAY_PS) --ram-tcq-ns $(RAM_TCQ_NS) --ram-tsu-ns $(RAM_TSU_NS) \
  $(SYNTH_OPTS_$(1)) $(SYNTH_EXTRA)

synth_cmd = $(call synth_cfg,$(1)) --timeout $(SYNTH_TIMEOUT)

# one run per configuration; summary.txt is written last, only when every step passed.
# The configuration is part of the rule: a changed SYNTH_PARAMS_<cfg> (or level, library,
# ABC or macro option; not the timeout) reruns it.
$(BUILD)/synth/%/config.txt: FORCE | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo '$(call synth_cfg,$*)' > $@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
.PHONY: FORCE
FORCE:
.PRECIOUS: $(BUILD)/synth/%/config.txt $(BUILD)/synth/%/summary.txt

.SECONDEXPANSION:
$(BUILD)/synth/%/summary.txt: $(BUILD)/synth/%/config.txt $$(call synth_srcs,$$*) $(SIGNOFF_TOOLS) | $(DEPS_STAMP)
	@rm -f $@
	@echo "[synth] $*: $(SYNTH_TOP_$*) $(SYNTH_PARAMS_$*), level $(SYNTH_LEVEL_$*) (uptime: $$(uptime | sed 's/.*load/load/'))"
	@nice -n 10 $(call synth_cmd,$*) > $(BUILD)/synth/$*.log 2>&1 || { cat $(BUILD)/synth/$*.log; exit 1; }
	@grep -v '^\[ffcheck\]   ' $(BUILD)/synth/$*.log
	@test -f $@

.PHONY: synth synth-xtm synth-dcqcn sta
## synth: gate-level synthesis of both blocks at once (OSU 0.18 um; docs/synthesis.md)
synth: | $(DEPS_STAMP)
	@date +%s > $(BUILD)/synth/.start 2>/dev/null || { mkdir -p $(BUILD)/synth && date +%s > $(BUILD)/synth/.start; }
	@$(MAKE) --no-print-directory -j2 $(BUILD)/synth/xtm/summary.txt $(BUILD)/synth/dcqcn/summary.txt
	@$(MAKE) --no-print-directory synth-xtm synth-dcqcn
	@echo "[synth] both blocks in $$(( $$(date +%s) - $$(cat $(BUILD)/synth/.start) )) s wall (load: $$(cut -d' ' -f1-3 /proc/loadavg))"
## synth-xtm: gate-level synthesis of xtm at 8x8x4096 (build/synth/xtm/report.txt)
synth-xtm: $(BUILD)/synth/xtm/summary.txt
	@cat $(BUILD)/synth/xtm/report.txt 2>/dev/null || \
	  echo "[synth] xtm: level $(SYNTH_LEVEL_xtm): coarse netlist only (no cells, area or timing)"
## synth-dcqcn: gate-level synthesis of dcqcn at 64 QPs (build/synth/dcqcn/report.txt)
synth-dcqcn: $(BUILD)/synth/dcqcn/summary.txt
	@cat $(BUILD)/synth/dcqcn/report.txt 2>/dev/null || \
	  echo "[synth] dcqcn: level $(SYNTH_LEVEL_dcqcn): coarse netlist only (no cells, area or timing)"

sta_cmd = tools/synth/sta.py --dir $(BUILD)/synth/$(1) --top $(SYNTH_TOP_$(1)) --sdc $(SYNTH_SDC_$(1)) \
  --liberty $(SIGNOFF_LIB)
## sta: OpenSTA on both mapped netlists: slack, period, critical path in FO4
sta: sta-xtm sta-dcqcn
# sta-<cfg> for every configuration (explicit rules: make skips pattern rules for phony targets)
define sta_rule
sta-$(1): $(if $(filter gates,$(SYNTH_LEVEL_$(1))),$(BUILD)/synth/$(1)/summary.txt)
	@if [ "$(SYNTH_LEVEL_$(1))" != gates ]; then \
	  echo "[sta] FAIL $(1): no gate-level netlist (SYNTH_LEVEL_$(1)=$(SYNTH_LEVEL_$(1))); see docs/synthesis.md"; exit 1; fi
	@$(call sta_cmd,$(1))
.PHONY: sta-$(1)
endef
$(foreach c,xtm xtm-small dcqcn dcqcn-small,$(eval $(call sta_rule,$(c))))

# cell models for simulating the mapped netlist, from the Liberty (checked against the
# vendor's models by make synth-selftest)
$(SIGNOFF_CELLS): $(SIGNOFF_LIB) tools/synth/lib2v.py tools/synth/liberty.py | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	tools/synth/lib2v.py $(SIGNOFF_LIB) $@

.PHONY: iverilog synth-selftest
## iverilog: Icarus Verilog portability report of every RTL file (part of make lint)
iverilog: | $(DEPS_STAMP)
	@tools/synth/iverilog_report.py --quiet --out $(BUILD)/synth/iverilog.txt
lint: iverilog

## synth-selftest: the sign-off flow on a toy design and its negative tests
synth-selftest: | $(DEPS_STAMP)
	@tests/synth/test_signoff.sh

# make test: the whole flow on the toy design with its negative tests (about a minute), and
# the iverilog report (part of make lint)
TEST_ARGS += --shell tests/synth/test_signoff.sh
# the real xtm RTL through Yosys 0.23 (CFG=small, coarse, about 70 s): it reads every file
# (no construct it rejects or misreads), no latch, declared = built flip-flops; the RTL's
# co-simulation cannot see a construct only Yosys gets wrong (make synth-xtm does 8x8x4096)
TEST_ARGS += --cmd synth-xtm-small 'make -s $(BUILD)/synth/xtm-small/summary.txt'
