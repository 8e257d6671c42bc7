#!/usr/bin/env bash
# Server memory at ready (docs/issues.md #42): RSS of a production server (`node server.mjs`, NODE_ENV=production)
# 3 s after /api/ready first answers, on PGlite with an empty DATA_DIR ("first start"), again on that folder, and on
# PostgreSQL. Each argument is a checkout holding a production build (`npm run build`); with several, they are
# measured interleaved, ROUNDS times (default 3).
#
#   bash bench/memory-at-ready.sh /path/to/before /path/to/after
#
# PostgreSQL: BENCH_POSTGRES_URL (default postgresql://root@127.0.0.1:5432/postgres); a database per checkout is
# created and dropped. Port: BENCH_PORT (default 3910). Prints one line per checkout and round, in MB.
# The server runs with npm start's memory settings (MALLOC_ARENA_MAX=2, NODE_FLAGS=--max-semi-space-size=4);
# set MALLOC_ARENA_MAX= and NODE_FLAGS= (empty) to measure without them.
set -euo pipefail
PORT="${BENCH_PORT:-3910}"
PG="${BENCH_POSTGRES_URL:-postgresql://root@127.0.0.1:5432/postgres}"
ROUNDS="${ROUNDS:-3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

measure() { # checkout data-dir [env...]: prints RSS in MB
  local dir=$1 data=$2; shift 2
  (cd "$dir" && exec env NODE_ENV=production NEXTAUTH_SECRET=bench-memory-at-ready-0123456789abcdef LLM_BASE_URL=http://127.0.0.1:9/v1 \
    APP_URL="http://127.0.0.1:$PORT" DATA_DIR="$data" MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" "$@" node ${NODE_FLAGS---max-semi-space-size=4} --require ./deploy/http-timeouts.cjs server.mjs -p "$PORT" >"$TMP/server.log" 2>&1) &
  local pid=$!
  for _ in $(seq 1 480); do curl -sf "http://127.0.0.1:$PORT/api/ready" >/dev/null && break; sleep 0.25; done
  sleep 3
  echo $(( $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") / 1024 ))
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

for round in $(seq 1 "$ROUNDS"); do
  i=0
  for dir in "$@"; do
    i=$((i + 1)); db="bench_ready_$i"
    first=$(measure "$dir" "$TMP/pglite-$i")
    again=$(measure "$dir" "$TMP/pglite-$i")
    psql "$PG" -qAtc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null 2>&1
    pgurl="$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$PG" "$db")"
    postgres=$(measure "$dir" "$TMP/pg-$i" DATABASE_URL="$pgurl")
    psql "$PG" -qAtc "DROP DATABASE IF EXISTS $db" >/dev/null
    rm -rf "$TMP/pglite-$i" "$TMP/pg-$i"
    echo "round $round $dir: PGlite first start $first MB, PGlite existing folder $again MB, PostgreSQL $postgres MB (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done
