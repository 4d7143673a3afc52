// SPDX-License-Identifier: Apache-2.0
//
// Issue 21 on the DCQCN C model alone (the co-simulation tests csr_edges and widths do the
// same against the RTL): every field with a legal range in dcqcn_regs.toml at its edges,
// through the generated table rtl/dcqcn/autogen/dcqcn_csr_edges.h, at 64 and 1024 QPs; and
// the timer datapath at its top: periods of 131071 us at 65535 cycles per us put a deadline
// 8 589 737 985 cycles (> 2^32) ahead, which the Q_*_REMAIN registers saturate (D9).

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/dcqcn_testlib.h"

#include "rtl/dcqcn/autogen/dcqcn_csr_edges.h"  // Generated.
#include "rtl/dcqcn/autogen/dcqcn_regs.h"

static void edges_for(uint32_t nqps) {
  dcqcn_t *m = dt_create(nqps, 4);
  dcqcn_reg_params_t rp;
  dcqcn_reg_params_default(&rp);
  rp.num_qps = nqps;
  rp.scan_width = 4;
  dcqcn_reg_desc_t *regs = calloc(DCQCN_REG_COUNT, sizeof *regs);
  ck_assert_ptr_nonnull(regs);
  dcqcn_regs_build(&rp, regs, DCQCN_REG_COUNT);
  const uint32_t illegal = DCQCN_ERR_STATUS_ILLEGAL_MASK << DCQCN_ERR_STATUS_ILLEGAL_OFFSET;
  uint32_t err_addr = dt_rd(m, DCQCN_ERR_ADDR_REG_OFFSET), writes = 0;
  for (uint32_t e = 0; e < DCQCN_CSR_EDGE_COUNT; e++) {
    const dcqcn_csr_edge_t *ed = &kDcqcnCsrEdges[e];
    const dcqcn_reg_desc_t *d = &regs[ed->reg];
    const dcqcn_reg_field_t *f = &d->fields[ed->field];
    uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;
    uint32_t cur = (dt_rd(m, d->offset) >> f->lsb) & mask;
    uint32_t vals[4], n = 0;
    if (ed->has_min && f->min > 0) vals[n++] = f->min - 1;
    vals[n++] = f->min;
    vals[n++] = f->max;
    if (ed->has_max && f->max < mask) vals[n++] = f->max + 1;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t v = vals[i];
      bool legal = v >= f->min && v <= f->max;
      dt_wr(m, DCQCN_ERR_STATUS_REG_OFFSET, 0x7u);
      bool ok = dcqcn_csr_write(m, d->offset, (d->resval & ~(mask << f->lsb)) | (v << f->lsb));
      ck_assert_msg(ok == legal, "%s.%s = 0x%x: write %s", d->name, f->name, v,
                    ok ? "accepted" : "refused");
      if (legal)
        cur = v;
      else
        err_addr = d->offset;
      uint32_t got = (dt_rd(m, d->offset) >> f->lsb) & mask;
      ck_assert_msg(got == cur, "%s.%s = 0x%x: reads 0x%x, expected 0x%x", d->name, f->name, v, got,
                    cur);
      ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_STATUS_REG_OFFSET), legal ? 0u : illegal);
      ck_assert_uint_eq(dt_rd(m, DCQCN_ERR_ADDR_REG_OFFSET), err_addr);
      writes++;
    }
  }
  printf("dcqcn csr edges (%u QPs): %u fields, %u writes checked\n", nqps, DCQCN_CSR_EDGE_COUNT,
         writes);
  free(regs);
  dcqcn_destroy(m);
}

START_TEST(csr_edges_64) { edges_for(64); }
END_TEST

START_TEST(csr_edges_1024) { edges_for(1024); }
END_TEST

// The first CNP on the highest QP arms its three timers 131071 * 65535 cycles ahead.
START_TEST(deadline_beyond_32_bits) {
  const uint32_t nq = 64;
  dcqcn_t *m = dt_create(nq, 4);
  dt_param(m, "CYCLES_PER_US", 65535);
  dt_param(m, "RPG_TIME_RESET", 131071);
  dt_param(m, "DCE_TCP_RTT", 131071);
  dt_param(m, "RATE_REDUCE_MONITOR_PERIOD", 131071);
  dt_param(m, "LINE_RATE", 1000000);
  dt_param(m, "RATE_TO_SET_ON_FIRST_CNP", 1000000);
  dt_param(m, "INITIAL_ALPHA_VALUE", 1023);
  dcqcn_out_t out;
  dt_cnp(m, (uint16_t)(nq - 1), &out);
  dcqcn_rate_upd_t rec[8];
  uint64_t rec_cycle[8];
  ck_assert_uint_ge(dt_run_to(m, dcqcn_cycle(m) + 2 * dcqcn_scan_period(m) + 20, rec, rec_cycle, 8),
                    1);
  ck_assert_uint_eq(rec[0].qp, nq - 1);   // the highest QP index in the rate stream
  ck_assert_uint_eq(rec[0].rc, 1000000);  // the first-CNP rate at its maximum
  dcqcn_qp_state_t st;
  dcqcn_qp_state(m, nq - 1, &st);
  ck_assert(st.active);
  const uint64_t p = 131071ull * 65535ull;
  ck_assert_uint_gt(p, 0xFFFFFFFFull);
  ck_assert_uint_gt(st.alpha_due, p);  // armed at t0 + P, t0 > 0
  ck_assert_uint_lt(st.alpha_due, p + 1000);
  ck_assert_uint_eq(st.alpha, 1023);
  dt_wr(m, DCQCN_QP_SEL_REG_OFFSET, nq - 1);
  ck_assert_uint_eq(dt_rd(m, DCQCN_Q_ALPHA_REMAIN_REG_OFFSET), 0xFFFFFFFFu);
  ck_assert_uint_eq(dt_rd(m, DCQCN_Q_DEC_REMAIN_REG_OFFSET), 0xFFFFFFFFu);
  ck_assert_uint_eq(dt_rd(m, DCQCN_Q_INC_REMAIN_REG_OFFSET), 0xFFFFFFFFu);
  printf("deadline beyond 2^32: alpha_due %llu, REMAIN saturated\n",
         (unsigned long long)st.alpha_due);
  dcqcn_destroy(m);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("dcqcn_widths");
  TCase *tc = tcase_create("edges");
  tcase_add_test(tc, csr_edges_64);
  tcase_add_test(tc, csr_edges_1024);
  tcase_add_test(tc, deadline_beyond_32_bits);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run_suite(suite()); }
