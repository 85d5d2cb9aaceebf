"""What tests and benchmarks check of a reply: Discord's embed limits, the lines it shows, any line shown twice,
and its length as Discord counts it. (The bot itself keeps within the limits by construction: `embeds.finish`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.present.message import (
    DESCRIPTION_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
    TOTAL_LIMIT,
    Embed,
    Reply,
)

# Discord's other limits, which the bot meets without counting (it sends at most one embed of a few fields)
FIELD_LIMIT = 25
FOOTER_LIMIT = 2048
AUTHOR_LIMIT = 256
EMBEDS_PER_MESSAGE = 10

Shown = Reply | Embed | Sequence[Embed]


def embed_problems(embeds: Sequence[Embed | Mapping[str, Any]]) -> list[str]:
    """Every way `embeds` break Discord's limits (empty list = fine). Accepts Embeds or their dicts."""
    problems: list[str] = []
    if len(embeds) > EMBEDS_PER_MESSAGE:
        problems.append(f"{len(embeds)} embeds (max {EMBEDS_PER_MESSAGE})")
    total = sum(_one_embed(e.to_dict() if isinstance(e, Embed) else e, problems) for e in embeds)
    if total > TOTAL_LIMIT:
        problems.append(f"embeds total {total} > {TOTAL_LIMIT}")
    return problems


def _one_embed(d: Mapping[str, Any], problems: list[str]) -> int:
    """Adds the problems of one embed's dict; returns the characters it counts toward the total."""
    total = 0
    texts = {
        "title": (d.get("title") or "", TITLE_LIMIT),
        "description": (d.get("description") or "", DESCRIPTION_LIMIT),
        "footer": ((d.get("footer") or {}).get("text") or "", FOOTER_LIMIT),
        "author": ((d.get("author") or {}).get("name") or "", AUTHOR_LIMIT),
    }
    for label, (text, limit) in texts.items():
        if len(text) > limit:
            problems.append(f"{label} {len(text)} > {limit}")
        total += len(text)
    fields = d.get("fields") or []
    if len(fields) > FIELD_LIMIT:
        problems.append(f"{len(fields)} fields > {FIELD_LIMIT}")
    for f in fields:
        name, value = str(f.get("name") or ""), str(f.get("value") or "")
        if not name.strip() or len(name) > FIELD_NAME_LIMIT:
            problems.append(f"field name length {len(name)}")
        if not value.strip() or len(value) > FIELD_VALUE_LIMIT:
            problems.append(f"field value length {len(value)}")
        total += len(name) + len(value)
    urls = [("url", d.get("url"), ("http://", "https://"))] + [
        (f"{key}.url", (d.get(key) or {}).get("url"), ("http://", "https://", "attachment://"))
        for key in ("thumbnail", "image")
    ]
    problems.extend(
        f"{key} is not a URL: {url!r}"
        for key, url, schemes in urls
        if url is not None and not str(url).startswith(schemes)
    )
    return total


def _parts(reply: Shown) -> tuple[list[Embed], str]:
    if isinstance(reply, Reply):
        return reply.embeds, reply.content or ""
    if isinstance(reply, Embed):
        return [reply], ""
    return list(reply), ""


def reply_lines(reply: Shown) -> list[str]:
    """Every non-empty line a reply shows: its content, then each embed's title, description, field names
    and values, and footer."""
    embeds, content = _parts(reply)
    texts = [content]
    for e in embeds:
        texts.extend([e.title or "", e.description or ""])
        for f in e.fields:
            texts.extend([f.name, f.value])
        texts.append(e.footer or "")
    return [line.strip() for text in texts for line in text.split("\n") if line.strip()]


def repeated_lines(reply: Shown) -> list[str]:
    """The lines a reply shows more than once (should always be empty)."""
    seen: set[str] = set()
    out: list[str] = []
    for line in reply_lines(reply):
        if line in seen and line not in out:
            out.append(line)
        seen.add(line)
    return out


def reply_length(reply: Shown) -> int:
    """Characters of text a reply shows (content plus what Discord counts of its embeds)."""
    embeds, content = _parts(reply)
    return len(content) + sum(len(e) for e in embeds)
