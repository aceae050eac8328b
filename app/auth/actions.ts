"use server";

// The password forms' Server Actions: how the forms submit before their JavaScript runs (or when it
// never does). The browser POSTs the form here, the server's Supabase client signs in and sets the
// session cookies, and nothing typed ever lands in a URL. With JavaScript the forms use the browser
// client instead (lib/auth/*-form components) and these only run if a submit beats hydration.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { type AuthFormState, formValue } from "@/lib/auth/form-state";
import { emailRedirect } from "@/lib/auth/links";
import { authErrorMessage } from "@/lib/auth/messages";
import { safeNextPath } from "@/lib/auth/redirect";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { emailOnlyRules, setPasswordRules, signInRules, signUpRules } from "@/lib/validation/auth";

/** The email links' redirect (lib/auth/links.ts) on the origin the form was posted from, else NEXT_PUBLIC_SITE_URL. */
async function emailRedirectFromForm(next: string): Promise<string> {
  const requestHeaders = await headers();
  const host = requestHeaders.get("host");
  const origin = requestHeaders.get("origin");
  const sameSite = origin && host && URL.canParse(origin) && new URL(origin).host === host ? origin : null;
  return emailRedirect(next, sameSite ?? process.env.NEXT_PUBLIC_SITE_URL ?? "http://localhost:3000");
}

export async function signInAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = formValue(formData, "email");
  const next = safeNextPath(formValue(formData, "next"));
  const checked = signInRules({ email, password: formValue(formData, "password") });
  if (!checked.ok) return { status: "error", values: { email }, errors: checked.errors };
  const supabase = await createClient();
  const { error } = await supabase.auth.signInWithPassword(checked.data);
  if (error) return { status: "error", values: { email }, errors: {}, formError: authErrorMessage(error), unconfirmed: error.code === "email_not_confirmed" };
  redirect(next);
}

export async function signUpAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = formValue(formData, "email");
  const next = safeNextPath(formValue(formData, "next"));
  const checked = signUpRules({ email, password: formValue(formData, "password") });
  if (!checked.ok) return { status: "error", values: { email }, errors: checked.errors };
  const supabase = await createClient();
  const { data, error } = await supabase.auth.signUp({ ...checked.data, options: { emailRedirectTo: await emailRedirectFromForm(next) } });
  if (error) return { status: "error", values: { email }, errors: {}, formError: authErrorMessage(error) };
  // With confirmations on, Supabase answers an existing address like a new one (no session, no identities).
  if (data.user && data.user.identities?.length === 0) {
    return { status: "error", values: { email }, errors: {}, formError: authErrorMessage({ code: "user_already_exists", message: "", status: 422, name: "AuthApiError" }) };
  }
  if (data.session) redirect(next);
  return { status: "sent", values: { email: checked.data.email }, errors: {} };
}

export async function resetRequestAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = formValue(formData, "email");
  const checked = emailOnlyRules({ email });
  if (!checked.ok) return { status: "error", values: { email }, errors: checked.errors };
  const supabase = await createClient();
  const { error } = await supabase.auth.resetPasswordForEmail(checked.data.email, { redirectTo: await emailRedirectFromForm("/account/password") });
  if (error) return { status: "error", values: { email }, errors: {}, formError: authErrorMessage(error) };
  return { status: "sent", values: { email: checked.data.email }, errors: {} };
}

export async function setPasswordAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const checked = setPasswordRules({ password: formValue(formData, "password"), confirm: formValue(formData, "confirm") });
  if (!checked.ok) return { status: "error", values: {}, errors: checked.errors };
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return { status: "error", values: {}, errors: {}, formError: authErrorMessage({ code: "session_not_found", message: "", status: 403, name: "AuthApiError" }) };
  const { error } = await supabase.auth.updateUser({ password: checked.data.password });
  if (error) return { status: "error", values: {}, errors: {}, formError: authErrorMessage(error) };
  return { status: "done", values: {}, errors: {} };
}
