// SPDX-License-Identifier: Apache-2.0
//
// Suite "csr": the CSR interface of docs/spec.md section 10, driven by the generated
// register table (rtl/xtm/autogen/xtm_regs_table.c), so every register of the TOML is
// covered: reset values, access types, legal ranges, reserved bits, unmapped addresses,
// windows, the 64-bit counter protocol, clear-on-read, CLR_CNT, in-band timing, and the
// refusal of the VOQ, PG and POL windows during initialisation (spec 3, 10.2).

#include <stdlib.h>

#include "tests/unit/xtm_testlib.h"

static xtm_reg_desc_t g_tab[XTM_REG_COUNT];
static size_t g_n;

static void load_table(const xtm_params_t *p) {
  xtm_reg_params_t rp;
  xtm_reg_params_default(&rp);
  rp.num_ports = p->num_ports;
  rp.num_tcs = p->num_tcs;
  rp.num_desc = p->num_desc;
  rp.ocb_cells = p->ocb_cells;
  rp.hbm_cells = p->hbm_cells;
  rp.fifo_depth = p->fifo_depth;
  g_n = xtm_regs_build(&rp, g_tab, XTM_REG_COUNT);
  ck_assert_uint_eq(g_n, XTM_REG_COUNT);
}

static xtm_t *fresh(uint32_t ports, uint32_t tcs) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = ports;
  p.num_tcs = tcs;
  p.num_desc = 256;
  load_table(&p);
  // past initialisation (spec 3: the VOQ and PG windows refuse accesses before)
  return tl_create_params(&p);
}

static void select_entry(xtm_t *m, int window, uint32_t e) {
  static const uint16_t kSel[] = {XTM_VOQ_SEL_REG_OFFSET, XTM_PORT_SEL_REG_OFFSET,
                                  XTM_PG_SEL_REG_OFFSET, XTM_PROF_SEL_REG_OFFSET,
                                  XTM_POL_SEL_REG_OFFSET};
  _Static_assert(kXtmWinPol == 4 && kXtmWinCount == 5, "one select per window, in order");
  if (window >= 0) {
    tl_wr(m, kSel[window], e);
  }
}

static uint32_t field_mask(const xtm_reg_field_t *f) {
  return f->width >= 32 ? UINT32_MAX : ((1u << f->width) - 1u);
}

// A legal value with every field at its maximum (or minimum).
static uint32_t legal_value(const xtm_reg_desc_t *r, bool use_max) {
  uint32_t v = 0;
  for (uint32_t i = 0; i < r->nfields; i++) {
    v |= (use_max ? r->fields[i].max : r->fields[i].min) << r->fields[i].lsb;
  }
  return v;
}

// Reset values right after initialisation (cycle INIT_CYCLES = 8 * NumPorts, nothing
// written yet) for the first and last window entry.
START_TEST(test_reset_values) {
  xtm_t *m = fresh(3, 5);  // odd sizes catch entry-count mistakes
  xtm_reg_params_t rp;
  xtm_reg_params_default(&rp);
  rp.num_ports = 3;
  rp.num_tcs = 5;
  for (size_t i = 0; i < g_n; i++) {
    const xtm_reg_desc_t *r = &g_tab[i];
    uint32_t n = r->window < 0 ? 1 : xtm_regs_window_entries(&rp, (xtm_window_t)r->window);
    uint32_t entries[2] = {0, n - 1};
    for (int k = 0; k < 2; k++) {
      select_entry(m, r->window, entries[k]);
      uint32_t v = 0;
      ck_assert(xtm_csr_read(m, r->offset, &v));
      if (r->window >= 0 && r->offset == g_tab[i].offset && k == 0) {
        // selects themselves were just written: skip none, they are separate registers
      }
      uint32_t expect = r->resval;
      if (r->offset == XTM_STATUS_REG_OFFSET) {
        expect = 1u << XTM_STATUS_INIT_DONE_BIT;  // reset 0, 1 from INIT_CYCLES on (spec 3)
      }
      if (r->offset == XTM_VOQ_SEL_REG_OFFSET || r->offset == XTM_PORT_SEL_REG_OFFSET ||
          r->offset == XTM_PG_SEL_REG_OFFSET || r->offset == XTM_PROF_SEL_REG_OFFSET ||
          r->offset == XTM_POL_SEL_REG_OFFSET || r->offset == XTM_CNT_HI_REG_OFFSET) {
        continue;  // changed by this test's own selections and _LO reads
      }
      ck_assert_msg(v == expect, "%s (0x%04x) entry %u: read 0x%08x, reset value 0x%08x", r->name,
                    r->offset, entries[k], v, expect);
    }
  }
  xtm_destroy(m);
}
END_TEST

// Every rw register holds its legal extremes; reserved bits read 0; illegal values and
// writes to read-only registers are refused with the right ERR_STATUS bit.
START_TEST(test_access_types) {
  xtm_t *m = fresh(2, 2);
  uint32_t checked_rw = 0, checked_ro = 0, checked_illegal = 0;
  for (size_t i = 0; i < g_n; i++) {
    const xtm_reg_desc_t *r = &g_tab[i];
    uint16_t off = r->offset;
    if (off == XTM_ERR_STATUS_REG_OFFSET || off == XTM_CTRL_REG_OFFSET) {
      continue;  // their own tests below
    }
    select_entry(m, r->window, 0);
    tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xFu);
    uint32_t before = 0;
    ck_assert(xtm_csr_read(m, off, &before));
    if (r->swaccess == kXtmSwRo || r->swaccess == kXtmSwRc) {
      ck_assert_msg(!xtm_csr_write(m, off, ~before), "%s: write to RO accepted", r->name);
      ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_RO_WRITE_BIT);
      ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), off);
      if (r->swaccess == kXtmSwRo && !r->counter64 && off != XTM_ERR_ADDR_REG_OFFSET) {
        ck_assert_uint_eq(tl_rd(m, off), before);
      }
      checked_ro++;
      continue;
    }
    if (r->swaccess != kXtmSwRw) {
      continue;
    }
    if (off == XTM_VOQ_SEL_REG_OFFSET || off == XTM_PORT_SEL_REG_OFFSET ||
        off == XTM_PG_SEL_REG_OFFSET || off == XTM_PROF_SEL_REG_OFFSET ||
        off == XTM_POL_SEL_REG_OFFSET) {
      // selects: max legal entry, then back to 0
      uint32_t hi = legal_value(r, true);
      tl_wr(m, off, hi | ~r->wmask);
      ck_assert_uint_eq(tl_rd(m, off), hi);
      tl_wr(m, off, 0);
      checked_rw++;
      continue;
    }
    for (int k = 0; k < 2; k++) {
      uint32_t val = legal_value(r, k == 0);
      tl_wr(m, off, val | ~r->wmask);  // reserved bits set: ignored
      ck_assert_msg(tl_rd(m, off) == val, "%s: wrote 0x%08x read 0x%08x", r->name, val,
                    tl_rd(m, off));
    }
    checked_rw++;
    // an illegal value in one field: refused whole
    for (uint32_t f = 0; f < r->nfields; f++) {
      const xtm_reg_field_t *fd = &r->fields[f];
      uint32_t fm = field_mask(fd);
      uint32_t bad;
      if (fd->max < fm) {
        bad = fd->max + 1;
      } else if (fd->min > 0) {
        bad = fd->min - 1;
      } else {
        continue;
      }
      uint32_t keep = tl_rd(m, off);
      uint32_t val = (keep & ~(fm << fd->lsb)) | (bad << fd->lsb);
      ck_assert_msg(!xtm_csr_write(m, off, val), "%s.%s = %u accepted", r->name, fd->name, bad);
      ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_ILLEGAL_BIT);
      ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), off);
      ck_assert_uint_eq(tl_rd(m, off), keep);
      tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xFu);
      checked_illegal++;
    }
  }
  // every register kind was exercised
  ck_assert_uint_gt(checked_rw, 40);
  ck_assert_uint_gt(checked_ro, 40);
  ck_assert_uint_ge(checked_illegal, 12);
  xtm_destroy(m);
}
END_TEST

// Unmapped and misaligned addresses: read 0, write ignored, UNMAPPED + ERR_ADDR.
START_TEST(test_unmapped) {
  xtm_t *m = fresh(2, 2);
  uint8_t *mapped = calloc(0x4000, 1);
  for (size_t i = 0; i < g_n; i++) {
    mapped[g_tab[i].offset >> 2] = 1;
  }
  uint32_t n_unmapped = 0;
  for (uint32_t w = 0; w < 0x4000; w++) {
    if (mapped[w]) {
      continue;
    }
    uint16_t a = (uint16_t)(w << 2);
    uint32_t v = 0xDEADBEEF;
    ck_assert(!xtm_csr_read(m, a, &v));
    ck_assert_uint_eq(v, 0);
    ck_assert(!xtm_csr_write(m, a, 0xFFFFFFFF));
    ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), a);
    n_unmapped++;
  }
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_UNMAPPED_BIT);
  uint32_t v = 1;
  ck_assert(!xtm_csr_read(m, XTM_MAX_FRAME_REG_OFFSET + 2, &v));
  ck_assert_uint_eq(v, 0);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), XTM_MAX_FRAME_REG_OFFSET + 2);
  ck_assert_uint_eq(n_unmapped + g_n, 0x4000);
  // rw1c: writing 0 keeps, writing 1 clears
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_UNMAPPED_BIT);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 1u << XTM_ERR_STATUS_UNMAPPED_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 0);
  free(mapped);
  xtm_destroy(m);
}
END_TEST

// Windows address the selected entry only.
START_TEST(test_windows_isolate_entries) {
  xtm_t *m = tl_create(4, 4, 64);
  for (uint32_t v = 0; v < 16; v++) {
    tl_voq_wr(m, v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 100 + v);
  }
  for (uint32_t g = 0; g < 32; g++) {
    tl_pg_wr(m, g / 8, g % 8, XTM_G_HDRM_CELLS_REG_OFFSET, 7 * g);
  }
  for (uint32_t v = 0; v < 16; v++) {
    ck_assert_uint_eq(tl_voq_rd(m, v, XTM_Q_LIMIT_CELLS_REG_OFFSET), 100 + v);
  }
  for (uint32_t g = 0; g < 32; g++) {
    ck_assert_uint_eq(tl_pg_rd(m, g / 8, g % 8, XTM_G_HDRM_CELLS_REG_OFFSET), 7 * g);
  }
  // a select beyond the entries is illegal and keeps the old selection
  ck_assert(!xtm_csr_write(m, XTM_VOQ_SEL_REG_OFFSET, 16));
  ck_assert_uint_eq(tl_rd(m, XTM_VOQ_SEL_REG_OFFSET), 15);
  xtm_destroy(m);
}
END_TEST

// 64-bit counters: _LO snapshots the upper half into CNT_HI; _HI returns the snapshot even
// when the counter moved on. G_PAUSED_CYCLES passes 2^32 after one long pause.
START_TEST(test_counter64_protocol) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_port_wr(m, 1, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0xFFFFFFFFu);
  xtm_out_t out;
  uint16_t q[8] = {0, 0, 0, 65535, 0, 0, 0, 0};
  uint64_t t0 = xtm_cycle(m);
  tl_pfc_rx(m, 1, 1u << 3, q, &out);
  // pause_end = t0 + ceil(65535 * 0xFFFFFFFF / 65536) = t0 + 4294901760
  // (65535 * (2^32-1) = 281470681677825; / 65536 = 4294901759.99998 -> ceil 4294901760)
  uint64_t end = t0 + 4294901760ull;
  ck_assert(!xtm_advance_to(m, t0 + 5000000000ull, &out));
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, 1 * 8 + 3);
  uint64_t expect = end - t0;  // every cycle t0 .. end-1 paused
  ck_assert_uint_eq(tl_rd64(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), expect);
  ck_assert_uint_eq(expect >> 32, 0);  // 4294901760 < 2^32: extend with a second pause
  tl_pfc_rx(m, 1, 1u << 3, q, &out);
  uint64_t t1 = xtm_cycle(m) - 1;
  ck_assert(!xtm_advance_to(m, t1 + 4294901760ull + 10, &out));
  uint64_t total = expect + 4294901760ull;  // 8589803520 = 0x1_FFFE_0000 + ...
  ck_assert_uint_eq(tl_rd64(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), total);
  ck_assert_uint_eq(total >> 32, 1);
  // the HI word reads the shadow of the last _LO read, not the live counter
  ck_assert_uint_eq(tl_rd(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), (uint32_t)total);
  tl_wr(m, XTM_CTRL_REG_OFFSET, 1u << XTM_CTRL_CLR_CNT_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_G_PAUSED_CYCLES_HI_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_rd(m, XTM_CNT_HI_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_rd64(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_CNT_HI_REG_OFFSET), 0);
  xtm_destroy(m);
}
END_TEST

// In-band access through xtm_step: a read returns S(t), a write is visible at t+1, the
// response reports errors, and the datapath of the writing cycle uses the old value.
START_TEST(test_inband_timing) {
  xtm_t *m = tl_create(2, 2, 64);
  xtm_in_t in = {.tx_ready = UINT64_MAX};
  xtm_out_t out;
  in.csr =
      (xtm_csr_req_t){.valid = true, .write = true, .addr = XTM_MAX_FRAME_REG_OFFSET, .wdata = 100};
  // same cycle: a 200-byte descriptor is checked against the old MAX_FRAME (9216)
  in.enq = (xtm_enq_in_t){.valid = true, .pkt_id = 1, .len = 200};
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid && !out.csr_rsp.err);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  // next cycle: the new value applies, and a read returns it
  in.csr = (xtm_csr_req_t){.valid = true, .write = false, .addr = XTM_MAX_FRAME_REG_OFFSET};
  in.enq.pkt_id = 2;
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonLenMax);
  ck_assert_uint_eq(out.csr_rsp.rdata, 100);
  // an illegal write answers err and changes nothing
  in.enq.valid = false;
  in.csr =
      (xtm_csr_req_t){.valid = true, .write = true, .addr = XTM_MAX_FRAME_REG_OFFSET, .wdata = 10};
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.err);
  ck_assert_uint_eq(tl_rd(m, XTM_MAX_FRAME_REG_OFFSET), 100);
  // a read in the cycle of an enqueue returns the occupancy before it (S(t))
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0));
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 0);
  in.enq = (xtm_enq_in_t){.valid = true, .pkt_id = 3, .len = 64};
  in.csr = (xtm_csr_req_t){.valid = true, .write = false, .addr = XTM_POOL_USED_REG_OFFSET};
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.csr_rsp.rdata, 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 1);
  xtm_destroy(m);
}
END_TEST

// Clear-on-read watermark (spec 10): the read returns the peak, then restarts from the
// occupancy at the end of the cycle.
START_TEST(test_watermark_rc) {
  xtm_t *m = tl_create(2, 2, 64);
  // hold the egress: tx_ready low keeps packets in the FIFO, 8 FIFO slots then the VOQ
  xtm_set_tx_ready(m, 0);
  xtm_out_t out;
  for (uint32_t i = 0; i < 12; i++) {
    xtm_in_t in = {.tx_ready = 0};
    in.enq = (xtm_enq_in_t){.valid = true, .pkt_id = i, .len = 512};  // 2 cells
    xtm_step(m, &in, &out);
  }
  // 12 accepted, 8 selected into the FIFO (one per cycle from the cycle after each
  // arrival), so 4 remain: pool 8 cells; the peak was reached when arrivals outpaced...
  // arrivals and selections alternate one-for-one, so the pool never held more than
  // 2 cells until the FIFO filled at the 9th arrival; then it grows by 2 per arrival.
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 8);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_WM_REG_OFFSET), 8);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_WM_REG_OFFSET), 8);  // restarts from 8, not 0
  xtm_destroy(m);
}
END_TEST

static uint32_t bus(xtm_t *m, bool write, uint16_t addr, uint32_t wdata, bool *err) {
  xtm_in_t in = {.tx_ready = UINT64_MAX};
  in.csr = (xtm_csr_req_t){.valid = true, .write = write, .addr = addr, .wdata = wdata};
  xtm_out_t out;
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid);
  *err = out.csr_rsp.err;
  return out.csr_rsp.rdata;
}

// Spec 3, 10.2, 15.6: during cycles 0 .. INIT_CYCLES-1 (INIT_CYCLES = 8 * NumPorts = 24 for
// 3 ports) an access to the VOQ window (0x200-0x2FF) or the PG window (0x400-0x4FF) is
// refused: a read returns 0, a write is ignored, ERR_STATUS.NOT_READY and ERR_ADDR are set
// and err = 1. Precedence: unmapped, not ready, read-only, illegal. Every other register,
// and CTRL.CLR_CNT, behaves normally. From cycle INIT_CYCLES on the windows answer.
START_TEST(test_init_window_refusal) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 3;
  p.num_tcs = 2;  // NumVoqs = 6 < INIT_CYCLES = 24
  p.num_desc = 64;
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&p, &m), kXtmOk);
  ck_assert_uint_eq(XTM_INIT_CYCLES(3), 24);
  bool err;
  uint32_t v = 1;
  // backdoor at cycle 0: a VOQ window read is refused
  ck_assert(!xtm_csr_read(m, XTM_Q_CFG_REG_OFFSET, &v));
  ck_assert_uint_eq(v, 0);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), XTM_Q_CFG_REG_OFFSET);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  // bus write to the PG window: refused, err, value unchanged (checked after INIT)
  (void)bus(m, true, XTM_G_XOFF_CELLS_REG_OFFSET, 77, &err);
  ck_assert(err);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), XTM_G_XOFF_CELLS_REG_OFFSET);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  // precedence: an unused word inside the VOQ window is UNMAPPED, not NOT_READY
  ck_assert(!xtm_csr_write(m, (uint16_t)(XTM_WIN_VOQ_BASE + XTM_WIN_VOQ_SIZE - 4), 1));
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_UNMAPPED_BIT);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  // a read-only window register and an illegal window value: NOT_READY first
  ck_assert(!xtm_csr_write(m, XTM_Q_OCC_CELLS_REG_OFFSET, 1));
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  ck_assert(!xtm_csr_write(m, XTM_Q_CFG_REG_OFFSET, 3u << XTM_Q_CFG_MARK_POINT_OFFSET));
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  // outside the VOQ and PG windows everything works: selects, globals, port and profile
  // windows, reads of STATUS
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 5);
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, 23);
  tl_port_wr(m, 2, XTM_P_PFC_QUANTA_REG_OFFSET, 1234);
  ck_assert_uint_eq(tl_rd(m, XTM_P_PFC_QUANTA_REG_OFFSET), 1234);
  tl_wr(m, XTM_PROF_SEL_REG_OFFSET, 7);
  tl_wr(m, XTM_PR_FILL_3_REG_OFFSET, 4321);
  ck_assert_uint_eq(tl_rd(m, XTM_PR_FILL_3_REG_OFFSET), 4321);
  ck_assert_uint_eq((uint32_t)bus(m, false, XTM_POOL_CELLS_REG_OFFSET, 0, &err),
                    XTM_POOL_CELLS_REG_RESVAL);
  ck_assert(!err);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 0);
  // CLR_CNT during initialisation clears the counters (spec 10.2, 15.6): two NOT_READY
  // descriptors, then a clear
  xtm_out_t out;
  tl_enq(m, 0, 0, 0, 0, 64, 1, &out);
  tl_enq(m, 0, 0, 0, 0, 64, 2, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonNotReady);
  ck_assert_uint_eq(tl_rd64(m, XTM_ERR_NOT_READY_LO_REG_OFFSET), 2);
  (void)bus(m, true, XTM_CTRL_REG_OFFSET, 1u << XTM_CTRL_CLR_CNT_BIT, &err);
  ck_assert(!err);
  ck_assert_uint_eq(tl_rd64(m, XTM_ERR_NOT_READY_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd64(m, XTM_ARR_PKTS_LO_REG_OFFSET), 0);
  // the last refused bus cycle is INIT_CYCLES-1 = 23, the first answered one 24
  while (xtm_cycle(m) < 23) {
    tl_idle(m, &out);
  }
  ck_assert_uint_eq(tl_rd(m, XTM_STATUS_REG_OFFSET), 0);
  ck_assert_uint_eq(bus(m, false, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0, &err), 0);
  ck_assert(err);  // cycle 23
  ck_assert_uint_eq(tl_rd(m, XTM_STATUS_REG_OFFSET), 1);
  ck_assert_uint_eq(bus(m, false, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0, &err),
                    XTM_Q_LIMIT_CELLS_REG_RESVAL);
  ck_assert(!err);  // cycle 24: VOQ_SEL = 5 selected during initialisation
  ck_assert_uint_eq(tl_rd(m, XTM_G_XOFF_CELLS_REG_OFFSET), XTM_G_XOFF_CELLS_REG_RESVAL);
  ck_assert_uint_eq(tl_rd(m, XTM_VOQ_SEL_REG_OFFSET), 5);
  ck_assert_uint_eq(tl_rd(m, XTM_PG_SEL_REG_OFFSET), 23);
  xtm_destroy(m);
}
END_TEST

static Suite *csr_suite(void) {
  Suite *s = suite_create("csr");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, test_reset_values);
  tcase_add_test(tc, test_access_types);
  tcase_add_test(tc, test_unmapped);
  tcase_add_test(tc, test_windows_isolate_entries);
  tcase_add_test(tc, test_counter64_protocol);
  tcase_add_test(tc, test_inband_timing);
  tcase_add_test(tc, test_watermark_rc);
  tcase_add_test(tc, test_init_window_refusal);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(csr_suite()); }
