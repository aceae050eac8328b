// Whether react-player can play a link, by react-player's own rules. `react-player/patterns` is
// the module react-player's players list takes each player's `canPlay` from; it imports nothing,
// so a form can import this file without pulling any player (or React) into its bundle.
// `mediaPlayers` repeats react-player's list order (the first player that can play a link plays
// it); a unit test holds it equal to `react-player/players`.
import { canPlay } from "react-player/patterns";
import { checkMediaUrl, type MediaUrlProblem } from "./url-rules.ts";

export const mediaPlayers = [
  { key: "hls", name: "HLS stream" },
  { key: "dash", name: "DASH stream" },
  { key: "mux", name: "Mux" },
  { key: "youtube", name: "YouTube" },
  { key: "vimeo", name: "Vimeo" },
  { key: "wistia", name: "Wistia" },
  { key: "spotify", name: "Spotify" },
  { key: "twitch", name: "Twitch" },
  { key: "tiktok", name: "TikTok" },
  { key: "html", name: "audio or video file" },
] as const satisfies readonly { key: keyof typeof canPlay; name: string }[];

export type MediaPlayerKey = (typeof mediaPlayers)[number]["key"];

export const notPlayableMessage =
  "We can't play links from there. Paste a YouTube, Vimeo, Wistia, Mux, Twitch, Spotify or TikTok link, an HLS/DASH stream, or a link to an audio or video file.";

export type PlayableUrlCheck =
  { ok: true; url: string; player: MediaPlayerKey } | { ok: false; problem: MediaUrlProblem | "not_playable"; error: string };

/** The react-player player that would play this (already parsed) link, or null. */
export function playerFor(url: string): MediaPlayerKey | null {
  return mediaPlayers.find((player) => canPlay[player.key](url))?.key ?? null;
}

/** The link's rules (https, public host, length) and then react-player's: the form's and the server's check. */
export function checkPlayableUrl(input: string): PlayableUrlCheck {
  const checked = checkMediaUrl(input);
  if (!checked.ok) return checked;
  const url = checked.url.href;
  const player = playerFor(url);
  if (!player) return { ok: false, problem: "not_playable", error: notPlayableMessage };
  return { ok: true, url, player };
}

export function isPlayableUrl(input: string): boolean {
  return checkPlayableUrl(input).ok;
}
