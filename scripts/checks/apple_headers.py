"""Availability, isolation and Sendable facts read out of Apple's Objective-C headers (scripts/check-apple-facts.py
--sdk compares docs/apple-sdk/*.tsv with them). Stdlib only; a reader of the headers' declaration shapes, not a C
parser:

- `extern` constants, C functions, `typedef`s, `NS_ENUM`/`NS_OPTIONS`/`CF_ENUM`/`CF_OPTIONS` constants (named in
  Swift by dropping the enum's name: `LAPolicyDeviceOwnerAuthentication` → `LAPolicy.deviceOwnerAuthentication`),
  `NS_TYPED_EXTENSIBLE_ENUM` string constants, Objective-C `@interface`/`@protocol` with their properties and methods
  (methods by their Swift base name: `NS_SWIFT_NAME`, else the selector's first piece);
- the availability macros: `API_AVAILABLE`, `API_UNAVAILABLE`, `API_DEPRECATED[_WITH_REPLACEMENT]`,
  `__OSX_AVAILABLE_STARTING`, `__OSX_AVAILABLE_BUT_DEPRECATED[_MSG]`, `__{OSX,IOS,TVOS,WATCHOS}_{AVAILABLE,UNAVAILABLE,
  PROHIBITED,DEPRECATED}`, `NS_/CF_ENUM_{AVAILABLE,DEPRECATED}`, `CF_AVAILABLE`, `NS_UNAVAILABLE`, and
  `#if TARGET_OS_OSX` / `TARGET_OS_IPHONE` regions (a declaration only one side compiles is unavailable on the other);
- `NS_SWIFT_UI_ACTOR` (main actor) and `NS_SWIFT_SENDABLE` / `NS_SWIFT_NONSENDABLE`.

A declaration's own macros apply; what it does not say comes from its enclosing `@interface`/enum; a platform nothing
mentions is inferred as Clang does: Mac Catalyst, tvOS and visionOS from iOS, watchOS from iOS (version − 7, at
least 2.0); with no iOS either, available.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

PLATFORMS = ("macos", "ios", "maccatalyst", "tvos", "watchos", "visionos")
MACRO_PLATFORMS = {"macos": "macos", "macosx": "macos", "macOS": "macos", "ios": "ios", "iOS": "ios",
                   "macCatalyst": "maccatalyst", "maccatalyst": "maccatalyst", "tvos": "tvos", "tvOS": "tvos",
                   "watchos": "watchos", "watchOS": "watchos", "visionos": "visionos", "xros": "visionos",
                   "visionOS": "visionos", "bridgeos": None, "driverkit": None}
UNAVAILABLE = "unavailable"


@dataclass
class Facts:
    """Per platform: (introduced, deprecated) versions as strings ("" when not stated), or UNAVAILABLE."""
    platforms: dict[str, object] = field(default_factory=dict)
    main_actor: bool = False
    sendable: bool | None = None
    source: str = ""

    def merged_over(self, outer: "Facts | None") -> "Facts":
        """These facts with what they leave unsaid taken from the enclosing declaration's."""
        if outer is None:
            return self
        out = Facts(dict(outer.platforms), self.main_actor or outer.main_actor, self.sendable, self.source)
        for p, v in self.platforms.items():
            out.platforms[p] = v
        return out


def _version(text: str) -> str:
    text = text.strip().replace("_", ".")
    parts = [p for p in text.split(".") if p.isdigit()]
    while len(parts) > 1 and parts[-1] == "0" and len(parts) > 2:
        parts.pop()
    return ".".join(parts)


def _mac_constant(text: str) -> str | None:
    """`__MAC_10_6` / `__IPHONE_2_0` → "10.6" / "2.0"; `..._NA` → None."""
    m = re.match(r"__(?:MAC|IPHONE|TVOS|WATCHOS)_(\w+)$", text.strip())
    if not m or m.group(1) == "NA":
        return None
    return _version(m.group(1))


def _split_args(text: str) -> list[str]:
    out, depth, current = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


MACRO = re.compile(r"\b(API_AVAILABLE|API_UNAVAILABLE|API_DEPRECATED_WITH_REPLACEMENT|API_DEPRECATED|__API_DEPRECATED|"
                   r"API_AVAILABLE_BEGIN|AS_API_AVAILABLE|"
                   r"__OSX_AVAILABLE_STARTING|__OSX_AVAILABLE_BUT_DEPRECATED_MSG|__OSX_AVAILABLE_BUT_DEPRECATED|"
                   r"__(?:OSX|IOS|TVOS|WATCHOS)_(?:AVAILABLE|UNAVAILABLE|PROHIBITED|DEPRECATED)|"
                   r"(?:NS|CF)_ENUM_AVAILABLE|(?:NS|CF)_ENUM_DEPRECATED|CF_AVAILABLE|NS_AVAILABLE|NS_UNAVAILABLE|"
                   r"NS_SWIFT_UI_ACTOR|NS_SWIFT_SENDABLE|NS_SWIFT_NONSENDABLE)\b(\s*\()?")


def _balanced(text: str, open_index: int) -> tuple[str, int]:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[open_index + 1:i], i + 1
    return text[open_index + 1:], len(text)


def availability_in(text: str) -> Facts:
    """The facts the macros in a piece of declaration text state (nothing inferred)."""
    facts = Facts()
    pos = 0
    while True:
        m = MACRO.search(text, pos)
        if not m:
            break
        name = m.group(1)
        args = ""
        pos = m.end()
        if m.group(2):
            args, pos = _balanced(text, m.end() - 1)
        _apply(facts, name, args)
    return facts


def _set(facts: Facts, platform: str | None, introduced: str | None = "", deprecated: str = ""):
    if platform is None:
        return
    if introduced is None:
        facts.platforms[platform] = UNAVAILABLE
        return
    facts.platforms[platform] = (introduced, deprecated)


def _apply(facts: Facts, name: str, args: str) -> None:
    items = _split_args(args)
    if name in ("API_AVAILABLE", "AS_API_AVAILABLE", "API_AVAILABLE_BEGIN"):
        for item in items:
            m = re.match(r"(\w+)\s*\(\s*(NA|[\d._]+)\s*\)", item)
            if m and m.group(1) in MACRO_PLATFORMS:
                _set(facts, MACRO_PLATFORMS[m.group(1)], None if m.group(2) == "NA" else _version(m.group(2)))
    elif name == "API_UNAVAILABLE":
        for item in items:
            if item in MACRO_PLATFORMS:
                _set(facts, MACRO_PLATFORMS[item], None)
    elif name in ("API_DEPRECATED", "API_DEPRECATED_WITH_REPLACEMENT", "__API_DEPRECATED"):
        for item in items[1:]:
            m = re.match(r"(\w+)\s*\(\s*([\d._]+|NA)\s*,\s*([\d._]+|NA)\s*\)", item)
            if m and m.group(1) in MACRO_PLATFORMS:
                if m.group(2) == "NA":
                    _set(facts, MACRO_PLATFORMS[m.group(1)], None)
                else:
                    _set(facts, MACRO_PLATFORMS[m.group(1)], _version(m.group(2)), _version(m.group(3)))
    elif name == "__OSX_AVAILABLE_STARTING" and len(items) >= 2:
        for platform, value in (("macos", items[0]), ("ios", items[1])):
            v = _mac_constant(value)
            _set(facts, platform, v)
    elif name.startswith("__OSX_AVAILABLE_BUT_DEPRECATED") and len(items) >= 4:
        for platform, intro, dep in (("macos", items[0], items[1]), ("ios", items[2], items[3])):
            v = _mac_constant(intro)
            _set(facts, platform, v, (_mac_constant(dep) or "") if v else "")
    elif m := re.match(r"__(OSX|IOS|TVOS|WATCHOS)_(AVAILABLE|UNAVAILABLE|PROHIBITED|DEPRECATED)$", name):
        platform = {"OSX": "macos", "IOS": "ios", "TVOS": "tvos", "WATCHOS": "watchos"}[m.group(1)]
        if m.group(2) in ("UNAVAILABLE", "PROHIBITED"):
            _set(facts, platform, None)
        elif m.group(2) == "AVAILABLE" and items:
            _set(facts, platform, _version(items[0]))
        elif m.group(2) == "DEPRECATED" and len(items) >= 2:
            _set(facts, platform, _version(items[0]), _version(items[1]))
    elif name in ("NS_ENUM_AVAILABLE", "CF_ENUM_AVAILABLE", "CF_AVAILABLE", "NS_AVAILABLE") and len(items) >= 2:
        for platform, value in (("macos", items[0]), ("ios", items[1])):
            _set(facts, platform, None if value.strip() == "NA" else _version(value))
    elif name in ("NS_ENUM_DEPRECATED", "CF_ENUM_DEPRECATED") and len(items) >= 4:
        for platform, intro, dep in (("macos", items[0], items[1]), ("ios", items[2], items[3])):
            _set(facts, platform, None if intro.strip() == "NA" else _version(intro), _version(dep))
    elif name == "NS_UNAVAILABLE":
        for p in PLATFORMS:
            _set(facts, p, None)
    elif name == "NS_SWIFT_UI_ACTOR":
        facts.main_actor = True
    elif name == "NS_SWIFT_SENDABLE":
        facts.sendable = True
    elif name == "NS_SWIFT_NONSENDABLE":
        facts.sendable = False


def inferred(facts: Facts) -> dict[str, object]:
    """Every platform's availability, with Clang's inference for the ones the macros leave unsaid."""
    out = dict(facts.platforms)
    ios = out.get("ios")
    for platform in ("maccatalyst", "tvos", "visionos", "watchos"):
        if platform in out or ios is None:
            continue
        if ios == UNAVAILABLE:
            out[platform] = UNAVAILABLE
        elif platform == "watchos":
            intro, dep = ios
            out[platform] = (_shift(intro, -7, 2), _shift(dep, -7, 2) if dep else "")
        elif platform == "visionos":
            intro, dep = ios
            major = int(intro.split(".")[0]) if intro else 0
            out[platform] = ("1.0" if major < 18 else intro if major >= 26 else _shift(intro, -16, 1), "")
        else:
            out[platform] = ios
    for platform in PLATFORMS:
        out.setdefault(platform, ("", ""))
    return out


def _shift(version: str, by: int, minimum: int) -> str:
    if not version:
        return ""
    parts = version.split(".")
    major = int(parts[0]) + by
    if major < minimum:
        return f"{minimum}.0"
    return ".".join([str(major)] + parts[1:])


# --- Reading a header ------------------------------------------------------------------------------------------

def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _conditional_platforms(lines: list[str]) -> list[str | None]:
    """For each line, "macos" when only macOS compiles it, "ios" when only the iPhone-family SDKs do, else None."""
    stack: list[str | None] = []
    out = []
    for line in lines:
        s = line.strip()
        if s.startswith("#if") or s.startswith("#ifdef") or s.startswith("#ifndef"):
            cond = s
            if re.search(r"TARGET_OS_OSX\b|!\s*TARGET_OS_IPHONE\b|TARGET_OS_MAC\s*&&\s*!\s*TARGET_OS_IPHONE", cond) \
                    and not re.search(r"\|\|", cond):
                stack.append("macos")
            elif re.search(r"(?<!!)\bTARGET_OS_IPHONE\b|(?<!!)\bTARGET_OS_IOS\b", cond) and not re.search(r"\|\|", cond):
                stack.append("ios")
            else:
                stack.append(None)
        elif s.startswith("#else") and stack:
            top = stack.pop()
            stack.append({"macos": "ios", "ios": "macos"}.get(top) if top else None)
        elif s.startswith("#elif") and stack:
            stack[-1] = None
        elif s.startswith("#endif") and stack:
            stack.pop()
        current = next((x for x in reversed(stack) if x), None)
        out.append(current)
    return out


@dataclass
class HeaderDecl:
    name: str           # Swift-facing name: "kSecAttrAccessGroup", "LAContext", "LAContext.interactionNotAllowed"
    kind: str           # constant, function, type, class, protocol, property, method, case
    facts: Facts
    enum: str = ""      # a case's enum


def _words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+|^k", name)


def _common_prefix(names: list[str]) -> str:
    """The words every constant of an enum starts with (Swift drops them from the case names)."""
    if len(names) < 2:
        return ""
    split = [_words(n) for n in names]
    prefix = []
    for group in zip(*split):
        if len(set(group)) != 1:
            break
        prefix.append(group[0])
    if any(len(w) == len(prefix) for w in split):
        prefix = prefix[:-1]
    return "".join(prefix)


def _lower_first(rest: str) -> str:
    m = re.match(r"([A-Z]+)(?=[A-Z][a-z]|\d|$)", rest)
    if m and len(m.group(1)) > 1:
        head = m.group(1)
        return head.lower() + rest[len(head):]
    return rest[0].lower() + rest[1:] if rest else rest


def _swift_case(enum: str, constant: str) -> str | None:
    if not constant.startswith(enum) or len(constant) == len(enum):
        return None
    rest = constant[len(enum):]
    m = re.match(r"([A-Z]+)(?=[A-Z][a-z]|$)", rest)
    if m and len(m.group(1)) > 1:
        head = m.group(1)
        return head.lower() + rest[len(head):] if len(head) == len(rest) else head[:-1].lower() + rest[len(head) - 1:] \
            if rest[len(head):len(head) + 1].islower() else head.lower() + rest[len(head):]
    return rest[0].lower() + rest[1:]


def read_header(path: str) -> list[HeaderDecl]:
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    text = _strip_comments(raw)
    lines = text.split("\n")
    regions = _conditional_platforms(lines)
    decls: list[HeaderDecl] = []
    source = os.path.basename(path)
    # Statements: split on ';' '{' '}' and '@end', keeping each piece's first line for its #if region.
    pieces = []
    buf, start_line = "", 0
    for number, line in enumerate(lines):
        if line.strip().startswith("#"):
            m = re.match(r"\s*#\s*define\s+(k?[A-Z][A-Za-z0-9_]*)\s+[-(\w\"]", line)
            if m and not m.group(1).startswith("_") and not m.group(1).endswith("_H"):
                decls.append(HeaderDecl(m.group(1), "constant", Facts(source=os.path.basename(path))))
            continue
        # Objective-C keywords and method lines start statements of their own.
        line = re.sub(r"(@interface|@protocol|@end|@property|@optional|@required)\b", "\x00\\1", line)
        line = re.sub(r"@end\b", "@end\x00", line)
        line = re.sub(r"^(\s*)([-+]\s*\()", "\\1\x00\\2", line)
        for ch in line + "\n":
            if ch == "\x00":
                if buf.strip():
                    pieces.append((buf, start_line))
                buf = ""
                continue
            if not buf.strip():
                start_line = number
            buf += ch
            if ch in ";{}":
                pieces.append((buf, start_line))
                buf = ""
    container: tuple[str, str, Facts] | None = None   # (kind, name, facts) of an @interface/@protocol/enum body
    pending = ""     # macros before an @interface/@protocol line belong to it
    closed_enum: str | None = None   # an enum whose `}` was the last piece: its macros follow
    outer = None     # the container an enum body interrupts (enums may sit inside an @interface)
    for piece, line_no in pieces:
        region = regions[line_no] if line_no < len(regions) else None
        stripped = piece.strip()
        if not stripped:
            continue
        if closed_enum is not None:
            enum_name, closed_enum = closed_enum, None
            enum_facts = availability_in(stripped)
            enum_facts.source = os.path.basename(path)
            if region == "macos":
                for p in PLATFORMS:
                    if p != "macos":
                        enum_facts.platforms[p] = UNAVAILABLE
            if enum_name:
                raw = [d for d in decls if d.kind == "case" and "." not in d.name and d.enum == enum_name]
                prefix = _common_prefix([d.name for d in raw])
                for d in raw:
                    if prefix and d.name.startswith(prefix) and len(d.name) > len(prefix):
                        d.name = f"{enum_name}.{_lower_first(d.name[len(prefix):])}"
                decls.append(HeaderDecl(enum_name, "type", enum_facts))
                for d in decls:
                    if d.kind == "case" and d.name.startswith(enum_name + "."):
                        d.facts = d.facts.merged_over(enum_facts)
            if re.fullmatch(r"[\s\w(),._\"]*;", stripped):
                continue

        def facts_of(fragment: str) -> Facts:
            f = availability_in(fragment)
            if region == "macos":
                for p in PLATFORMS:
                    if p != "macos":
                        f.platforms[p] = UNAVAILABLE
            elif region == "ios":
                f.platforms.setdefault("macos", UNAVAILABLE)
            f.source = source
            return f

        iface = re.search(r"@(interface|protocol)\s+(\w+)(\s*\(\s*\w*\s*\))?", stripped)
        if iface and not stripped.endswith(";"):
            kind = "class" if iface.group(1) == "interface" else "protocol"
            f = facts_of(pending + stripped[:iface.start()] + stripped[iface.end():])
            name = iface.group(2)
            if iface.group(3) is None:   # a category adds members to a class declared elsewhere
                decls.append(HeaderDecl(name, kind, f))
                container = (kind, name, f)
            else:
                container = ("category", name, f)
            pending = ""
            # Members on the same piece (e.g. "@interface X : NSObject\n@property ...;")
            rest = stripped[iface.end():]
            if "@property" in rest or re.search(r"^\s*[-+]\s*\(", rest, re.M):
                stripped = rest[rest.find("@property") if "@property" in rest else re.search(r"^\s*[-+]\s*\(", rest, re.M).start():]
            else:
                continue
        if stripped.startswith(("@optional", "@required")):
            stripped = stripped.split(None, 1)[1] if len(stripped.split(None, 1)) > 1 else ""
            if not stripped:
                continue
        if re.search(r"@end\b", stripped):
            container = None
            pending = ""
            continue
        enum = re.search(r"typedef\s+(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)\s*\(\s*[\w ]+,\s*(\w+)\s*\)", stripped)
        anon = re.search(r"\b(?:CF|NS)_ENUM\s*\(\s*[\w ]+\s*\)\s*\{?$", stripped) or re.match(r"enum\s*\{$", stripped)
        if enum or anon:
            outer = container
            container = ("enum", enum.group(1) if enum else "", Facts())
            continue
        if container and container[0] == "enum":
            body, _, tail = stripped.partition("}")
            for item in _split_args(body.rstrip("{").rstrip(";")):
                m = re.match(r"(\w+)", item)
                if not m:
                    continue
                constant = m.group(1)
                f = facts_of(item)
                swift = _swift_case(container[1], constant) if container[1] else None
                decls.append(HeaderDecl(f"{container[1]}.{swift}" if swift else constant, "case", f, container[1]))
            if "}" in stripped:
                closed_enum = container[1]
                container = outer
            continue
        if container and container[0] in ("class", "protocol", "category"):
            member = _objc_member(stripped)
            if member:
                f = facts_of(stripped).merged_over(container[2])
                decls.append(HeaderDecl(f"{container[1]}.{member[1]}", member[0], f))
                labeled = re.search(r"NS_SWIFT_NAME\s*\(\s*(\w+\([\w:]*\))\s*\)", stripped)
                if labeled:  # also by its labels: `performRequests(options:)` is not `performRequests()`
                    decls.append(HeaderDecl(f"{container[1]}.{labeled.group(1)}", member[0], f))
            continue
        if stripped.startswith(("@class", "@import", "#")):
            continue
        if not re.sub(MACRO_CALL, "", stripped).strip() or stripped in ("{", "}"):
            pending += " " + stripped
            continue
        decl = _c_decl(stripped)
        if decl:
            decls.append(HeaderDecl(decl[1], decl[0], facts_of(pending + " " + stripped)))
        pending = ""
    return decls


def _objc_member(text: str) -> tuple[str, str] | None:
    swift = re.search(r"NS_SWIFT_NAME\s*\(\s*([\w.]+)\s*[(\s)]", text)
    if text.startswith("@property"):
        body = re.sub(r"\b(API|NS|AS|CF|__)\w*\s*(\([^()]*(\([^()]*\)[^()]*)*\))?", " ", text)
        m = re.search(r"(\w+)\s*;?\s*$", body.strip().rstrip(";").strip())
        names = re.findall(r"\*?\s*(\w+)\s*$", body.strip().rstrip(";").strip())
        name = swift.group(1) if swift else (names[-1] if names else None)
        return ("property", name) if name else None
    m = re.match(r"[-+]\s*\([^)]*\)\s*(\w+)", text)
    if m:
        name = swift.group(1) if swift else m.group(1)
        if not swift:
            name = re.sub(r"With[A-Z]\w*$", "", name) if name.startswith("init") else name
        return ("method", name)
    return None


# A macro (with its arguments) in a declaration: API_AVAILABLE(...), NS_SWIFT_NAME(...), __nullable, AS_EXTERN,
# _DC_EXPORT...
MACRO_CALL = r"(?:\b(?:API|NS|CF|AS|SEC|LA)_\w+|\b__\w+|\b_DC_\w+)\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?"


def _c_decl(text: str) -> tuple[str, str] | None:
    text = re.sub(r"\s+", " ", text).strip().rstrip(";")
    if re.search(r"\btypedef\b", text):
        text = text[re.search(r"\btypedef\b", text).start():]
        bare = re.sub(MACRO_CALL, " ", text).strip()
        m = re.search(r"(\w+)\s*$", bare)
        if not m:
            return None
        name = m.group(1)
        return ("type", name[:-3] if name.endswith("Ref") and name.startswith(("Sec", "CF")) else name)
    extern = re.search(r"\b(extern|AS_EXTERN|SEC_EXTERN|LA_EXTERN|FOUNDATION_EXPORT|CF_EXPORT)\b", text)
    bare = re.sub(MACRO_CALL, " ", text)
    fn = re.search(r"\b([A-Za-z_]\w*)\s*\(", bare)
    if fn and fn.group(1) not in ("sizeof",):
        return ("function", fn.group(1))
    if extern:
        names = re.findall(r"(\w+)\s*$", bare.strip())
        if names:
            return ("constant", names[-1])
    return None


def read_framework(headers_dir: str) -> dict[str, HeaderDecl]:
    """Every declaration of a framework's headers by name (the first one seen wins)."""
    out: dict[str, HeaderDecl] = {}
    for name in sorted(os.listdir(headers_dir)):
        if name.endswith(".h"):
            for d in read_header(os.path.join(headers_dir, name)):
                out.setdefault(d.name, d)
    return out


# --- A Swift name's declaration in the headers -----------------------------------------------------------------

def swift_candidates(symbol: str):
    """Header names a Swift declaration of the tables may have (`LAError.Code.userCancel` → `LAError.userCancel`,
    `ASAuthorization.Scope.fullName` → `ASAuthorizationScopeFullName`, a class member → its protocol's...)."""
    q = symbol.split("(")[0]
    if "(" in symbol:
        yield symbol
    yield q
    yield q.replace(".Code.", ".")
    if q.endswith(".Code"):
        yield q[:-5]
    yield q.replace(".", "")
    parts = q.split(".")
    if len(parts) > 1 and parts[-1] not in ("init", "rawValue"):
        container, member = ".".join(parts[:-1]), parts[-1]
        yield parts[0] + "." + member
        yield parts[0] + member[:1].upper() + member[1:]
        yield container + member[:1].upper() + member[1:]
        flat = container.replace(".", "")
        yield flat + member[:1].upper() + member[1:]
        if member.startswith("operation"):
            yield flat + member[len("operation"):]
        yield flat + "." + member
        for kind in ("Platform", "SecurityKey"):
            if kind in container:
                yield container.replace(kind, "") + "." + member
        for protocol in ("ASPublicKeyCredential", "ASAuthorizationCredential", "ASAuthorizationRequest"):
            yield f"{protocol}.{member}"


def sdk_facts(headers: list[str]) -> dict[str, HeaderDecl]:
    """Every declaration of the given header folders by name, string-enum constants also by their Swift name
    (`kSecKeyAlgorithmRSASignatureRaw` is `SecKeyAlgorithm.rsaSignatureRaw`)."""
    out: dict[str, HeaderDecl] = {}
    for folder in headers:
        for k, v in read_framework(folder).items():
            out.setdefault(k, v)
    types = [k for k, v in out.items() if v.kind == "type"]
    for k, v in list(out.items()):
        if v.kind == "constant" and k.startswith("k"):
            for t in types:
                if k.startswith("k" + t) and len(k) > len(t) + 1:
                    out.setdefault(f"{t}.{_lower_first(k[len(t) + 1:])}", v)
    return out
