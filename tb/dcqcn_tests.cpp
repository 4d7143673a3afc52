// SPDX-License-Identifier: Apache-2.0
//
// DCQCN co-simulation tests: directed scenarios of docs/spec-dcqcn.md and constrained-random
// CNP / traffic / CE patterns over all QPs. See tb/dcqcn_tests.h.

#include "tb/dcqcn_tests.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" {
#include "rtl/dcqcn/autogen/dcqcn_csr_edges.h"  // Generated: the legal-range edges.
#include "rtl/dcqcn/autogen/dcqcn_regs.h"       // Generated.
}

#include "tb/csr_edges.h"

namespace {

uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

enum Kind {
  kSmoke,
  kFirstCnp,
  kCut50,
  kCut95,
  kAlphaDecay,
  kRecTimer,
  kRecBytes,
  kRecBoth,
  kClamps,
  kMinMax,
  kNpSpacing,
  kSameCycle,
  kBadQp,
  kCsrTraffic,
  kRandom,
  kWidths
};

struct Entry {
  const char *name;
  Kind kind;
  uint64_t cycles;
  const char *desc;
};

const Entry kTests[] = {
    {"smoke", kSmoke, 60000, "first CNPs on every QP, cuts, traffic, CE"},
    {"first_cnp", kFirstCnp, 60000, "first CNP on every QP (RATE_TO_SET_ON_FIRST_CNP set)"},
    {"cut_fac50", kCut50, 100000, "repeated cuts, RPG_MIN_DEC_FAC = 50"},
    {"cut_fac95", kCut95, 100000, "repeated cuts, RPG_MIN_DEC_FAC = 95"},
    {"alpha_decay", kAlphaDecay, 100000, "alpha raised by CNPs, then decaying to 0"},
    {"recovery_timer", kRecTimer, 150000, "cuts, then recovery by the increase timer only"},
    {"recovery_bytes", kRecBytes, 150000, "cuts, then recovery by the byte counter only"},
    {"recovery_both", kRecBoth, 150000, "cuts, recovery by timer and bytes (hyper increase)"},
    {"clamps", kClamps, 150000, "CLAMP_TGT_RATE / CLAMP_TGT_RATE_AFTER_TIME_INC toggled"},
    {"min_max_rate", kMinMax, 150000,
     "rate floor and cap, first-CNP rate above the cap, cap change"},
    {"np_spacing", kNpSpacing, 100000, "CE bursts around MIN_TIME_BETWEEN_CNPS, then 0"},
    {"same_cycle", kSameCycle, 150000, "CNP / tx in the visit cycle of a due timer (D4)"},
    {"bad_qp", kBadQp, 50000, "CNP, tx and CE with qp >= NumQps"},
    {"csr_traffic", kCsrTraffic, 150000, "random CSR accesses (all kinds) under random traffic"},
    {"random", kRandom, 300000, "constrained-random parameters, CNP / traffic / CE patterns"},
    {"widths", kWidths, 400000,
     "every rate, alpha, byte-counter, timer and QP-index field at its maximum"},
};

class Test : public DcqcnTest {
 public:
  Test(const Entry &e, uint64_t s, uint32_t n) : e_(e) {
    name = e.name;
    seed = s;
    nqps = n;
    rnq_ = n;
    seen_.assign(n, false);
    rs_ = s * 0x2545F4914F6CDD1Dull + 1;
    setup();
  }
  uint64_t default_cycles() const override { return e_.cycles; }

  void stimulus(uint64_t c, const dcqcn_t *m, dcqcn_in_t &in) override;
  void observe(uint64_t c, const dcqcn_in_t &in, const dcqcn_out_t &out) override {
    (void)c;
    (void)in;
    for (uint32_t i = 0; i < out.n_rate; i++) {
      if (out.rate[i].rc == floor_) floor_hits_++;
      if (e_.kind == kWidths) {  // issue 21: the rate stream at the top of its fields
        w_rate_ += out.rate[i].rc == 1000000 || out.rate[i].rt == 1000000;
        w_alpha_ += out.rate[i].alpha == 1023;
        w_qp_ += out.rate[i].qp == nqps - 1;
      }
    }
    if (in.cnp.valid && in.cnp.qp < nqps && !seen_[in.cnp.qp]) {
      seen_[in.cnp.qp] = true;
      n_seen_++;
    }
  }
  bool final_check(const dcqcn_t *m, std::string *why) override;
  void csr_result(uint64_t, const DcqcnCsrOp &op, uint32_t rdata) override {
    if (e_.kind == kWidths && op.addr >= DCQCN_Q_ALPHA_REMAIN_REG_OFFSET &&
        op.addr <= DCQCN_Q_INC_REMAIN_REG_OFFSET && rdata == 0xFFFFFFFFu) {
      w_remain_sat_++;  // a deadline more than 2^32 - 1 cycles ahead, saturated (D9)
    }
  }

 private:
  uint64_t w_rate_ = 0, w_alpha_ = 0, w_qp_ = 0, w_remain_sat_ = 0;
  uint64_t rnd() { return splitmix(&rs_); }
  uint64_t rnd(uint64_t n) { return n == 0 ? 0 : rnd() % n; }
  void wr(const char *pname, uint32_t v) {
    uint16_t a;
    uint32_t lo, hi;
    if (dcqcn_param_lookup(pname, &a, &lo, &hi) == kDcqcnOk) {
      csr.push_back({true, a, v});
    }
  }
  void setup();
  void traffic(uint64_t c, dcqcn_in_t &in, uint32_t p_cnp, uint32_t p_tx, uint32_t p_ce,
               uint32_t nq, uint32_t p_bad);
  void random_csr(uint64_t c);

  Entry e_;
  uint64_t rs_;
  uint32_t cpu_ = 100;
  uint32_t floor_ = 0;
  uint64_t floor_hits_ = 0;
  uint64_t same_alpha_ = 0, same_dec_ = 0, same_inc_ = 0;
  // largest CNP_RX seen during the run: CLR_CNT (csr_traffic) may clear it just before the end
  uint64_t cnp_rx_seen_ = 0;
  uint32_t rp_cnp_ = 2, rp_tx_ = 30, rp_ce_ = 5, rnq_ = 64;
  std::vector<bool> seen_;  // QPs that received a CNP
  uint64_t n_seen_ = 0;
  uint64_t start_ = 0;  // first cycle of the traffic: the configuration writes are done
  bool started_ = false;
};

void Test::setup() {
  // Every test runs with CYCLES_PER_US = 100 (periods: alpha 100, decrease 400 cycles) so
  // that timers fire often; the random test draws its own.
  switch (e_.kind) {
    case kRandom: {
      cpu_ = 20 + (uint32_t)rnd(200);
      wr("CYCLES_PER_US", cpu_);
      wr("RPG_TIME_RESET", 1 + (uint32_t)rnd(20));
      wr("RPG_BYTE_RESET", 1 + (uint32_t)rnd(200));
      wr("RPG_THRESHOLD", 1 + (uint32_t)rnd(5));
      wr("RPG_AI_RATE", (uint32_t)rnd(2000));
      wr("RPG_HAI_RATE", (uint32_t)rnd(20000));
      wr("RPG_GD", (uint32_t)rnd(16));
      wr("RPG_MIN_DEC_FAC", (uint32_t)rnd(101));
      wr("RPG_MIN_RATE", 1 + (uint32_t)rnd(5000));
      wr("RPG_MAX_RATE", rnd(2) ? 0 : 10000 + (uint32_t)rnd(100000));
      wr("RATE_TO_SET_ON_FIRST_CNP", rnd(2) ? 0 : (uint32_t)rnd(200000));
      wr("DCE_TCP_G", 900 + (uint32_t)rnd(124));
      wr("DCE_TCP_RTT", 1 + (uint32_t)rnd(3));
      wr("INITIAL_ALPHA_VALUE", (uint32_t)rnd(1024));
      wr("CLAMP_TGT_RATE", (uint32_t)rnd(2));
      wr("CLAMP_TGT_RATE_AFTER_TIME_INC", (uint32_t)rnd(2));
      wr("RATE_REDUCE_MONITOR_PERIOD", 1 + (uint32_t)rnd(8));
      wr("MIN_TIME_BETWEEN_CNPS", (uint32_t)rnd(6));
      wr("LINE_RATE", 25000 + (uint32_t)rnd(400000));
      rp_cnp_ = 1 + (uint32_t)rnd(8);
      rp_tx_ = 5 + (uint32_t)rnd(60);
      rp_ce_ = (uint32_t)rnd(10);
      return;
    }
    case kWidths: {
      // issue 21: every field at the top of its legal range. Phase 1 (until t = 20000): the
      // slowest clock (CYCLES_PER_US = 65535) with every period at 131071 us, so each
      // deadline is 131071 * 65535 = 8 589 737 985 cycles away (beyond 32 bits: the
      // Q_*_REMAIN registers saturate at 2^32-1); phase 2: CYCLES_PER_US = 1, the same periods fire
      // every 131071 cycles, RPG_MIN_DEC_FAC 0 and RPG_GD 0 (the cut's products at their top). CNPs
      // go to QP 0 in phase 1 and to the highest QP index in phase 2. Rates at 1000000 Mb/s, alpha
      // and g at 1023, RPG_BYTE_RESET 32767 units (2 097 088 bytes: 32 packets of 65535
      // bytes), RPG_THRESHOLD 31, RPG_GD 15, RPG_MIN_DEC_FAC 100 (no cut) in phase 1.
      wr("CYCLES_PER_US", 65535);
      wr("LINE_RATE", 1000000);
      wr("RPG_MAX_RATE", 1000000);
      wr("RATE_TO_SET_ON_FIRST_CNP", 1000000);
      wr("RPG_AI_RATE", 1000000);
      wr("RPG_HAI_RATE", 1000000);
      wr("RPG_MIN_RATE", 1000000);
      wr("INITIAL_ALPHA_VALUE", 1023);
      wr("DCE_TCP_G", 1023);
      wr("RPG_BYTE_RESET", 32767);
      wr("RPG_THRESHOLD", 31);
      wr("RPG_GD", 15);
      wr("RPG_MIN_DEC_FAC", 100);
      wr("RPG_TIME_RESET", 131071);
      wr("DCE_TCP_RTT", 131071);
      wr("RATE_REDUCE_MONITOR_PERIOD", 131071);
      wr("MIN_TIME_BETWEEN_CNPS", 131071);
      return;
    }
    default:
      break;
  }
  wr("CYCLES_PER_US", cpu_);
  switch (e_.kind) {
    case kFirstCnp:
      wr("RATE_TO_SET_ON_FIRST_CNP", 40000);
      break;
    case kCut95:
      wr("RPG_MIN_DEC_FAC", 95);
      break;
    case kAlphaDecay:
      wr("DCE_TCP_G", 960);
      break;
    case kRecTimer:
      wr("RPG_TIME_RESET", 3);
      break;
    case kRecBytes:
      wr("RPG_TIME_RESET", 131071);
      wr("RPG_BYTE_RESET", 8);
      break;
    case kRecBoth:
      wr("RPG_TIME_RESET", 3);
      wr("RPG_BYTE_RESET", 8);
      wr("RPG_HAI_RATE", 500);
      break;
    case kClamps:
      wr("CLAMP_TGT_RATE", 1);
      wr("RPG_TIME_RESET", 2);
      wr("RPG_BYTE_RESET", 16);
      break;
    case kMinMax:
      floor_ = 30000;
      wr("RPG_MIN_RATE", 30000);
      wr("RPG_MAX_RATE", 60000);
      wr("RATE_TO_SET_ON_FIRST_CNP", 90000);  // above the cap: saturated (D6.2)
      wr("RPG_GD", 4);
      wr("RPG_TIME_RESET", 2);
      break;
    case kNpSpacing:
      wr("MIN_TIME_BETWEEN_CNPS", 1);
      break;
    case kSameCycle:
      wr("RPG_TIME_RESET", 2);
      wr("RPG_BYTE_RESET", 4);
      break;
    default:
      break;
  }
}

void Test::traffic(uint64_t c, dcqcn_in_t &in, uint32_t p_cnp, uint32_t p_tx, uint32_t p_ce,
                   uint32_t nq, uint32_t p_bad) {
  (void)c;
  auto qp = [&]() -> uint16_t {
    return (uint16_t)(rnd(100) < p_bad ? nqps + rnd(0x10000 - nqps) : rnd(nq));
  };
  if (rnd(100) < p_cnp) in.cnp = {true, qp()};
  if (rnd(100) < p_tx) in.tx = {true, qp(), (uint16_t)(rnd(8) == 0 ? rnd(65536) : 64 + rnd(4000))};
  if (rnd(100) < p_ce) in.ce = {true, qp()};
}

void Test::random_csr(uint64_t c) {
  (void)c;
  uint64_t k = rnd(16);
  uint16_t a = 0;
  if (k < 5) {  // a parameter: mostly legal, sometimes any value (may be ILLEGAL)
    uint32_t i = (uint32_t)rnd(19);
    uint16_t pa;
    uint32_t lo, hi;
    if (dcqcn_param_lookup(dcqcn_param_name(i), &pa, &lo, &hi) != kDcqcnOk) return;
    uint32_t v = rnd(4) == 0 ? (uint32_t)rnd() : lo + (uint32_t)rnd((uint64_t)hi - lo + 1);
    // keep the run lively: short periods, a clock of 20..200 cycles per us
    if (pa == DCQCN_CYCLES_PER_US_REG_OFFSET) v = 20 + (uint32_t)rnd(180);
    if (pa == DCQCN_RPG_TIME_RESET_REG_OFFSET || pa == DCQCN_DCE_TCP_RTT_REG_OFFSET ||
        pa == DCQCN_RATE_REDUCE_MONITOR_PERIOD_REG_OFFSET)
      v = (uint32_t)rnd(12);  // 0 is illegal
    csr.push_back({true, pa, v});
    return;
  }
  switch (k) {
    case 5:
      csr.push_back({true, DCQCN_QP_SEL_REG_OFFSET, (uint32_t)rnd(nqps + 6)});
      return;
    case 6:
      csr.push_back({true, DCQCN_Q_CTRL_REG_OFFSET, (uint32_t)rnd(2)});
      return;
    case 7:  // CLR_CNT only in csr_traffic: the random summary counts the whole run
      csr.push_back(
          {true, DCQCN_CTRL_REG_OFFSET, (e_.kind == kCsrTraffic && rnd(8) == 0) ? 1u : 0u});
      return;
    case 8:
      csr.push_back({true, DCQCN_ERR_STATUS_REG_OFFSET, (uint32_t)rnd(8)});
      return;
    case 9:
      a = (uint16_t)(0x100 + 4 * rnd(26));
      break;  // global counters
    case 10:
      a = (uint16_t)(0x240 + 4 * rnd(10));
      break;  // QP counters
    case 11:
      a = (uint16_t)(0x200 + 4 * rnd(10));
      break;  // QP window
    case 12:
      a = (uint16_t)(4 * rnd(0x28 / 4));
      break;  // identification, control
    case 13:
      a = (uint16_t)rnd(0x400);
      break;  // anything, misaligned too
    default:
      a = (uint16_t)(0x40 + 4 * rnd(17));
      break;  // parameters
  }
  bool w = rnd(6) == 0;  // writes to RO / unmapped addresses
  csr.push_back({w, a, (uint32_t)rnd()});
}

void Test::stimulus(uint64_t c, const dcqcn_t *m, dcqcn_in_t &in) {
  if (!started_) {  // the configuration writes go first (18 cycles per APB access)
    if (c < 60 || !csr.empty()) return;
    started_ = true;
    start_ = c + 20;
  }
  if (c < start_) return;
  uint64_t t = c - start_;
  const uint32_t nq = nqps;
  switch (e_.kind) {
    case kSmoke:
      if (t < nq * 8) {
        if (t % 8 == 0) in.cnp = {true, (uint16_t)(t / 8)};
      } else {
        traffic(c, in, 3, 20, 3, nq, 0);
      }
      break;
    case kFirstCnp:
      if (rnd(100) < 3) in.cnp = {true, (uint16_t)rnd(nq)};
      if (rnd(100) < 20) in.tx = {true, (uint16_t)rnd(nq), (uint16_t)(64 + rnd(1500))};
      break;
    case kCut50:
    case kCut95:
      if (t % 150 == 0) in.cnp = {true, (uint16_t)rnd(16)};
      if (rnd(100) < 10) in.tx = {true, (uint16_t)rnd(16), (uint16_t)(64 + rnd(1500))};
      break;
    case kAlphaDecay:
      if (t < 20000 && t % 50 == 0) in.cnp = {true, (uint16_t)rnd(8)};
      break;
    case kRecTimer:
      if (t < 20000 && t % 100 == 0) in.cnp = {true, (uint16_t)rnd(32)};
      break;
    case kRecBytes:
    case kRecBoth:
      if (t < 20000 && t % 100 == 0) in.cnp = {true, (uint16_t)rnd(32)};
      if (rnd(100) < 50) in.tx = {true, (uint16_t)rnd(32), (uint16_t)(64 + rnd(1500))};
      break;
    case kClamps:
      if (t == 50000) csr.push_back({true, DCQCN_CLAMP_TGT_RATE_REG_OFFSET, 0});
      if (t == 90000) csr.push_back({true, DCQCN_CLAMP_TGT_RATE_AFTER_TIME_INC_REG_OFFSET, 0});
      traffic(c, in, 2, 30, 0, 16, 0);
      break;
    case kMinMax:
      if (t == 70000) csr.push_back({true, DCQCN_LINE_RATE_REG_OFFSET, 50000});
      if (t == 110000) csr.push_back({true, DCQCN_RPG_MAX_RATE_REG_OFFSET, 0});
      traffic(c, in, 3, 20, 0, 16, 0);
      break;
    case kNpSpacing:
      if (t == 60000) csr.push_back({true, DCQCN_MIN_TIME_BETWEEN_CNPS_REG_OFFSET, 0});
      if (rnd(100) < 30) in.ce = {true, (uint16_t)rnd(8)};
      break;
    case kSameCycle: {
      // QPs 0..7 (scan group 0 and 1): CNP and tx in the cycle their due timer fires
      if (t < 200) {
        if (t % 20 == 0) in.cnp = {true, (uint16_t)(t / 20 % 8)};
        break;
      }
      uint32_t s = dcqcn_scan_period(m), u = dcqcn_params(m)->scan_width;
      for (uint32_t q = 0; q < 8; q++) {
        if (c % s != q / u) continue;
        dcqcn_qp_state_t st;
        dcqcn_qp_state(m, q, &st);
        bool a = st.alpha_due <= c, d = st.dec_due <= c, i = st.inc_due <= c;
        if ((a || d || i) && !in.cnp.valid && rnd(2) == 0) {
          in.cnp = {true, (uint16_t)q};
          same_alpha_ += a;
          same_dec_ += d;
          same_inc_ += i;
        }
        if (i && !in.tx.valid) in.tx = {true, (uint16_t)q, (uint16_t)(64 + rnd(300))};
      }
      if (!in.cnp.valid && rnd(100) < 1) in.cnp = {true, (uint16_t)rnd(8)};
      break;
    }
    case kBadQp:
      traffic(c, in, 10, 30, 10, nq, 30);
      break;
    case kCsrTraffic:
      cnp_rx_seen_ = std::max(cnp_rx_seen_, dcqcn_counter(m, kDcqcnGcntCnpRx));
      if (csr.empty() && rnd(4) == 0) random_csr(c);
      traffic(c, in, 3, 30, 5, nq, 2);
      break;
    case kRandom:
      if (csr.empty() && rnd(5000) == 0) random_csr(c);
      traffic(c, in, rp_cnp_, rp_tx_, rp_ce_, rnq_, 1);
      break;
    case kWidths: {
      uint16_t hi = (uint16_t)(nq - 1);
      if (t == 20000) {
        wr("CYCLES_PER_US", 1);
        wr("RPG_MIN_RATE", 1);  // cuts can now go below the line rate
        // the cut's products at their top (D6.2): Rc * (100 - 0) = 10^8 of the 27-bit
        // product at Rc = 1000000, (Rc * 1023) >> 0 of the alpha cut
        wr("RPG_MIN_DEC_FAC", 0);
        wr("RPG_GD", 0);
      }
      // the QP window of the highest QP read now and then (RC, RT, ALPHA, BYTE_COUNT, the
      // REMAIN registers saturated in phase 1)
      // phase 1: QP 0 (its deadlines armed at the slow clock, beyond 2^32 cycles), phase 2:
      // the highest QP (armed at the fast clock: its timers fire)
      uint16_t q = t < 20000 ? 0 : hi;
      if (t % 5000 == 100 && csr.empty()) {
        csr.push_back({true, DCQCN_QP_SEL_REG_OFFSET, q});
        for (uint16_t a = DCQCN_Q_RC_REG_OFFSET; a <= DCQCN_Q_NEXT_SEND_REG_OFFSET; a += 4)
          csr.push_back({false, a, 0});
      }
      // CNPs every 3000 cycles on the highest QP (and QP 0), max-size packets every cycle
      // no CNP after t = 140000: the cut of the decrease timer at about t0 + 131071 is the
      // last, and the increase timer it restarts fires 131071 cycles later
      if (t % 3000 == 0 && t < 140000) in.cnp = {true, q};
      in.tx = {true, (uint16_t)(t % 2 ? 0 : hi), 65535};
      if (t % 7 == 0) in.ce = {true, hi};
      break;
    }
  }
}

bool Test::final_check(const dcqcn_t *m, std::string *why) {
  auto g = [&](dcqcn_gcnt_t k) { return dcqcn_counter(m, k); };
  char b[200];
  bool ok = true;
  switch (e_.kind) {
    case kFirstCnp: {  // every QP that got a CNP had its first CNP (or has it pending)
      uint64_t pending = 0;
      for (uint32_t q = 0; q < nqps; q++) {
        dcqcn_qp_state_t st;
        dcqcn_qp_state(m, q, &st);
        pending += st.pend_cnp;
      }
      ok = n_seen_ > 0 && g(kDcqcnGcntCnpFirst) + pending == n_seen_;
      break;
    }
    case kSmoke:
    case kCut50:
    case kCut95:
    case kClamps:
      ok = g(kDcqcnGcntCuts) > 0;
      break;
    case kAlphaDecay: {
      dcqcn_qp_state_t s;
      dcqcn_qp_state(m, 0, &s);
      ok = s.active && s.alpha == 0 && g(kDcqcnGcntCuts) > 0;
      break;
    }
    case kRecTimer:
      ok = g(kDcqcnGcntIncByTimer) > 0 && g(kDcqcnGcntIncByBytes) == 0;
      break;
    case kRecBytes:
      ok = g(kDcqcnGcntIncByBytes) > 0 && g(kDcqcnGcntIncByTimer) == 0;
      break;
    case kRecBoth:
      ok = g(kDcqcnGcntIncHai) > 0;
      break;
    case kMinMax:
      ok = floor_hits_ > 0;
      break;
    case kNpSpacing:
      ok = g(kDcqcnGcntCeCoalesced) > 0 && g(kDcqcnGcntCnpTx) > 0;
      break;
    case kSameCycle:
      ok = same_alpha_ > 0 && same_dec_ > 0 && same_inc_ > 0;
      break;
    case kBadQp:
      ok = g(kDcqcnGcntBadQp) > 0;
      break;
    case kCsrTraffic:
      ok = std::max(cnp_rx_seen_, g(kDcqcnGcntCnpRx)) > 0;
      break;
    case kRandom:
      ok = g(kDcqcnGcntCnpRx) > 0;
      break;
    case kWidths:
      printf(
          "dcqcn_width_rate_max: %llu\ndcqcn_width_alpha_max: %llu\ndcqcn_width_qp_max: %llu\n"
          "dcqcn_width_remain_sat: %llu\ndcqcn_width_timer_max_period: %llu\n"
          "dcqcn_width_byte_reset_max: %llu\n",
          (unsigned long long)w_rate_, (unsigned long long)w_alpha_, (unsigned long long)w_qp_,
          (unsigned long long)w_remain_sat_, (unsigned long long)g(kDcqcnGcntIncByTimer),
          (unsigned long long)g(kDcqcnGcntIncByBytes));
      ok = g(kDcqcnGcntCuts) > 0 && g(kDcqcnGcntIncByBytes) > 0 && g(kDcqcnGcntIncByTimer) > 0 &&
           g(kDcqcnGcntCnpTx) > 0 && w_rate_ > 0 && w_alpha_ > 0 && w_qp_ > 0 && w_remain_sat_ > 0;
      break;
  }
  if (!ok) {
    snprintf(b, sizeof(b),
             "scenario not reached: cuts %llu inc_timer %llu inc_bytes %llu hai %llu "
             "coalesced %llu floor_hits %llu same %llu/%llu/%llu",
             (unsigned long long)g(kDcqcnGcntCuts), (unsigned long long)g(kDcqcnGcntIncByTimer),
             (unsigned long long)g(kDcqcnGcntIncByBytes), (unsigned long long)g(kDcqcnGcntIncHai),
             (unsigned long long)g(kDcqcnGcntCeCoalesced), (unsigned long long)floor_hits_,
             (unsigned long long)same_alpha_, (unsigned long long)same_dec_,
             (unsigned long long)same_inc_);
    *why = b;
  }
  return ok;
}

// csr_edges (issue 21): every field with a legal range in dcqcn_regs.toml at min-1, min,
// max and max+1, with the read-back, ERR_STATUS and ERR_ADDR checks of tb/csr_edges.h; no
// traffic. The QP window has no field with a range (QP_SEL is global).
class CsrEdges : public DcqcnTest {
 public:
  CsrEdges(uint64_t s, uint32_t n) {
    name = "csr_edges";
    seed = s;
    nqps = n;
    dcqcn_reg_params_t rp;
    dcqcn_reg_params_default(&rp);
    rp.num_qps = n;
    std::vector<dcqcn_reg_desc_t> regs(DCQCN_REG_COUNT);
    dcqcn_regs_build(&rp, regs.data(), regs.size());
    auto sel = [&](int) { return std::vector<CsrEdgeOp>{{true, DCQCN_QP_SEL_REG_OFFSET, n - 1}}; };
    chk_.build(regs, kDcqcnCsrEdges, DCQCN_CSR_EDGE_COUNT, DCQCN_ERR_STATUS_REG_OFFSET,
               DCQCN_ERR_ADDR_REG_OFFSET,
               DCQCN_ERR_STATUS_ILLEGAL_MASK << DCQCN_ERR_STATUS_ILLEGAL_OFFSET, 0x7u, sel);
    for (const CsrEdgeOp &op : chk_.ops) csr.push_back({op.write, op.addr, op.wdata});
  }
  uint64_t default_cycles() const override { return 20000; }
  void stimulus(uint64_t, const dcqcn_t *, dcqcn_in_t &) override {}
  void csr_result(uint64_t c, const DcqcnCsrOp &op, uint32_t rdata) override {
    if (op.addr == DCQCN_HW_PARAMS_REG_OFFSET && !started_)
      return;  // the testbench's own first read
    started_ = true;
    chk_.result(c, op.addr, rdata);
  }
  bool final_check(const dcqcn_t *, std::string *why) override {
    bool ok = chk_.final_check("dcqcn");
    chk_.print_points("dcqcn_edge_");
    if (!ok)
      *why = "csr_edges: a read-back, ERR_STATUS or ERR_ADDR check failed (FAILURE lines above)";
    return ok;
  }

 private:
  CsrEdgeChecker<dcqcn_reg_desc_t, dcqcn_csr_edge_t> chk_;
  bool started_ = false;
};

}  // namespace

DcqcnTest *dcqcn_make_test(const std::string &name, uint64_t seed, uint32_t nqps) {
  if (name == "csr_edges") return new CsrEdges(seed, nqps);
  for (const Entry &e : kTests) {
    if (name == e.name) return new Test(e, seed, nqps);
  }
  return nullptr;
}

void dcqcn_list_tests() {
  for (const Entry &e : kTests) printf("%-16s %s\n", e.name, e.desc);
  printf("%-16s %s\n", "csr_edges",
         "every field with a legal range: min-1, min, max, max+1 (generated table)");
}
