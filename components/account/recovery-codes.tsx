"use client";

import { useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";

/** The codes as a text file: a line about what they are, then one code a line. */
function recoveryFile(codes: string[], madeOn: string): string {
  return [
    "Cuepoint recovery codes",
    `Made on ${madeOn}. Each code signs you in once if you can't use your authenticator app;`,
    "using one turns two-factor authentication off until you set it up again.",
    "",
    ...codes,
    "",
  ].join("\n");
}

/**
 * New recovery codes, shown once: in a list, as a .txt download (a data link, so it works before
 * JavaScript too) and copied to the clipboard. "Done" puts them away for good.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const madeOn = new Date().toISOString().slice(0, 10);
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(recoveryFile(codes, madeOn))}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section aria-labelledby="recovery-codes-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h3 id="recovery-codes-heading" className="font-semibold">
          Save your recovery codes
        </h3>
        <p className="text-muted">
          If you lose your authenticator app, each code signs you in once. This is the only time they&apos;re shown — keep them somewhere
          safe, away from your phone.
        </p>
      </div>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-line bg-raised p-4 sm:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="font-mono text-sm tracking-wide">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <a href={href} download={`cuepoint-recovery-codes-${madeOn}.txt`} className={buttonClasses("primary")}>
          Download
        </a>
        <Button variant="secondary" onClick={copy}>
          Copy
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Done, I&apos;ve saved them
        </Button>
        <span role="status" className="text-sm text-muted">
          {copied === "copied" ? "Copied" : copied === "failed" ? "Couldn't copy — select the codes or download them instead" : ""}
        </span>
      </div>
    </section>
  );
}
