#!/usr/bin/env python3
"""py_webauthn's side of latchkey-bench's "passkey verify vs py_webauthn" figure.

    python py_webauthn_bench.py FIXTURES.json

FIXTURES.json is written by latchkey-bench: the relying party's id and origin, and per figure the browser's JSON of an
assertion or a registration, its challenge and (assertions) the stored COSE key and sign count. Each is verified once
with webauthn's verify_authentication_response / verify_registration_response (user verification required, as the
Latchkey side does); then the script answers one command per line on stdin:

    calibrate NAME        -> the number of verifications that take about 0.2 s
    round NAME BATCH      -> nanoseconds per verification over BATCH verifications

Any failure answers "error ..." (at start: instead of "ready ..."). Single thread, no other work between calls.
"""
import json
import platform
import sys
import time
from importlib.metadata import version

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import base64url_to_bytes

ROUND_SECONDS = 0.2


def make_call(document, figure):
    rp_id, origin = document["rp_id"], document["origin"]
    credential = figure["credential"]
    challenge = base64url_to_bytes(figure["challenge"])
    if figure["kind"] == "authentication":
        public_key = base64url_to_bytes(figure["public_key"])
        sign_count = figure["sign_count"]
        return lambda: verify_authentication_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=public_key, credential_current_sign_count=sign_count,
            require_user_verification=True)
    return lambda: verify_registration_response(
        credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
        require_user_verification=True)


def timed(call, batch):
    start = time.perf_counter_ns()
    for _ in range(batch):
        call()
    return time.perf_counter_ns() - start


def calibrate(call):
    batch = 1
    while True:
        elapsed = timed(call, batch)
        if elapsed > ROUND_SECONDS * 1e9 / 4 or batch >= 1 << 24:
            return max(1, int(batch * ROUND_SECONDS * 1e9 / max(elapsed, 1)))
        batch *= 4


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        document = json.load(f)
    calls = {}
    try:
        for figure in document["figures"]:
            calls[figure["name"]] = make_call(document, figure)
            calls[figure["name"]]()
    except Exception as error:  # the bytes must verify on both sides before anything is timed
        print(f"error {figure['name']}: {type(error).__name__}: {error}", flush=True)
        return 1
    print(f"ready webauthn {version('webauthn')}, cryptography {version('cryptography')}, "
          f"cbor2 {version('cbor2')}, {platform.python_implementation()} {platform.python_version()}", flush=True)
    for line in sys.stdin:
        words = line.split()
        try:
            if words[0] == "calibrate":
                print(calibrate(calls[" ".join(words[1:])]), flush=True)
            elif words[0] == "round":
                batch = int(words[-1])
                print(timed(calls[" ".join(words[1:-1])], batch) / batch, flush=True)
            else:
                print(f"error unknown command {words[0]}", flush=True)
        except Exception as error:
            print(f"error {type(error).__name__}: {error}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
