import { previewImageResponse } from "@/components/previews/preview-response";
import { postPagePreview } from "@/lib/previews/queries";

/** A post's preview picture (its page's og:image); a gated room's post draws the room's. */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string; postId: string }> }) {
  const { slug, postId } = await params;
  return previewImageResponse(await postPagePreview(slug, postId), request);
}
