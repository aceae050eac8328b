import type { z } from "@/lib/validation/zod";

/** The gate form's fields as typed (all text); gateInputSchema (lib/validation/room.ts) turns them into a gate. */
export interface GateFormValues {
  chainId: string;
  standard: string;
  contractAddress: string;
  tokenId: string;
  minBalance: string;
}

const gateFields = ["chainId", "standard", "contractAddress", "tokenId", "minBalance"] as const satisfies readonly (keyof GateFormValues)[];

/** Field → first message. */
export function gateFormErrors(error: z.ZodError): Partial<Record<keyof GateFormValues, string>> {
  const errors: Partial<Record<keyof GateFormValues, string>> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === "string" && (gateFields as readonly string[]).includes(key) && !errors[key as keyof GateFormValues]) errors[key as keyof GateFormValues] = issue.message;
  }
  return errors;
}
