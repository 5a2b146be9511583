"""The screens of the carcnet interface."""
