import { canPlay } from "react-player/patterns";

// Which links a post may carry: https URLs that one of react-player's players can play (its own
// patterns, the same test its <ReactPlayer> uses to pick a player). Shared by the form and the server.

const players = Object.entries(canPlay) as [keyof typeof canPlay, (url: string) => boolean][];

/** The react-player player for a URL, or null when none plays it (or it is not a plain https URL). */
export function playerFor(value: string): keyof typeof canPlay | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || !url.hostname.includes(".")) return null;
  return players.find(([, test]) => test(value))?.[0] ?? null;
}

export function isPlayableUrl(value: string): boolean {
  return playerFor(value) !== null;
}

const providerNames: Partial<Record<keyof typeof canPlay, string>> = {
  youtube: "YouTube",
  vimeo: "Vimeo",
  wistia: "Wistia",
  spotify: "Spotify",
  twitch: "Twitch",
  tiktok: "TikTok",
  mux: "Mux",
};

const hostNames: [RegExp, string][] = [[/(^|\.)soundcloud\.com$/, "SoundCloud"]];

/** The name people know a link's host by, for messages ("We couldn't reach YouTube …"). */
export function providerName(value: string): string {
  const player = playerFor(value);
  if (player && providerNames[player]) return providerNames[player];
  try {
    const host = new URL(value).hostname;
    return hostNames.find(([pattern]) => pattern.test(host))?.[1] ?? host;
  } catch {
    return "the site";
  }
}
