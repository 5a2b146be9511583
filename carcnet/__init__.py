"""carcnet: Carcassonne for the terminal, played peer to peer on a LAN."""

__version__ = "0.1.0"
