# Latchkey — the two commands a newcomer needs:
#   make test   install what the tests need (Debian packages, as root), start the services they use, run them
#   make demo   the sample app end to end in a temporary directory
SHELL := /bin/bash
SWIFT ?= swift
SWIFT_FLAGS ?=
export LATCHKEY_LANG ?= en
# tpm2-tss prints its own warnings for every TPM error the TPM tests provoke on purpose; the tests check the errors.
export TSS2_LOG ?= all+NONE

.PHONY: test demo deps build build-release bench soak fuzz clean checks check-apple apple-frameworks check-apple-sdk

# Debian packages the build and the tests need. Installed only when missing; needs root (CI runs as root).
DEBS := pkg-config libssl-dev libsodium-dev libsqlite3-dev libpq-dev libmicrohttpd-dev \
        libpam0g-dev libpam-wrapper libsecret-1-dev libkeyutils-dev libtss2-dev libtss2-tcti-swtpm0 swtpm swtpm-tools \
        dbus dbus-bin gnome-keyring postgresql openssl strace tmux python3-venv chromium chromium-driver \
        fprintd libpam-fprintd python3-dbusmock libargon2-1 nginx-light

deps:
	@scripts/install-deps.sh $(DEBS)

build: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests

build-release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

# Apple platforms without a Mac (issue 25), in seconds: the checkers' own unit tests; no API above the
# `platforms:` floor in the client products without @available/#available (the toolchain's .swiftinterface
# availability); no glibc-only symbol outside a Linux condition; every Security / LocalAuthentication / CryptoKit /
# CommonCrypto / AuthenticationServices symbol of the Linux facades pinned in Tests/ApplePinTests (whose pin files
# `swift test` compiles); the privacy manifests (the client products', the example app's) declaring exactly the
# required-reason APIs their code calls; the Linux modules with Apple's names carrying Apple's SDK facts
# (docs/apple-sdk/*.tsv: availability per platform, main-actor isolation, Sendable); the tests said to compile against
# Apple's SDK using none of those modules' package API and not comparing CryptoKitError (Equatable from iOS 17.4).
checks: deps
	python3 -B -m unittest discover -s scripts/checks/tests
	scripts/check-apple-facts.py
	scripts/check-portable-tests.py
	SWIFT=$(SWIFT) scripts/check-availability.py
	SWIFT=$(SWIFT) scripts/check-glibc.py
	SWIFT=$(SWIFT) scripts/check-pins.py
	SWIFT=$(SWIFT) scripts/check-privacy.py

# Whether a client product reaches a C system library or a Linux-only target on iOS, tvOS, watchOS, visionOS or
# macOS (scripts/check-apple-platforms.py, from dump-package). APPLE_REACHABILITY=report prints the paths and
# passes; enforce fails on them. It is report until the issue-25 manifest restructure lands, then enforce.
APPLE_REACHABILITY ?= enforce

check-apple: deps
	SWIFT=$(SWIFT) scripts/check-apple-platforms.py $(if $(filter enforce,$(APPLE_REACHABILITY)),,--report-only)

# The apple-frameworks mode (issue 25): the client products and their tests built with LATCHKEY_APPLE_FRAMEWORKS
# defined, as on an iPhone or a Mac — Apple's CryptoKit, CommonCrypto, Security, LocalAuthentication and
# AuthenticationServices instead of OpenSSL/libsodium and the Linux backends — against the package's own Linux modules
# of those names, then run.
# Its own scratch path, so it never rebuilds the default build. LATCHKEY_KEYCHAIN=memory keeps anything that reaches
# the Security facade's default store out of the user's files. The mode builds no server or CLI: its ASAuthorization
# tests start the default build's `latchkey serve` and `latchkey apple-stand-in` (LATCHKEY_CLI_BINARY; `make test`
# builds the default mode first).
APPLE_SCRATCH ?= .build/apple-frameworks

apple-frameworks: deps
	LATCHKEY_APPLE_FRAMEWORKS=1 $(SWIFT) build $(SWIFT_FLAGS) --build-tests --scratch-path $(APPLE_SCRATCH)
	LATCHKEY_APPLE_FRAMEWORKS=1 LATCHKEY_KEYCHAIN=memory \
		LATCHKEY_CLI_BINARY="$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/latchkey" \
		$(SWIFT) test $(SWIFT_FLAGS) --skip-build --scratch-path $(APPLE_SCRATCH)

# The client products, the portable tests, the pins and CryptoKitVectors compiled against the oldest admitted SDK's
# CryptoKit as modeled from the facts (--model: the Linux module's public interface, Sendable as iOS 18.0 declares
# it), then against Apple's own declarations: LATCHKEY_APPLE_SDK names Xcode's SDK on a Mac, or a folder holding
# Apple's interface files (each CryptoKit .swiftinterface under it is one SDK, loaded on Linux). Without it, that
# step says so and passes (docs/COMPATIBILITY.md).
check-apple-sdk: deps
	SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" scripts/check-apple-sdk.py --model
	SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" scripts/check-apple-sdk.py

# swift test runs inside scripts/with-services.sh: a private D-Bus session with an unlocked
# gnome-keyring, and a throwaway PostgreSQL cluster on loopback. LATCHKEY_REQUIRE_SERVICES=1 makes a
# test that finds a service missing fail instead of skipping. Then the CryptoKit-only package against published
# vectors, and the HTTP API against docs/openapi.yaml: schemathesis (PyPI, pinned, in .build/contract-venv) with
# every check against a throwaway `latchkey serve`, bounded to LATCHKEY_CONTRACT_SECONDS (90) of generation.
test: checks check-apple build apple-frameworks check-apple-sdk
	LATCHKEY_REQUIRE_SERVICES=1 scripts/with-services.sh $(SWIFT) test $(SWIFT_FLAGS) --skip-build --parallel --num-workers 2
	SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" scripts/cryptokit-vectors.sh
	SWIFT="$(SWIFT)" scripts/contract-test.sh
	@if [ -x scripts/browser-test.sh ]; then scripts/browser-test.sh; fi

demo: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product latchkey
	scripts/demo.sh "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/latchkey"

# The load generator and the nginx ceiling the HTTP figures are measured against; valgrind for the
# instruction counts of scripts/bench-instructions.sh.
BENCH_DEBS := wrk nginx-light valgrind

# py_webauthn (PyPI, pinned with its dependencies in scripts/bench/py-webauthn-requirements.txt, installed into
# .build/py-webauthn-venv, again only when the pins change) verifies the passkey figures' bytes beside Latchkey.
bench: deps
	@scripts/install-deps.sh $(BENCH_DEBS)
	$(SWIFT) build -c release $(SWIFT_FLAGS)
	# Under the test services, so the refresh endpoint is measured on PostgreSQL as well as on SQLite.
	python=$$(scripts/bench/py-webauthn-venv.sh) && LATCHKEY_BENCH_PY_WEBAUTHN="$$python" scripts/with-services.sh \
	    sh -c 'LATCHKEY_BENCH_POSTGRES="$$LATCHKEY_TEST_POSTGRES" $(SWIFT) run -c release latchkey-bench'

# The vault's fault-injection figures at full size (1,000 SIGKILLs, 500 damaged files per kind, disk full);
# rewrites their table in docs/RELIABILITY.md. Short versions of the same tests run in `make test`.
soak: build
	scripts/soak.sh

# Coverage-guided fuzzing of every parser with libFuzzer + AddressSanitizer (not part of `make test`):
# FUZZ_SECONDS per target (default 60), FUZZ_TARGETS to pick some. Crashers go to Tests/Fuzz/Regressions/
# (replayed by `make test`); the table in docs/RELIABILITY.md is rewritten.
FUZZ_SECONDS ?= 60

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) scripts/fuzz.sh

clean:
	rm -rf .build
