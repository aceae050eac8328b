/** The gate form's fields as typed (all text); gateInputSchema (lib/validation/room.ts) turns them into a gate. */
export interface GateFormValues {
  chainId: string;
  standard: string;
  contractAddress: string;
  tokenId: string;
  minBalance: string;
}
