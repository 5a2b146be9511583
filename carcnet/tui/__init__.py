"""The terminal interface (Textual). :mod:`carcnet.tui.render` is pure and imports no Textual."""
