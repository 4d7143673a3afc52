// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the Check suites of libdcqcn (tests/unit/test_dcqcn_*.c): model set-up
// through the CSR backdoor and one-cycle drivers. Every helper asserts on failure.

#ifndef DCQCN_TESTS_UNIT_DCQCN_TESTLIB_H_
#define DCQCN_TESTS_UNIT_DCQCN_TESTLIB_H_

#include <check.h>
#include <stdint.h>

#include "cmodel/dcqcn/dcqcn.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

// A model with num_qps QPs and scan_width slots (num_qps <= scan_width: S = 1, every QP
// is visited every cycle, so timers fire exactly at their deadlines).
dcqcn_t *dt_create(uint32_t num_qps, uint32_t scan_width);
// Sets a parameter by its mlxconfig name (asserts success).
void dt_param(dcqcn_t *m, const char *name, uint32_t value);
void dt_wr(dcqcn_t *m, uint16_t addr, uint32_t data);
uint32_t dt_rd(dcqcn_t *m, uint16_t addr);
uint32_t dt_qp_rd(dcqcn_t *m, uint32_t qp, uint16_t addr);
uint64_t dt_rd64(dcqcn_t *m, uint16_t lo_addr);

// One cycle with only this input (cnp / tx / ce); out receives the outputs.
void dt_cnp(dcqcn_t *m, uint16_t qp, dcqcn_out_t *out);
void dt_tx(dcqcn_t *m, uint16_t qp, uint16_t bytes, dcqcn_out_t *out);
void dt_ce(dcqcn_t *m, uint16_t qp, dcqcn_out_t *out);
// Idle cycles up to (not including) cycle t; every rate update seen is appended to rec
// (cycle in rec_cycle) up to cap entries; returns the number of updates seen.
uint32_t dt_run_to(dcqcn_t *m, uint64_t t, dcqcn_rate_upd_t *rec, uint64_t *rec_cycle,
                   uint32_t cap);
// Idle cycles up to cycle t, asserting that no output appears.
void dt_quiet_to(dcqcn_t *m, uint64_t t);

// The test set-up used by the exact sequences ("lab"): 4 QPs, S = 1, DCE_TCP_RTT = 100000 us
// (the alpha timer does not fire before cycle 10^8, so alpha stays INITIAL_ALPHA_VALUE),
// RATE_TO_SET_ON_FIRST_CNP = 40000, RPG_TIME_RESET = 10 us (10000 cycles).
dcqcn_t *dt_lab(void);

uint64_t dt_rand(uint64_t *state);
int dt_run_suite(Suite *s);

#endif  // DCQCN_TESTS_UNIT_DCQCN_TESTLIB_H_
