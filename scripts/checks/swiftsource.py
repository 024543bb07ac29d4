"""A small Swift lexer and `#if` evaluator, shared by check-availability.py, check-glibc.py and check-pins.py.

Not a parser: it knows comments (nested), string literals (single-line, multi-line, raw, with the code of
their interpolations lexed as code), `#if`/`#elseif`/`#else`/`#endif` lines, identifiers (backticked too),
numbers and punctuation. That is enough to find identifiers and member accesses outside comments and
strings, and to know under which compilation conditions each token is compiled.

Compilation conditions are evaluated per Apple platform, three-valued (True, False, None = cannot tell):
`os(X)` is exact; `canImport(M)` is True for Apple's modules and the module's own reachable targets, False for
Glibc/Musl/FoundationNetworking/...; custom flags are True when the manifest defines them for the target on
that platform (`defines`), False otherwise, except DEBUG (None); `arch`, `targetEnvironment`, `hasFeature`
and unknown modules are None. A token is compiled on a platform unless its branch is definitely not taken.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

IDENT_START = re.compile(r"[A-Za-z_\u0080-\uffff]")
IDENT = re.compile(r"[A-Za-z0-9_\u0080-\uffff]*")
NUMBER = re.compile(r"(0[xX][0-9a-fA-F_]+(\.[0-9a-fA-F_]+)?([pP][+-]?[0-9_]+)?|0[bB][01_]+|0[oO][0-7_]+|"
                    r"[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9_]+)?)")


@dataclass(slots=True)
class Token:
    kind: str      # ident, string, number, punct, directive
    text: str      # for directive: "if <cond>", "elseif <cond>", "else", "endif"
    line: int
    col: int
    space_before: bool = False   # white space (or a comment) right before the token
    newline_before: bool = False


class LexError(Exception):
    pass


def tokenize(source: str) -> list[Token]:
    """The tokens of `source`; comments are dropped, string literals become one `string` token (their literal
    text) followed by the tokens of their interpolations."""
    tokens: list[Token] = []
    _Lexer(source, tokens).run()
    return tokens


class _Lexer:
    def __init__(self, s: str, out: list[Token]):
        self.s, self.out, self.i, self.line, self.line_start = s, out, 0, 1, 0
        self.space, self.newline = False, True

    def emit(self, kind, text, start, line=None, col=None):
        self.out.append(Token(kind, text, line or self.line, (col if col is not None else start - self.line_start) + 1,
                              self.space, self.newline))
        self.space = self.newline = False

    def advance_newlines(self, start, end):
        n = self.s.count("\n", start, end)
        if n:
            self.line += n
            self.line_start = self.s.rindex("\n", start, end) + 1

    def run(self, stop_at_paren=False):
        s, depth = self.s, 0
        while self.i < len(s):
            c = s[self.i]
            if c == "\n":
                self.i += 1
                self.line += 1
                self.line_start = self.i
                self.space = self.newline = True
            elif c in " \t\r\f\v":
                self.i += 1
                self.space = True
            elif s.startswith("//", self.i):
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
                self.space = True
            elif s.startswith("/*", self.i):
                self.block_comment()
            elif c == "#" and self.newline and re.match(r"#(if|elseif|else|endif)\b", s[self.i:self.i + 8]):
                self.directive()
            elif c == '"' or (c == "#" and re.match(r"#+\"", s[self.i:])):
                self.string()
            elif c == "`":
                end = s.find("`", self.i + 1)
                if end < 0:
                    raise LexError(f"line {self.line}: unterminated backtick")
                self.emit("ident", s[self.i + 1:end], self.i)
                self.i = end + 1
            elif IDENT_START.match(c) or (c in "#@$" and self.i + 1 < len(s) and IDENT_START.match(s[self.i + 1])):
                m = IDENT.match(s, self.i + 1)
                self.emit("ident", s[self.i:m.end()], self.i)
                self.i = m.end()
            elif c == "$" and self.i + 1 < len(s) and s[self.i + 1].isdigit():
                m = re.compile(r"\$[0-9]+").match(s, self.i)
                self.emit("ident", m.group(0), self.i)
                self.i = m.end()
            elif c.isdigit():
                m = NUMBER.match(s, self.i)
                self.emit("number", m.group(0), self.i)
                self.i = m.end()
            else:
                if stop_at_paren:
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        if depth == 0:
                            return
                        depth -= 1
                self.emit("punct", c, self.i)
                self.i += 1
        if stop_at_paren:
            raise LexError(f"line {self.line}: unterminated interpolation")

    def block_comment(self):
        s, depth, j = self.s, 0, self.i
        while j < len(s):
            if s.startswith("/*", j):
                depth += 1
                j += 2
            elif s.startswith("*/", j):
                depth -= 1
                j += 2
                if depth == 0:
                    break
            else:
                j += 1
        else:
            raise LexError(f"line {self.line}: unterminated comment")
        self.advance_newlines(self.i, j)
        self.i = j
        self.space = True

    def directive(self):
        s = self.s
        end = s.find("\n", self.i)
        end = len(s) if end < 0 else end
        text = s[self.i + 1:end]
        text = re.sub(r"//.*$", "", text)
        text = re.sub(r"/\*.*?\*/", "", text).strip()
        self.emit("directive", text, self.i)
        self.i = end

    def string(self):
        s = self.s
        line, col = self.line, self.i - self.line_start
        hashes = 0
        while s[self.i] == "#":
            hashes += 1
            self.i += 1
        multiline = s.startswith('"""', self.i)
        self.i += 3 if multiline else 1
        close = ('"""' if multiline else '"') + "#" * hashes
        interp = "\\" + "#" * hashes + "("
        literal = []
        pending: list[Token] = []
        while True:
            if self.i >= len(s):
                raise LexError(f"line {line}: unterminated string")
            if s.startswith(close, self.i):
                self.i += len(close)
                break
            if s.startswith(interp, self.i):
                self.i += len(interp)
                saved, self.out = self.out, pending
                self.space = self.newline = False
                self.run(stop_at_paren=True)
                self.out = saved
                self.i += 1  # the closing parenthesis
                continue
            c = s[self.i]
            if c == "\\" and s.startswith("\\" + "#" * hashes, self.i):
                # An escape (`\n`, `\"`, `\u{...}`; in a raw string `\#n`): its first character is literal.
                literal.append(s[self.i:self.i + 2 + hashes])
                self.i += 2 + hashes
                continue
            if c == "\n":
                if not multiline:
                    raise LexError(f"line {line}: newline in string")
                self.line += 1
                self.line_start = self.i + 1
            literal.append(c)
            self.i += 1
        self.out.append(Token("string", "".join(literal), line, col + 1, self.space, self.newline))
        self.out.extend(pending)
        self.space = self.newline = False


# --- Compilation conditions ------------------------------------------------------------------------------

OS_NAMES = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS",
            "maccatalyst": "iOS"}   # Mac Catalyst compiles `os(iOS)` code, with `targetEnvironment(macCatalyst)`
APPLE_PLATFORMS = ("macos", "ios", "tvos", "watchos", "visionos")   # Mac Catalyst is checked where a check asks

# canImport(...) on every Apple platform.
APPLE_MODULES = {"Darwin", "ObjectiveC", "Foundation", "Dispatch", "Security", "LocalAuthentication", "CryptoKit",
                 "CommonCrypto", "AuthenticationServices", "os", "Network", "CoreFoundation", "Combine",
                 "Observation", "Synchronization", "FoundationEssentials", "_Concurrency", "Swift",
                 "UIKit", "SwiftUI", "DeviceCheck"}
NON_APPLE_MODULES = {"Glibc", "Musl", "Android", "Bionic", "WinSDK", "WASILibc", "FoundationNetworking",
                     "FoundationXML", "ucrt", "CRT"}
# Per platform, where a module exists only on some Apple platforms.
PLATFORM_MODULES = {"AppKit": {"macos"}, "UIKit": {"ios", "maccatalyst", "tvos", "visionos"}, "WatchKit": {"watchos"}}


class Conditions:
    """Evaluates `#if` conditions for one target on one Apple platform."""

    def __init__(self, platform: str, defines: set[str] = frozenset(), importable: set[str] = frozenset(),
                 not_importable: set[str] = frozenset(), swift_version=(6, 2)):
        self.platform, self.defines = platform, set(defines)
        self.importable, self.not_importable = set(importable), set(not_importable)
        self.swift_version = swift_version

    def evaluate(self, text: str):
        tokens = re.findall(r"\|\||&&|!|\(|\)|[A-Za-z_][A-Za-z0-9_]*\s*\([^()]*\)|[A-Za-z_][A-Za-z0-9_]*", text)
        self._t, self._i = tokens, 0
        try:
            value = self._or()
        except (IndexError, ValueError):
            return None
        return value if self._i == len(tokens) else None

    def _or(self):
        value = self._and()
        while self._i < len(self._t) and self._t[self._i] == "||":
            self._i += 1
            right = self._and()
            value = True if value is True or right is True else (False if value is False and right is False else None)
        return value

    def _and(self):
        value = self._not()
        while self._i < len(self._t) and self._t[self._i] == "&&":
            self._i += 1
            right = self._not()
            value = False if value is False or right is False else (True if value is True and right is True else None)
        return value

    def _not(self):
        if self._t[self._i] == "!":
            self._i += 1
            v = self._not()
            return None if v is None else not v
        if self._t[self._i] == "(":
            self._i += 1
            v = self._or()
            if self._t[self._i] != ")":
                raise ValueError
            self._i += 1
            return v
        atom = self._t[self._i]
        self._i += 1
        return self.atom(atom)

    def atom(self, atom: str):
        m = re.match(r"(\w+)\s*\(\s*(.*?)\s*\)$", atom)
        if not m:
            if atom == "true":
                return True
            if atom == "false":
                return False
            if atom == "DEBUG":
                return None
            return atom in self.defines
        fn, arg = m.groups()
        if fn == "os":
            return arg == OS_NAMES[self.platform]
        if fn == "canImport":
            module = arg.split(",")[0].strip().split(".")[0]
            if module in PLATFORM_MODULES:
                return self.platform in PLATFORM_MODULES[module]
            if module in APPLE_MODULES or module in self.importable:
                return True
            if module in NON_APPLE_MODULES or module in self.not_importable:
                return False
            return None
        if fn in ("swift", "compiler"):
            vm = re.match(r"(>=|<)\s*(\d+)(?:\.(\d+))?", arg)
            if not vm:
                return None
            version = (int(vm.group(2)), int(vm.group(3) or 0))
            return self.swift_version >= version if vm.group(1) == ">=" else self.swift_version < version
        if fn == "_runtime":
            return arg == "_ObjC"
        if fn == "targetEnvironment" and arg == "macCatalyst":
            return self.platform == "maccatalyst"
        return None  # arch, targetEnvironment(simulator), hasFeature, hasAttribute, _endian, _pointerBitWidth...


def compiled_mask(tokens: list[Token], conditions: dict[str, Conditions]) -> list[frozenset]:
    """For each token, the platforms (keys of `conditions`) it may be compiled on; directive tokens get the
    platforms of the region they open. Raises LexError on unbalanced directives."""
    platforms = frozenset(conditions)
    # Stack of (platforms where the enclosing region is live, per platform: has an earlier branch been
    # definitely taken, the current branch's platforms).
    stack: list[tuple[frozenset, dict, frozenset]] = []
    current = platforms
    out: list[frozenset] = []
    for t in tokens:
        if t.kind != "directive":
            out.append(current)
            continue
        word, _, cond = t.text.partition(" ")
        if word == "if":
            outer = current
            taken = {p: False for p in platforms}
            branch = _branch(cond, outer, taken, conditions)
            stack.append((outer, taken, branch))
            current = branch
        elif word in ("elseif", "else"):
            if not stack:
                raise LexError(f"line {t.line}: #{word} without #if")
            outer, taken, _ = stack[-1]
            branch = _branch(cond if word == "elseif" else "true", outer, taken, conditions)
            stack[-1] = (outer, taken, branch)
            current = branch
        elif word == "endif":
            if not stack:
                raise LexError(f"line {t.line}: #endif without #if")
            outer, _, _ = stack.pop()
            current = outer
        out.append(current)
    if stack:
        raise LexError("#if without #endif")
    return out


def _branch(cond: str, outer: frozenset, taken: dict, conditions: dict[str, Conditions]) -> frozenset:
    live = set()
    for p in outer:
        if taken[p]:
            continue
        value = conditions[p].evaluate(cond)
        if value is not False:
            live.add(p)
        if value is True:
            taken[p] = True
    return frozenset(live)


def matching_close(tokens: list[Token], i: int) -> int:
    """Index of the bracket closing the one at `i` (same kind), or len(tokens)."""
    opening = tokens[i].text
    closing = {"(": ")", "[": "]", "{": "}", "<": ">"}[opening]
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t.kind != "punct":
            continue
        if t.text == opening:
            depth += 1
        elif t.text == closing:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens)


def split_arguments(tokens: list[Token], open_paren: int) -> tuple[list[tuple[int, int]], int]:
    """The parts of the parenthesized (or angle-bracketed: a generic clause) list at `open_paren` split at its
    top-level commas, as token index ranges (start, end exclusive; empty parts left out), and the index of its
    closing bracket."""
    close = matching_close(tokens, open_paren)
    openers, closers = ("([{<", ")]}>") if tokens[open_paren].text == "<" else ("([{", ")]}")
    parts: list[tuple[int, int]] = []
    depth, start = 0, open_paren + 1
    for j in range(open_paren + 1, close + 1):
        t = tokens[j]
        if t.kind == "punct" and t.text in openers:
            depth += 1
        elif t.kind == "punct" and t.text in closers and j != close:
            depth -= 1
        elif (t.kind == "punct" and t.text == "," and depth == 0) or j == close:
            if j > start:
                parts.append((start, j))
            start = j + 1
    return parts, close


def argument_labels(tokens: list[Token], open_paren: int) -> tuple[list[str], int]:
    """The argument labels of the call whose `(` is at `open_paren` ("_" for an unlabeled argument) and the
    index of its `)`."""
    parts, close = split_arguments(tokens, open_paren)
    labels = []
    for start, end in parts:
        first = tokens[start]
        labeled = first.kind == "ident" and start + 1 < end and tokens[start + 1].kind == "punct" and \
            tokens[start + 1].text == ":" and not (start + 2 < end and tokens[start + 2].text == ":")
        labels.append(first.text if labeled else "_")
    return labels, close

STATEMENT_KEYWORDS = {"if", "guard", "while", "for", "switch", "catch"}


def statement_braces(tokens: list[Token]) -> set[int]:
    """Indexes of the `{` that open the body of an if/guard/while/for/switch/catch statement (a `{` after a
    call in a condition is that body, not a trailing closure)."""
    out: set[int] = set()
    n = len(tokens)
    for i, t in enumerate(tokens):
        if t.kind != "ident" or t.text not in STATEMENT_KEYWORDS or (i and tokens[i - 1].text == "."):
            continue
        depth = 0
        for j in range(i + 1, n):
            x = tokens[j]
            if x.kind != "punct":
                continue
            if x.text in "([":
                depth += 1
            elif x.text in ")]":
                depth -= 1
                if depth < 0:
                    break
            elif x.text == "{" and depth == 0:
                out.add(j)
                break
            elif x.text == "}" and depth == 0:
                break
    return out
