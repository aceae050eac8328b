import { readFileSync } from "node:fs";

/** One case of tests/fixtures/text-shapes.json, its value spelled out. */
export interface TextShapeCase {
  name: string;
  value: string;
  /** Accepted as a display name (a line of up to 50 characters). */
  line: boolean;
  /** Accepted as a bio (up to 280 characters). */
  body: boolean;
  /** Accepted as a comment (up to 1000 characters, something visible). */
  comment: boolean;
}

const { cases } = JSON.parse(readFileSync(new URL("../fixtures/text-shapes.json", import.meta.url), "utf8")) as {
  cases: (TextShapeCase & { repeat?: number })[];
};

export const textShapeCases: TextShapeCase[] = cases.map(({ repeat, ...shape }) => ({ ...shape, value: shape.value.repeat(repeat ?? 1) }));
