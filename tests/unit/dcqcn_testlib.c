// SPDX-License-Identifier: Apache-2.0
//
// Helpers for the libdcqcn Check suites (see dcqcn_testlib.h).

#include "tests/unit/dcqcn_testlib.h"

#include <stdlib.h>

dcqcn_t *dt_create(uint32_t num_qps, uint32_t scan_width) {
  dcqcn_params_t p;
  dcqcn_params_default(&p);
  p.num_qps = num_qps;
  p.scan_width = scan_width;
  dcqcn_t *m = NULL;
  ck_assert_int_eq(dcqcn_create(&p, &m), kDcqcnOk);
  return m;
}

void dt_param(dcqcn_t *m, const char *name, uint32_t value) {
  ck_assert_msg(dcqcn_param_set(m, name, value) == kDcqcnOk, "param %s=%u", name, value);
}

void dt_wr(dcqcn_t *m, uint16_t addr, uint32_t data) {
  ck_assert_msg(dcqcn_csr_write(m, addr, data), "csr write 0x%04x", addr);
}

uint32_t dt_rd(dcqcn_t *m, uint16_t addr) {
  uint32_t v = 0;
  ck_assert_msg(dcqcn_csr_read(m, addr, &v), "csr read 0x%04x", addr);
  return v;
}

uint32_t dt_qp_rd(dcqcn_t *m, uint32_t qp, uint16_t addr) {
  dt_wr(m, DCQCN_QP_SEL_REG_OFFSET, qp);
  return dt_rd(m, addr);
}

uint64_t dt_rd64(dcqcn_t *m, uint16_t lo_addr) {
  uint64_t lo = dt_rd(m, lo_addr);
  uint64_t hi = dt_rd(m, (uint16_t)(lo_addr + 4));
  return hi << 32 | lo;
}

static void one(dcqcn_t *m, const dcqcn_in_t *in, dcqcn_out_t *out) { dcqcn_step(m, in, out); }

void dt_cnp(dcqcn_t *m, uint16_t qp, dcqcn_out_t *out) {
  dcqcn_in_t in = {.cnp = {.valid = true, .qp = qp}};
  one(m, &in, out);
}

void dt_tx(dcqcn_t *m, uint16_t qp, uint16_t bytes, dcqcn_out_t *out) {
  dcqcn_in_t in = {.tx = {.valid = true, .qp = qp, .bytes = bytes}};
  one(m, &in, out);
}

void dt_ce(dcqcn_t *m, uint16_t qp, dcqcn_out_t *out) {
  dcqcn_in_t in = {.ce = {.valid = true, .qp = qp}};
  one(m, &in, out);
}

uint32_t dt_run_to(dcqcn_t *m, uint64_t t, dcqcn_rate_upd_t *rec, uint64_t *rec_cycle,
                   uint32_t cap) {
  uint32_t n = 0;
  dcqcn_out_t out;
  ck_assert_uint_le(dcqcn_cycle(m), t);
  while (dcqcn_advance_to(m, t, &out)) {
    for (uint32_t i = 0; i < out.n_rate; i++, n++) {
      if (n < cap) {
        rec[n] = out.rate[i];
        rec_cycle[n] = out.cycle;
      }
    }
  }
  ck_assert_uint_eq(dcqcn_cycle(m), t);
  return n;
}

void dt_quiet_to(dcqcn_t *m, uint64_t t) {
  dcqcn_out_t out;
  bool any = dcqcn_advance_to(m, t, &out);
  ck_assert_msg(!any, "unexpected output at cycle %llu", (unsigned long long)out.cycle);
}

dcqcn_t *dt_lab(void) {
  dcqcn_t *m = dt_create(4, 4);
  dt_param(m, "DCE_TCP_RTT", 100000);
  dt_param(m, "RATE_TO_SET_ON_FIRST_CNP", 40000);
  dt_param(m, "RPG_TIME_RESET", 10);
  return m;
}

uint64_t dt_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int dt_run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
