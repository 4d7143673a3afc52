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
  xtm_fw_hw_t hw = {.num_ports = 8, .num_tcs = 8, .cell_log2 = 8, .cell_bytes = 256,
                    .fifo_depth = 8, .num_desc = 4096, .ocb_cells = 65536, .hbm_cells = 1u << 25};
  memset(&r, 0, sizeof r);
  uint32_t n = xtm_cos_compile("fuzz.conf", text, &hw, NULL, &r);
  if (n != r.nerrors || r.nwarnings > XTM_COS_MAX_WARNINGS) abort();
  if (n == 0 && (r.nqueues > XTM_FW_MAX_QUEUES || r.npgs > XTM_FW_MAX_PGS)) abort();
  for (uint32_t i = 0; i < r.nerrors && i < XTM_COS_MAX_ERRORS; i++) {
    if (memchr(r.errors[i], '\0', XTM_COS_MSG_LEN) == NULL) abort();
  }
  free(text);
  return 0;
}
