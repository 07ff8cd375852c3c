#!/usr/bin/env python3
"""Verify a feedbase webhook delivery with the Python 3 standard library only.

Use as a library (e.g. in Flask: raw = request.get_data(); headers = request.headers):

    from verify import verify_webhook
    ok, reason = verify_webhook(secret, headers, raw)
    if not ok:
        abort(401)

Or from a shell (the body is read raw from stdin):

    python3 verify.py --secret "$SECRET" -H "X-Webhook-Signature: ..." -H "webhook-id: ..." \
        -H "webhook-timestamp: ..." -H "webhook-signature: v1,..." [--now SECONDS] \
        [--tolerance 300] [--scheme both|standard|hex] < body.json
    python3 verify.py --vector        # checks the test vector of docs/webhook-verification.md

Exit status: 0 verified, 1 rejected, 2 usage error.

Rules that matter:
- Verify the RAW body bytes as received. json.loads + json.dumps changes the bytes (spacing,
  number formatting) and the signature no longer matches.
- Compare signatures in constant time (hmac.compare_digest), never with ==.
- Standard Webhooks: reject a webhook-timestamp more than 5 minutes from now (replays).
- De-duplicate by webhook-id (equal to X-Webhook-Id): it is the same on every retry of a
  delivery. Delivery is at-least-once, so remember the ids you processed and acknowledge (2xx) a
  repeat without acting on it again.
"""
import argparse
import base64
import hashlib
import hmac
import re
import sys
import time

# Same strict pattern as feedbase: a secret that only looks like whsec_+base64 is used as UTF-8.
STRICT_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$")

VECTOR = {
    "secret": "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX",
    "raw_body": b'{"ingredient":"Soybean meal 48%","old_price":455,"new_price":462.5,"timestamp":"2026-11-21T14:03:07.123Z"}',
    "now": 1795269787,
    "headers": {
        "Content-Type": "application/json",
        "X-Webhook-Event": "price.updated",
        "X-Webhook-Signature": "8acce239873c3e85647f4741ef183cc70e87e6bb4d398c3c5ad87b13c49b45b7",
        "X-Webhook-Id": "dlv_2f9QxR7mKp4LwT8z",
        "webhook-id": "dlv_2f9QxR7mKp4LwT8z",
        "webhook-timestamp": "1795269787",
        "webhook-signature": "v1,SCAND/Y4SVld7L8IFMCPfu0YDgf/OSGYbOqJ40ULyy4=",
    },
}


def standard_key(secret):
    """The Standard Webhooks key: the bytes after 'whsec_' when they are base64, else the secret's UTF-8."""
    rest = secret[len("whsec_"):]
    if secret.startswith("whsec_") and STRICT_BASE64.match(rest):
        return base64.b64decode(rest, validate=True)
    return secret.encode("utf-8")


def _header(headers, name):
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def verify_webhook(secret, headers, raw_body, now=None, tolerance=300, scheme="both"):
    """Return (True, None) or (False, reason). scheme: 'both' (default; what feedbase sends),
    'standard' (webhook-* headers only) or 'hex' (X-Webhook-Signature only: no replay protection)."""
    if scheme not in ("both", "standard", "hex"):
        return False, "unknown scheme " + scheme
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    now = int(time.time()) if now is None else now

    if scheme in ("both", "hex"):
        supplied = _header(headers, "x-webhook-signature")
        if not supplied:
            return False, "missing X-Webhook-Signature"
        expected = hmac.new(secret.encode("utf-8"), raw_body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected.encode(), supplied.strip().lower().encode()):
            return False, "bad X-Webhook-Signature"

    if scheme in ("both", "standard"):
        msg_id = _header(headers, "webhook-id")
        timestamp = _header(headers, "webhook-timestamp")
        signatures = _header(headers, "webhook-signature")
        if not msg_id or not timestamp or not signatures:
            return False, "missing webhook-id/-timestamp/-signature"
        legacy_id = _header(headers, "x-webhook-id")
        if legacy_id is not None and legacy_id != msg_id:
            return False, "X-Webhook-Id differs from webhook-id"
        if not re.fullmatch(r"[0-9]{1,15}", timestamp):
            return False, "bad webhook-timestamp"
        if abs(now - int(timestamp)) > tolerance:
            return False, "webhook-timestamp outside tolerance"
        signed = msg_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + raw_body
        digest = hmac.new(standard_key(secret), signed, hashlib.sha256).digest()
        expected = b"v1," + base64.b64encode(digest)
        # Several space-separated signatures may be sent (e.g. during a secret rotation); one match is enough.
        match = False
        for candidate in signatures.split(" "):
            if candidate.startswith("v1,") and hmac.compare_digest(expected, candidate.encode("utf-8")):
                match = True
        if not match:
            return False, "bad webhook-signature"

    return True, None


def main(argv):
    parser = argparse.ArgumentParser(description="Verify a feedbase webhook delivery (body on stdin).")
    parser.add_argument("--vector", action="store_true", help="check the documented test vector")
    parser.add_argument("--secret")
    parser.add_argument("-H", "--header", action="append", default=[], help="'Name: value'")
    parser.add_argument("--now", type=int, help="current Unix time in seconds (default: now)")
    parser.add_argument("--tolerance", type=int, default=300)
    parser.add_argument("--scheme", choices=("both", "standard", "hex"), default="both")
    args = parser.parse_args(argv)  # exits 2 on bad usage

    if args.vector:
        ok, reason = verify_webhook(VECTOR["secret"], VECTOR["headers"], VECTOR["raw_body"], now=VECTOR["now"])
    else:
        if args.secret is None:
            parser.error("--secret is required")
        headers = {}
        for item in args.header:
            name, sep, value = item.partition(":")
            if not sep or not name.strip():
                parser.error("bad header " + repr(item))
            headers[name.strip()] = value.strip()
        raw_body = sys.stdin.buffer.read()
        ok, reason = verify_webhook(args.secret, headers, raw_body, now=args.now,
                                    tolerance=args.tolerance, scheme=args.scheme)
    print("ok" if ok else "rejected: " + reason)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
