"""Settings, all configured through environment variables.

Embedded default (nothing set): SQLite under var/, a filesystem Celery transport under var/,
console email. Production: DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS, EMAIL_URL,
DEBUG=false.
"""

import os
from pathlib import Path

import dj_database_url
import dj_email_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue as KombuQueue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PORTAL_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def development_secret_key() -> str:
    """Development's secret key: made once per checkout in VAR_DIR and kept there, so that the
    web and the workers sign alike and nobody can forge tokens from a key printed here."""
    path = VAR_DIR / "secret_key"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    import secrets

    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


# Production is the default: development (DEBUG) is asked for explicitly, as `make run` and
# the tests (tests/settings.py) do.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set (the site runs in production unless DEBUG=true)")
    SECRET_KEY = development_secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "allauth",
    "allauth.account",
    "clocks",
    "durable",
    "games",
    "portal.accounts",
    "anymail",
    "portal.delivery",
    "portal.mail",
    "portal.push",
    "portal.webhooks",
    "competitions",
    "ninja",
    "portal.api",
    "portal.feeds",
    "portal.webapp",
    "portal.sharing",
    "portal.reports",
    "portal.players",
    "portal.signals",
    "portal.timeline",
    "portal.chat",
    "portal.lessons",
    "analysis",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "portal.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "portal.accounts.middleware.TimezoneMiddleware",
    "portal.accounts.middleware.LanguageMiddleware",
    "portal.signals.middleware.ClientTraceMiddleware",
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "portal.mail.bounces.failing_banner",
                "portal.context_processors.site_links",
                "games.csrf.once",  # (Django's token, masked once per request)
            ],
        },
    },
    {   # a few hot lists, rendered into Django-rendered pages (portal/jinja2.py says why)
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates_jinja"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "portal.jinja2.environment",
                    "context_processors": ["portal.jinja2.locale", "games.csrf.once"]},
    },
]

# --- database -------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'portal.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=600, conn_health_checks=True)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE"}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The planner's default cost of a random page read (4, for spinning disks) made it read
    # all of a player's seats (every finished match of theirs) for "my matches" rather than
    # look up the site's current matches' seats by index; 1.1 is the usual figure for data
    # on SSD or in memory (docs/benchmarks.md has the plans). POSTGRES_RANDOM_PAGE_COST sets
    # it, empty leaves the server's.
    # The statements games/prepared.py prepares in the session (server_side) are planned
    # once for any values: PostgreSQL's default keeps planning them again for each call's
    # values, which is what preparing them is meant to save. (Django itself prepares none.)
    _session = ["-c plan_cache_mode=force_generic_plan"]
    _page_cost = os.environ.get("POSTGRES_RANDOM_PAGE_COST", "1.1")
    if _page_cost:
        _session.append(f"-c random_page_cost={float(_page_cost)}")
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = " ".join(_session)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- celery ---------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # "priority": a worker takes from its queues in their order (lifecycle first, below)
    # instead of Redis's default round robin.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": 3600,
                                             "queue_order_strategy": "priority"}
else:
    # The embedded default: a broker made of folders, shared by web, worker and beat. kombu's
    # filesystem transport let a reader take a message its writer had not finished (the worker
    # died on it: JSONDecodeError); portal.broker's writes each message whole, then renames it
    # in. Remote control is off: its broadcasts go through a shared file that kombu rewrites
    # in place, and nothing here uses it (docs/operating.md, "The embedded broker").
    _broker_dir = VAR_DIR / "celery-broker"
    CELERY_BROKER_URL = "filesystem://localhost/"  # (a host named: kombu warns without one)
    CELERY_BROKER_TRANSPORT = "portal.broker:Transport"
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "celery-processed"),
        "store_processed": False,
        "control_folder": str(VAR_DIR / "celery-control"),
    }
    _broker_dir.mkdir(parents=True, exist_ok=True)  # a fresh checkout has no var/ yet
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Two queues, both consumed by every worker (none is named with -Q): "lifecycle" holds the work
# players wait for (resolving a phase, a gameday tick, a bot's move, the sweeper that queues
# them) and is taken first; everything else (notifications, mail, push, competitions) goes to
# the default queue. A backlog of mail never delays the next phase; a deployment may also run a
# worker of its own for each (-Q lifecycle / -Q celery).
CELERY_TASK_QUEUES = (KombuQueue("lifecycle", routing_key="lifecycle"),
                      KombuQueue("celery", routing_key="celery"))
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {name: {"queue": "lifecycle"} for name in (
    "games.tasks.resolve_phase", "games.tasks.resolve_phases", "games.tasks.gameday_tick",
    "games.tasks.bot_submit", "games.tasks.deadlines_sweep")}
# Celery's Django fixup closes the database connection before and after every task unless
# this is set (CONN_MAX_AGE is not read): a new PostgreSQL connection per task cost each
# resolution ~35 ms. The worker closes connections as Django does around a request instead
# (portal.celery: close_old_connections, so CONN_MAX_AGE and the health checks apply).
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
SWEEP_INTERVAL_SECONDS = float(os.environ.get("SWEEP_INTERVAL_SECONDS", "5"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.deadlines_sweep", "schedule": SWEEP_INTERVAL_SECONDS},
    "sweep-reliability": {"task": "games.tasks.reliability_sweep", "schedule": 300},
}
# Votes to end a match (docs/votes.md): how long a proposal stays open, and how often beat
# expires the ones whose time ran out (telling every player).
VOTE_EXPIRY_HOURS = float(os.environ.get("VOTE_EXPIRY_HOURS", "48"))
VOTE_SWEEP_SECONDS = float(os.environ.get("VOTE_SWEEP_SECONDS", "60"))
CELERY_BEAT_SCHEDULE["expire-votes"] = {"task": "games.tasks.votes_expire",
                                        "schedule": VOTE_SWEEP_SECONDS}

# --- cache ----------------------------------------------------------------------------
# Rate limits (API tokens, log-in and sign-up) count in the cache, so every process must share
# it; it also keeps rendered pieces that never change (a resolved phase's board and report,
# games.pagecache) and, when shared, the sessions. CACHE_URL (e.g. redis://host:6379/1) gives it
# a Redis database of its own — production should (docker/compose.yml does): a cache clear
# empties its whole database, which must not be the broker's. Without it the cache shares
# REDIS_URL's database under its key prefix; without Redis the embedded default's single
# process keeps it in memory.
CACHE_URL = os.environ.get("CACHE_URL", "") or REDIS_URL
if CACHE_URL:
    CACHES = {"default": {"BACKEND": "portal.cache.RedisCache",  # Django's, a client kept
                          "LOCATION": CACHE_URL, "KEY_PREFIX": "portal"}}
    # Sessions read from the cache, written through to the database (nothing lost with it).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                          "LOCATION": "portal", "OPTIONS": {"MAX_ENTRIES": 1000}}}

# --- auth -----------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
# In development the "check your mail" page also shows the verification link (the adapter).
ACCOUNT_ADAPTER = "portal.accounts.adapter.AccountAdapter"
# Confirming one's address (in the browser that signed up) logs one in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False
# Log-in and sign-up throttling: django-allauth's own rate limits (counted in the cache above).
# A failed log-in counts per address and per account; an exceeded limit answers 429.
ACCOUNT_RATE_LIMITS = {
    "login_failed": os.environ.get("LOGIN_FAILED_RATE", "10/m/ip,5/5m/key"),
    "login": os.environ.get("LOGIN_RATE", "30/m/ip"),
    "signup": os.environ.get("SIGNUP_RATE", "5/h/ip"),
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
}

# --- email ----------------------------------------------------------------------------
EMAIL_URL = os.environ.get("EMAIL_URL", "")
if EMAIL_URL:
    # smtp://user:pass@host:port, console:, dummy:, ... (dj-email-url gives EMAIL_* keys)
    globals().update(dj_email_url.parse(EMAIL_URL))
else:
    # One line per mail with its links (EMAIL_URL=console: prints whole messages).
    EMAIL_BACKEND = "portal.mail.console.SummaryEmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tank Portal <portal@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- i18n / time ----------------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
# The site's languages (a choice in the profile and the page footer). Pages not translated yet
# stay English; every new string goes through gettext (locale/<lang>/LC_MESSAGES, .mo committed).
LANGUAGES = [("en-gb", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# Date formats per language over Django's (portal/formats): templates name them.
FORMAT_MODULE_PATH = ["portal.formats"]

# --- static ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- security (production) ------------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# Behind reverse proxies (a TLS terminator, a load balancer) the client's address is the
# X-Forwarded-For entry the outermost of the TRUSTED_PROXY_COUNT proxies added; with none
# (0, the default) it is REMOTE_ADDR and X-Forwarded-For is ignored, so nobody can choose the
# address their log-in and sign-up attempts are counted against.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))

# Content-Security-Policy (django-csp): scripts only from our own static files (no inline script,
# no inline handler, no eval). Inline style attributes stay allowed: SVG boards and htmx's
# indicator styles use them, and a style cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- API (portal.api) and calendar feeds (portal.feeds) ----------------------------------
# Requests per API token (django-ninja's throttle, counted in the cache): "<n>/<s|m|h|d>".
API_RATE_LIMIT = os.environ.get("API_RATE_LIMIT", "120/m")

# --- games ----------------------------------------------------------------------------
# The games this site offers, one line each: the name of the game's engine package
# (engine/<name>/, its rules) and, when it has one, of its web package (games/<name>/, its pages,
# panels and mail parts). A game with no web package is played through the generic pages.
INSTALLED_GAMES = [
    "final_act",
    "tank_game",
    "final_strategy",
    "panzer_squadron",
]
# The game of `manage.py demo_setup`'s matches (the first installed one if it is not).
DEMO_GAME = os.environ.get("DEMO_GAME", "final-act")
# Extra modules that register engine games and plug-ins (tests add tiny toy games this way).
ENGINE_EXTRA_GAMES = env_list("ENGINE_EXTRA_GAMES")
# After this many failed attempts a phase's resolution is quarantined for admins.
RESOLVE_MAX_ATTEMPTS = int(os.environ.get("RESOLVE_MAX_ATTEMPTS", "5"))
# A sweeper gap longer than this means the system was down: deadlines that passed in the gap
# are extended by the gap instead of being resolved as missed.
SWEEP_OUTAGE_SECONDS = float(os.environ.get("SWEEP_OUTAGE_SECONDS", "600"))
# A match the sweeper queued is not queued again for this long (its task may wait in a backlog);
# after it, the claim is taken as lost.
SWEEP_CLAIM_SECONDS = float(os.environ.get("SWEEP_CLAIM_SECONDS", "60"))
# The outbox (durable.outbox: the lifecycle's side effects, message notices, received mail) is
# a kind of durable work (durable.queue), with the keys every kind has: OUTBOX_<KEY>, else
# DURABLE_<KEY> (below). A row still undone this long after it was due is dispatched again
# by the sweeper (its dispatch was lost) ...
OUTBOX_GRACE_SECONDS = float(os.environ.get("OUTBOX_GRACE_SECONDS", "30"))
# ... and a row claimed longer ago than this is taken as lost (its worker died).
OUTBOX_LEASE_SECONDS = float(os.environ.get("OUTBOX_LEASE_SECONDS", str(OUTBOX_GRACE_SECONDS)))
# A row whose carrying out fails is tried again after 10 s, 20 s, 40 s ... and left for the
# admins (failed) after its fifth attempt.
OUTBOX_MAX_ATTEMPTS = int(os.environ.get("OUTBOX_MAX_ATTEMPTS", "5"))
OUTBOX_RETRY_BASE_SECONDS = float(os.environ.get("OUTBOX_RETRY_BASE_SECONDS", "10"))
OUTBOX_MAX_BACKOFF_SECONDS = float(os.environ.get("OUTBOX_MAX_BACKOFF_SECONDS", "600"))
# Outbox rows per dispatch task the sweeper and the relay's catch-up queue (read and queued a
# batch at a time, so a backlog of any size takes bounded memory).
OUTBOX_BATCH_SIZE = int(os.environ.get("OUTBOX_BATCH_SIZE", "200"))
OUTBOX_SWEEP_SECONDS = 4 * SWEEP_INTERVAL_SECONDS
# Outbox rows a dispatcher carries out in one transaction (those of one signal together, in a
# savepoint, their listeners reading and writing for all of them at once): one commit, and
# one flush of the mail and push outboxes, per this many rows (docs/relay.md).
OUTBOX_COMMIT_ROWS = int(os.environ.get("OUTBOX_COMMIT_ROWS", "100"))
# On PostgreSQL the outbox relay (durable/relay.py, run by every Celery worker; one of them
# leads) queues the dispatch of outbox rows when their transaction commits, so the lifecycle's
# transactions publish nothing themselves. Off, or on another database, each transaction
# queues its own on commit.
OUTBOX_RELAY = env_bool("OUTBOX_RELAY", True)
# How often a worker whose relay does not lead checks whether the leader went away.
OUTBOX_RELAY_RETRY_SECONDS = float(os.environ.get("OUTBOX_RELAY_RETRY_SECONDS", "2"))
# A complete phase still unresolved after this long is re-queued by the sweeper (lost task).
SWEEP_COMPLETE_GRACE_SECONDS = float(
    os.environ.get("SWEEP_COMPLETE_GRACE_SECONDS", str(2 * SWEEP_INTERVAL_SECONDS))
)

# --- moderation and vacation ----------------------------------------------------------
# Moderators' deadline extensions: at most this many hours per phase, and per match in all.
MODERATION_EXTEND_MAX_PHASE_HOURS = float(os.environ.get("MODERATION_EXTEND_MAX_PHASE_HOURS",
                                                         "168"))
MODERATION_EXTEND_MAX_MATCH_HOURS = float(os.environ.get("MODERATION_EXTEND_MAX_MATCH_HOURS",
                                                         "720"))
# Each player's vacation bank (days per calendar year) and how far one phase's deadline may
# be moved by leave (days, all leaves together).
VACATION_DAYS_PER_YEAR = int(os.environ.get("VACATION_DAYS_PER_YEAR", "21"))
VACATION_MAX_PHASE_DAYS = float(os.environ.get("VACATION_MAX_PHASE_DAYS", "14"))

# --- play by email (portal.mail) -------------------------------------------------------
# Replies to phase emails go to <MAIL_REPLY_LOCALPART>+<signed token>@<MAIL_REPLY_DOMAIN>.
MAIL_REPLY_DOMAIN = os.environ.get("MAIL_REPLY_DOMAIN", "localhost")
MAIL_REPLY_LOCALPART = os.environ.get("MAIL_REPLY_LOCALPART", "play")
MAIL_TOKEN_MAX_AGE_DAYS = int(os.environ.get("MAIL_TOKEN_MAX_AGE_DAYS", "120"))
# The site's address in mails and feeds. Development's default is where `make run` serves it
# (127.0.0.1, as the terminal says; PORTAL_PORT, else 8000).
SITE_URL = os.environ.get(
    "SITE_URL", f"http://127.0.0.1:{os.environ.get('PORTAL_PORT') or 8000}").rstrip("/")
MAIL_MAX_INBOUND_BYTES = int(os.environ.get("MAIL_MAX_INBOUND_BYTES", str(512 * 1024)))
# A received e-mail the receiving process handles itself (the MTA pipe, the maildir) is
# processed by a worker only if it is still waiting this long after (that process died).
MAIL_INBOUND_BACKSTOP_SECONDS = float(os.environ.get("MAIL_INBOUND_BACKSTOP_SECONDS", "300"))
# Replies read per reply token (match, seat, phase, player) and hour; a From header proves
# nothing, so the cap is counted against the token, never against the sender's address.
MAIL_SEAT_HOURLY_CAP = int(os.environ.get("MAIL_SEAT_HOURLY_CAP", "30"))
# Answers (receipts and refusals) mailed to one address per hour: a bound on backscatter.
MAIL_ANSWERS_PER_ADDRESS_HOURLY = int(os.environ.get("MAIL_ANSWERS_PER_ADDRESS_HOURLY", "10"))
# authserv-ids of the mail servers whose Authentication-Results headers we trust (ours, or the
# ESP's); empty: only the topmost such header, which the last server to receive it added.
MAIL_AUTHSERV_IDS = env_list("MAIL_AUTHSERV_IDS")
# How the mail channel retries (see DELIVERY_* below for the rest).
MAIL_MAX_ATTEMPTS = int(os.environ.get("MAIL_MAX_ATTEMPTS", "8"))
MAIL_RETRY_BASE_SECONDS = float(os.environ.get("MAIL_RETRY_BASE_SECONDS", "30"))
MAIL_MAX_BACKOFF_SECONDS = float(os.environ.get("MAIL_MAX_BACKOFF_SECONDS", str(6 * 3600)))
MAIL_REMINDER_SWEEP_SECONDS = float(os.environ.get("MAIL_REMINDER_SWEEP_SECONDS", "300"))
MAIL_DIGEST_HOUR_UTC = int(os.environ.get("MAIL_DIGEST_HOUR_UTC", "6"))
# A player gets at most one "gameday has begun" mail per match in this time (gamedays every few
# minutes, as in a quick game against the bot, would otherwise mail at every one).
GAMEDAY_MAIL_MIN_HOURS = float(os.environ.get("GAMEDAY_MAIL_MIN_HOURS", "6"))
ANYMAIL = {"WEBHOOK_SECRET": os.environ["ANYMAIL_WEBHOOK_SECRET"]} if os.environ.get(
    "ANYMAIL_WEBHOOK_SECRET"
) else {}
# The ESP webhooks (/mail/anymail/: received mail, bounces, complaints). With DEBUG off the site
# refuses to start while they are on without ANYMAIL_WEBHOOK_SECRET (check mail.E001); turn them
# off where mail arrives by the MTA pipe or a maildir only.
INBOUND_WEBHOOKS = env_bool("INBOUND_WEBHOOKS", True)
CELERY_BEAT_SCHEDULE.update(
    {
        "mail-reminders": {
            "task": "portal.mail.tasks.reminders_send",
            "schedule": MAIL_REMINDER_SWEEP_SECONDS,
        },
        "mail-digest": {
            "task": "portal.mail.tasks.digests_send",
            "schedule": crontab(hour=MAIL_DIGEST_HOUR_UTC, minute=0),
        },
    }
)

# --- messages between the players (portal.chat, docs/messages.md) ---------------------------
# Messages one seat may send a minute.
CHAT_MESSAGES_PER_MINUTE = int(os.environ.get("CHAT_MESSAGES_PER_MINUTE", "10"))
# A channel's readers are told of new messages once for all those of a few minutes: the first
# waits this long for the rest of the conversation, and two notices of one channel are at
# least CHAT_NOTIFY_INTERVAL_SECONDS apart.
CHAT_NOTIFY_GATHER_SECONDS = float(os.environ.get("CHAT_NOTIFY_GATHER_SECONDS", "60"))
CHAT_NOTIFY_INTERVAL_SECONDS = float(os.environ.get("CHAT_NOTIFY_INTERVAL_SECONDS", "300"))
# How often an open messages panel asks for news.
CHAT_POLL_SECONDS = float(os.environ.get("CHAT_POLL_SECONDS", "5"))

# --- the delivery pipeline (portal.delivery): every way out (mail, push, webhooks) -----------
# Each channel reads <CHANNEL>_<KEY> if set (MAIL_BATCH_SIZE, PUSH_MAX_ATTEMPTS, ...), else
# DELIVERY_<KEY>. Rows a worker claims and sends before recording them (over one SMTP
# connection, one HTTP session):
DELIVERY_BATCH_SIZE = int(os.environ.get("DELIVERY_BATCH_SIZE", "100"))
DELIVERY_MAX_ATTEMPTS = int(os.environ.get("DELIVERY_MAX_ATTEMPTS", "6"))
DELIVERY_RETRY_BASE_SECONDS = float(os.environ.get("DELIVERY_RETRY_BASE_SECONDS", "30"))
DELIVERY_MAX_BACKOFF_SECONDS = float(os.environ.get("DELIVERY_MAX_BACKOFF_SECONDS", "3600"))
# A batch's rows are sent by a thread of their own, up to SEND_AHEAD rows ahead of their record;
# the rows sent while one group was recorded are recorded together, gathered for up to
# GATHER_SECONDS (fewer round trips to the database). A worker killed mid-batch sends at most
# twice SEND_AHEAD rows again, after their lease (a mail goes with the same Message-ID).
DELIVERY_SEND_AHEAD = int(os.environ.get("DELIVERY_SEND_AHEAD", "8"))
DELIVERY_GATHER_SECONDS = float(os.environ.get("DELIVERY_GATHER_SECONDS", "0.02"))
# A claimed row still sending after this long is taken as lost (its worker died) and sent again.
DELIVERY_LEASE_SECONDS = float(os.environ.get("DELIVERY_LEASE_SECONDS", "600"))
# How often the sweeper queues a flush where rows are due (lost tasks, retries, lost leases).
DELIVERY_SWEEP_SECONDS = float(os.environ.get("DELIVERY_SWEEP_SECONDS", "60"))
DELIVERY_GRACE_SECONDS = 0.0

# --- durable work (durable.queue): what every kind reads when it sets no <KIND>_<KEY> ----------
DURABLE_BATCH_SIZE = 100
DURABLE_MAX_ATTEMPTS = 6
DURABLE_RETRY_BASE_SECONDS = 30.0
DURABLE_MAX_BACKOFF_SECONDS = 3600.0
DURABLE_LEASE_SECONDS = 600.0
DURABLE_GRACE_SECONDS = 0.0
DURABLE_SWEEP_SECONDS = 60.0
# One beat entry sweeps every kind (durable.sweep), as often as the most frequent asks; each
# kind when its own interval has passed.
CELERY_BEAT_SCHEDULE["sweep-durable-work"] = {
    "task": "durable.tasks.sweep", "schedule": min(OUTBOX_SWEEP_SECONDS, DELIVERY_SWEEP_SECONDS)}

# --- requests to URLs that users gave (portal.outbound) -----------------------------------
# Tests and development only: such a URL may reach loopback addresses (a local stand-in) on any
# port. Never with DEBUG off (also a system check).
OUTBOUND_ALLOW_LOOPBACK = env_bool("OUTBOUND_ALLOW_LOOPBACK", False)
if OUTBOUND_ALLOW_LOOPBACK and not DEBUG:
    raise ImproperlyConfigured("OUTBOUND_ALLOW_LOOPBACK must be off when DEBUG is off")
# A PEM file of CAs to verify those servers' certificates with, instead of the default bundle.
OUTBOUND_CA_BUNDLE = os.environ.get("OUTBOUND_CA_BUNDLE", "").strip()

# --- web push (portal.push) ----------------------------------------------------------
# The VAPID private key (base64url of the raw 32 bytes; `manage.py push_vapid_keys` makes one).
# Without it push is off, unless VAPID_GENERATE (on with DEBUG) makes one in VAR_DIR.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_GENERATE = env_bool("VAPID_GENERATE", DEBUG)
VAPID_KEY_FILE = Path(os.environ.get("VAPID_KEY_FILE", VAR_DIR / "vapid-private-key.txt"))
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@localhost")
# Push endpoints must be https on port 443 at a global address of one of these push services
# (Chrome and other Chromium browsers, Firefox, Edge, Safari); "*" allows any public host.
PUSH_ENDPOINT_HOSTS = env_list(
    "PUSH_ENDPOINT_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,*.push.apple.com")
PUSH_MAX_ATTEMPTS = int(os.environ.get("PUSH_MAX_ATTEMPTS", "6"))
PUSH_RETRY_BASE_SECONDS = float(os.environ.get("PUSH_RETRY_BASE_SECONDS", "30"))
PUSH_MAX_BACKOFF_SECONDS = float(os.environ.get("PUSH_MAX_BACKOFF_SECONDS", "3600"))
PUSH_TIMEOUT_SECONDS = float(os.environ.get("PUSH_TIMEOUT_SECONDS", "10"))
# Webhooks (portal/webhooks, docs/webhooks.md): posted by the delivery pipeline; a target is
# turned off after this many failed posts in a row (its owner is told).
WEBHOOK_BATCH_SIZE = int(os.environ.get("WEBHOOK_BATCH_SIZE", "100"))
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "6"))
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", "30"))
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "10"))
WEBHOOK_DISABLE_AFTER_FAILURES = int(os.environ.get("WEBHOOK_DISABLE_AFTER_FAILURES", "10"))
CELERY_BEAT_SCHEDULE.update(
    {
        "push-reminders": {
            "task": "portal.push.tasks.reminders_push",
            "schedule": MAIL_REMINDER_SWEEP_SECONDS,
        },
    }
)

# Competitions: the sweeper starts due tournaments and rounds' ends, and catches up results.
COMPETITIONS_SWEEP_SECONDS = float(
    os.environ.get("COMPETITIONS_SWEEP_SECONDS", str(SWEEP_INTERVAL_SECONDS * 6))
)
CELERY_BEAT_SCHEDULE["competitions-sweep"] = {
    "task": "competitions.tasks.sweep", "schedule": COMPETITIONS_SWEEP_SECONDS,
}

# Signals for moderators (portal.signals, docs/moderation.md): a login's or a submission's
# network (/24, /48) and device cookie are kept this many days, then deleted by beat (daily);
# beat looks for signals in the matches played lately every SIGNALS_SCAN_SECONDS.
TRACE_RETENTION_DAYS = int(os.environ.get("TRACE_RETENTION_DAYS", "90"))
SIGNALS_SCAN_SECONDS = float(os.environ.get("SIGNALS_SCAN_SECONDS", "900"))
CELERY_BEAT_SCHEDULE["signals-traces-prune"] = {
    "task": "portal.signals.tasks.traces_prune", "schedule": crontab(hour=3, minute=30)}
CELERY_BEAT_SCHEDULE["signals-scan"] = {
    "task": "portal.signals.tasks.signals_scan", "schedule": SIGNALS_SCAN_SECONDS}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
