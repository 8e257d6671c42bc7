import { api } from "@/lib/api/contract";
import { reply, route } from "@/lib/api/route";
import { countryOrDefault } from "@/lib/geo";

/**
 * GET /api/get-country (docs/product.md §7): `{ country_code }` from the trusted edge header, else the offline
 * GeoIP table, else "US" (lib/geo.ts). Nothing about the caller is stored or logged.
 */
export const GET = route(api.getCountry, { name: "get-country", auth: "none" }, async ({ request }) =>
  reply(api.getCountry, { country_code: countryOrDefault(request, "get-country") }, { headers: { "Cache-Control": "private, no-store", Vary: "*" } }),
);
