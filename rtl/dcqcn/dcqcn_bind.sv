// SPDX-License-Identifier: Apache-2.0
//
// Binds the dcqcn_sva checker into every dcqcn_visit (simulation only; pass as an extra top).

`default_nettype none

bind dcqcn_visit dcqcn_sva u_dcqcn_sva (
  .clk_i (clk_i),
  .rst_ni(rst_ni),
  .v_i   (v_i),
  .w_i   (w_i),
  .w_o   (w_o),
  .cfg_i (cfg_i),
  .t_i   (t_i)
);

`default_nettype wire
