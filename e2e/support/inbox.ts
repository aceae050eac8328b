// Reads the auth emails the local stack captured, through its Mailpit-compatible API.
import { expect } from "@playwright/test";

const inboxUrl = process.env.INBOX_URL ?? `http://127.0.0.1:${process.env.STACK_INBOX_PORT ?? 54324}`;

interface MessageSummary {
  ID: string;
  To: { Address: string }[];
  Subject: string;
  Created: string;
}

/** Waits for the newest email to `to` whose subject matches, and returns its first link. */
export async function latestLink(to: string, subject: RegExp, { after }: { after?: Date } = {}): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (await fetch(`${inboxUrl}/api/v1/messages?limit=200`)).json()) as { messages: MessageSummary[] };
        const match = list.messages
          .filter((m) => m.To.some((r) => r.Address.toLowerCase() === to.toLowerCase()) && subject.test(m.Subject))
          .filter((m) => !after || new Date(m.Created) >= after)
          .sort((a, b) => Date.parse(b.Created) - Date.parse(a.Created))[0];
        if (!match) return undefined;
        const message = (await (await fetch(`${inboxUrl}/api/v1/message/${match.ID}`)).json()) as { HTML: string; Text: string };
        const href = /href="([^"]+)"/.exec(message.HTML)?.[1];
        link = href?.replaceAll("&amp;", "&");
        return link;
      },
      { message: `an email to ${to} matching ${subject}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return link!;
}
