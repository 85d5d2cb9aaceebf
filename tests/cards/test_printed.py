"""PrintedNames and printed_key on the real printed names of the shared data set (foreign-names.jsonl.gz)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bot.cards.foreign import choice_label
from bot.cards.printed import PrintedNames, printed_key, printing_names, scryfall_language
from bot.settings import CARD_LANGUAGES, load_settings
from tests.fakes.allcards import foreign_lines
from tests.fakes.allcards import printed_key_of as _key


def printed_names(rows) -> PrintedNames:
    """The index of (language, printed name, English name[, printings]) rows, their keys made here."""
    return PrintedNames((_key(r[1]), r[0], r[1], r[2], r[3] if len(r) > 3 else 1) for r in rows)


def _rows(lines):
    for line in lines:
        for lang, values in line["printed"].items():
            for value in values:
                yield lang, value, line["name"]
        for face in line.get("faces") or ():
            for lang, values in face["printed"].items():
                for value in values:
                    yield lang, value, line["name"]


@pytest.fixture(scope="module")
def index() -> PrintedNames:
    return printed_names(_rows(foreign_lines()))


@pytest.mark.parametrize(
    "typed", ["Foudre", "Blitzschlag", "稲妻", "ＦＯＵＤＲＥ", "  blitz schlag ", "BLITZSCHLAG", "Fou-dre"]
)
def test_printed_names_and_their_variants_resolve(index, typed):
    assert index.lookup(typed) == ["Lightning Bolt"]


def test_accents_fold_on_latin_letters(index):
    """es `Relámpago` is Lightning Bolt; pt `Relâmpago` is Thunderbolt: typed without accents, both."""
    assert index.lookup("relampago") == ["Lightning Bolt", "Thunderbolt"]
    assert index.lookup("Relampago", prefer_langs=["es"]) == ["Lightning Bolt"]
    assert index.lookup("Relámpago") == ["Lightning Bolt"]  # accents typed choose
    assert index.lookup("RELÂMPAGO") == ["Thunderbolt"]


def test_every_printed_name_finds_its_card(index):
    """Whatever a name's script, spacing or punctuation, its own card is among the answers."""
    missing = [
        (lang, value, name) for lang, value, name in _rows(foreign_lines()) if name not in index.lookup(value)
    ]
    assert missing == []


def test_folding_spaces_width_readings_and_lookalikes(index):
    assert index.lookup("주문무효화") == index.lookup("주문 무효화") == ["Counterspell"]
    assert index.lookup("Colere de Dieu") == ["Wrath of God"]
    assert index.lookup("肥沃な足跡") == ["Beanstalk Giant // Fertile Footsteps"]  # furigana dropped
    assert printed_key("チョー＝アリム") == printed_key("チョーアリム") == printed_key("チョー=アリム")
    assert printed_key("職業：野蠻人") == printed_key("職業:野蠻人")
    assert printed_key("Рой Cкутов") == printed_key("Рой Скутов")
    assert printed_key("Bastião Cospe\u2011fogo") == printed_key("bastiao cospe-fogo")


def test_marks_that_tell_letters_apart_stay(index):
    assert printed_key("カ") != printed_key("ガ")
    assert printed_key("й") != printed_key("и")


def test_a_name_shared_by_two_cards_is_an_ambiguity(index):
    assert index.lookup("Zwang") == ["Coercion", "Duress"]
    assert index.lookup("zwang", prefer_langs=["de"]) == ["Coercion", "Duress"]


def test_the_players_language_settles_a_cross_language_collision(index):
    """A string that names different cards only in different languages resolves to the player's one."""
    by_key: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for lang, value, name in _rows(foreign_lines()):
        if (key := _key(value)) == printed_key(value, accents=True):  # accents typed choose otherwise
            by_key[key][lang].add(name)
    cases = [
        (key, langs)
        for key, langs in by_key.items()
        if len(set().union(*langs.values())) > 1 and any(len(n) == 1 for n in langs.values())
    ]
    assert len(cases) > 20
    for key, langs in cases:
        for lang, names in langs.items():
            answer = index.lookup(key, prefer_langs=[lang])
            if len(names) == 1:
                assert answer == sorted(names), (key, lang)
            else:
                assert set(answer[: len(names)]) == names


def test_face_names_resolve_to_the_whole_card(index):
    assert index.lookup("Sonnenuntergang") == ["Dusk // Dawn"]
    assert index.lookup("Sonnenaufgang") == ["Dusk // Dawn"]
    assert index.lookup("Sonnenuntergang // Sonnenaufgang") == ["Dusk // Dawn"]
    assert index.lookup("Alba", prefer_langs=["es"]) == ["Dusk // Dawn"]


def test_unknown_and_empty_names(index):
    assert index.lookup("Lightning Bolt") == []  # English names are the English index's job
    assert index.lookup("") == index.lookup(" ・ ") == []
    assert index.complete("", 5) == []


def test_complete_prefix_in_the_players_language_first(index):
    got = index.complete("blitzsch", 10, prefer_langs=["de"])
    assert ("Blitzschlag", "Lightning Bolt") in got
    assert len(got) <= 10
    assert all(printed_key(p).startswith("blitzsch") for p, _name in got)
    ja = index.complete("稲", 5, prefer_langs=["ja"])
    assert ja and all(p.startswith("稲") for p, _name in ja)
    assert len({(printed_key(p), n) for p, n in index.complete("a", 25)}) == 25


def test_complete_orders_the_players_language_before_others():
    names = printed_names(
        [("it", "Alba", "Dusk // Dawn"), ("fr", "Albatros", "Fr Card"), ("fr", "Alb", "Fr2")]
    )
    assert [p for p, _ in names.complete("alb", 3, prefer_langs=["fr"])] == ["Alb", "Albatros", "Alba"]
    assert [p for p, _ in names.complete("alb", 2)] == ["Alb", "Alba"]


def test_complete_ranks_the_exact_name_then_the_most_printed():
    names = printed_names(
        [
            ("de", "Blitzableitung", "Bolt Bend", 1),
            ("de", "Blitzschlag", "Lightning Bolt", 20),
            ("de", "Blitzangriff", "Lightning Blow", 2),
            ("de", "Blitz", "Some Blitz", 1),
        ]
    )
    assert [p for p, _ in names.complete("blitz", 3)] == ["Blitz", "Blitzschlag", "Blitzangriff"]


def test_first_row_is_the_shown_spelling_and_index_keeps_languages():
    names = printed_names(
        [
            ("ru", "Лановарские Эльфы", "Llanowar Elves"),
            ("ru", "Лановарские эльфы", "Llanowar Elves"),
            ("xx", "Ignored", "Nothing"),
            ("de", "", "Empty"),
        ]
    )
    assert names.complete("лановар", 5) == [("Лановарские Эльфы", "Llanowar Elves")]
    assert len(names) == 1
    assert names.languages == frozenset({"ru"})


def test_printing_names_of_single_and_multi_face_printings():
    assert printing_names({"lang": "fr", "printed_name": "Foudre"}) == ["Foudre"]
    assert printing_names({"lang": "en", "name": "Lightning Bolt"}) == []
    split = {
        "card_faces": [{"name": "Dusk", "printed_name": "Ocaso"}, {"name": "Dawn", "printed_name": "Alba"}]
    }
    assert printing_names(split) == ["Ocaso // Alba", "Ocaso", "Alba"]
    both = dict(split, printed_name="Ocaso // Alba")
    assert printing_names(both) == ["Ocaso // Alba", "Ocaso", "Alba"]


def test_card_languages_setting(clean_env, monkeypatch):
    monkeypatch.delenv("CARD_LANGUAGES", raising=False)
    assert load_settings().card_languages == ()  # off by default
    assert load_settings(card_languages=" DE, fr,de ").card_languages == ("de", "fr")
    assert load_settings(card_languages="all").card_languages == CARD_LANGUAGES
    monkeypatch.setenv("CARD_LANGUAGES", "ja,zhs")
    assert load_settings().card_languages == ("ja", "zhs")
    monkeypatch.setenv("CARD_LANGUAGES", "")
    assert load_settings().card_languages == ()
    with pytest.raises(ValueError, match="xx"):
        load_settings(card_languages="de,xx")


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("pt-BR", "pt"),
        ("ja", "ja"),
        ("ko", "ko"),
        ("ru", "ru"),
        ("zh-CN", "zhs"),
        ("zh-TW", "zht"),
        ("it", "it"),
        ("en-US", None),
        ("en-GB", None),
        ("pl", None),
        ("", None),
        (None, None),
    ],
)
def test_discord_locales_map_to_scryfall_languages(locale, code):
    assert scryfall_language(locale) == code


def test_choice_labels_fit_discord():
    assert choice_label("Foudre", "Lightning Bolt") == "Foudre — Lightning Bolt"
    assert choice_label("Atog", "Atog") == "Atog"
    label = choice_label("x" * 90, "Lightning Bolt")
    assert len(label) == 100 and label.endswith(" — Lightning Bolt")


def test_keys_of_text_outside_the_basic_plane_leave_the_lookup_table_as_it_was():
    """Any code point a player types is folded the same way, but only those of the Basic Multilingual Plane (every
    printed name's) are remembered: hostile text cannot grow the table without bound."""
    from bot.cards import printed

    printed.printed_key("Foudre")
    held = len(printed._KEPT)
    astral = "".join(chr(c) for c in range(0x1F300, 0x1F300 + 2000)) + "\U000e0001"  # emoji, a tag character
    assert printed_key(astral + "Foudre") == printed_key(astral) + "foudre"
    assert len(printed._KEPT) == held
