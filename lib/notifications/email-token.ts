// An unsubscribe link's token: 32 random bytes as unpadded base64url (43 characters), made by the
// database (private.issue_unsubscribe_token), which keeps only its SHA-256. The same shape is
// checked here before a request reaches the database. Imported by the edge function by relative
// path, so no path aliases.

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export function isUnsubscribeToken(value: unknown): value is string {
  return typeof value === "string" && tokenShape.test(value);
}

/** The link in an email's List-Unsubscribe header and its footer: GET shows a page, POST unsubscribes. */
export function unsubscribePath(token: string): string {
  return `/email/unsubscribe?token=${encodeURIComponent(token)}`;
}
