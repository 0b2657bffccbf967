"""Time that respects players: correspondence clocks and active hours.

``arithmetic`` is the pure part (no Django: windows, charging, expiries, moved deadlines);
``models`` keeps each player's active hours; ``services`` builds a phase's clocks for the
lifecycle (``games.services``) and reads them for pages and e-mails.
"""
