"""Discord's rules the fake Discord enforces: interaction, component, message, embed, modal and emoji shapes and
limits (application commands: `tests.fakes.command_rules`). Each `_..._problems` function returns what is wrong with one payload (empty when it is
fine), worded like Discord's own errors."""

from __future__ import annotations

import io
from typing import Any

# Interaction types and callback types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

# Application command types, installation contexts (integration types), interaction contexts
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
COMMAND_LIMITS = {CHAT_INPUT: 100, USER_COMMAND: 15, MESSAGE_COMMAND: 15}  # per scope, as Discord allows

# Component types
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
LABEL, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 18, 19, 21, 22, 23
SELECT_TYPES = {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
LINK_STYLE, PREMIUM_STYLE = 5, 6


# ------------------------------------------------------------------------------------ validation
def _embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for e in embeds:
        title, desc = e.get("title") or "", e.get("description") or ""
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        fields = e.get("fields") or []
        for label, text, limit in (
            ("title", title, 256),
            ("description", desc, 4096),
            ("footer", footer, 2048),
            ("author", author, 256),
        ):
            if len(text) > limit:
                problems.append(f"embed {label} is {len(text)} characters (max {limit})")
        if len(fields) > 25:
            problems.append(f"{len(fields)} embed fields (max 25)")
        for f in fields:
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            if not name.strip() or len(name) > 256:
                problems.append(f"embed field name length {len(name)} (1-256)")
            if not value.strip() or len(value) > 1024:
                problems.append(f"embed field value length {len(value)} (1-1024)")
            total += len(name) + len(value)
        total += len(title) + len(desc) + len(footer) + len(author)
        if e.get("url") is not None and not str(e["url"]).startswith(("http://", "https://")):
            problems.append(f"embed url not well formed: {e['url']!r}")
        for key in ("thumbnail", "image"):
            url = (e.get(key) or {}).get("url")
            if url is not None and not str(url).startswith(("http://", "https://", "attachment://")):
                problems.append(f"embed {key}.url not well formed: {url!r}")
        if "color" in e and e["color"] is not None and not 0 <= int(e["color"]) <= 0xFFFFFF:
            problems.append(f"embed color out of range: {e['color']}")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    return problems


def _allowed_mentions_problems(mentions: Any) -> list[str]:
    if not isinstance(mentions, dict):
        return ["allowed_mentions is not an object"]
    problems = []
    parse = mentions.get("parse", [])
    if not isinstance(parse, list) or any(p not in ("users", "roles", "everyone") for p in parse):
        problems.append(f"allowed_mentions.parse invalid: {parse!r}")
    for kind in ("users", "roles"):
        ids = mentions.get(kind)
        if ids is not None:
            if kind in parse:
                problems.append(f"allowed_mentions has both parse {kind} and {kind} list")
            if len(ids) > 100:
                problems.append(f"allowed_mentions.{kind} has more than 100 ids")
    return problems


def _choice_problems(choices: Any) -> list[str]:
    if not isinstance(choices, list):
        return ["autocomplete choices missing"]
    problems = []
    if len(choices) > 25:
        problems.append(f"{len(choices)} autocomplete choices (max 25)")
    for c in choices:
        name, value = c.get("name"), c.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"choice name invalid: {name!r}")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"choice value longer than 100: {value!r}")
    return problems


def _text_problem(value: Any, what: str, low: int, high: int) -> list[str]:
    """A string field's length must be within [low, high]."""
    if not isinstance(value, str):
        return [f"{what} must be a string, not {value!r}"]
    if not low <= len(value) <= high:
        return [f"{what} is {len(value)} characters ({low}-{high})"]
    return []


def _button_problems(button: dict[str, Any], where: str) -> list[str]:
    problems: list[str] = []
    style = button.get("style")
    if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
        problems.append(f"{where}: button style {style!r} invalid (1-6)")
    if "label" in button and button["label"] is not None:
        problems += _text_problem(button["label"], f"{where} button label", 0, 80)
    if style == LINK_STYLE:
        url = button.get("url")
        if button.get("custom_id") is not None:
            problems.append(f"{where}: a link button cannot have a custom_id")
        if (
            not isinstance(url, str)
            or not url.startswith(("http://", "https://", "discord://"))
            or len(url) > 512
        ):
            problems.append(f"{where}: link button url invalid: {url!r}")
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            problems.append(f"{where}: a premium button needs a sku_id")
        if any(button.get(k) for k in ("custom_id", "label", "url", "emoji")):
            problems.append(f"{where}: a premium button cannot have custom_id, label, url or emoji")
    else:
        if button.get("url") is not None or button.get("sku_id") is not None:
            problems.append(f"{where}: a button of style {style} cannot have a url or sku_id")
        if button.get("custom_id") is None:
            problems.append(f"{where}: a button of style {style} needs a custom_id")
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        problems.append(f"{where}: a button needs a label or an emoji")
    return problems


def _select_problems(select: dict[str, Any], where: str, *, in_modal: bool) -> list[str]:
    problems: list[str] = []
    if "placeholder" in select and select["placeholder"] is not None:
        problems += _text_problem(select["placeholder"], f"{where} placeholder", 0, 150)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not isinstance(low, int) or not 0 <= low <= 25:
        problems.append(f"{where}: min_values {low!r} (0-25)")
    if not isinstance(high, int) or not 1 <= high <= 25:
        problems.append(f"{where}: max_values {high!r} (1-25)")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append(f"{where}: min_values {low} > max_values {high}")
    if in_modal and select.get("disabled"):
        problems.append(f"{where}: a select in a modal cannot be disabled")
    if in_modal and select.get("required", True) and low == 0:
        problems.append(f"{where}: a required select in a modal needs min_values >= 1")
    if select.get("type") != STRING_SELECT:
        if select.get("options"):
            problems.append(f"{where}: only string selects have options")
        return problems
    options = select.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= 25:
        problems.append(f"{where}: {len(options) if isinstance(options, list) else 'no'} options (1-25)")
        return problems
    values = [o.get("value") for o in options]
    for i, option in enumerate(options):
        problems += _text_problem(option.get("label"), f"{where} option {i} label", 1, 100)
        problems += _text_problem(option.get("value"), f"{where} option {i} value", 1, 100)
        if option.get("description") is not None:
            problems += _text_problem(option["description"], f"{where} option {i} description", 0, 100)
    if len(set(map(str, values))) != len(values):
        problems.append(f"{where}: option values repeat: {values}")
    if isinstance(high, int) and high > len(options):
        problems.append(f"{where}: max_values {high} is more than its {len(options)} options")
    defaults = sum(1 for o in options if o.get("default"))
    if isinstance(high, int) and defaults > high:
        problems.append(f"{where}: {defaults} default options but max_values {high}")
    return problems


def _component_problems(components: Any, *, v2: bool = False) -> list[str]:
    """What Discord rejects in a message's `components` (legacy action rows, or components v2)."""
    if not isinstance(components, list):
        return ["components is not a list"]
    problems: list[str] = []
    custom_ids: list[str] = []
    ids: list[int] = []
    count = 0
    text_total = 0
    top_allowed = (
        {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR, CONTAINER}
        if v2
        else {ACTION_ROW}
    )
    if not v2 and len(components) > 5:
        problems.append(f"{len(components)} action rows (max 5)")

    def check(c: Any, where: str, allowed: set[int]) -> None:
        nonlocal count, text_total
        if not isinstance(c, dict):
            problems.append(f"{where} is not an object")
            return
        count += 1
        ctype = c.get("type")
        if ctype not in allowed:
            problems.append(f"{where}: component type {ctype!r} not allowed here (allowed {sorted(allowed)})")
            return
        if c.get("id"):
            ids.append(c["id"])
        if ctype in SELECT_TYPES or (ctype == BUTTON and c.get("custom_id") is not None):
            problems.extend(_text_problem(c.get("custom_id"), f"{where} custom_id", 1, 100))
            custom_ids.append(str(c.get("custom_id")))
        if ctype == ACTION_ROW:
            children = c.get("components")
            if not isinstance(children, list) or not 1 <= len(children) <= 5:
                problems.append(f"{where}: an action row holds 1-5 components")
                return
            has_select = any(isinstance(ch, dict) and ch.get("type") in SELECT_TYPES for ch in children)
            if has_select and len(children) != 1:
                problems.append(f"{where}: a select must be alone in its action row")
            for i, child in enumerate(children):
                check(child, f"{where}.{i}", SELECT_TYPES | {BUTTON})
        elif ctype == BUTTON:
            problems.extend(_button_problems(c, where))
        elif ctype in SELECT_TYPES:
            problems.extend(_select_problems(c, where, in_modal=False))
        elif ctype == TEXT_DISPLAY:
            content = c.get("content")
            problems.extend(_text_problem(content, f"{where} content", 1, 4000))
            text_total += len(content) if isinstance(content, str) else 0
        elif ctype == SECTION:
            texts = c.get("components") or []
            if not 1 <= len(texts) <= 3:
                problems.append(f"{where}: a section holds 1-3 text displays")
            for i, t in enumerate(texts):
                check(t, f"{where}.{i}", {TEXT_DISPLAY})
            check(c.get("accessory"), f"{where}.accessory", {BUTTON, THUMBNAIL})
        elif ctype == CONTAINER:
            for i, child in enumerate(c.get("components") or []):
                check(
                    child,
                    f"{where}.{i}",
                    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR},
                )

    for i, component in enumerate(components):
        check(component, f"components.{i}", top_allowed)
    if v2 and count > 40:
        problems.append(f"{count} components (max 40)")
    if text_total > 4000:
        problems.append(f"text displays total {text_total} characters (max 4000)")
    if dupes := sorted({c for c in custom_ids if custom_ids.count(c) > 1}):
        problems.append(f"custom_id used twice in one message: {dupes}")
    if len(set(ids)) != len(ids):
        problems.append(f"component ids repeat: {ids}")
    return problems


def _text_input_problems(text_input: dict[str, Any], where: str, *, in_label: bool) -> list[str]:
    problems: list[str] = []
    if text_input.get("style") not in (1, 2):
        problems.append(f"{where}: text input style {text_input.get('style')!r} (1 short, 2 paragraph)")
    if not in_label:
        problems += _text_problem(text_input.get("label"), f"{where} label", 1, 45)
    elif text_input.get("label") is not None:  # deprecated inside a Label, but still limited
        problems += _text_problem(text_input["label"], f"{where} label", 1, 45)
    low, high = text_input.get("min_length"), text_input.get("max_length")
    if low is not None and (not isinstance(low, int) or not 0 <= low <= 4000):
        problems.append(f"{where}: min_length {low!r} (0-4000)")
    if high is not None and (not isinstance(high, int) or not 1 <= high <= 4000):
        problems.append(f"{where}: max_length {high!r} (1-4000)")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append(f"{where}: min_length {low} > max_length {high}")
    if text_input.get("value") is not None:
        problems += _text_problem(
            text_input["value"],
            f"{where} value",
            0,
            high if isinstance(high, int) and 1 <= high <= 4000 else 4000,
        )
    if text_input.get("placeholder") is not None:
        problems += _text_problem(text_input["placeholder"], f"{where} placeholder", 0, 100)
    return problems


def _modal_problems(data: Any) -> list[str]:
    """What Discord rejects in a MODAL callback: custom_id, title <= 45, 1-5 components, and each input."""
    if not isinstance(data, dict):
        return ["modal data is not an object"]
    problems = _text_problem(data.get("custom_id"), "modal custom_id", 1, 100)
    problems += _text_problem(data.get("title"), "modal title", 1, 45)
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= 5:
        problems.append(
            f"modal has {len(components) if isinstance(components, list) else 'no'} components (1-5)"
        )
        return problems
    custom_ids: list[str] = []
    inputs = {TEXT_INPUT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX} | SELECT_TYPES
    for i, top in enumerate(components):
        where = f"modal components.{i}"
        ctype = top.get("type") if isinstance(top, dict) else None
        children: list[tuple[dict[str, Any], bool]] = []
        if ctype == ACTION_ROW:  # deprecated, still accepted: one text input per row
            row = top.get("components") or []
            if len(row) != 1 or not isinstance(row[0], dict) or row[0].get("type") != TEXT_INPUT:
                problems.append(f"{where}: an action row in a modal holds exactly one text input")
            children = [(c, False) for c in row if isinstance(c, dict)]
        elif ctype == LABEL:
            problems += _text_problem(top.get("label"), f"{where} label", 1, 45)
            if top.get("description") is not None:
                problems += _text_problem(top["description"], f"{where} description", 0, 100)
            child = top.get("component")
            if not isinstance(child, dict) or child.get("type") not in inputs:
                problems.append(f"{where}: a label wraps one input component, not {child!r}")
            else:
                children = [(child, True)]
        elif ctype == TEXT_DISPLAY:
            problems += _text_problem(top.get("content"), f"{where} content", 1, 4000)
        else:
            problems.append(f"{where}: component type {ctype!r} not allowed in a modal")
        for child, in_label in children:
            cid = child.get("custom_id")
            problems += _text_problem(cid, f"{where} custom_id", 1, 100)
            custom_ids.append(str(cid))
            if child.get("type") == TEXT_INPUT:
                problems += _text_input_problems(child, where, in_label=in_label)
            elif child.get("type") in SELECT_TYPES:
                problems += _select_problems(child, where, in_modal=True)
    if dupes := sorted({c for c in custom_ids if custom_ids.count(c) > 1}):
        problems.append(f"custom_id used twice in one modal: {dupes}")
    return problems


def _image_info(raw: bytes) -> dict[str, Any] | None:
    """Decode an image with Pillow: its real format, size and whether it is animated; None if it is not
    an image Pillow can read."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(raw)) as image:
            info = {
                "format": image.format,
                "width": image.width,
                "height": image.height,
                "animated": bool(getattr(image, "is_animated", False)),
            }
            image.verify()
        with Image.open(io.BytesIO(raw)) as image:
            image.load()  # verify() skips pixel data; a truncated image fails here
        return info
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None
