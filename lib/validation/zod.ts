// zod for every schema of the app (and of the edge functions that share them): zod probes for
// `new Function` to compile fast parsers, and under the app's Content-Security-Policy (no
// 'unsafe-eval') that probe is a reported violation in the browser. The plain parser is enough.
import * as z from "./zod-api.ts";

z.config({ jitless: true });

export { z };
