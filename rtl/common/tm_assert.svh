// SPDX-License-Identifier: Apache-2.0
//
// Assertion macros (modelled on common_cells assertions.svh), ON under Verilator
// (--assert) and compiled out for synthesis (Yosys defines SYNTHESIS). Property forms are
// limited to what Verilator 5.006 parses: |->, |=>, $past, $stable, $rose, $fell,
// $onehot0, $isunknown.

`ifndef TM_ASSERT_SVH
`define TM_ASSERT_SVH

`ifndef SYNTHESIS
`define ASSERT(name, prop, clk, rst_n) \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) (prop)) \
    else $error("[ASSERT FAILED] %m: %s", `"name`");
`define ASSERT_NEVER(name, prop, clk, rst_n) \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) !(prop)) \
    else $error("[ASSERT FAILED] %m: %s", `"name`");
// The same check as ASSERT_NEVER, as an immediate assertion in a clocked block (it reads the
// values before the edge, as a concurrent assertion samples them). For checks instantiated
// many times, the RAM wrappers: Verilator 5.006 keeps a sampled copy of every signal of a
// concurrent assertion, updated every cycle, which costs more than the check itself.
`define ASSERT_NEVER_IMM(name, prop, clk, rst_n) \
  always_ff @(posedge clk) begin : name \
    if ((rst_n) && (prop)) $error("[ASSERT FAILED] %m: %s", `"name`"); \
  end
// ASSERT_NEVER_IMM with the check nested under an enable (a port's request, an event): a
// Verilated cycle without the event tests the one enable bit, not every term of the check.
`define ASSERT_NEVER_IMM_EN(name, en, prop, clk, rst_n) \
  always_ff @(posedge clk) begin : name \
    if (en) begin \
      if ((rst_n) && (prop)) $error("[ASSERT FAILED] %m: %s", `"name`"); \
    end \
  end
`define ASSERT_KNOWN(name, sig, clk, rst_n) \
  name: assert property (@(posedge clk) disable iff (!(rst_n)) !$isunknown(sig)) \
    else $error("[ASSERT FAILED] %m: %s", `"name`");
`define ASSERT_INIT(name, cond) \
  initial begin : name \
    if (!(cond)) $fatal(1, "[ASSERT_INIT FAILED] %s", `"name`"); \
  end
`define COVER(name, prop, clk, rst_n) \
  name: cover property (@(posedge clk) disable iff (!(rst_n)) (prop));
`else
`define ASSERT(name, prop, clk, rst_n)
`define ASSERT_NEVER(name, prop, clk, rst_n)
`define ASSERT_NEVER_IMM(name, prop, clk, rst_n)
`define ASSERT_NEVER_IMM_EN(name, en, prop, clk, rst_n)
`define ASSERT_KNOWN(name, sig, clk, rst_n)
`define ASSERT_INIT(name, cond)
`define COVER(name, prop, clk, rst_n)
`endif

`endif  // TM_ASSERT_SVH
