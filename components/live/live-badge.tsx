/**
 * "Live": a session is on — the one badge for it on every card and list. The dot pulses unless the
 * person asks for reduced motion.
 */
export function LiveBadge({ label = "Live", testId }: { label?: string; testId?: string }) {
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full border border-success/40 bg-success/10 px-2 py-0.5 text-xs font-semibold text-success"
      data-testid={testId}
    >
      <span aria-hidden="true" className="inline-block h-2 w-2 animate-pulse rounded-full bg-success motion-reduce:animate-none" />
      {label}
    </span>
  );
}
