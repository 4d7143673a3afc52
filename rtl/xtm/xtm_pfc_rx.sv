// SPDX-License-Identifier: Apache-2.0
//
// xtm_pfc_rx: PFC reception on the egress side (docs/spec.md 7.2), commit stage. Per
// (port, priority) a down-counter of the pause cycles still to run: a frame with bit i of
// its vector at cycle t loads ceil(quanta * P_PAUSE_QUANTUM / 65536) (the product is
// registered, not in the eligibility path), and the pause state of cycle t is "the frame's
// quanta and quantum are non-zero" or "the counter is non-zero". Also the frame events the
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
  output logic [NumPgs-1:0]            paused_o,    // paused in this cycle (after step 2)
  output logic [NumPgs-1:0]            pause_rx_o,  // a frame with quanta > 0
  output logic [NumPgs-1:0]            xon_rx_o,    // a frame with quanta 0
  input  xtm_pkg::csr_op_t             op4_i,
  output logic [31:0]                  rd4_o
);

  logic [31:0] quantum_q [NumPorts];   // P_PAUSE_QUANTUM, Q16.16 cycles
  logic [31:0] rem_q [NumPgs] /* verilator public_flat_rd */;
  logic [31:0] rem_d [NumPgs];

  // every counter counts down; a frame's priorities load the pause time (the product is in
  // the counter's load path only, never in the pause state of this cycle). A port with no
  // frame and no pause running is skipped (act_q: any counter of the port non-zero).
  logic [NumPorts-1:0] act_q, act_d;
  // Indices are loop constants only (8 * p + i, never a procedural variable): Yosys 0.23
  // turns a write through a variable index into a demultiplexer over all NumPgs entries,
  // which made this block's front end grow with the square of the ports.
  always_comb begin : c_rx
    logic hit;
    logic [15:0] q;
    logic [47:0] prod;
    logic [32:0] dur;
    hit = 1'b0;
    q = '0;
    prod = '0;
    dur = '0;
    pause_rx_o = '0;
    xon_rx_o = '0;
    paused_o = '0;
    act_d = '0;
    for (int k = 0; k < 32'(NumPgs); k++) begin
      rem_d[k] = rem_q[k];
    end
    for (int p = 0; p < 32'(NumPorts); p++) begin
      if (valid_i[p] || act_q[p]) begin
        for (int i = 0; i < 8; i++) begin
          prod = '0;
          dur = '0;
          hit = valid_i[p] && vec_i[8*p+i];
          q = quanta_i[16*(8*p+i)+:16];
          pause_rx_o[8*p+i] = hit && q != '0;
          xon_rx_o[8*p+i] = hit && q == '0;
          rem_d[8*p+i] = rem_q[8*p+i] - 32'(rem_q[8*p+i] != '0);
          paused_o[8*p+i] = rem_q[8*p+i] != '0;
          if (hit) begin
            prod = {32'd0, q} * {16'd0, quantum_q[p]};
            dur = 33'((49'(prod) + 49'h0FFFF) >> 16);
            rem_d[8*p+i] = (dur == '0) ? '0 : 32'(dur - 33'd1);
            paused_o[8*p+i] = q != '0 && quantum_q[p] != '0;
          end
          act_d[p] = act_d[p] || rem_d[8*p+i] != '0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pause
    if (!rst_ni) begin
      for (int g = 0; g < 32'(NumPgs); g++) begin
        rem_q[g] <= '0;
      end
      act_q <= '0;
    end else begin
      for (int g = 0; g < 32'(NumPgs); g++) begin
        rem_q[g] <= rem_d[g];
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

  // the port's eight pause bits for P_STATUS: one OR-reduction per counter, then an 8-bit
  // wide port select (not eight 32-bit wide NumPgs-to-1 selects)
  logic [NumPgs-1:0] run_q;
  always_comb begin : c_run
    for (int g = 0; g < 32'(NumPgs); g++) begin
      run_q[g] = rem_q[g] != '0;
    end
  end

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegPPauseQuantum: rd4_o = quantum_q[PortW'(op4_i.port)];
        xtm_reg_pkg::XtmRegGPauseRemain: rd4_o = rem_q[PgW'(op4_i.pg)];
        xtm_reg_pkg::XtmRegPStatus: rd4_o = {16'd0, run_q[8*PortW'(op4_i.port)+:8], 8'd0};
        default: ;
      endcase
    end
  end

endmodule
