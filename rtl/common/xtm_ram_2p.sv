// SPDX-License-Identifier: Apache-2.0
//
// xtm_ram_2p: technology-neutral true dual-port RAM wrapper (the shape of OpenTitan's
// prim_ram_2p): ports A and B each read or write one row per cycle. Read data is
// registered (row addressed in cycle c, data in c+1). A read on one port of the row the
// other port writes in the same cycle returns the old contents (read-first); two writes
// of the same row in one cycle are illegal.
//
// Behavioural model: one array, at most two indexed writes per cycle. XTM_RAM_MACRO
// replaces it with xtm_ram_2p_macro (technology library); synthesis keeps its array as a
// memory cell (docs/dcqcn-rtl.md, "Size"). Simulation checks as in xtm_ram_1r1w.

`default_nettype none
`include "tm_assert.svh"

module xtm_ram_2p #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  parameter bit AllowRdWrSame = 1'b0,
  parameter bit CheckUnwritten = 1'b1,
  // derived, do not override
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,  // checks only
  // port A
  input  wire logic             a_req_i,  // access this cycle (read unless a_we_i)
  input  wire logic             a_we_i,
  input  wire logic [AddrW-1:0] a_addr_i,
  input  wire logic [Width-1:0] a_wdata_i,
  input  wire logic [Width-1:0] a_wmask_i,
  output logic      [Width-1:0] a_rdata_o,
  // port B
  input  wire logic             b_req_i,
  input  wire logic             b_we_i,
  input  wire logic [AddrW-1:0] b_addr_i,
  input  wire logic [Width-1:0] b_wdata_i,
  input  wire logic [Width-1:0] b_wmask_i,
  output logic      [Width-1:0] b_rdata_o
);

`ifdef XTM_RAM_MACRO
  xtm_ram_2p_macro #(
    .Width(Width),
    .Depth(Depth)
  ) u_macro (
    .clk_i,
    .a_req_i,
    .a_we_i,
    .a_addr_i,
    .a_wdata_i,
    .a_wmask_i,
    .a_rdata_o,
    .b_req_i,
    .b_we_i,
    .b_addr_i,
    .b_wdata_i,
    .b_wmask_i,
    .b_rdata_o
  );
`else
  logic [Width-1:0] mem [Depth];
  logic [Width-1:0] a_rdata_q, b_rdata_q;

  always_ff @(posedge clk_i) begin : s_port_a
    if (a_req_i && a_we_i) begin
      mem[a_addr_i] <= (mem[a_addr_i] & ~a_wmask_i) | (a_wdata_i & a_wmask_i);
    end
    if (a_req_i && !a_we_i) begin
      a_rdata_q <= mem[a_addr_i];
    end
  end

  always_ff @(posedge clk_i) begin : s_port_b
    if (b_req_i && b_we_i) begin
      mem[b_addr_i] <= (mem[b_addr_i] & ~b_wmask_i) | (b_wdata_i & b_wmask_i);
    end
    if (b_req_i && !b_we_i) begin
      b_rdata_q <= mem[b_addr_i];
    end
  end
  assign a_rdata_o = a_rdata_q;
  assign b_rdata_o = b_rdata_q;
`endif

`ifndef SYNTHESIS
  if (Depth < 1) begin : g_bad_depth
    $fatal(1, "xtm_ram_2p: Depth must be at least 1");
  end
  // rows written since the last reset: a row carries the reset generation it was written in
  // (simulation bookkeeping only, no reset sweep of Depth flags; the stamps start random
  // under --x-initial unique, a false "written" has probability 2^-32 per row)
  int unsigned gen_q;
  int unsigned stamp_q [Depth];
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_gen
    if (!rst_ni) begin
      gen_q <= gen_q + 1;
    end
  end
  // Immediate checks (ASSERT_NEVER_IMM_EN: they read the values before the edge, as a
  // concurrent assertion samples them, which would keep a sampled copy of every signal),
  // each nested under its ports' enables: a Verilated cycle without an access tests the
  // enables, not every term of every check.
  `ASSERT_NEVER_IMM_EN(RamAddrInRange_A, a_req_i || b_req_i,
                       (a_req_i && 32'(a_addr_i) >= Depth) || (b_req_i && 32'(b_addr_i) >= Depth),
                       clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(RamWrWrSameRow_A, a_req_i && b_req_i,
                       a_we_i && b_we_i && a_addr_i == b_addr_i, clk_i, rst_ni)
  // a read of the row the other port writes (read-first)
  `ASSERT_NEVER_IMM_EN(RamRdWrSameRow_A, a_req_i && b_req_i,
                       !AllowRdWrSame && a_we_i != b_we_i && a_addr_i == b_addr_i, clk_i, rst_ni)
  // the read of an unwritten row, and the rows' stamps after the check that reads them:
  // simulation bookkeeping written with a blocking assignment (no delayed-write flag and
  // value in every Verilated cycle); no other block reads the stamps
  always_ff @(posedge clk_i) begin : s_stamp
    if (a_req_i && !a_we_i) begin
      if (rst_ni && CheckUnwritten && stamp_q[a_addr_i] != gen_q) begin
        $error("[ASSERT FAILED] %m: RamReadUnwritten_A");
      end
    end
    if (b_req_i && !b_we_i) begin
      if (rst_ni && CheckUnwritten && stamp_q[b_addr_i] != gen_q) begin
        $error("[ASSERT FAILED] %m: RamReadUnwritten_A");
      end
    end
    if (a_req_i && a_we_i) begin
      stamp_q[a_addr_i] = gen_q;
    end
    if (b_req_i && b_we_i) begin
      stamp_q[b_addr_i] = gen_q;
    end
  end
`endif

endmodule
