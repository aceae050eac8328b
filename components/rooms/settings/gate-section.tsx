import { ChainSetupNotice } from "@/components/wallets/chain-setup-notice";
import { shortChecksummedAddress } from "@/lib/chain/address";
import { findChain } from "@/lib/chain/chains";
import { serverChainConfig } from "@/lib/chain/config";
import { serverChainCredentials } from "@/lib/chain/server-credentials";
import { gateRequirementText } from "@/lib/chain/tokens";
import { formatUnits } from "@/lib/chain/units";
import type { GateFormValues } from "@/lib/rooms/gate-form";
import type { GateStandard } from "@/lib/rooms/gate-text";
import type { Database } from "@/types/database";
import { GateForm } from "./gate-form";

type Gate = Database["public"]["Tables"]["room_gates"]["Row"];

/** Who may enter: read by everyone with a role here; edited by the owner alone. */
export async function GateSection({ roomId, gate, isOwner }: { roomId: string; gate: Gate | null; isOwner: boolean }) {
  const config = serverChainConfig();
  const described = gate ? await gateRequirementText({ ...gate, standard: gate.standard as GateStandard }, { timeoutMs: 4_000 }) : null;
  const chainName = gate ? (findChain(config, gate.chain_id)?.name ?? `chain ${gate.chain_id}`) : "";
  const requirement = !gate
    ? "Anyone signed in may join."
    : described?.ok
      ? `${described.data.text}.`
      : `Holders of ${shortChecksummedAddress(gate.contract_address)} on ${chainName}. (We couldn't read the token just now: ${described?.error.message})`;

  const summary = (
    <div className="flex flex-col gap-1">
      <h2 id="entry-heading" className="text-lg font-semibold">
        Who may enter
      </h2>
      <p>{requirement}</p>
      {!isOwner ? <p className="text-sm text-muted">Only the room&apos;s owner changes who may enter.</p> : null}
    </div>
  );
  if (!isOwner) return <section aria-labelledby="entry-heading">{summary}</section>;

  const credentials = serverChainCredentials();
  const decimals = described?.ok ? described.data.token.decimals : null;
  const initial: GateFormValues = gate
    ? {
        chainId: String(gate.chain_id),
        standard: gate.standard,
        contractAddress: gate.contract_address,
        tokenId: gate.token_id ?? "",
        minBalance: gate.standard !== "erc20" ? gate.min_balance : decimals === null ? "" : formatUnits(BigInt(gate.min_balance), decimals),
      }
    : { chainId: String(config.chains[0]?.id ?? 1), standard: "erc721", contractAddress: "", tokenId: "", minBalance: "1" };
  return (
    <section aria-labelledby="entry-heading" className="flex flex-col gap-6">
      {summary}
      {credentials.ok ? (
        <GateForm roomId={roomId} gated={gate !== null} chains={config.chains.map(({ id, name }) => ({ id, name }))} initial={initial} />
      ) : (
        <ChainSetupNotice
          headline="Token gates aren't set up on this site"
          detail="Who may join stays as it is. Open rooms work as usual."
          setupMessage={credentials.error}
        />
      )}
    </section>
  );
}
