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
  if (!bad && a->pace.valid) bad = a->pace.qp != b->pace.qp || a->pace.next_send != b->pace.next_send;
  if (!bad && a->csr_rsp.valid) bad = a->csr_rsp.rdata != b->csr_rsp.rdata || a->csr_rsp.err != b->csr_rsp.err;
  if (bad) {
    fprintf(stderr, "eager and skipping dcqcn models differ at cycle %llu\n", (unsigned long long)a->cycle);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rd_t r = {data, size};
  dcqcn_params_t prm;
  dcqcn_params_default(&prm);
  uint32_t shape = take(&r, 1);
  prm.num_qps = 1 + (shape & 63);
  prm.scan_width = 1 + ((shape >> 6) & 3) * 5;
  dcqcn_t *m = NULL, *e = NULL;
  if (dcqcn_create(&prm, &m) != kDcqcnOk || dcqcn_create(&prm, &e) != kDcqcnOk) abort();
  dcqcn_set_eager(e, true);
  dcqcn_in_t in;
  dcqcn_out_t o1, o2;
  for (int ops = 0; r.n > 0 && ops < 4000 && dcqcn_cycle(m) < 150000; ops++) {
    uint32_t op = take(&r, 1);
    memset(&in, 0, sizeof in);
    if ((op & 7) == 7) {  // idle stretch
      uint64_t target = dcqcn_cycle(m) + 1 + (take(&r, 1) << ((op >> 3) & 7));  // up to 32640
      while (dcqcn_cycle(m) < target) {
        bool got = dcqcn_advance_to(m, target, &o1);
        uint64_t until = got ? o1.cycle + 1 : target;
        while (dcqcn_cycle(e) < until) {
          dcqcn_step(e, NULL, &o2);
          if (dcqcn_out_any(&o2) && !(got && o2.cycle == o1.cycle)) {
            fprintf(stderr, "eager model output at cycle %llu the skipping model missed\n",
                    (unsigned long long)o2.cycle);
            abort();
          }
        }
        if (got) same(&o1, &o2);
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
      in.csr.addr = (uint16_t)take(&r, 2);
      in.csr.wdata = take(&r, 4);
    }
    dcqcn_step(m, &in, &o1);
    dcqcn_step(e, &in, &o2);
    same(&o1, &o2);
  }
  dcqcn_destroy(m);
  dcqcn_destroy(e);
  return 0;
}
