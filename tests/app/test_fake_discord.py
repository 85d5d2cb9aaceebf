"""The fake Discord's newer surfaces, exercised through a small real discord.py client: user installs
(commands in DMs, group DMs and guilds without the bot), message commands, select menus and buttons,
modals, and application emojis; plus the rules each of them enforces, shown with raw HTTP calls.

The probe bot below is a plain `commands.Bot` with one cog; it is started against the fake the way
tests/test_e2e.py starts the real bot (REST base and gateway URL pointed at 127.0.0.1).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

import aiohttp
import discord
import pytest
import pytest_asyncio
import yarl
from discord import app_commands, ui
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from PIL import Image

from tests.fakes.discord import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    EPHEMERAL,
    EVERY_PERMISSION,
    MANAGE_GUILD,
    FakeDiscord,
    Reply,
    UserCannotDoThat,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

CANDIDATES = ["Kumano, Master Yamabushi", "Kumano's Pupils", "Kumano Faces Kakkazan"]


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (32, 32), frames: int = 1) -> bytes:
    """A small real image in `fmt` (an animated GIF when frames > 1)."""
    images = [Image.new("RGB", size, (40 * i % 256, 200, 120)) for i in range(frames)]
    out = io.BytesIO()
    if frames > 1:
        images[0].save(out, fmt, save_all=True, append_images=images[1:], duration=100, loop=0)
    else:
        images[0].save(out, fmt)
    return out.getvalue()


# ------------------------------------------------------------------------------------ the probe bot
class PickView(ui.View):
    """An ephemeral "which card did you mean?" select, plus three buttons that answer differently."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(timeout=60)
        cast(Any, self.pick).options = [
            discord.SelectOption(label=n, value=n, description=f"{len(n)} letters") for n in names
        ]

    @ui.select(custom_id="pick", placeholder="Which card did you mean?", min_values=1, max_values=1)
    async def pick(self, interaction: discord.Interaction, select: ui.Select) -> None:
        await interaction.response.edit_message(content=f"You picked {select.values[0]}", view=None)

    @ui.button(custom_id="more", label="More")
    async def more(self, interaction: discord.Interaction, button: ui.Button) -> None:
        await interaction.response.send_message("More candidates: none", ephemeral=True)

    @ui.button(custom_id="refresh", label="Refresh")
    async def refresh(self, interaction: discord.Interaction, button: ui.Button) -> None:
        await interaction.response.defer()  # DEFERRED_UPDATE, then an edit of the component's message
        button.disabled = True
        await interaction.edit_original_response(content="Refreshed", view=self)

    @ui.button(custom_id="lookup", label="Look up")
    async def lookup(self, interaction: discord.Interaction, button: ui.Button) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # a new loading message
        await interaction.followup.send("Found two more", view=PickView(CANDIDATES[:2]), ephemeral=True)

    @ui.button(custom_id="ask", label="Type a commander")
    async def ask(self, interaction: discord.Interaction, button: ui.Button) -> None:
        await interaction.response.send_modal(CommanderModal(update=True))


class CommanderModal(ui.Modal, title="Which commander?"):
    """A modal with a Label-wrapped text input (discord.py 2.7 style) and a legacy action-row one."""

    commander: ui.Label[CommanderModal] = ui.Label(
        text="Commander",
        description="Full card name",
        component=ui.TextInput(custom_id="commander", min_length=2, max_length=100),
    )
    note: ui.TextInput[CommanderModal] = ui.TextInput(
        label="Note", custom_id="note", style=discord.TextStyle.paragraph, required=False
    )

    def __init__(self, *, update: bool = False, lines: int | None = None) -> None:
        super().__init__(timeout=60)
        self.update, self.lines = update, lines

    async def on_submit(self, interaction: discord.Interaction) -> None:
        commander = self.commander.component.value  # type: ignore[attr-defined]
        text = f"Commander: {commander}; note: {self.note.value!r}"
        if self.lines is not None:
            text += f"; {self.lines} lines"
        if self.update:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await interaction.response.send_message(text, ephemeral=True)


class ManaView(ui.View):
    """A public message's button, usable by anyone in the channel."""

    def __init__(self, emoji: discord.Emoji | None) -> None:
        super().__init__(timeout=60)
        self.white.emoji = emoji

    @ui.button(custom_id="white", label="White")
    async def white(self, interaction: discord.Interaction, button: ui.Button) -> None:
        await interaction.response.send_message(f"clicked by {interaction.user.id}", ephemeral=True)


class Probe(commands.Cog):
    """Commands that exercise one fake Discord feature each."""

    def __init__(self, bot: ProbeBot) -> None:
        self.bot = bot

    @app_commands.command(name="pick", description="Choose among similar card names")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Which one?", view=PickView(CANDIDATES), ephemeral=True)

    @app_commands.command(name="ask", description="Ask for a commander in a modal")
    async def ask(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(CommanderModal())

    @app_commands.command(name="where", description="Say where the command was used")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def where(self, interaction: discord.Interaction) -> None:
        channel = interaction.channel
        kind = channel.type.name if channel is not None else "none"
        context = [n for n in ("guild", "dm_channel", "private_channel") if getattr(interaction.context, n)]
        await interaction.response.send_message(
            f"context={'+'.join(context)} guild={interaction.guild_id} channel={kind} "
            f"user={interaction.user.id} user_install={interaction.is_user_integration()} "
            f"guild_install={interaction.is_guild_integration()} "
            f"embed_links={interaction.app_permissions.embed_links}"
        )

    @app_commands.command(name="serveronly", description="Only in servers that installed the bot")
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def serveronly(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("server only", ephemeral=True)

    @app_commands.command(name="mana", description="Show the uploaded mana emoji")
    async def mana(self, interaction: discord.Interaction) -> None:
        emoji = self.bot.mana_emoji
        await interaction.response.send_message(f"{emoji} white", view=ManaView(emoji))

    @app_commands.command(name="bogus", description="Show an emoji the app does not own")
    async def bogus(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("<:mana_x:123456789012345678> who knows")

    @app_commands.command(name="badview", description="A select whose placeholder is too long")
    async def badview(self, interaction: discord.Interaction) -> None:
        view = ui.View()
        view.add_item(
            ui.Select(custom_id="long", placeholder="p" * 151, options=[discord.SelectOption(label="a")])
        )
        try:
            await interaction.response.send_message("bad", view=view)
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)
            await interaction.response.send_message(f"rejected {exc.code}", ephemeral=True)

    @app_commands.command(name="badmodal", description="A modal whose title is too long")
    async def badmodal(self, interaction: discord.Interaction) -> None:
        modal = CommanderModal()
        modal.title = "t" * 46
        try:
            await interaction.response.send_modal(modal)
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)
            await interaction.response.send_message(f"rejected {exc.code}", ephemeral=True)


async def count_lines(interaction: discord.Interaction, message: discord.Message) -> None:
    """Message command: count the lines of the message and of its text attachments, then ask for the
    commander in a modal."""
    lines = len(message.content.splitlines())
    for attachment in message.attachments:
        lines += len((await attachment.read()).decode().splitlines())
    await interaction.response.send_modal(CommanderModal(lines=lines))


class ProbeBot(commands.Bot):
    """A minimal discord.py bot pointed at the fake: syncs its commands, uploads its emoji, connects."""

    def __init__(self, api_base: str) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.api_base = api_base
        self.errors: list[discord.HTTPException] = []
        self.mana_emoji: discord.Emoji | None = None

    async def setup_hook(self) -> None:
        data = await self.http.request(Route("GET", "/gateway/bot"))
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(data["url"])
        await self.add_cog(Probe(self))
        menu = app_commands.ContextMenu(name="Count lines", callback=count_lines)
        menu.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)
        menu.allowed_contexts = app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        )
        self.tree.add_command(menu)
        await self.tree.sync()
        existing = {e.name: e for e in await self.fetch_application_emojis()}
        self.mana_emoji = existing.get("mana_w") or await self.create_application_emoji(
            name="mana_w", image=image_bytes("PNG")
        )


@dataclass
class Env:
    bot: ProbeBot
    fake: FakeDiscord
    task: asyncio.Task[None]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def env() -> AsyncIterator[Env]:
    fake = FakeDiscord()
    api_base = await fake.start()
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_base
    bot = ProbeBot(api_base)
    task = asyncio.create_task(bot.start(fake.token))
    ready = asyncio.create_task(fake.wait_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
    try:
        if task in done:
            task.result()  # the bot died during startup: show why
        assert ready in done, "the probe bot never identified on the fake gateway"
        yield Env(bot, fake, task)
    finally:
        await bot.close()
        await asyncio.wait_for(task, 10)
        await fake.close()
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest.fixture(autouse=True)
def rules_kept(request: pytest.FixtureRequest) -> Any:
    """After every probe-bot test: nothing the fake Discord rejected, one callback per interaction."""
    yield
    if "env" not in request.fixturenames:
        return
    fake: FakeDiscord = request.getfixturevalue("env").fake
    assert fake.violations == []
    assert fake.unhandled == []
    for record in fake.interactions.values():
        assert len(record.callbacks) == 1, record.payload["data"]


# ------------------------------------------------------------------------------- sync and contexts
async def test_sync_keeps_installs_contexts_and_context_menus(env: Env) -> None:
    sync = env.fake.command_syncs[-1]
    where = sync.command("where")
    assert sorted(where["integration_types"]) == [0, 1] and sorted(where["contexts"]) == [0, 1, 2]
    serveronly = sync.command("serveronly")
    assert serveronly["integration_types"] == [0] and serveronly["contexts"] == [0]
    menu = sync.command("Count lines", type=3)
    assert menu["description"] == "" and not menu.get("options")
    pick = sync.command("pick")
    assert pick["contexts"] is None and sorted(pick["integration_types"]) == [0, 1]  # the app's defaults


@pytest.mark.parametrize(
    "where, context, seen_as, channel_type, in_guild",
    [
        ("guild", 0, "guild", "text", True),
        ("bot_dm", 1, "dm_channel", "private", False),
        ("group_dm", 2, "private_channel", "group", False),
        ("private_dm", 2, "private_channel", "private", False),
        ("user_guild", 0, "guild", "text", True),
    ],
)
async def test_where_command_in_every_context(
    env: Env, where: str, context: int, seen_as: str, channel_type: str, in_guild: bool
) -> None:
    reply = await env.fake.invoke("where", where=where)  # type: ignore[arg-type]
    payload = env.fake.interactions[reply.interaction_id].payload
    assert payload["context"] == context
    assert f"context={seen_as} " in reply.content and f"channel={channel_type} " in reply.content
    user_id = env.fake.user()["id"]
    assert f"user={user_id} " in reply.content
    owners = payload["authorizing_integration_owners"]
    if in_guild:
        assert "member" in payload and "user" not in payload and payload["guild_id"] in reply.content
    else:
        assert (
            "guild_id" not in payload and payload["user"]["id"] == user_id and "guild=None" in reply.content
        )
    if where == "guild":
        assert owners == {"0": env.fake.guild_id}
        assert payload["app_permissions"] == "2248473465835073"
        assert "user_install=False guild_install=True" in reply.content
    elif where == "bot_dm":
        assert owners == {"0": "0", "1": user_id}  # "0": the guild install, seen from a DM (no guild)
        assert "user_install=True guild_install=False" in reply.content
    else:  # only the user's install authorises it, with the permissions an app response can use
        assert owners == {"1": user_id}
        assert int(payload["app_permissions"]) & ~((1 << 15) | (1 << 14) | (1 << 17) | (1 << 18)) == 0
        assert "user_install=True guild_install=False" in reply.content
    assert "embed_links=True" in reply.content


async def test_commands_only_where_discord_shows_them(env: Env) -> None:
    before = len(env.fake.interactions)
    for where in ("bot_dm", "group_dm", "private_dm", "user_guild"):
        with pytest.raises(UserCannotDoThat, match="serveronly"):
            await env.fake.invoke("serveronly", where=where)  # type: ignore[arg-type]
    # /pick keeps the defaults (every context, both installs) but a guild install alone is not enough
    # where the user has not installed the app
    with pytest.raises(UserCannotDoThat, match="has not installed"):
        await env.fake.invoke("pick", where="user_guild", user_install=False)
    with pytest.raises(UserCannotDoThat, match="not a member"):
        await env.fake.invoke("where", where="guild", guild_id=env.fake.foreign_guild_id)
    assert len(env.fake.interactions) == before  # nothing was dispatched
    reply = await env.fake.invoke("serveronly")
    assert reply.content == "server only" and reply.ephemeral


# ---------------------------------------------------------------------------- selects and buttons
async def test_ephemeral_select_updates_its_message(env: Env) -> None:
    reply = await env.fake.invoke("pick")
    assert reply.ephemeral and reply.content == "Which one?"
    assert reply.custom_ids == ["pick", "more", "refresh", "lookup", "ask"]
    assert [o["value"] for o in reply.select_options("pick")] == CANDIDATES
    with pytest.raises(UserCannotDoThat, match="does not offer"):
        await env.fake.select(reply, "pick", ["Kumano"])
    with pytest.raises(UserCannotDoThat, match="takes 1 to 1 values"):
        await env.fake.select(reply, "pick", CANDIDATES[:2])
    with pytest.raises(UserCannotDoThat, match="ephemeral"):
        await env.fake.select(
            reply, "pick", [CANDIDATES[1]], user=env.fake.user("1100000000000000999", "other")
        )
    with pytest.raises(UserCannotDoThat, match="no component 'nope'"):
        await env.fake.click(reply, "nope")
    after = await env.fake.select(reply, "pick", [CANDIDATES[1]])
    assert after.callback_type == 7 and after.message_id == reply.message_id
    assert after.content == f"You picked {CANDIDATES[1]}" and after.components == [] and after.ephemeral
    component = env.fake.interactions[after.interaction_id].payload
    assert component["type"] == 3 and component["message"]["id"] == reply.message_id
    assert component["message"]["flags"] & EPHEMERAL
    assert {k: v for k, v in component["data"].items() if k != "id"} == {
        "custom_id": "pick",
        "component_type": 3,
        "values": [CANDIDATES[1]],
    }
    with pytest.raises(UserCannotDoThat, match="no component 'pick'"):  # the select is gone now
        await env.fake.select(reply, "pick", [CANDIDATES[0]])


async def test_buttons_new_message_and_deferred_update(env: Env) -> None:
    reply = await env.fake.invoke("pick")
    more = await env.fake.click(reply, "more")
    assert more.callback_type == 4 and more.message_id != reply.message_id
    assert more.content == "More candidates: none" and more.ephemeral
    refreshed = await env.fake.click(reply, "refresh")
    assert refreshed.callback_type == 6 and refreshed.deferred
    assert refreshed.message_id == reply.message_id and refreshed.content == "Refreshed"
    assert refreshed.component("refresh")["disabled"] is True
    assert env.fake.messages[str(reply.message_id)].data["content"] == "Refreshed"
    with pytest.raises(UserCannotDoThat, match="disabled"):
        await env.fake.click(reply, "refresh")


async def test_deferred_component_reply_filled_by_a_followup_with_its_own_select(env: Env) -> None:
    reply = await env.fake.invoke("pick")
    found = await env.fake.click(reply, "lookup")
    record = env.fake.interactions[found.interaction_id]
    assert found.callback_type == 5 and found.deferred and found.ephemeral
    assert found.message_id == record.original_message_id != reply.message_id  # the loading message, filled
    assert [o["value"] for o in found.select_options("pick")] == CANDIDATES[:2]
    picked = await env.fake.select(found, "pick", [CANDIDATES[0]])
    assert picked.message_id == found.message_id and picked.content == f"You picked {CANDIDATES[0]}"
    assert (
        env.fake.messages[str(reply.message_id)].data["content"] == "Which one?"
    )  # the first one is untouched


async def test_public_message_components_any_user_may_use(env: Env) -> None:
    reply = await env.fake.invoke("mana")
    assert not reply.ephemeral
    other = env.fake.user("1100000000000000555", "friend")
    clicked = await env.fake.click(reply, "white", user=other)
    assert clicked.content == f"clicked by {other['id']}" and clicked.ephemeral
    assert clicked.user_id == other["id"]
    payload = env.fake.interactions[clicked.interaction_id].payload
    assert payload["member"]["user"]["id"] == other["id"] and payload["message"]["id"] == reply.message_id
    with pytest.raises(UserCannotDoThat, match="ephemeral"):  # the answer is for the friend only
        await env.fake.click(clicked, "white", user=env.fake.user())


# ------------------------------------------------------------------------------------------ modals
async def test_modal_from_a_command(env: Env) -> None:
    reply = await env.fake.invoke("ask")
    assert reply.is_modal and reply.data["title"] == "Which commander?"
    inputs = {i["custom_id"]: i for i in reply.modal_inputs}
    assert inputs["commander"]["label"] == "Commander" and inputs["commander"]["max_length"] == 100
    assert reply.components[0]["type"] == 18 and reply.components[1]["type"] == 1  # label, legacy row
    with pytest.raises(UserCannotDoThat, match="required"):
        await env.fake.submit_modal(reply, {"note": "x"})
    with pytest.raises(UserCannotDoThat, match="2-100 characters"):
        await env.fake.submit_modal(reply, {"commander": "K"})
    with pytest.raises(UserCannotDoThat, match="no input"):
        await env.fake.submit_modal(reply, {"commander": "Kumano", "partner": "x"})
    with pytest.raises(UserCannotDoThat, match="shown to user"):
        await env.fake.submit_modal(reply, {"commander": "Kumano"}, user=env.fake.user("1100000000000000777"))
    answer = await env.fake.submit_modal(
        reply, {"commander": "Kumano, Master Yamabushi", "note": "line 1\nline 2"}
    )
    assert (
        answer.content == "Commander: Kumano, Master Yamabushi; note: 'line 1\\nline 2'" and answer.ephemeral
    )
    submit = env.fake.interactions[answer.interaction_id].payload
    assert submit["type"] == 5 and submit["data"]["custom_id"] == reply.data["custom_id"]
    assert "message" not in submit
    with pytest.raises(UserCannotDoThat, match="already submitted"):
        await env.fake.submit_modal(reply, {"commander": "Kumano"})


async def test_modal_from_a_button_updates_the_message(env: Env) -> None:
    reply = await env.fake.invoke("pick")
    modal = await env.fake.click(reply, "ask")
    assert modal.is_modal
    answer = await env.fake.submit_modal(modal, {"commander": "Kumano"})
    assert answer.callback_type == 7 and answer.message_id == reply.message_id
    assert answer.content.startswith("Commander: Kumano; note: ''") and answer.components == []
    assert env.fake.interactions[answer.interaction_id].payload["message"]["id"] == reply.message_id


async def test_each_interaction_carries_the_locale_of_its_client(env: Env) -> None:
    def locale_of(reply: Reply) -> str:
        return str(env.fake.interactions[reply.interaction_id].payload["locale"])

    reply = await env.fake.invoke("pick", locale="ja")
    more = await env.fake.click(reply, "more", locale="fr")
    picked = await env.fake.select(reply, "pick", [CANDIDATES[0]], locale="de")
    modal = await env.fake.invoke_message_command(
        "Count lines", env.fake.message("1 Sol Ring"), locale="pt-BR"
    )
    answer = await env.fake.submit_modal(modal, {"commander": "Kumano"}, locale="es-419")
    assert [locale_of(r) for r in (reply, more, picked, modal, answer)] == [
        "ja",
        "fr",
        "de",
        "pt-BR",
        "es-419",
    ]
    assert locale_of(await env.fake.invoke("pick")) == "en-US"  # Discord's default client language


# -------------------------------------------------------------------------------- message command
@pytest.mark.parametrize("where", ["guild", "bot_dm", "group_dm", "user_guild"])
async def test_message_command_reads_the_message_and_its_attachment(env: Env, where: str) -> None:
    deck = env.fake.attachment("deck.txt", b"1 Sol Ring\n1 Arcane Signet\n1 Command Tower\n")
    message = env.fake.message("Commander deck below\nthanks!", attachments=[deck])
    modal = await env.fake.invoke_message_command("Count lines", message, where=where)  # type: ignore[arg-type]
    payload = env.fake.interactions[modal.interaction_id].payload
    assert payload["data"]["type"] == 3 and payload["data"]["target_id"] == message["id"]
    target = payload["data"]["resolved"]["messages"][message["id"]]
    assert target["channel_id"] == payload["channel_id"] and target["attachments"][0]["url"] == deck["url"]
    assert modal.is_modal
    answer = await env.fake.submit_modal(modal, {"commander": "Kumano"})
    assert answer.content == "Commander: Kumano; note: ''; 5 lines"
    with pytest.raises(UserCannotDoThat, match="no synced command"):
        await env.fake.invoke_message_command("Count words", message, where=where)  # type: ignore[arg-type]


# -------------------------------------------------------------------------------------- emojis
async def test_emoji_uploaded_at_start_and_used(env: Env) -> None:
    uploads = env.fake.emoji_uploads
    assert [(u["name"], u["format"], u["content_type"]) for u in uploads] == [("mana_w", "PNG", "image/png")]
    emoji_id = uploads[0]["id"]
    reply = await env.fake.invoke("mana")
    assert reply.content == f"<:mana_w:{emoji_id}> white"
    assert str(reply.component("white")["emoji"]["id"]) == emoji_id
    assert env.fake.unknown_emojis == []
    assert [
        u.markup for u in env.fake.emoji_uses if u.where.startswith(f"interaction {reply.interaction_id}")
    ] == [f"<:mana_w:{emoji_id}>"] * 2
    reply = await env.fake.invoke("bogus")
    assert [u.markup for u in env.fake.unknown_emojis] == ["<:mana_x:123456789012345678>"]
    env.fake.unknown_emojis.clear()


async def test_restart_lists_emojis_instead_of_uploading_again(env: Env) -> None:
    listed = await env.bot.fetch_application_emojis()
    assert [e.name for e in listed] == ["mana_w"] and listed[0].user is not None
    with pytest.raises(discord.HTTPException) as exc:
        await env.bot.create_application_emoji(name="mana_w", image=image_bytes("PNG"))
    assert exc.value.status == 400 and exc.value.code == 50035 and "already taken" in str(exc.value)
    assert env.fake.violations == ["application emoji upload: emoji name 'mana_w' is already taken"]
    env.fake.violations.clear()


# --------------------------------------------------------------- rules, through discord.py itself
async def test_discordpy_payloads_that_break_limits_are_rejected(env: Env) -> None:
    reply = await env.fake.invoke("badview")
    assert reply.content == "rejected 50035" and reply.ephemeral
    assert any("placeholder is 151 characters (0-150)" in v for v in env.fake.violations)
    reply = await env.fake.invoke("badmodal")
    assert reply.content == "rejected 50035"
    assert any("modal title is 46 characters (1-45)" in v for v in env.fake.violations)
    assert [e.status for e in env.bot.errors[-2:]] == [400, 400]
    env.fake.violations.clear()


# ----------------------------------------------------------------------- rules, with raw HTTP calls
@dataclass
class Raw:
    fake: FakeDiscord
    http: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bot {self.fake.token}"}

    async def dispatch(self, payload: dict[str, Any]) -> dict[str, Any]:
        await self.fake.send_interaction(payload)
        event = json.loads((await self.ws.receive()).data)
        assert event["t"] == "INTERACTION_CREATE" and event["d"]["id"] == payload["id"]
        return payload

    async def callback(self, payload: dict[str, Any], body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        url = f"{self.fake.api_base}/interactions/{payload['id']}/{payload['token']}/callback?with_response=1"
        async with self.http.post(url, json=body) as resp:
            return resp.status, await resp.json()

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        async with self.http.request(method, self.fake.api_base + path, json=body, headers=self.auth) as resp:
            return resp.status, (await resp.json() if resp.status != 204 else None)


@pytest_asyncio.fixture(loop_scope="module")
async def raw() -> AsyncIterator[Raw]:
    fake = FakeDiscord()
    await fake.start()
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(fake.gateway_url)
    await ws.receive()  # HELLO
    await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}}))
    await ws.receive()  # READY
    await ws.receive()  # GUILD_CREATE
    yield Raw(fake, http, ws)
    await ws.close()
    await http.close()
    await fake.close()


def msg(**data: Any) -> dict[str, Any]:
    return {"type": 4, "data": {"allowed_mentions": {"parse": []}, **data}}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def select(custom_id: str = "s", n: int = 3, **extra: Any) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)],
        **extra,
    }


def button(custom_id: str | None = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", **({"custom_id": custom_id} if custom_id else {}), **extra}


async def sync(raw: Raw, commands_: list[dict[str, Any]]) -> int:
    status, _ = await raw.call("PUT", f"/applications/{raw.fake.application_id}/commands", commands_)
    return status


@pytest.mark.parametrize(
    "components, problem",
    [
        ([row(button(f"b{i}")) for i in range(6)], "6 action rows (max 5)"),
        ([row(select(n=26))], "26 options (1-25)"),
        ([row(select(n=0))], "0 options (1-25)"),
        ([row(select("x" * 101))], "custom_id is 101 characters (1-100)"),
        ([row(select(""))], "custom_id is 0 characters (1-100)"),
        ([row(button("same")), row(button("same"))], "custom_id used twice in one message: ['same']"),
        ([row(select(placeholder="p" * 151))], "placeholder is 151 characters (0-150)"),
        ([row(select(max_values=4))], "max_values 4 is more than its 3 options"),
        ([row(select(min_values=3, max_values=2))], "min_values 3 > max_values 2"),
        ([row(select(max_values=26, n=25))], "max_values 26 (1-25)"),
        (
            [row({**select(), "options": [{"label": "a" * 101, "value": "a"}]})],
            "label is 101 characters (1-100)",
        ),
        (
            [row({**select(), "options": [{"label": "a", "value": "v" * 101}]})],
            "value is 101 characters (1-100)",
        ),
        (
            [row({**select(), "options": [{"label": "a", "value": "v", "description": "d" * 101}]})],
            "description is 101 characters (0-100)",
        ),
        (
            [row({**select(), "options": [{"label": "a", "value": "v"}, {"label": "b", "value": "v"}]})],
            "option values repeat",
        ),
        ([row(select(), button())], "a select must be alone in its action row"),
        ([row(*[button(f"b{i}") for i in range(6)])], "an action row holds 1-5 components"),
        ([row(button(None))], "needs a custom_id"),
        ([row(button(label="l" * 81))], "button label is 81 characters (0-80)"),
        (
            [row({"type": 2, "style": 5, "label": "Scryfall", "url": "scryfall.com"})],
            "link button url invalid",
        ),
        (
            [row({"type": 2, "style": 5, "label": "x", "url": "https://x.y", "custom_id": "l"})],
            "a link button cannot have a custom_id",
        ),
        ([button()], "component type 2 not allowed here"),
        (
            [row({"type": 4, "custom_id": "t", "style": 1, "label": "Text"})],
            "component type 4 not allowed here",
        ),
    ],
)
async def test_message_component_limits(raw: Raw, components: list[dict[str, Any]], problem: str) -> None:
    payload = await raw.dispatch(raw.fake.interaction_payload("identity", {"card": "x"}))
    status, body = await raw.callback(payload, msg(content="x", components=components))
    assert status == 400 and body["code"] == 50035
    assert any(problem in v for v in raw.fake.violations), raw.fake.violations
    assert not raw.fake.interactions[payload["id"]].callbacks


async def test_valid_components_are_accepted(raw: Raw) -> None:
    components = [
        row(select("s", n=25, max_values=25, placeholder="p" * 150)),
        row(
            *[button(f"b{i}") for i in range(4)],
            {"type": 2, "style": 5, "label": "Scryfall", "url": "https://scryfall.com"},
        ),
    ]
    payload = await raw.dispatch(raw.fake.interaction_payload("identity", {"card": "x"}))
    status, body = await raw.callback(payload, msg(content="x", components=components, flags=EPHEMERAL))
    assert status == 200 and raw.fake.violations == []
    assert body["resource"]["message"]["components"] == components
    reply = await raw.fake.wait_for_reply(payload["id"])
    assert reply.custom_ids == ["s", "b0", "b1", "b2", "b3"]
    with pytest.raises(UserCannotDoThat, match="not a select"):
        await raw.fake.select(reply, "b0", ["v1"])
    with pytest.raises(UserCannotDoThat, match="not a button"):
        await raw.fake.click(reply, "s")


def modal(components: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"type": 9, "data": {"custom_id": "m", "title": "Commander", "components": components, **extra}}


def text_input(custom_id: str = "t", **extra: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": custom_id, "style": 1, **extra}


def label(child: dict[str, Any], text: str = "Commander", **extra: Any) -> dict[str, Any]:
    return {"type": 18, "label": text, "component": child, **extra}


@pytest.mark.parametrize(
    "body, problem",
    [
        (modal([label(text_input())], title="t" * 46), "modal title is 46 characters (1-45)"),
        (modal([label(text_input())], custom_id=""), "modal custom_id is 0 characters (1-100)"),
        (modal([label(text_input(f"t{i}")) for i in range(6)]), "modal has 6 components (1-5)"),
        (modal([]), "modal has 0 components (1-5)"),
        (modal([label(text_input(), text="l" * 46)]), "label is 46 characters (1-45)"),
        (modal([label(text_input(), description="d" * 101)]), "description is 101 characters (0-100)"),
        (modal([label(text_input(style=3))]), "text input style 3"),
        (modal([label(text_input(min_length=10, max_length=5))]), "min_length 10 > max_length 5"),
        (modal([label(text_input(max_length=4001))]), "max_length 4001 (1-4000)"),
        (modal([label(text_input(placeholder="p" * 101))]), "placeholder is 101 characters (0-100)"),
        (modal([label(text_input(value="v" * 11, max_length=10))]), "value is 11 characters (0-10)"),
        (modal([label(text_input("a")), label(text_input("a"))]), "custom_id used twice in one modal"),
        (modal([row(text_input())]), "label must be a string"),  # a legacy row's text input needs a label
        (
            modal([row(text_input(label="Commander"), text_input("u", label="Partner"))]),
            "holds exactly one text input",
        ),
        (modal([row(button())]), "holds exactly one text input"),
        (modal([label(select(disabled=True))]), "cannot be disabled"),
        (modal([label(button())]), "a label wraps one input component"),
    ],
)
async def test_modal_limits(raw: Raw, body: dict[str, Any], problem: str) -> None:
    payload = await raw.dispatch(raw.fake.interaction_payload("ask"))
    status, answer = await raw.callback(payload, body)
    assert status == 400 and answer["code"] == 50035
    assert any(problem in v for v in raw.fake.violations), raw.fake.violations


async def test_modal_cannot_answer_a_modal_submit_and_update_needs_a_message(raw: Raw) -> None:
    payload = await raw.dispatch(raw.fake.interaction_payload("ask"))
    status, _ = await raw.callback(payload, modal([label(text_input("commander", max_length=50))]))
    assert status == 200
    reply = await raw.fake.wait_for_reply(payload["id"])
    assert reply.is_modal and reply.modal_inputs[0]["custom_id"] == "commander"
    task = asyncio.create_task(raw.fake.submit_modal(reply, {"commander": "Kumano"}))
    event = json.loads((await raw.ws.receive()).data)["d"]
    assert event["type"] == 5 and event["data"]["components"][0]["type"] == 18
    assert event["data"]["components"][0]["component"] == {
        "type": 4,
        "id": 2,
        "custom_id": "commander",
        "value": "Kumano",
    }
    status, _ = await raw.callback(event, modal([label(text_input())]))
    assert status == 400 and "callback type 9 not valid for interaction type 5" in raw.fake.violations[-1]
    status, _ = await raw.callback(
        event, {"type": 7, "data": {"content": "x", "allowed_mentions": {"parse": []}}}
    )
    assert status == 400 and "has no message" in raw.fake.violations[-1]
    status, _ = await raw.callback(event, msg(content="ok", flags=EPHEMERAL))
    assert status == 200 and (await task).content == "ok"


async def test_callback_and_webhook_message_rules(raw: Raw) -> None:
    payload = await raw.dispatch(raw.fake.interaction_payload("identity", {"card": "x"}))
    status, _ = await raw.callback(payload, msg(content="x", flags=1 << 2 | 1 << 1))
    assert status == 400 and "flags 6" in raw.fake.violations[-1]
    status, _ = await raw.callback(payload, {"type": 5, "data": {"flags": 4}})
    assert status == 400 and "deferred message may only set EPHEMERAL" in raw.fake.violations[-1]
    status, _ = await raw.callback(payload, {"type": 5, "data": {"flags": EPHEMERAL}})
    assert status == 200
    hook = f"{raw.fake.api_base}/webhooks/{raw.fake.application_id}/{payload['token']}"
    # right after a deferral, a follow-up fills the loading message (its ephemeral flag is kept)
    async with raw.http.post(hook, json={"content": "first", "allowed_mentions": {"parse": []}}) as resp:
        first = await resp.json()
    record = raw.fake.interactions[payload["id"]]
    assert first["id"] == record.original_message_id and first["flags"] & EPHEMERAL
    async with raw.http.post(hook, json={"content": "second", "allowed_mentions": {"parse": []}}) as resp:
        second = await resp.json()
    assert second["id"] != first["id"] and not second["flags"] & EPHEMERAL
    async with raw.http.patch(
        f"{hook}/messages/{second['id']}",
        json={"components": [row(button())], "allowed_mentions": {"parse": []}},
    ) as resp:
        assert resp.status == 200 and (await resp.json())["content"] == "second"  # an edit keeps the rest
    async with raw.http.patch(f"{hook}/messages/123", json={"content": "x", "allowed_mentions": {}}) as resp:
        assert resp.status == 404 and "did not create" in raw.fake.violations[-1]
    async with raw.http.patch(
        f"{hook}/messages/{second['id']}",
        json={"content": "", "components": [], "allowed_mentions": {"parse": []}},
    ) as resp:
        assert resp.status == 400 and "empty message" in raw.fake.violations[-1]


async def test_user_installed_interactions_get_five_followups(raw: Raw) -> None:
    await sync(
        raw,
        [
            {
                "name": "where",
                "description": "Where",
                "type": 1,
                "integration_types": [0, 1],
                "contexts": [0, 1, 2],
            }
        ],
    )
    payload = await raw.dispatch(raw.fake.interaction_payload("where", where="group_dm"))
    assert payload["authorizing_integration_owners"] == {"1": raw.fake.user()["id"]}
    assert payload["channel"]["type"] == 3 and payload["context"] == 2
    status, _ = await raw.callback(payload, msg(content="hi"))
    assert status == 200
    hook = f"{raw.fake.api_base}/webhooks/{raw.fake.application_id}/{payload['token']}"
    statuses = []
    for i in range(6):
        async with raw.http.post(hook, json={"content": f"f{i}", "allowed_mentions": {"parse": []}}) as resp:
            statuses.append((resp.status, (await resp.json()).get("code")))
    assert statuses == [(200, None)] * 5 + [(400, 40094)]
    assert "more than 5 follow-ups" in raw.fake.violations[-1]


@pytest.mark.parametrize(
    "command, problem",
    [
        ({"name": "Check this decklist", "type": 3, "description": "Checks"}, "cannot have a description"),
        (
            {
                "name": "Check this decklist",
                "type": 3,
                "options": [{"name": "x", "description": "x", "type": 3}],
            },
            "cannot have options",
        ),
        ({"name": "c" * 33, "type": 3}, "context menu command name invalid"),
        ({"name": "where", "description": "w", "integration_types": [2]}, "outside [0, 1]"),
        ({"name": "where", "description": "w", "contexts": [0, 3]}, "outside [0, 1, 2]"),
        ({"name": "where", "description": "w", "contexts": []}, "non-empty list"),
        ({"name": "where", "description": "w", "contexts": [1, 1]}, "repeats a value"),
        ({"name": "where", "description": "w", "type": 4}, "command type 4 not supported"),
    ],
)
async def test_command_sync_rules_for_user_installs(raw: Raw, command: dict[str, Any], problem: str) -> None:
    assert await sync(raw, [command]) == 400
    assert any(problem in v for v in raw.fake.violations), raw.fake.violations
    assert raw.fake.command_syncs == []


async def test_command_sync_limits_per_type_and_app_installation_types(raw: Raw) -> None:
    menus = [{"name": f"Menu {i}", "type": 3} for i in range(16)]
    assert await sync(raw, menus) == 400 and "16 commands of type 3 (max 15)" in raw.fake.violations[-1]
    same_name = [
        {"name": "Inspect", "type": 2},
        {"name": "Inspect", "type": 3},
        {"name": "inspect", "description": "slash", "type": 1},
    ]
    assert await sync(raw, same_name) == 200  # names are unique per command type only
    async with FakeDiscord(installation_types=[0]) as guild_only, aiohttp.ClientSession() as http:
        url = f"{guild_only.api_base}/applications/{guild_only.application_id}/commands"
        body = [{"name": "where", "description": "w", "integration_types": [0, 1]}]
        async with http.put(url, json=body, headers={"Authorization": f"Bot {guild_only.token}"}) as resp:
            assert resp.status == 400
        assert "integration_types [1] not enabled" in guild_only.violations[-1]


async def test_user_commands_and_guild_commands(raw: Raw) -> None:
    await sync(raw, [{"name": "Inspect", "type": 2, "integration_types": [0], "contexts": [0]}])
    target = raw.fake.user("1100000000000000444", "someone")
    payload = await raw.dispatch(raw.fake.user_command_payload("Inspect", target))
    assert payload["data"]["type"] == 2 and payload["data"]["target_id"] == target["id"]
    assert payload["data"]["resolved"]["users"][target["id"]] == target
    assert "user" not in payload["data"]["resolved"]["members"][target["id"]]
    with pytest.raises(UserCannotDoThat, match="not available in bot_dm"):
        raw.fake.user_command_payload("Inspect", target, where="bot_dm")
    status, _ = await raw.call(
        "PUT",
        f"/applications/{raw.fake.application_id}/guilds/{raw.fake.guild_id}/commands",
        [{"name": "dev", "description": "dev only"}],
    )
    assert status == 200
    assert raw.fake.interaction_payload("dev")["data"]["guild_id"] == raw.fake.guild_id
    with pytest.raises(UserCannotDoThat, match="is a command of guild"):
        raw.fake.interaction_payload("dev", where="bot_dm")


# ----------------------------------------------------------------------------- application emojis
def data_uri(raw_bytes: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(raw_bytes).decode()}"


async def test_application_emoji_routes(raw: Raw) -> None:
    app = f"/applications/{raw.fake.application_id}/emojis"
    assert await raw.call("GET", app) == (200, {"items": []})
    status, gif = await raw.call(
        "POST", app, {"name": "spin", "image": data_uri(image_bytes("GIF", frames=3), "image/gif")}
    )
    assert status == 201 and gif["animated"] is True and gif["user"]["id"] == raw.fake.bot_user_id
    status, webp = await raw.call(
        "POST", app, {"name": "Mana_U_2", "image": data_uri(image_bytes("WEBP"), "image/webp")}
    )
    assert status == 201 and webp["animated"] is False
    status, jpeg = await raw.call(
        "POST", app, {"name": "mana_b", "image": data_uri(image_bytes("JPEG"), "image/jpeg")}
    )
    assert status == 201
    assert [u["format"] for u in raw.fake.emoji_uploads] == ["GIF", "WEBP", "JPEG"]
    status, listed = await raw.call("GET", app)
    assert [e["name"] for e in listed["items"]] == ["spin", "Mana_U_2", "mana_b"]
    assert await raw.call("GET", f"{app}/{gif['id']}") == (200, gif)
    status, renamed = await raw.call("PATCH", f"{app}/{gif['id']}", {"name": "spinner"})
    assert status == 200 and renamed["name"] == "spinner"
    status, body = await raw.call("PATCH", f"{app}/{gif['id']}", {"name": "mana_b"})
    assert (
        status == 400
        and body["errors"]["name"]["_errors"][0]["code"] == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    )
    assert await raw.call("DELETE", f"{app}/{jpeg['id']}") == (204, None)
    status, body = await raw.call("GET", f"{app}/{jpeg['id']}")
    assert status == 404 and body["code"] == 10014
    status, body = await raw.call(
        "POST", app, {"name": "mana_b", "image": data_uri(image_bytes("PNG"), "image/png")}
    )
    assert status == 201  # the name is free again
    assert len(raw.fake.violations) == 2  # the rename clash and the GET of a deleted emoji
    raw.fake.violations.clear()


@pytest.mark.parametrize(
    "name, image, code, problem",
    [
        ("m", None, "BASE_TYPE_BAD_LENGTH", "is 1 characters (2-32)"),
        ("m" * 33, None, "BASE_TYPE_BAD_LENGTH", "is 33 characters (2-32)"),
        ("mana-w", None, "STRING_TYPE_REGEX", "characters other than"),
        ("mana w", None, "STRING_TYPE_REGEX", "characters other than"),
        (None, None, "BASE_TYPE_REQUIRED", "emoji name missing"),
        (
            "mana_w",
            data_uri(image_bytes("JPEG"), "image/png"),
            "IMAGE_INVALID",
            "declared image/png but the data is JPEG",
        ),
        (
            "mana_w",
            data_uri(b"not an image at all", "image/png"),
            "IMAGE_INVALID",
            "but the data is not an image",
        ),
        (
            "mana_w",
            data_uri(image_bytes("PNG")[:60], "image/png"),
            "IMAGE_INVALID",
            "but the data is not an image",
        ),
        (
            "mana_w",
            data_uri(image_bytes("PNG"), "image/svg+xml"),
            "IMAGE_INVALID",
            "not a PNG/JPEG/GIF/WebP/AVIF",
        ),
        ("mana_w", "http://example.com/x.png", "IMAGE_INVALID", "not a PNG/JPEG/GIF/WebP/AVIF"),
        ("mana_w", "data:image/png;base64,@@@", "IMAGE_INVALID", "not valid base64"),
        ("mana_w", data_uri(image_bytes("PNG", size=(2000, 2000)), "image/png"), None, None),
        (
            "mana_w",
            data_uri(b"\x89PNG" + bytes(256 * 1024), "image/png"),
            "BINARY_TYPE_MAX_SIZE",
            "(max 262144)",
        ),
    ],
)
async def test_application_emoji_upload_rules(
    raw: Raw, name: Any, image: str | None, code: str | None, problem: str | None
) -> None:
    image = image or data_uri(image_bytes("PNG"), "image/png")
    status, body = await raw.call(
        "POST", f"/applications/{raw.fake.application_id}/emojis", {"name": name, "image": image}
    )
    if code is None:  # a large but compressible picture is fine: the limit is on the file's bytes
        assert status == 201 and raw.fake.violations == []
        return
    assert status == 400 and body["code"] == 50035 and problem is not None
    errors = body["errors"]
    assert code in json.dumps(errors)
    assert any(problem in v for v in raw.fake.violations), raw.fake.violations
    assert raw.fake.app_emojis == {} and raw.fake.emoji_uploads == []


async def test_application_emoji_limit(raw: Raw) -> None:
    raw.fake.emoji_limit = 2
    app = f"/applications/{raw.fake.application_id}/emojis"
    png = data_uri(image_bytes("PNG"), "image/png")
    assert [(await raw.call("POST", app, {"name": f"e{i}", "image": png}))[0] for i in range(2)] == [201, 201]
    status, body = await raw.call("POST", app, {"name": "e2", "image": png})
    assert status == 400 and body["code"] == 30008
    assert "already has 2 emojis" in raw.fake.violations[-1]


async def test_unknown_emojis_in_embeds_and_select_options(raw: Raw) -> None:
    app = f"/applications/{raw.fake.application_id}/emojis"
    _, owned = await raw.call(
        "POST", app, {"name": "mana_g", "image": data_uri(image_bytes("PNG"), "image/png")}
    )
    payload = await raw.dispatch(raw.fake.interaction_payload("identity", {"card": "x"}))
    options = [
        {"label": "Green", "value": "g", "emoji": {"id": owned["id"], "name": "mana_g"}},
        {"label": "Blue", "value": "u", "emoji": {"id": "222222222222222222", "name": "mana_u"}},
    ]
    embed = {
        "title": "Why",
        "description": f"<:mana_g:{owned['id']}> and <a:spin:333333333333333333>",
        "fields": [{"name": "Cost", "value": "<:mana_r:444444444444444444>"}],
    }
    status, _ = await raw.callback(payload, msg(embeds=[embed], components=[row(select(options=options))]))
    assert status == 200
    assert sorted(u.markup for u in raw.fake.unknown_emojis) == [
        "<:mana_r:444444444444444444>",
        "<:mana_u:222222222222222222>",
        "<a:spin:333333333333333333>",
    ]
    assert sum(u.known for u in raw.fake.emoji_uses) == 2


@pytest.mark.parametrize("where", ["guild", "bot_dm"])
async def test_messages_live_where_the_interaction_happened(raw: Raw, where: str) -> None:
    await sync(raw, [{"name": "where", "description": "Where", "integration_types": [0, 1]}])
    payload = await raw.dispatch(raw.fake.interaction_payload("where", where=where))  # type: ignore[arg-type]
    status, body = await raw.callback(payload, msg(content="hello"))
    message = body["resource"]["message"]
    assert status == 200 and message["channel_id"] == payload["channel_id"]
    assert message.get("guild_id") == payload.get("guild_id")
    assert (
        message["interaction_metadata"]["authorizing_integration_owners"]
        == payload["authorizing_integration_owners"]
    )
    reply: Reply = await raw.fake.wait_for_reply(payload["id"])
    assert reply.message_id == message["id"] and not reply.ephemeral
    assert raw.fake.messages[message["id"]].guild_id == payload.get("guild_id")


async def test_members_carry_their_permissions_and_default_member_permissions_hides_commands(
    raw: Raw,
) -> None:
    """Discord sends a member's resolved permissions with each interaction (@everyone's plus their roles', every
    bit for an administrator) and hides a command with `default_member_permissions` from members without them."""
    fake = raw.fake
    plain = {"name": "plain", "description": "For everyone", "type": 1}
    managers = {
        "name": "managers",
        "description": "Manage Server",
        "type": 1,
        "default_member_permissions": "32",
    }
    admins = {"name": "admins", "description": "Administrators", "type": 1, "default_member_permissions": "0"}
    assert await sync(raw, [plain, managers, admins]) == 200
    member, boss = fake.user("1100000000000000401", "member"), fake.user("1100000000000000402", "boss")
    payload = fake.interaction_payload("plain", user=member)
    assert payload["member"]["permissions"] == ALL_PERMISSIONS and not int(ALL_PERMISSIONS) & MANAGE_GUILD
    for name in ("managers", "admins"):
        with pytest.raises(UserCannotDoThat):
            fake.interaction_payload(name, user=member)
    fake.grant(boss, MANAGE_GUILD)
    assert int(fake.interaction_payload("managers", user=boss)["member"]["permissions"]) & MANAGE_GUILD
    with pytest.raises(UserCannotDoThat):
        fake.interaction_payload("admins", user=boss)
    fake.grant(boss, ADMINISTRATOR)
    assert fake.interaction_payload("admins", user=boss)["member"]["permissions"] == str(EVERY_PERMISSION)
    assert "member" not in fake.interaction_payload(
        "managers", user=member, where="bot_dm"
    )  # no guild: no member
