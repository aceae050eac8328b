/**
 * What people read where a wallet or token feature is off because this site has no thirdweb
 * credentials: a sentence for them, and the setup rule's own words (`clientId or secretKey must be
 * provided`) in small print for whoever runs the site, who also finds them in the server's log.
 */
export function ChainSetupNotice({ headline, detail, setupMessage }: { headline: string; detail: string; setupMessage: string }) {
  return (
    <div role="status" className="rounded-lg border border-line bg-raised px-4 py-3 text-sm text-ink">
      <p className="font-medium">{headline}</p>
      <p className="mt-1 text-muted">{detail}</p>
      <p className="mt-2 text-xs text-muted">
        For the site&apos;s owner: <code className="font-mono">{setupMessage}</code> (see docs/deploy.md)
      </p>
    </div>
  );
}
