import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/current-user";
import { momentDestination } from "@/lib/notifications/moment-link";
import { createClient } from "@/lib/supabase/server";

export const metadata: Metadata = { title: "Comment" };

/**
 * A comment's own address (notifications link here): it leads to the comment's post, at its time,
 * with the comment picked out. Someone who may not read it lands on its post as any non-member does
 * (signed out, they are asked to sign in first and come back here); one that is gone is not found.
 */
export default async function MomentPage({ params }: { params: Promise<{ momentId: string }> }) {
  const { momentId } = await params;
  const destination = await momentDestination(await createClient(), momentId);
  if (destination.kind === "missing") notFound();
  if (destination.kind === "post" && !(await getCurrentUser())) redirect(`/login?next=${encodeURIComponent(`/m/${momentId}`)}`);
  redirect(destination.href);
}
