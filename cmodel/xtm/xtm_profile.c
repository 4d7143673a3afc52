// SPDX-License-Identifier: Apache-2.0
//
// The LFSRs (docs/spec.md section 6.4). RTL twin: rtl/xtm/xtm_lfsr.sv. The drop/mark
// profile evaluation (6.1) is xtm_profile_eval in xtm_internal.h (inlined where it is used).

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
  if (m->eager) {
    s = lfsr_steps16(s0);  // the reference: the 16 steps
  }
  *state = s;
  return s & 0xFFFFu;
}
