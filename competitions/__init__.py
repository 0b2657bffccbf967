"""Clubs, ladders and tournaments on top of the match lifecycle (see docs/competitions.md).

``competitions.pairing`` and ``competitions.bracket`` are pure (no Django); the rest is a Django
app whose services create ordinary matches and react to their results.
"""
