// Token amounts between the smallest units a contract counts in (uint256, kept as decimal text in
// the database) and the units people read ("1 CUE" for 10^18 of an 18-decimal token). Plain bigint
// arithmetic, no floats: shared by the app and the join-room function (Deno, by relative path).

export const maxUint256 = (1n << 256n) - 1n;

/** 1500000000000000000n with 18 decimals → "1.5"; trailing zeros dropped, no rounding. */
export function formatUnits(value: bigint, decimals: number): string {
  if (decimals <= 0) return value.toString();
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** A whole number of tokens (decimal text) in smallest units: "2" with 18 decimals → 2×10^18. */
export function wholeTokensToUnits(whole: string, decimals: number): bigint {
  return BigInt(whole) * 10n ** BigInt(Math.max(decimals, 0));
}
