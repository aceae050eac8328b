import { z } from "./zod.ts";
import type { EmbedMetadata } from "../media/oembed-normalise.ts";
import { mediaUrlMaxLength } from "../media/url-rules.ts";

// The embed function's request and answers, shared by the post form (which calls it and shows
// the messages) and the function (which validates again). Deno imports this file by relative path.

export const embedRequestSchema = z.object({ url: z.string().max(mediaUrlMaxLength + 64) }).strict();

export type EmbedRequest = z.infer<typeof embedRequestSchema>;

export const embedMessages = {
  malformed: 'Send {"url": "https://…"} with the link to look up.',
  notSignedIn: "Sign in to look up a link's details.",
  notAllowListed:
    "We can only read details for YouTube, Vimeo, SoundCloud, Spotify, Twitch, TikTok, Wistia and Mux links — you can still post this one.",
  /** The provider did not answer in time, or could not be reached at all. */
  unreachable: (provider: string) => `We couldn't reach ${provider} to read this link's details — you can still post it`,
  /** The provider answered, but with no details for this link (private, removed, or unknown to it). */
  notFound: (provider: string) => `${provider} has no details for this link (it may be private or removed) — you can still post it`,
  /** The answer was not one we read: too large, not JSON, or sent us elsewhere. */
  badAnswer: (provider: string) => `${provider} answered with something we couldn't read for this link — you can still post it`,
  internal: "Something went wrong on our side reading this link's details — you can still post it.",
} as const;

export type EmbedFailureCode =
  | "invalid_url"
  | "not_allow_listed"
  | "malformed"
  | "not_signed_in"
  | "provider_unreachable"
  | "provider_not_found"
  | "provider_bad_answer"
  | "internal";

export type EmbedResponse =
  { url: string; embed: EmbedMetadata; cached: boolean } | { code: EmbedFailureCode; error: string; provider?: string };
