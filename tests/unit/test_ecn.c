// SPDX-License-Identifier: Apache-2.0
//
// Suite "ecn": the profile at enqueue (docs/spec.md 6.2: which packets are evaluated, drop
// vs mark) and marking at dequeue (6.3: HEAD with the occupancy including the departing
// packet, LATENCY with sojourn > Q_LAT_THRESH), the deq[p] fields ecn/marked/sojourn
// (2.2, 9.4) and the Q_MARK_TAIL/HEAD/LAT counters.
//
// ECN codes: 0 non-ECT, 1 ECT(1), 2 ECT(0), 3 CE. Cells are 256 B. OCB_RD_LAT = 5 (reset):
// a packet selected at t is output on deq[p] at t + 5 (tx_ready all ones); its head or
// latency marking is decided at t + 3 (spec 6.3). Two LFSRs (6.4), first draws by hand:
// enqueue LFSR from 0xACE1ACE1: r1 = 4643 (state 0xE2C31223), r2 = 24963 (0x060C6183);
// head LFSR from 0x5EED1E55: h1 = 28461 (state 0x04C66F2D), h2 = 18183 (0x79114707).
// Held packets: VOQ 0 with Q_CFG.PFC_RX_EN (PFC_PRIO 0) and a PFC frame of quanta 0xFFFF on
// port 0 (paused > 3e5 cycles); an XON frame (quanta 0) at t sets pause_end = t, so the
// head is selected at t itself (7.2, 9.1).

#include "tests/unit/xtm_testlib.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t kPfcRxEn = 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET;  // PFC_PRIO = 0
static const uint32_t kSeed = 0xACE1ACE1u;
static const uint32_t kState1 = 0xE2C31223u;   // after draw 1 (r1 = 4643)
static const uint32_t kHSeed = 0x5EED1E55u;    // head LFSR reset (LFSR_HEAD_SEED)
static const uint32_t kHState1 = 0x04C66F2Du;  // after head draw 1 (h1 = 28461)

enum {
  kTail = XTM_Q_CFG_MARK_POINT_VALUE_TAIL,
  kHead = XTM_Q_CFG_MARK_POINT_VALUE_HEAD,
  kLat = XTM_Q_CFG_MARK_POINT_VALUE_LATENCY
};

static uint32_t lfsr(xtm_t *m) { return tl_rd(m, XTM_LFSR_STATE_REG_OFFSET); }
static uint32_t hlfsr(xtm_t *m) { return tl_rd(m, XTM_LFSR_HEAD_STATE_REG_OFFSET); }

static void pfc_port0(xtm_t *m, uint16_t quanta0, xtm_out_t *out) {
  uint16_t q[8] = {quanta0, 0, 0, 0, 0, 0, 0, 0};
  tl_pfc_rx(m, 0, 0x01, q, out);
}

static uint64_t voq_rd64(xtm_t *m, uint32_t voq, uint16_t lo) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, voq);
  return tl_rd64(m, lo);
}

// ---------------------------------------------------------------- 6.2 decision table

// One packet (in_port 1, DSCP 5 -> TC 0 -> VOQ 0, len 300) into an empty, unpaused VOQ 0
// with profile 1 = segmented, one point (F 0, P 32768). F 0 is reached at occ 0 (0 >= 0),
// so an enqueue evaluation draws r1 = 4643 < 32768 (enqueue LFSR): hit; a head evaluation
// draws h1 = 28461 < 32768 (head LFSR): hit. Q_LAT_THRESH is at reset (0xFFFFFFFF). The
// packet is selected one cycle later (sojourn 1) and output five cycles after that.
START_TEST(test_enqueue_decision_table) {
  static const struct {
    bool ecn_en, nonect_tail_only, no_loss;
    uint32_t mark_point;
    uint8_t ecn;
    xtm_reason_t reason;
    bool enq_marked, enq_draw;  // enqueue result, LFSR drawn at enqueue
    uint8_t deq_ecn;
    bool deq_marked;
    uint32_t hdraws;  // head LFSR draws (at selection + 3)
  } kCases[] = {
      // ECT with ECN_EN and TAIL: evaluated, hit -> accept + CE.
      {true, false, false, kTail, 2, kXtmReasonAccept, true, true, 3, true, 0},
      {true, false, false, kTail, 1, kXtmReasonAccept, true, true, 3, true, 0},
      // CE with ECN_EN: never evaluated, accepted unchanged, not "marked" by this TM.
      {true, false, false, kTail, 3, kXtmReasonAccept, false, false, 3, false, 0},
      // non-ECT with ECN_EN: last row, dropped.
      {true, false, false, kTail, 0, kXtmReasonProfile, false, true, 0, false, 0},
      // ... unless NONECT_TAIL_ONLY or NO_LOSS: not evaluated, no draw.
      {true, true, false, kTail, 0, kXtmReasonAccept, false, false, 0, false, 0},
      {true, false, true, kTail, 0, kXtmReasonAccept, false, false, 0, false, 0},
      // ECN_EN = 0: any packet (ECT, CE, non-ECT) is dropped on hit.
      {false, false, false, kTail, 2, kXtmReasonProfile, false, true, 0, false, 0},
      {false, false, false, kTail, 1, kXtmReasonProfile, false, true, 0, false, 0},
      {false, false, false, kTail, 3, kXtmReasonProfile, false, true, 0, false, 0},
      {false, false, false, kTail, 0, kXtmReasonProfile, false, true, 0, false, 0},
      // NONECT_TAIL_ONLY without ECN_EN does not protect: not (ECN_EN && ...) holds.
      {false, true, false, kTail, 0, kXtmReasonProfile, false, true, 0, false, 0},
      // MARK_POINT is irrelevant when ECN_EN = 0.
      {false, false, false, kHead, 2, kXtmReasonProfile, false, true, 0, false, 0},
      // NO_LOSS without ECN: never profile-dropped, not evaluated.
      {false, false, true, kTail, 2, kXtmReasonAccept, false, false, 2, false, 0},
      // NO_LOSS does not stop tail marking (row 1 has no NO_LOSS condition).
      {true, false, true, kTail, 2, kXtmReasonAccept, true, true, 3, true, 0},
      // NONECT_TAIL_ONLY does not affect ECT packets.
      {true, true, false, kTail, 1, kXtmReasonAccept, true, true, 3, true, 0},
      // HEAD: ECT not evaluated at enqueue; at dequeue occ incl. = 2 cells, F 0 reached,
      // r1 = 4643 < 32768 -> marked (Q_MARK_HEAD).
      {true, false, false, kHead, 2, kXtmReasonAccept, false, false, 3, true, 1},
      // HEAD: CE is evaluated neither at enqueue nor at dequeue.
      {true, false, false, kHead, 3, kXtmReasonAccept, false, false, 3, false, 0},
      // HEAD: non-ECT is evaluated at enqueue (last row of 6.2) and dropped.
      {true, false, false, kHead, 0, kXtmReasonProfile, false, true, 0, false, 0},
      // HEAD + NONECT_TAIL_ONLY: non-ECT accepted, not marked at dequeue (not ECT).
      {true, true, false, kHead, 0, kXtmReasonAccept, false, false, 0, false, 0},
      // LATENCY: not evaluated at enqueue; sojourn 1 > 0xFFFFFFFF is false: unmarked.
      {true, false, false, kLat, 1, kXtmReasonAccept, false, false, 1, false, 0},
      {true, false, false, kLat, 3, kXtmReasonAccept, false, false, 3, false, 0},
      // LATENCY: non-ECT with ECN_EN is still profile-dropped at enqueue (last row).
      {true, false, false, kLat, 0, kXtmReasonProfile, false, true, 0, false, 0},
  };
  const uint32_t f[1] = {0}, p[1] = {32768};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_profile(m, 1, false, 1, f, p);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET,
              tl_qcfg(false, kCases[i].no_loss, kCases[i].ecn_en, kCases[i].nonect_tail_only,
                      kCases[i].mark_point, 1));
    xtm_out_t out;
    uint64_t t0 = xtm_cycle(m);
    tl_enq(m, 1, 0, 5, kCases[i].ecn, 300, 900, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert_msg(out.enq_res.marked == kCases[i].enq_marked, "case %zu: enq marked %d", i,
                  out.enq_res.marked);
    ck_assert_msg(lfsr(m) == (kCases[i].enq_draw ? kState1 : kSeed),
                  "case %zu: LFSR after enqueue 0x%08x", i, lfsr(m));
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkTail), kCases[i].enq_marked ? 1 : 0);
    for (int k = 1; k <= 5; k++) {
      tl_idle(m, &out);  // t0+1: selection; t0+4: head decision
      ck_assert_uint_eq(out.deq_valid, 0);
    }
    tl_idle(m, &out);  // t0+6: output
    ck_assert_uint_eq(out.cycle, t0 + 6);
    if (kCases[i].reason == kXtmReasonAccept) {
      ck_assert_uint_eq(out.deq_valid, 1);
      const xtm_deq_out_t *d = &out.deq[0];
      ck_assert_uint_eq(d->pkt_id, 900);
      ck_assert_uint_eq(d->voq, 0);
      ck_assert_uint_eq(d->in_port, 1);
      ck_assert_uint_eq(d->len, 300);
      ck_assert_uint_eq(d->dscp, 5);
      ck_assert(!d->hbm);
      ck_assert_uint_eq(d->sojourn, 1);  // selected t0+1, enqueued t0
      ck_assert_msg(d->ecn == kCases[i].deq_ecn && d->marked == kCases[i].deq_marked,
                    "case %zu: deq ecn %u marked %d, expected %u %d", i, d->ecn, d->marked,
                    kCases[i].deq_ecn, kCases[i].deq_marked);
    } else {
      ck_assert_uint_eq(out.deq_valid, 0);
      ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntDropProfile), 1);
    }
    bool head_mark = kCases[i].deq_marked && !kCases[i].enq_marked;
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkHead), head_mark ? 1 : 0);
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkLat), 0);
    ck_assert_msg(lfsr(m) == (kCases[i].enq_draw ? kState1 : kSeed),
                  "case %zu: enqueue LFSR at the end 0x%08x", i, lfsr(m));
    ck_assert_msg(hlfsr(m) == (kCases[i].hdraws == 1 ? kHState1 : kHSeed),
                  "case %zu: head LFSR at the end 0x%08x", i, hlfsr(m));
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// ---------------------------------------------------------------- 6.3 head marking

// Head marking uses the occupancy INCLUDING the departing packet. L = 128 cells; segmented
// point (F, 65536). A (ECT(0), 1024 B = 4 cells) and B (ECT(1), 1536 B = 6 cells) are held:
// occ 10. Point reached iff 65536*occ >= F*128:
//   F = 5120 = 512*10: 65536*10 = 655360 = 5120*128 -> reached at occ 10 exactly.
//   F = 5632 = 512*11: reached from occ 11 only.
// A leaves with occ 10 (incl.) vs 6 (excl.); B leaves with occ 6 (incl.) vs 0 (excl.).
START_TEST(test_head_mark_includes_departing) {
  static const struct {
    uint32_t fill;
    bool a_marked, b_marked;
  } kCases[] = {
      {5120, true, false},   // A: 10 reaches (excluding, 6 would not); B: 6 does not
      {5632, false, false},  // A: 10 < 11 not reached
      {3072, true, true},    // 512*6: A (10) and B (6, incl.; excluding 0 would not)
  };
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    const uint32_t f[1] = {kCases[i].fill}, p[1] = {65536};
    tl_profile(m, 1, false, 1, f, p);
    tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 128);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kHead, 1) | kPfcRxEn);
    xtm_out_t out;
    pfc_port0(m, 0xFFFF, &out);
    uint64_t ta = xtm_cycle(m);
    tl_enq(m, 1, 0, 0, 2, 1024, 1, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert(!out.enq_res.marked);
    tl_enq(m, 1, 0, 0, 1, 1536, 2, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert(!out.enq_res.marked);  // HEAD: no marking at enqueue
    for (int k = 0; k < 5; k++) {
      tl_idle(m, &out);
    }
    uint64_t tr = xtm_cycle(m);  // = ta + 7
    ck_assert_uint_eq(tr, ta + 7);
    pfc_port0(m, 0, &out);  // XON: A selected at tr, B at tr+1
    for (int k = 1; k <= 5; k++) {
      tl_idle(m, &out);  // tr+5: A out
    }
    ck_assert_uint_eq(out.deq_valid, 1);
    ck_assert_uint_eq(out.deq[0].pkt_id, 1);
    ck_assert_uint_eq(out.deq[0].sojourn, 7);  // tr - ta
    ck_assert_msg(out.deq[0].marked == kCases[i].a_marked, "case %zu: A marked %d", i,
                  out.deq[0].marked);
    ck_assert_uint_eq(out.deq[0].ecn, kCases[i].a_marked ? 3 : 2);
    tl_idle(m, &out);  // tr+6: B out
    ck_assert_uint_eq(out.deq_valid, 1);
    ck_assert_uint_eq(out.deq[0].pkt_id, 2);
    ck_assert_uint_eq(out.deq[0].sojourn, 7);  // (tr+1) - (ta+1)
    ck_assert_msg(out.deq[0].marked == kCases[i].b_marked, "case %zu: B marked %d", i,
                  out.deq[0].marked);
    ck_assert_uint_eq(out.deq[0].ecn, kCases[i].b_marked ? 3 : 1);
    uint32_t n = (kCases[i].a_marked ? 1u : 0u) + (kCases[i].b_marked ? 1u : 0u);
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_HEAD_LO_REG_OFFSET), n);
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_TAIL_LO_REG_OFFSET), 0);
    ck_assert_uint_eq(lfsr(m), kSeed);  // P 0 / 65536: no draw
    ck_assert_uint_eq(hlfsr(m), kHSeed);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// Two LFSRs (6.4): the enqueue LFSR draws for the profile at enqueue, the head LFSR for head
// marking, each only on its own draws. VOQ 0 (HEAD) and VOQ 2 (port 1, TAIL), both profile
// 1 = (F 0, P 10000). A enters VOQ 0 at t (no draw), is selected at t+1; B enters VOQ 2 at
// t+1 and draws r1 = 4643 < 10000 from the enqueue LFSR: marked. A's head decision at t+4
// draws h1 = 28461 >= 10000 from the head LFSR: not marked. (With the single LFSR of
// version 1, A would have drawn r1 and been marked, and B r2 = 24963: not marked.)
START_TEST(test_two_lfsrs) {
  xtm_t *m = tl_create(2, 2, 64);
  const uint32_t f[1] = {0}, p[1] = {10000};
  tl_profile(m, 1, false, 1, f, p);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kHead, 1));
  tl_voq_wr(m, 2, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kTail, 1));
  xtm_out_t out;
  tl_enq(m, 0, 0, 0, 2, 100, 1, &out);  // t
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(!out.enq_res.marked);
  ck_assert_uint_eq(lfsr(m), kSeed);
  tl_enq(m, 0, 1, 0, 2, 100, 2, &out);  // t+1
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(out.enq_res.voq, 2);
  ck_assert(out.enq_res.marked);
  ck_assert_uint_eq(lfsr(m), kState1);
  ck_assert_uint_eq(hlfsr(m), kHSeed);
  for (int k = 2; k <= 5; k++) {
    tl_idle(m, &out);  // t+2 .. t+5 (A's decision at t+4)
  }
  ck_assert_uint_eq(hlfsr(m), kHState1);
  tl_idle(m, &out);  // t+6: A out (selected t+1, + 5)
  ck_assert_uint_eq(out.deq_valid, 1);
  ck_assert_uint_eq(out.deq[0].pkt_id, 1);
  ck_assert(!out.deq[0].marked);
  ck_assert_uint_eq(out.deq[0].ecn, 2);
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkHead), 0);
  ck_assert_uint_eq(xtm_voq_counter(m, 2, kXtmVcntMarkTail), 1);
  ck_assert_uint_eq(lfsr(m), kState1);
  xtm_global_state_t gs;
  xtm_global_state(m, &gs);
  ck_assert_uint_eq(gs.lfsr, kState1);
  ck_assert_uint_eq(gs.lfsr_head, kHState1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

static uint32_t bus(xtm_t *m, bool write, uint16_t addr, uint32_t wdata) {
  xtm_in_t in = {.tx_ready = UINT64_MAX};
  in.csr = (xtm_csr_req_t){.valid = true, .write = write, .addr = addr, .wdata = wdata};
  xtm_out_t out;
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid && !out.csr_rsp.err);
  return out.csr_rsp.rdata;
}

// The t+3 timing of head marking (6.3, 10.2): a packet selected at s (VOQ 0, HEAD, profile
// (F 0, P 32768), h1 = 28461 < 32768: marked) is decided at s+3:
//  - bus reads of Q_MARK_HEAD_LO and LFSR_HEAD_STATE in s .. s+3 return the old values
//    (0, the seed), from s+4 on the new ones (1, 0x04C66F2D);
//  - a profile write at s+1 (P 0: never) does not change the decision: the profile of the
//    selection cycle s is used;
//  - the packet leaves at s+5 with ECN 11, marked.
START_TEST(test_head_mark_timing) {
  xtm_t *m = tl_create(2, 2, 64);
  const uint32_t f[1] = {0}, p[1] = {32768};
  tl_profile(m, 1, false, 1, f, p);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kHead, 1));
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 0);
  tl_wr(m, XTM_PROF_SEL_REG_OFFSET, 1);
  xtm_out_t out;
  tl_enq(m, 0, 0, 0, 2, 100, 7, &out);  // s-1
  uint64_t s = xtm_cycle(m);
  ck_assert_uint_eq(bus(m, false, XTM_Q_MARK_HEAD_LO_REG_OFFSET, 0), 0);  // s: selection
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntDeqPkts), 1);
  (void)bus(m, true, XTM_PR_PROB_0_REG_OFFSET, 0);                                // s+1
  ck_assert_uint_eq(bus(m, false, XTM_LFSR_HEAD_STATE_REG_OFFSET, 0), kHSeed);    // s+2
  ck_assert_uint_eq(bus(m, false, XTM_Q_MARK_HEAD_LO_REG_OFFSET, 0), 0);          // s+3: decided
  ck_assert_uint_eq(bus(m, false, XTM_LFSR_HEAD_STATE_REG_OFFSET, 0), kHState1);  // s+4
  ck_assert_uint_eq(bus(m, false, XTM_Q_MARK_HEAD_LO_REG_OFFSET, 0), 1);          // s+5
  ck_assert_uint_eq(xtm_cycle(m), s + 6);
  // the output was at s+5 (the cycle of the last read)
  ck_assert_uint_eq(xtm_port_counter(m, 0, kXtmPcntTxPkts), 1);
  xtm_destroy(m);
  // the same, output checked
  m = tl_create(2, 2, 64);
  tl_profile(m, 1, false, 1, f, p);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kHead, 1));
  tl_wr(m, XTM_PROF_SEL_REG_OFFSET, 1);
  tl_enq(m, 0, 0, 0, 2, 100, 7, &out);  // s-1
  s = xtm_cycle(m);
  tl_idle(m, &out);                                 // s
  (void)bus(m, true, XTM_PR_PROB_0_REG_OFFSET, 0);  // s+1
  uint32_t n = tl_run_collect(m, 10, NULL, 0);
  ck_assert_uint_eq(n, 1);
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkHead), 1);
  xtm_destroy(m);
}
END_TEST

// The LFSR_HEAD_SEED write of the decision cycle s+3 loads the head LFSR after the draw of
// s+3 (6.3, 6.4): the decision uses h1 (marked), the state afterwards is the written seed.
// A write at s+2 loads before the decision: the draw is the first of the new seed. With seed
// 0xACE1ACE1 that is 4643 < 32768: also marked, and the state is 0xE2C31223.
START_TEST(test_head_seed_write_order) {
  static const struct {
    uint32_t k;  // the write is in cycle s+k
    uint32_t state_after;
  } kCases[] = {{3, 0xACE1ACE1u}, {2, 0xE2C31223u}, {4, 0xACE1ACE1u}};
  const uint32_t f[1] = {0}, p[1] = {32768};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_profile(m, 1, false, 1, f, p);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kHead, 1));
    xtm_out_t out;
    tl_enq(m, 0, 0, 0, 2, 100, 7, &out);  // s-1
    for (uint32_t k = 0; k < kCases[i].k; k++) {
      tl_idle(m, &out);
    }
    (void)bus(m, true, XTM_LFSR_HEAD_SEED_REG_OFFSET, 0xACE1ACE1u);
    ck_assert_uint_eq(tl_run_collect(m, 10, NULL, 0), 1);
    ck_assert_msg(hlfsr(m) == kCases[i].state_after, "write at s+%u: head LFSR 0x%08x", kCases[i].k,
                  hlfsr(m));
    ck_assert_uint_eq(tl_rd(m, XTM_LFSR_HEAD_SEED_REG_OFFSET), 0xACE1ACE1u);
    ck_assert_uint_eq(lfsr(m), kSeed);  // the enqueue LFSR is untouched
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkHead), 1);
    xtm_destroy(m);
  }
}
END_TEST

// CTRL.CLR_CNT in cycles s .. s+3 clears the count of the mark of a selection in s (6.3);
// a clear at s-1 does not (the selection and its mark come after it). The packet's ECN is
// marked in every case (the clear acts on the count only). LATENCY with Q_LAT_THRESH 0: the
// sojourn 1 > 0 marks, no draw.
START_TEST(test_mark_count_and_clear) {
  static const struct {
    int k;           // CLR_CNT in cycle s+k
    uint64_t count;  // Q_MARK_LAT afterwards
  } kCases[] = {{-1, 1}, {0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_voq_wr(m, 0, XTM_Q_LAT_THRESH_REG_OFFSET, 0);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kLat, 0));
    uint32_t outs = 0;
    for (int c = -1; c <= 8; c++) {  // cycle s+c
      xtm_in_t in = {.tx_ready = UINT64_MAX};
      if (c == -1) {
        in.enq = (xtm_enq_in_t){.valid = true, .pkt_id = 7, .len = 100, .ecn = 2};
      }
      if (c == kCases[i].k) {
        in.csr = (xtm_csr_req_t){.valid = true,
                                 .write = true,
                                 .addr = XTM_CTRL_REG_OFFSET,
                                 .wdata = 1u << XTM_CTRL_CLR_CNT_BIT};
      }
      xtm_out_t out;
      xtm_step(m, &in, &out);
      if (out.deq_valid != 0) {
        ck_assert_int_eq(c, 5);  // selected at s, out at s+5
        ck_assert(out.deq[0].marked);
        ck_assert_uint_eq(out.deq[0].ecn, 3);
        outs++;
      }
    }
    ck_assert_uint_eq(outs, 1);
    ck_assert_msg(xtm_voq_counter(m, 0, kXtmVcntMarkLat) == kCases[i].count,
                  "clear at s%+d: Q_MARK_LAT %llu, expected %llu", kCases[i].k,
                  (unsigned long long)xtm_voq_counter(m, 0, kXtmVcntMarkLat),
                  (unsigned long long)kCases[i].count);
    xtm_destroy(m);
  }
}
END_TEST

// HEAD and LATENCY modes do not mark at enqueue even with a profile that always hits
// (F 0, P 65536, no draw); TAIL does. Q_LAT_THRESH = 0 so any sojourn >= 1 marks.
START_TEST(test_modes_mark_where_they_should) {
  static const struct {
    uint32_t mp;
    bool enq_marked;
    uint64_t tail, head, lat;  // Q_MARK_* after the dequeue
  } kCases[] = {
      {kTail, true, 1, 0, 0},
      {kHead, false, 0, 1, 0},
      {kLat, false, 0, 0, 1},
  };
  const uint32_t f[1] = {0}, p[1] = {65536};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_profile(m, 1, false, 1, f, p);
    tl_voq_wr(m, 0, XTM_Q_LAT_THRESH_REG_OFFSET, 0);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kCases[i].mp, 1));
    xtm_out_t out;
    tl_enq(m, 0, 0, 0, 1, 64, 5, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert_msg(out.enq_res.marked == kCases[i].enq_marked, "mode %u: enq marked %d",
                  kCases[i].mp, out.enq_res.marked);
    for (int k = 1; k <= 6; k++) {
      tl_idle(m, &out);  // selection at +1, output at +6
    }
    ck_assert_uint_eq(out.deq_valid, 1);
    ck_assert(out.deq[0].marked);
    ck_assert_uint_eq(out.deq[0].ecn, 3);
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_TAIL_LO_REG_OFFSET), kCases[i].tail);
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_HEAD_LO_REG_OFFSET), kCases[i].head);
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_LAT_LO_REG_OFFSET), kCases[i].lat);
    ck_assert_uint_eq(lfsr(m), kSeed);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// ---------------------------------------------------------------- 6.3 latency marking

// A (ECT(0)) enters at ta, B (non-ECT; NONECT_TAIL_ONLY so it is admitted) at ta+1, C
// (ECT(1)) at ta+2; the XON comes at tr = ta + 11: A selected at tr (sojourn 11), B at
// tr+1 (11), C at tr+2 (11). Mark iff sojourn > Q_LAT_THRESH (strict), ECT only, no draw.
START_TEST(test_latency_threshold) {
  static const struct {
    uint32_t thresh;
    bool marked;  // for A and C (B is non-ECT: never)
  } kCases[] = {
      {10, true},                                    // 11 > 10 (sojourn - 1)
      {11, false},                                   // 11 > 11 false (threshold = sojourn)
      {12, false}, {0, true}, {0xFFFFFFFFu, false},  // reset value
  };
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_voq_wr(m, 0, XTM_Q_LAT_THRESH_REG_OFFSET, kCases[i].thresh);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, true, kLat, 0) | kPfcRxEn);
    xtm_out_t out;
    pfc_port0(m, 0xFFFF, &out);
    uint64_t ta = xtm_cycle(m);
    static const uint8_t kEcn[3] = {2, 0, 1};
    for (uint32_t k = 0; k < 3; k++) {
      tl_enq(m, 1, 0, 0, kEcn[k], 64, 10 + k, &out);
      ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
      ck_assert(!out.enq_res.marked);
    }
    while (xtm_cycle(m) < ta + 11) {
      tl_idle(m, &out);
    }
    pfc_port0(m, 0, &out);  // tr = ta + 11
    for (int k = 1; k <= 4; k++) {
      tl_idle(m, &out);
    }
    for (uint32_t k = 0; k < 3; k++) {
      tl_idle(m, &out);  // tr+5+k
      ck_assert_uint_eq(out.cycle, ta + 16 + k);
      ck_assert_uint_eq(out.deq_valid, 1);
      ck_assert_uint_eq(out.deq[0].pkt_id, 10 + k);
      ck_assert_uint_eq(out.deq[0].sojourn, 11);
      bool want = k != 1 && kCases[i].marked;
      ck_assert_msg(out.deq[0].marked == want, "thresh %u pkt %u: marked %d, expected %d",
                    kCases[i].thresh, k, out.deq[0].marked, want);
      ck_assert_uint_eq(out.deq[0].ecn, want ? 3 : kEcn[k]);
    }
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_LAT_LO_REG_OFFSET), kCases[i].marked ? 2 : 0);
    ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_MARK_HEAD_LO_REG_OFFSET), 0);
    ck_assert_uint_eq(lfsr(m), kSeed);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// Sojourn is modulo 2^32 (2.2, 6.3). P_PAUSE_QUANTUM = 0xFFFFFFFF: a frame of quanta 0xFFFF
// pauses ceil(65535 * 0xFFFFFFFF / 65536) = 4,294,901,760 cycles. A (ECT(0)) enters at ta;
// a second frame at ta + 4e9 extends the pause; the XON comes at tr = ta + 2^32 + 5, so
// sojourn = (tr - ta) mod 2^32 = 5. Idle stretches run in closed form (xtm_advance_to).
START_TEST(test_latency_sojourn_wraps) {
  static const struct {
    uint32_t thresh;
    bool marked;
  } kCases[] = {{4, true}, {5, false}};  // 5 > 4; 5 > 5 false (unwrapped 2^32+5 would mark)
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_port_wr(m, 0, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0xFFFFFFFFu);
    tl_voq_wr(m, 0, XTM_Q_LAT_THRESH_REG_OFFSET, kCases[i].thresh);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, kLat, 0) | kPfcRxEn);
    xtm_out_t out;
    pfc_port0(m, 0xFFFF, &out);
    uint64_t ta = xtm_cycle(m);
    tl_enq(m, 1, 0, 0, 2, 64, 77, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert(!xtm_advance_to(m, ta + 4000000000ull, &out));
    pfc_port0(m, 0xFFFF, &out);
    ck_assert(!xtm_advance_to(m, ta + (1ull << 32) + 5, &out));
    pfc_port0(m, 0, &out);  // tr: selected
    ck_assert_uint_eq(out.cycle, ta + (1ull << 32) + 5);
    for (int k = 1; k <= 5; k++) {
      tl_idle(m, &out);  // tr+5: out
    }
    ck_assert_uint_eq(out.deq_valid, 1);
    ck_assert_uint_eq(out.deq[0].pkt_id, 77);
    ck_assert_uint_eq(out.deq[0].sojourn, 5);
    ck_assert_msg(out.deq[0].marked == kCases[i].marked, "thresh %u: marked %d, expected %d",
                  kCases[i].thresh, out.deq[0].marked, kCases[i].marked);
    ck_assert_uint_eq(out.deq[0].ecn, kCases[i].marked ? 3 : 2);
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkLat), kCases[i].marked ? 1 : 0);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// Flushed packets are not marked and draw nothing (6.3: "not for flushed packets"). VOQ 0
// in HEAD mode with profile (F 0, P 32768) holds 2 ECT(0) packets; ENABLE = 0 flushes them
// (one per cycle, 9.7): no deq output, Q_MARK_HEAD 0, LFSR still at the seed.
START_TEST(test_flush_not_marked) {
  xtm_t *m = tl_create(2, 2, 64);
  const uint32_t f[1] = {0}, p[1] = {32768};
  tl_profile(m, 1, false, 1, f, p);
  uint32_t qcfg = tl_qcfg(false, false, true, false, kHead, 1) | kPfcRxEn;
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, qcfg);
  xtm_out_t out;
  pfc_port0(m, 0xFFFF, &out);
  tl_enq(m, 1, 0, 0, 2, 64, 1, &out);
  tl_enq(m, 1, 0, 0, 2, 64, 2, &out);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, qcfg & ~(1u << XTM_Q_CFG_ENABLE_OFFSET));
  uint32_t flushed = 0;
  for (int k = 0; k < 6; k++) {
    tl_idle(m, &out);
    ck_assert_uint_eq(out.deq_valid, 0);
    flushed += out.flush.valid ? 1u : 0u;
  }
  ck_assert_uint_eq(flushed, 2);
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntDropFlush), 2);
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkHead), 0);
  ck_assert_uint_eq(lfsr(m), kSeed);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

static Suite *ecn_suite(void) {
  Suite *s = suite_create("ecn");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_enqueue_decision_table);
  tcase_add_test(tc, test_head_mark_includes_departing);
  tcase_add_test(tc, test_two_lfsrs);
  tcase_add_test(tc, test_head_mark_timing);
  tcase_add_test(tc, test_head_seed_write_order);
  tcase_add_test(tc, test_mark_count_and_clear);
  tcase_add_test(tc, test_modes_mark_where_they_should);
  tcase_add_test(tc, test_latency_threshold);
  tcase_add_test(tc, test_latency_sojourn_wraps);
  tcase_add_test(tc, test_flush_not_marked);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(ecn_suite()); }
