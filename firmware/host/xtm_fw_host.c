// SPDX-License-Identifier: Apache-2.0
//
// C-model MMIO backend, trace writer and register dump (host side).

#include "firmware/host/xtm_fw_host.h"

#include <inttypes.h>
#include <string.h>

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

static xtm_fw_status_t model_access(xtm_mmio_model_t *s, bool write, uint32_t offset,
                                    uint32_t wdata, uint32_t *rdata) {
  if (offset > 0xFFFFu) {
    return kXtmFwBadArg;
  }
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  xtm_out_t out;
  if (s->apb) {
    xtm_step(s->model, &in, &out);  // setup cycle: psel without penable, no CSR access
  }
  in.csr = (xtm_csr_req_t){.valid = true, .write = write, .addr = (uint16_t)offset, .wdata = wdata};
  xtm_step(s->model, &in, &out);  // access cycle a: the model answers at once
  s->accesses++;
  uint32_t rd = out.csr_rsp.rdata;
  bool err = out.csr_rsp.err;
  if (s->apb) {
    // spec 10.1: the completer raises pready in a + XTM_OUT_LATENCY; cycles a+1 .. a+6 are
    // idle for the model, and the next setup cycle is a+7 at the earliest
    in.csr.valid = false;
    for (int i = 0; i < XTM_OUT_LATENCY; i++) {
      xtm_step(s->model, &in, &out);
    }
  }
  if (rdata != NULL) {
    *rdata = rd;
  }
  return err ? kXtmFwBusError : kXtmFwOk;
}

static xtm_fw_status_t model_read32(void *ctx, uint32_t offset, uint32_t *value) {
  return model_access((xtm_mmio_model_t *)ctx, false, offset, 0u, value);
}

static xtm_fw_status_t model_write32(void *ctx, uint32_t offset, uint32_t value) {
  return model_access((xtm_mmio_model_t *)ctx, true, offset, value, NULL);
}

static xtm_fw_status_t model_reset(void *ctx) {
  xtm_mmio_model_t *s = (xtm_mmio_model_t *)ctx;
  xtm_reset(s->model);
  return kXtmFwOk;
}

static const xtm_mmio_ops_t kModelOps = {
    .read32 = model_read32,
    .write32 = model_write32,
    .reset = model_reset,
};

xtm_fw_status_t xtm_mmio_model_init(xtm_mmio_t *out, xtm_mmio_model_t *state, xtm_t *model) {
  if (out == NULL || state == NULL || model == NULL) {
    return kXtmFwBadArg;
  }
  *state = (xtm_mmio_model_t){.model = model, .accesses = 0u, .apb = false};
  *out = (xtm_mmio_t){.ops = &kModelOps, .ctx = state, .backend = kXtmMmioBackendModel};
  return kXtmFwOk;
}

static xtm_fw_status_t dcqcn_access(dcqcn_mmio_model_t *s, bool write, uint32_t offset,
                                    uint32_t wdata, uint32_t *rdata) {
  if (offset > 0xFFFFu) {
    return kXtmFwBadArg;
  }
  dcqcn_in_t in;
  memset(&in, 0, sizeof(in));
  in.csr =
      (dcqcn_csr_req_t){.valid = true, .write = write, .addr = (uint16_t)offset, .wdata = wdata};
  dcqcn_out_t out;
  dcqcn_step(s->model, &in, &out);
  s->accesses++;
  if (rdata != NULL) {
    *rdata = out.csr_rsp.rdata;
  }
  return out.csr_rsp.err ? kXtmFwBusError : kXtmFwOk;
}

static xtm_fw_status_t dcqcn_read32(void *ctx, uint32_t offset, uint32_t *value) {
  return dcqcn_access((dcqcn_mmio_model_t *)ctx, false, offset, 0u, value);
}

static xtm_fw_status_t dcqcn_write32(void *ctx, uint32_t offset, uint32_t value) {
  return dcqcn_access((dcqcn_mmio_model_t *)ctx, true, offset, value, NULL);
}

static xtm_fw_status_t dcqcn_reset_model(void *ctx) {
  dcqcn_reset(((dcqcn_mmio_model_t *)ctx)->model);
  return kXtmFwOk;
}

static const xtm_mmio_ops_t kDcqcnModelOps = {
    .read32 = dcqcn_read32,
    .write32 = dcqcn_write32,
    .reset = dcqcn_reset_model,
};

xtm_fw_status_t dcqcn_mmio_model_init(xtm_mmio_t *out, dcqcn_mmio_model_t *state, dcqcn_t *model) {
  if (out == NULL || state == NULL || model == NULL) {
    return kXtmFwBadArg;
  }
  *state = (dcqcn_mmio_model_t){.model = model, .accesses = 0u};
  *out = (xtm_mmio_t){.ops = &kDcqcnModelOps, .ctx = state, .backend = kXtmMmioBackendModel};
  return kXtmFwOk;
}

// ------------------------------------------------------------------ naming

static xtm_reg_desc_t g_regs[XTM_REG_COUNT];
static bool g_regs_built;

static const xtm_reg_desc_t *find_reg(uint32_t addr) {
  if (!g_regs_built) {
    xtm_reg_params_t p;
    xtm_reg_params_default(&p);
    (void)xtm_regs_build(&p, g_regs, XTM_REG_COUNT);
    g_regs_built = true;
  }
  for (size_t i = 0; i < XTM_REG_COUNT; i++) {
    if (g_regs[i].offset == addr) {
      return &g_regs[i];
    }
  }
  return NULL;
}

static int window_of_sel(uint32_t addr) {
  switch (addr) {
    case XTM_VOQ_SEL_REG_OFFSET:
      return kXtmWinVoq;
    case XTM_PORT_SEL_REG_OFFSET:
      return kXtmWinPort;
    case XTM_PG_SEL_REG_OFFSET:
      return kXtmWinPg;
    case XTM_PROF_SEL_REG_OFFSET:
      return kXtmWinProf;
    case XTM_POL_SEL_REG_OFFSET:
      return kXtmWinPol;
    default:
      return -1;
  }
}

void xtm_fw_trace_write_tsv(FILE *f, const xtm_mmio_txn_t *t, size_t n, bool writes_only) {
  uint32_t sel[kXtmWinCount] = {0u};
  fprintf(f, "# xtm-csr-trace v1\tseq\top\taddr\tdata\tname\n");
  for (size_t i = 0; i < n; i++) {
    const xtm_mmio_txn_t *x = &t[i];
    char name[64] = "-";
    if (x->op != 'X') {
      const xtm_reg_desc_t *r = find_reg(x->addr);
      if (r == NULL) {
        snprintf(name, sizeof(name), "?");
      } else if (r->window >= 0) {
        snprintf(name, sizeof(name), "%s[%" PRIu32 "]", r->name, sel[r->window]);
      } else {
        snprintf(name, sizeof(name), "%s", r->name);
      }
      int w = window_of_sel(x->addr);
      if (x->op == 'W' && w >= 0 && x->status == kXtmFwOk) {
        sel[w] = x->data;
      }
    }
    if (writes_only && x->op != 'W') {
      continue;
    }
    if (x->op == 'X') {
      fprintf(f, "%zu\tX\t-\t-\treset%s\n", i, x->status == kXtmFwOk ? "" : "(error)");
    } else {
      fprintf(f, "%zu\t%c\t0x%04" PRIx32 "\t0x%08" PRIx32 "\t%s%s\n", i, x->op, x->addr, x->data,
              name, x->status == kXtmFwOk ? "" : "\t(error)");
    }
  }
}

// ------------------------------------------------------------------ register dump

static xtm_fw_status_t dump_range(FILE *f, const xtm_fw_t *h, const xtm_reg_desc_t *regs, size_t n,
                                  int window, uint32_t entry) {
  for (size_t i = 0; i < n; i++) {
    const xtm_reg_desc_t *r = &regs[i];
    if (r->window != window || r->swaccess != kXtmSwRw || r->counter64 ||
        window_of_sel(r->offset) >= 0) {
      continue;
    }
    uint32_t v = 0u;
    xtm_fw_status_t st = xtm_mmio_read32(&h->mmio, r->offset, &v);
    if (st != kXtmFwOk) {
      return st;
    }
    if (window < 0) {
      fprintf(f, "0x%04x\t%s\t0x%08" PRIx32 "\n", r->offset, r->name, v);
    } else {
      fprintf(f, "0x%04x\t%s[%" PRIu32 "]\t0x%08" PRIx32 "\n", r->offset, r->name, entry, v);
    }
  }
  return kXtmFwOk;
}

xtm_fw_status_t xtm_fw_regdump(FILE *f, const xtm_fw_t *h) {
  if (f == NULL || h == NULL || !h->initialised) {
    return kXtmFwBadArg;
  }
  xtm_reg_params_t p;
  xtm_reg_params_default(&p);
  p.num_ports = h->hw.num_ports;
  p.num_tcs = h->hw.num_tcs;
  p.cell_log2 = h->hw.cell_log2;
  p.cell_bytes = h->hw.cell_bytes;
  p.num_desc = h->hw.num_desc;
  p.ocb_cells = h->hw.ocb_cells;
  p.hbm_cells = h->hw.hbm_cells;
  p.fifo_depth = h->hw.fifo_depth;
  static xtm_reg_desc_t regs[XTM_REG_COUNT];
  size_t n = xtm_regs_build(&p, regs, XTM_REG_COUNT);
  if (n > XTM_REG_COUNT) {
    n = XTM_REG_COUNT;
  }
  fprintf(f, "# xtm-regdump v1\taddr\tname\tvalue\n");
  xtm_fw_status_t st = dump_range(f, h, regs, n, -1, 0u);
  if (st != kXtmFwOk) {
    return st;
  }
  // one select register per window, in xtm_window_t order (the POL window came with spec
  // 2.2.0: without its entry here the dump wrote POL_SEL's entries to offset 0)
  static const uint32_t kSel[kXtmWinCount] = {XTM_VOQ_SEL_REG_OFFSET, XTM_PORT_SEL_REG_OFFSET,
                                              XTM_PG_SEL_REG_OFFSET, XTM_PROF_SEL_REG_OFFSET,
                                              XTM_POL_SEL_REG_OFFSET};
  _Static_assert(kXtmWinPol == 4 && kXtmWinCount == 5, "a select register for every window");
  for (int w = 0; w < kXtmWinCount; w++) {
    uint32_t entries = xtm_regs_window_entries(&p, (xtm_window_t)w);
    for (uint32_t e = 0; e < entries; e++) {
      st = xtm_mmio_write32(&h->mmio, kSel[w], e);
      if (st != kXtmFwOk) {
        return st;
      }
      st = dump_range(f, h, regs, n, w, e);
      if (st != kXtmFwOk) {
        return st;
      }
    }
  }
  return kXtmFwOk;
}
