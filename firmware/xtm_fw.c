// SPDX-License-Identifier: Apache-2.0
//
// xtm firmware driver core. Freestanding C11 (compiled with -ffreestanding in make test):
// no library calls, no allocation. Register addresses, masks and offsets come only from
// the generated header.

#include "firmware/xtm_fw.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

#define RET_IF_ERR(expr)          \
  do {                            \
    xtm_fw_status_t st_ = (expr); \
    if (st_ != kXtmFwOk) {        \
      return st_;                 \
    }                             \
  } while (0)

#define Q24_MAX 0xFFFFFFu
#define CELLS_MAX 0xFFFFFFFu

// mlxconfig names, legal ranges (rtl/dcqcn/data/dcqcn_regs.toml) and ConnectX defaults
// (shared/brief/dcqcn.md, tm-domain-specs 4.1).
static const xtm_fw_dcqcn_info_t kDcqcnInfo[kXtmFwDcqcnCount] = {
    [kXtmFwDcqcnDceTcpG] = {"DCE_TCP_G", 0u, 1023u, 1019u, "Q10"},
    [kXtmFwDcqcnDceTcpRtt] = {"DCE_TCP_RTT", 1u, 131071u, 1u, "us"},
    [kXtmFwDcqcnInitialAlphaValue] = {"INITIAL_ALPHA_VALUE", 0u, 1023u, 1023u, "Q10"},
    [kXtmFwDcqcnRateToSetOnFirstCnp] = {"RATE_TO_SET_ON_FIRST_CNP", 0u, 1000000u, 0u, "Mb/s"},
    [kXtmFwDcqcnRpgMinDecFac] = {"RPG_MIN_DEC_FAC", 0u, 100u, 50u, "%"},
    [kXtmFwDcqcnRpgMinRate] = {"RPG_MIN_RATE", 1u, 1000000u, 1u, "Mb/s"},
    [kXtmFwDcqcnRpgMaxRate] = {"RPG_MAX_RATE", 0u, 1000000u, 0u, "Mb/s"},
    [kXtmFwDcqcnRpgGd] = {"RPG_GD", 0u, 15u, 11u, "shift"},
    [kXtmFwDcqcnRateReduceMonitorPeriod] = {"RATE_REDUCE_MONITOR_PERIOD", 1u, 131071u, 4u, "us"},
    [kXtmFwDcqcnRpgTimeReset] = {"RPG_TIME_RESET", 1u, 131071u, 300u, "us"},
    [kXtmFwDcqcnRpgByteReset] = {"RPG_BYTE_RESET", 1u, 32767u, 32767u, "64 B"},
    [kXtmFwDcqcnRpgThreshold] = {"RPG_THRESHOLD", 1u, 31u, 1u, "stages"},
    [kXtmFwDcqcnRpgAiRate] = {"RPG_AI_RATE", 0u, 1000000u, 5u, "Mb/s"},
    [kXtmFwDcqcnRpgHaiRate] = {"RPG_HAI_RATE", 0u, 1000000u, 50u, "Mb/s"},
    [kXtmFwDcqcnClampTgtRate] = {"CLAMP_TGT_RATE", 0u, 1u, 0u, "bool"},
    [kXtmFwDcqcnClampTgtRateAfterTimeInc] = {"CLAMP_TGT_RATE_AFTER_TIME_INC", 0u, 1u, 1u, "bool"},
    [kXtmFwDcqcnMinTimeBetweenCnps] = {"MIN_TIME_BETWEEN_CNPS", 0u, 131071u, 4u, "us"},
};

const xtm_fw_dcqcn_info_t *xtm_fw_dcqcn_info(xtm_fw_dcqcn_param_t p) {
  if ((unsigned)p >= (unsigned)kXtmFwDcqcnCount) {
    return NULL;
  }
  return &kDcqcnInfo[p];
}

const char *xtm_fw_step_name(xtm_fw_step_t s) {
  switch (s) {
    case kXtmFwStepNone:
      return "none";
    case kXtmFwStepValidate:
      return "validate";
    case kXtmFwStepReset:
      return "reset";
    case kXtmFwStepIdentify:
      return "identify";
    case kXtmFwStepWaitInit:
      return "wait-init";
    case kXtmFwStepClassify:
      return "classify";
    case kXtmFwStepQueues:
      return "queues";
    case kXtmFwStepProfiles:
      return "profiles";
    case kXtmFwStepPfc:
      return "pfc";
    case kXtmFwStepWatchdog:
      return "watchdog";
    case kXtmFwStepPolice:
      return "police";
    case kXtmFwStepDcqcn:
      return "dcqcn";
    case kXtmFwStepEnable:
      return "enable";
    case kXtmFwStepCheck:
      return "check";
    case kXtmFwStepCount:
    default:
      return "?";
  }
}

const char *xtm_fw_status_name(xtm_fw_status_t s) {
  switch (s) {
    case kXtmFwOk:
      return "ok";
    case kXtmFwBadArg:
      return "bad argument";
    case kXtmFwBusError:
      return "bus error";
    case kXtmFwBadBlockType:
      return "wrong block type";
    case kXtmFwBadVersion:
      return "version mismatch";
    case kXtmFwTimeout:
      return "timeout";
    case kXtmFwHwError:
      return "ERR_STATUS set";
    case kXtmFwUnsupported:
      return "unsupported by the backend";
    case kXtmFwNotInit:
      return "handle not initialised";
    case kXtmFwReadback:
      return "a register did not read back as written";
    default:
      return "?";
  }
}

// ------------------------------------------------------------------ helpers

static xtm_fw_status_t rd(const xtm_fw_t *h, uint32_t off, uint32_t *v) {
  return xtm_mmio_read32(&h->mmio, off, v);
}

static xtm_fw_status_t wr(const xtm_fw_t *h, uint32_t off, uint32_t v) {
  return xtm_mmio_write32(&h->mmio, off, v);
}

static xtm_fw_status_t check_handle(const xtm_fw_t *h) {
  if (h == NULL) {
    return kXtmFwBadArg;
  }
  if (!h->initialised) {
    return kXtmFwNotInit;
  }
  return kXtmFwOk;
}

static uint32_t fld(uint32_t v, uint32_t mask, uint32_t offset) {
  return xtm_field32_write(0u, mask, offset, v);
}

// ------------------------------------------------------------------ lifecycle

xtm_fw_status_t xtm_fw_init(const xtm_mmio_t *mmio, xtm_fw_t *h) {
  if (mmio == NULL || mmio->ops == NULL || h == NULL) {
    return kXtmFwBadArg;
  }
  xtm_fw_t t = {.mmio = *mmio, .initialised = false};
  uint32_t type = 0u;
  uint32_t ver = 0u;
  RET_IF_ERR(rd(&t, XTM_BLOCK_TYPE_REG_OFFSET, &type));
  if (type != XTM_BLOCK_TYPE_VALUE) {
    return kXtmFwBadBlockType;
  }
  RET_IF_ERR(rd(&t, XTM_VERSION_REG_OFFSET, &ver));
  // Same major and minor: a patch-level difference does not change the register map.
  if ((ver >> XTM_VERSION_MINOR_OFFSET) != (XTM_VERSION_VALUE >> XTM_VERSION_MINOR_OFFSET)) {
    return kXtmFwBadVersion;
  }
  uint32_t p = 0u;
  RET_IF_ERR(rd(&t, XTM_HW_PARAMS_REG_OFFSET, &p));
  t.hw.num_ports =
      xtm_field32_read(p, XTM_HW_PARAMS_NUM_PORTS_MASK, XTM_HW_PARAMS_NUM_PORTS_OFFSET);
  t.hw.num_tcs = xtm_field32_read(p, XTM_HW_PARAMS_NUM_TCS_MASK, XTM_HW_PARAMS_NUM_TCS_OFFSET);
  t.hw.cell_log2 =
      xtm_field32_read(p, XTM_HW_PARAMS_CELL_LOG2_MASK, XTM_HW_PARAMS_CELL_LOG2_OFFSET);
  t.hw.fifo_depth =
      xtm_field32_read(p, XTM_HW_PARAMS_FIFO_DEPTH_MASK, XTM_HW_PARAMS_FIFO_DEPTH_OFFSET);
  RET_IF_ERR(rd(&t, XTM_HW_NUM_DESC_REG_OFFSET, &t.hw.num_desc));
  RET_IF_ERR(rd(&t, XTM_HW_OCB_CELLS_REG_OFFSET, &t.hw.ocb_cells));
  RET_IF_ERR(rd(&t, XTM_HW_HBM_CELLS_REG_OFFSET, &t.hw.hbm_cells));
  if (t.hw.num_ports == 0u || t.hw.num_ports > XTM_FW_MAX_PORTS || t.hw.num_tcs == 0u ||
      t.hw.num_tcs > XTM_FW_MAX_TCS || t.hw.cell_log2 < 6u || t.hw.cell_log2 > 10u) {
    return kXtmFwBadVersion;  // parameters this firmware cannot drive
  }
  t.hw.cell_bytes = 1u << t.hw.cell_log2;
  t.initialised = true;
  *h = t;
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_wait_init_done(const xtm_fw_t *h, uint32_t max_polls) {
  RET_IF_ERR(check_handle(h));
  if (max_polls == 0u) {
    return kXtmFwBadArg;
  }
  for (uint32_t i = 0u; i < max_polls; i++) {
    uint32_t s = 0u;
    RET_IF_ERR(rd(h, XTM_STATUS_REG_OFFSET, &s));
    if (xtm_field32_read(s, XTM_STATUS_INIT_DONE_MASK, XTM_STATUS_INIT_DONE_OFFSET) != 0u) {
      return kXtmFwOk;
    }
  }
  return kXtmFwTimeout;
}

// ------------------------------------------------------------------ validation

static bool queue_ok(const xtm_fw_hw_t *hw, const xtm_fw_queue_cfg_t *q) {
  return q->port < hw->num_ports && q->queue < hw->num_tcs &&
         q->mark_point <= kXtmFwMarkPointLatency && q->profile < XTM_FW_NUM_PROFILES &&
         q->pfc_prio < XTM_FW_NUM_PRIOS && q->limit_cells <= CELLS_MAX && q->quantum_bytes >= 1u &&
         q->quantum_bytes <= XTM_Q_QUANTUM_BYTES_MASK && q->shaper_rate_q16 <= Q24_MAX &&
         q->target_rate_q16 <= Q24_MAX && q->shaper_burst_bytes <= XTM_Q_SHAPER_BURST_BYTES_MASK;
}

static bool profile_ok(const xtm_fw_profile_cfg_t *p) {
  if (p->npoints > XTM_FW_NUM_POINTS) {
    return false;
  }
  for (uint32_t i = 0u; i < p->npoints; i++) {
    if (p->fill_q16[i] > XTM_FW_Q16_ONE || p->prob_q16[i] > XTM_FW_Q16_ONE) {
      return false;
    }
    if (i > 0u && p->fill_q16[i] <= p->fill_q16[i - 1u]) {
      return false;
    }
  }
  return true;
}

static bool port_ok(const xtm_fw_port_cfg_t *p) {
  return p->ovh_bytes <= XTM_P_SHAPER_CFG_OVH_BYTES_MASK && p->shaper_rate_q16 <= Q24_MAX &&
         p->pause_quantum_q16 >= XTM_FW_PAUSE_QUANTUM_MIN_Q16 &&
         p->shaper_burst_bytes <= XTM_P_SHAPER_BURST_BYTES_MASK && p->pfc_quanta >= 1u &&
         p->pfc_quanta <= XTM_P_PFC_QUANTA_QUANTA_MASK && p->pfc_refresh_cycles >= 1u;
}

static bool pg_ok(const xtm_fw_hw_t *hw, const xtm_fw_pg_cfg_t *g) {
  return g->port < hw->num_ports && g->prio < XTM_FW_NUM_PRIOS && g->xoff_cells <= CELLS_MAX &&
         g->xon_cells <= g->xoff_cells && g->hdrm_cells <= CELLS_MAX;
}

static bool wd_ok(const xtm_fw_wd_cfg_t *w) {
  // WD_POLL_CYCLES is at least XTM_FW_WD_POLL_MIN_CYCLES (spec 8: a poll visits one
  // egress port per cycle; the TOML's min, checked by test_fw)
  return w->action <= kXtmFwWdActionForward && w->poll_cycles >= XTM_FW_WD_POLL_MIN_CYCLES &&
         w->detect_polls >= 1u && w->detect_polls <= XTM_WD_DETECT_POLLS_POLLS_MASK &&
         w->restore_polls >= 1u && w->restore_polls <= XTM_WD_RESTORE_POLLS_POLLS_MASK;
}

static bool class_ok(const xtm_fw_hw_t *hw, const xtm_fw_class_cfg_t *c) {
  for (uint32_t d = 0u; d < 64u; d++) {
    if (c->dscp_tc[d] >= hw->num_tcs) {
      return false;
    }
  }
  for (uint32_t t = 0u; t < XTM_FW_MAX_TCS; t++) {
    if (c->tc_queue[t] >= hw->num_tcs || c->tc_pg[t] >= XTM_FW_NUM_PRIOS) {
      return false;
    }
  }
  return true;
}

static bool policer_ok(const xtm_fw_hw_t *hw, const xtm_fw_policer_cfg_t *p) {
  return p->port < hw->num_ports && p->index < XTM_FW_POLICERS_PER_PORT &&
         p->rate_q16 <= XTM_POL_RATE_RATE_MASK && p->burst_bytes <= XTM_POL_BURST_BYTES_MASK;
}

static bool pol_map_ok(const xtm_fw_hw_t *hw, uint32_t port, const xtm_fw_pol_map_cfg_t *m) {
  if (port >= hw->num_ports || (hw->num_tcs < 8u && (m->tc_en >> hw->num_tcs) != 0u)) {
    return false;  // a class the hardware does not have
  }
  for (uint32_t t = 0u; t < XTM_FW_MAX_TCS; t++) {
    if (m->tc_pol[t] >= XTM_FW_POLICERS_PER_PORT) {
      return false;
    }
  }
  return true;
}

// Every policer once, in range; every enabled class of a map polices through a policer the
// image programs (an unprogrammed one has rate 0 and burst 0: it would drop everything).
static bool policers_ok(const xtm_fw_hw_t *hw, const xtm_fw_cfg_t *cfg) {
  if (cfg->num_policers > XTM_FW_MAX_POLICERS) {
    return false;
  }
  uint8_t have[XTM_FW_MAX_PORTS] = {0u};
  for (uint32_t i = 0u; i < cfg->num_policers; i++) {
    const xtm_fw_policer_cfg_t *p = &cfg->policers[i];
    if (!policer_ok(hw, p) || (have[p->port] >> p->index & 1u) != 0u) {
      return false;
    }
    have[p->port] = (uint8_t)(have[p->port] | 1u << p->index);
  }
  for (uint32_t port = 0u; port < XTM_FW_MAX_PORTS; port++) {
    const xtm_fw_pol_map_cfg_t *m = &cfg->pol_map[port];
    if (!m->valid) {
      continue;
    }
    if (!pol_map_ok(hw, port, m)) {
      return false;
    }
    for (uint32_t t = 0u; t < XTM_FW_MAX_TCS; t++) {
      if ((m->tc_en >> t & 1u) != 0u && (have[port] >> m->tc_pol[t] & 1u) == 0u) {
        return false;
      }
    }
  }
  return true;
}

xtm_fw_status_t xtm_fw_cfg_validate(const xtm_fw_t *h, const xtm_fw_cfg_t *cfg) {
  RET_IF_ERR(check_handle(h));
  if (cfg == NULL || cfg->num_queues > XTM_FW_MAX_QUEUES || cfg->num_pgs > XTM_FW_MAX_PGS) {
    return kXtmFwBadArg;
  }
  if (cfg->cls.valid && !class_ok(&h->hw, &cfg->cls)) {
    return kXtmFwBadArg;
  }
  for (uint32_t i = 0u; i < cfg->num_queues; i++) {
    if (!queue_ok(&h->hw, &cfg->queues[i])) {
      return kXtmFwBadArg;
    }
  }
  for (uint32_t i = 0u; i < XTM_FW_NUM_PROFILES; i++) {
    if (cfg->profiles[i].valid && !profile_ok(&cfg->profiles[i])) {
      return kXtmFwBadArg;
    }
  }
  for (uint32_t i = 0u; i < XTM_FW_MAX_PORTS; i++) {
    if (cfg->ports[i].valid && (i >= h->hw.num_ports || !port_ok(&cfg->ports[i]))) {
      return kXtmFwBadArg;
    }
  }
  for (uint32_t i = 0u; i < cfg->num_pgs; i++) {
    if (!pg_ok(&h->hw, &cfg->pgs[i])) {
      return kXtmFwBadArg;
    }
  }
  if (cfg->pool_valid && cfg->pool_cells > CELLS_MAX) {
    return kXtmFwBadArg;
  }
  if (cfg->wd.valid && !wd_ok(&cfg->wd)) {
    return kXtmFwBadArg;
  }
  if (!policers_ok(&h->hw, cfg)) {
    return kXtmFwBadArg;
  }
  if (cfg->dcqcn.valid) {
    for (uint32_t i = 0u; i < (uint32_t)kXtmFwDcqcnCount; i++) {
      if (cfg->dcqcn.set[i] &&
          (cfg->dcqcn.value[i] < kDcqcnInfo[i].min || cfg->dcqcn.value[i] > kDcqcnInfo[i].max)) {
        return kXtmFwBadArg;
      }
    }
  }
  return kXtmFwOk;
}

// ------------------------------------------------------------------ feature calls

xtm_fw_status_t xtm_fw_classify_set(const xtm_fw_t *h, const xtm_fw_class_cfg_t *c) {
  RET_IF_ERR(check_handle(h));
  if (c == NULL || !class_ok(&h->hw, c)) {
    return kXtmFwBadArg;
  }
  uint32_t qmap = 0u;
  uint32_t pmap = 0u;
  for (uint32_t t = 0u; t < XTM_FW_MAX_TCS; t++) {
    // fields TC0..TC7 are 4 bits apart (XTM_TC_QUEUE_MAP_TC<t>_OFFSET = 4 t)
    uint32_t off = t * (XTM_TC_QUEUE_MAP_TC1_OFFSET - XTM_TC_QUEUE_MAP_TC0_OFFSET);
    qmap = xtm_field32_write(qmap, XTM_TC_QUEUE_MAP_TC0_MASK, off, c->tc_queue[t]);
    pmap = xtm_field32_write(pmap, XTM_TC_PG_MAP_TC0_MASK, off, c->tc_pg[t]);
  }
  for (uint32_t r = 0u; r < 8u; r++) {
    uint32_t v = 0u;
    for (uint32_t d = 0u; d < 8u; d++) {
      uint32_t off = d * (XTM_DSCP_MAP_D1_OFFSET - XTM_DSCP_MAP_D0_OFFSET);
      v = xtm_field32_write(v, XTM_DSCP_MAP_D0_MASK, off, c->dscp_tc[r * 8u + d]);
    }
    RET_IF_ERR(wr(h, XTM_DSCP_MAP_REG_OFFSET_N(r), v));
  }
  RET_IF_ERR(wr(h, XTM_TC_QUEUE_MAP_REG_OFFSET, qmap));
  RET_IF_ERR(wr(h, XTM_TC_PG_MAP_REG_OFFSET, pmap));
  return kXtmFwOk;
}

static uint32_t q_cfg_value(const xtm_fw_queue_cfg_t *q, bool enable) {
  return fld(enable ? 1u : 0u, XTM_Q_CFG_ENABLE_MASK, XTM_Q_CFG_ENABLE_OFFSET) |
         fld(q->strict ? 1u : 0u, XTM_Q_CFG_STRICT_MASK, XTM_Q_CFG_STRICT_OFFSET) |
         fld(q->no_loss ? 1u : 0u, XTM_Q_CFG_NO_LOSS_MASK, XTM_Q_CFG_NO_LOSS_OFFSET) |
         fld(q->ecn_en ? 1u : 0u, XTM_Q_CFG_ECN_EN_MASK, XTM_Q_CFG_ECN_EN_OFFSET) |
         fld(q->nonect_tail_only ? 1u : 0u, XTM_Q_CFG_NONECT_TAIL_ONLY_MASK,
             XTM_Q_CFG_NONECT_TAIL_ONLY_OFFSET) |
         fld(q->mark_point, XTM_Q_CFG_MARK_POINT_MASK, XTM_Q_CFG_MARK_POINT_OFFSET) |
         fld(q->profile, XTM_Q_CFG_PROFILE_MASK, XTM_Q_CFG_PROFILE_OFFSET) |
         fld(q->pfc_rx_en ? 1u : 0u, XTM_Q_CFG_PFC_RX_EN_MASK, XTM_Q_CFG_PFC_RX_EN_OFFSET) |
         fld(q->pfc_prio, XTM_Q_CFG_PFC_PRIO_MASK, XTM_Q_CFG_PFC_PRIO_OFFSET) |
         fld(q->wd_en ? 1u : 0u, XTM_Q_CFG_WD_EN_MASK, XTM_Q_CFG_WD_EN_OFFSET) |
         fld(q->shaper_en ? 1u : 0u, XTM_Q_CFG_SHAPER_EN_MASK, XTM_Q_CFG_SHAPER_EN_OFFSET);
}

static uint32_t voq_index(const xtm_fw_t *h, const xtm_fw_queue_cfg_t *q) {
  return (uint32_t)q->port * h->hw.num_tcs + q->queue;
}

xtm_fw_status_t xtm_fw_queue_set(const xtm_fw_t *h, const xtm_fw_queue_cfg_t *q, bool enable) {
  RET_IF_ERR(check_handle(h));
  if (q == NULL || !queue_ok(&h->hw, q)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_VOQ_SEL_REG_OFFSET, voq_index(h, q)));
  RET_IF_ERR(wr(h, XTM_Q_CFG_REG_OFFSET, q_cfg_value(q, enable)));
  RET_IF_ERR(wr(h, XTM_Q_LIMIT_CELLS_REG_OFFSET, q->limit_cells));
  RET_IF_ERR(wr(h, XTM_Q_QUANTUM_REG_OFFSET, q->quantum_bytes));
  RET_IF_ERR(wr(h, XTM_Q_LAT_THRESH_REG_OFFSET, q->lat_thresh_cycles));
  RET_IF_ERR(wr(h, XTM_Q_SHAPER_RATE_REG_OFFSET, q->shaper_rate_q16));
  RET_IF_ERR(wr(h, XTM_Q_SHAPER_BURST_REG_OFFSET, q->shaper_burst_bytes));
  RET_IF_ERR(wr(h, XTM_Q_TARGET_RATE_REG_OFFSET, q->target_rate_q16));
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_queue_enable(const xtm_fw_t *h, const xtm_fw_queue_cfg_t *q) {
  RET_IF_ERR(check_handle(h));
  if (q == NULL || !queue_ok(&h->hw, q)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_VOQ_SEL_REG_OFFSET, voq_index(h, q)));
  RET_IF_ERR(wr(h, XTM_Q_CFG_REG_OFFSET, q_cfg_value(q, true)));
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_ecn_set_profile(const xtm_fw_t *h, uint32_t index,
                                       const xtm_fw_profile_cfg_t *p) {
  RET_IF_ERR(check_handle(h));
  if (p == NULL || index >= XTM_FW_NUM_PROFILES || !profile_ok(p)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_PROF_SEL_REG_OFFSET, index));
  for (uint32_t i = 0u; i < XTM_FW_NUM_POINTS; i++) {
    uint32_t f = i < p->npoints ? p->fill_q16[i] : 0u;
    uint32_t q = i < p->npoints ? p->prob_q16[i] : 0u;
    RET_IF_ERR(wr(h, XTM_PR_FILL_REG_OFFSET_N(i), f));
    RET_IF_ERR(wr(h, XTM_PR_PROB_REG_OFFSET_N(i), q));
  }
  uint32_t cfg = fld(p->interp ? 1u : 0u, XTM_PR_CFG_INTERP_MASK, XTM_PR_CFG_INTERP_OFFSET) |
                 fld(p->npoints, XTM_PR_CFG_NPOINTS_MASK, XTM_PR_CFG_NPOINTS_OFFSET);
  RET_IF_ERR(wr(h, XTM_PR_CFG_REG_OFFSET, cfg));
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_port_set_pfc(const xtm_fw_t *h, uint32_t port, const xtm_fw_port_cfg_t *p) {
  RET_IF_ERR(check_handle(h));
  if (p == NULL || port >= h->hw.num_ports || !port_ok(p)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_PORT_SEL_REG_OFFSET, port));
  RET_IF_ERR(wr(h, XTM_P_PAUSE_QUANTUM_REG_OFFSET, p->pause_quantum_q16));
  RET_IF_ERR(wr(h, XTM_P_PFC_QUANTA_REG_OFFSET, p->pfc_quanta));
  RET_IF_ERR(wr(h, XTM_P_PFC_REFRESH_REG_OFFSET, p->pfc_refresh_cycles));
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_port_enable(const xtm_fw_t *h, uint32_t port, const xtm_fw_port_cfg_t *p) {
  RET_IF_ERR(check_handle(h));
  if (p == NULL || port >= h->hw.num_ports || !port_ok(p)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_PORT_SEL_REG_OFFSET, port));
  RET_IF_ERR(wr(h, XTM_P_SHAPER_RATE_REG_OFFSET, p->shaper_rate_q16));
  RET_IF_ERR(wr(h, XTM_P_SHAPER_BURST_REG_OFFSET, p->shaper_burst_bytes));
  uint32_t cfg =
      fld(p->shaper_en ? 1u : 0u, XTM_P_SHAPER_CFG_EN_MASK, XTM_P_SHAPER_CFG_EN_OFFSET) |
      fld(p->ovh_bytes, XTM_P_SHAPER_CFG_OVH_BYTES_MASK, XTM_P_SHAPER_CFG_OVH_BYTES_OFFSET);
  RET_IF_ERR(wr(h, XTM_P_SHAPER_CFG_REG_OFFSET, cfg));
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_pfc_set_thresholds(const xtm_fw_t *h, const xtm_fw_pg_cfg_t *g) {
  RET_IF_ERR(check_handle(h));
  if (g == NULL || !pg_ok(&h->hw, g)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_PG_SEL_REG_OFFSET, (uint32_t)g->port * XTM_FW_NUM_PRIOS + g->prio));
  RET_IF_ERR(wr(h, XTM_G_XOFF_CELLS_REG_OFFSET, g->xoff_cells));
  RET_IF_ERR(wr(h, XTM_G_XON_CELLS_REG_OFFSET, g->xon_cells));
  RET_IF_ERR(wr(h, XTM_G_HDRM_CELLS_REG_OFFSET, g->hdrm_cells));
  RET_IF_ERR(wr(h, XTM_G_CFG_REG_OFFSET,
                fld(g->pfc_en ? 1u : 0u, XTM_G_CFG_PFC_EN_MASK, XTM_G_CFG_PFC_EN_OFFSET)));
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_pool_set(const xtm_fw_t *h, uint32_t pool_cells) {
  RET_IF_ERR(check_handle(h));
  if (pool_cells > CELLS_MAX) {
    return kXtmFwBadArg;
  }
  return wr(h, XTM_POOL_CELLS_REG_OFFSET, pool_cells);
}

xtm_fw_status_t xtm_fw_watchdog_set(const xtm_fw_t *h, const xtm_fw_wd_cfg_t *w) {
  RET_IF_ERR(check_handle(h));
  if (w == NULL || !wd_ok(w)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_WD_POLL_CYCLES_REG_OFFSET, w->poll_cycles));
  RET_IF_ERR(wr(h, XTM_WD_DETECT_POLLS_REG_OFFSET, w->detect_polls));
  RET_IF_ERR(wr(h, XTM_WD_RESTORE_POLLS_REG_OFFSET, w->restore_polls));
  uint32_t ctrl = fld(w->en ? 1u : 0u, XTM_WD_CTRL_EN_MASK, XTM_WD_CTRL_EN_OFFSET) |
                  fld(w->action, XTM_WD_CTRL_ACTION_MASK, XTM_WD_CTRL_ACTION_OFFSET);
  RET_IF_ERR(wr(h, XTM_WD_CTRL_REG_OFFSET, ctrl));
  return kXtmFwOk;
}

// Writes `value` to `off`, reads it back: a different value is kXtmFwReadback.
static xtm_fw_status_t wr_verify(const xtm_fw_t *h, uint32_t off, uint32_t value) {
  uint32_t back = 0u;
  RET_IF_ERR(wr(h, off, value));
  RET_IF_ERR(rd(h, off, &back));
  return back == value ? kXtmFwOk : kXtmFwReadback;
}

xtm_fw_status_t xtm_fw_policer_set(const xtm_fw_t *h, const xtm_fw_policer_cfg_t *p) {
  RET_IF_ERR(check_handle(h));
  if (p == NULL || !policer_ok(&h->hw, p)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_POL_SEL_REG_OFFSET,
                (uint32_t)p->port * XTM_FW_POLICERS_PER_PORT + (uint32_t)p->index));
  RET_IF_ERR(wr(h, XTM_POL_RATE_REG_OFFSET, p->rate_q16));
  RET_IF_ERR(wr(h, XTM_POL_BURST_REG_OFFSET, p->burst_bytes));
  uint32_t rate = 0u;
  uint32_t burst = 0u;
  RET_IF_ERR(rd(h, XTM_POL_RATE_REG_OFFSET, &rate));
  RET_IF_ERR(rd(h, XTM_POL_BURST_REG_OFFSET, &burst));
  return rate == p->rate_q16 && burst == p->burst_bytes ? kXtmFwOk : kXtmFwReadback;
}

uint32_t xtm_fw_pol_map_value(const xtm_fw_pol_map_cfg_t *m) {
  uint32_t v = 0u;
  // fields TC<t>_POL (3 bits) and TC<t>_EN are 4 bits apart per class
  const uint32_t step = XTM_P_POL_MAP_TC1_POL_OFFSET - XTM_P_POL_MAP_TC0_POL_OFFSET;
  for (uint32_t t = 0u; m != NULL && t < XTM_FW_MAX_TCS; t++) {
    v = xtm_field32_write(v, XTM_P_POL_MAP_TC0_POL_MASK, XTM_P_POL_MAP_TC0_POL_OFFSET + t * step,
                          m->tc_pol[t]);
    v = xtm_field32_write(v, XTM_P_POL_MAP_TC0_EN_MASK, XTM_P_POL_MAP_TC0_EN_OFFSET + t * step,
                          (uint32_t)(m->tc_en >> t) & 1u);
  }
  return v;
}

xtm_fw_status_t xtm_fw_pol_map_set(const xtm_fw_t *h, uint32_t port,
                                   const xtm_fw_pol_map_cfg_t *m) {
  RET_IF_ERR(check_handle(h));
  if (m == NULL || !pol_map_ok(&h->hw, port, m)) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_PORT_SEL_REG_OFFSET, port));
  return wr_verify(h, XTM_P_POL_MAP_REG_OFFSET, xtm_fw_pol_map_value(m));
}

xtm_fw_status_t xtm_fw_err_status(const xtm_fw_t *h, uint32_t *status, uint32_t *addr) {
  RET_IF_ERR(check_handle(h));
  if (status == NULL || addr == NULL) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(rd(h, XTM_ERR_STATUS_REG_OFFSET, status));
  RET_IF_ERR(rd(h, XTM_ERR_ADDR_REG_OFFSET, addr));
  return kXtmFwOk;
}

static xtm_fw_status_t rd64(const xtm_fw_t *h, uint32_t lo, uint64_t *v) {
  uint32_t l = 0u;
  uint32_t hi = 0u;
  RET_IF_ERR(rd(h, lo, &l));
  RET_IF_ERR(rd(h, lo + 4u, &hi));
  *v = (uint64_t)hi << 32 | l;
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_voq_counter(const xtm_fw_t *h, uint32_t voq, uint32_t lo_offset,
                                   uint64_t *value) {
  RET_IF_ERR(check_handle(h));
  if (value == NULL || voq >= h->hw.num_ports * h->hw.num_tcs || lo_offset < XTM_WIN_VOQ_BASE ||
      lo_offset >= XTM_WIN_VOQ_BASE + XTM_WIN_VOQ_SIZE) {
    return kXtmFwBadArg;
  }
  RET_IF_ERR(wr(h, XTM_VOQ_SEL_REG_OFFSET, voq));
  return rd64(h, lo_offset, value);
}

xtm_fw_status_t xtm_fw_counter(const xtm_fw_t *h, uint32_t sel_offset, uint32_t index,
                               uint32_t lo_offset, uint64_t *value) {
  RET_IF_ERR(check_handle(h));
  if (value == NULL) {
    return kXtmFwBadArg;
  }
  if (sel_offset == XTM_PORT_SEL_REG_OFFSET) {
    if (index >= h->hw.num_ports || lo_offset < XTM_WIN_PORT_BASE ||
        lo_offset >= XTM_WIN_PORT_BASE + XTM_WIN_PORT_SIZE) {
      return kXtmFwBadArg;
    }
  } else if (sel_offset == XTM_PG_SEL_REG_OFFSET) {
    if (index >= h->hw.num_ports * XTM_FW_NUM_PRIOS || lo_offset < XTM_WIN_PG_BASE ||
        lo_offset >= XTM_WIN_PG_BASE + XTM_WIN_PG_SIZE) {
      return kXtmFwBadArg;
    }
  } else if (sel_offset == XTM_POL_SEL_REG_OFFSET) {
    if (index >= h->hw.num_ports * XTM_FW_POLICERS_PER_PORT || lo_offset < XTM_WIN_POL_BASE ||
        lo_offset >= XTM_WIN_POL_BASE + XTM_WIN_POL_SIZE) {
      return kXtmFwBadArg;
    }
  } else if (sel_offset != 0u || lo_offset >= XTM_WIN_VOQ_BASE) {
    return kXtmFwBadArg;
  }
  if (sel_offset != 0u) {
    RET_IF_ERR(wr(h, sel_offset, index));
  }
  return rd64(h, lo_offset, value);
}

// ------------------------------------------------------------------ bring-up

static xtm_fw_status_t step_fail(xtm_fw_bringup_result_t *res, xtm_fw_step_t s,
                                 xtm_fw_status_t st) {
  res->failed_step = s;
  return st;
}

#define STEP(s, expr)                  \
  do {                                 \
    xtm_fw_status_t st_ = (expr);      \
    if (st_ != kXtmFwOk) {             \
      return step_fail(res, (s), st_); \
    }                                  \
  } while (0)

xtm_fw_status_t xtm_fw_bringup(const xtm_mmio_t *mmio, const xtm_fw_cfg_t *cfg,
                               const xtm_fw_bringup_opts_t *opts, xtm_fw_t *h,
                               xtm_fw_bringup_result_t *res) {
  if (mmio == NULL || mmio->ops == NULL || cfg == NULL || opts == NULL || h == NULL ||
      res == NULL || opts->init_max_polls == 0u) {
    return kXtmFwBadArg;
  }
  *res = (xtm_fw_bringup_result_t){.failed_step = kXtmFwStepNone};
  if (cfg->num_queues > XTM_FW_MAX_QUEUES || cfg->num_pgs > XTM_FW_MAX_PGS) {
    return step_fail(res, kXtmFwStepValidate, kXtmFwBadArg);
  }
  // Identify (reads only) and check the image against the parameters read, before the
  // first side effect; after a reset the block is identified again.
  STEP(kXtmFwStepIdentify, xtm_fw_init(mmio, h));
  STEP(kXtmFwStepValidate, xtm_fw_cfg_validate(h, cfg));
  if (opts->do_reset) {
    STEP(kXtmFwStepReset, xtm_mmio_reset(mmio));
    STEP(kXtmFwStepIdentify, xtm_fw_init(mmio, h));
  }
  STEP(kXtmFwStepWaitInit, xtm_fw_wait_init_done(h, opts->init_max_polls));
  if (cfg->cls.valid) {
    STEP(kXtmFwStepClassify, xtm_fw_classify_set(h, &cfg->cls));
  }
  for (uint32_t i = 0u; i < cfg->num_queues; i++) {
    STEP(kXtmFwStepQueues, xtm_fw_queue_set(h, &cfg->queues[i], false));
  }
  for (uint32_t i = 0u; i < XTM_FW_NUM_PROFILES; i++) {
    if (cfg->profiles[i].valid) {
      STEP(kXtmFwStepProfiles, xtm_fw_ecn_set_profile(h, i, &cfg->profiles[i]));
    }
  }
  for (uint32_t p = 0u; p < h->hw.num_ports; p++) {
    if (cfg->ports[p].valid) {
      STEP(kXtmFwStepPfc, xtm_fw_port_set_pfc(h, p, &cfg->ports[p]));
    }
  }
  if (cfg->pool_valid) {
    STEP(kXtmFwStepPfc, xtm_fw_pool_set(h, cfg->pool_cells));
  }
  for (uint32_t i = 0u; i < cfg->num_pgs; i++) {
    STEP(kXtmFwStepPfc, xtm_fw_pfc_set_thresholds(h, &cfg->pgs[i]));
  }
  if (cfg->wd.valid) {
    STEP(kXtmFwStepWatchdog, xtm_fw_watchdog_set(h, &cfg->wd));
  }
  // Policers after INIT_DONE (the POL window refuses accesses before, spec 3), each bucket
  // before the maps that send traffic to it; every value is read back.
  for (uint32_t i = 0u; i < cfg->num_policers; i++) {
    STEP(kXtmFwStepPolice, xtm_fw_policer_set(h, &cfg->policers[i]));
  }
  for (uint32_t p = 0u; p < h->hw.num_ports; p++) {
    if (cfg->pol_map[p].valid) {
      STEP(kXtmFwStepPolice, xtm_fw_pol_map_set(h, p, &cfg->pol_map[p]));
    }
  }
  // DCQCN parameters belong to the NIC block (rtl/dcqcn), which has no register map yet:
  // the image keeps them validated and the result says they are pending.
  res->dcqcn_pending = cfg->dcqcn.valid;
  for (uint32_t p = 0u; p < h->hw.num_ports; p++) {
    if (cfg->ports[p].valid) {
      STEP(kXtmFwStepEnable, xtm_fw_port_enable(h, p, &cfg->ports[p]));
    }
  }
  for (uint32_t i = 0u; i < cfg->num_queues; i++) {
    STEP(kXtmFwStepEnable, xtm_fw_queue_enable(h, &cfg->queues[i]));
  }
  STEP(kXtmFwStepCheck, xtm_fw_err_status(h, &res->err_status, &res->err_addr));
  if (res->err_status != 0u) {
    return step_fail(res, kXtmFwStepCheck, kXtmFwHwError);
  }
  return kXtmFwOk;
}
