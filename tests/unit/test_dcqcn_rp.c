// SPDX-License-Identifier: Apache-2.0
//
// Suite "dcqcn_rp": the reaction point of docs/spec-dcqcn.md (D5-D7), exact hand-computed
// sequences. Every expected value is derived in a comment from the brief's formulas:
//   alpha timer: alpha' = (g*alpha >> 10) [+ 1024 - g, capped at 1023, with a CNP in the slot]
//   cut:         Rc' = max(Rmin, Rc - min((Rc*alpha) >> GD, Rc*(100 - MIN_DEC_FAC)/100))
//   increase:    HAI if min(T,BC) > F, AI if max(T,BC) >= F, else FR; Rc' = (Rc + Rt') >> 1
// Most tests use the "lab" set-up (dcqcn_testlib.h): S = 1, alpha frozen at 1023 (its timer
// period is 10^8 cycles), RATE_TO_SET_ON_FIRST_CNP = 40000, RPG_TIME_RESET = 10 us.

#include "tests/unit/dcqcn_testlib.h"

static void expect_qp(dcqcn_t *m, uint32_t qp, uint32_t rc, uint32_t rt, uint32_t alpha) {
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, qp, &s);
  ck_assert_uint_eq(s.rc, rc);
  ck_assert_uint_eq(s.rt, rt);
  ck_assert_uint_eq(s.alpha, alpha);
}

// First CNP with the defaults (D6.2): alpha := INITIAL_ALPHA_VALUE = 1023, RATE_TO_SET 0
// keeps Rc = Rt = line rate 100000, no slot flag, timers at t0 + 1000 / 4000 / 300000.
START_TEST(test_first_cnp_defaults) {
  dcqcn_t *m = dt_create(4, 4);
  dcqcn_out_t out;
  dt_quiet_to(m, 10);
  dt_cnp(m, 1, &out);
  ck_assert_uint_eq(out.cycle, 10);
  ck_assert_uint_eq(out.n_rate, 0);  // rc, rt, alpha unchanged (reset values 100000/100000/1023)
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 1, &s);
  ck_assert(s.active);
  ck_assert(!s.cnp_alpha && !s.cnp_dec);
  ck_assert_uint_eq(s.alpha_due, 1010);
  ck_assert_uint_eq(s.dec_due, 4010);
  ck_assert_uint_eq(s.inc_due, 300010);
  expect_qp(m, 1, 100000, 100000, 1023);
  // Registers show the same: remain = due - next cycle (11).
  ck_assert_uint_eq(dt_qp_rd(m, 1, DCQCN_Q_ALPHA_REMAIN_REG_OFFSET), 999);
  ck_assert_uint_eq(dt_qp_rd(m, 1, DCQCN_Q_DEC_REMAIN_REG_OFFSET), 3999);
  ck_assert_uint_eq(dt_qp_rd(m, 1, DCQCN_Q_INC_REMAIN_REG_OFFSET), 299999);
  ck_assert_uint_eq(dt_qp_rd(m, 1, DCQCN_Q_STATUS_REG_OFFSET), 1);  // ACTIVE only
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpRx), 1);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpFirst), 1);
  // The first CNP cleared its slot flags: the decrease timer at 4010 does not cut.
  dcqcn_rate_upd_t rec[8];
  uint64_t cyc[8];
  uint32_t n = dt_run_to(m, 4011, rec, cyc, 8);
  // Alpha decays at 1010, 2010, 3010, 4010: 1023 -> 1018 -> 1013 -> 1008 -> 1003
  // (1019*1023 = 1042437, >> 10 = 1018; 1019*1018 >> 10 = 1013; ...).
  ck_assert_uint_eq(n, 4);
  static const uint16_t kAlpha[4] = {1018, 1013, 1008, 1003};
  for (uint32_t i = 0; i < 4; i++) {
    ck_assert_uint_eq(cyc[i], 1010 + 1000 * i);
    ck_assert_uint_eq(rec[i].qp, 1);
    ck_assert_uint_eq(rec[i].alpha, kAlpha[i]);
    ck_assert_uint_eq(rec[i].rc, 100000);
  }
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCuts), 0);
  dcqcn_destroy(m);
}
END_TEST

// RATE_TO_SET_ON_FIRST_CNP = 40000: Rc = Rt = 40000 reported in the cycle of the CNP; a
// value above the cap (RPG_MAX_RATE = 30000) saturates to it.
START_TEST(test_first_cnp_rate_to_set) {
  dcqcn_t *m = dt_lab();
  dcqcn_out_t out;
  dt_cnp(m, 2, &out);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].qp, 2);
  ck_assert_uint_eq(out.rate[0].rc, 40000);
  ck_assert_uint_eq(out.rate[0].rt, 40000);
  ck_assert_uint_eq(out.rate[0].alpha, 1023);
  dt_param(m, "RPG_MAX_RATE", 30000);
  dt_cnp(m, 3, &out);
  expect_qp(m, 3, 30000, 30000, 1023);
  dcqcn_destroy(m);
}
END_TEST

// One cut at alpha 1023 (D6.4). First CNP at 0 (Rc = Rt = 40000), second at 100 sets the
// decrease slot; the decrease timer at 4000 cuts.
static void one_cut(uint32_t min_dec_fac, uint32_t gd, uint32_t expect_rc) {
  dcqcn_t *m = dt_lab();
  dt_param(m, "RPG_MIN_DEC_FAC", min_dec_fac);
  dt_param(m, "RPG_GD", gd);
  dcqcn_out_t out;
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 100);
  dt_cnp(m, 0, &out);
  ck_assert_uint_eq(out.n_rate, 0);  // a later CNP only sets the slot flags
  dt_quiet_to(m, 4000);
  dcqcn_step(m, NULL, &out);
  ck_assert_uint_eq(out.cycle, 4000);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].rc, expect_rc);
  ck_assert_uint_eq(out.rate[0].rt, 40000);  // no clamp: T = BC = 0, CLAMP_TGT_RATE = 0
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 0, &s);
  ck_assert_uint_eq(s.inc_due, 4000 + 10000);  // the cut restarts the increase timer
  ck_assert_uint_eq(s.dec_due, 8000);          // the decrease timer keeps its phase
  ck_assert(!s.cnp_dec);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCuts), 1);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 0, kDcqcnQcntCuts), 1);
  dcqcn_destroy(m);
}

// GD 11, MIN_DEC_FAC 50: by alpha (40000*1023) >> 11 = 40920000/2048 = 19980 (floor),
// cap 40000*50/100 = 20000, cut 19980: Rc = 20020 (49.95 %, under the 50 % cap).
START_TEST(test_cut_fac50_gd11) { one_cut(50, 11, 20020); }
END_TEST
// GD 10: by alpha (40000*1023) >> 10 = 39960 > cap 20000: the cap binds, Rc = 20000.
START_TEST(test_cut_fac50_capped) { one_cut(50, 10, 20000); }
END_TEST
// MIN_DEC_FAC 95: cap 40000*5/100 = 2000 < 19980: Rc = 38000 (at most 5 %).
START_TEST(test_cut_fac95) { one_cut(95, 11, 38000); }
END_TEST

// Alpha decay over k = 8 periods without a CNP (D6.3), then one period with a CNP.
START_TEST(test_alpha_decay) {
  dcqcn_t *m = dt_create(4, 4);  // defaults: DCE_TCP_RTT 1 us = 1000 cycles, g = 1019
  dcqcn_out_t out;
  dt_cnp(m, 0, &out);  // cycle 0: alpha = 1023, alpha timer at 1000, 2000, ...
  dcqcn_rate_upd_t rec[16];
  uint64_t cyc[16];
  uint32_t n = dt_run_to(m, 8001, rec, cyc, 16);
  // floor(1019 * a / 1024) eight times from 1023 (each product written out):
  // 1019*1023=1042437 -> 1018; 1019*1018=1037342 -> 1013; 1019*1013=1032247 -> 1008;
  // 1019*1008=1027152 -> 1003; 1019*1003=1022057 -> 998; 1019*998=1016962 -> 993;
  // 1019*993=1011867 -> 988; 1019*988=1006772 -> 983.
  static const uint16_t kAlpha[8] = {1018, 1013, 1008, 1003, 998, 993, 988, 983};
  ck_assert_uint_eq(n, 8);
  for (uint32_t i = 0; i < 8; i++) {
    ck_assert_uint_eq(cyc[i], 1000 * (i + 1));
    ck_assert_uint_eq(rec[i].alpha, kAlpha[i]);
  }
  // The decrease timer fired at 4000 and 8000 without a CNP: no cut, Rc stays 100000.
  expect_qp(m, 0, 100000, 100000, 983);
  // A CNP at 8500 is in the slot of the 9000 update: 1019*983 = 1001677 >> 10 = 978,
  // + (1024 - 1019) = 983.
  dt_quiet_to(m, 8500);
  dt_cnp(m, 0, &out);
  n = dt_run_to(m, 9001, rec, cyc, 16);
  ck_assert_uint_eq(n, 0);  // 983 -> 983: alpha unchanged, no update reported
  expect_qp(m, 0, 100000, 100000, 983);
  // The cut waits for the decrease timer at 12000: alpha there has decayed at 10000, 11000
  // (no CNP): 1019*983 >> 10 = 978, 1019*978 = 996582 >> 10 = 973; at 12000 (alpha first):
  // 1019*973 = 991487 >> 10 = 968. Cut: (100000*968) >> 11 = 47265, cap 50000: Rc = 52735.
  n = dt_run_to(m, 12001, rec, cyc, 16);
  ck_assert_uint_eq(n, 3);
  ck_assert_uint_eq(cyc[2], 12000);
  ck_assert_uint_eq(rec[2].alpha, 968);
  ck_assert_uint_eq(rec[2].rc, 52735);
  ck_assert_uint_eq(rec[2].rt, 100000);
  dcqcn_destroy(m);
}
END_TEST

// Common start of the increase tests: lab, cut at 4000 to Rc = 20020, Rt = 40000, T = BC = 0,
// increase timer at 14000, 24000, ... (period 10000).
static dcqcn_t *after_cut(uint32_t byte_reset) {
  dcqcn_t *m = dt_lab();
  dt_param(m, "RPG_BYTE_RESET", byte_reset);
  dcqcn_out_t out;
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 100);
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 4000);
  dcqcn_step(m, NULL, &out);
  expect_qp(m, 0, 20020, 40000, 1023);
  return m;
}

// Timer only (D6.5): BC stays 0, so min(T, BC) = 0 and hyper increase is never reached:
// E1 (T0) FR: Rc = (20020 + 40000) >> 1 = 30010.
// E2 (T1) AI: Rt = 40005, Rc = (30010 + 40005) >> 1 = 35007.
// E3 (T2) AI: Rt = 40010, Rc = (35007 + 40010) >> 1 = 37508.
START_TEST(test_increase_timer_only) {
  dcqcn_t *m = after_cut(32767);
  dcqcn_rate_upd_t rec[8];
  uint64_t cyc[8];
  uint32_t n = dt_run_to(m, 34001, rec, cyc, 8);
  ck_assert_uint_eq(n, 3);
  static const uint32_t kRc[3] = {30010, 35007, 37508}, kRt[3] = {40000, 40005, 40010};
  for (uint32_t i = 0; i < 3; i++) {
    ck_assert_uint_eq(cyc[i], 14000 + 10000 * i);
    ck_assert_uint_eq(rec[i].rc, kRc[i]);
    ck_assert_uint_eq(rec[i].rt, kRt[i]);
  }
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 0, &s);
  ck_assert_uint_eq(s.stage_timer, 3);
  ck_assert_uint_eq(s.stage_byte, 0);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncFr), 1);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncAi), 2);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncHai), 0);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByTimer), 3);
  dcqcn_destroy(m);
}
END_TEST

// Byte counter only: RPG_BYTE_RESET = 16 -> 1024 bytes per event; transmissions of 1024
// bytes at 4001, 4002, 4003 (well before the timer at 14000). Same FR, AI, AI sequence with
// BC in place of T. A transmission of 1000 bytes does not reach the threshold (byte_count
// 1000), the next 24 do (1024: event, byte_count 0).
START_TEST(test_increase_bytes_only) {
  dcqcn_t *m = after_cut(16);
  dcqcn_out_t out;
  static const uint32_t kRc[3] = {30010, 35007, 37508}, kRt[3] = {40000, 40005, 40010};
  for (uint32_t i = 0; i < 3; i++) {
    dt_tx(m, 0, 1024, &out);
    ck_assert_uint_eq(out.n_rate, 1);
    ck_assert_uint_eq(out.rate[0].rc, kRc[i]);
    ck_assert_uint_eq(out.rate[0].rt, kRt[i]);
  }
  dt_tx(m, 0, 1000, &out);
  ck_assert_uint_eq(out.n_rate, 0);
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_BYTE_COUNT_REG_OFFSET), 1000);
  dt_tx(m, 0, 24, &out);
  // E4 (T0, BC3): AI, Rt = 40015, Rc = (37508 + 40015) >> 1 = 38761
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].rc, 38761);
  ck_assert_uint_eq(out.rate[0].rt, 40015);
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_BYTE_COUNT_REG_OFFSET), 0);
  // ACTIVE; CNP_ALPHA still set by the CNP at 100 (the lab's alpha timer has not fired);
  // CNP_DEC cleared by the cut; T = 0; BC = 4.
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_STATUS_REG_OFFSET), 1u | 2u | 4u << 16);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByBytes), 4);
  dcqcn_destroy(m);
}
END_TEST

// Both: bytes at 4001, timer at 14000, bytes at 14001, timer at 24000, bytes at 24001.
//   4001  byte  (T0,BC0) FR : Rc = 30010, BC 1
//   14000 timer (T0,BC1) AI : Rt 40005, Rc = (30010+40005)>>1 = 35007, T 1
//   14001 byte  (T1,BC1) AI : min 1 is not > F=1; Rt 40010, Rc = (35007+40010)>>1 = 37508, BC 2
//   24000 timer (T1,BC2) AI : Rt 40015, Rc = (37508+40015)>>1 = 38761, T 2
//   24001 byte  (T2,BC2) HAI: min 2 > 1; Rt 40065, Rc = (38761+40065)>>1 = 39413, BC 3
START_TEST(test_increase_both) {
  dcqcn_t *m = after_cut(16);
  dcqcn_out_t out;
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  dt_tx(m, 0, 1024, &out);
  ck_assert_uint_eq(out.rate[0].rc, 30010);
  ck_assert_uint_eq(dt_run_to(m, 14001, rec, cyc, 4), 1);
  ck_assert_uint_eq(cyc[0], 14000);
  ck_assert_uint_eq(rec[0].rc, 35007);
  ck_assert_uint_eq(rec[0].rt, 40005);
  dt_tx(m, 0, 1024, &out);
  ck_assert_uint_eq(out.rate[0].rc, 37508);
  ck_assert_uint_eq(out.rate[0].rt, 40010);
  ck_assert_uint_eq(dt_run_to(m, 24001, rec, cyc, 4), 1);
  ck_assert_uint_eq(rec[0].rc, 38761);
  ck_assert_uint_eq(rec[0].rt, 40015);
  dt_tx(m, 0, 1024, &out);
  ck_assert_uint_eq(out.rate[0].rc, 39413);
  ck_assert_uint_eq(out.rate[0].rt, 40065);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncHai), 1);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncAi), 3);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncFr), 1);
  dcqcn_destroy(m);
}
END_TEST

// A timer increase and a byte increase in the same cycle (D4: timers at step 2 before the
// bytes at step 4): at 14000 the timer sees (T0,BC1) -> AI, then the byte event (T1,BC1) -> AI.
START_TEST(test_increase_timer_and_bytes_same_cycle) {
  dcqcn_t *m = after_cut(16);
  dcqcn_out_t out;
  dt_tx(m, 0, 1024, &out);  // 4001: FR, Rc 30010, BC 1
  dt_quiet_to(m, 14000);
  dt_tx(m, 0, 1024, &out);  // cycle 14000
  // timer: Rt 40005, Rc (30010+40005)>>1 = 35007; bytes: Rt 40010, Rc (35007+40010)>>1 = 37508
  ck_assert_uint_eq(out.cycle, 14000);
  ck_assert_uint_eq(out.n_rate, 1);  // one entry per QP, end-of-cycle values
  ck_assert_uint_eq(out.rate[0].rc, 37508);
  ck_assert_uint_eq(out.rate[0].rt, 40010);
  dcqcn_destroy(m);
}
END_TEST

// Clamp options (D6.4). Scenario A: a cut at 4000 then a CNP at 4100 and a second cut at
// 8000 with T = BC = 0 (the increase timer restarted to 14000 has not fired):
//   by alpha (20020*1023) >> 11 = 20480460/2048 = 10000, cap 20020*50/100 = 10010: Rc = 10020.
// Only CLAMP_TGT_RATE = 1 sets Rt := Rc = 20020 first; otherwise Rt stays 40000.
static void clamp_a(uint32_t clamp, uint32_t ati, uint32_t expect_rt) {
  dcqcn_t *m = after_cut(32767);
  dt_param(m, "CLAMP_TGT_RATE", clamp);
  dt_param(m, "CLAMP_TGT_RATE_AFTER_TIME_INC", ati);
  dcqcn_out_t out;
  dt_quiet_to(m, 4100);
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 8000);
  dcqcn_step(m, NULL, &out);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].rc, 10020);
  ck_assert_uint_eq(out.rate[0].rt, expect_rt);
  dcqcn_destroy(m);
}
START_TEST(test_clamp_tgt_rate) { clamp_a(1, 0, 20020); }
END_TEST
START_TEST(test_no_clamp_stage_zero) { clamp_a(0, 1, 40000); }
END_TEST

// Scenario B: the timer increase at 14000 (FR, Rc 30010, T = 1), a CNP at 14100, the cut at
// 16000: by alpha (30010*1023) >> 11 = 14990, cap 15005: Rc = 15020. With
// CLAMP_TGT_RATE_AFTER_TIME_INC = 1 and T = 1, Rt := 30010; with 0, Rt stays 40000.
static void clamp_b(uint32_t ati, uint32_t expect_rt) {
  dcqcn_t *m = after_cut(32767);
  dt_param(m, "CLAMP_TGT_RATE_AFTER_TIME_INC", ati);
  dcqcn_out_t out;
  dt_quiet_to(m, 14000);
  dcqcn_step(m, NULL, &out);
  ck_assert_uint_eq(out.rate[0].rc, 30010);
  dt_quiet_to(m, 14100);
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 16000);
  dcqcn_step(m, NULL, &out);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].rc, 15020);
  ck_assert_uint_eq(out.rate[0].rt, expect_rt);
  dcqcn_destroy(m);
}
START_TEST(test_clamp_after_time_inc) { clamp_b(1, 30010); }
END_TEST
START_TEST(test_no_clamp_after_time_inc) { clamp_b(0, 40000); }
END_TEST

// Minimum rate: RPG_MIN_RATE = 15000; the second cut of scenario A gives 10020 -> 15000.
START_TEST(test_min_rate) {
  dcqcn_t *m = after_cut(32767);
  dt_param(m, "RPG_MIN_RATE", 15000);
  dcqcn_out_t out;
  dt_quiet_to(m, 4100);
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 8000);
  dcqcn_step(m, NULL, &out);
  ck_assert_uint_eq(out.rate[0].rc, 15000);
  // A floor above the cap saturates to the cap (D6.1): with the cap lowered to 12000 the
  // floor is min(15000, 12000) = 12000; the next event (timer at 8000 + 10000 = 18000, FR)
  // gives Rt = min(40000, 12000) = 12000, Rc = (15000 + 12000) >> 1 = 13500, clamped to 12000.
  dt_param(m, "RPG_MAX_RATE", 12000);
  dcqcn_rate_upd_t rec[2];
  uint64_t cyc[2];
  ck_assert_uint_eq(dt_run_to(m, 18001, rec, cyc, 2), 1);
  ck_assert_uint_eq(cyc[0], 18000);
  ck_assert_uint_eq(rec[0].rt, 12000);
  ck_assert_uint_eq(rec[0].rc, 12000);
  dcqcn_destroy(m);
}
END_TEST

// Maximum rate and the end of recovery (D6.6): RPG_MAX_RATE = 40002. After the cut
// (Rc 20020, Rt 40000) the timer events at 14000 + 10000 k give (Rt capped at 40002 from
// E2 on): 30010, 35006, 37504, 38753, 39377, 39689, 39845, 39923, 39962, 39982, 39992,
// 39997, 39999, 40000, 40001 (each (Rc + 40002) >> 1). From E15 (154000) on Rt = cap and
// (40001 + 40002) >> 1 = 40001: the rates are at the fixed point, but the increase timer
// keeps running (brief: all three timers run periodically from the first CNP on). Up to
// cycle 999999 it fires at 14000 + 10000 k for k = 0..98 (994000): 99 events, the next
// deadline is 1004000 (Q_INC_REMAIN at cycle 10^6: 4000). BC = 0 < F = 1, so the event
// with T = 0 is FR and the 98 others (T = 1..98) AI; T counts to 99.
START_TEST(test_max_rate_and_recovery) {
  dcqcn_t *m = after_cut(32767);
  dt_param(m, "RPG_MAX_RATE", 40002);
  static const uint32_t kRc[15] = {30010, 35006, 37504, 38753, 39377, 39689, 39845, 39923,
                                   39962, 39982, 39992, 39997, 39999, 40000, 40001};
  dcqcn_rate_upd_t rec[20];
  uint64_t cyc[20];
  uint32_t n = dt_run_to(m, 1000000, rec, cyc, 20);
  ck_assert_uint_eq(n, 15);
  for (uint32_t i = 0; i < 15; i++) {
    ck_assert_uint_eq(cyc[i], 14000 + 10000 * i);
    ck_assert_uint_eq(rec[i].rc, kRc[i]);
    ck_assert_uint_eq(rec[i].rt, i == 0 ? 40000 : 40002);
  }
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 0, &s);
  ck_assert_uint_eq(s.inc_due, 1004000);
  ck_assert_uint_eq(s.stage_timer, 99);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByTimer), 99);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncFr), 1);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncAi), 98);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncHai), 0);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 0, kDcqcnQcntInc), 99);
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_INC_REMAIN_REG_OFFSET), 4000);
  ck_assert_uint_eq((dt_qp_rd(m, 0, DCQCN_Q_STATUS_REG_OFFSET) >> 8) & 0xFFu, 99);
  ck_assert_uint_eq(dt_rd64(m, DCQCN_INC_AI_LO_REG_OFFSET), 98);
  // T saturates at 255 (D6.5): by cycle 3014000 the timer has fired 301 times.
  ck_assert_uint_eq(dt_run_to(m, 3014001, rec, cyc, 20), 0);
  dcqcn_qp_state(m, 0, &s);
  ck_assert_uint_eq(s.stage_timer, 255);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByTimer), 301);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncAi), 300);
  // CLR_CNT clears the firings so far; the next one (3024000) counts again.
  dt_wr(m, DCQCN_CTRL_REG_OFFSET, 1u << DCQCN_CTRL_CLR_CNT_BIT);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByTimer), 0);
  ck_assert_uint_eq(dt_run_to(m, 3024001, rec, cyc, 20), 0);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntIncByTimer), 1);
  dcqcn_destroy(m);
}
END_TEST

// CNP and timers in the same cycle (D4: the scan, step 2, comes before the CNP, step 3):
// a CNP in the cycle of the decrease timer belongs to the next period.
START_TEST(test_cnp_and_decrease_timer_same_cycle) {
  dcqcn_t *m = dt_lab();
  dcqcn_out_t out;
  dt_cnp(m, 0, &out);  // decrease timer at 4000, 8000, ...
  dt_quiet_to(m, 4000);
  dt_cnp(m, 0, &out);  // cycle 4000: the timer fires first, with an empty slot
  ck_assert_uint_eq(out.n_rate, 0);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCuts), 0);
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 0, &s);
  ck_assert(s.cnp_dec);
  dt_quiet_to(m, 8000);
  dcqcn_step(m, NULL, &out);
  ck_assert_uint_eq(out.rate[0].rc, 20020);  // the cut of one_cut(50, 11)
  dcqcn_destroy(m);
}
END_TEST

// Same for the alpha timer (defaults, period 1000): a CNP at 1000 misses the update of
// 1000 (1023 -> 1018, no CNP) and counts in the slot of 2000: (1019*1018 >> 10) + 5 =
// 1013 + 5 = 1018.
START_TEST(test_cnp_and_alpha_timer_same_cycle) {
  dcqcn_t *m = dt_create(4, 4);
  dcqcn_out_t out;
  dt_cnp(m, 1, &out);
  dt_quiet_to(m, 1000);
  dt_cnp(m, 1, &out);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].alpha, 1018);
  dcqcn_rate_upd_t rec[2];
  uint64_t cyc[2];
  ck_assert_uint_eq(dt_run_to(m, 2001, rec, cyc, 2), 0);  // 1018 -> 1018: no change
  expect_qp(m, 1, 100000, 100000, 1018);
  dcqcn_destroy(m);
}
END_TEST

// Scan timing (D5, D5.1) with 64 QPs and U = 4: S = 16, QP 13 is visited when t mod 16 = 3.
// First CNP at 5 (no visit of QP 13) and a second at 6: both pending until the visit at 19,
// which applies the first CNP (timers armed at 19 + P) and sets the slot flags (cnp_more).
// Decrease due 19 + 4000 = 4019, a visit (4019 mod 16 = 3): the cut is at 4019 and restarts
// the increase timer at 4019 + 10000 = 14019 (a visit: 14019 mod 16 = 3); the decrease timer
// keeps its phase: next due 8019. (Version 1 applied the first CNP at 5: decrease due 4005,
// cut at the first visit after it, 4019, next due 8005.)
START_TEST(test_scan_timing) {
  dcqcn_t *m = dt_create(64, 4);
  ck_assert_uint_eq(dcqcn_scan_period(m), 16);
  dt_param(m, "DCE_TCP_RTT", 100000);
  dt_param(m, "RPG_TIME_RESET", 10);
  dcqcn_out_t out;
  dt_quiet_to(m, 5);
  dt_cnp(m, 13, &out);
  dt_cnp(m, 13, &out);  // cycle 6: slot flags set
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  ck_assert_uint_eq(dt_run_to(m, 4020, rec, cyc, 4), 1);
  ck_assert_uint_eq(cyc[0], 4019);
  ck_assert_uint_eq(rec[0].rc, 50049);  // (100000*1023) >> 11 = 49951 < 50000
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 13, &s);
  ck_assert_uint_eq(s.inc_due, 14019);
  ck_assert_uint_eq(s.dec_due, 8019);
  // FR at 14019: Rc = (50049 + 100000) >> 1 = 75024.
  ck_assert_uint_eq(dt_run_to(m, 14020, rec, cyc, 4), 1);
  ck_assert_uint_eq(cyc[0], 14019);
  ck_assert_uint_eq(rec[0].rc, 75024);
  dcqcn_destroy(m);
}
END_TEST

// A period shorter than the scan period is raised to S (D3): 64 QPs, U = 1 -> S = 64;
// CYCLES_PER_US = 10 makes DCE_TCP_RTT = 1 us = 10 cycles -> 64. QP 0 visited at t mod 64 = 0.
// First CNP at 0: alpha due 64, 128, ...: updates at 64 and 128 (1018, 1013).
START_TEST(test_period_saturates_to_scan) {
  dcqcn_t *m = dt_create(64, 1);
  dt_param(m, "CYCLES_PER_US", 10);
  dcqcn_out_t out;
  dt_cnp(m, 0, &out);
  dcqcn_rate_upd_t rec[4];
  uint64_t cyc[4];
  ck_assert_uint_eq(dt_run_to(m, 129, rec, cyc, 4), 2);
  ck_assert_uint_eq(cyc[0], 64);
  ck_assert_uint_eq(rec[0].alpha, 1018);
  ck_assert_uint_eq(cyc[1], 128);
  ck_assert_uint_eq(rec[1].alpha, 1013);
  dcqcn_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dcqcn_rp");
  TCase *tc = tcase_create("exact");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_first_cnp_defaults);
  tcase_add_test(tc, test_first_cnp_rate_to_set);
  tcase_add_test(tc, test_cut_fac50_gd11);
  tcase_add_test(tc, test_cut_fac50_capped);
  tcase_add_test(tc, test_cut_fac95);
  tcase_add_test(tc, test_alpha_decay);
  tcase_add_test(tc, test_increase_timer_only);
  tcase_add_test(tc, test_increase_bytes_only);
  tcase_add_test(tc, test_increase_both);
  tcase_add_test(tc, test_increase_timer_and_bytes_same_cycle);
  tcase_add_test(tc, test_clamp_tgt_rate);
  tcase_add_test(tc, test_no_clamp_stage_zero);
  tcase_add_test(tc, test_clamp_after_time_inc);
  tcase_add_test(tc, test_no_clamp_after_time_inc);
  tcase_add_test(tc, test_min_rate);
  tcase_add_test(tc, test_max_rate_and_recovery);
  tcase_add_test(tc, test_cnp_and_decrease_timer_same_cycle);
  tcase_add_test(tc, test_cnp_and_alpha_timer_same_cycle);
  tcase_add_test(tc, test_scan_timing);
  tcase_add_test(tc, test_period_saturates_to_scan);
  suite_add_tcase(s, tc);
  return dt_run_suite(s);
}
