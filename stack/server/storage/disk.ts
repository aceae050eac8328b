import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { copyFile, link, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { stateDir } from "../../lib/paths.ts";
import { errors } from "./errors.ts";

/**
 * Object bytes on disk: `<stateDir>/storage/<bucket>/<name>.<version>`. Every upload gets a new
 * version, so a file is written once (to a temporary file, then renamed into place) and never
 * changed; replacing or moving an object points its row at a new file and deletes the old one.
 */
const storageRoot = path.join(stateDir, "storage");
const uploadsDir = path.join(stateDir, "storage-uploads");

function bucketDir(bucket: string): string {
  const dir = path.resolve(storageRoot, bucket);
  if (path.dirname(dir) !== storageRoot) throw errors.invalidBucketName();
  return dir;
}

function objectPath(bucket: string, name: string, version: string): string {
  const root = bucketDir(bucket);
  const file = path.resolve(root, ...name.split("/")) + (name.endsWith("/") ? `/.${version}` : `.${version}`);
  if (!file.startsWith(root + path.sep)) throw errors.invalidKey(name);
  return file;
}

/** A file being received: bytes go to a temporary file while its size and MD5 are counted. */
export class IncomingFile {
  readonly tempPath = path.join(uploadsDir, randomUUID());
  size = 0;
  private readonly hash = createHash("md5");
  private stream?: WriteStream;
  private failure?: Error;

  private async opened(): Promise<WriteStream> {
    if (!this.stream) {
      await mkdir(uploadsDir, { recursive: true });
      // A buffered stream lets the next request chunk arrive while the last one is written.
      this.stream = createWriteStream(this.tempPath, { highWaterMark: 1024 * 1024 });
      this.stream.on("error", (error) => {
        this.failure = error;
      });
    }
    if (this.failure) throw this.failure;
    return this.stream;
  }

  async write(chunk: Buffer): Promise<void> {
    const stream = await this.opened();
    this.size += chunk.length;
    this.hash.update(chunk);
    if (!stream.write(chunk)) await Promise.race([once(stream, "drain"), once(stream, "close")]);
  }

  async close(): Promise<{ size: number; eTag: string }> {
    const stream = await this.opened();
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (this.failure) throw this.failure;
    return { size: this.size, eTag: `"${this.hash.digest("hex")}"` };
  }

  /** Moves the finished file to where the object's version lives. */
  async placeAt(bucket: string, name: string, version: string): Promise<string> {
    const target = objectPath(bucket, name, version);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(this.tempPath, target);
    return target;
  }

  async discard(): Promise<void> {
    if (this.stream && !this.stream.closed) {
      const closed = once(this.stream, "close").catch(() => undefined);
      this.stream.destroy();
      await closed;
    }
    await unlink(this.tempPath).catch(() => undefined);
  }
}

/** Gives an existing version's bytes to a new version: a hard link, as versions are immutable. */
export async function duplicateObject(
  from: { bucket: string; name: string; version: string },
  to: { bucket: string; name: string; version: string },
): Promise<void> {
  const source = objectPath(from.bucket, from.name, from.version);
  const target = objectPath(to.bucket, to.name, to.version);
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await link(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw errors.noSuchKey();
    const temp = path.join(uploadsDir, randomUUID());
    await mkdir(uploadsDir, { recursive: true });
    await copyFile(source, temp);
    await rename(temp, target);
  }
}

/** Deletes a version's bytes and the folders it leaves empty (never the bucket's own folder). */
export async function removeObjectFile(bucket: string, name: string, version: string | null | undefined): Promise<void> {
  if (!version) return;
  let file: string;
  try {
    file = objectPath(bucket, name, version);
  } catch {
    return;
  }
  await unlink(file).catch(() => undefined);
  const root = bucketDir(bucket);
  for (let dir = path.dirname(file); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      break;
    }
  }
}

export async function removeBucketFiles(bucket: string): Promise<void> {
  await rm(bucketDir(bucket), { recursive: true, force: true });
}

export async function openObject(
  bucket: string,
  name: string,
  version: string,
  range?: { start: number; end: number },
): Promise<ReadStream> {
  const file = objectPath(bucket, name, version);
  await stat(file).catch(() => {
    throw errors.noSuchKey();
  });
  return createReadStream(file, { highWaterMark: 1024 * 1024, ...(range ? { start: range.start, end: range.end } : {}) });
}

/** An object's bytes, read whole (image transformation reads sources of at most `maxBytes`). */
export async function readObjectFile(bucket: string, name: string, version: string): Promise<Buffer> {
  return readFile(objectPath(bucket, name, version)).catch(() => {
    throw errors.noSuchKey();
  });
}

const versionSuffix = /\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Startup clean-up after a crash: drops unfinished uploads, and object files no row points at
 * (bytes moved into place by a transaction that never committed). `isKnown` says whether a
 * bucket/name/version has a row. Runs before the API listens, so no upload is in flight.
 */
export async function sweepOrphans(isKnown: (bucket: string, name: string, version: string) => boolean): Promise<number> {
  await rm(uploadsDir, { recursive: true, force: true });
  let removed = 0;
  const buckets = await readdir(storageRoot).catch(() => [] as string[]);
  for (const bucket of buckets) {
    const root = path.join(storageRoot, bucket);
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      const version = versionSuffix.exec(relative)?.[1];
      if (!version) continue;
      // `<name>.<version>`; a name ending in "/" is stored as `<name>.<version>` inside its folder.
      const name = relative.slice(0, -(version.length + 1));
      if (isKnown(bucket, name, version)) continue;
      await removeObjectFile(bucket, name, version);
      removed++;
    }
  }
  return removed;
}
