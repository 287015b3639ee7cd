#!/usr/bin/env python3
"""abi-check: prove that our UAPI perf_event.h has mainline's ABI.

usage: scripts/abi-check.py [options] [MAINLINE_HEADER OUR_HEADER]

Defaults: build/pristine/include/uapi/linux/perf_event.h (mainline) and
linux/include/uapi/linux/perf_event.h (ours), relative to the repository.

What is compared, for each header, on each target:
  * names: every macro, enum constant, enum/struct/union tag, member
    (anonymous unions and structs included), typedef and declaration the
    header defines; a name only one header has is a difference;
  * macros (from gcc -E -dD): object- or function-like; the value, C type,
    size and sign of each constant expression (function-like ones evaluated
    with every argument pair they are meant for, e.g. PERF_MEM_S(LVL, HIT));
    the expansion of the others;
  * enum constants: value, C type, size, sign, and which enum holds them;
    enum tags: size, alignment, compatible type, sign;
  * structs and unions: kind, size, alignment, member order (with the
    anonymous containers), and per member the declared type, offset, size,
    C type, array length, and for bitfields the bit offset and width,
    found by setting the field to all ones in a zeroed object;
  * compiler diagnostics: with -std=c89 -pedantic -Wall -Wextra, with
    __KERNEL__, and as C++, ours may give no message mainline does not;
  * comments: no comment line of ours of 4+ words equals one of mainline's
    (case and white space ignored).

Targets: x86_64 (the program is run; a second, static extraction from the
object file must agree with it), i386 (gcc -m32) when it compiles, x86_64
with a shim asm/byteorder.h that selects __BIG_ENDIAN_BITFIELD, and, when
aarch64-linux-gnu-gcc exists, arm64 and big-endian arm64.  Targets that
cannot be run here (no qemu-aarch64, no binfmt) are measured without
running: the values are placed in named sections of an object file, which
this script reads from the ELF file itself.

Options: --targets x86_64,arm64,... picks targets (and skips the
diagnostics and comment checks); --dump DIR writes every fact measured;
--keep DIR keeps the generated programs; --self-test alters copies of
mainline's header, in ways that do and do not change the ABI, and checks
that exactly the former are reported.

Names mainline added after 6.12 (config4, the deferred callchain bits and
record, mem_region, ...) are listed in NEWER_FACTS with the values mainline's
newest header gives them.  By default a difference from 6.12 is allowed only
where it comes from one of those names, and each of those values is checked
in our header (bit positions on little-endian targets only); --strict counts
them as differences (6.12 exactly), --newest checks only those values.

Exit status: 0 no difference, 1 differences, 2 the check could not run.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF_MAINLINE = os.path.join(ROOT, "build/pristine/include/uapi/linux/perf_event.h")
DEF_OURS = os.path.join(ROOT, "linux/include/uapi/linux/perf_event.h")
CROSS = "aarch64-linux-gnu-gcc"
CROSS_SYSROOT = "/usr/aarch64-linux-gnu"


class CheckError(Exception):
    pass


def run(cmd, cwd=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if check and p.returncode != 0:
        raise CheckError("command failed: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p


# ---------------------------------------------------------------------------
# C tokens and a parser for the declarations a UAPI header makes
# ---------------------------------------------------------------------------

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<str>"(?:\\.|[^"\\])*")
  | (?P<chr>'(?:\\.|[^'\\])*')
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|[][(){};:,.?~!<>=+*/%&|^#-])
""", re.X)


def tokenize(text):
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise CheckError("cannot tokenize at: %r" % text[pos:pos + 40])
        pos = m.end()
        if m.lastgroup != "ws":
            out.append(m.group())
    return out


TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double",
              "signed", "unsigned", "_Bool", "const", "volatile", "restrict",
              "__signed__", "__const", "__volatile__", "__restrict",
              "__extension__", "static", "extern", "inline", "__inline__",
              "register", "_Complex"}


class Agg:
    def __init__(self, kind, tag):
        self.kind = kind          # "struct" or "union"
        self.tag = tag            # None when anonymous
        self.members = []         # Member or Agg (anonymous member)


class Member:
    def __init__(self, name, ctype, dims, width):
        self.name = name          # None for an unnamed bitfield
        self.ctype = ctype        # declared type, as text
        self.dims = dims          # array bounds, as text ("" for [])
        self.width = width        # bitfield width as text, or None


class Inventory:
    """Everything a header declares, as the parser sees it."""

    def __init__(self):
        self.enums = []           # (tag or None, [(name, value text)])
        self.aggs = {}            # "struct TAG" -> Agg
        self.agg_order = []
        self.typedefs = {}        # name -> type text
        self.decls = {}           # other declared names -> type text
        self.macros = {}          # name -> (params or None, body)


class Parser:
    def __init__(self, toks, inv):
        self.t = toks
        self.i = 0
        self.inv = inv

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def next(self):
        tok = self.peek()
        if tok is None:
            raise CheckError("parser: unexpected end of header")
        self.i += 1
        return tok

    def expect(self, tok):
        got = self.next()
        if got != tok:
            raise CheckError("parser: expected %r, got %r near %s" %
                             (tok, got, " ".join(self.t[max(0, self.i - 12):self.i + 4])))

    def skip_attribute(self):
        self.next()
        if self.peek() == "(":
            self.balanced("(", ")")

    def balanced(self, open_, close):
        depth = 0
        out = []
        while True:
            tok = self.next()
            out.append(tok)
            if tok == open_:
                depth += 1
            elif tok == close:
                depth -= 1
                if depth == 0:
                    return out

    def expr_until(self, stops):
        """Tokens of an expression, up to a stop token at nesting depth 0."""
        out = []
        depth = 0
        while True:
            tok = self.peek()
            if tok is None:
                raise CheckError("parser: unterminated expression")
            if depth == 0 and tok in stops:
                return " ".join(out)
            if tok in "([{":
                depth += 1
            elif tok in ")]}":
                depth -= 1
            out.append(self.next())

    def parse_file(self):
        while self.peek() is not None:
            if self.peek() == ";":
                self.next()
                continue
            self.declaration(top=True, container=None)

    def specifiers(self):
        """Declaration specifiers: (type text, Agg defined inline or None, typedef?)."""
        words = []
        agg = None
        is_typedef = False
        have_type = False
        while True:
            tok = self.peek()
            if tok in ("__attribute__", "__attribute"):
                self.skip_attribute()
            elif tok == "typedef":
                self.next()
                is_typedef = True
            elif tok in ("struct", "union"):
                agg = self.aggregate()
                words.append("%s %s" % (agg.kind, agg.tag) if agg.tag else "%s <anonymous>" % agg.kind)
                have_type = True
            elif tok == "enum":
                words.append(self.enum())
                have_type = True
            elif tok in TYPE_WORDS:
                self.next()
                if tok not in ("__extension__",):
                    words.append(tok)
                if tok not in ("const", "volatile", "restrict", "static", "extern",
                               "inline", "__inline__", "register", "__const",
                               "__volatile__", "__restrict"):
                    have_type = True
            elif tok is not None and re.match(r"[A-Za-z_]\w*$", tok) and not have_type:
                self.next()
                words.append(tok)      # a typedef name such as __u64
                have_type = True
            else:
                break
        if not words:
            raise CheckError("parser: no type near %s" % " ".join(self.t[self.i:self.i + 8]))
        return " ".join(words), agg, is_typedef

    def aggregate(self):
        kind = self.next()
        tag = None
        while self.peek() in ("__attribute__", "__attribute"):
            self.skip_attribute()
        if self.peek() not in ("{",):
            tag = self.next()
        agg = Agg(kind, tag)
        if self.peek() != "{":
            return agg                 # a reference, not a definition
        self.next()
        while self.peek() != "}":
            if self.peek() == ";":
                self.next()
                continue
            self.declaration(top=False, container=agg)
        self.next()
        while self.peek() in ("__attribute__", "__attribute"):
            self.skip_attribute()
        if tag:
            key = "%s %s" % (kind, tag)
            if key in self.inv.aggs:
                raise CheckError("parser: %s defined twice" % key)
            self.inv.aggs[key] = agg
            self.inv.agg_order.append(key)
        return agg

    def enum(self):
        self.next()
        tag = None
        if self.peek() != "{":
            tag = self.next()
        if self.peek() != "{":
            return "enum %s" % tag
        self.next()
        consts = []
        while self.peek() != "}":
            name = self.next()
            value = None
            if self.peek() == "=":
                self.next()
                value = self.expr_until((",", "}"))
            consts.append((name, value))
            if self.peek() == ",":
                self.next()
        self.next()
        self.inv.enums.append((tag, consts))
        return "enum %s" % tag if tag else "enum <anonymous>"

    def declarator(self):
        """Pointer stars, a name, array bounds, a bitfield width."""
        stars = ""
        while self.peek() in ("*", "const", "volatile", "restrict", "__restrict"):
            tok = self.next()
            stars += "*" if tok == "*" else " " + tok + " "
        name = None
        if self.peek() not in (":", ",", ";"):
            name = self.next()
            if not re.match(r"[A-Za-z_]\w*$", name):
                raise CheckError("parser: unsupported declarator %r" % name)
        dims = []
        func = None
        while self.peek() in ("[", "("):
            if self.peek() == "[":
                self.next()
                dims.append(self.expr_until(("]",)))
                self.next()
            else:
                func = " ".join(self.balanced("(", ")"))
        width = None
        if self.peek() == ":":
            self.next()
            width = self.expr_until((",", ";"))
        while self.peek() in ("__attribute__", "__attribute"):
            self.skip_attribute()
        if self.peek() == "=":
            self.next()
            self.expr_until((",", ";"))
        return stars.strip(), name, dims, width, func

    def declaration(self, top, container):
        ctype, agg, is_typedef = self.specifiers()
        if self.peek() == ";":
            self.next()
            if container is not None and agg is not None and agg.tag is None:
                container.members.append(agg)       # anonymous struct/union
            return
        while True:
            stars, name, dims, width, func = self.declarator()
            full = (ctype + " " + stars).strip()
            if func is not None:
                full += " " + func
            if is_typedef:
                self.inv.typedefs[name] = full + "".join("[%s]" % d for d in dims)
            elif container is not None:
                container.members.append(Member(name, full, dims, width))
            else:
                self.inv.decls[name] = full
            if self.peek() == ",":
                self.next()
                continue
            self.expect(";")
            return


def header_lines(pre_text, header):
    """Keep the lines gcc -E attributes to the header itself."""
    want = os.path.realpath(header)
    keep = []
    cur = None
    for line in pre_text.splitlines():
        m = re.match(r'#\s*(\d+)\s+"([^"]*)"', line)
        if m:
            cur = os.path.realpath(m.group(2)) if m.group(2) and not m.group(2).startswith("<") else m.group(2)
            continue
        if line.startswith("#"):
            # a #define/#undef line from -dD
            if cur == want:
                keep.append(line)
            continue
        if cur == want:
            keep.append(line)
    return keep


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------

class Target:
    def __init__(self, name, cc, flags, runner=None, incdirs=()):
        self.name = name
        self.cc = cc
        self.flags = list(flags)
        self.runner = runner      # None: do not run; [] run directly; [qemu,...]
        self.incdirs = list(incdirs)

    def cmd(self, *extra):
        return [self.cc] + self.flags + ["-I" + d for d in self.incdirs] + list(extra)


def qemu_aarch64():
    for q in ("qemu-aarch64", "qemu-aarch64-static"):
        path = shutil.which(q)
        if path:
            return [path, "-L", CROSS_SYSROOT]
    for entry in ("qemu-aarch64", "qemu-aarch64-static"):
        p = "/proc/sys/fs/binfmt_misc/" + entry
        try:
            with open(p) as f:
                if f.readline().strip() == "enabled":
                    return []
        except OSError:
            pass
    return None


def make_targets(work, wanted):
    targets = []
    targets.append(Target("x86_64", "gcc", [], runner=[]))
    # i386: the x86 uapi asm/ headers serve both word sizes.
    multiarch = "/usr/include/x86_64-linux-gnu"
    t = Target("i386", "gcc", ["-m32"], runner=None,
               incdirs=[multiarch] if os.path.isdir(multiarch) else [])
    targets.append(t)
    shim = os.path.join(work, "be-shim")
    os.makedirs(os.path.join(shim, "asm"), exist_ok=True)
    with open(os.path.join(shim, "asm", "byteorder.h"), "w") as f:
        f.write("/* abi-check: forces the big-endian bitfield order */\n"
                "#ifndef ABI_CHECK_BE_SHIM\n#define ABI_CHECK_BE_SHIM\n"
                "#include <linux/byteorder/big_endian.h>\n#endif\n")
    targets.append(Target("x86_64-be-shim", "gcc", [], runner=[], incdirs=[shim]))
    if shutil.which(CROSS):
        q = qemu_aarch64()
        targets.append(Target("arm64", CROSS, [] if q is None or q else ["-static"], runner=q))
        targets.append(Target("arm64-be", CROSS, ["-mbig-endian"], runner=None))
    if wanted:
        names = set(wanted.split(","))
        targets = [t for t in targets if t.name in names]
    return targets


# ---------------------------------------------------------------------------
# Inventory of a header on a target
# ---------------------------------------------------------------------------

def inventory(header, target, work, tag):
    src = os.path.join(work, "%s-inv-%s.c" % (tag, target.name))
    with open(src, "w") as f:
        f.write('#include "%s"\n' % os.path.realpath(header))
    pre = run(target.cmd("-std=gnu11", "-E", "-dD", src)).stdout
    lines = header_lines(pre, header)
    inv = Inventory()
    code = []
    for line in lines:
        m = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?\s*(.*)$", line)
        if m:
            params = None
            if m.group(2) is not None:
                params = [p.strip() for p in m.group(3).split(",") if p.strip()]
            inv.macros[m.group(1)] = (params, m.group(4).strip())
            continue
        m = re.match(r"#\s*undef\s+([A-Za-z_]\w*)", line)
        if m:
            inv.macros.pop(m.group(1), None)
            continue
        if line.startswith("#"):
            continue
        code.append(line)
    Parser(tokenize("\n".join(code)), inv).parse_file()
    return inv


def walk_members(agg, chain=()):
    """Yield (member, chain of anonymous containers) in declaration order."""
    for m in agg.members:
        if isinstance(m, Agg):
            yield from walk_members(m, chain + (m.kind,))
        else:
            yield m, chain


def signature(agg):
    parts = []
    for m in agg.members:
        if isinstance(m, Agg):
            parts.append("%s{%s}" % (m.kind, signature(m)))
        elif m.name is None:
            parts.append(":%s" % m.width)
        else:
            parts.append(m.name)
    return " ".join(parts)


def enum_groups(inv):
    """constant -> the enum that holds it, named by tag or by its members."""
    out = {}
    for tag, consts in inv.enums:
        label = "enum " + tag if tag else "anonymous enum {%s}" % ", ".join(sorted(c for c, _ in consts))
        for c, _ in consts:
            out[c] = label
    return out


def names_of(inv):
    names = set()
    for m in inv.macros:
        names.add("macro " + m)
    for tag, consts in inv.enums:
        if tag:
            names.add("enum " + tag)
        for c, _ in consts:
            names.add("enum constant " + c)
    for key, agg in inv.aggs.items():
        names.add(key)
        for m, _chain in walk_members(agg):
            if m.name:
                names.add("member %s.%s" % (key, m.name))
    for t in inv.typedefs:
        names.add("typedef " + t)
    for d in inv.decls:
        names.add("declaration " + d)
    return names


# ---------------------------------------------------------------------------
# Function-like macros: the arguments each is evaluated with
# ---------------------------------------------------------------------------

def perf_mem_s_args(macro_names):
    """PERF_MEM_S(a, s) for every a with a PERF_MEM_a_SHIFT and every s
    such that PERF_MEM_a_s is a value of that field."""
    args = []
    fields = sorted(n[len("PERF_MEM_"):-len("_SHIFT")] for n in macro_names
                    if n.startswith("PERF_MEM_") and n.endswith("_SHIFT"))
    for a in fields:
        prefix = "PERF_MEM_%s_" % a
        for n in sorted(macro_names):
            if n.startswith(prefix) and n != prefix + "SHIFT":
                args.append((a, n[len(prefix):]))
    return args


RECIPES = {"PERF_MEM_S": perf_mem_s_args}


# ---------------------------------------------------------------------------
# The measuring programs
# ---------------------------------------------------------------------------

TYPE_CODES = ["other", "_Bool", "char", "signed char", "unsigned char", "short",
              "unsigned short", "int", "unsigned int", "long", "unsigned long",
              "long long", "unsigned long long"]

PRELUDE = r"""
#define ABI_TC(x) _Generic((x), _Bool: 1, char: 2, signed char: 3, \
	unsigned char: 4, short: 5, unsigned short: 6, int: 7, \
	unsigned int: 8, long: 9, unsigned long: 10, long long: 11, \
	unsigned long long: 12, default: 0)
#define ABI_U(x) ((unsigned long long)(x))
"""


class Plan:
    """The list of numbers to measure, shared by both headers."""

    def __init__(self):
        self.values = []          # (key, C expression)
        self.bitfields = []       # (key, aggregate C type, member, size key)
        self.kinds = {}           # key -> "tc" for type codes, "bool", "num"

    def val(self, key, expr, kind="num"):
        self.values.append((key, expr))
        self.kinds[key] = kind


def constant_macros(inv, target, header, work, tag):
    """Object-like macros and function-like invocations that are integer
    constant expressions; the rest are compared by their expansion."""
    exprs = []
    for name, (params, body) in sorted(inv.macros.items()):
        if params is None:
            if body:
                exprs.append((name, name))
        else:
            recipe = RECIPES.get(name)
            if recipe is None:
                raise CheckError("function-like macro %s(%s): abi-check.py has no "
                                 "arguments to evaluate it with; add it to RECIPES"
                                 % (name, ", ".join(params)))
            for args in recipe(inv.macros):
                exprs.append(("%s(%s)" % (name, ", ".join(args)), "%s(%s)" % (name, ", ".join(args))))
    ok = {}
    pending = list(exprs)
    for _ in range(len(exprs) + 1):
        src = os.path.join(work, "%s-probe-%s.c" % (tag, target.name))
        lines = ["#include <stddef.h>", '#include "%s"' % os.path.realpath(header), PRELUDE]
        first = len("\n".join(lines).splitlines()) + 1
        for i, (_key, e) in enumerate(pending):
            lines.append("static const unsigned long long abi_probe_%d = ABI_U(%s) + ABI_TC(%s);" % (i, e, e))
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = run(target.cmd("-std=gnu11", "-w", "-c", src, "-o", src + ".o"), check=False)
        if p.returncode == 0:
            for key, e in pending:
                ok[key] = e
            break
        bad = set()
        # With -w, every diagnostic belongs to an error; the probe's own line
        # is named by the error or by a note under it.
        for m in re.finditer(r"^%s:(\d+):\d+: (?:error|note)" % re.escape(src), p.stderr, re.M):
            line = int(m.group(1))
            if line >= first:
                bad.add(line - first)
        if not bad:
            raise CheckError("probe did not compile:\n" + p.stderr)
        pending = [x for i, x in enumerate(pending) if i not in bad]
    not_const = [k for k, _ in exprs if k not in ok]
    return ok, not_const


def expansions(inv, names, target, header, work, tag):
    """The fully expanded text of macros that are not constants."""
    if not names:
        return {}
    src = os.path.join(work, "%s-expand-%s.c" % (tag, target.name))
    with open(src, "w") as f:
        f.write('#include "%s"\n' % os.path.realpath(header))
        for n in names:
            f.write("abi_expansion_of %s = %s ;\n" % (n.replace("(", "_").replace(")", "_")
                                                    .replace(",", "_").replace(" ", ""), n))
    pre = run(target.cmd("-std=gnu11", "-E", "-P", src)).stdout
    out = {}
    for line in pre.splitlines():
        m = re.match(r"abi_expansion_of (\S+) = (.*) ;$", line.strip())
        if m:
            out[m.group(1)] = " ".join(tokenize(m.group(2)))
    return {n: out.get(n.replace("(", "_").replace(")", "_").replace(",", "_").replace(" ", ""), "")
            for n in names}


def build_plan(inv, consts):
    plan = Plan()
    for key, e in sorted(consts.items()):
        plan.val("macro %s: value" % key, "ABI_U(%s)" % e)
        plan.val("macro %s: type" % key, "ABI_TC(%s)" % e, "tc")
        plan.val("macro %s: sizeof" % key, "sizeof(%s)" % e)
        plan.val("macro %s: negative" % key, "ABI_U((%s) < 0)" % e, "bool")
    for tag, cs in inv.enums:
        if tag:
            t = "enum " + tag
            plan.val("%s: sizeof" % t, "sizeof(%s)" % t)
            plan.val("%s: alignof" % t, "_Alignof(%s)" % t)
            plan.val("%s: compatible type" % t, "ABI_TC((%s)0)" % t, "tc")
            plan.val("%s: signed" % t, "ABI_U((%s)-1 < 0)" % t, "bool")
        for c, _ in cs:
            plan.val("enum constant %s: value" % c, "ABI_U(%s)" % c)
            plan.val("enum constant %s: type" % c, "ABI_TC(%s)" % c, "tc")
            plan.val("enum constant %s: sizeof" % c, "sizeof(%s)" % c)
            plan.val("enum constant %s: negative" % c, "ABI_U((%s) < 0)" % c, "bool")
    for key in inv.agg_order:
        agg = inv.aggs[key]
        plan.val("%s: sizeof" % key, "sizeof(%s)" % key)
        plan.val("%s: alignof" % key, "_Alignof(%s)" % key)
        for m, _chain in walk_members(agg):
            if m.name is None:
                continue
            mk = "member %s.%s" % (key, m.name)
            ref = "((%s *)0)->%s" % (key, m.name)
            if m.width is not None:
                plan.bitfields.append((mk, key, m.name))
                continue
            plan.val("%s: offset" % mk, "offsetof(%s, %s)" % (key, m.name))
            elem = ref + "[0]" * len(m.dims)
            if m.dims and m.dims[0].strip() == "":
                plan.val("%s: sizeof" % mk, "0")      # flexible array
                plan.val("%s: elements" % mk, "0")
            else:
                plan.val("%s: sizeof" % mk, "sizeof(%s)" % ref)
                plan.val("%s: elements" % mk, "sizeof(%s) / sizeof(%s)" % (ref, elem))
            plan.val("%s: element sizeof" % mk, "sizeof(%s)" % elem)
            plan.val("%s: element type" % mk, "ABI_TC(%s)" % elem, "tc")
    return plan


def write_static(plan, header, path):
    lines = ["#include <stddef.h>", '#include "%s"' % os.path.realpath(header), PRELUDE,
             "const unsigned long long abi_tab[] __attribute__((section(\".abi.tab\"), used)) = {"]
    for key, e in plan.values:
        lines.append("\t%s,\t/* %s */" % (e, key))
    lines.append("\t0\n};")
    for i, (key, agg, member) in enumerate(plan.bitfields):
        lines.append("const %s abi_bf_%d __attribute__((section(\".abi.bf.%d\"), used)) = "
                     "{ .%s = -1 };\t/* %s */" % (agg, i, i, member, key))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_runtime(plan, header, path):
    lines = ["#include <stdio.h>", "#include <string.h>", "#include <stddef.h>",
             '#include "%s"' % os.path.realpath(header), PRELUDE,
             "static void abi_bytes(int i, const void *p, size_t n)", "{",
             "\tconst unsigned char *b = p;", "\tsize_t k;",
             "\tprintf(\"B %d \", i);",
             "\tfor (k = 0; k < n; k++)", "\t\tprintf(\"%02x\", b[k]);",
             "\tprintf(\"\\n\");", "}", "", "int main(void)", "{"]
    for i, (key, e) in enumerate(plan.values):
        lines.append("\tprintf(\"T %d %%llu\\n\", (unsigned long long)(%s));\t/* %s */"
                     % (i, e, key))
    for i, (key, agg, member) in enumerate(plan.bitfields):
        lines.append("\t{ %s o; memset(&o, 0, sizeof(o)); o.%s = -1; abi_bytes(%d, &o, sizeof(o)); }"
                     % (agg, member, i))
    lines.append("\treturn 0;\n}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def elf_sections(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise CheckError("%s is not ELF" % path)
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        shoff = struct.unpack_from(end + "Q", data, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
        fmt = end + "IIQQQQ"
    else:
        shoff = struct.unpack_from(end + "I", data, 0x20)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2E)
        fmt = end + "IIIIII"
    heads = []
    for k in range(shnum):
        name, stype, _flags, _addr, off, size = struct.unpack_from(fmt, data, shoff + k * shentsize)
        heads.append((name, stype, off, size))
    stroff = heads[shstrndx][2]
    out = {}
    for name, stype, off, size in heads:
        end0 = data.index(b"\0", stroff + name)
        sname = data[stroff + name:end0].decode()
        out[sname] = bytes(size) if stype == 8 else data[off:off + size]
    return out, end


def measure_static(plan, target, header, work, tag):
    src = os.path.join(work, "%s-static-%s.c" % (tag, target.name))
    obj = src[:-2] + ".o"
    write_static(plan, header, src)
    run(target.cmd("-std=gnu11", "-w", "-c", src, "-o", obj))
    secs, end = elf_sections(obj)
    tab = secs[".abi.tab"]
    n = len(plan.values)
    values = list(struct.unpack_from(end + "%dQ" % n, tab, 0))
    bfs = []
    for i, (key, agg, member) in enumerate(plan.bitfields):
        bfs.append(secs[".abi.bf.%d" % i])
    return values, bfs, end


def measure_run(plan, target, header, work, tag):
    src = os.path.join(work, "%s-run-%s.c" % (tag, target.name))
    exe = src[:-2]
    write_runtime(plan, header, src)
    run(target.cmd("-std=gnu11", "-w", src, "-o", exe))
    out = run(list(target.runner) + [exe]).stdout
    values = [None] * len(plan.values)
    bfs = [None] * len(plan.bitfields)
    for line in out.splitlines():
        kind, idx, val = line.split(" ", 2)
        if kind == "T":
            values[int(idx)] = int(val)
        else:
            bfs[int(idx)] = bytes.fromhex(val)
    if None in values or None in bfs:
        raise CheckError("%s: the measuring program printed too little" % exe)
    return values, bfs


def endianness(target, work):
    src = os.path.join(work, "endian-%s.c" % target.name)
    with open(src, "w") as f:
        f.write("int abi_x;\n")
    run(target.cmd("-c", src, "-o", src + ".o"))
    return elf_sections(src + ".o")[1]


def facts_from(plan, values, bfs, end):
    facts = {}
    for (key, _e), v in zip(plan.values, values):
        kind = plan.kinds[key]
        if kind == "tc":
            facts[key] = TYPE_CODES[v] if v < len(TYPE_CODES) else str(v)
        elif kind == "bool":
            facts[key] = "yes" if v else "no"
        else:
            facts[key] = str(v)
    for (key, agg, member), raw in zip(plan.bitfields, bfs):
        bits = []
        for byte, b in enumerate(raw):
            for bit in range(8):
                if b >> bit & 1:
                    # DWARF data_bit_offset numbering: from the object's first
                    # byte, least significant bit first on little-endian
                    # targets, most significant first on big-endian ones.
                    bits.append(byte * 8 + (bit if end == "<" else 7 - bit))
        bits.sort()
        if not bits:
            facts["%s: bit offset" % key] = "none set"
            continue
        contiguous = bits == list(range(bits[0], bits[0] + len(bits)))
        facts["%s: bit offset" % key] = str(bits[0]) if contiguous else "scattered %s" % bits
        facts["%s: bit width" % key] = str(len(bits))
    return facts


def declared_facts(inv):
    facts = {}
    for name, (params, body) in inv.macros.items():
        facts["macro %s: kind" % name] = ("object-like" if params is None
                                          else "function-like(%d)" % len(params))
    groups = enum_groups(inv)
    for c, label in groups.items():
        facts["enum constant %s: enum" % c] = label
    for tag, cs in inv.enums:
        if tag:
            facts["enum %s: constants" % tag] = " ".join(sorted(c for c, _ in cs))
    for key, agg in inv.aggs.items():
        facts["%s: members in order" % key] = signature(agg)
        for m, chain in walk_members(agg):
            if m.name is None:
                continue
            mk = "member %s.%s" % (key, m.name)
            facts["%s: declared type" % mk] = m.ctype
            facts["%s: inside" % mk] = "/".join(chain) if chain else "-"
            facts["%s: bitfield" % mk] = "yes" if m.width is not None else "no"
            facts["%s: array rank" % mk] = str(len(m.dims))
    for t, text in inv.typedefs.items():
        facts["typedef %s: type" % t] = text
    for d, text in inv.decls.items():
        facts["declaration %s: type" % d] = text
    return facts


def file_facts(header):
    with open(header) as f:
        text = f.read()
    facts = {"file: SPDX line": text.splitlines()[0] if text else ""}
    incs = re.findall(r"^\s*#\s*include\s*([<\"][^>\"]+[>\"])", text, re.M)
    facts["file: includes"] = " ".join(incs)
    m = re.search(r"^\s*#\s*(ifndef\s+\w+|if\s+!\s*defined\s*\(?\s*\w+)", text, re.M)
    facts["file: include guard"] = re.sub(r"\s+", " ", m.group(1)) if m else "none"
    return facts


# ---------------------------------------------------------------------------
# What mainline added after 6.12
# ---------------------------------------------------------------------------

# Our header also carries names that mainline added after 6.12.  Their
# values are facts, read from the newest mainline UAPI header, and written
# here so that the check needs no copy of it: the fact key as measured on a
# little-endian target, and the value mainline gives it.  A difference from
# 6.12 is allowed only where it comes from one of these names.
NEWER_FACTS = {
    # 6.19: config4, and the deferred user callchain bits
    "macro PERF_ATTR_SIZE_VER9: value": "144",
    "struct perf_event_attr: sizeof": "144",
    "member struct perf_event_attr.config4: offset": "136",
    "member struct perf_event_attr.config4: sizeof": "8",
    "member struct perf_event_attr.defer_callchain: bit offset": "358",
    "member struct perf_event_attr.defer_callchain: bit width": "1",
    "member struct perf_event_attr.defer_output: bit offset": "359",
    "member struct perf_event_attr.defer_output: bit width": "1",
    "member struct perf_event_attr.__reserved_1: bit offset": "360",
    "member struct perf_event_attr.__reserved_1: bit width": "24",
    "enum constant PERF_RECORD_CALLCHAIN_DEFERRED: value": "22",
    "enum constant PERF_RECORD_MAX: value": "23",
    "enum constant PERF_CONTEXT_USER_DEFERRED: value": str(2**64 - 640),
    # 7.0: the memory region of a data source, and level L0
    "macro PERF_MEM_LVLNUM_L0: value": "7",
    "macro PERF_MEM_REGION_SHIFT: value": "46",
    "member union perf_mem_data_src.mem_region: bit offset": "46",
    "member union perf_mem_data_src.mem_region: bit width": "5",
    "member union perf_mem_data_src.mem_rsvd: bit offset": "51",
    "member union perf_mem_data_src.mem_rsvd: bit width": "13",
}
NEWER_FACTS.update({
    "macro PERF_MEM_REGION_%s: value" % n: str(v) for v, n in enumerate(
        ["NA", "RSVD", "L_SHARE", "L_NON_SHARE", "O_IO", "O_SHARE", "O_NON_SHARE",
         "MMIO", "MEM0", "MEM1", "MEM2", "MEM3", "MEM4", "MEM5", "MEM6", "MEM7"])
})

# The names those facts are about.
NEWER_NAMES = {k.split(":", 1)[0] for k in NEWER_FACTS} - {
    "struct perf_event_attr", "member struct perf_event_attr.__reserved_1",
    "member union perf_mem_data_src.mem_rsvd", "enum constant PERF_RECORD_MAX"}

# Facts of 6.12 names that change with them: lists that gain the new names,
# and the values NEWER_FACTS gives (bit positions differ on big-endian
# targets, where only the change itself is allowed).
NEWER_LISTS = ("struct perf_event_attr: members in order",
               "union perf_mem_data_src: members in order",
               "enum perf_event_type: constants",
               "enum perf_callchain_context: constants",
               "struct perf_event_mmap_page: members in order",
               "enum perf_event_read_format: constants")

# Extensions of this core beyond every mainline version (each documented in
# Documentation/userspace-api/perf_event/ and refused by mainline): a name
# only ours has, and the facts of 6.12 names that change with it.  Allowed
# like NEWER_NAMES, but there is no mainline value to check them against.
EXTENSION_NAMES = {
    "member struct perf_event_attr.period_random_bits",
    "member struct perf_event_mmap_page.cap_output_state",
    "member struct perf_event_mmap_page.cap_user_count",
    "member struct perf_event_mmap_page.cap_user_count_time",
    "member struct perf_event_mmap_page.output_state",
    "member struct perf_event_mmap_page.data_bound",
    "macro PERF_OUTPUT_STATE_PAUSED",
    "macro PERF_FLAG_ALL_CPUS",
    "enum constant PERF_FORMAT_PER_CPU",
}
EXTENSION_FACTS = {
    # period_random_bits shares __reserved_2's bytes
    "member struct perf_event_attr.__reserved_2: inside": "union",
    # cap_user_count, cap_user_count_time and cap_output_state are the
    # top three capability bits
    "member struct perf_event_mmap_page.cap_____res: bit width": "55",
    # output_state and data_bound come out of the control page's padding
    "member struct perf_event_mmap_page.__reserved: elements": "912",
    "member struct perf_event_mmap_page.__reserved: offset": "112",
    "member struct perf_event_mmap_page.__reserved: sizeof": "912",
    # PERF_FORMAT_PER_CPU takes the bit PERF_FORMAT_MAX stood for
    "enum constant PERF_FORMAT_MAX: value": "64",
}


def newer_name(key):
    """Is the fact key about a name mainline added after 6.12?"""
    name = key.split(":", 1)[0]
    m = re.match(r"macro PERF_MEM_S\((\w+), (\w+)\)$", name)
    if m:
        name = "macro PERF_MEM_%s_%s" % m.groups()
    return name in NEWER_NAMES


def newer_explains(diff, facts_a, facts_b):
    """Is one line of Report.compare() a change mainline made after 6.12?"""
    m = re.match(r"only in ours: (.*)$", diff)
    if m:
        return m.group(1) in NEWER_NAMES | EXTENSION_NAMES
    m = re.match(r"(.*): measured only for ours \(", diff)
    if m:
        return newer_name(m.group(1))
    m = re.match(r"(.*): mainline .*, ours .*$", diff)
    if not m:
        return False
    key = m.group(1)
    if key in NEWER_LISTS:
        drop = {n.rsplit(" ", 1)[-1].rsplit(".", 1)[-1]
                for n in NEWER_NAMES | EXTENSION_NAMES}
        kept = [w for w in re.split(r"(\W+)", facts_b[key]) if w not in drop]
        def norm(text):
            text = re.sub(r"\s+", " ", text).strip()
            return re.sub(r"\{ ", "{", re.sub(r" \}", "}", text))
        ours = norm("".join(kept))
        # a union left with one member after the drop is that member
        ours = re.sub(r"union\{(\w+)\}", r"\1", ours)
        return ours == norm(facts_a[key])
    if EXTENSION_FACTS.get(key) == facts_b[key]:
        return True
    return key in NEWER_FACTS


def check_newer_facts(label, facts, little, report):
    """Our header against the values NEWER_FACTS gives."""
    diffs = []
    keys = [k for k in sorted(NEWER_FACTS) if little or " bit offset" not in k]
    for key in keys:
        want = NEWER_FACTS[key]
        got = facts.get(key)
        if got != want:
            diffs.append("%s: newest mainline %s, ours %s" % (key, want, got))
    if not report.quiet:
        for d in diffs:
            print("  %s: %s" % (label, d))
        print("abi-check: %d values of newer mainline compared, %d differences (%s)" %
              (len(keys), len(diffs), label))
    report.total_values += len(keys)
    report.total_diffs += len(diffs)
    return diffs


# ---------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------

class Report:
    def __init__(self, verbose, dump=None, quiet=False):
        self.verbose = verbose
        self.dump = dump
        self.quiet = quiet
        self.total_names = 0
        self.total_values = 0
        self.total_diffs = 0

    def compare(self, label, names_a, names_b, facts_a, facts_b, strict=False):
        """Mainline's names and facts (a) against ours (b).  Unless strict,
        the changes mainline made after 6.12 (NEWER_FACTS) are not counted."""
        diffs = []
        missing = set()
        for n in sorted(names_a - names_b):
            diffs.append("only in mainline: %s" % n)
            missing.add(n)
        for n in sorted(names_b - names_a):
            diffs.append("only in ours: %s" % n)
            missing.add(n)
        common = set(facts_a) & set(facts_b)
        for k in sorted(set(facts_a) ^ set(facts_b)):
            if k.split(":", 1)[0] in missing:
                continue            # already counted as a missing name
            side = "mainline" if k in facts_a else "ours"
            diffs.append("%s: measured only for %s (%s)" %
                         (k, side, facts_a.get(k, facts_b.get(k))))
        for k in sorted(common):
            if facts_a[k] != facts_b[k]:
                diffs.append("%s: mainline %s, ours %s" % (k, facts_a[k], facts_b[k]))
        newer = 0
        if not strict:
            kept = [d for d in diffs if not newer_explains(d, facts_a, facts_b)]
            newer = len(diffs) - len(kept)
            diffs = kept
        names = len(names_a | names_b)
        if not self.quiet:
            for d in diffs:
                print("  %s: %s" % (label, d))
            print("abi-check: %d names, %d values compared, %d differences (%s)%s" %
                  (names, len(common), len(diffs), label,
                   "; %d more are mainline's after 6.12" % newer if newer else ""))
        self.total_names = max(self.total_names, names)
        self.total_values += len(common)
        self.total_diffs += len(diffs)
        return diffs


def check_target(target, headers, work, report, mode="default"):
    """Compare the headers on one target.  mode "default": ours against 6.12
    with mainline's later changes allowed, and those changes checked against
    NEWER_FACTS; "strict": ours against 6.12 exactly; "newest": only the
    NEWER_FACTS check."""
    invs = {}
    for tag, h in headers.items():
        invs[tag] = inventory(h, target, work, tag)
    end = endianness(target, work)
    results = {}
    for tag, h in headers.items():
        inv = invs[tag]
        consts, not_const = constant_macros(inv, target, h, work, tag)
        plan = build_plan(inv, consts)
        facts = declared_facts(inv)
        facts.update(file_facts(h))
        for name, exp in expansions(inv, not_const, target, h, work, tag).items():
            facts["macro %s: expansion (not a constant)" % name] = exp
        how = []
        if target.runner is not None:
            values, bfs = measure_run(plan, target, h, work, tag)
            run_facts = facts_from(plan, values, bfs, end)
            how.append("run")
        svalues, sbfs, send = measure_static(plan, target, h, work, tag)
        static_facts = facts_from(plan, svalues, sbfs, send)
        if target.runner is not None:
            # The two ways of measuring must agree, or the checker is broken.
            bad = [k for k in run_facts if run_facts[k] != static_facts.get(k)]
            if bad:
                raise CheckError("%s/%s: run and object file disagree on %s" %
                                 (target.name, tag, ", ".join(bad[:5])))
            how.append("object file agrees")
            facts.update(run_facts)
        else:
            how.append("object file, not run")
            facts.update(static_facts)
        results[tag] = (facts, how)
    label = "%s, %s" % (target.name, "; ".join(results["ours"][1]))
    if report.dump:
        for tag in ("mainline", "ours"):
            with open(os.path.join(report.dump, "%s-%s.facts" % (tag, target.name)), "w") as f:
                for k in sorted(results[tag][0]):
                    f.write("%s = %s\n" % (k, results[tag][0][k]))
    diffs = []
    if mode != "newest":
        diffs += report.compare(label, names_of(invs["mainline"]), names_of(invs["ours"]),
                                results["mainline"][0], results["ours"][0],
                                strict=(mode == "strict"))
    if mode != "strict":
        little = not target.name.endswith(("-be", "-be-shim"))
        diffs += check_newer_facts(label, results["ours"][0], little, report)
    return diffs


# ---------------------------------------------------------------------------
# Diagnostics and comments
# ---------------------------------------------------------------------------

def diagnostics(cmd, header, work, tag, lang):
    src = os.path.join(work, "%s-diag.%s" % (tag, "cc" if lang == "c++" else "c"))
    with open(src, "w") as f:
        f.write('#include "%s"\n' % os.path.realpath(header))
        f.write("int abi_check_unit;\n")
    p = run(cmd + ["-fsyntax-only", src], check=False)
    msgs = set()
    for line in p.stderr.splitlines():
        m = re.match(r"^.*?:\d+:\d+: (warning|error): (.*)$", line)
        if m:
            msgs.add("%s: %s" % (m.group(1), m.group(2)))
    return p.returncode, msgs


def check_diagnostics(headers, work, report, strict=False):
    configs = [
        ("c89 -pedantic", ["gcc", "-std=c89", "-pedantic", "-Wall", "-Wextra"], "c"),
        ("c99 -pedantic", ["gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra"], "c"),
        ("gnu11", ["gcc", "-std=gnu11", "-Wall", "-Wextra", "-Wpedantic"], "c"),
        ("gnu11 __KERNEL__", ["gcc", "-std=gnu11", "-D__KERNEL__", "-Wall", "-Wextra"], "c"),
        ("c89 -pedantic __KERNEL__", ["gcc", "-std=c89", "-pedantic", "-D__KERNEL__",
                                      "-Wall", "-Wextra"], "c"),
    ]
    if shutil.which("g++"):
        configs.append(("c++17", ["g++", "-x", "c++", "-std=c++17", "-Wall", "-Wextra"], "c++"))
    if shutil.which(CROSS):
        configs.append(("arm64 c89 -pedantic", [CROSS, "-std=c89", "-pedantic", "-Wall",
                                                "-Wextra"], "c"))
    diffs = 0
    for label, cmd, lang in configs:
        rc_m, m = diagnostics(cmd, headers["mainline"], work, "mainline", lang)
        rc_o, o = diagnostics(cmd, headers["ours"], work, "ours", lang)
        extra = sorted(o - m)
        if not strict:
            # the warnings mainline gives its own bitfields, for the new ones
            shape = {re.sub(r"‘\w+’", "‘’", x) for x in m}
            newer = {n.rsplit(".", 1)[-1] for n in NEWER_NAMES | EXTENSION_NAMES
                     if n.startswith("member ")}
            extra = [e for e in extra
                     if not (re.search(r"‘(\w+)’", e) and
                             re.search(r"‘(\w+)’", e).group(1) in newer and
                             re.sub(r"‘\w+’", "‘’", e) in shape)]
        for e in extra:
            print("  diagnostics (%s): only ours: %s" % (label, e))
        if rc_o != 0 and rc_m == 0:
            print("  diagnostics (%s): ours fails to compile, mainline compiles" % label)
            extra.append("rc")
        if report.verbose:
            print("  diagnostics (%s): mainline %d distinct, ours %d distinct" % (label, len(m), len(o)))
        diffs += len(extra)
    print("abi-check: diagnostics: %d compiler configurations, %d messages of ours "
          "that mainline does not give" % (len(configs), diffs))
    report.total_diffs += diffs


def comment_lines(path):
    """Comment lines of 4+ words, lower case, white space collapsed.  The
    SPDX tag is a required fact, not prose, and is left out."""
    with open(path) as f:
        text = f.read()
    out = []
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S):
        if "SPDX-License-Identifier:" in m.group():
            continue
        body = m.group()
        body = body[2:-2] if body.startswith("/*") else body[2:]
        for line in body.splitlines():
            line = re.sub(r"^\s*\*+", "", line)
            norm = " ".join(line.lower().split())
            if len(norm.split()) >= 4:
                out.append(norm)
    return out


def check_comments(headers, report):
    ours = comment_lines(headers["ours"])
    theirs = set(comment_lines(headers["mainline"]))
    hits = [c for c in ours if c in theirs]
    for h in hits:
        print("  comments: also in mainline: %s" % h)
    print("abi-check: comments: %d comment lines of ours with 4+ words, %d also in mainline"
          % (len(ours), len(hits)))
    report.total_diffs += len(hits)


# ---------------------------------------------------------------------------
# Self-test: the checker must see each of these changes to mainline's header
# ---------------------------------------------------------------------------

# (what, regex, replacement, targets that must report it; None: none may)
MUTATIONS = [
    ("union members swapped", r"(__u64\s+)sample_period;(\s+__u64\s+)sample_freq;",
     r"\1sample_freq;\2sample_period;", {"x86_64", "arm64"}),
    ("1UL made 1ULL", r"(PERF_FLAG_FD_OUTPUT\s+\(1)UL", r"\1ULL", {"x86_64", "i386", "arm64"}),
    ("int macro made unsigned", r"(PERF_RECORD_MISC_KERNEL\s+\(1)", r"\1U",
     {"x86_64", "i386", "arm64"}),
    ("big-endian data_src fields swapped",
     r"(mem_rsvd:18,\s+)mem_hops:3,(.*?\n\s+)mem_blk:3,", r"\1mem_blk:3,\2mem_hops:3,",
     {"x86_64-be-shim", "arm64-be"}),
    ("big-endian weight fields swapped",
     r"(BIG_ENDIAN_BITFIELD\)\s+struct \{\s+__u16\s+)var3_w;(\s+__u16\s+)var2_w;",
     r"\1var2_w;\2var3_w;", {"x86_64-be-shim", "arm64-be"}),
    ("enum constant moved to its own enum", r"\s*PERF_TXN_ABORT_SHIFT\s*=\s*32,\s*\};",
     "\n};\nenum { PERF_TXN_ABORT_SHIFT = 32 };", {"x86_64", "arm64"}),
    ("macro removed", r"#define\s+PERF_MEM_LVLNUM_CXL[^\n]*\n", "", {"x86_64", "arm64"}),
    ("member made signed", r"__u16(\s+time_shift;)", r"__s16\1", {"x86_64", "i386", "arm64"}),
    ("member renamed", r"\baux_pause\b", "aux_pauses", {"x86_64", "arm64"}),
    ("enum value lost its cast", r"=\s*\(__u64\)-4095", "= -4095", {"x86_64", "arm64"}),
    ("macro added", r"(#endif /\* _UAPI_LINUX_PERF_EVENT_H)", r"#define PERF_EXTRA 1\n\1",
     {"x86_64", "arm64"}),
    ("ioctl argument type of another size on 32-bit",
     r"_IOW\('\$', 6, char \*\)", "_IOW('$', 6, __u64)", {"i386"}),
    ("bitfield widths moved", r"(precise_ip\s*:\s*)2,", r"\g<1>1,",
     {"x86_64", "arm64", "i386"}),
    ("member type widened", r"__u16(\s+pmc_width;)", r"__u32\1", {"x86_64", "arm64"}),
    ("array bound written another way", r"116\s*\*\s*8", "928", None),
    ("bitfield list split into declarations",
     r"__u64(\s+)mispred:1,\s*/\*[^*]*\*/\s*predicted:1,",
     r"__u64\1mispred:1;\n\t__u64\1predicted:1,", None),
]


def self_test(mainline, work, wanted):
    """Run the comparison of mainline against altered copies of itself."""
    with open(mainline) as f:
        text = f.read()
    targets = make_targets(work, wanted or "x86_64,i386,x86_64-be-shim,arm64,arm64-be")
    failures = 0
    for n, (what, pat, rep, expect) in enumerate(MUTATIONS):
        new, count = re.subn(pat, rep, text, count=1, flags=re.S)
        if count != 1:
            print("self-test: %-48s pattern no longer matches mainline" % what)
            failures += 1
            continue
        d = os.path.join(work, "mutant-%d" % n)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "perf_event.h")
        with open(path, "w") as f:
            f.write(new)
        seen = set()
        for t in targets:
            rep_ = Report(False, quiet=True)
            try:
                if check_target(t, {"mainline": mainline, "ours": path}, d, rep_,
                                mode="strict"):
                    seen.add(t.name)
            except CheckError:
                if t.name == "i386":
                    continue
                raise
        names = {t.name for t in targets}
        ok = not seen if expect is None else (expect & names) <= seen
        print("self-test: %-48s %s (reported on: %s)" %
              (what, "ok" if ok else "FAILED", ", ".join(sorted(seen)) or "none"))
        failures += 0 if ok else 1
    print("self-test: %d of %d alterations handled as expected" %
          (len(MUTATIONS) - failures, len(MUTATIONS)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mainline", nargs="?", default=DEF_MAINLINE)
    ap.add_argument("ours", nargs="?", default=DEF_OURS)
    ap.add_argument("--targets", help="comma-separated subset of: x86_64, i386, "
                    "x86_64-be-shim, arm64, arm64-be")
    ap.add_argument("--keep", metavar="DIR", help="write the generated files to DIR and keep them")
    ap.add_argument("--dump", metavar="DIR", help="write every measured fact, per header and "
                    "target, to DIR/{mainline,ours}-TARGET.facts")
    ap.add_argument("--self-test", action="store_true", help="alter copies of mainline's "
                    "header in ways that do and do not change the ABI, and check that "
                    "exactly the former are reported")
    ap.add_argument("--strict", action="store_true", help="6.12's ABI exactly: count "
                    "the names and values mainline added later as differences too")
    ap.add_argument("--newest", action="store_true", help="only compare the names mainline "
                    "added after 6.12 with the values its newest header gives them")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    headers = {"mainline": args.mainline, "ours": args.ours}
    for tag, h in headers.items():
        if not os.path.isfile(h):
            print("abi-check: no %s header at %s%s" % (tag, h, " (make build-mainline, or "
                  "scripts/tree.py pristine build/pristine, unpacks it)" if tag == "mainline" else ""))
            return 2
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        work = os.path.abspath(args.keep)
    else:
        work = tempfile.mkdtemp(prefix="abi-check.")
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    report = Report(args.verbose, args.dump)
    try:
        if args.self_test:
            return self_test(headers["mainline"], work, args.targets)
        for target in make_targets(work, args.targets):
            try:
                check_target(target, headers, work, report,
                             "strict" if args.strict else "newest" if args.newest else "default")
            except CheckError as e:
                if target.name == "i386" and not args.targets:
                    print("abi-check: i386 skipped (gcc -m32 cannot compile here)")
                    if report.verbose:
                        print(str(e))
                    continue
                raise
        if not args.targets and not args.newest:
            if not shutil.which(CROSS):
                print("abi-check: arm64 skipped: no %s" % CROSS)
            check_diagnostics(headers, work, report, args.strict)
            check_comments(headers, report)
    except CheckError as e:
        print("abi-check: could not check: %s" % e)
        return 2
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("abi-check: %d names, %d values compared, %d differences" %
          (report.total_names, report.total_values, report.total_diffs))
    return 1 if report.total_diffs else 0


if __name__ == "__main__":
    sys.exit(main())
