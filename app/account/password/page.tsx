import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetPasswordForm } from "@/components/account/set-password-form";
import { NarrowPage } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";

export const metadata: Metadata = { title: "Set a new password" };

export default async function SetPasswordPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/login?next=/account/password");
  return (
    <NarrowPage title="Set a new password" intro={user.email ? `For ${user.email}.` : undefined}>
      <SetPasswordForm />
    </NarrowPage>
  );
}
