"use client";

import { type ComponentType, lazy, Suspense } from "react";

/**
 * A client component in a chunk of its own, loaded when it first renders: rendered on the server as
 * usual, fetched in the browser only by pages that show it. Plain React.lazy, because next/dynamic
 * would add its loader (about 2 KB compressed) to the first load of every page that uses it. Until
 * the chunk arrives, the server's HTML stays in place.
 */
export function lazyComponent<Props extends object>(load: () => Promise<ComponentType<Props>>): ComponentType<Props> {
  const Lazy = lazy(async () => ({ default: await load() })) as unknown as ComponentType<Props>;
  return function LazyComponent(props: Props) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
