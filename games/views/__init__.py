"""Match pages. Views are a few lines: parse with a form, call one service, render."""
