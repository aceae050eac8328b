import type * as MomentSchemas from "@/lib/validation/moment";

let loading: Promise<typeof MomentSchemas | null> | null = null;

/**
 * The comment schemas, loaded on first use so zod stays out of the post page's first load. Null
 * when the chunk cannot load (offline): the form then sends what was typed as it is, and the server
 * action checks the same rules.
 */
export function loadMomentSchemas(): Promise<typeof MomentSchemas | null> {
  loading ??= import("@/lib/validation/moment").catch(() => {
    loading = null;
    return null;
  });
  return loading;
}
