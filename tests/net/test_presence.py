"""Presence at a network table as values (carcnet.net.presence; wire.md §4.5, §5.6, §5.7): tables of
snapshots and what each answers. Seat *i*'s key is ``K[i]`` (a player's seat key is its identity), so
``K[0] < K[1] < …``; this peer is ``K[0]`` and plays seat 0 unless a case says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from carcnet.net.presence import HandBackStep, LinkView, PresenceRecords, PresenceSnapshot, TakeoverClock

K = [bytes([i + 1]) * 32 for i in range(8)]
SPY = K[7]  # a spectator's identity


def snap(seats: int = 3, *, me: int = 0, plays: tuple[int, ...] = (0,), **kw: Any) -> PresenceSnapshot:
    """A snapshot of a game of *seats* seats, no seat handed over, unless *kw* says otherwise."""
    values: dict[str, Any] = {
        "me": K[me],
        "keys": tuple(K[:seats]),
        "signers": tuple(range(seats)),
        "handovers": (None,) * seats,
        "plays": frozenset(plays),
        "own": frozenset(plays),
    }
    values.update(kw)
    return PresenceSnapshot(**values)


def player(i: int, *sees: int, beat: float | None = None) -> LinkView:
    return LinkView(K[i], "player", tuple(K[s] for s in sees), beat)


def spectator(*sees: int) -> LinkView:
    return LinkView(SPY, "spectator", tuple(K[s] for s in sees))


# ---------------------------------------------------------------------- away (§4.5)


@pytest.mark.parametrize(
    ("case", "snapshot", "away"),
    [
        ("nobody in touch", snap(), [1, 2]),
        ("a player connected", snap(links=(player(1),)), [2]),
        # a claim about a link this peer cannot check: one seated liar would keep a crashed seat present
        ("seen by a player connected here counts for nothing at a player", snap(links=(player(1, 2),)), [2]),
        ("a spectator's sees count for nothing", snap(links=(spectator(1, 2),)), [1, 2]),
        ("the sees of a player who plays no seat count for nothing", snap(links=(player(5, 1, 2),)), [1, 2]),
        ("a heartbeat placed seat 2 at peer 1", snap(links=(player(1),), runners={2: K[1]}), []),
        ("an unplaced bot of the host's, a player connected", snap(bot_seats=frozenset({2}), links=(player(1),)), []),
        ("a heartbeat placed seat 1 at a peer out of touch", snap(links=(player(1),), runners={1: K[5]}), [1, 2]),
        ("an unplaced bot of the host's, nobody", snap(bot_seats=frozenset({2})), [1, 2]),
        ("a bot seat whose key a link carried", snap(bot_seats=frozenset({2}), seen=frozenset({K[2]}),
                                                     links=(player(1),)), [2]),
        ("seats played here are never away", snap(plays=(0, 2)), [1]),
        ("a seat handed over to this peer", snap(signers=(0, 1, 0), handovers=(None, None, "greedy"),
                                                 plays=(0, 2)), [1]),
        ("no game yet", PresenceSnapshot(me=K[0]), []),
    ],
)
def test_away(case: str, snapshot: PresenceSnapshot, away: list[int]) -> None:
    assert snapshot.away(now=0.0) == away, case


@pytest.mark.parametrize(
    ("case", "snapshot", "away"),
    [
        ("five seats: three of the four others see seat 4, one link lost here",
         snap(5, links=(player(1, 4), player(2, 4), player(3, 4))), []),
        ("five seats: two of the four others is no majority",
         snap(5, links=(player(1, 4), player(2, 4), player(3))), [4]),
        ("five seats: one seated liar keeps no crashed seat present",
         snap(5, links=(player(1, 4), player(2), player(3))), [4]),
        ("five seats: a seat seen by no one connected here", snap(5, links=(player(1, 3), player(2, 3))), [3, 4]),
        ("four seats: two of the three others see seat 3", snap(4, links=(player(1, 3), player(2, 3))), []),
        ("three seats: the one other cannot be a majority alone", snap(3, links=(player(1, 2),)), [2]),
    ],
)
def test_a_runner_out_of_touch_here_is_present_when_most_of_the_table_sees_it(
        case: str, snapshot: PresenceSnapshot, away: list[int]) -> None:
    """wire.md §4.5 "Checking claims": a player's peer takes a runner it is not connected to as in touch
    with the table when more than half of the other seated peers (itself among them) are connected to
    it and say they see it: one lost link makes no present seat away, and one liar keeps no crashed
    seat present."""
    assert snapshot.away(now=0.0) == away, case


def test_only_a_spectator_connected_leaves_an_unplaced_bot_seat_away() -> None:
    """A spectator's link is no player: a bot of the host's not placed yet is then judged by its key."""
    assert snap(bot_seats=frozenset({2}), links=(spectator(),)).away(now=0.0) == [1, 2]


# ---------------------------------------------------------------------- a handover and a handback (§4.5)

OVER = {"signers": (0, 1, 1), "handovers": (None, None, "greedy")}  # seat 2 handed over to seat 1's peer


@pytest.mark.parametrize(
    ("case", "snapshot", "away"),
    [
        # The entry comes before the taker's heartbeat: the log says who runs the seat now.
        ("handed over to a player connected here, its heartbeat not here yet",
         snap(**OVER, links=(player(1),), runners={2: K[2]}), []),
        ("handed over to a player seen by one connected here", snap(**OVER, links=(player(2, 1),)), [1, 2]),
        ("handed over to a player nobody is in touch with", snap(**OVER, links=(player(2),)), [1, 2]),
        ("handed over to a bot seat of the host's, the host connected",
         snap(**OVER, bot_seats=frozenset({1}), links=(player(6),), runners={1: K[6], 2: K[2]}), []),
        ("handed over to a bot seat of the host's, the host gone",
         snap(**OVER, bot_seats=frozenset({1}), links=(player(2),), runners={1: K[6]}), [1, 2]),
        # Handed back: its own peer runs it again at once, whatever the taker's last heartbeat said.
        ("handed back to a player connected here", snap(links=(player(2),), runners={2: K[2]}), [1]),
        ("handed back to the host's bot seat, the host connected",
         snap(bot_seats=frozenset({2}), links=(player(6),), runners={2: K[6]}), [1]),
    ],
)
def test_away_right_after_a_handover_or_a_handback(case: str, snapshot: PresenceSnapshot, away: list[int]) -> None:
    assert snapshot.away(now=0.0) == away, case


def test_a_taker_that_leaves_after_the_handback_takes_no_seat_away_with_it() -> None:
    """A taker's heartbeat lists the seat it runs for the owner; once it is handed back and the taker
    is gone, the seat is still its owner's (the claim of a seat handed over is not recorded)."""
    records = PresenceRecords()
    records.heard(K[2], (2,), {0, 1, 2})  # Cleo plays her seat
    records.heard(K[1], (1, 2), {0, 1})  # Cleo left, Bob took her seat over: his heartbeat lists it
    back = snap(links=(player(2),), runners=dict(records.runners))  # handed back; Bob has gone since
    assert back.away(now=0.0) == [1]


# ---------------------------------------------------------------------- claims (§4.5 "Checking claims")

HOST = K[6]  # the identity of a host that plays only bot seats (their keys are no peer's identity)


@pytest.mark.parametrize(
    ("case", "snapshot", "key", "seats", "believed", "dropped"),
    [
        ("its own seat", snap(), K[1], (1,), [1], []),
        ("another player's seat", snap(), K[1], (1, 2), [1], [2]),
        ("a seat handed over to its seat", snap(**OVER), K[1], (1, 2), [1, 2], []),
        ("a seat handed over to another's seat", snap(**OVER), K[2], (2,), [], [2]),
        ("a seat the game does not have", snap(), K[1], (1, 7), [1], [7]),
        ("a bot seat of the host's, no host known yet", snap(bot_seats=frozenset({2})), HOST, (2,), [2], []),
        ("a bot seat of the host's, from the host", snap(bot_seats=frozenset({2}), host=HOST), HOST, (2,), [2], []),
        ("a bot seat of the host's, from another player", snap(bot_seats=frozenset({2}), host=HOST), K[1], (1, 2),
         [1], [2]),
        ("the host known by the claim believed before", snap(bot_seats=frozenset({1, 2}), runners={1: HOST}), K[5],
         (2,), [], [2]),
        ("a bot seat whose key a link carried (a bot that sat down)",
         snap(bot_seats=frozenset({2}), seen=frozenset({K[2]})), HOST, (2,), [], [2]),
        ("a person's seat under another key", snap(), HOST, (2,), [], [2]),
        ("this peer holds a bot key: it is the host", snap(plays=(0, 2), keys=(K[0], K[1], K[5]),
                                                            bot_seats=frozenset({2})), HOST, (2,), [], [2]),
        ("no game yet", PresenceSnapshot(me=K[0]), K[1], (0,), [], [0]),
    ],
)
def test_judge(case: str, snapshot: PresenceSnapshot, key: bytes, seats: tuple[int, ...], believed: list[int],
               dropped: list[int]) -> None:
    assert snapshot.judge(key, seats) == (believed, dropped), case


def test_a_claim_taken_is_believed_dropped_and_counted() -> None:
    records = PresenceRecords()
    table = snap(bot_seats=frozenset({1, 2}))
    assert records.take_claim(table, HOST, (2,)) == [] and records.host == HOST  # the first to claim a bot key
    table = snap(bot_seats=frozenset({1, 2}), runners=dict(records.runners), host=records.host)
    assert records.take_claim(table, K[5], (1, 2)) == [1, 2]  # not the host: nothing of it believed
    assert records.take_claim(table, K[1], (1,)) == []  # a bot that sat down under its own key
    assert records.runners == {1: K[1], 2: HOST} and records.dropped == 2 and records.host == HOST


def test_a_player_cannot_make_a_gone_seat_present_by_claiming_it() -> None:
    """Bob says he plays Cleo's seat (she is gone): not believed, so her seat is away."""
    records = PresenceRecords()
    table = snap(links=(player(1),))
    records.take_claim(table, K[1], (1, 2))
    assert snap(links=(player(1),), runners=dict(records.runners)).away(now=0.0) == [2]


# ---------------------------------------------------------------------- a spectator's presence


def watching(**kw: Any) -> PresenceSnapshot:
    """A spectator's snapshot: seat 0 a bot of the host's (HOST), Bob seat 1, Cleo seat 2."""
    return snap(**{"me": 7, "plays": (), "bot_seats": frozenset({0}), **kw})


@pytest.mark.parametrize(
    ("case", "snapshot", "away"),
    [
        ("through Bob, everyone in touch", watching(links=(player(1, 2, 6),), runners={0: HOST}), []),
        ("through Bob, Cleo cut off", watching(links=(player(1, 6),), runners={0: HOST}), [2]),
        ("through Bob, the host's bot never placed, Cleo cut off", watching(links=(player(1, 6),)), [2]),
        ("through Bob, the host gone", watching(links=(player(1, 2),), runners={0: HOST}), [0]),
        ("through Bob, Cleo runs the host's seat and is cut off",
         watching(signers=(2, 1, 2), handovers=("greedy", None, None), links=(player(1, 6),), runners={0: HOST}),
         [0, 2]),
    ],
)
def test_a_spectator_names_the_seats_nobody_is_in_touch_with(case: str, snapshot: PresenceSnapshot,
                                                             away: list[int]) -> None:
    assert snapshot.away(now=0.0) == away, case


def test_a_spectator_that_watched_through_a_taker_names_only_the_seat_cut_off() -> None:
    """Eve watched through Cleo while Cleo ran the host's bot seat 0 (handed over to Cleo's seat 2),
    then it was handed back; now Cleo is cut off and Eve watches through Bob: only Cleo's seat is
    away, not seat 0 because of Cleo's old heartbeat (it said "Away: Greedy 1")."""
    records = PresenceRecords()
    records.heard(K[2], (0, 2), {1, 2})  # Cleo's heartbeat while seat 0 was handed over to her
    records.heard(K[1], (1,), {0, 1, 2})  # Bob's, after the handback
    assert watching(links=(player(1, 6),), runners=dict(records.runners)).away(now=0.0) == [2]


# ---------------------------------------------------------------------- without flicker (§4.5)


def test_a_spectator_keeps_the_tables_view_when_its_player_is_gone() -> None:
    """Eve watches through Bob alone. Bob's laptop dies: her one link closes, and until another
    player's heartbeat says otherwise she shows what the table said last, not every seat away (she
    printed "Away: Greedy 1, Bob, Cleo" for a moment while Bob's table played on). Once she watches
    through Cleo, Cleo's heartbeat says who is gone."""
    records = PresenceRecords(since=0.0)
    for now, links, away in [
        (1.0, (player(1, 2, 6, beat=1.0),), []),  # through Bob: everyone in touch
        (20.0, (), []),  # Bob's link closed: the table's last word stands
        (20.1, (player(2),), []),  # failed over to Cleo, her heartbeat not here yet
        (20.2, (player(2, 6, beat=20.2),), [1]),  # Cleo sees the host, not Bob
        (40.0, (), [1]),  # Cleo gone too: what she said last stands
    ]:
        snapshot = watching(links=links, runners={0: HOST}, since=0.0, view=records.view,
                            heard_at=records.heard_at)
        records.heard_table(snapshot, now)
        assert snapshot.away(now) == away, now
    assert records.heard_at == 1.0 and records.view == frozenset({K[2], HOST})


def test_a_spectator_arriving_names_nobody_away_before_it_has_heard_the_table() -> None:
    """Eve's link to the host opens; the host's heartbeat comes right after it. Before it nothing tells
    Eve who is away (she printed "Away: Bob", then "Nobody is away"). A spectator that hears no player
    for :attr:`fresh` seconds judges by its links."""
    assert watching(links=(player(6),), host=HOST, since=0.0).away(now=0.2) == []
    assert watching(links=(player(6, 1, 2, beat=0.3),), host=HOST, since=0.0).away(now=0.3) == []
    assert watching(links=(player(6, 1, beat=0.3),), host=HOST, since=0.0).away(now=0.3) == [2]
    assert watching(links=(player(6),), host=HOST, since=0.0).away(now=8.0) == [1, 2]


def test_a_player_arriving_names_nobody_away_while_its_links_to_the_table_are_made() -> None:
    """Bob's laptop comes back: its link to Ann opens, her heartbeat says she sees Cleo, and its own
    link to Cleo (whose address Ann's welcome gave) opens a moment later. Cleo is not away at Bob's
    meanwhile (it printed "Away: Cleo", then "Nobody is away"). Once settled, the table's rule holds:
    one other player's word alone keeps nobody present, and a laptop that hears nobody is cut off."""
    bob: dict[str, Any] = {"me": 1, "plays": (1,), "since": 0.0}
    heard = (player(0, 2, beat=0.2),)
    assert snap(**bob, links=(player(0),)).away(now=0.1) == []
    assert snap(**bob, links=heard).away(now=0.2) == []
    assert snap(**bob, links=heard, heard_at=0.2).away(now=7.0) == []
    assert snap(**bob, links=heard, heard_at=0.2).away(now=8.0) == [2]
    assert snap(**bob, links=(*heard, player(2, 0, beat=0.4)), heard_at=0.2).away(now=8.0) == []
    assert snap(**bob).away(now=1.0) == []
    assert snap(**bob).away(now=8.0) == [0, 2]
    assert snap(**bob, view=frozenset({K[0], K[2]}), heard_at=0.2).away(now=8.0) == [0, 2]  # heard, then lost


def test_a_laptop_never_lists_its_own_seat_away() -> None:
    """After a heal, Cleo's laptop (seat 2, of the old minority) takes the table's branch, in which her
    seat was handed over to a bot of Ann's seat 0 while they were apart; her links to Ann and Bob are
    not back yet. Her own seat is not away at her own laptop (it was, until the links came back)."""
    cleo = snap(me=2, plays=(), own=frozenset({2}), signers=(0, 1, 0), handovers=(None, None, "greedy"))
    assert cleo.away(now=0.0) == [0, 1]
    assert snap(me=2, plays=(), own=frozenset({2}), signers=(0, 1, 0), handovers=(None, None, "greedy"),
                links=(player(1),)).away(now=0.0) == [0]


# ---------------------------------------------------------------------- withholding (§5.7)

WAITING = (5, 100.0)  # draw 5, waited for since t = 100 s


def drawing(**kw: Any) -> PresenceSnapshot:
    """A snapshot while the table waits for draw 5 and seat 1's value is missing."""
    return snap(**{"missing": (1,), "reveal_wait": 10.0, "drawing": 5, "waiting": WAITING, **kw})


@pytest.mark.parametrize(
    ("case", "snapshot", "now", "withholding"),
    [
        ("before the wait", drawing(links=(player(1, beat=105.0),)), 109.9, []),
        ("after the wait, heard since the draw began", drawing(links=(player(1, beat=105.0),)), 110.0, [1]),
        # judged by its value, whatever its link says: a peer that sends no heartbeat (and stale
        # messages to keep its link open) withholds as much as one that does (wire.md §5.7)
        ("heard only before the draw began", drawing(links=(player(1, beat=100.0), player(2, beat=125.0))), 130.0, [1]),
        ("never heard", drawing(links=(player(1), player(2, beat=125.0))), 130.0, [1]),
        # but not while this peer heard from none of the table since the draw began: it is the one cut
        # off (its links look open until the dead-connection clock closes them), not the others
        # withholding (issue 30: a laptop cut at a draw took every other seat over, CI under load)
        ("nothing heard since the draw began", drawing(links=(player(1, beat=99.0), player(2, beat=99.0))), 130.0, []),
        ("only the withholder quiet", drawing(links=(player(1, beat=99.0), player(2, beat=125.0))), 130.0, [1]),
        # nor while it heard from most of the table since the draw began but not lately (the last 7.5 s,
        # 1.5 heartbeats): the messages in flight when its network went came just after the draw began
        # (a laptop cut right after its turn took a seat over on links silent for 10 s, CI)
        ("heard since the draw began, not lately", drawing(links=(player(1, beat=101.0), player(2, beat=101.0))),
         112.0, []),
        ("heard lately", drawing(links=(player(1, beat=101.0), player(2, beat=104.5))), 112.0, [1]),
        ("heard lately, a shorter heartbeat", drawing(fresh=0.75, links=(player(1), player(2, beat=111.0))),
         112.0, []),
        ("not connected here", drawing(links=(player(2, 1, beat=125.0),)), 130.0, [1]),
        ("its runner is another peer, heard", drawing(links=(player(2, beat=125.0),), runners={1: K[2]}), 130.0, [1]),
        ("played here", drawing(plays=(0, 1), links=(player(1, beat=105.0),)), 130.0, []),
        ("no draw waited for", drawing(links=(player(1, beat=105.0),), waiting=None), 130.0, []),
        # a laptop that said goodbye sends no value: the one left of three after two goodbyes, hearing
        # nobody, is no laptop cut off then (the commit model's "bye 0 quit, bye 1 shutdown, carry")
        ("its laptop said goodbye, nobody heard", drawing(left=frozenset({K[1], K[2]})), 130.0, [1]),
        ("another's laptop said goodbye, nobody heard", drawing(left=frozenset({K[2]})), 130.0, []),
    ],
)
def test_withholding(case: str, snapshot: PresenceSnapshot, now: float, withholding: list[int]) -> None:
    assert snapshot.withholding(now) == withholding, case
    assert set(withholding) <= set(snapshot.away(now)), case  # a withholding seat counts as away


@pytest.mark.parametrize(
    ("case", "snapshot"),
    [
        # The entry that ends a turn arrives before this peer has begun waiting for the next draw: the
        # clock is still the draw before's (which a slow turn made long), the values are on their way.
        ("the clock of the draw before", drawing(drawing=6, links=(player(1, beat=105.0), player(2)))),
        ("the clock of a draw long made", drawing(drawing=9, links=(player(1, beat=125.0), player(2)))),
        ("no draw waited for now", drawing(drawing=None, links=(player(1, beat=105.0), player(2)))),
    ],
)
def test_a_value_in_flight_is_no_withholding(case: str, snapshot: PresenceSnapshot) -> None:
    assert snapshot.withholding(130.0) == [] and snapshot.away(130.0) == [], case


def test_a_seat_that_withholds_is_away_although_its_peer_is_connected() -> None:
    snapshot = drawing(links=(player(1, beat=105.0), player(2)))
    assert snapshot.away(105.0) == [] and snapshot.away(110.0) == [1]


# ---------------------------------------------------------------------- giving a seat away (§5.6)


@pytest.mark.parametrize(
    ("case", "snapshot", "seat", "may"),
    [
        ("two of three", snap(links=(player(1),)), 2, True),
        ("one of three: cut off", snap(), 1, False),
        ("two of two", snap(2, links=(player(1),)), 1, True),
        # two seats: neither side commits alone, so either may go on; the heal keeps one branch
        ("a split of two, this side", snap(2), 1, True),
        ("a split of two, the other side", snap(2, me=1, plays=(1,)), 0, True),
        ("a split of two with a tie order", snap(2, me=1, plays=(1,), tie=(0, 1)), 0, True),
        ("two of four with the tie seat", snap(4, links=(player(1),), tie=(1, 3, 0, 2)), 2, True),
        ("two of four without it", snap(4, me=2, plays=(2,), links=(player(3),), tie=(1, 3, 0, 2)), 0, False),
        # the lowest key no longer decides anything: the tie order does
        ("two of four with the lowest key but not the tie seat", snap(4, links=(player(2),), tie=(1, 3, 0, 2)), 1,
         False),
        ("two of four before the tie order is drawn", snap(4, links=(player(1),)), 2, False),
        ("cut off, but the seat's peer said bye", snap(left=frozenset({K[1]})), 1, True),
        ("cut off; another peer said bye", snap(left=frozenset({K[2]})), 1, False),
        ("a heartbeat-placed runner said bye", snap(runners={1: K[5]}, left=frozenset({K[5]})), 1, True),
        # this laptop took seat 2 over while its links were dying, then lost seat 1's peer too: it is
        # one of three, not the lower key of two (it took every seat and played alone; CI)
        ("cut off after taking a seat over", snap(signers=(0, 1, 0), handovers=(None, None, "greedy"), plays=(0, 2)),
         1, False),
        ("no game yet", PresenceSnapshot(me=K[0]), 0, False),
    ],
)
def test_may_hand_over(case: str, snapshot: PresenceSnapshot, seat: int, may: bool) -> None:
    assert snapshot.may_hand_over(seat) is may, case


@pytest.mark.parametrize("tie", [(0, 1, 2, 3), (3, 1, 0, 2), (2, 0, 3, 1)])
def test_two_sides_of_an_even_split_never_both_pass(tie: tuple[int, ...]) -> None:
    """The exact-half tie goes to the side holding the peer of the first seat of the tie order, drawn
    by the table (wire.md §5.9 "The tie order"), whatever the keys."""
    for me, other in ((0, 2), (2, 0), (1, 3), (3, 1), (0, 1), (2, 3)):
        side = snap(4, me=me, plays=(me,), links=(player(other),), tie=tie)
        far = [s for s in range(4) if s not in (me, other)]
        assert all(side.may_hand_over(s) is (tie[0] in (me, other)) for s in far)
        far_side = snap(4, me=far[0], plays=(far[0],), links=(player(far[1]),), tie=tie)
        assert side.sees_most() != far_side.sees_most()


@pytest.mark.parametrize(
    ("case", "snapshot", "peers"),
    [
        ("everyone connected", snap(links=(player(1), player(2))), {K[1]: True, K[2]: True}),
        ("one lost", snap(links=(player(1),)), {K[1]: True, K[2]: False}),
        # the peer it was taken from still counts: it may be playing on beyond a split (a laptop whose
        # links were dying took one seat over, then counted itself most of a smaller table; CI)
        ("a seat handed over to peer 1 counts as peer 1's, and its owner's",
         snap(signers=(0, 1, 1), handovers=(None, None, "greedy"), links=(player(1),)), {K[1]: True, K[2]: False}),
        ("a seat handed over here: its owner counts",
         snap(signers=(0, 1, 0), handovers=(None, None, "greedy"), plays=(0, 2)), {K[1]: False, K[2]: False}),
        ("the owner a heartbeat named counts", snap(signers=(0, 1, 0), handovers=(None, None, "greedy"), plays=(0, 2),
                                                     owners={2: K[5]}), {K[1]: False, K[5]: False}),
        ("an owner that said bye does not", snap(signers=(0, 1, 0), handovers=(None, None, "greedy"), plays=(0, 2),
                                                  left=frozenset({K[2]})), {K[1]: False}),
        ("a seat taken here for withholding", snap(signers=(0, 1, 0), handovers=(None, None, "greedy"), plays=(0, 2),
                                                   owners={2: K[0]}), {K[1]: False}),
        ("an unplaced bot of the host's is not counted", snap(bot_seats=frozenset({2})), {K[1]: False}),
        ("a heartbeat names the bot seat's peer", snap(bot_seats=frozenset({2}), runners={2: K[5]}),
         {K[1]: False, K[5]: False}),
        ("spectators are no seated peers", snap(2, links=(spectator(),)), {K[1]: False}),
    ],
)
def test_seated_peers(case: str, snapshot: PresenceSnapshot, peers: dict[bytes, bool]) -> None:
    assert snapshot.seated_peers() == peers, case


@pytest.mark.parametrize(
    ("case", "snapshot", "cut_off"),
    [
        ("nobody connected", snap(), True),
        ("one connected", snap(links=(player(2),)), False),
        ("every other peer said bye", snap(left=frozenset({K[1], K[2]})), False),
        ("one said bye, the other is unreachable", snap(left=frozenset({K[1]})), True),
        ("every seat played here", snap(plays=(0, 1, 2)), False),
        ("every seat played here, one of them taken over", snap(signers=(0, 1, 0), handovers=(None, None, "greedy"),
                                                               plays=(0, 1, 2)), False),
        ("seen through a spectator is not connected", snap(links=(spectator(1, 2),)), True),
    ],
)
def test_cut_off(case: str, snapshot: PresenceSnapshot, cut_off: bool) -> None:
    assert snapshot.cut_off() is cut_off, case


@pytest.mark.parametrize(
    ("case", "snapshot", "runner"),
    [
        ("the lowest key in touch", snap(me=2, plays=(2,), links=(player(1), player(0))), K[0]),
        ("the lowest key only said to be in touch", snap(me=2, plays=(2,), links=(player(1, 0),)), K[1]),
        ("this peer when it has the lowest key", snap(links=(player(1),)), K[0]),
        ("the lowest key is not in touch", snap(me=2, plays=(2,), links=(player(1),), runners={0: K[6]}), K[1]),
        ("a seat handed over does not make its runner one",
         snap(me=2, plays=(2,), signers=(1, 1, 2), handovers=("greedy", None, None), links=(player(1, 0),),
              runners={0: K[0]}), K[1]),
        ("an unplaced bot of the host's is nobody", snap(me=1, plays=(1,), bot_seats=frozenset({0})), K[1]),
        ("no game yet", PresenceSnapshot(me=K[0]), None),
        ("the first seat in the tie order in touch, whatever its key",
         snap(me=2, plays=(2,), links=(player(1), player(0)), tie=(1, 2, 0)), K[1]),
        ("this peer when its seat comes first in the tie order", snap(me=2, plays=(2,), links=(player(1), player(0)),
                                                                       tie=(2, 0, 1)), K[2]),
        ("the first in the tie order is not in touch", snap(me=2, plays=(2,), links=(player(0),), tie=(1, 0, 2)),
         K[0]),
    ],
)
def test_takeover_runner(case: str, snapshot: PresenceSnapshot, runner: bytes | None) -> None:
    assert snapshot.takeover_runner() == runner, case


@pytest.mark.parametrize(
    ("case", "snapshot", "candidates"),
    [
        ("a person's seat is never taken over", snap(), []),
        ("an away bot seat", snap(bot_seats=frozenset({1}), seen=frozenset({K[1]})), [1]),
        ("an away bot seat handed over already", snap(bot_seats=frozenset({1}), seen=frozenset({K[1]}),
                                                      signers=(0, 2, 2), handovers=(None, "greedy", None)), []),
    ],
)
def test_takeover_candidates(case: str, snapshot: PresenceSnapshot, candidates: list[int]) -> None:
    assert snapshot.takeover_candidates(now=0.0) == candidates, case


# ---------------------------------------------------------------------- the draws (deck.md §5.3)


@pytest.mark.parametrize(
    ("case", "snapshot", "known"),
    [
        ("no table draws", snap(), None),
        ("two peers contribute", snap(contributors=(0, 1, 2)), None),
        ("one peer plays every contributing seat", snap(plays=(0, 1), contributors=(0, 1)), (K[0], 0)),
        ("another peer does", snap(runners={0: K[1]}, plays=(), contributors=(0, 1)), (K[1], 0)),
        ("an unplaced bot of the host's is the host's", snap(2, bot_seats=frozenset({1}), host=K[0],
                                                             contributors=(0, 1)), (K[0], 0)),
        ("an unplaced bot and no host known", snap(2, bot_seats=frozenset({1}), contributors=(0, 1)), None),
    ],
)
def test_draws_known_to(case: str, snapshot: PresenceSnapshot, known: tuple[bytes, int] | None) -> None:
    assert snapshot.draws_known_to() == known, case


# ---------------------------------------------------------------------- coming back (§5.6)

HANDED: dict[str, Any] = {"signers": (0, 0, 2), "handovers": (None, "greedy", None), "plays": frozenset({0, 1}),
          "own": frozenset({0})}  # seat 1 was handed over to seat 0's peer: this one


@pytest.mark.parametrize(
    ("case", "snapshot", "bot_names", "armed", "steps"),
    [
        ("an own bot seat without its bot", snap(**HANDED), {0: "greedy", 1: "random"}, {1},
         [HandBackStep(0, "arm", "greedy")]),
        ("the owner away, no bot yet: the handover's", snap(**HANDED), {}, set(), [HandBackStep(1, "arm", "greedy")]),
        ("the owner away, no bot yet: the one chosen", snap(**HANDED), {1: "random"}, set(),
         [HandBackStep(1, "arm", "random")]),
        ("the owner away, the bot plays on", snap(**HANDED), {1: "greedy"}, {1}, []),
        ("the owner back, not its turn", snap(**HANDED, links=(player(1),)), {1: "greedy"}, {1},
         [HandBackStep(1, "release")]),
        ("the owner back at its turn", snap(**HANDED, links=(player(1),), to_play=1, placing=True), {1: "greedy"},
         {1}, [HandBackStep(1, "release"), HandBackStep(1, "hand-back")]),
        ("the owner back mid-turn", snap(**HANDED, links=(player(1),), to_play=1), {1: "greedy"}, {1}, []),
        ("released already, its turn", snap(**HANDED, links=(player(1),), to_play=1, placing=True), {1: "greedy"},
         set(), [HandBackStep(1, "hand-back")]),
        ("the owner by its heartbeats, not its key", snap(**HANDED, links=(player(1),), owners={1: K[5]}),
         {1: "greedy"}, set(), [HandBackStep(1, "arm", "greedy")]),
        ("taken while it withheld and never left", snap(**HANDED, links=(player(1),), withheld={1: K[1]}),
         {1: "greedy"}, {1}, []),
        ("seen only by a spectator", snap(**HANDED, links=(LinkView(K[1], "spectator"),)), {1: "greedy"}, {1}, []),
        ("handed over to another peer", snap(signers=(0, 2, 2), handovers=(None, "greedy", None)), {}, set(), []),
    ],
)
def test_hand_back(case: str, snapshot: PresenceSnapshot, bot_names: dict[int, str], armed: set[int],
                   steps: list[HandBackStep]) -> None:
    assert snapshot.hand_back(bot_names, armed) == steps, case


# ---------------------------------------------------------------------- taking a seat back (§5.6)

MINE_RUN = {"plays": frozenset(), "own": frozenset({0}), "signers": (1, 1), "handovers": ("greedy", None), "turn": 0}
MINE_RUN3 = {**MINE_RUN, "signers": (1, 1, 2), "handovers": ("greedy", None, None)}


@pytest.mark.parametrize(
    ("case", "snapshot", "seats"),
    [
        ("two seats, the runner gone, at its turn", snap(2, **MINE_RUN), [0]),
        ("two seats, the runner connected", snap(2, **MINE_RUN, links=(player(1),)), []),
        ("two seats, another seat's turn", snap(2, **{**MINE_RUN, "turn": 1}), []),
        ("two seats, another seat's tile drawn: the runner's value may be the one missing",
         snap(2, **{**MINE_RUN, "turn": 1, "drawing": 5}), [0]),
        ("two seats, no seat to move (the table draws for nobody)", snap(2, **{**MINE_RUN, "turn": None}), []),
        # the runner placed the seat's tile and left: its deploy only the runner's key could sign
        ("two seats, mid-turn", snap(2, **{**MINE_RUN, "turn": None, "to_play": 0}), [0]),
        ("two seats, mid-turn of another seat", snap(2, **{**MINE_RUN, "turn": None, "to_play": 1}), []),
        ("three seats, the runner gone, the third here", snap(3, **MINE_RUN3, links=(player(2),)), [0]),
        ("three seats, the runner seen by the third alone: one peer's word proves nothing",
         snap(3, **MINE_RUN3, links=(player(2, 1),)), [0]),
        ("four seats, the runner seen by both others", snap(4, **{**MINE_RUN3, "signers": (1, 1, 2, 3),
                                                                   "handovers": ("greedy", None, None, None)},
                                                             links=(player(2, 1), player(3, 1))), []),
        ("three seats, alone: a split's small side", snap(3, **MINE_RUN3), []),
        ("three seats, alone, the runner said bye", snap(3, **MINE_RUN3, left=frozenset({K[1]})), [0]),
        ("a seat of another laptop's", snap(2, **{**MINE_RUN, "own": frozenset()}), []),
        ("its own seat, played here", snap(2, turn=0), []),
    ],
)
def test_take_back(case: str, snapshot: PresenceSnapshot, seats: list[int]) -> None:
    assert snapshot.take_back(0.0) == seats, case


# ---------------------------------------------------------------------- the takeover clock


@pytest.mark.parametrize(
    ("case", "ticks"),
    [
        ("due once away for the takeover time", [((1,), {1}, 0.0, []), ((1,), {1}, 29.9, []), ((1,), {1}, 30.0, [1])]),
        ("never due on first sight", [((1,), {1}, 100.0, [])]),
        ("back in touch: from zero again", [((1,), {1}, 0.0, []), ((1,), set(), 20.0, []), ((1,), {1}, 30.0, []),
                                            ((1,), {1}, 59.0, []), ((1,), {1}, 60.0, [1])]),
        ("no longer waited for: from zero again", [((1,), {1}, 0.0, []), ((2,), {1, 2}, 20.0, []),
                                                   ((1,), {1}, 35.0, []), ((1,), {1}, 64.0, [])]),
        ("several, in blocking order", [((2, 1), {1, 2}, 0.0, []), ((2, 1), {1, 2}, 30.0, [2, 1])]),
    ],
)
def test_takeover_clock(case: str, ticks: list[tuple[tuple[int, ...], set[int], float, list[int]]]) -> None:
    clock = TakeoverClock(30.0)
    for blocking, away, now, due in ticks:
        assert clock.due(blocking, away, now) == due, (case, now)


def test_takeover_clock_reset_done_and_refusals() -> None:
    clock = TakeoverClock(1.0)
    clock.due((1,), {1}, 0.0)
    clock.reset()
    assert clock.due((1,), {1}, 5.0) == [] and clock.due((1,), {1}, 6.0) == [1]
    clock.done(1)
    assert clock.due((1,), {1}, 6.5) == [] and clock.due((1,), {1}, 7.5) == [1]
    assert [clock.refusal_is_news(1, 9), clock.refusal_is_news(1, 9), clock.refusal_is_news(1, 10),
            clock.refusal_is_news(2, 10)] == [True, False, True, True]


# ---------------------------------------------------------------------- the records


@pytest.mark.parametrize(
    ("case", "events", "runners", "owners", "left", "seen"),
    [
        ("a heartbeat: a seat handed over is the log's", [("heard", K[1], (1, 2), {1})], {1: K[1]}, {1: K[1]},
         set(), set()),
        ("a bye quit", [("opened", K[1]), ("closed", K[1], "quit", False)], {}, {}, {K[1]}, {K[1]}),
        ("a bye shutdown with another link open", [("closed", K[1], "shutdown", True)], {}, {}, set(), {K[1]}),
        ("a timeout is no leaving", [("closed", K[1], "timeout", False)], {}, {}, set(), {K[1]}),
        ("back after leaving", [("closed", K[1], "quit", False), ("opened", K[1])], {}, {}, set(), {K[1]}),
    ],
)
def test_records(case: str, events: list[tuple[Any, ...]], runners: dict[int, bytes], owners: dict[int, bytes],
                 left: set[bytes], seen: set[bytes]) -> None:
    records = PresenceRecords()
    for name, key, *rest in events:
        if name == "heard":
            records.heard(key, *rest)
        elif name == "opened":
            records.opened(key)
        else:
            records.closed(key, rest[0], still_connected=rest[1])
    assert (records.runners, records.owners, records.left, records.seen) == (runners, owners, left, seen), case


def test_a_seat_taken_for_withholding_is_not_given_back_when_its_peer_leaves_and_returns() -> None:
    """wire.md §5.7 "The price of a veto": leaving and coming back does not buy the seat back."""
    records = PresenceRecords()
    records.withheld[1] = K[1]
    records.closed(K[1], "quit", still_connected=False)
    records.opened(K[1])
    table = snap(**HANDED, links=(player(1),), withheld=dict(records.withheld), to_play=1, placing=True)
    assert records.withheld == {1: K[1]} and table.hand_back({1: "greedy"}, {1}) == []


# ---------------------------------------------------------------------- which seats (§5.6 "Which seats")


@pytest.mark.parametrize(
    ("case", "snapshot", "seat", "refused"),
    [
        ("the seat to play, away", snap(links=(player(1),), to_play=2), 2, None),
        ("the seat to play, present", snap(links=(player(1), player(2)), to_play=2), 2, "in touch"),
        ("not the seat to play", snap(links=(player(1),), to_play=1), 2, "only the player to move"),
        ("played here", snap(links=(player(1),), to_play=0), 0, "plays that seat"),
        ("a draw: withholding, still connected", drawing(links=(player(1, beat=125.0), player(2))), 1, None),
        ("a draw: its value came", drawing(links=(player(1), player(2))), 2, "part of the draw has come"),
        ("a draw: within the wait", drawing(links=(player(1), player(2)), reveal_wait=60.0), 1, "less than 60 s"),
        ("a draw: cut off", drawing(), 1, "heard from too few"),
    ],
)
def test_handover_refusal(case: str, snapshot: PresenceSnapshot, seat: int, refused: str | None) -> None:
    """A player may hand over only a seat the game waits for whose player is away: at its turn, out of
    touch; while the table draws, withholding its value past the wait; never a present seat."""
    refusal = snapshot.handover_refusal(seat, now=130.0)
    assert (refusal is None) if refused is None else (refusal is not None and refused in refusal), (case, refusal)


def test_a_withholder_is_not_the_one_to_take_seats_over() -> None:
    """The lowest key at the table withholds its value: the next lowest takes its seat over."""
    table = drawing(me=2, plays=(2,), links=(player(0, beat=125.0), player(1, beat=125.0)), missing=(0,))
    assert table.takeover_runner() == K[0] and table.takeover_runner(130.0) == K[1]


@pytest.mark.parametrize(
    ("case", "heard", "by"),
    [
        ("heard from since the draw began (a stale message will do)", 101.0, K[1]),
        ("silent since before the draw: it may have lost its network", 99.0, None),
        ("never heard", None, None),
    ],
)
def test_withheld_by(case: str, heard: float | None, by: bytes | None) -> None:
    """wire.md §5.7 "The price of a veto": a seat is taken for good only from a laptop that was there."""
    table = drawing(links=(LinkView(K[1], "player", (), None, heard), player(2, beat=125.0)))
    assert table.withheld_by(1, 130.0) == by and table.withheld_by(1, 105.0) is None, case


def test_an_owner_whose_link_went_silent_before_the_handover_is_not_back() -> None:
    """A laptop cut off while the table drew is taken over (its value missing past the wait) while its
    silent link is still open here, until the dead-connection clock closes it (wire.md §2.1): it is
    back only once something comes from it after the handover, not at its next turn on that old link."""
    silent = snap(**HANDED, links=(LinkView(K[1], "player", (), 95.0, 99.0),), handed={1: 112.0}, to_play=1,
                  placing=True)
    heard = snap(**HANDED, links=(LinkView(K[1], "player", (), 95.0, 113.0),), handed={1: 112.0}, to_play=1,
                 placing=True)
    assert silent.hand_back({1: "greedy"}, {1}) == []
    assert heard.hand_back({1: "greedy"}, {1}) == [HandBackStep(1, "release"), HandBackStep(1, "hand-back")]


# ---------------------------------------------------------------------- who makes the handover (§5.6)


def test_only_a_player_at_the_table_asks_the_taker() -> None:
    """wire.md §5.6 "Who makes the handover": the seats a player's heartbeat asks for count; a
    spectator's, a stranger's, and a seat the game does not have count for nothing."""
    asking = (LinkView(K[1], "player", asks=(2,)), LinkView(SPY, "spectator", asks=(0,)),
              LinkView(K[5], "player", asks=(1,)), LinkView(K[2], "player", asks=(7,)))
    assert snap(links=asking).asked() == [2]
    assert snap(links=asking, runners={1: K[5]}).asked() == [1, 2]  # a believed runner of a seat
    assert snap(links=(player(1),)).asked() == []
