"""The running bot's printed names (issue 20): the refresher imports them in the background after the oracle
data (when missing, stale or the language set changed) and swaps the index in; nothing when the setting is
off."""

from __future__ import annotations

import asyncio

from bot.cards.foreign import use_player_langs
from bot.cards.refresh import BulkRefresher
from tests.fakes.allcards import all_cards_gz_of
from tests.fakes.fixtures import FakeClock

ALL_CARDS = "/bulk/all-cards.json.gz"
SOME_CARDS = {
    "Lightning Bolt",
    "Counterspell",
    "Sol Ring",
    "Dusk // Dawn",
    "Duress",
    "Coercion",
    "Llanowar Elves",
}


async def test_printed_names_are_imported_and_swapped_in(imported_cache, make_card_service, fake_scryfall):
    fake_scryfall.serve_all_cards(await asyncio.to_thread(all_cards_gz_of, SOME_CARDS))  # 3 imports: small
    clock = FakeClock()
    cards = await make_card_service(cache_path=imported_cache, card_languages="de")
    assert cards.foreign.index is None  # nothing imported yet: the search fallback answers meanwhile
    refresher = BulkRefresher(cards, every_hours=24, clock=clock, languages=("de",))
    clock.advance(-clock() + (cards.bulk_imported_at or 0))  # the oracle data is fresh: not downloaded again
    await refresher.refresh_due()
    assert (
        fake_scryfall.count(ALL_CARDS) == 1
        and fake_scryfall.count("/bulk/oracle-cards.json", prefix=True) == 0
    )
    assert cards.foreign.index is not None and cards.foreign.index.languages == {"de"}
    fake_scryfall.reset()
    use_player_langs(("de",))
    assert (await cards.resolve("Blitzschlag")).name == "Lightning Bolt"
    assert fake_scryfall.count() == 0

    await refresher.refresh_due()  # fresh: nothing to do
    assert fake_scryfall.count(ALL_CARDS) == 0
    refresher.languages = ("de", "fr")  # the language set changed: imported again
    await refresher.refresh_due()
    assert fake_scryfall.count(ALL_CARDS) == 1
    assert cards.foreign.index.languages == {"de", "fr"}
    clock.advance(25 * 3600)  # older than the period: imported again (with the oracle data)
    fake_scryfall.reset()
    await refresher.refresh_printed()
    assert fake_scryfall.count(ALL_CARDS) == 1


async def test_nothing_happens_when_the_setting_is_off(imported_cache, make_card_service, fake_scryfall):
    fake_scryfall.serve_all_cards()
    cards = await make_card_service(cache_path=imported_cache)
    refresher = BulkRefresher(cards, every_hours=24)
    assert await refresher.refresh_printed() is False
    assert cards.foreign.index is None and fake_scryfall.count() == 0
