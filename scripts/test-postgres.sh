#!/usr/bin/env bash
# Run the test suite against a throw-away PostgreSQL server (Debian's `postgresql` package):
# a fresh cluster in a temporary directory, listening on 127.0.0.1 only, on a free port; stopped
# and deleted afterwards, also when the tests fail or the run is interrupted.
#
#   scripts/test-postgres.sh [pytest arguments...]
#
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user (which the
# package creates); otherwise as the current user. The tests themselves run as the caller.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}

# Debian keeps the server programs out of PATH, one directory per major version.
bindir=${PG_BINDIR:-$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null \
  | sort -V | tail -n 1)}
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL's server programs are missing: install Debian's postgresql package" \
    "(scripts/system-deps.sh test does, as root), or set PG_BINDIR." >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "No postgres user to run the server as." >&2; exit 1; }
  cluster=$(mktemp -d /tmp/campaign-desk-pg.XXXXXX)
  chown postgres: "$cluster"
  as_server() { (cd "$cluster" && runuser -u postgres -- "$@"); }
else
  cluster=$(mktemp -d "${TMPDIR:-/tmp}/campaign-desk-pg.XXXXXX")
  as_server() { "$@"; }
fi
data=$cluster/data
cleanup() {
  status=$?
  trap - EXIT INT TERM
  if [ -f "$data/postmaster.pid" ]; then
    as_server "$bindir/pg_ctl" stop --pgdata="$data" --mode=immediate --silent >/dev/null 2>&1 \
      || true
  fi
  rm -rf "$cluster"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

user=campaign_desk
password=$("$PYTHON" -c 'import secrets; print(secrets.token_hex(16))')
# Written by the server's user, read by initdb, removed at once.
as_server sh -c 'umask 077 && cat > "$1"' sh "$cluster/pwfile" <<<"$password"
as_server "$bindir/initdb" --pgdata="$data" --username="$user" --pwfile="$cluster/pwfile" \
  --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$cluster/initdb.log" 2>&1 \
  || { cat "$cluster/initdb.log" >&2; exit 1; }
rm -f "$cluster/pwfile"

# A free loopback port; another program could take it before the server does, so try again then.
for attempt in 1 2 3 4 5; do
  port=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0));
print(s.getsockname()[1])')
  # Durability is of no use to a database thrown away after the run; speed is.
  if as_server "$bindir/pg_ctl" start --pgdata="$data" --wait --timeout=60 --silent \
    --log="$cluster/server.log" \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$cluster'" \
    -o "-c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    >/dev/null; then
    break
  fi
  [ "$attempt" -eq 5 ] && { cat "$cluster/server.log" >&2; exit 1; }
done

export PGPASSWORD=$password
"$bindir/createdb" --host=127.0.0.1 --port="$port" --username="$user" campaign_desk
unset PGPASSWORD
export DATABASE_URL="postgres://$user:$password@127.0.0.1:$port/campaign_desk"

# Make sure the settings really pick this server, so a green run cannot be SQLite in disguise.
DJANGO_SETTINGS_MODULE=config.test_settings "$PYTHON" -c '
import django
django.setup()
from django.db import connection
assert connection.vendor == "postgresql", connection.vendor
with connection.cursor() as cursor:
    cursor.execute("SHOW server_version")
    print("Running the tests on PostgreSQL", cursor.fetchone()[0], "at 127.0.0.1:" + str(connection.settings_dict["PORT"]))
'

"$PYTHON" -m pytest "$@"
