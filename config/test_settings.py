"""Settings for the test suite: fast hashing, no HTTPS redirects, a throw-away database."""

import os
import tempfile
from pathlib import Path

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

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file in the temporary directory (one per test process; pytest-xdist adds its worker's
    # name), not SQLite's shared in-memory cache: there a connection meeting another's write
    # fails at once with "database table is locked", while a file's connections wait for each
    # other as on a club server. The browser tests' live server answers from its own threads,
    # each with its own connection. Nothing needs to survive a crash: no sync to disk.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(Path(tempfile.gettempdir()) / f"campaign-desk-test-{os.getpid()}.sqlite3")
    }
    DATABASES["default"]["OPTIONS"]["init_command"] = (  # noqa: F405
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF"
    )
