/**
 * Compare two build manifests (docs/verify.md): prints OK, or MISMATCH with each differing file and
 * both hashes; exit code 0 or 1.
 *   tsx scripts/compare-manifests.ts <expected.json> <actual.json>
 */
import fs from "node:fs";
import { compareManifests, parseManifest } from "../lib/server/build/manifest";

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("Usage: tsx scripts/compare-manifests.ts <expected.json> <actual.json>");
  process.exit(1);
}
const expected = parseManifest(JSON.parse(fs.readFileSync(a, "utf8")));
const actual = parseManifest(JSON.parse(fs.readFileSync(b, "utf8")));
if (expected instanceof Error || actual instanceof Error) {
  console.error(`MISMATCH: unreadable manifest (${expected instanceof Error ? `${a}: ${expected.message}` : `${b}: ${(actual as Error).message}`})`);
  process.exit(1);
}
const differences = compareManifests(expected, actual);
if (expected.commit !== actual.commit) console.log(`MISMATCH commit: ${expected.commit} vs ${actual.commit}`);
for (const d of differences) console.log(`MISMATCH ${d.file}\n  ${a}: ${d.expected ?? "(absent)"}\n  ${b}: ${d.actual ?? "(absent)"}`);
if (differences.length === 0 && expected.commit === actual.commit) {
  console.log(`OK: the two manifests are identical (${Object.keys(expected.files).length} files, commit ${expected.commit}).`);
  process.exit(0);
}
console.log(`MISMATCH: ${differences.length} of ${new Set([...Object.keys(expected.files), ...Object.keys(actual.files)]).size} files differ.`);
process.exit(1);
