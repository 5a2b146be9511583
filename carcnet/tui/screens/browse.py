"""Provides :class:`BrowserScreen`: the LAN games found by mDNS, live, to join or to watch; and an input
for the address of a game where multicast does not get through."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from carcnet.i18n import N_, _, ngettext, pgettext
from carcnet.net.adverts import GameAd, ProbePlan
from carcnet.table import Table
from carcnet.tui.addresses import Target, ad_address, incompatibility, parse_target
from carcnet.tui.messages import OpenTable
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.text_input import TextInput

from .host_setup import JoinChoice, JoinFormScreen, invite_servers

__all__ = ["BrowserScreen"]

Mode = Literal["join", "spectate"]


def phase_words(phase: str) -> str:
    """A game's phase (its record's ``phase``: ``lobby``, ``playing``, ``finished``) in the language in
    use; another value as it is."""
    words = {"lobby": pgettext("game phase", "lobby"), "playing": pgettext("game phase", "playing"),
             "finished": pgettext("game phase", "finished")}
    return words.get(phase, phase)


def role_words(role: str) -> str:
    """The role of the peer a record is from (``host``, ``player``, ``event``) in the language in use;
    another value as it is."""
    words = {"host": pgettext("peer role", "host"), "player": pgettext("peer role", "player"),
             "event": pgettext("peer role", "event")}
    return words.get(role, role)


class BrowserScreen(Screen[None]):
    """Games on the LAN, updated as they appear, change and go. *mode* ``"join"`` sits down at a
    table; ``"spectate"`` watches a game. Games this carcnet cannot join (another version, a full table)
    are greyed with the reason.

    Args:
        tables: The app's table maker (how to reach the network, the name to join under).
        mode: ``"join"`` or ``"spectate"``.
        typed: Prefills the address input (``host:port`` and game id); with a game id it goes on at
            once, without one as soon as discovery finds the game at that address.
        want: A game id to go on with as soon as discovery finds it.
        choice: How to sit down (name, colour), so that joining asks nothing.
    """


    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
    ]
    """Escape back; Enter on a game joins or watches it; Enter in the address connects there."""

    def __init__(self, tables: TableMaker, mode: Mode, typed: str = "", *, want: str | None = None,
                 choice: JoinChoice | None = None) -> None:
        super().__init__()
        self.tables = tables
        self.mode: Mode = mode
        self.typed = typed
        self.want = want
        self.choice = choice
        self._want_at: tuple[str, int] | None = None
        self._gone_on = False
        #: Service instance → its advertisement, as the browser last said (at most the records the
        #: plan holds: every confirmed one, and 256 others).
        self.ads: dict[str, GameAd] = {}
        #: The records being confirmed by a handshake, paced (``net.finder``, discovery.md §4).
        self.plan = ProbePlan()
        #: (game, advertised key, port) → whether that peer proved the key for the game there
        #: (:attr:`plan`); ``None`` while its probes are to come or under way. Absent: not probed.
        self.checks: dict[tuple[str, bytes, int], bool | None] = {}

    def compose(self) -> ComposeResult:
        title = _("Join a LAN game") if self.mode == "join" else _("Watch a LAN game")
        with Vertical():
            yield Static(title, id="title")
            yield Static("", id="state")
            yield OptionList(id="games")
            yield Static(_(
                "No game listed? Where multicast is blocked, type the address the host's lobby shows "
                "(host:port and the game id), or a friend's invite code, then Enter:"
            ))
            yield TextInput(self.typed, placeholder="192.168.1.20:7000 --game 3f2a9c1b…", id="address")
            yield Static("", id="error")
        yield KeyFooter()

    def on_mount(self) -> None:
        discovery = self.tables.discovery
        if discovery:
            self._state(_("Looking for games on the LAN (mDNS)…"))
            self.run_worker(self._browse(), name="carcnet browse", exclusive=True, exit_on_error=False)
        else:
            self._state(_("Looking for games is off here: type the address below."))
            self.query_one("#games", OptionList).display = False
        self.query_one("#address", Input).focus()
        if self.typed:
            try:
                target = parse_target(self.typed)
            except ValueError as exc:
                self._error(str(exc))
                return
            if target.game is not None or not discovery:
                self.call_after_refresh(self._connect_typed)
            else:
                self._want_at = (target.host, target.port)
                self._state(_("Looking for the game at {host}:{port} (mDNS)…").format(
                    host=target.host, port=target.port))
        elif self.want is not None and discovery:
            # Translators: {game} is the start of the game's id (8 hexadecimal digits).
            self._state(_("Looking for game {game}… on the LAN (mDNS)…").format(game=self.want[:8]))

    def _state(self, text: str) -> None:
        self.query_one("#state", Static).update(text)

    def _error(self, text: str) -> None:
        self.query_one("#error", Static).update(text)

    # ------------------------------------------------------------------ discovery

    async def _browse(self) -> None:
        from carcnet.net.discovery import Browser, DiscoveryError
        from carcnet.net.finder import find_tables

        def record(instance: str, ad: GameAd | None) -> None:
            if ad is None:
                gone = self.ads.pop(instance, None)
                if gone is not None:
                    self.checks.pop((gone.game, gone.key, gone.port), None)
            else:
                self.ads[instance] = ad
                self._note(instance, ad)
            self.show_games()

        def settled(instance: str, ad: GameAd, _confirmed: bool) -> bool:
            self._note(instance, ad)
            self.show_games()
            return False

        try:
            async with Browser(interfaces=self.tables.interfaces) as browser:
                await find_tables(browser, self.plan, wanted=lambda ad: incompatibility(ad) is None,
                                  on_record=record, on_settled=settled)
        except DiscoveryError as exc:
            self._state(_("Cannot look for games here ({reason}): type the address below.").format(reason=exc))

    def _note(self, instance: str, ad: GameAd) -> None:
        """Copies where the plan says the record of *instance* stands into :attr:`checks`."""
        status = self.plan.status(instance)
        if status is not None and status != "unchecked":
            self.checks[(ad.game, ad.key, ad.port)] = {"confirmed": True, "failed": False}.get(status)

    def games(self) -> dict[str, list[GameAd]]:
        """Game id → its advertisements (one per peer that accepts connections), host first."""
        out: dict[str, list[GameAd]] = {}
        for ad in self.ads.values():
            out.setdefault(ad.game, []).append(ad)
        for ads in out.values():
            ads.sort(key=lambda a: (a.role != "host", a.peer))
        return out

    def proved(self, ads: list[GameAd]) -> bool | None:
        """Whether a peer of the game of *ads* proved the key its record advertises (``True``), all that
        were probed failed (``False``), or none is known yet (``None``; also when nothing was probed)."""
        results = [self.checks.get((a.game, a.key, a.port)) for a in ads]
        if any(results):
            return True
        if results and all(r is False for r in results):
            return False
        return None

    def refusal(self, ads: list[GameAd]) -> str | None:
        """Why the game of *ads* cannot be chosen in this mode, or ``None``."""
        ad = ads[0]
        problem = incompatibility(ad)
        if problem:
            return problem
        if self.proved(ads) is False:
            return _("it did not answer as its record says: a stale or forged record")
        if self.mode == "join":
            if ad.phase != "lobby":
                # Translators: {phase} is the game's phase: "playing" or "finished".
                return _("{phase}: watch it instead").format(phase=phase_words(ad.phase))
            if not any(a.joinable for a in ads):
                return _("the table is full")
        return None

    def show_games(self) -> None:
        """Redraws the list from :attr:`ads`, keeping the highlighted game."""
        games = self.games()
        listing = self.query_one("#games", OptionList)
        current = listing.highlighted_option
        keep = current.id if current is not None else None
        options = []
        # every confirmed table first, whatever the number of forged records (discovery.md §4)
        order = sorted(games.items(), key=lambda kv: (
            self.proved(kv[1]) is not True, self.refusal(kv[1]) is not None, kv[1][0].name, kv[0]
        ))
        for game, ads in order:
            ad = ads[0]
            why = self.refusal(ads)
            line = Text(ad.name, style="bold" if why is None else "")
            if why is None and self.proved(ads):
                line.append("  ✓", style="green")
            # Translators: a game in the list: {phase} is "lobby", "playing" or "finished"; {taken} of
            # {total} seats are taken; {role} is "host", "player" or "event" and {peer} its name.
            line.append("  " + ngettext("{phase}, {taken}/{total} seat, {role} {peer}",
                                        "{phase}, {taken}/{total} seats, {role} {peer}", ad.seats_total).format(
                phase=phase_words(ad.phase), taken=ad.seats_taken, total=ad.seats_total,
                role=role_words(ad.role), peer=ad.peer))
            address = ad_address(ad)
            if address is not None:
                line.append(f"  {address[0]}:{address[1]}", style="dim")
            if why is not None:
                line.append(f"  ({why})", style="italic")
            options.append(Option(line, id=game, disabled=why is not None))
        listing.set_options(options)
        if options:
            listing.display = True
        if keep is not None and keep in games:
            listing.highlighted = listing.get_option_index(keep)
        elif options and not options[0].disabled:
            listing.highlighted = 0
        field = self.query_one("#address", Input)
        if options and not listing.has_focus and field.has_focus and not field.value:
            listing.focus()  # something to choose: the list takes the keys (Tab goes back to the input)
        if games:
            usable = sum(self.refusal(ads) is None for ads in games.values())
            checking = sum(
                self.proved(ads) is None and any((a.game, a.key, a.port) in self.checks for a in ads)
                for ads in games.values()
            )
            found = len(games)
            if self.mode == "join":
                # Translators: {n} games are listed, {usable} of them can be joined.
                sentences = [ngettext("{n} game(s) found, {usable} to join. Enter chooses.",
                                      "{n} game(s) found, {usable} to join. Enter chooses.", found)]
            else:
                # Translators: {n} games are listed, {usable} of them can be watched.
                sentences = [ngettext("{n} game(s) found, {usable} to watch. Enter chooses.",
                                      "{n} game(s) found, {usable} to watch. Enter chooses.", found)]
            sentences[0] = sentences[0].format(n=found, usable=usable)
            if any(self.proved(ads) for ads in games.values()):
                sentences.append(_("✓: it proved who it is."))
            if checking:
                # Translators: {n} games are being checked.
                sentences.append(ngettext("Checking {n} by a handshake…", "Checking {n} by a handshake…",
                                          checking).format(n=checking))
            self._state(" ".join(sentences))
        else:
            self._state(_("Looking for games on the LAN (mDNS)…"))
        self._go_on_if_wanted(games)

    def _go_on_if_wanted(self, games: dict[str, list[GameAd]]) -> None:
        """Goes on with the game the command line named (by id or address) once it is found."""
        if self._gone_on or (self.want is None and self._want_at is None):
            return
        for game, ads in games.items():
            if self.want is not None and game != self.want:
                continue
            if self._want_at is not None and not any(
                a.port == self._want_at[1] and self._want_at[0] in a.addresses for a in ads
            ):
                continue
            if self.proved(ads) is None and any((a.game, a.key, a.port) in self.checks for a in ads):
                continue  # its probe runs: go on once it proved its key (discovery.md §4)
            if self.refusal(ads) is None and self.is_current:
                self._gone_on = True
                self.choose(game)
            return

    @on(OptionList.OptionSelected, "#games")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.choose(event.option.id or "")

    def choose(self, game: str) -> None:
        """Joins or watches the listed game *game* (through one of its peers' addresses)."""
        ads = self.games().get(game)
        if not ads or self.refusal(ads) is not None:
            return
        if self.mode == "join":
            ads = [a for a in ads if a.joinable] or ads
        else:  # a spectator sees the lobby through the host only (wire.md §4.6 "Whose table")
            ads = [a for a in ads if a.role == "host"] or ads
        # a record whose peer proved its key comes first (a forged record may share the game id)
        ads = sorted(ads, key=lambda a: self.checks.get((a.game, a.key, a.port)) is not True)
        address = ad_address(ads[0])
        if address is None:
            self._error(_("That game gave no address; type it below."))
            return
        # wire.md §4.6: the record's host is the only one whose lobby counts (a forged record's table
        # proves another key and is refused)
        self.proceed(ads[0].game, address, ads[0].name, ads[0].key if ads[0].role == "host" else None)

    # ------------------------------------------------------------------ typed

    @on(Input.Submitted, "#address")
    def _connect_typed(self) -> None:
        text = self.query_one("#address", Input).value
        from carcnet.net import invite

        if invite.is_code(text.strip()):
            self.run_worker(self._pair(text.strip()), name="carcnet invite code", exclusive=True, exit_on_error=False)
            return
        try:
            target = parse_target(text)
        except ValueError as exc:
            self._error(str(exc))
            return
        game = target.game or self._game_at(target)
        if game is None:
            self._error(_("Which game at {host}:{port}? Add its game id: the host's lobby shows it "
                          "(carcnet join host:port --game <id>).").format(host=target.host, port=target.port))
            return
        # Translators: what is joined, in the Join form's title ("Join {game}"), when its name is unknown.
        title = _("the game at {host}:{port}").format(host=target.host, port=target.port)
        self.proceed(game, (target.host, target.port), title)

    async def _pair(self, code: str) -> None:
        """Sits down (or watches) with an invite code: pairs with the laptop that gave it, then goes
        on to its game through the pairing (docs/lan-play.md "Playing across homes")."""
        from carcnet.net import invite

        try:
            servers = invite_servers(self.tables.settings)
        except ValueError as exc:
            self._error(str(exc))
            return
        self._error("")
        self._state(_("Sitting down with the invite code {code} (up to a minute)…").format(code=code))
        try:
            pairing = await invite.accept(servers, code)
        except invite.InviteError as exc:
            self._state("")
            self._error(_("Cannot sit down: {reason}").format(reason=exc))
            return
        assert pairing.about is not None
        if pairing.about.name:
            # Translators: {game} is the game's name.
            self._state(_("Paired with the laptop of {game}").format(game=pairing.about.name))
        else:
            self._state(_("Paired with the laptop of the game"))
        # Translators: what is joined, in the Join form's title ("Join {game}"), when its name is unknown.
        self.proceed(pairing.about.game, None, pairing.about.name or _("the game across homes"), pairings=[pairing])

    def _game_at(self, target: Target) -> str | None:
        for ad in self.ads.values():
            if ad.port == target.port and target.host in ad.addresses:
                return ad.game
        return None

    # ------------------------------------------------------------------ going on

    def proceed(self, game: str, address: tuple[str, int] | None, title: str, host_key: bytes | None = None,
                pairings: Sequence[Any] = ()) -> None:
        """Joins (asking the name and colour first) or watches game *game* at *address*, or through
        *pairings* (made by an invite code); *host_key*: the host identity its record named, when it
        came from mDNS."""
        self._error("")
        if self.mode == "spectate":
            self._open(lambda: self.tables.spectate(game, address, host_key, pairings=pairings))
        elif self.choice is not None:
            self._sit(self.choice, game, address, host_key, pairings)
        else:
            def chosen(choice: JoinChoice | None) -> None:
                if choice is not None:
                    self._sit(choice, game, address, host_key, pairings)

            self.app.push_screen(JoinFormScreen(title, self.tables.player_name), chosen)

    def _sit(self, choice: JoinChoice, game: str, address: tuple[str, int] | None, host_key: bytes | None,
             pairings: Sequence[Any]) -> None:
        invite = None
        if choice.invite:
            try:
                invite = invite_servers(self.tables.settings)
            except ValueError as exc:
                self.notify(str(exc), title=_("Cannot invite from anywhere"), severity="error", markup=False)
                return
        self._open(lambda: self.tables.join(game, address, name=choice.name, colour=choice.colour, bot=choice.bot,
                                            host_key=host_key, pairings=pairings, invite=invite))

    def _open(self, make: Callable[[], Table]) -> None:
        try:
            table = make()
        except ValueError as exc:
            self.notify(str(exc), title=_("Cannot connect"), severity="error")
            return
        self.post_message(OpenTable(table))

    def action_back(self) -> None:
        self.dismiss(None)
