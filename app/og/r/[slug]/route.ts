import { previewImageResponse } from "@/components/previews/preview-response";
import { roomPagePreview } from "@/lib/previews/queries";

/** A room's preview picture (its page's og:image). */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  return previewImageResponse(await roomPagePreview((await params).slug), request);
}
