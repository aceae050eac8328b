import { bodyText, lineText } from "./text.ts";
import { z } from "./zod.ts";

// One schema for the profile form, its server action, and anything else that accepts a profile.
// The database enforces the same rules (profiles_* constraints); tests keep the two in step.

export const reservedUsernames = [
  "about",
  "account",
  "admin",
  "administrator",
  "api",
  "app",
  "auth",
  "callback",
  "confirm",
  "cuepoint",
  "dashboard",
  "edit",
  "error",
  "explore",
  "help",
  "home",
  "login",
  "logout",
  "me",
  "mod",
  "moderator",
  "new",
  "null",
  "owner",
  "p",
  "password",
  "privacy",
  "r",
  "room",
  "rooms",
  "root",
  "search",
  "settings",
  "signin",
  "signout",
  "signup",
  "static",
  "support",
  "system",
  "terms",
  "u",
  "undefined",
  "user",
  "users",
] as const;

export const profileMessages = {
  usernameFormat: "Usernames use 3–24 lowercase letters, digits or _",
  usernameReserved: "That username is reserved",
  usernameTaken: "That username is taken",
  displayNameRequired: "Enter the name people see",
  displayNameTooLong: "Names are up to 50 characters",
  bioTooLong: "Bios are up to 280 characters",
} as const;

const reserved = new Set<string>(reservedUsernames);

export const usernameSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9_]{3,24}$/, profileMessages.usernameFormat)
  .refine((value) => !reserved.has(value), profileMessages.usernameReserved);

export const profileSchema = z.object({
  username: usernameSchema,
  displayName: lineText(50, { required: profileMessages.displayNameRequired, tooLong: profileMessages.displayNameTooLong }),
  bio: bodyText(280, { tooLong: profileMessages.bioTooLong }),
});

export type ProfileInput = z.infer<typeof profileSchema>;

/** Field → first message, the shape forms render next to each field. */
export type FieldErrors<T> = Partial<Record<keyof T, string>>;

export function fieldErrors<T>(error: z.ZodError<T>): FieldErrors<T> {
  const errors: FieldErrors<T> = {};
  for (const issue of error.issues) {
    const key = issue.path[0] as keyof T;
    if (key !== undefined && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}
