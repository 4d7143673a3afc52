// SPDX-License-Identifier: Apache-2.0
//
// synth_toy: a small design that exercises every step of the sign-off flow in seconds
// (tests/synth/test_signoff.sh): a package struct, a FIFO of such records held in
// flip-flops (declared as a flat logic array, as STYLE requires), an FSM, a counter with
// asynchronous reset, enable flops without reset, arithmetic, two RAM wrappers kept as
// black boxes, and a generate loop of sub-module instances with a register declared in the
// loop body (Verilator's XML names those instances without their generate scope; ffcheck
// must put it back). The negative test rewrites the FIFO declaration as an unpacked array of the
// package struct, the construct Yosys 0.23 reads as one element.

`default_nettype none

module synth_toy #(
  parameter int unsigned Depth = 4,
  // derived, do not override
  parameter int unsigned PtrW = $clog2(Depth)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        in_valid_i,
  input  wire logic [11:0] in_rec_i,
  input  wire logic        out_ready_i,
  input  wire logic [3:0]  ram_addr_i,
  output logic             out_valid_o,
  output logic [11:0]      out_rec_o,
  output logic [15:0]      sum_o,
  output logic [1:0]       state_o,
  output logic [7:0]       ram_a_o,
  output logic [7:0]       ram_b_o,
  output logic [15:0]      lane_o
);

  synth_toy_pkg::rec_t in_rec, head;
  assign in_rec = in_rec_i;

  logic [11:0] fifo_q [Depth];
  logic [PtrW-1:0] wr_q, rd_q;
  logic [PtrW:0] cnt_q;
  logic [15:0] sum_q;
  logic [7:0] last_len_q;  // no reset: enable flops
  synth_toy_pkg::st_e st_q, st_d;

  logic push, pop;
  assign push = in_valid_i && (32'(cnt_q) < Depth);
  assign pop = out_ready_i && (cnt_q != '0) && (st_q == synth_toy_pkg::StDrain);
  assign head = fifo_q[rd_q];

  always_comb begin
    st_d = st_q;
    unique case (st_q)
      synth_toy_pkg::StIdle:  if (push) st_d = synth_toy_pkg::StFill;
      synth_toy_pkg::StFill:  if (32'(cnt_q) >= Depth - 1) st_d = synth_toy_pkg::StDrain;
      synth_toy_pkg::StDrain: if (cnt_q == (PtrW + 1)'(1) && pop) st_d = synth_toy_pkg::StIdle;
      default:                st_d = synth_toy_pkg::StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < Depth; i++) begin
        fifo_q[i] <= '0;
      end
      wr_q <= '0;
      rd_q <= '0;
      cnt_q <= '0;
      sum_q <= '0;
      st_q <= synth_toy_pkg::StIdle;
    end else begin
      if (push) begin
        fifo_q[wr_q] <= in_rec;
        wr_q <= wr_q + 1'b1;
      end
      if (pop) begin
        rd_q <= rd_q + 1'b1;
        sum_q <= sum_q + 16'(head.len) * 16'(head.tag) + 16'(head.mark);
      end
      cnt_q <= cnt_q + (PtrW + 1)'(push) - (PtrW + 1)'(pop);
      st_q <= st_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (pop) begin
      last_len_q <= {1'b0, head.len};
    end
  end

  assign out_valid_o = pop;
  assign out_rec_o = pop ? head : '0;
  assign sum_o = sum_q ^ {8'h00, last_len_q};
  assign state_o = st_q;

  // RAM macros: row in_rec.tag written by every valid input, read at ram_addr_i; the
  // testbench reads any row in any cycle, a same-row read returns the old contents
  // (read-first) in the RTL and in the netlist alike (both use the behavioural model)
  xtm_ram_1r1w #(
    .Width(8),
    .Depth(16),
    .AllowRdWrSame(1'b1),
    .CheckUnwritten(1'b0)
  ) u_ram_a (
    .clk_i,
    .rst_ni,
    .we_i   (in_valid_i),
    .waddr_i({in_rec.tag}),
    .wdata_i({1'b0, in_rec.len}),
    .wmask_i(8'hff),
    .re_i   (1'b1),
    .raddr_i(ram_addr_i),
    .rdata_o(ram_a_o)
  );

  xtm_ram_2p #(
    .Width(8),
    .Depth(16),
    .AllowRdWrSame(1'b1),
    .CheckUnwritten(1'b0)
  ) u_ram_b (
    .clk_i,
    .rst_ni,
    .a_req_i  (in_valid_i),
    .a_we_i   (1'b1),
    .a_addr_i (in_rec.tag),
    .a_wdata_i(sum_q[7:0]),
    .a_wmask_i(8'h0f),
    .a_rdata_o(),
    .b_req_i  (1'b1),
    .b_we_i   (1'b0),
    .b_addr_i (ram_addr_i),
    .b_wdata_i('0),
    .b_wmask_i('0),
    .b_rdata_o(ram_b_o)
  );

  // per lane i: a registered "tag bit i seen" and a counter of them in a sub-module
  for (genvar i = 0; i < 2; i++) begin : g_lane
    logic hit_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        hit_q <= 1'b0;
      end else begin
        hit_q <= in_valid_i && in_rec.tag[i];
      end
    end
    synth_toy_cnt u_cnt (
      .clk_i,
      .rst_ni,
      .inc_i(hit_q),
      .cnt_o(lane_o[8*i+:8])
    );
  end

endmodule

module synth_toy_cnt (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       inc_i,
  output logic      [7:0] cnt_o
);
  logic [7:0] cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else if (inc_i) begin
      cnt_q <= cnt_q + 8'd1;
    end
  end
  assign cnt_o = cnt_q;
endmodule
