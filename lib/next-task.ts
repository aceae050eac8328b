/**
 * Resolves in a task of its own, after the browser has had the chance to run other work (input,
 * rendering). Code that runs as a page starts (effects, a chunk's evaluation and what is chained on
 * it) otherwise runs in one long task; each step after an `await nextTask()` runs in another. Used,
 * too, before a page's deferred `import()`s: starting a script's request costs the main thread a
 * few milliseconds, and the effects that start several would otherwise pay them all in one task.
 */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
