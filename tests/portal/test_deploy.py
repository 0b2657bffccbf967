"""The production configuration passes Django's deployment checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

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


def test_production_refuses_to_start_with_open_mail_webhooks():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "ANYMAIL_WEBHOOK_SECRET"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "mail.E001" in result.stderr
    assert manage("check", env={**env, "INBOUND_WEBHOOKS": "false"}).returncode == 0
