# SPDX-License-Identifier: Apache-2.0
# dcqcn block fragment (included by the top Makefile).
REGS_BLOCKS += rtl/dcqcn/data/dcqcn_regs.toml
