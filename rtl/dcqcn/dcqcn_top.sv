// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_top: the DCQCN NIC block with its APB CSR port (docs/spec-dcqcn.md D2, D9). An APB
// access phase (psel && penable) is the spec's CSR access of that cycle; pready is always 1
// and prdata/pslverr are that access's response (combinational, as the core's outputs).

`default_nettype none

module dcqcn_top #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  localparam int unsigned NumRate  = ScanWidth + 2  // derived, do not override
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        cnp_valid_i,
  input  wire logic [15:0] cnp_qp_i,
  input  wire logic        tx_valid_i,
  input  wire logic [15:0] tx_qp_i,
  input  wire logic [15:0] tx_bytes_i,
  input  wire logic        ce_valid_i,
  input  wire logic [15:0] ce_qp_i,
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
  output logic                              cnp_tx_valid_o,
  output logic [15:0]                       cnp_tx_qp_o,
  output logic [4:0]                        n_rate_o,
  output logic [NumRate*16-1:0]             rate_qp_o,
  output logic [NumRate*20-1:0]             rate_rc_o,
  output logic [NumRate*20-1:0]             rate_rt_o,
  output logic [NumRate*10-1:0]             rate_alpha_o,
  output logic                              pace_valid_o,
  output logic [15:0]                       pace_qp_o,
  output logic [63:0]                       pace_next_send_o
);

  logic csr_valid, csr_rsp_valid, csr_rsp_err;
  logic [31:0] csr_rsp_rdata;

  assign csr_valid = psel_i && penable_i;
  assign pready_o = 1'b1;
  assign prdata_o = csr_rsp_rdata;
  assign pslverr_o = csr_rsp_valid && csr_rsp_err;

  dcqcn_core #(
    .NumQps   (NumQps),
    .ScanWidth(ScanWidth)
  ) u_core (
    .clk_i,
    .rst_ni,
    .cnp_valid_i,
    .cnp_qp_i,
    .tx_valid_i,
    .tx_qp_i,
    .tx_bytes_i,
    .ce_valid_i,
    .ce_qp_i,
    .csr_valid_i    (csr_valid),
    .csr_write_i    (pwrite_i),
    .csr_addr_i     (paddr_i),
    .csr_wdata_i    (pwdata_i),
    .cnp_tx_valid_o,
    .cnp_tx_qp_o,
    .n_rate_o,
    .rate_qp_o,
    .rate_rc_o,
    .rate_rt_o,
    .rate_alpha_o,
    .pace_valid_o,
    .pace_qp_o,
    .pace_next_send_o,
    .csr_rsp_valid_o(csr_rsp_valid),
    .csr_rsp_err_o  (csr_rsp_err),
    .csr_rsp_rdata_o(csr_rsp_rdata)
  );

endmodule

`default_nettype wire
