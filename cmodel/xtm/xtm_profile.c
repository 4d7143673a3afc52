// SPDX-License-Identifier: Apache-2.0
//
// Drop/mark profile evaluation and the marking LFSR (docs/spec.md sections 6.1 and 6.4).
// RTL twins: xtm_pkg::profile_hit, xtm_lfsr.

#include "cmodel/xtm/xtm_internal.h"

// One Galois step, polynomial x^32 + x^22 + x^2 + x + 1.
static inline uint32_t lfsr_step(uint32_t s) {
  return (s & 1u) ? (s >> 1) ^ 0x80200003u : (s >> 1);
}

uint32_t xtm_lfsr_draw(xtm_t *m) {
  uint32_t s = m->lfsr;
  for (int i = 0; i < 16; i++) {
    s = lfsr_step(s);
  }
  m->lfsr = s;
  return s & 0xFFFFu;
}

// Spec 6.1. All products stay below 2^62.
bool xtm_profile_hit(xtm_t *m, uint32_t prof, uint32_t occ, uint32_t limit) {
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
    int64_t p = ist < 0 ? 0 : pr->prob[ist];
    if (p <= 0) {
      return false;
    }
    if (p >= 65536) {
      return true;
    }
    return (int64_t)xtm_lfsr_draw(m) < p;
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
    if (pa <= 0) {
      return false;
    }
    if (pa >= 65536) {
      return true;
    }
    return (int64_t)xtm_lfsr_draw(m) < pa;
  }
  int64_t dn = (fb - fa) * L;
  int64_t num = pa * dn + (pb - pa) * (O - fa * L);
  if (num <= 0) {
    return false;
  }
  if (num >= 65536 * dn) {
    return true;
  }
  return (int64_t)xtm_lfsr_draw(m) * dn < num;
}
