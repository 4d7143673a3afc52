// SPDX-License-Identifier: Apache-2.0
//
// libdcqcn CSR interface (docs/spec-dcqcn.md D9). Address decode, access types, reset values
// and legal ranges come from the generated register table (dcqcn_regs_build), so the model
// cannot drift from rtl/dcqcn/data/dcqcn_regs.toml. RTL twin: rtl/dcqcn/dcqcn_csr.sv.

#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn_internal.h"

// The counter enums follow the register map order.
_Static_assert(DCQCN_PACE_EARLY_LO_REG_OFFSET ==
                   DCQCN_CNP_RX_LO_REG_OFFSET + 8 * kDcqcnGcntPaceEarly,
               "global counter layout");
_Static_assert(DCQCN_Q_CNP_TX_LO_REG_OFFSET == DCQCN_Q_CNP_RX_LO_REG_OFFSET + 8 * kDcqcnQcntCnpTx,
               "QP counter layout");
_Static_assert(DCQCN_MIN_TIME_BETWEEN_CNPS_REG_OFFSET < 0x100, "parameters in greg[]");

static void reg_params(const dcqcn_t *m, dcqcn_reg_params_t *rp) {
  dcqcn_reg_params_default(rp);
  rp->num_qps = m->prm.num_qps;
  rp->scan_width = m->prm.scan_width;
}

dcqcn_status_t dcqcn_csr_init(dcqcn_t *m) {
  dcqcn_reg_params_t rp;
  reg_params(m, &rp);
  m->regs = calloc(DCQCN_REG_COUNT, sizeof(dcqcn_reg_desc_t));
  m->decode = malloc(sizeof(int16_t) * 0x4000);
  if (m->regs == NULL || m->decode == NULL) {
    return kDcqcnNoMem;
  }
  m->nregs = (uint32_t)dcqcn_regs_build(&rp, m->regs, DCQCN_REG_COUNT);
  for (uint32_t i = 0; i < 0x4000; i++) {
    m->decode[i] = -1;
  }
  for (uint32_t i = 0; i < m->nregs; i++) {
    m->decode[m->regs[i].offset >> 2] = (int16_t)i;
  }
  return kDcqcnOk;
}

void dcqcn_csr_reset_values(dcqcn_t *m) {
  memset(m->greg, 0, sizeof(m->greg));
  for (uint32_t i = 0; i < m->nregs; i++) {
    const dcqcn_reg_desc_t *r = &m->regs[i];
    if (r->window < 0 && r->swaccess == kDcqcnSwRw && r->offset < 0x100) {
      m->greg[r->offset >> 2] = r->resval;
    }
  }
  m->qp_sel = 0;
  m->err_status = m->err_addr = m->cnt_hi = m->cnt_lo_snap_hi = 0;
}

static uint32_t sat32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

static uint64_t counter_value(const dcqcn_t *m, uint16_t off) {
  if (off >= DCQCN_WIN_QP_BASE && off < DCQCN_WIN_QP_BASE + DCQCN_WIN_QP_SIZE) {
    return m->qp[m->qp_sel].cnt[(off - DCQCN_Q_CNP_RX_LO_REG_OFFSET) >> 3];
  }
  return m->gcnt[(off - DCQCN_CNP_RX_LO_REG_OFFSET) >> 3];
}

// Cycles from S(t) (t = m->t) until an absolute deadline, 0 when due or disarmed.
static uint32_t remain(uint64_t due, uint64_t t) {
  return (due == DCQCN_NEVER || due <= t) ? 0 : sat32(due - t);
}

static uint32_t read_value(const dcqcn_t *m, const dcqcn_reg_desc_t *r) {
  uint16_t off = r->offset;
  uint64_t t = m->t;
  if (r->counter64) {
    return r->is_hi ? m->cnt_hi : (uint32_t)counter_value(m, off);
  }
  uint32_t q = m->qp_sel;
  const dcqcn_qp_t *s = &m->qp[q];
  uint64_t last = t == 0 ? 0 : t - 1;
  if (s->init_pend) {
    // a pending INIT reads as the INIT word with the current cap (D9)
    switch (off) {
      case DCQCN_Q_RC_REG_OFFSET:
      case DCQCN_Q_RT_REG_OFFSET:
        return dcqcn_rate_cap(m);
      case DCQCN_Q_ALPHA_REG_OFFSET:
        return DCQCN_ALPHA_MAX;
      case DCQCN_Q_STATUS_REG_OFFSET:
      case DCQCN_Q_BYTE_COUNT_REG_OFFSET:
      case DCQCN_Q_ALPHA_REMAIN_REG_OFFSET:
      case DCQCN_Q_DEC_REMAIN_REG_OFFSET:
      case DCQCN_Q_INC_REMAIN_REG_OFFSET:
        return 0;
      default:
        break;
    }
  }
  switch (off) {
    case DCQCN_CTRL_REG_OFFSET:
      return 0;
    case DCQCN_ERR_STATUS_REG_OFFSET:
      return m->err_status;
    case DCQCN_ERR_ADDR_REG_OFFSET:
      return m->err_addr;
    case DCQCN_CNT_HI_REG_OFFSET:
      return m->cnt_hi;
    case DCQCN_QP_SEL_REG_OFFSET:
      return m->qp_sel;
    case DCQCN_Q_CTRL_REG_OFFSET:
      return 0;
    case DCQCN_Q_STATUS_REG_OFFSET:
      return (s->active ? 1u : 0u) << DCQCN_Q_STATUS_ACTIVE_OFFSET |
             (s->cnp_alpha ? 1u : 0u) << DCQCN_Q_STATUS_CNP_ALPHA_OFFSET |
             (s->cnp_dec ? 1u : 0u) << DCQCN_Q_STATUS_CNP_DEC_OFFSET |
             (uint32_t)s->stage_t << DCQCN_Q_STATUS_STAGE_T_OFFSET |
             (uint32_t)s->stage_bc << DCQCN_Q_STATUS_STAGE_BC_OFFSET;
    case DCQCN_Q_RC_REG_OFFSET:
      return s->rc;
    case DCQCN_Q_RT_REG_OFFSET:
      return s->rt;
    case DCQCN_Q_ALPHA_REG_OFFSET:
      return dcqcn_alpha_at(m, q, last);
    case DCQCN_Q_BYTE_COUNT_REG_OFFSET: {
      bool pending;
      return dcqcn_byte_count_at(m, q, last, &pending);
    }
    case DCQCN_Q_ALPHA_REMAIN_REG_OFFSET:
      return remain(dcqcn_due_at(m, q, kTimAlpha, last), t);
    case DCQCN_Q_DEC_REMAIN_REG_OFFSET:
      return remain(dcqcn_due_at(m, q, kTimDec, last), t);
    case DCQCN_Q_INC_REMAIN_REG_OFFSET:
      return remain(dcqcn_due_at(m, q, kTimInc, last), t);
    case DCQCN_Q_NEXT_SEND_REG_OFFSET: {
      uint64_t ns = (s->pace_q8 + 255u) >> 8;
      return ns > t ? sat32(ns - t) : 0;
    }
    default:
      break;
  }
  if (r->swaccess == kDcqcnSwRw && off < 0x100) {
    return m->greg[off >> 2];
  }
  return r->resval;  // identification and HW_PARAMS
}

static void csr_error(dcqcn_t *m, uint32_t bit, uint16_t addr) {
  m->err_status |= 1u << bit;
  m->err_addr = addr;
}

static int16_t decode(const dcqcn_t *m, uint16_t addr) {
  return (addr & 3u) != 0 ? -1 : m->decode[addr >> 2];
}

uint32_t dcqcn_csr_sample(dcqcn_t *m, uint16_t addr, bool *err, int16_t *idx) {
  int16_t i = decode(m, addr);
  *idx = i;
  if (i < 0) {
    csr_error(m, DCQCN_ERR_STATUS_UNMAPPED_BIT, addr);
    *err = true;
    return 0;
  }
  const dcqcn_reg_desc_t *r = &m->regs[i];
  // Lazy increase firings (D13) change T and the increase counters: apply them first.
  if (m->t > 0) {
    if (r->window >= 0) {
      dcqcn_catch_up_qp(m, m->qp_sel, m->t - 1);
    } else if (r->counter64) {
      dcqcn_unpark_all(m, m->t - 1);
    }
  }
  if (r->counter64 && !r->is_hi) {
    m->cnt_lo_snap_hi = (uint32_t)(counter_value(m, r->offset) >> 32);
  }
  *err = false;
  return read_value(m, r);
}

void dcqcn_csr_read_effects(dcqcn_t *m, int16_t idx) {
  const dcqcn_reg_desc_t *r = &m->regs[idx];
  if (r->counter64 && !r->is_hi) {
    m->cnt_hi = m->cnt_lo_snap_hi;
  }
}

static bool legal(const dcqcn_reg_desc_t *r, uint32_t data) {
  for (uint32_t f = 0; f < r->nfields; f++) {
    const dcqcn_reg_field_t *fd = &r->fields[f];
    uint32_t mask = fd->width >= 32 ? UINT32_MAX : ((1u << fd->width) - 1u);
    uint32_t v = (data >> fd->lsb) & mask;
    if (v < fd->min || v > fd->max) {
      return false;
    }
  }
  return true;
}

bool dcqcn_csr_write_apply(dcqcn_t *m, uint16_t addr, uint32_t data, uint64_t t_next) {
  int16_t i = decode(m, addr);
  if (i < 0) {
    csr_error(m, DCQCN_ERR_STATUS_UNMAPPED_BIT, addr);
    return false;
  }
  const dcqcn_reg_desc_t *r = &m->regs[i];
  if (r->swaccess == kDcqcnSwRo || r->swaccess == kDcqcnSwRc) {
    csr_error(m, DCQCN_ERR_STATUS_RO_WRITE_BIT, addr);
    return false;
  }
  if (!legal(r, data)) {
    csr_error(m, DCQCN_ERR_STATUS_ILLEGAL_BIT, addr);
    return false;
  }
  data &= r->wmask;
  switch (r->offset) {
    case DCQCN_CTRL_REG_OFFSET:
      if (data & (1u << DCQCN_CTRL_CLR_CNT_BIT)) {
        dcqcn_unpark_all(m, t_next == 0 ? 0 : t_next - 1);  // firings up to now are cleared
        dcqcn_clear_counters(m);
      }
      return true;
    case DCQCN_ERR_STATUS_REG_OFFSET:
      m->err_status &= ~data;
      return true;
    case DCQCN_QP_SEL_REG_OFFSET:
      m->qp_sel = data;
      return true;
    case DCQCN_Q_CTRL_REG_OFFSET:
      if (data & (1u << DCQCN_Q_CTRL_INIT_BIT)) {
        dcqcn_qp_init_request(m, m->qp_sel, t_next);  // counters are kept
      }
      return true;
    default:
      break;
  }
  // A parameter: lazy timers' past firings used the old periods (D13).
  dcqcn_unpark_all(m, t_next == 0 ? 0 : t_next - 1);
  m->greg[r->offset >> 2] = data;
  dcqcn_resettle_all(m);
  return true;
}

bool dcqcn_csr_read(dcqcn_t *m, uint16_t addr, uint32_t *data) {
  bool err = false;
  int16_t idx;
  uint32_t v = dcqcn_csr_sample(m, addr, &err, &idx);
  if (data != NULL) {
    *data = v;
  }
  if (!err) {
    dcqcn_csr_read_effects(m, idx);
  }
  return !err;
}

bool dcqcn_csr_write(dcqcn_t *m, uint16_t addr, uint32_t data) {
  return dcqcn_csr_write_apply(m, addr, data, m->t);
}

// ------------------------------------------------------------------ driver-facing names

static const char *const kParamNames[] = {"RPG_TIME_RESET",
                                          "RPG_BYTE_RESET",
                                          "RPG_THRESHOLD",
                                          "RPG_AI_RATE",
                                          "RPG_HAI_RATE",
                                          "RPG_GD",
                                          "RPG_MIN_DEC_FAC",
                                          "RPG_MIN_RATE",
                                          "RPG_MAX_RATE",
                                          "RATE_TO_SET_ON_FIRST_CNP",
                                          "DCE_TCP_G",
                                          "DCE_TCP_RTT",
                                          "INITIAL_ALPHA_VALUE",
                                          "CLAMP_TGT_RATE",
                                          "CLAMP_TGT_RATE_AFTER_TIME_INC",
                                          "RATE_REDUCE_MONITOR_PERIOD",
                                          "MIN_TIME_BETWEEN_CNPS",
                                          "CYCLES_PER_US",
                                          "LINE_RATE"};
#define kNumParamNames (sizeof(kParamNames) / sizeof(kParamNames[0]))

const char *dcqcn_param_name(uint32_t i) { return i < kNumParamNames ? kParamNames[i] : NULL; }

dcqcn_status_t dcqcn_param_lookup(const char *name, uint16_t *addr, uint32_t *min, uint32_t *max) {
  if (name == NULL || addr == NULL || min == NULL || max == NULL) {
    return kDcqcnBadArg;
  }
  bool known = false;
  for (uint32_t i = 0; i < kNumParamNames; i++) {
    known = known || strcmp(kParamNames[i], name) == 0;
  }
  if (!known) {
    return kDcqcnBadArg;
  }
  dcqcn_reg_params_t rp;
  dcqcn_reg_params_default(&rp);
  dcqcn_reg_desc_t regs[DCQCN_REG_COUNT];
  size_t n = dcqcn_regs_build(&rp, regs, DCQCN_REG_COUNT);
  for (size_t i = 0; i < n && i < DCQCN_REG_COUNT; i++) {
    if (strcmp(regs[i].name, name) == 0 && regs[i].nfields == 1) {
      const dcqcn_reg_field_t *f = &regs[i].fields[0];
      *addr = regs[i].offset;
      *min = f->min;
      *max = f->width >= 32 ? f->max
                            : (f->max < (1u << f->width) - 1u ? f->max : (1u << f->width) - 1u);
      return kDcqcnOk;
    }
  }
  return kDcqcnBadArg;
}

dcqcn_status_t dcqcn_param_set(dcqcn_t *m, const char *name, uint32_t value) {
  uint16_t addr;
  uint32_t lo, hi;
  if (m == NULL || dcqcn_param_lookup(name, &addr, &lo, &hi) != kDcqcnOk || value < lo ||
      value > hi) {
    return kDcqcnBadArg;
  }
  return dcqcn_csr_write(m, addr, value) ? kDcqcnOk : kDcqcnBadArg;
}
