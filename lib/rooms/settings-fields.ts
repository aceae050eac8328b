import { z } from "@/lib/validation/zod";
import { roomDescriptionSchema, roomNameSchema, roomSlugSchema } from "@/lib/validation/room";

/**
 * The settings page's room form: name and description for the owner and moderators, the address
 * only when the owner's form sends it. The same rules as creating a room (lib/validation/room.ts).
 */
export const roomSettingsSchema = z.object({
  name: roomNameSchema,
  description: roomDescriptionSchema,
  slug: roomSlugSchema.optional(),
});

export interface RoomSettingsFields {
  name: string;
  description: string;
  slug?: string;
}
