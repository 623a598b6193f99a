"""Settings for the test suite: fast hashing, no HTTPS redirects, an in-memory database."""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-" + "x" * 40)
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
