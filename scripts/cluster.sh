#!/usr/bin/env bash
# A local Latchkey cluster, the shape a deployment has: one PostgreSQL, N identical `latchkey serve` instances
# (default 3), and nginx balancing across them round-robin. Everything lives in DIR and listens on 127.0.0.1.
#
#   scripts/cluster.sh start DIR [N]        start it; writes DIR/cluster.env (ports, URLs) and prints it
#   scripts/cluster.sh stop DIR             stop everything started in DIR (and remove nothing else)
#   scripts/cluster.sh kill-instance DIR I  SIGKILL instance I (1-based), as a crash would
#   scripts/cluster.sh start-instance DIR I start instance I again
#   scripts/cluster.sh restart-postgres DIR restart PostgreSQL (fast shutdown: open connections break)
#
# Environment: LATCHKEY_BIN (default: the debug build's latchkey), LATCHKEY_CLUSTER_POSTGRES (a libpq URI of an
# existing empty database to use instead of a throwaway cluster), LATCHKEY_CLUSTER_SERVE_ARGS (extra options
# for every instance, e.g. "--refresh-grace 10"). Needs: postgresql, nginx (Debian: nginx-light).
set -euo pipefail

command=${1:-}
DIR=${2:-}
[ -n "$command" ] && [ -n "$DIR" ] || { sed -n '2,14p' "$0"; exit 64; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

as_pg() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

latchkey_bin() {
    if [ -n "${LATCHKEY_BIN:-}" ]; then echo "$LATCHKEY_BIN"; else echo "$ROOT/.build/debug/latchkey"; fi
}

# Starts instance $1 on the port recorded in cluster.env and waits until it listens.
start_instance() {
    local i=$1 port_var="INSTANCE_${1}_PORT"
    local port=${!port_var}
    # shellcheck disable=SC2086
    "$(latchkey_bin)" serve --host 127.0.0.1 --port "$port" --database "$DATABASE_URL" --issuer "$ISSUER" \
        --threads 4 --db-pool 8 --key-reload 2 --trusted-proxy 127.0.0.1 --origin "http://localhost:$NGINX_PORT" --origin "$ISSUER" \
        ${LATCHKEY_CLUSTER_SERVE_ARGS:-} \
        >>"$DIR/instance-$i.log" 2>&1 &
    echo $! >"$DIR/instance-$i.pid"
    for _ in $(seq 1 200); do
        if grep -q "listening on http://127.0.0.1:$port" "$DIR/instance-$i.log" 2>/dev/null; then return 0; fi
        if ! kill -0 "$(cat "$DIR/instance-$i.pid")" 2>/dev/null; then
            echo "cluster: instance $i exited:" >&2; tail -n 20 "$DIR/instance-$i.log" >&2; return 1
        fi
        sleep 0.1
    done
    echo "cluster: instance $i did not start listening" >&2
    return 1
}

case "$command" in
start)
    count=${3:-3}
    command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "cluster: nginx is missing (apt-get install nginx-light)" >&2; exit 69; }
    [ -x "$(latchkey_bin)" ] || { echo "cluster: $(latchkey_bin) missing (swift build)" >&2; exit 69; }
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    chmod 755 "$DIR"
    : >"$DIR/cluster.env"
    if [ -n "${LATCHKEY_CLUSTER_POSTGRES:-}" ]; then
        DATABASE_URL=$LATCHKEY_CLUSTER_POSTGRES
        PG_PORT=""
    else
        [ -n "$PG_BIN" ] || { echo "cluster: PostgreSQL is missing (apt-get install postgresql)" >&2; exit 69; }
        install -d -m 700 "$DIR/pg"
        [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR/pg"
        PG_PORT=$(free_port)
        as_pg "$PG_BIN/initdb" -D "$DIR/pg/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1
        as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/log" -w \
            -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $DIR/pg -c max_connections=100" start >/dev/null
        as_pg "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "CREATE DATABASE latchkey" postgres >/dev/null
        DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/latchkey"
    fi
    NGINX_PORT=$(free_port)
    ISSUER="http://127.0.0.1:$NGINX_PORT"
    {
        echo "DATABASE_URL=$DATABASE_URL"
        echo "PG_PORT=$PG_PORT"
        echo "NGINX_PORT=$NGINX_PORT"
        echo "ISSUER=$ISSUER"
        echo "INSTANCES=$count"
    } >>"$DIR/cluster.env"
    upstreams=""
    for i in $(seq 1 "$count"); do
        port=$(free_port)
        echo "INSTANCE_${i}_PORT=$port" >>"$DIR/cluster.env"
        upstreams="$upstreams        server 127.0.0.1:$port max_fails=1 fail_timeout=2s;"$'\n'
    done
    # shellcheck disable=SC1091
    . "$DIR/cluster.env"
    # One after the other: the first runs the schema migrations, the others find them done.
    for i in $(seq 1 "$count"); do start_instance "$i"; done
    mkdir -p "$DIR/nginx"
    user_line=""
    [ "$(id -u)" -eq 0 ] && user_line="user root;"
    cat >"$DIR/nginx.conf" <<EOF
$user_line
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $DIR/nginx/body;
    proxy_temp_path $DIR/nginx/proxy;
    fastcgi_temp_path $DIR/nginx/fastcgi;
    uwsgi_temp_path $DIR/nginx/uwsgi;
    scgi_temp_path $DIR/nginx/scgi;
    upstream latchkey {
$upstreams        keepalive 64;
        # Idle connections to the instances are closed by nginx before an instance would close them itself (its
        # inactivity timeout, HTTPServerConfiguration.connectionTimeout: 10 s). The other way round, nginx could
        # send a request on a connection the instance is closing: a POST that reached it is not retried (502), and
        # max_fails=1 then marked every instance down for fail_timeout (issue 35: 35,000 502s after a 10 s lull).
        keepalive_timeout 5s;
    }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            proxy_pass http://latchkey;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$remote_addr;
            # Only requests that never reached an instance are retried on the next one (nginx never
            # retries a POST that was sent: a refresh must not be replayed behind the client's back).
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
        }
    }
}
EOF
    nginx -c "$DIR/nginx.conf" -p "$DIR/nginx" 2>>"$DIR/nginx-error.log"
    for _ in $(seq 1 50); do
        python3 - "$NGINX_PORT" <<'PY' && break
import socket, sys
s = socket.socket(); s.settimeout(0.2)
try:
    s.connect(("127.0.0.1", int(sys.argv[1]))); sys.exit(0)
except OSError:
    sys.exit(1)
PY
        sleep 0.1
    done
    cat "$DIR/cluster.env"
    ;;
stop)
    [ -f "$DIR/cluster.env" ] || exit 0
    # shellcheck disable=SC1091
    . "$DIR/cluster.env"
    [ -f "$DIR/nginx.pid" ] && nginx -c "$DIR/nginx.conf" -p "$DIR/nginx" -s stop 2>/dev/null || true
    for i in $(seq 1 "$INSTANCES"); do
        [ -f "$DIR/instance-$i.pid" ] && kill "$(cat "$DIR/instance-$i.pid")" 2>/dev/null || true
    done
    for i in $(seq 1 "$INSTANCES"); do
        pid=$(cat "$DIR/instance-$i.pid" 2>/dev/null || echo "")
        for _ in $(seq 1 100); do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    done
    if [ -n "${PG_PORT:-}" ] && [ -d "$DIR/pg/data" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
kill-instance)
    kill -9 "$(cat "$DIR/instance-${3:?instance number}.pid")"
    ;;
start-instance)
    # shellcheck disable=SC1091
    . "$DIR/cluster.env"
    start_instance "${3:?instance number}"
    ;;
restart-postgres)
    # shellcheck disable=SC1091
    . "$DIR/cluster.env"
    [ -n "$PG_PORT" ] || { echo "cluster: PostgreSQL is external (LATCHKEY_CLUSTER_POSTGRES)" >&2; exit 64; }
    as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/log" -m fast -w restart \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $DIR/pg -c max_connections=100" >/dev/null
    ;;
*)
    sed -n '2,14p' "$0"
    exit 64
    ;;
esac
