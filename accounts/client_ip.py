from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The address sign-in throttling counts failures against.

    Behind the club server's TLS proxy every request comes from the proxy itself, so the proxy's
    view of the client is used: the last X-Forwarded-For entry, the one our own proxy appended
    (entries before it are whatever the client sent, and cannot be trusted).
    """
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR", "")
