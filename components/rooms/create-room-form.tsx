"use client";

import { type FormEvent, startTransition, useActionState, useRef, useState } from "react";
import { createRoomAction } from "@/lib/rooms/actions";
import { type CreateRoomField, type CreateRoomState, type CreateRoomValues, gateFingerprint } from "@/lib/rooms/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/field";
import { slugFromName } from "@/lib/rooms/slug";

type RoomValidation = typeof import("@/lib/validation/room");

export interface ChainOption {
  id: number;
  name: string;
}

const standards = [
  { value: "erc721", label: "ERC-721 (NFT collection)" },
  { value: "erc20", label: "ERC-20 (fungible token)" },
  { value: "erc1155", label: "ERC-1155 (multi-token)" },
];

const control = "w-full rounded-lg border border-line bg-raised px-3 py-2 text-base text-ink aria-[invalid=true]:border-danger";

/**
 * Creating a room: name, address (suggested from the name until the person edits it), description,
 * and who may join. A gate is checked on chain first ("Check token" shows what the contract is);
 * the room is created only once the person has seen the token for exactly the gate they typed.
 * Fields are controlled and only the person changes them: no answer from the server replaces what
 * they typed. Without JavaScript the same form posts to the same action (CSS shows the gate fields).
 */
export function CreateRoomForm({ chains, gateUnavailable }: { chains: ChainOption[]; gateUnavailable: string | null }) {
  const initial: CreateRoomState = {
    status: "idle",
    values: {
      name: "",
      slug: "",
      description: "",
      access: "open",
      chainId: String(chains[0]?.id ?? ""),
      standard: "erc721",
      contractAddress: "",
      tokenId: "",
      minBalance: "1",
    },
    errors: {},
  };
  const [state, action, pending] = useActionState(createRoomAction, initial);
  const [values, setValues] = useState<CreateRoomValues>(() => state.values);
  const [slugEdited, setSlugEdited] = useState(false);
  const [clientErrors, setClientErrors] = useState<CreateRoomState["errors"] | null>(null);
  const validation = useRef<RoomValidation | null>(null);
  const errors = clientErrors ?? state.errors;

  const set = (name: CreateRoomField, value: string) =>
    setValues((current) => {
      const next = { ...current, [name]: value } as CreateRoomValues;
      if (name === "name" && !slugEdited) next.slug = slugFromName(value);
      return next;
    });
  const bind = (name: CreateRoomField) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      // an emptied address follows the name again
      if (name === "slug") setSlugEdited(event.target.value !== "");
      set(name, event.target.value);
    },
    error: errors[name],
  });

  // The check shown holds only while the gate's token inputs are the ones it was made for.
  const token = state.token && state.token.fingerprint === gateFingerprint(values) ? state.token : null;
  const gated = values.access === "token";

  function loadValidation() {
    if (!validation.current) {
      void import("@/lib/validation/room").then(
        (module) => (validation.current = module),
        () => {}, // offline: the server action still validates
      );
    }
  }

  // Submitted here rather than by React's form action, which resets the form after the action: the
  // chosen radio and selects would fall back to their first options while the state still held the
  // person's choice. Without JavaScript the browser posts the same form to the same action.
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const found = check(submitter?.value);
    setClientErrors(found);
    if (found) return;
    const data = new FormData(event.currentTarget, submitter);
    startTransition(() => action(data));
  }

  /** Field messages from the shared schemas once they have loaded (the action checks again anyway). */
  function check(intent: string | undefined): CreateRoomState["errors"] | null {
    const rules = validation.current;
    if (!rules) return null;
    const found: CreateRoomState["errors"] = {};
    if (intent !== "check") {
      const fields = rules.roomFieldsSchema.safeParse({
        slug: values.slug || slugFromName(values.name),
        name: values.name,
        description: values.description,
      });
      if (!fields.success) for (const issue of fields.error.issues) found[issue.path[0] as CreateRoomField] ??= issue.message;
    }
    if (gated) {
      const gate = rules.gateInputSchema.safeParse({ ...values, tokenId: values.standard === "erc1155" ? values.tokenId : "" });
      if (!gate.success) for (const issue of gate.error.issues) found[issue.path[0] as CreateRoomField] ??= issue.message;
    }
    return Object.keys(found).length ? found : null;
  }

  return (
    <form action={action} noValidate onFocus={loadValidation} onSubmit={onSubmit} className="group flex flex-col gap-5">
      {state.message && !clientErrors ? <Alert tone={state.status === "checked" ? "info" : "error"}>{state.message}</Alert> : null}
      <TextField id="name" label="Name" {...bind("name")} maxLength={120} autoComplete="off" />
      <TextField
        id="slug"
        label="Address"
        {...bind("slug")}
        autoCapitalize="none"
        autoComplete="off"
        spellCheck={false}
        hint={
          <>
            The room lives at{" "}
            <span className="font-mono [overflow-wrap:anywhere]">/r/{values.slug || slugFromName(values.name) || "your-room"}</span>. 3–48
            lowercase letters, digits or hyphens.
          </>
        }
      />
      <TextAreaField
        id="description"
        label="Description"
        {...bind("description")}
        hint="Optional. What the room is for, up to 500 characters."
      />

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Who may join</legend>
        <label className="flex items-start gap-3 rounded-lg border border-line p-3 has-[:checked]:border-accent">
          <input
            type="radio"
            name="access"
            value="open"
            checked={values.access === "open"}
            onChange={() => set("access", "open")}
            className="mt-1 accent-[var(--color-accent)]"
          />
          <span>
            <span className="block font-medium">Everyone</span>
            <span className="block text-sm text-muted">Anyone signed in can join.</span>
          </span>
        </label>
        <label className="flex items-start gap-3 rounded-lg border border-line p-3 has-[:checked]:border-accent has-[:disabled]:opacity-60">
          <input
            id="access-token"
            type="radio"
            name="access"
            value="token"
            checked={values.access === "token"}
            disabled={gateUnavailable !== null}
            onChange={() => set("access", "token")}
            className="mt-1 accent-[var(--color-accent)]"
          />
          <span>
            <span className="block font-medium">Holders of a token</span>
            {gateUnavailable ? (
              <>
                <span className="block text-sm text-muted">Token gates aren&apos;t set up on this site yet.</span>
                <span className="block text-xs text-muted">
                  For the site&apos;s owner: <code className="font-mono">{gateUnavailable}</code>
                </span>
              </>
            ) : (
              <span className="block text-sm text-muted">People join when a wallet linked to their account holds enough of a token.</span>
            )}
          </span>
        </label>
      </fieldset>

      <fieldset className="hidden flex-col gap-4 rounded-xl border border-line p-4 group-has-[#access-token:checked]:flex sm:p-5">
        <legend className="px-1 text-sm font-medium">The token</legend>
        <SelectField
          id="chainId"
          label="Chain"
          value={values.chainId}
          onChange={(value) => set("chainId", value)}
          error={errors.chainId}
          options={chains.map((chain) => ({ value: String(chain.id), label: chain.name }))}
        />
        <SelectField
          id="standard"
          label="Token standard"
          value={values.standard}
          onChange={(value) => set("standard", value)}
          error={errors.standard}
          options={standards}
        />
        <TextField
          id="contractAddress"
          label="Contract address"
          {...bind("contractAddress")}
          placeholder="0x…"
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
        />
        <div className="hidden group-has-[#standard-erc1155:checked]:block">
          <TextField
            id="tokenId"
            label="Token id"
            {...bind("tokenId")}
            inputMode="numeric"
            autoComplete="off"
            hint="The id of the ERC-1155 token holders need, e.g. 1."
          />
        </div>
        <TextField
          id="minBalance"
          label="Minimum balance"
          {...bind("minBalance")}
          inputMode="numeric"
          autoComplete="off"
          hint={
            values.standard === "erc20" ? "In whole tokens: 100 means 100 tokens." : "How many of the tokens a member holds, at least 1."
          }
        />
        <div className="flex flex-col items-start gap-3">
          <Button type="submit" name="intent" value="check" variant="secondary" disabled={pending}>
            {pending ? "Checking…" : "Check token"}
          </Button>
          {token ? (
            <p
              role="status"
              className="rounded-lg border border-success/40 bg-success/10 px-3 py-2 text-sm text-success [overflow-wrap:anywhere]"
            >
              {token.label}
            </p>
          ) : null}
        </div>
        <input type="hidden" name="checkedGate" value={token?.fingerprint ?? ""} />
      </fieldset>

      <div>
        <Button type="submit" name="intent" value="create" disabled={pending}>
          {pending ? "Working…" : "Create room"}
        </Button>
      </div>
    </form>
  );
}

function SelectField({
  id,
  label,
  value,
  onChange,
  error,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={control}
      >
        {options.map((option) => (
          <option key={option.value} id={`${id}-${option.value}`} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
