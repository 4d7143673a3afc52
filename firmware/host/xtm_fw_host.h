// SPDX-License-Identifier: Apache-2.0
//
// Host-side pieces of the firmware (not part of the freestanding core): the C-model MMIO
// backend, the CSR transaction trace writer (tab-separated, docs/firmware.md section
// "Traces and dumps") and the final register dump.

#ifndef XTM_FIRMWARE_HOST_XTM_FW_HOST_H_
#define XTM_FIRMWARE_HOST_XTM_FW_HOST_H_

#include <stdint.h>
#include <stdio.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "cmodel/xtm/xtm.h"
#include "firmware/xtm_fw.h"
#include "firmware/xtm_mmio.h"

#ifdef __cplusplus
extern "C" {
#endif

// C-model backend: every access is one model cycle (xtm_step with a CSR request, all MACs
// ready), as a bus master would issue it; a csr_rsp.err answer is kXtmFwBusError. Reset
// is xtm_reset(). With `apb` set (after init), each access is one APB transfer of spec 10.1:
// an idle model cycle (no CSR request, all MACs ready) for the setup cycle, the access
// cycle, then XTM_OUT_LATENCY idle cycles (the wait states and the completing cycle), 8
// cycles in all, so the model sees exactly the cycles of the co-simulation's APB master
// (tb/xtm_tb.cpp, firmware mode) and a poll loop takes the same number of reads on both.
typedef struct xtm_mmio_model {
  xtm_t *model;
  uint64_t accesses;
  bool apb;
} xtm_mmio_model_t;

XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_mmio_model_init(xtm_mmio_t *out, xtm_mmio_model_t *state,
                                                       xtm_t *model);

// The same for the dcqcn block's C model (libdcqcn): one dcqcn_step per access.
typedef struct dcqcn_mmio_model {
  dcqcn_t *model;
  uint64_t accesses;
} dcqcn_mmio_model_t;

XTM_FW_WARN_UNUSED xtm_fw_status_t dcqcn_mmio_model_init(xtm_mmio_t *out, dcqcn_mmio_model_t *state,
                                                         dcqcn_t *model);

// Writes the transactions as TSV: a header line, then `seq op addr data name` per record
// (docs/firmware.md). `writes_only` keeps only the W records (seq still counts all).
void xtm_fw_trace_write_tsv(FILE *f, const xtm_mmio_txn_t *t, size_t n, bool writes_only);

// Reads every rw register (globals, then every entry of every window) through `mmio` and
// writes `addr name value` lines. Returns kXtmFwOk or the first access error.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_regdump(FILE *f, const xtm_fw_t *h);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_FIRMWARE_HOST_XTM_FW_HOST_H_
