// SPDX-License-Identifier: Apache-2.0
//
// xtm lockstep co-simulation (SystemC): the Verilated RTL (instance `dut`) and the C model
// get the same inputs every cycle; every output is compared every cycle and internal state
// (VOQ occupancy, HBM residency, deficits, PFC state, pause timers, pool, LFSR) every
// +state_every cycles. The first mismatch prints
//   FAILURE: co-sim mismatch at cycle <n>: <field> expected 0x.. dut 0x.. (<voq/port>)
// and the last 16 transactions of both sides, then exits non-zero (+max_errors=N goes on).
//
// The DUT is driven directly from the SystemC thread (no sc_signal per port): the
// Verilated model is a plain C++ object evaluated twice per cycle.
//
// Plusargs: +test=<name> +seed=<n> +cycles=<n> +trace (FST) +trace_start=<cycle>
//           +state_every=<n> +max_errors=<n> +out=<dir> +quiet
//           +state_detailed (the state compared field by field every time, not by image)
//           +state_fault=<field>:<index>:<cycle> (flip one RTL state bit: negative test)
// Tests: see tb/xtm_tests.h (xtm_tb --list).
//
// Firmware mode (+fw=<conf> [+fw_trace=F] [+fw_dump=F] [+apb_no_wait]; docs/cosim.md):
// instead of a test, the real firmware (firmware/: compiler, driver, bring-up) runs in the
// SystemC thread through the co-simulation MMIO backend (kXtmMmioBackendCosim): each
// read32/write32 is one APB transfer on the DUT (a setup cycle, then access cycles until
// PREADY: the 6 wait states of spec 10.1, every cycle through the same per-cycle lockstep
// compare against the C model; PSLVERR -> kXtmFwBusError) and reset pulses rst_ni (and
// resets the C model). The CSR trace and the register dump are written by the same
// writers as `xtmctl apply --trace --dump`. +apb_no_wait: a master that ignores PREADY
// (the negative test of tb/test_fw_cosim.sh: the run must fail).

#include <systemc.h>
#include <verilated.h>
#if VM_COVERAGE
#include <verilated_cov.h>  // coverage builds (tests/regress/regress.mk)
#endif
#include <verilated_fst_c.h>

#include <chrono>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>

#include "tb/tb_common.h"
#include "tb/xtm_probe.h"
#include "tb/xtm_tests.h"

#include "Vxtm_top.h"

extern "C" {
#include "cmodel/xtm/xtm.h"
#include "firmware/cos/xtm_cos.h"
#include "firmware/host/xtm_fw_host.h"
#include "firmware/xtm_fw.h"
#include "firmware/xtm_mmio.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.
}
#include "tb/xtm_fcov.h"  // +fcov=<file>: functional coverage (nightly)

// deq_rec_t layout (rtl/xtm/xtm_pkg.sv), MSB first: pkt_id voq in_port len dscp ecn
// marked hbm sojourn = 103 bits per port.
static const int kRecBits = 103;

// Pipeline timing (docs/spec.md 15.1): the RTL shows the outputs of logical cycle t in
// physical cycle t + kOutLat and commits t in physical t + kCommit. The model is stepped
// kCommit cycles behind the inputs, so that after the clock edge of a physical cycle both
// hold the same state, and its outputs wait kOutLat - kCommit cycles for the RTL's.
#ifndef XTM_OUT_LATENCY
#define XTM_OUT_LATENCY 6
#endif
static const uint64_t kOutLat = XTM_OUT_LATENCY;
static const uint64_t kCommit = 4;
static const int kRing = 8;  // > kOutLat

static inline uint64_t bit_put(uint64_t w, uint32_t i, bool b) {
  uint64_t bit = 1ull << (i & 63);
  return b ? w | bit : w & ~bit;
}

SC_MODULE(XtmTb) {
  Vxtm_top *dut = nullptr;
  VerilatedFstC *tfp = nullptr;
  xtm_t *model = nullptr;
  XtmTest *test = nullptr;
  TbOptions opt;
  uint32_t nports = 0, ntcs = 0;

  uint64_t cycle = 0;   // physical cycle since the last reset
  uint64_t wave_t = 0;  // physical cycles since the start (wave time, 1 ns each)
  uint64_t lcycle = 0;  // logical cycle being compared (for reports)
  uint64_t errors = 0;
  xtm_in_t in_ring[kRing];
  xtm_out_t out_ring[kRing];
  CsrOp csr_ring[kRing];
  XtmProbe *probe = nullptr;
  // the state comparison's fast path (compare_state)
  xtm_snap_t *snap = nullptr;      // the model's state, updated incrementally
  XtmProbe::Image *img = nullptr;  // the RTL state the snapshot implies
  uint64_t img_bad_voq[XTM_SNAP_WORDS] = {0}, img_bad_pg[XTM_SNAP_WORDS] = {0};  // no encoding
  uint64_t img_bad_pol[XTM_MAX_POLS / 64] = {0};
  uint64_t state_checks = 0, state_detailed_runs = 0;
  bool state_detailed = false;  // +state_detailed: field by field every time
  // +state_fault=<field>:<index>:<cycle>: one RTL register bit flipped after the clock edge
  // of logical cycle <cycle> commits, before that cycle's state comparison (a negative test
  // of the comparison; XtmProbe::flip names the fields)
  std::string fault_field;
  uint32_t fault_index = 0;
  uint64_t fault_cycle = UINT64_MAX;
  bool corrupt_image = false;
  uint64_t first_err_cycle = 0;
  bool done = false;
  int exit_code = 0;
  std::deque<Txn> hist_dut, hist_model;
  // statistics for the summary
  uint64_t packets_in = 0, packets_out = 0, ecn_marks = 0, pfc_frames = 0, flushes = 0;
  uint64_t drops[16] = {0};
  std::chrono::steady_clock::time_point t0;
  FILE *trace_dut = nullptr, *trace_model = nullptr;
  XtmFcov *fcov = nullptr;

  // APB state: a CSR op is a setup cycle, then access cycles until PREADY
  CsrOp apb_op{};
  int apb_state = 0;        // 0 idle, 1 setup done, 2 access phase under way
  bool apb_done = false;    // PREADY seen in the last access cycle
  uint32_t apb_prdata = 0;  // the DUT's answer then
  bool apb_pslverr = false;

  // firmware mode (+fw=<conf>)
  std::string fw_conf, fw_trace, fw_dump;
  bool fw_ok = false;
  uint64_t fw_accesses = 0, fw_resets = 0;
  bool apb_no_wait = false;  // +apb_no_wait: the firmware's master ignores PREADY (negative)

  SC_CTOR(XtmTb) {
    SC_THREAD(run);  // time advances 1 ns per cycle by timed waits (no clock signal to update)
  }

  void mismatch(const char *field, uint64_t exp, uint64_t act, const std::string &where) {
    errors++;
    uint64_t at = lcycle;
    if (errors == 1) {
      first_err_cycle = at;
    }
    printf("FAILURE: co-sim mismatch at cycle %" PRIu64 ": %s expected 0x%" PRIx64 " dut 0x%" PRIx64
           " (%s)\n",
           at, field, exp, act, where.c_str());
    if (errors == 1) {
      // wave time counts every physical cycle since the start (firmware resets included)
      uint64_t w0 = wave_t - cycle;
      printf("in the waves: logical cycle %" PRIu64 " commits at %" PRIu64
             " ns, its outputs are on the ports at %" PRIu64 " ns\n",
             at, w0 + at + kCommit, w0 + at + kOutLat);
    }
    if (errors == 1 && !fw_conf.empty()) {
      printf(
          "waves of the failing window: make sim CFG=%s WAVES=1 PLUSARGS='+fw=%s "
          "+trace_start=%" PRIu64 "'\n",
          XTM_TB_CFG, fw_conf.c_str(), at > 2000 ? at - 2000 : 0);
    } else if (errors == 1) {
      printf("waves of the failing window: make sim TEST=%s SEED=%" PRIu64
             " CFG=%s WAVES=1 "
             "PLUSARGS=+trace_start=%" PRIu64 "\n",
             opt.test.c_str(), opt.seed, XTM_TB_CFG, at > 2000 ? at - 2000 : 0);
    }
    if (errors == 1) {
      printf("last transactions, model:\n");
      for (auto &t : hist_model) {
        printf("  %" PRIu64 "\t%s\n", t.cycle, t.text.c_str());
      }
      printf("last transactions, dut:\n");
      for (auto &t : hist_dut) {
        printf("  %" PRIu64 "\t%s\n", t.cycle, t.text.c_str());
      }
    }
    if (errors >= opt.max_errors) {
      done = true;
    }
  }

  void log_txn(FILE * f, std::deque<Txn> & h, const std::string &s) {
    push_hist(h, lcycle, s);
    if (f != nullptr) {
      fprintf(f, "%" PRIu64 "\t%s\n", lcycle, s.c_str());
    }
  }
  // The same for a line built without printf: every transaction of both sides is traced,
  // and vsnprintf + fprintf of each cost about 3,000 instructions (about 150 a cycle under
  // incast, 40 % of the testbench's cost with outputs compared). Same text, same files.
  struct Line {
    char b[160];
    size_t n = 0;
    Line &s(const char *t) {
      while (*t != '\0') b[n++] = *t++;
      return *this;
    }
    Line &c(char ch) {
      b[n++] = ch;
      return *this;
    }
    Line &u(uint64_t v) {  // %u / %d of a non-negative value
      char t[24];
      int k = 0;
      do {
        t[k++] = static_cast<char>('0' + v % 10);
        v /= 10;
      } while (v != 0);
      while (k > 0) b[n++] = t[--k];
      return *this;
    }
    Line &x(uint64_t v, int w) {  // %0<w>x
      int d = w;
      while (d < 16 && (v >> (4 * d)) != 0) d++;
      for (int i = d - 1; i >= 0; i--) b[n++] = "0123456789abcdef"[(v >> (4 * i)) & 15];
      return *this;
    }
    Line &t() { return c('\t'); }
  };
  void log_txn(FILE * f, std::deque<Txn> & h, const Line &l) {
    push_hist(h, lcycle, std::string(l.b, l.n));
    if (f != nullptr) {
      Line w;
      w.u(lcycle).t();
      memcpy(w.b + w.n, l.b, l.n);
      w.n += l.n;
      w.c('\n');
      fwrite(w.b, 1, w.n, f);
    }
  }

  void drive(const xtm_in_t &in, bool psel, bool penable) {
    dut->enq_valid_i = in.enq.valid;
    dut->enq_pkt_id_i = in.enq.pkt_id;
    dut->enq_in_port_i = in.enq.in_port & 0x3F;
    dut->enq_eg_port_i = in.enq.eg_port & 0x3F;
    dut->enq_dscp_i = in.enq.dscp & 0x3F;
    dut->enq_ecn_i = in.enq.ecn & 3;
    dut->enq_len_i = in.enq.len & 0x3FFF;
    uint64_t pmask = nports >= 64 ? ~0ull : ((1ull << nports) - 1);
    setb(dut->tx_ready_i, 0, nports, in.tx_ready & pmask);
    setb(dut->pfc_rx_valid_i, 0, nports, in.pfc_rx_valid & pmask);
    // frame fields only matter with their valid bit; they are written when a frame comes
    // and otherwise keep the last frame's values (the model ignores them likewise)
    uint64_t fr = in.pfc_rx_valid & pmask;
    while (fr != 0) {
      uint32_t p = __builtin_ctzll(fr);
      fr &= fr - 1;
      setb(dut->pfc_rx_vec_i, 8 * p, 8, in.pfc_rx[p].vec);
      for (int i = 0; i < 8; i++) {
        setb(dut->pfc_rx_quanta_i, 16 * (8 * p + i), 16, in.pfc_rx[p].quanta[i]);
      }
    }
    dut->psel_i = psel;
    dut->penable_i = penable;
    dut->pwrite_i = apb_op.write;
    dut->paddr_i = apb_op.addr;
    dut->pwdata_i = apb_op.wdata;
  }

  // Compares the DUT's outputs with the model's outputs of the same logical cycle. The
  // descriptions of a mismatch ("where") are formatted only when one is found.
  void compare(const xtm_out_t &o, const CsrOp &csr_op) {
    // admission result
    if (dut->enq_res_valid_o != o.enq_res.valid) {
      mismatch("enq_res.valid", o.enq_res.valid, dut->enq_res_valid_o,
               fmt("pkt %08x", o.enq_res.pkt_id));
    }
    if (o.enq_res.valid) {
      auto w = [&] { return fmt("pkt %08x voq %u", o.enq_res.pkt_id, o.enq_res.voq); };
      if (dut->enq_res_pkt_id_o != o.enq_res.pkt_id)
        mismatch("enq_res.pkt_id", o.enq_res.pkt_id, dut->enq_res_pkt_id_o, w());
      if (dut->enq_res_voq_o != o.enq_res.voq)
        mismatch("enq_res.voq", o.enq_res.voq, dut->enq_res_voq_o, w());
      if (dut->enq_res_reason_o != o.enq_res.reason)
        mismatch("enq_res.reason", o.enq_res.reason, dut->enq_res_reason_o, w());
      if (dut->enq_res_marked_o != o.enq_res.marked)
        mismatch("enq_res.marked", o.enq_res.marked, dut->enq_res_marked_o, w());
      if (dut->enq_res_hdrm_o != o.enq_res.hdrm)
        mismatch("enq_res.hdrm", o.enq_res.hdrm, dut->enq_res_hdrm_o, w());
      if (dut->enq_res_hbm_o != o.enq_res.hbm)
        mismatch("enq_res.hbm", o.enq_res.hbm, dut->enq_res_hbm_o, w());
      // "ENQ\t%08x\t%u\t%u\t%d%d%d": pkt_id, voq, reason, marked hdrm hbm
      log_txn(trace_model, hist_model,
              Line()
                  .s("ENQ\t")
                  .x(o.enq_res.pkt_id, 8)
                  .t()
                  .u(o.enq_res.voq)
                  .t()
                  .u(o.enq_res.reason)
                  .t()
                  .u(o.enq_res.marked)
                  .u(o.enq_res.hdrm)
                  .u(o.enq_res.hbm));
      log_txn(trace_dut, hist_dut,
              Line()
                  .s("ENQ\t")
                  .x(dut->enq_res_pkt_id_o, 8)
                  .t()
                  .u(dut->enq_res_voq_o)
                  .t()
                  .u(dut->enq_res_reason_o)
                  .t()
                  .u(dut->enq_res_marked_o)
                  .u(dut->enq_res_hdrm_o)
                  .u(dut->enq_res_hbm_o));
      packets_in++;
      drops[o.enq_res.reason & 15]++;
      ecn_marks += o.enq_res.marked;
    }
    if (dut->flush_valid_o != o.flush.valid)
      mismatch("flush.valid", o.flush.valid, dut->flush_valid_o, "");
    if (o.flush.valid) {
      auto w = [&] { return fmt("voq %u", o.flush.voq); };
      if (dut->flush_pkt_id_o != o.flush.pkt_id)
        mismatch("flush.pkt_id", o.flush.pkt_id, dut->flush_pkt_id_o, w());
      if (dut->flush_voq_o != o.flush.voq)
        mismatch("flush.voq", o.flush.voq, dut->flush_voq_o, w());
      log_txn(trace_model, hist_model, Line().s("FLUSH\t").x(o.flush.pkt_id, 8).t().u(o.flush.voq));
      log_txn(trace_dut, hist_dut,
              Line().s("FLUSH\t").x(dut->flush_pkt_id_o, 8).t().u(dut->flush_voq_o));
      flushes++;
    }
    // ports: only those where either side has a transmission or a frame
    uint64_t pmask = nports >= 64 ? ~0ull : ((1ull << nports) - 1);
    uint64_t ddq = getb(dut->deq_valid_o, 0, nports), dpf = getb(dut->pfc_tx_valid_o, 0, nports);
    uint64_t mdq = o.deq_valid & pmask, mpf = o.pfc_tx_valid & pmask;
    for (uint64_t act = ddq | dpf | mdq | mpf; act != 0; act &= act - 1) {
      uint32_t p = __builtin_ctzll(act);
      auto w = [&] { return fmt("port %u", p); };
      bool mv = (mdq >> p) & 1u;
      bool dv = (ddq >> p) & 1u;
      if (mv != dv) mismatch("deq.valid", mv, dv, w());
      if (mv) {
        const xtm_deq_out_t &d = o.deq[p];
        int b = p * kRecBits;
        struct {
          const char *n;
          uint64_t e;
          int lsb, wd;
        } f[] = {{"deq.pkt_id", d.pkt_id, 71, 32},  {"deq.voq", d.voq, 62, 9},
                 {"deq.in_port", d.in_port, 56, 6}, {"deq.len", d.len, 42, 14},
                 {"deq.dscp", d.dscp, 36, 6},       {"deq.ecn", d.ecn, 34, 2},
                 {"deq.marked", d.marked, 33, 1},   {"deq.hbm", d.hbm, 32, 1},
                 {"deq.sojourn", d.sojourn, 0, 32}};
        for (auto &x : f) {
          uint64_t a = getb(dut->deq_o, b + x.lsb, x.wd);
          if (a != x.e) mismatch(x.n, x.e, a, fmt("port %u voq %u pkt %08x", p, d.voq, d.pkt_id));
        }
        // "DEQ\t%u\t%08x\t%u\t%u\t%u\t%u": port, pkt_id, voq, len, ecn, sojourn
        log_txn(trace_model, hist_model,
                Line()
                    .s("DEQ\t")
                    .u(p)
                    .t()
                    .x(d.pkt_id, 8)
                    .t()
                    .u(d.voq)
                    .t()
                    .u(d.len)
                    .t()
                    .u(d.ecn)
                    .t()
                    .u(d.sojourn));
        log_txn(trace_dut, hist_dut,
                Line()
                    .s("DEQ\t")
                    .u(p)
                    .t()
                    .x(getb(dut->deq_o, b + 71, 32), 8)
                    .t()
                    .u(getb(dut->deq_o, b + 62, 9))
                    .t()
                    .u(getb(dut->deq_o, b + 42, 14))
                    .t()
                    .u(getb(dut->deq_o, b + 34, 2))
                    .t()
                    .u(getb(dut->deq_o, b, 32)));
        packets_out++;
      }
      bool mp = (mpf >> p) & 1u;
      bool dp = (dpf >> p) & 1u;
      if (mp != dp) mismatch("pfc_tx.valid", mp, dp, w());
      if (mp) {
        uint64_t dvec = getb(dut->pfc_tx_vec_o, 8 * p, 8);
        if (dvec != o.pfc_tx[p].vec) mismatch("pfc_tx.vec", o.pfc_tx[p].vec, dvec, w());
        for (int i = 0; i < 8; i++) {
          uint64_t dq = getb(dut->pfc_tx_quanta_o, 16 * (8 * p + i), 16);
          if (dq != o.pfc_tx[p].quanta[i])
            mismatch("pfc_tx.quanta", o.pfc_tx[p].quanta[i], dq, fmt("port %u prio %d", p, i));
        }
        log_txn(trace_model, hist_model, Line().s("PFC\t").u(p).t().x(o.pfc_tx[p].vec, 2));
        log_txn(trace_dut, hist_dut, Line().s("PFC\t").u(p).t().x(dvec, 2));
        pfc_frames++;
      }
    }
    // the APB completion: PREADY in the cycle the response of the access is due
    if (dut->pready_o != o.csr_rsp.valid)
      mismatch("csr.valid (pready)", o.csr_rsp.valid, dut->pready_o, "");
    if (o.csr_rsp.valid) {
      const CsrOp &op = csr_op;
      if (!op.write && dut->prdata_o != o.csr_rsp.rdata)
        mismatch("csr.rdata", o.csr_rsp.rdata, dut->prdata_o, fmt("addr 0x%04x", op.addr));
      if (dut->pslverr_o != o.csr_rsp.err)
        mismatch("csr.err", o.csr_rsp.err, dut->pslverr_o, fmt("addr 0x%04x", op.addr));
      log_txn(trace_model, hist_model,
              fmt("CSR\t%c\t%04x\t%08x\t%d", op.write ? 'W' : 'R', op.addr,
                  op.write ? op.wdata : o.csr_rsp.rdata, o.csr_rsp.err));
      log_txn(trace_dut, hist_dut,
              fmt("CSR\t%c\t%04x\t%08x\t%d", op.write ? 'W' : 'R', op.addr,
                  op.write ? op.wdata : dut->prdata_o, dut->pslverr_o));
    }
  }

  // Internal state (spec 12 quantities) after the clock edge, through the probe: the RTL
  // has committed logical cycle cycle - kCommit, the model has just executed it.
  //
  // Fast path (docs/cosim.md, "The state comparison"): the model's snapshot is brought up
  // to date incrementally (xtm_state_snapshot), the entries it rewrote are re-encoded into
  // the image of the expected RTL state, and the image is compared with the live RTL arrays
  // by memcmp. Only when they differ (or an entry has no RTL encoding, or +state_detailed,
  // or every 4096th comparison as an audit of the fast path) does the field-by-field
  // comparison run, which names the first differing field, VOQ/PG and cycle.
  void compare_state() {
    const XtmProbe &r = *probe;
    uint32_t nv = nports * ntcs, ng = nports * 8;
    xtm_state_snapshot(model, snap);
    uint64_t bad = 0;
    for (uint32_t w = 0; w < (nv + 63) / 64; w++) {
      for (uint64_t b = snap->voq_changed[w]; b != 0; b &= b - 1) {
        uint32_t v = w * 64 + static_cast<uint32_t>(__builtin_ctzll(b));
        img_bad_voq[w] = bit_put(img_bad_voq[w], v, !r.put_voq(*img, v, *snap));
      }
      bad |= img_bad_voq[w];
    }
    for (uint32_t w = 0; w < (ng + 63) / 64; w++) {
      for (uint64_t b = snap->pg_changed[w]; b != 0; b &= b - 1) {
        uint32_t g = w * 64 + static_cast<uint32_t>(__builtin_ctzll(b));
        img_bad_pg[w] = bit_put(img_bad_pg[w], g, !r.put_pg(*img, g, *snap));
      }
      bad |= img_bad_pg[w];
    }
    for (uint32_t w = 0; w < (ng + 63) / 64; w++) {  // policers: as many as PGs (spec 4.7)
      for (uint64_t b = snap->pol_changed[w]; b != 0; b &= b - 1) {
        uint32_t k = w * 64 + static_cast<uint32_t>(__builtin_ctzll(b));
        img_bad_pol[w] = bit_put(img_bad_pol[w], k, !r.put_pol(*img, k, *snap));
      }
      bad |= img_bad_pol[w];
    }
    r.put_bits(*img, *snap);
    if (corrupt_image) {
      XtmProbe::corrupt(*img, fault_index);
      corrupt_image = false;
    }
    const xtm_global_state_t &gs = snap->global;
    bool same = bad == 0 && r.pool_used() == gs.pool_used && r.ocb_used() == gs.ocb_used &&
                r.hbm_used() == gs.hbm_used && r.desc_free() == gs.desc_free &&
                r.lfsr() == gs.lfsr && r.lfsr_head() == gs.lfsr_head &&
                r.matches(*img, nv, lcycle >= XTM_INIT_CYCLES(nports));
    state_checks++;
    if (same && !state_detailed && (state_checks & 4095) != 0) {
      return;
    }
    state_detailed_runs++;
    uint64_t before = errors;
    compare_state_fields();
    if (!same && errors == before) {
      // the image says the RTL differs, the fields say it does not: the snapshot or the
      // image missed a change of the model (a checker bug, never an RTL one)
      mismatch("state.image", 0, 1, "the fast state comparison disagrees with the detailed one");
      xtm_snap_init(snap);  // the next comparison starts from a full snapshot
    }
  }

  void compare_state_fields() {
    const XtmProbe &r = *probe;
    uint32_t nv = nports * ntcs;
    for (uint32_t v = 0; v < nv; v++) {
      xtm_voq_state_t s;
      xtm_voq_state(model, v, &s);
      if (r.occ_cells(v) != s.occ_cells)
        mismatch("state.voq.occ_cells", s.occ_cells, r.occ_cells(v), fmt("voq %u", v));
      if (r.occ_pkts(v) != s.occ_pkts)
        mismatch("state.voq.occ_pkts", s.occ_pkts, r.occ_pkts(v), fmt("voq %u", v));
      if (r.hbm_cells(v) != s.hbm_cells)
        mismatch("state.voq.hbm_cells", s.hbm_cells, r.hbm_cells(v), fmt("voq %u", v));
      if (r.hbm_mode(v) != s.hbm_mode)
        mismatch("state.voq.hbm_mode", s.hbm_mode, r.hbm_mode(v), fmt("voq %u", v));
      if (r.wd_stalled(v) != s.wd_stalled)
        mismatch("state.voq.wd_stalled", s.wd_stalled, r.wd_stalled(v), fmt("voq %u", v));
      if (r.deficit(v) != s.deficit)
        mismatch("state.voq.deficit", (uint32_t)s.deficit, (uint32_t)r.deficit(v),
                 fmt("voq %u", v));
      if (r.shaper_conform(v) != s.shaper_conform)
        mismatch("state.voq.shaper_conform", s.shaper_conform, r.shaper_conform(v),
                 fmt("voq %u", v));
      // the poll counters are in RAM, written by the initialisation sweep (spec 15.6)
      if (lcycle >= XTM_INIT_CYCLES(nports)) {
        if (r.wd_storm(v) != s.wd_storm)
          mismatch("state.voq.wd_storm", s.wd_storm, r.wd_storm(v), fmt("voq %u", v));
        if (r.wd_clean(v) != s.wd_clean)
          mismatch("state.voq.wd_clean", s.wd_clean, r.wd_clean(v), fmt("voq %u", v));
      }
    }
    for (uint32_t g = 0; g < nports * 8; g++) {
      xtm_pg_state_t s;
      xtm_pg_state(model, g / 8, g % 8, &s);
      if (r.pg_cells(g) != s.pg_cells)
        mismatch("state.pg.cells", s.pg_cells, r.pg_cells(g), fmt("port %u prio %u", g / 8, g % 8));
      if (r.hdrm_used(g) != s.hdrm_used)
        mismatch("state.pg.hdrm_used", s.hdrm_used, r.hdrm_used(g),
                 fmt("port %u prio %u", g / 8, g % 8));
      if (r.xoff(g) != s.xoff)
        mismatch("state.pg.xoff", s.xoff, r.xoff(g), fmt("port %u prio %u", g / 8, g % 8));
      if (r.pause_remain(g) != s.pause_remain)
        mismatch("state.pg.pause_remain", s.pause_remain, r.pause_remain(g),
                 fmt("port %u prio %u", g / 8, g % 8));
    }
    // the policers: bucket rows from the initialisation sweep on, counters always (spec 4.7)
    for (uint32_t k = 0; k < nports * XTM_POLS_PER_PORT; k++) {
      if (lcycle >= XTM_INIT_CYCLES(nports)) {
        xtm_pol_state_t s;
        xtm_pol_state(model, k, &s);
        if (r.pol_tok(k) != s.tok)
          mismatch("state.pol.tok", s.tok, r.pol_tok(k), fmt("policer %u", k));
        if (r.pol_u(k) != s.u) mismatch("state.pol.u", s.u, r.pol_u(k), fmt("policer %u", k));
      }
      static const char *const kCnt[kXtmPolcntCount] = {
          "state.pol.drop_pkts", "state.pol.drop_bytes", "state.pol.pass_pkts"};
      for (uint32_t c = 0; c < kXtmPolcntCount; c++) {
        uint64_t want = xtm_pol_counter(model, k, static_cast<xtm_polcnt_t>(c));
        uint64_t got = r.pol_counter(k, static_cast<xtm_polcnt_t>(c));
        if (got != want) mismatch(kCnt[c], want, got, fmt("policer %u", k));
      }
    }
    xtm_global_state_t gs;
    xtm_global_state(model, &gs);
    if (r.pool_used() != gs.pool_used) mismatch("state.pool_used", gs.pool_used, r.pool_used(), "");
    if (r.ocb_used() != gs.ocb_used) mismatch("state.ocb_used", gs.ocb_used, r.ocb_used(), "");
    if (r.hbm_used() != gs.hbm_used) mismatch("state.hbm_used", gs.hbm_used, r.hbm_used(), "");
    if (r.desc_free() != gs.desc_free) mismatch("state.desc_free", gs.desc_free, r.desc_free(), "");
    if (r.lfsr() != gs.lfsr) mismatch("state.lfsr", gs.lfsr, r.lfsr(), "");
    if (r.lfsr_head() != gs.lfsr_head) mismatch("state.lfsr_head", gs.lfsr_head, r.lfsr_head(), "");
  }

  static constexpr uint64_t kTimeBatch = 256;  // cycles per timed wait
  uint64_t time_owed = 0;                      // cycles not yet waited for
  void sync_time() {
    static const sc_time kBatchTime(static_cast<double>(kTimeBatch), SC_NS);
    if (time_owed == kTimeBatch) {
      wait(kBatchTime);  // (made once: the conversion from double costs ~36 instructions)
    } else if (time_owed != 0) {
      wait(sc_time(static_cast<double>(time_owed), SC_NS));
    }
    time_owed = 0;
  }

  // One physical cycle: advances the SystemC time (in batches, below), drives this cycle's
  // inputs (the test's stimulus for cycle < +cycles, idle after) and the APB phase (0 idle,
  // 1 setup of apb_op, 2 first access cycle, 3 access waiting for PREADY), evaluates the
  // DUT, steps the model for logical cycle - kCommit, compares the DUT's outputs (logical
  // cycle - kOutLat) with the model's, latches the DUT and compares the state every
  // +state_every cycles.
  void tick(int phase) {
    // SystemC time: 1 ns per physical cycle, advanced by one timed wait every kTimeBatch
    // cycles (and by sync_time() before the thread stops) rather than every cycle: the
    // thread is the only process, nothing reads sc_time_stamp() between the waits (the
    // waves are stamped with wave_t), and each wait costs the SystemC kernel about 550
    // instructions (the timed-event queue, crunch, two coroutine switches)
    if (++time_owed == kTimeBatch) {
      sync_time();
    }
    xtm_in_t &in = in_ring[cycle % kRing];
    if (cycle < kRing) {
      memset(&in, 0, sizeof(in));
    } else {
      // the frames of the ports that exist only: xtm_in_t has room for XTM_MAX_PORTS (64),
      // and clearing all of it cost about 140 instructions a cycle at 8 ports; frames are
      // read only where pfc_rx_valid has the bit (xtm.h), which drive() masks to nports
      memset(&in, 0, offsetof(xtm_in_t, pfc_rx) + nports * sizeof(xtm_pfc_frame_t));
      memset(&in.tx_ready, 0, sizeof(in) - offsetof(xtm_in_t, tx_ready));
    }
    in.tx_ready = UINT64_MAX;
    if (cycle < opt.cycles) {
      test->stimulus(cycle, in);
    }
    bool psel = phase != 0, penable = phase >= 2;
    if (phase == 2) {
      in.csr = (xtm_csr_req_t){true, apb_op.write, apb_op.addr, apb_op.wdata};
      csr_ring[cycle % kRing] = apb_op;
    }
    drive(in, psel, penable);
    dut->clk_i = 0;
    dut->eval();
    if (tfp != nullptr && cycle >= opt.trace_start) {
      tfp->dump(1000 * wave_t);  // ps: one cycle is 1 ns
    }
    if (phase >= 2) {
      apb_done = dut->pready_o;
      apb_prdata = dut->prdata_o;
      apb_pslverr = dut->pslverr_o;
    }
    if (!opt.rtl_only) {
      if (cycle >= kCommit) {
        uint64_t lt = cycle - kCommit;
        const xtm_in_t &lin = in_ring[lt % kRing];
        xtm_out_t &o = out_ring[lt % kRing];
        if (fcov != nullptr) fcov->pre(model, lin);
        xtm_step(model, &lin, &o);
        if (fcov != nullptr) fcov->sample(model, lin, o);
        if (lin.csr.valid && !lin.csr.write) {
          test->csr_result(lt, csr_ring[lt % kRing], o.csr_rsp.rdata);
        }
        test->observe(lt, o);
      }
      if (cycle >= kOutLat) {
        lcycle = cycle - kOutLat;
        compare(out_ring[lcycle % kRing], csr_ring[lcycle % kRing]);
      }
    }
    dut->clk_i = 1;
    dut->eval();
    if (tfp != nullptr && cycle >= opt.trace_start) {
      tfp->dump(1000 * wave_t + 500);
    }
    if (dut->contextp()->gotError()) {
      printf("FAILURE: RTL assertion failed at physical cycle %" PRIu64 " (message above)\n",
             cycle);
      errors++;
      done = true;
    }
    if (cycle >= kCommit && cycle - kCommit == fault_cycle) {
      if (fault_field == "image") {
        corrupt_image = true;  // the checker's own expectation, not the RTL (compare_state)
      } else {
        probe->flip(fault_field, fault_index);
      }
      printf("fault: %s %s[%u] bit flipped after logical cycle %" PRIu64 " committed\n",
             fault_field == "image" ? "state image" : "RTL", fault_field.c_str(), fault_index,
             fault_cycle);
    }
    if (!opt.rtl_only && XtmProbe::kAvailable && opt.state_every != 0 && cycle >= kCommit &&
        ((cycle - kCommit) % opt.state_every) == 0) {
      lcycle = cycle - kCommit;
      compare_state();
    }
    if (errors == 0 && (cycle & 0xFFFF) == 0) {
      char why[256];
      if (!xtm_check_invariants(model, why, sizeof(why))) {
        printf("FAILURE: model invariant broken at cycle %" PRIu64 ": %s\n", cycle, why);
        errors++;
        done = true;
      }
    }
    cycle++;
    wave_t++;
  }

  // rst_ni low (asynchronous), two clocks, high: the DUT's reset state. Not a spec cycle.
  void reset_dut() {
    dut->clk_i = 0;
    dut->rst_ni = 1;
    dut->eval();
    dut->rst_ni = 0;  // asynchronous, active low: the falling edge resets
    dut->eval();
    for (int i = 0; i < 2; i++) {
      dut->clk_i = 1;
      dut->eval();
      dut->clk_i = 0;
      dut->eval();
    }
    dut->rst_ni = 1;
    dut->eval();
  }

  void run() {
    t0 = std::chrono::steady_clock::now();
    // reset: two cycles with rst_ni low; the model is created in its reset state
    reset_dut();
    if (!fw_conf.empty()) {
      run_firmware();
      sync_time();
      sc_stop();
      return;
    }
    // +cycles logical cycles of stimulus, then kOutLat idle cycles so that every output
    // of them is compared
    while (!done && cycle < opt.cycles + kOutLat) {
      int phase = 0;
      if (apb_state == 1) {
        phase = 2;
      } else if (apb_state == 2) {
        phase = 3;
      } else if (cycle < opt.cycles && test->next_csr(cycle, apb_op)) {
        phase = 1;
      }
      tick(phase);
      if (phase == 1) {
        apb_state = 1;
      } else if (phase >= 2) {
        apb_state = apb_done ? 0 : 2;
      }
    }
    sync_time();
    sc_stop();
  }

  // ---------------------------------------------------------------- firmware mode
  // The co-simulation MMIO backend: one APB transfer per access, both cycles compared.
  xtm_fw_status_t apb_transfer(bool write, uint32_t addr, uint32_t wdata, uint32_t *rdata) {
    if (done) {
      return kXtmFwBusError;  // the lockstep check already failed: stop the firmware
    }
    if (addr > 0xFFFFu) {
      return kXtmFwBadArg;
    }
    apb_op = CsrOp{write, static_cast<uint16_t>(addr), write ? wdata : 0u, 0};
    tick(1);
    tick(2);
    if (apb_no_wait) {
      // +apb_no_wait (negative test, tb/test_fw_cosim.sh): a spec-1.0 master that takes the
      // answer in the first access cycle and ignores PREADY; against the wait states of
      // spec 10.1 the run must fail (the firmware reads the idle PRDATA, or the next
      // access comes while the DUT still serves this one: a PREADY mismatch)
      fw_accesses++;
      if (rdata != nullptr) {
        *rdata = apb_prdata;
      }
      return apb_pslverr ? kXtmFwBusError : kXtmFwOk;
    }
    for (int w = 0; !apb_done && !done; w++) {
      if (w > 2 * static_cast<int>(kOutLat)) {
        printf("FAILURE: APB: no PREADY %d cycles after the access to 0x%04x\n", w, addr);
        errors++;
        done = true;
        return kXtmFwBusError;
      }
      tick(3);
    }
    fw_accesses++;
    if (rdata != nullptr) {
      *rdata = apb_prdata;
    }
    return apb_pslverr ? kXtmFwBusError : kXtmFwOk;
  }
  static xtm_fw_status_t cosim_read32(void *ctx, uint32_t offset, uint32_t *value) {
    return static_cast<XtmTb *>(ctx)->apb_transfer(false, offset, 0u, value);
  }
  static xtm_fw_status_t cosim_write32(void *ctx, uint32_t offset, uint32_t value) {
    return static_cast<XtmTb *>(ctx)->apb_transfer(true, offset, value, nullptr);
  }
  // Reset: rst_ni pulse on the DUT and xtm_reset on the model; the next cycle is cycle 0
  // of both, as after the reset at the start of the run.
  static xtm_fw_status_t cosim_reset(void *ctx) {
    XtmTb *tb = static_cast<XtmTb *>(ctx);
    if (tb->done) {
      return kXtmFwBusError;
    }
    xtm_in_t idle;
    memset(&idle, 0, sizeof(idle));
    idle.tx_ready = UINT64_MAX;
    tb->drive(idle, false, false);
    tb->reset_dut();
    xtm_reset(tb->model);
    tb->cycle = 0;  // both restart: the pipeline is empty and the model at cycle 0
    if (tb->fcov != nullptr) tb->fcov->restart();
    tb->fw_resets++;
    return kXtmFwOk;
  }

  void run_firmware() {
    static const xtm_mmio_ops_t kCosimOps = {cosim_read32, cosim_write32, cosim_reset};
    xtm_mmio_t io = {&kCosimOps, this, kXtmMmioBackendCosim};
    xtm_fw_t h;
    xtm_fw_status_t st = xtm_fw_init(&io, &h);
    if (st != kXtmFwOk) {
      printf("FAILURE: firmware: cannot identify the traffic manager: %s\n",
             xtm_fw_status_name(st));
      return;
    }
    // compile against the parameters the DUT reports (HW_PARAMS), as xtmctl does on the model
    static xtm_cos_result_t r;
    xtm_cos_opts_t copts = {};
    copts.clock_hz = 1000000000ull;
    uint32_t nerr = xtm_cos_compile_file(fw_conf.c_str(), &h.hw, &copts, &r);
    for (uint32_t i = 0; i < r.nwarnings; i++) {
      printf("%s\n", r.warnings[i]);
    }
    if (nerr > 0) {
      for (uint32_t i = 0; i < nerr && i < XTM_COS_MAX_ERRORS; i++) {
        printf("%s\n", r.errors[i]);
      }
      printf("FAILURE: firmware: %u configuration error(s) in %s; nothing programmed\n", nerr,
             fw_conf.c_str());
      return;
    }
    static xtm_mmio_txn_t txns[200000];
    xtm_mmio_trace_t ts;
    xtm_mmio_t traced;
    if (xtm_mmio_trace_init(&traced, &ts, &io, txns, sizeof(txns) / sizeof(txns[0])) != kXtmFwOk) {
      printf("FAILURE: firmware: trace wrapper\n");
      return;
    }
    xtm_fw_bringup_opts_t bo = {};
    bo.do_reset = true;
    bo.init_max_polls = 100000;
    xtm_fw_bringup_result_t br;
    st = xtm_fw_bringup(&traced, &r.cfg, &bo, &h, &br);
    bool ok = st == kXtmFwOk;
    if (!ok) {
      printf(
          "FAILURE: firmware: bring-up failed at step %s: %s (ERR_STATUS 0x%x, ERR_ADDR 0x%04x)\n",
          xtm_fw_step_name(br.failed_step), xtm_fw_status_name(st), br.err_status, br.err_addr);
    } else if (br.dcqcn_pending) {
      printf(
          "firmware: the configuration has dcqcn parameters: not part of this co-simulation "
          "(the dcqcn block has its own, tb/dcqcn_tb.cpp)\n");
    }
    // the trace is written even after a failure: it shows the failing access
    if (!fw_trace.empty()) {
      FILE *f = fopen(fw_trace.c_str(), "w");
      if (f == nullptr || ts.dropped != 0) {
        printf("FAILURE: firmware: cannot write the trace %s\n", fw_trace.c_str());
        ok = false;
      } else {
        xtm_fw_trace_write_tsv(f, txns, ts.len, false);
      }
      if (f != nullptr) fclose(f);
    }
    if (ok && !fw_dump.empty()) {
      FILE *f = fopen(fw_dump.c_str(), "w");
      if (f == nullptr || xtm_fw_regdump(f, &h) != kXtmFwOk) {
        printf("FAILURE: firmware: cannot write the register dump %s\n", fw_dump.c_str());
        ok = false;
      }
      if (f != nullptr) fclose(f);
    }
    printf("firmware: %s: %" PRIu64 " APB transfers, %" PRIu64 " resets, %zu traced\n",
           fw_conf.c_str(), fw_accesses, fw_resets, ts.len);
    fw_ok = ok && !done;
  }
};

// ------------------------------------------------------------------ main
// Every plusarg this testbench reads (docs/cosim.md, "Plusargs"); anything else, or one of
// these twice, is a usage error before anything is simulated. The number ranges are
// plusargs_common's.
static const TbArg kXtmArgs[] = {
    {"test", 's', 0, 0},
    {"seed", 'n', 0, UINT64_MAX},
    {"cycles", 'n', 0, UINT64_MAX / 2},
    {"trace", 'f', 0, 0},
    {"trace_start", 'n', 0, UINT64_MAX},
    {"state_every", 'n', 0, UINT64_MAX},
    {"max_errors", 'n', 0, UINT64_MAX},
    {"out", 's', 0, 0},
    {"list", 'f', 0, 0},
    {"quiet", 'f', 0, 0},
    {"rtl_only", 'f', 0, 0},
    {"eager", 'f', 0, 0},
    {"fw", 's', 0, 0},
    {"fw_trace", 's', 0, 0},
    {"fw_dump", 's', 0, 0},
    {"fcov", 's', 0, 0},
    {"cov_file", 's', 0, 0},
    {"state_detailed", 'f', 0, 0},
    {"state_fault", 's', 0, 0},
    {"apb_no_wait", 'f', 0, 0},
};

int sc_main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  TbOptions opt;
  std::string v;
  std::string why;
  if (!tb_check_plusargs(argc, argv, kXtmArgs, sizeof(kXtmArgs) / sizeof(kXtmArgs[0]), &why)) {
    fprintf(stderr, "error: %s\n", why.c_str());
    return 2;
  }
  if (plusarg(argc, argv, "list", nullptr)) {
    xtm_list_tests();
    return 0;
  }
  plusargs_common(argc, argv, opt);
#ifdef XTM_TB_NETLIST
  opt.state_every = 0;  // netlist (make gls): every output every cycle, no internal state
  printf(
      "netlist: %s (internal-state comparison off); rerun: make gls-run BLK=xtm TEST=%s "
      "SEED=%" PRIu64 "\n",
      XTM_TB_NETLIST, opt.test.c_str(), opt.seed);
#endif
  opt.quiet = plusarg(argc, argv, "quiet", nullptr);
  opt.rtl_only = plusarg(argc, argv, "rtl_only", nullptr);
  bool eager = plusarg(argc, argv, "eager", nullptr);  // model evaluates every cycle
  std::string fw_conf, fw_trace, fw_dump;
  bool fw_mode = plusarg(argc, argv, "fw", &fw_conf);
  plusarg(argc, argv, "fw_trace", &fw_trace);
  plusarg(argc, argv, "fw_dump", &fw_dump);
  if (fw_mode && (fw_conf.empty() || opt.rtl_only)) {
    printf(
        "+fw needs a configuration file (+fw=<conf>) and the model (no +rtl_only)\nTEST FAILED "
        "CHECKS\n");
    return 2;
  }
  if (fw_mode) {
    opt.test = "fw";
    printf("reproduce: make fw-cosim CONF=%s CFG=%s\n", fw_conf.c_str(), XTM_TB_CFG);
  } else {
    printf("seed: %" PRIu64 "\n", opt.seed);
    printf("reproduce: make sim TEST=%s SEED=%" PRIu64 " CFG=%s\n", opt.test.c_str(), opt.seed,
           XTM_TB_CFG);
  }

  Verilated::commandArgs(argc, argv);
  auto *ctx = new VerilatedContext;
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);
  ctx->fatalOnError(false);  // an assertion failure is reported as a FAILURE, then the run ends
  Vxtm_top *dut = new Vxtm_top{ctx, "dut"};

  // the C model with the DUT's parameters, checked against the DUT's HW_PARAMS (STYLE 35)
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = XTM_TB_PORTS;
  prm.num_tcs = XTM_TB_TCS;
  prm.num_desc = XTM_TB_DESC;
#ifdef XTM_TB_CELL  // CFG=wide (issue 21): the cell counts at the top of their 28 bits
  prm.cell_bytes = XTM_TB_CELL;
  prm.ocb_cells = XTM_TB_OCB;
  prm.hbm_cells = XTM_TB_HBM;
#endif
  xtm_t *model = nullptr;
  if (xtm_create(&prm, &model) != kXtmOk) {
    printf("FAILURE: cannot create the C model\nTEST FAILED CHECKS\n");
    return 2;
  }
  // firmware mode: no traffic (the base test: idle inputs, all MACs ready, no CSR ops)
  if (eager) {
    xtm_set_eager(model, true);
  }
  XtmTest *test =
      fw_mode ? new XtmTest("fw", opt.seed, prm) : xtm_make_test(opt.test, opt.seed, prm);
  if (test == nullptr) {
    printf("unknown test '%s'; +list shows the tests\nTEST FAILED CHECKS\n", opt.test.c_str());
    return 2;
  }
  if (opt.cycles == 0) opt.cycles = test->default_cycles();

  XtmTb tb("tb");
  tb.dut = dut;
  tb.probe = new XtmProbe(dut, prm.num_tcs);
  tb.snap = new xtm_snap_t;
  xtm_snap_init(tb.snap);
  tb.img = new XtmProbe::Image();  // value-initialised: zero, as the snapshot
  tb.state_detailed = plusarg(argc, argv, "state_detailed", nullptr);
  if (plusarg(argc, argv, "state_fault", &v)) {
    char field[32];
    unsigned idx = 0;
    unsigned long long at = 0;
    bool parsed = sscanf(v.c_str(), "%31[a-z_]:%u:%llu", field, &idx, &at) == 3;
    XtmProbe::FaultKind k = parsed ? XtmProbe::fault_kind(field) : XtmProbe::kFaultUnknown;
    if (parsed && strcmp(field, "image") == 0 && XtmProbe::kAvailable) {
      k = XtmProbe::kFaultVoq;  // the image's occupancy entry: tests the state.image check
    }
    uint32_t n = k == XtmProbe::kFaultVoq      ? prm.num_ports * prm.num_tcs
                 : k == XtmProbe::kFaultPg     ? prm.num_ports * 8
                 : k == XtmProbe::kFaultPol    ? prm.num_ports * XTM_POLS_PER_PORT
                 : k == XtmProbe::kFaultGlobal ? 1
                                               : 0;
    if (idx >= n) {
      printf(
          "+state_fault=%s: expected <field>:<index>:<logical cycle> with a field of "
          "XtmProbe::flip and an index in range\nTEST FAILED CHECKS\n",
          v.c_str());
      return 2;
    }
    tb.fault_field = field;
    tb.fault_index = idx;
    tb.fault_cycle = at;
  }
  tb.model = model;
  tb.test = test;
  tb.opt = opt;
  tb.nports = prm.num_ports;
  tb.ntcs = prm.num_tcs;
  if (plusarg(argc, argv, "fcov", nullptr)) tb.fcov = new XtmFcov;
  tb.fw_conf = fw_conf;
  tb.fw_trace = fw_trace;
  tb.fw_dump = fw_dump;
  tb.apb_no_wait = plusarg(argc, argv, "apb_no_wait", nullptr);
  std::string dir =
      opt.out.empty() ? fmt("sim/out/%s.%" PRIu64, opt.test.c_str(), opt.seed) : opt.out;
  if (!mkdir_p(dir)) {
    fprintf(stderr, "error: cannot create the output directory %s: %s\n", dir.c_str(),
            strerror(errno));
    return 2;
  }
  tb.trace_dut = fopen((dir + "/trace_dut.tsv").c_str(), "w");
  tb.trace_model = fopen((dir + "/trace_model.tsv").c_str(), "w");
  if (tb.trace_dut == nullptr || tb.trace_model == nullptr) {
    fprintf(stderr, "error: cannot write the traces in %s: %s\n", dir.c_str(), strerror(errno));
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
  }
  sc_start();

  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - tb.t0).count();
  if (tb.tfp != nullptr) {
    tb.tfp->close();
  }
  bool test_ok = test->final_check(model);
  printf("---- summary (%s, %s)\n", opt.test.c_str(), XTM_TB_CFG);
  printf("test: %s\nseed: %" PRIu64 "\ncycles: %" PRIu64 "\n", opt.test.c_str(), opt.seed,
         tb.cycle);
  tb_print_stamp(XTM_VERSION_VALUE, fmt("%s (%u ports x %u TCs x %u descriptors)", XTM_TB_CFG,
                                        prm.num_ports, prm.num_tcs, prm.num_desc));
  printf("packets_in: %" PRIu64 "\npackets_out: %" PRIu64 "\n", tb.packets_in, tb.packets_out);
  for (int r = kXtmReasonTail; r <= kXtmReasonNotReady; r++) {
    printf("drops_%s: %" PRIu64 "\n", xtm_reason_lc(r).c_str(), tb.drops[r]);
  }
  printf("drops_%s: %" PRIu64 "\n", xtm_reason_lc(kXtmReasonPolice).c_str(),
         tb.drops[kXtmReasonPolice]);
  printf("flushed: %" PRIu64 "\n", tb.flushes);
  uint64_t marks = 0;
  for (uint32_t vq = 0; vq < prm.num_ports * prm.num_tcs; vq++) {
    marks += xtm_voq_counter(model, vq, kXtmVcntMarkTail) +
             xtm_voq_counter(model, vq, kXtmVcntMarkHead) +
             xtm_voq_counter(model, vq, kXtmVcntMarkLat);
  }
  printf("ecn_marks: %" PRIu64 "\npfc_frames: %" PRIu64 "\n", marks, tb.pfc_frames);
  printf("mismatches: %" PRIu64 "\n", tb.errors);
  printf("state_compares: %" PRIu64 " (%" PRIu64 " field by field)\n", tb.state_checks,
         tb.state_detailed_runs);
  printf("cycles_per_s: %.0f\n", secs > 0 ? tb.cycle / secs : 0.0);
  printf("traces: %s/trace_model.tsv %s/trace_dut.tsv\n", dir.c_str(), dir.c_str());
  if (opt.trace) {
    printf("waves: %s/waves.fst\ngtkwave: gtkwave %s/waves.fst sim/waves/xtm.gtkw\n", dir.c_str(),
           dir.c_str());
  } else if (fw_mode) {
    printf("waves: rerun with WAVES=1 (make sim CFG=%s WAVES=1 PLUSARGS=+fw=%s)\n", XTM_TB_CFG,
           fw_conf.c_str());
  } else {
    std::string cyc = opt.cycles != 0 ? fmt(" CYCLES=%" PRIu64, opt.cycles) : "";
    printf("waves: rerun with WAVES=1 (make sim TEST=%s SEED=%" PRIu64 " CFG=%s%s WAVES=1)\n",
           opt.test.c_str(), opt.seed, XTM_TB_CFG, cyc.c_str());
  }
  if (plusarg(argc, argv, "fcov", &v) && !tb.fcov->write(v, model))
    printf("cannot write %s\n", v.c_str());
#if VM_COVERAGE  // coverage builds (tests/regress/regress.mk): +cov_file=<file>
  if (!plusarg(argc, argv, "cov_file", &v)) v = dir + "/coverage.dat";
  ctx->coveragep()->write(v.c_str());
#endif
  bool ok = tb.errors == 0 && test_ok && (!fw_mode || tb.fw_ok);
  printf("%s\n", ok ? "TEST PASSED CHECKS" : "TEST FAILED CHECKS");
  if (tb.trace_dut) fclose(tb.trace_dut);
  if (tb.trace_model) fclose(tb.trace_model);
  dut->final();
  delete dut;
  delete test;
  xtm_destroy(model);
  return ok ? 0 : 1;
}
