import { checkPlayableUrl } from "../media/playable.ts";
import { z } from "./zod.ts";

// A post's link, for the post form and the action that saves it: the link rules, then
// react-player's own canPlay. Parses to the normalised link (what is stored and looked up).
export const playableUrlSchema = z.string().transform((value, ctx) => {
  const checked = checkPlayableUrl(value);
  if (!checked.ok) {
    ctx.addIssue({ code: "custom", message: checked.error });
    return z.NEVER;
  }
  return checked.url;
});
