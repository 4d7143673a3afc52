// SPDX-License-Identifier: Apache-2.0
//
// xtm_sv_pkg: a self-contained SystemVerilog testbench for rtl/xtm/xtm_top with the C model
// as its DPI-C reference (cmodel/dpi/xtm_dpi_pkg.sv). No UVM library: the classes have the
// shape of their UVM counterparts so they drop into a UVM environment (docs/dpi.md):
//   xtm_sv_test        a sequence: configuration over APB, flows, PFC frames, MAC stalls,
//                      CSR activity, all drawn from one seed (the ideas of tb/xtm_tests.cpp)
//   xtm_sv_apb_master  the APB driver's protocol: setup, access held until pready
//   xtm_sv_scoreboard  a uvm_scoreboard: write_in() from the input monitor runs the DPI
//                      reference (the predictor), write_out() / write_csr_rsp() from the
//                      output monitors compare every output of every cycle, through a delay
//                      line of `latency` cycles (RTL outputs of logical cycle t at t + L);
//                      CSR reads of state registers are also predicted from the reference's
//                      spec-12 state (xtm_dpi_voq_state, counters, ...)
// The pin-level driver and monitors are in tb/sv/xtm_sv_tb.sv.
//
// Testbench code, never synthesised: the wildcard import and classes are fine here
// (STYLE.md rule 17 is about RTL).

package xtm_sv_pkg;

  import xtm_dpi_pkg::*;

  // util DPI (tb/sv/xtm_sv_util.c): wall clock, output folder, exit code
  import "DPI-C" function real xtm_sv_wall_seconds();
  import "DPI-C" function int xtm_sv_mkdir(input string path);
  import "DPI-C" function string xtm_sv_git_describe();
  import "DPI-C" function void xtm_sv_exit_code(input int code);

  // ---------------------------------------------------------------- seeded generator
  // splitmix64, C twin tb_rand (tb/xtm_tests.h): the same seed gives the same sequence.
  function automatic longint unsigned xtm_sv_splitmix(inout longint unsigned s);
    longint unsigned z;
    s = s + 64'h9E37_79B9_7F4A_7C15;
    z = s;
    z = (z ^ (z >> 30)) * 64'hBF58_476D_1CE4_E5B9;
    z = (z ^ (z >> 27)) * 64'h94D0_49BB_1331_11EB;
    xtm_sv_splitmix = z ^ (z >> 31);
  endfunction

  typedef struct packed {
    bit              write;
    bit [15:0]       addr;
    bit [31:0]       wdata;
    longint unsigned not_before;  // earliest cycle of the setup phase
  } xtm_sv_csr_op_t;

  typedef struct packed {
    longint unsigned cycle;
    int unsigned     port;
    bit [7:0]        vec;
    bit [15:0]       quanta;
  } xtm_sv_pfc_ev_t;

  // What a monitor sees of the DUT's outputs in one cycle (and what the reference predicts):
  // the DPI output bundle (csr_rsp unused, the APB monitor reports it) and the port vectors.
  typedef struct packed {
    xtm_dpi_out_t    out;
    xtm_dpi_deq_t    deq;
    xtm_dpi_vec_t    pfc_vec;
    xtm_dpi_quanta_t pfc_quanta;
  } xtm_sv_obs_t;

  // A traffic flow: packets from in_port to eg_port at rate_q16 bytes per cycle (Q16.16).
  // (a packed struct, not a class: Verilator 5.006 cannot compile a queue of class handles
  // declared in a package and used by another class of it)
  typedef struct packed {
    bit [7:0] in_port, eg_port, dscp, ecn;
    int unsigned len_min, len_max;
    longint unsigned rate_q16, start, stop;
    bit obey_pfc;  // stops while the TM pauses its ingress port for pfc_prio
    bit [2:0] pfc_prio;
    longint unsigned next_q16, paused_until;
    int unsigned sent;
  } xtm_sv_flow_t;

  // ================================================================ sequences (tests)
  class xtm_sv_test;
    string name;
    longint unsigned rng;
    int unsigned P, T;
    longint unsigned cable;
    xtm_sv_csr_op_t csr_q[$];
    xtm_sv_flow_t flows[$];
    xtm_sv_pfc_ev_t pfc_q[$];  // by cycle

    function new(string name, longint unsigned seed, int unsigned P, int unsigned T);
      this.name = name;
      this.rng = seed * 64'h2545_F491_4F6C_DD1D + 64'd1;
      this.P = P;
      this.T = T;
      this.cable = 500;
    endfunction

    virtual function longint unsigned default_cycles();
      default_cycles = 20000;
    endfunction
    virtual function void setup();
    endfunction
    virtual function bit [63:0] tx_ready_at(longint unsigned t);
      tx_ready_at = '1;
    endfunction

    function int unsigned rnd(int unsigned n);
      longint unsigned r;
      r = xtm_sv_splitmix(rng);
      rnd = (n == 0) ? 0 : int'(r % longint'(n));
    endfunction
    function int unsigned rnd32();
      longint unsigned r;
      r = xtm_sv_splitmix(rng);
      rnd32 = r[31:0];
    endfunction

    // ---- CSR sequence helpers (addresses from the generated xtm_reg_pkg)
    function void wr(bit [15:0] a, bit [31:0] d, longint unsigned nb = 0);
      xtm_sv_csr_op_t op;
      op.write = 1'b1;
      op.addr = a;
      op.wdata = d;
      op.not_before = nb;
      csr_q.push_back(op);
    endfunction
    function void rd(bit [15:0] a, longint unsigned nb = 0);
      xtm_sv_csr_op_t op;
      op.write = 1'b0;
      op.addr = a;
      op.wdata = 32'd0;
      op.not_before = nb;
      csr_q.push_back(op);
    endfunction
    function void voq_wr(int unsigned v, bit [15:0] a, bit [31:0] d, longint unsigned nb = 0);
      wr(xtm_reg_pkg::XTM_VOQ_SEL_OFFSET, v, nb);
      wr(a, d, nb);
    endfunction
    function void port_wr(int unsigned p, bit [15:0] a, bit [31:0] d, longint unsigned nb = 0);
      wr(xtm_reg_pkg::XTM_PORT_SEL_OFFSET, p, nb);
      wr(a, d, nb);
    endfunction
    function void pg_wr(int unsigned p, int unsigned pr, bit [15:0] a, bit [31:0] d,
                        longint unsigned nb = 0);
      wr(xtm_reg_pkg::XTM_PG_SEL_OFFSET, p * 8 + pr, nb);
      wr(a, d, nb);
    endfunction
    // profile id: points (fill[i], prob[i]), i < n
    function void profile(int unsigned id, bit interp, int unsigned n, bit [16:0] fill[8],
                          bit [16:0] prob[8]);
      wr(xtm_reg_pkg::XTM_PROF_SEL_OFFSET, id);
      for (int unsigned i = 0; i < n; i++) begin
        wr(16'(xtm_reg_pkg::XTM_PR_FILL_0_OFFSET + 4 * i), 32'(fill[i]));
        wr(16'(xtm_reg_pkg::XTM_PR_PROB_0_OFFSET + 4 * i), 32'(prob[i]));
      end
      wr(xtm_reg_pkg::XTM_PR_CFG_OFFSET, 32'(interp) | (n << 4));
    endfunction
    static function bit [31:0] qcfg(bit strict, bit no_loss, bit ecn, bit ntail, int unsigned mp,
                                    int unsigned prof, bit rxen = 0, int unsigned prio = 0,
                                    bit wd = 0, bit shaper = 0);
      qcfg = 32'd1 | 32'(strict) << 1 | 32'(no_loss) << 2 | 32'(ecn) << 3 | 32'(ntail) << 4 |
             mp << 5 | prof << 7 | 32'(rxen) << 10 | prio << 11 | 32'(wd) << 14 |
             32'(shaper) << 15;
    endfunction
    function void line_rate_shapers();
      for (int unsigned p = 0; p < P; p++) begin
        port_wr(p, xtm_reg_pkg::XTM_P_SHAPER_RATE_OFFSET, 32'h0C_8000);
        port_wr(p, xtm_reg_pkg::XTM_P_SHAPER_BURST_OFFSET, 9216);
        port_wr(p, xtm_reg_pkg::XTM_P_SHAPER_CFG_OFFSET, 32'd1 | 32'd20 << 8);
      end
    endfunction
    function void add_flow(int unsigned in_port, int unsigned eg_port, int unsigned dscp,
                           int unsigned ecn, int unsigned lmin, int unsigned lmax,
                           real bytes_per_cycle, longint unsigned start, longint unsigned stop,
                           bit obey = 0, int unsigned prio = 0);
      xtm_sv_flow_t f;
      f.in_port = 8'(in_port);
      f.eg_port = 8'(eg_port);
      f.dscp = 8'(dscp);
      f.ecn = 8'(ecn);
      f.len_min = lmin;
      f.len_max = lmax;
      f.rate_q16 = longint'($rtoi(bytes_per_cycle * 65536.0));  // truncates, as the C++ cast
      f.start = start;
      f.stop = stop;
      f.obey_pfc = obey;
      f.pfc_prio = 3'(prio);
      f.next_q16 = start << 16;
      f.paused_until = 0;
      f.sent = 0;
      flows.push_back(f);
    endfunction
    // keeps pfc_q ordered by cycle (stable: equal cycles stay in insertion order)
    function void add_pfc(longint unsigned c, int unsigned port, bit [7:0] vec, bit [15:0] q);
      int i;
      xtm_sv_pfc_ev_t ev;
      ev.cycle = c;
      ev.port = port;
      ev.vec = vec;
      ev.quanta = q;
      i = pfc_q.size();
      while (i > 0 && pfc_q[i-1].cycle > c) i--;
      pfc_q.insert(i, ev);
    endfunction

    // One descriptor per cycle: the flow due earliest goes first; the others wait a cycle.
    function void flows_step(longint unsigned t, inout xtm_dpi_in_t in);
      int best;
      longint unsigned best_due, due, gap, now16;
      int unsigned len;
      xtm_sv_flow_t f;
      best = -1;
      best_due = '1;
      for (int i = 0; i < flows.size(); i++) begin
        f = flows[i];
        if (t >= f.start && t < f.stop && t >= f.paused_until) begin
          due = (f.next_q16 + 64'hFFFF) >> 16;
          if (due <= t && due < best_due) begin
            best = i;
            best_due = due;
          end
        end
      end
      if (best < 0) return;
      f = flows[best];
      // if, not ?: -- Verilator 5.006 calls a function in the branch ?: does not take, which
      // would draw a number here for fixed-length flows
      len = f.len_min;
      if (f.len_max > f.len_min) len += rnd(f.len_max - f.len_min + 1);
      in.enq.valid = 1'b1;
      in.enq.pkt_id = {f.in_port, 24'(f.sent)};
      in.enq.in_port = 6'(f.in_port);
      in.enq.eg_port = 6'(f.eg_port);
      in.enq.dscp = 6'(f.dscp);
      in.enq.ecn = 2'(f.ecn);
      in.enq.len = 14'(len);
      f.sent++;
      gap = (f.rate_q16 != 0) ? ((longint'(len) + 20) << 32) / f.rate_q16 : (64'd1 << 40);
      now16 = t << 16;
      f.next_q16 = (f.next_q16 + gap > now16) ? f.next_q16 + gap : now16;
      flows[best] = f;
    endfunction

    // This cycle's enqueue, PFC frames (vec/quanta written for the ports with a frame) and
    // tx_ready. The caller passes an idle bundle.
    virtual function void stimulus(longint unsigned t, inout xtm_dpi_in_t in,
                                   inout xtm_dpi_vec_t vec, inout xtm_dpi_quanta_t q);
      xtm_sv_pfc_ev_t ev;
      flows_step(t, in);
      while (pfc_q.size() > 0 && pfc_q[0].cycle <= t) begin
        ev = pfc_q.pop_front();
        if (ev.cycle == t && ev.port < P) begin
          in.pfc_rx_valid[ev.port] = 1'b1;
          vec[8*ev.port+:8] = ev.vec;
          for (int i = 0; i < 8; i++) q[16*(8*ev.port+i)+:16] = ev.quanta;
        end
      end
      in.tx_ready = tx_ready_at(t);
    endfunction

    function bit next_csr(longint unsigned t, output xtm_sv_csr_op_t op);
      op = '0;
      if (csr_q.size() == 0 || csr_q[0].not_before > t) return 1'b0;
      op = csr_q.pop_front();
      return 1'b1;
    endfunction
    function bit csr_pending();
      csr_pending = csr_q.size() != 0;
    endfunction

    // The reference's outputs of cycle t: flows that obey PFC hear a frame after the cable
    // delay and stop for its pause time.
    virtual function void observe(longint unsigned t, xtm_dpi_out_t o, xtm_dpi_vec_t pfc_vec,
                                  xtm_dpi_quanta_t pfc_quanta);
      bit [15:0] qn;
      if (o.pfc_tx_valid == 0) return;
      for (int unsigned p = 0; p < P; p++) begin
        if (o.pfc_tx_valid[p]) begin
          foreach (flows[i]) begin
            if (flows[i].obey_pfc && flows[i].in_port == p &&
                pfc_vec[8*p+flows[i].pfc_prio]) begin
              qn = pfc_quanta[16*(8*p+flows[i].pfc_prio)+:16];
              flows[i].paused_until = (qn == 0) ? t + cable :
                  t + cable + (longint'(qn) * 64'h51EB8 + 64'hFFFF) / 65536;
            end
          end
        end
      end
    endfunction

    // End of test: read back identity, occupancies and counters of every VOQ, port and PG
    // (the scoreboard predicts them from the reference's state).
    function void audit(longint unsigned nb);
      rd(xtm_reg_pkg::XTM_BLOCK_TYPE_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_VERSION_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_HW_PARAMS_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_HW_NUM_DESC_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_POOL_USED_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_OCB_USED_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_HBM_USED_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_DESC_FREE_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_LFSR_STATE_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_LFSR_HEAD_STATE_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_ARR_PKTS_LO_OFFSET, nb);
      rd(xtm_reg_pkg::XTM_ARR_PKTS_HI_OFFSET, nb);
      for (int unsigned v = 0; v < P * T; v++) begin
        wr(xtm_reg_pkg::XTM_VOQ_SEL_OFFSET, v, nb);
        rd(xtm_reg_pkg::XTM_Q_STATUS_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_OCC_CELLS_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_OCC_PKTS_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_HBM_CELLS_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_DEFICIT_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_ENQ_PKTS_LO_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_DEQ_PKTS_LO_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_DEQ_PKTS_HI_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_Q_DROP_BYTES_LO_OFFSET, nb);
      end
      for (int unsigned p = 0; p < P; p++) begin
        wr(xtm_reg_pkg::XTM_PORT_SEL_OFFSET, p, nb);
        rd(xtm_reg_pkg::XTM_P_TX_BYTES_LO_OFFSET, nb);
        rd(xtm_reg_pkg::XTM_P_PFC_TX_FRAMES_LO_OFFSET, nb);
        for (int unsigned pr = 0; pr < 8; pr++) begin
          wr(xtm_reg_pkg::XTM_PG_SEL_OFFSET, p * 8 + pr, nb);
          rd(xtm_reg_pkg::XTM_G_PG_CELLS_OFFSET, nb);
          rd(xtm_reg_pkg::XTM_G_HDRM_USED_OFFSET, nb);
          rd(xtm_reg_pkg::XTM_G_PAUSE_REMAIN_OFFSET, nb);
          rd(xtm_reg_pkg::XTM_G_XOFF_SENT_LO_OFFSET, nb);
        end
      end
    endfunction
  endclass

  // ---------------------------------------------------------------- smoke
  class xtm_sv_test_smoke extends xtm_sv_test;
    function new(string name, longint unsigned seed, int unsigned P, int unsigned T);
      super.new(name, seed, P, T);
    endfunction
    virtual function void setup();
      line_rate_shapers();
      add_flow(0, 1 % P, 0, 0, 64, 1500, 2.0, 100, 15000);
      add_flow(1 % P, 0, 8, 2, 64, 9000, 3.0, 200, 15000);
      add_flow(0, 0, 0, 1, 64, 256, 1.0, 300, 15000);
    endfunction
  endclass

  // ---------------------------------------------------------------- incast (make cosim's job)
  // 4:1 incast of RDMA (lossless, ECN head-marked, PFC with headroom, evicting to HBM) plus
  // lossy background at 100 Gb/s per port: the same configuration and flows as `incast` of
  // tb/xtm_tests.cpp, so the same seed gives the same stimulus as the SystemC run.
  class xtm_sv_test_incast extends xtm_sv_test;
    function new(string name, longint unsigned seed, int unsigned P, int unsigned T);
      super.new(name, seed, P, T);
    endfunction
    virtual function longint unsigned default_cycles();
      default_cycles = 1000000;
    endfunction
    virtual function void setup();
      int unsigned eg, tc, v, nsrc;
      bit [16:0] fill[8], prob[8];
      line_rate_shapers();
      eg = (P > 4) ? 4 : P - 1;
      tc = (T > 3) ? 3 : T - 1;
      v = eg * T + tc;
      for (int unsigned p = 0; p < P; p++) begin
        pg_wr(p, tc, xtm_reg_pkg::XTM_G_XOFF_CELLS_OFFSET, 1200);
        pg_wr(p, tc, xtm_reg_pkg::XTM_G_XON_CELLS_OFFSET, 900);
        pg_wr(p, tc, xtm_reg_pkg::XTM_G_HDRM_CELLS_OFFSET, 200);
        pg_wr(p, tc, xtm_reg_pkg::XTM_G_CFG_OFFSET, 1);
        port_wr(p, xtm_reg_pkg::XTM_P_PFC_QUANTA_OFFSET, 32'hFFFF);
        port_wr(p, xtm_reg_pkg::XTM_P_PFC_REFRESH_OFFSET, 150000);
      end
      fill[0] = 19661;  // Kmin 30 % -> 1 %, Kmax 60 % -> 100 %
      prob[0] = 655;
      fill[1] = 39322;
      prob[1] = 65536;
      profile(1, 0, 2, fill, prob);
      voq_wr(v, xtm_reg_pkg::XTM_Q_CFG_OFFSET, qcfg(0, 1, 1, 0, 1, 1));
      voq_wr(v, xtm_reg_pkg::XTM_Q_LIMIT_CELLS_OFFSET, 12000);
      voq_wr(v, xtm_reg_pkg::XTM_Q_TARGET_RATE_OFFSET, 32'h0C_8000);
      voq_wr(v, xtm_reg_pkg::XTM_Q_QUANTUM_OFFSET, 27648);
      voq_wr(eg * T, xtm_reg_pkg::XTM_Q_LIMIT_CELLS_OFFSET, 600);
      wr(xtm_reg_pkg::XTM_HBM_EVICT_CELLS_OFFSET, 2000);
      wr(xtm_reg_pkg::XTM_HBM_RETURN_CELLS_OFFSET, 500);
      wr(xtm_reg_pkg::XTM_HBM_WR_RATE_OFFSET, 32'h4_0000);
      wr(xtm_reg_pkg::XTM_HBM_RD_RATE_OFFSET, 32'h4_0000);
      nsrc = 0;
      for (int unsigned p = 0; p < P && nsrc < 4; p++) begin
        if (p != eg) begin
          add_flow(p, eg, tc * 8, 2, 4096, 4096, 12.5, 2000 + 13 * p, 900000, 1, tc);
          nsrc++;
        end
      end
      if (P == 2) add_flow(0, eg, tc * 8, 2, 4096, 4096, 12.5, 2100, 900000, 1, tc);
      add_flow((eg + 1) % P, eg, 0, 0, 64, 1500, 3.0, 2000, 950000);
      cable = 500;
    endfunction
  endclass

  // ---------------------------------------------------------------- random
  // A random legal configuration (profiles, every VOQ, port and PG), random flows, PFC
  // frames from the neighbours, MAC stalls and CSR reads and writes under traffic: the ideas
  // of `random` in tb/xtm_tests.cpp, drawn in this file's order (so not the same stimulus
  // as the SystemC run of the same seed).
  class xtm_sv_test_random extends xtm_sv_test;
    longint unsigned flip_every;
    function new(string name, longint unsigned seed, int unsigned P, int unsigned T);
      super.new(name, seed, P, T);
      flip_every = 5000;
    endfunction
    virtual function longint unsigned default_cycles();
      default_cycles = 200000;
    endfunction
    virtual function void setup();
      int unsigned NV, n, f, q, xoff, nflows, in_p, eg_p, dscp, ecn, lmax, obey, prio, k;
      bit strict, no_loss, ecn_en, ntail, rxen, wd, shaper;
      int unsigned mp, prof, qprio;
      longint unsigned s, dur;
      real rate;
      bit [16:0] fill[8], prob[8];
      bit [15:0] wregs[6];
      bit [15:0] rregs[12];
      NV = P * T;
      // spec 3: during initialisation (cycles < 8 * P) a VOQ-window read is refused
      // (ERR_STATUS.NOT_READY, data 0) and STATUS.INIT_DONE reads 0; stimulus() also sends
      // descriptors then (NOT_READY)
      rd(xtm_reg_pkg::XTM_Q_LIMIT_CELLS_OFFSET);
      rd(xtm_reg_pkg::XTM_STATUS_OFFSET);
      rd(xtm_reg_pkg::XTM_ERR_STATUS_OFFSET);
      wr(xtm_reg_pkg::XTM_ERR_STATUS_OFFSET, 32'hFFFF_FFFF);
      for (int unsigned pr = 0; pr < 8; pr++) begin
        n = rnd(4);
        f = 0;
        q = 0;
        for (int unsigned i = 0; i < n; i++) begin
          f += 1 + rnd(20000);
          q += rnd(30000);
          fill[i] = 17'((f > 65536) ? 65536 : f);
          prob[i] = 17'((q > 65536) ? 65536 : q);
        end
        profile(pr, 1'(rnd(2)), n, fill, prob);
      end
      for (int unsigned v = 0; v < NV; v++) begin
        strict = rnd(5) == 0;
        no_loss = rnd(4) == 0;
        ecn_en = 1'(rnd(2));
        ntail = 1'(rnd(2));
        mp = rnd(3);
        prof = rnd(8);
        rxen = 1'(rnd(2));
        qprio = rnd(8);
        wd = 1'(rnd(2));
        shaper = rnd(4) == 0;
        voq_wr(v, xtm_reg_pkg::XTM_Q_CFG_OFFSET,
               qcfg(strict, no_loss, ecn_en, ntail, mp, prof, rxen, qprio, wd, shaper));
        voq_wr(v, xtm_reg_pkg::XTM_Q_LIMIT_CELLS_OFFSET, 8 + rnd(200));
        voq_wr(v, xtm_reg_pkg::XTM_Q_QUANTUM_OFFSET, 64 + rnd(12000));
        voq_wr(v, xtm_reg_pkg::XTM_Q_LAT_THRESH_OFFSET, rnd(3000));
        voq_wr(v, xtm_reg_pkg::XTM_Q_SHAPER_RATE_OFFSET, rnd(32'h4_0000));
        voq_wr(v, xtm_reg_pkg::XTM_Q_SHAPER_BURST_OFFSET, rnd(20000));
        voq_wr(v, xtm_reg_pkg::XTM_Q_TARGET_RATE_OFFSET, rnd(32'h20_0000));
      end
      for (int unsigned p = 0; p < P; p++) begin
        k = rnd(2);
        port_wr(p, xtm_reg_pkg::XTM_P_SHAPER_CFG_OFFSET, k | rnd(64) << 8);
        port_wr(p, xtm_reg_pkg::XTM_P_SHAPER_RATE_OFFSET, 32'h8000 + rnd(32'h10_0000));
        port_wr(p, xtm_reg_pkg::XTM_P_SHAPER_BURST_OFFSET, rnd(30000));
        port_wr(p, xtm_reg_pkg::XTM_P_PAUSE_QUANTUM_OFFSET, 32'h4000 + rnd(32'h7_C000));
        port_wr(p, xtm_reg_pkg::XTM_P_PFC_QUANTA_OFFSET, 1 + rnd(2000));
        port_wr(p, xtm_reg_pkg::XTM_P_PFC_REFRESH_OFFSET, 1 + rnd(3000));
        for (int unsigned pr = 0; pr < 8; pr++) begin
          k = rnd(4);
          pg_wr(p, pr, xtm_reg_pkg::XTM_G_CFG_OFFSET, k | rnd(8) << 4);
          xoff = rnd(300);
          pg_wr(p, pr, xtm_reg_pkg::XTM_G_XOFF_CELLS_OFFSET, xoff);
          pg_wr(p, pr, xtm_reg_pkg::XTM_G_XON_CELLS_OFFSET, rnd(xoff + 1));
          pg_wr(p, pr, xtm_reg_pkg::XTM_G_HDRM_CELLS_OFFSET, rnd(100));
        end
      end
      wr(xtm_reg_pkg::XTM_POOL_CELLS_OFFSET, 200 + rnd(2000));
      wr(xtm_reg_pkg::XTM_HBM_EVICT_CELLS_OFFSET, rnd(60));
      wr(xtm_reg_pkg::XTM_HBM_RETURN_CELLS_OFFSET, rnd(30));
      wr(xtm_reg_pkg::XTM_HBM_WR_RATE_OFFSET, rnd(32'h2_0000));
      wr(xtm_reg_pkg::XTM_HBM_WR_BURST_OFFSET, rnd(100));
      wr(xtm_reg_pkg::XTM_HBM_RD_RATE_OFFSET, 1 + rnd(32'h2_0000));
      wr(xtm_reg_pkg::XTM_HBM_RD_BURST_OFFSET, rnd(100));
      wr(xtm_reg_pkg::XTM_HBM_RD_LAT_OFFSET, 1 + rnd(800));
      wr(xtm_reg_pkg::XTM_OCB_RD_LAT_OFFSET, 1 + rnd(10));
      wr(xtm_reg_pkg::XTM_OCB_ONLY_CYCLES_OFFSET, rnd(2000));
      wr(xtm_reg_pkg::XTM_WD_CTRL_OFFSET, rnd(4));
      wr(xtm_reg_pkg::XTM_WD_DETECT_POLLS_OFFSET, 1 + rnd(3));
      wr(xtm_reg_pkg::XTM_WD_RESTORE_POLLS_OFFSET, 1 + rnd(3));
      wr(xtm_reg_pkg::XTM_WD_POLL_CYCLES_OFFSET, 200 + rnd(5000));
      wr(xtm_reg_pkg::XTM_TC_PG_MAP_OFFSET, rnd32() & 32'h7777_7777);
      wr(xtm_reg_pkg::XTM_LFSR_SEED_OFFSET, rnd32() | 32'd1);
      nflows = 2 + rnd(2 * P);
      for (int unsigned i = 0; i < nflows; i++) begin
        s = 500 + rnd(20000);
        in_p = rnd(P);
        eg_p = rnd(P);
        dscp = rnd(64);
        ecn = rnd(4);
        lmax = 64 + rnd(9152);
        rate = 0.5 + rnd(100) / 10.0;
        dur = 50000 + rnd(150000);
        obey = rnd(2);
        prio = rnd(8);
        add_flow(in_p, eg_p, dscp, ecn, 64, lmax, rate, s, s + dur, 1'(obey), prio);
      end
      for (longint unsigned c = 1000; c < 200000; c += 100 + rnd(4000)) begin
        in_p = rnd(P);
        k = rnd(256);
        q = 0;
        if (rnd(3) != 0) q = rnd(3000);  // (not ?:, see flows_step)
        add_pfc(c, in_p, 8'(k), 16'(q));
      end
      wregs = '{xtm_reg_pkg::XTM_Q_LIMIT_CELLS_OFFSET, xtm_reg_pkg::XTM_P_SHAPER_RATE_OFFSET,
                xtm_reg_pkg::XTM_G_XOFF_CELLS_OFFSET, xtm_reg_pkg::XTM_POOL_CELLS_OFFSET,
                xtm_reg_pkg::XTM_Q_SHAPER_BURST_OFFSET, xtm_reg_pkg::XTM_WD_CTRL_OFFSET};
      rregs = '{xtm_reg_pkg::XTM_POOL_WM_OFFSET, xtm_reg_pkg::XTM_Q_WM_CELLS_OFFSET,
                xtm_reg_pkg::XTM_G_PAUSED_CYCLES_LO_OFFSET, xtm_reg_pkg::XTM_Q_DEQ_PKTS_LO_OFFSET,
                xtm_reg_pkg::XTM_CNT_HI_OFFSET, xtm_reg_pkg::XTM_LFSR_STATE_OFFSET, 16'h0FF0,
                xtm_reg_pkg::XTM_G_PAUSE_REMAIN_OFFSET, xtm_reg_pkg::XTM_P_STATUS_OFFSET,
                xtm_reg_pkg::XTM_Q_OCC_CELLS_OFFSET, xtm_reg_pkg::XTM_Q_STATUS_OFFSET,
                xtm_reg_pkg::XTM_LFSR_HEAD_STATE_OFFSET};
      for (longint unsigned c = 3000; c < 200000; c += 1000 + rnd(6000)) begin
        wr(xtm_reg_pkg::XTM_VOQ_SEL_OFFSET, rnd(NV), c);
        wr(xtm_reg_pkg::XTM_PG_SEL_OFFSET, rnd(P * 8), c);
        wr(xtm_reg_pkg::XTM_PORT_SEL_OFFSET, rnd(P), c);
        if (rnd(2) != 0) begin
          k = rnd(6);
          wr(wregs[k], rnd32() & 32'h3FFF, c);
        end else begin
          rd(rregs[rnd(12)], c);
        end
      end
      flip_every = 2000 + rnd(20000);
    endfunction
    virtual function void stimulus(longint unsigned t, inout xtm_dpi_in_t in,
                                   inout xtm_dpi_vec_t vec, inout xtm_dpi_quanta_t q);
      super.stimulus(t, in, vec, q);
      if (t < 8 * P && !in.enq.valid) begin  // during initialisation: NOT_READY (spec 3)
        in.enq.valid = 1'b1;
        in.enq.pkt_id = 32'hEE00_0000 | 32'(t);
        in.enq.in_port = 6'(t % P);
        in.enq.eg_port = 6'((t + 1) % P);
        in.enq.dscp = 6'(t % 64);
        in.enq.ecn = 2'(t % 4);
        in.enq.len = 14'(64 + t);
      end
    endfunction
    virtual function bit [63:0] tx_ready_at(longint unsigned t);
      longint unsigned k, a, b;
      k = t / flip_every;
      a = xtm_sv_splitmix(k);
      b = xtm_sv_splitmix(k);
      tx_ready_at = ~(a & b & 64'hFF);  // some ports stalled at times
    endfunction
  endclass

  // The test list (tb/sv/README.md). null for an unknown name.
  function automatic xtm_sv_test xtm_sv_make_test(string name, longint unsigned seed,
                                                  int unsigned P, int unsigned T);
    xtm_sv_test t;
    xtm_sv_test_smoke ts;
    xtm_sv_test_incast ti;
    xtm_sv_test_random tr;
    t = null;
    if (name == "smoke") begin
      ts = new(name, seed, P, T);
      t = ts;
    end else if (name == "incast") begin
      ti = new(name, seed, P, T);
      t = ti;
    end else if (name == "random") begin
      tr = new(name, seed, P, T);
      t = tr;
    end
    if (t != null) t.setup();
    return t;
  endfunction

  function automatic void xtm_sv_list_tests();
    $display("smoke          three flows, light load");
    $display("incast         4:1 incast, lossless ECN head-marked class, PFC, HBM, lossy background");
    $display("random         random legal configuration, flows, PFC frames, MAC stalls, CSR activity");
  endfunction

  // ================================================================ APB master (driver)
  // Setup cycle, then access cycles held (psel, penable, address, data stable) until the
  // slave answers with pready; the next transfer's setup may follow the completing cycle.
  class xtm_sv_apb_master;
    typedef enum int {ApbIdle, ApbSetup, ApbAccess} apb_state_e;
    apb_state_e state;
    xtm_sv_csr_op_t op;
    longint unsigned wait_cycles, timeout_cycles, transfers;
    bit psel, penable, pwrite;
    bit [15:0] paddr;
    bit [31:0] pwdata;

    function new(longint unsigned timeout_cycles);
      state = ApbIdle;
      op = '0;
      this.timeout_cycles = timeout_cycles;
      wait_cycles = 0;
      transfers = 0;
      psel = 0;
      penable = 0;
      pwrite = 0;
      paddr = 0;
      pwdata = 0;
    endfunction

    // The pins of cycle t: starts the test's next CSR op when idle.
    function void drive(longint unsigned t, xtm_sv_test seq);
      xtm_sv_csr_op_t n;
      case (state)
        ApbIdle: begin
          if (seq.next_csr(t, n)) begin
            op = n;
            state = ApbSetup;
          end
        end
        ApbSetup: begin
          state = ApbAccess;
          wait_cycles = 0;
        end
        default: begin  // ApbAccess: held until pready
          wait_cycles++;
        end
      endcase
      psel = state != ApbIdle;
      penable = state == ApbAccess;
      pwrite = op.write;
      paddr = op.addr;
      pwdata = op.write ? op.wdata : 32'd0;
    endfunction

    // pready of this cycle (sampled before the clock edge): 1 when the transfer completes.
    function bit sample(bit pready);
      sample = 1'b0;
      if (state == ApbAccess && pready) begin
        state = ApbIdle;
        transfers++;
        sample = 1'b1;
      end
    endfunction
    function bit busy();
      busy = state != ApbIdle;
    endfunction
    function bit timed_out();
      timed_out = state == ApbAccess && wait_cycles >= timeout_cycles;
    endfunction
  endclass

  // ================================================================ scoreboard
  typedef struct packed {
    bit        write;
    bit [15:0] addr;
    bit [31:0] wdata;
    bit        err;        // the reference's answer
    bit [31:0] rdata;
    bit        predicted;  // a state register: pred is the value of the reference's state
    bit [31:0] pred;
    bit [7:0]  pred_kind;
    int unsigned pred_index;
    longint unsigned cycle;
  } xtm_sv_csr_exp_t;

  class xtm_sv_scoreboard;
    string name;
    // configuration (build_phase)
    int unsigned P, T, NV;
    int unsigned latency;
    longint unsigned max_errors;
    string test_name, cfg_name, out_dir;
    longint unsigned seed;
    bit quiet;
    // the DPI reference
    chandle ref_h;
    // state
    xtm_sv_obs_t exp_q[$];        // the delay line: reference outputs not yet compared
    xtm_sv_csr_exp_t csr_q[$];    // CSR responses the DUT still owes
    string hist_model[$], hist_dut[$];
    int fd_model, fd_dut;
    longint unsigned errors, first_err_cycle, in_cycles, out_cycles;
    longint unsigned packets_in, packets_out, flushes, pfc_frames, csr_checked, state_checked;
    longint unsigned drops[16];
    bit [31:0] voq_sel, port_sel, pg_sel, cnt_hi;  // window selects as the reference has them
    bit done;

    function new(string name);
      this.name = name;
      ref_h = null;
      errors = 0;
      done = 0;
      in_cycles = 0;
      out_cycles = 0;
      packets_in = 0;
      packets_out = 0;
      flushes = 0;
      pfc_frames = 0;
      csr_checked = 0;
      state_checked = 0;
      foreach (drops[i]) drops[i] = 0;
      voq_sel = 0;
      port_sel = 0;
      pg_sel = 0;
      cnt_hi = 0;
      fd_model = 0;
      fd_dut = 0;
    endfunction

    // Creates the reference with the DUT's parameters (STYLE.md rule 35). 0 on success.
    function int build_phase(xtm_dpi_params_t prm, int unsigned latency, longint unsigned max_errors,
                             string test_name, longint unsigned seed, string cfg_name,
                             string out_dir, bit quiet);
      int st;
      xtm_dpi_params_t got;
      this.P = prm.num_ports;
      this.T = prm.num_tcs;
      this.NV = P * T;
      this.latency = latency;
      this.max_errors = max_errors;
      this.test_name = test_name;
      this.seed = seed;
      this.cfg_name = cfg_name;
      this.out_dir = out_dir;
      this.quiet = quiet;
      st = xtm_dpi_abi_ok();
      if (st != XTM_DPI_OK) begin
        $display("FAILURE: DPI layer: %s", xtm_dpi_last_error());
        return st;
      end
      st = xtm_dpi_create(prm, ref_h);
      if (st != XTM_DPI_OK) begin
        $display("FAILURE: cannot create the C model: %s (%s)", xtm_dpi_status_name(st),
                 xtm_dpi_last_error());
        return st;
      end
      st = xtm_dpi_get_params(ref_h, got);
      if (st != XTM_DPI_OK || got != prm) begin
        $display("FAILURE: the C model's parameters differ from the DUT's");
        return XTM_DPI_E_ARG;
      end
      if (out_dir != "") begin
        fd_model = $fopen({out_dir, "/trace_model.tsv"}, "w");
        fd_dut = $fopen({out_dir, "/trace_dut.tsv"}, "w");
        if (fd_model != 0) $fwrite(fd_model, "cycle\tkind\tfields\n");
        if (fd_dut != 0) $fwrite(fd_dut, "cycle\tkind\tfields\n");
      end
      return 0;
    endfunction

    function void log_txn(bit model, longint unsigned c, string s);
      if (model) begin
        hist_model.push_back($sformatf("  %0d\t%s", c, s));
        if (hist_model.size() > 16) void'(hist_model.pop_front());
        if (fd_model != 0) $fwrite(fd_model, "%0d\t%s\n", c, s);
      end else begin
        hist_dut.push_back($sformatf("  %0d\t%s", c, s));
        if (hist_dut.size() > 16) void'(hist_dut.pop_front());
        if (fd_dut != 0) $fwrite(fd_dut, "%0d\t%s\n", c, s);
      end
    endfunction

    // The report of tb/xtm_tb.cpp: FAILURE line, then with the first one the waves command
    // and the last transactions of both sides.
    function void mismatch(longint unsigned c, string field, longint unsigned exp,
                           longint unsigned act, string where);
      errors++;
      if (errors == 1) first_err_cycle = c;
      $display("FAILURE: co-sim mismatch at cycle %0d: %s expected 0x%0h dut 0x%0h (%s)", c, field,
               exp, act, where);
      if (errors == 1) begin
        $display("waves of the failing window: make sim-sv TEST=%s SEED=%0d CFG=%s WAVES=1 PLUSARGS=+trace_start=%0d",
                 test_name, seed, cfg_name, (c > 2000) ? c - 2000 : 0);
        $display("last transactions, model:");
        foreach (hist_model[i]) $display("%s", hist_model[i]);
        $display("last transactions, dut:");
        foreach (hist_dut[i]) $display("%s", hist_dut[i]);
      end
      if (errors >= max_errors) done = 1;
    endfunction

    function void fail(longint unsigned c, string msg);
      errors++;
      if (errors == 1) first_err_cycle = c;
      $display("FAILURE: %s at cycle %0d", msg, c);
      if (errors >= max_errors) done = 1;
    endfunction

    // ---- predictor: the value of a CSR read from the reference's spec-12 state at the
    // start of the cycle (before its step), for the registers that show state or counters.
    // kind: 0 none, 1 global state, 2 VOQ state, 3 PG state, 4 counter _LO (full: all 64
    // bits, for the CNT_HI shadow), 5 counter _HI or CNT_HI.
    function void predict(bit [15:0] a, output bit have, output bit [31:0] v, output bit [7:0] kind,
                          output int unsigned index, output longint unsigned full);
      xtm_dpi_global_state_t gs;
      xtm_dpi_voq_state_t vs;
      xtm_dpi_pg_state_t ps;
      longint unsigned c;
      int st;
      int unsigned k;
      have = 0;
      v = 0;
      kind = 0;
      index = 0;
      c = 0;
      st = XTM_DPI_E_ARG;
      if (a == xtm_reg_pkg::XTM_POOL_USED_OFFSET || a == xtm_reg_pkg::XTM_OCB_USED_OFFSET ||
          a == xtm_reg_pkg::XTM_HBM_USED_OFFSET || a == xtm_reg_pkg::XTM_DESC_FREE_OFFSET ||
          a == xtm_reg_pkg::XTM_LFSR_STATE_OFFSET || a == xtm_reg_pkg::XTM_LFSR_HEAD_STATE_OFFSET) begin
        st = xtm_dpi_global_state(ref_h, gs);
        kind = 1;
        case (a)
          xtm_reg_pkg::XTM_POOL_USED_OFFSET: v = gs.pool_used;
          xtm_reg_pkg::XTM_OCB_USED_OFFSET: v = gs.ocb_used;
          xtm_reg_pkg::XTM_HBM_USED_OFFSET: v = gs.hbm_used;
          xtm_reg_pkg::XTM_DESC_FREE_OFFSET: v = gs.desc_free;
          xtm_reg_pkg::XTM_LFSR_HEAD_STATE_OFFSET: v = gs.lfsr_head;
          default: v = gs.lfsr;
        endcase
      end else if (a == xtm_reg_pkg::XTM_Q_STATUS_OFFSET && voq_sel < NV) begin
        st = xtm_dpi_voq_state(ref_h, voq_sel, vs);
        kind = 2;
        index = voq_sel;
        v[xtm_reg_pkg::XTM_Q_STATUS_HBM_MODE_LSB] = vs.hbm_mode;
        v[xtm_reg_pkg::XTM_Q_STATUS_OCB_ONLY_LSB] = vs.ocb_only;
        v[xtm_reg_pkg::XTM_Q_STATUS_WD_STALLED_LSB] = vs.wd_stalled;
        v[xtm_reg_pkg::XTM_Q_STATUS_FLUSHING_LSB] = vs.flushing;
        v[xtm_reg_pkg::XTM_Q_STATUS_WD_STORM_POLLS_LSB+:8] = vs.wd_storm;
        v[xtm_reg_pkg::XTM_Q_STATUS_WD_CLEAN_POLLS_LSB+:8] = vs.wd_clean;
      end else if (a == xtm_reg_pkg::XTM_CNT_HI_OFFSET) begin
        st = XTM_DPI_OK;
        kind = 5;
        v = cnt_hi;
      end else if (a >= xtm_reg_pkg::XTM_ARR_PKTS_LO_OFFSET &&
                   a <= xtm_reg_pkg::XTM_ERR_NOT_READY_HI_OFFSET) begin
        k = (a - xtm_reg_pkg::XTM_ARR_PKTS_LO_OFFSET) / 8;
        kind = a[2] ? 5 : 4;
        index = k;
        st = XTM_DPI_OK;
        if (!a[2]) st = xtm_dpi_global_counter(ref_h, k, c);
      end else if (a >= xtm_reg_pkg::XTM_Q_OCC_CELLS_OFFSET &&
                   a <= xtm_reg_pkg::XTM_Q_DEFICIT_OFFSET && voq_sel < NV) begin
        st = xtm_dpi_voq_state(ref_h, voq_sel, vs);
        kind = 2;
        index = voq_sel;
        case (a)
          xtm_reg_pkg::XTM_Q_OCC_CELLS_OFFSET: v = vs.occ_cells;
          xtm_reg_pkg::XTM_Q_OCC_PKTS_OFFSET: v = vs.occ_pkts;
          xtm_reg_pkg::XTM_Q_HBM_CELLS_OFFSET: v = vs.hbm_cells;
          default: v = vs.deficit;
        endcase
      end else if (a >= xtm_reg_pkg::XTM_Q_ARR_PKTS_LO_OFFSET &&
                   a <= xtm_reg_pkg::XTM_Q_WD_RESTORE_HI_OFFSET && voq_sel < NV) begin
        k = (a - xtm_reg_pkg::XTM_Q_ARR_PKTS_LO_OFFSET) / 8;
        kind = a[2] ? 5 : 4;
        index = voq_sel;
        st = XTM_DPI_OK;
        if (!a[2]) st = xtm_dpi_voq_counter(ref_h, voq_sel, k, c);
      end else if (a >= xtm_reg_pkg::XTM_P_TX_PKTS_LO_OFFSET &&
                   a <= xtm_reg_pkg::XTM_P_PFC_RX_FRAMES_HI_OFFSET && port_sel < P) begin
        k = (a - xtm_reg_pkg::XTM_P_TX_PKTS_LO_OFFSET) / 8;
        kind = a[2] ? 5 : 4;
        index = port_sel;
        st = XTM_DPI_OK;
        if (!a[2]) st = xtm_dpi_port_counter(ref_h, port_sel, k, c);
      end else if ((a == xtm_reg_pkg::XTM_G_PG_CELLS_OFFSET ||
                    a == xtm_reg_pkg::XTM_G_HDRM_USED_OFFSET ||
                    a == xtm_reg_pkg::XTM_G_PAUSE_REMAIN_OFFSET) && pg_sel < P * 8) begin
        st = xtm_dpi_pg_state(ref_h, pg_sel / 8, pg_sel % 8, ps);
        kind = 3;
        index = pg_sel;
        case (a)
          xtm_reg_pkg::XTM_G_PG_CELLS_OFFSET: v = ps.pg_cells;
          xtm_reg_pkg::XTM_G_HDRM_USED_OFFSET: v = ps.hdrm_used;
          default: v = (ps.pause_remain > 64'hFFFF_FFFF) ? 32'hFFFF_FFFF : ps.pause_remain[31:0];
        endcase
      end else if (a >= xtm_reg_pkg::XTM_G_XOFF_SENT_LO_OFFSET &&
                   a <= xtm_reg_pkg::XTM_G_PAUSED_CYCLES_HI_OFFSET && pg_sel < P * 8) begin
        k = (a - xtm_reg_pkg::XTM_G_XOFF_SENT_LO_OFFSET) / 8;
        kind = a[2] ? 5 : 4;
        index = pg_sel;
        st = XTM_DPI_OK;
        if (!a[2]) st = xtm_dpi_pg_counter(ref_h, pg_sel / 8, pg_sel % 8, k, c);
      end
      full = c;
      if (kind == 4) begin
        v = c[31:0];
      end else if (kind == 5) begin
        v = cnt_hi;
      end
      have = kind != 0 && st == XTM_DPI_OK;
    endfunction

    // After the reference executed a CSR access: the window selects and the CNT_HI shadow
    // as they are from the next cycle (a rejected write changes nothing).
    function void track_csr(xtm_dpi_csr_req_t r, bit err, bit [7:0] kind, bit [15:0] a,
                            longint unsigned lo_counter);
      if (!err && r.write) begin
        if (a == xtm_reg_pkg::XTM_VOQ_SEL_OFFSET) voq_sel = r.wdata;
        if (a == xtm_reg_pkg::XTM_PORT_SEL_OFFSET) port_sel = r.wdata;
        if (a == xtm_reg_pkg::XTM_PG_SEL_OFFSET) pg_sel = r.wdata;
      end
      if (!err && !r.write && kind == 4) cnt_hi = lo_counter[63:32];
    endfunction

    // ---- analysis export of the input monitor: the inputs the DUT got in cycle t. Runs the
    // reference for that cycle; returns its outputs (the sequence's reactive senders use
    // them) and queues them for the comparison L cycles later.
    function void write_in(longint unsigned t, xtm_dpi_in_t in, xtm_dpi_vec_t vec,
                           xtm_dpi_quanta_t q, output xtm_sv_obs_t r);
      xtm_sv_csr_exp_t e;
      bit have;
      bit [31:0] pv;
      bit [7:0] kind;
      int unsigned idx;
      longint unsigned lo;
      int st;
      r = '0;
      have = 0;
      pv = 0;
      kind = 0;
      idx = 0;
      lo = 0;
      if (in.csr.valid && !in.csr.write) predict(in.csr.addr, have, pv, kind, idx, lo);
      st = xtm_dpi_step(ref_h, in, vec, q, r.out, r.deq, r.pfc_vec, r.pfc_quanta);
      if (st != XTM_DPI_OK) begin
        fail(t, $sformatf("DPI reference: xtm_dpi_step returned %s (%s)", xtm_dpi_status_name(st),
                          xtm_dpi_last_error()));
        return;
      end
      if (r.out.cycle != t) fail(t, $sformatf("DPI reference at cycle %0d, testbench at %0d",
                                             r.out.cycle, t));
      in_cycles++;
      if (in.csr.valid) begin
        track_csr(in.csr, r.out.csr_rsp.err, kind, in.csr.addr, lo);
        e.write = in.csr.write;
        e.addr = in.csr.addr;
        e.wdata = in.csr.wdata;
        e.err = r.out.csr_rsp.err;
        e.rdata = r.out.csr_rsp.rdata;
        e.predicted = have;
        e.pred = pv;
        e.pred_kind = kind;
        e.pred_index = idx;
        e.cycle = t;
        csr_q.push_back(e);
      end
      exp_q.push_back(r);
      if ((t & 64'hFFFF) == 0 && errors == 0) check_invariants(t);
    endfunction

    function void check_invariants(longint unsigned t);
      int st;
      st = xtm_dpi_check_invariants(ref_h);
      if (st != XTM_DPI_OK) fail(t, $sformatf("C model: %s", xtm_dpi_last_error()));  // "invariant broken: ..."
    endfunction

    // ---- analysis export of the output monitor: the DUT's outputs in cycle c, compared
    // with the reference's of logical cycle c - latency (idle before that).
    function void write_out(longint unsigned c, xtm_sv_obs_t d);
      xtm_sv_obs_t e;
      longint unsigned t;
      out_cycles++;
      if (c < latency) begin
        e = '0;
        t = c;  // before the first logical cycle's outputs: nothing may be valid
      end else begin
        if (exp_q.size() == 0) begin
          fail(c, "scoreboard: DUT outputs with no reference outputs queued");
          return;
        end
        e = exp_q.pop_front();
        t = c - latency;
      end
      compare(t, e, d);
    endfunction

    function void compare(longint unsigned t, xtm_sv_obs_t e, xtm_sv_obs_t d);
      string w;
      xtm_dpi_deq_rec_t er, dr;
      bit [15:0] eq, dq;
      // admission result
      if (d.out.enq_res.valid != e.out.enq_res.valid)
        mismatch(t, "enq_res.valid", e.out.enq_res.valid, d.out.enq_res.valid,
                 $sformatf("pkt %08h", e.out.enq_res.pkt_id));
      if (e.out.enq_res.valid) begin
        w = $sformatf("pkt %08h voq %0d", e.out.enq_res.pkt_id, e.out.enq_res.voq);
        if (d.out.enq_res.pkt_id != e.out.enq_res.pkt_id)
          mismatch(t, "enq_res.pkt_id", e.out.enq_res.pkt_id, d.out.enq_res.pkt_id, w);
        if (d.out.enq_res.voq != e.out.enq_res.voq)
          mismatch(t, "enq_res.voq", e.out.enq_res.voq, d.out.enq_res.voq, w);
        if (d.out.enq_res.reason != e.out.enq_res.reason)
          mismatch(t, "enq_res.reason", e.out.enq_res.reason, d.out.enq_res.reason, w);
        if (d.out.enq_res.marked != e.out.enq_res.marked)
          mismatch(t, "enq_res.marked", e.out.enq_res.marked, d.out.enq_res.marked, w);
        if (d.out.enq_res.hdrm != e.out.enq_res.hdrm)
          mismatch(t, "enq_res.hdrm", e.out.enq_res.hdrm, d.out.enq_res.hdrm, w);
        if (d.out.enq_res.hbm != e.out.enq_res.hbm)
          mismatch(t, "enq_res.hbm", e.out.enq_res.hbm, d.out.enq_res.hbm, w);
        log_txn(1, t, $sformatf("ENQ\t%08h\t%0d\t%0d\t%0d%0d%0d", e.out.enq_res.pkt_id,
                                e.out.enq_res.voq, e.out.enq_res.reason, e.out.enq_res.marked,
                                e.out.enq_res.hdrm, e.out.enq_res.hbm));
        log_txn(0, t, $sformatf("ENQ\t%08h\t%0d\t%0d\t%0d%0d%0d", d.out.enq_res.pkt_id,
                                d.out.enq_res.voq, d.out.enq_res.reason, d.out.enq_res.marked,
                                d.out.enq_res.hdrm, d.out.enq_res.hbm));
        packets_in++;
        drops[e.out.enq_res.reason]++;
      end
      if (d.out.flush.valid != e.out.flush.valid)
        mismatch(t, "flush.valid", e.out.flush.valid, d.out.flush.valid, "");
      if (e.out.flush.valid) begin
        w = $sformatf("voq %0d", e.out.flush.voq);
        if (d.out.flush.pkt_id != e.out.flush.pkt_id)
          mismatch(t, "flush.pkt_id", e.out.flush.pkt_id, d.out.flush.pkt_id, w);
        if (d.out.flush.voq != e.out.flush.voq)
          mismatch(t, "flush.voq", e.out.flush.voq, d.out.flush.voq, w);
        log_txn(1, t, $sformatf("FLUSH\t%08h\t%0d", e.out.flush.pkt_id, e.out.flush.voq));
        log_txn(0, t, $sformatf("FLUSH\t%08h\t%0d", d.out.flush.pkt_id, d.out.flush.voq));
        flushes++;
      end
      // per port: dequeue and PFC; the valid vectors first (the common idle case is cheap)
      if (d.out.deq_valid != e.out.deq_valid || e.out.deq_valid != 0) begin
        for (int unsigned p = 0; p < P; p++) begin
          if (d.out.deq_valid[p] != e.out.deq_valid[p])
            mismatch(t, "deq.valid", e.out.deq_valid[p], d.out.deq_valid[p], $sformatf("port %0d", p));
          if (e.out.deq_valid[p]) begin
            er = e.deq[p*XTM_DPI_DEQ_REC_W+:XTM_DPI_DEQ_REC_W];
            dr = d.deq[p*XTM_DPI_DEQ_REC_W+:XTM_DPI_DEQ_REC_W];
            w = $sformatf("port %0d voq %0d pkt %08h", p, er.voq, er.pkt_id);
            if (dr.pkt_id != er.pkt_id) mismatch(t, "deq.pkt_id", er.pkt_id, dr.pkt_id, w);
            if (dr.voq != er.voq) mismatch(t, "deq.voq", er.voq, dr.voq, w);
            if (dr.in_port != er.in_port) mismatch(t, "deq.in_port", er.in_port, dr.in_port, w);
            if (dr.len != er.len) mismatch(t, "deq.len", er.len, dr.len, w);
            if (dr.dscp != er.dscp) mismatch(t, "deq.dscp", er.dscp, dr.dscp, w);
            if (dr.ecn != er.ecn) mismatch(t, "deq.ecn", er.ecn, dr.ecn, w);
            if (dr.marked != er.marked) mismatch(t, "deq.marked", er.marked, dr.marked, w);
            if (dr.hbm != er.hbm) mismatch(t, "deq.hbm", er.hbm, dr.hbm, w);
            if (dr.sojourn != er.sojourn) mismatch(t, "deq.sojourn", er.sojourn, dr.sojourn, w);
            log_txn(1, t, $sformatf("DEQ\t%0d\t%08h\t%0d\t%0d\t%0d\t%0d", p, er.pkt_id, er.voq,
                                    er.len, er.ecn, er.sojourn));
            log_txn(0, t, $sformatf("DEQ\t%0d\t%08h\t%0d\t%0d\t%0d\t%0d", p, dr.pkt_id, dr.voq,
                                    dr.len, dr.ecn, dr.sojourn));
            packets_out++;
          end
        end
      end
      if (d.out.pfc_tx_valid != e.out.pfc_tx_valid || e.out.pfc_tx_valid != 0) begin
        for (int unsigned p = 0; p < P; p++) begin
          if (d.out.pfc_tx_valid[p] != e.out.pfc_tx_valid[p])
            mismatch(t, "pfc_tx.valid", e.out.pfc_tx_valid[p], d.out.pfc_tx_valid[p],
                     $sformatf("port %0d", p));
          if (e.out.pfc_tx_valid[p]) begin
            if (d.pfc_vec[8*p+:8] != e.pfc_vec[8*p+:8])
              mismatch(t, "pfc_tx.vec", e.pfc_vec[8*p+:8], d.pfc_vec[8*p+:8], $sformatf("port %0d", p));
            for (int i = 0; i < 8; i++) begin
              eq = e.pfc_quanta[16*(8*p+i)+:16];
              dq = d.pfc_quanta[16*(8*p+i)+:16];
              if (dq != eq) mismatch(t, "pfc_tx.quanta", eq, dq, $sformatf("port %0d prio %0d", p, i));
            end
            log_txn(1, t, $sformatf("PFC\t%0d\t%02h", p, e.pfc_vec[8*p+:8]));
            log_txn(0, t, $sformatf("PFC\t%0d\t%02h", p, d.pfc_vec[8*p+:8]));
            pfc_frames++;
          end
        end
      end
    endfunction

    // ---- analysis export of the APB monitor: a completed transfer (prdata, pslverr), in
    // order; compared with the reference's response and, for a state register, with the
    // reference's state.
    function void write_csr_rsp(longint unsigned c, bit [31:0] prdata, bit pslverr);
      xtm_sv_csr_exp_t e;
      string w;
      if (csr_q.size() == 0) begin
        fail(c, "scoreboard: an APB transfer completed that the reference never saw");
        return;
      end
      e = csr_q.pop_front();
      w = $sformatf("addr 0x%04h", e.addr);
      csr_checked++;
      if (!e.write && prdata != e.rdata) mismatch(e.cycle, "csr.rdata", e.rdata, prdata, w);
      if (pslverr != e.err) mismatch(e.cycle, "csr.err", e.err, pslverr, w);
      if (!e.write && e.predicted && !e.err) begin
        state_checked++;
        if (prdata != e.pred)
          mismatch(e.cycle, state_field(e.pred_kind), e.pred, prdata,
                   $sformatf("%s index %0d", w, e.pred_index));
      end
      log_txn(1, e.cycle, $sformatf("CSR\t%s\t%04h\t%08h\t%0d", e.write ? "W" : "R", e.addr,
                                    e.write ? e.wdata : e.rdata, e.err));
      log_txn(0, e.cycle, $sformatf("CSR\t%s\t%04h\t%08h\t%0d", e.write ? "W" : "R", e.addr,
                                    e.write ? e.wdata : prdata, pslverr));
    endfunction

    static function string state_field(bit [7:0] kind);
      case (kind)
        1: state_field = "state.global";
        2: state_field = "state.voq";
        3: state_field = "state.pg";
        4: state_field = "state.counter_lo";
        default: state_field = "state.counter_hi";
      endcase
    endfunction

    // End of test: every reference output compared, every transfer answered, invariants.
    function void check_phase(longint unsigned c);
      if (errors == 0 && exp_q.size() != 0)
        fail(c, $sformatf("scoreboard: %0d reference cycles never compared", exp_q.size()));
      if (errors == 0 && csr_q.size() != 0)
        fail(c, $sformatf("scoreboard: %0d CSR transfers never answered", csr_q.size()));
      if (errors == 0) check_invariants(c);
    endfunction

    function longint unsigned sum_marks();
      longint unsigned s, v;
      int st;
      s = 0;
      for (int unsigned q = 0; q < NV; q++) begin
        st = xtm_dpi_voq_counter(ref_h, q, XTM_VCNT_MARK_TAIL, v);
        s += v;
        st = xtm_dpi_voq_counter(ref_h, q, XTM_VCNT_MARK_HEAD, v);
        s += v;
        st = xtm_dpi_voq_counter(ref_h, q, XTM_VCNT_MARK_LAT, v);
        s += v;
      end
      sum_marks = s;
    endfunction

    // The summary of tb/xtm_tb.cpp (key: value lines).
    function void report_phase(longint unsigned cycles, real secs);
      string rn[13];
      rn = '{"accepted", "tail", "pool", "profile", "headroom", "buf_full", "qdisabled", "wd",
             "len_zero", "len_max", "bad_port", "bad_tc", "not_ready"};
      $display("---- summary (%s, %s, SystemVerilog + DPI)", test_name, cfg_name);
      $display("test: %s", test_name);
      $display("seed: %0d", seed);
      $display("cycles: %0d", cycles);
      $display("latency: %0d", latency);
      $display("packets_in: %0d", packets_in);
      $display("packets_out: %0d", packets_out);
      for (int r = 1; r <= 12; r++) $display("drops_%s: %0d", rn[r], drops[r]);
      $display("flushed: %0d", flushes);
      $display("ecn_marks: %0d", sum_marks());
      $display("pfc_frames: %0d", pfc_frames);
      $display("csr_transfers: %0d", csr_checked);
      $display("state_reads_checked: %0d", state_checked);
      $display("mismatches: %0d", errors);
      $display("cycles_per_s: %0d", (secs > 0.0) ? longint'(cycles / secs) : 0);
      if (out_dir != "")
        $display("traces: %s/trace_model.tsv %s/trace_dut.tsv", out_dir, out_dir);
    endfunction

    function void final_phase();
      int st;
      if (fd_model != 0) $fclose(fd_model);
      if (fd_dut != 0) $fclose(fd_dut);
      if (ref_h != null) st = xtm_dpi_destroy(ref_h);
      ref_h = null;
    endfunction
  endclass

endpackage
