# A moment with its date (history, logs, votes): "29 Nov 2026, 14:05 UTC".
DATETIME_FORMAT = "j M Y, H:i T"
# A near moment (a deadline in a list): "Sun 29 Nov, 14:05 UTC".
SHORT_DATETIME_FORMAT = "D j M, H:i T"
