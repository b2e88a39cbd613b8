import { z } from "zod";
import type { GradeResult, RenderResult, TaskDefinition, TaskId, TaskItem, TaskSpec } from "./types";

/** Adds the derived members (defaults, item schema, type-erased grading) to a task module. */
export function defineTask<Id extends TaskId, Answer, Gold, Fields, P extends z.ZodType<object>>(
  spec: TaskSpec<Id, Answer, Gold, Fields, P>,
): TaskDefinition<Id, Answer, Gold, Fields, P> {
  const defaults = spec.params.safeParse({});
  if (!defaults.success) {
    throw new Error(`task ${spec.id}: params schema has no valid defaults: ${z.prettifyError(defaults.error)}`);
  }
  const defaultParams = defaults.data;

  const resolveParams = (overrides: unknown): { ok: true; params: z.output<P> } | { ok: false; error: string } => {
    if (overrides === undefined) return { ok: true, params: defaultParams };
    if (typeof overrides !== "object" || overrides === null || Array.isArray(overrides)) {
      return { ok: false, error: `params for task ${spec.id} must be an object` };
    }
    const parsed = spec.params.safeParse({ ...defaultParams, ...overrides });
    if (!parsed.success)
      return { ok: false, error: `invalid params for task ${spec.id}: ${z.prettifyError(parsed.error)}` };
    return { ok: true, params: parsed.data };
  };

  const itemSchema = z.object({ fields: spec.fieldsSchema, gold: spec.goldSchema }).superRefine((item, ctx) => {
    const problem = spec.checkItem?.(item as TaskItem<Fields, Gold>);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  }) as unknown as z.ZodType<TaskItem<Fields, Gold>>;

  const parseAnswerFor = (text: string, rawFields: unknown) => {
    if (!spec.parseAnswerForItem || rawFields === undefined) return spec.parseAnswer(text);
    const fields = spec.fieldsSchema.safeParse(rawFields);
    return fields.success ? spec.parseAnswerForItem(text, fields.data) : spec.parseAnswer(text);
  };

  return {
    ...spec,
    defaultParams,
    parseAnswerFor,
    itemSchema,
    score(answer, gold, overrides) {
      const resolved = resolveParams(overrides);
      if (!resolved.ok) throw new Error(resolved.error);
      return spec.score(answer, gold, resolved.params);
    },
    canonicalizeGold(gold) {
      return spec.canonicalize(spec.toCorrectAnswer(gold));
    },
    gradeText(text, rawGold, rawParams, rawFields): GradeResult {
      const gold = spec.goldSchema.safeParse(rawGold);
      if (!gold.success) {
        return {
          ok: false,
          stage: "gold",
          error: `stored gold for task ${spec.id} v${spec.version} is invalid: ${z.prettifyError(gold.error)}`,
        };
      }
      const resolved = resolveParams(rawParams);
      if (!resolved.ok) return { ok: false, stage: "params", error: resolved.error };
      const parsed = parseAnswerFor(text, rawFields);
      if (!parsed.ok) return { ok: false, stage: "answer", error: parsed.error };
      return { ok: true, canonical: parsed.canonical, score: spec.score(parsed.value, gold.data, resolved.params) };
    },
    renderStoredQuestion(rawFields): RenderResult {
      const fields = spec.fieldsSchema.safeParse(rawFields);
      if (!fields.success) {
        return {
          ok: false,
          error: `stored fields for task ${spec.id} v${spec.version} are invalid: ${z.prettifyError(fields.error)}`,
        };
      }
      return { ok: true, text: spec.renderQuestion(fields.data) };
    },
  };
}
