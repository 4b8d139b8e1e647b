"""The web container's health check (docker-compose.yml): `python -m config.healthcheck`.

gunicorn is reached only through the proxy, so the check asks it as the proxy would: with the
site's own host name (the first of DJANGO_ALLOWED_HOSTS; any other is refused) and the proxy's
X-Forwarded-Proto (believed because DJANGO_NUM_PROXIES says a proxy is in front), so the answer is
/healthz itself rather than a redirect to https. Exit 0 when it answers 200."""

import http.client
import os
import sys


def main() -> int:
    host = (os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost").split(",")[0].strip()
            or "localhost").lstrip(".")
    port = int(os.environ.get("HEALTHCHECK_PORT", "8000"))
    # docker-compose.yml gives the check 5 s; a test on a busy machine gives it longer.
    timeout = float(os.environ.get("HEALTHCHECK_TIMEOUT", "5"))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/healthz", headers={"Host": host, "X-Forwarded-Proto": "https"})
        status = connection.getresponse().status
    except OSError as error:
        print(f"The health page did not answer: {error}", file=sys.stderr)
        return 1
    finally:
        connection.close()
    if status != 200:
        print(f"The health page answered {status}", file=sys.stderr)
    return 0 if status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
