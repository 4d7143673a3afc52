// SPDX-License-Identifier: Apache-2.0
//
// Binds the xtm_sva checker into every xtm_core (simulation only; pass as an extra top). The
// checker reads the core's blocks by upward hierarchical name: verification code only.

`default_nettype none

bind xtm_core xtm_sva #(
  .NumPorts (NumPorts),
  .NumTcs   (NumTcs),
  .NumDesc  (NumDesc),
  .FifoDepth(FifoDepth)
) u_xtm_sva (
  .clk_i        (clk_i),
  .rst_ni       (rst_ni),
  .deq_valid_o  (deq_valid_o),
  .pfc_valid_o  (pfc_valid_o),
  .res_valid_o  (res_valid_o),
  .flush_valid_o(flush_valid_o)
);
