"""Unit tests of the source checks: the lexer and `#if` evaluation (swiftsource.py), declarations
(swiftdecls.py), scripts/check-availability.py's matching and guards, and scripts/check-glibc.py's rules.

Run: python3 -B -m unittest discover -s scripts/checks/tests (part of `make checks`)."""

import importlib.util
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import swiftdecls as sd  # noqa: E402
import swiftsource as ss  # noqa: E402


def load_script(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(SCRIPTS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


availability = load_script("check-availability")
glibc = load_script("check-glibc")
pins = load_script("check-pins")

APPLE = {p: ss.Conditions(p) for p in ss.APPLE_PLATFORMS}
FLOOR = {"macos": (14, 0, 0), "ios": (17, 0, 0), "tvos": (17, 0, 0), "watchos": (10, 0, 0), "visionos": (1, 0, 0)}

# A miniature toolchain interface: gated and ungated declarations sharing names, as the real ones do.
INTERFACE = """
@frozen public struct String {
}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct Mutex<Value> : ~Swift.Copyable where Value : ~Copyable {
  public init(_ initialValue: consuming Value)
  public borrowing func withLock<Result, E>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result
}
extension Swift.String {
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  @inlinable public init?<Encoding>(validating codeUnits: some Sequence<Encoding.CodeUnit>, as encoding: Encoding.Type) where Encoding : Swift._UnicodeEncoding {
    self = String()
  }
  public init<C, Encoding>(decoding codeUnits: C, as sourceEncoding: Encoding.Type)
}
extension Swift.Array {
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  public var span: Swift.Span<Element> { get }
  public var count: Swift.Int { get }
}
extension Swift.Set {
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  public var count: Swift.Int { get }
}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
public func gatedFree(label: Swift.Int)
@available(iOS, unavailable)
public func notOnIOS()
"""


def index(extra_package_source=""):
    decls = [d for d in sd.declarations(ss.tokenize(INTERFACE)) if d.access == "public"]
    decls += sd.declarations(ss.tokenize(extra_package_source))
    return availability.Index(decls, FLOOR)


def findings(source, package_source="", conditions=APPLE):
    tokens = ss.tokenize(source)
    mask = ss.compiled_mask(tokens, conditions)
    shadowed = availability.local_names(tokens)
    package_types = {d.name for d in sd.declarations(tokens) if d.kind in sd.TYPE_KINDS}
    found = availability.scan_file("F.swift", tokens, mask, index(package_source), FLOOR, shadowed, package_types)
    return [(line, symbol) for _, line, _, symbol, _ in found]


class Lexer(unittest.TestCase):
    def test_comments_and_strings_hide_code_but_interpolations_do_not(self):
        tokens = ss.tokenize('let a = "Mutex \\(Mutex(0)) /* x */" // Mutex\n/* Mutex /* nested */ */ let b = #"raw \\(no)"#')
        idents = [t.text for t in tokens if t.kind == "ident"]
        self.assertEqual(idents, ["let", "a", "Mutex", "let", "b"])

    def test_if_regions_per_platform(self):
        src = ("#if os(Linux)\nlinux\n#elseif canImport(Darwin)\ndarwin\n#else\nother\n#endif\n"
               "#if os(macOS) || FOO\nmac\n#endif\n#if !canImport(Glibc)\nnotglibc\n#endif\n"
               "#if DEBUG\ndebug\n#endif\n#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n")
        tokens = ss.tokenize(src)
        conditions = dict(APPLE)
        conditions["ios"] = ss.Conditions("ios", defines={"FOO"})
        mask = dict((t.text, m) for t, m in zip(tokens, ss.compiled_mask(tokens, conditions)) if t.kind == "ident")
        self.assertEqual(mask["linux"], frozenset())
        self.assertEqual(mask["darwin"], frozenset(ss.APPLE_PLATFORMS))
        self.assertEqual(mask["other"], frozenset())
        self.assertEqual(mask["mac"], frozenset({"macos", "ios"}))
        self.assertEqual(mask["notglibc"], frozenset(ss.APPLE_PLATFORMS))
        self.assertEqual(mask["debug"], frozenset(ss.APPLE_PLATFORMS))   # cannot tell: counts as compiled
        self.assertEqual(mask["Glibc"], frozenset())

    def test_unbalanced_directives_are_an_error(self):
        with self.assertRaises(ss.LexError):
            ss.compiled_mask(ss.tokenize("#if os(Linux)\nx\n"), APPLE)


class Declarations(unittest.TestCase):
    def test_labels_defaults_contexts_and_availability(self):
        decls = {d.signature(): d for d in sd.declarations(ss.tokenize(INTERFACE))}
        self.assertIn("Mutex.init(_:)", decls)
        self.assertIn("String.init(validating:as:)", decls)
        self.assertEqual(decls["String.init(validating:as:)"].availability.introduced["ios"], (18, 0, 0))
        self.assertEqual(decls["gatedFree(label:)"].availability.introduced["visionos"], (2, 0, 0),
                         "visionOS follows iOS when the attribute does not name it")
        self.assertIn("ios", decls["notOnIOS()"].availability.unavailable)
        self.assertNotIn("Mutex.withLock", [d.signature() for d in decls.values() if d.context == "String"])

    def test_function_bodies_are_skipped(self):
        decls = sd.declarations(ss.tokenize("public func f() {\n  let local = 1\n  func inner() {}\n}\npublic var g: Int { 1 }"))
        self.assertEqual([d.signature() for d in decls], ["f()", "g"])


class Availability(unittest.TestCase):
    def test_real_hits_are_reported_with_their_line(self):
        src = ("let m = Mutex(0)\n"
               "let s = String(validating: bytes, as: UTF8.self)\n"
               "let t = String?(validating: bytes, as: UTF8.self)\n"
               "let p = array.span\n"
               "gatedFree(label: 1)\n"
               "notOnIOS()\n")
        self.assertEqual(findings(src), [(1, "Mutex"), (1, "Mutex(_:)"), (2, "String(validating:as:)"),
                                         (3, "String(validating:as:)"), (4, ".span"), (5, "gatedFree(label:)"),
                                         (6, "notOnIOS()")])

    def test_names_shared_with_ungated_declarations_are_not_reported(self):
        src = "let n = set.count\nlet s = String(decoding: bytes, as: UTF8.self)\n"
        self.assertEqual(findings(src), [])

    def test_the_packages_own_declarations_count_as_alternatives(self):
        self.assertEqual(findings("let p = thing.span\n", package_source="struct Thing { var span: Int }"), [])
        self.assertEqual(findings("struct Mutex { }\nlet m = Mutex()\n"), [])

    def test_uses_under_available_guards_are_not_reported(self):
        src = """
if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    let s = String(validating: bytes, as: UTF8.self)
} else {
    let s = String(decoding: bytes, as: UTF8.self)
}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func f() -> Mutex<Int> { Mutex(0) }
func g() {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
    _ = Mutex(1)
}
let late = Mutex(2)
"""
        self.assertEqual(findings(src), [(13, "Mutex"), (13, "Mutex(_:)")])

    def test_a_guard_must_cover_every_platform_the_file_is_compiled_for(self):
        src = "if #available(macOS 15, iOS 18, *) {\n    _ = Mutex(0)\n}\n"
        found = findings(src)
        self.assertEqual(found, [(2, "Mutex"), (2, "Mutex(_:)")])
        only_mac = {"macos": ss.Conditions("macos")}
        self.assertEqual(findings(src, conditions=only_mac), [])

    def test_linux_only_code_is_not_checked(self):
        src = "#if os(Linux)\nlet m = Mutex(0)\n#endif\n#if canImport(Glibc)\nlet n = Mutex(0)\n#endif\n"
        self.assertEqual(findings(src), [])

    def test_a_brace_after_a_call_in_a_condition_is_the_body_not_a_trailing_closure(self):
        src = "if key == .x, let s = String(validating: d, as: UTF8.self) { use(s) }\n"
        self.assertEqual(findings(src), [(1, "String(validating:as:)")])

    def test_labels_match_defaults_variadics_and_trailing_closures(self):
        p = sd.Param
        self.assertTrue(availability.labels_match([p("_", False, True)], ["_", "_"], 0))
        self.assertTrue(availability.labels_match([p("a", True, False), p("b", False, False)], ["b"], 0))
        self.assertFalse(availability.labels_match([p("a", False, False)], ["b"], 0))
        self.assertTrue(availability.labels_match([p("a", False, False), p("body", False, False)], ["a"], 1))
        self.assertFalse(availability.labels_match([p("a", False, False)], ["a"], 1))


class Glibc(unittest.TestCase):
    def scan(self, source, forbidden_modules=None, conditions=APPLE):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "F.swift"), "w") as f:
                f.write(source)
            return [line.split(": ", 1)[0] + ": " + line.split("`")[1]
                    for line in glibc.scan_file(root, "F.swift", conditions, forbidden_modules)]

    def test_imports_of_modules_apple_platforms_lack_are_reported_outside_their_conditions(self):
        forbidden = {"COpenSSL": "C system library", "LatchkeyOpenSSL": "Linux-only Swift target"}
        src = ("import Foundation\nimport COpenSSL\n@_exported import LatchkeyOpenSSL\nimport struct COpenSSL.X\n"
               "#if !LATCHKEY_APPLE_FRAMEWORKS\nimport LatchkeyOpenSSL\n#endif\n"
               "#if os(Linux)\nimport COpenSSL\n#endif\nimport Security\n")
        client = {p: ss.Conditions(p, defines={"LATCHKEY_APPLE_FRAMEWORKS"}) for p in ss.APPLE_PLATFORMS}
        self.assertEqual(self.scan(src, forbidden, client), ["F.swift:2:1: import COpenSSL",
                                                     "F.swift:3:12: import LatchkeyOpenSSL",
                                                     "F.swift:4:1: import COpenSSL"])

    def test_glibc_symbols_outside_linux_conditions_are_reported(self):
        src = ("import Glibc\n"
               "action.__sigaction_handler.sa_handler = h\n"
               "let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)\n"
               "send(fd, p, n, Int32(MSG_NOSIGNAL))\n"
               "posix_spawn(&pid, path, nil, nil, argv, environ)\n"
               "let s = try String(contentsOfFile: \"/proc/self/status\")\n"
               "epoll_wait(fd, &events, 1, 0)\n")
        self.assertEqual(self.scan(src), ["F.swift:1:8: Glibc", "F.swift:2:8: __sigaction_handler",
                                          "F.swift:3:32: SOCK_STREAM.rawValue", "F.swift:4:22: MSG_NOSIGNAL",
                                          "F.swift:5:41: environ", "F.swift:6:36: /proc/", "F.swift:7:1: epoll_wait"])

    def test_linux_conditions_and_lookalikes_are_not_reported(self):
        src = ("#if canImport(Glibc)\nimport Glibc\nlet t = Int32(SOCK_STREAM.rawValue)\n#elseif canImport(Darwin)\n"
               "import Darwin\nlet t = SOCK_STREAM\n#endif\n"
               "#if os(Linux)\naction.__sigaction_handler.sa_handler = h\n#else\naction.__sigaction_u.__sa_handler = h\n#endif\n"
               "let o = Int32(MHD_OPTION_CONNECTION_LIMIT.rawValue)\n"      # a named enum of our own C library
               "let e = Process(environ: x)\nlet f = config.environ\nlet environ = 1\n"
               "// SOCK_STREAM.rawValue in a comment\nlet s = \"SOCK_STREAM.rawValue\"\n")
        self.assertEqual(self.scan(src), [])


class Pins(unittest.TestCase):
    FACADE = """
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
public let kSecClass: CFString = "class"
open class LAContext: NSObject {
    public override init() {}
    public init(latchkeyContext: Int) {}
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String, reply: @escaping (Bool, (any Error)?) -> Void) {}
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { true }
    open var biometryType: LABiometryType { .none }
    public func hash(into hasher: inout Hasher) {}
}
public enum LAPolicy: Int { case deviceOwnerAuthentication = 2 }
public func CFRelease(_ cf: CFTypeRef?) {}
"""
    PINS = """
let _: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemAdd
let _: CFString = kSecClass
let _: () -> LAContext = LAContext.init
_ = LAContext.evaluatePolicy(_:localizedReason:reply:)
let _: KeyPath<LAContext, LABiometryType> = \\LAContext.biometryType
"""

    def status(self, pin_source, facade=FACADE):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, pins.PIN_DIR))
            with open(os.path.join(root, pins.PIN_DIR, "Pins.swift"), "w") as f:
                f.write(pin_source)
            identifiers, members, _ = pins.pin_references(root)
        out = {}
        for decl in sd.declarations(ss.tokenize(facade)):
            if decl.access in ("public", "open"):
                reason = pins.exempt_reason(decl)
                out[decl.signature()] = "exempt" if reason else pins.pinned(decl, identifiers, members)
        return out

    def test_each_overload_needs_a_pin_with_its_labels(self):
        status = self.status(self.PINS)
        self.assertTrue(status["SecItemAdd(_:_:)"])
        self.assertTrue(status["kSecClass"])
        self.assertTrue(status["LAContext.init()"])
        self.assertTrue(status["LAContext.evaluatePolicy(_:localizedReason:reply:)"])
        self.assertFalse(status["LAContext.evaluatePolicy(_:localizedReason:)"], "the async overload has no pin")
        self.assertTrue(status["LAContext.biometryType"])
        self.assertFalse(status["LAPolicy"])
        self.assertFalse(status["LAPolicy.deviceOwnerAuthentication"])

    def test_latchkey_extensions_witnesses_and_listed_symbols_are_exempt(self):
        status = self.status(self.PINS)
        self.assertEqual(status["LAContext.init(latchkeyContext:)"], "exempt")
        self.assertEqual(status["LAContext.hash(into:)"], "exempt")
        self.assertEqual(status["CFRelease(_:)"], "exempt")

    GENERIC_FACADE = """
public protocol HashFunction {
    static var blockByteCount: Int { get }
    init()
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    func finalize() -> Int
}
extension HashFunction {
    public static func hash(bufferPointer: UnsafeRawBufferPointer) -> Int { 0 }
    public mutating func update<D: DataProtocol>(data: D) {}
}
public struct SHA256: HashFunction {
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {}
    public func hash(into hasher: inout Hasher) {}
}
public struct MD5: HashFunction {
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {}
}
public struct HMAC<H: HashFunction> {
    public init(key: SymmetricKey) {}
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> Int { 0 }
}
"""

    def test_generic_arguments_protocol_requirements_and_mutating_calls(self):
        pin_source = """
let _: (SymmetricKey) -> HMAC<SHA256> = HMAC<SHA256>.init(key:)
func hashing<H: CryptoKit.HashFunction & Sendable, D: Digest>(_: H.Type, _: D) {
    let _: Int = H.blockByteCount
    let _: (H) -> () -> Int = H.finalize
    let _ = { (hasher: inout H, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
}
let _ = { (hasher: inout SHA256, buffer: UnsafeRawBufferPointer) in hasher.update(bufferPointer: buffer) }
let _ = { (hasher: inout MD5) in hasher.update(buffer) }
"""
        status = self.status(pin_source, self.GENERIC_FACADE)
        self.assertTrue(status["HMAC.init(key:)"], "Type<Arguments>.member")
        self.assertFalse(status["HMAC.authenticationCode(for:using:)"])
        self.assertTrue(status["HashFunction.blockByteCount"], "through a generic parameter")
        self.assertTrue(status["HashFunction.finalize()"])
        self.assertTrue(status["HashFunction.update(bufferPointer:)"], "a call on an inout H")
        self.assertFalse(status["HashFunction.update(data:)"])
        self.assertFalse(status["HashFunction.init()"])
        self.assertTrue(status["SHA256.update(bufferPointer:)"], "a call on an inout SHA256")
        self.assertFalse(status["MD5.update(bufferPointer:)"], "an unlabeled call, and `hasher` was SHA256 before")

    def test_only_hash_into_is_a_witness(self):
        status = self.status("", self.GENERIC_FACADE)
        self.assertEqual(status["SHA256.hash(into:)"], "exempt")
        self.assertFalse(status["HashFunction.hash(bufferPointer:)"])

    def test_a_name_in_a_comment_or_string_is_not_a_pin(self):
        status = self.status("// LAContext.evaluatePolicy(_:localizedReason:)\nlet s = \"LAPolicy\"\n")
        self.assertFalse(status["LAContext.evaluatePolicy(_:localizedReason:)"])
        self.assertFalse(status["LAPolicy"])


if __name__ == "__main__":
    unittest.main()
