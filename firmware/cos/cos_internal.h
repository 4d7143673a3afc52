// SPDX-License-Identifier: Apache-2.0
//
// Internal interface of the configuration compiler (firmware/cos): diagnostics, the
// statement tree (curly or `set` form, inactive statements and apply-groups resolved),
// value parsing helpers, and the device part (ports, speeds, LAGs) that the class-of-service
// interpretation in xtm_cos.c uses. Not a public API: firmware/cos/xtm_cos.h is.

#ifndef XTM_FIRMWARE_COS_COS_INTERNAL_H_
#define XTM_FIRMWARE_COS_COS_INTERNAL_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/cos/xtm_cos.h"

__extension__ typedef unsigned __int128 cos_u128;

// ------------------------------------------------------------------ tokens and tree

typedef struct tok {
  int type;  // 'w' word, '{', '}', ';', '[', ']', 0 end of file
  const char *text;
  int line;
  int col;
} tok_t;

typedef struct node node_t;
struct node {
  const tok_t **w;  // words, '[' and ']' included
  size_t nw;
  size_t wcap;
  node_t **kids;
  size_t nkids;
  size_t kcap;
  bool block;
  bool inactive;    // `inactive:` marker or a set-form `deactivate`
  bool from_group;  // inherited through apply-groups
  const tok_t *open;
};

// Diagnostics (stored once per distinct text; repeats at other positions are counted).
#define COS_MORE_POS 8u
typedef struct diag_slot {
  uint16_t msg_off;  // where the text after "path:line:col: " starts
  uint32_t hash;     // of that text
  int line, col;     // first position (0: none)
  uint32_t npos;     // extra positions remembered for duplicate suppression
  int pos_line[COS_MORE_POS], pos_col[COS_MORE_POS];
} diag_slot_t;

typedef struct ctx {
  const char *path;
  xtm_cos_result_t *r;
  const xtm_fw_hw_t *hw;
  uint64_t clock_hz;
  uint64_t default_speed_bps;
  diag_slot_t eslot[XTM_COS_MAX_ERRORS];
  diag_slot_t wslot[XTM_COS_MAX_WARNINGS];
  // synthetic tokens made by the set-form reader and apply-groups (freed with the tree)
  tok_t **extra;
  size_t nextra, extracap;
} ctx_t;

void cos_err(ctx_t *c, const tok_t *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cos_warn(ctx_t *c, const tok_t *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define err cos_err
#define warn cos_warn

// Doubles *cap (from `first`) until it holds `need` elements of `size` bytes; false when
// the allocation fails.
bool cos_grow(void **p, size_t *cap, size_t need, size_t size, size_t first);

// Parses `text` (curly braces or `set` commands, detected from the first word) into `root`:
// inactive statements are removed (one warning each), apply-groups are expanded (groups
// removed). False after a syntax error (reported; nothing else is interpreted).
typedef struct cos_tree {
  node_t *root;
  tok_t *v;  // tokens
  size_t n, cap;
  char *store;
} cos_tree_t;
bool cos_tree_parse(ctx_t *c, const char *text, cos_tree_t *t);
void cos_tree_free(ctx_t *c, cos_tree_t *t);
void cos_node_free(node_t *n);
tok_t *cos_synth_tok(ctx_t *c, int type, const char *text, int line, int col);

// ------------------------------------------------------------------ value helpers

bool is_word(const node_t *n, size_t i, const char *s);
bool need_word(ctx_t *c, const node_t *n, size_t i, const char *what);
bool parse_uint(ctx_t *c, const node_t *n, size_t i, uint64_t min, uint64_t max, uint64_t *out);
bool parse_milli(ctx_t *c, const node_t *n, size_t i, const char *what, uint64_t *out);
void bad_milli(ctx_t *c, const tok_t *t, int st, const char *what);
int milli_of(const char *s, uint64_t *out);  // xtm_num_status_t
// A Junos number with an optional k/m/g multiplier (`4m` = 4000000), up to 3 decimals, as
// value x 1000. False when it is not one.
bool parse_scaled_milli(const char *s, uint64_t *out);
bool parse_rate_str(const char *s, uint64_t *bps);
bool no_more(ctx_t *c, const node_t *n, size_t i);
bool want_block(ctx_t *c, const node_t *n, size_t nwords);
bool want_leaf(ctx_t *c, const node_t *n);
size_t word_list(ctx_t *c, const node_t *n, size_t i, const tok_t **out, size_t cap, size_t *next);
void unknown(ctx_t *c, const node_t *n, const char *where);
bool check_name(ctx_t *c, const tok_t *t, const char *what);
void fmt_rate(char *b, size_t n, uint64_t bps);
// The Q8.16 register value of a rate (xtm_cos_rate_q16, docs/firmware.md 5.4) with its
// messages: an error when it rounds to 0 (`never` says what that would mean), a warning
// when it is more than 1 % off (xtm_cos.c).
uint32_t cos_rate_reg(ctx_t *c, const tok_t *t, const char *what, uint64_t bps, const char *never);
// One warning for a valid Junos statement that xtm does not model and whose absence does
// not change what it models; one error for one whose absence would.
void junos_ignored(ctx_t *c, const node_t *n, const char *where, const char *why);
void junos_refused(ctx_t *c, const tok_t *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
// A statement written as a block of leaves (`transmit-rate { percent 40; exact; }`, the form
// Junos displays some statements in) seen as one leaf: its words, then every leaf's words,
// in `tmp` (words in buf[cap]). n itself when it is a leaf or a block holding blocks.
const node_t *flat_view(const node_t *n, node_t *tmp, const tok_t **buf, size_t cap);

// ------------------------------------------------------------------ device part (cos_ports.c)

#define COS_MAX_PHYS 256u
typedef struct cos_phys {
  char name[XTM_COS_NAME_LEN];  // et-0/0/2:1
  char type[8];                 // et
  uint32_t fpc, pic, port;
  int32_t chan;            // -1: not channelized
  uint64_t speed_bps;      // 0: unknown
  const tok_t *speed_tok;  // where the speed was given (NULL: a default)
  char speed_src[96];      // "interfaces et-0/0/2 speed"
  int lag;                 // index into cos_dev_t.lag, -1
  const tok_t *lag_tok;
  const tok_t *where;  // first mention
  int mport;           // model port, -1 unmapped
} cos_phys_t;

typedef struct cos_lag {
  char name[XTM_COS_NAME_LEN];  // ae0
  const tok_t *where;
  uint32_t nmembers;
} cos_lag_t;

typedef struct cos_dev {
  uint32_t nphys;
  cos_phys_t phys[COS_MAX_PHYS];
  uint32_t nlag;
  cos_lag_t lag[64];
  // the device stanzas (not owned): interfaces and chassis at the top level
  const node_t *interfaces;
  const node_t *chassis;
  bool identity;  // the port map rule used (true: Junos port number)
} cos_dev_t;

typedef enum cos_ifkind {
  kIfPhys,      // et-0/0/2, et-0/0/2:1
  kIfLag,       // ae0
  kIfWildcard,  // et-*, et-0/0/*, all
  kIfOther,     // lo0, irb, em0, ...: not a traffic-manager port
  kIfBad,       // a physical name whose numbers are out of range
} cos_ifkind_t;

// Classifies an interface name; for kIfPhys fills type/fpc/pic/port/chan, for kIfBad
// writes the reason to `why`.
cos_ifkind_t cos_ifname(const char *name, cos_phys_t *p, char *why, size_t whylen);
bool cos_glob(const char *pat, const char *s);
// Reads top-level `interfaces` and `chassis` (speeds, LAG membership, sub-ports).
void cos_dev_read(ctx_t *c, cos_dev_t *d, const node_t *root);
// The physical port of that name (created when `create`), or -1.
int cos_dev_phys(ctx_t *c, cos_dev_t *d, const char *name, const tok_t *where, bool create);
int cos_dev_lag(const cos_dev_t *d, const char *name);
// Resolves the speed of every physical port in `want` (indices), from the device stanzas,
// the class-of-service `speed` (xtm extension, given by the caller in cos_speed[]), the
// default; errors for unknown or conflicting speeds.
void cos_dev_speed(ctx_t *c, cos_dev_t *d, int p, uint64_t cos_speed, const tok_t *cos_tok);
// Assigns model ports to the physical ports with mport == -2 (wanted): the Junos port
// number when all are on one FPC/PIC, unchannelized and below NumPorts, else in
// (fpc, pic, port, channel) order. False (after an error) when they do not fit.
bool cos_dev_map(ctx_t *c, cos_dev_t *d, const tok_t *where);

// ------------------------------------------------------------------ policing (cos_police.c)

// Junos firewall policers and the filters and interface statements that apply them to
// ingress ports (docs/firmware.md section 4.5).
typedef struct cos_police cos_police_t;
cos_police_t *cos_police_new(void);
void cos_police_free(cos_police_t *p);
// The top-level `firewall` stanza: policers (checked in full), filters (read when a port
// uses them).
void cos_police_firewall(ctx_t *c, cos_police_t *p, const node_t *fw);
// `interfaces X unit N family inet { policer { input P; } filter { input F; } }` of the
// top-level interfaces stanza, and the filters they use.
void cos_police_interfaces(ctx_t *c, cos_police_t *p, const node_t *root);
// Marks every policed physical port as wanted in the port map (mport -2); true for a port
// that is policed.
void cos_police_want(const cos_police_t *p, cos_dev_t *d);
bool cos_police_port(const cos_police_t *p, const char *name);
// The hardware policers of every policed port, after the classification (the DSCP map
// decides which traffic class a filter term's DSCP is): r->cfg.policers, r->cfg.pol_map,
// r->pol.
void cos_police_resolve(ctx_t *c, cos_police_t *p, const cos_dev_t *d);

#endif  // XTM_FIRMWARE_COS_COS_INTERNAL_H_
