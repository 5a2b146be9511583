"""Club night: tournaments across the room's laptops and ratings (docs/club.md, protocol/tournament.md).

The parts every laptop computes alike, from the same inputs (pure computations over values: no
clock, no network, no global randomness; the first round's lots come from the event's id, so that
every laptop draws the same; player ids are strings, an identity key in hex or ``bot:<level>``, and
every order that matters is an explicit sort):

- :mod:`carcnet.club.event`: the signed charter (players, format, rounds, rules), the host order of
  a table and its game id;
- :mod:`carcnet.club.pairing`: who plays whom, at which tables, in which seat order, round by round
  (Swiss or round robin, 2 to 6 seats a table, byes), as the Carcassonne World Championship's rules
  describe it for two-player tables, extended to tables of more;
- :mod:`carcnet.club.standings`: the standings from the results of the games (wins, then the score
  difference, then the Buchholz with the weakest opponent cut), with the sources of each tie-break;
- :mod:`carcnet.club.results`: a table's result from its signed log, checked against the charter;
- :mod:`carcnet.club.ratings`: a rating per player identity key (OpenSkill's Plackett-Luce model),
  updated from rated games only (docs/club.md "What a rated game is");
- :mod:`carcnet.club.review`: a saved game's review by the search bot, for the interface.

And the parts that run: every laptop of an event runs a **server**, :class:`carcnet.club.service.
EventService` (one TCP port on every interface by default, on the table's framing and proven-key
handshake (:mod:`carcnet.club.wire`), answering statuses, the charter, enrolments and counted logs to
anyone on the network who proved a key, within budgets by address and proven role), and
:class:`carcnet.club.runner.EventRunner` opens network tables (:class:`carcnet.table.NetTable`, each
a server of its own) and joins others'; :mod:`carcnet.club.identity` keeps the laptop's identity
key in the user data folder.
"""
