// SPDX-License-Identifier: Apache-2.0
//
// libxtm CSR interface (docs/spec.md section 10). Address decode, access types, reset
// values and legal ranges come from the generated register table (xtm_regs_build), so the
// model cannot drift from rtl/xtm/data/xtm_regs.toml. RTL twins: rtl/xtm/xtm_csr.sv and the
// generated decoder rtl/xtm/autogen/xtm_csr_dec.sv.

#include <stdlib.h>
#include <string.h>

#include "cmodel/xtm/xtm_internal.h"

// The counter enums follow the register map order; these pin that down at compile time.
_Static_assert(XTM_Q_WD_RESTORE_LO_REG_OFFSET == XTM_WIN_VOQ_BASE + 0x40 + 8 * kXtmVcntWdRestore,
               "VOQ counter layout");
_Static_assert(XTM_Q_DROP_BYTES_LO_REG_OFFSET == XTM_WIN_VOQ_BASE + 0x40 + 8 * kXtmVcntDropBytes,
               "VOQ counter layout");
_Static_assert(XTM_G_PAUSED_CYCLES_LO_REG_OFFSET ==
                   XTM_WIN_PG_BASE + 0x40 + 8 * kXtmGcntPausedCycles,
               "PG counter layout");
_Static_assert(XTM_P_PFC_RX_FRAMES_LO_REG_OFFSET ==
                   XTM_WIN_PORT_BASE + 0x20 + 8 * kXtmPcntPfcRxFrames,
               "port counter layout");
_Static_assert(XTM_Q_DROP_POL_LO_REG_OFFSET == XTM_WIN_VOQ_BASE + 0x40 + 8 * kXtmVcntDropPol,
               "VOQ counter layout");
_Static_assert(XTM_POL_PASS_PKTS_LO_REG_OFFSET ==
                       XTM_POL_DROP_PKTS_LO_REG_OFFSET + 8 * kXtmPolcntPassPkts &&
                   XTM_POL_DROP_BYTES_LO_REG_OFFSET ==
                       XTM_POL_DROP_PKTS_LO_REG_OFFSET + 8 * kXtmPolcntDropBytes,
               "policer counter layout");
_Static_assert(XTM_ERR_NOT_READY_LO_REG_OFFSET == XTM_ARR_PKTS_LO_REG_OFFSET + 8 * kXtmEcntNotReady,
               "global counter layout");

static void reg_params(const xtm_t *m, xtm_reg_params_t *rp) {
  xtm_reg_params_default(rp);
  rp->num_ports = m->prm.num_ports;
  rp->num_tcs = m->prm.num_tcs;
  rp->num_desc = m->prm.num_desc;
  rp->cell_bytes = m->prm.cell_bytes;
  rp->cell_log2 = m->cell_log2;
  rp->ocb_cells = m->prm.ocb_cells;
  rp->hbm_cells = m->prm.hbm_cells;
  rp->fifo_depth = m->prm.fifo_depth;
}

xtm_status_t xtm_csr_init(xtm_t *m) {
  xtm_reg_params_t rp;
  reg_params(m, &rp);
  m->regs = calloc(XTM_REG_COUNT, sizeof(xtm_reg_desc_t));
  m->decode = malloc(sizeof(int16_t) * 0x4000);
  if (m->regs == NULL || m->decode == NULL) {
    return kXtmNoMem;
  }
  m->nregs = (uint32_t)xtm_regs_build(&rp, m->regs, XTM_REG_COUNT);
  for (uint32_t i = 0; i < 0x4000; i++) {
    m->decode[i] = -1;
  }
  for (uint32_t i = 0; i < m->nregs; i++) {
    m->decode[m->regs[i].offset >> 2] = (int16_t)i;
  }
  return kXtmOk;
}

void xtm_rebuild_class_maps(xtm_t *m) {
  for (uint32_t d = 0; d < 64; d++) {
    m->dscp_tc[d] = (uint8_t)((m->dscp_map[d >> 3] >> (4 * (d & 7))) & 7u);
  }
  for (uint32_t tc = 0; tc < 8; tc++) {
    m->tc_queue[tc] = (uint8_t)((m->tc_queue_map >> (4 * tc)) & 7u);
    m->tc_pg[tc] = (uint8_t)((m->tc_pg_map >> (4 * tc)) & 7u);
  }
}

// ------------------------------------------------------------------ storage

// Pointer to the storage of a read-write register for the current window selection, or
// NULL if the register has no plain storage.
static uint32_t *rw_storage(xtm_t *m, uint16_t off) {
  xtm_voq_t *q = &m->voq[m->voq_sel];
  xtm_port_t *pt = &m->port[m->port_sel];
  xtm_pg_t *g = &m->pg[m->pg_sel];
  xtm_profile_t *pr = &m->prof[m->prof_sel];
  xtm_pol_t *pl = &m->pol[m->pol_sel];
  if (off >= XTM_PR_FILL_0_REG_OFFSET && off <= XTM_PR_FILL_7_REG_OFFSET) {
    return &pr->fill[(off - XTM_PR_FILL_0_REG_OFFSET) >> 2];
  }
  if (off >= XTM_PR_PROB_0_REG_OFFSET && off <= XTM_PR_PROB_7_REG_OFFSET) {
    return &pr->prob[(off - XTM_PR_PROB_0_REG_OFFSET) >> 2];
  }
  if (off >= XTM_DSCP_MAP_0_REG_OFFSET && off <= XTM_DSCP_MAP_7_REG_OFFSET) {
    return &m->dscp_map[(off - XTM_DSCP_MAP_0_REG_OFFSET) >> 2];
  }
  switch (off) {
    case XTM_MAX_FRAME_REG_OFFSET:
      return &m->max_frame;
    case XTM_POOL_CELLS_REG_OFFSET:
      return &m->pool_cells;
    case XTM_OCB_ONLY_CYCLES_REG_OFFSET:
      return &m->ocb_only_cycles;
    case XTM_HBM_EVICT_CELLS_REG_OFFSET:
      return &m->evict_cells;
    case XTM_HBM_RETURN_CELLS_REG_OFFSET:
      return &m->return_cells;
    case XTM_HBM_WR_RATE_REG_OFFSET:
      return &m->hbm_wr_rate;
    case XTM_HBM_WR_BURST_REG_OFFSET:
      return &m->hbm_wr_burst;
    case XTM_HBM_RD_RATE_REG_OFFSET:
      return &m->hbm_rd_rate;
    case XTM_HBM_RD_BURST_REG_OFFSET:
      return &m->hbm_rd_burst;
    case XTM_HBM_RD_LAT_REG_OFFSET:
      return &m->hbm_rd_lat;
    case XTM_OCB_RD_LAT_REG_OFFSET:
      return &m->ocb_rd_lat;
    case XTM_LFSR_SEED_REG_OFFSET:
      return &m->lfsr_seed;
    case XTM_LFSR_HEAD_SEED_REG_OFFSET:
      return &m->lfsr_head_seed;
    case XTM_WD_CTRL_REG_OFFSET:
      return &m->wd_ctrl;
    case XTM_WD_POLL_CYCLES_REG_OFFSET:
      return &m->wd_poll;
    case XTM_WD_DETECT_POLLS_REG_OFFSET:
      return &m->wd_detect;
    case XTM_WD_RESTORE_POLLS_REG_OFFSET:
      return &m->wd_restore;
    case XTM_TC_PG_MAP_REG_OFFSET:
      return &m->tc_pg_map;
    case XTM_TC_QUEUE_MAP_REG_OFFSET:
      return &m->tc_queue_map;
    case XTM_VOQ_SEL_REG_OFFSET:
      return &m->voq_sel;
    case XTM_PORT_SEL_REG_OFFSET:
      return &m->port_sel;
    case XTM_PG_SEL_REG_OFFSET:
      return &m->pg_sel;
    case XTM_PROF_SEL_REG_OFFSET:
      return &m->prof_sel;
    case XTM_POL_SEL_REG_OFFSET:
      return &m->pol_sel;
    case XTM_ERR_STATUS_REG_OFFSET:
      return &m->err_status;
    case XTM_Q_CFG_REG_OFFSET:
      return &q->cfg;
    case XTM_Q_LIMIT_CELLS_REG_OFFSET:
      return &q->limit;
    case XTM_Q_QUANTUM_REG_OFFSET:
      return &q->quantum;
    case XTM_Q_LAT_THRESH_REG_OFFSET:
      return &q->lat_thresh;
    case XTM_Q_SHAPER_RATE_REG_OFFSET:
      return &q->shaper_rate;
    case XTM_Q_SHAPER_BURST_REG_OFFSET:
      return &q->shaper_burst;
    case XTM_Q_TARGET_RATE_REG_OFFSET:
      return &q->target_rate;
    case XTM_P_SHAPER_CFG_REG_OFFSET:
      return &pt->shaper_cfg;
    case XTM_P_SHAPER_RATE_REG_OFFSET:
      return &pt->shaper_rate;
    case XTM_P_SHAPER_BURST_REG_OFFSET:
      return &pt->shaper_burst;
    case XTM_P_PAUSE_QUANTUM_REG_OFFSET:
      return &pt->pause_quantum;
    case XTM_P_PFC_QUANTA_REG_OFFSET:
      return &pt->pfc_quanta;
    case XTM_P_PFC_REFRESH_REG_OFFSET:
      return &pt->pfc_refresh;
    case XTM_P_POL_MAP_REG_OFFSET:
      return &pt->pol_map;
    case XTM_G_CFG_REG_OFFSET:
      return &g->cfg;
    case XTM_G_XOFF_CELLS_REG_OFFSET:
      return &g->xoff_cells;
    case XTM_G_XON_CELLS_REG_OFFSET:
      return &g->xon_cells;
    case XTM_G_HDRM_CELLS_REG_OFFSET:
      return &g->hdrm_cells;
    case XTM_PR_CFG_REG_OFFSET:
      return &pr->cfg;
    // spec 4.7: a lazy bucket needs nothing at a rate or burst write; the interval since
    // the last evaluation is refilled at the values in force when it is evaluated
    case XTM_POL_RATE_REG_OFFSET:
      return &pl->rate;
    case XTM_POL_BURST_REG_OFFSET:
      return &pl->burst;
    default:
      return NULL;
  }
}

// ------------------------------------------------------------------ reads

static uint32_t sat32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

// Value of a 64-bit counter word (the _LO descriptor) at S(t).
static uint64_t counter_value(const xtm_t *m, uint16_t off, uint64_t t) {
  if (off >= XTM_WIN_VOQ_BASE && off < XTM_WIN_VOQ_BASE + XTM_WIN_VOQ_SIZE) {
    return m->voq[m->voq_sel].cnt[(off - XTM_Q_ARR_PKTS_LO_REG_OFFSET) >> 3];
  }
  if (off >= XTM_WIN_PORT_BASE && off < XTM_WIN_PORT_BASE + XTM_WIN_PORT_SIZE) {
    return m->port[m->port_sel].cnt[(off - XTM_P_TX_PKTS_LO_REG_OFFSET) >> 3];
  }
  if (off >= XTM_WIN_PG_BASE && off < XTM_WIN_PG_BASE + XTM_WIN_PG_SIZE) {
    const xtm_pg_t *g = &m->pg[m->pg_sel];
    uint32_t k = (off - XTM_G_XOFF_SENT_LO_REG_OFFSET) >> 3;
    return k == kXtmGcntPausedCycles ? xtm_paused_cycles(g, t) : g->cnt[k];
  }
  if (off >= XTM_WIN_POL_BASE && off < XTM_WIN_POL_BASE + XTM_WIN_POL_SIZE) {
    return m->pol[m->pol_sel].cnt[(off - XTM_POL_DROP_PKTS_LO_REG_OFFSET) >> 3];
  }
  return m->ecnt[(off - XTM_ARR_PKTS_LO_REG_OFFSET) >> 3];
}

static uint32_t read_value(xtm_t *m, const xtm_reg_desc_t *r, uint64_t t) {
  uint16_t off = r->offset;
  if (r->counter64) {
    return r->is_hi ? m->cnt_hi : (uint32_t)counter_value(m, off, t);
  }
  uint32_t *s = rw_storage(m, off);
  if (s != NULL) {
    return *s;
  }
  const xtm_voq_t *q = &m->voq[m->voq_sel];
  const xtm_port_t *pt = &m->port[m->port_sel];
  const xtm_pg_t *g = &m->pg[m->pg_sel];
  switch (off) {
    case XTM_CTRL_REG_OFFSET:
      return 0;
    case XTM_STATUS_REG_OFFSET:
      return t >= m->init_cycles ? 1u : 0u;
    case XTM_ERR_ADDR_REG_OFFSET:
      return m->err_addr;
    case XTM_CNT_HI_REG_OFFSET:
      return m->cnt_hi;
    case XTM_LFSR_STATE_REG_OFFSET:
      return m->lfsr;
    case XTM_LFSR_HEAD_STATE_REG_OFFSET:
      return m->lfsr_head;
    case XTM_POOL_USED_REG_OFFSET:
      return m->pool_used;
    case XTM_POOL_WM_REG_OFFSET:
      return m->pool_wm;
    case XTM_OCB_USED_REG_OFFSET:
      return m->ocb_used;
    case XTM_HBM_USED_REG_OFFSET:
      return m->hbm_used;
    case XTM_DESC_FREE_REG_OFFSET:
      return m->desc_free;
    case XTM_Q_STATUS_REG_OFFSET: {
      uint32_t v = m->voq_sel;
      bool flushing = (m->flush_mask[v >> 6] >> (v & 63)) & 1u;
      return (q->hbm_mode ? 1u : 0u) << XTM_Q_STATUS_HBM_MODE_OFFSET |
             (xtm_voq_ocb_only(m, q) ? 1u : 0u) << XTM_Q_STATUS_OCB_ONLY_OFFSET |
             (q->wd_state == kXtmWdStalled ? 1u : 0u) << XTM_Q_STATUS_WD_STALLED_OFFSET |
             (flushing ? 1u : 0u) << XTM_Q_STATUS_FLUSHING_OFFSET |
             (uint32_t)q->wd_storm << XTM_Q_STATUS_WD_STORM_POLLS_OFFSET |
             (uint32_t)q->wd_clean << XTM_Q_STATUS_WD_CLEAN_POLLS_OFFSET;
    }
    case XTM_Q_OCC_CELLS_REG_OFFSET:
      return q->occ_cells;
    case XTM_Q_OCC_PKTS_REG_OFFSET:
      return q->occ_pkts;
    case XTM_Q_HBM_CELLS_REG_OFFSET:
      return q->hbm_cells;
    case XTM_Q_DEFICIT_REG_OFFSET:
      return (uint32_t)q->deficit;
    case XTM_Q_WM_CELLS_REG_OFFSET:
      return q->wm;
    case XTM_P_STATUS_REG_OFFSET: {
      uint32_t paused = 0;
      for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
        if (t < m->pg[m->port_sel * XTM_NUM_PRIOS + i].pause_end) {
          paused |= 1u << i;
        }
      }
      return (uint32_t)pt->xoff_mask << XTM_P_STATUS_XOFF_MASK_OFFSET |
             paused << XTM_P_STATUS_PAUSED_MASK_OFFSET |
             pt->fifo_count << XTM_P_STATUS_FIFO_COUNT_OFFSET;
    }
    case XTM_G_STATUS_REG_OFFSET:
      return g->xoff ? 1u : 0u;
    case XTM_G_PG_CELLS_REG_OFFSET:
      return g->pg_cells;
    case XTM_G_HDRM_USED_REG_OFFSET:
      return g->hdrm_used;
    case XTM_G_PAUSE_REMAIN_REG_OFFSET:
      return g->pause_end > t ? sat32(g->pause_end - t) : 0;
    case XTM_G_WM_CELLS_REG_OFFSET:
      return g->wm;
    case XTM_G_HDRM_WM_REG_OFFSET:
      return g->hdrm_wm;
    case XTM_POL_TOKENS_REG_OFFSET:
      return (uint32_t)(m->pol[m->pol_sel].tok >> 16);  // stored, no refill since u (4.7)
    default:
      return r->resval;  // identification and HW_* registers
  }
}

static void csr_error(xtm_t *m, uint32_t bit, uint16_t addr) {
  m->err_status |= 1u << bit;
  m->err_addr = addr;
}

static int16_t decode(const xtm_t *m, uint16_t addr) {
  if ((addr & 3u) != 0) {
    return -1;
  }
  return m->decode[addr >> 2];
}

// Spec 3, 10.2: during initialisation (S(t).INIT_DONE = 0, t = xtm_cycle() for a backdoor
// access) the VOQ, PG and POL windows, swept by the RTL, refuse accesses (POL_SEL itself is
// a global register and is not refused). Checked after the unmapped check and before the
// read-only and legal-range checks.
static bool refused_not_ready(const xtm_t *m, const xtm_reg_desc_t *r) {
  return m->t < m->init_cycles &&
         (r->window == kXtmWinVoq || r->window == kXtmWinPg || r->window == kXtmWinPol);
}

uint32_t xtm_csr_sample(xtm_t *m, uint16_t addr, bool *err, int16_t *idx) {
  int16_t i = decode(m, addr);
  *idx = i;
  if (i < 0) {
    csr_error(m, XTM_ERR_STATUS_UNMAPPED_BIT, addr);
    *err = true;
    return 0;
  }
  const xtm_reg_desc_t *r = &m->regs[i];
  if (refused_not_ready(m, r)) {
    csr_error(m, XTM_ERR_STATUS_NOT_READY_BIT, addr);
    *idx = -1;
    *err = true;
    return 0;
  }
  uint32_t v = read_value(m, r, m->t);
  if (r->counter64 && !r->is_hi) {
    m->cnt_lo_snap_hi = (uint32_t)(counter_value(m, r->offset, m->t) >> 32);
  }
  *err = false;
  return v;
}

void xtm_csr_read_effects(xtm_t *m, int16_t idx, uint64_t t_next) {
  (void)t_next;
  const xtm_reg_desc_t *r = &m->regs[idx];
  if (r->counter64 && !r->is_hi) {
    m->cnt_hi = m->cnt_lo_snap_hi;
    return;
  }
  switch (r->offset) {
    case XTM_POOL_WM_REG_OFFSET:
      m->pool_wm = m->pool_used;
      break;
    case XTM_Q_WM_CELLS_REG_OFFSET:
      m->voq[m->voq_sel].wm = m->voq[m->voq_sel].occ_cells;
      break;
    case XTM_G_WM_CELLS_REG_OFFSET:
      m->pg[m->pg_sel].wm = m->pg[m->pg_sel].pg_cells;
      break;
    case XTM_G_HDRM_WM_REG_OFFSET:
      m->pg[m->pg_sel].hdrm_wm = m->pg[m->pg_sel].hdrm_used;
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ writes

static bool legal(const xtm_reg_desc_t *r, uint32_t data) {
  for (uint32_t f = 0; f < r->nfields; f++) {
    const xtm_reg_field_t *fd = &r->fields[f];
    uint32_t mask = fd->width >= 32 ? UINT32_MAX : ((1u << fd->width) - 1u);
    uint32_t v = (data >> fd->lsb) & mask;
    if (v < fd->min || v > fd->max) {
      return false;
    }
  }
  return true;
}

// Brings a bucket to the end of cycle t_next-1 before its rate or burst changes (spec 5.4).
static void tb_before_change(xtm_tb_t *b, uint64_t t_next, uint32_t rate, uint32_t burst) {
  if (t_next > 0) {
    xtm_tb_sync(b, (int64_t)t_next - 1, rate, burst);
  }
}
static void tb_clamp(xtm_tb_t *b, uint32_t burst) {
  int64_t cap = (int64_t)burst << 16;
  if (b->tok > cap) {
    b->tok = cap;
  }
}

// Stores `data` (already masked to the writable bits) into the register at `off`, with
// its side effects. `t_next` is the first cycle that sees the new value.
static void store(xtm_t *m, uint16_t off, uint32_t data, uint64_t t_next) {
  xtm_voq_t *q = &m->voq[m->voq_sel];
  xtm_port_t *pt = &m->port[m->port_sel];
  xtm_pg_t *g = &m->pg[m->pg_sel];
  switch (off) {
    case XTM_CTRL_REG_OFFSET:
      if (data & (1u << XTM_CTRL_CLR_CNT_BIT)) {
        xtm_clear_counters(m, t_next);
      }
      return;
    case XTM_ERR_STATUS_REG_OFFSET:
      m->err_status &= ~data;
      return;
    case XTM_LFSR_SEED_REG_OFFSET:
      m->lfsr_seed = data;
      m->lfsr = data;  // after any enqueue draw of this cycle (spec 6.4)
      return;
    case XTM_LFSR_HEAD_SEED_REG_OFFSET:
      m->lfsr_head_seed = data;
      m->lfsr_head = data;  // after the head draw decided in this cycle (spec 6.3)
      return;
    case XTM_HBM_WR_RATE_REG_OFFSET:
    case XTM_HBM_WR_BURST_REG_OFFSET:
      tb_before_change(&m->hbm_wr, t_next, m->hbm_wr_rate, m->hbm_wr_burst);
      *rw_storage(m, off) = data;
      tb_clamp(&m->hbm_wr, m->hbm_wr_burst);
      return;
    case XTM_HBM_RD_RATE_REG_OFFSET:
    case XTM_HBM_RD_BURST_REG_OFFSET:
      tb_before_change(&m->hbm_rd, t_next, m->hbm_rd_rate, m->hbm_rd_burst);
      *rw_storage(m, off) = data;
      tb_clamp(&m->hbm_rd, m->hbm_rd_burst);
      xtm_tb_set_ok(&m->hbm_rd, m->hbm_rd_rate);
      return;
    case XTM_Q_SHAPER_RATE_REG_OFFSET:
      // lazy bucket (spec 9.5): the visits before t_next keep the old rate's results; the
      // bucket itself is refilled at the new rate from its last charge on
      xtm_qs_rate_write(m, m->voq_sel, t_next);
      q->shaper_rate = data;
      return;
    case XTM_P_SHAPER_RATE_REG_OFFSET:
    case XTM_P_SHAPER_BURST_REG_OFFSET:
      tb_before_change(&pt->shaper, t_next, pt->shaper_rate, pt->shaper_burst);
      *rw_storage(m, off) = data;
      tb_clamp(&pt->shaper, pt->shaper_burst);
      xtm_tb_set_ok(&pt->shaper, pt->shaper_rate);
      return;
    case XTM_P_PAUSE_QUANTUM_REG_OFFSET:
      xtm_pause_quantum_write(m, m->port_sel, data, t_next);
      return;
    case XTM_Q_CFG_REG_OFFSET:
      q->cfg = data;
      xtm_update_flush(m, m->voq_sel);
      return;
    case XTM_WD_POLL_CYCLES_REG_OFFSET:
      m->wd_poll = data;
      m->wd_next_poll = t_next + data;  // spec 8: a write restarts the poll schedule
      return;
    case XTM_WD_CTRL_REG_OFFSET:
      m->wd_ctrl = data;
      for (uint32_t v = 0; v < m->num_voqs; v++) {
        xtm_update_flush(m, v);
      }
      return;
    case XTM_G_CFG_REG_OFFSET:
    case XTM_G_XOFF_CELLS_REG_OFFSET:
    case XTM_G_XON_CELLS_REG_OFFSET:
      *rw_storage(m, off) = data;
      if (!g->eval_next) {
        g->eval_next = true;
        m->pg_eval_pending++;
      }
      return;
    default:
      break;
  }
  uint32_t *s = rw_storage(m, off);
  if (s != NULL) {
    *s = data;
  }
  if ((off >= XTM_DSCP_MAP_0_REG_OFFSET && off <= XTM_DSCP_MAP_7_REG_OFFSET) ||
      off == XTM_TC_PG_MAP_REG_OFFSET || off == XTM_TC_QUEUE_MAP_REG_OFFSET) {
    xtm_rebuild_class_maps(m);
  }
}

bool xtm_csr_write_apply(xtm_t *m, uint16_t addr, uint32_t data, uint64_t t_next) {
  int16_t i = decode(m, addr);
  if (i < 0) {
    csr_error(m, XTM_ERR_STATUS_UNMAPPED_BIT, addr);
    return false;
  }
  const xtm_reg_desc_t *r = &m->regs[i];
  if (refused_not_ready(m, r)) {
    csr_error(m, XTM_ERR_STATUS_NOT_READY_BIT, addr);
    return false;
  }
  if (r->swaccess == kXtmSwRo || r->swaccess == kXtmSwRc) {
    csr_error(m, XTM_ERR_STATUS_RO_WRITE_BIT, addr);
    return false;
  }
  if (!legal(r, data)) {
    csr_error(m, XTM_ERR_STATUS_ILLEGAL_BIT, addr);
    return false;
  }
  store(m, r->offset, data & r->wmask, t_next);
  m->snap_all = true;  // for xtm_state_snapshot: any register may feed a snapshot field
  if (m->next_active > t_next) {
    m->next_active = t_next;
  }
  if (m->next_full > t_next) {
    m->next_full = t_next;
  }
  if (m->next_nonfifo > t_next) {
    m->next_nonfifo = t_next;
  }
  return true;
}

// ------------------------------------------------------------------ reset

void xtm_csr_reset_values(xtm_t *m) {
  m->voq_sel = m->port_sel = m->pg_sel = m->prof_sel = m->pol_sel = 0;
  // every rw register of every window entry gets its reset value
  xtm_reg_params_t rp;
  reg_params(m, &rp);
  for (uint32_t i = 0; i < m->nregs; i++) {
    const xtm_reg_desc_t *r = &m->regs[i];
    if (r->swaccess != kXtmSwRw && r->swaccess != kXtmSwRw1c) {
      continue;
    }
    uint32_t n = r->window < 0 ? 1 : xtm_regs_window_entries(&rp, (xtm_window_t)r->window);
    for (uint32_t e = 0; e < n; e++) {
      switch (r->window) {
        case kXtmWinVoq:
          m->voq_sel = e;
          break;
        case kXtmWinPort:
          m->port_sel = e;
          break;
        case kXtmWinPg:
          m->pg_sel = e;
          break;
        case kXtmWinProf:
          m->prof_sel = e;
          break;
        case kXtmWinPol:
          m->pol_sel = e;
          break;
        default:
          break;
      }
      uint32_t *s = rw_storage(m, r->offset);
      if (s != NULL) {
        *s = r->resval;
      }
    }
  }
  m->voq_sel = m->port_sel = m->pg_sel = m->prof_sel = m->pol_sel = 0;
  m->err_status = 0;
  m->err_addr = 0;
  m->cnt_hi = 0;
  m->pool_wm = 0;
  m->lfsr = m->lfsr_seed;
  m->lfsr_head = m->lfsr_head_seed;
  xtm_rebuild_class_maps(m);
  // buckets full (spec 3)
  m->hbm_wr = (xtm_tb_t){.tok = (int64_t)m->hbm_wr_burst << 16, .u = -1, .ok = -1};
  m->hbm_rd = (xtm_tb_t){.tok = (int64_t)m->hbm_rd_burst << 16, .u = -1, .ok = -1};
  for (uint32_t v = 0; v < m->num_voqs; v++) {
    xtm_qs_reset(m, v);  // tok = 0 (the reset burst), u = 0, conform = 1 (spec 9.5)
  }
  for (uint32_t p = 0; p < m->prm.num_ports; p++) {
    m->port[p].shaper =
        (xtm_tb_t){.tok = (int64_t)m->port[p].shaper_burst << 16, .u = -1, .ok = -1};
  }
}

// ------------------------------------------------------------------ backdoor

bool xtm_csr_read(xtm_t *m, uint16_t addr, uint32_t *data) {
  bool err = false;
  int16_t idx;
  uint32_t v = xtm_csr_sample(m, addr, &err, &idx);
  if (data != NULL) {
    *data = v;
  }
  if (!err) {
    xtm_csr_read_effects(m, idx, m->t);
  }
  return !err;
}

bool xtm_csr_write(xtm_t *m, uint16_t addr, uint32_t data) {
  return xtm_csr_write_apply(m, addr, data, m->t);
}
