// Phoenix channel frames as realtime-js speaks them.
// vsn 1.0.0: JSON objects {join_ref, ref, topic, event, payload}.
// vsn 2.0.0: JSON arrays [join_ref, ref, topic, event, payload], plus binary broadcast frames:
//   client → server "user broadcast push" (kind 3) and server → client "user broadcast" (kind 4).

export type Vsn = "1.0.0" | "2.0.0";

export interface PhxMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast sent as a binary frame: the user's event and its payload bytes (JSON text or raw binary). */
export interface UserBroadcast {
  event: string;
  encoding: "json" | "binary";
  bytes: Buffer;
}

export type Decoded = { ok: true; message: PhxMessage; userBroadcast?: UserBroadcast } | { ok: false; reason: string };

const userBroadcastPushKind = 3;
const userBroadcastKind = 4;
const binaryEncoding = 0;
const jsonEncoding = 1;

function refOf(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function fromParts(joinRef: unknown, ref: unknown, topic: unknown, event: unknown, payload: unknown): Decoded {
  const j = refOf(joinRef);
  const r = refOf(ref);
  if (j === undefined || r === undefined) return { ok: false, reason: "join_ref and ref must be strings or null" };
  if (typeof topic !== "string") return { ok: false, reason: "topic must be a string" };
  if (typeof event !== "string") return { ok: false, reason: "event must be a string" };
  return { ok: true, message: { joinRef: j, ref: r, topic, event, payload: payload ?? {} } };
}

function decodeText(text: string, vsn: Vsn): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "frame is not valid JSON" };
  }
  if (vsn === "2.0.0") {
    if (!Array.isArray(value) || value.length < 5) return { ok: false, reason: "expected [join_ref, ref, topic, event, payload]" };
    return fromParts(value[0], value[1], value[2], value[3], value[4]);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, reason: "expected {topic, event, payload, ref}" };
  const m = value as Record<string, unknown>;
  if (!("payload" in m)) return { ok: false, reason: "payload is required" };
  return fromParts(m.join_ref, m.ref, m.topic, m.event, m.payload);
}

function decodeBinary(bytes: Buffer): Decoded {
  if (bytes.length < 7 || bytes[0] !== userBroadcastPushKind) return { ok: false, reason: "unsupported binary frame" };
  const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = [bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6]];
  let offset = 7;
  const take = (length: number) => {
    const part = bytes.subarray(offset, offset + length);
    offset += length;
    return part;
  };
  if (offset + joinRefLen + refLen + topicLen + eventLen + metaLen > bytes.length)
    return { ok: false, reason: "binary frame is truncated" };
  const joinRef = take(joinRefLen).toString("utf8");
  const ref = take(refLen).toString("utf8");
  const topic = take(topicLen).toString("utf8");
  const event = take(eventLen).toString("utf8");
  take(metaLen); // metadata (e.g. persist) — the stack keeps no broadcast history
  if (encoding !== binaryEncoding && encoding !== jsonEncoding) return { ok: false, reason: "unknown payload encoding" };
  const payloadBytes = Buffer.from(bytes.subarray(offset));
  if (encoding === jsonEncoding) {
    try {
      JSON.parse(payloadBytes.toString("utf8"));
    } catch {
      return { ok: false, reason: "broadcast payload is not valid JSON" };
    }
  }
  const userBroadcast: UserBroadcast = { event, encoding: encoding === jsonEncoding ? "json" : "binary", bytes: payloadBytes };
  return {
    ok: true,
    message: { joinRef: joinRef || null, ref: ref || null, topic, event: "broadcast", payload: {} },
    userBroadcast,
  };
}

export function decodeFrame(data: Buffer, isBinary: boolean, vsn: Vsn): Decoded {
  if (isBinary) return vsn === "2.0.0" ? decodeBinary(data) : { ok: false, reason: "binary frames need vsn 2.0.0" };
  return decodeText(data.toString("utf8"), vsn);
}

export function encodeMessage(message: PhxMessage, vsn: Vsn): string {
  if (vsn === "2.0.0") return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload]);
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}

/** A server → client broadcast as a kind-4 binary frame (vsn 2.0.0 only). */
export function encodeUserBroadcast(topic: string, broadcast: UserBroadcast): Buffer {
  const topicBytes = Buffer.from(topic, "utf8");
  const eventBytes = Buffer.from(broadcast.event, "utf8");
  const header = Buffer.from([
    userBroadcastKind,
    topicBytes.length,
    eventBytes.length,
    0,
    broadcast.encoding === "json" ? jsonEncoding : binaryEncoding,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, broadcast.bytes]);
}

/** The JSON form of a broadcast, as vsn 1.0.0 clients (and JSON pushes) carry it. */
export function broadcastPayload(broadcast: UserBroadcast): { type: "broadcast"; event: string; payload: unknown } | undefined {
  if (broadcast.encoding !== "json") return undefined;
  return { type: "broadcast", event: broadcast.event, payload: JSON.parse(broadcast.bytes.toString("utf8")) };
}
