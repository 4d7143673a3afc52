// SPDX-License-Identifier: Apache-2.0
//
// Firmware driver of the dcqcn block (NIC reaction/notification point, rtl/dcqcn). Same
// rules as the xtm driver: freestanding C11, no allocation, only the MMIO seam, status
// enums, every argument checked before the first access. It shares the seam, the
// parameter image type (xtm_fw_dcqcn_cfg_t) and the mlxconfig range table
// (xtm_fw_dcqcn_info) with the xtm driver, and never touches the xtm block.

#ifndef XTM_FIRMWARE_DCQCN_FW_H_
#define XTM_FIRMWARE_DCQCN_FW_H_

#include <stdbool.h>
#include <stdint.h>

#include "firmware/xtm_fw.h"
#include "firmware/xtm_mmio.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dcqcn_fw {
  xtm_mmio_t mmio;
  uint32_t num_qps;
  bool initialised;
} dcqcn_fw_t;

// Reads BLOCK_TYPE ('DCQN'), VERSION (major/minor of the generated header) and HW_PARAMS.
XTM_FW_WARN_UNUSED xtm_fw_status_t dcqcn_fw_init(const xtm_mmio_t *mmio, dcqcn_fw_t *h);
// Writes CYCLES_PER_US (1..65535) and every parameter set in p, in xtm_fw_dcqcn_param_t
// order, then reads ERR_STATUS (non-zero -> kXtmFwHwError).
XTM_FW_WARN_UNUSED xtm_fw_status_t dcqcn_fw_set_params(const dcqcn_fw_t *h,
                                                       const xtm_fw_dcqcn_cfg_t *p,
                                                       uint32_t cycles_per_us);
// The register offset of a parameter (0 for an invalid one).
uint32_t dcqcn_fw_param_offset(xtm_fw_dcqcn_param_t p);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_FIRMWARE_DCQCN_FW_H_
