import { WalletAddress } from "@/components/wallet-address";
import { Card } from "@/components/ui/card";
import { shortChecksummedAddress } from "@/lib/chain/address";
import { missingCredentialsMessage } from "@/lib/chain/credentials";
import { maxWalletsPerAccount } from "@/lib/validation/wallet";
import { ChainSetupNotice } from "./chain-setup-notice";
import { LinkWalletButton, RefreshStaleNames, UnlinkWalletButton } from "./wallet-controls";

export interface AccountWallet {
  address: string;
  ens_name: string | null;
  ens_avatar: string | null;
  ens_checked_at: string | null;
}

/**
 * /account's Wallets section: the linked wallets (rendered on the server, names from the
 * database's cache), linking a new one and unlinking. Without thirdweb credentials linking is off
 * and the seed's message says why; the list and unlinking still work.
 */
export function WalletsSection({
  wallets,
  clientId,
  unavailable,
  namesStale,
}: {
  wallets: AccountWallet[];
  clientId: string | null;
  unavailable: string | null;
  namesStale: boolean;
}) {
  return (
    <Card>
      <h2 id="wallets" className="text-lg font-semibold">
        Wallets
      </h2>
      <p className="mt-1 text-sm text-muted">
        Link a wallet by signing a message (no transaction, no fee). Rooms gated to token holders check your linked wallets. Up to{" "}
        {maxWalletsPerAccount}.
      </p>
      {wallets.length ? (
        <ul aria-labelledby="wallets" className="mt-4 flex flex-col divide-y divide-line">
          {wallets.map((wallet) => (
            <li key={wallet.address} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <WalletAddress address={wallet.address} ensName={wallet.ens_name} ensAvatar={wallet.ens_avatar} />
              <UnlinkWalletButton address={wallet.address} label={wallet.ens_name ?? shortChecksummedAddress(wallet.address)} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm">No wallets linked yet.</p>
      )}
      <div className="mt-4">
        {clientId ? (
          wallets.length < maxWalletsPerAccount ? (
            <LinkWalletButton clientId={clientId} />
          ) : (
            <p className="text-sm text-muted">
              You have linked {maxWalletsPerAccount} wallets, the most an account can have. Unlink one to add another.
            </p>
          )
        ) : (
          <ChainSetupNotice
            headline="Linking wallets isn't set up on this site"
            detail="The rest of your account works as usual, and wallets already linked stay listed here."
            setupMessage={unavailable ?? missingCredentialsMessage}
          />
        )}
      </div>
      {clientId && namesStale ? <RefreshStaleNames /> : null}
    </Card>
  );
}
