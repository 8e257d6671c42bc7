import { countryOfRequest } from "@/lib/geo";
import { logger } from "@/lib/log";

/**
 * GET /api/get-country (spec §7): `{ country_code }` from the trusted edge header, else the offline
 * GeoIP table, else "US" (lib/geo.ts). Nothing about the caller is stored or logged.
 */
export async function GET(request: Request): Promise<Response> {
  let country = "US";
  try {
    country = countryOfRequest(request);
  } catch (error) {
    logger("get-country").error({ kind: error instanceof Error ? error.name : "unknown" }, "lookup failed");
  }
  return Response.json({ country_code: country }, { headers: { "Cache-Control": "private, no-store", Vary: "*" } });
}
