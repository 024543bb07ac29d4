"""Seeds a throwaway `latchkey serve` for the contract test: one account with a password (the identity schemathesis
signs in as, through its dynamic auth) and passkeys on it, so that listing, renaming and deleting reach real passkeys.

The passkeys are registered through the API with `none` attestation, which needs no signature: the credential key is
the P-256 base point (a valid public key whose private key is 1), so they can be listed and managed but never sign in.
Standard library only. Usage: seed.py BASE_URL USERNAME PASSWORD [PASSKEYS]
"""

import base64
import hashlib
import json
import sys
import urllib.error
import urllib.request

# The P-256 base point G (SEC 2, section 2.4.2).
P256_GX = bytes.fromhex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
P256_GY = bytes.fromhex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")


def cbor(value):
    """The canonical CBOR of the few types a none attestation object needs."""
    def head(major, length):
        if length < 24:
            return bytes([major << 5 | length])
        if length < 0x100:
            return bytes([major << 5 | 24, length])
        if length < 0x10000:
            return bytes([major << 5 | 25]) + length.to_bytes(2, "big")
        return bytes([major << 5 | 26]) + length.to_bytes(4, "big")

    if isinstance(value, bool):
        raise TypeError("no booleans needed")
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return head(3, len(data)) + data
    if isinstance(value, dict):
        items = sorted((cbor(k), cbor(v)) for k, v in value.items())  # canonical: keys by their encoding
        return head(5, len(items)) + b"".join(k + v for k, v in items)
    raise TypeError(type(value))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def send(base, method, path, body=None, token=None):
    """The status and the JSON body of one request (an error status is answered, not raised)."""
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def call(base, method, path, body=None, token=None):
    status, value = send(base, method, path, body, token)
    if status >= 400:
        raise RuntimeError("%s %s answered %d" % (method, path, status))
    return value


def register_passkey(base, token, index):
    options = call(base, "POST", "/v1/passkeys/register/options", {}, token)["publicKey"]
    client_data = json.dumps({"type": "webauthn.create", "challenge": options["challenge"],
                              "origin": base, "crossOrigin": False}).encode()
    credential_id = hashlib.sha256(b"latchkey contract passkey %d" % index).digest()
    key = cbor({1: 2, 3: -7, -1: 1, -2: P256_GX, -3: P256_GY})
    auth_data = (hashlib.sha256(options["rp"]["id"].encode()).digest() + bytes([0x45]) + (0).to_bytes(4, "big")
                 + bytes(16) + len(credential_id).to_bytes(2, "big") + credential_id + key)
    attestation = cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
    call(base, "POST", "/v1/passkeys/register/verify", {
        "id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
        "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                     "transports": ["internal"]},
        "clientExtensionResults": {},
    }, token)


def main():
    base, username, password = sys.argv[1:4]
    passkeys = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    call(base, "POST", "/v1/accounts", {"username": username, "password": password})
    token = call(base, "POST", "/v1/session/password", {"username": username, "password": password})["access_token"]
    for index in range(passkeys):
        register_passkey(base, token, index)
    listed = call(base, "GET", "/v1/passkeys", token=token)["passkeys"]
    print("contract-test: seeded %s with %d passkeys" % (username, len(listed)))
    # The account's id, for the hooks (they keep schemathesis from deleting it or changing its password).
    print("account_id=%s" % call(base, "GET", "/v1/me", token=token)["id"])


if __name__ == "__main__":
    main()
