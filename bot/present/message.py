"""A reply as plain data (`Embed`, `Reply`) that `bot.app.replies` turns into discord.py objects; `to_dict()`
is the JSON Discord receives, `len(embed)` what counts against its 6,000-character total."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
TOTAL_LIMIT = 6000
CONTENT_LIMIT = 2000


@dataclass(slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(slots=True)
class Embed:
    title: str | None = None
    description: str | None = None
    url: str | None = None
    color: int | None = None
    fields: list[Field] = field(default_factory=list)
    thumbnail: str | None = None
    footer: str | None = None

    def add_field(self, *, name: str, value: str, inline: bool = False) -> None:
        self.fields.append(Field(name, value, inline))

    def __len__(self) -> int:
        total = len(self.title or "") + len(self.description or "") + len(self.footer or "")
        return total + sum(len(f.name) + len(f.value) for f in self.fields)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "rich", "title": self.title, "description": self.description}
        out |= {"url": self.url, "color": self.color}
        out["fields"] = [{"name": f.name, "value": f.value, "inline": f.inline} for f in self.fields] or None
        out["thumbnail"] = None if self.thumbnail is None else {"url": self.thumbnail}
        out["footer"] = None if self.footer is None else {"text": self.footer}
        return {k: v for k, v in out.items() if v is not None}


@dataclass(frozen=True, slots=True)
class Attachment:
    """A text file sent with a reply (the full deck report)."""

    filename: str
    text: str


@dataclass(slots=True)
class Reply:
    """Everything one answer holds. `ephemeral`: only the user who asked sees it."""

    content: str | None = None
    embeds: list[Embed] = field(default_factory=list)
    attachment: Attachment | None = None
    ephemeral: bool = False
