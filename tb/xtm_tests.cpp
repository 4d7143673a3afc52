// SPDX-License-Identifier: Apache-2.0
//
// The xtm co-simulation test list (docs/cosim.md describes each one). Directed tests aim
// at one feature each; `random` draws a legal configuration and traffic from its seed;
// `incast` is the default job of `make cosim`.

#include "tb/xtm_tests.h"

#include "tb/csr_edges.h"

extern "C" {
#include "rtl/xtm/autogen/xtm_csr_edges.h"  // Generated: the legal-range edges.
}

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

namespace {

// ------------------------------------------------------------------ smoke
class Smoke : public XtmTest {
 public:
  using XtmTest::XtmTest;
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports;
    add_flow(0, 1 % P, 0, 0, 64, 1500, 2.0, 100, 15000);
    add_flow(1 % P, 0, 8, 2, 64, 9000, 3.0, 200, 15000);
    add_flow(0, 0, 0, 1, 64, 256, 1.0, 300, 15000);
  }
};

// ------------------------------------------------------------------ ECN marking points
// One congested queue, profile points at Kmin/Kmax; the occupancy sweeps through both.
class Marking : public XtmTest {
 public:
  Marking(const std::string &n, uint64_t s, const xtm_params_t &p, uint32_t mp, bool interp)
      : XtmTest(n, s, p), mp_(mp), interp_(interp) {}
  uint64_t default_cycles() const override { return 200000; }
  void setup() {
    line_rate_shapers();
    uint32_t eg = 1 % prm_.num_ports, v = eg * prm_.num_tcs;
    profile(2, interp_, {{19661, 655}, {39322, 65536}});  // Kmin 30 % -> 1 %, Kmax 60 % -> 100 %
    voq_wr(v, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, true, false, mp_, 2));
    voq_wr(v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 400);
    voq_wr(v, XTM_Q_LAT_THRESH_REG_OFFSET, 2000);
    // 2x overload for a while, then 0.5x to drain, repeated: the queue crosses Kmin/Kmax
    for (uint64_t s = 1000; s < 200000; s += 40000) {
      add_flow(0, eg, 0, (s / 40000) % 2 ? 1 : 2, 1000, 1500, 12.5, s, s + 20000);
      add_flow(0 % prm_.num_ports, eg, 0, 2, 1000, 1500, 12.5, s, s + 15000);
      add_flow(0, eg, 0, 0, 200, 300, 2.0, s + 20000, s + 40000);
    }
    // mark_tail: a lossy queue without ECN on the other port, the same (segmented) profile
    // as its drop profile, overloaded 2x: 1 % drops between Kmin and Kmax do not hold it,
    // so it reaches Kmax, where p = 1 drops every packet. Jumbo frames: at most a dozen
    // descriptors, so the 64 of the small configuration still let the marked queue pass Kmax.
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    if (mp_ == 0 && !interp_ && P > 1 && T > 1) {
      uint32_t eg2 = (eg + 1) % P, v2 = eg2 * T + 1;
      voq_wr(v2, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, false, false, 0, 2));
      voq_wr(v2, XTM_Q_LIMIT_CELLS_REG_OFFSET, 400);
      for (uint64_t s = 1000; s < 200000; s += 40000) {
        add_flow(uint8_t(1 % P), uint8_t(eg2), 8, 0, 8000, 9000, 25.0, s, s + 20000);
      }
    }
  }

 private:
  uint32_t mp_;
  bool interp_;
};

// ------------------------------------------------------------------ PFC generation
// Four ingress ports into one egress: XOFF/XON hysteresis, headroom, refresh; senders obey
// the pause after a cable delay (some with a late reaction to use the headroom).
class PfcGen : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 300000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, eg = P - 1;
    for (uint32_t p = 0; p < P; p++) {
      pg_wr(p, 3, XTM_G_XOFF_CELLS_REG_OFFSET, 200);
      pg_wr(p, 3, XTM_G_XON_CELLS_REG_OFFSET, 150);
      pg_wr(p, 3, XTM_G_HDRM_CELLS_REG_OFFSET, 60);
      pg_wr(p, 3, XTM_G_CFG_REG_OFFSET, p == 1 ? (1u | 2u | 3u << 4) : 1u);  // port 1 dynamic
      port_wr(p, XTM_P_PFC_QUANTA_REG_OFFSET, 2000);
      port_wr(p, XTM_P_PFC_REFRESH_REG_OFFSET, 4000);
    }
    wr(XTM_POOL_CELLS_REG_OFFSET, 6000);
    uint32_t T = prm_.num_tcs;
    uint32_t tc = T > 3 ? 3 : T - 1;
    uint8_t dscp = uint8_t(tc * 8);
    wr(XTM_TC_PG_MAP_REG_OFFSET, 0x33333333);
    voq_wr(eg * T + tc, XTM_Q_CFG_REG_OFFSET, qcfg(false, true, true, false, 1, 0));
    voq_wr(eg * T + tc, XTM_Q_LIMIT_CELLS_REG_OFFSET, 5000);
    for (uint32_t p = 0; p + 1 < P && p < 4; p++) {
      add_flow(uint8_t(p), uint8_t(eg), dscp, 2, 1024, 4096, 12.5, 500 + 37 * p, 250000, true, 3);
    }
    if (P == 2) {
      add_flow(0, 1, dscp, 2, 1024, 4096, 12.5, 600, 250000, true, 3);
    }
    cable_ = 300 + rnd(3000);
  }
};

// ------------------------------------------------------------------ PFC refresh
// XOFF held for a long time: the egress is paused by received frames and the sender does
// not obey, so the PG stays above XON and refresh frames go out every P_PFC_REFRESH cycles
// (spec 7.1); headroom overflows (lossless violations) are counted too.
class PfcRefresh : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 100000; }
  void setup() {
    uint32_t P = prm_.num_ports, T = prm_.num_tcs, eg = P - 1;
    uint32_t tc = T > 3 ? 3 : T - 1;
    wr(XTM_TC_PG_MAP_REG_OFFSET, 0x33333333);
    pg_wr(0, 3, XTM_G_XOFF_CELLS_REG_OFFSET, 20);
    pg_wr(0, 3, XTM_G_XON_CELLS_REG_OFFSET, 10);
    pg_wr(0, 3, XTM_G_HDRM_CELLS_REG_OFFSET, 30);
    pg_wr(0, 3, XTM_G_CFG_REG_OFFSET, 1);
    port_wr(0, XTM_P_PFC_QUANTA_REG_OFFSET, 700);
    port_wr(0, XTM_P_PFC_REFRESH_REG_OFFSET, 997 + rnd(300));
    voq_wr(eg * T + tc, XTM_Q_CFG_REG_OFFSET, qcfg(false, true, false, false, 0, 0, true, 3));
    add_flow(0, uint8_t(eg), uint8_t(tc * 8), 0, 256, 1024, 10.0, 200, 90000);
    // the downstream neighbour pauses the egress for priority 3, with gaps
    for (uint64_t c = 100; c < 95000; c += 3000 + rnd(2000)) {
      pfc_events_.push_back({c, eg, 0x08, 0xFFFF});
      pfc_events_.push_back({c + 2500, eg, 0x08, 0});
    }
  }
};

// ------------------------------------------------------------------ PFC reception
class PauseRx : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 100000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    for (uint32_t q = 0; q < T; q++) {
      voq_wr(0 * T + q, XTM_Q_CFG_REG_OFFSET,
             qcfg(false, false, false, false, 0, 0, q % 2 == 0, q % 8));
    }
    port_wr(0, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0x00051EB8);
    for (uint32_t q = 0; q < T; q++) {
      add_flow(uint8_t(1 % P), 0, uint8_t(8 * q), 0, 64, 2000, 3.0, 100, 90000);
    }
    for (uint64_t c = 2000; c < 90000; c += 500 + rnd(3000)) {
      pfc_events_.push_back({c, 0, uint8_t(rnd(256)), uint16_t(rnd(4) == 0 ? 0 : rnd(2000))});
    }
  }
};

// P_PAUSE_QUANTUM rewritten while pauses run (spec 7.2, 2.1.0): pause_rx's traffic and
// frames, and quantum writes re-timing the running pauses (time left of the current quantum
// kept, the whole quanta at the new quantum), quanta from a quarter cycle (four quanta start
// in one cycle) to 8 cycles, G_PAUSE_REMAIN read back on random priorities between them.
class PauseRequantum : public PauseRx {
 public:
  using PauseRx::PauseRx;
  void setup() {
    PauseRx::setup();
    for (uint64_t c = 2100; c < 90000; c += 200 + rnd(900)) {
      uint32_t q = rnd(4) == 0 ? 0x4000 + rnd(0x1600) : 0x4000 + rnd(0x7C000);
      port_wr(0, XTM_P_PAUSE_QUANTUM_REG_OFFSET, q, c);
      wr(XTM_PG_SEL_REG_OFFSET, rnd(8), c);
      rd(XTM_G_PAUSE_REMAIN_REG_OFFSET, c);
    }
  }
};

// ------------------------------------------------------------------ HBM eviction/return
class Hbm : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 200000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    wr(XTM_HBM_EVICT_CELLS_REG_OFFSET, 40);
    wr(XTM_HBM_RETURN_CELLS_REG_OFFSET, 10);
    wr(XTM_HBM_WR_RATE_REG_OFFSET, 0x4000);  // 0.25 cells/cycle: bandwidth-limited
    wr(XTM_HBM_WR_BURST_REG_OFFSET, 20);
    wr(XTM_HBM_RD_RATE_REG_OFFSET, 0x8000);
    wr(XTM_HBM_RD_BURST_REG_OFFSET, 20);
    wr(XTM_HBM_RD_LAT_REG_OFFSET, 300);
    for (uint32_t q = 0; q < T; q++) {
      voq_wr(0 * T + q, XTM_Q_LIMIT_CELLS_REG_OFFSET, 2000);
      voq_wr(0 * T + q, XTM_Q_TARGET_RATE_REG_OFFSET, q == 0 ? 0xFFFFFF : 0x0C8000);  // q0 OCB-only
    }
    for (uint64_t s = 1000; s < 180000; s += 30000) {
      add_flow(uint8_t(1 % P), 0, 0, 0, 256, 4096, 10.0, s, s + 15000);
      add_flow(uint8_t(1 % P), 0, T > 1 ? 8 : 0, 0, 256, 4096, 10.0, s + 100, s + 15000);
    }
  }
};

// ------------------------------------------------------------------ DWRR and strict
class Dwrr : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 200000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    for (uint32_t q = 0; q < T; q++) {
      voq_wr(q, XTM_Q_QUANTUM_REG_OFFSET, q == 1 ? 300 : 1000 * (q + 1));  // q1 below a packet
      voq_wr(q, XTM_Q_CFG_REG_OFFSET, qcfg(q == T - 1 && T > 2, false, false, false, 0, 0));
      add_flow(uint8_t(1 % P), 0, uint8_t(8 * q), 0, 64, 1500, 4.0, 100 + q, 190000);
    }
  }
};

// ------------------------------------------------------------------ strict order, port arbiter
// Two strict queues backlogged on port 0 at once (the higher index goes first, spec 9.3) and
// two egress ports backlogged at once (the port round robin, spec 9.2): MAC back-pressure on
// both ports builds the backlog, its release makes every port and queue eligible together.
class StrictArb : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 100000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    uint32_t hi = T - 1, lo = T > 1 ? T - 2 : 0;
    for (uint32_t q : {lo, hi}) {
      voq_wr(q, XTM_Q_CFG_REG_OFFSET, qcfg(true, false, false, false, 0, 0));
    }
    for (uint32_t q : {lo, hi}) {
      add_flow(uint8_t(1 % P), 0, uint8_t(8 * q), 0, 64, 1500, 5.0, 100 + q, 95000);
    }
    if (P > 1) {
      add_flow(0, 1, 0, 0, 64, 1500, 5.0, 100, 95000);
      if (T > 1) add_flow(0, 1, 8, 0, 64, 1500, 5.0, 101, 95000);
    }
  }
  // both ports stopped for 1500 of every 6000 cycles
  uint64_t tx_ready_at(uint64_t t) override { return (t % 6000) >= 4500 ? ~3ull : UINT64_MAX; }
};

// ------------------------------------------------------------------ shapers
class Shapers : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 200000; }
  void setup() {
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    port_wr(0, XTM_P_SHAPER_RATE_REG_OFFSET, 0x060000);  // 6 B/cycle
    port_wr(0, XTM_P_SHAPER_BURST_REG_OFFSET, 3000);
    port_wr(0, XTM_P_SHAPER_CFG_REG_OFFSET, 1u | 20u << 8);
    voq_wr(0, XTM_Q_SHAPER_RATE_REG_OFFSET, 0x00C000);  // 0.75 B/cycle = 6 Gb/s
    voq_wr(0, XTM_Q_SHAPER_BURST_REG_OFFSET, 2000);
    voq_wr(0, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, false, false, 0, 0, false, 0, false, true));
    add_flow(uint8_t(1 % P), 0, 0, 0, 64, 1500, 4.0, 100, 190000);
    if (T > 1) add_flow(uint8_t(1 % P), 0, 8, 0, 64, 1500, 4.0, 100, 190000);
    port_wr(0, XTM_P_SHAPER_RATE_REG_OFFSET, 0x030000, 100000);  // rate change under traffic
    port_wr(0, XTM_P_SHAPER_BURST_REG_OFFSET, 500, 120000);      // burst clamp under traffic
  }
  uint64_t tx_ready_at(uint64_t t) override { return ((t / 3000) % 5 == 4) ? ~1ull : UINT64_MAX; }
};

// ------------------------------------------------------------------ tail drop / pool
class TailPool : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 100000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    // the pool below the sum of the VOQ limits, so that it runs out first when all queues
    // fill (300 cells; at 2 TCs the limits sum to 220, so 150 there)
    uint32_t sum_limits = 0;
    for (uint32_t q = 0; q < T; q++) sum_limits += 100 + 20 * q;
    wr(XTM_POOL_CELLS_REG_OFFSET, sum_limits > 400 ? 300 : sum_limits * 2 / 3);
    for (uint32_t q = 0; q < T; q++) voq_wr(q, XTM_Q_LIMIT_CELLS_REG_OFFSET, 100 + 20 * q);
    // 48 B/cycle in all into a 12.5 B/cycle port (6 per queue at 8 TCs), whatever T
    for (uint32_t q = 0; q < T; q++) {
      add_flow(uint8_t(1 % P), 0, uint8_t(8 * q), 0, 64, 9216, 48.0 / T, 100, 90000);
    }
  }
};

// ------------------------------------------------------------------ bad descriptors
class BadDesc : public XtmTest {
 public:
  using XtmTest::XtmTest;
  void setup() {
    line_rate_shapers();
    wr(XTM_MAX_FRAME_REG_OFFSET, 1500);
    wr(XTM_TC_QUEUE_MAP_REG_OFFSET, 0x76543270);  // TC1 -> queue 7 (out of range when T < 8)
    voq_wr(0, XTM_Q_CFG_REG_OFFSET, 0);           // VOQ 0 disabled
  }
  void stimulus(uint64_t t, xtm_in_t &in) override {
    if (t < 10 || t % 3 != 0 || t > 18000) return;
    uint32_t P = prm_.num_ports;
    in.enq.valid = true;
    in.enq.pkt_id = uint32_t(t);
    in.enq.in_port = uint8_t(rnd(P + 2));
    in.enq.eg_port = uint8_t(rnd(P + 2));
    in.enq.dscp = uint8_t(rnd(64));
    in.enq.ecn = uint8_t(rnd(4));
    uint32_t k = rnd(5);
    in.enq.len = uint16_t(k == 0 ? 0 : k == 1 ? 1501 + rnd(14000) : 1 + rnd(1500));
    in.tx_ready = UINT64_MAX;
  }
};

// ------------------------------------------------------------------ watchdog
class Watchdog : public XtmTest {
 public:
  Watchdog(const std::string &n, uint64_t s, const xtm_params_t &p, bool fwd)
      : XtmTest(n, s, p), fwd_(fwd) {}
  uint64_t default_cycles() const override { return 150000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    voq_wr(0, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, false, false, 0, 0, true, 0, true));
    if (T > 1)
      voq_wr(1, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, false, false, 0, 0, true, 1, true));
    wr(XTM_WD_DETECT_POLLS_REG_OFFSET, 2);
    wr(XTM_WD_RESTORE_POLLS_REG_OFFSET, 3);
    wr(XTM_WD_CTRL_REG_OFFSET, 1u | (fwd_ ? 2u : 0u));
    wr(XTM_WD_POLL_CYCLES_REG_OFFSET, 2000);
    add_flow(uint8_t(1 % P), 0, 0, 0, 64, 1500, 2.0, 200, 140000);
    if (T > 1) add_flow(uint8_t(1 % P), 0, 8, 0, 64, 1500, 2.0, 200, 140000);
    // a pause storm on priority 0, refreshed, then silence, then another storm
    for (uint64_t c = 1000; c < 40000; c += 1500) pfc_events_.push_back({c, 0, 0x01, 0xFFFF});
    for (uint64_t c = 80000; c < 110000; c += 1500) pfc_events_.push_back({c, 0, 0x03, 0xFFFF});
    pfc_events_.push_back({110500, 0, 0x03, 0});
  }

 private:
  bool fwd_;
};

// ------------------------------------------------------------------ CSR reconfiguration
class Reconfig : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 150000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    for (uint32_t q = 0; q < T; q++)
      add_flow(uint8_t(1 % P), 0, uint8_t(8 * q), uint8_t(q % 4), 64, 3000, 3.0, 100, 140000);
    profile(1, true, {{10000, 5000}, {30000, 40000}});
    for (uint64_t c = 5000; c < 140000; c += 2000 + rnd(3000)) {
      uint32_t v = rnd(T);
      switch (rnd(8)) {
        case 0:
          voq_wr(v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 20 + rnd(400), c);
          break;
        case 1:
          voq_wr(v, XTM_Q_CFG_REG_OFFSET, qcfg(rnd(3) == 0, rnd(2), rnd(2), rnd(2), rnd(3), rnd(2)),
                 c);
          break;
        case 2:
          voq_wr(v, XTM_Q_QUANTUM_REG_OFFSET, 1 + rnd(20000), c);
          break;
        case 3:
          wr(XTM_POOL_CELLS_REG_OFFSET, 100 + rnd(2000), c);
          break;
        case 4:
          voq_wr(v, XTM_Q_CFG_REG_OFFSET, 0, c);
          voq_wr(v, XTM_Q_CFG_REG_OFFSET, 1, c + 300);
          break;
        case 5:
          wr(XTM_CTRL_REG_OFFSET, 1, c);
          break;
        case 6:
          wr(XTM_VOQ_SEL_REG_OFFSET, v, c);
          rd(XTM_Q_WM_CELLS_REG_OFFSET, c);
          rd(XTM_Q_DEQ_PKTS_LO_REG_OFFSET, c);
          rd(XTM_Q_DEQ_PKTS_HI_REG_OFFSET, c);
          break;
        default:
          wr(XTM_LFSR_SEED_REG_OFFSET, 1 + rnd(0x7FFFFFFF), c);
          break;
      }
    }
  }
};

// ------------------------------------------------------------------ every register
class CsrAll : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 60000; }
  void setup() {
    // read everything, write patterns (legal, illegal, reserved bits), read back, unmapped
    for (uint32_t a = 0; a < 0x600; a += 4) rd(uint16_t(a));
    for (uint32_t a = 0; a < 0x600; a += 4) {
      wr(uint16_t(a), uint32_t(tb_rand(&rng_)));
      rd(uint16_t(a));
    }
    rd(0x0FF0);
    wr(0x2001, 5);
    rd(0x0031);
    rd(XTM_ERR_STATUS_REG_OFFSET);
    rd(XTM_ERR_ADDR_REG_OFFSET);
  }
};

// ------------------------------------------------------------------ legal ranges at their edges
// Issue 21: every field with a legal range in the TOML (the generated table
// rtl/xtm/autogen/xtm_csr_edges.h, values resolved for this configuration by
// xtm_regs_build()) is written with min-1 (when min > 0), min, max and max+1 (when it fits
// the field). A window register is written in its last entry (the select at its maximum).
// Besides the lockstep comparison with the C model, every read is checked against spec 3's
// rule (a write with a field outside its range is ignored as a whole and sets
// ERR_STATUS.ILLEGAL; ERR_ADDR holds the address of the last access that set a flag):
// the field reads back the value written when legal, the value before otherwise;
// ERR_STATUS is exactly ILLEGAL or 0; ERR_ADDR is the write's address or unchanged.
class CsrEdges : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 20000; }
  void setup() {
    xtm_reg_params_t rp;
    xtm_reg_params_default(&rp);
    rp.num_ports = prm_.num_ports;
    rp.num_tcs = prm_.num_tcs;
    rp.num_desc = prm_.num_desc;
    rp.cell_bytes = prm_.cell_bytes;
    rp.cell_log2 = uint32_t(__builtin_ctz(prm_.cell_bytes));
    rp.ocb_cells = prm_.ocb_cells;
    rp.hbm_cells = prm_.hbm_cells;
    rp.fifo_depth = prm_.fifo_depth;
    std::vector<xtm_reg_desc_t> regs(XTM_REG_COUNT);
    xtm_regs_build(&rp, regs.data(), regs.size());
    auto sel = [&](int w) {
      static const uint16_t kSel[] = {XTM_VOQ_SEL_REG_OFFSET, XTM_PORT_SEL_REG_OFFSET,
                                      XTM_PG_SEL_REG_OFFSET, XTM_PROF_SEL_REG_OFFSET};
      uint32_t n = xtm_regs_window_entries(&rp, xtm_window_t(w));
      return std::vector<CsrEdgeOp>{{true, kSel[w], n - 1}};
    };
    chk_.build(regs, kXtmCsrEdges, XTM_CSR_EDGE_COUNT, XTM_ERR_STATUS_REG_OFFSET,
               XTM_ERR_ADDR_REG_OFFSET,
               XTM_ERR_STATUS_ILLEGAL_MASK << XTM_ERR_STATUS_ILLEGAL_OFFSET, 0xFu, sel);
    // after the initialisation sweep: the VOQ and PG windows refuse accesses before it
    uint64_t nb = XTM_INIT_CYCLES(prm_.num_ports) + 8;
    for (const CsrEdgeOp &op : chk_.ops) {
      if (op.write)
        wr(op.addr, op.wdata, nb);
      else
        rd(op.addr, nb);
    }
  }
  void csr_result(uint64_t t, const CsrOp &op, uint32_t rdata) override {
    chk_.result(t, op.addr, rdata);
  }
  bool final_check(xtm_t *) override { return chk_.final_check(XTM_TB_CFG); }

 private:
  CsrEdgeChecker<xtm_reg_desc_t, xtm_csr_edge_t> chk_;
};

// ------------------------------------------------------------------ widths at their top
// Issue 21: maximum-size packets (MAX_FRAME = 16383, its legal maximum) one per cycle from
// port 0 into queue 0 of port 1 % NumPorts, with the limits of that VOQ and of the shared
// pool at the top of their 28-bit fields (Q_LIMIT_CELLS, POOL_CELLS = 2^28 - 1), so that
// the 64-bit byte counters Q_ENQ_BYTES, Q_DEQ_BYTES (the VOQ) and P_TX_BYTES (the port)
// carry from their low word into their high word (2^32 bytes = 262 161 packets). The
// counters are read (_LO, then _HI: the CNT_HI snapshot) every 2000 cycles; besides the
// lockstep comparison, the test checks that each 64-bit value never decreases and that
// each high word reached 1 (a carry lost or a byte datapath narrowed to 32 bits shows as a
// drop back to a small value). The watermarks Q_WM_CELLS and POOL_WM are read at the end.
class Widths : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 300000; }
  void setup() {
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    eg_ = 1 % P;
    v_ = eg_ * T;
    wr(XTM_MAX_FRAME_REG_OFFSET, 16383);
    wr(XTM_POOL_CELLS_REG_OFFSET, 0x0FFFFFFF);
    voq_wr(v_, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0x0FFFFFFF);
    voq_wr(v_, XTM_Q_QUANTUM_REG_OFFSET, 65535);     // a deficit round covers a packet
    wr(XTM_HBM_EVICT_CELLS_REG_OFFSET, 0x0FFFFFFF);  // OCB only: no HBM bandwidth limit
    add_flow(0, uint8_t(eg_), 0, 0, 16383, 16383, 20000.0, 600, UINT64_MAX);
    static const uint16_t kQ[] = {XTM_Q_ENQ_BYTES_LO_REG_OFFSET, XTM_Q_DEQ_BYTES_LO_REG_OFFSET};
    for (uint64_t c = 2000; c < 299000; c += 2000) {
      wr(XTM_VOQ_SEL_REG_OFFSET, v_, c);
      for (int k = 0; k < 2; k++) {
        rd(kQ[k], c);
        rd(uint16_t(kQ[k] + 4), c);
      }
      wr(XTM_PORT_SEL_REG_OFFSET, eg_, c);
      rd(XTM_P_TX_BYTES_LO_REG_OFFSET, c);
      rd(XTM_P_TX_BYTES_LO_REG_OFFSET + 4, c);
    }
    rd(XTM_Q_WM_CELLS_REG_OFFSET, 299000);
    rd(XTM_POOL_WM_REG_OFFSET, 299000);
  }
  void csr_result(uint64_t t, const CsrOp &op, uint32_t rdata) override {
    int k = op.addr == XTM_Q_ENQ_BYTES_LO_REG_OFFSET   ? 0
            : op.addr == XTM_Q_DEQ_BYTES_LO_REG_OFFSET ? 1
            : op.addr == XTM_P_TX_BYTES_LO_REG_OFFSET  ? 2
                                                       : -1;
    if (k >= 0) {
      lo_[k] = rdata;
      return;
    }
    k = op.addr == XTM_Q_ENQ_BYTES_LO_REG_OFFSET + 4   ? 0
        : op.addr == XTM_Q_DEQ_BYTES_LO_REG_OFFSET + 4 ? 1
        : op.addr == XTM_P_TX_BYTES_LO_REG_OFFSET + 4  ? 2
                                                       : -1;
    if (k < 0) return;
    uint64_t v = uint64_t(rdata) << 32 | lo_[k];
    if (v < last_[k] && fails_++ < 5) {
      printf("FAILURE: widths: cycle %" PRIu64 ": %s went from 0x%" PRIx64 " down to 0x%" PRIx64
             "\n",
             t, kName[k], last_[k], v);
    }
    last_[k] = v;
    if (rdata != 0) hi_[k] = true;
  }
  bool final_check(xtm_t *) override {
    bool ok = fails_ == 0;
    for (int k = 0; k < 3; k++) {
      printf("widths: %s = 0x%" PRIx64 " (high word %s)\n", kName[k], last_[k],
             hi_[k] ? "reached" : "NOT reached");
      ok = ok && hi_[k];
    }
    if (!ok)
      printf("FAILURE: widths: a byte counter decreased or never carried into its high word\n");
    return ok;
  }

 private:
  static constexpr const char *kName[3] = {"Q_ENQ_BYTES", "Q_DEQ_BYTES", "P_TX_BYTES"};
  uint32_t eg_ = 0, v_ = 0;
  uint32_t lo_[3] = {0, 0, 0};
  uint64_t last_[3] = {0, 0, 0};
  bool hi_[3] = {false, false, false};
  uint64_t fails_ = 0;
};

// ------------------------------------------------------------------ cell counts at their top
// Issue 21, spec 5.1 (2.0.1): the 28-bit cell quantities driven to 2^28 - 1 on CFG=wide
// (2 x 2, 2^20 descriptors, 64-byte cells, OcbCells 2^28 - 1, HbmCells 0): 2^20 - 1 packets
// of 16383 bytes (256 cells), one per cycle from port 0 into queue 0 of port 1 (VOQ 2),
// then one of 256 cells (one past the top: dropped), one of 255 (the top reached exactly)
// and 1-byte packets one cell over every limit. Both egress ports are held by a PFC pause
// of about 2^32 cycles (P_PAUSE_QUANTUM and quanta at their maximum, Q_CFG.PFC_RX_EN), so
// nothing leaves. cells_top: the normal path against Q_LIMIT_CELLS and POOL_CELLS at 2^28 - 1
// (TAIL, TAIL, POOL); hdrm_top: PGs (0, 0) and (1, 0) in XOFF from the start (G_XOFF_CELLS
// 0), every arrival into headroom against G_HDRM_CELLS = 2^28 - 1 (HEADROOM, HEADROOM,
// BUF_FULL: no descriptor left). Besides the lockstep comparison the test checks the
// reason of every packet and reads the occupancies, watermarks and drop counters: each
// must be exact (VOQ, pool, OCB, PG cells and, in hdrm_top, headroom at 2^28 - 1).
// hbm_top (CFG=widehbm: OcbCells 1, HbmCells 2^28 - 2, the constraint's largest HBM): every
// VOQ evicted by its first arrival, so every packet goes to HBM: HBM_USED, Q_HBM_CELLS, the
// VOQ, the pool and the PG at 2^28 - 2 (256 cells over: TAIL; 254 fit exactly; then 1 cell:
// BUF_FULL, no descriptor left).
// tests/unit/test_widths.c runs the same on the C model.
class CellsTop : public XtmTest {
 public:
  enum Mode { kNormal, kHdrm, kHbm };
  CellsTop(const std::string &n, uint64_t s, const xtm_params_t &p, Mode mode)
      : XtmTest(n, s, p), hdrm_(mode == kHdrm), hbm_(mode == kHbm) {}
  static constexpr uint32_t kTop = 0x0FFFFFFFu;
  static constexpr uint32_t kFull = (1u << 20) - 1;
  static constexpr uint64_t kStart = 1000;
  uint64_t default_cycles() const override { return kStart + kFull + 1000; }
  void setup() {
    fits_ = prm_.num_desc == (1u << 20) && prm_.cell_bytes == 64 && prm_.num_ports == 2 &&
            prm_.num_tcs == 2 &&
            (hbm_ ? prm_.ocb_cells == 1 && prm_.hbm_cells == kTop - 1 : prm_.ocb_cells == kTop);
    const uint32_t top = hbm_ ? kTop - 1 : kTop;  // HBM: OcbCells 1 + HbmCells 2^28 - 2
    wr(XTM_MAX_FRAME_REG_OFFSET, 16383);
    for (uint32_t port = 0; port < 2 && port < prm_.num_ports; port++) {
      voq_wr(port * prm_.num_tcs, XTM_Q_CFG_REG_OFFSET,
             qcfg(false, false, false, false, 0, 0, true, 0));
      port_wr(port, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0xFFFFFFFFu);
      pfc_events_.push_back({kStart - 200, port, 0x01, 0xFFFF});
    }
    if (hdrm_) {
      for (uint32_t in = 0; in < 2; in++) {
        pg_wr(in, 0, XTM_G_XOFF_CELLS_REG_OFFSET, 0);
        pg_wr(in, 0, XTM_G_HDRM_CELLS_REG_OFFSET, kTop);
        pg_wr(in, 0, XTM_G_CFG_REG_OFFSET, 1u << XTM_G_CFG_PFC_EN_OFFSET);
      }
    } else {
      wr(XTM_POOL_CELLS_REG_OFFSET, kTop);
      // HBM: every VOQ evicted by its first arrival (target rate 0: not OCB-only), the
      // write bucket at its top (255.99998 cells per cycle, 65535-cell burst)
      wr(XTM_HBM_EVICT_CELLS_REG_OFFSET, hbm_ ? 0 : kTop);
      if (hbm_) {
        wr(XTM_HBM_WR_RATE_REG_OFFSET, 0xFFFFFF);
        wr(XTM_HBM_WR_BURST_REG_OFFSET, 0xFFFF);
      }
      voq_wr(2, XTM_Q_LIMIT_CELLS_REG_OFFSET, kTop);
      voq_wr(0, XTM_Q_LIMIT_CELLS_REG_OFFSET, kTop);
    }
    // the packets past the fill and what each must get (spec 4.4)
    // (HBM: the VOQ limit 2^28 - 1 still comes first for 256 cells over; the 1-cell packet
    // passes it, 2^28 - 2 + 1, and finds no descriptor)
    uint8_t over = hdrm_ ? kXtmReasonHeadroom : kXtmReasonTail;
    tail_ = {{0, 1, 16383, over},
             {0, 1, uint16_t((hbm_ ? 254 : 255) * 64), kXtmReasonAccept},
             {0, 1, 1, uint8_t(hbm_ ? kXtmReasonBufFull : over)},
             {uint8_t(hdrm_ ? 1 : 0), 0, 1,
              uint8_t(hdrm_ || hbm_ ? kXtmReasonBufFull : kXtmReasonPool)}};
    uint64_t c = kStart + kFull + tail_.size() + 20;
    auto chk = [&](uint16_t a, uint64_t want, const char *what) {
      rd(a, c);
      want_.push_back({a, want, what});
    };
    wr(XTM_VOQ_SEL_REG_OFFSET, 2, c);
    chk(XTM_Q_OCC_CELLS_REG_OFFSET, top, "Q_OCC_CELLS(2)");
    chk(XTM_Q_OCC_PKTS_REG_OFFSET, 1u << 20, "Q_OCC_PKTS(2)");
    chk(XTM_Q_WM_CELLS_REG_OFFSET, top, "Q_WM_CELLS(2)");
    chk(XTM_Q_HBM_CELLS_REG_OFFSET, hbm_ ? top : 0, "Q_HBM_CELLS(2)");
    chk(hdrm_ ? XTM_Q_DROP_HDRM_LO_REG_OFFSET : XTM_Q_DROP_TAIL_LO_REG_OFFSET, hbm_ ? 1 : 2,
        "Q_DROP_TAIL/HDRM(2)");
    chk(XTM_Q_ENQ_PKTS_LO_REG_OFFSET, 1u << 20, "Q_ENQ_PKTS(2)");
    chk(XTM_POOL_USED_REG_OFFSET, top, "POOL_USED");
    chk(XTM_OCB_USED_REG_OFFSET, hbm_ ? 0 : top, "OCB_USED");
    chk(XTM_HBM_USED_REG_OFFSET, hbm_ ? top : 0, "HBM_USED");
    chk(XTM_POOL_WM_REG_OFFSET, top, "POOL_WM");
    chk(XTM_DESC_FREE_REG_OFFSET, 0, "DESC_FREE");
    wr(XTM_PG_SEL_REG_OFFSET, 0, c);
    chk(XTM_G_PG_CELLS_REG_OFFSET, top, "G_PG_CELLS(0,0)");
    chk(XTM_G_WM_CELLS_REG_OFFSET, top, "G_WM_CELLS(0,0)");
    chk(XTM_G_HDRM_USED_REG_OFFSET, hdrm_ ? kTop : 0, "G_HDRM_USED(0,0)");
    chk(XTM_G_HDRM_WM_REG_OFFSET, hdrm_ ? kTop : 0, "G_HDRM_WM(0,0)");
    wr(XTM_VOQ_SEL_REG_OFFSET, 0, c);
    chk(hdrm_ || hbm_ ? XTM_Q_DROP_BUF_LO_REG_OFFSET : XTM_Q_DROP_POOL_LO_REG_OFFSET, 1,
        "Q_DROP_BUF/POOL(0)");
  }
  void stimulus(uint64_t t, xtm_in_t &in) override {
    XtmTest::stimulus(t, in);
    if (!fits_ || t < kStart) return;
    uint64_t i = t - kStart;
    if (i < kFull) {
      in.enq = (xtm_enq_in_t){true, uint32_t(i), 0, 1, 0, 0, 16383};
    } else if (i - kFull < tail_.size()) {
      const Pkt &k = tail_[i - kFull];
      in.enq = (xtm_enq_in_t){true, uint32_t(i), k.in, k.eg, 0, 0, k.len};
    }
  }
  void observe(uint64_t t, const xtm_out_t &o) override {
    XtmTest::observe(t, o);
    if (!o.enq_res.valid || t < kStart) return;
    uint64_t i = t - kStart;
    uint8_t want = i < kFull                  ? uint8_t(kXtmReasonAccept)
                   : i - kFull < tail_.size() ? tail_[i - kFull].reason
                                              : 255;
    if (i - kFull < tail_.size()) seen_tail_++;
    if (want != 255 && o.enq_res.reason != want && fails_++ < 5) {
      printf("FAILURE: %s: packet %" PRIu64 " (cycle %" PRIu64 "): %s, expected %s\n",
             name_.c_str(), i, t, xtm_reason_name((xtm_reason_t)o.enq_res.reason),
             xtm_reason_name((xtm_reason_t)want));
    }
  }
  void csr_result(uint64_t, const CsrOp &op, uint32_t rdata) override {
    if (next_ >= want_.size() || op.addr != want_[next_].addr) return;
    const Want &w = want_[next_++];
    bool ok = rdata == w.value;
    printf("%s: %s = 0x%08x (%s 0x%08" PRIx64 ")\n", name_.c_str(), w.what, rdata,
           ok ? "expected" : "FAILURE: expected", w.value);
    if (!ok) fails_++;
  }
  bool final_check(xtm_t *) override {
    if (!fits_) {
      printf("FAILURE: %s needs CFG=%s (2 x 2, 2^20 descriptors, 64-byte cells, %s)\n",
             name_.c_str(), hbm_ ? "widehbm" : "wide",
             hbm_ ? "OcbCells 1, HbmCells 2^28-2" : "OcbCells 2^28-1");
      return false;
    }
    bool ok = fails_ == 0 && next_ == want_.size() && seen_tail_ == tail_.size();
    printf("%s: %zu of %zu reads checked, %u boundary packets, %" PRIu64 " failures\n",
           name_.c_str(), next_, want_.size(), seen_tail_, fails_);
    if (!ok)
      printf("FAILURE: %s: a cell count or an admission decision at 2^28-1 is wrong\n",
             name_.c_str());
    return ok;
  }

 private:
  struct Pkt {
    uint8_t in, eg;
    uint16_t len;
    uint8_t reason;
  };
  struct Want {
    uint16_t addr;
    uint64_t value;
    const char *what;
  };
  bool hdrm_, hbm_, fits_ = false;
  std::vector<Pkt> tail_;
  std::vector<Want> want_;
  size_t next_ = 0;
  unsigned seen_tail_ = 0;
  uint64_t fails_ = 0;
};

// ------------------------------------------------------------------ counters under traffic
// The counters behind the 2R1W RAMs (xtm_stats_voq) and the accumulators (xtm_stats_pp),
// read while they count (spec 4.5, 6.3, 9.4, 9.6): a flow due every cycle gives back-to-back
// arrivals at one VOQ (tail drops included), MAC back-pressure on port 0 builds a backlog
// whose release gives back-to-back dequeues of one VOQ (the head cache refilled from the
// link RAM every cycle), and a latency threshold of 0 marks each of them (back-to-back
// marks); a second VOQ is disabled and re-enabled (flush counters). Meanwhile every
// counter of every VOQ, port and the active PGs is read (LO, some HI), with CTRL.CLR_CNT now
// and then. A read-modify-write that misses the row written in the cycle before, or a
// count in the wrong place, shows in the read data.
class Counters : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 100000; }
  void setup() {
    uint32_t P = prm_.num_ports, T = prm_.num_tcs, NV = P * T;
    uint32_t q1 = T > 1 ? 1 : 0;
    // after the initialisation sweep (the VOQ window refuses accesses before, spec 3)
    uint64_t c0 = 8 * P;
    voq_wr(0, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, true, false, 2, 0), c0);  // latency marking
    voq_wr(0, XTM_Q_LAT_THRESH_REG_OFFSET, 0, c0);
    voq_wr(0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 40, c0);
    voq_wr(q1, XTM_Q_LIMIT_CELLS_REG_OFFSET, 60, c0);
    // one flow due every cycle (64 B at 100 B/cycle) in bursts, a slower one to queue q1,
    // light traffic to the other port
    for (uint64_t s = 200; s < 95000; s += 5000) {
      add_flow(uint8_t(1 % P), 0, 0, 2, 64, 128, 100.0, s, s + 2500);
    }
    add_flow(0, 0, uint8_t(8 * q1), 1, 64, 512, 8.0, 300, 95000);
    if (P > 1) add_flow(0, 1, 0, 0, 64, 1500, 2.0, 400, 95000);
    // q1 disabled near the end of a back-pressure window (it holds packets then), enabled
    // again later: the flush counters
    for (uint64_t c = 3000 + 300; c < 95000; c += 1500 * (3 + rnd(4))) {
      voq_wr(q1, XTM_Q_CFG_REG_OFFSET, 0, c);
      voq_wr(q1, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, false, false, 0, 0), c + 600);
    }
    // read every counter while traffic runs
    static const uint16_t kQ[] = {XTM_Q_ARR_PKTS_LO_REG_OFFSET,   XTM_Q_ENQ_PKTS_LO_REG_OFFSET,
                                  XTM_Q_ENQ_BYTES_LO_REG_OFFSET,  XTM_Q_DEQ_PKTS_LO_REG_OFFSET,
                                  XTM_Q_DEQ_BYTES_LO_REG_OFFSET,  XTM_Q_DROP_TAIL_LO_REG_OFFSET,
                                  XTM_Q_DROP_POOL_LO_REG_OFFSET,  XTM_Q_DROP_PROFILE_LO_REG_OFFSET,
                                  XTM_Q_DROP_HDRM_LO_REG_OFFSET,  XTM_Q_DROP_BUF_LO_REG_OFFSET,
                                  XTM_Q_DROP_QDIS_LO_REG_OFFSET,  XTM_Q_DROP_WD_LO_REG_OFFSET,
                                  XTM_Q_DROP_FLUSH_LO_REG_OFFSET, XTM_Q_DROP_BYTES_LO_REG_OFFSET,
                                  XTM_Q_MARK_TAIL_LO_REG_OFFSET,  XTM_Q_MARK_HEAD_LO_REG_OFFSET,
                                  XTM_Q_MARK_LAT_LO_REG_OFFSET,   XTM_Q_HBM_EVICT_LO_REG_OFFSET,
                                  XTM_Q_HBM_RETURN_LO_REG_OFFSET, XTM_Q_WD_STALL_LO_REG_OFFSET,
                                  XTM_Q_WD_RESTORE_LO_REG_OFFSET};
    static const uint16_t kP[] = {XTM_P_TX_PKTS_LO_REG_OFFSET, XTM_P_TX_BYTES_LO_REG_OFFSET,
                                  XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET,
                                  XTM_P_PFC_RX_FRAMES_LO_REG_OFFSET};
    static const uint16_t kG[] = {XTM_G_XOFF_SENT_LO_REG_OFFSET, XTM_G_XON_SENT_LO_REG_OFFSET,
                                  XTM_G_PAUSE_RX_LO_REG_OFFSET, XTM_G_XON_RX_LO_REG_OFFSET,
                                  XTM_G_PAUSED_CYCLES_LO_REG_OFFSET};
    uint32_t round = 0;
    for (uint64_t c = 150; c < 95000; round++) {
      for (uint32_t v = 0; v < NV && v < 4; v++) {
        wr(XTM_VOQ_SEL_REG_OFFSET, v, c);
        for (uint16_t a : kQ) {
          rd(a, c);
          if ((a + round) % 5 == 0) rd(uint16_t(a + 4), c);  // the _HI word now and then
        }
      }
      for (uint32_t p = 0; p < P && p < 2; p++) {
        wr(XTM_PORT_SEL_REG_OFFSET, p, c);
        for (uint16_t a : kP) rd(a, c);
      }
      wr(XTM_PG_SEL_REG_OFFSET, (1 % P) * 8, c);
      for (uint16_t a : kG) rd(a, c);
      rd(XTM_ARR_PKTS_LO_REG_OFFSET, c);
      if (round % 4 == 3) wr(XTM_CTRL_REG_OFFSET, 1, c);  // CTRL.CLR_CNT under traffic
      c += 1200 + rnd(800);
    }
    // a PAUSE frame now and then on port 1 (the PG and port receive counters)
    for (uint64_t c = 1000; c < 95000; c += 4000 + rnd(2000)) {
      pfc_events_.push_back({c, 1 % P, 0x01, uint16_t(rnd(2) ? 0 : 100)});
    }
    // the accesses in time order (the queue issues them first come, first served)
    std::stable_sort(csr_.begin(), csr_.end(),
                     [](const CsrOp &a, const CsrOp &b) { return a.not_before < b.not_before; });
  }
  // port 0 stopped 400 of every 1500 cycles: its FIFO and VOQs fill, the release drains them
  // one packet per cycle
  uint64_t tx_ready_at(uint64_t t) override { return (t % 1500) < 400 ? ~1ull : UINT64_MAX; }
};

// ------------------------------------------------------------------ ingress policing (4.7)
// Check p: byte buckets of 8 policers per ingress port, chosen by P_POL_MAP for the
// arrival's traffic class (DSCP 8..15 are mapped to TC 1 here). Four variants:
// - conform: a flow under its policer's rate after the bucket has filled: every packet
//   conforms; a second, unpoliced class on the same port is untouched;
// - burst: one packet per cycle from two classes mapped to two policers of one port
//   (back-to-back arrivals at one policer, and arrivals to one policer two cycles apart
//   with the other in between: the forwarding of the last two commits) after idle
//   periods that refill the bucket to its burst; POL_TOKENS and the counters read while
//   they change every cycle; a burst lowered below a policer's stored tokens (clamped at
//   its next evaluation, the arrival conforms from the new burst);
// - exceed: two classes share one policer (an interface policer) at six times its rate;
//   a second port's policer with its own flow; Q_DROP_POL must add up to POL_DROP_PKTS;
// - reconfig: POL_RATE (0 included), POL_BURST (below the stored tokens: the clamp at the
//   next evaluation; 0: nothing conforms), P_POL_MAP and POL_SEL rewritten under traffic,
//   CTRL.CLR_CNT, reads of every POL register; a POL-window write and read during the
//   initialisation sweep (refused, NOT_READY) and a P_POL_MAP write then (the PORT window
//   is not refused: it must take effect).
class Police : public XtmTest {
 public:
  enum Mode { kConform, kBurst, kExceed, kReconfig };
  Police(const std::string &n, uint64_t s, const xtm_params_t &p, Mode m)
      : XtmTest(n, s, p), mode_(m) {}
  uint64_t default_cycles() const override { return mode_ == kConform ? 40000 : 100000; }
  void setup() {
    if (mode_ == kReconfig) {
      // first in the queue, during the sweep (16 cycles at CFG=small: two accesses):
      // P_POL_MAP of port 0 (PORT_SEL 0) accepted, the POL window refused (POL_SEL 0)
      wr(XTM_P_POL_MAP_REG_OFFSET, 0x98u, 0);  // TC 0 -> policer 0, TC 1 -> policer 1
      wr(XTM_POL_RATE_REG_OFFSET, 0x7777, 0);
      rd(XTM_POL_TOKENS_REG_OFFSET, 0);
      rd(XTM_P_POL_MAP_REG_OFFSET, 0);
      rd(XTM_ERR_STATUS_REG_OFFSET, 0);
      rd(XTM_POL_RATE_REG_OFFSET, after_init(0));  // 0: the write above was refused
    }
    line_rate_shapers();
    uint32_t P = prm_.num_ports, eg = 1 % P;
    wr(XTM_DSCP_MAP_1_REG_OFFSET, 0x11111111u);  // DSCP 8..15 -> TC 1
    switch (mode_) {
      case kConform:
        // TC 0 -> policer 2 at 2 B/cycle, 20000 B; the flow at 1.8 B/cycle with its gaps
        map(0, 0x0Au);
        pol(2, 0x20000, 20000);
        add_flow(0, uint8_t(eg), 0, 0, 64, 512, 1.8, 12000, 38000);
        add_flow(0, uint8_t(eg), 8, 0, 64, 1500, 4.0, 12000, 38000);  // not policed
        reads(2, 12000, 38000, 1500);
        break;
      case kBurst:
        map(0, 0x9Bu);  // TC 0 -> policer 3, TC 1 -> policer 1
        pol(3, 0x8000, 6000);
        pol(1, 0x4000, 3000);
        for (uint64_t s = 9000; s < 95000; s += 16000) {
          add_flow(0, uint8_t(eg), 0, 0, 64, 128, 100.0, s, s + 300);
          add_flow(0, uint8_t(eg), 8, 0, 64, 200, 100.0, s + 100, s + 500);
          reads(3, s, s + 400, 60, eg * prm_.num_tcs);
          reads(1, s + 100, s + 500, 60, eg * prm_.num_tcs + 1);
        }
        // tokens(t) exactly len * 65536 (conforms, spec 4.7: T >= len): port 1's policer 5
        // at 1 B/cycle is full (6400 B) when a first 64-byte packet is evaluated in cycle
        // 7000, its rate is then set to 0, and 64-byte packets take it down in exact steps:
        // 100 conform in all, the rest are dropped
        // A lowered burst below the stored tokens (spec 4.7: the next evaluation clamps):
        // port 1's policer 6 (TC 1) at 1 B/cycle is full (6400 B) at a 64-byte packet in
        // cycle 7500 and stores 6336 B; POL_BURST 1000 at 8000; the packet of cycle 8500
        // finds min(1000, 6336 + 1000) = 1000 B, conforms and leaves 936 B
        if (P > 1) {
          map(1, 0xEDu);
          pol(13, 0x10000, 6400);
          pol(14, 0x10000, 6400);
          pol(13, 0, 6400, 8000);
          wr(XTM_POL_SEL_REG_OFFSET, 14, 8000);
          wr(XTM_POL_BURST_REG_OFFSET, 1000, 8000);
          add_flow(1, 0, 0, 0, 64, 64, 2.0, 7000, 7001);
          add_flow(1, 0, 8, 0, 64, 64, 2.0, 7500, 7501);
          add_flow(1, 0, 8, 0, 64, 64, 2.0, 8500, 8501);
          add_flow(1, 0, 0, 0, 64, 64, 2.0, 9000, 20000);
          reads(14, 8400, 8600, 60, 1);
          reads(13, 9000, 20000, 700, 0);
        }
        break;
      case kExceed:
        map(0, 0x88u);  // TC 0 and TC 1 -> policer 0
        pol(0, 0x10000, 3000);
        add_flow(0, uint8_t(eg), 0, 0, 64, 1500, 3.0, 2000, 95000);
        add_flow(0, uint8_t(eg), 8, 0, 64, 1500, 3.0, 2000, 95000);
        if (P > 1) {
          map(1, 0x0Fu);  // TC 0 -> policer 7 of port 1
          pol(15, 0x40000, 9000);
          add_flow(1, 0, 0, 0, 64, 9000, 6.0, 3000, 95000);
          add_flow(1, 0, 8, 0, 64, 9000, 2.0, 3000, 95000);  // not policed
          // VOQ 0 disabled for a while: a non-conforming arrival is POLICE (check p comes
          // before a), a conforming one QDISABLED
          voq_wr(0, XTM_Q_CFG_REG_OFFSET, 0, 40000);
          voq_wr(0, XTM_Q_CFG_REG_OFFSET, 1, 50000);
          reads(15, 3000, 95000, 3000);
        }
        reads(0, 2000, 95000, 2500);
        break;
      case kReconfig:
        reconfig();
        break;
    }
    // the accesses in time order (the configuration keeps its order: POL_SEL and its
    // window's writes share one earliest cycle)
    std::stable_sort(csr_.begin(), csr_.end(),
                     [](const CsrOp &a, const CsrOp &b) { return a.not_before < b.not_before; });
  }
  bool final_check(xtm_t *m) override {
    uint32_t P = prm_.num_ports;
    uint64_t pass = 0, drop = 0, dpol = 0, pol_drops = 0;
    for (uint32_t k = 0; k < P * XTM_POLS_PER_PORT; k++) {
      pol_drops += xtm_pol_counter(m, k, kXtmPolcntDropPkts);
    }
    for (uint32_t v = 0; v < P * prm_.num_tcs; v++) dpol += xtm_voq_counter(m, v, kXtmVcntDropPol);
    bool ok = dpol == pol_drops;  // every POLICE drop counted per VOQ and per policer
    switch (mode_) {
      case kConform:
        pass = xtm_pol_counter(m, 2, kXtmPolcntPassPkts);
        drop = xtm_pol_counter(m, 2, kXtmPolcntDropPkts);
        ok = ok && pass > 100 && drop == 0 && pol_drops == 0;
        break;
      case kBurst:
        if (P > 1) {
          pass = xtm_pol_counter(m, 13, kXtmPolcntPassPkts);
          printf("%s: policer 13 passed %" PRIu64 " of 64 B from 6400 B at rate 0 (100)\n",
                 name_.c_str(), pass);
          ok = ok && pass == 100;
          xtm_pol_state_t st;
          xtm_pol_state(m, 14, &st);
          uint64_t p14 = xtm_pol_counter(m, 14, kXtmPolcntPassPkts);
          printf("%s: policer 14 passed %" PRIu64 " (2), tokens %" PRIu64 " B at %" PRIu64
                 " (936 B at 8500)\n",
                 name_.c_str(), p14, st.tok >> 16, st.u);
          ok = ok && p14 == 2 && xtm_pol_counter(m, 14, kXtmPolcntDropPkts) == 0 &&
               st.tok == (936ull << 16) && st.u == 8500;
        }
        for (uint32_t k : {1u, 3u}) {
          pass = xtm_pol_counter(m, k, kXtmPolcntPassPkts);
          drop = xtm_pol_counter(m, k, kXtmPolcntDropPkts);
          printf("%s: policer %u passed %" PRIu64 " dropped %" PRIu64 "\n", name_.c_str(), k, pass,
                 drop);
          ok = ok && pass > 50 && drop > 50;
        }
        break;
      case kExceed:
        pass = xtm_pol_counter(m, 0, kXtmPolcntPassPkts);
        drop = xtm_pol_counter(m, 0, kXtmPolcntDropPkts);
        ok = ok && pass > 50 && drop > pass;
        break;
      case kReconfig:
        ok = ok && pol_drops > 0 && rate_read_ && rate_ok_;
        break;
    }
    printf("%s: passed %" PRIu64 " dropped %" PRIu64 " (all policers %" PRIu64
           ", Q_DROP_POL %" PRIu64 ")\n",
           name_.c_str(), pass, drop, pol_drops, dpol);
    if (!ok)
      printf("FAILURE: %s: the policer counts are not what the test sets up\n", name_.c_str());
    return ok;
  }
  // reconfig: descriptors on port 0 (policed once P_POL_MAP is written) during the sweep's
  // last cycles: NOT_READY, and no policer may see them
  void stimulus(uint64_t t, xtm_in_t &in) override {
    XtmTest::stimulus(t, in);
    uint64_t init = XTM_INIT_CYCLES(prm_.num_ports);
    if (mode_ == kReconfig && t + 6 >= init && t < init) {
      in.enq =
          (xtm_enq_in_t){true, 0xEE000000u | uint32_t(t), 0, uint8_t(1 % prm_.num_ports), 0, 0, 64};
    }
  }
  // the POL_RATE write during the initialisation sweep was refused (spec 3): the first
  // POL_RATE read, after the sweep, returns the reset value 0
  void csr_result(uint64_t t, const CsrOp &op, uint32_t rdata) override {
    if (mode_ == kReconfig && !op.write && op.addr == XTM_POL_RATE_REG_OFFSET && !rate_read_) {
      rate_read_ = true;
      rate_ok_ = rdata == 0 && t >= XTM_INIT_CYCLES(prm_.num_ports);
    }
  }

 private:
  void map(uint32_t port, uint32_t m, uint64_t nb = 0) {
    port_wr(port, XTM_P_POL_MAP_REG_OFFSET, m, nb);
  }
  void pol(uint32_t k, uint32_t rate, uint32_t burst, uint64_t nb = 0) {
    wr(XTM_POL_SEL_REG_OFFSET, k, after_init(nb));  // (one earliest cycle: see setup)
    wr(XTM_POL_RATE_REG_OFFSET, rate, after_init(nb));
    wr(XTM_POL_BURST_REG_OFFSET, burst, after_init(nb));
  }
  // reads of policer k's registers (and VOQ v's Q_DROP_POL) every `every` cycles in [from, to)
  void reads(uint32_t k, uint64_t from, uint64_t to, uint64_t every, uint32_t v = 0) {
    static const uint16_t kR[] = {XTM_POL_TOKENS_REG_OFFSET,       XTM_POL_PASS_PKTS_LO_REG_OFFSET,
                                  XTM_POL_DROP_PKTS_LO_REG_OFFSET, XTM_POL_DROP_BYTES_LO_REG_OFFSET,
                                  XTM_CNT_HI_REG_OFFSET,           XTM_POL_RATE_REG_OFFSET,
                                  XTM_POL_BURST_REG_OFFSET,        XTM_POL_TOKENS_REG_OFFSET};
    for (uint64_t c = from; c < to; c += every) {
      wr(XTM_POL_SEL_REG_OFFSET, k, c);
      for (uint16_t a : kR) rd(a, c);
      wr(XTM_VOQ_SEL_REG_OFFSET, v, c);
      rd(XTM_Q_DROP_POL_LO_REG_OFFSET, c);
      rd(XTM_Q_DROP_BYTES_LO_REG_OFFSET, c);
    }
  }
  void reconfig() {
    uint32_t P = prm_.num_ports, eg = 1 % P;
    pol(0, 0x18000, 8000);
    pol(1, 0x8000, 4000);
    add_flow(0, uint8_t(eg), 0, 0, 64, 1500, 3.0, 1000, 98000);
    add_flow(0, uint8_t(eg), 8, 0, 64, 600, 2.0, 1000, 98000);
    for (uint64_t s = 5000; s < 95000; s += 9000) {  // back-to-back bursts now and then
      add_flow(0, uint8_t(eg), uint8_t(rnd(2) * 8), 0, 64, 256, 100.0, s, s + 200);
    }
    if (P > 1) add_flow(1, 0, 0, 0, 64, 1500, 3.0, 1000, 98000);
    for (uint64_t c = 2000; c < 96000; c += 300 + rnd(1500)) {
      uint32_t k = rnd(3) == 0 ? (P > 1 ? 8 + rnd(8) : rnd(8)) : rnd(2);
      switch (rnd(9)) {
        case 0:
          pol(k, rnd(4) == 0 ? 0 : rnd(0x40000), 1000 + rnd(12000), c);
          break;
        case 1:  // a burst below what the bucket may hold: the clamp at the next evaluation
          wr(XTM_POL_SEL_REG_OFFSET, k, c);
          wr(XTM_POL_BURST_REG_OFFSET, rnd(3) == 0 ? 0 : rnd(2000), c);
          break;
        case 2:
          wr(XTM_POL_SEL_REG_OFFSET, k, c);
          wr(XTM_POL_RATE_REG_OFFSET, rnd(0x60000), c);
          break;
        case 3:  // the policers of port 0's classes swapped, shared, disabled
          map(0, (rnd(4) != 0 ? 8u : 0u) | rnd(8) | ((rnd(4) != 0 ? 8u : 0u) | rnd(8)) << 4, c);
          break;
        case 4:
          if (P > 1) map(1, 0x8u | rnd(8), c);
          break;
        case 5:
          wr(XTM_CTRL_REG_OFFSET, 1, c);
          break;
        default:
          reads(k, c, c + 1, 1);
          rd(XTM_POL_DROP_BYTES_HI_REG_OFFSET, c);
          rd(XTM_POL_PASS_PKTS_HI_REG_OFFSET, c);
          rd(XTM_P_POL_MAP_REG_OFFSET, c);
          break;
      }
    }
  }
  Mode mode_;
  bool rate_read_ = false, rate_ok_ = false;
};

// ------------------------------------------------------------------ random
class Random : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 200000; }
  void setup() {
    uint32_t P = prm_.num_ports, T = prm_.num_tcs, NV = P * T;
    for (uint32_t pr = 0; pr < 8; pr++) {
      uint32_t n = rnd(4), f = 0, q = 0;
      std::vector<std::pair<uint32_t, uint32_t>> pts;
      for (uint32_t i = 0; i < n; i++) {
        f += 1 + rnd(20000);
        q += rnd(30000);
        pts.push_back({f > 65536 ? 65536 : f, q > 65536 ? 65536 : q});
      }
      profile(pr, rnd(2), pts);
    }
    for (uint32_t v = 0; v < NV; v++) {
      voq_wr(v, XTM_Q_CFG_REG_OFFSET,
             qcfg(rnd(5) == 0, rnd(4) == 0, rnd(2), rnd(2), rnd(3), rnd(8), rnd(2), rnd(8), rnd(2),
                  rnd(4) == 0));
      voq_wr(v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 8 + rnd(200));
      voq_wr(v, XTM_Q_QUANTUM_REG_OFFSET, 64 + rnd(12000));
      voq_wr(v, XTM_Q_LAT_THRESH_REG_OFFSET, rnd(3000));
      voq_wr(v, XTM_Q_SHAPER_RATE_REG_OFFSET, rnd(0x40000));
      voq_wr(v, XTM_Q_SHAPER_BURST_REG_OFFSET, rnd(20000));
      voq_wr(v, XTM_Q_TARGET_RATE_REG_OFFSET, rnd(0x200000));
    }
    for (uint32_t p = 0; p < P; p++) {
      port_wr(p, XTM_P_SHAPER_CFG_REG_OFFSET, rnd(2) | rnd(64) << 8);
      port_wr(p, XTM_P_SHAPER_RATE_REG_OFFSET, 0x8000 + rnd(0x100000));
      port_wr(p, XTM_P_SHAPER_BURST_REG_OFFSET, rnd(30000));
      port_wr(p, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0x4000 + rnd(0x7C000));
      port_wr(p, XTM_P_PFC_QUANTA_REG_OFFSET, 1 + rnd(2000));
      port_wr(p, XTM_P_PFC_REFRESH_REG_OFFSET, 1 + rnd(3000));
      for (uint32_t pr = 0; pr < 8; pr++) {
        pg_wr(p, pr, XTM_G_CFG_REG_OFFSET, rnd(4) | rnd(8) << 4);
        uint32_t xoff = rnd(300);
        pg_wr(p, pr, XTM_G_XOFF_CELLS_REG_OFFSET, xoff);
        pg_wr(p, pr, XTM_G_XON_CELLS_REG_OFFSET, rnd(xoff + 1));
        pg_wr(p, pr, XTM_G_HDRM_CELLS_REG_OFFSET, rnd(100));
      }
    }
    // ingress policers (spec 4.7), from their own stream so that every other draw of a
    // seed is what it was before policing existed: per port a P_POL_MAP with about half
    // its classes policed (often several by one policer), per policer a rate of 0..16
    // bytes/cycle (0 now and then) and a burst of 0..24 KB (some below a frame)
    pol_rng_ = rng_ ^ 0x9E3779B97F4A7C15ull;
    for (uint32_t p = 0; p < P; p++) {
      uint32_t m = 0;
      for (uint32_t tc = 0; tc < 8; tc++) {
        m |= (prnd(2) << 3 | prnd(prnd(2) ? 2 : 8)) << (4 * tc);
      }
      port_wr(p, XTM_P_POL_MAP_REG_OFFSET, m);
      for (uint32_t j = 0; j < 8; j++) {
        wr(XTM_POL_SEL_REG_OFFSET, p * 8 + j);
        wr(XTM_POL_RATE_REG_OFFSET, prnd(8) == 0 ? 0 : prnd(0x100000), after_init(0));
        wr(XTM_POL_BURST_REG_OFFSET, prnd(6) == 0 ? prnd(1500) : prnd(24000), after_init(0));
      }
    }
    wr(XTM_POOL_CELLS_REG_OFFSET, 200 + rnd(2000));
    wr(XTM_HBM_EVICT_CELLS_REG_OFFSET, rnd(60));
    wr(XTM_HBM_RETURN_CELLS_REG_OFFSET, rnd(30));
    wr(XTM_HBM_WR_RATE_REG_OFFSET, rnd(0x20000));
    wr(XTM_HBM_WR_BURST_REG_OFFSET, rnd(100));
    wr(XTM_HBM_RD_RATE_REG_OFFSET, 1 + rnd(0x20000));
    wr(XTM_HBM_RD_BURST_REG_OFFSET, rnd(100));
    wr(XTM_HBM_RD_LAT_REG_OFFSET, 1 + rnd(800));
    wr(XTM_OCB_RD_LAT_REG_OFFSET, 1 + rnd(10));
    wr(XTM_OCB_ONLY_CYCLES_REG_OFFSET, rnd(2000));
    wr(XTM_WD_CTRL_REG_OFFSET, rnd(4));
    wr(XTM_WD_DETECT_POLLS_REG_OFFSET, 1 + rnd(3));
    wr(XTM_WD_RESTORE_POLLS_REG_OFFSET, 1 + rnd(3));
    wr(XTM_WD_POLL_CYCLES_REG_OFFSET, 200 + rnd(5000));
    wr(XTM_TC_PG_MAP_REG_OFFSET, uint32_t(tb_rand(&rng_)) & 0x77777777u);
    wr(XTM_LFSR_SEED_REG_OFFSET, uint32_t(tb_rand(&rng_)) | 1u);
    uint32_t nflows = 2 + rnd(2 * P);
    for (uint32_t i = 0; i < nflows; i++) {
      uint64_t s = 500 + rnd(20000);
      add_flow(uint8_t(rnd(P)), uint8_t(rnd(P)), uint8_t(rnd(64)), uint8_t(rnd(4)), 64,
               uint16_t(64 + rnd(9152)), 0.5 + rnd(100) / 10.0, s, s + 50000 + rnd(150000), rnd(2),
               uint8_t(rnd(8)));
    }
    for (uint64_t c = 1000; c < 200000; c += 100 + rnd(4000)) {
      pfc_events_.push_back({c, rnd(P), uint8_t(rnd(256)), uint16_t(rnd(3) == 0 ? 0 : rnd(3000))});
    }
    for (uint64_t c = 3000; c < 200000; c += 1000 + rnd(6000)) {
      static const uint16_t kW[] = {XTM_Q_LIMIT_CELLS_REG_OFFSET,  XTM_P_SHAPER_RATE_REG_OFFSET,
                                    XTM_G_XOFF_CELLS_REG_OFFSET,   XTM_POOL_CELLS_REG_OFFSET,
                                    XTM_Q_SHAPER_BURST_REG_OFFSET, XTM_WD_CTRL_REG_OFFSET};
      static const uint16_t kR[] = {XTM_POOL_WM_REG_OFFSET,
                                    XTM_Q_WM_CELLS_REG_OFFSET,
                                    XTM_G_PAUSED_CYCLES_LO_REG_OFFSET,
                                    XTM_Q_DEQ_PKTS_LO_REG_OFFSET,
                                    XTM_CNT_HI_REG_OFFSET,
                                    XTM_LFSR_STATE_REG_OFFSET,
                                    0x0FF0,
                                    XTM_G_PAUSE_REMAIN_REG_OFFSET,
                                    XTM_P_STATUS_REG_OFFSET,
                                    XTM_Q_STATUS_REG_OFFSET};
      wr(XTM_VOQ_SEL_REG_OFFSET, rnd(NV), c);
      wr(XTM_PG_SEL_REG_OFFSET, rnd(P * 8), c);
      wr(XTM_PORT_SEL_REG_OFFSET, rnd(P), c);
      if (rnd(2)) {
        wr(kW[rnd(6)], uint32_t(tb_rand(&rng_)) & 0x3FFF, c);
      } else {
        rd(kR[rnd(10)], c);
      }
      // a policer rewritten or read, or a port's P_POL_MAP, now and then (own stream)
      wr(XTM_POL_SEL_REG_OFFSET, prnd(P * 8), c);
      switch (prnd(6)) {
        case 0:
          wr(XTM_POL_RATE_REG_OFFSET, prnd(0x100000), c);
          break;
        case 1:
          wr(XTM_POL_BURST_REG_OFFSET, prnd(24000), c);
          break;
        case 2:
          wr(XTM_P_POL_MAP_REG_OFFSET, uint32_t(tb_rand(&pol_rng_)), c);
          break;
        case 3:
          rd(XTM_POL_TOKENS_REG_OFFSET, c);
          break;
        case 4:
          rd(XTM_POL_DROP_BYTES_LO_REG_OFFSET, c);
          break;
        default:
          rd(XTM_POL_PASS_PKTS_LO_REG_OFFSET, c);
          break;
      }
    }
    flip_every_ = 2000 + rnd(20000);
  }
  uint64_t tx_ready_at(uint64_t t) override {
    uint64_t k = t / flip_every_;
    return ~(tb_rand(&k) & tb_rand(&k) & 0xFFull);  // some ports stalled at times
  }

 protected:
  uint32_t prnd(uint32_t n) { return n == 0 ? 0 : uint32_t(tb_rand(&pol_rng_) % n); }
  uint64_t pol_rng_ = 0;

 private:
  uint64_t flip_every_ = 5000;
};

// ------------------------------------------------------------------ soak (nightly)
// `random`'s configuration, then every epoch of 250000 cycles new random flows, PFC frames
// and CSR reconfiguration under traffic, for as long as +cycles says (the nightly soak runs
// 10^8 cycles). Only the current epoch's events are held, so the cost per cycle stays flat.
class Soak : public Random {
 public:
  using Random::Random;
  uint64_t default_cycles() const override { return 100000000; }
  void stimulus(uint64_t t, xtm_in_t &in) override {
    if (t >= next_epoch_) epoch(t);
    Random::stimulus(t, in);
    if (t < XTM_INIT_CYCLES(prm_.num_ports)) {  // during initialisation: NOT_READY (spec 3)
      in.enq = (xtm_enq_in_t){true, 0xEE000000u | uint32_t(t), 0, 0, 0, 1, 64};
    }
  }

 private:
  static constexpr uint64_t kEpoch = 250000;
  uint64_t next_epoch_ = kEpoch;
  void epoch(uint64_t t0) {
    next_epoch_ = t0 + kEpoch;
    uint32_t P = prm_.num_ports, NV = P * prm_.num_tcs;
    flows_.clear();
    pfc_events_.clear();
    for (uint32_t i = 0, n = 2 + rnd(2 * P); i < n; i++) {
      uint64_t s = t0 + 500 + rnd(20000);
      add_flow(uint8_t(rnd(P)), uint8_t(rnd(P)), uint8_t(rnd(64)), uint8_t(rnd(4)), 64,
               uint16_t(64 + rnd(9152)), 0.5 + rnd(100) / 10.0, s, s + 50000 + rnd(150000), rnd(2),
               uint8_t(rnd(8)));
    }
    // PAUSE frames sparser and shorter than `random`'s, which over a long run keep most
    // ports paused (quanta up to 3000 = 15000 cycles every ~2000 cycles)
    for (uint64_t c = t0 + 1000; c < t0 + kEpoch; c += 2000 + rnd(20000)) {
      pfc_events_.push_back({c, rnd(P), uint8_t(rnd(256)), uint16_t(rnd(3) == 0 ? 0 : rnd(1000))});
    }
    // one profile becomes a step to probability 1 at a random fill, so lossy queues using
    // it also see fills above Kmax (random profiles rarely reach p = 1)
    profile(rnd(8), false, {{uint32_t(8192 + rnd(40000)), 65536u}});
    // a new DSCP -> TC map: mostly TCs the configuration has (the reset map, TC = DSCP >> 3,
    // sends 3 of 4 random DSCPs to a missing TC when there are 2), 1 in 16 any TC (BAD_TC)
    for (uint32_t k = 0; k < 8; k++) {
      uint32_t w = 0;
      for (uint32_t n = 0; n < 8; n++) {
        w |= (rnd(16) == 0 ? rnd(8) : rnd(prm_.num_tcs)) << (4 * n);
      }
      wr(XTM_DSCP_MAP_0_REG_OFFSET + 4 * k, w, t0 + 100);
    }
    // reconfiguration under traffic, each register within the range `random` draws from
    // (any 14-bit value starved the ports: a port shaper rate below 0.25 B/cycle)
    for (uint64_t c = t0 + 3000; c < t0 + kEpoch; c += 1000 + rnd(6000)) {
      wr(XTM_VOQ_SEL_REG_OFFSET, rnd(NV), c);
      wr(XTM_PG_SEL_REG_OFFSET, rnd(P * 8), c);
      wr(XTM_PORT_SEL_REG_OFFSET, rnd(P), c);
      if (rnd(2)) {
        switch (rnd(8)) {
          case 0:
            wr(XTM_Q_LIMIT_CELLS_REG_OFFSET, 8 + rnd(200), c);
            break;
          case 1:
            wr(XTM_P_SHAPER_RATE_REG_OFFSET, 0x8000 + rnd(0x100000), c);
            break;
          case 2:
            wr(XTM_G_XOFF_CELLS_REG_OFFSET, rnd(300), c);
            break;
          case 3:
            wr(XTM_POOL_CELLS_REG_OFFSET, 200 + rnd(2000), c);
            break;
          case 4:
            wr(XTM_Q_SHAPER_BURST_REG_OFFSET, rnd(20000), c);
            break;
          case 5:
            wr(XTM_WD_CTRL_REG_OFFSET, rnd(4), c);
            break;
          case 6:
            wr(XTM_Q_QUANTUM_REG_OFFSET, 64 + rnd(12000), c);
            break;
          default:
            wr(XTM_HBM_EVICT_CELLS_REG_OFFSET, rnd(60), c);
            break;
        }
      } else {
        rd(XTM_POOL_WM_REG_OFFSET, c);
      }
    }
  }
};

// ------------------------------------------------------------------ pipeline hazards (spec 15)
// Each case spec 15 defines for the pipeline, made to happen (the fcov points hz_*, prof_*,
// csr_*, clr_cnt_*, apb_* of tests/regress/fcov_points.tsv count them):
// - during the initialisation sweep: CTRL.CLR_CNT, a VOQ-window and a PG-window read
//   (refused, NOT_READY), STATUS (15.6);
// - phase A (1000-15000): one VOQ without port shaper drained at up to one packet per cycle
//   while one flow fills it: an acceptance and a selection of the same VOQ and PG in one
//   cycle, back-to-back selections (15.3); the MAC stops 20 cycles of every 100, so the
//   VOQ's occupancy sweeps through the tail-marking profile's Kmin/Kmax within a few cycles
//   and the S(t-2) occupancy of 6.2 differs from S(t), sometimes across a zone; a second
//   tail-marking VOQ with Q_LIMIT_CELLS = 0 (the profile of a zero limit, 6.1; every
//   arrival TAIL-dropped);
// - phase C (16000-41000): head and latency marking under load with Q_MARK_HEAD /
//   Q_MARK_LAT / LFSR_HEAD_STATE reads and CTRL.CLR_CNT while marking decisions are in
//   flight (6.3), VOQ and PG watermark reads and clears in cycles that also remove packets;
//   an idle port's shaper bucket and the HBM write bucket lowered while full (5.4);
// - phase B (42000-55000, last: the descriptor FIFO case it provokes stopped the RTL once):
//   a queue-shaped VOQ (high rate, deep bucket) alone on its port, selected every second
//   cycle (the one-cycle gap of 9.5), then its bucket depth lowered under traffic (the
//   clamp at the next evaluation).
class Hazards : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 60000; }
  void setup() {
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    uint32_t eg_b = 1 % P, vb = eg_b * T, qc = T > 1 ? 1 : 0;
    uint8_t src = uint8_t(1 % P);
    wr(XTM_CTRL_REG_OFFSET, XTM_CTRL_CLR_CNT_MASK);
    rd(XTM_Q_CFG_REG_OFFSET);
    rd(XTM_G_CFG_REG_OFFSET);
    rd(XTM_STATUS_REG_OFFSET);
    rd(XTM_ERR_STATUS_REG_OFFSET);
    // phase A: VOQ 0 (port 0, queue 0), ECN tail marking, Kmin 5 / Kmax 15 of 200 cells
    profile(3, false, {{1638, 8192}, {4915, 65536}});
    // phase C's head profile draws from an empty queue on (10 % at fill 0, 100 % at Kmax 15
    // cells), so every head-marked selection leaves a decision in flight for three cycles
    profile(4, true, {{0, 6554}, {4915, 65536}});
    voq_wr(0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 200);
    voq_wr(0, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, true, false, 0, 3));
    add_flow(src, 0, 0, 2, 64, 256, 90.0, 1000, 15000);
    if (T > 1) {  // queue qc of port eg_b: a zero limit
      uint32_t vz = eg_b * T + qc;
      voq_wr(vz, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0);
      voq_wr(vz, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, true, false, 0, 3));
      add_flow(0, uint8_t(eg_b), uint8_t(8 * qc), 2, 64, 256, 1.0, 1000, 15000);
    }
    // phase C: VOQ 0 head-marked (interpolated profile), VOQ qc of port 0 latency-marked
    voq_wr(0, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, true, false, 1, 4), 15500);
    if (qc != 0) {
      voq_wr(qc, XTM_Q_LAT_THRESH_REG_OFFSET, 12, 15500);
      voq_wr(qc, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, true, false, 2, 0), 15500);
      add_flow(src, 0, uint8_t(8 * qc), 1, 64, 256, 30.0, 16000, 41000);
    }
    add_flow(src, 0, 0, 2, 64, 256, 60.0, 16000, 41000);
    uint32_t pg = src * 8u;  // the flows' PG: priority 0 of their ingress port (reset maps)
    for (uint64_t c = 17000; c < 41000; c += 40 + rnd(60)) {
      switch (rnd(8)) {
        case 0:
          wr(XTM_CTRL_REG_OFFSET, XTM_CTRL_CLR_CNT_MASK, c);
          break;
        case 1:
          rd(XTM_LFSR_HEAD_STATE_REG_OFFSET, c);
          break;
        case 2:
          wr(XTM_VOQ_SEL_REG_OFFSET, qc, c);
          rd(XTM_Q_MARK_LAT_LO_REG_OFFSET, c);
          rd(XTM_Q_MARK_LAT_LO_REG_OFFSET + 4, c);
          break;
        case 3:
          wr(XTM_VOQ_SEL_REG_OFFSET, 0, c);
          rd(XTM_Q_WM_CELLS_REG_OFFSET, c);
          break;
        case 4:
          wr(XTM_PG_SEL_REG_OFFSET, pg, c);
          rd(XTM_G_WM_CELLS_REG_OFFSET, c);
          rd(XTM_G_HDRM_WM_REG_OFFSET, c);
          break;
        default:
          wr(XTM_VOQ_SEL_REG_OFFSET, 0, c);
          rd(XTM_Q_MARK_HEAD_LO_REG_OFFSET, c);
          rd(XTM_Q_MARK_HEAD_LO_REG_OFFSET + 4, c);
          break;
      }
    }
    // bucket depths lowered while the buckets are full (the clamp of 5.4 at the end of the
    // writing cycle): port eg_b's shaper (idle in A and C; disabled, its bucket still
    // fills) and the HBM write bucket (no HBM traffic here)
    port_wr(eg_b, XTM_P_SHAPER_BURST_REG_OFFSET, 1000, 20000);
    wr(XTM_HBM_WR_BURST_REG_OFFSET, 16, 20000);
    // phase B: queue 0 of port eg_b shaped at 64 B/cycle with a 100 000-byte bucket, the
    // bucket lowered to 3000 bytes while full
    voq_wr(vb, XTM_Q_SHAPER_RATE_REG_OFFSET, 0x400000, 41500);
    voq_wr(vb, XTM_Q_SHAPER_BURST_REG_OFFSET, 100000, 41500);
    voq_wr(vb, XTM_Q_CFG_REG_OFFSET, qcfg(false, false, false, false, 0, 0, false, 0, false, true),
           41500);
    add_flow(0, uint8_t(eg_b), 0, 0, 64, 64, 90.0, 42000, 55000);
    voq_wr(vb, XTM_Q_SHAPER_BURST_REG_OFFSET, 3000, 50000);
  }
  // phases A and C: port 0's MAC stops for 20 of every 100 cycles
  uint64_t tx_ready_at(uint64_t t) override {
    bool stop = t < 41000 && t % 100 >= 80;
    return stop ? ~1ull : UINT64_MAX;
  }
};

// ------------------------------------------------------------------ incast (make cosim)
// 4:1 incast of RDMA (lossless, ECN head-marked, PFC with headroom, evicting to HBM)
// plus lossy background, at 100 Gb/s per port.
class Incast : public XtmTest {
 public:
  using XtmTest::XtmTest;
  uint64_t default_cycles() const override { return 1000000; }
  void setup() {
    line_rate_shapers();
    uint32_t P = prm_.num_ports, T = prm_.num_tcs;
    uint32_t eg = P > 4 ? 4 : P - 1;
    uint32_t tc = T > 3 ? 3 : T - 1;
    uint32_t v = eg * T + tc;
    for (uint32_t p = 0; p < P; p++) {
      pg_wr(p, tc, XTM_G_XOFF_CELLS_REG_OFFSET, 1200);
      pg_wr(p, tc, XTM_G_XON_CELLS_REG_OFFSET, 900);
      pg_wr(p, tc, XTM_G_HDRM_CELLS_REG_OFFSET, 200);
      pg_wr(p, tc, XTM_G_CFG_REG_OFFSET, 1);
      port_wr(p, XTM_P_PFC_QUANTA_REG_OFFSET, 0xFFFF);
      port_wr(p, XTM_P_PFC_REFRESH_REG_OFFSET, 150000);
    }
    profile(1, false, {{19661, 655}, {39322, 65536}});
    voq_wr(v, XTM_Q_CFG_REG_OFFSET, qcfg(false, true, true, false, 1, 1));
    voq_wr(v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 12000);
    voq_wr(v, XTM_Q_TARGET_RATE_REG_OFFSET, 0x0C8000);
    voq_wr(v, XTM_Q_QUANTUM_REG_OFFSET, 27648);
    voq_wr(eg * T, XTM_Q_LIMIT_CELLS_REG_OFFSET, 600);
    wr(XTM_HBM_EVICT_CELLS_REG_OFFSET, 2000);
    wr(XTM_HBM_RETURN_CELLS_REG_OFFSET, 500);
    wr(XTM_HBM_WR_RATE_REG_OFFSET, 0x40000);
    wr(XTM_HBM_RD_RATE_REG_OFFSET, 0x40000);
    uint8_t dscp = uint8_t(tc * 8);
    uint32_t nsrc = 0;
    for (uint32_t p = 0; p < P && nsrc < 4; p++) {
      if (p == eg) continue;
      add_flow(uint8_t(p), uint8_t(eg), dscp, 2, 4096, 4096, 12.5, 2000 + 13 * p, 900000, true,
               uint8_t(tc));
      nsrc++;
    }
    if (P == 2)
      add_flow(0, uint8_t(eg), dscp, 2, 4096, 4096, 12.5, 2100, 900000, true, uint8_t(tc));
    add_flow(uint8_t((eg + 1) % P), uint8_t(eg), 0, 0, 64, 1500, 3.0, 2000, 950000);
    cable_ = 500;
  }
};

template <class C>
XtmTest *mk(const std::string &n, uint64_t s, const xtm_params_t &p) {
  auto *t = new C(n, s, p);
  t->setup();
  return t;
}

template <int M>
XtmTest *mkpol(const std::string &n, uint64_t s, const xtm_params_t &p) {
  auto *t = new Police(n, s, p, static_cast<Police::Mode>(M));
  t->setup();
  return t;
}

struct Entry {
  const char *desc;
  std::function<XtmTest *(const std::string &, uint64_t, const xtm_params_t &)> make;
};

const std::map<std::string, Entry> &registry() {
  static const std::map<std::string, Entry> r = {
      {"smoke", {"three flows, light load", mk<Smoke>}},
      {"mark_tail",
       {"ECN tail marking through Kmin/Kmax",
        [](auto &n, auto s, auto &p) {
          auto *t = new Marking(n, s, p, 0, false);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"mark_head",
       {"ECN head marking through Kmin/Kmax",
        [](auto &n, auto s, auto &p) {
          auto *t = new Marking(n, s, p, 1, false);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"mark_latency",
       {"latency marking around its threshold",
        [](auto &n, auto s, auto &p) {
          auto *t = new Marking(n, s, p, 2, false);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"mark_interp",
       {"interpolated profile, head marking",
        [](auto &n, auto s, auto &p) {
          auto *t = new Marking(n, s, p, 1, true);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"pfc_gen", {"PFC XOFF/XON, headroom, refresh, dynamic threshold", mk<PfcGen>}},
      {"pause_rx", {"PAUSE reception and expiry", mk<PauseRx>}},
      {"pause_requantum", {"P_PAUSE_QUANTUM rewritten during pauses", mk<PauseRequantum>}},
      {"pfc_refresh", {"XOFF held: refresh frames, headroom overflow", mk<PfcRefresh>}},
      {"hbm", {"HBM eviction and return under bandwidth limits", mk<Hbm>}},
      {"dwrr", {"DWRR weights, a quantum below a packet, strict", mk<Dwrr>}},
      {"strict_arb", {"two strict queues and two ports backlogged at once", mk<StrictArb>}},
      {"shapers", {"port and queue shapers, rate change, MAC back-pressure", mk<Shapers>}},
      {"tail_pool", {"tail drop and shared-pool exhaustion", mk<TailPool>}},
      {"bad_desc", {"every kind of bad descriptor", mk<BadDesc>}},
      {"watchdog_drop",
       {"watchdog detection, drop action, restoration",
        [](auto &n, auto s, auto &p) {
          auto *t = new Watchdog(n, s, p, false);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"watchdog_fwd",
       {"watchdog detection, forward action, restoration",
        [](auto &n, auto s, auto &p) {
          auto *t = new Watchdog(n, s, p, true);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"reconfig", {"CSR reconfiguration under traffic", mk<Reconfig>}},
      {"csr_all", {"every address: reads, random writes, errors", mk<CsrAll>}},
      {"csr_edges",
       {"every field with a legal range: min-1, min, max, max+1 (generated table)", mk<CsrEdges>}},
      {"widths",
       {"max-size packets against limits at the top of their fields: 64-bit byte counters carry "
        "into their high word",
        mk<Widths>}},
      {"cells_top",
       {"CFG=wide: VOQ, pool, OCB and PG cell counts at 2^28-1, TAIL and POOL one cell over",
        [](auto &n, auto s, auto &p) {
          auto *t = new CellsTop(n, s, p, CellsTop::kNormal);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"hdrm_top",
       {"CFG=wide: headroom at 2^28-1 in XOFF from the start, HEADROOM and BUF_FULL one cell over",
        [](auto &n, auto s, auto &p) {
          auto *t = new CellsTop(n, s, p, CellsTop::kHdrm);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"hbm_top",
       {"CFG=widehbm: HBM_USED and Q_HBM_CELLS at 2^28-2 (the constraint's top with an OCB), TAIL, "
        "BUF_FULL one past",
        [](auto &n, auto s, auto &p) {
          auto *t = new CellsTop(n, s, p, CellsTop::kHbm);
          t->setup();
          return (XtmTest *)t;
        }}},
      {"counters",
       {"every counter read under back-to-back traffic, marks, flushes, clears", mk<Counters>}},
      {"police_conform", {"ingress policer: a flow under its rate, all conforming", mkpol<0>}},
      {"police_burst",
       {"ingress policers: back-to-back arrivals after idle refills, reads under traffic",
        mkpol<1>}},
      {"police_exceed", {"ingress policers: a shared policer at 6x its rate", mkpol<2>}},
      {"police_reconfig",
       {"ingress policers: rate, burst, P_POL_MAP rewritten under traffic; init refusal",
        mkpol<3>}},
      {"random", {"random legal configuration and traffic", mk<Random>}},
      {"soak",
       {"nightly soak: random traffic and reconfiguration, new every 250000 cycles", mk<Soak>}},
      {"hazards",
       {"spec 15's pipeline cases: init sweep, same-cycle VOQ/PG, back-to-back, shaper gap, marks "
        "in flight",
        mk<Hazards>}},
      {"incast",
       {"4:1 incast, lossless ECN head-marked class, PFC, HBM, lossy background", mk<Incast>}},
  };
  return r;
}

}  // namespace

XtmTest *xtm_make_test(const std::string &name, uint64_t seed, const xtm_params_t &p) {
  auto &r = registry();
  auto it = r.find(name);
  return it == r.end() ? nullptr : it->second.make(name, seed, p);
}

void xtm_list_tests() {
  for (auto &e : registry()) {
    printf("%-14s %s\n", e.first.c_str(), e.second.desc);
  }
}
