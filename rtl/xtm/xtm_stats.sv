// SPDX-License-Identifier: Apache-2.0
//
// xtm_stats: the 64-bit counters (docs/spec.md 4.5, 7, 9, 10.2, 15.6), in RAM behind the
// 2R1W wrappers (one read port for the update, one for the CSR path), each row with a valid
// bit in flops so that CTRL.CLR_CNT clears every counter in one cycle:
//
//   VOQ, enqueue side  one read-modify-write per cycle in the commit stage (the row is read
//                      in stage 3, the previous cycle's write is forwarded);
//   VOQ, dequeue side  one per cycle in stage 5 (read in the commit stage);
//   VOQ, marking       one per cycle, the dequeue pipeline's third stage (aligned with the
//                      commit stage of the cycle the marks are counted in, 6.3);
//   PG and port        narrow accumulators in flops per PG / port (many can count in one
//                      cycle), flushed into the row one PG / port per cycle; a read is
//                      row + accumulator;
//   global             the error counters, flops.
//
// Q_DROP_BYTES is the sum of an enqueue-side and a flush-side part (both modulo 2^64).

`default_nettype none

module xtm_stats #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  // derived, do not override
  parameter int unsigned NumVoqs  = NumPorts * NumTcs,
  parameter int unsigned NumPgs   = 8 * NumPorts,
  parameter int unsigned VoqW     = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned PgW      = $clog2(NumPgs),
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned PgAccW   = $clog2(NumPgs + 1),
  parameter int unsigned PAccW    = $clog2(NumPorts + 1),
  parameter int unsigned BAccW    = $clog2(NumPorts * 16383 + 1)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]         t4_i,
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
  // PG events (commit stage)
  input  wire logic [NumPgs-1:0]   xoff_sent_i,
  input  wire logic [NumPgs-1:0]   xon_sent_i,
  input  wire logic [NumPgs-1:0]   pause_rx_i,
  input  wire logic [NumPgs-1:0]   xon_rx_i,
  input  wire logic [NumPgs-1:0]   paused_i,
  // port events: frames (commit stage), transmissions (stage 5)
  input  wire logic [NumPorts-1:0] pfc_tx_i,
  input  wire logic [NumPorts-1:0] pfc_rx_i,
  input  wire logic [NumPorts-1:0] tx_i,
  input  wire logic [14*NumPorts-1:0] tx_len_i,
  input  wire logic                clr4_i,
  input  wire logic                clr5_i,
  input  xtm_pkg::csr_op_t         op3_i,
  input  xtm_pkg::csr_op_t         op4_i,
  input  xtm_pkg::csr_op_t         op5_i,
  output logic [63:0]              cnt4_o,
  output logic [63:0]              cnt5_o
);

  localparam int unsigned EN = 13;  // enqueue-side counters per VOQ
  localparam int unsigned DN = 5;   // dequeue side
  localparam int unsigned MN = 2;   // marking
  localparam int unsigned GN = 5;   // per PG
  localparam int unsigned PN = 4;   // per port

  // ------------------------------------------------------------------ enqueue side
  // row: 0 ARR 1 ENQ_PKTS 2 ENQ_BYTES 3..9 DROP_TAIL..DROP_WD 10 DROP_BYTES 11 MARK_TAIL
  //      12 HBM_EVICT
  logic [64*EN-1:0] e_row, e_new, e_csr, e_rd_a, e_rd_b, e_lw_q;
  logic [NumVoqs-1:0] e_val_q;
  logic e_lw_v_q, e_lw_ok_q;
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
    .wmask_i  ('1),
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

  always_comb begin : c_enq
    logic [63:0] inc [EN];
    e_row = (e_lw_v_q && e_lw_row_q == ev) ? (e_lw_ok_q ? e_lw_q : '0) :
            (e_val_q[ev] ? e_rd_a : '0);
    for (int k = 0; k < 32'(EN); k++) begin
      inc[k] = '0;
    end
    inc[0] = 64'd1;
    if (adm_i.acc) begin
      inc[1] = 64'd1;
      inc[2] = 64'(enq_len_i);
      inc[11] = 64'(adm_i.marked);
    end else if (adm_i.reason >= xtm_pkg::RsnTail && adm_i.reason <= xtm_pkg::RsnWd) begin
      inc[2 + 32'(adm_i.reason)] = 64'd1;
      inc[10] = 64'(enq_len_i);
    end
    inc[12] = 64'(adm_i.evict);
    for (int k = 0; k < 32'(EN); k++) begin
      e_new[64*k+:64] = f64(e_row, k) + inc[k];
    end
  end
  // the CSR read of the row in the commit stage
  logic [VoqW-1:0] cv4;
  assign cv4 = VoqW'(op4_i.voq);
  assign e_csr = (e_lw_v_q && e_lw_row_q == cv4) ? (e_lw_ok_q ? e_lw_q : '0) :
                 (e_val_q[cv4] ? e_rd_b : '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_enq
    if (!rst_ni) begin
      e_val_q <= '0;
      e_lw_v_q <= 1'b0;
      e_lw_ok_q <= 1'b0;
      e_lw_row_q <= '0;
      e_lw_q <= '0;
    end else begin
      e_lw_v_q <= e_we;
      e_lw_ok_q <= !clr4_i;
      e_lw_row_q <= ev;
      e_lw_q <= e_new;
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
    .wmask_i  ('1),
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
    d_csr = (d_lw_v_q && d_lw_row_q == cv5) ? (d_lw_ok_q ? d_lw_q : '0) :
            (d_val_q[cv5] ? d_rd_b : '0);
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
      d_lw_ok_q <= !clr5_i;
      d_lw_row_q <= d5_v_q;
      d_lw_q <= d_new;
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
    .wmask_i  ('1),
    .a_re_i   (mark_rd_i),
    .a_raddr_i(VoqW'(mark_rd_voq_i)),
    .a_rdata_o(m_rd_a),
    .b_re_i   (op3_i.rd),
    .b_raddr_i(VoqW'(op3_i.voq)),
    .b_rdata_o(m_rd_b)
  );
  always_comb begin : c_mark
    m_row = (m_lw_v_q && m_lw_row_q == mv) ? (m_lw_ok_q ? m_lw_q : '0) :
            (m_val_q[mv] ? m_rd_a : '0);
    m_new = {m_row[64+:64] + 64'(mark_lat_i), m_row[0+:64] + 64'(mark_head_i)};
    m_csr = (m_lw_v_q && m_lw_row_q == cv4) ? (m_lw_ok_q ? m_lw_q : '0) :
            (m_val_q[cv4] ? m_rd_b : '0);
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
      m_lw_ok_q <= !clr4_i;
      m_lw_row_q <= mv;
      m_lw_q <= m_new;
      if (mark_i) begin
        m_val_q[mv] <= 1'b1;
      end
      if (clr4_i) begin
        m_val_q <= '0;
      end
    end
  end

  // ------------------------------------------------------------------ PG counters
  // row: 0 XOFF_SENT 1 XON_SENT 2 PAUSE_RX 3 XON_RX 4 PAUSED_CYCLES. The accumulators of all
  // PGs are held as bit planes (plane b = bit b of every PG's accumulator): one cycle's
  // increments of every PG are a ripple of PgAccW vector operations.
  logic [NumPgs-1:0] g_pl_q [GN][PgAccW];
  logic [NumPgs-1:0] g_pl_d [GN][PgAccW];
  logic [64*GN-1:0] g_rd_a, g_rd_b, g_row, g_new, g_csr, g_lw_q;
  logic [NumPgs-1:0] g_val_q, g_ev [GN];
  logic [PgW-1:0] gf_q, g_lw_row_q, gpre;
  logic g_lw_v_q, g_lw_ok_q, g_on;
  assign g_ev[0] = xoff_sent_i;
  assign g_ev[1] = xon_sent_i;
  assign g_ev[2] = pause_rx_i;
  assign g_ev[3] = xon_rx_i;
  assign g_ev[4] = paused_i;
  assign g_on = !t4_i[63];                 // logical time has begun
  assign gpre = (32'(gf_q) + 1 == NumPgs) ? '0 : gf_q + 1'b1;
  xtm_ram_2r1w #(
    .Width(64*GN),
    .Depth(NumPgs),
    .AllowRdWrSame(1'b1),
    .CheckUnwritten(1'b0)
  ) u_pg (
    .clk_i,
    .rst_ni,
    .we_i     (g_on),
    .waddr_i  (gf_q),
    .wdata_i  (g_new),
    .wmask_i  ('1),
    .a_re_i   (1'b1),
    .a_raddr_i(g_on ? gpre : '0),
    .a_rdata_o(g_rd_a),
    .b_re_i   (op3_i.rd),
    .b_raddr_i(PgW'(op3_i.pg)),
    .b_rdata_o(g_rd_b)
  );

  // the accumulators of the flushed PG and of the CSR's PG
  logic [PgAccW-1:0] acc_f [GN];
  logic [PgAccW-1:0] acc_c [GN];
  logic [PgW-1:0] cg4;
  logic [NumPgs-1:0] g_keep;
  assign cg4 = PgW'(op4_i.pg);
  assign g_keep = clr4_i ? '0 : ~(NumPgs'(1) << gf_q);   // the flushed PG restarts
  always_comb begin : c_pg
    g_row = g_val_q[gf_q] ? g_rd_a : '0;
    for (int k = 0; k < 32'(GN); k++) begin
      logic [NumPgs-1:0] carry;
      for (int b = 0; b < 32'(PgAccW); b++) begin
        acc_f[k][b] = g_pl_q[k][b][gf_q];
        acc_c[k][b] = g_pl_q[k][b][cg4];
      end
      g_new[64*k+:64] = g_row[64*k+:64] + 64'(acc_f[k]);
      carry = g_ev[k] & (clr4_i ? '0 : '1);
      for (int b = 0; b < 32'(PgAccW); b++) begin
        logic [NumPgs-1:0] kept;
        kept = g_pl_q[k][b] & g_keep;
        g_pl_d[k][b] = kept ^ carry;
        carry = kept & carry;
      end
    end
    g_csr = (g_lw_v_q && g_lw_row_q == cg4) ? (g_lw_ok_q ? g_lw_q : '0) :
            (g_val_q[cg4] ? g_rd_b : '0);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pg
    if (!rst_ni) begin
      for (int k = 0; k < 32'(GN); k++) begin
        for (int b = 0; b < 32'(PgAccW); b++) begin
          g_pl_q[k][b] <= '0;
        end
      end
      g_val_q <= '0;
      gf_q <= '0;
      g_lw_v_q <= 1'b0;
      g_lw_ok_q <= 1'b0;
      g_lw_row_q <= '0;
      g_lw_q <= '0;
    end else if (g_on) begin
      for (int k = 0; k < 32'(GN); k++) begin
        for (int b = 0; b < 32'(PgAccW); b++) begin
          g_pl_q[k][b] <= g_pl_d[k][b];
        end
      end
      gf_q <= gpre;
      g_val_q[gf_q] <= 1'b1;
      if (clr4_i) begin
        g_val_q <= '0;
      end
      g_lw_v_q <= 1'b1;
      g_lw_ok_q <= !clr4_i;
      g_lw_row_q <= gf_q;
      g_lw_q <= g_new;
    end
  end

  // ------------------------------------------------------------------ port counters (stage 5)
  // row: 0 TX_PKTS 1 TX_BYTES 2 PFC_TX_FRAMES 3 PFC_RX_FRAMES
  logic [PAccW-1:0] p_acc_q [NumPorts][PN];
  logic [BAccW-1:0] p_bacc_q [NumPorts];
  logic [NumPorts-1:0] pfc_tx5_q, pfc_rx5_q;
  logic [64*PN-1:0] p_rd_a, p_rd_b, p_row, p_new, p_csr, p_lw_q;
  logic [NumPorts-1:0] p_val_q;
  logic [PortW-1:0] pf_q, p_lw_row_q, ppre;
  logic p_lw_v_q, p_lw_ok_q, p_on;
  logic t5_neg_q;
  assign p_on = !t5_neg_q;
  assign ppre = (32'(pf_q) + 1 == NumPorts) ? '0 : pf_q + 1'b1;
  xtm_ram_2r1w #(
    .Width(64*PN),
    .Depth(NumPorts),
    .AllowRdWrSame(1'b1),
    .CheckUnwritten(1'b0)
  ) u_port (
    .clk_i,
    .rst_ni,
    .we_i     (p_on),
    .waddr_i  (pf_q),
    .wdata_i  (p_new),
    .wmask_i  ('1),
    .a_re_i   (1'b1),
    .a_raddr_i(p_on ? ppre : '0),
    .a_rdata_o(p_rd_a),
    .b_re_i   (op4_i.rd),
    .b_raddr_i(PortW'(op4_i.port)),
    .b_rdata_o(p_rd_b)
  );
  logic [PortW-1:0] cp5;
  assign cp5 = PortW'(op5_i.port);
  always_comb begin : c_port
    p_row = p_val_q[pf_q] ? p_rd_a : '0;
    p_new[0+:64] = p_row[0+:64] + 64'(p_acc_q[pf_q][0]);
    p_new[64+:64] = p_row[64+:64] + 64'(p_bacc_q[pf_q]);
    p_new[128+:64] = p_row[128+:64] + 64'(p_acc_q[pf_q][2]);
    p_new[192+:64] = p_row[192+:64] + 64'(p_acc_q[pf_q][3]);
    p_csr = (p_lw_v_q && p_lw_row_q == cp5) ? (p_lw_ok_q ? p_lw_q : '0) :
            (p_val_q[cp5] ? p_rd_b : '0);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_port
    if (!rst_ni) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        for (int k = 0; k < 32'(PN); k++) begin
          p_acc_q[p][k] <= '0;
        end
        p_bacc_q[p] <= '0;
      end
      pfc_tx5_q <= '0;
      pfc_rx5_q <= '0;
      p_val_q <= '0;
      pf_q <= '0;
      p_lw_v_q <= 1'b0;
      p_lw_ok_q <= 1'b0;
      p_lw_row_q <= '0;
      p_lw_q <= '0;
      t5_neg_q <= 1'b1;
    end else begin
      pfc_tx5_q <= pfc_tx_i;
      pfc_rx5_q <= pfc_rx_i;
      t5_neg_q <= t4_i[63];
      if (p_on) begin
        for (int p = 0; p < 32'(NumPorts); p++) begin
          logic [PAccW-1:0] e0, e2, e3;
          logic [13:0] bl;
          e0 = PAccW'(tx_i[p]);
          e2 = PAccW'(pfc_tx5_q[p]);
          e3 = PAccW'(pfc_rx5_q[p]);
          bl = tx_i[p] ? tx_len_i[14*p+:14] : '0;
          if (clr5_i) begin
            p_acc_q[p][0] <= '0;
            p_acc_q[p][2] <= '0;
            p_acc_q[p][3] <= '0;
            p_bacc_q[p] <= '0;
          end else if (PortW'(p) == pf_q) begin
            p_acc_q[p][0] <= e0;
            p_acc_q[p][2] <= e2;
            p_acc_q[p][3] <= e3;
            p_bacc_q[p] <= BAccW'(bl);
          end else begin
            p_acc_q[p][0] <= p_acc_q[p][0] + e0;
            p_acc_q[p][2] <= p_acc_q[p][2] + e2;
            p_acc_q[p][3] <= p_acc_q[p][3] + e3;
            p_bacc_q[p] <= p_bacc_q[p] + BAccW'(bl);
          end
        end
        pf_q <= ppre;
        p_val_q[pf_q] <= 1'b1;
        if (clr5_i) begin
          p_val_q <= '0;
        end
        p_lw_v_q <= 1'b1;
        p_lw_ok_q <= !clr5_i;
        p_lw_row_q <= pf_q;
        p_lw_q <= p_new;
      end
    end
  end

  // ------------------------------------------------------------------ global error counters
  logic [63:0] ecnt_q [6];
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_glob
    if (!rst_ni) begin
      for (int k = 0; k < 6; k++) begin
        ecnt_q[k] <= '0;
      end
    end else if (clr4_i) begin
      for (int k = 0; k < 6; k++) begin
        ecnt_q[k] <= '0;
      end
    end else if (adm_i.valid) begin
      ecnt_q[0] <= ecnt_q[0] + 64'd1;
      unique case (adm_i.reason)
        xtm_pkg::RsnLenZero: ecnt_q[1] <= ecnt_q[1] + 64'd1;
        xtm_pkg::RsnLenMax: ecnt_q[2] <= ecnt_q[2] + 64'd1;
        xtm_pkg::RsnBadPort: ecnt_q[3] <= ecnt_q[3] + 64'd1;
        xtm_pkg::RsnBadTc: ecnt_q[4] <= ecnt_q[4] + 64'd1;
        xtm_pkg::RsnNotReady: ecnt_q[5] <= ecnt_q[5] + 64'd1;
        default: ;
      endcase
    end
  end

  // ------------------------------------------------------------------ CSR reads
  logic [PgAccW-1:0] gacc;
  always_comb begin : c_rd
    cnt4_o = '0;
    gacc = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegArrPkts: cnt4_o = ecnt_q[0];
        xtm_reg_pkg::XtmRegErrLenZero: cnt4_o = ecnt_q[1];
        xtm_reg_pkg::XtmRegErrLenMax: cnt4_o = ecnt_q[2];
        xtm_reg_pkg::XtmRegErrBadPort: cnt4_o = ecnt_q[3];
        xtm_reg_pkg::XtmRegErrBadTc: cnt4_o = ecnt_q[4];
        xtm_reg_pkg::XtmRegErrNotReady: cnt4_o = ecnt_q[5];
        xtm_reg_pkg::XtmRegQArrPkts: cnt4_o = f64(e_csr, 0);
        xtm_reg_pkg::XtmRegQEnqPkts: cnt4_o = f64(e_csr, 1);
        xtm_reg_pkg::XtmRegQEnqBytes: cnt4_o = f64(e_csr, 2);
        xtm_reg_pkg::XtmRegQDropTail: cnt4_o = f64(e_csr, 3);
        xtm_reg_pkg::XtmRegQDropPool: cnt4_o = f64(e_csr, 4);
        xtm_reg_pkg::XtmRegQDropProfile: cnt4_o = f64(e_csr, 5);
        xtm_reg_pkg::XtmRegQDropHdrm: cnt4_o = f64(e_csr, 6);
        xtm_reg_pkg::XtmRegQDropBuf: cnt4_o = f64(e_csr, 7);
        xtm_reg_pkg::XtmRegQDropQdis: cnt4_o = f64(e_csr, 8);
        xtm_reg_pkg::XtmRegQDropWd: cnt4_o = f64(e_csr, 9);
        xtm_reg_pkg::XtmRegQDropBytes: cnt4_o = f64(e_csr, 10);
        xtm_reg_pkg::XtmRegQMarkTail: cnt4_o = f64(e_csr, 11);
        xtm_reg_pkg::XtmRegQHbmEvict: cnt4_o = f64(e_csr, 12);
        xtm_reg_pkg::XtmRegQMarkHead: cnt4_o = m_csr[0+:64];
        xtm_reg_pkg::XtmRegQMarkLat: cnt4_o = m_csr[64+:64];
        default: ;
      endcase
      if (op4_i.id >= xtm_reg_pkg::XtmRegGXoffSent && op4_i.id <= xtm_reg_pkg::XtmRegGPausedCycles)
      begin
        gacc = acc_c[32'(7'(op4_i.id - xtm_reg_pkg::XtmRegGXoffSent))];
        cnt4_o = g_csr[64*(32'(7'(op4_i.id - xtm_reg_pkg::XtmRegGXoffSent)))+:64] + 64'(gacc);
      end
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
        xtm_reg_pkg::XtmRegPTxPkts: cnt5_o = p_csr[0+:64] + 64'(p_acc_q[cp5][0]);
        xtm_reg_pkg::XtmRegPTxBytes: cnt5_o = p_csr[64+:64] + 64'(p_bacc_q[cp5]);
        xtm_reg_pkg::XtmRegPPfcTxFrames: cnt5_o = p_csr[128+:64] + 64'(p_acc_q[cp5][2]);
        xtm_reg_pkg::XtmRegPPfcRxFrames: cnt5_o = p_csr[192+:64] + 64'(p_acc_q[cp5][3]);
        default: ;
      endcase
    end
  end

endmodule
