// Rules for the sign-in, sign-up and password forms. Supabase Auth enforces its own (config.toml
// minimum_password_length); these give the same answer before a round trip. They are small plain
// functions rather than zod schemas because these forms are on the signed-out pages, whose
// first-load JavaScript has to stay small (zod's core alone is ~24 KB compressed). The forms' Server
// Actions (lib/auth/actions.ts, used before JavaScript runs) check with the same rules.

export const authMessages = {
  emailInvalid: "Enter an email address like name@example.com",
  passwordTooShort: "Passwords have at least 8 characters",
  passwordTooLong: "Passwords have at most 72 characters",
  passwordRequired: "Enter your password",
  passwordsDiffer: "The two passwords don't match",
} as const;

export type Validation<T> = { ok: true; data: T } | { ok: false; errors: Partial<Record<keyof T, string>> };
export type FormRules<T> = (values: Record<keyof T, string>) => Validation<T>;

// The shape browsers accept for type=email (WHATWG), which is also what Supabase Auth accepts in practice.
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Trimmed and lower-cased, or the message to show. */
export function checkEmail(value: string): { email: string } | { error: string } {
  const email = value.trim().toLowerCase();
  return emailPattern.test(email) ? { email } : { error: authMessages.emailInvalid };
}

function checkNewPassword(value: string): string | null {
  if (value.length < 8) return authMessages.passwordTooShort;
  if (value.length > 72) return authMessages.passwordTooLong;
  return null;
}

function result<T>(data: T, errors: Partial<Record<keyof T, string | null>>): Validation<T> {
  const found = Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as Partial<Record<keyof T, string>>;
  return Object.keys(found).length ? { ok: false, errors: found } : { ok: true, data };
}

export const signInRules: FormRules<{ email: string; password: string }> = ({ email, password }) => {
  const checked = checkEmail(email);
  return result(
    { email: "email" in checked ? checked.email : email, password },
    { email: "error" in checked ? checked.error : null, password: password.length ? null : authMessages.passwordRequired },
  );
};

export const signUpRules: FormRules<{ email: string; password: string }> = ({ email, password }) => {
  const checked = checkEmail(email);
  return result(
    { email: "email" in checked ? checked.email : email, password },
    { email: "error" in checked ? checked.error : null, password: checkNewPassword(password) },
  );
};

export const emailOnlyRules: FormRules<{ email: string }> = ({ email }) => {
  const checked = checkEmail(email);
  return "email" in checked ? { ok: true, data: { email: checked.email } } : { ok: false, errors: { email: checked.error } };
};

export const setPasswordRules: FormRules<{ password: string; confirm: string }> = ({ password, confirm }) => {
  const tooWeak = checkNewPassword(password);
  return result(
    { password, confirm },
    { password: tooWeak, confirm: !tooWeak && password !== confirm ? authMessages.passwordsDiffer : null },
  );
};
