"""The club key, stored only as a salted scrypt hash, and the random tokens of sessions and forms.

scrypt (memory-hard, in the standard library's hashlib) makes guessing a stolen hash slow; the comparison is
constant-time. A session cookie is a random token, stored hashed (SHA-256: a leaked database opens no session).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: scrypt's cost: 16 MiB of memory and a few tens of milliseconds per try.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
#: The shortest club key accepted: a key people type at the table, but not a PIN.
MIN_KEY_LENGTH = 8
MAX_KEY_LENGTH = 200


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be the club key, or ``None`` when it can."""
    if len(key) < MIN_KEY_LENGTH:
        return f"the club key needs at least {MIN_KEY_LENGTH} characters"
    if len(key) > MAX_KEY_LENGTH:
        return f"the club key may have at most {MAX_KEY_LENGTH} characters"
    return None


def hash_key(key: str, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$hash`` (hex) for ``key``, with a fresh 16-byte salt unless one is given."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(key.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def key_matches(key: str, stored: str) -> bool:
    """True when ``key`` is the key ``stored`` (from :func:`hash_key`) was made from; a malformed ``stored``
    matches nothing."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt" or len(key) > MAX_KEY_LENGTH:
        return False
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, want = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
        got = hashlib.scrypt(key.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=len(want))
    except ValueError:
        return False
    return hmac.compare_digest(got, want)


def new_token() -> str:
    """A fresh random token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_id(token: str) -> str:
    """What the database keeps of a session token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same(a: str, b: str) -> bool:
    """Constant-time equality of two tokens."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))
