"""Clubs, ladders and tournaments on top of the match lifecycle (see README, "Competitions").

``competitions.pairing`` and ``competitions.bracket`` are pure (no Django); the rest is a Django
app whose services create ordinary matches and react to their results.
"""
