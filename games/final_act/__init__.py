"""Final Act on the web: the board, the order sheet panel and the setup form."""
