"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { checkGateToken, makeRoomPublic, saveRoomGate } from "@/lib/rooms/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { networkMessage } from "@/lib/auth/messages";
import { fail } from "@/lib/result";
import type { GateCheck } from "@/lib/rooms/form-state";
import type { GateFormValues } from "@/lib/rooms/gate-form";

const standards = [
  { value: "erc20", label: "ERC-20 (fungible token)" },
  { value: "erc721", label: "ERC-721 (NFT)" },
  { value: "erc1155", label: "ERC-1155 (multi-token)" },
] as const;

type Errors = Partial<Record<keyof GateFormValues, string>>;

/**
 * Owner only: who may enter. The token is checked on chain ("Check token" shows what the contract
 * is) before "Save gate" is offered for exactly those values; the save reads it again. Fields are
 * the person's alone: no answer replaces what they typed.
 */
export function GateForm({
  roomId,
  chains,
  initial,
  gated,
}: {
  roomId: string;
  chains: { id: number; name: string }[];
  initial: GateFormValues;
  gated: boolean;
}) {
  const router = useRouter();
  const [values, setValues] = useState<GateFormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [checked, setChecked] = useState<{ key: string; label: string } | null>(null);
  const [pending, startTransition] = useTransition();
  // A token id typed for ERC-1155 and then hidden by another standard is not part of the gate.
  const outgoing: GateFormValues = { ...values, tokenId: values.standard === "erc1155" ? values.tokenId : "" };
  const key = JSON.stringify(outgoing);
  const confirmed = checked?.key === key ? checked.label : null;

  const bind = (name: keyof GateFormValues) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  function submit(call: () => Promise<GateCheck>, saved?: string) {
    setMessage(null);
    const sent = key;
    startTransition(async () => {
      const result = await call().catch((): GateCheck => fail({ errors: {}, message: networkMessage }));
      if (!result.ok) {
        setErrors(result.error.errors);
        if (result.error.message) setMessage({ tone: "error", text: result.error.message });
        return;
      }
      setErrors({});
      setChecked({ key: sent, label: result.data.label });
      if (saved) {
        setMessage({ tone: "success", text: saved });
        router.refresh();
      }
    });
  }

  function makePublic() {
    setMessage(null);
    startTransition(async () => {
      const result = await makeRoomPublic(roomId).catch(() => fail(networkMessage));
      if (!result.ok) return setMessage({ tone: "error", text: result.error });
      setMessage({ tone: "success", text: "The room is public: anyone signed in may join." });
      router.refresh();
    });
  }

  return (
    <form
      aria-labelledby="gate-heading"
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed) submit(() => saveRoomGate(roomId, outgoing), "Gate saved. Only holders of the token may join now.");
        else submit(() => checkGateToken(outgoing));
      }}
    >
      <div className="flex flex-col gap-1">
        <h3 id="gate-heading" className="font-semibold">
          {gated ? "Change the gate" : "Gate the room"}
        </h3>
        <p className="text-sm text-muted">
          People join when one of their linked wallets holds at least this much of the token. Members who joined before stay until their
          next check.
        </p>
      </div>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField id="chainId" label="Chain" {...bind("chainId")}>
          {chains.map((chain) => (
            <option key={chain.id} value={String(chain.id)}>
              {chain.name}
            </option>
          ))}
        </SelectField>
        <SelectField id="standard" label="Standard" {...bind("standard")}>
          {standards.map((standard) => (
            <option key={standard.value} value={standard.value}>
              {standard.label}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        id="contractAddress"
        label="Contract address"
        {...bind("contractAddress")}
        autoCapitalize="none"
        autoComplete="off"
        spellCheck={false}
        placeholder="0x…"
        className="font-mono"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {values.standard === "erc1155" ? (
          <TextField id="tokenId" label="Token id" {...bind("tokenId")} inputMode="numeric" autoComplete="off" />
        ) : null}
        <TextField
          id="minBalance"
          label="Minimum balance"
          {...bind("minBalance")}
          inputMode="numeric"
          autoComplete="off"
          hint={values.standard === "erc20" ? "Whole tokens, e.g. 1 for one token." : "How many tokens a wallet must hold."}
        />
      </div>
      {confirmed ? (
        <p role="status" className="rounded-lg border border-success/40 bg-success/10 px-4 py-3 text-sm font-medium text-success">
          {confirmed}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {confirmed ? (
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save gate"}
          </Button>
        ) : (
          <Button type="submit" disabled={pending}>
            {pending ? "Checking…" : "Check token"}
          </Button>
        )}
        {gated ? (
          <Button variant="secondary" disabled={pending} onClick={makePublic}>
            Make the room public
          </Button>
        ) : null}
      </div>
    </form>
  );
}
