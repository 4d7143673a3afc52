// SPDX-License-Identifier: Apache-2.0
//
// xtm_ram_2r1w: technology-neutral register-file wrapper with one write port and two read
// ports (a 2R1W register file, or two 1R1W macros that take the same writes). Used where a
// row is read-modify-written every cycle by the datapath and must also be readable by the
// CSR path in the same cycle (statistics counters). Read data is registered; same-row
// read and write in one cycle return the old contents (read-first).
//
// Behavioural model: one array, one indexed write per cycle. XTM_RAM_MACRO replaces it with
// xtm_ram_2r1w_macro (technology library); synthesis keeps this module as a black box.

`default_nettype none
`include "tm_assert.svh"

module xtm_ram_2r1w #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  parameter bit AllowRdWrSame = 1'b0,
  parameter bit CheckUnwritten = 1'b1,
  // derived, do not override
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,  // checks only
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic [Width-1:0] wmask_i,
  input  wire logic             a_re_i,
  input  wire logic [AddrW-1:0] a_raddr_i,
  output logic      [Width-1:0] a_rdata_o,
  input  wire logic             b_re_i,
  input  wire logic [AddrW-1:0] b_raddr_i,
  output logic      [Width-1:0] b_rdata_o
);

`ifdef XTM_RAM_MACRO
  xtm_ram_2r1w_macro #(
    .Width(Width),
    .Depth(Depth)
  ) u_macro (
    .clk_i,
    .we_i,
    .waddr_i,
    .wdata_i,
    .wmask_i,
    .a_re_i,
    .a_raddr_i,
    .a_rdata_o,
    .b_re_i,
    .b_raddr_i,
    .b_rdata_o
  );
`else
  logic [Width-1:0] mem [Depth] /* verilator public_flat_rd */;  // read by tb/xtm_probe.h
  logic [Width-1:0] a_rdata_q, b_rdata_q;

  always_ff @(posedge clk_i) begin : s_write
    if (we_i) begin
      mem[waddr_i] <= (mem[waddr_i] & ~wmask_i) | (wdata_i & wmask_i);
    end
  end

  always_ff @(posedge clk_i) begin : s_read
    if (a_re_i) begin
      a_rdata_q <= mem[a_raddr_i];
    end
    if (b_re_i) begin
      b_rdata_q <= mem[b_raddr_i];
    end
  end
  assign a_rdata_o = a_rdata_q;
  assign b_rdata_o = b_rdata_q;
`endif

`ifndef SYNTHESIS
  if (Depth < 1) begin : g_bad_depth
    $fatal(1, "xtm_ram_2r1w: Depth must be at least 1");
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
  `ASSERT_NEVER_IMM_EN(RamAddrInRange_A, we_i || a_re_i || b_re_i,
                       (we_i && 32'(waddr_i) >= Depth) || (a_re_i && 32'(a_raddr_i) >= Depth) ||
                       (b_re_i && 32'(b_raddr_i) >= Depth), clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(RamRdWrSameRow_A, we_i,
                       !AllowRdWrSame && ((a_re_i && a_raddr_i == waddr_i) ||
                                          (b_re_i && b_raddr_i == waddr_i)), clk_i, rst_ni)
  // the read of an unwritten row, and the rows' stamps after the check that reads them:
  // simulation bookkeeping written with a blocking assignment (no delayed-write flag and
  // value in every Verilated cycle); no other block reads the stamps
  always_ff @(posedge clk_i) begin : s_stamp
    if (a_re_i) begin
      if (rst_ni && CheckUnwritten && stamp_q[a_raddr_i] != gen_q) begin
        $error("[ASSERT FAILED] %m: RamReadUnwritten_A");
      end
    end
    if (b_re_i) begin
      if (rst_ni && CheckUnwritten && stamp_q[b_raddr_i] != gen_q) begin
        $error("[ASSERT FAILED] %m: RamReadUnwritten_A");
      end
    end
    if (we_i) begin
      stamp_q[waddr_i] = gen_q;
    end
  end
`endif

endmodule
