import { countryOrDefault } from "@/lib/geo";

/**
 * GET /api/get-country (spec §7): `{ country_code }` from the trusted edge header, else the offline
 * GeoIP table, else "US" (lib/geo.ts). Nothing about the caller is stored or logged.
 */
export async function GET(request: Request): Promise<Response> {
  const country = countryOrDefault(request, "get-country");
  return Response.json({ country_code: country }, { headers: { "Cache-Control": "private, no-store", Vary: "*" } });
}
