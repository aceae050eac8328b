// Example function: greets the caller by the JSON `name` it sends and says who the caller is.
// The product's functions (embed, link-wallet, join-room) follow the same shape: Deno.serve,
// npm: imports only, helpers from ../_shared, one zod schema for the input.
import { z } from "npm:zod@4";
import { callerClaims } from "../_shared/auth.ts";
import { corsHeaders, json } from "../_shared/cors.ts";

const HelloInput = z.object({ name: z.string().trim().min(1).max(100) });

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "POST") return json({ error: 'Use POST with a JSON body like {"name":"Ada"}.' }, 405);

  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return json({ error: 'The request body must be JSON, like {"name":"Ada"}.' }, 400);
  }
  const input = HelloInput.safeParse(body);
  if (!input.success) return json({ error: "Send a name between 1 and 100 characters." }, 400);

  const caller = callerClaims(req);
  return json({ message: `Hello ${input.data.name}!`, name: input.data.name, user_id: caller.sub ?? null, role: caller.role });
});
