// The digest email (lib/notifications/email.ts) and the unsubscribe token's shape
// (lib/notifications/email-token.ts): what claim_email_digest answers becomes a subject, a text and
// an HTML part (names and words escaped), and the one-click unsubscribe headers of RFC 8058.
import { describe, expect, test } from "vitest";
import {
  buildDigestEmail,
  digestSubject,
  escapeHtml,
  notificationHref,
  notificationSentence,
  parseDigestClaim,
  type DigestNotification,
} from "@/lib/notifications/email";
import { isUnsubscribeToken, unsubscribePath } from "@/lib/notifications/email-token";

const allToken = "A".repeat(21) + "-_" + "z9".repeat(10);
const mentionToken = "b".repeat(43);
const site = "https://cuepoint.example/";

const mention: DigestNotification = {
  id: "11111111-1111-4111-8111-111111111111",
  kind: "mention",
  created_at: "2026-11-27T10:00:00Z",
  data: {},
  actor_username: "ada",
  actor_display_name: `Ada <script>alert("x")</script>`,
  room_slug: "night-owls",
  room_name: "Night & Owls",
  post_id: "22222222-2222-4222-8222-222222222222",
  post_title: "Side <A>",
  moment_id: "33333333-3333-4333-8333-333333333333",
  excerpt: `hey @bo listen to this <img src=x onerror="alert(1)"> & that`,
};

const lapsedReply: DigestNotification = {
  ...mention,
  id: "44444444-4444-4444-8444-444444444444",
  kind: "reply",
  actor_username: null,
  actor_display_name: null,
  room_name: "Gated",
  room_slug: "gated",
  post_id: null,
  post_title: null,
  moment_id: "55555555-5555-4555-8555-555555555555",
  excerpt: null,
};

const claimJson = {
  user_id: "66666666-6666-4666-8666-666666666666",
  email: "bo@example.test",
  claimed_at: "2026-11-27T10:05:00Z",
  previous_digest_at: null,
  total: 3,
  notifications: [mention, lapsedReply],
  unsubscribe: { all: allToken, kinds: { mention: mentionToken, reply: "not a token" } },
};

describe("the unsubscribe token", () => {
  test("is 43 characters of base64url", () => {
    expect(isUnsubscribeToken(allToken)).toBe(true);
    expect(isUnsubscribeToken(mentionToken)).toBe(true);
  });
  test("anything else is not one", () => {
    for (const bad of ["", "a".repeat(42), "a".repeat(44), "a".repeat(42) + "=", "a".repeat(42) + "+", "a".repeat(42) + "/", null, 43]) {
      expect(isUnsubscribeToken(bad)).toBe(false);
    }
  });
  test("its link is /email/unsubscribe?token=…", () => {
    expect(unsubscribePath(allToken)).toBe(`/email/unsubscribe?token=${allToken}`);
  });
});

describe("reading a claim", () => {
  test("keeps the notifications and only well-formed tokens", () => {
    const claim = parseDigestClaim(claimJson)!;
    expect(claim.email).toBe("bo@example.test");
    expect(claim.total).toBe(3);
    expect(claim.notifications).toHaveLength(2);
    expect(claim.unsubscribe).toEqual({ all: allToken, kinds: { mention: mentionToken } });
  });
  test("nothing to send is null", () => {
    expect(parseDigestClaim(null)).toBeNull();
    expect(parseDigestClaim({ ...claimJson, notifications: [] })).toBeNull();
    expect(parseDigestClaim({ ...claimJson, email: "nobody" })).toBeNull();
    expect(parseDigestClaim({ ...claimJson, unsubscribe: { all: "short", kinds: {} } })).toBeNull();
  });
  test("a total smaller than the list is the list's length", () => {
    expect(parseDigestClaim({ ...claimJson, total: 1 })!.total).toBe(2);
  });
});

describe("the subject", () => {
  test("counts the notifications", () => {
    expect(digestSubject(1)).toBe("1 new notification on Cuepoint");
    expect(digestSubject(3)).toBe("3 new notifications on Cuepoint");
  });
});

describe("each notification", () => {
  test("names who, what and where", () => {
    expect(notificationSentence(mention)).toBe(`Ada <script>alert("x")</script> mentioned you in Night & Owls on “Side <A>”`);
    expect(notificationSentence({ ...mention, actor_display_name: null })).toBe("@ada mentioned you in Night & Owls on “Side <A>”");
  });
  test("a room the person can no longer read: someone, the room, no title", () => {
    expect(notificationSentence(lapsedReply)).toBe("Someone replied to your comment in Gated");
  });
  test("other kinds", () => {
    expect(
      notificationSentence({ ...mention, kind: "reaction", data: { emoji: "🔥", count: 3 }, actor_display_name: null, post_title: null }),
    ).toBe("@ada reacted 🔥 to your comment in Night & Owls (3 reactions)");
    expect(notificationSentence({ ...lapsedReply, kind: "membership_ended", data: { why: "lapsed" } })).toBe(
      "Your membership of Gated ended: your wallets no longer hold its token",
    );
    expect(notificationSentence({ ...lapsedReply, kind: "role_changed", data: { from: "member", to: "moderator" } })).toBe(
      "You are now a moderator of Gated",
    );
    expect(notificationSentence({ ...lapsedReply, kind: "moderation", data: { action: "comment_hidden", reason: "spam" } })).toBe(
      "A moderator hid your comment in Gated. Reason: spam",
    );
  });
  test("links to the comment, else the post, else the room", () => {
    expect(notificationHref(mention, site)).toBe(`https://cuepoint.example/m/${mention.moment_id}`);
    expect(notificationHref({ ...mention, moment_id: null }, site)).toBe(`https://cuepoint.example/r/night-owls/p/${mention.post_id}`);
    expect(notificationHref({ ...mention, moment_id: null, post_id: null }, site)).toBe("https://cuepoint.example/r/night-owls");
  });
});

describe("the email", () => {
  const email = buildDigestEmail(parseDigestClaim(claimJson)!, site);

  test("goes to the person with the subject", () => {
    expect(email.to).toBe("bo@example.test");
    expect(email.subject).toBe("3 new notifications on Cuepoint");
  });

  test("carries the one-click unsubscribe headers (RFC 8058)", () => {
    expect(email.headers).toEqual({
      "List-Unsubscribe": `<https://cuepoint.example/email/unsubscribe?token=${allToken}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  test("the text part: each sentence, its words and its link, then the unsubscribe links", () => {
    expect(email.text).toContain(`- Ada <script>alert("x")</script> mentioned you in Night & Owls on “Side <A>”`);
    expect(email.text).toContain(`  “hey @bo listen to this <img src=x onerror="alert(1)"> & that”`);
    expect(email.text).toContain(`  https://cuepoint.example/m/${mention.moment_id}`);
    expect(email.text).toContain("- Someone replied to your comment in Gated");
    expect(email.text).toContain("And 1 more: https://cuepoint.example/notifications");
    expect(email.text).toContain(`Stop all these emails: https://cuepoint.example/email/unsubscribe?token=${allToken}`);
    expect(email.text).toContain(`Stop emails about mentions: https://cuepoint.example/email/unsubscribe?token=${mentionToken}`);
    expect(email.text).not.toContain("not a token");
  });

  test("the HTML part escapes names, titles and words", () => {
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<img");
    expect(email.html).not.toContain("<A>");
    expect(email.html).toContain(
      "Ada &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; mentioned you in Night &amp; Owls on “Side &lt;A&gt;”",
    );
    expect(email.html).toContain("hey @bo listen to this &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; that");
    expect(email.html).toContain(`href="https://cuepoint.example/m/${mention.moment_id}"`);
    expect(email.html).toContain(`href="https://cuepoint.example/email/unsubscribe?token=${allToken}"`);
  });

  test("a lapsed member's item has no words", () => {
    const lapsedOnly = buildDigestEmail(parseDigestClaim({ ...claimJson, total: 1, notifications: [lapsedReply] })!, site);
    expect(lapsedOnly.subject).toBe("1 new notification on Cuepoint");
    expect(lapsedOnly.text).not.toContain("“");
    expect(lapsedOnly.text).not.toContain("more:");
  });

  test("a long excerpt is cut at a word", () => {
    const long = buildDigestEmail(parseDigestClaim({ ...claimJson, notifications: [{ ...mention, excerpt: "word ".repeat(60) }] })!, site);
    const line = long.text.split("\n").find((l) => l.startsWith("  “"))!;
    expect(line.length).toBeLessThan(210);
    expect(line).toMatch(/word…”$/);
  });
});

test("escapeHtml escapes the five", () => {
  expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
});
