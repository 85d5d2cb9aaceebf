"""Embed builders, tested on real cards from the shared data set (no Discord, no network)."""

from __future__ import annotations

import re

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards.model import Resolved
from bot.identity import analyze, check_fit
from bot.present import embeds, render
from tests.shared_data import card


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name == name)


def field_names(embed: discord.Embed) -> list[str]:
    return [f.name for f in embed.fields]


def identity(name: str, **kw) -> discord.Embed:
    c = card(name)
    return embeds.identity_embed(analyze(c), c, **kw)


def fits(name: str | dict, *commanders: str | dict, **kw) -> discord.Embed:
    """The /fits embed exactly as the cog builds it."""
    c = card(name) if isinstance(name, str) else name
    leaders = [card(n) if isinstance(n, str) else n for n in commanders]
    return embeds.fits_embed(check_fit(c, leaders), c, leaders, **kw)


def warnings_of(embed: discord.Embed) -> list[str]:
    """The warning lines of an embed (empty when it has no Warnings field)."""
    if "Warnings" not in field_names(embed):
        return []
    return [line.removeprefix("⚠️ ") for line in field(embed, "Warnings").split("\n")]


def make(name, type_line, text="", cost="", **extra) -> dict:
    """A realistic Scryfall-shaped card, for cards newer than the shared data set."""
    return {"object": "card", "name": name, "layout": "normal", "mana_cost": cost, "type_line": type_line,
            "oracle_text": text, "legalities": {"commander": "legal"},
            "scryfall_uri": f"https://scryfall.com/card/test/1/{name.lower().replace(' ', '-')}", **extra}


RAISED_BY_GIANTS = make(
    "Raised by Giants", "Legendary Enchantment \u2014 Background",
    "Commander creatures you own have base power and toughness 10/10 and are Giants in addition to their other "
    "types.", "{5}{G}", colors=["G"], color_identity=["G"],
)
WILSON = make(
    "Wilson, Refined Grizzly", "Legendary Creature \u2014 Bear Warrior",
    "Choose a Background (You can have a Background as a second commander.)\nReach, trample, ward {2}\n"
    "Wilson, Refined Grizzly gets +1/+1 for each Background you control.", "{1}{G}",
    colors=["G"], color_identity=["G"], power="2", toughness="2",
)
PIPER = make(
    "The Prismatic Piper", "Legendary Creature \u2014 Shapeshifter",
    "Partner (You can have two commanders if both have partner.)\nIf The Prismatic Piper is your commander, "
    "choose a color before the game begins. The Prismatic Piper is the chosen color.", "{5}",
    colors=[], color_identity=[], power="3", toughness="3",
)


# ------------------------------------------------------------------------------------------ /identity
def test_fires_of_undeath_explains_the_flashback_black():
    e = identity("Fires of Undeath")
    c = card("Fires of Undeath")
    assert e.title == "Fires of Undeath"
    assert e.url == c["scryfall_uri"]
    assert e.thumbnail == c["image_uris"]["normal"]
    assert field(e, "Color").startswith("{R} red")
    assert field(e, "Color identity") == "{B}{R} black and red"
    why_black = field(e, "Why {B} black")
    assert "Flashback {5}**{B}**" in why_black
    assert "flashback cost" in why_black and "*Fires of Undeath*" in why_black
    assert "You may cast" not in why_black  # reminder text is left out of the evidence line
    assert "mana cost" in field(e, "Why {R} red")
    assert e.color == render.GOLD  # multicolor identity
    assert embeds.embed_problems([e]) == []


def test_mono_color_embed_color_and_merged_bold():
    e = identity("Dismember")
    assert e.color == render.EMBED_COLORS["B"]
    why = field(e, "Why {B} black")
    assert "{1}**{B/P}{B/P}**" in why and "****" not in why
    assert "Phyrexian" in why


def test_colorless_identity_is_grey_and_fits_everything():
    e = identity("Sol Ring")
    assert e.color == render.GREY
    assert field(e, "Color identity") == "colorless"  # no {C} pip: that is the colorless *mana* symbol
    assert field(e, "Color").startswith("colorless\n")
    assert "{C}" not in e.description
    assert "fits every Commander deck" in e.description
    assert not any(n.startswith("Why") for n in field_names(e))


def test_double_faced_card_uses_front_image_and_names_the_back_face():
    c = card("Civilized Scholar // Homicidal Brute")
    assert "image_uris" not in c  # the data set has no image for this DFC
    e = identity("Civilized Scholar // Homicidal Brute")
    assert e.thumbnail == embeds.SCRYFALL_IMAGE.format(id=c["id"])
    assert "Homicidal Brute" in field(e, "Why {R} red")
    assert "color indicator" in field(e, "Why {R} red")


def test_card_without_scryfall_uri_links_to_an_exact_search():
    c = card("Fires of Undeath")
    del c["scryfall_uri"], c["image_uris"], c["id"]
    e = embeds.identity_embed(analyze(c), c)
    assert e.url.startswith("https://scryfall.com/search?q=") and "Fires%20of%20Undeath" in e.url
    assert e.thumbnail is None
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
    assert field(e, "Color").startswith("colorless\n")
    assert field(e, "Color identity") == "{R} red"
    assert "changes its color only, not its color identity" in e.description
    assert "Warnings" not in field_names(e)  # said once, in the summary, not again as a warning
    assert "Warnings" not in field_names(identity("Fires of Undeath"))


SUMMARIES = {
    "Fires of Undeath": "**Fires of Undeath** is red, but its color identity is black and red: the {B} in its "
    "flashback cost in the rules text adds black (CR 903.4).",
    "Civilized Scholar // Homicidal Brute": "**Civilized Scholar // Homicidal Brute** is blue, but its color "
    "identity is blue and red: the back face, Homicidal Brute, has a red color indicator (CR 903.4d).",
    "Ghostfire": "**Ghostfire** is colorless by its own text (\u201cGhostfire is colorless.\u201d), but its color "
    "identity is red: that changes its color only, not its color identity (CR 604.3); the {R} in its mana cost "
    "still adds red.",
    "Tropical Island": "**Tropical Island** is colorless, but its color identity is blue and green: its basic land "
    "types Forest and Island give it green and blue identity (CR 903.5d) \u2014 it taps for {G} or {U}.",
    "Forest": "**Forest** is colorless, but its color identity is green: its basic land type Forest gives it green "
    "identity (CR 903.5d) \u2014 it taps for {G}.",
    "Wastes": "**Wastes** is colorless, and so is its color identity: it has no colored mana symbol in its mana "
    "cost or rules text, no color indicator and no basic land type that taps for colored mana.",
    "Sol Ring": "**Sol Ring** is colorless, and so is its color identity: it has no colored mana symbol in its "
    "mana cost or rules text, no color indicator and no basic land type that taps for colored mana.",
    "Kitchen Finks": "**Kitchen Finks** is white and green, and its color identity is the same: the hybrid {G/W} "
    "in its mana cost adds white and green.",
    "General Tazri": "**General Tazri** is white, but its color identity is white, blue, black, red and green: the "
    "{U}, {B}, {R} and {G} in an activated ability's cost in the rules text add blue, black, red and green "
    "(CR 903.4).",
    "Bosh, Iron Golem": "**Bosh, Iron Golem** is colorless, but its color identity is red: the {R} in an activated "
    "ability's cost in the rules text adds red (CR 903.4).",
    "Mad Ratter": "**Mad Ratter** is red, and its color identity is the same: the {R} in its mana cost adds red.",
    "Transguild Courier": "**Transguild Courier** is white, blue, black, red and green, and its color identity is "
    "the same: \u201cTransguild Courier is all colors.\u201d makes it all colors (CR 604.3).",
    "Dryad Arbor": "**Dryad Arbor** is green, and its color identity is the same: its color indicator is green.",
    "Fire // Ice": "**Fire // Ice** is blue and red, and its color identity is the same: the {R} in Fire's mana "
    "cost adds red; the {U} in Ice's mana cost adds blue.",
    "Dismember": "**Dismember** is black, and its color identity is the same: the Phyrexian {B/P} in its mana cost "
    "adds black.",
    "Daybreak Ranger // Nightfall Predator": "**Daybreak Ranger // Nightfall Predator** is green, but its color "
    "identity is red and green: the {R} in an activated ability's cost in the rules text of its back face, "
    "Nightfall Predator, adds red (CR 903.4d).",
    "Valki, God of Lies // Tibalt, Cosmic Impostor": "**Valki, God of Lies // Tibalt, Cosmic Impostor** is black, "
    "but its color identity is black and red: its back face, Tibalt, Cosmic Impostor, has {R} in its mana cost, "
    "which adds red (CR 903.4d).",
}


@pytest.mark.parametrize("name", sorted(SUMMARIES))
def test_identity_summary_is_built_from_the_reasons_present(name):
    """Audit defect 4: the summary used to always blame "mana symbols in the rules text ... every face"."""
    e = identity(name)
    first, *rest = e.description.split("\n")
    assert first == SUMMARIES[name]
    ident = analyze(card(name)).identity
    if ident:
        assert rest[-1] == ("It can go in a Commander deck whose commander's identity includes "
                            f"{render.color_words(ident)}.")
    else:
        assert rest[-1] == "A colorless identity fits every Commander deck."


def test_land_type_summary_does_not_blame_rules_text():
    for name in ("Tropical Island", "Forest", "Dryad Arbor"):
        e = identity(name)
        assert "rules text" not in e.description and "reminder" not in e.description
    why = field(identity("Tropical Island"), "Why {U} blue")
    assert why == ("• Basic land type Island on the type line of *Tropical Island* (Land — Forest **Island**), "
                   "so it taps for {U} (CR 903.5d)")


def test_reminder_text_symbols_are_said_not_to_count():
    e = identity("Syndic of Tithes")
    assert "The {W/B} in its reminder text doesn't count: reminder text is ignored (CR 903.4c)." \
        in e.description.replace("\u2019", "'")
    assert field(e, "Color identity") == "{W} white"
    assert "reminder" not in identity("Tropical Island").description  # its reminder symbols are in its identity


def test_back_face_evidence_is_labelled():
    why = field(identity("Civilized Scholar // Homicidal Brute"), "Why {R} red")
    assert why == "• The red color indicator of *Homicidal Brute* (the back face, CR 903.4d)"
    # split cards have halves, not a back face
    assert "back face" not in identity("Fire // Ice").description + field(identity("Fire // Ice"), "Why {U} blue")


def test_identity_summary_of_a_banned_card_and_a_commander_that_chooses_a_color():
    e = embeds.identity_embed(analyze(PIPER), PIPER)
    assert e.description.startswith("**The Prismatic Piper** is colorless, and so is its color identity")
    (only,) = warnings_of(e)
    assert "903.4b" in only
    e = identity("Griselbrand")
    assert warnings_of(e) == ["Griselbrand is banned in Commander."]


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
    assert e.color == render.MISFIT_COLOR
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
    assert e.color == render.FITS_COLOR
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
    assert warnings_of(e) == [
        "Lightning Bolt is not a legendary creature, and no text on it says it can be your commander.",
        "**Balance** is banned in Commander.",
    ]
    e = fits("Lightning Bolt", "Kumano, Master Yamabushi", "Tymna the Weaver")
    (only,) = warnings_of(e)
    assert "Kumano, Master Yamabushi has no ability that lets it share the command zone" in only
    assert "can\u2019t be commanders together" in only


def test_fits_shows_each_warning_once():
    """Audit defect 2: the same problem used to appear twice (prefixed verdict + FitResult.warnings)."""
    (only,) = warnings_of(fits("Counterspell", "Lightning Bolt"))
    assert only == "Lightning Bolt is not a legendary creature, and no text on it says it can be your commander."
    (only,) = warnings_of(fits("Lightning Bolt", "Tymna the Weaver", "Kumano, Master Yamabushi"))
    assert only.startswith("Tymna the Weaver has Partner and Kumano, Master Yamabushi has no ability")
    assert warnings_of(fits("Lightning Bolt", "Kumano, Master Yamabushi")) == []
    e = fits("Sol Ring", "Kumano, Master Yamabushi", stale="Old data.")
    assert warnings_of(e) == ["Old data."]


def test_banned_commander_is_warned_about():
    """Audit defect 3: a banned commander used to give a clean ✅ with no warning."""
    e = fits("Dismember", "Griselbrand")
    assert e.title == "✅ Dismember fits"
    assert warnings_of(e) == ["Griselbrand is banned in Commander, so a deck led by it isn\u2019t legal."]
    # the card itself is the banned commander: one warning, not a second "is banned" line for the card
    assert len(warnings_of(fits("Griselbrand", "Griselbrand"))) == 1


def test_background_pair_has_no_warnings_on_fits():
    """Audit defect 1: a valid Choose-a-Background pair was warned about as "Not a valid commander"."""
    for leaders in ((WILSON, RAISED_BY_GIANTS), (RAISED_BY_GIANTS, WILSON)):
        e = fits("Llanowar Elves", *leaders)
        assert e.title == "✅ Llanowar Elves fits"
        assert warnings_of(e) == []
        deck = field(e, "Deck identity (both commanders)")
        assert "Raised by Giants: {G} green" in deck and "Together: {G} green" in deck
    e = fits("Lightning Bolt", WILSON, RAISED_BY_GIANTS)
    assert e.title == "❌ Lightning Bolt does not fit" and warnings_of(e) == []
    assert "together **Wilson, Refined Grizzly** and **Raised by Giants** are mono-green" in e.description
    # a Background without a Choose-a-Background partner: one warning, from the pairing
    (only,) = warnings_of(fits("Llanowar Elves", RAISED_BY_GIANTS, "Kumano, Master Yamabushi"))
    assert "Raised by Giants is a Background" in only


def test_commander_that_chooses_a_color_is_warned_about_once():
    e = fits("Lightning Bolt", PIPER)
    (only,) = warnings_of(e)
    assert "903.4b" in only and only.startswith("The Prismatic Piper has you choose a color")
    assert "**The Prismatic Piper** is colorless" in e.description


def test_fits_embed_warns_once_for_an_ineligible_commander():
    """`result.warnings` is the single source of commander warnings."""
    c, leaders = card("Counterspell"), [card("Lightning Bolt")]
    (only,) = warnings_of(embeds.fits_embed(check_fit(c, leaders), c, leaders))
    assert "Lightning Bolt" in only


def test_misfit_sentences_name_the_place_without_nested_brackets():
    e = fits("Fires of Undeath", "Kumano, Master Yamabushi")
    assert "Fires of Undeath's **{B}** (flashback cost in the rules text) is black" in e.description
    assert not re.search(r"\([^()]*\(", e.description)  # no "(rules text (flashback cost))"
    e = fits("Kitchen Finks", "Kumano, Master Yamabushi")
    assert "Kitchen Finks' hybrid **{G/W}** (mana cost) is white and green;" in e.description
    assert e.description.count("{G/W}") == 1  # one sentence for the one symbol, not one per color
    e = fits("Tropical Island", "Kumano, Master Yamabushi")
    assert ("Tropical Island's basic land types Island and Forest make its identity blue and green "
            "(it taps for {U} or {G}, CR 903.5d)") in e.description
    e = fits("Civilized Scholar // Homicidal Brute", "Talrand, Sky Summoner")
    assert "color indicator on its back face, Homicidal Brute, is red" in e.description
    assert "(the back face, CR 903.4d)" in field(e, "Outside: {R} red")
    e = fits("Transguild Courier", "Kumano, Master Yamabushi")
    assert "\u201cTransguild Courier is all colors.\u201d" in e.description
    assert "white, blue, black and green" in e.description


# --------------------------------------------------------------------------------------- help, errors
def test_help_explains_both_rules_with_examples():
    e = embeds.help_embed()
    assert "mana cost" in field(e, "Color")
    assert "rules text" in field(e, "Color identity") and "903.4" in field(e, "Color identity")
    assert "/identity" in field(e, "Examples") and "/fits" in field(e, "Examples")
    commands = field(e, "Commands")
    for command in ("/identity", "/fits", "/deckcheck", "/help"):
        assert f"`{command}" in commands
    assert "/deckcheck" in field(e, "Examples")
    assert embeds.embed_problems([e]) == []


def test_error_texts_escape_user_input():
    from bot.present import errors
    from bot.present.message import CONTENT_LIMIT

    text = errors.not_found_text("@everyone **bold** <@123456789012345678>", ["A", "B", "C", "D", "E", "F", "G"])
    assert "@everyone" not in text and "@\u200beveryone" in text
    assert "\\*\\*bold\\*\\*" in text
    assert "<@123456789012345678>" not in text
    assert text.count("**") == 2 * 5  # five bold suggestions, the user's asterisks are escaped
    assert "**F**" not in text
    assert "Did you mean" in text
    long = errors.too_long_text(6000, "card")
    assert "6,000" in long and "200" in long
    amb = errors.ambiguous_text("bolt", [f"Bolt {i}" for i in range(30)], "card")
    assert "Bolt 9" in amb and "Bolt 10" not in amb and "20 more" in amb
    assert "try again in about 30 seconds" in errors.unavailable_text(30)
    assert "try again in about 3 seconds" in errors.busy_text(3.2)
    assert len(errors.not_found_text("x" * 5000, ["y" * 300] * 5)) <= CONTENT_LIMIT


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
    f = embeds.fits_embed(result, c, leaders, stale="old data")
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
