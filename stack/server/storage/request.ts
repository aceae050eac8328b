import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerContext } from "../context.ts";
import { resolveCaller } from "./caller.ts";
import type { Caller } from "./db.ts";

/** One request to the Storage service, with what every handler needs. */
export interface StorageRequest {
  req: IncomingMessage;
  res: ServerResponse;
  server: ServerContext;
  bearer?: string;
  url: URL;
  globalLimit: number;
  /** `[storage.image_transformation] enabled`: /render routes exist and signed URLs may carry a transform. */
  imageTransformation: boolean;
}

export function callerOf(request: StorageRequest, allowInvalidJwt = false): Caller {
  return resolveCaller(request.bearer, allowInvalidJwt);
}
