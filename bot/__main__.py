"""`python -m bot`: validate settings, open the store, run the bot until SIGTERM/SIGINT.

Exit codes: 0 after a clean stop; 2 for a configuration problem (bad/missing token, unusable database URL,
a store that will not open, a token Discord rejects) or a Discord that can't be reached at start, reported
as one `error: …` line on stderr (the only output when the settings themselves are wrong); 1 after an
unexpected crash (logged, token redacted).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.log import RedactingFilter, configure_logging
from bot.settings import Settings, SettingsError, ensure_database_folder, load_settings

if TYPE_CHECKING:
    from bot.client import DrawSteelBot
    from bot.store import Store

# discord.py, SQLAlchemy and the exts are imported only once the settings are valid, so a configuration
# error is reported at once.

log = logging.getLogger("bot")

EXIT_CONFIG = 2
#: Seconds start-up waits for another process's SQLite write lock before it gives up (exit 2).
OPEN_BUSY_LIMIT = 30.0
#: Seconds between two tries to open a busy database (each try itself waits for the lock a moment).
OPEN_RETRY = 1.0
#: Objects made and not yet freed that start a young collection (CPython's default: 700). See `settle_heap`.
YOUNG_THRESHOLD = 1_000


class StartupError(Exception):
    """A problem that stops the bot before it runs; `str(error)` is the one line to print."""


def _fail(message: str, secret: str | None = None) -> int:
    line = message.splitlines()[0] if message else "the bot could not start"
    if secret:
        line = RedactingFilter([secret]).redact(line)
    print(f"error: {line}", file=sys.stderr)
    return EXIT_CONFIG


async def _open_store(settings: Settings) -> Store:
    """Open (and migrate) the store. While another process holds the SQLite write lock (another copy of
    the bot, a maintenance script), try again every `OPEN_RETRY` seconds for up to `OPEN_BUSY_LIMIT`."""
    from bot.client import open_store
    from bot.store.faults import is_locked

    loop = asyncio.get_running_loop()
    give_up = loop.time() + OPEN_BUSY_LIMIT
    while True:
        try:
            return await open_store(settings.database_url)
        except Exception as error:  # any failure to open is a configuration problem: one line, exit 2
            if is_locked(error):
                if loop.time() + OPEN_RETRY < give_up:
                    log.warning("the database is busy (another process is writing to it): trying again")
                    await asyncio.sleep(OPEN_RETRY)
                    continue
                raise StartupError(
                    f"the database is busy: another process has held its write lock for over "
                    f"{OPEN_BUSY_LIMIT:.0f} s (another copy of the bot, or a script?); stop it, or try again "
                    "later"
                ) from None
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise StartupError(
                f"the database at DATABASE_URL could not be opened ({reason[:200]}): check the URL, that the "
                "server is running and the credentials are right"
            ) from None


def settle_heap() -> None:
    """Keep the garbage collector's pauses short for the rest of the process (docs/performance.md, "Speed-only
    code kept"). A full collection walks every object of the oldest generation with the event loop stopped,
    and the modules, the extensions and the store are most of them. What exists once the bot is set up lives
    as long as the process, so it goes to the permanent generation, which no collection walks (an object
    there is still freed by reference counting). The young
    threshold is raised a little, so that fewer of the interactions in flight are promoted and bring the next
    full collection on; not more, because what a young collection frees is mostly discord.py's reference
    cycles (an interaction and its response, a view and its items), and its pause grows with the threshold."""
    gc.collect()  # garbage frozen now would never be freed
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])


async def serve(bot: DrawSteelBot, token: str) -> None:
    """`bot.start(token)`, with the heap settled between set-up and connecting (`settle_heap`)."""
    await bot.login(token)  # runs `setup_hook`: the store, every extension, the command sync
    settle_heap()
    await bot.connect()


def unreachable(error: BaseException) -> str:
    """The one line for a Discord that can't be reached at start (no network, DNS, an outage)."""
    reason = " ".join(str(error).split())[:200] or type(error).__name__
    return (
        f"Discord can't be reached ({reason}): check this machine's network connection (and DISCORD_API_BASE "
        "if set), then start the bot again"
    )


async def _run(settings: Settings) -> None:
    import aiohttp
    import discord

    from bot.client import create_bot

    # what starting the bot raises when Discord can't be reached (no network, DNS, an outage)
    cannot_reach = (OSError, aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    store = await _open_store(settings)
    try:
        if stop.is_set():
            return
        bot = create_bot(settings, store=store, timers=True)
        async with bot:
            runner = asyncio.create_task(serve(bot, settings.token), name="bot.start")
            stopper = asyncio.create_task(stop.wait(), name="stop-signal")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                stopper.cancel()
                try:
                    runner.result()
                except discord.LoginFailure:
                    raise StartupError(
                        "Discord rejected DISCORD_TOKEN: reset the token on the Bot page at "
                        "https://discord.com/developers/applications and put the new one in .env"
                    ) from None
                except discord.PrivilegedIntentsRequired:
                    raise StartupError("Discord refused the gateway intents; this bot needs none") from None
                except cannot_reach as e:
                    raise StartupError(unreachable(e)) from None
                return
            log.info("stop signal received; shutting down")
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await runner
    finally:
        await store.close()
        log.info("stopped")


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(str(error))
    try:
        ensure_database_folder(settings.database_url)
    except SettingsError as error:
        return _fail(str(error), settings.token)
    configure_logging(settings.log_level, secrets=[settings.token])
    from bot.client import apply_endpoints

    apply_endpoints(settings)
    try:
        asyncio.run(_run(settings))
    except (SettingsError, StartupError) as error:
        return _fail(str(error), settings.token)
    except KeyboardInterrupt:
        return 0
    except Exception:  # logged through the redacting handler rather than printed raw
        log.exception("the bot stopped after an unexpected error")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
