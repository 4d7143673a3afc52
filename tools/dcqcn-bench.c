// SPDX-License-Identifier: Apache-2.0
//
// dcqcn-bench: speed of the libdcqcn C model (docs/spec-dcqcn.md D13).
//   1. dcqcn_step cycles/s with 64 QPs under load: a transmission every cycle, a CNP every
//      ~500 cycles and a CE packet every ~300 cycles on random QPs (target >= 20 M/s);
//      the eager (RTL-scan) mode for comparison.
//   2. dcqcn_advance_to over idle stretches of 10^3, 10^6 and 10^9 cycles, (a) right after
//      all 64 QPs were cut (they recover, then park) and (b) with every QP parked.
// --check-only: a short load run in eager and skipping modes; exit 1 if they disagree.

#define _POSIX_C_SOURCE 200809L  // clock_gettime

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmodel/dcqcn/dcqcn.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static dcqcn_t *make(bool eager) {
  dcqcn_params_t p;
  dcqcn_params_default(&p);  // 64 QPs, U = 4
  dcqcn_t *m = NULL;
  if (dcqcn_create(&p, &m) != kDcqcnOk) {
    fprintf(stderr, "dcqcn-bench: create failed\n");
    exit(1);
  }
  dcqcn_set_eager(m, eager);
  return m;
}

// Runs `cycles` loaded cycles; returns a checksum of every output.
static uint64_t load(dcqcn_t *m, uint64_t cycles, uint64_t seed) {
  uint64_t s = seed, sum = 0;
  dcqcn_out_t out;
  for (uint64_t c = 0; c < cycles; c++) {
    uint64_t r = rnd(&s);
    dcqcn_in_t in = {.tx = {.valid = true, .qp = (uint16_t)(r & 63), .bytes = 1024}};
    if ((r >> 8) % 500 == 0) {
      in.cnp = (dcqcn_qp_ev_t){.valid = true, .qp = (uint16_t)((r >> 20) & 63)};
    }
    if ((r >> 30) % 300 == 0) {
      in.ce = (dcqcn_qp_ev_t){.valid = true, .qp = (uint16_t)((r >> 40) & 63)};
    }
    dcqcn_step(m, &in, &out);
    for (uint32_t i = 0; i < out.n_rate; i++) {
      sum = sum * 31 + out.rate[i].qp + out.rate[i].rc * 7u + out.rate[i].rt * 13u +
            out.rate[i].alpha;
    }
    sum = sum * 31 + (out.pace.valid ? out.pace.next_send : 0) + (out.cnp_tx.valid ? 1 : 0);
  }
  for (int k = 0; k < kDcqcnGcntCount; k++) {
    sum = sum * 31 + dcqcn_counter(m, (dcqcn_gcnt_t)k);
  }
  return sum;
}

// Cuts every QP (first CNP, a second CNP in the slot); returns when the cuts happened.
static void cut_all(dcqcn_t *m) {
  dcqcn_out_t out;
  for (uint16_t q = 0; q < 64; q++) {
    dcqcn_in_t in = {.cnp = {.valid = true, .qp = q}};
    dcqcn_step(m, &in, &out);
    dcqcn_step(m, &in, &out);
  }
  uint64_t target = dcqcn_cycle(m) + 4200;  // the decrease timers (4 us) have cut
  while (dcqcn_advance_to(m, target, &out)) {
  }
}

// advance_to across `len` idle cycles; returns seconds, *stops = calls that returned output.
static double idle(dcqcn_t *m, uint64_t len, uint64_t *stops) {
  dcqcn_out_t out;
  uint64_t target = dcqcn_cycle(m) + len;
  *stops = 0;
  double t0 = now_s();
  while (dcqcn_advance_to(m, target, &out)) {
    (*stops)++;
  }
  return now_s() - t0;
}

int main(int argc, char **argv) {
  bool check_only = argc > 1 && strcmp(argv[1], "--check-only") == 0;
  if (argc > 1 && !check_only) {
    fprintf(stderr, "usage: dcqcn-bench [--check-only]\n");
    return 2;
  }
  if (check_only) {
    dcqcn_t *a = make(true), *b = make(false);
    uint64_t x = load(a, 2000000, 7), y = load(b, 2000000, 7);
    dcqcn_destroy(a);
    dcqcn_destroy(b);
    printf("dcqcn-bench: eager %016llx, skipping %016llx: %s\n", (unsigned long long)x,
           (unsigned long long)y, x == y ? "agree" : "DISAGREE");
    return x == y ? 0 : 1;
  }
  const uint64_t kCycles = 20000000;
  for (int eager = 0; eager <= 1; eager++) {
    dcqcn_t *m = make(eager != 0);
    double t0 = now_s();
    uint64_t sum = load(m, kCycles, 42);
    double dt = now_s() - t0;
    printf(
        "step, 64 QPs, tx every cycle + CNP/CE load, %-8s: %6.1f M cycles/s (%llu cycles, "
        "cuts %llu, checksum %016llx)\n",
        eager ? "eager" : "skipping", (double)kCycles / dt / 1e6, (unsigned long long)kCycles,
        (unsigned long long)dcqcn_counter(m, kDcqcnGcntCuts), (unsigned long long)sum);
    dcqcn_destroy(m);
  }
  static const uint64_t kLens[] = {1000ull, 1000000ull, 1000000000ull};
  for (int parked = 0; parked <= 1; parked++) {
    for (size_t i = 0; i < 3; i++) {
      dcqcn_t *m = make(false);
      cut_all(m);
      uint64_t stops;
      if (parked) {
        (void)idle(m, 100000000ull, &stops);  // recover and park
      }
      double dt = idle(m, kLens[i], &stops);
      printf("advance_to, %s, idle %10llu cycles: %12.0f ns, %6llu calls returned output\n",
             parked ? "every QP parked  " : "64 QPs just cut  ", (unsigned long long)kLens[i],
             dt * 1e9, (unsigned long long)stops);
      dcqcn_destroy(m);
    }
  }
  return 0;
}
