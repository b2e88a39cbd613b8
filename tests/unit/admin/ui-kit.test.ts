// The staff pages' UI kit (components/admin: page shell, back link; components/ui: data table) as it renders, and the admin pages
// that use it instead of hand-written table markup.
import fs from "node:fs";
import path from "node:path";
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";
import { DataTable, EmptyRow, TableBody, TableHead, Td, Th } from "@/components/ui/data-table";

describe("admin UI kit", () => {
  it("page shell: one centred column, wide by default", () => {
    expect(renderToStaticMarkup(h(AdminPage, { children: "x" }))).toBe(
      '<main class="mx-auto max-w-6xl px-6 py-8">x</main>',
    );
    expect(renderToStaticMarkup(h(AdminPage, { width: "narrow", children: "x" }))).toContain("max-w-4xl");
  });

  it("back link: an arrow and the parent page's name", () => {
    const html = renderToStaticMarkup(h(BackLink, { href: "/admin/pools", children: "Pools" }));
    expect(html.replace(/<!-- -->/g, "")).toBe(
      '<p class="text-sm"><a class="underline" href="/admin/pools">← Pools</a></p>',
    );
  });

  it("boxed table: a scrolling box, a screen-reader caption, column headings with scope, cell padding and alignment", () => {
    const html = renderToStaticMarkup(
      h(
        DataTable,
        { caption: "Studies", className: "mt-4" },
        h(TableHead, { children: [h(Th, { key: 1 }, "Study"), h(Th, { key: 2, align: "right" }, "n")] }),
        h(TableBody, {
          children: [
            h("tr", { key: 1 }, h(Td, null, "a"), h(Td, { align: "right", className: "tabular-nums" }, 3)),
            h(EmptyRow, { key: 2, colSpan: 2, children: "No study yet." }),
          ],
        }),
      ),
    );
    expect(html).toContain(
      '<div class="overflow-x-auto rounded border border-slate-300 bg-white mt-4"><table class="w-full text-sm"><caption class="sr-only">Studies</caption>',
    );
    expect(html).toContain(
      '<thead class="bg-slate-100 text-left"><tr><th scope="col" class="px-3 py-2">Study</th><th scope="col" class="px-3 py-2 text-right">n</th></tr></thead>',
    );
    expect(html).toContain(
      '<tbody class="divide-y divide-slate-200"><tr><td class="px-3 py-2">a</td><td class="px-3 py-2 text-right tabular-nums">3</td></tr>',
    );
    expect(html).toContain('<td colSpan="2" class="px-3 py-6 text-center text-slate-600">No study yet.</td>');
  });

  it("ruled and plain tables; row headings; dense cells", () => {
    const ruled = renderToStaticMarkup(
      h(
        DataTable,
        { variant: "ruled" },
        h(TableHead, { variant: "ruled", children: h(Th, { variant: "ruled" }, "Run") }),
      ),
    );
    expect(ruled).toBe(
      '<div class="overflow-x-auto"><table class="min-w-full border-collapse text-sm"><thead><tr class="border-b border-slate-400 bg-slate-100"><th scope="col" class="px-2 py-1 text-left font-medium">Run</th></tr></thead></table></div>',
    );
    const plain = renderToStaticMarkup(
      h(
        DataTable,
        { variant: "plain", className: "mt-2", ...{ "data-testid": "t" } },
        h("tbody", null, h("tr", null, h(Th, { scope: "row", size: "sm" }, "T1"))),
      ),
    );
    expect(plain).toBe(
      '<table class="text-sm mt-2" data-testid="t"><tbody><tr><th scope="row" class="px-3 py-1">T1</th></tr></tbody></table>',
    );
  });
});

describe("admin pages use the kit", () => {
  // The results pages and the study form are converted separately.
  const skip = (f: string) =>
    f.startsWith("app/admin/results/") || /^app\/admin\/studies\/(new|\[studyId\]\/edit)\//.test(f);
  const pages = (function walk(dir: string): string[] {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : e.name === "page.tsx" ? [path.join(dir, e.name)] : [],
      );
  })("app/admin").filter((f) => !skip(f));

  it.each(pages)("%s: no hand-written page frame, back link or table cell classes", (file) => {
    const source = fs.readFileSync(file, "utf8");
    expect(source).not.toContain("<main");
    expect(source).not.toMatch(/<p className="text-sm">\s*<Link[^>]*>\s*← /);
    expect(source).not.toMatch(/<t[hd][^>]*className="px-[23] py-[12]/);
  });
});

describe("every table goes through the kit", () => {
  // Results sections, staff pages and the participant primer alike: one table component, so a table's frame, cell
  // padding and headings change in one place.
  const KIT = path.join("components", "ui", "data-table.tsx");
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
  const sources = ["components", "app"].flatMap((dir) => walk(dir));

  it("finds the sources", () => {
    expect(sources).toContain(KIT);
    expect(sources.length).toBeGreaterThan(20);
  });

  it.each(sources.filter((f) => f !== KIT))("%s: no hand-written <table> or copied heading classes", (file) => {
    const source = fs.readFileSync(file, "utf8");
    expect(source).not.toMatch(/<table[\s>]/);
    expect(source).not.toMatch(/const TH\s*=/);
  });
});
