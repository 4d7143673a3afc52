// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_rate: the rate-update stream of docs/spec-dcqcn.md D7, registered (stage 3, D15):
// the scan slots whose (Rc, Rt, alpha) changed in their visit, in slot order (that is
// increasing QP order), packed to the front; n_rate of them. C twin: the touch list and
// step 6 of full_cycle() in cmodel/dcqcn/dcqcn.c.

`default_nettype none
`include "tm_assert.svh"

module dcqcn_rate #(
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  localparam int unsigned U = ScanWidth
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic [U-1:0]    slot_v_i,      // slot b wrote its QP back
  input  wire logic [U-1:0]    changed_i,     // and changed its Rc, Rt or alpha
  input  wire logic [U*16-1:0] slot_qp_i,
  input  wire logic [U*20-1:0] slot_rc_i,
  input  wire logic [U*20-1:0] slot_rt_i,
  input  wire logic [U*10-1:0] slot_alpha_i,
  output logic [4:0]           n_rate_o,
  output logic [U*16-1:0]      rate_qp_o,
  output logic [U*20-1:0]      rate_rc_o,
  output logic [U*20-1:0]      rate_rt_o,
  output logic [U*10-1:0]      rate_alpha_o
);

  // Entry i is the i-th slot (in slot, that is QP, order) whose values changed: a prefix count
  // per slot and one register per entry (scalars: cheap in simulation, flops in synthesis).
  logic [U-1:0] ch;
  logic [U*5-1:0] pos;  // changed slots before slot b
  always_comb begin : c_pos
    logic [4:0] n;
    n = '0;
    for (int unsigned b = 0; b < U; b++) begin
      ch[b] = slot_v_i[b] && changed_i[b];
      pos[b*5 +: 5] = n;
      n = n + 5'(ch[b]);
    end
    n_rate_d = n;
  end
  logic [4:0] n_rate_d;
  `ASSERT(RateStreamFits_A, 32'(n_rate_d) <= U, clk_i, rst_ni)
  for (genvar i = 0; i < U; i++) begin : g_entry
    logic [15:0] qp_q;
    logic [19:0] rc_q, rt_q;
    logic [9:0] alpha_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin : s_entry
      if (!rst_ni) begin
        qp_q <= '0;
        rc_q <= '0;
        rt_q <= '0;
        alpha_q <= '0;
      end else begin
        qp_q <= '0;
        rc_q <= '0;
        rt_q <= '0;
        alpha_q <= '0;
        for (int unsigned b = i; b < U; b++) begin
          if (ch[b] && 32'(pos[b*5 +: 5]) == i) begin
            qp_q <= slot_qp_i[b*16 +: 16];
            rc_q <= slot_rc_i[b*20 +: 20];
            rt_q <= slot_rt_i[b*20 +: 20];
            alpha_q <= slot_alpha_i[b*10 +: 10];
          end
        end
      end
    end
    assign rate_qp_o[i*16 +: 16] = qp_q;
    assign rate_rc_o[i*20 +: 20] = rc_q;
    assign rate_rt_o[i*20 +: 20] = rt_q;
    assign rate_alpha_o[i*10 +: 10] = alpha_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_n
    if (!rst_ni) begin
      n_rate_o <= '0;
    end else begin
      n_rate_o <= n_rate_d;
    end
  end

endmodule

`default_nettype wire
