#!/usr/bin/env python3
"""Issue 25: no file an Apple platform compiles uses a glibc-only (Linux-only) symbol or idiom.

What it checks: every .swift file of every target a Mac would compile for some Apple platform — libraries,
executables and tests, as dump-package describes them (scripts/checks/package_graph.py,
`apple_compiled_targets`) — for the symbols in GLIBC_ONLY / GLIBC_PREFIXES below, the `CONSTANT.rawValue`
idiom (glibc imports SOCK_STREAM, RLIMIT_CORE, ... as enums; Darwin as plain Int32), any use of the `Glibc` or
`Musl` module, `/proc/` paths in string literals, and any `import`, in a target of the client products or of the
example app (SecureNotesExampleCore), of a module that does not exist on
Apple platforms: a C system library of this package other than Apple's own, or a Linux-only Swift target (the Linux
modules with Apple's names — CryptoKit, Security, ... — are the system frameworks there and are fine). The
compiler on Linux cannot see such an import: in the apple-frameworks mode every module of the build is on its
search path. Skipped (they are never compiled for Apple platforms):
Linux-only targets, system libraries, and targets that depend on a Linux-only target on every Apple platform.

How: a lexer (scripts/checks/swiftsource.py) drops comments and string contents, then evaluates the
`#if`/`#elseif`/`#else`/`#endif` regions for each Apple platform — `os(Linux)` and `canImport(Glibc)` are false
there, `os(macOS)` true only on macOS, manifest `define`s as the target gets them on that platform — so a
symbol inside `#if os(Linux)` or `#if canImport(Glibc)` is fine and one in their `#else` or outside them is
reported, with the platforms that compile it.

This is a curated list, not a proof: a glibc-only function missing from it, or a Darwin-only one, is not
found; the compiler on a Mac has the last word. A deliberate, runtime-guarded use (e.g. reading a /proc file
that is simply absent elsewhere) is listed in ALLOWED below, by file and symbol, with its reason.

Usage: scripts/check-glibc.py [--root DIR] [--list]. Exit 0 when clean, 1 with findings, 2 on an error.
Takes ~2 s (dump-package twice, then ~400 files).
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks"))

import package_graph as pg  # noqa: E402
import swiftsource as ss  # noqa: E402

# Symbols glibc declares and Darwin does not (or declares differently), with the Darwin way.
GLIBC_ONLY = {
    # Signals
    "__sigaction_handler": "glibc's union in struct sigaction (Darwin: __sigaction_u.__sa_handler)",
    "signalfd": "Linux only (Darwin: kqueue EVFILT_SIGNAL or DispatchSource.makeSignalSource)",
    # Sockets
    "SOCK_CLOEXEC": "Linux socket(2) type flag (Darwin: fcntl(fd, F_SETFD, FD_CLOEXEC))",
    "SOCK_NONBLOCK": "Linux socket(2) type flag (Darwin: fcntl(fd, F_SETFL, O_NONBLOCK))",
    "MSG_NOSIGNAL": "Linux send(2) flag (Darwin: setsockopt SO_NOSIGPIPE)",
    "SO_PEERCRED": "Linux (Darwin: getpeereid or LOCAL_PEERCRED)",
    "ucred": "Linux struct ucred (Darwin: xucred)",
    "accept4": "Linux (Darwin: accept, then fcntl)",
    "SOL_TCP": "Linux alias (use IPPROTO_TCP)",
    "__socket_type": "glibc's enum of socket types (Darwin: Int32 constants)",
    "AF_NETLINK": "Linux only",
    "AF_PACKET": "Linux only",
    # Files
    "pipe2": "Linux (Darwin: pipe, then fcntl)",
    "O_TMPFILE": "Linux only (Darwin: mkstemp)",
    "O_PATH": "Linux only",
    "O_NOATIME": "Linux only",
    "O_DIRECT": "Linux only (Darwin: fcntl F_NOCACHE)",
    "O_LARGEFILE": "Linux only",
    "memfd_create": "Linux only",
    "fallocate": "Linux only (Darwin: fcntl F_PREALLOCATE)",
    "posix_fallocate": "not in Darwin (fcntl F_PREALLOCATE)",
    "posix_fadvise": "not in Darwin (fcntl F_RDADVISE)",
    "sync_file_range": "Linux only",
    "copy_file_range": "Linux only (Darwin: copyfile / fcopyfile)",
    "renameat2": "Linux only (Darwin: renameatx_np)",
    "statx": "Linux only",
    "st_mtim": "glibc's struct stat field (Darwin: st_mtimespec)",
    "st_atim": "glibc's struct stat field (Darwin: st_atimespec)",
    "st_ctim": "glibc's struct stat field (Darwin: st_ctimespec)",
    "open64": "glibc large-file API", "lseek64": "glibc large-file API", "off64_t": "glibc large-file API",
    "pread64": "glibc large-file API", "pwrite64": "glibc large-file API", "mmap64": "glibc large-file API",
    "ftruncate64": "glibc large-file API",
    "mremap": "Linux only", "MAP_POPULATE": "Linux only", "MAP_HUGETLB": "Linux only",
    # Events and timers
    "eventfd": "Linux only (Darwin: a pipe or kqueue EVFILT_USER)",
    "eventfd_read": "Linux only", "eventfd_write": "Linux only",
    "CLOCK_BOOTTIME": "Linux only (Darwin: CLOCK_MONOTONIC)",
    "CLOCK_MONOTONIC_COARSE": "Linux only", "CLOCK_REALTIME_COARSE": "Linux only",
    # Processes, memory, randomness
    "prctl": "Linux only",
    "gettid": "Linux only (Darwin: pthread_threadid_np)",
    "getauxval": "Linux only",
    "sched_getaffinity": "Linux only", "sched_setaffinity": "Linux only", "cpu_set_t": "Linux only",
    "get_nprocs": "glibc only (ProcessInfo.activeProcessorCount)",
    "sysinfo": "Linux only",
    "program_invocation_name": "glibc only (ProcessInfo.processName)",
    "program_invocation_short_name": "glibc only (ProcessInfo.processName)",
    "environ": "not declared by Darwin's headers (ProcessInfo.processInfo.environment or _NSGetEnviron())",
    "__environ": "glibc only",
    "secure_getenv": "glibc only",
    "__errno_location": "glibc's errno (use errno)",
    "__rlimit_resource_t": "glibc's enum type of RLIMIT_* (Darwin: Int32)",
    "__rlimit_resource": "glibc's enum of RLIMIT_* (Darwin: Int32)",
    "malloc_trim": "glibc only", "mallinfo": "glibc only", "mallinfo2": "glibc only", "mallopt": "glibc only",
    "malloc_usable_size": "glibc only (Darwin: malloc_size)",
    "explicit_bzero": "not in Darwin (memset_s)",
    "getrandom": "Linux only (Darwin: getentropy or SecRandomCopyBytes)",
    "pthread_setname_np": "takes (thread, name) on Linux but (name) on Darwin",
    "PTHREAD_MUTEX_ADAPTIVE_NP": "glibc only",
    "dl_iterate_phdr": "not in Darwin (_dyld_image_count)",
    "add_key": "Linux kernel keyring", "request_key": "Linux kernel keyring",
    # Modules
    "Glibc": "the glibc module (Darwin: Darwin; import it under #if canImport(Glibc))",
    "Musl": "the musl module",
    "FoundationNetworking": "exists only in swift-corelibs-foundation (URLSession is in Foundation on Apple platforms)",
}

GLIBC_PREFIXES = {
    "epoll_": "Linux epoll (Darwin: kqueue)", "EPOLL": "Linux epoll (Darwin: kqueue)",
    "EFD_": "Linux eventfd", "timerfd_": "Linux timerfd", "TFD_": "Linux timerfd",
    "inotify_": "Linux inotify (Darwin: FSEvents or kqueue EVFILT_VNODE)",
    "keyctl": "Linux kernel keyring", "KEY_SPEC_": "Linux kernel keyring", "KEYCTL_": "Linux kernel keyring",
    "PR_SET_": "Linux prctl", "PR_GET_": "Linux prctl", "SYS_": "Linux syscall numbers",
    "GRND_": "Linux getrandom", "MFD_": "Linux memfd", "SFD_": "Linux signalfd",
}

# `SOCK_STREAM.rawValue`: glibc declares these constants in named C enums (`enum __socket_type`,
# `__rlimit_resource`, `__rusage_who`, `__priority_which`, `__itimer_which`, `__ptrace_request`, `idtype_t`),
# which Swift imports as types with `rawValue`; Darwin declares them as macros, imported as plain Int32.
# (A constant of a named enum in a C library of our own, e.g. libmicrohttpd's MHD_OPTION, is the same on both.)
RAWVALUE_CONSTANT = re.compile(r"^(SOCK|RLIMIT|RUSAGE|PRIO|ITIMER|PTRACE|P)_[A-Z0-9_]+$")

# Deliberate uses, by file and symbol, each with why it is fine on Apple platforms.
ALLOWED = {
    ("Sources/Latchkey/Integrity/ProcessSnapshot.swift", "/proc/"):
        "read through ProcFile, which answers nil where /proc does not exist: the snapshot then has no Linux facts",
    ("Sources/latchkey-bench/AuthBenchmarks.swift", "/proc/"):
        "the write counters read zeros where /proc/self/io does not exist (documented there)",
    ("Tests/LatchkeyTests/Fixtures/ChildProcess.swift", "/proc/"):
        "falls back to CommandLine.arguments[0] where /proc/self/exe does not exist",
    ("Tests/LatchkeyTests/Fixtures/TmuxSession.swift", "/proc/"):
        "only confirms the tmux server's pid before a second kill; without /proc that kill is skipped",
}

LINUX_PATHS = ("/proc/",)


def glibc_note(tokens, i):
    """Why tokens[i] is glibc-only, or None."""
    t = tokens[i]
    if t.kind == "string":
        for path in LINUX_PATHS:
            if path in t.text:
                return f"Linux-only path {path!r} in a string (absent on Apple platforms)", path
        return None
    if t.kind != "ident":
        return None
    prev = tokens[i - 1] if i else None
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    declared = prev is not None and prev.kind == "ident" and prev.text in ("let", "var", "func", "case")
    if declared:
        return None
    if t.text == "environ" and ((prev is not None and prev.text == ".") or (nxt is not None and nxt.text == ":")):
        return None   # a member or a label named environ, not glibc's variable
    if t.text in GLIBC_ONLY:
        return GLIBC_ONLY[t.text], t.text
    for prefix, why in GLIBC_PREFIXES.items():
        if t.text.startswith(prefix) and (prev is None or prev.text != "."):
            return why, t.text
    if RAWVALUE_CONSTANT.match(t.text) and nxt is not None and nxt.text == "." and i + 2 < len(tokens) \
            and tokens[i + 2].text == "rawValue":
        return ("glibc imports this C constant as an enum; on Darwin it is a plain Int32 "
                "(no .rawValue): LatchkeySupport's PortableSocket.stream, or #if canImport(Glibc)"), t.text + ".rawValue"
    return None


def import_note(tokens, i, forbidden_modules):
    """Why `import <module>` at tokens[i] cannot compile on an Apple platform, or None."""
    t = tokens[i]
    if t.kind != "ident" or t.text != "import" or i + 1 >= len(tokens):
        return None
    module = tokens[i + 1]
    if module.kind in ("ident", "keyword") and module.text in ("struct", "class", "enum", "protocol", "func",
                                                                "var", "let", "typealias"):
        module = tokens[i + 2] if i + 2 < len(tokens) else module   # `import struct M.T`
    name = module.text
    if name in forbidden_modules:
        return f"imports {name}, which does not exist on Apple platforms ({forbidden_modules[name]})", "import " + name
    return None


def scan_file(root, rel, conditions, forbidden_modules=None):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    tokens = ss.tokenize(text)
    mask = ss.compiled_mask(tokens, conditions)
    findings = []
    for i, (t, platforms) in enumerate(zip(tokens, mask)):
        if not platforms or t.kind == "directive":
            continue
        note = glibc_note(tokens, i) or import_note(tokens, i, forbidden_modules or {})
        if not note:
            continue
        why, symbol = note
        if (rel, symbol) in ALLOWED:
            continue
        order = [p for p in ss.APPLE_PLATFORMS if p in platforms]
        kind = "cannot compile" if symbol.startswith("import ") else "is glibc-only and compiled"
        findings.append(f"{rel}:{t.line}:{t.col}: `{symbol}` {kind} on {', '.join(order)} "
                        f"(outside #if os(Linux) / canImport(Glibc) / !LATCHKEY_APPLE_FRAMEWORKS): {why}")
    return findings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--list", action="store_true", help="list the targets scanned and skipped")
    args = parser.parse_args(argv)
    graphs = pg.load_graphs_or_report(args.root, "check-glibc")
    if graphs is None:
        return 2
    linux, apple = graphs
    linux_only = pg.linux_only_targets(linux, apple)
    targets, skipped = pg.apple_compiled_targets(linux, apple, linux_only)
    # Imports are held to Apple's SDK only in what the client products compile (the server, the tool and the
    # benchmarks are Linux-first: on macOS they take their C libraries from Homebrew).
    forbidden_modules = {name: why for name, why in pg.forbidden_targets(linux, linux_only).items()
                         if name not in pg.APPLE_FRAMEWORK_NAMES}
    client_targets = set(pg.with_example_targets(apple, pg.apple_closure(apple, pg.CLIENT_PRODUCTS)))
    if args.list:
        print("scanned:", ", ".join(targets))
        for name, why in sorted(skipped.items()):
            print(f"skipped {name}: {why}")
    findings, files = [], 0
    for target in targets:
        graph = apple if target in apple.targets else linux
        conditions = pg.compile_conditions(graph, target)
        for rel in linux.swift_files(args.root, target):
            files += 1
            try:
                findings += scan_file(args.root, rel, conditions,
                                      forbidden_modules if target in client_targets else None)
            except ss.LexError as error:
                findings.append(f"{rel}: cannot be read by the checker: {error}")
    for f in findings:
        print(f)
    if findings:
        print(f"check-glibc: FAILED — {len(findings)} glibc-only use(s) compiled on Apple platforms "
              f"in {files} files of {len(targets)} targets")
        return 1
    print(f"check-glibc: ok — {files} files of {len(targets)} targets use no listed glibc-only symbol "
          f"outside a Linux condition")
    return 0


if __name__ == "__main__":
    sys.exit(main())
