"""A passkey authenticator in Python, for the API tests: it makes the answers a browser
would send (``PublicKeyCredential`` in WebAuthn's JSON form) for an ES256 key pair, with
"none" attestation, so that the server's verification (the ``webauthn`` package) runs
for real."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Authenticator:
    """One passkey on one authenticator: its key pair, id, counter and user handle."""

    rp_id: str
    origin: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    sign_count: int = 0
    user_handle: bytes = b""

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def _auth_data(self, flags: int, attested: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256(self.rp_id.encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.sign_count) + attested

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge,
                           "origin": origin or self.origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create`` with ``options``."""
        self.user_handle = unb64url(options["user"]["id"])
        attested = (b"\x00" * 16 + struct.pack(">H", len(self.credential_id))
                    + self.credential_id + self._cose_key())
        auth_data = self._auth_data(0x45, attested)  # user present, verified, attested
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data),
                             "attestationObject": b64url(attestation),
                             "transports": ["internal"]}}

    def get(self, options: dict[str, Any], *, origin: str | None = None,
            count: bool = True) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get`` with ``options`` (the counter
        grows unless ``count`` is false)."""
        if count:
            self.sign_count += 1
        auth_data = self._auth_data(0x05)  # user present, verified
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data),
                             "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature),
                             "userHandle": b64url(self.user_handle)}}
