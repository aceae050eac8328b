import { Card } from "@/components/ui/card";

/** What a visitor to a gated room sees instead of its posts. */
export function MembersOnly({ signedIn }: { signedIn: boolean }) {
  return (
    <Card>
      <h2 className="text-lg font-semibold">Posts are for members only</h2>
      <p className="mt-2 text-muted">
        This room is gated: only holders of its token who have joined can see and add posts.{" "}
        {signedIn ? "Join the room with a wallet that holds the token to see them." : "Sign in and join the room with a wallet that holds the token to see them."}
      </p>
    </Card>
  );
}
