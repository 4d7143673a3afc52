// SPDX-License-Identifier: Apache-2.0
//
// xtm_egress: the per-port in-flight FIFOs (docs/spec.md 9.4, 9.6). A selection reserves the
// slot behind the tail in the commit stage with its ready cycle (selection + OCB_RD_LAT or
// HBM_RD_LAT); the dequeue pipeline writes the packet's record into that slot of the port's
// record RAM three cycles later (xtm_deq); the head is transmitted in the commit stage when
// ready and the MAC is ready, and its record is read then and leaves the output register one
// cycle later. The minimum read latency of 5 (spec 15.4) puts the record write before any
// transmission of its slot. Counts, pointers and ready cycles are flops (per port, per slot).

`default_nettype none

module xtm_egress #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned FifoDepth = 8,
  // derived, do not override
  parameter int unsigned PortW     = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned SlotW     = (FifoDepth > 1) ? $clog2(FifoDepth) : 1,
  parameter int unsigned CntW      = $clog2(FifoDepth + 1)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]         t4_i,
  input  wire logic [NumPorts-1:0] tx_ready_i,     // this cycle's MAC ready
  output logic [NumPorts-1:0]      room_o,         // FIFO below FifoDepth after transmission
  // the selection of this cycle
  input  wire logic                push_i,
  input  wire logic [5:0]          push_port_i,
  input  wire logic                push_hbm_i,
  input  wire logic [11:0]         hbm_lat_i,
  input  wire logic [7:0]          ocb_lat_i,
  output logic [SlotW-1:0]         push_slot_o,
  // the record of a selection three cycles ago
  input  wire logic                rec_we_i,
  input  wire logic [5:0]          rec_port_i,
  input  wire logic [SlotW-1:0]    rec_slot_i,
  input  wire logic [xtm_pkg::DEQ_REC_W-1:0] rec_i,
  // transmissions of this cycle's commit stage, one cycle later (output register stage)
  output logic [NumPorts-1:0]      tx_valid_o,
  output logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] tx_rec_o,   // port p at [p*W +: W]
  input  xtm_pkg::csr_op_t         op4_i,
  output logic [31:0]              rd4_o
);

  localparam int unsigned RW = xtm_pkg::DEQ_REC_W;

  logic [CntW-1:0] cnt_q [NumPorts];
  logic [SlotW-1:0] head_q [NumPorts];
  logic [63:0] ready_q [NumPorts*FifoDepth];
  // per-port status flags of the counts (count != 0, count == FifoDepth), kept beside them
  // so that the per-cycle decision tests two bit vectors, not NumPorts counts
  logic [NumPorts-1:0] nz_q, full_q;
  logic [NumPorts-1:0] out_v, out_v_q, cand, pushv, chg, nz_one, nz_top;

  function automatic logic [SlotW-1:0] wrap(input int unsigned s);
    wrap = SlotW'(s % FifoDepth);
  endfunction

  always_comb begin : c_out
    out_v = '0;
    cand = nz_q & tx_ready_i;  // (an empty FIFO compares no ready time)
    if (cand != '0) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        if (cand[p]) begin
          out_v[p] = t4_i >= ready_q[p*32'(FifoDepth)+32'(head_q[p])];
        end
      end
    end
    // below FifoDepth after the transmission: not full, or full and transmitting
    room_o = ~full_q | out_v;
  end
  always_comb begin : c_push  // (apart from c_out: the selection depends on room_o)
    pushv = '0;
    if (push_i && 32'(push_port_i) < NumPorts) begin
      pushv[PortW'(push_port_i)] = 1'b1;
    end
    chg = out_v | pushv;  // the ports whose count or head changes
    // per port, for the flags of a change: the count is 1 (a transmission empties the
    // FIFO) or FifoDepth - 1 (a push fills it)
    nz_one = '0;
    nz_top = '0;
    if (chg != '0) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        nz_one[p] = cnt_q[p] == CntW'(1);
        nz_top[p] = 32'(cnt_q[p]) + 1 == FifoDepth;
      end
    end
  end
  // the slot behind the tail (the transmission of this cycle does not move it)
  assign push_slot_o = wrap(32'(head_q[PortW'(push_port_i)]) + 32'(cnt_q[PortW'(push_port_i)]));

  // a port's count, flags and head change only in a cycle that transmits or pushes on it;
  // the registers of all ports are loaded together (each holds unless its port changes), so
  // that a simulator tests one enable per cycle, not one per port
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_fifo
    if (!rst_ni) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        cnt_q[p] <= '0;
        head_q[p] <= '0;
      end
      nz_q <= '0;
      full_q <= '0;
      out_v_q <= '0;
    end else begin
      out_v_q <= out_v;
      if (chg != '0) begin
        for (int p = 0; p < 32'(NumPorts); p++) begin
          cnt_q[p] <= cnt_q[p] - CntW'(out_v[p]) + CntW'(pushv[p]);
          head_q[p] <= !out_v[p] ? head_q[p] :
                       (32'(head_q[p]) + 1 == FifoDepth) ? '0 : head_q[p] + 1'b1;
        end
        // a transmission alone: one less; a push alone: one more; both or neither: the same
        nz_q <= (nz_q & ~(out_v ^ pushv)) | (out_v & ~pushv & ~nz_one) | (pushv & ~out_v);
        full_q <= (full_q & ~(out_v ^ pushv)) | (pushv & ~out_v & nz_top);
      end
    end
  end

  always_ff @(posedge clk_i) begin : s_ready
    if (push_i) begin
      ready_q[32'(push_port_i)*FifoDepth+32'(push_slot_o)] <=
          t4_i + (push_hbm_i ? {52'd0, hbm_lat_i} : {56'd0, ocb_lat_i});
    end
  end

  // the record write's port as a one-hot vector (one decode, not one compare per port)
  logic [NumPorts-1:0] rec_wev;
  always_comb begin : c_rec_we
    rec_wev = '0;
    if (rec_we_i && 32'(rec_port_i) < NumPorts) begin
      rec_wev[PortW'(rec_port_i)] = 1'b1;
    end
  end
  for (genvar p = 0; p < 32'(NumPorts); p++) begin : g_rec
    logic [RW-1:0] rd;
    xtm_ram_1r1w #(
      .Width(RW),
      .Depth(FifoDepth)
    ) u_rec (
      .clk_i,
      .rst_ni,
      .we_i   (rec_wev[p]),
      .waddr_i(rec_slot_i),
      .wdata_i(rec_i),
      .wmask_i({RW{1'b1}}),
      .re_i   (out_v[p]),
      .raddr_i(head_q[p]),
      .rdata_o(rd)
    );
    assign tx_rec_o[p*RW+:RW] = out_v_q[p] ? rd : '0;
  end
  assign tx_valid_o = out_v_q;

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegPStatus) begin
      rd4_o = {8'd0, 8'(cnt_q[PortW'(op4_i.port)]), 16'd0};
    end
  end

endmodule
