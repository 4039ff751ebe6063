"""Tokens for benchmarks/scope-bench.sh: an RS256 key pair, its JWKS, and tokens signed with it.

    python3 benchmarks/tokens.py OUT_DIR [--rotating N]

Writes OUT_DIR/jwks.json, OUT_DIR/staff.token, OUT_DIR/customer.token (sub c-0042) and
OUT_DIR/rotating.tokens: N staff tokens that differ only in `jti`, one per line, more than the
server's verification cache holds (10,000), so cycling through them verifies every request.
Needs `cryptography` (PyPI).
"""
import base64
import json
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main() -> None:
    out = sys.argv[1]
    rotating = int(sys.argv[sys.argv.index("--rotating") + 1]) if "--rotating" in sys.argv else 15000
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    numbers = key.public_key().public_numbers()
    n = numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")
    e = numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")
    with open(f"{out}/jwks.json", "w") as f:
        json.dump({"keys": [{"kty": "RSA", "alg": "RS256", "kid": "bench", "n": b64(n), "e": b64(e)}]}, f)
    header = b64(json.dumps({"alg": "RS256", "typ": "JWT", "kid": "bench"}, separators=(",", ":")).encode())
    expiry = int(time.time()) + 3 * 3600

    def token(claims: dict) -> str:
        signing_input = header + "." + b64(json.dumps(claims, separators=(",", ":")).encode())
        signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return signing_input + "." + b64(signature)

    with open(f"{out}/staff.token", "w") as f:
        f.write(token({"sub": "staff-1", "role": "staff", "exp": expiry}))
    with open(f"{out}/customer.token", "w") as f:
        f.write(token({"sub": "c-0042", "role": "customer", "exp": expiry}))
    with open(f"{out}/rotating.tokens", "w") as f:
        for index in range(rotating):
            f.write(token({"sub": "staff-1", "role": "staff", "exp": expiry, "jti": str(index)}) + "\n")


if __name__ == "__main__":
    main()
