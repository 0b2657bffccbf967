"""The analysis board: play every side of a position freely, step back, branch, share."""
