"""Provides ``carcnet serve``: the game in a web browser, served with textual-serve.

Every browser tab that opens the page starts its own ``carcnet play`` process, whose screen is
streamed to the page over a websocket. The server listens on 127.0.0.1 unless ``--host`` says
otherwise (anyone who can reach the port plays as this computer's user, with its saved games: share
it on a network only on purpose). The page's every asset (script, style sheet, font) comes from this
machine: textual-serve's own static folder, and carcnet's copy of its page template that takes the
font from there instead of from Google Fonts.
"""

from __future__ import annotations

import argparse
import errno
import shlex
import sys
from pathlib import Path
from typing import Any

from carcnet.i18n import N_, _, joined

from .common import EXIT_OK, EXIT_USAGE, fail, shown

__all__ = ["PAGE_WORDS", "TEMPLATES", "add_commands", "addresses_to_open", "play_command"]

#: carcnet's page template for textual-serve (no asset from outside the machine).
TEMPLATES = Path(__file__).with_name("serve_templates")
#: The words of the page template (``serve_templates/app_index.html``), marked here for the extractor:
#: the template shows them through ``_``.
PAGE_WORDS = (N_("Start"), N_("Session ended."), N_("Restart"))


def play_command(data_dir: str | None = None, bot_delay: float | None = None) -> str:
    """The shell command each browser session runs: this Python's ``carcnet play``."""
    parts = [sys.executable, "-m", "carcnet", "play"]
    if data_dir:
        parts += ["--data-dir", data_dir]
    if bot_delay is not None:
        parts += ["--bot-delay", str(bot_delay)]
    return shlex.join(parts)


#: Addresses that mean "every interface of this machine".
EVERY_INTERFACE = ("0.0.0.0", "::", "")


def _bind_problem(host: str, port: int) -> str | None:
    """Why ``carcnet serve`` cannot listen on *host*:*port* (a name that does not resolve, an address
    of no interface here, a port in use or not allowed), or ``None``: tried by binding, as the server
    will, then letting go."""
    import socket

    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else _("not a valid host name")
        # Translators: {value} is the --host typed (quoted), {reason} the system's error.
        return _("--host {value} is neither an address nor a name this machine can resolve ({reason})").format(
            value=shown(host), reason=reason)
    for family, kind, proto, __, address in infos:
        with socket.socket(family, kind, proto) as probe:
            if hasattr(socket, "SO_REUSEADDR"):  # as the server binds: a port in TIME_WAIT is free
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    # Translators: {port} is a TCP port (a number), {address} an IP address of this machine.
                    return _("port {port} is in use on {address}: choose another with --port").format(
                        port=port, address=address[0])
                if exc.errno == errno.EADDRNOTAVAIL:
                    # Translators: {value} is the --host typed (quoted).
                    return _("--host {value} is not an address of this machine").format(value=shown(host))
                if exc.errno == errno.EACCES:
                    # Translators: {address} is an IP address of this machine, {port} a TCP port (a number).
                    return _("cannot listen on {address} port {port}: ports under 1024 need administrator "
                             "rights; choose another").format(address=address[0], port=port)
                # Translators: {address} is an IP address of this machine, {port} a TCP port (a number),
                # {reason} the system's error.
                return _("cannot listen on {address} port {port}: {reason}").format(
                    address=address[0], port=port, reason=exc.strerror or exc)
    return None


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses a person opens in a browser to reach ``carcnet serve --host HOST --port PORT``:
    ``http://localhost:PORT`` and this machine's IPv4 addresses when it listens on every interface,
    else *host*'s own (``[...]`` around an IPv6 address)."""
    if host in EVERY_INTERFACE:
        from carcnet.tui.addresses import local_ipv4

        return [f"http://localhost:{port}"] + [f"http://{address}:{port}" for address in local_ipv4()]
    where = f"[{host}]" if ":" in host else host
    return [f"http://{where}:{port}"]


def _server_class() -> Any:
    """textual-serve's ``Server``, made to send each page addresses that work where it is opened,
    to announce itself in carcnet's words, to stop on SIGHUP as on SIGTERM, and to end every page's
    game when it stops (textual-serve waited for the pages to close: 23 s with one open)."""
    import asyncio

    from textual_serve.server import Server

    class _Server(Server):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.sessions: set[asyncio.Task[Any]] = set()

        async def handle_websocket(self, request: Any) -> Any:
            """A page's session (its game process), known so that stopping the server ends it."""
            task = asyncio.current_task()
            assert task is not None
            self.sessions.add(task)
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions.discard(task)

        async def on_shutdown(self, app: Any) -> None:
            """Ends every page's session at once: its game is told to quit (and saves), instead of
            the server waiting for the pages to close first."""
            for task in list(self.sessions):
                task.cancel()
            await super().on_shutdown(app)

        async def _make_app(self) -> Any:
            """textual-serve's application, its page worded in the language in use (the template's
            ``_``: :data:`PAGE_WORDS`)."""
            import aiohttp_jinja2

            app = await super()._make_app()
            aiohttp_jinja2.get_env(app).globals["_"] = _
            return app

        async def handle_index(self, request: Any) -> Any:
            """The page, its assets and websocket at the address the browser used (``Host``), not
            at the listening address (``0.0.0.0`` reaches nothing)."""
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def on_startup(self, app: Any) -> None:
            import signal

            urls = addresses_to_open(self.host, self.port)
            # Translators: {url} is the address to open in a browser (http://localhost:8000).
            print(_("carcnet in a browser: open {url} (Ctrl+C stops)").format(url=urls[0]), flush=True)
            if len(urls) > 1:
                # Translators: {urls} lists the addresses to open in a browser on other computers.
                print(_("from other machines: {urls}").format(urls=joined(urls[1:])),
                      flush=True)
            if self.host not in ("127.0.0.1", "localhost", "::1"):
                if self.host:
                    # Translators: {address} is the address the server listens on (0.0.0.0, an IP address).
                    print(_("listening on {address}: anyone who reaches this port plays with your saved games").format(
                        address=self.host), flush=True)
                else:
                    print(_("listening on every interface: anyone who reaches this port plays with your saved games"),
                          flush=True)
            if hasattr(signal, "SIGHUP"):  # the terminal closed: stop, and stop every game's process
                try:
                    asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.request_exit)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass

    return _Server


def _serve(args: argparse.Namespace) -> int:
    try:
        server_class = _server_class()
    except ImportError:  # pragma: no cover - a dependency of the package
        return fail(_("carcnet serve needs textual-serve: pip install textual-serve"), EXIT_USAGE)
    if not 1 <= args.port <= 65535:
        # Translators: {port} is the number typed.
        return fail(_("--port must be 1 to 65535, not {port}").format(port=args.port), EXIT_USAGE)
    if problem := _bind_problem(args.host, args.port):
        return fail(problem, EXIT_USAGE)
    server = server_class(
        play_command(args.data_dir, args.bot_delay),
        host=args.host,
        port=args.port,
        title="carcnet",
        templates_path=TEMPLATES,
    )
    try:
        server.serve()
    except OSError as exc:  # the port was taken between the check and the server's bind
        # Translators: {address} is an IP address of this machine, {port} a TCP port (a number), {reason}
        # the system's error.
        return fail(_("cannot listen on {address} port {port}: {reason}").format(
            address=args.host, port=args.port, reason=exc.strerror or exc), EXIT_USAGE)
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Adds ``serve`` to ``carcnet``'s subparsers *sub*."""
    serve = sub.add_parser(
        "serve",
        help=_("play in a web browser (textual-serve), on this computer by default"),
        description=_("Serves the game to a web browser: each page opened starts its own game interface. "
                      "Listens on 127.0.0.1 unless --host says otherwise."),
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help=_("address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 shares it)"))
    serve.add_argument("--port", type=int, default=8000, help=_("TCP port (default 8000)"))
    serve.add_argument("--data-dir", help=_("folder of saved games (default: the user data folder)"))
    serve.add_argument("--bot-delay", type=float, default=None, help=_("seconds a bot waits before moving"))
    serve.set_defaults(run=_serve)
