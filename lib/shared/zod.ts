import { z } from "zod";

/**
 * The one `z` every Hush module imports. In the browser Hush runs under a CSP that refuses eval
 * (docs/product.md §10.5, e2e/security.spec.ts fails on any violation); zod 4 would otherwise probe `new Function("")` on its first object
 * parse to decide whether to compile a fast path, and that probe is reported as a CSP violation even
 * though zod catches it. `jitless` makes zod interpret schemas instead. On the server eval is allowed and
 * the compiled fast path is kept.
 */
if (typeof window !== "undefined") z.config({ jitless: true });

export { z };
