// SPDX-License-Identifier: Apache-2.0
//
// dcqcn block driver core (freestanding). One register per mlxconfig parameter, offsets
// from the generated header only.

#include "firmware/dcqcn_fw.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

static const uint32_t kOffset[kXtmFwDcqcnCount] = {
    [kXtmFwDcqcnDceTcpG] = DCQCN_DCE_TCP_G_REG_OFFSET,
    [kXtmFwDcqcnDceTcpRtt] = DCQCN_DCE_TCP_RTT_REG_OFFSET,
    [kXtmFwDcqcnInitialAlphaValue] = DCQCN_INITIAL_ALPHA_VALUE_REG_OFFSET,
    [kXtmFwDcqcnRateToSetOnFirstCnp] = DCQCN_RATE_TO_SET_ON_FIRST_CNP_REG_OFFSET,
    [kXtmFwDcqcnRpgMinDecFac] = DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET,
    [kXtmFwDcqcnRpgMinRate] = DCQCN_RPG_MIN_RATE_REG_OFFSET,
    [kXtmFwDcqcnRpgMaxRate] = DCQCN_RPG_MAX_RATE_REG_OFFSET,
    [kXtmFwDcqcnRpgGd] = DCQCN_RPG_GD_REG_OFFSET,
    [kXtmFwDcqcnRateReduceMonitorPeriod] = DCQCN_RATE_REDUCE_MONITOR_PERIOD_REG_OFFSET,
    [kXtmFwDcqcnRpgTimeReset] = DCQCN_RPG_TIME_RESET_REG_OFFSET,
    [kXtmFwDcqcnRpgByteReset] = DCQCN_RPG_BYTE_RESET_REG_OFFSET,
    [kXtmFwDcqcnRpgThreshold] = DCQCN_RPG_THRESHOLD_REG_OFFSET,
    [kXtmFwDcqcnRpgAiRate] = DCQCN_RPG_AI_RATE_REG_OFFSET,
    [kXtmFwDcqcnRpgHaiRate] = DCQCN_RPG_HAI_RATE_REG_OFFSET,
    [kXtmFwDcqcnClampTgtRate] = DCQCN_CLAMP_TGT_RATE_REG_OFFSET,
    [kXtmFwDcqcnClampTgtRateAfterTimeInc] = DCQCN_CLAMP_TGT_RATE_AFTER_TIME_INC_REG_OFFSET,
    [kXtmFwDcqcnMinTimeBetweenCnps] = DCQCN_MIN_TIME_BETWEEN_CNPS_REG_OFFSET,
};

uint32_t dcqcn_fw_param_offset(xtm_fw_dcqcn_param_t p) {
  if ((unsigned)p >= (unsigned)kXtmFwDcqcnCount) {
    return 0u;
  }
  return kOffset[p];
}

xtm_fw_status_t dcqcn_fw_init(const xtm_mmio_t *mmio, dcqcn_fw_t *h) {
  if (mmio == NULL || mmio->ops == NULL || h == NULL) {
    return kXtmFwBadArg;
  }
  uint32_t v = 0u;
  xtm_fw_status_t st = xtm_mmio_read32(mmio, DCQCN_BLOCK_TYPE_REG_OFFSET, &v);
  if (st != kXtmFwOk) {
    return st;
  }
  if (v != DCQCN_BLOCK_TYPE_VALUE) {
    return kXtmFwBadBlockType;
  }
  st = xtm_mmio_read32(mmio, DCQCN_VERSION_REG_OFFSET, &v);
  if (st != kXtmFwOk) {
    return st;
  }
  if ((v >> DCQCN_VERSION_MINOR_OFFSET) != (DCQCN_VERSION_VALUE >> DCQCN_VERSION_MINOR_OFFSET)) {
    return kXtmFwBadVersion;
  }
  st = xtm_mmio_read32(mmio, DCQCN_HW_PARAMS_REG_OFFSET, &v);
  if (st != kXtmFwOk) {
    return st;
  }
  *h = (dcqcn_fw_t){
      .mmio = *mmio,
      .num_qps = xtm_field32_read(v, DCQCN_HW_PARAMS_NUM_QPS_MASK, DCQCN_HW_PARAMS_NUM_QPS_OFFSET),
      .initialised = true,
  };
  return kXtmFwOk;
}

xtm_fw_status_t dcqcn_fw_set_params(const dcqcn_fw_t *h, const xtm_fw_dcqcn_cfg_t *p,
                                    uint32_t cycles_per_us) {
  if (h == NULL || p == NULL) {
    return kXtmFwBadArg;
  }
  if (!h->initialised) {
    return kXtmFwNotInit;
  }
  if (cycles_per_us == 0u || cycles_per_us > DCQCN_CYCLES_PER_US_CYCLES_MASK) {
    return kXtmFwBadArg;
  }
  for (uint32_t i = 0u; i < (uint32_t)kXtmFwDcqcnCount; i++) {
    const xtm_fw_dcqcn_info_t *info = xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)i);
    if (p->set[i] && (info == NULL || p->value[i] < info->min || p->value[i] > info->max)) {
      return kXtmFwBadArg;
    }
  }
  xtm_fw_status_t st = xtm_mmio_write32(&h->mmio, DCQCN_CYCLES_PER_US_REG_OFFSET, cycles_per_us);
  if (st != kXtmFwOk) {
    return st;
  }
  for (uint32_t i = 0u; i < (uint32_t)kXtmFwDcqcnCount; i++) {
    if (!p->set[i]) {
      continue;
    }
    st = xtm_mmio_write32(&h->mmio, kOffset[i], p->value[i]);
    if (st != kXtmFwOk) {
      return st;
    }
  }
  uint32_t err = 0u;
  st = xtm_mmio_read32(&h->mmio, DCQCN_ERR_STATUS_REG_OFFSET, &err);
  if (st != kXtmFwOk) {
    return st;
  }
  return err == 0u ? kXtmFwOk : kXtmFwHwError;
}
