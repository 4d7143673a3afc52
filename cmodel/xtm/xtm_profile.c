// SPDX-License-Identifier: Apache-2.0
//
// Drop/mark profile evaluation and the LFSRs (docs/spec.md sections 6.1 and 6.4). The
// evaluation yields a code (never, always, draw) and the draw's operands; the caller draws
// from the enqueue LFSR at once (6.2) or from the head LFSR three cycles later (6.3).
// RTL twins: rtl/xtm/xtm_prof_eval.sv (codes ProfNever/ProfAlways/ProfDraw of xtm_pkg),
// rtl/xtm/xtm_lfsr.sv.

#include <stdlib.h>

#include "cmodel/xtm/xtm_internal.h"

// One Galois step, polynomial x^32 + x^22 + x^2 + x + 1.
static inline uint32_t lfsr_step(uint32_t s) {
  return (s & 1u) ? (s >> 1) ^ 0x80200003u : (s >> 1);
}

static uint32_t lfsr_steps16(uint32_t s) {
  for (int i = 0; i < 16; i++) {
    s = lfsr_step(s);
  }
  return s;
}

// 16 steps are linear over GF(2), and a bit at position 16 or above moves down one place a
// step without reaching the tap (bit 0) within them: steps16(s) = (s >> 16) ^
// steps16(s & 0xFF) ^ steps16(s & 0xFF00), the last two from tables of 256 entries.
void xtm_lfsr_tables(xtm_t *m) {
  for (uint32_t b = 0; b < 256; b++) {
    m->lfsr16_lo[b] = lfsr_steps16(b);
    m->lfsr16_hi[b] = lfsr_steps16(b << 8);
  }
}

uint32_t xtm_lfsr_draw(const xtm_t *m, uint32_t *state) {
  uint32_t s0 = *state;
  uint32_t s = (s0 >> 16) ^ m->lfsr16_lo[s0 & 0xFFu] ^ m->lfsr16_hi[(s0 >> 8) & 0xFFu];
#ifdef XTM_CHECK_FAST
  if (s != lfsr_steps16(s0)) {
    abort();
  }
#endif
  *state = s;
  return s & 0xFFFFu;
}

// A probability p in Q0.16 compared with r: hit = r * 1 < p.
static uint8_t code_of_p(int64_t p, int64_t *mul, int64_t *thr) {
  *mul = 1;
  *thr = p;
  if (p <= 0) {
    return kXtmCodeNever;
  }
  return p >= 65536 ? kXtmCodeAlways : kXtmCodeDraw;
}

// Spec 6.1. All products stay below 2^62.
uint8_t xtm_profile_eval(const xtm_t *m, uint32_t prof, uint32_t occ, uint32_t limit, int64_t *mul,
                         int64_t *thr) {
  const xtm_profile_t *pr = &m->prof[prof & 7u];
  uint32_t n = XTM_F(pr->cfg, PR_CFG, NPOINTS);
  bool interp = XTM_F(pr->cfg, PR_CFG, INTERP) != 0;
  int64_t L, O;
  if (limit == 0) {
    L = 1;
    O = 65536;
  } else {
    L = limit;
    O = 65536 * (int64_t)(occ < limit ? occ : limit);
  }
  int ist = -1;
  for (uint32_t i = 0; i < n && i < 8; i++) {
    if (O >= (int64_t)pr->fill[i] * L) {
      ist = (int)i;
    }
  }
  if (!interp) {
    return code_of_p(ist < 0 ? 0 : pr->prob[ist], mul, thr);
  }
  int64_t fa = ist < 0 ? 0 : pr->fill[ist];
  int64_t pa = ist < 0 ? 0 : pr->prob[ist];
  int64_t fb, pb;
  if (ist + 1 < (int)n) {
    fb = pr->fill[ist + 1];
    pb = pr->prob[ist + 1];
  } else {
    fb = 65536;
    pb = 65536;
  }
  if (fb <= fa) {
    return code_of_p(pa, mul, thr);
  }
  int64_t dn = (fb - fa) * L;
  int64_t num = pa * dn + (pb - pa) * (O - fa * L);
  *mul = dn;
  *thr = num;
  if (num <= 0) {
    return kXtmCodeNever;
  }
  return num >= 65536 * dn ? kXtmCodeAlways : kXtmCodeDraw;
}
