// What the profile form sends and what its Server Action (./actions.ts) answers, shared by both.
import type { FieldErrors, ProfileInput } from "@/lib/validation/profile";

export interface ProfileFormState {
  status: "idle" | "saved" | "error";
  values: ProfileInput;
  errors: FieldErrors<ProfileInput>;
  message?: string;
}
