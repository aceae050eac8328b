/** ENS names are looked up again at most once a day; the database's columns are the cache. */
export const ensRefreshIntervalMs = 24 * 60 * 60 * 1000;

/** Whether any of these wallets' names were never looked up or were looked up over a day ago. */
export function namesNeedRefresh(wallets: { ens_checked_at: string | null }[], now: number = Date.now()): boolean {
  return wallets.some((wallet) => !wallet.ens_checked_at || now - new Date(wallet.ens_checked_at).getTime() > ensRefreshIntervalMs);
}
