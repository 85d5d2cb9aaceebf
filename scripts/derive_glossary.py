"""Derive the rules-terms glossary (tests/data/glossary.json) from printed card text.

    python scripts/derive_glossary.py SNAPSHOT_DIR [--forge LANG=FILE ...] [--english FILE ...] [-o OUT]
                                      [--only TERM ...]

SNAPSHOT_DIR holds MTGJSON set files (`<SET>.json`, e.g. a checkout of AUTRE04216/jsonSets); every card there
carries its English `text`/`type`/`keywords` and, in `foreignData`, the `text` and `type` printed in each
language. `--forge de=cardnames-de-DE.txt` adds Forge's printed-card lines (`English name|printed name|printed
type|printed text`), aligned with the English Oracle text of the cards `--english` lists (Scryfall card objects,
JSON lines, gzipped or not, or a JSON array) — for mechanics after the snapshot. Nothing fetched is committed:
the output keeps only each derived term and how many printed lines show it. `--only TERM` (repeated) derives
from the given inputs and updates just those keywords or types in the existing OUT (the other terms stay as
derived before): how terms printed after the snapshot are added without the whole snapshot.

Three derivations, each counted over printed cards:

- keywords: an English line made only of keyword abilities ("Flying, trample", "Flashback {3}{R}", "Partner
  with Amy Pond") is split like the printed line on the same card; each printed part, cut before its cost or
  reminder text (and the partner's printed name removed for "… with"), is one vote for the keyword's term;
- types: an English type line is aligned with the printed one on its dash: the words before it (whole, e.g.
  "Legendary Creature") and a single subtype after it;
- words: rules words that are not keyword lines ("card", "commander", "color identity", colors …): over lines
  aligned one to one, the printed word sequence found most often in lines whose English says the word, less
  its rate in lines that don't.

Terms with no printed form (hybrid, Phyrexian mana, color indicator, Game Changer, …) are listed as such.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

LANGUAGES = {
    "German": "de",
    "French": "fr",
    "Spanish": "es",
    "Italian": "it",
    "Japanese": "ja",
    "Portuguese (Brazil)": "pt_BR",
}
# English rules words the replies use that cards print inside sentences (not as keyword lines)
WORDS = (
    "card",
    "cards",
    "commander",
    "color identity",
    "colorless",
    "color",
    "colors",
    "white",
    "blue",
    "black",
    "red",
    "green",
    "token",
    "emblem",
    "dungeon",
    "mana cost",
    "mana ability",
    "activated ability",
    "basic land",
    "land type",
    "spell",
    "library",
    "graveyard",
    "exile",
    "battlefield",
    "sideboard",
    "starting deck",
    "monarch",
    "initiative",
    "transform",
    "meld",
    "double-faced",
    "land",
    "lands",
)
# Rules phrases cards print inside sentences that nearly always say something else too ("take an extra turn
# after this one"): the most typical sequence may be the other thing's ("nach diesem Zug"), so a phrase's term
# is one the phrase explains best from the other side too (Glossary.phrase).
PHRASES = ("extra turn",)
# Rules terms no card prints in any language: the replies word them freely (docs/languages-terms.md).
NOT_PRINTED = {
    "hybrid": "hybrid symbols print only as {W/U}; reminder text never names them",
    "Phyrexian mana": "printed only as the symbol {W/P} and its reminder text '... or 2 life'",
    "color indicator": "the dot itself; no card text names it",
    "Game Changer": "a list kept by the Commander format, never printed on a card",
    "mass land denial": "Wizards' bracket wording, on no card: said with the printed word for land",
    "Exhibition": "a bracket's name (1), Wizards' Commander Brackets; kept as a proper name",
    "Core": "a bracket's name (2), Wizards' Commander Brackets; kept as a proper name",
    "Upgraded": "a bracket's name (3), Wizards' Commander Brackets; kept as a proper name",
    "Optimized": "a bracket's name (4), Wizards' Commander Brackets; kept as a proper name",
    "cEDH": "a bracket's name (5), Wizards' Commander Brackets; kept as a proper name",
    "Commander Spellbook": "a combo database's name",
    "Ruthless": "Commander Spellbook's bracket tag of a combo; kept as a proper name",
    "Spicy": "Commander Spellbook's bracket tag of a combo; kept as a proper name",
    "Powerful": "Commander Spellbook's bracket tag of a combo; kept as a proper name",
    "Oddball": "Commander Spellbook's bracket tag of a combo; kept as a proper name",
    "characteristic-defining ability": "a rules-document term; cards print the ability, not its name",
    "reminder text": "printed in italics, never named",
    "Vanguard": "vanguard cards were printed in English only",
    "Doctor's companion": "printed in 2023, after the snapshot; not the Companion keyword",
    "Scheme": "no printed scheme type line in the snapshot; Forge's lines give it where read",
}
MAX_TERM = 40  # characters of the longest printed keyword ("Recyclage de terrain de base")
_CUT = re.compile(r"[{(（—―–:：0-9０-９Ｘ]| -| X\b| N\b")
_KEYWORD_SPLIT = re.compile(r"\s*[,;、，]\s*")
_FOREIGN_DASH = re.compile(r"\s*(?:—|–|―| - | : |：|～)\s*")
_JAPANESE_WORD = re.compile(r"[\u4e00-\u9fff\u3005]+|[\u30a0-\u30ff\u30fc]+")
_LATIN_TOKEN = re.compile(r"[\w-]+")  # elisions apart: "l'identité" is "l", "identité"


def _is_term(text: str) -> bool:
    """A name, not a sentence: a keyword line that did not align ("Sweep — Return any number …") is no vote."""
    return len(text) <= MAX_TERM and len(text.split()) <= 5 and not re.search(r"[.;!?]", text)


def _strip_reminder(line: str) -> str:
    while True:
        bare = re.sub(r"[(（][^()（）]*[)）]", "", line)
        if bare == line:
            return bare.strip()
        line = bare


def _term(part: str) -> str:
    """A printed keyword part cut before its cost, number, dash or reminder text."""
    m = _CUT.search(part)
    head = part[: m.start()] if m else part
    head = head.strip().rstrip(".。 ")
    return head[:1].upper() + head[1:] if head else ""


def set_cards(snapshot: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(snapshot.glob("*.json")):
        if path.name.startswith("allSets"):
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))["data"]
        except (ValueError, KeyError):
            print(f"skipped {path.name}: not an MTGJSON set file", file=sys.stderr)
            continue
        yield from data.get("cards", [])
        yield from data.get("tokens", [])


def english_cards(paths: Iterable[Path]) -> dict[str, dict[str, Any]]:
    """Scryfall card objects by name (and face name) from JSON-lines (.gz) files or JSON arrays."""
    out: dict[str, dict[str, Any]] = {}
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
        rows = (
            json.loads(text)
            if text.lstrip().startswith("[")
            else [json.loads(x) for x in text.splitlines() if x]
        )
        for card in rows:
            faces = card.get("card_faces") or [card]
            out[card["name"]] = {
                "name": card["name"],
                "type": " // ".join(f.get("type_line", "") for f in faces),
                "text": "\n".join(f.get("oracle_text", "") for f in faces),
                "keywords": card.get("keywords") or [],
            }
    return out


class Glossary:
    def __init__(self) -> None:
        self.keywords: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
        self.types: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
        self.lines: dict[str, dict[tuple[str, str], None]] = defaultdict(dict)  # lang -> distinct line pairs
        self._grams: dict[str, list[tuple[str, set[str]]]] = {}
        self.names: dict[str, dict[str, str]] = defaultdict(dict)  # lang -> English name -> printed name
        self.all_keywords: set[str] = set()

    def add(self, lang: str, english: dict[str, Any], text: str | None, type_line: str | None) -> None:
        if type_line and english.get("type"):
            self._add_type(lang, english["type"], type_line)
        etext, keywords = english.get("text") or "", english.get("keywords") or []
        self.all_keywords.update(keywords)
        if not text or not etext:
            return
        elines, flines = etext.split("\n"), text.split("\n")
        if len(elines) != len(flines):
            return
        for eline, fline in zip(elines, flines, strict=True):
            self.lines[lang][eline, fline] = None
            self._add_keyword_line(lang, eline, fline, keywords)

    def _add_type(self, lang: str, etype: str, ftype: str) -> None:
        if "//" in etype:
            return
        eparts = etype.split(" \u2014 ")
        fparts = _FOREIGN_DASH.split(ftype, maxsplit=1)
        if len(eparts) != len(fparts):
            return
        if _is_term(fparts[0].strip()):
            self.types[eparts[0]][lang][fparts[0].strip()] += 1
        # a single subtype of a noncreature, nonplaneswalker, nonplane card ("Aura", "Equipment", "Forest");
        # creature, planeswalker and plane subtypes are names, not rules words
        named = ("Creature", "Planeswalker", "Plane", "Tribal", "Kindred")
        if len(eparts) == 2 and " " not in eparts[1] and not any(w in eparts[0] for w in named):
            self.types[eparts[1]][lang][fparts[1].strip().rstrip(".")] += 1

    def _add_keyword_line(self, lang: str, eline: str, fline: str, keywords: list[str]) -> None:
        ebare, fbare = _strip_reminder(eline), _strip_reminder(fline)
        if not ebare or not keywords:
            return
        lowered = sorted((k.lower() for k in keywords), key=len, reverse=True)
        eparts = _KEYWORD_SPLIT.split(ebare.rstrip("."))
        found = _keyword_parts(eparts, lowered)
        # a cost or a partner's name with commas ("Escape—{R}{R}, Exile …", "Partner with Pir, Imaginative …")
        if found is None and len(eparts) > 1 and ("{" in eparts[0] or " with " in eparts[0]):
            eparts = [ebare]
            found = _keyword_parts(eparts, lowered)
        if found is None:
            return
        fparts = _KEYWORD_SPLIT.split(fbare) if len(eparts) > 1 else [fbare]
        if len(fparts) != len(eparts):
            return
        for (k, epart), fpart in zip(found, fparts, strict=True):
            keyword = next(x for x in keywords if x.lower() == k)
            m = re.match(r"(?i)(.+?) with (.+)$", epart)
            if m and k.startswith(
                m.group(1).lower()
            ):  # "Partner with Amy Pond": the keyword is "Partner with"
                printed_partner = self.names[lang].get(m.group(2))
                if not printed_partner or printed_partner not in fpart:
                    continue
                term = fpart.replace(printed_partner, " ").strip(" .\u3000")
                term = re.sub(r"\s+", " ", term)
                keyword = f"{m.group(1)} with"
            else:  # the English words before the cost name it ("Splice onto Arcane {1}{R}", "Level up {1}")
                term = _term(fpart)
                named = _term(epart)
                keyword = named if "{" in epart and named.lower().startswith(k) else keyword
            if term and _is_term(term):
                self.keywords[keyword][lang][term[:1].upper() + term[1:]] += 1

    def words(self, lang: str, word: str, others: Collection[str] = ()) -> tuple[str, int, int] | None:
        """The printed sequence most typical of lines whose English says `word`: (term, lines, of lines).
        `others`: terms of other rules words, not this one's ("kommandeurs" in "Farbidentität deines
        Kommandeurs" is the commander's)."""
        pattern = re.compile(rf"(?i)\b{re.escape(word)}\b")
        positive = Counter[str]()
        negative = Counter[str]()
        n_pos = n_neg = 0
        if lang not in self._grams:
            self._grams[lang] = [(e, _grams(f, lang)) for e, f in self.lines[lang]]
        for eline, grams in self._grams[lang]:
            if pattern.search(eline):
                n_pos += 1
                positive.update(grams)
            else:
                n_neg += 1
                negative.update(grams)
        if n_pos < 3 or not n_neg:
            return None

        # the most typical sequence (rate in lines that say the word less the rate elsewhere, to one decimal),
        # then the one seldom seen elsewhere, the fewest words, the most lines and the shortest: "farbidentität",
        # not "farbidentität deines kommandeurs" nor "kommandeurs"; "identità", not "colore del"
        def rank(g: str) -> tuple[float, float, int, int, int]:  # second: lines elsewhere weigh tenfold
            p, n = positive[g] / n_pos, negative[g] / n_neg
            return round(p - n, 1), round(p - 10 * n, 2), -g.count(" "), positive[g], -len(g)

        stems = [t[:-1] if len(t) > 4 else t for t in others]
        candidates = sorted(g for g in positive if not any(stem in g for stem in stems)) or sorted(positive)
        best = max(candidates, key=rank)
        return best, positive[best], n_pos

    def phrase(self, lang: str, phrase: str) -> tuple[str, int, int] | None:
        """The printed sequence for a rules phrase: among the sequences typical of its lines (rate there less
        the rate elsewhere at least one half), those whose lines the English phrase marks
        as well as any other English sequence does (not "nach diesem Zug": "after this one" marks its lines
        better); of those, the one printed least where the English lacks the phrase, then in the most lines,
        then the shortest: (term, lines, of lines)."""
        pattern = re.compile(rf"(?i)\b{re.escape(phrase)}\b")
        rows = [(_grams(e, "en"), _grams(f, lang), bool(pattern.search(e))) for e, f in self.lines[lang]]
        positive, negative, totals = Counter[str](), Counter[str](), Counter[str]()
        for egrams, grams, says in rows:
            (positive if says else negative).update(grams)
            totals.update(egrams)
        n_pos = sum(says for *_g, says in rows)
        n_neg = len(rows) - n_pos
        if n_pos < 3 or not n_neg:
            return None

        def rate(g: str) -> float:
            return positive[g] / n_pos - negative[g] / n_neg

        typical = sorted((g for g in positive if rate(g) >= 0.5), key=lambda g: (-rate(g), g))[:40]
        explained = [g for g in typical if _explains(rows, totals, g, phrase.lower())]
        if not explained:
            return None
        best = min(explained, key=lambda g: (negative[g], -positive[g], g.count(" "), len(g)))
        return best, positive[best], n_pos


def _explains(
    rows: list[tuple[set[str], set[str], bool]], totals: Counter[str], printed: str, english: str
) -> bool:
    """Whether `english` marks the lines printing `printed` as well as any English sequence does (`totals`: each
    English sequence's lines)."""
    with_ = Counter[str]()
    n_with = 0
    for egrams, grams, _says in rows:
        if printed in grams:
            n_with += 1
            with_.update(egrams)
    n_without = max(len(rows) - n_with, 1)

    def rate(e: str) -> float:
        return with_[e] / n_with - (totals[e] - with_[e]) / n_without

    return rate(english) >= max(map(rate, with_)) - 0.01


def _grams(line: str, lang: str) -> set[str]:
    """Word 1-3-grams (lowercased) of the line's rules text; in Japanese, its runs of kanji or of katakana
    (words between the hiragana particles: 統率者, 固有色, マナ・コスト)."""
    bare = _strip_reminder(line).lower()
    if lang == "ja":
        return set(_JAPANESE_WORD.findall(bare))
    tokens = _LATIN_TOKEN.findall(bare)
    return {" ".join(tokens[i : i + n]) for n in (1, 2, 3) for i in range(len(tokens) - n + 1)}


def _keyword_parts(parts: list[str], lowered: list[str]) -> list[tuple[str, str]] | None:
    """(keyword, part) for each part when every part is a keyword, with its cost; None for a sentence that only
    starts with one ("Flying creatures you control …")."""
    found = []
    for part in parts:
        k = next(
            (k for k in lowered if part.lower().startswith(k) and not part[len(k) :][:1].isalpha()), None
        )
        rest = part[len(k) :] if k else ""
        words = len(
            rest.split("{")[0].split()
        )  # "Splice onto Arcane {1}{R}", not "Ninjutsu abilities … cost {1}"
        if k is None or (rest[1:2].isalpha() and " with " not in part and ("{" not in rest or words > 2)):
            return None
        found.append((k, part))
    return found


def _best(counter: Counter[str]) -> dict[str, Any]:
    (term, count), total = counter.most_common(1)[0], sum(counter.values())
    entry: dict[str, Any] = {"term": term, "count": count, "of": total}
    others = {t: c for t, c in counter.most_common(4)[1:] if c >= max(3, total // 10)}
    if others:
        entry["also"] = others
    return entry


def read_forge(spec: str) -> tuple[str, list[tuple[str, str, str, str]]]:
    lang, _, path = spec.partition("=")
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        parts = line.split("|")
        if len(parts) == 4:
            rows.append((parts[0], parts[1], parts[2], parts[3].replace("\\n", "\n")))
    return lang, rows


def _add_snapshot(g: Glossary, snapshot: Path) -> None:
    cards = list(set_cards(snapshot))
    for card in cards:
        for fd in card.get("foreignData", []):
            lang = LANGUAGES.get(fd.get("language", ""))
            if lang and fd.get("name"):
                g.names[lang].setdefault(card.get("faceName") or card["name"], fd["name"])
    for card in cards:
        english = {"type": card.get("type"), "text": card.get("text"), "keywords": card.get("keywords")}
        for fd in card.get("foreignData", []):
            lang = LANGUAGES.get(fd.get("language", ""))
            if lang:
                g.add(lang, english, fd.get("text"), fd.get("type"))


def _add_forge(g: Glossary, forge: list[str], english_paths: list[Path]) -> None:
    english = english_cards(english_paths)
    for spec in forge:
        lang, rows = read_forge(spec)
        for name, printed, _type, _text in rows:
            g.names[lang].setdefault(name, printed)
        for name, _printed, ftype, ftext in rows:
            if name in english:
                g.add(lang, english[name], ftext, ftype or None)


def derive(snapshot: Path, forge: list[str], english_paths: list[Path]) -> dict[str, Any]:
    g = Glossary()
    _add_snapshot(g, snapshot)
    _add_forge(g, forge, english_paths)
    out: dict[str, Any] = {"languages": sorted(LANGUAGES.values()), "keywords": {}, "types": {}, "words": {}}
    for keyword in sorted(g.keywords):
        out["keywords"][keyword] = {lang: _best(c) for lang, c in sorted(g.keywords[keyword].items())}
    for type_ in sorted(g.types):
        entries = {
            lang: _best(c) for lang, c in sorted(g.types[type_].items()) if c.most_common(1)[0][1] >= 2
        }
        if entries:
            out["types"][type_] = entries
    derived: dict[str, dict[str, str]] = defaultdict(dict)  # lang -> English word -> printed term
    for word in WORDS:
        hits = {}
        for lang in sorted(LANGUAGES.values()):
            others = [t for w, t in derived[lang].items() if w not in word and word not in w]
            hit = hits[lang] = g.words(lang, word, others)
            if hit:
                derived[lang][word] = hit[0]
        out["words"][word] = {
            lang: {"term": hit[0], "count": hit[1], "of": hit[2]} for lang, hit in hits.items() if hit
        }
    for phrase in PHRASES:
        found = {lang: g.phrase(lang, phrase) for lang in sorted(LANGUAGES.values())}
        out["words"][phrase] = {
            lang: {"term": hit[0], "count": hit[1], "of": hit[2]} for lang, hit in found.items() if hit
        }
    out["not_printed"] = NOT_PRINTED
    return out


def merged(existing: dict[str, Any], derived: dict[str, Any], terms: list[str]) -> dict[str, Any]:
    """`existing` with `terms` (keywords, types or words, named as the cards print them: "Choose a Background",
    "extra turn") taken from `derived`; a term derived now is no longer listed as not printed, and the terms
    `NOT_PRINTED` lists now are."""
    existing["not_printed"] = {**existing["not_printed"], **derived["not_printed"]}
    for term in terms:
        if term in derived["words"]:  # a rules word, lower case ("land"; the type is "Land")
            existing["words"][term] = derived["words"][term]
            continue
        for section in ("keywords", "types"):
            found = next((d for t, d in derived[section].items() if t.casefold() == term.casefold()), None)
            if found:
                existing[section][term] = found
                existing["not_printed"].pop(term, None)
    return existing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshot", type=Path, help="directory of MTGJSON set files")
    parser.add_argument("--forge", action="append", default=[], metavar="LANG=FILE")
    parser.add_argument("--english", action="append", default=[], type=Path, metavar="FILE")
    parser.add_argument("-o", "--out", type=Path, default=Path("tests/data/glossary.json"))
    parser.add_argument("--only", action="append", default=[], metavar="TERM", help="update only these terms")
    args = parser.parse_args(argv)
    glossary = derive(args.snapshot, args.forge, args.english)
    if args.only:
        glossary = merged(json.loads(args.out.read_text(encoding="utf-8")), glossary, args.only)
    args.out.write_text(json.dumps(glossary, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")
    print(
        f"{len(glossary['keywords'])} keywords, {len(glossary['types'])} types, {len(glossary['words'])} words"
        f" -> {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
