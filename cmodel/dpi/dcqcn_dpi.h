// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_dpi: the DCQCN C model (cmodel/dcqcn/dcqcn.h) behind a DPI-C interface, for any
// IEEE 1800 simulator. The SystemVerilog side is cmodel/dpi/dcqcn_dpi_pkg.sv; these are
// the C prototypes of the same functions (C types of IEEE 1800-2017 Annex H, Table H.1).
// Conventions as in xtm_dpi.h: >= 0 answers, < 0 errors (dpi_status_t) with a message in
// dcqcn_dpi_last_error(); handles are opaque tokens, checked on every call.

#ifndef XTM_CMODEL_DPI_DCQCN_DPI_H_
#define XTM_CMODEL_DPI_DCQCN_DPI_H_

#include "svdpi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DCQCN_DPI_ABI_VERSION 2u  // 2: spec-dcqcn 2.0 pending RP events in the QP state
#define DCQCN_DPI_MAX_RATE 18u    // rate updates per cycle the vectors hold (DCQCN_MAX_RATE_UPD)

int dcqcn_dpi_abi_check(unsigned int abi_version, unsigned int params_bits, unsigned int in_bits,
                        unsigned int out_bits, unsigned int qp_state_bits);
void dcqcn_dpi_params_default(svBitVecVal *params);
int dcqcn_dpi_create(const svBitVecVal *params, void **h);
int dcqcn_dpi_destroy(void *h);
int dcqcn_dpi_reset(void *h);
int dcqcn_dpi_get_params(void *h, svBitVecVal *params);
int dcqcn_dpi_instances(void);

int dcqcn_dpi_step(void *h, const svBitVecVal *in, svBitVecVal *out, svBitVecVal *rate_qp,
                   svBitVecVal *rate_rc, svBitVecVal *rate_rt, svBitVecVal *rate_alpha);
int dcqcn_dpi_advance_to(void *h, unsigned long long target, svBitVecVal *out, svBitVecVal *rate_qp,
                         svBitVecVal *rate_rc, svBitVecVal *rate_rt, svBitVecVal *rate_alpha);
int dcqcn_dpi_cycle(void *h, unsigned long long *cycle);
int dcqcn_dpi_next_event(void *h, unsigned long long *cycle);
int dcqcn_dpi_set_eager(void *h, svBit eager);
int dcqcn_dpi_scan_period(void *h, unsigned int *period);

int dcqcn_dpi_csr_read(void *h, unsigned int addr, unsigned int *data);
int dcqcn_dpi_csr_write(void *h, unsigned int addr, unsigned int data);
int dcqcn_dpi_param_set(void *h, const char *name, unsigned int value);

int dcqcn_dpi_qp_state(void *h, unsigned int qp, svBitVecVal *state);
int dcqcn_dpi_counter(void *h, unsigned int idx, unsigned long long *value);
int dcqcn_dpi_qp_counter(void *h, unsigned int qp, unsigned int idx, unsigned long long *value);

const char *dcqcn_dpi_last_error(void);
const char *dcqcn_dpi_status_name(int status);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_CMODEL_DPI_DCQCN_DPI_H_
