# SPDX-License-Identifier: Apache-2.0
#
# firmware fragment (included by the top Makefile, "block fragments" section): the
# freestanding driver core, the host-side compiler and model backend, build/bin/xtmctl,
# the Check suite build/tests/test_fw and the bad-configuration script.

FW_CORE_SRCS := firmware/xtm_mmio.c firmware/xtm_fw.c firmware/dcqcn_fw.c
FW_HOST_SRCS := firmware/host/xtm_fw_host.c firmware/cos/xtm_cos.c firmware/cos/cos_tree.c \
  firmware/cos/cos_ports.c firmware/cos/cos_diag.c firmware/cos/cos_police.c $(NUM_SRCS)
FW_OBJS      := $(patsubst %.c,$(BUILD)/obj/%.o,$(FW_CORE_SRCS) $(FW_HOST_SRCS))
LIBXTMFW     := $(BUILD)/lib/libxtmfw.a

$(LIBXTMFW): $(FW_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# libdcqcn (cmodel/dcqcn/dcqcn.mk) provides the dcqcn block's C model.
$(BUILD)/bin/xtmctl: firmware/tools/xtmctl.c $(LIBXTMFW) $(LIBXTM) $(LIBDCQCN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LIBXTMFW) $(LIBXTM) $(LIBDCQCN) $(LDLIBS)

$(BUILD)/tests/test_fw: firmware/tests/test_fw.c firmware/tests/xtm_mmio_mock.c \
    firmware/tests/xtm_mmio_mock.h $(LIBXTMFW) $(LIBXTM) $(LIBDCQCN) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) $< firmware/tests/xtm_mmio_mock.c -o $@ $(LIBXTMFW) $(LIBXTM) \
	  $(LIBDCQCN) $(CHECK_LIBS) $(LDLIBS)

.PHONY: firmware xtmctl
## firmware: build the firmware library and build/bin/xtmctl (docs/firmware.md)
## xtmctl: the same as make firmware
firmware xtmctl: $(BUILD)/bin/xtmctl

# The driver core must build freestanding: exactly this compile is a make test item.

TEST_DEPS += $(BUILD)/bin/xtmctl $(BUILD)/tests/test_fw
TEST_ARGS += --cmd fw-freestanding 'for f in $(FW_CORE_SRCS); do $(CC) -ffreestanding -std=c11 -Wall -Wextra -Werror -pedantic -O2 -I. -c $$f -o /dev/null || exit 1; done' \
  $(BUILD)/tests/test_fw --shell firmware/tests/test_bad_configs.sh --shell firmware/tests/test_xtmctl_cli.sh \
  --shell firmware/tests/test_junos_configs.sh
