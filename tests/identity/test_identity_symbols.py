"""The mana-symbol parser (CR 107.4, 202.2): every symbol kind, colors, and robustness."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.identity.symbols import SYMBOL_RE, Symbol, SymbolKind, classify, wubrg


def parse_symbols(text: str) -> tuple[Symbol, ...]:
    """Every `{...}` symbol of `text`, classified, in order: how the engine reads costs and rules text."""
    return tuple(classify(raw) for raw in SYMBOL_RE.findall(text))


def symbol_colors(text: str) -> str:
    return wubrg("".join(s.colors for s in parse_symbols(text)))


@pytest.mark.parametrize(
    ("raw", "kind", "colors"),
    [
        ("{W}", SymbolKind.COLORED, "W"),
        ("{U}", SymbolKind.COLORED, "U"),
        ("{B}", SymbolKind.COLORED, "B"),
        ("{R}", SymbolKind.COLORED, "R"),
        ("{G}", SymbolKind.COLORED, "G"),
        ("{C}", SymbolKind.COLORLESS, ""),
        ("{S}", SymbolKind.SNOW, ""),
        ("{0}", SymbolKind.GENERIC, ""),
        ("{15}", SymbolKind.GENERIC, ""),
        ("{1000000}", SymbolKind.GENERIC, ""),
        ("{X}", SymbolKind.VARIABLE, ""),
        ("{Y}", SymbolKind.VARIABLE, ""),
        ("{Z}", SymbolKind.VARIABLE, ""),
        ("{W/U}", SymbolKind.HYBRID, "WU"),
        ("{G/W}", SymbolKind.HYBRID, "WG"),
        ("{2/W}", SymbolKind.TWO_HYBRID, "W"),
        ("{C/W}", SymbolKind.COLORLESS_HYBRID, "W"),
        ("{B/P}", SymbolKind.PHYREXIAN, "B"),
        ("{G/U/P}", SymbolKind.PHYREXIAN_HYBRID, "UG"),
        ("{W/B/P}", SymbolKind.PHYREXIAN_HYBRID, "WB"),
        ("{HW}", SymbolKind.HALF, "W"),
        ("{HR}", SymbolKind.HALF, "R"),
        ("{T}", SymbolKind.TAP, ""),
        ("{Q}", SymbolKind.UNTAP, ""),
        ("{E}", SymbolKind.ENERGY, ""),
        ("{½}", SymbolKind.GENERIC, ""),
        ("{∞}", SymbolKind.GENERIC, ""),
        ("{P}", SymbolKind.PHYREXIAN_GENERIC, ""),
        ("{CHAOS}", SymbolKind.CHAOS, ""),
        ("{A}", SymbolKind.OTHER, ""),
        ("{FOO}", SymbolKind.UNKNOWN, ""),
        ("{}", SymbolKind.UNKNOWN, ""),
        ("{W/FOO}", SymbolKind.UNKNOWN, "W"),
    ],
)
def test_classify(raw, kind, colors):
    sym = classify(raw)
    assert sym.raw == raw
    assert sym.kind is kind
    assert sym.colors == colors


def test_parse_keeps_order_and_duplicates():
    syms = parse_symbols("{1}{G/W}{G/W}")
    assert [s.raw for s in syms] == ["{1}", "{G/W}", "{G/W}"]
    assert [s.colors for s in syms] == ["", "WG", "WG"]


def test_parse_split_cost_and_text():
    assert [s.raw for s in parse_symbols("{1}{R} // {1}{U}")] == ["{1}", "{R}", "{1}", "{U}"]
    assert symbol_colors("{1}{R} // {1}{U}") == "UR"
    assert symbol_colors("Flashback {5}{B}") == "B"
    assert symbol_colors("{2}{W/B}{G/U/P}{HR}") == "WUBRG"
    assert symbol_colors("a red creature") == ""


@pytest.mark.parametrize("value", ["", "no symbols", "{unclosed", "}{", "{{W}}"])
def test_odd_text(value):
    result = parse_symbols(value)
    if value == "{{W}}":
        assert [s.colors for s in result] == ["W"]
    else:
        assert all(not s.colors for s in result)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parse_never_raises_on_arbitrary_text(text):
    syms = parse_symbols(text)
    for s in syms:
        assert s.raw.startswith("{") and s.raw.endswith("}")
        assert set(s.colors) <= set("WUBRG")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["W", "U", "B", "R", "G", "C", "P", "2", "H", "X", "/", "½", "Ж", " "]), max_size=6
    )
)
def test_classify_never_raises_on_symbol_shaped_text(parts):
    sym = classify("{" + "".join(parts) + "}")
    assert isinstance(sym.kind, SymbolKind)
    assert set(sym.colors) <= set("WUBRG")
