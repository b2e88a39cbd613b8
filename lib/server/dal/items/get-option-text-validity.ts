import "server-only";
import { db } from "@/lib/server/db";
import { type OptionTextReport, measureOptionTextStrategies } from "@/lib/generate/mc-validity";
import { listTasks } from "@/lib/tasks/registry";
import { MC_LETTERS, type McLetter } from "@/lib/tasks/types";

/** Option-text-only accuracy per MC task over its active items (lib/generate/mc-validity.ts); only aggregates leave this module, never a key. */
export interface OptionTextValidityDto {
  taskId: string;
  report: OptionTextReport;
}

/** Items read per round trip. */
const PAGE = 5_000;

export async function getOptionTextValidity(): Promise<OptionTextValidityDto[]> {
  const mcTasks = listTasks()
    .filter((t) => t.format === "mc")
    .map((t) => t.id as string);
  const out: OptionTextValidityDto[] = [];
  for (const taskId of mcTasks) {
    const items: { options: string[]; letter: McLetter }[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await db.answerKey.findMany({
        where: { item: { taskId, status: "active" } },
        select: { itemId: true, gold: true },
        orderBy: { itemId: "asc" },
        take: PAGE,
        ...(cursor ? { skip: 1, cursor: { itemId: cursor } } : {}),
      });
      for (const k of page) {
        const g = k.gold as { letter?: unknown; options?: unknown } | null;
        if (
          g &&
          typeof g.letter === "string" &&
          (MC_LETTERS as readonly string[]).includes(g.letter) &&
          Array.isArray(g.options) &&
          g.options.length === 4 &&
          g.options.every((o) => typeof o === "string")
        ) {
          items.push({ options: g.options as string[], letter: g.letter as McLetter });
        }
      }
      if (page.length < PAGE) break;
      cursor = page[page.length - 1]!.itemId;
    }
    if (items.length > 0) out.push({ taskId, report: measureOptionTextStrategies(items) });
  }
  return out;
}
