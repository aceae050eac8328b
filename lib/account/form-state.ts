// What the profile form sends and what its Server Action (./actions.ts) answers, shared by both.
import type { FieldErrors, ProfileInput } from "@/lib/validation/profile";

export interface ProfileFormState {
  status: "idle" | "saved" | "error";
  values: ProfileInput;
  errors: FieldErrors<ProfileInput>;
  message?: string;
}

/** The welcome step's form (./actions.ts saveWelcomeNames): the two names sign-up chose for the person. */
export interface WelcomeFormState {
  status: "idle" | "saved" | "error";
  values: Pick<ProfileInput, "username" | "displayName">;
  errors: FieldErrors<Pick<ProfileInput, "username" | "displayName">>;
  message?: string;
}
