"""Golden vectors of the wire protocol (protocol/vectors/wire/*.json, *.bin): the fixed keys, nonces,
header and entries they are made from, and their JSON form; shared by the tests and by
``python -m tests.net.vectors`` (which regenerates them: only for a deliberate, versioned change, see
protocol/CHANGELOG.md).

JSON form of a message = its wire map (``carcnet.net.to_wire``) with ``bin`` values as lowercase hex
strings and the seed as a decimal string (JSON numbers lose precision above 2**53), as in
protocol/README.md. A value is bin exactly when its key is one of :data:`BIN_KEYS` (or, for arrays of
bin, :data:`BIN_LIST_KEYS`), which is what protocol/wire.md §4 says.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from carcnet.engine import DrawTile, Game, HandBack, HandOver, Phase, Rules
from carcnet.log import LogEntry, LogHeader, Seat
from carcnet.net import (
    PROTO_VERSION,
    Ack,
    Give,
    Bye,
    Claim,
    Commit,
    Entries,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    LobbySeat,
    Meet,
    Message,
    PeerInfo,
    Peers,
    Proof,
    Reject,
    Reveal,
    SeatKey,
    SignedEntry,
    Start,
    Vote,
    Want,
    Welcome,
    WireHeader,
    encode_message,
    entry_bytes,
    sign_commit,
    sign_entry,
    to_wire,
)
from carcnet.net.messages import Chat, Seal, SpectatorChat
from carcnet.net.signing import (
    GAME_DOMAIN,
    TIE_DOMAIN,
    ack_bytes,
    chain_secret,
    chat_bytes,
    commit_bytes,
    give_bytes,
    proof_bytes,
    seal_bytes,
    sealed_game_id,
    seat_chain,
    sign_ack,
    sign_chat,
    sign_give,
    sign_proof,
    sign_seal,
    sign_spectator_chat,
    spectator_chat_bytes,
    tie_order,
    tie_source,
)
from tests.jsonform import BIN_KEYS, BIN_LIST_KEYS, from_json, to_json  # noqa: F401  (re-exported)

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors" / "wire"

CREATED = 1795256100  # 2026-11-21 10:15:00 UTC
CHAT_ID = bytes.fromhex("0123456789abcdef")
CHAT_TIME = 1795256160000  # a minute after the game was created, in milliseconds


def _h(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


#: Private seeds of the vectors' keys: SHA-256 of a label, so anyone can rebuild them.
SEAT_SEEDS = (_h("carcnet vector seat 0"), _h("carcnet vector seat 1"))
#: The nonce Ann, the host, drew when she opened the table; with her identity key (seat 0's) it makes
#: the game id (wire.md §4.2 "The game id").
GAME_NONCE = _h("carcnet vector game nonce")
GAME = sealed_game_id(SeatKey.from_seed(SEAT_SEEDS[0]).public, GAME_NONCE)
SPECTATOR_SEED = _h("carcnet vector spectator")
#: The fresh nonces of the handshake's hello and welcomes (wire.md §3.4).
HELLO_NONCE, WELCOME_NONCE = _h("carcnet vector hello nonce"), _h("carcnet vector welcome nonce")
SEATS = (Seat("Ann", "red"), Seat("Bob", "blue"))


def seat_keys() -> tuple[SeatKey, ...]:
    return tuple(SeatKey.from_seed(s) for s in SEAT_SEEDS)


def chains() -> list[list[bytes]]:
    """Each seat's hash chain for the base game's 71 draws, from its key (wire.md §5.3, deck.md §5.1)."""
    return [seat_chain(key, GAME, seat, Rules().pile_size()) for seat, key in enumerate(seat_keys())]


def wire_header() -> WireHeader:
    """Ann (seat 0, red, the host) and Bob (seat 1, blue); table draws from their chain roots."""
    keys = seat_keys()
    header = LogHeader.new(
        SEATS, keys=[k.public for k in keys], commits=[c[0] for c in chains()], created=CREATED, game=GAME
    )
    return WireHeader.of(header)


def seal() -> Seal:
    """Ann's seal of the vectors' header: her identity key, the game's nonce, her signature over the
    header's fingerprint (wire.md §4.2)."""
    ann = seat_keys()[0]
    return Seal(ann.public, GAME_NONCE, sign_seal(ann, wire_header().fingerprint))


def signed_entries(count: int = 3) -> list[SignedEntry]:
    """The first *count* entries of the game: the first draw (unsigned), then each move the engine's
    first legal one, signed by its seat."""
    wh = wire_header()
    keys = seat_keys()
    values = chains()
    game = Game(wh.header.setup())
    out = []
    for seq in range(1, count + 1):
        seat = game.seat
        if game.phase is Phase.DRAW:
            move = DrawTile(tuple(c[game.deck_index + 1] for c in values))
            game.apply(move)
            out.append(SignedEntry(LogEntry(seq, seat, move, game.digest), None))
            continue
        move = game.legal_moves()[0]
        game.apply(move)
        entry = LogEntry(seq, seat, move, game.digest)
        out.append(SignedEntry(entry, sign_entry(keys[seat], GAME, entry)))
    return out


def take_back_entries() -> list[SignedEntry]:
    """The entries after :func:`signed_entries`: the draw of Bob's first tile (unsigned), Ann's
    ``handover`` of his seat to a greedy bot she runs (his laptop away; seat 0's key), then Bob's own
    ``handback`` of his seat (her laptop gone, wire.md §5.6 "Taking a seat back"; seat 1's key)."""
    keys = seat_keys()
    values = chains()
    game = Game(wire_header().header.setup())
    first = signed_entries()
    for signed in first:
        game.apply(signed.entry.move)
    out = []
    draw = DrawTile(tuple(c[game.deck_index + 1] for c in values))
    seat = game.seat
    game.apply(draw)
    out.append(SignedEntry(LogEntry(len(first) + 1, seat, draw, game.digest), None))
    for move, signer in ((HandOver(1, "greedy", 0), 0), (HandBack(1, 1), 1)):
        game.apply(move)
        entry = LogEntry(len(game.moves), signer, move, game.digest)
        out.append(SignedEntry(entry, sign_entry(keys[signer], GAME, entry)))
    return out


def messages() -> dict[str, tuple[str, Message]]:
    """Vector name → (description, message): every message type once, welcome twice."""
    ann, bob = seat_keys()
    wh = wire_header()
    entries = signed_entries()
    last = entries[-1].entry
    taken = LobbySeat(SEATS[0], ann.public)
    commit1 = chains()[1][0]
    cleo = SeatKey.from_seed(SPECTATOR_SEED)
    hello = Hello(game=GAME, role="player", name="Bob", key=bob.public, port=40123, nonce=HELLO_NONCE)
    welcome_lobby = Welcome(game=GAME, role="host", name="Ann", key=ann.public, nonce=WELCOME_NONCE)
    return {
        "hello": (
            (
                "Bob, a player, connects to Ann's lobby; he holds no header yet (have 0, digest nil) "
                "and listens on port 40123."
            ),
            Hello(game=GAME, role="player", name="Bob", key=bob.public, port=40123, nonce=HELLO_NONCE),
        ),
        "welcome-lobby": (
            "Ann, the host, welcomes Bob before the game has started: no header, no peers yet.",
            Welcome(game=GAME, role="host", name="Ann", key=ann.public, nonce=WELCOME_NONCE),
        ),
        "welcome": (
            (
                "Ann welcomes a returning Bob during the game: the header (with keys and the seats' "
                "chain roots) and her seal of it, her last seq and digest, and one more peer she knows."
            ),
            Welcome(
                game=GAME,
                role="player",
                name="Ann",
                key=ann.public,
                have=last.seq,
                digest=last.digest,
                header=wh,
                seal=seal(),
                peers=(PeerInfo(SeatKey.from_seed(SPECTATOR_SEED).public, "Cleo", "192.168.1.23", 40123),),
                nonce=WELCOME_NONCE,
            ),
        ),
        "proof": (
            "Ann's proof, sent right after welcome-lobby: her identity key's signature over the transcript "
            "of hello and welcome-lobby (signing.json, proofs).",
            Proof(sig=sign_proof(ann, "acceptor", _body(hello), _body(welcome_lobby))),
        ),
        "reject": (
            "A hello from a peer of protocol version 3 is refused.",
            Reject(
                code="bad-version",
                message="the peer speaks carcnet protocol version 4; this carcnet speaks version 3",
            ),
        ),
        "entries": (
            "The first three entries of the game: the first draw (unsigned: its values prove themselves), "
            "then Ann's place and deploy-or-skip, each signed with seat 0's key.",
            Entries(from_seq=1, entries=tuple(entries)),
        ),
        "entries-take-back": (
            "The three entries after entries.bin: the draw of Bob's first tile; Ann's handover of his seat to a "
            "greedy bot she runs (entry seat 0, signed with seat 0's key); then Bob takes his seat back, her "
            "laptop gone (handback 1 by 1: entry seat 1, signed with seat 1's key; wire.md §5.6).",
            Entries(from_seq=4, entries=tuple(take_back_entries())),
        ),
        "want": ("Ask for every entry from seq 3 on.", Want(from_seq=3)),
        "heartbeat": (
            "Ann holds three entries; her clock reads 2026-11-21 10:16:00 UTC; she is connected to Bob and "
            "plays seat 0; at the table's turn clock seat 0 has 4:47.5 of bank left, seat 1 all of its 5:00.",
            Heartbeat(have=last.seq, digest=last.digest, time=1795256160000, sees=(bob.public,), seats=(0,),
                      banks=(287500, 300000)),
        ),
        "bye": ("The user left the game.", Bye(reason="quit")),
        "error": (
            "Seat 0 sent seq 3 while it was seat 1's turn; the connection closes.",
            Error(code="not-your-turn", message="seq 3: seat 0 moved, but it is seat 1's turn", seq=3),
        ),
        "lobby": (
            "Ann's table: she sits in seat 0, seat 1 is open.",
            Lobby(name="Friday game", options=Rules(), table=(taken, None), clock=(60, 300)),
        ),
        "claim": (
            "Bob asks for seat 1 in blue, with his key.",
            Claim(seat=1, name="Bob", colour="blue", key=bob.public),
        ),
        "commit": (
            "Bob's commitment to the root of his chain (deck.md §5.1), signed with seat 1's key.",
            Commit(seat=1, hash=commit1, sig=sign_commit(bob, GAME, 1, commit1)),
        ),
        "reveal": (
            "Bob's chain value for draw 1, sent once his peer holds the header (wire.md §5.7).",
            Reveal(seat=1, draw=1, value=chains()[1][1]),
        ),
        "start": (
            "Ann starts the game with the agreed header, sealed with the identity key the game id was made "
            "from (wire.md §4.2).",
            Start(header=wh, seal=seal()),
        ),
        "chat": (
            "Bob says a line at the table (wire.md §4.9), signed with seat 1's key.",
            Chat(seat=1, id=CHAT_ID, time=CHAT_TIME, text="good luck!",
                 sig=sign_chat(bob, GAME, 1, CHAT_ID, CHAT_TIME, "good luck!")),
        ),
        "spectator-chat": (
            "Cleo, who watches the game, says a line at the table (wire.md §4.9a), signed with her identity "
            "key under her name.",
            SpectatorChat(key=cleo.public, name="Cleo", id=CHAT_ID, time=CHAT_TIME, text="well played!",
                          sig=sign_spectator_chat(cleo, GAME, "Cleo", CHAT_ID, CHAT_TIME, "well played!")),
        ),
        "peers": (
            "Ann tells the spectators she serves where the players listen now (wire.md §4.10): Bob, "
            "confirmed when he dialled her.",
            Peers(peers=(PeerInfo(bob.public, "Bob", "192.168.1.7", 40123),)),
        ),
        "ack": (
            "Bob's seat votes for the log up to the last entry of entries.bin (wire.md §5.9): it holds that "
            "prefix, whose digest names every entry of it; no vote given (gives empty).",
            Ack(votes=(ack_vote(bob, 1, signed_entries()[-1]),)),
        ),
        "meet": (
            "Ann, who hands out invite codes, introduces Bob (connected to her on the LAN) to a laptop "
            "elsewhere paired with her (wire.md §4.12): both meet on Ann's invite server with a one-off code; "
            "the other laptop dials, so Bob does not.",
            Meet(code="123456789012-" + "0123456789abcdef0123456789abcdef0123", dial=False,
                 relay="ws://relay.example.org:4000/v1", transit="tcp:transit.example.org:4001"),
        ),
        "ack-give": (
            "Bob leaves on purpose (wire.md §5.9 \"Two seats, and leaving\"): his seat gives its vote to Ann's "
            "seat 0 at the last entry of entries.bin; no vote beside it.",
            Ack(votes=(), gives=(give_vote(bob, 1, 0, signed_entries()[-1]),)),
        ),
    }


def ack_vote(key: SeatKey, seat: int, last: SignedEntry) -> Vote:
    """*seat*'s vote, signed with *key*, for the log that ends with *last*."""
    digest = last.entry.digest
    return Vote(seat, last.seq, digest, sign_ack(key, GAME, seat, last.seq, digest))


def give_vote(key: SeatKey, seat: int, to: int, last: SignedEntry) -> Give:
    """*seat*'s vote, given by itself (signed with *key*) to seat *to* at the log that ends with *last*."""
    digest = last.entry.digest
    return Give(seat, seat, to, last.seq, digest, sign_give(key, GAME, seat, seat, to, last.seq, digest))


def _body(message: Message) -> bytes:
    """A message's frame body: the bytes a proof hashes (wire.md §3.4)."""
    return encode_message(message)[4:]


def signing_vector() -> dict[str, Any]:
    """Keys, the signed byte strings and signatures, the chains and commitments, in hex."""
    keys = seat_keys()
    entries = [e for e in signed_entries() if e.sig is not None]
    values = chains()
    cleo = SeatKey.from_seed(SPECTATOR_SEED)
    return {
        "description": f"carcnet wire protocol {PROTO_VERSION} signing vectors (protocol/wire.md §5): Ed25519 "
        "seat keys from their 32-byte private seeds; the exact bytes an entry's and a commitment's signatures "
        "cover; a chat line's and a spectator's chat line's (§4.9, §4.9a); each seat's chain secret (from "
        "its key), root (its commitment) and first two values (deck.md "
        "§5.1); the handshake proofs (§3.4) of hello.bin and welcome-lobby.bin; the game id made from Ann's "
        "key and nonce, and her seal of the header (§4.2). bin values are hex.",
        "game": GAME,
        "seats": [{"seed": s.hex(), "public": k.public.hex()} for s, k in zip(SEAT_SEEDS, keys, strict=True)],
        "entries": [
            {
                "entry": to_json(to_wire(Entries(from_seq=e.seq, entries=(e,)))["entries"][0]),
                "signed": entry_bytes(GAME, e.entry).hex(),
                "sig": e.sig.hex(),
            }
            for e in entries
        ],
        "commits": [
            {
                "seat": i,
                "secret": chain_secret(keys[i], GAME, i).hex(),
                "length": len(c) - 1,
                "hash": c[0].hex(),
                "values": [c[1].hex(), c[2].hex()],
                "signed": commit_bytes(GAME, i, c[0]).hex(),
                "sig": sign_commit(keys[i], GAME, i, c[0]).hex(),
            }
            for i, c in enumerate(values)
        ],
        "ack": {
            "seat": 1,
            "seq": entries[-1].seq,
            "digest": entries[-1].entry.digest.hex(),
            "signed": ack_bytes(GAME, 1, entries[-1].seq, entries[-1].entry.digest).hex(),
            "sig": sign_ack(keys[1], GAME, 1, entries[-1].seq, entries[-1].entry.digest).hex(),
        },
        "give": {
            "seat": 1,
            "by": 1,
            "to": 0,
            "seq": entries[-1].seq,
            "digest": entries[-1].entry.digest.hex(),
            "signed": give_bytes(GAME, 1, 1, 0, entries[-1].seq, entries[-1].entry.digest).hex(),
            "sig": sign_give(keys[1], GAME, 1, 1, 0, entries[-1].seq, entries[-1].entry.digest).hex(),
        },
        "tie": {
            "players": 2,
            "values": [v[1].hex() for v in values],
            "source": tie_source(tuple(v[1] for v in values)).hex(),
            "hashed": [(TIE_DOMAIN + GAME.encode() + bytes([i]) + tie_source(tuple(v[1] for v in values))).hex()
                       for i in range(2)],
            "order": list(tie_order(GAME, 2, tie_source(tuple(v[1] for v in values)))),
        },
        "chat": {
            "seat": 1,
            "id": CHAT_ID.hex(),
            "time": CHAT_TIME,
            "text": "good luck!",
            "signed": chat_bytes(GAME, 1, CHAT_ID, CHAT_TIME, "good luck!").hex(),
            "sig": sign_chat(keys[1], GAME, 1, CHAT_ID, CHAT_TIME, "good luck!").hex(),
        },
        "spectator-chat": {
            "key": cleo.public.hex(),
            "seed": SPECTATOR_SEED.hex(),
            "name": "Cleo",
            "id": CHAT_ID.hex(),
            "time": CHAT_TIME,
            "text": "well played!",
            "signed": spectator_chat_bytes(GAME, cleo.public, "Cleo", CHAT_ID, CHAT_TIME, "well played!").hex(),
            "sig": sign_spectator_chat(cleo, GAME, "Cleo", CHAT_ID, CHAT_TIME, "well played!").hex(),
        },
        "seal": {
            "key": keys[0].public.hex(),
            "nonce": GAME_NONCE.hex(),
            "hashed": (GAME_DOMAIN + keys[0].public + GAME_NONCE).hex(),
            "game": GAME,
            "fingerprint": wire_header().fingerprint.hex(),
            "signed": seal_bytes(wire_header().fingerprint).hex(),
            "sig": seal().sig.hex(),
        },
        "proofs": [
            {
                "side": side,
                "hello": "hello.bin",
                "welcome": "welcome-lobby.bin",
                "key": key.public.hex(),
                "signed": proof_bytes(side, hello, welcome).hex(),
                "sig": sign_proof(key, side, hello, welcome).hex(),
            }
            for side, key in (("acceptor", keys[0]), ("connector", keys[1]))
            for hello, welcome in [(_body(messages()["hello"][1]), _body(messages()["welcome-lobby"][1]))]
        ],
    }


# ---------------------------------------------------------------------- JSON form


def vector(name: str) -> tuple[dict[str, Any], bytes]:
    """The JSON and the frame bytes of vector *name*."""
    return json.loads((VECTORS / f"{name}.json").read_text()), (VECTORS / f"{name}.bin").read_bytes()


def dump(frame: bytes) -> str:
    """An annotated hex dump of a frame: the length prefix, then the body 16 bytes a line."""
    lines = [f"{0:04x}  {frame[:4].hex(' '):<47}  length {int.from_bytes(frame[:4], 'big')}"]
    for i in range(4, len(frame), 16):
        chunk = frame[i : i + 16]
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{i:04x}  {chunk.hex(' '):<47}  |{text}|")
    return "\n".join(lines)


def main() -> None:
    VECTORS.mkdir(parents=True, exist_ok=True)
    for name, (description, message) in messages().items():
        frame = encode_message(message)
        vec = {
            "description": f"carcnet wire protocol {PROTO_VERSION} golden vector (protocol/wire.md §4): {description} "
            f"{name}.bin holds the exact frame (4-byte length, then the msgpack body); bin values are "
            "hex.",
            "message": to_json(to_wire(message)),
            "size": len(frame),
        }
        (VECTORS / f"{name}.json").write_text(json.dumps(vec, indent=1, ensure_ascii=False) + "\n")
        (VECTORS / f"{name}.bin").write_bytes(frame)
        print(f"wrote {name}.json and .bin ({len(frame)} bytes)")
    (VECTORS / "signing.json").write_text(json.dumps(signing_vector(), indent=1) + "\n")
    print("wrote signing.json")
    if "--dump" in sys.argv[1:]:
        print(dump((VECTORS / "hello.bin").read_bytes()))


if __name__ == "__main__":
    main()
