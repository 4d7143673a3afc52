// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: the configuration compiler (firmware/cos) on arbitrary text, for the
// default hardware, inputs up to 1 MB (tests/fuzz/run-fuzz -max_len; the compiler itself
// takes 4 MiB and refuses more with one error). It must never crash, never overrun a
// buffer (ASan), return its error count, store at most its bounded number of messages
// (nerrors counts every error, the first XTM_COS_MAX_ERRORS are kept, each
// NUL-terminated) and warnings; a successful compile must give queue and PG counts within
// the hardware.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/cos/xtm_cos.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static xtm_cos_result_t r;
  char *text = malloc(size + 1);
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  xtm_fw_hw_t hw = {.num_ports = 8,
                    .num_tcs = 8,
                    .cell_log2 = 8,
                    .cell_bytes = 256,
                    .fifo_depth = 8,
                    .num_desc = 4096,
                    .ocb_cells = 65536,
                    .hbm_cells = 1u << 25};
  memset(&r, 0, sizeof r);
  uint32_t n = xtm_cos_compile("fuzz.conf", text, &hw, NULL, &r);
  if (n != r.nerrors || r.nwarnings > XTM_COS_MAX_WARNINGS) abort();
  if (r.nerror_msgs > XTM_COS_MAX_ERRORS || r.nerror_msgs > r.nerrors ||
      (n > 0 && r.nerror_msgs == 0 && r.errors_dropped == 0))
    abort();
  if (n == 0 && (r.nqueues > XTM_FW_MAX_QUEUES || r.npgs > XTM_FW_MAX_PGS)) abort();
  if (r.nports > hw.num_ports) abort();
  uint64_t used = 0;
  for (uint32_t i = 0; i < r.nports; i++) {
    if (r.ports[i].port >= hw.num_ports || (used >> r.ports[i].port & 1u)) abort();
    used |= 1ull << r.ports[i].port;
  }
  for (uint32_t i = 0; i < r.nerror_msgs; i++) {
    if (memchr(r.errors[i], '\0', XTM_COS_MSG_LEN) == NULL) abort();
    char note[XTM_COS_MSG_LEN];
    (void)xtm_cos_repeat_note(&r, false, i, "fuzz.conf", note, sizeof(note));
  }
  for (uint32_t i = 0; i < r.nwarnings; i++) {
    if (memchr(r.warnings[i], '\0', XTM_COS_MSG_LEN) == NULL) abort();
  }
  free(text);
  return 0;
}
