// SPDX-License-Identifier: Apache-2.0
//
// The DPI-C layer of the xtm C model: unpacks the spec section 2 bundles from the canonical
// bit vectors of cmodel/dpi/xtm_dpi_pkg.sv, calls libxtm (cmodel/xtm/xtm.h), packs the
// outputs and the section 12 state back. The layouts below are the package's packed
// structs, least significant member first; XTM_DPI_ABI_VERSION and xtm_dpi_abi_check()
// keep the two sides in step. Nothing here allocates or prints in step/advance_to.

#include "cmodel/dpi/xtm_dpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/dpi/dpi_handle.h"
#include "cmodel/xtm/xtm.h"

_Static_assert(XTM_DPI_OUT_LATENCY == XTM_OUT_LATENCY,
               "XTM_DPI_OUT_LATENCY is spec 15.1's latency");

// ------------------------------------------------------------------ layouts (LSB first)
// xtm_dpi_in_t: enq{valid,pkt_id,in_port,eg_port,dscp,ecn,len} csr{valid,write,addr,wdata}
//               tx_ready[63:0] pfc_rx_valid[63:0]
enum {
  kInPfcValid = 0,
  kInTxReady = kInPfcValid + 64,
  kInCsrWdata = kInTxReady + 64,
  kInCsrAddr = kInCsrWdata + 32,
  kInCsrWrite = kInCsrAddr + 16,
  kInCsrValid = kInCsrWrite + 1,
  kInEnqLen = kInCsrValid + 1,
  kInEnqEcn = kInEnqLen + 14,
  kInEnqDscp = kInEnqEcn + 2,
  kInEnqEg = kInEnqDscp + 6,
  kInEnqIn = kInEnqEg + 6,
  kInEnqPkt = kInEnqIn + 6,
  kInEnqValid = kInEnqPkt + 32,
  kInBits = kInEnqValid + 1,  // 245
};
// xtm_dpi_out_t: cycle enq_res{valid,pkt_id,voq,reason,marked,hdrm,hbm} flush{valid,pkt_id,
//                voq} csr_rsp{valid,err,rdata} deq_valid[63:0] pfc_tx_valid[63:0]
enum {
  kOutPfcValid = 0,
  kOutDeqValid = kOutPfcValid + 64,
  kOutCsrRdata = kOutDeqValid + 64,
  kOutCsrErr = kOutCsrRdata + 32,
  kOutCsrValid = kOutCsrErr + 1,
  kOutFlVoq = kOutCsrValid + 1,
  kOutFlPkt = kOutFlVoq + 9,
  kOutFlValid = kOutFlPkt + 32,
  kOutErHbm = kOutFlValid + 1,
  kOutErHdrm = kOutErHbm + 1,
  kOutErMarked = kOutErHdrm + 1,
  kOutErReason = kOutErMarked + 1,
  kOutErVoq = kOutErReason + 4,
  kOutErPkt = kOutErVoq + 9,
  kOutErValid = kOutErPkt + 32,
  kOutCycle = kOutErValid + 1,
  kOutBits = kOutCycle + 64,  // 317
};
// deq record, = rtl/xtm/xtm_pkg.sv deq_rec_t: pkt_id voq in_port len dscp ecn marked hbm sojourn
enum {
  kDqSoj = 0,
  kDqHbm = 32,
  kDqMarked = 33,
  kDqEcn = 34,
  kDqDscp = 36,
  kDqLen = 42,
  kDqInPort = 56,
  kDqVoq = 62,
  kDqPkt = 71,
  kDqBits = 103,
};
// xtm_dpi_voq_state_t: wd_clean wd_storm shaper_conform occ_cells occ_pkts hbm_cells hbm_mode
//                      ocb_only wd_stalled flushing deficit head_pkt_id
enum {
  kVsHead = 0,
  kVsDeficit = 32,
  kVsFlushing = 64,
  kVsWd = 65,
  kVsOcbOnly = 66,
  kVsHbmMode = 67,
  kVsHbmCells = 68,
  kVsOccPkts = 100,
  kVsOccCells = 132,
  kVsConform = 164,
  kVsWdStorm = 165,
  kVsWdClean = 173,
  kVsBits = 181,
};
// xtm_dpi_pg_state_t: pg_cells hdrm_used xoff pause_remain
enum { kPsPause = 0, kPsXoff = 64, kPsHused = 65, kPsCells = 97, kPsBits = 129 };
// xtm_dpi_global_state_t: lfsr_head pool_used ocb_used hbm_used desc_free lfsr cycle
enum {
  kGsCycle = 0,
  kGsLfsr = 64,
  kGsDescFree = 96,
  kGsHbm = 128,
  kGsOcb = 160,
  kGsPool = 192,
  kGsLfsrHead = 224,
  kGsBits = 256
};
// xtm_dpi_params_t: num_ports num_tcs num_desc cell_bytes ocb_cells hbm_cells fifo_depth
enum {
  kPrFifo = 0,
  kPrHbm = 32,
  kPrOcb = 64,
  kPrCell = 96,
  kPrDesc = 128,
  kPrTcs = 160,
  kPrPorts = 192,
  kPrBits = 224
};

#define MAXP XTM_DPI_MAX_PORTS
#define DEQ_WORDS DPI_WORDS(MAXP *kDqBits)
#define VEC_WORDS DPI_WORDS(MAXP * 8u)
#define QUANTA_WORDS DPI_WORDS(MAXP * 128u)

typedef struct xtm_dpi_inst {
  xtm_t *m;
  uint32_t nports, nvoqs;
  uint64_t pmask;
  xtm_in_t in;  // scratch: filled field by field each step
  xtm_out_t out;
} xtm_dpi_inst_t;

static dpi_table_t g_xtm_table = {.kind = 0xA7u};

// Claims the instance or returns its status from the calling function.
#define ACQUIRE(fn)                                                          \
  xtm_dpi_inst_t *x;                                                         \
  uint32_t slot_;                                                            \
  do {                                                                       \
    void *o_;                                                                \
    int st_ = dpi_handle_acquire(&g_xtm_table, h, &o_, &slot_);              \
    if (st_ != kDpiOk) {                                                     \
      return dpi_fail(st_, "%s: %s handle %p", fn,                           \
                      st_ == kDpiBusy ? "busy (another thread)" : "bad", h); \
    }                                                                        \
    x = (xtm_dpi_inst_t *)o_;                                                \
  } while (0)
#define RELEASE() dpi_handle_release(&g_xtm_table, slot_)

int xtm_dpi_abi_check(unsigned int abi_version, unsigned int params_bits, unsigned int in_bits,
                      unsigned int out_bits, unsigned int voq_state_bits,
                      unsigned int pg_state_bits, unsigned int global_state_bits) {
  if (abi_version != XTM_DPI_ABI_VERSION || params_bits != kPrBits || in_bits != kInBits ||
      out_bits != kOutBits || voq_state_bits != kVsBits || pg_state_bits != kPsBits ||
      global_state_bits != kGsBits) {
    return dpi_fail(
        kDpiAbi,
        "xtm_dpi_abi_check: package ABI %u (params/in/out/voq/pg/global %u/%u/%u/%u/%u/%u "
        "bits), C layer ABI %u (%u/%u/%u/%u/%u/%u)",
        abi_version, params_bits, in_bits, out_bits, voq_state_bits, pg_state_bits,
        global_state_bits, XTM_DPI_ABI_VERSION, (unsigned)kPrBits, (unsigned)kInBits,
        (unsigned)kOutBits, (unsigned)kVsBits, (unsigned)kPsBits, (unsigned)kGsBits);
  }
  return kDpiOk;
}

static void params_pack(const xtm_params_t *p, svBitVecVal *v) {
  memset(v, 0, DPI_WORDS(kPrBits) * sizeof(svBitVecVal));
  dpi_put(v, kPrPorts, 32, p->num_ports);
  dpi_put(v, kPrTcs, 32, p->num_tcs);
  dpi_put(v, kPrDesc, 32, p->num_desc);
  dpi_put(v, kPrCell, 32, p->cell_bytes);
  dpi_put(v, kPrOcb, 32, p->ocb_cells);
  dpi_put(v, kPrHbm, 32, p->hbm_cells);
  dpi_put(v, kPrFifo, 32, p->fifo_depth);
}

void xtm_dpi_params_default(svBitVecVal *params) {
  xtm_params_t p;
  if (params == NULL) {
    return;
  }
  xtm_params_default(&p);
  params_pack(&p, params);
}

int xtm_dpi_create(const svBitVecVal *params, void **h) {
  if (h == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_create: no handle argument");
  }
  *h = NULL;
  if (params == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_create: no parameters");
  }
  xtm_params_t p = {
      .num_ports = (uint32_t)dpi_get(params, kPrPorts, 32),
      .num_tcs = (uint32_t)dpi_get(params, kPrTcs, 32),
      .num_desc = (uint32_t)dpi_get(params, kPrDesc, 32),
      .cell_bytes = (uint32_t)dpi_get(params, kPrCell, 32),
      .ocb_cells = (uint32_t)dpi_get(params, kPrOcb, 32),
      .hbm_cells = (uint32_t)dpi_get(params, kPrHbm, 32),
      .fifo_depth = (uint32_t)dpi_get(params, kPrFifo, 32),
  };
  const char *why = NULL;
  if (!xtm_params_valid(&p, &why)) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_create: %s", why != NULL ? why : "invalid parameters");
  }
  xtm_dpi_inst_t *x = calloc(1, sizeof(*x));
  if (x == NULL) {
    return dpi_fail(kDpiNoMem, "xtm_dpi_create: out of memory");
  }
  xtm_status_t st = xtm_create(&p, &x->m);
  if (st != kXtmOk) {
    free(x);
    return dpi_fail(st == kXtmNoMem ? kDpiNoMem : kDpiBadArg,
                    "xtm_dpi_create: xtm_create failed (%d)", (int)st);
  }
  x->nports = p.num_ports;
  x->nvoqs = p.num_ports * p.num_tcs;
  x->pmask = p.num_ports >= 64u ? ~0ull : ((1ull << p.num_ports) - 1u);
  int r = dpi_handle_new(&g_xtm_table, x, h);
  if (r != kDpiOk) {
    xtm_destroy(x->m);
    free(x);
    *h = NULL;
    return dpi_fail(r, "xtm_dpi_create: all %u instances in use", DPI_MAX_INSTANCES);
  }
  return kDpiOk;
}

int xtm_dpi_destroy(void *h) {
  void *o;
  int st = dpi_handle_delete(&g_xtm_table, h, &o);
  if (st != kDpiOk) {
    return dpi_fail(st, "xtm_dpi_destroy: %s handle %p", st == kDpiBusy ? "busy" : "bad", h);
  }
  xtm_dpi_inst_t *x = (xtm_dpi_inst_t *)o;
  xtm_destroy(x->m);
  free(x);
  return kDpiOk;
}

int xtm_dpi_reset(void *h) {
  ACQUIRE("xtm_dpi_reset");
  xtm_reset(x->m);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_get_params(void *h, svBitVecVal *params) {
  if (params == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_get_params: no output");
  }
  ACQUIRE("xtm_dpi_get_params");
  params_pack(xtm_params(x->m), params);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_instances(void) { return (int)atomic_load(&g_xtm_table.live); }

// ------------------------------------------------------------------ time

// Packs one cycle's outputs. Entries without their valid bit are 0 (the model leaves them
// stale); with valid = false nothing but the cycle is packed.
static void out_pack(const xtm_dpi_inst_t *x, const xtm_out_t *o, bool valid, svBitVecVal *out,
                     svBitVecVal *deq, svBitVecVal *tvec, svBitVecVal *tq) {
  memset(out, 0, DPI_WORDS(kOutBits) * sizeof(svBitVecVal));
  memset(deq, 0, DEQ_WORDS * sizeof(svBitVecVal));
  memset(tvec, 0, VEC_WORDS * sizeof(svBitVecVal));
  memset(tq, 0, QUANTA_WORDS * sizeof(svBitVecVal));
  dpi_put(out, kOutCycle, 64, o->cycle);
  if (!valid) {
    return;
  }
  if (o->enq_res.valid) {
    dpi_put(out, kOutErValid, 1, 1);
    dpi_put(out, kOutErPkt, 32, o->enq_res.pkt_id);
    dpi_put(out, kOutErVoq, 9, o->enq_res.voq);
    dpi_put(out, kOutErReason, 4, o->enq_res.reason);
    dpi_put(out, kOutErMarked, 1, o->enq_res.marked);
    dpi_put(out, kOutErHdrm, 1, o->enq_res.hdrm);
    dpi_put(out, kOutErHbm, 1, o->enq_res.hbm);
  }
  if (o->flush.valid) {
    dpi_put(out, kOutFlValid, 1, 1);
    dpi_put(out, kOutFlPkt, 32, o->flush.pkt_id);
    dpi_put(out, kOutFlVoq, 9, o->flush.voq);
  }
  if (o->csr_rsp.valid) {
    dpi_put(out, kOutCsrValid, 1, 1);
    dpi_put(out, kOutCsrErr, 1, o->csr_rsp.err);
    dpi_put(out, kOutCsrRdata, 32, o->csr_rsp.rdata);
  }
  uint64_t dv = o->deq_valid & x->pmask, pv = o->pfc_tx_valid & x->pmask;
  dpi_put(out, kOutDeqValid, 64, dv);
  dpi_put(out, kOutPfcValid, 64, pv);
  while (dv != 0u) {
    uint32_t p = (uint32_t)__builtin_ctzll(dv);
    dv &= dv - 1u;
    const xtm_deq_out_t *d = &o->deq[p];
    uint32_t b = p * kDqBits;
    dpi_put(deq, b + kDqSoj, 32, d->sojourn);
    dpi_put(deq, b + kDqHbm, 1, d->hbm);
    dpi_put(deq, b + kDqMarked, 1, d->marked);
    dpi_put(deq, b + kDqEcn, 2, d->ecn);
    dpi_put(deq, b + kDqDscp, 6, d->dscp);
    dpi_put(deq, b + kDqLen, 14, d->len);
    dpi_put(deq, b + kDqInPort, 6, d->in_port);
    dpi_put(deq, b + kDqVoq, 9, d->voq);
    dpi_put(deq, b + kDqPkt, 32, d->pkt_id);
  }
  while (pv != 0u) {
    uint32_t p = (uint32_t)__builtin_ctzll(pv);
    pv &= pv - 1u;
    dpi_put(tvec, 8u * p, 8, o->pfc_tx[p].vec);
    for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
      dpi_put(tq, 16u * (8u * p + i), 16, o->pfc_tx[p].quanta[i]);
    }
  }
}

int xtm_dpi_step(void *h, const svBitVecVal *in, const svBitVecVal *pfc_rx_vec,
                 const svBitVecVal *pfc_rx_quanta, svBitVecVal *out, svBitVecVal *deq,
                 svBitVecVal *pfc_tx_vec, svBitVecVal *pfc_tx_quanta) {
  if (in == NULL || pfc_rx_vec == NULL || pfc_rx_quanta == NULL || out == NULL || deq == NULL ||
      pfc_tx_vec == NULL || pfc_tx_quanta == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_step: a vector argument is missing");
  }
  ACQUIRE("xtm_dpi_step");
  xtm_in_t *i = &x->in;
  i->enq.valid = dpi_get(in, kInEnqValid, 1) != 0u;
  i->enq.pkt_id = (uint32_t)dpi_get(in, kInEnqPkt, 32);
  i->enq.in_port = (uint8_t)dpi_get(in, kInEnqIn, 6);
  i->enq.eg_port = (uint8_t)dpi_get(in, kInEnqEg, 6);
  i->enq.dscp = (uint8_t)dpi_get(in, kInEnqDscp, 6);
  i->enq.ecn = (uint8_t)dpi_get(in, kInEnqEcn, 2);
  i->enq.len = (uint16_t)dpi_get(in, kInEnqLen, 14);
  i->csr.valid = dpi_get(in, kInCsrValid, 1) != 0u;
  i->csr.write = dpi_get(in, kInCsrWrite, 1) != 0u;
  i->csr.addr = (uint16_t)dpi_get(in, kInCsrAddr, 16);
  i->csr.wdata = (uint32_t)dpi_get(in, kInCsrWdata, 32);
  i->tx_ready = dpi_get(in, kInTxReady, 64);
  // frames only for ports that exist: the input vectors have 64 entries, the model P
  i->pfc_rx_valid = dpi_get(in, kInPfcValid, 64) & x->pmask;
  for (uint64_t fr = i->pfc_rx_valid; fr != 0u; fr &= fr - 1u) {
    uint32_t p = (uint32_t)__builtin_ctzll(fr);
    i->pfc_rx[p].vec = (uint8_t)dpi_get(pfc_rx_vec, 8u * p, 8);
    for (uint32_t k = 0; k < XTM_NUM_PRIOS; k++) {
      i->pfc_rx[p].quanta[k] = (uint16_t)dpi_get(pfc_rx_quanta, 16u * (8u * p + k), 16);
    }
  }
  xtm_step(x->m, i, &x->out);
  out_pack(x, &x->out, true, out, deq, pfc_tx_vec, pfc_tx_quanta);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_advance_to(void *h, unsigned long long target, svBitVecVal *out, svBitVecVal *deq,
                       svBitVecVal *pfc_tx_vec, svBitVecVal *pfc_tx_quanta) {
  if (out == NULL || deq == NULL || pfc_tx_vec == NULL || pfc_tx_quanta == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_advance_to: a vector argument is missing");
  }
  ACQUIRE("xtm_dpi_advance_to");
  bool any = xtm_advance_to(x->m, (uint64_t)target, &x->out);
  out_pack(x, &x->out, any, out, deq, pfc_tx_vec, pfc_tx_quanta);
  RELEASE();
  return any ? 1 : 0;
}

int xtm_dpi_cycle(void *h, unsigned long long *cycle) {
  if (cycle == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_cycle: no output");
  }
  ACQUIRE("xtm_dpi_cycle");
  *cycle = xtm_cycle(x->m);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_next_event(void *h, unsigned long long *cycle) {
  if (cycle == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_next_event: no output");
  }
  ACQUIRE("xtm_dpi_next_event");
  *cycle = xtm_next_event(x->m);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_set_tx_ready(void *h, unsigned long long mask) {
  ACQUIRE("xtm_dpi_set_tx_ready");
  xtm_set_tx_ready(x->m, (uint64_t)mask);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_set_eager(void *h, svBit eager) {
  ACQUIRE("xtm_dpi_set_eager");
  xtm_set_eager(x->m, eager != 0u);
  RELEASE();
  return kDpiOk;
}

// ------------------------------------------------------------------ CSR backdoor

int xtm_dpi_csr_read(void *h, unsigned int addr, unsigned int *data) {
  if (data == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_csr_read: no output");
  }
  *data = 0;
  if (addr > 0xFFFFu) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_csr_read: address 0x%x beyond the 16-bit space", addr);
  }
  ACQUIRE("xtm_dpi_csr_read");
  uint32_t d = 0;
  bool ok = xtm_csr_read(x->m, (uint16_t)addr, &d);
  RELEASE();
  *data = d;
  return ok ? kDpiOk : dpi_fail(kDpiFalse, "xtm_dpi_csr_read: CSR error at 0x%04x", addr);
}

int xtm_dpi_csr_write(void *h, unsigned int addr, unsigned int data) {
  if (addr > 0xFFFFu) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_csr_write: address 0x%x beyond the 16-bit space", addr);
  }
  ACQUIRE("xtm_dpi_csr_write");
  bool ok = xtm_csr_write(x->m, (uint16_t)addr, (uint32_t)data);
  RELEASE();
  return ok ? kDpiOk : dpi_fail(kDpiFalse, "xtm_dpi_csr_write: CSR error at 0x%04x", addr);
}

// ------------------------------------------------------------------ state (spec 12)

int xtm_dpi_voq_state(void *h, unsigned int voq, svBitVecVal *state) {
  if (state == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_voq_state: no output");
  }
  ACQUIRE("xtm_dpi_voq_state");
  if (voq >= x->nvoqs) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_voq_state: voq %u >= NumVoqs %u", voq, x->nvoqs);
  }
  xtm_voq_state_t s;
  xtm_voq_state(x->m, voq, &s);
  RELEASE();
  memset(state, 0, DPI_WORDS(kVsBits) * sizeof(svBitVecVal));
  dpi_put(state, kVsOccCells, 32, s.occ_cells);
  dpi_put(state, kVsOccPkts, 32, s.occ_pkts);
  dpi_put(state, kVsHbmCells, 32, s.hbm_cells);
  dpi_put(state, kVsHbmMode, 1, s.hbm_mode);
  dpi_put(state, kVsOcbOnly, 1, s.ocb_only);
  dpi_put(state, kVsWd, 1, s.wd_stalled);
  dpi_put(state, kVsFlushing, 1, s.flushing);
  dpi_put(state, kVsDeficit, 32, (uint32_t)s.deficit);
  dpi_put(state, kVsHead, 32, s.occ_pkts > 0u ? s.head_pkt_id : 0u);
  dpi_put(state, kVsConform, 1, s.shaper_conform);
  dpi_put(state, kVsWdStorm, 8, s.wd_storm);
  dpi_put(state, kVsWdClean, 8, s.wd_clean);
  return kDpiOk;
}

int xtm_dpi_pg_state(void *h, unsigned int port, unsigned int prio, svBitVecVal *state) {
  if (state == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_pg_state: no output");
  }
  ACQUIRE("xtm_dpi_pg_state");
  if (port >= x->nports || prio >= XTM_NUM_PRIOS) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_pg_state: port %u prio %u outside %u x 8", port, prio,
                    x->nports);
  }
  xtm_pg_state_t s;
  xtm_pg_state(x->m, port, prio, &s);
  RELEASE();
  memset(state, 0, DPI_WORDS(kPsBits) * sizeof(svBitVecVal));
  dpi_put(state, kPsCells, 32, s.pg_cells);
  dpi_put(state, kPsHused, 32, s.hdrm_used);
  dpi_put(state, kPsXoff, 1, s.xoff);
  dpi_put(state, kPsPause, 64, s.pause_remain);
  return kDpiOk;
}

int xtm_dpi_global_state(void *h, svBitVecVal *state) {
  if (state == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_global_state: no output");
  }
  ACQUIRE("xtm_dpi_global_state");
  xtm_global_state_t s;
  xtm_global_state(x->m, &s);
  RELEASE();
  memset(state, 0, DPI_WORDS(kGsBits) * sizeof(svBitVecVal));
  dpi_put(state, kGsPool, 32, s.pool_used);
  dpi_put(state, kGsOcb, 32, s.ocb_used);
  dpi_put(state, kGsHbm, 32, s.hbm_used);
  dpi_put(state, kGsDescFree, 32, s.desc_free);
  dpi_put(state, kGsLfsr, 32, s.lfsr);
  dpi_put(state, kGsCycle, 64, s.cycle);
  dpi_put(state, kGsLfsrHead, 32, s.lfsr_head);
  return kDpiOk;
}

int xtm_dpi_voq_counter(void *h, unsigned int voq, unsigned int idx, unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_voq_counter: no output");
  }
  *value = 0;
  ACQUIRE("xtm_dpi_voq_counter");
  if (voq >= x->nvoqs || idx >= (unsigned)kXtmVcntCount) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_voq_counter: voq %u (< %u) counter %u (< %d)", voq,
                    x->nvoqs, idx, (int)kXtmVcntCount);
  }
  *value = xtm_voq_counter(x->m, voq, (xtm_vcnt_t)idx);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_pg_counter(void *h, unsigned int port, unsigned int prio, unsigned int idx,
                       unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_pg_counter: no output");
  }
  *value = 0;
  ACQUIRE("xtm_dpi_pg_counter");
  if (port >= x->nports || prio >= XTM_NUM_PRIOS || idx >= (unsigned)kXtmGcntCount) {
    RELEASE();
    return dpi_fail(kDpiBadArg,
                    "xtm_dpi_pg_counter: port %u (< %u) prio %u (< 8) counter %u (< %d)", port,
                    x->nports, prio, idx, (int)kXtmGcntCount);
  }
  *value = xtm_pg_counter(x->m, port, prio, (xtm_gcnt_t)idx);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_port_counter(void *h, unsigned int port, unsigned int idx, unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_port_counter: no output");
  }
  *value = 0;
  ACQUIRE("xtm_dpi_port_counter");
  if (port >= x->nports || idx >= (unsigned)kXtmPcntCount) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_port_counter: port %u (< %u) counter %u (< %d)", port,
                    x->nports, idx, (int)kXtmPcntCount);
  }
  *value = xtm_port_counter(x->m, port, (xtm_pcnt_t)idx);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_pol_state(void *h, unsigned int k, unsigned long long *tok, unsigned long long *u) {
  if (tok == NULL || u == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_pol_state: no output");
  }
  *tok = *u = 0;
  ACQUIRE("xtm_dpi_pol_state");
  if (k >= x->nports * XTM_POLS_PER_PORT) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_pol_state: policer %u (< %u)", k,
                    x->nports * XTM_POLS_PER_PORT);
  }
  xtm_pol_state_t s;
  xtm_pol_state(x->m, k, &s);
  RELEASE();
  *tok = s.tok;
  *u = s.u;
  return kDpiOk;
}

int xtm_dpi_pol_counter(void *h, unsigned int k, unsigned int idx, unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_pol_counter: no output");
  }
  *value = 0;
  ACQUIRE("xtm_dpi_pol_counter");
  if (k >= x->nports * XTM_POLS_PER_PORT || idx >= (unsigned)kXtmPolcntCount) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_pol_counter: policer %u (< %u) counter %u (< %d)", k,
                    x->nports * XTM_POLS_PER_PORT, idx, (int)kXtmPolcntCount);
  }
  *value = xtm_pol_counter(x->m, k, (xtm_polcnt_t)idx);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_global_counter(void *h, unsigned int idx, unsigned long long *value) {
  if (value == NULL) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_global_counter: no output");
  }
  *value = 0;
  ACQUIRE("xtm_dpi_global_counter");
  if (idx >= (unsigned)kXtmEcntCount) {
    RELEASE();
    return dpi_fail(kDpiBadArg, "xtm_dpi_global_counter: counter %u (< %d)", idx,
                    (int)kXtmEcntCount);
  }
  *value = xtm_global_counter(x->m, (xtm_ecnt_t)idx);
  RELEASE();
  return kDpiOk;
}

int xtm_dpi_check_invariants(void *h) {
  char why[200];
  ACQUIRE("xtm_dpi_check_invariants");
  bool ok = xtm_check_invariants(x->m, why, sizeof(why));
  RELEASE();
  return ok ? kDpiOk : dpi_fail(kDpiFalse, "invariant broken: %s", why);
}

int xtm_dpi_inject_fault(void *h, unsigned int fault) {
  if (fault > (unsigned)kXtmFaultFlipConform) {
    return dpi_fail(kDpiBadArg, "xtm_dpi_inject_fault: fault %u unknown", fault);
  }
  ACQUIRE("xtm_dpi_inject_fault");
  bool ok = xtm_inject_fault(x->m, (xtm_fault_t)fault);
  RELEASE();
  return ok ? kDpiOk
            : dpi_fail(kDpiFalse, "xtm_dpi_inject_fault: fault %u not applicable now", fault);
}

const char *xtm_dpi_last_error(void) { return dpi_last_error(); }
const char *xtm_dpi_status_name(int status) { return dpi_status_name(status); }
const char *xtm_dpi_reason_name(unsigned int reason) {
  return reason < (unsigned)kXtmReasonCount ? xtm_reason_name((xtm_reason_t)reason)
                                            : "UNKNOWN_REASON";
}
