from tests.portal.builders import fast_password_hashing  # noqa: F401
