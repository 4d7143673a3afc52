// SPDX-License-Identifier: Apache-2.0
//
// Issue 21 on the C model alone (the co-simulation tests csr_edges and widths do the same
// against the RTL): every field with a legal range in xtm_regs.toml at its edges, through
// the generated table rtl/xtm/autogen/xtm_csr_edges.h, in the small and default
// configurations; and the 64-bit byte counters carried into their high word by
// maximum-size packets, one per cycle, against limits at the top of their fields.

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/xtm_testlib.h"

#include "rtl/xtm/autogen/xtm_csr_edges.h"  // Generated.

static const uint32_t kIllegal = XTM_ERR_STATUS_ILLEGAL_MASK << XTM_ERR_STATUS_ILLEGAL_OFFSET;

static void reg_params(const xtm_params_t *p, xtm_reg_params_t *rp) {
  xtm_reg_params_default(rp);
  rp->num_ports = p->num_ports;
  rp->num_tcs = p->num_tcs;
  rp->num_desc = p->num_desc;
  rp->cell_bytes = p->cell_bytes;
  rp->cell_log2 = (uint32_t)__builtin_ctz(p->cell_bytes);
  rp->ocb_cells = p->ocb_cells;
  rp->hbm_cells = p->hbm_cells;
  rp->fifo_depth = p->fifo_depth;
}

// One write of v into field f of d (other fields at reset), then the three reads.
static void edge_write(xtm_t *m, const xtm_reg_desc_t *d, const xtm_reg_field_t *f, uint32_t v,
                       uint32_t *cur, uint32_t *err_addr) {
  uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;
  bool legal = v >= f->min && v <= f->max;
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xFu);
  uint32_t w = (d->resval & ~(mask << f->lsb)) | (v << f->lsb);
  bool ok = xtm_csr_write(m, d->offset, w);
  ck_assert_msg(ok == legal, "%s.%s = 0x%x: write %s, expected %s", d->name, f->name, v,
                ok ? "accepted" : "refused", legal ? "accepted" : "refused");
  if (legal) {
    *cur = v;
  } else {
    *err_addr = d->offset;
  }
  uint32_t got = (tl_rd(m, d->offset) >> f->lsb) & mask;
  ck_assert_msg(got == *cur, "%s.%s = 0x%x: reads 0x%x, expected 0x%x", d->name, f->name, v, got,
                *cur);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), legal ? 0u : kIllegal);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), *err_addr);
}

static void edges_for(uint32_t ports, uint32_t tcs, uint32_t desc) {
  xtm_t *m = tl_create(ports, tcs, desc);
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = ports;
  p.num_tcs = tcs;
  p.num_desc = desc;
  xtm_reg_params_t rp;
  reg_params(&p, &rp);
  xtm_reg_desc_t *regs = calloc(XTM_REG_COUNT, sizeof *regs);
  ck_assert_ptr_nonnull(regs);
  xtm_regs_build(&rp, regs, XTM_REG_COUNT);
  static const uint16_t kSel[] = {XTM_VOQ_SEL_REG_OFFSET, XTM_PORT_SEL_REG_OFFSET,
                                  XTM_PG_SEL_REG_OFFSET, XTM_PROF_SEL_REG_OFFSET};
  uint32_t err_addr = tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), writes = 0;
  for (uint32_t e = 0; e < XTM_CSR_EDGE_COUNT; e++) {
    const xtm_csr_edge_t *ed = &kXtmCsrEdges[e];
    const xtm_reg_desc_t *d = &regs[ed->reg];
    const xtm_reg_field_t *f = &d->fields[ed->field];
    uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;
    if (d->window >= 0) {
      tl_wr(m, kSel[d->window], xtm_regs_window_entries(&rp, (xtm_window_t)d->window) - 1);
    }
    uint32_t cur = (tl_rd(m, d->offset) >> f->lsb) & mask;
    if (ed->has_min && f->min > 0) {
      edge_write(m, d, f, f->min - 1, &cur, &err_addr);
      writes++;
    }
    edge_write(m, d, f, f->min, &cur, &err_addr);
    edge_write(m, d, f, f->max, &cur, &err_addr);
    writes += 2;
    if (ed->has_max && f->max < mask) {
      edge_write(m, d, f, f->max + 1, &cur, &err_addr);
      writes++;
    }
  }
  printf("csr edges (%u x %u x %u): %u fields, %u writes checked\n", ports, tcs, desc,
         XTM_CSR_EDGE_COUNT, writes);
  free(regs);
  xtm_destroy(m);
}

START_TEST(csr_edges_small) { edges_for(2, 2, 64); }
END_TEST

START_TEST(csr_edges_default) { edges_for(8, 8, 4096); }
END_TEST

// The co-simulation test widths on the model: 16383-byte packets, one per cycle, port 0
// to queue 0 of port 1, Q_LIMIT_CELLS and POOL_CELLS at 2^28 - 1, no HBM eviction.
START_TEST(byte_counters_carry) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_wr(m, XTM_MAX_FRAME_REG_OFFSET, 16383);
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 0x0FFFFFFF);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 0x0FFFFFFF);
  tl_voq_wr(m, 2, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0x0FFFFFFF);
  tl_voq_wr(m, 2, XTM_Q_QUANTUM_REG_OFFSET, 65535);
  xtm_out_t out;
  const uint64_t n = (1ull << 32) / 16383 + 100;  // 262 261 packets: past 2^32 bytes
  uint64_t prev_deq = 0;
  for (uint64_t i = 0; i < n; i++) {
    tl_enq(m, 0, 1, 0, 0, 16383, (uint32_t)i, &out);
    uint64_t d = xtm_voq_counter(m, 2, kXtmVcntDeqBytes);
    ck_assert_msg(d >= prev_deq, "Q_DEQ_BYTES went down at packet %llu", (unsigned long long)i);
    prev_deq = d;
  }
  for (int i = 0; i < 100; i++) tl_idle(m, &out);
  uint64_t enq = xtm_voq_counter(m, 2, kXtmVcntEnqBytes);
  uint64_t deq = xtm_voq_counter(m, 2, kXtmVcntDeqBytes);
  uint64_t tx = xtm_port_counter(m, 1, kXtmPcntTxBytes);
  ck_assert_uint_eq(enq, n * 16383);  // every packet accepted: nothing dropped at the top
  ck_assert_uint_eq(deq, n * 16383);
  ck_assert_uint_eq(tx, n * 16383);
  ck_assert_uint_gt(enq >> 32, 0);
  // the CSR view: _LO then _HI (the CNT_HI snapshot) gives the same 64-bit values
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 2);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_ENQ_BYTES_LO_REG_OFFSET), enq);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DEQ_BYTES_LO_REG_OFFSET), deq);
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, 1);
  ck_assert_uint_eq(tl_rd64(m, XTM_P_TX_BYTES_LO_REG_OFFSET), tx);
  printf("byte counters after %llu packets: Q_ENQ_BYTES 0x%llx, P_TX_BYTES 0x%llx\n",
         (unsigned long long)n, (unsigned long long)enq, (unsigned long long)tx);
  xtm_destroy(m);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("widths");
  TCase *tc = tcase_create("edges");
  tcase_add_test(tc, csr_edges_small);
  tcase_add_test(tc, csr_edges_default);
  suite_add_tcase(s, tc);
  TCase *tw = tcase_create("widths");
  tcase_set_timeout(tw, 120);
  tcase_add_test(tw, byte_counters_carry);
  suite_add_tcase(s, tw);
  return s;
}

int main(void) { return tl_run_suite(suite()); }
