// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the lockstep testbenches (tb/xtm_tb.cpp, tb/dcqcn_tb.cpp): bit access
// to Verilated ports and signals, the transaction history, printf into a std::string and
// the plusargs every testbench takes.

#ifndef XTM_TB_TB_COMMON_H_
#define XTM_TB_TB_COMMON_H_

#include <sys/stat.h>
#include <verilated.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>

#include "tools/lib/xtm_num.h"

// ------------------------------------------------------------------ bit access helpers
// Verilator stores signals of up to 64 bits as integers and wider ones as VlWide arrays.
template <class T>
static inline uint64_t getb(const T &p, int lsb, int w) {
  return (static_cast<uint64_t>(p) >> lsb) & (w >= 64 ? ~0ull : ((1ull << w) - 1));
}
template <std::size_t N>
static inline uint64_t getb(const VlWide<N> &p, int lsb, int w) {
  // up to 64 bits spanning at most three 32-bit words
  int wi = lsb / 32, sh = lsb % 32;
  unsigned __int128 acc = 0;
  for (int k = 0; k < 3 && wi + k < static_cast<int>(N); k++) {
    acc |= static_cast<unsigned __int128>(p[wi + k]) << (32 * k);
  }
  uint64_t v = static_cast<uint64_t>(acc >> sh);
  return w >= 64 ? v : (v & ((1ull << w) - 1));
}
template <class T>
static inline void setb(T &p, int lsb, int w, uint64_t v) {
  uint64_t m = (w >= 64 ? ~0ull : ((1ull << w) - 1)) << lsb;
  p = static_cast<T>((static_cast<uint64_t>(p) & ~m) | ((v << lsb) & m));
}
template <std::size_t N>
static inline void setb(VlWide<N> &p, int lsb, int w, uint64_t v) {
  for (int i = 0; i < w; i++) {
    int b = lsb + i;
    uint32_t bit = 1u << (b % 32);
    if ((v >> i) & 1u) {
      p[b / 32] |= bit;
    } else {
      p[b / 32] &= ~bit;
    }
  }
}

// ------------------------------------------------------------------ transaction history
// The last 16 transactions of each side, printed with the first mismatch.
struct Txn {
  uint64_t cycle;
  std::string text;
};

static inline void push_hist(std::deque<Txn> &h, uint64_t c, const std::string &s) {
  h.push_back({c, s});
  if (h.size() > 16) {
    h.pop_front();
  }
}

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2), unused));
static std::string fmt(const char *f, ...) {
  char b[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(b, sizeof(b), f, ap);
  va_end(ap);
  return b;
}

// ------------------------------------------------------------------ summary stamp
// The lines that stamp a run's summary (issue 17; as tools/stamp prints them): the spec
// version the register map encodes (VERSION: major 31:24, minor 23:16, patch 15:0), the
// checkout's `git describe --always --dirty` at run time (XTM_GIT_DESCRIBE overrides it;
// "nogit" outside a git tree) and the configuration.
static inline void tb_print_stamp(uint32_t version_reg, const std::string &config) {
  std::string git;
  const char *env = getenv("XTM_GIT_DESCRIBE");
  if (env != nullptr && env[0] != '\0') {
    git = env;
  } else if (FILE *p = popen("git describe --always --dirty 2>/dev/null", "r")) {
    char b[128] = {0};
    if (fgets(b, sizeof(b), p) != nullptr) git = b;
    pclose(p);
    while (!git.empty() && (git.back() == '\n' || git.back() == '\r')) git.pop_back();
  }
  printf("spec: %u.%u.%u\ngit: %s\nconfig: %s\n", version_reg >> 24, (version_reg >> 16) & 0xFFu,
         version_reg & 0xFFFFu, git.empty() ? "nogit" : git.c_str(), config.c_str());
}

// ------------------------------------------------------------------ plusargs
// +name=value or +name; true when present (value "" for +name).
static inline bool plusarg(int argc, char **argv, const char *name, std::string *val) {
  size_t n = strlen(name);
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '+' && strncmp(argv[i] + 1, name, n) == 0) {
      const char *rest = argv[i] + 1 + n;
      if (*rest == '=') {
        if (val != nullptr) *val = rest + 1;
        return true;
      }
      if (*rest == '\0') {
        if (val != nullptr) *val = "";
        return true;
      }
    }
  }
  return false;
}

// +name=<unsigned decimal in min..max>: the strict parser of every xtm tool (tools/lib/
// xtm_num.h: no hex, no sign, no trailing text, no silent wrap). A bad value is a usage
// error: the testbench says which plusarg and exits 2 before simulating anything.
static inline bool plusarg_u64(int argc, char **argv, const char *name, uint64_t min, uint64_t max,
                               uint64_t *out) {
  std::string v;
  if (!plusarg(argc, argv, name, &v)) return false;
  xtm_num_msg_t msg;
  std::string what = std::string("+") + name;
  if (xtm_num_u64(what.c_str(), v.c_str(), min, max, out, &msg) != kXtmNumOk) {
    fprintf(stderr, "error: %s\n", msg.text);
    exit(2);
  }
  return true;
}

// A testbench's plusargs, for tb_check_plusargs: every argument must be one of them, each
// at most once; a flag takes no value, a value plusarg needs "=<value>", numbers go through
// xtm_num_u64 (decimal, whole string, in min..max). Verilator's own +verilator+... pass.
struct TbArg {
  const char *name;
  char kind;          // 'f' flag (+name), 's' text, 'n' number (+name=<value>)
  uint64_t min, max;  // numbers only
};

// Validates argv (argv[0] apart) against args[0..n-1]; false with *err set on the first bad
// argument (unknown, repeated, a flag with a value, a value missing, a bad number).
static inline bool tb_check_plusargs(int argc, char **argv, const TbArg *args, size_t n,
                                     std::string *err) {
  std::deque<bool> seen(n, false);
  for (int i = 1; i < argc; i++) {
    char q[80];
    xtm_num_quote(q, sizeof(q), argv[i]);
    const char *a = argv[i];
    if (a[0] != '+') {
      *err = fmt("'%s' is not a plusarg (+name or +name=value)", q);
      return false;
    }
    if (strncmp(a, "+verilator+", 11) == 0) continue;  // Verilator's runtime options
    const char *eq = strchr(a, '=');
    size_t len = eq != nullptr ? (size_t)(eq - a - 1) : strlen(a + 1);
    size_t k = 0;
    while (k < n && !(strlen(args[k].name) == len && strncmp(args[k].name, a + 1, len) == 0)) {
      k++;
    }
    if (k == n) {
      std::string known;
      for (size_t j = 0; j < n; j++) {
        known += fmt("%s+%s%s", j ? " " : "", args[j].name, args[j].kind == 'f' ? "" : "=");
      }
      *err = fmt("unknown plusarg '%s' (known: %s)", q, known.c_str());
      return false;
    }
    const TbArg &d = args[k];
    if (seen[k]) {
      *err = fmt("+%s given twice ('%s')", d.name, q);
      return false;
    }
    seen[k] = true;
    if (d.kind == 'f') {
      if (eq != nullptr) {
        *err = fmt("+%s is a flag and takes no value ('%s')", d.name, q);
        return false;
      }
      continue;
    }
    if (eq == nullptr || eq[1] == '\0') {
      *err = fmt("+%s needs a value (+%s=<value>)", d.name, d.name);
      return false;
    }
    if (d.kind == 'n') {
      uint64_t x;
      xtm_num_msg_t msg;
      std::string what = fmt("+%s", d.name);
      if (xtm_num_u64(what.c_str(), eq + 1, d.min, d.max, &x, &msg) != kXtmNumOk) {
        *err = msg.text;
        return false;
      }
    }
  }
  return true;
}

// mkdir -p without a shell (the directory comes from +out=, which is user text): creates
// each missing component; false (errno set) when one cannot be created.
static inline bool mkdir_p(const std::string &dir) {
  if (dir.empty()) return false;
  for (size_t i = 1; i <= dir.size(); i++) {
    if (i < dir.size() && dir[i] != '/') continue;
    std::string part = dir.substr(0, i);
    if (mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) return false;
  }
  struct stat st;
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The plusargs of every testbench: +test +seed +cycles +trace +trace_start +state_every
// +max_errors +out, into any options struct with those members.
template <class Opt>
static inline void plusargs_common(int argc, char **argv, Opt &opt) {
  std::string v;
  uint64_t n;
  if (plusarg(argc, argv, "test", &v)) opt.test = v;
  if (plusarg_u64(argc, argv, "seed", 0, UINT64_MAX, &n)) opt.seed = n;
  if (plusarg_u64(argc, argv, "cycles", 0, UINT64_MAX / 2, &n)) opt.cycles = n;
  if (plusarg(argc, argv, "trace", nullptr)) opt.trace = true;
  if (plusarg_u64(argc, argv, "trace_start", 0, UINT64_MAX, &n)) opt.trace_start = n;
  if (plusarg_u64(argc, argv, "state_every", 0, UINT64_MAX, &n)) opt.state_every = n;
  if (plusarg_u64(argc, argv, "max_errors", 0, UINT64_MAX, &n)) opt.max_errors = n;
  if (plusarg(argc, argv, "out", &v)) opt.out = v;
}

#endif  // XTM_TB_TB_COMMON_H_
