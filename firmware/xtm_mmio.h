// SPDX-License-Identifier: Apache-2.0
//
// The MMIO seam of the xtm firmware (STYLE rule 30). The driver core reaches the traffic
// manager's registers only through an xtm_mmio_t: a table of three function pointers plus
// an opaque context. Backends:
//   kXtmMmioBackendVolatile  real hardware: a volatile pointer at a base address (here);
//   kXtmMmioBackendModel     the C model, one CSR access per xtm_step (firmware/host/);
//   kXtmMmioBackendMock      expected-access queues for Check tests (firmware/tests/);
//   kXtmMmioBackendCosim     the APB master of the SystemC testbench (tb/xtm_tb.cpp, +fw);
//   kXtmMmioBackendTrace     a wrapper that records every access of an inner backend.
// Freestanding C11: stdint.h, stddef.h and stdbool.h only; nothing is allocated.

#ifndef XTM_FIRMWARE_XTM_MMIO_H_
#define XTM_FIRMWARE_XTM_MMIO_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define XTM_FW_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define XTM_FW_WARN_UNUSED
#endif

// Every firmware call returns one of these (STYLE rule 29).
typedef enum xtm_fw_status {
  kXtmFwOk = 0,
  kXtmFwBadArg = 1,        // NULL pointer or a value outside its range; nothing was touched
  kXtmFwBusError = 2,      // the backend reported an access error (APB PSLVERR, model err)
  kXtmFwBadBlockType = 3,  // BLOCK_TYPE is not XTM_BLOCK_TYPE_VALUE
  kXtmFwBadVersion = 4,    // VERSION major/minor differ from the header the firmware was built with
  kXtmFwTimeout = 5,       // a poll ran out of its budget
  kXtmFwHwError = 6,       // ERR_STATUS was set after programming
  kXtmFwUnsupported = 7,   // the backend cannot do this (e.g. reset on real hardware)
  kXtmFwNotInit = 8,       // the handle was not initialised by xtm_fw_init
  kXtmFwReadback = 9,      // a register read back differs from the value written
} xtm_fw_status_t;

typedef enum xtm_mmio_backend {
  kXtmMmioBackendVolatile = 0,
  kXtmMmioBackendModel = 1,
  kXtmMmioBackendMock = 2,
  kXtmMmioBackendCosim = 3,
  kXtmMmioBackendTrace = 4,
} xtm_mmio_backend_t;

// A backend. `reset` may be NULL (no reset control: the platform resets the block).
typedef struct xtm_mmio_ops {
  xtm_fw_status_t (*read32)(void *ctx, uint32_t offset, uint32_t *value);
  xtm_fw_status_t (*write32)(void *ctx, uint32_t offset, uint32_t value);
  xtm_fw_status_t (*reset)(void *ctx);
} xtm_mmio_ops_t;

typedef struct xtm_mmio {
  const xtm_mmio_ops_t *ops;
  void *ctx;
  xtm_mmio_backend_t backend;
} xtm_mmio_t;

XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_mmio_read32(const xtm_mmio_t *m, uint32_t offset,
                                                   uint32_t *value);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_mmio_write32(const xtm_mmio_t *m, uint32_t offset,
                                                    uint32_t value);
// Asserts the block's reset through the backend (kXtmFwUnsupported without reset control).
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_mmio_reset(const xtm_mmio_t *m);

// Bitfield helpers on a register value, with the generated _MASK/_OFFSET macros.
uint32_t xtm_field32_read(uint32_t reg, uint32_t mask, uint32_t offset);
uint32_t xtm_field32_write(uint32_t reg, uint32_t mask, uint32_t offset, uint32_t value);

// ------------------------------------------------------------------ volatile backend
typedef struct xtm_mmio_volatile {
  uintptr_t base;
} xtm_mmio_volatile_t;
// Real hardware: registers at base + offset, 32-bit volatile accesses, no reset control.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_mmio_volatile_init(xtm_mmio_t *out,
                                                          xtm_mmio_volatile_t *state,
                                                          uintptr_t base);

// ------------------------------------------------------------------ trace wrapper
// One recorded transaction. op: 'R' read, 'W' write, 'X' reset. For reads `data` is the
// value returned; `status` is the backend's answer.
typedef struct xtm_mmio_txn {
  char op;
  uint32_t addr;
  uint32_t data;
  xtm_fw_status_t status;
} xtm_mmio_txn_t;

typedef struct xtm_mmio_trace {
  const xtm_mmio_t *inner;
  xtm_mmio_txn_t *buf;
  size_t cap;
  size_t len;      // records stored (at most cap)
  size_t dropped;  // records that did not fit (the access itself still happened)
} xtm_mmio_trace_t;

// Wraps `inner`: every access is forwarded and recorded into buf[0..cap-1].
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_mmio_trace_init(xtm_mmio_t *out, xtm_mmio_trace_t *t,
                                                       const xtm_mmio_t *inner, xtm_mmio_txn_t *buf,
                                                       size_t cap);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_FIRMWARE_XTM_MMIO_H_
