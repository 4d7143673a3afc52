// SPDX-License-Identifier: Apache-2.0
//
// Plots of xtm-netsim (docs/netsim.md 5 and 6), in one place so that their look can be
// reworked without touching the simulator. gnuplot runs without a shell: fork and exec with
// its working directory set to the output directory, the script and every data and image
// file named relative to it, so no path and no scenario text ever reaches a command line or
// a gnuplot string unchecked (titles pass through ns_plot_text).

#ifndef XTM_SIM_NETSIM_PLOT_H_
#define XTM_SIM_NETSIM_PLOT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Copies `src` into `dst` (size n) keeping only characters that are inert inside a gnuplot
// double-quoted string and a shell word alike (A-Z a-z 0-9 space . _ - = , : + / ( ) %);
// every other byte becomes '_'.
void ns_plot_text(char *dst, size_t n, const char *src);

// Writes `script` to DIR/NAME and runs `gnuplot NAME` in DIR, its stderr to DIR/gnuplot.log.
// Returns 0 when gnuplot exited 0, -1 when the script could not be written, 1 when gnuplot
// could not run or failed (see gnuplot.log). Never uses a shell.
int ns_plot_run(const char *dir, const char *name, const char *script);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_SIM_NETSIM_PLOT_H_
