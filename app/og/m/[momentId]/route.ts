import { previewImageResponse } from "@/components/previews/preview-response";
import { momentPagePreview } from "@/lib/previews/queries";

/** A comment's preview picture (`/m/<id>`'s og:image); a gated room's comment draws the room's. */
export async function GET(request: Request, { params }: { params: Promise<{ momentId: string }> }) {
  return previewImageResponse(await momentPagePreview((await params).momentId), request);
}
