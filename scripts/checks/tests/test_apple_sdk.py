"""Unit tests of the issue-33 checks: Apple's header facts (apple_headers.py), the facts tables and their comparison
with Swift attributes (apple_facts.py, scripts/check-apple-facts.py), the availability check on Mac Catalyst and with
the framework modules' declarations (scripts/check-availability.py), the interface loading of
scripts/check-apple-sdk.py (apple_interface.py) and the portable-test check (scripts/check-portable-tests.py).

Run: python3 -B -m unittest discover -s scripts/checks/tests (part of `make checks`)."""

import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import apple_facts as af  # noqa: E402
import apple_headers as ah  # noqa: E402
import apple_interface as ai  # noqa: E402
import swiftdecls as sd  # noqa: E402
import swiftsource as ss  # noqa: E402


def load_script(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(SCRIPTS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


availability = load_script("check-availability")
facts_check = load_script("check-apple-facts")
portable = load_script("check-portable-tests")

HEADER = """
NS_ASSUME_NONNULL_BEGIN
typedef NS_ENUM(NSInteger, LAPolicy)
{
    LAPolicyDeviceOwnerAuthenticationWithBiometrics API_AVAILABLE(ios(8.0), macos(10.12.2)) API_UNAVAILABLE(watchos, tvos) = 1,
    LAPolicyDeviceOwnerAuthenticationWithWatch API_DEPRECATED_WITH_REPLACEMENT("X", macos(10.15, 15.0), macCatalyst(13.0, 18.0)) API_UNAVAILABLE(ios, watchos, tvos) = 3,
} API_AVAILABLE(ios(8.0), macos(10.10), watchos(3.0)) API_UNAVAILABLE(tvos);
extern const CFStringRef kSecUseKeychain
    API_AVAILABLE(macos(10.7), ios(NA));
OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef * __nullable CF_RETURNS_RETAINED result)
    __OSX_AVAILABLE_STARTING(__MAC_10_6, __IPHONE_2_0);
typedef CF_OPTIONS(CFOptionFlags, SecAccessControlCreateFlags) {
    kSecAccessControlUserPresence           = 1u << 0,
    kSecAccessControlCompanion              API_AVAILABLE(macos(15.0), ios(18.0), macCatalyst(18.0)) = 1u << 5,
} __OSX_AVAILABLE_STARTING(__MAC_10_10, __IPHONE_8_0);
NS_SWIFT_UI_ACTOR
AS_EXTERN API_AVAILABLE(ios(13.0), macos(10.15), tvos(13.0), watchos(6.0))
@protocol ASAuthorizationControllerDelegate <NSObject>
@optional
- (void)authorizationController:(id)controller didCompleteWithError:(NSError *)error NS_SWIFT_NAME(authorizationController(controller:didCompleteWithError:));
@end
API_AVAILABLE(macos(10.10), ios(8.0), watchos(3.0)) API_UNAVAILABLE(tvos)
@interface LAContext : NSObject
@property (nonatomic) BOOL interactionNotAllowed API_AVAILABLE(macos(10.13), ios(11.0), watchos(4.0)) API_UNAVAILABLE(tvos);
- (void)cancel API_AVAILABLE(macos(13.0), ios(16.0)) API_UNAVAILABLE(watchos, tvos);
@end
NS_ASSUME_NONNULL_END
"""


def read(text):
    with tempfile.NamedTemporaryFile("w", suffix=".h", delete=False) as f:
        f.write(text)
    try:
        return {d.name: d for d in ah.read_header(f.name)}
    finally:
        os.unlink(f.name)


def cells(decl):
    return {p: (v if v == ah.UNAVAILABLE else v[0]) for p, v in ah.inferred(decl.facts).items()}


class Headers(unittest.TestCase):
    def test_enum_cases_take_their_swift_names_and_the_enums_facts(self):
        d = read(HEADER)
        bio = cells(d["LAPolicy.deviceOwnerAuthenticationWithBiometrics"])
        self.assertEqual((bio["ios"], bio["macos"], bio["tvos"], bio["watchos"]), ("8.0", "10.12.2", "unavailable",
                                                                                     "unavailable"))
        watch = ah.inferred(d["LAPolicy.deviceOwnerAuthenticationWithWatch"].facts)
        self.assertEqual(watch["macos"], ("10.15", "15.0"))
        self.assertEqual(watch["maccatalyst"], ("13.0", "18.0"), "named: not inferred from iOS")
        self.assertEqual(watch["ios"], ah.UNAVAILABLE)
        self.assertEqual(cells(d["LAPolicy"])["tvos"], "unavailable")

    def test_c_declarations_na_and_old_macros(self):
        d = read(HEADER)
        self.assertEqual(cells(d["kSecUseKeychain"])["ios"], "unavailable", "ios(NA) is unavailable")
        self.assertEqual(cells(d["kSecUseKeychain"])["macos"], "10.7")
        add = cells(d["SecItemAdd"])
        self.assertEqual((add["macos"], add["ios"], add["tvos"], add["watchos"]), ("10.6", "2.0", "2.0", "2.0"),
                         "tvOS and watchOS inferred from iOS (watchOS: at least 2.0)")

    def test_options_drop_their_common_prefix(self):
        d = read(HEADER)
        self.assertIn("SecAccessControlCreateFlags.userPresence", d)
        self.assertEqual(cells(d["SecAccessControlCreateFlags.companion"])["ios"], "18.0")

    def test_objective_c_members_isolation_and_class_facts(self):
        d = read(HEADER)
        self.assertTrue(d["ASAuthorizationControllerDelegate"].facts.main_actor)
        self.assertIn("ASAuthorizationControllerDelegate.authorizationController", d)
        self.assertEqual(cells(d["LAContext"])["tvos"], "unavailable")
        self.assertEqual(cells(d["LAContext.interactionNotAllowed"])["watchos"], "4.0")
        self.assertEqual(cells(d["LAContext.cancel"])["tvos"], "unavailable")


class Facts(unittest.TestCase):
    def test_cells_read_and_print(self):
        self.assertEqual(af.Cell.parse("8.0~11.0", "ios").text(), "8.0~11.0")
        self.assertEqual(af.Cell.parse("9.0", "tvos").text(), "*", "tvOS 9.0 is tvOS's first version")
        self.assertTrue(af.Cell.parse("-", "tvos").unavailable)

    def test_attributes_state_only_what_differs_from_the_type(self):
        type_cells = {p: af.Cell.parse(v, p) for p, v in zip(af.PLATFORMS, ["10.10", "8.0", "*", "-", "3.0", "*"])}
        member = {p: af.Cell.parse(v, p) for p, v in zip(af.PLATFORMS, ["10.13", "11.0", "*", "-", "-", "*"])}
        self.assertEqual(af.attributes_for(member, type_cells), ["@available(macOS 10.13, iOS 11.0, *)",
                                                                "@available(watchOS, unavailable)"])
        self.assertEqual(af.attributes_for(type_cells, None), ["@available(macOS 10.10, iOS 8.0, watchOS 3.0, *)",
                                                              "@available(tvOS, unavailable)"])

    def test_swift_attributes_give_the_rows_cells(self):
        decl = sd.declarations(ss.tokenize("@available(macOS 15.0, iOS 18.0, *)\n@available(tvOS, unavailable)\n"
                                           "@available(watchOS, unavailable)\npublic let x = 1"))[0]
        self.assertEqual(af.normalized(af.swift_cells(decl.availability)),
                         {"macos": "15.0", "ios": "18.0", "maccatalyst": "18.0", "tvos": "-", "watchos": "-",
                          "visionos": "2.0"}, "Mac Catalyst and visionOS follow iOS")


class FactsCheck(unittest.TestCase):
    TABLE = ("# symbol\tmacOS\tiOS\tmacCatalyst\ttvOS\twatchOS\tvisionOS\tisolation\tsendable\tsource\n"
             "LAContext\t10.10\t8.0\t*\t-\t3.0\t*\t\tno\tLAContext.h (iOS 18.1)\n"
             "LAContext.interactionNotAllowed\t10.13\t11.0\t*\t-\t4.0\t*\t\t\tLAContext.h (iOS 18.1)\n"
             "ASDelegate\t*\t*\t*\t*\t*\t*\tmain\tno\tx.h\n")

    def run_check(self, source):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs", "apple-sdk"))
            os.makedirs(os.path.join(root, "Sources", "LocalAuthentication"))
            with open(os.path.join(root, "docs", "apple-sdk", "LocalAuthentication.tsv"), "w") as f:
                f.write(self.TABLE)
            with open(os.path.join(root, "Sources", "LocalAuthentication", "A.swift"), "w") as f:
                f.write(textwrap.dedent(source))
            return facts_check.check_module(root, "LocalAuthentication")[0]

    GOOD = """
        @available(macOS 10.10, iOS 8.0, watchOS 3.0, *)
        @available(tvOS, unavailable)
        open class LAContext: NSObject {
            @available(macOS 10.13, iOS 11.0, watchOS 4.0, *)
            open var interactionNotAllowed: Bool = false
            open func invalidate() {}
        }
        @MainActor public protocol ASDelegate {}
        public enum LatchkeyLinuxOnly {}
        """

    def test_matching_sources_pass(self):
        self.assertEqual(self.run_check(self.GOOD), [])

    def test_a_missing_unavailability_sendable_isolation_and_row_are_named(self):
        bad = self.GOOD.replace("@available(tvOS, unavailable)\n", "").replace("NSObject {", "NSObject, @unchecked Sendable {")
        bad = bad.replace("@MainActor public protocol", "public protocol") + "public let kNew = 1\n"
        found = "\n".join(self.run_check(bad))
        self.assertIn("`LAContext` availability differs", found)
        self.assertIn("tvOS * (SDK: -)", found)
        self.assertIn("`LAContext` is Sendable", found)
        self.assertIn("`ASDelegate` is not @MainActor", found)
        self.assertIn("`kNew` (let) has no row", found)

    def test_a_member_without_a_row_must_not_differ_from_its_type(self):
        found = self.run_check(self.GOOD.replace("open func invalidate", "@available(iOS 12.0, *)\n    open func invalidate"))
        self.assertTrue(any("`LAContext.invalidate` has no row" in f for f in found), found)


class AvailabilityOnApplePlatforms(unittest.TestCase):
    FRAMEWORK = """
    @available(macOS 10.10, iOS 8.0, watchOS 3.0, *)
    @available(tvOS, unavailable)
    open class LAContext: NSObject {
        @available(macOS 10.13, iOS 11.0, *)
        @available(tvOS, unavailable)
        open var interactionNotAllowed: Bool
    }
    open class ASAuthorizationController: NSObject {
        @available(macOS 13.0, iOS 16.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        open func cancel()
    }
    @available(macOS 10.7, *)
    @available(iOS, unavailable)
    public let kSecUseKeychain: CFString
    """
    FLOOR = {"macos": (14, 0, 0), "ios": (17, 0, 0), "maccatalyst": (17, 0, 0), "tvos": (17, 0, 0),
             "watchos": (10, 0, 0), "visionos": (1, 0, 0)}
    PLATFORMS = ("macos", "ios", "maccatalyst", "tvos", "watchos", "visionos")

    def findings(self, source):
        decls = sd.declarations(ss.tokenize(textwrap.dedent(self.FRAMEWORK)))
        for d in decls:
            d.framework = True
        decls += sd.declarations(ss.tokenize("public final class Task { public func cancel() }"))
        index = availability.Index(decls, self.FLOOR)
        tokens = ss.tokenize(textwrap.dedent(source))
        conditions = {p: ss.Conditions(p) for p in self.PLATFORMS}
        mask = ss.compiled_mask(tokens, conditions)
        found = availability.scan_file("F.swift", tokens, mask, index, self.FLOOR, availability.local_names(tokens), set())
        return [(line, symbol, message) for _, line, _, symbol, message in found]

    def test_a_name_unavailable_on_tvos_is_refused_outside_a_tvos_condition(self):
        found = self.findings("let c = LAContext()\n#if !os(tvOS)\nlet d = LAContext()\n#endif\n")
        self.assertEqual([(line, symbol) for line, symbol, _ in found], [(1, "LAContext")])
        self.assertIn("tvOS unavailable", found[0][2])

    def test_a_member_is_narrowed_by_the_type_the_file_states(self):
        source = ("final class S {\n    var controller: ASAuthorizationController?\n    func stop() {\n"
                  "        controller?.cancel()\n    }\n}\n")
        self.assertEqual([(line, symbol) for line, symbol, _ in self.findings(source)], [(4, ".cancel()")])
        self.assertEqual(self.findings(source.replace("controller?.cancel()", "task?.cancel()")), [],
                         "`cancel()` of an unknown receiver may be Task's")

    def test_mac_catalyst_follows_ios_and_target_environment(self):
        found = self.findings("let k = kSecUseKeychain\n")
        self.assertIn("Mac Catalyst unavailable", found[0][2])
        self.assertEqual(self.findings("#if os(macOS)\nlet k = kSecUseKeychain\n#endif\n"), [])
        conditions = ss.Conditions("maccatalyst")
        self.assertTrue(conditions.evaluate("os(iOS) && targetEnvironment(macCatalyst)"))
        self.assertFalse(ss.Conditions("ios").evaluate("targetEnvironment(macCatalyst)"))


class InterfaceLoading(unittest.TestCase):
    INTERFACE = textwrap.dedent("""\
        // swift-interface-format-version: 1.0
        // swift-module-flags: -target arm64-apple-ios18.0 -enable-objc-interop -enable-library-evolution -module-name CryptoKit
        import Foundation
        import LocalAuthentication
        import Security.SecAccessControl
        import Security
        @available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
        public enum SecureEnclave {
        }
        @available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
        extension CryptoKit.SecureEnclave {
          public enum P256 {
            public struct PrivateKey {
              public init(dataRepresentation: Foundation.Data, authenticationContext: LocalAuthentication.LAContext? = nil) throws
              @available(iOS 13.0, *)
              public init(compactRepresentable: Swift.Bool = true, accessControl: Security.SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!, authenticationContext: LocalAuthentication.LAContext? = nil) throws
            }
          }
        }
        @available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
        public enum P256 {
        }
        """)

    def test_the_flags_line_and_what_uses_security_go(self):
        text, cut = ai.loadable_interface(self.INTERFACE, "x86_64-unknown-linux-gnu", "-Xcc -fmodule-map-file=/m")
        self.assertEqual(cut, 1)
        self.assertIn("-target x86_64-unknown-linux-gnu -enable-library-evolution", text)
        self.assertIn("-module-name CryptoKit -Xcc -fmodule-map-file=/m\n", text)
        self.assertNotIn("import Security", text)
        self.assertNotIn("accessControl", text)
        self.assertIn("import LocalAuthentication", text)
        self.assertIn("public init(dataRepresentation: Foundation.Data, authenticationContext: "
                      "LocalAuthentication.LAContext? = nil) throws", text)
        self.assertIn("public enum P256 {", text)
        self.assertEqual(text.count("{"), text.count("}"))

    def test_the_oldest_sdk_model_declares_sendable_as_its_facts_date_it(self):
        interface = textwrap.dedent("""\
            // swift-module-flags: -target x86_64-unknown-linux-gnu -enable-library-evolution -module-name CryptoKit -package-name p
            public protocol HashFunction : Swift.Sendable {
              associatedtype Digest : Swift.Sendable
            }
            public enum P256 : Swift.Sendable {
              public struct PublicKey : FoundationEssentials.ContiguousBytes, Swift.Sendable {
              }
            }
            extension CryptoKit.ChaChaPoly {
              public struct SealedBox : Swift.Sendable {
              }
            }
            public struct HMAC<H> : @unchecked Swift.Sendable where H : CryptoKit.HashFunction {
            }
            extension CryptoKit.SymmetricKey : Swift.Sendable {}
            """)
        table = "\n".join("\t".join([symbol, "*", "*", "*", "*", "*", "*", "", sendable, "x"])
                          for symbol, sendable in [("HashFunction", "18.4"), ("P256", "18.4"),
                                                   ("P256.PublicKey", "18.4"), ("ChaChaPoly.SealedBox", "yes"),
                                                   ("HMAC", "18.4"), ("SymmetricKey", "18.4")])
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write(table + "\n")
        rows = af.read_table(f.name)
        os.unlink(f.name)
        self.assertEqual(rows[0].sendable_since, "18.4")
        self.assertEqual(rows[3].sendable_since, "")
        text, edited = ai.oldest_sdk_model(interface, rows, (18, 0))
        self.assertEqual(edited, ["HMAC", "HashFunction", "P256", "P256.PublicKey", "SymmetricKey"])
        self.assertNotIn("-package-name", text)
        self.assertIn("public protocol HashFunction {", text)
        self.assertIn("  associatedtype Digest\n", text)
        self.assertIn("public struct PublicKey : FoundationEssentials.ContiguousBytes {", text)
        self.assertIn("public struct SealedBox : Swift.Sendable {", text)
        self.assertIn("public struct HMAC<H> where H : CryptoKit.HashFunction {", text)
        self.assertIn("extension CryptoKit.SymmetricKey {}", text)
        self.assertEqual(ai.oldest_sdk_model(interface, rows, (18, 4))[1], [], "18.4 itself declares them")

    def test_public_api_beyond_apples_is_named(self):
        apple = textwrap.dedent("""\
            public protocol HashFunction {
            }
            extension CryptoKit.HashFunction {
              public static func hash<D>(data: D) -> Self.Digest where D : Foundation.DataProtocol
            }
            public struct SHA256 : CryptoKit.HashFunction {
            }
            public struct SHA256Digest : CryptoKit.Digest, Swift.Hashable {
            }
            """)
        ours = textwrap.dedent("""\
            public protocol HashFunction : Swift.Sendable {
            }
            public struct SHA256 : CryptoKit.HashFunction {
              public static func hash<D>(data: D) -> SHA256Digest where D : FoundationEssentials.DataProtocol
              public func hash(bufferPointer: Swift.UnsafeRawBufferPointer) -> SHA256Digest
            }
            public struct SHA256Digest : CryptoKit.Digest, Swift.Hashable {
              public func hash(into hasher: inout Swift.Hasher)
              public var description: Swift.String { get }
            }
            public enum LatchkeySecureEnclaveConfiguration {
            }
            """)
        self.assertEqual(ai.beyond_apple(ours, apple), ["HashFunction: Sendable", "SHA256.hash(bufferPointer:)",
                                                        "SHA256Digest.description"])

    def test_sdks_are_found_and_labelled(self):
        with tempfile.TemporaryDirectory() as folder:
            for version in ("18.4", "18.0"):
                d = os.path.join(folder, f"ios{version}", "CryptoKit.swiftmodule")
                os.makedirs(d)
                with open(os.path.join(d, "arm64-apple-ios.swiftinterface"), "w") as f:
                    f.write(self.INTERFACE.replace("ios18.0", f"ios{version}"))
            self.assertEqual([s.label for s in ai.find_interface_sdks(folder)], ["iOS 18.0", "iOS 18.4"])


class PortableTests(unittest.TestCase):
    FILES = {
        "Sources/CryptoKit/SHA256.swift": """
            public struct SHA256 {
                package static func hash(bufferPointer: UnsafeRawBufferPointer) -> Int { 0 }
                public static func hash(data: [UInt8]) -> Int { 0 }
            }
            struct Box { func get() -> Int { 0 } }
            public enum CryptoKitError: Error { case incorrectKeySize }
            """,
        "Tests/ApplePinTests/Pins.swift": """
            func pins(_ b: UnsafeRawBufferPointer, _ e: CryptoKitError, _ r: Result<Int, any Error>) throws {
                _ = SHA256.hash(bufferPointer: b)
                _ = SHA256.hash(data: [])
                _ = try r.get()
                #expect(e == CryptoKitError.incorrectKeySize)
                #expect(throws: CryptoKitError.incorrectKeySize) { try f() }
                #if !LATCHKEY_APPLE_FRAMEWORKS
                _ = SHA256.hash(bufferPointer: b)
                #expect(e == CryptoKitError.incorrectKeySize)
                #endif
            }
            """,
    }

    def run_check(self):
        with tempfile.TemporaryDirectory() as root:
            for rel, text in self.FILES.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(textwrap.dedent(text))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = portable.main(["--root", root])
        return code, out.getvalue().splitlines()

    def test_package_members_and_cryptokit_error_comparisons_are_refused_in_apple_code_only(self):
        code, lines = self.run_check()
        self.assertEqual(code, 1)
        self.assertEqual([line.split(": ")[0] for line in lines[:-1]],
                         ["Tests/ApplePinTests/Pins.swift:3:16", "Tests/ApplePinTests/Pins.swift:6:18",
                          "Tests/ApplePinTests/Pins.swift:7:21"])
        self.assertIn("`hash(bufferPointer:)` is package API", lines[0])
        self.assertIn("1 package-only members", lines[-1])


if __name__ == "__main__":
    unittest.main()
