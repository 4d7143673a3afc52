// SPDX-License-Identifier: Apache-2.0
//
// DCQCN lockstep co-simulation (SystemC), in the style of tb/xtm_tb.cpp: the Verilated RTL
// (dcqcn_top, instance `dut`) and the C model (libdcqcn) get the same inputs every cycle.
// The model computes logical cycle t when the DUT samples its inputs; the DUT drives the
// outputs of cycle t at t + L (docs/spec-dcqcn.md D2.2: rate stream and cnp_tx 3, pace 15,
// the APB completion of an access in cycle a at a + 16), and the testbench compares every
// output with the model's output of that logical cycle. The per-QP state (reaction point,
// pending records, byte sums, NP, pacer) and every counter are compared every +state_every
// cycles with the model's state of the same logical cycle, read from the RAM arrays and flop
// vectors through Verilator scopes (tb/dcqcn_public.vlt, class DcqcnState). The first
// mismatch prints
//   FAILURE: co-sim mismatch at cycle <n>: <field> expected 0x.. dut 0x.. (<qp>)
// (n is the logical cycle) and the last 16 transactions of both sides, then exits non-zero
// (+max_errors=N goes on).
//
// Plusargs: +test=<name> +seed=<n> +cycles=<n> +trace (FST) +trace_start=<cycle>
//           +state_every=<n> +max_errors=<n> +out=<dir> +eager +list +rtl_only
//           +debug_qp=<q> (print the model's state of q every cycle from +trace_start)
//           +cov_file=<file> (coverage builds), +verilator+... (Verilator's own)
// Numbers are decimal and whole (tools/lib/xtm_num: no 0x, no sign, no trailing text) and
// range-checked; an unknown, repeated or malformed plusarg, a +out directory that cannot
// be created or a trace that cannot be written is a FAILURE line and exit 2 (docs/cosim.md,
// DCQCN). The output directory is made with mkdir(2), never through a shell.

#include <systemc.h>
#include <verilated.h>
#include <verilated_syms.h>
#if VM_COVERAGE
#include <verilated_cov.h>  // coverage builds (tests/regress/regress.mk)
#endif
#include <sys/stat.h>
#include <verilated_fst_c.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "tb/dcqcn_state.h"
#include "tb/dcqcn_tests.h"
#include "tb/tb_common.h"

#include "Vdcqcn_top.h"

extern "C" {
#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.
}
#include "tools/lib/xtm_num.h"  // extern "C" inside

#ifndef DCQCN_TB_QPS
#define DCQCN_TB_QPS 64
#endif
#ifndef DCQCN_TB_SCAN
#define DCQCN_TB_SCAN 4
#endif
#ifndef DCQCN_TB_CFG
#define DCQCN_TB_CFG "dcqcn"
#endif

// the make argument that selects this build (64 QPs: none)
static std::string qps_arg() { return DCQCN_TB_QPS == 64 ? "" : fmt(" QPS=%u", DCQCN_TB_QPS); }

static const uint32_t kRing = 32;  // > every output latency

// One transaction of the traces: formatted only when written (no printf on the hot path).
struct DcqcnTxn {
  uint64_t cycle = 0;
  const char *kind = "";
  int n = 0;  // fields used
  uint64_t v[4] = {0, 0, 0, 0};
  const char *fmtc = "";  // per field: 'd' decimal, 'c' char, '4'/'8' hex of that width
};
static char *put_dec(char *p, uint64_t v) {
  static const char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char t[24];
  int n = 24;
  while (v >= 100) {
    uint64_t r = v % 100;
    v /= 100;
    t[--n] = kPairs[2 * r + 1];
    t[--n] = kPairs[2 * r];
  }
  if (v >= 10) {
    t[--n] = kPairs[2 * v + 1];
    t[--n] = kPairs[2 * v];
  } else {
    t[--n] = (char)('0' + v);
  }
  memcpy(p, t + n, (size_t)(24 - n));
  return p + (24 - n);
}
static char *put_hex(char *p, uint64_t v, int w) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = w - 1; i >= 0; i--) *p++ = kHex[(v >> (4 * i)) & 15];
  return p;
}
// "<cycle>\t<kind>\t<fields...>\n" into b; returns its length
static size_t format_txn(const DcqcnTxn &t, char *b) {
  char *p = put_dec(b, t.cycle);
  *p++ = '\t';
  for (const char *k = t.kind; *k != '\0'; k++) *p++ = *k;
  for (int i = 0; i < t.n; i++) {
    *p++ = '\t';
    char f = t.fmtc[i];
    if (f == 'c') {
      *p++ = (char)t.v[i];
    } else if (f == '4' || f == '8') {
      p = put_hex(p, t.v[i], f - '0');
    } else {
      p = put_dec(p, t.v[i]);
    }
  }
  *p++ = '\n';
  return (size_t)(p - b);
}
struct DcqcnHist {
  DcqcnTxn r[16];
  uint32_t n = 0;
  void push(const DcqcnTxn &t) { r[n++ % 16] = t; }
  void print() const {
    char b[160];
    for (uint32_t i = n > 16 ? n - 16 : 0; i < n; i++) {
      size_t len = format_txn(r[i % 16], b);
      printf("  %.*s", (int)len, b);
    }
  }
};
static const uint64_t kDrain = DCQCN_LAT_CSR + 2;  // idle cycles after the last input

SC_MODULE(DcqcnTb) {
  Vdcqcn_top *dut = nullptr;
  VerilatedFstC *tfp = nullptr;
  dcqcn_t *model = nullptr;
  DcqcnTest *test = nullptr;
  DcqcnState *rtl = nullptr;
  DcqcnTbOptions opt;
  uint32_t nqps = DCQCN_TB_QPS, nrate = DCQCN_TB_SCAN;
  bool rtl_only = false;

  uint64_t cycle = 0, errors = 0;
  bool done = false;
  DcqcnHist hist_dut, hist_model;
  FILE *trace_dut = nullptr, *trace_model = nullptr;
  // the trace lines are collected here and written 64 KB at a time (one fwrite per line cost
  // more than formatting it); flush_traces() writes the rest at the end
  static const size_t kTraceBuf = 1 << 16;
  std::vector<char> tbuf_model = std::vector<char>(kTraceBuf),
                    tbuf_dut = std::vector<char>(kTraceBuf);
  size_t tn_model = 0, tn_dut = 0;
  static void tput(FILE * f, std::vector<char> & b, size_t & n, const char *s, size_t len) {
    if (n + len > b.size()) {
      fwrite(b.data(), 1, n, f);
      n = 0;
    }
    memcpy(b.data() + n, s, len);
    n += len;
  }
  void flush_traces() {
    if (trace_model != nullptr) fwrite(tbuf_model.data(), 1, tn_model, trace_model);
    if (trace_dut != nullptr) fwrite(tbuf_dut.data(), 1, tn_dut, trace_dut);
    tn_model = tn_dut = 0;
  }
  std::chrono::steady_clock::time_point t0;
  // statistics for the summary
  uint64_t n_cnp_in = 0, n_tx = 0, n_ce = 0, n_cnp_out = 0, n_rate_upd = 0, n_csr = 0;
  uint64_t state_checks = 0;

  // the model's outputs of the last kRing logical cycles (compared L cycles later)
  std::vector<dcqcn_out_t> ring = std::vector<dcqcn_out_t>(kRing);
  std::vector<uint64_t> ring_tx_qp = std::vector<uint64_t>(kRing);
  // APB: 0 idle, 1 setup, 2 access phase until pready
  int apb = 0;
  DcqcnCsrOp apb_op{};
  uint64_t apb_a = 0;
  dcqcn_csr_rsp_t apb_rsp{};
  // state snapshots waiting for the DUT (stage 2 and the pacer's stage)
  std::deque<DcqcnSnapshot> snaps;

  // Clock cycles run in a method process (no thread context switch), kTimeBatch of them
  // per activation, paced by a timed notification instead of an sc_clock: one kernel event
  // per batch instead of a clock signal with two edges a cycle (the DUT's clk_i is driven
  // in one_cycle()).
  // The first activation is `start`, notified by sc_main once the wave file is open.
  sc_event start;
  SC_CTOR(DcqcnTb) {
    SC_METHOD(tick);
    sensitive << start;
    dont_initialize();
  }

  // Both sides' view of one transaction; the line is formatted once when they agree.
  void log2(const DcqcnTxn &m, const DcqcnTxn &d) {
    hist_model.push(m);
    hist_dut.push(d);
    char bm[160], bd[160];
    size_t lm = format_txn(m, bm);
    if (trace_model != nullptr) tput(trace_model, tbuf_model, tn_model, bm, lm);
    if (trace_dut == nullptr) return;
    bool same = m.n == d.n && memcmp(m.v, d.v, sizeof(m.v)) == 0;
    if (same) {
      tput(trace_dut, tbuf_dut, tn_dut, bm, lm);
    } else {
      tput(trace_dut, tbuf_dut, tn_dut, bd, format_txn(d, bd));
    }
  }
  static DcqcnTxn txn(uint64_t c, const char *kind, const char *f, int n, uint64_t a,
                      uint64_t b = 0, uint64_t x = 0, uint64_t y = 0) {
    DcqcnTxn t;
    t.cycle = c;
    t.kind = kind;
    t.fmtc = f;
    t.n = n;
    t.v[0] = a;
    t.v[1] = b;
    t.v[2] = x;
    t.v[3] = y;
    return t;
  }

  void mismatch(uint64_t c, const char *field, uint64_t exp, uint64_t act,
                const std::string &where) {
    errors++;
    printf("FAILURE: co-sim mismatch at cycle %" PRIu64 ": %s expected 0x%" PRIx64 " dut 0x%" PRIx64
           " (%s)\n",
           c, field, exp, act, where.c_str());
    if (errors == 1) {
      printf("waves of the failing window: make sim-dcqcn TEST=%s SEED=%" PRIu64
             "%s WAVES=1 PLUSARGS=+trace_start=%" PRIu64 "\n",
             opt.test.c_str(), opt.seed, qps_arg().c_str(), c > 2000 ? c - 2000 : 0);
      printf("last transactions, model:\n");
      hist_model.print();
      printf("last transactions, dut:\n");
      hist_dut.print();
    }
    if (errors >= opt.max_errors) done = true;
  }

  void drive(const dcqcn_in_t &in, bool psel, bool penable) {
    dut->cnp_valid_i = in.cnp.valid;
    dut->cnp_qp_i = in.cnp.qp;
    dut->tx_valid_i = in.tx.valid;
    dut->tx_qp_i = in.tx.qp;
    dut->tx_bytes_i = in.tx.bytes;
    dut->ce_valid_i = in.ce.valid;
    dut->ce_qp_i = in.ce.qp;
    dut->psel_i = psel;
    dut->penable_i = penable;
    dut->pwrite_i = apb_op.write;
    dut->paddr_i = apb_op.addr;
    dut->pwdata_i = apb_op.wdata;
  }

  // The DUT's registered outputs in clock cycle `cycle` against the model's of cycle - L.
  void compare_outputs() {
    if (cycle >= DCQCN_LAT_CNP_TX) {
      uint64_t c = cycle - DCQCN_LAT_CNP_TX;
      const dcqcn_out_t &o = ring[c % kRing];
      if (dut->cnp_tx_valid_o != o.cnp_tx.valid) {
        mismatch(c, "cnp_tx.valid", o.cnp_tx.valid, dut->cnp_tx_valid_o, "");
      } else if (o.cnp_tx.valid) {
        if (dut->cnp_tx_qp_o != o.cnp_tx.qp)
          mismatch(c, "cnp_tx.qp", o.cnp_tx.qp, dut->cnp_tx_qp_o, "");
        log2(txn(c, "CNP_TX", "d", 1, o.cnp_tx.qp), txn(c, "CNP_TX", "d", 1, dut->cnp_tx_qp_o));
        n_cnp_out++;
      }
    }
    if (cycle >= DCQCN_LAT_RATE) {
      uint64_t c = cycle - DCQCN_LAT_RATE;
      const dcqcn_out_t &o = ring[c % kRing];
      if (dut->n_rate_o != o.n_rate) {
        mismatch(c, "n_rate", o.n_rate, dut->n_rate_o, o.n_rate ? fmt("qp %u", o.rate[0].qp) : "");
      }
      for (uint32_t i = 0; i < o.n_rate && i < nrate; i++) {
        const dcqcn_rate_upd_t &r = o.rate[i];
        uint64_t dq = getb(dut->rate_qp_o, 16 * i, 16), drc = getb(dut->rate_rc_o, 20 * i, 20);
        uint64_t drt = getb(dut->rate_rt_o, 20 * i, 20), da = getb(dut->rate_alpha_o, 10 * i, 10);
        if (dq != r.qp || drc != r.rc || drt != r.rt || da != r.alpha) {
          std::string w = fmt("qp %u, entry %u", r.qp, i);
          if (dq != r.qp) mismatch(c, "rate.qp", r.qp, dq, w);
          if (drc != r.rc) mismatch(c, "rate.rc", r.rc, drc, w);
          if (drt != r.rt) mismatch(c, "rate.rt", r.rt, drt, w);
          if (da != r.alpha) mismatch(c, "rate.alpha", r.alpha, da, w);
        }
        log2(txn(c, "RATE", "dddd", 4, r.qp, r.rc, r.rt, r.alpha),
             txn(c, "RATE", "dddd", 4, dq, drc, drt, da));
        n_rate_upd++;
      }
    }
    if (cycle >= DCQCN_LAT_PACE) {
      uint64_t c = cycle - DCQCN_LAT_PACE;
      const dcqcn_out_t &o = ring[c % kRing];
      if (dut->pace_valid_o != o.pace.valid) {
        mismatch(c, "pace.valid", o.pace.valid, dut->pace_valid_o,
                 fmt("qp %" PRIu64, ring_tx_qp[c % kRing]));
      } else if (o.pace.valid) {
        if (dut->pace_qp_o != o.pace.qp)
          mismatch(c, "pace.qp", o.pace.qp, dut->pace_qp_o, fmt("qp %u", o.pace.qp));
        if (dut->pace_next_send_o != o.pace.next_send)
          mismatch(c, "pace.next_send", o.pace.next_send, dut->pace_next_send_o,
                   fmt("qp %u", o.pace.qp));
        log2(txn(c, "PACE", "dd", 2, o.pace.qp, o.pace.next_send),
             txn(c, "PACE", "dd", 2, dut->pace_qp_o, dut->pace_next_send_o));
      }
    }
    // APB: pready exactly at a + DCQCN_LAT_CSR, with the model's response of cycle a
    if (apb == 2 && cycle > apb_a) {
      bool due = cycle == apb_a + DCQCN_LAT_CSR;
      if (dut->pready_o != due) {
        mismatch(apb_a, "csr.pready", due, dut->pready_o,
                 fmt("addr 0x%04x, cycle %" PRIu64, apb_op.addr, cycle));
        apb = 0;
      } else if (due) {
        std::string w = fmt("addr 0x%04x", apb_op.addr);
        if (!apb_op.write && dut->prdata_o != apb_rsp.rdata)
          mismatch(apb_a, "csr.rdata", apb_rsp.rdata, dut->prdata_o, w);
        if (dut->pslverr_o != apb_rsp.err)
          mismatch(apb_a, "csr.err", apb_rsp.err, dut->pslverr_o, w);
        uint64_t rw = apb_op.write ? 'W' : 'R';
        log2(txn(apb_a, "CSR", "c48d", 4, rw, apb_op.addr,
                 apb_op.write ? apb_op.wdata : apb_rsp.rdata, apb_rsp.err),
             txn(apb_a, "CSR", "c48d", 4, rw, apb_op.addr,
                 apb_op.write ? apb_op.wdata : dut->prdata_o, dut->pslverr_o));
        n_csr++;
        apb = 0;
      }
    } else if (apb != 2 && dut->pready_o) {
      mismatch(cycle, "csr.pready", 0, 1, "no access in flight");
    }
  }

  void compare_state_due() {
    // after the clock edge of cycle `cycle`: stage 2 of cycle - 2, the pacer of cycle - 14
    for (DcqcnSnapshot &s : snaps) {
      if (s.main_done || cycle < s.t + 2) continue;
      std::string f, w;
      uint64_t e = 0, a = 0;
      if (!rtl->compare_main(s, &f, &e, &a, &w)) mismatch(s.t, f.c_str(), e, a, w);
      s.main_done = true;
      state_checks++;
    }
    while (!snaps.empty() && cycle >= snaps.front().t + DCQCN_LAT_PACE - 1) {
      std::string f, w;
      uint64_t e = 0, a = 0;
      if (!rtl->compare_pacer(snaps.front(), &f, &e, &a, &w))
        mismatch(snaps.front().t, f.c_str(), e, a, w);
      snaps.pop_front();
    }
  }

  // Cycles per activation: SystemC time still adds up to 1 ns per cycle, advanced by one
  // timed notification per batch instead of one per cycle (this method is the only process
  // and nothing reads sc_time_stamp(); the waves are stamped with the cycle). Each
  // notification cost the kernel several hundred instructions a cycle.
  static constexpr unsigned kTimeBatch = 256;
  bool started = false;
  uint64_t end = 0;
  void tick() {
    if (!started) {
      reset();
      started = true;
    }
    unsigned n = 0;
    while (n < kTimeBatch && !(done || cycle >= end)) {
      one_cycle();
      n++;
    }
    if (done || cycle >= end) {
      sc_stop();
    } else {
      next_trigger(n, SC_NS);
    }
  }

  void reset() {
    t0 = std::chrono::steady_clock::now();
    dut->clk_i = 0;
    dut->rst_ni = 1;
    dut->eval();
    dut->rst_ni = 0;
    dut->eval();
    for (int i = 0; i < 2; i++) {
      dut->clk_i = 1;
      dut->eval();
      dut->clk_i = 0;
      dut->eval();
    }
    dut->rst_ni = 1;
    dut->eval();
    end = opt.cycles + kDrain;
  }

  void one_cycle() {
    dcqcn_in_t in;
    dcqcn_out_t out;
    {
      bool inputs = cycle < opt.cycles;
      memset(&in, 0, sizeof(in));
      if (inputs) test->stimulus(cycle, model, in);
      bool psel = false, penable = false, access = false;
      if (apb == 2 && rtl_only && cycle > apb_a + DCQCN_LAT_CSR) apb = 0;
      if (apb == 1) {
        psel = penable = access = true;
        apb = 2;
        apb_a = cycle;
      } else if (apb == 2) {
        psel = penable = true;
      } else if (inputs && !test->csr.empty()) {
        apb_op = test->csr.front();
        test->csr.pop_front();
        psel = true;
        apb = 1;
      }
      if (access) in.csr = (dcqcn_csr_req_t){true, apb_op.write, apb_op.addr, apb_op.wdata};
      drive(in, psel, penable);
      dut->clk_i = 0;
      dut->eval();
      // ps: one cycle is 1 ns, so the time axis in ns is the cycle of the mismatch report
      if (tfp != nullptr && cycle >= opt.trace_start) tfp->dump(1000 * cycle);
      if (opt.debug_qp >= 0 && cycle >= opt.trace_start) {
        dcqcn_qp_state_t st;
        dcqcn_qp_state(model, (uint32_t)opt.debug_qp, &st);
        printf("[debug] cycle %" PRIu64
               " qp %d: active %d rc %u rt %u alpha %u T %u BC %u "
               "bytes %u due %" PRIu64 "/%" PRIu64 "/%" PRIu64 " pend %d%d%d/%u\n",
               cycle, opt.debug_qp, st.active, st.rc, st.rt, st.alpha, st.stage_timer,
               st.stage_byte, st.byte_count, st.alpha_due, st.dec_due, st.inc_due, st.init_pend,
               st.pend_cnp, st.pend_cnp_more, st.pend_bytes);
      }
      if (!rtl_only) {
        compare_outputs();
        dcqcn_step(model, &in, &out);
        ring[cycle % kRing] = out;
        ring_tx_qp[cycle % kRing] = in.tx.qp;
        if (access) apb_rsp = out.csr_rsp;
        if (access && !apb_op.write) test->csr_result(cycle, apb_op, out.csr_rsp.rdata);
        if (in.cnp.valid) {
          DcqcnTxn t = txn(cycle, "CNP_RX", "d", 1, in.cnp.qp);
          log2(t, t);
          n_cnp_in++;
        }
        if (in.tx.valid) n_tx++;
        if (in.ce.valid) n_ce++;
        if (inputs) test->observe(cycle, in, out);
        bool last = cycle + 1 == opt.cycles;
        if (rtl != nullptr && ((opt.state_every != 0 && cycle % opt.state_every == 0) || last)) {
          if (cycle >= dcqcn_scan_period(model)) snaps.push_back(rtl->snapshot(model, cycle));
        }
      }
      dut->clk_i = 1;
      dut->eval();
      if (tfp != nullptr && cycle >= opt.trace_start) tfp->dump(1000 * cycle + 500);
      if (dut->contextp()->gotError()) {
        printf("FAILURE: RTL assertion failed at cycle %" PRIu64 " (message above)\n", cycle);
        errors++;
        done = true;
      }
      if (!rtl_only && rtl != nullptr) compare_state_due();
      if (rtl_only && apb == 2 && dut->pready_o) apb = 0;  // the access completed, unchecked
      cycle++;
    }
  }
};

// ------------------------------------------------------------------ command line
// The plusargs of this testbench (the strict counterpart of tb_common.h's plusargs_common):
// every argument must be one of these, each at most once; a flag takes no value, a value
// plusarg needs "=<value>". Numbers through xtm_num_u64 (decimal, whole string, in range).
static const uint64_t kMaxCycles = 1000000000000000ull;  // 10^15: 2 x cycle fits the FST time
static const TbArg kArgs[] = {
    {"test", 's', 0, 0},
    {"seed", 'n', 0, UINT64_MAX},
    {"cycles", 'n', 1, kMaxCycles},
    {"trace", 'f', 0, 0},
    {"trace_start", 'n', 0, kMaxCycles},
    {"state_every", 'n', 0, kMaxCycles},
    {"max_errors", 'n', 1, UINT64_MAX},
    {"out", 's', 0, 0},
    {"eager", 'f', 0, 0},
    {"list", 'f', 0, 0},
    {"rtl_only", 'f', 0, 0},
    {"debug_qp", 'n', 0, DCQCN_TB_QPS - 1},
    {"cov_file", 's', 0, 0},
};

// The value of a plusarg tb_check_plusargs has accepted.
static uint64_t num_arg(int argc, char **argv, const char *name, uint64_t dflt) {
  std::string v;
  uint64_t x = dflt;
  if (plusarg(argc, argv, name, &v) &&
      xtm_num_u64(name, v.c_str(), 0, UINT64_MAX, &x, nullptr) != kXtmNumOk) {
    x = dflt;  // not reached: checked before
  }
  return x;
}

// mkdir -p without a shell: every prefix of `path` that does not exist is created.
static bool make_dirs(const std::string &path, std::string *err) {
  if (path.empty()) {
    *err = "empty directory name";
    return false;
  }
  for (size_t i = 1; i <= path.size(); i++) {
    if (i < path.size() && path[i] != '/') continue;
    std::string pre = path.substr(0, i);
    if (mkdir(pre.c_str(), 0777) != 0 && errno != EEXIST) {
      *err = fmt("cannot create directory %s: %s", pre.c_str(), strerror(errno));
      return false;
    }
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *err = fmt("%s is not a directory", path.c_str());
    return false;
  }
  return true;
}

int sc_main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  DcqcnTbOptions opt;
  std::string v;
  std::string why;
  if (!tb_check_plusargs(argc, argv, kArgs, sizeof(kArgs) / sizeof(kArgs[0]), &why)) {
    printf("FAILURE: bad command line: %s\nTEST FAILED CHECKS\n", why.c_str());
    return 2;
  }
  if (plusarg(argc, argv, "list", nullptr)) {
    dcqcn_list_tests();
    return 0;
  }
  if (plusarg(argc, argv, "test", &v)) opt.test = v;
  opt.seed = num_arg(argc, argv, "seed", opt.seed);
  opt.cycles = num_arg(argc, argv, "cycles", opt.cycles);
  opt.trace = plusarg(argc, argv, "trace", nullptr);
  opt.trace_start = num_arg(argc, argv, "trace_start", opt.trace_start);
  opt.state_every = num_arg(argc, argv, "state_every", opt.state_every);
  opt.max_errors = num_arg(argc, argv, "max_errors", opt.max_errors);
  if (plusarg(argc, argv, "out", &v)) opt.out = v;
  opt.eager = plusarg(argc, argv, "eager", nullptr);
#ifdef DCQCN_TB_NETLIST
  opt.state_every = 0;  // netlist (make gls): every output every cycle, no internal state
  printf(
      "netlist: %s (internal-state comparison off); rerun: make gls-run BLK=dcqcn TEST=%s "
      "SEED=%" PRIu64 "\n",
      DCQCN_TB_NETLIST, opt.test.c_str(), opt.seed);
#endif
  bool rtl_only = plusarg(argc, argv, "rtl_only", nullptr);
  if (plusarg(argc, argv, "debug_qp", &v)) {
    opt.debug_qp = (int)num_arg(argc, argv, "debug_qp", 0);
  }
  DcqcnTest *test = dcqcn_make_test(opt.test, opt.seed, DCQCN_TB_QPS);
  if (test == nullptr) {
    char q[80];
    xtm_num_quote(q, sizeof(q), opt.test.c_str());
    printf("FAILURE: unknown test '%s'; +list shows the tests\nTEST FAILED CHECKS\n", q);
    return 2;
  }
  printf("seed: %" PRIu64 "\n", opt.seed);
  printf("reproduce: make sim-dcqcn TEST=%s SEED=%" PRIu64 "%s\n", opt.test.c_str(), opt.seed,
         qps_arg().c_str());

  Verilated::commandArgs(argc, argv);
  auto *ctx = new VerilatedContext;
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);
  ctx->fatalOnError(false);
  Vdcqcn_top *dut = new Vdcqcn_top{ctx, "dut"};

  // the C model with the DUT's parameters (STYLE 35)
  dcqcn_params_t prm;
  dcqcn_params_default(&prm);
  prm.num_qps = DCQCN_TB_QPS;
  prm.scan_width = DCQCN_TB_SCAN;
  dcqcn_t *model = nullptr;
  if (dcqcn_create(&prm, &model) != kDcqcnOk) {
    printf("FAILURE: cannot create the C model\nTEST FAILED CHECKS\n");
    return 2;
  }
  dcqcn_set_eager(model, opt.eager);
  // the DUT's HW_PARAMS must match the model's parameters: read first
  test->csr.push_front({false, DCQCN_HW_PARAMS_REG_OFFSET, 0});
  if (opt.cycles == 0) opt.cycles = test->default_cycles();
#ifdef DCQCN_TB_NETLIST
  DcqcnState *rtl = nullptr;  // a synthesized netlist has no internal names
#else
  DcqcnState *rtl = DcqcnState::find(ctx, prm, &why);
  if (rtl == nullptr) {
    printf("FAILURE: cannot find the DUT's state: %s\nTEST FAILED CHECKS\n", why.c_str());
    return 2;
  }
#endif

  DcqcnTb tb("tb");
  tb.dut = dut;
  tb.model = model;
  tb.test = test;
  tb.rtl = rtl;
  tb.opt = opt;
  tb.rtl_only = rtl_only;
  std::string dir = opt.out.empty()
                        ? fmt("sim/out/%s-%s.%" PRIu64, DCQCN_TB_CFG, opt.test.c_str(), opt.seed)
                        : opt.out;
  if (!make_dirs(dir, &why)) {
    printf("FAILURE: +out: %s\nTEST FAILED CHECKS\n", why.c_str());
    return 2;
  }
  tb.trace_dut = fopen((dir + "/trace_dut.tsv").c_str(), "w");
  tb.trace_model = fopen((dir + "/trace_model.tsv").c_str(), "w");
  if (tb.trace_dut == nullptr || tb.trace_model == nullptr) {
    printf("FAILURE: cannot write the traces in %s: %s\nTEST FAILED CHECKS\n", dir.c_str(),
           strerror(errno));
    return 2;
  }
  fprintf(tb.trace_dut, "cycle\tkind\tfields\n");
  fprintf(tb.trace_model, "cycle\tkind\tfields\n");

  sc_start(SC_ZERO_TIME);
  if (opt.trace) {
    ctx->traceEverOn(true);
    tb.tfp = new VerilatedFstC;
    dut->trace(tb.tfp, 99);
    tb.tfp->open((dir + "/waves.fst").c_str());
    if (!tb.tfp->isOpen()) {
      printf("FAILURE: cannot write %s/waves.fst\nTEST FAILED CHECKS\n", dir.c_str());
      return 2;
    }
  }
  tb.start.notify(SC_ZERO_TIME);
  sc_start();

  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - tb.t0).count();
  if (tb.tfp != nullptr) tb.tfp->close();
  bool test_ok = rtl_only || tb.errors != 0 || test->final_check(model, &why);
  if (!test_ok) printf("FAILURE: %s: %s\n", opt.test.c_str(), why.c_str());
  auto g = [&](dcqcn_gcnt_t k) { return (unsigned long long)dcqcn_counter(model, k); };
  printf("---- summary (dcqcn %s, %u QPs, U = %u)\n", opt.test.c_str(), prm.num_qps,
         prm.scan_width);
  printf("test: %s\nseed: %" PRIu64 "\ncycles: %" PRIu64 "\n", opt.test.c_str(), opt.seed,
         tb.cycle);
  tb_print_stamp(DCQCN_VERSION_VALUE, fmt("dcqcn (%u QPs, U = %u)", prm.num_qps, prm.scan_width));
  printf("qps: %u\ncnp_rx: %llu\ncnp_first: %llu\ncuts: %llu\n", prm.num_qps, g(kDcqcnGcntCnpRx),
         g(kDcqcnGcntCnpFirst), g(kDcqcnGcntCuts));
  printf("inc_fr: %llu\ninc_ai: %llu\ninc_hai: %llu\ninc_by_timer: %llu\ninc_by_bytes: %llu\n",
         g(kDcqcnGcntIncFr), g(kDcqcnGcntIncAi), g(kDcqcnGcntIncHai), g(kDcqcnGcntIncByTimer),
         g(kDcqcnGcntIncByBytes));
  printf("tx_frames: %" PRIu64
         "\npace_early: %llu\nce_rx: %llu\ncnp_tx: %llu\nce_coalesced: %llu\n",
         tb.n_tx, g(kDcqcnGcntPaceEarly), g(kDcqcnGcntCeRx), g(kDcqcnGcntCnpTx),
         g(kDcqcnGcntCeCoalesced));
  printf("bad_qp: %llu\nrate_updates: %" PRIu64 "\ncsr_accesses: %" PRIu64
         "\nstate_checks: %" PRIu64 "\n",
         g(kDcqcnGcntBadQp), tb.n_rate_upd, tb.n_csr, tb.state_checks);
  printf("mismatches: %" PRIu64 "\n", tb.errors);
  printf("cycles_per_s: %.0f\n", secs > 0 ? tb.cycle / secs : 0.0);
  printf("traces: %s/trace_model.tsv %s/trace_dut.tsv\n", dir.c_str(), dir.c_str());
  if (opt.trace) {
    printf("waves: %s/waves.fst\ngtkwave: gtkwave %s/waves.fst sim/waves/dcqcn.gtkw\n", dir.c_str(),
           dir.c_str());
  } else {
    printf("waves: rerun with WAVES=1 (make sim-dcqcn TEST=%s SEED=%" PRIu64 " WAVES=1)\n",
           opt.test.c_str(), opt.seed);
  }
#if VM_COVERAGE  // coverage builds (tests/regress/regress.mk): +cov_file=<file>
  if (!plusarg(argc, argv, "cov_file", &v)) v = dir + "/coverage.dat";
  ctx->coveragep()->write(v.c_str());
#endif
  // a trace that lost lines (full disk, I/O error) fails the run: no exit 0 after lost output
  bool io_ok = true;
  tb.flush_traces();
  for (FILE *f : {tb.trace_model, tb.trace_dut}) {
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) io_ok = false;
  }
  if (!io_ok) printf("FAILURE: writing the traces in %s failed\n", dir.c_str());
  bool ok = tb.errors == 0 && test_ok && io_ok;
  printf("%s\n", ok ? "TEST PASSED CHECKS" : "TEST FAILED CHECKS");
  dut->final();
  delete dut;
  delete test;
  delete rtl;
  dcqcn_destroy(model);
  return ok ? 0 : 1;
}
