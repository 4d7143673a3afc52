// SPDX-License-Identifier: Apache-2.0
//
// Binds the xtm_sva checker into every xtm_core (simulation only; pass as an extra top).

`default_nettype none

bind xtm_core xtm_sva #(
  .NumPorts (NumPorts),
  .NumTcs   (NumTcs),
  .NumDesc  (NumDesc),
  .FifoDepth(FifoDepth),
  .DescW    (DescW),
  .FifoW    (FifoW)
) u_xtm_sva (
  .clk_i         (clk_i),
  .rst_ni        (rst_ni),
  .q_occ_q       (q_occ_q),
  .q_pkts_q      (q_pkts_q),
  .q_hbmc_q      (q_hbmc_q),
  .pool_used_q   (pool_used_q),
  .ocb_used_q    (ocb_used_q),
  .hbm_used_q    (hbm_used_q),
  .desc_free_q   (desc_free_q),
  .g_cells_q     (g_cells_q),
  .g_hused_q     (g_hused_q),
  .g_xoff_st_q   (g_xoff_st_q),
  .g_cfg_q       (g_cfg_q),
  .g_xoff_q      (g_xoff_q),
  .p_fcount_q    (p_fcount_q),
  .deq_valid_o   (deq_valid_o),
  .pfc_tx_valid_o(pfc_tx_valid_o),
  .enq_res_valid_o(enq_res_valid_o),
  .flush_valid_o (flush_valid_o)
);
