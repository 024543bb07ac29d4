"""Apple's SDK facts about the Linux modules with Apple's names, as data (docs/apple-sdk/<Module>.tsv), and how a
Swift declaration's own attributes compare with them (scripts/check-apple-facts.py; scripts/check-availability.py
reads the same annotations). Stdlib only.

A row: `symbol<TAB>macOS<TAB>iOS<TAB>macCatalyst<TAB>tvOS<TAB>watchOS<TAB>visionOS<TAB>isolation<TAB>sendable<TAB>source`.
- symbol: the Swift name as the Linux module declares it, members qualified by their type (`LAContext`,
  `LAContext.interactionNotAllowed`, `LAError.Code.userCancel`, `kSecAttrAccount`, `SecItemAdd`); a conformance
  whose availability is its own is `Type: Protocol` (`CryptoKitError: Hashable`).
- each platform: `*` available (at a version at or below the platform's first, or never stated), a version
  (`11.0`: introduced), `intro~deprecated` (`8.0~11.0`, `*~18.0`), or `-` unavailable. Values are as the SDK
  states them after Clang's inference (Mac Catalyst, tvOS and visionOS from iOS, watchOS from iOS − 7); a member
  with no row of its own has its type's.
- isolation: `main` when the SDK isolates it to the main actor (`NS_SWIFT_UI_ACTOR`, `@MainActor`), else empty.
- sendable: for types, `yes` or `no` (Sendable in the SDK or not), or the iOS SDK version that first declares it
  Sendable (`18.4`: not in the older SDKs the package admits; the Linux module, as the newest, is Sendable); empty for
  other declarations.
- source: the header or interface and the SDK version the row was read from.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

PLATFORMS = ("macos", "ios", "maccatalyst", "tvos", "watchos", "visionos")
COLUMNS = ("macOS", "iOS", "macCatalyst", "tvOS", "watchOS", "visionOS")
# A version at or below these is the platform's first: written `*`.
FIRST = {"macos": (10, 0), "ios": (2, 0), "maccatalyst": (13, 1), "tvos": (9, 0), "watchos": (2, 0),
         "visionos": (1, 0)}
MODULES = ("Security", "LocalAuthentication", "CryptoKit", "CommonCrypto", "AuthenticationServices", "DeviceCheck")


def vtuple(text: str) -> tuple:
    return tuple(int(p) for p in text.split(".")) if text else ()


def vtext(v: tuple) -> str:
    parts = list(v)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    if len(parts) == 1:
        parts.append(0)
    return ".".join(map(str, parts))


@dataclass(frozen=True)
class Cell:
    """One platform's availability: unavailable, or introduced (None: the first version) and deprecated versions."""
    unavailable: bool = False
    introduced: tuple | None = None
    deprecated: tuple | None = None

    @staticmethod
    def parse(text: str, platform: str) -> "Cell":
        text = text.strip()
        if text == "-":
            return Cell(True)
        intro, _, dep = text.partition("~")
        return Cell.make(platform, None if intro in ("*", "") else vtuple(intro), vtuple(dep) if dep else None)

    @staticmethod
    def make(platform: str, introduced: tuple | None, deprecated: tuple | None = None) -> "Cell":
        if introduced is not None and introduced[:2] <= FIRST[platform]:
            introduced = None
        return Cell(False, introduced, deprecated)

    def text(self) -> str:
        if self.unavailable:
            return "-"
        out = vtext(self.introduced) if self.introduced else "*"
        return out + (f"~{vtext(self.deprecated)}" if self.deprecated else "")


@dataclass
class Row:
    symbol: str
    cells: dict[str, Cell]
    isolation: str
    sendable: str
    source: str
    line: int = 0

    @property
    def sendable_since(self) -> str:
        """The iOS SDK version from which the type is Sendable ("" when `yes` in every SDK, or not a type's row)."""
        return self.sendable if self.sendable[:1].isdigit() else ""

    def text(self) -> str:
        return "\t".join([self.symbol] + [self.cells[p].text() for p in PLATFORMS] +
                         [self.isolation, self.sendable, self.source])


ANYWHERE = {p: Cell() for p in PLATFORMS}


def read_table(path: str) -> list[Row]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 10:
                raise ValueError(f"{path}:{number}: {len(parts)} columns, not 10")
            cells = {p: Cell.parse(parts[1 + i], p) for i, p in enumerate(PLATFORMS)}
            if parts[7] not in ("", "main") or not re.fullmatch(r"|yes|no|\d+\.\d+", parts[8]):
                raise ValueError(f"{path}:{number}: isolation must be empty or `main`, sendable empty, yes, no or "
                                 f"an SDK version")
            rows.append(Row(parts[0], cells, parts[7], parts[8], parts[9], number))
    return rows


def table_path(root: str, module: str) -> str:
    return os.path.join(root, "docs", "apple-sdk", f"{module}.tsv")


# --- What a Swift declaration's attributes say, as Swift compiles it for each platform -----------------------

def swift_cells(availability) -> dict[str, Cell]:
    """A declaration's effective availability (swiftdecls' Availability, already merged with its enclosing
    scopes') per platform, with Swift's inference: Mac Catalyst and visionOS follow iOS unless they are named."""
    out = {}
    for p in ("macos", "ios", "tvos", "watchos"):
        out[p] = _swift_cell(availability, p)
    for p in ("maccatalyst", "visionos"):
        if p in availability.unavailable or p in availability.introduced or p in availability.deprecated \
                or p in getattr(availability, "explicit", set()):
            out[p] = _swift_cell(availability, p)
            continue
        ios = out["ios"]
        if ios.unavailable:
            out[p] = Cell(True)
        elif p == "maccatalyst":
            out[p] = Cell.make(p, ios.introduced, ios.deprecated)
        else:
            out[p] = Cell.make(p, _vision_from_ios(ios.introduced), None)
    if availability.everywhere_unavailable:
        out = {p: Cell(True) for p in PLATFORMS}
    return out


def _swift_cell(availability, p: str) -> Cell:
    if p in availability.unavailable:
        return Cell(True)
    intro = availability.introduced.get(p)
    dep = availability.deprecated.get(p)
    return Cell.make(p, tuple(intro[:3]) if intro else None, tuple(dep[:3]) if dep else None)


def _vision_from_ios(v: tuple | None) -> tuple | None:
    """visionOS 1 shipped with iOS 17's API: iOS 17.x is visionOS 1.0, iOS 18.x visionOS 2.x, 26 is 26."""
    if not v or v[0] < 18:
        return None
    return v if v[0] >= 26 else (v[0] - 16,) + tuple(v[1:])


def normalized(cells: dict[str, Cell]) -> dict[str, str]:
    return {p: cells[p].text() for p in PLATFORMS}


# --- The attributes that state a row (what a declaration should carry, given its enclosing type's row) --------

def inferred_from_ios(platform: str, ios: Cell) -> Cell:
    """What Swift gives Mac Catalyst or visionOS when a declaration names only iOS."""
    if ios.unavailable:
        return Cell(True)
    if platform == "maccatalyst":
        return Cell.make(platform, ios.introduced, ios.deprecated)
    return Cell.make(platform, _vision_from_ios(ios.introduced), None)


def attributes_for(row_cells: dict[str, Cell], outer: dict[str, Cell] | None) -> list[str]:
    """`@available` attributes that make a declaration inside `outer` (None: at file level) compile as `row_cells`
    says: only what differs from the enclosing type; Mac Catalyst and visionOS only where they do not follow iOS."""
    outer = outer or ANYWHERE
    short, long_forms, unavailable = [], [], []
    for p, name in zip(PLATFORMS, COLUMNS):
        cell, parent = row_cells[p], outer[p]
        if p in ("maccatalyst", "visionos"):
            parent_named = parent != inferred_from_ios(p, outer["ios"])
            expected = parent if parent_named else inferred_from_ios(p, row_cells["ios"])
            if cell == expected:
                continue
        elif cell == parent:
            continue
        if cell.unavailable:
            unavailable.append(f"@available({name}, unavailable)")
        elif cell.deprecated:
            intro = f"introduced: {vtext(cell.introduced)}, " if cell.introduced else ""
            long_forms.append(f"@available({name}, {intro}deprecated: {vtext(cell.deprecated)})")
        elif cell.introduced:
            short.append(f"{name} {vtext(cell.introduced)}")
        else:
            short.append(f"{name} {vtext(FIRST[p])}")
    out = []
    if short:
        out.append(f"@available({', '.join(short)}, *)")
    return out + long_forms + unavailable
