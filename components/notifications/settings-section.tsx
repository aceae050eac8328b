import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { listMutedPlaces, readNotificationSettings } from "@/lib/notifications/settings-data";
import { createClient } from "@/lib/supabase/server";
import { NotificationSettingsForm } from "./settings-form";
import { MutedPlacesList } from "./settings-muted-list";

/** The account page's "Notifications": the kinds in Cuepoint and by email, strangers, and what is muted. */
export async function NotificationSettingsSection({ hasEmail }: { hasEmail: boolean }) {
  const supabase = await createClient();
  const [settings, muted] = await Promise.all([readNotificationSettings(supabase), listMutedPlaces(supabase)]);
  return (
    <Card>
      <h2 id="notifications" className="mb-1 scroll-mt-20 text-lg font-semibold">
        Notifications
      </h2>
      <p className="mb-4 text-sm text-muted">Choose what reaches you, and where.</p>
      {settings.ok ? (
        <NotificationSettingsForm initial={settings.data} hasEmail={hasEmail} />
      ) : (
        <Alert tone="error">{settings.error}</Alert>
      )}
      <div className="mt-8 flex flex-col gap-2 border-t border-line pt-6" data-testid="muted-places">
        <h3 className="font-semibold">Muted rooms and threads</h3>
        <p className="text-sm text-muted">
          Nothing from these reaches you: no replies, mentions, reactions or sessions starting. News about your own place in a room still
          does.
        </p>
        {muted.ok ? <MutedPlacesList places={muted.data} /> : <Alert tone="error">{muted.error}</Alert>}
      </div>
    </Card>
  );
}
