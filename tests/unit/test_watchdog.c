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
// A pause of q = 0xFFFF quanta at the reset P_PAUSE_QUANTUM lasts
// ceil(65535 * 0x51EB8 / 65536) = 335539 cycles, covering every poll of a test.

#include <string.h>

#include "tests/unit/xtm_testlib.h"

enum { kIn = 1, kEg = 2, kPrio = 3, kVoq = kEg * 8 + 3, kDscp = 24, kPoll = 100 };

static void idle_in(xtm_in_t *in) {
  memset(in, 0, sizeof(*in));
  in->tx_ready = UINT64_MAX;
}

static void bus_wr(xtm_t *m, uint16_t addr, uint32_t data, xtm_out_t *out) {
  xtm_in_t in;
  idle_in(&in);
  in.csr = (xtm_csr_req_t){.valid = true, .write = true, .addr = addr, .wdata = data};
  xtm_step(m, &in, out);
  ck_assert(!out->csr_rsp.err);
}

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
  bus_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, kPoll, &out);
  *w = out.cycle;
  rx_prio3(m, 0xFFFF, &out);
  for (uint32_t i = 0; i < n; i++) {
    tl_enq(m, kIn, kEg, kDscp, 0, 256, i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  }
  return m;
}

static uint64_t poll(uint64_t w, uint32_t k) { return w + 1 + (uint64_t)kPoll * k; }

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

// Storm polls at P1 (storm 1) and P2 (storm 2 = DETECT): STALLED at P2 = w+201, flushed one
// packet per cycle from that cycle (step 3 then step 5): w+201, w+202, w+203. PG (1,3) with
// XOFF_T 3 sent XOFF at the third arrival (w+4); the last flush brings pg_cells to 0 = XON_T
// and the XON frame appears in that cycle (w+203). Arrivals while STALLED: reason WD.
// P3 (w+301): no frame with quanta > 0 since P1 -> clean 1; P4 (w+401): clean 2 = RESTORE
// -> MONITOR, Q_WD_RESTORE 1; arrivals are accepted again.
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
    ck_assert_uint_eq(out.pfc_tx_valid, i == 2 ? 1u << kIn : 0u);  // XOFF at pg_cells 3
  }
  expect_flush_at(m, poll(w, 2), 0, kVoq, &out);
  ck_assert_uint_eq(out.pfc_tx_valid, 0);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_voq_state_t v;
  xtm_voq_state(m, kVoq, &v);
  ck_assert(v.wd_stalled);
  tl_idle(m, &out);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 1);
  ck_assert_uint_eq(out.pfc_tx_valid, 0);
  tl_idle(m, &out);  // w+203
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 2);
  ck_assert_uint_eq(out.pfc_tx_valid, 1u << kIn);  // XON: pg_cells 0 <= XON_T 0
  ck_assert_uint_eq(out.pfc_tx[kIn].vec, 1u << kPrio);
  ck_assert_uint_eq(out.pfc_tx[kIn].quanta[kPrio], 0);
  tl_idle(m, &out);
  ck_assert(!out.flush.valid);
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
  // Restoration exactly at P4.
  expect_count_step(m, poll(w, 3), kXtmVcntWdRestore, 0, 0);  // P3: clean 1
  expect_count_step(m, poll(w, 4), kXtmVcntWdRestore, 0, 1);  // P4: clean 2 -> MONITOR
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
// rx. Stalled at P2. Pause frame (q 100) at w+350 -> rx at P4 -> clean 0 (P3 had made it 1).
// XON at w+450 -> no rx -> P5 clean 1, P6 (w+601) clean 2 -> restore.
START_TEST(test_rx_resets_clean) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 2, &w);
  xtm_out_t out;
  expect_flush_at(m, poll(w, 2), 0, kVoq, &out);
  tl_idle(m, &out);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 1);
  ck_assert(!xtm_advance_to(m, w + 350, &out));
  rx_prio3(m, 100, &out);                                     // w+350, between P3 (clean 1) and P4
  expect_count_step(m, poll(w, 4), kXtmVcntWdRestore, 0, 0);  // without the frame: 0 -> 1
  ck_assert(!xtm_advance_to(m, w + 450, &out));
  rx_prio3(m, 0, &out);  // w+450: XON, quanta 0, does not set rx
  expect_count_step(m, poll(w, 5), kXtmVcntWdRestore, 0, 0);
  expect_count_step(m, poll(w, 6), kXtmVcntWdRestore, 0, 1);
  xtm_voq_state_t v;
  xtm_voq_state(m, kVoq, &v);
  ck_assert(!v.wd_stalled);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ action FORWARD

// STALLED at P2 = w+201 with FORWARD: the queue ignores the pause and is served from that
// cycle: selections w+201..w+203, outputs 2 cycles later (OCB_RD_LAT), sojourn = selection -
// enqueue (w+201 - (w+2) = 199, ...). Restored at P4 (w+401): it obeys pause again, so a
// packet enqueued at w+402 waits; P5 storm 1, P6 (w+601) storm 2 -> STALLED again, served at
// w+601, out w+603.
START_TEST(test_forward) {
  uint64_t w;
  xtm_t *m = setup(kEnFwd, 3, &w);
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    ck_assert(xtm_advance_to(m, w + 10000, &out));
    ck_assert_uint_eq(out.cycle, poll(w, 2) + 2 + i);
    ck_assert_uint_eq(out.deq_valid, 1u << kEg);
    ck_assert_uint_eq(out.deq[kEg].pkt_id, i);
    ck_assert_uint_eq(out.deq[kEg].sojourn, 199);  // (w+201+i) - (w+2+i)
    ck_assert(!out.flush.valid);
  }
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntDropFlush), 0);
  ck_assert(!xtm_advance_to(m, poll(w, 4) + 1, &out));  // through P4
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdRestore), 1);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 9, &out);  // w+402, paused again
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(xtm_advance_to(m, w + 10000, &out));
  ck_assert_uint_eq(out.cycle, poll(w, 6) + 2);
  ck_assert_uint_eq(out.deq[kEg].pkt_id, 9);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 2);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ storm detection

// A queue that sent something between polls is not a storm: P1 storm 1; XON at w+150 lets
// one packet go (selected at w+150), pause again at w+151; P2: sent -> storm 0; P3 storm 1;
// P4 (w+401) storm 2 -> STALLED: the first flush is at w+401 (packet 1), not at P2.
START_TEST(test_sent_is_not_storm) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 4, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, w + 150, &out));
  rx_prio3(m, 0, &out);       // w+150: pause ends, packet 0 selected
  rx_prio3(m, 0xFFFF, &out);  // w+151: paused again before the selection step
  ck_assert(xtm_advance_to(m, w + 10000, &out));
  ck_assert_uint_eq(out.cycle, w + 152);
  ck_assert_uint_eq(out.deq[kEg].pkt_id, 0);
  expect_flush_at(m, poll(w, 4), 1, kVoq, &out);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_destroy(m);
}
END_TEST

// An empty paused queue is not a storm (occ_pkts = 0).
START_TEST(test_empty_is_not_storm) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 0, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, poll(w, 5) + 1, &out));
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 0);
  // A packet arriving now: storms at P6, P7 -> STALLED at P7.
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 77, &out);
  expect_flush_at(m, poll(w, 7), 77, kVoq, &out);
  xtm_destroy(m);
}
END_TEST

// WD_EN per queue: VOQ 18 (queue 2, DSCP 16) obeys the same pause but has no WD_EN: it is
// never stalled nor flushed; VOQ 19 is flushed at P2.
START_TEST(test_wd_en_per_queue) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 0, &w);
  tl_voq_wr(m, kEg * 8 + 2, XTM_Q_CFG_REG_OFFSET, qcfg(false, kPrio));
  xtm_out_t out;
  tl_enq(m, kIn, kEg, 16, 0, 256, 180, &out);  // VOQ 18
  ck_assert_uint_eq(out.enq_res.voq, kEg * 8 + 2);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 190, &out);  // VOQ 19
  expect_flush_at(m, poll(w, 2), 190, kVoq, &out);
  ck_assert(!xtm_advance_to(m, poll(w, 10) + 1, &out));  // nothing else, ever
  xtm_voq_state_t v;
  xtm_voq_state(m, kEg * 8 + 2, &v);
  ck_assert(!v.wd_stalled);
  ck_assert_uint_eq(v.occ_pkts, 1);
  ck_assert_uint_eq(xtm_voq_counter(m, kEg * 8 + 2, kXtmVcntWdStall), 0);
  xtm_destroy(m);
}
END_TEST

// WD_CTRL.EN = 0: polls run but change nothing; EN written (bus) at w+250 counts from P3:
// storm 1 at P3, STALLED at P4 = w+401.
START_TEST(test_global_enable) {
  uint64_t w;
  xtm_t *m = setup(0, 1, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, w + 250, &out));
  bus_wr(m, XTM_WD_CTRL_REG_OFFSET, kEnDrop, &out);
  expect_flush_at(m, poll(w, 4), 0, kVoq, &out);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ schedule

// A write of WD_POLL_CYCLES = n at t restarts the schedule at t+1+n: P1 = w+101 (storm 1);
// WD_POLL_CYCLES = 30 written at w+150 -> next poll w+181 (storm 2 -> STALLED), not w+201.
START_TEST(test_schedule_restart) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 1, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, w + 150, &out));
  bus_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, 30, &out);
  expect_flush_at(m, w + 181, 0, kVoq, &out);
  xtm_destroy(m);
}
END_TEST

// Without a WD_POLL_CYCLES write, the first poll is at cycle 100000000 (the reset value),
// spec section 3. With WD_DETECT_POLLS = 1, a storm at that poll stalls the queue at once:
// the flush appears at exactly 100000000.
START_TEST(test_reset_schedule) {
  xtm_t *m = tl_create(4, 8, 256);
  tl_wr(m, XTM_WD_CTRL_REG_OFFSET, kEnDrop);
  tl_wr(m, XTM_WD_DETECT_POLLS_REG_OFFSET, 1);
  tl_voq_wr(m, kVoq, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio));
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, 100000000u - 1000u, &out));
  rx_prio3(m, 0xFFFF, &out);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 5, &out);
  expect_flush_at(m, 100000000u, 5, kVoq, &out);
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdStall), 1);
  xtm_destroy(m);
}
END_TEST

// The flush takes the dequeue slot (spec 9.7: the scheduler selects nothing in that cycle).
// A packet for port 0 (VOQ 0, DSCP 0) enqueued at P2-1 would be selected at P2 and leave at
// P2+2; VOQ 19 (2 packets) is flushed at P2 and P2+1, so VOQ 0 is selected at P2+2 and leaves
// at P2+4.
START_TEST(test_flush_blocks_scheduler) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 2, &w);
  xtm_out_t out;
  ck_assert(!xtm_advance_to(m, poll(w, 2) - 1, &out));
  tl_enq(m, 0, 0, 0, 0, 256, 500, &out);  // P2-1
  ck_assert_uint_eq(out.enq_res.voq, 0);
  tl_idle(m, &out);  // P2
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 0);
  tl_idle(m, &out);  // P2+1
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 1);
  ck_assert(xtm_advance_to(m, w + 10000, &out));
  ck_assert_uint_eq(out.cycle, poll(w, 2) + 4);
  ck_assert_uint_eq(out.deq_valid, 1u);
  ck_assert_uint_eq(out.deq[0].pkt_id, 500);
  ck_assert_uint_eq(out.deq[0].sojourn, 3);  // selected P2+2, enqueued P2-1
  xtm_destroy(m);
}
END_TEST

// Clearing WD_EN does not restore a STALLED queue; only the restore rule does. Read
// literally, polls only visit VOQs with WD_EN, so while WD_EN is 0 the queue stays STALLED
// (arrivals dropped WD); with WD_EN set again at w+450 the clean count runs from P5:
// P5 clean 1, P6 (w+601) clean 2 -> restore.
START_TEST(test_clear_wd_en_keeps_stall) {
  uint64_t w;
  xtm_t *m = setup(kEnDrop, 1, &w);
  xtm_out_t out;
  expect_flush_at(m, poll(w, 2), 0, kVoq, &out);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, kVoq);
  bus_wr(m, XTM_Q_CFG_REG_OFFSET, qcfg(false, kPrio), &out);  // w+202
  ck_assert(!xtm_advance_to(m, w + 450, &out));               // P3, P4 pass: no restore
  ck_assert_uint_eq(xtm_voq_counter(m, kVoq, kXtmVcntWdRestore), 0);
  tl_enq(m, kIn, kEg, kDscp, 0, 256, 1, &out);  // w+450
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonWd);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, kVoq);
  bus_wr(m, XTM_Q_CFG_REG_OFFSET, qcfg(true, kPrio), &out);  // w+451
  expect_count_step(m, poll(w, 5), kXtmVcntWdRestore, 0, 0);
  expect_count_step(m, poll(w, 6), kXtmVcntWdRestore, 0, 1);
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
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(watchdog_suite()); }
