// SPDX-License-Identifier: Apache-2.0
//
// The MMIO seam: dispatch, bitfield helpers, the volatile (real hardware) backend and the
// trace wrapper. Freestanding: no library calls.

#include "firmware/xtm_mmio.h"

xtm_fw_status_t xtm_mmio_read32(const xtm_mmio_t *m, uint32_t offset, uint32_t *value) {
  if (m == NULL || m->ops == NULL || m->ops->read32 == NULL || value == NULL) {
    return kXtmFwBadArg;
  }
  if ((offset & 3u) != 0u) {
    return kXtmFwBadArg;
  }
  return m->ops->read32(m->ctx, offset, value);
}

xtm_fw_status_t xtm_mmio_write32(const xtm_mmio_t *m, uint32_t offset, uint32_t value) {
  if (m == NULL || m->ops == NULL || m->ops->write32 == NULL) {
    return kXtmFwBadArg;
  }
  if ((offset & 3u) != 0u) {
    return kXtmFwBadArg;
  }
  return m->ops->write32(m->ctx, offset, value);
}

xtm_fw_status_t xtm_mmio_reset(const xtm_mmio_t *m) {
  if (m == NULL || m->ops == NULL) {
    return kXtmFwBadArg;
  }
  if (m->ops->reset == NULL) {
    return kXtmFwUnsupported;
  }
  return m->ops->reset(m->ctx);
}

uint32_t xtm_field32_read(uint32_t reg, uint32_t mask, uint32_t offset) {
  return (reg >> offset) & mask;
}

uint32_t xtm_field32_write(uint32_t reg, uint32_t mask, uint32_t offset, uint32_t value) {
  reg &= ~(mask << offset);
  return reg | ((value & mask) << offset);
}

// ------------------------------------------------------------------ volatile backend

static xtm_fw_status_t vol_read32(void *ctx, uint32_t offset, uint32_t *value) {
  const xtm_mmio_volatile_t *s = (const xtm_mmio_volatile_t *)ctx;
  *value = *(const volatile uint32_t *)(s->base + offset);
  return kXtmFwOk;
}

static xtm_fw_status_t vol_write32(void *ctx, uint32_t offset, uint32_t value) {
  const xtm_mmio_volatile_t *s = (const xtm_mmio_volatile_t *)ctx;
  *(volatile uint32_t *)(s->base + offset) = value;
  return kXtmFwOk;
}

static const xtm_mmio_ops_t kVolatileOps = {
    .read32 = vol_read32,
    .write32 = vol_write32,
    .reset = NULL,
};

xtm_fw_status_t xtm_mmio_volatile_init(xtm_mmio_t *out, xtm_mmio_volatile_t *state,
                                       uintptr_t base) {
  if (out == NULL || state == NULL || base == 0u || (base & 3u) != 0u) {
    return kXtmFwBadArg;
  }
  state->base = base;
  *out = (xtm_mmio_t){.ops = &kVolatileOps, .ctx = state, .backend = kXtmMmioBackendVolatile};
  return kXtmFwOk;
}

// ------------------------------------------------------------------ trace wrapper

static void trace_put(xtm_mmio_trace_t *t, char op, uint32_t addr, uint32_t data,
                      xtm_fw_status_t st) {
  if (t->len >= t->cap) {
    t->dropped++;
    return;
  }
  t->buf[t->len++] = (xtm_mmio_txn_t){.op = op, .addr = addr, .data = data, .status = st};
}

static xtm_fw_status_t trace_read32(void *ctx, uint32_t offset, uint32_t *value) {
  xtm_mmio_trace_t *t = (xtm_mmio_trace_t *)ctx;
  xtm_fw_status_t st = xtm_mmio_read32(t->inner, offset, value);
  trace_put(t, 'R', offset, st == kXtmFwOk ? *value : 0u, st);
  return st;
}

static xtm_fw_status_t trace_write32(void *ctx, uint32_t offset, uint32_t value) {
  xtm_mmio_trace_t *t = (xtm_mmio_trace_t *)ctx;
  xtm_fw_status_t st = xtm_mmio_write32(t->inner, offset, value);
  trace_put(t, 'W', offset, value, st);
  return st;
}

static xtm_fw_status_t trace_reset(void *ctx) {
  xtm_mmio_trace_t *t = (xtm_mmio_trace_t *)ctx;
  xtm_fw_status_t st = xtm_mmio_reset(t->inner);
  trace_put(t, 'X', 0u, 0u, st);
  return st;
}

static const xtm_mmio_ops_t kTraceOps = {
    .read32 = trace_read32,
    .write32 = trace_write32,
    .reset = trace_reset,
};

xtm_fw_status_t xtm_mmio_trace_init(xtm_mmio_t *out, xtm_mmio_trace_t *t, const xtm_mmio_t *inner,
                                    xtm_mmio_txn_t *buf, size_t cap) {
  if (out == NULL || t == NULL || inner == NULL || inner->ops == NULL ||
      (buf == NULL && cap != 0u)) {
    return kXtmFwBadArg;
  }
  *t = (xtm_mmio_trace_t){.inner = inner, .buf = buf, .cap = cap, .len = 0u, .dropped = 0u};
  *out = (xtm_mmio_t){.ops = &kTraceOps, .ctx = t, .backend = kXtmMmioBackendTrace};
  return kXtmFwOk;
}
