// SPDX-License-Identifier: Apache-2.0
//
// Suite "sched": the scheduler and egress of docs/spec.md section 9 (strict priority, DWRR,
// port arbitration, shapers, in-flight FIFO, tx_ready back-pressure, read latency) and the
// token bucket of section 5.4. Every expected value is derived by hand from the spec; the
// derivation is in the comment next to it.
//
// Common trick ("hold"): VOQs are configured with Q_CFG.PFC_RX_EN on priority 0; a PFC frame
// with quanta 0xFFFF pauses them (spec 7.2: > 300000 cycles at the reset P_PAUSE_QUANTUM),
// packets are loaded, and an XON frame (quanta 0) at cycle r sets pause_end = r, so the
// queues are eligible again in cycle r itself (PFC reception is step 2, selection step 5).
// This lets a test load several packets before the first selection.

#include <stdlib.h>
#include <string.h>

#include "tests/unit/xtm_testlib.h"

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))
#define RECCAP 64

static const uint32_t kPfcRx = 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET;  // PFC_PRIO = 0

// One cycle with an optional enqueue, optional PFC frames (priority 0, given quanta) on the
// ports of pfc_mask, and the given tx_ready. Records dequeue outputs into rec/n if not NULL.
typedef struct rec_buf {
  tl_deq_rec_t r[RECCAP];
  uint32_t n;
} rec_buf_t;

static void record(const xtm_out_t *out, rec_buf_t *rb) {
  if (rb == NULL) return;
  uint64_t mask = out->deq_valid;
  while (mask != 0) {
    uint32_t p = (uint32_t)__builtin_ctzll(mask);
    mask &= mask - 1;
    if (rb->n < RECCAP)
      rb->r[rb->n] = (tl_deq_rec_t){.cycle = out->cycle, .port = p, .d = out->deq[p]};
    rb->n++;
  }
}

static void cyc(xtm_t *m, bool enq, uint8_t eg, uint8_t dscp, uint16_t len, uint32_t id,
                uint64_t pfc_mask, uint16_t quanta, uint64_t tx_ready, rec_buf_t *rb) {
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = tx_ready;
  if (enq) {
    in.enq = (xtm_enq_in_t){.valid = true,
                            .pkt_id = id,
                            .in_port = 0,
                            .eg_port = eg,
                            .dscp = dscp,
                            .ecn = 0,
                            .len = len};
  }
  in.pfc_rx_valid = pfc_mask;
  for (uint32_t p = 0; p < 64; p++) {
    if ((pfc_mask >> p) & 1u) {
      in.pfc_rx[p].vec = 1;
      in.pfc_rx[p].quanta[0] = quanta;
    }
  }
  xtm_out_t out;
  xtm_step(m, &in, &out);
  if (enq) ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  record(&out, rb);
}

static void enq(xtm_t *m, uint8_t eg, uint8_t tc, uint16_t len, uint32_t id, rec_buf_t *rb) {
  cyc(m, true, eg, (uint8_t)(tc * 8), len, id, 0, 0, UINT64_MAX, rb);  // DSCP 8*tc -> TC tc
}
static void hold(xtm_t *m, uint64_t ports) {
  cyc(m, false, 0, 0, 0, 0, ports, 0xFFFF, UINT64_MAX, NULL);
}
static void release(xtm_t *m, uint64_t ports, rec_buf_t *rb) {
  cyc(m, false, 0, 0, 0, 0, ports, 0, UINT64_MAX, rb);
}
static void idle(xtm_t *m, rec_buf_t *rb) { cyc(m, false, 0, 0, 0, 0, 0, 0, UINT64_MAX, rb); }

static int32_t deficit(xtm_t *m, uint32_t v) {
  return (int32_t)tl_voq_rd(m, v, XTM_Q_DEFICIT_REG_OFFSET);
}
static uint64_t vcnt(xtm_t *m, uint32_t v, uint16_t lo) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, v);
  return tl_rd64(m, lo);
}

typedef struct exp_out {
  uint32_t dcycle;  // output cycle minus the release cycle r
  uint32_t port;
  uint32_t id;
} exp_out_t;

static void check_outputs(const rec_buf_t *rb, uint64_t r, const exp_out_t *e, uint32_t n) {
  ck_assert_uint_eq(rb->n, n);
  for (uint32_t i = 0; i < n; i++) {
    ck_assert_msg(rb->r[i].d.pkt_id == e[i].id && rb->r[i].port == e[i].port &&
                      rb->r[i].cycle == r + e[i].dcycle,
                  "output %u: id 0x%x port %u at r+%lld, expected id 0x%x port %u at r+%u", i,
                  rb->r[i].d.pkt_id, rb->r[i].port, (long long)(rb->r[i].cycle - r), e[i].id,
                  e[i].port, e[i].dcycle);
  }
}

// xtm_fifo_pkts, an introspection read: the packets selected and not yet output on a port,
// oldest first. Port 0 held, A and B enqueued in q0: nothing selected; released in r, A is
// selected in r and B in r+1, output at r+5 and r+6 (OCB_RD_LAT 5), so after r+1 the FIFO
// holds A, B and after r+6 nothing.
START_TEST(test_fifo_pkts) {
  xtm_t *m = tl_create(1, 4, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  hold(m, 1);
  enq(m, 0, 0, 100, 0xA1, NULL);
  enq(m, 0, 0, 100, 0xB2, NULL);
  uint32_t ids[4] = {0};
  ck_assert_uint_eq(xtm_fifo_pkts(m, 0, ids, 4), 0);
  rec_buf_t rb = {.n = 0};
  release(m, 1, &rb);
  idle(m, &rb);
  ck_assert_uint_eq(xtm_fifo_pkts(m, 0, ids, 4), 2);
  ck_assert_uint_eq(ids[0], 0xA1);
  ck_assert_uint_eq(ids[1], 0xB2);
  ck_assert_uint_eq(xtm_fifo_pkts(m, 0, ids, 1), 1);  // at most max
  ck_assert_uint_eq(xtm_fifo_pkts(m, 1, ids, 4), 0);  // no such port
  for (uint32_t i = 0; i < 5; i++) {
    idle(m, &rb);
  }
  ck_assert_uint_eq(rb.n, 2);
  ck_assert_uint_eq(xtm_fifo_pkts(m, 0, ids, 4), 0);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- strict priority (9.3.1)
// Port 0, T = 4: q3, q2 strict, q0, q1 DWRR (reset quantum 9216). Loaded while held:
// A(q0), B(q1), C1, C2 (q2), D(q3), all 100 B. Selections from r, one per cycle, output at
// selection + OCB_RD_LAT (reset 5, spec 9.4):
//   r   : strict q3 is the highest eligible strict queue -> D
//   r+1 : q2 -> C1 ; r+2 : q2 -> C2 (strict before DWRR while a strict queue is eligible)
//   r+3 : DWRR, rr = 0, deficits 0 -> no positive -> round (+9216 to q0, q1) -> q0: A;
//         q0 now empty -> its positive deficit 9116 is cleared, rr = 1
//   r+4 : q1 deficit 9216 > 0 -> B
START_TEST(test_strict_priority) {
  xtm_t *m = tl_create(1, 4, 64);
  for (uint32_t q = 0; q < 4; q++) {
    tl_voq_wr(m, q, XTM_Q_CFG_REG_OFFSET, tl_qcfg(q >= 2, false, false, false, 0, 0) | kPfcRx);
  }
  hold(m, 1);
  enq(m, 0, 0, 100, 0xA, NULL);
  enq(m, 0, 1, 100, 0xB, NULL);
  enq(m, 0, 2, 100, 0xC1, NULL);
  enq(m, 0, 2, 100, 0xC2, NULL);
  enq(m, 0, 3, 100, 0xD, NULL);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  release(m, 1, &rb);
  for (int i = 0; i < 10; i++) idle(m, &rb);
  static const exp_out_t kExp[] = {
      {5, 0, 0xD}, {6, 0, 0xC1}, {7, 0, 0xC2}, {8, 0, 0xA}, {9, 0, 0xB}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  ck_assert_int_eq(deficit(m, 2), 0);  // strict selections never touch deficits
  ck_assert_int_eq(deficit(m, 3), 0);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// A strict queue that becomes eligible preempts DWRR at the next selection (9.3.1):
// q0 (DWRR) holds 3 packets; q1 (strict) gets one packet enqueued at cycle r+1 (the
// selection of cycle r+1 reads S(r+1), without it: spec 4.1, 15.3), so it is selected at r+2.
// Outputs at selection + OCB_RD_LAT (5).
START_TEST(test_strict_preempts_dwrr) {
  xtm_t *m = tl_create(1, 2, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_voq_wr(m, 1, XTM_Q_CFG_REG_OFFSET, tl_qcfg(true, false, false, false, 0, 0) | kPfcRx);
  hold(m, 1);
  for (uint32_t i = 0; i < 3; i++) enq(m, 0, 0, 100, 0x10 + i, NULL);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  release(m, 1, &rb);                         // r: q0 0x10 (round +9216 -> 9116 > 0, rr stays 0)
  enq(m, 0, 1, 100, 0x20, &rb);               // r+1: q0 0x11 (deficit 9016); then 0x20 arrives
  for (int i = 0; i < 10; i++) idle(m, &rb);  // r+2: strict q1 0x20; r+3: q0 0x12
  static const exp_out_t kExp[] = {{5, 0, 0x10}, {6, 0, 0x11}, {7, 0, 0x20}, {8, 0, 0x12}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- DWRR directed (9.3.2)
// Port 0, T = 3, all DWRR. Quanta q0 600, q1 300, q2 500. Loaded while held:
// q0: 0x10..0x13 (300 B each), q1: 0x20..0x23 (200 B), q2: 0x30, 0x31 (600 B).
// Selection k happens at cycle r + k - 1; the table gives the packet and the deficits after
// it (d0, d1, d2), with the rule applied:
//  1 no positive -> round [600,300,500]; q0 0x10: d0 300 > 0 -> rr stays 0
//  2 q0 0x11: d0 0 -> rr = 1
//  3 q1 0x20: d1 100 -> rr stays 1
//  4 q1 0x21: d1 -100 -> rr = 2
//  5 q2 0x30: d2 -100 -> rr = 0
//  6 none positive (0, -100, -100) -> round [600, 200, 400]; q0 0x12: d0 300, rr 0
//  7 q0 0x13: d0 0, q0 empty -> rr = 1
//  8 q1 0x22: d1 0 -> rr = 2
//  9 q2 0x31: d2 -200, q2 empty (negative kept) -> rr = 0
// 10 E = {q1}; q0 (empty, not in E) gets no round; d1 0 -> round to q1 only: 300;
//    q1 0x23: d1 100 > 0 but q1 empty -> cleared to 0
START_TEST(test_dwrr_directed) {
  xtm_t *m = tl_create(1, 3, 64);
  static const uint32_t kQuantum[3] = {600, 300, 500};
  for (uint32_t q = 0; q < 3; q++) {
    tl_voq_wr(m, q, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
    tl_voq_wr(m, q, XTM_Q_QUANTUM_REG_OFFSET, kQuantum[q]);
  }
  hold(m, 1);
  for (uint32_t i = 0; i < 4; i++) enq(m, 0, 0, 300, 0x10 + i, NULL);
  for (uint32_t i = 0; i < 4; i++) enq(m, 0, 1, 200, 0x20 + i, NULL);
  for (uint32_t i = 0; i < 2; i++) enq(m, 0, 2, 600, 0x30 + i, NULL);
  static const struct {
    uint32_t id;
    int32_t d[3];
  } kSel[] = {
      {0x10, {300, 300, 500}}, {0x11, {0, 300, 500}},   {0x20, {0, 100, 500}},
      {0x21, {0, -100, 500}},  {0x30, {0, -100, -100}}, {0x12, {300, 200, 400}},
      {0x13, {0, 200, 400}},   {0x22, {0, 0, 400}},     {0x31, {0, 0, -200}},
      {0x23, {0, 0, -200}},
  };
  int32_t got[N_ELEM(kSel)][3];
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  for (uint32_t k = 0; k < N_ELEM(kSel); k++) {
    if (k == 0) {
      release(m, 1, &rb);
    } else {
      idle(m, &rb);
    }
    ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET) +
                          vcnt(m, 1, XTM_Q_DEQ_PKTS_LO_REG_OFFSET) +
                          vcnt(m, 2, XTM_Q_DEQ_PKTS_LO_REG_OFFSET),
                      k + 1);  // one selection per cycle
    for (uint32_t q = 0; q < 3; q++) got[k][q] = deficit(m, q);
  }
  for (int i = 0; i < 5; i++) idle(m, &rb);
  exp_out_t exp[N_ELEM(kSel)];
  for (uint32_t k = 0; k < N_ELEM(kSel); k++) {
    exp[k] = (exp_out_t){.dcycle = k + 5, .port = 0, .id = kSel[k].id};  // sel + OCB_RD_LAT
  }
  check_outputs(&rb, r, exp, N_ELEM(kSel));  // the order first, then the deficits
  tl_check_invariants(m);
  for (uint32_t k = 0; k < N_ELEM(kSel); k++) {
    for (uint32_t q = 0; q < 3; q++) {
      ck_assert_msg(got[k][q] == kSel[k].d[q], "after selection %u: deficit[%u] = %d, expected %d",
                    k + 1, q, got[k][q], kSel[k].d[q]);
    }
  }
  xtm_destroy(m);
}
END_TEST

// Quantum smaller than a packet: a win with no selection (9.3.2b, section 11 last sentence).
// Port 0, T = 2, q0 quantum 100, four 350 B packets loaded while held (q0 never empties in
// the checked window). Per cycle from r (deficit after the cycle, selections so far):
//   r  : no positive -> round -> 100 > 0 -> select p1, d = -250 (<= 0 -> rr = 1)     1
//   r+1: none positive -> round -> -150 -> still none: the win is spent              1
//   r+2: -50, spent                                                                  1
//   r+3: 50 > 0 -> select p2, d = -300                                               2
//   r+4: -200; r+5: -100; r+6: 0 (not > 0: spent)                                    2
//   r+7: 100 -> select p3, d = -250                                                  3
START_TEST(test_dwrr_quantum_below_packet) {
  xtm_t *m = tl_create(1, 2, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_voq_wr(m, 0, XTM_Q_QUANTUM_REG_OFFSET, 100);
  hold(m, 1);
  for (uint32_t i = 1; i <= 4; i++) enq(m, 0, 0, 350, i, NULL);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  static const struct {
    int32_t d;
    uint64_t deq;
  } kStep[] = {{-250, 1}, {-150, 1}, {-50, 1}, {-300, 2}, {-200, 2}, {-100, 2}, {0, 2}, {-250, 3}};
  for (uint32_t k = 0; k < N_ELEM(kStep); k++) {
    if (k == 0) {
      release(m, 1, &rb);
    } else {
      idle(m, &rb);
    }
    ck_assert_msg(deficit(m, 0) == kStep[k].d, "cycle r+%u: deficit %d, expected %d", k,
                  deficit(m, 0), kStep[k].d);
    ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), kStep[k].deq);
  }
  for (int i = 0; i < 10; i++) idle(m, &rb);
  // p4: -250 at r+7 -> r+8 -150, r+9 -50, r+10 50 -> selected at r+10.
  static const exp_out_t kExp[] = {{5, 0, 1}, {8, 0, 2}, {12, 0, 3}, {15, 0, 4}};  // sel + 5
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Emptying clears a positive deficit, keeps a negative one (9.3.2): "After a selection of
// queue q with a packet of len bytes: deficit[q] -= len; ... When a VOQ becomes empty
// (dequeue or flush) a positive deficit is cleared to 0 (a negative one is kept)."
// Single packet each time (enqueued at t, selected at t+1 as the only packet):
//   quantum 9216, len 100: round -> 9216, -100 -> 9116 > 0, VOQ empty -> cleared -> 0
//   quantum 100,  len 350: round -> 100, -350 -> -250 < 0, VOQ empty -> kept -> -250
START_TEST(test_dwrr_empty_clears_positive) {
  static const struct {
    uint32_t quantum;
    uint16_t len;
    int32_t d;
  } kCases[] = {{9216, 100, 0}, {100, 350, -250}};
  int32_t got[N_ELEM(kCases)];
  for (size_t i = 0; i < N_ELEM(kCases); i++) {
    xtm_t *m = tl_create(1, 2, 64);
    tl_voq_wr(m, 0, XTM_Q_QUANTUM_REG_OFFSET, kCases[i].quantum);
    enq(m, 0, 0, kCases[i].len, 1, NULL);
    idle(m, NULL);  // selection
    ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 1);
    got[i] = deficit(m, 0);
    xtm_destroy(m);
  }
  ck_assert_msg(got[0] == kCases[0].d && got[1] == kCases[1].d,
                "deficits after the emptying selection: %d and %d, expected %d and %d", got[0],
                got[1], kCases[0].d, kCases[1].d);
}
END_TEST

// ---------------------------------------------------------------- long-run rates
// Keeps the VOQs of `nq` backlogged (tops up the emptiest to 4 packets, one enqueue per
// cycle at most) for `cycles` cycles; lengths are fixed (len != 0) or random 64..1500.
static void run_backlogged(xtm_t *m, uint32_t nq, uint64_t cycles, uint16_t len, uint64_t seed) {
  uint64_t end = xtm_cycle(m) + cycles;
  uint32_t id = 0;
  while (xtm_cycle(m) < end) {
    uint32_t best = 0, best_pkts = UINT32_MAX;
    for (uint32_t q = 0; q < nq; q++) {
      xtm_voq_state_t s;
      xtm_voq_state(m, q, &s);
      if (s.occ_pkts < best_pkts) {
        best_pkts = s.occ_pkts;
        best = q;
      }
    }
    if (best_pkts < 4) {
      uint16_t l = len != 0 ? len : (uint16_t)(64 + tl_rand(&seed) % 1437);
      enq(m, 0, (uint8_t)best, l, id++, NULL);
    } else {
      idle(m, NULL);
    }
  }
}

// DWRR byte shares (9.3.2): 3 backlogged queues, quanta 1500:3000:6000 >= max packet
// 1500, port shaper 12.5 B/cycle so the port is the bottleneck. Expected share of q = its
// quantum / 10500, i.e. 1/7, 2/7, 4/7, within 1 % (relative).
START_TEST(test_dwrr_shares) {
  xtm_t *m = tl_create(1, 3, 256);
  static const uint32_t kQuantum[3] = {1500, 3000, 6000};
  for (uint32_t q = 0; q < 3; q++) tl_voq_wr(m, q, XTM_Q_QUANTUM_REG_OFFSET, kQuantum[q]);
  tl_port_wr(m, 0, XTM_P_SHAPER_CFG_REG_OFFSET, 1u << XTM_P_SHAPER_CFG_EN_OFFSET);
  tl_port_wr(m, 0, XTM_P_SHAPER_RATE_REG_OFFSET, 0x0C8000);  // 12.5 B/cycle
  run_backlogged(m, 3, 1000000, 0, 0x5EED);
  uint64_t b[3], total = 0;
  for (uint32_t q = 0; q < 3; q++) {
    b[q] = vcnt(m, q, XTM_Q_DEQ_BYTES_LO_REG_OFFSET);
    total += b[q];
  }
  // The port is the bottleneck: about 12.5e6 bytes went (the shaper counts len only here).
  ck_assert_msg(total > 12400000 && total < 12600000, "total %llu", (unsigned long long)total);
  for (uint32_t q = 0; q < 3; q++) {
    double share = (double)b[q] / (double)total;
    double want = (double)kQuantum[q] / 10500.0;
    ck_assert_msg(share > want * 0.99 && share < want * 1.01, "q%u share %.5f, expected %.5f", q,
                  share, want);
  }
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Port shaper rate (5.4, 9.5): one backlogged queue, len 1000, OVH_BYTES 20 (charge 1020),
// rate 12.5 B/cycle = 819200/65536, burst 9216 (reset; the bucket is full since reset).
// First selection at s (the cycle after the first enqueue). With u = 65536, the k-th
// selection (k = 1..) needs, in its cycle c, B + (c - s) * r - (k - 1) * 1020u >= 0 (the
// bucket never refills to the cap again since 9216 > 1020 + 12.5) and at most one per cycle.
// At c = s + 9 the token bound (floor((9216 + 112.5) / 1020) + 1 = 10) meets the one-per-
// cycle bound (10), so from then on n(c) = floor((9216 + 12.5 (c - s)) / 1020) + 1.
// Over N = 10^6 cycles s .. s + N - 1: floor((9216 + 12.5 * 999999) / 1020) + 1
// = floor(12509203.5 / 1020) + 1 = 12263 + 1 = 12264 selections, 12264 * 1020 = 12509280 B
// including overhead vs 12.5 * 10^6 = 12500000: 0.074 % (the initial burst), within 0.1 %.
START_TEST(test_port_shaper_rate) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_port_wr(m, 0, XTM_P_SHAPER_CFG_REG_OFFSET,
             1u << XTM_P_SHAPER_CFG_EN_OFFSET | 20u << XTM_P_SHAPER_CFG_OVH_BYTES_OFFSET);
  enq(m, 0, 0, 1000, 0, NULL);             // t0 = s - 1
  run_backlogged(m, 1, 1000000, 1000, 1);  // cycles s .. s + 10^6 - 1
  uint64_t n = vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET);
  ck_assert_uint_eq(n, 12264);
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_BYTES_LO_REG_OFFSET), 12264000);
  // The 12264th selection needs 9216 + 12.5 k >= 12263 * 1020 = 12508260 -> k = 999924,
  // so it was at s + 999924 and its output (s + 999929, OCB_RD_LAT 5) is inside the window: every
  // selection has been transmitted; P_TX_BYTES counts len (1000), not the overhead.
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, 0);
  ck_assert_uint_eq(tl_rd64(m, XTM_P_TX_PKTS_LO_REG_OFFSET), 12264);
  ck_assert_uint_eq(tl_rd64(m, XTM_P_TX_BYTES_LO_REG_OFFSET), 12264000);
  double wire = (double)n * 1020.0;
  ck_assert(wire > 12500000.0 * 0.999 && wire < 12500000.0 * 1.001);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Queue shaper (9.5): q0 capped at 2.5 B/cycle (0x028000, burst 1500), q1 unshaped, port
// shaper 12.5 B/cycle (OVH 0), quanta 1000 (>= packet 500, so q0 never waits longer than
// ~1000 B / 12.5 = 80 cycles for its turn and loses no tokens to its 1500 B cap).
// Expected over 10^6 cycles: q0 2.5e6 B, q1 12.5e6 - 2.5e6 = 10.0e6 B, within 1 %.
START_TEST(test_queue_shaper) {
  xtm_t *m = tl_create(1, 2, 256);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET,
            tl_qcfg(false, false, false, false, 0, 0) | 1u << XTM_Q_CFG_SHAPER_EN_OFFSET);
  tl_voq_wr(m, 0, XTM_Q_SHAPER_RATE_REG_OFFSET, 0x028000);
  tl_voq_wr(m, 0, XTM_Q_SHAPER_BURST_REG_OFFSET, 1500);
  for (uint32_t q = 0; q < 2; q++) tl_voq_wr(m, q, XTM_Q_QUANTUM_REG_OFFSET, 1000);
  tl_port_wr(m, 0, XTM_P_SHAPER_CFG_REG_OFFSET, 1u << XTM_P_SHAPER_CFG_EN_OFFSET);
  run_backlogged(m, 2, 1000000, 500, 1);
  double b0 = (double)vcnt(m, 0, XTM_Q_DEQ_BYTES_LO_REG_OFFSET);
  double b1 = (double)vcnt(m, 1, XTM_Q_DEQ_BYTES_LO_REG_OFFSET);
  ck_assert_msg(b0 > 2.5e6 * 0.99 && b0 < 2.5e6 * 1.01, "q0 %.0f", b0);
  ck_assert_msg(b1 > 10.0e6 * 0.99 && b1 < 10.0e6 * 1.01, "q1 %.0f", b1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- port arbitration (9.2)
// 4 ports x 1 TC; loaded while held: p0 0x00, 0x01; p1 0x10; p2 nothing; p3 0x30, 0x31.
// port_rr = 0 (reset, no selection yet). One selection per cycle:
//   r: p0 (rr 1); r+1: p1 (rr 2); r+2: p2 not requesting -> p3 (rr 0); r+3: p0 (rr 1);
//   r+4: p1, p2 empty -> p3 (rr 0). Each output at selection + 5 (OCB_RD_LAT) on its port.
START_TEST(test_port_round_robin) {
  xtm_t *m = tl_create(4, 1, 64);
  for (uint32_t p = 0; p < 4; p++) {
    tl_voq_wr(m, p, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  }
  hold(m, 0xF);
  enq(m, 0, 0, 100, 0x00, NULL);
  enq(m, 3, 0, 100, 0x30, NULL);
  enq(m, 1, 0, 100, 0x10, NULL);
  enq(m, 0, 0, 100, 0x01, NULL);
  enq(m, 3, 0, 100, 0x31, NULL);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  release(m, 0xF, &rb);
  for (int i = 0; i < 10; i++) idle(m, &rb);
  static const exp_out_t kExp[] = {
      {5, 0, 0x00}, {6, 1, 0x10}, {7, 3, 0x30}, {8, 0, 0x01}, {9, 3, 0x31}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- FIFO and tx_ready (9.6)
// 1 port, FifoDepth 8. tx_ready = 0; 12 packets enqueued at t0 .. t0+11 are selected at
// t0+1 .. t0+8 (8 selections fill the FIFO; then the port stops requesting). No output.
// tx_ready back to 1 at cycle w: step 4 sends the head (ready long ago), the FIFO has 7, so
// the port requests and selects id 8 at w; every cycle after, one output and one selection
// (ids 9, 10, 11 at w+1..w+3). Outputs: id k at w + k (id 8, ready w+5, waits behind 1..7).
START_TEST(test_fifo_backpressure) {
  xtm_t *m = tl_create(1, 1, 64);
  rec_buf_t rb = {.n = 0};
  uint64_t t0 = xtm_cycle(m);
  for (uint32_t i = 0; i < 12; i++) cyc(m, true, 0, 0, 100, i, 0, 0, 0, &rb);
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 8);
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, 0);
  uint32_t st = tl_rd(m, XTM_P_STATUS_REG_OFFSET);
  ck_assert_uint_eq((st >> XTM_P_STATUS_FIFO_COUNT_OFFSET) & 0xFF, 8);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_PKTS_REG_OFFSET), 4);
  for (uint32_t i = 0; i < 30; i++) cyc(m, false, 0, 0, 0, 0, 0, 0, 0, &rb);
  ck_assert_uint_eq(rb.n, 0);
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 8);  // still stopped
  ck_assert_uint_eq(xtm_cycle(m), t0 + 42);
  uint64_t w = xtm_cycle(m);
  cyc(m, false, 0, 0, 0, 0, 0, 0, UINT64_MAX, &rb);  // cycle w
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 9);
  st = tl_rd(m, XTM_P_STATUS_REG_OFFSET);
  ck_assert_uint_eq((st >> XTM_P_STATUS_FIFO_COUNT_OFFSET) & 0xFF, 8);  // 8 - 1 + 1
  for (uint32_t i = 0; i < 20; i++) idle(m, &rb);
  exp_out_t exp[12];
  for (uint32_t k = 0; k < 12; k++) exp[k] = (exp_out_t){.dcycle = k, .port = 0, .id = k};
  check_outputs(&rb, w, exp, 12);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- read latency (9.4)
// Enqueue at t0, selection at t0+1 (4.1), output at t0 + 1 + OCB_RD_LAT; sojourn = 1.
// OCB_RD_LAT resets to 5, its minimum (spec 9.4: the dequeue pipeline); 4 is illegal.
START_TEST(test_ocb_read_latency) {
  static const uint32_t kLat[] = {5, 6, 7, 255};
  for (size_t i = 0; i < N_ELEM(kLat); i++) {
    xtm_t *m = tl_create(1, 1, 16);
    ck_assert_uint_eq(tl_rd(m, XTM_OCB_RD_LAT_REG_OFFSET), 5);
    ck_assert(!xtm_csr_write(m, XTM_OCB_RD_LAT_REG_OFFSET, 4));
    ck_assert(!xtm_csr_write(m, XTM_HBM_RD_LAT_REG_OFFSET, 4));
    tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
    tl_wr(m, XTM_OCB_RD_LAT_REG_OFFSET, kLat[i]);
    rec_buf_t rb = {.n = 0};
    uint64_t t0 = xtm_cycle(m);
    enq(m, 0, 0, 64, 77, &rb);
    idle(m, &rb);  // t0+1: selection
    ck_assert_uint_eq(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 1);
    for (uint32_t c = 0; c < 300; c++) idle(m, &rb);
    exp_out_t e = {.dcycle = 1 + kLat[i], .port = 0, .id = 77};
    check_outputs(&rb, t0, &e, 1);
    ck_assert_uint_eq(rb.r[0].d.sojourn, 1);
    ck_assert(!rb.r[0].d.hbm);
    ck_assert_uint_eq(rb.r[0].d.len, 64);
    xtm_destroy(m);
  }
}
END_TEST

// ---------------------------------------------------------------- token bucket (5.4)
// Port shaper rate 1 B/cycle (0x10000), burst 300 written after reset: the full bucket
// (9216 B) is clamped to 300 B at the write. 10 packets of 100 B loaded while held (the
// refill cannot pass the 300 B cap). In bytes, tokens at selection time:
//   r: 300 -> 200; r+1: 201 -> 101; r+2: 102 -> 2; r+3: 3 -> -97;
//   then -97 + k reaches 0 at r+100 -> -100; every 100 cycles after: r+200 .. r+600.
// So 10 selections at r, r+1, r+2, r+3, r+100, r+200, ..., r+600 (outputs + 5).
// Closed form over an idle stretch: tokens(r+600+k) = -100 + k until the cap; enqueues at
// r+849, r+850, r+851 (ids 20..22) meet: r+850: -100 + 250 = 150 -> select -> 50;
// r+851: 51 -> select -> -49; r+852: -48 (wait) ... r+900: 0 -> select.
START_TEST(test_token_bucket_clamp_and_closed_form) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_port_wr(m, 0, XTM_P_SHAPER_CFG_REG_OFFSET, 1u << XTM_P_SHAPER_CFG_EN_OFFSET);
  tl_port_wr(m, 0, XTM_P_SHAPER_RATE_REG_OFFSET, 0x10000);
  tl_port_wr(m, 0, XTM_P_SHAPER_BURST_REG_OFFSET, 300);
  hold(m, 1);
  for (uint32_t i = 0; i < 10; i++) enq(m, 0, 0, 100, i, NULL);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  release(m, 1, &rb);
  // Idle stretch in closed form (xtm_advance_to) up to r+849.
  xtm_out_t out;
  while (xtm_advance_to(m, r + 849, &out)) record(&out, &rb);
  ck_assert_uint_eq(xtm_cycle(m), r + 849);
  enq(m, 0, 0, 100, 20, &rb);
  enq(m, 0, 0, 100, 21, &rb);
  enq(m, 0, 0, 100, 22, &rb);
  while (xtm_advance_to(m, r + 1000, &out)) record(&out, &rb);
  static const exp_out_t kExp[] = {
      {5, 0, 0},   {6, 0, 1},   {7, 0, 2},   {8, 0, 3},    {105, 0, 4},  {205, 0, 5}, {305, 0, 6},
      {405, 0, 7}, {505, 0, 8}, {605, 0, 9}, {855, 0, 20}, {856, 0, 21}, {905, 0, 22}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- lazy queue shaper (9.5)
// 2 ports x 4 TCs: NumVoqs 8, INIT_CYCLES 16; the scan visits VOQ 1 (port 0, queue 1) in
// the cycles t = 1 mod 8. VOQ 1: SHAPER_EN, Q_SHAPER_RATE 0x10000 (1 B/cycle), burst 1000 B;
// reset bucket tok 0, u 0: tokens(c) = min(1000 B, c * 1 B) is full long before cycle 2000.
// Four 400 B packets arrive at 2000 .. 2003. Tokens in bytes:
//   2001: 1000 -> charge -> tok 600, u 2001; conform 0 at 2002, from 2003 600 + 2 >= 0: 1
//   2002: not eligible (the one-cycle gap), although packet 2 is there
//   2003: 602 -> tok 202; 2005: 204 -> tok -196, u 2005: -196 + 2 < 0: conform 0 from 2006
//   tokens >= 0 again from ok = 2005 + 196 = 2201; the first visit ts >= ok - 2 = 2199 with
//   ts = 1 mod 8 is 2201; conform from 2203: packet 4 selected at 2203.
// Outputs at selection + 5: 2006, 2008, 2010, 2208. (An eager bucket without the pipeline
// would select at 2001, 2002, 2003 and 2200.) With a bus write of rate 0x20000 (2 B/cycle)
// at cycle 2100, tokens = -196 + 2 (c - 2005) >= 0 from 2103; first visit >= 2101 with
// ts = 1 mod 8 is 2105: packet 4 at 2107, out 2112.
START_TEST(test_lazy_queue_shaper) {
  for (int rate_write = 0; rate_write < 2; rate_write++) {
    xtm_t *m = tl_create(2, 4, 64);
    tl_voq_wr(m, 1, XTM_Q_CFG_REG_OFFSET,
              tl_qcfg(false, false, false, false, 0, 0) | 1u << XTM_Q_CFG_SHAPER_EN_OFFSET);
    tl_voq_wr(m, 1, XTM_Q_SHAPER_RATE_REG_OFFSET, 0x10000);
    tl_voq_wr(m, 1, XTM_Q_SHAPER_BURST_REG_OFFSET, 1000);
    xtm_out_t out;
    ck_assert(!xtm_advance_to(m, 2000, &out));
    rec_buf_t rb = {.n = 0};
    for (uint32_t i = 0; i < 4; i++) {
      enq(m, 0, 1, 400, 1 + i, &rb);  // 2000 .. 2003
      xtm_voq_state_t vs;
      xtm_voq_state(m, 1, &vs);
      // conformance bit of S(c+1) after cycle c: 2001 -> 0, 2002 -> 1, 2003 -> 0
      static const bool kConf[4] = {true, false, true, false};
      ck_assert_msg(vs.shaper_conform == kConf[i], "S(%u): conform %d", 2001 + i,
                    vs.shaper_conform);
    }
    ck_assert_uint_eq(vcnt(m, 1, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 2);  // 2001, 2003
    uint64_t sel4 = 2203;
    if (rate_write) {
      while (xtm_advance_to(m, 2100, &out)) {
        record(&out, &rb);
      }
      tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 1);
      xtm_in_t in = {.tx_ready = UINT64_MAX};
      in.csr = (xtm_csr_req_t){
          .valid = true, .write = true, .addr = XTM_Q_SHAPER_RATE_REG_OFFSET, .wdata = 0x20000};
      xtm_step(m, &in, &out);  // 2100
      ck_assert(!out.csr_rsp.err);
      sel4 = 2107;
    }
    while (xtm_advance_to(m, sel4 - 1, &out)) {
      record(&out, &rb);
    }
    xtm_voq_state_t vs;
    xtm_voq_state(m, 1, &vs);
    ck_assert(!vs.shaper_conform);  // S(sel4 - 1)
    idle(m, &rb);                   // sel4 - 1
    xtm_voq_state(m, 1, &vs);
    ck_assert(vs.shaper_conform);  // S(sel4)
    ck_assert_uint_eq(vcnt(m, 1, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 3);
    idle(m, &rb);  // sel4
    ck_assert_uint_eq(vcnt(m, 1, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 4);
    while (xtm_advance_to(m, sel4 + 20, &out)) {
      record(&out, &rb);
    }
    static const exp_out_t kExp[] = {{6, 0, 1}, {8, 0, 2}, {10, 0, 3}, {208, 0, 4}};
    exp_out_t e[4];
    for (int k = 0; k < 4; k++) {
      e[k] = kExp[k];
    }
    e[3].dcycle = (uint32_t)(sel4 + 5 - 2000);
    check_outputs(&rb, 2000, e, 4);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

static Suite *sched_suite(void) {
  Suite *s = suite_create("sched");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, test_strict_priority);
  tcase_add_test(tc, test_strict_preempts_dwrr);
  tcase_add_test(tc, test_dwrr_directed);
  tcase_add_test(tc, test_dwrr_quantum_below_packet);
  tcase_add_test(tc, test_dwrr_empty_clears_positive);
  tcase_add_test(tc, test_dwrr_shares);
  tcase_add_test(tc, test_port_shaper_rate);
  tcase_add_test(tc, test_queue_shaper);
  tcase_add_test(tc, test_port_round_robin);
  tcase_add_test(tc, test_fifo_backpressure);
  tcase_add_test(tc, test_ocb_read_latency);
  tcase_add_test(tc, test_token_bucket_clamp_and_closed_form);
  tcase_add_test(tc, test_lazy_queue_shaper);
  tcase_add_test(tc, test_fifo_pkts);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(sched_suite()); }
