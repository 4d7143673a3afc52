// SPDX-License-Identifier: Apache-2.0
//
// Package of the sign-off flow's test design (tests/synth/synth_toy.sv).

package synth_toy_pkg;
  typedef struct packed {
    logic [3:0] tag;
    logic [6:0] len;
    logic       mark;
  } rec_t;  // 12 bits

  typedef enum logic [1:0] {StIdle, StFill, StDrain} st_e;
endpackage
