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

// Cell counts at the top of their 28 bits (spec 5.1, 2.0.1): 2^20 descriptors, 64-byte
// cells and 16383-byte packets (256 cells each): 2^20 - 1 of them and one of 255 cells
// fill 2^28 - 1 cells exactly. The egress ports are held by a PFC pause of about 2^32
// cycles (P_PAUSE_QUANTUM and quanta at their maximum, Q_CFG.PFC_RX_EN), so nothing
// leaves. The co-simulation tests cells_top and hdrm_top do the same against the RTL
// (CFG=wide).
static const uint32_t kTop = 0x0FFFFFFFu;      // 2^28 - 1
static const uint32_t kFull = (1u << 20) - 1;  // packets of 256 cells before the last one

static xtm_t *top_create(uint32_t ocb, uint32_t hbm) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  p.num_tcs = 2;
  p.num_desc = 1u << 20;
  p.cell_bytes = 64;
  p.ocb_cells = ocb;
  p.hbm_cells = hbm;
  xtm_t *m = tl_create_params(&p);
  tl_wr(m, XTM_MAX_FRAME_REG_OFFSET, 16383);
  uint16_t q[8];
  for (int i = 0; i < 8; i++) q[i] = 0xFFFF;
  xtm_out_t out;
  for (uint32_t port = 0; port < 2; port++) {
    tl_voq_wr(m, port * 2, XTM_Q_CFG_REG_OFFSET,
              tl_qcfg(false, false, false, false, 0, 0) | 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET);
    tl_port_wr(m, port, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0xFFFFFFFFu);
    tl_pfc_rx(m, port, 0x01, q, &out);  // priority 0 paused for ~2^32 cycles
  }
  return m;
}

// One enqueue (from in_port to queue 0 of eg_port); asserts its reason.
static void top_enq(xtm_t *m, uint8_t in, uint8_t eg, uint16_t len, uint8_t reason, uint32_t id) {
  xtm_out_t out;
  tl_enq(m, in, eg, 0, 0, len, id, &out);
  ck_assert_msg(out.enq_res.valid && out.enq_res.reason == reason,
                "packet %u (%u bytes, port %u -> %u): %s, expected %s", id, len, in, eg,
                xtm_reason_name((xtm_reason_t)out.enq_res.reason),
                xtm_reason_name((xtm_reason_t)reason));
}

static void fill_top(xtm_t *m, uint8_t in, uint8_t eg, uint8_t over_reason, uint32_t last_cells) {
  for (uint32_t i = 0; i < kFull; i++) top_enq(m, in, eg, 16383, kXtmReasonAccept, i);
  top_enq(m, in, eg, 16383, over_reason, kFull);  // 2^28 - 256 + 256: one past the top
  top_enq(m, in, eg, (uint16_t)(last_cells * 64), kXtmReasonAccept, kFull + 1);
}

// Normal path: VOQ 2 (port 1, queue 0) and the pool at 2^28 - 1 against Q_LIMIT_CELLS and
// POOL_CELLS = 2^28 - 1: the packet one cell over is dropped TAIL, then POOL.
START_TEST(cells_top_limits) {
  xtm_t *m = top_create(kTop, 0);
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, kTop);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, kTop);
  tl_voq_wr(m, 2, XTM_Q_LIMIT_CELLS_REG_OFFSET, kTop);
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, kTop);
  fill_top(m, 0, 1, kXtmReasonTail, 255);
  top_enq(m, 0, 1, 1, kXtmReasonTail, kFull + 2);  // VOQ 2 at its limit
  top_enq(m, 0, 0, 1, kXtmReasonPool, kFull + 3);  // VOQ 0 empty, the pool at its top
  xtm_out_t out;
  tl_idle(m, &out);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_OCC_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_OCC_PKTS_REG_OFFSET), 1u << 20);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_WM_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_WM_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_DESC_FREE_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_pg_rd(m, 0, 0, XTM_G_PG_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_pg_rd(m, 0, 0, XTM_G_WM_CELLS_REG_OFFSET), kTop);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 2);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_TAIL_LO_REG_OFFSET), 2);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 0);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_POOL_LO_REG_OFFSET), 1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Lossless path: PGs (0, 0) and (1, 0) in XOFF from the start (G_XOFF_CELLS 0), so every
// arrival goes to headroom, bypassing Q_LIMIT_CELLS (reset 4096) and POOL_CELLS: G_HDRM_USED,
// G_PG_CELLS, the VOQ and the pool reach 2^28 - 1 against G_HDRM_CELLS = 2^28 - 1 (the
// packet one cell over is dropped HEADROOM); the other PG's headroom is free but the
// descriptors and the OCB are not (BUF_FULL).
START_TEST(cells_top_headroom) {
  xtm_t *m = top_create(kTop, 0);
  for (uint32_t in = 0; in < 2; in++) {
    tl_pg_wr(m, in, 0, XTM_G_XOFF_CELLS_REG_OFFSET, 0);
    tl_pg_wr(m, in, 0, XTM_G_HDRM_CELLS_REG_OFFSET, kTop);
    tl_pg_wr(m, in, 0, XTM_G_CFG_REG_OFFSET, 1u << XTM_G_CFG_PFC_EN_OFFSET);
  }
  xtm_out_t out;
  for (int i = 0; i < 4; i++) tl_idle(m, &out);  // evaluated: XOFF set with pg_cells 0
  fill_top(m, 0, 1, kXtmReasonHeadroom, 255);
  top_enq(m, 0, 1, 1, kXtmReasonHeadroom, kFull + 2);
  top_enq(m, 1, 0, 1, kXtmReasonBufFull, kFull + 3);
  tl_idle(m, &out);
  ck_assert_uint_eq(tl_pg_rd(m, 0, 0, XTM_G_HDRM_USED_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_pg_rd(m, 0, 0, XTM_G_HDRM_WM_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_pg_rd(m, 0, 0, XTM_G_PG_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_pg_rd(m, 0, 0, XTM_G_WM_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_OCC_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_WM_CELLS_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), kTop);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_WM_REG_OFFSET), kTop);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 2);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_HDRM_LO_REG_OFFSET), 2);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 0);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_BUF_LO_REG_OFFSET), 1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// HBM: OcbCells 1, HbmCells 2^28 - 2 (the constraint's largest HBM with an OCB); VOQ 2
// evicted by its first arrival (HBM_EVICT_CELLS 0, target rate 0: not OCB-only), the HBM
// write bucket at its top (255.99998 cells per cycle, 65535-cell burst), so every packet
// goes to HBM: hbm_used and the VOQ's Q_HBM_CELLS reach 2^28 - 2.
START_TEST(cells_top_hbm) {
  xtm_t *m = top_create(1, kTop - 1);
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, kTop);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 0);
  tl_wr(m, XTM_HBM_WR_RATE_REG_OFFSET, 0xFFFFFF);
  tl_wr(m, XTM_HBM_WR_BURST_REG_OFFSET, 0xFFFF);
  tl_voq_wr(m, 2, XTM_Q_LIMIT_CELLS_REG_OFFSET, kTop);
  tl_voq_wr(m, 2, XTM_Q_TARGET_RATE_REG_OFFSET, 0);
  for (uint32_t i = 0; i < kFull; i++) top_enq(m, 0, 1, 16383, kXtmReasonAccept, i);
  top_enq(m, 0, 1, 254 * 64, kXtmReasonAccept, kFull);
  top_enq(m, 0, 1, 1, kXtmReasonBufFull, kFull + 1);  // no descriptor left
  xtm_out_t out;
  tl_idle(m, &out);
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), kTop - 1);
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), kTop - 1);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_HBM_CELLS_REG_OFFSET), kTop - 1);
  ck_assert_uint_eq(tl_voq_rd(m, 2, XTM_Q_OCC_CELLS_REG_OFFSET), kTop - 1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// The constraint of spec 1 (2.0.1): OcbCells + HbmCells above 2^28 - 1 is refused.
START_TEST(cells_capacity_constraint) {
  xtm_params_t p;
  xtm_params_default(&p);
  xtm_t *m = NULL;
  p.ocb_cells = kTop;
  p.hbm_cells = 1;
  ck_assert_int_ne(xtm_create(&p, &m), kXtmOk);
  p.hbm_cells = 0;
  ck_assert_int_eq(xtm_create(&p, &m), kXtmOk);
  xtm_destroy(m);
  p.ocb_cells = 1;
  p.hbm_cells = kTop - 1;
  ck_assert_int_eq(xtm_create(&p, &m), kXtmOk);
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
  tcase_add_test(tw, cells_top_limits);
  tcase_add_test(tw, cells_top_headroom);
  tcase_add_test(tw, cells_top_hbm);
  tcase_add_test(tw, cells_capacity_constraint);
  suite_add_tcase(s, tw);
  return s;
}

int main(void) { return tl_run_suite(suite()); }
