"""Evidence lines quoted as the player's cards print them (issue 26): with a card's printed text in the reply's
language, a matching line is quoted printed, symbols in bold, and the footer's "quoted in English" note stays
only for an Oracle line left; without it, nothing changes. Printed text from `tests/data/printed_texts.json`."""

from __future__ import annotations

from bot.cards.quotes import PrintedText
from bot.identity import analyze, check_fit
from bot.present import embeds, i18n
from bot.present.deck_report import deck_reply, text_report
from bot.present.message import Embed
from tests.fakes.allcards import printed_texts
from tests.present.test_deck_locale import run
from tests.shared_data import card

GERMAN_NOTE = "Kartenzeilen auf Englisch zitiert (Oracle-Text)"


def printed(name: str, lang: str) -> PrintedText:
    text = PrintedText.of(card(name), lang, [printed_texts()[(name, lang)]["printed_text"]])
    assert text is not None
    return text


def identity(name: str, locale: str, lang: str | None = None) -> Embed:
    c = card(name)
    with i18n.using(locale):
        return embeds.identity_reply(analyze(c), c, printed=printed(name, lang) if lang else None).embeds[0]


def test_the_german_line_is_quoted_with_its_symbols_in_bold_and_no_english_note() -> None:
    embed = identity("Fires of Undeath", "de", "de")
    assert "{B} — Kosten für Rückblende: Rückblende {5}**{B}**" in embed.fields[-1].value
    assert "Flashback" not in embed.fields[-1].value
    assert embed.footer == "Kartendaten von Scryfall"  # a mana cost is no English line


def test_french_and_spanish_lines_as_printed() -> None:
    assert (
        "coût de flashback\u00a0: Flashback {5}**{B}**"
        in identity("Fires of Undeath", "fr", "fr").fields[-1].value
    )
    spanish = identity("Fires of Undeath", "es", "es")
    assert "coste de retrospectiva: Retrospectiva {5}**{B}**." in spanish.fields[-1].value
    assert spanish.footer == "Datos de cartas de Scryfall"


def test_a_line_whose_symbols_differ_falls_back_to_the_oracle_line_with_the_note() -> None:
    embed = identity("Justice", "de", "de")  # Fifth Edition prints "WW" where the Oracle text has {W}{W}
    assert (
        "At the beginning of your upkeep, sacrifice Justice unless you pay **{W}{W}**."
        in embed.fields[-1].value
    )
    assert "Zahle" not in embed.fields[-1].value
    assert embed.footer is not None and embed.footer.endswith(GERMAN_NOTE)


def test_printed_text_of_another_language_than_the_reply_is_not_quoted() -> None:
    french = identity("Fires of Undeath", "fr", "de")
    assert "Rückblende" not in french.fields[-1].value and french.footer and "Oracle" in french.footer
    english = identity("Fires of Undeath", "en-US", "de")
    assert "Flashback {5}**{B}**" in english.fields[-1].value and english.footer == "Card data from Scryfall"


def test_without_printed_text_nothing_changes() -> None:
    embed = identity("Fires of Undeath", "de")
    assert "Kosten für Rückblende: Flashback {5}**{B}**" in embed.fields[-1].value
    assert embed.footer == f"Kartendaten von Scryfall \u00b7 {GERMAN_NOTE}"


def test_fits_quotes_the_printed_line_of_the_card() -> None:
    fires, krenko = card("Fires of Undeath"), card("Krenko, Mob Boss")
    with i18n.using("de"):
        result = check_fit(fires, [krenko])
        quoted = embeds.fits_reply(result, fires, [krenko], printed=printed("Fires of Undeath", "de")).embeds[
            0
        ]
        oracle = embeds.fits_reply(result, fires, [krenko]).embeds[0]
    assert "Rückblende {5}**{B}**" in quoted.fields[-1].value and quoted.footer == "Kartendaten von Scryfall"
    assert (
        "Flashback {5}**{B}**" in oracle.fields[-1].value and oracle.footer and GERMAN_NOTE in oracle.footer
    )


def test_the_deck_check_quotes_printed_lines_and_notes_an_english_one() -> None:
    report = run("1 Fires of Undeath\n1 Lingering Souls\n", [card("Krenko, Mob Boss")])
    texts = {n: printed(n, "de") for n in ("Fires of Undeath", "Lingering Souls")}
    with i18n.using("de"):
        embed = deck_reply(report, printed=texts).embeds[0]
        full = text_report(report, texts)
        plain = deck_reply(report).embeds[0]
    shown = "\n".join(f.value for f in embed.fields)
    assert "Rückblende {5}**{B}**" in shown and embed.footer and GERMAN_NOTE not in embed.footer
    assert "Rückblende {5}{B}" in full and "Rückblende {1}{B}" in full and "Flashback" not in full
    assert plain.footer and plain.footer.startswith(GERMAN_NOTE)  # then what the cards can't tell of brackets
    with i18n.using("de"):
        justice = run("1 Justice\n", [card("Krenko, Mob Boss")])
        quoted = {"Justice": printed("Justice", "de")}
        embed, full = deck_reply(justice, printed=quoted).embeds[0], text_report(justice, quoted)
    assert "sacrifice Justice unless you pay {W}{W}." in full and "Zahle" not in full  # the Oracle line
    assert GERMAN_NOTE not in (embed.footer or "")  # the embed shows only Justice's first line, its mana cost
