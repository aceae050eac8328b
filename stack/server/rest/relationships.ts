import { errors } from "./errors.ts";
import { closestName, type ForeignKey, type Relation, relationKey, type SchemaCache } from "./schema-cache.ts";

/** How an embedded resource joins its parent, resolved from foreign keys as PostgREST does. */
export interface Relationship {
  cardinality: "many-to-one" | "one-to-many" | "one-to-one" | "many-to-many";
  target: Relation;
  /** Pairs of (parent column, target column) for direct relationships. */
  pairs: [string, string][];
  constraint: string;
  junction?: { relation: Relation; toParent: ForeignKey; toTarget: ForeignKey };
}

export const isToOne = (rel: Relationship) => rel.cardinality === "many-to-one" || rel.cardinality === "one-to-one";

function isUnique(relation: Relation | undefined, columns: string[]): boolean {
  return !!relation?.uniqueKeys.some((key) => key.length === columns.length && key.every((c) => columns.includes(c)));
}

/** Every relationship of `parent`, as PostgREST's schema cache lists them (a self-reference gives two). */
function relationshipsOf(cache: SchemaCache, parent: Relation): Relationship[] {
  const out: Relationship[] = [];
  const same = (side: { schema: string; table: string }, rel: Relation) => side.schema === rel.schema && side.table === rel.name;
  const relationOf = (side: { schema: string; table: string }) => cache.relations.get(relationKey(side.schema, side.table));
  for (const fk of cache.foreignKeys) {
    const target = same(fk.source, parent) ? relationOf(fk.target) : undefined;
    if (target) {
      out.push({
        cardinality: isUnique(parent, fk.source.columns) ? "one-to-one" : "many-to-one",
        target,
        pairs: fk.source.columns.map((c, i) => [c, fk.target.columns[i]]),
        constraint: fk.name,
      });
    }
    const source = same(fk.target, parent) ? relationOf(fk.source) : undefined;
    if (source) {
      out.push({
        cardinality: isUnique(source, fk.source.columns) ? "one-to-one" : "one-to-many",
        target: source,
        pairs: fk.target.columns.map((c, i) => [c, fk.source.columns[i]]),
        constraint: fk.name,
      });
    }
  }
  for (const junction of cache.relations.values()) {
    if (junction.kind !== "table" || junction === parent) continue;
    const fks = cache.foreignKeys.filter((fk) => fk.source.schema === junction.schema && fk.source.table === junction.name);
    for (const toParent of fks.filter((fk) => same(fk.target, parent))) {
      for (const toTarget of fks.filter((fk) => fk !== toParent)) {
        const target = relationOf(toTarget.target);
        if (!target || target === junction) continue;
        const pk = junction.primaryKey;
        if (![...toParent.source.columns, ...toTarget.source.columns].every((c) => pk.includes(c))) continue;
        out.push({
          cardinality: "many-to-many",
          target,
          pairs: [],
          constraint: toParent.name,
          junction: { relation: junction, toParent, toTarget },
        });
      }
    }
  }
  return out;
}

function matchesHint(rel: Relationship, hint: string): boolean {
  if (rel.junction)
    return hint === rel.junction.relation.name || hint === rel.junction.toParent.name || hint === rel.junction.toTarget.name;
  return hint === rel.constraint || rel.pairs.some(([a, b]) => a === hint || b === hint);
}

function describe(parent: Relation, rel: Relationship) {
  const cols = (names: string[]) => `(${names.join(", ")})`;
  if (rel.junction) {
    const j = rel.junction;
    return {
      cardinality: rel.cardinality,
      embedding: `${parent.name} with ${rel.target.name}`,
      relationship: `${j.relation.name} using ${j.toParent.name}${cols(j.toParent.source.columns)} and ${j.toTarget.name}${cols(j.toTarget.source.columns)}`,
    };
  }
  return {
    cardinality: rel.cardinality,
    embedding: `${parent.name} with ${rel.target.name}`,
    relationship: `${rel.constraint} using ${parent.name}${cols(rel.pairs.map((p) => p[0]))} and ${rel.target.name}${cols(rel.pairs.map((p) => p[1]))}`,
  };
}

/**
 * Finds the one relationship `parent` → `name` (optionally `!hint`), or answers PGRST200/201. `name`
 * is the related table or view, or (tables only) a foreign-key constraint or a single foreign-key
 * column of the parent. A self-reference is two relationships: `name` as the table means the rows
 * pointing here (one-to-many), `name` as the column the row pointed at (many-to-one).
 */
export function resolveRelationship(cache: SchemaCache, parent: Relation, name: string, hint: string | undefined): Relationship {
  const singleColumn = (rel: Relationship, side: 0 | 1, column: string) =>
    !rel.junction && rel.pairs.length === 1 && rel.pairs[0][side] === column;
  const found = relationshipsOf(cache, parent).filter((rel) => {
    const toTable = rel.target.name === name && rel.target.schema === parent.schema;
    if (!rel.junction && rel.target === parent) {
      if (hint === undefined)
        return (toTable && rel.cardinality === "one-to-many") || (singleColumn(rel, 0, name) && rel.cardinality === "many-to-one");
      return toTable && rel.cardinality === "one-to-many" && singleColumn(rel, 1, hint);
    }
    if (hint === undefined) {
      const viaTable = rel.target.kind === "table";
      return toTable || (viaTable && !rel.junction && (rel.constraint === name || singleColumn(rel, 0, name)));
    }
    return toTable && matchesHint(rel, hint);
  });
  if (found.length === 1) return found[0];
  if (found.length > 1) {
    throw errors.ambiguousRelationship(
      parent.name,
      name,
      found.map((rel) => describe(parent, rel)),
      found.map((rel) => `'${rel.target.name}!${rel.junction ? rel.junction.relation.name : rel.constraint}'`),
    );
  }
  const target = cache.relations.get(relationKey(parent.schema, name));
  // PostgREST suggests a close related table when the target is unknown (none when both exist).
  const related = new Set<string>();
  for (const fk of cache.foreignKeys) {
    if (fk.source.table === parent.name && fk.source.schema === parent.schema) related.add(fk.target.table);
    if (fk.target.table === parent.name && fk.target.schema === parent.schema) related.add(fk.source.table);
  }
  const suggestion = target ? null : closestName(name, related, 0.33);
  throw errors.noRelationship(
    parent.name,
    name,
    parent.schema,
    hint,
    suggestion ? `Perhaps you meant '${suggestion}' instead of '${name}'.` : null,
  );
}
