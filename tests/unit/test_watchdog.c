// SPDX-License-Identifier: Apache-2.0
//
// Suite "watchdog": the PFC watchdog of docs/spec.md section 8: poll schedule, storm
// detection, action DROP (flush, WD drops, PFC released), action FORWARD, restoration and its
// reset by received frames, per-queue WD_EN and the global EN.
//
// Set-up: 4 ports x 8 TCs, reset maps (TC = DSCP >> 3 = queue = PG). The watched queue is
// VOQ 19 = egress port 2, queue 3 (DSCP 24), Q_CFG = ENABLE | PFC_RX_EN | PFC_PRIO 3 | WD_EN,
// fed from ingress port 1. WD_DETECT_POLLS = WD_RESTORE_POLLS = 2 (reset values).
//
// Schedule: a bus write of WD_POLL_CYCLES = 100 at cycle w restarts it: polls at
// P1 = w+101, P2 = w+201, ..., Pk = w+1+100k (each poll adds the register value 100).
// A poll is a sweep (spec 8): it visits egress port k at Pk + k, so VOQ 19 (port 2) is
// visited at Vk = Pk + 2, and the state decided there takes effect from Ek = Vk + 1 (the
// first flush, the first WD drop, the first FORWARD selection).
// A pause of q = 0xFFFF quanta at the reset P_PAUSE_QUANTUM lasts
// ceil(65535 * 0x51EB8 / 65536) = 335539 cycles, covering every poll of a test.

#include <string.h>

#include "tests/unit/xtm_testlib.h"

enum { kIn = 1, kEg = 2, kPrio = 3, kVoq = kEg * 8 + 3, kDscp = 24, kPoll = 100 };

static uint32_t qcfg(bool wd_en, uint32_t prio) {
  return 1u << XTM_Q_CFG_ENABLE_OFFSET | 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET |
         prio << XTM_Q_CFG_PFC_PRIO_OFFSET | (wd_en ? 1u : 0u) << XTM_Q_CFG_WD_EN_OFFSET;
}

static void rx_prio3(xtm_t *m, uint16_t q, xtm_out_t *out) {
  uint16_t quanta[8] = {0};
  quanta[kPrio] = q;
  tl_pfc_rx(m, kEg, 1u << kPrio, quanta, out);
}

static uint64_t voq_cnt(xtm_t *m, uint32_t voq, uint16_t lo) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, voq);
  return tl_rd64(m, lo);
}

static const uint32_t kEnDrop = 1u << XTM_WD_CTRL_EN_OFFSET;
static const uint32_t kEnFwd = 1u << XTM_WD_CTRL_EN_OFFSET | XTM_WD_CTRL_ACTION_VALUE_FORWARD
                                                                 << XTM_WD_CTRL_ACTION_OFFSET;

// Configures the watchdog (WD_CTRL = wd_ctrl), VOQ 19, then writes WD_POLL_CYCLES = 100 on
// the bus at cycle w (returned), pauses priority 3 of port 2 at w+1 (335539 cycles) and
// enqueues `n` 1-cell packets (ids 0..n-1) at w+2 .. w+1+n.
static xtm_t *setup(uint32_t wd_ctrl, uint32_t n, uint64_t *w) {
  xtm_t *m = tl_create(4, 8, 256);
  tl_wr(m, XTM_WD_CTRL_REG_OFFSET, wd_ctrl);
  tl_wr(m, XTM_WD_DETECT_POLLS_REG_OFFSET, 2);
  tl_wr(m, XTM_WD_RESTORE_POLLS_REG_OFFSET, 2);
  tl_voq_wr(m, kVoq, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio));
  xtm_out_t out;
  tl_bus_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, kPoll, &out);
  *w = out.cycle;
  rx_prio3(m, 0xFFFF, &out);
  for (uint32_t i = 0; i < n; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  }
  return m;
}

static uint64_t poll(uint64_t w, uint32_t k) { return w + 1 + (uint64_t)kPoll * k; }
static uint64_t visit(uint64_t w, uint32_t k) { return poll(w, k) + kEg; }
static uint64_t eff(uint64_t w, uint32_t k) { return visit(w, k) + 1; }

// Expects the next output (within 10000 cycles) to be a flush of (pkt_id, voq) at `cycle`.
static void expect_flush_at(xtm_t *m, uint64_t cycle, uint32_t pkt_id, uint32_t voq,
                            xtm_out_t *out) {
  ck_assert(xtm_advance_to(m, xtm_cycle(m) + 10000, out));
  ck_assert_msg(out->cycle == cycle, "first output at %llu, expected flush at %llu",
                (unsigned long long)out->cycle, (unsigned long long)cycle);
  ck_assert(out->flush.valid);
  ck_assert_uint_eq(out->flush.pkt_id, pkt_id);
  ck_assert_uint_eq(out->flush.voq, voq);
  ck_assert_uint_eq(out->deq_valid, 0);
}

// Steps one cycle at a time up to and including `cycle`, checking xtm_voq_counter(c) is
// `before` after each earlier cycle and `after` once `cycle` has run.
static void expect_count_step(xtm_t *m, uint64_t cycle, xtm_vcnt_t c, uint64_t before,
                              uint64_t after) {
  xtm_out_t out;
  ck_assert(xtm_cycle(m) <= cycle);
  while (xtm_advance_to(m, cycle, &out)) {
    // outputs before the poll (dequeues, flushes) are not the subject here
  }
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, c), before);
  tl_idle(m, &out);
  ck_assert_uint_eq(out.cycle, cycle);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, c), after);
}

// ------------------------------------------------------------------ action DROP

// Storm visits at V1 (storm 1) and V2 = w+203 (storm 2 = DETECT): STALLED from E2 = w+204,
// flushed one packet per cycle from that cycle: w+204, w+205, w+206. PG (1,3) with XOFF_T 3
// reached pg_cells 3 at the third arrival (w+4): XOFF frame at w+5 (evaluated in the next
// cycle, 7.1); the last flush brings pg_cells to 0 = XON_T: XON frame at w+207. Arrivals
// while STALLED: reason WD. V3 (w+303): no frame with quanta > 0 since V1 -> clean 1; V4
// (w+403): clean 2 = RESTORE -> MONITOR from w+404, Q_WD_RESTORE 1; arrivals accepted again.
START_TEST(test_drop_flush_and_restore) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 0, &w);
  tl_pg_wr(m, kIn, kPrio, XTM_G_CFG_REG_OFFSET, 1u << XTM_G_CFG_PFC_EN_OFFSET);
  tl_pg_wr(m, kIn, kPrio, XTM_G_XOFF_CELLS_REG_OFFSET, 3);
  tl_pg_wr(m, kIn, kPrio, XTM_G_XON_CELLS_REG_OFFSET, 0);
  tl_port_wr(m, kIn, XTM_P_PFC_REFRESH_REG_OFFSET, 1000000);
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);  // w+2, w+3, w+4
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert_uint_eq(out.pfc_tx_valid, 0);
  }
  tl_idle(m, &out);                                // w+5
  ck_assert_uint_eq(out.pfc_tx_valid, 1u << kIn);  // XOFF at pg_cells 3
  expect_flush_at(m, eff(w, 2), 0, kVoq, &out);
  ck_assert_uint_eq(out.pfc_tx_valid, 0);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_voq_state_t v;
  xtm_voq_state(m, kVoq, &v);
  ck_assert(v.wd_stalled);
  tl_idle(m, &out);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 1);
  ck_assert_uint_eq(out.pfc_tx_valid, 0);
  tl_idle(m, &out);  // w+206
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 2);
  ck_assert_uint_eq(out.pfc_tx_valid, 0);
  tl_idle(m, &out);  // w+207
  ck_assert(!out.flush.valid);
  ck_assert_uint_eq(out.pfc_tx_valid, 1u << kIn);  // XON: pg_cells 0 <= XON_T 0
  ck_assert_uint_eq(out.pfc_tx[kIn].vec, 1u << kPrio);
  ck_assert_uint_eq(out.pfc_tx[kIn].quanta[kPrio], 0);
  // Arrivals while STALLED (DROP): reason WD, attributed to VOQ 19; no PFC.
  for (uint32_t i = 0; i < 4; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, 10 + i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonWd);
    ck_assert_uint_eq(out.enq_res.voq, kVoq);
    ck_assert_uint_eq(out.pfc_tx_valid, 0);
  }
  xtm_pg_state_t g;
  xtm_pg_state(m, kIn, kPrio, &g);
  ck_assert_uint_eq(g.pg_cells, 0);
  ck_assert(!g.xoff);
  ck_assert_uint_eq(voq_cnt(m, kVoq, XTM_Q_DROP_FLUSH_LO_REG_OFFSET), 3);
  ck_assert_uint_eq(voq_cnt(m, kVoq, XTM_Q_DROP_WD_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(voq_cnt(m, kVoq, XTM_Q_WD_STALL_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(voq_cnt(m, kVoq, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 0);
  // Restoration exactly at V4.
  expect_count_step(m, visit(w, 3), kXtmVcntWdRestore, 0, 0);  // V3: clean 1
  expect_count_step(m, visit(w, 4), kXtmVcntWdRestore, 0, 1);  // V4: clean 2 -> MONITOR
  xtm_voq_state(m, kVoq, &v);
  ck_assert(!v.wd_stalled);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 20, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(voq_cnt(m, kVoq, XTM_Q_WD_RESTORE_LO_REG_OFFSET), 1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Frames with quanta > 0 received while STALLED reset the clean count; XON frames do not set
// rx. Stalled at V2. Pause frame (q 100) at w+350 -> rx at V4 -> clean 0 (V3 had made it 1).
// XON at w+450 -> no rx -> V5 clean 1, V6 (w+603) clean 2 -> restore.
START_TEST(test_rx_resets_clean) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 2, &w);
  xtm_out_t out;
  expect_flush_at(m, eff(w, 2), 0, kVoq, &out);
  tl_idle(m, &out);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 1);
  ck_assert(!xtm_advance_to(m, w + 350, &out));
  rx_prio3(m, 100, &out);  // w+350, between V3 (clean 1) and V4
  xtm_voq_state_t v;
  xtm_voq_state(m, kVoq, &v);
  ck_assert_uint_eq(v.wd_clean, 1);
  expect_count_step(m, visit(w, 4), kXtmVcntWdRestore, 0, 0);  // without the frame: 0 -> 1
  xtm_voq_state(m, kVoq, &v);
  ck_assert_uint_eq(v.wd_clean, 0);
  ck_assert(!xtm_advance_to(m, w + 450, &out));
  rx_prio3(m, 0, &out);  // w+450: XON, quanta 0, does not set rx
  expect_count_step(m, visit(w, 5), kXtmVcntWdRestore, 0, 0);
  expect_count_step(m, visit(w, 6), kXtmVcntWdRestore, 0, 1);
  xtm_voq_state(m, kVoq, &v);
  ck_assert(!v.wd_stalled);
  ck_assert_uint_eq(v.wd_clean, 0);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ action FORWARD

// STALLED at V2 = w+203 with FORWARD: the queue ignores the pause from E2 = w+204 on:
// selections w+204..w+206, outputs 5 cycles later (OCB_RD_LAT), sojourn = selection -
// enqueue (w+204 - (w+2) = 202, ...). Restored at V4 (w+403): it obeys pause again from
// w+404, so a packet enqueued at w+404 waits; V5 storm 1, V6 (w+603) storm 2 -> STALLED
// again, served at E6 = w+604, out w+609.
START_TEST(test_forward) {
  uint64_t w;
  xtm_t *m = setup(kEnFwd, 3, &w);
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    ck_assert(xtm_advance_to(m, w + 10000, &out));
    ck_assert_uint_eq(out.cycle, eff(w, 2) + 5 + i);
    ck_assert_uint_eq(out.deq_valid, 1u << kEg);
    ck_assert_uint_eq(out.deq[kEg].pkt_id, i);
    ck_assert_uint_eq(out.deq[kEg].sojourn, 202);  // (w+204+i) - (w+2+i)
    ck_assert(!out.flush.valid);
  }
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntDropFlush), 0);
  ck_assert(!xtm_advance_to(m, eff(w, 4), &out));  // through V4
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdRestore), 1);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 9, &out);  // w+404, paused again
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(xtm_advance_to(m, w + 10000, &out));
  ck_assert_uint_eq(out.cycle, eff(w, 6) + 5);
  ck_assert_uint_eq(out.deq[kEg].pkt_id, 9);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 2);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ storm detection

// A queue that sent something between visits is not a storm: V1 storm 1; XON at w+150 lets
// one packet go (selected at w+150, out w+155), pause again at w+151; V2: sent -> storm 0;
// V3 storm 1; V4 (w+403) storm 2 -> STALLED: the first flush is at E4 = w+404 (packet 1).
START_TEST(test_sent_is_not_storm) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 4, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, w + 150, &out));
  rx_prio3(m, 0, &out);       // w+150: pause ends, packet 0 selected
  rx_prio3(m, 0xFFFF, &out);  // w+151: paused again before the selection step
  ck_assert(xtm_advance_to(m, w + 10000, &out));
  ck_assert_uint_eq(out.cycle, w + 155);
  ck_assert_uint_eq(out.deq[kEg].pkt_id, 0);
  expect_flush_at(m, eff(w, 4), 1, kVoq, &out);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_destroy(m);
}
END_TEST

// An empty paused queue is not a storm (occ_pkts = 0).
START_TEST(test_empty_is_not_storm) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 0, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, eff(w, 5), &out));
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 0);
  // A packet arriving now: storms at V6, V7 -> STALLED from E7.
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 77, &out);
  expect_flush_at(m, eff(w, 7), 77, kVoq, &out);
  xtm_destroy(m);
}
END_TEST

// WD_EN per queue: VOQ 18 (queue 2, DSCP 16) obeys the same pause but has no WD_EN: it is
// never stalled nor flushed; VOQ 19 is flushed from E2.
START_TEST(test_wd_en_per_queue) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 0, &w);
  tl_voq_wr(m, kEg * 8 + 2, XTM_Q_CFG_REG_OFFSET, qcfg(false, kPrio));
  xtm_out_t out;
  tl_enq(m, kIn, kEg, 16, 0, 256, 180, &out);  // VOQ 18
  ck_assert_uint_eq(out.enq_res.voq, kEg * 8 + 2);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 190, &out);  // VOQ 19
  expect_flush_at(m, eff(w, 2), 190, kVoq, &out);
  ck_assert(!xtm_advance_to(m, eff(w, 10), &out));  // nothing else, ever
  xtm_voq_state_t v;
  xtm_voq_state(m, kEg * 8 + 2, &v);
  ck_assert(!v.wd_stalled);
  ck_assert_uint_eq(v.occ_pkts, 1);
  ck_assert_uint_eq(xtm_voq_counter(m, kEg * 8 + 2, kXtmVcntWdStall), 0);
  xtm_destroy(m);
}
END_TEST

// WD_CTRL.EN = 0: visits run but change nothing; EN written (bus) at w+250 counts from V3:
// storm 1 at V3, STALLED at V4 = w+403, flushed from E4.
START_TEST(test_global_enable) {
  uint64_t w;
  xtm_t *m = setup(0, 1, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, w + 250, &out));
  tl_bus_wr(m, XTM_WD_CTRL_REG_OFFSET, kEnDrop, &out);
  expect_flush_at(m, eff(w, 4), 0, kVoq, &out);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ schedule

// A write of WD_POLL_CYCLES = n at t restarts the schedule at t+1+n: V1 = w+103 (storm 1);
// WD_POLL_CYCLES = 64 (the minimum; 63 is illegal) written at w+150 -> next poll at w+215,
// port 2 visited at w+217 (storm 2 -> STALLED), flushed from w+218, not from E2 = w+204.
START_TEST(test_schedule_restart) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 1, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, w + 150, &out));
  ck_assert(!xtm_csr_write(m, XTM_WD_POLL_CYCLES_REG_OFFSET, 63));
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_ILLEGAL_BIT);
  tl_bus_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, 64, &out);
  expect_flush_at(m, w + 218, 0, kVoq, &out);
  xtm_destroy(m);
}
END_TEST

// Without a WD_POLL_CYCLES write, the first poll is at cycle 100000000 (the reset value),
// spec section 3. With WD_DETECT_POLLS = 1, a storm at that poll stalls the queue at the
// visit of port 2 (100000002): the flush appears at exactly 100000003.
START_TEST(test_reset_schedule) {
  xtm_t *m = tl_create(4, 8, 256);
  tl_wr(m, XTM_WD_CTRL_REG_OFFSET, kEnDrop);
  tl_wr(m, XTM_WD_DETECT_POLLS_REG_OFFSET, 1);
  tl_voq_wr(m, kVoq, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio));
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, 100000000u - 1000u, &out));
  rx_prio3(m, 0xFFFF, &out);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 5, &out);
  expect_flush_at(m, 100000003u, 5, kVoq, &out);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_destroy(m);
}
END_TEST

// The flush takes the dequeue slot (spec 9.7: the scheduler selects nothing in that cycle).
// A packet for port 0 (VOQ 0, DSCP 0) enqueued at E2-1 would be selected at E2 and leave at
// E2+5; VOQ 19 (2 packets) is flushed at E2 and E2+1, so VOQ 0 is selected at E2+2 and leaves
// at E2+7.
START_TEST(test_flush_blocks_scheduler) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 2, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, eff(w, 2) - 1, &out));
  tl_enq(m, 0, 0, 0, 0, 256, 500, &out);  // E2-1
  ck_assert_uint_eq(out.enq_res.voq, 0);
  tl_idle(m, &out);  // E2
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 0);
  tl_idle(m, &out);  // E2+1
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 1);
  ck_assert(xtm_advance_to(m, w + 10000, &out));
  ck_assert_uint_eq(out.cycle, eff(w, 2) + 7);
  ck_assert_uint_eq(out.deq_valid, 1u);
  ck_assert_uint_eq(out.deq[0].pkt_id, 500);
  ck_assert_uint_eq(out.deq[0].sojourn, 3);  // selected E2+2, enqueued E2-1
  xtm_destroy(m);
}
END_TEST

// Clearing WD_EN does not restore a STALLED queue; only the restore rule does. Read
// literally, polls only visit VOQs with WD_EN, so while WD_EN is 0 the queue stays STALLED
// (arrivals dropped WD); with WD_EN set again at w+451 the clean count runs from V5:
// V5 clean 1, V6 (w+603) clean 2 -> restore.
START_TEST(test_clear_wd_en_keeps_stall) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 1, &w);
  xtm_out_t out;
  expect_flush_at(m, eff(w, 2), 0, kVoq, &out);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, kVoq);
  tl_bus_wr(m, XTM_Q_CFG_REG_OFFSET, qcfg(false, kPrio), &out);  // w+205
  ck_assert(!xtm_advance_to(m, w + 450, &out));                  // V3, V4 pass: no restore
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdRestore), 0);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 1, &out);  // w+450
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonWd);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, kVoq);
  tl_bus_wr(m, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio), &out);  // w+451
  expect_count_step(m, visit(w, 5), kXtmVcntWdRestore, 0, 0);
  expect_count_step(m, visit(w, 6), kXtmVcntWdRestore, 0, 1);
  xtm_destroy(m);
}
END_TEST

static uint32_t bus_rd(xtm_t *m, uint16_t addr, xtm_out_t *out) {
  xtm_in_t in;
  tl_idle_in(&in);
  in.csr = (xtm_csr_req_t){.valid = true, .write = false, .addr = addr};
  xtm_step(m, &in, out);
  ck_assert(!out->csr_rsp.err);
  return out->csr_rsp.rdata;
}

// The sweep (spec 8): a poll starting at P visits egress port k at P + k, all VOQs of the
// port at once; the new states take effect from the next cycle; `sent` of a port's VOQs is
// cleared at the port's visit. VOQ A = 3 (port 0, queue 3) and B = 27 (port 3, queue 3),
// both WD_EN on priority 3, each holding packets under a pause of ports 0 and 3.
//   P1: A visited: storm 1 (B untouched: storm 0 until P1+3).
//   P1+1: XON on port 3: B's head is selected (sent); P1+2 pause again.
//   P1+3: B visited: sent -> storm stays 0, sent cleared.
//   P2: A storm 2 = DETECT -> STALLED from P2+1: an arrival to A in P2 is accepted and a
//       Q_STATUS read in P2 shows it not stalled; at P2+1 the flush starts and an arrival is
//       dropped WD.
//   P2+3: B storm 1; P3+3: B storm 2 -> STALLED, flushed from P3+4.
// (Visiting every port at P, as version 1 did, B would have seen sent cleared at P1 before
// its selection and stormed at P1 and P2.)
START_TEST(test_sweep_timing) {
  xtm_t *m = tl_create(4, 8, 256);
  tl_wr(m, XTM_WD_CTRL_REG_OFFSET, kEnDrop);
  tl_wr(m, XTM_WD_DETECT_POLLS_REG_OFFSET, 2);
  const uint32_t kA = 0 * 8 + 3, kB = 3 * 8 + 3;
  tl_voq_wr(m, kA, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio));
  tl_voq_wr(m, kB, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio));
  xtm_out_t out;
  tl_bus_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, kPoll, &out);
  uint64_t w = out.cycle;
  xtm_in_t in;
  tl_idle_in(&in);
  in.pfc_rx_valid = 1u << 0 | 1u << 3;
  in.pfc_rx[0].vec = in.pfc_rx[3].vec = 1u << kPrio;
  in.pfc_rx[0].quanta[kPrio] = in.pfc_rx[3].quanta[kPrio] = 0xFFFF;
  xtm_step(m, &in, &out);  // w+1: both paused
  for (uint32_t i = 0; i < 2; i++) {
    tl_enq(m, kIn, 0, kDscp, 0, 256, 100 + i, &out);  // A
    ck_assert_uint_eq(out.enq_res.voq, kA);
    tl_enq(m, kIn, 3, kDscp, 0, 256, 200 + i, &out);  // B
    ck_assert_uint_eq(out.enq_res.voq, kB);
  }
  uint64_t p1 = poll(w, 1), p2 = poll(w, 2), p3 = poll(w, 3);
  xtm_voq_state_t a, b;
  ck_assert(!xtm_advance_to(m, p1 + 1, &out));  // through P1
  xtm_voq_state(m, kA, &a);
  xtm_voq_state(m, kB, &b);
  ck_assert_uint_eq(a.wd_storm, 1);
  ck_assert_uint_eq(b.wd_storm, 0);
  uint16_t q[8] = {0};
  tl_pfc_rx(m, 3, 1u << kPrio, q, &out);  // P1+1: B's head selected
  ck_assert_uint_eq(xtm_voq_counter(m, kB, kXtmVcntDeqPkts), 1);
  q[kPrio] = 0xFFFF;
  tl_pfc_rx(m, 3, 1u << kPrio, q, &out);  // P1+2
  tl_idle(m, &out);                       // P1+3: B visited
  xtm_voq_state(m, kB, &b);
  ck_assert_uint_eq(b.wd_storm, 0);  // sent
  while (xtm_advance_to(m, p2, &out)) {
    ck_assert_uint_eq(out.deq_valid, 1u << 3);  // B's packet, selected at P1+1
  }
  // P2: the visit stalls A; this cycle still sees S(P2)
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, kA);
  tl_idle_in(&in);
  in.enq = (xtm_enq_in_t){
      .valid = true, .pkt_id = 102, .in_port = kIn, .eg_port = 0, .dscp = kDscp, .len = 256};
  in.csr = (xtm_csr_req_t){.valid = true, .write = false, .addr = XTM_Q_STATUS_REG_OFFSET};
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.cycle, p2);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(!out.flush.valid);
  ck_assert_uint_eq((out.csr_rsp.rdata >> XTM_Q_STATUS_WD_STALLED_OFFSET) & 1u, 0);
  ck_assert_uint_eq((out.csr_rsp.rdata >> XTM_Q_STATUS_WD_STORM_POLLS_OFFSET) & 0xFFu, 1);
  ck_assert_uint_eq(xtm_voq_counter(m, kA, kXtmVcntWdStall), 1);  // counted at P2
  xtm_voq_state(m, kA, &a);
  ck_assert(a.wd_stalled);  // S(P2+1)
  ck_assert(a.flushing);
  in.enq.pkt_id = 103;
  in.csr.valid = false;
  xtm_step(m, &in, &out);  // P2+1
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonWd);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.voq, kA);
  uint32_t st = bus_rd(m, XTM_Q_STATUS_REG_OFFSET, &out);  // P2+2
  ck_assert_uint_eq((st >> XTM_Q_STATUS_WD_STALLED_OFFSET) & 1u, 1);
  while (xtm_cycle(m) < p2 + 4) {
    tl_idle(m, &out);
  }
  xtm_voq_state(m, kB, &b);
  ck_assert_uint_eq(b.wd_storm, 1);  // P2+3
  ck_assert(!b.wd_stalled);
  while (xtm_advance_to(m, p3 + 3, &out)) {
  }
  ck_assert_uint_eq(xtm_voq_counter(m, kB, kXtmVcntWdStall), 0);
  tl_idle(m, &out);  // P3+3: B visited, storm 2
  ck_assert(!out.flush.valid);
  ck_assert_uint_eq(xtm_voq_counter(m, kB, kXtmVcntWdStall), 1);
  tl_idle(m, &out);  // P3+4
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.voq, kB);
  ck_assert_uint_eq(out.flush.pkt_id, 201);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

static Suite *watchdog_suite(void) {
  Suite *s = suite_create("watchdog");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_drop_flush_and_restore);
  tcase_add_test(tc, test_rx_resets_clean);
  tcase_add_test(tc, test_forward);
  tcase_add_test(tc, test_sent_is_not_storm);
  tcase_add_test(tc, test_empty_is_not_storm);
  tcase_add_test(tc, test_wd_en_per_queue);
  tcase_add_test(tc, test_global_enable);
  tcase_add_test(tc, test_schedule_restart);
  tcase_add_test(tc, test_reset_schedule);
  tcase_add_test(tc, test_flush_blocks_scheduler);
  tcase_add_test(tc, test_clear_wd_en_keeps_stall);
  tcase_add_test(tc, test_sweep_timing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(watchdog_suite()); }
