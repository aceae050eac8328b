import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { SupabaseProvider } from "@/components/supabase-provider";
import { getCurrentUser } from "@/lib/auth/current-user";
import { embedChromeHeader } from "@/lib/embed/oembed";
import { appBuildId } from "@/lib/pwa/build-id";
import { serviceWorkerScript } from "@/lib/pwa/register-script";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Cuepoint", template: "%s · Cuepoint" },
  description: "Share music and video with your community and talk about the exact moments in them, live.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
  // The browser's and the installed app's title bar take the header's colour, light or dark.
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#1c1917" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // An embedded player (/embed/…, framed by other sites) is the page alone: no header, no session.
  // So is the offline page ("bare"), which the service worker keeps for anyone.
  const requestHeaders = await headers();
  const chrome = requestHeaders.get(embedChromeHeader);
  if (chrome === "embed" || chrome === "bare") {
    return (
      <html lang="en">
        <body>{children}</body>
      </html>
    );
  }
  const user = await getCurrentUser();
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <SupabaseProvider serverUserId={user?.id ?? null}>
          <SiteHeader user={user} />
          {children}
        </SupabaseProvider>
        <script
          nonce={requestHeaders.get("x-nonce") ?? undefined}
          dangerouslySetInnerHTML={{ __html: serviceWorkerScript(appBuildId()) }}
        />
      </body>
    </html>
  );
}
