rtl/xtm/autogen/xtm_reg_pkg.sv
rtl/xtm/xtm_pkg.sv
rtl/xtm/xtm_core.sv
rtl/xtm/xtm_top.sv
