#!/usr/bin/env bash
# Inside a private D-Bus session: start gnome-keyring-daemon unlocked, wait until it owns the bus name, run "$@".
set -euo pipefail
KEYRING_HOME="$LATCHKEY_SERVICES_WORK/keyring-home"
mkdir -p "$KEYRING_HOME/.local/share/keyrings"
eval "$(printf '%s' latchkey-test | HOME="$KEYRING_HOME" XDG_DATA_HOME="$KEYRING_HOME/.local/share" \
    gnome-keyring-daemon --components=secrets --daemonize --unlock)"
export GNOME_KEYRING_CONTROL
for _ in $(seq 1 100); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; then
        export LATCHKEY_TEST_SECRET_SERVICE=1
        echo "with-services: Secret Service on the private session bus"
        break
    fi
    sleep 0.05
done
"$@"
