import "server-only";
import { listPoolVersionOptions } from "@/lib/server/dal/pools/list-pools";
import { listTasks } from "@/lib/tasks/registry";

/** Choices the study form needs (pool versions, tasks), loaded on the server for the new and edit pages. */
export async function loadStudyFormChoices() {
  const versions = await listPoolVersionOptions();
  return {
    poolVersions: versions.map((v) => ({
      id: v.id,
      label: `${v.poolName} · v${v.version} · ${v.itemCount} items${v.frozen ? " · frozen" : " · draft (freeze before opening)"}`,
    })),
    tasks: listTasks().map((t) => ({ id: t.id, label: `${t.code} ${t.label}` })),
  };
}
