"""schemathesis hooks of the contract test (scripts/contract-test.sh).

Every generated request carries an X-Forwarded-For address of its own (198.18.0.0/15, set aside for tests), and the
throwaway server trusts 127.0.0.1 as a proxy: to the server each request comes from another client, so the per-address
login throttle (20 free failures, then growing delays) does not turn the rest of the run into 429s. The per-account
throttle still applies, and AbuseLoginTests covers the per-address one.

The configured dynamic auth signs in as the seeded account (scripts/contract/seed.py) and puts its token on every
operation whose security allows a Bearer token. Two kinds of operation must not get it:
- the sign-ins (passwordLogin, passkeyAuthenticationVerify, appleLogin), where a Bearer token makes the request a
  step-up of that token's session: a generated login of another account would be 403 account_mismatch, which would cut
  every create -> login chain short. Without the token they are plain sign-ins, as an app sends them;
- deleteMe and changePassword, which would delete the seeded account (and its passkeys, which the passkey operations
  need) or change the password the dynamic auth signs in with. They get a throwaway account's token instead, made
  through the API; tokens from the links (an account the run itself created and signed in to) are left alone.
Step-up itself is covered by the Swift tests (StepUpTests).
"""

import base64
import json
import os
import random

import schemathesis
from seed import send

SIGN_INS = {"passwordLogin", "passkeyAuthenticationVerify", "appleLogin"}
ACCOUNT_CHANGES = {"deleteMe", "changePassword"}
SEEDED = os.environ.get("LATCHKEY_CONTRACT_ACCOUNT_ID", "")
BASE = os.environ.get("LATCHKEY_CONTRACT_URL", "")

_throwaway = {"token": None}


def _call(method, path, body=None, token=None):
    return send(BASE, method, path, body, token)


def _subject(authorization):
    """The unverified `sub` of a Bearer JWT (enough to tell the seeded account's tokens apart)."""
    try:
        payload = authorization.split(" ", 1)[1].split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))).get("sub")
    except (IndexError, ValueError, AttributeError):
        return None


def _throwaway_token():
    """A live token of an account made for the purpose (recent enough for DELETE /v1/me: the server's step-up max age
    is longer than the run); a new account when the last one was deleted or its password changed."""
    token = _throwaway["token"]
    if token is not None and _call("GET", "/v1/me", token=token)[0] == 200:
        return token
    name = "contract-throwaway-%08x" % random.getrandbits(32)
    password = "throwaway password %08x" % random.getrandbits(32)
    _call("POST", "/v1/accounts", {"username": name, "password": password})
    status, tokens = _call("POST", "/v1/session/password", {"username": name, "password": password})
    _throwaway["token"] = tokens["access_token"] if status == 200 and tokens else None
    return _throwaway["token"]


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = dict(case.headers or {})
    headers["X-Forwarded-For"] = "198.18.%d.%d" % (random.randrange(256), random.randrange(1, 255))
    operation = case.operation.definition.raw.get("operationId")
    authorization = headers.get("Authorization")
    if authorization is not None and SEEDED and _subject(authorization) == SEEDED:
        if operation in SIGN_INS:
            del headers["Authorization"]
        elif operation in ACCOUNT_CHANGES:
            token = _throwaway_token()
            if token is not None:
                headers["Authorization"] = "Bearer " + token
    case.headers = headers
