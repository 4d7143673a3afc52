// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: the dcqcn C model driven by arbitrary CNP / transmit / CE events and
// CSR accesses, with idle stretches through dcqcn_advance_to. A second model in eager mode
// gets the same inputs; the outputs must agree (spec D11: skipping is exact). Any
// difference, or a sanitizer finding, aborts.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

typedef struct {
  const uint8_t *p;
  size_t n;
} rd_t;

static uint32_t take(rd_t *r, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; i++) v = v << 8 | (r->n ? (r->n--, *r->p++) : 0);
  return v;
}

static void same(const dcqcn_out_t *a, const dcqcn_out_t *b) {
  int bad = a->cnp_tx.valid != b->cnp_tx.valid || a->n_rate != b->n_rate ||
            a->pace.valid != b->pace.valid || a->csr_rsp.valid != b->csr_rsp.valid;
  if (!bad && a->cnp_tx.valid) bad = a->cnp_tx.qp != b->cnp_tx.qp;
  for (uint32_t i = 0; !bad && i < a->n_rate && i < DCQCN_MAX_RATE_UPD; i++) {
    bad = a->rate[i].qp != b->rate[i].qp || a->rate[i].rc != b->rate[i].rc ||
          a->rate[i].rt != b->rate[i].rt || a->rate[i].alpha != b->rate[i].alpha;
  }
  if (!bad && a->pace.valid)
    bad = a->pace.qp != b->pace.qp || a->pace.next_send != b->pace.next_send;
  if (!bad && a->csr_rsp.valid)
    bad = a->csr_rsp.rdata != b->csr_rsp.rdata || a->csr_rsp.err != b->csr_rsp.err;
  if (bad) {
    fprintf(stderr, "eager and skipping dcqcn models differ at cycle %llu\n",
            (unsigned long long)a->cycle);
    abort();
  }
}

// Each input is kept cheap (as fuzz_xtm, issue 14): models are created once per shape and
// reset per input (dcqcn_reset is "equivalent to asserting rst_ni", cmodel/dcqcn/dcqcn.h);
// the eager twin steps at most EAGER_CYCLES cycles, then the skipping model goes on alone
// for up to MAX_CYCLES cycles and MAX_OPS operations (CSR writes can shorten
// CYCLES_PER_US, so timers fire inside the eager budget too).
#define MAX_OPS 1000
#define MAX_CYCLES 150000u
#ifndef EAGER_CYCLES
#define EAGER_CYCLES 1024u
#endif

static dcqcn_t *g_cache[256][2];

// Offset of the i-th register (modulo the register count) of the generated table: half the
// CSR accesses name a mapped register, so no comparison tracing is needed to reach them.
static uint16_t reg_offset(uint32_t i) {
  static dcqcn_reg_desc_t regs[DCQCN_REG_COUNT];
  static size_t n;
  if (n == 0) {
    dcqcn_reg_params_t rp;
    dcqcn_reg_params_default(&rp);
    n = dcqcn_regs_build(&rp, regs, DCQCN_REG_COUNT);
    if (n > DCQCN_REG_COUNT) n = DCQCN_REG_COUNT;
  }
  return regs[i % n].offset;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rd_t r = {data, size};
  dcqcn_params_t prm;
  dcqcn_params_default(&prm);
  uint32_t shape = take(&r, 1);
  prm.num_qps = 1 + (shape & 63);
  prm.scan_width = 1 + ((shape >> 6) & 3) * 5;
  dcqcn_t **c = g_cache[shape & 0xff];
  if (c[0] == NULL) {
    if (dcqcn_create(&prm, &c[0]) != kDcqcnOk || dcqcn_create(&prm, &c[1]) != kDcqcnOk) abort();
    dcqcn_set_eager(c[1], true);
  }
  dcqcn_reset(c[0]);
  dcqcn_reset(c[1]);
  dcqcn_t *m = c[0], *e = c[1];
  dcqcn_in_t in;
  dcqcn_out_t o1, o2;
  for (int ops = 0; r.n > 0 && ops < MAX_OPS && dcqcn_cycle(m) < MAX_CYCLES; ops++) {
    uint32_t op = take(&r, 1);
    memset(&in, 0, sizeof in);
    if (e != NULL && dcqcn_cycle(e) >= EAGER_CYCLES) {
      e = NULL;  // budget spent: the skipping model alone
    }
    if ((op & 7) == 7) {                                                        // idle stretch
      uint64_t target = dcqcn_cycle(m) + 1 + (take(&r, 1) << ((op >> 3) & 7));  // up to 32640
      if (e != NULL && target > EAGER_CYCLES) {
        e = NULL;
      }
      while (dcqcn_cycle(m) < target) {
        bool got = dcqcn_advance_to(m, target, &o1);
        uint64_t until = got ? o1.cycle + 1 : target;
        while (e != NULL && dcqcn_cycle(e) < until) {
          dcqcn_step(e, NULL, &o2);
          if (dcqcn_out_any(&o2) && !(got && o2.cycle == o1.cycle)) {
            fprintf(stderr, "eager model output at cycle %llu the skipping model missed\n",
                    (unsigned long long)o2.cycle);
            abort();
          }
        }
        if (got && e != NULL) same(&o1, &o2);
      }
      continue;
    }
    if (op & 1) in.cnp = (dcqcn_qp_ev_t){true, (uint16_t)(take(&r, 1) % (prm.num_qps + 2))};
    if (op & 2) {
      in.tx.valid = true;
      in.tx.qp = (uint16_t)(take(&r, 1) % (prm.num_qps + 2));
      in.tx.bytes = (uint16_t)take(&r, 2);
    }
    if (op & 4) in.ce = (dcqcn_qp_ev_t){true, (uint16_t)(take(&r, 1) % (prm.num_qps + 2))};
    if (op & 8) {
      in.csr.valid = true;
      in.csr.write = op & 16;
      in.csr.addr = (op & 32) ? reg_offset(take(&r, 1)) : (uint16_t)take(&r, 2);
      in.csr.wdata = take(&r, 4);
    }
    dcqcn_step(m, &in, &o1);
    if (e != NULL) {
      dcqcn_step(e, &in, &o2);
      same(&o1, &o2);
    }
  }
  return 0;
}
