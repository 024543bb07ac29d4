"""Unit tests of the graph logic behind scripts/check-apple-platforms.py, on small dump-package fixtures.

Run: python3 -B -m unittest discover -s scripts/checks/tests (part of `make checks`)."""

import io
import json
import os
import sys
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import package_graph as pg  # noqa: E402


def fixture(name: str) -> pg.Graph:
    with open(os.path.join(HERE, "fixtures", name)) as f:
        return pg.Graph(json.load(f))


def violations(graph: pg.Graph, products, apple: pg.Graph | None = None):
    linux_only = pg.linux_only_targets(graph, apple)
    return pg.check_reachability(graph, "test", products, pg.forbidden_targets(graph, linux_only))


class ConditionedEdges(unittest.TestCase):
    def test_an_edge_conditioned_to_linux_does_not_apply_on_apple_platforms(self):
        g = fixture("conditioned.json")
        for platform in pg.APPLE_PLATFORMS:
            self.assertEqual(set(g.reachable(["Kit"], platform)), {"Kit"}, platform)
        self.assertEqual(set(g.reachable(["Kit"], "linux")), {"Kit", "KitBackend", "CSSL"})
        self.assertEqual(set(g.reachable(["Kit"], "android")), {"Kit", "KitBackend"})

    def test_the_conditioned_product_is_clean(self):
        found, problems = violations(fixture("conditioned.json"), ["Kit"])
        self.assertEqual(found, [])
        self.assertEqual(problems, [], "a linkedLibrary conditioned to Linux is not a problem on Apple platforms")

    def test_every_edge_conditioned_to_linux_makes_a_target_linux_only_and_test_edges_do_not_count(self):
        reasons = pg.linux_only_targets(fixture("conditioned.json"), None)
        self.assertIn("KitBackend", reasons)
        self.assertIn("Kit -> KitBackend (.when(platforms: [linux, android]))", reasons["KitBackend"])
        self.assertNotIn("Kit", reasons)

    def test_a_target_named_like_a_linux_backend_is_linux_only(self):
        g = fixture("conditioned.json")
        g.targets["KeychainLinux"] = pg.Target("KeychainLinux", "regular", None, [], None)
        g.out["KeychainLinux"] = []
        self.assertEqual(pg.linux_only_targets(g, None)["KeychainLinux"], "its name ends in 'Linux'")

    def test_defines_follow_their_platform_condition(self):
        g = fixture("conditioned.json")
        self.assertEqual(g.defines("Kit", "ios"), {"APPLE_PATH"})
        self.assertEqual(g.defines("Kit", "linux"), set())


class ExampleTargets(unittest.TestCase):
    def test_the_example_app_target_joins_the_closure_on_its_platforms_only_when_declared(self):
        g = fixture("conditioned.json")
        closure = pg.apple_closure(g, ["Kit"])
        self.assertEqual(pg.with_example_targets(g, closure), closure, "not declared: nothing added")
        name, platforms = next(iter(pg.EXAMPLE_APP_TARGETS.items()))
        g.targets[name] = pg.Target(name, "regular", "Examples/App.swiftpm/Core", [], None)
        g.out[name] = []
        extended = pg.with_example_targets(g, closure)
        self.assertEqual(extended[name], set(platforms))
        self.assertEqual({k: v for k, v in extended.items() if k != name}, closure)


class UnconditionedEdges(unittest.TestCase):
    def test_an_unconditioned_edge_reaches_the_c_library_on_every_apple_platform(self):
        g = fixture("unconditioned.json")
        found, _ = violations(g, ["Kit"])
        self.assertEqual(sorted({v.platform for v in found}), sorted(pg.APPLE_PLATFORMS))
        self.assertEqual({v.target for v in found}, {"CSSL"})
        v = next(x for x in found if x.platform == "ios")
        self.assertEqual([e.describe() for e in v.path],
                         ["Kit -> Crypto (no platform condition)", "Crypto -> CSSL (no platform condition)"])
        text = v.describe()
        self.assertIn("path: Kit (product) -> Kit -> Crypto -> CSSL", text)
        self.assertIn("unconditioned edges on the path", text)

    def test_a_linked_library_outside_apples_sdks_is_reported(self):
        _, problems = violations(fixture("unconditioned.json"), ["Kit"])
        self.assertTrue(any("links library 'sodium' on ios" in p for p in problems), problems)

    def test_products_of_other_packages_are_not_followed_and_a_missing_product_is_reported(self):
        g = fixture("unconditioned.json")
        self.assertNotIn("Remote", g.reachable(["Kit"], "ios"))
        _, problems = violations(g, ["NoSuchProduct"])
        self.assertEqual(problems, ["[test manifest] product NoSuchProduct is not declared"])

    def test_by_name_resolves_to_a_target_of_the_package(self):
        g = fixture("unconditioned.json")
        self.assertEqual(g.out["tool"][0].kind, "target")
        self.assertEqual(g.out["Kit"][1].kind, "product")


class TransitivePaths(unittest.TestCase):
    def test_a_transitive_path_is_reported_shortest_first_on_the_platforms_its_condition_lists(self):
        found, _ = violations(fixture("transitive.json"), ["App"])
        self.assertEqual([(v.platform, v.target) for v in found], [("macos", "CSodium")])
        self.assertEqual([e.target for e in found[0].path], ["Core", "Sodium", "CSodium"])
        self.assertIn("conditioned edges that still include it: Sodium -> CSodium (.when(platforms: [linux, macos]))",
                      found[0].describe())

    def test_named_linux_only_targets_are_forbidden_even_without_edges(self):
        g = fixture("transitive.json")
        forbidden = pg.forbidden_targets(g, pg.linux_only_targets(g, None))
        self.assertIn("Security", forbidden)
        self.assertIn("Facade", forbidden)      # its only edge is conditioned to Linux
        self.assertNotIn("Core", forbidden)

    def test_an_unconditioned_edge_to_a_named_linux_only_target_is_caught(self):
        g = fixture("transitive.json")
        g.out["Middle"].append(pg.Edge("Middle", "Security", "target", ()))
        found, _ = violations(g, ["App"])
        hits = [v for v in found if v.target == "Security"]
        self.assertEqual(len(hits), len(pg.APPLE_PLATFORMS))
        self.assertEqual([e.describe() for e in hits[0].path],
                         ["App -> Middle (no platform condition)", "Middle -> Security (no platform condition)"])

    def test_a_target_declared_only_on_linux_is_linux_only(self):
        linux = fixture("transitive.json")
        with open(os.path.join(HERE, "fixtures", "transitive.json")) as f:
            dump = json.load(f)
        dump["targets"] = [t for t in dump["targets"] if t["name"] != "Middle"]
        for t in dump["targets"]:
            t["dependencies"] = [d for d in t["dependencies"] if "Middle" not in json.dumps(d)]
        reasons = pg.linux_only_targets(linux, pg.Graph(dump))
        self.assertEqual(reasons["Middle"], "declared only when Package.swift is evaluated on Linux")


class AppleHostManifest(unittest.TestCase):
    def test_conditions_are_rewritten_as_a_mac_evaluates_them(self):
        text = ("#if os(Linux)\nlet a = 1\n#elseif canImport(Darwin) && !os(iOS)\nlet b = 2\n#endif\n"
                "  #if canImport(Glibc) || os( macOS ) || canImport(CSomething)\n#endif\nlet s = \"os(Linux)\"\n")
        self.assertEqual(pg.apple_host_manifest(text),
                         "#if false\nlet a = 1\n#elseif true && !false\nlet b = 2\n#endif\n"
                         "  #if false || true || canImport(CSomething)\n#endif\nlet s = \"os(Linux)\"\n")


class CommandLine(unittest.TestCase):
    def test_the_script_fails_naming_the_path_and_passes_with_report_only(self):
        import importlib.util
        path = os.path.join(os.path.dirname(os.path.dirname(HERE)), "check-apple-platforms.py")
        spec = importlib.util.spec_from_file_location("check_apple_platforms", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        dump = os.path.join(HERE, "fixtures", "unconditioned.json")
        out = io.StringIO()
        with redirect_stdout(out):
            status = module.main(["--dump", dump, "--products", "Kit"])
        self.assertEqual(status, 1)
        self.assertIn("Kit reaches CSSL", out.getvalue())
        self.assertIn("FAILED", out.getvalue())
        with redirect_stdout(io.StringIO()):
            self.assertEqual(module.main(["--dump", dump, "--products", "Kit", "--report-only"]), 0)
            clean = os.path.join(HERE, "fixtures", "conditioned.json")
            self.assertEqual(module.main(["--dump", clean, "--products", "Kit"]), 0)


if __name__ == "__main__":
    unittest.main()
