"""What a reply looks like, as plain data: `Embed` (Discord's embed object, built without discord.py) and
`Reply` (content, embeds, an attached text file). The Discord layer turns them into discord.py objects
(`bot.app.replies`), so the presentation layer stays free of discord.py and easy to test.

`Embed.to_dict()` is exactly the JSON Discord receives for an embed
(https://discord.com/developers/docs/resources/message#embed-object), and `len(embed)` counts the
characters Discord counts against its 6,000-character total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
AUTHOR_LIMIT = 256
TOTAL_LIMIT = 6000
CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10


@dataclass(slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(slots=True)
class Embed:
    """One embed. Methods mirror the few of discord.Embed the presentation code needs."""

    title: str | None = None
    description: str | None = None
    url: str | None = None
    color: int | None = None
    fields: list[Field] = field(default_factory=list)
    thumbnail: str | None = None
    footer: str | None = None

    def add_field(self, *, name: str, value: str, inline: bool = False) -> Embed:
        self.fields.append(Field(name, value, inline))
        return self

    def remove_field(self, index: int) -> None:
        del self.fields[index]

    def set_thumbnail(self, *, url: str | None) -> Embed:
        self.thumbnail = url
        return self

    def set_footer(self, *, text: str | None) -> Embed:
        self.footer = text
        return self

    def __len__(self) -> int:
        total = len(self.title or "") + len(self.description or "") + len(self.footer or "")
        return total + sum(len(f.name) + len(f.value) for f in self.fields)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "rich"}
        if self.title is not None:
            out["title"] = self.title
        if self.description is not None:
            out["description"] = self.description
        if self.url is not None:
            out["url"] = self.url
        if self.color is not None:
            out["color"] = self.color
        if self.fields:
            out["fields"] = [{"name": f.name, "value": f.value, "inline": f.inline} for f in self.fields]
        if self.thumbnail is not None:
            out["thumbnail"] = {"url": self.thumbnail}
        if self.footer is not None:
            out["footer"] = {"text": self.footer}
        return out


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
