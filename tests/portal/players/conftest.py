from tests.competitions.conftest import finish, players, run_signals  # noqa: F401
