# SPDX-License-Identifier: Apache-2.0
#
# dcqcn_top timing constraints (STYLE rule 43). One clock domain: the CNP, tx and CE event
# ports, the rate-update stream, the pacer answer and the APB CSR port all run on clk_i
# (docs/spec-dcqcn.md: one clock, 1 GHz by default, CYCLES_PER_US = 1000). Read by OpenSTA
# in make sta (docs/synthesis.md).

# 1 GHz clock
create_clock -name clk_i -period 1.000 [get_ports clk_i]

# rst_ni: asynchronous active-low reset, deassertion synchronised outside the block
set_false_path -from [get_ports rst_ni]

# every other input comes from and every output goes to a flip-flop of a neighbour on clk_i
# (the NIC's transmit and receive pipelines, the CSR bridge): 0.2 ns outside the block on
# each side, as for xtm_top
set dcqcn_inputs [all_inputs]
foreach dcqcn_p [list [get_ports clk_i] [get_ports rst_ni]] {
  set dcqcn_k [lsearch $dcqcn_inputs $dcqcn_p]
  set dcqcn_inputs [lreplace $dcqcn_inputs $dcqcn_k $dcqcn_k]
}
set_input_delay  -clock clk_i 0.200 $dcqcn_inputs
set_output_delay -clock clk_i 0.200 [all_outputs]
