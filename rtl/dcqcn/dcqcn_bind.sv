// SPDX-License-Identifier: Apache-2.0
//
// Binds the dcqcn_sva checker into every dcqcn_core (simulation only; pass as an extra top).

`default_nettype none

bind dcqcn_core dcqcn_sva #(
  .NumQps   (NumQps),
  .ScanWidth(ScanWidth)
) u_dcqcn_sva (
  .clk_i         (clk_i),
  .rst_ni        (rst_ni),
  .qp_q          (qp_q),
  .qp_d          (qp_d),
  .cfg_q         (cfg_q),
  .t_q           (t_q),
  .n_rate_o      (n_rate_o),
  .cnp_tx_valid_o(cnp_tx_valid_o),
  .pace_valid_o  (pace_valid_o),
  .csr_rsp_err_o (csr_rsp_err_o)
);

`default_nettype wire
