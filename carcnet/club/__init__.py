"""Club night (issue 34): the parts of a tournament every laptop computes alike, from the same inputs.

- :mod:`carcnet.club.pairing`: who plays whom, at which tables, in which seat order, round by round
  (Swiss or round robin, 2 to 6 seats a table, byes), as the Carcassonne World Championship's rules
  describe it for two-player tables, extended to tables of more;
- :mod:`carcnet.club.standings`: the standings from the results of the games (wins, then the score
  difference, then the Buchholz with the weakest opponent cut), with the sources of each tie-break;
- :mod:`carcnet.club.ratings`: a rating per player identity key (OpenSkill's Plackett-Luce model),
  updated from signed logs that verify, and nothing else.

Pure computations over values: no clock, no network, no global randomness (the first round's lots
come from the event's id, so that every laptop draws the same). Player ids are strings (an identity
key in hex, or ``bot:<level>``); every order that matters is an explicit sort.
"""
