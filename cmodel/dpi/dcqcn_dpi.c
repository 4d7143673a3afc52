// SPDX-License-Identifier: Apache-2.0
//
// The DPI-C layer of the DCQCN C model: unpacks the spec D2 bundles from the canonical bit
// vectors of cmodel/dpi/dcqcn_dpi_pkg.sv, calls libdcqcn (cmodel/dcqcn/dcqcn.h), packs the
// outputs and the per-QP state back. Layouts are the package's packed structs, least
// significant member first. The rate vectors have the layout of rtl/dcqcn/dcqcn_top's ports
// with DCQCN_DPI_MAX_RATE entries: entry k of rate_qp at [16k +: 16], rate_rc and rate_rt
// at [20k +: 20], rate_alpha at [10k +: 10]; entries k >= n_rate are 0.

#include "cmodel/dpi/dcqcn_dpi.h"

#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "cmodel/dpi/dpi_handle.h"

// dcqcn_dpi_in_t: cnp{valid,qp} tx{valid,qp,bytes} ce{valid,qp} csr{valid,write,addr,wdata}
enum {
  kInCsrWdata = 0,
  kInCsrAddr = kInCsrWdata + 32,
  kInCsrWrite = kInCsrAddr + 16,
  kInCsrValid = kInCsrWrite + 1,
  kInCeQp = kInCsrValid + 1,
  kInCeValid = kInCeQp + 16,
  kInTxBytes = kInCeValid + 1,
  kInTxQp = kInTxBytes + 16,
  kInTxValid = kInTxQp + 16,
  kInCnpQp = kInTxValid + 1,
  kInCnpValid = kInCnpQp + 16,
  kInBits = kInCnpValid + 1,  // 117
};
// dcqcn_dpi_out_t: cycle cnp_tx{valid,qp} n_rate pace{valid,qp,next_send} csr_rsp{valid,err,rdata}
enum {
  kOutCsrRdata = 0,
  kOutCsrErr = kOutCsrRdata + 32,
  kOutCsrValid = kOutCsrErr + 1,
  kOutPaceNext = kOutCsrValid + 1,
  kOutPaceQp = kOutPaceNext + 64,
  kOutPaceValid = kOutPaceQp + 16,
  kOutNRate = kOutPaceValid + 1,
  kOutCnpQp = kOutNRate + 5,
  kOutCnpValid = kOutCnpQp + 16,
  kOutCycle = kOutCnpValid + 1,
  kOutBits = kOutCycle + 64,  // 201
};
// dcqcn_dpi_qp_state_t: pend_bytes pend_cnp_more pend_cnp init_pend active cnp_alpha cnp_dec
//   rc rt alpha stage_timer stage_byte byte_count alpha_due dec_due inc_due pace_q8 np_sent
//   np_last
enum {
  kQsNpLast = 0,
  kQsNpSent = 64,
  kQsPace = 65,
  kQsInc = 129,
  kQsDec = 193,
  kQsAlphaDue = 257,
  kQsByteCount = 321,
  kQsStageByte = 353,
  kQsStageTimer = 361,
  kQsAlpha = 369,
  kQsRt = 385,
  kQsRc = 417,
  kQsCnpDec = 449,
  kQsCnpAlpha = 450,
  kQsActive = 451,
  kQsInitPend = 452,
  kQsPendCnp = 453,
  kQsPendCnpMore = 454,
  kQsPendBytes = 455,
  kQsBits = 487,
};
// dcqcn_dpi_params_t: num_qps scan_width
enum { kPrScan = 0, kPrQps = 32, kPrBits = 64 };

#define NR DCQCN_DPI_MAX_RATE

typedef struct dcqcn_dpi_inst {
  dcqcn_t *m;
  uint32_t nqps;
  dcqcn_in_t in;
  dcqcn_out_t out;
} dcqcn_dpi_inst_t;

static dpi_table_t g_dcqcn_table = {.kind = 0xDCu};

#define ACQUIRE(fn)                                                          \
  dcqcn_dpi_inst_t *x;                                                       \
  uint32_t slot_;                                                            \
  do {                                                                       \
    void *o_;                                                                \
    int st_ = dpi_handle_acquire(&g_dcqcn_table, h, &o_, &slot_);            \
    if (st_ != kDpiOk) {                                                     \
      return dpi_fail(st_, "%s: %s handle %p", fn,                           \
                      st_ == kDpiBusy ? "busy (another thread)" : "bad", h); \
    }                                                                        \
    x = (dcqcn_dpi_inst_t *)o_;                                              \
  } while (0)
#define RELEASE() dpi_handle_release(&g_dcqcn_table, slot_)

int dcqcn_dpi_abi_check(unsigned int abi_version, unsigned int params_bits, unsigned int in_bits,
                        unsigned int out_bits, unsigned int qp_state_bits) {
  if (abi_version != DCQCN_DPI_ABI_VERSION || params_bits != kPrBits || in_bits != kInBits ||
      out_bits != kOutBits || qp_state_bits != kQsBits) {
    return dpi_fail(kDpiAbi,
                    "dcqcn_dpi_abi_check: package ABI %u (params/in/out/qp %u/%u/%u/%u bits), C "
                    "layer ABI %u (%u/%u/%u/%u)",
                    abi_version, params_bits, in_bits, out_bits, qp_state_bits,
                    DCQCN_DPI_ABI_VERSION, (unsigned)kPrBits, (unsigned)kInBits, (unsigned)kOutBits,
                    (unsigned)kQsBits);
  }
  return kDpiOk;
}

static void params_pack(const dcqcn_params_t *p, svBitVecVal *v) {
  memset(v, 0, DPI_WORDS(kPrBits) * sizeof(svBitVecVal));
  dpi_put(v, kPrQps, 32, p->num_qps);
  dpi_put(v, kPrScan, 32, p->scan_width);
}

void dcqcn_dpi_params_default(svBitVecVal *params) {
  dcqcn_params_t p;
  if (params == NULL) {
    return;
  }
  dcqcn_params_default(&p);
  params_pack(&p, params);
}

int dcqcn_dpi_create(const svBitVecVal *params, void **h) {
  if (h == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_create: no handle argument");
  }
  *h = NULL;
  if (params == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_create: no parameters");
  }
  dcqcn_params_t p = {.num_qps = (uint32_t)dpi_get(params, kPrQps, 32),
                      .scan_width = (uint32_t)dpi_get(params, kPrScan, 32)};
  const char *why = NULL;
  if (!dcqcn_params_valid(&p, &why)) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_create: %s", why != NULL ? why : "invalid parameters");
  }
  dcqcn_dpi_inst_t *x = calloc(1, sizeof(*x));
  if (x == NULL) {
    return dpi_fail(kDpiNoMem, "dcqcn_dpi_create: out of memory");
  }
  dcqcn_status_t st = dcqcn_create(&p, &x->m);
  if (st != kDcqcnOk) {
    free(x);
    return dpi_fail(st == kDcqcnNoMem ? kDpiNoMem : kDpiBadArg,
                    "dcqcn_dpi_create: dcqcn_create failed (%d)", (int)st);
  }
  x->nqps = p.num_qps;
  int r = dpi_handle_new(&g_dcqcn_table, x, h);
  if (r != kDpiOk) {
    dcqcn_destroy(x->m);
    free(x);
    *h = NULL;
    return dpi_fail(r, "dcqcn_dpi_create: all %u instances in use", DPI_MAX_INSTANCES);
  }
  return kDpiOk;
}

int dcqcn_dpi_destroy(void *h) {
  void *o;
  int st = dpi_handle_delete(&g_dcqcn_table, h, &o);
  if (st != kDpiOk) {
    return dpi_fail(st, "dcqcn_dpi_destroy: %s handle %p", st == kDpiBusy ? "busy" : "bad", h);
  }
  dcqcn_dpi_inst_t *x = (dcqcn_dpi_inst_t *)o;
  dcqcn_destroy(x->m);
  free(x);
  return kDpiOk;
}

int dcqcn_dpi_reset(void *h) {
  ACQUIRE("dcqcn_dpi_reset");
  dcqcn_reset(x->m);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_get_params(void *h, svBitVecVal *params) {
  if (params == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_get_params: no output");
  }
  ACQUIRE("dcqcn_dpi_get_params");
  params_pack(dcqcn_params(x->m), params);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_instances(void) { return (int)atomic_load(&g_dcqcn_table.live); }

static void out_pack(const dcqcn_out_t *o, bool valid, svBitVecVal *out, svBitVecVal *rqp,
                     svBitVecVal *rrc, svBitVecVal *rrt, svBitVecVal *ral) {
  memset(out, 0, DPI_WORDS(kOutBits) * sizeof(svBitVecVal));
  memset(rqp, 0, DPI_WORDS(NR * 16u) * sizeof(svBitVecVal));
  memset(rrc, 0, DPI_WORDS(NR * 20u) * sizeof(svBitVecVal));
  memset(rrt, 0, DPI_WORDS(NR * 20u) * sizeof(svBitVecVal));
  memset(ral, 0, DPI_WORDS(NR * 10u) * sizeof(svBitVecVal));
  dpi_put(out, kOutCycle, 64, o->cycle);
  if (!valid) {
    return;
  }
  if (o->cnp_tx.valid) {
    dpi_put(out, kOutCnpValid, 1, 1);
    dpi_put(out, kOutCnpQp, 16, o->cnp_tx.qp);
  }
  uint32_t n = o->n_rate <= NR ? o->n_rate : NR;
  dpi_put(out, kOutNRate, 5, n);
  for (uint32_t k = 0; k < n; k++) {
    dpi_put(rqp, 16u * k, 16, o->rate[k].qp);
    dpi_put(rrc, 20u * k, 20, o->rate[k].rc);
    dpi_put(rrt, 20u * k, 20, o->rate[k].rt);
    dpi_put(ral, 10u * k, 10, o->rate[k].alpha);
  }
  if (o->pace.valid) {
    dpi_put(out, kOutPaceValid, 1, 1);
    dpi_put(out, kOutPaceQp, 16, o->pace.qp);
    dpi_put(out, kOutPaceNext, 64, o->pace.next_send);
  }
  if (o->csr_rsp.valid) {
    dpi_put(out, kOutCsrValid, 1, 1);
    dpi_put(out, kOutCsrErr, 1, o->csr_rsp.err);
    dpi_put(out, kOutCsrRdata, 32, o->csr_rsp.rdata);
  }
}

int dcqcn_dpi_step(void *h, const svBitVecVal *in, svBitVecVal *out, svBitVecVal *rate_qp,
                   svBitVecVal *rate_rc, svBitVecVal *rate_rt, svBitVecVal *rate_alpha) {
  if (in == NULL || out == NULL || rate_qp == NULL || rate_rc == NULL || rate_rt == NULL ||
      rate_alpha == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_step: a vector argument is missing");
  }
  ACQUIRE("dcqcn_dpi_step");
  dcqcn_in_t *i = &x->in;
  i->cnp.valid = dpi_get(in, kInCnpValid, 1) != 0u;
  i->cnp.qp = (uint16_t)dpi_get(in, kInCnpQp, 16);
  i->tx.valid = dpi_get(in, kInTxValid, 1) != 0u;
  i->tx.qp = (uint16_t)dpi_get(in, kInTxQp, 16);
  i->tx.bytes = (uint16_t)dpi_get(in, kInTxBytes, 16);
  i->ce.valid = dpi_get(in, kInCeValid, 1) != 0u;
  i->ce.qp = (uint16_t)dpi_get(in, kInCeQp, 16);
  i->csr.valid = dpi_get(in, kInCsrValid, 1) != 0u;
  i->csr.write = dpi_get(in, kInCsrWrite, 1) != 0u;
  i->csr.addr = (uint16_t)dpi_get(in, kInCsrAddr, 16);
  i->csr.wdata = (uint32_t)dpi_get(in, kInCsrWdata, 32);
  dcqcn_step(x->m, i, &x->out);
  out_pack(&x->out, true, out, rate_qp, rate_rc, rate_rt, rate_alpha);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_advance_to(void *h, unsigned long long target, svBitVecVal *out, svBitVecVal *rate_qp,
                         svBitVecVal *rate_rc, svBitVecVal *rate_rt, svBitVecVal *rate_alpha) {
  if (out == NULL || rate_qp == NULL || rate_rc == NULL || rate_rt == NULL || rate_alpha == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_advance_to: a vector argument is missing");
  }
  ACQUIRE("dcqcn_dpi_advance_to");
  bool any = dcqcn_advance_to(x->m, (uint64_t)target, &x->out);
  out_pack(&x->out, any, out, rate_qp, rate_rc, rate_rt, rate_alpha);
  RELEASE();
  return any ? 1 : 0;
}

int dcqcn_dpi_cycle(void *h, unsigned long long *cycle) {
  if (cycle == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_cycle: no output");
  }
  ACQUIRE("dcqcn_dpi_cycle");
  *cycle = dcqcn_cycle(x->m);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_next_event(void *h, unsigned long long *cycle) {
  if (cycle == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_next_event: no output");
  }
  ACQUIRE("dcqcn_dpi_next_event");
  *cycle = dcqcn_next_event(x->m);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_set_eager(void *h, svBit eager) {
  ACQUIRE("dcqcn_dpi_set_eager");
  dcqcn_set_eager(x->m, eager != 0u);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_scan_period(void *h, unsigned int *period) {
  if (period == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_scan_period: no output");
  }
  ACQUIRE("dcqcn_dpi_scan_period");
  *period = dcqcn_scan_period(x->m);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_csr_read(void *h, unsigned int addr, unsigned int *data) {
  if (data == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_csr_read: no output");
  }
  *data = 0;
  if (addr > 0xFFFFu) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_csr_read: address 0x%x beyond the 16-bit space", addr);
  }
  ACQUIRE("dcqcn_dpi_csr_read");
  uint32_t d = 0;
  bool ok = dcqcn_csr_read(x->m, (uint16_t)addr, &d);
  RELEASE();
  *data = d;
  return ok ? kDpiOk : dpi_fail(kDpiFalse, "dcqcn_dpi_csr_read: CSR error at 0x%04x", addr);
}

int dcqcn_dpi_csr_write(void *h, unsigned int addr, unsigned int data) {
  if (addr > 0xFFFFu) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_csr_write: address 0x%x beyond the 16-bit space", addr);
  }
  ACQUIRE("dcqcn_dpi_csr_write");
  bool ok = dcqcn_csr_write(x->m, (uint16_t)addr, (uint32_t)data);
  RELEASE();
  return ok ? kDpiOk : dpi_fail(kDpiFalse, "dcqcn_dpi_csr_write: CSR error at 0x%04x", addr);
}

int dcqcn_dpi_param_set(void *h, const char *name, unsigned int value) {
  if (name == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_param_set: no name");
  }
  ACQUIRE("dcqcn_dpi_param_set");
  dcqcn_status_t st = dcqcn_param_set(x->m, name, (uint32_t)value);
  RELEASE();
  return st == kDcqcnOk ? kDpiOk
                        : dpi_fail(kDpiBadArg,
                                   "dcqcn_dpi_param_set: %s = %u rejected (unknown name "
                                   "or outside its range)",
                                   name, value);
}

int dcqcn_dpi_qp_state(void *h, unsigned int qp, svBitVecVal *state) {
  if (state == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_qp_state: no output");
  }
  ACQUIRE("dcqcn_dpi_qp_state");
  if (qp >= x->nqps) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_qp_state: qp %u >= NumQps %u", qp, x->nqps);
  }
  dcqcn_qp_state_t s;
  dcqcn_qp_state(x->m, qp, &s);
  RELEASE();
  memset(state, 0, DPI_WORDS(kQsBits) * sizeof(svBitVecVal));
  dpi_put(state, kQsActive, 1, s.active);
  dpi_put(state, kQsCnpAlpha, 1, s.cnp_alpha);
  dpi_put(state, kQsCnpDec, 1, s.cnp_dec);
  dpi_put(state, kQsRc, 32, s.rc);
  dpi_put(state, kQsRt, 32, s.rt);
  dpi_put(state, kQsAlpha, 16, s.alpha);
  dpi_put(state, kQsStageTimer, 8, s.stage_timer);
  dpi_put(state, kQsStageByte, 8, s.stage_byte);
  dpi_put(state, kQsByteCount, 32, s.byte_count);
  dpi_put(state, kQsAlphaDue, 64, s.alpha_due);
  dpi_put(state, kQsDec, 64, s.dec_due);
  dpi_put(state, kQsInc, 64, s.inc_due);
  dpi_put(state, kQsPace, 64, s.pace_q8);
  dpi_put(state, kQsNpSent, 1, s.np_sent);
  dpi_put(state, kQsNpLast, 64, s.np_last);
  dpi_put(state, kQsInitPend, 1, s.init_pend);
  dpi_put(state, kQsPendCnp, 1, s.pend_cnp);
  dpi_put(state, kQsPendCnpMore, 1, s.pend_cnp_more);
  dpi_put(state, kQsPendBytes, 32, s.pend_bytes);
  return kDpiOk;
}

int dcqcn_dpi_counter(void *h, unsigned int idx, unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_counter: no output");
  }
  *value = 0;
  if (idx >= (unsigned)kDcqcnGcntCount) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_counter: counter %u (< %d)", idx, (int)kDcqcnGcntCount);
  }
  ACQUIRE("dcqcn_dpi_counter");
  *value = dcqcn_counter(x->m, (dcqcn_gcnt_t)idx);
  RELEASE();
  return kDpiOk;
}

int dcqcn_dpi_qp_counter(void *h, unsigned int qp, unsigned int idx, unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_qp_counter: no output");
  }
  *value = 0;
  ACQUIRE("dcqcn_dpi_qp_counter");
  if (qp >= x->nqps || idx >= (unsigned)kDcqcnQcntCount) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "dcqcn_dpi_qp_counter: qp %u (< %u) counter %u (< %d)", qp, x->nqps,
                    idx, (int)kDcqcnQcntCount);
  }
  *value = dcqcn_qp_counter(x->m, qp, (dcqcn_qcnt_t)idx);
  RELEASE();
  return kDpiOk;
}

const char *dcqcn_dpi_last_error(void) { return dpi_last_error(); }
const char *dcqcn_dpi_status_name(int status) { return dpi_status_name(status); }
