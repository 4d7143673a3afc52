// SPDX-License-Identifier: Apache-2.0
//
// Compile-time check: the C prototypes of cmodel/dpi/xtm_dpi.h and dcqcn_dpi.h against the
// prototypes Verilator derives from the import declarations of xtm_dpi_pkg.sv and
// dcqcn_dpi_pkg.sv (its generated __Dpi.h). A function whose argument types differ between
// a package and its header is a conflicting declaration: this file stops compiling.

#include "cmodel/dpi/dcqcn_dpi.h"
#include "cmodel/dpi/xtm_dpi.h"

#include "Vxtm_dpi_api_tb__Dpi.h"
