import { z } from "zod";

// Rules for the sign-in and sign-up forms. Supabase Auth enforces its own (config.toml
// minimum_password_length); these give the same answer before a round trip.

export const authMessages = {
  emailInvalid: "Enter an email address like name@example.com",
  passwordTooShort: "Passwords have at least 8 characters",
  passwordTooLong: "Passwords have at most 72 characters",
  passwordRequired: "Enter your password",
  passwordsDiffer: "The two passwords don't match",
} as const;

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ error: authMessages.emailInvalid }));

export const newPasswordSchema = z.string().min(8, authMessages.passwordTooShort).max(72, authMessages.passwordTooLong);

export const signInSchema = z.object({ email: emailSchema, password: z.string().min(1, authMessages.passwordRequired) });
export const signUpSchema = z.object({ email: emailSchema, password: newPasswordSchema });
export const emailOnlySchema = z.object({ email: emailSchema });
export const setPasswordSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: authMessages.passwordsDiffer });
