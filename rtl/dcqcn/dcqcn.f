rtl/dcqcn/autogen/dcqcn_reg_pkg.sv
rtl/dcqcn/dcqcn_pkg.sv
rtl/dcqcn/dcqcn_core.sv
rtl/dcqcn/dcqcn_top.sv
