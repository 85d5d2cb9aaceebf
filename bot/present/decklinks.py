"""Words for where a decklist comes from: deck links (Archidekt, Moxfield), the options of /deckcheck, the
"Check this decklist" message command and its commander form (a modal).

Deck-link failures arrive as `bot.deck.sources.DeckSourceError` codes (`malformed_url`, `private`, ...);
`deck_link_error_text` words each one. No discord.py here.
"""

from __future__ import annotations

from bot.present import render

SITES = "Archidekt or Moxfield"
MODAL_TITLE_LIMIT = 45  # Discord's limit of a modal title
INPUT_LABEL_LIMIT = 45  # Discord's limit of a text input label


def _site(site: str | None) -> str:
    return site or "The deck site"


def _again(retry_after: int | None, default: str = "in a minute") -> str:
    if not retry_after:
        return default
    if retry_after < 90:
        return f"in {retry_after} second{'s' if retry_after != 1 else ''}"
    return "in a few minutes"


def deck_link_error_text(code: str, site: str | None = None, retry_after: int | None = None) -> str:
    """Why a deck link could not be read, and what to do. `code` is a `DeckSourceErrorCode` value, `site` the
    site's name ("Moxfield"), `retry_after` whole seconds when the site or the bot said when to retry."""
    name = _site(site)
    paste = "or paste the list with `list:` (or attach it as a file with `decklist:`)"
    if code == "malformed_url":
        return (f"That {name} link doesn't point at a deck. Open the deck on {name} and copy the address from "
                f"your browser (it looks like {example_url(site)}).")
    if code == "private":
        return (f"That {name} deck is private, so I can't read it. Make it public (or unlisted) on {name}, "
                f"{paste}.")
    if code == "not_found":
        return (f"I couldn't find that deck on {name}. Check the link; a deleted deck, or a private one "
                f"{name} hides completely, looks like this too.")
    if code == "not_a_deck":
        return f"{name} answered, but not with a deck I can read. Please try again later, {paste}."
    if code == "too_large":
        return f"That {name} deck is too large for me to read. Please {paste.removeprefix('or ')}."
    if code == "rate_limited":
        return f"{name} asked me to slow down. Please try again {_again(retry_after)}, {paste}."
    if code == "busy":
        return (f"I'm reading many deck links right now. Please try again {_again(retry_after, 'in a few seconds')}, "
                f"{paste}.")
    return (f"{name} isn't answering right now (or took too long). Please try again {_again(retry_after)}, "
            f"{paste}.")


def example_url(site: str | None) -> str:
    if site == "Archidekt":
        return "https://archidekt.com/decks/123456"
    return "https://www.moxfield.com/decks/…"


def not_a_deck_link_text(text: str) -> str:
    """`url:` holds something that is not an Archidekt or Moxfield deck address."""
    return (f"\u201c{render.echo(text, 80)}\u201d isn't a deck link I can read. `url:` takes the address of a "
            f"public {SITES} deck, e.g. https://archidekt.com/decks/123456 or "
            "https://www.moxfield.com/decks/<id>.")


def deck_source_text(problem: str, *, size: int = 0, limit: int = 0) -> str:
    """Why the list options of /deckcheck can't be used: "none" (no list given), "several" (more than one of
    `decklist:`, `list:` and `url:`), or "file_too_big"."""
    if problem == "several":
        return ("Please give the decklist one way only: a file (`decklist:`), pasted text (`list:`) or a deck "
                "link (`url:`).")
    if problem == "file_too_big":
        return (f"That file is {size:,} bytes; a decklist file can be at most {limit // 1024} KB. "
                "Please upload just the list.")
    return ("Please give the decklist: attach it as a text file (`decklist:`), paste it (`list:`) or give a "
            f"public {SITES} deck link (`url:`). Exports from Moxfield, Archidekt, Arena or MTGO work as they "
            "are.")


def no_commander_text(*, from_message: bool = False) -> str:
    """Neither the options nor the list name a commander."""
    marks = "a `Commander` section, a `Commander: Name` line or `*CMDR*` after the card"
    if from_message:
        return (f"That list doesn't say who its commander is. Mark it in the list ({marks}), or use "
                "`/deckcheck` with `commander:`.")
    return f"That list doesn't say who its commander is: give it with `commander:`, or mark it in the list ({marks})."


def deck_from_link_line(name: str | None, site: str, url: str) -> str:
    """The first line of a deck check read from a link: which deck, where."""
    title = render.escape(render.truncate(" ".join(name.split()), 100)) if name and name.strip() else "A deck"
    return f"**{title}** on {site}: <{url}>"


# ----------------------------------------------------------------------------- "Check this decklist"
def no_decklist_in_message_text() -> str:
    """The message has neither a decklist (text or a text file) nor a deck link."""
    return ("I found no decklist in that message. \"Check this decklist\" reads a list posted as text "
            f"(one card per line), an attached text file, or a public {SITES} deck link.")


def commander_modal_title() -> str:
    return render.truncate("Who is the commander?", MODAL_TITLE_LIMIT)


def commander_input_label() -> str:
    return render.truncate("Commander", INPUT_LABEL_LIMIT)


def commander_input_placeholder() -> str:
    return "e.g. Kumano, Master Yamabushi (a part of the name works)"


def partner_input_label() -> str:
    return render.truncate("Second commander (optional)", INPUT_LABEL_LIMIT)


def partner_input_placeholder() -> str:
    return "Partner, Background, Doctor's companion..."
