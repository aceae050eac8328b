import type { ReactNode } from "react";

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <section className={`rounded-2xl border border-line bg-raised p-6 shadow-sm sm:p-8 ${className}`}>{children}</section>;
}

/** A centred page with one card: sign-in, sign-up and other short forms. */
export function NarrowPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-6 px-4 py-10 sm:py-16">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {intro ? <p className="text-muted">{intro}</p> : null}
      </div>
      <Card>{children}</Card>
    </main>
  );
}
