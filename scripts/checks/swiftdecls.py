"""Declarations of a Swift file or `.swiftinterface`, with their `@available` versions: what
check-availability.py indexes (the toolchain's API and the package's own) and check-pins.py lists (the
facades' public API). Works on swiftsource.py's tokens; not a parser — it reads declaration headers:

- attributes (`@available(...)` parsed; `@_spi(...)` marks the declaration SPI), modifiers (access level),
- `func`/`init`/`subscript` with their argument labels (and which parameters have defaults or are variadic),
  `var`/`let` names, enum `case`s, `struct`/`class`/`enum`/`protocol`/`actor`/`typealias`/`associatedtype`,
  and `extension` (whose body members take the extended type as context).

Function, initializer, accessor and closure bodies are skipped: only declarations at file level or in a
type/extension body are listed. `#if` branches are all read (an interface's alternatives then appear twice).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from swiftsource import Token, matching_close, split_arguments

PLATFORMS = ("macos", "ios", "maccatalyst", "tvos", "watchos", "visionos")
PLATFORM_NAMES = {"macOS": "macos", "OSX": "macos", "iOS": "ios", "tvOS": "tvos", "watchOS": "watchos",
                  "visionOS": "visionos", "xrOS": "visionos", "macCatalyst": "maccatalyst"}
DISPLAY = {"macos": "macOS", "ios": "iOS", "maccatalyst": "Mac Catalyst", "tvos": "tvOS", "watchos": "watchOS",
           "visionos": "visionOS"}

MODIFIERS = {"public", "open", "internal", "private", "fileprivate", "package", "static", "final", "mutating",
             "nonmutating", "override", "required", "convenience", "dynamic", "lazy", "weak", "unowned",
             "nonisolated", "indirect", "optional", "consuming", "borrowing", "__consuming", "isolated",
             "distributed", "prefix", "postfix", "infix", "__setter_access", "_const", "sending"}
TYPE_KINDS = {"struct", "class", "enum", "protocol", "actor"}
TYPE_KEYWORDS = TYPE_KINDS | {"extension"}
DECL_KEYWORDS = TYPE_KEYWORDS | {"func", "init", "deinit", "subscript", "var", "let", "case", "typealias",
                                 "associatedtype", "macro", "operator", "precedencegroup", "import"}
ACCESS = {"public", "open", "internal", "private", "fileprivate", "package"}
# Module names an interface qualifies extended types with (`extension CryptoKit.P256.Signing`).
MODULE_PREFIXES = {"Swift", "Foundation", "CryptoKit", "Security", "LocalAuthentication", "AuthenticationServices",
                   "CommonCrypto", "DeviceCheck", "_Concurrency"}


def parse_version(text: str) -> tuple[int, int, int]:
    """"15" and "15.0" are both (15, 0, 0), so versions compare as the compiler compares them."""
    parts = [int(p) for p in text.split(".") if p.isdigit()][:3]
    return tuple(parts + [0] * (3 - len(parts)))


@dataclass
class Availability:
    """Introduced versions per Apple platform (missing: no requirement), platforms it is unavailable on, and
    deprecation versions per platform."""
    introduced: dict[str, tuple] = field(default_factory=dict)
    unavailable: set[str] = field(default_factory=set)
    everywhere_unavailable: bool = False
    deprecated: dict[str, tuple] = field(default_factory=dict)

    def merged(self, inner: "Availability | None") -> "Availability":
        """This (an enclosing scope's) availability narrowed by an inner declaration's or guard's."""
        if inner is None:
            return self
        out = Availability(dict(self.introduced), set(self.unavailable) | inner.unavailable,
                           self.everywhere_unavailable or inner.everywhere_unavailable,
                           {**self.deprecated, **inner.deprecated})
        for p, v in inner.introduced.items():
            if p not in out.introduced or v > out.introduced[p]:
                out.introduced[p] = v
        return out

    def to_json(self):
        return [{p: list(v) for p, v in self.introduced.items()}, sorted(self.unavailable), self.everywhere_unavailable,
                {p: list(v) for p, v in self.deprecated.items()}]

    @staticmethod
    def from_json(j):
        return Availability({p: tuple(v) for p, v in j[0].items()}, set(j[1]), j[2],
                            {p: tuple(v) for p, v in (j[3] if len(j) > 3 else {}).items()})


def _vision_from_ios(v: tuple) -> tuple:
    """visionOS inherits iOS availability: iOS 17 is visionOS 1, iOS 18 visionOS 2, iOS 26 visionOS 26."""
    major = v[0] if v else 0
    if major >= 26:
        return v
    if major >= 17:
        return (major - 16,) + tuple(v[1:])
    return (1, 0, 0)


def parse_available(args: str) -> Availability | None:
    """`@available(...)` / `#available(...)` arguments; None for those that say nothing about Apple platforms'
    versions (`swift 5.9`, `*, deprecated`)."""
    items = [a.strip() for a in re.split(r",(?![^()]*\))", args) if a.strip()]
    if not items:
        return None
    a = Availability()
    first = items[0].split()
    long_form = len(first) == 1 and first[0] in (set(PLATFORM_NAMES) | {"*"}) and len(items) > 1 and \
        re.match(r"(introduced|deprecated|obsoleted|unavailable|message|renamed|noasync)\b", items[1])
    if long_form:
        platform = PLATFORM_NAMES.get(first[0])
        rest = items[1:]
        if any(r == "unavailable" for r in rest):
            if first[0] == "*":
                a.everywhere_unavailable = True
            elif platform:
                a.unavailable.add(platform)
        for r in rest:
            m = re.match(r"introduced\s*:\s*([\d.]+)", r)
            if m and platform:
                a.introduced[platform] = parse_version(m.group(1))
            m = re.match(r"deprecated\s*:\s*([\d.]+)", r)
            if m and platform:
                a.deprecated[platform] = parse_version(m.group(1))
            elif r == "deprecated" and platform:
                a.deprecated[platform] = (0, 0, 0)
    else:
        for item in items:
            m = re.match(r"(\w+)\s+([\d.]+)$", item)
            if m and m.group(1) in PLATFORM_NAMES:
                a.introduced[PLATFORM_NAMES[m.group(1)]] = parse_version(m.group(2))
    if "visionos" not in a.introduced and "ios" in a.introduced:
        a.introduced["visionos"] = _vision_from_ios(a.introduced["ios"])
    if "ios" in a.unavailable:
        a.unavailable.add("visionos")
    if not a.introduced and not a.unavailable and not a.everywhere_unavailable and not a.deprecated:
        return None
    return a


@dataclass
class Param:
    label: str          # "_" when unlabeled
    has_default: bool
    variadic: bool


@dataclass
class Decl:
    kind: str               # func, init, subscript, var, let, case, typealias, associatedtype, or a TYPE_KINDS keyword
    name: str
    context: str            # the enclosing type's (or extended type's) last name component; "" at file level
    params: list[Param] | None
    availability: Availability
    access: str             # public, open, internal, ...
    spi: bool
    line: int
    is_static: bool = False
    context_kind: str = ""  # struct, class, enum, protocol, actor, extension, ""
    path: str = ""          # the enclosing types' dotted names ("P256.Signing"); "" at file level
    attributes: tuple = ()  # the declaration's attribute names without arguments ("@MainActor", "@preconcurrency")
    inherits: tuple = ()    # a type's or extension's inheritance clause, each as written ("Sendable", "Swift.Sendable")
    modifiers: tuple = ()   # "nonisolated", "static", ...
    framework: bool = False  # declared by a module with an Apple framework's name (check-availability)

    @property
    def labels(self) -> tuple | None:
        return None if self.params is None else tuple(p.label for p in self.params)

    def signature(self) -> str:
        base = (self.context + "." if self.context else "") + self.name
        if self.params is not None:
            base += "(" + "".join(p.label + ":" for p in self.params) + ")"
        return base

    def to_json(self):
        return [self.kind, self.name, self.context,
                None if self.params is None else [[p.label, p.has_default, p.variadic] for p in self.params],
                self.availability.to_json(), self.access, self.spi, self.line, self.is_static, self.context_kind,
                self.path, list(self.attributes), list(self.inherits), list(self.modifiers)]

    @staticmethod
    def from_json(j):
        return Decl(j[0], j[1], j[2], None if j[3] is None else [Param(*p) for p in j[3]],
                    Availability.from_json(j[4]), j[5], j[6], j[7], j[8], j[9],
                    j[10] if len(j) > 10 else "", tuple(j[11]) if len(j) > 11 else (),
                    tuple(j[12]) if len(j) > 12 else (), tuple(j[13]) if len(j) > 13 else ())

    @property
    def qualified(self) -> str:
        """"P256.Signing.PrivateKey.init", "kSecClass", "LAContext.evaluatePolicy"."""
        return f"{self.path}.{self.name}" if self.path else self.name


def parameters(tokens: list[Token], open_paren: int, subscript: bool = False) -> tuple[list[Param], int]:
    """The parameters of a declaration's `(...)` at `open_paren`, and the index of its `)`."""
    ranges, close = split_arguments(tokens, open_paren)
    params: list[Param] = []
    for start, end in ranges:
        part = tokens[start:end]
        colon = next((k for k, x in enumerate(part) if x.kind == "punct" and x.text == ":"), None)
        names = [x.text for x in part[:colon]] if colon is not None else []
        names = [n for n in names if n not in ("isolated", "sending", "inout", "borrowing", "consuming")]
        if len(names) >= 2:
            label = names[0]
        elif len(names) == 1:
            label = "_" if subscript else names[0]
        else:
            label = "_"
        depth, has_default = 0, False
        for x in part:
            if x.kind == "punct" and x.text in "([{<":
                depth += 1
            elif x.kind == "punct" and x.text in ")]}>":
                depth -= 1
            elif x.kind == "punct" and x.text == "=" and depth == 0:
                has_default = True
        variadic = "..." in "".join(x.text for x in (part[colon + 1:] if colon is not None else part))
        params.append(Param(label, has_default, variadic))
    return params, close

def _skip_generic(tokens, i):
    """Index after a `<...>` generic clause starting at `i` (if any)."""
    if i < len(tokens) and tokens[i].text == "<":
        depth = 0
        for j in range(i, len(tokens)):
            if tokens[j].text == "<":
                depth += 1
            elif tokens[j].text == ">" and tokens[j - 1].text != "-":
                depth -= 1
                if depth == 0:
                    return j + 1
    return i


def _inheritance(tokens, j, end) -> tuple:
    """The inheritance clause after a type's or extension's name (`: A, @unchecked B` up to `where` or `{`)."""
    if j >= end or tokens[j].text != ":":
        return ()
    items, current, depth = [], [], 0
    for k in range(j + 1, end):
        x = tokens[k]
        if x.text in ("<", "(", "["):
            depth += 1
        elif x.text in (">", ")", "]"):
            depth -= 1
        if depth == 0 and (x.text == "where" or x.text == "{"):
            break
        if depth == 0 and x.text == ",":
            items.append("".join(current))
            current = []
            continue
        current.append(x.text if not current or x.text in (".", "<", ">") or current[-1] in (".", "<", "@unchecked")
                       and current[-1] != "@unchecked" else " " + x.text)
    if current:
        items.append("".join(current))
    return tuple(i.strip() for i in items if i.strip())


def declarations(tokens: list[Token], extensions: bool = False) -> list[Decl]:
    """Declarations at file level and in type/extension bodies (see the module's docstring); with `extensions`, each
    extension too (kind "extension", its extended type's whole dotted name, its inheritance clause)."""
    out: list[Decl] = []
    n = len(tokens)
    # Stack of type/extension bodies: (close index, kind, context name, context kind, availability, access, path).
    stack: list[tuple[int, str, str, str, Availability, str, str]] = []
    top_availability = Availability()
    pending: Availability | None = None
    spi = False
    access = ""
    is_static = False
    attrs: list[str] = []
    mods: list[str] = []
    i = 0
    while i < n:
        while stack and i > stack[-1][0]:
            stack.pop()
        t = tokens[i]
        scope = stack[-1] if stack else (n, "type", "", "", top_availability, "", "")
        if t.kind == "directive":
            i += 1
            continue
        if t.kind == "punct":
            if t.text == "{":   # a body (or closure) not opened by a declaration header: skipped
                i = matching_close(tokens, i) + 1
                pending, spi, access, is_static, attrs, mods = None, False, "", False, [], []
                continue
            i += 1
            continue
        if t.kind != "ident":
            i += 1
            continue
        word = t.text
        if word.startswith("@"):
            attrs.append(word)
            j = i + 1
            if j < n and tokens[j].text == "(" and not tokens[j].space_before:
                close = matching_close(tokens, j)
                if word == "@available":
                    args = " ".join(x.text for x in tokens[j + 1:close])
                    args = re.sub(r"\s*\.\s*", ".", args)
                    parsed = parse_available(args)
                    if parsed is not None:
                        pending = parsed if pending is None else pending.merged(parsed)
                elif word == "@_spi":
                    spi = True
                i = close + 1
            else:
                i += 1
            continue
        if word in MODIFIERS and i + 1 < n and tokens[i + 1].kind == "ident":
            mods.append(word)
            if word in ACCESS:
                access = word
            if word == "static" or (word == "class" and tokens[i + 1].text in DECL_KEYWORDS):
                is_static = True
            i += 1
            continue
        if word == "class" and i + 1 < n and tokens[i + 1].text in DECL_KEYWORDS | MODIFIERS:
            is_static = True
            i += 1
            continue
        if word not in DECL_KEYWORDS or (i > 0 and tokens[i - 1].text == "."):
            i += 1
            continue
        availability = scope[4].merged(pending)
        default_access = scope[5] if scope[3] in ("protocol", "extension") or word == "case" else "internal"
        decl_access = access or (default_access if scope[2] else "internal")
        header_end = _header_end(tokens, i)
        if word in TYPE_KEYWORDS:
            name_tokens = []
            j = i + 1
            while j < n and tokens[j].kind == "ident":
                name_tokens.append(tokens[j].text)
                if j + 2 < n and tokens[j + 1].text == "." and tokens[j + 2].kind == "ident":
                    j += 2
                else:
                    break
            name = name_tokens[-1] if name_tokens else "?"
            after_name = _skip_generic(tokens, j + 1) if name_tokens else j
            inherits = _inheritance(tokens, after_name, header_end)
            if word != "extension":
                out.append(Decl(word, name, scope[2], None, availability, decl_access, spi, t.line,
                                context_kind=scope[3], path=scope[6], attributes=tuple(attrs), inherits=inherits,
                                modifiers=tuple(mods)))
                path = f"{scope[6]}.{name}" if scope[6] else name
            else:
                while len(name_tokens) > 1 and name_tokens[0] in MODULE_PREFIXES:
                    name_tokens = name_tokens[1:]
                path = ".".join(name_tokens)
                if extensions:
                    out.append(Decl("extension", path, scope[2], None, availability, access, spi, t.line,
                                    context_kind=scope[3], path="", attributes=tuple(attrs), inherits=inherits,
                                    modifiers=tuple(mods)))
            body = header_end if header_end < n and tokens[header_end].text == "{" else None
            if body is not None:
                close = matching_close(tokens, body)
                scope_access = access if word == "extension" else decl_access
                stack.append((close, "type", name, word, availability, scope_access, path))
                i = body + 1
            else:
                i = header_end
        else:
            if word not in ("import", "operator", "precedencegroup", "deinit"):
                for d in _member(tokens, i, word, scope, availability, decl_access, spi, is_static, header_end):
                    d.path, d.attributes, d.modifiers = scope[6], tuple(attrs), tuple(mods)
                    out.append(d)
            if header_end < n and tokens[header_end].text == "{":   # the body (or accessors): skipped
                i = matching_close(tokens, header_end) + 1
            else:
                i = max(header_end, i + 1)
        pending, spi, access, is_static, attrs, mods = None, False, "", False, [], []
    return out


def _header_end(tokens, i):
    """Index of the `{` opening the declaration's body, or of the first token after its header."""
    depth = 0
    n = len(tokens)
    j = i + 1
    while j < n:
        t = tokens[j]
        if t.kind == "punct" and t.text in "([":
            depth += 1
        elif t.kind == "punct" and t.text in ")]":
            depth -= 1
        elif depth == 0:
            if t.kind == "punct" and t.text == "{":
                return j
            if t.kind == "punct" and t.text == "}":
                return j
            if t.newline_before and t.kind in ("ident", "directive") and \
                    (t.text in DECL_KEYWORDS or t.text in MODIFIERS or t.text.startswith("@") or t.kind == "directive"):
                return j
            if t.kind == "punct" and t.text == "=" and tokens[i].text in ("var", "let", "typealias", "case"):
                # An initial value or an aliased type: skip to the end of the line at depth 0.
                k = j + 1
                d = 0
                while k < n:
                    x = tokens[k]
                    if x.kind == "punct" and x.text in "([{":
                        d += 1
                    elif x.kind == "punct" and x.text in ")]}":
                        if d == 0:
                            return k
                        d -= 1
                    elif d == 0 and x.newline_before:
                        return k
                    k += 1
                return k
        j += 1
    return n


def _member(tokens, i, word, scope, availability, access, spi, is_static, header_end):
    context, context_kind = scope[2], scope[3]
    line = tokens[i].line
    if word in ("func", "macro"):
        name_tok = tokens[i + 1] if i + 1 < len(tokens) else None
        if name_tok is None or name_tok.kind != "ident":
            return []   # an operator
        j = _skip_generic(tokens, i + 2)
        if j < len(tokens) and tokens[j].text == "(":
            params, _ = parameters(tokens, j)
        else:
            params = []
        return [Decl("func", name_tok.text, context, params, availability, access, spi, line, is_static, context_kind)]
    if word in ("init", "subscript"):
        j = i + 1
        while j < len(tokens) and tokens[j].text in ("?", "!"):
            j += 1
        j = _skip_generic(tokens, j)
        params = parameters(tokens, j, subscript=word == "subscript")[0] if j < len(tokens) and tokens[j].text == "(" else []
        return [Decl(word, word, context, params, availability, access, spi, line, is_static, context_kind)]
    if word in ("var", "let"):
        names = []
        j = i + 1
        if j < len(tokens) and tokens[j].kind == "ident":
            names.append(tokens[j].text)
        return [Decl(word, nm, context, None, availability, access, spi, line, is_static, context_kind) for nm in names]
    if word == "case":
        out = []
        j = i + 1
        expect_name = True
        depth = 0
        while j < header_end:
            t = tokens[j]
            if t.kind == "punct" and t.text in "([":
                if depth == 0 and t.text == "(" and out:
                    params, close = parameters(tokens, j)
                    out[-1].params = params
                    j = close + 1
                    continue
                depth += 1
            elif t.kind == "punct" and t.text in ")]":
                depth -= 1
            elif depth == 0 and t.kind == "punct" and t.text == ",":
                expect_name = True
            elif depth == 0 and t.kind == "punct" and t.text == "=":
                expect_name = False
            elif depth == 0 and expect_name and t.kind == "ident":
                out.append(Decl("case", t.text, context, None, availability, access, spi, t.line, True, context_kind))
                expect_name = False
            j += 1
        return out
    if word in ("typealias", "associatedtype"):
        if i + 1 < len(tokens) and tokens[i + 1].kind == "ident":
            return [Decl(word, tokens[i + 1].text, context, None, availability, access, spi, line, True, context_kind)]
    return []
