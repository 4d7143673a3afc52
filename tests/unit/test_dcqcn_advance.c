// SPDX-License-Identifier: Apache-2.0
//
// Suite "dcqcn_advance": the skipping paths (heap of visits, parked QPs, dcqcn_advance_to)
// against the eager reference that scans QPs every cycle exactly as the RTL does
// (docs/spec-dcqcn.md D5, D13), on random CNP / traffic / CE / CSR patterns over 64 QPs;
// and a negative test: the same check must fail on an injected fast-path fault. The same
// differential with the rate-update stream off (dcqcn_set_rate_stream, the alpha timer
// lazy): every output but rate[] (which must stay empty), the state and the counters equal
// the eager reference's, and the injected fault is caught there too.

#include <stdio.h>
#include <string.h>

#include "tests/unit/dcqcn_testlib.h"

static bool out_eq(const dcqcn_out_t *a, const dcqcn_out_t *b, char *why, size_t n) {
  if (a->cycle != b->cycle || a->cnp_tx.valid != b->cnp_tx.valid ||
      (a->cnp_tx.valid && a->cnp_tx.qp != b->cnp_tx.qp) || a->n_rate != b->n_rate ||
      a->pace.valid != b->pace.valid ||
      (a->pace.valid && (a->pace.qp != b->pace.qp || a->pace.next_send != b->pace.next_send)) ||
      a->csr_rsp.valid != b->csr_rsp.valid || a->csr_rsp.rdata != b->csr_rsp.rdata ||
      a->csr_rsp.err != b->csr_rsp.err) {
    snprintf(why, n, "outputs differ at cycle %llu / %llu", (unsigned long long)a->cycle,
             (unsigned long long)b->cycle);
    return false;
  }
  for (uint32_t i = 0; i < a->n_rate; i++) {
    const dcqcn_rate_upd_t *x = &a->rate[i], *y = &b->rate[i];
    if (x->qp != y->qp || x->rc != y->rc || x->rt != y->rt || x->alpha != y->alpha) {
      snprintf(why, n, "rate update %u differs at cycle %llu (qp %u: rc %u/%u alpha %u/%u)", i,
               (unsigned long long)a->cycle, x->qp, x->rc, y->rc, x->alpha, y->alpha);
      return false;
    }
  }
  return true;
}

// With the rate stream off (b): the outputs of a but for rate[], and no rate update.
static bool out_eq_quiet(const dcqcn_out_t *a, const dcqcn_out_t *b, char *why, size_t n) {
  if (b->n_rate != 0) {
    snprintf(why, n, "rate update with the stream off at cycle %llu", (unsigned long long)b->cycle);
    return false;
  }
  dcqcn_out_t x = *a;
  x.n_rate = 0;
  return out_eq(&x, b, why, n);
}

static bool state_eq(dcqcn_t *a, dcqcn_t *b, char *why, size_t n) {
  for (uint32_t q = 0; q < dcqcn_params(a)->num_qps; q++) {
    dcqcn_qp_state_t x, y;
    dcqcn_qp_state(a, q, &x);
    dcqcn_qp_state(b, q, &y);
    if (memcmp(&x, &y, sizeof(x)) != 0 &&
        (x.active != y.active || x.cnp_alpha != y.cnp_alpha || x.cnp_dec != y.cnp_dec ||
         x.rc != y.rc || x.rt != y.rt || x.alpha != y.alpha || x.stage_timer != y.stage_timer ||
         x.stage_byte != y.stage_byte || x.byte_count != y.byte_count ||
         x.alpha_due != y.alpha_due || x.dec_due != y.dec_due || x.inc_due != y.inc_due ||
         x.pace_q8 != y.pace_q8 || x.np_sent != y.np_sent || x.np_last != y.np_last)) {
      snprintf(why, n, "QP %u state differs at cycle %llu", q, (unsigned long long)dcqcn_cycle(a));
      return false;
    }
  }
  for (int c = 0; c < kDcqcnGcntCount; c++) {
    if (dcqcn_counter(a, (dcqcn_gcnt_t)c) != dcqcn_counter(b, (dcqcn_gcnt_t)c)) {
      snprintf(why, n, "counter %d differs", c);
      return false;
    }
  }
  return true;
}

// Eager reference: steps every cycle until an output or cycle t.
static bool eager_next(dcqcn_t *m, uint64_t t, dcqcn_out_t *out) {
  while (dcqcn_cycle(m) < t) {
    dcqcn_step(m, NULL, out);
    if (dcqcn_out_any(out)) {
      return true;
    }
  }
  return false;
}

// The eager reference seen without its rate stream: cycles whose only output is rate[]
// are skipped (a model with the stream off reports nothing in them).
static bool eager_next_quiet(dcqcn_t *m, uint64_t t, dcqcn_out_t *out) {
  while (eager_next(m, t, out)) {
    if (out->cnp_tx.valid || out->pace.valid || out->csr_rsp.valid) {
      return true;
    }
  }
  return false;
}

// Skipping path, stepping every cycle (idle steps return at once before the next visit).
static bool skip_step_next(dcqcn_t *m, uint64_t t, dcqcn_out_t *out) {
  return eager_next(m, t, out);
}

static uint32_t g_gain = 512;       // DCE_TCP_G of setup()
static uint32_t g_byte_reset = 16;  // RPG_BYTE_RESET of setup() (x 64 bytes)

static void setup(dcqcn_t *m) {
  dt_param(m, "DCE_TCP_G", g_gain);  // 512: alpha halves each microsecond, QPs park soon
  dt_param(m, "RPG_TIME_RESET", 5);
  dt_param(m, "RPG_BYTE_RESET", g_byte_reset);
  dt_param(m, "RPG_MIN_DEC_FAC", 20);
  dt_param(m, "MIN_TIME_BETWEEN_CNPS", 1);
  dt_param(m, "LINE_RATE", 25000);
}

// Runs the same random pattern through eager (A), skip+step (B) and skip+advance_to (C);
// `quiet`: B and C with the rate stream off (compared without rate[]), and D, also quiet,
// fed by dcqcn_step_at (idle cycles and input in one call; its fallback for a CSR access).
// Returns false with *why on the first difference.
static bool differential(uint64_t seed, bool inject, bool quiet, char *why, size_t n) {
  dcqcn_t *a = dt_create(64, 4), *b = dt_create(64, 4), *c = dt_create(64, 4);
  dcqcn_t *d = dt_create(64, 4);
  dcqcn_set_eager(a, true);
  setup(a);
  setup(b);
  setup(c);
  setup(d);
  if (quiet) {
    dcqcn_set_rate_stream(b, false);
    dcqcn_set_rate_stream(c, false);
    dcqcn_set_rate_stream(d, false);
  }
  bool (*eq)(const dcqcn_out_t *, const dcqcn_out_t *, char *, size_t) =
      quiet ? out_eq_quiet : out_eq;
  if (inject) {
    ck_assert(dcqcn_inject_fault(c, kDcqcnFaultCatchUpShort));
  }
  uint64_t rs = seed, t = 0;
  bool ok = true;
  for (int ev = 0; ev < 2000 && ok; ev++) {
    uint64_t r = dt_rand(&rs);
    // gaps: mostly short, sometimes a long idle stretch (QPs recover, park, wake up later)
    uint64_t gap = (r % 8 == 0) ? 20000 + dt_rand(&rs) % 400000 : 1 + dt_rand(&rs) % 3000;
    t += gap;
    dcqcn_in_t in = {.cnp = {.valid = false}};
    uint64_t k = dt_rand(&rs);
    uint16_t qp = (uint16_t)(dt_rand(&rs) % 66);  // 64, 65: bad QPs
    switch (k % 6) {
      case 0:
      case 1:
        in.cnp = (dcqcn_qp_ev_t){.valid = true, .qp = qp};
        break;
      case 2:
      case 3:
        in.tx = (dcqcn_tx_ev_t){.valid = true, .qp = qp, .bytes = (uint16_t)(64 + k % 4000)};
        break;
      case 4:
        in.ce = (dcqcn_qp_ev_t){.valid = true, .qp = qp};
        break;
      default:
        in.csr = (dcqcn_csr_req_t){.valid = true, .write = (k >> 8) % 2 == 0};
        if (in.csr.write) {
          static const uint16_t kAddr[] = {DCQCN_RPG_TIME_RESET_REG_OFFSET, DCQCN_QP_SEL_REG_OFFSET,
                                           DCQCN_RPG_MAX_RATE_REG_OFFSET,
                                           DCQCN_CYCLES_PER_US_REG_OFFSET};
          static const uint32_t kData[] = {4, 17, 20000, 800};
          uint32_t i = (uint32_t)((k >> 12) % 4);
          in.csr.addr = kAddr[i];
          in.csr.wdata = kData[i] + (uint32_t)((k >> 20) % 3);
        } else {
          static const uint16_t kRd[] = {
              DCQCN_Q_ALPHA_REMAIN_REG_OFFSET, DCQCN_Q_DEC_REMAIN_REG_OFFSET,
              DCQCN_Q_INC_REMAIN_REG_OFFSET,   DCQCN_Q_RC_REG_OFFSET,
              DCQCN_CUTS_LO_REG_OFFSET,        DCQCN_Q_ALPHA_REG_OFFSET};
          in.csr.addr = kRd[(k >> 12) % 6];
        }
        break;
    }
    // the extra inputs of the same cycle
    if ((k >> 40) % 4 == 0) {
      in.ce = (dcqcn_qp_ev_t){.valid = true, .qp = (uint16_t)((k >> 44) % 64)};
    }
    for (;;) {
      dcqcn_out_t oa, ob, oc;
      bool ha = quiet ? eager_next_quiet(a, t, &oa) : eager_next(a, t, &oa);
      bool hb = skip_step_next(b, t, &ob);
      bool hc = dcqcn_advance_to(c, t, &oc);
      if (ha != hb || ha != hc) {
        snprintf(why, n, "output presence differs before cycle %llu", (unsigned long long)t);
        ok = false;
        break;
      }
      if (!ha) {
        break;
      }
      if (!eq(&oa, &ob, why, n) || !eq(&oa, &oc, why, n)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      dcqcn_out_t oa, ob, oc, od;
      dcqcn_step(a, &in, &oa);
      dcqcn_step(b, &in, &ob);
      dcqcn_step(c, &in, &oc);
      ok = eq(&oa, &ob, why, n) && eq(&oa, &oc, why, n);
      if (quiet && !dcqcn_step_at(d, t, &in, &od)) {
        ck_assert(in.csr.valid);  // the only reason to decline with the stream off
        while (dcqcn_advance_to(d, t, &od)) {
        }
        dcqcn_step(d, &in, &od);
      }
      ok = ok && (!quiet || eq(&oa, &od, why, n));
    }
    if (ok && ev % 256 == 0) {
      ok = state_eq(a, b, why, n) && state_eq(a, c, why, n) && (!quiet || state_eq(a, d, why, n));
    }
  }
  if (ok) {
    ok = state_eq(a, b, why, n) && state_eq(a, c, why, n) && (!quiet || state_eq(a, d, why, n));
  }
  dcqcn_destroy(a);
  dcqcn_destroy(b);
  dcqcn_destroy(c);
  dcqcn_destroy(d);
  return ok;
}

START_TEST(test_differential_random) {
  static const uint64_t kSeeds[] = {1, 0xC0FFEE, 20261130};
  char why[160] = "";
  for (size_t i = 0; i < sizeof(kSeeds) / sizeof(kSeeds[0]); i++) {
    ck_assert_msg(differential(kSeeds[i], false, false, why, sizeof(why)), "seed %llu: %s",
                  (unsigned long long)kSeeds[i], why);
  }
}
END_TEST

// The same check with a fast-path bug (a woken QP's timers one period behind) must fail.
START_TEST(test_differential_catches_fault) {
  char why[160] = "";
  ck_assert(!differential(1, true, false, why, sizeof(why)));
  ck_assert(why[0] != '\0');
}
END_TEST

// A byte threshold of 128,000 bytes (RPG_BYTE_RESET 2000; setup's 1,024 is crossed by most
// single transmissions): most transmissions of a QP not visited in their cycle leave
// pending bytes whose visit changes nothing but byte_count and is not executed (pend_visit,
// D5.1), with the stream on and off; the fault caught.
START_TEST(test_differential_unlisted_bytes) {
  static const uint64_t kSeeds[] = {1, 0xC0FFEE, 20261130};
  char why[160] = "";
  g_byte_reset = 2000;
  for (int quiet = 0; quiet < 2; quiet++) {
    for (size_t i = 0; i < sizeof(kSeeds) / sizeof(kSeeds[0]); i++) {
      ck_assert_msg(differential(kSeeds[i], false, quiet != 0, why, sizeof(why)),
                    "quiet %d seed %llu: %s", quiet, (unsigned long long)kSeeds[i], why);
    }
    ck_assert(!differential(1, true, quiet != 0, why, sizeof(why)));
  }
  g_byte_reset = 16;
}
END_TEST

// Rate stream off: with g = 512 (alpha at 0 within 11 firings) and with xtm-netsim's
// g = 1019 (alpha still decaying ~500 firings after a CNP), and the fault caught.
START_TEST(test_differential_quiet) {
  static const uint64_t kSeeds[] = {1, 0xC0FFEE, 20261130};
  static const uint32_t kGain[] = {512, 1019};
  char why[160] = "";
  for (size_t j = 0; j < 2; j++) {
    g_gain = kGain[j];
    for (size_t i = 0; i < sizeof(kSeeds) / sizeof(kSeeds[0]); i++) {
      ck_assert_msg(differential(kSeeds[i], false, true, why, sizeof(why)), "g %u seed %llu: %s",
                    kGain[j], (unsigned long long)kSeeds[i], why);
    }
    ck_assert(!differential(1, true, true, why, sizeof(why)));
  }
  g_gain = 512;
}
END_TEST

// Switching the stream back on mid-run applies the lazy alpha firings first: the same state
// and the same outputs (rate[] included) as an instance that never switched it off.
START_TEST(test_quiet_switch_back) {
  dcqcn_t *a = dt_create(64, 4), *b = dt_create(64, 4);
  g_gain = 1019;
  setup(a);
  setup(b);
  g_gain = 512;
  dcqcn_set_rate_stream(b, false);
  dcqcn_out_t oa, ob;
  for (uint16_t q = 0; q < 64; q += 5) {
    dt_cnp(a, q, &oa);
    dt_cnp(b, q, &ob);
  }
  for (uint16_t q = 0; q < 64; q += 5) {  // the second CNP: alpha timer busy, then decaying
    dcqcn_in_t in = {.cnp = {.valid = true, .qp = q}};
    dcqcn_step(a, &in, &oa);
    dcqcn_step(b, &in, &ob);
  }
  while (dcqcn_advance_to(a, 150000, &oa)) {
  }
  while (dcqcn_advance_to(b, 150000, &ob)) {
    ck_assert_uint_eq(ob.n_rate, 0);
  }
  char why[160] = "";
  ck_assert_msg(state_eq(a, b, why, sizeof(why)), "%s", why);
  dcqcn_qp_state_t s;
  dcqcn_qp_state(b, 0, &s);
  ck_assert(s.alpha > 0 && s.alpha < 1023);  // still decaying: the lazy path was exercised
  dcqcn_set_rate_stream(b, true);
  ck_assert_msg(state_eq(a, b, why, sizeof(why)), "%s", why);
  for (int i = 0; i < 400; i++) {
    bool ha = dcqcn_advance_to(a, 400000, &oa), hb = dcqcn_advance_to(b, 400000, &ob);
    ck_assert(ha == hb);
    if (!ha) {
      break;
    }
    ck_assert_msg(out_eq(&oa, &ob, why, sizeof(why)), "%s", why);
  }
  ck_assert_msg(state_eq(a, b, why, sizeof(why)), "%s", why);
  dcqcn_destroy(a);
  dcqcn_destroy(b);
}
END_TEST

// advance_to over a long idle stretch with quiescent QPs costs no more visits than a short
// one: after recovery every QP is parked and the heap is empty.
START_TEST(test_parked_idle_is_free) {
  dcqcn_t *m = dt_create(64, 4);
  setup(m);
  dcqcn_out_t out;
  for (uint16_t q = 0; q < 64; q++) {
    dt_cnp(m, q, &out);
  }
  // Drain: no cut (first CNPs only); alpha halves to 0 within 11 us; Rc = Rt = cap, so the
  // increase timer (still running, D6.6) is lazy from the start and counted in closed form.
  while (dcqcn_advance_to(m, 1000000, &out)) {
  }
  ck_assert_uint_eq(dcqcn_next_event(m), DCQCN_NEVER);
  ck_assert(!dcqcn_advance_to(m, 1000000000000ull, &out));
  ck_assert_uint_eq(dcqcn_cycle(m), 1000000000000ull);
  // The timers kept their phase: QP 0 started at cycle 0, alpha period 1000, visited at
  // t mod 16 = 0: the deadline now is the first 1000 k >= 10^12 + ... as the RTL holds it
  // after the visit at the last cycle <= 10^12 - 1 with t mod 16 = 0 (10^12 - 16): every
  // deadline <= that visit fired, so the next is 10^12 (a multiple of 1000 > 10^12 - 16).
  dcqcn_qp_state_t s;
  dcqcn_qp_state(m, 0, &s);
  ck_assert_uint_eq(s.alpha_due, 1000000000000ull);
  ck_assert_uint_eq(s.dec_due, 1000000000000ull);
  // Increase timer, period 5000, deadlines 5000 k: all those <= 10^12 - 16 fired, i.e.
  // k = 1..199999999 (T saturated at 255); the next is 10^12.
  ck_assert_uint_eq(s.inc_due, 1000000000000ull);
  ck_assert_uint_eq(s.stage_timer, 255);
  ck_assert_uint_eq(dcqcn_qp_counter(m, 0, kDcqcnQcntInc), 199999999ull);
  dcqcn_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dcqcn_advance");
  TCase *tc = tcase_create("differential");
  tcase_set_timeout(tc, 600);  // a hang guard: 7 s of CPU took over 120 s at load 18
  tcase_add_test(tc, test_differential_random);
  tcase_add_test(tc, test_differential_catches_fault);
  tcase_add_test(tc, test_parked_idle_is_free);
  tcase_add_test(tc, test_differential_quiet);
  tcase_add_test(tc, test_differential_unlisted_bytes);
  tcase_add_test(tc, test_quiet_switch_back);
  suite_add_tcase(s, tc);
  return dt_run_suite(s);
}
