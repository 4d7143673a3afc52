// SPDX-License-Identifier: Apache-2.0
//
// xtm_sva: input-only checker bound into xtm_core (rtl/xtm/xtm_bind.sv). It checks the
// invariants of docs/spec.md section 12 on the registered state every cycle, and the PFC
// rule "a PG whose cell count crosses its static XOFF threshold through an arrival is in
// XOFF at the same edge". Kept ON under Verilator (--assert); compiled out by Yosys.

`default_nettype none
`include "tm_assert.svh"

module xtm_sva #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  parameter int unsigned NumDesc  = 4096,
  parameter int unsigned FifoDepth = 8,
  parameter int unsigned DescW    = 13,
  parameter int unsigned FifoW    = 4,
  // derived, do not override
  parameter int unsigned NumVoqs  = NumPorts * NumTcs,
  parameter int unsigned NumPgs   = NumPorts * 8
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic [27:0] q_occ_q [NumVoqs],
  input wire logic [20:0] q_pkts_q [NumVoqs],
  input wire logic [27:0] q_hbmc_q [NumVoqs],
  input wire logic [27:0] pool_used_q,
  input wire logic [27:0] ocb_used_q,
  input wire logic [27:0] hbm_used_q,
  input wire logic [DescW-1:0] desc_free_q,
  input wire logic [27:0] g_cells_q [NumPgs],
  input wire logic [27:0] g_hused_q [NumPgs],
  input wire logic g_xoff_st_q [NumPgs],
  input wire logic [31:0] g_cfg_q [NumPgs],
  input wire logic [27:0] g_xoff_q [NumPgs],
  input wire logic [FifoW-1:0] p_fcount_q [NumPorts],
  input wire logic [NumPorts-1:0] deq_valid_o,
  input wire logic [NumPorts-1:0] pfc_tx_valid_o,
  input wire logic enq_res_valid_o,
  input wire logic flush_valid_o
);

  logic [31:0] sum_occ, sum_pkts, sum_hbm, sum_pg;
  always_comb begin : c_sums
    sum_occ = '0;
    sum_pkts = '0;
    sum_hbm = '0;
    sum_pg = '0;
    for (int v = 0; v < 32'(NumVoqs); v++) begin
      sum_occ = sum_occ + {4'd0, q_occ_q[v]};
      sum_pkts = sum_pkts + {11'd0, q_pkts_q[v]};
      sum_hbm = sum_hbm + {4'd0, q_hbmc_q[v]};
    end
    for (int g = 0; g < 32'(NumPgs); g++) begin
      sum_pg = sum_pg + {4'd0, g_cells_q[g]};
    end
  end

  `ASSERT(PoolIsSumOfVoqs_A, sum_occ == {4'd0, pool_used_q}, clk_i, rst_ni)
  `ASSERT(OcbPlusHbmIsPool_A, {4'd0, ocb_used_q} + {4'd0, hbm_used_q} == {4'd0, pool_used_q},
          clk_i, rst_ni)
  `ASSERT(HbmIsSumOfVoqs_A, sum_hbm == {4'd0, hbm_used_q}, clk_i, rst_ni)
  `ASSERT(PgSumIsPool_A, sum_pg == {4'd0, pool_used_q}, clk_i, rst_ni)
  `ASSERT(DescConserved_A, 32'(desc_free_q) + sum_pkts == NumDesc, clk_i, rst_ni)
  `ASSERT_KNOWN(DeqValidKnown_A, deq_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(PfcValidKnown_A, pfc_tx_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(EnqResValidKnown_A, enq_res_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(FlushValidKnown_A, flush_valid_o, clk_i, rst_ni)

  for (genvar g = 0; g < 32'(NumPgs); g++) begin : g_pg
    // per-PG copies: Verilator 5.006 cannot take $rose/$stable of an array select
    logic above, xoff_st, static_en, hdrm_ok;
    logic [27:0] xoff_th;
    logic [31:0] cfg;
    assign above = g_cells_q[g] >= g_xoff_q[g];
    assign xoff_st = g_xoff_st_q[g];
    assign xoff_th = g_xoff_q[g];
    assign cfg = g_cfg_q[g];
    assign static_en = cfg[0] && !cfg[1];
    assign hdrm_ok = g_hused_q[g] <= g_cells_q[g];
    `ASSERT(HdrmWithinPg_A, hdrm_ok, clk_i, rst_ni)
    // crossing the static XOFF threshold with thresholds unchanged means an arrival did
    // it, and the arrival's evaluation sets XOFF at the same edge (spec 7.1)
    `ASSERT(XoffWhenAboveThreshold_A,
            ($rose(above) && $stable(xoff_th) && $stable(cfg) && static_en) |-> xoff_st,
            clk_i, rst_ni)
  end
  for (genvar p = 0; p < 32'(NumPorts); p++) begin : g_port
    logic fifo_ok;
    assign fifo_ok = 32'(p_fcount_q[p]) <= FifoDepth;
    `ASSERT(FifoWithinDepth_A, fifo_ok, clk_i, rst_ni)
  end

endmodule
