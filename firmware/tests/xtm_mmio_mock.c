// SPDX-License-Identifier: Apache-2.0
#include "firmware/tests/xtm_mmio_mock.h"

static xtm_fw_status_t take(xtm_mmio_mock_t *m, char op, uint32_t addr, uint32_t *data) {
  xtm_mmio_txn_t got = {.op = op, .addr = addr, .data = data != NULL ? *data : 0u};
  if (m->mismatch) {
    return kXtmFwBusError;
  }
  if (m->pos >= m->len) {
    m->mismatch = true;
    m->mismatch_at = m->pos;
    m->got = got;
    return kXtmFwBusError;
  }
  const xtm_mmio_txn_t *e = &m->exp[m->pos];
  bool ok = e->op == op && (op == 'X' || e->addr == addr) && (op != 'W' || e->data == got.data);
  if (!ok) {
    m->mismatch = true;
    m->mismatch_at = m->pos;
    m->got = got;
    return kXtmFwBusError;
  }
  m->pos++;
  if (op == 'R') {
    *data = e->data;
  }
  return e->status;
}

static xtm_fw_status_t mock_read32(void *ctx, uint32_t offset, uint32_t *value) {
  return take((xtm_mmio_mock_t *)ctx, 'R', offset, value);
}
static xtm_fw_status_t mock_write32(void *ctx, uint32_t offset, uint32_t value) {
  return take((xtm_mmio_mock_t *)ctx, 'W', offset, &value);
}
static xtm_fw_status_t mock_reset(void *ctx) { return take((xtm_mmio_mock_t *)ctx, 'X', 0u, NULL); }

static const xtm_mmio_ops_t kMockOps = {
    .read32 = mock_read32, .write32 = mock_write32, .reset = mock_reset};

void xtm_mmio_mock_init(xtm_mmio_t *out, xtm_mmio_mock_t *m, xtm_mmio_txn_t *buf, size_t cap) {
  *m = (xtm_mmio_mock_t){.exp = buf, .cap = cap};
  *out = (xtm_mmio_t){.ops = &kMockOps, .ctx = m, .backend = kXtmMmioBackendMock};
}

static void push(xtm_mmio_mock_t *m, char op, uint32_t addr, uint32_t v) {
  if (m->len < m->cap) {
    m->exp[m->len++] = (xtm_mmio_txn_t){.op = op, .addr = addr, .data = v, .status = kXtmFwOk};
  }
}
void xtm_mock_expect_read32(xtm_mmio_mock_t *m, uint32_t addr, uint32_t value) {
  push(m, 'R', addr, value);
}
void xtm_mock_expect_write32(xtm_mmio_mock_t *m, uint32_t addr, uint32_t value) {
  push(m, 'W', addr, value);
}
void xtm_mock_expect_reset(xtm_mmio_mock_t *m) { push(m, 'X', 0u, 0u); }
bool xtm_mock_done(const xtm_mmio_mock_t *m) { return !m->mismatch && m->pos == m->len; }
