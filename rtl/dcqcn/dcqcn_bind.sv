// SPDX-License-Identifier: Apache-2.0
//
// Binds the dcqcn_sva checker into every dcqcn_scan (simulation only; pass as an extra top).

`default_nettype none

bind dcqcn_scan dcqcn_sva #(
  .ScanWidth(ScanWidth)
) u_dcqcn_sva (
  .clk_i   (clk_i),
  .rst_ni  (rst_ni),
  .slot_v  (slot_v_o),
  .vis_in  (vis_in),
  .vis_out (vis_out),
  .cfg_i   (cfg_i),
  .t2_q    (t2_q),
  .n_rate_d(n_rate_d)
);

`default_nettype wire
