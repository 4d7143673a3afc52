// SPDX-License-Identifier: Apache-2.0
//
// Suite "pfc": PFC generation on the ingress side (docs/spec.md section 7.1): static and
// dynamic XOFF/XON thresholds, hysteresis, the frame and the cycle it appears in, refresh,
// headroom admission (section 4.4 check c) and the counters. Every expected value is derived
// by hand from the spec; the derivation sits next to it.
//
// Timing (spec 7.1, 15.2): a PG touched in cycle t (acceptance, removal, threshold write) is
// evaluated at step 7 of t+1 on S(t+1), so its frame is in cycle t+1; the new xoff is part
// of S(t+2), so the headroom check of the arrival in t+1 still sees the old xoff.
//
// Common set-up: 4 ports x 8 TCs, reset maps (TC = DSCP >> 3, queue = TC, PG = TC). The PG
// under test is (in_port 1, priority 3), fed by DSCP 24 (TC 3) towards egress port 2, so the
// VOQ is 2 * 8 + 3 = 19. To keep packets resident (pg_cells stays), VOQ 19 obeys received
// pause on priority 3 (Q_CFG.PFC_RX_EN) and egress port 2 receives a PFC frame with
// quanta 0xFFFF: with the reset P_PAUSE_QUANTUM 0x51EB8 it pauses
// ceil(65535 * 335544 / 65536) = ceil(335538.88) = 335539 cycles (spec 7.2), far longer than
// any test. An XON frame (quanta 0) on port 2 ends the pause in its own cycle, so VOQ 19 is
// selected in that cycle (step 2 before step 5) and then once per cycle (DWRR: quantum 9216
// bytes >> 256-byte packets, only port 2 requests, FIFO drains one per cycle).

#include <string.h>

#include "tests/unit/xtm_testlib.h"

enum {
  kIn = 1,             // ingress port of the PG under test
  kEg = 2,             // egress port of its VOQ
  kPrio = 3,           // PG / PFC priority (TC 3 with the reset TC_PG_MAP)
  kDscp = 24,          // DSCP 24 -> TC 3 -> queue 3, PG 3
  kVoq = kEg * 8 + 3,  // 19
  kQuanta = 0x1234,    // P_PFC_QUANTA programmed on port 1 (reset is 0xFFFF)
};

static uint32_t qcfg_pfc(uint32_t prio) {
  return 1u << XTM_Q_CFG_ENABLE_OFFSET | 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET |
         prio << XTM_Q_CFG_PFC_PRIO_OFFSET;
}

static void pause_port(xtm_t *m, uint32_t port, uint8_t vec, uint16_t q, xtm_out_t *out) {
  uint16_t quanta[8];
  for (int i = 0; i < 8; i++) {
    quanta[i] = q;
  }
  tl_pfc_rx(m, port, vec, quanta, out);
}

static void expect_no_frame(const xtm_out_t *o) {
  ck_assert_msg(o->pfc_tx_valid == 0, "unexpected pfc_tx (mask 0x%llx) at cycle %llu",
                (unsigned long long)o->pfc_tx_valid, (unsigned long long)o->cycle);
}

// A frame on port `port` only, with vec and quanta[i] = q for i in xoff, 0 otherwise.
static void expect_frame(const xtm_out_t *o, uint32_t port, uint8_t vec, uint8_t xoff, uint16_t q) {
  ck_assert_msg(o->pfc_tx_valid == 1ull << port, "pfc_tx mask 0x%llx at cycle %llu",
                (unsigned long long)o->pfc_tx_valid, (unsigned long long)o->cycle);
  ck_assert_uint_eq(o->pfc_tx[port].vec, vec);
  for (uint32_t i = 0; i < 8; i++) {
    ck_assert_uint_eq(o->pfc_tx[port].quanta[i], (xoff >> i & 1u) ? q : 0);
  }
}

static uint64_t pg_cnt_csr(xtm_t *m, uint32_t port, uint32_t prio, uint16_t lo) {
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, port * 8 + prio);
  return tl_rd64(m, lo);
}
static uint64_t port_cnt_csr(xtm_t *m, uint32_t port, uint16_t lo) {
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, port);
  return tl_rd64(m, lo);
}
static uint64_t voq_cnt_csr(xtm_t *m, uint32_t voq, uint16_t lo) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, voq);
  return tl_rd64(m, lo);
}

static void pg_cfg(xtm_t *m, uint32_t port, uint32_t prio, uint32_t gcfg, uint32_t xoff,
                   uint32_t xon, uint32_t hdrm) {
  tl_pg_wr(m, port, prio, XTM_G_CFG_REG_OFFSET, gcfg);
  tl_pg_wr(m, port, prio, XTM_G_XOFF_CELLS_REG_OFFSET, xoff);
  tl_pg_wr(m, port, prio, XTM_G_XON_CELLS_REG_OFFSET, xon);
  tl_pg_wr(m, port, prio, XTM_G_HDRM_CELLS_REG_OFFSET, hdrm);
}

static const uint32_t kPfcEn = 1u << XTM_G_CFG_PFC_EN_OFFSET;

// The common set-up; VOQ 19 held by a pause of 335539 cycles from the returned cycle on.
static xtm_t *setup(uint32_t gcfg, uint32_t xoff, uint32_t xon, uint32_t hdrm, uint32_t refresh) {
  xtm_t *m = tl_create(4, 8, 256);
  pg_cfg(m, kIn, kPrio, gcfg, xoff, xon, hdrm);
  tl_port_wr(m, kIn, XTM_P_PFC_QUANTA_REG_OFFSET, kQuanta);
  tl_port_wr(m, kIn, XTM_P_PFC_REFRESH_REG_OFFSET, refresh);
  tl_voq_wr(m, kVoq, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(kPrio));
  xtm_out_t out;
  pause_port(m, kEg, 1u << kPrio, 0xFFFF, &out);
  expect_no_frame(&out);
  return m;
}

// ------------------------------------------------------------------ static thresholds

// Table: packets of PG (1,3) arrive one per cycle while VOQ 19 is paused; then the pause is
// released and the VOQ drains one packet per cycle. XOFF when pg_cells >= XOFF_T after an
// accept, XON when pg_cells <= XON_T after a removal; the frame is in the next cycle. Cells =
// ceil(len / 256). Headroom 100 admits every arrival from two cycles after the XOFF arrival.
START_TEST(test_static_thresholds) {
  static const struct {
    uint32_t xoff_t, xon_t, n;
    uint16_t len[4];
    int xoff_at;  // arrival index whose cycle carries the XOFF frame (-1: none)
    int xon_at;   // drain index (0 = XON-rx cycle) whose cycle carries XON (-1: none)
  } kCases[] = {
      // pg_cells 1,2,3: 3 = one below XOFF_T 4 -> never XOFF, so never XON.
      {4, 2, 3, {256, 256, 256}, -1, -1},
      // 1,2,3,4: 4 = at XOFF_T -> XOFF at arrival 3. Drain 3 (one above XON_T 2), 2 (at) -> 1.
      {4, 2, 4, {256, 256, 256, 256}, 3, 1},
      // 1,2,3,5: 5 = one above (a 2-cell packet jumps over 4) -> XOFF at 3.
      // Drain: 256 leaves -> 4, -> 3, -> 2 = XON_T -> XON at drain 2.
      {4, 2, 4, {256, 256, 256, 512}, 3, 2},
      // 1,3,4 -> XOFF at 2. Drain: 256 -> 3 (one above 2), 512 -> 1 (one below 2) -> XON at 1.
      {4, 2, 3, {256, 512, 256}, 2, 1},
      // XON_T 3: 1,2,3,4 -> XOFF at 3; first removal -> 3 = XON_T -> XON at 0.
      {4, 3, 4, {256, 256, 256, 256}, 3, 0},
      // len 1 -> ceil(1/256) = 1 cell = XOFF_T 1 -> XOFF at 0; removal -> 0 = XON_T -> XON at 0.
      {1, 0, 1, {1, 0, 0, 0}, 0, 0},
      // 1024 B = 4 cells at once = XOFF_T -> XOFF at 0; removal -> 0 <= 2 -> XON at 0.
      {4, 2, 1, {1024, 0, 0, 0}, 0, 0},
      // 4, 5 cells: 5 = one below XOFF_T 6 -> none.
      {6, 2, 2, {1024, 256}, -1, -1},
  };
  for (size_t c = 0; c < sizeof(kCases) / sizeof(kCases[0]); c++) {
    xtm_t *m = setup(kPfcEn, kCases[c].xoff_t, kCases[c].xon_t, 100, 100000);
    xtm_out_t out;
    for (uint32_t i = 0; i <= kCases[c].n; i++) {  // cycle n: idle, carries a last frame
      if (i == kCases[c].n) {
        tl_idle(m, &out);
      } else {
        tl_enq(m, kIn, kEg, kDscp, 0, kCases[c].len[i], 100 + i, &out);
        ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
        ck_assert_uint_eq(out.enq_res.voq, kVoq);
        // Into headroom iff xoff is set in S(t): from two cycles after the XOFF arrival.
        ck_assert_msg(
            out.enq_res.hdrm == (kCases[c].xoff_at >= 0 && (int)i > kCases[c].xoff_at + 1),
            "case %zu arrival %u: hdrm %d", c, i, out.enq_res.hdrm);
      }
      if ((int)i == kCases[c].xoff_at + 1 && kCases[c].xoff_at >= 0) {
        expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
      } else {
        expect_no_frame(&out);
      }
    }
    xtm_pg_state_t g;
    xtm_pg_state(m, kIn, kPrio, &g);
    ck_assert_uint_eq(g.xoff, kCases[c].xoff_at >= 0);
    pause_port(m, kEg, 1u << kPrio, 0, &out);  // XON rx: drain index 0 is this cycle
    for (uint32_t k = 0; k < kCases[c].n + 4; k++) {
      if (k > 0) {
        tl_idle(m, &out);
      }
      if (kCases[c].xon_at >= 0 && (int)k == kCases[c].xon_at + 1) {  // the next cycle
        expect_frame(&out, kIn, 1u << kPrio, 0, 0);
      } else {
        ck_assert_msg(out.pfc_tx_valid == 0, "case %zu drain %u: unexpected frame", c, k);
      }
    }
    xtm_pg_state(m, kIn, kPrio, &g);
    ck_assert_uint_eq(g.pg_cells, 0);
    ck_assert(!g.xoff);
    uint64_t nx = kCases[c].xoff_at >= 0 ? 1 : 0, nn = kCases[c].xon_at >= 0 ? 1 : 0;
    ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), nx);
    ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XON_SENT_LO_REG_OFFSET), nn);
    ck_assert_uint_eq(port_cnt_csr(m, kIn, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), nx + nn);
    // No frame ever leaves on another port (PFC goes to the ingress port).
    for (uint32_t p = 0; p < 4; p++) {
      if (p != kIn) {
        ck_assert_uint_eq(port_cnt_csr(m, p, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), 0);
      }
    }
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// Hysteresis: XOFF_T 4, XON_T 2, headroom 10. Seven 1-cell packets: the 4th reaches XOFF_T,
// its frame comes with the 5th (evaluated in the next cycle), which still sees xoff = 0; the
// 6th and 7th (pg_cells 6, 7, above XOFF_T while set) send nothing and go to headroom.
// Draining: 6, 5, 4 (= XOFF_T again, set but no second XOFF), 3, 2 (= XON_T: XON in the
// next cycle), 1, 0.
START_TEST(test_hysteresis) {
  xtm_t *m = setup(kPfcEn, 4, 2, 10, 100000);
  xtm_out_t out;
  for (uint32_t i = 0; i < 7; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert_uint_eq(out.enq_res.hdrm, i >= 5);  // xoff in S(t) from the 6th arrival on
    if (i == 4) {
      expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
    } else {
      expect_no_frame(&out);
    }
  }
  xtm_pg_state_t g;
  xtm_pg_state(m, kIn, kPrio, &g);
  ck_assert_uint_eq(g.pg_cells, 7);
  ck_assert_uint_eq(g.hdrm_used, 2);  // the 6th and 7th packets
  ck_assert(g.xoff);
  ck_assert_uint_eq(tl_pg_rd(m, kIn, kPrio, XTM_G_STATUS_REG_OFFSET), 1);
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, kIn);
  ck_assert_uint_eq(tl_rd(m, XTM_P_STATUS_REG_OFFSET) & 0xFFu, 1u << kPrio);  // XOFF_MASK
  // Drain: pg_cells / hdrm_used after each removal. Spec 4.4: a PG drains its headroom
  // first, hdrm_used -= min(hdrm_used, cells), whichever packet leaves: 2 -> 1 -> 0.
  static const struct {
    uint32_t pg, hdrm;
    bool xon;
  } kDrain[] = {{6, 1, false}, {5, 0, false}, {4, 0, false}, {3, 0, false},
                {2, 0, false}, {1, 0, true},  {0, 0, false}};  // XON frame after removal 4
  pause_port(m, kEg, 1u << kPrio, 0, &out);
  uint32_t hd[7];
  for (uint32_t k = 0; k < 7; k++) {
    if (k > 0) {
      tl_idle(m, &out);
    }
    if (kDrain[k].xon) {
      expect_frame(&out, kIn, 1u << kPrio, 0, 0);
    } else {
      expect_no_frame(&out);
    }
    xtm_pg_state(m, kIn, kPrio, &g);
    ck_assert_uint_eq(g.pg_cells, kDrain[k].pg);
    hd[k] = g.hdrm_used;               // checked after the loop, so the frame checks still run
    ck_assert_uint_eq(g.xoff, k < 5);  // released by the evaluation in cycle 5
  }
  for (uint32_t k = 0; k < 7; k++) {
    // spec 4.4: "a PG drains its headroom first"
    ck_assert_msg(hd[k] == kDrain[k].hdrm, "removal %u: hdrm_used %u, expected %u", k, hd[k],
                  kDrain[k].hdrm);
  }
  ck_assert_uint_eq(tl_pg_rd(m, kIn, kPrio, XTM_G_HDRM_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XON_SENT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(port_cnt_csr(m, kIn, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), 2);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Runs idle cycles up to (not including) `target`, asserting that no PFC frame is sent.
static void run_no_frame(xtm_t *m, uint64_t target) {
  xtm_out_t out;
  while (xtm_advance_to(m, target, &out)) {
    expect_no_frame(&out);
  }
  ck_assert_uint_eq(xtm_cycle(m), target);
}

// Refresh: with P_PFC_REFRESH = 50, an XOFF frame at cycle tx is repeated at exactly tx+50,
// tx+100, tx+150, ... while XOFF holds (each frame sets refresh_at = t + 50), and stops once
// XON has been sent (mask = 0).
START_TEST(test_refresh) {
  const uint32_t kR = 50;
  xtm_t *m = setup(kPfcEn, 2, 0, 10, kR);
  xtm_out_t out;
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 1, &out);
  expect_no_frame(&out);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 2, &out);  // pg_cells 2 = XOFF_T
  expect_no_frame(&out);
  tl_idle(m, &out);  // evaluated in the next cycle
  expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
  const uint64_t tx = out.cycle;
  for (uint32_t r = 1; r <= 3; r++) {
    ck_assert(xtm_advance_to(m, tx + 1000, &out));  // first output: the refresh
    ck_assert_uint_eq(out.cycle, tx + r * kR);
    expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
  }
  // 1 XOFF + 3 refreshes, each counted in G_XOFF_SENT and P_PFC_TX_FRAMES.
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(port_cnt_csr(m, kIn, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), 4);
  // Release at tx + 3R + 10: removals at t0 (pg 1) and t0+1 (pg 0 = XON_T): XON at t0+2.
  run_no_frame(m, tx + 3 * kR + 10);
  pause_port(m, kEg, 1u << kPrio, 0, &out);
  expect_no_frame(&out);
  tl_idle(m, &out);
  expect_no_frame(&out);
  tl_idle(m, &out);
  expect_frame(&out, kIn, 1u << kPrio, 0, 0);
  // No refresh afterwards: mask is 0 (the two packets leave on deq[2], no pfc_tx).
  run_no_frame(m, out.cycle + 10 * kR);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XON_SENT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(port_cnt_csr(m, kIn, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), 5);
  xtm_destroy(m);
}
END_TEST

// Two PGs of ingress port 1, priorities 3 (VOQ 19) and 5 (DSCP 40 -> TC 5 -> VOQ 21), both
// XOFF_T 2, XON_T 0. vec = mask | rel, quanta for every priority in mask: the second XOFF
// frame and every refresh carry both priorities; the XON frame of priority 3 carries
// priority 5's XOFF too, and restarts the refresh timer.
START_TEST(test_multi_priority_frames) {
  const uint32_t kR = 40;
  xtm_t *m = setup(kPfcEn, 2, 0, 10, kR);
  pg_cfg(m, kIn, 5, kPfcEn, 2, 0, 10);
  tl_voq_wr(m, kEg * 8 + 5, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(5));
  xtm_out_t out;
  pause_port(m, kEg, 1u << 5, 0xFFFF, &out);  // hold VOQ 21 too
  const uint8_t k3 = 1u << 3, k5 = 1u << 5;
  tl_enq(m, kIn, kEg, 24, 0, 256, 1, &out);  // pg3 = 1
  expect_no_frame(&out);
  tl_enq(m, kIn, kEg, 40, 0, 256, 2, &out);  // pg5 = 1
  expect_no_frame(&out);
  tl_enq(m, kIn, kEg, 24, 0, 256, 3, &out);  // pg3 = 2
  expect_no_frame(&out);
  tl_enq(m, kIn, kEg, 40, 0, 256, 4, &out);  // pg5 = 2; pg3 evaluated: XOFF 3, mask {3}
  expect_frame(&out, kIn, k3, k3, kQuanta);
  tl_idle(m, &out);  // pg5 evaluated: XOFF 5, mask {3,5}
  expect_frame(&out, kIn, k3 | k5, k3 | k5, kQuanta);
  const uint64_t a = out.cycle;
  ck_assert(xtm_advance_to(m, a + 1000, &out));  // refresh at a + R with both
  ck_assert_uint_eq(out.cycle, a + kR);
  expect_frame(&out, kIn, k3 | k5, k3 | k5, kQuanta);
  // XON rx for priority 3 only, at r = a + R + 5: VOQ 19 drains at r (pg3 1) and r+1 (pg3 0
  // = XON_T): frame at r+2 with vec {3,5}, quanta[5] = P_PFC_QUANTA, quanta[3] = 0.
  run_no_frame(m, a + kR + 5);
  pause_port(m, kEg, k3, 0, &out);
  expect_no_frame(&out);
  tl_idle(m, &out);
  expect_no_frame(&out);
  tl_idle(m, &out);
  expect_frame(&out, kIn, k3 | k5, k5, kQuanta);
  const uint64_t x = out.cycle;
  // The next refresh is x + R (not a + 2R = x + 34), carrying priority 5 only.
  ck_assert(xtm_advance_to(m, x + 1000, &out));
  while (out.pfc_tx_valid == 0) {  // skip the two dequeue outputs of port 2
    ck_assert(xtm_advance_to(m, x + 1000, &out));
  }
  ck_assert_uint_eq(out.cycle, x + kR);
  expect_frame(&out, kIn, k5, k5, kQuanta);
  // G_XOFF_SENT(3): XOFF, second XOFF frame, refresh = 3. G_XOFF_SENT(5): second XOFF frame,
  // refresh, XON frame, last refresh = 4. G_XON_SENT(3) = 1, (5) = 0. Frames: 5.
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, 3, XTM_G_XOFF_SENT_LO_REG_OFFSET), 3);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, 5, XTM_G_XOFF_SENT_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, 3, XTM_G_XON_SENT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, 5, XTM_G_XON_SENT_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(port_cnt_csr(m, kIn, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), 5);
  ck_assert_uint_eq(xtm_pg_counter(m, kIn, 5, kXtmGcntXoffSent), 4);
  ck_assert_uint_eq(xtm_port_counter(m, kIn, kXtmPcntPfcTxFrames), 5);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ dynamic threshold

// DYNAMIC: XOFF_T = free >> ALPHA with free = POOL_CELLS - pool_used of S(t+1), i.e. at the
// end of the arrival's cycle (the arriving packet included), evaluated and sent in the next
// cycle; XON_T = XOFF_T - G_XON_CELLS (0 if not above).
// `pre` 1-cell packets of PG (0,3) (no PFC) sit in VOQ 19 first and count in pool_used.
START_TEST(test_dynamic_threshold) {
  static const struct {
    uint32_t pool, alpha, xon, pre, k_xoff;
    int xon_at;
  } kCases[] = {
      // pool 20, alpha 1, 4 pre: k arrivals -> XOFF_T = (20-4-k) >> 1.
      // k=4: 12>>1 = 6 > 4, no. k=5: 11>>1 = 5 <= 5: XOFF at k=5.
      // Drain: removals 0..3 are PG (0,3) packets: PG (1,3) is not evaluated (free grows
      // but the state is kept; evaluated at removal 2 it would release: pool 6, XOFF_T 7,
      // XON_T 5 >= 5). Removal 4 is PG (1,3): pg 4, pool 4, XOFF_T 16>>1 = 8, XON_T 6 -> XON.
      {20, 1, 2, 4, 5, 4},
      // pool 40, alpha 2, no pre: k=7: 33>>2 = 8 > 7 no; k=8: 32>>2 = 8 <= 8: XOFF at 8.
      // Drain: removal 0: pg 7, pool 7, XOFF_T 33>>2 = 8, XON_T 8-3 = 5, 7 > 5.
      // removal 1: pg 6, XOFF_T 34>>2 = 8, XON_T 5. removal 2: pg 5, 35>>2 = 8, 5 <= 5: XON.
      {40, 2, 3, 0, 8, 2},
      // pool 16, alpha 0, xon 20 (> XOFF_T: XON_T = 0): k=7: 9 > 7; k=8: 8 <= 8: XOFF.
      // XON only at pg 0: removal 7.
      {16, 0, 20, 0, 8, 7},
  };
  for (size_t c = 0; c < sizeof(kCases) / sizeof(kCases[0]); c++) {
    uint32_t gcfg =
        kPfcEn | 1u << XTM_G_CFG_DYNAMIC_OFFSET | kCases[c].alpha << XTM_G_CFG_ALPHA_OFFSET;
    xtm_t *m = setup(gcfg, 0x0FFFFFFF, kCases[c].xon, 100, 100000);
    tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, kCases[c].pool);
    xtm_out_t out;
    for (uint32_t i = 0; i < kCases[c].pre; i++) {
      tl_enq(m, 0, kEg, kDscp, 0, 256, 1000 + i, &out);
      ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
      expect_no_frame(&out);
    }
    for (uint32_t k = 1; k <= kCases[c].k_xoff; k++) {
      tl_enq(m, kIn, kEg, kDscp, 0, 256, k, &out);
      ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
      ck_assert(!out.enq_res.hdrm);
      ck_assert_msg(out.pfc_tx_valid == 0, "case %zu: frame at arrival k=%u", c, k);
    }
    tl_idle(m, &out);  // the evaluation of the last arrival
    expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
    pause_port(m, kEg, 1u << kPrio, 0, &out);
    uint32_t total = kCases[c].pre + kCases[c].k_xoff;
    for (uint32_t k = 0; k < total + 3; k++) {
      if (k > 0) {
        tl_idle(m, &out);
      }
      if ((int)k == kCases[c].xon_at + 1) {  // the cycle after the releasing removal
        expect_frame(&out, kIn, 1u << kPrio, 0, 0);
      } else {
        ck_assert_msg(out.pfc_tx_valid == 0, "case %zu: frame at removal %u", c, k);
      }
    }
    ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), 1);
    ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XON_SENT_LO_REG_OFFSET), 1);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// ------------------------------------------------------------------ headroom

// XOFF_T 2, G_HDRM_CELLS 5, Q_LIMIT_CELLS(19) 2, POOL_CELLS 2. The second arrival reaches
// XOFF_T; the PG is evaluated in the next (idle) cycle, which sends XOFF; from the cycle
// after, arrivals bypass the VOQ limit and the pool (check c skips d-f) and fill headroom: 3 cells
// (0+3 <= 5), 2 cells (3+2 = 5, exactly at), 1 cell (5+1 = 6 > 5: HEADROOM). Draining gives the
// cells back to hdrm_used when the headroom packets leave.
START_TEST(test_headroom) {
  xtm_t *m = setup(kPfcEn, 2, 0, 5, 100000);
  tl_voq_wr(m, kVoq, XTM_Q_LIMIT_CELLS_REG_OFFSET, 2);
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 2);
  static const struct {
    uint16_t len;
    xtm_reason_t reason;
    bool hdrm, xoff_frame;
    uint32_t pg_cells, hdrm_used;
  } kArr[] = {
      {256, kXtmReasonAccept, false, false, 1, 0},    // occ 0+1 <= 2, pool 0+1 <= 2
      {256, kXtmReasonAccept, false, true, 2, 0},     // pg 2 = XOFF_T: XOFF next cycle
      {768, kXtmReasonAccept, true, false, 5, 3},     // 3 cells: occ 5 > limit, bypassed
      {512, kXtmReasonAccept, true, false, 7, 5},     // hdrm 3+2 = 5 = G_HDRM_CELLS: at
      {1, kXtmReasonHeadroom, false, false, 7, 5},    // 5+1 = 6 > 5: one above -> drop
      {257, kXtmReasonHeadroom, false, false, 7, 5},  // 5+2 = 7 > 5 -> drop
  };
  xtm_out_t out;
  for (uint32_t i = 0; i < sizeof(kArr) / sizeof(kArr[0]); i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, kArr[i].len, i, &out);
    ck_assert_msg(out.enq_res.reason == kArr[i].reason, "arrival %u: %s", i,
                  xtm_reason_name(out.enq_res.reason));
    ck_assert_uint_eq(out.enq_res.voq, kVoq);
    ck_assert_uint_eq(out.enq_res.hdrm, kArr[i].hdrm);
    expect_no_frame(&out);
    if (kArr[i].xoff_frame) {
      tl_idle(m, &out);
      expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
    }
    xtm_pg_state_t g;
    xtm_pg_state(m, kIn, kPrio, &g);
    ck_assert_uint_eq(g.pg_cells, kArr[i].pg_cells);
    ck_assert_uint_eq(g.hdrm_used, kArr[i].hdrm_used);
  }
  ck_assert_uint_eq(voq_cnt_csr(m, kVoq, XTM_Q_DROP_HDRM_LO_REG_OFFSET), 2);
  ck_assert_uint_eq(voq_cnt_csr(m, kVoq, XTM_Q_ENQ_PKTS_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(tl_voq_rd(m, kVoq, XTM_Q_OCC_CELLS_REG_OFFSET), 7);  // 1+1+3+2
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 7);              // headroom included
  ck_assert_uint_eq(tl_pg_rd(m, kIn, kPrio, XTM_G_HDRM_USED_REG_OFFSET), 5);
  // Drain in FIFO order, headroom first (spec 4.4, hdrm -= min(hdrm, cells)):
  // 256 (pg 6, hdrm 5-1 = 4), 256 (pg 5, hdrm 3), 768 (pg 2, hdrm 3-3 = 0),
  // 512 (pg 0, hdrm 0 -> XON, XON_T 0, sent in the next cycle 4).
  static const struct { uint32_t pg, hdrm; } kDrain[] = {{6, 4}, {5, 3}, {2, 0}, {0, 0}, {0, 0}};
  pause_port(m, kEg, 1u << kPrio, 0, &out);
  uint32_t hd[5];
  for (uint32_t k = 0; k < 5; k++) {
    if (k > 0) {
      tl_idle(m, &out);
    }
    if (k == 4) {
      expect_frame(&out, kIn, 1u << kPrio, 0, 0);
    } else {
      expect_no_frame(&out);
    }
    xtm_pg_state_t g;
    xtm_pg_state(m, kIn, kPrio, &g);
    ck_assert_uint_eq(g.pg_cells, kDrain[k].pg);
    hd[k] = g.hdrm_used;  // checked after the loop, so the frame checks still run
  }
  for (uint32_t k = 0; k < 5; k++) {
    // spec 4.4: "a PG drains its headroom first"
    ck_assert_msg(hd[k] == kDrain[k].hdrm, "removal %u: hdrm_used %u, expected %u", k, hd[k],
                  kDrain[k].hdrm);
  }
  // Out of XOFF the normal path applies again: occ 0+1 <= 2, no headroom.
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 99, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(!out.enq_res.hdrm);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// A PG without PFC_EN never uses headroom: with G_HDRM_CELLS 0 nothing is dropped HEADROOM,
// and reaching G_XOFF_CELLS sends nothing.
START_TEST(test_no_pfc_en) {
  xtm_t *m = setup(0, 2, 0, 0, 100000);
  xtm_out_t out;
  for (uint32_t i = 0; i < 4; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert(!out.enq_res.hdrm);
    expect_no_frame(&out);
  }
  xtm_pg_state_t g;
  xtm_pg_state(m, kIn, kPrio, &g);
  ck_assert_uint_eq(g.pg_cells, 4);
  ck_assert(!g.xoff);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ CSR-triggered evaluation

// With pg_cells 3 and XOFF_T 100 nothing happens. A bus write of G_XOFF_CELLS = 3 at cycle w
// takes effect at the end of w; the PG is evaluated at w+1 (written in the previous cycle):
// 3 >= 3 -> XOFF at w+1, not at w. Then G_XON_CELLS = 3 written at w2: release at w2+1
// (3 <= 3). Released with pg 3 >= XOFF_T 3, the PG stays released until an evaluation: a
// rewrite of G_CFG (same value) triggers one, which sets XOFF again at the next cycle.
START_TEST(test_csr_write_triggers_evaluation) {
  xtm_t *m = setup(kPfcEn, 100, 0, 10, 100000);
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);
    expect_no_frame(&out);
  }
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, kIn * 8 + kPrio);
  tl_idle(m, &out);
  expect_no_frame(&out);
  tl_bus_wr(m, XTM_G_XOFF_CELLS_REG_OFFSET, 3, &out);
  expect_no_frame(&out);  // cycle w: the old threshold, and no evaluation trigger yet
  tl_idle(m, &out);
  expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);  // w+1
  for (int i = 0; i < 5; i++) {
    tl_idle(m, &out);
    expect_no_frame(&out);
  }
  tl_bus_wr(m, XTM_G_XON_CELLS_REG_OFFSET, 3, &out);
  expect_no_frame(&out);  // w2
  tl_idle(m, &out);
  expect_frame(&out, kIn, 1u << kPrio, 0, 0);  // w2+1: 3 <= XON_T 3
  tl_idle(m, &out);
  expect_no_frame(&out);  // w2+2: no longer triggered
  // Released with pg 3 >= XOFF_T 3; only a new evaluation sets it: write G_CFG (same value).
  tl_bus_wr(m, XTM_G_CFG_REG_OFFSET, kPfcEn, &out);
  expect_no_frame(&out);
  tl_idle(m, &out);
  expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), 2);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XON_SENT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(port_cnt_csr(m, kIn, XTM_P_PFC_TX_FRAMES_LO_REG_OFFSET), 3);
  // Clearing PFC_EN releases an XOFF PG (release = xoff && !PFC_EN) at the next cycle.
  tl_bus_wr(m, XTM_G_CFG_REG_OFFSET, 0, &out);
  expect_no_frame(&out);
  tl_idle(m, &out);
  expect_frame(&out, kIn, 1u << kPrio, 0, 0);
  xtm_destroy(m);
}
END_TEST

// A flush is a removal too (spec 7.1 "dequeue or flush"): XOFF_T 2, XON_T 0, headroom 10;
// three 1-cell packets (the third in headroom: after the second, an idle cycle carries the
// XOFF). VOQ 19 disabled by a bus write at e: flushed at e+1, e+2, e+3 (one per cycle).
// pg_cells 2, 1, 0 -> XON evaluated and sent at e+4; hdrm_used drains first (spec 4.4):
// 1 -> 0 at the first removal, although the headroom packet is the last.
START_TEST(test_flush_releases) {
  xtm_t *m = setup(kPfcEn, 2, 0, 10, 100000);
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    if (i == 2) {
      tl_idle(m, &out);
      expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
    }
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);
    ck_assert_uint_eq(out.enq_res.hdrm, i == 2);
  }
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, kVoq);
  tl_bus_wr(m, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(kPrio) & ~1u, &out);  // e: ENABLE = 0
  ck_assert(!out.flush.valid);
  static const struct { uint32_t pg, hdrm; } kFlush[] = {{2, 0}, {1, 0}, {0, 0}};
  uint32_t hd[3];
  for (uint32_t k = 0; k < 3; k++) {
    tl_idle(m, &out);
    ck_assert(out.flush.valid);
    ck_assert_uint_eq(out.flush.pkt_id, k);
    expect_no_frame(&out);
    xtm_pg_state_t g;
    xtm_pg_state(m, kIn, kPrio, &g);
    ck_assert_uint_eq(g.pg_cells, kFlush[k].pg);
    hd[k] = g.hdrm_used;  // checked after the loop, so the frame checks still run
  }
  tl_idle(m, &out);  // e+4: the PG emptied by the flush of e+3 is evaluated
  ck_assert(!out.flush.valid);
  expect_frame(&out, kIn, 1u << kPrio, 0, 0);
  for (uint32_t k = 0; k < 3; k++) {
    // spec 4.4: "a PG drains its headroom first"
    ck_assert_msg(hd[k] == kFlush[k].hdrm, "removal %u: hdrm_used %u, expected %u", k, hd[k],
                  kFlush[k].hdrm);
  }
  ck_assert_uint_eq(voq_cnt_csr(m, kVoq, XTM_Q_DROP_FLUSH_LO_REG_OFFSET), 3);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Spec 7.1, 15.2: the PGs touched in t-1 are evaluated at t on S(t); the changes of t are
// not seen. XOFF_T 2, XON_T 1, VOQ 19 paused. a0: pg 1; a1: pg 2. At a2 the pause ends (XON
// rx, step 2) and the VOQ's head leaves in a2 itself (step 5): the evaluation of a2 reads
// S(a2), pg 2 >= XOFF_T -> XOFF frame at a2 although pg is 1 at the end of a2. The removal
// of a2 touches the PG: evaluated at a3 on pg 1 <= XON_T 1 -> XON frame at a3. An arrival
// in a2 still sees xoff = 0 (S(a2)): admitted normally, not into headroom.
START_TEST(test_evaluation_lag) {
  xtm_t *m = setup(kPfcEn, 2, 1, 10, 100000);
  xtm_out_t out;
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 1, &out);  // a0
  expect_no_frame(&out);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 2, &out);  // a1
  expect_no_frame(&out);
  // a2: XON rx on port 2 and an arrival of another PG (in_port 0) for VOQ 19
  xtm_in_t in;
  tl_idle_in(&in);
  in.pfc_rx_valid = 1ull << kEg;
  in.pfc_rx[kEg].vec = 1u << kPrio;
  in.enq = (xtm_enq_in_t){.valid = true,
                          .pkt_id = 3,
                          .in_port = 0,
                          .eg_port = kEg,
                          .dscp = kDscp,
                          .ecn = 0,
                          .len = 256};
  xtm_step(m, &in, &out);
  expect_frame(&out, kIn, 1u << kPrio, 1u << kPrio, kQuanta);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  xtm_pg_state_t g;
  xtm_pg_state(m, kIn, kPrio, &g);
  ck_assert_uint_eq(g.pg_cells, 1);  // the removal of a2 is applied at its end
  ck_assert(g.xoff);
  // a3: an arrival of PG (1,3) sees xoff of S(a3) = 1: headroom; the evaluation releases
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 4, &out);
  ck_assert(out.enq_res.hdrm);
  expect_frame(&out, kIn, 1u << kPrio, 0, 0);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XOFF_SENT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(pg_cnt_csr(m, kIn, kPrio, XTM_G_XON_SENT_LO_REG_OFFSET), 1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

static Suite *pfc_suite(void) {
  Suite *s = suite_create("pfc");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_static_thresholds);
  tcase_add_test(tc, test_hysteresis);
  tcase_add_test(tc, test_refresh);
  tcase_add_test(tc, test_multi_priority_frames);
  tcase_add_test(tc, test_dynamic_threshold);
  tcase_add_test(tc, test_headroom);
  tcase_add_test(tc, test_no_pfc_en);
  tcase_add_test(tc, test_csr_write_triggers_evaluation);
  tcase_add_test(tc, test_flush_releases);
  tcase_add_test(tc, test_evaluation_lag);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(pfc_suite()); }
