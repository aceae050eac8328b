/** What a visitor to a gated room sees instead of its posts. */
export function MembersOnly({ signedIn }: { signedIn: boolean }) {
  return (
    <section
      aria-labelledby="members-only"
      className="flex flex-col gap-2 rounded-2xl border border-dashed border-line px-5 py-8 text-center"
    >
      <h2 id="members-only" className="text-lg font-semibold">
        Posts are for members
      </h2>
      <p className="text-muted">Posts in this room are for members. Join to read them.</p>
      <p className="text-sm text-muted">
        This room is gated: only holders of its token who have joined can see and add posts.{" "}
        {signedIn ? "Join with a linked wallet that holds the token." : "Sign in, then join with a linked wallet that holds the token."}
      </p>
    </section>
  );
}
