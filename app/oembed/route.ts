import { type NextRequest, NextResponse } from "next/server";
import { oembedAnswer, oembedRefusals, parseEmbedUrl, readMaxSize, requestOrigin, siteOrigins } from "@/lib/embed/oembed";
import { embeddable, publicMoment, publicPost } from "@/lib/embed/queries";

// Answers change with the rooms (a room gated later stops answering), so nothing is kept.
const common = { "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store" };

const refuse = (refusal: { status: number; words: string }) =>
  new NextResponse(`${refusal.words}\n`, { status: refusal.status, headers: { ...common, "Content-Type": "text/plain; charset=utf-8" } });

/**
 * oEmbed (1.0) for a public room's post or comment: `?url=<post or /m/ URL>&format=json` answers a
 * `rich` embed whose iframe is the post's embed page. A gated, hidden or missing post is not found,
 * exactly as one that never existed, so nothing of it is told.
 */
export async function GET(request: NextRequest) {
  const query = request.nextUrl.searchParams;
  const format = query.get("format");
  if (format !== null && format !== "json") return refuse(oembedRefusals.format);
  const origin = requestOrigin(request.headers, request.nextUrl.origin);
  const parsed = parseEmbedUrl(query.get("url"), siteOrigins(origin, process.env.NEXT_PUBLIC_SITE_URL));
  if (!parsed.ok) return refuse(oembedRefusals[parsed.problem]);
  const { target } = parsed;
  const moment = target.kind === "moment" ? await publicMoment(target.momentId) : null;
  if (target.kind === "moment" && !moment) return refuse(oembedRefusals.unknown);
  const loaded = await publicPost(target.kind === "post" ? target.postId : moment!.postId);
  if (!loaded || (target.kind === "post" && loaded.room.slug !== target.slug)) return refuse(oembedRefusals.unknown);
  const answer = oembedAnswer(embeddable(loaded.post, loaded.room), {
    origin,
    startAt: target.kind === "post" ? target.startAt : (moment?.atSeconds ?? null),
    maxwidth: readMaxSize(query.get("maxwidth")),
    maxheight: readMaxSize(query.get("maxheight")),
  });
  return NextResponse.json(answer, { headers: common });
}
