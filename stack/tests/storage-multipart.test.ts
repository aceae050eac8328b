// The Storage service's streaming multipart reader, on forms encoded the way storage-js sends them
// (undici's FormData), cut into chunks of every awkward size.
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { boundaryOf, MultipartError, readMultipart } from "../server/storage/multipart.ts";

async function encode(form: FormData): Promise<{ body: Buffer; boundary: string }> {
  const response = new Response(form);
  const boundary = boundaryOf(response.headers.get("content-type") ?? "");
  if (!boundary) throw new Error("no boundary");
  return { body: Buffer.from(await response.arrayBuffer()), boundary };
}

async function* chunks(body: Buffer, size: number): AsyncIterable<Buffer> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

async function read(body: Buffer, boundary: string, size: number) {
  const received: Buffer[] = [];
  let head: unknown;
  let fieldsAtFile: Record<string, string> = {};
  const result = await readMultipart(chunks(body, size), boundary, {
    onFileStart: (part, fields) => {
      head = part;
      fieldsAtFile = fields;
    },
    onFileData: async (chunk) => {
      received.push(Buffer.from(chunk));
    },
  });
  return { ...result, head, fieldsAtFile, file: Buffer.concat(received) };
}

describe("multipart reader", () => {
  test.each([1, 3, 7, 64, 4096, 1 << 20])("reads fields and the file from %i-byte chunks", async (size) => {
    // Bytes that look like parts of a delimiter must come through untouched.
    const file = Buffer.concat([
      randomBytes(3000),
      Buffer.from("\r\n--\r\n-\r\n--formdata-undici"),
      randomBytes(3000),
      Buffer.from("\r\n"),
    ]);
    const form = new FormData();
    form.append("cacheControl", "3600");
    form.append("metadata", JSON.stringify({ a: 1 }));
    form.append("", new Blob([file], { type: "image/png" }), "pic.png");
    form.append("after", "ignored by storage");
    const { body, boundary } = await encode(form);
    const result = await read(body, boundary, size);
    expect(result.sawFile).toBe(true);
    expect(result.head).toEqual({ fieldName: "", filename: "pic.png", contentType: "image/png" });
    expect(result.fieldsAtFile).toEqual({ cacheControl: "3600", metadata: '{"a":1}' });
    expect(result.fields).toEqual({ cacheControl: "3600", metadata: '{"a":1}', after: "ignored by storage" });
    expect(result.file.equals(file)).toBe(true);
  });

  test("an empty file and a form without a file", async () => {
    const empty = new FormData();
    empty.append("", new Blob([], { type: "text/plain" }), "empty.txt");
    const encodedEmpty = await encode(empty);
    const result = await read(encodedEmpty.body, encodedEmpty.boundary, 5);
    expect(result.sawFile).toBe(true);
    expect(result.file.length).toBe(0);

    const fieldsOnly = new FormData();
    fieldsOnly.append("cacheControl", "60");
    const encodedFields = await encode(fieldsOnly);
    expect((await read(encodedFields.body, encodedFields.boundary, 2)).sawFile).toBe(false);
  });

  test("a form cut short is an error, not a file", async () => {
    const form = new FormData();
    form.append("", new Blob([randomBytes(1000)]), "x.bin");
    const { body, boundary } = await encode(form);
    await expect(read(body.subarray(0, body.length - 10), boundary, 100)).rejects.toBeInstanceOf(MultipartError);
    await expect(read(Buffer.from("no boundary at all"), boundary, 4)).rejects.toBeInstanceOf(MultipartError);
  });
});
