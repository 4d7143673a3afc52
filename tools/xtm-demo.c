// SPDX-License-Identifier: Apache-2.0
#define _POSIX_C_SOURCE 200809L
//
// xtm-demo: a 4:1 incast through the C model, the project's main job until the RTL and its
// co-simulation exist. Four senders on ports 0..3 (100 Gb/s, 4 KB RDMA packets, DSCP 26 ->
// TC 3, ECT(0)) and one lossy sender on port 5 (1500 B, DSCP 0, 25 % of line rate) all send
// to port 4. TC 3 is lossless: PFC on priority 3 with XOFF/XON thresholds and a headroom
// sized for the 100 m cables and the peer's response time; senders obey the pause after
// the cable delay. The RDMA queue is ECN head-marked with the "final" profile (30 % -> 1 %,
// 60 % -> 100 %) and spills to HBM. All configuration goes through CSR writes and all
// results are read back through CSR reads, as firmware would.
//
//   build/bin/xtm-demo [--us N] [--every-us K]
//     N: microseconds of incast (default 2000), followed by 1000 us of drain;
//     K: also print a time series every K us (occupancy, XOFF mask, bytes sent).

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/xtm/xtm.h"
#include "tools/lib/xtm_num.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

#define LINE_Q16 0x0C8000u  // 12.5 bytes/cycle: 100 Gb/s at 1 GHz
#define EG 4
#define N_SRC 5
#define CABLE_CYCLES 500      // 100 m at 5 ns/m, one way
#define RESPONSE_CYCLES 2018  // peer response: 394 quanta x 5.12 ns, rounded up

static void wr(xtm_t *m, uint16_t a, uint32_t d) {
  if (!xtm_csr_write(m, a, d)) {
    fprintf(stderr, "xtm-demo: CSR write 0x%04x <- 0x%08x refused\n", a, d);
    exit(2);
  }
}
static uint32_t rd(xtm_t *m, uint16_t a) {
  uint32_t v = 0;
  if (!xtm_csr_read(m, a, &v)) {
    fprintf(stderr, "xtm-demo: CSR read 0x%04x refused\n", a);
    exit(2);
  }
  return v;
}
static uint64_t rd64(xtm_t *m, uint16_t lo) {
  uint64_t l = rd(m, lo);
  return (uint64_t)rd(m, (uint16_t)(lo + 4)) << 32 | l;
}

typedef struct src {
  uint8_t port, dscp, ecn;
  uint16_t len;
  uint64_t gap_q16;   // cycles between packet starts, Q48.16
  uint64_t next_q16;  // next packet start at the sender
  uint64_t paused_from, paused_until;
  uint64_t sent;
} src_t;

// Headroom: what arrives after the XOFF decision: the frame's cable trip, the peer's
// response, the cable trip back, plus a maximum frame in flight each way (spec 7.1,
// tm-domain-specs 3.2). 12.5 bytes per cycle.
static uint32_t headroom_cells(void) {
  uint64_t bytes = (uint64_t)(2 * CABLE_CYCLES + RESPONSE_CYCLES) * 25 / 2 + 2 * (4096 + 20);
  return (uint32_t)((bytes + 255) / 256);
}

static void configure(xtm_t *m) {
  if (rd(m, XTM_BLOCK_TYPE_REG_OFFSET) != XTM_BLOCK_TYPE_VALUE ||
      rd(m, XTM_VERSION_REG_OFFSET) != XTM_VERSION_REG_RESVAL) {
    fprintf(stderr, "xtm-demo: block type/version mismatch\n");
    exit(2);
  }
  for (uint32_t p = 0; p < 8; p++) {
    wr(m, XTM_PORT_SEL_REG_OFFSET, p);
    wr(m, XTM_P_SHAPER_RATE_REG_OFFSET, LINE_Q16);
    wr(m, XTM_P_SHAPER_BURST_REG_OFFSET, 9216);
    wr(m, XTM_P_SHAPER_CFG_REG_OFFSET, 1u | 20u << XTM_P_SHAPER_CFG_OVH_BYTES_OFFSET);
    // lossless PG 3 on every ingress port: PTX-style 5000/3750 ratio, in cells
    wr(m, XTM_PG_SEL_REG_OFFSET, p * 8 + 3);
    wr(m, XTM_G_XOFF_CELLS_REG_OFFSET, 4000);
    wr(m, XTM_G_XON_CELLS_REG_OFFSET, 3000);
    wr(m, XTM_G_HDRM_CELLS_REG_OFFSET, headroom_cells());
    wr(m, XTM_G_CFG_REG_OFFSET, 1u << XTM_G_CFG_PFC_EN_OFFSET);
  }
  // profile 1 = "final": fill-level 30 drop-probability 1; fill-level 60 drop-probability 100
  wr(m, XTM_PROF_SEL_REG_OFFSET, 1);
  wr(m, XTM_PR_FILL_0_REG_OFFSET, 19661);  // 30 % of 65536
  wr(m, XTM_PR_PROB_0_REG_OFFSET, 655);    // 1 %
  wr(m, XTM_PR_FILL_1_REG_OFFSET, 39322);  // 60 %
  wr(m, XTM_PR_PROB_1_REG_OFFSET, 65536);  // 100 %
  wr(m, XTM_PR_CFG_REG_OFFSET, 2u << XTM_PR_CFG_NPOINTS_OFFSET);
  // RDMA queue (port 4, queue 3): no-loss, ECN head-marking, 10 MB limit, evicts to HBM
  wr(m, XTM_VOQ_SEL_REG_OFFSET, EG * 8 + 3);
  wr(m, XTM_Q_CFG_REG_OFFSET,
     1u << XTM_Q_CFG_ENABLE_OFFSET | 1u << XTM_Q_CFG_NO_LOSS_OFFSET |
         1u << XTM_Q_CFG_ECN_EN_OFFSET |
         XTM_Q_CFG_MARK_POINT_VALUE_HEAD << XTM_Q_CFG_MARK_POINT_OFFSET |
         1u << XTM_Q_CFG_PROFILE_OFFSET);
  wr(m, XTM_Q_LIMIT_CELLS_REG_OFFSET, 40000);
  wr(m, XTM_Q_TARGET_RATE_REG_OFFSET, LINE_Q16);
  wr(m, XTM_Q_QUANTUM_REG_OFFSET, 9216 * 3);
  // lossy queue (port 4, queue 0): 500 KB, tail drop only
  wr(m, XTM_VOQ_SEL_REG_OFFSET, EG * 8 + 0);
  wr(m, XTM_Q_LIMIT_CELLS_REG_OFFSET, 2000);
  wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 4096);
  wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, 1024);
  wr(m, XTM_HBM_WR_RATE_REG_OFFSET, 0x40000);
  wr(m, XTM_HBM_RD_RATE_REG_OFFSET, 0x40000);
}

// The sender's reaction to a PFC frame for priority 3 from the TM on its port.
static void on_pfc(src_t *s, const xtm_pfc_frame_t *f, uint64_t t) {
  if (((f->vec >> 3) & 1u) == 0) {
    return;
  }
  uint64_t heard = t + CABLE_CYCLES;
  if (f->quanta[3] == 0) {
    s->paused_until = heard;  // XON
    return;
  }
  uint64_t end = heard + ((uint64_t)f->quanta[3] * 0x00051EB8u + 0xFFFF) / 65536;
  if (s->paused_until <= t || s->paused_from >= s->paused_until) {
    s->paused_from = heard + RESPONSE_CYCLES;  // a new pause: the peer needs time to react
  }
  s->paused_until = end;
}

// Start cycle of the sender's next packet as things stand (a later XON can advance it).
static uint64_t next_start(const src_t *s) {
  uint64_t start = (s->next_q16 + 0xFFFF) >> 16;
  if (s->paused_from < s->paused_until && start >= s->paused_from && start < s->paused_until) {
    start = s->paused_until;
  }
  return start;
}
// Arrival cycle at the TM of that packet (after the cable).
static uint64_t next_arrival(const src_t *s) { return next_start(s) + CABLE_CYCLES; }

int main(int argc, char **argv) {
  uint64_t us = 2000, every_us = 0;
  for (int i = 1; i < argc; i++) {
    bool is_us = strcmp(argv[i], "--us") == 0;
    if ((is_us || strcmp(argv[i], "--every-us") == 0) && i + 1 < argc) {
      // strict integers (tools/lib/xtm_num): '1e3' or '100abc' used to be 1 and 100
      xtm_num_msg_t msg;
      const char *opt = argv[i];
      if (xtm_num_u64(opt, argv[++i], is_us ? 1 : 0, 10000000, is_us ? &us : &every_us, &msg) !=
          kXtmNumOk) {
        fprintf(stderr, "xtm-demo: %s\n", msg.text);
        return 2;
      }
    } else {
      fprintf(stderr, "usage: %s [--us N] [--every-us K]\n", argv[0]);
      return 2;
    }
  }
  printf("xtm-demo: 4:1 incast into port %d for %" PRIu64
         " us, then 1000 us of drain; "
         "deterministic (no random choices)\nreproduce: build/bin/xtm-demo --us %" PRIu64 "\n\n",
         EG, us, us);
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_desc = 65536;
  xtm_t *m = NULL;
  if (xtm_create(&prm, &m) != kXtmOk) {
    fprintf(stderr, "xtm-demo: create failed\n");
    return 2;
  }
  uint64_t t_init = 0;
  while ((rd(m, XTM_STATUS_REG_OFFSET) & 1u) == 0) {
    xtm_out_t o;
    xtm_step(m, NULL, &o);
    if (++t_init > 10000) {
      fprintf(stderr, "xtm-demo: INIT_DONE never rose\n");
      return 2;
    }
  }
  configure(m);
  src_t src[N_SRC];
  const uint64_t rdma_gap = ((uint64_t)(4096 + 20) << 32) / LINE_Q16;
  for (int s = 0; s < 4; s++) {
    src[s] = (src_t){.port = (uint8_t)s,
                     .dscp = 26,
                     .ecn = 2,
                     .len = 4096,
                     .gap_q16 = rdma_gap,
                     .next_q16 = (xtm_cycle(m) + 13u * (unsigned)s) << 16};
  }
  src[4] = (src_t){.port = 5,
                   .dscp = 0,
                   .ecn = 0,
                   .len = 1500,
                   .gap_q16 = 4 * (((uint64_t)(1500 + 20) << 32) / LINE_Q16),
                   .next_q16 = xtm_cycle(m) << 16};
  uint64_t stop = xtm_cycle(m) + us * 1000;
  uint64_t end = stop + 1000000;
  uint64_t pfc_frames = 0, tx = 0;
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  xtm_out_t out;
  uint64_t next_sample = every_us ? xtm_cycle(m) : UINT64_MAX;
  if (every_us) {
    printf("time_us,rdma_cells,lossy_cells,xoff_ports,tx_bytes\n");
  }
  for (;;) {
    while (next_sample <= xtm_cycle(m)) {
      xtm_voq_state_t a, b;
      xtm_voq_state(m, EG * 8 + 3, &a);
      xtm_voq_state(m, EG * 8 + 0, &b);
      uint32_t xm = 0;
      for (uint32_t p = 0; p < 4; p++) {
        xtm_pg_state_t g;
        xtm_pg_state(m, p, 3, &g);
        xm |= (g.xoff ? 1u : 0u) << p;
      }
      printf("%" PRIu64 ",%u,%u,%x,%" PRIu64 "\n", (next_sample - (stop - us * 1000)) / 1000,
             a.occ_cells, b.occ_cells, xm, xtm_port_counter(m, EG, kXtmPcntTxBytes));
      next_sample += every_us * 1000;
    }
    // the earliest arrival among the senders still sending
    int who = -1;
    uint64_t at = end;
    for (int s = 0; s < N_SRC; s++) {
      uint64_t a = next_arrival(&src[s]);
      if (a < stop && a < at) {
        at = a;
        who = s;
      }
    }
    if (at < xtm_cycle(m)) {
      at = xtm_cycle(m);  // one enqueue per cycle: a collision waits a cycle
    }
    if (at > next_sample) {
      at = next_sample;
      who = -2;  // sample first, then look again
    }
    bool more;
    do {
      more = xtm_advance_to(m, at, &out);
      for (uint32_t p = 0; p < 4; p++) {
        if ((out.pfc_tx_valid >> p) & 1u) {
          on_pfc(&src[p], &out.pfc_tx[p], out.cycle);
          pfc_frames++;
        }
      }
      tx += (uint64_t)__builtin_popcountll(out.deq_valid);
    } while (more);
    if (who == -2) {
      continue;
    }
    if (who < 0) {
      break;
    }
    // the pause may have moved this sender's packet: re-evaluate before sending
    if (next_arrival(&src[who]) > xtm_cycle(m)) {
      continue;
    }
    src_t *s = &src[who];
    in.enq = (xtm_enq_in_t){.valid = true,
                            .pkt_id = (uint32_t)(who << 24 | s->sent),
                            .in_port = s->port,
                            .eg_port = EG,
                            .dscp = s->dscp,
                            .ecn = s->ecn,
                            .len = s->len};
    xtm_step(m, &in, &out);
    for (uint32_t p = 0; p < 4; p++) {
      if ((out.pfc_tx_valid >> p) & 1u) {
        on_pfc(&src[p], &out.pfc_tx[p], out.cycle);
        pfc_frames++;
      }
    }
    tx += (uint64_t)__builtin_popcountll(out.deq_valid);
    s->sent++;
    uint64_t started = next_start(s);
    if ((started << 16) > s->next_q16) {
      s->next_q16 = started << 16;  // resumed after a pause: the line rate restarts here
    }
    s->next_q16 += s->gap_q16;
  }
  // ---------------------------------------------------------------- report (CSR reads)
  printf("%-26s %12s %12s\n", "VOQ (port 4)", "queue 3", "queue 0");
  printf("%-26s %12s %12s\n", "", "RDMA", "lossy");
  static const struct {
    const char *name;
    uint16_t lo;
  } kRows[] = {
      {"arrivals", XTM_Q_ARR_PKTS_LO_REG_OFFSET},
      {"enqueued", XTM_Q_ENQ_PKTS_LO_REG_OFFSET},
      {"dequeued", XTM_Q_DEQ_PKTS_LO_REG_OFFSET},
      {"dequeued bytes", XTM_Q_DEQ_BYTES_LO_REG_OFFSET},
      {"drops: tail", XTM_Q_DROP_TAIL_LO_REG_OFFSET},
      {"drops: pool", XTM_Q_DROP_POOL_LO_REG_OFFSET},
      {"drops: profile", XTM_Q_DROP_PROFILE_LO_REG_OFFSET},
      {"drops: headroom (lossless)", XTM_Q_DROP_HDRM_LO_REG_OFFSET},
      {"drops: buffer full", XTM_Q_DROP_BUF_LO_REG_OFFSET},
      {"ECN marks: head", XTM_Q_MARK_HEAD_LO_REG_OFFSET},
      {"HBM evictions", XTM_Q_HBM_EVICT_LO_REG_OFFSET},
      {"HBM returns", XTM_Q_HBM_RETURN_LO_REG_OFFSET},
  };
  for (size_t r = 0; r < sizeof(kRows) / sizeof(kRows[0]); r++) {
    wr(m, XTM_VOQ_SEL_REG_OFFSET, EG * 8 + 3);
    uint64_t a = rd64(m, kRows[r].lo);
    wr(m, XTM_VOQ_SEL_REG_OFFSET, EG * 8 + 0);
    uint64_t b = rd64(m, kRows[r].lo);
    printf("%-26s %12" PRIu64 " %12" PRIu64 "\n", kRows[r].name, a, b);
  }
  wr(m, XTM_VOQ_SEL_REG_OFFSET, EG * 8 + 3);
  printf("%-26s %12u cells\n", "peak occupancy (RDMA)", rd(m, XTM_Q_WM_CELLS_REG_OFFSET));
  printf("\n%-26s %8s %8s %8s %8s %10s %10s\n", "ingress port, priority 3", "XOFF", "XON", "pkts",
         "peak", "hdrm peak", "hdrm max");
  for (uint32_t p = 0; p < 4; p++) {
    wr(m, XTM_PG_SEL_REG_OFFSET, p * 8 + 3);
    printf("%-26u %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8u %10u %10u\n", p,
           rd64(m, XTM_G_XOFF_SENT_LO_REG_OFFSET), rd64(m, XTM_G_XON_SENT_LO_REG_OFFSET),
           src[p].sent, rd(m, XTM_G_WM_CELLS_REG_OFFSET), rd(m, XTM_G_HDRM_WM_REG_OFFSET),
           rd(m, XTM_G_HDRM_CELLS_REG_OFFSET));
  }
  wr(m, XTM_PORT_SEL_REG_OFFSET, EG);
  uint64_t txb = rd64(m, XTM_P_TX_BYTES_LO_REG_OFFSET);
  double secs = (double)(xtm_cycle(m) - (stop - us * 1000)) * 1e-9;
  printf("\nport 4 transmitted %" PRIu64 " packets, %" PRIu64
         " bytes (%.1f Gb/s averaged over incast + drain)\n",
         rd64(m, XTM_P_TX_PKTS_LO_REG_OFFSET), txb, (double)txb * 8 / secs / 1e9);
  printf("PFC frames sent %" PRIu64 "; pool peak %u cells; error drops %" PRIu64 "\n", pfc_frames,
         rd(m, XTM_POOL_WM_REG_OFFSET),
         rd64(m, XTM_ERR_LEN_ZERO_LO_REG_OFFSET) + rd64(m, XTM_ERR_BAD_PORT_LO_REG_OFFSET));
  char why[256];
  bool ok = xtm_check_invariants(m, why, sizeof(why));
  printf("conservation (spec 12): %s%s\n", ok ? "holds" : "BROKEN: ", ok ? "" : why);
  printf("simulated %.3f ms in %" PRIu64 " cycles\n", secs * 1e3, xtm_cycle(m));
  xtm_destroy(m);
  (void)tx;
  if (fflush(stdout) != 0 || ferror(stdout)) {  // a full disk: an error, not a success
    fprintf(stderr, "xtm-demo: cannot write the output\n");
    return 1;
  }
  return ok ? 0 : 1;
}
