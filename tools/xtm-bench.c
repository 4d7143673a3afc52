// SPDX-License-Identifier: Apache-2.0
#define _POSIX_C_SOURCE 200809L
//
// xtm-bench: speed of the C model (issue "C model", item 7). 8 ports x 8 TCs, 64 K
// descriptors, 100 Gb/s ports at 1 GHz, a 4:1 incast of 4 KB packets (ports 0..3 at line
// rate into port 4, ECN head-marked queue that evicts to HBM, tail drops at its limit).
// Prints cycles/s in xtm_step mode, packets/s in xtm_advance_to mode and peak memory.
// Deterministic traffic (no random choice); the two modes must see identical counters.
//
//   build/bin/xtm-bench [--cycles N]

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cmodel/xtm/xtm.h"
#include "tools/lib/xtm_num.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

#define N_SRC 4
#define EG_PORT 4
#define PKT_LEN 4096
#define WIRE_BYTES (PKT_LEN + 20)  // preamble + IFG
#define LINE_Q16 0x0C8000u         // 12.5 bytes/cycle = 100 Gb/s at 1 GHz

static void wr(xtm_t *m, uint16_t a, uint32_t d) {
  if (!xtm_csr_write(m, a, d)) {
    fprintf(stderr, "xtm-bench: CSR write 0x%04x <- 0x%08x refused\n", a, d);
    exit(2);
  }
}

static xtm_t *setup(void) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_desc = 65536;
  xtm_t *m = NULL;
  if (xtm_create(&p, &m) != kXtmOk) {
    fprintf(stderr, "xtm-bench: create failed\n");
    exit(2);
  }
  // the VOQ and PG windows answer once the initialisation sweep is over (spec 3)
  xtm_out_t o;
  while (xtm_cycle(m) < XTM_INIT_CYCLES(p.num_ports)) {
    xtm_step(m, NULL, &o);
  }
  for (uint32_t port = 0; port < 8; port++) {
    wr(m, XTM_PORT_SEL_REG_OFFSET, port);
    wr(m, XTM_P_SHAPER_RATE_REG_OFFSET, LINE_Q16);
    wr(m, XTM_P_SHAPER_BURST_REG_OFFSET, 9216);
    wr(m, XTM_P_SHAPER_CFG_REG_OFFSET, 1u | 20u << XTM_P_SHAPER_CFG_OVH_BYTES_OFFSET);
  }
  // final profile: 30 % -> 1 %, 60 % -> 100 % (segmented), head marking
  wr(m, XTM_PROF_SEL_REG_OFFSET, 1);
  wr(m, XTM_PR_FILL_0_REG_OFFSET, 19661);
  wr(m, XTM_PR_PROB_0_REG_OFFSET, 655);
  wr(m, XTM_PR_FILL_1_REG_OFFSET, 39322);
  wr(m, XTM_PR_PROB_1_REG_OFFSET, 65536);
  wr(m, XTM_PR_CFG_REG_OFFSET, 2u << XTM_PR_CFG_NPOINTS_OFFSET);
  wr(m, XTM_VOQ_SEL_REG_OFFSET, EG_PORT * 8 + 3);
  wr(m, XTM_Q_CFG_REG_OFFSET,
     1u << XTM_Q_CFG_ENABLE_OFFSET | 1u << XTM_Q_CFG_ECN_EN_OFFSET |
         XTM_Q_CFG_MARK_POINT_VALUE_HEAD << XTM_Q_CFG_MARK_POINT_OFFSET |
         1u << XTM_Q_CFG_PROFILE_OFFSET);
  wr(m, XTM_Q_LIMIT_CELLS_REG_OFFSET, 48000);  // 12 MB: 983 us at 100 Gb/s
  wr(m, XTM_Q_TARGET_RATE_REG_OFFSET, LINE_Q16);
  wr(m, XTM_HBM_WR_RATE_REG_OFFSET, 0x40000);  // 4 cells/cycle
  wr(m, XTM_HBM_RD_RATE_REG_OFFSET, 0x40000);
  return m;
}

typedef struct traffic {
  uint64_t next_q16[N_SRC];  // next departure of each source, cycles in Q48.16
  uint64_t pending;          // arrivals waiting for the one-per-cycle enqueue port
  uint32_t rr;
  uint32_t id;
} traffic_t;

static void traffic_init(traffic_t *tr, uint64_t t0) {
  memset(tr, 0, sizeof(*tr));
  for (int s = 0; s < N_SRC; s++) {
    tr->next_q16[s] = (t0 + (uint64_t)s * 7) << 16;
  }
}

// Cycle of the next enqueue at or after `now`, and fills `e` (sources round-robin).
static uint64_t traffic_next(traffic_t *tr, uint64_t now, xtm_enq_in_t *e) {
  // each source emits one 4 KB packet per WIRE_BYTES / 12.5 cycles
  const uint64_t gap_q16 = ((uint64_t)WIRE_BYTES << 32) / LINE_Q16;
  uint64_t best = UINT64_MAX;
  int who = 0;
  for (int s = 0; s < N_SRC; s++) {
    uint64_t c = (tr->next_q16[s] + 0xFFFF) >> 16;
    if (c < best) {
      best = c;
      who = s;
    }
  }
  tr->next_q16[who] += gap_q16;
  *e = (xtm_enq_in_t){.valid = true,
                      .pkt_id = tr->id++,
                      .in_port = (uint8_t)who,
                      .eg_port = EG_PORT,
                      .dscp = 26,
                      .ecn = 2,
                      .len = PKT_LEN};
  return best < now ? now : best;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct result {
  uint64_t cycles, enq, deq, marks, drops, outputs;
  double secs;
} result_t;

static void totals(xtm_t *m, result_t *r) {
  uint32_t v = EG_PORT * 8 + 3;
  r->enq = xtm_voq_counter(m, v, kXtmVcntEnqPkts);
  r->deq = xtm_voq_counter(m, v, kXtmVcntDeqPkts);
  r->marks = xtm_voq_counter(m, v, kXtmVcntMarkHead);
  r->drops = xtm_voq_counter(m, v, kXtmVcntDropTail);
}

static result_t run_step(uint64_t cycles) {
  xtm_t *m = setup();
  traffic_t tr;
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  xtm_out_t out;
  traffic_init(&tr, 64);
  uint64_t next = traffic_next(&tr, 0, &in.enq);
  result_t r = {0};
  double t0 = now_s();
  for (uint64_t c = 0; c < cycles; c++) {
    if (c == next) {
      xtm_step(m, &in, &out);
      next = traffic_next(&tr, c + 1, &in.enq);
    } else {
      xtm_step(m, NULL, &out);
    }
    r.outputs += (uint64_t)__builtin_popcountll(out.deq_valid);
  }
  r.secs = now_s() - t0;
  r.cycles = cycles;
  totals(m, &r);
  xtm_destroy(m);
  return r;
}

static result_t run_advance(uint64_t cycles) {
  xtm_t *m = setup();
  traffic_t tr;
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  xtm_out_t out;
  traffic_init(&tr, 64);
  uint64_t next = traffic_next(&tr, 0, &in.enq);
  result_t r = {0};
  double t0 = now_s();
  while (next < cycles) {
    while (xtm_advance_to(m, next, &out)) {
      r.outputs += (uint64_t)__builtin_popcountll(out.deq_valid);
    }
    xtm_step(m, &in, &out);
    r.outputs += (uint64_t)__builtin_popcountll(out.deq_valid);
    next = traffic_next(&tr, xtm_cycle(m), &in.enq);
  }
  while (xtm_advance_to(m, cycles, &out)) {
    r.outputs += (uint64_t)__builtin_popcountll(out.deq_valid);
  }
  r.secs = now_s() - t0;
  r.cycles = cycles;
  totals(m, &r);
  xtm_destroy(m);
  return r;
}

int main(int argc, char **argv) {
  uint64_t cycles = 200000000ull;  // 200 ms of simulated time
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc) {
      xtm_num_msg_t msg;
      if (xtm_num_u64("--cycles", argv[++i], 1, 1000000000000ull, &cycles, &msg) != kXtmNumOk) {
        fprintf(stderr, "xtm-bench: %s\n", msg.text);
        return 2;
      }
    } else {
      fprintf(stderr, "usage: %s [--cycles N]\n", argv[0]);
      return 2;
    }
  }
  printf(
      "xtm-bench: 8 ports x 8 TCs, 65536 descriptors, 4:1 incast of %d B packets on 100 "
      "Gb/s ports, %" PRIu64 " cycles (1 GHz); no random choices\n",
      PKT_LEN, cycles);
  printf("reproduce: build/bin/xtm-bench --cycles %" PRIu64 "\n", cycles);
  result_t s = run_step(cycles);
  result_t a = run_advance(cycles);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double pkts = (double)(a.enq + a.drops);
  printf("step:       %" PRIu64 " cycles in %.3f s = %.1f M cycles/s   (target >= 20)\n", s.cycles,
         s.secs, (double)s.cycles / s.secs / 1e6);
  printf(
      "advance_to: %.0f packets in %.3f s = %.2f M packets/s   (target >= 5); "
      "%.0f M cycles/s simulated\n",
      pkts, a.secs, pkts / a.secs / 1e6, (double)a.cycles / a.secs / 1e6);
  printf("peak memory: %.1f MB (max RSS)   (target < 64)\n", (double)ru.ru_maxrss / 1024.0);
  printf("traffic: enqueued %" PRIu64 ", dequeued %" PRIu64 ", head marks %" PRIu64
         ", tail drops %" PRIu64 ", transmitted %" PRIu64 "\n",
         a.enq, a.deq, a.marks, a.drops, a.outputs);
  if (s.enq != a.enq || s.deq != a.deq || s.marks != a.marks || s.drops != a.drops ||
      s.outputs != a.outputs) {
    printf("MISMATCH: step and advance_to disagree (step enq %" PRIu64 " deq %" PRIu64 ")\n", s.enq,
           s.deq);
    return 1;
  }
  printf("step and advance_to agree on every counter\n");
  if (fflush(stdout) != 0 || ferror(stdout)) {  // the rates were not written: not a success
    fprintf(stderr, "xtm-bench: cannot write the output\n");
    return 1;
  }
  return 0;
}
