// SPDX-License-Identifier: Apache-2.0
//
// Stimulus for the xtm co-simulation: a test is a configuration (CSR writes over APB), a
// set of traffic flows (one enqueue port, one descriptor per cycle at most), PFC frames and
// MAC back-pressure, and optional CSR activity under traffic. Everything random is drawn
// from the test's seed, so <test>.<seed> reproduces a run exactly.

#ifndef XTM_TB_XTM_TESTS_H_
#define XTM_TB_XTM_TESTS_H_

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

extern "C" {
#include "cmodel/xtm/xtm.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.
}

struct TbOptions {
  std::string test = "smoke";
  uint64_t seed = 1;
  uint64_t cycles = 0;  // 0: the test's default
  bool trace = false;
  uint64_t trace_start = 0;
  uint64_t state_every = 1;
  uint64_t max_errors = 1;
  std::string out;
  bool quiet = false;
  bool rtl_only = false;  // benchmark: drive the RTL alone, no model, no comparison
};

struct CsrOp {
  bool write;
  uint16_t addr;
  uint32_t wdata;
  uint64_t not_before;  // earliest cycle of the setup phase
};

// A traffic flow: packets from in_port to eg_port at `rate_q16` bytes per cycle (Q16.16).
struct Flow {
  uint8_t in_port, eg_port, dscp, ecn;
  uint16_t len_min, len_max;
  uint64_t rate_q16;
  uint64_t start, stop;
  bool obey_pfc;  // stops while the TM pauses its ingress port for `pfc_prio`
  uint8_t pfc_prio;
  uint64_t next_q16;  // next departure, Q48.16 cycles
  uint64_t paused_until;
  uint32_t sent;
};

static inline uint64_t tb_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class XtmTest {
 public:
  XtmTest(const std::string &name, uint64_t seed, const xtm_params_t &p)
      : name_(name), rng_(seed * 0x2545F4914F6CDD1Dull + 1), prm_(p) {}
  virtual ~XtmTest() = default;
  virtual uint64_t default_cycles() const { return 20000; }

  // Fills this cycle's inputs (enqueue, PFC frames, tx_ready).
  virtual void stimulus(uint64_t t, xtm_in_t &in) {
    flows_step(t, in);
    for (auto &f : pfc_events_) {
      if (f.cycle == t && f.port < prm_.num_ports) {
        in.pfc_rx_valid |= 1ull << f.port;
        in.pfc_rx[f.port].vec = f.vec;
        for (int i = 0; i < 8; i++) in.pfc_rx[f.port].quanta[i] = f.quanta;
      }
    }
    in.tx_ready = tx_ready_at(t);
  }
  // The next CSR op to start at cycle t, if any.
  bool next_csr(uint64_t t, CsrOp &op) {
    if (csr_.empty() || csr_.front().not_before > t) return false;
    op = csr_.front();
    csr_.pop_front();
    return true;
  }
  virtual void csr_result(uint64_t, const CsrOp &, uint32_t) {}
  // Sees the (model's) outputs of each cycle: flows obeying PFC react to pfc_tx.
  virtual void observe(uint64_t t, const xtm_out_t &o) {
    uint64_t m = o.pfc_tx_valid;
    while (m != 0) {
      uint32_t p = __builtin_ctzll(m);
      m &= m - 1;
      for (auto &f : flows_) {
        if (f.obey_pfc && f.in_port == p && ((o.pfc_tx[p].vec >> f.pfc_prio) & 1u)) {
          uint16_t q = o.pfc_tx[p].quanta[f.pfc_prio];
          // the sender hears the frame after a cable delay and reacts after its response
          f.paused_until =
              q == 0 ? t + cable_ : t + cable_ + (uint64_t(q) * 0x51EB8 + 0xFFFF) / 65536;
          flows_idle_until_ = 0;
        }
      }
    }
  }
  virtual bool final_check(xtm_t *) { return true; }

 protected:
  struct PfcEvent {
    uint64_t cycle;
    uint32_t port;
    uint8_t vec;
    uint16_t quanta;
  };

  void wr(uint16_t a, uint32_t d, uint64_t not_before = 0) {
    csr_.push_back({true, a, d, not_before});
  }
  void rd(uint16_t a, uint64_t not_before = 0) { csr_.push_back({false, a, 0, not_before}); }
  // The VOQ and PG windows refuse accesses during the initialisation sweep (NOT_READY, spec
  // 3 and 15.6): a configuration write through them waits for INIT_DONE, so that a test
  // configures what it means on every configuration (INIT_CYCLES = 8 * NumPorts: 256 cycles
  // at CFG=large). Tests that aim at the refusal use wr()/rd() directly.
  uint64_t after_init(uint64_t nb) const {
    uint64_t i = XTM_INIT_CYCLES(prm_.num_ports);
    return nb > i ? nb : i;
  }
  void voq_wr(uint32_t v, uint16_t a, uint32_t d, uint64_t nb = 0) {
    wr(XTM_VOQ_SEL_REG_OFFSET, v, nb);
    wr(a, d, after_init(nb));
  }
  void port_wr(uint32_t p, uint16_t a, uint32_t d, uint64_t nb = 0) {
    wr(XTM_PORT_SEL_REG_OFFSET, p, nb);
    wr(a, d, nb);
  }
  void pg_wr(uint32_t p, uint32_t pr, uint16_t a, uint32_t d, uint64_t nb = 0) {
    wr(XTM_PG_SEL_REG_OFFSET, p * 8 + pr, nb);
    wr(a, d, after_init(nb));
  }
  void profile(uint32_t id, bool interp, std::vector<std::pair<uint32_t, uint32_t>> pts) {
    wr(XTM_PROF_SEL_REG_OFFSET, id);
    for (size_t i = 0; i < pts.size(); i++) {
      wr(XTM_PR_FILL_0_REG_OFFSET + 4 * i, pts[i].first);
      wr(XTM_PR_PROB_0_REG_OFFSET + 4 * i, pts[i].second);
    }
    wr(XTM_PR_CFG_REG_OFFSET, (interp ? 1u : 0u) | uint32_t(pts.size()) << 4);
  }
  static uint32_t qcfg(bool strict, bool no_loss, bool ecn, bool ntail, uint32_t mp, uint32_t prof,
                       bool rxen = false, uint32_t prio = 0, bool wd = false, bool shaper = false) {
    return 1u | strict << 1 | no_loss << 2 | ecn << 3 | ntail << 4 | mp << 5 | prof << 7 |
           rxen << 10 | prio << 11 | wd << 14 | shaper << 15;
  }
  void line_rate_shapers() {
    for (uint32_t p = 0; p < prm_.num_ports; p++) {
      port_wr(p, XTM_P_SHAPER_RATE_REG_OFFSET, 0x0C8000);
      port_wr(p, XTM_P_SHAPER_BURST_REG_OFFSET, 9216);
      port_wr(p, XTM_P_SHAPER_CFG_REG_OFFSET, 1u | 20u << 8);
    }
  }
  void add_flow(uint8_t in, uint8_t eg, uint8_t dscp, uint8_t ecn, uint16_t lmin, uint16_t lmax,
                double bytes_per_cycle, uint64_t start, uint64_t stop, bool obey = false,
                uint8_t prio = 0) {
    flows_.push_back({in, eg, dscp, ecn, lmin, lmax, uint64_t(bytes_per_cycle * 65536.0), start,
                      stop, obey, prio, start << 16, 0, 0});
    flows_idle_until_ = 0;
  }
  uint32_t rnd(uint32_t n) { return n == 0 ? 0 : uint32_t(tb_rand(&rng_) % n); }

  // One descriptor per cycle: the flow due earliest goes first; the others wait a cycle.
  // flows_idle_until_ caches the first cycle at which any flow can be eligible (start,
  // pause and departure time), so that a cycle before it skips the search; a send, a pause
  // (observe) and a new flow recompute or reset it.
  void flows_step(uint64_t t, xtm_in_t &in) {
    if (t < flows_idle_until_) return;
    Flow *best = nullptr;
    uint64_t best_due = UINT64_MAX;
    for (auto &f : flows_) {
      if (t < f.start || t >= f.stop || t < f.paused_until) continue;
      uint64_t due = (f.next_q16 + 0xFFFF) >> 16;
      if (due <= t && due < best_due) {
        best = &f;
        best_due = due;
      }
    }
    if (best != nullptr) {
      Flow &f = *best;
      uint16_t len = f.len_min + (f.len_max > f.len_min ? rnd(f.len_max - f.len_min + 1) : 0);
      in.enq = (xtm_enq_in_t){true,      (uint32_t(f.in_port) << 24) | (f.sent & 0xFFFFFF),
                              f.in_port, f.eg_port,
                              f.dscp,    f.ecn,
                              len};
      f.sent++;
      uint64_t gap = f.rate_q16 ? (uint64_t(len + 20) << 32) / f.rate_q16 : (1ull << 40);
      uint64_t now16 = t << 16;
      f.next_q16 = (f.next_q16 + gap > now16) ? f.next_q16 + gap : now16;
    }
    // the first cycle after t at which a flow is in its window, not paused and due
    uint64_t next = UINT64_MAX;
    for (const auto &f : flows_) {
      uint64_t e = (f.next_q16 + 0xFFFF) >> 16;
      e = e > f.start ? e : f.start;
      e = e > f.paused_until ? e : f.paused_until;
      e = e > t + 1 ? e : t + 1;
      if (e < f.stop && e < next) next = e;
    }
    flows_idle_until_ = next;
  }
  virtual uint64_t tx_ready_at(uint64_t) { return UINT64_MAX; }

  std::string name_;
  uint64_t rng_;
  xtm_params_t prm_;
  std::deque<CsrOp> csr_;
  std::vector<Flow> flows_;
  uint64_t flows_idle_until_ = 0;  // no flow is eligible before this cycle (flows_step)
  std::vector<PfcEvent> pfc_events_;
  uint64_t cable_ = 500;
};

XtmTest *xtm_make_test(const std::string &name, uint64_t seed, const xtm_params_t &p);
void xtm_list_tests();

#endif  // XTM_TB_XTM_TESTS_H_
