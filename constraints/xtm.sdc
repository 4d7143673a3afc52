# SPDX-License-Identifier: Apache-2.0
#
# xtm_top timing constraints (STYLE rule 43). One clock domain: the datapath, the PFC
# ports and the APB CSR port all run on clk_i. The clock name matches the port.
# Read by OpenSTA in make sta (docs/synthesis.md); plain SDC plus two Tcl list commands.

# 1 GHz core clock
create_clock -name clk_i -period 1.000 [get_ports clk_i]

# rst_ni is an asynchronous active-low reset (async assert; its deassertion is synchronised
# outside this block), so it is not timed as a data path
set_false_path -from [get_ports rst_ni]

# every other input and every output is registered in a neighbour on clk_i; budget 0.2 ns
# of the 1.0 ns cycle outside the block on each side. The inputs are all inputs but the
# clock and the reset (lsearch/lreplace: OpenSTA 2.0.17 has no remove_from_collection).
set xtm_inputs [all_inputs]
foreach xtm_p [list [get_ports clk_i] [get_ports rst_ni]] {
  set xtm_k [lsearch $xtm_inputs $xtm_p]
  set xtm_inputs [lreplace $xtm_inputs $xtm_k $xtm_k]
}
set_input_delay  -clock clk_i 0.200 $xtm_inputs
set_output_delay -clock clk_i 0.200 [all_outputs]

# the APB slave (psel_i, penable_i, pwrite_i, paddr_i, pwdata_i, prdata_o, pready_o,
# pslverr_o) is on the same clock and is covered by the two lines above
