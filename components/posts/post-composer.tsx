"use client";

import { useState } from "react";
import { lazyComponent } from "@/components/lazy";
import { LinkPostForm } from "./link-post-form";

// Uploading needs JavaScript (a signed URL, a progress bar), so its form and code load the first
// time the person picks "Upload a file", not with the room page.
const UploadPostForm = lazyComponent(() => import("./upload-post-form").then((module) => module.UploadPostForm));

/**
 * Add a post: a link or an uploaded file. Once shown, both forms stay mounted, so switching loses
 * nothing typed.
 */
export function PostComposer({ room }: { room: { id: string; slug: string } }) {
  const [mode, setMode] = useState<"link" | "upload">("link");
  const [uploadShown, setUploadShown] = useState(false);
  const tab = (value: typeof mode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => {
        setMode(value);
        if (value === "upload") setUploadShown(true);
      }}
      className={`min-h-10 rounded-lg px-3 py-2 text-sm font-medium ${mode === value ? "border border-accent bg-accent/10 text-accent" : "border border-line bg-raised text-ink hover:bg-surface"}`}
    >
      {label}
    </button>
  );
  return (
    <section aria-labelledby="composer-heading" className="flex flex-col gap-4 rounded-2xl border border-line bg-raised p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="composer-heading" className="text-lg font-semibold">
          Add a post
        </h2>
        <div className="flex gap-2" role="group" aria-label="What to post">
          {tab("link", "Share a link")}
          {tab("upload", "Upload a file")}
        </div>
      </div>
      <div hidden={mode !== "link"}>
        <LinkPostForm room={room} />
      </div>
      <div hidden={mode !== "upload"}>{uploadShown ? <UploadPostForm room={room} /> : null}</div>
    </section>
  );
}
