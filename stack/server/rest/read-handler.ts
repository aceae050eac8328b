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
    // exact and estimated count in the statement (estimated up to max_rows + 1); planned and estimated
    // may then ask the planner, as PostgREST does.
    const counting = call.prefs.count === "exact" || call.prefs.count === "estimated";
    const maxRows = state.options.maxRows;
    const params = new Params();
    const sql = buildReadSql(node, { fromSql, withConditions: true, limit, offset, count: counting, countLimit: call.prefs.count === "estimated" && maxRows !== undefined ? maxRows + 1 : undefined, format: bodyFormat(accepted), stripNulls: accepted.stripNulls }, params);
    let explain: CachedRead["explain"];
    if (call.prefs.count === "planned" || call.prefs.count === "estimated") {
      const explainParams = new Params();
      explain = { sql: buildExplainCountSql(node, fromSql, explainParams), values: explainParams.values };
    }
    plan = { location: contentLocation(relation.name, call.url.searchParams), sql, name: preparedName(sql), values: params.values, offset, format: accepted, countPref: call.prefs.count, hits: 0, explain };
    if (state.plans.size >= maxCachedPlans) state.plans.delete(state.plans.keys().next().value as string);
    state.plans.set(key, plan);
  }
  plan.hits++;
  const settings = settingsFor(state, call, true);
  const result = await state.executor.run(settings, plan.sql, plan.values, { transactional: false, prepare: plan.hits > 1, name: plan.name });
  const row = result.rows[0];
  const maxRows = state.options.maxRows;
  // planned: the planner's estimate; estimated: the exact count up to max_rows, beyond it (or with no
  // max_rows) the larger of the count and the estimate.
  if (plan.explain && row && (plan.countPref === "planned" || maxRows === undefined || Number(row.total) > maxRows)) {
    const explained = await state.executor.run(settings, plan.explain.sql, plan.explain.values, { transactional: false });
    const planned = Math.round(Number((explained.rows[0]?.["QUERY PLAN"] as { Plan: { "Plan Rows": number } }[])[0].Plan["Plan Rows"]));
    row.total = plan.countPref === "planned" ? planned : Math.max(Number(row.total), planned);
  }
  respondRows(state, call, result, plan.format, plan.offset, 200, applied(call.prefs, ["count", "handling"]), { "Content-Location": plan.location });
}
