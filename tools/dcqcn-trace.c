// SPDX-License-Identifier: Apache-2.0
//
// dcqcn-trace: runs one QP of the libdcqcn C model (docs/spec-dcqcn.md) through a CNP
// pattern and prints CSV `time_us,rc_mbps,rt_mbps,alpha` every --every-us, optionally
// drawing Rc, Rt and alpha with gnuplot. Times are converted to cycles with CYCLES_PER_US
// (1000 by default: 1 GHz). Exit status: 0 success, 2 bad command line, 1 run-time failure.

#define _POSIX_C_SOURCE 200809L  // popen

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

#define MAX_CNPS 4096
#define MAX_PARAMS 64
#define TX_FRAME_BYTES 1024u  // frames of the --tx-gbps source

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
  const char *png;
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
          "  --png FILE             also draw Rc, Rt and alpha over time with gnuplot\n"
          "  --help\n",
          TX_FRAME_BYTES);
}

static int fail(const char *msg, const char *arg) {
  fprintf(stderr, "dcqcn-trace: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  return 2;
}

static bool parse_u32(const char *s, uint32_t *v) {
  if (s == NULL || *s == '\0' || *s == '-' || *s == '+') {
    return false;
  }
  char *end = NULL;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || x > UINT32_MAX) {
    return false;
  }
  *v = (uint32_t)x;
  return true;
}

// A non-negative decimal number: digits with an optional fraction, nothing else.
static bool parse_dec(const char *s, size_t len, double *v) {
  char buf[64];
  if (len == 0 || len >= sizeof(buf)) {
    return false;
  }
  memcpy(buf, s, len);
  buf[len] = '\0';
  int dots = 0, digits = 0;
  for (size_t i = 0; i < len; i++) {
    if (buf[i] == '.') {
      dots++;
    } else if (buf[i] >= '0' && buf[i] <= '9') {
      digits++;
    } else {
      return false;
    }
  }
  if (dots > 1 || digits == 0) {
    return false;
  }
  *v = strtod(buf, NULL);
  return isfinite(*v);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

static int parse(int argc, char **argv, opts_t *o) {
  *o = (opts_t){.line_rate = 100000, .until_us = 1000, .every_us = 1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (strncmp(a, "--", 2) != 0) {
      return fail("unexpected argument", a);
    }
    static const char *const kWithValue[] = {"--cnp-us", "--until-us", "--every-us", "--param",
                                             "--line-rate-mbps", "--tx-gbps", "--png"};
    bool known = false;
    for (size_t k = 0; k < sizeof(kWithValue) / sizeof(kWithValue[0]); k++) {
      known = known || strcmp(a, kWithValue[k]) == 0;
    }
    if (!known) {
      return fail("unknown option", a);
    }
    if (i + 1 >= argc) {
      return fail("missing value for", a);
    }
    const char *v = argv[++i];
    if (strcmp(a, "--cnp-us") == 0) {
      const char *p = v;
      for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (o->n_cnps >= MAX_CNPS) {
          return fail("too many CNP times", NULL);
        }
        if (!parse_dec(p, len, &o->cnp_us[o->n_cnps])) {
          return fail("malformed CNP time in --cnp-us", v);
        }
        o->n_cnps++;
        if (c == NULL) {
          break;
        }
        p = c + 1;
      }
    } else if (strcmp(a, "--until-us") == 0) {
      if (!parse_dec(v, strlen(v), &o->until_us)) {
        return fail("malformed --until-us", v);
      }
    } else if (strcmp(a, "--every-us") == 0) {
      if (!parse_dec(v, strlen(v), &o->every_us) || o->every_us <= 0) {
        return fail("malformed --every-us (a positive number)", v);
      }
    } else if (strcmp(a, "--tx-gbps") == 0) {
      if (!parse_dec(v, strlen(v), &o->tx_gbps)) {
        return fail("malformed --tx-gbps", v);
      }
    } else if (strcmp(a, "--line-rate-mbps") == 0) {
      if (!parse_u32(v, &o->line_rate) || o->line_rate < 1 || o->line_rate > 1000000) {
        return fail("--line-rate-mbps must be an integer 1..1000000", v);
      }
    } else if (strcmp(a, "--png") == 0) {
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
      uint32_t lo, hi, val;
      if (dcqcn_param_lookup(names[o->n_params], &addr, &lo, &hi) != kDcqcnOk) {
        return fail("unknown parameter name", names[o->n_params]);
      }
      if (!parse_u32(eq + 1, &val)) {
        return fail("malformed parameter value (a non-negative integer)", v);
      }
      if (val < lo || val > hi) {
        fprintf(stderr, "dcqcn-trace: %s=%u is outside its legal range %u..%u\n",
                names[o->n_params], val, lo, hi);
        return 2;
      }
      o->param_name[o->n_params] = names[o->n_params];
      o->param_value[o->n_params++] = val;
    }
  }
  qsort(o->cnp_us, o->n_cnps, sizeof(double), cmp_double);
  return 0;
}

typedef struct row {
  double t_us;
  uint32_t rc, rt, alpha;
} row_t;

static int plot(const char *png, const row_t *rows, size_t n, const char *title,
                uint32_t line_rate) {
  FILE *g = popen("gnuplot", "w");
  if (g == NULL) {
    fprintf(stderr, "dcqcn-trace: cannot run gnuplot\n");
    return 1;
  }
  fprintf(g,
          "set terminal pngcairo size 1200,600 noenhanced\n"
          "set output '%s'\nset title '%s'\nset xlabel 'time (us)'\n"
          "set ylabel 'rate (Mb/s)'\nset yrange [0:%u]\nset y2label 'alpha (Q10)'\n"
          "set y2range [0:1100]\n"
          "set ytics nomirror\nset y2tics\nset key outside bottom center horizontal\n"
          "set grid\n$d << EOD\n",
          png, title, line_rate + line_rate / 10);
  for (size_t i = 0; i < n; i++) {
    fprintf(g, "%.3f %u %u %u\n", rows[i].t_us, rows[i].rc, rows[i].rt, rows[i].alpha);
  }
  fprintf(g,
          "EOD\nplot $d using 1:2 with steps lw 2 title 'Rc', "
          "$d using 1:3 with steps lw 1 dt 2 title 'Rt', "
          "$d using 1:4 axes x1y2 with steps lw 1 title 'alpha'\n");
  int rc = pclose(g);
  if (rc != 0) {
    fprintf(stderr, "dcqcn-trace: gnuplot failed (status %d)\n", rc);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  opts_t o;
  int rc = parse(argc, argv, &o);
  if (rc != 0) {
    fprintf(stderr, "Try 'dcqcn-trace --help'.\n");
    return rc;
  }
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
    return 1;
  }
  for (uint32_t i = 0; i < o.n_params; i++) {
    if (dcqcn_param_set(m, o.param_name[i], o.param_value[i]) != kDcqcnOk) {
      fprintf(stderr, "dcqcn-trace: cannot set %s\n", o.param_name[i]);
      return 1;
    }
  }
  uint32_t cpu = 1000;
  for (uint32_t i = 0; i < o.n_params; i++) {
    if (strcmp(o.param_name[i], "CYCLES_PER_US") == 0) {
      cpu = o.param_value[i];
    }
  }
  uint64_t cnp_cyc[MAX_CNPS];
  for (uint32_t i = 0; i < o.n_cnps; i++) {
    cnp_cyc[i] = (uint64_t)llround(o.cnp_us[i] * cpu);
    if (i > 0 && cnp_cyc[i] == cnp_cyc[i - 1]) {
      fprintf(stderr, "dcqcn-trace: two CNPs in the same cycle (%.3f us)\n", o.cnp_us[i]);
      return 2;
    }
  }
  uint64_t until = (uint64_t)llround(o.until_us * cpu);
  double every = o.every_us * cpu;
  size_t n_rows = (size_t)floor(o.until_us / o.every_us) + 1;
  row_t *rows = o.png ? calloc(n_rows, sizeof(row_t)) : NULL;
  if (o.png && rows == NULL) {
    fprintf(stderr, "dcqcn-trace: out of memory\n");
    return 1;
  }
  // header: the exact command line, then the columns
  printf("#");
  for (int i = 0; i < argc; i++) {
    printf(" %s", argv[i]);
  }
  printf("\ntime_us,rc_mbps,rt_mbps,alpha\n");
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
    dcqcn_qp_state_t s;
    dcqcn_qp_state(m, 0, &s);
    double t_us = (double)ts / cpu;
    printf("%.3f,%u,%u,%u\n", t_us, s.rc, s.rt, s.alpha);
    if (rows != NULL) {
      rows[k] = (row_t){.t_us = t_us, .rc = s.rc, .rt = s.rt, .alpha = s.alpha};
    }
  }
  int ret = 0;
  if (o.png != NULL) {
    char title[256];
    snprintf(title, sizeof(title), "dcqcn-trace: %u CNPs, line %u Mb/s", o.n_cnps, o.line_rate);
    fflush(stdout);
    ret = plot(o.png, rows, n_rows, title, o.line_rate);
  }
  free(rows);
  dcqcn_destroy(m);
  return ret;
}
