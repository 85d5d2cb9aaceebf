"""A deck's bracket through the fake Discord (issue 31): a 100-card list with Thassa's Oracle + Demonic
Consultation reports the combo with its link and bracket 4, without the Consultation it doesn't; Armageddon is
mass land denial, one Time Warp an extra turn; in a server playing `/house bracket 2` each deck check names
what breaks it. With Commander Spellbook's export imported once, a deck check of known cards asks neither
Spellbook nor Scryfall; with no combo data (Spellbook unreachable on first start) it answers and says combos
weren't checked."""

from __future__ import annotations

import asyncio
import gzip

import pytest
import pytest_asyncio

from bot.combos.load import import_variants
from tests.fakes.discord import MANAGE_GUILD, FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.fakes.spellbook import FakeSpellbook, export, use, variant
from tests.production_world import bot_settings, running

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOME = 1_100_000_000_000_000_100
ORACLE, CONSULTATION = "Thassa's Oracle", "Demonic Consultation"
COMBO = variant(
    [use(ORACLE, "H"), use(CONSULTATION, "H")], ["Win the game"], mana_value=3, variant_id="4131-5131"
)


def deck(*names: str) -> str:
    """A 100-card list led by Golos (all five colors: only the bracket is in question)."""
    cards = "".join(f"1 {n}\n" for n in names)
    return f"Commander: Golos, Tireless Pilgrim\n{cards}{99 - len(names)} Wastes\n"


def bracket_field(reply) -> tuple[str, str]:
    [field] = [f for f in reply.embeds[0]["fields"] if f["name"].startswith("Bracket")]
    return field["name"], field["value"]


class World:
    def __init__(self, discord: FakeDiscord, scryfall: FakeScryfall, spellbook: FakeSpellbook) -> None:
        self.discord, self.scryfall, self.spellbook = discord, scryfall, spellbook
        self.admin = discord.user("1100000000000000301", "admin")
        discord.grant(self.admin, MANAGE_GUILD, HOME)

    async def check(self, text: str, *, guild_id: int | None = None):
        return await self.discord.invoke("deckcheck", {"list": text}, guild_id=guild_id, timeout=30)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    folder = tmp_path_factory.mktemp("brackets")
    cache = card_cache_copy(folder / "cards.sqlite3")
    source = folder / "variants.json.gz"
    source.write_bytes(gzip.compress(export([COMBO])))
    await asyncio.to_thread(import_variants, source, cache, least=1)  # `sync-cards --combos FILE`
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeSpellbook(export([COMBO])) as spellbook,
        FakeDiscord(guild_ids=[HOME]) as discord,
        running(bot_settings(discord, scryfall, cache, spellbook_json_base=spellbook.base_url), discord),
    ):
        yield World(discord, scryfall, spellbook)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    yield world
    assert world.discord.violations == []


async def test_the_combo_with_its_link_and_bracket_4_offline(w):
    asked = w.scryfall.count()
    reply = await w.check(deck(ORACLE, CONSULTATION, "Sol Ring"))
    name, value = bracket_field(reply)
    assert name == "Bracket 4 or higher (Optimized)"
    assert "Early two-card combos: bracket 4 or higher." in value
    assert "Thassa's Oracle + Demonic Consultation: Win the game · 3 mana · Spellbook: Ruthless" in value
    assert "<https://commanderspellbook.com/combo/4131-5131/>" in value
    assert w.scryfall.count() == asked and w.spellbook.count() == 0  # known cards, combos held: offline
    name, value = bracket_field(await w.check(deck(ORACLE, "Sol Ring")))
    assert "Thassa's Oracle + Demonic Consultation" not in value


async def test_mass_land_denial_and_an_extra_turn_with_their_lines(w):
    name, value = bracket_field(await w.check(deck("Armageddon")))
    assert name == "Bracket 4 or higher (Optimized)" and "Mass land denial: bracket 4 or higher." in value
    assert "Armageddon — “**Destroy all lands**.”" in value
    name, value = bracket_field(await w.check(deck("Time Warp")))
    assert name == "Bracket 2 or higher (Core)"
    assert "Time Warp — “Target player **takes an extra turn** after this one.”" in value
    name, value = bracket_field(await w.check(deck("Sol Ring", "Cultivate", "Counterspell")))
    assert name == "Bracket 1 or higher (Exhibition)"
    assert "Nothing here sets a floor" in value


async def test_a_house_bracket_2_names_what_breaks_it_in_each_list(w):
    await w.discord.invoke(
        "house", [{"name": "bracket", "type": 1, "options": [{"name": "level", "type": 4, "value": 2}]}],
        user=w.admin, guild_id=HOME, timeout=30,
    )  # fmt: skip
    for names, broken in (
        ((ORACLE, CONSULTATION), "Thassa's Oracle + Demonic Consultation: a two-card combo for bracket 4"),
        (("Armageddon",), "Armageddon is mass land denial (line 2); this server plays bracket 2"),
    ):
        reply = await w.check(deck(*names), guild_id=HOME)
        over = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}
        assert (
            broken
            in over["Over this server’s bracket (1)" if len(names) == 1 else "Over this server’s bracket (2)"]
        )
    reply = await w.check(deck("Time Warp"), guild_id=HOME)  # bracket 2 allows a few extra turns
    assert not any(f["name"].startswith("Over this server") for f in reply.embeds[0]["fields"])
    fits = await w.discord.invoke(
        "fits", {"card": "Armageddon", "commander": "Golos, Tireless Pilgrim"}, guild_id=HOME, timeout=30
    )
    assert "Armageddon is mass land denial, and this server plays bracket 2 (Core)" in fits.text()


async def test_with_no_combo_data_a_deck_check_answers_and_says_so(tmp_path, card_cache_copy):
    cache = card_cache_copy(tmp_path / "cards.sqlite3")  # never imported: Spellbook unreachable so far
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        running(bot_settings(discord, scryfall, cache, spellbook_json_base="http://127.0.0.1:9"), discord),
    ):
        reply = await discord.invoke("deckcheck", {"list": deck(ORACLE, CONSULTATION)}, timeout=30)
        name, value = bracket_field(reply)
        assert name == "Bracket 3 or higher (Upgraded)"  # the Oracle is a Game Changer; the combo unknown
        assert "Combos were not checked: there is no Commander Spellbook data yet." in value
        assert discord.violations == []
