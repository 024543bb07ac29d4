/// C source of a tiny shared library the integrity tests compile with `cc -shared -fPIC` and load into a
/// child process with `LD_PRELOAD` (its file name matches the `libinject` pattern) and `LD_AUDIT`
/// (it exports `la_version`, so the dynamic linker accepts it as an audit library).
/// Kept as a Swift string because a `.c` file inside a Swift test target would make it a mixed-language target.
enum InjectedLibrarySource {
    static let fileName = "libinject-latchkey-fixture.so"

    static let text = """
    /* Latchkey test fixture: an "injected" library. It does nothing but exist in the process. */
    #include <stdio.h>

    unsigned int la_version(unsigned int version) { return version; }

    __attribute__((constructor)) static void latchkey_fixture_loaded(void) {
        /* Intentionally silent: the child reports through its JSON file, not stdout. */
    }
    """
}
