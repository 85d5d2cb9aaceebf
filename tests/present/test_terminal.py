"""Replies as terminal text (`bot.present.terminal`), one pair of parentheses in "couldn't check" lines, and
when a typed name names its card (`names_in_part`, `Resolved.typed`): the words issue 27 settles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.cards.model import Resolved
from bot.cards.names import names_in_part, normalize
from bot.deck.report import NOT_IN_LOCAL_DATA, Problem, ProblemKind
from bot.identity import analyze, check_fit
from bot.present import embeds, i18n, render, terminal
from bot.present.deck_report import problem_text
from bot.present.i18n import using
from bot.present.message import Embed, Reply
from tests.deck.test_reader_growth import cpu_time
from tests.present.test_embeds import card

KUMANO = {"name": "Kumano, Master Yamabushi"}
FIRE_ICE = {"name": "Fire // Ice", "card_faces": [{"name": "Fire"}, {"name": "Ice"}]}


def test_the_identity_reply_as_terminal_text():
    c = card("Fires of Undeath")
    text = terminal.reply_text(embeds.identity_reply(analyze(c), c))
    assert text.splitlines()[:2] == ["Fires of Undeath", "{2}{R} \u00b7 Instant"]
    assert "Fires of Undeath is red," in text  # bold taken out
    assert (
        "\nColor: {R} red\nColor identity: {B}{R} black and red\nWhy\n" in text
    )  # inline fields on one line
    assert "  {R} \u2014 mana cost: {2}{R}\n  {B} \u2014 flashback cost: Flashback {5}{B}\n" in text
    assert text.endswith(f"\nCard data from Scryfall \u00b7 {c['scryfall_uri']}\n")


def test_markdown_escapes_mentions_and_bold():
    assert (
        terminal.plain_text("Lim-D\\_\\_l \\*\\*x\\*\\* **bold** @\u200beveryone")
        == "Lim-D__l **x** bold @everyone"
    )
    shown = terminal.plain_text("a **b** c **d", bold=True)
    assert (
        shown == f"a {terminal.BOLD}b{terminal.RESET} c {terminal.BOLD}d{terminal.RESET}"
    )  # never left open
    reply = Reply(content="x", embeds=[Embed(title="T", description="d")])
    assert terminal.reply_text(reply) == "x\n\nT\nd\n"


def test_an_unchecked_name_has_one_pair_of_parentheses():
    for why, words in (
        ("timeout", "Scryfall didn\u2019t answer"),
        (NOT_IN_LOCAL_DATA, "not in the local card data"),
    ):
        p = Problem(ProblemKind.UNCHECKED, "Sol Rnig", (3,), suggestions=("Sol Ring",), why=why)
        assert (
            problem_text(p)
            == f"Sol Rnig (line 3): couldn\u2019t look it up ({words}; did you mean Sol Ring?)"
        )
    bare = Problem(ProblemKind.UNCHECKED, "Sol Rnig", (3,), why="timeout")
    assert problem_text(bare) == "Sol Rnig (line 3): couldn\u2019t look it up (Scryfall didn\u2019t answer)"
    with using("fr"):
        text = problem_text(Problem(ProblemKind.UNCHECKED, "X", (1,), suggestions=("Sol Ring",), why="t"))
    assert text.count("(") == 2 and text.endswith("vouliez-vous dire Sol Ring\u202f?)")


def test_a_reply_says_what_was_typed_when_it_is_not_the_cards_own_name():
    bolt = Resolved({"name": "Lightning Bolt"}, "local")
    assert bolt.typed("Lightnig Bolt") == "Lightnig Bolt"  # a slip
    assert bolt.typed("bolt") == "bolt"  # part of the name
    assert bolt.typed("  lightning   BOLT ") is None  # its own name, folded
    assert Resolved(FIRE_ICE, "local").typed("fire") is None  # a face's name
    assert Resolved({"name": "Lightning Bolt"}, "local", printed="Foudre").typed("Foudre") == "Foudre"
    long_name = "A" * 90 + " Very Long Name " + "B" * 40
    assert Resolved({"name": long_name}, "local").typed(long_name[:100].rstrip()) is None  # a choice, cut


def test_names_in_part_takes_word_beginnings_in_order_never_a_slip():
    for typed in ("Kumano", "kumano master", "master yama", "kumano yamabushi", "KUMANO, MASTER YAMABUSHI"):
        assert names_in_part(typed, KUMANO), typed
    for typed in ("Kumamo", "yamabushi kumano", "umano", "", "   ", "Kumano Masterx"):
        assert not names_in_part(typed, KUMANO), typed
    assert names_in_part("ice", FIRE_ICE) and not names_in_part("fire ice storm", FIRE_ICE)


@given(st.text(max_size=300))
def test_names_in_part_never_fails_on_any_text(text):
    assert names_in_part(text, KUMANO) in (True, False)
    assert names_in_part(text, {"name": text}) == bool(normalize(text).split())  # a name names itself


def test_names_in_part_time_grows_linearly():
    """n vs 10·n words against a name of as many: within 30 times the baseline (linear, with slack). Times are
    the thread's CPU time, the least of a few runs (`cpu_time`), so other work on the machine can't fail it."""

    def timed(n: int) -> float:
        name = {"name": " ".join(f"w{i}" for i in range(n))}
        typed = " ".join(f"w{i}" for i in range(0, n, 2)) + " zz"  # every other word, then one not there
        assert not names_in_part(typed, name)
        return cpu_time(lambda text: names_in_part(text, name), typed)

    small, large = timed(2_000), timed(20_000)
    assert large < max(small, 1e-4) * 30


def test_terminal_labels_are_punctuated_as_the_discord_replies_in_every_language():
    """Every label of a terminal reply ("Carte\u00a0: Kitchen Finks", the card's own "name: identity") has the
    colon of the reply's language, the one its Discord reply and evidence lines use (fr: a no-break space)."""
    finks, kumano, golos = (
        card("Kitchen Finks"),
        card("Kumano, Master Yamabushi"),
        card("Golos, Tireless Pilgrim"),
    )
    for locale in (i18n.ENGLISH, *i18n.SUPPORTED):
        with using(locale):
            colon = render.colon("", "")
            replies = [
                embeds.fits_reply(check_fit(finks, [kumano]), finks, [kumano]),
                embeds.identity_reply(analyze(golos), golos),
                Reply(
                    content=terminal.several_cards_text(
                        "kumano", ["Kumano, Master Yamabushi", "Kumano Faces"]
                    )
                ),
            ]
            lines = [
                line.replace("https:", "") for r in replies for line in terminal.reply_text(r).splitlines()
            ]
        labelled = [line for line in lines if ":" in line]
        assert len(labelled) >= 6
        assert [
            line for line in labelled if colon not in line or line.index(colon) > line.index(":")
        ] == [], locale
