#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""regtool: generate a block's register artefacts from its single TOML source (rtl/<blk>/data/<blk>_regs.toml).

    regtool.py TOML --sv-out DIR --c-out DIR --doc-out FILE [--check]

writes DIR/<blk>_reg_pkg.sv (SystemVerilog package with typed register structs), DIR/<blk>_csr_dec.sv
(the CSR address decoder: register id, mapped/read-only/legal, masked write data), DIR/<blk>_regs.h, DIR/<blk>_regs_table.c, DIR/<blk>_csr_edges.h (the fields with a legal range, for the csr_edges co-sim test)
(C11 macros and a run-time register table) and FILE (Markdown reference), <blk> being the
[block] name (xtm, dcqcn, ...); every generated identifier carries that prefix (<blk>_, <BLK>_,
k<Blk>). With --check nothing
is written: the files are generated into a temporary directory and compared with the existing
ones. Exit status: 0 success, 1 --check found drift, 2 invalid input (one line per problem,
"xtm_regs.toml: <register>: message").

Values (resval, min, max, window entries) are integers or arithmetic expressions over the
[[param]] names (+ - * / % << >>, parentheses) and, inside an array register, its index k.
Everything generated is deterministic: no timestamps, no absolute paths.
"""

import argparse
import ast
import difflib
import os
import re
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from typing import Optional

TOOL = "tools/regtool/regtool.py"
REGEN = "make regs"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SV_FILE, H_FILE, C_FILE = "xtm_reg_pkg.sv", "xtm_regs.h", "xtm_regs_table.c"  # for block "xtm"
DEC_FILE = "xtm_csr_dec.sv"
EDGES_FILE = "xtm_csr_edges.h"  # the legal-range edge table of the csr_edges co-sim test
FCOV_FILE = "xtm_fcov_points.tsv"  # the edge and width coverage points (tools/regress)
COV_KINDS = ("top", "carry")  # [[reg]] cov: a field within one of its maximum; a counter past 2^32


def out_names(m):
    """The generated source file names of block m (the xtm names with its prefix)."""
    return tuple(brand(m, f) for f in (SV_FILE, H_FILE, C_FILE, DEC_FILE, EDGES_FILE, FCOV_FILE))


def brand(m, text):
    """Renames the generator's identifiers (written for block "xtm") to block m's prefix.

    Applied to whole generated sources: xtm_ -> <blk>_, XTM_ -> <BLK>_, kXtm -> k<Blk>.
    The identity for the xtm block itself, so its outputs stay byte-identical. A description
    in another block's TOML that mentions an xtm_ identifier would be renamed too.
    """
    name = m.block["name"]
    if name == "xtm":
        return text
    cam = "".join(w.capitalize() for w in name.split("_"))
    text = re.sub(r"\bxtm_", name + "_", text)
    text = re.sub(r"\bXTM_", name.upper() + "_", text)
    text = re.sub(r"\bXtmReg(?=[A-Z])", cam + "Reg", text)
    return re.sub(r"\bkXtm", "k" + cam, text)

SWACCESS = {  # swaccess -> (C enumerator, meaning for the documentation)
    "ro": ("kXtmSwRo", "Read-only; writes are ignored and set ERR_STATUS.RO_WRITE."),
    "rw": ("kXtmSwRw", "Read/write."),
    "rc": ("kXtmSwRc", "Read-only; a read returns the value and restarts (clears) it."),
    "rw1c": ("kXtmSwRw1c", "Readable; writing 1 to a bit clears it, writing 0 leaves it."),
    "wo1p": ("kXtmSwWo1p", "Write 1 to a bit for a one-cycle pulse; reads return 0."),
}
HWACCESS = ("hro", "hwo", "hrw", "none")
BLOCK_KEYS = {"name", "desc", "type", "version", "addr_width", "data_width"}
PARAM_KEYS = {"name", "default", "desc"}
WINDOW_KEYS = {"name", "base", "size", "select", "entries", "desc"}
REG_KEYS = {"name", "offset", "swaccess", "hwaccess", "desc", "fields", "counter", "window",
            "count", "stride", "cov"}
FIELD_KEYS = {"name", "bits", "resval", "min", "max", "desc", "enum"}
ENUM_KEYS = {"value", "name", "desc"}
BINOPS = {ast.Add: ("+", 2), ast.Sub: ("-", 2), ast.Mult: ("*", 3), ast.Div: ("/", 3),
          ast.Mod: ("%", 3), ast.LShift: ("<<", 1), ast.RShift: (">>", 1)}


class RegError(Exception):
    """An error in the register description; str() is the message after the location."""


# ------------------------------------------------------------------------------ expressions
class Expr:
    """An unsigned integer value: a literal, or an expression over parameter names and k."""

    def __init__(self, value, names):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise RegError(f"{value!r} is neither an integer nor an expression string")
        if isinstance(value, int):
            self.node = ast.Constant(value)
        else:
            try:
                self.node = ast.parse(value.strip(), mode="eval").body
            except SyntaxError:
                raise RegError(f"cannot parse expression {value!r}") from None
            self._check(self.node, names, value)

    def _check(self, node, names, text):
        """Allow only integer literals, known names and the binary operators in BINOPS."""
        if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
            self._check(node.left, names, text)
            self._check(node.right, names, text)
        elif isinstance(node, ast.Name):
            if node.id not in names:
                raise RegError(f"unknown name {node.id!r} in expression {text!r}")
        elif not (isinstance(node, ast.Constant) and type(node.value) is int):
            raise RegError(f"unsupported syntax in expression {text!r}")

    def names(self):
        """The set of names the expression uses."""
        return {n.id for n in ast.walk(self.node) if isinstance(n, ast.Name)}

    def is_const(self):
        """True for a plain literal (no parameter or index)."""
        return not self.names()

    def eval(self, env):
        """The value with names bound by env; raises RegError if negative or > 32 bits."""
        def ev(n):
            if isinstance(n, ast.Constant):
                return n.value
            if isinstance(n, ast.Name):
                return env[n.id]
            a, b = ev(n.left), ev(n.right)
            op = type(n.op)
            if op in (ast.Div, ast.Mod) and b == 0:
                raise RegError(f"division by zero in {self.render()}")
            return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                    ast.Div: lambda: a // b, ast.Mod: lambda: a % b,
                    ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b}[op]()
        v = ev(self.node)
        if not 0 <= v <= 0xFFFFFFFF:
            raise RegError(f"{self.render()} = {v} is not an unsigned 32-bit value")
        return v

    def render(self, name=lambda s: s, const=str):
        """Source text with minimal parentheses (C, SV and Python share these precedences)."""
        def rd(n, parent_prec=0, right=False):
            if isinstance(n, ast.Constant):
                return const(n.value)
            if isinstance(n, ast.Name):
                return name(n.id)
            sym, prec = BINOPS[type(n.op)]
            s = f"{rd(n.left, prec)} {sym} {rd(n.right, prec, True)}"
            return f"({s})" if prec < parent_prec or (right and prec == parent_prec) else s
        return rd(self.node)


# ------------------------------------------------------------------------------ model
@dataclass
class Param:
    name: str
    default: int
    desc: str
    snake: str


@dataclass
class Window:
    name: str
    base: int
    size: int
    select: str
    entries: Expr
    desc: str
    index: int


@dataclass
class Field:
    name: str
    msb: int
    lsb: int
    resval: Expr
    min: Optional[Expr]
    max: Optional[Expr]
    desc: str = ""
    enums: list = field(default_factory=list)  # (value, name, desc)

    @property
    def width(self):
        return self.msb - self.lsb + 1

    @property
    def mask(self):
        """Right-aligned mask of the field width."""
        return (1 << self.width) - 1


@dataclass
class Word:
    """One 32-bit word of the address map (a counter or an array expands to several)."""
    name: str
    offset: int  # absolute
    k: int = 0  # array index
    is_hi: bool = False


@dataclass
class Reg:
    name: str
    offset: int  # relative to the window base for window registers
    window: Optional[Window]
    swaccess: str
    hwaccess: str
    desc: str
    fields: list
    counter: bool = False
    count: int = 0  # 0: not an array
    stride: int = 4
    cov: str = ""  # a width coverage point: "top" (every field) or "carry" (a counter)

    @property
    def address(self):
        return self.offset + (self.window.base if self.window else 0)

    def words(self):
        """The 32-bit words this register occupies, in address order."""
        if self.counter:
            return [Word(self.name + "_LO", self.address),
                    Word(self.name + "_HI", self.address + 4, is_hi=True)]
        if self.count:
            return [Word(f"{self.name}_{k}", self.address + k * self.stride, k)
                    for k in range(self.count)]
        return [Word(self.name, self.address)]


@dataclass
class Model:
    src: str
    block: dict
    params: list
    windows: list
    regs: list
    src_path: str = ""  # the TOML path shown in the generated banners

    def env(self, k=0):
        """Name bindings for the default parameters (and array index k)."""
        return {**{p.name: p.default for p in self.params}, "k": k}

    def words(self):
        return [(r, w) for r in self.regs for w in r.words()]


def snake(camel):
    """CamelCase -> snake_case (NumPorts -> num_ports, CellLog2 -> cell_log2)."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", camel)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def camel(upper):
    """UPPER_SNAKE -> CamelCase (Q_CFG -> QCfg)."""
    return "".join(w.capitalize() for w in upper.split("_"))


def check_keys(tbl, allowed, required, what):
    """Reject unknown keys (catches typos) and missing required ones."""
    if not isinstance(tbl, dict):
        raise RegError(f"{what} must be a table")
    unknown = sorted(set(tbl) - allowed)
    if unknown:
        raise RegError(f"unknown key(s) {', '.join(unknown)} in {what}")
    missing = [k for k in required if k not in tbl]
    if missing:
        raise RegError(f"missing key(s) {', '.join(missing)} in {what}")


def hx(v, digits=0):
    """0x-prefixed upper-case hex, zero-padded to digits."""
    return f"0x{v:0{digits}X}"


def need_int(v, what, lo=0, hi=0xFFFFFFFF):
    """An integer in [lo, hi]."""
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RegError(f"{what} must be an integer in {lo}..{hx(hi)}, not {v!r}")
    return v


# ------------------------------------------------------------------------------ loading
def load(path):
    """Parse and validate the TOML; returns a Model or exits 2 listing every problem."""
    src = os.path.basename(path)
    errors = []

    def err(where, msg):
        errors.append(f"{src}: {where}: {msg}")

    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        sys.exit(report([f"{src}: {e}"]))
    unknown = sorted(set(doc) - {"block", "param", "window", "reg"})
    if unknown:
        err("file", f"unknown top-level table(s) {', '.join(unknown)}")
    try:
        block = load_block(doc.get("block", {}))
    except RegError as e:
        err("block", e)
        sys.exit(report(errors))
    params = load_params(doc.get("param", []), err)
    space = 1 << block["addr_width"]
    windows, bad_windows = load_windows(doc.get("window", []), params, space, err)
    regs = load_regs(doc.get("reg", []), params, windows, bad_windows, space, err)
    names = {r.name: r for r in regs}
    for w in windows:
        sel = names.get(w.select)
        if sel is None or sel.window is not None or sel.count or sel.counter:
            if not any(f": {w.select}: " in e for e in errors):  # not a follow-on error
                what = "is not defined" if sel is None else "is not a plain global register"
                err(f"window {w.name}", f"select register {w.select} {what}")
    m = Model(src, block, params, windows, regs)
    if errors:
        sys.exit(report(errors))
    check_ident(m, "BLOCK_TYPE", "type", block["type"])
    check_ident(m, "VERSION", "version", block["version"])
    return m


def load_block(block):
    """Validate [block]."""
    check_keys(block, BLOCK_KEYS, ("name", "type", "version", "addr_width", "data_width"),
               "[block]")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", str(block["name"])):
        raise RegError(f"[block] name {block['name']!r} is not a lower_snake identifier "
                       "(it prefixes every generated name)")
    for k in ("type", "version"):
        need_int(block[k], f"[block] {k}")
    need_int(block["addr_width"], "[block] addr_width", 2, 16)
    if block["data_width"] != 32:
        raise RegError("only data_width = 32 is supported")
    return block


def load_params(tables, err):
    """Validate the [[param]] tables; returns the list of Param."""
    params = []
    for i, p in enumerate(tables):
        where = p.get("name", f"param #{i}") if isinstance(p, dict) else f"param #{i}"
        try:
            check_keys(p, PARAM_KEYS, ("name", "default"), "[[param]]")
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", str(p["name"])):
                raise RegError("parameter names are CamelCase identifiers")
            if p["name"] in [q.name for q in params]:
                raise RegError("duplicate parameter name")
            params.append(Param(p["name"], need_int(p["default"], "default"), p.get("desc", ""),
                                snake(p["name"])))
        except RegError as e:
            err(where, e)
    return params


def load_windows(tables, params, space, err):
    """Validate the [[window]] tables; returns (windows, names of the invalid ones)."""
    env = {p.name: p.default for p in params}
    windows, bad = [], set()
    for i, w in enumerate(tables):
        where = f"window {w.get('name', i)}" if isinstance(w, dict) else f"window #{i}"
        try:
            check_keys(w, WINDOW_KEYS, ("name", "base", "size", "select", "entries"), "[[window]]")
            if not re.fullmatch(r"[A-Z][A-Z0-9_]*", str(w["name"])):
                raise RegError("window names are UPPER_SNAKE identifiers")
            if w["name"] in [x.name for x in windows]:
                raise RegError("duplicate window name")
            base, size = need_int(w["base"], "base"), need_int(w["size"], "size", 4)
            if base % 4 or size % 4:
                raise RegError(f"base {hx(base)} and size {hx(size)} must be multiples of 4")
            if base + size > space:
                raise RegError(f"window {hx(base)}+{hx(size)} exceeds the address space")
            for x in windows:
                if base < x.base + x.size and x.base < base + size:
                    raise RegError(f"window overlaps window {x.name}")
            entries = Expr(w["entries"], set(env))
            entries.eval(env)
            windows.append(Window(w["name"], base, size, w["select"], entries, w.get("desc", ""),
                                  len(windows)))
        except RegError as e:
            err(where, e)
            bad.add(w.get("name") if isinstance(w, dict) else None)
    return windows, bad


def load_regs(tables, params, windows, bad_windows, space, err):
    """Validate the [[reg]] tables and the address map; returns the list of Reg."""
    env = {p.name: p.default for p in params}
    wins = {w.name: w for w in windows}
    regs, owner, used_addr = [], {}, {}  # owner: register or word name -> register name
    for i, r in enumerate(tables):
        where = r.get("name", f"reg #{i}") if isinstance(r, dict) else f"reg #{i}"
        if isinstance(r, dict) and r.get("window") in bad_windows:
            continue  # the window's own error is enough
        try:
            reg = load_reg(r, wins, set(env), env)
            for w in windows:
                if reg.window is None and w.base <= reg.address < w.base + w.size:
                    raise RegError(f"offset {hx(reg.address, 4)} lies inside window {w.name}")
            for wd in reg.words():
                rel = wd.offset - (reg.window.base if reg.window else 0)
                if reg.window and rel + 4 > reg.window.size:
                    raise RegError(f"{wd.name} at window offset {hx(rel)} is beyond window "
                                   f"{reg.window.name} (size {hx(reg.window.size)})")
                if wd.offset + 4 > space:
                    raise RegError(f"{wd.name} at {hx(wd.offset, 4)} is beyond the address space")
                if wd.offset in used_addr:
                    raise RegError(f"offset {hx(wd.offset, 4)} ({wd.name}) overlaps "
                                   f"{used_addr[wd.offset]}")
            names = sorted({reg.name} | {wd.name for wd in reg.words()})
            for n in (n for n in names if n in owner):
                if n == reg.name == owner[n]:
                    raise RegError("duplicate register name")
                raise RegError(f"name {n} clashes with register {owner[n]}")
            used_addr.update({wd.offset: wd.name for wd in reg.words()})
            owner.update({n: reg.name for n in names})
            regs.append(reg)
        except RegError as e:
            err(where, e)
    return regs


def check_ident(m, regname, what, value):
    """Warn (stderr only) when a register's reset value disagrees with the [block] constant."""
    r = next((r for r in m.regs if r.name == regname), None)
    if r and resval(m, r) != value:
        print(f"{m.src}: {regname}: warning: reset value {hx(resval(m, r), 8)} differs from "
              f"[block] {what} {hx(value, 8)}", file=sys.stderr)


def report(errors):
    """Print the errors; returns the exit status 2."""
    for e in errors:
        print(e, file=sys.stderr)
    return 2


def load_reg(r, wins, pnames, env):
    """Validate one [[reg]] table and build the Reg (fields included)."""
    check_keys(r, REG_KEYS, ("name", "offset", "swaccess"), "[[reg]]")
    name = r["name"]
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", str(name)):
        raise RegError("register names are UPPER_SNAKE identifiers")
    if r["swaccess"] not in SWACCESS:
        raise RegError(f"unknown swaccess {r['swaccess']!r} (expected {'|'.join(SWACCESS)})")
    if r.get("hwaccess", "none") not in HWACCESS:
        raise RegError(f"unknown hwaccess {r['hwaccess']!r} (expected {'|'.join(HWACCESS)})")
    offset = need_int(r["offset"], "offset", 0, 0xFFFF)
    if offset % 4:
        raise RegError(f"offset {hx(offset)} is not 32-bit aligned")
    window = None
    if "window" in r:
        if r["window"] not in wins:
            raise RegError(f"unknown window {r['window']!r}")
        window = wins[r["window"]]
    counter = r.get("counter", False)
    if not isinstance(counter, bool):
        raise RegError("counter must be true or false")
    count = need_int(r.get("count", 0), "count", 1, 255) if "count" in r else 0
    stride = need_int(r.get("stride", 4), "stride", 4, 0xFFFF)
    if stride % 4:
        raise RegError(f"stride {hx(stride)} is not a multiple of 4")
    if "stride" in r and not count:
        raise RegError("stride without count")
    if counter:
        if "fields" in r or count:
            raise RegError("a counter has neither fields nor count")
        fields = [Field("VALUE", 31, 0, Expr(0, ()), None, None, "Counter value.")]
    else:
        if not r.get("fields"):
            raise RegError("no fields")
        names = pnames | ({"k"} if count else set())
        fields = [load_field(f, names) for f in r["fields"]]
    cov = r.get("cov", "")
    if cov and cov not in COV_KINDS:
        raise RegError(f"cov {cov!r} is not one of {'|'.join(COV_KINDS)}")
    if cov == "carry" and not counter:
        raise RegError("cov = \"carry\" needs counter = true (the 64-bit carry into _HI)")
    if cov == "top" and (counter or count):
        raise RegError("cov = \"top\" is for a plain register (not a counter or an array)")
    reg = Reg(name, offset, window, r["swaccess"], r.get("hwaccess", "none"), r.get("desc", ""),
              fields, counter, count, stride, cov)
    for i, f in enumerate(fields):
        where = f"field {f.name}"
        for g in fields[:i]:
            if g.name == f.name:
                raise RegError(f"duplicate {where}")
            if (f.mask << f.lsb) & (g.mask << g.lsb):
                raise RegError(f"{where}: bits {f.msb}:{f.lsb} overlap field {g.name} "
                               f"({g.msb}:{g.lsb})")
        for k in range(max(count, 1)):
            e = {**env, "k": k}
            at = f" (element {k})" if count else ""
            try:
                rv = f.resval.eval(e)
                lo = f.min.eval(e) if f.min else 0
                hi = f.max.eval(e) if f.max else f.mask
            except RegError as x:
                raise RegError(f"{where}{at}: {x}") from None
            for what, v in (("resval", rv), ("min", lo), ("max", hi)):
                if v > f.mask:
                    raise RegError(f"{where}{at}: {what} {hx(v)} does not fit in {f.width} bits")
            if lo > hi:
                raise RegError(f"{where}{at}: min {hx(lo)} > max {hx(hi)}")
            if not lo <= rv <= hi and r["swaccess"] == "rw":
                raise RegError(f"{where}{at}: resval {hx(rv)} is outside the legal range "
                               f"{hx(lo)}..{hx(hi)}")
        for v, n, _ in f.enums:
            if v > f.mask:
                raise RegError(f"{where}: enum {n} = {v} does not fit in {f.width} bits")
    return reg


def load_field(f, names):
    """Validate one field table and build the Field."""
    check_keys(f, FIELD_KEYS, ("name", "bits"), f"field {f.get('name', '')}".strip()
               if isinstance(f, dict) else "field")
    name = f["name"]
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", str(name)):
        raise RegError(f"field name {name!r} is not an UPPER_SNAKE identifier")
    m = re.fullmatch(r"\s*(\d+)\s*(?::\s*(\d+)\s*)?", str(f["bits"]))
    if not m:
        raise RegError(f"field {name}: bits {f['bits']!r} is not 'msb:lsb' or 'bit'")
    msb = int(m.group(1))
    lsb = int(m.group(2)) if m.group(2) is not None else msb
    if msb < lsb:
        raise RegError(f"field {name}: bits {f['bits']}: msb < lsb")
    if msb > 31:
        raise RegError(f"field {name}: bits {f['bits']} exceed the 32-bit register")
    try:
        vals = [Expr(f[k], names) if k in f else None for k in ("resval", "min", "max")]
    except RegError as e:
        raise RegError(f"field {name}: {e}") from None
    enums = []
    for e in f.get("enum", []):
        check_keys(e, ENUM_KEYS, ("value", "name"), f"enum of field {name}")
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*", str(e["name"])):
            raise RegError(f"field {name}: enum name {e['name']!r} is not UPPER_SNAKE")
        need_int(e["value"], f"field {name}: enum {e['name']} value")
        if e["name"] in [x[1] for x in enums] or e["value"] in [x[0] for x in enums]:
            raise RegError(f"field {name}: duplicate enum {e['name']} = {e['value']}")
        enums.append((e["value"], e["name"], e.get("desc", "")))
    return Field(name, msb, lsb, vals[0] or Expr(0, ()), vals[1], vals[2], f.get("desc", ""),
                 enums)


def resval(m, r, k=0):
    """Register reset value with the default parameters (array element k)."""
    return sum(f.resval.eval(m.env(k)) << f.lsb for f in r.fields)


def param_dependent(r):
    """True when the reset value depends on the parameters (not just the array index)."""
    return any(f.resval.names() - {"k"} for f in r.fields)


def reg_summary(r):
    """One-line comment for a register: name, place, access, kind and first sentence."""
    where = f"window {r.window.name} + 0x{r.offset:02X}" if r.window else "global"
    kind = ", 64-bit counter" if r.counter else f", array[{r.count}]" if r.count else ""
    return f"{r.name} ({where}, {r.swaccess}{kind}): {first_sentence(r.desc)}"


def unique(names, what):
    """Fail (exit 2) if two generated identifiers collide."""
    seen = set()
    for n in names:
        if n in seen:
            sys.exit(report([f"xtm_regs.toml: generated {what} identifier {n} is defined twice"]))
        seen.add(n)


def banner(m, c):
    """The 'generated, do not edit' comment, each line prefixed with comment marker c."""
    lines = [f"Generated by {TOOL} from {m.src_path}.",
             f"Regenerate with `{REGEN}`. DO NOT EDIT: change the TOML instead."]
    return [f"{c} {s}" for s in lines]


# ------------------------------------------------------------------------------ SystemVerilog
def gen_sv(m):
    """The SystemVerilog package (plain localparams: Verilator and Yosys friendly)."""
    aw = m.block["addr_width"]
    out, ids = ["// SPDX-License-Identifier: Apache-2.0", "//", *banner(m, "//"), ""], []

    def lp(typ, name, val, comment=""):
        ids.append(name)
        out.append(f"  localparam {typ} {name} = {val};" + (f"  // {comment}" if comment else ""))

    def addr(v):
        return f"{aw}'h{v:0{(aw + 3) // 4}X}"

    out += ["package xtm_reg_pkg;", "", "  // Hardware parameters (defaults; package parameters "
            "cannot be overridden)."]
    for p in m.params:
        ids.append(p.name)
        out.append(f"  parameter int unsigned {p.name} = {p.default};  // {p.desc}")
    out += ["", "  // Block identification and bus geometry."]
    lp("logic [31:0]", "XTM_BLOCK_TYPE_VALUE", f"32'h{m.block['type']:08X}")
    lp("logic [31:0]", "XTM_VERSION_VALUE", f"32'h{m.block['version']:08X}")
    lp("int unsigned", "XTM_ADDR_WIDTH", aw)
    lp("int unsigned", "XTM_DATA_WIDTH", 32)
    out += ["", "  // Windows: registers at BASE..BASE+SIZE-1 show the entry chosen by the select "
            "register."]
    for w in m.windows:
        lp(f"logic [{aw - 1}:0]", f"XTM_WIN_{w.name}_BASE", addr(w.base), f"select {w.select}")
        lp(f"logic [{aw - 1}:0]", f"XTM_WIN_{w.name}_SIZE", addr(w.size),
           f"entries {w.entries.render()}")
    for r in m.regs:
        out += ["", f"  // {reg_summary(r)}"]
        for wd in r.words():
            lp(f"logic [{aw - 1}:0]", f"XTM_{wd.name}_OFFSET", addr(wd.offset))
        if r.counter:
            continue
        note = "default parameters" if param_dependent(r) else ""
        for wd in r.words():
            lp("logic [31:0]", f"XTM_{wd.name}_RESVAL", f"32'h{resval(m, r, wd.k):08X}", note)
        for f in r.fields:
            lp("int unsigned", f"XTM_{r.name}_{f.name}_LSB", f.lsb)
            lp("logic [31:0]", f"XTM_{r.name}_{f.name}_MASK", f"32'h{f.mask << f.lsb:08X}")
            for v, n, _ in f.enums:
                lp(f"logic [{f.width - 1}:0]", f"XTM_{r.name}_{f.name}_{n}", f"{f.width}'d{v}")
    out += sv_types(m, ids)
    out += ["", "endpackage", ""]
    unique(ids, "SystemVerilog")
    return "\n".join(out)


SV_KEYWORDS = {"type", "bit", "byte", "int", "logic", "reg", "wire", "input", "output",
               "priority", "unique", "final", "do", "table", "event", "time", "real", "string",
               "default", "case", "if", "else", "begin", "end", "module", "package", "signed",
               "unsigned", "const", "static", "struct", "union", "enum", "void", "return",
               "break", "continue", "force", "release", "assign", "edge", "initial", "alias"}


def sv_field_name(f):
    """The member name of field f in the register's packed struct (keywords get _f)."""
    n = f.name.lower()
    return n + "_f" if n in SV_KEYWORDS else n


def reg_id_name(r):
    """The register-id enum constant of register r (XtmRegQCfg)."""
    return "XtmReg" + camel(r.name)


def reg_id_width(m):
    """Bits of the register-id enum (0 is 'no register'): at least 8, so that the blocks can
    carry an id in a fixed 8-bit field of their own types."""
    return max(8, (len(m.regs)).bit_length())


def sv_types(m, ids):
    """Typed packed structs per register and the types of the generated CSR decoder."""
    out = ["", "  // Typed views of the registers: one packed struct per register (fields MSB "
           "first,", "  // unused bits as rsvd<msb>). Assign a 32-bit word to a typed signal to "
           "read fields by name."]
    for r in m.regs:
        if r.counter:
            continue
        tname = f"{r.name.lower()}_t"
        ids.append(tname)
        members, pos = [], 31
        for f in sorted(r.fields, key=lambda f: -f.msb):
            if f.msb < pos:
                members.append(f"    logic [{pos}:{f.msb + 1}] rsvd{pos};" if pos > f.msb + 1
                               else f"    logic rsvd{pos};")
            members.append(f"    logic [{f.width - 1}:0] {sv_field_name(f)};" if f.width > 1
                           else f"    logic {sv_field_name(f)};")
            pos = f.lsb - 1
        if pos >= 0:
            members.append(f"    logic [{pos}:0] rsvd{pos};" if pos > 0 else "    logic rsvd0;")
        out += ["", f"  // {r.name}", "  typedef struct packed {", *members, f"  }} {tname};"]
    w = reg_id_width(m)
    out += ["", "  // Register identifiers of the generated decoder (xtm_csr_dec): one per "
            "register;", "  // arrays and counters have one identifier, the element in "
            "csr_dec_t.idx / .hi."]
    names = ["XtmRegNone = 0"] + [reg_id_name(r) for r in m.regs]
    ids += ["reg_id_e", "csr_dec_t", "XTM_REG_ID_W", "XtmRegNone"] + [reg_id_name(r) for r in m.regs]
    out += [f"  localparam int unsigned XTM_REG_ID_W = {w};",
            f"  typedef enum logic [{w - 1}:0] {{"]
    out += [f"    {n}," for n in names[:-1]] + [f"    {names[-1]}", "  } reg_id_e;"]
    out += ["", "  // One decoded CSR access (xtm_csr_dec).", "  typedef struct packed {",
            "    logic mapped;  // a register word is at the address (aligned)",
            "    logic ro;      // read-only (ro, rc): a write is a RO_WRITE error",
            "    logic legal;   // the write data puts every field in its legal range",
            "    logic cnt;     // a word of a 64-bit counter (_LO or _HI)",
            "    logic hi;      // the _HI word of a 64-bit counter",
            f"    logic [{w - 1}:0] id;  // reg_id_e",
            "    logic [7:0] idx;  // element of an array register",
            "    logic [31:0] wdata;  // write data with the bits outside every field cleared",
            "  } csr_dec_t;"]
    return out


def gen_sv_dec(m):
    """The generated CSR decoder module: address -> register id, flags, legal, masked data."""
    aw = m.block["addr_width"]
    used = set()
    for r in m.regs:
        for f in r.fields:
            for e in (f.min, f.max):
                if e is not None:
                    used |= e.names() - {"k"}
    params = [p for p in m.params if p.name in used]
    o = ["// SPDX-License-Identifier: Apache-2.0", "//", *banner(m, "//"), "//",
         "// xtm_csr_dec: the CSR address decoder of the xtm block. For one access it gives the",
         "// register (xtm_reg_pkg::reg_id_e) and array element, whether the address is mapped",
         "// (aligned, a register word there; unused window words are unmapped), read-only,",
         "// whether a write keeps every field inside its legal range (min/max of the TOML, with",
         "// this instance's parameters) and the write data with unused bits cleared. Purely",
         "// combinational (all zero without valid_i); the block keeps the registers and their",
         "// access semantics.", "",
         "`default_nettype none", "", "module xtm_csr_dec #("]
    o += [f"  parameter int unsigned {p.name} = {p.default}" + ("," if i + 1 < len(params) else "")
          for i, p in enumerate(params)]
    if not params:
        o[-1] = "module xtm_csr_dec ("
    else:
        o += [") ("]
    o += ["  input  wire logic valid_i,", f"  input  wire logic [{aw - 1}:0] addr_i,",
          "  input  wire logic [31:0] wdata_i,", "  output xtm_reg_pkg::csr_dec_t dec_o", ");", "",
          "  always_comb begin : c_dec", "    dec_o = '0;"]

    def word_case(r, wd, rel):
        lines = [f"        {rel}: begin",
                 f"          dec_o.mapped = 1'b1;",
                 f"          dec_o.id = xtm_reg_pkg::{reg_id_name(r)};"]
        if r.swaccess in ("ro", "rc"):
            lines.append("          dec_o.ro = 1'b1;")
        if r.counter:
            lines.append("          dec_o.cnt = 1'b1;")
        if wd.is_hi:
            lines.append("          dec_o.hi = 1'b1;")
        if r.count:
            lines.append(f"          dec_o.idx = 8'd{wd.k};")
        lines.append("        end")
        return lines

    def addr_lit(v):
        return f"{aw}'h{v:0{(aw + 3) // 4}X}"

    o += [f"    if (valid_i && addr_i[1:0] == 2'b00) begin", "      unique case (addr_i)"]
    for r in m.regs:
        if r.window:
            continue
        for wd in r.words():
            o += word_case(r, wd, f"xtm_reg_pkg::XTM_{wd.name}_OFFSET")
    o += ["        default: begin", "          dec_o.mapped = 1'b0;", "        end",
          "      endcase"]
    for w in m.windows:
        regs = [r for r in m.regs if r.window is w]
        o += [f"      if (addr_i >= xtm_reg_pkg::XTM_WIN_{w.name}_BASE &&",
              f"          {{1'b0, addr_i}} < {{1'b0, xtm_reg_pkg::XTM_WIN_{w.name}_BASE}} + "
              f"{{1'b0, xtm_reg_pkg::XTM_WIN_{w.name}_SIZE}}) begin",
              f"        unique case (addr_i - xtm_reg_pkg::XTM_WIN_{w.name}_BASE)"]
        for r in regs:
            for wd in r.words():
                rel = wd.offset - w.base
                o += [("  " + x) if x else x for x in word_case(r, wd, addr_lit(rel))]
        o += ["          default: begin", "            dec_o.mapped = 1'b0;", "          end",
              "        endcase", "      end"]
    o += ["    end"]
    # write data masks and legal ranges, per register
    o += ["    dec_o.legal = 1'b1;", "    if (dec_o.mapped) begin", "    unique case (dec_o.id)"]
    for r in m.regs:
        if r.counter:
            continue
        mask = 0
        for f in r.fields:
            mask |= f.mask << f.lsb
        conds = []
        if r.swaccess == "rw":
            for f in r.fields:
                fv = f"wdata_i[{f.msb}:{f.lsb}]" if f.width > 1 else f"wdata_i[{f.lsb}]"
                if f.min is not None and not (f.min.is_const() and f.min.eval({}) == 0):
                    conds.append(f"32'({fv}) >= 32'({f.min.render()})")
                if f.max is not None and not (f.max.is_const() and f.max.eval({}) == f.mask):
                    conds.append(f"32'({fv}) <= 32'({f.max.render()})")
        o += [f"      xtm_reg_pkg::{reg_id_name(r)}: begin",
              f"        dec_o.wdata = wdata_i & 32'h{mask:08X};"]
        if conds:
            o += [f"        dec_o.legal = " + " &&\n                      ".join(conds) + ";"]
        o += ["      end"]
    o += ["      default: begin", "        dec_o.wdata = '0;", "      end", "    endcase",
          "    end", "    if (!dec_o.mapped) begin", "      dec_o = '0;", "    end", "  end", "",
          "endmodule", ""]
    # the legal-range case sits inside "if (dec_o.mapped)": indent it one level
    a = o.index("    if (dec_o.mapped) begin")
    b = max(i for i in range(a, len(o)) if o[i] == "    endcase")
    o[a + 1:b + 1] = ["  " + x for x in o[a + 1:b + 1]]
    return "\n".join(o)


# ------------------------------------------------------------------------------ C header
def chex(v, digits=0):
    """A C unsigned hex literal."""
    return hx(v, digits) + "u"


def gen_h(m):
    """The C header: address/field macros and the register-table types and prototypes."""
    nwords = len(m.words())
    maxf = max((len(r.fields) for r in m.regs), default=1)
    items = []  # (macro, value, trailing comment), ("//", comment line, "") or ("", "", "")

    def mac(name, val, comment=""):
        items.append((name, val, comment))

    items.append(("//", "Hardware parameters (defaults).", ""))
    for p in m.params:
        mac(f"XTM_PARAM_{p.snake.upper()}", f"{p.default}u", f"{p.name}: {p.desc}")
    items.append(("", "", ""))
    items.append(("//", "Block identification and windows (BASE..BASE+SIZE-1 show the entry "
                  "chosen by the select register).", ""))
    mac("XTM_BLOCK_TYPE_VALUE", chex(m.block["type"], 8))
    mac("XTM_VERSION_VALUE", chex(m.block["version"], 8))
    for w in m.windows:
        mac(f"XTM_WIN_{w.name}_BASE", chex(w.base, 4), f"select {w.select}")
        mac(f"XTM_WIN_{w.name}_SIZE", chex(w.size, 4), f"entries {w.entries.render()}")
    items.append(("", "", ""))
    items.append(("//", "Registers: absolute byte offsets; reset values that depend on parameters "
                  "are for the defaults", ""))
    items.append(("//", "(xtm_regs_build() resolves them for any parameter set).", ""))
    for r in m.regs:
        items += [("", "", ""), ("//", reg_summary(r), "")]
        for wd in r.words():
            mac(f"XTM_{wd.name}_REG_OFFSET", chex(wd.offset, 4))
        if r.count:
            mac(f"XTM_{r.name}_REG_OFFSET_N(i)", f"({chex(r.address, 4)} + (i) * {chex(r.stride)})")
        if r.counter:
            continue
        for wd in r.words():
            mac(f"XTM_{wd.name}_REG_RESVAL", chex(resval(m, r, wd.k), 8))
        for f in r.fields:
            mac(f"XTM_{r.name}_{f.name}_OFFSET", str(f.lsb))
            mac(f"XTM_{r.name}_{f.name}_MASK", chex(f.mask))
            if f.width == 1:
                mac(f"XTM_{r.name}_{f.name}_BIT", str(f.lsb))
            for v, n, _ in f.enums:
                mac(f"XTM_{r.name}_{f.name}_VALUE_{n}", chex(v))

    unique([name for name, _, _ in items if name not in ("//", "")], "C")
    width = max(len(name) for name, _, _ in items) + 1
    lines = []
    for name, val, comment in items:
        if name in ("//", ""):
            lines.append(f"{name} {val}".strip())
        else:
            c = f"  // {comment}" if comment else ""
            lines.append(f"#define {name:<{width}}{val}{c}".rstrip())
    win_enum = ", ".join([f"kXtmWin{camel(w.name)}" for w in m.windows] + ["kXtmWinCount"])
    sw_enum = ", ".join(v[0] for v in SWACCESS.values())
    pfields = "\n".join(f"  uint32_t {p.snake}; /* {p.name} */" for p in m.params)
    return "\n".join([
        "// SPDX-License-Identifier: Apache-2.0", "//", *banner(m, "//"), "",
        "#ifndef XTM_REGS_H_", "#define XTM_REGS_H_", "",
        "#include <stdbool.h>", "#include <stddef.h>", "#include <stdint.h>", "",
        "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
        *lines, "",
        f"#define XTM_REG_COUNT {nwords}u /* 32-bit words described by xtm_regs_build() */",
        f"#define XTM_REG_MAX_FIELDS {maxf}u", "",
        f"typedef enum xtm_swaccess {{ {sw_enum} }} xtm_swaccess_t;", "",
        f"typedef enum xtm_window {{ {win_enum} }} xtm_window_t;", "",
        "typedef struct xtm_reg_params {", pfields, "} xtm_reg_params_t;", "",
        "// A field with values resolved for one parameter set (min 0 and max all-ones unless",
        "// the TOML gives a legal range).",
        "typedef struct xtm_reg_field {",
        "  const char *name;", "  uint8_t lsb;", "  uint8_t width;", "  uint32_t resval;",
        "  uint32_t min;", "  uint32_t max;", "} xtm_reg_field_t;", "",
        "// One 32-bit word of the register map. A 64-bit counter is two descriptors, <NAME>_LO",
        "// (counter64) and <NAME>_HI (counter64 and is_hi); array elements are <NAME>_<i>.",
        "typedef struct xtm_reg_desc {",
        "  const char *name;",
        "  uint16_t offset;         /* absolute byte address */",
        "  int8_t window;           /* -1: global, else an xtm_window_t */",
        "  xtm_swaccess_t swaccess;",
        "  bool counter64;",
        "  bool is_hi;              /* the _HI word of a counter */",
        "  uint32_t resval;",
        "  uint32_t wmask;          /* bits inside some field */",
        "  uint8_t nfields;",
        "  xtm_reg_field_t fields[XTM_REG_MAX_FIELDS];",
        "} xtm_reg_desc_t;", "",
        "// Fill out[0 .. min(cap, XTM_REG_COUNT)-1] with the descriptors resolved for *p, in",
        "// TOML order. Returns XTM_REG_COUNT; a value > cap means the table was truncated.",
        "size_t xtm_regs_build(const xtm_reg_params_t *p, xtm_reg_desc_t *out, size_t cap);", "",
        "// Number of entries the select register of window w can choose (0 for a bad w).",
        "uint32_t xtm_regs_window_entries(const xtm_reg_params_t *p, xtm_window_t w);", "",
        "// The default parameters (the XTM_PARAM_* values).",
        "void xtm_reg_params_default(xtm_reg_params_t *p);", "",
        "#ifdef __cplusplus", "}  // extern \"C\"", "#endif", "",
        "#endif  // XTM_REGS_H_", ""])


# ------------------------------------------------------------------------------ C table
def gen_c(m):
    """The C register table: templates with constants or expression ids, resolved at run time."""
    pmap = {p.name: p.snake for p in m.params}

    def cexpr(e):
        return e.render(lambda n: "k" if n == "k" else f"p->{pmap[n]}", lambda v: f"{v}u")

    exprs = []  # distinct non-constant expressions, id = index + 1

    def val(e, default=0):
        if e is None:
            return f"XTM_CONST({default}u)" if default < 65536 else f"XTM_CONST({chex(default)})"
        if e.is_const():
            return val(None, e.eval({}))
        text = cexpr(e)
        if text not in exprs:
            exprs.append(text)
        return f"XTM_EXPR({exprs.index(text) + 1})"

    body, regs_tbl, emitted = [], [], set()
    for r in m.regs:
        arr = "kFieldsCounter" if r.counter else f"kFields{camel(r.name)}"
        if arr not in emitted:  # all counters share one VALUE field list
            emitted.add(arr)
            body.append(f"static const xtm_field_tmpl_t {arr}[] = {{")
            for f in r.fields:
                body.append(f'  {{ "{f.name}", {f.lsb}u, {f.width}u, {val(f.resval)}, '
                            f"{val(f.min)}, {val(f.max, f.mask)} }},")
            body.append("};")
        win = f"kXtmWin{camel(r.window.name)}" if r.window else "-1"
        for wd in r.words():
            regs_tbl.append(f'  {{ "{wd.name}", {chex(wd.offset, 4)}, {win}, '
                            f"{SWACCESS[r.swaccess][0]}, {str(r.counter).lower()}, "
                            f"{str(wd.is_hi).lower()}, {wd.k}u, {len(r.fields)}u, {arr} }},")
    cases = [f"    case {i + 1}: return {t};" for i, t in enumerate(exprs)]
    wcases = [f"    case kXtmWin{camel(w.name)}: return {cexpr(w.entries)};" for w in m.windows]
    defaults = [f"  p->{p.snake} = XTM_PARAM_{p.snake.upper()};" for p in m.params]
    return "\n".join([
        "// SPDX-License-Identifier: Apache-2.0", "//", *banner(m, "//"), "",
        '#include "xtm_regs.h"', "", "#include <string.h>", "",
        "// A value: a constant, or expression `expr` of xtm_expr() evaluated at run time.",
        "typedef struct xtm_val {", "  uint32_t value;", "  uint8_t expr;", "} xtm_val_t;", "",
        "#define XTM_CONST(v) { (v), 0u }", "#define XTM_EXPR(id) { 0u, (id) }", "",
        "typedef struct xtm_field_tmpl {", "  const char *name;", "  uint8_t lsb;",
        "  uint8_t width;", "  xtm_val_t resval;", "  xtm_val_t min;", "  xtm_val_t max;",
        "} xtm_field_tmpl_t;", "",
        "typedef struct xtm_reg_tmpl {", "  const char *name;", "  uint16_t offset;",
        "  int8_t window;", "  xtm_swaccess_t swaccess;", "  bool counter64;", "  bool is_hi;",
        "  uint8_t k; /* array index */", "  uint8_t nfields;",
        "  const xtm_field_tmpl_t *fields;", "} xtm_reg_tmpl_t;", "",
        "// The parameter-dependent expressions of the TOML, k being the array index.",
        "static uint32_t xtm_expr(const xtm_reg_params_t *p, uint8_t id, uint32_t k) {",
        "  (void)p;", "  (void)k;", "  switch (id) {", *cases, "    default: return 0u;",
        "  }", "}", "",
        "static uint32_t xtm_value(const xtm_reg_params_t *p, xtm_val_t v, uint32_t k) {",
        "  return v.expr ? xtm_expr(p, v.expr, k) : v.value;", "}", "",
        *body, "",
        "static const xtm_reg_tmpl_t kRegs[XTM_REG_COUNT] = {", *regs_tbl, "};", "",
        "void xtm_reg_params_default(xtm_reg_params_t *p) {", *defaults, "}", "",
        "uint32_t xtm_regs_window_entries(const xtm_reg_params_t *p, xtm_window_t w) {",
        "  (void)p;", "  switch (w) {", *wcases, "    case kXtmWinCount:",
        "    default: return 0u;", "  }", "}", "",
        "size_t xtm_regs_build(const xtm_reg_params_t *p, xtm_reg_desc_t *out, size_t cap) {",
        "  for (size_t i = 0; i < XTM_REG_COUNT && i < cap; ++i) {",
        "    const xtm_reg_tmpl_t *t = &kRegs[i];",
        "    xtm_reg_desc_t *d = &out[i];",
        "    memset(d, 0, sizeof *d);",
        "    d->name = t->name;",
        "    d->offset = t->offset;",
        "    d->window = t->window;",
        "    d->swaccess = t->swaccess;",
        "    d->counter64 = t->counter64;",
        "    d->is_hi = t->is_hi;",
        "    d->nfields = t->nfields;",
        "    for (uint8_t f = 0; f < t->nfields; ++f) {",
        "      const xtm_field_tmpl_t *ft = &t->fields[f];",
        "      const uint32_t mask = ft->width >= 32u ? 0xFFFFFFFFu : (1u << ft->width) - 1u;",
        "      const uint32_t min = xtm_value(p, ft->min, t->k);",
        "      const uint32_t max = xtm_value(p, ft->max, t->k);",
        "      xtm_reg_field_t *df = &d->fields[f];",
        "      df->name = ft->name;",
        "      df->lsb = ft->lsb;",
        "      df->width = ft->width;",
        "      df->resval = xtm_value(p, ft->resval, t->k) & mask; /* truncated like the RTL */",
        "      df->min = min > mask ? mask : min;",
        "      df->max = max > mask ? mask : max;",
        "      d->resval |= df->resval << ft->lsb;",
        "      d->wmask |= mask << ft->lsb;",
        "    }", "  }", "  return XTM_REG_COUNT;", "}", ""])


# ------------------------------------------------------------------------------ edge table
def gen_edges(m):
    """The fields with a declared legal range, for the csr_edges co-simulation test.

    One row per (word, field) whose TOML entry gives min and/or max; the values themselves
    are resolved per parameter set by xtm_regs_build() (the row names the descriptor index
    in its output, TOML word order), so a parameter-dependent maximum such as NumPorts-1
    follows the configuration the test runs in.
    """
    rows = []
    for i, (r, wd) in enumerate(m.words()):
        for j, f in enumerate(r.fields):
            if f.min is None and f.max is None:
                continue
            rng = f"{'' if f.min is None else f.min.render()}..{'' if f.max is None else f.max.render()}"
            rows.append(f"  {{ {i}u, {j}u, {str(f.min is not None).lower()}, "
                        f"{str(f.max is not None).lower()} }},  /* {wd.name}.{f.name} {rng} */")
    wrows = [f"  {{ {i}u, {j}u, {str(k == 'carry').lower()}, \"{p}\" }},"
             for i, j, k, p, _ in cov_widths(m)]
    if not wrows:
        wrows = ["  { 0u, 0u, false, \"\" },  /* none: a one-row placeholder (C has no empty array) */"]
    return "\n".join([
        "// SPDX-License-Identifier: Apache-2.0", "//", *banner(m, "//"), "",
        "#ifndef XTM_CSR_EDGES_H_", "#define XTM_CSR_EDGES_H_", "",
        "#include <stdbool.h>", "#include <stdint.h>", "",
        "// Every field with a legal range (min and/or max in the TOML). The test csr_edges",
        "// writes min-1 (when min > 0), min, max and max+1 (when it fits the field) of each and",
        "// checks the read-back value, ERR_STATUS.ILLEGAL and ERR_ADDR (docs/cosim.md).",
        "typedef struct xtm_csr_edge {",
        "  uint16_t reg;   /* index into the xtm_regs_build() table (TOML word order) */",
        "  uint8_t field;  /* index into that descriptor's fields[] */",
        "  bool has_min;   /* the TOML gives min */",
        "  bool has_max;   /* the TOML gives max */",
        "} xtm_csr_edge_t;", "",
        f"#define XTM_CSR_EDGE_COUNT {len(rows)}u", "",
        "static const xtm_csr_edge_t kXtmCsrEdges[XTM_CSR_EDGE_COUNT] = {", *rows, "};", "",
        "// Every register the TOML marks with cov (issue 21): a functional coverage point, hit",
        "// when some element (every window entry) of the field reads within one of its maximum",
        "// (top) or a 64-bit counter reads 2^32 or more (carry). The point names are those of",
        "// the generated xtm_fcov_points.tsv.",
        "typedef struct xtm_cov_width {",
        "  uint16_t reg;       /* index into the xtm_regs_build() table (the _LO word of a counter) */",
        "  uint8_t field;      /* index into that descriptor's fields[] */",
        "  bool carry;         /* a 64-bit counter past 2^32; else the field within one of its top */",
        "  const char *point;  /* the coverage point */",
        "} xtm_cov_width_t;", "",
        f"#define XTM_COV_WIDTH_COUNT {len(cov_widths(m))}u", "",
        "static const xtm_cov_width_t kXtmCovWidths[] = {", *wrows, "};", "",
        "#endif  // XTM_CSR_EDGES_H_", ""])


def cov_prefix(m):
    """The coverage point prefix: none for xtm (the nightly's historic names), else <blk>_."""
    return "" if m.block["name"] == "xtm" else m.block["name"] + "_"


def cov_widths(m):
    """(word index, field index, kind, point, what) of every cov-marked register."""
    out = []
    for i, (r, wd) in enumerate(m.words()):
        if not r.cov or wd.is_hi:
            continue
        for j, f in enumerate(r.fields):
            if r.cov == "carry":
                out.append((i, j, r.cov, f"{cov_prefix(m)}width_{r.name}_carry",
                            f"{r.name} past 2^32 (the carry into {r.name}_HI)"))
            else:
                out.append((i, j, r.cov, f"{cov_prefix(m)}width_{r.name}_{f.name}_top",
                            f"{r.name}.{f.name} within one of its {f.width}-bit top "
                            f"(>= 2^{f.width} - 2)"))
    return out


def gen_fcov(m):
    """The generated coverage points: one per legal-range field, one per cov register."""
    b = m.block["name"]
    rows = []
    for i, (r, wd) in enumerate(m.words()):
        for f in r.fields:
            if f.min is None and f.max is None:
                continue
            rng = f"{'' if f.min is None else f.min.render()}..{'' if f.max is None else f.max.render()}"
            rows.append(f"{cov_prefix(m)}edge_{wd.name}_{f.name}\t{b} {wd.name}.{f.name} written "
                        f"at every edge of {rng}")
    for _, _, _, point, what in cov_widths(m):
        rows.append(f"{point}\t{b}: {what}")
    return "\n".join([*banner(m, "#"),
                      "# Functional coverage points derived from the TOML (issue 21), read by",
                      "# tools/regress with tests/regress/fcov_points.tsv: point<TAB>what.",
                      *rows, ""])


# ------------------------------------------------------------------------------ Markdown
def md(s):
    """Escape text for a Markdown table cell / paragraph."""
    return str(s).replace("|", "\\|").replace("*", "\\*")


def first_sentence(s):
    """The first sentence of a description, for overview tables."""
    m = re.match(r"(.*?\.)(\s|$)", s)
    return m.group(1) if m else s


def value_doc(e, dflt):
    """A value for the documentation: literal, or `expression` (default value)."""
    if e.is_const():
        v = e.eval({})
        return hx(v) if v > 9 else str(v)
    return f"`{e.render()}`" + ("" if e.names() == {"k"} else f" ({dflt})")


def anchor(heading):
    """GitHub-style anchor of a Markdown heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")


def reg_heading(r):
    """Heading text of a register section."""
    if r.counter:
        return f"0x{r.address:04X} {r.name}_LO / {r.name}_HI"
    if r.count:
        return f"0x{r.address:04X} {r.name}_0 .. {r.name}_{r.count - 1}"
    return f"0x{r.address:04X} {r.name}"


def gen_md(m):
    """The Markdown register reference."""
    b, env = m.block, m.env()
    t = b["type"].to_bytes(4, "big")
    tname = f' ("{t.decode()}")' if all(32 < c < 127 for c in t) else ""
    o = ["<!-- SPDX-License-Identifier: Apache-2.0 -->",
         "<!--", *banner(m, "    "), "-->", "",
         f"# {b['name']} register reference", "", md(b.get("desc", "")), "",
         "| Item | Value |", "| --- | --- |",
         f"| Block type (BLOCK_TYPE) | `0x{b['type']:08X}`{tname} |",
         f"| Version (VERSION) | `0x{b['version']:08X}` |",
         f"| Address space | {b['addr_width']}-bit byte addresses, 32-bit registers "
         f"(word aligned) |", "",
         "## Parameters", "",
         "Expressions below (reset values, legal ranges, window entries) use these names; the "
         "value in parentheses is the one for the defaults.", "",
         "| Name | Default | C macro | Description |", "| --- | --- | --- | --- |"]
    o += [f"| `{p.name}` | {p.default} | `{m.block['name'].upper()}_PARAM_{p.snake.upper()}` | {md(p.desc)} |"
          for p in m.params]
    o += ["", "## Access types", "", "| swaccess | Meaning |", "| --- | --- |"]
    o += [f"| {k} | {md(v[1])} |" for k, v in SWACCESS.items()]
    o += ["", "Writes take effect at the end of the cycle. Bits outside every field are ignored "
          "on write and read as 0. A field's legal range (min..max) applies to writes: a write "
          "that puts any field outside its range is ignored as a whole and sets "
          "ERR_STATUS.ILLEGAL. Accesses to misaligned addresses or to words no register "
          "occupies (unused window offsets included) are unmapped: reads return 0, writes are "
          "ignored, ERR_STATUS.UNMAPPED is set. ERR_ADDR holds the address of the access that "
          "set an ERR_STATUS bit.", "",
          "### Windowed access", "",
          "Per-entry registers (per VOQ, port, priority group, profile) share one address "
          "window each. To access entry *i*, first write *i* to the window's select register "
          "(`*_SEL`), then read or write the registers in the window: from the next cycle on "
          "they show entry *i*, until the select register is written again. A select value "
          "beyond the entry count is illegal (the write is ignored and ERR_STATUS.ILLEGAL "
          "set).", "",
          "### 64-bit counters", "",
          "A counter occupies two words, `<NAME>_LO` at its offset and `<NAME>_HI` at offset + 4. "
          "Counters reset to 0, wrap modulo 2^64 and are read-only (a write is a RO_WRITE "
          "error); CTRL.CLR_CNT clears them all. Read `_LO` first: the read returns bits 31:0 "
          "and snapshots bits 63:32 of the same counter value into the CNT_HI shadow; then read "
          "`_HI`, which returns the upper half from that shadow, so the two halves are "
          "consistent even while the counter runs. Every `_HI` word (and CNT_HI itself) reads "
          "the same shadow, so read `_LO` then `_HI` of the same counter with no other `_LO` "
          "read in between.", "",
          "## Address map", "",
          "| Address | Name | Access | Description |", "| --- | --- | --- | --- |"]
    rows = [(r.address, f"[{r.name}](#{anchor(reg_heading(r))})"
             + (f" ({r.count} x, stride {r.stride})" if r.count else "")
             + (" (64-bit counter)" if r.counter else ""), r.swaccess, first_sentence(r.desc))
            for r in m.regs if not r.window]
    rows += [(w.base, f"[{w.name} window](#window-{w.name.lower()})", "",
              f"0x{w.base:04X}-0x{w.base + w.size - 1:04X}, selected by {w.select}")
             for w in m.windows]
    o += [f"| 0x{a:04X} | {n} | {acc} | {md(d)} |" for a, n, acc, d in sorted(rows)]
    for w in m.windows:
        o += ["", f"### Window {w.name}", "", md(w.desc), "",
              f"Addresses 0x{w.base:04X}-0x{w.base + w.size - 1:04X} (size 0x{w.size:X}); "
              f"select register {w.select}; entries `{w.entries.render()}` "
              f"({w.entries.eval(env)} with the default parameters).", "",
              "| Window offset | Address | Name | Access | Description |",
              "| --- | --- | --- | --- | --- |"]
        o += [f"| 0x{r.offset:02X} | 0x{r.address:04X} | [{r.name}](#{anchor(reg_heading(r))})"
              + (f" ({r.count} x)" if r.count else "") + (" (64-bit counter)" if r.counter else "")
              + f" | {r.swaccess} | {md(first_sentence(r.desc))} |"
              for r in m.regs if r.window is w]
    for title, group in [("Global registers", None)] + [(f"{w.name} window registers", w)
                                                         for w in m.windows]:
        o += ["", f"## {title}"]
        for r in (r for r in m.regs if r.window is group):
            o += ["", f"### {reg_heading(r)}", ""] + reg_doc(m, r)
    return "\n".join(o) + "\n"


def reg_doc(m, r):
    """The body of one register section."""
    where = (f"window {r.window.name} offset 0x{r.offset:02X} (select {r.window.select})"
             if r.window else "global")
    o = [md(r.desc), "", f"- Address: 0x{r.address:04X}, {where}", f"- Access: {r.swaccess}"
         + (f", hardware {r.hwaccess}" if r.hwaccess != "none" else "")]
    if r.counter:
        lo, hi = r.words()
        return o + ["- Reset: 0", "",
                    "| Word | Address | Contents |", "| --- | --- | --- |",
                    f"| {lo.name} | 0x{lo.offset:04X} | Counter bits 31:0; the read snapshots "
                    "bits 63:32 into CNT_HI. |",
                    f"| {hi.name} | 0x{hi.offset:04X} | Counter bits 63:32 from the CNT_HI "
                    "snapshot of the last `_LO` read. |"]
    if r.count:
        o.append(f"- Array: {r.name}_k at 0x{r.address:04X} + {r.stride}\\*k, k = 0..{r.count - 1}")
        resvals = [resval(m, r, w.k) for w in r.words()]
        if len(set(resvals)) == 1:
            o.append(f"- Reset: 0x{resvals[0]:08X} (every element)")
        else:
            o += ["", "| Element | Address | Reset |", "| --- | --- | --- |"]
            o += [f"| {w.name} | 0x{w.offset:04X} | 0x{v:08X} |"
                  for w, v in zip(r.words(), resvals)]
    else:
        note = " with the default parameters" if param_dependent(r) else ""
        o.append(f"- Reset: 0x{resval(m, r):08X}{note}")
    o += ["", "| Bits | Field | Access | Reset | Legal range | Description |",
          "| --- | --- | --- | --- | --- | --- |"]
    for f in sorted(r.fields, key=lambda f: -f.lsb):
        bits = f"{f.msb}:{f.lsb}" if f.width > 1 else str(f.lsb)
        rv = value_doc(f.resval, f.resval.eval(m.env()))
        rng = ""
        if f.min or f.max:
            lo = value_doc(f.min, f.min.eval(m.env())) if f.min else "0"
            hi = value_doc(f.max, f.max.eval(m.env())) if f.max else hx(f.mask)
            rng = f"{lo}..{hi}"
        desc = md(f.desc)
        if f.enums:
            desc += "".join(f"<br>{v} = {n}: {md(d)}" for v, n, d in f.enums)
        o.append(f"| {bits} | {f.name} | {r.swaccess} | {rv} | {rng} | {desc.strip()} |")
    return o


# ------------------------------------------------------------------------------ driver
def generate(m, sv_dir, c_dir, doc):
    """Map of output path -> content."""
    sv_file, h_file, c_file, dec_file, edges_file, fcov_file = out_names(m)
    return {os.path.join(sv_dir, sv_file): brand(m, gen_sv(m)),
            os.path.join(c_dir, fcov_file): gen_fcov(m),
            os.path.join(c_dir, edges_file): brand(m, gen_edges(m)),
            os.path.join(sv_dir, dec_file): brand(m, gen_sv_dec(m)),
            os.path.join(c_dir, h_file): brand(m, gen_h(m)),
            os.path.join(c_dir, c_file): brand(m, gen_c(m)), doc: gen_md(m)}


def check(files):
    """Generate into a temporary directory and diff against the files on disk; exit status."""
    drift = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (path, text) in enumerate(files.items()):
            fresh = os.path.join(tmp, f"{i}_{os.path.basename(path)}")
            with open(fresh, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            with open(fresh, "rb") as f:
                new = f.read()
            try:
                with open(path, "rb") as f:
                    old = f.read()
            except OSError:
                old = None
            if old == new:
                continue
            drift += 1
            if old is None:
                print(f"regs-check: {path} is missing")
                continue
            sys.stdout.writelines(difflib.unified_diff(
                old.decode("utf-8", "replace").splitlines(True), new.decode().splitlines(True),
                f"a/{path}", f"b/{path} (generated)"))
    if drift:
        print(f"regs-check: {drift} of {len(files)} files out of date; run `{REGEN}`")
        return 1
    print(f"regs-check: {len(files)} files up to date")
    return 0


def main(argv=None):
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("toml", help="register description (rtl/xtm/data/xtm_regs.toml)")
    ap.add_argument("--sv-out", required=True, metavar="DIR", help=f"directory for {SV_FILE}")
    ap.add_argument("--c-out", required=True, metavar="DIR",
                    help=f"directory for {H_FILE} and {C_FILE}")
    ap.add_argument("--doc-out", required=True, metavar="FILE", help="Markdown reference file")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 with a diff if the outputs are out of date")
    a = ap.parse_args(argv)
    m = load(a.toml)
    rel = os.path.relpath(os.path.abspath(a.toml), REPO_ROOT)
    m.src_path = os.path.basename(a.toml) if rel.startswith("..") else rel.replace(os.sep, "/")
    files = generate(m, a.sv_out, a.c_out, a.doc_out)
    if a.check:
        return check(files)
    for path, text in files.items():
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
