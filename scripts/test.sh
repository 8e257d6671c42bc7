#!/usr/bin/env bash
# The one test command (README, .ci/run): unit and route tests, database tests on PGlite and, when
# TEST_POSTGRES_URL is set, again on PostgreSQL; then a production build, a second one to check it is
# reproducible, and the end-to-end tests in Debian's Chromium. Every stage runs (those that need the build are
# skipped when it failed); a summary of each stage's result and time ends the run, which exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Chromium from Debian's packages for the end-to-end tests..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || exit 1
  else
    echo "Chromium is missing: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi

# Two runs on one machine (two clones, say) must not meet on a port: unless E2E_APP_PORT is set, this run
# takes the first free slot of five, held by a lock until it exits, and its servers listen 100 ports apart.
if [ -z "${E2E_APP_PORT:-}" ] && command -v flock >/dev/null; then
  for slot in 0 1 2 3 4 none; do
    [ "$slot" = none ] && { echo "Five test runs already hold their ports on this machine." >&2; exit 1; }
    exec 9>"${TMPDIR:-/tmp}/hush-test-ports-$slot.lock"
    flock -n 9 && break
    exec 9>&-
  done
  off=$((slot * 100))
  export E2E_APP_PORT=$((3100 + off)) E2E_LLM_PORT=$((4010 + off)) E2E_SMTP_PORT=$((4025 + off)) \
    E2E_MAIL_HTTP_PORT=$((4026 + off)) E2E_OIDC_PORT=$((4030 + off)) E2E_STRIPE_PORT=$((4040 + off)) \
    E2E_AUTH_SYNC_PORT=$((4050 + off)) E2E_SEARCH_PORT=$((4060 + off)) FAULT_PORT_BASE=$((5700 + off)) \
    DEPLOY_PORT_BASE=$((5550 + off))
  echo "Test ports: slot $slot (app $E2E_APP_PORT)."
fi

declare -a SUMMARY=()
FAILED=0
# stage NAME COMMAND...: run one stage, record PASS or FAIL with its time; never stops the run.
stage() {
  local name="$1"
  shift
  echo "== $name =="
  local started=$SECONDS log
  log="$(mktemp "${TMPDIR:-/tmp}/hush-stage.XXXXXX")"
  if "$@" 2>&1 | tee "$log"; then
    SUMMARY+=("PASS  $name ($((SECONDS - started)) s)")
  else
    SUMMARY+=("FAIL  $name ($((SECONDS - started)) s)")
    FAILED=1
    # The failing tests' names go in the summary too: CI keeps only the end of a long log.
    while IFS= read -r line; do SUMMARY+=("      $line"); done < <(failed_tests "$log")
  fi
  rm -f "$log"
}
# failed_tests LOG: Vitest's "FAIL file > test" and Playwright's "N) [project] › spec:line › test" lines.
failed_tests() {
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^ *(FAIL +[^ ]|×|✘)|^ +[0-9]+\) \[' | sed 's/^ *//' | sort -u | head -n 25
}
skip() {
  echo "== $1 SKIPPED: $2 =="
  SUMMARY+=("SKIP  $1: $2")
}

stage "Dependency licenses (AGPL-3.0-or-later compatibility, docs/licenses.md)" node scripts/check-licenses.mjs

stage "Unit, route and database tests (embedded PGlite)" npx vitest run

# The tests whose assertions depend on the database (its SQL, its statements, what it leaves on disk)
# run again on PostgreSQL; route, auth and billing tests that only pass through the data layer run once.
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  stage "Database tests against PostgreSQL" env DATABASE_URL="$TEST_POSTGRES_URL" npx vitest run tests/db tests/billing/quota.test.ts \
    tests/billing/quota-fallback.test.ts tests/billing/quota-write-behind.test.ts tests/api/vault-passphrase.test.ts \
    tests/api/vault-rotation.test.ts tests/api/project-file-limits.test.ts
else
  skip "Database tests against PostgreSQL" "TEST_POSTGRES_URL is not set"
fi

# npm run build: next build, then scripts/build-manifest.ts (SRI on the prerendered pages, the build
# manifest at /.well-known/hush/manifest.json; docs/verify.md).
stage "Production build" npm run build
case "${SUMMARY[-1]}" in PASS*) BUILT=yes ;; *) BUILT=no ;; esac

# docs/issues.md #21: the same commit builds to the same files. A second build in a copy of the tree in another
# folder, its manifest compared with the first (about as long as the first build).
if [ "$BUILT" = yes ]; then
  stage "Reproducible build: a second build, manifests compared" bash scripts/check-reproducible.sh
  # docs/deploy.md "Embedded database": the built server on one PGlite folder under faults (a second server,
  # npm run plan, kill -9, SIGTERM, a corrupt folder, backup and restore, a full tmpfs when run as root).
  stage "Fault tests of the embedded database (npm run test:faults)" npm run test:faults
  # playwright.config.ts: the specs that touch no shared peer state, E2E_WORKERS (2) files at a time; then those
  # that do, one at a time (--no-deps: the first stage ran their dependency already, and its failures do not skip them).
  stage "End-to-end tests in Chromium, isolated specs (${E2E_WORKERS:-2} at a time)" npx playwright test --project=isolated
  stage "End-to-end tests in Chromium, shared-state specs (one at a time)" npx playwright test --project=shared --no-deps
else
  for name in "Reproducible build" "Fault tests of the embedded database" "End-to-end tests in Chromium" "Multi-instance test and load"; do
    skip "$name" "the production build failed"
  done
fi

# The production layout (docs/deploy.md): nginx with TLS in front of two instances of this build on
# PostgreSQL and Redis, then a short load run through it. Needs nginx, redis-server, openssl, curl, ss
# and PostgreSQL (.ci/run installs them); skipped with a note where they are missing.
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if [ "$BUILT" = no ]; then
  :
elif [ -n "${TEST_POSTGRES_URL:-}" ] && have nginx && have redis-server && have openssl && have curl && have ss; then
  stage "Multi-instance test (nginx + TLS, two instances, PostgreSQL, Redis)" npx tsx --conditions=react-server scripts/deploy-test.ts
  # The load run, 200 concurrent streaming chats, for 15 s here; the full 60 s is `npm run test:load`
  # (run it before closing an issue that touches the chat path).
  export LOAD_SECONDS="${LOAD_SECONDS:-15}"
  stage "Load through nginx: ${LOAD_CONCURRENCY:-200} concurrent streaming chats for ${LOAD_SECONDS} s" npx tsx bench/load.ts
else
  skip "Multi-instance test" "needs TEST_POSTGRES_URL, nginx, redis-server, openssl, curl, ss"
fi

echo
echo "== Summary =="
printf '%s\n' "${SUMMARY[@]}"
passed=$(printf '%s\n' "${SUMMARY[@]}" | grep -c '^PASS')
failed=$(printf '%s\n' "${SUMMARY[@]}" | grep -c '^FAIL')
skipped=$(printf '%s\n' "${SUMMARY[@]}" | grep -c '^SKIP')
echo "stages: $passed passed, $failed failed, $skipped skipped"
exit "$FAILED"
