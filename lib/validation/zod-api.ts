// The parts of zod the app uses, as named exports. A bundler keeps every export of a namespace the
// code passes around, and zod's own `z` namespace carries all of its locales: tens of kilobytes the
// app never shows. Add to this list when a schema needs more of zod.
export { array, boolean, config, enum, literal, NEVER, number, object, preprocess, string, union, uuid, ZodError } from "zod";
export type { infer, input, output, ZodType } from "zod";
