import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { NarrowPage } from "@/components/ui/card";
import { describeUnsubscribeLink, unsubscribeWords } from "@/lib/notifications/email-unsubscribe";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false, follow: false } };

/**
 * Where a digest's unsubscribe link leads (GET /email/unsubscribe sends people here). Opening it
 * changes nothing — mail scanners open links — the button posts the token to /email/unsubscribe.
 * No sign-in needed.
 */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const requested = (await searchParams).token;
  const token = typeof requested === "string" ? requested : null;
  const link = await describeUnsubscribeLink(token);
  const account = (
    <Link href="/account" className="underline">
      Your account page
    </Link>
  );

  if (link.status === "valid") {
    return (
      <NarrowPage title={unsubscribeWords.question(link.kind)} intro={unsubscribeWords.explain}>
        <form method="post" action="/email/unsubscribe">
          <input type="hidden" name="token" value={token ?? ""} />
          <button type="submit" className={buttonClasses("primary")}>
            {unsubscribeWords.button}
          </button>
        </form>
      </NarrowPage>
    );
  }
  if (link.status === "already_used") {
    return (
      <NarrowPage title="Already unsubscribed">
        <div className="flex flex-col gap-4">
          <p>{unsubscribeWords.alreadyUsed(link.kind)}</p>
          <p>{account}</p>
        </div>
      </NarrowPage>
    );
  }
  return (
    <NarrowPage title="That link didn't work">
      <div className="flex flex-col gap-4">
        <p>{link.status === "failed" ? unsubscribeWords.failed : unsubscribeWords.invalid}</p>
        <p>{account}</p>
      </div>
    </NarrowPage>
  );
}
