import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Feed } from "@/components/posts/feed";
import { decodeCursor } from "@/lib/posts/cursor";
import { getRoomAccess } from "@/lib/posts/room-access";
import { createClient } from "@/lib/supabase/server";

type Params = Promise<{ slug: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const access = await getRoomAccess(await createClient(), (await params).slug);
  return { title: access ? access.room.name : "Room not found" };
}

// The room page's posts; the room's header, gate and join controls come with the rooms pages.
export default async function RoomPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const access = await getRoomAccess(await createClient(), (await params).slug);
  if (!access) notFound();
  const cursor = decodeCursor((await searchParams).before);
  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10">
      <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{access.room.name}</h1>
      <Feed room={access.room} canRead={access.canRead} isMember={access.role !== null} signedIn={access.userId !== null} cursor={cursor} />
    </main>
  );
}
