"""The core's own event types, shared by every game kind: set-up, void (and undo),
disputes and rescoring. Game modules never see these; the fold handles them.

``CORE_EVENTS`` is the one table of them: for each type its payload schema, its
label, the check it must pass, how it changes the table when folded, which move it
voids, and how the log says it. Nothing else dispatches on a core type's name."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from events.domain.photo_limits import MAX_CAPTION, MAX_INPUT_SIDE, MAX_PHOTOS, MAX_UPLOAD_BYTES, MEDIA_TYPE, SHA256
from scoring import knows_rules
from scoring.base import Problem, RuleSection, Text
from scoring.i18n import joined
from scoring.i18n import msg, msgp

TOO_MANY = Problem("core §9", msg("A game takes at most %(MAX_PHOTOS)s photos.", MAX_PHOTOS=MAX_PHOTOS))

MAX_TEXT = 500
CORE_VERSION = 1
_comment = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
_seq = {"type": "integer", "minimum": 1, "maximum": 2**53}


@dataclass(frozen=True)
class CoreEvent:
    """A core event type. ``check(table, data)`` lists what forbids it now; ``fold(table,
    event)`` is the table after it (the sequence number aside); ``voids(data)``: it voids
    a move (its ``target``, or its ``dispute``'s target);
    ``rescores``: it refolds the whole game with other rules; ``describe(label, data)``
    says it in the log."""

    schema: Mapping[str, Any]
    label: Text
    check: Callable[[Any, dict], list[Problem]]
    fold: Callable[[Any, Any], Any] | None = None
    voids: Callable[[dict], bool] = lambda data: False
    rescores: bool = False
    describe: Callable[[Text, dict], Text] = lambda label, data: dict(label)

    def changes_the_past(self, data: dict) -> bool:
        """A void or a rescore: the states before it must be folded again to follow it."""
        return self.rescores or self.voids(data)


# ---- checks ---------------------------------------------------------------------------

def _check_created(table, data: dict) -> list[Problem]:
    return [Problem("core §1", msg("The game already exists."))]


def _check_target(table, target: int) -> list[Problem]:
    if target not in table.game_seqs and target not in table.photos:
        return [Problem("core §3", msg("Only moves of the game can be voided or disputed; #%(target)s is not a move.", target=target))]
    if target in table.voided:
        return [Problem("core §3", msg("Move #%(target)s is already void.", target=target))]
    return []


def _check_void(table, data: dict) -> list[Problem]:
    return _check_target(table, data["target"])


def _check_open(table, data: dict) -> list[Problem]:
    problems = _check_target(table, data["target"])
    if any(d["target"] == data["target"] and d["status"] == "open" for d in table.disputes.values()):
        problems.append(Problem("core §4", msg("This move is already disputed.")))
    return problems


def _open_dispute(table, data: dict) -> dict | list[Problem]:
    dispute = table.disputes.get(data["dispute"])
    if dispute is None or dispute["status"] != "open":
        return [Problem("core §4", msg("There is no such open dispute."))]
    return dispute


def _check_comment(table, data: dict) -> list[Problem]:
    dispute = _open_dispute(table, data)
    return dispute if isinstance(dispute, list) else []


def _check_resolve(table, data: dict) -> list[Problem]:
    dispute = _open_dispute(table, data)
    if isinstance(dispute, list):
        return dispute
    return _check_target(table, dispute["target"]) if data["outcome"] == "voided" else []


def _check_photo(table, data: dict) -> list[Problem]:
    if len(table.photos) >= MAX_PHOTOS:
        return [TOO_MANY]
    if data["about"] == "dispute":
        if "dispute" not in data:
            return [Problem("core §9", msg("Which dispute is it for?"))]
        dispute = _open_dispute(table, data)
        return dispute if isinstance(dispute, list) else []
    if "dispute" in data:
        return [Problem("core §9", msg("Only a photo attached to a dispute names one."))]
    return []


def _check_rescore(table, data: dict) -> list[Problem]:
    version = data["rules_version"]
    if version <= table.rules_version or not knows_rules(table.kind, version):
        return [Problem("core §6", msg("A game can only be rescored with known, newer rules."))]
    return []


def _check_pause(table, data: dict) -> list[Problem]:
    if table.paused is not None:
        return [Problem("core §8", msg("The game is already paused."))]
    if table.rules.is_over(table.game):
        return [Problem("core §8", msg("The game is over: there is nothing to pause."))]
    return []


def _check_resume(table, data: dict) -> list[Problem]:
    if table.paused is None:
        return [Problem("core §8", msg("The game is not paused."))]
    return []


def _check_timer(table, data: dict) -> list[Problem]:
    return []


# ---- folding --------------------------------------------------------------------------

def _fold_opened(table, event):
    comment = {"seq": event.seq, "seat": event.seat, "comment": event.data["comment"]}
    dispute = {"target": event.data["target"], "status": "open", "seat": event.seat, "comments": [comment]}
    return replace(table, disputes={**table.disputes, event.seq: dispute})


def _fold_commented(table, event):
    d = event.data
    dispute = table.disputes[d["dispute"]]
    comment = {"seq": event.seq, "seat": event.seat, "comment": d["comment"]}
    return replace(table, disputes={**table.disputes,
                                    d["dispute"]: {**dispute, "comments": dispute["comments"] + [comment]}})


def _fold_resolved(table, event):
    d = event.data
    closed = {**table.disputes[d["dispute"]], "status": d["outcome"],
              "resolution": {"seq": event.seq, "reason": d["reason"]}}
    return replace(table, disputes={**table.disputes, d["dispute"]: closed})


def _fold_paused(table, event):
    return replace(table, paused=event.seq)


def _fold_resumed(table, event):
    return replace(table, paused=None)


def _fold_timer(table, event):
    timer = {k: v for k, v in event.data.items() if v}
    return replace(table, timer=timer or None)


def _fold_photo(table, event):
    photo = {**event.data, "seq": event.seq, "seat": event.seat}
    return replace(table, photos={**table.photos, event.seq: photo})


# ---- the log --------------------------------------------------------------------------

def _describe_void(label: Text, d: dict) -> Text:
    why = msgp("a void's reason", "undo") if d.get("undo") else d["reason"]
    return msg("%(label)s: #%(target)s (%(why)s)", label=label, target=d["target"], why=why)


def _describe_opened(label: Text, d: dict) -> Text:
    return msg("%(label)s: #%(target)s – %(comment)s", label=label, target=d['target'], comment=d['comment'])


def _clock(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _describe_timer(label: Text, d: dict) -> Text:
    said = []
    if d.get("turn"):
        said.append(msg("%(time)s a turn", time=_clock(d["turn"])))
    if d.get("total"):
        said.append(msg("%(time)s per player in all", time=_clock(d["total"])))
    if not said:
        return msg("%(label)s: none", label=label)
    return joined(": ", [label, joined(", ", said)])


MAX_TIMER = 24 * 3600
_timer_seconds = {"type": "integer", "minimum": 0, "maximum": MAX_TIMER}


def _describe_photo(label: Text, d: dict) -> Text:
    where = {"final": msg(" (the final board)"),
             "dispute": msg(" for dispute #%(dispute)s", dispute=d.get("dispute"))}.get(d["about"], "")
    caption = f": {d['caption']}" if d.get("caption") else ""
    return joined("", [label, where, caption])


_sha256 = {"type": "string", "pattern": SHA256}

CORE_EVENTS: dict[str, CoreEvent] = {
    "game-created": CoreEvent(
        schema={"type": "object", "required": ["kind", "rules_version", "players", "options"],
                "properties": {
                    "kind": {"type": "string"}, "rules_version": {"type": "integer"},
                    "players": {"type": "array", "items": {
                        "type": "object", "required": ["name"],
                        "properties": {"name": {"type": "string"}, "colour": {"type": "string"}}}},
                    "options": {"type": "object"}, "origin": {"type": "string"}}},
        label=msg("Game created"), check=_check_created),
    "event-voided": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "required": ["target", "reason"],
                "properties": {"target": _seq, "undo": {"type": "boolean"},
                               "reason": {"type": "string", "maxLength": MAX_TEXT}}},
        label=msg("Event voided"), check=_check_void,
        voids=lambda data: True, describe=_describe_void),
    "dispute-opened": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "required": ["target", "comment"],
                "properties": {"target": _seq, "comment": _comment}},
        label=msg("Move disputed"), check=_check_open, fold=_fold_opened,
        describe=_describe_opened),
    "dispute-commented": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "required": ["dispute", "comment"],
                "properties": {"dispute": _seq, "comment": _comment}},
        label=msg("Dispute comment"), check=_check_comment,
        fold=_fold_commented),
    "dispute-resolved": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "required": ["dispute", "outcome", "reason"],
                "properties": {"dispute": _seq, "outcome": {"enum": ["kept", "voided"]},
                               "reason": {"type": "string", "maxLength": MAX_TEXT}}},
        label=msg("Dispute resolved"), check=_check_resolve, fold=_fold_resolved,
        voids=lambda data: data["outcome"] == "voided"),
    "rules-rescored": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "required": ["rules_version"],
                "properties": {"rules_version": {"type": "integer", "minimum": 1, "maximum": 2**31}}},
        label=msg("Rescored with current rules"),
        check=_check_rescore, rescores=True),
    # Time at the table (docs/events.md, "Time"): a break stops every clock; a turn timer
    # is shown and kept, never enforced. None of them is a move: undo passes them by.
    "game-paused": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "properties": {}},
        label=msg("Paused"), check=_check_pause, fold=_fold_paused),
    "game-resumed": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "properties": {}},
        label=msg("Resumed"), check=_check_resume, fold=_fold_resumed),
    "timer-set": CoreEvent(
        schema={"type": "object", "additionalProperties": False, "required": ["turn", "total"],
                "properties": {"turn": _timer_seconds, "total": _timer_seconds}},
        label=msgp("event", "Turn timer"), check=_check_timer, fold=_fold_timer,
        describe=_describe_timer),
    # A photo (events/application/photos.py): its image is stored by the digest recorded here, so the
    # chain covers the picture; voidable like a move, its bytes stay.
    "photo-attached": CoreEvent(
        schema={"type": "object", "additionalProperties": False,
                "required": ["sha256", "thumb_sha256", "media_type", "bytes", "width", "height", "caption", "about"],
                "properties": {"sha256": _sha256, "thumb_sha256": _sha256, "media_type": {"enum": [MEDIA_TYPE]},
                               "bytes": {"type": "integer", "minimum": 1, "maximum": MAX_UPLOAD_BYTES},
                               "width": {"type": "integer", "minimum": 1, "maximum": MAX_INPUT_SIDE},
                               "height": {"type": "integer", "minimum": 1, "maximum": MAX_INPUT_SIDE},
                               "caption": {"type": "string", "maxLength": MAX_CAPTION},
                               "about": {"enum": ["game", "final", "dispute"]}, "dispute": _seq}},
        label=msg("Photo"), check=_check_photo, fold=_fold_photo, describe=_describe_photo),
}
CLOCK_EVENTS = frozenset({"game-paused", "game-resumed", "timer-set"})
CORE_SCHEMAS = {type_: spec.schema for type_, spec in CORE_EVENTS.items()}


# The rules every table shares, as a player reads them on /rules/core: the sections the
# core's refusals cite ("core §n"). Tablescribe's own rules: no rulebook has them.
RULEBOOK = (
    RuleSection("1", msg("A new game"), (
        msg("Every player has a name and a colour of the palette; the number of players and the options are the game's (e.g. Han: 2–5 players)."),)),
    RuleSection("2", msg("Recording a move"), (
        msg("A move is one the game knows, with all its data."),
        msg("A form records against the board the phone saw: if someone recorded meanwhile, the move is not recorded and the board is refreshed."),
        msg("A submission is recorded once: sent again it returns the same move; a different move under the same id is not recorded."))),
    RuleSection("3", msg("Voiding a move"), (
        msg("Only the game's moves (and photos) can be voided, each once; a voided move stays in the log, struck through."),)),
    RuleSection("4", msg("Disputes"), (
        msg("One dispute at a time per move; resolved, the move is kept or voided."),)),
    RuleSection("5", msg("Seats"), (
        msg("Only a seated player records: join by the QR code and choose a seat. The host may lock a seat and hand a lost phone's seat over with a new link; the old link then no longer works."),)),
    RuleSection("6", msg("Rescoring"), (
        msg("A game recorded under older rules can be rescored with a known, newer version; never backwards."),)),
    RuleSection("7", msg("Importing a game"), (
        msg("Only an exported game (a JSON file) can be imported, and only when every move in it is intact and legal."),)),
    RuleSection("8", msg("Time at the table"), (
        msg("A break stops the game's clock; only a running game can be paused, and only a paused one resumed."),
        msg("A timer is given as minutes, min:sec or h:min:sec, at most 24 hours."))),
    RuleSection("9", msg("Photos"), (
        msg("A seated player may attach a photo to the game, its final board or an open dispute: JPEG, PNG or WebP, at most 20 MB and 50 megapixels; at most 40 per game. Location and every other EXIF field are removed."),
        msg("What is not a photo (SVG, a web page, a cut-short or damaged file, an image too large) is not attached; a photo can be voided like a move."))),
)
