"""Reply builders for /identity, /fits and /help, on real cards from the shared data set and the recent cards of
tests/data/cards (no Discord, no network)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards.model import Resolved
from bot.identity import analyze, check_fit
from bot.present import embeds, mana_art, render
from bot.present.message import Embed
from tests.present import limits
from tests.shared_data import cards_by_name

CARDS_DIR = Path(__file__).parents[1] / "data" / "cards"
KUMANO = "Kumano, Master Yamabushi"


@lru_cache(maxsize=1)
def _recent() -> dict[str, dict[str, Any]]:
    paths = [*sorted(CARDS_DIR.glob("*.json")), CARDS_DIR.parent / "backgrounds.json"]
    return {c["name"]: c for path in paths for c in json.loads(path.read_text(encoding="utf-8"))}


def card(name: str) -> dict[str, Any]:
    """A deep copy of a card of the shared data set, or of tests/data/cards (cards printed after 2022) and
    tests/data/backgrounds.json."""
    found = cards_by_name().get(name) or _recent()[name]
    return json.loads(json.dumps(found))


def field(embed: Embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name == name)


def field_names(embed: Embed) -> list[str]:
    return [f.name for f in embed.fields]


def identity(name: str, **kw: Any) -> Embed:
    c = card(name)
    return embeds.identity_reply(analyze(c), c, **kw).embeds[0]


def fits(
    name: str | dict, *commanders: str | dict, chosen: list[str | None] | None = None, **kw: Any
) -> Embed:
    """The /fits embed exactly as the cog builds it."""
    c = card(name) if isinstance(name, str) else name
    leaders = [card(n) if isinstance(n, str) else n for n in commanders]
    return embeds.fits_reply(check_fit(c, leaders, chosen), c, leaders, **kw).embeds[0]


def warnings_of(embed: Embed) -> list[str]:
    """The warning lines of an embed (empty when it has no Warnings field)."""
    if "Warnings" not in field_names(embed):
        return []
    return [line.removeprefix("\u26a0\ufe0f ") for line in field(embed, "Warnings").split("\n")]


def text_of(embed: Embed) -> str:
    return "\n".join(limits.reply_lines(embed))


# ------------------------------------------------------------------------------------------ /identity
def test_fires_of_undeath_shows_the_card_and_explains_the_flashback_black():
    e = identity("Fires of Undeath")
    c = card("Fires of Undeath")
    assert e.title == "Fires of Undeath"
    assert e.url == c["scryfall_uri"]
    assert e.thumbnail == c["image_uris"]["normal"]
    assert e.description.split("\n")[0] == "{2}{R} \u00b7 Instant"  # the card like a card: cost, type line
    assert field(e, "Color") == "{R} red"
    assert field(e, "Color identity") == "{B}{R} black and red"
    assert field(e, "Why").split("\n") == [
        "{R} \u2014 mana cost: {2}**{R}**",
        "{B} \u2014 flashback cost: Flashback {5}**{B}**",
    ]
    assert "You may cast" not in text_of(e)  # reminder text is left out of the evidence line
    assert e.color == render.GOLD  # multicolor identity
    assert limits.embed_problems([e]) == []


def test_phyrexian_symbols_bold_together_and_the_lesson_is_said():
    e = identity("Dismember")
    assert e.color == render.EMBED_COLORS["B"]
    assert field(e, "Why") == "{B/P} \u2014 mana cost: {1}**{B/P}{B/P}**"
    assert "Phyrexian {B/P} counts as black, though 2 life can pay for it." in e.description


def test_colorless_identity_is_grey_and_fits_everything():
    e = identity("Sol Ring")
    assert e.color == render.GREY
    assert (
        field(e, "Color and color identity") == "colorless"
    )  # no {C} pip: that is the colorless *mana* symbol
    assert "{C}" not in e.description.split("\n", 1)[1]
    assert e.description.endswith("A colorless identity fits every Commander deck.")
    assert "Why" not in field_names(e)


def test_double_faced_card_uses_front_image_and_names_the_back_face():
    c = card("Civilized Scholar // Homicidal Brute")
    assert "image_uris" not in c  # the data set has no image for this DFC
    e = identity("Civilized Scholar // Homicidal Brute")
    assert e.thumbnail == embeds.SCRYFALL_IMAGE.format(id=c["id"])
    assert "{R} \u2014 Homicidal Brute (back face), color indicator" in field(e, "Why").split("\n")
    assert "its back face counts too (CR 903.4d)" in e.description
    # split cards have halves, not a back face
    split = identity("Fire // Ice")
    assert "back face" not in text_of(split)
    assert field(split, "Why").split("\n") == [
        "{R} \u2014 Fire, mana cost: {1}**{R}**",
        "{U} \u2014 Ice, mana cost: {1}**{U}**",
    ]


def test_card_without_scryfall_uri_links_to_an_exact_search():
    c = card("Fires of Undeath")
    del c["scryfall_uri"], c["image_uris"], c["id"]
    e = embeds.identity_reply(analyze(c), c).embeds[0]
    assert e.url.startswith("https://scryfall.com/search?q=") and "Fires%20of%20Undeath" in e.url
    assert e.thumbnail is None
    assert limits.embed_problems([e]) == []


FULL_EMOJI = mana_art.emoji_map({mana_art.emoji_name(s): 100 + i for i, s in enumerate(mana_art.SYMBOLS)})


@pytest.mark.parametrize(
    "name",
    [
        "Kitchen Finks",
        "Dismember",
        "Golos, Tireless Pilgrim",
        "Tamiyo, Compleated Sage",
        "Reaper King",
        "Fires of Undeath",
        "Syndic of Tithes",
        "Tropical Island",
    ],
)
def test_every_mana_symbol_goes_through_the_emoji_map(name):
    """Hybrid, Phyrexian, two-generic hybrid, numbers and X: with a map for every symbol, no `{X}` text is left
    anywhere in the reply (card line, summary, lessons, evidence, fields)."""
    e = identity(name, emoji=FULL_EMOJI)
    assert not re.search(r"\{[^{}]+\}", text_of(e)), text_of(e)
    assert limits.embed_problems([e]) == []
    f = fits(name, KUMANO, emoji=FULL_EMOJI)
    assert not re.search(r"\{[^{}]+\}", text_of(f)), text_of(f)


def test_custom_emoji_replace_plain_pips_and_text_symbols_stay_without_a_map():
    emoji = {"B": "<:mana_B:1>", "R": "<:mana_R:2>", "5": "<:mana_5:5>"}
    e = identity("Fires of Undeath", emoji=emoji)
    assert field(e, "Color identity") == "<:mana_B:1><:mana_R:2> black and red"
    assert "Flashback <:mana_5:5>**<:mana_B:1>**" in field(e, "Why")
    assert "{2}" in e.description  # no emoji for {2} in this map: the text symbol stays


def test_banned_card_and_devoid():
    assert warnings_of(identity("Balance")) == ["Balance is banned in Commander."]
    e = identity("Ghostfire")
    assert field(e, "Color") == "colorless" and field(e, "Color identity") == "{R} red"
    assert "that changes its color only, not its color identity (CR 604.3)" in e.description
    assert "Warnings" not in field_names(e)
    e = identity("Eldrazi Displacer")
    assert "colorless because of Devoid" in e.description and "CR 702.114a" in e.description


def test_reminder_text_symbols_are_said_not_to_count():
    e = identity("Syndic of Tithes")
    assert (
        "The {W/B} in its reminder text doesn\u2019t count: reminder text is ignored (CR 903.4c)."
        in e.description
    )
    assert field(e, "Color and color identity") == "{W} white"
    assert (
        "reminder" not in identity("Tropical Island").description
    )  # its reminder symbols are in its identity


def test_mad_ratter_teaches_that_color_words_do_not_count():
    e = identity("Mad Ratter")
    assert (
        "The word \u201cblack\u201d in its text doesn\u2019t count: words never add to color identity, mana "
        "symbols do (CR 903.4)."
    ) in e.description
    assert field(e, "Color and color identity") == "{R} red"


def test_land_types_are_one_line_with_the_type_line():
    why = field(identity("Tropical Island"), "Why")
    assert why == "{G}{U} \u2014 basic land types (CR 903.5d): Land \u2014 **Forest Island**"
    assert "rules text" not in identity("Forest").description


def test_commander_that_chooses_a_color_and_a_banned_commander():
    e = identity("The Prismatic Piper")
    assert e.description.split("\n")[1].startswith(
        "**The Prismatic Piper** is colorless, and so is its color identity"
    )
    assert (
        "choose a color before the game begins; that color joins its color identity (CR 903.4b)"
        in e.description
    )
    assert warnings_of(identity("Griselbrand")) == ["Griselbrand is banned in Commander."]


def test_stale_note():
    c = card("Sol Ring")
    assert embeds.stale_note([Resolved(c, "cache")]) is None
    assert embeds.stale_note([Resolved(c, "local", 1.0)]) is None
    assert "5 days old" in (embeds.stale_note([Resolved(c, "local", 5.0)]) or "")
    assert "out of date" in (embeds.stale_note([Resolved(c, "api"), Resolved(c, "stale")]) or "")
    e = identity("Sol Ring", stale=embeds.stale_note([Resolved(c, "stale")]))
    assert "out of date" in field(e, "Warnings")


# ------------------------------------------------------------------------- objects that aren't deck cards
def test_a_token_shows_the_colors_its_data_records_and_never_says_none_are_recorded():
    e = identity("Goblin")
    assert "is a token, not a card you put in a deck" in e.description
    assert field(e, "Color") == "{R} red" and "The effect that creates it makes it red." in e.description
    assert "none" not in e.description and "Commander deck" not in e.description
    scion = identity("Eldrazi Scion")  # recorded as colorless
    assert "makes it colorless" in scion.description and "records none" not in scion.description
    unrecorded = card("Goblin")
    del unrecorded["colors"]
    e = embeds.identity_reply(analyze(unrecorded), unrecorded).embeds[0]
    assert "records none" in e.description
    assert "Color" not in field_names(e) and "Why" not in field_names(e)  # no colors shown beside "none"


@pytest.mark.parametrize(
    "name",
    [
        "Brisela, Voice of Nightmares",
        "Goblin",
        "Ob Nixilis of the Black Oath Emblem",
        "The Monarch",
        "Academy at Tolaria West",
    ],
)
def test_objects_that_are_not_deck_cards_are_never_described_as_if_they_could_be(name):
    e = identity(name)
    assert "not a card you put in a deck" in e.description
    assert "Commander deck whose" not in e.description and "fits every" not in e.description
    assert "Color identity" not in field_names(e)
    if name.startswith("Brisela"):
        assert (
            "**Bruna, the Fading Light** and **Gisela, the Broken Blade**, are the cards that go in a deck"
            in e.description
        )


# ---------------------------------------------------------------------------------------------- /fits
def test_dismember_does_not_fit_kumano():
    e = fits("Dismember", KUMANO)
    assert e.title == "\u274c Dismember does not fit"
    assert e.color == render.MISFIT_COLOR
    assert e.description == (
        "Black is outside the deck\u2019s color identity: **Kumano, Master Yamabushi** is red (CR 903.5c)."
    )
    assert field(e, "Card") == "Dismember: {B} black"
    assert field(e, "Commander") == "Kumano, Master Yamabushi: {R} red"
    assert field(e, "Outside: black") == "{B/P} \u2014 mana cost: {1}**{B/P}{B/P}**"
    assert "Warnings" not in field_names(e)
    assert limits.embed_problems([e]) == []


def test_fitting_card_and_colorless_card():
    e = fits("Lightning Bolt", KUMANO)
    assert e.title == "\u2705 Lightning Bolt fits"
    assert e.color == render.FITS_COLOR
    assert "is within the deck\u2019s: **Kumano, Master Yamabushi** is red (CR 903.5c)" in e.description
    assert not any(n.startswith("Outside") for n in field_names(e))
    e = fits("Sol Ring", KUMANO)
    assert e.title == "\u2705 Sol Ring fits" and "colorless identity" in e.description


def test_partner_pair_uses_the_union():
    e = fits("Fires of Undeath", "Tymna the Weaver", "Kraum, Ludevic's Opus")
    assert e.title == "\u2705 Fires of Undeath fits"
    assert field(e, "Commanders").split("\n") == [
        "Tymna the Weaver: {W}{B} white and black",
        "Kraum, Ludevic's Opus: {U}{R} blue and red",
        "Together: {W}{U}{B}{R} white, blue, black and red",
    ]
    e = fits("Llanowar Elves", "Tymna the Weaver", "Kraum, Ludevic's Opus")
    assert e.title.startswith("\u274c")
    assert (
        "together **Tymna the Weaver** and **Kraum, Ludevic's Opus** are white, blue, black and red"
        in e.description
    )


CANT_EXIST = "\u26d4 This deck can\u2019t exist: "


@pytest.mark.parametrize(
    ("card_name", "leaders", "headline", "reason"),
    [
        (
            "Sol Ring",
            ["Lightning Bolt"],
            "Lightning Bolt can\u2019t be your commander",
            "**Lightning Bolt** is not a legendary creature, and no text on it says it can be your commander "
            "(CR 903.3).",
        ),
        (
            "Swords to Plowshares",
            [KUMANO, "Tymna the Weaver"],
            "Kumano, Master Yamabushi and Tymna the Weaver can\u2019t be commanders together",
            "**Kumano, Master Yamabushi** has no ability that lets it share the command zone and **Tymna the Weaver** "
            "has Partner, so they can\u2019t be commanders together (CR 702.124).",
        ),
        (
            "Tempest Efreet",
            [KUMANO],
            "Tempest Efreet is banned in Commander",
            "**Tempest Efreet** is banned in Commander, so no Commander deck may hold it.",
        ),
        (
            "Dismember",
            ["Griselbrand"],
            "Griselbrand is banned in Commander",
            "**Griselbrand** is banned in Commander, so a deck led by it isn\u2019t legal.",
        ),
        (
            "Goblin",
            [KUMANO],
            "Goblin is a token, not a deck card",
            "**Goblin** is a token, not a card you put in a deck: an effect creates it during the game (CR 111.1).",
        ),
        (
            "Llanowar Elves",
            ["Raised by Giants"],
            "Raised by Giants can\u2019t be your commander",
            "**Raised by Giants** is a Background: it can be your commander only alongside a legendary creature with "
            "\u201cChoose a Background\u201d (CR 702.124k).",
        ),
    ],
)
def test_a_deck_that_cant_exist_says_so_in_the_headline_with_the_reason(card_name, leaders, headline, reason):
    """Issue 12: no ✅ above a deck that can't exist; the identity comparison follows only as information."""
    e = fits(card_name, *leaders)
    assert e.title == CANT_EXIST + headline
    assert e.color == render.CANT_EXIST_COLOR
    assert e.description.split("\n")[0] == reason
    assert "\u2705" not in text_of(e) and "\u274c" not in text_of(e)
    assert limits.repeated_lines(e) == []


def test_the_identity_comparison_follows_a_deck_that_cant_exist_as_information():
    e = fits("Sol Ring", "Lightning Bolt")
    assert e.description.split("\n")[1] == (
        "As for colors: **Sol Ring** has a colorless identity, which fits every deck."
    )
    e = fits("Dismember", "Griselbrand")
    assert (
        "As for colors: **Dismember**'s identity (black) is within the deck\u2019s (black)." in e.description
    )


def test_a_commander_that_chooses_a_color_gives_a_conditional_verdict():
    e = fits("Lightning Bolt", "Clara Oswald")
    assert e.title == "\U0001f3a8 Lightning Bolt fits if you choose red for Clara Oswald"
    assert e.color == render.CONDITIONAL_COLOR
    assert "(CR 903.4b)" in e.description and "Say which with `color:`." in e.description
    assert field(e, "Commander") == "Clara Oswald: colorless + a color chosen before the game"
    chosen = fits("Lightning Bolt", "Clara Oswald", chosen=["R"])
    assert chosen.title == "\u2705 Lightning Bolt fits"
    assert (
        "**Clara Oswald** is red, the color chosen for it before the game (CR 903.4b)" in chosen.description
    )
    wrong = fits("Lightning Bolt", "Clara Oswald", chosen=["G"])
    assert wrong.title == "\u274c Lightning Bolt does not fit"
    two = fits("Lightning Helix", "Clara Oswald")
    assert two.title == "\u274c Lightning Helix does not fit"
    assert "but that one color can\u2019t cover white and red" in two.description


def test_two_choosing_commanders_each_choose():
    piper, kraum = "The Prismatic Piper", "Kraum, Ludevic's Opus"
    e = fits("Lightning Helix", piper, kraum)
    assert e.title == "\U0001f3a8 Lightning Helix fits if you choose white for The Prismatic Piper"
    assert fits("Lightning Helix", piper, kraum, chosen=["W", None]).title == "\u2705 Lightning Helix fits"


def test_kitchen_finks_hybrid_is_one_line_not_one_per_color():
    e = fits("Kitchen Finks", KUMANO)
    assert field(e, "Outside: white and green") == "{G/W} \u2014 mana cost: {1}**{G/W}{G/W}**"


def test_transguild_courier_misfit_says_the_cda_once():
    e = fits("Transguild Courier", KUMANO)
    assert field(e, "Outside: white, blue, black and green") == (
        "{W}{U}{B}{G} \u2014 characteristic-defining ability: Transguild Courier is all colors."
    )


# --------------------------------------------------------------- acceptance: short replies, no repeated line
MULTICOLOR = [
    "Transguild Courier",
    "Golos, Tireless Pilgrim",
    "General Tazri",
    "Jegantha, the Wellspring",
    "Kenrith, the Returned King",
    "Kitchen Finks",
    "Alesha, Who Smiles at Death",
    "Lurrus of the Dream-Den",
    "Esika, God of the Tree // The Prismatic Bridge",
]


@pytest.mark.parametrize("name", MULTICOLOR)
def test_multicolor_cards_and_their_misfits_are_short_and_never_repeat_a_line(name):
    for e in (identity(name), fits(name, KUMANO), fits(name, "Tymna the Weaver", "Thrasios, Triton Hero")):
        assert limits.repeated_lines(e) == [], text_of(e)
        assert limits.reply_length(e) <= 1000, (limits.reply_length(e), text_of(e))
        assert limits.embed_problems([e]) == []
        verdict_lines = [
            line for line in limits.reply_lines(e) if re.search(r"\b(fits|does not fit)\b", line)
        ]
        assert len(verdict_lines) <= 1  # the verdict is said once


# --------------------------------------------------------------------------------------- help, errors
def test_help_explains_both_rules_with_examples():
    e = embeds.help_reply().embeds[0]
    assert "mana cost" in field(e, "Color")
    assert "rules text" in field(e, "Color identity") and "903.4" in field(e, "Color identity")
    assert "/identity" in field(e, "Examples") and "color:red" in field(e, "Examples")
    commands = field(e, "Commands")
    for command in ("/identity", "/fits", "/deckcheck", "/help"):
        assert f"`{command}" in commands
    assert "this deck can't exist" in commands
    assert limits.embed_problems([e]) == [] and limits.repeated_lines(e) == []
    assert embeds.help_reply().ephemeral


def test_error_texts_escape_user_input():
    from bot.present import errors, i18n
    from bot.present.message import CONTENT_LIMIT

    text = errors.not_found_text(
        "@everyone **bold** <@123456789012345678>", ["A", "B", "C", "D", "E", "F", "G"]
    )
    assert "@everyone" not in text and "@\u200beveryone" in text
    assert "\\*\\*bold\\*\\*" in text
    assert "<@123456789012345678>" not in text
    assert text.count("**") == 2 * 5  # five bold suggestions, the user's asterisks are escaped
    assert "**F**" not in text
    assert "Did you mean" in text
    long = errors.too_long_text(6000, "card")
    assert "6,000" in long and "200" in long
    with i18n.using("de"):  # the length is grouped the reader's way
        assert "6.000" in errors.too_long_text(6000, "card")
    amb = errors.ambiguous_text("bolt", [f"Bolt {i}" for i in range(30)], "card")
    assert "Bolt 9" in amb and "Bolt 10" not in amb and "20 more" in amb
    assert "try again in about 30 seconds" in errors.unavailable_text(30)
    assert "try again in about 3 seconds" in errors.busy_text(3.2)
    assert len(errors.not_found_text("x" * 5000, ["y" * 300] * 5)) <= CONTENT_LIMIT
    assert "Kumano, Master Yamabushi doesn\u2019t choose one" in errors.chosen_color_text("color", KUMANO)
    assert "`partner:`" in errors.chosen_color_text("partner_color", None)


# ------------------------------------------------------------------------------------ limits (fuzzed)
symbols = st.sampled_from(
    ["{W}", "{U}", "{B}", "{R}", "{G}", "{W/U}", "{B/P}", "{2/G}", "{C}", "{X}", "{T}", "{G/U/P}", "{HW}"]
)
words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
line = st.lists(st.one_of(symbols, words), max_size=30).map(" ".join)
hostile_card = st.fixed_dictionaries(
    {
        "name": st.one_of(words, st.just("@everyone **x** _y_ `z` <@1>"), st.text(min_size=1, max_size=400)),
        "mana_cost": st.lists(symbols, max_size=12).map("".join),
        "type_line": st.sampled_from(
            [
                "Creature \u2014 Elf",
                "Legendary Creature \u2014 Human",
                "Land \u2014 Forest Island",
                "Instant",
                "Legendary Enchantment \u2014 Background",
                "Token Creature \u2014 Elf",
            ]
        ),
        "oracle_text": st.lists(line, max_size=40).map("\n".join),
        "legalities": st.sampled_from([{"commander": "banned"}, {"commander": "legal"}, {}]),
        "scryfall_uri": st.sampled_from(["https://scryfall.com/card/x/1/y", "javascript:alert(1)", ""]),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_card, hostile_card, st.one_of(st.none(), hostile_card))
def test_any_card_data_stays_within_discord_limits(c, commander, partner):
    e = embeds.identity_reply(analyze(c), c).embeds[0]
    assert limits.embed_problems([e]) == []
    assert limits.repeated_lines(e) == []
    leaders = [commander] + ([partner] if partner else [])
    result = check_fit(c, leaders)
    f = embeds.fits_reply(result, c, leaders, stale="old data").embeds[0]
    assert limits.embed_problems([f]) == []
    for text in (e.title or "", f.title or ""):
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
    assert len(cut) <= 20 and cut.endswith("\u2026")
    assert cut.count("**") % 2 == 0
    assert not re.search(r"(?<!\\)\\…$", render.truncate("abc\\" + "d" * 10, 4))
