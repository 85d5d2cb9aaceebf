"""CardService against the fake Scryfall (empty cache, no local bulk data)."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallUnavailable
from bot.cards.service import CardService
from bot.compose import open_cards
from tests.cards import cache_counts
from tests.fakes.fixtures import fake_settings
from tests.rates import turn
from tests.shared_data import all_cards

EMPTY = {"cards": 0, "names": 0, "queries": 0, "negative": 0}


def lookups(service: CardService, result: str) -> float:
    return service.metrics.value("identity_bot_card_lookups_total", {"result": result}) or 0.0


async def test_exact_name_then_cache(fake_scryfall, make_card_service):
    service = await make_card_service()
    first = await service.resolve("Lightning Bolt")
    assert first.name == "Lightning Bolt" and first.source == "api"
    again = await service.resolve("lightning BOLT")
    assert again.source == "cache" and again.card["id"] == first.card["id"]
    assert fake_scryfall.count() == 1
    assert lookups(service, "cache") == 1 and lookups(service, "miss") == 1
    assert (
        service.metrics.value("identity_bot_scryfall_requests_total", {"endpoint": "named", "status": "200"})
        == 1
    )


async def test_fuzzy_typo(fake_scryfall, make_card_service):
    service = await make_card_service()
    resolved = await service.resolve("lightnig bolt")
    assert resolved.name == "Lightning Bolt"
    assert fake_scryfall.requests[0].query == {"fuzzy": "lightnig bolt"}


async def test_ambiguous_gives_candidates_best_first(fake_scryfall, make_card_service):
    service = await make_card_service()
    with pytest.raises(AmbiguousCard) as err:
        await service.resolve("Kumano")
    assert err.value.query == "Kumano"
    assert err.value.candidates[0] == "Kumano, Master Yamabushi"
    assert set(err.value.candidates) == {
        "Kumano, Master Yamabushi",
        "Kumano Faces Kakkazan // Etching of Kumano",
        "Kumano's Pupils",
        "Kumano's Blessing",
    }
    assert cache_counts(service.cache.path)["cards"] == 0


async def test_not_found_with_suggestions(fake_scryfall, make_card_service):
    service = await make_card_service()
    with pytest.raises(CardNotFound) as err:
        await service.resolve("Xyzzy Qwertyuiop")
    assert err.value.query == "Xyzzy Qwertyuiop" and err.value.suggestions == []
    with pytest.raises(CardNotFound) as err:
        await service.resolve("Kumano Zzzz")  # no card; autocomplete suggests nothing either
    counts = cache_counts(service.cache.path)
    assert counts["cards"] == 0 and counts["negative"] == 2


async def test_commander_preference_via_scryfall_search(fake_scryfall, make_card_service):
    service = await make_card_service()
    resolved = await service.resolve_commander("Kumano")
    assert resolved.name == "Kumano, Master Yamabushi"
    search = [r for r in fake_scryfall.requests if r.path == "/cards/search"]
    assert len(search) == 1 and "is:commander" in search[0].query["q"]
    assert (await service.resolve_commander("kumano")).source == "cache"
    assert fake_scryfall.count() == 1


async def test_commander_falls_back_to_plain_resolve(fake_scryfall, make_card_service):
    service = await make_card_service()
    resolved = await service.resolve_commander("Sol Ring")  # not a commander: search finds nothing
    assert resolved.name == "Sol Ring"
    assert fake_scryfall.count("/cards/search") == 1  # then one request by name (named, or a collection when
    assert (
        fake_scryfall.count("/cards/named") + fake_scryfall.count("/cards/collection") == 1
    )  # no free turn)


@pytest.mark.parametrize("typed", ["fire ice", "Fire // Ice", "Fire/Ice", "FIRE//ICE", "Ice"])
async def test_split_card_names(fake_scryfall, make_card_service, typed):
    service = await make_card_service()
    assert (await service.resolve(typed)).name == "Fire // Ice"


async def test_face_names_resolve_and_are_cached(fake_scryfall, make_card_service):
    service = await make_card_service()
    brute = await service.resolve("Homicidal Brute")
    assert brute.name == "Civilized Scholar // Homicidal Brute"
    for typed in ("homicidal brute", "Civilized Scholar", "civilized scholar // homicidal brute"):
        assert (await service.resolve(typed)).source == "cache"
    assert fake_scryfall.count() == 1


@pytest.mark.parametrize("bad", ["", "   ", "\x00\x01\x02", "x" * 201, "Sol Ring" * 1000, "!!!"[:0]])
async def test_bad_input_never_reaches_scryfall(fake_scryfall, make_card_service, bad):
    service = await make_card_service()
    with pytest.raises(BadCardName):
        await service.resolve(bad)
    with pytest.raises(BadCardName):
        await service.resolve_commander(bad)
    with pytest.raises(BadCardName):
        await service.peek(bad)
    batch = await service.resolve_many([bad])
    found, missing = batch.found, batch.missing
    assert found == {} and list(missing) == [bad]
    assert fake_scryfall.count() == 0


async def test_control_characters_are_stripped(fake_scryfall, make_card_service):
    service = await make_card_service()
    assert (await service.resolve("Sol\x00 Ring\u200b")).name == "Sol Ring"
    assert fake_scryfall.requests[0].query == {"fuzzy": "Sol Ring"}


@pytest.mark.looptime  # the fake's delay (the request in flight) passes on the loop's fake clock
async def test_fifty_concurrent_resolves_make_one_request(fake_scryfall, make_card_service):
    service = await make_card_service()
    fake_scryfall.delay = 0.3
    results = await asyncio.gather(*(service.resolve("Dismember") for _ in range(50)))
    assert {r.name for r in results} == {"Dismember"}
    assert fake_scryfall.count() == 1


@pytest.mark.looptime  # the timeouts, backoff, lockout and the fake's delay pass on the loop's fake clock
@pytest.mark.parametrize("fault", ["429", "500", "slow", "malformed", "refused"])
async def test_failures_end_in_unavailable_and_never_poison(fake_scryfall, make_card_service, fault):
    kwargs = {"scryfall_timeout": 1.0}
    if fault == "refused":
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            kwargs["scryfall_api_base"] = f"http://127.0.0.1:{sock.getsockname()[1]}"
    service = await make_card_service(lockout_seconds=0.5, **kwargs)
    if fault == "429":
        fake_scryfall.fail_next(429, retry_after=2)
    elif fault == "500":
        fake_scryfall.fail_next(500, times=3)
    elif fault == "slow":
        fake_scryfall.delay = 5
    elif fault == "malformed":
        fake_scryfall.malformed_json = True
    loop = asyncio.get_running_loop()
    started, loop_started = time.monotonic(), loop.time()
    with pytest.raises(ScryfallUnavailable) as err:
        await service.resolve("Sol Ring")
    assert time.monotonic() - started < 2.0 and loop.time() - loop_started < 2.0
    if fault == "429":
        assert err.value.retry_after == pytest.approx(2, abs=0.1)
    assert cache_counts(service.cache.path) == EMPTY
    assert await service.peek("Sol Ring") is None
    if fault == "refused":
        assert fake_scryfall.count() == 0
        return
    fake_scryfall.reset()
    if fault == "429":
        await asyncio.sleep(2)
    resolved = await service.resolve("Sol Ring")
    assert resolved.source == "api" and resolved.name == "Sol Ring"


async def test_peek_never_uses_the_network(fake_scryfall, make_card_service):
    service = await make_card_service()
    assert await service.peek("Sol Ring") is None
    assert fake_scryfall.count() == 0
    await service.resolve("Sol Ring")
    peeked = await service.peek("sol ring")
    assert peeked is not None and peeked.source == "cache"
    assert fake_scryfall.count() == 1


async def test_resolve_many_uses_collection_batches(fake_scryfall, make_card_service):
    service = await make_card_service()
    pool = sorted({c["name"] for c in all_cards() if c.get("layout") == "normal"})
    names = pool[500:580]  # 80 names: 2 batches (75 + 5)
    typo = "Lightnig Bolt"
    missing = "Qwxyz Not A Card"
    decklist = [*names, typo, missing, names[0], "fire/ice"]
    batch = await service.resolve_many(decklist)
    found, not_found = batch.found, batch.missing
    assert list(not_found) == [typo, missing]  # read exactly: a look-alike is a suggestion, never the card
    assert not_found[typo][0] == "Lightning Bolt" and batch.suggestions[typo] == not_found[typo]
    assert set(found) == set(names) | {"fire/ice"}
    assert all(found[n].name == n for n in names)
    assert found["fire/ice"].name == "Fire // Ice"
    bodies = [r.json for r in fake_scryfall.requests if r.path == "/cards/collection"]
    assert [len(b["identifiers"]) for b in bodies] == [75, 8]
    fuzzy = [r.query["fuzzy"] for r in fake_scryfall.requests if r.path == "/cards/named"]
    assert sorted(fuzzy) == [typo, missing]  # fuzzy only for what the collection missed
    # second time: all local, no requests
    sent = fake_scryfall.count()
    batch2 = await service.resolve_many(decklist)
    found2, not_found2 = batch2.found, batch2.missing
    assert list(not_found2) == [typo, missing] and set(found2) == set(found)
    assert not_found2[typo][0] == "Lightning Bolt"
    assert fake_scryfall.count() == sent


async def test_resolve_many_reports_names_it_could_not_look_up(fake_scryfall, make_card_service):
    # the retries at once: their timing is not tested here
    service = await make_card_service(scryfall_timeout=1.0, backoff=0.0)
    fake_scryfall.mode = "down"
    batch = await service.resolve_many(["Sol Ring", "Lightning Bolt"])
    assert batch.found == {} and batch.missing == {}
    assert set(batch.unavailable) == {"Sol Ring", "Lightning Bolt"}
    assert cache_counts(service.cache.path) == EMPTY


async def test_autocomplete_asks_scryfall_without_local_data(fake_scryfall, make_card_service):
    service = await make_card_service()
    names = await service.autocomplete("kumano")
    assert "Kumano, Master Yamabushi" in names
    assert await service.autocomplete("kumano") == names  # remembered briefly
    assert await service.autocomplete("k") == []  # too short for Scryfall
    assert fake_scryfall.count("/cards/autocomplete") == 1


@pytest.mark.looptime
async def test_commander_autocomplete_without_local_data_drops_known_non_commanders(
    fake_scryfall, make_card_service
):
    service = await make_card_service()
    await service.resolve("Kumano's Pupils")  # now cached: known not to be a commander
    await turn(service, "/cards/search")
    names = await service.autocomplete("kumano", commanders_only=True)
    assert "Kumano, Master Yamabushi" in names  # never seen: may be a commander, kept
    assert "Kumano's Pupils" not in names
    assert "Kumano's Pupils" in await service.autocomplete("kumano")  # the card option keeps it


@pytest.mark.looptime  # the autocomplete's budget and the fake's delay pass on the loop's fake clock
async def test_autocomplete_answers_within_two_seconds(fake_scryfall, make_card_service):
    service = await make_card_service(scryfall_timeout=8.0)
    fake_scryfall.delay = 6
    loop = asyncio.get_running_loop()
    started, loop_started = time.monotonic(), loop.time()
    assert await service.autocomplete("lightning") == []
    assert time.monotonic() - started < 2.0 and loop.time() - loop_started < 2.0


async def test_open_cards_makes_cache_directory_and_close_is_idempotent(fake_scryfall, tmp_path):
    settings = fake_settings(fake_scryfall, tmp_path, cache_path=tmp_path / "a" / "b" / "c.sqlite3")
    async with open_cards(settings) as service:
        assert (tmp_path / "a" / "b" / "c.sqlite3").exists()
        assert service.data_age_days() is None
        service.close()
    service.close()


async def test_commander_search_with_several_commanders_is_ambiguous(fake_scryfall, make_card_service):
    service = await make_card_service()
    with pytest.raises(AmbiguousCard) as err:
        await service.resolve_commander("Sliver")
    assert len(err.value.candidates) >= 2
    assert all("Sliver" in name for name in err.value.candidates)
    assert fake_scryfall.count("/cards/search") == 1 and fake_scryfall.count("/cards/named") == 0


async def test_resolve_many_keeps_suggestions_and_candidates_of_misses(fake_scryfall, make_card_service):
    """A deck check must not ask Scryfall again just to say "did you mean": misses carry their names."""
    service = await make_card_service()
    typo, vague = "Pyroclasmm Not Real", "Kumano"
    batch = await service.resolve_many(["Sol Ring", typo, vague])
    found, misses = batch.found, batch.missing
    assert set(found) == {"Sol Ring"}
    assert set(misses) == {typo, vague}
    assert "Kumano, Master Yamabushi" in misses[vague]  # the ambiguous name's candidates
    assert all(len(names) <= 5 for names in misses.values())
    sent = fake_scryfall.count()
    batch2 = await service.resolve_many([typo])  # negative cache: same suggestions, no request
    again, misses2 = batch2.found, batch2.missing
    assert again == {} and misses2 == {typo: misses[typo]}
    assert fake_scryfall.count() == sent
