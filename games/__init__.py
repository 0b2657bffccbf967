"""Matches, seats, phases, sealed submissions and the turn lifecycle, for every engine game."""
