#!/usr/bin/env python3
"""Signs a bearer token (HS256 JWT) with the `oct` key of a JWKS file, or makes such a file.

    scripts/mint-token.py --new-jwks FILE                 # a new HS256 key, kid "local-1"
    scripts/mint-token.py FILE --sub staff-1 --role staff [--hours 8]

The server verifies the tokens with `--jwt-keys FILE`. For a deployment whose identity
provider signs the tokens (RS256 or ES256 keys in its JWKS), this is not needed: it is for
scripts/cluster.sh and for trying a deployment out. Python's standard library only.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import sys
import time


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("jwks", nargs="?")
    parser.add_argument("--new-jwks", metavar="FILE")
    parser.add_argument("--sub")
    parser.add_argument("--role", default="customer", choices=["customer", "staff", "admin"])
    parser.add_argument("--hours", type=float, default=8)
    args = parser.parse_args()
    if args.new_jwks:
        key = {"kty": "oct", "alg": "HS256", "kid": "local-1", "k": b64(secrets.token_bytes(32))}
        descriptor = os.open(args.new_jwks, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            json.dump({"keys": [key]}, file)
        return
    if not args.jwks or not args.sub:
        parser.error("give a JWKS file and --sub (or --new-jwks FILE)")
    with open(args.jwks) as file:
        keys = [key for key in json.load(file)["keys"] if key.get("kty") == "oct"]
    if not keys:
        sys.exit(f"{args.jwks} holds no oct (HS256) key to sign with")
    key = keys[0]
    header = {"alg": "HS256", "typ": "JWT"} | ({"kid": key["kid"]} if "kid" in key else {})
    now = int(time.time())
    claims = {"sub": args.sub, "role": args.role, "iat": now, "exp": now + int(args.hours * 3600)}
    signing_input = b64(json.dumps(header, separators=(",", ":")).encode()) + "." + b64(
        json.dumps(claims, separators=(",", ":")).encode())
    secret = base64.urlsafe_b64decode(key["k"] + "=" * (-len(key["k"]) % 4))
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    print(signing_input + "." + b64(signature))


if __name__ == "__main__":
    main()
