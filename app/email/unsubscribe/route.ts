import { type NextRequest, NextResponse } from "next/server";
import { unsubscribe, unsubscribeWords, type UnsubscribeResult } from "@/lib/notifications/email-unsubscribe";

/**
 * The link in a digest's List-Unsubscribe header and footer. A route handler, not a server action:
 * a mail client's one-click POST (RFC 8058: body `List-Unsubscribe=One-Click`) comes from no page,
 * with no cookies and no Origin of this site, and the token alone decides.
 *
 * GET never unsubscribes (mail scanners open links): it leads to the page that asks.
 */
export function GET(request: NextRequest) {
  const confirm = new URL("/email/unsubscribe/confirm", request.url);
  const token = request.nextUrl.searchParams.get("token");
  if (token) confirm.searchParams.set("token", token);
  return NextResponse.redirect(confirm, 303);
}

const plain = (body: string, status: number) =>
  new NextResponse(`${body}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

function answer(result: UnsubscribeResult): NextResponse {
  switch (result.status) {
    case "unsubscribed":
      return plain(unsubscribeWords.done(result.kind), 200);
    case "already_used":
      return plain(unsubscribeWords.alreadyUsed(result.kind), 410);
    case "invalid":
      return plain(unsubscribeWords.invalid, 404);
    case "failed":
      return plain(unsubscribeWords.failed, 503);
  }
}

/** The token comes in the link's query (one-click) or as the page's form field. */
async function tokenOf(request: NextRequest): Promise<string | null> {
  const fromQuery = request.nextUrl.searchParams.get("token");
  if (fromQuery) return fromQuery;
  try {
    const field = (await request.formData()).get("token");
    return typeof field === "string" ? field : null;
  } catch {
    return null;
  }
}

export async function POST(request: NextRequest) {
  const token = await tokenOf(request);
  if (!token) return plain(unsubscribeWords.invalid, 400);
  return answer(await unsubscribe(token));
}
