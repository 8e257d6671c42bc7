/**
 * `npm run plan -- grant|revoke <email>`: Pro by hand (lib/server/manual-plan.ts); with PGlite stop the app first.
 * Exit status: 0 done, 1 failed, 2 usage.
 */
import { runMain } from "./run-main";
import { setManualPro } from "@/lib/server/manual-plan";

async function main(argv: string[]): Promise<number> {
  const [action, email] = argv;
  if ((action !== "grant" && action !== "revoke") || !email) {
    console.error("Usage: npm run plan -- grant <email> | revoke <email>");
    return 2;
  }
  await setManualPro(email, action === "grant");
  console.log(action === "grant" ? "Pro granted." : "Pro revoked.");
  return 0;
}

runMain(() => main(process.argv.slice(2)));
