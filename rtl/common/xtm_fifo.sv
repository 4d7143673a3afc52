// SPDX-License-Identifier: Apache-2.0
//
// xtm_fifo: a first-word-fall-through FIFO of Depth entries kept in an xtm_ram_1r1w, with a
// two-entry output queue in flops so that a pop every cycle never sees a bubble (the RAM
// has one cycle of read latency). A push into a FIFO whose RAM is empty and whose output
// queue has room goes straight to the output queue, so it can be popped the next cycle.
// One push and one pop per cycle; pushing into a full FIFO or popping an empty one is an
// error (assertions).
//
// Invariant: the output queue holds the oldest entries; the RAM the younger ones in order;
// at most one RAM read is in flight, and while the RAM holds entries the output queue plus
// the read in flight hold two.

`default_nettype none
`include "tm_assert.svh"

module xtm_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 16,   // entries in all (the RAM holds Depth)
  // derived, do not override
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  parameter int unsigned CntW = $clog2(Depth + 3)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             push_i,
  input  wire logic [Width-1:0] push_data_i,
  input  wire logic             pop_i,
  output logic                  valid_o,   // an entry is at the head
  output logic [Width-1:0]      head_o,
  output logic [CntW-1:0]       count_o    // entries held
);

  logic [Width-1:0] oq_q [2];
  logic [1:0] ocnt_q, ocnt_d;
  logic [AddrW-1:0] wptr_q, rptr_q;
  logic [CntW-1:0] ram_cnt_q, ram_cnt_d;
  logic infl_q;          // a RAM read issued last cycle: its data is on rdata now
  logic [Width-1:0] rdata;
  logic to_ram, bypass, rd_issue;
  logic [1:0] after_pop;

  assign valid_o = ocnt_q != 2'd0;
  assign head_o = oq_q[0];
  assign count_o = CntW'(ocnt_q) + ram_cnt_q + CntW'(infl_q);

  always_comb begin : c_ctrl
    after_pop = ocnt_q - 2'(pop_i && valid_o) + 2'(infl_q);
    // a push bypasses the RAM when the RAM holds nothing and the output queue has room
    // after this cycle's pop and the arrival of the read in flight (c_oq appends the read
    // data before the bypassed push, so order is kept). Refusing the bypass while a read
    // is in flight sent such a push to the RAM with room in the output queue, and two
    // cycles later a pop found the queue empty (found by the hazards test, docs/cosim.md).
    bypass = push_i && ram_cnt_q == '0 && after_pop < 2'd2;
    to_ram = push_i && !bypass;
    // refill: read the RAM while the output queue and the read in flight hold fewer than 2
    rd_issue = ram_cnt_q != '0 && after_pop < 2'd2;
    ram_cnt_d = ram_cnt_q + CntW'(to_ram) - CntW'(rd_issue);
    ocnt_d = after_pop + 2'(bypass);
  end

  xtm_ram_1r1w #(
    .Width(Width),
    .Depth(Depth)
  ) u_ram (
    .clk_i,
    .rst_ni,
    .we_i   (to_ram),
    .waddr_i(wptr_q),
    .wdata_i(push_data_i),
    .wmask_i({Width{1'b1}}),
    .re_i   (rd_issue),
    .raddr_i(rptr_q),
    .rdata_o(rdata)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_ptrs
    if (!rst_ni) begin
      ocnt_q <= '0;
      wptr_q <= '0;
      rptr_q <= '0;
      ram_cnt_q <= '0;
      infl_q <= 1'b0;
    end else begin
      ocnt_q <= ocnt_d;
      ram_cnt_q <= ram_cnt_d;
      infl_q <= rd_issue;
      if (to_ram) begin
        wptr_q <= (32'(wptr_q) + 1 == Depth) ? '0 : wptr_q + 1'b1;
      end
      if (rd_issue) begin
        rptr_q <= (32'(rptr_q) + 1 == Depth) ? '0 : rptr_q + 1'b1;
      end
    end
  end

  // output queue: shift on pop, then append the arriving RAM data, then a bypassed push
  logic [Width-1:0] oq_d [2];
  always_comb begin : c_oq
    logic [1:0] n;
    oq_d[0] = oq_q[0];
    oq_d[1] = oq_q[1];
    n = ocnt_q;
    if (pop_i && valid_o) begin
      oq_d[0] = oq_q[1];
      n = n - 2'd1;
    end
    if (infl_q) begin
      oq_d[n[0]] = rdata;
      n = n + 2'd1;
    end
    if (bypass) begin
      oq_d[n[0]] = push_data_i;
    end
  end

  always_ff @(posedge clk_i) begin : s_oq
    oq_q[0] <= oq_d[0];
    oq_q[1] <= oq_d[1];
  end

  `ASSERT_NEVER_IMM(FifoPopEmpty_A, pop_i && !valid_o, clk_i, rst_ni)
  // the count compares nested under their push (a simulator forms the counts only in a
  // cycle that pushes)
  `ASSERT_NEVER_IMM_EN(FifoPushFull_A, push_i, !pop_i && 32'(count_o) >= Depth + 2, clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(FifoRamOverflow_A, to_ram, 32'(ram_cnt_q) >= Depth, clk_i, rst_ni)

endmodule
