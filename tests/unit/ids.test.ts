// Row ids (lib/validation/ids.ts) and their schema form (lib/validation/uuid-schema.ts).
import { describe, expect, test } from "vitest";
import { isUuid } from "@/lib/validation/ids";
import { uuidField, uuidSchema } from "@/lib/validation/uuid-schema";

const id = "5b0c1f0e-7a51-4c1e-9d43-2f3e8a6b7c90";

describe("isUuid", () => {
  test("a uuid as Postgres writes it", () => {
    expect(isUuid(id)).toBe(true);
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
  });

  test("anything else: other cases, shapes, padding, path tricks and non-strings", () => {
    for (const value of [
      id.toUpperCase(),
      id.replaceAll("-", ""),
      "-".repeat(36),
      `${id} `,
      ` ${id}`,
      `${id}\n`,
      `${id}/..`,
      `../${id}`,
      "5b0c1f0e-7a51-4c1e-9d43-2f3e8a6b7c9g",
      "5b0c1f0e-7a51-4c1e-9d43-2f3e8a6b7c9",
      "",
      null,
      undefined,
      42,
      { toString: () => id },
    ]) {
      expect(isUuid(value), String(value)).toBe(false);
    }
  });
});

describe("uuidField", () => {
  test("the same rule, refused in the words given (for a wrong type too)", () => {
    const field = uuidField("This room no longer exists.");
    expect(field.safeParse(id)).toMatchObject({ success: true, data: id });
    expect(field.safeParse(id.toUpperCase()).error?.issues[0].message).toBe("This room no longer exists.");
    expect(field.safeParse(null).error?.issues[0].message).toBe("This room no longer exists.");
    expect(uuidSchema.safeParse("nope").error?.issues[0].message).toBe("Not a valid id");
  });
});
