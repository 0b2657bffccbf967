from tests.portal.builders import fast_password_hashing  # noqa: F401  (autouse)

# The real SMTP server and local push service of the mail and push tests.
from tests.portal.mail.conftest import eager, mailboxes, smtp_server  # noqa: F401
from tests.portal.push.conftest import push_service, push_service_session, subscribe  # noqa: F401
