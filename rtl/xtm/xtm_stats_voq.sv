// SPDX-License-Identifier: Apache-2.0
//
// xtm_stats_voq: the per-VOQ 64-bit counters (docs/spec.md 4.5, 9.4, 6.3, 10.2), in RAM
// behind the 2R1W wrappers (one read port for the update, one for the CSR path), each row
// with a valid bit in flops so that CTRL.CLR_CNT clears every counter in one cycle:
//
//   enqueue side  one read-modify-write per cycle in the commit stage (the row is read in
//                 stage 3, the previous cycle's write is forwarded);
//   dequeue side  one per cycle in stage 5 (read in the commit stage);
//   marking       one per cycle, in the dequeue pipeline's third stage (aligned with the
//                 commit stage of the cycle the marks are counted in, 6.3).
//
// Q_DROP_BYTES is the sum of an enqueue-side and a flush-side part (both modulo 2^64); the
// CSR pipeline adds the two. Q_WD_STALL / Q_WD_RESTORE live in xtm_wd.

`default_nettype none

module xtm_stats_voq #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  // derived, do not override
  parameter int unsigned NumVoqs  = NumPorts * NumTcs,
  parameter int unsigned VoqW     = (NumVoqs > 1) ? $clog2(NumVoqs) : 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  // enqueue side: the descriptor of stage 3 (row read) and its admission (commit stage)
  input  wire logic                enq3_i,
  input  wire logic [8:0]          enq3_voq_i,
  input  xtm_pkg::admit_t          adm_i,
  input  wire logic [8:0]          enq_voq_i,
  input  wire logic [13:0]         enq_len_i,
  // dequeue side: the removal of the commit stage (row read), counted in stage 5
  input  wire logic                rm_i,
  input  wire logic                rm_flush_i,
  input  wire logic [8:0]          rm_voq_i,
  input  wire logic [13:0]         rm_len_i,
  input  wire logic                rm_ret_i,     // the removal returns the VOQ to OCB
  // marking: the row read in the dequeue pipeline's D2, counted in D3
  input  wire logic                mark_rd_i,
  input  wire logic [8:0]          mark_rd_voq_i,
  input  wire logic                mark_i,
  input  wire logic [8:0]          mark_voq_i,
  input  wire logic                mark_head_i,
  input  wire logic                mark_lat_i,
  input  wire logic                clr4_i,
  input  wire logic                clr5_i,
  input  xtm_pkg::csr_op_t         op3_i,
  input  xtm_pkg::csr_op_t         op4_i,
  input  xtm_pkg::csr_op_t         op5_i,
  output logic [63:0]              cnt4_o,
  output logic [63:0]              cnt5_o
);

  localparam int unsigned EN = 14;  // enqueue-side counters per VOQ
  localparam int unsigned LN = 13;  // of them forwarded as a row (e_lw_q); Q_DROP_POL by delta
  localparam int unsigned DN = 5;   // dequeue side
  localparam int unsigned MN = 2;   // marking

  // ------------------------------------------------------------------ enqueue side
  // row: 0 ARR 1 ENQ_PKTS 2 ENQ_BYTES 3..9 DROP_TAIL..DROP_WD 10 DROP_BYTES 11 MARK_TAIL
  //      12 HBM_EVICT 13 DROP_POL
  // Words 0-12 of the last write are forwarded from a copy (e_lw_q); word 13 (spec 2.2.0) is
  // forwarded as the RAM's word plus the last write's increment (e_lw_pol_q), unless that
  // write's base was 0 by a row-valid bit or a clear (e_lw_z_q): 2 flops instead of 64.
  logic [64*EN-1:0] e_row, e_new, e_rd_a, e_rd_b;
  logic [64*LN-1:0] e_lw_q;
  logic [NumVoqs-1:0] e_val_q;
  logic e_lw_v_q, e_lw_ok_q, e_lw_z_q, e_lw_pol_q, e_z, e_fwd;
  logic [VoqW-1:0] e_lw_row_q, ev;
  logic e_we;
  assign ev = VoqW'(enq_voq_i);
  assign e_we = adm_i.cls;

  xtm_ram_2r1w #(
    .Width(64*EN),
    .Depth(NumVoqs),
    .AllowRdWrSame(1'b1),   // rows written this cycle are forwarded (e_lw_*)
    .CheckUnwritten(1'b0)   // a row never written is not valid: its value is not used
  ) u_enq (
    .clk_i,
    .rst_ni,
    .we_i     (e_we),
    .waddr_i  (ev),
    .wdata_i  (e_new),
    .wmask_i  ({(64*EN){1'b1}}),
    .a_re_i   (enq3_i),
    .a_raddr_i(VoqW'(enq3_voq_i)),
    .a_rdata_o(e_rd_a),
    .b_re_i   (op3_i.rd),
    .b_raddr_i(VoqW'(op3_i.voq)),
    .b_rdata_o(e_rd_b)
  );

  function automatic logic [63:0] f64(input logic [64*EN-1:0] r, input int unsigned k);
    f64 = r[64*k+:64];
  endfunction
  // Q_DROP_POL after the last write, from a row read in the same cycle as that write
  function automatic logic [63:0] pol_fwd(input logic [63:0] rd13);
    pol_fwd = (e_lw_z_q ? 64'd0 : rd13) + 64'(e_lw_pol_q);
  endfunction

  always_comb begin : c_enq
    logic [63:0] inc [EN];
    for (int k = 0; k < 32'(EN); k++) begin
      inc[k] = '0;
    end
    e_row = '0;  // (the row is only needed in a cycle that writes it, e_we)
    e_new = '0;
    e_fwd = e_lw_v_q && e_lw_row_q == ev;
    e_z = e_fwd ? !e_lw_ok_q : !e_val_q[ev];
    if (e_we) begin
      e_row = (e_lw_v_q && e_lw_row_q == ev) ?
              (e_lw_ok_q ? {pol_fwd(f64(e_rd_a, 13)), e_lw_q} : '0) :
              (e_val_q[ev] ? e_rd_a : '0);
      inc[0] = 64'd1;
      if (adm_i.acc) begin
        inc[1] = 64'd1;
        inc[2] = 64'(enq_len_i);
        inc[11] = 64'(adm_i.marked);
      end else if (adm_i.reason >= xtm_pkg::RsnTail && adm_i.reason <= xtm_pkg::RsnWd) begin
        inc[2 + 32'(adm_i.reason)] = 64'd1;
        inc[10] = 64'(enq_len_i);
      end else if (adm_i.reason == xtm_pkg::RsnPolice) begin
        inc[13] = 64'd1;
        inc[10] = 64'(enq_len_i);
      end
      inc[12] = 64'(adm_i.evict);
      for (int k = 0; k < 32'(EN); k++) begin
        e_new[64*k+:64] = f64(e_row, k) + inc[k];
      end
    end
  end
  // the CSR read of the row in the commit stage
  logic [VoqW-1:0] cv4;
  assign cv4 = VoqW'(op4_i.voq);
  // the register's 64-bit word is selected first (ek, from the register id), then the row
  // (forwarded or read): a 64-bit mux instead of a row-wide one every cycle
  logic [3:0] ek;
  logic [63:0] e_csr;
  logic [63:0] e_lw_word;
  always_comb begin : c_e_csr  // (only a read needs the word)
    e_lw_word = '0;
    e_csr = '0;
    if (op4_i.rd) begin
      e_lw_word = (32'(ek) == LN) ? pol_fwd(f64(e_rd_b, LN)) : e_lw_q[64*32'(ek)+:64];
      e_csr = (e_lw_v_q && e_lw_row_q == cv4) ? (e_lw_ok_q ? e_lw_word : '0) :
              (e_val_q[cv4] ? f64(e_rd_b, 32'(ek)) : '0);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_enq
    if (!rst_ni) begin
      e_val_q <= '0;
      e_lw_v_q <= 1'b0;
      e_lw_ok_q <= 1'b0;
      e_lw_z_q <= 1'b0;
      e_lw_pol_q <= 1'b0;
      e_lw_row_q <= '0;
      e_lw_q <= '0;
    end else begin
      e_lw_v_q <= e_we;
      if (e_we) begin  // the last write (no copy of the row without one)
        e_lw_ok_q <= !clr4_i;
        e_lw_z_q <= e_z;
        e_lw_pol_q <= adm_i.reason == xtm_pkg::RsnPolice;
        e_lw_row_q <= ev;
        e_lw_q <= e_new[64*LN-1:0];
      end
      if (e_we) begin
        e_val_q[ev] <= 1'b1;
      end
      if (clr4_i) begin
        e_val_q <= '0;
      end
    end
  end

  // ------------------------------------------------------------------ dequeue side (stage 5)
  // row: 0 DEQ_PKTS 1 DEQ_BYTES 2 DROP_FLUSH 3 DROP_BYTES (flush part) 4 HBM_RETURN
  logic [64*DN-1:0] d_row, d_new, d_csr, d_rd_a, d_rd_b, d_lw_q;
  logic [NumVoqs-1:0] d_val_q;
  logic d5_q, d5_flush_q, d5_ret_q, d_lw_v_q, d_lw_ok_q;
  logic [VoqW-1:0] d5_v_q, d_lw_row_q;
  logic [13:0] d5_len_q;

  xtm_ram_2r1w #(
    .Width(64*DN),
    .Depth(NumVoqs),
    .AllowRdWrSame(1'b1),
    .CheckUnwritten(1'b0)
  ) u_deq (
    .clk_i,
    .rst_ni,
    .we_i     (d5_q),
    .waddr_i  (d5_v_q),
    .wdata_i  (d_new),
    .wmask_i  ({(64*DN){1'b1}}),
    .a_re_i   (rm_i),
    .a_raddr_i(VoqW'(rm_voq_i)),
    .a_rdata_o(d_rd_a),
    .b_re_i   (op4_i.rd),
    .b_raddr_i(VoqW'(op4_i.voq)),
    .b_rdata_o(d_rd_b)
  );

  logic [VoqW-1:0] cv5;
  assign cv5 = VoqW'(op5_i.voq);
  always_comb begin : c_deq
    d_row = '0;  // (the row is only needed in a cycle that writes it, d5_q)
    d_new = '0;
    if (d5_q) begin
      d_row = (d_lw_v_q && d_lw_row_q == d5_v_q) ? (d_lw_ok_q ? d_lw_q : '0) :
              (d_val_q[d5_v_q] ? d_rd_a : '0);
      d_new = d_row;
      if (!d5_flush_q) begin
        d_new[0+:64] = d_row[0+:64] + 64'd1;
        d_new[64+:64] = d_row[64+:64] + 64'(d5_len_q);
      end else begin
        d_new[128+:64] = d_row[128+:64] + 64'd1;
        d_new[192+:64] = d_row[192+:64] + 64'(d5_len_q);
      end
      d_new[256+:64] = d_row[256+:64] + 64'(d5_ret_q);
    end
    d_csr = '0;  // (only a read needs the row: no row-wide mux in the other cycles)
    if (op5_i.rd) begin
      d_csr = (d_lw_v_q && d_lw_row_q == cv5) ? (d_lw_ok_q ? d_lw_q : '0) :
              (d_val_q[cv5] ? d_rd_b : '0);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_deq
    if (!rst_ni) begin
      d_val_q <= '0;
      d5_q <= 1'b0;
      d5_flush_q <= 1'b0;
      d5_ret_q <= 1'b0;
      d5_v_q <= '0;
      d5_len_q <= '0;
      d_lw_v_q <= 1'b0;
      d_lw_ok_q <= 1'b0;
      d_lw_row_q <= '0;
      d_lw_q <= '0;
    end else begin
      d5_q <= rm_i;
      d5_flush_q <= rm_flush_i;
      d5_ret_q <= rm_ret_i;
      d5_v_q <= VoqW'(rm_voq_i);
      d5_len_q <= rm_len_i;
      d_lw_v_q <= d5_q;
      if (d5_q) begin  // the last write (no copy of the row without one)
        d_lw_ok_q <= !clr5_i;
        d_lw_row_q <= d5_v_q;
        d_lw_q <= d_new;
      end
      if (d5_q) begin
        d_val_q[d5_v_q] <= 1'b1;
      end
      if (clr5_i) begin
        d_val_q <= '0;
      end
    end
  end

  // ------------------------------------------------------------------ marking (D3)
  logic [64*MN-1:0] m_row, m_new, m_csr, m_rd_a, m_rd_b, m_lw_q;
  logic [NumVoqs-1:0] m_val_q;
  logic m_lw_v_q, m_lw_ok_q;
  logic [VoqW-1:0] m_lw_row_q, mv;
  assign mv = VoqW'(mark_voq_i);
  xtm_ram_2r1w #(
    .Width(64*MN),
    .Depth(NumVoqs),
    .AllowRdWrSame(1'b1),
    .CheckUnwritten(1'b0)
  ) u_mark (
    .clk_i,
    .rst_ni,
    .we_i     (mark_i),
    .waddr_i  (mv),
    .wdata_i  (m_new),
    .wmask_i  ({(64*MN){1'b1}}),
    .a_re_i   (mark_rd_i),
    .a_raddr_i(VoqW'(mark_rd_voq_i)),
    .a_rdata_o(m_rd_a),
    .b_re_i   (op3_i.rd),
    .b_raddr_i(VoqW'(op3_i.voq)),
    .b_rdata_o(m_rd_b)
  );
  always_comb begin : c_mark
    m_row = '0;  // (as d_row: only in a cycle that writes the row, mark_i)
    m_new = '0;
    if (mark_i) begin
      m_row = (m_lw_v_q && m_lw_row_q == mv) ? (m_lw_ok_q ? m_lw_q : '0) :
              (m_val_q[mv] ? m_rd_a : '0);
      m_new = {m_row[64+:64] + 64'(mark_lat_i), m_row[0+:64] + 64'(mark_head_i)};
    end
    m_csr = '0;  // (as d_csr)
    if (op4_i.rd) begin
      m_csr = (m_lw_v_q && m_lw_row_q == cv4) ? (m_lw_ok_q ? m_lw_q : '0) :
              (m_val_q[cv4] ? m_rd_b : '0);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_mark
    if (!rst_ni) begin
      m_val_q <= '0;
      m_lw_v_q <= 1'b0;
      m_lw_ok_q <= 1'b0;
      m_lw_row_q <= '0;
      m_lw_q <= '0;
    end else begin
      m_lw_v_q <= mark_i;
      if (mark_i) begin  // the last write (no copy of the row without one)
        m_lw_ok_q <= !clr4_i;
        m_lw_row_q <= mv;
        m_lw_q <= m_new;
      end
      if (mark_i) begin
        m_val_q[mv] <= 1'b1;
      end
      if (clr4_i) begin
        m_val_q <= '0;
      end
    end
  end

  always_comb begin : c_ek  // the word of the enqueue row a register reads
    ek = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegQArrPkts: ek = 4'd0;
        xtm_reg_pkg::XtmRegQEnqPkts: ek = 4'd1;
        xtm_reg_pkg::XtmRegQEnqBytes: ek = 4'd2;
        xtm_reg_pkg::XtmRegQDropTail: ek = 4'd3;
        xtm_reg_pkg::XtmRegQDropPool: ek = 4'd4;
        xtm_reg_pkg::XtmRegQDropProfile: ek = 4'd5;
        xtm_reg_pkg::XtmRegQDropHdrm: ek = 4'd6;
        xtm_reg_pkg::XtmRegQDropBuf: ek = 4'd7;
        xtm_reg_pkg::XtmRegQDropQdis: ek = 4'd8;
        xtm_reg_pkg::XtmRegQDropWd: ek = 4'd9;
        xtm_reg_pkg::XtmRegQDropBytes: ek = 4'd10;
        xtm_reg_pkg::XtmRegQMarkTail: ek = 4'd11;
        xtm_reg_pkg::XtmRegQHbmEvict: ek = 4'd12;
        xtm_reg_pkg::XtmRegQDropPol: ek = 4'd13;
        default: ;
      endcase
    end
  end
  always_comb begin : c_rd4
    cnt4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegQArrPkts: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQEnqPkts: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQEnqBytes: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropTail: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropPool: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropProfile: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropHdrm: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropBuf: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropQdis: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropWd: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropBytes: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQMarkTail: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQHbmEvict: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQDropPol: cnt4_o = e_csr;
        xtm_reg_pkg::XtmRegQMarkHead: cnt4_o = m_csr[0+:64];
        xtm_reg_pkg::XtmRegQMarkLat: cnt4_o = m_csr[64+:64];
        default: ;
      endcase
    end
  end

  always_comb begin : c_rd5
    cnt5_o = '0;
    if (op5_i.rd) begin
      unique case (op5_i.id)
        xtm_reg_pkg::XtmRegQDeqPkts: cnt5_o = d_csr[0+:64];
        xtm_reg_pkg::XtmRegQDeqBytes: cnt5_o = d_csr[64+:64];
        xtm_reg_pkg::XtmRegQDropFlush: cnt5_o = d_csr[128+:64];
        xtm_reg_pkg::XtmRegQDropBytes: cnt5_o = d_csr[192+:64];
        xtm_reg_pkg::XtmRegQHbmReturn: cnt5_o = d_csr[256+:64];
        default: ;
      endcase
    end
  end

endmodule
