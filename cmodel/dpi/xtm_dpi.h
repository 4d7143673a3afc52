// SPDX-License-Identifier: Apache-2.0
//
// xtm_dpi: the xtm C model (cmodel/xtm/xtm.h) behind a DPI-C interface, for any IEEE 1800
// simulator. The SystemVerilog side is cmodel/dpi/xtm_dpi_pkg.sv (imports, packed struct
// types, status codes); these are the C prototypes of the same functions, with the C types
// of IEEE 1800-2017 Annex H, Table H.1 (int -> int, int unsigned -> unsigned int,
// longint unsigned -> unsigned long long, bit -> svBit, chandle -> void *, string ->
// const char *, packed arrays and packed structs -> svBitVecVal * in the canonical
// representation). Only svdpi.h is needed; docs/dpi.md is the user guide.
//
// Return values: >= 0 answers (0 OK; 1 the documented "no": CSR error, no output, broken
// invariant, fault not applicable; advance_to returns 1 when it stopped on an output),
// < 0 errors (dpi_status_t in dpi_handle.h: -1 bad handle, -2 bad argument, ...), with a
// message in xtm_dpi_last_error(). No function crashes or aborts on a bad handle or
// argument.

#ifndef XTM_CMODEL_DPI_XTM_DPI_H_
#define XTM_CMODEL_DPI_XTM_DPI_H_

#include "svdpi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define XTM_DPI_ABI_VERSION 2u  // 2: spec 2.0 state fields and faults
#define XTM_DPI_OUT_LATENCY 6u  // spec 15.1 (= XTM_OUT_LATENCY of cmodel/xtm/xtm.h)
#define XTM_DPI_MAX_PORTS 64u   // the packed port vectors are sized for this many ports

int xtm_dpi_abi_check(unsigned int abi_version, unsigned int params_bits, unsigned int in_bits,
                      unsigned int out_bits, unsigned int voq_state_bits,
                      unsigned int pg_state_bits, unsigned int global_state_bits);
void xtm_dpi_params_default(svBitVecVal *params);
int xtm_dpi_create(const svBitVecVal *params, void **h);
int xtm_dpi_destroy(void *h);
int xtm_dpi_reset(void *h);
int xtm_dpi_get_params(void *h, svBitVecVal *params);
int xtm_dpi_instances(void);

int xtm_dpi_step(void *h, const svBitVecVal *in, const svBitVecVal *pfc_rx_vec,
                 const svBitVecVal *pfc_rx_quanta, svBitVecVal *out, svBitVecVal *deq,
                 svBitVecVal *pfc_tx_vec, svBitVecVal *pfc_tx_quanta);
int xtm_dpi_advance_to(void *h, unsigned long long target, svBitVecVal *out, svBitVecVal *deq,
                       svBitVecVal *pfc_tx_vec, svBitVecVal *pfc_tx_quanta);
int xtm_dpi_cycle(void *h, unsigned long long *cycle);
int xtm_dpi_next_event(void *h, unsigned long long *cycle);
int xtm_dpi_set_tx_ready(void *h, unsigned long long mask);
int xtm_dpi_set_eager(void *h, svBit eager);

int xtm_dpi_csr_read(void *h, unsigned int addr, unsigned int *data);
int xtm_dpi_csr_write(void *h, unsigned int addr, unsigned int data);

int xtm_dpi_voq_state(void *h, unsigned int voq, svBitVecVal *state);
int xtm_dpi_pg_state(void *h, unsigned int port, unsigned int prio, svBitVecVal *state);
int xtm_dpi_global_state(void *h, svBitVecVal *state);
int xtm_dpi_voq_counter(void *h, unsigned int voq, unsigned int idx, unsigned long long *value);
int xtm_dpi_pg_counter(void *h, unsigned int port, unsigned int prio, unsigned int idx,
                       unsigned long long *value);
int xtm_dpi_port_counter(void *h, unsigned int port, unsigned int idx, unsigned long long *value);
int xtm_dpi_global_counter(void *h, unsigned int idx, unsigned long long *value);
// The ingress policer k = in_port * 8 + j (spec 4.7): its stored bucket, and its counters
// (XTM_POLCNT_*).
int xtm_dpi_pol_state(void *h, unsigned int k, unsigned long long *tok, unsigned long long *u);
int xtm_dpi_pol_counter(void *h, unsigned int k, unsigned int idx, unsigned long long *value);
int xtm_dpi_check_invariants(void *h);
int xtm_dpi_inject_fault(void *h, unsigned int fault);

const char *xtm_dpi_last_error(void);
const char *xtm_dpi_status_name(int status);
const char *xtm_dpi_reason_name(unsigned int reason);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_CMODEL_DPI_XTM_DPI_H_
