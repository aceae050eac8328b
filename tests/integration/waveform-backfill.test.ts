// The backfill (`npm run media:waveforms`): uploads without a waveform get one, decoded in Chromium
// as the upload form decodes; a file that cannot be decoded stays without; one that has a waveform
// keeps it; running it again changes nothing; adding a waveform is not an edit.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { backfillWaveforms } from "../../scripts/media-waveforms";
import { openWaveformDecoder, type WaveformDecoder } from "../../scripts/waveform-decoder";
import { mp3Bytes, rampThenHalf, shapedTone, wavBytes } from "../helpers/audio-fixtures";
import { createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, serviceClient } from "../helpers/stack";

const admin = serviceClient();
let author: TestUser;
let room: { id: string; slug: string };
let decoder: WaveformDecoder;

beforeAll(async () => {
  author = await signedInUser("waveform-author");
  room = await createRoom(author.id, "public");
  decoder = await openWaveformDecoder();
});

afterAll(async () => {
  await decoder?.close();
  if (room) {
    const files = await adminQuery<{ name: string }>("select name from storage.objects where bucket_id = 'media' and name like $1", [
      `${room.id}/%`,
    ]);
    await adminQuery("delete from public.rooms where id = $1", [room.id]);
    if (files.length) await admin.storage.from("media").remove(files.map((file) => file.name));
  }
  await deleteUsers(author);
});

/** An old upload: its file stored and its post written without a waveform (or with the one given), a day ago. */
async function oldUpload(title: string, bytes: Uint8Array, type: string, waveform: number[] | null = null): Promise<string> {
  const path = `${room.id}/${author.id}/${randomUUID()}.${type === "audio/mpeg" ? "mp3" : "wav"}`;
  const stored = await admin.storage.from("media").upload(path, bytes, { contentType: type });
  if (stored.error) throw stored.error;
  const [post] = await adminQuery<{ id: string }>(
    `insert into public.posts (room_id, author_id, title, media_kind, storage_path, waveform, created_at, updated_at)
     values ($1, $2, $3, 'upload', $4, $5, now() - interval '1 day', now() - interval '1 day') returning id`,
    [room.id, author.id, title, path, waveform],
  );
  return post.id;
}

const rowsOf = async () =>
  new Map(
    (
      await adminQuery<{ id: string; waveform: number[] | null; updated_at: Date }>(
        "select id, waveform, updated_at from public.posts where room_id = $1",
        [room.id],
      )
    ).map((row) => [row.id, row]),
  );

test("uploads without a waveform get the one their file has, once; the rest stay as they were", async () => {
  const rate = 22050;
  const tone = shapedTone(4, rate, rampThenHalf(4));
  const wav = await oldUpload("Old WAV", wavBytes([tone], rate, "pcm16"), "audio/wav");
  const mp3 = await oldUpload("Old MP3", mp3Bytes([tone, tone], rate), "audio/mpeg");
  const broken = await oldUpload("Not really sound", new TextEncoder().encode("ID3 but nothing after it"), "audio/mpeg");
  const done = await oldUpload("Has one", wavBytes([tone], rate, "pcm16"), "audio/wav", [7, 8, 9]);
  const before = await rowsOf();

  const lines: string[] = [];
  expect(await backfillWaveforms(admin, decoder, { log: (line) => lines.push(line), roomId: room.id })).toEqual({ added: 2, failed: 1 });
  expect(lines).toEqual([`post ${broken}: no waveform (its file could not be read or decoded)`]);

  const after = await rowsOf();
  for (const id of [wav, mp3]) {
    const waveform = after.get(id)!.waveform!;
    expect(waveform).toHaveLength(1000);
    // The tone's shape (away from its edges, which decoding blurs by a few milliseconds): rising to
    // full scale over the first half, half as loud for a quarter, then silent.
    expect(waveform[240]).toBeLessThan(waveform[480]);
    expect(Math.abs(waveform[240] - 122)).toBeLessThanOrEqual(16); // at 0.96 s: 0.48 of full scale (MP3 lags a little)
    expect(Math.max(...waveform.slice(480, 495))).toBeGreaterThanOrEqual(225);
    expect(waveform.slice(520, 740).every((peak) => Math.abs(peak - 128) <= 12)).toBe(true);
    expect(Math.max(...waveform.slice(780))).toBeLessThan(10);
    // Not an edit: the post's time of last change stays.
    expect(after.get(id)!.updated_at.getTime()).toBe(before.get(id)!.updated_at.getTime());
  }
  expect(after.get(broken)!.waveform).toBeNull();
  expect(after.get(done)!.waveform).toEqual([7, 8, 9]);

  // Again: nothing new to add; the undecodable file is tried and left as it is.
  expect(await backfillWaveforms(admin, decoder, { roomId: room.id })).toEqual({ added: 0, failed: 1 });
  expect(await rowsOf()).toEqual(after);
});

test("an author's own REST client cannot store absurd peaks, nor change them afterwards", async () => {
  const path = `${room.id}/${author.id}/${randomUUID()}.wav`;
  const stored = await author.client.storage.from("media").upload(path, wavBytes([shapedTone(1, 8000, () => 0.5)], 8000, "pcm16"), {
    contentType: "audio/wav",
  });
  expect(stored.error).toBeNull();
  const post = { room_id: room.id, author_id: author.id, title: "Mine", media_kind: "upload", storage_path: path };
  for (const waveform of [new Array(5000).fill(255), [1, 999], [-3]]) {
    const { error } = await author.client.from("posts").insert({ ...post, waveform });
    expect(error?.code).toBe("23514");
    expect(error?.message).toContain("posts_waveform_shape");
  }
  const { data, error } = await author.client
    .from("posts")
    .insert({ ...post, waveform: [1, 2, 3] })
    .select("id")
    .single();
  expect(error).toBeNull();
  const changed = await author.client
    .from("posts")
    .update({ waveform: [255, 255, 255] })
    .eq("id", data!.id);
  expect(changed.error?.code).toBe("42501");
  expect((await adminQuery<{ waveform: number[] }>("select waveform from public.posts where id = $1", [data!.id]))[0].waveform).toEqual([
    1, 2, 3,
  ]);
});
