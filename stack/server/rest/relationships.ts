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

function candidates(cache: SchemaCache, parent: Relation, target: Relation): Relationship[] {
  const out: Relationship[] = [];
  const same = (side: { schema: string; table: string }, rel: Relation) => side.schema === rel.schema && side.table === rel.name;
  for (const fk of cache.foreignKeys) {
    if (same(fk.source, parent) && same(fk.target, target)) {
      out.push({
        cardinality: isUnique(parent, fk.source.columns) ? "one-to-one" : "many-to-one",
        target,
        pairs: fk.source.columns.map((c, i) => [c, fk.target.columns[i]]),
        constraint: fk.name,
      });
    }
    if (same(fk.target, parent) && same(fk.source, target)) {
      out.push({
        cardinality: isUnique(target, fk.source.columns) ? "one-to-one" : "one-to-many",
        target,
        pairs: fk.target.columns.map((c, i) => [c, fk.source.columns[i]]),
        constraint: fk.name,
      });
    }
  }
  for (const junction of cache.relations.values()) {
    if (junction.kind !== "table" || same({ schema: junction.schema, table: junction.name }, parent) || same({ schema: junction.schema, table: junction.name }, target)) continue;
    const fks = cache.foreignKeys.filter((fk) => fk.source.schema === junction.schema && fk.source.table === junction.name);
    for (const toParent of fks.filter((fk) => same(fk.target, parent))) {
      for (const toTarget of fks.filter((fk) => fk !== toParent && same(fk.target, target))) {
        const pk = junction.primaryKey;
        if (![...toParent.source.columns, ...toTarget.source.columns].every((c) => pk.includes(c))) continue;
        out.push({ cardinality: "many-to-many", target, pairs: [], constraint: toParent.name, junction: { relation: junction, toParent, toTarget } });
      }
    }
  }
  return out;
}

function matchesHint(rel: Relationship, hint: string): boolean {
  if (rel.junction) return hint === rel.junction.relation.name || hint === rel.junction.toParent.name || hint === rel.junction.toTarget.name;
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

/** Finds the one relationship `parent` → `name` (optionally `!hint`), or answers PGRST200/201. */
export function resolveRelationship(cache: SchemaCache, parent: Relation, name: string, hint: string | undefined): Relationship {
  const target = cache.relations.get(relationKey(parent.schema, name));
  if (!target && hint === undefined) {
    // Embedding by a foreign-key column of the parent (`supervisor_id(name)`): that many-to-one.
    const viaColumn = cache.foreignKeys.filter(
      (fk) => fk.source.schema === parent.schema && fk.source.table === parent.name && fk.source.columns.length === 1 && fk.source.columns[0] === name,
    );
    const related = viaColumn.length === 1 ? cache.relations.get(relationKey(viaColumn[0].target.schema, viaColumn[0].target.table)) : undefined;
    if (related) {
      const fk = viaColumn[0];
      return { cardinality: isUnique(parent, fk.source.columns) ? "one-to-one" : "many-to-one", target: related, pairs: [[name, fk.target.columns[0]]], constraint: fk.name };
    }
  }
  let found = target ? candidates(cache, parent, target) : [];
  if (hint !== undefined) found = found.filter((rel) => matchesHint(rel, hint));
  // A self-reference hinted by its column (`employees!supervisor_id`) means the rows pointing here.
  if (found.length > 1 && target === parent && hint !== undefined) {
    const inbound = found.filter((rel) => !rel.junction && rel.pairs.some(([, t]) => t === hint) && !rel.pairs.some(([p]) => p === hint));
    if (inbound.length === 1) return inbound[0];
  }
  if (found.length === 1) return found[0];
  if (found.length > 1) {
    // A direct relationship wins over many-to-many ones only when hinted; otherwise it is ambiguous.
    throw errors.ambiguousRelationship(
      parent.name,
      name,
      found.map((rel) => describe(parent, rel)),
      found.map((rel) => `'${name}!${rel.junction ? rel.junction.relation.name : rel.constraint}'`),
    );
  }
  // PostgREST suggests a close related table when the target is unknown (none when both exist).
  const related = new Set<string>();
  for (const fk of cache.foreignKeys) {
    if (fk.source.table === parent.name && fk.source.schema === parent.schema) related.add(fk.target.table);
    if (fk.target.table === parent.name && fk.target.schema === parent.schema) related.add(fk.source.table);
  }
  const suggestion = target ? null : closestName(name, related, 0.33);
  throw errors.noRelationship(parent.name, name, parent.schema, hint, suggestion ? `Perhaps you meant '${suggestion}' instead of '${name}'.` : null);
}
