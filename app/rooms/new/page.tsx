import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CreateRoomForm } from "@/components/rooms/create-room-form";
import { Card } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { serverChainConfig } from "@/lib/chain/config";
import { serverChainCredentials } from "@/lib/chain/server-credentials";

export const metadata: Metadata = { title: "Create a room" };

export default async function NewRoomPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/login?next=/rooms/new");
  const credentials = serverChainCredentials();
  const chains = serverChainConfig().chains.map(({ id, name }) => ({ id, name }));
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Create a room</h1>
        <p className="text-muted">A place for your community to share music and video and talk about the moments in them.</p>
      </div>
      <Card>
        <CreateRoomForm chains={chains} gateUnavailable={credentials.ok ? null : credentials.error} />
      </Card>
    </main>
  );
}
