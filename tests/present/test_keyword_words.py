"""Issue 26: an evidence line names a keyword cost as the cards print it in the reply's language (de "Kosten für
Rückblende", not "Kosten für flashback"): each keyword whose cost carries a mana symbol has a catalog entry
(msgctxt "keyword") equal to the glossary's printed term, and every localized reply uses it."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog

from bot.identity import analyze
from bot.identity.model import Aspect, Reason, ReasonKind, TextPlace
from bot.identity.text import strip_reminder
from bot.present import embeds, evidence, i18n
from tests.present import terms
from tests.present.test_terms import catalog
from tests.shared_data import all_analyses, all_cards


@cache
def keyword_reasons() -> tuple[tuple[str, Reason], ...]:
    """(card name, reason) for every keyword-cost reason the engine finds over the shared data set."""
    out: list[tuple[str, Reason]] = []
    for card, analysis in zip(all_cards(), all_analyses(), strict=True):
        out.extend(
            (card["name"], r)
            for r in analysis.reasons
            if r.place is TextPlace.KEYWORD_COST and r.keyword and not r.removes
        )
    return tuple(out)


@cache
def cost_keywords() -> frozenset[str]:
    """Glossary keywords an Oracle line prints with a mana cost ("Flashback {3}{R}", "Suspend 4—{1}{R}"), plus
    every keyword the engine reads as a cost."""
    lines = {
        strip_reminder(line)
        for card in all_cards()
        for face in card.get("card_faces") or [card]
        for line in (face.get("oracle_text") or "").split("\n")
    }
    found = {r.keyword.lower() for _n, r in keyword_reasons() if r.keyword}
    by_first: dict[str, list[str]] = {}  # a line can match only the keywords of its first word
    for line in lines:
        by_first.setdefault(re.split("[ \u2014]", line, maxsplit=1)[0].lower(), []).append(line)
    for keyword in terms.glossary()["keywords"]:  # not an ability word before an activated ability's cost
        pattern = re.compile(rf"(?i)^{re.escape(keyword)}(?: (?:\d+|X))?(?: ?\u2014 ?| )\{{[^:]*$")
        if any(pattern.match(line) for line in by_first.get(keyword.split(" ")[0].lower(), ())):
            found.add(keyword.lower())
    return frozenset(found)


def printed(keyword: str, lang: str) -> str | None:
    by_lower = {k.lower(): v for k, v in terms.rules_terms(lang).items()}
    return by_lower.get(keyword.lower())


@pytest.mark.slow
@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_cost_keyword_has_its_printed_name_in_the_catalog(locale: str) -> None:
    po: Catalog = catalog(locale)
    missing = []
    for keyword in sorted(cost_keywords()):
        term = printed(keyword, locale)
        if term is None:
            continue  # no printed word derived: the reply keeps the English keyword
        entry = next((m for m in po if m.context == "keyword" and str(m.id).lower() == keyword), None)
        if entry is None or entry.string != term:
            missing.append((keyword, term, entry.string if entry else None))
    assert missing == []
    assert len(cost_keywords()) >= 40


@pytest.mark.slow
@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_evidence_names_the_keyword_as_printed_in_every_reply(locale: str) -> None:
    """Every keyword-cost reason of the data set (today 331 replies per language) is worded with the printed
    keyword wherever one is derived; the count of such reasons is reported by the assertion."""
    wrong, named = [], 0
    with i18n.using(locale):
        for name, reason in keyword_reasons():
            assert reason.keyword
            term = printed(reason.keyword, locale)
            words = evidence.place_words(reason)
            if term is None:
                continue
            named += 1
            if term.casefold() not in words.casefold():
                wrong.append((name, reason.keyword, words))
    assert wrong == []
    assert named >= 300


def test_german_fires_of_undeath_says_rueckblende() -> None:
    fires = next(c for c in all_cards() if c["name"] == "Fires of Undeath")
    analysis = analyze(fires)
    (reason,) = [r for r in analysis.reasons if r.place is TextPlace.KEYWORD_COST]
    with i18n.using("de"):
        assert evidence.place_words(reason) == "Kosten für Rückblende"
    with i18n.using("es"):
        assert evidence.place_words(reason) == "coste de retrospectiva"
    with i18n.using("en-US"):
        assert evidence.place_words(reason) == "flashback cost"


def test_a_localized_reply_says_its_card_lines_are_english_oracle_text() -> None:
    fires = next(c for c in all_cards() if c["name"] == "Fires of Undeath")
    with i18n.using("de"):
        (embed,) = embeds.identity_reply(analyze(fires), fires).embeds
        assert "Kosten für Rückblende: Flashback {5}**{B}**" in embed.fields[-1].value
        assert (
            embed.footer == "Kartendaten von Scryfall \u00b7 Kartenzeilen auf Englisch zitiert (Oracle-Text)"
        )
    with i18n.using("fr"):
        (embed,) = embeds.identity_reply(analyze(fires), fires).embeds
        assert "coût de flashback\u00a0: Flashback" in embed.fields[-1].value
    (embed,) = embeds.identity_reply(analyze(fires), fires).embeds
    assert embed.footer == "Card data from Scryfall"


_VOWEL = re.compile(r"(?i)[aeiouàâäéèêëîïôöùûüœæ]")
_KATAKANA_END = re.compile(r"[\u30a1-\u30fa\u30fc]$")


def keyword_reason(keyword: str) -> Reason:
    return Reason(
        "B",
        Aspect.IDENTITY,
        ReasonKind.RULES_TEXT,
        "X",
        "{B}",
        f"{keyword} {{B}}",
        False,
        None,
        TextPlace.KEYWORD_COST,
        keyword,
    )


@pytest.mark.parametrize("locale", ["fr", "ja"])
def test_every_keyword_cost_is_typeset_as_the_cards_print_it(locale: str) -> None:
    """Over every keyword of the catalog (msgctxt "keyword") and every keyword-cost reason of the data set: fr
    elides "de" before a vowel ("coût d’équipement", "coût d’échappée", "coût de flashback"); ja puts the
    middle dot only after a katakana keyword ("変異コスト", "フラッシュバック・コスト")."""
    keywords = {str(m.id) for m in catalog(locale) if m.context == "keyword"}
    keywords |= {r.keyword for _n, r in keyword_reasons() if r.keyword}
    wrong = []
    with i18n.using(locale):
        for keyword in sorted(keywords):
            term = evidence.printed_keyword(keyword)
            if locale == "fr":
                term = term[0].lower() + term[1:]
                expected = f"coût d\u2019{term}" if _VOWEL.match(term) else f"coût de {term}"
            else:
                expected = term + ("\u30fbコスト" if _KATAKANA_END.search(term) else "コスト")
            if evidence.place_words(keyword_reason(keyword)) != expected:
                wrong.append((keyword, evidence.place_words(keyword_reason(keyword)), expected))
    assert wrong == []
    assert len(keywords) >= 60


def test_french_elides_every_de_le_la_before_what_it_fills_in() -> None:
    """Every French message that puts a value right after "de", "le" or "la" elides it before a vowel
    (d’, l’, the catalogs' apostrophe) and keeps it before a consonant or an aspirated h ("de hantise")."""
    placed = re.compile(r"(?<![\w’])(de|le|la) \{(\w+)\}")
    checked = 0
    with i18n.using("fr"):
        for m in catalog("fr"):
            texts = m.string if isinstance(m.string, tuple) else (m.string,)
            for text in (str(t) for t in texts if t and m.context != "command"):
                for found in placed.finditer(text):
                    values = {name: "x" for name in re.findall(r"\{(\w+)\}", text)}
                    word, name = found.groups()
                    elided = i18n.Text(text).format(**{**values, name: "équipement"})
                    kept = i18n.Text(text).format(**{**values, name: "hantise"})
                    assert f"{word[0]}\u2019équipement" in elided and f"{word} équipement" not in elided
                    assert f"{word} hantise" in kept
                    checked += 1
    assert checked >= 10
