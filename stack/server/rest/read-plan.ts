import { errors } from "./errors.ts";
import type { SelectItem } from "./grammar.ts";
import { isToOne, type Relationship, resolveRelationship } from "./relationships.ts";
import type { NodeParams } from "./request.ts";
import type { Relation, SchemaCache } from "./schema-cache.ts";

/** The select tree resolved against the schema cache: each embed a relationship with its own node. */

/** What a read node selects from: a table or view, or a function's result. */
export interface ReadSource {
  name: string;
  columns: string[];
  /** The relation whose foreign keys embeds follow (a table, view, or a function's row type). */
  relation?: Relation;
}

export interface EmbedPlan {
  item: Extract<SelectItem, { kind: "embed" }>;
  outputName: string;
  relationship: Relationship;
  /** Many-to-one or one-to-one: the embed is an object, not an array. */
  toOne: boolean;
  node: ReadNode;
  lateral: string;
}

export interface ReadNode {
  /** `posts(count)`: the embed is the number of related rows, `[{"count": n}]`. */
  countOnly?: boolean;
  source: ReadSource;
  alias: string;
  select: SelectItem[];
  params: NodeParams;
  embeds: EmbedPlan[];
  nullFilters: { embed: EmbedPlan; isNull: boolean }[];
}

const emptyParams = (): NodeParams => ({ conditions: [], order: [] });

export const relationSource = (relation: Relation): ReadSource => ({
  name: relation.name,
  columns: [...relation.columns.keys()],
  relation,
});

/** Resolves a select tree against the schema cache: embeds become relationships with their own nodes. */
export function planRead(cache: SchemaCache, source: ReadSource, select: SelectItem[], paramsByPath: Map<string, NodeParams>): ReadNode {
  let counter = 0;
  const usedPaths = new Set<string>([""]);
  const plan = (src: ReadSource, alias: string, items: SelectItem[], path: string): ReadNode => {
    const node: ReadNode = {
      source: src,
      alias,
      select: items,
      params: paramsByPath.get(path) ?? emptyParams(),
      embeds: [],
      nullFilters: [],
    };
    for (const item of items) {
      if (item.kind === "column" && item.aggregate && !cache.aggregatesEnabled) throw errors.aggregatesNotAllowed();
      if (item.kind !== "embed") continue;
      if (!src.relation) throw errors.noRelationship(src.name, item.name, "public", item.hint, null);
      const relationship = resolveRelationship(cache, src.relation, item.name, item.hint);
      const outputName = item.alias ?? item.name;
      const childPath = path ? `${path}.${outputName}` : outputName;
      usedPaths.add(childPath);
      const id = ++counter;
      const child = plan(relationSource(relationship.target), `${relationship.target.name}_${id}`, item.select, childPath);
      const only = item.select.length === 1 ? item.select[0] : undefined;
      child.countOnly =
        only?.kind === "column" &&
        only.field.name === "count" &&
        !only.field.json.length &&
        !only.cast &&
        !only.alias &&
        !relationship.target.columns.has("count");
      node.embeds.push({ item, outputName, relationship, toOne: isToOne(relationship), node: child, lateral: `pgrst_${id}` });
    }
    // `order=author(name)` orders by a to-one embed's column.
    for (const term of node.params.order) {
      if (!term.relation) continue;
      const embed = node.embeds.find((e) => e.outputName === term.relation);
      if (!embed) throw errors.notEmbedded(term.relation);
      if (!embed.toOne) throw errors.relatedOrderNotToOne(src.name, term.relation);
    }
    // `posts=not.is.null` filters the parent by whether the embed has rows.
    node.params = {
      ...node.params,
      conditions: node.params.conditions.filter((condition) => {
        if (condition.kind !== "filter" || condition.field.json.length || condition.operation.op !== "is") return true;
        const embed = node.embeds.find((e) => e.outputName === condition.field.name);
        if (!embed || !["null", "not_null"].includes(condition.operation.value)) return true;
        const isNull = (condition.operation.value === "null") !== condition.operation.negated;
        node.nullFilters.push({ embed, isNull });
        return false;
      }),
    };
    return node;
  };
  const root = plan(source, source.name, select, "");
  for (const path of paramsByPath.keys()) {
    if (!usedPaths.has(path)) throw errors.notEmbedded(path);
  }
  return root;
}
