// The formatter's configuration as `npm test`'s format step and `npm run format` read it: the project's options,
// what is left alone (byte-exact fixtures, generated and immutable files), and that a badly formatted source fails
// the check while a formatted one passes.
import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";

const root = process.cwd();
const at = (file: string) => path.join(root, file);
const ignorePath = [at(".gitignore"), at(".prettierignore")];

describe("Prettier configuration", () => {
  it("resolves the project's options for a source file", async () => {
    const options = await prettier.resolveConfig(at("lib/rng.ts"), { editorconfig: false });
    expect(options).toMatchObject({ printWidth: 120, semi: true, singleQuote: false, trailingComma: "all" });
  });

  it.each([
    ["package-lock.json"],
    ["prisma/migrations/migration_lock.toml"],
    ["tests/fixtures/molecule/chimerax-criteria-report.md"],
    ["tests/fixtures/molecule/plip-pairs.json"],
    ["tests/fixtures/results/paper-table-partial.md"],
    ["tests/e2e/__screenshots__/static-labels.json"],
    ["prisma/generated/client.ts"],
  ])("leaves %s alone", async (file) => {
    expect((await prettier.getFileInfo(at(file), { ignorePath })).ignored).toBe(true);
  });

  it.each([
    ["lib/rng.ts"],
    ["components/admin/study-form.tsx"],
    ["tests/fixtures/import/build-fixtures.ts"],
    ["README.md"],
    ["docs/operating.md"],
    ["package.json"],
  ])("checks %s", async (file) => {
    expect((await prettier.getFileInfo(at(file), { ignorePath })).ignored).toBe(false);
  });

  it("fails a badly formatted source and passes it once formatted", async () => {
    const options = { ...(await prettier.resolveConfig(at("lib/example.ts"))), filepath: at("lib/example.ts") };
    const messy = "const a = {b:1,c:'two'}\nexport function f(x:number){return x+a.b}\n";
    expect(await prettier.check(messy, options)).toBe(false);
    const formatted = await prettier.format(messy, options);
    expect(formatted).toBe('const a = { b: 1, c: "two" };\nexport function f(x: number) {\n  return x + a.b;\n}\n');
    expect(await prettier.check(formatted, options)).toBe(true);
  });
});
