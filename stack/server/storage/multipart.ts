/**
 * A small streaming multipart/form-data reader: text fields are collected, and the first file
 * part's bytes are handed to `onFileData` as they arrive (awaited, so disk writes apply
 * backpressure), never buffering the file. Later file parts are skipped, as storage-api reads one.
 */
export interface MultipartFileHead {
  fieldName: string;
  filename?: string;
  contentType: string;
}

export interface MultipartHandlers {
  /** Called once, with the fields that came before the file; may throw to refuse the file. */
  onFileStart: (head: MultipartFileHead, fields: Record<string, string>) => Promise<void> | void;
  onFileData: (chunk: Buffer) => Promise<void>;
}

export class MultipartError extends Error {}

const crlf = Buffer.from("\r\n");
const headerEnd = Buffer.from("\r\n\r\n");
const maxHeaderBytes = 16 * 1024;
const maxFieldBytes = 1024 * 1024;

export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  return match?.[1] ?? match?.[2];
}

function parsePartHeaders(text: string) {
  const headers: Record<string, string> = {};
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const disposition = headers["content-disposition"] ?? "";
  const name = /\bname="((?:[^"\\]|\\.)*)"/i.exec(disposition)?.[1] ?? /\bname=([^;\s]+)/i.exec(disposition)?.[1] ?? "";
  const filename = /\bfilename="((?:[^"\\]|\\.)*)"/i.exec(disposition)?.[1];
  return { name, filename, contentType: headers["content-type"] ?? "text/plain" };
}

/** Reads the whole body; resolves with the fields and whether a file part was seen. */
export async function readMultipart(
  body: AsyncIterable<Buffer>,
  boundary: string,
  handlers: MultipartHandlers,
): Promise<{ fields: Record<string, string>; sawFile: boolean }> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  // Prepending CRLF lets the first boundary be found with the same delimiter as the others.
  let buffer: Buffer = Buffer.from(crlf);
  type State = "preamble" | "afterBoundary" | "headers" | "body" | "done";
  let state = "preamble" as State;
  let part: { kind: "field" | "file" | "skip"; name: string; chunks: Buffer[]; bytes: number } | undefined;
  let sawFile = false;

  async function emit(data: Buffer): Promise<void> {
    if (!part || data.length === 0) return;
    if (part.kind === "file") await handlers.onFileData(data);
    else if (part.kind === "field") {
      part.bytes += data.length;
      if (part.bytes > maxFieldBytes) throw new MultipartError("field too large");
      part.chunks.push(data);
    }
  }

  async function process(): Promise<void> {
    for (;;) {
      if (state === "preamble") {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length));
          return;
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = "afterBoundary";
      } else if (state === "afterBoundary") {
        if (buffer.length < 2) return;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          state = "done";
          return;
        }
        const lineEnd = buffer.indexOf(crlf);
        if (lineEnd < 0) {
          if (buffer.length > 1024) throw new MultipartError("malformed boundary line");
          return;
        }
        buffer = buffer.subarray(lineEnd + 2);
        state = "headers";
      } else if (state === "headers") {
        const end = buffer.indexOf(headerEnd);
        // A part without headers starts straight with the blank line.
        const empty = buffer.length >= 2 && buffer[0] === 0x0d && buffer[1] === 0x0a;
        if (end < 0 && !empty) {
          if (buffer.length > maxHeaderBytes) throw new MultipartError("part headers too large");
          return;
        }
        const head = empty
          ? { name: "", filename: undefined, contentType: "text/plain" }
          : parsePartHeaders(buffer.subarray(0, end).toString("utf8"));
        buffer = buffer.subarray(empty ? 2 : end + 4);
        if (head.filename !== undefined && !sawFile) {
          sawFile = true;
          await handlers.onFileStart({ fieldName: head.name, filename: head.filename, contentType: head.contentType }, { ...fields });
          part = { kind: "file", name: head.name, chunks: [], bytes: 0 };
        } else {
          part = { kind: head.filename !== undefined ? "skip" : "field", name: head.name, chunks: [], bytes: 0 };
        }
        state = "body";
      } else if (state === "body") {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          // The tail may hold the start of a delimiter split across chunks.
          const keep = delimiter.length;
          if (buffer.length > keep) {
            await emit(buffer.subarray(0, buffer.length - keep));
            buffer = buffer.subarray(buffer.length - keep);
          }
          return;
        }
        await emit(buffer.subarray(0, at));
        if (part?.kind === "field" && !(part.name in fields)) fields[part.name] = Buffer.concat(part.chunks).toString("utf8");
        part = undefined;
        buffer = buffer.subarray(at + delimiter.length);
        state = "afterBoundary";
      } else {
        return;
      }
    }
  }

  for await (const chunk of body) {
    if (state === "done") continue;
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    await process();
  }
  if (state !== "done") throw new MultipartError("unexpected end of form");
  return { fields, sawFile };
}
