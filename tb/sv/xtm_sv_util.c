// SPDX-License-Identifier: Apache-2.0
//
// Small host services for the SystemVerilog testbenches (tb/sv/): wall-clock time for the
// cycles/s figure, the output folder, the tree's `git describe` for the summary's stamp, and
// the process exit code. Plain C11 + POSIX mkdir and popen,
// no simulator header beyond svdpi.h: any simulator can link it.

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "svdpi.h"

#ifdef __cplusplus
extern "C" {
#endif

double xtm_sv_wall_seconds(void);
int xtm_sv_mkdir(const char *path);
const char *xtm_sv_git_describe(void);
void xtm_sv_exit_code(int code);

#ifdef __cplusplus
}
#endif

double xtm_sv_wall_seconds(void) {
  struct timespec ts;
  if (timespec_get(&ts, TIME_UTC) != TIME_UTC) {
    return 0.0;
  }
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// `git describe --always --dirty` of the working directory's tree for the summary's stamp
// (issue 17, as tb/tb_common.h tb_print_stamp): XTM_GIT_DESCRIBE overrides it, "nogit"
// outside a git tree. The string stays valid for the process.
const char *xtm_sv_git_describe(void) {
  static char b[128];
  const char *env = getenv("XTM_GIT_DESCRIBE");
  if (env != NULL && env[0] != '\0') {
    snprintf(b, sizeof(b), "%s", env);
    return b;
  }
  b[0] = '\0';
  FILE *p = popen("git describe --always --dirty 2>/dev/null", "r");
  if (p != NULL) {
    if (fgets(b, sizeof(b), p) == NULL) {
      b[0] = '\0';
    }
    pclose(p);
  }
  b[strcspn(b, "\r\n")] = '\0';
  if (b[0] == '\0') {
    snprintf(b, sizeof(b), "nogit");
  }
  return b;
}

// mkdir -p; 0 on success.
int xtm_sv_mkdir(const char *path) {
  char b[1024];
  size_t n = path != NULL ? strlen(path) : 0;
  if (n == 0 || n >= sizeof(b)) {
    return -1;
  }
  memcpy(b, path, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (b[i] == '/' || b[i] == '\0') {
      char c = b[i];
      b[i] = '\0';
      if (mkdir(b, 0777) != 0 && errno != EEXIST) {
        return -1;
      }
      b[i] = c;
    }
  }
  return 0;
}

// The simulator's own exit status after $finish is 0 whatever the test found; a failing
// run must exit non-zero for the regression runner. Registered here, applied when the
// simulator exits normally (after its final blocks and trace close): stdout is flushed,
// then the process ends with `code`.
static int g_exit_code;
static void apply_exit_code(void) {
  fflush(NULL);
  if (g_exit_code != 0) {
    _Exit(g_exit_code);
  }
}
void xtm_sv_exit_code(int code) {
  static int registered;
  g_exit_code = code;
  if (!registered) {
    registered = 1;
    if (atexit(apply_exit_code) != 0) {
      fprintf(stderr, "xtm_sv_exit_code: atexit failed\n");
    }
  }
}
