// SPDX-License-Identifier: Apache-2.0
//
// xtm_sva: input-only checker bound into xtm_core (rtl/xtm/xtm_bind.sv). It checks the
// invariants of docs/spec.md section 12 on the registered state every cycle, the PFC rule
// "a PG whose cell count crosses its static XOFF threshold is in XOFF one cycle later"
// (7.1: the PGs touched in t-1 are evaluated in t), the egress FIFO bound, and that the
// outputs are never unknown. Kept ON under Verilator (--assert); compiled out by Yosys.

`default_nettype none
`include "tm_assert.svh"

module xtm_sva #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  parameter int unsigned FifoDepth = 8,
  parameter int unsigned PktW      = 13,
  parameter int unsigned DescCntW  = 13,
  parameter int unsigned CntW      = 4,
  // derived, do not override
  parameter int unsigned NumVoqs   = NumPorts * NumTcs,
  parameter int unsigned NumPgs    = NumPorts * 8
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic [27:0] occ_q [NumVoqs],
  input wire logic [PktW-1:0] pkts_q [NumVoqs],
  input wire logic [27:0] hbmc_q [NumVoqs],
  input wire logic [27:0] pool_q,
  input wire logic [27:0] ocb_q,
  input wire logic [27:0] hbm_q,
  input wire logic [DescCntW-1:0] free_q,
  input wire logic [27:0] cells_q [NumPgs],
  input wire logic [27:0] hused_q [NumPgs],
  input wire logic [NumPgs-1:0] xoff_q,
  input wire logic [5:0] gcfg_q [NumPgs],
  input wire logic [27:0] gxoff_q [NumPgs],
  input wire logic [CntW-1:0] fifo_cnt_q [NumPorts],
  input wire logic [NumPorts-1:0] deq_valid_o,
  input wire logic [NumPorts-1:0] pfc_valid_o,
  input wire logic res_valid_o,
  input wire logic flush_valid_o
);

  logic [31:0] sum_occ, sum_pkts, sum_hbm, sum_pg;
  always_comb begin : c_sums
    sum_occ = '0;
    sum_pkts = '0;
    sum_hbm = '0;
    sum_pg = '0;
    for (int v = 0; v < 32'(NumVoqs); v++) begin
      sum_occ = sum_occ + {4'd0, occ_q[v]};
      sum_pkts = sum_pkts + 32'(pkts_q[v]);
      sum_hbm = sum_hbm + {4'd0, hbmc_q[v]};
    end
    for (int g = 0; g < 32'(NumPgs); g++) begin
      sum_pg = sum_pg + {4'd0, cells_q[g]};
    end
  end

  `ASSERT(PoolIsSumOfVoqs_A, sum_occ == {4'd0, pool_q}, clk_i, rst_ni)
  `ASSERT(OcbPlusHbmIsPool_A, {4'd0, ocb_q} + {4'd0, hbm_q} == {4'd0, pool_q}, clk_i, rst_ni)
  `ASSERT(HbmIsSumOfVoqs_A, sum_hbm == {4'd0, hbm_q}, clk_i, rst_ni)
  `ASSERT(PgSumIsPool_A, sum_pg == {4'd0, pool_q}, clk_i, rst_ni)
  `ASSERT(DescConserved_A, 32'(free_q) + sum_pkts == NumDesc, clk_i, rst_ni)
  `ASSERT_KNOWN(DeqValidKnown_A, deq_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(PfcValidKnown_A, pfc_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(EnqResValidKnown_A, res_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(FlushValidKnown_A, flush_valid_o, clk_i, rst_ni)

  for (genvar g = 0; g < 32'(NumPgs); g++) begin : g_pg
    // per-PG copies: Verilator 5.006 cannot take $rose/$stable of an array select
    logic above, xoff_st, static_en, hdrm_ok;
    logic [27:0] xoff_th;
    logic [5:0] cfg;
    assign above = cells_q[g] >= gxoff_q[g];
    assign xoff_st = xoff_q[g];
    assign xoff_th = gxoff_q[g];
    assign cfg = gcfg_q[g];
    assign static_en = cfg[0] && !cfg[1];
    assign hdrm_ok = hused_q[g] <= cells_q[g];
    `ASSERT(HdrmWithinPg_A, hdrm_ok, clk_i, rst_ni)
    // crossing the static XOFF threshold with thresholds unchanged means an arrival did
    // it; its PG is evaluated in the next cycle, which sets XOFF (spec 7.1)
    `ASSERT(XoffWhenAboveThreshold_A,
            ($rose(above) && $stable(xoff_th) && $stable(cfg) && static_en) |=> xoff_st,
            clk_i, rst_ni)
  end
  for (genvar p = 0; p < 32'(NumPorts); p++) begin : g_port
    logic fifo_ok;
    assign fifo_ok = 32'(fifo_cnt_q[p]) <= FifoDepth;
    `ASSERT(FifoWithinDepth_A, fifo_ok, clk_i, rst_ni)
  end

endmodule
