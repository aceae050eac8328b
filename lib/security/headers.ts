// Security headers that are the same on every response (next.config.ts). The Content-Security-Policy
// varies per request (its nonce) and is set in proxy.ts from lib/security/csp.ts.

/** `framable`: the embeddable player's pages, which any site may frame (their policy's frame-ancestors says so). */
export function staticSecurityHeaders(production: boolean, { framable = false } = {}): { key: string; value: string }[] {
  return [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    // Nothing the app does needs these; autoplay and fullscreen keep their defaults, which the
    // players' iframes receive through their own `allow` attributes.
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
    ...(framable ? [] : [{ key: "X-Frame-Options", value: "DENY" }]),
    ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains; preload" }] : []),
  ];
}
