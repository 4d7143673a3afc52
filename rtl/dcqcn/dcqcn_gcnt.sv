// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_gcnt: the global 64-bit counters of docs/spec-dcqcn.md D12 but PACE_EARLY (the
// pacer's), as narrow per-counter accumulators flushed round robin into a RAM (D15, the
// statistics pattern of Corundum's stats_counter): every cycle the accumulator of counter
// `ptr` moves into a read-modify-write of its RAM row. A read returns the RAM row plus the
// accumulator plus a flush in flight, so it is exact at every cycle. CTRL.CLR_CNT clears
// the accumulators, the row-valid bits and a flush in flight. All increments and reads are
// at stage 2; read data at stage 3.

`default_nettype none

module dcqcn_gcnt #(
  parameter int unsigned MaxInc = 48,  // largest increment of one counter in one cycle
  // derived, do not override
  localparam int unsigned N = dcqcn_pkg::NUM_GCNT,
  localparam int unsigned IdxW = $clog2(N),
  localparam int unsigned GW = dcqcn_pkg::GINC_W,
  // between two flushes of a counter: N + 1 cycles of increments
  localparam int unsigned AccW = $clog2((N + 1) * MaxInc + 1)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic [N*GW-1:0] inc_i,   // this cycle's increment of each counter
  input  wire logic            clr_i,   // CTRL.CLR_CNT at the end of this cycle
  input  wire logic            csr_re_i,
  input  wire logic [IdxW-1:0] csr_idx_i,
  output logic [63:0]          csr_cnt_o  // the counter before this cycle's increments, +1
);

  if (MaxInc >= (1 << GW)) begin : g_bad_inc
    $fatal(1, "dcqcn_gcnt: MaxInc does not fit GINC_W");
  end

  logic [N*AccW-1:0] acc;  // the accumulators, flat (one register per counter below)
  logic [N-1:0] v_q;
  logic [IdxW-1:0] ptr_q, fl_idx_q;
  logic fl_v_q;
  logic [AccW-1:0] fl_snap_q;
  logic [63:0] a_rdata, b_rdata, fl_sum;
  logic [AccW-1:0] rd_acc_q, rd_fl_q;
  logic rd_v_q;

  xtm_ram_2r1w #(
    .Width        (64),
    .Depth        (N),
    .AllowRdWrSame(1'b1)  // the CSR reads the row the flush writes: adds the flush itself
  ) u_gcnt (
    .clk_i,
    .rst_ni,
    .we_i     (fl_v_q),
    .waddr_i  (fl_idx_q),
    .wdata_i  (fl_sum),
    .wmask_i  ({64{1'b1}}),
    .a_re_i   (v_q[ptr_q]),
    .a_raddr_i(ptr_q),
    .a_rdata_o(a_rdata),
    .b_re_i   (csr_re_i && v_q[csr_idx_i]),
    .b_raddr_i(csr_idx_i),
    .b_rdata_o(b_rdata)
  );

  // the flush of the previous cycle: its row (0 if not valid then) plus its snapshot
  logic fl_row_v_q;
  assign fl_sum = (fl_row_v_q ? a_rdata : 64'd0) + 64'(fl_snap_q);

  // one accumulator per counter; the one at `ptr` moves into this cycle's flush
  for (genvar i = 0; i < N; i++) begin : g_cnt
    logic [AccW-1:0] acc_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin : s_acc
      if (!rst_ni) begin
        acc_q <= '0;
      end else if (clr_i) begin
        acc_q <= '0;
      end else if (32'(ptr_q) == i) begin
        acc_q <= AccW'(inc_i[i*GW +: GW]);
      end else begin
        acc_q <= acc_q + AccW'(inc_i[i*GW +: GW]);
      end
    end
    assign acc[i*AccW +: AccW] = acc_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_gcnt
    if (!rst_ni) begin
      v_q <= '0;
      ptr_q <= '0;
      fl_v_q <= 1'b0;
      fl_idx_q <= '0;
      fl_snap_q <= '0;
      fl_row_v_q <= 1'b0;
      rd_acc_q <= '0;
      rd_fl_q <= '0;
      rd_v_q <= 1'b0;
    end else begin
      ptr_q <= (32'(ptr_q) == N - 1) ? '0 : ptr_q + 1'b1;
      rd_v_q <= v_q[csr_idx_i];
      if (csr_re_i) begin
        rd_acc_q <= acc[32'(csr_idx_i)*AccW +: AccW];
      end
      rd_fl_q <= (fl_v_q && fl_idx_q == csr_idx_i) ? fl_snap_q : '0;
      if (clr_i) begin
        v_q <= '0;
        fl_v_q <= 1'b0;
      end else begin
        if (fl_v_q) begin
          v_q[fl_idx_q] <= 1'b1;
        end
        fl_v_q <= 1'b1;
        fl_idx_q <= ptr_q;
        fl_snap_q <= acc[32'(ptr_q)*AccW +: AccW];
        fl_row_v_q <= v_q[ptr_q];
      end
    end
  end

  // RAM row (as before the flush written in the read cycle) + accumulator + that flush
  assign csr_cnt_o = (rd_v_q ? b_rdata : 64'd0) + 64'(rd_acc_q) + 64'(rd_fl_q);

endmodule

`default_nettype wire
