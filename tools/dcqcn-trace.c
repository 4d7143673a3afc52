// SPDX-License-Identifier: Apache-2.0
//
// dcqcn-trace: runs one QP of the libdcqcn C model (docs/spec-dcqcn.md) through a CNP
// pattern and prints CSV `time_us,rc_mbps,rt_mbps,alpha` every --every-us, optionally
// drawing Rc, Rt and alpha with gnuplot. Times are converted to cycles with CYCLES_PER_US
// (1000 by default: 1 GHz). Exit status: 0 success, 2 bad command line, 1 run-time failure
// (including output that could not be written). docs/tools.md lists what is refused.

#define _POSIX_C_SOURCE 200809L  // fork, execvp, waitpid

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "tools/lib/xtm_num.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

#define MAX_CNPS 4096
#define MAX_PARAMS 64
#define MAX_ROWS 1000000u     // CSV rows (and plot points) of one run
#define MAX_US 1000000000.0   // --until-us and CNP times: at most 1000 s
#define TX_FRAME_BYTES 1024u  // frames of the --tx-gbps source
#define PNG_NAME_MAX 255u

typedef struct opts {
  const char *param_name[MAX_PARAMS];
  uint32_t param_value[MAX_PARAMS];
  uint32_t n_params;
  uint32_t line_rate;
  double cnp_us[MAX_CNPS];
  uint32_t n_cnps;
  double tx_gbps;
  double until_us;
  double every_us;
  const char *until_txt;  // as typed, for messages
  const char *every_txt;
  const char *png;
  bool line_rate_opt;    // --line-rate-mbps given
  bool line_rate_param;  // --param LINE_RATE given
  uint32_t seen;         // single-valued options given so far (bit per kWithValue entry)
} opts_t;

static void usage(FILE *f) {
  fprintf(f,
          "usage: dcqcn-trace [options]\n"
          "  --cnp-us T1,T2,...     CNP arrival times in microseconds (decimals allowed)\n"
          "  --until-us T           end of the run (default 1000)\n"
          "  --every-us T           sample period of the CSV rows (default 1)\n"
          "  --param NAME=VALUE     any mlxconfig parameter (repeatable):");
  for (uint32_t i = 0; dcqcn_param_name(i) != NULL; i++) {
    fprintf(f, "%s%s", i % 4 == 0 ? "\n                           " : " ", dcqcn_param_name(i));
  }
  fprintf(f,
          "\n  --line-rate-mbps R     line rate (default 100000)\n"
          "  --tx-gbps G            the QP offers G Gb/s of %u-byte frames, paced at Rc\n"
          "                         (drives the byte counter; default 0: no traffic)\n"
          "  --png FILE             also draw Rc, Rt and alpha over time with gnuplot; its\n"
          "                         script (data inline) is kept as FILE.gp\n"
          "  --help\n",
          TX_FRAME_BYTES);
}

static int fail(const char *msg, const char *arg) {
  char q[256];
  xtm_num_quote(q, sizeof(q), arg);
  fprintf(stderr, "dcqcn-trace: %s%s%s%s\n", msg, arg ? " '" : "", arg ? q : "", arg ? "'" : "");
  return 2;
}

static int fail_num(const xtm_num_msg_t *m) {
  fprintf(stderr, "dcqcn-trace: %s\n", m->text);
  return 2;
}

// A name gnuplot receives inside a quoted string: only characters that cannot end the
// string or start a command (the old `--png "x'; system('...')"` ran a command).
static bool safe_png_name(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > PNG_NAME_MAX || s[0] == '-') {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+' || c == '/';
    if (!ok) {
      return false;
    }
  }
  return true;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

static int parse(int argc, char **argv, opts_t *o) {
  *o = (opts_t){
      .line_rate = 100000, .until_us = 1000, .every_us = 1, .until_txt = "1000", .every_txt = "1"};
  static const char *const kWithValue[] = {
      "--cnp-us", "--until-us", "--every-us", "--param", "--line-rate-mbps", "--tx-gbps", "--png"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1);
    }
    if (strncmp(a, "--", 2) != 0) {
      return fail("unexpected argument", a);
    }
    int which = -1;
    for (size_t k = 0; k < sizeof(kWithValue) / sizeof(kWithValue[0]); k++) {
      if (strcmp(a, kWithValue[k]) == 0) {
        which = (int)k;
      }
    }
    if (which < 0) {
      return fail("unknown option", a);
    }
    if (i + 1 >= argc) {
      return fail("missing value for", a);
    }
    const char *v = argv[++i];
    // a repeated single-valued option used to replace the first silently; --cnp-us adds
    // times, --param sets another name (the same name twice is refused below)
    bool multi = strcmp(a, "--cnp-us") == 0 || strcmp(a, "--param") == 0;
    if (!multi && (o->seen >> which & 1u) != 0) {
      return fail("option given twice", a);
    }
    o->seen |= 1u << which;
    xtm_num_msg_t m;
    if (strcmp(a, "--cnp-us") == 0) {
      const char *p = v;
      for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char buf[64];
        if (o->n_cnps >= MAX_CNPS) {
          fprintf(stderr, "dcqcn-trace: more than %d CNP times\n", MAX_CNPS);
          return 2;
        }
        if (len >= sizeof(buf)) {
          return fail("a CNP time in --cnp-us is longer than 63 characters", v);
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (xtm_num_f64("--cnp-us", buf, 0, MAX_US, &o->cnp_us[o->n_cnps], &m) != kXtmNumOk) {
          return fail_num(&m);
        }
        o->n_cnps++;
        if (c == NULL) {
          break;
        }
        p = c + 1;
      }
    } else if (strcmp(a, "--until-us") == 0) {
      if (xtm_num_f64(a, v, 0, MAX_US, &o->until_us, &m) != kXtmNumOk) {
        return fail_num(&m);
      }
      o->until_txt = v;
    } else if (strcmp(a, "--every-us") == 0) {
      if (xtm_num_f64(a, v, 1e-6, MAX_US, &o->every_us, &m) != kXtmNumOk) {
        return fail_num(&m);
      }
      o->every_txt = v;
    } else if (strcmp(a, "--tx-gbps") == 0) {
      if (xtm_num_f64(a, v, 0, 1000, &o->tx_gbps, &m) != kXtmNumOk) {
        return fail_num(&m);
      }
    } else if (strcmp(a, "--line-rate-mbps") == 0) {
      uint64_t x;
      if (xtm_num_u64(a, v, 1, 1000000, &x, &m) != kXtmNumOk) {
        return fail_num(&m);
      }
      o->line_rate = (uint32_t)x;
      o->line_rate_opt = true;
    } else if (strcmp(a, "--png") == 0) {
      if (!safe_png_name(v)) {
        return fail(
            "--png: a file name for gnuplot may hold only letters, digits and . _ + - / "
            "(no quotes, spaces or a leading '-'; at most 255)",
            v);
      }
      o->png = v;
    } else {  // --param NAME=VALUE
      const char *eq = strchr(v, '=');
      if (eq == NULL) {
        return fail("--param needs NAME=VALUE", v);
      }
      static char names[MAX_PARAMS][64];
      size_t len = (size_t)(eq - v);
      if (o->n_params >= MAX_PARAMS || len >= sizeof(names[0])) {
        return fail("too many or too long --param", v);
      }
      memcpy(names[o->n_params], v, len);
      names[o->n_params][len] = '\0';
      uint16_t addr;
      uint32_t lo, hi;
      if (dcqcn_param_lookup(names[o->n_params], &addr, &lo, &hi) != kDcqcnOk) {
        return fail("unknown parameter name", names[o->n_params]);
      }
      for (uint32_t k = 0; k < o->n_params; k++) {
        if (strcmp(o->param_name[k], names[o->n_params]) == 0) {
          return fail("--param given twice for", names[o->n_params]);
        }
      }
      uint64_t val;
      if (xtm_num_u64(names[o->n_params], eq + 1, lo, hi, &val, &m) != kXtmNumOk) {
        return fail_num(&m);
      }
      if (strcmp(names[o->n_params], "LINE_RATE") == 0) {
        o->line_rate = (uint32_t)val;
        o->line_rate_param = true;
      }
      o->param_name[o->n_params] = names[o->n_params];
      o->param_value[o->n_params++] = (uint32_t)val;
    }
  }
  if (o->line_rate_opt && o->line_rate_param) {
    // LINE_RATE used to override --line-rate-mbps silently after the QP's reset
    fprintf(
        stderr,
        "dcqcn-trace: --line-rate-mbps and --param LINE_RATE both set the line rate; give one\n");
    return 2;
  }
  qsort(o->cnp_us, o->n_cnps, sizeof(double), cmp_double);
  return 0;
}

// The value of a parameter as the run uses it: the --param value, else `dflt`.
static uint32_t param_or(const opts_t *o, const char *name, uint32_t dflt) {
  for (uint32_t i = 0; i < o->n_params; i++) {
    if (strcmp(o->param_name[i], name) == 0) {
      return o->param_value[i];
    }
  }
  return dflt;
}

typedef struct row {
  double t_us;
  uint32_t rc, rt, alpha;
} row_t;

#ifndef XTM_VERSION
#define XTM_VERSION "unknown"
#endif

// Text for a gnuplot single-quoted string: letters, digits and " ._-=,:+/()" kept, every
// other byte '_' (a quote could end the string).
static void gp_text(char *dst, size_t n, const char *src) {
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)src; *p != '\0' && k + 1 < n; p++) {
    bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr(" ._-=,:+/()", *p) != NULL;
    dst[k++] = ok ? (char)*p : '_';
  }
  dst[k] = '\0';
}

// The footer, in lines of at most 190 characters (one `set label` each): footer_add appends
// a word, starting a new line when the current one is full.
typedef struct footer {
  char line[6][200];
  int n;
} footer_t;

static void footer_add(footer_t *f, const char *word) {
  char w[200];
  gp_text(w, sizeof(w), word);
  size_t len = strlen(w), cur = strlen(f->line[f->n]);
  if (cur > 0 && cur + 1 + len > 190) {
    if (f->n + 1 >= (int)(sizeof(f->line) / sizeof(f->line[0]))) {
      return;  // full: the CSV header keeps the whole command
    }
    f->n++;
    cur = 0;
  }
  if (cur + 1 + len < sizeof(f->line[0])) {  // (a word of 199 characters on its own line)
    if (cur > 0) {
      f->line[f->n][cur++] = ' ';
    }
    memcpy(f->line[f->n] + cur, w, len + 1);
  }
}

// The plot (docs/tools.md, dcqcn-trace): time in us, ms or s as fits the run; rates in Gb/s
// (Mb/s below a 10 Gb/s line rate) with the line rate drawn and labelled; alpha as a
// fraction on the right axis; the CNP arrivals as ticks; a compact key above the data; a
// footer with the version, the parameters and the command that reproduces the plot (the
// run has no random input). Written to `g`.
static void plot_script(FILE *g, const char *png, const row_t *rows, size_t n, const opts_t *o,
                        int argc, char **argv) {
  double end = n > 0 ? rows[n - 1].t_us : 0;
  double tdiv = end >= 2e6 ? 1e6 : end >= 2e3 ? 1e3 : 1;
  const char *tu = tdiv == 1e6 ? "s" : tdiv == 1e3 ? "ms" : "us";
  bool gbps = o->line_rate >= 10000;
  double rdiv = gbps ? 1000 : 1;
  const char *ru = gbps ? "Gb/s" : "Mb/s";
  footer_t f = {.n = 0};
  char w[160];
  snprintf(w, sizeof(w),
           "dcqcn-trace (xtm %s), libdcqcn C model, one QP, no random input: the same command "
           "draws the same plot.",
           XTM_VERSION);
  footer_add(&f, w);
  footer_add(&f, "Parameters set:");
  if (o->n_params == 0) {
    footer_add(&f, "none (mlxconfig defaults).");
  }
  for (uint32_t i = 0; i < o->n_params; i++) {
    snprintf(w, sizeof(w), "%s=%u%s", o->param_name[i], o->param_value[i],
             i + 1 < o->n_params ? "," : ".");
    footer_add(&f, w);
  }
  snprintf(w, sizeof(w), "line rate %u Mb/s, %u CNPs, tx %.6g Gb/s.", o->line_rate, o->n_cnps,
           o->tx_gbps);
  footer_add(&f, w);
  f.n++;  // the command on its own line(s)
  if (f.n >= 6) {
    f.n = 5;
  }
  footer_add(&f, "reproduce: dcqcn-trace");
  for (int i = 1; i < argc; i++) {
    footer_add(&f, argv[i]);
  }
  int lines = f.n + 1;
  double fh = (lines * 11.5 + 14) / 700.0;
  fprintf(
      g,
      "# generated by dcqcn-trace (tools/dcqcn-trace.c); gnuplot %s.gp redraws %s\n"
      "set terminal pngcairo size 1100,700 noenhanced font 'sans,10'\n"
      "set output '%s'\nset datafile separator ' '\nset grid\n"
      "set style textbox opaque fillcolor rgb '#30ffffff' noborder margins 1,1\n"
      "set title 'dcqcn-trace: DCQCN rate of one QP (Rc, Rt) and alpha, %u CNP%s' font ',12' "
      "offset 0,1.5\n"
      "set xlabel 'time (%s)'\nset ylabel 'rate (%s)'\nset y2label 'alpha (fraction, Q10 / 1024)'\n"
      "set format x '%%g'\nset format y '%%g'\nset format y2 '%%g'\n"
      "set xrange [0:%.9g]\nset yrange [0:%.9g]\nset y2range [0:1.1]\n"
      "set ytics nomirror\nset y2tics 0.1\nset tmargin 5\n"
      "set key at graph 0.5, graph 1.01 center bottom horizontal samplen 2 font ',9'\n"
      "set lmargin 11\nset rmargin 11\nset origin 0, %.4f\nset size 1, %.4f\n"
      "set arrow 1 from graph 0, first %.9g to graph 1, first %.9g nohead lc rgb '#000000' lw 1.5 "
      "front\n"
      "set label 1 'line rate %.6g %s' at graph 0.99, first %.9g right offset 0,-0.65 boxed front "
      "font ',9'\n",
      png, png, png, o->n_cnps, o->n_cnps == 1 ? "" : "s", tu, ru, end / tdiv,
      o->line_rate * 1.1 / rdiv, fh, 1 - fh, o->line_rate / rdiv, o->line_rate / rdiv,
      o->line_rate / rdiv, ru, o->line_rate / rdiv);
  for (int i = 0; i < lines; i++) {
    fprintf(g, "set label %d '%s' at screen 0.01, screen %.4f left font ',8' tc rgb '#404040'\n",
            10 + i, f.line[i], ((lines - 1 - i) * 11.5 + 10) / 700.0);
  }
  fprintf(g, "$d << EOD\n");
  for (size_t i = 0; i < n; i++) {
    fprintf(g, "%.3f %u %u %u\n", rows[i].t_us, rows[i].rc, rows[i].rt, rows[i].alpha);
  }
  fprintf(g, "EOD\n$c << EOD\n");
  for (uint32_t i = 0; i < o->n_cnps; i++) {
    fprintf(g, "%.3f\n", o->cnp_us[i]);
  }
  fprintf(g, "EOD\n");
  fprintf(g,
          "plot $d using ($1/%.9g):($2/%.9g) with steps lw 2 lc rgb '#1f77b4' title 'Rc (current "
          "rate)', "
          "$d using ($1/%.9g):($3/%.9g) with steps lw 1 dt 2 lc rgb '#ff7f0e' title 'Rt (target "
          "rate)', "
          "$d using ($1/%.9g):($4/1024.0) axes x1y2 with steps lw 1 lc rgb '#2ca02c' title 'alpha "
          "(right axis)'",
          tdiv, rdiv, tdiv, rdiv, tdiv);
  if (o->n_cnps > 0) {
    fprintf(g,
            ", $c using ($1/%.9g):(%.9g) with impulses lw 1 lc rgb '#d62728' title 'CNP arrivals'",
            tdiv, o->line_rate * 0.04 / rdiv);
  }
  fprintf(g, "\n");
}

// Runs gnuplot without a shell (fork + execvp, the script on its stdin through a pipe) and
// checks that it succeeded and that the PNG exists; then keeps the script as PNG.gp (data
// inline) to redraw or restyle it. The file name was validated (safe_png_name), so it
// cannot leave its quotes in the script either.
static int plot(const char *png, const char *script, size_t script_len) {
  int fd[2];
  if (pipe(fd) != 0) {
    fprintf(stderr, "dcqcn-trace: cannot run gnuplot: %s\n", strerror(errno));
    return 1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "dcqcn-trace: cannot run gnuplot: %s\n", strerror(errno));
    close(fd[0]);
    close(fd[1]);
    return 1;
  }
  if (pid == 0) {
    close(fd[1]);
    if (dup2(fd[0], STDIN_FILENO) < 0) {
      _exit(126);
    }
    close(fd[0]);
    // gnuplot's messages go to stderr; its stdout (where a terminal whose output could not
    // be opened writes the PNG itself) to /dev/null, never into the CSV
    int nul = open("/dev/null", O_WRONLY);
    if (nul < 0 || dup2(nul, STDOUT_FILENO) < 0) {
      _exit(126);
    }
    close(nul);
    char *const args[] = {(char *)"gnuplot", NULL};
    execvp(args[0], args);
    _exit(127);
  }
  close(fd[0]);
  FILE *g = fdopen(fd[1], "w");
  if (g == NULL) {
    close(fd[1]);
    waitpid(pid, NULL, 0);
    fprintf(stderr, "dcqcn-trace: cannot write to gnuplot\n");
    return 1;
  }
  bool wr_err = fwrite(script, 1, script_len, g) != script_len;
  wr_err |= ferror(g) != 0;
  wr_err |= fclose(g) != 0;  // EPIPE when gnuplot is gone (SIGPIPE is ignored)
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) {
    fprintf(stderr, "dcqcn-trace: gnuplot: %s\n", strerror(errno));
    return 1;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    fprintf(stderr, "dcqcn-trace: cannot run gnuplot (not installed? Debian: gnuplot-nox)\n");
    return 1;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || wr_err) {
    fprintf(stderr, "dcqcn-trace: gnuplot failed (%s %d); %s not written\n",
            WIFEXITED(status) ? "exit status" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), png);
    return 1;
  }
  struct stat st;
  if (stat(png, &st) != 0 || st.st_size == 0) {
    fprintf(stderr, "dcqcn-trace: gnuplot wrote no %s\n", png);
    return 1;
  }
  char gp[PNG_NAME_MAX + 8];
  snprintf(gp, sizeof(gp), "%s.gp", png);
  FILE *s = fopen(gp, "w");
  bool ok = s != NULL && fwrite(script, 1, script_len, s) == script_len;
  ok = s != NULL && fclose(s) == 0 && ok;
  if (!ok) {
    fprintf(stderr, "dcqcn-trace: cannot write %s: %s\n", gp, strerror(errno));
    return 1;
  }
  return 0;
}

// The command line as the CSV header records it (every byte outside printable ASCII as
// \xNN: an argument can never start a CSV row).
static void print_command(int argc, char **argv) {
  printf("#");
  for (int i = 0; i < argc; i++) {
    printf(" ");
    for (const char *p = argv[i]; *p != '\0'; p++) {
      unsigned char b = (unsigned char)*p;
      if (b < 0x20u || b > 0x7eu || b == '\\') {
        printf("\\x%02x", (unsigned)b);
      } else {
        putchar(b);
      }
    }
  }
  printf("\n");
}

// Combinations the per-field ranges do not exclude: the model saturates them
// (docs/spec-dcqcn.md D6.1), which the trace shows; said once so it is not a surprise.
static void warn_combinations(const opts_t *o) {
  uint32_t lr = o->line_rate;
  uint32_t max = param_or(o, "RPG_MAX_RATE", 0);
  uint32_t min = param_or(o, "RPG_MIN_RATE", 1);
  uint32_t rmax = (max == 0 || max > lr) ? lr : max;
  if (max > lr) {
    fprintf(stderr,
            "dcqcn-trace: warning: RPG_MAX_RATE %u is above the line rate %u Mb/s: the cap is the "
            "line rate (D6.1)\n",
            max, lr);
  }
  if (min > rmax) {
    fprintf(stderr,
            "dcqcn-trace: warning: RPG_MIN_RATE %u is above the rate cap %u Mb/s: the floor "
            "saturates to the cap (D6.1)\n",
            min, rmax);
  }
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error (checked), not a silent exit
  opts_t o;
  int rc = parse(argc, argv, &o);
  if (rc != 0) {
    fprintf(stderr, "Try 'dcqcn-trace --help'.\n");
    return rc;
  }
  uint32_t cpu = param_or(&o, "CYCLES_PER_US", 1000);
  // every time is a whole number of cycles: nothing is moved behind the user's back
  for (uint32_t i = 0; i < o.n_cnps; i++) {
    double cyc = o.cnp_us[i] * cpu;
    if (fabs(cyc - nearbyint(cyc)) > 1e-6) {
      fprintf(stderr,
              "dcqcn-trace: CNP time %.9g us is not a whole cycle at CYCLES_PER_US %u (one cycle = "
              "%.9g us)\n",
              o.cnp_us[i], cpu, 1.0 / cpu);
      return 2;
    }
  }
  if (o.every_us * cpu < 1.0) {
    fprintf(stderr, "dcqcn-trace: --every-us %s is below one cycle (%.9g us at CYCLES_PER_US %u)\n",
            o.every_txt, 1.0 / cpu, cpu);
    return 2;
  }
  // (1 + 1e-12): 1000 / 0.1 is 9999.999... in binary; the sample at --until-us is kept
  double rows_d = floor(o.until_us / o.every_us * (1.0 + 1e-12)) + 1.0;
  if (rows_d > (double)MAX_ROWS) {
    fprintf(stderr,
            "dcqcn-trace: --until-us %s / --every-us %s gives %.0f rows, above the limit of %u "
            "(raise --every-us)\n",
            o.until_txt, o.every_txt, rows_d, MAX_ROWS);
    return 2;
  }
  size_t n_rows = (size_t)rows_d;
  warn_combinations(&o);
  dcqcn_params_t p = {.num_qps = 1, .scan_width = 1};  // S = 1: timers fire on their deadlines
  dcqcn_t *m = NULL;
  if (dcqcn_create(&p, &m) != kDcqcnOk) {
    fprintf(stderr, "dcqcn-trace: cannot create the model\n");
    return 1;
  }
  // LINE_RATE first, then reset QP 0 so its initial rate is the line rate; then parameters.
  if (dcqcn_param_set(m, "LINE_RATE", o.line_rate) != kDcqcnOk ||
      !dcqcn_csr_write(m, DCQCN_Q_CTRL_REG_OFFSET, 1u << DCQCN_Q_CTRL_INIT_BIT)) {  // QP 0
    fprintf(stderr, "dcqcn-trace: cannot set the line rate\n");
    dcqcn_destroy(m);
    return 1;
  }
  for (uint32_t i = 0; i < o.n_params; i++) {
    if (dcqcn_param_set(m, o.param_name[i], o.param_value[i]) != kDcqcnOk) {
      fprintf(stderr, "dcqcn-trace: cannot set %s\n", o.param_name[i]);
      dcqcn_destroy(m);
      return 1;
    }
  }
  uint64_t cnp_cyc[MAX_CNPS];
  for (uint32_t i = 0; i < o.n_cnps; i++) {
    cnp_cyc[i] = (uint64_t)llround(o.cnp_us[i] * cpu);
    if (i > 0 && cnp_cyc[i] == cnp_cyc[i - 1]) {
      fprintf(stderr, "dcqcn-trace: two CNPs in the same cycle (%.3f us)\n", o.cnp_us[i]);
      dcqcn_destroy(m);
      return 2;
    }
  }
  uint64_t until = (uint64_t)llround(o.until_us * cpu);
  double every = o.every_us * cpu;
  // Inputs run before the sample they precede; the last sample's time ends the run, so a
  // CNP at or after it is never simulated: say so rather than drop it without a word.
  uint64_t last_ts = (uint64_t)llround((double)(n_rows - 1) * every);
  uint32_t late = 0;
  for (uint32_t i = 0; i < o.n_cnps; i++) {
    late += cnp_cyc[i] >= last_ts ? 1u : 0u;
  }
  if (late > 0) {
    fprintf(stderr,
            "dcqcn-trace: warning: %u CNP time%s at or after the last sample (%.3f us) %s not "
            "simulated (first: %.3f us)\n",
            late, late == 1 ? "" : "s", (double)last_ts / cpu, late == 1 ? "is" : "are",
            o.cnp_us[o.n_cnps - late]);
  }
  row_t *rows = o.png ? calloc(n_rows, sizeof(row_t)) : NULL;
  if (o.png && rows == NULL) {
    fprintf(stderr, "dcqcn-trace: out of memory\n");
    dcqcn_destroy(m);
    return 1;
  }
  // header: the exact command line, then the columns
  print_command(argc, argv);
  printf("time_us,rc_mbps,rt_mbps,alpha\n");
  double tx_cyc_per_frame = o.tx_gbps > 0 ? TX_FRAME_BYTES * 8.0 * cpu / (o.tx_gbps * 1000.0) : 0;
  double tx_offer = 0;   // cycle the source offers its next frame
  uint64_t tx_pace = 0;  // cycle the pacer allows it
  uint32_t ci = 0;
  dcqcn_out_t out;
  for (size_t k = 0; k < n_rows; k++) {
    uint64_t ts = (uint64_t)llround((double)k * every);
    // run inputs due before the sample
    for (;;) {
      uint64_t next_cnp = ci < o.n_cnps ? cnp_cyc[ci] : UINT64_MAX;
      uint64_t next_tx = UINT64_MAX;
      if (o.tx_gbps > 0) {
        uint64_t off = (uint64_t)ceil(tx_offer);
        next_tx = off > tx_pace ? off : tx_pace;
      }
      uint64_t next = next_cnp < next_tx ? next_cnp : next_tx;
      if (next >= ts || next > until) {
        break;
      }
      while (dcqcn_advance_to(m, next, &out)) {
      }
      dcqcn_in_t in = {.cnp = {.valid = next == next_cnp, .qp = 0},
                       .tx = {.valid = next == next_tx, .qp = 0, .bytes = TX_FRAME_BYTES}};
      dcqcn_step(m, &in, &out);
      if (in.cnp.valid) {
        ci++;
      }
      if (in.tx.valid) {
        tx_pace = out.pace.next_send;
        tx_offer += tx_cyc_per_frame;
        if (tx_offer < (double)next + 1) {
          tx_offer = (double)next + 1;
        }
      }
    }
    while (dcqcn_advance_to(m, ts, &out)) {
    }
    dcqcn_qp_state_t st;
    dcqcn_qp_state(m, 0, &st);
    double t_us = (double)ts / cpu;
    printf("%.3f,%u,%u,%u\n", t_us, st.rc, st.rt, st.alpha);
    if (rows != NULL) {
      rows[k] = (row_t){.t_us = t_us, .rc = st.rc, .rt = st.rt, .alpha = st.alpha};
    }
  }
  int ret = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "dcqcn-trace: cannot write the output: %s\n", strerror(errno));
    ret = 1;
  }
  if (ret == 0 && o.png != NULL) {
    char *script = NULL;
    size_t len = 0;
    FILE *g = open_memstream(&script, &len);
    if (g == NULL) {
      fprintf(stderr, "dcqcn-trace: out of memory\n");
      ret = 1;
    } else {
      plot_script(g, o.png, rows, n_rows, &o, argc, argv);
      bool bad = ferror(g) != 0;
      if (fclose(g) != 0 || bad || script == NULL) {
        fprintf(stderr, "dcqcn-trace: out of memory\n");
        ret = 1;
      } else {
        ret = plot(o.png, script, len);
      }
      free(script);
    }
  }
  free(rows);
  dcqcn_destroy(m);
  return ret;
}
