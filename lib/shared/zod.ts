import { z } from "zod";

// Hush's browser CSP refuses eval (docs/product.md §10.5), and zod 4's `new Function` probe is reported as a
// violation even though zod catches it: `jitless` makes zod interpret schemas in the browser.
if (typeof window !== "undefined") z.config({ jitless: true });

export { z };
