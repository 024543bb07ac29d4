#!/usr/bin/env bash
# Runs a command with the services Latchkey's tests use, all private to this run and removed afterwards:
#  - a throwaway PostgreSQL cluster on 127.0.0.1 (LATCHKEY_TEST_POSTGRES holds its libpq conninfo);
#  - a private D-Bus session bus with an unlocked gnome-keyring-daemon (Secret Service), in a throwaway HOME
#    for the keyring only (LATCHKEY_TEST_SECRET_SERVICE=1).
# Usage: scripts/with-services.sh COMMAND [ARGS...]
set -euo pipefail

WORK=$(mktemp -d /tmp/latchkey-services.XXXXXX)
chmod 755 "$WORK"
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
PG_PORT=""

cleanup() {
    if [ -n "$PG_PORT" ] && [ -n "$PG_BIN" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

as_pg() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

if [ -n "$PG_BIN" ]; then
    install -d -m 700 "$WORK/pg"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$WORK/pg"
    PG_PORT=$(free_port)
    as_pg "$PG_BIN/initdb" -D "$WORK/pg/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1
    as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $WORK/pg -c max_connections=200 -c fsync=off" start >/dev/null
    export LATCHKEY_TEST_POSTGRES="host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres"
    echo "with-services: PostgreSQL on 127.0.0.1:$PG_PORT"
else
    echo "with-services: PostgreSQL not installed" >&2
fi

export LATCHKEY_SERVICES_WORK="$WORK"
if command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
    exec 3>&1
    dbus-run-session -- "$(dirname "$0")/keyring-session.sh" "$@"
else
    echo "with-services: dbus-run-session or gnome-keyring-daemon missing" >&2
    "$@"
fi
