import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { countryOrDefault } from "@/lib/server/geo";

/** GET /api/get-country (docs/product.md §7): the edge header, else offline GeoIP, else "US"; nothing stored or logged. */
export const GET = route(api.getCountry, async ({ request }) =>
  reply(api.getCountry, { country_code: countryOrDefault(request, "get-country") }, { headers: { "Cache-Control": "private, no-store", Vary: "*" } }),
);
