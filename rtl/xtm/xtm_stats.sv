// SPDX-License-Identifier: Apache-2.0
//
// xtm_stats: the statistics of the commit stage (docs/spec.md 10.2): the per-VOQ counters
// (xtm_stats_voq) and the per-PG, per-port and global counters (xtm_stats_pp), and the
// 64-bit CSR read result they give together in stages 4 and 5. Q_DROP_BYTES is the one
// counter with a part in each block (the sum); every other counter lives in one of them.

`default_nettype none

module xtm_stats #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  // derived, do not override
  parameter int unsigned NumPgs   = 8 * NumPorts
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]         t4_i,
  // the enqueue (stage 3 row read, stage 4 update) and its admission
  input  xtm_pkg::enq_req_t        req3_i,
  input  xtm_pkg::enq_req_t        req4_i,
  input  xtm_pkg::admit_t          adm_i,
  // the removal of the dequeue slot and the marking decisions behind it
  input  wire logic                rm_i,
  input  wire logic                rm_flush_i,
  input  wire logic [8:0]          rm_voq_i,
  input  wire logic [13:0]         rm_len_i,
  input  wire logic                rm_ret_i,
  input  wire logic                mark_rd_i,
  input  wire logic [8:0]          mark_rd_voq_i,
  input  wire logic                mark_i,
  input  wire logic [8:0]          mark_voq_i,
  input  wire logic                mark_head_i,
  input  wire logic                mark_lat_i,
  // PG and port events
  input  wire logic [NumPgs-1:0]   xoff_sent_i,
  input  wire logic [NumPgs-1:0]   xon_sent_i,
  input  wire logic [NumPgs-1:0]   pause_rx_i,
  input  wire logic [NumPgs-1:0]   xon_rx_i,
  input  wire logic [NumPgs-1:0]   paused_i,
  input  wire logic [NumPorts-1:0] pfc_tx_i,
  input  wire logic [NumPorts-1:0] pfc_rx_i,
  // the transmissions of stage 5 and their records (the port counters read the length)
  input  wire logic [NumPorts-1:0] tx_i,
  input  wire logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] tx_rec_i,
  input  wire logic                clr4_i,
  input  wire logic                clr5_i,
  input  xtm_pkg::csr_op_t         op3_i,
  input  xtm_pkg::csr_op_t         op4_i,
  input  xtm_pkg::csr_op_t         op5_i,
  output logic [63:0]              cnt4_o,
  output logic [63:0]              cnt5_o
);

  logic [63:0] cnt4_v, cnt4_p, cnt5_v, cnt5_p;
  xtm_stats_voq #(.NumPorts(NumPorts), .NumTcs(NumTcs)) u_stats_voq (
    .clk_i,
    .rst_ni,
    .enq3_i       (req3_i.cls),
    .enq3_voq_i   (req3_i.voq),
    .adm_i,
    .enq_voq_i    (req4_i.voq),
    .enq_len_i    (req4_i.len),
    .rm_i,
    .rm_flush_i,
    .rm_voq_i,
    .rm_len_i,
    .rm_ret_i,
    .mark_rd_i,
    .mark_rd_voq_i,
    .mark_i,
    .mark_voq_i,
    .mark_head_i,
    .mark_lat_i,
    .clr4_i,
    .clr5_i,
    .op3_i,
    .op4_i,
    .op5_i,
    .cnt4_o       (cnt4_v),
    .cnt5_o       (cnt5_v)
  );
  xtm_stats_pp #(.NumPorts(NumPorts)) u_stats_pp (
    .clk_i,
    .rst_ni,
    .t4_i,
    .adm_i,
    .xoff_sent_i,
    .xon_sent_i,
    .pause_rx_i,
    .xon_rx_i,
    .paused_i,
    .pfc_tx_i,
    .pfc_rx_i,
    .tx_i,
    .tx_rec_i,
    .clr4_i,
    .clr5_i,
    .op3_i,
    .op4_i,
    .op5_i,
    .cnt4_o       (cnt4_p),
    .cnt5_o       (cnt5_p)
  );
  assign cnt4_o = cnt4_v | cnt4_p;
  assign cnt5_o = cnt5_v + cnt5_p;  // Q_DROP_BYTES: both parts; other counters one of them

endmodule
