// SPDX-License-Identifier: Apache-2.0
//
// xtm_sched: the dequeue slot of the commit stage (docs/spec.md 9.1-9.3, 9.7). The flush
// engine takes the slot when any VOQ is flushing (lowest index first); otherwise the
// eligible VOQs (bit-vector AND of S(t) with the pause state after this cycle's frames and
// the FIFO room after this cycle's transmissions) request their port, the port round robin
// picks one (9.2), and within it the highest strict queue or DWRR (9.3). The deficits, the
// DWRR pointers and the port pointer are the loop state kept here in flops.

`default_nettype none

module xtm_sched #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  // derived, do not override
  parameter int unsigned NumVoqs  = NumPorts * NumTcs,
  parameter int unsigned VoqW     = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned QW       = (NumTcs > 1) ? $clog2(NumTcs) : 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [NumVoqs-1:0]    ne_i,
  input  wire logic [NumVoqs-1:0]    en_i,
  input  wire logic [NumVoqs-1:0]    stalled_i,
  input  wire logic                  wd_fwd_i,
  input  wire logic [NumVoqs-1:0]    strict_i,
  input  wire logic [NumVoqs-1:0]    rxen_i,
  input  wire logic [3*NumVoqs-1:0]  prio_i,
  input  wire logic [8*NumPorts-1:0] paused_i,     // (port, priority) paused this cycle
  input  wire logic [NumVoqs-1:0]    shen_i,
  input  wire logic [NumVoqs-1:0]    conform_i,    // queue shaper conformance bits
  input  wire logic [NumVoqs-1:0]    head_hbm_i,
  input  wire logic                  hbm_rd_ok_i,
  input  wire logic [NumPorts-1:0]   port_ok_i,    // FIFO room and port shaper conform
  input  wire logic [16*NumVoqs-1:0] quantum_i,
  // the removal
  output logic                       rm_o,
  output logic                       flush_o,
  output logic [8:0]                 voq_o,
  output logic [5:0]                 port_o,
  input  wire logic [13:0]           len_i,        // head of voq_o (xtm_qmgr)
  input  wire logic                  last_i,       // it is the VOQ's last packet
  input  xtm_pkg::csr_op_t           op4_i,
  output logic [31:0]                rd4_o
);

  logic signed [23:0] def_q [NumVoqs] /* verilator public_flat_rd */;
  logic [QW-1:0] rr_q [NumPorts];
  logic [PortW-1:0] port_rr_q;

  // ports per group of the request test: as many as fill 32 bits (NumTcs divides 32), else 1
  localparam int unsigned GrpPorts = (NumTcs <= 32 && 32 % NumTcs == 0) ?
                                     ((32 / NumTcs < NumPorts) ? 32 / NumTcs : NumPorts) : 1;
  localparam int unsigned GrpW = GrpPorts * NumTcs;
  localparam int unsigned NumGrp = (NumPorts + GrpPorts - 1) / GrpPorts;
  logic [NumGrp*GrpW-1:0] elig_pad;  // elig, padded to whole groups
  logic [NumVoqs-1:0] drop_st, fwd_st, paused_voq, elig, flushing;
  logic [NumPorts-1:0] req;
  always_comb begin : c_elig
    drop_st = stalled_i & {NumVoqs{!wd_fwd_i}};
    fwd_st = stalled_i & {NumVoqs{wd_fwd_i}};
    paused_voq = '0;
    if (paused_i != '0) begin  // (the common case, nothing paused, skips the per-VOQ mux)
      for (int p = 0; p < 32'(NumPorts); p++) begin
        if (paused_i[8*p+:8] != '0) begin  // (and so does a port with no priority paused)
          for (int k = 0; k < 32'(NumTcs); k++) begin
            paused_voq[p*32'(NumTcs)+k] =
                rxen_i[p*32'(NumTcs)+k] && paused_i[8*p+32'(prio_i[3*(p*32'(NumTcs)+k)+:3])];
          end
        end
      end
    end
    flushing = ne_i & (~en_i | drop_st);
    elig = ne_i & en_i & ~drop_st & ~(paused_voq & ~fwd_st) & ~(shen_i & ~conform_i) &
           ~(head_hbm_i & {NumVoqs{!hbm_rd_ok_i}});
    elig_pad = (NumGrp * GrpW)'(elig);
    // the port requests: per group of ports whose queues fill a 32-bit word, tested for an
    // eligible queue first (a simulator then skips the per-port tests of an idle group)
    req = '0;
    if (elig != '0) begin
      for (int w = 0; w < 32'(NumGrp); w++) begin
        if (elig_pad[GrpW*w+:GrpW] != '0) begin
          for (int i = 0; i < 32'(GrpPorts); i++) begin
            if (w * 32'(GrpPorts) + i < 32'(NumPorts)) begin
              req[w*32'(GrpPorts)+i] = (elig[(w*32'(GrpPorts)+i)*32'(NumTcs)+:NumTcs] != '0) &&
                                       port_ok_i[w*32'(GrpPorts)+i];
            end
          end
        end
      end
    end
  end

  // the flush engine: lowest-index flushing VOQ
  logic any_flush, win_valid;
  logic [VoqW-1:0] fv;
  logic [PortW-1:0] win;
  xtm_lowest #(.N(NumVoqs)) u_flush (.vec_i(flushing), .valid_o(any_flush), .idx_o(fv));
  xtm_rr_arb #(.N(NumPorts)) u_port (.req_i(req), .ptr_i(port_rr_q), .valid_o(win_valid),
                                     .idx_o(win));

  // within the winning port: strict, else DWRR search, else a round and a second search
  logic [NumTcs-1:0] e, st, st_rev, pos1, pos2;
  logic [15:0] qnt [NumTcs];
  logic signed [24:0] dq [NumTcs];
  logic st_any, f1, f2, round, sel, strict_sel;
  logic [QW-1:0] st_lo, q1, q2, q;
  always_comb begin : c_port
    logic signed [23:0] dfc;
    dfc = '0;
    e = elig[32'(win)*NumTcs+:NumTcs];
    st = e & strict_i[32'(win)*NumTcs+:NumTcs];
    st_rev = '0;
    pos1 = '0;
    pos2 = '0;
    for (int k = 0; k < 32'(NumTcs); k++) begin
      qnt[k] = '0;
      dq[k] = '0;
    end
    if (st != '0) begin
      for (int k = 0; k < 32'(NumTcs); k++) begin
        st_rev[k] = st[32'(NumTcs)-1-k];
      end
    end else if (win_valid && !any_flush) begin
      // the DWRR searches only when a port wins and no strict queue does, the quantum and
      // deficit tests only for the eligible queues (one 16-bit select of the quantum vector
      // each), and the second search only after an empty first (the request vectors are 0
      // otherwise: their results are not used, c_pick)
      for (int k = 0; k < 32'(NumTcs); k++) begin
        if (e[k]) begin
          qnt[k] = quantum_i[16*(32'(win)*NumTcs+k)+:16];
          dfc = def_q[32'(win)*NumTcs+32'(k)];
          // "> 0" as "not negative and not zero" (no sign extension to 32 bits); the sum in
          // 25 bits is exact (deficit 24-bit signed, quantum 16-bit)
          dq[k] = {dfc[23], dfc} + $signed({9'd0, qnt[k]});
          pos1[k] = !dfc[23] && dfc != '0;
          pos2[k] = !dq[k][24] && dq[k] != '0;
        end
      end
      if (pos1 != '0) begin
        pos2 = '0;
      end
    end
  end
  xtm_lowest #(.N(NumTcs)) u_strict (.vec_i(st_rev), .valid_o(st_any), .idx_o(st_lo));
  xtm_rr_arb #(.N(NumTcs)) u_dwrr1 (.req_i(pos1), .ptr_i(rr_q[win]), .valid_o(f1), .idx_o(q1));
  xtm_rr_arb #(.N(NumTcs)) u_dwrr2 (.req_i(pos2), .ptr_i(rr_q[win]), .valid_o(f2), .idx_o(q2));

  always_comb begin : c_pick
    strict_sel = st_any;
    round = !st_any && !f1;
    sel = st_any || f1 || f2;
    q = st_any ? QW'(32'(NumTcs) - 1 - 32'(st_lo)) : (f1 ? q1 : q2);
    rm_o = any_flush || (win_valid && sel);
    flush_o = any_flush;
    voq_o = any_flush ? 9'(fv) : 9'(32'(win) * NumTcs + 32'(q));
    port_o = any_flush ? 6'(32'(fv) / NumTcs) : 6'(win);
  end

  // deficit of the removed VOQ after this cycle (9.3; a VOQ emptied keeps no positive one)
  logic signed [24:0] dsel;
  logic [VoqW-1:0] vsel;
  assign vsel = VoqW'(voq_o);
  always_comb begin : c_charge
    dsel = '0;
    if (rm_o) begin  // (used only with a removal)
      dsel = {def_q[vsel][23], def_q[vsel]};
      if (!any_flush && !strict_sel) begin
        dsel = dsel + (round ? $signed({9'd0, qnt[q]}) : 25'sd0) - $signed({11'd0, len_i});
      end
      if (last_i && !dsel[24] && dsel != '0) begin  // dsel > 0
        dsel = '0;
      end
    end
  end

  // (the deficits of a round are loaded together, each holding unless its queue is
  // eligible, then the removed VOQ's: a simulator tests two enables per cycle, not nine)
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_state
    if (!rst_ni) begin
      for (int v = 0; v < 32'(NumVoqs); v++) begin
        def_q[v] <= '0;
      end
      for (int p = 0; p < 32'(NumPorts); p++) begin
        rr_q[p] <= '0;
      end
      port_rr_q <= '0;
    end else begin
      if (!any_flush && win_valid) begin
        port_rr_q <= (32'(win) + 1 == NumPorts) ? '0 : win + 1'b1;
        if (round) begin
          for (int k = 0; k < 32'(NumTcs); k++) begin  // deficit + quantum
            def_q[32'(win)*NumTcs+32'(k)] <= e[k] ? dq[k][23:0] :
                                                    def_q[32'(win)*NumTcs+32'(k)];
          end
        end
        if (sel && !strict_sel) begin
          rr_q[win] <= (dsel <= 0 || last_i) ? ((32'(q) + 1 == NumTcs) ? '0 : q + 1'b1) : q;
        end
      end
      if (rm_o) begin  // a selection (sel) or the flush engine
        def_q[vsel] <= dsel[23:0];
      end
    end
  end

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegQDeficit) begin
      rd4_o = {{8{def_q[VoqW'(op4_i.voq)][23]}}, def_q[VoqW'(op4_i.voq)]};
    end
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegQStatus) begin
      rd4_o = {28'd0, flushing[VoqW'(op4_i.voq)], 3'd0};
    end
  end

endmodule
