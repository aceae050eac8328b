import { buildExplainCountSql, buildReadSql, planRead, relationSource } from "./read.ts";
import { bodyFormat, type CachedRead, type Call, type LoadedState, limitsFor, respondRows, settingsFor, applied, contentLocation } from "./call.ts";
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
    const fromSql = qualified(relation.schema, relation.name);
    const build = (count: boolean) => {
      const params = new Params();
      const sql = buildReadSql(node, { fromSql, withConditions: true, limit, offset, count, format: bodyFormat(accepted), stripNulls: accepted.stripNulls }, params);
      return { sql, values: params.values };
    };
    const estimating = call.prefs.count === "planned" || call.prefs.count === "estimated";
    const main = build(call.prefs.count === "exact");
    let estimate: CachedRead["estimate"];
    if (estimating) {
      const explainParams = new Params();
      const exact = build(true);
      estimate = { explainSql: buildExplainCountSql(node, fromSql, explainParams), explainValues: explainParams.values, exactSql: exact.sql, exactValues: exact.values };
    }
    plan = { location: contentLocation(relation.name, call.url.searchParams), sql: main.sql, name: preparedName(main.sql), values: main.values, offset, format: accepted, countPref: call.prefs.count, hits: 0, estimate };
    if (state.plans.size >= maxCachedPlans) state.plans.delete(state.plans.keys().next().value as string);
    state.plans.set(key, plan);
  }
  plan.hits++;
  const settings = settingsFor(state, call, true);
  if (plan.estimate) {
    // planned: the planner's row estimate; estimated: exact up to max_rows, planned beyond.
    const explained = await state.executor.run(settings, plan.estimate.explainSql, plan.estimate.explainValues, { transactional: false });
    const planned = Math.round(Number((explained.rows[0]?.["QUERY PLAN"] as { Plan: { "Plan Rows": number } }[])[0].Plan["Plan Rows"]));
    if (call.prefs.count === "estimated" && planned <= (state.options.maxRows ?? Infinity)) {
      const exact = await state.executor.run(settings, plan.estimate.exactSql, plan.estimate.exactValues, { transactional: false });
      return respondRows(state, call, exact, plan.format, plan.offset, 200, applied(call.prefs, ["count", "handling"]), { "Content-Location": plan.location });
    }
    const result = await state.executor.run(settings, plan.sql, plan.values, { transactional: false });
    if (result.rows[0]) result.rows[0].total = planned;
    return respondRows(state, call, result, plan.format, plan.offset, 200, applied(call.prefs, ["count", "handling"]), { "Content-Location": plan.location });
  }
  const result = await state.executor.run(settings, plan.sql, plan.values, { transactional: false, prepare: plan.hits > 1, name: plan.name });
  respondRows(state, call, result, plan.format, plan.offset, 200, applied(call.prefs, ["count", "handling"]), { "Content-Location": plan.location });
}
