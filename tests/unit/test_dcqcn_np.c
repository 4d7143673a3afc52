// SPDX-License-Identifier: Apache-2.0
//
// Suite "dcqcn_np": notification point (D10), pacer (D8), bad input (D11) and the CSR
// interface (D9) of docs/spec-dcqcn.md. Exact expectations derived in comments.

#include "tests/unit/dcqcn_testlib.h"

// MIN_TIME_BETWEEN_CNPS = 4 us = 4000 cycles, per QP: CE at 10 (sent), 11 (coalesced),
// QP 3 at 12 (sent, its own spacing), 4009 (4009 - 10 = 3999 < 4000: coalesced), 4010
// (4000 >= 4000: sent), 4011 (coalesced).
START_TEST(test_np_spacing) {
  dcqcn_t *m = dt_create(4, 4);
  dcqcn_out_t out;
  static const struct {
    uint64_t t;
    uint16_t qp;
    bool sent;
  } kCe[] = {{10, 2, true},    {11, 2, false},  {12, 3, true},
             {4009, 2, false}, {4010, 2, true}, {4011, 2, false}};
  for (size_t i = 0; i < sizeof(kCe) / sizeof(kCe[0]); i++) {
    dt_quiet_to(m, kCe[i].t);
    dt_ce(m, kCe[i].qp, &out);
    ck_assert_uint_eq(out.cnp_tx.valid, kCe[i].sent);
    if (kCe[i].sent) {
      ck_assert_uint_eq(out.cnp_tx.qp, kCe[i].qp);
    }
    ck_assert_uint_eq(out.n_rate, 0);  // the NP does not touch the reaction point
  }
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCeRx), 6);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpTx), 3);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCeCoalesced), 3);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 2, kDcqcnQcntCnpTx), 2);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 2, kDcqcnQcntCeRx), 5);
  // The same through the QP window and the 64-bit counter protocol.
  dt_wr(m, DCQCN_QP_SEL_REG_OFFSET, 2);
  ck_assert_uint_eq(dt_rd64(m, DCQCN_Q_CNP_TX_LO_REG_OFFSET), 2);
  ck_assert_uint_eq(dt_rd64(m, DCQCN_CE_COALESCED_LO_REG_OFFSET), 3);
  dcqcn_destroy(m);
}
END_TEST

// MIN_TIME_BETWEEN_CNPS = 0: every CE packet sends a CNP.
START_TEST(test_np_no_spacing) {
  dcqcn_t *m = dt_create(4, 4);
  dt_param(m, "MIN_TIME_BETWEEN_CNPS", 0);
  dcqcn_out_t out;
  for (int i = 0; i < 3; i++) {
    dt_ce(m, 1, &out);
    ck_assert(out.cnp_tx.valid);
  }
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpTx), 3);
  dcqcn_destroy(m);
}
END_TEST

// Pacer (D8): next-send time in 1/256 cycle, gap = floor(bytes*8*CYCLES_PER_US*256 / Rc).
// Rc 100000: 1000 B -> 1000*8*1000*256/100000 = 20480 (80 cycles).
//   t=10:  nst = 10*256 + 20480 = 23040 -> next_send 90
//   t=50:  early (12800 < 23040), nst = 23040 + 20480 = 43520 -> 170
//   t=200: 100 B, gap 2048; nst = 51200 + 2048 = 53248 -> 208
// QP 1 at Rc 30000 (first CNP with RATE_TO_SET_ON_FIRST_CNP = 30000 at 299):
//   t=300: 1000 B, gap 2048000000/30000 = 68266; nst = 76800 + 68266 = 145066 ->
//   ceil(145066/256) = 567; Q_NEXT_SEND read before cycle 301 = 567 - 301 = 266.
START_TEST(test_pacer) {
  dcqcn_t *m = dt_create(4, 4);
  dcqcn_out_t out;
  dt_quiet_to(m, 10);
  dt_tx(m, 0, 1000, &out);
  ck_assert(out.pace.valid);
  ck_assert_uint_eq(out.pace.qp, 0);
  ck_assert_uint_eq(out.pace.next_send, 90);
  ck_assert_uint_eq(out.n_rate, 0);  // inactive QP: no byte counter
  dt_quiet_to(m, 50);
  dt_tx(m, 0, 1000, &out);
  ck_assert_uint_eq(out.pace.next_send, 170);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntPaceEarly), 1);
  dt_quiet_to(m, 200);
  dt_tx(m, 0, 100, &out);
  ck_assert_uint_eq(out.pace.next_send, 208);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntPaceEarly), 1);
  dt_param(m, "RATE_TO_SET_ON_FIRST_CNP", 30000);
  dt_quiet_to(m, 299);
  dt_cnp(m, 1, &out);
  dt_tx(m, 1, 1000, &out);
  ck_assert_uint_eq(out.cycle, 300);
  ck_assert_uint_eq(out.pace.next_send, 567);
  ck_assert_uint_eq(dt_qp_rd(m, 1, DCQCN_Q_NEXT_SEND_REG_OFFSET), 266);
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 1, &s);
  ck_assert_uint_eq(s.pace_q8, 145066);
  ck_assert_uint_eq(s.byte_count, 1000);  // active: counted
  dcqcn_destroy(m);
}
END_TEST

// Bad QP (D11): every input for a QP >= NumQps is counted in BAD_QP and ignored.
START_TEST(test_bad_qp) {
  dcqcn_t *m = dt_create(4, 4);
  dcqcn_out_t out;
  dcqcn_in_t in = {.cnp = {.valid = true, .qp = 4},
                   .tx = {.valid = true, .qp = 7, .bytes = 1000},
                   .ce = {.valid = true, .qp = 65535}};
  dcqcn_step(m, &in, &out);
  ck_assert(!dcqcn_out_any(&out));
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntBadQp), 3);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpRx), 0);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCeRx), 0);
  ck_assert_uint_eq(dt_rd64(m, DCQCN_BAD_QP_LO_REG_OFFSET), 3);
  for (uint32_t q = 0; q < 4; q++) {
    dcqcn_qp_state_t s;
    dcqcn_qp_state(m, q, &s);
    ck_assert(!s.active);
    ck_assert_uint_eq(s.pace_q8, 0);
  }
  // A bad QP next to a good one: the good input is processed.
  dcqcn_in_t in2 = {.cnp = {.valid = true, .qp = 1}, .ce = {.valid = true, .qp = 9}};
  dcqcn_step(m, &in2, &out);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntBadQp), 4);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpFirst), 1);
  dcqcn_destroy(m);
}
END_TEST

// CSR map and errors (D9).
START_TEST(test_csr_basics) {
  dcqcn_t *m = dt_create(4, 2);
  ck_assert_uint_eq(dt_rd(m, DCQCN_BLOCK_TYPE_REG_OFFSET), 0x4443514Eu);  // "DCQN"
  ck_assert_uint_eq(dt_rd(m, DCQCN_VERSION_REG_OFFSET), 0x02000000u);     // spec 2.0.0
  ck_assert_uint_eq(dt_rd(m, DCQCN_HW_PARAMS_REG_OFFSET), 4u | 2u << 16);
  // reset values of every mlxconfig parameter (the brief's defaults)
  static const struct {
    uint16_t addr;
    uint32_t v;
  } kReset[] = {{DCQCN_RPG_TIME_RESET_REG_OFFSET, 300},
                {DCQCN_RPG_BYTE_RESET_REG_OFFSET, 32767},
                {DCQCN_RPG_THRESHOLD_REG_OFFSET, 1},
                {DCQCN_RPG_AI_RATE_REG_OFFSET, 5},
                {DCQCN_RPG_HAI_RATE_REG_OFFSET, 50},
                {DCQCN_RPG_GD_REG_OFFSET, 11},
                {DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET, 50},
                {DCQCN_RPG_MIN_RATE_REG_OFFSET, 1},
                {DCQCN_RPG_MAX_RATE_REG_OFFSET, 0},
                {DCQCN_RATE_TO_SET_ON_FIRST_CNP_REG_OFFSET, 0},
                {DCQCN_DCE_TCP_G_REG_OFFSET, 1019},
                {DCQCN_DCE_TCP_RTT_REG_OFFSET, 1},
                {DCQCN_INITIAL_ALPHA_VALUE_REG_OFFSET, 1023},
                {DCQCN_CLAMP_TGT_RATE_REG_OFFSET, 0},
                {DCQCN_CLAMP_TGT_RATE_AFTER_TIME_INC_REG_OFFSET, 1},
                {DCQCN_RATE_REDUCE_MONITOR_PERIOD_REG_OFFSET, 4},
                {DCQCN_MIN_TIME_BETWEEN_CNPS_REG_OFFSET, 4},
                {DCQCN_CYCLES_PER_US_REG_OFFSET, 1000},
                {DCQCN_LINE_RATE_REG_OFFSET, 100000}};
  for (size_t i = 0; i < sizeof(kReset) / sizeof(kReset[0]); i++) {
    ck_assert_uint_eq(dt_rd(m, kReset[i].addr), kReset[i].v);
  }
  uint32_t v = 0;
  // illegal value: ignored, ILLEGAL + ERR_ADDR
  ck_assert(!dcqcn_csr_write(m, DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET, 101));
  ck_assert_uint_eq(dt_rd(m, DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET), 50);
  ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_STATUS_REG_OFFSET), 2);
  ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_ADDR_REG_OFFSET), DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET);
  ck_assert(!dcqcn_csr_write(m, DCQCN_QP_SEL_REG_OFFSET, 4));  // >= NumQps
  ck_assert(!dcqcn_csr_write(m, DCQCN_RPG_TIME_RESET_REG_OFFSET, 0));
  // read-only and unmapped
  ck_assert(!dcqcn_csr_write(m, DCQCN_Q_RC_REG_OFFSET, 5));
  ck_assert(!dcqcn_csr_read(m, 0x0FFC, &v));
  ck_assert_uint_eq(v, 0);
  ck_assert(!dcqcn_csr_read(m, DCQCN_RPG_GD_REG_OFFSET + 1, &v));
  ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_STATUS_REG_OFFSET), 7);
  dt_wr(m, DCQCN_ERR_STATUS_REG_OFFSET, 7);
  ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_STATUS_REG_OFFSET), 0);
  dcqcn_destroy(m);
}
END_TEST

// Driver-facing checks: unknown names and out-of-range values are rejected before any
// write (no ERR_STATUS bit), legal ones written.
START_TEST(test_param_checks) {
  dcqcn_t *m = dt_create(4, 4);
  ck_assert_int_eq(dcqcn_param_set(m, "RPG_FOO", 1), kDcqcnBadArg);
  ck_assert_int_eq(dcqcn_param_set(m, "RPG_GD", 16), kDcqcnBadArg);
  ck_assert_int_eq(dcqcn_param_set(m, "DCE_TCP_G", 1024), kDcqcnBadArg);
  ck_assert_int_eq(dcqcn_param_set(m, "RPG_BYTE_RESET", 0), kDcqcnBadArg);
  ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_STATUS_REG_OFFSET), 0);
  ck_assert_int_eq(dcqcn_param_set(m, "RPG_TIME_RESET", 7000), kDcqcnOk);
  ck_assert_uint_eq(dt_rd(m, DCQCN_RPG_TIME_RESET_REG_OFFSET), 7000);
  uint16_t a;
  uint32_t lo, hi;
  ck_assert_int_eq(dcqcn_param_lookup("RPG_MIN_DEC_FAC", &a, &lo, &hi), kDcqcnOk);
  ck_assert_uint_eq(a, DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET);
  ck_assert_uint_eq(lo, 0);
  ck_assert_uint_eq(hi, 100);
  ck_assert_int_eq(dcqcn_param_lookup("CLAMP_TGT_RATE", &a, &lo, &hi), kDcqcnOk);
  ck_assert_uint_eq(hi, 1);
  dcqcn_destroy(m);
}
END_TEST

// A bus write takes effect from the next cycle (D4 step 7): RPG_MIN_DEC_FAC = 95 written in
// the cycle of the cut does not change that cut (Rc 40000 -> 20020 with 50).
START_TEST(test_bus_write_timing) {
  dcqcn_t *m = dt_lab();
  dcqcn_out_t out;
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 100);
  dt_cnp(m, 0, &out);
  dt_quiet_to(m, 4000);
  dcqcn_in_t in = {
      .csr = {.valid = true, .write = true, .addr = DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET, .wdata = 95}};
  dcqcn_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid && !out.csr_rsp.err);
  ck_assert_uint_eq(out.n_rate, 1);
  ck_assert_uint_eq(out.rate[0].rc, 20020);
  // a bus read in the next cycle returns the new value; Q_RC through the window
  dcqcn_in_t rd = {
      .csr = {.valid = true, .write = false, .addr = DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET}};
  dcqcn_step(m, &rd, &out);
  ck_assert_uint_eq(out.csr_rsp.rdata, 95);
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_RC_REG_OFFSET), 20020);
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_RT_REG_OFFSET), 40000);
  ck_assert_uint_eq(dt_qp_rd(m, 0, DCQCN_Q_ALPHA_REG_OFFSET), 1023);
  dcqcn_destroy(m);
}
END_TEST

// Q_CTRL.INIT and CTRL.CLR_CNT.
START_TEST(test_qp_init_and_clear) {
  dcqcn_t *m = dt_lab();
  dcqcn_out_t out;
  dt_cnp(m, 3, &out);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 3, kDcqcnQcntCnpRx), 1);
  dt_wr(m, DCQCN_QP_SEL_REG_OFFSET, 3);
  dt_wr(m, DCQCN_Q_CTRL_REG_OFFSET, 1);
  // D9/D5.1: the reaction point is re-initialised at the next visit (cycle 1: S = 1); the
  // window shows the INIT word at once
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 3, &s);
  ck_assert(s.init_pend && !s.active);  // shown as the INIT word
  ck_assert_uint_eq(dt_qp_rd(m, 3, DCQCN_Q_STATUS_REG_OFFSET), 0);
  ck_assert_uint_eq(dt_qp_rd(m, 3, DCQCN_Q_RC_REG_OFFSET), 100000);  // the cap (LINE_RATE)
  ck_assert_uint_eq(dt_qp_rd(m, 3, DCQCN_Q_ALPHA_REMAIN_REG_OFFSET), 0);
  dt_quiet_to(m, 2);  // the visit of cycle 1 applies it, with no rate update (D7)
  dcqcn_qp_state(m, 3, &s);
  ck_assert(!s.active && !s.init_pend);
  ck_assert_uint_eq(s.rc, 100000);
  ck_assert_uint_eq(s.alpha_due, DCQCN_NEVER);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 3, kDcqcnQcntCnpRx), 1);  // counters kept
  dt_quiet_to(m, 20000);                                          // no timer left
  dt_wr(m, DCQCN_CTRL_REG_OFFSET, 1);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 3, kDcqcnQcntCnpRx), 0);
  ck_assert_uint_eq(dcqcn_counter(m, kDcqcnGcntCnpRx), 0);
  dcqcn_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dcqcn_np");
  TCase *tc = tcase_create("exact");
  tcase_add_test(tc, test_np_spacing);
  tcase_add_test(tc, test_np_no_spacing);
  tcase_add_test(tc, test_pacer);
  tcase_add_test(tc, test_bad_qp);
  tcase_add_test(tc, test_csr_basics);
  tcase_add_test(tc, test_param_checks);
  tcase_add_test(tc, test_bus_write_timing);
  tcase_add_test(tc, test_qp_init_and_clear);
  suite_add_tcase(s, tc);
  return dt_run_suite(s);
}
