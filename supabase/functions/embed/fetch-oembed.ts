// One guarded request to an allow-listed oEmbed endpoint: 5 s for the whole exchange (headers and
// body), JSON only, at most 64 KB read (the body is streamed and dropped past that), and no
// redirect followed anywhere but the endpoint's own origin.

export const oembedTimeoutMs = 5_000;
export const oembedMaxBytes = 64 * 1024;
const maxRedirects = 2;

export type OembedFetch = { ok: true; answer: unknown } | { ok: false; reason: "unreachable" | "not_found" | "bad_answer"; detail: string };

const failed = (reason: "unreachable" | "not_found" | "bad_answer", detail: string): OembedFetch => ({ ok: false, reason, detail });

const jsonType = /^(?:application\/(?:[\w.-]+\+)?json|text\/json)\s*(?:;|$)/i;

async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function fetchOembed(request: URL): Promise<OembedFetch> {
  const signal = AbortSignal.timeout(oembedTimeoutMs);
  let target = request;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    let response: Response;
    try {
      response = await fetch(target, { redirect: "manual", signal, headers: { Accept: "application/json" } });
    } catch (error) {
      return failed("unreachable", signal.aborted ? `no answer within ${oembedTimeoutMs} ms` : String((error as Error)?.message ?? error));
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      let next: URL;
      try {
        next = new URL(response.headers.get("Location") ?? "", target);
      } catch {
        return failed("bad_answer", "a redirect without a usable Location");
      }
      if (!response.headers.has("Location") || next.origin !== request.origin)
        return failed("bad_answer", `a redirect to ${next.origin}, not ${request.origin}`);
      target = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      if ([400, 401, 403, 404, 410, 422].includes(response.status)) return failed("not_found", `status ${response.status}`);
      return failed(response.status >= 500 || response.status === 429 ? "unreachable" : "bad_answer", `status ${response.status}`);
    }
    if (!jsonType.test(response.headers.get("Content-Type") ?? "")) {
      await response.body?.cancel().catch(() => undefined);
      return failed("bad_answer", `content type ${response.headers.get("Content-Type") ?? "(none)"}`);
    }
    const declared = Number(response.headers.get("Content-Length") ?? NaN);
    if (declared > oembedMaxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return failed("bad_answer", `${declared} bytes declared`);
    }
    let bytes: Uint8Array | null;
    try {
      bytes = response.body ? await readCapped(response.body, oembedMaxBytes) : new Uint8Array();
    } catch (error) {
      return failed(
        "unreachable",
        signal.aborted ? `the answer did not finish within ${oembedTimeoutMs} ms` : String((error as Error)?.message ?? error),
      );
    }
    if (!bytes) return failed("bad_answer", `over ${oembedMaxBytes} bytes`);
    try {
      return { ok: true, answer: JSON.parse(new TextDecoder().decode(bytes)) };
    } catch {
      return failed("bad_answer", "not JSON");
    }
  }
  return failed("bad_answer", `more than ${maxRedirects} redirects`);
}
