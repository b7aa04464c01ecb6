"""The core's own event types, shared by every game kind: set-up, void (and undo),
disputes and rescoring. Game modules never see these; the fold handles them."""
from __future__ import annotations

from scoring import knows_rules
from scoring.base import Problem, text

MAX_TEXT = 500
_comment = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}

CORE_SCHEMAS = {
    "game-created": {
        "type": "object", "required": ["kind", "rules_version", "players", "options"],
        "properties": {
            "kind": {"type": "string"}, "rules_version": {"type": "integer"},
            "players": {"type": "array", "items": {
                "type": "object", "required": ["name"],
                "properties": {"name": {"type": "string"}, "colour": {"type": "string"}}}},
            "options": {"type": "object"}, "origin": {"type": "string"}}},
    "event-voided": {
        "type": "object", "additionalProperties": False, "required": ["target", "reason"],
        "properties": {"target": {"type": "integer"}, "undo": {"type": "boolean"},
                       "reason": {"type": "string", "maxLength": MAX_TEXT}}},
    "dispute-opened": {
        "type": "object", "additionalProperties": False, "required": ["target", "comment"],
        "properties": {"target": {"type": "integer"}, "comment": _comment}},
    "dispute-commented": {
        "type": "object", "additionalProperties": False, "required": ["dispute", "comment"],
        "properties": {"dispute": {"type": "integer"}, "comment": _comment}},
    "dispute-resolved": {
        "type": "object", "additionalProperties": False,
        "required": ["dispute", "outcome", "reason"],
        "properties": {"dispute": {"type": "integer"}, "outcome": {"enum": ["kept", "voided"]},
                       "reason": {"type": "string", "maxLength": MAX_TEXT}}},
    "rules-rescored": {
        "type": "object", "additionalProperties": False, "required": ["rules_version"],
        "properties": {"rules_version": {"type": "integer"}}},
}
CORE_VERSION = 1
CORE_LABELS = {
    "game-created": text("Játék létrehozva", "Game created"),
    "event-voided": text("Esemény érvénytelenítve", "Event voided"),
    "dispute-opened": text("Vitatott lépés", "Move disputed"),
    "dispute-commented": text("Hozzászólás a vitához", "Dispute comment"),
    "dispute-resolved": text("Vita lezárva", "Dispute resolved"),
    "rules-rescored": text("Újrapontozás az új szabályokkal", "Rescored with current rules"),
}


def check_core(table, type_: str, data: dict) -> list[Problem]:
    """Rules of the core events, checked against the table state they follow."""
    if type_ == "game-created":
        return [Problem("core §1", "A játék már létezik.", "The game already exists.")]
    if type_ == "event-voided":
        return _check_target(table, data["target"])
    if type_ == "dispute-opened":
        problems = _check_target(table, data["target"])
        if any(d["target"] == data["target"] and d["status"] == "open"
               for d in table.disputes.values()):
            problems.append(Problem("core §4", "Erről a lépésről már folyik vita.",
                                    "This move is already disputed."))
        return problems
    if type_ in ("dispute-commented", "dispute-resolved"):
        dispute = table.disputes.get(data["dispute"])
        if dispute is None or dispute["status"] != "open":
            return [Problem("core §4", "Nincs ilyen nyitott vita.", "There is no such open dispute.")]
        if type_ == "dispute-resolved" and data["outcome"] == "voided":
            return _check_target(table, dispute["target"])
    if type_ == "rules-rescored":
        return _check_rescore(table, data["rules_version"])
    return []


def _check_rescore(table, version: int) -> list[Problem]:
    if version <= table.rules_version or not knows_rules(table.kind, version):
        return [Problem("core §6", "Csak egy ismert, újabb szabályverzióval lehet újrapontozni.",
                        "A game can only be rescored with known, newer rules.")]
    return []


def _check_target(table, target: int) -> list[Problem]:
    if target not in table.game_seqs:
        return [Problem("core §3", "Csak a játék lépései érvényteleníthetők vagy vitathatók.",
                        "Only moves of the game can be voided or disputed.")]
    if target in table.voided:
        return [Problem("core §3", "Ez a lépés már érvénytelen.", "This move is already void.")]
    return []
