import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { countryOrDefault } from "@/lib/server/geo";

/**
 * GET /api/get-country (docs/product.md §7): `{ country_code }` from the trusted edge header, else the offline
 * GeoIP table, else "US" (lib/server/geo.ts). Nothing about the caller is stored or logged.
 */
export const GET = route(api.getCountry, async ({ request }) =>
  reply(api.getCountry, { country_code: countryOrDefault(request, "get-country") }, { headers: { "Cache-Control": "private, no-store", Vary: "*" } }),
);
