// The settings page's own rules: which cover files the browser lets through before uploading,
// which paths rooms.cover_path may be pointed at, and how Postgres' refusals read to people.
import { describe, expect, test } from "vitest";
import { isCoverPathOf } from "@/lib/rooms/covers";
import { checkUploadFile, coverObjectPath } from "@/lib/storage/buckets";
import { roomWriteError } from "@/lib/rooms/write-errors";

const room = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

describe("cover files", () => {
  test("PNG, JPEG and WebP up to 5 MB pass; other types, bigger files and empty ones are named", () => {
    expect(checkUploadFile("room-covers", { type: "image/png", size: 5 * 1024 * 1024 })).toBeNull();
    expect(checkUploadFile("room-covers", { type: "image/jpeg", size: 1 })).toBeNull();
    expect(checkUploadFile("room-covers", { type: "image/webp", size: 1 })).toBeNull();
    expect(checkUploadFile("room-covers", { type: "image/gif", size: 1 })).toBe("Covers can be PNG, JPEG or WebP");
    expect(checkUploadFile("room-covers", { type: "image/svg+xml", size: 1 })).toBe("Covers can be PNG, JPEG or WebP");
    expect(checkUploadFile("room-covers", { type: "image/png", size: 5 * 1024 * 1024 + 1 })).toBe("Covers up to 5 MB");
    expect(checkUploadFile("room-covers", { type: "image/png", size: 0 })).toBe("That file is empty");
  });

  test("each upload gets a new name in the room's folder, and only such names are the room's", () => {
    expect(coverObjectPath(room, "image/webp", 42)).toBe(`${room}/cover-42.webp`);
    expect(coverObjectPath(room, "image/jpeg", 43)).toBe(`${room}/cover-43.jpg`);
    expect(isCoverPathOf(room, coverObjectPath(room, "image/png"))).toBe(true);
    for (const path of [`${room}/`, `${room}/a/b.png`, `${room}/../x.png`, `other/${room}/x.png`, "x.png", `${room}x/a.png`]) {
      expect(isCoverPathOf(room, path), path).toBe(false);
    }
  });
});

describe("Postgres' refusals in words", () => {
  test("constraints read as the message of the field they concern", () => {
    expect(roomWriteError({ code: "23505", message: 'duplicate key value violates unique constraint "rooms_slug_key"' }, "x")).toEqual({
      field: "slug",
      message: "That address is taken",
    });
    expect(
      roomWriteError({ code: "23514", message: 'new row for relation "rooms" violates check constraint "rooms_name_length"' }, "x"),
    ).toEqual({ field: "name", message: "Room names are 1–80 characters" });
    expect(
      roomWriteError(
        { code: "23514", message: 'new row for relation "room_gates" violates check constraint "room_gates_min_balance_positive"' },
        "x",
      ),
    ).toMatchObject({ field: "minBalance" });
  });

  test("the rooms guards' sentences pass through; row-level security and anything else read as the fallback", () => {
    expect(roomWriteError({ code: "42501", message: "Only the owner changes the room's address or who may enter it" }, "x")).toEqual({
      message: "Only the owner changes the room's address or who may enter it.",
    });
    expect(roomWriteError({ code: "42501", message: 'new row violates row-level security policy for table "rooms"' }, "Fallback.")).toEqual(
      { message: "Fallback." },
    );
    expect(roomWriteError({ code: "08006", message: "connection failure" }, "Fallback.")).toEqual({ message: "Fallback." });
  });
});
