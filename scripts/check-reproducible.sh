#!/usr/bin/env bash
# Reproducible build check (docs/verify.md, docs/issues.md #21): build the same source a second time in
# another folder (a copy of the working tree, node_modules hard-linked) and compare its build manifest
# with the one `npm run build` wrote here. Another absolute path is part of the test: a user verifying
# a deployment builds in their own folder. Exits 1 naming the files that differ.
#   bash scripts/check-reproducible.sh        (after npm run build)
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
main="public/.well-known/hush/manifest.json"
[ -f "$main" ] || { echo "No $main: run npm run build first." >&2; exit 1; }
commit="${HUSH_SOURCE_COMMIT:-$(git rev-parse HEAD)}"

copy="$(mktemp -d "${TMPDIR:-/tmp}/hush-repro.XXXXXX")"
trap 'rm -rf "$copy"' EXIT
# The working tree as it is (committed or not), without ignored files such as .next or .data.
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$copy"
# Hard links where the file system allows them (fast), a copy otherwise. lib/server/db/generated is Prisma's
# generated client (gitignored, made by npm ci).
cp -al node_modules "$copy/node_modules" 2>/dev/null || cp -a node_modules "$copy/node_modules"
cp -a lib/server/db/generated "$copy/lib/server/db/generated"

start=$(date +%s)
# npm run build's own steps: Pyodide's files into public/ first (its prebuild), the manifest after.
(cd "$copy" && node scripts/copy-pyodide.mjs >/dev/null && HUSH_SOURCE_COMMIT="$commit" HUSH_SKIP_TYPECHECK=1 npx next build >"$copy/build.log" 2>&1 && HUSH_SOURCE_COMMIT="$commit" npx tsx scripts/build-manifest.ts >/dev/null) || {
  tail -40 "$copy/build.log" >&2
  echo "Reproducible build check: the second build failed." >&2
  exit 1
}
echo "Second build in $copy: $(( $(date +%s) - start )) s."
npx tsx scripts/compare-manifests.ts "$main" "$copy/public/.well-known/hush/manifest.json"
