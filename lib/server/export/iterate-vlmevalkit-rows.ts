import "server-only";
import type { VlmevalkitExportRow } from "@/lib/export/vlmevalkit-table";
import { toVlmevalkitOptions } from "@/lib/export/vlmevalkit-table";
import { db } from "@/lib/server/db";
import { findTask, TASK_IDS } from "@/lib/tasks/registry";
import { toTsvPng } from "./tsv-image";

const ITEM_PAGE_SIZE = 200;

/**
 * The items of a pool version as VLMEvalKit rows, task by task (T1..T9) and by item id, one item
 * (with its images) in memory at a time. Every item of the version is included, whatever its
 * status now: these are the items humans saw. `maxSidePx` scales larger images down (smaller file).
 */
export async function* iterateVlmevalkitRows(
  poolVersionId: string,
  options: { maxSidePx?: number | null } = {},
): AsyncGenerator<VlmevalkitExportRow> {
  for (const taskId of TASK_IDS) {
    let afterItemId = "";
    for (;;) {
      const page = await db.poolItem.findMany({
        where: { poolVersionId, taskId, itemId: { gt: afterItemId } },
        orderBy: { itemId: "asc" },
        take: ITEM_PAGE_SIZE,
        select: { itemId: true },
      });
      for (const { itemId } of page) {
        const item = await db.item.findUniqueOrThrow({
          where: { id: itemId },
          select: {
            id: true,
            externalId: true,
            taskId: true,
            split: true,
            pdbId: true,
            question: true,
            payload: true,
            answerKey: { select: { canonical: true } },
            images: { orderBy: { position: "asc" }, select: { position: true, mimeType: true, data: true } },
          },
        });
        const where = `item ${item.id}`;
        if (!item.answerKey) throw new Error(`${where} has no answer key`);
        const images = item.images.map((img) =>
          toTsvPng(img, options.maxSidePx ?? null, `${where}, image ${img.position}`).toString("base64"),
        );
        yield {
          itemId: item.id,
          externalId: item.externalId,
          taskId: item.taskId,
          taskCode: findTask(item.taskId)?.code ?? "",
          split: item.split,
          pdbId: item.pdbId,
          question: item.question,
          imagesBase64: images,
          imageNames: item.images.map((img) => `${item.id}_${img.position}.png`),
          options: toVlmevalkitOptions(item.taskId, item.payload, item.images.length),
          answer: item.answerKey.canonical,
        };
      }
      const last = page[page.length - 1];
      if (!last || page.length < ITEM_PAGE_SIZE) break;
      afterItemId = last.itemId;
    }
  }
}
