"""Issue 26: Magic's own terms in every catalog are the words the cards print (glossary derived from printed
text, `tests/data/glossary.json`), one word per rule, and each language's typography."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.present import i18n
from tests.present import terms

ROOT = Path(__file__).parents[2]


def catalog(locale: str) -> Catalog:
    with (ROOT / "bot" / "locales" / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=locale)


def pairs(po: Catalog) -> list[tuple[str, str, Message]]:
    """(English, translation, entry) for each form of each translated message, commands left out."""
    out = []
    for m in po:
        if not m.id or not m.string or m.context == "command":
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for i, s in enumerate(strings):
            out.append((str(ids[min(i, len(ids) - 1)]), str(s), m))
    return out


def wrong_terms(locale: str, po: Catalog) -> list[str]:
    lang = locale
    rules, words = terms.rules_terms(lang), terms.word_terms(lang)
    wanted = {**rules, **words}
    english_text = " ".join(terms.english_prose(e) for e, _t, m in pairs(po) if m.context != "keyword")
    used = {t: w for t, w in rules.items() if terms.english_pattern(t).search(english_text)}
    problems = []
    for english, text, m in pairs(po):
        en, tr = terms.english_prose(english), terms.prose(text)
        if m.context == "keyword":  # the keyword itself: its printed name exactly
            printed = rules.get(m.id if isinstance(m.id, str) else m.id[0])
            if printed and text != printed:
                problems.append(f"keyword {m.id!r}: {text!r}, cards print {printed!r}")
            continue
        said = [t for t in wanted if terms.english_pattern(t).search(en)]
        for t in said:
            if not terms.says(tr, wanted[t], lang, t):
                problems.append(f"{t!r} is {wanted[t]!r} on cards: {text[:90]!r}")
        named = {t for t in used if terms.english_pattern(t, any_case=True).search(en)}
        for t, printed in used.items():  # one word, one rule ("your partner" is Partner's too)
            if t in named or not terms.uses(tr, printed, lang):
                continue
            if any(printed.casefold() in wanted[s].casefold() for s in said):
                continue
            problems.append(f"{printed!r} is the word for {t!r}, not said in {english[:70]!r}: {text[:90]!r}")
    return problems


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_catalogs_use_the_printed_terms_one_word_per_rule(locale: str) -> None:
    assert wrong_terms(locale, catalog(locale)) == []


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_the_glossary_gives_each_rule_its_own_word(locale: str) -> None:
    """Printed terms of the rules the catalogs name never coincide (es Partner "Camarada", Companion
    "Compañero")."""
    po = catalog(locale)  # the prose's rules (keyword entries are the printed names themselves)
    english = " ".join(terms.english_prose(e) for e, _t, m in pairs(po) if m.context != "keyword")
    used = {t: w for t, w in terms.rules_terms(locale).items() if terms.english_pattern(t).search(english)}
    seen: dict[str, str] = {}
    clashes = []
    for t, w in used.items():
        if w.casefold() in seen and not t.startswith(seen[w.casefold()]):
            clashes.append((seen[w.casefold()], t, w))
        seen.setdefault(w.casefold(), t)
    assert clashes == []
    assert len(used) >= 5


def test_the_check_catches_another_word_and_a_shared_word() -> None:
    """The check fails on the errors the issue found: es Compañero for Partner, de Farblos for Devoid."""
    po = Catalog(locale="es")
    po.add("with Partner or Background", "con Compañero o Trasfondo")
    po.add("abilities such as Devoid", "habilidades como Vacío")
    po.add("Companion", "Compañero")
    found = wrong_terms("es", po)
    assert any("'Partner'" in p for p in found)
    assert any("'Compañero' is the word for 'Companion'" in p for p in found)
    assert not any("Devoid" in p for p in found)
    de = Catalog(locale="de")
    de.add("abilities such as Devoid", "Fähigkeiten wie Farblos")
    assert any("'Devoid' is 'Fahl'" in p for p in wrong_terms("de", de))


def test_the_glossary_is_derived_with_counts() -> None:
    g = terms.glossary()
    assert set(g["languages"]) == set(i18n.SUPPORTED)
    devoid = g["keywords"]["Devoid"]
    assert {lang: devoid[lang]["term"] for lang in ("de", "fr", "es")} == {
        "de": "Fahl",
        "fr": "Carence",
        "es": "Vacío",
    }
    assert all(e["count"] >= terms.MIN_LINES for e in devoid.values())
    assert {"hybrid", "Phyrexian mana", "color indicator", "Game Changer"} <= set(g["not_printed"])
    background = {lang: e["term"] for lang, e in g["types"]["Background"].items()}  # printed 2022, CLB
    assert (
        background["fr"] == "passé"
        and background["de"] == "Hintergrund"
        and "Background" not in g["not_printed"]
    )
    assert g["keywords"]["Choose a Background"]["fr"]["term"] == "Choisissez un passé"


def test_bracket_words_are_the_printed_ones() -> None:
    """Issue 31: "extra turn" as the cards print it, derived from their lines (de "zusätzlichen Zug", not the
    "nach diesem Zug" every such line also says); "mass land denial" is printed on no card, so it is worded with
    the printed word for land (fr "destruction massive de terrains")."""
    g = terms.glossary()
    printed = {lang: e["term"] for lang, e in g["words"]["extra turn"].items()}
    assert printed["de"] == "zusätzlichen zug" and printed["fr"] == "tour supplémentaire"
    assert {"mass land denial", "Exhibition", "cEDH", "Commander Spellbook"} <= set(g["not_printed"])
    de = Catalog(locale="de")
    de.add("Whether extra turns are chained", "Ob weitere Züge aufeinanderfolgen")
    assert any("'extra turn' is 'zusätzlichen zug'" in p for p in wrong_terms("de", de))
    fr = Catalog(locale="fr")
    fr.add("Mass land denial", "Destruction massive")
    assert any("'Land' is 'Terrain'" in p for p in wrong_terms("fr", fr))
    ok = Catalog(locale="fr")
    ok.add(
        "Mass land denial; an extra-turn card",
        "Destruction massive de terrains ; une carte de tour supplémentaire",
    )
    assert wrong_terms("fr", ok) == []


_DOUBLE_PUNCTUATION = re.compile(r"(.)(?<!\?|!)([:;?!])(?=\s|$|\*|»|\))")


def test_french_puts_a_no_break_space_before_double_punctuation() -> None:
    """`: ; ? !` follow a no-break space (U+00A0 or U+202F), so Discord never wraps before them."""
    bad = []
    for _english, text, _m in pairs(catalog("fr")):
        words = re.sub(r"`[^`]*`|\{[a-z_]+\}", "x", text).replace("Magic: The Gathering", "Magic")
        if any(m.group(1) not in "\u00a0\u202f" for m in _DOUBLE_PUNCTUATION.finditer(words)):
            bad.append(text[:80])
    assert bad == []
