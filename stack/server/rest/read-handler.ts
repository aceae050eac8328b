import { planRead, relationSource, buildReadSql } from "./read.ts";
import { bodyFormat, type Call, type LoadedState, limitsFor, respondRows, settingsFor, applied, contentLocation } from "./call.ts";
import { preparedName } from "./execute.ts";
import { negotiate, parseQuery } from "./request.ts";
import type { Relation } from "./schema-cache.ts";
import { Params, qualified } from "./sql.ts";

/** GET/HEAD on a table or view: one cached, prepared statement per request shape. */

const maxCachedPlans = 2000;

export async function handleRead(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const key = `${call.caller.role}\u0000${call.schema}\u0000${call.req.headers.accept ?? ""}\u0000${call.req.headers.prefer ?? ""}\u0000${call.req.headers.range ?? ""}\u0000${call.url.pathname}${call.url.search}`;
  let plan = state.plans.get(key);
  if (!plan) {
    const accepted = negotiate(call.req.headers.accept);
    const query = parseQuery(call.url.searchParams);
    const root = query.nodes.get("");
    const { limit, offset } = limitsFor(state, call, root);
    const node = planRead(state.cache, relationSource(relation), query.select, query.nodes);
    const params = new Params();
    const sql = buildReadSql(node, { fromSql: qualified(relation.schema, relation.name), withConditions: true, limit, offset, count: !!call.prefs.count, format: bodyFormat(accepted), stripNulls: accepted.stripNulls }, params);
    plan = { sql, name: preparedName(sql), values: params.values, offset, format: accepted, countPref: call.prefs.count, hits: 0 };
    if (state.plans.size >= maxCachedPlans) state.plans.delete(state.plans.keys().next().value as string);
    state.plans.set(key, plan);
  }
  plan.hits++;
  const result = await state.executor.run(settingsFor(state, call, true), plan.sql, plan.values, { transactional: false, prepare: plan.hits > 1, name: plan.name });
  respondRows(state, call, result, plan.format, plan.offset, 200, applied(call.prefs, ["count", "handling"]), { "Content-Location": contentLocation(relation.name, call.url.searchParams) });
}
