// SPDX-License-Identifier: Apache-2.0
//
// xtm_stats_pp: the per-PG, per-port and global 64-bit counters (docs/spec.md 4.5, 7, 9.6,
// 10.2). Many PGs or ports can count in one cycle, so each has narrow accumulators in
// flops, flushed into its RAM row one PG / port per cycle (the Corundum stats_collect
// pattern); a read is row + accumulator, exact in every cycle. Rows have valid bits for the
// one-cycle CTRL.CLR_CNT. The global error counters are flops.

`default_nettype none

module xtm_stats_pp #(
  parameter int unsigned NumPorts = 8,
  // derived, do not override
  parameter int unsigned NumPgs   = 8 * NumPorts,
  parameter int unsigned PgW      = $clog2(NumPgs),
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned PgAccW   = $clog2(NumPgs + 1),
  parameter int unsigned PAccW    = $clog2(NumPorts + 1),
  parameter int unsigned BAccW    = $clog2(NumPorts * 16383 + 1)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]         t4_i,
  input  xtm_pkg::admit_t          adm_i,
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
  input  wire logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] tx_rec_i,  // (only the lengths are read)
  input  wire logic                clr4_i,
  input  wire logic                clr5_i,
  input  xtm_pkg::csr_op_t         op3_i,
  input  xtm_pkg::csr_op_t         op4_i,
  input  xtm_pkg::csr_op_t         op5_i,
  output logic [63:0]              cnt4_o,
  output logic [63:0]              cnt5_o
);

  localparam int unsigned GN = 5;   // per PG
  localparam int unsigned PN = 4;   // per port

  // ------------------------------------------------------------------ PG counters
  // row: 0 XOFF_SENT 1 XON_SENT 2 PAUSE_RX 3 XON_RX 4 PAUSED_CYCLES. The accumulators of all
  // PGs are held as bit planes (plane b = bit b of every PG's accumulator): one cycle's
  // increments of every PG are a ripple of PgAccW vector operations. The planes are one
  // packed vector (not an unpacked array): Verilator then writes a counter's planes in
  // place, where an array took a delayed-write flag and value per plane in every cycle.
  // One dimension (Yosys 0.23 parses no multi-dimensional packed array): counter k's planes
  // at [PlW*k +: PlW], its plane b at [PlW*k + NumPgs*b +: NumPgs].
  localparam int unsigned PlW = PgAccW * NumPgs;
  logic [GN*PlW-1:0] g_pl_q, g_pl_d;
  logic [64*GN-1:0] g_rd_a, g_rd_b, g_row, g_new, g_lw_q;
  logic [63:0] g_csr;  // the CSR's word of its PG's row
  logic [NumPgs-1:0] g_val_q, g_ev [GN];
  logic [PgW-1:0] gf_q, g_lw_row_q, gpre;
  logic g_lw_v_q, g_lw_ok_q, g_on;
  logic g_wr;  // the flushed row changes: a clear, not yet valid, or a non-zero accumulator
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
    .we_i     (g_on && g_wr),
    .waddr_i  (gf_q),
    .wdata_i  (g_new),
    .wmask_i  ({(64*GN){1'b1}}),
    .a_re_i   (1'b1),
    .a_raddr_i(g_on ? gpre : '0),
    .a_rdata_o(g_rd_a),
    .b_re_i   (op3_i.rd),
    .b_raddr_i(PgW'(op3_i.pg)),
    .b_rdata_o(g_rd_b)
  );

  // the accumulators of the flushed PG and of the CSR's PG
  logic [PgAccW-1:0] acc_f [GN];
  logic [PgW-1:0] cg4;
  logic [NumPgs-1:0] g_keep;
  assign cg4 = PgW'(op4_i.pg);
  logic g_reg;
  logic [2:0] gk;  // the word of a PG counter register (0 when not one)
  always_comb begin : c_gk  // (the register decode only for a read)
    g_reg = 1'b0;
    gk = '0;
    if (op4_i.rd) begin
      g_reg = op4_i.id >= xtm_reg_pkg::XtmRegGXoffSent &&
              op4_i.id <= xtm_reg_pkg::XtmRegGPausedCycles;
      gk = g_reg ? 3'(7'(op4_i.id - xtm_reg_pkg::XtmRegGXoffSent)) : '0;
    end
  end
  assign g_keep = clr4_i ? '0 : ~(NumPgs'(1) << gf_q);   // the flushed PG restarts
  // A counter's planes change only when it has an event, a clear or a non-zero accumulator
  // in the flushed PG (g_upd: the planes' enable); g_pl_d is don't-care (0) without it.
  logic [GN-1:0] g_upd;
  always_comb begin : c_pg
    logic [NumPgs-1:0] carry, kept, nz;
    carry = '0;
    kept = '0;
    g_wr = clr4_i || !g_val_q[gf_q];
    for (int k = 0; k < 32'(GN); k++) begin
      // the flushed PG's accumulator is non-zero: the OR of the planes at its bit (one
      // vector OR per plane); its value is gathered only then
      nz = '0;
      for (int b = 0; b < 32'(PgAccW); b++) begin
        nz = nz | g_pl_q[PlW*k+NumPgs*b+:NumPgs];
      end
      acc_f[k] = '0;
      if (nz[gf_q]) begin
        for (int b = 0; b < 32'(PgAccW); b++) begin
          acc_f[k][b] = g_pl_q[PlW*k+NumPgs*b+32'(gf_q)];
        end
      end
      g_upd[k] = clr4_i || g_ev[k] != '0 || nz[gf_q];
      g_wr = g_wr || nz[gf_q];
      g_pl_d[PlW*k+:PlW] = '0;
      if (g_upd[k]) begin
        for (int b = 0; b < 32'(PgAccW); b++) begin
          g_pl_d[PlW*k+NumPgs*b+:NumPgs] = g_pl_q[PlW*k+NumPgs*b+:NumPgs] & g_keep;
        end
        carry = g_ev[k] & (clr4_i ? '0 : '1);
        kept = '0;
        if (carry != '0) begin  // (most counters see no event in most cycles)
          for (int b = 0; b < 32'(PgAccW); b++) begin
            kept = g_pl_d[PlW*k+NumPgs*b+:NumPgs];
            g_pl_d[PlW*k+NumPgs*b+:NumPgs] = kept ^ carry;
            carry = kept & carry;
          end
        end
      end
    end
    // the new row, only needed when it is written (g_wr)
    g_row = '0;
    g_new = '0;
    if (g_wr) begin
      g_row = g_val_q[gf_q] ? g_rd_a : '0;
      for (int k = 0; k < 32'(GN); k++) begin
        g_new[64*k+:64] = g_row[64*k+:64] + 64'(acc_f[k]);
      end
    end
    // the register's word first, then the row (forwarded or read): a 64-bit mux, formed
    // only for a read
    g_csr = '0;
    if (op4_i.rd) begin
      g_csr = (g_lw_v_q && g_lw_row_q == cg4) ? (g_lw_ok_q ? g_lw_q[64*32'(gk)+:64] : '0) :
              (g_val_q[cg4] ? g_rd_b[64*32'(gk)+:64] : '0);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pg
    if (!rst_ni) begin
      for (int k = 0; k < 32'(GN); k++) begin  // (a counter at a time: 2,304 bits at 32 ports)
        g_pl_q[PlW*k+:PlW] <= '0;
      end
      g_val_q <= '0;
      gf_q <= '0;
      g_lw_v_q <= 1'b0;
      g_lw_ok_q <= 1'b0;
      g_lw_row_q <= '0;
      g_lw_q <= '0;
    end else if (g_on) begin
      for (int k = 0; k < 32'(GN); k++) begin
        if (g_upd[k]) begin
          g_pl_q[PlW*k+:PlW] <= g_pl_d[PlW*k+:PlW];
        end
      end
      gf_q <= gpre;
      g_val_q[gf_q] <= 1'b1;
      if (clr4_i) begin
        g_val_q <= '0;
      end
      // the last write, forwarded to a read of its row in the next cycle; without a write
      // the row in the RAM is current
      g_lw_v_q <= g_wr;
      if (g_wr) begin
        g_lw_ok_q <= !clr4_i;
        g_lw_row_q <= gf_q;
        g_lw_q <= g_new;
      end
    end
  end

  // ------------------------------------------------------------------ port counters (stage 5)
  // row: 0 TX_PKTS 1 TX_BYTES 2 PFC_TX_FRAMES 3 PFC_RX_FRAMES
  logic [PAccW-1:0] p_acc_q [NumPorts][PN];
  logic [BAccW-1:0] p_bacc_q [NumPorts];
  logic [NumPorts-1:0] pfc_tx5_q, pfc_rx5_q;
  logic [64*PN-1:0] p_rd_a, p_rd_b, p_row, p_new, p_lw_q;
  logic [63:0] p_csr;  // the CSR's word of its port's row
  logic [NumPorts-1:0] p_val_q;
  logic [PortW-1:0] pf_q, p_lw_row_q, ppre;
  logic p_lw_v_q, p_lw_ok_q, p_on;
  logic p_wr;  // the flushed row changes (as g_wr)
  logic t5_neg_q;
  logic [NumPorts-1:0] p_ev;  // a port with an event this cycle
  assign p_ev = tx_i | pfc_tx5_q | pfc_rx5_q;
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
    .we_i     (p_on && p_wr),
    .waddr_i  (pf_q),
    .wdata_i  (p_new),
    .wmask_i  ({(64*PN){1'b1}}),
    .a_re_i   (1'b1),
    .a_raddr_i(p_on ? ppre : '0),
    .a_rdata_o(p_rd_a),
    .b_re_i   (op4_i.rd),
    .b_raddr_i(PortW'(op4_i.port)),
    .b_rdata_o(p_rd_b)
  );
  logic [PortW-1:0] cp5;
  assign cp5 = PortW'(op5_i.port);
  logic [1:0] pk;  // the word of a port counter register
  always_comb begin : c_pk
    pk = '0;
    if (op5_i.rd) begin  // (the register decode only for a read)
      unique case (op5_i.id)
        xtm_reg_pkg::XtmRegPTxPkts: pk = 2'd0;
        xtm_reg_pkg::XtmRegPTxBytes: pk = 2'd1;
        xtm_reg_pkg::XtmRegPPfcTxFrames: pk = 2'd2;
        xtm_reg_pkg::XtmRegPPfcRxFrames: pk = 2'd3;
        default: ;
      endcase
    end
  end
  always_comb begin : c_port
    p_wr = clr5_i || !p_val_q[pf_q] || p_acc_q[pf_q][0] != '0 || p_bacc_q[pf_q] != '0 ||
           p_acc_q[pf_q][2] != '0 || p_acc_q[pf_q][3] != '0;
    p_row = '0;
    p_new = '0;
    if (p_wr) begin  // (the new row is only needed when it is written)
      p_row = p_val_q[pf_q] ? p_rd_a : '0;
      p_new[0+:64] = p_row[0+:64] + 64'(p_acc_q[pf_q][0]);
      p_new[64+:64] = p_row[64+:64] + 64'(p_bacc_q[pf_q]);
      p_new[128+:64] = p_row[128+:64] + 64'(p_acc_q[pf_q][2]);
      p_new[192+:64] = p_row[192+:64] + 64'(p_acc_q[pf_q][3]);
    end
    p_csr = '0;  // (as g_csr)
    if (op5_i.rd) begin
      p_csr = (p_lw_v_q && p_lw_row_q == cp5) ? (p_lw_ok_q ? p_lw_q[64*32'(pk)+:64] : '0) :
              (p_val_q[cp5] ? p_rd_b[64*32'(pk)+:64] : '0);
    end
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
          if (clr5_i) begin
            p_acc_q[p][0] <= '0;
            p_acc_q[p][2] <= '0;
            p_acc_q[p][3] <= '0;
            p_bacc_q[p] <= '0;
          end else if (PortW'(p) == pf_q || p_ev[p]) begin  // (else all + 0)
            e0 = PAccW'(tx_i[p]);  // (the increments only for a port that changes)
            e2 = PAccW'(pfc_tx5_q[p]);
            e3 = PAccW'(pfc_rx5_q[p]);
            bl = tx_i[p] ? tx_rec_i[p*xtm_pkg::DEQ_REC_W+xtm_pkg::DEQ_REC_LEN_LSB+:14] : '0;
            if (PortW'(p) == pf_q) begin
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
        end
        pf_q <= ppre;
        p_val_q[pf_q] <= 1'b1;
        if (clr5_i) begin
          p_val_q <= '0;
        end
        p_lw_v_q <= p_wr;
        if (p_wr) begin
          p_lw_ok_q <= !clr5_i;
          p_lw_row_q <= pf_q;
          p_lw_q <= p_new;
        end
      end
    end
  end

  // ------------------------------------------------------------------ global error counters
  // ARR_PKTS and the five ERR_* counters: six registers (not an array: one enable each,
  // no per-element delayed-write flags in a Verilated cycle)
  logic [63:0] ecnt_q [6];
  logic [63:0] earr_q, elz_q, elm_q, ebp_q, ebt_q, enr_q;
  assign ecnt_q[0] = earr_q;
  assign ecnt_q[1] = elz_q;
  assign ecnt_q[2] = elm_q;
  assign ecnt_q[3] = ebp_q;
  assign ecnt_q[4] = ebt_q;
  assign ecnt_q[5] = enr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_glob
    if (!rst_ni) begin
      earr_q <= '0;
      elz_q <= '0;
      elm_q <= '0;
      ebp_q <= '0;
      ebt_q <= '0;
      enr_q <= '0;
    end else if (clr4_i) begin
      earr_q <= '0;
      elz_q <= '0;
      elm_q <= '0;
      ebp_q <= '0;
      ebt_q <= '0;
      enr_q <= '0;
    end else if (adm_i.valid) begin
      earr_q <= earr_q + 64'd1;
      unique case (adm_i.reason)
        xtm_pkg::RsnLenZero: elz_q <= elz_q + 64'd1;
        xtm_pkg::RsnLenMax: elm_q <= elm_q + 64'd1;
        xtm_pkg::RsnBadPort: ebp_q <= ebp_q + 64'd1;
        xtm_pkg::RsnBadTc: ebt_q <= ebt_q + 64'd1;
        xtm_pkg::RsnNotReady: enr_q <= enr_q + 64'd1;
        default: ;
      endcase
    end
  end

  logic [PgAccW-1:0] gacc;
  always_comb begin : c_rd4
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
        default: ;
      endcase
      if (g_reg) begin
        for (int b = 0; b < 32'(PgAccW); b++) begin  // the CSR's PG's accumulator
          gacc[b] = g_pl_q[PlW*32'(gk) + NumPgs*b + 32'(cg4)];
        end
        cnt4_o = g_csr + 64'(gacc);
      end
    end
  end

  always_comb begin : c_rd5
    cnt5_o = '0;
    if (op5_i.rd) begin
      unique case (op5_i.id)
        xtm_reg_pkg::XtmRegPTxPkts: cnt5_o = p_csr + 64'(p_acc_q[cp5][0]);
        xtm_reg_pkg::XtmRegPTxBytes: cnt5_o = p_csr + 64'(p_bacc_q[cp5]);
        xtm_reg_pkg::XtmRegPPfcTxFrames: cnt5_o = p_csr + 64'(p_acc_q[cp5][2]);
        xtm_reg_pkg::XtmRegPPfcRxFrames: cnt5_o = p_csr + 64'(p_acc_q[cp5][3]);
        default: ;
      endcase
    end
  end

endmodule
