"""Email settings from one URL in the environment, e.g. ``smtp://user:pass@host:587/?tls=1``.

Schemes: ``smtp`` (``?tls=1`` for STARTTLS, ``?ssl=1`` for implicit TLS), ``smtps`` (implicit
TLS), ``consolemail`` (print messages to the server's output), ``locmemmail`` (keep them in
memory, for tests) and ``dummymail`` (drop them). User name and password are percent-decoded,
so a password may hold ``@`` or ``:`` written as ``%40`` and ``%3A``.
"""

from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SMTP = "django.core.mail.backends.smtp.EmailBackend"
BACKENDS = {
    "consolemail": "django.core.mail.backends.console.EmailBackend",
    "locmemmail": "django.core.mail.backends.locmem.EmailBackend",
    "dummymail": "django.core.mail.backends.dummy.EmailBackend",
}
TRUE = {"1", "true", "yes", "on"}


def parse_email_url(url: str) -> dict[str, object]:
    """The Django EMAIL_* settings the URL names; raises ImproperlyConfigured when it is wrong."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme in BACKENDS:
        return {"EMAIL_BACKEND": BACKENDS[scheme]}
    if scheme not in {"smtp", "smtps"}:
        known = ", ".join(sorted({"smtp", "smtps", *BACKENDS}))
        raise ImproperlyConfigured(f"EMAIL_URL: unknown scheme {scheme!r} (known: {known}).")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    use_ssl = scheme == "smtps" or query.get("ssl", "").lower() in TRUE
    use_tls = query.get("tls", "").lower() in TRUE
    if use_ssl and use_tls:
        raise ImproperlyConfigured("EMAIL_URL: choose tls (STARTTLS) or ssl, not both.")
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL: an SMTP URL needs a host.")
    try:
        port = parts.port
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL: {error}.") from None
    settings: dict[str, object] = {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if use_ssl else 587 if use_tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }
    if "timeout" in query:
        try:
            settings["EMAIL_TIMEOUT"] = int(query["timeout"])
        except ValueError:
            raise ImproperlyConfigured("EMAIL_URL: timeout must be a number of seconds.") from None
    return settings
