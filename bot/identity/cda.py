"""Color-setting characteristic-defining abilities (CR 604.3, 202.2, 702.114) and 903.4b color choice.

- "<this object> is all colors." (Transguild Courier, Sphinx of the Guildpact): the object is all five
  colors, and per CR 903.4 those colors are part of its color identity.
- "<this object> is colorless." (Ghostfire) and Devoid (CR 702.114a, "This card has no color"): the object
  is colorless. These change color only; mana symbols still count for identity (903.4).
- "If <this> is your commander, choose a color before the game begins" (CR 903.4b, The Prismatic Piper):
  flagged, since the chosen color joins the identity only once chosen.
- A card's own text wins over the rules (CR 101.1): "Fallaji Wayfarer is all colors. This ability doesn't
  affect its color identity." makes it all colors but adds nothing to its color identity
  (`keeps_identity`).

Only a sentence whose subject is the object itself counts: "...has protection from all colors" or
"...becomes all colors until end of turn" or "create a token that's all colors" are not CDAs.
"""

from __future__ import annotations

import re

ALL_COLORS_RE = re.compile(r"(?:^|[.!]\s+)([^.!\n]+?) is all colors\.")
COLORLESS_RE = re.compile(r"(?:^|[.!]\s+)([^.!\n]+?) is colorless\.")
DEVOID_RE = re.compile(r"^devoid\b", re.IGNORECASE)
CHOOSE_COLOR_RE = re.compile(r"choose a colou?r before the game", re.IGNORECASE)
NO_IDENTITY_RE = re.compile(
    r"\bdoesn[\u2019']t affect (?:its|this card\u2019s|this card's) colou?r identity", re.IGNORECASE
)


def is_self(subject: str, names: tuple[str, ...]) -> bool:
    """Whether `subject` names the object itself: its (face) name, its short name, or "this card"."""
    subject = subject.strip()
    words = subject.lower().split()
    if words in (["~"], ["cardname"]) or (len(words) == 2 and words[0] == "this"):  # "This Vehicle is ..."
        return True
    # its name, or its short name: the part before a comma or before " of "
    return any(name and subject in (name, name.split(",")[0], name.split(" of ")[0]) for name in names)


def all_colors_cda(line: str, names: tuple[str, ...]) -> bool:
    """Whether the line says "<this> is all colors." (CR 604.3)."""
    return "all colors" in line and any(is_self(m.group(1), names) for m in ALL_COLORS_RE.finditer(line))


def colorless_cda(line: str, names: tuple[str, ...]) -> bool:
    """Whether the line says "<this> is colorless." (CR 604.3)."""
    return "colorless" in line and any(is_self(m.group(1), names) for m in COLORLESS_RE.finditer(line))


def devoid(line: str) -> bool:
    return line[:6].lower() == "devoid" and DEVOID_RE.match(line) is not None


def chooses_color(text: str) -> bool:
    return "before the game" in text and CHOOSE_COLOR_RE.search(text) is not None


def keeps_identity(line: str) -> bool:
    """Whether a color-setting ability on this line says it doesn't affect the card's color identity
    (CR 101.1: the card's text wins over CR 903.4)."""
    return "identity" in line and NO_IDENTITY_RE.search(line) is not None
