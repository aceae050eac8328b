import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { SignInFirst } from "@/components/previews/sign-in-first";
import { getCurrentUser } from "@/lib/auth/current-user";
import { momentDestination } from "@/lib/notifications/moment-link";
import { markOpenedNotification } from "@/lib/notifications/queries";
import { previewMetadata } from "@/lib/previews/metadata";
import { momentPagePreview } from "@/lib/previews/queries";
import { createClient } from "@/lib/supabase/server";

type Props = { params: Promise<{ momentId: string }>; searchParams: Promise<{ n?: string | string[] }> };

/** The link preview: the comment as a visitor sees it (a gated room's: the room alone), whoever asks. */
export async function generateMetadata({ params }: Pick<Props, "params">): Promise<Metadata> {
  return { title: "Comment", ...(await previewMetadata(await momentPagePreview((await params).momentId))) };
}

/**
 * A comment's own address (notifications link here): it leads to the comment's post, at its time,
 * with the comment picked out. Someone who may not read it lands on its post as any non-member does
 * (signed out, they are asked to sign in first and come back here); one that is gone is not found.
 * `?n=<notification id>` (a link from outside the page, such as an email) marks that notification
 * read as it is opened: the caller's own only, and only when named, so no prefetch marks anything.
 */
export default async function MomentPage({ params, searchParams }: Props) {
  const [{ momentId }, { n }] = await Promise.all([params, searchParams]);
  const supabase = await createClient();
  const destination = await momentDestination(supabase, momentId);
  if (destination.kind === "missing") notFound();
  const notification = typeof n === "string" ? n : null;
  const user = await getCurrentUser();
  // Signed out: a comment they may not read, or a notification to mark, needs them signed in first.
  if (!user && (destination.kind === "post" || notification)) {
    const here = `/m/${momentId}${notification ? `?n=${encodeURIComponent(notification)}` : ""}`;
    // A page that moves on at once rather than an HTTP redirect: link-preview bots (never signed in)
    // read this page's preview — the room's name and "Members only" — instead of the sign-in page's.
    return <SignInFirst href={`/login?next=${encodeURIComponent(here)}`} what="this comment" />;
  }
  if (user && notification) await markOpenedNotification(supabase, notification);
  redirect(destination.href);
}
