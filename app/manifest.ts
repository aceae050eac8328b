import type { MetadataRoute } from "next";

// The installed app: its name, window and icons (drawn by scripts/app-icons.ts). The colours are the
// light palette's; the layout's theme-color tags give the title bar the dark one in dark mode.
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: "/",
    name: "Cuepoint",
    short_name: "Cuepoint",
    description: "Share music and video with your community and talk about the exact moments in them, live.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: "#ffffff",
    background_color: "#fafaf9",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
