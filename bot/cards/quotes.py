"""A card's rules text as printed in another language (Scryfall's `printed_text`, per face on cards of several
parts), and which printed line stands for which Oracle line: the one at the same place in a face whose texts
have as many lines, with the same symbols in the same order once reminder text is left out (CR 903.4c). A
printed line that differs (errata, reordered or reworded text) stands for nothing: the Oracle line is quoted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.identity.symbols import SYMBOL_RE
from bot.identity.text import strip_reminder

_FULL_WIDTH_PARENS = str.maketrans("\uff08\uff09", "()")  # Japanese reminder text: （…）


def bare(line: str) -> str:
    """A line without reminder text, its spaces folded: how the engine quotes a rules-text line."""
    return " ".join(strip_reminder(line.translate(_FULL_WIDTH_PARENS)).split())


def matching_lines(oracle: str, printed: str) -> list[str | None]:
    """For each Oracle line of a face, the printed line (bare) that stands for it, else None."""
    oracle_lines, printed_lines = oracle.split("\n"), printed.split("\n")
    if len(oracle_lines) != len(printed_lines):
        return [None] * len(oracle_lines)
    pairs = ((bare(o), bare(p)) for o, p in zip(oracle_lines, printed_lines, strict=True))
    return [p if p and SYMBOL_RE.findall(o) == SYMBOL_RE.findall(p) else None for o, p in pairs]


def _text(part: Mapping[str, Any], key: str) -> str:
    return value if isinstance(value := part.get(key), str) else ""


def text_faces(card: Mapping[str, Any], key: str) -> list[str]:
    """A card object's `key` text (`oracle_text`, `printed_text`) per face: each face's on a card of several
    parts that prints it per face, else the card's own."""
    faces = [f for f in card.get("card_faces") or () if isinstance(f, Mapping)]
    if len(faces) > 1 and any(_text(f, key) for f in faces):
        return [_text(f, key) for f in faces]
    return [_text(card, key)]


def printing_rank(card: Mapping[str, Any]) -> tuple[bool, int, str]:
    """How well a printing's printed text follows its Oracle text: every line matching, how many lines
    match, the most recent; the best printing's text is kept."""
    oracle, printed = text_faces(card, "oracle_text"), text_faces(card, "printed_text")
    matched = total = 0
    if len(oracle) == len(printed):
        for o, p in zip(oracle, printed, strict=True):
            total += sum(1 for line in o.split("\n") if bare(line))
            matched += sum(1 for line in matching_lines(o, p) if line)
    released = card.get("released_at")
    return matched == total and total > 0, matched, released if isinstance(released, str) else ""


@dataclass(frozen=True, slots=True)
class PrintedText:
    """A card's rules text in `lang` as printed: (face name, Oracle text, printed text) per face."""

    lang: str
    faces: tuple[tuple[str, str, str], ...]

    @classmethod
    def of(cls, card: Mapping[str, Any], lang: str, printed: Sequence[str]) -> PrintedText | None:
        """The card's printed text from the stored per-face texts; None when they are not one per face."""
        oracle = text_faces(card, "oracle_text")
        faces = [f for f in card.get("card_faces") or () if isinstance(f, Mapping)]
        names = [_text(f, "name") for f in faces] if len(oracle) > 1 else [_text(card, "name")]
        if len(printed) != len(oracle) or not any(printed):
            return None
        return cls(lang, tuple(zip(names, oracle, printed, strict=True)))

    def line(self, face: str, oracle_line: str) -> str | None:
        """The printed line (reminder text left out) that stands for `oracle_line` (as the engine quotes it)
        of `face` (a face's name, or the card's), else None."""
        for name, oracle, printed in self.faces:
            if name == face or len(self.faces) == 1:
                for line, found in zip(oracle.split("\n"), matching_lines(oracle, printed), strict=True):
                    if found is not None and bare(line) == oracle_line:
                        return found
        return None
