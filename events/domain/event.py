"""An event as the log holds it (``Event``) and as a recorder hands it to the store (``NewEvent``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """A stored event: the envelope and its payload exactly as recorded."""

    seq: int
    type: str
    version: int
    data: dict
    seat: int | None
    device: str
    recorded_at: str
    client_event_id: str
    hash: str

    def envelope(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "version": self.version,
                "data": self.data, "seat": self.seat, "device": self.device,
                "recorded_at": self.recorded_at, "client_event_id": self.client_event_id,
                "hash": self.hash}


@dataclass(frozen=True)
class NewEvent:
    type: str
    version: int
    data: dict
    seat: int | None
    device: str
    client_event_id: str
    recorded_at: str | None = None  # kept from the original on import
