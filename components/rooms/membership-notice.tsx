import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { linkClasses } from "@/components/ui/link";

/** Why the person's gated membership ended (or could not be checked), on any page of the room. */
export function MembershipNotice({ notice, lapsed }: { notice: string | null; lapsed: boolean }) {
  if (!notice) return null;
  return (
    <Alert tone="error">
      {notice}
      {lapsed ? (
        <>
          {" "}
          <Link href="/account#wallets" className={linkClasses}>
            Check your linked wallets
          </Link>
        </>
      ) : null}
    </Alert>
  );
}
