// SPDX-License-Identifier: Apache-2.0
//
// xtm_pkg: the types passed between the blocks of rtl/xtm and the arithmetic both the RTL
// and the C model must compute bit for bit (docs/spec.md). Each function names its C twin.
// The pipeline these types travel through is described in rtl/xtm/README.md and in spec
// section 15.

`default_nettype none

package xtm_pkg;

  localparam int unsigned CELLW = 28;   // cell quantities (spec 5.1)
  localparam int unsigned TOKW = 48;    // eager token buckets, signed, 2^-16 units (5.4)
  localparam int unsigned PKTCW = 9;    // cells of one packet: ceil(16383 / 64) = 256
  localparam int unsigned OUT_LATENCY = 6;  // spec 15.1, C twin XTM_OUT_LATENCY

  // drop reasons (spec 4.6), C twin xtm_reason_t
  localparam logic [3:0] RsnAccept = 4'd0;
  localparam logic [3:0] RsnTail = 4'd1;
  localparam logic [3:0] RsnPool = 4'd2;
  localparam logic [3:0] RsnProfile = 4'd3;
  localparam logic [3:0] RsnHeadroom = 4'd4;
  localparam logic [3:0] RsnBufFull = 4'd5;
  localparam logic [3:0] RsnQDisabled = 4'd6;
  localparam logic [3:0] RsnWd = 4'd7;
  localparam logic [3:0] RsnLenZero = 4'd8;
  localparam logic [3:0] RsnLenMax = 4'd9;
  localparam logic [3:0] RsnBadPort = 4'd10;
  localparam logic [3:0] RsnBadTc = 4'd11;
  localparam logic [3:0] RsnNotReady = 4'd12;
  localparam logic [3:0] RsnPolice = 4'd14;   // check p, the ingress policer (4.7)

  // Profile codes (spec 6.1), C twin: kXtmCodeNever/Always/Draw (cmodel/xtm/xtm_internal.h)
  localparam logic [1:0] ProfNever = 2'd0;
  localparam logic [1:0] ProfAlways = 2'd1;
  localparam logic [1:0] ProfDraw = 2'd2;

  // ------------------------------------------------------------------ per-cycle inputs
  // One PFC frame input bundle of all ports travels as flat vectors (port p at [8p +: 8] and
  // [128p +: 128]); Yosys 0.23 drops the array dimension of a packed array of a package type.

  // The enqueue descriptor after classification (xtm_classify, stage 1), carried to the
  // commit stage (spec 4.2, 4.3).
  typedef struct packed {
    logic        valid;    // enq.valid
    logic        cls;      // passed validation (4.2): has a VOQ and a PG
    logic [3:0]  err;      // the validation reason when !cls
    logic [31:0] pkt_id;
    logic [5:0]  in_port;
    logic [5:0]  eg_port;
    logic [5:0]  dscp;
    logic [1:0]  ecn;
    logic [13:0] len;
    logic [8:0]  voq;      // eg_port * NumTcs + queue
    logic [8:0]  pg;       // in_port * 8 + priority group
    logic [PKTCW-1:0] cells;  // ceil(len / CellBytes)
  } enq_req_t;

  // A packet in the egress in-flight FIFO (spec 9.4) = the deq output record.
  typedef struct packed {
    logic [31:0] pkt_id;
    logic [8:0]  voq;
    logic [5:0]  in_port;
    logic [13:0] len;
    logic [5:0]  dscp;
    logic [1:0]  ecn;
    logic        marked;
    logic        hbm;
    logic [31:0] sojourn;
  } deq_rec_t;
  localparam int unsigned DEQ_REC_W = 32 + 9 + 6 + 14 + 6 + 2 + 1 + 1 + 32;  // bits of deq_rec_t
  localparam int unsigned DEQ_REC_LEN_LSB = 32 + 1 + 1 + 2 + 6;  // deq_rec_t.len in a flat vector

  // The packet a dequeue slot removes (spec 9.4, 9.7), decided by xtm_sched from the head
  // cache of xtm_qmgr, at the commit stage.
  typedef struct packed {
    logic        valid;    // a packet leaves this cycle
    logic        flush;    // by the flush engine (else selected by the scheduler)
    logic [8:0]  voq;
    logic [5:0]  port;     // egress port
    logic [19:0] desc;     // descriptor index
    logic [13:0] len;
    logic [PKTCW-1:0] cells;
    logic        hbm;      // stored in HBM
    logic [8:0]  pg;       // in_port * 8 + priority group
    logic [CELLW-1:0] occ; // the VOQ's occupancy before the removal (S(t))
    logic        last;     // the VOQ's last packet
  } deq_sel_t;

  // The admission decision of the commit stage (xtm_admit, spec 4.4-5.3).
  typedef struct packed {
    logic       valid;     // enq_res.valid
    logic       cls;       // classified (has a VOQ)
    logic       acc;       // accepted
    logic [3:0] reason;
    logic       marked;    // tail-marked CE
    logic       hdrm;      // admitted into headroom
    logic       hbm;       // placed in HBM
    logic       evict;     // the VOQ switches to HBM mode (5.2)
  } admit_t;

  // ------------------------------------------------------------------ CSR operations
  // A CSR access of one logical cycle travels down the pipeline (spec 10, 15.5). Each block
  // applies a write and answers a read at the stage where its register lives.
  typedef struct packed {
    logic        valid;    // csr.valid of this logical cycle
    logic        write;
    logic [15:0] addr;
    logic [7:0]  id;       // xtm_reg_pkg::reg_id_e (XTM_REG_ID_W <= 8, checked in xtm_csr)
    logic [7:0]  idx;      // array element
    logic        cnt;      // a word of a 64-bit counter
    logic        hi;       // _HI word of a counter
    logic [31:0] wdata;    // masked to the register's fields
    logic        wr;       // a write that takes effect
    logic        rd;       // a read of a mapped register (returns data)
    logic [3:0]  err;      // ERR_STATUS bit to set: {NOT_READY, RO_WRITE, ILLEGAL, UNMAPPED}
    logic [8:0]  voq;      // window entries selected at the access (VOQ_SEL ...)
    logic [5:0]  port;
    logic [8:0]  pg;       // PG_SEL, or POL_SEL for a POL-window access (xtm_csr)
    logic [2:0]  prof;
  } csr_op_t;

  // The global configuration registers of the commit stage (xtm_csr), field views.
  typedef struct packed {
    logic [CELLW-1:0] pool_cells;
    logic [CELLW-1:0] evict_cells;
    logic [CELLW-1:0] return_cells;
    logic [23:0] hbm_wr_rate;
    logic [15:0] hbm_wr_burst;
    logic [23:0] hbm_rd_rate;
    logic [15:0] hbm_rd_burst;
    logic [11:0] hbm_rd_lat;
    logic [7:0]  ocb_rd_lat;
    logic        wd_en;
    logic        wd_fwd;     // WD_CTRL.ACTION = FORWARD (else DROP)
    logic [31:0] wd_poll;
    logic [7:0]  wd_detect;
    logic [7:0]  wd_restore;
  } glob_cfg_t;

  // ------------------------------------------------------------------ arithmetic
  // One LFSR draw: 16 Galois steps, x^32 + x^22 + x^2 + x + 1 (spec 6.4).
  // C twin: xtm_lfsr_draw (cmodel/xtm/xtm_profile.c), which takes the 16 steps one by one.
  // Here the same linear map as one XOR network: the 16 bits the steps shift out are
  // f_i = s_i ^ XOR_k taps_k f_(i-1-k), i.e. s[15:0] times the constant LFSR_FB (carry-less,
  // mod x^16); each shifted-out bit f_j then leaves the taps it fed back where 15 - j more
  // shifts put them. (A simulator forms it with about 15 shift-XORs instead of 16 dependent
  // steps; the gates are the same linear map.)
  localparam logic [31:0] LFSR_TAPS = 32'h8020_0003;
  function automatic logic [15:0] lfsr_fb(input logic [31:0] taps);  // elaboration only
    logic [15:0] c;
    c = 16'd1;
    for (int i = 1; i < 16; i++) begin
      for (int k = 0; k < i; k++) begin
        c[i] = c[i] ^ (taps[k] & c[i-1-k]);
      end
    end
    lfsr_fb = c;
  endfunction
  localparam logic [15:0] LFSR_FB = lfsr_fb(LFSR_TAPS);

  function automatic logic [31:0] lfsr_draw(input logic [31:0] s);
    logic [15:0] f;
    logic [47:0] fx;  // bit 15 + m lands at bit m of the state
    f = '0;
    for (int j = 0; j < 16; j++) begin
      if (LFSR_FB[j]) begin
        f = f ^ (s[15:0] << j);
      end
    end
    fx = '0;
    for (int k = 0; k < 32; k++) begin
      if (LFSR_TAPS[k]) begin
        fx = fx ^ (48'(f) << k);
      end
    end
    lfsr_draw = {16'd0, s[31:16]} ^ fx[46:15];
  endfunction

  // Eager token bucket refill at the start of a cycle (spec 5.4). C twin: xtm_tb_at.
  function automatic logic signed [TOKW-1:0] tb_refill(input logic signed [TOKW-1:0] tok,
                                                       input logic [23:0] rate,
                                                       input logic [19:0] burst);
    logic signed [TOKW:0] sum;
    logic signed [TOKW:0] cap;
    cap = $signed({{(TOKW - 35) {1'b0}}, burst, 16'h0});
    sum = $signed({tok[TOKW-1], tok}) + $signed({{(TOKW - 23) {1'b0}}, rate});
    // cap >= 0, so "x > cap" is "x >= 0 and x above cap as unsigned": the sign bit and an
    // unsigned compare (Verilator sign-extends both operands of a signed compare)
    if (!sum[TOKW] && sum[TOKW-1:0] > cap[TOKW-1:0]) begin
      sum = cap;
    end
    if (!tok[TOKW-1] && $unsigned(tok) > cap[TOKW-1:0]) begin
      sum = $signed({tok[TOKW-1], tok});  // above cap only after a clamp race: never grows
    end
    tb_refill = sum[TOKW-1:0];
  endfunction

  // Profile evaluation (spec 6.1) in two pipeline stages and a hit test. No division:
  // cross-multiplications of integers below 2^62.
  //
  // Stage A: which points are reached (8 products F_i * L), i*, the segment (Fa, Pa)-(Fb, Pb)
  // and Fa * L. Stage B: Dn, N and the code. Hit: r * Dn < N for a draw r.
  // C twins: the three parts of xtm_profile_eval (cmodel/xtm/xtm_profile.c).
  typedef struct packed {
    logic        interp;
    logic [16:0] fa, pa, fb, pb;
    logic [44:0] o;        // 65536 * min(occ, L); 65536 when L = 0
    logic [27:0] lim;      // L, 1 when the limit is 0
    logic [44:0] fal;      // Fa * L
  } prof_a_t;
  localparam int unsigned PROF_A_W = 1 + 4 * 17 + 45 + 28 + 45;

  typedef struct packed {
    logic [1:0]         code;  // ProfNever / ProfAlways / ProfDraw
    logic [45:0]        dn;    // denominator (1 for a segmented profile)
    logic signed [63:0] num;   // numerator
  } prof_b_t;
  localparam int unsigned PROF_B_W = 2 + 46 + 64;

  // fill/prob: point k at [17k +: 17]; npoints 0..8 (larger counts as 8)
  function automatic logic [PROF_A_W-1:0] prof_stage_a(input logic interp,
                                                       input logic [3:0] npoints,
                                                       input logic [135:0] fill,
                                                       input logic [135:0] prob,
                                                       input logic [CELLW-1:0] occ,
                                                       input logic [CELLW-1:0] limit);
    logic [27:0] lim;
    logic [44:0] o, p;
    logic [44:0] fal;
    logic [16:0] fa, pa, fb, pb;
    int ist;
    if (limit == '0) begin
      lim = 28'd1;
      o = 45'd65536;
    end else begin
      lim = limit;
      o = (occ < limit) ? {1'b0, occ, 16'd0} : {1'b0, limit, 16'd0};
    end
    ist = -1;
    fal = '0;
    for (int i = 0; i < 8; i++) begin
      p = 45'(fill[17*i+:17]) * 45'(lim);
      if (i < 32'(npoints) && o >= p) begin
        ist = i;
        fal = p;
      end
    end
    fa = (ist < 0) ? 17'd0 : fill[17*ist+:17];
    pa = (ist < 0) ? 17'd0 : prob[17*ist+:17];
    if (ist + 1 < 32'(npoints) && ist + 1 < 8) begin
      fb = fill[17*(ist+1)+:17];
      pb = prob[17*(ist+1)+:17];
    end else begin
      fb = 17'd65536;
      pb = 17'd65536;
    end
    prof_stage_a = {interp, fa, pa, fb, pb, o, lim, fal};
  endfunction

  function automatic logic [PROF_B_W-1:0] prof_stage_b(input logic [PROF_A_W-1:0] a_in);
    logic interp;
    logic [16:0] fa, pa, fb, pb;
    logic [44:0] o, fal;
    logic [27:0] lim;
    logic [1:0] code;
    logic [45:0] dn;
    logic signed [63:0] num, big;
    {interp, fa, pa, fb, pb, o, lim, fal} = a_in;
    if (!interp || fb <= fa) begin
      dn = 46'd1;
      num = $signed(64'(pa));
      code = (pa == '0) ? ProfNever : (pa >= 17'd65536) ? ProfAlways : ProfDraw;
    end else begin
      dn = 46'(17'(fb - fa)) * 46'(lim);
      num = $signed(64'(pa)) * $signed(64'(dn)) +
            ($signed(64'(pb)) - $signed(64'(pa))) * $signed(64'(45'(o - fal)));
      big = $signed(64'(dn) << 16);
      code = (num <= 0) ? ProfNever : (num >= big) ? ProfAlways : ProfDraw;
    end
    prof_stage_b = {code, dn, num};
  endfunction

  // The decision of an evaluated profile for a draw r (low 16 bits of an LFSR draw).
  function automatic logic prof_hit(input logic [PROF_B_W-1:0] b_in, input logic [15:0] r);
    logic [1:0] code;
    logic [45:0] dn;
    logic signed [63:0] num;
    {code, dn, num} = b_in;
    prof_hit = (code == ProfAlways) ||
               (code == ProfDraw && $signed(64'(r) * 64'(dn)) < num);
  endfunction

  // ceil(len / 2^cell_log2) (spec 4.3)
  function automatic logic [PKTCW-1:0] cells_of(input logic [13:0] len,
                                                input logic [3:0] cell_log2);
    logic [14:0] sum;
    sum = {1'b0, len} + ((15'd1 << cell_log2) - 15'd1);
    cells_of = PKTCW'(sum >> cell_log2);
  endfunction

endpackage
