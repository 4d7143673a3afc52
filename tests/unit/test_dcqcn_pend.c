// SPDX-License-Identifier: Apache-2.0
//
// Suite "dcqcn_pend": reaction-point events of a QP that the scan does not visit in their
// cycle wait for its next visit (docs/spec-dcqcn.md D5.1, spec 2.0), the rate-update stream
// of D7 (visited QPs, increasing QP order), INIT at the next visit (D9) and the pacer's Rc
// at a visit (D4). Every test runs twice: _i = 0 on the skipping fast path, _i = 1 in eager
// mode (the RTL's scan).
//
// Set-up ("pend lab"): 64 QPs, U = 4, so S = 16 and QP q is visited when t mod 16 = q / 4:
// QP 13 (and 12..15) at t = 3, 19, 35, ...; QPs 0..3 at t = 0, 16, 32, ...
// DCE_TCP_RTT = 100000 us (no alpha timer before 10^8), RATE_TO_SET_ON_FIRST_CNP = 40000,
// RPG_TIME_RESET = 10 us = 10000 cycles, the rest at reset values.

#include "tests/unit/dcqcn_testlib.h"

static dcqcn_t *lab(int eager) {
  dcqcn_t *m = dt_create(64, 4);
  dcqcn_set_eager(m, eager != 0);
  dt_param(m, "DCE_TCP_RTT", 100000);
  dt_param(m, "RATE_TO_SET_ON_FIRST_CNP", 40000);
  dt_param(m, "RPG_TIME_RESET", 10);
  return m;
}

static uint32_t status(dcqcn_t *m, uint32_t qp) {
  return dt_qp_rd(m, qp, DCQCN_Q_STATUS_REG_OFFSET);
}

// A first CNP at 5 is pending until the visit at 19: no output before, CNP_RX counted at
// once, CNP_FIRST, the rate entry {40000, 40000, 1023} and the timers (armed at 19 + P)
// at the visit.
START_TEST(test_first_cnp_waits_for_visit) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 5);
  dt_cnp(m, 13, &out);
  ck_assert_uint_eq(out.n_rate, 0);
  ck_assert_uint_eq(status(m, 13), 0);  // not active before the visit
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpRx), 1);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 13, kDcqcnQcntCnpRx), 1);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpFirst), 0);
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 13, &s);
  ck_assert(s.pend_cnp && !s.pend_cnp_more && !s.active);
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  ck_assert_uint_eq(dt_run_to(m, 20, rec, cyc, 4), 1);
  ck_assert_uint_eq(cyc[0], 19);
  ck_assert_uint_eq(rec[0].qp, 13);
  ck_assert_uint_eq(rec[0].rc, 40000);
  ck_assert_uint_eq(rec[0].rt, 40000);
  ck_assert_uint_eq(rec[0].alpha, 1023);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpFirst), 1);
  dcqcn_qp_state(m, 13, &s);
  ck_assert(s.active && !s.pend_cnp && !s.cnp_alpha && !s.cnp_dec);
  ck_assert_uint_eq(s.dec_due, 19 + 4000);   // RATE_REDUCE_MONITOR_PERIOD 4 us
  ck_assert_uint_eq(s.inc_due, 19 + 10000);  // RPG_TIME_RESET 10 us
  ck_assert_uint_eq(status(m, 13), 1);
  dcqcn_destroy(m);
}
END_TEST

// Two CNPs before the visit: the first CNP, then the second sets both slot flags (D5.1 step
// 3), as in version 1 where the second CNP found the QP active.
START_TEST(test_second_pending_cnp_sets_flags) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 5);
  dt_cnp(m, 13, &out);
  dt_cnp(m, 13, &out);  // cycle 6
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 13, &s);
  ck_assert(s.pend_cnp && s.pend_cnp_more);
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  ck_assert_uint_eq(dt_run_to(m, 20, rec, cyc, 4), 1);
  ck_assert_uint_eq(status(m, 13), 7);  // ACTIVE, CNP_ALPHA, CNP_DEC
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpRx), 2);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpFirst), 1);
  dcqcn_destroy(m);
}
END_TEST

// A CNP for an active QP outside its visit shows in Q_STATUS at once (D9) and is cut by the
// decrease timer at 3 + 4000 = 4003, itself a visit (4003 mod 16 = 3).
START_TEST(test_cnp_active_flags_at_once) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 3);
  dt_cnp(m, 13, &out);  // a visit: applied now (first CNP, rate entry at 3)
  ck_assert_uint_eq(out.n_rate, 1);
  dt_quiet_to(m, 5);
  dt_cnp(m, 13, &out);
  ck_assert_uint_eq(out.n_rate, 0);
  ck_assert_uint_eq(status(m, 13), 7);
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  ck_assert_uint_eq(dt_run_to(m, 4004, rec, cyc, 4), 1);
  ck_assert_uint_eq(cyc[0], 4003);
  // cut: min((40000 * 1023) >> 11, 40000 * 50 / 100) = min(19980, 20000) -> Rc 20020
  ck_assert_uint_eq(rec[0].rc, 20020);
  dcqcn_destroy(m);
}
END_TEST

// Bytes of an active QP outside its visit are added at the visit, one increase event at most
// (D6.5). RPG_BYTE_RESET = 1: B = 64 bytes. QP 13 active from its visit at 3.
// Cycles 5, 6: 100 bytes each, pending 200; Q_BYTE_COUNT 0 until the visit at 19, which
// adds 200 -> 200 >= 64: 136, one event (T = BC = 0 < F = 1: fast recovery, Rc = Rt = 40000
// unchanged, no rate entry), BC = 1. At 35 (a visit) 100 bytes more are counted at once:
// 236 -> 172, an event with T = 0, BC = 1: additive, Rt = 40005, Rc = (40000 + 40005) >> 1
// = 40002, rate entry at 35, BC = 2.
START_TEST(test_pending_bytes_at_visit) {
  dcqcn_t *m = lab(_i);
  dt_param(m, "RPG_BYTE_RESET", 1);
  dcqcn_out_t out;
  dt_quiet_to(m, 3);
  dt_cnp(m, 13, &out);
  dt_quiet_to(m, 5);
  dt_tx(m, 13, 100, &out);
  dt_tx(m, 13, 100, &out);
  ck_assert_uint_eq(out.n_rate, 0);
  ck_assert_uint_eq(dt_qp_rd(m, 13, DCQCN_Q_BYTE_COUNT_REG_OFFSET), 0);
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 13, &s);
  ck_assert_uint_eq(s.pend_bytes, 200);
  dt_quiet_to(m, 20);
  ck_assert_uint_eq(dt_qp_rd(m, 13, DCQCN_Q_BYTE_COUNT_REG_OFFSET), 136);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByBytes), 1);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncFr), 1);
  ck_assert_uint_eq(status(m, 13) >> DCQCN_Q_STATUS_STAGE_BC_OFFSET & 0xFF, 1);
  dt_quiet_to(m, 35);
  dt_tx(m, 13, 100, &out);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].rt, 40005);
  ck_assert_uint_eq(out.rate[0].rc, 40002);
  ck_assert_uint_eq(dt_qp_rd(m, 13, DCQCN_Q_BYTE_COUNT_REG_OFFSET), 172);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncAi), 1);
  dcqcn_destroy(m);
}
END_TEST

// Bytes sent while the first CNP is pending are not counted (the QP is inactive at the
// start of the visit, D5.1 step 2).
START_TEST(test_bytes_before_first_cnp_visit_dropped) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 5);
  dt_cnp(m, 13, &out);
  dt_tx(m, 13, 100, &out);  // cycle 6
  dt_quiet_to(m, 19);
  dt_run_to(m, 20, NULL, NULL, 0);
  ck_assert_uint_eq(status(m, 13), 1);
  ck_assert_uint_eq(dt_qp_rd(m, 13, DCQCN_Q_BYTE_COUNT_REG_OFFSET), 0);
  dcqcn_destroy(m);
}
END_TEST

// Q_CTRL.INIT: the window reads the INIT word with the current cap at once; the visit at 19
// applies it with the cap of that cycle (LINE_RATE changed to 50000 after the INIT) and
// reports nothing (D7); a CNP after the INIT is a pending first CNP, applied after it.
START_TEST(test_init_at_next_visit) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 3);
  dt_cnp(m, 12, &out);  // a visit of QP 12: active from cycle 3, Rc = Rt = 40000
  dt_cnp(m, 13, &out);  // cycle 4: QP 13 is not visited: pending first CNP
  dt_quiet_to(m, 16);
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  ck_assert_uint_eq(dt_run_to(m, 20, rec, cyc, 4), 1);  // QP 13's first CNP at 19
  dt_wr(m, DCQCN_QP_SEL_REG_OFFSET, 12);
  dt_wr(m, DCQCN_Q_CTRL_REG_OFFSET, 1);
  dt_param(m, "LINE_RATE", 50000);
  ck_assert_uint_eq(dt_rd(m, DCQCN_Q_RC_REG_OFFSET), 50000);
  ck_assert_uint_eq(dt_rd(m, DCQCN_Q_STATUS_REG_OFFSET), 0);
  ck_assert_uint_eq(dt_rd(m, DCQCN_Q_INC_REMAIN_REG_OFFSET), 0);
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 12, &s);
  ck_assert(s.init_pend);
  ck_assert_uint_eq(dt_run_to(m, 36, rec, cyc, 4), 0);  // the INIT at 35 reports nothing
  dcqcn_qp_state(m, 12, &s);
  ck_assert(!s.init_pend && !s.active);
  ck_assert_uint_eq(s.rc, 50000);
  // INIT again, a CNP at 40 (no visit): at 51 the INIT, then the first CNP: 40000
  dt_wr(m, DCQCN_Q_CTRL_REG_OFFSET, 1);
  dt_quiet_to(m, 40);
  dt_cnp(m, 12, &out);
  ck_assert_uint_eq(dt_run_to(m, 52, rec, cyc, 4), 1);
  ck_assert_uint_eq(cyc[0], 51);
  ck_assert_uint_eq(rec[0].qp, 12);
  ck_assert_uint_eq(rec[0].rc, 40000);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpFirst), 3);
  dcqcn_destroy(m);
}
END_TEST

// The rate-update stream lists visited QPs in increasing QP order (D7): first CNPs of QPs
// 3, 1, 2 at cycles 1, 2, 4 are all applied at the visit of QPs 0..3 at 16.
START_TEST(test_rate_stream_order) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 1);
  dt_cnp(m, 3, &out);
  dt_cnp(m, 1, &out);
  dt_quiet_to(m, 4);
  dt_cnp(m, 2, &out);
  dt_quiet_to(m, 16);
  dcqcn_in_t none = {.cnp = {.valid = false}};
  dcqcn_step(m, &none, &out);
  ck_assert_uint_eq(out.cycle, 16);
  ck_assert_uint_eq(out.n_rate, 3);
  ck_assert_uint_eq(out.rate[0].qp, 1);
  ck_assert_uint_eq(out.rate[1].qp, 2);
  ck_assert_uint_eq(out.rate[2].qp, 3);
  dcqcn_destroy(m);
}
END_TEST

// The pacer of a transmission uses Rc after the visit of its cycle (D4): a first CNP pending
// from 5 is applied at 19, so a 1000-byte frame at 18 is paced at 100000 Mb/s (gap
// 1000 * 8 * 1000 * 256 / 100000 = 20480 / 256 = 80 cycles: next_send 98) and one at 19 at
// 40000 Mb/s (51200 / 256 = 200 cycles after 98 would be 298; from max(pace, 19 * 256) =
// 98 * 256: 298).
START_TEST(test_pacer_rc_after_visit) {
  dcqcn_t *m = lab(_i);
  dcqcn_out_t out;
  dt_quiet_to(m, 5);
  dt_cnp(m, 13, &out);
  dt_quiet_to(m, 18);
  dt_tx(m, 13, 1000, &out);
  ck_assert(out.pace.valid);
  ck_assert_uint_eq(out.pace.next_send, 98);
  dt_tx(m, 13, 1000, &out);
  ck_assert_uint_eq(out.cycle, 19);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.pace.next_send, 298);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntPaceEarly), 1);  // sent at 19 < 98
  dcqcn_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dcqcn_pend");
  TCase *tc = tcase_create("pending");
  tcase_add_loop_test(tc, test_first_cnp_waits_for_visit, 0, 2);
  tcase_add_loop_test(tc, test_second_pending_cnp_sets_flags, 0, 2);
  tcase_add_loop_test(tc, test_cnp_active_flags_at_once, 0, 2);
  tcase_add_loop_test(tc, test_pending_bytes_at_visit, 0, 2);
  tcase_add_loop_test(tc, test_bytes_before_first_cnp_visit_dropped, 0, 2);
  tcase_add_loop_test(tc, test_init_at_next_visit, 0, 2);
  tcase_add_loop_test(tc, test_rate_stream_order, 0, 2);
  tcase_add_loop_test(tc, test_pacer_rc_after_visit, 0, 2);
  suite_add_tcase(s, tc);
  return dt_run_suite(s);
}
