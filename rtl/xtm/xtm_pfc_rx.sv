// SPDX-License-Identifier: Apache-2.0
//
// xtm_pfc_rx: PFC reception on the egress side (docs/spec.md 7.2), commit stage. Per
// (port, priority) the pause still to run as a MAC counts it: whole quanta (qn_q) and the
// time left of the current quantum (ph_q, Q16.16 cycles). A frame with bit i of its vector
// loads quanta - 1 and one quantum; every cycle takes 65536 off the time and, when it
// reaches 0 or below, adds a quantum (at most four: P_PAUSE_QUANTUM >= 0x4000): one adder
// and four 17-bit compares per priority against per-port multiples of the quantum. The
// priority is paused while the time is non-zero. No multiplier per priority: the one
// product, quanta x quantum, is in the G_PAUSE_REMAIN read. Also the frame events the
// statistics and the watchdog count.

`default_nettype none

module xtm_pfc_rx #(
  parameter int unsigned NumPorts = 8,
  // derived, do not override
  parameter int unsigned NumPgs   = 8 * NumPorts,
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned PgW      = $clog2(NumPgs)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [NumPorts-1:0]     valid_i,     // frames of this logical cycle
  input  wire logic [8*NumPorts-1:0]   vec_i,
  input  wire logic [128*NumPorts-1:0] quanta_i,
  output logic [NumPgs-1:0]            paused_o,    // paused in this cycle (after step 1)
  output logic [NumPgs-1:0]            pause_rx_o,  // a frame with quanta > 0
  output logic [NumPgs-1:0]            xon_rx_o,    // a frame with quanta 0
  input  xtm_pkg::csr_op_t             op4_i,
  output logic [31:0]                  rd4_o
);

  logic [31:0] quantum_q [NumPorts] /* verilator public_flat_rd */;  // P_PAUSE_QUANTUM
  logic [15:0] qn_q [NumPgs] /* verilator public_flat_rd */;  // whole quanta still to run
  logic [31:0] ph_q [NumPgs] /* verilator public_flat_rd */;  // time left of the current one
  logic [15:0] qn_d [NumPgs];
  logic [31:0] ph_d [NumPgs];

  // A port with no frame and no pause running is skipped (act_q: a priority of the port
  // has time left): its registers keep their value (upd, the enable of s_pause) and its next
  // state is don't-care (0). Indices are loop constants only (8 * p + i, never a procedural
  // variable): Yosys 0.23 turns a write through a variable index into a demultiplexer over
  // all NumPgs entries.
  logic [NumPorts-1:0] act_q, act_d, upd;
  always_comb begin : c_rx
    // per active port, for step 2 (k = 0..4 quanta started in the cycle): the time the cycle
    // leaves, kQ - 1.0 (mod 2^32: the result is always in 1 .. 2^32 - 1), and kQ saturated to
    // 17 bits, which is all the test "kQ > 1.0 - time" needs while the time is at most 1.0
    logic [33:0] q1, q2, q3, q4;
    logic [31:0] off1, off2, off3, off4;
    logic [16:0] sat1, sat2, sat3;
    logic hit;
    logic [15:0] q, qn;
    logic [31:0] ph;
    logic [16:0] left;  // 1.0 - time, while the time is at most 1.0
    logic [2:0] need;   // quanta to start in this cycle
    logic [31:0] offs;  // their time less the cycle's
    hit = 1'b0;
    q = '0;
    qn = '0;
    ph = '0;
    left = '0;
    offs = '0;
    need = '0;
    pause_rx_o = '0;
    xon_rx_o = '0;
    paused_o = '0;
    act_d = '0;
    q1 = '0;
    q2 = '0;
    q3 = '0;
    q4 = '0;
    off1 = '0;
    off2 = '0;
    off3 = '0;
    off4 = '0;
    sat1 = '0;
    sat2 = '0;
    sat3 = '0;
    for (int k = 0; k < 32'(NumPgs); k++) begin
      qn_d[k] = '0;
      ph_d[k] = '0;
    end
    upd = valid_i | act_q;
    if (upd != '0) begin  // (no frame and no pause running on any port: nothing to step)
      for (int p = 0; p < 32'(NumPorts); p++) begin
        if (upd[p]) begin
          q1 = {2'd0, quantum_q[p]};
          q2 = {1'd0, quantum_q[p], 1'b0};
          q3 = q1 + q2;
          q4 = {quantum_q[p], 2'b0};
          off1 = 32'(q1 - 34'h10000);
          off2 = 32'(q2 - 34'h10000);
          off3 = 32'(q3 - 34'h10000);
          off4 = 32'(q4 - 34'h10000);
          sat1 = (q1[33:17] != '0) ? '1 : q1[16:0];
          sat2 = (q2[33:17] != '0) ? '1 : q2[16:0];
          sat3 = (q3[33:17] != '0) ? '1 : q3[16:0];
          for (int i = 0; i < 8; i++) begin
            hit = valid_i[p] && vec_i[8*p+i];
            q = quanta_i[16*(8*p+i)+:16];
            pause_rx_o[8*p+i] = hit && q != '0;
            xon_rx_o[8*p+i] = hit && q == '0;
            // step 1: the frame's load
            qn = qn_q[8*p+i];
            ph = ph_q[8*p+i];
            if (hit) begin
              qn = (q != '0) ? q - 16'd1 : '0;
              ph = (q != '0) ? quantum_q[p] : '0;
            end
            paused_o[8*p+i] = ph != '0;
            // step 2 only for a running pause (a priority without one stays at 0, as the
            // else branch below gives for ph = 0): one cycle of time; while the time is at
            // most 1.0, the quanta to start are the fewest k with kQ > 1.0 - time (a 17-bit
            // compare)
            if (ph != '0) begin
              left = 17'(18'h10000 - {1'b0, ph[16:0]});
              if (ph[31:16] != '0 && ph != 32'h10000) need = 3'd0;
              else if (sat1 > left) need = 3'd1;
              else if (sat2 > left) need = 3'd2;
              else if (sat3 > left) need = 3'd3;
              else need = 3'd4;
              unique case (need)
                3'd0: offs = 32'hFFFF_0000;  // -1.0
                3'd1: offs = off1;
                3'd2: offs = off2;
                3'd3: offs = off3;
                default: offs = off4;
              endcase
              if ({13'd0, need} <= qn) begin
                qn_d[8*p+i] = qn - {13'd0, need};
                ph_d[8*p+i] = ph + offs;  // one adder: the offset is selected first
              end
            end
            act_d[p] = act_d[p] || ph_d[8*p+i] != '0;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pause
    if (!rst_ni) begin
      for (int g = 0; g < 32'(NumPgs); g++) begin
        qn_q[g] <= '0;
        ph_q[g] <= '0;
      end
      act_q <= '0;
    end else begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        if (upd[p]) begin
          for (int i = 0; i < 8; i++) begin
            qn_q[8*p+i] <= qn_d[8*p+i];
            ph_q[8*p+i] <= ph_d[8*p+i];
          end
        end
      end
      act_q <= act_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_cfg
    if (!rst_ni) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        quantum_q[p] <= xtm_reg_pkg::XTM_P_PAUSE_QUANTUM_RESVAL;
      end
    end else if (op4_i.wr && op4_i.id == xtm_reg_pkg::XtmRegPPauseQuantum) begin
      quantum_q[PortW'(op4_i.port)] <= op4_i.wdata;
    end
  end

  // the port's eight pause bits for P_STATUS: one OR-reduction per priority, then an 8-bit
  // wide port select (not eight 32-bit wide NumPgs-to-1 selects); the reductions are gated
  // by the read (64 AND gates) so that a simulator evaluates them only on a CSR read, not
  // in every cycle a pause runs (issue 11: 5 % of a Verilated cycle in a PFC-heavy test)
  logic [NumPgs-1:0] run_q;
  always_comb begin : c_run
    run_q = '0;
    if (op4_i.rd) begin
      for (int g = 0; g < 32'(NumPgs); g++) begin
        run_q[g] = ph_q[g] != '0;
      end
    end
  end

  // G_PAUSE_REMAIN: ceil((quanta x quantum + time) / 65536), the one product of the block
  logic [15:0] sel_qn;
  logic [31:0] sel_ph, sel_quantum;
  logic [31:0] remain;  // fits: at most 2^32 - 1 (spec 7.2)
  always_comb begin : c_remain  // (the PG's operands selected only for a G_PAUSE_REMAIN read)
    sel_qn = '0;
    sel_ph = '0;
    sel_quantum = '0;
    remain = '0;
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegGPauseRemain) begin
      sel_qn = qn_q[PgW'(op4_i.pg)];
      sel_ph = ph_q[PgW'(op4_i.pg)];
      sel_quantum = quantum_q[PortW'(op4_i.pg >> 3)];
      remain = 32'(({32'd0, sel_qn} * {16'd0, sel_quantum} + {16'd0, sel_ph} + 48'h0FFFF) >> 16);
    end
  end

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegPPauseQuantum: rd4_o = quantum_q[PortW'(op4_i.port)];
        xtm_reg_pkg::XtmRegGPauseRemain: rd4_o = remain;
        xtm_reg_pkg::XtmRegPStatus: rd4_o = {16'd0, run_q[8*PortW'(op4_i.port)+:8], 8'd0};
        default: ;
      endcase
    end
  end

endmodule
