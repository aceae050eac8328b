/** The bar and percentage shown while an upload runs. */
export function UploadProgress({ fraction }: { fraction: number }) {
  return (
    <div className="flex items-center gap-3">
      <progress className="h-2 w-full accent-accent" max={1} value={fraction} aria-label="Upload progress" />
      <span className="w-12 text-right text-sm tabular-nums text-muted">{Math.round(fraction * 100)}%</span>
    </div>
  );
}
