// SPDX-License-Identifier: Apache-2.0
//
// DCQCN lockstep co-simulation (SystemC), in the style of tb/xtm_tb.cpp: the Verilated RTL
// (dcqcn_top, instance `dut`) and the C model (libdcqcn) get the same inputs every cycle;
// every output (CNP to send, the rate-update stream, the pacer answer, the CSR response) is
// compared every cycle, and the per-QP state (rates, alpha, flags, stages, byte count, the
// three deadlines, pacer, NP) and all counters every +state_every cycles through
// `verilator public_flat_rd` signals. The first mismatch prints
//   FAILURE: co-sim mismatch at cycle <n>: <field> expected 0x.. dut 0x.. (<qp>)
// and the last 16 transactions of both sides, then exits non-zero (+max_errors=N goes on).
//
// Plusargs: +test=<name> +seed=<n> +cycles=<n> +trace (FST) +trace_start=<cycle>
//           +state_every=<n> +max_errors=<n> +out=<dir> +eager +list
//           +debug_qp=<q> (print the model's state of q every cycle from +trace_start)

#include <systemc.h>
#include <verilated.h>
#if VM_COVERAGE
#include <verilated_cov.h>  // coverage builds (tests/regress/regress.mk)
#endif
#include <verilated_fst_c.h>

#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>

#include "Vdcqcn_top.h"
#ifndef DCQCN_TB_NETLIST  // make gls: a synthesized netlist has no internal names
#include "Vdcqcn_top___024root.h"
#endif
#include "tb/dcqcn_tests.h"
#include "tb/tb_common.h"

extern "C" {
#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.
}

#ifndef DCQCN_TB_QPS
#define DCQCN_TB_QPS 64
#endif
#ifndef DCQCN_TB_SCAN
#define DCQCN_TB_SCAN 4
#endif

// dcqcn_pkg::qp_state_t, MSB first (rtl/dcqcn/dcqcn_pkg.sv): LSB and width of each field.
namespace QpWord {
const int kBits = 412;
struct F { const char *name; int lsb, w; };
const F kActive{"active", 411, 1}, kCnpAlpha{"cnp_alpha", 410, 1}, kCnpDec{"cnp_dec", 409, 1},
    kRc{"rc", 389, 20}, kRt{"rt", 369, 20}, kAlpha{"alpha", 359, 10},
    kStageT{"stage_t", 351, 8}, kStageBc{"stage_bc", 343, 8}, kByteCount{"byte_count", 321, 22},
    kDueAlpha{"due_alpha", 257, 64}, kDueDec{"due_dec", 193, 64}, kDueInc{"due_inc", 129, 64},
    kPace{"pace_q8", 65, 64}, kNpSent{"np_sent", 64, 1}, kNpLast{"np_last", 0, 64};
}  // namespace QpWord

SC_MODULE(DcqcnTb) {
  sc_in<bool> clk;

  Vdcqcn_top *dut = nullptr;
  VerilatedFstC *tfp = nullptr;
  dcqcn_t *model = nullptr;
  DcqcnTest *test = nullptr;
  DcqcnTbOptions opt;
  uint32_t nqps = DCQCN_TB_QPS, nrate = DCQCN_TB_SCAN + 2;

  uint64_t cycle = 0, errors = 0;
  bool done = false;
  std::deque<Txn> hist_dut, hist_model;
  FILE *trace_dut = nullptr, *trace_model = nullptr;
  std::chrono::steady_clock::time_point t0;
  // statistics for the summary
  uint64_t n_cnp_in = 0, n_tx = 0, n_ce = 0, n_cnp_out = 0, n_rate_upd = 0, n_csr = 0;
  uint64_t state_checks = 0;

  bool apb_setup = false;
  DcqcnCsrOp apb_op{};

  SC_CTOR(DcqcnTb) {
    SC_THREAD(run);
    sensitive << clk.pos();
  }

  void log_txn(FILE *f, std::deque<Txn> &h, const std::string &s) {
    push_hist(h, cycle, s);
    if (f != nullptr) fprintf(f, "%" PRIu64 "\t%s\n", cycle, s.c_str());
  }

  void mismatch(const char *field, uint64_t exp, uint64_t act, const std::string &where) {
    errors++;
    printf("FAILURE: co-sim mismatch at cycle %" PRIu64 ": %s expected 0x%" PRIx64
           " dut 0x%" PRIx64 " (%s)\n",
           cycle, field, exp, act, where.c_str());
    if (errors == 1) {
      printf("waves of the failing window: make sim-dcqcn TEST=%s SEED=%" PRIu64
             " WAVES=1 PLUSARGS=+trace_start=%" PRIu64 "\n",
             opt.test.c_str(), opt.seed, cycle > 2000 ? cycle - 2000 : 0);
      printf("last transactions, model:\n");
      for (auto &t : hist_model) printf("  %" PRIu64 "\t%s\n", t.cycle, t.text.c_str());
      printf("last transactions, dut:\n");
      for (auto &t : hist_dut) printf("  %" PRIu64 "\t%s\n", t.cycle, t.text.c_str());
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

  void compare(const dcqcn_in_t &in, const dcqcn_out_t &o, bool access) {
    // inputs, for the transaction history
    if (in.cnp.valid) {
      std::string s = fmt("CNP_RX\t%u", in.cnp.qp);
      log_txn(trace_model, hist_model, s);
      log_txn(trace_dut, hist_dut, s);
      n_cnp_in++;
    }
    if (in.tx.valid) n_tx++;
    if (in.ce.valid) n_ce++;
    // CNP to send
    if (dut->cnp_tx_valid_o != o.cnp_tx.valid) {
      mismatch("cnp_tx.valid", o.cnp_tx.valid, dut->cnp_tx_valid_o, fmt("qp %u", in.ce.qp));
    } else if (o.cnp_tx.valid) {
      if (dut->cnp_tx_qp_o != o.cnp_tx.qp) mismatch("cnp_tx.qp", o.cnp_tx.qp, dut->cnp_tx_qp_o, "");
      log_txn(trace_model, hist_model, fmt("CNP_TX\t%u", o.cnp_tx.qp));
      log_txn(trace_dut, hist_dut, fmt("CNP_TX\t%u", dut->cnp_tx_qp_o));
      n_cnp_out++;
    }
    // rate-update stream (D7)
    if (dut->n_rate_o != o.n_rate) {
      mismatch("n_rate", o.n_rate, dut->n_rate_o, o.n_rate ? fmt("qp %u", o.rate[0].qp) : "");
    }
    for (uint32_t i = 0; i < o.n_rate && i < nrate; i++) {
      const dcqcn_rate_upd_t &r = o.rate[i];
      uint64_t dq = getb(dut->rate_qp_o, 16 * i, 16), drc = getb(dut->rate_rc_o, 20 * i, 20);
      uint64_t drt = getb(dut->rate_rt_o, 20 * i, 20), da = getb(dut->rate_alpha_o, 10 * i, 10);
      std::string w = fmt("qp %u, entry %u", r.qp, i);
      if (dq != r.qp) mismatch("rate.qp", r.qp, dq, w);
      if (drc != r.rc) mismatch("rate.rc", r.rc, drc, w);
      if (drt != r.rt) mismatch("rate.rt", r.rt, drt, w);
      if (da != r.alpha) mismatch("rate.alpha", r.alpha, da, w);
      log_txn(trace_model, hist_model, fmt("RATE\t%u\t%u\t%u\t%u", r.qp, r.rc, r.rt, r.alpha));
      log_txn(trace_dut, hist_dut,
              fmt("RATE\t%u\t%u\t%u\t%u", (unsigned)dq, (unsigned)drc, (unsigned)drt, (unsigned)da));
      n_rate_upd++;
    }
    // pacer
    if (dut->pace_valid_o != o.pace.valid) {
      mismatch("pace.valid", o.pace.valid, dut->pace_valid_o, fmt("qp %u", in.tx.qp));
    } else if (o.pace.valid) {
      std::string w = fmt("qp %u", o.pace.qp);
      if (dut->pace_qp_o != o.pace.qp) mismatch("pace.qp", o.pace.qp, dut->pace_qp_o, w);
      if (dut->pace_next_send_o != o.pace.next_send)
        mismatch("pace.next_send", o.pace.next_send, dut->pace_next_send_o, w);
      log_txn(trace_model, hist_model, fmt("PACE\t%u\t%" PRIu64, o.pace.qp, o.pace.next_send));
      log_txn(trace_dut, hist_dut,
              fmt("PACE\t%u\t%" PRIu64, dut->pace_qp_o, (uint64_t)dut->pace_next_send_o));
    }
    // CSR response
    if (access) {
      std::string w = fmt("addr 0x%04x", apb_op.addr);
      if (!apb_op.write && dut->prdata_o != o.csr_rsp.rdata)
        mismatch("csr.rdata", o.csr_rsp.rdata, dut->prdata_o, w);
      if (dut->pslverr_o != o.csr_rsp.err) mismatch("csr.err", o.csr_rsp.err, dut->pslverr_o, w);
      log_txn(trace_model, hist_model,
              fmt("CSR\t%c\t%04x\t%08x\t%d", apb_op.write ? 'W' : 'R', apb_op.addr,
                  apb_op.write ? apb_op.wdata : o.csr_rsp.rdata, o.csr_rsp.err));
      log_txn(trace_dut, hist_dut,
              fmt("CSR\t%c\t%04x\t%08x\t%d", apb_op.write ? 'W' : 'R', apb_op.addr,
                  apb_op.write ? apb_op.wdata : dut->prdata_o, dut->pslverr_o));
      n_csr++;
    }
  }

  // Per-QP state and counters, after the clock edge (the model's S(cycle + 1)).
  void compare_state() {
#ifndef DCQCN_TB_NETLIST
    auto *r = dut->rootp;
    const auto &qw = r->dcqcn_top__DOT__u_core__DOT__qp_q;
    state_checks++;
    for (uint32_t q = 0; q < nqps && !done; q++) {
      dcqcn_qp_state_t s;
      dcqcn_qp_state(model, q, &s);
      int b = q * QpWord::kBits;
      std::string w = fmt("qp %u", q);
      struct { const QpWord::F &f; uint64_t e; } f[] = {
          {QpWord::kActive, s.active},       {QpWord::kCnpAlpha, s.cnp_alpha},
          {QpWord::kCnpDec, s.cnp_dec},      {QpWord::kRc, s.rc},
          {QpWord::kRt, s.rt},               {QpWord::kAlpha, s.alpha},
          {QpWord::kStageT, s.stage_timer},  {QpWord::kStageBc, s.stage_byte},
          {QpWord::kByteCount, s.byte_count}, {QpWord::kDueAlpha, s.alpha_due},
          {QpWord::kDueDec, s.dec_due},      {QpWord::kDueInc, s.inc_due},
          {QpWord::kPace, s.pace_q8},        {QpWord::kNpSent, s.np_sent},
          {QpWord::kNpLast, s.np_last}};
      for (auto &x : f) {
        uint64_t a = getb(qw, b + x.f.lsb, x.f.w);
        if (a != x.e) mismatch((std::string("state.") + x.f.name).c_str(), x.e, a, w);
      }
      for (int k = 0; k < kDcqcnQcntCount; k++) {
        uint64_t e = dcqcn_qp_counter(model, q, (dcqcn_qcnt_t)k);
        uint64_t a = getb(r->dcqcn_top__DOT__u_core__DOT__qcnt_q, 64 * (q * kDcqcnQcntCount + k), 64);
        if (a != e) mismatch("state.qp_counter", e, a, fmt("qp %u counter %d", q, k));
      }
    }
    for (int k = 0; k < kDcqcnGcntCount && !done; k++) {
      uint64_t e = dcqcn_counter(model, (dcqcn_gcnt_t)k);
      uint64_t a = getb(r->dcqcn_top__DOT__u_core__DOT__gcnt_q, 64 * k, 64);
      if (a != e) mismatch("state.counter", e, a, fmt("counter %d", k));
    }
    if (r->dcqcn_top__DOT__u_core__DOT__t_q != dcqcn_cycle(model))
      mismatch("state.cycle", dcqcn_cycle(model), r->dcqcn_top__DOT__u_core__DOT__t_q, "");
#endif
  }

  void run() {
    dcqcn_in_t in;
    dcqcn_out_t out;
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
    while (!done && cycle < opt.cycles) {
      wait();
      memset(&in, 0, sizeof(in));
      test->stimulus(cycle, model, in);
      bool psel = false, penable = false, access = false;
      if (apb_setup) {
        psel = penable = access = true;
        apb_setup = false;
      } else if (!test->csr.empty()) {
        apb_op = test->csr.front();
        test->csr.pop_front();
        psel = true;
        apb_setup = true;
      }
      if (access) in.csr = (dcqcn_csr_req_t){true, apb_op.write, apb_op.addr, apb_op.wdata};
      drive(in, psel, penable);
      dut->clk_i = 0;
      dut->eval();
      if (tfp != nullptr && cycle >= opt.trace_start) tfp->dump(2 * cycle);
      if (opt.debug_qp >= 0 && cycle >= opt.trace_start) {
        dcqcn_qp_state_t st;
        dcqcn_qp_state(model, (uint32_t)opt.debug_qp, &st);
        printf("[debug] cycle %" PRIu64 " qp %d: active %d rc %u rt %u alpha %u T %u BC %u "
               "bytes %u due %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n",
               cycle, opt.debug_qp, st.active, st.rc, st.rt, st.alpha, st.stage_timer,
               st.stage_byte, st.byte_count, st.alpha_due, st.dec_due, st.inc_due);
      }
      dcqcn_step(model, &in, &out);
      compare(in, out, access);
      test->observe(cycle, in, out);
      dut->clk_i = 1;
      dut->eval();
      if (tfp != nullptr && cycle >= opt.trace_start) tfp->dump(2 * cycle + 1);
      if (dut->contextp()->gotError()) {
        printf("FAILURE: RTL assertion failed at cycle %" PRIu64 " (message above)\n", cycle);
        errors++;
        done = true;
      }
      if (opt.state_every != 0 && (cycle % opt.state_every) == 0) compare_state();
      cycle++;
    }
    if (!done) compare_state();
    sc_stop();
  }
};

int sc_main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  DcqcnTbOptions opt;
  std::string v;
  if (plusarg(argc, argv, "list", nullptr)) {
    dcqcn_list_tests();
    return 0;
  }
  plusargs_common(argc, argv, opt);
#ifdef DCQCN_TB_NETLIST
  opt.state_every = 0;  // netlist (make gls): every output every cycle, no internal state
  printf("netlist: %s (internal-state comparison off); rerun: make gls-run BLK=dcqcn TEST=%s "
         "SEED=%" PRIu64 "\n", DCQCN_TB_NETLIST, opt.test.c_str(), opt.seed);
#endif
  opt.eager = plusarg(argc, argv, "eager", nullptr);
  if (plusarg(argc, argv, "debug_qp", &v)) opt.debug_qp = atoi(v.c_str());
  printf("seed: %" PRIu64 "\n", opt.seed);
  printf("reproduce: make sim-dcqcn TEST=%s SEED=%" PRIu64 "\n", opt.test.c_str(), opt.seed);

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
  DcqcnTest *test = dcqcn_make_test(opt.test, opt.seed);
  if (test == nullptr) {
    printf("unknown test '%s'; +list shows the tests\nTEST FAILED CHECKS\n", opt.test.c_str());
    return 2;
  }
  // the DUT's HW_PARAMS must match the model's parameters: read first
  test->csr.push_front({false, DCQCN_HW_PARAMS_REG_OFFSET, 0});
  if (opt.cycles == 0) opt.cycles = test->default_cycles();

  sc_clock clk("clk", 1, SC_NS);
  DcqcnTb tb("tb");
  tb.clk(clk);
  tb.dut = dut;
  tb.model = model;
  tb.test = test;
  tb.opt = opt;
  std::string dir = opt.out.empty() ? fmt("sim/out/dcqcn-%s.%" PRIu64, opt.test.c_str(), opt.seed) : opt.out;
  std::string mk = "mkdir -p " + dir;
  if (system(mk.c_str()) != 0) printf("cannot create %s\n", dir.c_str());
  tb.trace_dut = fopen((dir + "/trace_dut.tsv").c_str(), "w");
  tb.trace_model = fopen((dir + "/trace_model.tsv").c_str(), "w");
  if (tb.trace_dut) fprintf(tb.trace_dut, "cycle\tkind\tfields\n");
  if (tb.trace_model) fprintf(tb.trace_model, "cycle\tkind\tfields\n");

  sc_start(SC_ZERO_TIME);
  if (opt.trace) {
    ctx->traceEverOn(true);
    tb.tfp = new VerilatedFstC;
    dut->trace(tb.tfp, 99);
    tb.tfp->open((dir + "/waves.fst").c_str());
  }
  sc_start();

  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - tb.t0).count();
  if (tb.tfp != nullptr) tb.tfp->close();
  std::string why;
  bool test_ok = tb.errors != 0 || test->final_check(model, &why);
  if (!test_ok) printf("FAILURE: %s: %s\n", opt.test.c_str(), why.c_str());
  auto g = [&](dcqcn_gcnt_t k) { return (unsigned long long)dcqcn_counter(model, k); };
  printf("---- summary (dcqcn %s, %u QPs, U = %u)\n", opt.test.c_str(), prm.num_qps, prm.scan_width);
  printf("test: %s\nseed: %" PRIu64 "\ncycles: %" PRIu64 "\n", opt.test.c_str(), opt.seed, tb.cycle);
  printf("qps: %u\ncnp_rx: %llu\ncnp_first: %llu\ncuts: %llu\n", prm.num_qps, g(kDcqcnGcntCnpRx),
         g(kDcqcnGcntCnpFirst), g(kDcqcnGcntCuts));
  printf("inc_fr: %llu\ninc_ai: %llu\ninc_hai: %llu\ninc_by_timer: %llu\ninc_by_bytes: %llu\n",
         g(kDcqcnGcntIncFr), g(kDcqcnGcntIncAi), g(kDcqcnGcntIncHai), g(kDcqcnGcntIncByTimer),
         g(kDcqcnGcntIncByBytes));
  printf("tx_frames: %" PRIu64 "\npace_early: %llu\nce_rx: %llu\ncnp_tx: %llu\nce_coalesced: %llu\n",
         tb.n_tx, g(kDcqcnGcntPaceEarly), g(kDcqcnGcntCeRx), g(kDcqcnGcntCnpTx),
         g(kDcqcnGcntCeCoalesced));
  printf("bad_qp: %llu\nrate_updates: %" PRIu64 "\ncsr_accesses: %" PRIu64 "\nstate_checks: %" PRIu64 "\n",
         g(kDcqcnGcntBadQp), tb.n_rate_upd, tb.n_csr, tb.state_checks);
  printf("mismatches: %" PRIu64 "\n", tb.errors);
  printf("cycles_per_s: %.0f\n", secs > 0 ? tb.cycle / secs : 0.0);
  printf("traces: %s/trace_model.tsv %s/trace_dut.tsv\n", dir.c_str(), dir.c_str());
  if (opt.trace) {
    printf("waves: %s/waves.fst\ngtkwave: gtkwave %s/waves.fst sim/waves/dcqcn.gtkw\n", dir.c_str(), dir.c_str());
  } else {
    printf("waves: rerun with WAVES=1 (make sim-dcqcn TEST=%s SEED=%" PRIu64 " WAVES=1)\n",
           opt.test.c_str(), opt.seed);
  }
#if VM_COVERAGE  // coverage builds (tests/regress/regress.mk): +cov_file=<file>
  if (!plusarg(argc, argv, "cov_file", &v)) v = dir + "/coverage.dat";
  ctx->coveragep()->write(v.c_str());
#endif
  bool ok = tb.errors == 0 && test_ok;
  printf("%s\n", ok ? "TEST PASSED CHECKS" : "TEST FAILED CHECKS");
  if (tb.trace_dut) fclose(tb.trace_dut);
  if (tb.trace_model) fclose(tb.trace_model);
  dut->final();
  delete dut;
  delete test;
  dcqcn_destroy(model);
  return ok ? 0 : 1;
}
