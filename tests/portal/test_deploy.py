"""The production configuration passes Django's deployment checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

# Each test starts manage.py in a process of its own: two to four seconds (handed out early).
pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "tanks.example.com",
    "DATABASE_URL": "postgres://portal:secret@db.example.com:5432/portal",
    "REDIS_URL": "redis://redis.example.com:6379/0",
    "EMAIL_URL": "smtp://mailer:secret@smtp.example.com:587/?tls=True",
    "ANYMAIL_WEBHOOK_SECRET": "esp:" + secrets.token_urlsafe(20),
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in PRODUCTION_ENV and k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_passes_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_with_debug_on():
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    env={**PRODUCTION_ENV, "DEBUG": "true"})
    assert result.returncode != 0
    assert "DEBUG" in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_the_site_runs_in_production_unless_development_is_asked_for():
    """Nothing set but a database: production, so without SECRET_KEY the site does not start
    (a forgotten setting must not fall back to a key anyone can read)."""
    result = manage("check", env={"DATABASE_URL": PRODUCTION_ENV["DATABASE_URL"]})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


PRINT_KEY = ("shell", "--no-imports", "-c",
             "from django.conf import settings; print(settings.SECRET_KEY)")


def test_development_makes_a_secret_key_of_its_own_and_keeps_it(tmp_path):
    env = {"DEBUG": "true", "PORTAL_VAR_DIR": str(tmp_path)}
    printed = [manage(*PRINT_KEY, env=env).stdout.strip() for _ in range(2)]
    assert printed[0] == printed[1] == (tmp_path / "secret_key").read_text().strip()
    assert len(printed[0]) >= 50 and "insecure" not in printed[0]
    other = tmp_path / "other"
    again = manage(*PRINT_KEY, env={**env, "PORTAL_VAR_DIR": str(other)}).stdout.strip()
    assert again and again != printed[0]


def test_rate_limits_count_the_address_the_trusted_proxy_saw():
    """Behind one proxy the client's address is the last X-Forwarded-For entry (the proxy's),
    not one the client wrote itself; with no proxy configured the header is ignored."""
    code = ("from django.test import RequestFactory; "
            "from allauth.core.internal.httpkit import get_client_ip; "
            "r = RequestFactory().get('/', REMOTE_ADDR='10.0.0.2', "
            "HTTP_X_FORWARDED_FOR='6.6.6.6, 203.0.113.9'); print(get_client_ip(r))")
    behind = manage("shell", "--no-imports", "-c", code,
                    env={**PRODUCTION_ENV, "TRUSTED_PROXY_COUNT": "1"})
    assert behind.stdout.strip() == "203.0.113.9", behind.stderr
    direct = manage("shell", "--no-imports", "-c", code, env=PRODUCTION_ENV)
    assert direct.stdout.strip() == "10.0.0.2", direct.stderr


def test_production_refuses_to_start_with_open_mail_webhooks():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "ANYMAIL_WEBHOOK_SECRET"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "mail.E001" in result.stderr
    assert manage("check", env={**env, "INBOUND_WEBHOOKS": "false"}).returncode == 0
