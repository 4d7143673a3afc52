// SPDX-License-Identifier: Apache-2.0
//
// Suite "classify": DSCP -> TC -> queue/PG, VOQ index, and every validation drop of
// docs/spec.md sections 4.2-4.3 and 11. Table-driven, exact expectations.

#include "tests/unit/xtm_testlib.h"

// Reset maps: TC = DSCP >> 3, queue = TC, PG = TC.
START_TEST(test_reset_maps_class_selector) {
  xtm_t *m = tl_create(8, 8, 64);
  static const struct {
    uint8_t dscp, eg;
    uint16_t voq;
  } kCases[] = {{0, 0, 0}, {7, 0, 0}, {8, 0, 1}, {26, 2, 19}, {48, 7, 62}, {63, 7, 63}};
  xtm_out_t out;
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); i++) {
    tl_enq(m, 1, kCases[i].eg, kCases[i].dscp, 0, 100, (uint32_t)i, &out);
    ck_assert(out.enq_res.valid);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    ck_assert_uint_eq(out.enq_res.voq, kCases[i].voq);
  }
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// RoCE lab: DSCP 26 -> TC 3 -> queue 5 of port 4, PG 3 (written maps).
START_TEST(test_written_maps) {
  xtm_t *m = tl_create(8, 8, 64);
  // DSCP 26 is entry 3 (26 = 8*3 + 2) field D2 of DSCP_MAP_3; keep the others at 3.
  tl_wr(m, XTM_DSCP_MAP_3_REG_OFFSET, 0x33333333u);
  tl_wr(m, XTM_TC_QUEUE_MAP_REG_OFFSET, (0x76543210u & ~(0xFu << 12)) | (5u << 12));
  tl_wr(m, XTM_TC_PG_MAP_REG_OFFSET, 0x76543210u);
  xtm_out_t out;
  tl_enq(m, 0, 4, 26, 2, 1000, 7, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(out.enq_res.voq, 4 * 8 + 5);
  xtm_pg_state_t g;
  xtm_pg_state(m, 0, 3, &g);
  ck_assert_uint_eq(g.pg_cells, 4);  // ceil(1000/256)
  xtm_destroy(m);
}
END_TEST

// Validation order and reasons (spec 4.2).
START_TEST(test_bad_descriptors) {
  xtm_t *m = tl_create(4, 2, 64);  // TC >= 2 is BAD_TC with the reset DSCP map
  static const struct {
    uint8_t in, eg, dscp;
    uint16_t len;
    xtm_reason_t r;
  } kCases[] = {
      {0, 0, 0, 0, kXtmReasonLenZero},    {0, 0, 0, 9217, kXtmReasonLenMax},
      {4, 0, 0, 64, kXtmReasonBadPort},   {0, 4, 0, 64, kXtmReasonBadPort},
      {63, 63, 63, 0, kXtmReasonLenZero}, {0, 0, 16, 64, kXtmReasonBadTc},
      {0, 9, 16, 64, kXtmReasonBadPort},  {0, 0, 8, 9216, kXtmReasonAccept},
  };
  xtm_out_t out;
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); i++) {
    tl_enq(m, kCases[i].in, kCases[i].eg, kCases[i].dscp, 0, kCases[i].len, (uint32_t)i, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].r, "case %zu: reason %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].r));
    if (kCases[i].r != kXtmReasonAccept) {
      ck_assert_uint_eq(out.enq_res.voq, 0);
    }
  }
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntLenZero), 2);
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntLenMax), 1);
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntBadPort), 3);
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntBadTc), 1);
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntArr), 8);
  ck_assert_uint_eq(tl_rd64(m, XTM_ERR_BAD_PORT_LO_REG_OFFSET), 3);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// A TC mapped to a queue >= NumTcs is BAD_TC (spec 4.2 check 5).
START_TEST(test_queue_out_of_range) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_wr(m, XTM_TC_QUEUE_MAP_REG_OFFSET, 0x76543270u);  // TC1 -> queue 7
  xtm_out_t out;
  tl_enq(m, 0, 1, 8, 0, 64, 1, &out);  // DSCP 8 -> TC 1
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonBadTc);
  tl_enq(m, 0, 1, 0, 0, 64, 2, &out);  // TC 0 -> queue 0
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(out.enq_res.voq, 2);
  xtm_destroy(m);
}
END_TEST

// Before INIT_DONE (cycle < INIT_CYCLES = 8 * NumPorts = 16 here, spec 3) descriptors are
// NOT_READY; at cycle 16 they pass.
START_TEST(test_not_ready) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  p.num_tcs = 2;
  p.num_desc = 16;
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&p, &m), kXtmOk);
  xtm_out_t out;
  uint32_t st = 0;
  ck_assert(xtm_csr_read(m, XTM_STATUS_REG_OFFSET, &st));
  ck_assert_uint_eq(st, 0);
  for (uint32_t c = 0; c < 16; c++) {
    tl_enq(m, 0, 0, 0, 0, 64, c, &out);
    ck_assert_uint_eq(out.cycle, c);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonNotReady);
  }
  ck_assert(xtm_csr_read(m, XTM_STATUS_REG_OFFSET, &st));
  ck_assert_uint_eq(st, 1);
  tl_enq(m, 0, 0, 0, 0, 64, 9, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntNotReady), 16);
  xtm_destroy(m);
}
END_TEST

// Input fields are masked to their widths (spec 2): len 0x4000 is 0 -> LEN_ZERO.
START_TEST(test_input_masking) {
  xtm_t *m = tl_create(8, 8, 64);
  xtm_out_t out;
  tl_enq(m, 0, 0, 0, 0, 0x4000, 1, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonLenZero);
  tl_enq(m, 0x40 | 1, 0x40 | 2, 0x40 | 8, 0, 64, 2, &out);  // ports 1, 2, DSCP 8
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(out.enq_res.voq, 2 * 8 + 1);
  xtm_destroy(m);
}
END_TEST

// create() rejects out-of-range parameters; 64 ports work.
START_TEST(test_params) {
  xtm_params_t p;
  xtm_params_default(&p);
  const char *why = NULL;
  ck_assert(xtm_params_valid(&p, &why));
  static const struct {
    uint32_t ports, tcs, desc, cell;
  } kBad[] = {{0, 8, 64, 256}, {65, 8, 64, 256}, {8, 9, 64, 256}, {8, 8, 1, 256}, {8, 8, 64, 100}};
  for (size_t i = 0; i < sizeof(kBad) / sizeof(kBad[0]); i++) {
    p.num_ports = kBad[i].ports;
    p.num_tcs = kBad[i].tcs;
    p.num_desc = kBad[i].desc;
    p.cell_bytes = kBad[i].cell;
    xtm_t *m = NULL;
    ck_assert_int_eq(xtm_create(&p, &m), kXtmBadArg);
    ck_assert(!xtm_params_valid(&p, &why));
    ck_assert_ptr_nonnull(why);
  }
  xtm_t *m = tl_create(64, 8, 1024);
  xtm_out_t out;
  tl_enq(m, 63, 63, 63, 0, 1500, 1, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(out.enq_res.voq, 511);
  xtm_destroy(m);
}
END_TEST

static Suite *classify_suite(void) {
  Suite *s = suite_create("classify");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_reset_maps_class_selector);
  tcase_add_test(tc, test_written_maps);
  tcase_add_test(tc, test_bad_descriptors);
  tcase_add_test(tc, test_queue_out_of_range);
  tcase_add_test(tc, test_not_ready);
  tcase_add_test(tc, test_input_masking);
  tcase_add_test(tc, test_params);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(classify_suite()); }
