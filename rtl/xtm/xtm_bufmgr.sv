// SPDX-License-Identifier: Apache-2.0
//
// xtm_bufmgr: the buffer accounting of the commit stage (docs/spec.md 5.1, 5.3, 5.4):
// pool / OCB / HBM cells in use, the free descriptors (never-used ones handed out by a bump
// pointer, recycled ones from a FIFO in RAM), the HBM write and read bandwidth buckets and
// the pool watermark. A descriptor freed in cycle t is in the FIFO's output queue for an
// allocation in t+1 (15.3).

`default_nettype none
`include "tm_assert.svh"

module xtm_bufmgr #(
  parameter int unsigned NumDesc = 4096,
  // derived, do not override
  parameter int unsigned DescIdxW = (NumDesc > 1) ? $clog2(NumDesc) : 1,
  parameter int unsigned DescCntW = $clog2(NumDesc + 1)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  xtm_pkg::admit_t        adm_i,     // this cycle's admission
  input  wire logic [8:0]        enq_cells_i,
  output logic [DescIdxW-1:0]    alloc_o,   // the descriptor an acceptance takes
  input  xtm_pkg::deq_sel_t      deq_i,     // this cycle's removal
  input  xtm_pkg::glob_cfg_t     glob_i,
  input  wire logic              clr_i,     // CTRL.CLR_CNT (watermark restart)
  // S(t)
  output logic [27:0]            pool_used_o,
  output logic [27:0]            ocb_used_o,
  output logic [27:0]            hbm_used_o,
  output logic                   desc_avail_o,
  output logic [DescCntW-1:0]    desc_free_o,
  output logic                   hbm_wr_ok_o,
  output logic                   hbm_rd_ok_o,
  input  xtm_pkg::csr_op_t       op4_i,
  output logic [31:0]            rd4_o
);

  logic [27:0] pool_q /* verilator public_flat_rd */;
  logic [27:0] ocb_q /* verilator public_flat_rd */;
  logic [27:0] hbm_q /* verilator public_flat_rd */;
  logic [27:0] pool_wm_q, pool_d;
  logic [DescCntW-1:0] free_q /* verilator public_flat_rd */;
  logic [DescCntW-1:0] bump_q;
  logic from_bump, fifo_valid;
  logic [DescIdxW-1:0] fifo_head;
  logic [$clog2(NumDesc + 3)-1:0] fifo_count;
  logic [27:0] ec, dc;

  assign ec = adm_i.acc ? 28'(enq_cells_i) : '0;
  assign dc = deq_i.valid ? 28'(deq_i.cells) : '0;
  assign pool_d = pool_q + ec - dc;
  assign from_bump = 32'(bump_q) < NumDesc;
  assign alloc_o = from_bump ? DescIdxW'(bump_q) : fifo_head;

  xtm_fifo #(
    .Width(DescIdxW),
    .Depth(NumDesc)
  ) u_free (
    .clk_i,
    .rst_ni,
    .push_i     (deq_i.valid),
    .push_data_i(DescIdxW'(deq_i.desc)),
    .pop_i      (adm_i.acc && !from_bump),
    .valid_o    (fifo_valid),
    .head_o     (fifo_head),
    .count_o    (fifo_count)
  );

  logic rc_read;
  assign rc_read = op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegPoolWm;
  logic unused_fifo;
  assign unused_fifo = ^fifo_count;  // the FIFO's own count; free_q is the spec's count

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_acct
    if (!rst_ni) begin
      pool_q <= '0;
      ocb_q <= '0;
      hbm_q <= '0;
      pool_wm_q <= '0;
      free_q <= DescCntW'(NumDesc);
      bump_q <= '0;
    end else begin
      if (adm_i.acc || deq_i.valid) begin  // (the counts change only with an event)
        pool_q <= pool_d;
        ocb_q <= ocb_q + (adm_i.acc && !adm_i.hbm ? ec : '0) - (deq_i.valid && !deq_i.hbm ? dc : '0);
        hbm_q <= hbm_q + (adm_i.acc && adm_i.hbm ? ec : '0) - (deq_i.valid && deq_i.hbm ? dc : '0);
        free_q <= free_q + DescCntW'(deq_i.valid) - DescCntW'(adm_i.acc);
      end
      if (adm_i.acc && from_bump) begin
        bump_q <= bump_q + 1'b1;
      end
      // watermark: max at the end of every cycle; a read or a clear restarts it
      if (clr_i || rc_read || pool_d > pool_wm_q) begin
        pool_wm_q <= pool_d;
      end
    end
  end

  assign pool_used_o = pool_q;
  assign ocb_used_o = ocb_q;
  assign hbm_used_o = hbm_q;
  assign desc_free_o = free_q;
  assign desc_avail_o = free_q != '0;

  // HBM bandwidth (5.4): write bucket charged by a placement in HBM, read bucket by the
  // selection of an HBM packet; rate or burst writes clamp at the end of the cycle
  logic wr_clamp, rd_clamp;
  assign wr_clamp = op4_i.wr && (op4_i.id == xtm_reg_pkg::XtmRegHbmWrRate ||
                                 op4_i.id == xtm_reg_pkg::XtmRegHbmWrBurst);
  assign rd_clamp = op4_i.wr && (op4_i.id == xtm_reg_pkg::XtmRegHbmRdRate ||
                                 op4_i.id == xtm_reg_pkg::XtmRegHbmRdBurst);
  xtm_tbucket #(
    .BurstW  (16),
    .BurstRst(xtm_reg_pkg::XTM_HBM_WR_BURST_RESVAL[15:0])
  ) u_hbm_wr (
    .clk_i,
    .rst_ni,
    .rate_i       (glob_i.hbm_wr_rate),
    .burst_i      (glob_i.hbm_wr_burst),
    .charge_i     (adm_i.acc && adm_i.hbm),
    .amount_i     (24'(enq_cells_i)),
    .clamp_i      (wr_clamp),
    .clamp_burst_i(op4_i.id == xtm_reg_pkg::XtmRegHbmWrBurst ? op4_i.wdata[15:0] :
                                                               glob_i.hbm_wr_burst),
    .conform_o    (hbm_wr_ok_o)
  );
  xtm_tbucket #(
    .BurstW  (16),
    .BurstRst(xtm_reg_pkg::XTM_HBM_RD_BURST_RESVAL[15:0])
  ) u_hbm_rd (
    .clk_i,
    .rst_ni,
    .rate_i       (glob_i.hbm_rd_rate),
    .burst_i      (glob_i.hbm_rd_burst),
    .charge_i     (deq_i.valid && !deq_i.flush && deq_i.hbm),
    .amount_i     (24'(deq_i.cells)),
    .clamp_i      (rd_clamp),
    .clamp_burst_i(op4_i.id == xtm_reg_pkg::XtmRegHbmRdBurst ? op4_i.wdata[15:0] :
                                                               glob_i.hbm_rd_burst),
    .conform_o    (hbm_rd_ok_o)
  );

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegPoolUsed: rd4_o = {4'd0, pool_q};
        xtm_reg_pkg::XtmRegPoolWm: rd4_o = {4'd0, pool_wm_q};
        xtm_reg_pkg::XtmRegOcbUsed: rd4_o = {4'd0, ocb_q};
        xtm_reg_pkg::XtmRegHbmUsed: rd4_o = {4'd0, hbm_q};
        xtm_reg_pkg::XtmRegDescFree: rd4_o = 32'(free_q);
        default: ;
      endcase
    end
  end

  // an allocation from the FIFO needs a recycled descriptor at its head (spec 15.3); an
  // allocation needs a free descriptor. Immediate checks nested under the acceptance (a
  // simulator tests one bit in the cycles without one).
  `ASSERT_NEVER_IMM_EN(FreeFifoHeadMissing_A, adm_i.acc, !from_bump && !fifo_valid, clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(AllocWithoutFree_A, adm_i.acc, free_q == '0, clk_i, rst_ni)

endmodule
