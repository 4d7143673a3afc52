// SPDX-License-Identifier: Apache-2.0
//
// xtm_pfc_tx: priority-group accounting and PFC generation on the ingress side (docs/spec.md
// 4.4 headroom, 7.1), commit stage. Per PG in flops: resident cells, headroom in use, XOFF,
// the watermarks, and the G_* thresholds (read by the admission and by up to three
// evaluations in one cycle). The PGs touched in cycle t-1 (an acceptance, a removal, a
// threshold write) are evaluated in cycle t on S(t) (spec 7.1: one cycle after their
// trigger, so the evaluation does not chain behind the admission commit); per ingress port
// a frame goes out on a set, a release, or a refresh deadline.

`default_nettype none

module xtm_pfc_tx #(
  parameter int unsigned NumPorts = 8,
  // derived, do not override
  parameter int unsigned NumPgs   = 8 * NumPorts,
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned PgW      = $clog2(NumPgs)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]  t4_i,
  // this cycle's acceptance and removal
  input  xtm_pkg::admit_t   adm_i,
  input  wire logic [8:0]   enq_pg_i,
  input  wire logic [8:0]   enq_cells_i,
  input  wire logic         rm_i,
  input  wire logic [8:0]   rm_pg_i,
  input  wire logic [8:0]   rm_cells_i,
  input  wire logic [27:0]  pool_used_i,   // S(t)
  input  wire logic [27:0]  pool_cells_i,
  input  wire logic         clr_i,
  // S(t) of the enqueue's PG for the admission
  output logic              enq_pfc_en_o,
  output logic              enq_xoff_o,
  output logic [27:0]       enq_hdrm_used_o,
  output logic [27:0]       enq_hdrm_cells_o,
  // frames of this cycle
  output logic [NumPorts-1:0]   tx_valid_o,
  output logic [8*NumPorts-1:0] tx_vec_o,
  output logic [8*NumPorts-1:0] tx_xmask_o,   // priorities sent with quanta (in XOFF)
  output logic [16*NumPorts-1:0] tx_quanta_o, // P_PFC_QUANTA of the port
  output logic [NumPgs-1:0]     xoff_sent_o,  // counter events
  output logic [NumPgs-1:0]     xon_sent_o,
  input  xtm_pkg::csr_op_t  op4_i,
  output logic [31:0]       rd4_o
);

  logic [27:0] cells_q [NumPgs] /* verilator public_flat_rd */;
  logic [27:0] hused_q [NumPgs] /* verilator public_flat_rd */;
  logic [27:0] wm_q [NumPgs];
  logic [27:0] hwm_q [NumPgs];
  logic [NumPgs-1:0] xoff_q /* verilator public_flat_rd */;
  logic [5:0]  gcfg_q [NumPgs];    // {ALPHA, DYNAMIC, PFC_EN}
  logic [27:0] gxoff_q [NumPgs];
  logic [27:0] gxon_q [NumPgs];
  logic [27:0] ghdrm_q [NumPgs];
  logic [15:0] quanta_q [NumPorts];
  logic [31:0] refresh_q [NumPorts];
  logic [63:0] refresh_at_q [NumPorts];
  // PGs touched in the previous cycle (acceptance, removal, threshold write)
  logic [2:0] tch_q;
  logic [3*PgW-1:0] tch_pg_q;  // {op4's, the removal's, the acceptance's}

  logic [PgW-1:0] ge, gd, gs;
  assign ge = PgW'(enq_pg_i);
  assign gd = PgW'(rm_pg_i);
  assign gs = PgW'(op4_i.pg);

  assign enq_pfc_en_o = gcfg_q[ge][0];
  assign enq_xoff_o = xoff_q[ge];
  assign enq_hdrm_used_o = hused_q[ge];
  assign enq_hdrm_cells_o = ghdrm_q[ge];

  // ------------------------------------------------------------------ evaluation (7.1)
  logic [27:0] free;
  logic [NumPgs-1:0] set, rel, xoff_d;

  always_comb begin : c_eval
    set = '0;
    rel = '0;
    free = '0;
    if (tch_q != '0) begin  // (the free pool only for an evaluation)
      free = (pool_cells_i > pool_used_i) ? pool_cells_i - pool_used_i : '0;
    end
    for (int k = 0; k < 3; k++) begin
      logic [PgW-1:0] g;
      logic [27:0] xoff_t, xon_t;
      g = tch_pg_q[PgW*k+:PgW];
      xoff_t = '0;
      xon_t = '0;
      if (tch_q[k]) begin  // (the thresholds only of a touched PG)
        if (gcfg_q[g][1]) begin
          xoff_t = free >> gcfg_q[g][5:2];
          xon_t = (xoff_t > gxon_q[g]) ? xoff_t - gxon_q[g] : '0;
        end else begin
          xoff_t = gxoff_q[g];
          xon_t = gxon_q[g];
        end
        if (gcfg_q[g][0] && !xoff_q[g] && cells_q[g] >= xoff_t) begin
          set[g] = 1'b1;
        end else if (xoff_q[g] && (!gcfg_q[g][0] || cells_q[g] <= xon_t)) begin
          rel[g] = 1'b1;
        end
      end
    end
    xoff_d = (xoff_q | set) & ~rel;
  end

  always_comb begin : c_frames
    logic [7:0] m, s, r;
    m = '0;
    s = '0;
    r = '0;
    tx_valid_o = '0;
    tx_vec_o = '0;
    tx_xmask_o = '0;
    xoff_sent_o = '0;
    xon_sent_o = '0;
    tx_quanta_o = '0;  // (used only with a frame's XOFF priorities)
    // (no PG in XOFF and none released: no frame on any port, the common case)
    if (xoff_d != '0 || rel != '0) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        m = xoff_d[8*p+:8];
        s = set[8*p+:8];
        r = rel[8*p+:8];
        // (a port with no PG in XOFF and none released sends nothing: a set PG is in XOFF,
        // so the deadline compare is made only for a port with one)
        if (m != '0 || r != '0) begin
          tx_quanta_o[16*p+:16] = quanta_q[p];
          tx_valid_o[p] = s != '0 || r != '0 || (m != '0 && t4_i >= refresh_at_q[p]);
          tx_vec_o[8*p+:8] = tx_valid_o[p] ? (m | r) : '0;
          tx_xmask_o[8*p+:8] = tx_valid_o[p] ? m : '0;
          xoff_sent_o[8*p+:8] = tx_valid_o[p] ? m : '0;
          xon_sent_o[8*p+:8] = tx_valid_o[p] ? (r & ~m) : '0;
        end
      end
    end
  end

  // ------------------------------------------------------------------ accounting
  logic same;
  logic [27:0] ec, dc, hu_d, cl_d, hu_e, cl_e;
  always_comb begin : c_acct
    same = rm_i && adm_i.acc && gd == ge;
    ec = 28'(enq_cells_i);
    dc = 28'(rm_cells_i);
    hu_d = '0;
    cl_d = '0;
    hu_e = '0;
    cl_e = '0;
    if (rm_i) begin  // (each side formed only with its event: s_state writes it only then)
      // removal: the headroom drains first (4.4)
      hu_d = hused_q[gd] - ((hused_q[gd] < dc) ? hused_q[gd] : dc);
      cl_d = cells_q[gd] - dc;
      if (same) begin
        cl_d = cl_d + ec;
        hu_d = hu_d + (adm_i.hdrm ? ec : '0);
      end
    end
    if (adm_i.acc) begin
      cl_e = cells_q[ge] + ec;
      hu_e = hused_q[ge] + (adm_i.hdrm ? ec : '0);
    end
  end

  function automatic logic wr4(input logic [7:0] id);
    wr4 = op4_i.wr && op4_i.id == id;
  endfunction
  logic rc_wm, rc_hwm;
  assign rc_wm = op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegGWmCells;
  assign rc_hwm = op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegGHdrmWm;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_state
    if (!rst_ni) begin
      for (int g = 0; g < 32'(NumPgs); g++) begin
        cells_q[g] <= '0;
        hused_q[g] <= '0;
        wm_q[g] <= '0;
        hwm_q[g] <= '0;
        gcfg_q[g] <= {xtm_reg_pkg::XTM_G_CFG_RESVAL[7:4], xtm_reg_pkg::XTM_G_CFG_RESVAL[1:0]};
        gxoff_q[g] <= xtm_reg_pkg::XTM_G_XOFF_CELLS_RESVAL[27:0];
        gxon_q[g] <= xtm_reg_pkg::XTM_G_XON_CELLS_RESVAL[27:0];
        ghdrm_q[g] <= xtm_reg_pkg::XTM_G_HDRM_CELLS_RESVAL[27:0];
      end
      for (int p = 0; p < 32'(NumPorts); p++) begin
        quanta_q[p] <= xtm_reg_pkg::XTM_P_PFC_QUANTA_RESVAL[15:0];
        refresh_q[p] <= xtm_reg_pkg::XTM_P_PFC_REFRESH_RESVAL;
        refresh_at_q[p] <= '0;
      end
      xoff_q <= '0;
      tch_q <= '0;
      tch_pg_q <= '0;
    end else begin
      xoff_q <= xoff_d;
      if (tx_valid_o != '0) begin  // (no frame, the common case: one test)
        for (int p = 0; p < 32'(NumPorts); p++) begin  // (each port holds without a frame)
          refresh_at_q[p] <= tx_valid_o[p] ? t4_i + {32'd0, refresh_q[p]} : refresh_at_q[p];
        end
      end
      // watermarks: a clear or a read restarts them from the level at the end of the cycle
      if (clr_i) begin
        for (int g = 0; g < 32'(NumPgs); g++) begin
          wm_q[g] <= cells_q[g];
          hwm_q[g] <= hused_q[g];
        end
      end
      if (rc_wm) begin
        wm_q[gs] <= cells_q[gs];
      end
      if (rc_hwm) begin
        hwm_q[gs] <= hused_q[gs];
      end
      if (rm_i) begin
        cells_q[gd] <= cl_d;
        hused_q[gd] <= hu_d;
        if (clr_i || (rc_wm && gs == gd) || (same && cl_d > wm_q[gd])) begin
          wm_q[gd] <= cl_d;
        end
        if (clr_i || (rc_hwm && gs == gd) || (same && hu_d > hwm_q[gd])) begin
          hwm_q[gd] <= hu_d;
        end
      end
      if (adm_i.acc && !same) begin
        cells_q[ge] <= cl_e;
        hused_q[ge] <= hu_e;
        if (clr_i || (rc_wm && gs == ge) || cl_e > wm_q[ge]) begin
          wm_q[ge] <= cl_e;
        end
        if (clr_i || (rc_hwm && gs == ge) || hu_e > hwm_q[ge]) begin
          hwm_q[ge] <= hu_e;
        end
      end
      // thresholds
      if (op4_i.wr) begin  // (one test in the cycles without a write)
        if (wr4(xtm_reg_pkg::XtmRegGCfg)) gcfg_q[gs] <= {op4_i.wdata[7:4], op4_i.wdata[1:0]};
        if (wr4(xtm_reg_pkg::XtmRegGXoffCells)) gxoff_q[gs] <= op4_i.wdata[27:0];
        if (wr4(xtm_reg_pkg::XtmRegGXonCells)) gxon_q[gs] <= op4_i.wdata[27:0];
        if (wr4(xtm_reg_pkg::XtmRegGHdrmCells)) ghdrm_q[gs] <= op4_i.wdata[27:0];
        if (wr4(xtm_reg_pkg::XtmRegPPfcQuanta)) quanta_q[PortW'(op4_i.port)] <= op4_i.wdata[15:0];
        if (wr4(xtm_reg_pkg::XtmRegPPfcRefresh)) refresh_q[PortW'(op4_i.port)] <= op4_i.wdata;
      end
      // touched this cycle: evaluated in the next
      tch_q <= {op4_i.wr && (op4_i.id == xtm_reg_pkg::XtmRegGCfg ||
                             op4_i.id == xtm_reg_pkg::XtmRegGXoffCells ||
                             op4_i.id == xtm_reg_pkg::XtmRegGXonCells), rm_i, adm_i.acc};
      tch_pg_q <= {gs, gd, ge};
    end
  end

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegGCfg: rd4_o = {24'd0, gcfg_q[gs][5:2], 2'd0, gcfg_q[gs][1:0]};
        xtm_reg_pkg::XtmRegGXoffCells: rd4_o = {4'd0, gxoff_q[gs]};
        xtm_reg_pkg::XtmRegGXonCells: rd4_o = {4'd0, gxon_q[gs]};
        xtm_reg_pkg::XtmRegGHdrmCells: rd4_o = {4'd0, ghdrm_q[gs]};
        xtm_reg_pkg::XtmRegGStatus: rd4_o = {31'd0, xoff_q[gs]};
        xtm_reg_pkg::XtmRegGPgCells: rd4_o = {4'd0, cells_q[gs]};
        xtm_reg_pkg::XtmRegGHdrmUsed: rd4_o = {4'd0, hused_q[gs]};
        xtm_reg_pkg::XtmRegGWmCells: rd4_o = {4'd0, wm_q[gs]};
        xtm_reg_pkg::XtmRegGHdrmWm: rd4_o = {4'd0, hwm_q[gs]};
        xtm_reg_pkg::XtmRegPPfcQuanta: rd4_o = {16'd0, quanta_q[PortW'(op4_i.port)]};
        xtm_reg_pkg::XtmRegPPfcRefresh: rd4_o = refresh_q[PortW'(op4_i.port)];
        xtm_reg_pkg::XtmRegPStatus: rd4_o = {24'd0, xoff_q[32'(op4_i.port)*8+:8]};
        default: ;
      endcase
    end
  end

endmodule
