// SPDX-License-Identifier: Apache-2.0
//
// gnuplot without a shell (sim/netsim/plot.h).

#define _POSIX_C_SOURCE 200809L

#include "sim/netsim/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void ns_plot_text(char *dst, size_t n, const char *src) {
  if (n == 0) {
    return;
  }
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)src; *p && k + 1 < n; p++) {
    unsigned char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr(" ._-=,:+/()%", c) != NULL;
    dst[k++] = ok ? (char)c : '_';
  }
  dst[k] = '\0';
}

int ns_plot_run(const char *dir, const char *name, const char *script) {
  char p[4096];
  if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p)) {
    return -1;
  }
  FILE *f = fopen(p, "w");
  if (f == NULL) {
    return -1;
  }
  bool ok = fputs(script, f) >= 0;
  ok = fclose(f) == 0 && ok;
  if (!ok) {
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    return 1;
  }
  if (pid == 0) {
    if (chdir(dir) != 0) {
      _exit(126);
    }
    int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int nul = open("/dev/null", O_RDONLY);
    if (fd < 0 || nul < 0 || dup2(fd, 2) < 0 || dup2(fd, 1) < 0 || dup2(nul, 0) < 0) {
      _exit(126);
    }
    char *argv[] = {"gnuplot", (char *)name, NULL};
    execvp("gnuplot", argv);
    _exit(127);  // gnuplot is not installed
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      return 1;
    }
  }
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
