#!/usr/bin/env bash
# The one test command (README, .ci/run): unit and route tests, database tests on PGlite and, when
# TEST_POSTGRES_URL is set, again on PostgreSQL; then a production build, a second one to check it is
# reproducible, and the end-to-end tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Chromium from Debian's packages for the end-to-end tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

echo "== Dependency licenses (AGPL-3.0-or-later compatibility, docs/licenses.md) =="
node scripts/check-licenses.mjs

echo "== Unit, route and database tests (embedded PGlite) =="
npx vitest run

# The tests whose assertions depend on the database (its SQL, its statements, what it leaves on disk)
# run again on PostgreSQL; route, auth and billing tests that only pass through the data layer run once.
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  echo "== Database tests against PostgreSQL =="
  DATABASE_URL="$TEST_POSTGRES_URL" npx vitest run tests/db tests/billing/quota.test.ts tests/billing/quota-fallback.test.ts \
    tests/billing/quota-write-behind.test.ts tests/api/vault-passphrase.test.ts tests/api/vault-rotation.test.ts \
    tests/api/project-file-limits.test.ts
fi

echo "== Production build =="
# npm run build: next build, then scripts/build-manifest.ts (SRI on the prerendered pages, the build
# manifest at /.well-known/hush/manifest.json; docs/verify.md).
npm run build

# docs/issues.md #21: the same commit builds to the same files. A second build in a copy of the tree in another
# folder, its manifest compared with the first (about as long as the first build).
echo "== Reproducible build: a second build, manifests compared =="
bash scripts/check-reproducible.sh

# docs/deploy.md "Embedded database": the built server on one PGlite folder under faults (a second server,
# npm run plan, kill -9, SIGTERM, a corrupt folder, backup and restore, a full tmpfs when run as root).
echo "== Fault tests of the embedded database (npm run test:faults) =="
npm run test:faults

echo "== End-to-end tests in Chromium =="
npx playwright test

# The production layout (docs/deploy.md): nginx with TLS in front of two instances of this build on
# PostgreSQL and Redis, then a short load run through it. Needs nginx, redis-server, openssl, curl, ss
# and PostgreSQL (.ci/run installs them); skipped with a note where they are missing.
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if [ -n "${TEST_POSTGRES_URL:-}" ] && have nginx && have redis-server && have openssl && have curl && have ss; then
  echo "== Multi-instance test (nginx + TLS, two instances, PostgreSQL, Redis) =="
  npx tsx --conditions=react-server scripts/deploy-test.ts
  # The load run, 200 concurrent streaming chats, for 15 s here; the full 60 s is `npm run test:load`
  # (run it before closing an issue that touches the chat path).
  export LOAD_SECONDS="${LOAD_SECONDS:-15}"
  echo "== Load through nginx: ${LOAD_CONCURRENCY:-200} concurrent streaming chats for ${LOAD_SECONDS} s =="
  npx tsx bench/load.ts
else
  echo "== Multi-instance test SKIPPED: needs TEST_POSTGRES_URL, nginx, redis-server, openssl, curl, ss =="
fi
