import { uuidPattern } from "./ids.ts";
import { z } from "./zod.ts";

/** A row id (./ids.ts) as a schema's field, refused in the words of the thing it names ("This room no longer exists."). */
export function uuidField(message: string) {
  return z.string(message).regex(uuidPattern, message);
}

/** The same rule with a generic refusal. */
export const uuidSchema = uuidField("Not a valid id");
