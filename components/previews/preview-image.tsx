// The 1200×630 picture chats show for a link (rendered by next/og's ImageResponse, which draws a
// subset of CSS with flexbox only: every element with children says `display: flex`). Big type and
// few words, in the site's colours: a dark warm base, the violet accent, the picture on the right.
import type { PreviewCard } from "@/lib/previews/card";
import { fitText } from "@/lib/previews/text";

const colors = {
  base: "#1c1917",
  ink: "#f5f5f4",
  muted: "#a8a29e",
  line: "#292524",
  accent: "#a78bfa",
  brand: "#6d28d9",
  brandInk: "#ffffff",
} as const;

const width = 1200;
const height = 630;
/** The picture's width beside the words: a comment's words get more of the card. */
const pictureWidths = { room: 460, post: 460, "members-only": 460, moment: 320 } as const;
const pad = 64;

function Mark() {
  return (
    <svg width="44" height="44" viewBox="0 0 32 32">
      <rect width="32" height="32" rx="7" fill="#7c3aed" />
      <path d="M9 22V10l9 6-9 6zm11-12h3v12h-3z" fill="#fff" />
    </svg>
  );
}

function Lock() {
  return (
    <svg width="30" height="30" viewBox="0 0 16 16" fill={colors.accent}>
      <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z" />
    </svg>
  );
}

function Pill({ children }: { children: string }) {
  return (
    <div
      style={{
        display: "flex",
        alignItems: "center",
        gap: 12,
        padding: "8px 22px",
        borderRadius: 999,
        background: colors.brand,
        color: colors.brandInk,
        fontSize: 32,
      }}
    >
      {children}
    </div>
  );
}

const clamp = (lines: number) => ({ display: "block", lineClamp: lines, overflow: "hidden" }) as const;

/**
 * Words in the largest of `sizes` that holds them in `lines` lines of `width`, clipped at a word when
 * none does (the renderer's own clamp is only a backstop: it cuts mid-word). `quoted` wraps them in
 * quote marks after clipping, so the closing one always shows.
 */
function Words({
  text,
  width,
  lines,
  sizes,
  color,
  lineHeight = 1.2,
  quoted = false,
}: {
  text: string;
  width: number;
  lines: number;
  sizes: readonly number[];
  color: string;
  lineHeight?: number;
  quoted?: boolean;
}) {
  const fitted = fitText(text, { width, lines, sizes, extra: quoted ? 2 : 0 });
  return <div style={{ ...clamp(lines), fontSize: fitted.size, lineHeight, color }}>{quoted ? `“${fitted.text}”` : fitted.text}</div>;
}

/** The card's words and picture; `picture` is a data: URL already fetched (or null). */
export function PreviewImage({ card, picture }: { card: PreviewCard; picture: string | null }) {
  const pictureWidth = picture ? pictureWidths[card.kind] : 0;
  const textWidth = width - pictureWidth - pad * 2;
  const header = (
    <div style={{ display: "flex", alignItems: "center", gap: 18, fontSize: 30, color: colors.muted }}>
      <Mark />
      <div style={{ display: "flex", color: colors.ink }}>Cuepoint</div>
      {card.kind === "room" || card.kind === "members-only" ? null : (
        <div style={{ display: "flex", gap: 18 }}>
          <div style={{ display: "flex" }}>·</div>
          <Words text={card.room} width={textWidth - 260} lines={1} sizes={[30]} color={colors.muted} />
        </div>
      )}
    </div>
  );

  let body;
  if (card.kind === "moment") {
    body = (
      <div style={{ display: "flex", flexDirection: "column", gap: 26 }}>
        <div style={{ display: "flex", alignItems: "center", gap: 18 }}>
          {card.at ? <Pill>{`at ${card.at}`}</Pill> : null}
          <Words text={card.detail ?? "Someone"} width={textWidth - (card.at ? 220 : 0)} lines={1} sizes={[32]} color={colors.muted} />
        </div>
        <Words text={card.quote ?? ""} quoted width={textWidth} lines={4} sizes={[64, 56, 48, 42]} color={colors.ink} />
        <Words text={`on ${card.title}`} width={textWidth} lines={1} sizes={[32]} color={colors.accent} />
      </div>
    );
  } else if (card.kind === "members-only") {
    body = (
      <div style={{ display: "flex", flexDirection: "column", gap: 28 }}>
        <Words text={card.title} width={textWidth} lines={2} sizes={[84, 72, 60]} color={colors.ink} lineHeight={1.1} />
        <div style={{ display: "flex", alignItems: "center", gap: 16 }}>
          <Lock />
          <div style={{ display: "flex", fontSize: 40, color: colors.accent }}>Members only</div>
        </div>
        {card.quote ? <Words text={card.quote} width={textWidth} lines={2} sizes={[32]} color={colors.muted} lineHeight={1.3} /> : null}
      </div>
    );
  } else {
    body = (
      <div style={{ display: "flex", flexDirection: "column", gap: 24 }}>
        {card.kind === "room" ? <div style={{ display: "flex", fontSize: 30, color: colors.accent }}>Room · open to all</div> : null}
        <Words text={card.title} width={textWidth} lines={3} sizes={[84, 72, 64, 56, 48]} color={colors.ink} lineHeight={1.1} />
        {card.detail ? <Words text={card.detail} width={textWidth} lines={2} sizes={[32]} color={colors.muted} lineHeight={1.3} /> : null}
      </div>
    );
  }

  return (
    <div style={{ display: "flex", width, height, background: colors.base, color: colors.ink, fontFamily: "Geist" }}>
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          justifyContent: "space-between",
          width: width - pictureWidth,
          height,
          padding: pad,
          borderLeft: `12px solid ${colors.brand}`,
        }}
      >
        {header}
        {body}
      </div>
      {picture ? (
        // eslint-disable-next-line @next/next/no-img-element -- next/og draws plain <img> elements; next/image has no meaning there
        <img src={picture} alt="" width={pictureWidth} height={height} style={{ width: pictureWidth, height, objectFit: "cover" }} />
      ) : null}
    </div>
  );
}
