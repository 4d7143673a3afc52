// SPDX-License-Identifier: Apache-2.0
//
// xtm_sva: checker bound into xtm_core (rtl/xtm/xtm_bind.sv), simulation only. It checks
// the invariants of docs/spec.md section 12 on the registered state, the PFC rule of 7.1
// ("a PFC-enabled static PG that took an arrival in t-1 and is at or above its XOFF
// threshold in t, not yet in XOFF, is in XOFF in t+1"), the egress FIFO bound, the
// policers' bucket bound and initialisation rule (4.7, 15.6), and that the outputs are
// never unknown. Kept ON under Verilator (--assert); never seen by Yosys.
//
// Cost is kept per port, not per queue, so that assertions stay on in every co-simulation:
// - the block state is read by upward hierarchical name (u_qmgr.occ_q, ...), not through
//   ports, so no per-cycle copy of the per-VOQ and per-PG arrays is made;
// - the conservation sums over all VOQs and PGs are taken every SumEvery-th cycle (a leak
//   or a double count persists, so it is caught within SumEvery cycles; the co-simulation
//   compares the same state every cycle against the C model);
// - headroom-within-PG is swept one PG per cycle (every PG once per NumPgs cycles);
// - the XOFF rule is checked on the one PG an arrival can push over its threshold.

`default_nettype none
`include "tm_assert.svh"

module xtm_sva #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  parameter int unsigned FifoDepth = 8,
  parameter int unsigned SumEvery  = 16,
  // derived, do not override
  parameter int unsigned NumVoqs   = NumPorts * NumTcs,
  parameter int unsigned NumPgs    = NumPorts * 8,
  parameter int unsigned PgW       = $clog2(NumPgs)
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic [NumPorts-1:0] deq_valid_o,
  input wire logic [NumPorts-1:0] pfc_valid_o,
  input wire logic res_valid_o,
  input wire logic flush_valid_o
);

  // ------------------------------------------------------------------ sampling counters
  logic [15:0] smp_q;
  logic [PgW-1:0] sweep_q;
  logic smp;
  assign smp = smp_q == '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_count
    if (!rst_ni) begin
      smp_q <= '0;
      sweep_q <= '0;
    end else begin
      smp_q <= (32'(smp_q) == SumEvery - 1) ? '0 : smp_q + 16'd1;
      sweep_q <= (32'(sweep_q) == NumPgs - 1) ? '0 : sweep_q + PgW'(1);
    end
  end

  // ------------------------------------------------------------------ conservation (12)
  logic [31:0] sum_occ, sum_pkts, sum_hbm, sum_pg;
  always_comb begin : c_sums
    sum_occ = '0;
    sum_pkts = '0;
    sum_hbm = '0;
    sum_pg = '0;
    if (smp) begin
      for (int v = 0; v < 32'(NumVoqs); v++) begin
        sum_occ = sum_occ + 32'(u_qmgr.occ_q[v]);
        sum_pkts = sum_pkts + 32'(u_qmgr.pkts_q[v]);
        sum_hbm = sum_hbm + 32'(u_qmgr.hbmc_q[v]);
      end
      for (int g = 0; g < 32'(NumPgs); g++) begin
        sum_pg = sum_pg + 32'(u_pfc_tx.cells_q[g]);
      end
    end
  end

  // The checks of this file are immediate (ASSERT_NEVER_IMM): they read the values before
  // the edge, as a concurrent assertion samples them, but without the sampled copy of every
  // signal a concurrent assertion reads that Verilator updates in each eval (two per cycle);
  // the conservation checks are tested only in a sampling cycle (one test per cycle).
  `ASSERT_NEVER_IMM_EN(PoolIsSumOfVoqs_A, smp, sum_occ != 32'(u_bufmgr.pool_q), clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(HbmIsSumOfVoqs_A, smp, sum_hbm != 32'(u_bufmgr.hbm_q), clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(PgSumIsPool_A, smp, sum_pg != 32'(u_bufmgr.pool_q), clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(DescConserved_A, smp, 32'(u_bufmgr.free_q) + sum_pkts != NumDesc, clk_i,
                       rst_ni)
  `ASSERT_NEVER_IMM(OcbPlusHbmIsPool_A,
                    32'(u_bufmgr.ocb_q) + 32'(u_bufmgr.hbm_q) != 32'(u_bufmgr.pool_q), clk_i,
                    rst_ni)
  `ASSERT_KNOWN(DeqValidKnown_A, deq_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(PfcValidKnown_A, pfc_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(EnqResValidKnown_A, res_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(FlushValidKnown_A, flush_valid_o, clk_i, rst_ni)

  // ------------------------------------------------------------------ PG rules (4.4, 7.1)
  `ASSERT_NEVER_IMM(HdrmWithinPg_A, u_pfc_tx.hused_q[sweep_q] > u_pfc_tx.cells_q[sweep_q],
                    clk_i, rst_ni)

  // the arrival of t-1 (the pfc_tx block's input) names the only PG whose cells can have
  // crossed a static threshold from below; its evaluation in t must set XOFF for t+1
  logic arr_q, exp_q;
  logic [PgW-1:0] arr_pg_q, exp_pg_q;
  logic [PgW-1:0] ga;
  logic expect_xoff;
  assign ga = arr_pg_q;
  always_comb begin : c_expect  // (the PG's state only after an arrival)
    expect_xoff = 1'b0;
    if (arr_q) begin
      expect_xoff = u_pfc_tx.gcfg_q[ga][0] && !u_pfc_tx.gcfg_q[ga][1] && !u_pfc_tx.xoff_q[ga] &&
                    u_pfc_tx.cells_q[ga] >= u_pfc_tx.gxoff_q[ga];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_arrival
    if (!rst_ni) begin
      arr_q <= 1'b0;
      arr_pg_q <= '0;
      exp_q <= 1'b0;
      exp_pg_q <= '0;
    end else begin
      arr_q <= u_pfc_tx.adm_i.acc;
      arr_pg_q <= PgW'(u_pfc_tx.enq_pg_i);
      exp_q <= expect_xoff;
      exp_pg_q <= ga;
    end
  end
  `ASSERT_NEVER_IMM_EN(XoffWhenAboveThreshold_A, exp_q, !u_pfc_tx.xoff_q[exp_pg_q], clk_i, rst_ni)

  // ------------------------------------------------------------------ egress (8)
  logic [NumPorts-1:0] fifo_ok;
  always_comb begin : c_fifo
    for (int p = 0; p < 32'(NumPorts); p++) begin
      fifo_ok[p] = 32'(u_egress.cnt_q[p]) <= FifoDepth;
    end
  end
  `ASSERT_NEVER_IMM(FifoWithinDepth_A, !(&fifo_ok), clk_i, rst_ni)

  // ------------------------------------------------------------------ policers (4.7)
  // the bucket after a commit is within the burst of the cycle's configuration (stage 3's,
  // registered here), and no arrival is policed before INIT_CYCLES (15.6: the sweep and
  // the commit never write the state RAM in one cycle)
  logic [39:0] pol_b4_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pol
    if (!rst_ni) begin
      pol_b4_q <= '0;
    end else begin
      pol_b4_q <= xtm_top.u_police.burst3;
    end
  end
  `ASSERT_NEVER_IMM_EN(PolTokWithinBurst_A, xtm_top.u_police.v4_q,
                       xtm_top.u_police.tok_new > pol_b4_q, clk_i, rst_ni)
  `ASSERT_NEVER_IMM_EN(PolNoCommitInInit_A, xtm_top.u_police.v4_q,
                       xtm_top.u_police.t4_i[63] || xtm_top.u_police.t4_i < 64'(NumPgs), clk_i,
                       rst_ni)

  logic unused;
  assign unused = ^NumTcs;

endmodule
