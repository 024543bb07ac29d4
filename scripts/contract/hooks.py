"""schemathesis hooks of the contract test (scripts/contract-test.sh).

Every generated request carries an X-Forwarded-For address of its own (198.18.0.0/15, set aside for tests), and the
throwaway server trusts 127.0.0.1 as a proxy: to the server each request comes from another client, so the per-address
login throttle (20 free failures, then growing delays) does not turn the rest of the run into 429s. The per-account
throttle still applies, and AbuseLoginTests covers the per-address one.
"""

import random

import schemathesis


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = dict(case.headers or {})
    headers["X-Forwarded-For"] = "198.18.%d.%d" % (random.randrange(256), random.randrange(1, 255))
    case.headers = headers
