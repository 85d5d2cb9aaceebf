"""The rules-terms glossary derived from printed cards (`tests/data/glossary.json`, made by
`scripts/derive_glossary.py`; docs/languages-terms.md) and how a reply's text is checked against it."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

GLOSSARY_FILE = Path(__file__).parents[1] / "data" / "glossary.json"
# a term is scored when enough printed lines show it and most of them agree
MIN_LINES = 3
MIN_SHARE = 0.6
# rules words cards print inside sentences whose derived form is a plain noun (colors inflect, so not scored)
SCORED_WORDS = (
    "commander",
    "color identity",
    "dungeon",
    "emblem",
    "card",
    "cards",
    "mana cost",
    "extra turn",
)
# other printed forms of a word: Japanese cards count cards with 枚 ("カードを１枚引く")
PRINTED_FORMS = {"ja": {"card": ("枚",), "cards": ("枚",)}}
# English forms that name a card type too ("the planar deck" is the deck of planes)
ENGLISH_FORMS = {"Plane": ("planar",), "extra turn": ("extra-turn",)}
# terms no card prints, worded with a printed word ("mass land denial": fr "destruction massive de terrains")
DESCRIBED = {"mass land denial": "land"}
_CODE = re.compile(r"`[^`]*`|\{[a-z_]+\}")


@lru_cache(maxsize=1)
def glossary() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))
    return data


def _reliable(entry: dict[str, Any]) -> bool:
    """Enough printed lines agree: `MIN_LINES` and most of them, or every one of fewer (a rare keyword)."""
    count, of = entry["count"], entry["of"]
    return bool(count >= MIN_SHARE * of and (count >= MIN_LINES or count == of))


@lru_cache(maxsize=8)
def rules_terms(lang: str) -> dict[str, str]:
    """English rules term -> the printed term in `lang`: keyword abilities and card types (each a rule)."""
    g = glossary()
    out: dict[str, str] = {}
    counts: dict[str, tuple[int, str]] = {}  # printed term -> (lines, the rule printing it most)
    entries = [
        (e, by_lang[lang])
        for sec in ("keywords", "types")
        for e, by_lang in g[sec].items()
        if lang in by_lang
    ]
    for english, entry in sorted(entries, key=lambda x: -x[1]["count"]):
        if not _reliable(entry):
            continue
        term = entry["term"]
        if term.casefold() in counts and english in g["keywords"]:
            # another rule prints this word more often (pt Kicker "Reforçar"): this one's other printed form
            others = [t for t, n in entry.get("also", {}).items() if n >= MIN_LINES]
            term = others[0] if others else term
        counts.setdefault(term.casefold(), (entry["count"], english))
        out[english] = term
    return out


@lru_cache(maxsize=8)
def word_terms(lang: str) -> dict[str, str]:
    """English rules word -> printed word in `lang`, for the words scored in catalogs."""
    words = glossary()["words"]
    return {w: words[w][lang]["term"] for w in SCORED_WORDS if lang in words.get(w, {})}


def english_pattern(term: str, *, any_case: bool = False) -> re.Pattern[str]:
    """Where an English message names the term. Keyword abilities are named capitalized ("both have Partner";
    "your partner" is the other commander), rules words in lower case ("Commander" is the format), card types
    either way ("a Planechase plane", "planar deck")."""
    keyword = term in glossary()["keywords"]
    word = term in glossary()["words"]
    if any_case:
        return _english_pattern(term, "any")
    return _english_pattern(term, "case" if keyword else "lower" if word else "any")


@lru_cache(maxsize=4096)
def _english_pattern(term: str, case: str) -> re.Pattern[str]:
    forms = [re.escape(term)] + [re.escape(f) for f in ENGLISH_FORMS.get(term, ())]
    flags = "(?i)" if case == "any" else ""
    return re.compile(rf"{flags}(?<![\w-])(?:{'|'.join(forms)})s?(?![\w-])")


def prose(text: str) -> str:
    """A message without its code spans and placeholders (command syntax and names are not prose)."""
    return _CODE.sub(" ", text)


def english_prose(text: str) -> str:
    """An English message's prose without the terms no card prints ("Doctor's companion" is no Companion)."""
    text = prose(text).replace("\u2019", "'")
    for term in sorted(glossary()["not_printed"], key=len, reverse=True):
        text = _english_pattern(term, "any").sub(f" {DESCRIBED.get(term, '')} ", text)
    return text


def _stem(word: str) -> str:
    """A word without its plural s and last vowel (Italian "carta"/"carte", French "cartes"/"carte")."""
    word = word[:-1] if len(word) > 4 and word[-1] == "s" else word
    return word[:-1] if len(word) > 4 and word[-1] in "aeiouàèéìòù" else word


def _umlauts(stem: str, lang: str) -> str:
    """German plurals change a vowel ("Land", "Länder")."""
    return stem.replace("a", "[aä]").replace("o", "[oö]").replace("u", "[uü]") if lang == "de" else stem


@lru_cache(maxsize=4096)
def printed_pattern(term: str, lang: str) -> re.Pattern[str]:
    """The printed term in any inflection: word stems in order; German compounds ("Kommandeur-Kreatur")."""
    if lang == "ja":
        return re.compile(re.escape(term))
    stems = [_stem(w) for w in term.casefold().split()]
    if lang == "de":  # German adjectives inflect before their noun ("zusätzlichen Zug", "zusätzliche Züge")
        stems = [re.sub(r"e[mnrs]?$", "", w) for w in stems[:-1]] + stems[-1:]
    words = [_umlauts(re.escape(w), lang) + r"\w*" for w in stems]
    lead = "" if lang == "de" else r"(?<!\w)"
    return re.compile(lead + r"['’\W]+".join(words), re.IGNORECASE)


def says(text: str, term: str, lang: str, english: str = "") -> bool:
    """`text` names the printed term (any inflection) or another printed form of the English word."""
    forms = (term, *PRINTED_FORMS.get(lang, {}).get(english, ()))
    return any(printed_pattern(form, lang).search(text) for form in forms)


@lru_cache(maxsize=4096)
def exact_pattern(term: str, lang: str) -> re.Pattern[str]:
    if lang == "ja":
        return re.compile(re.escape(term))
    return re.compile(rf"(?i)(?<!\w){re.escape(term)}(?:s|n|e)?(?!\w)")


def uses(text: str, term: str, lang: str) -> bool:
    """`text` uses the printed term itself as a word (plural ending allowed): "Compañero", not "compañía"."""
    return bool(exact_pattern(term, lang).search(text))
