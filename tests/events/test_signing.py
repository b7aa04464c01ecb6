"""This server's signature on what it exports (events/application/signing.py): a key pair
made once in the instance folder, readable by its owner only; a file signed here verifies
as it is and as nothing else; a file without a signature says so."""
import os
from types import SimpleNamespace

import pytest

from events.application import signing


def _doc(events=((1, "a" * 64), (2, "b" * 64))) -> tuple[dict, list]:
    stored = [SimpleNamespace(seq=seq, hash=h) for seq, h in events]
    doc = {"format_version": 2, "game": {"kind": "scorepad"}, "people": {"seats": [1, 2]},
           "events": [{"seq": e.seq, "hash": e.hash} for e in stored]}
    return doc, stored


def test_the_key_is_made_once_owner_only_and_read_back_the_same(tmp_path):
    path = signing.key_path(str(tmp_path / "instance"))
    key = signing.load_or_make(path)
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert signing.public_hex(signing.load_or_make(path)) == signing.public_hex(key)
    assert signing.is_public_key(signing.public_hex(key)) and not signing.is_public_key("ab" * 31)
    assert len(signing.fingerprint(signing.public_hex(key)).split(" ")) == 4


def test_a_file_holding_another_kind_of_key_is_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    path = tmp_path / "key.pem"
    path.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with pytest.raises(ValueError):
        signing.load_or_make(str(path))


def test_a_signed_file_verifies_as_it_is_and_names_its_origin(tmp_path):
    key = signing.load_or_make(str(tmp_path / "k.pem"))
    doc, stored = _doc()
    origin = {"server": signing.public_hex(key), "game": "g1"}
    doc["signature"] = signing.sign(key, doc, origin)
    found = signing.verdict(doc, stored)
    assert (found.check, found.key, found.origin) == (signing.SIGNED, origin["server"], f"{origin['server']}:g1")
    assert signing.origin_of(found.origin) == origin


@pytest.mark.parametrize("change", ["cut short", "another last hash", "other people", "another origin", "no hex"])
def test_a_signed_file_changed_in_any_signed_part_is_altered(tmp_path, change):
    key = signing.load_or_make(str(tmp_path / "k.pem"))
    doc, stored = _doc()
    doc["signature"] = signing.sign(key, doc, {"server": signing.public_hex(key), "game": "g1"})
    if change == "cut short":
        stored = stored[:1]
    elif change == "another last hash":
        stored[-1] = SimpleNamespace(seq=2, hash="c" * 64)
    elif change == "other people":
        doc["people"] = {"seats": [2, 1]}
    elif change == "another origin":
        doc["signature"]["origin"] = {"server": signing.public_hex(key), "game": "g2"}
    else:
        doc["signature"]["value"] = "zz"
    assert signing.verdict(doc, stored).check == signing.ALTERED


def test_a_file_without_a_signature_is_unsigned():
    doc, stored = _doc()
    assert signing.verdict(doc, stored) == signing.Verdict(signing.UNSIGNED)
