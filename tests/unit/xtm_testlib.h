// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the Check suites of libxtm: model set-up through the CSR backdoor,
// one-cycle drivers, output capture. Every helper asserts on failure (ck_assert), so a
// test reads as a list of expectations.

#ifndef XTM_TESTS_UNIT_XTM_TESTLIB_H_
#define XTM_TESTS_UNIT_XTM_TESTLIB_H_

#include <check.h>
#include <stdint.h>

#include "cmodel/xtm/xtm.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

// Creates a model (ports, tcs, desc; other parameters default) and steps it past
// initialisation, so xtm_cycle() == XTM_INIT_CYCLES(ports) = 8 * ports (spec 3) and
// descriptors and VOQ/PG window accesses are accepted.
xtm_t *tl_create(uint32_t ports, uint32_t tcs, uint32_t desc);
xtm_t *tl_create_params(const xtm_params_t *p);

// Backdoor CSR access; assert success.
void tl_wr(xtm_t *m, uint16_t addr, uint32_t data);
uint32_t tl_rd(xtm_t *m, uint16_t addr);
// Window writes/reads: selects the entry, then accesses the register (absolute offset).
void tl_voq_wr(xtm_t *m, uint32_t voq, uint16_t addr, uint32_t data);
uint32_t tl_voq_rd(xtm_t *m, uint32_t voq, uint16_t addr);
void tl_port_wr(xtm_t *m, uint32_t port, uint16_t addr, uint32_t data);
void tl_pg_wr(xtm_t *m, uint32_t port, uint32_t prio, uint16_t addr, uint32_t data);
uint32_t tl_pg_rd(xtm_t *m, uint32_t port, uint32_t prio, uint16_t addr);
// Reads a 64-bit counter through the CSR protocol (_LO then _HI).
uint64_t tl_rd64(xtm_t *m, uint16_t lo_addr);
// Programs profile `id`: n points of (fill, prob) in Q0.16, segmented or interpolated.
void tl_profile(xtm_t *m, uint32_t id, bool interp, uint32_t n, const uint32_t *fill,
                const uint32_t *prob);
// Q_CFG value builder.
uint32_t tl_qcfg(bool strict, bool no_loss, bool ecn_en, bool nonect_tail_only, uint32_t mark_point,
                 uint32_t profile);

// One cycle with an enqueue (ecn 0..3; dscp chooses the TC through DSCP_MAP).
void tl_enq(xtm_t *m, uint8_t in_port, uint8_t eg_port, uint8_t dscp, uint8_t ecn, uint16_t len,
            uint32_t pkt_id, xtm_out_t *out);
// One cycle with only a PFC frame received on port p.
void tl_pfc_rx(xtm_t *m, uint32_t port, uint8_t vec, const uint16_t *quanta, xtm_out_t *out);
// One idle cycle.
void tl_idle(xtm_t *m, xtm_out_t *out);
// An input bundle with nothing on it and every egress port ready.
void tl_idle_in(xtm_in_t *in);
// One cycle with a CSR bus write (not the backdoor), so "the cycle of the write" is exact;
// checks the response (valid, no error). out may be NULL.
void tl_bus_wr(xtm_t *m, uint16_t addr, uint32_t data, xtm_out_t *out);

// Output capture: runs idle cycles until `cycles` have passed, recording every dequeue.
typedef struct tl_deq_rec {
  uint64_t cycle;
  uint32_t port;
  xtm_deq_out_t d;
} tl_deq_rec_t;
// Returns the number of dequeues recorded into rec (at most cap; more are counted only).
uint32_t tl_run_collect(xtm_t *m, uint64_t cycles, tl_deq_rec_t *rec, uint32_t cap);

// Asserts the invariants of spec section 12.
void tl_check_invariants(xtm_t *m);

// A tiny deterministic PRNG for random tests (splitmix64): tests print their seed.
uint64_t tl_rand(uint64_t *state);

// The seed a random test uses: XTM_SEED from the environment when set (a decimal 64-bit
// number as the tests print it, parsed strictly by xtm_num: anything else fails the test
// with the parser's message, never a silent 0), else `dflt`.
uint64_t tl_env_seed(uint64_t dflt);

// Runs one suite with the default Check runner; returns the process exit status.
int tl_run_suite(Suite *s);

#endif  // XTM_TESTS_UNIT_XTM_TESTLIB_H_
