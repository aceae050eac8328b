import { checksumAddress, shortChecksummedAddress } from "@/lib/chain/address";

export interface WalletAddressProps {
  address: string;
  ensName?: string | null;
  ensAvatar?: string | null;
  /** Avatar size in px. */
  size?: number;
}

/**
 * An address as people recognise it: ENS avatar and name when it has them, else the shortened
 * checksummed address. The full checksummed address is always in the title and for screen readers.
 */
export function WalletAddress({ address, ensName, ensAvatar, size = 28 }: WalletAddressProps) {
  const full = checksumAddress(address);
  return (
    <span className="inline-flex min-w-0 items-center gap-2" title={full}>
      {ensName && ensAvatar ? (
        // eslint-disable-next-line @next/next/no-img-element -- ENS avatars come from any host; no optimiser
        <img
          src={ensAvatar}
          alt=""
          width={size}
          height={size}
          style={{ width: size, height: size }}
          className="shrink-0 rounded-full border border-line object-cover"
        />
      ) : (
        <span
          aria-hidden="true"
          style={{ width: size, height: size }}
          className="inline-block shrink-0 rounded-full border border-line bg-accent/15"
        />
      )}
      {ensName ? (
        <span className="min-w-0 truncate font-medium">
          {ensName}
          <span className="sr-only"> ({full})</span>
        </span>
      ) : (
        <span className="whitespace-nowrap font-mono text-sm">
          <span aria-hidden="true">{shortChecksummedAddress(address)}</span>
          <span className="sr-only">{full}</span>
        </span>
      )}
    </span>
  );
}
