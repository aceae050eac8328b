import type { ReactNode } from "react";
import { preloadRoom } from "@/lib/rooms/room-loader";

type Params = Promise<{ slug: string }>;

/**
 * Every page of a room: starts loading the room as soon as the request arrives, so the page and its
 * metadata read that one load. It renders nothing of its own and decides nothing: a layout is not
 * rendered again when a person moves between a room's pages, so each page still says "not found"
 * for a room that is gone (or, on settings, asks a signed-out person to sign in first), and a load
 * that fails does so in the page, inside this segment's error boundary (a layout's own errors go to
 * the parent's).
 */
export default async function RoomLayout({ children, params }: { children: ReactNode; params: Params }) {
  preloadRoom((await params).slug);
  return children;
}
