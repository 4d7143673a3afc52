// SPDX-License-Identifier: Apache-2.0
//
// xtm_wd: the PFC watchdog (docs/spec.md 8), commit stage. A poll starting at cycle t0
// visits egress port k at t0 + k, all its VOQs at once: storm detection in MONITOR,
// restoration in STALLED, with the storm/clean poll counters and the Q_WD_STALL /
// Q_WD_RESTORE counters of the port's VOQs in one RAM row per port (read a cycle ahead).
// The STALLED bits, the per-VOQ "sent" and per-(port, priority) "rx" bits are flops; the
// new states take effect from the next cycle. Counters are cleared by a row-valid vector.

`default_nettype none

module xtm_wd #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  // derived, do not override
  parameter int unsigned NumVoqs  = NumPorts * NumTcs,
  parameter int unsigned NumPgs   = 8 * NumPorts,
  parameter int unsigned VoqW     = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]          t4_i,
  input  xtm_pkg::glob_cfg_t        glob_i,
  input  wire logic [NumVoqs-1:0]   ne_i,       // S(t)
  input  wire logic [NumVoqs-1:0]   wden_i,
  input  wire logic [NumVoqs-1:0]   rxen_i,
  input  wire logic [3*NumVoqs-1:0] prio_i,
  input  wire logic [NumPgs-1:0]    paused_i,   // after this cycle's frames
  input  wire logic [NumPgs-1:0]    pause_rx_i, // frames with quanta > 0 this cycle
  input  wire logic                 sel_i,      // a selection (sets "sent")
  input  wire logic [8:0]           sel_voq_i,
  output logic [NumVoqs-1:0]        stalled_o,  // S(t)
  input  wire logic                 clr_i,
  input  xtm_pkg::csr_op_t          op3_i,
  input  xtm_pkg::csr_op_t          op4_i,
  output logic [31:0]               rd4_o,
  output logic [63:0]               cnt4_o
);

  // RAM row of a port: per queue q at [144q +: 144]: {restore 64, stall 64, clean 8, storm 8}
  localparam int unsigned QW = 144;
  localparam int unsigned PgW = $clog2(NumPgs);
  localparam int unsigned RW = QW * NumTcs;

  logic [63:0] next_poll_q;
  logic sweep_q;                 // a poll sweep is in progress (visiting port port_q)
  logic [PortW-1:0] port_q;
  logic [NumVoqs-1:0] stalled_q /* verilator public_flat_rd */;
  logic [NumVoqs-1:0] sent_q;
  logic [NumPgs-1:0] rx_q, rx_now;
  logic [NumPorts-1:0] cvalid_q; // the row's counters are valid (cleared by CLR_CNT)

  logic init_sweep, start, visit, last;
  logic [PortW-1:0] vport;
  assign init_sweep = t4_i < 64'(NumPorts);
  assign start = t4_i == next_poll_q;
  assign visit = start || sweep_q;
  assign vport = start ? '0 : port_q;
  assign last = 32'(vport) + 1 == NumPorts;
  assign rx_now = rx_q | pause_rx_i;

  // the next poll cycle after this one (a start advances it, a WD_POLL_CYCLES write
  // restarts it) and whether the next cycle visits a port: the row is read only then
  logic [63:0] np_d;
  logic wr_poll, visit_next;
  assign wr_poll = op4_i.wr && op4_i.id == xtm_reg_pkg::XtmRegWdPollCycles;
  always_comb begin : c_next
    np_d = next_poll_q;
    if (start) begin
      np_d = next_poll_q + {32'd0, glob_i.wd_poll};
    end
    if (wr_poll) begin
      np_d = t4_i + 64'd1 + {32'd0, op4_i.wdata};
    end
    visit_next = (visit && !last) || np_d == t4_i + 64'd1;
  end

  // the row of the next cycle's visit is read a cycle ahead (only in the cycle before a
  // visit: no row-wide read while idle); row 0 for a start
  logic [RW-1:0] row, wrow;
  logic [PortW-1:0] pre;
  assign pre = (visit && !last) ? vport + 1'b1 : '0;
  logic lw_q;
  logic [PortW-1:0] lw_row_q;
  logic [RW-1:0] lw_data_q;
  logic [RW-1:0] row_raw, crow_raw;
  xtm_ram_2r1w #(
    .Width(RW),
    .Depth(NumPorts),
    .AllowRdWrSame(1'b1)   // CSR reads of the row written this cycle are forwarded (lw_*)
  ) u_rows (
    .clk_i,
    .rst_ni,
    .we_i     (init_sweep || visit),
    .waddr_i  (init_sweep ? PortW'(t4_i) : vport),
    .wdata_i  (init_sweep ? '0 : wrow),
    .wmask_i  ({RW{1'b1}}),
    .a_re_i   (!t4_i[63] && t4_i >= 64'(NumPorts) && visit_next),
    .a_raddr_i(pre),
    .a_rdata_o(row_raw),
    .b_re_i   (op3_i.rd && (op3_i.id == xtm_reg_pkg::XtmRegQWdStall ||
                            op3_i.id == xtm_reg_pkg::XtmRegQWdRestore ||
                            op3_i.id == xtm_reg_pkg::XtmRegQStatus)),
    .b_raddr_i(PortW'(32'(op3_i.voq) / NumTcs)),
    .b_rdata_o(crow_raw)
  );
  assign row = row_raw;
  logic [PortW-1:0] cport;
  assign cport = PortW'(32'(op4_i.voq) / NumTcs);

  // the visit of port vport
  logic [NumTcs-1:0] st_new;
  always_comb begin : c_visit
    logic [7:0] storm, clean;
    logic [63:0] nstall, nrest;
    int unsigned v;
    logic [PgW-1:0] g;
    wrow = '0;  // (used only with a visit: no row-wide copy in the other cycles)
    st_new = '0;
    storm = '0;
    clean = '0;
    nstall = '0;
    nrest = '0;
    v = 0;
    g = '0;
    // the loop bound is a constant (Yosys 0.23 rejects a loop condition on a signal);
    // the visit condition outside it still skips the loop when no port is visited, and
    // the loop's temporaries are declared and defaulted outside it (no latch on that path)
    if (visit) begin
      wrow = row;
      st_new = stalled_q[32'(vport)*NumTcs+:NumTcs];
      for (int q = 0; q < 32'(NumTcs); q++) begin
        v = 32'(vport) * 32'(NumTcs) + q;
        g = PgW'(32'(vport) * 8 + 32'(prio_i[3*v+:3]));
        storm = row[QW*q+:8];
        clean = row[QW*q+8+:8];
        nstall = cvalid_q[vport] ? row[QW*q+16+:64] : '0;
        nrest = cvalid_q[vport] ? row[QW*q+80+:64] : '0;
        if (glob_i.wd_en && wden_i[v]) begin
          if (!stalled_q[v]) begin
            if (rxen_i[v] && paused_i[g] && ne_i[v] && !sent_q[v]) begin
              storm = (storm == 8'hFF) ? 8'hFF : storm + 8'd1;
              if (storm >= glob_i.wd_detect) begin
                st_new[q] = 1'b1;
                storm = '0;
                clean = '0;
                nstall = nstall + 64'd1;
              end
            end else begin
              storm = '0;
            end
          end else begin
            if (rx_now[g]) begin
              clean = '0;
            end else if (clean != 8'hFF) begin
              clean = clean + 8'd1;
            end
            if (clean >= glob_i.wd_restore) begin
              st_new[q] = 1'b0;
              storm = '0;
              clean = '0;
              nrest = nrest + 64'd1;
            end
          end
        end
        wrow[QW*q+:QW] = {nrest, nstall, clean, storm};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_state
    if (!rst_ni) begin
      next_poll_q <= 64'(xtm_reg_pkg::XTM_WD_POLL_CYCLES_RESVAL);
      sweep_q <= 1'b0;
      port_q <= '0;
      stalled_q <= '0;
      sent_q <= '0;
      rx_q <= '0;
      cvalid_q <= '0;
      lw_q <= 1'b0;
      lw_row_q <= '0;
      lw_data_q <= '0;
    end else begin
      lw_q <= visit || init_sweep;
      if (visit || init_sweep) begin  // the last write (no copy of the row without one)
        lw_row_q <= init_sweep ? PortW'(t4_i) : vport;
        lw_data_q <= init_sweep ? '0 : wrow;
      end
      rx_q <= rx_now;
      if (start || wr_poll) begin
        next_poll_q <= np_d;
      end
      if (visit) begin
        sweep_q <= !last;
        port_q <= vport + 1'b1;
        stalled_q[32'(vport)*NumTcs+:NumTcs] <= st_new;
        sent_q[32'(vport)*NumTcs+:NumTcs] <= '0;
        rx_q[32'(vport)*8+:8] <= '0;
        cvalid_q[vport] <= 1'b1;
      end
      if (sel_i) begin
        sent_q[VoqW'(sel_voq_i)] <= 1'b1;
      end
      if (clr_i) begin
        cvalid_q <= '0;
      end
    end
  end
  assign stalled_o = stalled_q;

  // CSR: Q_STATUS stall bit and poll counters, Q_WD_STALL / Q_WD_RESTORE
  logic [VoqW-1:0] cv;
  int unsigned cq;
  assign cv = VoqW'(op4_i.voq);
  assign cq = 32'(op4_i.voq) % NumTcs;
  // the CSR's queue's part of its port's row (the row written last cycle is forwarded): the
  // queue's 144 bits are selected first, and only for a read (no row-wide mux every cycle)
  logic [QW-1:0] ctc;
  always_comb begin : c_rd4
    rd4_o = '0;
    cnt4_o = '0;
    ctc = '0;
    if (op4_i.rd) begin
      ctc = (lw_q && lw_row_q == cport) ? lw_data_q[QW*cq+:QW] : crow_raw[QW*cq+:QW];
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegQStatus:
          rd4_o = {8'd0, ctc[8+:8], ctc[0+:8], 5'd0, stalled_q[cv], 2'd0};
        xtm_reg_pkg::XtmRegQWdStall:
          cnt4_o = cvalid_q[cport] ? ctc[16+:64] : '0;
        xtm_reg_pkg::XtmRegQWdRestore:
          cnt4_o = cvalid_q[cport] ? ctc[80+:64] : '0;
        default: ;
      endcase
    end
  end

endmodule
