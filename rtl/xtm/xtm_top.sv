// SPDX-License-Identifier: Apache-2.0
//
// xtm_top: the traffic manager with its APB CSR port (docs/spec.md section 2). An APB
// access phase (psel && penable) is the spec's CSR access of that cycle; pready is always
// 1, so every access takes the two APB cycles and no wait states. pslverr reports the
// access's `err` (unmapped, illegal value, write to a read-only register).

`default_nettype none

module xtm_top #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  parameter int unsigned CellBytes = 256,
  parameter int unsigned OcbCells  = 65536,
  parameter int unsigned HbmCells  = 33554432,
  parameter int unsigned FifoDepth = 8
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic        enq_valid_i,
  input  wire logic [31:0] enq_pkt_id_i,
  input  wire logic [5:0]  enq_in_port_i,
  input  wire logic [5:0]  enq_eg_port_i,
  input  wire logic [5:0]  enq_dscp_i,
  input  wire logic [1:0]  enq_ecn_i,
  input  wire logic [13:0] enq_len_i,
  input  wire logic [NumPorts-1:0]            pfc_rx_valid_i,
  input  wire logic [NumPorts*8-1:0] pfc_rx_vec_i,       // port p at [8p +: 8]
  input  wire logic [NumPorts*128-1:0] pfc_rx_quanta_i,  // port p prio i at [16(8p+i) +: 16]
  input  wire logic [NumPorts-1:0]            tx_ready_i,
  // APB slave
  input  wire logic        psel_i,
  input  wire logic        penable_i,
  input  wire logic        pwrite_i,
  input  wire logic [15:0] paddr_i,
  input  wire logic [31:0] pwdata_i,
  output logic             pready_o,
  output logic [31:0]      prdata_o,
  output logic             pslverr_o,
  // outputs
  output logic        enq_res_valid_o,
  output logic [31:0] enq_res_pkt_id_o,
  output logic [8:0]  enq_res_voq_o,
  output logic [3:0]  enq_res_reason_o,
  output logic        enq_res_marked_o,
  output logic        enq_res_hdrm_o,
  output logic        enq_res_hbm_o,
  output logic        flush_valid_o,
  output logic [31:0] flush_pkt_id_o,
  output logic [8:0]  flush_voq_o,
  output logic [NumPorts-1:0]    deq_valid_o,
  output logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] deq_o,  // deq_rec_t per port, port 0 lowest
  output logic [NumPorts-1:0]            pfc_tx_valid_o,
  output logic [NumPorts*8-1:0] pfc_tx_vec_o,
  output logic [NumPorts*128-1:0] pfc_tx_quanta_o
);

  logic csr_valid;
  logic [31:0] csr_rdata;
  logic csr_err;
  assign csr_valid = psel_i && penable_i;
  assign pready_o = 1'b1;
  assign prdata_o = csr_rdata;
  assign pslverr_o = csr_valid && csr_err;

  xtm_core #(
    .NumPorts (NumPorts),
    .NumTcs   (NumTcs),
    .NumDesc  (NumDesc),
    .CellBytes(CellBytes),
    .OcbCells (OcbCells),
    .HbmCells (HbmCells),
    .FifoDepth(FifoDepth)
  ) u_core (
    .clk_i,
    .rst_ni,
    .enq_valid_i,
    .enq_pkt_id_i,
    .enq_in_port_i,
    .enq_eg_port_i,
    .enq_dscp_i,
    .enq_ecn_i,
    .enq_len_i,
    .pfc_rx_valid_i,
    .pfc_rx_vec_i,
    .pfc_rx_quanta_i,
    .tx_ready_i,
    .csr_valid_i (csr_valid),
    .csr_write_i (pwrite_i),
    .csr_addr_i  (paddr_i),
    .csr_wdata_i (pwdata_i),
    .csr_rdata_o (csr_rdata),
    .csr_err_o   (csr_err),
    .enq_res_valid_o,
    .enq_res_pkt_id_o,
    .enq_res_voq_o,
    .enq_res_reason_o,
    .enq_res_marked_o,
    .enq_res_hdrm_o,
    .enq_res_hbm_o,
    .flush_valid_o,
    .flush_pkt_id_o,
    .flush_voq_o,
    .deq_valid_o,
    .deq_o,
    .pfc_tx_valid_o,
    .pfc_tx_vec_o,
    .pfc_tx_quanta_o
  );

endmodule
