"""Embed builders, tested on real cards from the shared data set (no Discord, no network)."""

from __future__ import annotations

import re

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import embeds, render
from bot.cards import Resolved
from bot.identity import analyze, check_fit, check_pairing, commander_eligibility
from bot.identity.model import Analysis, FitResult
from tests.shared_data import card


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name == name)


def field_names(embed: discord.Embed) -> list[str]:
    return [f.name for f in embed.fields]


def identity(name: str, **kw) -> discord.Embed:
    c = card(name)
    return embeds.identity_embed(analyze(c), c, **kw)


def fits(name: str, *commanders: str, **kw) -> discord.Embed:
    c = card(name)
    leaders = [card(n) for n in commanders]
    result = check_fit(c, leaders)
    pairing = check_pairing(leaders[0], leaders[1]) if len(leaders) == 2 else None
    return embeds.fits_embed(result, c, leaders, eligibility=[commander_eligibility(x) for x in leaders],
                             pairing=pairing, **kw)


# ------------------------------------------------------------------------------------------ /identity
def test_fires_of_undeath_explains_the_flashback_black():
    e = identity("Fires of Undeath")
    c = card("Fires of Undeath")
    assert e.title == "Fires of Undeath"
    assert e.url == c["scryfall_uri"]
    assert e.thumbnail.url == c["image_uris"]["normal"]
    assert field(e, "Color").startswith("{R} red")
    assert field(e, "Color identity") == "{B}{R} black and red"
    why_black = field(e, "Why {B} black")
    assert "Flashback {5}**{B}**" in why_black
    assert "flashback cost" in why_black and "*Fires of Undeath*" in why_black
    assert "You may cast" not in why_black  # reminder text is left out of the evidence line
    assert "mana cost" in field(e, "Why {R} red")
    assert e.colour.value == render.GOLD  # multicolor identity
    assert embeds.embed_problems([e]) == []


def test_mono_color_embed_color_and_merged_bold():
    e = identity("Dismember")
    assert e.colour.value == render.EMBED_COLORS["B"]
    why = field(e, "Why {B} black")
    assert "{1}**{B/P}{B/P}**" in why and "****" not in why
    assert "Phyrexian" in why


def test_colorless_identity_is_grey_and_fits_everything():
    e = identity("Sol Ring")
    assert e.colour.value == render.GREY
    assert field(e, "Color identity") == "{C} colorless"
    assert "fits every Commander deck" in e.description
    assert not any(n.startswith("Why") for n in field_names(e))


def test_double_faced_card_uses_front_image_and_names_the_back_face():
    c = card("Civilized Scholar // Homicidal Brute")
    assert "image_uris" not in c  # the data set has no image for this DFC
    e = identity("Civilized Scholar // Homicidal Brute")
    assert e.thumbnail.url == embeds.SCRYFALL_IMAGE.format(id=c["id"])
    assert "Homicidal Brute" in field(e, "Why {R} red")
    assert "color indicator" in field(e, "Why {R} red")


def test_card_without_scryfall_uri_links_to_an_exact_search():
    c = card("Fires of Undeath")
    del c["scryfall_uri"], c["image_uris"], c["id"]
    e = embeds.identity_embed(analyze(c), c)
    assert e.url.startswith("https://scryfall.com/search?q=") and "Fires%20of%20Undeath" in e.url
    assert e.thumbnail.url is None
    assert embeds.embed_problems([e]) == []


def test_custom_emoji_replace_plain_pips():
    emoji = {"B": "<:mana_b:1>", "R": "<:mana_r:2>"}
    e = identity("Fires of Undeath", emoji=emoji)
    assert field(e, "Color identity") == "<:mana_b:1><:mana_r:2> black and red"
    assert "**<:mana_b:1>**" in field(e, "Why <:mana_b:1> black")
    assert "{B}" not in field(e, "Why <:mana_b:1> black")


def test_banned_card_and_devoid_notes_are_warnings():
    e = identity("Balance")
    assert "banned in Commander" in field(e, "Warnings")
    e = identity("Ghostfire")
    assert field(e, "Color").startswith("{C} colorless")
    assert field(e, "Color identity") == "{R} red"
    assert "color identity" in field(e, "Warnings")
    assert "Warnings" not in field_names(identity("Fires of Undeath"))


def test_stale_note():
    c = card("Sol Ring")
    assert embeds.stale_note([Resolved(c, "cache")]) is None
    assert embeds.stale_note([Resolved(c, "local", 1.0)]) is None
    assert "5 days old" in embeds.stale_note([Resolved(c, "local", 5.0)])
    assert "out of date" in embeds.stale_note([Resolved(c, "api"), Resolved(c, "stale")])
    e = identity("Sol Ring", stale=embeds.stale_note([Resolved(c, "stale")]))
    assert "out of date" in field(e, "Warnings")


# ---------------------------------------------------------------------------------------------- /fits
def test_dismember_does_not_fit_kumano():
    e = fits("Dismember", "Kumano, Master Yamabushi")
    assert e.title == "❌ Dismember does not fit"
    assert e.colour.value == render.MISFIT_COLOR
    assert e.description.startswith("❌ **Does not fit.**")
    assert "Dismember's Phyrexian **{B/P}** (mana cost) is black" in e.description
    assert "**Kumano, Master Yamabushi** is mono-red." in e.description
    assert field(e, "Card identity") == "{B} black"
    assert field(e, "Commander identity") == "{R} red"
    assert "{B/P}" in field(e, "Outside: {B} black")
    assert "Warnings" not in field_names(e)
    assert embeds.embed_problems([e]) == []


def test_fitting_card_and_colorless_card():
    e = fits("Lightning Bolt", "Kumano, Master Yamabushi")
    assert e.title == "✅ Lightning Bolt fits"
    assert e.colour.value == render.FITS_COLOR
    assert "within the deck's identity (red)" in e.description
    assert not any(n.startswith("Outside") for n in field_names(e))
    e = fits("Sol Ring", "Kumano, Master Yamabushi")
    assert e.title.startswith("✅") and "colorless identity" in e.description


def test_partner_pair_uses_the_union():
    e = fits("Fires of Undeath", "Tymna the Weaver", "Kraum, Ludevic's Opus")
    assert e.title.startswith("✅")
    deck = field(e, "Deck identity (both commanders)")
    assert "Tymna the Weaver: {W}{B} white and black" in deck
    assert "Together: {W}{U}{B}{R}" in deck
    assert "Warnings" not in field_names(e)  # both have Partner
    e = fits("Llanowar Elves", "Tymna the Weaver", "Kraum, Ludevic's Opus")
    assert e.title.startswith("❌")
    assert "together **Tymna the Weaver** and **Kraum, Ludevic's Opus** are white-blue-black-red" in e.description


def test_fits_warnings_for_bad_commanders_and_banned_cards():
    e = fits("Balance", "Lightning Bolt")
    warnings = field(e, "Warnings")
    assert "Not a valid commander" in warnings and "Lightning Bolt" in warnings
    assert "Balance** is banned in Commander" in warnings
    e = fits("Lightning Bolt", "Kumano, Master Yamabushi", "Tymna the Weaver")
    assert "can't be paired" in field(e, "Warnings")


def test_commander_that_chooses_a_color_is_warned_about():
    piper = Analysis(name="The Prismatic Piper", colors="", identity="", chooses_color=True)
    bolt = analyze(card("Lightning Bolt"))
    result = FitResult(fits=False, card=bolt, commanders=(piper,), deck_identity="", outside="R",
                       evidence={"R": bolt.reasons_for("R")})
    e = embeds.fits_embed(result, card("Lightning Bolt"), [{"name": "The Prismatic Piper"}])
    assert "903.4b" in field(e, "Warnings")
    assert "**The Prismatic Piper** is colorless" in e.description


# --------------------------------------------------------------------------------------- help, errors
def test_help_explains_both_rules_with_examples():
    e = embeds.help_embed()
    assert "mana cost" in field(e, "Color")
    assert "rules text" in field(e, "Color identity") and "903.4" in field(e, "Color identity")
    assert "/identity" in field(e, "Examples") and "/fits" in field(e, "Examples")
    assert embeds.embed_problems([e]) == []


def test_error_texts_escape_user_input():
    text = embeds.not_found_text("@everyone **bold** <@123456789012345678>", ["A", "B", "C", "D", "E", "F", "G"])
    assert "@everyone" not in text and "@\u200beveryone" in text
    assert "\\*\\*bold\\*\\*" in text
    assert "<@123456789012345678>" not in text
    assert text.count("**") == 2 * 5  # five bold suggestions, the user's asterisks are escaped
    assert "**F**" not in text
    assert "Did you mean" in text
    long = embeds.too_long_text(6000, "card")
    assert "6,000" in long and "200" in long
    amb = embeds.ambiguous_text("bolt", [f"Bolt {i}" for i in range(30)], "card")
    assert "Bolt 9" in amb and "Bolt 10" not in amb and "20 more" in amb
    assert "try again in about 30 seconds" in embeds.unavailable_text(30)
    assert len(embeds.not_found_text("x" * 5000, ["y" * 300] * 5)) <= embeds.CONTENT_LIMIT


# ------------------------------------------------------------------------------------ limits (fuzzed)
symbols = st.sampled_from(["{W}", "{U}", "{B}", "{R}", "{G}", "{W/U}", "{B/P}", "{2/G}", "{C}", "{X}", "{T}",
                           "{G/U/P}", "{HW}"])
words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
line = st.lists(st.one_of(symbols, words), max_size=30).map(" ".join)
hostile_card = st.fixed_dictionaries({
    "name": st.one_of(words, st.just("@everyone **x** _y_ `z` <@1>"), st.text(min_size=1, max_size=400)),
    "mana_cost": st.lists(symbols, max_size=12).map("".join),
    "type_line": st.sampled_from(["Creature — Elf", "Legendary Creature — Human", "Land — Forest Island",
                                  "Instant", "Legendary Enchantment — Background"]),
    "oracle_text": st.lists(line, max_size=40).map("\n".join),
    "legalities": st.sampled_from([{"commander": "banned"}, {"commander": "legal"}, {}]),
    "scryfall_uri": st.sampled_from(["https://scryfall.com/card/x/1/y", "javascript:alert(1)", ""]),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_card, hostile_card, st.one_of(st.none(), hostile_card))
def test_any_card_data_stays_within_discord_limits(c, commander, partner):
    e = embeds.identity_embed(analyze(c), c)
    assert embeds.embed_problems([e]) == []
    leaders = [commander] + ([partner] if partner else [])
    result = check_fit(c, leaders)
    f = embeds.fits_embed(result, c, leaders, eligibility=[commander_eligibility(x) for x in leaders],
                          pairing=check_pairing(commander, partner) if partner else None, stale="old data")
    assert embeds.embed_problems([f]) == []
    for text in (e.title, f.title):
        assert "@everyone" not in text


@given(st.lists(st.text(max_size=300), max_size=60), st.integers(min_value=1, max_value=1100))
def test_join_limited_never_exceeds_the_limit(lines, limit):
    out = render.join_limited(lines, limit)
    assert len(out) <= limit
    if sum(len(x) + 1 for x in lines) <= limit:
        assert out == "\n".join(lines)


def test_truncate_keeps_markdown_balanced():
    text = "a" * 10 + "**bold part**" + "b" * 50
    cut = render.truncate(text, 20)
    assert len(cut) <= 20 and cut.endswith("…")
    assert cut.count("**") % 2 == 0
    assert not re.search(r"(?<!\\)\\…$", render.truncate("abc\\" + "d" * 10, 4))
