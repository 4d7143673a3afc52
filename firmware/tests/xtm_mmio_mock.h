// SPDX-License-Identifier: Apache-2.0
//
// Mock MMIO backend for Check tests (OpenTitan EXPECT_WRITE32 style): a queue of expected
// accesses; a read returns the queued value, a write must carry the queued value. The
// first mismatch is recorded and every later access fails with kXtmFwBusError.

#ifndef XTM_FIRMWARE_TESTS_XTM_MMIO_MOCK_H_
#define XTM_FIRMWARE_TESTS_XTM_MMIO_MOCK_H_

#include <stdbool.h>
#include <stddef.h>

#include "firmware/xtm_mmio.h"

typedef struct xtm_mmio_mock {
  xtm_mmio_txn_t *exp;
  size_t cap;
  size_t len;  // expectations queued
  size_t pos;  // next expectation
  bool mismatch;
  size_t mismatch_at;
  xtm_mmio_txn_t got;
} xtm_mmio_mock_t;

void xtm_mmio_mock_init(xtm_mmio_t *out, xtm_mmio_mock_t *m, xtm_mmio_txn_t *buf, size_t cap);
void xtm_mock_expect_read32(xtm_mmio_mock_t *m, uint32_t addr, uint32_t value);
void xtm_mock_expect_write32(xtm_mmio_mock_t *m, uint32_t addr, uint32_t value);
void xtm_mock_expect_reset(xtm_mmio_mock_t *m);
// True when every expectation was consumed and nothing mismatched.
bool xtm_mock_done(const xtm_mmio_mock_t *m);

#endif  // XTM_FIRMWARE_TESTS_XTM_MMIO_MOCK_H_
