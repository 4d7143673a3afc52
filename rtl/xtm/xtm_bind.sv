// SPDX-License-Identifier: Apache-2.0
//
// Binds the xtm_sva checker into every xtm_core (simulation only; pass as an extra top). The
// connections reach into the core's blocks by hierarchical name: verification code only.

`default_nettype none

bind xtm_core xtm_sva #(
  .NumPorts (NumPorts),
  .NumTcs   (NumTcs),
  .NumDesc  (NumDesc),
  .FifoDepth(FifoDepth),
  .PktW     ($clog2(NumDesc + 1)),
  .DescCntW ($clog2(NumDesc + 1)),
  .CntW     ($clog2(FifoDepth + 1))
) u_xtm_sva (
  .clk_i        (clk_i),
  .rst_ni       (rst_ni),
  .occ_q        (u_qmgr.occ_q),
  .pkts_q       (u_qmgr.pkts_q),
  .hbmc_q       (u_qmgr.hbmc_q),
  .pool_q       (u_bufmgr.pool_q),
  .ocb_q        (u_bufmgr.ocb_q),
  .hbm_q        (u_bufmgr.hbm_q),
  .free_q       (u_bufmgr.free_q),
  .cells_q      (u_pfc_tx.cells_q),
  .hused_q      (u_pfc_tx.hused_q),
  .xoff_q       (u_pfc_tx.xoff_q),
  .gcfg_q       (u_pfc_tx.gcfg_q),
  .gxoff_q      (u_pfc_tx.gxoff_q),
  .fifo_cnt_q   (u_egress.cnt_q),
  .deq_valid_o  (deq_valid_o),
  .pfc_valid_o  (pfc_valid_o),
  .res_valid_o  (res_valid_o),
  .flush_valid_o(flush_valid_o)
);
