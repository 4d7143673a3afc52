// SPDX-License-Identifier: Apache-2.0
//
// xtm_ram_1r1w: technology-neutral RAM wrapper with one write port and one read port
// (the shape of OpenTitan's prim_ram_1r1w). Read data is registered: rdata_o in cycle c+1
// holds the row addressed in cycle c. A read and a write of the same row in one cycle
// return the old contents (read-first); callers that allow it forward the new data
// themselves and say so with AllowRdWrSame.
//
// The behavioural model is a plain array with one indexed write per cycle, which Verilator
// turns into a C array. Define XTM_RAM_MACRO to replace it with a foundry macro of the same
// ports (xtm_ram_1r1w_macro, supplied by the technology library); synthesis keeps its array
// a memory cell and counts its bits (docs/dcqcn-rtl.md, "Size"; rtl/common/README.md).
//
// Simulation checks: same-address read/write (unless AllowRdWrSame), and a read of a row
// never written since reset (re_i must be high only when the data is used).

`default_nettype none
`include "tm_assert.svh"

module xtm_ram_1r1w #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  parameter bit AllowRdWrSame = 1'b0,   // the caller forwards same-row writes
  parameter bit CheckUnwritten = 1'b1,  // a read of a never-written row is an error
  // derived, do not override
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,   // checks only: the array has no reset
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic [Width-1:0] wmask_i,  // bit write enables
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o
);

`ifdef XTM_RAM_MACRO
  xtm_ram_1r1w_macro #(
    .Width(Width),
    .Depth(Depth)
  ) u_macro (
    .clk_i,
    .we_i,
    .waddr_i,
    .wdata_i,
    .wmask_i,
    .re_i,
    .raddr_i,
    .rdata_o
  );
`else
  logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin : s_write
    if (we_i) begin
      mem[waddr_i] <= (mem[waddr_i] & ~wmask_i) | (wdata_i & wmask_i);
    end
  end

  always_ff @(posedge clk_i) begin : s_read
    if (re_i) begin
      rdata_q <= mem[raddr_i];
    end
  end
  assign rdata_o = rdata_q;
`endif

`ifndef SYNTHESIS
  if (Depth < 1) begin : g_bad_depth
    $fatal(1, "xtm_ram_1r1w: Depth must be at least 1");
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
  `ASSERT_NEVER_IMM_EN(RamAddrInRange_A, we_i || re_i,
                       (we_i && 32'(waddr_i) >= Depth) || (re_i && 32'(raddr_i) >= Depth), clk_i,
                       rst_ni)
  `ASSERT_NEVER_IMM_EN(RamRdWrSameRow_A, re_i, !AllowRdWrSame && we_i && raddr_i == waddr_i, clk_i,
                       rst_ni)
  // the read of an unwritten row, and the rows' stamps after the check that reads them:
  // simulation bookkeeping written with a blocking assignment (no delayed-write flag and
  // value in every Verilated cycle); no other block reads the stamps
  always_ff @(posedge clk_i) begin : s_stamp
    if (re_i) begin
      if (rst_ni && CheckUnwritten && stamp_q[raddr_i] != gen_q) begin
        $error("[ASSERT FAILED] %m: RamReadUnwritten_A");
      end
    end
    if (we_i) begin
      stamp_q[waddr_i] = gen_q;
    end
  end
`endif

endmodule
