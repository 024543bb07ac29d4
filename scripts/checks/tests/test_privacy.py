"""Unit tests of scripts/check-privacy.py: the scan for required-reason APIs and the comparison with a manifest.

Run: python3 -B -m unittest discover -s scripts/checks/tests (part of `make checks`)."""

import importlib.util
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import swiftsource as ss  # noqa: E402

spec = importlib.util.spec_from_file_location("check_privacy", os.path.join(SCRIPTS, "check-privacy.py"))
privacy = importlib.util.module_from_spec(spec)
sys.modules["check_privacy"] = privacy   # its dataclasses look their module up
spec.loader.exec_module(privacy)

IOS = {"ios": ss.Conditions("ios")}
TIMESTAMP = "NSPrivacyAccessedAPICategoryFileTimestamp"
DISK = "NSPrivacyAccessedAPICategoryDiskSpace"
BOOT = "NSPrivacyAccessedAPICategorySystemBootTime"
DEFAULTS = "NSPrivacyAccessedAPICategoryUserDefaults"


def uses(source: str) -> list[tuple[str, str]]:
    tokens = ss.tokenize(source)
    return [(u.category, u.symbol) for u in privacy.uses_in(tokens, ss.compiled_mask(tokens, IOS), "t.swift")]


def manifest(*entries, tracking=False):
    return {"NSPrivacyTracking": tracking, "NSPrivacyCollectedDataTypes": [],
            "NSPrivacyAccessedAPITypes": [{"NSPrivacyAccessedAPIType": c, "NSPrivacyAccessedAPITypeReasons": r}
                                          for c, r in entries]}


class Scan(unittest.TestCase):
    def test_calls_names_and_qualified_members_are_found(self):
        self.assertEqual(uses("_ = stat(path, &info)"), [(TIMESTAMP, "stat")])
        self.assertEqual(uses("let a = try FileManager.default.attributesOfItem(atPath: p)"),
                         [(TIMESTAMP, "attributesOfItem")])
        self.assertEqual(uses("let d = attributes[FileAttributeKey.creationDate]"), [(TIMESTAMP, "FileAttributeKey.creationDate")])
        self.assertEqual(uses("let up = ProcessInfo.processInfo.systemUptime"), [(BOOT, "systemUptime")])
        self.assertEqual(uses("UserDefaults.standard.set(1, forKey: k)"), [(DEFAULTS, "UserDefaults")])
        self.assertEqual(uses("let v = try url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])"),
                         [(DISK, "volumeAvailableCapacityForImportantUsageKey")])
        self.assertEqual(sorted(uses("getattrlist(p, &l, &b, n, 0)")), [(DISK, "getattrlist"), (TIMESTAMP, "getattrlist")])

    def test_keychain_dates_declarations_comments_strings_and_linux_code_are_not_uses(self):
        source = """
        item.attributes.creationDate = now        // kSecAttrCreationDate, not a file
        let modified = query.modificationDate
        func stat(_ path: String) {}              // a declaration named like the call
        let text = "stat(path) and UserDefaults"  // a string
        /* UserDefaults.standard */
        #if os(Linux)
        _ = stat(path, &info)
        #endif
        """
        self.assertEqual(uses(source), [])


class Compare(unittest.TestCase):
    def scanned(self, source):
        tokens = ss.tokenize(source)
        return privacy.uses_in(tokens, ss.compiled_mask(tokens, IOS), "App/Settings.swift")

    def test_exactly_the_used_categories_pass(self):
        self.assertEqual(privacy.compare("m", manifest((DEFAULTS, ["CA92.1"])), self.scanned("UserDefaults.standard")), [])
        self.assertEqual(privacy.compare("m", manifest(), []), [])

    def test_an_undeclared_use_names_the_file_and_line(self):
        problems = privacy.compare("m", manifest(), self.scanned("\nlet d = UserDefaults.standard"))
        self.assertEqual(len(problems), 1)
        self.assertTrue(problems[0].startswith("App/Settings.swift:2:9: `UserDefaults`"), problems[0])

    def test_a_declaration_without_a_use_fails(self):
        problems = privacy.compare("m", manifest((BOOT, ["35F9.1"])), [])
        self.assertEqual(problems, [f"m: declares {BOOT}, which its code does not use (declare exactly what it uses)"])

    def test_reasons_must_be_apples_for_the_category(self):
        used = self.scanned("UserDefaults.standard")
        problems = privacy.compare("m", manifest((DEFAULTS, ["C617.1"])), used)
        self.assertEqual(len(problems), 1)
        self.assertIn("'C617.1' is not a reason Apple lists for " + DEFAULTS, problems[0])
        self.assertIn("has no reason", privacy.compare("m", manifest((DEFAULTS, [])), used)[0])

    def test_shape_unknown_and_repeated_categories(self):
        _, problems = privacy.declared({"NSPrivacyAccessedAPITypes": "no"}, "m")
        self.assertIn("m: NSPrivacyTracking is not a boolean", problems)
        self.assertIn("m: NSPrivacyCollectedDataTypes is not an array", problems)
        self.assertIn("m: NSPrivacyAccessedAPITypes is not an array", problems)
        _, problems = privacy.declared(manifest(("NSPrivacyAccessedAPICategoryLocation", ["X"]),
                                                (DEFAULTS, ["CA92.1"]), (DEFAULTS, ["1C8F.1"])), "m")
        self.assertEqual(problems, ["m: 'NSPrivacyAccessedAPICategoryLocation' is not a required-reason API category",
                                    f"m: {DEFAULTS} is declared twice"])


if __name__ == "__main__":
    unittest.main()
